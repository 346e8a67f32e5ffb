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
 * (fc_rsa_op_fetch_md: the newctx property query first, then none).
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

typedef struct fc_rsa_sig_ctx {
    fc_rsa_op op;    /* first: key, EVP_PKEY_OP_SIGN, _VERIFY or
                      * _VERIFYRECOVER, newctx's property query, ... */
    int pad_mode;    /* RSA_PKCS1_PADDING, RSA_NO_PADDING, RSA_PKCS1_PSS_... */
    int saltlen;     /* PSS: >= 0 or FC_PSS_SALTLEN_* */
    int min_saltlen; /* a restricted RSA-PSS key's minimum, else -1 */
    /* The digest may not change between digest-sign init and final. */
    int allow_md;
    int mgf1_set; /* else MGF1 follows the main digest */
    EVP_MD *md;
    const fc_rsa_md_desc *mdd;
    char mdname[FC_MDNAME_MAX]; /* as the caller spelled it */
    EVP_MD *mgf1_md;
    const fc_rsa_md_desc *mgf1d;
    char mgf1_mdname[FC_MDNAME_MAX];
    EVP_MD_CTX *mdctx; /* digest-sign/verify streaming state */
} fc_rsa_sig_ctx;

FC_DISPATCH(signature, newctx, fc_rsa_sig_newctx);
FC_DISPATCH(signature, freectx, fc_rsa_sig_freectx);
FC_DISPATCH(signature, dupctx, fc_rsa_sig_dupctx);
FC_DISPATCH(signature, sign_init, fc_rsa_sig_sign_init);
FC_DISPATCH(signature, verify_init, fc_rsa_sig_verify_init);
FC_DISPATCH(signature, verify_recover_init, fc_rsa_sig_verify_recover_init);
FC_DISPATCH(signature, digest_sign_init, fc_rsa_sig_digest_sign_init);
FC_DISPATCH(signature, digest_verify_init, fc_rsa_sig_digest_verify_init);
FC_DISPATCH(signature, gettable_ctx_params, fc_rsa_sig_gettable_ctx_params);
FC_DISPATCH(signature, settable_ctx_params, fc_rsa_sig_settable_ctx_params);

/* The native implementation (the end of this file). */
static const fc_rsa_op_impl fc_rsa_sig_native;
static int fc_rsa_sig_set_ctx_params(fc_rsa_op *op, const OSSL_PARAM params[]);

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

/* ------------------------------------------------------------------------ */
/* Digests                                                                  */

/* Sets the main digest (and MGF1's, unless set explicitly). */
static int fc_rsa_sig_setup_md(fc_rsa_sig_ctx *ctx, const char *name,
                               const char *props)
{
    const fc_rsa_md_desc *d;
    EVP_MD *md;

    if (strlen(name) >= sizeof(ctx->mdname)) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_DIGEST, "%s", name);
        return 0;
    }
    if ((md = fc_rsa_op_fetch_md(&ctx->op, name, props)) == NULL)
        return 0;
    d = fc_rsa_md_lookup(md);
    if (d == NULL) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_DIGEST_NOT_ALLOWED, "digest=%s", name);
        goto err;
    }
    if (ctx->pad_mode == RSA_NO_PADDING) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PADDING_MODE,
                      "no digest allowed without padding");
        goto err;
    }
    /* A restricted RSA-PSS key signs with its own hash only. */
    if (ctx->min_saltlen != -1 && ctx->md != NULL &&
        !EVP_MD_is_a(ctx->md, name)) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_DIGEST_NOT_ALLOWED,
                      "%s: the key allows %s only", name, ctx->mdname);
        goto err;
    }
    if (!ctx->allow_md) {
        /* Mid-stream: only a restatement of the same digest is fine. */
        if (ctx->mdname[0] != '\0' && !EVP_MD_is_a(md, ctx->mdname)) {
            FC_RAISE_DATA(ctx->op.prov, FC_R_DIGEST_NOT_ALLOWED,
                          "digest %s != %s", name, ctx->mdname);
            goto err;
        }
        EVP_MD_free(md);
        return 1;
    }
    EVP_MD_CTX_free(ctx->mdctx);
    ctx->mdctx = NULL;
    EVP_MD_free(ctx->md);
    ctx->md = md;
    ctx->mdd = d;
    strcpy(ctx->mdname, name);
    return 1;
err:
    EVP_MD_free(md);
    return 0;
}

static int fc_rsa_sig_setup_mgf1(fc_rsa_sig_ctx *ctx, const char *name,
                                 const char *props)
{
    const fc_rsa_md_desc *d;
    EVP_MD *md;

    if (strlen(name) >= sizeof(ctx->mgf1_mdname)) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_DIGEST, "%s", name);
        return 0;
    }
    if ((md = fc_rsa_op_fetch_md(&ctx->op, name, props)) == NULL)
        return 0;
    d = fc_rsa_md_lookup(md);
    if (d == NULL || (ctx->min_saltlen != -1 && ctx->mgf1_md != NULL &&
                      !EVP_MD_is_a(ctx->mgf1_md, name))) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_DIGEST_NOT_ALLOWED, "mgf1 digest=%s",
                      name);
        EVP_MD_free(md);
        return 0;
    }
    EVP_MD_free(ctx->mgf1_md);
    ctx->mgf1_md = md;
    ctx->mgf1d = d;
    strcpy(ctx->mgf1_mdname, name);
    ctx->mgf1_set = 1;
    return 1;
}

static const EVP_MD *fc_rsa_sig_mgf1(const fc_rsa_sig_ctx *ctx)
{
    return ctx->mgf1_set ? ctx->mgf1_md : ctx->md;
}

/* ------------------------------------------------------------------------ */
/* Init                                                                     */

/*
 * An RSA-PSS key signs with PSS only; a restricted one (fc_rsa_pss_params)
 * with its hash and MGF1 hash, and a salt no shorter than its minimum,
 * which is also the salt length until one is set. As default: a minimum
 * the key cannot hold (longer than k - hLen, one less when the modulus has
 * 8m + 1 bits) makes the key unusable.
 */
static int fc_rsa_sig_init_pss(fc_rsa_sig_ctx *ctx)
{
    const fc_rsa_pss_params *pss = &ctx->op.rsa->pss_params;
    const fc_rsa_key *key = ctx->op.rsa->key;
    int max;

    ctx->pad_mode = RSA_PKCS1_PSS_PADDING;
    if (!pss->restricted)
        return 1;
    /* digest and MGF1 digest from the key, before the restriction holds */
    ctx->mgf1_set = 0;
    if (!fc_rsa_sig_setup_mgf1(ctx, fc_rsa_pss_md_name(pss->mgf1_nid), NULL) ||
        !fc_rsa_sig_setup_md(ctx, fc_rsa_pss_md_name(pss->md_nid), NULL))
        return 0;
    max = (int)fc_rsa_size(key) - (int)ctx->mdd->size -
          ((fc_rsa_bits(key) & 7) == 1);
    if (pss->saltlen < 0 || pss->saltlen > max) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_SALT_LENGTH,
                      "the key's minimum salt length %d, at most %d here",
                      pss->saltlen, max);
        return 0;
    }
    ctx->saltlen = pss->saltlen;
    ctx->min_saltlen = pss->saltlen;
    return 1;
}

/*
 * fc_rsa_sig_check_saltlen checks a restricted key's salt length |saltlen|
 * as default checks it when it is set (|setting|) and when signing. The
 * autodetected lengths, when set, are refused as the running library's
 * default refuses them: 3.0 refuses "auto" for verification, 3.1 to 3.3
 * also "auto-digestmax", and 3.4+ refuses both for everything but
 * verification (its message-signing rework turned the test around).
 * Where an autodetected length is taken for verification, the salt length
 * recovered from the signature is not held to the key's minimum: default
 * (3.4 to 3.6.3) takes any, and so do we (test_pss_restricted_verify).
 * Returns 1, or 0 with the error raised.
 */
static int fc_rsa_sig_check_saltlen(fc_rsa_sig_ctx *ctx, int saltlen,
                                    int setting)
{
    unsigned long ver = OpenSSL_version_num();

    if (ctx->min_saltlen == -1)
        return 1;
    if (setting && (saltlen == FC_PSS_SALTLEN_AUTO ||
                    (saltlen == FC_PSS_SALTLEN_AUTO_DIGESTMAX &&
                     fc_ossl_at_least(ver, 3, 1)))) {
        int verify = ctx->op.operation == EVP_PKEY_OP_VERIFY;

        if (fc_ossl_at_least(ver, 3, 4) ? !verify : verify) {
            FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_SALT_LENGTH,
                          "Cannot use autodetected salt length");
            return 0;
        }
    }
    if (saltlen == FC_PSS_SALTLEN_DIGEST && ctx->mdd != NULL &&
        ctx->min_saltlen > (int)ctx->mdd->size) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_PSS_SALTLEN_TOO_SMALL,
                      "minimum salt length %d, the digest gives %zu",
                      ctx->min_saltlen, ctx->mdd->size);
        return 0;
    }
    if (saltlen >= 0 && saltlen < ctx->min_saltlen) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_PSS_SALTLEN_TOO_SMALL,
                      "minimum salt length %d, set to %d", ctx->min_saltlen,
                      saltlen);
        return 0;
    }
    return 1;
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

    if (op->rsa == NULL) {
        FC_RAISE(op->prov, FC_R_NO_KEY_SET);
        return 0;
    }
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

    if (op->rsa == NULL) {
        FC_RAISE(op->prov, FC_R_NO_KEY_SET);
        return 0;
    }
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

    if (op->rsa == NULL) {
        FC_RAISE(op->prov, FC_R_NO_KEY_SET);
        return 0;
    }
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
    if (ctx->mdctx == NULL)
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
    if (ctx->mdctx == NULL || !EVP_DigestFinal_ex(ctx->mdctx, digest, &dlen))
        return 0;
    return fc_rsa_sig_verify(op, sig, siglen, digest, dlen);
}

/* ------------------------------------------------------------------------ */
/* Parameters                                                               */

static const OSSL_ITEM fc_rsa_sig_pads[] = {
    {RSA_PKCS1_PADDING, OSSL_PKEY_RSA_PAD_MODE_PKCSV15},
    {RSA_NO_PADDING, OSSL_PKEY_RSA_PAD_MODE_NONE},
    {RSA_X931_PADDING, OSSL_PKEY_RSA_PAD_MODE_X931},
    {RSA_PKCS1_PSS_PADDING, OSSL_PKEY_RSA_PAD_MODE_PSS},
    {0, NULL},
};

static const struct {
    int value;
    const char *name;
} fc_rsa_saltlens[] = {
    {FC_PSS_SALTLEN_DIGEST, OSSL_PKEY_RSA_PSS_SALT_LEN_DIGEST},
    {FC_PSS_SALTLEN_MAX, OSSL_PKEY_RSA_PSS_SALT_LEN_MAX},
    {FC_PSS_SALTLEN_AUTO, OSSL_PKEY_RSA_PSS_SALT_LEN_AUTO},
    {FC_PSS_SALTLEN_AUTO_DIGESTMAX, "auto-digestmax"},
};

/* The AlgorithmIdentifier of the signature this context makes. */
static size_t fc_rsa_sig_algid(fc_rsa_sig_ctx *ctx, uint8_t *out, size_t cap)
{
    int sl;

    if (ctx->md == NULL || ctx->op.rsa == NULL) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_DIGEST,
                      "algorithm-id needs a key and a digest");
        return 0;
    }
    switch (ctx->pad_mode) {
    case RSA_PKCS1_PADDING:
        if (ctx->mdd->sig_oid == NULL)
            break;
        return fc_rsa_der_algid(out, cap, ctx->mdd->sig_oid,
                                ctx->mdd->sig_oid_len);
    case RSA_PKCS1_PSS_PADDING:
        /* The salt length a signature made now would have; like the
         * default provider, an explicit or digest-sized salt is stated as
         * is, even if the key is too small for it. */
        sl = ctx->saltlen;
        if (sl == FC_PSS_SALTLEN_DIGEST)
            sl = (int)ctx->mdd->size;
        else if (sl < 0)
            sl = fc_rsa_pss_saltlen_sign(ctx->op.prov, sl, ctx->mdd->size,
                                         fc_rsa_bits(ctx->op.rsa->key));
        if (sl < 0)
            return 0;
        if (ctx->min_saltlen != -1 && sl < ctx->min_saltlen) {
            FC_RAISE_DATA(ctx->op.prov, FC_R_PSS_SALTLEN_TOO_SMALL,
                          "minimum salt length %d, actual %d", ctx->min_saltlen,
                          sl);
            return 0;
        }
        return fc_rsa_pss_algid(out, cap, ctx->mdd,
                                ctx->mgf1_set ? ctx->mgf1d : ctx->mdd, sl);
    }
    FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PADDING_MODE,
                  "no algorithm identifier for this digest and padding");
    return 0;
}

static int fc_rsa_sig_get_ctx_params(fc_rsa_op *op, OSSL_PARAM params[])
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;
    OSSL_PARAM *p;

    p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID);
    if (p != NULL) {
        uint8_t aid[128];
        size_t len = fc_rsa_sig_algid(ctx, aid, sizeof(aid));

        if (len == 0 || !OSSL_PARAM_set_octet_string(p, aid, len))
            return 0;
    }
    p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PAD_MODE);
    if (p != NULL && !fc_rsa_op_write_pad(p, fc_rsa_sig_pads, ctx->pad_mode))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DIGEST);
    if (p != NULL && !OSSL_PARAM_set_utf8_string(p, ctx->mdname))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST);
    if (p != NULL && !OSSL_PARAM_set_utf8_string(
                         p, ctx->mgf1_set ? ctx->mgf1_mdname : ctx->mdname))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN);
    if (p != NULL) {
        if (p->data_type == OSSL_PARAM_INTEGER) {
            if (!OSSL_PARAM_set_int(p, ctx->saltlen))
                return 0;
        } else if (p->data_type == OSSL_PARAM_UTF8_STRING) {
            char num[16];
            const char *word = NULL;

            for (size_t i = 0; i < FC_ARRAY_LEN(fc_rsa_saltlens); i++)
                if (fc_rsa_saltlens[i].value == ctx->saltlen)
                    word = fc_rsa_saltlens[i].name;
            if (word == NULL) {
                snprintf(num, sizeof(num), "%d", ctx->saltlen);
                word = num;
            }
            if (!OSSL_PARAM_set_utf8_string(p, word))
                return 0;
        } else {
            return 0;
        }
    }
    return 1;
}

static const OSSL_PARAM *fc_rsa_sig_gettable_ctx_params(void *vctx,
                                                        void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
        OSSL_PARAM_END,
    };
    return params;
}

static int fc_rsa_sig_set_ctx_params(fc_rsa_op *op, const OSSL_PARAM params[])
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;
    const OSSL_PARAM *p;
    char mdname[FC_MDNAME_MAX], mdprops[FC_PROPQ_MAX];
    char mgf1name[FC_MDNAME_MAX], mgf1props[FC_PROPQ_MAX];
    const char *pmd = NULL, *pmdprops = NULL, *pmgf1 = NULL, *pmgf1props = NULL;
    int pad_mode, saltlen;

    if (params == NULL)
        return 1;
    pad_mode = ctx->pad_mode;
    saltlen = ctx->saltlen;

    /* Everything is read and checked first, then applied. */
    if (!fc_rsa_op_read_md(params, OSSL_SIGNATURE_PARAM_DIGEST,
                           OSSL_SIGNATURE_PARAM_PROPERTIES, mdname, mdprops,
                           &pmd, &pmdprops))
        return 0;
    p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PAD_MODE);
    if (p != NULL) {
        if (!fc_rsa_op_read_pad(p, fc_rsa_sig_pads, &pad_mode))
            return 0;
        switch (pad_mode) {
        case RSA_PKCS1_PADDING:
        case RSA_NO_PADDING:
            if (op->rsa != NULL && op->rsa->pss) {
                FC_RAISE_DATA(ctx->op.prov, FC_R_ILLEGAL_PADDING_MODE,
                              "%s padding not allowed with RSA-PSS",
                              pad_mode == RSA_NO_PADDING ? "No" : "PKCS#1");
                return 0;
            }
            break;
        case RSA_PKCS1_PSS_PADDING:
            if (ctx->op.operation != EVP_PKEY_OP_SIGN &&
                ctx->op.operation != EVP_PKEY_OP_VERIFY) {
                FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PADDING_MODE,
                              "PSS only for sign and verify");
                return 0;
            }
            break;
        default:
            FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PADDING_MODE,
                          "pad mode %d not supported for signatures", pad_mode);
            return 0;
        }
    }
    p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN);
    if (p != NULL) {
        if (pad_mode != RSA_PKCS1_PSS_PADDING) {
            FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_SALT_LENGTH,
                          "PSS saltlen can only be set with PSS padding");
            return 0;
        }
        if (p->data_type == OSSL_PARAM_INTEGER) {
            if (!OSSL_PARAM_get_int(p, &saltlen))
                return 0;
        } else if (p->data_type == OSSL_PARAM_UTF8_STRING && p->data != NULL) {
            const char *s = p->data;
            char *end;
            long v;
            size_t i;

            for (i = 0; i < FC_ARRAY_LEN(fc_rsa_saltlens); i++)
                if (strcmp(s, fc_rsa_saltlens[i].name) == 0)
                    break;
            if (i < FC_ARRAY_LEN(fc_rsa_saltlens)) {
                saltlen = fc_rsa_saltlens[i].value;
            } else {
                v = strtol(s, &end, 10);
                if (end == s || *end != '\0' || v < -4 || v > 0x7fffffffL) {
                    FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_SALT_LENGTH,
                                  "\"%s\"", s);
                    return 0;
                }
                saltlen = (int)v;
            }
        } else {
            return 0;
        }
        /* "auto-digestmax" (-4) exists from 3.1 on; the default provider of
         * 3.0 refuses -4 (and reads the name as 0: refused here). */
        if (saltlen < FC_PSS_SALTLEN_AUTO_DIGESTMAX ||
            (saltlen == FC_PSS_SALTLEN_AUTO_DIGESTMAX &&
             !fc_ossl_at_least(OpenSSL_version_num(), 3, 1))) {
            FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_SALT_LENGTH, "%d",
                          saltlen);
            return 0;
        }
        if (!fc_rsa_sig_check_saltlen(ctx, saltlen, 1))
            return 0;
    }
    /* The default provider's answer, which programs match on. */
    p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST);
    if (p != NULL && pad_mode != RSA_PKCS1_PSS_PADDING) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_MGF1_MD,
                      "an MGF1 digest needs PSS padding");
        return 0;
    }
    if (!fc_rsa_op_read_md(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST,
                           OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, mgf1name,
                           mgf1props, &pmgf1, &pmgf1props))
        return 0;

    ctx->pad_mode = pad_mode;
    ctx->saltlen = saltlen;
    /* PSS needs a digest: SHA-1 unless one is given (RFC 8017 default). */
    if (ctx->md == NULL && pmd == NULL && pad_mode == RSA_PKCS1_PSS_PADDING)
        pmd = "SHA1";
    if (pmgf1 != NULL && !fc_rsa_sig_setup_mgf1(ctx, pmgf1, pmgf1props))
        return 0;
    if (pmd != NULL)
        return fc_rsa_sig_setup_md(ctx, pmd, pmdprops);
    if (pad_mode == RSA_NO_PADDING && ctx->md != NULL) {
        FC_RAISE_DATA(ctx->op.prov, FC_R_INVALID_PADDING_MODE,
                      "no padding is not allowed with a digest");
        return 0;
    }
    return 1;
}

static const OSSL_PARAM *fc_rsa_sig_settable_ctx_params(void *vctx,
                                                        void *provctx)
{
    static const OSSL_PARAM all[] = {
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PROPERTIES, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
        OSSL_PARAM_END,
    };
    /* Mid digest-sign, the digest is no longer settable. */
    static const OSSL_PARAM no_digest[] = {
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
        OSSL_PARAM_END,
    };
    const fc_rsa_sig_ctx *ctx = vctx;

    return ctx != NULL && !ctx->allow_md ? no_digest : all;
}

static int fc_rsa_sig_get_md_params(fc_rsa_op *op, OSSL_PARAM params[])
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;

    return ctx->mdctx != NULL && EVP_MD_CTX_get_params(ctx->mdctx, params);
}

static int fc_rsa_sig_set_md_params(fc_rsa_op *op, const OSSL_PARAM params[])
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;

    return ctx->mdctx != NULL && EVP_MD_CTX_set_params(ctx->mdctx, params);
}

static const OSSL_PARAM *fc_rsa_sig_gettable_md_params(fc_rsa_op *op)
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;

    return ctx->md != NULL ? EVP_MD_gettable_ctx_params(ctx->md) : NULL;
}

static const OSSL_PARAM *fc_rsa_sig_settable_md_params(fc_rsa_op *op)
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;

    return ctx->md != NULL ? EVP_MD_settable_ctx_params(ctx->md) : NULL;
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
    {OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))fc_rsa_sig_newctx},
    {OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))fc_rsa_sig_freectx},
    {OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))fc_rsa_sig_dupctx},
    {OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))fc_rsa_sig_sign_init},
    {OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))fc_rsa_op_sign},
    {OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))fc_rsa_sig_verify_init},
    {OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))fc_rsa_op_verify},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER_INIT,
     (void (*)(void))fc_rsa_sig_verify_recover_init},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER,
     (void (*)(void))fc_rsa_op_verify_recover},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT,
     (void (*)(void))fc_rsa_sig_digest_sign_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE,
     (void (*)(void))fc_rsa_op_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL,
     (void (*)(void))fc_rsa_op_digest_sign_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT,
     (void (*)(void))fc_rsa_sig_digest_verify_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE,
     (void (*)(void))fc_rsa_op_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL,
     (void (*)(void))fc_rsa_op_digest_verify_final},
    {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS,
     (void (*)(void))fc_rsa_op_get_ctx_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS,
     (void (*)(void))fc_rsa_sig_gettable_ctx_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS,
     (void (*)(void))fc_rsa_op_set_ctx_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS,
     (void (*)(void))fc_rsa_sig_settable_ctx_params},
    {OSSL_FUNC_SIGNATURE_GET_CTX_MD_PARAMS,
     (void (*)(void))fc_rsa_op_get_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_MD_PARAMS,
     (void (*)(void))fc_rsa_op_gettable_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_MD_PARAMS,
     (void (*)(void))fc_rsa_op_set_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_MD_PARAMS,
     (void (*)(void))fc_rsa_op_settable_ctx_md_params},
    OSSL_DISPATCH_END,
};
