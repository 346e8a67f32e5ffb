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
 *              output checked by BN (AMM(a,b)*R = a*b mod m, in range);
 *   exp2_edge  bases 0, 1, m-1, aliasing r == a, size mismatches, feature
 *              masks and selection, and a run with the bases and exponents
 *              marked secret for the valgrind constant-time build.
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
        print_message("[  SKIPPED ] exp2 n=%zu: CPU lacks avx512-ifma%s\n", n,
                      fc_bn_exp2_ifma_present() ? " (masked)" : "");
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
        {16, 3, 21, 0, fc_bn_amm52x2_n16_ifma, fc_bn_gather52x2_n16_ifma},
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
    };
    const struct CMUnitTest edge[] = {
        cmocka_unit_test(test_edge_operands),
        cmocka_unit_test(test_edge_alias_and_sizes),
        cmocka_unit_test(test_edge_select),
        cmocka_unit_test(test_edge_ct_marked),
    };
    int fails = 0;

    fails += cmocka_run_group_tests_name("exp2_kat", kat, NULL, NULL);
    fails += cmocka_run_group_tests_name("exp2_diff", diff, NULL, NULL);
    fails += cmocka_run_group_tests_name("exp2_abi", abi, NULL, NULL);
    fails += cmocka_run_group_tests_name("exp2_edge", edge, NULL, NULL);
    return fails != 0;
}
