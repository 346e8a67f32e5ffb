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
#include "fc/bn.h"
#include "fc/bn_exp2.h"
#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/ct.h"
#include "impls.h"

#define MAXN 32

static const size_t sizes[] = {16, 24, 32};

/* ---- helpers ---------------------------------------------------------- */

static BIGNUM *bn_from_limbs(const uint64_t *a, size_t n)
{
    uint8_t buf[8 * 2 * MAXN];
    BIGNUM *b;

    for (size_t i = 0; i < n; i++)
        fc_store_le64(buf + 8 * i, a[i]);
    b = BN_lebin2bn(buf, (int)(8 * n), NULL);
    assert_non_null(b);
    return b;
}

static void bn_to_limbs(uint64_t *r, size_t n, const BIGNUM *b)
{
    uint8_t buf[8 * 2 * MAXN];

    assert_true(BN_num_bytes(b) <= (int)(8 * n));
    assert_int_equal(BN_bn2lebinpad(b, buf, (int)(8 * n)), (int)(8 * n));
    for (size_t i = 0; i < n; i++)
        r[i] = fc_load_le64(buf + 8 * i);
}

static void expect_limbs(const char *what, const uint64_t *got,
                         const uint64_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i])
            fail_msg("%s: limb %zu of %zu: got %016llx, want %016llx", what, i,
                     n, (unsigned long long)got[i],
                     (unsigned long long)want[i]);
    }
}

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

/* want = a^e mod m with BN_mod_exp (e of ebits bits). */
static void oracle_exp(uint64_t *want, const uint64_t *m, const uint64_t *a,
                       const uint64_t *e, size_t ebits, size_t n)
{
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *bm = bn_from_limbs(m, n), *ba = bn_from_limbs(a, n);
    BIGNUM *be = bn_from_limbs(e, MAXN), *br = BN_new();

    assert_non_null(ctx);
    assert_non_null(br);
    assert_true(BN_num_bits(be) <= (int)ebits);
    assert_true(BN_mod_exp(br, ba, be, bm, ctx));
    bn_to_limbs(want, n, br);
    BN_free(bm);
    BN_free(ba);
    BN_free(be);
    BN_free(br);
    BN_CTX_free(ctx);
}

/* The table for n, or NULL after a visible skip note. */
static const fc_bn_exp2_ops *usable(size_t n)
{
    const fc_bn_exp2_ops *ops = fc_bn_exp2_select(fc_test_caps(), n);

    if (ops == NULL)
        print_message("[  SKIPPED ] exp2 n=%zu: no table for the CPU%s\n", n,
                      fc_bn_exp2_ifma_present() ? " (features masked)"
                                                : " (no avx512-ifma)");
    return ops;
}

/* One paired exponentiation checked against the oracle per half. */
static void check_pair(const fc_bn_exp2_ops *ops, size_t n, const uint64_t *m1,
                       const uint64_t *a1, const uint64_t *e1, size_t e1bits,
                       const uint64_t *m2, const uint64_t *a2,
                       const uint64_t *e2, size_t e2bits, const char *what)
{
    uint64_t r1[MAXN], r2[MAXN], w1[MAXN], w2[MAXN];
    fc_mont t1, t2;
    char msg[160];

    assert_true(fc_mont_init(&t1, m1, n, fc_bn_select(fc_test_caps())));
    assert_true(fc_mont_init(&t2, m2, n, fc_bn_select(fc_test_caps())));
    oracle_exp(w1, m1, a1, e1, e1bits, n);
    oracle_exp(w2, m2, a2, e2, e2bits, n);
    assert_true(
        fc_bn_exp2(ops, &t1, r1, a1, e1, e1bits, &t2, r2, a2, e2, e2bits));
    snprintf(msg, sizeof(msg), "%s %s half 1 (e bits %zu)", ops->name, what,
             e1bits);
    expect_limbs(msg, r1, w1, n);
    snprintf(msg, sizeof(msg), "%s %s half 2 (e bits %zu)", ops->name, what,
             e2bits);
    expect_limbs(msg, r2, w2, n);
    fc_mont_free(&t1);
    fc_mont_free(&t2);
}

/* ---- KAT ---------------------------------------------------------------- */

/* a^0 = 1, a^1 = a, a^2, a^3 computed with fc_bn_mul + fc_mont_reduce
 * (independent of the modexp code). */
static void test_kat_small_exponents(void **state)
{
    size_t ran = 0;

    for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
        const size_t n = sizes[s];
        const fc_bn_exp2_ops *ops = usable(n);
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
        assert_true(fc_mont_init(&t1, m1, n, fc_bn_select(fc_test_caps())));
        assert_true(fc_mont_init(&t2, m2, n, fc_bn_select(fc_test_caps())));
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
                fc_bn_exp2(ops, &t1, r1, a1, &e, eb, &t2, r2, a2, &e, eb));
            expect_limbs("kat half 1", r1, w1, n);
            expect_limbs("kat half 2", r2, w2, n);
        }
        fc_mont_free(&t1);
        fc_mont_free(&t2);
    }
    if (ran == 0)
        skip();
}

/* ---- differential ------------------------------------------------------- */

static void test_diff_random(void **state)
{
    const int quick = fc_test_quick();
    size_t ran = 0;

    for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
        const size_t n = sizes[s];
        const fc_bn_exp2_ops *ops = usable(n);
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

static void test_abi_kernels(void **state)
{
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    static const struct {
        size_t n, nr, l;
        int k0;
        amm_fn *amm;
        gather_fn *gather;
    } k[] = {
        {24, 4, 31, 0, fc_bn_amm52x2_n24_ifma, fc_bn_gather52x2_n24_ifma},
        {32, 5, 40, 1, fc_bn_amm52x2_n32_ifma, fc_bn_gather52x2_n32_ifma},
    };
    size_t ran = 0;

    if (!FC_ABI_CHECK_AVAILABLE) {
        print_message("[  SKIPPED ] no ABI trampoline on this build\n");
        skip();
        return;
    }
    for (size_t s = 0; s < FC_ARRAY_LEN(k); s++) {
        const size_t n = k[s].n, slot = 8 * k[s].nr, pair = 2 * slot;
        uint64_t ctx[4 * 40 + 8] FC_ALIGN(64);
        uint64_t a[80] FC_ALIGN(64), b[80] FC_ALIGN(64), r[80] FC_ALIGN(64);
        uint64_t table[8 * 80] FC_ALIGN(64), out[80] FC_ALIGN(64);
        BN_CTX *bctx;
        char what[96];

        if (usable(n) == NULL)
            continue;
        bctx = BN_CTX_new();
        assert_non_null(bctx);
        ran++;
        memset(ctx, 0, sizeof(ctx));
        for (size_t h = 0; h < 2; h++) {
            uint64_t m[MAXN + 1], x[MAXN], y[MAXN], mt[MAXN + 1];
            uint64_t kk;
            fc_mont t;

            rand_modulus(m, n, 64);
            assert_true(fc_mont_init(&t, m, n, fc_bn_select(fc_test_caps())));
            kk = t.m0inv & 0xfffffffffffffULL;
            if (k[s].k0) {
                to52(ctx + h * slot, m, n, k[s].l, slot);
                ctx[2 * slot + h] = kk;
                ctx[2 * slot + 2 + h] = ctx[h * slot];
            } else {
                fc_bn_mul(mt, m, n, &kk, 1);
                to52(ctx + h * slot, mt, n + 1, k[s].l, slot);
                ctx[2 * slot + h * slot] = 0;
                for (size_t j = 1; j < slot; j++)
                    ctx[2 * slot + h * slot + j] = ctx[h * slot + j - 1];
            }
            rand_below(x, m, n);
            rand_below(y, m, n);
            to52(a + h * slot, x, n, k[s].l, slot);
            to52(b + h * slot, y, n, k[s].l, slot);
            fc_mont_free(&t);
            /* keep m for the check below, in the spare limbs of table */
            memcpy(table + h * MAXN, m, 8 * n);
        }
        snprintf(what, sizeof(what), "amm52x2 n=%zu", n);
        FC_ABI_CALL(what, k[s].amm, FC_ABI_ARG(r), FC_ABI_ARG(a), FC_ABI_ARG(b),
                    FC_ABI_ARG(ctx));
        for (size_t h = 0; h < 2; h++) {
            /* r * 2^(52L) = a * b (mod m), each digit < 2^52, and r below
             * the mode's bound (2m or 2^53 m) */
            BIGNUM *br = bn_from52(r + h * slot, slot);
            BIGNUM *ba = bn_from52(a + h * slot, slot);
            BIGNUM *bb = bn_from52(b + h * slot, slot);
            BIGNUM *bm = bn_from_limbs(table + h * MAXN, n);
            BIGNUM *lhs = BN_new(), *rhs = BN_new(), *bound = BN_new();

            for (size_t i = 0; i < slot; i++)
                assert_true(r[h * slot + i] < ((uint64_t)1 << 52));
            assert_true(BN_lshift(lhs, br, (int)(52 * k[s].l)));
            assert_true(BN_mod(lhs, lhs, bm, bctx));
            assert_true(BN_mod_mul(rhs, ba, bb, bm, bctx));
            assert_int_equal(BN_cmp(lhs, rhs), 0);
            assert_true(BN_lshift(bound, bm, k[s].k0 ? 1 : 53));
            assert_true(BN_cmp(br, bound) < 0);
            BN_free(br);
            BN_free(ba);
            BN_free(bb);
            BN_free(bm);
            BN_free(lhs);
            BN_free(rhs);
            BN_free(bound);
        }
        /* aliasing r == a == b */
        memcpy(r, a, 8 * pair);
        FC_ABI_CALL(what, k[s].amm, FC_ABI_ARG(r), FC_ABI_ARG(r), FC_ABI_ARG(r),
                    FC_ABI_ARG(ctx));
        memcpy(out, r, 8 * pair);
        k[s].amm(r, a, a, ctx);
        expect_limbs("amm52x2 aliased", out, r, pair);

        /* gather: every (idx_p, idx_q) of an 8-entry table */
        for (size_t i = 0; i < 8 * pair; i++)
            table[i] = fc_test_rand64();
        for (size_t ip = 0; ip < 8; ip++) {
            for (size_t iq = 0; iq < 8; iq += 3) {
                snprintf(what, sizeof(what), "gather52x2 n=%zu (%zu,%zu)", n,
                         ip, iq);
                FC_ABI_CALL(what, k[s].gather, FC_ABI_ARG(out),
                            FC_ABI_ARG(table), 8, ip, iq);
                expect_limbs(what, out, table + ip * pair, slot);
                expect_limbs(what, out + slot, table + iq * pair + slot, slot);
            }
        }
        BN_CTX_free(bctx);
    }
    if (ran == 0)
        skip();
#else
    print_message("[  SKIPPED ] no IFMA kernels in this build\n");
    skip();
#endif
}

#if defined(__x86_64__) && !defined(FC_NO_ASM)
#define M52 0xfffffffffffffULL

/* The n16 kernels' modulus digits for one half: m~' = m * k (+ 2^52 k
 * when digit 1 of m * k is all ones), digit 1 plus one. */
static void n16_mdigits(uint64_t *md, const fc_mont *t)
{
    uint64_t x[MAXN + 2], k[2] = {t->m0inv & M52, 0};

    fc_bn_mul(x, t->m, 16, k, 2);
    to52(md, x, 18, 21, 24);
    if (md[1] == M52) {
        k[0] |= (uint64_t)1 << 52;
        fc_bn_mul(x, t->m, 16, k, 2);
        to52(md, x, 18, 21, 24);
    }
    assert_true(md[1] < M52);
    md[1] += 1;
}

/* n16 constants: MS_v[r] (words 48v + 8r), then m~'_1 per half. */
static void n16_ctx(uint64_t *ctx, uint64_t md[2][24])
{
    memset(ctx, 0, 8 * FC_BN_EXP2_N16_CTX_WORDS);
    for (size_t v = 0; v < 4; v++)
        for (size_t r = 0; r < 6; r++)
            for (size_t h = 0; h < 2; h++)
                for (size_t l = 0; l < 4; l++) {
                    size_t j = 4 * r + l;
                    if (j >= v && j - v < 21)
                        ctx[48 * v + 8 * r + 2 * l + h] = md[h][j - v];
                }
    for (size_t h = 0; h < 2; h++)
        for (size_t l = 0; l < 4; l++)
            ctx[FC_BN_EXP2_N16_M1_WORD + 2 * l + h] = md[h][1];
}

/* interleaved number <-> digits of one half */
static void n16_put(uint64_t *num, size_t h, const uint64_t *d)
{
    for (size_t i = 0; i < 24; i++)
        num[8 * (i / 4) + 2 * (i % 4) + h] = d[i];
}

static void n16_get(uint64_t *d, const uint64_t *num, size_t h)
{
    for (size_t i = 0; i < 24; i++)
        d[i] = num[8 * (i / 4) + 2 * (i % 4) + h];
}

/* r * R^(2^c - 1) == a^(2^c) (c squarings) or r * R == a * b (b != NULL)
 * mod m for half h, with canonical digits and r below 2^54 m. */
static void n16_check(const uint64_t *rn, const uint64_t *an,
                      const uint64_t *bn, unsigned c, const uint64_t *m,
                      size_t h, const char *what)
{
    uint64_t d[24];
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *br, *ba, *bb = NULL, *bm = bn_from_limbs(m, 16);
    BIGNUM *lhs = BN_new(), *rhs = BN_new(), *t = BN_new();

    assert_non_null(bctx);
    n16_get(d, rn, h);
    for (size_t i = 0; i < 24; i++)
        if (d[i] >> 52 || (i >= 21 && d[i] != 0))
            fail_msg("%s half %zu: digit %zu not canonical", what, h, i);
    br = bn_from52(d, 24);
    n16_get(d, an, h);
    ba = bn_from52(d, 24);
    if (bn != NULL) {
        n16_get(d, bn, h);
        bb = bn_from52(d, 24);
    }
    /* lhs = r * R mod m (product) or r * R^(2^c - 1) mod m, R = 2^(52*21) */
    assert_true(
        BN_lshift(lhs, br, (int)(52 * 21 * (bn != NULL ? 1 : (1u << c) - 1))));
    assert_true(BN_mod(lhs, lhs, bm, bctx));
    if (bb != NULL) {
        assert_true(BN_mod_mul(rhs, ba, bb, bm, bctx));
    } else {
        assert_true(BN_set_word(t, (BN_ULONG)1 << c));
        assert_true(BN_mod_exp(rhs, ba, t, bm, bctx));
    }
    if (BN_cmp(lhs, rhs) != 0)
        fail_msg("%s half %zu: wrong residue", what, h);
    assert_true(BN_lshift(t, bm, 54));
    if (BN_cmp(br, t) >= 0)
        fail_msg("%s half %zu: result not below 2^54 m", what, h);
    BN_free(br);
    BN_free(ba);
    BN_free(bb);
    BN_free(bm);
    BN_free(lhs);
    BN_free(rhs);
    BN_free(t);
    BN_CTX_free(bctx);
}
#endif

/* The n16 kernels (interleaved halves): squaring, product, gather. */
static void test_abi_n16(void **state)
{
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    uint64_t ctx[FC_BN_EXP2_N16_CTX_WORDS] FC_ALIGN(64);
    uint64_t a[48] FC_ALIGN(64), b[48] FC_ALIGN(64), r[48] FC_ALIGN(64);
    uint64_t r2[48] FC_ALIGN(64), table[8 * 48] FC_ALIGN(64);
    uint64_t m[2][MAXN], md[2][24];
    const int cases = fc_test_quick() ? 2 : 8;

    if (!FC_ABI_CHECK_AVAILABLE) {
        print_message("[  SKIPPED ] no ABI trampoline on this build\n");
        skip();
        return;
    }
    if (usable(16) == NULL) {
        skip();
        return;
    }
    for (int c = 0; c < cases; c++) {
        for (size_t h = 0; h < 2; h++) {
            uint64_t x[MAXN], y[MAXN], dx[24], dy[24];
            fc_mont t;

            rand_modulus(m[h], 16, c % 3 == 2 ? 40 : 64);
            assert_true(
                fc_mont_init(&t, m[h], 16, fc_bn_select(fc_test_caps())));
            n16_mdigits(md[h], &t);
            rand_below(x, m[h], 16);
            rand_below(y, m[h], 16);
            to52(dx, x, 16, 21, 24);
            to52(dy, y, 16, 21, 24);
            if (c == 1) {
                /* the largest input the kernels take: 2^54 m - 1 */
                uint64_t big[MAXN + 2] = {0};
                BIGNUM *bm = bn_from_limbs(m[h], 16);

                assert_true(BN_lshift(bm, bm, 54));
                assert_true(BN_sub_word(bm, 1));
                bn_to_limbs(big, 18, bm);
                to52(dx, big, 18, 21, 24);
                BN_free(bm);
            }
            n16_put(a, h, dx);
            n16_put(b, h, dy);
            fc_mont_free(&t);
        }
        n16_ctx(ctx, md);

        FC_ABI_CALL("mul52x2 n16", fc_bn_mul52x2_n16_ifma, FC_ABI_ARG(r),
                    FC_ABI_ARG(a), FC_ABI_ARG(b), FC_ABI_ARG(ctx));
        for (size_t h = 0; h < 2; h++)
            n16_check(r, a, b, 0, m[h], h, "mul52x2 n16");
        /* one squaring: the product of a with itself, digit for digit */
        fc_bn_mul52x2_n16_ifma(r2, a, a, ctx);
        FC_ABI_CALL("sqr52x2 n16 x1", fc_bn_sqr52x2_n16_ifma, FC_ABI_ARG(r),
                    FC_ABI_ARG(a), 1, FC_ABI_ARG(ctx));
        expect_limbs("sqr52x2 n16 x1 vs mul", r, r2, 48);
        /* three squarings in one call */
        fc_bn_mul52x2_n16_ifma(r2, r2, r2, ctx);
        fc_bn_mul52x2_n16_ifma(r2, r2, r2, ctx);
        FC_ABI_CALL("sqr52x2 n16 x3", fc_bn_sqr52x2_n16_ifma, FC_ABI_ARG(r),
                    FC_ABI_ARG(a), 3, FC_ABI_ARG(ctx));
        expect_limbs("sqr52x2 n16 x3 vs mul", r, r2, 48);
        for (size_t h = 0; h < 2; h++)
            n16_check(r, a, NULL, 3, m[h], h, "sqr52x2 n16 x3");
        /* aliasing: r == a (== b) */
        memcpy(r, a, sizeof(a));
        FC_ABI_CALL("sqr52x2 n16 aliased", fc_bn_sqr52x2_n16_ifma,
                    FC_ABI_ARG(r), FC_ABI_ARG(r), 3, FC_ABI_ARG(ctx));
        expect_limbs("sqr52x2 n16 aliased", r, r2, 48);
        memcpy(r, a, sizeof(a));
        FC_ABI_CALL("mul52x2 n16 aliased", fc_bn_mul52x2_n16_ifma,
                    FC_ABI_ARG(r), FC_ABI_ARG(r), FC_ABI_ARG(r),
                    FC_ABI_ARG(ctx));
        fc_bn_mul52x2_n16_ifma(r2, a, a, ctx);
        expect_limbs("mul52x2 n16 aliased", r, r2, 48);
    }

    /* gather: every (idx_p, idx_q) of an 8-entry table, and count 1 */
    for (size_t i = 0; i < FC_ARRAY_LEN(table); i++)
        table[i] = fc_test_rand64();
    for (size_t ip = 0; ip < 8; ip++) {
        for (size_t iq = 0; iq < 8; iq++) {
            uint64_t want[24], got[24];
            char what[64];

            snprintf(what, sizeof(what), "gather52x2 n16 (%zu,%zu)", ip, iq);
            FC_ABI_CALL(what, fc_bn_gather52x2_n16_ifma, FC_ABI_ARG(r),
                        FC_ABI_ARG(table), 8, ip, iq);
            n16_get(want, table + 48 * ip, 0);
            n16_get(got, r, 0);
            expect_limbs(what, got, want, 24);
            n16_get(want, table + 48 * iq, 1);
            n16_get(got, r, 1);
            expect_limbs(what, got, want, 24);
        }
    }
    FC_ABI_CALL("gather52x2 n16 count 1", fc_bn_gather52x2_n16_ifma,
                FC_ABI_ARG(r), FC_ABI_ARG(table), 1, 0, 0);
    expect_limbs("gather52x2 n16 count 1", r, table, 48);
#else
    print_message("[  SKIPPED ] no IFMA kernels in this build\n");
    skip();
#endif
}

/* The per-key state: keyed runs against BN, a copy, NULL and sizes. */
static void test_edge_keyed(void **state)
{
    size_t ran = 0;

    for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
        const size_t n = sizes[s];
        const fc_bn_exp2_ops *ops = usable(n);
        uint64_t m1[MAXN], m2[MAXN], a1[MAXN], a2[MAXN], e1[MAXN], e2[MAXN];
        uint64_t w1[MAXN], w2[MAXN], r1[MAXN], r2[MAXN];
        fc_bn_exp2_key *key, *copy;
        fc_mont t1, t2, t3;

        if (ops == NULL)
            continue;
        ran++;
        rand_modulus(m1, n, 64);
        rand_modulus(m2, n, 61);
        assert_true(fc_mont_init(&t1, m1, n, fc_bn_select(fc_test_caps())));
        assert_true(fc_mont_init(&t2, m2, n, fc_bn_select(fc_test_caps())));
        key = fc_bn_exp2_key_new(ops, &t1, &t2);
        assert_non_null(key);
        for (int i = 0; i < 3; i++) {
            size_t eb1 = 64 * n - (size_t)i, eb2 = i == 2 ? 17 : 64 * n;

            rand_below(a1, m1, n);
            rand_below(a2, m2, n);
            rand_exp(e1, eb1);
            rand_exp(e2, eb2);
            oracle_exp(w1, m1, a1, e1, eb1, n);
            oracle_exp(w2, m2, a2, e2, eb2, n);
            assert_true(fc_bn_exp2_keyed(key, &t1, r1, a1, e1, eb1, &t2, r2, a2,
                                         e2, eb2));
            expect_limbs("keyed half 1", r1, w1, n);
            expect_limbs("keyed half 2", r2, w2, n);
        }
        /* a copy works on its own once the original is gone */
        copy = fc_bn_exp2_key_dup(key);
        assert_non_null(copy);
        fc_bn_exp2_key_free(key);
        assert_true(fc_bn_exp2_keyed(copy, &t1, r1, a1, e1, 64 * n, &t2, r2, a2,
                                     e2, 64 * n));
        oracle_exp(w1, m1, a1, e1, 64 * n, n);
        oracle_exp(w2, m2, a2, e2, 64 * n, n);
        expect_limbs("key copy half 1", r1, w1, n);
        expect_limbs("key copy half 2", r2, w2, n);
        /* refusals */
        assert_true(fc_mont_init(&t3, m1, n / 2, fc_bn_select(fc_test_caps())));
        assert_null(fc_bn_exp2_key_new(ops, &t3, &t2));
        assert_null(fc_bn_exp2_key_new(NULL, &t1, &t2));
        assert_int_equal(
            fc_bn_exp2_keyed(copy, &t3, r1, a1, e1, 64, &t2, r2, a2, e2, 64),
            0);
        assert_int_equal(
            fc_bn_exp2_keyed(NULL, &t1, r1, a1, e1, 64, &t2, r2, a2, e2, 64),
            0);
        assert_null(fc_bn_exp2_key_dup(NULL));
        fc_bn_exp2_key_free(NULL);
        fc_bn_exp2_key_free(copy);
        fc_mont_free(&t1);
        fc_mont_free(&t2);
        fc_mont_free(&t3);
    }
    if (ran == 0)
        skip();
}

/*
 * A 1024-bit modulus whose m~ = m * (-m^-1 mod 2^52) has digit 1 equal to
 * 2^52 - 1: the n16 kernels then use the multiplier k + 2^52. With
 * x = m mod 2^52 (odd), k = -x^-1 mod 2^52 and c = floor(x k / 2^52),
 * digit 1 of m~ is (c + y k) mod 2^52 for y = bits 52..103 of m; choosing
 * y = (-1 - c) k^-1 mod 2^52 makes it all ones.
 */
static void test_edge_m1_all_ones(void **state)
{
    const fc_bn_exp2_ops *ops = usable(16);
    uint64_t m1[MAXN], m2[MAXN], a1[MAXN], a2[MAXN], e1[MAXN], e2[MAXN];
    const uint64_t mask = ((uint64_t)1 << 52) - 1;
    uint64_t x, k, kinv, y, c;
    fc_mont t;

    if (ops == NULL) {
        skip();
        return;
    }
    rand_modulus(m1, 16, 64);
    x = m1[0] & mask; /* odd */
    /* x^-1 mod 2^64 by Newton, then k = -x^-1 mod 2^52 */
    k = x;
    for (int i = 0; i < 6; i++)
        k *= 2 - x * k;
    k = (0 - k) & mask;
    c = (uint64_t)(((unsigned __int128)x * k) >> 52) & mask;
    kinv = k;
    for (int i = 0; i < 6; i++)
        kinv *= 2 - k * kinv;
    y = ((0 - 1 - c) * kinv) & mask;
    /* m bits 52..103 = y */
    m1[0] = (m1[0] & mask) | (y << 52);
    m1[1] = (m1[1] & ~((uint64_t)0xffffffffff)) | (y >> 12);
    assert_true(fc_mont_init(&t, m1, 16, fc_bn_select(fc_test_caps())));
    {
        /* digits 0 and 1 of m * k (bits 0..103) are all ones */
        uint64_t prod[MAXN + 2], kk[2] = {t.m0inv & mask, 0};

        fc_bn_mul(prod, m1, 16, kk, 2);
        assert_true(prod[0] == ~(uint64_t)0);
        assert_true((prod[1] & 0xffffffffff) == 0xffffffffff);
    }
    fc_mont_free(&t);
    rand_modulus(m2, 16, 64);
    rand_below(a1, m1, 16);
    rand_below(a2, m2, 16);
    rand_exp(e1, 1024);
    rand_exp(e2, 1024);
    check_pair(ops, 16, m1, a1, e1, 1024, m2, a2, e2, 1024, "m~_1 all ones");
    check_pair(ops, 16, m2, a2, e2, 1024, m1, a1, e1, 1024, "m~_1 all ones q");
}

/* ---- edge cases --------------------------------------------------------- */

static void test_edge_operands(void **state)
{
    size_t ran = 0;

    for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
        const size_t n = sizes[s];
        const fc_bn_exp2_ops *ops = usable(n);
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
    }
    if (ran == 0)
        skip();
}

static void test_edge_alias_and_sizes(void **state)
{
    size_t ran = 0;

    for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
        const size_t n = sizes[s];
        const fc_bn_exp2_ops *ops = usable(n);
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
        assert_true(fc_mont_init(&t1, m1, n, fc_bn_select(fc_test_caps())));
        assert_true(fc_mont_init(&t2, m2, n, fc_bn_select(fc_test_caps())));
        /* r1 aliases a1 */
        assert_true(
            fc_bn_exp2(ops, &t1, a1, a1, e1, 64 * n, &t2, r2, a2, e2, 64 * n));
        expect_limbs("alias r1 == a1", a1, w1, n);
        expect_limbs("alias r1 == a1 (half 2)", r2, w2, n);
        /* wrong sizes are refused */
        assert_true(fc_mont_init(&t3, m1, n / 2, fc_bn_select(fc_test_caps())));
        assert_int_equal(
            fc_bn_exp2(ops, &t3, a1, a1, e1, 64, &t2, r2, a2, e2, 64), 0);
        assert_int_equal(
            fc_bn_exp2(NULL, &t1, a1, a1, e1, 64, &t2, r2, a2, e2, 64), 0);
        fc_mont_free(&t1);
        fc_mont_free(&t2);
        fc_mont_free(&t3);
    }
    if (ran == 0)
        skip();
}

static void test_edge_select(void **state)
{
    const uint32_t caps = fc_test_caps();
    size_t count;
    const fc_bn_exp2_ops *const *tab = fc_bn_exp2_impls(&count);

    /* no table for sizes without a kernel, nor without AVX-512 */
    assert_null(fc_bn_exp2_select(caps, 8));
    assert_null(fc_bn_exp2_select(caps, 64));
    assert_null(fc_bn_exp2_select(caps & ~FC_CAP_AVX512, 16));
    assert_null(fc_bn_exp2_select(0, 16));
    for (size_t i = 0; i < count; i++) {
        const fc_bn_exp2_ops *got = fc_bn_exp2_select(caps, tab[i]->n);

        assert_non_null(tab[i]->name);
        if ((caps & tab[i]->required_caps) == tab[i]->required_caps &&
            fc_bn_exp2_ifma_present())
            assert_ptr_equal(got, tab[i]);
        else
            assert_null(got);
    }
    print_message("[       OK ] exp2 tables: %zu compiled, IFMA %s\n", count,
                  fc_bn_exp2_ifma_present() ? "present" : "absent");
}

/* Bases and exponents marked secret: under valgrind in a
 * FASTCRYPTO_CT_VALGRIND build any dependent branch or index would be
 * flagged (valgrind hides AVX-512, so this runs where the CPU allows). */
static void test_edge_ct_marked(void **state)
{
    size_t ran = 0;

    for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
        const size_t n = sizes[s];
        const fc_bn_exp2_ops *ops = usable(n);
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
        assert_true(fc_mont_init(&t1, m1, n, fc_bn_select(fc_test_caps())));
        assert_true(fc_mont_init(&t2, m2, n, fc_bn_select(fc_test_caps())));
        FC_CT_SECRET(a1, 8 * n);
        FC_CT_SECRET(a2, 8 * n);
        FC_CT_SECRET(e1, 8 * n);
        FC_CT_SECRET(e2, 8 * n);
        assert_true(
            fc_bn_exp2(ops, &t1, r1, a1, e1, 64 * n, &t2, r2, a2, e2, 64 * n));
        FC_CT_PUBLIC(r1, 8 * n);
        FC_CT_PUBLIC(r2, 8 * n);
        expect_limbs("secret-marked half 1", r1, w1, n);
        expect_limbs("secret-marked half 2", r2, w2, n);
        fc_mont_free(&t1);
        fc_mont_free(&t2);
    }
    if (ran == 0)
        skip();
}

int main(void)
{
    const struct CMUnitTest kat[] = {
        cmocka_unit_test(test_kat_small_exponents),
    };
    const struct CMUnitTest diff[] = {
        cmocka_unit_test(test_diff_random),
    };
    const struct CMUnitTest abi[] = {
        cmocka_unit_test(test_abi_kernels),
        cmocka_unit_test(test_abi_n16),
    };
    const struct CMUnitTest edge[] = {
        cmocka_unit_test(test_edge_operands),
        cmocka_unit_test(test_edge_alias_and_sizes),
        cmocka_unit_test(test_edge_select),
        cmocka_unit_test(test_edge_keyed),
        cmocka_unit_test(test_edge_m1_all_ones),
        cmocka_unit_test(test_edge_ct_marked),
    };
    int fails = 0;

    fails += cmocka_run_group_tests_name("exp2_kat", kat, NULL, NULL);
    fails += cmocka_run_group_tests_name("exp2_diff", diff, NULL, NULL);
    fails += cmocka_run_group_tests_name("exp2_abi", abi, NULL, NULL);
    fails += cmocka_run_group_tests_name("exp2_edge", edge, NULL, NULL);
    return fails != 0;
}
