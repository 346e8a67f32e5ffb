/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sha.c - the SHA implementation tables and their selection, the streaming
 * layer and HMAC key setup over a chosen kernel, and the known-answer self
 * test run on the chosen table when the provider loads.
 */
#include <stddef.h>
#include <string.h>

#include "fc/cpu.h"
#include "fc/sha.h"

const fc_sha_ops fc_sha_ops_generic = {
    .name = "generic",
    .tier = FC_TIER_GENERIC,
    .required_caps = 0,
    .sha1_blocks = fc_sha1_blocks_generic,
    .sha256_blocks = fc_sha256_blocks_generic,
};

#if defined(__x86_64__) && !defined(FC_NO_ASM)
/* SHA-256 has no rotation in its SHA-NI schedule: the same kernel. */
const fc_sha_ops fc_sha_ops_shani_avx512 = {
    .name = "shani-avx512",
    .tier = FC_TIER_512,
    .required_caps = FC_CAP_SHA | FC_CAP_SSSE3 | FC_CAP_SSE41 | FC_CAP_AVX512,
    .sha1_blocks = fc_sha1_blocks_shani_avx512,
    .sha256_blocks = fc_sha256_blocks_shani,
};

const fc_sha_ops fc_sha_ops_shani = {
    .name = "shani",
    .tier = FC_TIER_128,
    .required_caps = FC_CAP_SHA | FC_CAP_SSSE3 | FC_CAP_SSE41,
    .sha1_blocks = fc_sha1_blocks_shani,
    .sha256_blocks = fc_sha256_blocks_shani,
};
#endif

/* Fastest first; the generic table is always last. */
static const fc_sha_ops *const fc_sha_table[] = {
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    &fc_sha_ops_shani_avx512,
    &fc_sha_ops_shani,
#endif
    &fc_sha_ops_generic,
};

/* see fc/sha.h */
const fc_sha_ops *const *fc_sha_impls(size_t *count)
{
    *count = FC_ARRAY_LEN(fc_sha_table);
    return fc_sha_table;
}

/* see fc/sha.h */
const fc_sha_ops *fc_sha_select(uint32_t caps)
{
    return fc_kernel_select((const void *const *)fc_sha_table,
                            FC_ARRAY_LEN(fc_sha_table), caps, FC_TIER_512);
}

/* ------------------------------------------------------------------------ */
/* Streaming. */

/* FIPS 180-4 5.3.1 and 5.3.3. */
static const uint32_t fc_sha1_iv[5] = {0x67452301u, 0xefcdab89u, 0x98badcfeu,
                                       0x10325476u, 0xc3d2e1f0u};
static const uint32_t fc_sha256_iv[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u,
                                         0xa54ff53au, 0x510e527fu, 0x9b05688cu,
                                         0x1f83d9abu, 0x5be0cd19u};

/* see fc/sha.h */
void fc_sha_hash_for(fc_sha_hash *hash, const fc_sha_ops *ops, fc_sha_alg alg)
{
    if (alg == FC_SHA1) {
        hash->blocks = ops->sha1_blocks;
        hash->iv = fc_sha1_iv;
        hash->words = 5;
        hash->len = FC_SHA1_LEN;
    } else {
        hash->blocks = ops->sha256_blocks;
        hash->iv = fc_sha256_iv;
        hash->words = 8;
        hash->len = FC_SHA256_LEN;
    }
    hash->alg = (uint8_t)alg;
}

/* see fc/sha.h */
void fc_sha_init(const fc_sha_hash *hash, fc_sha_state *st)
{
    memset(st->h, 0, sizeof(st->h));
    memcpy(st->h, hash->iv, hash->words * sizeof(uint32_t));
    st->n = 0;
}

/* see fc/sha.h */
void fc_sha_update(const fc_sha_hash *hash, fc_sha_state *st, const uint8_t *in,
                   size_t len)
{
    size_t used = (size_t)(st->n % FC_SHA_BLOCK), whole;

    st->n += len;
    if (used != 0) {
        size_t take = FC_SHA_BLOCK - used;

        if (take > len) {
            if (len != 0)
                memcpy(st->buf + used, in, len);
            return;
        }
        memcpy(st->buf + used, in, take);
        hash->blocks(st->h, st->buf, 1);
        in += take;
        len -= take;
    }
    whole = len / FC_SHA_BLOCK;
    if (whole != 0) {
        hash->blocks(st->h, in, whole);
        in += whole * FC_SHA_BLOCK;
        len -= whole * FC_SHA_BLOCK;
    }
    if (len != 0)
        memcpy(st->buf, in, len);
}

/* see fc/sha.h */
void fc_sha_store(const fc_sha_hash *hash, const uint32_t *h, uint8_t *md)
{
    for (size_t i = 0; i < hash->words; i++)
        fc_store_be32(md + 4 * i, h[i]);
}

/* see fc/sha.h */
void fc_sha_final(const fc_sha_hash *hash, fc_sha_state *st, uint8_t *md)
{
    size_t used = (size_t)(st->n % FC_SHA_BLOCK);
    uint64_t bits = st->n << 3;

    /* 0x80, zeros, and the 64-bit big-endian bit length in the last 8
     * bytes: one block, or two when fewer than 9 bytes are left. */
    st->buf[used++] = 0x80;
    if (used > FC_SHA_BLOCK - 8) {
        memset(st->buf + used, 0, FC_SHA_BLOCK - used);
        hash->blocks(st->h, st->buf, 1);
        used = 0;
    }
    memset(st->buf + used, 0, FC_SHA_BLOCK - 8 - used);
    fc_store_be64(st->buf + FC_SHA_BLOCK - 8, bits);
    hash->blocks(st->h, st->buf, 1);
    fc_sha_store(hash, st->h, md);
    fc_memzero(st->buf, sizeof(st->buf));
}

/* see fc/sha.h */
void fc_hmac_sha_key(const fc_sha_hash *hash, fc_sha_state *inner,
                     fc_sha_state *outer, const uint8_t *key, size_t len)
{
    uint8_t k[FC_SHA_BLOCK] = {0};

    if (len > FC_SHA_BLOCK) {
        fc_sha_init(hash, inner);
        fc_sha_update(hash, inner, key, len);
        fc_sha_final(hash, inner, k);
    } else if (len != 0) {
        memcpy(k, key, len);
    }
    for (size_t i = 0; i < FC_SHA_BLOCK; i++)
        k[i] ^= 0x36;
    fc_sha_init(hash, inner);
    fc_sha_update(hash, inner, k, FC_SHA_BLOCK);
    for (size_t i = 0; i < FC_SHA_BLOCK; i++)
        k[i] ^= 0x36 ^ 0x5c;
    fc_sha_init(hash, outer);
    fc_sha_update(hash, outer, k, FC_SHA_BLOCK);
    fc_memzero(k, sizeof(k));
}

/* ------------------------------------------------------------------------ */
/* Self test. */

/* FIPS 180-4 examples (csrc.nist.gov SHA1.pdf, SHA256.pdf) and HMAC test
 * case 2 of RFC 2202 (SHA-1) and RFC 4231 (SHA-256). */
static const uint8_t fc_st_msg2[] =
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const uint8_t fc_st_sha[2][2][32] = {
    {{0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
      0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d},
     {0x84, 0x98, 0x3e, 0x44, 0x1c, 0x3b, 0xd2, 0x6e, 0xba, 0xae,
      0x4a, 0xa1, 0xf9, 0x51, 0x29, 0xe5, 0xe5, 0x46, 0x70, 0xf1}},
    {{0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
      0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
      0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad},
     {0x24, 0x8d, 0x6a, 0x61, 0xd2, 0x06, 0x38, 0xb8, 0xe5, 0xc0, 0x26,
      0x93, 0x0c, 0x3e, 0x60, 0x39, 0xa3, 0x3c, 0xe4, 0x59, 0x64, 0xff,
      0x21, 0x67, 0xf6, 0xec, 0xed, 0xd4, 0x19, 0xdb, 0x06, 0xc1}},
};
static const uint8_t fc_st_hmac[2][32] = {
    {0xef, 0xfc, 0xdf, 0x6a, 0xe5, 0xeb, 0x2f, 0xa2, 0xd2, 0x74,
     0x16, 0xd5, 0xf1, 0x84, 0xdf, 0x9c, 0x25, 0x9a, 0x7c, 0x79},
    {0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24,
     0x26, 0x08, 0x95, 0x75, 0xc7, 0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27,
     0x39, 0x83, 0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43},
};

/* see fc/sha.h */
int fc_sha_self_test(const fc_sha_ops *ops)
{
    static const uint8_t key[] = "Jefe";
    static const uint8_t data[] = "what do ya want for nothing?";
    fc_sha_hash hash;
    fc_sha_state st, inner, outer;
    uint8_t md[FC_SHA_MAX_LEN];
    int ok = 1;

    for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
        fc_sha_hash_for(&hash, ops, (fc_sha_alg)alg);
        fc_sha_init(&hash, &st);
        fc_sha_update(&hash, &st, (const uint8_t *)"abc", 3);
        fc_sha_final(&hash, &st, md);
        ok &= memcmp(md, fc_st_sha[alg][0], hash.len) == 0;
        fc_sha_init(&hash, &st);
        fc_sha_update(&hash, &st, fc_st_msg2, sizeof(fc_st_msg2) - 1);
        fc_sha_final(&hash, &st, md);
        ok &= memcmp(md, fc_st_sha[alg][1], hash.len) == 0;

        fc_hmac_sha_key(&hash, &inner, &outer, key, sizeof(key) - 1);
        fc_sha_update(&hash, &inner, data, sizeof(data) - 1);
        fc_sha_final(&hash, &inner, md);
        fc_sha_update(&hash, &outer, md, hash.len);
        fc_sha_final(&hash, &outer, md);
        ok &= memcmp(md, fc_st_hmac[alg], hash.len) == 0;
    }
    return ok;
}
