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

static const fc_param_name fc_cipher_const_names[] = {
    FC_PARAM_NAME(OSSL_CIPHER_PARAM_MODE, FC_CP_MODE),
    FC_PARAM_NAME(OSSL_CIPHER_PARAM_KEYLEN, FC_CP_KEYLEN),
    FC_PARAM_NAME(OSSL_CIPHER_PARAM_IVLEN, FC_CP_IVLEN),
    FC_PARAM_NAME(OSSL_CIPHER_PARAM_BLOCK_SIZE, FC_CP_BLOCK_SIZE),
    FC_PARAM_NAME(OSSL_CIPHER_PARAM_AEAD, FC_CP_AEAD),
    FC_PARAM_NAME(OSSL_CIPHER_PARAM_CUSTOM_IV, FC_CP_CUSTOM_IV),
    FC_PARAM_NAME(OSSL_CIPHER_PARAM_CTS, FC_CP_CTS),
    FC_PARAM_NAME(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, FC_CP_TLS_MULTI),
    FC_PARAM_NAME(OSSL_CIPHER_PARAM_HAS_RAND_KEY, FC_CP_HAS_RANDKEY),
};
static const fc_param_table fc_cipher_const_table =
    FC_PARAM_TABLE(fc_cipher_const_names);

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
int fc_cipher_get_params(OSSL_PARAM params[], const fc_cipher_info *info)
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
        !OSSL_PARAM_set_size_t(p, info->keylen))
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
    for (int id = FC_CP_CTS; id <= FC_CP_HAS_RANDKEY; id++)
        if ((p = fc_param(&f, id)) != NULL && !OSSL_PARAM_set_int(p, 0))
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
