/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_pad.c - RSA padding schemes (RFC 8017): EMSA-PKCS1-v1_5 and its
 * DigestInfo encodings, EME-PKCS1-v1_5 (plus the TLS premaster variant),
 * EME-OAEP and EMSA-PSS with MGF1, and the DER AlgorithmIdentifiers the
 * signature code reports. See rsa_pad.h.
 *
 * Decoders of secret data (type 2, TLS, OAEP) are written as straight-line
 * mask code: every byte is examined, positions found by scanning are
 * selected with masks, and the message is moved to the front by log2(k)
 * masked shifts of the whole buffer, so neither the padding's validity nor
 * the message length reaches a branch or an address until the single 1/0
 * result. Signature verification handles public data and may branch.
 */
#include <stdint.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/obj_mac.h>
#include <openssl/params.h>

#include "fc/common.h"
#include "fc/ct.h"
#include "rsa_pad.h"

/* ------------------------------------------------------------------------ */
/* Digests: OIDs (content octets) for DigestInfo and the signature AlgId.   */

/* 2.16.840.1.101.3.4.2.x (NIST hash algorithms) */
#define FC_OID_NISTHASH(x) 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, (x)
/* 2.16.840.1.101.3.4.3.x (NIST signature algorithms: SHA-3 with RSA) */
#define FC_OID_NISTSIG(x) 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, (x)
/* 1.2.840.113549.1.1.x (PKCS#1) */
#define FC_OID_PKCS1(x) 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, (x)

static const uint8_t fc_oid_md5[] = {0x2a, 0x86, 0x48, 0x86,
                                     0xf7, 0x0d, 0x02, 0x05};
static const uint8_t fc_oid_md2[] = {0x2a, 0x86, 0x48, 0x86,
                                     0xf7, 0x0d, 0x02, 0x02};
/* MD4 is 1.2.840.113549.2.4, but OpenSSL's DigestInfo for it (3.0 to 3.6,
 * crypto/rsa/rsa_sign.c) ends in 3, and its verification re-encodes and
 * compares: bit-identical signatures need the same bytes. */
static const uint8_t fc_oid_md4_openssl[] = {0x2a, 0x86, 0x48, 0x86,
                                             0xf7, 0x0d, 0x02, 0x03};
/* MDC-2: 2.5.8.3.101 */
static const uint8_t fc_oid_mdc2[] = {0x55, 0x08, 0x03, 0x65};
static const uint8_t fc_oid_sha1[] = {0x2b, 0x0e, 0x03, 0x02, 0x1a};
static const uint8_t fc_oid_ripemd160[] = {0x2b, 0x24, 0x03, 0x02, 0x01};
static const uint8_t fc_oid_sha256[] = {FC_OID_NISTHASH(0x01)};
static const uint8_t fc_oid_sha384[] = {FC_OID_NISTHASH(0x02)};
static const uint8_t fc_oid_sha512[] = {FC_OID_NISTHASH(0x03)};
static const uint8_t fc_oid_sha224[] = {FC_OID_NISTHASH(0x04)};
static const uint8_t fc_oid_sha512_224[] = {FC_OID_NISTHASH(0x05)};
static const uint8_t fc_oid_sha512_256[] = {FC_OID_NISTHASH(0x06)};
static const uint8_t fc_oid_sha3_224[] = {FC_OID_NISTHASH(0x07)};
static const uint8_t fc_oid_sha3_256[] = {FC_OID_NISTHASH(0x08)};
static const uint8_t fc_oid_sha3_384[] = {FC_OID_NISTHASH(0x09)};
static const uint8_t fc_oid_sha3_512[] = {FC_OID_NISTHASH(0x0a)};

static const uint8_t fc_sig_md5[] = {FC_OID_PKCS1(0x04)};
static const uint8_t fc_sig_md2[] = {FC_OID_PKCS1(0x02)};
static const uint8_t fc_sig_md4[] = {FC_OID_PKCS1(0x03)};
/* mdc2WithRSASignature, 1.3.14.3.2.14 (OIW), as default names it */
static const uint8_t fc_sig_mdc2[] = {0x2b, 0x0e, 0x03, 0x02, 0x0e};
static const uint8_t fc_sig_sha1[] = {FC_OID_PKCS1(0x05)};
static const uint8_t fc_sig_sha256[] = {FC_OID_PKCS1(0x0b)};
static const uint8_t fc_sig_sha384[] = {FC_OID_PKCS1(0x0c)};
static const uint8_t fc_sig_sha512[] = {FC_OID_PKCS1(0x0d)};
static const uint8_t fc_sig_sha224[] = {FC_OID_PKCS1(0x0e)};
static const uint8_t fc_sig_sha512_224[] = {FC_OID_PKCS1(0x0f)};
static const uint8_t fc_sig_sha512_256[] = {FC_OID_PKCS1(0x10)};
static const uint8_t fc_sig_sha3_224[] = {FC_OID_NISTSIG(0x0d)};
static const uint8_t fc_sig_sha3_256[] = {FC_OID_NISTSIG(0x0e)};
static const uint8_t fc_sig_sha3_384[] = {FC_OID_NISTSIG(0x0f)};
static const uint8_t fc_sig_sha3_512[] = {FC_OID_NISTSIG(0x10)};
/* 1.3.36.3.3.1.2 */
static const uint8_t fc_sig_ripemd160[] = {0x2b, 0x24, 0x03, 0x03, 0x01, 0x02};

static const uint8_t fc_oid_mgf1[] = {FC_OID_PKCS1(0x08)};
static const uint8_t fc_oid_rsassa_pss[] = {FC_OID_PKCS1(0x0a)};

#define FC_MD(nid, size, oid, sig, pss)                                        \
    {                                                                          \
        (nid), (size), (oid), sizeof(oid), (sig), sizeof(sig), (pss), 0        \
    }

static const fc_rsa_md_desc fc_rsa_mds[] = {
    FC_MD(NID_sha256, 32, fc_oid_sha256, fc_sig_sha256, 1),
    FC_MD(NID_sha384, 48, fc_oid_sha384, fc_sig_sha384, 1),
    FC_MD(NID_sha512, 64, fc_oid_sha512, fc_sig_sha512, 1),
    FC_MD(NID_sha1, 20, fc_oid_sha1, fc_sig_sha1, 1),
    FC_MD(NID_sha224, 28, fc_oid_sha224, fc_sig_sha224, 1),
    FC_MD(NID_sha512_224, 28, fc_oid_sha512_224, fc_sig_sha512_224, 1),
    FC_MD(NID_sha512_256, 32, fc_oid_sha512_256, fc_sig_sha512_256, 1),
    FC_MD(NID_sha3_224, 28, fc_oid_sha3_224, fc_sig_sha3_224, 0),
    FC_MD(NID_sha3_256, 32, fc_oid_sha3_256, fc_sig_sha3_256, 0),
    FC_MD(NID_sha3_384, 48, fc_oid_sha3_384, fc_sig_sha3_384, 0),
    FC_MD(NID_sha3_512, 64, fc_oid_sha3_512, fc_sig_sha3_512, 0),
    FC_MD(NID_md5, 16, fc_oid_md5, fc_sig_md5, 0),
    FC_MD(NID_ripemd160, 20, fc_oid_ripemd160, fc_sig_ripemd160, 0),
    /* The legacy provider's digests, which default's signatures take. */
    FC_MD(NID_md4, 16, fc_oid_md4_openssl, fc_sig_md4, 0),
    FC_MD(NID_md2, 16, fc_oid_md2, fc_sig_md2, 0),
    {NID_mdc2, 16, fc_oid_mdc2, sizeof(fc_oid_mdc2), fc_sig_mdc2,
     sizeof(fc_sig_mdc2), 0, 1},
    /* TLS 1.0/1.1: the concatenated hashes are signed without DigestInfo. */
    {NID_md5_sha1, 36, NULL, 0, NULL, 0, 0, 0},
};

/* see rsa_pad.h */
const fc_rsa_md_desc *fc_rsa_md_lookup(const EVP_MD *md)
{
    int nid;

    if (md == NULL)
        return NULL;
    nid = EVP_MD_get_type(md);
    for (size_t i = 0; i < FC_ARRAY_LEN(fc_rsa_mds); i++)
        if (fc_rsa_mds[i].nid == nid &&
            (size_t)EVP_MD_get_size(md) == fc_rsa_mds[i].size)
            return &fc_rsa_mds[i];
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* A tiny DER writer: short-form lengths only (everything here is < 128).  */

typedef struct fc_der {
    uint8_t *p;
    size_t cap, len;
    int ok;
} fc_der;

static void fc_der_put(fc_der *d, const uint8_t *b, size_t n)
{
    if (!d->ok || n > d->cap - d->len) {
        d->ok = 0;
        return;
    }
    memcpy(d->p + d->len, b, n);
    d->len += n;
}

static void fc_der_byte(fc_der *d, uint8_t b)
{
    fc_der_put(d, &b, 1);
}

/* Opens a constructed element: writes the tag and a placeholder length;
 * returns the position to close. */
static size_t fc_der_open(fc_der *d, uint8_t tag)
{
    fc_der_byte(d, tag);
    fc_der_byte(d, 0);
    return d->len;
}

static void fc_der_close(fc_der *d, size_t start)
{
    size_t n = d->len - start;

    if (!d->ok || n > 127) {
        d->ok = 0;
        return;
    }
    d->p[start - 1] = (uint8_t)n;
}

static void fc_der_oid(fc_der *d, const uint8_t *oid, size_t oid_len)
{
    fc_der_byte(d, 0x06);
    fc_der_byte(d, (uint8_t)oid_len);
    fc_der_put(d, oid, oid_len);
}

/* AlgorithmIdentifier with NULL parameters. */
static void fc_der_algid_null(fc_der *d, const uint8_t *oid, size_t oid_len)
{
    static const uint8_t null[] = {0x05, 0x00};
    size_t s = fc_der_open(d, 0x30);

    fc_der_oid(d, oid, oid_len);
    fc_der_put(d, null, sizeof(null));
    fc_der_close(d, s);
}

/* Minimal two's-complement INTEGER for a non-negative value. */
static void fc_der_uint(fc_der *d, uint32_t v)
{
    uint8_t b[5];
    size_t n = 0;

    for (int sh = 24; sh >= 0; sh -= 8)
        if (n > 0 || (v >> sh) != 0 || sh == 0)
            b[1 + n++] = (uint8_t)(v >> sh);
    if (b[1] & 0x80) { /* keep it positive */
        memmove(b + 2, b + 1, n);
        b[1] = 0;
        n++;
    }
    fc_der_byte(d, 0x02);
    fc_der_byte(d, (uint8_t)n);
    fc_der_put(d, b + 1, n);
}

/* see rsa_pad.h */
size_t fc_rsa_der_algid(uint8_t *out, size_t cap, const uint8_t *oid,
                        size_t oid_len)
{
    fc_der d = {out, cap, 0, 1};

    fc_der_algid_null(&d, oid, oid_len);
    return d.ok ? d.len : 0;
}

/* see rsa_pad.h */
size_t fc_rsa_pss_algid(uint8_t *out, size_t cap, const fc_rsa_md_desc *md,
                        const fc_rsa_md_desc *mgf1, int saltlen)
{
    fc_der d = {out, cap, 0, 1};
    size_t s_alg, s_par, s_tag, s_mgf;

    if (md == NULL || mgf1 == NULL || !md->pss_ok || !mgf1->pss_ok ||
        saltlen < 0)
        return 0;
    /* RFC 8017 A.2.3: fields equal to the DEFAULT values are omitted
     * (DER); the defaults are SHA-1, MGF1 with SHA-1, 20 and 1. */
    s_alg = fc_der_open(&d, 0x30);
    fc_der_oid(&d, fc_oid_rsassa_pss, sizeof(fc_oid_rsassa_pss));
    s_par = fc_der_open(&d, 0x30);
    if (md->nid != NID_sha1) {
        s_tag = fc_der_open(&d, 0xa0);
        fc_der_algid_null(&d, md->oid, md->oid_len);
        fc_der_close(&d, s_tag);
    }
    if (mgf1->nid != NID_sha1) {
        s_tag = fc_der_open(&d, 0xa1);
        s_mgf = fc_der_open(&d, 0x30);
        fc_der_oid(&d, fc_oid_mgf1, sizeof(fc_oid_mgf1));
        fc_der_algid_null(&d, mgf1->oid, mgf1->oid_len);
        fc_der_close(&d, s_mgf);
        fc_der_close(&d, s_tag);
    }
    if (saltlen != 20) {
        s_tag = fc_der_open(&d, 0xa2);
        fc_der_uint(&d, (uint32_t)saltlen);
        fc_der_close(&d, s_tag);
    }
    fc_der_close(&d, s_par);
    fc_der_close(&d, s_alg);
    return d.ok ? d.len : 0;
}

/* ------------------------------------------------------------------------ */
/* Hash helpers                                                             */

/* out ^= MGF1(seed, len) with hash |md| (RFC 8017 B.2.1). The seed may be
 * secret (OAEP): hashing is data-independent in time. */
static int fc_mgf1_xor(uint8_t *out, size_t len, const uint8_t *seed,
                       size_t seedlen, const EVP_MD *md)
{
    EVP_MD_CTX *base = EVP_MD_CTX_new(), *c = EVP_MD_CTX_new();
    uint8_t h[EVP_MAX_MD_SIZE], cnt[4];
    int hlen = EVP_MD_get_size(md), ok = 0;
    size_t done = 0;

    if (base == NULL || c == NULL || hlen <= 0)
        goto err;
    /* Hash the seed once; each block continues from a copy. */
    if (!EVP_DigestInit_ex2(base, md, NULL) ||
        !EVP_DigestUpdate(base, seed, seedlen))
        goto err;
    for (uint32_t i = 0; done < len; i++) {
        size_t n = len - done < (size_t)hlen ? len - done : (size_t)hlen;

        fc_store_be32(cnt, i);
        if (!EVP_MD_CTX_copy_ex(c, base) || !EVP_DigestUpdate(c, cnt, 4) ||
            !EVP_DigestFinal_ex(c, h, NULL))
            goto err;
        for (size_t j = 0; j < n; j++)
            out[done + j] ^= h[j];
        done += n;
    }
    ok = 1;
err:
    OPENSSL_cleanse(h, sizeof(h));
    EVP_MD_CTX_free(base);
    EVP_MD_CTX_free(c);
    return ok;
}

/* out = md(a || b || c); any part may be empty. */
static int fc_hash3(uint8_t *out, const EVP_MD *md, const uint8_t *a,
                    size_t alen, const uint8_t *b, size_t blen,
                    const uint8_t *c, size_t clen)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx != NULL && EVP_DigestInit_ex2(ctx, md, NULL) &&
             EVP_DigestUpdate(ctx, a, alen) && EVP_DigestUpdate(ctx, b, blen) &&
             EVP_DigestUpdate(ctx, c, clen) &&
             EVP_DigestFinal_ex(ctx, out, NULL);

    EVP_MD_CTX_free(ctx);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Constant-time building blocks for the decoders                           */

/* All-ones if bit |bit| of |v| is set. */
static inline uint64_t fc_ct_bit(size_t v, size_t bit)
{
    return ~fc_ct_is_zero((uint64_t)(v & bit));
}

/*
 * Moves buf[shift..len) to buf[0..len - shift) for a secret shift in
 * [0, len): one masked pass per bit of the shift, each pass reading and
 * writing the whole buffer. O(len log len), no secret address.
 */
static void fc_ct_shift_left(uint8_t *buf, size_t len, size_t shift)
{
    for (size_t step = 1; step < len; step <<= 1) {
        uint8_t m = (uint8_t)fc_ct_bit(shift, step);

        for (size_t i = 0; i + step < len; i++)
            buf[i] = fc_ct_select8(m, buf[i + step], buf[i]);
    }
}

/*
 * fc_ct_keep returns |new| where |take| is all-ones, else |old|, as
 * (new & take) | (old & ~take) with both masks behind the barrier: the
 * compiler cannot fold it into ((new ^ old) & take) ^ old, a form that
 * carries the undefinedness of |old| (a caller's uninitialised buffer or
 * length) into the result for valgrind's memcheck.
 */
static inline uint64_t fc_ct_keep(uint64_t take, uint64_t new_, uint64_t old)
{
    return (new_ & fc_ct_barrier(take)) | (old & fc_ct_barrier(~take));
}

/* out[i] = src[i] for i < mlen when |good|, for every i < n; leaves the rest
 * of |out| as it was. */
static void fc_ct_copy_out(uint8_t *out, const uint8_t *src, size_t n,
                           size_t mlen, uint64_t good)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)fc_ct_keep(good & fc_ct_lt(i, mlen), src[i], out[i]);
}

/* ------------------------------------------------------------------------ */
/* PKCS#1 v1.5                                                              */

/* EM for PKCS#1 v1.5 signing; |digestinfo| selects the DigestInfo form
 * for a digest that has an OID (else the bare OCTET STRING of md->octet). */
static int fc_rsa_pad_pkcs1_t(const fc_prov_ctx *prov, uint8_t *em, size_t k,
                              const fc_rsa_md_desc *md, const uint8_t *in,
                              size_t inlen, int digestinfo)
{
    uint8_t prefix[32];
    size_t plen = 0, tlen, ps;

    if (md != NULL && md->oid != NULL && !digestinfo) {
        /* OCTET STRING { hash } */
        if (inlen != md->size) {
            FC_RAISE(prov, FC_R_INVALID_DIGEST_LENGTH);
            return 0;
        }
        prefix[0] = 0x04;
        prefix[1] = (uint8_t)md->size;
        plen = 2;
    } else if (md != NULL && md->oid != NULL) {
        /* DigestInfo ::= SEQUENCE { AlgorithmIdentifier, OCTET STRING }
         * (RFC 8017 9.2 step 2); the prefix is everything but the hash. */
        fc_der d = {prefix, sizeof(prefix), 0, 1};

        if (inlen != md->size) {
            FC_RAISE(prov, FC_R_INVALID_DIGEST_LENGTH);
            return 0;
        }
        fc_der_byte(&d, 0x30);
        fc_der_byte(&d, 0); /* patched below: includes the hash */
        fc_der_algid_null(&d, md->oid, md->oid_len);
        fc_der_byte(&d, 0x04);
        fc_der_byte(&d, (uint8_t)md->size);
        if (!d.ok || d.len - 2 + md->size > 127) {
            FC_RAISE(prov, FC_R_INTERNAL);
            return 0;
        }
        prefix[1] = (uint8_t)(d.len - 2 + md->size);
        plen = d.len;
    } else if (md != NULL && inlen != md->size) {
        FC_RAISE(prov, FC_R_INVALID_DIGEST_LENGTH);
        return 0;
    }
    tlen = plen + inlen;
    /* 00 01 PS 00 T with |PS| >= 8 (RFC 8017 9.2 step 3). */
    if (k < 11 || tlen > k - 11) {
        FC_RAISE_DATA(prov, FC_R_DATA_TOO_LARGE,
                      "%zu bytes to sign, key allows at most %zu", tlen,
                      k < 11 ? 0 : k - 11);
        return 0;
    }
    ps = k - 3 - tlen;
    em[0] = 0x00;
    em[1] = 0x01;
    memset(em + 2, 0xff, ps);
    em[2 + ps] = 0x00;
    memcpy(em + 3 + ps, prefix, plen);
    memcpy(em + 3 + ps + plen, in, inlen);
    return 1;
}

/* see rsa_pad.h */
int fc_rsa_pad_pkcs1_sign(const fc_prov_ctx *prov, uint8_t *em, size_t k,
                          const fc_rsa_md_desc *md, const uint8_t *in,
                          size_t inlen)
{
    return fc_rsa_pad_pkcs1_t(prov, em, k, md, in, inlen,
                              md == NULL || !md->octet);
}

/* see rsa_pad.h */
int fc_rsa_pad_pkcs1_sign_alt(const fc_prov_ctx *prov, uint8_t *em, size_t k,
                              const fc_rsa_md_desc *md, const uint8_t *in,
                              size_t inlen)
{
    int ok;

    if (md == NULL || !md->octet)
        return 0;
    ERR_set_mark();
    ok = fc_rsa_pad_pkcs1_t(prov, em, k, md, in, inlen, 1);
    ERR_pop_to_mark();
    return ok;
}

/* see rsa_pad.h */
int fc_rsa_unpad_pkcs1_sign(const uint8_t *em, size_t k, const uint8_t **t,
                            size_t *tlen)
{
    size_t i;

    if (k < 11 || em[0] != 0x00 || em[1] != 0x01)
        return 0;
    for (i = 2; i < k && em[i] == 0xff; i++)
        ;
    if (i == k || em[i] != 0x00 || i - 2 < 8)
        return 0;
    *t = em + i + 1;
    *tlen = k - i - 1;
    return 1;
}

/* see rsa_pad.h */
int fc_rsa_pad_pkcs1_enc(const fc_prov_ctx *prov, uint8_t *em, size_t k,
                         const uint8_t *m, size_t mlen, fc_rand_fn *rng,
                         void *rng_arg)
{
    size_t ps;

    if (k < 11 || mlen > k - 11) {
        FC_RAISE_DATA(prov, FC_R_DATA_TOO_LARGE,
                      "%zu bytes, key allows at most %zu", mlen,
                      k < 11 ? 0 : k - 11);
        return 0;
    }
    ps = k - 3 - mlen;
    em[0] = 0x00;
    em[1] = 0x02;
    if (!rng(rng_arg, em + 2, ps))
        goto rand_err;
    /* PS must be nonzero: redraw the zero bytes (RFC 8017 7.2.1 step 2). */
    for (size_t i = 0; i < ps; i++)
        while (em[2 + i] == 0)
            if (!rng(rng_arg, em + 2 + i, 1))
                goto rand_err;
    em[2 + ps] = 0x00;
    memcpy(em + 3 + ps, m, mlen);
    return 1;
rand_err:
    FC_RAISE(prov, FC_R_RANDOM_FAILURE);
    return 0;
}

/* see rsa_pad.h */
int fc_rsa_unpad_pkcs1_enc(uint8_t *out, size_t outcap, size_t *outlen,
                           uint8_t *em, size_t k)
{
    uint64_t good, found = 0, zidx = 0;
    size_t mlen, region = k - 11;

    if (k < 11)
        return 0;
    good = fc_ct_is_zero(em[0]) & fc_ct_eq(em[1], 2);
    /* The first zero byte after 00 02 ends PS (RFC 8017 7.2.2 step 3). */
    for (size_t i = 2; i < k; i++) {
        uint64_t z = fc_ct_is_zero(em[i]);
        zidx = fc_ct_select(~found & z, i, zidx);
        found |= z;
    }
    good &= found;
    /* PS at least 8 bytes: the separator is at index 10 or later. */
    good &= fc_ct_ge(zidx, 10);
    /* The message starts at zidx + 1 >= 11; move it to em + 11. */
    mlen = (size_t)fc_ct_select(good, k - 1 - zidx, 0);
    good &= fc_ct_ge(outcap, mlen);
    fc_ct_shift_left(em + 11, region, (size_t)fc_ct_select(good, zidx - 10, 0));
    fc_ct_copy_out(out, em + 11, region < outcap ? region : outcap, mlen, good);
    *outlen = (size_t)fc_ct_keep(good, mlen, *outlen);
    /* The 1/0 answer is all that leaves (explicit rejection). */
    return (int)(fc_ct_barrier(good) & 1);
}

/* Candidate lengths drawn for the synthetic message: with 128 of them the
 * chance that none fits (and 0 is used) is below 2^-128. */
#define FC_IR_LEN_TRIES 128

/* out = PRF(8 * len bits, label) under |kdk| (see fc_rsa_implicit_synth). */
static int fc_ir_prf(EVP_MAC_CTX *mac, const OSSL_PARAM *params,
                     const uint8_t kdk[32], uint8_t *out, size_t len,
                     const char *label)
{
    uint8_t h[32], be[2], bl[2];
    size_t hl;
    int ok = 1;

    /* The bit length is a 16-bit field: k <= 2048 bytes keeps it there. */
    bl[0] = (uint8_t)((8 * len) >> 8);
    bl[1] = (uint8_t)(8 * len);
    for (size_t pos = 0, i = 0; ok && pos < len; pos += 32, i++) {
        size_t n = len - pos < 32 ? len - pos : 32;

        be[0] = (uint8_t)(i >> 8);
        be[1] = (uint8_t)i;
        ok = EVP_MAC_init(mac, kdk, 32, params) && EVP_MAC_update(mac, be, 2) &&
             EVP_MAC_update(mac, (const uint8_t *)label, strlen(label)) &&
             EVP_MAC_update(mac, bl, 2) &&
             EVP_MAC_final(mac, h, &hl, sizeof(h)) && hl == 32;
        if (ok)
            memcpy(out + pos, h, n);
    }
    OPENSSL_cleanse(h, sizeof(h));
    return ok;
}

/* see rsa_pad.h */
int fc_rsa_implicit_synth(const fc_prov_ctx *prov, uint8_t *synth,
                          size_t *synth_len, const uint8_t *d, const uint8_t *c,
                          size_t k)
{
    uint8_t dh[32], kdk[32], lens[2 * FC_IR_LEN_TRIES];
    EVP_MD *sha256 = EVP_MD_fetch(prov->libctx, "SHA256", NULL);
    EVP_MAC *hmac = EVP_MAC_fetch(prov->libctx, "HMAC", NULL);
    EVP_MAC_CTX *mac = hmac != NULL ? EVP_MAC_CTX_new(hmac) : NULL;
    OSSL_PARAM params[2];
    uint64_t max, mask, len = 0;
    size_t hl;
    int ok = 0;

    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                                 (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    if (sha256 == NULL || mac == NULL || k < 11 || 8 * k > 0xffff)
        goto done;
    /* KDK = HMAC(SHA-256(d), C). */
    if (!EVP_Digest(d, k, dh, NULL, sha256, NULL) ||
        !EVP_MAC_init(mac, dh, sizeof(dh), params) ||
        !EVP_MAC_update(mac, c, k) ||
        !EVP_MAC_final(mac, kdk, &hl, sizeof(kdk)) || hl != sizeof(kdk))
        goto done;
    if (!fc_ir_prf(mac, params, kdk, synth, k, "message") ||
        !fc_ir_prf(mac, params, kdk, lens, sizeof(lens), "length"))
        goto done;
    /* The longest message a block can hold is k - 2 - 8 bytes; candidates
     * are masked to its bit width and kept only when strictly below it. */
    max = k - 2 - 8;
    mask = max;
    for (unsigned sh = 1; sh < 64; sh <<= 1)
        mask |= mask >> sh;
    for (size_t i = 0; i < sizeof(lens); i += 2) {
        uint64_t cand = (((uint64_t)lens[i] << 8) | lens[i + 1]) & mask;
        len = fc_ct_select(fc_ct_lt(cand, max), cand, len);
    }
    *synth_len = (size_t)len;
    ok = 1;
done:
    if (!ok)
        FC_RAISE_DATA(prov, FC_R_INTERNAL, "implicit rejection: HMAC-SHA256");
    OPENSSL_cleanse(dh, sizeof(dh));
    OPENSSL_cleanse(kdk, sizeof(kdk));
    OPENSSL_cleanse(lens, sizeof(lens));
    EVP_MAC_CTX_free(mac);
    EVP_MAC_free(hmac);
    EVP_MD_free(sha256);
    return ok;
}

/* see rsa_pad.h */
void fc_rsa_unpad_pkcs1_implicit(uint8_t *out, size_t *outlen, uint8_t *em,
                                 size_t k, const uint8_t *synth,
                                 size_t synth_len)
{
    uint64_t good, found = 0, zidx = 0, mlen;

    /* The same checks as fc_rsa_unpad_pkcs1_enc; there is no output size
     * condition, the caller provides k bytes. */
    good = fc_ct_is_zero(em[0]) & fc_ct_eq(em[1], 2);
    for (size_t i = 2; i < k; i++) {
        uint64_t z = fc_ct_is_zero(em[i]);
        zidx = fc_ct_select(~found & z, i, zidx);
        found |= z;
    }
    good &= found & fc_ct_ge(zidx, 10);
    mlen = fc_ct_select(good, k - 1 - zidx, synth_len);
    /* Either message ends the k-byte buffer it is in: pick the buffer byte
     * by byte, then move the last mlen bytes (at least 11 from the start)
     * to em + 11 with the masked shifts, as for explicit rejection. */
    for (size_t i = 0; i < k; i++)
        em[i] = fc_ct_select8((uint8_t)good, em[i], synth[i]);
    fc_ct_shift_left(em + 11, k - 11, (size_t)(k - mlen - 11));
    fc_ct_copy_out(out, em + 11, k - 11, (size_t)mlen, ~(uint64_t)0);
    FC_CT_PUBLIC(&mlen, sizeof(mlen));
    *outlen = (size_t)mlen;
}

/* see rsa_pad.h */
void fc_rsa_unpad_pkcs1_tls(uint8_t out[FC_TLS_PREMASTER_LEN],
                            const uint8_t *em, size_t k,
                            unsigned int client_version,
                            unsigned int alt_version,
                            const uint8_t rnd[FC_TLS_PREMASTER_LEN])
{
    const size_t L = FC_TLS_PREMASTER_LEN;
    uint64_t good, vgood, alt;
    const uint8_t *s;

    if (k < 11 + L) { /* public: the key is too small for TLS at all */
        memcpy(out, rnd, L);
        return;
    }
    s = em + k - L;
    /* Fixed layout: 00 02 PS(nonzero, k - 51 bytes) 00 secret(48). */
    good = fc_ct_is_zero(em[0]) & fc_ct_eq(em[1], 2);
    for (size_t i = 2; i < k - L - 1; i++)
        good &= ~fc_ct_is_zero(em[i]);
    good &= fc_ct_is_zero(em[k - L - 1]);
    vgood = fc_ct_eq(s[0], (client_version >> 8) & 0xff) &
            fc_ct_eq(s[1], client_version & 0xff);
    /* Some clients send the negotiated version instead (the rollback
     * workaround): accepted only when the caller passed one. */
    alt = ~fc_ct_is_zero(alt_version) &
          fc_ct_eq(s[0], (alt_version >> 8) & 0xff) &
          fc_ct_eq(s[1], alt_version & 0xff);
    good &= vgood | alt;
    for (size_t i = 0; i < L; i++)
        out[i] = fc_ct_select8((uint8_t)good, s[i], rnd[i]);
}

/* ------------------------------------------------------------------------ */
/* OAEP (RFC 8017 7.1)                                                      */

/* see rsa_pad.h */
int fc_rsa_pad_oaep(const fc_prov_ctx *prov, uint8_t *em, size_t k,
                    const uint8_t *m, size_t mlen, const uint8_t *label,
                    size_t label_len, const EVP_MD *md, const EVP_MD *mgf1,
                    fc_rand_fn *rng, void *rng_arg)
{
    int hl = EVP_MD_get_size(md);
    size_t hlen, dblen;
    uint8_t *seed, *db;

    if (hl <= 0) {
        FC_RAISE(prov, FC_R_INTERNAL);
        return 0;
    }
    hlen = (size_t)hl;
    /* mLen <= k - 2hLen - 2 (7.1.1 step 1b). */
    if (k < 2 * hlen + 2 || mlen > k - 2 * hlen - 2) {
        FC_RAISE_DATA(prov, FC_R_DATA_TOO_LARGE,
                      "%zu bytes, key allows at most %zu with this digest",
                      mlen, k < 2 * hlen + 2 ? 0 : k - 2 * hlen - 2);
        return 0;
    }
    dblen = k - hlen - 1;
    seed = em + 1;
    db = em + 1 + hlen;
    em[0] = 0x00;
    /* DB = lHash || PS || 01 || M */
    if (!fc_hash3(db, md, label, label_len, NULL, 0, NULL, 0)) {
        FC_RAISE(prov, FC_R_INTERNAL);
        return 0;
    }
    memset(db + hlen, 0, dblen - hlen - mlen - 1);
    db[dblen - mlen - 1] = 0x01;
    memcpy(db + dblen - mlen, m, mlen);
    if (!rng(rng_arg, seed, hlen)) {
        FC_RAISE(prov, FC_R_RANDOM_FAILURE);
        return 0;
    }
    if (!fc_mgf1_xor(db, dblen, seed, hlen, mgf1) ||
        !fc_mgf1_xor(seed, hlen, db, dblen, mgf1)) {
        FC_RAISE(prov, FC_R_INTERNAL);
        return 0;
    }
    return 1;
}

/* see rsa_pad.h */
int fc_rsa_unpad_oaep(uint8_t *out, size_t outcap, size_t *outlen, uint8_t *em,
                      size_t k, const uint8_t *label, size_t label_len,
                      const EVP_MD *md, const EVP_MD *mgf1)
{
    uint8_t lhash[EVP_MAX_MD_SIZE];
    int hl = EVP_MD_get_size(md);
    size_t hlen, dblen, region, mlen;
    uint64_t good, found = 0, bad = 0, oidx = 0;
    uint8_t *seed, *db;

    if (hl <= 0)
        return 0;
    hlen = (size_t)hl;
    /* k >= 2hLen + 2 (7.1.2 step 1c): public. */
    if (k < 2 * hlen + 2)
        return 0;
    if (!fc_hash3(lhash, md, label, label_len, NULL, 0, NULL, 0))
        return 0;
    dblen = k - hlen - 1;
    seed = em + 1;
    db = em + 1 + hlen;
    if (!fc_mgf1_xor(seed, hlen, db, dblen, mgf1) ||
        !fc_mgf1_xor(db, dblen, seed, hlen, mgf1))
        return 0;
    good = fc_ct_is_zero(em[0]);
    good &= fc_ct_memeq(db, lhash, hlen);
    /* DB = lHash' || 00..00 || 01 || M: find the 01, and flag any byte
     * other than 00 before it. */
    for (size_t i = hlen; i < dblen; i++) {
        uint64_t one = fc_ct_eq(db[i], 1), zero = fc_ct_is_zero(db[i]);
        oidx = fc_ct_select(~found & one, i, oidx);
        bad |= ~found & ~one & ~zero;
        found |= one;
    }
    good &= found & ~bad;
    /* The message starts at oidx + 1 >= hLen + 1; move it there. */
    region = dblen - hlen - 1;
    mlen = (size_t)fc_ct_select(good, dblen - 1 - oidx, 0);
    good &= fc_ct_ge(outcap, mlen);
    fc_ct_shift_left(db + hlen + 1, region,
                     (size_t)fc_ct_select(good, oidx - hlen, 0));
    fc_ct_copy_out(out, db + hlen + 1, region < outcap ? region : outcap, mlen,
                   good);
    *outlen = (size_t)fc_ct_keep(good, mlen, *outlen);
    return (int)(fc_ct_barrier(good) & 1);
}

/* ------------------------------------------------------------------------ */
/* PSS (RFC 8017 9.1)                                                       */

/* emLen = ceil((modBits - 1) / 8). */
static size_t fc_pss_emlen(size_t modbits)
{
    return (modbits + 6) / 8;
}

/* see rsa_pad.h */
int fc_rsa_pss_saltlen_sign(const fc_prov_ctx *prov, int saltlen, size_t hlen,
                            size_t modbits)
{
    size_t emlen = fc_pss_emlen(modbits), max;

    if (emlen < hlen + 2) {
        FC_RAISE_DATA(prov, FC_R_KEY_TOO_SMALL,
                      "%zu-bit key too small for a %zu-byte digest", modbits,
                      hlen);
        return -1;
    }
    max = emlen - hlen - 2;
    switch (saltlen) {
    case FC_PSS_SALTLEN_DIGEST:
        saltlen = (int)hlen;
        break;
    case FC_PSS_SALTLEN_AUTO:
    case FC_PSS_SALTLEN_MAX:
        return (int)max;
    case FC_PSS_SALTLEN_AUTO_DIGESTMAX:
        return (int)(hlen < max ? hlen : max);
    default:
        if (saltlen < 0) {
            FC_RAISE_DATA(prov, FC_R_INVALID_SALT_LENGTH, "%d", saltlen);
            return -1;
        }
    }
    if ((size_t)saltlen > max) {
        FC_RAISE_DATA(prov, FC_R_INVALID_SALT_LENGTH,
                      "salt of %d bytes, key allows at most %zu", saltlen, max);
        return -1;
    }
    return saltlen;
}

/* see rsa_pad.h */
int fc_rsa_pad_pss(const fc_prov_ctx *prov, uint8_t *em, size_t k,
                   size_t modbits, const uint8_t *mhash, const EVP_MD *md,
                   const EVP_MD *mgf1, int saltlen, fc_rand_fn *rng,
                   void *rng_arg)
{
    static const uint8_t zeros[8];
    int hl = EVP_MD_get_size(md), sl;
    size_t hlen, emlen = fc_pss_emlen(modbits), dblen, slen;
    unsigned int msbits = (unsigned int)((modbits - 1) & 7);
    uint8_t *p = em, *salt;

    if (hl <= 0) {
        FC_RAISE(prov, FC_R_INTERNAL);
        return 0;
    }
    hlen = (size_t)hl;
    sl = fc_rsa_pss_saltlen_sign(prov, saltlen, hlen, modbits);
    if (sl < 0)
        return 0;
    slen = (size_t)sl;
    /* When modBits - 1 is a multiple of 8, EM is one byte shorter than the
     * modulus: the integer gets a leading zero byte. */
    if (emlen < k)
        *p++ = 0;
    dblen = emlen - hlen - 1;
    /* DB = PS || 01 || salt, H = Hash(00*8 || mHash || salt). The salt is
     * drawn straight into its place in DB. */
    memset(p, 0, dblen - slen - 1);
    p[dblen - slen - 1] = 0x01;
    salt = p + dblen - slen;
    if (slen > 0 && !rng(rng_arg, salt, slen)) {
        FC_RAISE(prov, FC_R_RANDOM_FAILURE);
        return 0;
    }
    if (!fc_hash3(p + dblen, md, zeros, sizeof(zeros), mhash, hlen, salt,
                  slen) ||
        !fc_mgf1_xor(p, dblen, p + dblen, hlen, mgf1)) {
        FC_RAISE(prov, FC_R_INTERNAL);
        return 0;
    }
    /* Clear the bits above emBits (9.1.1 step 11). */
    if (msbits != 0)
        p[0] &= (uint8_t)(0xff >> (8 - msbits));
    p[emlen - 1] = 0xbc;
    return 1;
}

/* see rsa_pad.h */
int fc_rsa_verify_pss(const fc_prov_ctx *prov, const uint8_t *em, size_t k,
                      size_t modbits, const uint8_t *mhash, const EVP_MD *md,
                      const EVP_MD *mgf1, int saltlen)
{
    static const uint8_t zeros[8];
    uint8_t h2[EVP_MAX_MD_SIZE], *db = NULL;
    int hl = EVP_MD_get_size(md), ok = 0;
    size_t hlen, emlen = fc_pss_emlen(modbits), dblen, i;
    unsigned int msbits = (unsigned int)((modbits - 1) & 7);
    const uint8_t *h;
    long want;

    if (hl <= 0) {
        FC_RAISE(prov, FC_R_INTERNAL);
        return 0;
    }
    hlen = (size_t)hl;
    /* Bits above emBits must be zero; they include the whole leading byte
     * when EM is shorter than the modulus. */
    if (emlen < k) {
        if (em[0] != 0)
            goto bad;
        em++;
    } else if (msbits != 0 && (em[0] >> msbits) != 0) {
        goto bad;
    }
    if (emlen < hlen + 2)
        goto bad;
    switch (saltlen) {
    case FC_PSS_SALTLEN_DIGEST:
        want = (long)hlen;
        break;
    case FC_PSS_SALTLEN_MAX:
        want = (long)(emlen - hlen - 2);
        break;
    case FC_PSS_SALTLEN_AUTO:
    case FC_PSS_SALTLEN_AUTO_DIGESTMAX:
        want = -1; /* recovered from DB */
        break;
    default:
        if (saltlen < 0) {
            FC_RAISE_DATA(prov, FC_R_INVALID_SALT_LENGTH, "%d", saltlen);
            return 0;
        }
        want = saltlen;
    }
    if (want > (long)(emlen - hlen - 2) || em[emlen - 1] != 0xbc)
        goto bad;
    dblen = emlen - hlen - 1;
    h = em + dblen;
    db = OPENSSL_malloc(dblen);
    if (db == NULL) {
        FC_RAISE(prov, FC_R_MALLOC_FAILURE);
        return 0;
    }
    memcpy(db, em, dblen);
    if (!fc_mgf1_xor(db, dblen, h, hlen, mgf1)) {
        FC_RAISE(prov, FC_R_INTERNAL);
        goto done;
    }
    if (msbits != 0)
        db[0] &= (uint8_t)(0xff >> (8 - msbits));
    /* DB = 00..00 || 01 || salt */
    for (i = 0; i < dblen - 1 && db[i] == 0; i++)
        ;
    if (db[i++] != 0x01)
        goto bad;
    if (want >= 0 && (long)(dblen - i) != want)
        goto bad;
    if (!fc_hash3(h2, md, zeros, sizeof(zeros), mhash, hlen, db + i,
                  dblen - i)) {
        FC_RAISE(prov, FC_R_INTERNAL);
        goto done;
    }
    if (memcmp(h2, h, hlen) != 0)
        goto bad;
    ok = 1;
    goto done;
bad:
    FC_RAISE(prov, FC_R_BAD_SIGNATURE);
done:
    OPENSSL_free(db);
    return ok;
}
