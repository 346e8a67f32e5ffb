/* SPDX-License-Identifier: Apache-2.0 */
/*
 * keymgmt_rsa_gen.c - RSA key generation for OpenSSL's key management
 * (RSA and RSA-PSS keys; the dispatch tables are keymgmt_rsa.c's): the
 * generation context, its parameters, and the key our core makes.
 *
 * Generation: a key of a size not offered on this CPU is made by our core
 * and handed over as a delegated key, so that it runs where an imported one
 * of its size runs. 512..8192 bits (FC_RSA_GEN_MIN_BITS, FC_RSA_GEN_MAX_BITS)
 * of 2 to 5 primes as default allows them for the size (fc_rsa_max_primes,
 * checked at gen with default's reason, "key prime num invalid"); sizes are
 * checked at gen_set_params: below 512 "key size too small"
 * (FC_R_KEY_TOO_SMALL, default's reason), above 8192 FC_R_INVALID_KEY_LENGTH
 * with a pointer to the default provider, which a program names in its
 * property query to get such a key (docs/behaviour.md, RSA).

 *
 * An RSA-PSS key's restrictions are read as default reads them
 * (fc_rsa_pss_params_fromdata) and accumulate over calls; a plain key
 * ignores them, as with default.
 */
#include <stdint.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "fc/common.h"
#include "fc/rsa.h"
#include "fc_prov.h"
#include "fc_rsa.h"
#include "rsa_key.h"

/* Sizes fc_rsa_generate makes: OpenSSL's RSA_MIN_MODULUS_BITS, and the
 * bignum layer's limit (64 * FC_BN_MAX_LIMBS). */
#define FC_RSA_GEN_MIN_BITS 512
#define FC_RSA_GEN_MAX_BITS (64 * FC_BN_MAX_LIMBS)

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

/* see rsa_key.h */
void *fc_rsa_km_gen_init(void *provctx, int selection,
                         const OSSL_PARAM params[])
{
    return fc_rsa_gen_new(provctx, selection, 0, params);
}

/* see rsa_key.h */
void *fc_rsa_pss_km_gen_init(void *provctx, int selection,
                             const OSSL_PARAM params[])
{
    return fc_rsa_gen_new(provctx, selection, 1, params);
}

/* see rsa_key.h */
int fc_rsa_km_gen_set_params(void *genctx, const OSSL_PARAM params[])
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

/* see rsa_key.h */
const OSSL_PARAM *fc_rsa_km_gen_settable_params(void *genctx, void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_BITS, NULL),
        OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_PRIMES, NULL),
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
        OSSL_PARAM_END,
    };
    return params;
}

/* see rsa_key.h */
const OSSL_PARAM *fc_rsa_pss_km_gen_settable_params(void *genctx, void *provctx)
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

/* see rsa_key.h */
void *fc_rsa_km_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg)
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
    if (!fc_rsa_bits_offered(g->prov, g->bits) && !fc_rsa_obj_hand_over(obj)) {
        FC_RAISE_DATA(g->prov, FC_R_KEYGEN_FAILED,
                      "%zu-bit key: handing it to the default provider failed",
                      g->bits);
        fc_rsa_obj_free(obj);
        return NULL;
    }
    return obj;
}

/* see rsa_key.h */
void fc_rsa_km_gen_cleanup(void *genctx)
{
    OPENSSL_clear_free(genctx, sizeof(fc_rsa_gen_ctx));
}
