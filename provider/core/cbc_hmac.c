/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cbc_hmac.c - TLS MAC-then-encrypt records with AES-CBC and HMAC-SHA-1/
 * SHA-256 (see fc/cbc_hmac.h): sealing with the stitched kernels where the
 * CPU has them, and opening in constant time.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fc/cbc_hmac.h"
#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/ct.h"
#include "fc/tls_cbc.h"

const fc_cbc_sha_ops fc_cbc_sha_ops_none = {
    .name = "none",
    .tier = FC_TIER_GENERIC,
    .required_caps = 0,
    .sha1_enc = NULL,
    .sha256_enc = NULL,
};

#if defined(__x86_64__) && !defined(FC_NO_ASM)
const fc_cbc_sha_ops fc_cbc_sha_ops_aesni_shani_avx512 = {
    .name = "aesni-shani-avx512",
    .tier = FC_TIER_512,
    .required_caps =
        FC_CAP_AESNI | FC_CAP_SSSE3 | FC_CAP_SSE41 | FC_CAP_SHA | FC_CAP_AVX512,
    .sha1_enc = fc_aes_cbc_sha1_enc_shani_avx512,
    .sha256_enc = fc_aes_cbc_sha256_enc_shani,
};

const fc_cbc_sha_ops fc_cbc_sha_ops_aesni_shani = {
    .name = "aesni-shani",
    .tier = FC_TIER_128,
    .required_caps = FC_CAP_AESNI | FC_CAP_SSSE3 | FC_CAP_SSE41 | FC_CAP_SHA,
    .sha1_enc = fc_aes_cbc_sha1_enc_shani,
    .sha256_enc = fc_aes_cbc_sha256_enc_shani,
};
#endif

/* Stitched first; "none" is always last. */
static const fc_cbc_sha_ops *const fc_cbc_sha_table[] = {
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    &fc_cbc_sha_ops_aesni_shani_avx512,
    &fc_cbc_sha_ops_aesni_shani,
#endif
    &fc_cbc_sha_ops_none,
};

/* see fc/cbc_hmac.h */
const fc_cbc_sha_ops *const *fc_cbc_sha_impls(size_t *count)
{
    *count = FC_ARRAY_LEN(fc_cbc_sha_table);
    return fc_cbc_sha_table;
}

/* see fc/cbc_hmac.h */
const fc_cbc_sha_ops *fc_cbc_sha_select(uint32_t caps)
{
    return fc_kernel_select((const void *const *)fc_cbc_sha_table,
                            FC_ARRAY_LEN(fc_cbc_sha_table), caps, FC_TIER_512);
}

/* Whether |aes| keeps its schedules in the AES-NI layout the stitched
 * kernels read. */
static int fc_aes_is_aesni_layout(const fc_aes_ops *aes)
{
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    return aes->set_enc_key == fc_aes_set_enc_key_aesni;
#else
    (void)aes;
    return 0;
#endif
}

/* see fc/cbc_hmac.h */
void fc_cbc_hmac_init(fc_cbc_hmac_key *k, const fc_aes_ops *aes,
                      const fc_sha_ops *sha, const fc_cbc_sha_ops *stitch,
                      fc_sha_alg alg)
{
    memset(k, 0, sizeof(*k));
    k->aes = aes;
    fc_sha_hash_for(&k->hash, sha, alg);
    fc_sha_init(&k->hash, &k->inner);
    fc_sha_init(&k->hash, &k->outer);
    k->stitch = NULL;
    if (fc_aes_is_aesni_layout(aes))
        k->stitch = alg == FC_SHA1 ? stitch->sha1_enc : stitch->sha256_enc;
}

/* see fc/cbc_hmac.h */
void fc_cbc_hmac_set_mac_key(fc_cbc_hmac_key *k, const uint8_t *key, size_t len)
{
    fc_hmac_sha_key(&k->hash, &k->inner, &k->outer, key, len);
}

/*
 * Absorbs the |m| bytes at |msg| into |st| and, where the stitched kernel
 * can take them, CBC-encrypts |buf| in place from its start, 64 bytes for
 * every whole SHA block it hashes. |msg| lies at or after |buf| (or
 * outside it), so the bytes encrypted are ones already known: at most
 * msg + m - buf. Returns the bytes encrypted (a multiple of 64); the
 * caller encrypts the rest. Without a stitched kernel it only hashes.
 */
static size_t fc_cbc_hmac_stitch(const fc_cbc_hmac_key *k, fc_sha_state *st,
                                 uint8_t *buf, const uint8_t *msg, size_t m,
                                 uint8_t iv[16])
{
    const size_t fill =
        (FC_SHA_BLOCK - (size_t)(st->n % FC_SHA_BLOCK)) % FC_SHA_BLOCK;
    size_t blocks;

    if (k->stitch == NULL || m < fill + FC_SHA_BLOCK) {
        fc_sha_update(&k->hash, st, msg, m);
        return 0;
    }
    /* Complete the partial SHA block; then the kernel hashes whole blocks
     * straight from |msg|, level with or ahead of its AES. */
    fc_sha_update(&k->hash, st, msg, fill);
    blocks = (m - fill) / FC_SHA_BLOCK;
    k->stitch(&k->ks, buf, blocks, iv, st->h, msg + fill);
    st->n += blocks * FC_SHA_BLOCK;
    fc_sha_update(&k->hash, st, msg + fill + blocks * FC_SHA_BLOCK,
                  m - fill - blocks * FC_SHA_BLOCK);
    return blocks * FC_SHA_BLOCK;
}

/* see fc/cbc_hmac.h */
int fc_cbc_hmac_seal(const fc_cbc_hmac_key *k, uint8_t iv[16],
                     const uint8_t hdr[FC_TLS_HDR_LEN], const uint8_t *in,
                     uint8_t *out, size_t eiv, size_t plen)
{
    const size_t dlen = k->hash.len, end = eiv + plen;
    const size_t total = fc_cbc_hmac_sealed_len(eiv, plen, dlen);
    fc_sha_state st;
    uint8_t md[FC_SHA_MAX_LEN];
    size_t done;

    /* The preconditions the lengths below rest on: a length that wrapped
     * in the caller's arithmetic stops here, before any byte is written. */
    if ((eiv != 0 && eiv != 16) || plen > FC_CBC_HMAC_MAX_PAYLOAD)
        return 0;
    st = k->inner;

    /* The record is built in place at |out| (libssl's own layout). */
    if (in != out)
        memcpy(out, in, end);
    fc_sha_update(&k->hash, &st, hdr, FC_TLS_HDR_LEN);
    done = fc_cbc_hmac_stitch(k, &st, out, out + eiv, plen, iv);
    /* What the kernel left: the MAC, the padding, then one CBC pass over
     * the rest of the record. */
    fc_sha_final(&k->hash, &st, md);
    st = k->outer;
    fc_sha_update(&k->hash, &st, md, dlen);
    fc_sha_final(&k->hash, &st, out + end);
    memset(out + end + dlen, (int)(total - end - dlen - 1), total - end - dlen);
    k->aes->cbc_enc(&k->ks, out + done, out + done, (total - done) / 16, iv);
    fc_memzero(md, sizeof(md));
    fc_memzero(&st, sizeof(st));
    return 1;
}

/* see fc/cbc_hmac.h */
void fc_cbc_hmac_enc_hash(const fc_cbc_hmac_key *k, fc_sha_state *st,
                          const uint8_t *in, uint8_t *out, size_t len,
                          uint8_t iv[16])
{
    size_t done;

    if (in != out)
        memcpy(out, in, len);
    done = fc_cbc_hmac_stitch(k, st, out, out, len, iv);
    k->aes->cbc_enc(&k->ks, out + done, out + done, (len - done) / 16, iv);
}

/* see fc/cbc_hmac.h */
void fc_cbc_hmac_dec_hash(const fc_cbc_hmac_key *k, fc_sha_state *st,
                          const uint8_t *in, uint8_t *out, size_t len,
                          uint8_t iv[16])
{
    k->aes->cbc_dec(&k->ks, in, out, len / 16, iv);
    fc_sha_update(&k->hash, st, out, len);
}

/* ------------------------------------------------------------------------ */
/* Opening a record in constant time. */

/*
 * The MAC of a record being opened: HMAC over the message M = hdr[0..11)
 * || be16(d) || rec[0..d), d secret, d_min <= d <= d_max, all public but
 * d. The compression function runs on every block M could end in, a
 * count fixed by d_min and d_max; each block around the end is built with
 * masks (M's bytes below 13 + d, then 0x80, then zeros, and the bit length
 * in the last 8 bytes of the block that is M's last for this d), and the
 * state after M's last block is picked out with a mask. Writes the
 * hash->len byte MAC to |mac|.
 */
static void fc_cbc_hmac_mac_ct(const fc_cbc_hmac_key *k,
                               const uint8_t hdr[FC_TLS_HDR_LEN],
                               const uint8_t *rec, size_t rec_len, size_t d,
                               size_t d_min, size_t d_max, uint8_t *mac)
{
    const fc_sha_hash *hash = &k->hash;
    const uint64_t base = k->inner.n; /* 64 (HMAC) or 0: whole blocks */
    const uint64_t end = FC_TLS_HDR_LEN + (uint64_t)d; /* M's length */
    /* M's last block for this d: room for 0x80 and the 8-byte length. */
    const uint64_t last = (end + 8) / FC_SHA_BLOCK;
    /* Blocks wholly below 13 + d_min are M's for every d; the others up
     * to M's last block for d_max are built with masks. */
    const size_t pub = (FC_TLS_HDR_LEN + d_min) / FC_SHA_BLOCK;
    const size_t nblk = (FC_TLS_HDR_LEN + d_max + 8) / FC_SHA_BLOCK + 1;
    uint8_t first[FC_SHA_BLOCK] = {0}, blk[FC_SHA_BLOCK], bits[8];
    uint32_t h[FC_SHA_MAX_WORDS], acc[FC_SHA_MAX_WORDS] = {0};
    uint64_t bits_be;
    fc_sha_state st;

    /* The bit length of the inner message, as the last 8 bytes of M's last
     * block hold it (big-endian), read as our little-endian words are. */
    fc_store_be64(bits, (base + end) * 8);
    bits_be = fc_load_le64(bits);

    /* Block 0 of M: the header (with the secret length, at a public place)
     * and the first bytes of the record. */
    memcpy(first, hdr, 11);
    first[11] = (uint8_t)(d >> 8);
    first[12] = (uint8_t)d;
    memcpy(first + FC_TLS_HDR_LEN, rec,
           rec_len < FC_SHA_BLOCK - FC_TLS_HDR_LEN
               ? rec_len
               : FC_SHA_BLOCK - FC_TLS_HDR_LEN);
    memcpy(h, k->inner.h, sizeof(h));
    if (pub > 0) {
        hash->blocks(h, first, 1);
        hash->blocks(h, rec + FC_SHA_BLOCK - FC_TLS_HDR_LEN, pub - 1);
    }
    for (size_t b = pub; b < nblk; b++) {
        const uint64_t is_last = fc_ct_eq(b, last);

        for (size_t w = 0; w < FC_SHA_BLOCK / 8; w++) {
            /* M bytes i0..i0+7; from |first| in block 0, else rec[i - 13],
             * read only below rec_len (a public bound). */
            const size_t i0 = b * FC_SHA_BLOCK + 8 * w;
            uint8_t src[8] = {0};
            uint64_t v, keep, at80;

            if (b == 0) {
                memcpy(src, first + i0, 8);
            } else if (i0 - FC_TLS_HDR_LEN < rec_len) {
                size_t avail = rec_len - (i0 - FC_TLS_HDR_LEN);
                memcpy(src, rec + i0 - FC_TLS_HDR_LEN, avail < 8 ? avail : 8);
            }
            v = fc_load_le64(src);
            keep = fc_ct_lanes_lt(fc_ct_sub_clamp8(end, i0));
            at80 = fc_ct_lanes_lt(fc_ct_sub_clamp8(end + 1, i0)) & ~keep;
            v = (v & keep) | (at80 & 0x8080808080808080u);
            if (w == FC_SHA_BLOCK / 8 - 1)
                v |= bits_be & is_last;
            fc_store_le64(blk + 8 * w, v);
        }
        hash->blocks(h, blk, 1);
        for (size_t i = 0; i < hash->words; i++)
            acc[i] |= h[i] & (uint32_t)is_last;
    }

    /* Outer hash over the inner digest: public shape. */
    fc_sha_store(hash, acc, blk);
    st = k->outer;
    fc_sha_update(hash, &st, blk, hash->len);
    fc_sha_final(hash, &st, mac);
    fc_memzero(first, sizeof(first));
    fc_memzero(blk, sizeof(blk));
    fc_memzero(bits, sizeof(bits));
    fc_memzero(h, sizeof(h));
    fc_memzero(acc, sizeof(acc));
}

/* see fc/cbc_hmac.h */
uint64_t fc_cbc_hmac_open(const fc_cbc_hmac_key *k, uint8_t iv[16],
                          const uint8_t hdr[FC_TLS_HDR_LEN], const uint8_t *in,
                          uint8_t *out, size_t len, size_t eiv, size_t *plen)
{
    const size_t dlen = k->hash.len;
    uint8_t mac[FC_SHA_MAX_LEN], got[FC_SHA_MAX_LEN], *rec;
    size_t rlen, unpadded, d, d_min;
    uint64_t good;

    /* An explicit IV is the chaining value of the rest. What becomes of
     * |out|'s first block follows OpenSSL's stitched ciphers (3.0 to 3.6):
     * the SHA-1 ones leave it alone, the SHA-256 ones decrypt it with the
     * context's IV like any other block (its plaintext is meaningless and
     * libssl drops it). The rest of the record decrypts the same either
     * way. */
    if (eiv != 0 && k->hash.alg == FC_SHA1) {
        memcpy(iv, in, 16);
        k->aes->cbc_dec(&k->ks, in + eiv, out + eiv, (len - eiv) / 16, iv);
    } else {
        k->aes->cbc_dec(&k->ks, in, out, len / 16, iv);
    }
    rec = out + eiv;
    rlen = len - eiv;
    /* Padding: the last byte p and the p bytes before it all equal p, with
     * room for the MAC; else unpadded = rlen (fc/tls_cbc.h). Either way the
     * MAC is taken to end there. */
    good = fc_tls_cbc_unpad(rec, rlen, dlen, &unpadded);
    d = unpadded - dlen;
    d_min =
        rlen - dlen > FC_TLS_CBC_MAX_PAD ? rlen - dlen - FC_TLS_CBC_MAX_PAD : 0;
    fc_cbc_hmac_mac_ct(k, hdr, rec, rlen, d, d_min, rlen - dlen, mac);
    /* The received MAC, moved out of its secret position. */
    fc_tls_cbc_copy_mac(got, dlen, rec, rlen, unpadded, ~(uint64_t)0, mac);
    good &= fc_ct_memeq(mac, got, dlen);
    *plen = d;
    fc_memzero(mac, sizeof(mac));
    fc_memzero(got, sizeof(got));
    return good;
}
