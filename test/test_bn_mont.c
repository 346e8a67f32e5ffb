/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_bn_mont.c - Montgomery kernels, Montgomery contexts, constant-time
 * and public modular exponentiation, and the limb helpers of fc/bn.h, for
 * every bignum table (the RSA engines' kernels) the CPU runs.
 *
 * Groups:
 *   bn_kat   test/kat/modexp.txt (vectors computed with Python's integers,
 *            independent of OpenSSL): modexp and Montgomery products;
 *   bn_diff  against OpenSSL BN as the oracle: BN_mod_mul_montgomery for the
 *            raw kernels at limb counts 1..128 (multiples of 4 for the
 *            assembly, others for the generic fallback), BN_mod_exp for
 *            fc_bn_mod_exp / fc_bn_mod_exp_public at 512..8192 bits, BN_mod
 *            for fc_mont_reduce at every length n..2n, and the helpers;
 *   bn_abi   every assembly kernel through the calling-convention trampoline
 *            at n in {8, 12, 16, 20, 24, 32, 64};
 *   bn_edge  operands 0, 1, m-1, top limb all ones, m = 2^(64n)-1; aliasing;
 *            exponents 0 and 1, short exponents in long buffers, window
 *            boundaries; bad moduli; table selection; context copies; and a
 *            run with base and exponent marked secret for the valgrind
 *            constant-time build.
 *
 * FC_TEST_QUICK=1 shrinks the case counts and sizes (valgrind runs).
 * FC_TEST_SEED replays a run; FASTCRYPTO_CPU_MASK switches tables off.
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
#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/ct.h"
#include "bn_oracle.h"
#include "impls.h"
#include "kat.h"
#include "runner.h"

#define MAXN FC_BN_MAX_LIMBS

/* ---- helpers ---------------------------------------------------------- */

static const fc_bn_ops *generic_ops(void)
{
    size_t n;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&n);

    assert_true(n > 0);
    assert_ptr_equal(tab[n - 1]->mul, fc_bn_mul_mont_generic);
    assert_ptr_equal(tab[n - 1]->sqr, fc_bn_sqr_mont_generic);
    return tab[n - 1];
}

static int is_generic(const fc_bn_ops *ops)
{
    return ops->mul == fc_bn_mul_mont_generic;
}

/* Does |ops| itself handle n limbs? */
static int handles(const fc_bn_ops *ops, size_t n)
{
    return fc_bn_ops_takes(ops, n);
}

/* |ops| if it handles n limbs, else the generic kernels: the sizes a table
 * refuses are still exercised, on the kernels an engine list would pick
 * after it. */
static const fc_bn_ops *kern(const fc_bn_ops *ops, size_t n)
{
    return handles(ops, n) ? ops : generic_ops();
}

static void rand_limbs(uint64_t *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        r[i] = fc_test_rand64();
}

/* A random odd modulus of n limbs whose top limb has |topbits| bits
 * (1..64). */
static void rand_modulus_bits(uint64_t *m, size_t n, unsigned topbits)
{
    m[0] = fc_test_rand64() | 1;
    rand_limbs(m + 1, n - 1);
    if (topbits < 64)
        m[n - 1] &= ((uint64_t)1 << topbits) - 1;
    m[n - 1] |= (uint64_t)1 << (topbits - 1);
    if (n == 1 && m[0] == 1)
        m[0] = 3;
}

/* A random odd modulus of n limbs: usually the top bit set (RSA shapes),
 * sometimes a shorter top limb. */
static void rand_modulus(uint64_t *m, size_t n)
{
    unsigned topbits = 64;

    if (fc_test_rand_below(3) == 0)
        topbits = 1 + (unsigned)fc_test_rand_below(64);
    rand_modulus_bits(m, n, topbits);
}

/* A random value below m (n limbs): random bits trimmed to m's bit length,
 * minus m once if needed (2^bits <= 2m, so once is enough). */
static void rand_below(uint64_t *r, const uint64_t *m, size_t n)
{
    size_t bits = fc_bn_bits(m, n);

    rand_limbs(r, n);
    for (size_t i = 0; i < n; i++) {
        if (64 * i >= bits)
            r[i] = 0;
        else if (64 * (i + 1) > bits)
            r[i] &= ((uint64_t)1 << (bits - 64 * i)) - 1;
    }
    if (!fc_bn_cmp_lt(r, m, n))
        fc_bn_sub(r, r, m, n);
}

typedef struct oracle {
    BN_CTX *ctx;
    BN_MONT_CTX *mont;
    BIGNUM *m;
    size_t n;
} oracle;

static void oracle_init(oracle *o, const uint64_t *m, size_t n)
{
    o->ctx = BN_CTX_new();
    o->mont = BN_MONT_CTX_new();
    o->m = fc_test_bn_from_limbs(m, n);
    o->n = n;
    assert_non_null(o->ctx);
    assert_non_null(o->mont);
    /* BN's R is 2^(64 * limbs of m); m has exactly n limbs here, so it is
     * our R. */
    assert_true(BN_MONT_CTX_set(o->mont, o->m, o->ctx));
}

static void oracle_free(oracle *o)
{
    BN_MONT_CTX_free(o->mont);
    BN_free(o->m);
    BN_CTX_free(o->ctx);
}

/* want = a*b*R^-1 mod m by BN_mod_mul_montgomery. */
static void oracle_mont_mul(oracle *o, uint64_t *want, const uint64_t *a,
                            const uint64_t *b)
{
    BIGNUM *x = fc_test_bn_from_limbs(a, o->n),
           *y = fc_test_bn_from_limbs(b, o->n);
    BIGNUM *r = BN_new();

    assert_true(BN_mod_mul_montgomery(r, x, y, o->mont, o->ctx));
    fc_test_bn_to_limbs(want, o->n, r);
    BN_free(x);
    BN_free(y);
    BN_free(r);
}

/* want = a^e mod m by BN_mod_exp. */
static void oracle_mod_exp(oracle *o, uint64_t *want, const uint64_t *a,
                           const uint64_t *e, size_t elimbs)
{
    BIGNUM *x = fc_test_bn_from_limbs(a, o->n),
           *y = fc_test_bn_from_limbs(e, elimbs);
    BIGNUM *r = BN_new();

    assert_true(BN_mod_exp(r, x, y, o->m, o->ctx));
    fc_test_bn_to_limbs(want, o->n, r);
    BN_free(x);
    BN_free(y);
    BN_free(r);
}

/*
 * Checks ops->mul and ops->sqr on (a, b) against the oracle, out of place
 * and with every aliasing the contract allows (r == a, r == b, r == a == b).
 */
static void check_kernels(const char *what, const fc_bn_ops *ops, oracle *o,
                          const uint64_t *m, uint64_t m0inv, const uint64_t *a,
                          const uint64_t *b)
{
    const size_t n = o->n;
    uint64_t want[MAXN], want_sq[MAXN], r[MAXN + 1], x[MAXN], y[MAXN];
    char msg[200];

    oracle_mont_mul(o, want, a, b);
    oracle_mont_mul(o, want_sq, a, a);

    r[n] = 0x5a5a5a5a5a5a5a5aull; /* guard limb */
    ops->mul(r, a, b, m, m0inv, n);
    snprintf(msg, sizeof(msg), "%s %s mul n=%zu", what, ops->name, n);
    fc_test_expect_limbs(msg, r, want, n);
    assert_true(r[n] == 0x5a5a5a5a5a5a5a5aull);

    memcpy(x, a, n * 8);
    ops->mul(x, x, b, m, m0inv, n);
    snprintf(msg, sizeof(msg), "%s %s mul r==a n=%zu", what, ops->name, n);
    fc_test_expect_limbs(msg, x, want, n);

    memcpy(y, b, n * 8);
    ops->mul(y, a, y, m, m0inv, n);
    snprintf(msg, sizeof(msg), "%s %s mul r==b n=%zu", what, ops->name, n);
    fc_test_expect_limbs(msg, y, want, n);

    memcpy(x, a, n * 8);
    ops->mul(x, x, x, m, m0inv, n);
    snprintf(msg, sizeof(msg), "%s %s mul r==a==b n=%zu", what, ops->name, n);
    fc_test_expect_limbs(msg, x, want_sq, n);

    ops->sqr(r, a, m, m0inv, n);
    snprintf(msg, sizeof(msg), "%s %s sqr n=%zu", what, ops->name, n);
    fc_test_expect_limbs(msg, r, want_sq, n);
    assert_true(r[n] == 0x5a5a5a5a5a5a5a5aull);

    memcpy(x, a, n * 8);
    ops->sqr(x, x, m, m0inv, n);
    snprintf(msg, sizeof(msg), "%s %s sqr r==a n=%zu", what, ops->name, n);
    fc_test_expect_limbs(msg, x, want_sq, n);
}

/* The limb counts the kernel tests cover: every n up to 20, then the RSA
 * sizes and their neighbours, up to 8192 bits. */
static const size_t kernel_sizes[] = {
    1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,  13,  14,
    15, 16, 17, 18, 19, 20, 23, 24, 25, 28, 31, 32,  33,  36,
    40, 44, 47, 48, 52, 56, 63, 64, 65, 80, 96, 127, 128,
};
static const size_t kernel_sizes_quick[] = {1,  3,  4,  7,  8,  9,  12,
                                            16, 17, 20, 24, 32, 33, 64};

/* ---- KAT ---------------------------------------------------------------- */

static void load_be(uint64_t *r, size_t n, const uint8_t *p, size_t len)
{
    assert_true(fc_bn_from_bytes_be(r, n, p, len));
}

FC_TEST("bn_kat", test_kat)
{
    static const char *const fields[] = {"M", "A", "B", "E", "R", NULL};
    size_t count;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *ops;
    size_t blocks = 0;

    FC_TEST_FOREACH_IMPL("bn", tab, count, ops)
    {
        fc_kat *k = fc_kat_open("modexp.txt");
        blocks = 0;
        while (fc_kat_next(k)) {
            size_t mlen, alen, rlen, n;
            const uint8_t *mb, *ab, *rb;
            uint64_t m[MAXN], a[MAXN], want[MAXN], got[MAXN];
            fc_mont mont;
            char what[256];

            fc_kat_check_fields(k, fields);
            mb = fc_kat_bytes(k, "M", &mlen);
            ab = fc_kat_bytes(k, "A", &alen);
            rb = fc_kat_bytes(k, "R", &rlen);
            n = (mlen + 7) / 8;
            load_be(m, n, mb, mlen);
            load_be(a, n, ab, alen);
            load_be(want, n, rb, rlen);
            if (!fc_mont_init(&mont, m, n, kern(ops, n)))
                fc_kat_fail(k, "fc_mont_init refused the modulus");
            snprintf(what, sizeof(what), "%s (%s)", fc_kat_where(k),
                     mont.ops->name);

            if (fc_kat_has(k, "E")) {
                size_t elen, elimbs, bits;
                const uint8_t *eb = fc_kat_bytes(k, "E", &elen);
                uint64_t e[MAXN];

                elimbs = (elen + 7) / 8;
                load_be(e, elimbs, eb, elen);
                bits = fc_bn_bits(e, elimbs);
                /* The whole buffer as exponent size... */
                assert_true(
                    fc_bn_mod_exp(&mont, got, a, e, elimbs, 64 * elimbs));
                fc_test_expect_limbs(what, got, want, n);
                /* ...and the exact bit length. */
                assert_true(
                    fc_bn_mod_exp(&mont, got, a, e, elimbs, bits ? bits : 1));
                fc_test_expect_limbs(what, got, want, n);
                assert_true(fc_bn_mod_exp_public(&mont, got, a, e, elimbs));
                fc_test_expect_limbs(what, got, want, n);
            } else {
                size_t blen;
                const uint8_t *bb = fc_kat_bytes(k, "B", &blen);
                uint64_t b[MAXN];

                load_be(b, n, bb, blen);
                if (handles(ops, n)) {
                    ops->mul(got, a, b, m, mont.m0inv, n);
                    fc_test_expect_limbs(what, got, want, n);
                }
                mont.ops->mul(got, a, b, m, mont.m0inv, n);
                fc_test_expect_limbs(what, got, want, n);
            }
            fc_mont_free(&mont);
            blocks++;
        }
        fc_kat_close(k);
        assert_true(blocks >= 10);
    }
}

/* ---- differential ------------------------------------------------------- */

FC_TEST("bn_diff", test_diff_kernels)
{
    const int quick = fc_test_quick();
    const size_t *sizes = quick ? kernel_sizes_quick : kernel_sizes;
    const size_t nsizes =
        quick ? FC_ARRAY_LEN(kernel_sizes_quick) : FC_ARRAY_LEN(kernel_sizes);
    size_t count, ran = 0;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *ops;

    FC_TEST_FOREACH_IMPL("bn", tab, count, ops)
    {
        for (size_t s = 0; s < nsizes; s++) {
            const size_t n = sizes[s];
            const int reps = quick ? 2 : (n <= 32 ? 12 : 4);

            if (!handles(ops, n))
                continue;
            for (int rep = 0; rep < reps; rep++) {
                uint64_t m[MAXN], a[MAXN], b[MAXN];
                fc_mont mont;
                oracle o;

                rand_modulus(m, n);
                assert_true(fc_mont_init(&mont, m, n, kern(ops, n)));
                assert_ptr_equal(mont.ops, ops);
                oracle_init(&o, m, n);
                rand_below(a, m, n);
                rand_below(b, m, n);
                check_kernels("random", ops, &o, m, mont.m0inv, a, b);
                ran++;
                oracle_free(&o);
                fc_mont_free(&mont);
            }
        }
    }
    assert_true(ran > 0);
}

/* fc_mont_to / fc_mont_from / m0inv / R mod m / R^2 mod m against BN. */
FC_TEST("bn_diff", test_diff_context)
{
    const int quick = fc_test_quick();
    const size_t *sizes = quick ? kernel_sizes_quick : kernel_sizes;
    const size_t nsizes =
        quick ? FC_ARRAY_LEN(kernel_sizes_quick) : FC_ARRAY_LEN(kernel_sizes);
    size_t count;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *ops;

    FC_TEST_FOREACH_IMPL("bn", tab, count, ops)
    {
        for (size_t s = 0; s < nsizes; s++) {
            const size_t n = sizes[s];
            uint64_t m[MAXN], a[MAXN], want[MAXN], got[MAXN];
            BIGNUM *r = BN_new(), *x, *am;
            fc_mont mont;
            oracle o;

            rand_modulus(m, n);
            assert_true(fc_mont_init(&mont, m, n, kern(ops, n)));
            assert_ptr_equal(mont.ops, kern(ops, n));
            oracle_init(&o, m, n);
            assert_int_equal(mont.n, n);
            assert_int_equal(mont.bits, (size_t)BN_num_bits(o.m));
            assert_true(m[0] * mont.m0inv == (uint64_t)-1);

            /* R mod m and R^2 mod m. */
            assert_true(BN_set_bit(r, (int)(64 * n)));
            assert_true(BN_mod(r, r, o.m, o.ctx));
            fc_test_bn_to_limbs(want, n, r);
            fc_test_expect_limbs("R mod m", mont.one, want, n);
            assert_true(BN_mod_mul(r, r, r, o.m, o.ctx));
            fc_test_bn_to_limbs(want, n, r);
            fc_test_expect_limbs("R^2 mod m", mont.rr, want, n);

            /* to: a*R mod m; from(to(a)) == a. */
            rand_below(a, m, n);
            am = fc_test_bn_from_limbs(a, n);
            x = BN_new();
            assert_true(BN_to_montgomery(x, am, o.mont, o.ctx));
            fc_test_bn_to_limbs(want, n, x);
            fc_mont_to(&mont, got, a);
            fc_test_expect_limbs("fc_mont_to", got, want, n);
            fc_mont_from(&mont, got, got);
            fc_test_expect_limbs("fc_mont_from(fc_mont_to(a))", got, a, n);
            assert_true(BN_from_montgomery(x, am, o.mont, o.ctx));
            fc_test_bn_to_limbs(want, n, x);
            memcpy(got, a, n * 8);
            fc_mont_from(&mont, got, got);
            fc_test_expect_limbs("fc_mont_from in place", got, want, n);

            BN_free(am);
            BN_free(x);
            BN_free(r);
            oracle_free(&o);
            fc_mont_free(&mont);
        }
    }
}

/* One random modexp at n limbs with an exponent of ebits bits in elimbs
 * limbs, for fc_bn_mod_exp and (if |pub|) fc_bn_mod_exp_public. */
static void check_mod_exp(const fc_mont *mont, oracle *o, size_t elimbs,
                          size_t ebits, int pub)
{
    const size_t n = mont->n;
    uint64_t a[MAXN], e[2 * MAXN], want[MAXN], got[MAXN];
    char what[160];

    rand_below(a, mont->m, n);
    memset(e, 0, sizeof(e));
    rand_limbs(e, (ebits + 63) / 64);
    if (ebits % 64)
        e[ebits / 64] &= ((uint64_t)1 << (ebits % 64)) - 1;
    oracle_mod_exp(o, want, a, e, elimbs);

    snprintf(what, sizeof(what), "fc_bn_mod_exp %s n=%zu elimbs=%zu ebits=%zu",
             mont->ops->name, n, elimbs, ebits);
    assert_true(fc_bn_mod_exp(mont, got, a, e, elimbs, ebits));
    fc_test_expect_limbs(what, got, want, n);
    /* r aliasing a. */
    memcpy(got, a, n * 8);
    assert_true(fc_bn_mod_exp(mont, got, got, e, elimbs, ebits));
    fc_test_expect_limbs(what, got, want, n);
    if (pub) {
        snprintf(what, sizeof(what), "fc_bn_mod_exp_public %s n=%zu ebits=%zu",
                 mont->ops->name, n, ebits);
        assert_true(fc_bn_mod_exp_public(mont, got, a, e, elimbs));
        fc_test_expect_limbs(what, got, want, n);
    }
}

FC_TEST("bn_diff", test_diff_mod_exp)
{
    /* {limbs, exponent bits}: RSA CRT halves and moduli from 512 to 8192
     * bits with full exponents where affordable, shorter ones above. */
    static const struct {
        size_t n, ebits;
        int quick;
    } cases[] = {
        {1, 64, 1},    {2, 128, 1},   {3, 150, 1},    {5, 300, 1},
        {8, 512, 1},   {9, 576, 1},   {12, 768, 1},   {13, 800, 0},
        {16, 1024, 1}, {16, 1023, 0}, {17, 1088, 1},  {20, 1280, 0},
        {24, 1536, 1}, {24, 1530, 0}, {31, 1984, 0},  {32, 2048, 1},
        {33, 2100, 0}, {48, 3072, 0}, {64, 4096, 0},  {64, 700, 1},
        {96, 600, 0},  {127, 400, 0}, {128, 8192, 0}, {128, 300, 0},
    };
    const int quick = fc_test_quick();
    size_t count;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *ops;

    FC_TEST_FOREACH_IMPL("bn", tab, count, ops)
    {
        for (size_t c = 0; c < FC_ARRAY_LEN(cases); c++) {
            const size_t n = cases[c].n, ebits = cases[c].ebits;
            uint64_t m[MAXN];
            fc_mont mont;
            oracle o;

            if (quick && !cases[c].quick)
                continue;
            rand_modulus(m, n);
            assert_true(fc_mont_init(&mont, m, n, kern(ops, n)));
            oracle_init(&o, m, n);
            check_mod_exp(&mont, &o, (ebits + 63) / 64, ebits, ebits <= 2048);
            /* A short exponent in a buffer of n limbs (CRT exponents whose
             * top limbs are zero). */
            if (!quick && ebits > 64)
                check_mod_exp(&mont, &o, n, ebits - 64, 0);
            oracle_free(&o);
            fc_mont_free(&mont);
        }
    }
}

FC_TEST("bn_diff", test_diff_mod_exp_public)
{
    static const uint64_t exps[] = {3, 17, 65537, 0x10001ull << 20,
                                    0xffffffffffffffffull};
    static const size_t sizes[] = {8, 16, 24, 32, 48, 64, 128, 5, 33};
    const int quick = fc_test_quick();
    size_t count;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *ops;

    FC_TEST_FOREACH_IMPL("bn", tab, count, ops)
    {
        for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
            const size_t n = sizes[s];
            uint64_t m[MAXN], a[MAXN], want[MAXN], got[MAXN];
            fc_mont mont;
            oracle o;

            if (quick && n > 32)
                continue;
            rand_modulus(m, n);
            assert_true(fc_mont_init(&mont, m, n, kern(ops, n)));
            oracle_init(&o, m, n);
            for (size_t i = 0; i < FC_ARRAY_LEN(exps); i++) {
                uint64_t e[2] = {exps[i], 0};
                rand_below(a, m, n);
                oracle_mod_exp(&o, want, a, e, 2);
                assert_true(fc_bn_mod_exp_public(&mont, got, a, e, 2));
                fc_test_expect_limbs("fc_bn_mod_exp_public", got, want, n);
                memcpy(got, a, n * 8);
                assert_true(fc_bn_mod_exp_public(&mont, got, got, e, 1));
                fc_test_expect_limbs("fc_bn_mod_exp_public r==a", got, want, n);
            }
            oracle_free(&o);
            fc_mont_free(&mont);
        }
    }
}

/* fc_mont_reduce for every input length 0..2n against BN_mod. */
FC_TEST("bn_diff", test_diff_reduce)
{
    static const size_t sizes[] = {1, 2, 3, 8, 9, 16, 17, 32, 64, 128};
    const int quick = fc_test_quick();
    size_t count;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *ops;

    FC_TEST_FOREACH_IMPL("bn", tab, count, ops)
    {
        for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
            const size_t n = sizes[s];
            uint64_t m[MAXN], a[2 * MAXN], want[MAXN], got[MAXN];
            fc_mont mont;
            oracle o;

            if (quick && n > 32)
                continue;
            rand_modulus(m, n);
            assert_true(fc_mont_init(&mont, m, n, kern(ops, n)));
            oracle_init(&o, m, n);
            for (size_t alen = 0; alen <= 2 * n; alen++) {
                BIGNUM *x, *r = BN_new();
                char what[128];

                rand_limbs(a, alen);
                /* Every third input is all ones: the largest value of its
                 * length. */
                if (alen % 3 == 2)
                    memset(a, 0xff, alen * 8);
                x = fc_test_bn_from_limbs(a, alen);
                assert_true(BN_mod(r, x, o.m, o.ctx));
                fc_test_bn_to_limbs(want, n, r);
                fc_mont_reduce(&mont, got, a, alen);
                snprintf(what, sizeof(what), "fc_mont_reduce n=%zu alen=%zu", n,
                         alen);
                fc_test_expect_limbs(what, got, want, n);
                BN_free(x);
                BN_free(r);
            }
            oracle_free(&o);
            fc_mont_free(&mont);
        }
    }
}

/* The limb helpers against BN. */
FC_TEST("bn_diff", test_diff_helpers)
{
    BN_CTX *ctx = BN_CTX_new();
    const int reps = fc_test_quick() ? 20 : 200;

    assert_non_null(ctx);
    for (int rep = 0; rep < reps; rep++) {
        const size_t n = 1 + fc_test_rand_below(40);
        const size_t bn = 1 + fc_test_rand_below(40);
        uint64_t a[2 * MAXN], b[MAXN], r[2 * MAXN], want[2 * MAXN];
        BIGNUM *x, *y, *z = BN_new();
        uint8_t bytes[8 * MAXN + 8], back[8 * MAXN + 8];
        size_t len;

        rand_limbs(a, n);
        rand_limbs(b, n);
        /* Random zero limbs at the top to vary the bit lengths. */
        for (size_t i = n; i-- > 0 && fc_test_rand_below(3) == 0;)
            a[i] = 0;
        if (fc_test_rand_below(4) == 0)
            memcpy(b, a, n * 8);
        x = fc_test_bn_from_limbs(a, n);
        y = fc_test_bn_from_limbs(b, n);

        assert_int_equal(fc_bn_bits(a, n), (size_t)BN_num_bits(x));
        assert_true(fc_bn_cmp_lt(a, b, n) ==
                    (BN_cmp(x, y) < 0 ? ~(uint64_t)0 : 0));

        /* add / sub with carry / borrow, in place too. */
        {
            uint64_t c = fc_bn_add(r, a, b, n);
            BIGNUM *t = BN_new();
            assert_true(BN_add(z, x, y));
            assert_true(BN_set_word(t, 0));
            assert_true(BN_set_bit(t, (int)(64 * n)));
            assert_int_equal(c, BN_cmp(z, t) >= 0);
            if (c)
                assert_true(BN_sub(z, z, t));
            fc_test_bn_to_limbs(want, n, z);
            fc_test_expect_limbs("fc_bn_add", r, want, n);
            memcpy(r, a, n * 8);
            assert_int_equal(fc_bn_add(r, r, b, n), c);
            fc_test_expect_limbs("fc_bn_add r==a", r, want, n);

            c = fc_bn_sub(r, a, b, n);
            assert_int_equal(c, BN_cmp(x, y) < 0);
            assert_true(BN_sub(z, x, y));
            if (c)
                assert_true(BN_add(z, z, t));
            fc_test_bn_to_limbs(want, n, z);
            fc_test_expect_limbs("fc_bn_sub", r, want, n);
            memcpy(r, b, n * 8);
            assert_int_equal(fc_bn_sub(r, a, r, n), c);
            fc_test_expect_limbs("fc_bn_sub r==b", r, want, n);
            BN_free(t);
        }

        /* Schoolbook product of unequal lengths. */
        {
            uint64_t c[MAXN];
            BIGNUM *w;
            rand_limbs(c, bn);
            w = fc_test_bn_from_limbs(c, bn);
            fc_bn_mul(r, a, n, c, bn);
            assert_true(BN_mul(z, x, w, ctx));
            fc_test_bn_to_limbs(want, n + bn, z);
            fc_test_expect_limbs("fc_bn_mul", r, want, n + bn);
            BN_free(w);
        }

        /* Bytes: exact length, longer with leading zeros, shorter. */
        len = (size_t)BN_num_bytes(x);
        assert_int_equal(BN_bn2bin(x, bytes), (int)len);
        memset(r, 0xa5, sizeof(r));
        assert_true(fc_bn_from_bytes_be(r, n, bytes, len));
        fc_test_expect_limbs("fc_bn_from_bytes_be", r, a, n);
        assert_true(fc_bn_to_bytes_be(back, len, a, n));
        assert_memory_equal(back, bytes, len);
        memset(back, 0xa5, sizeof(back));
        assert_true(fc_bn_to_bytes_be(back, 8 * n + 5, a, n));
        for (size_t i = 0; i < 8 * n + 5 - len; i++)
            assert_int_equal(back[i], 0);
        assert_memory_equal(back + 8 * n + 5 - len, bytes, len);
        assert_true(fc_bn_from_bytes_be(r, n, back, 8 * n + 5));
        fc_test_expect_limbs("fc_bn_from_bytes_be leading zeros", r, a, n);
        if (len > 0) {
            /* One byte too few: the value no longer fits. */
            assert_false(fc_bn_to_bytes_be(back, len - 1, a, n));
            /* A nonzero byte beyond n limbs does not fit either. */
            memset(back, 0, 8 * n + 1);
            back[0] = 1;
            assert_false(fc_bn_from_bytes_be(r, n, back, 8 * n + 1));
        }

        BN_free(x);
        BN_free(y);
        BN_free(z);
    }
    BN_CTX_free(ctx);
}

/* ---- ABI ---------------------------------------------------------------- */

FC_TEST("bn_abi", test_abi_checker)
{
    FC_TEST_SKIP_IF(!FC_ABI_CHECK_AVAILABLE, "no ABI trampoline on this build");
    assert_true(fc_abi_self_test());
}

FC_TEST("bn_abi", test_abi_kernels)
{
    static const size_t sizes[] = {8, 12, 16, 20, 24, 32, 64};
    size_t count, checked = 0;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *ops;

    FC_TEST_SKIP_IF(!FC_ABI_CHECK_AVAILABLE, "no ABI trampoline on this build");
    FC_TEST_FOREACH_IMPL("bn", tab, count, ops)
    {
        if (is_generic(ops))
            continue; /* compiled C keeps the ABI by construction */
        for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
            const size_t n = sizes[s];
            uint64_t m[MAXN], a[MAXN], b[MAXN], want[MAXN], r[MAXN];
            fc_mont mont;
            oracle o;
            char what[128];

            if (!handles(ops, n))
                continue;
            checked++;
            rand_modulus(m, n);
            assert_true(fc_mont_init(&mont, m, n, kern(ops, n)));
            oracle_init(&o, m, n);
            rand_below(a, m, n);
            rand_below(b, m, n);

            oracle_mont_mul(&o, want, a, b);
            snprintf(what, sizeof(what), "%s mul n=%zu", ops->name, n);
            FC_ABI_CALL(what, ops->mul, FC_ABI_ARG(r), FC_ABI_ARG(a),
                        FC_ABI_ARG(b), FC_ABI_ARG(m), mont.m0inv, n);
            fc_test_expect_limbs(what, r, want, n);
            snprintf(what, sizeof(what), "%s mul r==a==b n=%zu", ops->name, n);
            oracle_mont_mul(&o, want, a, a);
            memcpy(r, a, n * 8);
            FC_ABI_CALL(what, ops->mul, FC_ABI_ARG(r), FC_ABI_ARG(r),
                        FC_ABI_ARG(r), FC_ABI_ARG(m), mont.m0inv, n);
            fc_test_expect_limbs(what, r, want, n);

            snprintf(what, sizeof(what), "%s sqr n=%zu", ops->name, n);
            FC_ABI_CALL(what, ops->sqr, FC_ABI_ARG(r), FC_ABI_ARG(a),
                        FC_ABI_ARG(m), mont.m0inv, n);
            fc_test_expect_limbs(what, r, want, n);
            snprintf(what, sizeof(what), "%s sqr r==a n=%zu", ops->name, n);
            memcpy(r, a, n * 8);
            FC_ABI_CALL(what, ops->sqr, FC_ABI_ARG(r), FC_ABI_ARG(r),
                        FC_ABI_ARG(m), mont.m0inv, n);
            fc_test_expect_limbs(what, r, want, n);

            oracle_free(&o);
            fc_mont_free(&mont);
        }
    }
    FC_TEST_SKIP_IF(checked == 0, "no assembly bignum table runs here");
}

/* ---- edge cases --------------------------------------------------------- */

/* Operands 0, 1, 2, m-1, m-2 and values with all-ones limbs, for moduli
 * with a full top limb, an all-ones top limb, and m = 2^(64n) - 1. */
FC_TEST("bn_edge", test_edge_operands)
{
    static const size_t sizes[] = {1, 2, 4, 8, 9, 12, 16, 17, 24, 32, 64};
    const int quick = fc_test_quick();
    size_t count;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *ops;

    FC_TEST_FOREACH_IMPL("bn", tab, count, ops)
    {
        for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
            const size_t n = sizes[s];
            const fc_bn_ops *k = kern(ops, n);

            if (quick && n > 32)
                continue;
            for (int shape = 0; shape < 4; shape++) {
                uint64_t m[MAXN], vals[8][MAXN];
                fc_mont mont;
                oracle o;
                size_t nv = 0;

                switch (shape) {
                case 0: /* random, top bit set */
                    rand_modulus_bits(m, n, 64);
                    break;
                case 1: /* top limb all ones */
                    rand_modulus_bits(m, n, 64);
                    m[n - 1] = ~(uint64_t)0;
                    break;
                case 2: /* m = 2^(64n) - 1 */
                    memset(m, 0xff, n * 8);
                    break;
                default: /* m = 2^(64n-1) + 1: smallest full-size */
                    memset(m, 0, n * 8);
                    m[0] = 1;
                    m[n - 1] |= (uint64_t)1 << 63;
                    break;
                }
                assert_true(fc_mont_init(&mont, m, n, kern(ops, n)));
                oracle_init(&o, m, n);
                /* 0, 1, 2, m-1, m-2, R mod m, a random value, and all-ones
                 * limbs below the top limb. */
                memset(vals[nv], 0, n * 8), nv++;
                memset(vals[nv], 0, n * 8), vals[nv][0] = 1, nv++;
                memset(vals[nv], 0, n * 8), vals[nv][0] = 2, nv++;
                fc_bn_sub(vals[nv], m, vals[1], n), nv++; /* m - 1 */
                fc_bn_sub(vals[nv], m, vals[2], n), nv++; /* m - 2 */
                memcpy(vals[nv], mont.one, n * 8), nv++;
                rand_below(vals[nv], m, n), nv++;
                memset(vals[nv], 0xff, n * 8);
                vals[nv][n - 1] = 0;
                if (n == 1)
                    vals[nv][0] = m[0] >> 1;
                nv++;
                for (size_t i = 0; i < nv; i++) {
                    for (size_t j = 0; j < nv; j++)
                        check_kernels("edge", k, &o, m, mont.m0inv, vals[i],
                                      vals[j]);
                }
                oracle_free(&o);
                fc_mont_free(&mont);
            }
        }
    }
}

/* Exponents 0 and 1, all-ones exponents, bases 0 and 1, exponents shorter
 * than their buffer, and every exponent size across the window-width
 * boundaries. */
FC_TEST("bn_edge", test_edge_mod_exp)
{
    const int quick = fc_test_quick();
    size_t count;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *ops;

    FC_TEST_FOREACH_IMPL("bn", tab, count, ops)
    {
        static const size_t sizes[] = {1, 8, 16, 17};
        for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
            const size_t n = sizes[s];
            uint64_t m[MAXN], a[MAXN], e[MAXN], want[MAXN], got[MAXN];
            fc_mont mont;
            oracle o;

            rand_modulus(m, n);
            assert_true(fc_mont_init(&mont, m, n, kern(ops, n)));
            oracle_init(&o, m, n);
            rand_below(a, m, n);

            /* e = 0 in buffers of 1 and n limbs, any ebits: a^0 = 1. */
            memset(e, 0, sizeof(e));
            memset(want, 0, n * 8);
            want[0] = 1;
            assert_true(fc_bn_mod_exp(&mont, got, a, e, 1, 1));
            fc_test_expect_limbs("a^0", got, want, n);
            assert_true(fc_bn_mod_exp(&mont, got, a, e, n, 64 * n));
            fc_test_expect_limbs("a^0 (n-limb buffer)", got, want, n);
            assert_true(fc_bn_mod_exp_public(&mont, got, a, e, n));
            fc_test_expect_limbs("a^0 public", got, want, n);
            /* 0^0 = 1 by convention (BN agrees). */
            memset(got, 0, n * 8);
            assert_true(fc_bn_mod_exp(&mont, got, got, e, 1, 5));
            fc_test_expect_limbs("0^0", got, want, n);

            /* e = 1: a^1 = a, with ebits 1 and 64n. */
            e[0] = 1;
            assert_true(fc_bn_mod_exp(&mont, got, a, e, 1, 1));
            fc_test_expect_limbs("a^1", got, a, n);
            assert_true(fc_bn_mod_exp(&mont, got, a, e, n, 64 * n));
            fc_test_expect_limbs("a^1 (n-limb buffer)", got, a, n);
            assert_true(fc_bn_mod_exp_public(&mont, got, a, e, n));
            fc_test_expect_limbs("a^1 public", got, a, n);

            /* Bases 0 and 1. */
            rand_limbs(e, n);
            memset(got, 0, n * 8);
            memset(want, 0, n * 8);
            assert_true(fc_bn_mod_exp(&mont, got, got, e, n, 64 * n));
            fc_test_expect_limbs("0^e", got, want, n);
            want[0] = 1;
            memcpy(got, want, n * 8);
            assert_true(fc_bn_mod_exp(&mont, got, got, e, n, 64 * n));
            fc_test_expect_limbs("1^e", got, want, n);

            /* All-ones exponent: every window is 2^w - 1. */
            memset(e, 0xff, n * 8);
            oracle_mod_exp(&o, want, a, e, n);
            assert_true(fc_bn_mod_exp(&mont, got, a, e, n, 64 * n));
            fc_test_expect_limbs("a^(2^64n - 1)", got, want, n);

            /* Every exponent size 1..200 bits (windows 1 to 5 and their
             * boundaries) in a buffer longer than needed; fewer in quick
             * mode. */
            for (size_t ebits = 1; ebits <= 200;
                 ebits += quick ? 1 + fc_test_rand_below(23) : 1) {
                if (n > 8 && ebits % 7 != 0 && ebits > 70)
                    continue; /* the big-n passes need fewer sizes */
                check_mod_exp(&mont, &o, 4, ebits, 0);
            }
            /* Sizes around the larger window switches. */
            {
                static const size_t big[] = {383,  384,  385, 1535,
                                             1536, 1537, 2048};
                for (size_t i = 0; i < FC_ARRAY_LEN(big); i++) {
                    if (quick && big[i] > 1024)
                        continue;
                    check_mod_exp(&mont, &o, (big[i] + 63) / 64 + 1, big[i], 0);
                }
            }
            oracle_free(&o);
            fc_mont_free(&mont);
        }
    }
}

FC_TEST("bn_edge", test_edge_bad_moduli)
{
    const fc_bn_ops *gen = generic_ops();
    uint64_t m[MAXN + 1];
    fc_mont mont;

    rand_limbs(m, MAXN + 1);
    m[0] |= 1;
    m[MAXN] |= 1;
    assert_false(fc_mont_init(&mont, m, 0, gen));        /* n = 0 */
    assert_false(fc_mont_init(&mont, m, MAXN + 1, gen)); /* too long */
    m[0] &= ~(uint64_t)1;
    assert_false(fc_mont_init(&mont, m, 8, gen)); /* even */
    m[0] |= 1;
    m[7] = 0;
    assert_false(fc_mont_init(&mont, m, 8, gen)); /* top limb zero */
    m[0] = 1;
    assert_false(fc_mont_init(&mont, m, 1, gen)); /* m = 1 */
    m[0] = 3;
    assert_true(fc_mont_init(&mont, m, 1, gen)); /* smallest accepted */
    fc_mont_free(&mont);
    fc_mont_free(NULL);
    /* The longest modulus is accepted; kernels that do not take the size
     * (or none) are refused, not replaced. */
    rand_modulus(m, MAXN);
    assert_true(fc_mont_init(&mont, m, MAXN, gen));
    assert_ptr_equal(mont.ops, gen);
    fc_mont_free(&mont);
    assert_false(fc_mont_init(&mont, m, MAXN, NULL));
    {
        size_t count;
        const fc_bn_ops *const *tab = fc_test_bn_impls(&count);

        for (size_t i = 0; i < count; i++)
            if (tab[i]->limb_multiple > 1) {
                assert_false(
                    fc_mont_init(&mont, m, tab[i]->min_limbs + 1, tab[i]));
                if (tab[i]->limb_multiple < tab[i]->min_limbs)
                    assert_false(
                        fc_mont_init(&mont, m, tab[i]->limb_multiple, tab[i]));
            }
    }
}

FC_TEST("bn_edge", test_edge_tables)
{
    size_t count;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *gen = generic_ops();

    /* Every table is well-formed; generic handles every n. */
    for (size_t i = 0; i < count; i++) {
        assert_non_null(tab[i]->name);
        assert_non_null(tab[i]->mul);
        assert_non_null(tab[i]->sqr);
        assert_true(tab[i]->limb_multiple >= 1);
        assert_true(tab[i]->min_limbs >= 1);
    }
    assert_string_equal(gen->name, "generic");
    assert_int_equal(gen->required_caps, 0);
    for (size_t n = 1; n <= MAXN; n++)
        assert_true(handles(gen, n));
    assert_false(handles(gen, 0));
    assert_false(handles(gen, MAXN + 1));
    assert_false(handles(NULL, 16));
    for (size_t i = 0; i < count; i++)
        if (strcmp(tab[i]->name, "mulx") == 0) {
            /* The MULX contract: multiples of 4, at least 8 limbs. */
            assert_true(handles(tab[i], 8));
            assert_true(handles(tab[i], 16));
            assert_false(handles(tab[i], 4));
            assert_false(handles(tab[i], 17));
        }
    /* Which kernels a size gets is the RSA engine list's choice (tested in
     * test_rsa): here, that the list's kernels for each size take it. */
    print_message("[   INFO   ] bn tables:");
    for (size_t i = 0; i < count; i++)
        print_message(" %s", tab[i]->name);
    print_message("; here for 16 limbs: %s, for 17: %s\n",
                  fc_test_bn_kernels(16)->name, fc_test_bn_kernels(17)->name);
    for (size_t n = 1; n <= MAXN; n++)
        assert_true(handles(fc_test_bn_kernels(n), n));
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    /* x86-64 builds carry the MULX table, picked for the sizes it takes
     * when BMI2 and ADX are present (and not masked). */
    assert_true(count >= 2);
    assert_string_equal(tab[0]->name, "mulx");
    if (fc_bn_mulx_capable(fc_test_caps()))
        assert_ptr_equal(fc_test_bn_kernels(16), tab[0]);
    else
        assert_ptr_equal(fc_test_bn_kernels(16), gen);
    assert_ptr_equal(fc_test_bn_kernels(17), gen);
#endif
}

FC_TEST("bn_edge", test_edge_copy)
{
    size_t count;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *ops;

    FC_TEST_FOREACH_IMPL("bn", tab, count, ops)
    {
        const size_t n = 16;
        uint64_t m[MAXN], a[MAXN], e[MAXN], r1[MAXN], r2[MAXN];
        fc_mont mont, copy;

        rand_modulus(m, n);
        rand_below(a, m, n);
        rand_limbs(e, n);
        assert_true(fc_mont_init(&mont, m, n, kern(ops, n)));
        assert_true(fc_mont_copy(&copy, &mont));
        assert_ptr_not_equal(copy.m, mont.m);
        assert_ptr_not_equal(copy.rr, mont.rr);
        assert_ptr_not_equal(copy.one, mont.one);
        assert_ptr_equal(copy.ops, mont.ops);
        assert_true(fc_bn_mod_exp(&mont, r1, a, e, n, 64 * n));
        fc_mont_free(&mont);
        /* The copy still works after the original is gone. */
        assert_true(fc_bn_mod_exp(&copy, r2, a, e, n, 64 * n));
        fc_test_expect_limbs("copy", r2, r1, n);
        fc_mont_free(&copy);
        assert_null(copy.m);
    }
}

/*
 * Base and exponent marked secret (FC_CT_SECRET) through fc_bn_mod_exp,
 * fc_bn_mod_exp_public (secret base), the kernels, fc_mont_reduce and the
 * limb helpers. In a FASTCRYPTO_CT_VALGRIND build run under valgrind, any
 * branch or memory index depending on them, in C or in assembly, is
 * reported; elsewhere this is one more correctness check.
 */
FC_TEST("bn_edge", test_edge_ct_marked)
{
    static const size_t sizes[] = {8, 16, 17, 32};
    size_t count;
    const fc_bn_ops *const *tab = fc_test_bn_impls(&count);
    const fc_bn_ops *ops;

    FC_TEST_FOREACH_IMPL("bn", tab, count, ops)
    {
        for (size_t s = 0; s < FC_ARRAY_LEN(sizes); s++) {
            const size_t n = sizes[s];
            uint64_t m[MAXN], a[MAXN], e[MAXN], want[MAXN], got[MAXN],
                t[2 * MAXN], red[MAXN], sq[MAXN], sq_want[MAXN], pub[MAXN],
                pub_want[MAXN], prod[2 * MAXN];
            uint64_t pe[1] = {65537}, lt, carry, bits;
            uint8_t bytes[8 * MAXN];
            int fits;
            fc_mont mont;
            oracle o;

            rand_modulus(m, n);
            assert_true(fc_mont_init(&mont, m, n, kern(ops, n)));
            oracle_init(&o, m, n);
            rand_below(a, m, n);
            rand_limbs(e, n);
            rand_limbs(t, 2 * n);
            oracle_mod_exp(&o, want, a, e, n);
            oracle_mod_exp(&o, pub_want, a, pe, 1);
            oracle_mont_mul(&o, sq_want, a, a);

            FC_CT_SECRET(a, n * 8);
            FC_CT_SECRET(e, n * 8);
            FC_CT_SECRET(t, 2 * n * 8);
            assert_true(fc_bn_mod_exp(&mont, got, a, e, n, 64 * n));
            assert_true(fc_bn_mod_exp_public(&mont, pub, a, pe, 1));
            fc_mont_reduce(&mont, red, t, 2 * n);
            mont.ops->sqr(sq, a, m, mont.m0inv, n);
            fc_mont_to(&mont, t, a);
            fc_mont_from(&mont, t, t);
            lt = fc_bn_cmp_lt(a, e, n);
            carry = fc_bn_add(t + n, a, e, n);
            carry += fc_bn_sub(t + n, t + n, e, n);
            fc_bn_mul(prod, a, n, e, n);
            bits = fc_bn_bits(e, n);
            fits = fc_bn_to_bytes_be(bytes, 8 * n, a, n);
            fits &= fc_bn_from_bytes_be(t + n, n, bytes, 8 * n);
            FC_CT_PUBLIC(got, n * 8);
            FC_CT_PUBLIC(pub, n * 8);
            FC_CT_PUBLIC(red, n * 8);
            FC_CT_PUBLIC(sq, n * 8);
            FC_CT_PUBLIC(a, n * 8);
            FC_CT_PUBLIC(e, n * 8);
            FC_CT_PUBLIC(t, 2 * n * 8);
            FC_CT_PUBLIC(prod, 2 * n * 8);
            FC_CT_PUBLIC(bytes, 8 * n);
            FC_CT_PUBLIC(&lt, sizeof(lt));
            FC_CT_PUBLIC(&carry, sizeof(carry));
            FC_CT_PUBLIC(&bits, sizeof(bits));
            FC_CT_PUBLIC(&fits, sizeof(fits));
            fc_test_expect_limbs("secret-marked modexp", got, want, n);
            fc_test_expect_limbs("secret-marked public-exponent modexp", pub,
                                 pub_want, n);
            fc_test_expect_limbs("secret-marked sqr", sq, sq_want, n);
            fc_test_expect_limbs("secret-marked to/from", t, a, n);
            fc_test_expect_limbs("secret-marked bytes", t + n, a, n);
            assert_true(fits);
            assert_true(carry <= 2);
            assert_true(lt == 0 || lt == ~(uint64_t)0);
            assert_true(bits <= 64 * n);
            oracle_free(&o);
            fc_mont_free(&mont);
        }
    }
}

int main(void)
{
    return fc_test_main(NULL, 0);
}
