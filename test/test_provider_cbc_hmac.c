/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_provider_cbc_hmac.c - fastcrypto's AES-128/256-CBC-HMAC-SHA1/SHA256
 * ciphers driven through EVP exactly as libssl drives them for TLS CBC
 * suites without encrypt-then-MAC, and compared call by call with the
 * default provider's (every return value, "tlsaadpad", outl, record byte
 * and chaining IV), and with independent oracles (OpenSSL's HMAC and plain
 * AES-CBC) so that the checks stand where default lacks these ciphers (it
 * offers them on AES-NI CPUs only). The behaviour held to and the
 * deliberate differences are the spec atop provider/cipher_aes_cbc_hmac.c.
 *
 * libssl's sequence (tls1_change_cipher_state, tls1_enc): init with key
 * and IV; "mackey" (EVP_CTRL_AEAD_SET_MAC_KEY); "tls-version" (an int) and
 * "tls-mac-size" 0; per record EVP_CTRL_AEAD_TLS1_AAD with the 13-byte
 * header (a set of "tlsaad" and a get of "tlsaadpad"), then one in-place
 * update with outsize = inl + 16.
 *
 * The tests run in the groups of support/provider_test.h, one library
 * context per CPU mask (the best kernels; "avx512" where that selects
 * another table; "vaes", the AES-NI tier; "all", the portable C code); the
 * stitched kernel table in use is printed and must be the core's selection
 * under the mask.
 *
 * Environment: FC_TEST_CONF (required; ctest sets it), FC_TEST_SEED,
 * FC_TEST_QUICK=1 (fewer lengths, for valgrind).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>

#include "fc/cbc_hmac.h"

#include "cipher_suite.h"
#include "provider_test.h"

#define NC      4
#define MAXREC  (2048 + 16 + 32 + 256 + 16)
#define GUARD_B 64

static const char *const k_names[NC] = {
    "AES-128-CBC-HMAC-SHA1", "AES-256-CBC-HMAC-SHA1", "AES-128-CBC-HMAC-SHA256",
    "AES-256-CBC-HMAC-SHA256"};
static const int k_keylen[NC] = {16, 32, 16, 32};
static const size_t k_maclen[NC] = {20, 20, 32, 32};
static const char *const k_cbc[NC] = {"AES-128-CBC", "AES-256-CBC",
                                      "AES-128-CBC", "AES-256-CBC"};
static const int k_versions[] = {TLS1_VERSION, TLS1_1_VERSION, TLS1_2_VERSION};

static const char *cbc_hmac_impl_for_caps(uint32_t caps)
{
    return fc_cbc_sha_select(caps)->name;
}

static const fc_test_family k_family = {
    .suite = "provider_cbc_hmac",
    .count = NC,
    .names = k_names,
    .keylen = k_keylen,
    .impl_param = "fastcrypto-cbc-hmac-impl",
    .impl_for_caps = cbc_hmac_impl_for_caps,
    .default_optional = 1,
};

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */

static size_t eiv_of(int version)
{
    return version >= TLS1_1_VERSION ? 16 : 0;
}

static const EVP_MD *md_of(int c)
{
    return k_maclen[c] == 20 ? EVP_sha1() : EVP_sha256();
}

/* Sets up |ctx| for records as tls1_change_cipher_state does. */
static int tls_setup(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *ciph,
                     const uint8_t *key, const uint8_t *iv, int enc,
                     int version, const uint8_t *mackey, size_t mklen)
{
    size_t macsize = 0;
    OSSL_PARAM p[3];

    if (!EVP_CipherInit_ex(ctx, ciph, NULL, key, iv, enc))
        return 0;
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_MAC_KEY, (int)mklen,
                            (void *)mackey) <= 0)
        return 0;
    p[0] = OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_TLS_VERSION, &version);
    p[1] =
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &macsize);
    p[2] = OSSL_PARAM_construct_end();
    return EVP_CIPHER_CTX_set_params(ctx, p);
}

/* The 13-byte header of record |seq|; |len| is what the length field says. */
static void make_hdr(uint8_t hdr[13], uint64_t seq, int version, size_t len)
{
    for (int i = 0; i < 8; i++)
        hdr[i] = (uint8_t)(seq >> (56 - 8 * i));
    hdr[8] = 23; /* application data */
    hdr[9] = (uint8_t)(version >> 8);
    hdr[10] = (uint8_t)version;
    hdr[11] = (uint8_t)(len >> 8);
    hdr[12] = (uint8_t)len;
}

/* EVP_CTRL_AEAD_TLS1_AAD on a copy of |hdr| (the default rewrites it). */
static int set_aad(EVP_CIPHER_CTX *ctx, const uint8_t hdr[13])
{
    uint8_t copy[13];

    memcpy(copy, hdr, 13);
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13, copy);
}

static void get_updated_iv(EVP_CIPHER_CTX *ctx, uint8_t iv[16])
{
    CHECK(EVP_CIPHER_CTX_get_updated_iv(ctx, iv, 16), "get updated-iv");
}

/* Plain CBC, padding off, with default's AES-CBC: the oracle. */
static void raw_cbc(const fc_test_env *env, int c, const uint8_t *key,
                    const uint8_t *iv, int enc, const uint8_t *in, size_t len,
                    uint8_t *out)
{
    EVP_CIPHER *ciph = EVP_CIPHER_fetch(env->lib, k_cbc[c], "provider=default");

    CHECK(ciph != NULL, "no %s in default", k_cbc[c]);
    fc_test_raw_cbc(ciph, key, iv, enc, in, len, out);
    EVP_CIPHER_free(ciph);
}

/* HMAC(mackey, hdr || payload), hdr's length field set to |plen|. */
static void ref_mac(int c, const uint8_t *mackey, size_t mklen,
                    const uint8_t hdr[13], const uint8_t *payload, size_t plen,
                    uint8_t *mac)
{
    uint8_t *m = fc_test_xmalloc(13 + plen);
    unsigned int ml;

    memcpy(m, hdr, 13);
    m[11] = (uint8_t)(plen >> 8);
    m[12] = (uint8_t)plen;
    memcpy(m + 13, payload, plen);
    CHECK(HMAC(md_of(c), mackey, (int)mklen, m, 13 + plen, mac, &ml) != NULL &&
              ml == k_maclen[c],
          "reference HMAC failed");
    free(m);
}

static size_t pick_len(size_t max)
{
    return fc_test_rand_below(max + 1);
}

/* ---------------------------------------------------------------------- */
/* Identity and constants                                                 */

static void test_fetch_identity(void **state)
{
    const fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int c = 0; c < NC; c++) {
        const EVP_CIPHER *f = env->fc[c];
        unsigned int mode = 0;
        int aead = -1, multi = -1, dmulti = -1;
        size_t keylen = 0, ivlen = 0, bs = 0;
        OSSL_PARAM p[7] = {
            OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_MODE, &mode),
            OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_AEAD, &aead),
            OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, &multi),
            OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen),
            OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen),
            OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, &bs),
            OSSL_PARAM_construct_end()};

        WHERE("%s", k_names[c]);
        CHECK(strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(f)),
                     FC_NAME) == 0,
              "fetched from %s",
              OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(f)));
        CHECK(EVP_CIPHER_is_a(f, k_names[c]), "not a %s", k_names[c]);
        CHECK(EVP_CIPHER_get_params((EVP_CIPHER *)f, p), "get_params");
        CHECK(mode == EVP_CIPH_CBC_MODE && aead == 1 && multi == 0 &&
                  keylen == (size_t)k_keylen[c] && ivlen == 16 && bs == 16,
              "mode %u aead %d tls-multi %d keylen %zu ivlen %zu block %zu",
              mode, aead, multi, keylen, ivlen, bs);
        /* What libssl tests: the AEAD flag (it then leaves the MAC to the
         * cipher) and no multi-block flag (it then never uses it). */
        CHECK(EVP_CIPHER_get_flags(f) & EVP_CIPH_FLAG_AEAD_CIPHER,
              "no EVP_CIPH_FLAG_AEAD_CIPHER");
        CHECK(!(EVP_CIPHER_get_flags(f) & EVP_CIPH_FLAG_TLS1_1_MULTIBLOCK),
              "EVP_CIPH_FLAG_TLS1_1_MULTIBLOCK set");
        if (env->df[c] != NULL) {
            OSSL_PARAM q[2] = {OSSL_PARAM_construct_int(
                                   OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, &dmulti),
                               OSSL_PARAM_construct_end()};

            /* The one constant that differs, on purpose. */
            CHECK(EVP_CIPHER_get_params(env->df[c], q) && dmulti == 1,
                  "default's tls-multi is %d", dmulti);
            CHECK(EVP_CIPHER_get_flags(f) ==
                      (EVP_CIPHER_get_flags(env->df[c]) &
                       ~(unsigned long)EVP_CIPH_FLAG_TLS1_1_MULTIBLOCK),
                  "flags %lx, default's %lx", EVP_CIPHER_get_flags(f),
                  EVP_CIPHER_get_flags(env->df[c]));
        }
    }
}

/* ---------------------------------------------------------------------- */
/* TLS records: encrypt                                                   */

/*
 * Runs records of every payload length 0..2048 (a sample under
 * FC_TEST_QUICK) through one encrypting context per provider, as libssl
 * sends them, then through decrypting ones: records byte-identical to
 * default's, "tlsaadpad" and outl the same, the chaining value the same
 * after every record, and the payload back with its length.
 */
static void test_tls_encrypt(void **state)
{
    const fc_test_env *env = *state;
    const size_t step = fc_test_quick() ? 61 : 1;
    uint8_t *b0 = fc_test_xmalloc(MAXREC + GUARD_B);
    uint8_t *b1 = fc_test_xmalloc(MAXREC + GUARD_B);
    uint8_t *pt = fc_test_xmalloc(MAXREC);

    fc_test_rand_start(__func__);
    for (int c = 0; c < NC; c++) {
        const int have_df = env->df[c] != NULL;

        for (size_t vi = 0; vi < FC_ARRAY_LEN(k_versions); vi++) {
            const int version = k_versions[vi];
            const size_t eiv = eiv_of(version), ml = k_maclen[c];
            uint8_t key[32], iv[16], mk[64];
            size_t mklen = vi == 0 ? 64 : ml; /* any length works */
            EVP_CIPHER_CTX *e[2] = {EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_new()};
            EVP_CIPHER_CTX *d = EVP_CIPHER_CTX_new();
            uint64_t seq = fc_test_rand64() >> 8;

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(iv, sizeof(iv));
            fc_test_rand_bytes(mk, sizeof(mk));
            WHERE("%s version %04x setup", k_names[c], version);
            CHECK(e[0] && e[1] && d &&
                      tls_setup(e[0], env->fc[c], key, iv, 1, version, mk,
                                mklen) &&
                      (!have_df || tls_setup(e[1], env->df[c], key, iv, 1,
                                             version, mk, mklen)) &&
                      tls_setup(d, env->fc[c], key, iv, 0, version, mk, mklen),
                  "setup failed");
            for (size_t plen = 0; plen <= 2048; plen += step, seq++) {
                uint8_t hdr[13], ivf[16], ivd[16], mac[32];
                const size_t in = eiv + plen;
                int pad[2], o[2] = {-1, -1}, r[2];
                size_t rec;

                WHERE("%s version %04x payload %zu", k_names[c], version, plen);
                fc_test_rand_bytes(pt, in);
                memset(b0, FC_TEST_FILL, MAXREC + GUARD_B);
                memcpy(b0, pt, in);
                memcpy(b1, b0, MAXREC + GUARD_B);
                make_hdr(hdr, seq, version, in);
                pad[0] = set_aad(e[0], hdr);
                rec = fc_cbc_hmac_sealed_len(eiv, plen, ml);
                CHECK(pad[0] > 0 && (size_t)pad[0] == rec - in,
                      "tlsaadpad %d, want %zu", pad[0], rec - in);
                r[0] = EVP_CipherUpdate(e[0], b0, &o[0], b0, (int)rec);
                CHECK(r[0] == 1 && (size_t)o[0] == rec,
                      "update returned %d, outl %d, want %zu", r[0], o[0], rec);
                if (have_df) {
                    pad[1] = set_aad(e[1], hdr);
                    CHECK(pad[1] == pad[0], "tlsaadpad %d, default %d", pad[0],
                          pad[1]);
                    r[1] = EVP_CipherUpdate(e[1], b1, &o[1], b1, (int)rec);
                    CHECK(r[1] == r[0] && o[1] == o[0],
                          "update %d/%d, default %d/%d", r[0], o[0], r[1],
                          o[1]);
                    CHECK_MEM(b0, b1, MAXREC + GUARD_B,
                              "record (and what follows it) vs default");
                    get_updated_iv(e[0], ivf);
                    get_updated_iv(e[1], ivd);
                    CHECK_MEM(ivf, ivd, 16, "updated-iv vs default");
                }
                /* Independently: the record decrypts (raw CBC, from the
                 * chaining value before it) to payload | HMAC | padding. */
                {
                    uint8_t *raw = fc_test_xmalloc(rec), chain[16];

                    get_updated_iv(d, chain);
                    raw_cbc(env, c, key, chain, 0, b0, rec, raw);
                    CHECK_MEM(raw + eiv, pt + eiv, plen, "decrypted payload");
                    ref_mac(c, mk, mklen, hdr, pt + eiv, plen, mac);
                    CHECK_MEM(raw + in, mac, ml, "MAC in the record");
                    for (size_t i = in + ml; i < rec; i++)
                        CHECK(raw[i] == rec - in - ml - 1,
                              "padding byte %zu is %u", i, raw[i]);
                    free(raw);
                }
                /* And fastcrypto opens it, as libssl reads it. */
                make_hdr(hdr, seq, version, rec);
                CHECK(set_aad(d, hdr) == (int)ml, "decrypt tlsaadpad");
                r[0] = EVP_CipherUpdate(d, b0, &o[0], b0, (int)rec);
                CHECK(r[0] == 1 && (size_t)o[0] == plen,
                      "decrypt returned %d, outl %d, want %zu", r[0], o[0],
                      plen);
                CHECK_MEM(b0 + eiv, pt + eiv, plen, "payload after decrypt");
            }
            EVP_CIPHER_CTX_free(e[0]);
            EVP_CIPHER_CTX_free(e[1]);
            EVP_CIPHER_CTX_free(d);
        }
    }
    free(b0);
    free(b1);
    free(pt);
}

/* ---------------------------------------------------------------------- */
/* TLS records: decrypt, good and bad                                     */

enum {
    REC_GOOD,        /* any valid padding length */
    REC_BAD_PADBYTE, /* one padding byte differs */
    REC_BAD_PADLEN,  /* the length byte leaves no room for the MAC */
    REC_BAD_MAC,     /* one bit of the MAC flipped */
    REC_BAD_PAYLOAD, /* one bit of the payload flipped */
    REC_BAD_HDR,     /* MACed under another sequence number */
    REC_SHORT,       /* fewer bytes than IV, MAC and length byte */
    REC_PARTIAL,     /* not a whole number of blocks */
    REC_KINDS
};
static const char *const k_kind[REC_KINDS] = {
    "good",        "bad padding byte", "bad padding length", "bad MAC",
    "bad payload", "bad header",       "too short",          "partial block"};

/*
 * Builds a record of kind |kind| for the decrypting contexts: the
 * plaintext payload | MAC | padding of a chosen length (not only the
 * minimal one), CBC-encrypted from |chain| with default's AES-CBC. Returns
 * its length; |*plen| is the payload length, |plain| the plaintext.
 */
static size_t build_record(const fc_test_env *env, int c, int version, int kind,
                           const uint8_t *key, const uint8_t *chain,
                           const uint8_t *mk, size_t mklen, uint64_t seq,
                           uint8_t *rec, uint8_t *plain, size_t *plen)
{
    const size_t eiv = eiv_of(version), ml = k_maclen[c];
    size_t p, len, body, maxk;
    uint8_t hdr[13];

    if (kind == REC_SHORT) {
        /* Whole blocks, fewer than eiv + mac + 1 bytes. */
        len = eiv + 16 * (ml / 16);
        fc_test_rand_bytes(rec, len);
        *plen = 0;
        return len;
    }
    /* A bad length byte needs a record short enough that one byte can
     * point past the MAC: payload + padding below 256 bytes. */
    *plen = kind == REC_BAD_PADLEN
                ? pick_len(200)
                : pick_len(fc_test_rand_below(4) == 0 ? 300 : 1900);
    body = eiv + *plen + ml;
    p = (16 - (body + 1) % 16) % 16; /* minimal, then more blocks */
    if (kind != REC_BAD_PADLEN) {
        maxk = (255 - p) / 16;
        p += 16 * fc_test_rand_below(maxk + 1);
    }
    if (kind == REC_BAD_PADBYTE && p == 0)
        p = 16; /* a padding byte to spoil */
    len = body + p + 1;
    fc_test_rand_bytes(plain, eiv + *plen);
    make_hdr(hdr, kind == REC_BAD_HDR ? seq + 1 : seq, version, 0);
    ref_mac(c, mk, mklen, hdr, plain + eiv, *plen, plain + eiv + *plen);
    memset(plain + body, (int)p, p + 1);
    switch (kind) {
    case REC_BAD_PADBYTE:
        plain[len - 2 - fc_test_rand_below(p)] ^= 0x80;
        break;
    case REC_BAD_PADLEN:
        /* p + 1 + mac one past what follows the IV. */
        plain[len - 1] = (uint8_t)(len - eiv - ml);
        break;
    case REC_BAD_MAC:
        plain[eiv + *plen + fc_test_rand_below(ml)] ^=
            (uint8_t)(1u << fc_test_rand_below(8));
        break;
    case REC_BAD_PAYLOAD:
        if (*plen > 0)
            plain[eiv + fc_test_rand_below(*plen)] ^= 0x01;
        else
            plain[eiv] ^= 0x01; /* the MAC's first byte */
        break;
    }
    raw_cbc(env, c, key, chain, 1, plain, len, rec);
    if (kind == REC_PARTIAL)
        len -= 1 + fc_test_rand_below(15);
    return len;
}

/*
 * Every kind of record through fastcrypto and default: the same verdict,
 * and for good records the same outl (the payload length) and payload.
 * Good records must be accepted and bad ones refused whether or not
 * default is there to compare with.
 */
static void test_tls_decrypt(void **state)
{
    const fc_test_env *env = *state;
    const int rounds = fc_test_quick() ? 3 : 40;
    uint8_t *rec = fc_test_xmalloc(MAXREC), *plain = fc_test_xmalloc(MAXREC);
    uint8_t *b[2] = {fc_test_xmalloc(MAXREC), fc_test_xmalloc(MAXREC)};

    fc_test_rand_start(__func__);
    for (int c = 0; c < NC; c++) {
        const int have_df = env->df[c] != NULL;

        for (size_t vi = 0; vi < FC_ARRAY_LEN(k_versions); vi++) {
            const int version = k_versions[vi];
            const size_t eiv = eiv_of(version);

            for (int kind = 0; kind < REC_KINDS; kind++) {
                for (int round = 0; round < rounds; round++) {
                    uint8_t key[32], iv[16], mk[32], hdr[13], chain[16],
                        ivs[2][16];
                    size_t plen, len;
                    uint64_t seq = fc_test_rand64() >> 4;
                    int r[2] = {0, 0}, o[2] = {-1, -1};
                    EVP_CIPHER_CTX *d[2] = {EVP_CIPHER_CTX_new(),
                                            EVP_CIPHER_CTX_new()};

                    fc_test_rand_bytes(key, sizeof(key));
                    fc_test_rand_bytes(iv, sizeof(iv));
                    fc_test_rand_bytes(mk, sizeof(mk));
                    WHERE("%s version %04x %s round %d", k_names[c], version,
                          k_kind[kind], round);
                    CHECK(
                        d[0] && d[1] &&
                            tls_setup(d[0], env->fc[c], key, iv, 0, version, mk,
                                      k_maclen[c]) &&
                            (!have_df || tls_setup(d[1], env->df[c], key, iv, 0,
                                                   version, mk, k_maclen[c])),
                        "setup failed");
                    memcpy(chain, iv, 16);
                    len = build_record(env, c, version, kind, key, chain, mk,
                                       k_maclen[c], seq, rec, plain, &plen);
                    make_hdr(hdr, seq, version, len);
                    for (int i = 0; i < 1 + have_df; i++) {
                        memcpy(b[i], rec, len);
                        CHECK(set_aad(d[i], hdr) == (int)k_maclen[c],
                              "tlsaadpad (provider %d)", i);
                        r[i] =
                            EVP_CipherUpdate(d[i], b[i], &o[i], b[i], (int)len);
                        if (i == 0 && !r[0])
                            fc_test_expect_reason(
                                "refused record",
                                kind == REC_SHORT || kind == REC_PARTIAL
                                    ? (kind == REC_SHORT
                                           ? "invalid TLS record"
                                           : "wrong final block length")
                                    : "bad record MAC or padding");
                        ERR_clear_error();
                    }
                    CHECK(r[0] == (kind == REC_GOOD),
                          "%s record: update returned %d", k_kind[kind], r[0]);
                    if (r[0]) {
                        CHECK((size_t)o[0] == plen, "outl %d, want %zu", o[0],
                              plen);
                        CHECK_MEM(b[0] + eiv, plain + eiv, plen, "payload");
                    }
                    if (have_df) {
                        CHECK(r[0] == r[1], "verdict %d, default %d", r[0],
                              r[1]);
                        if (r[0]) {
                            CHECK(o[0] == o[1], "outl %d, default %d", o[0],
                                  o[1]);
                            CHECK_MEM(b[0] + eiv, b[1] + eiv, plen,
                                      "payload vs default");
                            /* The whole buffer, in place as libssl calls
                             * it: default's SHA-256 ciphers also decrypt
                             * the explicit-IV block, its SHA-1 ones leave
                             * it as it was. */
                            CHECK_MEM(b[0], b[1], len,
                                      "whole record vs default");
                        }
                        if (kind != REC_SHORT && kind != REC_PARTIAL) {
                            get_updated_iv(d[0], ivs[0]);
                            get_updated_iv(d[1], ivs[1]);
                            CHECK_MEM(ivs[0], ivs[1], 16,
                                      "updated-iv vs default");
                        }
                    }
                    EVP_CIPHER_CTX_free(d[0]);
                    EVP_CIPHER_CTX_free(d[1]);
                }
            }
        }
    }
    free(rec);
    free(plain);
    free(b[0]);
    free(b[1]);
}

/* ---------------------------------------------------------------------- */
/* Without a record header: plain CBC                                     */

/*
 * EVP without "tlsaad": each update is raw CBC over whole blocks (no
 * padding), in pieces of any whole-block size, in place or not, the chain
 * carried across updates; final outputs nothing. Against default and
 * against default's AES-CBC. A partial block is refused by both.
 */
static void test_plain_mode(void **state)
{
    const fc_test_env *env = *state;
    const int rounds = fc_test_quick() ? 4 : 30;
    uint8_t *in = fc_test_xmalloc(4096), *ref = fc_test_xmalloc(4096);
    uint8_t *o[2] = {fc_test_xmalloc(4096 + 32), fc_test_xmalloc(4096 + 32)};

    fc_test_rand_start(__func__);
    for (int c = 0; c < NC; c++) {
        const int have_df = env->df[c] != NULL;

        for (int round = 0; round < rounds; round++) {
            for (int enc = 0; enc <= 1; enc++) {
                uint8_t key[32], iv[16];
                const size_t len = 16 * pick_len(256);
                const int in_place = round & 1;
                EVP_CIPHER_CTX *x[2] = {EVP_CIPHER_CTX_new(),
                                        EVP_CIPHER_CTX_new()};
                size_t off = 0;
                int fl[2] = {-1, -1};

                WHERE("%s %s %zu bytes round %d", k_names[c],
                      enc ? "encrypt" : "decrypt", len, round);
                fc_test_rand_bytes(key, sizeof(key));
                fc_test_rand_bytes(iv, sizeof(iv));
                fc_test_rand_bytes(in, len);
                for (int i = 0; i < 1 + have_df; i++) {
                    const EVP_CIPHER *ci = i ? env->df[c] : env->fc[c];
                    CHECK(x[i] &&
                              EVP_CipherInit_ex2(x[i], ci, key, iv, enc, NULL),
                          "init %d", i);
                    /* speed turns padding off; it is ignored. */
                    CHECK(EVP_CIPHER_CTX_set_padding(x[i], 0), "padding");
                    memcpy(o[i], in, len);
                }
                while (off < len) {
                    size_t n = 16 * (1 + pick_len((len - off) / 16 - 1));
                    int l[2] = {-1, -1}, r[2] = {0, 0};

                    for (int i = 0; i < 1 + have_df; i++) {
                        if (in_place)
                            r[i] = EVP_CipherUpdate(x[i], o[i] + off, &l[i],
                                                    o[i] + off, (int)n);
                        else
                            r[i] = EVP_CipherUpdate(x[i], o[i] + off, &l[i],
                                                    in + off, (int)n);
                    }
                    CHECK(r[0] == 1 && (size_t)l[0] == n,
                          "update of %zu returned %d, outl %d", n, r[0], l[0]);
                    if (have_df)
                        CHECK(r[1] == r[0] && l[1] == l[0],
                              "default returned %d, outl %d", r[1], l[1]);
                    off += n;
                }
                for (int i = 0; i < 1 + have_df; i++)
                    CHECK(EVP_CipherFinal_ex(x[i], o[i] + len, &fl[i]) &&
                              fl[i] == 0,
                          "final %d: outl %d", i, fl[i]);
                raw_cbc(env, c, key, iv, enc, in, len, ref);
                CHECK_MEM(o[0], ref, len, "plain CBC vs AES-CBC");
                if (have_df)
                    CHECK_MEM(o[0], o[1], len, "plain CBC vs default");
                /* A partial block: refused, by both. */
                for (int i = 0; i < 1 + have_df; i++) {
                    int l = -1;
                    CHECK(!EVP_CipherUpdate(x[i], o[i], &l, in, 17),
                          "17 bytes accepted by %d", i);
                    if (i == 0)
                        fc_test_expect_reason("partial block",
                                              "wrong final block length");
                    ERR_clear_error();
                }
                EVP_CIPHER_CTX_free(x[0]);
                EVP_CIPHER_CTX_free(x[1]);
            }
        }
    }
    free(in);
    free(ref);
    free(o[0]);
    free(o[1]);
}

/* ---------------------------------------------------------------------- */
/* Keys, copies, parameters                                               */

/*
 * A new key forgets the MAC key (the default's does too: the "HMAC" is
 * then H(H(header || payload))); an IV-only re-init keeps it; long MAC
 * keys are hashed first; an empty one works. Records compared with
 * default, or with the reference where default is absent.
 */
static void test_mac_keys(void **state)
{
    const fc_test_env *env = *state;
    static const size_t mklens[] = {0, 1, 20, 32, 64, 65, 100};
    uint8_t b[2][256];

    fc_test_rand_start(__func__);
    for (int c = 0; c < NC; c++) {
        const int have_df = env->df[c] != NULL;

        for (size_t m = 0; m < FC_ARRAY_LEN(mklens) + 2; m++) {
            uint8_t key[32], iv[16], mk[100], hdr[13], raw[256], mac[32];
            const size_t plen = 45, in = 16 + plen;
            const size_t rec = fc_cbc_hmac_sealed_len(16, plen, k_maclen[c]);
            EVP_CIPHER_CTX *e[2] = {EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_new()};
            int o[2] = {-1, -1};
            /* m == 7: re-keyed after the MAC key; m == 8: IV-only re-init. */
            const size_t mklen = m < FC_ARRAY_LEN(mklens) ? mklens[m] : 20;

            WHERE("%s MAC key case %zu", k_names[c], m);
            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(iv, sizeof(iv));
            fc_test_rand_bytes(mk, sizeof(mk));
            fc_test_rand_bytes(b[0], in);
            memcpy(b[1], b[0], in);
            make_hdr(hdr, 7, TLS1_2_VERSION, in);
            for (int i = 0; i < 1 + have_df; i++) {
                const EVP_CIPHER *ci = i ? env->df[c] : env->fc[c];

                CHECK(
                    tls_setup(e[i], ci, key, iv, 1, TLS1_2_VERSION, mk, mklen),
                    "setup %d", i);
                if (m == FC_ARRAY_LEN(mklens))
                    CHECK(EVP_CipherInit_ex(e[i], NULL, NULL, key, NULL, 1),
                          "re-key %d", i);
                if (m == FC_ARRAY_LEN(mklens) + 1)
                    CHECK(EVP_CipherInit_ex(e[i], NULL, NULL, NULL, iv, 1),
                          "IV re-init %d", i);
                CHECK(set_aad(e[i], hdr) > 0, "aad %d", i);
                CHECK(EVP_CipherUpdate(e[i], b[i], &o[i], b[i], (int)rec) &&
                          (size_t)o[i] == rec,
                      "update %d", i);
            }
            if (have_df)
                CHECK_MEM(b[0], b[1], rec, "record vs default");
            raw_cbc(env, c, key, iv, 0, b[0], rec, raw);
            if (m == FC_ARRAY_LEN(mklens)) {
                /* Keyless: H(H(hdr || payload)). */
                uint8_t *msg = fc_test_xmalloc(13 + plen), inner[32];
                unsigned int l;

                memcpy(msg, hdr, 13);
                msg[12] = (uint8_t)plen;
                memcpy(msg + 13, raw + 16, plen);
                CHECK(EVP_Digest(msg, 13 + plen, inner, &l, md_of(c), NULL) &&
                          EVP_Digest(inner, l, mac, &l, md_of(c), NULL),
                      "digest");
                free(msg);
            } else {
                ref_mac(c, mk, mklen, hdr, raw + 16, plen, mac);
            }
            CHECK_MEM(raw + in, mac, k_maclen[c], "MAC");
            EVP_CIPHER_CTX_free(e[0]);
            EVP_CIPHER_CTX_free(e[1]);
        }
    }
}

/* EVP_CIPHER_CTX_copy between records: the copy and the original go on
 * independently and each matches a context that never was copied. */
static void test_ctx_copy(void **state)
{
    const fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int c = 0; c < NC; c++) {
        uint8_t key[32], iv[16], mk[32], hdr[13], b[3][128];
        const size_t plen = 30, in = 16 + plen;
        const size_t rec = fc_cbc_hmac_sealed_len(16, plen, k_maclen[c]);
        EVP_CIPHER_CTX *a = EVP_CIPHER_CTX_new(), *x = EVP_CIPHER_CTX_new();
        EVP_CIPHER_CTX *ref = EVP_CIPHER_CTX_new();
        int o;

        WHERE("%s", k_names[c]);
        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(mk, sizeof(mk));
        CHECK(
            tls_setup(a, env->fc[c], key, iv, 1, TLS1_2_VERSION, mk, 32) &&
                tls_setup(ref, env->fc[c], key, iv, 1, TLS1_2_VERSION, mk, 32),
            "setup");
        for (int r = 0; r < 3; r++) {
            fc_test_rand_bytes(b[0], in);
            memcpy(b[1], b[0], in);
            memcpy(b[2], b[0], in);
            make_hdr(hdr, (uint64_t)r, TLS1_2_VERSION, in);
            if (r == 1)
                CHECK(EVP_CIPHER_CTX_copy(x, a), "copy");
            CHECK(set_aad(a, hdr) > 0 && set_aad(ref, hdr) > 0, "aad");
            CHECK(EVP_CipherUpdate(a, b[0], &o, b[0], (int)rec) &&
                      EVP_CipherUpdate(ref, b[2], &o, b[2], (int)rec),
                  "update");
            CHECK_MEM(b[0], b[2], rec, "original vs uncopied");
            if (r >= 1) {
                CHECK(set_aad(x, hdr) > 0 &&
                          EVP_CipherUpdate(x, b[1], &o, b[1], (int)rec),
                      "update on the copy");
                CHECK_MEM(b[1], b[2], rec, "copy vs uncopied");
            }
        }
        EVP_CIPHER_CTX_free(a);
        EVP_CIPHER_CTX_free(x);
        EVP_CIPHER_CTX_free(ref);
    }
}

/*
 * Parameter edges, each against default where it is there: a header of
 * the wrong size, a TLS 1.1+ header too short for its explicit IV, a
 * record whose length disagrees with its header, a mismatched "keylen",
 * "tlsaadpad" before any header, and what EVP asks around every init.
 */
static void test_param_edges(void **state)
{
    const fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int c = 0; c < NC; c++) {
        const int have_df = env->df[c] != NULL;
        uint8_t key[32], iv[16], mk[20], hdr[13], buf[128];

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(mk, sizeof(mk));
        for (int i = 0; i < 1 + have_df; i++) {
            const EVP_CIPHER *ci = i ? env->df[c] : env->fc[c];
            EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new();
            size_t pad = 99, kl = 0;
            int o;
            OSSL_PARAM gp[3] = {
                OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD,
                                            &pad),
                OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &kl),
                OSSL_PARAM_construct_end()};
            OSSL_PARAM bad_kl[2] = {
                OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &kl),
                OSSL_PARAM_construct_end()};

            WHERE("%s provider %d", k_names[c], i);
            CHECK(tls_setup(e, ci, key, iv, 1, TLS1_2_VERSION, mk, 20),
                  "setup");
            CHECK(EVP_CIPHER_CTX_get_params(e, gp) && pad == 0 &&
                      kl == (size_t)k_keylen[c],
                  "tlsaadpad %zu keylen %zu before any header", pad, kl);
            kl = (size_t)k_keylen[c] ^ 48;
            CHECK(!EVP_CIPHER_CTX_set_params(e, bad_kl), "keylen %zu", kl);
            ERR_clear_error();
            make_hdr(hdr, 1, TLS1_2_VERSION, 40);
            CHECK(EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_TLS1_AAD, 12, hdr) <= 0,
                  "12-byte header accepted");
            if (i == 0)
                fc_test_expect_reason("12-byte header",
                                      "invalid TLS record header (tlsaad)");
            ERR_clear_error();
            make_hdr(hdr, 1, TLS1_2_VERSION, 15);
            CHECK(set_aad(e, hdr) <= 0, "header shorter than the IV");
            if (i == 0)
                fc_test_expect_reason("short header",
                                      "invalid TLS record header (tlsaad)");
            ERR_clear_error();
            /* A header of 40 bytes (24 of payload): the record it
             * announces, 16 bytes longer, is refused. */
            make_hdr(hdr, 1, TLS1_2_VERSION, 40);
            CHECK((size_t)set_aad(e, hdr) ==
                      fc_cbc_hmac_sealed_len(16, 24, k_maclen[c]) - 40,
                  "tlsaadpad for a 40-byte header");
            fc_test_rand_bytes(buf, sizeof(buf));
            CHECK(!EVP_CipherUpdate(
                      e, buf, &o, buf,
                      (int)fc_cbc_hmac_sealed_len(16, 24, k_maclen[c]) + 16),
                  "record longer than its header accepted");
            if (i == 0)
                fc_test_expect_reason("length mismatch", "invalid TLS record");
            ERR_clear_error();
            EVP_CIPHER_CTX_free(e);
        }
    }
}

/*
 * Misuse refused with fastcrypto's reasons: no key, a decrypting update in
 * TLS mode without its header, NULL buffers.
 */
static void test_bad_input(void **state)
{
    const fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int c = 0; c < NC; c++) {
        uint8_t key[32], iv[16], buf[64];
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        int o;

        WHERE("%s", k_names[c]);
        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(buf, sizeof(buf));
        CHECK(EVP_CipherInit_ex2(x, env->fc[c], NULL, iv, 1, NULL), "init");
        CHECK(!EVP_CipherUpdate(x, buf, &o, buf, 32), "update without key");
        fc_test_expect_reason("no key", "no key set");
        CHECK(tls_setup(x, env->fc[c], key, iv, 0, TLS1_2_VERSION, key, 20),
              "setup");
        CHECK(!EVP_CipherUpdate(x, buf, &o, buf, 64),
              "TLS-mode decrypt without a header");
        fc_test_expect_reason("no header", "TLS record mode: no record "
                                           "header (tlsaad) set");
        EVP_CIPHER_CTX_free(x);
    }
}

int main(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fetch_identity),
        cmocka_unit_test(test_tls_encrypt),
        cmocka_unit_test(test_tls_decrypt),
        cmocka_unit_test(test_plain_mode),
        cmocka_unit_test(test_mac_keys),
        cmocka_unit_test(test_ctx_copy),
        cmocka_unit_test(test_param_edges),
        cmocka_unit_test(test_bad_input),
    };
    return fc_test_run_groups(&k_family, tests, FC_ARRAY_LEN(tests)) != 0;
}
