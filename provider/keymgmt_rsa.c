/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keymgmt_rsa.c - RSA key management for OpenSSL: the key object shared by
 * the signature and asymmetric cipher code, import and export (how keys
 * decoded by the default provider reach us, and how ours reach its
 * encoders), queries, validation, duplication, and key generation.
 *
 * Import is cheap, as default's is: the parameters are read straight into
 * the raw key, which checks them and leaves its precomputation (Montgomery
 * contexts, reduced exponents, the CRT engine's constants) to the first
 * operation (provider/core/rsa.c). A TLS client imports every server's
 * public key; a server's key is imported once and cached by libcrypto with
 * the EVP_PKEY. Keys of 2 to 5 primes (RFC 8017 3.2: rsa-factor3..5 with
 * their exponents and coefficients) are taken; one of more primes
 * (rsa-factor6...) is refused with FC_R_MULTIPRIME_UNSUPPORTED, and
 * libcrypto then uses the key's own provider. A private key without all
 * the CRT values (or with only some of them) is used through d alone; one
 * without d is a public key, whatever CRT values come with it, as default
 * keeps it.
 *
 * The same functions serve "RSA-PSS" keys (RFC 4055), which sign with PSS
 * only: their restrictions (digest, MGF1 digest, minimum salt length) are
 * imported, exported and generated in default's forms (rsa_pss_params.c)
 * and enforced by signature_rsa.c; without them the key is unrestricted.
 *
 * What import takes, next to the default provider:
 *   - moduli of 512..8192 bits (the bignum layer's limit), odd, with an
 *     odd e > 1, for our core. Components default's import takes and our
 *     core refuses (a larger or smaller modulus, an even one, a bad or zero
 *     exponent, n = e = d = 0, ...) make a delegated key (rsa_deleg.h):
 *     held as default's key in the child library context; has, match,
 *     validate, get_params, export and dup ask it, and the signature and
 *     cipher code forward its operations to default, uncounted. Keys of
 *     sizes not offered on this CPU (fc/offer.h) become delegated keys
 *     too, before our core sees them: they run on default's code whether
 *     libcrypto moved them to us for an operation or a program built them
 *     on our keymgmt (a silent refusal made the latter fail, and cost the
 *     former a failed export on every operation). Default is handed n, e,
 *     d and a complete CRT set only (fc_rsa_deleg_params), and a private
 *     key only if its results cannot come out wrong there
 *     (fc_rsa_deleg_check_private): one whose primes do not multiply to n
 *     is refused, as our core refuses it. A key neither takes is refused
 *     with FC_R_INVALID_KEY and our core's reason;
 *   - CRT values that are valid but unreduced (dp + (p - 1), dq + (q - 1),
 *     qinv + p, up to the modulus length): reduced for use by the core
 *     without a secret-dependent branch, exported as given (what default
 *     exports);
 *   - a CRT value that does not belong to the key: taken (default takes it
 *     too); with d present a private operation whose CRT result fails the
 *     check is redone once through d, blinded and checked, so it signs as
 *     default does (default falls back to d the same way).
 * Generation: a key of a size not offered on this CPU is made by our core
 * and handed over as a delegated key, so that it runs where an imported one
 * of its size runs. 512..8192 bits (FC_RSA_GEN_MIN_BITS, FC_RSA_GEN_MAX_BITS)
 * of 2 to 5 primes as default allows them for the size (fc_rsa_max_primes,
 * checked at gen with default's reason, "key prime num invalid"); sizes are
 * checked at gen_set_params: below 512 "key size too small"
 * (FC_R_KEY_TOO_SMALL, default's reason), above 8192 FC_R_INVALID_KEY_LENGTH
 * with a pointer to the default provider, which a program names in its
 * property query to get such a key (docs/behaviour.md, RSA).
 */
#include <stdint.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "fc/common.h"
#include "fc/ct.h"
#include "fc/offer.h"
#include "fc/rsa.h"
#include "fc_prov.h"
#include "fc_rsa.h"
#include "rsa_deleg.h"

/* Largest modulus the raw core accepts, in bytes (16384 bits). */
#define FC_RSA_MAX_BYTES 2048
/* Sizes fc_rsa_generate makes: OpenSSL's RSA_MIN_MODULUS_BITS, and the
 * bignum layer's limit (64 * FC_BN_MAX_LIMBS). */
#define FC_RSA_GEN_MIN_BITS 512
#define FC_RSA_GEN_MAX_BITS (64 * FC_BN_MAX_LIMBS)

FC_DISPATCH(keymgmt, new, fc_rsa_km_new);
FC_DISPATCH(keymgmt, free, fc_rsa_km_free);
FC_DISPATCH(keymgmt, has, fc_rsa_km_has);
FC_DISPATCH(keymgmt, match, fc_rsa_km_match);
FC_DISPATCH(keymgmt, validate, fc_rsa_km_validate);
FC_DISPATCH(keymgmt, import, fc_rsa_km_import);
FC_DISPATCH(keymgmt, import_types, fc_rsa_km_import_types);
FC_DISPATCH(keymgmt, export, fc_rsa_km_export);
FC_DISPATCH(keymgmt, export_types, fc_rsa_km_export_types);
FC_DISPATCH(keymgmt, get_params, fc_rsa_km_get_params);
FC_DISPATCH(keymgmt, gettable_params, fc_rsa_km_gettable_params);
FC_DISPATCH(keymgmt, dup, fc_rsa_km_dup);
FC_DISPATCH(keymgmt, query_operation_name, fc_rsa_km_query_operation_name);
FC_DISPATCH(keymgmt, gen_init, fc_rsa_km_gen_init);
FC_DISPATCH(keymgmt, new, fc_rsa_pss_km_new);
FC_DISPATCH(keymgmt, gen_init, fc_rsa_pss_km_gen_init);
FC_DISPATCH(keymgmt, gen_settable_params, fc_rsa_pss_km_gen_settable_params);
FC_DISPATCH(keymgmt, gen_set_params, fc_rsa_km_gen_set_params);
FC_DISPATCH(keymgmt, gen_settable_params, fc_rsa_km_gen_settable_params);
FC_DISPATCH(keymgmt, gen, fc_rsa_km_gen);
FC_DISPATCH(keymgmt, gen_cleanup, fc_rsa_km_gen_cleanup);

/* ------------------------------------------------------------------------ */
/* The key object (fc_rsa.h)                                                */

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

static fc_rsa_obj *fc_rsa_obj_new(fc_prov_ctx *prov)
{
    fc_rsa_obj *obj = OPENSSL_zalloc(sizeof(*obj));

    if (obj == NULL) {
        FC_RAISE(prov, FC_R_MALLOC_FAILURE);
        return NULL;
    }
    obj->prov = prov;
    obj->refcnt = 1;
    return obj;
}

static void *fc_rsa_km_new(void *provctx)
{
    return fc_rsa_obj_new(provctx);
}

/* The RSA-PSS keymgmt's: an RSA key with the PSS type, which signs with PSS
 * only, under its restrictions if it has any. */
static void *fc_rsa_pss_km_new(void *provctx)
{
    fc_rsa_obj *obj = fc_rsa_obj_new(provctx);

    if (obj != NULL)
        obj->pss = 1;
    return obj;
}

/* 1 if |key| names an RSA-PSS key parameter (a restriction). */
static int fc_is_pss_param(const char *key)
{
    return strcmp(key, OSSL_PKEY_PARAM_RSA_DIGEST) == 0 ||
           strcmp(key, OSSL_PKEY_PARAM_RSA_DIGEST_PROPS) == 0 ||
           strcmp(key, OSSL_PKEY_PARAM_RSA_MASKGENFUNC) == 0 ||
           strcmp(key, OSSL_PKEY_PARAM_RSA_MGF1_DIGEST) == 0 ||
           strcmp(key, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN) == 0;
}

static void fc_rsa_km_free(void *keydata)
{
    fc_rsa_obj_free(keydata);
}

/* ------------------------------------------------------------------------ */
/* Components <-> OSSL_PARAMs                                               */

/* The components in export order (default's): parameter name, the part
 * (fc_rsa_get_component letter 'n', 'e', 'd' with prime -1; else part 'r'
 * (factor), 'd' (exponent) or 't' (coefficient) of prime |prime|, 0-based),
 * and whether it is private. Up to FC_RSA_MAX_PRIMES primes. */
typedef struct fc_rsa_comp {
    const char *name;
    char part;
    signed char prime;
    unsigned char priv;
} fc_rsa_comp;

static const fc_rsa_comp fc_rsa_comps[] = {
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
#define FC_RSA_NCOMPS FC_ARRAY_LEN(fc_rsa_comps)
/* The same list as OSSL_PARAM type descriptions. */
#define FC_RSA_COMP_TYPES                                                      \
    OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),                             \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),                         \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_D, NULL, 0),                         \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR1, NULL, 0),                   \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR2, NULL, 0),                   \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR3, NULL, 0),                   \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR4, NULL, 0),                   \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR5, NULL, 0),                   \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT1, NULL, 0),                 \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT2, NULL, 0),                 \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT3, NULL, 0),                 \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT4, NULL, 0),                 \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT5, NULL, 0),                 \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT1, NULL, 0),              \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT2, NULL, 0),              \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT3, NULL, 0),              \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT4, NULL, 0),
/* Indices into fc_rsa_comps: the first factor, exponent, coefficient. */
enum { FC_COMP_F = 3, FC_COMP_X = 8, FC_COMP_T = 13 };

/* The index in fc_rsa_comps of the parameter called |key|, -1 if it is not
 * an RSA key component, -2 if it is one of a prime beyond
 * FC_RSA_MAX_PRIMES ("rsa-factor6" ...). One pass of short comparisons,
 * no lookup per name: import and get_params walk the caller's parameters
 * once. */
static int fc_rsa_comp_index(const char *key)
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

/* Component |c| of |key| big-endian into |out|; 0 if absent. */
static int fc_rsa_comp_get(const fc_rsa_key *key, const fc_rsa_comp *c,
                           uint8_t *out, size_t cap, size_t *len)
{
    if (c->prime < 0)
        return fc_rsa_get_component(key, c->part, out, cap, len);
    return fc_rsa_get_prime_part(key, c->part, (size_t)c->prime, out, cap, len);
}

/* Reads an integer parameter as a big-endian byte string without leading
 * zeros (possibly empty), in a buffer the caller frees with
 * OPENSSL_clear_free(*out, *len). */
static int fc_param_get_be(const OSSL_PARAM *p, uint8_t **out, size_t *len)
{
    BIGNUM *bn = NULL;
    int n;

    if (!OSSL_PARAM_get_BN(p, &bn))
        return 0;
    n = BN_num_bytes(bn);
    *out = OPENSSL_malloc(n > 0 ? (size_t)n : 1);
    if (*out == NULL) {
        BN_clear_free(bn);
        return 0;
    }
    *len = (size_t)BN_bn2bin(bn, *out);
    BN_clear_free(bn);
    return 1;
}

/* Writes the big-endian |be| (|len| bytes) into an integer parameter. */
static int fc_param_set_be(OSSL_PARAM *p, const uint8_t *be, size_t len)
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

/* 1 if RSA keys of |bits| are offered: by the size of their CRT halves,
 * ceil(bits / 2) bits. */
static int fc_rsa_bits_offered(const fc_prov_ctx *prov, size_t bits)
{
    return (prov->offer & fc_offer_rsa_bit(((bits + 1) / 2 + 63) / 64)) != 0;
}

/* 1 if RSA keys with the modulus |n| (|len| bytes, big-endian) are
 * offered (fc_rsa_bits_offered). */
static int fc_rsa_offered(const fc_prov_ctx *prov, const uint8_t *n, size_t len)
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

/*
 * The integer parameter |p| as a big-endian byte string at |dst| (room for
 * p->data_size bytes), its length in |*len|. An OSSL_PARAM_UNSIGNED_INTEGER
 * is native-endian bytes: reversed (or copied) in place, no BIGNUM; any
 * other form goes through OSSL_PARAM_get_BN. Returns 1, or 0 if |p| is not
 * a non-negative integer that fits.
 */
static int fc_param_to_be(const OSSL_PARAM *p, uint8_t *dst, size_t cap,
                          size_t *len)
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
 * components |par| (fc_rsa_km_import's, private ones only if |priv|):
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

/*
 * Keeps the key of |params| (components |par|, as fc_rsa_km_import read
 * them) as a delegated one (rsa_deleg.h) if default's rules take it, in
 * the shape fc_rsa_deleg_params gives it. A private key is delegated only
 * if default's private operations on it give results that pass the check
 * with e (fc_rsa_deleg_check_private): a key whose primes do not multiply
 * to n, or whose d does not belong to n and e, is refused here with that
 * reason, as our core refuses it, never held by default, which would
 * release its unchecked results. Returns 1 if it is delegated, 0 if
 * default refuses it (the caller reports), -1 if refused here (reported).
 */
static int fc_rsa_km_delegate(fc_rsa_obj *obj, int selection,
                              const OSSL_PARAM params[],
                              const OSSL_PARAM *const *par)
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
    fc_rsa_key_free(obj->key);
    obj->key = NULL;
    EVP_PKEY_free(obj->deleg);
    obj->deleg = pkey;
    obj->deleg_priv = has_d;
    return 1;
}

/*
 * Import: the components straight from their parameters into one scratch
 * buffer (big-endian, as the core takes them), no BIGNUMs; the core checks
 * them as far as default does at import and leaves the per-key
 * precomputation to the first operation (provider/core/rsa.c), so a key a
 * TLS client imports for one handshake costs about what it costs default.
 */
static int fc_rsa_km_import(void *keydata, int selection,
                            const OSSL_PARAM params[])
{
    fc_rsa_obj *obj = keydata;
    fc_prov_ctx *prov;
    const OSSL_PARAM *par[FC_RSA_NCOMPS] = {NULL};
    const uint8_t *val[FC_RSA_NCOMPS] = {NULL};
    size_t len[FC_RSA_NCOMPS] = {0}, total = 0, used = 0, np = 0;
    uint8_t stackbuf[2048], *buf = stackbuf;
    fc_rsa_components c;
    const char *reason = NULL;
    fc_rsa_key *key = NULL;
    fc_rsa_pss_params pss = {0};
    int priv, pss_seen = 0, ok = 0, deleg;

    if (obj == NULL)
        return 0;
    prov = obj->prov;
    /* The key pair, and/or "other parameters": an RSA-PSS key's
     * restrictions (RSA has no domain parameters). */
    if ((selection & (OSSL_KEYMGMT_SELECT_KEYPAIR |
                      OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS)) == 0)
        return 0;
    priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    /* One pass over the parameters (fc_rsa_comp_index). */
    for (const OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++) {
        int i = fc_rsa_comp_index(p->key);

        if (i == -1 && fc_is_pss_param(p->key))
            pss_seen = 1;
        if (i == -2 && priv) {
            FC_RAISE_DATA(prov, FC_R_MULTIPRIME_UNSUPPORTED,
                          "%s: at most %d primes", p->key, FC_RSA_MAX_PRIMES);
            return 0;
        }
        if (i < 0 || par[i] != NULL || (fc_rsa_comps[i].priv && !priv))
            continue;
        par[i] = p;
        /* room for the native bytes, or for a BIGNUM's */
        total += p->data_type == OSSL_PARAM_UNSIGNED_INTEGER
                     ? p->data_size
                     : FC_RSA_MAX_BYTES + 8;
    }
    /* Restrictions: RSA-PSS keys only, as default takes them (a plain RSA
     * key given some is refused). */
    if ((selection & OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS) != 0 && pss_seen) {
        if (!fc_rsa_pss_params_fromdata(prov, &pss, params))
            return 0;
        if (pss.restricted && !obj->pss) {
            FC_RAISE_DATA(prov, FC_R_INVALID_KEY,
                          "PSS parameters on a key that is not RSA-PSS");
            return 0;
        }
    }
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) {
        obj->pss_params = pss;
        return 1;
    }
    if (par[0] == NULL || par[1] == NULL) {
        FC_RAISE_DATA(prov, FC_R_INVALID_KEY, "n and e are required");
        return 0;
    }
    if (total > sizeof(stackbuf) &&
        (buf = OPENSSL_malloc(total > 0 ? total : 1)) == NULL) {
        FC_RAISE(prov, FC_R_MALLOC_FAILURE);
        return 0;
    }
    for (size_t i = 0; i < FC_RSA_NCOMPS; i++) {
        if (par[i] == NULL)
            continue;
        if (!fc_param_to_be(par[i], buf + used, total - used, &len[i])) {
            deleg = fc_rsa_km_delegate(obj, selection, params, par);
            if (deleg == 0)
                FC_RAISE_DATA(prov, FC_R_INVALID_KEY, "bad parameter %s",
                              fc_rsa_comps[i].name);
            ok = deleg > 0;
            goto err;
        }
        val[i] = buf + used;
        used += len[i];
        /* n first (FC_RSA_NCOMPS order): a size not offered on this CPU
         * (fc/offer.h) is kept as default's key and used there, whose code
         * is at least as fast for it, before any private part is copied.
         * Measured (1024-bit key decoded by default, per operation a fresh
         * EVP_DigestVerifyInit_ex + EVP_DigestVerify with fastcrypto
         * preferred, Xeon model 0xa7, OpenSSL 3.0.19): default alone
         * 7.2 us, delegated 9.3 us, refused at import (libcrypto retrying
         * the export every time) 10.1 us; signing 81 / 83-87 / 80-83 us. */
        if (i == 0 && !fc_rsa_offered(prov, val[0], len[0])) {
            ok = fc_rsa_km_delegate(obj, selection, params, par) > 0;
            goto err;
        }
    }
    memset(&c, 0, sizeof(c));
    c.n = val[0], c.n_len = len[0];
    c.e = val[1], c.e_len = len[1];
    c.d = val[2], c.d_len = len[2];
    /* The primes in order, each with its exponent and (but the first) its
     * coefficient. With any part missing (or a gap) the CRT values are left
     * out and the key goes through d alone (without d it is a public
     * key), as with none at all. */
    for (size_t i = 0; i < FC_RSA_MAX_PRIMES; i++)
        if (par[FC_COMP_F + i] != NULL || par[FC_COMP_X + i] != NULL ||
            (i >= 1 && par[FC_COMP_T + i - 1] != NULL))
            np = i + 1;
    for (size_t i = 0; i < np; i++)
        if (par[FC_COMP_F + i] == NULL || par[FC_COMP_X + i] == NULL ||
            (i >= 1 && par[FC_COMP_T + i - 1] == NULL))
            np = 0;
    /* Without d the key is a public one, as default keeps it (its import
     * reads the CRT values only next to d): no private operation, n and e
     * exported. */
    if (np == 1 || par[2] == NULL)
        np = 0;
    if (np > 0) {
        c.p = val[FC_COMP_F], c.p_len = len[FC_COMP_F];
        c.q = val[FC_COMP_F + 1], c.q_len = len[FC_COMP_F + 1];
        c.dp = val[FC_COMP_X], c.dp_len = len[FC_COMP_X];
        c.dq = val[FC_COMP_X + 1], c.dq_len = len[FC_COMP_X + 1];
        c.qinv = val[FC_COMP_T], c.qinv_len = len[FC_COMP_T];
        c.extra = np > 2 ? np - 2 : 0;
        for (size_t i = 0; i < c.extra; i++) {
            c.r[i] = val[FC_COMP_F + 2 + i];
            c.r_len[i] = len[FC_COMP_F + 2 + i];
            c.dr[i] = val[FC_COMP_X + 2 + i];
            c.dr_len[i] = len[FC_COMP_X + 2 + i];
            c.tr[i] = val[FC_COMP_T + 1 + i];
            c.tr_len[i] = len[FC_COMP_T + 1 + i];
        }
    }
    key = fc_rsa_key_new(&c, &prov->rsa, &reason);
    /* A shape our core does not take (size, parity, zero values, ...) but
     * default does: kept as default's key, used there (rsa_deleg.h). A key
     * our core refuses as inconsistent (primes that do not multiply to n)
     * is refused there too, with its own reason. */
    if (key == NULL &&
        (deleg = fc_rsa_km_delegate(obj, selection, params, par)) != 0) {
        ok = deleg > 0;
        goto err;
    }
    if (key == NULL) {
        FC_RAISE_DATA(prov, FC_R_INVALID_KEY, "%s",
                      reason != NULL ? reason : "key rejected");
        goto err;
    }
    fc_rsa_key_free(obj->key);
    obj->key = key;
    EVP_PKEY_free(obj->deleg);
    obj->deleg = NULL;
    if ((selection & OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS) != 0)
        obj->pss_params = pss;
    fc_stat_add(prov, FC_STAT_RSA_IMPORT, 1);
    ok = 1;
err:
    OPENSSL_cleanse(buf, used);
    if (buf != stackbuf)
        OPENSSL_free(buf);
    return ok;
}

/*
 * Hands the components selected by |selection| to |cb| as OSSL_PARAMs built
 * over one buffer, wiped afterwards. Used by export.
 */
static int fc_rsa_export_params(const fc_rsa_obj *obj, int selection,
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

/* A generated key of a size not offered here is handed to default as a
 * delegated key, as an imported one of that size is: its parameters go
 * from our export straight into default's import. */
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

static int fc_rsa_km_hand_over(fc_rsa_obj *obj)
{
    fc_rsa_handover h = {obj, NULL};

    if (!fc_rsa_export_params(obj, OSSL_KEYMGMT_SELECT_ALL, fc_rsa_handover_cb,
                              &h))
        return 0;
    fc_rsa_key_free(obj->key);
    obj->key = NULL;
    EVP_PKEY_free(obj->deleg);
    obj->deleg = h.pkey;
    obj->deleg_priv = 1;
    return 1;
}

static int fc_rsa_km_export(void *keydata, int selection, OSSL_CALLBACK *cb,
                            void *cbarg)
{
    fc_rsa_obj *obj = keydata;

    if (obj != NULL && obj->deleg != NULL)
        return fc_rsa_deleg_export(obj->deleg, selection, cb, cbarg);
    if (obj == NULL || obj->key == NULL)
        return 0;
    return fc_rsa_export_params(obj, selection, cb, cbarg);
}

/* The importable/exportable parameters for a selection. */
static const OSSL_PARAM *fc_rsa_key_types(int selection)
{
    static const OSSL_PARAM pub[] = {
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
        OSSL_PARAM_END,
    };
    static const OSSL_PARAM all[] = {FC_RSA_COMP_TYPES OSSL_PARAM_END};

    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        return all;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        return pub;
    return NULL;
}

static const OSSL_PARAM *fc_rsa_km_import_types(int selection)
{
    return fc_rsa_key_types(selection);
}

static const OSSL_PARAM *fc_rsa_km_export_types(int selection)
{
    return fc_rsa_key_types(selection);
}

/* ------------------------------------------------------------------------ */
/* Queries                                                                  */

/*
 * The security strength of an n-bit RSA modulus as OpenSSL reports it
 * (SP 800-56B rev 2 Appendix D canonical values for the standard sizes, the
 * FIPS 140 IG 7.5 estimate rounded to a multiple of 8 elsewhere). A step
 * function, given here by the smallest n at which each value starts, as
 * measured from the default provider (OpenSSL 3.0.22) for every n from 8 to
 * 20000; the exact formula would move some steps by a bit or two, so the
 * table is what keeps EVP_PKEY_get_security_bits() equal across providers.
 */
static int fc_rsa_security_bits(size_t n)
{
    static const uint16_t from[] = {
        8,    16,    41,    81,    138,   213,   308,   425,   566,
        729,  920,   1137,  1383,  1657,  1963,  2301,  2671,  3076,
        3514, 3991,  4502,  5054,  5642,  6274,  6947,  7681,  8418,
        9216, 10064, 10953, 11893, 12877, 13914, 15361, 16132,
    };
    int sec = 0;

    /* from[i] starts 8 * i bits. */
    for (size_t i = 0; i < FC_ARRAY_LEN(from) && n >= from[i]; i++)
        sec = (int)(8 * i);
    return sec;
}

/* 1 unless |key| has more primes than its size allows (fc_rsa_max_primes,
 * default's ossl_rsa_multip_cap): such a key signs and decrypts, on both
 * providers, but reports no security strength and fails the key-pair
 * check. */
static int fc_rsa_primes_allowed(const fc_rsa_key *key)
{
    return fc_rsa_num_primes(key) <= fc_rsa_max_primes(fc_rsa_bits(key));
}

static int fc_rsa_km_get_params(void *keydata, OSSL_PARAM params[])
{
    fc_rsa_obj *obj = keydata;
    const fc_rsa_key *key = obj != NULL ? obj->key : NULL;
    uint8_t tmp[FC_RSA_MAX_BYTES + 8];
    OSSL_PARAM *p;
    int ok = 1;

    if (obj != NULL && obj->deleg != NULL)
        return fc_rsa_deleg_get_params(obj->deleg, params);
    if (key == NULL)
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS);
    if (p != NULL && !OSSL_PARAM_set_int(p, (int)fc_rsa_bits(key)))
        return 0;
    /* A key of more primes than its size allows (fc_rsa_max_primes) has
     * none, as default reports it (RSA_security_bits): so libssl's
     * security levels refuse it with either provider. */
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS);
    if (p != NULL &&
        !OSSL_PARAM_set_int(p, fc_rsa_primes_allowed(key)
                                   ? fc_rsa_security_bits(fc_rsa_bits(key))
                                   : 0))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE);
    if (p != NULL && !OSSL_PARAM_set_int(p, (int)fc_rsa_size(key)))
        return 0;
    /* A restricted RSA-PSS key has a mandatory digest instead (and its
     * restrictions to report), as with default. */
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_DEFAULT_DIGEST);
    if (p != NULL && !(obj->pss && obj->pss_params.restricted) &&
        !OSSL_PARAM_set_utf8_string(p, "SHA256"))
        return 0;
    if (obj->pss && !fc_rsa_pss_params_todata(&obj->pss_params, params))
        return 0;
    /* The components asked for, for EVP_PKEY_get_bn_param on keys we
     * generated: one pass over the request. */
    for (p = params; ok && p->key != NULL; p++) {
        int i = fc_rsa_comp_index(p->key);
        size_t len;

        if (i < 0 ||
            !fc_rsa_comp_get(key, &fc_rsa_comps[i], tmp, sizeof(tmp), &len))
            continue; /* absent: leave return_size unset */
        ok = fc_param_set_be(p, tmp, len);
        OPENSSL_cleanse(tmp, len);
    }
    return ok;
}

static const OSSL_PARAM *fc_rsa_km_gettable_params(void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
        OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
        OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
        FC_RSA_COMP_TYPES OSSL_PARAM_END,
    };
    return params;
}

static int fc_rsa_km_has(const void *keydata, int selection)
{
    const fc_rsa_obj *obj = keydata;
    int ok = 1;

    if (obj == NULL)
        return 0;
    /* No domain parameters or "other" parameters: those are trivially
     * present. */
    if (obj->deleg != NULL)
        return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) == 0 ||
               obj->deleg_priv;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0)
        ok = obj->key != NULL;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        ok = ok && fc_rsa_has_private(obj->key);
    return ok;
}

/* 1 if component |which| is present in both keys with equal values, or
 * absent in both. */
static int fc_rsa_same_component(const fc_rsa_key *a, const fc_rsa_key *b,
                                 char which)
{
    uint8_t *ba, *bb;
    size_t la = 0, lb = 0, cap = FC_RSA_MAX_BYTES + 8;
    int ha, hb, same = 0;

    ba = OPENSSL_malloc(cap);
    bb = OPENSSL_malloc(cap);
    if (ba == NULL || bb == NULL)
        goto done;
    ha = fc_rsa_get_component(a, which, ba, cap, &la);
    hb = fc_rsa_get_component(b, which, bb, cap, &lb);
    if (ha != hb)
        goto done;
    /* d is secret: compare without an early exit. */
    same = !ha || (la == lb && fc_ct_memeq(ba, bb, la) != 0);
done:
    OPENSSL_clear_free(ba, cap);
    OPENSSL_clear_free(bb, cap);
    return same;
}

static int fc_rsa_km_match(const void *keydata1, const void *keydata2,
                           int selection)
{
    const fc_rsa_obj *o1 = keydata1, *o2 = keydata2;
    int ok = 1, checked = 0;

    if (o1 == NULL || o2 == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    /* A delegated key has a shape ours cannot have: equal to another
     * delegated one only. */
    if (o1->deleg != NULL || o2->deleg != NULL)
        return o1->deleg != NULL && o2->deleg != NULL &&
               fc_rsa_deleg_match(o1->deleg, o2->deleg, selection);
    if (o1->key == NULL || o2->key == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) {
        ok = fc_rsa_same_component(o1->key, o2->key, 'n') &&
             fc_rsa_same_component(o1->key, o2->key, 'e');
        checked = 1;
    }
    if (!checked && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
        ok = fc_rsa_has_private(o1->key) && fc_rsa_has_private(o2->key) &&
             fc_rsa_same_component(o1->key, o2->key, 'd');
        checked = 1;
    }
    return ok && checked;
}

/* Pairwise consistency: a random m < n must survive public then private. */
static int fc_rsa_pairwise_check(fc_rsa_obj *obj)
{
    size_t k = fc_rsa_size(obj->key);
    uint8_t *m = OPENSSL_zalloc(3 * k);
    uint8_t *c = m + k, *m2 = m + 2 * k;
    int ok = 0;

    if (m == NULL)
        return 0;
    /* A zero top byte keeps m below n. */
    if (!fc_rsa_rand(obj->prov, m + 1, k - 1))
        goto done;
    m[k - 1] |= 1; /* and m not 0 */
    ok = fc_rsa_public(obj->key, c, m) &&
         fc_rsa_private(obj->key, m2, c, fc_rsa_rand, obj->prov) &&
         memcmp(m, m2, k) == 0;
done:
    OPENSSL_clear_free(m, 3 * k);
    return ok;
}

static int fc_rsa_km_validate(const void *keydata, int selection, int checktype)
{
    fc_rsa_obj *obj = (fc_rsa_obj *)keydata;

    if (obj == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (obj->deleg != NULL)
        return fc_rsa_deleg_validate(obj->prov, obj->deleg, selection,
                                     checktype);
    /* The public parts were validated at import (n odd, size, e). */
    if (obj->key == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
        if (!fc_rsa_has_private(obj->key))
            return 0;
        /* default's key-pair check refuses too many primes for the size;
         * its check of the private key alone does not */
        if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) ==
                OSSL_KEYMGMT_SELECT_KEYPAIR &&
            !fc_rsa_primes_allowed(obj->key)) {
            FC_RAISE_DATA(obj->prov, FC_R_KEY_PRIME_NUM_INVALID,
                          "%zu primes for a %zu-bit key (at most %zu)",
                          fc_rsa_num_primes(obj->key), fc_rsa_bits(obj->key),
                          fc_rsa_max_primes(fc_rsa_bits(obj->key)));
            return 0;
        }
        if (!fc_rsa_pairwise_check(obj)) {
            FC_RAISE_DATA(obj->prov, FC_R_INVALID_KEY,
                          "pairwise consistency check failed");
            return 0;
        }
    }
    return 1;
}

/* A public-only copy of |key|. */
static fc_rsa_key *fc_rsa_public_copy(const fc_rsa_obj *obj)
{
    uint8_t n[FC_RSA_MAX_BYTES], e[FC_RSA_MAX_BYTES];
    fc_rsa_components c;

    memset(&c, 0, sizeof(c));
    if (!fc_rsa_get_component(obj->key, 'n', n, sizeof(n), &c.n_len) ||
        !fc_rsa_get_component(obj->key, 'e', e, sizeof(e), &c.e_len))
        return NULL;
    c.n = n;
    c.e = e;
    return fc_rsa_key_new(&c, &obj->prov->rsa, NULL);
}

static void *fc_rsa_km_dup(const void *keydata_from, int selection)
{
    const fc_rsa_obj *from = keydata_from;
    fc_rsa_obj *obj;

    /* No empty keys by duplication, as default's rsa_dup: so
     * EVP_PKEY_copy_parameters() fails for RSA keys, as there. */
    if (from == NULL || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return NULL;
    obj = fc_rsa_obj_new(from->prov);
    if (obj == NULL)
        return NULL;
    obj->pss = from->pss;
    obj->pss_params = from->pss_params;
    if (from->deleg != NULL) {
        int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;

        obj->deleg =
            fc_rsa_deleg_dup(from->prov, from->deleg, from->pss, selection);
        obj->deleg_priv = priv && from->deleg_priv;
        if (obj->deleg == NULL) {
            FC_RAISE(from->prov, FC_R_MALLOC_FAILURE);
            fc_rsa_obj_free(obj);
            return NULL;
        }
    }
    if (from->key != NULL) {
        if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 ||
            !fc_rsa_has_private(from->key))
            obj->key = fc_rsa_key_dup(from->key);
        else
            obj->key = fc_rsa_public_copy(from);
        if (obj->key == NULL) {
            FC_RAISE(from->prov, FC_R_MALLOC_FAILURE);
            fc_rsa_obj_free(obj);
            return NULL;
        }
    }
    return obj;
}

static const char *fc_rsa_km_query_operation_name(int operation_id)
{
    return "RSA";
}

/* ------------------------------------------------------------------------ */
/* Key generation                                                           */

typedef struct fc_rsa_gen_ctx {
    fc_prov_ctx *prov;
    size_t bits;
    size_t primes;
    uint8_t e[16]; /* public exponent, big-endian */
    size_t e_len;
    int selection;
    int pss;                      /* an RSA-PSS key */
    fc_rsa_pss_params pss_params; /* its restrictions */
} fc_rsa_gen_ctx;

/* A generation context, for an RSA-PSS key if |pss|. */
static void *fc_rsa_gen_new(fc_prov_ctx *prov, int selection, int pss,
                            const OSSL_PARAM params[])
{
    fc_rsa_gen_ctx *g = OPENSSL_zalloc(sizeof(*g));

    if (g == NULL) {
        FC_RAISE(prov, FC_R_MALLOC_FAILURE);
        return NULL;
    }
    g->prov = prov;
    g->selection = selection;
    g->pss = pss;
    g->bits = 2048;
    g->primes = 2;
    g->e[0] = 0x01, g->e[1] = 0x00, g->e[2] = 0x01; /* 65537 */
    g->e_len = 3;
    if (!fc_rsa_km_gen_set_params(g, params)) {
        OPENSSL_free(g);
        return NULL;
    }
    return g;
}

static void *fc_rsa_km_gen_init(void *provctx, int selection,
                                const OSSL_PARAM params[])
{
    return fc_rsa_gen_new(provctx, selection, 0, params);
}

static void *fc_rsa_pss_km_gen_init(void *provctx, int selection,
                                    const OSSL_PARAM params[])
{
    return fc_rsa_gen_new(provctx, selection, 1, params);
}

static int fc_rsa_km_gen_set_params(void *genctx, const OSSL_PARAM params[])
{
    fc_rsa_gen_ctx *g = genctx;
    const OSSL_PARAM *p;

    if (g == NULL)
        return 0;
    if (params == NULL)
        return 1;
    p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_BITS);
    if (p != NULL) {
        size_t bits;

        if (!OSSL_PARAM_get_size_t(p, &bits))
            return 0;
        /* Refused here, at set_params, as the default provider refuses
         * a small size: "key size too small" is what programs match. */
        if (bits < FC_RSA_GEN_MIN_BITS) {
            FC_RAISE_DATA(g->prov, FC_R_KEY_TOO_SMALL,
                          "%zu bits, at least %d required", bits,
                          FC_RSA_GEN_MIN_BITS);
            return 0;
        }
        /* Our bignum layer stops at 8192-bit moduli: refuse a larger size
         * now rather than fail in gen. The default provider generates
         * them; a program gets one there with the property query
         * "provider=default" (see docs/behaviour.md). */
        if (bits > FC_RSA_GEN_MAX_BITS) {
            FC_RAISE_DATA(g->prov, FC_R_INVALID_KEY_LENGTH,
                          "%zu bits: fastcrypto generates at most %d-bit "
                          "keys; ask the default provider (propquery "
                          "\"provider=default\") for larger ones",
                          bits, FC_RSA_GEN_MAX_BITS);
            return 0;
        }
        g->bits = bits;
    }
    p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_PRIMES);
    if (p != NULL) {
        size_t primes;

        /* Checked against the size at gen, as default does. */
        if (!OSSL_PARAM_get_size_t(p, &primes))
            return 0;
        g->primes = primes;
    }
    p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_E);
    if (p != NULL) {
        uint8_t *e = NULL;
        size_t len = 0;

        if (!fc_param_get_be(p, &e, &len))
            return 0;
        if (len == 0 || len > sizeof(g->e) || (e[len - 1] & 1) == 0 ||
            (len == 1 && e[0] == 1)) {
            FC_RAISE_DATA(g->prov, FC_R_INVALID_KEY,
                          "public exponent must be odd, > 1, <= 128 bits");
            OPENSSL_free(e);
            return 0;
        }
        memcpy(g->e, e, len);
        g->e_len = len;
        OPENSSL_free(e);
    }
    /* An RSA-PSS key's restrictions (ignored for a plain key, as by
     * default); they accumulate over calls. */
    if (g->pss && !fc_rsa_pss_params_fromdata(g->prov, &g->pss_params, params))
        return 0;
    return 1;
}

static const OSSL_PARAM *fc_rsa_km_gen_settable_params(void *genctx,
                                                       void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_BITS, NULL),
        OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_PRIMES, NULL),
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
        OSSL_PARAM_END,
    };
    return params;
}

static const OSSL_PARAM *fc_rsa_pss_km_gen_settable_params(void *genctx,
                                                           void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_BITS, NULL),
        OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_PRIMES, NULL),
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_RSA_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_RSA_DIGEST_PROPS, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_RSA_MASKGENFUNC, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_RSA_MGF1_DIGEST, NULL, 0),
        OSSL_PARAM_int(OSSL_PKEY_PARAM_RSA_PSS_SALTLEN, NULL),
        OSSL_PARAM_END,
    };
    return params;
}

static void *fc_rsa_km_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg)
{
    fc_rsa_gen_ctx *g = genctx;
    fc_rsa_obj *obj;

    if (g == NULL)
        return NULL;
    obj = fc_rsa_obj_new(g->prov);
    if (obj == NULL)
        return NULL;
    obj->pss = g->pss;
    obj->pss_params = g->pss_params;
    /* default's rule and reason (ossl_rsa_multip_cap): 2 primes below 1024
     * bits, 3 below 4096, 4 below 8192, 5 from there */
    if (g->primes < 2 || g->primes > fc_rsa_max_primes(g->bits)) {
        FC_RAISE_DATA(g->prov, FC_R_KEY_PRIME_NUM_INVALID,
                      "%zu primes for a %zu-bit key (2..%zu)", g->primes,
                      g->bits, fc_rsa_max_primes(g->bits));
        fc_rsa_obj_free(obj);
        return NULL;
    }
    obj->key = fc_rsa_generate(g->bits, g->primes, g->e, g->e_len,
                               &g->prov->rsa, fc_rsa_rand, g->prov);
    if (obj->key == NULL) {
        FC_RAISE_DATA(g->prov, FC_R_KEYGEN_FAILED, "%zu-bit key", g->bits);
        fc_rsa_obj_free(obj);
        return NULL;
    }
    fc_stat_add(g->prov, FC_STAT_RSA_KEYGEN, 1);
    /* Its operations run where an imported key of its size runs. */
    if (!fc_rsa_bits_offered(g->prov, g->bits) && !fc_rsa_km_hand_over(obj)) {
        FC_RAISE_DATA(g->prov, FC_R_KEYGEN_FAILED,
                      "%zu-bit key: handing it to the default provider failed",
                      g->bits);
        fc_rsa_obj_free(obj);
        return NULL;
    }
    return obj;
}

static void fc_rsa_km_gen_cleanup(void *genctx)
{
    OPENSSL_clear_free(genctx, sizeof(fc_rsa_gen_ctx));
}

/* The functions both key types share: all but creation and generation's
 * start (and settable parameters), which give a key its type. */
#define FC_RSA_KM_SHARED_FUNCTIONS                                             \
    {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))fc_rsa_km_free},                  \
        {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))fc_rsa_km_has},                \
        {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))fc_rsa_km_match},            \
        {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))fc_rsa_km_validate},      \
        {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))fc_rsa_km_import},          \
        {OSSL_FUNC_KEYMGMT_IMPORT_TYPES,                                       \
         (void (*)(void))fc_rsa_km_import_types},                              \
        {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))fc_rsa_km_export},          \
        {OSSL_FUNC_KEYMGMT_EXPORT_TYPES,                                       \
         (void (*)(void))fc_rsa_km_export_types},                              \
        {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))fc_rsa_km_get_params},  \
        {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS,                                    \
         (void (*)(void))fc_rsa_km_gettable_params},                           \
        {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))fc_rsa_km_dup},                \
        {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME,                               \
         (void (*)(void))fc_rsa_km_query_operation_name},                      \
        {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS,                                     \
         (void (*)(void))fc_rsa_km_gen_set_params},                            \
        {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))fc_rsa_km_gen},                \
    {                                                                          \
        OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))fc_rsa_km_gen_cleanup   \
    }

const OSSL_DISPATCH fc_rsa_keymgmt_functions[] = {
    {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))fc_rsa_km_new},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))fc_rsa_km_gen_init},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS,
     (void (*)(void))fc_rsa_km_gen_settable_params},
    FC_RSA_KM_SHARED_FUNCTIONS,
    OSSL_DISPATCH_END,
};

/* RSA-PSS keys: the same but for creation and generation. */
const OSSL_DISPATCH fc_rsa_pss_keymgmt_functions[] = {
    {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))fc_rsa_pss_km_new},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))fc_rsa_pss_km_gen_init},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS,
     (void (*)(void))fc_rsa_pss_km_gen_settable_params},
    FC_RSA_KM_SHARED_FUNCTIONS,
    OSSL_DISPATCH_END,
};
