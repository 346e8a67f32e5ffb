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
#define MAXP FC_RSA_MAX_PRIMES

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
    fc_bn_wipe(minus1, w); /* x - (R mod x): gives x away */
    fc_memzero(buf, sizeof(buf));
    return ret;
}

/*
 * p = a random probable prime of |bits| bits (w limbs, top two bits set)
 * with gcd(e, p - 1) = 1 and |p - o| > 2^(min_diff_bits) for each of the
 * |nother| primes o of |others| (limbs |ow|) (FIPS 186-5 A.1.3 step 5.4,
 * for every pair of a multi-prime key). Returns 1, or 0 on failure (RNG,
 * allocation, no prime in the budget).
 */
static int rsa_gen_prime(uint64_t *p, size_t w, size_t bits, const uint64_t *e,
                         size_t el, const uint64_t (*others)[MAXL],
                         const size_t *ow, size_t nother, size_t min_diff_bits,
                         const rsa_sieve *sieve, const fc_rsa_engines *engines,
                         fc_rand_fn *rng, void *rng_arg)
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
        int mr, near = 0;

        if (!rsa_random_candidate(p, w, bits, rng, rng_arg))
            goto done;
        if (!rsa_trial_division(p, w, sieve))
            continue;
        for (size_t o = 0; o < nother && !near; o++) {
            /* |p - other| over max(w, ow) limbs (at most one more). */
            const size_t dw = w > ow[o] ? w : ow[o];
            uint64_t a1[MAXL], b1[MAXL], borrow;

            memset(a1, 0, sizeof(a1));
            memset(b1, 0, sizeof(b1));
            memcpy(a1, p, w * sizeof(uint64_t));
            memcpy(b1, others[o], ow[o] * sizeof(uint64_t));
            borrow = fc_bn_sub(diff, a1, b1, dw);
            fc_bn_sub(diff + MAXL, b1, a1, dw);
            for (size_t j = 0; j < dw; j++)
                diff[j] = fc_ct_select(0 - borrow, diff[MAXL + j], diff[j]);
            near = fc_bn_bits(diff, dw) < min_diff_bits + 2;
            fc_bn_wipe(a1, dw);
            fc_bn_wipe(b1, dw);
        }
        if (near)
            continue;
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
        /* rsa_mr_rounds gives at least 4 */
        mr = rsa_miller_rabin(p, w, bits, rounds - 1, engines, rng, rng_arg);
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
size_t fc_rsa_max_primes(size_t bits)
{
    if (bits < 1024)
        return 2;
    if (bits < 4096)
        return 3;
    if (bits < 8192)
        return 4;
    return FC_RSA_MAX_PRIMES;
}

/* Width of the key-wide values (n, d, lambda and their products' halves):
 * the modulus limbs plus one, plus one per prime for the products. */
#define LW (MAXL + MAXP + 1)

/* Everything fc_rsa_generate computes, wiped and freed as one. */
typedef struct rsa_gen {
    rsa_sieve sieve;
    uint64_t r[MAXP][MAXL], rm1[MAXP][MAXL]; /* primes, primes - 1 */
    uint64_t x[MAXP][MAXL], t[MAXP][MAXL];   /* exponents, coefficients */
    uint64_t prod[LW], lambda[LW], g[LW], a[LW], b[LW], big[2 * LW];
    uint64_t ee[LW], emod[LW], d[LW];
    /* the components as bytes: n, d, then per prime r, x, t */
    uint8_t bytes[2 + 3 * MAXP][8 * LW];
} rsa_gen;

/* r_0 ... r_(m-1), the product of the first |m| >= 1 primes, in g->prod
 * (zero above); returns its length in limbs. */
static size_t rsa_gen_product(rsa_gen *g, size_t m, const size_t *pl)
{
    size_t len = pl[0];

    memset(g->prod, 0, sizeof(g->prod));
    memcpy(g->prod, g->r[0], pl[0] * sizeof(uint64_t));
    for (size_t j = 1; j < m; j++) {
        fc_bn_mul(g->big, g->prod, len, g->r[j], pl[j]);
        len += pl[j];
        memcpy(g->prod, g->big, len * sizeof(uint64_t));
    }
    return len;
}

/* lambda = lcm(r_i - 1) over the |np| primes, in g->lambda (w limbs). */
static int rsa_gen_lambda(rsa_gen *g, size_t np, const size_t *pl, size_t w)
{
    memset(g->lambda, 0, sizeof(g->lambda));
    memcpy(g->lambda, g->rm1[0], pl[0] * sizeof(uint64_t));
    for (size_t i = 1; i < np; i++) {
        /* lcm(l, m) = l m / gcd(l, m); l m < n r_i fits 2w limbs. */
        memset(g->a, 0, sizeof(g->a));
        memcpy(g->a, g->rm1[i], pl[i] * sizeof(uint64_t));
        if (!fc_bn_gcd(g->g, g->lambda, g->a, w))
            return 0;
        fc_bn_mul(g->big, g->lambda, w, g->a, w);
        if (!fc_bn_divmod(g->lambda, g->b, g->big, w, g->g, w))
            return 0;
    }
    return 1;
}

/* see fc/rsa.h */
fc_rsa_key *fc_rsa_generate(size_t bits, size_t np, const uint8_t *e,
                            size_t e_len, const fc_rsa_engines *engines,
                            fc_rand_fn *rng, void *rng_arg)
{
    const size_t nl = fc_bn_limbs_for_bits(bits), w = nl + 1;
    size_t pbits[MAXP], pl[MAXP], elen, el, ebits;
    const uint8_t *eb;
    rsa_gen *g = NULL;
    fc_rsa_key *key = NULL;
    fc_mont mt;

    memset(&mt, 0, sizeof(mt));
    if (rng == NULL || e == NULL || bits < FC_RSA_MIN_BITS ||
        bits > FC_RSA_MAX_BITS || bits > 64 * MAXL || np < 2 ||
        np > fc_rsa_max_primes(bits))
        return NULL;
    eb = fc_be_strip(e, e_len, &elen);
    ebits = fc_be_bits(eb, elen);
    /* e odd, > 1, and < 2^(bits - 1) < n. */
    if (elen == 0 || (eb[elen - 1] & 1) == 0 || ebits < 2 || ebits >= bits)
        return NULL;
    el = fc_bn_limbs_for_bits(ebits);
    /* bits / np each, the first bits % np one longer (OpenSSL's split). */
    for (size_t i = 0; i < np; i++) {
        pbits[i] = bits / np + (i < bits % np);
        pl[i] = fc_bn_limbs_for_bits(pbits[i]);
    }
    g = calloc(1, sizeof(*g));
    if (g == NULL)
        return NULL;
    fc_bn_from_bytes_be(g->ee, w, eb, elen);
    rsa_sieve_init(&g->sieve);

    for (int attempt = 0; attempt < 16; attempt++) {
        size_t len, xbytes;
        uint64_t ok;

        for (size_t i = 0; i < np; i++)
            if (!rsa_gen_prime(g->r[i], pl[i], pbits[i], g->ee, el,
                               (const uint64_t(*)[MAXL])g->r, pl, i,
                               pbits[i] - 100, &g->sieve, engines, rng,
                               rng_arg))
                goto done;
        /* Order the first two p > q (a masked swap; only equal sizes can
         * be out of order). */
        if (pl[0] == pl[1]) {
            uint64_t sw = fc_bn_cmp_lt(g->r[0], g->r[1], pl[0]);

            for (size_t j = 0; j < pl[0]; j++) {
                uint64_t x = (g->r[0][j] ^ g->r[1][j]) & sw;

                g->r[0][j] ^= x;
                g->r[1][j] ^= x;
            }
        }
        /* n = the product; with three or more primes of the top two bits
         * it can fall one bit short: then start over. */
        len = rsa_gen_product(g, np, pl);
        ok = fc_ct_eq(fc_bn_bits(g->prod, len), bits);
        FC_CT_PUBLIC(&ok, sizeof(ok));
        if (!ok)
            continue;
        for (size_t i = 0; i < np; i++) {
            memcpy(g->rm1[i], g->r[i], pl[i] * sizeof(uint64_t));
            g->rm1[i][0] &= ~(uint64_t)1;
        }
        if (!rsa_gen_lambda(g, np, pl, w))
            goto done;
        /* d = (e mod lambda)^-1 mod lambda; e is odd and coprime to every
         * r_i - 1, so e mod lambda is odd and invertible. */
        if (!fc_bn_divmod(NULL, g->emod, g->ee, w, g->lambda, w))
            goto done;
        if (!fc_bn_modinv(g->d, g->emod, g->lambda, w))
            continue;
        /* FIPS 186-5 A.1.1: d > 2^(bits/2), else start over. */
        ok = fc_ct_lt(bits / 2, fc_bn_bits(g->d, w));
        FC_CT_PUBLIC(&ok, sizeof(ok));
        if (!ok)
            continue;
        /* d_i = d mod (r_i - 1); qinv = q^-1 mod p; t_i = (r_1 ... r_(i-1))^-1
         * mod r_i: the prefix product reduced mod r_i, inverted. */
        for (size_t i = 0; i < np; i++) {
            const size_t ci = i == 1 ? 0 : i; /* qinv is mod p */

            if (!fc_bn_divmod(NULL, g->x[i], g->d, w, g->rm1[i], pl[i]))
                goto done;
            if (i == 0)
                continue;
            if (!fc_mont_init(&mt, g->r[ci], pl[ci],
                              fc_rsa_kernels_for(engines, pl[ci])))
                goto done;
            if (i == 1) {
                fc_mont_reduce_wide(&mt, g->a, g->r[1], pl[1]);
            } else {
                len = rsa_gen_product(g, i, pl);
                fc_mont_reduce_wide(&mt, g->a, g->prod, len);
            }
            fc_bn_ct_inverse(&mt, g->t[i], g->a);
            fc_mont_free(&mt);
        }
        /* n again (prod was reused) */
        len = rsa_gen_product(g, np, pl);

        /* Hand the components over as bytes: fc_rsa_key_new checks that
         * the primes' product is n. */
        {
            fc_rsa_components c;
            const char *why;

            memset(&c, 0, sizeof(c));
            fc_bn_to_bytes_be(g->bytes[0], 8 * nl, g->prod, nl);
            fc_bn_to_bytes_be(g->bytes[1], 8 * nl, g->d, nl);
            c.n = g->bytes[0];
            c.n_len = 8 * nl;
            c.e = eb;
            c.e_len = elen;
            c.d = g->bytes[1];
            c.d_len = 8 * nl;
            for (size_t i = 0; i < np; i++) {
                uint8_t *rb = g->bytes[2 + 3 * i], *xb = g->bytes[3 + 3 * i];
                uint8_t *tb = g->bytes[4 + 3 * i];
                const size_t tl = pl[i == 1 ? 0 : i];

                xbytes = 8 * pl[i];
                fc_bn_to_bytes_be(rb, 8 * pl[i], g->r[i], pl[i]);
                fc_bn_to_bytes_be(xb, xbytes, g->x[i], pl[i]);
                if (i >= 1)
                    fc_bn_to_bytes_be(tb, 8 * tl, g->t[i], tl);
                switch (i) {
                case 0:
                    c.p = rb, c.p_len = 8 * pl[0];
                    c.dp = xb, c.dp_len = xbytes;
                    break;
                case 1:
                    c.q = rb, c.q_len = 8 * pl[1];
                    c.dq = xb, c.dq_len = xbytes;
                    c.qinv = tb, c.qinv_len = 8 * tl;
                    break;
                default:
                    c.r[i - 2] = rb, c.r_len[i - 2] = 8 * pl[i];
                    c.dr[i - 2] = xb, c.dr_len[i - 2] = xbytes;
                    c.tr[i - 2] = tb, c.tr_len[i - 2] = 8 * tl;
                    c.extra = i - 1;
                    break;
                }
            }
            key = fc_rsa_key_new(&c, engines, &why);
        }
        break;
    }
done:
    fc_mont_free(&mt);
    fc_memzero(g, sizeof(*g));
    free(g);
    if (key != NULL && fc_rsa_bits(key) != bits) {
        fc_rsa_key_free(key); /* cannot happen: the product was checked */
        key = NULL;
    }
    return key;
}
