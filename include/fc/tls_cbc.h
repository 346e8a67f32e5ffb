/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/tls_cbc.h - constant-time padding helpers for 16-byte-block CBC:
 * the PKCS#7 check of a final block, and the TLS/SSLv3 record padding and
 * MAC extraction used by the AES-CBC cipher in TLS record mode.
 *
 * A decrypted TLS CBC record, after any explicit IV block, reads
 *
 *     payload | MAC (mac_size bytes) | padding | length byte
 *
 * TLS 1.0-1.2 and DTLS (RFC 5246 6.2.3.2): the padding is |length byte|
 * bytes, each equal to the length byte, so 1 to 256 bytes in all.
 * SSLv3 (RFC 6101 5.2.3.2): the padding bytes are arbitrary and padding plus
 * length byte must not exceed one block.
 *
 * What is secret: the decrypted bytes and so the padding length, the
 * position of the MAC and whether the padding is well formed (leaking the
 * last one is the classic padding oracle). What is public: the record
 * length, the MAC size and the protocol version. These functions read and
 * write a number of bytes that depends only on public values, use no secret
 * as a branch condition or memory index, and return secret results as masks
 * (all-ones or zero, see fc/ct.h) or as lengths the caller must treat as
 * secret.
 */
#ifndef FC_TLS_CBC_H
#define FC_TLS_CBC_H

#include <stddef.h>
#include <stdint.h>

#define FC_TLS_CBC_BLOCK 16
/* Largest MAC the record helpers handle (SHA-512 output). */
#define FC_TLS_CBC_MAX_MAC 64
/* Largest TLS padding, length byte included. */
#define FC_TLS_CBC_MAX_PAD 256

/*
 * fc_cbc_pkcs7_check checks the PKCS#7 padding (RFC 5652 6.3) of the
 * decrypted final block |block|: its last byte n must be 1..16 and the last
 * n bytes must all equal n. It returns all-ones if the padding is valid,
 * else 0, and stores 16 - n in |*data_len| when valid, 16 otherwise.
 * CT: reads all 16 bytes; neither the padding length nor its validity
 * leaks.
 */
uint64_t fc_cbc_pkcs7_check(const uint8_t block[16], size_t *data_len);

/*
 * fc_tls_cbc_pad appends TLS CBC padding to the |len| bytes at |rec| and
 * returns the padded length: len rounded up to the next multiple of 16,
 * always len + 1 to len + 16. Every added byte equals the number of bytes
 * added minus one; with |sslv3| set, all but the last are zero instead (the
 * form SSLv3 senders use). The caller guarantees room for 16 more bytes and
 * that len + 16 does not overflow.
 * CT: only |len| is involved, and it is public.
 */
size_t fc_tls_cbc_pad(uint8_t *rec, size_t len, int sslv3);

/*
 * fc_tls_cbc_unpad checks the padding of the decrypted TLS 1.0-1.2 or DTLS
 * record |rec| of |len| bytes (explicit IV already removed) that carries a
 * MAC of |mac_size| bytes before the padding. The caller guarantees
 * len >= mac_size + 1. The padding is well formed when its length byte p
 * leaves room for the MAC (p + 1 + mac_size <= len) and the last p + 1 bytes
 * all equal p. It returns all-ones if well formed, else 0, and stores in
 * |*unpadded_len| len - (p + 1) when well formed, len otherwise.
 * CT: reads the last min(len, 256) bytes whatever p is; only |len| and
 * |mac_size| leak, and |*unpadded_len| is as secret as the record.
 */
uint64_t fc_tls_cbc_unpad(const uint8_t *rec, size_t len, size_t mac_size,
                          size_t *unpadded_len);

/*
 * fc_ssl3_cbc_unpad is fc_tls_cbc_unpad for SSLv3 records: the padding is
 * well formed when p + 1 + mac_size <= len and p + 1 <= 16; the padding
 * bytes themselves are not checked (SSLv3 leaves them arbitrary).
 * CT: as fc_tls_cbc_unpad; reads only the last byte of |rec|.
 */
uint64_t fc_ssl3_cbc_unpad(const uint8_t *rec, size_t len, size_t mac_size,
                           size_t *unpadded_len);

/*
 * fc_tls_cbc_copy_mac copies the |mac_size| bytes that end at offset
 * |mac_end| of the decrypted record |rec| (|rec_len| bytes, the length
 * before padding removal) to |mac| where |good| is all-ones, and copies
 * |fallback| (mac_size bytes, normally random) where |good| is 0, so a bad
 * padding yields a MAC that fails to verify without a distinguishable
 * error. The caller guarantees 1 <= mac_size <= FC_TLS_CBC_MAX_MAC,
 * mac_size <= mac_end <= rec_len and rec_len - mac_end <= 256; the
 * unpadded length from either unpad function is such a |mac_end|.
 * CT: reads the last min(rec_len, mac_size + 256) bytes of |rec| and moves
 * the MAC into place with a fixed sequence of masked rotations; |mac_end|
 * and |good| do not leak, only |rec_len| and |mac_size| do.
 */
void fc_tls_cbc_copy_mac(uint8_t *mac, size_t mac_size, const uint8_t *rec,
                         size_t rec_len, size_t mac_end, uint64_t good,
                         const uint8_t *fallback);

#endif /* FC_TLS_CBC_H */
