/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_deleg.h - delegated RSA keys: the key shapes fastcrypto's core does
 * not take but the default provider does (moduli outside 512..8192 bits,
 * even moduli, even or unit exponents, zero components, ...), held as an
 * EVP_PKEY of the default provider in the provider's child library context
 * and used there (provider/rsa_deleg.c). The key management, signature and
 * asymmetric cipher code call these and nothing else for such keys. The
 * key management hands default only shapes it handles safely, and private
 * keys only once fc_rsa_deleg_check_private passed them.
 */
#ifndef FC_PROV_RSA_DELEG_H
#define FC_PROV_RSA_DELEG_H

#include <stddef.h>

#include <openssl/core.h>
#include <openssl/types.h>

#include "fc_prov.h"

/* ------------------------------------------------------------------------ */
/* Keys                                                                     */

/*
 * fc_rsa_deleg_import has the default provider of |prov|'s child library
 * context import |params| under |selection| as an "RSA" key (an "RSA-PSS"
 * one if |pss|), with default's rules. Returns the key, or NULL with the
 * error queue as it was on entry (default's errors are dropped: the caller
 * reports its own reason).
 */
EVP_PKEY *fc_rsa_deleg_import(fc_prov_ctx *prov, int pss, int selection,
                              const OSSL_PARAM params[]);

/*
 * fc_rsa_deleg_check_private checks that default's private operations on
 * the key of |params| (n, e, d, and a complete CRT set or none, as the key
 * management hands them to fc_rsa_deleg_import) give results that pass the
 * check with e, which default does not make when it computes with d (a key
 * without CRT values, or after its CRT result failed the check). Primes
 * given must multiply to n. With CRT values that belong to the primes
 * (e dP = 1 mod p - 1, ..., qinv q = 1 mod p, ...) default's CRT result
 * passes its own check; otherwise, and for d alone, one raw private
 * operation of default's on a random value is checked with e. Returns NULL
 * if the key passes (or default refuses to compute with it at all), else a
 * short static reason. CT: the private values go through BIGNUMs marked
 * constant-time; only the outcome leaks.
 */
const char *fc_rsa_deleg_check_private(fc_prov_ctx *prov,
                                       const OSSL_PARAM params[]);

/* fc_rsa_deleg_export hands the parts of |pkey| in |selection| to |cb| as
 * default exports them. */
int fc_rsa_deleg_export(EVP_PKEY *pkey, int selection, OSSL_CALLBACK *cb,
                        void *cbarg);

/* fc_rsa_deleg_get_params answers |params| as default does for |pkey|. */
int fc_rsa_deleg_get_params(EVP_PKEY *pkey, OSSL_PARAM params[]);

/* fc_rsa_deleg_match: 1 if the parts of |a| and |b| in |selection| are
 * equal (n and e, or d for the private key alone), as default matches. */
int fc_rsa_deleg_match(EVP_PKEY *a, EVP_PKEY *b, int selection);

/* fc_rsa_deleg_validate runs default's check of |pkey| for |selection|:
 * pairwise for a key pair, else of the private or the public key. */
int fc_rsa_deleg_validate(fc_prov_ctx *prov, EVP_PKEY *pkey, int selection,
                          int checktype);

/* fc_rsa_deleg_dup copies |pkey|: all of it if |selection| has the private
 * key, else its public key (and RSA-PSS restrictions). NULL on failure. */
EVP_PKEY *fc_rsa_deleg_dup(fc_prov_ctx *prov, EVP_PKEY *pkey, int pss,
                           int selection);

/* ------------------------------------------------------------------------ */
/* Operations                                                               */

/* One operation on a delegated key: default's context for it in the child
 * library context. Zeroed: no operation (the context is fastcrypto's). */
typedef struct fc_rsa_deleg_op {
    EVP_PKEY_CTX *pctx; /* sign, verify, verify-recover, encrypt, decrypt */
    EVP_MD_CTX *mctx;   /* digest-sign, digest-verify */
    int operation;      /* EVP_PKEY_OP_* */
} fc_rsa_deleg_op;

/* fc_rsa_deleg_active: 1 if |op| forwards to default. */
static inline int fc_rsa_deleg_active(const fc_rsa_deleg_op *op)
{
    return op->pctx != NULL || op->mctx != NULL;
}

/* fc_rsa_deleg_clear ends |op| (NULL-safe contexts); it is zeroed after. */
void fc_rsa_deleg_clear(fc_rsa_deleg_op *op);

/* fc_rsa_deleg_dupctx makes |dst| a copy of |src| (the other fields of
 * |dst| untouched); on failure |dst| is zeroed. */
int fc_rsa_deleg_dupctx(fc_rsa_deleg_op *dst, const fc_rsa_deleg_op *src);

/*
 * fc_rsa_deleg_init starts |operation| (EVP_PKEY_OP_SIGN, _VERIFY,
 * _VERIFYRECOVER, _ENCRYPT or _DECRYPT) on |pkey| with |params|, ending
 * whatever |op| held.
 */
int fc_rsa_deleg_init(fc_prov_ctx *prov, fc_rsa_deleg_op *op, EVP_PKEY *pkey,
                      int operation, const OSSL_PARAM params[]);

/* fc_rsa_deleg_digest_init starts a digest-sign (|operation|
 * EVP_PKEY_OP_SIGN) or digest-verify (EVP_PKEY_OP_VERIFY) with |mdname|
 * (NULL: the key's default) on |pkey|. */
int fc_rsa_deleg_digest_init(fc_prov_ctx *prov, fc_rsa_deleg_op *op,
                             EVP_PKEY *pkey, int operation, const char *mdname,
                             const OSSL_PARAM params[]);

/* fc_rsa_deleg_run: sign, verify-recover, encrypt or decrypt (as |op| was
 * started) |in| into |out| (NULL: the size only), the provider interface's
 * arguments. */
int fc_rsa_deleg_run(fc_rsa_deleg_op *op, unsigned char *out, size_t *outlen,
                     size_t outsize, const unsigned char *in, size_t inlen);

/* fc_rsa_deleg_verify: 1 if |sig| verifies |tbs|, else 0. */
int fc_rsa_deleg_verify(fc_rsa_deleg_op *op, const unsigned char *sig,
                        size_t siglen, const unsigned char *tbs, size_t tbslen);

int fc_rsa_deleg_digest_update(fc_rsa_deleg_op *op, const unsigned char *data,
                               size_t len);
int fc_rsa_deleg_digest_sign_final(fc_rsa_deleg_op *op, unsigned char *sig,
                                   size_t *siglen, size_t sigsize);
int fc_rsa_deleg_digest_verify_final(fc_rsa_deleg_op *op,
                                     const unsigned char *sig, size_t siglen);

/* Context parameters of the operation, and those of its digest. */
int fc_rsa_deleg_get_ctx_params(fc_rsa_deleg_op *op, OSSL_PARAM params[]);
int fc_rsa_deleg_set_ctx_params(fc_rsa_deleg_op *op, const OSSL_PARAM params[]);
int fc_rsa_deleg_get_md_params(fc_rsa_deleg_op *op, OSSL_PARAM params[]);
int fc_rsa_deleg_set_md_params(fc_rsa_deleg_op *op, const OSSL_PARAM params[]);
/* The digest's gettable and settable parameters (NULL: none). */
const OSSL_PARAM *fc_rsa_deleg_gettable_md_params(const fc_rsa_deleg_op *op);
const OSSL_PARAM *fc_rsa_deleg_settable_md_params(const fc_rsa_deleg_op *op);

#endif /* FC_PROV_RSA_DELEG_H */
