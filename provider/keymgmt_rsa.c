/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keymgmt_rsa.c - RSA key management for OpenSSL: import and export (how
 * keys decoded by the default provider reach us, and how ours reach its
 * encoders), queries, validation and duplication of our core's keys (the
 * native key implementation, fc_rsa_key_native), and the dispatch tables.
 * The key object the signature and asymmetric cipher code share is
 * rsa_key.c's; key generation is keymgmt_rsa_gen.c's.
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
 * and enforced by the signature (signature_rsa_params.c); without them
 * the key is unrestricted.
 *
 * What import takes, next to the default provider:
 *   - moduli of 512..8192 bits (the bignum layer's limit), odd, with an
 *     odd e > 1, for our core. Components default's import takes and our
 *     core refuses (a larger or smaller modulus, an even one, a bad or zero
 *     exponent, n = e = d = 0, ...) make a delegated key (rsa_deleg.h):
 *     held as default's key in the child library context; has, match,
 *     validate, get_params, export and dup ask it (fc_rsa_key_delegated,
 *     rsa_deleg.c: each entry point here is one call through the key's
 *     implementation), and the signature and cipher code forward its
 *     operations to default, uncounted. Keys of
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
 */
#include <stdint.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "fc/common.h"
#include "fc/ct.h"
#include "fc/rsa.h"
#include "fc_prov.h"
#include "fc_rsa.h"
#include "rsa_key.h"

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
FC_DISPATCH(keymgmt, new, fc_rsa_pss_km_new);

/* ------------------------------------------------------------------------ */
/* Key objects                                                              */

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
            deleg = fc_rsa_obj_delegate(obj, selection, params, par);
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
            ok = fc_rsa_obj_delegate(obj, selection, params, par) > 0;
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
        (deleg = fc_rsa_obj_delegate(obj, selection, params, par)) != 0) {
        ok = deleg > 0;
        goto err;
    }
    if (key == NULL) {
        FC_RAISE_DATA(prov, FC_R_INVALID_KEY, "%s",
                      reason != NULL ? reason : "key rejected");
        goto err;
    }
    fc_rsa_obj_hold_key(obj, key);
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

/* Export of our core's keys: fc_rsa_key_native.export. */

static int fc_rsa_native_export(fc_rsa_obj *obj, int selection,
                                OSSL_CALLBACK *cb, void *cbarg)
{
    if (obj->key == NULL)
        return 0;
    return fc_rsa_obj_export_params(obj, selection, cb, cbarg);
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

static int fc_rsa_native_get_params(fc_rsa_obj *obj, OSSL_PARAM params[])
{
    const fc_rsa_key *key = obj->key;
    uint8_t tmp[FC_RSA_MAX_BYTES + 8];
    OSSL_PARAM *p;
    int ok = 1;

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

static int fc_rsa_native_has(const fc_rsa_obj *obj, int selection)
{
    int ok = 1;

    /* No domain parameters or "other" parameters: those are trivially
     * present. */
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

static int fc_rsa_native_match(const fc_rsa_obj *o1, const fc_rsa_obj *o2,
                               int selection)
{
    int ok = 1, checked = 0;

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

static int fc_rsa_native_validate(fc_rsa_obj *obj, int selection, int checktype)
{
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

static int fc_rsa_native_dup(fc_rsa_obj *to, const fc_rsa_obj *from,
                             int selection)
{
    if (from->key == NULL)
        return 1;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 ||
        !fc_rsa_has_private(from->key))
        to->key = fc_rsa_key_dup(from->key);
    else
        to->key = fc_rsa_public_copy(from);
    return to->key != NULL;
}

/* see fc_rsa.h */
const fc_rsa_key_impl fc_rsa_key_native = {
    .op = NULL, /* the signature's and the cipher's own */
    .has = fc_rsa_native_has,
    .match = fc_rsa_native_match,
    .validate = fc_rsa_native_validate,
    .export = fc_rsa_native_export,
    .get_params = fc_rsa_native_get_params,
    .dup = fc_rsa_native_dup,
};

/* ------------------------------------------------------------------------ */
/* Entry points: one call through the key's implementation                  */

static int fc_rsa_km_has(const void *keydata, int selection)
{
    const fc_rsa_obj *obj = keydata;

    return obj != NULL && obj->impl->has(obj, selection);
}

static int fc_rsa_km_match(const void *keydata1, const void *keydata2,
                           int selection)
{
    const fc_rsa_obj *o1 = keydata1, *o2 = keydata2;

    if (o1 == NULL || o2 == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    return o1->impl == o2->impl && o1->impl->match(o1, o2, selection);
}

static int fc_rsa_km_validate(const void *keydata, int selection, int checktype)
{
    fc_rsa_obj *obj = (fc_rsa_obj *)keydata;

    if (obj == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    return obj->impl->validate(obj, selection, checktype);
}

static int fc_rsa_km_export(void *keydata, int selection, OSSL_CALLBACK *cb,
                            void *cbarg)
{
    fc_rsa_obj *obj = keydata;

    return obj != NULL ? obj->impl->export(obj, selection, cb, cbarg) : 0;
}

static int fc_rsa_km_get_params(void *keydata, OSSL_PARAM params[])
{
    fc_rsa_obj *obj = keydata;

    return obj != NULL && obj->impl->get_params(obj, params);
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
    obj->impl = from->impl;
    if (!from->impl->dup(obj, from, selection)) {
        FC_RAISE(from->prov, FC_R_MALLOC_FAILURE);
        fc_rsa_obj_free(obj);
        return NULL;
    }
    return obj;
}

static const char *fc_rsa_km_query_operation_name(int operation_id)
{
    return "RSA";
}

/* The functions both key types share: all but creation and generation's
 * start (and settable parameters), which give a key its type. */
/* clang-format off */
#define FC_RSA_KM_SHARED_FUNCTIONS                                             \
    FC_FN(KEYMGMT_FREE, fc_rsa_km_free),                                       \
    FC_FN(KEYMGMT_HAS, fc_rsa_km_has),                                         \
    FC_FN(KEYMGMT_MATCH, fc_rsa_km_match),                                     \
    FC_FN(KEYMGMT_VALIDATE, fc_rsa_km_validate),                               \
    FC_FN(KEYMGMT_IMPORT, fc_rsa_km_import),                                   \
    FC_FN(KEYMGMT_IMPORT_TYPES, fc_rsa_km_import_types),                       \
    FC_FN(KEYMGMT_EXPORT, fc_rsa_km_export),                                   \
    FC_FN(KEYMGMT_EXPORT_TYPES, fc_rsa_km_export_types),                       \
    FC_FN(KEYMGMT_GET_PARAMS, fc_rsa_km_get_params),                           \
    FC_FN(KEYMGMT_GETTABLE_PARAMS, fc_rsa_km_gettable_params),                 \
    FC_FN(KEYMGMT_DUP, fc_rsa_km_dup),                                         \
    FC_FN(KEYMGMT_QUERY_OPERATION_NAME, fc_rsa_km_query_operation_name),       \
    FC_FN(KEYMGMT_GEN_SET_PARAMS, fc_rsa_km_gen_set_params),                   \
    FC_FN(KEYMGMT_GEN, fc_rsa_km_gen),                                         \
    FC_FN(KEYMGMT_GEN_CLEANUP, fc_rsa_km_gen_cleanup)
/* clang-format on */

const OSSL_DISPATCH fc_rsa_keymgmt_functions[] = {
    FC_FN(KEYMGMT_NEW, fc_rsa_km_new),
    FC_FN(KEYMGMT_GEN_INIT, fc_rsa_km_gen_init),
    FC_FN(KEYMGMT_GEN_SETTABLE_PARAMS, fc_rsa_km_gen_settable_params),
    FC_RSA_KM_SHARED_FUNCTIONS,
    OSSL_DISPATCH_END,
};

/* RSA-PSS keys: the same but for creation and generation. */
const OSSL_DISPATCH fc_rsa_pss_keymgmt_functions[] = {
    FC_FN(KEYMGMT_NEW, fc_rsa_pss_km_new),
    FC_FN(KEYMGMT_GEN_INIT, fc_rsa_pss_km_gen_init),
    FC_FN(KEYMGMT_GEN_SETTABLE_PARAMS, fc_rsa_pss_km_gen_settable_params),
    FC_RSA_KM_SHARED_FUNCTIONS,
    OSSL_DISPATCH_END,
};
