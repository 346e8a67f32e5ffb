/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_exp2.c - both CRT halves' modular exponentiations in one pass on the
 * AVX-512 IFMA kernels of asm/x86_64/bn_exp_ifma.S (radix 2^52, the two
 * halves in one instruction stream).
 *
 * Per key (fc_bn_exp2_key_new), per half: the kernel constants (m~ or m in
 * radix 2^52, laid out as the kernels read them), R52 = 2^(52L) mod m (the
 * Montgomery one, table entry 0), RR = R52^2 mod m and u = 2^-D mod m,
 * D = 52L - 64n, all through the 64-bit Montgomery kernels of the fc_mont
 * context. Per call: a -> radix 2^52 and a * R52 = AMM(a, RR) (one vector
 * product for both halves), the table, a fixed-window exponentiation on
 * "almost Montgomery" values (below a small multiple of m, see the .S
 * header), then per half one full reduction (fc_mont_reduce) and one
 * 64-bit product by u, which also leaves the radix-2^52 Montgomery domain.
 *
 * Two number layouts:
 *  - n = 16 (RSA-2048 halves): "interleaved halves", 6 units of 8 words;
 *    word 2t + h of unit j holds digit 4j + t of half h. Kernels: a
 *    squaring kernel that runs |count| squarings in one call, a
 *    multiplication kernel, a gather.
 *  - n = 24, 32: the halves side by side (NR zmm each), one AMM kernel for
 *    squarings and products, a gather.
 *
 * Measured (development Xeon with AVX512-IFMA, shared 2-core KVM guest
 * under load from other jobs: only ratios within one run mean anything),
 * one pair of 1024-bit CRT exponentiations with a real RSA-2048 key's dP
 * and dQ, medians of 7 interleaved rounds (each the minimum of 40):
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
 * costs ~180 cycles, ~6% of the pair.
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

typedef void fc_mul52x2_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                           const uint64_t *ctx);
typedef void fc_sqr52x2_fn(uint64_t *r, const uint64_t *a, size_t count,
                           const uint64_t *ctx);
typedef void fc_gather52x2_fn(uint64_t *out, const uint64_t *table,
                              size_t count, size_t idx_p, size_t idx_q);

/*
 * One kernel shape: n 64-bit limbs, l digits, slot = digits per half in the
 * number (a multiple of 8, >= l), words per number (both halves), the
 * layout (0: halves side by side, 1: interleaved units of 4 digits), the
 * modulus mode (0: m~ with k0 = 1, 1: m with k0), kernel constants size.
 */
typedef struct fc_exp2_shape {
    size_t n, l, slot, words, ctx_words;
    int interleaved, k0_mode;
    fc_mul52x2_fn *mul;
    fc_sqr52x2_fn *sqr; /* NULL: mul(a, a) in a loop */
    fc_gather52x2_fn *gather;
} fc_exp2_shape;

static const fc_exp2_shape fc_exp2_shapes[] = {
    {16, 21, 24, 48, FC_BN_EXP2_N16_CTX_WORDS, 1, 0, fc_bn_mul52x2_n16_ifma,
     fc_bn_sqr52x2_n16_ifma, fc_bn_gather52x2_n16_ifma},
    {24, 31, 32, 64, 2 * 64 + 8, 0, 0, fc_bn_amm52x2_n24_ifma, NULL,
     fc_bn_gather52x2_n24_ifma},
    {32, 40, 40, 80, 2 * 80 + 8, 0, 1, fc_bn_amm52x2_n32_ifma, NULL,
     fc_bn_gather52x2_n32_ifma},
};

static const fc_exp2_shape *fc_exp2_shape_for(size_t n)
{
    for (size_t i = 0; i < FC_ARRAY_LEN(fc_exp2_shapes); i++)
        if (fc_exp2_shapes[i].n == n)
            return &fc_exp2_shapes[i];
    return NULL;
}

/*
 * The per-key state: kernel constants, R52 and RR in the kernels' number
 * layout (64-byte aligned, in |mem|), and u = 2^-D mod m per half.
 */
struct fc_bn_exp2_key {
    const fc_bn_exp2_ops *ops;
    const fc_exp2_shape *sh;
    uint64_t *mem; /* ctx, one, rr, u[0], u[1] */
    size_t mem_words;
    uint64_t *ctx;
    uint64_t *one;  /* R52 mod m (the Montgomery one) */
    uint64_t *rr;   /* R52^2 mod m */
    uint64_t *u[2]; /* 2^-D mod m, n limbs */
};

/* fc_exp2_to52: |l| digits of 52 bits from the |n|-limb x (bits past 64n
 * read as zero), then zero digits up to |slot|. Public indices only. */
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

/* Digit i of half h in a number of shape |sh|: its word index. */
static size_t fc_exp2_pos(const fc_exp2_shape *sh, size_t h, size_t i)
{
    if (sh->interleaved)
        return 8 * (i / 4) + 2 * (i % 4) + h;
    return h * sh->slot + i;
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
 * words). k0 mode: m. m~ mode: m~ = m * k, k = -m^-1 mod 2^52, so that
 * m~ = -1 mod 2^52. The interleaved kernels add 1 to digit 1 (they run
 * their carry chain on m~_1 + 1, see the .S header), which must stay below
 * 2^52: when m~_1 = 2^52 - 1 they use k + 2^52 instead (m~_1 then differs
 * by m mod 2^52, odd, so only one of the two can be all ones). The choice
 * is a mask (m is secret); both candidates are computed.
 */
static void fc_exp2_mdigits(const fc_exp2_shape *sh, const fc_mont *mont,
                            uint64_t *md)
{
    const size_t n = sh->n;
    uint64_t x[FC_BN_MAX_LIMBS + 2], d1[40], k[2];

    if (sh->k0_mode) {
        fc_exp2_to52(md, mont->m, n, sh->l, sh->slot);
        return;
    }
    k[0] = mont->m0inv & FC_D52_MASK;
    k[1] = 0;
    fc_bn_mul(x, mont->m, n, k, 2);
    fc_exp2_to52(md, x, n + 2, sh->l, sh->slot);
    if (sh->interleaved) {
        uint64_t sel;

        k[0] |= (uint64_t)1 << 52;
        fc_bn_mul(x, mont->m, n, k, 2);
        fc_exp2_to52(d1, x, n + 2, sh->l, sh->slot);
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
 * Interleaved (n16): MS_v[r] (v = 0..3, r = 0..5) at words 48v + 8r,
 * digit m~'_{4r+t-v} of half h in word 2t + h (zero outside 0..l-1), then
 * m~'_1 of each half in alternate words.
 * Side by side: the modulus pair; then in m~ mode the pair moved up one
 * digit (M1), in k0 mode the words k0_p, k0_q, m0_p, m0_q.
 */
static void fc_exp2_ctx(const fc_exp2_shape *sh, const fc_mont *m[2],
                        uint64_t *ctx, uint64_t md[2][40])
{
    if (sh->interleaved) {
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
        if (sh->k0_mode) {
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
    uint64_t md[2][40], one[2][40], rr[2][40];
    uint64_t x[FC_BN_MAX_LIMBS], y[FC_BN_MAX_LIMBS], t[FC_BN_MAX_LIMBS];
    size_t n, dbits, ctxw;

    if (ops == NULL || (sh = fc_exp2_shape_for(ops->n)) == NULL)
        return NULL;
    n = sh->n;
    for (size_t h = 0; h < 2; h++)
        if (m[h]->n != n || m[h]->m[n - 1] == 0 || (m[h]->m[0] & 1) == 0)
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

    dbits = 52 * sh->l - 64 * n; /* D, below 64n */
    for (size_t h = 0; h < 2; h++) {
        const fc_mont *mont = m[h];

        fc_exp2_mdigits(sh, mont, md[h]);
        /* y = 2^D (< m); x = 2^D * 2^64n = R52 mod m; t = R52 * 2^64n;
         * y = R52 * R52 * 2^64n / 2^64n = RR. */
        memset(y, 0, n * sizeof(uint64_t));
        y[dbits / 64] = (uint64_t)1 << (dbits % 64);
        fc_mont_to(mont, x, y);
        fc_exp2_to52(one[h], x, n, sh->l, sh->slot);
        fc_mont_to(mont, t, x);
        mont->ops->mul(y, x, t, mont->m, mont->m0inv, n);
        fc_exp2_to52(rr[h], y, n, sh->l, sh->slot);
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

/* r = a^2^count through the shape's squaring (or product) kernel. */
static void fc_exp2_sqr(const fc_exp2_shape *sh, uint64_t *r, const uint64_t *a,
                        size_t count, const uint64_t *ctx)
{
    if (sh->sqr != NULL) {
        sh->sqr(r, a, count, ctx);
        return;
    }
    sh->mul(r, a, a, ctx);
    for (size_t k = 1; k < count; k++)
        sh->mul(r, r, r, ctx);
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
    uint64_t d[2][40], x[2 * FC_BN_MAX_LIMBS], y[FC_BN_MAX_LIMBS];
    const size_t ebits = e1bits > e2bits ? e1bits : e2bits;
    size_t words, nwin, count, n, xn;
    uint64_t *buf, *table, *acc, *tmp;
    unsigned w;

    if (key == NULL)
        return 0;
    sh = key->sh;
    n = sh->n;
    if (m1->n != n || m2->n != n)
        return 0;
    w = fc_exp2_wsize(ebits);
    count = (size_t)1 << w;
    /* table, acc, tmp */
    words = (count + 2) * sh->words;
    buf = aligned_alloc(64, words * sizeof(uint64_t));
    if (buf == NULL)
        return 0;
    table = buf;
    acc = table + count * sh->words;
    tmp = acc + sh->words;

    /* table[0] = R52, table[1] = AMM(a, RR) = a * R52, table[j] = a^j R52
     * (almost reduced); even entries by squaring. */
    memcpy(table, key->one, sh->words * sizeof(uint64_t));
    fc_exp2_to52(d[0], a1, n, sh->l, sh->slot);
    fc_exp2_to52(d[1], a2, n, sh->l, sh->slot);
    fc_exp2_pack(sh, tmp, d[0], d[1]);
    sh->mul(table + sh->words, tmp, key->rr, key->ctx);
    for (size_t j = 2; j < count; j++) {
        if ((j & 1) == 0)
            fc_exp2_sqr(sh, table + j * sh->words, table + (j / 2) * sh->words,
                        1, key->ctx);
        else
            sh->mul(table + j * sh->words, table + (j - 1) * sh->words,
                    table + sh->words, key->ctx);
    }

    /* Fixed windows over max(e1bits, e2bits): the operation sequence
     * depends on that length only; a zero window multiplies by table[0]
     * (R52, the Montgomery one). The next window's gather comes before the
     * squarings: it does not depend on them and overlaps their start. */
    nwin = ebits == 0 ? 1 : (ebits + w - 1) / w;
    sh->gather(acc, table, count,
               fc_exp2_window(e[0], eb[0], (nwin - 1) * w, w),
               fc_exp2_window(e[1], eb[1], (nwin - 1) * w, w));
    for (size_t win = nwin - 1; win-- > 0;) {
        sh->gather(tmp, table, count, fc_exp2_window(e[0], eb[0], win * w, w),
                   fc_exp2_window(e[1], eb[1], win * w, w));
        fc_exp2_sqr(sh, acc, acc, w, key->ctx);
        sh->mul(acc, acc, tmp, key->ctx);
    }

    /* r = acc / R52 mod m, fully reduced: acc mod m (fc_mont_reduce), then
     * times u = 2^-D: y * u / 2^64n = acc * 2^-(D + 64n) = acc / R52. */
    xn = (52 * sh->l + 63) / 64;
    for (size_t h = 0; h < 2; h++) {
        for (size_t i = 0; i < sh->l; i++)
            d[h][i] = acc[fc_exp2_pos(sh, h, i)];
        fc_exp2_from52(x, xn, d[h], sh->l);
        fc_mont_reduce(m[h], y, x, xn);
        m[h]->ops->mul(r[h], y, key->u[h], m[h]->m, m[h]->m0inv, n);
    }
    fc_memzero(d, sizeof(d));
    fc_memzero(x, sizeof(x));
    fc_memzero(y, sizeof(y));
    fc_memzero(buf, words * sizeof(uint64_t));
    free(buf);
    return 1;
}

/* The table entry point: a key for this call only. */
static int fc_exp2_ifma_run(const fc_bn_exp2_ops *ops, const fc_mont *m1,
                            uint64_t *r1, const uint64_t *a1,
                            const uint64_t *e1, size_t e1bits,
                            const fc_mont *m2, uint64_t *r2, const uint64_t *a2,
                            const uint64_t *e2, size_t e2bits)
{
    fc_bn_exp2_key *key = fc_bn_exp2_key_new(ops, m1, m2);
    int ok;

    if (key == NULL)
        return 0;
    ok = fc_bn_exp2_keyed(key, m1, r1, a1, e1, e1bits, m2, r2, a2, e2, e2bits);
    fc_bn_exp2_key_free(key);
    return ok;
}

static const fc_bn_exp2_ops fc_exp2_ifma_ops[];

static int fc_exp2_ifma_1024(const fc_mont *m1, uint64_t *r1,
                             const uint64_t *a1, const uint64_t *e1,
                             size_t e1bits, const fc_mont *m2, uint64_t *r2,
                             const uint64_t *a2, const uint64_t *e2,
                             size_t e2bits)
{
    return fc_exp2_ifma_run(&fc_exp2_ifma_ops[0], m1, r1, a1, e1, e1bits, m2,
                            r2, a2, e2, e2bits);
}

static int fc_exp2_ifma_1536(const fc_mont *m1, uint64_t *r1,
                             const uint64_t *a1, const uint64_t *e1,
                             size_t e1bits, const fc_mont *m2, uint64_t *r2,
                             const uint64_t *a2, const uint64_t *e2,
                             size_t e2bits)
{
    return fc_exp2_ifma_run(&fc_exp2_ifma_ops[1], m1, r1, a1, e1, e1bits, m2,
                            r2, a2, e2, e2bits);
}

static int fc_exp2_ifma_2048(const fc_mont *m1, uint64_t *r1,
                             const uint64_t *a1, const uint64_t *e1,
                             size_t e1bits, const fc_mont *m2, uint64_t *r2,
                             const uint64_t *a2, const uint64_t *e2,
                             size_t e2bits)
{
    return fc_exp2_ifma_run(&fc_exp2_ifma_ops[2], m1, r1, a1, e1, e1bits, m2,
                            r2, a2, e2, e2bits);
}

static const fc_bn_exp2_ops fc_exp2_ifma_ops[] = {
    /* the n16 kernels' normalization uses PEXT/PDEP */
    {"ifma-1024", FC_CAP_AVX512 | FC_CAP_IFMA | FC_CAP_BMI2, 16,
     fc_exp2_ifma_1024},
    {"ifma-1536", FC_CAP_AVX512 | FC_CAP_IFMA, 24, fc_exp2_ifma_1536},
    {"ifma-2048", FC_CAP_AVX512 | FC_CAP_IFMA, 32, fc_exp2_ifma_2048},
};

static const fc_bn_exp2_ops *const fc_exp2_impls[] = {
    &fc_exp2_ifma_ops[0],
    &fc_exp2_ifma_ops[1],
    &fc_exp2_ifma_ops[2],
};

#else  /* !FC_EXP2_IFMA */

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
