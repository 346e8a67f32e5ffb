/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_pad.h - RSA padding schemes for the provider (RFC 8017): PKCS#1 v1.5
 * signature (type 1) and encryption (type 2, with the TLS premaster
 * variant), OAEP and PSS with MGF1, and the digest descriptions (DigestInfo
 * and AlgorithmIdentifier OIDs) the signature code needs.
 *
 * Everything works on encoded messages |em| of exactly |k| bytes, k being
 * the modulus byte length, ready for (or fresh from) the raw RSA operation.
 * Hashes are EVP_MDs fetched by the caller from the provider's child
 * library context. Functions that can fail for a reason worth telling
 * raise it themselves on |prov| (FC_R_*), except the decoders of secret
 * data, which leave the single generic error to the caller.
 */
#ifndef FC_RSA_PAD_H
#define FC_RSA_PAD_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "fc/rsa.h"
#include "fc_prov.h"

/* PSS salt-length specials (the values OpenSSL's API uses). DIGEST: sLen is
 * hLen. AUTO: the maximum when signing, recovered when verifying. MAX: the
 * maximum, both ways. AUTO_DIGESTMAX (3.1+): min(hLen, maximum) when
 * signing, recovered when verifying. */
#define FC_PSS_SALTLEN_DIGEST         (-1)
#define FC_PSS_SALTLEN_AUTO           (-2)
#define FC_PSS_SALTLEN_MAX            (-3)
#define FC_PSS_SALTLEN_AUTO_DIGESTMAX (-4)

/* PKCS#1 v1.5 premaster secret length (TLS). */
#define FC_TLS_PREMASTER_LEN 48

/* A digest the RSA code knows: its sizes and the OIDs that go into
 * DigestInfo (RFC 8017 9.2) and the signature AlgorithmIdentifier. */
typedef struct fc_rsa_md_desc {
    int nid;            /* OpenSSL NID (EVP_MD_get_type) */
    size_t size;        /* output bytes */
    const uint8_t *oid; /* hash OID content octets; NULL: no DigestInfo
                         * (MD5-SHA1: the 36 bytes are signed raw) */
    size_t oid_len;
    const uint8_t *sig_oid; /* <hash>WithRSAEncryption; NULL if none */
    size_t sig_oid_len;
    int pss_ok; /* may be named in RSASSA-PSS parameters (SHA-1/SHA-2) */
    int octet;  /* PKCS#1 v1.5 signs a bare OCTET STRING, not DigestInfo
                 * (MDC-2, as OpenSSL's RSA_sign_ASN1_OCTET_STRING) */
} fc_rsa_md_desc;

/*
 * fc_rsa_md_lookup returns the description of |md| (by NID), or NULL for a
 * digest RSA signatures do not allow here (which the caller reports as
 * FC_R_DIGEST_NOT_ALLOWED). Known: MD5, SHA-1, SHA-224/256/384/512,
 * SHA-512/224, SHA-512/256, SHA3-224/256/384/512, RIPEMD-160, MD5-SHA1,
 * and the legacy provider's MD2, MD4 and MDC-2 (default accepts them).
 */
const fc_rsa_md_desc *fc_rsa_md_lookup(const EVP_MD *md);

/*
 * fc_rsa_der_algid writes the DER AlgorithmIdentifier
 * SEQUENCE { OID(oid), NULL } into |out| (capacity |cap|) and returns its
 * length, or 0 if it does not fit. |oid| is the OID's content octets.
 */
size_t fc_rsa_der_algid(uint8_t *out, size_t cap, const uint8_t *oid,
                        size_t oid_len);

/*
 * fc_rsa_pss_algid writes the DER AlgorithmIdentifier of RSASSA-PSS
 * (RFC 8017 A.2.3) with hash |md|, MGF1 with |mgf1|, and salt length
 * |saltlen| (>= 0), omitting the fields equal to their defaults (SHA-1,
 * MGF1-SHA-1, 20, trailer 1). Returns the length, or 0 if a digest cannot
 * be named in PSS parameters or the buffer is too small.
 */
size_t fc_rsa_pss_algid(uint8_t *out, size_t cap, const fc_rsa_md_desc *md,
                        const fc_rsa_md_desc *mgf1, int saltlen);

/*
 * fc_rsa_pad_pkcs1_sign writes EM = 00 01 FF..FF 00 T into |em| (k bytes),
 * where T is DigestInfo(md, |in|) when |md| is not NULL (|inlen| must be
 * md->size; for md->octet the bare OCTET STRING of |in|), or |in| itself
 * when |md| is NULL (raw signing of |inlen| bytes, e.g. MD5-SHA1 or the 36
 * bytes of `openssl speed`). Requires at least 8 bytes of FF. Returns 1,
 * or 0 with an error raised on |prov|.
 */
int fc_rsa_pad_pkcs1_sign(const fc_prov_ctx *prov, uint8_t *em, size_t k,
                          const fc_rsa_md_desc *md, const uint8_t *in,
                          size_t inlen);

/*
 * fc_rsa_pad_pkcs1_sign_alt writes the other encoding a verifier accepts
 * for |md|, if it has one: for MDC-2 (md->octet) the DigestInfo form,
 * which OpenSSL's verification takes besides the OCTET STRING it signs.
 * Returns 1 if it wrote one, else 0 (no error raised).
 */
int fc_rsa_pad_pkcs1_sign_alt(const fc_prov_ctx *prov, uint8_t *em, size_t k,
                              const fc_rsa_md_desc *md, const uint8_t *in,
                              size_t inlen);

/*
 * fc_rsa_unpad_pkcs1_sign parses a type 1 block |em| (k bytes) and sets
 * |*t|, |*tlen| to the T inside it. Returns 1, or 0 if the block is not a
 * well-formed type 1 block (no error raised: the caller reports a bad
 * signature). Data here is public (a signature), so it may branch.
 */
int fc_rsa_unpad_pkcs1_sign(const uint8_t *em, size_t k, const uint8_t **t,
                            size_t *tlen);

/*
 * fc_rsa_pad_pkcs1_enc writes EM = 00 02 PS 00 M into |em| (k bytes) with
 * PS nonzero random bytes from |rng| (at least 8). Returns 1, or 0 with an
 * error raised on |prov| (message too long, RNG failure).
 */
int fc_rsa_pad_pkcs1_enc(const fc_prov_ctx *prov, uint8_t *em, size_t k,
                         const uint8_t *m, size_t mlen, fc_rand_fn *rng,
                         void *rng_arg);

/*
 * fc_rsa_unpad_pkcs1_enc decodes a type 2 block |em| (k bytes, destroyed:
 * used as scratch) into |out| (capacity |outcap|), setting |*outlen|.
 * Returns 1 on success, 0 if the block is malformed or the message does not
 * fit in |outcap|; then |out| and |*outlen| are left unchanged. No error is
 * raised.
 * CT: every check runs on every byte with no early exit, the message length
 * is selected with masks and the message moved by a fixed sequence of
 * masked shifts; only k, |outcap| and the final 1/0 leak.
 */
int fc_rsa_unpad_pkcs1_enc(uint8_t *out, size_t outcap, size_t *outlen,
                           uint8_t *em, size_t k);

/*
 * fc_rsa_implicit_synth derives the synthetic message that PKCS#1 v1.5
 * decryption with implicit rejection returns for a bad block, as OpenSSL
 * 3.2+ does (draft-irtf-cfrg-rsa-guidance "implicit rejection"):
 *   KDK     = HMAC-SHA256(key = SHA-256(d), C), d and the ciphertext C both
 *             big-endian in k bytes (C left-padded with zeros);
 *   PRF(L, label) = the first L bits of the concatenated
 *             HMAC-SHA256(KDK, be16(i) || label || be16(L)), i = 0, 1, ...;
 *   |synth| = PRF(8k, "message") (k bytes);
 *   the length: PRF(2048, "length") read as 128 big-endian 16-bit values,
 *             each ANDed with the smallest all-ones mask covering k - 10;
 *             the last one below k - 10 wins (0 if none).
 * The message is the last |*synth_len| bytes of |synth|. |d| and |c| are k
 * bytes each. Returns 1, or 0 with an error raised on |prov| (a digest or
 * MAC failure).
 * CT: HMAC and SHA-256 run through EVP on secret data; the length is
 * selected with masks.
 */
int fc_rsa_implicit_synth(const fc_prov_ctx *prov, uint8_t *synth,
                          size_t *synth_len, const uint8_t *d, const uint8_t *c,
                          size_t k);

/*
 * fc_rsa_unpad_pkcs1_implicit decodes the type 2 block |em| (k bytes,
 * destroyed) with implicit rejection: |out| (capacity at least k) receives
 * the message if the block is well formed, else the synthetic message (the
 * last |synth_len| bytes of |synth|, from fc_rsa_implicit_synth), and
 * |*outlen| its length. It cannot fail.
 * CT: which of the two was chosen reaches no branch or address; the
 * length of the result is the only output (public once returned).
 */
void fc_rsa_unpad_pkcs1_implicit(uint8_t *out, size_t *outlen, uint8_t *em,
                                 size_t k, const uint8_t *synth,
                                 size_t synth_len);

/*
 * fc_rsa_unpad_pkcs1_tls decodes the PKCS#1 type 2 block |em| (k bytes) of
 * a TLS RSA key exchange into |out| (48 bytes): if the block is well formed,
 * holds exactly 48 bytes and those start with the version |client_version|
 * (or |alt_version| when nonzero), |out| receives them; otherwise |out|
 * receives |rnd| (48 random bytes the caller drew beforehand). It cannot
 * fail.
 * CT: which of the two was chosen does not leak (RFC 5246 7.4.7.1).
 */
void fc_rsa_unpad_pkcs1_tls(uint8_t out[FC_TLS_PREMASTER_LEN],
                            const uint8_t *em, size_t k,
                            unsigned int client_version,
                            unsigned int alt_version,
                            const uint8_t rnd[FC_TLS_PREMASTER_LEN]);

/*
 * fc_rsa_pad_oaep writes the EME-OAEP encoding (RFC 8017 7.1.1) of |m|
 * under label |label| with hash |md| and MGF1 hash |mgf1| into |em| (k
 * bytes); the seed comes from |rng|. Returns 1, or 0 with an error raised
 * on |prov| (message too long for k, digest or RNG failure).
 */
int fc_rsa_pad_oaep(const fc_prov_ctx *prov, uint8_t *em, size_t k,
                    const uint8_t *m, size_t mlen, const uint8_t *label,
                    size_t label_len, const EVP_MD *md, const EVP_MD *mgf1,
                    fc_rand_fn *rng, void *rng_arg);

/*
 * fc_rsa_unpad_oaep decodes an EME-OAEP block |em| (k bytes, destroyed)
 * into |out| (capacity |outcap|), setting |*outlen|. Returns 1 on success;
 * 0 if the block is malformed, the message does not fit, or a digest call
 * failed, leaving |out| and |*outlen| unchanged. No error is raised.
 * CT: as fc_rsa_unpad_pkcs1_enc; the label hash comparison, the 00 byte,
 * the 01 separator search and the zero-padding check are all masked.
 */
int fc_rsa_unpad_oaep(uint8_t *out, size_t outcap, size_t *outlen, uint8_t *em,
                      size_t k, const uint8_t *label, size_t label_len,
                      const EVP_MD *md, const EVP_MD *mgf1);

/*
 * fc_rsa_pss_saltlen_sign resolves the salt length actually used when
 * signing with a |hlen|-byte hash and a |modbits|-bit modulus: -1 gives
 * hLen, -2 and -3 the maximum emLen - hLen - 2, -4 the smaller of hLen and
 * that maximum, a value >= 0 itself. Returns -1 (and raises on |prov|) if
 * the value is invalid or does not fit.
 */
int fc_rsa_pss_saltlen_sign(const fc_prov_ctx *prov, int saltlen, size_t hlen,
                            size_t modbits);

/*
 * fc_rsa_pad_pss writes the EMSA-PSS encoding (RFC 8017 9.1.1) of the hash
 * |mhash| (md's size) into |em| (k bytes, with a leading zero byte when
 * modbits - 1 is a multiple of 8) for a |modbits|-bit modulus, with a
 * random salt of the length fc_rsa_pss_saltlen_sign gives for |saltlen|.
 * Returns 1, or 0 with an error raised on |prov|.
 */
int fc_rsa_pad_pss(const fc_prov_ctx *prov, uint8_t *em, size_t k,
                   size_t modbits, const uint8_t *mhash, const EVP_MD *md,
                   const EVP_MD *mgf1, int saltlen, fc_rand_fn *rng,
                   void *rng_arg);

/*
 * fc_rsa_verify_pss checks that |em| (k bytes, the public RSA operation's
 * output) is a valid EMSA-PSS encoding of |mhash| (RFC 8017 9.1.2).
 * |saltlen|: -1 requires hLen, -3 requires the maximum, -2 and -4 accept any
 * salt length (recovered from the block), a value >= 0 requires exactly
 * that. Returns 1 if valid, 0 otherwise (with an error raised on |prov|).
 * Data here is public.
 */
int fc_rsa_verify_pss(const fc_prov_ctx *prov, const uint8_t *em, size_t k,
                      size_t modbits, const uint8_t *mhash, const EVP_MD *md,
                      const EVP_MD *mgf1, int saltlen);

#endif /* FC_RSA_PAD_H */
