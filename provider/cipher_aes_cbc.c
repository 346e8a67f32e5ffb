/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cipher_aes_cbc.c - AES-128/192/256-CBC for OpenSSL: context life cycle,
 * streaming with PKCS#7 padding, the one-shot cipher call, parameters, and
 * the TLS record mode libssl drives for CBC suites.
 *
 * Behaviour matches OpenSSL's default provider: update buffers a partial
 * block and, decrypting with padding on, holds back the last whole block for
 * final to unpad; init without IV restarts from the IV last set, init without
 * key keeps the key; the one-shot call (EVP_Cipher) is raw CBC; with
 * "tls-version" > 0 each update is one whole TLS record, in place, padded on
 * encrypt and stripped of explicit IV, padding and MAC in constant time on
 * decrypt, the MAC going out through "tls-mac" (random on a bad padding).
 * Deliberate differences, where the default's result is not meaningful:
 * update handles in == out with a partly filled buffer correctly (the
 * default overwrites input it has not read yet), a direction change by an
 * init without key re-derives the schedule from the stored raw key, the
 * one-shot call refuses a partial block when decrypting (the default reads
 * past the input), and a "keylen" or "ivlen" other than the cipher's,
 * passed in parameters, is refused (the default ignores it, and EVP 3.5+
 * then records it and fails the next init), and a parameter array that is
 * refused changes nothing (the default applies what it read before the
 * bad one); a failed decrypt final wipes the block it held (the default
 * keeps it for the next update); "num", which CBC does not use, takes
 * 0..15 as the default's does from 3.2 on (3.0's takes any value). Only
 * the schedule for the direction in use is expanded.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>
#include <openssl/rand.h>

#include "fc/aes.h"
#include "fc/ct.h"
#include "fc/tls_cbc.h"
#include "cipher_common.h"
#include "fc_prov.h"

#define FC_CBC_IVLEN 16

enum { FC_KS_NONE = 0, FC_KS_ENC, FC_KS_DEC };

FC_DISPATCH(cipher, newctx, fc_aes128_cbc_newctx);
FC_DISPATCH(cipher, newctx, fc_aes192_cbc_newctx);
FC_DISPATCH(cipher, newctx, fc_aes256_cbc_newctx);
FC_DISPATCH(cipher, get_params, fc_aes128_cbc_get_params);
FC_DISPATCH(cipher, get_params, fc_aes192_cbc_get_params);
FC_DISPATCH(cipher, get_params, fc_aes256_cbc_get_params);
FC_DISPATCH(cipher, freectx, fc_aes_cbc_freectx);
FC_DISPATCH(cipher, dupctx, fc_aes_cbc_dupctx);
FC_DISPATCH(cipher, encrypt_init, fc_aes_cbc_einit);
FC_DISPATCH(cipher, decrypt_init, fc_aes_cbc_dinit);
FC_DISPATCH(cipher, update, fc_aes_cbc_update);
FC_DISPATCH(cipher, final, fc_aes_cbc_final);
FC_DISPATCH(cipher, cipher, fc_aes_cbc_cipher);
FC_DISPATCH(cipher, get_ctx_params, fc_aes_cbc_get_ctx_params);

typedef struct fc_aes_cbc_ctx {
    fc_cipher_generic g;   /* first (fc_cipher_generic_ctx_set): key, IVs,
                            * "num", "padding", TLS fields */
    fc_aes_key ks;         /* expanded from g.key for |ks_dir| */
    const fc_aes_ops *aes; /* kernels chosen at provider load */
    uint8_t buf[16];       /* partial or held-back block */
    uint8_t tlsmac[FC_TLS_CBC_MAX_MAC]; /* MAC of the last TLS record */
    size_t bufsz;
    uint8_t ks_dir, tlsmac_set;
} fc_aes_cbc_ctx;

/* ------------------------------------------------------------------------ */
/* Parameters: those of every non-AEAD cipher (cipher_common.h), and the
 * MAC of the last TLS record. */

static int fc_aes_cbc_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    fc_aes_cbc_ctx *ctx = vctx;

    /* "tls-mac" is valid until the next update; NULL before a MAC was
     * taken, or if "tls-mac-size" has since grown past our buffer. */
    return fc_cipher_generic_get_ctx_params(
        &ctx->g, params,
        ctx->tlsmac_set && ctx->g.tlsmacsize <= FC_TLS_CBC_MAX_MAC ? ctx->tlsmac
                                                                   : NULL);
}

/* ------------------------------------------------------------------------ */
/* Context life cycle. */

static void *fc_aes_cbc_newctx(void *provctx, size_t keylen)
{
    fc_prov_ctx *prov = provctx;
    fc_aes_cbc_ctx *ctx = fc_cipher_ctx_new(prov, sizeof(*ctx));

    if (ctx == NULL)
        return NULL;
    ctx->aes = prov->aes;
    /* "num" is stored and reported, unused by CBC. */
    fc_cipher_generic_setup(&ctx->g, prov, keylen, FC_AES_BLOCK - 1, 1);
    return ctx;
}

/* What get_params reports (cipher_common.h), with the key length of each
 * cipher. */
static const fc_cipher_info fc_aes_cbc_info = {.mode = EVP_CIPH_CBC_MODE,
                                               .ivlen = FC_CBC_IVLEN,
                                               .blocksize = FC_AES_BLOCK};

static void fc_aes_cbc_freectx(void *vctx)
{
    /* Schedule, raw key, buffered plaintext and the last TLS MAC. */
    fc_cipher_ctx_free(vctx, sizeof(fc_aes_cbc_ctx));
}

static void *fc_aes_cbc_dupctx(void *vctx)
{
    fc_aes_cbc_ctx *src = vctx;

    /* The context holds no pointer into itself, so a flat copy is a deep
     * one and survives the original being freed. */
    return fc_cipher_ctx_dup(src->g.prov, src, sizeof(*src));
}

/* Makes the schedule match the direction of the operation. */
static inline void fc_aes_cbc_sync_schedule(fc_aes_cbc_ctx *ctx)
{
    int want = ctx->g.enc ? FC_KS_ENC : FC_KS_DEC;

    if (FC_LIKELY(ctx->ks_dir == want))
        return;
    if (want == FC_KS_ENC)
        ctx->aes->set_enc_key(&ctx->ks, ctx->g.key, ctx->g.keylen);
    else
        ctx->aes->set_dec_key(&ctx->ks, ctx->g.key, ctx->g.keylen);
    ctx->ks_dir = (uint8_t)want;
}

static int fc_aes_cbc_init(void *vctx, const unsigned char *key, size_t keylen,
                           const unsigned char *iv, size_t ivlen,
                           const OSSL_PARAM params[], int enc)
{
    fc_aes_cbc_ctx *ctx = vctx;

    ctx->bufsz = 0;
    /* The IV and key lengths; an init without IV restarts the chain from
     * the IV last set. */
    if (!fc_cipher_generic_init(&ctx->g, key, keylen, iv, ivlen, enc))
        return 0;
    if (key != NULL) {
        ctx->ks_dir = FC_KS_NONE;
        fc_aes_cbc_sync_schedule(ctx);
    }
    /* Without a key the schedule follows the direction at first use. */
    return params == NULL || fc_cipher_generic_set_ctx_params(&ctx->g, params);
}

static int fc_aes_cbc_einit(void *vctx, const unsigned char *key, size_t keylen,
                            const unsigned char *iv, size_t ivlen,
                            const OSSL_PARAM params[])
{
    return fc_aes_cbc_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int fc_aes_cbc_dinit(void *vctx, const unsigned char *key, size_t keylen,
                            const unsigned char *iv, size_t ivlen,
                            const OSSL_PARAM params[])
{
    return fc_aes_cbc_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* ------------------------------------------------------------------------ */
/* Data path. */

static inline void fc_aes_cbc_blocks(fc_aes_cbc_ctx *ctx, const uint8_t *in,
                                     uint8_t *out, size_t blocks)
{
    if (ctx->g.enc)
        ctx->aes->cbc_enc(&ctx->ks, in, out, blocks, ctx->g.iv);
    else
        ctx->aes->cbc_dec(&ctx->ks, in, out, blocks, ctx->g.iv);
}

/*
 * Removes explicit IV, padding and MAC from the decrypted record |rec| of
 * |len| bytes (a multiple of 16) and sets |*outl| to the payload length.
 * Fails only on publicly invalid records, and on a bad padding when there is
 * no MAC to fail instead (encrypt-then-MAC checked the record already).
 */
static int fc_aes_cbc_tls_unpad(fc_aes_cbc_ctx *ctx, uint8_t *rec, size_t len,
                                size_t *outl)
{
    uint8_t randmac[FC_TLS_CBC_MAX_MAC];
    size_t mac_size = ctx->g.tlsmacsize, unpadded;
    uint64_t good;
    int sslv3 = 0;

    switch (ctx->g.tlsversion) {
    case SSL3_VERSION:
        sslv3 = 1;
        break;
    case TLS1_VERSION:
        break;
    case TLS1_1_VERSION:
    case TLS1_2_VERSION:
    case DTLS1_VERSION:
    case DTLS1_2_VERSION:
    case DTLS1_BAD_VER:
        /* The first block is the explicit IV (RFC 4346 6.2.3.2). */
        if (len < FC_AES_BLOCK)
            goto invalid;
        rec += FC_AES_BLOCK;
        len -= FC_AES_BLOCK;
        break;
    default:
        goto invalid;
    }
    /* Lengths are public: room for the MAC and the length byte. */
    if (mac_size > FC_TLS_CBC_MAX_MAC || len < mac_size + 1)
        goto invalid;

    good = sslv3 ? fc_ssl3_cbc_unpad(rec, len, mac_size, &unpadded)
                 : fc_tls_cbc_unpad(rec, len, mac_size, &unpadded);
    if (mac_size == 0) {
        /* Encrypt-then-MAC: the record was authenticated before we saw it,
         * so the padding check is no oracle and its result may branch. */
        FC_CT_PUBLIC(&good, sizeof(good));
        if (!good) {
            FC_RAISE(ctx->g.prov, FC_R_BAD_DECRYPT);
            return 0;
        }
        *outl = unpadded;
        FC_CT_PUBLIC(outl, sizeof(*outl));
        return 1;
    }

    /* Drawn whether or not the padding is good: which one we output must
     * not show in the timing. */
    if (RAND_bytes_ex(ctx->g.prov->libctx, randmac, mac_size, 0) <= 0) {
        FC_RAISE(ctx->g.prov, FC_R_RANDOM_FAILURE);
        return 0;
    }
    fc_tls_cbc_copy_mac(ctx->tlsmac, mac_size, rec, len, unpadded, good,
                        randmac);
    ctx->tlsmac_set = 1;
    /* The payload length goes to libssl, which keeps handling it in
     * constant time (its MAC check); here it stops being our secret. */
    *outl = unpadded - mac_size;
    FC_CT_PUBLIC(outl, sizeof(*outl));
    return 1;

invalid:
    FC_RAISE_DATA(ctx->g.prov, FC_R_TLS_RECORD_INVALID,
                  "tls-version=0x%x, length=%zu, mac=%zu", ctx->g.tlsversion,
                  len, mac_size);
    return 0;
}

/* One update in TLS record mode: |in| == |out| holds one whole record. */
static int fc_aes_cbc_tls_record(fc_aes_cbc_ctx *ctx, uint8_t *out,
                                 size_t *outl, size_t outsize,
                                 const uint8_t *in, size_t inl)
{
    if (in == NULL || in != out || outsize < inl || !ctx->g.pad) {
        FC_RAISE_DATA(ctx->g.prov, FC_R_TLS_RECORD_INVALID,
                      "record mode needs in == out and padding on");
        return 0;
    }
    if (inl > SIZE_MAX - 2 * FC_AES_BLOCK) {
        FC_RAISE(ctx->g.prov, FC_R_INPUT_TOO_LONG);
        return 0;
    }
    fc_aes_cbc_sync_schedule(ctx);
    fc_stat_add(ctx->g.prov, FC_STAT_CBC_TLS, 1);
    ctx->tlsmac_set = 0;

    if (ctx->g.enc) {
        size_t len;

        /* libssl sizes the buffer for up to one block of padding. */
        if (outsize < inl + FC_AES_BLOCK - inl % FC_AES_BLOCK) {
            FC_RAISE(ctx->g.prov, FC_R_OUTPUT_TOO_SMALL);
            return 0;
        }
        len = fc_tls_cbc_pad(out, inl, ctx->g.tlsversion == SSL3_VERSION);
        /* For TLS 1.1+ libssl put a random block first: it is encrypted
         * like the rest and becomes the explicit IV. */
        ctx->aes->cbc_enc(&ctx->ks, out, out, len / FC_AES_BLOCK, ctx->g.iv);
        *outl = len;
        return 1;
    }

    if (inl % FC_AES_BLOCK != 0) {
        FC_RAISE_DATA(ctx->g.prov, FC_R_TLS_RECORD_INVALID,
                      "length %zu is not a whole number of blocks", inl);
        return 0;
    }
    /* The chaining value carries over: a TLS 1.0 record's IV is the last
     * ciphertext block of the record before. */
    ctx->aes->cbc_dec(&ctx->ks, out, out, inl / FC_AES_BLOCK, ctx->g.iv);
    return fc_aes_cbc_tls_unpad(ctx, out, inl, outl);
}

static int fc_aes_cbc_update(void *vctx, unsigned char *out, size_t *outl,
                             size_t outsize, const unsigned char *in,
                             size_t inl)
{
    fc_aes_cbc_ctx *ctx = vctx;
    uint8_t blk[FC_AES_BLOCK];
    size_t bulk, tail, outlen;
    int flush;

    if (!ctx->g.key_set) {
        FC_RAISE(ctx->g.prov, FC_R_NO_KEY_SET);
        return 0;
    }
    if (ctx->g.tlsversion > 0)
        return fc_aes_cbc_tls_record(ctx, out, outl, outsize, in, inl);
    if (in == NULL && inl != 0) {
        FC_RAISE(ctx->g.prov, FC_R_NULL_ARGUMENT);
        return 0;
    }
    if (inl > SIZE_MAX - 2 * FC_AES_BLOCK) {
        FC_RAISE(ctx->g.prov, FC_R_INPUT_TOO_LONG);
        return 0;
    }

    /* Complete a partly filled buffer first. */
    if (ctx->bufsz != 0 && inl != 0) {
        size_t take = FC_AES_BLOCK - ctx->bufsz;

        if (take > inl)
            take = inl;
        memcpy(ctx->buf + ctx->bufsz, in, take);
        ctx->bufsz += take;
        in += take;
        inl -= take;
    }
    bulk = inl & ~(size_t)(FC_AES_BLOCK - 1);
    /* A full buffer goes out unless we decrypt with padding and this update
     * ends exactly there: then it may be the padded last block, for final. */
    flush =
        ctx->bufsz == FC_AES_BLOCK && (ctx->g.enc || inl > 0 || !ctx->g.pad);
    /* For the same reason hold back the last block of input that ends on a
     * block boundary. */
    if (bulk != 0 && bulk == inl && !ctx->g.enc && ctx->g.pad)
        bulk -= FC_AES_BLOCK;
    tail = inl - bulk;
    outlen = (flush ? FC_AES_BLOCK : 0) + bulk;
    if (outsize < outlen) {
        FC_RAISE_DATA(ctx->g.prov, FC_R_OUTPUT_TOO_SMALL, "need %zu, have %zu",
                      outlen, outsize);
        return 0;
    }
    if (outlen != 0 && out == NULL) {
        FC_RAISE(ctx->g.prov, FC_R_NULL_ARGUMENT);
        return 0;
    }
    fc_aes_cbc_sync_schedule(ctx);

    if (flush) {
        fc_aes_cbc_blocks(ctx, ctx->buf, blk, 1);
        ctx->bufsz = 0;
    }
    /* With in == out, the output runs ahead of the input by the bytes that
     * completed the buffer: save the tail before any output is written. */
    if (tail != 0) {
        memcpy(ctx->buf + ctx->bufsz, in + bulk, tail);
        ctx->bufsz += tail;
    }
    if (bulk != 0) {
        uint8_t *dst = out + (flush ? FC_AES_BLOCK : 0);

        if (fc_partial_overlap(dst, in, bulk)) {
            memmove(dst, in, bulk);
            in = dst;
        }
        fc_aes_cbc_blocks(ctx, in, dst, bulk / FC_AES_BLOCK);
    }
    if (flush) {
        memcpy(out, blk, FC_AES_BLOCK);
        fc_memzero(blk, sizeof(blk));
    }
    *outl = outlen;
    return 1;
}

static int fc_aes_cbc_final(void *vctx, unsigned char *out, size_t *outl,
                            size_t outsize)
{
    fc_aes_cbc_ctx *ctx = vctx;
    uint64_t good;
    size_t n;

    if (!ctx->g.key_set) {
        FC_RAISE(ctx->g.prov, FC_R_NO_KEY_SET);
        return 0;
    }
    if (ctx->g.tlsversion > 0) {
        FC_RAISE(ctx->g.prov, FC_R_TLS_MODE_FINAL);
        return 0;
    }
    fc_aes_cbc_sync_schedule(ctx);
    fc_stat_add(ctx->g.prov, ctx->g.enc ? FC_STAT_CBC_ENC : FC_STAT_CBC_DEC, 1);

    if (ctx->g.enc) {
        if (ctx->g.pad) {
            /* PKCS#7: 1..16 bytes, each holding the count. */
            memset(ctx->buf + ctx->bufsz, (int)(FC_AES_BLOCK - ctx->bufsz),
                   FC_AES_BLOCK - ctx->bufsz);
        } else if (ctx->bufsz == 0) {
            *outl = 0;
            return 1;
        } else if (ctx->bufsz != FC_AES_BLOCK) {
            FC_RAISE_DATA(ctx->g.prov, FC_R_WRONG_FINAL_BLOCK_LENGTH,
                          "%zu bytes left with padding off", ctx->bufsz);
            return 0;
        }
        if (outsize < FC_AES_BLOCK || out == NULL) {
            FC_RAISE(ctx->g.prov, FC_R_OUTPUT_TOO_SMALL);
            return 0;
        }
        fc_aes_cbc_blocks(ctx, ctx->buf, out, 1);
        fc_memzero(ctx->buf, sizeof(ctx->buf));
        ctx->bufsz = 0;
        *outl = FC_AES_BLOCK;
        return 1;
    }

    if (ctx->bufsz != FC_AES_BLOCK) {
        if (ctx->bufsz == 0 && !ctx->g.pad) {
            *outl = 0;
            return 1;
        }
        FC_RAISE_DATA(ctx->g.prov, FC_R_WRONG_FINAL_BLOCK_LENGTH,
                      "%zu bytes left", ctx->bufsz);
        return 0;
    }
    fc_aes_cbc_blocks(ctx, ctx->buf, ctx->buf, 1);
    ctx->bufsz = 0;
    n = FC_AES_BLOCK;
    if (ctx->g.pad) {
        good = fc_cbc_pkcs7_check(ctx->buf, &n);
        /* Success or failure is reported to the caller either way. */
        FC_CT_PUBLIC(&good, sizeof(good));
        FC_CT_PUBLIC(&n, sizeof(n));
        if (!good) {
            fc_memzero(ctx->buf, sizeof(ctx->buf));
            FC_RAISE(ctx->g.prov, FC_R_BAD_DECRYPT);
            return 0;
        }
    }
    if (outsize < n || (n != 0 && out == NULL)) {
        fc_memzero(ctx->buf, sizeof(ctx->buf));
        FC_RAISE(ctx->g.prov, FC_R_OUTPUT_TOO_SMALL);
        return 0;
    }
    memcpy(out, ctx->buf, n);
    fc_memzero(ctx->buf, sizeof(ctx->buf));
    *outl = n;
    return 1;
}

/*
 * The one-shot call behind EVP_Cipher: raw CBC over |inl| bytes, no padding,
 * no buffering, TLS mode ignored. A trailing partial block is encrypted as if
 * zero-padded (the output block is written in full when |outsize| allows),
 * as the default provider's kernels do; decrypting one is refused.
 */
static int fc_aes_cbc_cipher(void *vctx, unsigned char *out, size_t *outl,
                             size_t outsize, const unsigned char *in,
                             size_t inl)
{
    fc_aes_cbc_ctx *ctx = vctx;
    size_t bulk = inl & ~(size_t)(FC_AES_BLOCK - 1), tail = inl - bulk;
    uint8_t blk[FC_AES_BLOCK] = {0};

    if (!fc_cipher_generic_check_io(&ctx->g, out, outsize, in, inl))
        return 0;
    if (tail != 0 && !ctx->g.enc) {
        FC_RAISE_DATA(ctx->g.prov, FC_R_WRONG_FINAL_BLOCK_LENGTH,
                      "cannot decrypt a partial block");
        return 0;
    }
    fc_aes_cbc_sync_schedule(ctx);
    fc_stat_add(ctx->g.prov, ctx->g.enc ? FC_STAT_CBC_ENC : FC_STAT_CBC_DEC, 1);

    /* Take the tail first: moving an overlapping bulk may overwrite it. */
    if (tail != 0)
        memcpy(blk, in + bulk, tail);
    if (bulk != 0) {
        if (fc_partial_overlap(out, in, bulk)) {
            memmove(out, in, bulk);
            in = out;
        }
        fc_aes_cbc_blocks(ctx, in, out, bulk / FC_AES_BLOCK);
    }
    if (tail != 0) {
        size_t room = outsize - bulk;

        fc_aes_cbc_blocks(ctx, blk, blk, 1);
        memcpy(out + bulk, blk, room < FC_AES_BLOCK ? room : FC_AES_BLOCK);
    }
    *outl = inl;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Dispatch tables (fc_prov.h): each cipher's table after the two entries
 * its key size makes its own. */

static void *fc_aes128_cbc_newctx(void *provctx)
{
    return fc_aes_cbc_newctx(provctx, 16);
}

static int fc_aes128_cbc_get_params(OSSL_PARAM params[])
{
    return fc_cipher_get_params(params, &fc_aes_cbc_info, 16);
}

const OSSL_DISPATCH fc_aes128cbc_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes128_cbc_newctx),
    FC_FN(CIPHER_FREECTX, fc_aes_cbc_freectx),
    FC_FN(CIPHER_DUPCTX, fc_aes_cbc_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_aes_cbc_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_aes_cbc_dinit),
    FC_FN(CIPHER_UPDATE, fc_aes_cbc_update),
    FC_FN(CIPHER_FINAL, fc_aes_cbc_final),
    FC_FN(CIPHER_CIPHER, fc_aes_cbc_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes128_cbc_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_aes_cbc_get_ctx_params),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_cipher_generic_ctx_set),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_cipher_generic_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_cipher_generic_settable_ctx_params),
    OSSL_DISPATCH_END,
};

static void *fc_aes192_cbc_newctx(void *provctx)
{
    return fc_aes_cbc_newctx(provctx, 24);
}

static int fc_aes192_cbc_get_params(OSSL_PARAM params[])
{
    return fc_cipher_get_params(params, &fc_aes_cbc_info, 24);
}

const OSSL_DISPATCH fc_aes192cbc_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes192_cbc_newctx),
    FC_FN(CIPHER_FREECTX, fc_aes_cbc_freectx),
    FC_FN(CIPHER_DUPCTX, fc_aes_cbc_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_aes_cbc_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_aes_cbc_dinit),
    FC_FN(CIPHER_UPDATE, fc_aes_cbc_update),
    FC_FN(CIPHER_FINAL, fc_aes_cbc_final),
    FC_FN(CIPHER_CIPHER, fc_aes_cbc_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes192_cbc_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_aes_cbc_get_ctx_params),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_cipher_generic_ctx_set),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_cipher_generic_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_cipher_generic_settable_ctx_params),
    OSSL_DISPATCH_END,
};

static void *fc_aes256_cbc_newctx(void *provctx)
{
    return fc_aes_cbc_newctx(provctx, 32);
}

static int fc_aes256_cbc_get_params(OSSL_PARAM params[])
{
    return fc_cipher_get_params(params, &fc_aes_cbc_info, 32);
}

const OSSL_DISPATCH fc_aes256cbc_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes256_cbc_newctx),
    FC_FN(CIPHER_FREECTX, fc_aes_cbc_freectx),
    FC_FN(CIPHER_DUPCTX, fc_aes_cbc_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_aes_cbc_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_aes_cbc_dinit),
    FC_FN(CIPHER_UPDATE, fc_aes_cbc_update),
    FC_FN(CIPHER_FINAL, fc_aes_cbc_final),
    FC_FN(CIPHER_CIPHER, fc_aes_cbc_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes256_cbc_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_aes_cbc_get_ctx_params),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_cipher_generic_ctx_set),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_cipher_generic_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_cipher_generic_settable_ctx_params),
    OSSL_DISPATCH_END,
};
