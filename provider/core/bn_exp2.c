/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_exp2.c - both CRT halves' modular exponentiations in one pass on the
 * AVX-512 IFMA kernels of asm/x86_64/bn_exp_ifma.S (radix 2^52, the two
 * halves' rows interleaved in one instruction stream).
 *
 * Per call and per half: m~ (or m) in radix 2^52, R52 = 2^(52L) mod m and
 * a*R52 mod m through the 64-bit Montgomery kernels of the fc_mont context
 * (two fc_mont_to and one product), then a fixed-window exponentiation on
 * "almost Montgomery" values (below 2m or 2^53 m, see the .S header), and
 * at the end one full reduction (fc_mont_reduce) and one 64-bit product by
 * 2^-D mod m, D = 52L - 64n, which also leaves the radix-2^52 Montgomery
 * domain. The conversions cost ~1% of a 1024-bit exponentiation.
 *
 * Measured (development Xeon with AVX512-IFMA, shared 2-core KVM guest under
 * heavy load from other jobs, so only the ratios within one interleaved
 * run mean anything; 9 rounds, medians): one pair of CRT exponentiations
 * with a real key's dP/dQ, against OpenSSL 3.0's whole RSA private op
 * (EVP raw decrypt, which itself runs its 1024-bit IFMA x2 code for
 * RSA-2048 and MULX for larger keys) and against two fc_bn_mod_exp calls:
 *
 *   key       exp2 pair vs OpenSSL RSA op   vs 2x fc_bn_mod_exp (MULX)
 *   RSA-2048  1.18x                          1.87x
 *   RSA-3072  2.69x                          2.26x
 *   RSA-4096  2.80x                          2.36x
 *
 * On a quiet machine a 1024-bit pair took ~225-240 us (OpenSSL's x2 path
 * ~244 us for the same pair of exponentiations). The fixed cost per call
 * (conversions, buffer, finish) is ~4.4 us; the window gathers ~11 us.
 */
#include <stdlib.h>
#include <string.h>

#include "fc/bn.h"
#include "fc/bn_exp2.h"
#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/ct.h"

#if defined(__x86_64__) && !defined(FC_NO_ASM)
#define FC_EXP2_IFMA 1
#else
#define FC_EXP2_IFMA 0
#endif

#define FC_D52_MASK ((uint64_t)0xfffffffffffff)

/* see fc/bn_exp2.h */
int fc_bn_exp2_ifma_present(void)
{
    return FC_EXP2_IFMA && (fc_cpu_detect() & FC_CAP_IFMA) != 0;
}

#if FC_EXP2_IFMA

typedef void fc_amm52x2_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                           const uint64_t *ctx);
typedef void fc_gather52x2_fn(uint64_t *out, const uint64_t *table,
                              size_t count, size_t idx_p, size_t idx_q);

/* One kernel shape: n 64-bit limbs, nr zmm per number, l digits, mode 0
 * (m~, k0 = 1) or 1 (m, k0 = -m^-1 mod 2^52). */
typedef struct fc_exp2_shape {
    size_t n, nr, l;
    int k0_mode;
    fc_amm52x2_fn *amm;
    fc_gather52x2_fn *gather;
} fc_exp2_shape;

static const fc_exp2_shape fc_exp2_shapes[] = {
    {16, 3, 21, 0, fc_bn_amm52x2_n16_ifma, fc_bn_gather52x2_n16_ifma},
    {24, 4, 31, 0, fc_bn_amm52x2_n24_ifma, fc_bn_gather52x2_n24_ifma},
    {32, 5, 40, 1, fc_bn_amm52x2_n32_ifma, fc_bn_gather52x2_n32_ifma},
};

/* fc_exp2_to52: |l| digits of 52 bits from the |n|-limb x (bits past 64n
 * read as zero), then zero words up to |slot|. Public indices only. */
static void fc_exp2_to52(uint64_t *d, const uint64_t *x, size_t n, size_t l,
                         size_t slot)
{
    for (size_t i = 0; i < l; i++) {
        size_t bit = 52 * i, limb = bit / 64, sh = bit % 64;
        uint64_t v = 0;

        if (limb < n)
            v = x[limb] >> sh;
        if (sh > 12 && limb + 1 < n)
            v |= x[limb + 1] << (64 - sh);
        d[i] = v & FC_D52_MASK;
    }
    for (size_t i = l; i < slot; i++)
        d[i] = 0;
}

/* fc_exp2_from52: |xn| limbs from |l| canonical digits (high bits past
 * 64*xn dropped; callers size xn to hold the value). */
static void fc_exp2_from52(uint64_t *x, size_t xn, const uint64_t *d, size_t l)
{
    memset(x, 0, xn * sizeof(uint64_t));
    for (size_t i = 0; i < l; i++) {
        size_t bit = 52 * i, limb = bit / 64, sh = bit % 64;

        if (limb < xn)
            x[limb] |= d[i] << sh;
        if (sh > 12 && limb + 1 < xn)
            x[limb + 1] |= d[i] >> (64 - sh);
    }
}

/* fc_exp2_window: exponent bits [pos, pos+w) of e (ebits bits in
 * ceil(ebits/64) limbs; bits at or past ebits read as zero). pos, w and
 * ebits are public: the limb choice and shifts depend on them only. */
static size_t fc_exp2_window(const uint64_t *e, size_t ebits, size_t pos,
                             unsigned w)
{
    size_t elimbs = (ebits + 63) / 64, limb = pos / 64, sh = pos % 64;
    uint64_t v = 0;

    if (pos >= ebits)
        return 0;
    v = e[limb] >> sh;
    if (sh + w > 64 && limb + 1 < elimbs)
        v |= e[limb + 1] << (64 - sh);
    v &= ((uint64_t)1 << w) - 1;
    if (pos + w > ebits)
        v &= ((uint64_t)1 << (ebits - pos)) - 1;
    return (size_t)v;
}

static unsigned fc_exp2_wsize(size_t ebits)
{
    if (ebits > 384)
        return 5;
    if (ebits > 96)
        return 4;
    if (ebits > 24)
        return 3;
    return 1;
}

/*
 * fc_exp2_half_setup prepares one half h of the pair buffers: the modulus
 * digits in ctx, table entries 0 (R52 mod m) and 1 (a*R52 mod m), and the
 * exit constant u = 2^-D mod m (64-bit limbs). Returns 0 on a bad context.
 */
static int fc_exp2_half_setup(const fc_exp2_shape *sh, const fc_mont *mont,
                              const uint64_t *a, size_t h, uint64_t *ctx,
                              uint64_t *t0, uint64_t *t1, uint64_t *u)
{
    const size_t n = sh->n, slot = 8 * sh->nr;
    const size_t dbits = 52 * sh->l - 64 * n;     /* D */
    const uint64_t k = mont->m0inv & FC_D52_MASK; /* -m^-1 mod 2^52 */
    uint64_t x[FC_BN_MAX_LIMBS + 1], y[FC_BN_MAX_LIMBS];

    if (mont->n != n || mont->m[n - 1] == 0 || (mont->m[0] & 1) == 0)
        return 0;
    if (sh->k0_mode) {
        fc_exp2_to52(ctx + h * slot, mont->m, n, sh->l, slot);
        ctx[2 * slot + h] = k;
        ctx[2 * slot + 2 + h] = ctx[h * slot];
    } else {
        /* m~ = m * k: m~ = -1 mod 2^52 (k0 = 1 in the kernel). */
        fc_bn_mul(x, mont->m, n, &k, 1);
        fc_exp2_to52(ctx + h * slot, x, n + 1, sh->l, slot);
        /* M1: m~ one lane up, at the second pair (L + 1 <= slot). */
        ctx[2 * slot + h * slot] = 0;
        for (size_t j = 1; j < slot; j++)
            ctx[2 * slot + h * slot + j] = ctx[h * slot + j - 1];
    }

    /* y = 2^D (< m: D <= 76 here); x = 2^D * 2^64n = R52 mod m; then
     * y = R52 * 2^64n, and t1 = a * y / 2^64n = a * R52 mod m. */
    memset(y, 0, n * sizeof(uint64_t));
    y[dbits / 64] = (uint64_t)1 << (dbits % 64);
    fc_mont_to(mont, x, y);
    fc_exp2_to52(t0 + h * slot, x, n, sh->l, slot);
    fc_mont_to(mont, y, x);
    mont->ops->mul(x, a, y, mont->m, mont->m0inv, n);
    fc_exp2_to52(t1 + h * slot, x, n, sh->l, slot);

    /* u = 2^(64n - D) / 2^64n = 2^-D mod m (2^(64n-D) < m). */
    memset(y, 0, n * sizeof(uint64_t));
    y[(64 * n - dbits) / 64] = (uint64_t)1 << ((64 * n - dbits) % 64);
    fc_mont_from(mont, u, y);
    fc_memzero(x, sizeof(x));
    return 1;
}

/*
 * fc_exp2_half_finish: r = acc * 2^-52L mod m, fully reduced, from the
 * almost-Montgomery digits of half h of |acc|.
 */
static void fc_exp2_half_finish(const fc_exp2_shape *sh, const fc_mont *mont,
                                uint64_t *r, const uint64_t *acc, size_t h,
                                const uint64_t *u)
{
    const size_t n = sh->n, xn = (52 * sh->l + 63) / 64;
    uint64_t x[2 * FC_BN_MAX_LIMBS], y[FC_BN_MAX_LIMBS];

    fc_exp2_from52(x, xn, acc + h * 8 * sh->nr, sh->l);
    fc_mont_reduce(mont, y, x, xn);
    /* y * u / 2^64n = acc * 2^-D * 2^-64n = acc / R52 mod m */
    mont->ops->mul(r, y, u, mont->m, mont->m0inv, n);
    fc_memzero(x, sizeof(x));
    fc_memzero(y, sizeof(y));
}

static int fc_exp2_ifma_run(const fc_exp2_shape *sh, const fc_mont *m1,
                            uint64_t *r1, const uint64_t *a1,
                            const uint64_t *e1, size_t e1bits,
                            const fc_mont *m2, uint64_t *r2, const uint64_t *a2,
                            const uint64_t *e2, size_t e2bits)
{
    const size_t pair = 2 * 8 * sh->nr; /* words per pair */
    const size_t ebits = e1bits > e2bits ? e1bits : e2bits;
    const unsigned w = fc_exp2_wsize(ebits);
    const size_t count = (size_t)1 << w;
    uint64_t u1[FC_BN_MAX_LIMBS], u2[FC_BN_MAX_LIMBS];
    uint64_t *buf, *ctx, *table, *acc, *tmp;
    size_t words, nwin;
    int ok = 0;

    /* ctx (two pairs + 4 words, rounded to 8), table, acc, tmp */
    words = (2 * pair + 8) + count * pair + 2 * pair;
    buf = aligned_alloc(64, words * sizeof(uint64_t));
    if (buf == NULL)
        return 0;
    ctx = buf;
    table = ctx + 2 * pair + 8;
    acc = table + count * pair;
    tmp = acc + pair;
    memset(ctx, 0, (2 * pair + 8) * sizeof(uint64_t));

    if (!fc_exp2_half_setup(sh, m1, a1, 0, ctx, table, table + pair, u1) ||
        !fc_exp2_half_setup(sh, m2, a2, 1, ctx, table, table + pair, u2))
        goto err;

    /* table[j] = a^j * R52 (almost reduced); even entries by squaring */
    for (size_t j = 2; j < count; j++) {
        if ((j & 1) == 0)
            sh->amm(table + j * pair, table + (j / 2) * pair,
                    table + (j / 2) * pair, ctx);
        else
            sh->amm(table + j * pair, table + (j - 1) * pair, table + pair,
                    ctx);
    }

    /* Fixed windows over max(e1bits, e2bits): the operation sequence
     * depends on that length only; a zero window multiplies by table[0]
     * (R52, the Montgomery one). */
    nwin = ebits == 0 ? 1 : (ebits + w - 1) / w;
    sh->gather(acc, table, count, fc_exp2_window(e1, e1bits, (nwin - 1) * w, w),
               fc_exp2_window(e2, e2bits, (nwin - 1) * w, w));
    for (size_t win = nwin - 1; win-- > 0;) {
        for (unsigned k = 0; k < w; k++)
            sh->amm(acc, acc, acc, ctx);
        sh->gather(tmp, table, count, fc_exp2_window(e1, e1bits, win * w, w),
                   fc_exp2_window(e2, e2bits, win * w, w));
        sh->amm(acc, acc, tmp, ctx);
    }

    fc_exp2_half_finish(sh, m1, r1, acc, 0, u1);
    fc_exp2_half_finish(sh, m2, r2, acc, 1, u2);
    ok = 1;
err:
    fc_memzero(buf, words * sizeof(uint64_t));
    free(buf);
    return ok;
}

static int fc_exp2_ifma_1024(const fc_mont *m1, uint64_t *r1,
                             const uint64_t *a1, const uint64_t *e1,
                             size_t e1bits, const fc_mont *m2, uint64_t *r2,
                             const uint64_t *a2, const uint64_t *e2,
                             size_t e2bits)
{
    return fc_exp2_ifma_run(&fc_exp2_shapes[0], m1, r1, a1, e1, e1bits, m2, r2,
                            a2, e2, e2bits);
}

static int fc_exp2_ifma_1536(const fc_mont *m1, uint64_t *r1,
                             const uint64_t *a1, const uint64_t *e1,
                             size_t e1bits, const fc_mont *m2, uint64_t *r2,
                             const uint64_t *a2, const uint64_t *e2,
                             size_t e2bits)
{
    return fc_exp2_ifma_run(&fc_exp2_shapes[1], m1, r1, a1, e1, e1bits, m2, r2,
                            a2, e2, e2bits);
}

static int fc_exp2_ifma_2048(const fc_mont *m1, uint64_t *r1,
                             const uint64_t *a1, const uint64_t *e1,
                             size_t e1bits, const fc_mont *m2, uint64_t *r2,
                             const uint64_t *a2, const uint64_t *e2,
                             size_t e2bits)
{
    return fc_exp2_ifma_run(&fc_exp2_shapes[2], m1, r1, a1, e1, e1bits, m2, r2,
                            a2, e2, e2bits);
}

static const fc_bn_exp2_ops fc_exp2_ifma_ops[] = {
    {"ifma-1024", FC_CAP_AVX512 | FC_CAP_IFMA, 16, fc_exp2_ifma_1024},
    {"ifma-1536", FC_CAP_AVX512 | FC_CAP_IFMA, 24, fc_exp2_ifma_1536},
    {"ifma-2048", FC_CAP_AVX512 | FC_CAP_IFMA, 32, fc_exp2_ifma_2048},
};

static const fc_bn_exp2_ops *const fc_exp2_impls[] = {
    &fc_exp2_ifma_ops[0],
    &fc_exp2_ifma_ops[1],
    &fc_exp2_ifma_ops[2],
};
#endif /* FC_EXP2_IFMA */

/* see fc/bn_exp2.h */
const fc_bn_exp2_ops *const *fc_bn_exp2_impls(size_t *count)
{
#if FC_EXP2_IFMA
    *count = FC_ARRAY_LEN(fc_exp2_impls);
    return fc_exp2_impls;
#else
    *count = 0;
    return NULL;
#endif
}

/* see fc/bn_exp2.h */
const fc_bn_exp2_ops *fc_bn_exp2_select(uint32_t caps, size_t n)
{
#if FC_EXP2_IFMA
    for (size_t i = 0; i < FC_ARRAY_LEN(fc_exp2_ifma_ops); i++) {
        uint32_t need = fc_exp2_ifma_ops[i].required_caps;
        if (fc_exp2_ifma_ops[i].n == n && (caps & need) == need)
            return &fc_exp2_ifma_ops[i];
    }
#else
    (void)caps;
    (void)n;
#endif
    return NULL;
}

/* see fc/bn_exp2.h */
int fc_bn_exp2(const fc_bn_exp2_ops *ops, const fc_mont *m1, uint64_t *r1,
               const uint64_t *a1, const uint64_t *e1, size_t e1bits,
               const fc_mont *m2, uint64_t *r2, const uint64_t *a2,
               const uint64_t *e2, size_t e2bits)
{
    if (ops == NULL || m1->n != ops->n || m2->n != ops->n)
        return 0;
    return ops->exp2(m1, r1, a1, e1, e1bits, m2, r2, a2, e2, e2bits);
}
