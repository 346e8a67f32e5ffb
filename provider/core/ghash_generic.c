/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ghash_generic.c - portable constant-time GCM kernels: GHASH by carry-less
 * multiplication built from ordinary integer multiplies, and CTR encryption
 * through the generic (bitsliced) AES. The fallback when the CPU lacks the
 * instructions the assembly kernels need, and the oracle the tests compare
 * those kernels against.
 *
 * Math
 * ----
 * GHASH works in GF(2^128) = GF(2)[x] / (x^128 + x^7 + x^2 + x + 1). SP
 * 800-38D writes a field element as a 16-byte string whose first bit (the
 * most significant bit of byte 0) is the coefficient of x^0. Reading the
 * string as a big-endian 128-bit integer A therefore puts the coefficient
 * of x^i at integer bit 127 - i: A is the bit-reversal ("reflection") of
 * the polynomial. We keep every value in that reflected form, as two 64-bit
 * words (a1 = bytes 0..7, a0 = bytes 8..15), and never reverse bits per
 * block.
 *
 * Products of reflected values. Carry-less multiplication commutes with
 * reflection up to one position: if A, B reflect a, b (degree < 128), bit k
 * of the 255-bit carry-less product A*B is the coefficient of x^(254 - k)
 * of a*b. Shifted left by one bit, the product D = (A*B) << 1 is the
 * 256-bit reflection of a*b: coefficient m at bit 255 - m. So the upper
 * half of D holds x^0..x^127, the lower half x^128..x^255.
 *
 * Reduction. x^128 = x^7 + x^2 + x + 1, so a term x^(128+t) becomes
 * x^t + x^(t+1) + x^(t+2) + x^(t+7). In D's bit numbering, a coefficient at
 * bit b (degree 255 - b >= 128) moves to bits b+128, b+127, b+126 and b+121.
 * With D = w3:w2:w1:w0 (64-bit words, w3 most significant), folding w0
 * adds w0 ^ w0>>1 ^ w0>>2 ^ w0>>7 into w2 and w0<<63 ^ w0<<62 ^ w0<<57 into
 * w1 (the bits that cross the word boundary); folding the updated w1 the
 * same way into w3:w2 leaves the reduced, reflected result in w3:w2. The
 * second fold cannot overflow again: its spill lands in w2.
 *
 * Carry-less 64x64 multiply from integer multiplies. Integer multiplication
 * is carry-less multiplication plus carries. Keep only every fourth bit of
 * each operand (four masks, "holes" of three bits between data bits): bit
 * k of x_i * y_j then sums only products of bits whose positions are
 * congruent to i + j mod 4, and the carries of that sum land in the three
 * hole positions above it, which belong to other residues and are masked
 * off afterwards. A column of the low 64 bits collects at most
 * floor(k / 4) + 1 <= 16 such products; only a sum of 16 (columns 60..63,
 * all products set) would carry into the next position of its own residue,
 * four places up, which is past bit 63 and discarded. So
 *
 *     bmul64(x, y) = XOR over i + j = r (mod 4) of (x_i * y_j) & mask_r
 *
 * is exactly the low 64 bits of the carry-less product. The high 64 bits
 * come from the same routine on bit-reversed operands:
 * rev64(bmul64(rev64(x), rev64(y))) >> 1. A 128x128 product takes three
 * 64x64 products (Karatsuba: a0*b0, a1*b1, (a0^a1)*(b0^b1)), each a low
 * and a high half: 96 integer multiplies per block.
 *
 * Constant time: 64x64->64 multiplication runs in constant time on every
 * 64-bit CPU this code targets; nothing else depends on data except the
 * values computed. There are no tables and no branches on secrets. The
 * "htable" holds H and its bit-reversed halves, read in full each block.
 *
 * Performance is not the point here (about 100 multiplies per block); the
 * assembly kernels take over whenever the CPU allows.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fc/aes.h"
#include "fc/common.h"
#include "fc/ct.h"
#include "fc/gcm.h"

/* Layout of the generic htable: H's words and their reversals, Karatsuba
 * sum included, so each block starts from precomputed operands. */
enum {
    FC_GH_H0 = 0, /* low word of H (bytes 8..15) */
    FC_GH_H1,     /* high word of H (bytes 0..7) */
    FC_GH_H2,     /* h0 ^ h1 */
    FC_GH_R0,     /* rev64(h0) */
    FC_GH_R1,     /* rev64(h1) */
    FC_GH_R2,     /* rev64(h0 ^ h1) */
    FC_GH_WORDS
};

_Static_assert(FC_GH_WORDS * 8 <= FC_GCM_HTABLE_BYTES,
               "generic GHASH table does not fit");

static inline uint64_t fc_rev64(uint64_t x)
{
    /* Byte swap, then reverse the bits inside each byte. */
    x = __builtin_bswap64(x);
    x = ((x >> 1) & UINT64_C(0x5555555555555555)) |
        ((x & UINT64_C(0x5555555555555555)) << 1);
    x = ((x >> 2) & UINT64_C(0x3333333333333333)) |
        ((x & UINT64_C(0x3333333333333333)) << 2);
    x = ((x >> 4) & UINT64_C(0x0f0f0f0f0f0f0f0f)) |
        ((x & UINT64_C(0x0f0f0f0f0f0f0f0f)) << 4);
    return x;
}

/* Low 64 bits of the carry-less product x * y (see "Carry-less 64x64
 * multiply" above). */
static inline uint64_t fc_bmul64(uint64_t x, uint64_t y)
{
    const uint64_t m0 = UINT64_C(0x1111111111111111);
    const uint64_t m1 = m0 << 1, m2 = m0 << 2, m3 = m0 << 3;
    uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
    uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
    uint64_t z0, z1, z2, z3;

    z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

/* (y1:y0) = (y1:y0) * H, all values reflected; |t| is the htable. */
static inline void fc_gf_mul_h(uint64_t *y1, uint64_t *y0, const uint64_t *t)
{
    uint64_t a0 = *y0, a1 = *y1, a2 = a0 ^ a1;
    uint64_t r0 = fc_rev64(a0), r1 = fc_rev64(a1), r2 = fc_rev64(a2);
    uint64_t lo_l, lo_h, hi_l, hi_h, mi_l, mi_h;
    uint64_t w0, w1, w2, w3;

    /* Three 128-bit products, low and high halves. */
    lo_l = fc_bmul64(a0, t[FC_GH_H0]);
    hi_l = fc_bmul64(a1, t[FC_GH_H1]);
    mi_l = fc_bmul64(a2, t[FC_GH_H2]);
    lo_h = fc_rev64(fc_bmul64(r0, t[FC_GH_R0])) >> 1;
    hi_h = fc_rev64(fc_bmul64(r1, t[FC_GH_R1])) >> 1;
    mi_h = fc_rev64(fc_bmul64(r2, t[FC_GH_R2])) >> 1;

    /* Karatsuba: middle = mid ^ lo ^ hi, added at bit 64. */
    mi_l ^= lo_l ^ hi_l;
    mi_h ^= lo_h ^ hi_h;
    w0 = lo_l;
    w1 = lo_h ^ mi_l;
    w2 = hi_l ^ mi_h;
    w3 = hi_h;

    /* D = product << 1: the 256-bit reflection of a * H. */
    w3 = (w3 << 1) | (w2 >> 63);
    w2 = (w2 << 1) | (w1 >> 63);
    w1 = (w1 << 1) | (w0 >> 63);
    w0 <<= 1;

    /* Two folds (see "Reduction"). */
    w2 ^= w0 ^ (w0 >> 1) ^ (w0 >> 2) ^ (w0 >> 7);
    w1 ^= (w0 << 63) ^ (w0 << 62) ^ (w0 << 57);
    w3 ^= w1 ^ (w1 >> 1) ^ (w1 >> 2) ^ (w1 >> 7);
    w2 ^= (w1 << 63) ^ (w1 << 62) ^ (w1 << 57);

    *y1 = w3;
    *y0 = w2;
}

/* see fc/gcm.h */
void fc_gcm_init_generic(uint8_t *htable, const uint8_t h[16])
{
    uint64_t t[FC_GH_WORDS];

    t[FC_GH_H1] = fc_load_be64(h);
    t[FC_GH_H0] = fc_load_be64(h + 8);
    t[FC_GH_H2] = t[FC_GH_H0] ^ t[FC_GH_H1];
    t[FC_GH_R0] = fc_rev64(t[FC_GH_H0]);
    t[FC_GH_R1] = fc_rev64(t[FC_GH_H1]);
    t[FC_GH_R2] = fc_rev64(t[FC_GH_H2]);
    memcpy(htable, t, sizeof(t));
    fc_memzero(t, sizeof(t));
}

/* see fc/gcm.h */
void fc_ghash_generic(const uint8_t *htable, uint8_t xi[16], const uint8_t *in,
                      size_t blocks)
{
    uint64_t t[FC_GH_WORDS];
    uint64_t y1 = fc_load_be64(xi), y0 = fc_load_be64(xi + 8);

    memcpy(t, htable, sizeof(t));
    for (size_t i = 0; i < blocks; i++, in += 16) {
        y1 ^= fc_load_be64(in);
        y0 ^= fc_load_be64(in + 8);
        fc_gf_mul_h(&y1, &y0, t);
    }
    fc_store_be64(xi, y1);
    fc_store_be64(xi + 8, y0);
    fc_memzero(t, sizeof(t));
}

/*
 * Shared body of encryption and decryption: CTR through the generic AES
 * table's ctr32, whose counter is exactly the inc32 of SP 800-38D 6.2 (also
 * across the wrap, which fc/gcm.h lets a call cross, and without a branch
 * on the counter, which is secret for IVs other than 96 bits), and GHASH
 * over the ciphertext: the input when decrypting, hashed before it is
 * overwritten, so in == out works; the output when encrypting.
 */
static void fc_gcm_crypt_generic(const fc_gcm_key *key, const uint8_t *in,
                                 uint8_t *out, size_t blocks,
                                 const uint8_t ctr[16], uint8_t xi[16], int enc)
{
    if (!enc)
        fc_ghash_generic(key->htable, xi, in, blocks);
    fc_aes_ctr32_generic(&key->aes, in, out, blocks, ctr);
    if (enc)
        fc_ghash_generic(key->htable, xi, out, blocks);
}

/* see fc/gcm.h */
void fc_gcm_enc_generic(const fc_gcm_key *key, const uint8_t *in, uint8_t *out,
                        size_t blocks, const uint8_t ctr[16], uint8_t xi[16])
{
    fc_gcm_crypt_generic(key, in, out, blocks, ctr, xi, 1);
}

/* see fc/gcm.h */
void fc_gcm_dec_generic(const fc_gcm_key *key, const uint8_t *in, uint8_t *out,
                        size_t blocks, const uint8_t ctr[16], uint8_t xi[16])
{
    fc_gcm_crypt_generic(key, in, out, blocks, ctr, xi, 0);
}

/* The _bytes form: the whole blocks as above, then a partial block's
 * keystream from its counter (inc32 of |ctr| by the whole blocks, an
 * addition, no branch), its bytes XORed, and the block hashed
 * zero-padded. */
static void fc_gcm_crypt_bytes_generic(const fc_gcm_key *key, const uint8_t *in,
                                       uint8_t *out, size_t len,
                                       const uint8_t ctr[16], uint8_t xi[16],
                                       int enc)
{
    const size_t full = len / 16, rem = len % 16;
    uint8_t ks[16], b[16] = {0};

    fc_gcm_crypt_generic(key, in, out, full, ctr, xi, enc);
    if (rem == 0)
        return;
    memcpy(ks, ctr, 12);
    fc_store_be32(ks + 12, fc_load_be32(ctr + 12) + (uint32_t)full);
    fc_aes_ecb_enc_generic(&key->aes, ks, ks, 1);
    in += 16 * full;
    out += 16 * full;
    for (size_t j = 0; j < rem; j++) {
        uint8_t x = in[j], y = (uint8_t)(x ^ ks[j]);

        b[j] = enc ? y : x;
        out[j] = y;
    }
    fc_ghash_generic(key->htable, xi, b, 1);
    fc_memzero(ks, sizeof(ks));
    fc_memzero(b, sizeof(b));
}

/* see fc/gcm.h */
void fc_gcm_enc_bytes_generic(const fc_gcm_key *key, const uint8_t *in,
                              uint8_t *out, size_t len, const uint8_t ctr[16],
                              uint8_t xi[16])
{
    fc_gcm_crypt_bytes_generic(key, in, out, len, ctr, xi, 1);
}

/* see fc/gcm.h */
void fc_gcm_dec_bytes_generic(const fc_gcm_key *key, const uint8_t *in,
                              uint8_t *out, size_t len, const uint8_t ctr[16],
                              uint8_t xi[16])
{
    fc_gcm_crypt_bytes_generic(key, in, out, len, ctr, xi, 0);
}
