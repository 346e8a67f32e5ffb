/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rand_ctr_drbg_params.c - the CTR-DRBG's configuration and context
 * parameters (rand_ctr_drbg.h; the life cycle is rand_ctr_drbg.c's):
 *   - "cipher" is AES-128-CTR, AES-192-CTR or AES-256-CTR (any case; our
 *     own AES, so "properties" is taken and ignored), and
 *     "use_derivation_function" 0 or not: both change only while
 *     uninstantiated (FC_R_INVALID_PARAMETER), and they set the length
 *     bounds of SP 800-90A Table 3 (with df, the inputs are capped by the
 *     df's 32-bit length field).
 *   - "reseed_requests" and "reseed_time_interval" are settable; 0 turns
 *     that trigger off.
 *   - get_ctx_params answers the state, strength, the length bounds,
 *     "reseed_counter" (read atomically: children read it without our
 *     lock), the reseed settings and time, the cipher and df. A request for
 *     "max_request" alone (the EVP layer's, before every generate) is
 *     answered without the lock; get and set otherwise hold the DRBG's own
 *     lock.
 */
#include <string.h>
#include <strings.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "fc/common.h"
#include "fc/drbg.h"
#include "fc_prov.h"
#include "rand_ctr_drbg.h"

/* ------------------------------------------------------------------------ */
/* Configuration */

/* Bounds that follow from the key size and the df choice (SP 800-90A
 * Table 3; with df the inputs are capped by the 32-bit df length field). */
static void fc_drbg_set_lengths(fc_drbg_ctx *c)
{
    const fc_ctr_drbg *d = &c->core;

    c->strength = (unsigned int)(8 * d->keylen);
    c->max_request = FC_CTR_DRBG_MAX_REQUEST;
    if (d->use_df) {
        c->min_entropylen = d->keylen;
        c->max_entropylen = FC_CTR_DRBG_MAX_LENGTH;
        c->min_noncelen = d->keylen / 2;
        c->max_noncelen = FC_CTR_DRBG_MAX_LENGTH;
        c->max_perslen = FC_CTR_DRBG_MAX_LENGTH;
        c->max_adinlen = FC_CTR_DRBG_MAX_LENGTH;
    } else {
        c->min_entropylen = d->seedlen;
        c->max_entropylen = d->seedlen;
        c->min_noncelen = 0;
        c->max_noncelen = 0;
        c->max_perslen = d->seedlen;
        c->max_adinlen = d->seedlen;
    }
}

/* see rand_ctr_drbg.h */
int fc_drbg_configure(fc_drbg_ctx *c, size_t keylen, int use_df)
{
    if (!fc_ctr_drbg_init(&c->core, c->prov->aes, keylen, use_df))
        return 0;
    fc_drbg_set_lengths(c);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Parameters */

static const char *fc_drbg_cipher_name(size_t keylen)
{
    return keylen == 16   ? "AES-128-CTR"
           : keylen == 24 ? "AES-192-CTR"
                          : "AES-256-CTR";
}

/* see rand_ctr_drbg.h */
const OSSL_PARAM *fc_drbg_gettable_ctx_params(void *vctx, void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_int(OSSL_RAND_PARAM_STATE, NULL),
        OSSL_PARAM_uint(OSSL_RAND_PARAM_STRENGTH, NULL),
        OSSL_PARAM_size_t(OSSL_RAND_PARAM_MAX_REQUEST, NULL),
        OSSL_PARAM_size_t(OSSL_DRBG_PARAM_MIN_ENTROPYLEN, NULL),
        OSSL_PARAM_size_t(OSSL_DRBG_PARAM_MAX_ENTROPYLEN, NULL),
        OSSL_PARAM_size_t(OSSL_DRBG_PARAM_MIN_NONCELEN, NULL),
        OSSL_PARAM_size_t(OSSL_DRBG_PARAM_MAX_NONCELEN, NULL),
        OSSL_PARAM_size_t(OSSL_DRBG_PARAM_MAX_PERSLEN, NULL),
        OSSL_PARAM_size_t(OSSL_DRBG_PARAM_MAX_ADINLEN, NULL),
        OSSL_PARAM_uint(OSSL_DRBG_PARAM_RESEED_COUNTER, NULL),
        OSSL_PARAM_time_t(OSSL_DRBG_PARAM_RESEED_TIME, NULL),
        OSSL_PARAM_uint(OSSL_DRBG_PARAM_RESEED_REQUESTS, NULL),
        OSSL_PARAM_time_t(OSSL_DRBG_PARAM_RESEED_TIME_INTERVAL, NULL),
        OSSL_PARAM_utf8_string(OSSL_DRBG_PARAM_CIPHER, NULL, 0),
        OSSL_PARAM_int(OSSL_DRBG_PARAM_USE_DF, NULL),
        OSSL_PARAM_END,
    };
    return params;
}

/* see rand_ctr_drbg.h */
int fc_drbg_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    fc_drbg_ctx *c = vctx;
    OSSL_PARAM *p;
    int ok = 0;

    if (params == NULL)
        return 1;
    /* The EVP layer asks for "max_request" before every generate: a
     * constant, answered without the lock. */
    if (params[0].key != NULL && params[1].key == NULL &&
        strcmp(params[0].key, OSSL_RAND_PARAM_MAX_REQUEST) == 0)
        return OSSL_PARAM_set_size_t(&params[0], c->max_request);

    if (!fc_drbg_lock_self(c))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STATE);
    if (p != NULL && !OSSL_PARAM_set_int(p, c->state))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STRENGTH);
    if (p != NULL && !OSSL_PARAM_set_uint(p, c->strength))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_MAX_REQUEST);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->max_request))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_MIN_ENTROPYLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->min_entropylen))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_MAX_ENTROPYLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->max_entropylen))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_MIN_NONCELEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->min_noncelen))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_MAX_NONCELEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->max_noncelen))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_MAX_PERSLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->max_perslen))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_MAX_ADINLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->max_adinlen))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_RESEED_COUNTER);
    if (p != NULL && !OSSL_PARAM_set_uint(p, __atomic_load_n(&c->reseed_counter,
                                                             __ATOMIC_ACQUIRE)))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_RESEED_TIME);
    if (p != NULL && !OSSL_PARAM_set_time_t(p, c->reseed_time))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_RESEED_REQUESTS);
    if (p != NULL && !OSSL_PARAM_set_uint(p, c->reseed_requests))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_RESEED_TIME_INTERVAL);
    if (p != NULL && !OSSL_PARAM_set_time_t(p, c->reseed_time_interval))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_CIPHER);
    if (p != NULL &&
        !OSSL_PARAM_set_utf8_string(p, fc_drbg_cipher_name(c->core.keylen)))
        goto end;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_USE_DF);
    if (p != NULL && !OSSL_PARAM_set_int(p, c->core.use_df))
        goto end;
    ok = 1;
end:
    fc_drbg_unlock_self(c);
    return ok;
}

/* see rand_ctr_drbg.h */
const OSSL_PARAM *fc_drbg_settable_ctx_params(void *vctx, void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_string(OSSL_DRBG_PARAM_PROPERTIES, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_DRBG_PARAM_CIPHER, NULL, 0),
        OSSL_PARAM_int(OSSL_DRBG_PARAM_USE_DF, NULL),
        OSSL_PARAM_uint(OSSL_DRBG_PARAM_RESEED_REQUESTS, NULL),
        OSSL_PARAM_time_t(OSSL_DRBG_PARAM_RESEED_TIME_INTERVAL, NULL),
        OSSL_PARAM_END,
    };
    return params;
}

/* "cipher": only AES-CTR, and only our own AES (the name picks the key
 * size). Returns the key length in bytes, or 0. */
static size_t fc_drbg_parse_cipher(const OSSL_PARAM *p)
{
    static const struct {
        const char *name;
        size_t keylen;
    } names[] = {
        {"AES-128-CTR", 16},
        {"AES-192-CTR", 24},
        {"AES-256-CTR", 32},
    };
    const char *s = NULL;

    if (!OSSL_PARAM_get_utf8_string_ptr(p, &s) || s == NULL)
        return 0;
    for (size_t i = 0; i < FC_ARRAY_LEN(names); i++) {
        if (strcasecmp(s, names[i].name) == 0)
            return names[i].keylen;
    }
    return 0;
}

/* see rand_ctr_drbg.h */
int fc_drbg_set_ctx_params_locked(fc_drbg_ctx *c, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p;
    size_t keylen = c->core.keylen;
    int use_df = c->core.use_df;
    const char *props = NULL;

    if (params == NULL)
        return 1;
    p = OSSL_PARAM_locate_const(params, OSSL_DRBG_PARAM_CIPHER);
    if (p != NULL && (keylen = fc_drbg_parse_cipher(p)) == 0) {
        FC_RAISE_DATA(c->prov, FC_R_INVALID_PARAMETER,
                      "cipher must be AES-128-CTR, AES-192-CTR or "
                      "AES-256-CTR");
        return 0;
    }
    p = OSSL_PARAM_locate_const(params, OSSL_DRBG_PARAM_USE_DF);
    if (p != NULL) {
        int v;
        if (!OSSL_PARAM_get_int(p, &v))
            return 0;
        use_df = v != 0;
    }
    /* Accepted for compatibility: our AES is always the provider's own. */
    p = OSSL_PARAM_locate_const(params, OSSL_DRBG_PARAM_PROPERTIES);
    if (p != NULL && !OSSL_PARAM_get_utf8_string_ptr(p, &props))
        return 0;
    if (keylen != c->core.keylen || use_df != c->core.use_df) {
        /* K and V belong to one key size and one df choice. */
        if (c->state != EVP_RAND_STATE_UNINITIALISED) {
            FC_RAISE_DATA(c->prov, FC_R_INVALID_PARAMETER,
                          "cannot change cipher or df while instantiated");
            return 0;
        }
        if (!fc_drbg_configure(c, keylen, use_df))
            return 0;
    }
    p = OSSL_PARAM_locate_const(params, OSSL_DRBG_PARAM_RESEED_REQUESTS);
    if (p != NULL && !OSSL_PARAM_get_uint(p, &c->reseed_requests))
        return 0;
    p = OSSL_PARAM_locate_const(params, OSSL_DRBG_PARAM_RESEED_TIME_INTERVAL);
    if (p != NULL && !OSSL_PARAM_get_time_t(p, &c->reseed_time_interval))
        return 0;
    return 1;
}

/* see rand_ctr_drbg.h */
int fc_drbg_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    fc_drbg_ctx *c = vctx;
    int ok;

    if (!fc_drbg_lock_self(c))
        return 0;
    ok = fc_drbg_set_ctx_params_locked(c, params);
    fc_drbg_unlock_self(c);
    return ok;
}
