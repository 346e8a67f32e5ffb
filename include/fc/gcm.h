/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/gcm.h - AES-GCM (NIST SP 800-38D): the key with its GHASH table, the
 * kernel tables, and the kernels' contract.
 *
 * Division of work: kernels consume whole 16-byte blocks (a _bytes kernel
 * also a partial last block, which it hashes zero-padded); C
 * (provider/core/gcm.c) handles IVs, lengths, partial blocks, counter
 * write-back and the tag.
 *
 * Representation. GHASH state |xi| and the hash key |h| are 16-byte strings
 * in the byte order SP 800-38D writes them (xi is what would be XORed with
 * E(K, J0) to give the tag). Kernels convert to whatever internal form they
 * like on entry and back on exit. The counter block |ctr| is the full
 * 16-byte block for the first block to process; block i uses ctr with its
 * last 4 bytes, read as a big-endian integer, increased by i modulo 2^32:
 * kernels implement inc32 (SP 800-38D 6.2: the low 32 bits wrap mod 2^32
 * without carrying into bytes 0..11), so one call may cross the wrap.
 * Kernels treat ctr as secret (it is GHASH_H(IV) for IVs other than 96
 * bits): no branch or memory address may depend on it. Kernels never
 * write the counter back; C advances it by |blocks| (mod 2^32).
 */
#ifndef FC_GCM_H
#define FC_GCM_H

#include <stddef.h>
#include <stdint.h>

#include "fc/aes.h"

struct fc_tuning;

/* Bytes reserved for an implementation's precomputed powers of H (for
 * instance H^1..H^16 and their Karatsuba halves). */
#define FC_GCM_HTABLE_BYTES 512

typedef struct fc_gcm_ops fc_gcm_ops;

typedef struct fc_gcm_key {
    fc_aes_key aes; /* encryption schedule; offset 0 (asm_offsets.h) */
    /* Implementation-specific powers of H; offset 256 (asm_offsets.h). */
    FC_ALIGN(32) uint8_t htable[FC_GCM_HTABLE_BYTES];
    const fc_gcm_ops *ops; /* the table that made this key */
    /* The most blocks one kernel call may take with |htable| as it is:
     * SIZE_MAX once the table is complete (ops->grow). */
    size_t hmax;
} fc_gcm_key;

/* Fills |htable| (FC_GCM_HTABLE_BYTES) from the hash key h = E(K, 0^128).
 * CT: nothing about h leaks. */
typedef void fc_gcm_init_fn(uint8_t *htable, const uint8_t h[16]);
/* Adds powers of H to a table that has the first |have| of them, up to
 * |want| (powers as counted by fc_gcm_ops.part_pow, both public). */
typedef void fc_gcm_grow_fn(uint8_t *htable, size_t have, size_t want);
/* fc_gcm_set_key's work on |key| up to init_part's table part, in one
 * call: the ops->aes schedule of |user_key| (|key_bytes| = 16, 24 or 32)
 * and, from H = E(K, 0^128), the first part_pow powers; nothing else of
 * |key| written. CT: nothing about the key or H leaks. */
typedef void fc_gcm_set_key_fn(fc_gcm_key *key, const uint8_t *user_key,
                               size_t key_bytes);
/* For each of |blocks| 16-byte blocks b of |in|: xi = (xi ^ b) * H. */
typedef void fc_ghash_fn(const uint8_t *htable, uint8_t xi[16],
                         const uint8_t *in, size_t blocks);
/* Encrypt: out = in ^ E(K, inc32^i(ctr)), and xi absorbs every output
 * block. Decrypt: xi absorbs every input block, and out = in ^
 * E(K, inc32^i(ctr)). inc32 is computed by the kernel (the low 32 bits wrap
 * mod 2^32, bytes 0..11 never change), including across the wrap. Any
 * block count, including 0 (a no-op). in == out allowed, no other overlap.
 * |key| is the whole fc_gcm_key (round keys at offset 0, htable at offset
 * 256). CT: ctr, like the key, xi and the data, is secret: only |blocks|
 * and the key length may reach a branch or an address. */
typedef void fc_gcm_crypt_fn(const fc_gcm_key *key, const uint8_t *in,
                             uint8_t *out, size_t blocks, const uint8_t ctr[16],
                             uint8_t xi[16]);
/* fc_gcm_crypt_fn over |len| bytes: ceil(len/16) blocks, the last one
 * partial when len % 16 != 0. Of that block only its len % 16 bytes are
 * read and written, xi absorbs it zero-padded (its ciphertext bytes, then
 * zeros), and its keystream is not kept. Otherwise the same contract. */
typedef void fc_gcm_crypt_bytes_fn(const fc_gcm_key *key, const uint8_t *in,
                                   uint8_t *out, size_t len,
                                   const uint8_t ctr[16], uint8_t xi[16]);

struct fc_gcm_ops {
    FC_KERNEL_HEAD;        /* name, required_caps, tier (fc/kernel.h) */
    const fc_aes_ops *aes; /* AES table for the key schedule and ECB */
    fc_gcm_init_fn *init;  /* the whole table */
    fc_ghash_fn *ghash;
    fc_gcm_crypt_fn *enc;
    fc_gcm_crypt_fn *dec;
    /*
     * A table made in parts (NULL where init is cheap): init_part makes
     * what a call of up to |part_pow| blocks reads, grow doubles that
     * (part_pow * 2^k powers, up to max_pow) on demand; a call of more
     * than max_pow blocks reads the whole table, max_pow powers.
     */
    fc_gcm_init_fn *init_part;
    fc_gcm_grow_fn *grow;
    uint32_t part_pow, max_pow;
    /* Optional (NULL: ops->aes key schedule and ECB, then init_part):
     * the same in one kernel call. */
    fc_gcm_set_key_fn *set_key;
    /* Byte-length kernels (NULL: a partial last block is C's): a data
     * call that ends in a partial block takes it in the same call. */
    fc_gcm_crypt_bytes_fn *enc_bytes;
    fc_gcm_crypt_bytes_fn *dec_bytes;
};

/*
 * fc_gcm_select returns the first table of fc_gcm_impls whose required
 * features are all in |caps|, passing over the zmm tier (FC_TIER_512) unless
 * |tuning| (the CPU's row of fc/tuning.h; NULL counts as the default row) has
 * aes_zmm set; never NULL. This is the one place the row steers GCM.
 */
const fc_gcm_ops *fc_gcm_select(uint32_t caps, const struct fc_tuning *tuning);

/*
 * fc_gcm_impls lists every GCM table compiled in, fastest first, ending with
 * the generic one; |*count| receives the number.
 */
const fc_gcm_ops *const *fc_gcm_impls(size_t *count);

/* Portable constant-time kernels (provider/core/ghash_generic.c): GHASH by
 * carry-less multiplication built from integer multiplies with holes, no
 * tables; CTR through the generic AES. CT: nothing secret leaks. */
void fc_gcm_init_generic(uint8_t *htable, const uint8_t h[16]);
void fc_ghash_generic(const uint8_t *htable, uint8_t xi[16], const uint8_t *in,
                      size_t blocks);
void fc_gcm_enc_generic(const fc_gcm_key *key, const uint8_t *in, uint8_t *out,
                        size_t blocks, const uint8_t ctr[16], uint8_t xi[16]);
void fc_gcm_dec_generic(const fc_gcm_key *key, const uint8_t *in, uint8_t *out,
                        size_t blocks, const uint8_t ctr[16], uint8_t xi[16]);
void fc_gcm_enc_bytes_generic(const fc_gcm_key *key, const uint8_t *in,
                              uint8_t *out, size_t len, const uint8_t ctr[16],
                              uint8_t xi[16]);
void fc_gcm_dec_bytes_generic(const fc_gcm_key *key, const uint8_t *in,
                              uint8_t *out, size_t len, const uint8_t ctr[16],
                              uint8_t xi[16]);

#if defined(__x86_64__) && !defined(FC_NO_ASM)
/* VAES + VPCLMULQDQ on zmm (four blocks per register), 32 blocks per
 * iteration, masked tails (asm/x86_64/aes_gcm_avx512.S). Needs AVX-512
 * F/BW/DQ/VL and BMI2 besides (fc_gcm_vaes_avx512_capable). Uses AES-NI
 * round keys; the table holds H^32..H^1 (all 512 bytes of htable), a call
 * of n <= 32 blocks reads H^n..H^1 only; it is made in parts
 * (init_part: H^8..H^1; grow: to 16 and 32 powers). The _bytes kernels
 * take a partial last block under a byte mask.
 * CT: VAES, VPCLMULQDQ and the vector ALU are data-independent in time;
 * branches, addresses and opmasks depend only on the block count and the
 * number of rounds. Valgrind cannot run these (no AVX-512 support), so the
 * CT build's checks do not cover them. */
void fc_gcm_init_vaes_avx512(uint8_t *htable, const uint8_t h[16]);
void fc_gcm_init_part_vaes_avx512(uint8_t *htable, const uint8_t h[16]);
void fc_gcm_grow_vaes_avx512(uint8_t *htable, size_t have, size_t want);
void fc_gcm_set_key_vaes_avx512(fc_gcm_key *key, const uint8_t *user_key,
                                size_t key_bytes);
void fc_ghash_vaes_avx512(const uint8_t *htable, uint8_t xi[16],
                          const uint8_t *in, size_t blocks);
void fc_gcm_enc_vaes_avx512(const fc_gcm_key *key, const uint8_t *in,
                            uint8_t *out, size_t blocks, const uint8_t ctr[16],
                            uint8_t xi[16]);
void fc_gcm_dec_vaes_avx512(const fc_gcm_key *key, const uint8_t *in,
                            uint8_t *out, size_t blocks, const uint8_t ctr[16],
                            uint8_t xi[16]);
void fc_gcm_enc_bytes_vaes_avx512(const fc_gcm_key *key, const uint8_t *in,
                                  uint8_t *out, size_t len,
                                  const uint8_t ctr[16], uint8_t xi[16]);
void fc_gcm_dec_bytes_vaes_avx512(const fc_gcm_key *key, const uint8_t *in,
                                  uint8_t *out, size_t len,
                                  const uint8_t ctr[16], uint8_t xi[16]);
/* AES-NI + PCLMULQDQ, AVX (VEX.128) encoding, 8 blocks per iteration
 * (asm/x86_64/aes_gcm_aesni.S). Uses AES-NI round keys (fc_aes_ops aesni). */
void fc_gcm_init_aesni_avx(uint8_t *htable, const uint8_t h[16]);
void fc_ghash_aesni_avx(const uint8_t *htable, uint8_t xi[16],
                        const uint8_t *in, size_t blocks);
void fc_gcm_enc_aesni_avx(const fc_gcm_key *key, const uint8_t *in,
                          uint8_t *out, size_t blocks, const uint8_t ctr[16],
                          uint8_t xi[16]);
void fc_gcm_dec_aesni_avx(const fc_gcm_key *key, const uint8_t *in,
                          uint8_t *out, size_t blocks, const uint8_t ctr[16],
                          uint8_t xi[16]);
/* VAES + VPCLMULQDQ + AVX2 (ymm, two blocks per register)
 * (asm/x86_64/aes_gcm_vaes.S). Uses AES-NI round keys. */
void fc_gcm_init_vaes_avx2(uint8_t *htable, const uint8_t h[16]);
void fc_ghash_vaes_avx2(const uint8_t *htable, uint8_t xi[16],
                        const uint8_t *in, size_t blocks);
void fc_gcm_enc_vaes_avx2(const fc_gcm_key *key, const uint8_t *in,
                          uint8_t *out, size_t blocks, const uint8_t ctr[16],
                          uint8_t xi[16]);
void fc_gcm_dec_vaes_avx2(const fc_gcm_key *key, const uint8_t *in,
                          uint8_t *out, size_t blocks, const uint8_t ctr[16],
                          uint8_t xi[16]);
#endif

#if defined(__aarch64__) && !defined(FC_NO_ASM)
/* ARMv8 Cryptography Extensions: AESE/AESMC + PMULL, 8 blocks per
 * iteration (asm/aarch64/aes_gcm_ce.S). Use the arm64 "ce" AES round keys
 * (fc_aes_set_enc_key_ce: rk[r] in FIPS-197 byte order). The _sha3 entry
 * points are the same kernels with three-way XORs merged into EOR3 and
 * need FEAT_SHA3 as well; fc_gcm_init_ce serves both (one htable layout).
 * CT: AESE/AESMC, PMULL and EOR3 are data-independent in time; no branch
 * or address depends on the key, H, xi, ctr or data. */
void fc_gcm_init_ce(uint8_t *htable, const uint8_t h[16]);
void fc_ghash_ce(const uint8_t *htable, uint8_t xi[16], const uint8_t *in,
                 size_t blocks);
void fc_gcm_enc_ce(const fc_gcm_key *key, const uint8_t *in, uint8_t *out,
                   size_t blocks, const uint8_t ctr[16], uint8_t xi[16]);
void fc_gcm_dec_ce(const fc_gcm_key *key, const uint8_t *in, uint8_t *out,
                   size_t blocks, const uint8_t ctr[16], uint8_t xi[16]);
void fc_ghash_ce_sha3(const uint8_t *htable, uint8_t xi[16], const uint8_t *in,
                      size_t blocks);
void fc_gcm_enc_ce_sha3(const fc_gcm_key *key, const uint8_t *in, uint8_t *out,
                        size_t blocks, const uint8_t ctr[16], uint8_t xi[16]);
void fc_gcm_dec_ce_sha3(const fc_gcm_key *key, const uint8_t *in, uint8_t *out,
                        size_t blocks, const uint8_t ctr[16], uint8_t xi[16]);
#endif

/* ========================================================================
 * GCM state (provider/core/gcm.c)
 *
 * One message under one key: IV, AAD in any number of pieces, then data in
 * any number of pieces, then the tag. Whole blocks go to the key's kernels
 * (key->ops); partial blocks, lengths and the counter's write-back are
 * handled here. One key may serve many states at once. Its table of
 * powers of H is completed by the first call that needs more of it than
 * fc_gcm_set_key made (ops->grow; only powers are added, none changes,
 * so states in the middle of a message are unaffected): until then the
 * functions below write the key, and a key shared between threads must
 * be completed first (fc_gcm_key_complete), after which they only read
 * it.
 *
 * A TLS record costs two kernel calls where it fits a few blocks. GHASH
 * input (AAD, and ciphertext not hashed by a CTR+GHASH kernel) is held in
 * |pend| as whole, zero-padded blocks, the last one possibly unfinished,
 * and absorbed in one GHASH call when the buffer fills, before a bulk
 * kernel call, and at the end together with the length block. Setting the
 * IV computes E(K, J0) and the keystream of the first data block in one
 * ECB call, ahead of the data; a data call of at most FC_GCM_SHORT_BLOCKS
 * blocks takes the rest of its keystream from one more ECB call over the
 * counter blocks (the kernels pipeline several blocks in the time of one)
 * instead of the CTR+GHASH kernel. Blocks handed to a kernel are written
 * here in single 16-byte stores, so the kernel's vector loads are
 * forwarded from them instead of waiting for the stores to retire.
 *
 * What may leak (CT): lengths (IV, AAD, data) and the split points of the
 * calls; never the key, H, the counter (secret when the IV is not 96 bits:
 * J0 is then GHASH_H(IV)), data or tags.
 * ======================================================================== */

#define FC_GCM_TAG_BYTES 16
/* SP 800-38D 5.2.1.1: at most 2^39 - 256 bits of plaintext per IV. */
#define FC_GCM_MAX_MSG_BYTES ((UINT64_C(1) << 36) - 32)
/* len(A) and len(IV) are 64-bit bit counts: below 2^64 bits. */
#define FC_GCM_MAX_AAD_BYTES ((UINT64_C(1) << 61) - 1)
#define FC_GCM_MAX_IV_BYTES  ((UINT64_C(1) << 61) - 1)

/* GHASH blocks held back: one of AAD, FC_GCM_SHORT_BLOCKS of data and the
 * length block, so a short record is hashed in one call. */
#define FC_GCM_PEND_BLOCKS 10
/* Data calls of at most this many blocks (whole or partial) run on one
 * ECB call instead of the CTR+GHASH kernel. */
#define FC_GCM_SHORT_BLOCKS 7

typedef struct fc_gcm_state {
    uint8_t ctr[16]; /* counter block of the next keystream block */
    uint8_t ek0[16]; /* E(K, J0) */
    uint8_t xi[16];  /* GHASH of the blocks absorbed so far */
    /* Keystream of the unfinished data block, or with |ks_ready| that of
     * the first data block, made by fc_gcm_set_iv. */
    uint8_t ks[16];
    /* GHASH input not absorbed yet: |npend| whole blocks, then the
     * unfinished block (|ares| or |mres| bytes, zeros after them). At most
     * FC_GCM_PEND_BLOCKS - 2 whole blocks between calls, so the unfinished
     * block and the length block always fit. */
    FC_ALIGN(16) uint8_t pend[FC_GCM_PEND_BLOCKS][16];
    uint64_t aad_len;  /* AAD bytes so far */
    uint64_t msg_len;  /* data bytes so far */
    uint32_t ares;     /* AAD bytes in the unfinished block, 0..15 */
    uint32_t mres;     /* data bytes in it (|ks| used so far), 0..15 */
    uint32_t npend;    /* whole blocks in |pend| */
    uint32_t ks_ready; /* |ks| is the first data block's keystream */
    /* The unfinished data block is in xi already, zero-padded (a _bytes
     * kernel's last block), not in |pend|; |ks| is not kept. */
    uint32_t mdone;
} fc_gcm_state;

/*
 * fc_gcm_set_key expands |user_key| (|key_bytes| = 16, 24 or 32, checked by
 * the caller) with ops->aes, derives H = E(K, 0^128) and fills the table of
 * powers of H with ops->init, or with ops->init_part where the table is
 * made in parts: then only the powers a short message needs, the rest
 * when a call first needs them (see above); the key remembers |ops|.
 * CT: nothing about the key leaks.
 */
void fc_gcm_set_key(fc_gcm_key *key, const fc_gcm_ops *ops,
                    const uint8_t *user_key, size_t key_bytes);

/*
 * fc_gcm_key_complete makes the rest of |key|'s table of powers now (a
 * no-op if it is complete): the kernels (fc_gcm_ops) may then be called
 * with it directly, and the state functions below never write it again.
 * CT: nothing about the key leaks.
 */
void fc_gcm_key_complete(fc_gcm_key *key);

/*
 * fc_gcm_set_iv starts a new message in |st| with the |iv_len|-byte IV |iv|
 * (SP 800-38D 7.1 step 2): J0 = IV || 0^31 || 1 for 12 bytes, otherwise
 * GHASH of the zero-padded IV followed by its 64-bit bit length. Any length
 * from 1 to FC_GCM_MAX_IV_BYTES works. E(K, J0) and the first keystream
 * block are computed here (one ECB call of two blocks), so a short
 * message's data call that follows has no AES on its path. Returns 1, or 0
 * (|st| untouched) if |iv_len| is out of range.
 * CT: only |iv_len| leaks.
 */
int fc_gcm_set_iv(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *iv,
                  size_t iv_len);

/*
 * fc_gcm_aad absorbs |len| bytes of additional authenticated data. Returns
 * 1, or 0 (|st| untouched) if data was already processed in this message
 * (SP 800-38D: A precedes C) or the AAD would exceed FC_GCM_MAX_AAD_BYTES.
 * A zero |len| always succeeds.
 * CT: only lengths leak.
 */
int fc_gcm_aad(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *aad,
               size_t len);

/*
 * fc_gcm_encrypt encrypts |len| bytes from |in| to |out| and absorbs the
 * ciphertext; fc_gcm_decrypt absorbs |len| bytes of ciphertext from |in| and
 * decrypts them to |out|. in == out is allowed, no other overlap. Return 1,
 * or 0 (|st| untouched) if the message would exceed FC_GCM_MAX_MSG_BYTES.
 * CT: only lengths leak.
 */
int fc_gcm_encrypt(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *in,
                   uint8_t *out, size_t len);
int fc_gcm_decrypt(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *in,
                   uint8_t *out, size_t len);

/*
 * fc_gcm_finish ends the message: it absorbs any unfinished block and the
 * length block and writes the 16-byte tag. |st| needs a new IV afterwards.
 * CT: nothing about the tag leaks.
 */
void fc_gcm_finish(fc_gcm_key *key, fc_gcm_state *st,
                   uint8_t tag[FC_GCM_TAG_BYTES]);

/*
 * fc_gcm_verify ends the message like fc_gcm_finish and compares the first
 * |tag_len| bytes (1..16) of the tag with |tag|. Returns 1 if they match,
 * else 0. The whole tag is computed and compared without early exit.
 * CT: only |tag_len| and the final verdict leak.
 */
int fc_gcm_verify(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *tag,
                  size_t tag_len);

/*
 * fc_gcm_self_test checks |ops| against known answers (the McGrew-Viega GCM
 * test cases 2, 4, 6 and 16, i.e. SP 800-38D with AES-128/256, 96-bit and
 * 480-bit IVs, AAD and partial blocks, fed in uneven pieces) and, for any
 * table other than the generic one, against the generic table on a message
 * of 69 blocks and 7 bytes, whole and in pieces: every kernel's main loop
 * (up to 32 blocks a pass) runs more than once, then its tail and a partial
 * block. Returns 1 on success, 0 on any mismatch.
 */
int fc_gcm_self_test(const fc_gcm_ops *ops);

#endif /* FC_GCM_H */
