/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_generic.c - portable constant-time AES: key schedules, ECB encryption,
 * CTR (inc32), CBC encryption and decryption, in C on 64-bit words (no
 * intrinsics, no assembly; GNU C attributes only).
 *
 * Design
 * ------
 * The cipher is bitsliced over four blocks. A state is eight 64-bit words
 * q[0..7]; q[j] holds bit j of all 64 state bytes (4 blocks x 16 bytes).
 * State byte i of a block sits at row r = i % 4, column c = i / 4
 * (FIPS-197 3.4), and for block k (0..3) its bit j is
 *
 *     bit (16 * r + 4 * c + k) of q[j].
 *
 * So each row is one 16-bit lane of every word, which makes the round's
 * linear layer cheap:
 *   - MixColumns combines a byte with the bytes one, two and three rows
 *     down in the same column: 64-bit rotations by 16, 32 and 48.
 *   - ShiftRows rotates lane r by 4 * r bits: shifts and masks.
 *   - SubBytes is a boolean circuit of 34 ANDs and 94 XORs applied to all
 *     64 bytes at once by running it on whole words; InvSubBytes shares its
 *     nonlinear middle (see "The S-box circuit" below).
 * No table is indexed and nothing branches on key or data, so time and
 * memory addresses depend only on the block count and key size.
 *
 * Getting blocks in and out of the bitsliced form: each block is read as
 * two little-endian 64-bit words; a word pair is rearranged so that one
 * word holds the even columns and the other the odd ones, with the bytes
 * of each interleaved row by row; an 8x8 bit transpose across the eight
 * words ("ortho", three rounds of masked swaps) then puts bit j of every
 * byte into q[j]. Every step swaps two bits of the (word, bit) index, so
 * the same steps in reverse order undo it.
 *
 * Round keys: in the bitsliced form a round key is the same for the four
 * blocks, i.e. each 4-bit group (one byte position) of an expanded key word
 * is all-zeros or all-ones. fc_aes_key keeps the key compressed to 16 bytes
 * per round: word 0 holds planes 0..3 and word 1 planes 4..7, plane j at
 * bit (j % 4) of each group. Expanding a plane is ((w >> (j % 4)) & 0x11..1)
 * times 15, three operations, done once per call into a stack array that is
 * wiped on return. Fifteen rounds x 16 bytes is exactly the 240 bytes of
 * fc_aes_key.rk. Round keys 1..Nr also carry the S-box constant 0x63 in
 * every byte. The decryption schedule is the same as the encryption one:
 * decryption runs the inverse cipher (FIPS-197 5.3) directly.
 *
 * Throughput: ECB, CTR and CBC decryption fill all four slots per pass;
 * CBC encryption is a serial chain and uses one slot of four.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fc/aes.h"
#include "fc/common.h"

/* 16 * (rounds + 1) bytes of compressed round keys must fit in rk. */
_Static_assert(sizeof(((fc_aes_key *)0)->rk) >= 16 * (FC_AES_MAX_ROUNDS + 1),
               "compressed round keys do not fit");

#define FC_AESG_SK_WORDS (8 * (FC_AES_MAX_ROUNDS + 1))

/*
 * The round steps are forced inline so that a whole block pass is one
 * function whose state the compiler keeps in registers and its own spill
 * slots. Left as calls on a q[8] array, gcc 12 and clang 14 fuse the
 * word-wise linear steps into 128-bit vector loads that read the S-box's
 * 64-bit stores, which stalls store forwarding. Measured with gcc 12 -O2 on
 * x86-64, this inlining, the hand-unrolled word steps and load_le64 below
 * took CBC decryption from 330 to 175 cycles per block.
 */
#define FC_AESG_INLINE static inline __attribute__((always_inline))

/*
 * Little-endian 64-bit load and store. On little-endian hosts a plain
 * memcpy: the byte-wise forms get assembled by some compilers into two
 * 64-bit stores that a 128-bit load then reads back, a store-forwarding
 * stall measured at 10% of CBC decryption.
 */
static inline uint64_t load_le64(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
#else
    return fc_load_le64(p);
#endif
}

static inline void store_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, 8);
#else
    fc_store_le64(p, v);
#endif
}

static inline uint64_t rotr64(uint64_t x, unsigned n)
{
    return (x >> n) | (x << (64 - n));
}

/*
 * The S-box circuit
 * -----------------
 * S(x) = A(x^-1) with A(y) = M y ^ 0x63 (FIPS-197 5.1.1). The Boyar-Peralta
 * decomposition computes it in three layers over the bits of x, written u0
 * (most significant) to u7: a linear input layer giving the 22 signals below
 * (t1..t27 and u7), a nonlinear middle (the inversion, done in a GF(2^4)
 * tower: 34 ANDs and 29 XORs) giving m46..m63, and a linear output layer.
 *
 * Two changes suit the bitsliced cipher:
 *   - The constant 0x63 is left out of the output layer (so sbox_fwd gives
 *     S(x) ^ 0x63). ShiftRows and MixColumns map the all-0x63 state to
 *     itself (2 ^ 3 ^ 1 ^ 1 = 1), so the constant is instead XORed into
 *     round keys 1..Nr once, at key setup.
 *   - The inverse S-box reuses the middle. With L = M^-1 (bit i of L(x) is
 *     x[i+2] ^ x[i+5] ^ x[i+7]), A^-1(z) = L(z ^ 0x63) and
 *         InvS(x) = A^-1(S(A^-1(x))) = L(S(L(x ^ 0x63)) ^ 0x63)
 *                 = L(B(L(x ^ 0x63))),
 *     B being the circuit without its constant. The 0x63 on the input
 *     passes back through InvMixColumns and InvShiftRows (the all-0x63
 *     state is fixed by them too) into the same round keys 1..Nr, so
 *     sbox_inv computes InvS(x ^ 0x63) as two new linear layers around the
 *     shared middle: "input layer after L" (23 XORs) and "L after output
 *     layer" (35 XORs), found with a shortest-linear-program heuristic and
 *     checked against the definition on all 256 inputs. That is 47 operations
 *     fewer per round than wrapping the S-box in two inverse affine maps.
 * So one schedule serves both directions: round keys 1..Nr carry the
 * 0x63, round key 0 does not.
 */

/* The 22 signals the nonlinear middle takes from the input layer. */
typedef struct {
    uint64_t t1, t2, t3, t4, t6, t8, t9, t10, t13, t14, t15;
    uint64_t t16, t17, t19, t20, t22, t23, t24, t25, t26, t27, u7;
} sbox_sig;

/* sbox_mid computes the nonlinear middle, m[k] = m(46 + k). */
FC_AESG_INLINE void sbox_mid(uint64_t m[18], const sbox_sig *s)
{
    uint64_t m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14;
    uint64_t m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27;
    uint64_t m28, m29, m30, m31, m32, m33, m34, m35, m36, m37, m38, m39, m40;
    uint64_t m41, m42, m43, m44, m45;

    m1 = s->t13 & s->t6;
    m2 = s->t23 & s->t8;
    m3 = s->t14 ^ m1;
    m4 = s->t19 & s->u7;
    m5 = m4 ^ m1;
    m6 = s->t3 & s->t16;
    m7 = s->t22 & s->t9;
    m8 = s->t26 ^ m6;
    m9 = s->t20 & s->t17;
    m10 = m9 ^ m6;
    m11 = s->t1 & s->t15;
    m12 = s->t4 & s->t27;
    m13 = m12 ^ m11;
    m14 = s->t2 & s->t10;
    m15 = m14 ^ m11;
    m16 = m3 ^ m2;
    m17 = m5 ^ s->t24;
    m18 = m8 ^ m7;
    m19 = m10 ^ m15;
    m20 = m16 ^ m13;
    m21 = m17 ^ m15;
    m22 = m18 ^ m13;
    m23 = m19 ^ s->t25;
    m24 = m22 ^ m23;
    m25 = m22 & m20;
    m26 = m21 ^ m25;
    m27 = m20 ^ m21;
    m28 = m23 ^ m25;
    m29 = m28 & m27;
    m30 = m26 & m24;
    m31 = m20 & m23;
    m32 = m27 & m31;
    m33 = m27 ^ m25;
    m34 = m21 & m22;
    m35 = m24 & m34;
    m36 = m24 ^ m25;
    m37 = m21 ^ m29;
    m38 = m32 ^ m33;
    m39 = m23 ^ m30;
    m40 = m35 ^ m36;
    m41 = m38 ^ m40;
    m42 = m37 ^ m39;
    m43 = m37 ^ m38;
    m44 = m39 ^ m40;
    m45 = m42 ^ m41;
    m[0] = m44 & s->t6;
    m[1] = m40 & s->t8;
    m[2] = m39 & s->u7;
    m[3] = m43 & s->t16;
    m[4] = m38 & s->t9;
    m[5] = m37 & s->t17;
    m[6] = m42 & s->t15;
    m[7] = m45 & s->t27;
    m[8] = m41 & s->t10;
    m[9] = m44 & s->t13;
    m[10] = m40 & s->t23;
    m[11] = m39 & s->t19;
    m[12] = m43 & s->t3;
    m[13] = m38 & s->t22;
    m[14] = m37 & s->t20;
    m[15] = m42 & s->t1;
    m[16] = m45 & s->t4;
    m[17] = m41 & s->t2;
}

/* sbox_fwd replaces every byte x of the bitsliced |q| by S(x) ^ 0x63. */
FC_AESG_INLINE void sbox_fwd(uint64_t q[8])
{
    const uint64_t u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
    const uint64_t u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];
    uint64_t t5, t7, t11, t12, t18, t21;
    uint64_t l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14;
    uint64_t l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25, l26, l27;
    uint64_t l28, l29;
    uint64_t m[18];
    sbox_sig s;

    /* Input layer (27 XORs). */
    s.t1 = u0 ^ u3;
    s.t2 = u0 ^ u5;
    s.t3 = u0 ^ u6;
    s.t4 = u3 ^ u5;
    t5 = u4 ^ u6;
    s.t6 = s.t1 ^ t5;
    t7 = u1 ^ u2;
    s.t8 = u7 ^ s.t6;
    s.t9 = u7 ^ t7;
    s.t10 = s.t6 ^ t7;
    t11 = u1 ^ u5;
    t12 = u2 ^ u5;
    s.t13 = s.t3 ^ s.t4;
    s.t14 = s.t6 ^ t11;
    s.t15 = t5 ^ t11;
    s.t16 = t5 ^ t12;
    s.t17 = s.t9 ^ s.t16;
    t18 = u3 ^ u7;
    s.t19 = t7 ^ t18;
    s.t20 = s.t1 ^ s.t19;
    t21 = u6 ^ u7;
    s.t22 = t7 ^ t21;
    s.t23 = s.t2 ^ s.t22;
    s.t24 = s.t2 ^ s.t10;
    s.t25 = s.t20 ^ s.t17;
    s.t26 = s.t3 ^ s.t16;
    s.t27 = s.t1 ^ t12;
    s.u7 = u7;

    sbox_mid(m, &s);

    /* Output layer (38 XORs), m46 = m[0] .. m63 = m[17]. */
    l0 = m[15] ^ m[16];
    l1 = m[4] ^ m[10];
    l2 = m[0] ^ m[2];
    l3 = m[1] ^ m[9];
    l4 = m[8] ^ m[12];
    l5 = m[3] ^ m[15];
    l6 = m[16] ^ l5;
    l7 = m[0] ^ l3;
    l8 = m[5] ^ m[13];
    l9 = m[6] ^ m[7];
    l10 = m[7] ^ l4;
    l11 = m[14] ^ l2;
    l12 = m[2] ^ m[5];
    l13 = m[4] ^ l0;
    l14 = m[6] ^ m[15];
    l15 = m[9] ^ l1;
    l16 = m[10] ^ l0;
    l17 = m[11] ^ l1;
    l18 = m[12] ^ l8;
    l19 = m[17] ^ l4;
    l20 = l0 ^ l1;
    l21 = l1 ^ l7;
    l22 = l3 ^ l12;
    l23 = l18 ^ l2;
    l24 = l15 ^ l9;
    l25 = l6 ^ l10;
    l26 = l7 ^ l9;
    l27 = l8 ^ l10;
    l28 = l11 ^ l14;
    l29 = l11 ^ l17;

    q[7] = l6 ^ l24;
    q[6] = l16 ^ l26;
    q[5] = l19 ^ l28;
    q[4] = l6 ^ l21;
    q[3] = l20 ^ l22;
    q[2] = l25 ^ l29;
    q[1] = l13 ^ l27;
    q[0] = l6 ^ l23;
}

/* sbox_inv replaces every byte x of the bitsliced |q| by InvS(x ^ 0x63). */
FC_AESG_INLINE void sbox_inv(uint64_t q[8])
{
    const uint64_t x0 = q[0], x1 = q[1], x2 = q[2], x3 = q[3];
    const uint64_t x4 = q[4], x5 = q[5], x6 = q[6], x7 = q[7];
    uint64_t a0;
    uint64_t b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11;
    uint64_t b12, b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23;
    uint64_t b24, b25, b26;
    uint64_t m[18];
    sbox_sig s;

    /* The forward input layer applied to L(x) (23 XORs). */
    s.t24 = x0 ^ x3;
    s.t1 = x3 ^ x4;
    s.t9 = x0 ^ s.t1;
    s.t3 = x1 ^ s.t9;
    s.t22 = x4 ^ x6;
    s.t23 = x4 ^ x7;
    s.t25 = x5 ^ s.t1;
    s.t2 = x6 ^ x7;
    s.t8 = x4 ^ s.t2;
    s.t4 = x3 ^ s.t8;
    s.t10 = s.t24 ^ s.t2;
    s.t20 = s.t3 ^ s.t22;
    s.t19 = s.t1 ^ s.t20;
    s.t17 = x5 ^ s.t19;
    s.t26 = x1 ^ s.t17;
    s.t16 = s.t9 ^ s.t17;
    s.t13 = s.t3 ^ s.t4;
    a0 = x2 ^ x7;
    s.u7 = x5 ^ a0;
    s.t6 = s.t8 ^ s.u7;
    s.t14 = s.t20 ^ a0;
    s.t15 = s.t1 ^ s.t14;
    s.t27 = s.t10 ^ s.t15;
    sbox_mid(m, &s);

    /* L applied to the forward output layer (35 XORs). */
    b0 = m[6] ^ m[15];
    b1 = m[13] ^ b0;
    b2 = m[12] ^ b1;
    b3 = m[16] ^ b2;
    b4 = m[3] ^ m[4];
    b5 = m[8] ^ b3;
    b6 = m[2] ^ m[10];
    b7 = m[1] ^ b4;
    b8 = m[4] ^ m[5];
    b9 = m[9] ^ m[17];
    b10 = m[8] ^ b6;
    b11 = m[14] ^ b10;
    b12 = m[0] ^ b5;
    b13 = b7 ^ b11;
    b14 = m[11] ^ m[15];
    q[0] = b14 ^ b9;
    b15 = m[7] ^ b3;
    q[1] = b15 ^ b4;
    b16 = m[1] ^ b8;
    q[2] = b16 ^ b12;
    b17 = m[0] ^ m[7];
    b18 = b17 ^ m[11];
    b19 = b18 ^ m[17];
    b20 = b19 ^ b2;
    b21 = b20 ^ b6;
    q[3] = b21 ^ b8;
    q[4] = m[2] ^ b12;
    b22 = m[11] ^ m[12];
    b23 = b22 ^ m[16];
    b24 = b23 ^ b0;
    q[5] = b24 ^ b13;
    b25 = b1 ^ b9;
    q[6] = b25 ^ b13;
    b26 = m[3] ^ m[5];
    q[7] = b26 ^ b5;
}

/* The word-wise steps below are written out by hand rather than as loops
 * over j, for the same reason as FC_AESG_INLINE: loops get vectorised. */

/* shift_rows: new (r, c) = old (r, c + r), i.e. lane r rotates right by 4r
 * bits. Row 0 stays. */
static inline uint64_t shift_rows_word(uint64_t x)
{
    return (x & 0x000000000000FFFF) | ((x & 0x00000000FFF00000) >> 4) |
           ((x & 0x00000000000F0000) << 12) | ((x & 0x0000FF0000000000) >> 8) |
           ((x & 0x000000FF00000000) << 8) | ((x & 0xF000000000000000) >> 12) |
           ((x & 0x0FFF000000000000) << 4);
}

FC_AESG_INLINE void shift_rows(uint64_t q[8])
{
    q[0] = shift_rows_word(q[0]);
    q[1] = shift_rows_word(q[1]);
    q[2] = shift_rows_word(q[2]);
    q[3] = shift_rows_word(q[3]);
    q[4] = shift_rows_word(q[4]);
    q[5] = shift_rows_word(q[5]);
    q[6] = shift_rows_word(q[6]);
    q[7] = shift_rows_word(q[7]);
}

/* inv_shift_rows: new (r, c) = old (r, c - r), the inverse rotation. */
static inline uint64_t inv_shift_rows_word(uint64_t x)
{
    return (x & 0x000000000000FFFF) | ((x & 0x00000000F0000000) >> 12) |
           ((x & 0x000000000FFF0000) << 4) | ((x & 0x0000FF0000000000) >> 8) |
           ((x & 0x000000FF00000000) << 8) | ((x & 0xFFF0000000000000) >> 4) |
           ((x & 0x000F000000000000) << 12);
}

FC_AESG_INLINE void inv_shift_rows(uint64_t q[8])
{
    q[0] = inv_shift_rows_word(q[0]);
    q[1] = inv_shift_rows_word(q[1]);
    q[2] = inv_shift_rows_word(q[2]);
    q[3] = inv_shift_rows_word(q[3]);
    q[4] = inv_shift_rows_word(q[4]);
    q[5] = inv_shift_rows_word(q[5]);
    q[6] = inv_shift_rows_word(q[6]);
    q[7] = inv_shift_rows_word(q[7]);
}

/*
 * mix_columns: out[r] = 2 a[r] ^ 3 a[r+1] ^ a[r+2] ^ a[r+3]
 *                     = 2 (a[r] ^ a[r+1]) ^ a[r+1] ^ (a[r+2] ^ a[r+3]).
 * rotr64(x, 16) moves row r + 1 onto row r. With t = a[r] ^ a[r+1], the
 * last term is t rotated by 32; doubling in GF(2^8) (modulus x^8 + x^4 +
 * x^3 + x + 1) moves plane j to j + 1 and feeds plane 7 into 0, 1, 3, 4.
 */
FC_AESG_INLINE void mix_columns(uint64_t q[8])
{
    const uint64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
    const uint64_t q4 = q[4], q5 = q[5], q6 = q[6], q7 = q[7];
    const uint64_t r0 = rotr64(q0, 16), r1 = rotr64(q1, 16);
    const uint64_t r2 = rotr64(q2, 16), r3 = rotr64(q3, 16);
    const uint64_t r4 = rotr64(q4, 16), r5 = rotr64(q5, 16);
    const uint64_t r6 = rotr64(q6, 16), r7 = rotr64(q7, 16);
    const uint64_t t0 = q0 ^ r0, t1 = q1 ^ r1, t2 = q2 ^ r2, t3 = q3 ^ r3;
    const uint64_t t4 = q4 ^ r4, t5 = q5 ^ r5, t6 = q6 ^ r6, t7 = q7 ^ r7;

    q[0] = t7 ^ r0 ^ rotr64(t0, 32);
    q[1] = t0 ^ t7 ^ r1 ^ rotr64(t1, 32);
    q[2] = t1 ^ r2 ^ rotr64(t2, 32);
    q[3] = t2 ^ t7 ^ r3 ^ rotr64(t3, 32);
    q[4] = t3 ^ t7 ^ r4 ^ rotr64(t4, 32);
    q[5] = t4 ^ r5 ^ rotr64(t5, 32);
    q[6] = t5 ^ r6 ^ rotr64(t6, 32);
    q[7] = t6 ^ r7 ^ rotr64(t7, 32);
}

/*
 * inv_mix_columns: the InvMixColumns matrix (14, 11, 13, 9) factors as the
 * MixColumns matrix times (5, 0, 4, 0), so first a[r] ^= 4 (a[r] ^ a[r+2])
 * for every row, then MixColumns. v = a[r] ^ a[r+2] is q ^ rotr64(q, 32);
 * 4 v in planes: z0 = v6, z1 = v6^v7, z2 = v0^v7, z3 = v1^v6,
 * z4 = v2^v6^v7, z5 = v3^v7, z6 = v4, z7 = v5.
 */
FC_AESG_INLINE void inv_mix_columns(uint64_t q[8])
{
    const uint64_t v0 = q[0] ^ rotr64(q[0], 32), v1 = q[1] ^ rotr64(q[1], 32);
    const uint64_t v2 = q[2] ^ rotr64(q[2], 32), v3 = q[3] ^ rotr64(q[3], 32);
    const uint64_t v4 = q[4] ^ rotr64(q[4], 32), v5 = q[5] ^ rotr64(q[5], 32);
    const uint64_t v6 = q[6] ^ rotr64(q[6], 32), v7 = q[7] ^ rotr64(q[7], 32);

    q[0] ^= v6;
    q[1] ^= v6 ^ v7;
    q[2] ^= v0 ^ v7;
    q[3] ^= v1 ^ v6;
    q[4] ^= v2 ^ v6 ^ v7;
    q[5] ^= v3 ^ v7;
    q[6] ^= v4;
    q[7] ^= v5;
    mix_columns(q);
}

FC_AESG_INLINE void add_round_key(uint64_t q[8], const uint64_t *sk)
{
    q[0] ^= sk[0];
    q[1] ^= sk[1];
    q[2] ^= sk[2];
    q[3] ^= sk[3];
    q[4] ^= sk[4];
    q[5] ^= sk[5];
    q[6] ^= sk[6];
    q[7] ^= sk[7];
}

/* FC_AESG_SWAP swaps the bits of |a| selected by |mask| << |s| with the
 * bits of |b| selected by |mask| (a and b are lvalues). */
#define FC_AESG_SWAP(a, b, mask, s)                                            \
    do {                                                                       \
        uint64_t t_ = (((a) >> (s)) ^ (b)) & (mask);                           \
        (b) ^= t_;                                                             \
        (a) ^= t_ << (s);                                                      \
    } while (0)

/* Swap the bits of |x| selected by |mask| with those |s| positions up. */
static inline uint64_t swap_in_word(uint64_t x, uint64_t mask, unsigned s)
{
    uint64_t t = ((x >> s) ^ x) & mask;
    return x ^ t ^ (t << s);
}

/*
 * ortho transposes the 8x8 bit matrices formed by bit b of each of the
 * eight words, for the eight values of b >> 3: word index bits and the low
 * three bit-position bits trade places. It is an involution.
 */
FC_AESG_INLINE void ortho(uint64_t q[8])
{
    uint64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
    uint64_t q4 = q[4], q5 = q[5], q6 = q[6], q7 = q[7];

    FC_AESG_SWAP(q0, q1, 0x5555555555555555, 1);
    FC_AESG_SWAP(q2, q3, 0x5555555555555555, 1);
    FC_AESG_SWAP(q4, q5, 0x5555555555555555, 1);
    FC_AESG_SWAP(q6, q7, 0x5555555555555555, 1);
    FC_AESG_SWAP(q0, q2, 0x3333333333333333, 2);
    FC_AESG_SWAP(q1, q3, 0x3333333333333333, 2);
    FC_AESG_SWAP(q4, q6, 0x3333333333333333, 2);
    FC_AESG_SWAP(q5, q7, 0x3333333333333333, 2);
    FC_AESG_SWAP(q0, q4, 0x0F0F0F0F0F0F0F0F, 4);
    FC_AESG_SWAP(q1, q5, 0x0F0F0F0F0F0F0F0F, 4);
    FC_AESG_SWAP(q2, q6, 0x0F0F0F0F0F0F0F0F, 4);
    FC_AESG_SWAP(q3, q7, 0x0F0F0F0F0F0F0F0F, 4);
    q[0] = q0;
    q[1] = q1;
    q[2] = q2;
    q[3] = q3;
    q[4] = q4;
    q[5] = q5;
    q[6] = q6;
    q[7] = q7;
}

/*
 * Byte order inside one pre-transpose word: the input word holds bytes
 * (r, c1) as c1 * 4 + r for the two columns c = 2 * c1 + c0 of one parity
 * c0; the transpose wants r * 2 + c1. Two byte swaps do it (and, reversed,
 * undo it).
 */
static inline uint64_t interleave_rows(uint64_t x)
{
    x = swap_in_word(x, 0x00000000FFFF0000, 16);
    return swap_in_word(x, 0x0000FF000000FF00, 8);
}

static inline uint64_t deinterleave_rows(uint64_t x)
{
    x = swap_in_word(x, 0x0000FF000000FF00, 8);
    return swap_in_word(x, 0x00000000FFFF0000, 16);
}

/* put_block places the block whose little-endian halves are |lo| and |hi|
 * in slot |k| of |q|, before the transpose (see the header comment). */
FC_AESG_INLINE void put_block(uint64_t q[8], size_t k, uint64_t lo, uint64_t hi)
{
    /* Columns 0 and 2 in one word, 1 and 3 in the other. */
    q[k] = interleave_rows((lo & 0xFFFFFFFF) | (hi << 32));
    q[k + 4] = interleave_rows((lo >> 32) | (hi & 0xFFFFFFFF00000000));
}

/* get_block is the inverse of put_block, after the transpose back. */
FC_AESG_INLINE void get_block(const uint64_t q[8], size_t k, uint64_t *lo,
                              uint64_t *hi)
{
    uint64_t a = deinterleave_rows(q[k]);
    uint64_t b = deinterleave_rows(q[k + 4]);

    *lo = (a & 0xFFFFFFFF) | (b << 32);
    *hi = (a >> 32) | (b & 0xFFFFFFFF00000000);
}

/* load_blocks fills |q| with |n| (1..4) blocks from |in|, the other slots
 * with zeros, and converts to the bitsliced form. */
FC_AESG_INLINE void load_blocks(uint64_t q[8], const uint8_t *in, size_t n)
{
    for (size_t k = 0; k < 4; k++) {
        if (k < n)
            put_block(q, k, load_le64(in + 16 * k), load_le64(in + 16 * k + 8));
        else
            put_block(q, k, 0, 0);
    }
    ortho(q);
}

/* store_blocks writes the first |n| (1..4) blocks of the bitsliced |q| to
 * |out|; |q| is left in the byte-oriented form. */
FC_AESG_INLINE void store_blocks(uint8_t *out, uint64_t q[8], size_t n)
{
    ortho(q);
    for (size_t k = 0; k < n; k++) {
        uint64_t lo, hi;
        get_block(q, k, &lo, &hi);
        store_le64(out + 16 * k, lo);
        store_le64(out + 16 * k + 8, hi);
    }
}

/* spread_plane copies bit 0 of each 4-bit group of |w| to the whole group.
 * Times 15 does it; written as a shift and subtract so that no multiplier
 * (variable-time on some small cores) is involved. */
static inline uint64_t spread_plane(uint64_t w)
{
    uint64_t x = w & 0x1111111111111111;
    return (x << 4) - x;
}

/* expand_round_keys turns the compressed schedule in |key| into the
 * bitsliced words the rounds XOR in: 8 words per round. */
static void expand_round_keys(uint64_t sk[FC_AESG_SK_WORDS],
                              const fc_aes_key *key)
{
    for (unsigned r = 0; r <= key->rounds; r++) {
        uint64_t w0, w1;
        memcpy(&w0, key->rk[r], 8);
        memcpy(&w1, key->rk[r] + 8, 8);
        sk[8 * r + 0] = spread_plane(w0);
        sk[8 * r + 1] = spread_plane(w0 >> 1);
        sk[8 * r + 2] = spread_plane(w0 >> 2);
        sk[8 * r + 3] = spread_plane(w0 >> 3);
        sk[8 * r + 4] = spread_plane(w1);
        sk[8 * r + 5] = spread_plane(w1 >> 1);
        sk[8 * r + 6] = spread_plane(w1 >> 2);
        sk[8 * r + 7] = spread_plane(w1 >> 3);
    }
}

FC_AESG_INLINE void encrypt_state(const uint64_t *sk, unsigned rounds,
                                  uint64_t q[8])
{
    add_round_key(q, sk);
    for (unsigned r = 1; r < rounds; r++) {
        sbox_fwd(q);
        shift_rows(q);
        mix_columns(q);
        add_round_key(q, sk + 8 * r);
    }
    sbox_fwd(q);
    shift_rows(q);
    add_round_key(q, sk + 8 * rounds);
}

/* The inverse cipher of FIPS-197 5.3, on the encryption round keys. */
FC_AESG_INLINE void decrypt_state(const uint64_t *sk, unsigned rounds,
                                  uint64_t q[8])
{
    add_round_key(q, sk + 8 * rounds);
    for (unsigned r = rounds - 1; r > 0; r--) {
        inv_shift_rows(q);
        sbox_inv(q);
        add_round_key(q, sk + 8 * r);
        inv_mix_columns(q);
    }
    inv_shift_rows(q);
    sbox_inv(q);
    add_round_key(q, sk);
}

/* sub_word applies the S-box to the four bytes of |w|, through the same
 * circuit as the cipher (four slots of the low bits of each plane). */
static uint32_t sub_word(uint32_t w)
{
    uint64_t q[8];
    uint32_t out = 0;

    for (int j = 0; j < 8; j++) {
        q[j] = 0;
        for (int i = 0; i < 4; i++)
            q[j] |= (uint64_t)((w >> (8 * i + j)) & 1) << i;
    }
    sbox_fwd(q);
    /* sbox_fwd leaves out the constant: 0x63 is planes 0, 1, 5 and 6. */
    q[0] = ~q[0];
    q[1] = ~q[1];
    q[5] = ~q[5];
    q[6] = ~q[6];
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 4; i++)
            out |= (uint32_t)((q[j] >> i) & 1) << (8 * i + j);
    fc_memzero(q, sizeof(q));
    return out;
}

/* see fc/aes.h */
void fc_aes_set_enc_key_generic(fc_aes_key *key, const uint8_t *user_key,
                                size_t key_bytes)
{
    static const uint8_t rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10,
                                     0x20, 0x40, 0x80, 0x1b, 0x36};
    /* FIPS-197 5.2 with words as big-endian integers, so RotWord is a
     * rotation left by 8 and Rcon sits in the top byte. */
    uint32_t w[4 * (FC_AES_MAX_ROUNDS + 1)];
    uint8_t rkb[16];
    const unsigned nk = (unsigned)(key_bytes / 4);
    const unsigned rounds = nk + 6;
    const unsigned total = 4 * (rounds + 1);

    for (unsigned i = 0; i < nk; i++)
        w[i] = fc_load_be32(user_key + 4 * i);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0)
            t = sub_word((t << 8) | (t >> 24)) ^
                ((uint32_t)rcon[i / nk - 1] << 24);
        else if (nk > 6 && i % nk == 4)
            t = sub_word(t);
        w[i] = w[i - nk] ^ t;
    }

    /* Compress each round key: plane j of byte (r, c) goes to bit
     * 16 r + 4 c + (j % 4) of word j / 4 (see the header comment). */
    for (unsigned r = 0; r <= rounds; r++) {
        uint64_t cw[2] = {0, 0};
        for (unsigned c = 0; c < 4; c++)
            fc_store_be32(rkb + 4 * c, w[4 * r + c]);
        for (unsigned i = 0; i < 16; i++)
            for (unsigned j = 0; j < 8; j++)
                cw[j >> 2] |= (uint64_t)((rkb[i] >> j) & 1)
                              << (16 * (i & 3) + 4 * (i >> 2) + (j & 3));
        if (r > 0) {
            /* 0x63 in every byte (planes 0, 1, 5, 6): the S-box constant
             * left out of sbox_fwd and sbox_inv (see "The S-box circuit"). */
            cw[0] ^= 0x3333333333333333;
            cw[1] ^= 0x6666666666666666;
        }
        memcpy(key->rk[r], cw, 16);
        fc_memzero(cw, sizeof(cw));
    }
    /* Unused rounds are zeroed so that a key never carries stale data. */
    for (unsigned r = rounds + 1; r <= FC_AES_MAX_ROUNDS; r++)
        memset(key->rk[r], 0, 16);
    key->rounds = rounds;

    fc_memzero(w, sizeof(w));
    fc_memzero(rkb, sizeof(rkb));
}

/* see fc/aes.h */
void fc_aes_set_dec_key_generic(fc_aes_key *key, const uint8_t *user_key,
                                size_t key_bytes)
{
    /* The inverse cipher uses the encryption round keys as they are. */
    fc_aes_set_enc_key_generic(key, user_key, key_bytes);
}

/* see fc/aes.h */
void fc_aes_ecb_enc_generic(const fc_aes_key *key, const uint8_t *in,
                            uint8_t *out, size_t blocks)
{
    uint64_t sk[FC_AESG_SK_WORDS];
    uint64_t q[8];

    if (blocks == 0)
        return;
    expand_round_keys(sk, key);
    while (blocks > 0) {
        size_t n = blocks < 4 ? blocks : 4;
        /* All n blocks are read before any is written: in == out is fine. */
        load_blocks(q, in, n);
        encrypt_state(sk, key->rounds, q);
        store_blocks(out, q, n);
        in += 16 * n;
        out += 16 * n;
        blocks -= n;
    }
    fc_memzero(sk, sizeof(sk));
    fc_memzero(q, sizeof(q));
}

/* see fc/aes.h */
void fc_aes_cbc_enc_generic(const fc_aes_key *key, const uint8_t *in,
                            uint8_t *out, size_t blocks, uint8_t iv[16])
{
    uint64_t sk[FC_AESG_SK_WORDS];
    uint64_t q[8];
    uint64_t lo, hi;

    if (blocks == 0)
        return;
    expand_round_keys(sk, key);
    /* The chaining value stays in (lo, hi) rather than a byte buffer. */
    lo = load_le64(iv);
    hi = load_le64(iv + 8);
    for (; blocks > 0; blocks--) {
        /* Each block depends on the previous ciphertext, so only one of the
         * four slots is in use. */
        put_block(q, 0, lo ^ load_le64(in), hi ^ load_le64(in + 8));
        put_block(q, 1, 0, 0);
        put_block(q, 2, 0, 0);
        put_block(q, 3, 0, 0);
        ortho(q);
        encrypt_state(sk, key->rounds, q);
        ortho(q);
        get_block(q, 0, &lo, &hi);
        store_le64(out, lo);
        store_le64(out + 8, hi);
        in += 16;
        out += 16;
    }
    store_le64(iv, lo);
    store_le64(iv + 8, hi);
    fc_memzero(sk, sizeof(sk));
    fc_memzero(q, sizeof(q));
}

/* see fc/aes.h */
void fc_aes_cbc_dec_generic(const fc_aes_key *key, const uint8_t *in,
                            uint8_t *out, size_t blocks, uint8_t iv[16])
{
    uint64_t sk[FC_AESG_SK_WORDS];
    uint64_t q[8];
    uint8_t ct[64];

    if (blocks == 0)
        return;
    expand_round_keys(sk, key);
    while (blocks > 0) {
        size_t n = blocks < 4 ? blocks : 4;
        /* Keep the ciphertext: with in == out it is overwritten below but
         * still needed for chaining. */
        memcpy(ct, in, 16 * n);
        load_blocks(q, ct, n);
        decrypt_state(sk, key->rounds, q);
        store_blocks(out, q, n);
        fc_xor16(out, out, iv);
        for (size_t k = 1; k < n; k++)
            fc_xor16(out + 16 * k, out + 16 * k, ct + 16 * (k - 1));
        memcpy(iv, ct + 16 * (n - 1), 16);
        in += 16 * n;
        out += 16 * n;
        blocks -= n;
    }
    fc_memzero(sk, sizeof(sk));
    fc_memzero(q, sizeof(q));
}

/* see fc/aes.h */
void fc_aes_ctr32_generic(const fc_aes_key *key, const uint8_t *in,
                          uint8_t *out, size_t blocks, const uint8_t ctr[16])
{
    uint64_t sk[FC_AESG_SK_WORDS];
    uint64_t q[8];
    /* The counter block's first twelve bytes never change: bytes 0..7 are
     * |lo|, bytes 8..11 the low half of every block's |hi|. */
    const uint64_t lo = load_le64(ctr);
    const uint64_t hi = load_le64(ctr + 8) & 0xFFFFFFFF;
    uint32_t c = fc_load_be32(ctr + 12);

    if (blocks == 0)
        return;
    expand_round_keys(sk, key);
    while (blocks > 0) {
        size_t n = blocks < 4 ? blocks : 4;

        /* Four counters per pass, whatever |n|: the slots are there, and
         * the pass costs the same. inc32 is the uint32_t addition; its
         * bytes go to bytes 12..15 big-endian, i.e. byte-swapped into the
         * top of the little-endian |hi|. */
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t v = c + k;
            uint32_t be = (v >> 24) | ((v >> 8) & 0xFF00) |
                          ((v << 8) & 0xFF0000) | (v << 24);

            put_block(q, k, lo, hi | (uint64_t)be << 32);
        }
        ortho(q);
        encrypt_state(sk, key->rounds, q);
        ortho(q);
        /* Each input block is read before its output is written: in ==
         * out works. */
        for (size_t k = 0; k < n; k++) {
            uint64_t a, b;

            get_block(q, k, &a, &b);
            a ^= load_le64(in + 16 * k);
            b ^= load_le64(in + 16 * k + 8);
            store_le64(out + 16 * k, a);
            store_le64(out + 16 * k + 8, b);
        }
        c += (uint32_t)n;
        in += 16 * n;
        out += 16 * n;
        blocks -= n;
    }
    fc_memzero(sk, sizeof(sk));
    fc_memzero(q, sizeof(q));
}
