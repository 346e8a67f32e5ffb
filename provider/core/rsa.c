/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa.c - the raw RSA primitive on our Montgomery kernels (see fc/rsa.h):
 * key import with precomputed Montgomery contexts, the public operation, the
 * private operation (CRT, base blinding, check before release), and key
 * generation.
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
 * from a constant-time inverse (Bernstein-Yang division steps, see
 * rsa_ct_inverse): with CRT parts mod p and mod q, combined by the same
 * Garner step as above, else mod n. Inconsistent key parts only make a
 * wrong pair, hence a wrong result, which step 4 catches.
 * After each use both halves of the stored pair are squared (a pair for
 * r^2); every FC_RSA_BLINDING_USES uses, and whenever getpid() differs from
 * the process that drew it (a fork), a fresh pair is drawn. The pair is
 * guarded by a mutex; the regeneration runs outside it, so concurrent
 * callers never wait for one another's arithmetic.
 *
 * Why division steps rather than Fermat (r^(p-2) mod p): the two Fermat
 * exponentiations cost about one private operation, i.e. 3% of every
 * operation once amortised over 32 uses (measured: 13-14 us of a 460 us
 * RSA-2048 operation with the MULX kernels), where the division steps cost
 * about 20 us per 1024-bit inverse, under 2 us per operation amortised;
 * and the no-CRT case would need r^(e*d - 2) mod n, two full-size
 * exponentiations.
 *
 * Key generation (fc_rsa_generate) follows FIPS 186-5 A.1.3 (random
 * probable primes): odd candidates of bits/2 bits with the top two bits set
 * (so p > sqrt(2) * 2^(bits/2 - 1) and p*q has exactly |bits| bits); trial
 * division by the odd primes below 4096 (grouped into 64-bit products so a
 * candidate costs one limb pass per group); Miller-Rabin with random bases
 * on our kernels, the round count from FIPS 186-5 table B.1;
 * gcd(e, p - 1) = 1; |p - q| > 2^(bits/2 - 100); d = e^-1 mod
 * lcm(p - 1, q - 1) with d > 2^(bits/2); dp, dq by division; qinv by the
 * constant-time inverse.
 * The number theory (gcd, inverse, division) uses mask-driven loops with
 * iteration counts fixed by the operand lengths. Rejected candidates may
 * leak through timing (they are discarded); the accepted path leaks about
 * as much as the usual implementations: the number of trailing zero bits of
 * p - 1 (the Miller-Rabin squaring count) and the DIV timings of trial
 * division.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "fc/bn.h"
#include "fc/bn_exp2.h"
#include "fc/common.h"
#include "fc/ct.h"
#include "fc/rsa.h"

typedef unsigned __int128 fc_u128;

#define MAXL FC_BN_MAX_LIMBS

/* Uses of one blinding pair (squared in between) before a fresh one. */
#define FC_RSA_BLINDING_USES 32

/* Modulus sizes accepted: rsa.h allows 512..16384 bits, the bignum layer
 * stops at 64 * FC_BN_MAX_LIMBS = 8192. */
#define FC_RSA_MIN_BITS 512
#define FC_RSA_MAX_BITS 16384

struct fc_rsa_key {
    size_t bits, size;  /* modulus bit and byte lengths (public) */
    fc_mont mn, mp, mq; /* mp, mq set iff has_crt */
    /* Both CRT halves in one vector exponentiation, or NULL; with its
     * per-key constants (NULL: made on each call). */
    const fc_bn_exp2_ops *exp2;
    fc_bn_exp2_key *exp2k;
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

static int bn_divmod(uint64_t *q, uint64_t *rem, const uint64_t *a, size_t al,
                     const uint64_t *m, size_t ml);

/* ------------------------------------------------------------------------ */
/* Small limb helpers (lengths public, values secret). */

/* r += b & mask over w limbs; returns the carry. */
static uint64_t bn_add_masked(uint64_t *r, const uint64_t *b, size_t w,
                              uint64_t mask)
{
    uint64_t c = 0;

    mask = fc_ct_barrier(mask);
    for (size_t j = 0; j < w; j++) {
        fc_u128 s = (fc_u128)r[j] + (b[j] & mask) + c;
        r[j] = (uint64_t)s;
        c = (uint64_t)(s >> 64);
    }
    return c;
}

/* r -= b & mask over w limbs; returns the borrow. */
static uint64_t bn_sub_masked(uint64_t *r, const uint64_t *b, size_t w,
                              uint64_t mask)
{
    uint64_t c = 0;

    mask = fc_ct_barrier(mask);
    for (size_t j = 0; j < w; j++) {
        fc_u128 d = (fc_u128)r[j] - (b[j] & mask) - c;
        r[j] = (uint64_t)d;
        c = (uint64_t)(d >> 64) & 1;
    }
    return c;
}

/* x >>= 1 where mask is all-ones. */
static void bn_shr1_masked(uint64_t *x, size_t w, uint64_t mask)
{
    mask = fc_ct_barrier(mask);
    for (size_t j = 0; j < w; j++) {
        uint64_t hi = j + 1 < w ? x[j + 1] << 63 : 0;
        x[j] = fc_ct_select(mask, (x[j] >> 1) | hi, x[j]);
    }
}

/* x <<= 1 where mask is all-ones (the top bit falls off). */
static void bn_shl1_masked(uint64_t *x, size_t w, uint64_t mask)
{
    mask = fc_ct_barrier(mask);
    for (size_t j = w; j-- > 0;) {
        uint64_t lo = j > 0 ? x[j - 1] >> 63 : 0;
        x[j] = fc_ct_select(mask, (x[j] << 1) | lo, x[j]);
    }
}

/* All-ones if a == b over w limbs. */
static uint64_t bn_eq(const uint64_t *a, const uint64_t *b, size_t w)
{
    uint64_t acc = 0;

    for (size_t j = 0; j < w; j++)
        acc |= a[j] ^ b[j];
    return fc_ct_is_zero(acc);
}

/* All-ones if a == v (a small value) over w limbs. */
static uint64_t bn_eq_word(const uint64_t *a, size_t w, uint64_t v)
{
    uint64_t acc = a[0] ^ v;

    for (size_t j = 1; j < w; j++)
        acc |= a[j];
    return fc_ct_is_zero(acc);
}

static void bn_wipe(uint64_t *a, size_t w)
{
    fc_memzero(a, w * sizeof(uint64_t));
}

/* Skips leading zero bytes: a component's length is public, its value not
 * (rsa.h: "not leaked beyond their lengths"). */
static const uint8_t *strip_be(const uint8_t *p, size_t len, size_t *out_len)
{
    while (len > 0 && p[0] == 0) {
        p++;
        len--;
    }
    *out_len = len;
    return p;
}

/* Bit length of a stripped big-endian string (the top byte's bit count is
 * part of the length). */
static size_t be_bits(const uint8_t *p, size_t len)
{
    if (len == 0)
        return 0;
    return 8 * (len - 1) + (size_t)(32 - __builtin_clz((unsigned)p[0]));
}

static size_t limbs_for_bits(size_t bits)
{
    return (bits + 63) / 64;
}

/*
 * r (mont->n limbs) = a mod m for a of any length |alen|: fc_mont_reduce
 * takes up to 2n limbs, longer inputs (very unbalanced factors) are folded
 * from the top, n limbs at a time (r * 2^(64k) + next k limbs < m * R).
 */
static void rsa_reduce(const fc_mont *mt, uint64_t *r, const uint64_t *a,
                       size_t alen)
{
    const size_t n = mt->n;
    uint64_t t[2 * MAXL];
    size_t pos;

    if (alen <= 2 * n) {
        fc_mont_reduce(mt, r, a, alen);
        return;
    }
    pos = alen - 2 * n;
    fc_mont_reduce(mt, r, a + pos, 2 * n);
    while (pos > 0) {
        size_t k = pos < n ? pos : n;
        pos -= k;
        memcpy(t, a + pos, k * sizeof(uint64_t));
        memcpy(t + k, r, n * sizeof(uint64_t));
        fc_mont_reduce(mt, r, t, k + n);
    }
    bn_wipe(t, 2 * n);
}

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

/* see fc/rsa.h */
fc_rsa_key *fc_rsa_key_new(const fc_rsa_components *c, const fc_bn_ops *ops,
                           uint32_t caps, const char **reason)
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

    if (c == NULL || c->n == NULL || c->e == NULL) {
        why = "missing modulus or public exponent";
        goto err;
    }
    /* Public parts: plain checks. */
    nb = strip_be(c->n, c->n_len, &nlen);
    eb = strip_be(c->e, c->e_len, &elen);
    nbits = be_bits(nb, nlen);
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
    nl = limbs_for_bits(nbits);
    el = limbs_for_bits(be_bits(eb, elen));
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
        db = strip_be(c->d, c->d_len, &dlen);
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
        pb = strip_be(c->p, c->p_len, &plen);
        qb = strip_be(c->q, c->q_len, &qlen);
        dpb = strip_be(c->dp, c->dp_len, &dplen);
        dqb = strip_be(c->dq, c->dq_len, &dqlen);
        qib = strip_be(c->qinv, c->qinv_len, &qilen);
        if (plen == 0 || qlen == 0 || plen > nlen || qlen > nlen) {
            why = "bad prime factor length";
            goto err;
        }
        pl = limbs_for_bits(be_bits(pb, plen));
        ql = limbs_for_bits(be_bits(qb, qlen));
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
    if (pthread_mutex_init(&k->lock, NULL) != 0) {
        free(k->mem);
        free(k);
        k = NULL;
        goto err;
    }
    if (!fc_mont_init(&k->mn, nlimbs, nl, ops))
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
        if (!fc_mont_init(&k->mp, tmp2, pl, ops)) {
            why = "invalid prime factor";
            goto err;
        }
        fc_bn_from_bytes_be(tmp2, ql, qb, qlen);
        if (!fc_mont_init(&k->mq, tmp2, ql, ops)) {
            why = "invalid prime factor";
            goto err;
        }
        /* p * q == n. The outcome is public (the key is refused). */
        fc_bn_mul(tmp, k->mp.m, pl, k->mq.m, ql);
        {
            uint64_t ok = bn_eq(tmp, nlimbs, nl);
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
        if (!bn_divmod(NULL, k->dp, k->dp_in, nl, tmp2, pl))
            goto err;
        memcpy(tmp2, k->mq.m, ql * sizeof(uint64_t));
        tmp2[0] &= ~(uint64_t)1;
        if (!bn_divmod(NULL, k->dq, k->dq_in, nl, tmp2, ql))
            goto err;
        /* qinv is used as (qinv mod p) * R mod p (one kernel call per
         * product). */
        rsa_reduce(&k->mp, k->qinv_m, k->qinv_in, nl);
        fc_mont_to(&k->mp, k->qinv_m, k->qinv_m);
        if (pl == ql)
            k->exp2 = fc_bn_exp2_select(caps, pl);
        k->exp2k = fc_bn_exp2_key_new(k->exp2, &k->mp, &k->mq);
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
    fc_bn_exp2_key_free(key->exp2k);
    if (key->mem != NULL) {
        bn_wipe(key->mem, key->mem_limbs);
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
    k->exp2 = key->exp2;
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
    bn_wipe(k->bl_a, key->mn.n);
    bn_wipe(k->bl_ai, key->mn.n);
    k->exp2k = fc_bn_exp2_key_dup(key->exp2k);
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
    bn_wipe(x, nl);
    bn_wipe(y, nl);
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
    rsa_reduce(&k->mp, h, m2, ql);
    borrow = fc_bn_sub(h, m1, h, pl);
    bn_add_masked(h, k->mp.m, pl, 0 - borrow);
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
    bn_wipe(h, pl);
    bn_wipe(t, pl + ql + 1);
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
    rsa_reduce(&k->mp, m1, x, nl);
    rsa_reduce(&k->mq, m2, x, nl);
    if (k->exp2k != NULL)
        /* Both halves at once in vector lanes (same limb count). */
        ok = fc_bn_exp2_keyed(k->exp2k, &k->mp, m1, m1, k->dp, 64 * k->mp.n,
                              &k->mq, m2, m2, k->dq, 64 * k->mq.n);
    else if (k->exp2 != NULL)
        ok = fc_bn_exp2(k->exp2, &k->mp, m1, m1, k->dp, 64 * k->mp.n, &k->mq,
                        m2, m2, k->dq, 64 * k->mq.n);
    else
        ok = fc_bn_mod_exp(&k->mp, m1, m1, k->dp, k->mp.n, 64 * k->mp.n) &
             fc_bn_mod_exp(&k->mq, m2, m2, k->dq, k->mq.n, 64 * k->mq.n);
    if (ok)
        rsa_crt_combine(k, y, m1, m2);
    bn_wipe(m1, k->mp.n);
    bn_wipe(m2, k->mq.n);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Constant-time modular inverse: Bernstein-Yang division steps. */

/*
 * The division step on (delta, f, g), f odd:
 *   delta > 0 and g odd:  (1 - delta, g, (g - f) / 2)
 *   g odd otherwise:      (1 + delta, f, (g + f) / 2)
 *   g even:               (1 + delta, f, g / 2)
 * keeps gcd(f, g) and, from f = m, g = x, reaches g = 0 with f = +-gcd
 * after at most floor((49 b + 80) / 17) steps for m, x < 2^b (Bernstein and
 * Yang, "Fast constant-time gcd computation and modular inversion", 2019,
 * theorem 11.2). Alongside, d and e with d x = f and e x = g (mod m) follow
 * the same linear maps, the halvings done mod m; at the end x^-1 = +-d.
 *
 * Steps go in batches of 62: the choices of 62 steps depend only on delta
 * and the low 64 bits of f and g, so they are made on single words and
 * collected in a 2x2 matrix T with 2^62 (f', g') = T (f, g), whose entries
 * satisfy |u| + |v| <= 2^62 and |q| + |r| <= 2^62. T is then applied to the
 * full-size f, g (exactly divisible by 2^62) and to d, e mod m (made
 * divisible by adding a multiple of m, as in Montgomery reduction). The
 * step count depends on the bit length of m only; every choice is a mask.
 */
#define BY_BATCH 62

typedef struct by_matrix {
    int64_t u, v, q, r;
} by_matrix;

/* 62 division steps on the low words of f and g; returns the new delta. */
static uint64_t by_divsteps(uint64_t delta, uint64_t f, uint64_t g,
                            by_matrix *t)
{
    uint64_t u = 1, v = 0, q = 0, r = 1; /* two's complement words */

    for (int i = 0; i < BY_BATCH; i++) {
        /* swap: delta > 0 (delta never reaches -2^63) and g odd. */
        uint64_t sw = fc_ct_msb_mask(0 - delta) & (0 - (g & 1));
        uint64_t x, odd;

        /* (f, g) = (g, -f) and likewise for the matrix rows, delta = -delta;
         * then the "g odd" case below turns -f + g into (g - f). */
        x = (f ^ g) & sw;
        f ^= x;
        g ^= x;
        g = (g ^ sw) - sw;
        x = (u ^ q) & sw;
        u ^= x;
        q ^= x;
        q = (q ^ sw) - sw;
        x = (v ^ r) & sw;
        v ^= x;
        r ^= x;
        r = (r ^ sw) - sw;
        delta = (delta ^ sw) - sw;

        odd = 0 - (g & 1);
        g += f & odd;
        q += u & odd;
        r += v & odd;
        /* Halve g; doubling the f row instead keeps T integral. */
        delta++;
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    t->u = (int64_t)u;
    t->v = (int64_t)v;
    t->q = (int64_t)q;
    t->r = (int64_t)r;
    return delta;
}

/* s * x for a signed s and an unsigned x: one unsigned product, corrected
 * by x * 2^64 when s is negative (no branch). */
static inline __int128 by_mul(int64_t s, uint64_t x)
{
    unsigned __int128 p = (unsigned __int128)(uint64_t)s * x;

    p -= (unsigned __int128)(x & (uint64_t)(s >> 63)) << 64;
    return (__int128)p;
}

/*
 * a = (s * x + t * y + k * m) / 2^62 over w limbs of two's complement, for
 * a sum divisible by 2^62 (k = 0 and m unused for f and g). With
 * |s| + |t| <= 2^62 and 0 <= k < 2^62 every column stays below 2^127 in
 * magnitude. a may alias x or y.
 */
static void by_combine(uint64_t *a, const uint64_t *x, const uint64_t *y,
                       int64_t s, int64_t t, uint64_t k, const uint64_t *m,
                       size_t w)
{
    uint64_t lo;
    __int128 acc;

    /* The low 62 bits of column 0 are zero; output limb i - 1 takes bits
     * 62..125 of the running sum, so a is written one limb behind the
     * reads. */
    acc = by_mul(s, x[0]) + by_mul(t, y[0]);
    if (m != NULL)
        acc += (__int128)((unsigned __int128)k * m[0]);
    lo = (uint64_t)acc >> BY_BATCH;
    acc >>= 64; /* arithmetic shift (gcc, clang) */
    for (size_t i = 1; i + 1 < w; i++) {
        acc += by_mul(s, x[i]) + by_mul(t, y[i]);
        if (m != NULL)
            acc += (__int128)((unsigned __int128)k * m[i]);
        a[i - 1] = lo | ((uint64_t)acc << (64 - BY_BATCH));
        lo = (uint64_t)acc >> BY_BATCH;
        acc >>= 64;
    }
    /* Top limb: signed. */
    acc += (__int128)s * (int64_t)x[w - 1] + (__int128)t * (int64_t)y[w - 1];
    if (m != NULL)
        acc += (__int128)((unsigned __int128)k * m[w - 1]);
    a[w - 2] = lo | ((uint64_t)acc << (64 - BY_BATCH));
    a[w - 1] = (uint64_t)(acc >> BY_BATCH);
}

/* a in (-m, 2m) (two's complement, w limbs; m with a zero top limb) is
 * brought into [0, m). */
static void by_normalize(uint64_t *a, const uint64_t *m, size_t w)
{
    bn_add_masked(a, m, w, fc_ct_msb_mask(a[w - 1]));
    bn_sub_masked(a, m, w, ~fc_bn_cmp_lt(a, m, w));
}

/*
 * r = x^-1 mod m for the odd modulus of |mt| and x in [0, m) with
 * gcd(x, m) = 1 (otherwise r is some value: callers check their results).
 * CT: only the size of m leaks.
 */
static void rsa_ct_inverse(const fc_mont *mt, uint64_t *r, const uint64_t *x)
{
    const size_t n = mt->n, w = n + 1;
    const size_t steps = (49 * mt->bits + 80) / 17;
    const uint64_t low = ((uint64_t)1 << BY_BATCH) - 1;
    uint64_t f[MAXL + 1], g[MAXL + 1], d[MAXL + 1], e[MAXL + 1];
    uint64_t m[MAXL + 1], delta = 1, neg;

    memcpy(m, mt->m, n * sizeof(uint64_t));
    m[n] = 0;
    memcpy(f, m, w * sizeof(uint64_t));
    memcpy(g, x, n * sizeof(uint64_t));
    g[n] = 0;
    memset(d, 0, w * sizeof(uint64_t));
    memset(e, 0, w * sizeof(uint64_t));
    e[0] = 1;
    for (size_t done = 0; done < steps; done += BY_BATCH) {
        by_matrix t;
        uint64_t kd, ke, nf[MAXL + 1];

        delta = by_divsteps(delta, f[0], g[0], &t);
        /* f, g: exact. */
        by_combine(nf, f, g, t.u, t.v, 0, NULL, w);
        by_combine(g, f, g, t.q, t.r, 0, NULL, w);
        memcpy(f, nf, w * sizeof(uint64_t));
        /* d, e in [0, m): k chosen so that the low 62 bits cancel,
         * k = (low word) * (-m^-1) mod 2^62. */
        kd = ((uint64_t)t.u * d[0] + (uint64_t)t.v * e[0]) * mt->m0inv & low;
        ke = ((uint64_t)t.q * d[0] + (uint64_t)t.r * e[0]) * mt->m0inv & low;
        by_combine(nf, d, e, t.u, t.v, kd, m, w);
        by_combine(e, d, e, t.q, t.r, ke, m, w);
        memcpy(d, nf, w * sizeof(uint64_t));
        by_normalize(d, m, w);
        by_normalize(e, m, w);
        fc_memzero(nf, w * sizeof(uint64_t));
    }
    /* f = +-1: x^-1 = d or m - d. */
    neg = fc_ct_msb_mask(f[w - 1]);
    fc_bn_sub(e, m, d, w);
    for (size_t i = 0; i < n; i++)
        r[i] = fc_ct_select(neg, e[i], d[i]);
    bn_wipe(f, w);
    bn_wipe(g, w);
    bn_wipe(d, w);
    bn_wipe(e, w);
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
    rsa_reduce(&k->mn, r, r, nl + 1);
    if (!fc_bn_mod_exp_public(&k->mn, a, r, k->e, k->elimbs))
        goto done;
    if (use_crt) {
        /* Two half-size inverses cost about half of one mod n. */
        rsa_reduce(&k->mp, x1, r, nl);
        rsa_reduce(&k->mq, x2, r, nl);
        rsa_ct_inverse(&k->mp, x1, x1);
        rsa_ct_inverse(&k->mq, x2, x2);
        rsa_crt_combine(k, ai, x1, x2);
    } else {
        rsa_ct_inverse(&k->mn, ai, r);
    }
    fc_mont_to(&k->mn, a, a);
    fc_mont_to(&k->mn, ai, ai);
    ok = 1;
done:
    fc_memzero(rb, sizeof(rb));
    bn_wipe(r, nl + 1);
    bn_wipe(x1, MAXL);
    bn_wipe(x2, MAXL);
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
    ok = bn_eq(x, c, nl);
done:
    for (size_t j = 0; j < nl; j++)
        y[j] &= ok;
    FC_CT_PUBLIC(&ok, sizeof(ok));
    bn_wipe(x, nl);
    bn_wipe(a, nl);
    bn_wipe(ai, nl);
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
    bn_wipe(c, nl);
    bn_wipe(y, nl);
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

/* ------------------------------------------------------------------------ */
/* Number theory for key generation: mask-driven, iteration counts fixed by
 * the (public) operand widths. */

/*
 * g = gcd(a, b), all w limbs (binary GCD). Common factors of two are
 * divided out first and multiplied back at the end, both in 64w masked
 * steps; the core loop then has one odd operand and runs 128w steps, each
 * subtracting the smaller from the larger when both are odd and halving the
 * even one. Returns 0 on allocation failure.
 */
static int bn_gcd(uint64_t *g, const uint64_t *a, const uint64_t *b, size_t w)
{
    uint64_t *u = malloc(2 * w * sizeof(uint64_t)), *v, shift = 0;

    if (u == NULL)
        return 0;
    v = u + w;
    memcpy(u, a, w * sizeof(uint64_t));
    memcpy(v, b, w * sizeof(uint64_t));
    for (size_t i = 0; i < 64 * w; i++) {
        uint64_t both_even = 0 - (~(u[0] | v[0]) & 1);
        /* gcd(0, 0) = 0: stop shifting zeros. */
        both_even &= ~(bn_eq_word(u, w, 0) & bn_eq_word(v, w, 0));
        bn_shr1_masked(u, w, both_even);
        bn_shr1_masked(v, w, both_even);
        shift += both_even & 1;
    }
    for (size_t i = 0; i < 128 * w; i++) {
        uint64_t both_odd = 0 - (u[0] & v[0] & 1);
        uint64_t lt = fc_bn_cmp_lt(u, v, w);
        uint64_t u_even;
        bn_sub_masked(u, v, w, both_odd & ~lt);
        bn_sub_masked(v, u, w, both_odd & lt);
        u_even = 0 - (~u[0] & 1);
        bn_shr1_masked(u, w, u_even);
        bn_shr1_masked(v, w, ~u_even & (0 - (~v[0] & 1)));
    }
    /* One of u, v is zero now. */
    for (size_t j = 0; j < w; j++)
        g[j] = u[j] | v[j];
    for (size_t i = 0; i < 64 * w; i++)
        bn_shl1_masked(g, w, fc_ct_lt(i, shift));
    bn_wipe(u, 2 * w);
    free(u);
    return 1;
}

/*
 * r = a^-1 mod n, w limbs each, for a < n with a or n odd (n may be even).
 * Binary extended Euclid keeping both Bezout coefficients non-negative:
 *   u = A a - B n,  v = D n - C a,  0 <= A, C < n,  0 <= B, D <= a,
 * from u = a, v = n, A = D = 1, B = C = 0. A step subtracts the smaller of
 * u, v from the larger when both are odd (adding the coefficient pairs; if
 * A or C then reaches n, n comes off it and a off its partner, which a < n
 * guarantees is large enough), then halves the even one: its pair is halved
 * too, after adding (n, a) when either is odd, which makes both even. u
 * reaches 0 after at most bits(a) + bits(n) steps, and v is then gcd(a, n);
 * if it is 1, a^-1 = -C mod n. Returns 1 with r set if gcd(a, n) = 1, else
 * 0 (or on allocation failure).
 */
static int bn_modinv(uint64_t *r, const uint64_t *a, const uint64_t *n,
                     size_t w)
{
    const size_t W = w + 1; /* coefficient sums reach 2n */
    uint64_t *mem = calloc(8 * W, sizeof(uint64_t));
    uint64_t *u, *v, *A, *B, *C, *D, *aa, *nn, ok;

    if (mem == NULL)
        return 0;
    u = mem;
    v = u + W;
    A = v + W;
    B = A + W;
    C = B + W;
    D = C + W;
    aa = D + W;
    nn = aa + W;
    memcpy(aa, a, w * sizeof(uint64_t));
    memcpy(nn, n, w * sizeof(uint64_t));
    memcpy(u, a, w * sizeof(uint64_t));
    memcpy(v, n, w * sizeof(uint64_t));
    A[0] = 1;
    D[0] = 1;
    for (size_t i = 0; i < 128 * w; i++) {
        uint64_t both_odd = 0 - (u[0] & v[0] & 1);
        uint64_t lt = fc_bn_cmp_lt(u, v, W);
        uint64_t su = both_odd & ~lt, sv = both_odd & lt, ue, ve, odd, red;

        bn_sub_masked(u, v, W, su);
        bn_add_masked(A, C, W, su);
        bn_add_masked(B, D, W, su);
        bn_sub_masked(v, u, W, sv);
        bn_add_masked(C, A, W, sv);
        bn_add_masked(D, B, W, sv);
        red = su & ~fc_bn_cmp_lt(A, nn, W);
        bn_sub_masked(A, nn, W, red);
        bn_sub_masked(B, aa, W, red);
        red = sv & ~fc_bn_cmp_lt(C, nn, W);
        bn_sub_masked(C, nn, W, red);
        bn_sub_masked(D, aa, W, red);

        ue = 0 - (~u[0] & 1);
        odd = 0 - ((A[0] | B[0]) & 1);
        bn_add_masked(A, nn, W, ue & odd);
        bn_add_masked(B, aa, W, ue & odd);
        bn_shr1_masked(u, W, ue);
        bn_shr1_masked(A, W, ue);
        bn_shr1_masked(B, W, ue);
        ve = ~ue & (0 - (~v[0] & 1));
        odd = 0 - ((C[0] | D[0]) & 1);
        bn_add_masked(C, nn, W, ve & odd);
        bn_add_masked(D, aa, W, ve & odd);
        bn_shr1_masked(v, W, ve);
        bn_shr1_masked(C, W, ve);
        bn_shr1_masked(D, W, ve);
    }
    ok = bn_eq_word(v, W, 1);
    /* r = n - C (C != 0 when v = 1 and n > 1). */
    fc_bn_sub(r, nn, C, w);
    bn_wipe(mem, 8 * W);
    free(mem);
    FC_CT_PUBLIC(&ok, sizeof(ok));
    return ok != 0;
}

/*
 * Bit-serial division: q = a / m (al limbs, if q is not NULL) and
 * rem = a mod m (ml limbs), for m != 0. 64 al steps, each a shift, a
 * trial subtraction and a masked select.
 * Returns 0 on allocation failure.
 */
static int bn_divmod(uint64_t *q, uint64_t *rem, const uint64_t *a, size_t al,
                     const uint64_t *m, size_t ml)
{
    const size_t W = ml + 1;
    uint64_t *mem = calloc(3 * W, sizeof(uint64_t)), *r, *t, *mm;

    if (mem == NULL)
        return 0;
    r = mem;
    t = r + W;
    mm = t + W;
    memcpy(mm, m, ml * sizeof(uint64_t));
    if (q != NULL)
        memset(q, 0, al * sizeof(uint64_t));
    for (size_t bit = 64 * al; bit-- > 0;) {
        uint64_t ge;
        bn_shl1_masked(r, W, ~(uint64_t)0);
        r[0] |= (a[bit / 64] >> (bit % 64)) & 1;
        ge = fc_bn_sub(t, r, mm, W) - 1; /* no borrow: all-ones */
        for (size_t j = 0; j < W; j++)
            r[j] = fc_ct_select(ge, t[j], r[j]);
        if (q != NULL)
            q[bit / 64] |= (ge & 1) << (bit % 64);
    }
    memcpy(rem, r, ml * sizeof(uint64_t));
    bn_wipe(mem, 3 * W);
    free(mem);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Prime generation. */

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
                            unsigned rounds, const fc_bn_ops *ops,
                            fc_rand_fn *rng, void *rng_arg)
{
    fc_mont mx;
    uint64_t m[MAXL], z[MAXL], minus1[MAXL];
    uint8_t buf[8 * MAXL];
    size_t s = 0;
    int ret = -1;

    if (!fc_mont_init(&mx, x, w, ops))
        return -1;
    /* x - 1 = 2^s * m, m odd. s leaks through the squaring count below. */
    memcpy(m, x, w * sizeof(uint64_t));
    m[0] &= ~(uint64_t)1;
    while ((m[s / 64] >> (s % 64) & 1) == 0)
        s++;
    for (size_t i = 0; i < s; i++)
        bn_shr1_masked(m, w, ~(uint64_t)0);
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
        pass = bn_eq(z, mx.one, w) | bn_eq(z, minus1, w);
        for (size_t i = 1; i < s && !pass; i++) {
            mx.ops->sqr(z, z, mx.m, mx.m0inv, w);
            pass = bn_eq(z, minus1, w);
            if (bn_eq(z, mx.one, w))
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
    bn_wipe(m, w);
    bn_wipe(z, w);
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
                         const fc_bn_ops *ops, fc_rand_fn *rng, void *rng_arg)
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
        mr = rsa_miller_rabin(p, w, bits, 1, ops, rng, rng_arg);
        if (mr < 0)
            goto done;
        if (mr == 0)
            continue;
        /* gcd(e, p - 1) = 1. */
        memset(ga, 0, 2 * gw * sizeof(uint64_t));
        memcpy(ga, p, w * sizeof(uint64_t));
        ga[0] &= ~(uint64_t)1;
        memcpy(gb, e, el * sizeof(uint64_t));
        if (!bn_gcd(g, ga, gb, gw))
            goto done;
        if (!bn_eq_word(g, gw, 1))
            continue;
        mr = rsa_miller_rabin(p, w, bits, rounds - 1 > 0 ? rounds - 1 : 1, ops,
                              rng, rng_arg);
        if (mr < 0)
            goto done;
        if (mr == 1) {
            ret = 1;
            goto done;
        }
    }
done:
    bn_wipe(scratch, 3 * gw + 2 * MAXL);
    free(scratch);
    return ret;
}

/* see fc/rsa.h */
fc_rsa_key *fc_rsa_generate(size_t bits, const uint8_t *e, size_t e_len,
                            const fc_bn_ops *ops, uint32_t caps,
                            fc_rand_fn *rng, void *rng_arg)
{
    const size_t pbits = (bits + 1) / 2, qbits = bits / 2;
    const size_t pl = limbs_for_bits(pbits), ql = limbs_for_bits(qbits);
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
    eb = strip_be(e, e_len, &elen);
    ebits = be_bits(eb, elen);
    /* e odd, > 1, and < 2^(bits - 1) < n. */
    if (elen == 0 || (eb[elen - 1] & 1) == 0 || ebits < 2 || ebits >= bits)
        return NULL;
    el = limbs_for_bits(ebits);

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

        if (!rsa_gen_prime(p, pl, pbits, ee, el, NULL, 0, 0, sieve, ops, rng,
                           rng_arg) ||
            !rsa_gen_prime(q, ql, qbits, ee, el, p, pl, min_diff, sieve, ops,
                           rng, rng_arg))
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
        if (!bn_gcd(g, g + pl, g + 2 * pl, gw))
            goto done;
        fc_bn_mul(prod, pm1, pl, qm1, ql);
        if (!bn_divmod(lambda, t, prod, ll, g, gw))
            goto done;
        /* d = (e mod lambda)^-1 mod lambda; e is odd and coprime to p - 1
         * and q - 1, so e mod lambda is odd and invertible. */
        if (!bn_divmod(NULL, emod, ee, ll, lambda, ll))
            goto done;
        if (!bn_modinv(d, emod, lambda, ll))
            continue;
        /* FIPS 186-5 A.1.1: d > 2^(bits/2), else start over. */
        ok = fc_ct_lt(bits / 2, fc_bn_bits(d, ll));
        FC_CT_PUBLIC(&ok, sizeof(ok));
        if (!ok)
            continue;
        if (!bn_divmod(NULL, dp, d, ll, pm1, pl) ||
            !bn_divmod(NULL, dq, d, ll, qm1, ql))
            goto done;
        /* qinv = (q mod p)^-1 mod p. */
        if (!fc_mont_init(&mp, p, pl, ops))
            goto done;
        rsa_reduce(&mp, t, q, ql);
        rsa_ct_inverse(&mp, qinv, t);
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
            key = fc_rsa_key_new(&c, ops, caps, &why);
        }
        break;
    }
done:
    fc_mont_free(&mp);
    if (mem != NULL) {
        bn_wipe(mem, mem_limbs);
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
