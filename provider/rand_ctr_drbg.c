/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rand_ctr_drbg.c - fastcrypto's "CTR-DRBG" for OpenSSL (EVP_RAND): SP
 * 800-90A CTR_DRBG on the provider's AES kernels (AES-128/192/256, with or
 * without derivation function). With it and "SEED-SRC" (rand_seed_src.c,
 * the operating system's entropy source), fastcrypto alone gives OpenSSL a
 * complete RAND chain: the library makes SEED-SRC the parent of its <primary>
 * DRBG and the primary the parent of the per-thread <public>/<private> DRBGs
 * (RAND_get0_primary and friends), so `openssl speed`/`openssl rand` run with
 * no other provider loaded.
 *
 * The mechanism (K, V, Update, df) is provider/core/ctr_drbg.c; this file is
 * the SP 800-90A/90C life cycle around it, following the conventions of the
 * OpenSSL core so that our DRBG and any other provider's RAND can be parent
 * and child of each other:
 *   - Seeding. With a parent, entropy comes from the parent's get_seed (and
 *     is given back through its clear_seed, when it has one), the nonce from
 *     its nonce call when it has one, or else as half again as much entropy
 *     taken in the same call (SP 800-90A 8.6.7). Every parent call is made
 *     with the parent locked through its own lock/unlock. Without a parent
 *     the DRBG seeds itself straight from getrandom(2): entropy and nonce.
 *   - Reseeding, before a generate: on prediction resistance; in a child
 *     process after fork(2) (a pthread_atfork generation counter); when the
 *     SP 800-90A reseed_counter passes "reseed_requests" (default 256, the
 *     library sets 2^16 for <public>/<private>); when "reseed_time_interval"
 *     seconds have passed (default 3600, the library sets 420 for
 *     <public>/<private>); and when the parent has reseeded since we last
 *     drew from it ("reseed_counter" of the parent), so that RAND_add on the
 *     primary reaches every thread's DRBG.
 *   - A request larger than 2^16 bytes (SP 800-90A's maximum per request)
 *     is split into several generate calls of at most that size.
 *   - get_seed/clear_seed let the DRBG be a parent itself (the primary).
 *   - enable_locking creates a recursive mutex (and enables the parent's
 *     locking). lock/unlock take it, and every entry point takes it again,
 *     so the DRBG is safe both for callers that lock first (the EVP layer,
 *     OpenSSL 3.0 children) and for those that do not.
 *   - A failed (re)seed leaves the DRBG in the error state; the next
 *     generate uninstantiates and instantiates it again (as OpenSSL does),
 *     and generate on a never-instantiated DRBG instantiates it first.
 *   - uninstantiate and free wipe K, V and the key schedule;
 *     verify_zeroization checks it.
 * The configuration (cipher, df) and the context parameters are
 * rand_ctr_drbg_params.c's.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "fc/drbg.h"
#include "fc_prov.h"
#include "rand_ctr_drbg.h"

/* Defaults of a DRBG the library does not configure (the same as OpenSSL's
 * default provider): reseed after 2^8 requests or an hour. */
#define FC_DRBG_RESEED_REQUESTS 256u
#define FC_DRBG_RESEED_SECONDS  3600
/* Personalization string used when the caller gives none (SP 800-90A 8.7.1
 * recommends one); at most 32 bytes, the no-df AES-128 maximum. */
static const char fc_drbg_pers[] = "fastcrypto SP800-90A CTR_DRBG";

/* ------------------------------------------------------------------------ */
/* Fork detection: a generation counter bumped in every child by a
 * pthread_atfork handler, registered once. Each DRBG records the generation
 * at its last (re)seed and reseeds when it changes, so parent and child
 * never share output. Should registration fail, the process id serves. */

static pthread_once_t fc_fork_once = PTHREAD_ONCE_INIT;
static uint64_t fc_fork_gen;
static int fc_fork_use_pid;

static void fc_fork_child(void)
{
    __atomic_add_fetch(&fc_fork_gen, 1, __ATOMIC_RELAXED);
}

static void fc_fork_register(void)
{
    if (pthread_atfork(NULL, NULL, fc_fork_child) != 0)
        fc_fork_use_pid = 1;
}

static uint64_t fc_fork_id(void)
{
    if (FC_UNLIKELY(fc_fork_use_pid))
        return (uint64_t)getpid();
    return __atomic_load_n(&fc_fork_gen, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------------ */

FC_DISPATCH(rand, newctx, fc_drbg_newctx);
FC_DISPATCH(rand, freectx, fc_drbg_freectx);
FC_DISPATCH(rand, instantiate, fc_drbg_instantiate);
FC_DISPATCH(rand, uninstantiate, fc_drbg_uninstantiate);
FC_DISPATCH(rand, generate, fc_drbg_generate);
FC_DISPATCH(rand, reseed, fc_drbg_reseed);
FC_DISPATCH(rand, enable_locking, fc_drbg_enable_locking);
FC_DISPATCH(rand, lock, fc_drbg_lock);
FC_DISPATCH(rand, unlock, fc_drbg_unlock);
FC_DISPATCH(rand, verify_zeroization, fc_drbg_verify_zeroization);
FC_DISPATCH(rand, get_seed, fc_drbg_get_seed);
FC_DISPATCH(rand, clear_seed, fc_drbg_clear_seed);

/* ------------------------------------------------------------------------ */
/* Locking */

static int fc_drbg_lock_parent(fc_drbg_ctx *c)
{
    if (c->parent_lock != NULL && !c->parent_lock(c->parent)) {
        FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE, "cannot lock parent");
        return 0;
    }
    return 1;
}

static void fc_drbg_unlock_parent(fc_drbg_ctx *c)
{
    if (c->parent_unlock != NULL)
        c->parent_unlock(c->parent);
}

static int fc_drbg_enable_locking(void *vctx)
{
    fc_drbg_ctx *c = vctx;
    pthread_mutexattr_t attr;
    int ok;

    if (c->locking)
        return 1;
    /* The parent serves several children at once, whatever we do. */
    if (c->parent_enable_locking != NULL &&
        !c->parent_enable_locking(c->parent)) {
        FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE,
                      "cannot enable locking in parent");
        return 0;
    }
    /* Recursive: the EVP layer locks around each call, and every entry
     * point locks again for callers that do not. */
    ok = pthread_mutexattr_init(&attr) == 0;
    ok = ok && pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE) == 0;
    ok = ok && pthread_mutex_init(&c->lock, &attr) == 0;
    pthread_mutexattr_destroy(&attr);
    if (!ok) {
        FC_RAISE_DATA(c->prov, FC_R_INTERNAL, "cannot create lock");
        return 0;
    }
    c->locking = 1;
    return 1;
}

static int fc_drbg_lock(void *vctx)
{
    return fc_drbg_lock_self(vctx);
}

static void fc_drbg_unlock(void *vctx)
{
    fc_drbg_unlock_self(vctx);
}

static void *fc_drbg_newctx(void *provctx, void *parent,
                            const OSSL_DISPATCH *pd)
{
    fc_prov_ctx *prov = provctx;
    fc_drbg_ctx *c;

    pthread_once(&fc_fork_once, fc_fork_register);
    c = OPENSSL_secure_zalloc(sizeof(*c));
    if (c == NULL) {
        FC_RAISE(prov, FC_R_MALLOC_FAILURE);
        return NULL;
    }
    c->prov = prov;
    c->parent = parent;
    for (; parent != NULL && pd != NULL && pd->function_id != 0; pd++) {
        switch (pd->function_id) {
        case OSSL_FUNC_RAND_ENABLE_LOCKING:
            c->parent_enable_locking = OSSL_FUNC_rand_enable_locking(pd);
            break;
        case OSSL_FUNC_RAND_LOCK:
            c->parent_lock = OSSL_FUNC_rand_lock(pd);
            break;
        case OSSL_FUNC_RAND_UNLOCK:
            c->parent_unlock = OSSL_FUNC_rand_unlock(pd);
            break;
        case OSSL_FUNC_RAND_GET_CTX_PARAMS:
            c->parent_get_ctx_params = OSSL_FUNC_rand_get_ctx_params(pd);
            break;
        case OSSL_FUNC_RAND_NONCE:
            c->parent_nonce = OSSL_FUNC_rand_nonce(pd);
            break;
        case OSSL_FUNC_RAND_GET_SEED:
            c->parent_get_seed = OSSL_FUNC_rand_get_seed(pd);
            break;
        case OSSL_FUNC_RAND_CLEAR_SEED:
            c->parent_clear_seed = OSSL_FUNC_rand_clear_seed(pd);
            break;
        }
    }
    c->parent_is_ours =
        parent != NULL && c->parent_get_seed == fc_drbg_get_seed;
    c->state = EVP_RAND_STATE_UNINITIALISED;
    c->reseed_requests = FC_DRBG_RESEED_REQUESTS;
    c->reseed_time_interval = FC_DRBG_RESEED_SECONDS;
    c->reseed_counter = 1;
    /* AES-256 with df unless configured otherwise ("cipher",
     * "use_derivation_function"), as the library asks anyway. */
    if (!fc_drbg_configure(c, 32, 1)) {
        OPENSSL_secure_clear_free(c, sizeof(*c));
        return NULL;
    }
    return c;
}

static void fc_drbg_freectx(void *vctx)
{
    fc_drbg_ctx *c = vctx;

    if (c == NULL)
        return;
    fc_ctr_drbg_uninstantiate(&c->core);
    if (c->locking)
        pthread_mutex_destroy(&c->lock);
    OPENSSL_secure_clear_free(c, sizeof(*c));
}

/* ------------------------------------------------------------------------ */
/* The parent */

static int fc_drbg_parent_strength(fc_drbg_ctx *c, unsigned int *str)
{
    OSSL_PARAM p[2] = {OSSL_PARAM_END, OSSL_PARAM_END};
    int ok;

    if (c->parent_get_ctx_params == NULL)
        goto err;
    p[0] = OSSL_PARAM_construct_uint(OSSL_RAND_PARAM_STRENGTH, str);
    if (!fc_drbg_lock_parent(c))
        return 0;
    ok = c->parent_get_ctx_params(c->parent, p);
    fc_drbg_unlock_parent(c);
    if (ok)
        return 1;
err:
    FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE, "cannot get parent strength");
    return 0;
}

/* The parent's count of (re)seeds, 0 if it keeps none. */
static unsigned int fc_drbg_parent_reseed_count(fc_drbg_ctx *c)
{
    OSSL_PARAM p[2] = {OSSL_PARAM_END, OSSL_PARAM_END};
    unsigned int r = 0;

    if (c->parent_is_ours) {
        /* Our own kind: an atomic read, no lock and no parameter lookup on
         * every generate. */
        const fc_drbg_ctx *pc = c->parent;
        return __atomic_load_n(&pc->reseed_counter, __ATOMIC_ACQUIRE);
    }
    if (c->parent_get_ctx_params == NULL || !fc_drbg_lock_parent(c))
        return 0;
    p[0] = OSSL_PARAM_construct_uint(OSSL_DRBG_PARAM_RESEED_COUNTER, &r);
    if (!c->parent_get_ctx_params(c->parent, p))
        r = 0;
    fc_drbg_unlock_parent(c);
    return r;
}

/*
 * Entropy input: |*len| bytes at |*buf|, |entropy| bits of it, between
 * |min_len| and |max_len| bytes. From the parent, or from getrandom when
 * there is none. Returns 1 or 0. Give it back with fc_drbg_put_entropy.
 */
static int fc_drbg_get_entropy(fc_drbg_ctx *c, uint8_t **buf, size_t *len,
                               unsigned int entropy, size_t min_len,
                               size_t max_len, int pr)
{
    unsigned int pstr = 0;
    size_t n;

    *buf = NULL;
    *len = 0;
    if (c->parent == NULL) {
        n = (entropy + 7) / 8;
        if (n < min_len)
            n = min_len;
        if (n > max_len)
            goto err;
        *buf = OPENSSL_secure_malloc(n);
        if (*buf == NULL)
            goto err;
        if (!fc_os_entropy(*buf, n)) {
            OPENSSL_secure_clear_free(*buf, n);
            *buf = NULL;
            goto err;
        }
        *len = n;
        return 1;
    }
    if (c->parent_get_seed == NULL) {
        FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE,
                      "parent cannot supply entropy");
        return 0;
    }
    /* SP 800-90C: a source weaker than us cannot seed us. */
    if (!fc_drbg_parent_strength(c, &pstr))
        return 0;
    if (pstr < c->strength) {
        FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE, "parent strength %u < %u",
                      pstr, c->strength);
        return 0;
    }
    if (!fc_drbg_lock_parent(c))
        return 0;
    /* Our address as additional input keeps sibling DRBGs apart. */
    n = c->parent_get_seed(c->parent, buf, (int)c->strength, min_len, max_len,
                           pr, (const unsigned char *)&c, sizeof(c));
    fc_drbg_unlock_parent(c);
    if (n == 0 || *buf == NULL)
        goto err;
    *len = n;
    if (n < min_len || n > max_len) {
        FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE,
                      "entropy length %zu outside [%zu, %zu]", n, min_len,
                      max_len);
        return 0; /* the caller still gives the buffer back */
    }
    return 1;
err:
    FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE, "no entropy");
    return 0;
}

static void fc_drbg_put_entropy(fc_drbg_ctx *c, uint8_t *buf, size_t len)
{
    if (buf == NULL)
        return;
    if (c->parent == NULL) {
        OPENSSL_secure_clear_free(buf, len);
    } else if (c->parent_clear_seed != NULL && fc_drbg_lock_parent(c)) {
        c->parent_clear_seed(c->parent, buf, len);
        fc_drbg_unlock_parent(c);
    }
    /* A parent without clear_seed (a test source) owns its buffer. */
}

/* The value "reseed_counter" takes once the (re)seed under way succeeds. */
static unsigned int fc_drbg_next_reseed_counter(const fc_drbg_ctx *c)
{
    unsigned int r = c->reseed_counter;

    if (r != 0 && ++r == 0)
        r = 1;
    return r;
}

/* Bookkeeping after a successful (re)seed. */
static void fc_drbg_seeded(fc_drbg_ctx *c, unsigned int next)
{
    c->state = EVP_RAND_STATE_READY;
    c->reseed_time = time(NULL);
    c->fork_id = fc_fork_id();
    if (c->parent != NULL)
        c->parent_reseed_counter = fc_drbg_parent_reseed_count(c);
    __atomic_store_n(&c->reseed_counter, next, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------------ */
/* Instantiate, reseed, generate (the lock is held) */

static int fc_drbg_instantiate_locked(fc_drbg_ctx *c, unsigned int strength,
                                      int pr, const uint8_t *pers,
                                      size_t pers_len)
{
    uint8_t *nonce = NULL, *entropy = NULL;
    size_t nonce_len = 0, entropy_len = 0;
    size_t min_len = c->min_entropylen, max_len = c->max_entropylen;
    unsigned int next;
    int ok = 0;

    if (strength > c->strength) {
        FC_RAISE_DATA(c->prov, FC_R_INVALID_PARAMETER, "strength %u > %u",
                      strength, c->strength);
        return 0;
    }
    if (pers == NULL) {
        pers = (const uint8_t *)fc_drbg_pers;
        pers_len = sizeof(fc_drbg_pers) - 1;
    }
    if (pers_len > c->max_perslen) {
        FC_RAISE_DATA(c->prov, FC_R_INPUT_TOO_LONG, "personalization string");
        return 0;
    }
    if (c->state != EVP_RAND_STATE_UNINITIALISED) {
        FC_RAISE_DATA(c->prov, FC_R_INVALID_PARAMETER, "%s",
                      c->state == EVP_RAND_STATE_ERROR
                          ? "in error state"
                          : "already instantiated");
        return 0;
    }
    c->state = EVP_RAND_STATE_ERROR;

    /* The nonce (SP 800-90A 8.6.7): the parent's nonce call; or, from a
     * parent without one, half again as much entropy in the same request;
     * or, without a parent, getrandom. */
    if (c->min_noncelen > 0) {
        if (c->parent_nonce != NULL) {
            nonce_len = c->parent_nonce(c->parent, NULL, c->strength,
                                        c->min_noncelen, c->max_noncelen);
            if (nonce_len == 0 || (nonce = OPENSSL_malloc(nonce_len)) == NULL ||
                c->parent_nonce(c->parent, nonce, c->strength, c->min_noncelen,
                                c->max_noncelen) != nonce_len) {
                FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE, "no nonce");
                goto end;
            }
        } else if (c->parent != NULL) {
            min_len += c->min_noncelen;
            max_len += c->max_noncelen;
        } else {
            nonce_len = c->min_noncelen;
            nonce = OPENSSL_malloc(nonce_len);
            if (nonce == NULL || !fc_os_entropy(nonce, nonce_len)) {
                FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE, "no nonce");
                goto end;
            }
        }
    }

    next = fc_drbg_next_reseed_counter(c);
    if (!fc_drbg_get_entropy(c, &entropy, &entropy_len, c->strength, min_len,
                             max_len, pr))
        goto end;
    if (!fc_ctr_drbg_instantiate(&c->core, entropy, entropy_len, nonce,
                                 nonce_len, pers, pers_len)) {
        FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE, "instantiate failed");
        goto end;
    }
    fc_drbg_seeded(c, next);
    ok = 1;
end:
    fc_drbg_put_entropy(c, entropy, entropy_len);
    if (nonce != NULL)
        OPENSSL_clear_free(nonce, nonce_len);
    return ok;
}

/* Error recovery before use: a DRBG in the error state is uninstantiated,
 * and an uninstantiated one is instantiated afresh. */
static int fc_drbg_restart(fc_drbg_ctx *c)
{
    if (c->state == EVP_RAND_STATE_ERROR) {
        fc_ctr_drbg_uninstantiate(&c->core);
        c->state = EVP_RAND_STATE_UNINITIALISED;
    }
    if (c->state == EVP_RAND_STATE_UNINITIALISED)
        fc_drbg_instantiate_locked(c, c->strength, 0, NULL, 0);
    if (c->state != EVP_RAND_STATE_READY) {
        FC_RAISE_DATA(c->prov, FC_R_OPERATION_NOT_INITIALIZED,
                      "DRBG not instantiated");
        return 0;
    }
    return 1;
}

static int fc_drbg_reseed_locked(fc_drbg_ctx *c, int pr, const uint8_t *ent,
                                 size_t ent_len, const uint8_t *adin,
                                 size_t adin_len)
{
    uint8_t *entropy = NULL;
    size_t entropy_len = 0;
    unsigned int next;
    int ok = 0;

    if (c->state != EVP_RAND_STATE_READY && !fc_drbg_restart(c))
        return 0;
    if (ent != NULL &&
        (ent_len < c->min_entropylen || ent_len > c->max_entropylen)) {
        FC_RAISE_DATA(c->prov, FC_R_INVALID_PARAMETER, "entropy length %zu",
                      ent_len);
        c->state = EVP_RAND_STATE_ERROR;
        return 0;
    }
    if (adin == NULL)
        adin_len = 0;
    if (adin_len > c->max_adinlen) {
        FC_RAISE_DATA(c->prov, FC_R_INPUT_TOO_LONG, "additional input");
        return 0;
    }
    c->state = EVP_RAND_STATE_ERROR;
    next = fc_drbg_next_reseed_counter(c);
    if (ent != NULL) {
        /* Caller-supplied entropy (RAND_add) goes in first, our own source
         * follows: it adds to what we have, never replaces it. */
        if (!fc_ctr_drbg_reseed(&c->core, ent, ent_len, adin, adin_len))
            goto end;
        adin = NULL;
        adin_len = 0;
    }
    if (!fc_drbg_get_entropy(c, &entropy, &entropy_len, c->strength,
                             c->min_entropylen, c->max_entropylen, pr))
        goto end;
    if (!fc_ctr_drbg_reseed(&c->core, entropy, entropy_len, adin, adin_len)) {
        FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE, "reseed failed");
        goto end;
    }
    fc_drbg_seeded(c, next);
    ok = 1;
end:
    fc_drbg_put_entropy(c, entropy, entropy_len);
    return ok;
}

/* SP 800-90A 9.3.1 step 7 and the reseed triggers listed at the top. */
static int fc_drbg_reseed_due(fc_drbg_ctx *c)
{
    if (c->fork_id != fc_fork_id())
        return 1;
    if (c->reseed_requests > 0 &&
        c->core.reseed_counter > (uint64_t)c->reseed_requests)
        return 1;
    if (c->reseed_time_interval > 0) {
        time_t now = time(NULL);
        if (now < c->reseed_time ||
            now - c->reseed_time >= c->reseed_time_interval)
            return 1;
    }
    if (c->parent != NULL &&
        fc_drbg_parent_reseed_count(c) != c->parent_reseed_counter)
        return 1;
    return 0;
}

static int fc_drbg_generate_locked(fc_drbg_ctx *c, uint8_t *out, size_t out_len,
                                   unsigned int strength, int pr,
                                   const uint8_t *adin, size_t adin_len)
{
    if (c->state != EVP_RAND_STATE_READY && !fc_drbg_restart(c))
        return 0;
    if (strength > c->strength) {
        FC_RAISE_DATA(c->prov, FC_R_INVALID_PARAMETER, "strength %u > %u",
                      strength, c->strength);
        return 0;
    }
    if (adin == NULL)
        adin_len = 0;
    if (adin_len > c->max_adinlen) {
        FC_RAISE_DATA(c->prov, FC_R_INPUT_TOO_LONG, "additional input");
        return 0;
    }
    /* Each piece of a large request is a generate request of its own with
     * the same additional input, as when the EVP layer splits it. */
    do {
        size_t n = out_len < c->max_request ? out_len : c->max_request;
        const uint8_t *a = adin;
        size_t a_len = adin_len;

        /* Prediction resistance: a reseed from a live source right before
         * the first block; the additional input goes into that reseed. */
        if (pr || fc_drbg_reseed_due(c)) {
            if (!fc_drbg_reseed_locked(c, pr, NULL, 0, a, a_len))
                return 0;
            a = NULL;
            a_len = 0;
            pr = 0;
        }
        if (!fc_ctr_drbg_generate(&c->core, out, n, a, a_len)) {
            c->state = EVP_RAND_STATE_ERROR;
            FC_RAISE_DATA(c->prov, FC_R_RANDOM_FAILURE, "generate failed");
            return 0;
        }
        out += n;
        out_len -= n;
    } while (out_len > 0);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Entry points */

static int fc_drbg_instantiate(void *vctx, unsigned int strength, int pr,
                               const unsigned char *pstr, size_t pstr_len,
                               const OSSL_PARAM params[])
{
    fc_drbg_ctx *c = vctx;
    int ok;

    if (!fc_drbg_lock_self(c))
        return 0;
    ok = fc_drbg_set_ctx_params_locked(c, params) &&
         fc_drbg_instantiate_locked(c, strength, pr, pstr, pstr_len);
    fc_drbg_unlock_self(c);
    return ok;
}

static int fc_drbg_uninstantiate(void *vctx)
{
    fc_drbg_ctx *c = vctx;

    if (!fc_drbg_lock_self(c))
        return 0;
    fc_ctr_drbg_uninstantiate(&c->core);
    c->state = EVP_RAND_STATE_UNINITIALISED;
    fc_drbg_unlock_self(c);
    return 1;
}

static int fc_drbg_reseed(void *vctx, int pr, const unsigned char *ent,
                          size_t ent_len, const unsigned char *adin,
                          size_t adin_len)
{
    fc_drbg_ctx *c = vctx;
    int ok;

    if (!fc_drbg_lock_self(c))
        return 0;
    ok = fc_drbg_reseed_locked(c, pr, ent, ent_len, adin, adin_len);
    fc_drbg_unlock_self(c);
    return ok;
}

static int fc_drbg_generate(void *vctx, unsigned char *out, size_t outlen,
                            unsigned int strength, int pr,
                            const unsigned char *adin, size_t adin_len)
{
    fc_drbg_ctx *c = vctx;
    int ok;

    if (!fc_drbg_lock_self(c))
        return 0;
    ok = fc_drbg_generate_locked(c, out, outlen, strength, pr, adin, adin_len);
    fc_drbg_unlock_self(c);
    if (ok)
        fc_stat_add(c->prov, FC_STAT_DRBG_BYTES, outlen);
    return ok;
}

/* Seed material for a child: |entropy| bits, between |min_len| and
 * |max_len| bytes, in a buffer the child gives back via clear_seed. */
static size_t fc_drbg_get_seed(void *vctx, unsigned char **pout, int entropy,
                               size_t min_len, size_t max_len, int pr,
                               const unsigned char *adin, size_t adin_len)
{
    fc_drbg_ctx *c = vctx;
    size_t n = entropy > 0 ? ((size_t)entropy + 7) / 8 : 0;
    uint8_t *buf;

    if (n < min_len)
        n = min_len;
    if (n > max_len)
        n = max_len;
    if (n == 0)
        return 0;
    buf = OPENSSL_secure_malloc(n);
    if (buf == NULL) {
        FC_RAISE(c->prov, FC_R_MALLOC_FAILURE);
        return 0;
    }
    if (!fc_drbg_lock_self(c)) {
        OPENSSL_secure_free(buf);
        return 0;
    }
    if (!fc_drbg_generate_locked(c, buf, n, c->strength, pr, adin, adin_len)) {
        fc_drbg_unlock_self(c);
        OPENSSL_secure_clear_free(buf, n);
        return 0;
    }
    fc_drbg_unlock_self(c);
    *pout = buf;
    return n;
}

static void fc_drbg_clear_seed(void *vctx, unsigned char *buf, size_t len)
{
    OPENSSL_secure_clear_free(buf, len);
}

static int fc_drbg_verify_zeroization(void *vctx)
{
    fc_drbg_ctx *c = vctx;
    int ok;

    if (!fc_drbg_lock_self(c))
        return 0;
    ok = fc_ctr_drbg_is_zeroized(&c->core);
    fc_drbg_unlock_self(c);
    return ok;
}

/* ------------------------------------------------------------------------ */

const OSSL_DISPATCH fc_ctr_drbg_functions[] = {
    FC_FN(RAND_NEWCTX, fc_drbg_newctx),
    FC_FN(RAND_FREECTX, fc_drbg_freectx),
    FC_FN(RAND_INSTANTIATE, fc_drbg_instantiate),
    FC_FN(RAND_UNINSTANTIATE, fc_drbg_uninstantiate),
    FC_FN(RAND_GENERATE, fc_drbg_generate),
    FC_FN(RAND_RESEED, fc_drbg_reseed),
    FC_FN(RAND_ENABLE_LOCKING, fc_drbg_enable_locking),
    FC_FN(RAND_LOCK, fc_drbg_lock),
    FC_FN(RAND_UNLOCK, fc_drbg_unlock),
    FC_FN(RAND_GETTABLE_CTX_PARAMS, fc_drbg_gettable_ctx_params),
    FC_FN(RAND_SETTABLE_CTX_PARAMS, fc_drbg_settable_ctx_params),
    FC_FN(RAND_GET_CTX_PARAMS, fc_drbg_get_ctx_params),
    FC_FN(RAND_SET_CTX_PARAMS, fc_drbg_set_ctx_params),
    FC_FN(RAND_VERIFY_ZEROIZATION, fc_drbg_verify_zeroization),
    FC_FN(RAND_GET_SEED, fc_drbg_get_seed),
    FC_FN(RAND_CLEAR_SEED, fc_drbg_clear_seed),
    OSSL_DISPATCH_END,
};
