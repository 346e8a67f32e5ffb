/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/bn_exp2.h - two modular exponentiations at once on vector units: the
 * two CRT halves of an RSA private operation (r1 = a1^e1 mod p, r2 = a2^e2
 * mod q) in one pass, with the halves side by side in the vector lanes'
 * instruction stream. This is the machinery the vector RSA engines
 * (fc/rsa_engine.h: AVX-512 IFMA, AVX2) share; each engine's glue
 * (provider/core/rsa_engine_<name>.c) describes its number format and
 * kernels per limb count in an fc_exp2_shape, and the functions here do the
 * rest: conversions, the per-key constants, the windowed exponentiation.
 *
 * Numbers are in the fc/bn.h form: 64-bit limbs, least significant first,
 * |n| limbs, fully reduced. An engine converts to and from its own radix
 * (2^52 or 2^28) Montgomery form; what depends on the moduli only (kernel
 * constants, R = 2^(digit bits * digits) mod m and its square, 2^-D mod m)
 * is made once per key (fc_exp2_key_new) and reused by every call
 * (fc_exp2_run).
 */
#ifndef FC_BN_EXP2_H
#define FC_BN_EXP2_H

/*
 * Memory layout of the AVX2 engine (asm/x86_64/bn_exp_avx2.S, see its
 * header), in bytes, for L radix-2^28 digits per half. Plain arithmetic
 * (shifts, no division) so that the assembler reads the same macros.
 *
 * A "copy region" holds one number as L digit pairs (word 2j + h = digit j
 * of half h) with zero pairs around it: the pairs start FC_EXP2_AVX2_BASE_E
 * bytes into an even (32-byte aligned) copy, FC_EXP2_AVX2_BASE_O into an
 * odd copy (16 bytes off 32-byte alignment), and every byte of the region
 * outside those pairs stays zero.
 *
 * Work buffer (one per exponentiation, 64-byte aligned, zeroed once):
 *   W_T    the double-length product T, L tiles of 32 bytes
 *   W_Y    the Montgomery quotient digits y, L pairs
 *   W_AE / W_AO / W_A2E / W_A2O   copy regions: a (even, odd) and 2a
 *   W_SAVE 64 bytes the kernels keep their own values in
 * Kernel constants (per key, 64-byte aligned):
 *   C_ME / C_MO  copy regions of m~ (even, odd)
 *   C_S    m~_1 + 1, m~_2, m~_3 for half p and half q in alternate words
 */
#define FC_EXP2_AVX2_RA(L)  (((((L)*16) + 256 + 63) >> 6) << 6)
#define FC_EXP2_AVX2_BASE_E 128
#define FC_EXP2_AVX2_BASE_O 144
#define FC_EXP2_AVX2_W_T    0
#define FC_EXP2_AVX2_W_Y(L) ((L)*32)
#define FC_EXP2_AVX2_W_AE(L)                                                   \
    (FC_EXP2_AVX2_W_Y(L) + (((((L)*16) + 63) >> 6) << 6))
#define FC_EXP2_AVX2_W_AO(L)   (FC_EXP2_AVX2_W_AE(L) + FC_EXP2_AVX2_RA(L))
#define FC_EXP2_AVX2_W_A2E(L)  (FC_EXP2_AVX2_W_AO(L) + FC_EXP2_AVX2_RA(L))
#define FC_EXP2_AVX2_W_A2O(L)  (FC_EXP2_AVX2_W_A2E(L) + FC_EXP2_AVX2_RA(L))
#define FC_EXP2_AVX2_W_SAVE(L) (FC_EXP2_AVX2_W_A2O(L) + FC_EXP2_AVX2_RA(L))
#define FC_EXP2_AVX2_W_SIZE(L) (FC_EXP2_AVX2_W_SAVE(L) + 64)
#define FC_EXP2_AVX2_C_ME      0
#define FC_EXP2_AVX2_C_MO(L)   FC_EXP2_AVX2_RA(L)
#define FC_EXP2_AVX2_C_S(L)    (2 * FC_EXP2_AVX2_RA(L))
#define FC_EXP2_AVX2_C_SIZE(L) (FC_EXP2_AVX2_C_S(L) + 64)
/* Digits per half: n = 16, 24, 32 limbs. */
#define FC_EXP2_AVX2_L16 38
#define FC_EXP2_AVX2_L24 56
#define FC_EXP2_AVX2_L32 76

#ifndef __ASSEMBLER__

#include <stddef.h>
#include <stdint.h>

#include "fc/bn.h"

typedef struct fc_exp2_shape fc_exp2_shape;

/* The kernels of a shape, behind one signature for every engine:
 * fc_exp2_mul_fn: r = AMM(a, b) for both halves; fc_exp2_sqr_fn: r = a
 * after |count| >= 1 AMM squarings; r may alias a and b. |work| is the
 * shape's work buffer (work_bytes, 64-byte aligned, zeroed once per
 * exponentiation), unused by engines that need none.
 * fc_exp2_gather_fn: out = half p of entry idx_p and half q of entry idx_q
 * of a table of |count| numbers, reading every entry.
 * CT: nothing about a, b, idx_p, idx_q leaks (count is public). */
typedef void fc_exp2_mul_fn(const fc_exp2_shape *sh, uint64_t *r,
                            const uint64_t *a, const uint64_t *b,
                            const uint64_t *ctx, uint64_t *work);
typedef void fc_exp2_sqr_fn(const fc_exp2_shape *sh, uint64_t *r,
                            const uint64_t *a, size_t count,
                            const uint64_t *ctx, uint64_t *work);
typedef void fc_exp2_gather_fn(uint64_t *out, const uint64_t *table,
                               size_t count, size_t idx_p, size_t idx_q);

/*
 * One vector engine's format and kernels for one limb count: n 64-bit limbs
 * per half, l digits of db bits per half (a number holds |slot| >= l digit
 * places per half, the ones past l zero), |words| words per number (both
 * halves), |ctx_words| words of kernel constants, |work_bytes| of kernel
 * work buffer (0: none). pos(sh, h, i) is the word of digit i of half h in
 * a number; ctx_init(sh, m, ctx) writes the kernel constants for the
 * moduli m[0], m[1] into |ctx| (ctx_words words, zeroed beforehand).
 */
struct fc_exp2_shape {
    size_t n, l, slot, words, ctx_words, work_bytes;
    unsigned db;
    size_t (*pos)(const fc_exp2_shape *sh, size_t h, size_t i);
    void (*ctx_init)(const fc_exp2_shape *sh, const fc_mont *const m[2],
                     uint64_t *ctx);
    fc_exp2_mul_fn *mul;
    fc_exp2_sqr_fn *sqr;
    fc_exp2_gather_fn *gather;
};

/* Per-key state for one pair of moduli and one shape (opaque). */
typedef struct fc_exp2_key fc_exp2_key;

/*
 * fc_exp2_shape_find returns the shape of |shapes| (|count| of them) for
 * halves of |n| limbs, or NULL.
 */
const fc_exp2_shape *fc_exp2_shape_find(const fc_exp2_shape *shapes,
                                        size_t count, size_t n);

/*
 * fc_exp2_key_new precomputes, for the moduli of |m1| and |m2| (limb count
 * sh->n each, odd, top limb nonzero), what every exponentiation with them
 * needs: the kernel constants, R mod m, R^2 mod m and 2^-D mod m per half.
 * Returns NULL if the sizes do not match, or on allocation failure. The key
 * does not keep |m1|, |m2|: callers pass the same contexts to fc_exp2_run.
 * CT: the moduli are secret (RSA primes); only their limb count leaks.
 */
fc_exp2_key *fc_exp2_key_new(const fc_exp2_shape *sh, const fc_mont *m1,
                             const fc_mont *m2);

/* fc_exp2_key_free wipes and frees |key| (an fc_exp2_key). NULL-safe. */
void fc_exp2_key_free(void *key);

/* fc_exp2_key_dup returns an independent copy of |key| (an fc_exp2_key),
 * or NULL on allocation failure or if |key| is NULL. */
void *fc_exp2_key_dup(const void *key);

/*
 * fc_exp2_run sets r1 = a1^e1 mod m1 and r2 = a2^e2 mod m2 with the
 * per-key state |key| (an fc_exp2_key made from these same m1 and m2), for
 * a1 in [0, m1), a2 in [0, m2). Exponent e_h is an array of
 * ceil(e_h_bits/64) limbs (only those are read); bits at or above e_h_bits
 * are taken as zero; e_h_bits == 0 gives r_h = 1. The results are fully
 * reduced. r_h may alias a_h; r1/a1 must not overlap r2/a2. Returns 1, or
 * 0 if |key| is NULL, on a size mismatch or allocation failure (then r1,
 * r2 are unspecified). This is the fc_rsa_exp2_fn of the vector engines.
 * CT: only n and max(e1bits, e2bits) leak; a1, a2, e1, e2 are secret
 * (fixed window, every window table entry read through a mask, no secret
 * branch or index).
 */
int fc_exp2_run(const void *key, const fc_mont *m1, uint64_t *r1,
                const uint64_t *a1, const uint64_t *e1, size_t e1bits,
                const fc_mont *m2, uint64_t *r2, const uint64_t *a2,
                const uint64_t *e2, size_t e2bits);

/*
 * The helper of the engines' ctx_init: fc_exp2_mdigits writes the digits
 * (the shape's |slot| of them, |l| of |db| bits, then zeros) of m * k for
 * the modulus of |mont| and a multiplier k < 2^64: k = 1 gives m,
 * k = -m^-1 mod 2^db gives m~ = m k = -1 mod 2^db.
 * CT: only the lengths leak.
 */
void fc_exp2_mdigits(const fc_exp2_shape *sh, const fc_mont *mont, uint64_t k,
                     uint64_t *d);

/* The largest digit count of any shape (the AVX2 engine's, n = 32). */
#define FC_EXP2_MAXL FC_EXP2_AVX2_L32

#if defined(__x86_64__) && !defined(FC_NO_ASM)
/*
 * Kernels (asm/x86_64/bn_exp_ifma.S); see the file header for the number
 * layouts and the math.
 *
 * n = 16 (interleaved halves): a number is 6 units of 8 words; word
 * 2t + h of unit j is digit 4j + t of half h (0: p, 1: q); values below
 * 2^54 m per half. ctx (FC_BN_EXP2_N16_CTX_WORDS words, 64-byte aligned):
 * the copies MS_v (v = 0..3) of m~' = m~ + 2^52 (digit 1 plus one, which
 * must stay below 2^52) moved up v digits, units at words 48v + 8r
 * (r = 0..5), then m~'_1 of each half in alternate words (the unit at
 * word FC_BN_EXP2_N16_M1_WORD).
 * fc_bn_sqr52x2_n16_ifma: r = a after |count| >= 1 AMM squarings.
 * fc_bn_mul52x2_n16_ifma: r = AMM(a, b). r may alias a and/or b.
 * fc_bn_gather52x2_n16_ifma: out = half p of entry idx_p and half q of
 * entry idx_q, entries of 48 words, 1 <= count <= 64; reads every entry.
 * CT: nothing about a, b leaks; the gather leaks count only (idx_p, idx_q
 * never reach an address or a branch).
 */
#define FC_BN_EXP2_N16_M1_WORD   192
#define FC_BN_EXP2_N16_CTX_WORDS 200
void fc_bn_sqr52x2_n16_ifma(uint64_t *r, const uint64_t *a, size_t count,
                            const uint64_t *ctx);
void fc_bn_mul52x2_n16_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *ctx);
void fc_bn_gather52x2_n16_ifma(uint64_t *out, const uint64_t *table,
                               size_t count, size_t idx_p, size_t idx_q);

/*
 * n = 24, 32: the same kernels and layout at 8 and 11 units (31 and 41
 * digits per half; values below 2^54 m). ctx: W = 9, 11 units per copy
 * MS_v (units at words 8(W v + r), r = 0..W-1), then m~'_1 at word 32 W;
 * FC_BN_EXP2_N24_CTX_WORDS, FC_BN_EXP2_N32_CTX_WORDS words. Gathers:
 * entries of 64 and 88 words. Same contracts and CT as n = 16.
 */
#define FC_BN_EXP2_N24_CTX_WORDS 296
#define FC_BN_EXP2_N32_CTX_WORDS 360
void fc_bn_sqr52x2_n24_ifma(uint64_t *r, const uint64_t *a, size_t count,
                            const uint64_t *ctx);
void fc_bn_mul52x2_n24_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *ctx);
void fc_bn_gather52x2_n24_ifma(uint64_t *out, const uint64_t *table,
                               size_t count, size_t idx_p, size_t idx_q);
void fc_bn_sqr52x2_n32_ifma(uint64_t *r, const uint64_t *a, size_t count,
                            const uint64_t *ctx);
void fc_bn_mul52x2_n32_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *ctx);
void fc_bn_gather52x2_n32_ifma(uint64_t *out, const uint64_t *table,
                               size_t count, size_t idx_p, size_t idx_q);

/*
 * Kernels (asm/x86_64/bn_exp_avx2.S); see the file header for the number
 * layout and the math. Numbers are L = 38, 56, 76 radix-2^28 digits per
 * half (n = 16, 24, 32) as digit pairs: word 2j + h = digit j of half h,
 * digits below 2^28 + 2^8 on input and output, values below 2 m~ per
 * half; 32-byte aligned. ctx: FC_EXP2_AVX2_C_SIZE(L) bytes (fc/bn_exp2.h
 * layout), work: FC_EXP2_AVX2_W_SIZE(L) bytes, 64-byte aligned, zero
 * outside what the kernels write (zero it once).
 * fc_bn_mul28x2_nXX_avx2: r = AMM(a, b). fc_bn_sqr28x2_nXX_avx2: r = a
 * after |count| >= 1 AMM squarings. r may alias a and/or b.
 * fc_bn_gather28x2_nXX_avx2: out = half p of entry idx_p and half q of
 * entry idx_q of |count| >= 1 entries of 2L words; reads every entry.
 * CT: nothing about a, b leaks; the gather leaks count only.
 */
#define FC_BN_EXP2_AVX2_DECL(N)                                                \
    void fc_bn_mul28x2_n##N##_avx2(uint64_t *r, const uint64_t *a,             \
                                   const uint64_t *b, const uint64_t *ctx,     \
                                   uint64_t *work);                            \
    void fc_bn_sqr28x2_n##N##_avx2(uint64_t *r, const uint64_t *a,             \
                                   size_t count, const uint64_t *ctx,          \
                                   uint64_t *work);                            \
    void fc_bn_gather28x2_n##N##_avx2(uint64_t *out, const uint64_t *table,    \
                                      size_t count, size_t idx_p,              \
                                      size_t idx_q);
FC_BN_EXP2_AVX2_DECL(16)
FC_BN_EXP2_AVX2_DECL(24)
FC_BN_EXP2_AVX2_DECL(32)
#endif

#endif /* !__ASSEMBLER__ */

#endif /* FC_BN_EXP2_H */
