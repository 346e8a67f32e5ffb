/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/ct.h - constant-time primitives.
 *
 * Masks are all-ones (true) or all-zero (false) words. None of these
 * functions branches on, or indexes memory with, its arguments. The value
 * barrier keeps the compiler from proving a mask is boolean and turning a
 * select back into a branch.
 *
 * FC_CT_SECRET(p, len) / FC_CT_PUBLIC(p, len) mark memory as secret
 * (undefined for valgrind memcheck) or declassify it, in builds with
 * FC_CT_VALGRIND; elsewhere they compile to nothing. Running the KATs under
 * valgrind in that build flags any branch or memory index that depends on a
 * secret, in C and in assembly alike.
 */
#ifndef FC_CT_H
#define FC_CT_H

#include <stddef.h>
#include <stdint.h>

#if defined(FC_CT_VALGRIND)
#include <valgrind/memcheck.h>
#define FC_CT_SECRET(p, len) VALGRIND_MAKE_MEM_UNDEFINED((p), (len))
#define FC_CT_PUBLIC(p, len) VALGRIND_MAKE_MEM_DEFINED((p), (len))
#else
#define FC_CT_SECRET(p, len) ((void)(p), (void)(len))
#define FC_CT_PUBLIC(p, len) ((void)(p), (void)(len))
#endif

/* fc_ct_barrier returns |v| unchanged, opaque to the optimiser. */
static inline uint64_t fc_ct_barrier(uint64_t v)
{
    __asm__("" : "+r"(v));
    return v;
}

/* fc_ct_msb_mask returns all-ones if the top bit of |v| is set, else 0. */
static inline uint64_t fc_ct_msb_mask(uint64_t v)
{
    return 0 - (fc_ct_barrier(v) >> 63);
}

/* fc_ct_is_zero returns all-ones if |v| == 0, else 0. */
static inline uint64_t fc_ct_is_zero(uint64_t v)
{
    return fc_ct_msb_mask(~v & (v - 1));
}

/* fc_ct_eq returns all-ones if |a| == |b|, else 0. */
static inline uint64_t fc_ct_eq(uint64_t a, uint64_t b)
{
    return fc_ct_is_zero(a ^ b);
}

/* fc_ct_lt returns all-ones if |a| < |b| (unsigned), else 0. */
static inline uint64_t fc_ct_lt(uint64_t a, uint64_t b)
{
    return fc_ct_msb_mask(a ^ ((a ^ b) | ((a - b) ^ a)));
}

/* fc_ct_ge returns all-ones if |a| >= |b| (unsigned), else 0. */
static inline uint64_t fc_ct_ge(uint64_t a, uint64_t b)
{
    return ~fc_ct_lt(a, b);
}

/* fc_ct_select returns |a| where |mask| is all-ones, |b| where it is 0. */
static inline uint64_t fc_ct_select(uint64_t mask, uint64_t a, uint64_t b)
{
    mask = fc_ct_barrier(mask);
    return (mask & a) | (~mask & b);
}

/* fc_ct_select8 is fc_ct_select for bytes; |mask| is 0x00 or 0xff. */
static inline uint8_t fc_ct_select8(uint8_t mask, uint8_t a, uint8_t b)
{
    return (uint8_t)fc_ct_select((uint64_t)(int64_t)(int8_t)mask, a, b);
}

/*
 * fc_ct_lanes_lt returns a mask of eight byte lanes: byte j of the result
 * (the j-th byte in memory when stored little-endian) is 0xff when j < r,
 * else 0; r must be 0..8. SWAR: byte j of (r | 0x80) - (j + 1) keeps its
 * top bit exactly when r - j - 1 >= 0, and no byte borrows from its
 * neighbour (each stays within 0x78..0x87).
 * CT: r does not leak.
 */
static inline uint64_t fc_ct_lanes_lt(uint64_t r)
{
    const uint64_t ones = 0x0101010101010101u;
    uint64_t t = (r * ones | 0x8080808080808080u) - 0x0807060504030201u;

    return ((t >> 7) & ones) * 0xff;
}

/*
 * fc_ct_sub_clamp8 returns a - b clamped to 0..8: 0 when a < b, 8 when a
 * >= b + 8. With fc_ct_lanes_lt it gives the lanes of the eight bytes at
 * index b that lie below a secret bound a. a and b must be below 2^62
 * (indices and lengths): a - b is then a signed difference whose sign bit
 * and whose excess over 7 are read with fc_ct_msb_mask.
 * CT: a and b do not leak.
 */
static inline uint64_t fc_ct_sub_clamp8(uint64_t a, uint64_t b)
{
    uint64_t r = a - b, big;

    r &= ~fc_ct_msb_mask(r); /* max(a - b, 0) */
    big = fc_ct_msb_mask(7 - r);
    return (r & ~big) | (8 & big);
}

/*
 * fc_ct_cmov copies |len| bytes from |src| to |dst| where |mask| is
 * all-ones, and leaves |dst| unchanged where it is 0.
 * CT: only |len| leaks.
 */
static inline void fc_ct_cmov(uint8_t *dst, const uint8_t *src, size_t len,
                              uint64_t mask)
{
    uint8_t m = (uint8_t)fc_ct_barrier(mask);
    for (size_t i = 0; i < len; i++)
        dst[i] = (uint8_t)((m & src[i]) | (~m & dst[i]));
}

/*
 * fc_ct_memeq returns all-ones if the |len| bytes at |a| and |b| are equal,
 * else 0. It reads every byte; there is no early exit.
 * CT: only |len| leaks.
 */
static inline uint64_t fc_ct_memeq(const void *a, const void *b, size_t len)
{
    const uint8_t *pa = a, *pb = b;
    uint8_t acc = 0;
    for (size_t i = 0; i < len; i++)
        acc |= pa[i] ^ pb[i];
    return fc_ct_is_zero(acc);
}

#endif /* FC_CT_H */
