/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cipher_aes_ctr.c - AES-128/192/256-CTR for OpenSSL: a stream over the
 * AES table's counter mode (fc_aes_ctr128), on the non-AEAD base of
 * cipher_common.h.
 *
 * Behaviour matches OpenSSL's default provider: the IV is the first
 * counter block, a 128-bit big-endian number that goes up by one per block
 * and wraps from all-ones to zero (SP 800-38A B.1); encryption and
 * decryption are the same operation; update takes any length, a partial
 * block's keystream is kept and its unused bytes serve the next update
 * first ("num" is how many of them are used); final writes nothing; the
 * one-shot call (EVP_Cipher) is an update. "iv" is the IV as set,
 * "updated-iv" the counter of the next keystream block. An init resets
 * "num" to 0 (an unused partial keystream block is dropped); an init
 * without IV goes on from the counter, it does not restart from the IV.
 * in == out is allowed. Deliberate differences, where the default's result
 * is not meaningful: "num" takes 0..15, the offsets into the kept
 * keystream block (3.0.19's default takes any value and reads past its
 * block above 15; 3.0.22 and later take only 0); "tls-version" and
 * "tls-mac-size" are taken and stored but select nothing (no TLS suite
 * uses CTR; the default strips a MAC off decrypted data then), and
 * "tls-mac" reads as NULL; a "keylen" or "ivlen" other than the cipher's
 * is refused, as for CBC (cipher_common.h).
 */
#include <stdint.h>
#include <string.h>

#include <openssl/evp.h>

#include "fc/aes.h"
#include "cipher_common.h"
#include "fc_prov.h"

FC_DISPATCH(cipher, newctx, fc_aes128_ctr_newctx);
FC_DISPATCH(cipher, newctx, fc_aes192_ctr_newctx);
FC_DISPATCH(cipher, newctx, fc_aes256_ctr_newctx);
FC_DISPATCH(cipher, get_params, fc_aes128_ctr_get_params);
FC_DISPATCH(cipher, get_params, fc_aes192_ctr_get_params);
FC_DISPATCH(cipher, get_params, fc_aes256_ctr_get_params);
FC_DISPATCH(cipher, freectx, fc_aes_ctr_freectx);
FC_DISPATCH(cipher, dupctx, fc_aes_ctr_dupctx);
FC_DISPATCH(cipher, encrypt_init, fc_aes_ctr_einit);
FC_DISPATCH(cipher, decrypt_init, fc_aes_ctr_dinit);
FC_DISPATCH(cipher, update, fc_aes_ctr_update);
FC_DISPATCH(cipher, final, fc_aes_ctr_final);
FC_DISPATCH(cipher, cipher, fc_aes_ctr_cipher);

typedef struct fc_aes_ctr_ctx {
    fc_cipher_generic g;   /* first (fc_cipher_generic_ctx_*): key, IV and
                            * counter (g.iv), "num", the parameters */
    fc_aes_key ks;         /* encryption schedule of g.key */
    const fc_aes_ops *aes; /* kernels chosen at provider load */
    uint8_t ks_block[16];  /* keystream of the block g.num bytes into */
} fc_aes_ctr_ctx;

/* ------------------------------------------------------------------------ */
/* Context life cycle. */

static void *fc_aes_ctr_newctx(void *provctx, size_t keylen)
{
    fc_prov_ctx *prov = provctx;
    fc_aes_ctr_ctx *ctx = fc_cipher_ctx_new(prov, sizeof(*ctx));

    if (ctx == NULL)
        return NULL;
    ctx->aes = prov->aes;
    /* "num" indexes |ks_block|; an init without IV keeps the counter. */
    fc_cipher_generic_setup(&ctx->g, prov, keylen, FC_AES_BLOCK - 1, 0);
    return ctx;
}

/* What get_params reports (cipher_common.h): a stream, so block size 1. */
static const fc_cipher_info fc_aes_ctr_info = {
    .mode = EVP_CIPH_CTR_MODE, .ivlen = FC_AES_BLOCK, .blocksize = 1};

static void fc_aes_ctr_freectx(void *vctx)
{
    /* Schedule, raw key and the keystream block. */
    fc_cipher_ctx_free(vctx, sizeof(fc_aes_ctr_ctx));
}

static void *fc_aes_ctr_dupctx(void *vctx)
{
    fc_aes_ctr_ctx *src = vctx;

    /* No pointer into itself: a flat copy is a deep one. */
    return fc_cipher_ctx_dup(src->g.prov, src, sizeof(*src));
}

static int fc_aes_ctr_init(void *vctx, const unsigned char *key, size_t keylen,
                           const unsigned char *iv, size_t ivlen,
                           const OSSL_PARAM params[], int enc)
{
    fc_aes_ctr_ctx *ctx = vctx;

    if (!fc_cipher_generic_init(&ctx->g, key, keylen, iv, ivlen, enc))
        return 0;
    /* Both directions encrypt counter blocks. */
    if (key != NULL)
        ctx->aes->set_enc_key(&ctx->ks, ctx->g.key, ctx->g.keylen);
    return params == NULL || fc_cipher_generic_set_ctx_params(&ctx->g, params);
}

static int fc_aes_ctr_einit(void *vctx, const unsigned char *key, size_t keylen,
                            const unsigned char *iv, size_t ivlen,
                            const OSSL_PARAM params[])
{
    return fc_aes_ctr_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int fc_aes_ctr_dinit(void *vctx, const unsigned char *key, size_t keylen,
                            const unsigned char *iv, size_t ivlen,
                            const OSSL_PARAM params[])
{
    return fc_aes_ctr_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* ------------------------------------------------------------------------ */
/* Data path. */

/*
 * XORs |len| bytes of keystream into |in| to |out|: first what is left of
 * the keystream block g.num bytes in, then whole blocks through the
 * kernels, then the keystream of one more block, kept for its unused
 * bytes. The counter (g.iv) is the next block's throughout.
 */
static void fc_aes_ctr_stream(fc_aes_ctr_ctx *ctx, const uint8_t *in,
                              uint8_t *out, size_t len)
{
    unsigned int num = ctx->g.num;
    size_t full, rem;

    /* A stream cipher maps byte i to byte i: move, then work in place. */
    if (fc_partial_overlap(out, in, len)) {
        memmove(out, in, len);
        in = out;
    }
    while (num != 0 && len != 0) {
        *out++ = *in++ ^ ctx->ks_block[num];
        num = (num + 1) % FC_AES_BLOCK;
        len--;
    }
    full = len / FC_AES_BLOCK;
    rem = len % FC_AES_BLOCK;
    if (full != 0) {
        fc_aes_ctr128(ctx->aes, &ctx->ks, in, out, full, ctx->g.iv);
        in += FC_AES_BLOCK * full;
        out += FC_AES_BLOCK * full;
    }
    if (rem != 0) {
        memset(ctx->ks_block, 0, sizeof(ctx->ks_block));
        fc_aes_ctr128(ctx->aes, &ctx->ks, ctx->ks_block, ctx->ks_block, 1,
                      ctx->g.iv);
        for (size_t i = 0; i < rem; i++)
            out[i] = in[i] ^ ctx->ks_block[i];
        num = (unsigned int)rem;
    }
    ctx->g.num = num;
}

static int fc_aes_ctr_update(void *vctx, unsigned char *out, size_t *outl,
                             size_t outsize, const unsigned char *in,
                             size_t inl)
{
    fc_aes_ctr_ctx *ctx = vctx;

    if (!fc_cipher_generic_check_io(&ctx->g, out, outsize, in, inl))
        return 0;
    fc_aes_ctr_stream(ctx, in, out, inl);
    *outl = inl;
    return 1;
}

static int fc_aes_ctr_final(void *vctx, unsigned char *out, size_t *outl,
                            size_t outsize)
{
    fc_aes_ctr_ctx *ctx = vctx;

    if (!ctx->g.key_set) {
        FC_RAISE(ctx->g.prov, FC_R_NO_KEY_SET);
        return 0;
    }
    fc_stat_add(ctx->g.prov, ctx->g.enc ? FC_STAT_CTR_ENC : FC_STAT_CTR_DEC, 1);
    *outl = 0;
    return 1;
}

/* The one-shot call behind EVP_Cipher: the stream, as update has it. */
static int fc_aes_ctr_cipher(void *vctx, unsigned char *out, size_t *outl,
                             size_t outsize, const unsigned char *in,
                             size_t inl)
{
    fc_aes_ctr_ctx *ctx = vctx;

    if (!fc_cipher_generic_check_io(&ctx->g, out, outsize, in, inl))
        return 0;
    fc_stat_add(ctx->g.prov, ctx->g.enc ? FC_STAT_CTR_ENC : FC_STAT_CTR_DEC, 1);
    fc_aes_ctr_stream(ctx, in, out, inl);
    *outl = inl;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Dispatch tables (fc_prov.h): each cipher's table after the two entries
 * its key size makes its own. */

static void *fc_aes128_ctr_newctx(void *provctx)
{
    return fc_aes_ctr_newctx(provctx, 16);
}

static int fc_aes128_ctr_get_params(OSSL_PARAM params[])
{
    return fc_cipher_get_params(params, &fc_aes_ctr_info, 16);
}

const OSSL_DISPATCH fc_aes128ctr_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes128_ctr_newctx),
    FC_FN(CIPHER_FREECTX, fc_aes_ctr_freectx),
    FC_FN(CIPHER_DUPCTX, fc_aes_ctr_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_aes_ctr_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_aes_ctr_dinit),
    FC_FN(CIPHER_UPDATE, fc_aes_ctr_update),
    FC_FN(CIPHER_FINAL, fc_aes_ctr_final),
    FC_FN(CIPHER_CIPHER, fc_aes_ctr_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes128_ctr_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_cipher_generic_ctx_get),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_cipher_generic_ctx_set),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_cipher_generic_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_cipher_generic_settable_ctx_params),
    OSSL_DISPATCH_END,
};

static void *fc_aes192_ctr_newctx(void *provctx)
{
    return fc_aes_ctr_newctx(provctx, 24);
}

static int fc_aes192_ctr_get_params(OSSL_PARAM params[])
{
    return fc_cipher_get_params(params, &fc_aes_ctr_info, 24);
}

const OSSL_DISPATCH fc_aes192ctr_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes192_ctr_newctx),
    FC_FN(CIPHER_FREECTX, fc_aes_ctr_freectx),
    FC_FN(CIPHER_DUPCTX, fc_aes_ctr_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_aes_ctr_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_aes_ctr_dinit),
    FC_FN(CIPHER_UPDATE, fc_aes_ctr_update),
    FC_FN(CIPHER_FINAL, fc_aes_ctr_final),
    FC_FN(CIPHER_CIPHER, fc_aes_ctr_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes192_ctr_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_cipher_generic_ctx_get),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_cipher_generic_ctx_set),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_cipher_generic_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_cipher_generic_settable_ctx_params),
    OSSL_DISPATCH_END,
};

static void *fc_aes256_ctr_newctx(void *provctx)
{
    return fc_aes_ctr_newctx(provctx, 32);
}

static int fc_aes256_ctr_get_params(OSSL_PARAM params[])
{
    return fc_cipher_get_params(params, &fc_aes_ctr_info, 32);
}

const OSSL_DISPATCH fc_aes256ctr_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes256_ctr_newctx),
    FC_FN(CIPHER_FREECTX, fc_aes_ctr_freectx),
    FC_FN(CIPHER_DUPCTX, fc_aes_ctr_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_aes_ctr_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_aes_ctr_dinit),
    FC_FN(CIPHER_UPDATE, fc_aes_ctr_update),
    FC_FN(CIPHER_FINAL, fc_aes_ctr_final),
    FC_FN(CIPHER_CIPHER, fc_aes_ctr_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes256_ctr_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_cipher_generic_ctx_get),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_cipher_generic_ctx_set),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_cipher_generic_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_cipher_generic_settable_ctx_params),
    OSSL_DISPATCH_END,
};
