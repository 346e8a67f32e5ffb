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
    uint64_t diff = 0;

    for (size_t i = 0; i < to_check; i++) {
        /* Bytes len-1-i for i = 0..pad are padding (length byte included).
         * The barrier on i stops the compiler from deriving the load
         * address from pad - i: the address is public, but valgrind's CT
         * check could not tell. */
        uint64_t in_pad = fc_ct_ge(pad, fc_ct_barrier(i));
        diff |= in_pad & (uint64_t)(rec[len - 1 - i] ^ (uint8_t)pad);
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

/* see fc/tls_cbc.h */
void fc_tls_cbc_copy_mac(uint8_t *mac, size_t mac_size, const uint8_t *rec,
                         size_t rec_len, size_t mac_end, uint64_t good,
                         const uint8_t *fallback)
{
    uint8_t rot[FC_TLS_CBC_MAX_MAC], tmp[FC_TLS_CBC_MAX_MAC];
    size_t mac_start = mac_end - mac_size;
    size_t scan_start = 0, j = 0;
    uint64_t in_mac = 0, offset = 0;
    uint8_t good8;

    /* The MAC ends at most 256 bytes (the largest padding) before the end
     * of the record, so only the last mac_size + 256 bytes can hold it.
     * The record length is public: this branch leaks nothing. */
    if (rec_len > mac_size + FC_TLS_CBC_MAX_PAD)
        scan_start = rec_len - (mac_size + FC_TLS_CBC_MAX_PAD);

    /*
     * Pass 1: OR every byte of the window into rot[j], j cycling through
     * 0..mac_size-1 with the position (public), masked so that only the MAC
     * bytes land. The MAC ends up rotated: byte m of it sits in
     * rot[(offset + m) % mac_size], where offset is the (secret) cycle
     * position of mac_start.
     */
    memset(rot, 0, mac_size);
    for (size_t i = scan_start; i < rec_len; i++) {
        /* Barrier: keep the address rec + i out of the secret arithmetic
         * (see fc_tls_cbc_unpad). */
        uint64_t ib = fc_ct_barrier(i);
        uint64_t started = fc_ct_eq(ib, mac_start);

        in_mac = (in_mac | started) & fc_ct_lt(ib, mac_end);
        offset |= j & started;
        rot[j] |= rec[i] & (uint8_t)in_mac;
        j = (j + 1 == mac_size) ? 0 : j + 1;
    }

    /*
     * Pass 2: rotate left by offset (< mac_size <= 64) as a barrel shifter:
     * one masked rotation by 2^b for each bit b of offset. Every step reads
     * every byte at public indices, so neither offset nor mac_end reaches an
     * address.
     */
    for (unsigned b = 0; ((size_t)1 << b) < mac_size; b++) {
        size_t amt = (size_t)1 << b;
        uint8_t take = (uint8_t)(0 - ((fc_ct_barrier(offset) >> b) & 1));

        for (size_t k = 0; k < mac_size; k++) {
            size_t src = k + amt;
            if (src >= mac_size)
                src -= mac_size;
            tmp[k] = fc_ct_select8(take, rot[src], rot[k]);
        }
        memcpy(rot, tmp, mac_size);
    }

    /* A bad padding yields the caller's random MAC, indistinguishably. */
    good8 = (uint8_t)fc_ct_barrier(good);
    for (size_t m = 0; m < mac_size; m++)
        mac[m] = fc_ct_select8(good8, rot[m], fallback[m]);

    fc_memzero(rot, sizeof(rot));
    fc_memzero(tmp, sizeof(tmp));
}
