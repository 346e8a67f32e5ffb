/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_key.h - what the RSA key management (keymgmt_rsa.c, keymgmt_rsa_gen.c)
 * shares about the key object (provider/rsa_key.c): making one and
 * changing what it holds, the key components as OSSL_PARAMs, the sizes
 * offered on this CPU, and moving a key to the default provider.
 */
#ifndef FC_PROV_RSA_KEY_H
#define FC_PROV_RSA_KEY_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "fc/rsa.h"
#include "fc_prov.h"
#include "fc_rsa.h"

/* ------------------------------------------------------------------------ */
/* The object                                                               */

/* fc_rsa_obj_new makes an empty key object of |prov| (one reference, on
 * fc_rsa_key_native); NULL with FC_R_MALLOC_FAILURE raised. */
fc_rsa_obj *fc_rsa_obj_new(fc_prov_ctx *prov);

/* fc_rsa_obj_hold_key makes |obj| hold our core's |key| (its own from now
 * on), dropping whatever it held. */
void fc_rsa_obj_hold_key(fc_rsa_obj *obj, fc_rsa_key *key);

/* ------------------------------------------------------------------------ */
/* Components <-> OSSL_PARAMs                                               */

/* The components in export order (default's): parameter name, the part
 * (fc_rsa_get_component letter 'n', 'e', 'd' with prime -1; else part 'r'
 * (factor), 'd' (exponent) or 't' (coefficient) of prime |prime|, 0-based),
 * and whether it is private. Up to FC_RSA_MAX_PRIMES primes. */
typedef struct fc_rsa_comp {
    const char *name;
    char part;
    signed char prime;
    unsigned char priv;
} fc_rsa_comp;

#define FC_RSA_NCOMPS 17
extern const fc_rsa_comp fc_rsa_comps[FC_RSA_NCOMPS];

/* The same list as OSSL_PARAM type descriptions. */
#define FC_RSA_COMP_TYPES                                                      \
    OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),                             \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),                         \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_D, NULL, 0),                         \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR1, NULL, 0),                   \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR2, NULL, 0),                   \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR3, NULL, 0),                   \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR4, NULL, 0),                   \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR5, NULL, 0),                   \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT1, NULL, 0),                 \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT2, NULL, 0),                 \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT3, NULL, 0),                 \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT4, NULL, 0),                 \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT5, NULL, 0),                 \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT1, NULL, 0),              \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT2, NULL, 0),              \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT3, NULL, 0),              \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT4, NULL, 0),
/* Indices into fc_rsa_comps: the first factor, exponent, coefficient. */
enum { FC_COMP_F = 3, FC_COMP_X = 8, FC_COMP_T = 13 };

/* The index in fc_rsa_comps of the parameter called |key|, -1 if it is not
 * an RSA key component, -2 if it is one of a prime beyond
 * FC_RSA_MAX_PRIMES ("rsa-factor6" ...). One pass of short comparisons,
 * no lookup per name: import and get_params walk the caller's parameters
 * once. */
int fc_rsa_comp_index(const char *key);

/* Component |c| of |key| big-endian into |out|; 0 if absent. */
int fc_rsa_comp_get(const fc_rsa_key *key, const fc_rsa_comp *c, uint8_t *out,
                    size_t cap, size_t *len);

/* Writes the big-endian |be| (|len| bytes) into an integer parameter. */
int fc_param_set_be(OSSL_PARAM *p, const uint8_t *be, size_t len);

/*
 * The integer parameter |p| as a big-endian byte string at |dst| (room for
 * p->data_size bytes), its length in |*len|. An OSSL_PARAM_UNSIGNED_INTEGER
 * is native-endian bytes: reversed (or copied) in place, no BIGNUM; any
 * other form goes through OSSL_PARAM_get_BN. Returns 1, or 0 if |p| is not
 * a non-negative integer that fits.
 */
int fc_param_to_be(const OSSL_PARAM *p, uint8_t *dst, size_t cap, size_t *len);

/*
 * fc_rsa_obj_export_params hands the components of |obj|'s own key
 * selected by |selection| (and an RSA-PSS key's restrictions) to |cb| as
 * OSSL_PARAMs built over one buffer, wiped afterwards.
 */
int fc_rsa_obj_export_params(const fc_rsa_obj *obj, int selection,
                             OSSL_CALLBACK *cb, void *cbarg);

/* ------------------------------------------------------------------------ */
/* Sizes offered; keys moved to default                                     */

/* 1 if RSA keys of |bits| are offered: by the size of their CRT halves,
 * ceil(bits / 2) bits. */
int fc_rsa_bits_offered(const fc_prov_ctx *prov, size_t bits);

/* 1 if RSA keys with the modulus |n| (|len| bytes, big-endian) are
 * offered (fc_rsa_bits_offered). */
int fc_rsa_offered(const fc_prov_ctx *prov, const uint8_t *n, size_t len);

/*
 * fc_rsa_obj_delegate keeps the key of |params| (components |par|, as
 * fc_rsa_km_import read them, indexed as fc_rsa_comps) as a delegated one
 * (rsa_deleg.h) if default's rules take it. A private key is delegated only
 * if default's private operations on it give results that pass the check
 * with e (fc_rsa_deleg_check_private): a key whose primes do not multiply
 * to n, or whose d does not belong to n and e, is refused here with that
 * reason, as our core refuses it, never held by default, which would
 * release its unchecked results. Returns 1 if it is delegated, 0 if
 * default refuses it (the caller reports), -1 if refused here (reported).
 */
int fc_rsa_obj_delegate(fc_rsa_obj *obj, int selection,
                        const OSSL_PARAM params[],
                        const OSSL_PARAM *const *par);

/* fc_rsa_obj_hand_over makes |obj|'s own (generated) key a delegated one,
 * as an imported key of its size is: 1, or 0 if default refused it. */
int fc_rsa_obj_hand_over(fc_rsa_obj *obj);

/* ------------------------------------------------------------------------ */
/* Generation (keymgmt_rsa_gen.c), for keymgmt_rsa.c's dispatch tables      */

OSSL_FUNC_keymgmt_gen_init_fn fc_rsa_km_gen_init;
OSSL_FUNC_keymgmt_gen_init_fn fc_rsa_pss_km_gen_init;
OSSL_FUNC_keymgmt_gen_set_params_fn fc_rsa_km_gen_set_params;
OSSL_FUNC_keymgmt_gen_settable_params_fn fc_rsa_km_gen_settable_params;
OSSL_FUNC_keymgmt_gen_settable_params_fn fc_rsa_pss_km_gen_settable_params;
OSSL_FUNC_keymgmt_gen_fn fc_rsa_km_gen;
OSSL_FUNC_keymgmt_gen_cleanup_fn fc_rsa_km_gen_cleanup;

#endif /* FC_PROV_RSA_KEY_H */
