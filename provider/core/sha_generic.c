/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sha_generic.c - the SHA-1 and SHA-256 compression functions in portable
 * C (FIPS 180-4 6.1.2 and 6.2.2): the fallback on CPUs without SHA
 * instructions and the oracle of the kernel tests.
 *
 * Both keep the message schedule in a 16-word ring (W[t] overwrites
 * W[t-16], which is its last reader) and unroll the rounds eight at a time
 * by renaming the working variables, so no round moves data. Rotations are
 * written as shifts; the compiler turns them into ROL/ROR. Nothing is
 * indexed by data and nothing branches on it: constant time as written.
 */
#include <stddef.h>
#include <stdint.h>

#include "fc/common.h"
#include "fc/sha.h"

static inline uint32_t fc_rol32(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

static inline uint32_t fc_ror32(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

/* ------------------------------------------------------------------------ */
/* SHA-1 (FIPS 180-4 6.1.2). */

/* W[t] for t >= 16 into the ring slot of W[t-16]. */
#define SHA1_W(w, t)                                                           \
    (w[(t)&15] = fc_rol32(                                                     \
         w[((t)-3) & 15] ^ w[((t)-8) & 15] ^ w[((t)-14) & 15] ^ w[(t)&15], 1))

/* One round: e += ROTL5(a) + f(b, c, d) + K + W; b = ROTL30(b). The caller
 * renames (a, b, c, d, e) -> (e, a, b, c, d) for the next round. */
#define SHA1_R(a, b, c, d, e, f, k, wt)                                        \
    do {                                                                       \
        e += fc_rol32(a, 5) + (f) + (k) + (wt);                                \
        b = fc_rol32(b, 30);                                                   \
    } while (0)

#define SHA1_CH(b, c, d)  ((((c) ^ (d)) & (b)) ^ (d))
#define SHA1_PAR(b, c, d) ((b) ^ (c) ^ (d))
#define SHA1_MAJ(b, c, d) (((b) & (c)) | (((b) | (c)) & (d)))

/* Five rounds t..t+4 of one function; W from the block (t < 16) or the
 * schedule. */
#define SHA1_5(t, F, K, WF)                                                    \
    do {                                                                       \
        SHA1_R(a, b, c, d, e, F(b, c, d), K, WF(t));                           \
        SHA1_R(e, a, b, c, d, F(a, b, c), K, WF((t) + 1));                     \
        SHA1_R(d, e, a, b, c, F(e, a, b), K, WF((t) + 2));                     \
        SHA1_R(c, d, e, a, b, F(d, e, a), K, WF((t) + 3));                     \
        SHA1_R(b, c, d, e, a, F(c, d, e), K, WF((t) + 4));                     \
    } while (0)

/* see fc/sha.h */
void fc_sha1_blocks_generic(uint32_t *h, const uint8_t *in, size_t blocks)
{
    uint32_t w[16];

    for (; blocks != 0; blocks--, in += FC_SHA_BLOCK) {
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];

#define WIN(t)  (w[(t)] = fc_load_be32(in + 4 * (t)))
#define WSCH(t) SHA1_W(w, t)
        SHA1_5(0, SHA1_CH, 0x5a827999u, WIN);
        SHA1_5(5, SHA1_CH, 0x5a827999u, WIN);
        SHA1_5(10, SHA1_CH, 0x5a827999u, WIN);
        SHA1_R(a, b, c, d, e, SHA1_CH(b, c, d), 0x5a827999u, WIN(15));
        SHA1_R(e, a, b, c, d, SHA1_CH(a, b, c), 0x5a827999u, WSCH(16));
        SHA1_R(d, e, a, b, c, SHA1_CH(e, a, b), 0x5a827999u, WSCH(17));
        SHA1_R(c, d, e, a, b, SHA1_CH(d, e, a), 0x5a827999u, WSCH(18));
        SHA1_R(b, c, d, e, a, SHA1_CH(c, d, e), 0x5a827999u, WSCH(19));
        for (int t = 20; t < 40; t += 5)
            SHA1_5(t, SHA1_PAR, 0x6ed9eba1u, WSCH);
        for (int t = 40; t < 60; t += 5)
            SHA1_5(t, SHA1_MAJ, 0x8f1bbcdcu, WSCH);
        for (int t = 60; t < 80; t += 5)
            SHA1_5(t, SHA1_PAR, 0xca62c1d6u, WSCH);
#undef WIN
#undef WSCH
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
    }
    fc_memzero(w, sizeof(w));
}

/* ------------------------------------------------------------------------ */
/* SHA-256 (FIPS 180-4 6.2.2). */

static const uint32_t fc_sha256_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu,
    0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u, 0xd807aa98u, 0x12835b01u,
    0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u,
    0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu,
    0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u,
    0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u,
    0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u,
    0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u, 0x1e376c08u,
    0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu,
    0x682e6ff3u, 0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
    0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};

#define S256_S0(x) (fc_ror32(x, 2) ^ fc_ror32(x, 13) ^ fc_ror32(x, 22))
#define S256_S1(x) (fc_ror32(x, 6) ^ fc_ror32(x, 11) ^ fc_ror32(x, 25))
#define S256_s0(x) (fc_ror32(x, 7) ^ fc_ror32(x, 18) ^ ((x) >> 3))
#define S256_s1(x) (fc_ror32(x, 17) ^ fc_ror32(x, 19) ^ ((x) >> 10))

/* W[t] for t >= 16 into the ring slot of W[t-16]. */
#define S256_W(w, t)                                                           \
    (w[(t)&15] +=                                                              \
     S256_s1(w[((t)-2) & 15]) + w[((t)-7) & 15] + S256_s0(w[((t)-15) & 15]))

/* One round; the caller renames (a..h) -> (h, a, ..., g) for the next. */
#define S256_R(a, b, c, d, e, f, g, h, t, wt)                                  \
    do {                                                                       \
        uint32_t t1 = (h) + S256_S1(e) + ((((f) ^ (g)) & (e)) ^ (g)) +         \
                      fc_sha256_k[t] + (wt);                                   \
        uint32_t t2 = S256_S0(a) + (((a) & (b)) | (((a) | (b)) & (c)));        \
        d += t1;                                                               \
        h = t1 + t2;                                                           \
    } while (0)

#define S256_8(t, WF)                                                          \
    do {                                                                       \
        S256_R(a, b, c, d, e, f, g, hh, (t), WF(t));                           \
        S256_R(hh, a, b, c, d, e, f, g, (t) + 1, WF((t) + 1));                 \
        S256_R(g, hh, a, b, c, d, e, f, (t) + 2, WF((t) + 2));                 \
        S256_R(f, g, hh, a, b, c, d, e, (t) + 3, WF((t) + 3));                 \
        S256_R(e, f, g, hh, a, b, c, d, (t) + 4, WF((t) + 4));                 \
        S256_R(d, e, f, g, hh, a, b, c, (t) + 5, WF((t) + 5));                 \
        S256_R(c, d, e, f, g, hh, a, b, (t) + 6, WF((t) + 6));                 \
        S256_R(b, c, d, e, f, g, hh, a, (t) + 7, WF((t) + 7));                 \
    } while (0)

/* see fc/sha.h */
void fc_sha256_blocks_generic(uint32_t *h, const uint8_t *in, size_t blocks)
{
    uint32_t w[16];

    for (; blocks != 0; blocks--, in += FC_SHA_BLOCK) {
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
        uint32_t e = h[4], f = h[5], g = h[6], hh = h[7];

#define WIN(t)  (w[(t)] = fc_load_be32(in + 4 * (t)))
#define WSCH(t) S256_W(w, t)
        S256_8(0, WIN);
        S256_8(8, WIN);
        for (int t = 16; t < 64; t += 8)
            S256_8(t, WSCH);
#undef WIN
#undef WSCH
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
    }
    fc_memzero(w, sizeof(w));
}
