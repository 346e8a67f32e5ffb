/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gcm.c - AES-GCM (NIST SP 800-38D) above the kernels: the implementation
 * tables and their selection, key setup, the per-message state machine
 * (IV of any length, AAD and data in any pieces, the 32-bit counter, the
 * length limits, the tag), and the known-answer self test run when the
 * provider loads.
 *
 * The kernels (fc/gcm.h) see whole blocks only. Everything that involves a
 * partial block, a length or the counter's write-back happens here, and
 * every kernel call goes through key->ops, the table the key was made
 * with, so a key never mixes implementations.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fc/aes.h"
#include "fc/asm_offsets.h"
#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/ct.h"
#include "fc/gcm.h"
#include "fc/tuning.h"

_Static_assert(offsetof(fc_gcm_key, aes) == FC_OFF_GCM_AES, "aes offset");
_Static_assert(offsetof(fc_gcm_key, htable) == FC_OFF_GCM_HTABLE,
               "htable offset");

/* ------------------------------------------------------------------------ */
/* Implementation tables. */

static const fc_gcm_ops fc_gcm_ops_generic = {
    .name = "generic",
    .tier = FC_TIER_GENERIC,
    .required_caps = 0,
    .aes = &fc_aes_ops_generic,
    .init = fc_gcm_init_generic,
    .ghash = fc_ghash_generic,
    .enc = fc_gcm_enc_generic,
    .dec = fc_gcm_dec_generic,
    /* Not for speed: so that every machine (valgrind too) runs the state
     * machine's path for a kernel's partial block. */
    .enc_bytes = fc_gcm_enc_bytes_generic,
    .dec_bytes = fc_gcm_dec_bytes_generic,
};

#if defined(__x86_64__) && !defined(FC_NO_ASM)
/* required_caps spell out fc_gcm_vaes_avx512_capable (fc/cpu.h). */
static const fc_gcm_ops fc_gcm_ops_vaes_avx512 = {
    .name = "vaes-avx512",
    .tier = FC_TIER_512,
    .required_caps = FC_CAP_AESNI | FC_CAP_PCLMUL | FC_CAP_SSSE3 |
                     FC_CAP_SSE41 | FC_CAP_AVX | FC_CAP_AVX2 | FC_CAP_VAES |
                     FC_CAP_VPCLMUL | FC_CAP_AVX512 | FC_CAP_BMI2,
    .aes = &fc_aes_ops_aesni,
    .init = fc_gcm_init_vaes_avx512,
    .ghash = fc_ghash_vaes_avx512,
    .enc = fc_gcm_enc_vaes_avx512,
    .dec = fc_gcm_dec_vaes_avx512,
    /* 32 powers cost five dependent multiply levels (~90 c), most of a
     * re-key; a short message reads at most eight of them (three levels),
     * unless its final GHASH pass holds more (the table then grows). */
    .init_part = fc_gcm_init_part_vaes_avx512,
    .grow = fc_gcm_grow_vaes_avx512,
    .part_pow = 8,
    .max_pow = 32,
    /* Key schedule, H and the first powers in one call, H's AES riding
     * on the schedule (aes_gcm_avx512.S). */
    .set_key = fc_gcm_set_key_vaes_avx512,
    /* A record's partial last block in the kernel's masked tail: 1345
     * bytes cost ~45 TSC ticks more than 1344 through C. */
    .enc_bytes = fc_gcm_enc_bytes_vaes_avx512,
    .dec_bytes = fc_gcm_dec_bytes_vaes_avx512,
};

/* required_caps spell out fc_gcm_aesni_avx_capable (fc/cpu.h). */
static const fc_gcm_ops fc_gcm_ops_aesni_avx = {
    .name = "aesni-avx",
    .tier = FC_TIER_128_AVX,
    .required_caps =
        FC_CAP_AESNI | FC_CAP_PCLMUL | FC_CAP_SSSE3 | FC_CAP_SSE41 | FC_CAP_AVX,
    .aes = &fc_aes_ops_aesni,
    .init = fc_gcm_init_aesni_avx,
    .ghash = fc_ghash_aesni_avx,
    .enc = fc_gcm_enc_aesni_avx,
    .dec = fc_gcm_dec_aesni_avx,
};

/* required_caps spell out fc_gcm_vaes_avx2_capable (fc/cpu.h). The wide
 * kernels use the AES-NI key schedule. */
static const fc_gcm_ops fc_gcm_ops_vaes_avx2 = {
    .name = "vaes-avx2",
    .tier = FC_TIER_256,
    .required_caps = FC_CAP_AESNI | FC_CAP_PCLMUL | FC_CAP_SSSE3 |
                     FC_CAP_SSE41 | FC_CAP_AVX | FC_CAP_AVX2 | FC_CAP_VAES |
                     FC_CAP_VPCLMUL,
    .aes = &fc_aes_ops_aesni,
    .init = fc_gcm_init_vaes_avx2,
    .ghash = fc_ghash_vaes_avx2,
    .enc = fc_gcm_enc_vaes_avx2,
    .dec = fc_gcm_dec_vaes_avx2,
};
#endif

#if defined(__aarch64__) && !defined(FC_NO_ASM)
/* The arm64 kernels use the "ce" schedule (rk[r] in FIPS-197 byte order);
 * the sha3 table differs only in merging three-way XORs into EOR3. */
static const fc_gcm_ops fc_gcm_ops_ce_pmull_sha3 = {
    .name = "ce-pmull-sha3",
    .tier = FC_TIER_128,
    .required_caps = FC_CAP_ARM_AES | FC_CAP_ARM_PMULL | FC_CAP_ARM_SHA3,
    .aes = &fc_aes_ops_ce,
    .init = fc_gcm_init_ce,
    .ghash = fc_ghash_ce_sha3,
    .enc = fc_gcm_enc_ce_sha3,
    .dec = fc_gcm_dec_ce_sha3,
};

static const fc_gcm_ops fc_gcm_ops_ce_pmull = {
    .name = "ce-pmull",
    .tier = FC_TIER_128,
    .required_caps = FC_CAP_ARM_AES | FC_CAP_ARM_PMULL,
    .aes = &fc_aes_ops_ce,
    .init = fc_gcm_init_ce,
    .ghash = fc_ghash_ce,
    .enc = fc_gcm_enc_ce,
    .dec = fc_gcm_dec_ce,
};
#endif

/* Fastest first; the generic table is always last. */
static const fc_gcm_ops *const fc_gcm_table[] = {
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    &fc_gcm_ops_vaes_avx512,
    &fc_gcm_ops_vaes_avx2,
    &fc_gcm_ops_aesni_avx,
#endif
#if defined(__aarch64__) && !defined(FC_NO_ASM)
    /* EOR3 first: the same kernels with fewer vector ops. */
    &fc_gcm_ops_ce_pmull_sha3,
    &fc_gcm_ops_ce_pmull,
#endif
    &fc_gcm_ops_generic,
};

/* see fc/gcm.h */
const fc_gcm_ops *const *fc_gcm_impls(size_t *count)
{
    *count = FC_ARRAY_LEN(fc_gcm_table);
    return fc_gcm_table;
}

/* see fc/gcm.h */
const fc_gcm_ops *fc_gcm_select(uint32_t caps, const fc_tuning *tuning)
{
    /* Features say what can run; the row says whether the zmm tier beats
     * the ymm one on this core (fc/tuning.h). */
    const int zmm_ok = tuning != NULL && tuning->aes_zmm;

    return fc_kernel_select((const void *const *)fc_gcm_table,
                            FC_ARRAY_LEN(fc_gcm_table), caps,
                            zmm_ok ? FC_TIER_512 : FC_TIER_256);
}

/* ------------------------------------------------------------------------ */
/* Blocks in registers. */

/*
 * A 16-byte block as two 64-bit lanes in memory order, so that blocks the
 * kernels load are written with one 16-byte store each (a load that spans
 * several smaller stores waits until they retire, ~15 cycles a time on the
 * cores we target), and XORs run on whole blocks. GCC and Clang lower the
 * type to SSE2/NEON registers, or to pairs of words where there are none.
 */
typedef uint64_t fc_blk __attribute__((vector_size(16)));

static inline fc_blk fc_blk_load(const uint8_t *p)
{
    fc_blk v;

    memcpy(&v, p, 16);
    return v;
}

static inline void fc_blk_store(uint8_t *p, fc_blk v)
{
    memcpy(p, &v, 16);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The first |n| (0..8) bytes at |p| in the low bytes of a word, zeros
 * above: two overlapping loads, nothing read past p[n - 1]. */
static inline uint64_t fc_load_partial64(const uint8_t *p, size_t n)
{
    uint32_t a, b;

    if (n >= 4) {
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        return a | (uint64_t)b << (8 * (n - 4));
    }
    if (n == 0)
        return 0;
    return p[0] | (uint64_t)p[n / 2] << (8 * (n / 2)) |
           (uint64_t)p[n - 1] << (8 * (n - 1));
}

/* Stores the low |n| (0..8) bytes of |v| at |p|, nothing past p[n - 1]. */
static inline void fc_store_partial64(uint8_t *p, uint64_t v, size_t n)
{
    uint32_t a = (uint32_t)v, b;

    if (n >= 4) {
        b = (uint32_t)(v >> (8 * (n - 4)));
        memcpy(p + n - 4, &b, 4);
        memcpy(p, &a, 4);
    } else if (n > 0) {
        p[n - 1] = (uint8_t)(v >> (8 * (n - 1)));
        p[n / 2] = (uint8_t)(v >> (8 * (n / 2)));
        p[0] = (uint8_t)v;
    }
}

/* The first |n| (0..16) bytes at |p|, zero-padded. */
static inline fc_blk fc_blk_load_partial(const uint8_t *p, size_t n)
{
    if (n >= 8)
        return (fc_blk){fc_load_partial64(p, 8),
                        fc_load_partial64(p + 8, n - 8)};
    return (fc_blk){fc_load_partial64(p, n), 0};
}

/* Stores the first |n| (0..16) bytes of |v| at |p|. */
static inline void fc_blk_store_partial(uint8_t *p, fc_blk v, size_t n)
{
    if (n >= 8) {
        fc_store_partial64(p, v[0], 8);
        fc_store_partial64(p + 8, v[1], n - 8);
    } else {
        fc_store_partial64(p, v[0], n);
    }
}

/* All-ones in the first |n| (0..16) bytes. */
static inline fc_blk fc_blk_mask(size_t n)
{
    uint64_t lo = n >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * n)) - 1;
    uint64_t hi = n >= 16  ? ~(uint64_t)0
                  : n <= 8 ? 0
                           : ((uint64_t)1 << (8 * (n - 8))) - 1;

    return (fc_blk){lo, hi};
}

/* Block |b| with its last 4 bytes (inc32's counter, big-endian) set to
 * |c|. */
static inline fc_blk fc_blk_with_ctr(fc_blk b, uint32_t c)
{
    b[1] = (b[1] & 0xffffffffu) | (uint64_t)__builtin_bswap32(c) << 32;
    return b;
}

/* The counter of block |b|. */
static inline uint32_t fc_blk_ctr(fc_blk b)
{
    return __builtin_bswap32((uint32_t)(b[1] >> 32));
}

/* [len(A)]_64 || [len(C)]_64 in bits, big-endian. */
static inline fc_blk fc_blk_lengths(uint64_t aad_len, uint64_t msg_len)
{
    return (fc_blk){__builtin_bswap64(aad_len * 8),
                    __builtin_bswap64(msg_len * 8)};
}
#else
/* Any other byte order: the same operations byte by byte. */
static inline fc_blk fc_blk_load_partial(const uint8_t *p, size_t n)
{
    uint8_t b[16] = {0};

    memcpy(b, p, n);
    return fc_blk_load(b);
}

static inline void fc_blk_store_partial(uint8_t *p, fc_blk v, size_t n)
{
    uint8_t b[16];

    fc_blk_store(b, v);
    memcpy(p, b, n);
}

static inline fc_blk fc_blk_mask(size_t n)
{
    uint8_t b[16] = {0};

    memset(b, 0xff, n);
    return fc_blk_load(b);
}

static inline fc_blk fc_blk_with_ctr(fc_blk v, uint32_t c)
{
    uint8_t b[16];

    fc_blk_store(b, v);
    fc_store_be32(b + 12, c);
    return fc_blk_load(b);
}

static inline uint32_t fc_blk_ctr(fc_blk v)
{
    uint8_t b[16];

    fc_blk_store(b, v);
    return fc_load_be32(b + 12);
}

static inline fc_blk fc_blk_lengths(uint64_t aad_len, uint64_t msg_len)
{
    uint8_t b[16];

    fc_store_be64(b, aad_len * 8);
    fc_store_be64(b + 8, msg_len * 8);
    return fc_blk_load(b);
}
#endif

/* ------------------------------------------------------------------------ */
/* Key and message state. */

/* The zero key, IV and plaintext of the first self-test case. */
static const uint8_t fc_gcm_zero[16];

/* see fc/gcm.h */
void fc_gcm_set_key(fc_gcm_key *key, const fc_gcm_ops *ops,
                    const uint8_t *user_key, size_t key_bytes)
{
    uint8_t h[16] = {0};

    key->ops = ops;
    if (ops->set_key != NULL) {
        ops->set_key(key, user_key, key_bytes);
        key->hmax = ops->part_pow;
        return;
    }
    ops->aes->set_enc_key(&key->aes, user_key, key_bytes);
    ops->aes->ecb_enc(&key->aes, h, h, 1);
    if (ops->init_part != NULL) {
        ops->init_part(key->htable, h);
        key->hmax = ops->part_pow;
    } else {
        ops->init(key->htable, h);
        key->hmax = SIZE_MAX;
    }
    fc_memzero(h, sizeof(h));
}

/*
 * Grows the table for a call of |blocks| blocks: to the smallest doubling
 * of the powers present that covers them, or to the whole table. Lengths
 * are public, so is the branch.
 */
__attribute__((noinline)) static void fc_gcm_grow(fc_gcm_key *key,
                                                  size_t blocks)
{
    const fc_gcm_ops *ops = key->ops;
    size_t want = key->hmax;

    while (want < blocks && want < ops->max_pow)
        want *= 2;
    ops->grow(key->htable, key->hmax, want);
    key->hmax = want < ops->max_pow ? want : SIZE_MAX;
}

/* Makes sure a kernel call of |blocks| blocks finds its powers of H. */
static inline void fc_gcm_need(fc_gcm_key *key, size_t blocks)
{
    if (FC_UNLIKELY(blocks > key->hmax))
        fc_gcm_grow(key, blocks);
}

/* see fc/gcm.h */
void fc_gcm_key_complete(fc_gcm_key *key)
{
    fc_gcm_need(key, SIZE_MAX);
}

/* see fc/gcm.h */
int fc_gcm_set_iv(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *iv,
                  size_t iv_len)
{
    fc_blk j0;

    if (iv_len == 0 || (uint64_t)iv_len > FC_GCM_MAX_IV_BYTES)
        return 0;
    if (iv_len == 12) {
        /* The 96-bit fast path: J0 = IV || 0^31 || 1. */
        j0 = fc_blk_with_ctr(fc_blk_load_partial(iv, 12), 1);
    } else {
        /* J0 = GHASH(IV || 0^(s+64) || [len(IV)]_64) from a zero start.
         * The last, padded IV block and the length block go to the
         * kernel in one call. */
        const fc_gcm_ops *ops = key->ops;
        size_t full = iv_len / 16, rem = iv_len % 16;
        FC_ALIGN(16) uint8_t last[32];
        uint8_t x[16] = {0};

        fc_blk_store(last, fc_blk_load_partial(iv + 16 * full, rem));
        fc_blk_store(last + 16, fc_blk_lengths(0, (uint64_t)iv_len));
        fc_gcm_need(key, full > 2 ? full : 2);
        ops->ghash(key->htable, x, iv, full);
        if (rem != 0)
            ops->ghash(key->htable, x, last, 2);
        else
            ops->ghash(key->htable, x, last + 16, 1);
        j0 = fc_blk_load(x);
    }
    /* E(K, J0) and the keystream of the first data block, inc32(J0), in
     * one ECB call: a caller that sets the IV ahead of the data (an IV-only
     * init per record) has the AES done before the data comes. */
    {
        FC_ALIGN(16) uint8_t cb[2][16];
        const fc_blk c1 = fc_blk_with_ctr(j0, fc_blk_ctr(j0) + 1);

        fc_blk_store(cb[0], j0);
        fc_blk_store(cb[1], c1);
        key->ops->aes->ecb_enc(&key->aes, cb[0], cb[0], 2);
        fc_blk_store(st->ek0, fc_blk_load(cb[0]));
        fc_blk_store(st->ks, fc_blk_load(cb[1]));
        fc_blk_store(st->ctr, c1);
        fc_blk_store(cb[0], (fc_blk){0, 0});
        fc_blk_store(cb[1], (fc_blk){0, 0});
        __asm__ __volatile__("" : : "r"(cb) : "memory");
    }
    fc_blk_store(st->xi, (fc_blk){0, 0});
    st->aad_len = 0;
    st->msg_len = 0;
    st->ares = 0;
    st->mres = 0;
    st->npend = 0;
    st->ks_ready = 1;
    st->mdone = 0;
    return 1;
}

/* Absorbs the whole blocks of |pend| into xi; an unfinished block moves to
 * the front. */
static void fc_gcm_pend_flush(fc_gcm_key *key, fc_gcm_state *st)
{
    if (st->npend == 0)
        return;
    fc_gcm_need(key, st->npend);
    key->ops->ghash(key->htable, st->xi, st->pend[0], st->npend);
    if (st->ares != 0 || st->mres != 0)
        fc_blk_store(st->pend[0], fc_blk_load(st->pend[st->npend]));
    st->npend = 0;
}

/* The unfinished block is whole now (or closed, zero-padded): it joins the
 * whole blocks, which are absorbed if they leave no room for another
 * unfinished block and the length block. */
static inline void fc_gcm_pend_close(fc_gcm_key *key, fc_gcm_state *st)
{
    st->ares = 0;
    st->mres = 0;
    if (++st->npend > FC_GCM_PEND_BLOCKS - 2)
        fc_gcm_pend_flush(key, st);
}

/* see fc/gcm.h */
int fc_gcm_aad(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *aad,
               size_t len)
{
    size_t full;

    if (len == 0)
        return 1;
    if (st->msg_len != 0 || (uint64_t)len > FC_GCM_MAX_AAD_BYTES - st->aad_len)
        return 0;
    st->aad_len += len;

    /* Top up an unfinished block (AAD in pieces; zeros after its bytes). */
    if (st->ares != 0) {
        uint8_t *b = st->pend[st->npend];

        while (st->ares < 16 && len > 0) {
            b[st->ares++] = *aad++;
            len--;
        }
        if (st->ares < 16)
            return 1;
        fc_gcm_pend_close(key, st);
    }
    full = len / 16;
    if (full > FC_GCM_PEND_BLOCKS - 2 - st->npend) {
        /* More than the buffer holds: straight from the input. */
        fc_gcm_pend_flush(key, st);
        fc_gcm_need(key, full);
        key->ops->ghash(key->htable, st->xi, aad, full);
    } else {
        for (size_t i = 0; i < full; i++)
            fc_blk_store(st->pend[st->npend + i], fc_blk_load(aad + 16 * i));
        st->npend += (uint32_t)full;
    }
    aad += 16 * full;
    len -= 16 * full;
    if (len != 0) {
        fc_blk_store(st->pend[st->npend], fc_blk_load_partial(aad, len));
        st->ares = (uint32_t)len;
    }
    return 1;
}

/*
 * |full| whole blocks and |rem| (0..15) bytes of data, at most
 * FC_GCM_SHORT_BLOCKS blocks in all, with room for them in |pend|: the
 * keystream from |ks| for the first block if set_iv left it there, and
 * from one ECB call over the counter blocks for the others; the data XORed
 * block by block; the ciphertext blocks appended to |pend|, a partial last
 * one as the unfinished block.
 */
static void fc_gcm_short(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *in,
                         uint8_t *out, size_t full, size_t rem, int enc)
{
    FC_ALIGN(16) uint8_t cb[FC_GCM_SHORT_BLOCKS][16];
    const size_t nb = full + (rem != 0);
    const fc_blk ctr = fc_blk_load(st->ctr);
    const uint32_t c0 = fc_blk_ctr(ctr);
    uint8_t *pb = st->pend[st->npend];
    size_t first = 0;

    if (st->ks_ready) {
        fc_blk_store(cb[0], fc_blk_load(st->ks));
        st->ks_ready = 0;
        first = 1;
    }
    if (nb > first) {
        for (size_t i = first; i < nb; i++)
            fc_blk_store(cb[i], fc_blk_with_ctr(ctr, c0 + (uint32_t)i));
        key->ops->aes->ecb_enc(&key->aes, cb[first], cb[first], nb - first);
    }
    /* Each input block is read before its output is written: in == out
     * works. */
    for (size_t i = 0; i < full; i++) {
        fc_blk x = fc_blk_load(in + 16 * i);
        fc_blk y = x ^ fc_blk_load(cb[i]);

        fc_blk_store(out + 16 * i, y);
        fc_blk_store(pb + 16 * i, enc ? y : x);
    }
    if (rem != 0) {
        fc_blk k = fc_blk_load(cb[full]);
        fc_blk x = fc_blk_load_partial(in + 16 * full, rem);
        fc_blk y = x ^ k;

        fc_blk_store_partial(out + 16 * full, y, rem);
        fc_blk_store(pb + 16 * full, enc ? y & fc_blk_mask(rem) : x);
        /* Kept for the next call, which may go on in this block. */
        fc_blk_store(st->ks, k);
    }
    st->npend += (uint32_t)full;
    st->mres = (uint32_t)rem;
    fc_blk_store(st->ctr, fc_blk_with_ctr(ctr, c0 + (uint32_t)nb));
    /* The keystream does not stay on the stack: the blocks used, in
     * vector stores (a memset here became a slow-starting rep stos). */
    for (size_t i = 0; i < nb; i++)
        fc_blk_store(cb[i], (fc_blk){0, 0});
    __asm__ __volatile__("" : : "r"(cb) : "memory");
}

/*
 * Whole blocks through the CTR+GHASH kernel, in one call. SP 800-38D's
 * inc32 wraps the low 32 bits of the counter without carrying into the
 * rest; the kernels implement exactly that (fc/gcm.h), so a run that
 * crosses 2^32 needs no special case here, and neither the kernel nor this
 * function branches on the counter, which is secret for IVs other than 96
 * bits (J0 = GHASH_H(IV)). The write-back is the same inc32: a 32-bit add.
 */
static void fc_gcm_blocks(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *in,
                          uint8_t *out, size_t blocks, int enc)
{
    fc_gcm_crypt_fn *fn = enc ? key->ops->enc : key->ops->dec;
    fc_blk ctr = fc_blk_load(st->ctr);

    fc_gcm_need(key, blocks);
    fn(key, in, out, blocks, st->ctr, st->xi);
    fc_blk_store(st->ctr,
                 fc_blk_with_ctr(ctr, fc_blk_ctr(ctr) + (uint32_t)blocks));
}

/*
 * |len| bytes, whole blocks and a partial last one, through a _bytes
 * kernel in one call: the partial block goes into xi zero-padded, and is
 * the unfinished block from here on (mdone).
 */
static void fc_gcm_bytes(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *in,
                         uint8_t *out, size_t len, int enc)
{
    fc_gcm_crypt_bytes_fn *fn = enc ? key->ops->enc_bytes : key->ops->dec_bytes;
    const size_t blocks = (len + 15) / 16;
    fc_blk ctr = fc_blk_load(st->ctr);

    fc_gcm_need(key, blocks);
    fn(key, in, out, len, st->ctr, st->xi);
    fc_blk_store(st->ctr,
                 fc_blk_with_ctr(ctr, fc_blk_ctr(ctr) + (uint32_t)blocks));
    st->mres = (uint32_t)(len % 16);
    st->mdone = 1;
}

/*
 * Goes on in the block a _bytes kernel left unfinished; it is in xi
 * already, zero-padded. GHASH is linear, (xi' ^ p ^ b) H = (xi' ^ p) H ^
 * b H, so the bytes added now are absorbed on their own: xi ^= b H, b
 * being those bytes in their places and zeros elsewhere. Their keystream
 * is made again from the block's counter, the one before |ctr| (inc32
 * back by one: an addition, no branch on the counter). Returns the bytes
 * taken; the block is done (mres = 0, mdone = 0) if it is whole.
 */
__attribute__((noinline)) static size_t
fc_gcm_continue(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *in,
                uint8_t *out, size_t len, int enc)
{
    FC_ALIGN(16) uint8_t ks[16], b[16] = {0}, t[16] = {0};
    const fc_blk ctr = fc_blk_load(st->ctr);
    size_t n = 0;

    fc_blk_store(ks, fc_blk_with_ctr(ctr, fc_blk_ctr(ctr) - 1));
    key->ops->aes->ecb_enc(&key->aes, ks, ks, 1);
    /* Each byte read before it is written: in == out works. */
    for (; st->mres < 16 && n < len; n++) {
        uint8_t x = in[n], y = (uint8_t)(x ^ ks[st->mres]);

        out[n] = y;
        b[st->mres++] = enc ? y : x;
    }
    key->ops->ghash(key->htable, t, b, 1);
    fc_blk_store(st->xi, fc_blk_load(st->xi) ^ fc_blk_load(t));
    if (st->mres == 16) {
        st->mres = 0;
        st->mdone = 0;
    }
    fc_memzero(ks, sizeof(ks));
    fc_memzero(b, sizeof(b));
    fc_memzero(t, sizeof(t));
    return n;
}

static int fc_gcm_crypt(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *in,
                        uint8_t *out, size_t len, int enc)
{
    size_t full, rem;

    if ((uint64_t)len > FC_GCM_MAX_MSG_BYTES - st->msg_len)
        return 0;
    if (len == 0)
        return 1;
    /* AAD ends here: its last block is closed (zero-padded already). */
    if (st->ares != 0)
        fc_gcm_pend_close(key, st);
    st->msg_len += len;

    /* Go on in the block a previous call started: keystream from |ks|,
     * the ciphertext byte (read when decrypting, computed when encrypting,
     * before |out| is written, so in == out works) into the unfinished
     * block; or, where a kernel hashed that block already, into xi. */
    if (st->mres != 0 && st->mdone) {
        size_t n = fc_gcm_continue(key, st, in, out, len, enc);

        in += n;
        out += n;
        len -= n;
        if (len == 0)
            return 1;
    } else if (st->mres != 0) {
        uint8_t *b = st->pend[st->npend];

        while (st->mres < 16 && len > 0) {
            uint8_t x = *in++, y = (uint8_t)(x ^ st->ks[st->mres]);

            *out++ = y;
            b[st->mres++] = enc ? y : x;
            len--;
        }
        if (st->mres < 16)
            return 1;
        fc_gcm_pend_close(key, st);
        if (len == 0)
            return 1;
    }

    full = len / 16;
    rem = len % 16;
    if (full + (rem != 0) <= FC_GCM_SHORT_BLOCKS) {
        if (full > FC_GCM_PEND_BLOCKS - 2 - st->npend)
            fc_gcm_pend_flush(key, st);
        fc_gcm_short(key, st, in, out, full, rem, enc);
        return 1;
    }
    /* The kernel hashes into xi: what is pending goes first. It makes its
     * own keystream from the counter; set_iv's first block is dropped. A
     * partial last block goes into the same kernel call where the kernel
     * takes one (ops->enc_bytes); otherwise its keystream is made before
     * the kernel runs, so that its AES overlaps the kernel's instead of
     * following it, and the block itself then goes as a short message of
     * one block. */
    fc_gcm_pend_flush(key, st);
    st->ks_ready = 0;
    if (rem != 0 && key->ops->enc_bytes != NULL) {
        fc_gcm_bytes(key, st, in, out, len, enc);
        return 1;
    }
    if (rem != 0) {
        const fc_blk ctr = fc_blk_load(st->ctr);
        FC_ALIGN(16) uint8_t cb[16];

        fc_blk_store(cb,
                     fc_blk_with_ctr(ctr, fc_blk_ctr(ctr) + (uint32_t)full));
        key->ops->aes->ecb_enc(&key->aes, cb, cb, 1);
        fc_blk_store(st->ks, fc_blk_load(cb));
        fc_blk_store(cb, (fc_blk){0, 0});
        __asm__ __volatile__("" : : "r"(cb) : "memory");
    }
    fc_gcm_blocks(key, st, in, out, full, enc);
    if (rem != 0) {
        st->ks_ready = 1;
        fc_gcm_short(key, st, in + 16 * full, out + 16 * full, 0, rem, enc);
    }
    return 1;
}

/* see fc/gcm.h */
int fc_gcm_encrypt(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *in,
                   uint8_t *out, size_t len)
{
    return fc_gcm_crypt(key, st, in, out, len, 1);
}

/* see fc/gcm.h */
int fc_gcm_decrypt(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *in,
                   uint8_t *out, size_t len)
{
    return fc_gcm_crypt(key, st, in, out, len, 0);
}

/* Ends the message (fc_gcm_finish) and returns the full tag. */
static fc_blk fc_gcm_tag(fc_gcm_key *key, fc_gcm_state *st)
{
    fc_blk t;

    /* The unfinished block (zero-padded), then the length block: the
     * buffer always has room for both (fc/gcm.h). */
    if (st->ares != 0 || (st->mres != 0 && !st->mdone))
        st->npend++;
    fc_blk_store(st->pend[st->npend++],
                 fc_blk_lengths(st->aad_len, st->msg_len));
    fc_gcm_need(key, st->npend);
    key->ops->ghash(key->htable, st->xi, st->pend[0], st->npend);
    t = fc_blk_load(st->xi) ^ fc_blk_load(st->ek0);
    /* Nothing of the keystream outlives the message. */
    fc_memzero(st->ks, sizeof(st->ks));
    fc_memzero(st->ek0, sizeof(st->ek0));
    st->ares = 0;
    st->mres = 0;
    st->npend = 0;
    st->ks_ready = 0;
    st->mdone = 0;
    return t;
}

/* see fc/gcm.h */
void fc_gcm_finish(fc_gcm_key *key, fc_gcm_state *st,
                   uint8_t tag[FC_GCM_TAG_BYTES])
{
    fc_blk_store(tag, fc_gcm_tag(key, st));
}

/* see fc/gcm.h */
int fc_gcm_verify(fc_gcm_key *key, fc_gcm_state *st, const uint8_t *tag,
                  size_t tag_len)
{
    fc_blk d;
    uint64_t ok;

    if (tag_len == 0 || tag_len > FC_GCM_TAG_BYTES)
        return 0;
    /* The first |tag_len| bytes, all of them, in two words: no early
     * exit, and nothing but the length decides a branch. */
    d = (fc_gcm_tag(key, st) ^ fc_blk_load_partial(tag, tag_len)) &
        fc_blk_mask(tag_len);
    ok = fc_ct_is_zero(d[0] | d[1]);
    /* The verdict is the one public output. */
    FC_CT_PUBLIC(&ok, sizeof(ok));
    return (int)(ok & 1);
}

/* ------------------------------------------------------------------------ */
/* Self test. */

/*
 * McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)", test
 * cases 2, 4, 6 and 16 (the SP 800-38D examples): zero key and block;
 * AES-128 with a 96-bit IV, 20 bytes of AAD and a 60-byte message; the same
 * with a 480-bit IV; and AES-256 with a 96-bit IV.
 */
static const uint8_t fc_st_k128[16] = {0xfe, 0xff, 0xe9, 0x92, 0x86, 0x65,
                                       0x73, 0x1c, 0x6d, 0x6a, 0x8f, 0x94,
                                       0x67, 0x30, 0x83, 0x08};
static const uint8_t fc_st_iv96[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce,
                                       0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};
static const uint8_t fc_st_iv480[60] = {
    0x93, 0x13, 0x22, 0x5d, 0xf8, 0x84, 0x06, 0xe5, 0x55, 0x90, 0x9c, 0x5a,
    0xff, 0x52, 0x69, 0xaa, 0x6a, 0x7a, 0x95, 0x38, 0x53, 0x4f, 0x7d, 0xa1,
    0xe4, 0xc3, 0x03, 0xd2, 0xa3, 0x18, 0xa7, 0x28, 0xc3, 0xc0, 0xc9, 0x51,
    0x56, 0x80, 0x95, 0x39, 0xfc, 0xf0, 0xe2, 0x42, 0x9a, 0x6b, 0x52, 0x54,
    0x16, 0xae, 0xdb, 0xf5, 0xa0, 0xde, 0x6a, 0x57, 0xa6, 0x37, 0xb3, 0x9b};
static const uint8_t fc_st_aad[20] = {0xfe, 0xed, 0xfa, 0xce, 0xde, 0xad, 0xbe,
                                      0xef, 0xfe, 0xed, 0xfa, 0xce, 0xde, 0xad,
                                      0xbe, 0xef, 0xab, 0xad, 0xda, 0xd2};
static const uint8_t fc_st_pt[60] = {
    0xd9, 0x31, 0x32, 0x25, 0xf8, 0x84, 0x06, 0xe5, 0xa5, 0x59, 0x09, 0xc5,
    0xaf, 0xf5, 0x26, 0x9a, 0x86, 0xa7, 0xa9, 0x53, 0x15, 0x34, 0xf7, 0xda,
    0x2e, 0x4c, 0x30, 0x3d, 0x8a, 0x31, 0x8a, 0x72, 0x1c, 0x3c, 0x0c, 0x95,
    0x95, 0x68, 0x09, 0x53, 0x2f, 0xcf, 0x0e, 0x24, 0x49, 0xa6, 0xb5, 0x25,
    0xb1, 0x6a, 0xed, 0xf5, 0xaa, 0x0d, 0xe6, 0x57, 0xba, 0x63, 0x7b, 0x39};

static const struct {
    const uint8_t *key, *iv, *aad, *pt;
    size_t key_len, iv_len, aad_len, len;
    uint8_t ct[60];
    uint8_t tag[16];
} fc_st_gcm[] = {
    /* Test case 2. */
    {fc_gcm_zero,
     fc_gcm_zero,
     fc_gcm_zero,
     fc_gcm_zero,
     16,
     12,
     0,
     16,
     {0x03, 0x88, 0xda, 0xce, 0x60, 0xb6, 0xa3, 0x92, 0xf3, 0x28, 0xc2, 0xb9,
      0x71, 0xb2, 0xfe, 0x78},
     {0xab, 0x6e, 0x47, 0xd4, 0x2c, 0xec, 0x13, 0xbd, 0xf5, 0x3a, 0x67, 0xb2,
      0x12, 0x57, 0xbd, 0xdf}},
    /* Test case 4. */
    {fc_st_k128,
     fc_st_iv96,
     fc_st_aad,
     fc_st_pt,
     16,
     12,
     20,
     60,
     {0x42, 0x83, 0x1e, 0xc2, 0x21, 0x77, 0x74, 0x24, 0x4b, 0x72, 0x21, 0xb7,
      0x84, 0xd0, 0xd4, 0x9c, 0xe3, 0xaa, 0x21, 0x2f, 0x2c, 0x02, 0xa4, 0xe0,
      0x35, 0xc1, 0x7e, 0x23, 0x29, 0xac, 0xa1, 0x2e, 0x21, 0xd5, 0x14, 0xb2,
      0x54, 0x66, 0x93, 0x1c, 0x7d, 0x8f, 0x6a, 0x5a, 0xac, 0x84, 0xaa, 0x05,
      0x1b, 0xa3, 0x0b, 0x39, 0x6a, 0x0a, 0xac, 0x97, 0x3d, 0x58, 0xe0, 0x91},
     {0x5b, 0xc9, 0x4f, 0xbc, 0x32, 0x21, 0xa5, 0xdb, 0x94, 0xfa, 0xe9, 0x5a,
      0xe7, 0x12, 0x1a, 0x47}},
    /* Test case 6. */
    {fc_st_k128,
     fc_st_iv480,
     fc_st_aad,
     fc_st_pt,
     16,
     60,
     20,
     60,
     {0x8c, 0xe2, 0x49, 0x98, 0x62, 0x56, 0x15, 0xb6, 0x03, 0xa0, 0x33, 0xac,
      0xa1, 0x3f, 0xb8, 0x94, 0xbe, 0x91, 0x12, 0xa5, 0xc3, 0xa2, 0x11, 0xa8,
      0xba, 0x26, 0x2a, 0x3c, 0xca, 0x7e, 0x2c, 0xa7, 0x01, 0xe4, 0xa9, 0xa4,
      0xfb, 0xa4, 0x3c, 0x90, 0xcc, 0xdc, 0xb2, 0x81, 0xd4, 0x8c, 0x7c, 0x6f,
      0xd6, 0x28, 0x75, 0xd2, 0xac, 0xa4, 0x17, 0x03, 0x4c, 0x34, 0xae, 0xe5},
     {0x61, 0x9c, 0xc5, 0xae, 0xff, 0xfe, 0x0b, 0xfa, 0x46, 0x2a, 0xf4, 0x3c,
      0x16, 0x99, 0xd0, 0x50}},
    /* Test case 16 (the key is the AES-128 key twice). */
    {NULL,
     fc_st_iv96,
     fc_st_aad,
     fc_st_pt,
     32,
     12,
     20,
     60,
     {0x52, 0x2d, 0xc1, 0xf0, 0x99, 0x56, 0x7d, 0x07, 0xf4, 0x7f, 0x37, 0xa3,
      0x2a, 0x84, 0x42, 0x7d, 0x64, 0x3a, 0x8c, 0xdc, 0xbf, 0xe5, 0xc0, 0xc9,
      0x75, 0x98, 0xa2, 0xbd, 0x25, 0x55, 0xd1, 0xaa, 0x8c, 0xb0, 0x8e, 0x48,
      0x59, 0x0d, 0xbb, 0x3d, 0xa7, 0xb0, 0x8b, 0x10, 0x56, 0x82, 0x88, 0x38,
      0xc5, 0xf6, 0x1e, 0x63, 0x93, 0xba, 0x7a, 0x0a, 0xbc, 0xc9, 0xf6, 0x62},
     {0x76, 0xfc, 0x6e, 0xce, 0x0f, 0x4e, 0x17, 0x68, 0xcd, 0xdf, 0x88, 0x53,
      0xbb, 0x2d, 0x55, 0x1b}},
};

/* Length of the cross-check message: two 32-block groups plus 5 blocks
 * and 7 bytes, so every kernel's main loop runs more than once (the zmm
 * tier's encryption: a group without and one with the stitched hash,
 * then a tail with a group pending), and the block tail and a partial
 * block run too. */
#define FC_ST_XLEN (16 * 69 + 7)

/* One encrypt-then-decrypt under |ops| with the given pieces; the AAD is
 * fed in two pieces and the data in the pieces |cut| gives (offsets into
 * the data, increasing, ending with |len|). Returns 1 if the decryption
 * restores |pt| and verifies, writes ciphertext and tag. */
static int fc_st_run(const fc_gcm_ops *ops, fc_gcm_key *key, const uint8_t *k,
                     size_t klen, const uint8_t *iv, size_t ivlen,
                     const uint8_t *aad, size_t alen, const uint8_t *pt,
                     size_t len, const size_t *cut, size_t ncut, uint8_t *ct,
                     uint8_t *buf, uint8_t tag[16])
{
    fc_gcm_state st;
    size_t a1 = alen / 3, off = 0;
    int ok = 1;

    fc_gcm_set_key(key, ops, k, klen);
    ok &= fc_gcm_set_iv(key, &st, iv, ivlen);
    ok &= fc_gcm_aad(key, &st, aad, a1);
    ok &= fc_gcm_aad(key, &st, aad + a1, alen - a1);
    for (size_t i = 0; i < ncut; i++) {
        ok &= fc_gcm_encrypt(key, &st, pt + off, ct + off, cut[i] - off);
        off = cut[i];
    }
    fc_gcm_finish(key, &st, tag);

    /* Decrypt in place, in the same pieces. */
    memcpy(buf, ct, len);
    ok &= fc_gcm_set_iv(key, &st, iv, ivlen);
    ok &= fc_gcm_aad(key, &st, aad, alen);
    off = 0;
    for (size_t i = 0; i < ncut; i++) {
        ok &= fc_gcm_decrypt(key, &st, buf + off, buf + off, cut[i] - off);
        off = cut[i];
    }
    ok &= fc_gcm_verify(key, &st, tag, 16);
    ok &= memcmp(buf, pt, len) == 0;
    return ok;
}

/* see fc/gcm.h */
int fc_gcm_self_test(const fc_gcm_ops *ops)
{
    fc_gcm_key key;
    uint8_t k256[32], ct[FC_ST_XLEN], ct2[FC_ST_XLEN], buf[FC_ST_XLEN];
    uint8_t pt[FC_ST_XLEN], tag[16], tag2[16];
    int ok = 1;

    memcpy(k256, fc_st_k128, 16);
    memcpy(k256 + 16, fc_st_k128, 16);
    for (size_t t = 0; t < FC_ARRAY_LEN(fc_st_gcm); t++) {
        size_t len = fc_st_gcm[t].len;
        /* Uneven pieces: 1 byte, up to 17, the rest. */
        size_t cut[3] = {1, len > 17 ? 17 : len, len};

        ok &= fc_st_run(ops, &key, fc_st_gcm[t].key ? fc_st_gcm[t].key : k256,
                        fc_st_gcm[t].key_len, fc_st_gcm[t].iv,
                        fc_st_gcm[t].iv_len, fc_st_gcm[t].aad,
                        fc_st_gcm[t].aad_len, fc_st_gcm[t].pt, len, cut, 3, ct,
                        buf, tag);
        ok &= memcmp(ct, fc_st_gcm[t].ct, len) == 0;
        ok &= memcmp(tag, fc_st_gcm[t].tag, 16) == 0;
    }

    if (ops != &fc_gcm_ops_generic) {
        /* Accelerated kernels against the generic ones, one long piece
         * and then uneven ones, AES-256 with the 480-bit IV. */
        size_t one[1] = {FC_ST_XLEN};
        size_t cuts[4] = {3, 3 + 16 * 9, 3 + 16 * 58 + 5, FC_ST_XLEN};

        for (size_t i = 0; i < FC_ST_XLEN; i++)
            pt[i] = (uint8_t)(i * 7 + 3);
        ok &= fc_st_run(&fc_gcm_ops_generic, &key, k256, 32, fc_st_iv480, 60,
                        fc_st_aad, 20, pt, FC_ST_XLEN, one, 1, ct2, buf, tag2);
        ok &= fc_st_run(ops, &key, k256, 32, fc_st_iv480, 60, fc_st_aad, 20, pt,
                        FC_ST_XLEN, one, 1, ct, buf, tag);
        ok &= memcmp(ct, ct2, FC_ST_XLEN) == 0 && memcmp(tag, tag2, 16) == 0;
        ok &= fc_st_run(ops, &key, k256, 32, fc_st_iv480, 60, fc_st_aad, 20, pt,
                        FC_ST_XLEN, cuts, 4, ct, buf, tag);
        ok &= memcmp(ct, ct2, FC_ST_XLEN) == 0 && memcmp(tag, tag2, 16) == 0;
    }
    fc_memzero(&key, sizeof(key));
    return ok;
}
