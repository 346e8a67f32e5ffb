/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc_floor_prov.c - "fcfloor", a test-only provider whose AES-GCM and
 * AES-256-CBC do no cryptography at all: libcrypto's own cost per call,
 * the floor under any provider's AEAD or block cipher.
 *
 * It registers AES-128-GCM and AES-256-GCM under the default provider's
 * names, with the parameters EVP and libssl read (mode, aead, custom-iv,
 * ivlen, keylen, taglen, tag, tlsaadpad) and the ones they set (ivlen, tag),
 * handled the plain way most providers do: OSSL_PARAM_locate per key. Data
 * is not touched (update reports |inl| bytes out and writes nothing), the tag
 * is zeros, a decrypt final always succeeds. fc_bench times the same EVP
 * sequence on it, on default and on fastcrypto: the difference to the floor
 * is what a provider itself spends per record. Its AES-256-CBC reports
 * the output lengths of CBC with PKCS#7 padding (whole blocks from
 * update, one block from an encrypting final) and writes nothing; its
 * parameters: mode, keylen, ivlen, blocksize, "padding".
 *
 * Built beside fc_bench, never installed, never loaded by a configuration.
 */
#include <string.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

typedef struct floor_ctx {
    size_t keylen, ivlen, taglen;
    size_t buffered; /* CBC: bytes of a partial block held back */
    int enc;
} floor_ctx;

static void *floor_newctx(size_t keylen)
{
    floor_ctx *c = OPENSSL_zalloc(sizeof(*c));

    if (c != NULL) {
        c->keylen = keylen;
        c->ivlen = 12;
        c->taglen = 16;
    }
    return c;
}

static void *floor_newctx128(void *provctx)
{
    return floor_newctx(16);
}

static void *floor_newctx256(void *provctx)
{
    return floor_newctx(32);
}

static void floor_freectx(void *vctx)
{
    OPENSSL_free(vctx);
}

static void *floor_dupctx(void *vctx)
{
    return OPENSSL_memdup(vctx, sizeof(floor_ctx));
}

static int floor_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    floor_ctx *c = vctx;
    const OSSL_PARAM *p;

    if (params == NULL)
        return 1;
    p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN);
    if (p != NULL && !OSSL_PARAM_get_size_t(p, &c->ivlen))
        return 0;
    p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG);
    if (p != NULL) {
        if (p->data_size == 0 || p->data_size > 16)
            return 0;
        c->taglen = p->data_size;
    }
    return 1;
}

static int floor_init(void *vctx, const OSSL_PARAM params[], int enc)
{
    ((floor_ctx *)vctx)->enc = enc;
    return floor_set_ctx_params(vctx, params);
}

static int floor_einit(void *vctx, const unsigned char *key, size_t keylen,
                       const unsigned char *iv, size_t ivlen,
                       const OSSL_PARAM params[])
{
    return floor_init(vctx, params, 1);
}

static int floor_dinit(void *vctx, const unsigned char *key, size_t keylen,
                       const unsigned char *iv, size_t ivlen,
                       const OSSL_PARAM params[])
{
    return floor_init(vctx, params, 0);
}

static int floor_update(void *vctx, unsigned char *out, size_t *outl,
                        size_t outsize, const unsigned char *in, size_t inl)
{
    if (out != NULL && outsize < inl)
        return 0;
    *outl = inl;
    return 1;
}

static int floor_final(void *vctx, unsigned char *out, size_t *outl,
                       size_t outsize)
{
    *outl = 0;
    return 1;
}

static int floor_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    static const unsigned char zeros[16];
    floor_ctx *c = vctx;
    OSSL_PARAM *p;

    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->ivlen))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->keylen))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->taglen))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, 16))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG);
    if (p != NULL && (p->data_size == 0 || p->data_size > 16 ||
                      !OSSL_PARAM_set_octet_string(p, zeros, p->data_size)))
        return 0;
    return 1;
}

static int floor_get_params(OSSL_PARAM params[], size_t keylen)
{
    OSSL_PARAM *p;

    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE);
    if (p != NULL && !OSSL_PARAM_set_uint(p, EVP_CIPH_GCM_MODE))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, keylen))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, 12))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, 1))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD);
    if (p != NULL && !OSSL_PARAM_set_int(p, 1))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV);
    if (p != NULL && !OSSL_PARAM_set_int(p, 1))
        return 0;
    return 1;
}

static int floor_get_params128(OSSL_PARAM params[])
{
    return floor_get_params(params, 16);
}

static int floor_get_params256(OSSL_PARAM params[])
{
    return floor_get_params(params, 32);
}

static const OSSL_PARAM *floor_gettable_params(void *provctx)
{
    static const OSSL_PARAM t[] = {
        OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
        OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
        OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
        OSSL_PARAM_END,
    };
    return t;
}

static const OSSL_PARAM *floor_gettable_ctx_params(void *cctx, void *provctx)
{
    static const OSSL_PARAM t[] = {
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
        OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
        OSSL_PARAM_END,
    };
    return t;
}

static const OSSL_PARAM *floor_settable_ctx_params(void *cctx, void *provctx)
{
    static const OSSL_PARAM t[] = {
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
        OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
        OSSL_PARAM_END,
    };
    return t;
}

/* ---- AES-256-CBC ------------------------------------------------------- */

static void *floor_cbc_newctx(void *provctx)
{
    floor_ctx *c = floor_newctx(32);

    if (c != NULL)
        c->ivlen = 16;
    return c;
}

static int floor_cbc_init(void *vctx, const unsigned char *key, size_t keylen,
                          const unsigned char *iv, size_t ivlen,
                          const OSSL_PARAM params[], int enc)
{
    floor_ctx *c = vctx;

    c->enc = enc;
    c->buffered = 0;
    /* "padding" is the one parameter EVP may pass; accepted, unused. */
    return 1;
}

static int floor_cbc_einit(void *vctx, const unsigned char *key, size_t keylen,
                           const unsigned char *iv, size_t ivlen,
                           const OSSL_PARAM params[])
{
    return floor_cbc_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int floor_cbc_dinit(void *vctx, const unsigned char *key, size_t keylen,
                           const unsigned char *iv, size_t ivlen,
                           const OSSL_PARAM params[])
{
    return floor_cbc_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* Whole blocks out, the rest held back (encryption's lengths). */
static int floor_cbc_update(void *vctx, unsigned char *out, size_t *outl,
                            size_t outsize, const unsigned char *in, size_t inl)
{
    floor_ctx *c = vctx;
    size_t total = c->buffered + inl, n = total & ~(size_t)15;

    if (n != 0 && (out == NULL || outsize < n))
        return 0;
    c->buffered = total - n;
    *outl = n;
    return 1;
}

static int floor_cbc_final(void *vctx, unsigned char *out, size_t *outl,
                           size_t outsize)
{
    floor_ctx *c = vctx;

    c->buffered = 0;
    if (!c->enc) {
        *outl = 0;
        return 1;
    }
    if (out == NULL || outsize < 16)
        return 0;
    *outl = 16;
    return 1;
}

static int floor_cbc_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    floor_ctx *c = vctx;
    OSSL_PARAM *p;

    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, 16))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->keylen))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_PADDING);
    if (p != NULL && !OSSL_PARAM_set_uint(p, 1))
        return 0;
    return 1;
}

static int floor_cbc_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    return 1;
}

static int floor_cbc_get_params(OSSL_PARAM params[])
{
    OSSL_PARAM *p;

    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE);
    if (p != NULL && !OSSL_PARAM_set_uint(p, EVP_CIPH_CBC_MODE))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, 32))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, 16))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, 16))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD);
    if (p != NULL && !OSSL_PARAM_set_int(p, 0))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV);
    if (p != NULL && !OSSL_PARAM_set_int(p, 0))
        return 0;
    return 1;
}

static const OSSL_PARAM *floor_cbc_gettable_ctx_params(void *cctx,
                                                       void *provctx)
{
    static const OSSL_PARAM t[] = {
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
        OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
        OSSL_PARAM_END,
    };
    return t;
}

static const OSSL_PARAM *floor_cbc_settable_ctx_params(void *cctx,
                                                       void *provctx)
{
    static const OSSL_PARAM t[] = {
        OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
        OSSL_PARAM_END,
    };
    return t;
}

static const OSSL_DISPATCH floor_cbc256[] = {
    {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))floor_cbc_newctx},
    {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))floor_freectx},
    {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))floor_dupctx},
    {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))floor_cbc_einit},
    {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))floor_cbc_dinit},
    {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))floor_cbc_update},
    {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))floor_cbc_final},
    {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))floor_cbc_get_params},
    {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))floor_gettable_params},
    {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))floor_cbc_get_ctx_params},
    {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))floor_cbc_set_ctx_params},
    {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS,
     (void (*)(void))floor_cbc_gettable_ctx_params},
    {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS,
     (void (*)(void))floor_cbc_settable_ctx_params},
    {0, NULL}};

#define FLOOR_FUNCS(bits)                                                      \
    static const OSSL_DISPATCH floor_gcm##bits[] = {                           \
        {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))floor_newctx##bits},         \
        {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))floor_freectx},             \
        {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))floor_dupctx},               \
        {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))floor_einit},          \
        {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))floor_dinit},          \
        {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))floor_update},               \
        {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))floor_final},                 \
        {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))floor_get_params##bits}, \
        {OSSL_FUNC_CIPHER_GETTABLE_PARAMS,                                     \
         (void (*)(void))floor_gettable_params},                               \
        {OSSL_FUNC_CIPHER_GET_CTX_PARAMS,                                      \
         (void (*)(void))floor_get_ctx_params},                                \
        {OSSL_FUNC_CIPHER_SET_CTX_PARAMS,                                      \
         (void (*)(void))floor_set_ctx_params},                                \
        {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS,                                 \
         (void (*)(void))floor_gettable_ctx_params},                           \
        {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS,                                 \
         (void (*)(void))floor_settable_ctx_params},                           \
        {0, NULL}}

FLOOR_FUNCS(128);
FLOOR_FUNCS(256);

static const OSSL_ALGORITHM floor_ciphers[] = {
    {"AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6", "provider=fcfloor",
     floor_gcm128, "do-nothing AES-128-GCM (benchmark floor)"},
    {"AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46", "provider=fcfloor",
     floor_gcm256, "do-nothing AES-256-GCM (benchmark floor)"},
    {"AES-256-CBC:AES256:2.16.840.1.101.3.4.1.42", "provider=fcfloor",
     floor_cbc256, "do-nothing AES-256-CBC (benchmark floor)"},
    {NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM *floor_query(void *provctx, int id, int *no_store)
{
    *no_store = 0;
    return id == OSSL_OP_CIPHER ? floor_ciphers : NULL;
}

static const OSSL_DISPATCH floor_dispatch[] = {
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))floor_query},
    {0, NULL},
};

__attribute__((visibility("default"))) int
OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                   const OSSL_DISPATCH **out, void **provctx)
{
    *out = floor_dispatch;
    *provctx = (void *)handle;
    return 1;
}
