/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/bn_exp2.h - two modular exponentiations at once on vector units: the
 * two CRT halves of an RSA private operation (r1 = a1^e1 mod p, r2 = a2^e2
 * mod q) in one pass, with the halves side by side in the vector lanes'
 * instruction stream.
 *
 * One table per engine (AVX-512 IFMA, AVX2) and supported limb count n
 * (the halves of RSA-2048, -3072 and -4096: n = 16, 24, 32). A table is
 * selected only where it beats two fc_bn_mod_exp calls: fc_bn_exp2_select
 * returns NULL otherwise and the caller runs fc_bn_mod_exp twice.
 *
 * Numbers are in the fc/bn.h form: 64-bit limbs, least significant first,
 * |n| limbs, fully reduced. The tables convert to and from their own
 * radix (2^52 or 2^28) Montgomery form; what depends on the moduli only
 * (kernel constants, R = 2^(digit bits * digits) mod m and its square,
 * 2^-D mod m) can be made once per key (fc_bn_exp2_key_new) and reused by
 * every call (fc_bn_exp2_keyed); fc_bn_exp2 makes it on each call.
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

/*
 * fc_bn_exp2_fn: r1 = a1^e1 mod m1 and r2 = a2^e2 mod m2, for two odd
 * moduli of the table's limb count n (m1->n == m2->n == n, top limb
 * nonzero), a1 in [0, m1), a2 in [0, m2). Exponent e_h is an array of
 * ceil(e_h_bits/64) limbs (only those are read); bits at or above e_h_bits
 * are taken as zero; e_h_bits == 0 gives r_h = 1. The results are fully
 * reduced. r_h may alias a_h; r1/a1 must not overlap r2/a2.
 * Returns 1, or 0 on a size mismatch or allocation failure (then r1, r2
 * are unspecified).
 * CT: only n and max(e1bits, e2bits) leak; a1, a2, e1, e2 are secret
 * (fixed window, every window table entry read through a mask, no secret
 * branch or index).
 */
typedef int fc_bn_exp2_fn(const fc_mont *m1, uint64_t *r1, const uint64_t *a1,
                          const uint64_t *e1, size_t e1bits, const fc_mont *m2,
                          uint64_t *r2, const uint64_t *a2, const uint64_t *e2,
                          size_t e2bits);

/* Per-key precomputed state for one pair of moduli (opaque). */
typedef struct fc_bn_exp2_key fc_bn_exp2_key;
/* An engine's number format and kernels (opaque, bn_exp2.c). */
typedef struct fc_exp2_shape fc_exp2_shape;

typedef struct fc_bn_exp2_ops {
    const char *name;       /* "ifma-1024", "avx2-1024", ... */
    uint32_t required_caps; /* FC_CAP_* bits the kernels need */
    size_t n;               /* the one limb count this table handles */
    fc_bn_exp2_fn *exp2;
    const fc_exp2_shape *shape;
} fc_bn_exp2_ops;

/*
 * FC_EXP2_PREFER_AVX2 is not a CPU feature: it is the per-CPU table's
 * choice of the AVX2 engine over the MULX kernels (fc_tuning's
 * rsa_avx2_over_mulx), carried in the caps word so that the one selection
 * call sees it. fc_bn_exp2_caps adds it to the masked features; the CPU
 * probe and fc_cpu_apply_mask never set it.
 */
#define FC_EXP2_PREFER_AVX2 (1u << 31)

struct fc_tuning;
/* fc_bn_exp2_caps returns |caps| plus FC_EXP2_PREFER_AVX2 if the row
 * |tuning| (may be NULL: no preference) prefers the AVX2 engine. */
uint32_t fc_bn_exp2_caps(uint32_t caps, const struct fc_tuning *tuning);

/*
 * fc_bn_exp2_select returns the table for moduli of |n| limbs that runs
 * with the features in |caps|, or NULL if there is none (the caller then
 * uses fc_bn_mod_exp per half). Order: the IFMA table if |caps| has
 * FC_CAP_AVX512 and FC_CAP_IFMA (and FC_CAP_BMI2 for n = 16); else the
 * AVX2 table if |caps| has FC_CAP_AVX2 and either FC_EXP2_PREFER_AVX2 (the
 * per-CPU row's choice, fc_bn_exp2_caps) or no MULX/ADX (the alternative
 * would be the portable kernels); else NULL, and the MULX kernels run.
 * So FASTCRYPTO_CPU_MASK=ifma (or avx512) switches the IFMA tables off,
 * "avx2" the AVX2 ones, and FASTCRYPTO_CPU_CLASS picks the row. Call once
 * per key or context, not per operation.
 */
const fc_bn_exp2_ops *fc_bn_exp2_select(uint32_t caps, size_t n);

/*
 * fc_bn_exp2_impls lists every table compiled in (whatever the CPU), for
 * tests and reports; |*count| gets their number.
 */
const fc_bn_exp2_ops *const *fc_bn_exp2_impls(size_t *count);

/*
 * fc_bn_exp2_ifma_present returns 1 if the running CPU reports
 * AVX512-IFMA with the OS saving zmm state, else 0 (always 0 in
 * FC_NO_ASM builds and off x86-64). No mask is applied.
 */
int fc_bn_exp2_ifma_present(void);

/*
 * fc_bn_exp2 runs |ops|->exp2 (see fc_bn_exp2_fn); returns 0 if |ops| is
 * NULL or does not handle the moduli's limb count.
 * CT: as fc_bn_exp2_fn.
 */
int fc_bn_exp2(const fc_bn_exp2_ops *ops, const fc_mont *m1, uint64_t *r1,
               const uint64_t *a1, const uint64_t *e1, size_t e1bits,
               const fc_mont *m2, uint64_t *r2, const uint64_t *a2,
               const uint64_t *e2, size_t e2bits);

/*
 * fc_bn_exp2_key_new precomputes, for the moduli of |m1| and |m2| (limb
 * count |ops|->n each, odd, top limb nonzero), what every exponentiation
 * with them needs: the kernel constants, R mod m, R^2 mod m and 2^-D mod m
 * per half. Returns NULL if |ops| is NULL, the sizes do not
 * match, or on allocation failure. The key does not keep |m1|, |m2|:
 * callers pass the same contexts to fc_bn_exp2_keyed.
 * CT: the moduli are secret (RSA primes); only their limb count leaks.
 */
fc_bn_exp2_key *fc_bn_exp2_key_new(const fc_bn_exp2_ops *ops, const fc_mont *m1,
                                   const fc_mont *m2);

/* fc_bn_exp2_key_free wipes and frees |key|. NULL-safe. */
void fc_bn_exp2_key_free(fc_bn_exp2_key *key);

/* fc_bn_exp2_key_dup returns an independent copy of |key| (NULL on
 * allocation failure or if |key| is NULL). */
fc_bn_exp2_key *fc_bn_exp2_key_dup(const fc_bn_exp2_key *key);

/*
 * fc_bn_exp2_keyed is fc_bn_exp2_fn with the per-key state of |key|, made
 * by fc_bn_exp2_key_new from these same |m1| and |m2|. Returns 1, or 0 if
 * |key| is NULL, on a size mismatch or allocation failure.
 * CT: as fc_bn_exp2_fn.
 */
int fc_bn_exp2_keyed(const fc_bn_exp2_key *key, const fc_mont *m1, uint64_t *r1,
                     const uint64_t *a1, const uint64_t *e1, size_t e1bits,
                     const fc_mont *m2, uint64_t *r2, const uint64_t *a2,
                     const uint64_t *e2, size_t e2bits);

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
 * n = 24, 32 (halves side by side, NR = 4, 5 zmm per half):
 * fc_bn_amm52x2_nXX_ifma: r = AMM(a, b) for both halves of the pairs;
 * ctx = the modulus pair (m~ for n24, m for n32) then, for n24, m~ moved up
 * one digit (pair), for n32 the words k0_p, k0_q, m0_p, m0_q. r may alias
 * a and/or b. CT: nothing about a, b leaks.
 * fc_bn_gather52x2_nXX_ifma: out = (half p of table[idx_p], half q of
 * table[idx_q]) over |count| >= 1 pair entries; reads every entry.
 * CT: only count leaks; idx_p and idx_q are secret.
 */
void fc_bn_amm52x2_n24_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *ctx);
void fc_bn_amm52x2_n32_ifma(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *ctx);
void fc_bn_gather52x2_n24_ifma(uint64_t *out, const uint64_t *table,
                               size_t count, size_t idx_p, size_t idx_q);
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
