/* SPDX-License-Identifier: Apache-2.0 */
/*
 * signature_rsa_params.c - the RSA signature's digests and context
 * parameters (signature_rsa.h; the operations are signature_rsa.c's):
 *   - "digest" (with "properties") and "mgf1-digest" (with
 *     "mgf1-properties", PSS only: FC_R_INVALID_MGF1_MD otherwise) are
 *     fetched under rsa_op.h's policy and must be digests PKCS#1 knows
 *     (FC_R_DIGEST_NOT_ALLOWED); no digest without padding
 *     (FC_R_INVALID_PADDING_MODE); PSS without a digest takes SHA-1. Mid
 *     digest-sign only a restatement of the digest is taken, and the
 *     settable list leaves the digest out.
 *   - "pad-mode" as an integer or a name: PKCS#1 v1.5 and none (not for
 *     RSA-PSS keys, FC_R_ILLEGAL_PADDING_MODE), PSS (sign and verify only).
 *   - "saltlen" (PSS only) as an integer or "digest", "max", "auto",
 *     "auto-digestmax" (3.1+ only, as default) or a number from -4 up; a
 *     restricted RSA-PSS key's minimum and autodetection rules are
 *     enforced as the running library's default enforces them
 *     (fc_rsa_sig_check_saltlen).
 *   - Parameters are all read and checked before any is applied.
 *   - get_ctx_params answers "algorithm-id" (the DER AlgorithmIdentifier a
 *     signature made now would carry), "pad-mode" (an integer, or its
 *     name), "digest", "mgf1-digest" and "saltlen" (an integer, or its name
 *     or number).
 *   - The digest parameters of a digest-sign go to its digest context.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ------------------------------------------------------------------------ */
/* Digests                                                                  */

/* see signature_rsa.h */
int fc_rsa_sig_setup_md(fc_rsa_sig_ctx *ctx, const char *name,
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

/* ------------------------------------------------------------------------ */
/* Init                                                                     */

/* see signature_rsa.h */
int fc_rsa_sig_init_pss(fc_rsa_sig_ctx *ctx)
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
 * (signature_rsa.h) fc_rsa_sig_check_saltlen checks a restricted key's salt
 * length |saltlen| as default checks it when it is set (|setting|) and when
 * signing. The autodetected lengths, when set, are refused as the running
 * library's default refuses them: 3.0 refuses "auto" for verification, 3.1
 * to 3.3 also "auto-digestmax", and 3.4+ refuses both for everything but
 * verification (its message-signing rework turned the test around).
 * Where an autodetected length is taken for verification, the salt length
 * recovered from the signature is not held to the key's minimum: default
 * (3.4 to 3.6.3) takes any, and so do we (test_pss_restricted_verify).
 * Returns 1, or 0 with the error raised.
 */
int fc_rsa_sig_check_saltlen(fc_rsa_sig_ctx *ctx, int saltlen, int setting)
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

/* see signature_rsa.h */
int fc_rsa_sig_get_ctx_params(fc_rsa_op *op, OSSL_PARAM params[])
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

/* see signature_rsa.h */
const OSSL_PARAM *fc_rsa_sig_gettable_ctx_params(void *vctx, void *provctx)
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

/* see signature_rsa.h */
int fc_rsa_sig_set_ctx_params(fc_rsa_op *op, const OSSL_PARAM params[])
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

/* see signature_rsa.h */
const OSSL_PARAM *fc_rsa_sig_settable_ctx_params(void *vctx, void *provctx)
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

/* see signature_rsa.h */
int fc_rsa_sig_get_md_params(fc_rsa_op *op, OSSL_PARAM params[])
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;

    return ctx->mdctx != NULL && EVP_MD_CTX_get_params(ctx->mdctx, params);
}

/* see signature_rsa.h */
int fc_rsa_sig_set_md_params(fc_rsa_op *op, const OSSL_PARAM params[])
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;

    return ctx->mdctx != NULL && EVP_MD_CTX_set_params(ctx->mdctx, params);
}

/* see signature_rsa.h */
const OSSL_PARAM *fc_rsa_sig_gettable_md_params(fc_rsa_op *op)
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;

    return ctx->md != NULL ? EVP_MD_gettable_ctx_params(ctx->md) : NULL;
}

/* see signature_rsa.h */
const OSSL_PARAM *fc_rsa_sig_settable_md_params(fc_rsa_op *op)
{
    fc_rsa_sig_ctx *ctx = (fc_rsa_sig_ctx *)op;

    return ctx->md != NULL ? EVP_MD_settable_ctx_params(ctx->md) : NULL;
}
