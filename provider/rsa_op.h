/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_op.h - the base of an RSA operation context (provider/rsa_op.c),
 * shared by the signature (signature_rsa.c) and the asymmetric cipher
 * (asym_rsa.c): the key, the operation, the property query, digest
 * fetching under one policy, the parameter readers and writers both use,
 * and the implementation the operation runs on.
 *
 * The implementation is chosen once, when an operation starts on a key
 * (fc_rsa_op_begin), as the key's implementation names it (fc_rsa.h): the
 * glue file's native one for a key our core holds, fc_rsa_op_delegated
 * (rsa_deleg.c) for a delegated key (held as default's key, rsa_deleg.h),
 * which forwards every call to default's operation in the child library
 * context. Each dispatch entry point is then one call
 * through the table; none asks what kind of key it has. A fresh context
 * runs on its native implementation.
 */
#ifndef FC_PROV_RSA_OP_H
#define FC_PROV_RSA_OP_H

#include <stddef.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/types.h>

#include "fc_prov.h"
#include "fc_rsa.h"

/* The longest digest name and property query a context reads. */
#define FC_MDNAME_MAX 50
#define FC_PROPQ_MAX  256

typedef struct fc_rsa_op fc_rsa_op;

/*
 * What an operation runs on. The arguments after |op| are the provider
 * interface's (openssl/core_dispatch.h); a slot is NULL where the
 * algorithm has no such call. |init| and |digest_init| finish what
 * fc_rsa_op_begin started (key and operation in place).
 */
typedef struct fc_rsa_op_impl {
    int (*init)(fc_rsa_op *op, const OSSL_PARAM params[]);
    int (*digest_init)(fc_rsa_op *op, const char *mdname,
                       const OSSL_PARAM params[]);
    int (*sign)(fc_rsa_op *op, unsigned char *sig, size_t *siglen,
                size_t sigsize, const unsigned char *tbs, size_t tbslen);
    int (*verify)(fc_rsa_op *op, const unsigned char *sig, size_t siglen,
                  const unsigned char *tbs, size_t tbslen);
    int (*verify_recover)(fc_rsa_op *op, unsigned char *rout, size_t *routlen,
                          size_t routsize, const unsigned char *sig,
                          size_t siglen);
    int (*encrypt)(fc_rsa_op *op, unsigned char *out, size_t *outlen,
                   size_t outsize, const unsigned char *in, size_t inlen);
    int (*decrypt)(fc_rsa_op *op, unsigned char *out, size_t *outlen,
                   size_t outsize, const unsigned char *in, size_t inlen);
    int (*digest_update)(fc_rsa_op *op, const unsigned char *data, size_t len);
    int (*digest_sign_final)(fc_rsa_op *op, unsigned char *sig, size_t *siglen,
                             size_t sigsize);
    int (*digest_verify_final)(fc_rsa_op *op, const unsigned char *sig,
                               size_t siglen);
    int (*get_ctx_params)(fc_rsa_op *op, OSSL_PARAM params[]);
    int (*set_ctx_params)(fc_rsa_op *op, const OSSL_PARAM params[]);
    int (*get_md_params)(fc_rsa_op *op, OSSL_PARAM params[]);
    int (*set_md_params)(fc_rsa_op *op, const OSSL_PARAM params[]);
    const OSSL_PARAM *(*gettable_md_params)(fc_rsa_op *op);
    const OSSL_PARAM *(*settable_md_params)(fc_rsa_op *op);
} fc_rsa_op_impl;

/* A delegated key's operation: default's context for it in the child
 * library context (rsa_deleg.c). Zeroed: none. */
typedef struct fc_rsa_deleg_op {
    EVP_PKEY_CTX *pctx; /* sign, verify, verify-recover, encrypt, decrypt */
    EVP_MD_CTX *mctx;   /* digest-sign, digest-verify */
} fc_rsa_deleg_op;

/* The first member of every RSA operation context. */
struct fc_rsa_op {
    const fc_rsa_op_impl *impl; /* never NULL once made */
    fc_prov_ctx *prov;
    fc_rsa_obj *rsa; /* a reference; NULL before the first init */
    char *propq;     /* the signature's newctx query, else NULL */
    int operation;   /* EVP_PKEY_OP_* of the last begin */
    fc_rsa_deleg_op deleg;
};

/* The delegated implementation (rsa_deleg.c): fc_rsa_key_delegated's. */
extern const fc_rsa_op_impl fc_rsa_op_delegated;

/*
 * fc_rsa_op_newctx allocates a zeroed context of |size| bytes that starts
 * with an fc_rsa_op, on |native|, with a copy of |propq| (may be NULL).
 * NULL with FC_R_MALLOC_FAILURE raised on failure.
 */
void *fc_rsa_op_newctx(fc_prov_ctx *prov, size_t size, const char *propq,
                       const fc_rsa_op_impl *native);

/* fc_rsa_op_freectx ends the base of the context |op| (|size| bytes, the
 * caller's fields already released) and wipes and frees it. NULL-safe. */
void fc_rsa_op_freectx(fc_rsa_op *op, size_t size);

/*
 * fc_rsa_op_dupctx copies the |size|-byte context |src| and takes the
 * base's own references (key, property query, default's operation).
 * Returns the copy, with *ok 0 if a reference could not be taken (the copy
 * is then safe to free once the caller has taken or cleared its own
 * fields'), or NULL with FC_R_MALLOC_FAILURE raised if it could not be
 * allocated.
 */
void *fc_rsa_op_dupctx(const fc_rsa_op *src, size_t size, int *ok);

/* fc_rsa_op_md_ref takes a reference on *md (NULL is fine). On failure *md
 * becomes NULL and it returns 0. */
int fc_rsa_op_md_ref(EVP_MD **md);

/*
 * fc_rsa_op_begin starts |operation| on |obj| (NULL: the key in place):
 * takes the key and chooses the implementation, |native| or the delegated
 * one as the key is held. Raises FC_R_NO_KEY_SET and returns 0 if there is
 * no usable key. The caller then runs op->impl->init or ->digest_init.
 */
int fc_rsa_op_begin(fc_rsa_op *op, fc_rsa_obj *obj, int operation,
                    const fc_rsa_op_impl *native);

/*
 * fc_rsa_op_fetch_md fetches digest |name| for |op| from the provider's
 * child library context, never the caller's: there the configured
 * preference for fastcrypto could send the fetch back into this provider
 * (fc_prov_ctx.libctx in fc_prov.h). |props| is honoured strictly; without
 * it the context's property query is tried first (it came from the
 * application's fetch of *this* algorithm, "provider=fastcrypto" being
 * typical, and names no digest provider), then none. NULL with
 * FC_R_INVALID_DIGEST "<name> could not be fetched" raised if none.
 */
EVP_MD *fc_rsa_op_fetch_md(fc_rsa_op *op, const char *name, const char *props);

/* fc_rsa_op_get_utf8 reads the UTF-8 parameter |p| into |buf| (|cap|
 * bytes). */
int fc_rsa_op_get_utf8(const OSSL_PARAM *p, char *buf, size_t cap);

/*
 * fc_rsa_op_read_md reads the digest parameter |key| of |params| into
 * |name| (FC_MDNAME_MAX bytes) and, if present, its properties |props_key|
 * into |props| (FC_PROPQ_MAX bytes). *pname and *pprops point at them, or
 * are NULL for a parameter absent. Returns 0 if one present is not a
 * string that fits.
 */
int fc_rsa_op_read_md(const OSSL_PARAM params[], const char *key,
                      const char *props_key, char *name, char *props,
                      const char **pname, const char **pprops);

/*
 * The pad mode parameter, as an integer or by name from |pads| (ended by
 * a NULL name). fc_rsa_op_write_pad answers |p| with |pad_mode| (0 if the
 * mode has no name or |p| neither type); fc_rsa_op_read_pad reads |p| into
 * *pad_mode (0 for a name not in |pads|), 0 if |p| is neither type.
 */
int fc_rsa_op_write_pad(OSSL_PARAM *p, const OSSL_ITEM *pads, int pad_mode);
int fc_rsa_op_read_pad(const OSSL_PARAM *p, const OSSL_ITEM *pads,
                       int *pad_mode);

/*
 * fc_rsa_op_init begins |operation| on |obj| (fc_rsa_op_begin) and runs
 * the chosen implementation's init with |params|; fc_rsa_op_digest_init
 * the same for a digest-sign or digest-verify with |mdname|.
 */
int fc_rsa_op_init(fc_rsa_op *op, fc_rsa_obj *obj, int operation,
                   const OSSL_PARAM params[], const fc_rsa_op_impl *native);
int fc_rsa_op_digest_init(fc_rsa_op *op, fc_rsa_obj *obj, int operation,
                          const char *mdname, const OSSL_PARAM params[],
                          const fc_rsa_op_impl *native);

/*
 * Dispatch entry points (the context is an fc_rsa_op): each is one call to
 * the context's implementation. The operations (sign, verify,
 * verify-recover, encrypt, decrypt) raise FC_R_NO_KEY_SET for a NULL
 * context or one no init gave a key; the rest return 0 (NULL for the
 * tables) for a NULL context.
 */
OSSL_FUNC_signature_sign_fn fc_rsa_op_sign;
OSSL_FUNC_signature_verify_fn fc_rsa_op_verify;
OSSL_FUNC_signature_verify_recover_fn fc_rsa_op_verify_recover;
OSSL_FUNC_asym_cipher_encrypt_fn fc_rsa_op_encrypt;
OSSL_FUNC_asym_cipher_decrypt_fn fc_rsa_op_decrypt;
/* digest-sign and digest-verify update alike */
OSSL_FUNC_signature_digest_sign_update_fn fc_rsa_op_digest_update;
OSSL_FUNC_signature_digest_sign_final_fn fc_rsa_op_digest_sign_final;
OSSL_FUNC_signature_digest_verify_final_fn fc_rsa_op_digest_verify_final;
/* the signature's and the cipher's alike */
OSSL_FUNC_signature_get_ctx_params_fn fc_rsa_op_get_ctx_params;
OSSL_FUNC_signature_set_ctx_params_fn fc_rsa_op_set_ctx_params;
OSSL_FUNC_signature_get_ctx_md_params_fn fc_rsa_op_get_ctx_md_params;
OSSL_FUNC_signature_set_ctx_md_params_fn fc_rsa_op_set_ctx_md_params;
OSSL_FUNC_signature_gettable_ctx_md_params_fn fc_rsa_op_gettable_ctx_md_params;
OSSL_FUNC_signature_settable_ctx_md_params_fn fc_rsa_op_settable_ctx_md_params;

#endif /* FC_PROV_RSA_OP_H */
