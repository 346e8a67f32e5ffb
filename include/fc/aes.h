/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/aes.h - AES key schedules and the block-mode kernels built on them:
 * ECB encryption, CTR with a 32-bit counter (GCM's inc32; CTR mode and the
 * CTR-DRBG through fc_aes_ctr128 over all 128 bits), CBC encryption and
 * decryption.
 *
 * A kernel family is an fc_aes_ops table chosen once from the CPU features
 * (fc_aes_select). A key schedule made by one table's set_*_key may only be
 * used with the same table's block functions: the layout of fc_aes_key is
 * the implementation's own business, except that every implementation keeps
 * |rounds| up to date, and the AES-NI/VAES tables store the round keys in
 * |rk| in FIPS-197 byte order (rk[r][i] is XORed into state byte i).
 *
 * All block functions work on whole 16-byte blocks; the count is in blocks.
 * in == out is allowed; any other overlap is not. None of them can fail.
 */
#ifndef FC_AES_H
#define FC_AES_H

#include <stddef.h>
#include <stdint.h>

#include "fc/common.h"
#include "fc/kernel.h"

#define FC_AES_BLOCK      16
#define FC_AES_MAX_ROUNDS 14

typedef struct fc_aes_key {
    /* Round keys; 15 x 16 bytes covers AES-256. Offset 0 (asm_offsets.h). */
    FC_ALIGN(16) uint8_t rk[FC_AES_MAX_ROUNDS + 1][16];
    /* 10, 12 or 14. Offset 240 (asm_offsets.h). */
    uint32_t rounds;
} fc_aes_key;

/* The prototype every set_*_key entry shares. |key_bytes| is 16, 24 or 32;
 * the caller has checked it. CT: nothing about the key leaks. */
typedef void fc_aes_setkey_fn(fc_aes_key *key, const uint8_t *user_key,
                              size_t key_bytes);
/* ECB: out[i] = E(in[i]) for |blocks| blocks. */
typedef void fc_aes_ecb_fn(const fc_aes_key *key, const uint8_t *in,
                           uint8_t *out, size_t blocks);
/*
 * CTR with SP 800-38D's inc32: out[i] = in[i] ^ E(ctr_i), ctr_0 = |ctr| and
 * ctr_(i+1) = ctr_i with its last four bytes, a big-endian number,
 * incremented mod 2^32; the first twelve bytes never change, also across
 * that wrap. |ctr| is only read: the caller advances it (GCM by inc32,
 * fc_aes_ctr128 over all 128 bits). With an encryption schedule.
 * CT: nothing about key, counter or data leaks (only |blocks|).
 */
typedef void fc_aes_ctr32_fn(const fc_aes_key *key, const uint8_t *in,
                             uint8_t *out, size_t blocks,
                             const uint8_t ctr[16]);
/* CBC: processes |blocks| blocks chaining from |iv| (16 bytes) and leaves the
 * next chaining value (the last ciphertext block) in |iv|. */
typedef void fc_aes_cbc_fn(const fc_aes_key *key, const uint8_t *in,
                           uint8_t *out, size_t blocks, uint8_t iv[16]);

typedef struct fc_aes_ops {
    FC_KERNEL_HEAD; /* name, required_caps, tier (fc/kernel.h) */
    fc_aes_setkey_fn *set_enc_key;
    fc_aes_setkey_fn *set_dec_key;
    fc_aes_ecb_fn *ecb_enc; /* with an encryption schedule */
    fc_aes_ctr32_fn *ctr32; /* with an encryption schedule */
    fc_aes_cbc_fn *cbc_enc; /* with an encryption schedule */
    fc_aes_cbc_fn *cbc_dec; /* with a decryption schedule */
} fc_aes_ops;

/* The tables themselves (provider/core/aes.c), for tables of other families
 * built on them (the GCM tables name their AES table in a constant
 * initialiser). */
extern const fc_aes_ops fc_aes_ops_generic;
#if defined(__x86_64__) && !defined(FC_NO_ASM)
extern const fc_aes_ops fc_aes_ops_aesni;
extern const fc_aes_ops fc_aes_ops_vaes_avx2;
#endif
#if defined(__aarch64__) && !defined(FC_NO_ASM)
extern const fc_aes_ops fc_aes_ops_ce;
#endif

/*
 * fc_aes_select returns the fastest AES table whose required features are
 * all in |caps|. It never returns NULL: the generic table needs nothing.
 */
const fc_aes_ops *fc_aes_select(uint32_t caps);

/*
 * fc_aes_impls lists every AES table compiled in, fastest first, ending with
 * the generic one; |*count| receives the number. Tests loop over it and skip
 * tables whose required_caps the CPU lacks.
 */
const fc_aes_ops *const *fc_aes_impls(size_t *count);

/*
 * fc_aes_self_test runs FIPS-197 and SP 800-38A known answers through every
 * entry of |ops| (all key sizes, CBC both ways, ECB, CTR). Returns 1 on
 * success, 0 on any mismatch.
 */
int fc_aes_self_test(const fc_aes_ops *ops);

/*
 * fc_ctr128_add adds |n| to the 128-bit big-endian number at |ctr|, mod
 * 2^128. CT: no branch or index depends on |ctr| or |n|.
 */
void fc_ctr128_add(uint8_t ctr[16], uint64_t n);

/*
 * fc_aes_ctr128 is CTR mode with the 128-bit big-endian counter of SP
 * 800-38A (B.1, the standard incrementing function over the whole block)
 * and of SP 800-90A's CTR_DRBG: out[i] = in[i] ^ E(ctr + i mod 2^128) for
 * |blocks| blocks through ops->ctr32 with the encryption schedule |key|,
 * then ctr += blocks. in == out allowed, any other overlap not.
 * Where the run crosses a wrap of the counter's low 32 bits it is split
 * there into two ctr32 calls, the carry going into the upper 96 bits.
 * CT: key and data never reach a branch or an index. The counter does in
 * one place: whether and where a run is split, which shows in the
 * kernels' timing. In CTR mode the counter is public (it travels with the
 * ciphertext); the DRBG's secret V is within n blocks of such a wrap in n
 * of 2^32 requests of n blocks, and then that is all that shows.
 */
void fc_aes_ctr128(const fc_aes_ops *ops, const fc_aes_key *key,
                   const uint8_t *in, uint8_t *out, size_t blocks,
                   uint8_t ctr[16]);

/* Portable constant-time implementation (provider/core/aes_generic.c).
 * CT: no table lookups or branches depend on key or data. */
void fc_aes_set_enc_key_generic(fc_aes_key *key, const uint8_t *user_key,
                                size_t key_bytes);
void fc_aes_set_dec_key_generic(fc_aes_key *key, const uint8_t *user_key,
                                size_t key_bytes);
void fc_aes_ecb_enc_generic(const fc_aes_key *key, const uint8_t *in,
                            uint8_t *out, size_t blocks);
void fc_aes_ctr32_generic(const fc_aes_key *key, const uint8_t *in,
                          uint8_t *out, size_t blocks, const uint8_t ctr[16]);
void fc_aes_cbc_enc_generic(const fc_aes_key *key, const uint8_t *in,
                            uint8_t *out, size_t blocks, uint8_t iv[16]);
void fc_aes_cbc_dec_generic(const fc_aes_key *key, const uint8_t *in,
                            uint8_t *out, size_t blocks, uint8_t iv[16]);

#if defined(__x86_64__) && !defined(FC_NO_ASM)
/* x86-64 AES-NI (asm/x86_64/aes_aesni.S). The decryption schedule is
 * the Equivalent Inverse Cipher's (FIPS-197 5.3.5): rk[0] = enc rk[Nr],
 * rk[i] = InvMixColumns(enc rk[Nr-i]), rk[Nr] = enc rk[0].
 * CT: AES-NI instructions are data-independent in time. */
void fc_aes_set_enc_key_aesni(fc_aes_key *key, const uint8_t *user_key,
                              size_t key_bytes);
void fc_aes_set_dec_key_aesni(fc_aes_key *key, const uint8_t *user_key,
                              size_t key_bytes);
void fc_aes_ecb_enc_aesni(const fc_aes_key *key, const uint8_t *in,
                          uint8_t *out, size_t blocks);
void fc_aes_ctr32_aesni(const fc_aes_key *key, const uint8_t *in, uint8_t *out,
                        size_t blocks, const uint8_t ctr[16]);
void fc_aes_cbc_enc_aesni(const fc_aes_key *key, const uint8_t *in,
                          uint8_t *out, size_t blocks, uint8_t iv[16]);
void fc_aes_cbc_dec_aesni(const fc_aes_key *key, const uint8_t *in,
                          uint8_t *out, size_t blocks, uint8_t iv[16]);
/* x86-64 VAES + AVX2, ymm (asm/x86_64/aes_vaes.S); uses the AES-NI
 * schedules. */
void fc_aes_cbc_dec_vaes_avx2(const fc_aes_key *key, const uint8_t *in,
                              uint8_t *out, size_t blocks, uint8_t iv[16]);
void fc_aes_ctr32_vaes_avx2(const fc_aes_key *key, const uint8_t *in,
                            uint8_t *out, size_t blocks, const uint8_t ctr[16]);
#endif

#if defined(__aarch64__) && !defined(FC_NO_ASM)
/*
 * arm64 Cryptography Extensions (asm/aarch64/aes_ce.S); the table
 * needs FC_CAP_ARM_AES. fc_aes_set_enc_key_ce stores rk[r] in FIPS-197
 * byte order (as AESE expects, so the GCM kernels use it as is);
 * fc_aes_set_dec_key_ce stores the Equivalent Inverse Cipher schedule
 * (FIPS-197 5.3.5) for AESD/AESIMC: rk[0] = enc rk[Nr], rk[i] =
 * InvMixColumns(enc rk[Nr-i]), rk[Nr] = enc rk[0]. Contracts as for the
 * fc_aes_*_fn types above: whole blocks, in == out allowed, blocks == 0 is
 * a no-op, no alignment needed.
 * CT: the AES instructions are data-independent in time; no branch or
 * address depends on key or data.
 */
void fc_aes_set_enc_key_ce(fc_aes_key *key, const uint8_t *user_key,
                           size_t key_bytes);
void fc_aes_set_dec_key_ce(fc_aes_key *key, const uint8_t *user_key,
                           size_t key_bytes);
void fc_aes_ecb_enc_ce(const fc_aes_key *key, const uint8_t *in, uint8_t *out,
                       size_t blocks);
void fc_aes_ctr32_ce(const fc_aes_key *key, const uint8_t *in, uint8_t *out,
                     size_t blocks, const uint8_t ctr[16]);
void fc_aes_cbc_enc_ce(const fc_aes_key *key, const uint8_t *in, uint8_t *out,
                       size_t blocks, uint8_t iv[16]);
void fc_aes_cbc_dec_ce(const fc_aes_key *key, const uint8_t *in, uint8_t *out,
                       size_t blocks, uint8_t iv[16]);
#endif

#endif /* FC_AES_H */
