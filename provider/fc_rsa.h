/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc_rsa.h - the RSA key object shared by the RSA key management, signature
 * and asymmetric cipher implementations (provider/keymgmt_rsa.c,
 * signature_rsa.c, asym_rsa.c), and the padding schemes (rsa_pad.c).
 */
#ifndef FC_PROV_RSA_H
#define FC_PROV_RSA_H

#include <stdint.h>

#include "fc/rsa.h"
#include "fc_prov.h"

/* The keydata handed to libcrypto by our RSA keymgmt. Reference counted:
 * signature and cipher contexts hold a reference while they use it. */
typedef struct fc_rsa_obj {
    fc_prov_ctx *prov;
    fc_rsa_key *key; /* NULL until imported or generated */
    int refcnt;      /* atomic; see fc_rsa_obj_up_ref */
} fc_rsa_obj;

/* fc_rsa_obj_up_ref takes a reference; returns 1. (keymgmt_rsa.c) */
int fc_rsa_obj_up_ref(fc_rsa_obj *obj);
/* fc_rsa_obj_free drops a reference, freeing (and wiping) at zero. NULL-safe.
 */
void fc_rsa_obj_free(fc_rsa_obj *obj);

/* fc_rsa_rand is an fc_rand_fn drawing from the provider's child library
 * context (arg is the fc_prov_ctx); fork-safe. (keymgmt_rsa.c) */
int fc_rsa_rand(void *arg, uint8_t *buf, size_t len);

#endif /* FC_PROV_RSA_H */
