/* SPDX-License-Identifier: Apache-2.0 */
/*
 * signature_rsa.c - RSA signatures for OpenSSL: PKCS#1 v1.5 (with a digest,
 * through DigestInfo; or raw, as `openssl speed` and TLS 1.0/1.1 MD5-SHA1
 * sign), PSS, and no padding; sign, verify and verify-recover, the
 * streaming digest-sign/verify calls, and the context parameters libssl,
 * the X.509 code and the pkey utilities set and read.
 *
 * Behaviour follows OpenSSL's default provider (3.0 semantics, plus the
 * 3.1+ "auto-digestmax" salt length and its use as the default when running
 * under 3.1 or later; refused under 3.0, as there), so that PKCS#1 v1.5
 * signatures are bit-identical and PSS verifies both ways. RSA-PSS keys
 * (keymgmt_rsa.c) take PSS padding only, and a restricted one (RFC 4055
 * parameters) fixes the digest and the MGF1 digest and sets the minimum salt
 * length, enforced where default enforces them and with its reasons (the
 * autodetected salt lengths as the running library's default treats them). The
 * legacy provider's MD2, MD4 and MDC-2 are taken as default takes them (MD4's
 * DigestInfo carries the OID byte OpenSSL writes; MDC-2 signs a bare OCTET
 * STRING, PKCS#1 v1.5 only, and verifies either form). Not supported: X9.31
 * padding.
 *
 * Digests are fetched from the provider's child library context: never the
 * application's, which may prefer fastcrypto and would loop back to us
 * (fc_rsa_op_fetch_md: the newctx property query first, then none). The
 * digests and the context parameters are signature_rsa_params.c's; this
 * file has the context's life and the operations.
 *
 * The context is an RSA operation (rsa_op.h): init chooses the
 * implementation from the key. Delegated keys (rsa_key.c, rsa_deleg.h:
 * shapes our core does not take, such as moduli over 8192 bits) run on
 * fc_rsa_op_delegated, which forwards every call to default's signature in
 * the child library context, with default's results and reasons; nothing
 * is counted. The functions here are the native implementation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rsa.h>

#include "fc/common.h"
#include "fc/rsa.h"
#include "fc_prov.h"
#include "fc_rsa.h"
#include "rsa_op.h"
#include "rsa_pad.h"
#include "signature_rsa.h"

FC_DISPATCH(signature, newctx, fc_rsa_sig_newctx);
FC_DISPATCH(signature, freectx, fc_rsa_sig_freectx);
FC_DISPATCH(signature, dupctx, fc_rsa_sig_dupctx);
FC_DISPATCH(signature, sign_init, fc_rsa_sig_sign_init);
FC_DISPATCH(signature, verify_init, fc_rsa_sig_verify_init);
FC_DISPATCH(signature, verify_recover_init, fc_rsa_sig_verify_recover_init);
FC_DISPATCH(signature, digest_sign_init, fc_rsa_sig_digest_sign_init);
FC_DISPATCH(signature, digest_verify_init, fc_rsa_sig_digest_verify_init);

/* The native implementation (the end of this file). */
static const fc_rsa_op_impl fc_rsa_sig_native;

/* The PSS salt length a fresh operation starts with: "auto" under 3.0 (the
 * maximum when signing), "auto-digestmax" under 3.1+ (at most hLen when
 * signing), as the default provider of the running library does. Both
 * recover the salt length when verifying. */
static int fc_pss_default_saltlen(void)
{
    return fc_ossl_at_least(OpenSSL_version_num(), 3, 1)
               ? FC_PSS_SALTLEN_AUTO_DIGESTMAX
               : FC_PSS_SALTLEN_AUTO;
}

static void *fc_rsa_sig_newctx(void *provctx, const char *propq)
{
    fc_rsa_sig_ctx *ctx =
        fc_rsa_op_newctx(provctx, sizeof(*ctx), propq, &fc_rsa_sig_native);

    if (ctx == NULL)
        return NULL;
    ctx->allow_md = 1;
    ctx->pad_mode = RSA_PKCS1_PADDING;
    ctx->saltlen = fc_pss_default_saltlen();
    ctx->min_saltlen = -1;
    return ctx;
}

static void fc_rsa_sig_freectx(void *vctx)
{
    fc_rsa_sig_ctx *ctx = vctx;

    if (ctx == NULL)
        return;
    EVP_MD_CTX_free(ctx->mdctx);
    EVP_MD_free(ctx->md);
    EVP_MD_free(ctx->mgf1_md);
    fc_rsa_op_freectx(&ctx->op, sizeof(*ctx));
}

static void *fc_rsa_sig_dupctx(void *vctx)
{
    const fc_rsa_sig_ctx *src = vctx;
    int ok;
    fc_rsa_sig_ctx *dst = fc_rsa_op_dupctx(&src->op, sizeof(*dst), &ok);

    if (dst == NULL)
        return NULL;
    dst->mdctx = NULL;
    ok &= fc_rsa_op_md_ref(&dst->md);
    ok &= fc_rsa_op_md_ref(&dst->mgf1_md);
    if (ok && src->mdctx != NULL) {
        dst->mdctx = EVP_MD_CTX_new();
        ok = dst->mdctx != NULL && EVP_MD_CTX_copy_ex(dst->mdctx, src->mdctx);
    }
    if (ok)
        return dst;
    FC_RAISE(src->op.prov, FC_R_MALLOC_FAILURE);
    fc_rsa_sig_freectx(dst);
    return NULL;
}

/* The native init, once the key and the operation are in place. */
static int fc_rsa_sig_native_init(fc_rsa_op *op, const OSSL_PARAM params[])
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;

    ctx->pad_mode = RSA_PKCS1_PADDING;
    ctx->saltlen = fc_pss_default_saltlen();
    ctx->min_saltlen = -1;
    if (op->rsa->pss && !fc_rsa_sig_init_pss(ctx))
        return 0;
    /* Unknown parameters, such as the "tls-version" OpenSSL 4.0 passes,
     * are ignored. */
    return fc_rsa_sig_set_ctx_params(op, params);
}

static int fc_rsa_sig_init(fc_rsa_op *op, void *provkey,
                           const OSSL_PARAM params[], int operation)
{
    return op != NULL &&
           fc_rsa_op_init(op, provkey, operation, params, &fc_rsa_sig_native);
}

static int fc_rsa_sig_sign_init(void *vctx, void *provkey,
                                const OSSL_PARAM params[])
{
    return fc_rsa_sig_init(vctx, provkey, params, EVP_PKEY_OP_SIGN);
}

static int fc_rsa_sig_verify_init(void *vctx, void *provkey,
                                  const OSSL_PARAM params[])
{
    return fc_rsa_sig_init(vctx, provkey, params, EVP_PKEY_OP_VERIFY);
}

static int fc_rsa_sig_verify_recover_init(void *vctx, void *provkey,
                                          const OSSL_PARAM params[])
{
    return fc_rsa_sig_init(vctx, provkey, params, EVP_PKEY_OP_VERIFYRECOVER);
}

/* ------------------------------------------------------------------------ */
/* Sign, verify, verify-recover                                             */

static int fc_rsa_sig_sign(fc_rsa_op *op, unsigned char *sig, size_t *siglen,
                           size_t sigsize, const unsigned char *tbs,
                           size_t tbslen)
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;
    fc_rsa_key *key;
    uint8_t em[FC_RSA_MAX_BYTES];
    size_t k;
    int ok = 0;

    key = ctx->op.rsa->key;
    k = fc_rsa_size(key);
    if (sig == NULL) {
        *siglen = k;
        return 1;
    }
    if (sigsize < k) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_OUTPUT_TOO_SMALL,
                      "is %zu, should be at least %zu", sigsize, k);
        return 0;
    }
    if (!fc_rsa_has_private(key)) {
        FC_RAISE(ctx->op.prov, FC_R_MISSING_PRIVATE_KEY);
        return 0;
    }
    if (ctx->md != NULL && tbslen != ctx->mdd->size) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_DIGEST_LENGTH,
                      "is %zu, should be %zu", tbslen, ctx->mdd->size);
        return 0;
    }
    if (ctx->md != NULL && ctx->mdd->octet &&
        ctx->pad_mode != RSA_PKCS1_PADDING) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PADDING_MODE,
                      "only PKCS#1 padding supported with MDC2");
        return 0;
    }
    switch (ctx->pad_mode) {
    case RSA_PKCS1_PADDING:
        /* Without a digest |tbs| is signed as it is. */
        if (!fc_rsa_pad_pkcs1_sign(ctx->op.prov, em, k, ctx->mdd, tbs, tbslen))
            goto done;
        break;
    case RSA_PKCS1_PSS_PADDING:
        if (ctx->md == NULL) { /* set_ctx_params always gives PSS one */
            FC_RAISE(ctx->op.prov, FC_R_INTERNAL);
            goto done;
        }
        if (!fc_rsa_sig_check_saltlen(ctx, ctx->saltlen, 0))
            goto done;
        if (!fc_rsa_pad_pss(ctx->op.prov, em, k, fc_rsa_bits(key), tbs, ctx->md,
                            fc_rsa_sig_mgf1(ctx), ctx->saltlen, fc_rsa_rand,
                            ctx->op.prov))
            goto done;
        break;
    case RSA_NO_PADDING:
        if (tbslen != k) {
            FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PARAMETER,
                          "%zu bytes, exactly %zu needed without padding",
                          tbslen, k);
            goto done;
        }
        memcpy(em, tbs, k);
        break;
    default:
        FC_RAISE(ctx->op.prov, FC_R_INVALID_PADDING_MODE);
        goto done;
    }
    if (!fc_rsa_private(key, sig, em, fc_rsa_rand, ctx->op.prov)) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_RSA_OPERATION_FAILED,
                      "private key operation failed (input >= n, RNG or "
                      "consistency check)");
        goto done;
    }
    /* Counted once made: not a size query, not a refusal. */
    fc_stat_add(ctx->op.prov, FC_STAT_RSA_SIGN, 1);
    *siglen = k;
    ok = 1;
done:
    OPENSSL_cleanse(em, sizeof(em));
    return ok;
}

/*
 * The public operation on a signature of at most k bytes (left-padded).
 * This is where a verification (or a recovery) is counted: once the public
 * operation has run, whatever the verdict on the block it gives, as a GCM
 * decryption counts with a tag that does not match; a signature refused
 * before (too long, not below n) is not.
 */
static int fc_rsa_sig_open(fc_rsa_sig_ctx *ctx, uint8_t *em, const uint8_t *sig,
                           size_t siglen)
{
    size_t k = fc_rsa_size(ctx->op.rsa->key);

    if (siglen > k) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_BAD_SIGNATURE,
                      "signature of %zu bytes for a %zu-byte key", siglen, k);
        return 0;
    }
    memset(em, 0, k - siglen);
    memcpy(em + k - siglen, sig, siglen);
    if (!fc_rsa_public(ctx->op.rsa->key, em, em)) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_BAD_SIGNATURE, "signature >= n");
        return 0;
    }
    fc_stat_add(ctx->op.prov, FC_STAT_RSA_VERIFY, 1);
    return 1;
}

static int fc_rsa_sig_verify(fc_rsa_op *op, const unsigned char *sig,
                             size_t siglen, const unsigned char *tbs,
                             size_t tbslen)
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;
    uint8_t em[FC_RSA_MAX_BYTES], want[FC_RSA_MAX_BYTES];
    const uint8_t *t;
    size_t k, tlen;

    k = fc_rsa_size(ctx->op.rsa->key);
    if (ctx->md != NULL && tbslen != ctx->mdd->size) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_DIGEST_LENGTH,
                      "is %zu, should be %zu", tbslen, ctx->mdd->size);
        return 0;
    }
    switch (ctx->pad_mode) {
    case RSA_PKCS1_PADDING:
        if (ctx->md != NULL) {
            /* RFC 8017 8.2.2: encode what we expect, compare it all. */
            if (siglen != k) {
                FC_RAISE_DATA(ctx->op.prov, FC_R_BAD_SIGNATURE,
                              "wrong signature length %zu", siglen);
                return 0;
            }
            /* The expected block first: a key too small for it refuses
             * before any operation runs. */
            if (!fc_rsa_pad_pkcs1_sign(ctx->op.prov, want, k, ctx->mdd, tbs,
                                       tbslen) ||
                !fc_rsa_sig_open(ctx, em, sig, siglen))
                return 0;
            if (memcmp(em, want, k) != 0 &&
                !(fc_rsa_pad_pkcs1_sign_alt(ctx->op.prov, want, k, ctx->mdd,
                                            tbs, tbslen) &&
                  memcmp(em, want, k) == 0))
                goto bad;
            return 1;
        }
        if (!fc_rsa_sig_open(ctx, em, sig, siglen))
            return 0;
        if (!fc_rsa_unpad_pkcs1_sign(em, k, &t, &tlen) || tlen != tbslen ||
            memcmp(t, tbs, tlen) != 0)
            goto bad;
        return 1;
    case RSA_PKCS1_PSS_PADDING:
        if (ctx->md == NULL) {
            FC_RAISE(ctx->op.prov, FC_R_INTERNAL);
            return 0;
        }
        return fc_rsa_sig_open(ctx, em, sig, siglen) &&
               fc_rsa_verify_pss(ctx->op.prov, em, k,
                                 fc_rsa_bits(ctx->op.rsa->key), tbs, ctx->md,
                                 fc_rsa_sig_mgf1(ctx), ctx->saltlen);
    case RSA_NO_PADDING:
        if (!fc_rsa_sig_open(ctx, em, sig, siglen))
            return 0;
        if (tbslen != k || memcmp(em, tbs, k) != 0)
            goto bad;
        return 1;
    default:
        FC_RAISE(ctx->op.prov, FC_R_INVALID_PADDING_MODE);
        return 0;
    }
bad:
    FC_RAISE(ctx->op.prov, FC_R_BAD_SIGNATURE);
    return 0;
}

static int fc_rsa_sig_verify_recover(fc_rsa_op *op, unsigned char *rout,
                                     size_t *routlen, size_t routsize,
                                     const unsigned char *sig, size_t siglen)
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;
    uint8_t em[FC_RSA_MAX_BYTES], want[FC_RSA_MAX_BYTES];
    const uint8_t *t;
    size_t k, tlen;

    k = fc_rsa_size(ctx->op.rsa->key);
    if (rout == NULL) {
        *routlen = k;
        return 1;
    }
    /* With a digest the signature is exactly k bytes (RFC 8017 8.2.2 step
     * 1), as default's verify-recover requires; without one a shorter
     * input is a smaller number, as RSA_public_decrypt takes it. */
    if (ctx->pad_mode == RSA_PKCS1_PADDING && ctx->md != NULL && siglen != k) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_BAD_SIGNATURE,
                      "wrong signature length %zu", siglen);
        return 0;
    }
    if (!fc_rsa_sig_open(ctx, em, sig, siglen))
        return 0;
    switch (ctx->pad_mode) {
    case RSA_PKCS1_PADDING:
        if (!fc_rsa_unpad_pkcs1_sign(em, k, &t, &tlen))
            goto bad;
        if (ctx->md != NULL) {
            /* The hash is the tail of T; the block must be exactly what
             * signing that hash would have produced (for MDC-2 either of
             * its two forms). */
            const uint8_t *h;

            if (tlen < ctx->mdd->size)
                goto bad;
            h = t + tlen - ctx->mdd->size;
            if (!fc_rsa_pad_pkcs1_sign(ctx->op.prov, want, k, ctx->mdd, h,
                                       ctx->mdd->size))
                goto bad;
            if (memcmp(em, want, k) != 0 &&
                !(fc_rsa_pad_pkcs1_sign_alt(ctx->op.prov, want, k, ctx->mdd, h,
                                            ctx->mdd->size) &&
                  memcmp(em, want, k) == 0))
                goto bad;
            t += tlen - ctx->mdd->size;
            tlen = ctx->mdd->size;
        }
        break;
    case RSA_NO_PADDING:
        if (ctx->md != NULL) {
            FC_RAISE(ctx->op.prov, FC_R_INVALID_PADDING_MODE);
            return 0;
        }
        t = em;
        tlen = k;
        break;
    default:
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PADDING_MODE,
                      "only PKCS#1 v1.5 or no padding can be recovered");
        return 0;
    }
    if (routsize < tlen) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_OUTPUT_TOO_SMALL,
                      "buffer size is %zu, should be %zu", routsize, tlen);
        return 0;
    }
    memmove(rout, t, tlen);
    *routlen = tlen;
    return 1;
bad:
    FC_RAISE(ctx->op.prov, FC_R_BAD_SIGNATURE);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Digest-sign / digest-verify                                              */

/* The native digest-sign or digest-verify init, once the key and the
 * operation are in place. */
static int fc_rsa_sig_native_digest_init(fc_rsa_op *op, const char *mdname,
                                         const OSSL_PARAM params[])
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;

    if (!fc_rsa_sig_native_init(op, params))
        return 0;
    /* The digest may already be in place from |params|. */
    if (mdname != NULL &&
        (mdname[0] == '\0' || strcasecmp(ctx->mdname, mdname) != 0) &&
        !fc_rsa_sig_setup_md(ctx, mdname, NULL))
        return 0;
    if (ctx->md == NULL) {
        FC_RAISE_DATA(op->prov, FC_R_INVALID_DIGEST, "no digest set");
        return 0;
    }
    ctx->allow_md = 0;
    if (ctx->mdctx == NULL && (ctx->mdctx = EVP_MD_CTX_new()) == NULL) {
        FC_RAISE(op->prov, FC_R_MALLOC_FAILURE);
        return 0;
    }
    if (!EVP_DigestInit_ex2(ctx->mdctx, ctx->md, params)) {
        EVP_MD_CTX_free(ctx->mdctx);
        ctx->mdctx = NULL;
        return 0;
    }
    return 1;
}

static int fc_rsa_sig_digest_init(fc_rsa_op *op, const char *mdname,
                                  void *provkey, const OSSL_PARAM params[],
                                  int operation)
{
    return op != NULL && fc_rsa_op_digest_init(op, provkey, operation, mdname,
                                               params, &fc_rsa_sig_native);
}

static int fc_rsa_sig_digest_sign_init(void *vctx, const char *mdname,
                                       void *provkey, const OSSL_PARAM params[])
{
    return fc_rsa_sig_digest_init(vctx, mdname, provkey, params,
                                  EVP_PKEY_OP_SIGN);
}

static int fc_rsa_sig_digest_verify_init(void *vctx, const char *mdname,
                                         void *provkey,
                                         const OSSL_PARAM params[])
{
    return fc_rsa_sig_digest_init(vctx, mdname, provkey, params,
                                  EVP_PKEY_OP_VERIFY);
}

static int fc_rsa_sig_digest_update(fc_rsa_op *op, const unsigned char *data,
                                    size_t datalen)
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;

    return ctx->mdctx != NULL && EVP_DigestUpdate(ctx->mdctx, data, datalen);
}

static int fc_rsa_sig_digest_sign_final(fc_rsa_op *op, unsigned char *sig,
                                        size_t *siglen, size_t sigsize)
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;
    uint8_t digest[EVP_MAX_MD_SIZE];
    unsigned int dlen = 0;

    ctx->allow_md = 1;
    /* The digest context exists only once a key was set; both are checked
     * here rather than trusted (fc_rsa_sig_sign reads the key). */
    if (ctx->mdctx == NULL || op->rsa == NULL)
        return 0;
    /* A size query must not finalise the digest. */
    if (sig != NULL && !EVP_DigestFinal_ex(ctx->mdctx, digest, &dlen))
        return 0;
    return fc_rsa_sig_sign(op, sig, siglen, sigsize, digest, dlen);
}

static int fc_rsa_sig_digest_verify_final(fc_rsa_op *op,
                                          const unsigned char *sig,
                                          size_t siglen)
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;
    uint8_t digest[EVP_MAX_MD_SIZE];
    unsigned int dlen = 0;

    ctx->allow_md = 1;
    if (ctx->mdctx == NULL || op->rsa == NULL ||
        !EVP_DigestFinal_ex(ctx->mdctx, digest, &dlen))
        return 0;
    return fc_rsa_sig_verify(op, sig, siglen, digest, dlen);
}

static const fc_rsa_op_impl fc_rsa_sig_native = {
    .init = fc_rsa_sig_native_init,
    .digest_init = fc_rsa_sig_native_digest_init,
    .sign = fc_rsa_sig_sign,
    .verify = fc_rsa_sig_verify,
    .verify_recover = fc_rsa_sig_verify_recover,
    .digest_update = fc_rsa_sig_digest_update,
    .digest_sign_final = fc_rsa_sig_digest_sign_final,
    .digest_verify_final = fc_rsa_sig_digest_verify_final,
    .get_ctx_params = fc_rsa_sig_get_ctx_params,
    .set_ctx_params = fc_rsa_sig_set_ctx_params,
    .get_md_params = fc_rsa_sig_get_md_params,
    .set_md_params = fc_rsa_sig_set_md_params,
    .gettable_md_params = fc_rsa_sig_gettable_md_params,
    .settable_md_params = fc_rsa_sig_settable_md_params,
};

const OSSL_DISPATCH fc_rsa_signature_functions[] = {
    FC_FN(SIGNATURE_NEWCTX, fc_rsa_sig_newctx),
    FC_FN(SIGNATURE_FREECTX, fc_rsa_sig_freectx),
    FC_FN(SIGNATURE_DUPCTX, fc_rsa_sig_dupctx),
    FC_FN(SIGNATURE_SIGN_INIT, fc_rsa_sig_sign_init),
    FC_FN(SIGNATURE_SIGN, fc_rsa_op_sign),
    FC_FN(SIGNATURE_VERIFY_INIT, fc_rsa_sig_verify_init),
    FC_FN(SIGNATURE_VERIFY, fc_rsa_op_verify),
    FC_FN(SIGNATURE_VERIFY_RECOVER_INIT, fc_rsa_sig_verify_recover_init),
    FC_FN(SIGNATURE_VERIFY_RECOVER, fc_rsa_op_verify_recover),
    FC_FN(SIGNATURE_DIGEST_SIGN_INIT, fc_rsa_sig_digest_sign_init),
    FC_FN(SIGNATURE_DIGEST_SIGN_UPDATE, fc_rsa_op_digest_update),
    FC_FN(SIGNATURE_DIGEST_SIGN_FINAL, fc_rsa_op_digest_sign_final),
    FC_FN(SIGNATURE_DIGEST_VERIFY_INIT, fc_rsa_sig_digest_verify_init),
    FC_FN(SIGNATURE_DIGEST_VERIFY_UPDATE, fc_rsa_op_digest_update),
    FC_FN(SIGNATURE_DIGEST_VERIFY_FINAL, fc_rsa_op_digest_verify_final),
    FC_FN(SIGNATURE_GET_CTX_PARAMS, fc_rsa_op_get_ctx_params),
    FC_FN(SIGNATURE_GETTABLE_CTX_PARAMS, fc_rsa_sig_gettable_ctx_params),
    FC_FN(SIGNATURE_SET_CTX_PARAMS, fc_rsa_op_set_ctx_params),
    FC_FN(SIGNATURE_SETTABLE_CTX_PARAMS, fc_rsa_sig_settable_ctx_params),
    FC_FN(SIGNATURE_GET_CTX_MD_PARAMS, fc_rsa_op_get_ctx_md_params),
    FC_FN(SIGNATURE_GETTABLE_CTX_MD_PARAMS, fc_rsa_op_gettable_ctx_md_params),
    FC_FN(SIGNATURE_SET_CTX_MD_PARAMS, fc_rsa_op_set_ctx_md_params),
    FC_FN(SIGNATURE_SETTABLE_CTX_MD_PARAMS, fc_rsa_op_settable_ctx_md_params),
    OSSL_DISPATCH_END,
};
