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

_Static_assert(offsetof(fc_gcm_key, aes) == FC_OFF_GCM_AES, "aes offset");
_Static_assert(offsetof(fc_gcm_key, htable) == FC_OFF_GCM_HTABLE,
               "htable offset");

/* ------------------------------------------------------------------------ */
/* Implementation tables. */

static const fc_gcm_ops fc_gcm_ops_generic = {
    .name = "generic",
    .required_caps = 0,
    .aes = &fc_aes_ops_generic,
    .init = fc_gcm_init_generic,
    .ghash = fc_ghash_generic,
    .enc = fc_gcm_enc_generic,
    .dec = fc_gcm_dec_generic,
};

#if defined(__x86_64__) && !defined(FC_NO_ASM)
/* required_caps spell out fc_gcm_aesni_avx_capable (fc/cpu.h). */
static const fc_gcm_ops fc_gcm_ops_aesni_avx = {
    .name = "aesni-avx",
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
    .required_caps = FC_CAP_ARM_AES | FC_CAP_ARM_PMULL | FC_CAP_ARM_SHA3,
    .aes = &fc_aes_ops_ce,
    .init = fc_gcm_init_ce,
    .ghash = fc_ghash_ce_sha3,
    .enc = fc_gcm_enc_ce_sha3,
    .dec = fc_gcm_dec_ce_sha3,
};

static const fc_gcm_ops fc_gcm_ops_ce_pmull = {
    .name = "ce-pmull",
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
const fc_gcm_ops *fc_gcm_select(uint32_t caps)
{
    for (size_t i = 0; i < FC_ARRAY_LEN(fc_gcm_table); i++) {
        uint32_t need = fc_gcm_table[i]->required_caps;
        if ((caps & need) == need)
            return fc_gcm_table[i];
    }
    return &fc_gcm_ops_generic;
}

/* ------------------------------------------------------------------------ */
/* Key and message state. */

/* Multiplying by H alone is a GHASH step over a zero block; the second
 * block lets fc_gcm_finish close a partial block and hash the lengths in
 * one kernel call. */
static const uint8_t fc_gcm_zero[16];

/* see fc/gcm.h */
void fc_gcm_set_key(fc_gcm_key *key, const fc_gcm_ops *ops,
                    const uint8_t *user_key, size_t key_bytes)
{
    uint8_t h[16] = {0};

    key->ops = ops;
    ops->aes->set_enc_key(&key->aes, user_key, key_bytes);
    ops->aes->ecb_enc(&key->aes, h, h, 1);
    ops->init(key->htable, h);
    fc_memzero(h, sizeof(h));
}

/* see fc/gcm.h */
int fc_gcm_set_iv(const fc_gcm_key *key, fc_gcm_state *st, const uint8_t *iv,
                  size_t iv_len)
{
    const fc_gcm_ops *ops = key->ops;

    if (iv_len == 0 || (uint64_t)iv_len > FC_GCM_MAX_IV_BYTES)
        return 0;
    if (iv_len == 12) {
        /* The 96-bit fast path: J0 = IV || 0^31 || 1. */
        memcpy(st->ctr, iv, 12);
        fc_store_be32(st->ctr + 12, 1);
    } else {
        /* J0 = GHASH(IV || 0^(s+64) || [len(IV)]_64), computed in |ctr|
         * with a zero start. The last, padded IV block and the length
         * block go to the kernel in one call. */
        size_t full = iv_len / 16, rem = iv_len % 16;
        uint8_t last[32] = {0};

        memset(st->ctr, 0, 16);
        ops->ghash(key->htable, st->ctr, iv, full);
        memcpy(last, iv + 16 * full, rem);
        fc_store_be64(last + 24, (uint64_t)iv_len * 8);
        if (rem != 0)
            ops->ghash(key->htable, st->ctr, last, 2);
        else
            ops->ghash(key->htable, st->ctr, last + 16, 1);
    }
    ops->aes->ecb_enc(&key->aes, st->ctr, st->ek0, 1);
    /* The first data block uses inc32(J0). */
    fc_store_be32(st->ctr + 12, fc_load_be32(st->ctr + 12) + 1);
    memset(st->xi, 0, sizeof(st->xi));
    st->aad_len = 0;
    st->msg_len = 0;
    st->ares = 0;
    st->mres = 0;
    return 1;
}

/* see fc/gcm.h */
int fc_gcm_aad(const fc_gcm_key *key, fc_gcm_state *st, const uint8_t *aad,
               size_t len)
{
    const fc_gcm_ops *ops = key->ops;
    size_t full;

    if (len == 0)
        return 1;
    if (st->msg_len != 0 || (uint64_t)len > FC_GCM_MAX_AAD_BYTES - st->aad_len)
        return 0;
    st->aad_len += len;

    /* Top up an unfinished block; its bytes are already XORed into xi. */
    if (st->ares != 0) {
        while (st->ares < 16 && len > 0) {
            st->xi[st->ares++] ^= *aad++;
            len--;
        }
        if (st->ares < 16)
            return 1;
        ops->ghash(key->htable, st->xi, fc_gcm_zero, 1);
        st->ares = 0;
    }
    full = len / 16;
    if (full != 0) {
        ops->ghash(key->htable, st->xi, aad, full);
        aad += 16 * full;
        len -= 16 * full;
    }
    for (size_t i = 0; i < len; i++)
        st->xi[i] ^= aad[i];
    st->ares = (uint32_t)len;
    return 1;
}

/*
 * Whole blocks through the kernel, in one call. SP 800-38D's inc32 wraps
 * the low 32 bits of the counter without carrying into the rest; the
 * kernels implement exactly that (fc/gcm.h), so a run that crosses 2^32
 * needs no special case here, and neither the kernel nor this function
 * branches on the counter, which is secret for IVs other than 96 bits
 * (J0 = GHASH_H(IV)). The write-back is the same inc32: a 32-bit add.
 */
static void fc_gcm_blocks(const fc_gcm_key *key, fc_gcm_state *st,
                          const uint8_t *in, uint8_t *out, size_t blocks,
                          int enc)
{
    fc_gcm_crypt_fn *fn = enc ? key->ops->enc : key->ops->dec;

    fn(key, in, out, blocks, st->ctr, st->xi);
    fc_store_be32(st->ctr + 12, fc_load_be32(st->ctr + 12) + (uint32_t)blocks);
}

static int fc_gcm_crypt(const fc_gcm_key *key, fc_gcm_state *st,
                        const uint8_t *in, uint8_t *out, size_t len, int enc)
{
    const fc_gcm_ops *ops = key->ops;
    size_t bulk;

    if ((uint64_t)len > FC_GCM_MAX_MSG_BYTES - st->msg_len)
        return 0;
    if (len == 0)
        return 1;
    /* AAD ends here: close its last block (zero padding is implicit). */
    if (st->ares != 0) {
        ops->ghash(key->htable, st->xi, fc_gcm_zero, 1);
        st->ares = 0;
    }
    st->msg_len += len;

    /* Finish the keystream block a previous call started. The ciphertext
     * byte is read (decrypt) or computed (encrypt) before |out| is
     * written, so in == out works. */
    if (st->mres != 0) {
        while (st->mres < 16 && len > 0) {
            uint8_t b = *in++, c = enc ? (uint8_t)(b ^ st->ks[st->mres]) : b;

            *out++ = (uint8_t)(b ^ st->ks[st->mres]);
            st->xi[st->mres++] ^= c;
            len--;
        }
        if (st->mres < 16)
            return 1;
        ops->ghash(key->htable, st->xi, fc_gcm_zero, 1);
        st->mres = 0;
    }

    bulk = len / 16;
    if (bulk != 0) {
        fc_gcm_blocks(key, st, in, out, bulk, enc);
        in += 16 * bulk;
        out += 16 * bulk;
        len -= 16 * bulk;
    }

    /* A partial last block: one keystream block, kept for the next call. */
    if (len != 0) {
        ops->aes->ecb_enc(&key->aes, st->ctr, st->ks, 1);
        fc_store_be32(st->ctr + 12, fc_load_be32(st->ctr + 12) + 1);
        for (size_t i = 0; i < len; i++) {
            uint8_t b = in[i], c = enc ? (uint8_t)(b ^ st->ks[i]) : b;

            out[i] = (uint8_t)(b ^ st->ks[i]);
            st->xi[i] ^= c;
        }
        st->mres = (uint32_t)len;
    }
    return 1;
}

/* see fc/gcm.h */
int fc_gcm_encrypt(const fc_gcm_key *key, fc_gcm_state *st, const uint8_t *in,
                   uint8_t *out, size_t len)
{
    return fc_gcm_crypt(key, st, in, out, len, 1);
}

/* see fc/gcm.h */
int fc_gcm_decrypt(const fc_gcm_key *key, fc_gcm_state *st, const uint8_t *in,
                   uint8_t *out, size_t len)
{
    return fc_gcm_crypt(key, st, in, out, len, 0);
}

/* see fc/gcm.h */
void fc_gcm_finish(const fc_gcm_key *key, fc_gcm_state *st,
                   uint8_t tag[FC_GCM_TAG_BYTES])
{
    /* [zero block][len(A)_64 || len(C)_64]: the zero block closes an
     * unfinished AAD or data block (at most one of them is open). */
    uint8_t blk[32] = {0};

    fc_store_be64(blk + 16, st->aad_len * 8);
    fc_store_be64(blk + 24, st->msg_len * 8);
    if (st->ares != 0 || st->mres != 0)
        key->ops->ghash(key->htable, st->xi, blk, 2);
    else
        key->ops->ghash(key->htable, st->xi, blk + 16, 1);
    fc_xor16(tag, st->xi, st->ek0);
    /* Nothing of the keystream or the hash state outlives the message. */
    fc_memzero(st->ks, sizeof(st->ks));
    st->ares = 0;
    st->mres = 0;
}

/* see fc/gcm.h */
int fc_gcm_verify(const fc_gcm_key *key, fc_gcm_state *st, const uint8_t *tag,
                  size_t tag_len)
{
    uint8_t full[FC_GCM_TAG_BYTES];
    uint64_t ok;

    if (tag_len == 0 || tag_len > FC_GCM_TAG_BYTES)
        return 0;
    fc_gcm_finish(key, st, full);
    ok = fc_ct_memeq(full, tag, tag_len);
    fc_memzero(full, sizeof(full));
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

/* Length of the cross-check message: two 8-block groups plus 5 blocks and
 * 7 bytes, so the 8-block loops, the block tail and a partial block all
 * run; long enough for a 16-block ymm loop too. */
#define FC_ST_XLEN (16 * 37 + 7)

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
        size_t cuts[4] = {3, 3 + 16 * 9, 3 + 16 * 26 + 5, FC_ST_XLEN};

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
