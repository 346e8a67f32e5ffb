/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/sha.h - SHA-1 and SHA-256 (FIPS 180-4): the compression functions as
 * block kernels grouped per CPU tier, and on top of them a small streaming
 * layer and the HMAC (RFC 2104) key setup, for the code that hashes whole
 * messages (the AES-CBC-HMAC ciphers of the TLS MAC-then-encrypt suites).
 *
 * A kernel family is an fc_sha_ops table chosen once from the CPU features
 * (fc_sha_select). A kernel absorbs whole 64-byte blocks into a chaining
 * value held as host-order words, h[0..4] for SHA-1 and h[0..7] for SHA-256
 * (FIPS 180-4 H0..H7); padding, length and output encoding are the
 * streaming layer's. Kernels cannot fail; blocks == 0 is a no-op; the input
 * needs no alignment.
 *
 * CT: every function here runs in time that depends only on the lengths
 * passed (and whether a key is longer than a block); no branch or memory
 * index depends on message, key or state bytes.
 */
#ifndef FC_SHA_H
#define FC_SHA_H

#include <stddef.h>
#include <stdint.h>

#include "fc/common.h"
#include "fc/kernel.h"

#define FC_SHA_BLOCK     64
#define FC_SHA1_LEN      20
#define FC_SHA256_LEN    32
#define FC_SHA_MAX_LEN   FC_SHA256_LEN
#define FC_SHA_MAX_WORDS 8

/* The hashes of this header. */
typedef enum fc_sha_alg { FC_SHA1 = 0, FC_SHA256 = 1 } fc_sha_alg;

/* The kernel prototype: absorbs |blocks| 64-byte blocks at |in| into the
 * chaining value |h| (5 words for SHA-1, 8 for SHA-256). */
typedef void fc_sha_blocks_fn(uint32_t *h, const uint8_t *in, size_t blocks);

typedef struct fc_sha_ops {
    FC_KERNEL_HEAD; /* name, required_caps, tier (fc/kernel.h) */
    fc_sha_blocks_fn *sha1_blocks;
    fc_sha_blocks_fn *sha256_blocks;
} fc_sha_ops;

extern const fc_sha_ops fc_sha_ops_generic;
#if defined(__x86_64__) && !defined(FC_NO_ASM)
extern const fc_sha_ops fc_sha_ops_shani_avx512;
extern const fc_sha_ops fc_sha_ops_shani;
#endif

/*
 * fc_sha_select returns the fastest table whose required features are all
 * in |caps|; never NULL (the generic table needs nothing).
 */
const fc_sha_ops *fc_sha_select(uint32_t caps);

/*
 * fc_sha_impls lists every table compiled in, fastest first, ending with
 * the generic one; |*count| receives the number.
 */
const fc_sha_ops *const *fc_sha_impls(size_t *count);

/*
 * fc_sha_self_test runs the FIPS 180-4 example messages ("abc" and the
 * 448-bit two-block message) through both kernels of |ops|, and RFC 2202 /
 * RFC 4231 HMAC test case 2 through fc_hmac_sha_key. Returns 1 on success.
 */
int fc_sha_self_test(const fc_sha_ops *ops);

/* ------------------------------------------------------------------------ */
/* Streaming and HMAC. */

/* One hash on one kernel: what the streaming functions run. */
typedef struct fc_sha_hash {
    fc_sha_blocks_fn *blocks;
    const uint32_t *iv; /* FIPS 180-4 initial hash value */
    uint8_t words;      /* 5 or 8 */
    uint8_t len;        /* digest bytes: 20 or 32 */
    uint8_t alg;        /* fc_sha_alg */
} fc_sha_hash;

/* A hash in progress: the chaining value after |n| - |n| % 64 bytes, and
 * the |n| % 64 bytes absorbed since. Flat: copies are independent. */
typedef struct fc_sha_state {
    uint32_t h[FC_SHA_MAX_WORDS];
    uint64_t n;
    uint8_t buf[FC_SHA_BLOCK];
} fc_sha_state;

/* fc_sha_hash_for fills |hash| for |alg| on the kernels of |ops|. */
void fc_sha_hash_for(fc_sha_hash *hash, const fc_sha_ops *ops, fc_sha_alg alg);

/* fc_sha_init starts |st| on the initial hash value (nothing absorbed). */
void fc_sha_init(const fc_sha_hash *hash, fc_sha_state *st);

/*
 * fc_sha_update absorbs |len| bytes at |in| (may be NULL when len is 0).
 * Whole blocks go to the kernel straight from |in|.
 */
void fc_sha_update(const fc_sha_hash *hash, fc_sha_state *st, const uint8_t *in,
                   size_t len);

/*
 * fc_sha_final pads the message (FIPS 180-4 5.1.1), writes the hash->len
 * byte digest to |md| and wipes |st|'s buffer. |st| must not be updated
 * again before fc_sha_init or a copy over it.
 */
void fc_sha_final(const fc_sha_hash *hash, fc_sha_state *st, uint8_t *md);

/* fc_sha_store writes the |hash->len| digest bytes of the chaining value
 * |h| to |md|, big-endian words (FIPS 180-4 6.1.2 step 4). */
void fc_sha_store(const fc_sha_hash *hash, const uint32_t *h, uint8_t *md);

/*
 * fc_hmac_sha_key sets |inner| to the state after absorbing K ^ ipad and
 * |outer| after K ^ opad (RFC 2104), K being |key| (|len| bytes, hashed
 * first when longer than 64, zero-padded to 64). An HMAC of m is then
 * H(outer || H(inner || m)): copy |inner|, update with m, final, then
 * update a copy of |outer| with that digest and final again.
 * CT: only |len| leaks; the key block is wiped.
 */
void fc_hmac_sha_key(const fc_sha_hash *hash, fc_sha_state *inner,
                     fc_sha_state *outer, const uint8_t *key, size_t len);

/* ------------------------------------------------------------------------ */
/* Kernels. */

/* Portable C (provider/core/sha_generic.c). CT: straight-line arithmetic,
 * no tables indexed by data. */
void fc_sha1_blocks_generic(uint32_t *h, const uint8_t *in, size_t blocks);
void fc_sha256_blocks_generic(uint32_t *h, const uint8_t *in, size_t blocks);

#if defined(__x86_64__) && !defined(FC_NO_ASM)
/* x86-64 SHA-NI (asm/x86_64/sha_ni.S); the table needs SHA | SSSE3 |
 * SSE4.1. The _avx512 SHA-1 runs its message schedule's rotations as
 * VPROLD (its table adds FC_CAP_AVX512). CT: the SHA instructions and the
 * vector ALU operations are data-independent in time. */
void fc_sha1_blocks_shani(uint32_t *h, const uint8_t *in, size_t blocks);
void fc_sha1_blocks_shani_avx512(uint32_t *h, const uint8_t *in, size_t blocks);
void fc_sha256_blocks_shani(uint32_t *h, const uint8_t *in, size_t blocks);
#endif

#endif /* FC_SHA_H */
