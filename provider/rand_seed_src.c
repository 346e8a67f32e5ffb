/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rand_seed_src.c - fastcrypto's "SEED-SRC" for OpenSSL (EVP_RAND): the
 * operating system's entropy source, getrandom(2) (fc_os_entropy), as the
 * root of the RAND chain: the library makes it the parent of its <primary>
 * DRBG (rand_ctr_drbg.c's CTR-DRBG, or any other provider's).
 *   - It has no parent (newctx refuses one) and keeps no secret state:
 *     locking is a no-op and zeroization always holds.
 *   - generate and get_seed fail until it is instantiated
 *     (FC_R_OPERATION_NOT_INITIALIZED), and with FC_R_RANDOM_FAILURE and
 *     errno's text when getrandom fails.
 *   - A full-entropy source: |entropy| bits of seed take (entropy + 7) / 8
 *     bytes, at least min_len; more than max_len is refused
 *     (FC_R_INVALID_PARAMETER). Seeds are in secure memory, wiped and freed
 *     by clear_seed.
 *   - It reports a strength of 1024 bits and requests of at most 256
 *     bytes; generate still fills any length it is given (fc_os_entropy
 *     retries short reads).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "fc/drbg.h"
#include "fc_prov.h"

/* SEED-SRC: getrandom(2) fills up to 256 bytes in one uninterruptible
 * call, so requests are split there; it is a full-entropy source. */
#define FC_SEED_MAX_REQUEST 256
#define FC_SEED_STRENGTH    1024u

typedef struct fc_seed_ctx {
    fc_prov_ctx *prov;
    int state;
} fc_seed_ctx;

FC_DISPATCH(rand, newctx, fc_seed_newctx);
FC_DISPATCH(rand, freectx, fc_seed_freectx);
FC_DISPATCH(rand, instantiate, fc_seed_instantiate);
FC_DISPATCH(rand, uninstantiate, fc_seed_uninstantiate);
FC_DISPATCH(rand, generate, fc_seed_generate);
FC_DISPATCH(rand, reseed, fc_seed_reseed);
FC_DISPATCH(rand, enable_locking, fc_seed_enable_locking);
FC_DISPATCH(rand, lock, fc_seed_lock);
FC_DISPATCH(rand, unlock, fc_seed_unlock);
FC_DISPATCH(rand, gettable_ctx_params, fc_seed_gettable_ctx_params);
FC_DISPATCH(rand, get_ctx_params, fc_seed_get_ctx_params);
FC_DISPATCH(rand, verify_zeroization, fc_seed_verify_zeroization);
FC_DISPATCH(rand, get_seed, fc_seed_get_seed);
FC_DISPATCH(rand, clear_seed, fc_seed_clear_seed);

static void *fc_seed_newctx(void *provctx, void *parent,
                            const OSSL_DISPATCH *pd)
{
    fc_prov_ctx *prov = provctx;
    fc_seed_ctx *s;

    if (parent != NULL) {
        FC_RAISE_DATA(prov, FC_R_INVALID_PARAMETER,
                      "a seed source has no parent");
        return NULL;
    }
    s = OPENSSL_zalloc(sizeof(*s));
    if (s == NULL) {
        FC_RAISE(prov, FC_R_MALLOC_FAILURE);
        return NULL;
    }
    s->prov = prov;
    s->state = EVP_RAND_STATE_UNINITIALISED;
    return s;
}

static void fc_seed_freectx(void *vctx)
{
    OPENSSL_free(vctx);
}

static int fc_seed_instantiate(void *vctx, unsigned int strength, int pr,
                               const unsigned char *pstr, size_t pstr_len,
                               const OSSL_PARAM params[])
{
    fc_seed_ctx *s = vctx;

    s->state = EVP_RAND_STATE_READY;
    return 1;
}

static int fc_seed_uninstantiate(void *vctx)
{
    fc_seed_ctx *s = vctx;

    s->state = EVP_RAND_STATE_UNINITIALISED;
    return 1;
}

static int fc_seed_ready(fc_seed_ctx *s)
{
    if (s->state == EVP_RAND_STATE_READY)
        return 1;
    FC_RAISE_DATA(s->prov, FC_R_OPERATION_NOT_INITIALIZED,
                  "seed source not instantiated");
    return 0;
}

static int fc_seed_generate(void *vctx, unsigned char *out, size_t outlen,
                            unsigned int strength, int pr,
                            const unsigned char *adin, size_t adin_len)
{
    fc_seed_ctx *s = vctx;

    if (!fc_seed_ready(s))
        return 0;
    if (!fc_os_entropy(out, outlen)) {
        FC_RAISE_DATA(s->prov, FC_R_RANDOM_FAILURE, "getrandom: %s",
                      strerror(errno));
        return 0;
    }
    return 1;
}

static int fc_seed_reseed(void *vctx, int pr, const unsigned char *ent,
                          size_t ent_len, const unsigned char *adin,
                          size_t adin_len)
{
    return fc_seed_ready(vctx);
}

static const OSSL_PARAM *fc_seed_gettable_ctx_params(void *vctx, void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_int(OSSL_RAND_PARAM_STATE, NULL),
        OSSL_PARAM_uint(OSSL_RAND_PARAM_STRENGTH, NULL),
        OSSL_PARAM_size_t(OSSL_RAND_PARAM_MAX_REQUEST, NULL),
        OSSL_PARAM_END,
    };
    return params;
}

static int fc_seed_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    fc_seed_ctx *s = vctx;
    OSSL_PARAM *p;

    p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STATE);
    if (p != NULL && !OSSL_PARAM_set_int(p, s->state))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STRENGTH);
    if (p != NULL && !OSSL_PARAM_set_uint(p, FC_SEED_STRENGTH))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_MAX_REQUEST);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, FC_SEED_MAX_REQUEST))
        return 0;
    return 1;
}

static int fc_seed_verify_zeroization(void *vctx)
{
    return 1;
}

/* A full-entropy source: |entropy| bits take (entropy + 7) / 8 bytes. */
static size_t fc_seed_get_seed(void *vctx, unsigned char **pout, int entropy,
                               size_t min_len, size_t max_len, int pr,
                               const unsigned char *adin, size_t adin_len)
{
    fc_seed_ctx *s = vctx;
    size_t n = entropy > 0 ? ((size_t)entropy + 7) / 8 : 0;
    uint8_t *buf;

    if (!fc_seed_ready(s))
        return 0;
    if (n < min_len)
        n = min_len;
    if (n > max_len || n == 0) {
        FC_RAISE_DATA(s->prov, FC_R_INVALID_PARAMETER,
                      "seed of %zu bytes outside [%zu, %zu]", n, min_len,
                      max_len);
        return 0;
    }
    buf = OPENSSL_secure_malloc(n);
    if (buf == NULL) {
        FC_RAISE(s->prov, FC_R_MALLOC_FAILURE);
        return 0;
    }
    if (!fc_os_entropy(buf, n)) {
        FC_RAISE_DATA(s->prov, FC_R_RANDOM_FAILURE, "getrandom: %s",
                      strerror(errno));
        OPENSSL_secure_clear_free(buf, n);
        return 0;
    }
    *pout = buf;
    return n;
}

static void fc_seed_clear_seed(void *vctx, unsigned char *buf, size_t len)
{
    OPENSSL_secure_clear_free(buf, len);
}

static int fc_seed_enable_locking(void *vctx)
{
    return 1;
}

static int fc_seed_lock(void *vctx)
{
    return 1;
}

static void fc_seed_unlock(void *vctx)
{
}

const OSSL_DISPATCH fc_seed_src_functions[] = {
    FC_FN(RAND_NEWCTX, fc_seed_newctx),
    FC_FN(RAND_FREECTX, fc_seed_freectx),
    FC_FN(RAND_INSTANTIATE, fc_seed_instantiate),
    FC_FN(RAND_UNINSTANTIATE, fc_seed_uninstantiate),
    FC_FN(RAND_GENERATE, fc_seed_generate),
    FC_FN(RAND_RESEED, fc_seed_reseed),
    FC_FN(RAND_ENABLE_LOCKING, fc_seed_enable_locking),
    FC_FN(RAND_LOCK, fc_seed_lock),
    FC_FN(RAND_UNLOCK, fc_seed_unlock),
    FC_FN(RAND_GETTABLE_CTX_PARAMS, fc_seed_gettable_ctx_params),
    FC_FN(RAND_GET_CTX_PARAMS, fc_seed_get_ctx_params),
    FC_FN(RAND_VERIFY_ZEROIZATION, fc_seed_verify_zeroization),
    FC_FN(RAND_GET_SEED, fc_seed_get_seed),
    FC_FN(RAND_CLEAR_SEED, fc_seed_clear_seed),
    OSSL_DISPATCH_END,
};
