/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_nt.c - number theory for RSA on fixed-size limb arrays (see
 * fc/bn_nt.h): masked steps, reduction of long numbers, the constant-time
 * inverse modulo an odd modulus (Bernstein-Yang division steps), binary
 * gcd, the modular inverse for key generation, bit-serial division.
 *
 * Everything is mask-driven with iteration counts fixed by the operand
 * lengths (public); the only outcomes that leave a function through a
 * branch are the ones its header comment names.
 *
 * Why division steps for the blinding inverses rather than Fermat
 * (r^(p-2) mod p): the two Fermat exponentiations cost about one private
 * operation, i.e. 3% of every operation once amortised over 32 uses
 * (measured: 13-14 us of a 460 us RSA-2048 operation with the MULX
 * kernels), where the division steps cost about 20 us per 1024-bit inverse,
 * under 2 us per operation amortised; and a key without CRT parts would
 * need r^(e*d - 2) mod n, two full-size exponentiations.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fc/bn.h"
#include "fc/bn_nt.h"
#include "fc/ct.h"

typedef unsigned __int128 fc_u128;

#define MAXL FC_BN_MAX_LIMBS

/* ------------------------------------------------------------------------ */
/* Masked steps. */

/* see fc/bn_nt.h */
uint64_t fc_bn_add_masked(uint64_t *r, const uint64_t *b, size_t w,
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

/* see fc/bn_nt.h */
uint64_t fc_bn_sub_masked(uint64_t *r, const uint64_t *b, size_t w,
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

/* see fc/bn_nt.h */
void fc_bn_shr1_masked(uint64_t *x, size_t w, uint64_t mask)
{
    mask = fc_ct_barrier(mask);
    for (size_t j = 0; j < w; j++) {
        uint64_t hi = j + 1 < w ? x[j + 1] << 63 : 0;
        x[j] = fc_ct_select(mask, (x[j] >> 1) | hi, x[j]);
    }
}

/* see fc/bn_nt.h */
void fc_bn_shl1_masked(uint64_t *x, size_t w, uint64_t mask)
{
    mask = fc_ct_barrier(mask);
    for (size_t j = w; j-- > 0;) {
        uint64_t lo = j > 0 ? x[j - 1] >> 63 : 0;
        x[j] = fc_ct_select(mask, (x[j] << 1) | lo, x[j]);
    }
}

/* see fc/bn_nt.h */
uint64_t fc_bn_eq(const uint64_t *a, const uint64_t *b, size_t w)
{
    uint64_t acc = 0;

    for (size_t j = 0; j < w; j++)
        acc |= a[j] ^ b[j];
    return fc_ct_is_zero(acc);
}

/* see fc/bn_nt.h */
uint64_t fc_bn_eq_word(const uint64_t *a, size_t w, uint64_t v)
{
    uint64_t acc = a[0] ^ v;

    for (size_t j = 1; j < w; j++)
        acc |= a[j];
    return fc_ct_is_zero(acc);
}

/* ------------------------------------------------------------------------ */
/* Reduction of long numbers. */

/* see fc/bn_nt.h */
void fc_mont_reduce_wide(const fc_mont *mt, uint64_t *r, const uint64_t *a,
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
    fc_bn_wipe(t, 2 * n);
}

/* see fc/bn_nt.h */
void fc_bn_mod_shift(uint64_t *r, const uint64_t *x, size_t xl, size_t xbits,
                     const uint64_t *m, size_t ml, size_t mbits)
{
    const size_t w = (xl > ml ? xl : ml) + 1;
    uint64_t t[MAXL + 1], ms[MAXL + 1], d[MAXL + 1];
    size_t k = xbits >= mbits ? xbits - mbits + 1 : 0;

    memset(t, 0, w * sizeof(uint64_t));
    memcpy(t, x, xl * sizeof(uint64_t));
    /* ms = m << (k - 1) < 2^xbits: x < 2^xbits <= m 2^k (m >= 2^(mbits-1)),
     * so each step s = k-1..0 leaves x < m 2^s. */
    memset(ms, 0, w * sizeof(uint64_t));
    if (k > 0) {
        const size_t sh = k - 1, ls = sh / 64, bs = sh % 64;

        for (size_t j = 0; j < ml && j + ls < w; j++) {
            ms[j + ls] |= m[j] << bs;
            if (bs != 0 && j + ls + 1 < w)
                ms[j + ls + 1] |= m[j] >> (64 - bs);
        }
    }
    for (size_t s = k; s-- > 0;) {
        uint64_t ge = fc_bn_sub(d, t, ms, w) - 1; /* no borrow: all-ones */

        for (size_t j = 0; j < w; j++)
            t[j] = fc_ct_select(ge, d[j], t[j]);
        fc_bn_shr1_masked(ms, w, ~(uint64_t)0);
    }
    memcpy(r, t, ml * sizeof(uint64_t));
    fc_bn_wipe(t, w);
    fc_bn_wipe(d, w);
    fc_bn_wipe(ms, w); /* m shifted: m is a prime or p - 1 */
}

/* ------------------------------------------------------------------------ */
/* Constant-time inverse modulo an odd modulus: Bernstein-Yang division
 * steps. */

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
    fc_bn_add_masked(a, m, w, fc_ct_msb_mask(a[w - 1]));
    fc_bn_sub_masked(a, m, w, ~fc_bn_cmp_lt(a, m, w));
}

/* see fc/bn_nt.h */
void fc_bn_ct_inverse(const fc_mont *mt, uint64_t *r, const uint64_t *x)
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
    fc_bn_wipe(f, w);
    fc_bn_wipe(g, w);
    fc_bn_wipe(d, w);
    fc_bn_wipe(e, w);
    fc_bn_wipe(m, w); /* a copy of the (secret) prime modulus */
}

/* ------------------------------------------------------------------------ */
/* gcd, inverse modulo any modulus, division: mask-driven, iteration counts
 * fixed by the (public) operand widths. */

/* see fc/bn_nt.h
 *
 * g = gcd(a, b), all w limbs (binary GCD). Common factors of two are
 * divided out first and multiplied back at the end, both in 64w masked
 * steps; the core loop then has one odd operand and runs 128w steps, each
 * subtracting the smaller from the larger when both are odd and halving the
 * even one. Returns 0 on allocation failure.
 */
int fc_bn_gcd(uint64_t *g, const uint64_t *a, const uint64_t *b, size_t w)
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
        both_even &= ~(fc_bn_eq_word(u, w, 0) & fc_bn_eq_word(v, w, 0));
        fc_bn_shr1_masked(u, w, both_even);
        fc_bn_shr1_masked(v, w, both_even);
        shift += both_even & 1;
    }
    for (size_t i = 0; i < 128 * w; i++) {
        uint64_t both_odd = 0 - (u[0] & v[0] & 1);
        uint64_t lt = fc_bn_cmp_lt(u, v, w);
        uint64_t u_even;
        fc_bn_sub_masked(u, v, w, both_odd & ~lt);
        fc_bn_sub_masked(v, u, w, both_odd & lt);
        u_even = 0 - (~u[0] & 1);
        fc_bn_shr1_masked(u, w, u_even);
        fc_bn_shr1_masked(v, w, ~u_even & (0 - (~v[0] & 1)));
    }
    /* One of u, v is zero now. */
    for (size_t j = 0; j < w; j++)
        g[j] = u[j] | v[j];
    for (size_t i = 0; i < 64 * w; i++)
        fc_bn_shl1_masked(g, w, fc_ct_lt(i, shift));
    fc_bn_wipe(u, 2 * w);
    free(u);
    return 1;
}

/* see fc/bn_nt.h
 *
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
int fc_bn_modinv(uint64_t *r, const uint64_t *a, const uint64_t *n, size_t w)
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

        fc_bn_sub_masked(u, v, W, su);
        fc_bn_add_masked(A, C, W, su);
        fc_bn_add_masked(B, D, W, su);
        fc_bn_sub_masked(v, u, W, sv);
        fc_bn_add_masked(C, A, W, sv);
        fc_bn_add_masked(D, B, W, sv);
        red = su & ~fc_bn_cmp_lt(A, nn, W);
        fc_bn_sub_masked(A, nn, W, red);
        fc_bn_sub_masked(B, aa, W, red);
        red = sv & ~fc_bn_cmp_lt(C, nn, W);
        fc_bn_sub_masked(C, nn, W, red);
        fc_bn_sub_masked(D, aa, W, red);

        ue = 0 - (~u[0] & 1);
        odd = 0 - ((A[0] | B[0]) & 1);
        fc_bn_add_masked(A, nn, W, ue & odd);
        fc_bn_add_masked(B, aa, W, ue & odd);
        fc_bn_shr1_masked(u, W, ue);
        fc_bn_shr1_masked(A, W, ue);
        fc_bn_shr1_masked(B, W, ue);
        ve = ~ue & (0 - (~v[0] & 1));
        odd = 0 - ((C[0] | D[0]) & 1);
        fc_bn_add_masked(C, nn, W, ve & odd);
        fc_bn_add_masked(D, aa, W, ve & odd);
        fc_bn_shr1_masked(v, W, ve);
        fc_bn_shr1_masked(C, W, ve);
        fc_bn_shr1_masked(D, W, ve);
    }
    ok = fc_bn_eq_word(v, W, 1);
    /* r = n - C (C != 0 when v = 1 and n > 1). */
    fc_bn_sub(r, nn, C, w);
    fc_bn_wipe(mem, 8 * W);
    free(mem);
    FC_CT_PUBLIC(&ok, sizeof(ok));
    return ok != 0;
}

/* see fc/bn_nt.h
 *
 * Bit-serial division: q = a / m (al limbs, if q is not NULL) and
 * rem = a mod m (ml limbs), for m != 0. 64 al steps, each a shift, a
 * trial subtraction and a masked select.
 * Returns 0 on allocation failure.
 */
int fc_bn_divmod(uint64_t *q, uint64_t *rem, const uint64_t *a, size_t al,
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
        fc_bn_shl1_masked(r, W, ~(uint64_t)0);
        r[0] |= (a[bit / 64] >> (bit % 64)) & 1;
        ge = fc_bn_sub(t, r, mm, W) - 1; /* no borrow: all-ones */
        for (size_t j = 0; j < W; j++)
            r[j] = fc_ct_select(ge, t[j], r[j]);
        if (q != NULL)
            q[bit / 64] |= (ge & 1) << (bit % 64);
    }
    memcpy(rem, r, ml * sizeof(uint64_t));
    fc_bn_wipe(mem, 3 * W);
    free(mem);
    return 1;
}
