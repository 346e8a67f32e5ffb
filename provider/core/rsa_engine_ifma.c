/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_engine_ifma.c - the AVX-512 IFMA engine (fc/rsa_engine.h): both CRT
 * halves of RSA-2048, -3072 and -4096 (n = 16, 24, 32 limbs) in one pass
 * on the radix-2^52 kernels of asm/x86_64/bn_exp_ifma.S, driven by the
 * shared vector code of bn_exp2.c. This file gives the number layouts and
 * kernel constants per size.
 *
 * Every size has "interleaved halves": 6, 8 or 11 units of 8 words (n =
 * 16, 24, 32; 21, 31, 41 digits); word 2t + h of unit j holds digit
 * 4j + t of half h. Per size a squaring kernel that runs |count|
 * squarings in one call, a multiplication kernel and a gather; the
 * kernels' normalization uses PEXT/PDEP (BMI2). n = 32 takes 41 digits,
 * not 40: the m~' mode's bound needs 52 L >= 64 n + 55.
 */
#include <string.h>

#include "fc/bn.h"
#include "fc/bn_exp2.h"
#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/ct.h"
#include "fc/rsa_engine.h"

#if defined(__x86_64__) && !defined(FC_NO_ASM)

#define FC_D52_MASK ((uint64_t)0xfffffffffffff)

/* The m~ multiplier: k = -m^-1 mod 2^52 (so m~ = m k = -1 mod 2^52). */
static uint64_t ifma_k(const fc_mont *m)
{
    return m->m0inv & FC_D52_MASK;
}

/* Every size: word 8(i/4) + 2(i%4) + h. */
static size_t ifma_pos_units(const fc_exp2_shape *sh, size_t h, size_t i)
{
    (void)sh;
    return 8 * (i / 4) + 2 * (i % 4) + h;
}

/* Window units of a size: the reduction row i = 4u + v touches units u to
 * u + (l - 1 + v) / 4 (v = 3 the most); MS_v has that many units. */
static size_t ifma_w(const fc_exp2_shape *sh)
{
    return (sh->l - 1 + 3) / 4 + 1;
}

/*
 * Kernel constants (every size): m~' = m~ + 2^52 (digit 1 plus one: the
 * kernels run their carry chain on m~_1 + 1, see bn_exp_ifma.S), which
 * must stay below 2^52: when m~_1 = 2^52 - 1 the multiplier k + 2^52 is
 * used instead (m~_1 then differs by m mod 2^52, odd, so only one of the
 * two can be all ones). The choice is a mask (m is secret); both
 * candidates are computed. Layout, W = ifma_w units: MS_v[r] (v = 0..3,
 * r = 0..W-1) at words 8(W v + r), digit m~'_{4r+t-v} of half h in word
 * 2t + h (zero outside 0..l-1), then m~'_1 of each half in alternate
 * words at word 32 W (n16: FC_BN_EXP2_N16_M1_WORD).
 */
static void ifma_ctx_units(const fc_exp2_shape *sh, const fc_mont *const m[2],
                           uint64_t *ctx)
{
    uint64_t md[2][FC_EXP2_MAXL], alt[FC_EXP2_MAXL];
    const size_t w = ifma_w(sh);

    for (size_t h = 0; h < 2; h++) {
        uint64_t sel;

        fc_exp2_mdigits(sh, m[h], ifma_k(m[h]), md[h]);
        fc_exp2_mdigits(sh, m[h], ifma_k(m[h]) | (uint64_t)1 << 52, alt);
        sel = fc_ct_eq(md[h][1], FC_D52_MASK);
        for (size_t i = 0; i < sh->slot; i++)
            md[h][i] = fc_ct_select(sel, alt[i], md[h][i]);
        md[h][1] += 1;
    }
    for (size_t v = 0; v < 4; v++)
        for (size_t r = 0; r < w; r++)
            for (size_t h = 0; h < 2; h++)
                for (size_t t = 0; t < 4; t++) {
                    size_t j = 4 * r + t; /* digit j - v */

                    ctx[8 * (w * v + r) + 2 * t + h] =
                        j >= v && j - v < sh->l ? md[h][j - v] : 0;
                }
    for (size_t h = 0; h < 2; h++)
        for (size_t t = 0; t < 4; t++)
            ctx[32 * w + 2 * t + h] = md[h][1];
    fc_memzero(md, sizeof(md));
    fc_memzero(alt, sizeof(alt));
}

#define IFMA_KERNELS(N)                                                        \
    static void ifma_mul_n##N(const fc_exp2_shape *sh, uint64_t *r,            \
                              const uint64_t *a, const uint64_t *b,            \
                              const uint64_t *ctx, uint64_t *work)             \
    {                                                                          \
        (void)sh;                                                              \
        (void)work;                                                            \
        fc_bn_mul52x2_n##N##_ifma(r, a, b, ctx);                               \
    }                                                                          \
    static void ifma_sqr_n##N(const fc_exp2_shape *sh, uint64_t *r,            \
                              const uint64_t *a, size_t count,                 \
                              const uint64_t *ctx, uint64_t *work)             \
    {                                                                          \
        (void)sh;                                                              \
        (void)work;                                                            \
        fc_bn_sqr52x2_n##N##_ifma(r, a, count, ctx);                           \
    }
IFMA_KERNELS(16)
IFMA_KERNELS(24)
IFMA_KERNELS(32)

static const fc_exp2_shape ifma_shapes[] = {
    {.n = 16,
     .l = 21,
     .slot = 24,
     .words = 48,
     .ctx_words = FC_BN_EXP2_N16_CTX_WORDS,
     .db = 52,
     .pos = ifma_pos_units,
     .ctx_init = ifma_ctx_units,
     .mul = ifma_mul_n16,
     .sqr = ifma_sqr_n16,
     .gather = fc_bn_gather52x2_n16_ifma},
    {.n = 24,
     .l = 31,
     .slot = 32,
     .words = 64,
     .ctx_words = FC_BN_EXP2_N24_CTX_WORDS,
     .db = 52,
     .pos = ifma_pos_units,
     .ctx_init = ifma_ctx_units,
     .mul = ifma_mul_n24,
     .sqr = ifma_sqr_n24,
     .gather = fc_bn_gather52x2_n24_ifma},
    {.n = 32,
     .l = 41,
     .slot = 44,
     .words = 88,
     .ctx_words = FC_BN_EXP2_N32_CTX_WORDS,
     .db = 52,
     .pos = ifma_pos_units,
     .ctx_init = ifma_ctx_units,
     .mul = ifma_mul_n32,
     .sqr = ifma_sqr_n32,
     .gather = fc_bn_gather52x2_n32_ifma},
};

static int ifma_takes(size_t pl, size_t ql)
{
    return pl == ql &&
           fc_exp2_shape_find(ifma_shapes, FC_ARRAY_LEN(ifma_shapes), pl);
}

static void *ifma_pre_new(const fc_mont *mp, const fc_mont *mq)
{
    return fc_exp2_key_new(
        fc_exp2_shape_find(ifma_shapes, FC_ARRAY_LEN(ifma_shapes), mp->n), mp,
        mq);
}

const fc_rsa_engine fc_rsa_engine_ifma = {
    .name = "ifma",
    .tier = FC_TIER_512,
    /* the n16 kernels' normalization uses PEXT/PDEP */
    .required_caps = FC_CAP_AVX512 | FC_CAP_IFMA | FC_CAP_BMI2,
    .kernels = NULL,
    .takes = ifma_takes,
    .pre_new = ifma_pre_new,
    .pre_free = fc_exp2_key_free,
    .pre_dup = fc_exp2_key_dup,
    .exp2 = fc_exp2_run,
};

#endif
