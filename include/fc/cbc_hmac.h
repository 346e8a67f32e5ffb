/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/cbc_hmac.h - AES-CBC with HMAC-SHA-1/SHA-256 in the TLS 1.0-1.2
 * MAC-then-encrypt record format (RFC 5246 6.2.3.1-2): the core of the
 * AES-*-CBC-HMAC-SHA* ciphers libssl fetches when encrypt-then-MAC is not
 * negotiated. No OpenSSL dependency.
 *
 * A record, as CBC encrypts it, reads
 *
 *     [explicit IV block] | payload | MAC | padding | length byte
 *
 * where MAC = HMAC(mac_key, header || payload) and header is the 13-byte
 * TLS pseudo-header seq_num(8) | type(1) | version(2) | length(2), the
 * length being the payload's. The explicit IV block (TLS 1.1+) is CBC
 * encrypted like the rest (the caller fills it with random bytes) and is
 * not MACed.
 *
 * The CBC encryption of a record is one serial AES chain that leaves most
 * of the core idle; the stitched kernels (fc_cbc_sha_ops) run the SHA
 * rounds of the MAC in its shadow, 64 bytes (four AES blocks, one SHA
 * block) per step. Decryption runs the block-parallel CBC decryption, then
 * the MAC.
 *
 * What is secret when opening a record: the decrypted bytes, hence the
 * padding length, the payload length and where the MAC sits, and whether
 * padding and MAC are good (a timing difference between a bad padding and
 * a bad MAC is the Lucky Thirteen attack, AlFardan and Paterson 2013).
 * fc_cbc_hmac_open computes the HMAC with a number of compression-function
 * calls that depends only on the record length, builds the blocks around
 * the secret end of the payload with masks, picks the inner digest out of
 * the candidate states with masks, and compares padding and MAC without
 * early exit; its verdict is a mask. What is public: record length, MAC
 * size, protocol version and the rest of the header.
 */
#ifndef FC_CBC_HMAC_H
#define FC_CBC_HMAC_H

#include <stddef.h>
#include <stdint.h>

#include "fc/aes.h"
#include "fc/sha.h"

/*
 * The stitched kernel prototype: CBC-encrypts the |blocks| x 64 bytes at
 * |buf| in place, chaining from |iv| (left holding the last ciphertext
 * block), and absorbs the |blocks| 64-byte blocks at |sha_in| into the
 * chaining value |h| (5 or 8 words, as the fc_sha_blocks_fn of the same
 * hash). The key is an encryption schedule of the AES-NI layout (fc/aes.h),
 * 16-byte aligned as the type makes it. |sha_in| may lie at or after |buf|
 * or outside it: each step loads its SHA block before it stores its
 * ciphertext, so the MAC input is read before it is overwritten. blocks
 * == 0 is a no-op. CT: no branch or address depends on key, data or state.
 */
typedef void fc_cbc_sha_enc_fn(const fc_aes_key *key, uint8_t *buf,
                               size_t blocks, uint8_t iv[16], uint32_t *h,
                               const uint8_t *sha_in);

typedef struct fc_cbc_sha_ops {
    FC_KERNEL_HEAD; /* name, required_caps, tier (fc/kernel.h) */
    /* NULL in the "none" table: AES and SHA then run one after the other. */
    fc_cbc_sha_enc_fn *sha1_enc;
    fc_cbc_sha_enc_fn *sha256_enc;
} fc_cbc_sha_ops;

extern const fc_cbc_sha_ops fc_cbc_sha_ops_none;
#if defined(__x86_64__) && !defined(FC_NO_ASM)
extern const fc_cbc_sha_ops fc_cbc_sha_ops_aesni_shani_avx512;
extern const fc_cbc_sha_ops fc_cbc_sha_ops_aesni_shani;
#endif

/*
 * fc_cbc_sha_select returns the stitched kernels for a CPU with |caps|, or
 * the "none" table; never NULL. A stitched table needs the AES table the
 * same |caps| select (fc_aes_select) to use the AES-NI key layout, which
 * its required_caps guarantee.
 */
const fc_cbc_sha_ops *fc_cbc_sha_select(uint32_t caps);

/* fc_cbc_sha_impls lists every table compiled in, stitched first, "none"
 * last; |*count| receives the number. */
const fc_cbc_sha_ops *const *fc_cbc_sha_impls(size_t *count);

/*
 * One direction's keys and kernels. |ks| is an encryption or decryption
 * schedule made with |aes| (the caller expands it: k->aes->set_enc_key).
 * |inner| and |outer| hold the HMAC key as fc_hmac_sha_key leaves it, or,
 * before any MAC key is set, the bare initial hash value (nothing
 * absorbed), which makes the "HMAC" H(H(header || payload)), as OpenSSL's
 * stitched ciphers compute it without a key. Flat: copies are deep.
 */
typedef struct fc_cbc_hmac_key {
    fc_aes_key ks;
    fc_sha_hash hash;
    fc_sha_state inner, outer;
    const fc_aes_ops *aes;
    fc_cbc_sha_enc_fn *stitch; /* NULL: AES, then SHA */
} fc_cbc_hmac_key;

/* Bytes of the TLS pseudo-header the MAC covers. */
#define FC_TLS_HDR_LEN 13

/*
 * fc_cbc_hmac_init sets up |k| for |alg| on the kernels of |aes|, |sha|
 * and |stitch| (the stitched kernel is used only if |aes| is an AES-NI
 * layout table and |stitch| has one for |alg|), with no MAC key and no AES
 * key yet.
 */
void fc_cbc_hmac_init(fc_cbc_hmac_key *k, const fc_aes_ops *aes,
                      const fc_sha_ops *sha, const fc_cbc_sha_ops *stitch,
                      fc_sha_alg alg);

/* fc_cbc_hmac_set_mac_key sets the HMAC key (|len| bytes, any length).
 * CT: only |len| leaks. */
void fc_cbc_hmac_set_mac_key(fc_cbc_hmac_key *k, const uint8_t *key,
                             size_t len);

/* fc_cbc_hmac_sealed_len returns the record length fc_cbc_hmac_seal
 * writes for |eiv| (0 or 16) + |plen| payload bytes and a |mac_len| MAC:
 * rounded up to whole blocks with 1..16 bytes of padding. */
static inline size_t fc_cbc_hmac_sealed_len(size_t eiv, size_t plen,
                                            size_t mac_len)
{
    return (eiv + plen + mac_len + 16) & ~(size_t)15;
}

/* The longest payload fc_cbc_hmac_seal takes: far above any TLS record
 * (2^14 bytes), far below a length that wrapped around. */
#define FC_CBC_HMAC_MAX_PAYLOAD ((size_t)1 << 40)

/*
 * fc_cbc_hmac_seal writes the record of the |eiv| (0 or 16) explicit-IV
 * bytes and |plen| payload bytes at |in| to |out|: MAC over |hdr| (whose
 * length field the caller set to |plen|) and the payload, then TLS
 * padding (each byte the padding length minus one), then CBC encryption
 * of everything from |iv|, which is left holding the last ciphertext
 * block. Writes fc_cbc_hmac_sealed_len(eiv, plen, mac) bytes and returns
 * 1; returns 0 and writes nothing if |eiv| is neither 0 nor 16 or |plen|
 * exceeds FC_CBC_HMAC_MAX_PAYLOAD (a caller's length gone wrong). in ==
 * out or no overlap. CT: only the lengths leak.
 */
int fc_cbc_hmac_seal(const fc_cbc_hmac_key *k, uint8_t iv[16],
                     const uint8_t hdr[FC_TLS_HDR_LEN], const uint8_t *in,
                     uint8_t *out, size_t eiv, size_t plen);

/*
 * fc_cbc_hmac_open decrypts the |len|-byte record at |in| to |out| (in ==
 * out or no overlap) and checks it: with |eiv| = 16 the first block is the
 * explicit IV (it becomes the chaining value; its plaintext is not part of
 * the record: for SHA-1 |out|'s first block is left as it was, for SHA-256
 * it receives that block decrypted from |iv|, as OpenSSL's ciphers do),
 * else the chain continues from |iv|; |iv| is left holding
 * the last ciphertext block. The padding must be TLS padding that leaves
 * room for the MAC, and the MAC must equal HMAC(hdr || payload) with the
 * header's length field replaced by the payload length (|hdr|'s own bytes
 * 11-12 are ignored). The caller guarantees len % 16 == 0 and len >= eiv
 * + mac + 1. Returns all-ones if padding and MAC are good, else 0, and
 * stores the payload length in |*plen| (len - eiv - mac when the padding
 * is bad); the payload is at |out| + eiv. Both results are as secret as
 * the record: declassify them once the verdict is public.
 * CT: the padding length, payload length, MAC position and verdict do not
 * reach a branch or an address; the number of compression-function calls
 * depends only on |len|.
 */
uint64_t fc_cbc_hmac_open(const fc_cbc_hmac_key *k, uint8_t iv[16],
                          const uint8_t hdr[FC_TLS_HDR_LEN], const uint8_t *in,
                          uint8_t *out, size_t len, size_t eiv, size_t *plen);

/*
 * fc_cbc_hmac_enc_hash CBC-encrypts |len| bytes (a multiple of 16) at |in|
 * to |out| from |iv| and absorbs the plaintext into |st|; fc_cbc_hmac_dec_hash
 * decrypts and absorbs the result. The ciphers' non-TLS mode: OpenSSL's
 * keeps such a running hash (it is never output), so that `openssl speed`
 * measures the stitched work. in == out or no overlap. CT: only |len|
 * leaks.
 */
void fc_cbc_hmac_enc_hash(const fc_cbc_hmac_key *k, fc_sha_state *st,
                          const uint8_t *in, uint8_t *out, size_t len,
                          uint8_t iv[16]);
void fc_cbc_hmac_dec_hash(const fc_cbc_hmac_key *k, fc_sha_state *st,
                          const uint8_t *in, uint8_t *out, size_t len,
                          uint8_t iv[16]);

#if defined(__x86_64__) && !defined(FC_NO_ASM)
/* x86-64 AES-NI + SHA-NI (asm/x86_64/aes_cbc_sha_ni.S), fc_cbc_sha_enc_fn
 * contracts; the table needs AESNI | SSSE3 | SSE4.1 | SHA, the _avx512
 * one (VPROLD in the SHA-1 schedule) also FC_CAP_AVX512. */
void fc_aes_cbc_sha1_enc_shani(const fc_aes_key *key, uint8_t *buf,
                               size_t blocks, uint8_t iv[16], uint32_t *h,
                               const uint8_t *sha_in);
void fc_aes_cbc_sha1_enc_shani_avx512(const fc_aes_key *key, uint8_t *buf,
                                      size_t blocks, uint8_t iv[16],
                                      uint32_t *h, const uint8_t *sha_in);
void fc_aes_cbc_sha256_enc_shani(const fc_aes_key *key, uint8_t *buf,
                                 size_t blocks, uint8_t iv[16], uint32_t *h,
                                 const uint8_t *sha_in);
#endif

#endif /* FC_CBC_HMAC_H */
