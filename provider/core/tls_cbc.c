/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tls_cbc.c - constant-time CBC padding checks and TLS record MAC
 * extraction. No OpenSSL dependency: the caller supplies the random
 * fallback MAC.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fc/common.h"
#include "fc/ct.h"
#include "fc/tls_cbc.h"

/* see fc/tls_cbc.h */
uint64_t fc_cbc_pkcs7_check(const uint8_t block[16], size_t *data_len)
{
    uint64_t pad = block[15];
    /* 1 <= pad <= 16; a zero pad byte is never valid PKCS#7. */
    uint64_t good = ~fc_ct_is_zero(pad) & fc_ct_lt(pad, 17);
    uint64_t diff = 0;

    for (size_t i = 0; i < 16; i++) {
        /* Byte i is padding when i >= 16 - pad; written so as not to
         * underflow when pad > 16 (then no byte counts, good is 0). The
         * barrier keeps i + pad from becoming the loop counter. */
        uint64_t in_pad = fc_ct_ge(fc_ct_barrier(i) + pad, 16);
        diff |= in_pad & (uint64_t)(block[i] ^ (uint8_t)pad);
    }
    good &= fc_ct_is_zero(diff);
    *data_len = (size_t)fc_ct_select(good, 16 - pad, 16);
    return good;
}

/* see fc/tls_cbc.h */
size_t fc_tls_cbc_pad(uint8_t *rec, size_t len, int sslv3)
{
    size_t padnum = FC_TLS_CBC_BLOCK - (len % FC_TLS_CBC_BLOCK);
    uint8_t padval = (uint8_t)(padnum - 1);

    if (sslv3) {
        /* SSLv3 only defines the length byte; zeros before it. */
        memset(rec + len, 0, padnum - 1);
        rec[len + padnum - 1] = padval;
    } else {
        memset(rec + len, padval, padnum);
    }
    return len + padnum;
}

/* The 8 bytes of |p| at |i|, little-endian, or those below |end| (a
 * public bound) with 0 in the lanes past it. */
static inline uint64_t fc_load_le64_upto(const uint8_t *p, size_t i, size_t end)
{
    uint8_t b[8] = {0};

    if (FC_LIKELY(end - i >= 8))
        return fc_load_le64(p + i);
    for (size_t j = 0; j < end - i; j++)
        b[j] = p[i + j];
    return fc_load_le64(b);
}

/* see fc/tls_cbc.h */
uint64_t fc_tls_cbc_unpad(const uint8_t *rec, size_t len, size_t mac_size,
                          size_t *unpadded_len)
{
    uint64_t pad = rec[len - 1];
    /* The padding and its length byte must leave room for the MAC. */
    uint64_t good = fc_ct_ge(len, (uint64_t)mac_size + 1 + pad);
    /* Check the largest padding possible, not pad + 1 bytes: how many bytes
     * we look at must not depend on the secret length byte. The record
     * length bounds the window, and it is public. */
    size_t to_check = len < FC_TLS_CBC_MAX_PAD ? len : FC_TLS_CBC_MAX_PAD;
    /* Bytes from |first| on are padding (length byte included); 0 when the
     * length byte points before the record (good is 0 then anyway). */
    uint64_t first = fc_ct_select(fc_ct_ge(len, pad + 1), len - 1 - pad, 0);
    uint64_t padw = pad * 0x0101010101010101u, diff = 0;

    /* Eight bytes a step: the lanes at or after |first| must equal pad.
     * Addresses and the step count depend on |len| alone. */
    for (size_t i = len - to_check; i < len; i += 8) {
        uint64_t v = fc_load_le64_upto(rec, i, len);
        uint64_t in_pad = ~fc_ct_lanes_lt(fc_ct_sub_clamp8(first, i)) &
                          fc_ct_lanes_lt(fc_ct_sub_clamp8(len, i));

        diff |= (v ^ padw) & in_pad;
    }
    good &= fc_ct_is_zero(diff);
    *unpadded_len = len - (size_t)(good & (pad + 1));
    return good;
}

/* see fc/tls_cbc.h */
uint64_t fc_ssl3_cbc_unpad(const uint8_t *rec, size_t len, size_t mac_size,
                           size_t *unpadded_len)
{
    uint64_t pad = rec[len - 1];
    uint64_t good = fc_ct_ge(len, (uint64_t)mac_size + 1 + pad);

    /* SSLv3 requires minimal padding: at most one block with the length
     * byte. The padding bytes themselves carry no defined value. */
    good &= fc_ct_ge(FC_TLS_CBC_BLOCK, pad + 1);
    *unpadded_len = len - (size_t)(good & (pad + 1));
    return good;
}

/*
 * fc_tls_cbc_gather_mac is pass 1 of fc_tls_cbc_copy_mac for MAC sizes that
 * are multiples of 4 (all the TLS MACs: 20, 32, 48, 64): the window is
 * read eight bytes at a time and ORed, masked to the MAC's bytes, into a
 * ring of P = lcm(mac_size, 8) bytes, which then folds to mac_size. The
 * same rotated result as the byte loop, with an eighth of the steps.
 */
static void fc_tls_cbc_gather_mac(uint8_t *rot, size_t mac_size,
                                  const uint8_t *rec, size_t rec_len,
                                  size_t scan_start, size_t mac_start,
                                  size_t mac_end)
{
    uint64_t acc[16] = {0};
    uint8_t ring[128];
    const size_t period = mac_size % 8 != 0 ? 2 * mac_size : mac_size;
    const size_t words = period / 8;
    size_t k = 0;

    for (size_t i = scan_start; i < rec_len; i += 8) {
        uint64_t v = fc_load_le64_upto(rec, i, rec_len);
        uint64_t in_mac = fc_ct_lanes_lt(fc_ct_sub_clamp8(mac_end, i)) &
                          ~fc_ct_lanes_lt(fc_ct_sub_clamp8(mac_start, i));

        acc[k] |= v & in_mac;
        k = k + 1 == words ? 0 : k + 1;
    }
    for (size_t w = 0; w < words; w++)
        fc_store_le64(ring + 8 * w, acc[w]);
    /* Byte j of the ring is window position j (mod period); one of the two
     * positions j, j + mac_size holds a MAC byte at most. */
    for (size_t j = 0; j < mac_size; j++)
        rot[j] =
            (uint8_t)(ring[j] | (period > mac_size ? ring[j + mac_size] : 0));
    fc_memzero(acc, sizeof(acc));
    fc_memzero(ring, sizeof(ring));
}

/* see fc/tls_cbc.h */
void fc_tls_cbc_copy_mac(uint8_t *mac, size_t mac_size, const uint8_t *rec,
                         size_t rec_len, size_t mac_end, uint64_t good,
                         const uint8_t *fallback)
{
    uint8_t rot[FC_TLS_CBC_MAX_MAC];
    size_t mac_start = mac_end - mac_size;
    size_t scan_start = 0, j = 0;
    uint64_t in_mac = 0, offset = 0;
    uint8_t good8;

    /* Outside the contract (1 <= mac_size <= FC_TLS_CBC_MAX_MAC) rot and
     * the rings below would overflow: such a call gets the fallback, a
     * MAC that fails to verify. mac_size is public, so is this branch;
     * it also shows the compiler the bound on every index below. */
    if (mac_size == 0 || mac_size > FC_TLS_CBC_MAX_MAC) {
        memcpy(mac, fallback, mac_size);
        return;
    }

    /* The MAC ends at most 256 bytes (the largest padding) before the end
     * of the record, so only the last mac_size + 256 bytes can hold it.
     * The record length is public: this branch leaks nothing. */
    if (rec_len > mac_size + FC_TLS_CBC_MAX_PAD)
        scan_start = rec_len - (mac_size + FC_TLS_CBC_MAX_PAD);

    if (mac_size % 4 == 0) {
        /* Pass 1, eight bytes a step (fc_tls_cbc_gather_mac); the rotation
         * is (mac_start - scan_start) mod mac_size, reduced by a ladder
         * of masked subtractions (a division's time may depend on its
         * operands). The difference is below 320 and mac_size >= 4. */
        uint64_t x = mac_start - scan_start;

        fc_tls_cbc_gather_mac(rot, mac_size, rec, rec_len, scan_start,
                              mac_start, mac_end);
        for (int b = 6; b >= 0; b--) {
            uint64_t t = (uint64_t)mac_size << b;
            x = fc_ct_select(fc_ct_ge(x, t), x - t, x);
        }
        offset = x;
    } else {
        /*
         * Pass 1: OR every byte of the window into rot[j], j cycling
         * through 0..mac_size-1 with the position (public), masked so
         * that only the MAC bytes land. The MAC ends up rotated: byte m
         * of it sits in rot[(offset + m) % mac_size], where offset is the
         * (secret) cycle position of mac_start.
         */
        memset(rot, 0, mac_size);
        for (size_t i = scan_start; i < rec_len; i++) {
            /* Barrier: keep the address rec + i out of the secret
             * arithmetic (see fc_tls_cbc_unpad). */
            uint64_t ib = fc_ct_barrier(i);
            uint64_t started = fc_ct_eq(ib, mac_start);

            in_mac = (in_mac | started) & fc_ct_lt(ib, mac_end);
            offset |= j & started;
            rot[j] |= rec[i] & (uint8_t)in_mac;
            j = (j + 1 == mac_size) ? 0 : j + 1;
        }
    }

    /*
     * Pass 2: rotate left by offset (< mac_size <= 64). rot is laid out
     * twice in a row in words; a barrel shifter moves the whole of it
     * down by 2^b bytes where bit b of offset is set (a masked select per
     * word, shift amounts public), and the MAC is then its first mac_size
     * bytes. Neither offset nor mac_end reaches an address.
     */
    {
        uint64_t w[FC_TLS_CBC_MAX_MAC / 4 + 1] = {0};
        uint8_t twice[2 * FC_TLS_CBC_MAX_MAC + 8] = {0};
        const size_t nw = (2 * mac_size + 7) / 8;

        memcpy(twice, rot, mac_size);
        memcpy(twice + mac_size, rot, mac_size);
        for (size_t k = 0; k < nw; k++)
            w[k] = fc_load_le64(twice + 8 * k);
        for (unsigned b = 0; ((size_t)1 << b) < mac_size; b++) {
            const size_t amt = (size_t)1 << b;
            const uint64_t take = 0 - ((fc_ct_barrier(offset) >> b) & 1);

            for (size_t k = 0; k < nw; k++) {
                uint64_t moved;

                if (amt < 8)
                    moved = (w[k] >> (8 * amt)) | (w[k + 1] << (64 - 8 * amt));
                else
                    moved = k + amt / 8 < nw ? w[k + amt / 8] : 0;
                w[k] = fc_ct_select(take, moved, w[k]);
            }
        }
        for (size_t k = 0; k < nw; k++)
            fc_store_le64(twice + 8 * k, w[k]);
        memcpy(rot, twice, mac_size);
        fc_memzero(w, sizeof(w));
        fc_memzero(twice, sizeof(twice));
    }

    /* A bad padding yields the caller's random MAC, indistinguishably. */
    good8 = (uint8_t)fc_ct_barrier(good);
    for (size_t m = 0; m < mac_size; m++)
        mac[m] = fc_ct_select8(good8, rot[m], fallback[m]);

    fc_memzero(rot, sizeof(rot));
}
