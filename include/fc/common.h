/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/common.h - types and helpers shared by the provider glue, the portable
 * core and the tests. No OpenSSL headers here: provider/core/ builds without
 * them.
 */
#ifndef FC_COMMON_H
#define FC_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FC_ALIGN(n)     __attribute__((aligned(n)))
#define FC_LIKELY(x)    __builtin_expect(!!(x), 1)
#define FC_UNLIKELY(x)  __builtin_expect(!!(x), 0)
#define FC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * fc_ossl_at_least returns 1 if |version|, an OpenSSL_version_num() value
 * (0xMNN00PP0 for release M.NN.PP), is release |major|.|minor|.0 or later.
 * Every gate on the running libcrypto's version is written with it.
 */
static inline int fc_ossl_at_least(unsigned long version, unsigned major,
                                   unsigned minor)
{
    return version >=
           (((unsigned long)major << 28) | ((unsigned long)minor << 20));
}

/*
 * fc_memzero clears |len| bytes at |p| in a way the compiler may not elide
 * (used for key material on free; the provider layer may equally use
 * OPENSSL_cleanse).
 */
static inline void fc_memzero(void *p, size_t len)
{
    if (len == 0)
        return;
    memset(p, 0, len);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

static inline uint32_t fc_load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
           ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void fc_store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline uint64_t fc_load_be64(const uint8_t *p)
{
    return ((uint64_t)fc_load_be32(p) << 32) | fc_load_be32(p + 4);
}

static inline void fc_store_be64(uint8_t *p, uint64_t v)
{
    fc_store_be32(p, (uint32_t)(v >> 32));
    fc_store_be32(p + 4, (uint32_t)v);
}

static inline uint32_t fc_load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static inline void fc_store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline uint64_t fc_load_le64(const uint8_t *p)
{
    return (uint64_t)fc_load_le32(p) | ((uint64_t)fc_load_le32(p + 4) << 32);
}

static inline void fc_store_le64(uint8_t *p, uint64_t v)
{
    fc_store_le32(p, (uint32_t)v);
    fc_store_le32(p + 4, (uint32_t)(v >> 32));
}

/* fc_xor16 sets dst = a ^ b for one 16-byte block; any aliasing is allowed. */
static inline void fc_xor16(uint8_t *dst, const uint8_t *a, const uint8_t *b)
{
    uint64_t a0, a1, b0, b1;
    memcpy(&a0, a, 8);
    memcpy(&a1, a + 8, 8);
    memcpy(&b0, b, 8);
    memcpy(&b1, b + 8, 8);
    a0 ^= b0;
    a1 ^= b1;
    memcpy(dst, &a0, 8);
    memcpy(dst + 8, &a1, 8);
}

#endif /* FC_COMMON_H */
