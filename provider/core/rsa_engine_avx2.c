/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_engine_avx2.c - the AVX2 engine (fc/rsa_engine.h): both CRT halves
 * of RSA-2048, -3072 and -4096 (n = 16, 24, 32 limbs; L = 38, 56, 76
 * digits of 28 bits) in one pass on the kernels of asm/x86_64/
 * bn_exp_avx2.S, driven by the shared vector code of bn_exp2.c.
 *
 * Numbers are digit pairs (word 2j + h = digit j of half h); the kernels
 * want a work buffer per exponentiation, zeroed once (the zero pairs around
 * its operand copies are never written). Kernel constants (fc/bn_exp2.h
 * layout): m~ as digit pairs in an even and an odd copy region, zero around
 * them, then m~_1 + 1, m~_2, m~_3 of each half in alternate words (the
 * triangles use m~_1 + 1 in 64-bit scalar products only: no limit on it).
 */
#include "fc/bn.h"
#include "fc/bn_exp2.h"
#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/rsa_engine.h"

#if defined(__x86_64__) && !defined(FC_NO_ASM)

static size_t avx2_pos(const fc_exp2_shape *sh, size_t h, size_t i)
{
    (void)sh;
    return 2 * i + h;
}

static void avx2_ctx(const fc_exp2_shape *sh, const fc_mont *const m[2],
                     uint64_t *ctx)
{
    const size_t l = sh->l;
    uint64_t *me = ctx + (FC_EXP2_AVX2_C_ME + FC_EXP2_AVX2_BASE_E) / 8;
    uint64_t *mo = ctx + (FC_EXP2_AVX2_C_MO(l) + FC_EXP2_AVX2_BASE_O) / 8;
    uint64_t *cs = ctx + FC_EXP2_AVX2_C_S(l) / 8;
    uint64_t md[FC_EXP2_MAXL];

    for (size_t h = 0; h < 2; h++) {
        /* m~ = m k, k = -m^-1 mod 2^28 */
        fc_exp2_mdigits(sh, m[h], m[h]->m0inv & 0xfffffff, md);
        for (size_t j = 0; j < l; j++) {
            me[2 * j + h] = md[j];
            mo[2 * j + h] = md[j];
        }
        cs[h] = md[1] + 1;
        cs[2 + h] = md[2];
        cs[4 + h] = md[3];
    }
    fc_memzero(md, sizeof(md));
}

#define AVX2_KERNELS(N)                                                        \
    static void avx2_mul_n##N(const fc_exp2_shape *sh, uint64_t *r,            \
                              const uint64_t *a, const uint64_t *b,            \
                              const uint64_t *ctx, uint64_t *work)             \
    {                                                                          \
        (void)sh;                                                              \
        fc_bn_mul28x2_n##N##_avx2(r, a, b, ctx, work);                         \
    }                                                                          \
    static void avx2_sqr_n##N(const fc_exp2_shape *sh, uint64_t *r,            \
                              const uint64_t *a, size_t count,                 \
                              const uint64_t *ctx, uint64_t *work)             \
    {                                                                          \
        (void)sh;                                                              \
        fc_bn_sqr28x2_n##N##_avx2(r, a, count, ctx, work);                     \
    }
AVX2_KERNELS(16)
AVX2_KERNELS(24)
AVX2_KERNELS(32)

#define AVX2_SHAPE(N, L)                                                       \
    {                                                                          \
        .n = N, .l = L, .slot = L, .words = 2 * (L),                           \
        .ctx_words = FC_EXP2_AVX2_C_SIZE(L) / 8,                               \
        .work_bytes = FC_EXP2_AVX2_W_SIZE(L), .db = 28, .pos = avx2_pos,       \
        .ctx_init = avx2_ctx, .mul = avx2_mul_n##N, .sqr = avx2_sqr_n##N,      \
        .gather = fc_bn_gather28x2_n##N##_avx2                                 \
    }

static const fc_exp2_shape avx2_shapes[] = {
    AVX2_SHAPE(16, FC_EXP2_AVX2_L16),
    AVX2_SHAPE(24, FC_EXP2_AVX2_L24),
    AVX2_SHAPE(32, FC_EXP2_AVX2_L32),
};

static int avx2_takes(size_t pl, size_t ql)
{
    return pl == ql &&
           fc_exp2_shape_find(avx2_shapes, FC_ARRAY_LEN(avx2_shapes), pl);
}

static void *avx2_pre_new(const fc_mont *mp, const fc_mont *mq)
{
    return fc_exp2_key_new(
        fc_exp2_shape_find(avx2_shapes, FC_ARRAY_LEN(avx2_shapes), mp->n), mp,
        mq);
}

const fc_rsa_engine fc_rsa_engine_avx2 = {
    .name = "avx2",
    .tier = FC_TIER_256,
    .required_caps = FC_CAP_AVX | FC_CAP_AVX2,
    .kernels = NULL,
    .takes = avx2_takes,
    .pre_new = avx2_pre_new,
    .pre_free = fc_exp2_key_free,
    .pre_dup = fc_exp2_key_dup,
    .exp2 = fc_exp2_run,
};

#endif
