/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rand_ctr_drbg.h - the CTR-DRBG context, shared by its life cycle
 * (rand_ctr_drbg.c) and its configuration and parameters
 * (rand_ctr_drbg_params.c).
 */
#ifndef FC_PROV_RAND_CTR_DRBG_H
#define FC_PROV_RAND_CTR_DRBG_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include "fc/drbg.h"
#include "fc_prov.h"

typedef struct fc_drbg_ctx {
    fc_prov_ctx *prov;

    /* The parent and the calls of its dispatch table we use. */
    void *parent;
    OSSL_FUNC_rand_enable_locking_fn *parent_enable_locking;
    OSSL_FUNC_rand_lock_fn *parent_lock;
    OSSL_FUNC_rand_unlock_fn *parent_unlock;
    OSSL_FUNC_rand_get_ctx_params_fn *parent_get_ctx_params;
    OSSL_FUNC_rand_nonce_fn *parent_nonce;
    OSSL_FUNC_rand_get_seed_fn *parent_get_seed;
    OSSL_FUNC_rand_clear_seed_fn *parent_clear_seed;
    int parent_is_ours; /* parent is an fc_drbg_ctx: read its counter */

    pthread_mutex_t lock; /* recursive; valid iff |locking| */
    int locking;

    int state; /* EVP_RAND_STATE_* */
    unsigned int strength;
    size_t max_request;
    size_t min_entropylen, max_entropylen;
    size_t min_noncelen, max_noncelen;
    size_t max_perslen, max_adinlen;

    unsigned int reseed_requests; /* "reseed_requests"; 0: never */
    time_t reseed_time_interval;  /* seconds; 0: never */
    time_t reseed_time;           /* time of the last (re)seed */
    uint64_t fork_id;             /* fc_fork_id() at the last (re)seed */
    /* Number of (re)seeds, starting at 1 ("reseed_counter"; 0 disables the
     * propagation), read by children without our lock. */
    unsigned int reseed_counter;
    unsigned int parent_reseed_counter; /* the parent's, when we drew */

    fc_ctr_drbg core;
} fc_drbg_ctx;

/* The DRBG's own lock (a no-op until enable_locking); recursive. */
static inline int fc_drbg_lock_self(fc_drbg_ctx *c)
{
    return !c->locking || pthread_mutex_lock(&c->lock) == 0;
}

static inline void fc_drbg_unlock_self(fc_drbg_ctx *c)
{
    if (c->locking)
        pthread_mutex_unlock(&c->lock);
}

/* fc_drbg_configure sets the key size |keylen| and the df choice and the
 * bounds that follow from them (SP 800-90A Table 3). Returns 1 or 0. */
int fc_drbg_configure(fc_drbg_ctx *c, size_t keylen, int use_df);

/* fc_drbg_set_ctx_params_locked applies |params| (the lock held): the
 * cipher and df only while uninstantiated. Returns 1, or 0 (raised). */
int fc_drbg_set_ctx_params_locked(fc_drbg_ctx *c, const OSSL_PARAM params[]);

OSSL_FUNC_rand_gettable_ctx_params_fn fc_drbg_gettable_ctx_params;
OSSL_FUNC_rand_get_ctx_params_fn fc_drbg_get_ctx_params;
OSSL_FUNC_rand_settable_ctx_params_fn fc_drbg_settable_ctx_params;
OSSL_FUNC_rand_set_ctx_params_fn fc_drbg_set_ctx_params;

#endif /* FC_PROV_RAND_CTR_DRBG_H */
