/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_keygen.c - RSA key generation on our kernels (fc_rsa_generate, see
 * fc/rsa.h).
 *
 * FIPS 186-5 A.1.3 (random probable primes): odd candidates of bits/2 bits
 * with the top two bits set (so p > sqrt(2) * 2^(bits/2 - 1) and p*q has
 * exactly |bits| bits); trial division by the odd primes below 4096
 * (grouped into 64-bit products so a candidate costs one limb pass per
 * group); Miller-Rabin with random bases on our kernels, the round count
 * from FIPS 186-5 table B.1; gcd(e, p - 1) = 1; |p - q| > 2^(bits/2 - 100);
 * d = e^-1 mod lcm(p - 1, q - 1) with d > 2^(bits/2); dp, dq by division;
 * qinv by the constant-time inverse (fc/bn_nt.h).
 * Rejected candidates may leak through timing (they are discarded); the
 * accepted path leaks about as much as the usual implementations: the
 * number of trailing zero bits of p - 1 (the Miller-Rabin squaring count)
 * and the DIV timings of trial division.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fc/bn.h"
#include "fc/bn_nt.h"
#include "fc/common.h"
#include "fc/ct.h"
#include "fc/rsa.h"
#include "fc/rsa_engine.h"

typedef unsigned __int128 fc_u128;

#define MAXL FC_BN_MAX_LIMBS

#define SIEVE_LIMIT      4096
#define SIEVE_MAX_PRIMES 600
#define SIEVE_MAX_GROUPS 200

/* The odd primes below SIEVE_LIMIT, grouped so each group's product fits
 * in 64 bits. */
typedef struct rsa_sieve {
    uint16_t primes[SIEVE_MAX_PRIMES];
    uint64_t prod[SIEVE_MAX_GROUPS];
    uint16_t first[SIEVE_MAX_GROUPS + 1]; /* group g: primes[first[g]..) */
    size_t ngroups;
} rsa_sieve;

static void rsa_sieve_init(rsa_sieve *s)
{
    uint8_t composite[SIEVE_LIMIT] = {0};
    size_t np = 0;
    fc_u128 prod = 1;

    for (size_t i = 3; i < SIEVE_LIMIT; i += 2) {
        if (composite[i])
            continue;
        for (size_t j = i * i; j < SIEVE_LIMIT; j += 2 * i)
            composite[j] = 1;
        s->primes[np++] = (uint16_t)i;
    }
    s->ngroups = 0;
    s->first[0] = 0;
    for (size_t i = 0; i < np; i++) {
        if (prod * s->primes[i] >> 64) {
            s->prod[s->ngroups++] = (uint64_t)prod;
            s->first[s->ngroups] = (uint16_t)i;
            prod = 1;
        }
        prod *= s->primes[i];
    }
    s->prod[s->ngroups++] = (uint64_t)prod;
    s->first[s->ngroups] = (uint16_t)np;
}

/* 1 if x (n limbs) has no factor in the sieve. One limb pass per group
 * (remainder of the 64-bit product), then one small remainder per prime. */
static int rsa_trial_division(const uint64_t *x, size_t n, const rsa_sieve *s)
{
    for (size_t g = 0; g < s->ngroups; g++) {
        uint64_t r = 0;
        for (size_t j = n; j-- > 0;)
            r = (uint64_t)((((fc_u128)r << 64) | x[j]) % s->prod[g]);
        for (size_t i = s->first[g]; i < s->first[g + 1]; i++)
            if (r % s->primes[i] == 0)
                return 0;
    }
    return 1;
}

/*
 * Miller-Rabin rounds for a prime of |bits| bits (FIPS 186-5 table B.1,
 * probable primes p and q, the column matching the security strength of
 * the key size: 1024-bit primes 5 rounds, 1536 and 2048 4). Primes under
 * 1024 bits are outside the table: 512..1023 take 7 (FIPS 186-4 table C.3,
 * error 2^-100); smaller ones take 50, the worst-case 4^-t bound for
 * 2^-100.
 */
static unsigned rsa_mr_rounds(size_t bits)
{
    if (bits >= 1536)
        return 4;
    if (bits >= 1024)
        return 5;
    if (bits >= 512)
        return 7;
    return 50;
}

/* x = random odd number of exactly |bits| bits with the top two bits set;
 * w = limbs. */
static int rsa_random_candidate(uint64_t *x, size_t w, size_t bits,
                                fc_rand_fn *rng, void *rng_arg)
{
    uint8_t buf[8 * MAXL];

    if (!rng(rng_arg, buf, 8 * w))
        return 0;
    fc_bn_from_bytes_be(x, w, buf, 8 * w);
    fc_memzero(buf, sizeof(buf));
    if (bits % 64 != 0)
        x[w - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
    x[(bits - 1) / 64] |= (uint64_t)1 << ((bits - 1) % 64);
    x[(bits - 2) / 64] |= (uint64_t)1 << ((bits - 2) % 64);
    x[0] |= 1;
    return 1;
}

/*
 * Miller-Rabin on the odd x (w limbs, bits bits, > 2^64) with |rounds|
 * random bases in [2, x - 2]. Returns 1 (probably prime), 0 (composite),
 * -1 (RNG or allocation failure).
 */
static int rsa_miller_rabin(const uint64_t *x, size_t w, size_t bits,
                            unsigned rounds, const fc_rsa_engines *engines,
                            fc_rand_fn *rng, void *rng_arg)
{
    fc_mont mx;
    uint64_t m[MAXL], z[MAXL], minus1[MAXL];
    uint8_t buf[8 * MAXL];
    size_t s = 0;
    int ret = -1;

    if (!fc_mont_init(&mx, x, w, fc_rsa_kernels_for(engines, w)))
        return -1;
    /* x - 1 = 2^s * m, m odd. s leaks through the squaring count below. */
    memcpy(m, x, w * sizeof(uint64_t));
    m[0] &= ~(uint64_t)1;
    while ((m[s / 64] >> (s % 64) & 1) == 0)
        s++;
    for (size_t i = 0; i < s; i++)
        fc_bn_shr1_masked(m, w, ~(uint64_t)0);
    /* -1 in Montgomery form: x - (R mod x). */
    fc_bn_sub(minus1, x, mx.one, w);

    for (unsigned round = 0; round < rounds; round++) {
        uint64_t pass;
        /* Base: bits - 1 random bits, < 2^(bits-1) < x - 2; redraw 0, 1. */
        do {
            if (!rng(rng_arg, buf, 8 * w))
                goto done;
            fc_bn_from_bytes_be(z, w, buf, 8 * w);
            if ((bits - 1) % 64 != 0)
                z[(bits - 1) / 64] &= ((uint64_t)1 << ((bits - 1) % 64)) - 1;
            for (size_t j = (bits - 1 + 63) / 64; j < w; j++)
                z[j] = 0;
        } while (fc_bn_bits(z, w) < 2);
        if (!fc_bn_mod_exp(&mx, z, z, m, w, bits))
            goto done;
        fc_mont_to(&mx, z, z);
        pass = fc_bn_eq(z, mx.one, w) | fc_bn_eq(z, minus1, w);
        for (size_t i = 1; i < s && !pass; i++) {
            mx.ops->sqr(z, z, mx.m, mx.m0inv, w);
            pass = fc_bn_eq(z, minus1, w);
            if (fc_bn_eq(z, mx.one, w))
                break; /* 1 without passing -1: composite */
        }
        if (!pass) {
            ret = 0;
            goto done;
        }
    }
    ret = 1;
done:
    fc_mont_free(&mx);
    fc_bn_wipe(m, w);
    fc_bn_wipe(z, w);
    fc_memzero(buf, sizeof(buf));
    return ret;
}

/*
 * p = a random probable prime of |bits| bits (w limbs, top two bits set)
 * with gcd(e, p - 1) = 1, and if |other| is not NULL (ow limbs),
 * |p - other| > 2^(min_diff_bits) (FIPS 186-5 A.1.3 step 5.4).
 * Returns 1, or 0 on failure (RNG, allocation, no prime in the budget).
 */
static int rsa_gen_prime(uint64_t *p, size_t w, size_t bits, const uint64_t *e,
                         size_t el, const uint64_t *other, size_t ow,
                         size_t min_diff_bits, const rsa_sieve *sieve,
                         const fc_rsa_engines *engines, fc_rand_fn *rng,
                         void *rng_arg)
{
    const unsigned rounds = rsa_mr_rounds(bits);
    const size_t gw = (w > el ? w : el);
    uint64_t *scratch = calloc(3 * gw + 2 * MAXL, sizeof(uint64_t));
    uint64_t *ga, *gb, *g, *diff;
    int ret = 0;

    if (scratch == NULL)
        return 0;
    ga = scratch;
    gb = ga + gw;
    g = gb + gw;
    diff = g + gw;
    /* Far more candidates than needed (about 0.35 * bits on average). */
    for (size_t tries = 0; tries < 100 * bits; tries++) {
        int mr;
        if (!rsa_random_candidate(p, w, bits, rng, rng_arg))
            goto done;
        if (!rsa_trial_division(p, w, sieve))
            continue;
        if (other != NULL) {
            /* |p - other| over max(w, ow) limbs (at most one more). */
            const size_t dw = w > ow ? w : ow;
            uint64_t a1[MAXL], b1[MAXL], borrow;
            memset(a1, 0, sizeof(a1));
            memset(b1, 0, sizeof(b1));
            memcpy(a1, p, w * sizeof(uint64_t));
            memcpy(b1, other, ow * sizeof(uint64_t));
            borrow = fc_bn_sub(diff, a1, b1, dw);
            fc_bn_sub(diff + MAXL, b1, a1, dw);
            for (size_t j = 0; j < dw; j++)
                diff[j] = fc_ct_select(0 - borrow, diff[MAXL + j], diff[j]);
            if (fc_bn_bits(diff, dw) < min_diff_bits + 2)
                continue;
        }
        mr = rsa_miller_rabin(p, w, bits, 1, engines, rng, rng_arg);
        if (mr < 0)
            goto done;
        if (mr == 0)
            continue;
        /* gcd(e, p - 1) = 1. */
        memset(ga, 0, 2 * gw * sizeof(uint64_t));
        memcpy(ga, p, w * sizeof(uint64_t));
        ga[0] &= ~(uint64_t)1;
        memcpy(gb, e, el * sizeof(uint64_t));
        if (!fc_bn_gcd(g, ga, gb, gw))
            goto done;
        if (!fc_bn_eq_word(g, gw, 1))
            continue;
        mr = rsa_miller_rabin(p, w, bits, rounds - 1 > 0 ? rounds - 1 : 1,
                              engines, rng, rng_arg);
        if (mr < 0)
            goto done;
        if (mr == 1) {
            ret = 1;
            goto done;
        }
    }
done:
    fc_bn_wipe(scratch, 3 * gw + 2 * MAXL);
    free(scratch);
    return ret;
}

/* see fc/rsa.h */
fc_rsa_key *fc_rsa_generate(size_t bits, const uint8_t *e, size_t e_len,
                            const fc_rsa_engines *engines, fc_rand_fn *rng,
                            void *rng_arg)
{
    const size_t pbits = (bits + 1) / 2, qbits = bits / 2;
    const size_t pl = fc_bn_limbs_for_bits(pbits),
                 ql = fc_bn_limbs_for_bits(qbits);
    const size_t ll = pl + ql;
    /* n and d (ll limbs each), p, q, dp, dq, qinv as bytes. */
    const size_t bytes_len = 8 * (2 * ll + 3 * pl + 2 * ql);
    const size_t gw = pl; /* pl >= ql */
    const uint8_t *eb;
    size_t elen, el, ebits;
    rsa_sieve *sieve = NULL;
    uint64_t *mem = NULL, *p, *q, *pm1, *qm1, *g, *prod, *lambda, *emod, *d;
    uint64_t *dp, *dq, *qinv, *ee, *t;
    uint8_t *bytes = NULL;
    size_t mem_limbs;
    fc_rsa_key *key = NULL;
    fc_mont mp;

    memset(&mp, 0, sizeof(mp));
    if (rng == NULL || e == NULL || bits < FC_RSA_MIN_BITS ||
        bits > FC_RSA_MAX_BITS || bits > 64 * MAXL)
        return NULL;
    eb = fc_be_strip(e, e_len, &elen);
    ebits = fc_be_bits(eb, elen);
    /* e odd, > 1, and < 2^(bits - 1) < n. */
    if (elen == 0 || (eb[elen - 1] & 1) == 0 || ebits < 2 || ebits >= bits)
        return NULL;
    el = fc_bn_limbs_for_bits(ebits);

    /* p, q; p - 1, q - 1; gcd scratch; six (ll + 1)-limb values; dp, dq,
     * qinv. */
    mem_limbs = 2 * MAXL + (pl + ql) + 3 * pl + 6 * (ll + 1) + (2 * pl + ql);
    mem = calloc(mem_limbs, sizeof(uint64_t));
    sieve = malloc(sizeof(*sieve));
    bytes = malloc(bytes_len);
    if (mem == NULL || sieve == NULL || bytes == NULL)
        goto done;
    p = mem;
    q = p + MAXL;
    pm1 = q + MAXL;
    qm1 = pm1 + pl;
    g = qm1 + ql;
    prod = g + 3 * pl;
    lambda = prod + (ll + 1);
    emod = lambda + (ll + 1);
    d = emod + (ll + 1);
    ee = d + (ll + 1);
    t = ee + (ll + 1);
    dp = t + (ll + 1);
    dq = dp + pl;
    qinv = dq + ql;
    fc_bn_from_bytes_be(ee, ll, eb, elen);
    rsa_sieve_init(sieve);

    for (int attempt = 0; attempt < 16; attempt++) {
        const size_t min_diff = bits / 2 - 100;
        uint64_t ok;

        if (!rsa_gen_prime(p, pl, pbits, ee, el, NULL, 0, 0, sieve, engines,
                           rng, rng_arg) ||
            !rsa_gen_prime(q, ql, qbits, ee, el, p, pl, min_diff, sieve,
                           engines, rng, rng_arg))
            goto done;
        /* Order the factors p > q (a masked swap; only equal sizes can
         * be out of order). */
        if (pl == ql) {
            uint64_t sw = fc_bn_cmp_lt(p, q, pl);
            for (size_t j = 0; j < pl; j++) {
                uint64_t x = (p[j] ^ q[j]) & sw;
                p[j] ^= x;
                q[j] ^= x;
            }
        }
        /* lambda = (p - 1)(q - 1) / gcd(p - 1, q - 1). */
        memcpy(pm1, p, pl * sizeof(uint64_t));
        pm1[0] &= ~(uint64_t)1;
        memcpy(qm1, q, ql * sizeof(uint64_t));
        qm1[0] &= ~(uint64_t)1;
        memset(g, 0, 3 * pl * sizeof(uint64_t));
        memcpy(g + pl, pm1, pl * sizeof(uint64_t));
        memcpy(g + 2 * pl, qm1, ql * sizeof(uint64_t));
        if (!fc_bn_gcd(g, g + pl, g + 2 * pl, gw))
            goto done;
        fc_bn_mul(prod, pm1, pl, qm1, ql);
        if (!fc_bn_divmod(lambda, t, prod, ll, g, gw))
            goto done;
        /* d = (e mod lambda)^-1 mod lambda; e is odd and coprime to p - 1
         * and q - 1, so e mod lambda is odd and invertible. */
        if (!fc_bn_divmod(NULL, emod, ee, ll, lambda, ll))
            goto done;
        if (!fc_bn_modinv(d, emod, lambda, ll))
            continue;
        /* FIPS 186-5 A.1.1: d > 2^(bits/2), else start over. */
        ok = fc_ct_lt(bits / 2, fc_bn_bits(d, ll));
        FC_CT_PUBLIC(&ok, sizeof(ok));
        if (!ok)
            continue;
        if (!fc_bn_divmod(NULL, dp, d, ll, pm1, pl) ||
            !fc_bn_divmod(NULL, dq, d, ll, qm1, ql))
            goto done;
        /* qinv = (q mod p)^-1 mod p. */
        if (!fc_mont_init(&mp, p, pl, fc_rsa_kernels_for(engines, pl)))
            goto done;
        fc_mont_reduce_wide(&mp, t, q, ql);
        fc_bn_ct_inverse(&mp, qinv, t);
        fc_mont_free(&mp);
        fc_bn_mul(prod, p, pl, q, ql);

        /* Hand the components over as bytes: fc_rsa_key_new builds the
         * Montgomery contexts and checks p * q = n. */
        {
            uint8_t *nb_ = bytes, *db_ = nb_ + 8 * ll, *pb_ = db_ + 8 * ll;
            uint8_t *qb_ = pb_ + 8 * pl, *dpb = qb_ + 8 * ql;
            uint8_t *dqb = dpb + 8 * pl, *qib = dqb + 8 * ql;
            fc_rsa_components c;
            const char *why;

            fc_bn_to_bytes_be(nb_, 8 * ll, prod, ll);
            fc_bn_to_bytes_be(db_, 8 * ll, d, ll);
            fc_bn_to_bytes_be(pb_, 8 * pl, p, pl);
            fc_bn_to_bytes_be(qb_, 8 * ql, q, ql);
            fc_bn_to_bytes_be(dpb, 8 * pl, dp, pl);
            fc_bn_to_bytes_be(dqb, 8 * ql, dq, ql);
            fc_bn_to_bytes_be(qib, 8 * pl, qinv, pl);
            memset(&c, 0, sizeof(c));
            c.n = nb_;
            c.n_len = 8 * ll;
            c.e = eb;
            c.e_len = elen;
            c.d = db_;
            c.d_len = 8 * ll;
            c.p = pb_;
            c.p_len = 8 * pl;
            c.q = qb_;
            c.q_len = 8 * ql;
            c.dp = dpb;
            c.dp_len = 8 * pl;
            c.dq = dqb;
            c.dq_len = 8 * ql;
            c.qinv = qib;
            c.qinv_len = 8 * pl;
            key = fc_rsa_key_new(&c, engines, &why);
        }
        break;
    }
done:
    fc_mont_free(&mp);
    if (mem != NULL) {
        fc_bn_wipe(mem, mem_limbs);
        free(mem);
    }
    if (bytes != NULL) {
        fc_memzero(bytes, bytes_len);
        free(bytes);
    }
    free(sieve);
    if (key != NULL && fc_rsa_bits(key) != bits) {
        fc_rsa_key_free(key); /* cannot happen with the top two bits set */
        key = NULL;
    }
    return key;
}
