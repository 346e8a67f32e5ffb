/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_mont.c - portable Montgomery multiplication and squaring, the bignum
 * kernel tables, Montgomery contexts, and constant-time modular
 * exponentiation (see fc/bn.h).
 *
 * Kernels. Both generic kernels use product scanning with the reduction
 * folded in column by column (FIPS, "finely integrated product scanning"):
 * column k of the result accumulates every a[i]*b[k-i] and q[i]*m[k-i] in a
 * three-word accumulator, q[k] is chosen when column k < n is complete so
 * that its low word becomes zero, and columns k >= n are the output. Nothing
 * but the accumulator is written inside the inner loops, and column k reads
 * only limbs >= k-n+1 of the inputs while it writes limb k-n of the output,
 * so r may alias a and b without a copy. Squaring sums each cross product
 * a[i]*a[j] (i < j) once in a second accumulator, doubles it and adds the
 * diagonal a[k/2]^2: 1.5n^2 word products instead of 2n^2.
 *
 * Bounds: with a, b < m and q < R = 2^(64n), (a*b + q*m) / R < 2m < 2R, so
 * the result is n limbs plus one carry bit; one subtraction of m, selected
 * by mask, reduces it fully. A column sums at most 2n + 1 products below
 * 2^128, so for n <= FC_BN_MAX_LIMBS the accumulator never exceeds 2^137.
 *
 * Exponentiation: left-to-right fixed window. The window table holds
 * x^0..x^(2^w - 1) in Montgomery form, one entry after the other, and every
 * lookup ANDs every entry with an equality mask and ORs them together, so
 * the memory trace is independent of the exponent. The window width grows
 * with the exponent size (see fc_bn_window).
 *
 * Measured (Xeon with BMI2/ADX/AVX-512 IFMA, KVM, 2 shared cores, gcc 12
 * -O2; minimum over 300 runs, +-5% between sessions): fc_bn_mod_exp with a
 * full-size odd modulus and exponent, against OpenSSL 3.0's
 * BN_mod_exp_mont_consttime on the same operands:
 *
 *   bits  | generic C          | mulx kernels       | OpenSSL consttime
 *   1024  | 345-370 us         | 207-220 us         | 230-250 us
 *         | mul 295, sqr 257 ns| mul 180, sqr 150 ns|
 *   1536  | 1150 us            | 660-690 us         | 760-790 us
 *   2048  | 2430-2500 us       | 1510-1550 us       | 1700-1800 us
 *
 * At 1024 bits with the mulx kernels about 8% of the time is the window
 * gathers (SSE2; a 256-bit AVX2 gather would save about 2 points), the
 * rest is the kernels. Window width for 1024-bit exponents: 4 and 5
 * measure the same within noise (5 does 35 fewer products, 4 reads 40%
 * fewer table words); 5 is kept since slower multipliers favour it. For
 * 2048- and 4096-bit exponents 5 and 6 tie, 4 is 3-5% slower.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fc/bn.h"
#include "fc/common.h"
#include "fc/ct.h"

typedef unsigned __int128 fc_u128;

/* ------------------------------------------------------------------------ */
/* The three-word column accumulator: lo (128 bits) and hi (64 bits). */

typedef struct fc_acc {
    fc_u128 lo;
    uint64_t hi;
} fc_acc;

/* acc += x * y. The product fits in 128 bits; the carry out of lo goes to
 * hi. Compiles to MUL, ADD, ADC, ADC with no branch. */
static inline void fc_acc_mac(fc_acc *acc, uint64_t x, uint64_t y)
{
    fc_u128 p = (fc_u128)x * y;
    acc->lo += p;
    acc->hi += (uint64_t)(acc->lo < p);
}

/* acc >>= 64: the low word has been consumed (output or zeroed by q). */
static inline void fc_acc_shift(fc_acc *acc)
{
    acc->lo = (acc->lo >> 64) | ((fc_u128)acc->hi << 64);
    acc->hi = 0;
}

/*
 * r = t - m if (top:t) >= m, else t, for (top:t) < 2m with top in {0, 1}.
 * tmp is n limbs of scratch. r may alias t. The choice is a mask: (top:t)
 * >= m exactly when the borrow of t - m equals top (top = 1 forces a borrow
 * because (top:t) - m < m < R).
 */
static void fc_mont_final_sub(uint64_t *r, const uint64_t *t, uint64_t top,
                              const uint64_t *m, uint64_t *tmp, size_t n)
{
    uint64_t borrow = fc_bn_sub(tmp, t, m, n);
    uint64_t mask = fc_ct_eq(top, borrow);

    for (size_t j = 0; j < n; j++)
        r[j] = fc_ct_select(mask, tmp[j], t[j]);
}

/* see fc/bn.h */
void fc_bn_mul_mont_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *m, uint64_t m0inv, size_t n)
{
    uint64_t q[FC_BN_MAX_LIMBS];
    fc_acc acc = {0, 0};
    uint64_t top;

    /* Columns 0..n-1: products, then q[k] zeroes the low word. */
    for (size_t k = 0; k < n; k++) {
        for (size_t i = 0; i < k; i++) {
            fc_acc_mac(&acc, a[i], b[k - i]);
            fc_acc_mac(&acc, q[i], m[k - i]);
        }
        fc_acc_mac(&acc, a[k], b[0]);
        q[k] = (uint64_t)acc.lo * m0inv;
        fc_acc_mac(&acc, q[k], m[0]);
        fc_acc_shift(&acc);
    }
    /* Columns n..2n-2 are output limbs 0..n-2; column k reads limbs
     * >= k-n+1 only, so writing r[k-n] here is safe when r aliases a/b. */
    for (size_t k = n; k < 2 * n - 1; k++) {
        for (size_t i = k - n + 1; i < n; i++) {
            fc_acc_mac(&acc, a[i], b[k - i]);
            fc_acc_mac(&acc, q[i], m[k - i]);
        }
        r[k - n] = (uint64_t)acc.lo;
        fc_acc_shift(&acc);
    }
    r[n - 1] = (uint64_t)acc.lo;
    top = (uint64_t)(acc.lo >> 64);
    fc_mont_final_sub(r, r, top, m, q, n);
}

/* see fc/bn.h */
void fc_bn_sqr_mont_generic(uint64_t *r, const uint64_t *a, const uint64_t *m,
                            uint64_t m0inv, size_t n)
{
    uint64_t q[FC_BN_MAX_LIMBS];
    fc_acc acc = {0, 0};
    uint64_t top;

    for (size_t k = 0; k < 2 * n - 1; k++) {
        /* Cross products a[i]*a[k-i], i < k-i, summed once, doubled. */
        fc_acc d = {0, 0};
        size_t i0 = k < n ? 0 : k - n + 1;
        for (size_t i = i0; 2 * i < k; i++)
            fc_acc_mac(&d, a[i], a[k - i]);
        d.hi = (d.hi << 1) | (uint64_t)(d.lo >> 127);
        d.lo <<= 1;
        if ((k & 1) == 0) /* k is public */
            fc_acc_mac(&d, a[k / 2], a[k / 2]);
        acc.lo += d.lo;
        acc.hi += d.hi + (uint64_t)(acc.lo < d.lo);

        if (k < n) {
            for (size_t j = 0; j < k; j++)
                fc_acc_mac(&acc, q[j], m[k - j]);
            q[k] = (uint64_t)acc.lo * m0inv;
            fc_acc_mac(&acc, q[k], m[0]);
        } else {
            for (size_t j = k - n + 1; j < n; j++)
                fc_acc_mac(&acc, q[j], m[k - j]);
            r[k - n] = (uint64_t)acc.lo;
        }
        fc_acc_shift(&acc);
    }
    r[n - 1] = (uint64_t)acc.lo;
    top = (uint64_t)(acc.lo >> 64);
    fc_mont_final_sub(r, r, top, m, q, n);
}

/*
 * fc_mont_redc sets r = t * R^-1 mod m for t of 2n limbs with t < m*R
 * (separated operand scanning: one row of q*m per limb). t is destroyed.
 * Only used off the hot path (fc_mont_reduce), so it favours plainness.
 */
static void fc_mont_redc(uint64_t *r, uint64_t *t, const uint64_t *m,
                         uint64_t m0inv, size_t n)
{
    uint64_t hi = 0;

    for (size_t i = 0; i < n; i++) {
        uint64_t u = t[i] * m0inv, c = 0;
        for (size_t j = 0; j < n; j++) {
            fc_u128 p = (fc_u128)u * m[j] + t[i + j] + c;
            t[i + j] = (uint64_t)p;
            c = (uint64_t)(p >> 64);
        }
        fc_u128 s = (fc_u128)t[i + n] + c + hi;
        t[i + n] = (uint64_t)s;
        hi = (uint64_t)(s >> 64);
    }
    /* (t + q*m) / R < (m*R + R*m) / R = 2m. */
    fc_mont_final_sub(r, t + n, hi, m, t, n);
}

/* ------------------------------------------------------------------------ */
/* The portable kernels' table (the generic RSA engine's, rsa_engine.c; the
 * MULX and arm64 tables are in their engines' glue). */

const fc_bn_ops fc_bn_ops_generic = {
    .name = "generic",
    .required_caps = 0,
    .limb_multiple = 1,
    .min_limbs = 1,
    .mul = fc_bn_mul_mont_generic,
    .sqr = fc_bn_sqr_mont_generic,
};

/* ------------------------------------------------------------------------ */
/* Helpers on n-limb numbers. */

/* see fc/bn.h */
uint64_t fc_bn_add(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
    uint64_t c = 0;

    for (size_t j = 0; j < n; j++) {
        fc_u128 s = (fc_u128)a[j] + b[j] + c;
        r[j] = (uint64_t)s;
        c = (uint64_t)(s >> 64);
    }
    return c;
}

/* see fc/bn.h */
uint64_t fc_bn_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
    uint64_t c = 0;

    for (size_t j = 0; j < n; j++) {
        fc_u128 d = (fc_u128)a[j] - b[j] - c;
        r[j] = (uint64_t)d;
        c = (uint64_t)(d >> 64) & 1;
    }
    return c;
}

/* see fc/bn.h */
uint64_t fc_bn_cmp_lt(const uint64_t *a, const uint64_t *b, size_t n)
{
    uint64_t c = 0;

    /* The borrow out of a - b, without storing the difference. */
    for (size_t j = 0; j < n; j++) {
        fc_u128 d = (fc_u128)a[j] - b[j] - c;
        c = (uint64_t)(d >> 64) & 1;
    }
    return 0 - fc_ct_barrier(c);
}

/* see fc/bn.h */
void fc_bn_mul(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *b,
               size_t bn)
{
    memset(r, 0, (an + bn) * sizeof(uint64_t));
    for (size_t i = 0; i < bn; i++) {
        uint64_t c = 0;
        for (size_t j = 0; j < an; j++) {
            fc_u128 p = (fc_u128)a[j] * b[i] + r[i + j] + c;
            r[i + j] = (uint64_t)p;
            c = (uint64_t)(p >> 64);
        }
        r[i + an] = c;
    }
}

/* Bit length of one word (0 for 0), by a masked binary search. */
static uint64_t fc_bits64(uint64_t x)
{
    uint64_t bits = 0;

    for (unsigned s = 32; s > 0; s >>= 1) {
        uint64_t big = ~fc_ct_is_zero(x >> s);
        x = fc_ct_select(big, x >> s, x);
        bits += s & big;
    }
    return bits + (1 & ~fc_ct_is_zero(x));
}

/* see fc/bn.h */
size_t fc_bn_bits(const uint64_t *a, size_t n)
{
    uint64_t bits = 0;

    for (size_t i = 0; i < n; i++) {
        uint64_t nz = ~fc_ct_is_zero(a[i]);
        bits = fc_ct_select(nz, 64 * (uint64_t)i + fc_bits64(a[i]), bits);
    }
    return (size_t)bits;
}

/* see fc/bn.h */
int fc_bn_from_bytes_be(uint64_t *r, size_t n, const uint8_t *in, size_t len)
{
    const size_t full = len / 8, rem = len % 8;
    uint64_t excess = 0, v = 0;

    /* Limb i is bytes len - 8(i+1) .. len - 8i - 1 (big-endian), eight at
     * a time; the top len % 8 bytes make the last limb. Limbs that do not
     * fit must be zero. Every byte is read whatever its value; only the
     * public positions steer the loop. */
    memset(r, 0, n * sizeof(uint64_t));
    for (size_t i = 0; i < full; i++) {
        v = fc_load_be64(in + len - 8 * (i + 1));
        if (i < n)
            r[i] = v;
        else
            excess |= v;
    }
    v = 0;
    for (size_t j = 0; j < rem; j++)
        v = (v << 8) | in[j];
    if (full < n)
        r[full] = v;
    else
        excess |= v;
    return fc_ct_is_zero(excess) != 0;
}

/* see fc/bn.h */
int fc_bn_to_bytes_be(uint8_t *out, size_t len, const uint64_t *a, size_t n)
{
    uint64_t excess = 0;

    for (size_t i = 0; i < len; i++) {
        uint8_t v = 0;
        if (i / 8 < n)
            v = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
        out[len - 1 - i] = v;
    }
    /* Bits of a beyond 8*len bytes must be zero. */
    for (size_t j = len / 8; j < n; j++) {
        uint64_t w = a[j];
        if (j == len / 8 && len % 8 != 0)
            w >>= 8 * (len % 8);
        excess |= w;
    }
    return fc_ct_is_zero(excess) != 0;
}

/* ------------------------------------------------------------------------ */
/* Montgomery contexts. */

/* -m0^-1 mod 2^64 for odd m0 by Newton iteration: x = m0 is correct to 3
 * bits (odd squares are 1 mod 8), each step doubles the correct bits. */
static uint64_t fc_mont_m0inv(uint64_t m0)
{
    uint64_t x = m0;

    for (int i = 0; i < 5; i++)
        x *= 2 - m0 * x;
    return 0 - x;
}

/* x = 2x mod m for x in [0, m); tmp is n limbs of scratch. */
static void fc_mont_double(uint64_t *x, const uint64_t *m, uint64_t *tmp,
                           size_t n)
{
    uint64_t top = fc_bn_add(x, x, x, n);
    fc_mont_final_sub(x, x, top, m, tmp, n);
}

/* see fc/bn.h */
int fc_mont_init(fc_mont *mont, const uint64_t *m, size_t n,
                 const fc_bn_ops *ops)
{
    uint64_t tmp[FC_BN_MAX_LIMBS];
    uint64_t *buf, bad;
    size_t bits;

    memset(mont, 0, sizeof(*mont));
    if (!fc_bn_ops_takes(ops, n))
        return 0;
    /* The modulus may be secret (an RSA prime): whether it is refused and
     * its bit length are public (fc/bn.h), so only those two are computed
     * without branches and declassified. m = 1 has no useful Montgomery
     * form and is refused with the even moduli and a zero top limb. */
    bad = fc_ct_is_zero(m[0] & 1) | fc_ct_is_zero(m[n - 1]);
    if (n == 1)
        bad |= fc_ct_eq(m[0], 1);
    FC_CT_PUBLIC(&bad, sizeof(bad));
    if (bad)
        return 0;
    buf = malloc(3 * n * sizeof(uint64_t));
    if (buf == NULL)
        return 0;
    bits = fc_bn_bits(m, n);
    FC_CT_PUBLIC(&bits, sizeof(bits));

    mont->n = n;
    mont->bits = bits;
    mont->m0inv = fc_mont_m0inv(m[0]);
    mont->m = buf;
    mont->rr = buf + n;
    mont->one = buf + 2 * n;
    mont->ops = ops;
    memcpy(mont->m, m, n * sizeof(uint64_t));

    /* R mod m: 2^(bits-1) < m (m is odd and > 1), then 64n - bits + 1
     * modular doublings. The step count depends on the public bit length
     * only. */
    memset(mont->one, 0, n * sizeof(uint64_t));
    mont->one[(bits - 1) / 64] = (uint64_t)1 << ((bits - 1) % 64);
    for (size_t i = bits - 1; i < 64 * n; i++)
        fc_mont_double(mont->one, m, tmp, n);

    /* R^2 mod m = 2^(64n) * R: n more doublings give 2^n * R, and six
     * Montgomery squarings multiply the exponent by 2^6 = 64
     * ((2^s R)^2 / R = 2^(2s) R). */
    memcpy(mont->rr, mont->one, n * sizeof(uint64_t));
    for (size_t i = 0; i < n; i++)
        fc_mont_double(mont->rr, m, tmp, n);
    for (int i = 0; i < 6; i++)
        mont->ops->sqr(mont->rr, mont->rr, mont->m, mont->m0inv, n);
    return 1;
}

/* see fc/bn.h */
void fc_mont_free(fc_mont *mont)
{
    if (mont == NULL)
        return;
    if (mont->m != NULL) {
        fc_memzero(mont->m, 3 * mont->n * sizeof(uint64_t));
        free(mont->m);
    }
    fc_memzero(mont, sizeof(*mont));
}

/* see fc/bn.h */
int fc_mont_copy(fc_mont *dst, const fc_mont *src)
{
    uint64_t *buf = malloc(3 * src->n * sizeof(uint64_t));

    if (buf == NULL) {
        memset(dst, 0, sizeof(*dst));
        return 0;
    }
    *dst = *src;
    dst->m = buf;
    dst->rr = buf + src->n;
    dst->one = buf + 2 * src->n;
    memcpy(dst->m, src->m, src->n * sizeof(uint64_t));
    memcpy(dst->rr, src->rr, src->n * sizeof(uint64_t));
    memcpy(dst->one, src->one, src->n * sizeof(uint64_t));
    return 1;
}

/* see fc/bn.h */
void fc_mont_to(const fc_mont *mont, uint64_t *r, const uint64_t *a)
{
    mont->ops->mul(r, a, mont->rr, mont->m, mont->m0inv, mont->n);
}

/* see fc/bn.h */
void fc_mont_from(const fc_mont *mont, uint64_t *r, const uint64_t *a)
{
    uint64_t one[FC_BN_MAX_LIMBS];

    memset(one, 0, mont->n * sizeof(uint64_t));
    one[0] = 1;
    mont->ops->mul(r, a, one, mont->m, mont->m0inv, mont->n);
}

/* see fc/bn.h */
void fc_mont_reduce(const fc_mont *mont, uint64_t *r, const uint64_t *a,
                    size_t alen)
{
    const size_t n = mont->n;
    uint64_t t[2 * FC_BN_MAX_LIMBS], x[FC_BN_MAX_LIMBS];

    if (alen > 2 * n)
        alen = 2 * n; /* contract violation: keep memory safe */
    memset(t, 0, sizeof(uint64_t) * 2 * n);
    if (alen > n) {
        /* a = hi*R + lo with hi < R but maybe >= m. First hi mod m =
         * REDC(hi) * R^2 / R (hi < R <= m*R keeps REDC in range)... */
        memcpy(t, a + n, (alen - n) * sizeof(uint64_t));
        fc_mont_redc(x, t, mont->m, mont->m0inv, n);
        mont->ops->mul(x, x, mont->rr, mont->m, mont->m0inv, n);
        /* ...then t = (hi mod m)*R + lo < m*R, in range for REDC. */
        memcpy(t, a, n * sizeof(uint64_t));
        memcpy(t + n, x, n * sizeof(uint64_t));
    } else {
        memcpy(t, a, alen * sizeof(uint64_t));
    }
    /* REDC gives a*R^-1 mod m; one multiplication by R^2 undoes the R^-1. */
    fc_mont_redc(x, t, mont->m, mont->m0inv, n);
    mont->ops->mul(r, x, mont->rr, mont->m, mont->m0inv, n);
    fc_memzero(t, sizeof(uint64_t) * 2 * n);
    fc_memzero(x, sizeof(uint64_t) * n);
}

/* ------------------------------------------------------------------------ */
/* Exponentiation. */

/* Scratch kept on the stack for small moduli (one 1024-bit CRT half with
 * window 5: 32*16 + 2*16 limbs); larger ones allocate. */
#define FC_MODEXP_STACK_LIMBS 1152

/* The window width for an exponent of |ebits| bits: the one minimising
 * 2^w table products + ebits/w window products + ebits/w full-table
 * lookups (measurements in the file header). */
static unsigned fc_bn_window(size_t ebits)
{
    if (ebits > 1536)
        return 6;
    if (ebits > 384)
        return 5;
    if (ebits > 96)
        return 4;
    if (ebits > 24)
        return 3;
    return 1;
}

/* The |w| exponent bits at public position |pos|; bits past limb elimbs-1
 * read as zero. Only the value is secret. */
static uint64_t fc_bn_window_bits(const uint64_t *e, size_t elimbs, size_t pos,
                                  unsigned w)
{
    size_t limb = pos / 64;
    unsigned off = pos % 64;
    uint64_t v = e[limb] >> off;

    if (off + w > 64 && limb + 1 < elimbs)
        v |= e[limb + 1] << (64 - off);
    return v & (((uint64_t)1 << w) - 1);
}

/*
 * The window table is read with 128-bit vector operations through the
 * compiler's generic vector extension (SSE2 on x86-64, NEON on arm64, plain
 * words elsewhere), so the code stays portable. Entries are |stride| = n
 * rounded up to 4 limbs apart, 32-byte aligned.
 */
typedef uint64_t fc_v2 __attribute__((vector_size(16)));

/* Limbs per table entry: n rounded up to whole pairs of vectors. */
static size_t fc_bn_stride(size_t n)
{
    return (n + 3) & ~(size_t)3;
}

/*
 * r = table[idx] for a table of |count| <= 64 entries of |stride| limbs,
 * reading every entry: each is ANDed with a mask that is all-ones for idx
 * only and the results ORed. Four vector accumulators (8 limbs) stay in
 * registers over the whole table, one column block at a time, so the cost
 * is one load, AND and OR per table vector.
 */
static void fc_bn_gather(uint64_t *r, const uint64_t *table, size_t count,
                         uint64_t idx, size_t stride)
{
    fc_v2 masks[64];
    const fc_v2 *tab = (const fc_v2 *)table;
    fc_v2 *out = (fc_v2 *)r;
    const size_t vs = stride / 2; /* vectors per entry, even */
    size_t j = 0;

    for (size_t i = 0; i < count; i++) {
        uint64_t mask = fc_ct_eq(i, idx);
        masks[i] = (fc_v2){mask, mask};
    }
    for (; j + 4 <= vs; j += 4) {
        fc_v2 a0 = {0, 0}, a1 = {0, 0}, a2 = {0, 0}, a3 = {0, 0};
        const fc_v2 *p = tab + j;
        for (size_t i = 0; i < count; i++, p += vs) {
            a0 |= p[0] & masks[i];
            a1 |= p[1] & masks[i];
            a2 |= p[2] & masks[i];
            a3 |= p[3] & masks[i];
        }
        out[j] = a0;
        out[j + 1] = a1;
        out[j + 2] = a2;
        out[j + 3] = a3;
    }
    if (j < vs) { /* vs % 4 == 2 */
        fc_v2 a0 = {0, 0}, a1 = {0, 0};
        const fc_v2 *p = tab + j;
        for (size_t i = 0; i < count; i++, p += vs) {
            a0 |= p[0] & masks[i];
            a1 |= p[1] & masks[i];
        }
        out[j] = a0;
        out[j + 1] = a1;
    }
}

/* see fc/bn.h */
int fc_bn_mod_exp(const fc_mont *mont, uint64_t *r, const uint64_t *a,
                  const uint64_t *e, size_t elimbs, size_t ebits)
{
    const size_t n = mont->n, s = fc_bn_stride(n);
    const uint64_t *m = mont->m, m0inv = mont->m0inv;
    fc_bn_mul_mont_fn *const mul = mont->ops->mul;
    fc_bn_sqr_mont_fn *const sqr = mont->ops->sqr;
    uint64_t stackbuf[FC_MODEXP_STACK_LIMBS] FC_ALIGN(64);
    uint64_t *buf = stackbuf, *table, *acc, *tmp;
    uint64_t top;
    unsigned w;
    size_t count, limbs, nwin;

    if (ebits > 64 * elimbs)
        ebits = 64 * elimbs;
    if (ebits == 0) {
        /* Outside the contract (ebits > 0); a^0 = 1 keeps it harmless. */
        fc_mont_from(mont, r, mont->one);
        return 1;
    }
    w = fc_bn_window(ebits);
    count = (size_t)1 << w;
    limbs = (count + 2) * s;
    if (limbs > FC_MODEXP_STACK_LIMBS) {
        buf = aligned_alloc(64, (limbs * sizeof(uint64_t) + 63) & ~(size_t)63);
        if (buf == NULL)
            return 0;
    }
    /* The kernels write n limbs of each s-limb slot; the padding limbs are
     * zeroed so the gathers read defined values. */
    if (s != n)
        memset(buf, 0, limbs * sizeof(uint64_t));
    table = buf;
    acc = buf + count * s;
    tmp = acc + s;

    /* table[i] = a^i * R mod m; even entries by squaring (cheaper). */
    memcpy(table, mont->one, n * sizeof(uint64_t));
    fc_mont_to(mont, table + s, a);
    for (size_t i = 2; i < count; i++) {
        if ((i & 1) == 0)
            sqr(table + i * s, table + (i / 2) * s, m, m0inv, n);
        else
            mul(table + i * s, table + (i - 1) * s, table + s, m, m0inv, n);
    }

    /* The top window holds ebits - (nwin-1)*w bits (the bits above ebits
     * are zero); each later one costs w squarings and one product, with
     * table[0] = R mod m standing in for a zero window, so the operation
     * sequence depends on ebits alone. */
    nwin = (ebits + w - 1) / w;
    top = fc_bn_window_bits(e, elimbs, (nwin - 1) * w, w);
    /* Bits at or above ebits are zero by contract; masking them (a shift by
     * a public amount) keeps a careless caller's result defined. */
    top &= ((uint64_t)1 << (ebits - (nwin - 1) * w)) - 1;
    fc_bn_gather(acc, table, count, top, s);
    for (size_t win = nwin - 1; win-- > 0;) {
        for (unsigned k = 0; k < w; k++)
            sqr(acc, acc, m, m0inv, n);
        fc_bn_gather(tmp, table, count,
                     fc_bn_window_bits(e, elimbs, win * w, w), s);
        mul(acc, acc, tmp, m, m0inv, n);
    }
    fc_mont_from(mont, r, acc);

    fc_memzero(buf, limbs * sizeof(uint64_t));
    if (buf != stackbuf)
        free(buf);
    return 1;
}

/* see fc/bn.h */
int fc_bn_mod_exp_public(const fc_mont *mont, uint64_t *r, const uint64_t *a,
                         const uint64_t *e, size_t elimbs)
{
    const size_t n = mont->n;
    const fc_bn_ops *ops = mont->ops;
    uint64_t base[FC_BN_MAX_LIMBS], acc[FC_BN_MAX_LIMBS];
    size_t top = 0;

    /* e is public: find its top bit by branching. */
    for (size_t i = elimbs; i-- > 0;) {
        if (e[i] != 0) {
            top = 64 * i + (size_t)(63 - __builtin_clzll(e[i])) + 1;
            break;
        }
    }
    if (top == 0) {
        fc_mont_from(mont, r, mont->one);
        return 1;
    }
    fc_mont_to(mont, base, a);
    memcpy(acc, base, n * sizeof(uint64_t));
    for (size_t bit = top - 1; bit-- > 0;) {
        ops->sqr(acc, acc, mont->m, mont->m0inv, n);
        if ((e[bit / 64] >> (bit % 64)) & 1)
            ops->mul(acc, acc, base, mont->m, mont->m0inv, n);
    }
    fc_mont_from(mont, r, acc);
    fc_memzero(base, n * sizeof(uint64_t));
    fc_memzero(acc, n * sizeof(uint64_t));
    return 1;
}
