/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_key.c - the RSA key object (fc_rsa.h, rsa_key.h) behind the key
 * management (keymgmt_rsa.c, keymgmt_rsa_gen.c): its life (references,
 * what it holds: our core's key or, delegated, default's), the key
 * components as OSSL_PARAMs (names, big-endian values, native-endian
 * unsigned integers), which sizes this CPU offers, and the move of a key
 * to default (fc_rsa_obj_delegate at import, fc_rsa_obj_hand_over after
 * generation).
 *
 * What the object holds decides its implementation (fc_rsa_key_impl):
 * fc_rsa_key_native (keymgmt_rsa.c) while it holds our core's key or
 * nothing, fc_rsa_key_delegated (rsa_deleg.c) once it holds default's. Only
 * fc_rsa_obj_hold_key and fc_rsa_obj_hold_deleg change it.
 */
#include <stdint.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "fc/common.h"
#include "fc/offer.h"
#include "fc/rsa.h"
#include "fc_prov.h"
#include "fc_rsa.h"
#include "rsa_deleg.h"
#include "rsa_key.h"

/* ------------------------------------------------------------------------ */
/* The object (fc_rsa.h)                                                    */

/* see fc_rsa.h */
int fc_rsa_obj_up_ref(fc_rsa_obj *obj)
{
    __atomic_fetch_add(&obj->refcnt, 1, __ATOMIC_RELAXED);
    return 1;
}

/* see fc_rsa.h */
void fc_rsa_obj_free(fc_rsa_obj *obj)
{
    if (obj == NULL)
        return;
    /* Acquire-release: the last owner must see every write made through
     * the other references before it frees. */
    if (__atomic_sub_fetch(&obj->refcnt, 1, __ATOMIC_ACQ_REL) > 0)
        return;
    fc_rsa_key_free(obj->key);
    EVP_PKEY_free(obj->deleg);
    OPENSSL_free(obj);
}

/* see fc_rsa.h */
int fc_rsa_rand(void *arg, uint8_t *buf, size_t len)
{
    const fc_prov_ctx *prov = arg;

    /* The private DRBG of the child library context: blinding factors and
     * primes are secrets, and the child's DRBGs reseed after fork. */
    return RAND_priv_bytes_ex(prov->libctx, buf, len, 0) > 0;
}

/* see rsa_key.h */
fc_rsa_obj *fc_rsa_obj_new(fc_prov_ctx *prov)
{
    fc_rsa_obj *obj = OPENSSL_zalloc(sizeof(*obj));

    if (obj == NULL) {
        FC_RAISE(prov, FC_R_MALLOC_FAILURE);
        return NULL;
    }
    obj->prov = prov;
    obj->refcnt = 1;
    obj->impl = &fc_rsa_key_native;
    return obj;
}

/* see rsa_key.h */
void fc_rsa_obj_hold_key(fc_rsa_obj *obj, fc_rsa_key *key)
{
    fc_rsa_key_free(obj->key);
    obj->key = key;
    EVP_PKEY_free(obj->deleg);
    obj->deleg = NULL;
    obj->deleg_priv = 0;
    obj->impl = &fc_rsa_key_native;
}

/* Makes |obj| hold default's key |pkey| (|has_d|: with d) instead of ours:
 * a delegated key from now on. */
static void fc_rsa_obj_hold_deleg(fc_rsa_obj *obj, EVP_PKEY *pkey, int has_d)
{
    fc_rsa_key_free(obj->key);
    obj->key = NULL;
    EVP_PKEY_free(obj->deleg);
    obj->deleg = pkey;
    obj->deleg_priv = has_d;
    obj->impl = &fc_rsa_key_delegated;
}

/* ------------------------------------------------------------------------ */
/* Components <-> OSSL_PARAMs                                               */

/* see rsa_key.h */
const fc_rsa_comp fc_rsa_comps[FC_RSA_NCOMPS] = {
    {OSSL_PKEY_PARAM_RSA_N, 'n', -1, 0},
    {OSSL_PKEY_PARAM_RSA_E, 'e', -1, 0},
    {OSSL_PKEY_PARAM_RSA_D, 'd', -1, 1},
    {OSSL_PKEY_PARAM_RSA_FACTOR1, 'r', 0, 1},
    {OSSL_PKEY_PARAM_RSA_FACTOR2, 'r', 1, 1},
    {OSSL_PKEY_PARAM_RSA_FACTOR3, 'r', 2, 1},
    {OSSL_PKEY_PARAM_RSA_FACTOR4, 'r', 3, 1},
    {OSSL_PKEY_PARAM_RSA_FACTOR5, 'r', 4, 1},
    {OSSL_PKEY_PARAM_RSA_EXPONENT1, 'd', 0, 1},
    {OSSL_PKEY_PARAM_RSA_EXPONENT2, 'd', 1, 1},
    {OSSL_PKEY_PARAM_RSA_EXPONENT3, 'd', 2, 1},
    {OSSL_PKEY_PARAM_RSA_EXPONENT4, 'd', 3, 1},
    {OSSL_PKEY_PARAM_RSA_EXPONENT5, 'd', 4, 1},
    {OSSL_PKEY_PARAM_RSA_COEFFICIENT1, 't', 1, 1},
    {OSSL_PKEY_PARAM_RSA_COEFFICIENT2, 't', 2, 1},
    {OSSL_PKEY_PARAM_RSA_COEFFICIENT3, 't', 3, 1},
    {OSSL_PKEY_PARAM_RSA_COEFFICIENT4, 't', 4, 1},
};

/* see rsa_key.h */
int fc_rsa_comp_index(const char *key)
{
    static const struct {
        const char *prefix;
        size_t len;
        int first, count;
    } fam[] = {
        {"rsa-factor", 10, FC_COMP_F, 5},
        {"rsa-exponent", 12, FC_COMP_X, 5},
        {"rsa-coefficient", 15, FC_COMP_T, 4},
    };

    if (key[0] != '\0' && key[1] == '\0') {
        switch (key[0]) {
        case 'n':
            return 0;
        case 'e':
            return 1;
        case 'd':
            return 2;
        }
        return -1;
    }
    if (strncmp(key, "rsa-", 4) != 0)
        return -1;
    for (size_t f = 0; f < FC_ARRAY_LEN(fam); f++) {
        const char *num = key + fam[f].len;
        unsigned v = 0;

        if (strncmp(key, fam[f].prefix, fam[f].len) != 0)
            continue;
        if (*num < '1' || *num > '9')
            return -1;
        while (*num >= '0' && *num <= '9' && v < 100)
            v = 10 * v + (unsigned)(*num++ - '0');
        if (*num != '\0')
            return -1;
        if (v > (unsigned)fam[f].count)
            return -2;
        return fam[f].first + (int)v - 1;
    }
    return -1;
}

/* see rsa_key.h */
int fc_rsa_comp_get(const fc_rsa_key *key, const fc_rsa_comp *c, uint8_t *out,
                    size_t cap, size_t *len)
{
    if (c->prime < 0)
        return fc_rsa_get_component(key, c->part, out, cap, len);
    return fc_rsa_get_prime_part(key, c->part, (size_t)c->prime, out, cap, len);
}

/* see rsa_key.h */
int fc_param_set_be(OSSL_PARAM *p, const uint8_t *be, size_t len)
{
    BIGNUM *bn = BN_bin2bn(be, (int)len, NULL);
    int ok = bn != NULL && OSSL_PARAM_set_BN(p, bn);

    BN_clear_free(bn);
    return ok;
}

/* Copies big-endian |be| into |dst| in the host's byte order, the layout of
 * an OSSL_PARAM_UNSIGNED_INTEGER. */
static void fc_be_to_native(uint8_t *dst, const uint8_t *be, size_t len)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    memcpy(dst, be, len);
#else
    for (size_t i = 0; i < len; i++)
        dst[i] = be[len - 1 - i];
#endif
}

/* see rsa_key.h */
int fc_rsa_bits_offered(const fc_prov_ctx *prov, size_t bits)
{
    return (prov->offer & fc_offer_rsa_bit(((bits + 1) / 2 + 63) / 64)) != 0;
}

/* see rsa_key.h */
int fc_rsa_offered(const fc_prov_ctx *prov, const uint8_t *n, size_t len)
{
    size_t bits;

    while (len > 0 && n[0] == 0) {
        n++;
        len--;
    }
    if (len == 0)
        return 1; /* refused later, with a reason */
    bits = 8 * len;
    for (uint8_t top = n[0]; (top & 0x80) == 0; top <<= 1)
        bits--;
    return fc_rsa_bits_offered(prov, bits);
}

/* see rsa_key.h */
int fc_param_to_be(const OSSL_PARAM *p, uint8_t *dst, size_t cap, size_t *len)
{
    BIGNUM *bn = NULL;
    int n;

    if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER && p->data != NULL &&
        p->data_size <= cap) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        memcpy(dst, p->data, p->data_size);
#else
        const uint8_t *src = p->data;
        const size_t sz = p->data_size;
        size_t i = 0;

        /* eight bytes a step from the far end, byte-swapped */
        for (; i + 8 <= sz; i += 8) {
            uint64_t w;

            memcpy(&w, src + sz - 8 - i, 8);
            w = __builtin_bswap64(w);
            memcpy(dst + i, &w, 8);
        }
        for (; i < sz; i++)
            dst[i] = src[sz - 1 - i];
#endif
        *len = p->data_size;
        return 1;
    }
    if (!OSSL_PARAM_get_BN(p, &bn))
        return 0;
    n = BN_num_bytes(bn);
    if ((size_t)n > cap) {
        BN_clear_free(bn);
        return 0;
    }
    *len = (size_t)BN_bn2bin(bn, dst);
    BN_clear_free(bn);
    return 1;
}

/*
 * The parameters a delegated key is made of, from |params| and its
 * components |par| (fc_rsa_obj_delegate's, private ones only if |priv|):
 * what is not a key component (an RSA-PSS key's restrictions), n and e,
 * and for a private key d and the CRT values, these only as a complete
 * set: k primes (rsa-factor1..k, k >= 2), their k exponents and k - 1
 * coefficients, nothing beyond. Default is given no other shape: OpenSSL
 * 3.0's import frees p and q twice on an incomplete multi-prime set, or
 * keeps one whose first private operation reads a NULL exponent; later
 * versions refuse some of these. Our core uses such a key through d, and
 * so does default with n, e and d alone. Without d, default keeps only the
 * public key whatever else is given: so it gets n and e. Other "rsa-"
 * parameters (rsa-derive-from-pq, the parts of a sixth prime) are left
 * out, as our core ignores them. Returns an OPENSSL_malloc'ed list (the
 * values stay the caller's), *has_d set, or NULL.
 */
static OSSL_PARAM *fc_rsa_deleg_params(const OSSL_PARAM params[],
                                       const OSSL_PARAM *const *par, int priv,
                                       int *has_d)
{
    size_t count = 0, np = 0, k;
    int complete;
    OSSL_PARAM *out;

    for (const OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++)
        count++;
    out = OPENSSL_malloc((count + FC_RSA_NCOMPS + 1) * sizeof(*out));
    if (out == NULL)
        return NULL;
    for (const OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++)
        if (strncmp(p->key, "rsa-", 4) != 0 && fc_rsa_comp_index(p->key) == -1)
            out[np++] = *p;
    out[np++] = *par[0];
    out[np++] = *par[1];
    *has_d = priv && par[2] != NULL;
    if (*has_d) {
        out[np++] = *par[2];
        for (k = 0; k < FC_RSA_MAX_PRIMES && par[FC_COMP_F + k] != NULL; k++)
            ;
        complete = k >= 2;
        for (size_t i = 0; i < FC_RSA_MAX_PRIMES; i++)
            complete = complete && (par[FC_COMP_F + i] != NULL) == (i < k) &&
                       (par[FC_COMP_X + i] != NULL) == (i < k) &&
                       (i == 0 || (par[FC_COMP_T + i - 1] != NULL) == (i < k));
        for (size_t i = 0; complete && i < k; i++) {
            out[np++] = *par[FC_COMP_F + i];
            out[np++] = *par[FC_COMP_X + i];
            if (i >= 1)
                out[np++] = *par[FC_COMP_T + i - 1];
        }
    }
    out[np] = OSSL_PARAM_construct_end();
    return out;
}

/* see rsa_key.h */
int fc_rsa_obj_delegate(fc_rsa_obj *obj, int selection,
                        const OSSL_PARAM params[], const OSSL_PARAM *const *par)
{
    const int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    OSSL_PARAM *sel;
    const char *why = NULL;
    EVP_PKEY *pkey = NULL;
    int has_d = 0;

    sel = fc_rsa_deleg_params(params, par, priv, &has_d);
    if (sel == NULL) {
        FC_RAISE(obj->prov, FC_R_MALLOC_FAILURE);
        return -1;
    }
    if (has_d)
        why = fc_rsa_deleg_check_private(obj->prov, sel);
    if (why == NULL)
        pkey = fc_rsa_deleg_import(obj->prov, obj->pss, selection, sel);
    OPENSSL_free(sel);
    if (why != NULL) {
        FC_RAISE_DATA(obj->prov, FC_R_INVALID_KEY, "%s", why);
        return -1;
    }
    if (pkey == NULL)
        return 0;
    fc_rsa_obj_hold_deleg(obj, pkey, has_d);
    return 1;
}

/* see rsa_key.h */
int fc_rsa_obj_export_params(const fc_rsa_obj *obj, int selection,
                             OSSL_CALLBACK *cb, void *cbarg)
{
    const fc_rsa_key *key = obj->key;
    OSSL_PARAM params[FC_RSA_NCOMPS + 4];
    int saltlen;
    size_t k = fc_rsa_size(key), cap = k + 8, used = 0, np = 0;
    uint8_t tmp[FC_RSA_MAX_BYTES + 8];
    uint8_t *buf;
    int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0, ok;

    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        priv = -1; /* nothing to export */
    /* every component fits in k bytes (as imported, at most n's length) */
    buf = OPENSSL_secure_zalloc(FC_RSA_NCOMPS * cap);
    if (buf == NULL)
        return 0;
    for (size_t i = 0; priv >= 0 && i < FC_RSA_NCOMPS; i++) {
        size_t len;

        if (fc_rsa_comps[i].priv && !priv)
            continue;
        if (!fc_rsa_comp_get(key, &fc_rsa_comps[i], tmp, sizeof(tmp), &len))
            continue; /* absent (public key, no CRT values, fewer primes) */
        fc_be_to_native(buf + used, tmp, len);
        params[np++] =
            OSSL_PARAM_construct_BN(fc_rsa_comps[i].name, buf + used, len);
        used += cap;
    }
    /* an RSA-PSS key's restrictions, as default exports them */
    if ((selection & OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS) != 0 && obj->pss)
        np += fc_rsa_pss_params_export(&obj->pss_params, params + np, &saltlen);
    params[np] = OSSL_PARAM_construct_end();
    ok = cb(params, cbarg);
    OPENSSL_cleanse(tmp, sizeof(tmp));
    OPENSSL_secure_clear_free(buf, FC_RSA_NCOMPS * cap);
    return ok;
}

/* A key handed over: its parameters go from our export straight into
 * default's import. */
typedef struct fc_rsa_handover {
    fc_rsa_obj *obj;
    EVP_PKEY *pkey;
} fc_rsa_handover;

static int fc_rsa_handover_cb(const OSSL_PARAM params[], void *arg)
{
    fc_rsa_handover *h = arg;

    h->pkey = fc_rsa_deleg_import(h->obj->prov, h->obj->pss,
                                  OSSL_KEYMGMT_SELECT_ALL, params);
    return h->pkey != NULL;
}

/* see rsa_key.h */
int fc_rsa_obj_hand_over(fc_rsa_obj *obj)
{
    fc_rsa_handover h = {obj, NULL};

    if (!fc_rsa_obj_export_params(obj, OSSL_KEYMGMT_SELECT_ALL,
                                  fc_rsa_handover_cb, &h))
        return 0;
    fc_rsa_obj_hold_deleg(obj, h.pkey, 1);
    return 1;
}
