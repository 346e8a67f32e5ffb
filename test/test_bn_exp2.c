/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_bn_exp2.c - the paired (CRT) vector modular exponentiation of
 * fc/bn_exp2.h and its AVX-512 IFMA kernels, against OpenSSL BN as the
 * oracle.
 *
 * Groups:
 *   exp2_kat   fixed small cases (exponents 0, 1, 2, 3) whose result is
 *              known without an oracle, at every supported size;
 *   exp2_diff  random odd moduli of exactly 1024/1536/2048 bits (and some
 *              with a shorter top limb), random bases, full-size, short
 *              and unequal exponents, against BN_mod_exp;
 *   exp2_abi   every kernel through the calling-convention trampoline, its
 *              output checked by BN (AMM(a,b)*R = a*b mod m, in range;
 *              for the n16 squaring kernel r*R^(2^c-1) = a^(2^c) mod m),
 *              and the n16 kernels against each other (a squaring is the
 *              product of a number with itself, digit for digit);
 *   exp2_edge  bases 0, 1, m-1, aliasing r == a, size mismatches, feature
 *              masks and selection, the per-key state (keyed runs, copies,
 *              NULL and size checks), a modulus whose m~ has digit 1 all
 *              ones (the n16 kernels' alternative multiplier), and a run
 *              with the bases and exponents marked secret for the valgrind
 *              constant-time build.
 *
 * Tables that the CPU cannot run (no AVX512-IFMA, FASTCRYPTO_CPU_MASK
 * removing avx512, valgrind's emulated CPU, which reports no AVX-512) are
 * reported as skipped, visibly.
 * FC_TEST_QUICK=1 shrinks the case counts; FC_TEST_SEED replays a run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/bn.h>

#include "abi_check.h"
#include "bn_oracle.h"
#include "fc/bn.h"
#include "fc/bn_exp2.h"
#include "fc/rsa_engine.h"
#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/ct.h"
#include "fc/tuning.h"
#include "impls.h"
#include "runner.h"

#define MAXN 32

/* ---- helpers ---------------------------------------------------------- */

/* A random odd modulus of n limbs with |topbits| bits in the top limb. */
static void rand_modulus(uint64_t *m, size_t n, unsigned topbits)
{
    for (size_t i = 0; i < n; i++)
        m[i] = fc_test_rand64();
    m[0] |= 1;
    if (topbits < 64)
        m[n - 1] &= ((uint64_t)1 << topbits) - 1;
    m[n - 1] |= (uint64_t)1 << (topbits - 1);
}

/* A random value below m: m's bit length, then one subtraction step by
 * clearing the top bit if needed. */
static void rand_below(uint64_t *a, const uint64_t *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = fc_test_rand64();
    a[n - 1] &= m[n - 1];
    if (!fc_bn_cmp_lt(a, m, n))
        a[n - 1] >>= 1;
}

/* A random exponent of exactly |bits| bits (bits <= 64*MAXN) in
 * ceil(bits/64) limbs, zero above. */
static void rand_exp(uint64_t *e, size_t bits)
{
    memset(e, 0, 8 * MAXN);
    for (size_t i = 0; i < (bits + 63) / 64; i++)
        e[i] = fc_test_rand64();
    if (bits % 64)
        e[(bits - 1) / 64] &= ((uint64_t)1 << (bits % 64)) - 1;
    if (bits > 0)
        e[(bits - 1) / 64] |= (uint64_t)1 << ((bits - 1) % 64);
}

/* want = a^e mod m with BN_mod_exp (e of ebits bits, in MAXN limbs). */
static void oracle_exp(uint64_t *want, const uint64_t *m, const uint64_t *a,
                       const uint64_t *e, size_t ebits, size_t n)
{
    assert_true(fc_bn_bits(e, MAXN) <= ebits);
    fc_test_bn_mod_exp(want, a, e, MAXN, m, n);
}

/* One vector engine (fc/rsa_engine.h, one with per-key state) at one limb
 * count: what these tests run, called by the engine's name and size
 * ("ifma-1024", "avx2-2048"). */
typedef struct pair_ops {
    const fc_rsa_engine *e;
    size_t n;
    uint32_t required_caps;
    char name[24];
} pair_ops;

static pair_ops pairs[32];
static size_t npairs;

/* The number of (engine, size) pairs compiled in: every limb count up to
 * MAXN (in steps of 4) that a two-half engine takes. */
static size_t ntables(void)
{
    size_t count;
    const fc_rsa_engine *const *tab = fc_rsa_engine_impls(&count);

    if (npairs > 0)
        return npairs;
    for (size_t i = 0; i < count; i++) {
        if (tab[i]->pre_new == NULL)
            continue;
        for (size_t n = 4; n <= MAXN; n += 4) {
            pair_ops *p;

            if (!fc_rsa_engine_takes(tab[i], n, n))
                continue;
            assert_true(npairs < FC_ARRAY_LEN(pairs));
            p = &pairs[npairs++];
            p->e = tab[i];
            p->n = n;
            p->required_caps = tab[i]->required_caps;
            snprintf(p->name, sizeof(p->name), "%s-%zu", tab[i]->name, 64 * n);
        }
    }
    return npairs;
}

/* Pair i if the (masked) CPU runs it, else NULL after a visible skip
 * note. */
static const pair_ops *runnable(size_t i)
{
    if (i >= ntables() ||
        !fc_test_impl_usable("exp2", pairs[i].name, pairs[i].required_caps))
        return NULL;
    return &pairs[i];
}

/* The runnable pair of the engine called |prefix| ("ifma", "avx2") for n
 * limbs, or NULL. */
static const pair_ops *engine(const char *prefix, size_t n)
{
    for (size_t i = 0; i < ntables(); i++)
        if (pairs[i].n == n && strcmp(pairs[i].e->name, prefix) == 0)
            return runnable(i);
    print_message("[  SKIPPED ] exp2 %s n=%zu: not compiled in\n", prefix, n);
    return NULL;
}

/* One exponentiation pair through |ops|'s engine with per-key state made
 * for this call: 0 if the state cannot be made (sizes) or the run fails. */
static int run_pair(const pair_ops *ops, const fc_mont *m1, uint64_t *r1,
                    const uint64_t *a1, const uint64_t *e1, size_t e1bits,
                    const fc_mont *m2, uint64_t *r2, const uint64_t *a2,
                    const uint64_t *e2, size_t e2bits)
{
    void *pre;
    int ok;

    if (ops == NULL || (pre = ops->e->pre_new(m1, m2)) == NULL)
        return 0;
    ok = ops->e->exp2(pre, m1, r1, a1, e1, e1bits, m2, r2, a2, e2, e2bits);
    ops->e->pre_free(pre);
    return ok;
}

/* One paired exponentiation checked against the oracle per half. */
static void check_pair(const pair_ops *ops, size_t n, const uint64_t *m1,
                       const uint64_t *a1, const uint64_t *e1, size_t e1bits,
                       const uint64_t *m2, const uint64_t *a2,
                       const uint64_t *e2, size_t e2bits, const char *what)
{
    uint64_t r1[MAXN], r2[MAXN], w1[MAXN], w2[MAXN];
    fc_mont t1, t2;
    char msg[160];

    assert_true(fc_mont_init(&t1, m1, n, fc_test_bn_kernels(n)));
    assert_true(fc_mont_init(&t2, m2, n, fc_test_bn_kernels(n)));
    oracle_exp(w1, m1, a1, e1, e1bits, n);
    oracle_exp(w2, m2, a2, e2, e2bits, n);
    assert_true(
        run_pair(ops, &t1, r1, a1, e1, e1bits, &t2, r2, a2, e2, e2bits));
    snprintf(msg, sizeof(msg), "%s %s half 1 (e bits %zu)", ops->name, what,
             e1bits);
    fc_test_expect_limbs(msg, r1, w1, n);
    snprintf(msg, sizeof(msg), "%s %s half 2 (e bits %zu)", ops->name, what,
             e2bits);
    fc_test_expect_limbs(msg, r2, w2, n);
    fc_mont_free(&t1);
    fc_mont_free(&t2);
}

/* ---- KAT ---------------------------------------------------------------- */

/* a^0 = 1, a^1 = a, a^2, a^3 computed with fc_bn_mul + fc_mont_reduce
 * (independent of the modexp code). */
FC_TEST("exp2_kat", test_kat_small_exponents)
{
    size_t ran = 0;

    for (size_t s = 0; s < ntables(); s++) {
        const pair_ops *ops = runnable(s);
        const size_t n = ops != NULL ? ops->n : 0;
        uint64_t m1[MAXN], m2[MAXN], a1[MAXN], a2[MAXN], r1[MAXN], r2[MAXN];
        uint64_t sq[2 * MAXN], w1[MAXN], w2[MAXN], c[2 * MAXN];
        fc_mont t1, t2;

        if (ops == NULL)
            continue;
        ran++;
        rand_modulus(m1, n, 64);
        rand_modulus(m2, n, 64);
        rand_below(a1, m1, n);
        rand_below(a2, m2, n);
        assert_true(fc_mont_init(&t1, m1, n, fc_test_bn_kernels(n)));
        assert_true(fc_mont_init(&t2, m2, n, fc_test_bn_kernels(n)));
        for (uint64_t e = 0; e <= 3; e++) {
            size_t eb = e == 0 ? 0 : (e == 1 ? 1 : 2);
            uint64_t one[MAXN] = {1};

            /* expected: 1, a, a^2, a^3 (mod m) */
            memcpy(w1, e == 0 ? one : a1, 8 * n);
            memcpy(w2, e == 0 ? one : a2, 8 * n);
            for (uint64_t k = 1; k < e; k++) {
                fc_bn_mul(sq, w1, n, a1, n);
                fc_mont_reduce(&t1, w1, sq, 2 * n);
                fc_bn_mul(c, w2, n, a2, n);
                fc_mont_reduce(&t2, w2, c, 2 * n);
            }
            assert_true(
                run_pair(ops, &t1, r1, a1, &e, eb, &t2, r2, a2, &e, eb));
            fc_test_expect_limbs("kat half 1", r1, w1, n);
            fc_test_expect_limbs("kat half 2", r2, w2, n);
        }
        fc_mont_free(&t1);
        fc_mont_free(&t2);
    }
    if (ran == 0)
        skip();
}

/* ---- differential ------------------------------------------------------- */

FC_TEST("exp2_diff", test_diff_random)
{
    const int quick = fc_test_quick();
    size_t ran = 0;

    for (size_t s = 0; s < ntables(); s++) {
        const pair_ops *ops = runnable(s);
        const size_t n = ops != NULL ? ops->n : 0;
        const int cases = quick ? 3 : 24;

        if (ops == NULL)
            continue;
        ran++;
        for (int i = 0; i < cases; i++) {
            uint64_t m1[MAXN], m2[MAXN], a1[MAXN], a2[MAXN], e1[MAXN], e2[MAXN];
            size_t eb1, eb2;
            /* mostly exact-size moduli (RSA shapes), some shorter tops */
            unsigned top1 =
                i % 4 == 3 ? 1 + (unsigned)fc_test_rand_below(64) : 64;
            unsigned top2 =
                i % 5 == 4 ? 1 + (unsigned)fc_test_rand_below(64) : 64;

            rand_modulus(m1, n, top1);
            rand_modulus(m2, n, top2);
            rand_below(a1, m1, n);
            rand_below(a2, m2, n);
            switch (i % 4) {
            case 0: /* full size (CRT exponents) */
                eb1 = eb2 = 64 * n;
                break;
            case 1: /* slightly shorter, unequal */
                eb1 = 64 * n - fc_test_rand_below(8);
                eb2 = 64 * n - fc_test_rand_below(70);
                break;
            case 2: /* short exponents, every window size */
                eb1 = 1 + fc_test_rand_below(600);
                eb2 = 1 + fc_test_rand_below(600);
                break;
            default: /* very unequal */
                eb1 = 1 + fc_test_rand_below(30);
                eb2 = 64 * n;
                break;
            }
            rand_exp(e1, eb1);
            rand_exp(e2, eb2);
            check_pair(ops, n, m1, a1, e1, eb1, m2, a2, e2, eb2, "random");
        }
    }
    if (ran == 0)
        skip();
}

/* ---- ABI ---------------------------------------------------------------- */

typedef void amm_fn(uint64_t *, const uint64_t *, const uint64_t *,
                    const uint64_t *);
typedef void gather_fn(uint64_t *, const uint64_t *, size_t, size_t, size_t);

#if defined(__x86_64__) && !defined(FC_NO_ASM)
/* radix-2^52 helpers for the kernel checks */
static void to52(uint64_t *d, const uint64_t *x, size_t n, size_t l,
                 size_t slot)
{
    for (size_t i = 0; i < slot; i++) {
        size_t bit = 52 * i, limb = bit / 64, sh = bit % 64;
        uint64_t v = 0;

        if (i < l && limb < n)
            v = x[limb] >> sh;
        if (i < l && sh > 12 && limb + 1 < n)
            v |= x[limb + 1] << (64 - sh);
        d[i] = v & 0xfffffffffffffULL;
    }
}

static BIGNUM *bn_from52(const uint64_t *d, size_t slot)
{
    BIGNUM *r = BN_new(), *t = BN_new();

    assert_non_null(r);
    assert_non_null(t);
    BN_zero(r);
    for (size_t i = slot; i-- > 0;) {
        assert_true(BN_lshift(r, r, 52));
        assert_true(BN_set_word(t, d[i]));
        assert_true(BN_add(r, r, t));
    }
    BN_free(t);
    return r;
}
#endif

#if defined(__x86_64__) && !defined(FC_NO_ASM)
#define M52     0xfffffffffffffULL
#define IFMA_MU 11 /* the most units (n = 32) */

typedef void sqr52_fn(uint64_t *, const uint64_t *, size_t, const uint64_t *);

/* The IFMA kernels per size: n limbs, l digits, units per number, ctx
 * words. */
static const struct {
    size_t n, l, units, ctx_words;
    sqr52_fn *sqr;
    amm_fn *mul;
    gather_fn *gather;
} ifma_k[] = {
    {16, 21, 6, FC_BN_EXP2_N16_CTX_WORDS, fc_bn_sqr52x2_n16_ifma,
     fc_bn_mul52x2_n16_ifma, fc_bn_gather52x2_n16_ifma},
    {24, 31, 8, FC_BN_EXP2_N24_CTX_WORDS, fc_bn_sqr52x2_n24_ifma,
     fc_bn_mul52x2_n24_ifma, fc_bn_gather52x2_n24_ifma},
    {32, 41, 11, FC_BN_EXP2_N32_CTX_WORDS, fc_bn_sqr52x2_n32_ifma,
     fc_bn_mul52x2_n32_ifma, fc_bn_gather52x2_n32_ifma},
};

/* The kernels' modulus digits for one half (n limbs, l digits, slot =
 * 4 units): m~' = m * k (+ 2^52 k when digit 1 of m * k is all ones),
 * digit 1 plus one. */
static void ifma_mdigits(uint64_t *md, const fc_mont *t, size_t n, size_t l,
                         size_t slot)
{
    uint64_t x[MAXN + 2], k[2] = {t->m0inv & M52, 0};

    fc_bn_mul(x, t->m, n, k, 2);
    to52(md, x, n + 2, l, slot);
    if (md[1] == M52) {
        k[0] |= (uint64_t)1 << 52;
        fc_bn_mul(x, t->m, n, k, 2);
        to52(md, x, n + 2, l, slot);
    }
    assert_true(md[1] < M52);
    md[1] += 1;
}

/* Kernel constants, written from the asm header's description: W units
 * per copy MS_v (W = (l + 2) / 4 + 1), MS_v[r] at words 8(W v + r), then
 * m~'_1 per half at word 32 W. */
static void ifma_ctx(uint64_t *ctx, size_t words, size_t l,
                     uint64_t md[2][4 * IFMA_MU])
{
    const size_t w = (l + 2) / 4 + 1;

    memset(ctx, 0, 8 * words);
    assert_true(32 * w + 8 <= words);
    for (size_t v = 0; v < 4; v++)
        for (size_t r = 0; r < w; r++)
            for (size_t h = 0; h < 2; h++)
                for (size_t t = 0; t < 4; t++) {
                    size_t j = 4 * r + t;
                    if (j >= v && j - v < l)
                        ctx[8 * (w * v + r) + 2 * t + h] = md[h][j - v];
                }
    for (size_t h = 0; h < 2; h++)
        for (size_t t = 0; t < 4; t++)
            ctx[32 * w + 2 * t + h] = md[h][1];
}

/* interleaved number <-> digits of one half */
static void ifma_put(uint64_t *num, size_t units, size_t h, const uint64_t *d)
{
    for (size_t i = 0; i < 4 * units; i++)
        num[8 * (i / 4) + 2 * (i % 4) + h] = d[i];
}

static void ifma_get(uint64_t *d, const uint64_t *num, size_t units, size_t h)
{
    for (size_t i = 0; i < 4 * units; i++)
        d[i] = num[8 * (i / 4) + 2 * (i % 4) + h];
}

/* r * R^(2^c - 1) == a^(2^c) (c squarings) or r * R == a * b (b != NULL)
 * mod m for half h, R = 2^(52 l), with canonical digits (zero from l on)
 * and r below 2^54 m. */
static void ifma_check(size_t s, const uint64_t *rn, const uint64_t *an,
                       const uint64_t *bn, unsigned c, const uint64_t *m,
                       size_t h, const char *what)
{
    const size_t n = ifma_k[s].n, l = ifma_k[s].l, slot = 4 * ifma_k[s].units;
    uint64_t d[4 * IFMA_MU] = {0};
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *br, *ba, *bb = NULL, *bm = fc_test_bn_from_limbs(m, n);
    BIGNUM *lhs = BN_new(), *rhs = BN_new(), *t = BN_new();

    assert_non_null(bctx);
    ifma_get(d, rn, ifma_k[s].units, h);
    for (size_t i = 0; i < slot; i++)
        if (d[i] >> 52 || (i >= l && d[i] != 0))
            fail_msg("%s n=%zu half %zu: digit %zu not canonical", what, n, h,
                     i);
    br = bn_from52(d, slot);
    ifma_get(d, an, ifma_k[s].units, h);
    ba = bn_from52(d, slot);
    if (bn != NULL) {
        ifma_get(d, bn, ifma_k[s].units, h);
        bb = bn_from52(d, slot);
    }
    assert_true(
        BN_lshift(lhs, br, (int)(52 * l * (bn != NULL ? 1 : (1u << c) - 1))));
    assert_true(BN_mod(lhs, lhs, bm, bctx));
    if (bb != NULL) {
        assert_true(BN_mod_mul(rhs, ba, bb, bm, bctx));
    } else {
        assert_true(BN_set_word(t, (BN_ULONG)1 << c));
        assert_true(BN_mod_exp(rhs, ba, t, bm, bctx));
    }
    if (BN_cmp(lhs, rhs) != 0)
        fail_msg("%s n=%zu half %zu: wrong residue", what, n, h);
    assert_true(BN_lshift(t, bm, 54));
    if (BN_cmp(br, t) >= 0)
        fail_msg("%s n=%zu half %zu: result not below 2^54 m", what, n, h);
    BN_free(br);
    BN_free(ba);
    BN_free(bb);
    BN_free(bm);
    BN_free(lhs);
    BN_free(rhs);
    BN_free(t);
    BN_CTX_free(bctx);
}

/* One operand of the kernels' tests, case c: random below m, the largest
 * input 2^54 m - 1 (c = 1, a only), all digits 2^52 - 1 where that is
 * still below 2^54 m (c = 3: the most carries at every unit boundary). */
static void ifma_operand(uint64_t *dx, const uint64_t *m, size_t n, size_t l,
                         size_t slot, int c, int is_a)
{
    uint64_t x[MAXN];

    rand_below(x, m, n);
    to52(dx, x, n, l, slot);
    if (c == 1 && is_a) {
        uint64_t big[MAXN + 2] = {0};
        BIGNUM *bm = fc_test_bn_from_limbs(m, n);

        assert_true(BN_lshift(bm, bm, 54));
        assert_true(BN_sub_word(bm, 1));
        fc_test_bn_to_limbs(big, n + 2, bm);
        to52(dx, big, n + 2, l, slot);
        BN_free(bm);
    }
    if (c == 3) {
        /* 2^(64n + 53) - 1 < 2^54 m (m >= 2^(64n-1)) */
        for (size_t i = 0; i < l; i++) {
            size_t bit = 52 * i;
            dx[i] = bit + 52 <= 64 * n + 53
                        ? M52
                        : (bit < 64 * n + 53
                               ? ((uint64_t)1 << (64 * n + 53 - bit)) - 1
                               : 0);
        }
    }
}
#endif

/* The IFMA kernels (interleaved halves), every size: squaring, product,
 * gather, through the ABI trampoline. */
FC_TEST("exp2_abi", test_abi_ifma)
{
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    const int cases = fc_test_quick() ? 4 : 10;
    size_t ran = 0;

    FC_TEST_SKIP_IF(!FC_ABI_CHECK_AVAILABLE, "no ABI trampoline on this build");
    for (size_t s = 0; s < FC_ARRAY_LEN(ifma_k); s++) {
        const size_t n = ifma_k[s].n, l = ifma_k[s].l, u = ifma_k[s].units;
        const size_t words = 8 * u, slot = 4 * u;
        uint64_t ctx[FC_BN_EXP2_N32_CTX_WORDS] FC_ALIGN(64);
        uint64_t a[8 * IFMA_MU] FC_ALIGN(64), b[8 * IFMA_MU] FC_ALIGN(64);
        uint64_t r[8 * IFMA_MU] FC_ALIGN(64), r2[8 * IFMA_MU] FC_ALIGN(64);
        uint64_t table[8 * 8 * IFMA_MU] FC_ALIGN(64);
        uint64_t m[2][MAXN], md[2][4 * IFMA_MU];
        char what[96];

        if (engine("ifma", n) == NULL)
            continue;
        ran++;
        for (int c = 0; c < cases; c++) {
            memset(a, 0, sizeof(a));
            memset(b, 0, sizeof(b));
            for (size_t h = 0; h < 2; h++) {
                uint64_t dx[4 * IFMA_MU], dy[4 * IFMA_MU];
                fc_mont t;

                /* c = 2: a short top limb; c = 4: m close to 2^(64n) */
                rand_modulus(m[h], n, c % 3 == 2 ? 40 : 64);
                if (c == 4)
                    for (size_t i = 1; i < n; i++)
                        m[h][i] = ~(uint64_t)0;
                assert_true(fc_mont_init(&t, m[h], n, fc_test_bn_kernels(n)));
                ifma_mdigits(md[h], &t, n, l, slot);
                ifma_operand(dx, m[h], n, l, slot, c, 1);
                ifma_operand(dy, m[h], n, l, slot, c, 0);
                ifma_put(a, u, h, dx);
                ifma_put(b, u, h, dy);
                fc_mont_free(&t);
            }
            ifma_ctx(ctx, ifma_k[s].ctx_words, l, md);

            snprintf(what, sizeof(what), "mul52x2 n%zu", n);
            FC_ABI_CALL(what, ifma_k[s].mul, FC_ABI_ARG(r), FC_ABI_ARG(a),
                        FC_ABI_ARG(b), FC_ABI_ARG(ctx));
            for (size_t h = 0; h < 2; h++)
                ifma_check(s, r, a, b, 0, m[h], h, what);
            /* one squaring: the product of a with itself, digit for digit */
            ifma_k[s].mul(r2, a, a, ctx);
            snprintf(what, sizeof(what), "sqr52x2 n%zu x1", n);
            FC_ABI_CALL(what, ifma_k[s].sqr, FC_ABI_ARG(r), FC_ABI_ARG(a), 1,
                        FC_ABI_ARG(ctx));
            fc_test_expect_limbs(what, r, r2, words);
            for (size_t h = 0; h < 2; h++)
                ifma_check(s, r, a, NULL, 1, m[h], h, what);
            /* three squarings in one call */
            ifma_k[s].mul(r2, r2, r2, ctx);
            ifma_k[s].mul(r2, r2, r2, ctx);
            snprintf(what, sizeof(what), "sqr52x2 n%zu x3", n);
            FC_ABI_CALL(what, ifma_k[s].sqr, FC_ABI_ARG(r), FC_ABI_ARG(a), 3,
                        FC_ABI_ARG(ctx));
            fc_test_expect_limbs(what, r, r2, words);
            for (size_t h = 0; h < 2; h++)
                ifma_check(s, r, a, NULL, 3, m[h], h, what);
            /* aliasing: r == a (== b) */
            memcpy(r, a, 8 * words);
            snprintf(what, sizeof(what), "sqr52x2 n%zu aliased", n);
            FC_ABI_CALL(what, ifma_k[s].sqr, FC_ABI_ARG(r), FC_ABI_ARG(r), 3,
                        FC_ABI_ARG(ctx));
            fc_test_expect_limbs(what, r, r2, words);
            memcpy(r, a, 8 * words);
            snprintf(what, sizeof(what), "mul52x2 n%zu aliased", n);
            FC_ABI_CALL(what, ifma_k[s].mul, FC_ABI_ARG(r), FC_ABI_ARG(r),
                        FC_ABI_ARG(r), FC_ABI_ARG(ctx));
            ifma_k[s].mul(r2, a, a, ctx);
            fc_test_expect_limbs(what, r, r2, words);
        }

        /* gather: every (idx_p, idx_q) of an 8-entry table, and count 1 */
        for (size_t i = 0; i < 8 * words; i++)
            table[i] = fc_test_rand64();
        for (size_t ip = 0; ip < 8; ip++) {
            for (size_t iq = 0; iq < 8; iq++) {
                uint64_t want[4 * IFMA_MU], got[4 * IFMA_MU];

                snprintf(what, sizeof(what), "gather52x2 n%zu (%zu,%zu)", n, ip,
                         iq);
                FC_ABI_CALL(what, ifma_k[s].gather, FC_ABI_ARG(r),
                            FC_ABI_ARG(table), 8, ip, iq);
                ifma_get(want, table + words * ip, u, 0);
                ifma_get(got, r, u, 0);
                fc_test_expect_limbs(what, got, want, slot);
                ifma_get(want, table + words * iq, u, 1);
                ifma_get(got, r, u, 1);
                fc_test_expect_limbs(what, got, want, slot);
            }
        }
        snprintf(what, sizeof(what), "gather52x2 n%zu count 1", n);
        FC_ABI_CALL(what, ifma_k[s].gather, FC_ABI_ARG(r), FC_ABI_ARG(table), 1,
                    0, 0);
        fc_test_expect_limbs(what, r, table, words);
    }
    if (ran == 0)
        skip();
#else
    print_message("[  SKIPPED ] no IFMA kernels in this build\n");
    skip();
#endif
}

#if defined(__x86_64__) && !defined(FC_NO_ASM)
#define M28       0xfffffffULL
#define AVX2_MAXL 76

typedef void mul28_fn(uint64_t *, const uint64_t *, const uint64_t *,
                      const uint64_t *, uint64_t *);
typedef void sqr28_fn(uint64_t *, const uint64_t *, size_t, const uint64_t *,
                      uint64_t *);

static const struct {
    size_t n, l;
    mul28_fn *mul;
    sqr28_fn *sqr;
    gather_fn *gather;
} avx2_k[] = {
    {16, FC_EXP2_AVX2_L16, fc_bn_mul28x2_n16_avx2, fc_bn_sqr28x2_n16_avx2,
     fc_bn_gather28x2_n16_avx2},
    {24, FC_EXP2_AVX2_L24, fc_bn_mul28x2_n24_avx2, fc_bn_sqr28x2_n24_avx2,
     fc_bn_gather28x2_n24_avx2},
    {32, FC_EXP2_AVX2_L32, fc_bn_mul28x2_n32_avx2, fc_bn_sqr28x2_n32_avx2,
     fc_bn_gather28x2_n32_avx2},
};

/* |l| canonical 28-bit digits of the |n|-limb x. */
static void to28(uint64_t *d, const uint64_t *x, size_t n, size_t l)
{
    for (size_t i = 0; i < l; i++) {
        size_t bit = 28 * i, limb = bit / 64, sh = bit % 64;
        uint64_t v = 0;

        if (limb < n)
            v = x[limb] >> sh;
        if (sh > 36 && limb + 1 < n)
            v |= x[limb + 1] << (64 - sh);
        d[i] = v & M28;
    }
}

/* The value of half h of a pair number (digits may exceed 2^28). */
static BIGNUM *bn_from28(const uint64_t *num, size_t h, size_t l)
{
    BIGNUM *r = BN_new(), *t = BN_new();

    assert_non_null(r);
    assert_non_null(t);
    BN_zero(r);
    for (size_t i = l; i-- > 0;) {
        assert_true(BN_lshift(r, r, 28));
        assert_true(BN_set_word(t, num[2 * i + h]));
        assert_true(BN_add(r, r, t));
    }
    BN_free(t);
    return r;
}

/* The kernel constants for the two moduli (the fc/bn_exp2.h layout), m~
 * digits in md[h] and m~ itself in mt[h] (n + 1 limbs). */
static void avx2_ctx(uint64_t *ctx, size_t l, const uint64_t m[2][MAXN + 1],
                     size_t n, uint64_t md[2][AVX2_MAXL],
                     uint64_t mt[2][MAXN + 1])
{
    uint64_t *me = ctx + (FC_EXP2_AVX2_C_ME + FC_EXP2_AVX2_BASE_E) / 8;
    uint64_t *mo = ctx + (FC_EXP2_AVX2_C_MO(l) + FC_EXP2_AVX2_BASE_O) / 8;
    uint64_t *cs = ctx + FC_EXP2_AVX2_C_S(l) / 8;

    memset(ctx, 0, FC_EXP2_AVX2_C_SIZE(l));
    for (size_t h = 0; h < 2; h++) {
        fc_mont t;
        uint64_t k;

        assert_true(fc_mont_init(&t, m[h], n, fc_test_bn_kernels(n)));
        k = t.m0inv & M28;
        fc_bn_mul(mt[h], m[h], n, &k, 1);
        to28(md[h], mt[h], n + 1, l);
        assert_true(md[h][0] == M28); /* m~ = -1 mod 2^28 */
        for (size_t j = 0; j < l; j++) {
            me[2 * j + h] = md[h][j];
            mo[2 * j + h] = md[h][j];
        }
        cs[h] = md[h][1] + 1;
        cs[2 + h] = md[h][2];
        cs[4 + h] = md[h][3];
        fc_mont_free(&t);
    }
}

/*
 * The C model of one half of the kernels: T = a * b column sums, the
 * reduction with y_i = X_i mod 2^28 and carry (X_i >> 28) + y_i, then the
 * two lazy normalization passes over the upper half. The kernels compute
 * the same sums in another order, so their digits must match exactly.
 */
static void amm28_ref(uint64_t *out, const uint64_t *a, const uint64_t *b,
                      const uint64_t *md, size_t l)
{
    uint64_t t[2 * AVX2_MAXL], d1[AVX2_MAXL], c = 0;

    memset(t, 0, sizeof(t));
    for (size_t i = 0; i < l; i++)
        for (size_t j = 0; j < l; j++)
            t[i + j] += a[j] * b[i];
    for (size_t i = 0; i < l; i++) {
        uint64_t x = t[i] + c, y = x & M28;

        for (size_t j = 1; j < l; j++)
            t[i + j] += md[j] * y;
        c = (x >> 28) + y;
    }
    for (size_t p = 0; p < l; p++)
        d1[p] = (t[l + p] & M28) + (p == 0 ? c : t[l + p - 1] >> 28);
    for (size_t p = 0; p < l; p++)
        out[p] = (d1[p] & M28) + (p == 0 ? 0 : d1[p - 1] >> 28);
}

/* A random number below 2 m~ per half with digits up to 2^28 + 255
 * (|big|: the value 2 m~ - 1 with every digit above 2^28). */
static void avx2_operand(uint64_t *num, const uint64_t mt[2][MAXN + 1],
                         size_t n, size_t l, int big)
{
    BN_CTX *bctx = BN_CTX_new();

    assert_non_null(bctx);
    for (size_t h = 0; h < 2; h++) {
        BIGNUM *bound = fc_test_bn_from_limbs(mt[h], n + 1), *v = BN_new();
        BIGNUM *t = BN_new();
        uint64_t delta[AVX2_MAXL], x[MAXN + 2], d[AVX2_MAXL];

        assert_true(BN_lshift1(bound, bound));
        if (big) {
            assert_true(BN_sub(v, bound, BN_value_one()));
        } else {
            assert_true(BN_rand_range(v, bound));
        }
        /* v - sum(delta_j 2^(28j)) in canonical digits, plus delta */
        for (size_t j = 0; j < l; j++) {
            delta[j] = big ? 255 : fc_test_rand64() & 255;
            if (j == l - 1)
                delta[j] = 0;
            assert_true(BN_set_word(t, delta[j]));
            assert_true(BN_lshift(t, t, (int)(28 * j)));
            if (BN_cmp(v, t) >= 0)
                assert_true(BN_sub(v, v, t));
            else
                delta[j] = 0;
        }
        fc_test_bn_to_limbs(x, n + 2, v);
        to28(d, x, n + 2, l);
        for (size_t j = 0; j < l; j++)
            num[2 * j + h] = d[j] + delta[j];
        BN_free(bound);
        BN_free(v);
        BN_free(t);
    }
    BN_CTX_free(bctx);
}

/* r against the model (digits), and r * R^e == a * b^.. mod m per half:
 * for a product (b != NULL) r R = a b; for c squarings r R^(2^c - 1) =
 * a^(2^c). Digits below 2^28 + 2^8, value below 2 m~. */
static void avx2_check(const uint64_t *r, const uint64_t *a, const uint64_t *b,
                       unsigned c, const uint64_t m[2][MAXN + 1], size_t n,
                       size_t l, uint64_t md[2][AVX2_MAXL],
                       const uint64_t mt[2][MAXN + 1], const char *what)
{
    BN_CTX *bctx = BN_CTX_new();

    assert_non_null(bctx);
    for (size_t h = 0; h < 2; h++) {
        uint64_t da[AVX2_MAXL], db[AVX2_MAXL], want[AVX2_MAXL];
        BIGNUM *br = bn_from28(r, h, l), *ba = bn_from28(a, h, l), *bb;
        BIGNUM *bm = fc_test_bn_from_limbs(m[h], n),
               *bt = fc_test_bn_from_limbs(mt[h], n + 1);
        BIGNUM *lhs = BN_new(), *rhs = BN_new(), *t = BN_new();

        for (size_t i = 0; i < l; i++) {
            if (r[2 * i + h] >= M28 + 1 + 256)
                fail_msg("%s half %zu: digit %zu = %llx above 2^28 + 2^8", what,
                         h, i, (unsigned long long)r[2 * i + h]);
            da[i] = a[2 * i + h];
            db[i] = (b != NULL ? b : a)[2 * i + h];
        }
        /* the model (one product, or c squarings) */
        amm28_ref(want, da, db, md[h], l);
        for (unsigned k = 1; b == NULL && k < c; k++) {
            memcpy(da, want, sizeof(da));
            amm28_ref(want, da, da, md[h], l);
        }
        for (size_t i = 0; i < l; i++)
            if (r[2 * i + h] != want[i])
                fail_msg("%s half %zu: digit %zu = %llx, model %llx", what, h,
                         i, (unsigned long long)r[2 * i + h],
                         (unsigned long long)want[i]);
        bb = bn_from28(b != NULL ? b : a, h, l);
        assert_true(BN_lshift(lhs, br,
                              (int)(28 * l * (b != NULL ? 1 : (1u << c) - 1))));
        assert_true(BN_mod(lhs, lhs, bm, bctx));
        if (b != NULL) {
            assert_true(BN_mod_mul(rhs, ba, bb, bm, bctx));
        } else {
            assert_true(BN_set_word(t, (BN_ULONG)1 << c));
            assert_true(BN_mod_exp(rhs, ba, t, bm, bctx));
        }
        if (BN_cmp(lhs, rhs) != 0)
            fail_msg("%s half %zu: wrong residue", what, h);
        assert_true(BN_lshift1(t, bt));
        if (BN_cmp(br, t) >= 0)
            fail_msg("%s half %zu: result not below 2 m~", what, h);
        BN_free(br);
        BN_free(ba);
        BN_free(bb);
        BN_free(bm);
        BN_free(bt);
        BN_free(lhs);
        BN_free(rhs);
        BN_free(t);
    }
    BN_CTX_free(bctx);
}

/* The bytes of the work buffer the kernels must never write: the zero
 * pairs around the copies. */
static void avx2_check_pads(const uint8_t *w, size_t l, const char *what)
{
    const size_t ra = FC_EXP2_AVX2_RA(l);
    const size_t reg[4] = {FC_EXP2_AVX2_W_AE(l), FC_EXP2_AVX2_W_AO(l),
                           FC_EXP2_AVX2_W_A2E(l), FC_EXP2_AVX2_W_A2O(l)};

    for (size_t k = 0; k < 4; k++) {
        /* even copies: pairs at 128..128+16l; odd: chunks from 128 to
         * 160 + 16l */
        size_t lo = 128, hi = (k & 1) ? 160 + 16 * l : 128 + 16 * l;

        for (size_t i = 0; i < ra; i++)
            if ((i < lo || i >= hi) && w[reg[k] + i] != 0)
                fail_msg("%s: work byte %zu of copy region %zu written", what,
                         i, k);
    }
}
#endif

/* The AVX2 kernels: products, squarings, aliasing, the bounds, the gather,
 * through the calling-convention trampoline, against the C model and BN. */
FC_TEST("exp2_abi", test_abi_avx2)
{
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    size_t ran = 0;
    const int cases = fc_test_quick() ? 3 : 12;

    FC_TEST_SKIP_IF(!FC_ABI_CHECK_AVAILABLE, "no ABI trampoline on this build");
    for (size_t s = 0; s < FC_ARRAY_LEN(avx2_k); s++) {
        const size_t n = avx2_k[s].n, l = avx2_k[s].l, words = 2 * l;
        uint64_t m[2][MAXN + 1], mt[2][MAXN + 1], md[2][AVX2_MAXL];
        uint64_t *ctx, *ctx0, *w, *a, *b, *r, *r2, *table;
        char what[96];

        if (engine("avx2", n) == NULL)
            continue;
        ran++;
        ctx = aligned_alloc(64, FC_EXP2_AVX2_C_SIZE(l));
        ctx0 = malloc(FC_EXP2_AVX2_C_SIZE(l));
        w = aligned_alloc(64, FC_EXP2_AVX2_W_SIZE(l));
        a = aligned_alloc(64, 8 * 4 * words + 8 * 8 * words);
        assert_non_null(ctx);
        assert_non_null(ctx0);
        assert_non_null(w);
        assert_non_null(a);
        b = a + words;
        r = b + words;
        r2 = r + words;
        table = r2 + words;
        memset(w, 0, FC_EXP2_AVX2_W_SIZE(l));
        for (int c = 0; c < cases; c++) {
            for (size_t h = 0; h < 2; h++) {
                rand_modulus(m[h], n, c % 3 == 2 ? 1 + (unsigned)(c % 64) : 64);
                if (c == 1 && h == 1) /* all-ones modulus */
                    for (size_t i = 0; i < n; i++)
                        m[h][i] = ~(uint64_t)0;
            }
            avx2_ctx(ctx, l, m, n, md, mt);
            memcpy(ctx0, ctx, FC_EXP2_AVX2_C_SIZE(l));
            avx2_operand(a, mt, n, l, c == 0 || c == 1);
            avx2_operand(b, mt, n, l, c == 0);

            snprintf(what, sizeof(what), "mul28x2 n=%zu case %d", n, c);
            FC_ABI_CALL(what, avx2_k[s].mul, FC_ABI_ARG(r), FC_ABI_ARG(a),
                        FC_ABI_ARG(b), FC_ABI_ARG(ctx), FC_ABI_ARG(w));
            avx2_check(r, a, b, 0, m, n, l, md, mt, what);
            snprintf(what, sizeof(what), "sqr28x2 n=%zu x1 case %d", n, c);
            FC_ABI_CALL(what, avx2_k[s].sqr, FC_ABI_ARG(r), FC_ABI_ARG(a), 1,
                        FC_ABI_ARG(ctx), FC_ABI_ARG(w));
            avx2_check(r, a, NULL, 1, m, n, l, md, mt, what);
            /* a squaring is the product of a with itself, digit for digit */
            avx2_k[s].mul(r2, a, a, ctx, w);
            fc_test_expect_limbs(what, r, r2, words);
            snprintf(what, sizeof(what), "sqr28x2 n=%zu x3 case %d", n, c);
            FC_ABI_CALL(what, avx2_k[s].sqr, FC_ABI_ARG(r), FC_ABI_ARG(a), 3,
                        FC_ABI_ARG(ctx), FC_ABI_ARG(w));
            avx2_check(r, a, NULL, 3, m, n, l, md, mt, what);
            /* aliasing: r == a (== b) */
            memcpy(r2, a, 8 * words);
            FC_ABI_CALL("sqr28x2 aliased", avx2_k[s].sqr, FC_ABI_ARG(r2),
                        FC_ABI_ARG(r2), 3, FC_ABI_ARG(ctx), FC_ABI_ARG(w));
            fc_test_expect_limbs("sqr28x2 aliased", r2, r, words);
            memcpy(r2, a, 8 * words);
            FC_ABI_CALL("mul28x2 aliased a", avx2_k[s].mul, FC_ABI_ARG(r2),
                        FC_ABI_ARG(r2), FC_ABI_ARG(b), FC_ABI_ARG(ctx),
                        FC_ABI_ARG(w));
            avx2_k[s].mul(r, a, b, ctx, w);
            fc_test_expect_limbs("mul28x2 aliased a", r2, r, words);
            memcpy(r2, b, 8 * words);
            FC_ABI_CALL("mul28x2 aliased b", avx2_k[s].mul, FC_ABI_ARG(r2),
                        FC_ABI_ARG(a), FC_ABI_ARG(r2), FC_ABI_ARG(ctx),
                        FC_ABI_ARG(w));
            fc_test_expect_limbs("mul28x2 aliased b", r2, r, words);
            memcpy(r2, a, 8 * words);
            FC_ABI_CALL("mul28x2 aliased a b", avx2_k[s].mul, FC_ABI_ARG(r2),
                        FC_ABI_ARG(r2), FC_ABI_ARG(r2), FC_ABI_ARG(ctx),
                        FC_ABI_ARG(w));
            avx2_k[s].sqr(r, a, 1, ctx, w);
            fc_test_expect_limbs("mul28x2 aliased a b", r2, r, words);
            /* the kernels read ctx only and keep the pads zero */
            if (memcmp(ctx, ctx0, FC_EXP2_AVX2_C_SIZE(l)) != 0)
                fail_msg("n=%zu: the kernels wrote their constants", n);
            avx2_check_pads((const uint8_t *)w, l, "avx2 kernels");
        }

        /* gather: every (idx_p, idx_q) of an 8-entry table, and count 1 */
        for (size_t i = 0; i < 8 * words; i++)
            table[i] = fc_test_rand64();
        for (size_t ip = 0; ip < 8; ip++) {
            for (size_t iq = 0; iq < 8; iq++) {
                snprintf(what, sizeof(what), "gather28x2 n=%zu (%zu,%zu)", n,
                         ip, iq);
                FC_ABI_CALL(what, avx2_k[s].gather, FC_ABI_ARG(r),
                            FC_ABI_ARG(table), 8, ip, iq);
                for (size_t j = 0; j < l; j++)
                    if (r[2 * j] != table[ip * words + 2 * j] ||
                        r[2 * j + 1] != table[iq * words + 2 * j + 1])
                        fail_msg("%s: pair %zu", what, j);
            }
        }
        FC_ABI_CALL("gather28x2 count 1", avx2_k[s].gather, FC_ABI_ARG(r),
                    FC_ABI_ARG(table), 1, 0, 0);
        fc_test_expect_limbs("gather28x2 count 1", r, table, words);
        free(ctx);
        free(ctx0);
        free(w);
        free(a);
    }
    if (ran == 0)
        skip();
#else
    print_message("[  SKIPPED ] no AVX2 kernels in this build\n");
    skip();
#endif
}

/* The per-key state: keyed runs against BN, a copy, NULL and sizes. */
FC_TEST("exp2_edge", test_edge_keyed)
{
    size_t ran = 0;

    for (size_t s = 0; s < ntables(); s++) {
        const pair_ops *ops = runnable(s);
        const size_t n = ops != NULL ? ops->n : 0;
        uint64_t m1[MAXN], m2[MAXN], a1[MAXN], a2[MAXN], e1[MAXN], e2[MAXN];
        uint64_t w1[MAXN], w2[MAXN], r1[MAXN], r2[MAXN];
        void *key, *copy;
        fc_mont t1, t2, t3;

        if (ops == NULL)
            continue;
        ran++;
        rand_modulus(m1, n, 64);
        rand_modulus(m2, n, 61);
        assert_true(fc_mont_init(&t1, m1, n, fc_test_bn_kernels(n)));
        assert_true(fc_mont_init(&t2, m2, n, fc_test_bn_kernels(n)));
        key = ops->e->pre_new(&t1, &t2);
        assert_non_null(key);
        for (int i = 0; i < 3; i++) {
            size_t eb1 = 64 * n - (size_t)i, eb2 = i == 2 ? 17 : 64 * n;

            rand_below(a1, m1, n);
            rand_below(a2, m2, n);
            rand_exp(e1, eb1);
            rand_exp(e2, eb2);
            oracle_exp(w1, m1, a1, e1, eb1, n);
            oracle_exp(w2, m2, a2, e2, eb2, n);
            assert_true(
                ops->e->exp2(key, &t1, r1, a1, e1, eb1, &t2, r2, a2, e2, eb2));
            fc_test_expect_limbs("keyed half 1", r1, w1, n);
            fc_test_expect_limbs("keyed half 2", r2, w2, n);
        }
        /* a copy works on its own once the original is gone */
        copy = ops->e->pre_dup(key);
        assert_non_null(copy);
        ops->e->pre_free(key);
        assert_true(ops->e->exp2(copy, &t1, r1, a1, e1, 64 * n, &t2, r2, a2, e2,
                                 64 * n));
        oracle_exp(w1, m1, a1, e1, 64 * n, n);
        oracle_exp(w2, m2, a2, e2, 64 * n, n);
        fc_test_expect_limbs("key copy half 1", r1, w1, n);
        fc_test_expect_limbs("key copy half 2", r2, w2, n);
        /* refusals */
        assert_true(fc_mont_init(&t3, m1, n / 2, fc_test_bn_kernels(n / 2)));
        assert_null(ops->e->pre_new(&t3, &t2));
        assert_int_equal(
            ops->e->exp2(copy, &t3, r1, a1, e1, 64, &t2, r2, a2, e2, 64), 0);
        assert_int_equal(
            ops->e->exp2(NULL, &t1, r1, a1, e1, 64, &t2, r2, a2, e2, 64), 0);
        assert_null(ops->e->pre_dup(NULL));
        ops->e->pre_free(NULL);
        ops->e->pre_free(copy);
        fc_mont_free(&t1);
        fc_mont_free(&t2);
        fc_mont_free(&t3);
    }
    if (ran == 0)
        skip();
}

/*
 * A 1024-bit modulus whose m~ = m * (-m^-1 mod 2^db) has digit 1 equal to
 * 2^db - 1 (db = 52: the IFMA n16 kernels then use the multiplier
 * k + 2^52; db = 28: the AVX2 triangles multiply by m~_1 + 1 = 2^28).
 * With x = m mod 2^db (odd), k = -x^-1 mod 2^db and c = floor(x k / 2^db),
 * digit 1 of m~ is (c + y k) mod 2^db for y = bits db..2db-1 of m;
 * choosing y = (-1 - c) k^-1 mod 2^db makes it all ones.
 */
static void m1_all_ones(const pair_ops *ops, size_t n, unsigned db)
{
    uint64_t m1[MAXN], m2[MAXN], a1[MAXN], a2[MAXN], e1[MAXN], e2[MAXN];
    const uint64_t mask = ((uint64_t)1 << db) - 1;
    uint64_t x, k, kinv, y, c;
    fc_mont t;

    rand_modulus(m1, n, 64);
    x = m1[0] & mask; /* odd */
    /* x^-1 mod 2^64 by Newton, then k = -x^-1 mod 2^db */
    k = x;
    for (int i = 0; i < 6; i++)
        k *= 2 - x * k;
    k = (0 - k) & mask;
    c = (uint64_t)(((unsigned __int128)x * k) >> db) & mask;
    kinv = k;
    for (int i = 0; i < 6; i++)
        kinv *= 2 - k * kinv;
    y = ((0 - 1 - c) * kinv) & mask;
    /* m bits db..2db-1 = y */
    if (db == 52) {
        m1[0] = (m1[0] & mask) | (y << 52);
        m1[1] = (m1[1] & ~((uint64_t)0xffffffffff)) | (y >> 12);
    } else {
        m1[0] = (m1[0] & ~(mask << 28)) | (y << 28);
    }
    assert_true(fc_mont_init(&t, m1, n, fc_test_bn_kernels(n)));
    {
        /* digits 0 and 1 of m * k are all ones */
        uint64_t prod[MAXN + 2], kk[2] = {t.m0inv & mask, 0};
        unsigned __int128 low;

        fc_bn_mul(prod, m1, n, kk, 2);
        low = ((unsigned __int128)prod[1] << 64) | prod[0];
        assert_true((low & (((unsigned __int128)1 << (2 * db)) - 1)) ==
                    (((unsigned __int128)1 << (2 * db)) - 1));
    }
    fc_mont_free(&t);
    rand_modulus(m2, n, 64);
    rand_below(a1, m1, n);
    rand_below(a2, m2, n);
    rand_exp(e1, 64 * n);
    rand_exp(e2, 64 * n);
    check_pair(ops, n, m1, a1, e1, 64 * n, m2, a2, e2, 64 * n, "m~_1 all ones");
    check_pair(ops, n, m2, a2, e2, 64 * n, m1, a1, e1, 64 * n,
               "m~_1 all ones q");
}

FC_TEST("exp2_edge", test_edge_m1_all_ones)
{
    const pair_ops *ifma = engine("ifma", 16);
    const pair_ops *avx2 = engine("avx2", 16);

    if (ifma == NULL && avx2 == NULL) {
        skip();
        return;
    }
    if (ifma != NULL)
        m1_all_ones(ifma, 16, 52);
    if (avx2 != NULL)
        m1_all_ones(avx2, 16, 28);
    /* the IFMA engine's other sizes (same constants, 8 and 11 units) */
    for (size_t n = 24; n <= 32; n += 8) {
        const pair_ops *o = engine("ifma", n);

        if (o != NULL)
            m1_all_ones(o, n, 52);
    }
}

/* ---- edge cases --------------------------------------------------------- */

FC_TEST("exp2_edge", test_edge_operands)
{
    size_t ran = 0;

    for (size_t s = 0; s < ntables(); s++) {
        const pair_ops *ops = runnable(s);
        const size_t n = ops != NULL ? ops->n : 0;
        uint64_t m1[MAXN], m2[MAXN], a1[MAXN], a2[MAXN], e1[MAXN], e2[MAXN];
        uint64_t one[MAXN] = {1};

        if (ops == NULL)
            continue;
        ran++;
        rand_modulus(m1, n, 64);
        rand_modulus(m2, n, 64);
        rand_exp(e1, 64 * n);
        rand_exp(e2, 64 * n - 1);
        /* 0 and m-1 */
        memset(a1, 0, sizeof(a1));
        memcpy(a2, m2, 8 * n);
        a2[0] -= 1;
        check_pair(ops, n, m1, a1, e1, 64 * n, m2, a2, e2, 64 * n - 1,
                   "0 / m-1");
        /* 1 and m-1 with an even exponent */
        memcpy(a1, one, sizeof(one));
        e2[0] &= ~(uint64_t)1;
        check_pair(ops, n, m1, a1, e1, 64 * n, m2, a2, e2, 64 * n - 1,
                   "1 / m-1 even e");
        /* exponent 0 against full size, exponent 1 */
        memset(e1, 0, sizeof(e1));
        rand_below(a1, m1, n);
        check_pair(ops, n, m1, a1, e1, 0, m2, a2, e2, 64 * n - 1, "e=0");
        e1[0] = 1;
        check_pair(ops, n, m1, a1, e1, 1, m2, a2, e1, 1, "e=1");
        /* m = 2^(64n) - 1 - 2k: all-ones top limb */
        for (size_t i = 0; i < n; i++)
            m1[i] = ~(uint64_t)0;
        m1[0] -= 2 * (fc_test_rand64() & 0xff);
        rand_below(a1, m1, n);
        rand_exp(e1, 64 * n);
        check_pair(ops, n, m1, a1, e1, 64 * n, m2, a2, e2, 64 * n - 1,
                   "all-ones modulus");
        /* the same modulus, base m - 1 (all-ones limbs but the lowest),
         * exponent all ones */
        memcpy(a1, m1, 8 * n);
        a1[0] -= 1;
        memset(e1, 0xff, 8 * n);
        check_pair(ops, n, m1, a1, e1, 64 * n, m2, a2, e1, 64 * n,
                   "all-ones modulus, base m-1, e all ones");
        /* m just above 2^(64n-1), base with all-ones limbs below it */
        memset(m1, 0, 8 * n);
        m1[n - 1] = (uint64_t)1 << 63;
        m1[0] = 1 + 2 * (fc_test_rand64() & 0xff);
        memset(a1, 0xff, 8 * n);
        a1[n - 1] = ((uint64_t)1 << 63) - 1;
        check_pair(ops, n, m1, a1, e1, 64 * n, m2, a2, e2, 64 * n - 1,
                   "m = 2^(64n-1) + c");
        /* base 2^(64n-1) - 1 on the other half too, e all ones both */
        memcpy(a2, a1, 8 * n);
        check_pair(ops, n, m2, a2, e1, 64 * n, m1, a1, e1, 64 * n,
                   "swapped, e all ones");
    }
    if (ran == 0)
        skip();
}

FC_TEST("exp2_edge", test_edge_alias_and_sizes)
{
    size_t ran = 0;

    for (size_t s = 0; s < ntables(); s++) {
        const pair_ops *ops = runnable(s);
        const size_t n = ops != NULL ? ops->n : 0;
        uint64_t m1[MAXN], m2[MAXN], a1[MAXN], a2[MAXN], e1[MAXN], e2[MAXN];
        uint64_t w1[MAXN], w2[MAXN], r2[MAXN];
        fc_mont t1, t2, t3;

        if (ops == NULL)
            continue;
        ran++;
        rand_modulus(m1, n, 64);
        rand_modulus(m2, n, 64);
        rand_below(a1, m1, n);
        rand_below(a2, m2, n);
        rand_exp(e1, 64 * n);
        rand_exp(e2, 64 * n);
        oracle_exp(w1, m1, a1, e1, 64 * n, n);
        oracle_exp(w2, m2, a2, e2, 64 * n, n);
        assert_true(fc_mont_init(&t1, m1, n, fc_test_bn_kernels(n)));
        assert_true(fc_mont_init(&t2, m2, n, fc_test_bn_kernels(n)));
        /* r1 aliases a1 */
        assert_true(
            run_pair(ops, &t1, a1, a1, e1, 64 * n, &t2, r2, a2, e2, 64 * n));
        fc_test_expect_limbs("alias r1 == a1", a1, w1, n);
        fc_test_expect_limbs("alias r1 == a1 (half 2)", r2, w2, n);
        /* wrong sizes are refused */
        assert_true(fc_mont_init(&t3, m1, n / 2, fc_test_bn_kernels(n / 2)));
        assert_int_equal(
            run_pair(ops, &t3, a1, a1, e1, 64, &t2, r2, a2, e2, 64), 0);
        assert_int_equal(
            run_pair(NULL, &t1, a1, a1, e1, 64, &t2, r2, a2, e2, 64), 0);
        fc_mont_free(&t1);
        fc_mont_free(&t2);
        fc_mont_free(&t3);
    }
    if (ran == 0)
        skip();
}

/* The compiled engine called |name|, whatever the CPU, or NULL. */
static const fc_rsa_engine *engine_named(const char *name)
{
    size_t count;
    const fc_rsa_engine *const *tab = fc_rsa_engine_impls(&count), *e;

    FC_TEST_FIND_IMPL(tab, count, name, e);
    return e;
}

/* |e| is compiled in, runs with the features |c| and takes n-limb halves. */
static int usable(const fc_rsa_engine *e, uint32_t c, size_t n)
{
    return e != NULL && (c & e->required_caps) == e->required_caps &&
           fc_rsa_engine_takes(e, n, n);
}

/* The selection rule of fc/rsa_engine.h spelled out: IFMA where it runs
 * and takes the size; then AVX2 and MULX in the row's order (MULX first
 * when the row says nothing), each only where it runs and takes the size;
 * then the arm64 kernels (on arm64 the only ones before the portable
 * engine); else the portable engine. */
static const fc_rsa_engine *expected_engine(uint32_t c, const char *order,
                                            size_t n)
{
    const fc_rsa_engine *ifma = engine_named("ifma");
    const fc_rsa_engine *avx2 = engine_named("avx2");
    const fc_rsa_engine *mulx = engine_named("mulx");
    const char *pa = order != NULL ? strstr(order, "avx2") : NULL;
    const char *pm = order != NULL ? strstr(order, "mulx") : NULL;
    const int avx2_first = pa != NULL && (pm == NULL || pa < pm);

    if (usable(ifma, c, n))
        return ifma;
    if (avx2_first && usable(avx2, c, n))
        return avx2;
    if (usable(mulx, c, n))
        return mulx;
    if (usable(avx2, c, n))
        return avx2;
    if (usable(engine_named("arm64"), c, n))
        return engine_named("arm64");
    return engine_named("generic");
}

/* The engine lists as the provider makes them: every per-CPU row, every
 * feature mask, sizes each engine takes and sizes beside them. */
FC_TEST("exp2_edge", test_edge_select)
{
    static const char *const masks[] = {"",          "ifma",     "avx2",
                                        "ifma,avx2", "ifma,adx", "ifma,bmi2",
                                        "avx512",    "all"};
    static const size_t nsz[] = {8, 12, 16, 17, 20, 24, 28, 32, 36, 64, 128};
    size_t count, checked = 0;
    const fc_rsa_engine *const *tab = fc_rsa_engine_impls(&count);
    unsigned nrows;
    const fc_tuning *rows = fc_tuning_rows(&nrows);

    (void)state;
    for (size_t i = 0; i < count; i++)
        assert_non_null(tab[i]->name);
    assert_string_equal(tab[count - 1]->name, "generic");
    for (unsigned r = 0; r < nrows; r++) {
        for (size_t i = 0; i < FC_ARRAY_LEN(masks); i++) {
            fc_rsa_engines list;
            uint32_t mask, c;
            char names[96] = "";

            assert_true(fc_cpu_parse_mask(masks[i], &mask));
            c = fc_cpu_apply_mask(fc_cpu_detect(), mask);
            fc_rsa_engines_init(&list, c, rows[r].rsa_order);
            /* runnable engines only, once each, generic last; the name
             * string is the order */
            assert_true(list.count >= 1);
            assert_string_equal(list.e[list.count - 1]->name, "generic");
            for (size_t j = 0; j < list.count; j++) {
                assert_int_equal(list.e[j]->required_caps & ~c, 0);
                for (size_t k = 0; k < j; k++)
                    assert_ptr_not_equal(list.e[j], list.e[k]);
                if (j > 0)
                    strcat(names, ",");
                strcat(names, list.e[j]->name);
            }
            assert_string_equal(list.names, names);
            for (size_t s = 0; s < FC_ARRAY_LEN(nsz); s++) {
                const size_t n = nsz[s];
                const fc_rsa_engine *got = fc_rsa_engine_for(&list, n, n);

                assert_ptr_equal(got, expected_engine(c, rows[r].rsa_order, n));
                if (strstr(masks[i], "avx2") != NULL ||
                    strcmp(masks[i], "all") == 0)
                    assert_true(strcmp(got->name, "avx2") != 0);
                if (strstr(masks[i], "ifma") != NULL ||
                    strstr(masks[i], "avx512") != NULL)
                    assert_true(strcmp(got->name, "ifma") != 0);
                /* unequal halves never go to a two-half vector engine */
                if (n + 4 <= FC_BN_MAX_LIMBS) {
                    got = fc_rsa_engine_for(&list, n, n + 4);
                    assert_non_null(got);
                    assert_null(got->pre_new);
                }
                checked++;
            }
        }
    }
    /* A measured preference (fc/wisdom.h "pick="): first for its size
     * class only, and only an engine of the list that takes the size. */
    {
        fc_rsa_engines list;
        const uint32_t c = fc_cpu_detect();
        const fc_rsa_engine *first;
        char want[160];

        fc_rsa_engines_init(&list, c, NULL);
        first = fc_rsa_engine_for(&list, 24, 24);
        snprintf(want, sizeof(want), "%s/2048:generic", list.names);
        assert_int_equal(fc_rsa_engines_prefer(&list, 2048, "generic"), 1);
        assert_string_equal(list.names, want);
        assert_string_equal(fc_rsa_engine_for(&list, 16, 16)->name, "generic");
        assert_ptr_equal(fc_rsa_engine_for(&list, 24, 24), first);
        assert_null(fc_rsa_engine_for(&list, 16, 20)->pre_new);
        /* Refused: another size class, a name not in the list, an engine
         * that does not take the size; nothing changes. */
        assert_int_equal(fc_rsa_engines_prefer(&list, 1024, "generic"), 0);
        assert_int_equal(fc_rsa_engines_prefer(&list, 3000, "generic"), 0);
        assert_int_equal(fc_rsa_engines_prefer(&list, 4096, "nope"), 0);
        assert_int_equal(fc_rsa_engines_prefer(&list, 4096, ""), 0);
        for (size_t j = 0; j < list.count; j++)
            if (!fc_rsa_engine_takes(list.e[j], 32, 32))
                assert_int_equal(
                    fc_rsa_engines_prefer(&list, 4096, list.e[j]->name), 0);
        assert_string_equal(list.names, want);
        assert_null(list.prefer[2]);
        assert_int_equal(fc_rsa_engines_prefer(&list, 4096, "generic"), 1);
        assert_string_equal(fc_rsa_engine_for(&list, 32, 32)->name, "generic");
    }
    {
        fc_cpu_id id = fc_cpu_identify();

        print_message("[       OK ] rsa engines: %zu compiled, %zu choices "
                      "checked; here (%s row): %s\n",
                      count, checked, fc_tuning_for(&id)->name,
                      fc_test_rsa_engines()->names);
    }
}

/* Bases and exponents marked secret: under valgrind in a
 * FASTCRYPTO_CT_VALGRIND build any dependent branch or index would be
 * flagged (valgrind hides AVX-512, so this runs where the CPU allows). */
FC_TEST("exp2_edge", test_edge_ct_marked)
{
    size_t ran = 0;

    for (size_t s = 0; s < ntables(); s++) {
        const pair_ops *ops = runnable(s);
        const size_t n = ops != NULL ? ops->n : 0;
        uint64_t m1[MAXN], m2[MAXN], a1[MAXN], a2[MAXN], e1[MAXN], e2[MAXN];
        uint64_t w1[MAXN], w2[MAXN], r1[MAXN], r2[MAXN];
        fc_mont t1, t2;

        if (ops == NULL)
            continue;
        ran++;
        rand_modulus(m1, n, 64);
        rand_modulus(m2, n, 64);
        rand_below(a1, m1, n);
        rand_below(a2, m2, n);
        rand_exp(e1, 64 * n);
        rand_exp(e2, 64 * n);
        oracle_exp(w1, m1, a1, e1, 64 * n, n);
        oracle_exp(w2, m2, a2, e2, 64 * n, n);
        assert_true(fc_mont_init(&t1, m1, n, fc_test_bn_kernels(n)));
        assert_true(fc_mont_init(&t2, m2, n, fc_test_bn_kernels(n)));
        FC_CT_SECRET(a1, 8 * n);
        FC_CT_SECRET(a2, 8 * n);
        FC_CT_SECRET(e1, 8 * n);
        FC_CT_SECRET(e2, 8 * n);
        assert_true(
            run_pair(ops, &t1, r1, a1, e1, 64 * n, &t2, r2, a2, e2, 64 * n));
        FC_CT_PUBLIC(r1, 8 * n);
        FC_CT_PUBLIC(r2, 8 * n);
        fc_test_expect_limbs("secret-marked half 1", r1, w1, n);
        fc_test_expect_limbs("secret-marked half 2", r2, w2, n);
        fc_mont_free(&t1);
        fc_mont_free(&t2);
    }
    if (ran == 0)
        skip();
}

int main(void)
{
    return fc_test_main(NULL, 0);
}
