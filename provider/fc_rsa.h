/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc_rsa.h - the RSA key object (provider/rsa_key.c) shared by the RSA key
 * management, signature and asymmetric cipher implementations
 * (keymgmt_rsa.c, keymgmt_rsa_gen.c, signature_rsa.c, asym_rsa.c), and the
 * padding schemes (rsa_pad.c).
 */
#ifndef FC_PROV_RSA_H
#define FC_PROV_RSA_H

#include <stdint.h>

#include <openssl/core.h>
#include <openssl/types.h>

#include "fc/rsa.h"
#include "fc_prov.h"

/* Largest modulus the raw core accepts, in bytes (16384 bits). */
#define FC_RSA_MAX_BYTES 2048

/*
 * The restrictions an RSA-PSS key carries (RFC 4055 RSASSA-PSS-params in
 * its AlgorithmIdentifier; OpenSSL's "digest", "mgf1-digest", "saltlen"
 * key parameters): the hash, the MGF1 hash and the minimum salt length its
 * signatures must use. Any one given makes the key restricted, the others
 * then taking their RFC 8017 defaults (SHA-1, MGF1 with SHA-1, 20), as
 * default keeps them (RSA_PSS_PARAMS_30).
 */
typedef struct fc_rsa_pss_params {
    int restricted;
    int md_nid, mgf1_nid; /* OpenSSL NIDs of SHA-1 or SHA-2 */
    int saltlen;          /* the minimum */
} fc_rsa_pss_params;

typedef struct fc_rsa_obj fc_rsa_obj;
struct fc_rsa_op_impl;

/*
 * What a key object does, by what it holds (rsa_key.c changes it with the
 * key): the key management's queries on it, and the implementation its
 * signature and cipher operations run on (NULL: the algorithm's native
 * one; rsa_op.h). The arguments are the keymgmt interface's, the object
 * never NULL (the entry points in keymgmt_rsa.c answer for NULL) and, for
 * match and validate, a key pair selected.
 */
typedef struct fc_rsa_key_impl {
    const struct fc_rsa_op_impl *op;
    int (*has)(const fc_rsa_obj *obj, int selection);
    /* |a| and |b| have this same implementation */
    int (*match)(const fc_rsa_obj *a, const fc_rsa_obj *b, int selection);
    int (*validate)(fc_rsa_obj *obj, int selection, int checktype);
    int (*export)(fc_rsa_obj *obj, int selection, OSSL_CALLBACK *cb,
                  void *cbarg);
    int (*get_params)(fc_rsa_obj *obj, OSSL_PARAM params[]);
    /* the key of |from| in |selection| into the empty |to| (which has
     * |from|'s type and implementation); 0 on failure */
    int (*dup)(fc_rsa_obj *to, const fc_rsa_obj *from, int selection);
} fc_rsa_key_impl;

/* Our core's key, or none yet (keymgmt_rsa.c); default's (rsa_deleg.c). */
extern const fc_rsa_key_impl fc_rsa_key_native;
extern const fc_rsa_key_impl fc_rsa_key_delegated;

/* The keydata handed to libcrypto by our RSA keymgmt. Reference counted:
 * signature and cipher contexts hold a reference while they use it. A key
 * our core does not take but default does is held by default instead
 * (|deleg|, rsa_deleg.h) and |key| is NULL. */
struct fc_rsa_obj {
    const fc_rsa_key_impl *impl; /* as it holds |key| or |deleg| */
    fc_prov_ctx *prov;
    fc_rsa_key *key; /* NULL until imported or generated, or if delegated */
    EVP_PKEY *deleg; /* a delegated key: default's, in the child libctx */
    int deleg_priv;  /* it has d */
    int refcnt;      /* atomic; see fc_rsa_obj_up_ref */
    int pss;         /* an RSA-PSS key (made by the RSA-PSS keymgmt) */
    fc_rsa_pss_params pss_params; /* its restrictions, if any */
};

/* fc_rsa_obj_has_key: 1 if |obj| holds a key, ours or default's. */
static inline int fc_rsa_obj_has_key(const fc_rsa_obj *obj)
{
    return obj->key != NULL || obj->deleg != NULL;
}

/* fc_rsa_obj_up_ref takes a reference; returns 1. (rsa_key.c) */
int fc_rsa_obj_up_ref(fc_rsa_obj *obj);
/* fc_rsa_obj_free drops a reference, freeing (and wiping) at zero. NULL-safe.
 */
void fc_rsa_obj_free(fc_rsa_obj *obj);

/* fc_rsa_rand is an fc_rand_fn drawing from the provider's child library
 * context (arg is the fc_prov_ctx); fork-safe. (rsa_key.c) */
int fc_rsa_rand(void *arg, uint8_t *buf, size_t len);

/*
 * fc_rsa_pss_params_fromdata reads the PSS key parameters of |params| into
 * |pss| as default does (ossl_rsa_pss_params_30_fromdata): the first one
 * found makes |pss| restricted with the defaults, then "digest" (with
 * "digest-props"), "mgf1-digest", "saltlen" and "mgf" (only "MGF1") each
 * set theirs. Digests are fetched from the provider's library context and
 * must be SHA-1 or SHA-2. Returns 1, or 0 with an error raised on |prov|.
 * (rsa_pss_params.c)
 */
int fc_rsa_pss_params_fromdata(fc_prov_ctx *prov, fc_rsa_pss_params *pss,
                               const OSSL_PARAM params[]);

/*
 * fc_rsa_pss_params_todata fills the parameters of |params| that name a
 * restriction of |pss| ("digest" and "mgf1-digest" when not SHA-1,
 * "saltlen" always, as default writes them), and "mandatory-digest" with
 * the hash. Nothing for an unrestricted key. Returns 1, or 0 if a
 * parameter cannot take its value.
 */
int fc_rsa_pss_params_todata(const fc_rsa_pss_params *pss, OSSL_PARAM *params);

/*
 * fc_rsa_pss_params_export appends to |out| (room for 3) the parameters
 * default exports for a restricted key: "digest" and "mgf1-digest" if not
 * SHA-1, "saltlen" (read from |*saltlen_store|, which it sets). Returns how
 * many it wrote (0 for an unrestricted key).
 */
size_t fc_rsa_pss_params_export(const fc_rsa_pss_params *pss, OSSL_PARAM *out,
                                int *saltlen_store);

/* fc_rsa_pss_md_name returns OpenSSL's name of a PSS hash NID ("SHA1",
 * "SHA2-256", ...), or NULL. */
const char *fc_rsa_pss_md_name(int nid);

#endif /* FC_PROV_RSA_H */
