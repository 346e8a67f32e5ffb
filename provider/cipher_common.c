/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cipher_common.c - the pieces every cipher glue file shares (see
 * cipher_common.h): the parameter decoder, the length policy, the IV
 * read-out, the algorithm constants and the context allocation.
 */
#include <stdint.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/params.h>

#include "cipher_common.h"

/* ------------------------------------------------------------------------ */
/* Algorithm constants. */

/* Lookup order: EVP asks for all of them once, when it fetches. */
static const uint8_t fc_cipher_const_ids[] = {
    FC_CP_MODE,       FC_CP_KEYLEN,    FC_CP_IVLEN,
    FC_CP_BLOCK_SIZE, FC_CP_AEAD,      FC_CP_CUSTOM_IV,
    FC_CP_CTS,        FC_CP_TLS_MULTI, FC_CP_HAS_RANDKEY,
};
static const fc_param_table fc_cipher_const_table =
    FC_PARAM_TABLE(fc_cipher_const_ids);

static const OSSL_PARAM fc_cipher_known_gettable_params[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
    OSSL_PARAM_END,
};

/* see cipher_common.h */
const OSSL_PARAM *fc_cipher_gettable_params(void *provctx)
{
    (void)provctx;
    return fc_cipher_known_gettable_params;
}

/* see cipher_common.h */
int fc_cipher_get_params(OSSL_PARAM params[], const fc_cipher_info *info,
                         size_t keylen)
{
    fc_params f;
    OSSL_PARAM *p;

    if (fc_params_find(&fc_cipher_const_table, params, &f) == 0)
        return 1;
    /* Independent of each other: any order does. */
    if ((p = fc_param(&f, FC_CP_MODE)) != NULL &&
        !OSSL_PARAM_set_uint(p, info->mode))
        return 0;
    if ((p = fc_param(&f, FC_CP_KEYLEN)) != NULL &&
        !OSSL_PARAM_set_size_t(p, keylen))
        return 0;
    if ((p = fc_param(&f, FC_CP_IVLEN)) != NULL &&
        !OSSL_PARAM_set_size_t(p, info->ivlen))
        return 0;
    if ((p = fc_param(&f, FC_CP_BLOCK_SIZE)) != NULL &&
        !OSSL_PARAM_set_size_t(p, info->blocksize))
        return 0;
    if ((p = fc_param(&f, FC_CP_AEAD)) != NULL &&
        !OSSL_PARAM_set_int(p, info->aead))
        return 0;
    if ((p = fc_param(&f, FC_CP_CUSTOM_IV)) != NULL &&
        !OSSL_PARAM_set_int(p, info->custom_iv))
        return 0;
    /* No cipher of ours has these properties. */
    if ((p = fc_param(&f, FC_CP_CTS)) != NULL && !OSSL_PARAM_set_int(p, 0))
        return 0;
    if ((p = fc_param(&f, FC_CP_TLS_MULTI)) != NULL &&
        !OSSL_PARAM_set_int(p, 0))
        return 0;
    if ((p = fc_param(&f, FC_CP_HAS_RANDKEY)) != NULL &&
        !OSSL_PARAM_set_int(p, 0))
        return 0;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Lengths. */

/* see cipher_common.h */
int fc_cipher_bad_keylen(fc_prov_ctx *prov, size_t got, size_t own)
{
    FC_RAISE_DATA(prov, FC_R_INVALID_KEY_LENGTH,
                  "keylen=%zu, this cipher has %zu", got, own);
    return 0;
}

/* see cipher_common.h */
int fc_cipher_check_keylen_param(fc_prov_ctx *prov, const OSSL_PARAM *p,
                                 size_t own)
{
    size_t v;

    if (!OSSL_PARAM_get_size_t(p, &v)) {
        FC_RAISE_DATA(prov, FC_R_INVALID_PARAMETER, "set %s", p->key);
        return 0;
    }
    return fc_cipher_check_keylen(prov, v, own);
}

/* see cipher_common.h */
int fc_cipher_bad_ivlen(fc_prov_ctx *prov, size_t got, size_t min, uint64_t max)
{
    if (min == max)
        FC_RAISE_DATA(prov, FC_R_INVALID_IV_LENGTH,
                      "ivlen=%zu, this cipher has %zu", got, min);
    else
        FC_RAISE_DATA(prov, FC_R_INVALID_IV_LENGTH, "ivlen=%zu", got);
    return 0;
}

/* see cipher_common.h */
int fc_cipher_get_ivlen_param(fc_prov_ctx *prov, const OSSL_PARAM *p, size_t *v,
                              size_t min, uint64_t max)
{
    if (!OSSL_PARAM_get_size_t(p, v)) {
        FC_RAISE_DATA(prov, FC_R_INVALID_PARAMETER, "set %s", p->key);
        return 0;
    }
    return fc_cipher_check_ivlen(prov, *v, min, max);
}

/* ------------------------------------------------------------------------ */
/* Context parameters. */

/* see cipher_common.h */
int fc_cipher_bad_param(fc_prov_ctx *prov, const OSSL_PARAM *p,
                        const char *what)
{
    FC_RAISE_DATA(prov, FC_R_INVALID_PARAMETER, "%s %s", what, p->key);
    return 0;
}

/* see cipher_common.h */
int fc_cipher_get_iv(fc_prov_ctx *prov, OSSL_PARAM *p, const uint8_t *iv,
                     size_t len, int strict)
{
    int ok;

    if (p->data_type == OSSL_PARAM_OCTET_PTR) {
        ok = OSSL_PARAM_set_octet_ptr(p, iv, len);
    } else if (strict && len > p->data_size) {
        FC_RAISE_DATA(prov, FC_R_INVALID_IV_LENGTH,
                      "IV is %zu bytes, buffer %zu", len, p->data_size);
        return 0;
    } else {
        ok = OSSL_PARAM_set_octet_string(p, iv, len);
    }
    if (!ok)
        FC_RAISE_DATA(prov, FC_R_INVALID_PARAMETER, "get %s", p->key);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* The non-AEAD modes. */

/* Lookup order: the names EVP asks for around every init first, then the
 * MAC libssl reads after every CBC record. */
static const uint8_t fc_generic_get_ids[] = {
    FC_CP_IVLEN, FC_CP_KEYLEN,  FC_CP_TLS_MAC, FC_CP_UPDATED_IV,
    FC_CP_IV,    FC_CP_PADDING, FC_CP_NUM,
};
static const fc_param_table fc_generic_get_table =
    FC_PARAM_TABLE(fc_generic_get_ids);

static const uint8_t fc_generic_set_ids[] = {
    FC_CP_PADDING, FC_CP_TLS_VERSION, FC_CP_TLS_MAC_SIZE, FC_CP_KEYLEN,
    FC_CP_IVLEN,   FC_CP_NUM,         FC_CP_USE_BITS,
};
static const fc_param_table fc_generic_set_table =
    FC_PARAM_TABLE(fc_generic_set_ids);

static const OSSL_PARAM fc_cipher_generic_gettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, NULL, 0),
    OSSL_PARAM_END,
};

/* "keylen" is absent, as in the default provider (the length policy
 * above); a "keylen" passed anyway must be the cipher's own. */
static const OSSL_PARAM fc_cipher_generic_settable[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_USE_BITS, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_TLS_VERSION, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, NULL),
    OSSL_PARAM_END,
};

/* see cipher_common.h */
void fc_cipher_generic_setup(fc_cipher_generic *g, fc_prov_ctx *prov,
                             size_t keylen, unsigned int num_max,
                             int iv_restart)
{
    g->prov = prov;
    g->keylen = keylen;
    g->num_max = num_max;
    g->pad = 1;
    g->iv_restart = (uint8_t)(iv_restart != 0);
}

/* see cipher_common.h */
int fc_cipher_generic_init(fc_cipher_generic *g, const unsigned char *key,
                           size_t keylen, const unsigned char *iv, size_t ivlen,
                           int enc)
{
    g->num = 0;
    g->enc = (uint8_t)(enc != 0);
    if (iv != NULL) {
        if (!fc_cipher_check_ivlen(g->prov, ivlen, FC_CIPHER_GENERIC_IVLEN,
                                   FC_CIPHER_GENERIC_IVLEN))
            return 0;
        memcpy(g->iv, iv, FC_CIPHER_GENERIC_IVLEN);
        memcpy(g->oiv, iv, FC_CIPHER_GENERIC_IVLEN);
        g->iv_set = 1;
    } else if (g->iv_set && g->iv_restart) {
        memcpy(g->iv, g->oiv, FC_CIPHER_GENERIC_IVLEN);
    }
    if (key != NULL) {
        if (!fc_cipher_check_keylen(g->prov, keylen, g->keylen))
            return 0;
        if (key != g->key)
            memcpy(g->key, key, keylen);
        g->key_set = 1;
    }
    return 1;
}

/* see cipher_common.h */
int fc_cipher_generic_get_ctx_params(const fc_cipher_generic *g,
                                     OSSL_PARAM params[], const uint8_t *tlsmac)
{
    fc_params f;
    OSSL_PARAM *p;

    if (fc_params_find(&fc_generic_get_table, params, &f) == 0)
        return 1;
    /* All reads: the order does not matter. */
    if ((p = fc_param(&f, FC_CP_IVLEN)) != NULL &&
        !fc_cipher_set_size(g->prov, p, FC_CIPHER_GENERIC_IVLEN))
        return 0;
    if ((p = fc_param(&f, FC_CP_KEYLEN)) != NULL &&
        !fc_cipher_set_size(g->prov, p, g->keylen))
        return 0;
    if ((p = fc_param(&f, FC_CP_PADDING)) != NULL &&
        !OSSL_PARAM_set_uint(p, g->pad))
        return fc_cipher_bad_param(g->prov, p, "get");
    if ((p = fc_param(&f, FC_CP_NUM)) != NULL &&
        !OSSL_PARAM_set_uint(p, g->num))
        return fc_cipher_bad_param(g->prov, p, "get");
    if ((p = fc_param(&f, FC_CP_IV)) != NULL &&
        !fc_cipher_get_iv(g->prov, p, g->oiv, FC_CIPHER_GENERIC_IVLEN, 0))
        return 0;
    if ((p = fc_param(&f, FC_CP_UPDATED_IV)) != NULL &&
        !fc_cipher_get_iv(g->prov, p, g->iv, FC_CIPHER_GENERIC_IVLEN, 0))
        return 0;
    if ((p = fc_param(&f, FC_CP_TLS_MAC)) != NULL &&
        !OSSL_PARAM_set_octet_ptr(p, tlsmac, g->tlsmacsize))
        return fc_cipher_bad_param(g->prov, p, "get");
    return 1;
}

/* see cipher_common.h */
int fc_cipher_generic_set_ctx_params(fc_cipher_generic *g,
                                     const OSSL_PARAM params[])
{
    fc_params f;
    const OSSL_PARAM *p;
    unsigned int u, version = g->tlsversion, num = g->num;
    size_t macsize = g->tlsmacsize, v;
    int pad = g->pad;

    if (fc_params_find(&fc_generic_set_table, params, &f) == 0)
        return 1;
    /* Everything is read and checked first and stored at the end, so a
     * refused array changes nothing. The lengths first: they must be the
     * cipher's own (the length policy above). The rest are independent. */
    if ((p = fc_param(&f, FC_CP_KEYLEN)) != NULL &&
        !fc_cipher_check_keylen_param(g->prov, p, g->keylen))
        return 0;
    if ((p = fc_param(&f, FC_CP_IVLEN)) != NULL &&
        !fc_cipher_get_ivlen_param(g->prov, p, &v, FC_CIPHER_GENERIC_IVLEN,
                                   FC_CIPHER_GENERIC_IVLEN))
        return 0;
    if ((p = fc_param(&f, FC_CP_PADDING)) != NULL) {
        if (!OSSL_PARAM_get_uint(p, &u))
            return fc_cipher_bad_param(g->prov, p, "set");
        pad = u != 0;
    }
    if ((p = fc_param(&f, FC_CP_NUM)) != NULL &&
        (!OSSL_PARAM_get_uint(p, &num) || num > g->num_max))
        return fc_cipher_bad_param(g->prov, p, "set");
    /* For CFB1; accepted, as the default does, and unused. */
    if ((p = fc_param(&f, FC_CP_USE_BITS)) != NULL &&
        !OSSL_PARAM_get_uint(p, &u))
        return fc_cipher_bad_param(g->prov, p, "set");
    /* libssl passes an int; the conversion accepts it when >= 0. */
    if ((p = fc_param(&f, FC_CP_TLS_VERSION)) != NULL &&
        !OSSL_PARAM_get_uint(p, &version))
        return fc_cipher_bad_param(g->prov, p, "set");
    if ((p = fc_param(&f, FC_CP_TLS_MAC_SIZE)) != NULL &&
        !OSSL_PARAM_get_size_t(p, &macsize))
        return fc_cipher_bad_param(g->prov, p, "set");
    g->pad = (uint8_t)pad;
    g->num = num;
    g->tlsversion = version;
    g->tlsmacsize = macsize;
    return 1;
}

/* see cipher_common.h */
int fc_cipher_generic_check_io(const fc_cipher_generic *g,
                               const unsigned char *out, size_t outsize,
                               const unsigned char *in, size_t inl)
{
    if (!g->key_set) {
        FC_RAISE(g->prov, FC_R_NO_KEY_SET);
        return 0;
    }
    if (outsize < inl) {
        FC_RAISE_DATA(g->prov, FC_R_OUTPUT_TOO_SMALL, "need %zu, have %zu", inl,
                      outsize);
        return 0;
    }
    if (inl != 0 && (in == NULL || out == NULL)) {
        FC_RAISE(g->prov, FC_R_NULL_ARGUMENT);
        return 0;
    }
    return 1;
}

/* see cipher_common.h */
int fc_cipher_generic_ctx_get(void *ctx, OSSL_PARAM params[])
{
    return fc_cipher_generic_get_ctx_params(ctx, params, NULL);
}

/* see cipher_common.h */
int fc_cipher_generic_ctx_set(void *ctx, const OSSL_PARAM params[])
{
    return fc_cipher_generic_set_ctx_params(ctx, params);
}

/* see cipher_common.h */
const OSSL_PARAM *fc_cipher_generic_gettable_ctx_params(void *cctx,
                                                        void *provctx)
{
    (void)cctx;
    (void)provctx;
    return fc_cipher_generic_gettable;
}

/* see cipher_common.h */
const OSSL_PARAM *fc_cipher_generic_settable_ctx_params(void *cctx,
                                                        void *provctx)
{
    (void)cctx;
    (void)provctx;
    return fc_cipher_generic_settable;
}

/* ------------------------------------------------------------------------ */
/* Context life cycle. */

/*
 * The allocation has room for a pointer and FC_CIPHER_CTX_ALIGN bytes of
 * padding; the context starts at the first aligned address at least one
 * pointer in, and the pointer in front of it holds the allocation's start.
 */
static inline void **fc_cipher_ctx_base(void *ctx)
{
    return (void **)ctx - 1;
}

/* see cipher_common.h */
void *fc_cipher_ctx_new(fc_prov_ctx *prov, size_t size)
{
    uint8_t *base = OPENSSL_zalloc(size + sizeof(void *) + FC_CIPHER_CTX_ALIGN);
    uint8_t *ctx;

    if (base == NULL) {
        FC_RAISE(prov, FC_R_MALLOC_FAILURE);
        return NULL;
    }
    ctx = base + sizeof(void *);
    ctx += -(uintptr_t)ctx & (FC_CIPHER_CTX_ALIGN - 1);
    *fc_cipher_ctx_base(ctx) = base;
    return ctx;
}

/* see cipher_common.h */
void fc_cipher_ctx_free(void *ctx, size_t size)
{
    if (ctx == NULL)
        return;
    /* fc_memzero is a plain (vectorised) memset the compiler cannot drop:
     * EVP frees a context on every init with a cipher, so this is hot. */
    fc_memzero(ctx, size);
    OPENSSL_free(*fc_cipher_ctx_base(ctx));
}

/* see cipher_common.h */
void *fc_cipher_ctx_dup(fc_prov_ctx *prov, const void *src, size_t size)
{
    void *dst = fc_cipher_ctx_new(prov, size);

    if (dst != NULL)
        memcpy(dst, src, size);
    return dst;
}
