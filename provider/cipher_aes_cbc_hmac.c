/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cipher_aes_cbc_hmac.c - AES-128/256-CBC-HMAC-SHA1 and -SHA256 for
 * OpenSSL: the combined ciphers libssl fetches for TLS 1.0-1.2 CBC suites
 * when encrypt-then-MAC is not negotiated, and which then replace both its
 * AES-CBC cipher and its HMAC. The record work is in core/cbc_hmac.c.
 *
 * What libssl drives (ssl/t1_enc.c, ssl/record/ssl3_record.c tls1_enc):
 * init with key and IV, "mackey" with the MAC secret, "tls-version" (and
 * "tls-mac-size" = 0: the cipher is an AEAD to libssl, so it does not MAC
 * itself); then per record "tlsaad" with the 13-byte header and a get of
 * "tlsaadpad", then one update over the record in place.
 *   Encrypt: the header's length is the payload's plus the explicit IV
 *   block for TLS 1.1+ (libssl filled that block with random bytes);
 *   "tlsaadpad" is what the MAC and padding add to the payload, libssl
 *   grows the record by it and passes the whole record; the update MACs,
 *   pads and encrypts it and returns its length.
 *   Decrypt: "tlsaadpad" is the MAC length (unused by libssl); the update
 *   decrypts, checks padding and MAC in constant time and returns the
 *   payload length (0 and an error on any failure; which one does not
 *   show), the payload following the explicit IV. The explicit-IV block
 *   itself is left as it was by the SHA-1 ciphers and decrypted in place
 *   by the SHA-256 ones, as the default's do (OpenSSL's evp_test checks
 *   that block for SHA-256).
 * Without a "tlsaad" before it an update is plain CBC over whole blocks,
 * no padding, while the plaintext is hashed into a running state that is
 * never output, as OpenSSL's stitched ciphers do (so that `openssl speed`
 * times the same work on both). Final outputs nothing.
 *
 * Behaviour matches the default provider's (which offers these ciphers on
 * AES-NI CPUs), byte for byte in every output. Deliberate differences:
 * "tls-multi" is reported 0, so libssl never asks for the multi-block
 * write path (it does so only for the default's own stitched ciphers on
 * x86-64); "tlsaad" does not write the adjusted length back into the
 * caller's buffer; the decrypt length follows the record's own version
 * (the default subtracts 16 again every time "tls-version" is set to TLS
 * 1.0, and its explicit-IV accounting then disagrees with the record); a
 * decrypt update in TLS mode without a "tlsaad" is refused (the default
 * strips unchecked padding); a failed record is wiped; a direction change
 * by an init without key re-derives the schedule from the stored raw key;
 * a "keylen" or "ivlen" other than the cipher's is refused (cipher_common.h);
 * a record refused for its length, or a TLS-mode decryption refused for
 * want of a header, leaves the chaining value as it was (the default's
 * SHA-256 ciphers decrypt such a record first, and the default decrypts
 * before it strips); "tls-version" TLS 1.0 can be
 * set any number of times (the default's fails before a key and the second
 * time).
 *
 * The record state. A "tlsaad" arms the next non-empty update (or the next
 * one-shot call, even an empty one) as one record in the direction the
 * context had when the header was set; that call spends it, whatever
 * becomes of it. An init with a key disarms it. After an init without key
 * that turned the direction, the armed header makes the next update fail
 * (the default takes a decryption's header for a record to seal, and an
 * encryption's for a record to open, and the second indexes past its
 * 13-byte header). A refused "tlsaad" keeps nothing of the header and
 * makes the next update fail, as the default's does (whose own refused
 * header can make the next update run off its buffers; test_cipher_states
 * names those sequences). Every length the record path subtracts is
 * checked before, and fc_cbc_hmac_seal checks its own preconditions.
 */
#include <stdint.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>

#include "fc/cbc_hmac.h"
#include "fc/ct.h"
#include "cipher_common.h"
#include "fc_prov.h"

#define FC_CH_IVLEN 16

enum { FC_KS_NONE = 0, FC_KS_ENC, FC_KS_DEC };

/*
 * The record state: what the next update does with the header "tlsaad"
 * left. A header is for one update in the direction it was set for; a
 * refused header is remembered as such, so that the update meant to
 * follow it fails instead of running as plain CBC.
 */
enum {
    FC_REC_NONE = 0, /* no header: the next update is plain CBC */
    FC_REC_ENC,      /* a header for one record to seal */
    FC_REC_DEC,      /* a header for one record to open */
    FC_REC_REFUSED,  /* the last "tlsaad" was refused */
};

FC_DISPATCH(cipher, newctx, fc_aes128_cbc_hmac_sha1_newctx);
FC_DISPATCH(cipher, newctx, fc_aes256_cbc_hmac_sha1_newctx);
FC_DISPATCH(cipher, newctx, fc_aes128_cbc_hmac_sha256_newctx);
FC_DISPATCH(cipher, newctx, fc_aes256_cbc_hmac_sha256_newctx);
FC_DISPATCH(cipher, get_params, fc_aes128_cbc_hmac_get_params);
FC_DISPATCH(cipher, get_params, fc_aes256_cbc_hmac_get_params);
FC_DISPATCH(cipher, freectx, fc_cbc_hmac_freectx);
FC_DISPATCH(cipher, dupctx, fc_cbc_hmac_dupctx);
FC_DISPATCH(cipher, encrypt_init, fc_cbc_hmac_einit);
FC_DISPATCH(cipher, decrypt_init, fc_cbc_hmac_dinit);
FC_DISPATCH(cipher, update, fc_cbc_hmac_update);
FC_DISPATCH(cipher, final, fc_cbc_hmac_final);
FC_DISPATCH(cipher, cipher, fc_cbc_hmac_cipher);
FC_DISPATCH(cipher, get_ctx_params, fc_cbc_hmac_get_ctx_params);
FC_DISPATCH(cipher, set_ctx_params, fc_cbc_hmac_set_ctx_params);
FC_DISPATCH(cipher, gettable_ctx_params, fc_cbc_hmac_gettable_ctx_params);
FC_DISPATCH(cipher, settable_ctx_params, fc_cbc_hmac_settable_ctx_params);

typedef struct fc_cbc_hmac_ctx {
    fc_cbc_hmac_key k; /* schedule for |ks_dir|, MAC key, kernels */
    fc_sha_state md;   /* the non-TLS mode's running hash */
    fc_prov_ctx *prov;
    uint8_t key[32]; /* raw key: re-expanded on a direction change */
    uint8_t iv[16];  /* chaining value ("updated-iv") */
    uint8_t oiv[16]; /* IV as last set ("iv") */
    uint8_t aad[FC_TLS_HDR_LEN]; /* the next record's header */
    size_t keylen;               /* fixed by the cipher: 16 or 32 */
    size_t aadpad;               /* "tlsaadpad" */
    size_t reclen;               /* encrypt: the header's length field */
    unsigned int tlsversion;     /* "tls-version" */
    uint8_t enc, key_set, iv_set, ks_dir;
    uint8_t rec; /* FC_REC_*: the header the next update takes */
    uint8_t eiv; /* that record has an explicit IV (16) */
} fc_cbc_hmac_ctx;

/* ------------------------------------------------------------------------ */
/* Parameters (decoded by fc_params_find, cipher_common.h). */

/* Lookup order: what libssl asks per record, then what EVP asks around
 * every init. */
static const uint8_t fc_ch_get_ids[] = {
    FC_CP_TLS_AAD_PAD, FC_CP_IVLEN, FC_CP_KEYLEN, FC_CP_UPDATED_IV, FC_CP_IV,
};
static const fc_param_table fc_ch_get_table = FC_PARAM_TABLE(fc_ch_get_ids);

static const uint8_t fc_ch_set_ids[] = {
    FC_CP_TLS_AAD, FC_CP_MAC_KEY, FC_CP_TLS_VERSION, FC_CP_KEYLEN, FC_CP_IVLEN,
};
static const fc_param_table fc_ch_set_table = FC_PARAM_TABLE(fc_ch_set_ids);

static const OSSL_PARAM fc_cbc_hmac_known_gettable_ctx_params[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_END,
};

/* As the default provider's list, plus "tls-version" which both take.
 * "tls-mac-size" and "padding" are accepted and ignored, as there. */
static const OSSL_PARAM fc_cbc_hmac_known_settable_ctx_params[] = {
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_MAC_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_TLS_VERSION, NULL),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *fc_cbc_hmac_gettable_ctx_params(void *cctx,
                                                         void *provctx)
{
    return fc_cbc_hmac_known_gettable_ctx_params;
}

static const OSSL_PARAM *fc_cbc_hmac_settable_ctx_params(void *cctx,
                                                         void *provctx)
{
    return fc_cbc_hmac_known_settable_ctx_params;
}

static int fc_cbc_hmac_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    fc_cbc_hmac_ctx *ctx = vctx;
    fc_params f;
    OSSL_PARAM *p;

    if (fc_params_find(&fc_ch_get_table, params, &f) == 0)
        return 1;
    /* All reads: the order does not matter. */
    if ((p = fc_param(&f, FC_CP_TLS_AAD_PAD)) != NULL &&
        !fc_cipher_set_size(ctx->prov, p, ctx->aadpad))
        return 0;
    if ((p = fc_param(&f, FC_CP_IVLEN)) != NULL &&
        !fc_cipher_set_size(ctx->prov, p, FC_CH_IVLEN))
        return 0;
    if ((p = fc_param(&f, FC_CP_KEYLEN)) != NULL &&
        !fc_cipher_set_size(ctx->prov, p, ctx->keylen))
        return 0;
    /* "iv" is the IV as last set, "updated-iv" the chaining value. */
    if ((p = fc_param(&f, FC_CP_IV)) != NULL &&
        !fc_cipher_get_iv(ctx->prov, p, ctx->oiv, FC_CH_IVLEN, 0))
        return 0;
    if ((p = fc_param(&f, FC_CP_UPDATED_IV)) != NULL &&
        !fc_cipher_get_iv(ctx->prov, p, ctx->iv, FC_CH_IVLEN, 0))
        return 0;
    return 1;
}

/*
 * Takes the 13-byte record header of the next update (|p|, checked to be
 * an octet string of that length), for the direction the context has now.
 * Encrypting, the length field counts the explicit IV block for TLS 1.1+;
 * the MAC covers the payload's length, and "tlsaadpad" becomes what MAC
 * and padding add to the payload. Decrypting, the length field is replaced
 * by the payload's once it is known. A header a record cannot have is
 * refused (0, an error raised): nothing of it is kept, and the next update
 * fails, as the default's does.
 */
static int fc_cbc_hmac_set_aad(fc_cbc_hmac_ctx *ctx, const OSSL_PARAM *p)
{
    const uint8_t *h = p->data;
    const size_t dlen = ctx->k.hash.len;
    unsigned int version = (unsigned int)h[9] << 8 | h[10];
    size_t len = (size_t)h[11] << 8 | h[12];
    /* TLS 1.1 and later (and DTLS, whose versions compare higher) carry
     * an explicit IV block (RFC 4346 6.2.3.2). */
    const uint8_t eiv = version >= TLS1_1_VERSION ? 16 : 0;

    if (ctx->enc && len < eiv) {
        ctx->rec = FC_REC_REFUSED;
        FC_RAISE_DATA(ctx->prov, FC_R_INVALID_TLS_AAD,
                      "length %zu leaves no room for the explicit IV", len);
        return 0;
    }
    memcpy(ctx->aad, h, FC_TLS_HDR_LEN);
    ctx->eiv = eiv;
    if (ctx->enc) {
        ctx->reclen = len;
        len -= eiv;
        ctx->aad[11] = (uint8_t)(len >> 8);
        ctx->aad[12] = (uint8_t)len;
        ctx->aadpad = fc_cbc_hmac_sealed_len(0, len, dlen) - len;
        ctx->rec = FC_REC_ENC;
    } else {
        ctx->aadpad = dlen;
        ctx->rec = FC_REC_DEC;
    }
    return 1;
}

static int fc_cbc_hmac_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    fc_cbc_hmac_ctx *ctx = vctx;
    fc_params f;
    const OSSL_PARAM *p, *mackey, *aad;
    unsigned int version = ctx->tlsversion;
    size_t v;

    if (fc_params_find(&fc_ch_set_table, params, &f) == 0)
        return 1;
    /* Everything is read and checked first and applied at the end, so a
     * refused array changes nothing. The lengths are the cipher's own
     * (cipher_common.h). */
    if ((p = fc_param(&f, FC_CP_KEYLEN)) != NULL &&
        !fc_cipher_check_keylen_param(ctx->prov, p, ctx->keylen))
        return 0;
    if ((p = fc_param(&f, FC_CP_IVLEN)) != NULL &&
        !fc_cipher_get_ivlen_param(ctx->prov, p, &v, FC_CH_IVLEN, FC_CH_IVLEN))
        return 0;
    if ((mackey = fc_param(&f, FC_CP_MAC_KEY)) != NULL &&
        mackey->data_type != OSSL_PARAM_OCTET_STRING)
        return fc_cipher_bad_param(ctx->prov, mackey, "set");
    if ((aad = fc_param(&f, FC_CP_TLS_AAD)) != NULL &&
        (aad->data_type != OSSL_PARAM_OCTET_STRING ||
         aad->data_size != FC_TLS_HDR_LEN)) {
        FC_RAISE_DATA(ctx->prov, FC_R_INVALID_TLS_AAD,
                      "a TLS record header has %d bytes, not %zu",
                      FC_TLS_HDR_LEN, aad->data_size);
        return 0;
    }
    /* libssl passes an int; the conversion accepts it when >= 0. */
    if ((p = fc_param(&f, FC_CP_TLS_VERSION)) != NULL &&
        !OSSL_PARAM_get_uint(p, &version))
        return fc_cipher_bad_param(ctx->prov, p, "set");

    /* The MAC key before the header: the default applies them in this
     * order, whatever order the array has. */
    if (mackey != NULL)
        fc_cbc_hmac_set_mac_key(&ctx->k, mackey->data, mackey->data_size);
    if (aad != NULL && !fc_cbc_hmac_set_aad(ctx, aad))
        return 0;
    ctx->tlsversion = version;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Context life cycle. */

static void *fc_cbc_hmac_newctx(void *provctx, size_t keylen, fc_sha_alg alg)
{
    fc_prov_ctx *prov = provctx;
    fc_cbc_hmac_ctx *ctx = fc_cipher_ctx_new(prov, sizeof(*ctx));

    if (ctx == NULL)
        return NULL;
    ctx->prov = prov;
    ctx->keylen = keylen;
    fc_cbc_hmac_init(&ctx->k, prov->aes, prov->sha, prov->cbc_sha, alg);
    fc_sha_init(&ctx->k.hash, &ctx->md);
    return ctx;
}

static void *fc_aes128_cbc_hmac_sha1_newctx(void *provctx)
{
    return fc_cbc_hmac_newctx(provctx, 16, FC_SHA1);
}

static void *fc_aes256_cbc_hmac_sha1_newctx(void *provctx)
{
    return fc_cbc_hmac_newctx(provctx, 32, FC_SHA1);
}

static void *fc_aes128_cbc_hmac_sha256_newctx(void *provctx)
{
    return fc_cbc_hmac_newctx(provctx, 16, FC_SHA256);
}

static void *fc_aes256_cbc_hmac_sha256_newctx(void *provctx)
{
    return fc_cbc_hmac_newctx(provctx, 32, FC_SHA256);
}

/* What get_params reports (cipher_common.h), with the key length of each
 * cipher: an AEAD to libssl (it then leaves the MAC to us); "tls-multi" 0.
 * The digest does not show. */
static const fc_cipher_info fc_cbc_hmac_info = {.mode = EVP_CIPH_CBC_MODE,
                                                .ivlen = FC_CH_IVLEN,
                                                .blocksize = FC_AES_BLOCK,
                                                .aead = 1};

static int fc_aes128_cbc_hmac_get_params(OSSL_PARAM params[])
{
    return fc_cipher_get_params(params, &fc_cbc_hmac_info, 16);
}

static int fc_aes256_cbc_hmac_get_params(OSSL_PARAM params[])
{
    return fc_cipher_get_params(params, &fc_cbc_hmac_info, 32);
}

static void fc_cbc_hmac_freectx(void *vctx)
{
    /* Schedule, raw key, MAC key states and the running hash. */
    fc_cipher_ctx_free(vctx, sizeof(fc_cbc_hmac_ctx));
}

static void *fc_cbc_hmac_dupctx(void *vctx)
{
    fc_cbc_hmac_ctx *src = vctx;

    /* The pointers the context holds are to constant tables: a flat copy
     * is a deep one. */
    return fc_cipher_ctx_dup(src->prov, src, sizeof(*src));
}

/* Makes the schedule match the direction of the operation. */
static inline void fc_cbc_hmac_sync_schedule(fc_cbc_hmac_ctx *ctx)
{
    int want = ctx->enc ? FC_KS_ENC : FC_KS_DEC;

    if (FC_LIKELY(ctx->ks_dir == want))
        return;
    if (want == FC_KS_ENC)
        ctx->k.aes->set_enc_key(&ctx->k.ks, ctx->key, ctx->keylen);
    else
        ctx->k.aes->set_dec_key(&ctx->k.ks, ctx->key, ctx->keylen);
    ctx->ks_dir = (uint8_t)want;
}

static int fc_cbc_hmac_init_op(fc_cbc_hmac_ctx *ctx, const unsigned char *key,
                               size_t keylen, const unsigned char *iv,
                               size_t ivlen, const OSSL_PARAM params[], int enc)
{
    ctx->enc = (uint8_t)enc;
    if (iv != NULL) {
        if (!fc_cipher_check_ivlen(ctx->prov, ivlen, FC_CH_IVLEN, FC_CH_IVLEN))
            return 0;
        memcpy(ctx->iv, iv, FC_CH_IVLEN);
        memcpy(ctx->oiv, iv, FC_CH_IVLEN);
        ctx->iv_set = 1;
    } else if (ctx->iv_set) {
        /* Re-init without IV restarts the chain from the IV last set. */
        memcpy(ctx->iv, ctx->oiv, FC_CH_IVLEN);
    }
    if (key != NULL) {
        if (!fc_cipher_check_keylen(ctx->prov, keylen, ctx->keylen))
            return 0;
        if (key != ctx->key)
            memcpy(ctx->key, key, keylen);
        /* A new key forgets the MAC key and any header set, as the
         * default's does; "mackey" follows. */
        fc_cbc_hmac_init(&ctx->k, ctx->prov->aes, ctx->prov->sha,
                         ctx->prov->cbc_sha, (fc_sha_alg)ctx->k.hash.alg);
        fc_sha_init(&ctx->k.hash, &ctx->md);
        ctx->rec = FC_REC_NONE;
        ctx->ks_dir = FC_KS_NONE;
        fc_cbc_hmac_sync_schedule(ctx);
        ctx->key_set = 1;
    }
    /* Without a key the schedule follows the direction at first use, and
     * a header set before stays for one update in its own direction (the
     * update fails in the other). */
    return params == NULL || fc_cbc_hmac_set_ctx_params(ctx, params);
}

static int fc_cbc_hmac_einit(void *vctx, const unsigned char *key,
                             size_t keylen, const unsigned char *iv,
                             size_t ivlen, const OSSL_PARAM params[])
{
    return fc_cbc_hmac_init_op(vctx, key, keylen, iv, ivlen, params, 1);
}

static int fc_cbc_hmac_dinit(void *vctx, const unsigned char *key,
                             size_t keylen, const unsigned char *iv,
                             size_t ivlen, const OSSL_PARAM params[])
{
    return fc_cbc_hmac_init_op(vctx, key, keylen, iv, ivlen, params, 0);
}

/* ------------------------------------------------------------------------ */
/* Data path. */

/* One TLS record, |inl| bytes from |in| to |out|; |*plen| receives the
 * payload length when decrypting. */
static int fc_cbc_hmac_record(fc_cbc_hmac_ctx *ctx, uint8_t *out,
                              const uint8_t *in, size_t inl, size_t *plen)
{
    const size_t dlen = ctx->k.hash.len, eiv = ctx->eiv;
    uint64_t good;

    if (ctx->enc) {
        /* set_aad made reclen >= eiv; checked again where it is used. */
        if (ctx->reclen < eiv ||
            inl != fc_cbc_hmac_sealed_len(0, ctx->reclen, dlen)) {
            FC_RAISE_DATA(ctx->prov, FC_R_TLS_RECORD_INVALID,
                          "%zu bytes for a record of %zu bytes before MAC "
                          "and padding",
                          inl, ctx->reclen);
            return 0;
        }
        if (!fc_cbc_hmac_seal(&ctx->k, ctx->iv, ctx->aad, in, out, eiv,
                              ctx->reclen - eiv)) {
            FC_RAISE(ctx->prov, FC_R_TLS_RECORD_INVALID);
            return 0;
        }
        fc_stat_add(ctx->prov, FC_STAT_CBC_HMAC_TLS, 1);
        return 1;
    }
    if (inl < eiv + dlen + 1) {
        FC_RAISE_DATA(ctx->prov, FC_R_TLS_RECORD_INVALID,
                      "%zu bytes are too few for a record", inl);
        return 0;
    }
    fc_stat_add(ctx->prov, FC_STAT_CBC_HMAC_TLS, 1);
    good =
        fc_cbc_hmac_open(&ctx->k, ctx->iv, ctx->aad, in, out, inl, eiv, plen);
    /* The verdict goes to the caller: from here on it is public. The
     * payload length too, once the record is accepted (libssl goes on
     * handling the payload, whose length the record announces anyway). */
    FC_CT_PUBLIC(&good, sizeof(good));
    if (!good) {
        fc_memzero(out + eiv, inl - eiv);
        FC_RAISE(ctx->prov, FC_R_BAD_RECORD_MAC);
        return 0;
    }
    FC_CT_PUBLIC(plen, sizeof(*plen));
    return 1;
}

/*
 * Takes the header the next record uses: 1 if there is one for this
 * direction, 0 if there is none (plain CBC), -1 (an error raised) if the
 * last "tlsaad" was refused or set for the other direction. Either way the
 * header is spent.
 */
static int fc_cbc_hmac_take_header(fc_cbc_hmac_ctx *ctx)
{
    const int rec = ctx->rec;

    ctx->rec = FC_REC_NONE;
    if (rec == FC_REC_NONE)
        return 0;
    if (rec == FC_REC_REFUSED) {
        FC_RAISE_DATA(ctx->prov, FC_R_INVALID_TLS_AAD,
                      "the record's \"tlsaad\" was refused");
        return -1;
    }
    if ((rec == FC_REC_ENC) != (ctx->enc != 0)) {
        FC_RAISE_DATA(ctx->prov, FC_R_INVALID_TLS_AAD,
                      "the record's \"tlsaad\" was set to %s",
                      rec == FC_REC_ENC ? "encrypt" : "decrypt");
        return -1;
    }
    return 1;
}

/*
 * The work of update and of the one-shot call: |inl| bytes (whole blocks)
 * as one TLS record if a header was set, else plain CBC with the running
 * hash. |*plen| receives the payload length of a decrypted record, else
 * |inl|.
 */
static int fc_cbc_hmac_do(fc_cbc_hmac_ctx *ctx, uint8_t *out, size_t outsize,
                          const uint8_t *in, size_t inl, size_t *plen)
{
    int aad;

    if (!ctx->key_set) {
        FC_RAISE(ctx->prov, FC_R_NO_KEY_SET);
        return 0;
    }
    *plen = inl;
    if (inl == 0) /* the header, if any, waits for the next update */
        return 1;
    if (outsize < inl) {
        FC_RAISE_DATA(ctx->prov, FC_R_OUTPUT_TOO_SMALL, "need %zu, have %zu",
                      inl, outsize);
        return 0;
    }
    /* A header is for one update, used or refused (whatever is wrong with
     * the update, as the default's). */
    if ((aad = fc_cbc_hmac_take_header(ctx)) < 0)
        return 0;
    if (in == NULL || out == NULL) {
        FC_RAISE(ctx->prov, FC_R_NULL_ARGUMENT);
        return 0;
    }
    if (inl % FC_AES_BLOCK != 0) {
        FC_RAISE_DATA(ctx->prov, FC_R_WRONG_FINAL_BLOCK_LENGTH,
                      "%zu bytes: not a whole number of blocks", inl);
        return 0;
    }
    if (fc_partial_overlap(out, in, inl)) {
        memmove(out, in, inl);
        in = out;
    }
    fc_cbc_hmac_sync_schedule(ctx);
    if (aad)
        return fc_cbc_hmac_record(ctx, out, in, inl, plen);
    if (ctx->enc) {
        fc_cbc_hmac_enc_hash(&ctx->k, &ctx->md, in, out, inl, ctx->iv);
        fc_stat_add(ctx->prov, FC_STAT_CBC_HMAC_ENC, 1);
    } else {
        fc_cbc_hmac_dec_hash(&ctx->k, &ctx->md, in, out, inl, ctx->iv);
        fc_stat_add(ctx->prov, FC_STAT_CBC_HMAC_DEC, 1);
    }
    return 1;
}

static int fc_cbc_hmac_update(void *vctx, unsigned char *out, size_t *outl,
                              size_t outsize, const unsigned char *in,
                              size_t inl)
{
    fc_cbc_hmac_ctx *ctx = vctx;
    size_t plen;

    /* TLS mode decrypts only records with their header: there is no
     * padding to strip safely otherwise. */
    if (ctx->tlsversion > 0 && !ctx->enc && ctx->rec == FC_REC_NONE &&
        inl != 0 && ctx->key_set) {
        FC_RAISE(ctx->prov, FC_R_TLS_AAD_NOT_SET);
        return 0;
    }
    if (!fc_cbc_hmac_do(ctx, out, outsize, in, inl, &plen))
        return 0;
    /* A decrypted record's payload length when "tls-version" is set (what
     * libssl reads), else the bytes processed, as the default does. */
    *outl = !ctx->enc && ctx->tlsversion > 0 ? plen : inl;
    return 1;
}

static int fc_cbc_hmac_final(void *vctx, unsigned char *out, size_t *outl,
                             size_t outsize)
{
    fc_cbc_hmac_ctx *ctx = vctx;

    if (!ctx->key_set) {
        FC_RAISE(ctx->prov, FC_R_NO_KEY_SET);
        return 0;
    }
    /* Updates take whole blocks and keep nothing back. */
    *outl = 0;
    return 1;
}

/* The one-shot call behind EVP_Cipher: as update, the length out always
 * the length in (the default's too); a header armed is spent even by an
 * empty call, which then fails as no record has 0 bytes (as the
 * default's). */
static int fc_cbc_hmac_cipher(void *vctx, unsigned char *out, size_t *outl,
                              size_t outsize, const unsigned char *in,
                              size_t inl)
{
    fc_cbc_hmac_ctx *ctx = vctx;
    size_t plen;

    if (inl == 0 && ctx->key_set && ctx->rec != FC_REC_NONE) {
        if (fc_cbc_hmac_take_header(ctx) >= 0)
            FC_RAISE_DATA(ctx->prov, FC_R_TLS_RECORD_INVALID,
                          "a record of 0 bytes");
        return 0;
    }
    if (!fc_cbc_hmac_do(ctx, out, outsize, in, inl, &plen))
        return 0;
    *outl = inl;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Dispatch tables (fc_prov.h). */

const OSSL_DISPATCH fc_aes128cbc_hmac_sha1_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes128_cbc_hmac_sha1_newctx),
    FC_FN(CIPHER_FREECTX, fc_cbc_hmac_freectx),
    FC_FN(CIPHER_DUPCTX, fc_cbc_hmac_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_cbc_hmac_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_cbc_hmac_dinit),
    FC_FN(CIPHER_UPDATE, fc_cbc_hmac_update),
    FC_FN(CIPHER_FINAL, fc_cbc_hmac_final),
    FC_FN(CIPHER_CIPHER, fc_cbc_hmac_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes128_cbc_hmac_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_cbc_hmac_get_ctx_params),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_cbc_hmac_set_ctx_params),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_cbc_hmac_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_cbc_hmac_settable_ctx_params),
    OSSL_DISPATCH_END,
};

const OSSL_DISPATCH fc_aes256cbc_hmac_sha1_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes256_cbc_hmac_sha1_newctx),
    FC_FN(CIPHER_FREECTX, fc_cbc_hmac_freectx),
    FC_FN(CIPHER_DUPCTX, fc_cbc_hmac_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_cbc_hmac_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_cbc_hmac_dinit),
    FC_FN(CIPHER_UPDATE, fc_cbc_hmac_update),
    FC_FN(CIPHER_FINAL, fc_cbc_hmac_final),
    FC_FN(CIPHER_CIPHER, fc_cbc_hmac_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes256_cbc_hmac_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_cbc_hmac_get_ctx_params),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_cbc_hmac_set_ctx_params),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_cbc_hmac_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_cbc_hmac_settable_ctx_params),
    OSSL_DISPATCH_END,
};

const OSSL_DISPATCH fc_aes128cbc_hmac_sha256_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes128_cbc_hmac_sha256_newctx),
    FC_FN(CIPHER_FREECTX, fc_cbc_hmac_freectx),
    FC_FN(CIPHER_DUPCTX, fc_cbc_hmac_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_cbc_hmac_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_cbc_hmac_dinit),
    FC_FN(CIPHER_UPDATE, fc_cbc_hmac_update),
    FC_FN(CIPHER_FINAL, fc_cbc_hmac_final),
    FC_FN(CIPHER_CIPHER, fc_cbc_hmac_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes128_cbc_hmac_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_cbc_hmac_get_ctx_params),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_cbc_hmac_set_ctx_params),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_cbc_hmac_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_cbc_hmac_settable_ctx_params),
    OSSL_DISPATCH_END,
};

const OSSL_DISPATCH fc_aes256cbc_hmac_sha256_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes256_cbc_hmac_sha256_newctx),
    FC_FN(CIPHER_FREECTX, fc_cbc_hmac_freectx),
    FC_FN(CIPHER_DUPCTX, fc_cbc_hmac_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_cbc_hmac_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_cbc_hmac_dinit),
    FC_FN(CIPHER_UPDATE, fc_cbc_hmac_update),
    FC_FN(CIPHER_FINAL, fc_cbc_hmac_final),
    FC_FN(CIPHER_CIPHER, fc_cbc_hmac_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes256_cbc_hmac_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_cbc_hmac_get_ctx_params),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_cbc_hmac_set_ctx_params),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_cbc_hmac_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_cbc_hmac_settable_ctx_params),
    OSSL_DISPATCH_END,
};
