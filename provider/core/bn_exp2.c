/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_exp2.c - both CRT halves' modular exponentiations in one pass, on one
 * of two vector engines with the halves in one instruction stream:
 *   - AVX-512 IFMA (asm/x86_64/bn_exp_ifma.S): radix 2^52;
 *   - AVX2 (asm/x86_64/bn_exp_avx2.S): radix 2^28, digit pairs;
 * and the selection between them and the MULX kernels (fc_bn_exp2_select,
 * with the per-CPU row's preference in the caps word).
 *
 * Per key (fc_bn_exp2_key_new), per half: the kernel constants (m~ or m
 * in the engine's radix, laid out as the kernels read them), R = 2^(db L)
 * mod m (the Montgomery one, table entry 0), RR = R^2 mod m and
 * u = 2^-D mod m, D = db L - 64n, all through the 64-bit Montgomery
 * kernels of the fc_mont context. Per call: a -> the engine's radix and
 * a * R = AMM(a, RR) (one vector product for both halves), the table, a
 * fixed-window exponentiation on "almost Montgomery" values (below a small
 * multiple of m, see the .S headers), then per half one full reduction
 * (fc_mont_reduce) and one 64-bit product by u, which also leaves the
 * Montgomery domain.
 *
 * Number layouts:
 *  - IFMA n = 16 (RSA-2048 halves): "interleaved halves", 6 units of 8
 *    words; word 2t + h of unit j holds digit 4j + t of half h. Kernels: a
 *    squaring kernel that runs |count| squarings in one call, a
 *    multiplication kernel, a gather.
 *  - IFMA n = 24, 32: the halves side by side (NR zmm each), one AMM
 *    kernel for squarings and products, a gather.
 *  - AVX2 n = 16, 24, 32: digit pairs (word 2j + h = digit j of half h),
 *    L = 38, 56, 76 digits; multiplication, squaring (|count| of them) and
 *    gather kernels, and a work buffer per exponentiation (zeroed once:
 *    the zero pairs around its operand copies are never written).
 *
 * Measured (IFMA; development Xeon with AVX512-IFMA, shared 2-core KVM
 * guest under load from other jobs: only ratios within one run mean
 * anything), one pair of 1024-bit CRT exponentiations with a real
 * RSA-2048 key's dP and dQ, medians of 7 interleaved rounds (each the
 * minimum of 40):
 *
 *   version                                           us per pair
 *   side-by-side AMM kernel, conversions per call     254
 *   interleaved sqr/mul kernels, per-key constants    173
 *
 * In the same runs OpenSSL 3.0's whole RSA-2048 private operation (raw
 * decrypt through EVP, its own 1024-bit IFMA code for both halves) took
 * 296 us and fc_rsa_private 195 us (276 us before). Window size for
 * 1024-bit exponents: 4 and 5 measure the same within noise, 6 is ~3%
 * slower; 5 is used. The gather of one window (32 entries, both halves)
 * costs ~180 cycles, ~6% of the pair. AVX2 figures: bench/fc_bn_bench and
 * the header of bn_exp_avx2.S.
 */
#include <stdlib.h>
#include <string.h>

#include "fc/bn.h"
#include "fc/bn_exp2.h"
#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/ct.h"
#include "fc/tuning.h"

#if defined(__x86_64__) && !defined(FC_NO_ASM)
#define FC_EXP2_ASM 1
#else
#define FC_EXP2_ASM 0
#endif

#define FC_D52_MASK ((uint64_t)0xfffffffffffff)
#define FC_D28_MASK ((uint64_t)0xfffffff)

/* see fc/bn_exp2.h */
int fc_bn_exp2_ifma_present(void)
{
    return FC_EXP2_ASM && (fc_cpu_detect() & FC_CAP_IFMA) != 0;
}

#if FC_EXP2_ASM

typedef void fc_mul52x2_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                           const uint64_t *ctx);
typedef void fc_sqr52x2_fn(uint64_t *r, const uint64_t *a, size_t count,
                           const uint64_t *ctx);
typedef void fc_mul28x2_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                           const uint64_t *ctx, uint64_t *work);
typedef void fc_sqr28x2_fn(uint64_t *r, const uint64_t *a, size_t count,
                           const uint64_t *ctx, uint64_t *work);
typedef void fc_gather_x2_fn(uint64_t *out, const uint64_t *table, size_t count,
                             size_t idx_p, size_t idx_q);

/* Number layouts: the halves side by side (slot digits each), the IFMA
 * n16 units (word 8(i/4) + 2(i%4) + h), digit pairs (word 2i + h). */
enum { FC_LAYOUT_SIDE, FC_LAYOUT_UNITS, FC_LAYOUT_PAIRS };
/* Modulus forms: m~ = m * (-m^-1 mod 2^db) (k0 = 1), or m with k0. */
enum { FC_MOD_MT, FC_MOD_K0 };

/*
 * One engine for one size: n 64-bit limbs, l digits of db bits, slot =
 * digits per half in a number (>= l), words per number (both halves),
 * layout and modulus form, the kernel constants' size in words, and the
 * work buffer the kernels want (bytes, 0 for none).
 */
struct fc_exp2_shape {
    size_t n, l, slot, words, ctx_words, work_bytes;
    unsigned db;
    int layout, mod, ifma;
    fc_mul52x2_fn *mul52;
    fc_sqr52x2_fn *sqr52; /* NULL: mul52(a, a) in a loop */
    fc_mul28x2_fn *mul28;
    fc_sqr28x2_fn *sqr28;
    fc_gather_x2_fn *gather;
};

#define FC_AVX2_SHAPE(N, L)                                                    \
    {                                                                          \
        .n = N, .l = L, .slot = L, .words = 2 * (L),                           \
        .ctx_words = FC_EXP2_AVX2_C_SIZE(L) / 8,                               \
        .work_bytes = FC_EXP2_AVX2_W_SIZE(L), .db = 28,                        \
        .layout = FC_LAYOUT_PAIRS, .mod = FC_MOD_MT, .ifma = 0,                \
        .mul28 = fc_bn_mul28x2_n##N##_avx2,                                    \
        .sqr28 = fc_bn_sqr28x2_n##N##_avx2,                                    \
        .gather = fc_bn_gather28x2_n##N##_avx2                                 \
    }

static const fc_exp2_shape fc_exp2_shapes[] = {
    {.n = 16,
     .l = 21,
     .slot = 24,
     .words = 48,
     .ctx_words = FC_BN_EXP2_N16_CTX_WORDS,
     .db = 52,
     .layout = FC_LAYOUT_UNITS,
     .mod = FC_MOD_MT,
     .ifma = 1,
     .mul52 = fc_bn_mul52x2_n16_ifma,
     .sqr52 = fc_bn_sqr52x2_n16_ifma,
     .gather = fc_bn_gather52x2_n16_ifma},
    {.n = 24,
     .l = 31,
     .slot = 32,
     .words = 64,
     .ctx_words = 2 * 64 + 8,
     .db = 52,
     .layout = FC_LAYOUT_SIDE,
     .mod = FC_MOD_MT,
     .ifma = 1,
     .mul52 = fc_bn_amm52x2_n24_ifma,
     .gather = fc_bn_gather52x2_n24_ifma},
    {.n = 32,
     .l = 40,
     .slot = 40,
     .words = 80,
     .ctx_words = 2 * 80 + 8,
     .db = 52,
     .layout = FC_LAYOUT_SIDE,
     .mod = FC_MOD_K0,
     .ifma = 1,
     .mul52 = fc_bn_amm52x2_n32_ifma,
     .gather = fc_bn_gather52x2_n32_ifma},
    FC_AVX2_SHAPE(16, FC_EXP2_AVX2_L16),
    FC_AVX2_SHAPE(24, FC_EXP2_AVX2_L24),
    FC_AVX2_SHAPE(32, FC_EXP2_AVX2_L32),
};

/* The largest l and words of any shape (stack arrays). */
#define FC_EXP2_MAXL     FC_EXP2_AVX2_L32
#define FC_EXP2_MAXWORDS (2 * FC_EXP2_AVX2_L32)

/*
 * The per-key state: kernel constants, R = 2^(db*l) mod m (the Montgomery
 * one) and RR = R^2 mod m in the kernels' number layout (64-byte aligned,
 * in |mem|), and u = 2^-D mod m per half.
 */
struct fc_bn_exp2_key {
    const fc_bn_exp2_ops *ops;
    const fc_exp2_shape *sh;
    uint64_t *mem; /* ctx, one, rr, u[0], u[1] */
    size_t mem_words;
    uint64_t *ctx;
    uint64_t *one;  /* R mod m (the Montgomery one) */
    uint64_t *rr;   /* R^2 mod m */
    uint64_t *u[2]; /* 2^-D mod m, n limbs */
};

/* fc_exp2_todig: |l| digits of |db| bits (52 or 28) from the |n|-limb x
 * (bits past 64n read as zero), then zero digits up to |slot|. Public
 * indices only. */
static void fc_exp2_todig(uint64_t *d, const uint64_t *x, size_t n, size_t l,
                          size_t slot, unsigned db)
{
    const uint64_t mask = ((uint64_t)1 << db) - 1;

    for (size_t i = 0; i < l; i++) {
        size_t bit = db * i, limb = bit / 64, sh = bit % 64;
        uint64_t v = 0;

        if (limb < n)
            v = x[limb] >> sh;
        if (sh > 64 - db && limb + 1 < n)
            v |= x[limb + 1] << (64 - sh);
        d[i] = v & mask;
    }
    for (size_t i = l; i < slot; i++)
        d[i] = 0;
}

/* fc_exp2_fromdig: |xn| limbs from |l| digits of |db| bits that may exceed
 * 2^db (the AVX2 kernels leave digits below 2^28 + 2^8): the carries are
 * propagated first, then the bits placed (high bits past 64*xn dropped;
 * callers size xn to hold the value). |d| is normalized in place. */
static void fc_exp2_fromdig(uint64_t *x, size_t xn, uint64_t *d, size_t l,
                            unsigned db)
{
    const uint64_t mask = ((uint64_t)1 << db) - 1;
    uint64_t c = 0;

    for (size_t i = 0; i < l; i++) {
        uint64_t v = d[i] + c;
        d[i] = v & mask;
        c = v >> db;
    }
    memset(x, 0, xn * sizeof(uint64_t));
    for (size_t i = 0; i < l; i++) {
        size_t bit = db * i, limb = bit / 64, sh = bit % 64;

        if (limb < xn)
            x[limb] |= d[i] << sh;
        if (sh > 64 - db && limb + 1 < xn)
            x[limb + 1] |= d[i] >> (64 - sh);
    }
}

/* Digit i of half h in a number of shape |sh|: its word index. */
static size_t fc_exp2_pos(const fc_exp2_shape *sh, size_t h, size_t i)
{
    switch (sh->layout) {
    case FC_LAYOUT_UNITS:
        return 8 * (i / 4) + 2 * (i % 4) + h;
    case FC_LAYOUT_PAIRS:
        return 2 * i + h;
    default:
        return h * sh->slot + i;
    }
}

/* num (both halves) from the slot-digit arrays d0, d1. */
static void fc_exp2_pack(const fc_exp2_shape *sh, uint64_t *num,
                         const uint64_t *d0, const uint64_t *d1)
{
    for (size_t i = 0; i < sh->slot; i++) {
        num[fc_exp2_pos(sh, 0, i)] = d0[i];
        num[fc_exp2_pos(sh, 1, i)] = d1[i];
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
 * fc_exp2_mdigits: the kernel's modulus digits for one half into md (slot
 * words). k0 form: m. m~ form: m~ = m * k, k = -m^-1 mod 2^db, so that
 * m~ = -1 mod 2^db. The IFMA n16 kernels add 1 to digit 1 (they run their
 * carry chain on m~_1 + 1, see bn_exp_ifma.S), which must stay below
 * 2^52: when m~_1 = 2^52 - 1 they use k + 2^52 instead (m~_1 then differs
 * by m mod 2^52, odd, so only one of the two can be all ones). The choice
 * is a mask (m is secret); both candidates are computed. (The AVX2
 * triangles use m~_1 + 1 in 64-bit scalar products only: no limit.)
 */
static void fc_exp2_mdigits(const fc_exp2_shape *sh, const fc_mont *mont,
                            uint64_t *md)
{
    const size_t n = sh->n;
    const uint64_t dmask = ((uint64_t)1 << sh->db) - 1;
    uint64_t x[FC_BN_MAX_LIMBS + 2], d1[FC_EXP2_MAXL], k[2];

    if (sh->mod == FC_MOD_K0) {
        fc_exp2_todig(md, mont->m, n, sh->l, sh->slot, sh->db);
        return;
    }
    k[0] = mont->m0inv & dmask;
    k[1] = 0;
    fc_bn_mul(x, mont->m, n, k, 2);
    fc_exp2_todig(md, x, n + 2, sh->l, sh->slot, sh->db);
    if (sh->layout == FC_LAYOUT_UNITS) {
        uint64_t sel;

        k[0] |= (uint64_t)1 << 52;
        fc_bn_mul(x, mont->m, n, k, 2);
        fc_exp2_todig(d1, x, n + 2, sh->l, sh->slot, 52);
        sel = fc_ct_eq(md[1], FC_D52_MASK);
        for (size_t i = 0; i < sh->slot; i++)
            md[i] = fc_ct_select(sel, d1[i], md[i]);
        md[1] += 1;
        fc_memzero(d1, sizeof(d1));
    }
    fc_memzero(x, sizeof(x));
}

/*
 * fc_exp2_ctx: the kernel constants from the digit arrays md[2].
 * IFMA units (n16): MS_v[r] (v = 0..3, r = 0..5) at words 48v + 8r,
 * digit m~'_{4r+t-v} of half h in word 2t + h (zero outside 0..l-1), then
 * m~'_1 of each half in alternate words.
 * IFMA side by side: the modulus pair; then in m~ form the pair moved up
 * one digit (M1), in k0 form the words k0_p, k0_q, m0_p, m0_q.
 * AVX2 pairs: m~ as digit pairs in an even and an odd copy region (zero
 * around them), then m~_1 + 1, m~_2, m~_3 of each half (fc/bn_exp2.h).
 */
static void fc_exp2_ctx(const fc_exp2_shape *sh, const fc_mont *m[2],
                        uint64_t *ctx, uint64_t md[2][FC_EXP2_MAXL])
{
    if (sh->layout == FC_LAYOUT_PAIRS) {
        const size_t l = sh->l;
        uint64_t *me = ctx + (FC_EXP2_AVX2_C_ME + FC_EXP2_AVX2_BASE_E) / 8;
        uint64_t *mo = ctx + (FC_EXP2_AVX2_C_MO(l) + FC_EXP2_AVX2_BASE_O) / 8;
        uint64_t *cs = ctx + FC_EXP2_AVX2_C_S(l) / 8;

        for (size_t h = 0; h < 2; h++) {
            for (size_t j = 0; j < l; j++) {
                me[2 * j + h] = md[h][j];
                mo[2 * j + h] = md[h][j];
            }
            cs[h] = md[h][1] + 1;
            cs[2 + h] = md[h][2];
            cs[4 + h] = md[h][3];
        }
        return;
    }
    if (sh->layout == FC_LAYOUT_UNITS) {
        for (size_t v = 0; v < 4; v++)
            for (size_t r = 0; r < 6; r++)
                for (size_t h = 0; h < 2; h++)
                    for (size_t l = 0; l < 4; l++) {
                        size_t j = 4 * r + l; /* digit j - v */

                        ctx[48 * v + 8 * r + 2 * l + h] =
                            j >= v && j - v < sh->l ? md[h][j - v] : 0;
                    }
        for (size_t h = 0; h < 2; h++)
            for (size_t l = 0; l < 4; l++)
                ctx[FC_BN_EXP2_N16_M1_WORD + 2 * l + h] = md[h][1];
        return;
    }
    for (size_t h = 0; h < 2; h++) {
        memcpy(ctx + h * sh->slot, md[h], sh->slot * sizeof(uint64_t));
        if (sh->mod == FC_MOD_K0) {
            ctx[2 * sh->slot + h] = m[h]->m0inv & FC_D52_MASK;
            ctx[2 * sh->slot + 2 + h] = md[h][0];
        } else {
            ctx[2 * sh->slot + h * sh->slot] = 0;
            for (size_t j = 1; j < sh->slot; j++)
                ctx[2 * sh->slot + h * sh->slot + j] = md[h][j - 1];
        }
    }
}

/* see fc/bn_exp2.h */
fc_bn_exp2_key *fc_bn_exp2_key_new(const fc_bn_exp2_ops *ops, const fc_mont *m1,
                                   const fc_mont *m2)
{
    const fc_mont *m[2] = {m1, m2};
    const fc_exp2_shape *sh;
    fc_bn_exp2_key *key;
    uint64_t md[2][FC_EXP2_MAXL], one[2][FC_EXP2_MAXL], rr[2][FC_EXP2_MAXL];
    uint64_t x[FC_BN_MAX_LIMBS], y[FC_BN_MAX_LIMBS], t[FC_BN_MAX_LIMBS];
    size_t n, dbits, ctxw;

    if (ops == NULL || (sh = ops->shape) == NULL)
        return NULL;
    n = sh->n;
    /* fc_mont_init refused even moduli and a zero top limb; the moduli
     * are secret (RSA primes), so only their public limb count is looked
     * at here. */
    if (m[0]->n != n || m[1]->n != n)
        return NULL;
    key = calloc(1, sizeof(*key));
    if (key == NULL)
        return NULL;
    ctxw = (sh->ctx_words + 7) & ~(size_t)7;
    key->mem_words = ctxw + 2 * sh->words + 2 * n;
    key->mem = aligned_alloc(64, key->mem_words * sizeof(uint64_t));
    if (key->mem == NULL) {
        free(key);
        return NULL;
    }
    memset(key->mem, 0, key->mem_words * sizeof(uint64_t));
    key->ops = ops;
    key->sh = sh;
    key->ctx = key->mem;
    key->one = key->ctx + ctxw;
    key->rr = key->one + sh->words;
    key->u[0] = key->rr + sh->words;
    key->u[1] = key->u[0] + n;

    dbits = sh->db * sh->l - 64 * n; /* D, below 64n */
    for (size_t h = 0; h < 2; h++) {
        const fc_mont *mont = m[h];

        fc_exp2_mdigits(sh, mont, md[h]);
        /* y = 2^D (< m); x = 2^D * 2^64n = R mod m; t = R * 2^64n;
         * y = R * R * 2^64n / 2^64n = RR. */
        memset(y, 0, n * sizeof(uint64_t));
        y[dbits / 64] = (uint64_t)1 << (dbits % 64);
        fc_mont_to(mont, x, y);
        fc_exp2_todig(one[h], x, n, sh->l, sh->slot, sh->db);
        fc_mont_to(mont, t, x);
        mont->ops->mul(y, x, t, mont->m, mont->m0inv, n);
        fc_exp2_todig(rr[h], y, n, sh->l, sh->slot, sh->db);
        /* u = 2^(64n - D) / 2^64n = 2^-D mod m (2^(64n-D) < m). */
        memset(y, 0, n * sizeof(uint64_t));
        y[(64 * n - dbits) / 64] = (uint64_t)1 << ((64 * n - dbits) % 64);
        fc_mont_from(mont, key->u[h], y);
    }
    fc_exp2_ctx(sh, m, key->ctx, md);
    fc_exp2_pack(sh, key->one, one[0], one[1]);
    fc_exp2_pack(sh, key->rr, rr[0], rr[1]);
    fc_memzero(md, sizeof(md));
    fc_memzero(one, sizeof(one));
    fc_memzero(rr, sizeof(rr));
    fc_memzero(x, sizeof(x));
    fc_memzero(y, sizeof(y));
    fc_memzero(t, sizeof(t));
    return key;
}

/* see fc/bn_exp2.h */
void fc_bn_exp2_key_free(fc_bn_exp2_key *key)
{
    if (key == NULL)
        return;
    fc_memzero(key->mem, key->mem_words * sizeof(uint64_t));
    free(key->mem);
    fc_memzero(key, sizeof(*key));
    free(key);
}

/* see fc/bn_exp2.h */
fc_bn_exp2_key *fc_bn_exp2_key_dup(const fc_bn_exp2_key *key)
{
    fc_bn_exp2_key *k;

    if (key == NULL)
        return NULL;
    k = malloc(sizeof(*k));
    if (k == NULL)
        return NULL;
    *k = *key;
    k->mem = aligned_alloc(64, key->mem_words * sizeof(uint64_t));
    if (k->mem == NULL) {
        free(k);
        return NULL;
    }
    memcpy(k->mem, key->mem, key->mem_words * sizeof(uint64_t));
    /* re-point into the copy */
    k->ctx = k->mem + (key->ctx - key->mem);
    k->one = k->mem + (key->one - key->mem);
    k->rr = k->mem + (key->rr - key->mem);
    k->u[0] = k->mem + (key->u[0] - key->mem);
    k->u[1] = k->mem + (key->u[1] - key->mem);
    return k;
}

/* r = AMM(a, b) through the shape's kernel. */
static void fc_exp2_mul(const fc_exp2_shape *sh, uint64_t *r, const uint64_t *a,
                        const uint64_t *b, const uint64_t *ctx, uint64_t *work)
{
    if (sh->mul28 != NULL)
        sh->mul28(r, a, b, ctx, work);
    else
        sh->mul52(r, a, b, ctx);
}

/* r = a^2^count through the shape's squaring (or product) kernel. */
static void fc_exp2_sqr(const fc_exp2_shape *sh, uint64_t *r, const uint64_t *a,
                        size_t count, const uint64_t *ctx, uint64_t *work)
{
    if (sh->sqr28 != NULL) {
        sh->sqr28(r, a, count, ctx, work);
        return;
    }
    if (sh->sqr52 != NULL) {
        sh->sqr52(r, a, count, ctx);
        return;
    }
    sh->mul52(r, a, a, ctx);
    for (size_t k = 1; k < count; k++)
        sh->mul52(r, r, r, ctx);
}

/* see fc/bn_exp2.h */
int fc_bn_exp2_keyed(const fc_bn_exp2_key *key, const fc_mont *m1, uint64_t *r1,
                     const uint64_t *a1, const uint64_t *e1, size_t e1bits,
                     const fc_mont *m2, uint64_t *r2, const uint64_t *a2,
                     const uint64_t *e2, size_t e2bits)
{
    const fc_exp2_shape *sh;
    const fc_mont *m[2] = {m1, m2};
    const uint64_t *e[2] = {e1, e2};
    const size_t eb[2] = {e1bits, e2bits};
    uint64_t *r[2] = {r1, r2};
    uint64_t d[2][FC_EXP2_MAXL], x[2 * FC_BN_MAX_LIMBS], y[FC_BN_MAX_LIMBS];
    const size_t ebits = e1bits > e2bits ? e1bits : e2bits;
    size_t words, nwin, count, n, xn, bufw;
    uint64_t *buf, *table, *acc, *tmp, *work;
    unsigned w;

    if (key == NULL)
        return 0;
    sh = key->sh;
    n = sh->n;
    if (m1->n != n || m2->n != n)
        return 0;
    w = fc_exp2_wsize(ebits);
    count = (size_t)1 << w;
    /* table, acc, tmp, the kernels' work buffer (zero: its padding must
     * read as zero pairs) */
    words = (count + 2) * sh->words;
    bufw = words + sh->work_bytes / 8;
    buf = aligned_alloc(64, bufw * sizeof(uint64_t));
    if (buf == NULL)
        return 0;
    table = buf;
    acc = table + count * sh->words;
    tmp = acc + sh->words;
    work = tmp + sh->words;
    memset(work, 0, sh->work_bytes);

    /* table[0] = R, table[1] = AMM(a, RR) = a * R, table[j] = a^j R
     * (almost reduced); even entries by squaring. */
    memcpy(table, key->one, sh->words * sizeof(uint64_t));
    fc_exp2_todig(d[0], a1, n, sh->l, sh->slot, sh->db);
    fc_exp2_todig(d[1], a2, n, sh->l, sh->slot, sh->db);
    fc_exp2_pack(sh, tmp, d[0], d[1]);
    fc_exp2_mul(sh, table + sh->words, tmp, key->rr, key->ctx, work);
    for (size_t j = 2; j < count; j++) {
        if ((j & 1) == 0)
            fc_exp2_sqr(sh, table + j * sh->words, table + (j / 2) * sh->words,
                        1, key->ctx, work);
        else
            fc_exp2_mul(sh, table + j * sh->words, table + (j - 1) * sh->words,
                        table + sh->words, key->ctx, work);
    }

    /* Fixed windows over max(e1bits, e2bits): the operation sequence
     * depends on that length only; a zero window multiplies by table[0]
     * (R, the Montgomery one). The next window's gather comes before the
     * squarings: it does not depend on them and overlaps their start. */
    nwin = ebits == 0 ? 1 : (ebits + w - 1) / w;
    sh->gather(acc, table, count,
               fc_exp2_window(e[0], eb[0], (nwin - 1) * w, w),
               fc_exp2_window(e[1], eb[1], (nwin - 1) * w, w));
    for (size_t win = nwin - 1; win-- > 0;) {
        sh->gather(tmp, table, count, fc_exp2_window(e[0], eb[0], win * w, w),
                   fc_exp2_window(e[1], eb[1], win * w, w));
        fc_exp2_sqr(sh, acc, acc, w, key->ctx, work);
        fc_exp2_mul(sh, acc, acc, tmp, key->ctx, work);
    }

    /* r = acc / R mod m, fully reduced: acc mod m (fc_mont_reduce), then
     * times u = 2^-D: y * u / 2^64n = acc * 2^-(D + 64n) = acc / R. */
    xn = (sh->db * sh->l + 63) / 64;
    for (size_t h = 0; h < 2; h++) {
        for (size_t i = 0; i < sh->l; i++)
            d[h][i] = acc[fc_exp2_pos(sh, h, i)];
        fc_exp2_fromdig(x, xn, d[h], sh->l, sh->db);
        fc_mont_reduce(m[h], y, x, xn);
        m[h]->ops->mul(r[h], y, key->u[h], m[h]->m, m[h]->m0inv, n);
    }
    fc_memzero(d, sizeof(d));
    fc_memzero(x, sizeof(x));
    fc_memzero(y, sizeof(y));
    fc_memzero(buf, bufw * sizeof(uint64_t));
    free(buf);
    return 1;
}

/* The table entry point: a key for this call only. */
static int fc_exp2_run(const fc_bn_exp2_ops *ops, const fc_mont *m1,
                       uint64_t *r1, const uint64_t *a1, const uint64_t *e1,
                       size_t e1bits, const fc_mont *m2, uint64_t *r2,
                       const uint64_t *a2, const uint64_t *e2, size_t e2bits)
{
    fc_bn_exp2_key *key = fc_bn_exp2_key_new(ops, m1, m2);
    int ok;

    if (key == NULL)
        return 0;
    ok = fc_bn_exp2_keyed(key, m1, r1, a1, e1, e1bits, m2, r2, a2, e2, e2bits);
    fc_bn_exp2_key_free(key);
    return ok;
}

static const fc_bn_exp2_ops fc_exp2_ops[];

#define FC_EXP2_ENTRY(fn, idx)                                                 \
    static int fn(const fc_mont *m1, uint64_t *r1, const uint64_t *a1,         \
                  const uint64_t *e1, size_t e1bits, const fc_mont *m2,        \
                  uint64_t *r2, const uint64_t *a2, const uint64_t *e2,        \
                  size_t e2bits)                                               \
    {                                                                          \
        return fc_exp2_run(&fc_exp2_ops[idx], m1, r1, a1, e1, e1bits, m2, r2,  \
                           a2, e2, e2bits);                                    \
    }

FC_EXP2_ENTRY(fc_exp2_ifma_1024, 0)
FC_EXP2_ENTRY(fc_exp2_ifma_1536, 1)
FC_EXP2_ENTRY(fc_exp2_ifma_2048, 2)
FC_EXP2_ENTRY(fc_exp2_avx2_1024, 3)
FC_EXP2_ENTRY(fc_exp2_avx2_1536, 4)
FC_EXP2_ENTRY(fc_exp2_avx2_2048, 5)

/* The order is the selection order within a size: IFMA, then AVX2. */
static const fc_bn_exp2_ops fc_exp2_ops[] = {
    /* the n16 kernels' normalization uses PEXT/PDEP */
    {"ifma-1024", FC_CAP_AVX512 | FC_CAP_IFMA | FC_CAP_BMI2, 16,
     fc_exp2_ifma_1024, &fc_exp2_shapes[0]},
    {"ifma-1536", FC_CAP_AVX512 | FC_CAP_IFMA, 24, fc_exp2_ifma_1536,
     &fc_exp2_shapes[1]},
    {"ifma-2048", FC_CAP_AVX512 | FC_CAP_IFMA, 32, fc_exp2_ifma_2048,
     &fc_exp2_shapes[2]},
    {"avx2-1024", FC_CAP_AVX | FC_CAP_AVX2, 16, fc_exp2_avx2_1024,
     &fc_exp2_shapes[3]},
    {"avx2-1536", FC_CAP_AVX | FC_CAP_AVX2, 24, fc_exp2_avx2_1536,
     &fc_exp2_shapes[4]},
    {"avx2-2048", FC_CAP_AVX | FC_CAP_AVX2, 32, fc_exp2_avx2_2048,
     &fc_exp2_shapes[5]},
};

static const fc_bn_exp2_ops *const fc_exp2_impls[] = {
    &fc_exp2_ops[0], &fc_exp2_ops[1], &fc_exp2_ops[2],
    &fc_exp2_ops[3], &fc_exp2_ops[4], &fc_exp2_ops[5],
};

#else  /* !FC_EXP2_ASM */

/* see fc/bn_exp2.h */
fc_bn_exp2_key *fc_bn_exp2_key_new(const fc_bn_exp2_ops *ops, const fc_mont *m1,
                                   const fc_mont *m2)
{
    (void)ops;
    (void)m1;
    (void)m2;
    return NULL;
}

/* see fc/bn_exp2.h */
void fc_bn_exp2_key_free(fc_bn_exp2_key *key)
{
    (void)key;
}

/* see fc/bn_exp2.h */
fc_bn_exp2_key *fc_bn_exp2_key_dup(const fc_bn_exp2_key *key)
{
    (void)key;
    return NULL;
}

/* see fc/bn_exp2.h */
int fc_bn_exp2_keyed(const fc_bn_exp2_key *key, const fc_mont *m1, uint64_t *r1,
                     const uint64_t *a1, const uint64_t *e1, size_t e1bits,
                     const fc_mont *m2, uint64_t *r2, const uint64_t *a2,
                     const uint64_t *e2, size_t e2bits)
{
    (void)key;
    (void)m1;
    (void)r1;
    (void)a1;
    (void)e1;
    (void)e1bits;
    (void)m2;
    (void)r2;
    (void)a2;
    (void)e2;
    (void)e2bits;
    return 0;
}
#endif /* FC_EXP2_ASM */

/* see fc/bn_exp2.h */
const fc_bn_exp2_ops *const *fc_bn_exp2_impls(size_t *count)
{
#if FC_EXP2_ASM
    *count = FC_ARRAY_LEN(fc_exp2_impls);
    return fc_exp2_impls;
#else
    *count = 0;
    return NULL;
#endif
}

/* see fc/bn_exp2.h */
uint32_t fc_bn_exp2_caps(uint32_t caps, const struct fc_tuning *tuning)
{
    if (tuning != NULL && tuning->rsa_avx2_over_mulx)
        caps |= FC_EXP2_PREFER_AVX2;
    return caps;
}

/* see fc/bn_exp2.h */
const fc_bn_exp2_ops *fc_bn_exp2_select(uint32_t caps, size_t n)
{
#if FC_EXP2_ASM
    /* AVX2 where it is the row's preference, or where MULX cannot run
     * (the alternative is then the portable C kernels). */
    const int avx2_ok =
        (caps & FC_EXP2_PREFER_AVX2) || !fc_bn_mulx_capable(caps);

    for (size_t i = 0; i < FC_ARRAY_LEN(fc_exp2_ops); i++) {
        const fc_bn_exp2_ops *o = &fc_exp2_ops[i];
        uint32_t need = o->required_caps;

        if (o->n != n || (caps & need) != need)
            continue;
        if (o->shape->ifma || avx2_ok)
            return o;
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
