/* SPDX-License-Identifier: Apache-2.0 */
/*
 * signature_rsa.h - the RSA signature context, shared by its operations
 * (signature_rsa.c) and its digests and parameters
 * (signature_rsa_params.c).
 */
#ifndef FC_PROV_SIGNATURE_RSA_H
#define FC_PROV_SIGNATURE_RSA_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/evp.h>

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

/* fc_rsa_sig_mgf1: the MGF1 digest in force. */
static inline const EVP_MD *fc_rsa_sig_mgf1(const fc_rsa_sig_ctx *ctx)
{
    return ctx->mgf1_set ? ctx->mgf1_md : ctx->md;
}

/* fc_rsa_sig_setup_md sets the main digest |name| (fetched with |props|,
 * NULL: rsa_op.h's default), and MGF1's unless set explicitly. Returns 1,
 * or 0 with the error raised. */
int fc_rsa_sig_setup_md(fc_rsa_sig_ctx *ctx, const char *name,
                        const char *props);

/*
 * fc_rsa_sig_init_pss starts an operation on an RSA-PSS key: PSS only; a
 * restricted key (fc_rsa_pss_params) with its hash and MGF1 hash, and a
 * salt no shorter than its minimum, which is also the salt length until one
 * is set. As default: a minimum the key cannot hold (longer than k - hLen,
 * one less when the modulus has 8m + 1 bits) makes the key unusable.
 */
int fc_rsa_sig_init_pss(fc_rsa_sig_ctx *ctx);

/*
 * fc_rsa_sig_check_saltlen checks a restricted key's salt length |saltlen|
 * as default checks it when it is set (|setting|) and when signing.
 * Returns 1, or 0 with the error raised.
 */
int fc_rsa_sig_check_saltlen(fc_rsa_sig_ctx *ctx, int saltlen, int setting);

/* The native implementation's parameter calls (rsa_op.h), and the
 * signature's gettable and settable lists. */
int fc_rsa_sig_get_ctx_params(fc_rsa_op *op, OSSL_PARAM params[]);
int fc_rsa_sig_set_ctx_params(fc_rsa_op *op, const OSSL_PARAM params[]);
int fc_rsa_sig_get_md_params(fc_rsa_op *op, OSSL_PARAM params[]);
int fc_rsa_sig_set_md_params(fc_rsa_op *op, const OSSL_PARAM params[]);
const OSSL_PARAM *fc_rsa_sig_gettable_md_params(fc_rsa_op *op);
const OSSL_PARAM *fc_rsa_sig_settable_md_params(fc_rsa_op *op);
OSSL_FUNC_signature_gettable_ctx_params_fn fc_rsa_sig_gettable_ctx_params;
OSSL_FUNC_signature_settable_ctx_params_fn fc_rsa_sig_settable_ctx_params;

#endif /* FC_PROV_SIGNATURE_RSA_H */
