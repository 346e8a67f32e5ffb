/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa.c - the raw RSA primitive on our Montgomery kernels (see fc/rsa.h):
 * key import with precomputed Montgomery contexts, the public operation and
 * the private operation (CRT, base blinding, check before release). Key
 * generation is in rsa_keygen.c, the number theory in bn_nt.c.
 *
 * Private operation. For an input c < n:
 *   1. take a blinding pair (A, Ai) = (r^e, r^-1) mod n, kept in Montgomery
 *      form with the key, and blind: c' = c * A mod n;
 *   2. m' = c'^d mod n by CRT (Garner): m1 = c'^dp mod p, m2 = c'^dq mod q,
 *      h = qinv * (m1 - m2) mod p, m' = m2 + h * q; both halves through the
 *      fixed-window fc_bn_mod_exp with the public exponent length 64 * limbs,
 *      c' reduced mod p and q with fc_mont_reduce. Keys without CRT parts
 *      use c'^d mod n;
 *   3. unblind: m = m' * Ai mod n (= c^d * r * r^-1);
 *   4. check m^e mod n == c before anything is written out: a fault in any
 *      step (a corrupted dp, a glitched multiplication) would otherwise hand
 *      out a value that factors n (the Bellcore attack). On a mismatch the
 *      output is zeros and the call fails.
 * Products of two non-Montgomery values x * y mod m are one kernel call
 * with one operand kept in Montgomery form (x * (y R) / R), so A, Ai and
 * qinv are stored as A R, Ai R and qinv R.
 *
 * Blinding pair. r is drawn from the caller's RNG (n-length plus 64 bits,
 * reduced mod n: bias below 2^-64). A = r^e with the public-exponent ladder.
 * r^-1 must not come from a variable-time inverse of a secret; it comes
 * from a constant-time inverse (Bernstein-Yang division steps,
 * fc_bn_ct_inverse in bn_nt.c): with CRT parts mod p and mod q, combined by the
 * same Garner step as above, else mod n. Inconsistent key parts only make a
 * wrong pair, hence a wrong result, which step 4 catches.
 * After each use both halves of the stored pair are squared (a pair for
 * r^2); every FC_RSA_BLINDING_USES uses, and whenever getpid() differs from
 * the process that drew it (a fork), a fresh pair is drawn. The pair is
 * guarded by a mutex; the regeneration runs outside it, so concurrent
 * callers never wait for one another's arithmetic.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "fc/bn.h"
#include "fc/bn_nt.h"
#include "fc/common.h"
#include "fc/ct.h"
#include "fc/rsa.h"
#include "fc/rsa_engine.h"

typedef unsigned __int128 fc_u128;

#define MAXL FC_BN_MAX_LIMBS

/* Uses of one blinding pair (squared in between) before a fresh one. */
#define FC_RSA_BLINDING_USES 32

struct fc_rsa_key {
    size_t bits, size;  /* modulus bit and byte lengths (public) */
    fc_mont mn, mp, mq; /* mp, mq set iff has_crt */
    /* Both CRT halves in one vector exponentiation, or NULL; with its
     * per-key constants (NULL: made on each call). */
    /* Chosen once (rsa_key_choose): the CRT exponentiation and its per-key
     * state (pre, may be NULL), the kernels of mn, mp, mq. */
    const fc_rsa_engine *crt;
    void *pre;
    const fc_bn_ops *kn, *kp, *kq;
    int has_d, has_crt;
    size_t elimbs; /* e, public */
    /* All limb arrays below point into |mem| (one allocation, one wipe). */
    uint64_t *mem;
    size_t mem_limbs;
    uint64_t *e;       /* elimbs */
    uint64_t *d;       /* n limbs, or NULL */
    uint64_t *dp, *dq; /* p, q limbs: dp mod (p - 1), dq mod (q - 1) */
    uint64_t *qinv_m;  /* (qinv mod p) * R mod p */
    /* dp, dq, qinv as imported (n limbs each), possibly unreduced: what
     * export hands back, as the default provider keeps them. */
    uint64_t *dp_in, *dq_in, *qinv_in;
    /* Blinding state, under |lock|. */
    pthread_mutex_t lock;
    uint64_t *bl_a, *bl_ai; /* A R mod n, Ai R mod n; n limbs each */
    unsigned bl_uses;
    int bl_valid;
    pid_t bl_pid;
};

/* ------------------------------------------------------------------------ */
/* Key import. */

/* Limbs of the key's |mem| allocation: e, d (if any), dp, dq, qinv_m and
 * the imported dp, dq, qinv (if CRT), the blinding pair. */
static size_t rsa_mem_limbs(size_t nl, size_t el, size_t pl, size_t ql,
                            int has_d, int has_crt)
{
    return el + (has_d ? nl : 0) + (has_crt ? 2 * pl + ql + 3 * nl : 0) +
           2 * nl;
}

/* Points the key's limb arrays into |mem| in the order above. */
static void rsa_key_point(fc_rsa_key *k, size_t nl, size_t pl, size_t ql)
{
    uint64_t *o = k->mem;

    k->e = o;
    o += k->elimbs;
    k->d = k->has_d ? o : NULL;
    o += k->has_d ? nl : 0;
    k->dp = k->has_crt ? o : NULL;
    o += k->has_crt ? pl : 0;
    k->dq = k->has_crt ? o : NULL;
    o += k->has_crt ? ql : 0;
    k->qinv_m = k->has_crt ? o : NULL;
    o += k->has_crt ? pl : 0;
    k->dp_in = k->has_crt ? o : NULL;
    k->dq_in = k->has_crt ? o + nl : NULL;
    k->qinv_in = k->has_crt ? o + 2 * nl : NULL;
    o += k->has_crt ? 3 * nl : 0;
    k->bl_a = o;
    k->bl_ai = o + nl;
}

/*
 * The key's engines, chosen here and nowhere else (fc/rsa_engine.h): the
 * CRT exponentiation from the first engine of |list| that takes the halves
 * of pl and ql limbs, each Montgomery context's kernels from the first
 * engine whose kernels take its size. An engine that refuses a size passes
 * it to the next one in the list.
 */
static void rsa_key_choose(fc_rsa_key *k, const fc_rsa_engines *list, size_t nl,
                           size_t pl, size_t ql)
{
    k->kn = fc_rsa_kernels_for(list, nl);
    if (k->has_crt) {
        k->crt = fc_rsa_engine_for(list, pl, ql);
        k->kp = fc_rsa_kernels_for(list, pl);
        k->kq = fc_rsa_kernels_for(list, ql);
    }
}

/* see fc/rsa.h */
fc_rsa_key *fc_rsa_key_new(const fc_rsa_components *c,
                           const fc_rsa_engines *engines, const char **reason)
{
    const char *why = "out of memory";
    const uint8_t *nb, *eb, *db = NULL, *pb = NULL, *qb = NULL;
    const uint8_t *dpb = NULL, *dqb = NULL, *qib = NULL;
    size_t nlen, elen, dlen = 0, plen = 0, qlen = 0;
    size_t dplen = 0, dqlen = 0, qilen = 0;
    size_t nbits, nl, el, pl = 0, ql = 0;
    int has_d, has_crt, ncrt;
    uint64_t nlimbs[MAXL], tmp[2 * MAXL + 2], tmp2[MAXL];
    fc_rsa_key *k = NULL;

    if (c == NULL || engines == NULL || c->n == NULL || c->e == NULL) {
        why = "missing modulus or public exponent";
        goto err;
    }
    /* Public parts: plain checks. */
    nb = fc_be_strip(c->n, c->n_len, &nlen);
    eb = fc_be_strip(c->e, c->e_len, &elen);
    nbits = fc_be_bits(nb, nlen);
    if (nbits < FC_RSA_MIN_BITS || nbits > FC_RSA_MAX_BITS) {
        why = "modulus size out of range";
        goto err;
    }
    if (nbits > 64 * MAXL) {
        why = "modulus larger than the bignum layer supports";
        goto err;
    }
    if ((nb[nlen - 1] & 1) == 0) {
        why = "even modulus";
        goto err;
    }
    if (elen == 0 || (eb[elen - 1] & 1) == 0 || (elen == 1 && eb[0] == 1) ||
        elen > nlen) {
        why = "public exponent not odd and > 1";
        goto err;
    }
    nl = fc_bn_limbs_for_bits(nbits);
    el = fc_bn_limbs_for_bits(fc_be_bits(eb, elen));
    fc_bn_from_bytes_be(nlimbs, nl, nb, nlen);
    fc_bn_from_bytes_be(tmp, nl, eb, elen);
    if (!fc_bn_cmp_lt(tmp, nlimbs, nl)) {
        why = "public exponent not below the modulus";
        goto err;
    }

    /* Private parts: only their lengths steer the checks below, apart from
     * pass/fail outcomes. */
    has_d = c->d != NULL;
    if (has_d) {
        db = fc_be_strip(c->d, c->d_len, &dlen);
        if (dlen == 0 || dlen > nlen) {
            why = "private exponent zero or longer than the modulus";
            goto err;
        }
    }
    ncrt = (c->p != NULL) + (c->q != NULL) + (c->dp != NULL) + (c->dq != NULL) +
           (c->qinv != NULL);
    if (ncrt != 0 && ncrt != 5) {
        why = "incomplete CRT parameters";
        goto err;
    }
    has_crt = ncrt == 5;
    if (has_crt) {
        pb = fc_be_strip(c->p, c->p_len, &plen);
        qb = fc_be_strip(c->q, c->q_len, &qlen);
        dpb = fc_be_strip(c->dp, c->dp_len, &dplen);
        dqb = fc_be_strip(c->dq, c->dq_len, &dqlen);
        qib = fc_be_strip(c->qinv, c->qinv_len, &qilen);
        if (plen == 0 || qlen == 0 || plen > nlen || qlen > nlen) {
            why = "bad prime factor length";
            goto err;
        }
        pl = fc_bn_limbs_for_bits(fc_be_bits(pb, plen));
        ql = fc_bn_limbs_for_bits(fc_be_bits(qb, qlen));
        /* dp, dq and qinv need not be reduced (dp + (p - 1) is as good
         * a CRT exponent): they are reduced below, and only a value
         * longer than the modulus is refused. */
        if (pl + ql > nl + 1 || dplen == 0 || dqlen == 0 || qilen == 0 ||
            dplen > nlen || dqlen > nlen || qilen > nlen) {
            why = "bad CRT parameter length";
            goto err;
        }
    }

    k = calloc(1, sizeof(*k));
    if (k == NULL)
        goto err;
    k->bits = nbits;
    k->size = nlen;
    k->has_d = has_d;
    k->has_crt = has_crt;
    k->elimbs = el;
    k->mem_limbs = rsa_mem_limbs(nl, el, pl, ql, has_d, has_crt);
    k->mem = calloc(k->mem_limbs, sizeof(uint64_t));
    if (k->mem == NULL)
        goto err;
    rsa_key_point(k, nl, pl, ql);
    rsa_key_choose(k, engines, nl, pl, ql);
    if (pthread_mutex_init(&k->lock, NULL) != 0) {
        free(k->mem);
        free(k);
        k = NULL;
        goto err;
    }
    if (!fc_mont_init(&k->mn, nlimbs, nl, k->kn))
        goto err;
    fc_bn_from_bytes_be(k->e, el, eb, elen);

    if (has_d) {
        uint64_t lt;
        fc_bn_from_bytes_be(k->d, nl, db, dlen);
        lt = fc_bn_cmp_lt(k->d, nlimbs, nl);
        FC_CT_PUBLIC(&lt, sizeof(lt)); /* the key is refused */
        if (!lt) {
            why = "private exponent not below the modulus";
            goto err;
        }
    }
    if (has_crt) {
        fc_bn_from_bytes_be(tmp2, pl, pb, plen);
        if (!fc_mont_init(&k->mp, tmp2, pl, k->kp)) {
            why = "invalid prime factor";
            goto err;
        }
        fc_bn_from_bytes_be(tmp2, ql, qb, qlen);
        if (!fc_mont_init(&k->mq, tmp2, ql, k->kq)) {
            why = "invalid prime factor";
            goto err;
        }
        /* p * q == n. The outcome is public (the key is refused). */
        fc_bn_mul(tmp, k->mp.m, pl, k->mq.m, ql);
        {
            uint64_t ok = fc_bn_eq(tmp, nlimbs, nl);
            for (size_t j = nl; j < pl + ql; j++)
                ok &= fc_ct_is_zero(tmp[j]);
            FC_CT_PUBLIC(&ok, sizeof(ok));
            if (!ok) {
                why = "p * q does not match the modulus";
                goto err;
            }
        }
        fc_bn_from_bytes_be(k->dp_in, nl, dpb, dplen);
        fc_bn_from_bytes_be(k->dq_in, nl, dqb, dqlen);
        fc_bn_from_bytes_be(k->qinv_in, nl, qib, qilen);
        /* The exponents reduced mod p - 1 and q - 1 by the mask-driven
         * division (x^(dp + j(p - 1)) = x^dp mod p): a fixed number of
         * steps whatever the values. p - 1 is p with its low bit cleared. */
        memcpy(tmp2, k->mp.m, pl * sizeof(uint64_t));
        tmp2[0] &= ~(uint64_t)1;
        if (!fc_bn_divmod(NULL, k->dp, k->dp_in, nl, tmp2, pl))
            goto err;
        memcpy(tmp2, k->mq.m, ql * sizeof(uint64_t));
        tmp2[0] &= ~(uint64_t)1;
        if (!fc_bn_divmod(NULL, k->dq, k->dq_in, nl, tmp2, ql))
            goto err;
        /* qinv is used as (qinv mod p) * R mod p (one kernel call per
         * product). */
        fc_mont_reduce_wide(&k->mp, k->qinv_m, k->qinv_in, nl);
        fc_mont_to(&k->mp, k->qinv_m, k->qinv_m);
        if (k->crt->pre_new != NULL &&
            (k->pre = k->crt->pre_new(&k->mp, &k->mq)) == NULL)
            goto err;
    }
    fc_memzero(tmp, sizeof(tmp));
    fc_memzero(tmp2, sizeof(tmp2));
    return k;

err:
    fc_memzero(tmp, sizeof(tmp));
    fc_memzero(tmp2, sizeof(tmp2));
    fc_rsa_key_free(k);
    if (reason != NULL)
        *reason = why;
    return NULL;
}

/* see fc/rsa.h */
void fc_rsa_key_free(fc_rsa_key *key)
{
    if (key == NULL)
        return;
    fc_mont_free(&key->mn);
    fc_mont_free(&key->mp);
    fc_mont_free(&key->mq);
    if (key->pre != NULL)
        key->crt->pre_free(key->pre);
    if (key->mem != NULL) {
        fc_bn_wipe(key->mem, key->mem_limbs);
        free(key->mem);
        pthread_mutex_destroy(&key->lock);
    }
    fc_memzero(key, sizeof(*key));
    free(key);
}

/* see fc/rsa.h */
fc_rsa_key *fc_rsa_key_dup(const fc_rsa_key *key)
{
    fc_rsa_key *k;

    if (key == NULL)
        return NULL;
    k = calloc(1, sizeof(*k));
    if (k == NULL)
        return NULL;
    k->bits = key->bits;
    k->size = key->size;
    k->has_d = key->has_d;
    k->has_crt = key->has_crt;
    k->crt = key->crt;
    k->kn = key->kn;
    k->kp = key->kp;
    k->kq = key->kq;
    k->elimbs = key->elimbs;
    k->mem_limbs = key->mem_limbs;
    k->mem = malloc(key->mem_limbs * sizeof(uint64_t));
    if (k->mem == NULL) {
        free(k);
        return NULL;
    }
    if (pthread_mutex_init(&k->lock, NULL) != 0) {
        free(k->mem);
        free(k);
        return NULL;
    }
    memcpy(k->mem, key->mem, key->mem_limbs * sizeof(uint64_t));
    rsa_key_point(k, key->mn.n, key->has_crt ? key->mp.n : 0,
                  key->has_crt ? key->mq.n : 0);
    /* The copy draws its own blinding pair (bl_valid = 0). */
    fc_bn_wipe(k->bl_a, key->mn.n);
    fc_bn_wipe(k->bl_ai, key->mn.n);
    if (key->pre != NULL && (k->pre = key->crt->pre_dup(key->pre)) == NULL) {
        fc_rsa_key_free(k);
        return NULL;
    }
    if (!fc_mont_copy(&k->mn, &key->mn) ||
        (key->has_crt && (!fc_mont_copy(&k->mp, &key->mp) ||
                          !fc_mont_copy(&k->mq, &key->mq)))) {
        fc_rsa_key_free(k);
        return NULL;
    }
    return k;
}

/* see fc/rsa.h */
size_t fc_rsa_bits(const fc_rsa_key *key)
{
    return key->bits;
}

/* see fc/rsa.h */
size_t fc_rsa_size(const fc_rsa_key *key)
{
    return key->size;
}

/* see fc/rsa.h */
int fc_rsa_has_private(const fc_rsa_key *key)
{
    return key->has_d || key->has_crt;
}

/* see fc/rsa.h */
int fc_rsa_has_crt(const fc_rsa_key *key)
{
    return key->has_crt;
}

/* see fc/rsa.h */
const fc_rsa_engine *fc_rsa_key_engine(const fc_rsa_key *key)
{
    return key->has_crt ? key->crt : NULL;
}

/* see fc/rsa.h */
const fc_bn_ops *fc_rsa_key_kernels(const fc_rsa_key *key, char which)
{
    switch (which) {
    case 'n':
        return key->kn;
    case 'p':
        return key->has_crt ? key->kp : NULL;
    case 'q':
        return key->has_crt ? key->kq : NULL;
    }
    return NULL;
}

/* see fc/rsa.h */
int fc_rsa_get_component(const fc_rsa_key *key, char which, uint8_t *out,
                         size_t cap, size_t *len)
{
    const uint64_t *v;
    size_t w, bytes;

    switch (which) {
    case 'n':
        v = key->mn.m;
        w = key->mn.n;
        break;
    case 'e':
        v = key->e;
        w = key->elimbs;
        break;
    case 'd':
        v = key->d;
        w = key->mn.n;
        break;
    case 'p':
        v = key->has_crt ? key->mp.m : NULL;
        w = key->mp.n;
        break;
    case 'q':
        v = key->has_crt ? key->mq.m : NULL;
        w = key->mq.n;
        break;
    case 'P':
        v = key->dp_in;
        w = key->mn.n;
        break;
    case 'Q':
        v = key->dq_in;
        w = key->mn.n;
        break;
    case 'i':
        v = key->qinv_in;
        w = key->mn.n;
        break;
    default:
        return 0;
    }
    if (v == NULL)
        return 0;
    /* Exported without leading zeros: the byte length is the length. */
    bytes = (fc_bn_bits(v, w) + 7) / 8;
    if (bytes > cap)
        return 0;
    fc_bn_to_bytes_be(out, bytes, v, w);
    *len = bytes;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* The operations. */

/* see fc/rsa.h */
int fc_rsa_public(const fc_rsa_key *key, uint8_t *out, const uint8_t *in)
{
    const size_t nl = key->mn.n;
    uint64_t x[MAXL], y[MAXL], lt;
    int ret = 0;

    fc_bn_from_bytes_be(x, nl, in, key->size);
    lt = fc_bn_cmp_lt(x, key->mn.m, nl);
    FC_CT_PUBLIC(&lt, sizeof(lt));
    if (lt && fc_bn_mod_exp_public(&key->mn, y, x, key->e, key->elimbs)) {
        fc_bn_to_bytes_be(out, key->size, y, nl);
        ret = 1;
    }
    fc_bn_wipe(x, nl);
    fc_bn_wipe(y, nl);
    return ret;
}

/*
 * out (n limbs) = x mod n with x = m1 (mod p), x = m2 (mod q), for m1 < p and
 * m2 < q (Garner): h = qinv * (m1 - m2) mod p, x = m2 + h * q < p * q.
 */
static void rsa_crt_combine(const fc_rsa_key *k, uint64_t *out,
                            const uint64_t *m1, const uint64_t *m2)
{
    const size_t nl = k->mn.n, pl = k->mp.n, ql = k->mq.n;
    uint64_t h[MAXL], t[2 * MAXL + 1], borrow;

    /* m2 may exceed p when q > p. */
    fc_mont_reduce_wide(&k->mp, h, m2, ql);
    borrow = fc_bn_sub(h, m1, h, pl);
    fc_bn_add_masked(h, k->mp.m, pl, 0 - borrow);
    k->mp.ops->mul(h, h, k->qinv_m, k->mp.m, k->mp.m0inv, pl);
    fc_bn_mul(t, h, pl, k->mq.m, ql);
    t[pl + ql] = 0;
    /* t + m2 < p*q: the carry out of the low ql limbs runs through the rest
     * without a branch. */
    {
        uint64_t c = fc_bn_add(t, t, m2, ql);
        for (size_t j = ql; j <= pl + ql; j++) {
            fc_u128 s = (fc_u128)t[j] + c;
            t[j] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
    }
    /* pl + ql <= nl + 1; the limbs above nl are zero since x < n. */
    memcpy(out, t, nl * sizeof(uint64_t));
    fc_bn_wipe(h, pl);
    fc_bn_wipe(t, pl + ql + 1);
}

/* y (n limbs) = x^d mod n for x < n, by CRT when the parts are there.
 * Returns 0 on allocation failure. */
static int rsa_exp_private(const fc_rsa_key *k, uint64_t *y, const uint64_t *x)
{
    const size_t nl = k->mn.n;
    uint64_t m1[MAXL], m2[MAXL];
    int ok;

    if (!k->has_crt)
        return fc_bn_mod_exp(&k->mn, y, x, k->d, nl, k->bits);
    fc_mont_reduce_wide(&k->mp, m1, x, nl);
    fc_mont_reduce_wide(&k->mq, m2, x, nl);
    /* The key's engine (both halves at once on the vector engines); the
     * exponent lengths are the public 64 * limbs. */
    ok = k->crt->exp2(k->pre, &k->mp, m1, m1, k->dp, 64 * k->mp.n, &k->mq, m2,
                      m2, k->dq, 64 * k->mq.n);
    if (ok)
        rsa_crt_combine(k, y, m1, m2);
    fc_bn_wipe(m1, k->mp.n);
    fc_bn_wipe(m2, k->mq.n);
    return ok;
}

/* A fresh blinding pair: a = r^e R mod n, ai = r^-1 R mod n, the inverse
 * through p and q when |use_crt|, else mod n. Returns 0 on an RNG or
 * allocation failure. */
static int rsa_blinding_new(const fc_rsa_key *k, uint64_t *a, uint64_t *ai,
                            int use_crt, fc_rand_fn *rng, void *rng_arg)
{
    const size_t nl = k->mn.n;
    uint8_t rb[8 * (MAXL + 1)];
    uint64_t r[MAXL + 1], x1[MAXL], x2[MAXL];
    int ok = 0;

    /* n + 64 bits reduced mod n (nl + 1 <= 2 nl). */
    if (rng == NULL || !rng(rng_arg, rb, 8 * (nl + 1)))
        goto done;
    fc_bn_from_bytes_be(r, nl + 1, rb, 8 * (nl + 1));
    fc_mont_reduce_wide(&k->mn, r, r, nl + 1);
    if (!fc_bn_mod_exp_public(&k->mn, a, r, k->e, k->elimbs))
        goto done;
    if (use_crt) {
        /* Two half-size inverses cost about half of one mod n. */
        fc_mont_reduce_wide(&k->mp, x1, r, nl);
        fc_mont_reduce_wide(&k->mq, x2, r, nl);
        fc_bn_ct_inverse(&k->mp, x1, x1);
        fc_bn_ct_inverse(&k->mq, x2, x2);
        rsa_crt_combine(k, ai, x1, x2);
    } else {
        fc_bn_ct_inverse(&k->mn, ai, r);
    }
    fc_mont_to(&k->mn, a, a);
    fc_mont_to(&k->mn, ai, ai);
    ok = 1;
done:
    fc_memzero(rb, sizeof(rb));
    fc_bn_wipe(r, nl + 1);
    fc_bn_wipe(x1, MAXL);
    fc_bn_wipe(x2, MAXL);
    return ok;
}

/* Takes the key's current blinding pair into a, ai and advances the stored
 * one (squares it), or draws a new one when it is used up, absent, or
 * inherited across a fork. */
static int rsa_blinding_take(fc_rsa_key *k, uint64_t *a, uint64_t *ai,
                             fc_rand_fn *rng, void *rng_arg)
{
    const fc_mont *mn = &k->mn;
    const size_t nl = mn->n;
    const pid_t pid = getpid();

    pthread_mutex_lock(&k->lock);
    if (k->bl_valid && k->bl_pid == pid && k->bl_uses < FC_RSA_BLINDING_USES) {
        memcpy(a, k->bl_a, nl * sizeof(uint64_t));
        memcpy(ai, k->bl_ai, nl * sizeof(uint64_t));
        mn->ops->sqr(k->bl_a, k->bl_a, mn->m, mn->m0inv, nl);
        mn->ops->sqr(k->bl_ai, k->bl_ai, mn->m, mn->m0inv, nl);
        k->bl_uses++;
        pthread_mutex_unlock(&k->lock);
        return 1;
    }
    pthread_mutex_unlock(&k->lock);

    /* Regenerate without holding the lock (about one private operation). If
     * two threads race here, each uses its own pair and the last one stored
     * wins: both are fresh. */
    if (!rsa_blinding_new(k, a, ai, k->has_crt, rng, rng_arg))
        return 0;
    pthread_mutex_lock(&k->lock);
    mn->ops->sqr(k->bl_a, a, mn->m, mn->m0inv, nl);
    mn->ops->sqr(k->bl_ai, ai, mn->m, mn->m0inv, nl);
    k->bl_uses = 1;
    k->bl_pid = pid;
    k->bl_valid = 1;
    pthread_mutex_unlock(&k->lock);
    return 1;
}

/*
 * One blinded private operation on c (< n) into y, checked: y^e == c.
 * With |use_crt| the exponentiation and the blinding inverse go through p
 * and q (the stored blinding pair), else through d alone with a fresh pair
 * made mod n. Returns 1 if the check passed (y holds the result), else 0
 * (y zeroed). The outcome is public: it depends on the key or a fault.
 */
static int rsa_private_once(fc_rsa_key *key, uint64_t *y, const uint64_t *c,
                            int use_crt, fc_rand_fn *rng, void *rng_arg)
{
    const fc_mont *mn = &key->mn;
    const size_t nl = mn->n;
    uint64_t x[MAXL], a[MAXL], ai[MAXL], ok = 0;
    int got;

    if (use_crt)
        got = rsa_blinding_take(key, a, ai, rng, rng_arg);
    else
        got = rsa_blinding_new(key, a, ai, 0, rng, rng_arg);
    if (!got)
        goto done;
    /* c * A: one kernel call, A is held as A R. */
    mn->ops->mul(x, c, a, mn->m, mn->m0inv, nl);
    if (use_crt) {
        if (!rsa_exp_private(key, y, x))
            goto done;
    } else if (!fc_bn_mod_exp(mn, y, x, key->d, nl, key->bits)) {
        goto done;
    }
    mn->ops->mul(y, y, ai, mn->m, mn->m0inv, nl);

    /* Check before release: y^e must give back the input. */
    if (!fc_bn_mod_exp_public(mn, x, y, key->e, key->elimbs))
        goto done;
    ok = fc_bn_eq(x, c, nl);
done:
    for (size_t j = 0; j < nl; j++)
        y[j] &= ok;
    FC_CT_PUBLIC(&ok, sizeof(ok));
    fc_bn_wipe(x, nl);
    fc_bn_wipe(a, nl);
    fc_bn_wipe(ai, nl);
    return ok != 0;
}

/* see fc/rsa.h */
int fc_rsa_private(fc_rsa_key *key, uint8_t *out, const uint8_t *in,
                   fc_rand_fn *rng, void *rng_arg)
{
    const fc_mont *mn = &key->mn;
    const size_t nl = mn->n;
    uint64_t c[MAXL], y[MAXL], lt;
    int ret = 0;

    if (!fc_rsa_has_private(key))
        return 0;
    fc_bn_from_bytes_be(c, nl, in, key->size);
    lt = fc_bn_cmp_lt(c, mn->m, nl);
    FC_CT_PUBLIC(&lt, sizeof(lt));
    if (!lt)
        goto done;
    ret = rsa_private_once(key, y, c, key->has_crt, rng, rng_arg);
    /* A CRT value that does not belong to the key (valid p and q, a wrong
     * dp, dq or qinv) fails every check; so would a one-off fault. With d
     * at hand, try once more without CRT, as OpenSSL's own code does: the
     * result is still blinded and checked. */
    if (!ret && key->has_crt && key->has_d)
        ret = rsa_private_once(key, y, c, 0, rng, rng_arg);
    fc_bn_to_bytes_be(out, key->size, y, nl);
done:
    fc_bn_wipe(c, nl);
    fc_bn_wipe(y, nl);
    return ret;
}

/* see fc/rsa.h */
int fc_rsa_get_d_padded(const fc_rsa_key *key, uint8_t *out)
{
    if (!key->has_d)
        return 0;
    fc_bn_to_bytes_be(out, key->size, key->d, key->mn.n);
    return 1;
}
