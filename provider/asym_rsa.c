/* SPDX-License-Identifier: Apache-2.0 */
/*
 * asym_rsa.c - RSA encryption for OpenSSL: PKCS#1 v1.5 (type 2), OAEP and
 * no padding, and the TLS RSA key exchange mode (pad mode 7,
 * RSA_PKCS1_WITH_TLS_PADDING) libssl uses on the server side.
 *
 * Decryption is constant-time past the RSA operation: the padding checks
 * and the message length are masks (rsa_pad.c), and in TLS mode a bad block
 * yields 48 random bytes with success, indistinguishable from a good one
 * (RFC 5246 7.4.7.1).
 *
 * PKCS#1 v1.5 decryption, as OpenSSL 3.2+'s default provider does it:
 *   - implicit rejection (the "implicit-rejection" parameter, nonzero): a
 *     bad block gives success and a synthetic message instead of an error,
 *     the same bytes default 3.2+ returns for the same key and ciphertext
 *     (KDK = HMAC-SHA256(SHA-256(d), C), then the HMAC PRF; rsa_pad.h). The
 *     synthetic message is made for every ciphertext before the padding is
 *     looked at, and the choice between it and the real message is masks
 *     only, so the verdict reaches no branch, address or return value;
 *   - explicit rejection (the parameter 0, or pad mode 8,
 *     RSA_PKCS1_NO_IMPLICIT_REJECT_PADDING): a bad block gives the one error
 *     FC_R_BAD_DECRYPT whatever failed and writes nothing (OpenSSL 3.0's
 *     behaviour).
 *   Every init starts from the running libcrypto's default: implicit from
 *   3.2 on (OpenSSL_version_num() at run time, not the headers we were
 *   built with), explicit before; the parameter selects either on any
 *   version and get_ctx_params reports the value in force. Implicit
 *   rejection needs d; keymgmt holds no private key without it (CRT
 *   values without d make a public key, as with default), and the check
 *   below stays for a key that somehow lacks it (FC_R_MISSING_PRIVATE_KEY).
 *   Publicly invalid input fails either way, before any padding is seen: a
 *   ciphertext longer than the modulus (FC_R_DATA_TOO_LARGE) or empty
 *   (FC_R_DATA_TOO_SMALL), or not below n (FC_R_RSA_OPERATION_FAILED); an
 *   output buffer shorter than the modulus (FC_R_OUTPUT_TOO_SMALL). A
 *   ciphertext shorter than the modulus is the same integer with leading
 *   zeros, also for the KDK.
 * OAEP and TLS mode are not affected by the parameter. Pad mode 8 cannot
 * encrypt. Not supported: X9.31 and SSLv23 padding.
 *
 * The context is an RSA operation (rsa_op.h): init chooses the
 * implementation from the key. Delegated keys (rsa_key.c, rsa_deleg.h:
 * shapes our core does not take, such as moduli over 8192 bits) run on
 * fc_rsa_op_delegated, which forwards every call to default's cipher in the
 * child library context, with default's results and reasons; nothing is
 * counted. The functions here are the native implementation.
 */
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rsa.h>

#include "fc/common.h"
#include "fc/ct.h"
#include "fc/rsa.h"
#include "fc_prov.h"
#include "fc_rsa.h"
#include "rsa_op.h"
#include "rsa_pad.h"
/* 3.2+ names; older headers lack the macros. */
#define FC_PARAM_IMPLICIT_REJECTION "implicit-rejection"
/* RSA_PKCS1_NO_IMPLICIT_REJECT_PADDING: PKCS#1 v1.5, explicit rejection. */
#define FC_PKCS1_NO_IMPLICIT_REJECT 8

typedef struct fc_rsa_enc_ctx {
    fc_rsa_op op; /* first: key, EVP_PKEY_OP_ENCRYPT or _DECRYPT, ... */
    int pad_mode;
    EVP_MD *oaep_md; /* OAEP hash; SHA-1 unless set */
    EVP_MD *mgf1_md; /* NULL: same as oaep_md */
    uint8_t *label;
    size_t label_len;
    unsigned int client_version; /* TLS mode */
    unsigned int alt_version;
    unsigned int implicit_rejection; /* PKCS#1 v1.5 decryption: nonzero for
                                      * implicit rejection */
} fc_rsa_enc_ctx;

FC_DISPATCH(asym_cipher, newctx, fc_rsa_enc_newctx);
FC_DISPATCH(asym_cipher, freectx, fc_rsa_enc_freectx);
FC_DISPATCH(asym_cipher, dupctx, fc_rsa_enc_dupctx);
FC_DISPATCH(asym_cipher, encrypt_init, fc_rsa_enc_encrypt_init);
FC_DISPATCH(asym_cipher, decrypt_init, fc_rsa_enc_decrypt_init);
FC_DISPATCH(asym_cipher, gettable_ctx_params, fc_rsa_enc_gettable_ctx_params);
FC_DISPATCH(asym_cipher, settable_ctx_params, fc_rsa_enc_settable_ctx_params);

/* The native implementation (the end of this file). */
static const fc_rsa_op_impl fc_rsa_enc_native;
static int fc_rsa_enc_set_ctx_params(fc_rsa_op *op, const OSSL_PARAM params[]);

/* Implicit rejection is on by default where the running libcrypto's own
 * provider has it on (3.2 and later): asked at run time, since a module
 * built on 3.0 headers runs in every later 3.x. */
static unsigned int fc_rsa_enc_implicit_default(void)
{
    return fc_ossl_at_least(OpenSSL_version_num(), 3, 2);
}

static void *fc_rsa_enc_newctx(void *provctx)
{
    fc_rsa_enc_ctx *ctx =
        fc_rsa_op_newctx(provctx, sizeof(*ctx), NULL, &fc_rsa_enc_native);

    if (ctx == NULL)
        return NULL;
    ctx->pad_mode = RSA_PKCS1_PADDING;
    ctx->implicit_rejection = fc_rsa_enc_implicit_default();
    return ctx;
}

static void fc_rsa_enc_freectx(void *vctx)
{
    fc_rsa_enc_ctx *ctx = vctx;

    if (ctx == NULL)
        return;
    EVP_MD_free(ctx->oaep_md);
    EVP_MD_free(ctx->mgf1_md);
    OPENSSL_clear_free(ctx->label, ctx->label_len);
    fc_rsa_op_freectx(&ctx->op, sizeof(*ctx));
}

static void *fc_rsa_enc_dupctx(void *vctx)
{
    const fc_rsa_enc_ctx *src = vctx;
    int ok;
    fc_rsa_enc_ctx *dst = fc_rsa_op_dupctx(&src->op, sizeof(*dst), &ok);

    if (dst == NULL)
        return NULL;
    dst->label = NULL;
    ok &= fc_rsa_op_md_ref(&dst->oaep_md);
    ok &= fc_rsa_op_md_ref(&dst->mgf1_md);
    if (ok && (src->label == NULL || (dst->label = OPENSSL_memdup(
                                          src->label, src->label_len)) != NULL))
        return dst;
    FC_RAISE(src->op.prov, FC_R_MALLOC_FAILURE);
    fc_rsa_enc_freectx(dst);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Digests                                                                  */

/* Fetches a digest (rsa_op.h's policy; the cipher's newctx takes no
 * property query) of a fixed size. */
static EVP_MD *fc_rsa_enc_fetch_md(fc_rsa_enc_ctx *ctx, const char *name,
                                   const char *props)
{
    EVP_MD *md = fc_rsa_op_fetch_md(&ctx->op, name, props);

    if (md != NULL && EVP_MD_get_size(md) <= 0) { /* XOFs: no fixed size */
        FC_RAISE_DATA(ctx->op.prov, FC_R_DIGEST_NOT_ALLOWED, "%s", name);
        EVP_MD_free(md);
        md = NULL;
    }
    return md;
}

/* OAEP's hash, fetched on first use if none was set: SHA-1 is the default
 * of RFC 8017 (and of every OpenSSL API). */
static const EVP_MD *fc_rsa_enc_oaep_md(fc_rsa_enc_ctx *ctx)
{
    if (ctx->oaep_md == NULL)
        ctx->oaep_md = fc_rsa_enc_fetch_md(ctx, "SHA1", NULL);
    return ctx->oaep_md;
}

/* ------------------------------------------------------------------------ */
/* Operations                                                               */

static int fc_rsa_enc_init(fc_rsa_op *op, fc_rsa_obj *obj,
                           const OSSL_PARAM params[], int operation)
{
    if (op == NULL || obj == NULL || !fc_rsa_obj_has_key(obj)) {
        FC_RAISE(op != NULL ? op->prov : NULL, FC_R_NO_KEY_SET);
        return 0;
    }
    /* An RSA-PSS key is for signatures only (default refuses it too). */
    if (obj->pss) {
        FC_RAISE(op->prov, FC_R_OPERATION_NOT_SUPPORTED_FOR_KEYTYPE);
        return 0;
    }
    return fc_rsa_op_init(op, obj, operation, params, &fc_rsa_enc_native);
}

/* The native init, once the key and the operation are in place. */
static int fc_rsa_enc_native_init(fc_rsa_op *op, const OSSL_PARAM params[])
{
    fc_rsa_enc_ctx *ctx = (fc_rsa_enc_ctx *)op;

    ctx->pad_mode = RSA_PKCS1_PADDING;
    /* Like the default provider, every init starts from the default. */
    ctx->implicit_rejection = fc_rsa_enc_implicit_default();
    return fc_rsa_enc_set_ctx_params(op, params);
}

static int fc_rsa_enc_encrypt_init(void *vctx, void *provkey,
                                   const OSSL_PARAM params[])
{
    return fc_rsa_enc_init(vctx, provkey, params, EVP_PKEY_OP_ENCRYPT);
}

static int fc_rsa_enc_decrypt_init(void *vctx, void *provkey,
                                   const OSSL_PARAM params[])
{
    return fc_rsa_enc_init(vctx, provkey, params, EVP_PKEY_OP_DECRYPT);
}

static int fc_rsa_enc_encrypt(fc_rsa_op *op, unsigned char *out, size_t *outlen,
                              size_t outsize, const unsigned char *in,
                              size_t inlen)
{
    fc_rsa_enc_ctx *ctx = (fc_rsa_enc_ctx *)op;
    uint8_t em[FC_RSA_MAX_BYTES];
    const EVP_MD *md;
    fc_rsa_key *key;
    size_t k;
    int ok = 0;

    key = op->rsa->key;
    k = fc_rsa_size(key);
    if (out == NULL) {
        *outlen = k;
        return 1;
    }
    if (outsize < k) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_OUTPUT_TOO_SMALL,
                      "is %zu, should be at least %zu", outsize, k);
        return 0;
    }
    switch (ctx->pad_mode) {
    case RSA_PKCS1_PADDING:
        if (!fc_rsa_pad_pkcs1_enc(ctx->op.prov, em, k, in, inlen, fc_rsa_rand,
                                  ctx->op.prov))
            goto done;
        break;
    case RSA_PKCS1_OAEP_PADDING:
        md = fc_rsa_enc_oaep_md(ctx);
        if (md == NULL ||
            !fc_rsa_pad_oaep(ctx->op.prov, em, k, in, inlen, ctx->label,
                             ctx->label_len, md,
                             ctx->mgf1_md != NULL ? ctx->mgf1_md : md,
                             fc_rsa_rand, ctx->op.prov))
            goto done;
        break;
    case RSA_NO_PADDING:
        if (inlen != k) {
            FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PARAMETER,
                          "%zu bytes, exactly %zu needed without padding",
                          inlen, k);
            goto done;
        }
        memcpy(em, in, k);
        break;
    default:
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PADDING_MODE,
                      "pad mode %d cannot encrypt", ctx->pad_mode);
        goto done;
    }
    if (!fc_rsa_public(key, out, em)) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_DATA_TOO_LARGE,
                      "input is not below the modulus");
        goto done;
    }
    /* Counted once made: not a size query, not a refusal. */
    fc_stat_add(ctx->op.prov, FC_STAT_RSA_ENC, 1);
    *outlen = k;
    ok = 1;
done:
    OPENSSL_cleanse(em, sizeof(em));
    return ok;
}

static int fc_rsa_enc_decrypt(fc_rsa_op *op, unsigned char *out, size_t *outlen,
                              size_t outsize, const unsigned char *in,
                              size_t inlen)
{
    fc_rsa_enc_ctx *ctx = (fc_rsa_enc_ctx *)op;
    uint8_t em[FC_RSA_MAX_BYTES], rnd[FC_TLS_PREMASTER_LEN];
    uint8_t synth[FC_RSA_MAX_BYTES], dbuf[FC_RSA_MAX_BYTES];
    const EVP_MD *md = NULL;
    fc_rsa_key *key;
    size_t k, synth_len = 0;
    int ok = 0, tls, implicit = 0;

    key = op->rsa->key;
    k = fc_rsa_size(key);
    tls = ctx->pad_mode == RSA_PKCS1_WITH_TLS_PADDING;
    /* Sizes as OpenSSL's provider reports and requires them: the premaster
     * length in TLS mode, else the modulus length (with implicit rejection
     * too: the synthetic message is never cut short). */
    if (out == NULL) {
        *outlen = tls ? FC_TLS_PREMASTER_LEN : k;
        return 1;
    }
    if (outsize < (tls ? FC_TLS_PREMASTER_LEN : k)) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_OUTPUT_TOO_SMALL,
                      "is %zu, should be at least %zu", outsize,
                      tls ? (size_t)FC_TLS_PREMASTER_LEN : k);
        return 0;
    }
    if (!fc_rsa_has_private(key)) {
        FC_RAISE(ctx->op.prov, FC_R_MISSING_PRIVATE_KEY);
        return 0;
    }
    switch (ctx->pad_mode) {
    case RSA_PKCS1_PADDING:
        implicit = ctx->implicit_rejection != 0;
        break;
    case FC_PKCS1_NO_IMPLICIT_REJECT:
    case RSA_NO_PADDING:
        break;
    case RSA_PKCS1_OAEP_PADDING:
        md = fc_rsa_enc_oaep_md(ctx);
        if (md == NULL)
            return 0;
        break;
    case RSA_PKCS1_WITH_TLS_PADDING:
        if (ctx->client_version == 0) {
            FC_RAISE_DATA(ctx->op.prov, FC_R_BAD_TLS_CLIENT_VERSION,
                          "tls-client-version not set");
            return 0;
        }
        /* Drawn before the RSA operation, whatever the outcome, so the
         * fallback costs the same as the real secret. */
        if (!fc_rsa_rand(ctx->op.prov, rnd, sizeof(rnd))) {
            FC_RAISE(ctx->op.prov, FC_R_RANDOM_FAILURE);
            return 0;
        }
        break;
    default:
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PADDING_MODE,
                      "pad mode %d cannot decrypt", ctx->pad_mode);
        return 0;
    }
    /* A shorter ciphertext is the same integer with leading zeros; an
     * empty one is refused, as OpenSSL 3.2+ refuses it. */
    if (inlen > k) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_DATA_TOO_LARGE,
                      "%zu-byte ciphertext for a %zu-byte key", inlen, k);
        return 0;
    }
    if (inlen == 0) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_DATA_TOO_SMALL, "empty ciphertext");
        return 0;
    }
    memset(em, 0, k - inlen);
    memcpy(em + k - inlen, in, inlen);
    if (implicit) {
        /* The synthetic message depends on d and the ciphertext only, so
         * it is made for every ciphertext, before the padding is seen. A
         * key without d cannot make it (keymgmt makes such keys public):
         * refused whatever the ciphertext. */
        if (!fc_rsa_get_d_padded(key, dbuf)) {
            FC_RAISE_DATA(ctx->op.prov, FC_R_MISSING_PRIVATE_KEY,
                          "implicit rejection needs the private exponent d");
            return 0;
        }
        ok =
            fc_rsa_implicit_synth(ctx->op.prov, synth, &synth_len, dbuf, em, k);
        OPENSSL_cleanse(dbuf, k);
        if (!ok)
            goto done;
        ok = 0;
    }
    /* Failure here depends on the ciphertext (>= n) or on a fault, never
     * on the padding, so reporting it does not help an attacker. */
    if (!fc_rsa_private(key, em, em, fc_rsa_rand, ctx->op.prov)) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_RSA_OPERATION_FAILED,
                      "private key operation failed (input >= n, RNG or "
                      "consistency check)");
        goto done;
    }
    /* Counted once the private operation has run, before the padding is
     * looked at: a bad block counts as a decryption (as a GCM tag that
     * does not match does), and the count never depends on it. */
    fc_stat_add(ctx->op.prov, FC_STAT_RSA_DEC, 1);
    if (tls)
        fc_stat_add(ctx->op.prov, FC_STAT_RSA_KEX, 1);
    /* In the constant-time validation build (FC_CT_VALGRIND) the decoded
     * block and the synthetic message are secret from here on: valgrind
     * then flags any branch or index the decoders below take on them. */
    FC_CT_SECRET(em, k);
    if (implicit) {
        FC_CT_SECRET(synth, k);
        FC_CT_SECRET(&synth_len, sizeof(synth_len));
    }
    switch (ctx->pad_mode) {
    case RSA_PKCS1_PADDING:
    case FC_PKCS1_NO_IMPLICIT_REJECT:
        if (implicit) {
            /* Success either way: the real or the synthetic message. */
            fc_rsa_unpad_pkcs1_implicit(out, outlen, em, k, synth, synth_len);
            ok = 1;
        } else {
            ok = fc_rsa_unpad_pkcs1_enc(out, outsize, outlen, em, k);
        }
        break;
    case RSA_PKCS1_OAEP_PADDING:
        ok = fc_rsa_unpad_oaep(out, outsize, outlen, em, k, ctx->label,
                               ctx->label_len, md,
                               ctx->mgf1_md != NULL ? ctx->mgf1_md : md);
        break;
    case RSA_PKCS1_WITH_TLS_PADDING:
        fc_rsa_unpad_pkcs1_tls(out, em, k, ctx->client_version,
                               ctx->alt_version, rnd);
        *outlen = FC_TLS_PREMASTER_LEN;
        ok = 1;
        break;
    default: /* RSA_NO_PADDING */
        memcpy(out, em, k);
        *outlen = k;
        ok = 1;
    }
    /* What leaves: the verdict (public with explicit rejection, always 1
     * otherwise), the length and the bytes handed to the caller. */
    FC_CT_PUBLIC(&ok, sizeof(ok));
    if (ok) {
        FC_CT_PUBLIC(outlen, sizeof(*outlen));
        FC_CT_PUBLIC(out, *outlen);
    } else {
        FC_RAISE(ctx->op.prov, FC_R_BAD_DECRYPT);
    }
done:
    FC_CT_PUBLIC(em, sizeof(em));
    FC_CT_PUBLIC(synth, sizeof(synth));
    OPENSSL_cleanse(em, sizeof(em));
    OPENSSL_cleanse(rnd, sizeof(rnd));
    OPENSSL_cleanse(synth, sizeof(synth));
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Parameters                                                               */

static const OSSL_ITEM fc_rsa_enc_pads[] = {
    {RSA_PKCS1_PADDING, OSSL_PKEY_RSA_PAD_MODE_PKCSV15},
    {RSA_NO_PADDING, OSSL_PKEY_RSA_PAD_MODE_NONE},
    {RSA_PKCS1_OAEP_PADDING, OSSL_PKEY_RSA_PAD_MODE_OAEP}, /* first: the
                                                            * name we report */
    {RSA_PKCS1_OAEP_PADDING, "oeap"}, /* the misspelling callers still use */
    {RSA_X931_PADDING, OSSL_PKEY_RSA_PAD_MODE_X931},
    {RSA_PKCS1_PSS_PADDING, OSSL_PKEY_RSA_PAD_MODE_PSS},
    {0, NULL},
};

static int fc_rsa_enc_get_ctx_params(fc_rsa_op *op, OSSL_PARAM params[])
{
    fc_rsa_enc_ctx *ctx = (fc_rsa_enc_ctx *)op;
    const EVP_MD *mgf1;
    OSSL_PARAM *p;

    /* Pad mode 7 has no name. */
    p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE);
    if (p != NULL && !fc_rsa_op_write_pad(p, fc_rsa_enc_pads, ctx->pad_mode))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST);
    if (p != NULL &&
        !OSSL_PARAM_set_utf8_string(
            p, ctx->oaep_md == NULL ? "" : EVP_MD_get0_name(ctx->oaep_md)))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST);
    if (p != NULL) {
        mgf1 = ctx->mgf1_md != NULL ? ctx->mgf1_md : ctx->oaep_md;
        if (!OSSL_PARAM_set_utf8_string(
                p, mgf1 == NULL ? "" : EVP_MD_get0_name(mgf1)))
            return 0;
    }
    p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL);
    if (p != NULL && !OSSL_PARAM_set_octet_ptr(p, ctx->label, ctx->label_len))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION);
    if (p != NULL && !OSSL_PARAM_set_uint(p, ctx->client_version))
        return 0;
    p = OSSL_PARAM_locate(params,
                          OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION);
    if (p != NULL && !OSSL_PARAM_set_uint(p, ctx->alt_version))
        return 0;
    p = OSSL_PARAM_locate(params, FC_PARAM_IMPLICIT_REJECTION);
    if (p != NULL && !OSSL_PARAM_set_uint(p, ctx->implicit_rejection))
        return 0;
    return 1;
}

static const OSSL_PARAM *fc_rsa_enc_gettable_ctx_params(void *vctx,
                                                        void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_PAD_MODE, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST, NULL, 0),
        OSSL_PARAM_DEFN(OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, OSSL_PARAM_OCTET_PTR,
                        NULL, 0),
        OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION, NULL),
        OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION, NULL),
        OSSL_PARAM_uint(FC_PARAM_IMPLICIT_REJECTION, NULL),
        OSSL_PARAM_END,
    };
    return params;
}

/* Reads digest parameter |key| (with its properties |props_key|) and, if
 * it is there, fetches the digest into *slot. */
static int fc_rsa_enc_set_md(fc_rsa_enc_ctx *ctx, const OSSL_PARAM params[],
                             const char *key, const char *props_key,
                             EVP_MD **slot)
{
    char name[FC_MDNAME_MAX], props[FC_PROPQ_MAX];
    const char *pname, *pprops;
    EVP_MD *md;

    if (!fc_rsa_op_read_md(params, key, props_key, name, props, &pname,
                           &pprops))
        return 0;
    if (pname == NULL)
        return 1;
    if ((md = fc_rsa_enc_fetch_md(ctx, pname, pprops)) == NULL)
        return 0;
    EVP_MD_free(*slot);
    *slot = md;
    return 1;
}

static int fc_rsa_enc_set_ctx_params(fc_rsa_op *op, const OSSL_PARAM params[])
{
    fc_rsa_enc_ctx *ctx = (fc_rsa_enc_ctx *)op;
    const OSSL_PARAM *p;

    if (params == NULL)
        return 1;
    if (!fc_rsa_enc_set_md(ctx, params, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST,
                           OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST_PROPS,
                           &ctx->oaep_md))
        return 0;
    p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE);
    if (p != NULL) {
        int pad_mode = 0;

        if (!fc_rsa_op_read_pad(p, fc_rsa_enc_pads, &pad_mode))
            return 0;
        switch (pad_mode) {
        case RSA_PKCS1_PADDING:
        case RSA_NO_PADDING:
        case RSA_PKCS1_WITH_TLS_PADDING:
        case FC_PKCS1_NO_IMPLICIT_REJECT: /* decryption only */
            break;
        case RSA_PKCS1_OAEP_PADDING:
            if (fc_rsa_enc_oaep_md(ctx) == NULL)
                return 0;
            break;
        default:
            FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PADDING_MODE,
                          "pad mode %d not supported for encryption", pad_mode);
            return 0;
        }
        ctx->pad_mode = pad_mode;
    }
    if (!fc_rsa_enc_set_md(ctx, params, OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST,
                           OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST_PROPS,
                           &ctx->mgf1_md))
        return 0;
    p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL);
    if (p != NULL) {
        void *label = NULL;
        size_t len = 0;

        if (!OSSL_PARAM_get_octet_string(p, &label, 0, &len))
            return 0;
        OPENSSL_clear_free(ctx->label, ctx->label_len);
        ctx->label = label;
        ctx->label_len = len;
    }
    p = OSSL_PARAM_locate_const(params,
                                OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION);
    if (p != NULL && !OSSL_PARAM_get_uint(p, &ctx->client_version))
        return 0;
    p = OSSL_PARAM_locate_const(params,
                                OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION);
    if (p != NULL && !OSSL_PARAM_get_uint(p, &ctx->alt_version))
        return 0;
    p = OSSL_PARAM_locate_const(params, FC_PARAM_IMPLICIT_REJECTION);
    if (p != NULL && !OSSL_PARAM_get_uint(p, &ctx->implicit_rejection))
        return 0;
    return 1;
}

static const OSSL_PARAM *fc_rsa_enc_settable_ctx_params(void *vctx,
                                                        void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST_PROPS, NULL,
                               0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_PAD_MODE, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST_PROPS, NULL,
                               0),
        OSSL_PARAM_octet_string(OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, NULL, 0),
        OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION, NULL),
        OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION, NULL),
        OSSL_PARAM_uint(FC_PARAM_IMPLICIT_REJECTION, NULL),
        OSSL_PARAM_END,
    };
    return params;
}

static const fc_rsa_op_impl fc_rsa_enc_native = {
    .init = fc_rsa_enc_native_init,
    .encrypt = fc_rsa_enc_encrypt,
    .decrypt = fc_rsa_enc_decrypt,
    .get_ctx_params = fc_rsa_enc_get_ctx_params,
    .set_ctx_params = fc_rsa_enc_set_ctx_params,
};

const OSSL_DISPATCH fc_rsa_asym_cipher_functions[] = {
    FC_FN(ASYM_CIPHER_NEWCTX, fc_rsa_enc_newctx),
    FC_FN(ASYM_CIPHER_FREECTX, fc_rsa_enc_freectx),
    FC_FN(ASYM_CIPHER_DUPCTX, fc_rsa_enc_dupctx),
    FC_FN(ASYM_CIPHER_ENCRYPT_INIT, fc_rsa_enc_encrypt_init),
    FC_FN(ASYM_CIPHER_ENCRYPT, fc_rsa_op_encrypt),
    FC_FN(ASYM_CIPHER_DECRYPT_INIT, fc_rsa_enc_decrypt_init),
    FC_FN(ASYM_CIPHER_DECRYPT, fc_rsa_op_decrypt),
    FC_FN(ASYM_CIPHER_GET_CTX_PARAMS, fc_rsa_op_get_ctx_params),
    FC_FN(ASYM_CIPHER_GETTABLE_CTX_PARAMS, fc_rsa_enc_gettable_ctx_params),
    FC_FN(ASYM_CIPHER_SET_CTX_PARAMS, fc_rsa_op_set_ctx_params),
    FC_FN(ASYM_CIPHER_SETTABLE_CTX_PARAMS, fc_rsa_enc_settable_ctx_params),
    OSSL_DISPATCH_END,
};
