/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctr_drbg.c - the SP 800-90A Rev. 1 CTR_DRBG mechanism (10.2.1) with and
 * without Block_Cipher_df (10.3.2), on the AES table (its ECB and CTR), and
 * the operating system's entropy source. No OpenSSL in here; policy (reseed
 * interval, prediction resistance, fork safety, locking) lives in
 * provider/rand_ctr_drbg.c.
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

#include "fc/common.h"
#include "fc/drbg.h"

/* Blocks per kernel call while generating: 4 KiB stays in L1, and
 * the call overhead is nothing against 256 blocks. */
#define FC_DRBG_BATCH_BLOCKS 256

/* The df key, 10.3.2 step 8: leftmost keylen bytes of 00 01 02 ... 1F. */
static const uint8_t fc_df_key[32] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
    0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
    0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f};

/* Zero blocks for fc_aes_ctr128 to XOR the keystream into: the DRBG's
 * output is the keystream itself (in L1, for one batch). */
static const uint8_t fc_drbg_zero[16 * FC_DRBG_BATCH_BLOCKS];

/*
 * Writes |blocks| blocks of E(K, V+1), E(K, V+2), ... to |out| (10.2.1.2
 * step 2 and 10.2.1.5.1 step 4: V is incremented before each block), then
 * sets V = V + blocks. The counter runs over all 128 bits (ctr_len =
 * blocklen) through the AES table's CTR mode (fc_aes_ctr128: V is secret,
 * see its CT note). At most FC_DRBG_BATCH_BLOCKS blocks.
 */
static void fc_ctr_keystream(fc_ctr_drbg *d, uint8_t *out, size_t blocks)
{
    uint8_t ctr[16];

    memcpy(ctr, d->V, 16);
    fc_ctr128_add(ctr, 1);
    fc_aes_ctr128(d->aes, &d->ks, fc_drbg_zero, out, blocks, ctr);
    fc_ctr128_add(d->V, blocks);
    fc_memzero(ctr, sizeof(ctr));
}

/* ---- CTR_DRBG_Update (10.2.1.2) ----------------------------------------- */

/*
 * (K, V) = Update(provided_data, K, V). |provided| is seedlen bytes, or
 * NULL for the all-zero string. Leaves |ks| keyed with the new K.
 */
static void fc_ctr_update(fc_ctr_drbg *d, const uint8_t *provided)
{
    uint8_t temp[48];
    /* seedlen is 32, 40 or 48 bytes: 2, 3 or 3 blocks (10.2.1.2 step 2).
     * V moves on here too, and is replaced below. */
    size_t nblk = (d->seedlen + 15) / 16;

    fc_ctr_keystream(d, temp, nblk);
    if (provided != NULL) {
        for (size_t i = 0; i < d->seedlen; i++)
            temp[i] ^= provided[i];
    }
    memcpy(d->K, temp, d->keylen);
    memcpy(d->V, temp + d->keylen, 16);
    d->aes->set_enc_key(&d->ks, d->K, d->keylen);
    fc_memzero(temp, sizeof(temp));
}

/* ---- Block_Cipher_df (10.3.2) and BCC (10.3.3) -------------------------- */

/*
 * The df runs 2 (AES-128) or 3 BCC chains over the same string
 * IV_i || S, i = 0, 1, 2. The chains differ only in their first block, so
 * they advance together: every block of S is XORed into each chaining value
 * and the 2-3 blocks go to the kernel in one call.
 */
typedef struct {
    const fc_ctr_drbg *d;
    size_t nchains;
    uint8_t chain[48];
    uint8_t buf[16];
    size_t pos;
} fc_df_state;

static void fc_df_block(fc_df_state *s, const uint8_t blk[16])
{
    for (size_t j = 0; j < s->nchains; j++)
        fc_xor16(s->chain + 16 * j, s->chain + 16 * j, blk);
    s->d->aes->ecb_enc(&s->d->ks_df, s->chain, s->chain, s->nchains);
}

static void fc_df_absorb(fc_df_state *s, const uint8_t *in, size_t len)
{
    if (len == 0)
        return;
    if (s->pos > 0) {
        size_t take = 16 - s->pos;
        if (take > len)
            take = len;
        memcpy(s->buf + s->pos, in, take);
        s->pos += take;
        in += take;
        len -= take;
        if (s->pos < 16)
            return;
        fc_df_block(s, s->buf);
        s->pos = 0;
    }
    for (; len >= 16; in += 16, len -= 16)
        fc_df_block(s, in);
    memcpy(s->buf, in, len);
    s->pos = len;
}

/*
 * out (seedlen bytes) = Block_Cipher_df(in1 || in2 || in3, seedlen). The
 * caller has checked that the total length fits in 32 bits.
 */
static void fc_ctr_df(const fc_ctr_drbg *d, const uint8_t *in1, size_t len1,
                      const uint8_t *in2, size_t len2, const uint8_t *in3,
                      size_t len3, uint8_t out[FC_CTR_DRBG_MAX_SEEDLEN])
{
    fc_df_state s;
    fc_aes_key ks;
    uint8_t hdr[8], X[16], pad = 0x80;
    size_t total = len1 + len2 + len3;

    s.d = d;
    s.nchains = (d->keylen + 16 + 15) / 16; /* keylen + outlen bits */
    s.pos = 0;
    /* Step 9: each chain starts from E(K, IV_i), IV_i = i || 0^96. */
    memset(s.chain, 0, sizeof(s.chain));
    for (size_t i = 0; i < s.nchains; i++)
        fc_store_be32(s.chain + 16 * i, (uint32_t)i);
    d->aes->ecb_enc(&d->ks_df, s.chain, s.chain, s.nchains);

    /* Steps 2-4: S = L || N || input_string || 0x80 || 0^*, where L and N
     * are 32-bit big-endian byte counts (N = seedlen). */
    fc_store_be32(hdr, (uint32_t)total);
    fc_store_be32(hdr + 4, (uint32_t)d->seedlen);
    fc_df_absorb(&s, hdr, 8);
    fc_df_absorb(&s, in1, in1 == NULL ? 0 : len1);
    fc_df_absorb(&s, in2, in2 == NULL ? 0 : len2);
    fc_df_absorb(&s, in3, in3 == NULL ? 0 : len3);
    fc_df_absorb(&s, &pad, 1);
    if (s.pos > 0) {
        memset(s.buf + s.pos, 0, 16 - s.pos);
        fc_df_block(&s, s.buf);
    }

    /* Steps 10-15: K = leftmost keylen bytes of temp, X the next block;
     * then X = E(K, X) chained until seedlen bytes are out. */
    d->aes->set_enc_key(&ks, s.chain, d->keylen);
    memcpy(X, s.chain + d->keylen, 16);
    for (size_t off = 0; off < d->seedlen; off += 16) {
        size_t n = d->seedlen - off < 16 ? d->seedlen - off : 16;
        d->aes->ecb_enc(&ks, X, X, 1);
        memcpy(out + off, X, n);
    }
    fc_memzero(&ks, sizeof(ks));
    fc_memzero(&s, sizeof(s));
    fc_memzero(X, sizeof(X));
}

/* ---- the mechanism ------------------------------------------------------ */

/* see fc/drbg.h */
int fc_ctr_drbg_init(fc_ctr_drbg *d, const fc_aes_ops *aes, size_t keylen,
                     int use_df)
{
    if (aes == NULL || (keylen != 16 && keylen != 24 && keylen != 32))
        return 0;
    memset(d, 0, sizeof(*d));
    d->aes = aes;
    d->keylen = keylen;
    d->seedlen = keylen + 16;
    d->use_df = use_df != 0;
    /* The df key is a public constant: its schedule is made once. */
    aes->set_enc_key(&d->ks_df, fc_df_key, keylen);
    return 1;
}

/*
 * seed_material for the no-df variants: |entropy| (exactly seedlen bytes)
 * XOR |extra| zero-padded to seedlen (10.2.1.3.1 steps 1-3).
 */
static int fc_seed_nodf(const fc_ctr_drbg *d, const uint8_t *entropy,
                        size_t entropy_len, const uint8_t *extra,
                        size_t extra_len, uint8_t out[48])
{
    if (entropy == NULL || entropy_len != d->seedlen || extra_len > d->seedlen)
        return 0;
    memcpy(out, entropy, d->seedlen);
    for (size_t i = 0; i < extra_len; i++)
        out[i] ^= extra[i];
    return 1;
}

/* The df inputs together must fit the 32-bit length field. */
static int fc_df_lengths_ok(size_t a, size_t b, size_t c)
{
    return a <= FC_CTR_DRBG_MAX_LENGTH && b <= FC_CTR_DRBG_MAX_LENGTH &&
           c <= FC_CTR_DRBG_MAX_LENGTH && a + b + c <= FC_CTR_DRBG_MAX_LENGTH;
}

/* see fc/drbg.h */
int fc_ctr_drbg_instantiate(fc_ctr_drbg *d, const uint8_t *entropy,
                            size_t entropy_len, const uint8_t *nonce,
                            size_t nonce_len, const uint8_t *pers,
                            size_t pers_len)
{
    uint8_t seed[FC_CTR_DRBG_MAX_SEEDLEN];

    if (nonce == NULL)
        nonce_len = 0;
    if (pers == NULL)
        pers_len = 0;
    if (d->use_df) {
        if (entropy == NULL ||
            !fc_df_lengths_ok(entropy_len, nonce_len, pers_len))
            return 0;
        fc_ctr_df(d, entropy, entropy_len, nonce, nonce_len, pers, pers_len,
                  seed);
    } else if (!fc_seed_nodf(d, entropy, entropy_len, pers, pers_len, seed)) {
        return 0;
    }
    /* Steps 4-6: Key = 0^keylen, V = 0^128, then Update(seed_material). */
    memset(d->K, 0, sizeof(d->K));
    memset(d->V, 0, sizeof(d->V));
    d->aes->set_enc_key(&d->ks, d->K, d->keylen);
    fc_ctr_update(d, seed);
    fc_memzero(seed, sizeof(seed));
    d->reseed_counter = 1;
    d->instantiated = 1;
    return 1;
}

/* see fc/drbg.h */
int fc_ctr_drbg_reseed(fc_ctr_drbg *d, const uint8_t *entropy,
                       size_t entropy_len, const uint8_t *adin, size_t adin_len)
{
    uint8_t seed[FC_CTR_DRBG_MAX_SEEDLEN];

    if (!d->instantiated)
        return 0;
    if (adin == NULL)
        adin_len = 0;
    if (d->use_df) {
        if (entropy == NULL || !fc_df_lengths_ok(entropy_len, adin_len, 0))
            return 0;
        fc_ctr_df(d, entropy, entropy_len, adin, adin_len, NULL, 0, seed);
    } else if (!fc_seed_nodf(d, entropy, entropy_len, adin, adin_len, seed)) {
        return 0;
    }
    fc_ctr_update(d, seed);
    fc_memzero(seed, sizeof(seed));
    d->reseed_counter = 1;
    return 1;
}

/* see fc/drbg.h */
int fc_ctr_drbg_generate(fc_ctr_drbg *d, uint8_t *out, size_t out_len,
                         const uint8_t *adin, size_t adin_len)
{
    uint8_t add[FC_CTR_DRBG_MAX_SEEDLEN], last[16];
    int have_add = 0;
    size_t full, rem;

    if (!d->instantiated || out_len > FC_CTR_DRBG_MAX_REQUEST)
        return 0;
    if (adin == NULL)
        adin_len = 0;
    if (adin_len > 0) {
        /* Step 2: additional_input is conditioned (df) or padded to
         * seedlen, mixed in, and the same string is used again in step 6. */
        if (d->use_df) {
            if (adin_len > FC_CTR_DRBG_MAX_LENGTH)
                return 0;
            fc_ctr_df(d, adin, adin_len, NULL, 0, NULL, 0, add);
        } else {
            if (adin_len > d->seedlen)
                return 0;
            memset(add, 0, sizeof(add));
            memcpy(add, adin, adin_len);
        }
        fc_ctr_update(d, add);
        have_add = 1;
    }

    /* Steps 3-5: output blocks E(K, V+1), E(K, V+2), ..., straight into
     * |out| a batch at a time; a partial last block goes through |last|. */
    full = out_len / 16;
    rem = out_len % 16;
    while (full > 0) {
        size_t n = full < FC_DRBG_BATCH_BLOCKS ? full : FC_DRBG_BATCH_BLOCKS;
        fc_ctr_keystream(d, out, n);
        out += 16 * n;
        full -= n;
    }
    if (rem > 0) {
        fc_ctr_keystream(d, last, 1);
        memcpy(out, last, rem);
        fc_memzero(last, sizeof(last));
    }

    /* Steps 6-7: backtracking resistance, whatever was requested. */
    fc_ctr_update(d, have_add ? add : NULL);
    if (have_add)
        fc_memzero(add, sizeof(add));
    d->reseed_counter++;
    return 1;
}

/* see fc/drbg.h */
void fc_ctr_drbg_uninstantiate(fc_ctr_drbg *d)
{
    fc_memzero(d->K, sizeof(d->K));
    fc_memzero(d->V, sizeof(d->V));
    fc_memzero(&d->ks, sizeof(d->ks));
    d->reseed_counter = 0;
    d->instantiated = 0;
}

/* see fc/drbg.h */
int fc_ctr_drbg_is_zeroized(const fc_ctr_drbg *d)
{
    const uint8_t *p = (const uint8_t *)&d->ks;
    uint8_t acc = 0;

    for (size_t i = 0; i < sizeof(d->K); i++)
        acc |= d->K[i];
    for (size_t i = 0; i < sizeof(d->V); i++)
        acc |= d->V[i];
    for (size_t i = 0; i < sizeof(d->ks); i++)
        acc |= p[i];
    return acc == 0;
}

/* ---- the operating system's entropy ------------------------------------- */

static int fc_urandom(uint8_t *buf, size_t len)
{
    int fd;

    do {
        fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return 0;
    while (len > 0) {
        ssize_t n = read(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return 0;
        }
        buf += n;
        len -= (size_t)n;
    }
    close(fd);
    return 1;
}

/* see fc/drbg.h */
int fc_os_entropy(uint8_t *buf, size_t len)
{
    uint8_t *const start = buf;
    const size_t total = len;

#if defined(__linux__)
    while (len > 0) {
        /* No flags: block until the pool is initialised, never after. Reads
         * of up to 256 bytes are not interrupted once it is, larger ones
         * may come back short: loop either way. */
        ssize_t n = getrandom(buf, len, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            /* Kernels before 3.17 (ENOSYS) or a sandbox that forbids the
             * call (EPERM): fall back to the device. */
            if ((errno == ENOSYS || errno == EPERM) && fc_urandom(buf, len))
                return 1;
            goto err;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 1;
#else
    while (len > 0) {
        size_t n = len < 256 ? len : 256; /* getentropy's limit */
        if (getentropy(buf, n) != 0) {
            if (fc_urandom(buf, len))
                return 1;
            goto err;
        }
        buf += n;
        len -= n;
    }
    return 1;
#endif
err:
    fc_memzero(start, total);
    return 0;
}
