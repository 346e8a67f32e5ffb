/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_provider_ctr.c - fastcrypto's AES-CTR ciphers driven through EVP and
 * compared, call by call, with OpenSSL's default provider: every return
 * value, every outl, every output byte, "num" and the counter ("updated-
 * iv") must match. The behaviour held to, and the deliberate differences,
 * are the spec atop provider/cipher_aes_ctr.c.
 *
 * The tests run in every group of support/provider_test.h (one library
 * context per CPU mask: the best AES kernel, the AES-NI tier, the portable
 * C code); the family and the tests every family runs (identity, key
 * length policy, parameter decoding) are in support/cipher_suite.h.
 *
 * Counters: every stream starts from a random IV or from one a few blocks
 * before a wrap of the counter's low 32 bits (where the kernels' inc32
 * stops and fc_aes_ctr128 carries), of its low 64 bits, or of all 128
 * (back to zero), so that each wrap falls inside messages, at their
 * edges and inside partial blocks.
 *
 * Environment: FC_TEST_CONF (required; ctest sets it), FC_TEST_SEED
 * (replays a run), FC_TEST_QUICK=1 (fewer lengths, for valgrind).
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

#include "fc/common.h"
#include "cipher_suite.h"
#include "provider_test.h"

#define NKS     3
#define MAX_LEN 1000

#define names(ks) (fc_test_family_ctr.names[ks])

/* ---------------------------------------------------------------------- */
/* Counters                                                               */

/*
 * A counter block for a message of |len| bytes: random, or d blocks
 * (0 <= d <= blocks + 1) before the wrap of its low 32 bits, its low 64
 * bits or all 128 bits (kind 0..3).
 */
static void ctr_iv(uint8_t iv[16], size_t len, int kind)
{
    const uint64_t d = fc_test_rand_below(len / 16 + 3);

    fc_test_rand_bytes(iv, 16);
    if (kind == 1)
        fc_store_be32(iv + 12, 0u - (uint32_t)d);
    if (kind >= 2)
        fc_store_be64(iv + 8, 0 - d);
    if (kind == 3)
        fc_store_be64(iv, d == 0 ? 0 : UINT64_MAX);
}

/* ---------------------------------------------------------------------- */
/* Tests                                                                  */

/* The main differential test: every length 0..1000 with random split
 * points (empty updates, byte by byte), counters near every wrap, out of
 * place and both in-place layouts, misaligned buffers, both directions. */
FC_SUITE_TEST(test_diff_streaming)
{
    fc_test_env *env = *state;
    uint8_t key[32], iv[16], *in = fc_test_xmalloc(MAX_LEN);
    fc_stream_spec s;
    size_t count = 0;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++)
        for (size_t len = 0; len <= MAX_LEN; len++) {
            if (fc_test_quick() && !(len <= 40 || len % 16 <= 1 ||
                                     len % 16 == 15 || len % 97 == 0))
                continue;
            fc_test_rand_bytes(key, sizeof(key));
            ctr_iv(iv, len, (int)(len % 4));
            fc_test_rand_bytes(in, len);
            for (int layout = 0; layout < FC_STREAM_LAYOUTS; layout++) {
                memset(&s, 0, sizeof(s));
                s.ks = ks;
                s.enc = (int)fc_test_rand_below(2);
                s.pad = (int)fc_test_rand_below(2); /* means nothing here */
                s.layout = layout;
                s.key = key;
                s.iv = iv;
                s.in = in;
                s.len = len;
                s.mis_in = fc_test_rand_below(16);
                s.mis_out = fc_test_rand_below(16);
                s.npieces = fc_test_pieces(len, s.pieces, FC_STREAM_MAX_PIECES);
                fc_stream_diff(env, &s);
                count++;
            }
        }
    print_message("[%s] %zu streams matched default\n", env->label, count);
    free(in);
}

/* Messages across each wrap of the counter, in two updates split inside
 * the wrapping block: the output, "num" after each update and the counter
 * after the message, against default and against the count kept here. */
FC_SUITE_TEST(test_counter_wrap)
{
    fc_test_env *env = *state;
    uint8_t key[32], iv[16], in[200], of[200], od[200], want[16];
    fc_pair p;
    int l;

    fc_test_rand_start(__func__);
    fc_pair_new(&p);
    for (int ks = 0; ks < NKS; ks++)
        for (int kind = 1; kind <= 3; kind++)
            for (size_t d = 0; d <= 4; d++) {
                const size_t len = 100 + fc_test_rand_below(100);
                const size_t cut = 16 * d + 1 + fc_test_rand_below(15);
                unsigned int nf = 99, nd = 99;

                fc_test_rand_bytes(key, sizeof(key));
                fc_test_rand_bytes(in, sizeof(in));
                ctr_iv(iv, 0, kind);
                /* d blocks before the wrap, whatever ctr_iv drew. */
                fc_store_be32(iv + 12, 0u - (uint32_t)d);
                if (kind >= 2)
                    fc_store_be64(iv + 8, 0 - (uint64_t)d);
                if (kind == 3)
                    fc_store_be64(iv, d == 0 ? 0 : UINT64_MAX);
                WHERE("%s wrap of %d bits, %zu blocks before it, %zu bytes "
                      "cut at %zu, iv=%s",
                      names(ks),
                      kind == 1   ? 32
                      : kind == 2 ? 64
                                  : 128,
                      d, len, cut, fc_test_hexs(iv, 16));
                CHECK(fc_pair_init(&p, env, ks, key, iv, 1, NULL, "init"),
                      "init");
                fc_pair_update_at(&p, of, od, in, cut, &l, "first update");
                CHECK(fc_test_get_uint(p.c[0], OSSL_CIPHER_PARAM_NUM, &nf) &&
                          fc_test_get_uint(p.c[1], OSSL_CIPHER_PARAM_NUM, &nd),
                      "get num");
                CHECK(nf == nd && nf == cut % 16, "num %u, default %u", nf, nd);
                fc_pair_update_at(&p, of + cut, od + cut, in + cut, len - cut,
                                  &l, "second update");
                fc_pair_final(&p, 0, "final");
                fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_UPDATED_IV, 16,
                                   "updated-iv");
                memcpy(want, iv, 16);
                fc_test_add128(want, (len + 15) / 16);
                CHECK(EVP_CIPHER_CTX_get_updated_iv(p.c[0], of, 16),
                      "updated-iv");
                CHECK_MEM(of, want, 16, "counter after the message");
            }
    fc_pair_free(&p);
}

/*
 * Initialisation variants: key and IV together or apart, an IV-only
 * re-init mid-stream (a new message on the key), a re-init with neither
 * (it goes on from the counter, not from the IV, and drops the rest of a
 * partial keystream block), params only, and the direction: decryption is
 * the same keystream.
 */
FC_SUITE_TEST(test_init_variants)
{
    fc_test_env *env = *state;
    uint8_t key[32], iv[16], iv2[16], pt[300], ref[300], of[300], od[300];
    unsigned int zero = 0;
    OSSL_PARAM nopad[2] = {
        OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &zero),
        OSSL_PARAM_construct_end()};
    fc_pair p;

    fc_test_rand_start(__func__);
    fc_pair_new(&p);
    for (int ks = 0; ks < NKS; ks++) {
        fc_test_rand_bytes(key, sizeof(key));
        ctr_iv(iv, sizeof(pt), ks + 1);
        fc_test_rand_bytes(iv2, sizeof(iv2));
        fc_test_rand_bytes(pt, sizeof(pt));

        WHERE("%s key and IV together", names(ks));
        CHECK(fc_pair_init(&p, env, ks, key, iv, 1, NULL, "init"), "init");
        fc_pair_run(&p, pt, 300, 1, ref, od);

        WHERE("%s key, then IV", names(ks));
        CHECK(fc_pair_init(&p, env, ks, key, NULL, 1, NULL, "init"), "init");
        CHECK(fc_pair_init(&p, env, -1, NULL, iv, 1, NULL, "init"), "init");
        fc_pair_run(&p, pt, 300, 1, of, od);
        CHECK_MEM(of, ref, 300, "key-then-IV output");

        WHERE("%s IV, then key", names(ks));
        CHECK(fc_pair_init(&p, env, ks, NULL, iv, 0, NULL, "init"), "init");
        CHECK(fc_pair_init(&p, env, -1, key, NULL, 0, NULL, "init"), "init");
        fc_pair_run(&p, pt, 300, 1, of, od);
        CHECK_MEM(of, ref, 300, "IV-then-key output (decrypting)");

        WHERE("%s IV-only re-init mid-stream", names(ks));
        CHECK(fc_pair_init(&p, env, ks, key, iv2, 1, NULL, "init"), "init");
        fc_pair_run(&p, pt, 77, 0, of, od);
        CHECK(fc_pair_init(&p, env, -1, NULL, iv, -1, NULL, "init"), "init");
        fc_pair_run(&p, pt, 300, 1, of, od);
        CHECK_MEM(of, ref, 300, "output after an IV-only re-init");

        WHERE("%s re-init with neither key nor IV mid-block", names(ks));
        CHECK(fc_pair_init(&p, env, ks, key, iv, 1, NULL, "init"), "init");
        fc_pair_run(&p, pt, 45, 0, of, od);
        CHECK(fc_pair_init(&p, env, -1, NULL, NULL, -1, NULL, "init"), "init");
        fc_pair_run(&p, pt + 45, 255, 1, of, od);
        fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_UPDATED_IV, 16, "counter");

        WHERE("%s params-only init (padding=0) mid-block", names(ks));
        CHECK(fc_pair_init(&p, env, ks, key, iv, 1, NULL, "init"), "init");
        fc_pair_run(&p, pt, 29, 0, of, od);
        CHECK(fc_pair_init(&p, env, -1, NULL, NULL, -1, nopad, "init"), "init");
        fc_pair_run(&p, pt, 100, 1, of, od);

        WHERE("%s the cipher again, other direction", names(ks));
        CHECK(fc_pair_init(&p, env, ks, key, iv, 0, NULL, "init"), "init");
        fc_pair_run(&p, ref, 300, 1, of, od);
        CHECK_MEM(of, pt, 300, "decryption");
    }
    fc_pair_free(&p);
}

/* EVP_CIPHER_CTX_copy mid-block: copies go on after the original is freed,
 * and a copy interleaved with its original, both equal to one default
 * stream. */
FC_SUITE_TEST(test_ctx_copy)
{
    fc_test_env *env = *state;
    uint8_t key[32], iv[16], in[400], ref[400], oa[400], ob[400];

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++)
        for (int round = 0; round < 8; round++) {
            EVP_CIPHER_CTX *d = EVP_CIPHER_CTX_new();
            EVP_CIPHER_CTX *a = EVP_CIPHER_CTX_new();
            EVP_CIPHER_CTX *b = EVP_CIPHER_CTX_new();
            const size_t head = 1 + fc_test_rand_below(150);
            int l;

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(in, sizeof(in));
            ctr_iv(iv, sizeof(in), round % 4);
            WHERE("%s copy after %zu bytes, iv=%s", names(ks), head,
                  fc_test_hexs(iv, 16));
            CHECK(EVP_CipherInit_ex2(d, env->df[ks], key, iv, 1, NULL) &&
                      EVP_CipherUpdate(d, ref, &l, in, sizeof(in)),
                  "default");
            CHECK(EVP_CipherInit_ex2(a, env->fc[ks], key, iv, 1, NULL) &&
                      EVP_CipherUpdate(a, oa, &l, in, (int)head) &&
                      EVP_CIPHER_CTX_copy(b, a),
                  "init, head, copy");
            memcpy(ob, oa, head);
            if (round % 2) {
                /* The original freed before its copy goes on. */
                EVP_CIPHER_CTX_free(a);
                a = NULL;
            } else {
                for (size_t i = head; i < sizeof(in); i += 13) {
                    const int n =
                        (int)(sizeof(in) - i < 13 ? sizeof(in) - i : 13);

                    CHECK(EVP_CipherUpdate(a, oa + i, &l, in + i, n) && l == n,
                          "original, interleaved");
                    CHECK(EVP_CipherUpdate(b, ob + i, &l, in + i, n) && l == n,
                          "copy, interleaved");
                }
                CHECK_MEM(oa, ref, sizeof(in), "original's output");
            }
            if (round % 2)
                CHECK(EVP_CipherUpdate(b, ob + head, &l, in + head,
                                       (int)(sizeof(in) - head)),
                      "copy alone");
            CHECK_MEM(ob, ref, sizeof(in), "copy's output");
            EVP_CIPHER_CTX_free(a);
            EVP_CIPHER_CTX_free(b);
            EVP_CIPHER_CTX_free(d);
        }
}

/* EVP_Cipher (the one-shot call openssl speed uses): any length, the
 * stream going on across calls, in place or not, as default. */
FC_SUITE_TEST(test_evp_cipher)
{
    fc_test_env *env = *state;
    uint8_t key[32], iv[16], in[600], of[600], od[600];

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++)
        for (int inplace = 0; inplace <= 1; inplace++) {
            EVP_CIPHER_CTX *c[2] = {EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_new()};
            uint8_t *o[2] = {of, od};

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(in, sizeof(in));
            ctr_iv(iv, sizeof(in), 1 + ks);
            for (int s = 0; s < 2; s++) {
                CHECK(EVP_CipherInit_ex2(c[s], s ? env->df[ks] : env->fc[ks],
                                         key, iv, 1, NULL),
                      "init");
                if (inplace)
                    memcpy(o[s], in, sizeof(in));
            }
            for (size_t off = 0, n; off < sizeof(in); off += n) {
                int r[2];

                n = fc_test_rand_below(sizeof(in) - off + 1);
                WHERE("%s EVP_Cipher of %zu bytes at %zu, %s", names(ks), n,
                      off, inplace ? "in place" : "out of place");
                for (int s = 0; s < 2; s++)
                    r[s] = EVP_Cipher(c[s], o[s] + off,
                                      inplace ? o[s] + off : in + off,
                                      (unsigned int)n);
                CHECK(r[0] == r[1] && r[0] == (int)n,
                      "EVP_Cipher returned %d, default %d", r[0], r[1]);
                CHECK_MEM(of + off, od + off, n, "EVP_Cipher output");
            }
            EVP_CIPHER_CTX_free(c[0]);
            EVP_CIPHER_CTX_free(c[1]);
        }
}

/* Context parameters: "iv", "updated-iv", "num", "padding" and "ivlen"
 * after an update that ends inside a block, and the TLS fields accepted;
 * all as default has them. */
FC_SUITE_TEST(test_ctx_params)
{
    fc_test_env *env = *state;
    uint8_t key[32], iv[16], in[100], of[100], od[100];
    fc_pair p;
    int l;

    fc_test_rand_start(__func__);
    fc_pair_new(&p);
    for (int ks = 0; ks < NKS; ks++) {
        unsigned int u;
        size_t sz;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(in, sizeof(in));
        ctr_iv(iv, sizeof(in), ks + 1);
        WHERE("%s parameters after 37 bytes", names(ks));
        CHECK(fc_pair_init(&p, env, ks, key, iv, 1, NULL, "init"), "init");
        fc_pair_update_at(&p, of, od, in, 37, &l, "37 bytes");
        fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_IV, 16, "iv");
        fc_pair_get_octets(&p, OSSL_CIPHER_PARAM_UPDATED_IV, 16, "updated-iv");
        for (int s = 0; s < 2; s++) {
            const char *who = s ? "default" : FC_NAME;

            u = 99;
            CHECK(fc_test_get_uint(p.c[s], OSSL_CIPHER_PARAM_NUM, &u) && u == 5,
                  "num %u (%s)", u, who);
            CHECK(fc_test_get_uint(p.c[s], OSSL_CIPHER_PARAM_PADDING, &u) &&
                      u == 1,
                  "padding %u (%s)", u, who);
            CHECK(fc_test_get_size(p.c[s], OSSL_CIPHER_PARAM_IVLEN, &sz) &&
                      sz == 16,
                  "ivlen %zu (%s)", sz, who);
        }
        /* libssl's TLS fields are taken (and select nothing, see the
         * spec); the stream goes on unchanged. */
        WHERE("%s TLS parameters", names(ks));
        {
            int ver = 0x0303;
            size_t ms = 0;
            OSSL_PARAM t[3];

            fc_test_tls_params(t, &ver, &ms);
            CHECK(EVP_CIPHER_CTX_set_params(p.c[0], t) &&
                      EVP_CIPHER_CTX_set_params(p.c[1], t),
                  "tls-version / tls-mac-size");
        }
        fc_pair_run(&p, in + 37, sizeof(in) - 37, 1, of, od);
    }
    fc_pair_free(&p);
}

/*
 * "num" set to every offset the keystream block has room for, after 37
 * bytes (three blocks of keystream made, five bytes of the third used):
 * the next bytes take the third block's keystream from that offset, or a
 * fresh block for 0. Checked against the keystream (default's encryption
 * of zeros), and against default where it takes the value: 3.0.19 does,
 * 3.0.22 and later refuse any "num" above 0 for CTR (its block size, 1,
 * is their bound). fastcrypto takes 0..15.
 */
FC_SUITE_TEST(test_num)
{
    fc_test_env *env = *state;
    uint8_t key[32], iv[16], in[100], ks_ref[16 * 7], of[100], od[100];
    static const uint8_t zero[16 * 7];

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        EVP_CIPHER_CTX *z = EVP_CIPHER_CTX_new();
        int l;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(in, sizeof(in));
        ctr_iv(iv, sizeof(in), ks + 1);
        CHECK(z != NULL && EVP_EncryptInit_ex2(z, env->df[ks], key, iv, NULL) &&
                  EVP_EncryptUpdate(z, ks_ref, &l, zero, sizeof(zero)),
              "keystream from default");
        EVP_CIPHER_CTX_free(z);
        for (unsigned int num = 0; num < 16; num++) {
            OSSL_PARAM q[2] = {
                OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
                OSSL_PARAM_construct_end()};
            const size_t n = 1 + fc_test_rand_below(60);
            const size_t at = num == 0 ? 48 : 32 + num;
            EVP_CIPHER_CTX *c[2] = {EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_new()};
            uint8_t *o[2] = {of, od};
            int r[2];

            WHERE("%s num=%u after 37 bytes, then %zu bytes", names(ks), num,
                  n);
            for (int s = 0; s < 2; s++) {
                CHECK(EVP_EncryptInit_ex2(c[s], s ? env->df[ks] : env->fc[ks],
                                          key, iv, NULL) &&
                          EVP_EncryptUpdate(c[s], o[s], &l, in, 37),
                      "init and 37 bytes");
                r[s] = EVP_CIPHER_CTX_set_params(c[s], q);
                ERR_clear_error();
                if (r[s])
                    CHECK(EVP_EncryptUpdate(c[s], o[s], &l, in + 37, (int)n) &&
                              l == (int)n,
                          "update after num");
            }
            CHECK(r[0] == 1, "num %u refused", num);
            for (size_t i = 0; i < n; i++)
                CHECK(of[i] == (in[37 + i] ^ ks_ref[at + i]),
                      "byte %zu after num %u", i, num);
            if (r[1]) /* default took it too: the same output */
                CHECK_MEM(od, of, n, "default's output after num");
            EVP_CIPHER_CTX_free(c[0]);
            EVP_CIPHER_CTX_free(c[1]);
        }
    }
}

/* A "num" the keystream block has no room for is refused by fastcrypto,
 * which changes nothing (the default takes it and reads past its block:
 * not run). */
FC_SUITE_TEST(test_num_refused)
{
    fc_test_env *env = *state;
    uint8_t key[32], iv[16];
    unsigned int big[] = {16, 17, 255, 0xffffffffu}, u = 99;

    fc_test_rand_start(__func__);
    fc_test_rand_bytes(key, sizeof(key));
    fc_test_rand_bytes(iv, sizeof(iv));
    for (int ks = 0; ks < NKS; ks++) {
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

        CHECK(EVP_CipherInit_ex2(c, env->fc[ks], key, iv, 1, NULL), "init");
        for (size_t i = 0; i < FC_ARRAY_LEN(big); i++) {
            OSSL_PARAM q[2] = {
                OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &big[i]),
                OSSL_PARAM_construct_end()};

            WHERE("%s num=%u", names(ks), big[i]);
            CHECK(EVP_CIPHER_CTX_set_params(c, q) == 0, "num taken");
            fc_test_expect_error("num past the keystream block", 0);
            CHECK(fc_test_get_uint(c, OSSL_CIPHER_PARAM_NUM, &u) && u == 0,
                  "num %u after the refusal", u);
        }
        EVP_CIPHER_CTX_free(c);
    }
}

/* Successful calls leave the error queue empty (OpenSSL 3.2+ queues an
 * error from a setter given the wrong type, which a provider that tries
 * one type and then another would leave behind). */
FC_SUITE_TEST(test_quiet_success)
{
    fc_test_env *env = *state;
    uint8_t key[32], iv[16], buf[64];
    unsigned int u = 0;
    int l;

    fc_test_rand_start(__func__);
    for (int ks = 0; ks < NKS; ks++) {
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

        WHERE("%s: successful calls", names(ks));
        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(buf, sizeof(buf));
        ERR_clear_error();
        QUIET(c != NULL && EVP_CipherInit_ex2(c, env->fc[ks], key, iv, 1, NULL),
              "init");
        QUIET(EVP_CipherUpdate(c, buf, &l, buf, 21), "update");
        fc_test_quiet_iv_gets(c, 16);
        QUIET(fc_test_get_uint(c, OSSL_CIPHER_PARAM_NUM, &u) && u == 5,
              "get num");
        QUIET(fc_test_get_uint(c, OSSL_CIPHER_PARAM_PADDING, &u), "padding");
        QUIET(EVP_CIPHER_CTX_set_padding(c, 0), "set padding");
        QUIET(EVP_CIPHER_CTX_set_num(c, 3), "set num");
        QUIET(EVP_Cipher(c, buf, buf, 40) == 40, "EVP_Cipher");
        QUIET(EVP_CipherFinal_ex(c, buf, &l) && l == 0, "final");
        EVP_CIPHER_CTX_free(c);
    }
}

/* Bad input straight to the provider's functions (EVP checks some of it
 * before they are reached): no key, NULL buffers, too small an output.
 * Each call fails with fastcrypto's error and leaves the context usable. */
FC_SUITE_TEST(test_bad_input)
{
    fc_test_env *env = *state;
    uint8_t key[32], iv[16], in[64], out[64];
    size_t outl;

    fc_test_rand_start(__func__);
    fc_test_rand_bytes(key, sizeof(key));
    fc_test_rand_bytes(iv, sizeof(iv));
    fc_test_rand_bytes(in, sizeof(in));
    for (int ks = 0; ks < NKS; ks++) {
        const size_t kl = (size_t)fc_test_family_ctr.keylen[ks];
        fc_test_cipher_fns f;
        void *c;

        WHERE("%s direct calls", names(ks));
        fc_test_get_cipher_fns(env->fc[ks], names(ks), &f);
        c = f.newctx(f.provctx);
        CHECK(c != NULL, "newctx");
        CHECK(f.update(c, out, &outl, sizeof(out), in, 16) == 0,
              "update without a key");
        fc_test_expect_error("update without a key", 0);
        CHECK(f.final(c, out, &outl, sizeof(out)) == 0, "final without a key");
        fc_test_expect_error("final without a key", 0);
        CHECK(f.cipher(c, out, &outl, sizeof(out), in, 16) == 0,
              "one-shot without a key");
        fc_test_expect_error("one-shot without a key", 0);
        CHECK(f.einit(c, key, kl, iv, 15, NULL) == 0, "a 15-byte IV");
        fc_test_expect_error("a 15-byte IV", 0);
        CHECK(f.einit(c, key, kl + 1, iv, 16, NULL) == 0, "a longer key");
        fc_test_expect_error("a longer key", 0);
        CHECK(f.einit(c, key, kl, iv, 16, NULL) == 1, "init");
        CHECK(f.update(c, out, &outl, 15, in, 16) == 0, "16 bytes into 15");
        fc_test_expect_error("output too small", 0);
        CHECK(f.update(c, NULL, &outl, 16, in, 16) == 0, "NULL output");
        fc_test_expect_error("NULL output", 0);
        CHECK(f.cipher(c, out, &outl, 16, NULL, 16) == 0, "NULL input");
        fc_test_expect_error("NULL input", 0);
        CHECK(f.update(c, out, &outl, 0, in, 0) == 1 && outl == 0,
              "an empty update");
        CHECK(f.update(c, out, &outl, sizeof(out), in, 17) == 1 && outl == 17,
              "the context goes on after the refusals");
        CHECK(f.final(c, out, &outl, 0) == 1 && outl == 0, "final");
        ERR_clear_error();
        f.freectx(c);
    }
}

/* ---------------------------------------------------------------------- */

int main(void)
{
    return fc_suite_run(&fc_test_family_ctr) != 0;
}
