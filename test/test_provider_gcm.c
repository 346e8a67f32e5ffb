/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_provider_gcm.c - fastcrypto's AES-GCM ciphers driven through EVP and
 * compared, call by call, with OpenSSL's default provider: every return
 * value, every outl, every output byte and every tag must match. The
 * behaviour held to, and the deliberate differences, are the spec atop
 * provider/cipher_aes_gcm.c.
 *
 * The tests run in the groups of support/provider_test.h, one library
 * context per CPU mask (the best GCM table; "avx512", the ymm tier where
 * the best is the zmm one; "vaes", aesni-avx; "all", generic); the table
 * in use is printed and must be the core's selection under the mask.
 *
 * What is covered:
 *   - identity and algorithm parameters (flags, lengths, mode);
 *   - the McGrew-Viega vectors (test/kat/aes_gcm.txt) through EVP;
 *   - random streams: key sizes, IV lengths 1..128, AAD and data in random
 *     pieces, in place and not, both directions, every tag length 1..16;
 *   - records on one key (an IV-only init each, AAD and data in one call)
 *     of every length 0..300 with every AAD length 0..64;
 *   - IVs longer than the default provider takes (129..1024 bytes),
 *     against a reference written here from SP 800-38D;
 *   - tag mismatch and missing tag (final fails, no output, an error),
 *     IV-only and key-only re-init, EVP_CIPHER_CTX_copy mid-message,
 *     context parameters, EVP_Cipher one-shot calls, misuse;
 *   - "tag" sets refused when encrypting, the key length policy shared
 *     with CBC (support/evp_checks.h), IV generation only where a 4-byte
 *     fixed field and the 8-byte invocation field fit, and no error left
 *     on the queue by a successful call;
 *   - TLS 1.2 records driven exactly as libssl 3.x does (tls1_change_
 *     cipher_state: key, "tlsivfixed", "tls-version", "tls-mac-size"; per
 *     record, tls1_enc: EVP_CTRL_AEAD_TLS1_AAD, then one in-place update),
 *     cross-decrypted with default both ways, tampered records refused,
 *     contexts copied with a record armed and re-keyed between records;
 *   - TLS 1.3 records as libssl does them (tls13_enc: an IV-only init,
 *     the tag set before the data when opening, AAD, data, final, the tag
 *     read when sealing), byte for byte.
 *
 * Where the two providers differ on purpose (fastcrypto takes IVs longer
 * than 128 bytes; a tag read after a new IV), the test says so and holds
 * fastcrypto to the meaningful behaviour.
 *
 * Environment: FC_TEST_CONF (required; ctest sets it), FC_TEST_SEED
 * (replays a run), FC_TEST_QUICK=1 (fewer rounds, for valgrind).
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
#include <openssl/params.h>
#include <openssl/provider.h>

#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/gcm.h"
#include "impls.h"
#include "kat.h"
#include "cipher_suite.h"
#include "provider_test.h"

#define NKS             3
#define MAX_PIECES      40
#define TLS_AAD_LEN     13
#define TLS_EXPLICIT_IV 8
#define TLS_TAG         16

static const char *const k_names[NKS] = {"AES-128-GCM", "AES-192-GCM",
                                         "AES-256-GCM"};
static const int k_keylen[NKS] = {16, 24, 32};
#define rnd(n) fc_test_rand_below(n)

/* ---------------------------------------------------------------------- */
/* Reference GCM (SP 800-38D), for IVs the default provider refuses       */

/* GF(2^128) and GHASH: fc_test_gf128_mul, fc_test_ghash (checks.h). */

static void ref_ecb1(const EVP_CIPHER *ecb, const uint8_t *key,
                     const uint8_t in[16], uint8_t out[16])
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int l = 0;

    CHECK(c != NULL && EVP_EncryptInit_ex2(c, ecb, key, NULL, NULL) &&
              EVP_CIPHER_CTX_set_padding(c, 0) &&
              EVP_EncryptUpdate(c, out, &l, in, 16) && l == 16,
          "reference AES failed");
    EVP_CIPHER_CTX_free(c);
}

/* GCM-AE: ciphertext and the full tag. */
static void ref_gcm_encrypt(const EVP_CIPHER *ecb, const uint8_t *key,
                            const uint8_t *iv, size_t ivlen, const uint8_t *aad,
                            size_t alen, const uint8_t *pt, size_t len,
                            uint8_t *ct, uint8_t tag[16])
{
    static const uint8_t zero[16];
    uint8_t h[16], j0[16] = {0}, ctr[16], ks[16], xi[16] = {0}, lb[16] = {0};

    ref_ecb1(ecb, key, zero, h);
    if (ivlen == 12) {
        memcpy(j0, iv, 12);
        j0[15] = 1;
    } else {
        fc_test_ghash(h, j0, iv, ivlen);
        fc_store_be64(lb + 8, (uint64_t)ivlen * 8);
        fc_test_ghash(h, j0, lb, 16);
    }
    memcpy(ctr, j0, 16);
    for (size_t off = 0; off < len; off += 16) {
        fc_store_be32(ctr + 12, fc_load_be32(ctr + 12) + 1);
        ref_ecb1(ecb, key, ctr, ks);
        for (size_t j = 0; j < 16 && off + j < len; j++)
            ct[off + j] = pt[off + j] ^ ks[j];
    }
    fc_test_ghash(h, xi, aad, alen);
    fc_test_ghash(h, xi, ct, len);
    fc_store_be64(lb, (uint64_t)alen * 8);
    fc_store_be64(lb + 8, (uint64_t)len * 8);
    fc_test_ghash(h, xi, lb, 16);
    ref_ecb1(ecb, key, j0, ks);
    for (int j = 0; j < 16; j++)
        tag[j] = xi[j] ^ ks[j];
}

/* ---------------------------------------------------------------------- */
/* EVP helpers                                                            */

/* Cipher, then IV length, then key and IV: the order every AEAD user
 * follows when the IV is not 12 bytes. */
static int gcm_init(EVP_CIPHER_CTX *c, const EVP_CIPHER *ci, const uint8_t *key,
                    const uint8_t *iv, size_t ivlen, int enc)
{
    OSSL_PARAM p[2] = {
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen),
        OSSL_PARAM_construct_end()};

    return EVP_CipherInit_ex2(c, ci, NULL, NULL, enc, NULL) &&
           EVP_CIPHER_CTX_set_params(c, p) &&
           EVP_CipherInit_ex2(c, NULL, key, iv, enc, NULL);
}

static int get_tag(EVP_CIPHER_CTX *c, uint8_t *tag, size_t len)
{
    OSSL_PARAM p[2] = {
        OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, len),
        OSSL_PARAM_construct_end()};
    return EVP_CIPHER_CTX_get_params(c, p);
}

static int set_tag(EVP_CIPHER_CTX *c, const uint8_t *tag, size_t len)
{
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_octet_string(
                           OSSL_CIPHER_PARAM_AEAD_TAG, (void *)tag, len),
                       OSSL_PARAM_construct_end()};
    return EVP_CIPHER_CTX_set_params(c, p);
}

/* The IV-generation ctrls: "tlsivfixed" (|len| -1: the whole IV), the
 * "tlsivgen" get (|len| 0: the whole IV) and the "tlsivinv" set. */
static int set_iv_fixed(EVP_CIPHER_CTX *c, int len, const uint8_t *buf)
{
    return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_FIXED, len, (void *)buf) >
           0;
}

static int iv_gen(EVP_CIPHER_CTX *c, uint8_t *out, int len)
{
    return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_IV_GEN, len, out) > 0;
}

static int set_iv_inv(EVP_CIPHER_CTX *c, const uint8_t *in, int len)
{
    return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_INV, len, (void *)in) > 0;
}

/* ---------------------------------------------------------------------- */
/* One message through both providers, call by call                       */

typedef struct msg_spec {
    int ks, enc, in_place, tag_early;
    const uint8_t *key, *iv, *aad, *in, *tag;
    size_t ivlen, alen, len, taglen;
    size_t apieces[MAX_PIECES], dpieces[MAX_PIECES], na, nd;
} msg_spec;

typedef struct msg_res {
    int ret[2 * MAX_PIECES + 4];
    int outl[2 * MAX_PIECES + 4];
    size_t nops;
    fc_guard out; /* len bytes, 16 guard bytes either side */
    uint8_t tag[16];
    int tag_ok, final_ok;
} msg_res;

static void describe(const msg_spec *s)
{
    char ap[160], dp[200];

    fc_test_pieces_str(ap, sizeof(ap), s->apieces, s->na);
    fc_test_pieces_str(dp, sizeof(dp), s->dpieces, s->nd);
    WHERE("%s %s%s ivlen=%zu aad=%zu [%s] data=%zu [%s] taglen=%zu%s key=%s "
          "iv=%s",
          k_names[s->ks], s->enc ? "encrypt" : "decrypt",
          s->in_place ? " in place" : "", s->ivlen, s->alen, ap, s->len, dp,
          s->taglen, s->tag_early ? " (tag set first)" : "",
          fc_test_hexs(s->key, (size_t)k_keylen[s->ks]),
          fc_test_hexs(s->iv, s->ivlen));
}

/* Runs |s| through cipher |c|; a failing call ends the run. */
static void run_msg(const EVP_CIPHER *c, const msg_spec *s, msg_res *r,
                    int is_fc)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    uint8_t *inbuf = NULL, *outp;
    const uint8_t *inp;
    size_t off = 0, tout = 0;
    int ret, ol;

    memset(r, 0, sizeof(*r));
    fc_guard_new(&r->out, s->len, 16, 16);
    outp = r->out.p;
    if (s->in_place) {
        memcpy(outp, s->in, s->len);
        inp = outp;
    } else {
        inbuf = fc_test_xmalloc(s->len);
        memcpy(inbuf, s->in, s->len);
        inp = inbuf;
    }
    CHECK(ctx != NULL && gcm_init(ctx, c, s->key, s->iv, s->ivlen, s->enc),
          "init failed (%s)", is_fc ? FC_NAME : "default");
    ret = 1;
    if (!s->enc && s->tag_early)
        ret = r->ret[r->nops++] = set_tag(ctx, s->tag, s->taglen);
    for (size_t i = 0; i < s->na && ret; i++) {
        ol = -7;
        ret =
            EVP_CipherUpdate(ctx, NULL, &ol, s->aad + off, (int)s->apieces[i]);
        r->ret[r->nops] = ret;
        r->outl[r->nops++] = ol;
        off += s->apieces[i];
    }
    off = 0;
    for (size_t i = 0; i < s->nd && ret; i++) {
        ol = -7;
        ret = EVP_CipherUpdate(ctx, outp + off, &ol, inp + off,
                               (int)s->dpieces[i]);
        r->ret[r->nops] = ret;
        r->outl[r->nops++] = ol;
        off += s->dpieces[i];
        if (ret)
            tout += (size_t)ol;
    }
    if (ret && !s->enc && !s->tag_early)
        ret = r->ret[r->nops++] = set_tag(ctx, s->tag, s->taglen);
    if (ret) {
        ol = -7;
        ret = EVP_CipherFinal_ex(ctx, outp + tout, &ol);
        r->ret[r->nops] = ret;
        r->outl[r->nops++] = ol;
        r->final_ok = ret;
    }
    if (ret && s->enc)
        r->tag_ok = get_tag(ctx, r->tag, s->taglen);
    if (!ret && is_fc)
        fc_test_expect_error("failing call", 0);
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
    free(inbuf);
}

static void compare_msg(const msg_spec *s, const msg_res *f, const msg_res *d)
{
    CHECK(f->nops == d->nops, "calls made: fastcrypto %zu, default %zu",
          f->nops, d->nops);
    for (size_t i = 0; i < f->nops; i++) {
        CHECK(f->ret[i] == d->ret[i], "call %zu returned %d, default %d", i,
              f->ret[i], d->ret[i]);
        CHECK(f->outl[i] == d->outl[i], "call %zu outl %d, default %d", i,
              f->outl[i], d->outl[i]);
    }
    CHECK_MEM(f->out.base, d->out.base, fc_guard_whole(&f->out),
              "output buffer");
    CHECK(fc_guard_intact(&f->out), "written outside the output");
    CHECK(f->final_ok == d->final_ok, "final %d, default %d", f->final_ok,
          d->final_ok);
    CHECK(f->tag_ok == d->tag_ok, "tag read %d, default %d", f->tag_ok,
          d->tag_ok);
    if (f->tag_ok)
        CHECK_MEM(f->tag, d->tag, s->taglen, "tag");
}

static void diff_msg(const fc_test_env *env, const msg_spec *s, msg_res *f_out)
{
    msg_res f, d;

    describe(s);
    run_msg(env->fc[s->ks], s, &f, 1);
    run_msg(env->df[s->ks], s, &d, 0);
    compare_msg(s, &f, &d);
    if (f_out != NULL)
        *f_out = f;
    else
        fc_guard_free(&f.out);
    fc_guard_free(&d.out);
}

/* ---------------------------------------------------------------------- */
/* Tests                                                                  */

/* The McGrew-Viega vectors, both directions, through both providers. */
FC_SUITE_TEST(test_kat)
{
    fc_test_env *env = *state;
    fc_kat *k = fc_kat_open("aes_gcm.txt");
    size_t count = 0;

    fc_test_rand_start(__func__);
    while (fc_kat_next(k)) {
        size_t kl, ivl, al, pl, cl, tl;
        const uint8_t *key = fc_kat_bytes(k, "Key", &kl);
        const uint8_t *iv = fc_kat_bytes(k, "IV", &ivl);
        const uint8_t *aad = fc_kat_bytes(k, "AAD", &al);
        const uint8_t *pt = fc_kat_bytes(k, "Plaintext", &pl);
        const uint8_t *ct = fc_kat_bytes(k, "Ciphertext", &cl);
        const uint8_t *tag = fc_kat_bytes(k, "Tag", &tl);
        msg_spec s = {0};
        msg_res f;

        s.ks = (int)(kl / 8 - 2);
        s.key = key;
        s.iv = iv;
        s.ivlen = ivl;
        s.aad = aad;
        s.alen = al;
        s.na = 1;
        s.apieces[0] = al;
        s.nd = 1;
        s.dpieces[0] = pl;
        s.len = pl;
        s.taglen = 16;
        for (int enc = 1; enc >= 0; enc--) {
            s.enc = enc;
            s.in = enc ? pt : ct;
            s.tag = tag;
            diff_msg(env, &s, &f);
            WHERE("%s (%s)", fc_kat_where(k), enc ? "encrypt" : "decrypt");
            CHECK(f.final_ok, "final failed");
            CHECK_MEM(f.out.p, enc ? ct : pt, pl, "known answer");
            if (enc)
                CHECK_MEM(f.tag, tag, 16, "known tag");
            fc_guard_free(&f.out);
        }
        count++;
    }
    fc_kat_close(k);
    CHECK(count == 18, "%zu vectors", count);
}

/* Random messages: everything random, every result compared. */
FC_SUITE_TEST(test_diff_streaming)
{
    fc_test_env *env = *state;
    const int rounds = fc_test_quick() ? 40 : 400;
    const size_t maxlen = fc_test_quick() ? 300 : 2100;
    uint8_t key[32], iv[128], aad[200], tag[16];
    uint8_t *pt = fc_test_xmalloc(maxlen), *ct = fc_test_xmalloc(maxlen);

    fc_test_rand_start(__func__);
    for (int r = 0; r < rounds; r++) {
        msg_spec s = {0};
        msg_res f;

        s.ks = r % NKS;
        s.ivlen = rnd(3) ? 12 : 1 + rnd(128);
        s.alen = rnd(3) ? rnd(sizeof(aad) + 1) : 0;
        s.len = rnd(4) ? rnd(maxlen + 1) : rnd(70);
        s.in_place = (int)rnd(2);
        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(aad, sizeof(aad));
        fc_test_rand_bytes(pt, s.len);
        s.key = key;
        s.iv = iv;
        s.aad = aad;
        s.na = fc_test_pieces(s.alen, s.apieces, MAX_PIECES);
        s.nd = fc_test_pieces(s.len, s.dpieces, MAX_PIECES);

        /* Encrypt, with a random tag length to read. */
        s.enc = 1;
        s.in = pt;
        s.taglen = 1 + rnd(16);
        diff_msg(env, &s, &f);
        CHECK(f.final_ok && f.tag_ok, "encryption failed");
        memcpy(ct, f.out.p, s.len);
        fc_guard_free(&f.out);
        /* The full tag for the decryption. */
        s.taglen = 16;
        s.na = fc_test_pieces(s.alen, s.apieces, MAX_PIECES);
        diff_msg(env, &s, &f);
        memcpy(tag, f.tag, 16);
        fc_guard_free(&f.out);

        /* Decrypt with the tag truncated to any length, set before the
         * data or after it, in other pieces. */
        s.enc = 0;
        s.in = ct;
        s.tag = tag;
        s.taglen = 1 + rnd(16);
        s.tag_early = (int)rnd(2);
        s.in_place = (int)rnd(2);
        s.na = fc_test_pieces(s.alen, s.apieces, MAX_PIECES);
        s.nd = fc_test_pieces(s.len, s.dpieces, MAX_PIECES);
        diff_msg(env, &s, &f);
        CHECK(f.final_ok, "decryption did not verify");
        CHECK_MEM(f.out.p, pt, s.len, "round trip");
        fc_guard_free(&f.out);

        /* A wrong tag: final fails in both, with no output. */
        {
            uint8_t bad[16];
            memcpy(bad, tag, 16);
            bad[rnd(s.taglen)] ^= (uint8_t)(1u << rnd(8));
            s.tag = bad;
            diff_msg(env, &s, &f);
            CHECK(!f.final_ok, "a wrong tag verified");
            CHECK(f.outl[f.nops - 1] == 0, "final reported %d bytes",
                  f.outl[f.nops - 1]);
            fc_guard_free(&f.out);
        }
    }
    free(pt);
    free(ct);
}

/*
 * Records on one key, as AEAD users make them: an IV-only init per record,
 * the AAD in one call, the data in one call, final and the tag (read when
 * sealing; set before the data when opening). Every data length 0..300
 * with every AAD length 0..64: the short path's shapes (fc/gcm.h), byte
 * for byte against default, both directions, in place; a wrong tag fails
 * in both.
 */
FC_SUITE_TEST(test_records)
{
    fc_test_env *env = *state;
    const size_t step = fc_test_quick() ? 11 : 1;
    uint8_t key[32], iv[12], aad[64], pt[300], tag[16];
    size_t count = 0;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        fc_pair e, d;

        fc_test_rand_bytes(key, sizeof(key));
        fc_pair_new(&e);
        fc_pair_new(&d);
        WHERE("%s: record setup", k_names[ks]);
        CHECK(fc_pair_init(&e, env, ks, key, NULL, 1, NULL, "seal key") &&
                  fc_pair_init(&d, env, ks, key, NULL, 0, NULL, "open key"),
              "key init");
        for (size_t len = ks; len <= 300; len += step * NKS) {
            fc_test_rand_bytes(pt, len);
            for (size_t alen = 0; alen <= 64; alen += step) {
                uint8_t out[2][300 + 16];
                int l;

                fc_test_rand_bytes(iv, sizeof(iv));
                fc_test_rand_bytes(aad, alen);
                WHERE("%s: record of %zu bytes, AAD %zu, iv=%s", k_names[ks],
                      len, alen, fc_test_hexs(iv, 12));
                CHECK(fc_pair_init(&e, env, -1, NULL, iv, 1, NULL, "seal IV"),
                      "seal IV");
                CHECK(fc_pair_update(&e, 1, aad, alen, "seal AAD"), "AAD");
                memcpy(out[0], pt, len);
                memcpy(out[1], pt, len);
                CHECK(fc_pair_update_in_place(&e, out[0], out[1], len, &l,
                                              "seal data") &&
                          l == (int)len,
                      "data: outl %d", l);
                CHECK(fc_pair_final(&e, 0, "seal final"), "final");
                CHECK(fc_test_get_octets(e.c[0], OSSL_CIPHER_PARAM_AEAD_TAG,
                                         tag, 16, &(size_t){0}),
                      "tag");
                CHECK(fc_pair_get_octets(&e, OSSL_CIPHER_PARAM_AEAD_TAG, 16,
                                         "seal tag"),
                      "tag");
                for (int bad = 0; bad < 2; bad++) {
                    uint8_t t[16], back[2][300 + 16];
                    const char *what = bad ? "wrong tag" : "open";

                    memcpy(t, tag, 16);
                    t[(len + alen) % 16] ^= (uint8_t)(bad << (alen % 8));
                    memcpy(back[0], out[0], len);
                    memcpy(back[1], out[0], len);
                    CHECK(fc_pair_init(&d, env, -1, NULL, iv, 0, NULL,
                                       "open IV") &&
                              fc_pair_set_octets(&d, OSSL_CIPHER_PARAM_AEAD_TAG,
                                                 t, 16, "open tag") &&
                              fc_pair_update(&d, 1, aad, alen, "open AAD") &&
                              fc_pair_update_in_place(&d, back[0], back[1], len,
                                                      &l, "open data"),
                          "%s", what);
                    CHECK(fc_pair_final(&d, 0, what) == !bad, "%s: final",
                          what);
                    if (!bad)
                        CHECK_MEM(back[0], pt, len, "opened record");
                }
                count++;
            }
        }
        fc_pair_free(&e);
        fc_pair_free(&d);
    }
    print_message("[%s] %zu records matched default\n", env->label, count);
}

/* Every IV length default takes (1..128) and every tag length (1..16),
 * each at least once, both directions. */
FC_SUITE_TEST(test_iv_and_tag_lengths)
{
    fc_test_env *env = *state;
    uint8_t key[32], iv[128], aad[40], pt[100], tag[16];
    msg_res f;

    fc_test_rand_start(__func__);
    for (size_t ivlen = 1; ivlen <= 128; ivlen++) {
        msg_spec s = {0};

        if (fc_test_quick() && ivlen % 7 != 0 && ivlen != 12 && ivlen != 1)
            continue;
        s.ks = (int)(ivlen % NKS);
        s.ivlen = ivlen;
        s.alen = rnd(sizeof(aad) + 1);
        s.len = rnd(sizeof(pt) + 1);
        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(aad, sizeof(aad));
        fc_test_rand_bytes(pt, sizeof(pt));
        s.key = key;
        s.iv = iv;
        s.aad = aad;
        s.na = fc_test_pieces(s.alen, s.apieces, MAX_PIECES);
        s.nd = fc_test_pieces(s.len, s.dpieces, MAX_PIECES);
        s.enc = 1;
        s.in = pt;
        s.taglen = 16;
        diff_msg(env, &s, &f);
        CHECK(f.final_ok && f.tag_ok, "encryption failed");
        memcpy(tag, f.tag, 16);
        s.enc = 0;
        s.in = f.out.p;
        s.tag = tag;
        s.taglen = 1 + (ivlen - 1) % 16; /* each length 8 times */
        s.tag_early = (int)(ivlen & 1);
        s.in_place = (int)((ivlen >> 1) & 1);
        {
            msg_res g;
            diff_msg(env, &s, &g);
            CHECK(g.final_ok, "the right %zu-byte tag was refused", s.taglen);
            CHECK_MEM(g.out.p, pt, s.len, "round trip");
            fc_guard_free(&g.out);
        }
        fc_guard_free(&f.out);
    }
}

/* IVs longer than default's 128 bytes: fastcrypto against the reference
 * (default refuses them, which is checked too). */
FC_SUITE_TEST(test_long_iv)
{
    fc_test_env *env = *state;
    static const size_t lens[] = {129, 130, 143, 144, 145,  200, 255,
                                  256, 511, 512, 513, 1000, 1024};
    uint8_t key[32], iv[1024], aad[40], pt[333], ct[333], out[333], tag[16],
        t2[16];

    fc_test_rand_start(__func__);
    for (size_t i = 0; i < FC_ARRAY_LEN(lens); i++) {
        const int ks = (int)(i % NKS);
        const size_t len = rnd(sizeof(pt) + 1), alen = rnd(sizeof(aad) + 1);
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
        int l1 = 0, l2 = 0;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(aad, sizeof(aad));
        fc_test_rand_bytes(pt, sizeof(pt));
        WHERE("%s ivlen=%zu aad=%zu data=%zu", k_names[ks], lens[i], alen, len);
        ref_gcm_encrypt(env->ref[ks], key, iv, lens[i], aad, alen, pt, len, ct,
                        tag);

        CHECK(c != NULL && gcm_init(c, env->fc[ks], key, iv, lens[i], 1),
              "init with a long IV failed");
        CHECK(EVP_CipherUpdate(c, NULL, &l1, aad, (int)alen) &&
                  EVP_CipherUpdate(c, out, &l1, pt, (int)len) &&
                  (size_t)l1 == len && EVP_CipherFinal_ex(c, out + l1, &l2) &&
                  l2 == 0 && get_tag(c, t2, 16),
              "encryption failed");
        CHECK_MEM(out, ct, len, "ciphertext vs reference");
        CHECK_MEM(t2, tag, 16, "tag vs reference");
        /* "ivlen" reads back the length in use. */
        {
            size_t v = 0;
            CHECK(fc_test_get_size(c, OSSL_CIPHER_PARAM_IVLEN, &v) &&
                      v == lens[i],
                  "ivlen reads %zu", v);
        }
        CHECK(gcm_init(c, env->fc[ks], key, iv, lens[i], 0) &&
                  EVP_CipherUpdate(c, NULL, &l1, aad, (int)alen) &&
                  EVP_CipherUpdate(c, out, &l1, ct, (int)len) &&
                  set_tag(c, tag, 16) && EVP_CipherFinal_ex(c, out + l1, &l2),
              "decryption failed");
        CHECK_MEM(out, pt, len, "round trip");
        /* The default provider stops at 128 bytes; fastcrypto deliberately
         * does not (fc/gcm.h: any length up to 2^61 - 1). */
        CHECK(!gcm_init(c, env->df[ks], key, iv, lens[i], 1),
              "default took a %zu-byte IV: update this test", lens[i]);
        ERR_clear_error();
        EVP_CIPHER_CTX_free(c);
    }
}

/* Missing or wrong tags, and what final leaves behind. */
FC_SUITE_TEST(test_tag_checks)
{
    fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        uint8_t key[32], iv[12], aad[17], pt[50], ct[50], out[50], tag[16],
            bad[16];
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new(), *d = EVP_CIPHER_CTX_new();
        int l = 0, lf, ld, rf, rd;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(aad, sizeof(aad));
        fc_test_rand_bytes(pt, sizeof(pt));
        WHERE("%s", k_names[ks]);
        CHECK(gcm_init(d, env->df[ks], key, iv, 12, 1) &&
                  EVP_CipherUpdate(d, NULL, &l, aad, sizeof(aad)) &&
                  EVP_CipherUpdate(d, ct, &l, pt, sizeof(pt)) &&
                  EVP_CipherFinal_ex(d, ct + l, &l) && get_tag(d, tag, 16),
              "reference encryption");

        /* Decrypt-final without a tag fails, in both. */
        WHERE("%s: decrypt final without a tag", k_names[ks]);
        CHECK(gcm_init(c, env->fc[ks], key, iv, 12, 0) &&
                  gcm_init(d, env->df[ks], key, iv, 12, 0),
              "init");
        CHECK(EVP_CipherUpdate(c, NULL, &l, aad, sizeof(aad)) &&
                  EVP_CipherUpdate(c, out, &l, ct, sizeof(ct)) &&
                  EVP_CipherUpdate(d, NULL, &l, aad, sizeof(aad)) &&
                  EVP_CipherUpdate(d, out, &l, ct, sizeof(ct)),
              "update");
        lf = ld = -7;
        rf = EVP_CipherFinal_ex(c, out, &lf);
        CHECK(rf == 0, "final without a tag succeeded");
        fc_test_expect_error("final without a tag", 0);
        rd = EVP_CipherFinal_ex(d, out, &ld);
        CHECK(rd == 0, "default: final without a tag succeeded");
        ERR_clear_error();

        /* A wrong tag: final fails with an error and writes nothing. */
        for (size_t tl = 1; tl <= 16; tl += 5) {
            WHERE("%s: wrong %zu-byte tag", k_names[ks], tl);
            memcpy(bad, tag, 16);
            bad[tl - 1] ^= 0x40;
            CHECK(gcm_init(c, env->fc[ks], key, iv, 12, 0) &&
                      set_tag(c, bad, tl) &&
                      EVP_CipherUpdate(c, NULL, &l, aad, sizeof(aad)) &&
                      EVP_CipherUpdate(c, out, &l, ct, sizeof(ct)),
                  "setup");
            memset(out, 0x5a, sizeof(out));
            lf = -7;
            CHECK(EVP_CipherFinal_ex(c, out, &lf) == 0, "wrong tag accepted");
            fc_test_expect_error("wrong tag", 0);
            CHECK(lf == 0, "final reported %d bytes", lf);
            for (size_t i = 0; i < sizeof(out); i++)
                CHECK(out[i] == 0x5a, "final wrote byte %zu", i);
            /* And the context is spent: another final fails too. */
            CHECK(EVP_CipherFinal_ex(c, out, &lf) == 0, "second final passed");
            ERR_clear_error();
        }
        /* The right tag still verifies after all that (fresh IV init). */
        CHECK(gcm_init(c, env->fc[ks], key, iv, 12, 0) && set_tag(c, tag, 16) &&
                  EVP_CipherUpdate(c, NULL, &l, aad, sizeof(aad)) &&
                  EVP_CipherUpdate(c, out, &l, ct, sizeof(ct)) &&
                  EVP_CipherFinal_ex(c, out + l, &lf) && lf == 0,
              "right tag refused");
        CHECK_MEM(out, pt, sizeof(pt), "plaintext");
        EVP_CIPHER_CTX_free(c);
        EVP_CIPHER_CTX_free(d);
    }
}

/* Key and IV apart, IV-only re-init for a second message, key-only
 * re-init, and the TLS 1.3 pattern of many IV-only inits on one key. */
FC_SUITE_TEST(test_reinit)
{
    fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        for (int enc = 0; enc < 2; enc++) {
            uint8_t key[32], key2[32], iv[12], iv2[12], aad[21], in[77],
                tag[16] = {0};
            fc_pair p;

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(key2, sizeof(key2));
            fc_test_rand_bytes(iv, sizeof(iv));
            fc_test_rand_bytes(iv2, sizeof(iv2));
            fc_test_rand_bytes(aad, sizeof(aad));
            fc_test_rand_bytes(in, sizeof(in));
            fc_test_rand_bytes(tag, sizeof(tag));
            fc_pair_new(&p);
            WHERE("%s %s: key, then IV", k_names[ks], enc ? "enc" : "dec");
            CHECK(
                fc_pair_init(&p, env, ks, NULL, NULL, enc, NULL, "cipher only"),
                "cipher init");
            CHECK(fc_pair_init(&p, env, -1, key, NULL, enc, NULL, "key only"),
                  "key init");
            CHECK(fc_pair_init(&p, env, -1, NULL, iv, enc, NULL, "IV only"),
                  "IV init");
            fc_pair_update(&p, 1, aad, sizeof(aad), "AAD");
            fc_pair_update(&p, 0, in, sizeof(in), "data");
            if (!enc)
                fc_pair_set_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, tag, 16,
                                   "tag");
            fc_pair_final(&p, 0, "final (decrypt: a random tag fails)");
            if (enc)
                fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, 16, "tag");

            WHERE("%s %s: IV-only re-init", k_names[ks], enc ? "enc" : "dec");
            fc_pair_init(&p, env, -1, NULL, iv2, enc, NULL, "second IV");
            fc_pair_update(&p, 1, aad, 5, "AAD");
            fc_pair_update(&p, 0, in, 40, "data");
            fc_pair_update(&p, 0, in + 40, 37, "data");
            if (enc) {
                fc_pair_final(&p, 0, "final");
                fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, 16, "tag");
                fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, 7,
                                   "7-byte tag");
            }

            if (enc) {
                WHERE("%s enc: key-only re-init after a final", k_names[ks]);
                /* The IV was spent by final: after a new key, data needs
                 * a new IV in both providers... */
                fc_pair_init(&p, env, -1, key2, NULL, enc, NULL,
                             "new key only");
                CHECK(!fc_pair_update(&p, 0, in, 16, "data, spent IV"),
                      "data accepted with a spent IV");
            } else {
                /* A new key in the middle of a message: fastcrypto starts
                 * the message again from its IV under the new key (by
                 * design); default goes on from a cleared counter, which
                 * means nothing. So fastcrypto is held to a fresh
                 * message under key2 and iv2, as default computes it. */
                EVP_CIPHER_CTX *d = EVP_CIPHER_CTX_new();
                uint8_t o1[77], o2[77];
                int l1 = 0, l2 = 0;

                WHERE("%s dec: key-only re-init mid-message", k_names[ks]);
                CHECK(EVP_CipherInit_ex2(p.c[0], NULL, key2, NULL, 0, NULL) &&
                          EVP_CipherUpdate(p.c[0], o1, &l1, in, 77) && l1 == 77,
                      "data after a mid-message re-key");
                CHECK(d != NULL &&
                          EVP_CipherInit_ex2(d, env->df[ks], key2, iv2, 0,
                                             NULL) &&
                          EVP_CipherUpdate(d, o2, &l2, in, 77) && l2 == 77,
                      "default, fresh message");
                CHECK_MEM(o1, o2, 77, "restarted message");
                EVP_CIPHER_CTX_free(d);
            }
            /* ...and with one, both work under the new key. */
            WHERE("%s %s: new key, new IV", k_names[ks], enc ? "enc" : "dec");
            fc_pair_init(&p, env, -1, key2, iv, enc, NULL, "new key and IV");
            fc_pair_update(&p, 1, aad, sizeof(aad), "AAD");
            fc_pair_update(&p, 0, in, sizeof(in), "data");
            if (enc) {
                fc_pair_final(&p, 0, "final");
                fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, 16, "tag");
            }

            /* TLS 1.3 style: many IV-only inits, one per record. */
            for (int rec = 0; rec < 5; rec++) {
                uint8_t nonce[12];
                memcpy(nonce, iv, 12);
                nonce[11] ^= (uint8_t)rec;
                WHERE("%s %s: record %d", k_names[ks], enc ? "enc" : "dec",
                      rec);
                fc_pair_init(&p, env, -1, NULL, nonce, enc, NULL, "record IV");
                fc_pair_update(&p, 1, aad, 5, "AAD");
                fc_pair_update(&p, 0, in, (size_t)(rec * 17), "data");
                if (enc) {
                    fc_pair_final(&p, 0, "final");
                    fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, 16,
                                       "tag");
                }
            }
            fc_pair_free(&p);
        }
    }
}

/*
 * default, without a copy: a fresh context brought to the point where a
 * copied one stands (init, |alen| bytes of AAD, |dlen| bytes of data).
 * Default's own EVP_CIPHER_CTX_copy is not a reference: the 3.0 releases
 * before autumn 2023 have no GCM dupctx at all (the copy fails), and a copy
 * that shares state with its original is what this test looks for.
 */
static void default_at(EVP_CIPHER_CTX *c, const EVP_CIPHER *ci,
                       const uint8_t *key, const uint8_t *iv, size_t ivlen,
                       int enc, const uint8_t *aad, size_t alen,
                       const uint8_t *data, size_t dlen)
{
    uint8_t scratch[128];
    int l = 0;

    CHECK(dlen <= sizeof(scratch) && gcm_init(c, ci, key, iv, ivlen, enc) &&
              EVP_CipherUpdate(c, NULL, &l, aad, (int)alen) &&
              (dlen == 0 || EVP_CipherUpdate(c, scratch, &l, data, (int)dlen)),
          "default, replayed without a copy");
}

/* EVP_CIPHER_CTX_copy in the middle of a message (partial AAD and data
 * blocks pending, a heap IV with ivlen 100): the copy and the original go
 * on independently, and the copy outlives the original. Each copy is
 * compared with a default context that ran the same message uncopied. */
FC_SUITE_TEST(test_ctx_copy)
{
    fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        for (int enc = 0; enc < 2; enc++) {
            for (int v = 0; v < 2; v++) {
                const size_t ivlen = v ? 100 : 12;
                uint8_t key[32], iv[100], aad[30], a[90], b[90];
                fc_pair p, q;

                fc_test_rand_bytes(key, sizeof(key));
                fc_test_rand_bytes(iv, sizeof(iv));
                fc_test_rand_bytes(aad, sizeof(aad));
                fc_test_rand_bytes(a, sizeof(a));
                fc_test_rand_bytes(b, sizeof(b));
                fc_pair_new(&p);
                fc_pair_new(&q);
                WHERE("%s %s ivlen %zu: copy after AAD", k_names[ks],
                      enc ? "enc" : "dec", ivlen);
                CHECK(gcm_init(p.c[0], env->fc[ks], key, iv, ivlen, enc) &&
                          gcm_init(p.c[1], env->df[ks], key, iv, ivlen, enc),
                      "init");
                fc_pair_update(&p, 1, aad, 19, "AAD");
                CHECK(EVP_CIPHER_CTX_copy(q.c[0], p.c[0]) == 1, "copy failed");
                default_at(q.c[1], env->df[ks], key, iv, ivlen, enc, aad, 19,
                           NULL, 0);
                /* AAD may still grow in the copy. */
                fc_pair_update(&q, 1, aad + 19, 11, "AAD in the copy");
                fc_pair_update(&p, 0, a, 21, "data in the original");
                fc_pair_update(&q, 0, b, 37, "data in the copy");

                WHERE("%s %s ivlen %zu: copy after data", k_names[ks],
                      enc ? "enc" : "dec", ivlen);
                {
                    fc_pair r;
                    fc_pair_new(&r);
                    CHECK(EVP_CIPHER_CTX_copy(r.c[0], p.c[0]) == 1,
                          "copy failed");
                    default_at(r.c[1], env->df[ks], key, iv, ivlen, enc, aad,
                               19, a, 21);
                    fc_pair_update(&p, 0, a + 21, 69, "rest, original");
                    /* Free the original before the copy finishes: a
                     * shared pointer would show under ASan/valgrind. */
                    if (enc) {
                        fc_pair_final(&p, 0, "final, original");
                        fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, 16,
                                           "tag, original");
                    }
                    fc_pair_free(&p);
                    fc_pair_update(&r, 0, b + 21, 69, "rest, second copy");
                    fc_pair_update(&q, 0, b + 37, 53, "rest, first copy");
                    if (enc) {
                        fc_pair_final(&r, 0, "final, second copy");
                        fc_pair_get_octets(&r, OSSL_CIPHER_PARAM_AEAD_TAG, 16,
                                           "tag, second copy");
                        fc_pair_final(&q, 0, "final, first copy");
                        fc_pair_get_octets(&q, OSSL_CIPHER_PARAM_AEAD_TAG, 16,
                                           "tag, first copy");
                    }
                    fc_pair_free(&r);
                }
                fc_pair_free(&q);
            }
        }
    }
}

/* Context parameters against default: lengths, IV reads, tag get/set with
 * every length, and the refusals. */
FC_SUITE_TEST(test_params)
{
    fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        uint8_t key[32], iv[128], buf[2][160], pt[40];
        size_t v[2], n[2];
        int r[2];
        fc_pair p;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(pt, sizeof(pt));
        fc_pair_new(&p);

        WHERE("%s: lengths after init", k_names[ks]);
        fc_pair_init(&p, env, ks, key, iv, 1, NULL, "init");
        for (int i = 0; i < 2; i++) {
            r[i] = fc_test_get_size(p.c[i], OSSL_CIPHER_PARAM_KEYLEN, &v[i]);
            CHECK(r[i] && v[i] == (size_t)k_keylen[ks], "keylen %zu", v[i]);
            r[i] = fc_test_get_size(p.c[i], OSSL_CIPHER_PARAM_IVLEN, &v[i]);
            CHECK(r[i] && v[i] == 12, "ivlen %zu", v[i]);
            r[i] =
                fc_test_get_size(p.c[i], OSSL_CIPHER_PARAM_AEAD_TAGLEN, &v[i]);
            CHECK(r[i], "taglen");
        }
        CHECK(v[0] == v[1], "taglen %zu, default %zu", v[0], v[1]);
        CHECK(EVP_CIPHER_CTX_get_iv_length(p.c[0]) == 12 &&
                  EVP_CIPHER_CTX_get_key_length(p.c[0]) == k_keylen[ks] &&
                  EVP_CIPHER_CTX_get_tag_length(p.c[0]) ==
                      EVP_CIPHER_CTX_get_tag_length(p.c[1]),
              "EVP length accessors");

        /* "iv" and "updated-iv": the IV as set, before and after data and
         * final (GCM never updates it). */
        for (int stage = 0; stage < 3; stage++) {
            static const char *const keys[] = {OSSL_CIPHER_PARAM_IV,
                                               OSSL_CIPHER_PARAM_UPDATED_IV};
            WHERE("%s: iv reads at stage %d", k_names[ks], stage);
            if (stage == 1)
                fc_pair_update(&p, 0, pt, 23, "data");
            if (stage == 2)
                fc_pair_final(&p, 0, "final");
            for (int k = 0; k < 2; k++) {
                for (int i = 0; i < 2; i++) {
                    memset(buf[i], 0, sizeof(buf[i]));
                    r[i] =
                        fc_test_get_octets(p.c[i], keys[k], buf[i], 12, &n[i]);
                    ERR_clear_error();
                }
                CHECK(r[0] == r[1], "get %s: %d, default %d", keys[k], r[0],
                      r[1]);
                if (r[0]) {
                    CHECK(n[0] == n[1], "%s size %zu, default %zu", keys[k],
                          n[0], n[1]);
                    CHECK_MEM(buf[0], buf[1], 12, keys[k]);
                    CHECK_MEM(buf[0], iv, 12, "iv read back");
                }
                /* A buffer too small for the IV: refused by both. */
                for (int i = 0; i < 2; i++) {
                    r[i] =
                        fc_test_get_octets(p.c[i], keys[k], buf[i], 11, &n[i]);
                    ERR_clear_error();
                }
                CHECK(r[0] == r[1], "get %s into 11 bytes: %d, default %d",
                      keys[k], r[0], r[1]);
            }
        }
        /* EVP's own accessors, as applications read the IV. */
        {
            uint8_t a[12], b[12];
            CHECK(EVP_CIPHER_CTX_get_original_iv(p.c[0], a, 12) ==
                          EVP_CIPHER_CTX_get_original_iv(p.c[1], b, 12) &&
                      EVP_CIPHER_CTX_get_updated_iv(p.c[0], a, 12) ==
                          EVP_CIPHER_CTX_get_updated_iv(p.c[1], b, 12),
                  "EVP IV accessors differ");
            ERR_clear_error();
        }

        /* Tag reads after an encrypt final: every length 1..16 equal;
         * 0 and 17 refused by both. */
        WHERE("%s: tag reads", k_names[ks]);
        for (size_t tl = 0; tl <= 17; tl++) {
            char what[40];
            snprintf(what, sizeof(what), "get %zu-byte tag", tl);
            r[0] = fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, tl, what);
            CHECK(r[0] == (tl >= 1 && tl <= 16), "%s returned %d", what, r[0]);
        }
        /* Setting a tag while encrypting is refused. */
        fc_pair_set_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, pt, 16,
                           "set tag when encrypting");

        /* Decrypt side: tags of 1..16 bytes set; 0 and 17 refused; the
         * tag cannot be read. */
        WHERE("%s: tag sets (decrypt)", k_names[ks]);
        fc_pair_init(&p, env, -1, NULL, iv, 0, NULL, "decrypt init");
        for (size_t tl = 0; tl <= 17; tl++) {
            char what[40];
            snprintf(what, sizeof(what), "set %zu-byte tag", tl);
            r[0] = fc_pair_set_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, pt, tl,
                                      what);
            CHECK(r[0] == (tl >= 1 && tl <= 16), "%s returned %d", what, r[0]);
            if (r[0]) {
                for (int i = 0; i < 2; i++)
                    CHECK(fc_test_get_size(
                              p.c[i], OSSL_CIPHER_PARAM_AEAD_TAGLEN, &v[i]),
                          "taglen");
                CHECK(v[0] == v[1] && v[0] == tl, "taglen %zu, default %zu",
                      v[0], v[1]);
            }
        }
        fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, 16,
                           "get tag when decrypting");

        /* "ivlen": 1..128 accepted, 0 refused; a change spends the IV
         * already set. */
        WHERE("%s: ivlen sets", k_names[ks]);
        for (size_t il = 0; il <= 128; il += (il < 20 ? 1 : 27)) {
            for (int i = 0; i < 2; i++) {
                r[i] =
                    fc_test_set_size(p.c[i], OSSL_CIPHER_PARAM_AEAD_IVLEN, il);
                if (i == 0 && !r[0])
                    fc_test_expect_error("ivlen set", 0);
                ERR_clear_error();
                v[i] = 0;
                fc_test_get_size(p.c[i], OSSL_CIPHER_PARAM_IVLEN, &v[i]);
            }
            CHECK(r[0] == r[1], "ivlen %zu: %d, default %d", il, r[0], r[1]);
            CHECK(v[0] == v[1], "ivlen %zu reads %zu, default %zu", il, v[0],
                  v[1]);
            CHECK(r[0] == (il != 0), "ivlen %zu: %d", il, r[0]);
        }
        /* The IV set for 12 bytes is stale now: data is refused until a
         * new IV comes. fastcrypto alone: default only forgets the old IV
         * since 3.0.13; before, it went on with 12 bytes of IV and 4 of
         * whatever followed. */
        fc_pair_init(&p, env, -1, NULL, NULL, 1, NULL, "re-init, no IV");
        fc_test_set_size(p.c[0], OSSL_CIPHER_PARAM_AEAD_IVLEN, 12);
        fc_test_set_size(p.c[1], OSSL_CIPHER_PARAM_AEAD_IVLEN, 12);
        fc_pair_init(&p, env, -1, NULL, iv, 1, NULL, "IV for 12 bytes");
        fc_test_set_size(p.c[0], OSSL_CIPHER_PARAM_AEAD_IVLEN, 16);
        fc_test_set_size(p.c[1], OSSL_CIPHER_PARAM_AEAD_IVLEN, 16);
        {
            uint8_t o[16];
            int l = -7;
            CHECK(EVP_CipherUpdate(p.c[0], o, &l, pt, 16) == 0,
                  "data after an ivlen change accepted");
            fc_test_expect_error("data after an ivlen change", 1);
        }
        fc_pair_init(&p, env, -1, NULL, iv, 1, NULL, "IV for 16 bytes");
        fc_pair_update(&p, 0, pt, 16, "data with the new IV");
        fc_pair_final(&p, 0, "final");
        fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, 16, "tag");

        /* Unknown keys are ignored; libssl's TLS keys are accepted. */
        {
            int ver = 0x0304;
            size_t mac = 0;
            OSSL_PARAM q[4] = {
                OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_TLS_VERSION, &ver),
                OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE,
                                            &mac),
                OSSL_PARAM_construct_size_t("no-such-key", &mac),
                OSSL_PARAM_construct_end()};
            CHECK(EVP_CIPHER_CTX_set_params(p.c[0], q) == 1,
                  "tls-version / tls-mac-size / unknown key refused");
        }
        fc_pair_free(&p);
    }
}

/* "taglen" on both contexts of |p|: equal, and |want|. */
static void pair_taglen(fc_pair *p, size_t want, const char *what)
{
    size_t v[2] = {0, 0};

    for (int i = 0; i < 2; i++)
        CHECK(fc_test_get_size(p->c[i], OSSL_CIPHER_PARAM_AEAD_TAGLEN, &v[i]),
              "%s: taglen (%s)", what, i ? "default" : FC_NAME);
    CHECK(v[0] == v[1] && v[0] == want, "%s: taglen %zu, default %zu, want %zu",
          what, v[0], v[1], want);
}

/*
 * A "tag" set on an encrypting context is refused by default (3.0 and
 * 3.6), with data or without: EVP_CTRL_AEAD_SET_TAG with a NULL buffer,
 * the legacy way to ask for a tag length, included. fastcrypto refuses it
 * the same way and "taglen" reads as default's before and after final,
 * also on a context that set a shorter tag while decrypting.
 */
FC_SUITE_TEST(test_tag_set_encrypting)
{
    fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        uint8_t key[32], iv[12], iv2[12], tag[16], pt[37];
        fc_pair p;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(iv2, sizeof(iv2));
        fc_test_rand_bytes(tag, sizeof(tag));
        fc_test_rand_bytes(pt, sizeof(pt));
        fc_pair_new(&p);
        WHERE("%s: tag sets while encrypting", k_names[ks]);
        fc_pair_init(&p, env, ks, key, iv, 1, NULL, "encrypt init");
        for (int tl = 0; tl <= 17; tl++) {
            int r[2];

            for (int i = 0; i < 2; i++) {
                r[i] = EVP_CIPHER_CTX_ctrl(p.c[i], EVP_CTRL_AEAD_SET_TAG, tl,
                                           NULL);
                if (i == 0 && r[0] <= 0)
                    fc_test_expect_error("SET_TAG without data", 0);
                ERR_clear_error();
            }
            CHECK(r[0] == r[1] && r[0] <= 0,
                  "SET_TAG(%d, NULL) when encrypting: %d, default %d", tl, r[0],
                  r[1]);
            pair_taglen(&p, 16, "after SET_TAG without data");
        }
        CHECK(!fc_pair_set_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, tag, 8,
                                  "8-byte tag when encrypting"),
              "a tag set when encrypting");
        fc_pair_update(&p, 1, pt, 5, "AAD");
        fc_pair_update(&p, 0, pt, sizeof(pt), "data");
        pair_taglen(&p, 16, "before final");
        fc_pair_final(&p, 0, "final");
        pair_taglen(&p, 16, "after final");
        fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, 16, "tag");
        fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, 8, "8-byte tag");

        /* Decrypting with a 7-byte tag, then encrypting on the same
         * context: 7 until the encrypt final, 16 after it. */
        WHERE("%s: taglen after a decryption", k_names[ks]);
        fc_pair_init(&p, env, -1, NULL, iv2, 0, NULL, "decrypt init");
        fc_pair_set_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, tag, 7,
                           "7-byte tag");
        pair_taglen(&p, 7, "decrypting");
        fc_pair_init(&p, env, -1, NULL, iv, 1, NULL, "encrypt init");
        pair_taglen(&p, 7, "encrypting, before final");
        CHECK(EVP_CIPHER_CTX_ctrl(p.c[0], EVP_CTRL_AEAD_SET_TAG, 16, NULL) <= 0,
              "SET_TAG(16, NULL) taken when encrypting");
        fc_test_expect_error("SET_TAG without data", 0);
        pair_taglen(&p, 7, "after a refused SET_TAG");
        fc_pair_update(&p, 0, pt, sizeof(pt), "data");
        fc_pair_final(&p, 0, "final");
        pair_taglen(&p, 16, "encrypt final");
        fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, 16, "tag");
        fc_pair_free(&p);
    }
}

/* Misuse: every call fails cleanly with an error, like default's. */
FC_SUITE_TEST(test_misuse)
{
    fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        uint8_t key[32], iv[12], data[64];
        fc_pair p;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(data, sizeof(data));
        fc_pair_new(&p);

        WHERE("%s: update after final", k_names[ks]);
        fc_pair_init(&p, env, ks, key, iv, 1, NULL, "init");
        fc_pair_update(&p, 0, data, 20, "data");
        fc_pair_final(&p, 0, "final");
        CHECK(!fc_pair_update(&p, 0, data, 20, "update after final"),
              "update after final accepted");
        CHECK(!fc_pair_update(&p, 1, data, 20, "AAD after final"),
              "AAD after final accepted");
        CHECK(!fc_pair_final(&p, 0, "second final"), "second final accepted");

        WHERE("%s: AAD after data", k_names[ks]);
        fc_pair_init(&p, env, -1, NULL, iv, 1, NULL, "IV");
        fc_pair_update(&p, 1, data, 7, "AAD");
        fc_pair_update(&p, 0, data, 9, "data");
        CHECK(!fc_pair_update(&p, 1, data, 7, "AAD after data"),
              "AAD after data accepted");

        WHERE("%s: no key", k_names[ks]);
        fc_pair_init(&p, env, ks, NULL, iv, 1, NULL, "IV, no key");
        CHECK(!fc_pair_update(&p, 0, data, 16, "data without a key"),
              "data without a key accepted");
        CHECK(!fc_pair_final(&p, 0, "final without a key"),
              "final without a key accepted");

        WHERE("%s: decrypt without an IV", k_names[ks]);
        fc_pair_init(&p, env, ks, key, NULL, 0, NULL, "key, no IV");
        CHECK(!fc_pair_update(&p, 0, data, 16, "decrypt without an IV"),
              "decrypt without an IV accepted");

        WHERE("%s: zero-length IV", k_names[ks]);
        fc_pair_init(&p, env, ks, key, NULL, 1, NULL, "key");
        for (int i = 0; i < 2; i++) {
            int r = fc_test_set_size(p.c[i], OSSL_CIPHER_PARAM_AEAD_IVLEN, 0);
            CHECK(r == 0, "ivlen 0 accepted (%s)", i ? "default" : FC_NAME);
            if (i == 0)
                fc_test_expect_error("ivlen 0", 0);
            ERR_clear_error();
        }

        WHERE("%s: tag of a wrong length", k_names[ks]);
        fc_pair_init(&p, env, -1, NULL, iv, 0, NULL, "decrypt");
        CHECK(!fc_pair_set_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, data, 0,
                                  "0-byte tag"),
              "0-byte tag set");
        CHECK(!fc_pair_set_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, data, 17,
                                  "17-byte tag"),
              "17-byte tag set");
        CHECK(!fc_pair_set_octets(&p, OSSL_CIPHER_PARAM_AEAD_TAG, data, 64,
                                  "64-byte tag"),
              "64-byte tag set");
        /* Through the ctrl, as older code does it. */
        {
            int r0 =
                EVP_CIPHER_CTX_ctrl(p.c[0], EVP_CTRL_AEAD_SET_TAG, 17, data);
            int r1 =
                EVP_CIPHER_CTX_ctrl(p.c[1], EVP_CTRL_AEAD_SET_TAG, 17, data);
            CHECK(r0 <= 0 && r1 <= 0, "ctrl SET_TAG 17: %d, default %d", r0,
                  r1);
            ERR_clear_error();
        }

        /* fastcrypto alone: some OpenSSL 3.0.x (3.0.19 among them) pass
         * the -1 to the default provider as SIZE_MAX, and its GCM writes
         * past the buffer, so default is not asked. */
        WHERE("%s: negative length", k_names[ks]);
        fc_pair_init(&p, env, -1, NULL, iv, 1, NULL, "IV");
        {
            int l = 12345;
            int r0 = EVP_CipherUpdate(p.c[0], data, &l, data, -1);
            CHECK(r0 == 0, "inl -1 accepted (%d)", r0);
            ERR_clear_error();
        }

        WHERE("%s: encryption without an IV draws one", k_names[ks]);
        {
            uint8_t ct[40], out[40], tag[16], giv[12];
            size_t n = 0;
            int l = 0, l2 = 0;
            EVP_CIPHER_CTX *c = p.c[0];

            CHECK(EVP_CipherInit_ex2(c, env->fc[ks], key, NULL, 1, NULL) &&
                      EVP_CipherUpdate(c, ct, &l, data, 40) && l == 40 &&
                      EVP_CipherFinal_ex(c, ct + l, &l2) && get_tag(c, tag, 16),
                  "encryption without an IV");
            CHECK(fc_test_get_octets(c, OSSL_CIPHER_PARAM_IV, giv, 12, &n) &&
                      n == 12,
                  "the drawn IV cannot be read");
            /* default decrypts it with that IV */
            CHECK(EVP_CipherInit_ex2(p.c[1], env->df[ks], key, giv, 0, NULL) &&
                      EVP_CipherUpdate(p.c[1], out, &l, ct, 40) &&
                      set_tag(p.c[1], tag, 16) &&
                      EVP_CipherFinal_ex(p.c[1], out + l, &l2),
                  "default cannot decrypt it");
            CHECK_MEM(out, data, 40, "round trip");
            /* A fresh context draws a fresh IV. */
            {
                uint8_t giv2[12];
                CHECK(EVP_CipherInit_ex2(c, env->fc[ks], key, NULL, 1, NULL) &&
                          EVP_CipherUpdate(c, ct, &l, data, 40) &&
                          fc_test_get_octets(c, OSSL_CIPHER_PARAM_IV, giv2, 12,
                                             &n),
                      "second message");
                CHECK(memcmp(giv, giv2, 12) != 0, "the same IV drawn twice");
            }
            ERR_clear_error();
            /* A key-only re-init does not make a spent IV usable again,
             * in either provider. */
            for (int i = 0; i < 2; i++) {
                EVP_CIPHER_CTX *x = p.c[i];
                CHECK(EVP_CipherInit_ex2(x, i ? env->df[ks] : env->fc[ks], key,
                                         NULL, 1, NULL) &&
                          EVP_CipherUpdate(x, ct, &l, data, 40) &&
                          EVP_CipherFinal_ex(x, ct + l, &l2) &&
                          EVP_CipherInit_ex2(x, NULL, key, NULL, 1, NULL),
                      "drawn IV message (%s)", i ? "default" : FC_NAME);
                CHECK(!EVP_CipherUpdate(x, ct, &l, data, 40),
                      "a spent drawn IV was used again (%s)",
                      i ? "default" : FC_NAME);
                if (i == 0)
                    fc_test_expect_error("spent drawn IV", 0);
                ERR_clear_error();
            }
        }
        fc_pair_free(&p);
    }
}

/* EVP_Cipher, the one-shot path (openssl speed's): AAD with out NULL,
 * data, and in NULL to finish; every return value as default's. */
FC_SUITE_TEST(test_evp_cipher)
{
    fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        for (int enc = 0; enc < 2; enc++) {
            uint8_t key[32], iv[12], aad[20], in[100], o[2][100], tag[2][16];
            int r[2][5];
            fc_pair p;

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(iv, sizeof(iv));
            fc_test_rand_bytes(aad, sizeof(aad));
            fc_test_rand_bytes(in, sizeof(in));
            fc_test_rand_bytes(tag[0], 16);
            fc_pair_new(&p);
            WHERE("%s EVP_Cipher %s", k_names[ks], enc ? "enc" : "dec");
            fc_pair_init(&p, env, ks, key, iv, enc, NULL, "init");
            for (int i = 0; i < 2; i++) {
                if (!enc)
                    set_tag(p.c[i], tag[0], 16);
                r[i][0] = EVP_Cipher(p.c[i], NULL, aad, sizeof(aad));
                r[i][1] = EVP_Cipher(p.c[i], o[i], in, 33);
                r[i][2] = EVP_Cipher(p.c[i], o[i] + 33, in + 33, 67);
                r[i][3] = EVP_Cipher(p.c[i], o[i], in, 0);
                r[i][4] = EVP_Cipher(p.c[i], NULL, NULL, 0);
                ERR_clear_error();
                if (enc)
                    CHECK(get_tag(p.c[i], tag[i], 16), "tag");
            }
            for (int j = 0; j < 5; j++)
                CHECK(r[0][j] == r[1][j], "EVP_Cipher call %d: %d, default %d",
                      j, r[0][j], r[1][j]);
            CHECK_MEM(o[0], o[1], sizeof(o[0]), "output");
            if (enc)
                CHECK_MEM(tag[0], tag[1], 16, "tag");
            fc_pair_free(&p);
        }
    }
}

/* ---------------------------------------------------------------------- */
/* TLS 1.2 records, as libssl's tls1_enc makes them                       */

/* tls1_change_cipher_state: key, no IV; the 4-byte salt; version and MAC
 * size. */
static void tls12_setup(EVP_CIPHER_CTX *c, const EVP_CIPHER *ci,
                        const uint8_t *key, const uint8_t salt[4], int enc)
{
    int ver = 0x0303;
    size_t mac = 0;
    OSSL_PARAM p[3];

    fc_test_tls_params(p, &ver, &mac);
    CHECK(EVP_CipherInit_ex(c, ci, NULL, key, NULL, enc), "TLS key init");
    CHECK(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_FIXED, 4, (void *)salt) >
              0,
          "EVP_CTRL_GCM_SET_IV_FIXED");
    CHECK(EVP_CIPHER_CTX_set_params(c, p) == 1, "tls-version/tls-mac-size");
}

/* tls1_enc: the 13-byte AAD with |len| as the record length libssl has at
 * that point, then EVP_CTRL_AEAD_TLS1_AAD (set "tlsaad", get
 * "tlsaadpad"), whose result must be 16. */
static int tls12_aad(EVP_CIPHER_CTX *c, uint64_t seq, size_t len)
{
    uint8_t aad[TLS_AAD_LEN];

    fc_store_be64(aad, seq);
    aad[8] = 23; /* application data */
    aad[9] = 3;
    aad[10] = 3;
    aad[11] = (uint8_t)(len >> 8);
    aad[12] = (uint8_t)len;
    return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, TLS_AAD_LEN, aad);
}

/* Seals |plen| bytes of |payload| into |rec| (8 + plen + 16 bytes) as
 * libssl does: returns outl, or -1 when a call fails. */
static int tls12_seal(EVP_CIPHER_CTX *c, uint64_t seq, const uint8_t *payload,
                      size_t plen, uint8_t *rec)
{
    int pad, outl = -7;

    pad = tls12_aad(c, seq, TLS_EXPLICIT_IV + plen);
    if (pad != TLS_TAG)
        return -2;
    memcpy(rec + TLS_EXPLICIT_IV, payload, plen);
    if (!EVP_CipherUpdate(c, rec, &outl, rec,
                          (int)(TLS_EXPLICIT_IV + plen + TLS_TAG)))
        return -1;
    return outl;
}

/* Opens record |rec| of |len| bytes in place: returns outl or -1. */
static int tls12_open(EVP_CIPHER_CTX *c, uint64_t seq, uint8_t *rec, size_t len)
{
    int outl = -7;

    if (tls12_aad(c, seq, len) != TLS_TAG)
        return -2;
    if (!EVP_CipherUpdate(c, rec, &outl, rec, (int)len))
        return -1;
    return outl;
}

FC_SUITE_TEST(test_tls12)
{
    fc_test_env *env = *state;
    const int nrec = fc_test_quick() ? 6 : 40;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        for (int dir = 0; dir < 2; dir++) {
            /* dir 0: fastcrypto seals, default opens; dir 1: the reverse.
             * Both providers also open their own records. */
            const EVP_CIPHER *sealer = dir ? env->df[ks] : env->fc[ks];
            const EVP_CIPHER *opener = dir ? env->fc[ks] : env->df[ks];
            EVP_CIPHER_CTX *s = EVP_CIPHER_CTX_new(), *o = EVP_CIPHER_CTX_new(),
                           *self = EVP_CIPHER_CTX_new();
            uint8_t key[32], salt[4], prev_iv[8] = {0};

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(salt, sizeof(salt));
            WHERE("%s TLS 1.2 setup, %s seals", k_names[ks],
                  dir ? "default" : FC_NAME);
            tls12_setup(s, sealer, key, salt, 1);
            tls12_setup(o, opener, key, salt, 0);
            tls12_setup(self, sealer, key, salt, 0);

            for (int i = 0; i < nrec; i++) {
                size_t plen = i == 0 ? 0 : i == 1 ? 1 : rnd(i < 8 ? 100 : 2000);
                size_t rlen = TLS_EXPLICIT_IV + plen + TLS_TAG;
                uint8_t *payload = fc_test_xmalloc(plen),
                        *rec = fc_test_xmalloc(rlen),
                        *copy = fc_test_xmalloc(rlen);
                const uint64_t seq = (uint64_t)i + 1000;
                int outl;

                fc_test_rand_bytes(payload, plen);
                WHERE("%s TLS 1.2 record %d (%zu bytes), %s seals", k_names[ks],
                      i, plen, dir ? "default" : FC_NAME);
                outl = tls12_seal(s, seq, payload, plen, rec);
                CHECK(outl == (int)rlen, "seal outl %d, want %zu", outl, rlen);
                /* The explicit IV counts up by one per record. */
                if (i > 0) {
                    uint64_t a = fc_load_be64(prev_iv), b = fc_load_be64(rec);
                    CHECK(b == a + 1, "explicit IV %s after %s",
                          fc_test_hexs(rec, 8), fc_test_hexs(prev_iv, 8));
                }
                memcpy(prev_iv, rec, 8);
                memcpy(copy, rec, rlen);

                outl = tls12_open(o, seq, rec, rlen);
                CHECK(outl == (int)plen, "open outl %d, want %zu", outl, plen);
                CHECK_MEM(rec + TLS_EXPLICIT_IV, payload, plen,
                          "payload after open");
                memcpy(rec, copy, rlen);
                outl = tls12_open(self, seq, rec, rlen);
                CHECK(outl == (int)plen, "self-open outl %d", outl);
                CHECK_MEM(rec + TLS_EXPLICIT_IV, payload, plen,
                          "payload after self-open");

                /* Tampering: a flipped bit in the explicit IV, payload or
                 * tag, or the wrong sequence number, is refused by
                 * fastcrypto (whichever side it plays here). */
                if (i % 3 == 0) {
                    EVP_CIPHER_CTX *fo = dir ? o : self;
                    for (int t = 0; t < 4; t++) {
                        size_t at = t == 0   ? rnd(8)
                                    : t == 1 ? (plen ? 8 + rnd(plen) : 8 + plen)
                                             : 8 + plen + rnd(16);
                        uint64_t sq = seq;
                        memcpy(rec, copy, rlen);
                        if (t == 3)
                            sq ^= 1;
                        else
                            rec[at] ^= (uint8_t)(1u << rnd(8));
                        outl = tls12_open(fo, sq, rec, rlen);
                        CHECK(outl == -1, "tampered record (%d) opened: %d", t,
                              outl);
                        fc_test_expect_error("tampered record", 0);
                        /* Nothing of the forged payload is left. */
                        for (size_t j = 0; j < plen; j++)
                            CHECK(rec[8 + j] == 0,
                                  "payload byte %zu left "
                                  "after a failed open",
                                  j);
                    }
                }
                free(payload);
                free(rec);
                free(copy);
            }

            /* Records shorter than explicit IV + tag are refused. */
            WHERE("%s TLS 1.2 short record", k_names[ks]);
            {
                uint8_t rec[23] = {0};
                EVP_CIPHER_CTX *fo = dir ? o : self;
                int outl = tls12_open(fo, 7, rec, sizeof(rec));
                CHECK(outl < 0, "a 23-byte record opened (%d)", outl);
                ERR_clear_error();
            }
            EVP_CIPHER_CTX_free(s);
            EVP_CIPHER_CTX_free(o);
            EVP_CIPHER_CTX_free(self);
        }
    }
}

/* The same record sealed by both providers with the same explicit IV
 * (fixed with "tlsivfixed" of length -1, as a test can): byte for byte. */
FC_SUITE_TEST(test_tls12_same_iv)
{
    fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        uint8_t key[32], iv[12], payload[300], rec[2][8 + 300 + 16];
        EVP_CIPHER_CTX *c[2] = {EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_new()};

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(payload, sizeof(payload));
        for (int i = 0; i < 2; i++) {
            tls12_setup(c[i], i ? env->df[ks] : env->fc[ks], key, iv, 1);
            CHECK(EVP_CIPHER_CTX_ctrl(c[i], EVP_CTRL_GCM_SET_IV_FIXED, -1, iv) >
                      0,
                  "restore the whole IV");
        }
        for (int r = 0; r < 4; r++) {
            size_t plen = (size_t)r * 97;
            WHERE("%s TLS 1.2 record %d, same IV", k_names[ks], r);
            for (int i = 0; i < 2; i++)
                CHECK(tls12_seal(c[i], (uint64_t)r, payload, plen, rec[i]) ==
                          (int)(plen + 24),
                      "seal (%s)", i ? "default" : FC_NAME);
            CHECK_MEM(rec[0], rec[1], plen + 24, "sealed record");
        }
        EVP_CIPHER_CTX_free(c[0]);
        EVP_CIPHER_CTX_free(c[1]);
    }
}

/*
 * TLS 1.2 contexts copied and re-keyed between records, both providers
 * from the same whole IV ("tlsivfixed" of length -1): a copy made with
 * "tlsaad" armed seals the armed record as its source would, both go on
 * counting from there, and a key-only re-init (same key, then a new one)
 * keeps the generator and the receiver's fixed field. Every record equals
 * default's, and each is opened by both receivers.
 */
FC_SUITE_TEST(test_tls12_copy_reinit)
{
    fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        uint8_t key[32], key2[32], iv[12], payload[100],
            rec[2][8 + sizeof(payload) + 16], back[sizeof(rec[0])];
        EVP_CIPHER_CTX *e[2], *d[2], *ec[2], *dc[2];
        uint64_t seq = 0;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(key2, sizeof(key2));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(payload, sizeof(payload));
        for (int s = 0; s < 2; s++) {
            const EVP_CIPHER *c = s ? env->df[ks] : env->fc[ks];

            e[s] = EVP_CIPHER_CTX_new();
            d[s] = EVP_CIPHER_CTX_new();
            ec[s] = EVP_CIPHER_CTX_new();
            dc[s] = EVP_CIPHER_CTX_new();
            WHERE("%s TLS 1.2 setup (%s)", k_names[ks],
                  s ? "default" : FC_NAME);
            tls12_setup(e[s], c, key, iv, 1);
            tls12_setup(d[s], c, key, iv, 0);
            CHECK(set_iv_fixed(e[s], -1, iv), "whole IV");
        }
        /* One record through |snd|, equal in both providers, opened by
         * both receivers |rcv|. */
#define RECORD(snd, rcv, what)                                                 \
    do {                                                                       \
        const size_t plen_ = (size_t)(seq * 13 % sizeof(payload));             \
        const size_t rlen_ = 8 + plen_ + 16;                                   \
        WHERE("%s TLS 1.2 record %llu: %s", k_names[ks],                       \
              (unsigned long long)seq, what);                                  \
        for (int s_ = 0; s_ < 2; s_++)                                         \
            CHECK(tls12_seal(snd[s_], seq, payload, plen_, rec[s_]) ==         \
                      (int)rlen_,                                              \
                  "seal (%s)", s_ ? "default" : FC_NAME);                      \
        CHECK_MEM(rec[0], rec[1], rlen_, "record");                            \
        CHECK(fc_load_be64(rec[0]) == fc_load_be64(iv + 4) + seq,              \
              "explicit IV %s", fc_test_hexs(rec[0], 8));                      \
        for (int s_ = 0; s_ < 2; s_++) {                                       \
            memcpy(back, rec[0], rlen_);                                       \
            CHECK(tls12_open(rcv[s_], seq, back, rlen_) == (int)plen_ &&       \
                      memcmp(back + 8, payload, plen_) == 0,                   \
                  "open (%s)", s_ ? "default" : FC_NAME);                      \
        }                                                                      \
        seq++;                                                                 \
    } while (0)

        RECORD(e, d, "first");
        /* Copies made with the next record armed on both sides. */
        for (int s = 0; s < 2; s++) {
            CHECK(tls12_aad(e[s], seq, 8 + (size_t)(seq * 13 % 100)) == 16,
                  "arm");
            CHECK(EVP_CIPHER_CTX_copy(ec[s], e[s]) == 1 &&
                      EVP_CIPHER_CTX_copy(dc[s], d[s]) == 1,
                  "copy (%s)", s ? "default" : FC_NAME);
        }
        {
            /* The copy finishes the armed record by one in-place update,
             * as its source would have; the source is then disarmed by
             * sealing the same record (it holds the same IV). */
            const size_t plen = (size_t)(seq * 13 % sizeof(payload));
            int outl[2];

            WHERE("%s TLS 1.2: armed record in the copy", k_names[ks]);
            for (int s = 0; s < 2; s++) {
                memcpy(rec[s] + 8, payload, plen);
                CHECK(EVP_CipherUpdate(ec[s], rec[s], &outl[s], rec[s],
                                       (int)(8 + plen + 16)) &&
                          outl[s] == (int)(8 + plen + 16),
                      "copy seals (%s)", s ? "default" : FC_NAME);
                memcpy(back + 8, payload, plen);
                CHECK(EVP_CipherUpdate(e[s], back, &outl[s], back,
                                       (int)(8 + plen + 16)),
                      "source seals (%s)", s ? "default" : FC_NAME);
                CHECK_MEM(back, rec[s], 8 + plen + 16,
                          "source and copy, same record");
            }
            CHECK_MEM(rec[0], rec[1], 8 + plen + 16, "record from the copy");
            for (int s = 0; s < 2; s++) {
                memcpy(back, rec[0], 8 + plen + 16);
                CHECK(tls12_open(dc[s], seq, back, 8 + plen + 16) == (int)plen,
                      "copied receiver opens (%s)", s ? "default" : FC_NAME);
            }
            seq++;
        }
        {
            /* Source and copy generate alike from here: the sources
             * seal the copies' next record again, byte for byte. */
            const uint64_t at = seq;

            RECORD(ec, dc, "copies go on");
            seq = at;
            RECORD(e, d, "sources go on, as the copies did");
        }

        /* Key-only re-init with the same key, then a new key, on every
         * context: generator and fixed field stay. */
        for (int k = 0; k < 2; k++) {
            for (int s = 0; s < 2; s++)
                CHECK(EVP_CipherInit_ex(e[s], NULL, NULL, k ? key2 : key, NULL,
                                        1) &&
                          EVP_CipherInit_ex(d[s], NULL, NULL, k ? key2 : key,
                                            NULL, 0),
                      "key-only re-init (%s)", s ? "default" : FC_NAME);
            RECORD(e, d, k ? "after a new key" : "after the same key");
        }
#undef RECORD
        for (int s = 0; s < 2; s++) {
            EVP_CIPHER_CTX_free(e[s]);
            EVP_CIPHER_CTX_free(d[s]);
            EVP_CIPHER_CTX_free(ec[s]);
            EVP_CIPHER_CTX_free(dc[s]);
        }
    }
}

/* The public IV-generation ctrls (EVP_CTRL_GCM_IV_GEN, "tlsivgen";
 * EVP_CTRL_GCM_SET_IV_INV, "tlsivinv") outside libssl's record mode,
 * from a whole IV restored with "tlsivfixed" of length -1: the generated
 * invocation fields, the ciphertexts and tags equal default's, and the
 * receiving side takes the fields through SET_IV_INV. */
FC_SUITE_TEST(test_tls_ivgen)
{
    fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        uint8_t key[32], iv[12], aad[13], pt[70], ct[2][70], inv[2][8],
            tag[2][16], out[70];
        EVP_CIPHER_CTX *e[2] = {EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_new()};
        EVP_CIPHER_CTX *d[2] = {EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_new()};

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(aad, sizeof(aad));
        fc_test_rand_bytes(pt, sizeof(pt));
        iv[11] = 0xfe; /* the invocation field carries within 3 messages */
        for (int i = 0; i < 2; i++) {
            const EVP_CIPHER *c = i ? env->df[ks] : env->fc[ks];
            WHERE("%s IV generation setup (%s)", k_names[ks],
                  i ? "default" : FC_NAME);
            CHECK(EVP_CipherInit_ex(e[i], c, NULL, key, NULL, 1) &&
                      EVP_CIPHER_CTX_ctrl(e[i], EVP_CTRL_GCM_SET_IV_FIXED, -1,
                                          iv) > 0,
                  "encrypt side");
            CHECK(EVP_CipherInit_ex(d[i], c, NULL, key, NULL, 0) &&
                      EVP_CIPHER_CTX_ctrl(d[i], EVP_CTRL_GCM_SET_IV_FIXED, -1,
                                          iv) > 0,
                  "decrypt side");
        }
        for (int m = 0; m < 4; m++) {
            const size_t len = (size_t)m * 23;
            int l = 0, l2 = 0;

            WHERE("%s generated IV, message %d", k_names[ks], m);
            for (int i = 0; i < 2; i++) {
                CHECK(EVP_CIPHER_CTX_ctrl(e[i], EVP_CTRL_GCM_IV_GEN, 8,
                                          inv[i]) > 0,
                      "IV_GEN (%s)", i ? "default" : FC_NAME);
                CHECK(EVP_CipherUpdate(e[i], NULL, &l, aad, sizeof(aad)) &&
                          EVP_CipherUpdate(e[i], ct[i], &l, pt, (int)len) &&
                          EVP_CipherFinal_ex(e[i], ct[i] + l, &l2) &&
                          get_tag(e[i], tag[i], 16),
                      "message (%s)", i ? "default" : FC_NAME);
            }
            CHECK_MEM(inv[0], inv[1], 8, "generated invocation field");
            CHECK(fc_load_be64(inv[0]) == fc_load_be64(iv + 4) + (uint64_t)m,
                  "invocation field %s", fc_test_hexs(inv[0], 8));
            CHECK_MEM(ct[0], ct[1], len, "ciphertext");
            CHECK_MEM(tag[0], tag[1], 16, "tag");
            /* Each receiver opens the other's message. */
            for (int i = 0; i < 2; i++) {
                CHECK(
                    EVP_CIPHER_CTX_ctrl(d[i], EVP_CTRL_GCM_SET_IV_INV, 8,
                                        inv[1 - i]) > 0 &&
                        EVP_CipherUpdate(d[i], NULL, &l, aad, sizeof(aad)) &&
                        EVP_CipherUpdate(d[i], out, &l, ct[1 - i], (int)len) &&
                        set_tag(d[i], tag[1 - i], 16) &&
                        EVP_CipherFinal_ex(d[i], out + l, &l2),
                    "open (%s)", i ? "default" : FC_NAME);
                CHECK_MEM(out, pt, len, "opened message");
            }
        }
        for (int i = 0; i < 2; i++) {
            EVP_CIPHER_CTX_free(e[i]);
            EVP_CIPHER_CTX_free(d[i]);
        }
    }
}

/*
 * IV generation needs a fixed field of at least 4 bytes and an 8-byte
 * invocation field, counted in the IV's last 8 bytes (SP 800-38D 8.2.1;
 * default's "tlsivfixed" with a length checks exactly that). Default does
 * not check the whole-IV form (length -1, how OpenSSH restores an IV) nor
 * an "ivlen" change made while generation is on: with an IV under 8 bytes
 * its generator then increments bytes in front of the IV. It is asked
 * only where it stays inside its buffers; fastcrypto must refuse whenever
 * the two fields do not fit, and match default everywhere else.
 */
FC_SUITE_TEST(test_ivgen_iv_length)
{
    fc_test_env *env = *state;
    static const size_t short_ivs[] = {1, 4, 7, 8, 11};
    static const size_t ok_ivs[] = {12, 13, 16, 40, 100};

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        for (int enc = 0; enc < 2; enc++) {
            const char *dir = enc ? "enc" : "dec";
            uint8_t key[32], iv[128], g[2][128], pt[40], ct[2][40], tag[2][16];

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(iv, sizeof(iv));
            fc_test_rand_bytes(pt, sizeof(pt));

            /* The whole-IV form with an IV too short for both fields:
             * refused (fastcrypto alone: default takes it), and the
             * context does not generate. */
            for (size_t i = 0; i < FC_ARRAY_LEN(short_ivs); i++) {
                const size_t il = short_ivs[i];
                EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

                WHERE("%s %s: \"tlsivfixed\" of the whole %zu-byte IV",
                      k_names[ks], dir, il);
                CHECK(c != NULL && gcm_init(c, env->fc[ks], key, NULL, il, enc),
                      "init");
                CHECK(!set_iv_fixed(c, -1, iv),
                      "a %zu-byte IV taken for IV generation", il);
                fc_test_expect_reason("tlsivfixed -1", "invalid IV length");
                CHECK(!iv_gen(c, g[0], 0), "an IV generated from %zu bytes",
                      il);
                fc_test_expect_error("tlsivgen after a refused tlsivfixed", 0);
                if (!enc) {
                    CHECK(!set_iv_inv(c, iv, 8),
                          "an invocation field set in a %zu-byte IV", il);
                    fc_test_expect_error("tlsivinv after a refused tlsivfixed",
                                         0);
                }
                EVP_CIPHER_CTX_free(c);
            }

            /* The fixed-field form: refused by both for every length when
             * the IV cannot hold 4 + 8 bytes; default is asked for
             * lengths up to the IV's (past it, it reads or writes past its
             * buffers), fastcrypto alone beyond. */
            for (size_t i = 0; i < FC_ARRAY_LEN(short_ivs); i++) {
                const size_t il = short_ivs[i];

                for (size_t fl = 0; fl <= il + 4; fl++) {
                    EVP_CIPHER_CTX *c[2] = {EVP_CIPHER_CTX_new(),
                                            EVP_CIPHER_CTX_new()};
                    const int both = fl <= il;

                    WHERE("%s %s: %zu-byte \"tlsivfixed\", ivlen %zu",
                          k_names[ks], dir, fl, il);
                    for (int s = 0; s < 1 + both; s++) {
                        CHECK(c[s] != NULL &&
                                  gcm_init(c[s], s ? env->df[ks] : env->fc[ks],
                                           key, NULL, il, enc),
                              "init");
                        CHECK(!set_iv_fixed(c[s], (int)fl, iv),
                              "%s took it (%s)", s ? "default" : FC_NAME,
                              "no room for the two fields");
                        if (s == 0)
                            fc_test_expect_reason("tlsivfixed",
                                                  "invalid IV length");
                        ERR_clear_error();
                    }
                    EVP_CIPHER_CTX_free(c[0]);
                    EVP_CIPHER_CTX_free(c[1]);
                }
            }

            /* IVs with room: the whole-IV form generates what default
             * generates, the invocation field counting up in the last 8
             * bytes. */
            for (size_t i = 0; i < FC_ARRAY_LEN(ok_ivs); i++) {
                const size_t il = ok_ivs[i];
                EVP_CIPHER_CTX *c[2] = {EVP_CIPHER_CTX_new(),
                                        EVP_CIPHER_CTX_new()};

                for (int s = 0; s < 2; s++) {
                    WHERE("%s %s: whole %zu-byte IV (%s)", k_names[ks], dir, il,
                          s ? "default" : FC_NAME);
                    CHECK(c[s] != NULL &&
                              gcm_init(c[s], s ? env->df[ks] : env->fc[ks], key,
                                       NULL, il, enc) &&
                              set_iv_fixed(c[s], -1, iv),
                          "whole-IV tlsivfixed refused");
                }
                for (int m = 0; m < 3; m++) {
                    WHERE("%s %s: whole %zu-byte IV, IV %d", k_names[ks], dir,
                          il, m);
                    for (int s = 0; s < 2; s++)
                        CHECK(iv_gen(c[s], g[s], 0), "tlsivgen (%s)",
                              s ? "default" : FC_NAME);
                    CHECK_MEM(g[0], g[1], il, "generated IV");
                    CHECK(memcmp(g[0], iv, il - 8) == 0 &&
                              fc_load_be64(g[0] + il - 8) ==
                                  fc_load_be64(iv + il - 8) + (uint64_t)m,
                          "generated IV %s", fc_test_hexs(g[0], il));
                }
                EVP_CIPHER_CTX_free(c[0]);
                EVP_CIPHER_CTX_free(c[1]);
            }

            /* "ivlen" changes while generation is on (whole 12-byte IV
             * restored): too short for the two fields, refused by
             * fastcrypto, the IV length and the generator unchanged
             * (default takes the change and is not asked); with room,
             * taken by both, and the next IV, message and tag equal. */
            for (size_t i = 0;
                 i < FC_ARRAY_LEN(short_ivs) + FC_ARRAY_LEN(ok_ivs); i++) {
                const int is_short = i < FC_ARRAY_LEN(short_ivs);
                const size_t il = is_short
                                      ? short_ivs[i]
                                      : ok_ivs[i - FC_ARRAY_LEN(short_ivs)];
                const size_t now = is_short ? 12 : il;
                EVP_CIPHER_CTX *c[2] = {EVP_CIPHER_CTX_new(),
                                        EVP_CIPHER_CTX_new()};
                size_t v;
                int l = 0, l2 = 0;

                WHERE("%s %s: ivlen %zu during IV generation", k_names[ks], dir,
                      il);
                for (int s = 0; s < 2; s++) {
                    CHECK(c[s] != NULL &&
                              gcm_init(c[s], s ? env->df[ks] : env->fc[ks], key,
                                       NULL, 12, enc) &&
                              set_iv_fixed(c[s], -1, iv),
                          "setup (%s)", s ? "default" : FC_NAME);
                    if (s == 1 && is_short)
                        continue;
                    if (is_short) {
                        CHECK(!fc_test_set_size(
                                  c[s], OSSL_CIPHER_PARAM_AEAD_IVLEN, il),
                              "ivlen %zu taken with IV generation on", il);
                        fc_test_expect_reason("ivlen", "invalid IV length");
                    } else {
                        CHECK(fc_test_set_size(
                                  c[s], OSSL_CIPHER_PARAM_AEAD_IVLEN, il),
                              "ivlen %zu refused (%s)", il,
                              s ? "default" : FC_NAME);
                    }
                    v = 0;
                    CHECK(fc_test_get_size(c[s], OSSL_CIPHER_PARAM_IVLEN, &v) &&
                              v == now,
                          "ivlen reads %zu, want %zu (%s)", v, now,
                          s ? "default" : FC_NAME);
                }
                for (int s = 0; s < 2; s++) {
                    CHECK(iv_gen(c[s], g[s], 0), "tlsivgen (%s)",
                          s ? "default" : FC_NAME);
                    if (enc)
                        CHECK(EVP_CipherUpdate(c[s], NULL, &l, pt, 13) &&
                                  EVP_CipherUpdate(c[s], ct[s], &l, pt,
                                                   sizeof(pt)) &&
                                  EVP_CipherFinal_ex(c[s], ct[s] + l, &l2) &&
                                  get_tag(c[s], tag[s], 16),
                              "message (%s)", s ? "default" : FC_NAME);
                }
                CHECK_MEM(g[0], g[1], now, "generated IV");
                if (enc) {
                    CHECK_MEM(ct[0], ct[1], sizeof(pt), "ciphertext");
                    CHECK_MEM(tag[0], tag[1], 16, "tag");
                } else {
                    /* The receiver takes the record's invocation field. */
                    for (int s = 0; s < 2; s++)
                        CHECK(set_iv_inv(c[s], g[0] + now - 8, 8),
                              "tlsivinv (%s)", s ? "default" : FC_NAME);
                }
                EVP_CIPHER_CTX_free(c[0]);
                EVP_CIPHER_CTX_free(c[1]);
            }

            /* An invocation field longer than the IV: refused
             * (fastcrypto alone: default copies it in front of its IV). */
            if (!enc) {
                EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

                WHERE("%s dec: 13-byte \"tlsivinv\" in a 12-byte IV",
                      k_names[ks]);
                CHECK(c != NULL && gcm_init(c, env->fc[ks], key, NULL, 12, 0) &&
                          set_iv_fixed(c, -1, iv),
                      "setup");
                CHECK(!set_iv_inv(c, iv, 13), "13-byte tlsivinv taken");
                fc_test_expect_error("13-byte tlsivinv", 0);
                CHECK(set_iv_inv(c, iv, 12), "12-byte tlsivinv refused");
                EVP_CIPHER_CTX_free(c);
            }
        }
    }
}

/*
 * Successful calls leave the error queue empty (evp_checks.h,
 * fc_check_quiet; OpenSSL 3.2+ queues an error from an OSSL_PARAM setter
 * given the wrong type). Every get and set EVP, libssl and the TLS ctrls
 * make, in both directions, on fastcrypto alone.
 */
FC_SUITE_TEST(test_quiet_success)
{
    fc_test_env *env = *state;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        uint8_t key[32], iv[12], buf[16], tag[16], rec[2][8 + 40 + 16];
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new(), *d = EVP_CIPHER_CTX_new();
        size_t v = 0;
        int l = 0, ver = 0x0303;
        size_t ms = 0;
        OSSL_PARAM tp[3];

        fc_test_tls_params(tp, &ver, &ms);

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(rec, sizeof(rec));
        WHERE("%s: successful calls", k_names[ks]);
        ERR_clear_error();
        QUIET(c != NULL && d != NULL &&
                  gcm_init(c, env->fc[ks], key, iv, 12, 1),
              "init with ivlen");
        fc_test_quiet_iv_gets(c, 12);
        QUIET(fc_test_get_size(c, OSSL_CIPHER_PARAM_AEAD_TAGLEN, &v),
              "get taglen");
        QUIET(EVP_CIPHER_CTX_get_iv_length(c) == 12 &&
                  EVP_CIPHER_CTX_get_key_length(c) == k_keylen[ks] &&
                  EVP_CIPHER_CTX_get_tag_length(c) == 16,
              "EVP length accessors");
        QUIET(EVP_CipherUpdate(c, NULL, &l, rec[0], 13), "AAD");
        QUIET(EVP_CipherUpdate(c, rec[1], &l, rec[0], 40), "data");
        QUIET(EVP_CipherFinal_ex(c, rec[1] + l, &l), "final");
        QUIET(get_tag(c, tag, 16), "get tag");
        QUIET(EVP_CipherInit_ex2(d, env->fc[ks], key, iv, 0, NULL), "dec init");
        QUIET(EVP_CipherUpdate(d, NULL, &l, rec[0], 13), "dec AAD");
        QUIET(EVP_CipherUpdate(d, rec[0], &l, rec[1], 40), "dec data");
        QUIET(set_tag(d, tag, 16), "set tag");
        QUIET(EVP_CipherFinal_ex(d, buf, &l), "dec final");

        /* TLS 1.2 as libssl drives it, then the IV-generation ctrls. */
        QUIET(EVP_CipherInit_ex(c, env->fc[ks], NULL, key, NULL, 1) &&
                  set_iv_fixed(c, 4, iv) && EVP_CIPHER_CTX_set_params(c, tp),
              "TLS setup (encrypt)");
        QUIET(EVP_CipherInit_ex(d, env->fc[ks], NULL, key, NULL, 0) &&
                  set_iv_fixed(d, 4, iv) && EVP_CIPHER_CTX_set_params(d, tp),
              "TLS setup (decrypt)");
        QUIET(tls12_seal(c, 1, rec[0] + 8, 40, rec[1]) == 64, "TLS seal");
        QUIET(tls12_open(d, 1, rec[1], 64) == 40, "TLS open");
        QUIET(EVP_CIPHER_CTX_get_updated_iv(c, buf, 12),
              "get \"updated-iv\" in TLS mode");
        QUIET(iv_gen(c, buf, 8), "tlsivgen");
        QUIET(set_iv_inv(d, buf, 8), "tlsivinv");
        EVP_CIPHER_CTX_free(c);
        EVP_CIPHER_CTX_free(d);
    }
}

/* ---------------------------------------------------------------------- */
/* TLS 1.3 records, as libssl's tls13_enc makes them                      */

static void tls13_setup(EVP_CIPHER_CTX *c, const EVP_CIPHER *ci,
                        const uint8_t *key, int enc)
{
    CHECK(EVP_CipherInit_ex(c, ci, NULL, NULL, NULL, enc), "cipher init");
    CHECK(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) > 0,
          "ivlen 12");
    CHECK(EVP_CipherInit_ex(c, NULL, NULL, key, NULL, -1), "key init");
}

/* One record as tls13_enc does it; returns 1 on success. |rec| holds the
 * ciphertext and tag (enc: written; dec: read), |data| the plaintext. */
static int tls13_record(EVP_CIPHER_CTX *c, const uint8_t siv[12], uint64_t seq,
                        int enc, uint8_t *data, size_t len, uint8_t *rec)
{
    uint8_t nonce[12], hdr[5] = {23, 3, 3, 0, 0};
    int l1 = -7, l2 = -7, ivl;
    size_t total = len + 16;

    memcpy(nonce, siv, 12);
    for (int i = 0; i < 8; i++)
        nonce[4 + i] ^= (uint8_t)(seq >> (56 - 8 * i));
    hdr[3] = (uint8_t)(total >> 8);
    hdr[4] = (uint8_t)total;
    ivl = EVP_CIPHER_CTX_get_iv_length(c);
    CHECK(ivl == 12, "iv length %d", ivl);
    if (!EVP_CipherInit_ex(c, NULL, NULL, NULL, nonce, enc))
        return 0;
    if (!enc &&
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, rec + len) <= 0)
        return 0;
    if (!EVP_CipherUpdate(c, NULL, &l1, hdr, 5))
        return 0;
    if (enc) {
        if (!EVP_CipherUpdate(c, rec, &l1, data, (int)len))
            return 0;
    } else if (!EVP_CipherUpdate(c, data, &l1, rec, (int)len)) {
        return 0;
    }
    if (!EVP_CipherFinal_ex(c, (enc ? rec : data) + l1, &l2))
        return 0;
    CHECK((size_t)(l1 + l2) == len && l2 == 0, "lenu %d + lenf %d != %zu", l1,
          l2, len);
    if (enc &&
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, rec + len) <= 0)
        return 0;
    return 1;
}

FC_SUITE_TEST(test_tls13)
{
    fc_test_env *env = *state;
    const int nrec = fc_test_quick() ? 6 : 30;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        EVP_CIPHER_CTX *fe = EVP_CIPHER_CTX_new(), *de = EVP_CIPHER_CTX_new(),
                       *fd = EVP_CIPHER_CTX_new(), *dd = EVP_CIPHER_CTX_new();
        uint8_t key[32], siv[12];

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(siv, sizeof(siv));
        WHERE("%s TLS 1.3 setup", k_names[ks]);
        tls13_setup(fe, env->fc[ks], key, 1);
        tls13_setup(de, env->df[ks], key, 1);
        tls13_setup(fd, env->fc[ks], key, 0);
        tls13_setup(dd, env->df[ks], key, 0);
        for (int i = 0; i < nrec; i++) {
            size_t len = i == 0 ? 0 : rnd(i < 10 ? 64 : 3000);
            uint8_t *pt = fc_test_xmalloc(len), *r1 = fc_test_xmalloc(len + 16),
                    *r2 = fc_test_xmalloc(len + 16),
                    *back = fc_test_xmalloc(len);
            const uint64_t seq = (uint64_t)i;

            fc_test_rand_bytes(pt, len);
            WHERE("%s TLS 1.3 record %d (%zu bytes)", k_names[ks], i, len);
            CHECK(tls13_record(fe, siv, seq, 1, pt, len, r1), "seal");
            CHECK(tls13_record(de, siv, seq, 1, pt, len, r2), "default seal");
            CHECK_MEM(r1, r2, len + 16, "record (ciphertext and tag)");
            CHECK(tls13_record(fd, siv, seq, 0, back, len, r2) &&
                      memcmp(back, pt, len) == 0,
                  "fastcrypto cannot open its record");
            CHECK(tls13_record(dd, siv, seq, 0, back, len, r1) &&
                      memcmp(back, pt, len) == 0,
                  "default cannot open fastcrypto's record");
            /* A flipped tag bit: refused by fastcrypto's final. */
            r1[len + rnd(16)] ^= 0x01;
            CHECK(!tls13_record(fd, siv, seq, 0, back, len, r1),
                  "a forged record opened");
            fc_test_expect_error("forged TLS 1.3 record", 0);
            free(pt);
            free(r1);
            free(r2);
            free(back);
        }
        EVP_CIPHER_CTX_free(fe);
        EVP_CIPHER_CTX_free(de);
        EVP_CIPHER_CTX_free(fd);
        EVP_CIPHER_CTX_free(dd);
    }
}

/* ---------------------------------------------------------------------- */

int main(void)
{
    return fc_suite_run(&fc_test_family_gcm) != 0;
}
