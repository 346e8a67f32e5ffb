/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_rsa.c - the raw RSA core of fc/rsa.h (key import, public and private
 * operations, key generation) for every RSA engine (fc/rsa_engine.h) the CPU
 * runs, with OpenSSL as the oracle.
 *
 * Groups:
 *   rsa_kat     raw RSA vectors from the PKCS #1 v2.1 test set (RSA
 *               Laboratories, pkcs-1v2-1-vec: oaep-int.txt and pss-int.txt,
 *               the intermediate values EM and c / s), both directions;
 *   rsa_diff    keys made by OpenSSL (EVP_RSA_gen, 1024..4096 bits) imported
 *               through their components: fc_rsa_private / fc_rsa_public
 *               against raw (RSA_NO_PADDING) EVP_PKEY_decrypt /
 *               EVP_PKEY_encrypt bit for bit, with and without the CRT
 *               parts, and an unbalanced key (p of 200 bits) against BN;
 *   rsa_edge    in >= n refused, corrupted CRT parts and d caught by the
 *               check before release (zeros out), a corrupted CRT part
 *               next to a good d retried through d, unreduced dp, dq, qinv
 *               taken (and exported as given), refused imports, component
 *               round trip, duplication, aliasing, RNG failure, blinding
 *               refresh, 4 threads on one key, a forked child;
 *   rsa_keygen  fc_rsa_generate output checked by OpenSSL
 *               (EVP_PKEY_fromdata, EVP_PKEY_check / pairwise / private
 *               checks) and used against OpenSSL's raw private operation;
 *   rsa_timing  microseconds per RSA-2048 private operation (ours, per
 *               table, vs OpenSSL's raw decrypt), per import, per keygen
 *               (informational; skipped under FC_TEST_QUICK).
 *
 * FC_TEST_QUICK=1 shrinks the case counts; the 4096-bit key then appears
 * once (one input, one table). FC_TEST_SEED replays a run;
 * FASTCRYPTO_CPU_MASK switches tables off.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include "fc/bn.h"
#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/ct.h"
#include "fc/rsa.h"
#include "fc/rsa_engine.h"
#include "evp_checks.h"
#include "impls.h"
#include "runner.h"

#define MAXB 1024 /* bytes of the largest modulus used here (8192 bits) */

/* ---- randomness for the core: counting, thread-safe ------------------- */

static unsigned long rng_calls;
static int rng_fail;
static int rng_secret; /* mark the output secret (valgrind CT build) */

static int test_rng(void *arg, uint8_t *buf, size_t len)
{
    (void)arg;
    __atomic_fetch_add(&rng_calls, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&rng_fail, __ATOMIC_SEQ_CST))
        return 0;
    if (RAND_bytes(buf, (int)len) != 1)
        return 0;
    if (rng_secret)
        FC_CT_SECRET(buf, len);
    return 1;
}

static unsigned long rng_count(void)
{
    return __atomic_load_n(&rng_calls, __ATOMIC_SEQ_CST);
}

/* ---- keys as byte components ------------------------------------------ */

enum { C_N, C_E, C_D, C_P, C_Q, C_DP, C_DQ, C_QI, C_COUNT };
static const char comp_letter[C_COUNT] = {'n', 'e', 'd', 'p',
                                          'q', 'P', 'Q', 'i'};

typedef struct tkey {
    size_t bits;
    EVP_PKEY *pkey; /* OpenSSL's view (NULL for hand-built keys) */
    uint8_t *c[C_COUNT];
    size_t len[C_COUNT];
} tkey;

static void tkey_set_bn(tkey *k, int which, const BIGNUM *b)
{
    k->len[which] = (size_t)BN_num_bytes(b);
    k->c[which] = malloc(k->len[which] + 1);
    assert_non_null(k->c[which]);
    BN_bn2bin(b, k->c[which]);
}

static void tkey_from_bns(tkey *k, const BIGNUM *const bn[C_COUNT])
{
    for (int i = 0; i < C_COUNT; i++)
        if (bn[i] != NULL)
            tkey_set_bn(k, i, bn[i]);
}

static void tkey_from_pkey(tkey *k, EVP_PKEY *pkey)
{
    static const char *const names[C_COUNT] = {
        OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,
        OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
        OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
        OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
    };
    memset(k, 0, sizeof(*k));
    k->pkey = pkey;
    k->bits = (size_t)EVP_PKEY_get_bits(pkey);
    for (int i = 0; i < C_COUNT; i++) {
        BIGNUM *b = NULL;
        assert_int_equal(EVP_PKEY_get_bn_param(pkey, names[i], &b), 1);
        tkey_set_bn(k, i, b);
        BN_clear_free(b);
    }
}

static void tkey_free(tkey *k)
{
    for (int i = 0; i < C_COUNT; i++)
        free(k->c[i]);
    EVP_PKEY_free(k->pkey);
    memset(k, 0, sizeof(*k));
}

/* Components of |k|; |crt| and |d| choose which private parts go in. */
static fc_rsa_components tkey_comps(const tkey *k, int with_d, int with_crt)
{
    fc_rsa_components c;

    memset(&c, 0, sizeof(c));
    c.n = k->c[C_N];
    c.n_len = k->len[C_N];
    c.e = k->c[C_E];
    c.e_len = k->len[C_E];
    if (with_d) {
        c.d = k->c[C_D];
        c.d_len = k->len[C_D];
    }
    if (with_crt) {
        c.p = k->c[C_P];
        c.p_len = k->len[C_P];
        c.q = k->c[C_Q];
        c.q_len = k->len[C_Q];
        c.dp = k->c[C_DP];
        c.dp_len = k->len[C_DP];
        c.dq = k->c[C_DQ];
        c.dq_len = k->len[C_DQ];
        c.qinv = k->c[C_QI];
        c.qinv_len = k->len[C_QI];
    }
    return c;
}

/*
 * The engine list a per-engine loop imports with: the engine |e| first,
 * then the generic engine, which takes what |e| refuses (the kernels of a
 * CRT-only engine's keys, sizes it has no kernels for). So one loop over
 * fc_rsa_engine_impls runs every engine's CRT exponentiation and every
 * kernel table against the same expectations.
 */
static fc_rsa_engines engine_list(const fc_rsa_engine *e)
{
    fc_rsa_engines l;

    memset(&l, 0, sizeof(l));
    l.e[l.count++] = e;
    if (e != &fc_rsa_engine_generic)
        l.e[l.count++] = &fc_rsa_engine_generic;
    snprintf(l.names, sizeof(l.names), "%s%s", e->name,
             e != &fc_rsa_engine_generic ? ",generic" : "");
    return l;
}

static fc_rsa_key *import_list(const tkey *k, int with_d, int with_crt,
                               const fc_rsa_engines *list)
{
    fc_rsa_components c = tkey_comps(k, with_d, with_crt);
    const char *why = NULL;
    fc_rsa_key *key = fc_rsa_key_new(&c, list, &why);

    if (key == NULL)
        fail_msg("import of a %zu-bit key failed: %s", k->bits,
                 why ? why : "?");
    return key;
}

static fc_rsa_key *import(const tkey *k, int with_d, int with_crt,
                          const fc_rsa_engine *e)
{
    fc_rsa_engines l = engine_list(e);

    return import_list(k, with_d, with_crt, &l);
}

/* The OpenSSL keys, generated once per run. */
static const size_t key_bits[] = {1024, 2048, 3072, 4096};
static tkey ossl_keys[4];

static const tkey *ossl_key(size_t idx)
{
    if (ossl_keys[idx].pkey == NULL) {
        EVP_PKEY *pkey = EVP_RSA_gen((unsigned)key_bits[idx]);
        assert_non_null(pkey);
        tkey_from_pkey(&ossl_keys[idx], pkey);
    }
    return &ossl_keys[idx];
}

/* ---- OpenSSL raw operations ------------------------------------------- */

static void ossl_raw(EVP_PKEY *pkey, int private_op, uint8_t *out,
                     const uint8_t *in, size_t len)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
    size_t outlen = len;

    assert_non_null(ctx);
    if (private_op) {
        assert_int_equal(EVP_PKEY_decrypt_init(ctx), 1);
        assert_int_equal(EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING), 1);
        assert_int_equal(EVP_PKEY_decrypt(ctx, out, &outlen, in, len), 1);
    } else {
        assert_int_equal(EVP_PKEY_encrypt_init(ctx), 1);
        assert_int_equal(EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING), 1);
        assert_int_equal(EVP_PKEY_encrypt(ctx, out, &outlen, in, len), 1);
    }
    assert_int_equal(outlen, len);
    EVP_PKEY_CTX_free(ctx);
}

/* in = n - r for r (rlen <= len bytes, big-endian) with 0 < r <= n. */
static void n_minus(uint8_t *in, const uint8_t *n, size_t len, const uint8_t *r,
                    size_t rlen)
{
    unsigned borrow = 0;

    memcpy(in, n, len);
    for (size_t i = 0; i < len; i++) {
        unsigned sub = (i < rlen ? r[rlen - 1 - i] : 0) + borrow;
        unsigned cur = in[len - 1 - i];
        borrow = cur < sub;
        in[len - 1 - i] = (uint8_t)(cur - sub);
    }
}

/* in = a value below n (|kind| 0: random, 1: zero, 2: one, 3: n - 1,
 * 4: n - 2, 5: n minus a random half-length value, so the top bytes equal
 * n's). */
static void make_input(uint8_t *in, const tkey *k, int kind)
{
    const size_t len = k->len[C_N];
    const uint8_t *n = k->c[C_N];
    uint8_t r[MAXB];

    switch (kind) {
    case 1:
    case 2:
        memset(in, 0, len);
        in[len - 1] = (uint8_t)(kind - 1);
        break;
    case 3:
    case 4:
        r[0] = (uint8_t)(kind - 2);
        n_minus(in, n, len, r, 1);
        break;
    case 5:
        /* n > 2^(8 len - 8) exceeds any half-length r. */
        fc_test_rand_bytes(r, len / 2);
        r[len / 2 - 1] |= 1; /* r >= 1 */
        n_minus(in, n, len, r, len / 2);
        break;
    default:
        fc_test_rand_bytes(in, len);
        in[0] = (uint8_t)(in[0] % n[0]);
        break;
    }
}

static void expect_bytes(const char *what, const uint8_t *got,
                         const uint8_t *want, size_t len)
{
    if (memcmp(got, want, len) != 0) {
        char h1[200], h2[200];
        fail_msg("%s: got %s, want %s", what,
                 fc_test_hex(h1, sizeof h1, got, len),
                 fc_test_hex(h2, sizeof h2, want, len));
    }
}

static const uint8_t *hex_decode(const char *hex, uint8_t *out, size_t *len)
{
    size_t n = 0;
    int hi = -1;

    for (; *hex; hex++) {
        int v;
        if (*hex >= '0' && *hex <= '9')
            v = *hex - '0';
        else if (*hex >= 'a' && *hex <= 'f')
            v = *hex - 'a' + 10;
        else
            continue;
        if (hi < 0) {
            hi = v;
        } else {
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    *len = n;
    return out;
}

/* ---- rsa_kat ---------------------------------------------------------- */

/* pkcs-1v2-1-vec/oaep-int.txt: 1024-bit key, e = 17, with its CRT parts;
 * EM is the OAEP encoding (00 || 127 bytes), c = EM^e mod n. */
static const char oaep_n[] =
    "bb f8 2f 09 06 82 ce 9c 23 38 ac 2b 9d a8 71 f7 36 8d 07 ee d4 10 43 a4"
    "40 d6 b6 f0 74 54 f5 1f b8 df ba af 03 5c 02 ab 61 ea 48 ce eb 6f cd 48"
    "76 ed 52 0d 60 e1 ec 46 19 71 9d 8a 5b 8b 80 7f af b8 e0 a3 df c7 37 72"
    "3e e6 b4 b7 d9 3a 25 84 ee 6a 64 9d 06 09 53 74 88 34 b2 45 45 98 39 4e"
    "e0 aa b1 2d 7b 61 a5 1f 52 7a 9a 41 f6 c1 68 7f e2 53 72 98 ca 2a 8f 59"
    "46 f8 e5 fd 09 1d bd cb";
static const char oaep_e[] = "11";
static const char oaep_p[] =
    "ee cf ae 81 b1 b9 b3 c9 08 81 0b 10 a1 b5 60 01 99 eb 9f 44 ae f4 fd a4"
    "93 b8 1a 9e 3d 84 f6 32 12 4e f0 23 6e 5d 1e 3b 7e 28 fa e7 aa 04 0a 2d"
    "5b 25 21 76 45 9d 1f 39 75 41 ba 2a 58 fb 65 99";
static const char oaep_q[] =
    "c9 7f b1 f0 27 f4 53 f6 34 12 33 ea aa d1 d9 35 3f 6c 42 d0 88 66 b1 d0"
    "5a 0f 20 35 02 8b 9d 86 98 40 b4 16 66 b4 2e 92 ea 0d a3 b4 32 04 b5 cf"
    "ce 33 52 52 4d 04 16 a5 a4 41 e7 00 af 46 15 03";
static const char oaep_dp[] =
    "54 49 4c a6 3e ba 03 37 e4 e2 40 23 fc d6 9a 5a eb 07 dd dc 01 83 a4 d0"
    "ac 9b 54 b0 51 f2 b1 3e d9 49 09 75 ea b7 74 14 ff 59 c1 f7 69 2e 9a 2e"
    "20 2b 38 fc 91 0a 47 41 74 ad c9 3c 1f 67 c9 81";
static const char oaep_dq[] =
    "47 1e 02 90 ff 0a f0 75 03 51 b7 f8 78 86 4c a9 61 ad bd 3a 8a 7e 99 1c"
    "5c 05 56 a9 4c 31 46 a7 f9 80 3f 8f 6f 8a e3 42 e9 31 fd 8a e4 7a 22 0d"
    "1b 99 a4 95 84 98 07 fe 39 f9 24 5a 98 36 da 3d";
static const char oaep_qinv[] =
    "b0 6c 4f da bb 63 01 19 8d 26 5b db ae 94 23 b3 80 f2 71 f7 34 53 88 50"
    "93 07 7f cd 39 e2 11 9f c9 86 32 15 4f 58 83 b1 67 a9 67 bf 40 2b 4e 9e"
    "2e 0f 96 56 e6 98 ea 36 66 ed fb 25 79 80 39 f7";
static const char oaep_em[] =
    "00 eb 7a 19 ac e9 e3 00 63 50 e3 29 50 4b 45 e2 ca 82 31 0b 26 dc d8 7d"
    "5c 68 f1 ee a8 f5 52 67 c3 1b 2e 8b b4 25 1f 84 d7 e0 b2 c0 46 26 f5 af"
    "f9 3e dc fb 25 c9 c2 b3 ff 8a e1 0e 83 9a 2d db 4c dc fe 4f f4 77 28 b4"
    "a1 b7 c1 36 2b aa d2 9a b4 8d 28 69 d5 02 41 21 43 58 11 59 1b e3 92 f9"
    "82 fb 3e 87 d0 95 ae b4 04 48 db 97 2f 3a c1 4f 7b c2 75 19 52 81 ce 32"
    "d2 f1 b7 6d 4d 35 3e 2d";
static const char oaep_c[] =
    "12 53 e0 4d c0 a5 39 7b b4 4a 7a b8 7e 9b f2 a0 39 a3 3d 1e 99 6f c8 2a"
    "94 cc d3 00 74 c9 5d f7 63 72 20 17 06 9e 52 68 da 5d 1c 0b 4f 87 2c f6"
    "53 c1 1d f8 23 14 a6 79 68 df ea e2 8d ef 04 bb 6d 84 b1 c3 1d 65 4a 19"
    "70 e5 78 3b d6 eb 96 a0 24 c2 ca 2f 4a 90 fe 9f 2e f5 c9 c1 40 e5 bb 48"
    "da 95 36 ad 87 00 c8 4f c9 13 0a de a7 4e 55 8d 51 a7 4d df 85 d8 b5 0d"
    "e9 68 38 d6 06 3e 09 55";

/* pkcs-1v2-1-vec/pss-int.txt: 1024-bit key, e = 65537, p and q (the other
 * parts are derived here with BN); EM is the PSS encoding, s = EM^d mod n. */
static const char pss_n[] =
    "a2 ba 40 ee 07 e3 b2 bd 2f 02 ce 22 7f 36 a1 95 02 44 86 e4 9c 19 cb 41"
    "bb bd fb ba 98 b2 2b 0e 57 7c 2e ea ff a2 0d 88 3a 76 e6 5e 39 4c 69 d4"
    "b3 c0 5a 1e 8f ad da 27 ed b2 a4 2b c0 00 fe 88 8b 9b 32 c2 2d 15 ad d0"
    "cd 76 b3 e7 93 6e 19 95 5b 22 0d d1 7d 4e a9 04 b1 ec 10 2b 2e 4d e7 75"
    "12 22 aa 99 15 10 24 c7 cb 41 cc 5e a2 1d 00 ee b4 1f 7c 80 08 34 d2 c6"
    "e0 6b ce 3b ce 7e a9 a5";
static const char pss_e[] = "01 00 01";
static const char pss_p[] =
    "d1 7f 65 5b f2 7c 8b 16 d3 54 62 c9 05 cc 04 a2 6f 37 e2 a6 7f a9 c0 ce"
    "0d ce d4 72 39 4a 0d f7 43 fe 7f 92 9e 37 8e fd b3 68 ed df f4 53 cf 00"
    "7a f6 d9 48 e0 ad e7 57 37 1f 8a 71 1e 27 8f 6b";
static const char pss_q[] =
    "c6 d9 2b 6f ee 74 14 d1 35 8c e1 54 6f b6 29 87 53 0b 90 bd 15 e0 f1 49"
    "63 a5 e2 63 5a db 69 34 7e c0 c0 1b 2a b1 76 3f d8 ac 1a 59 2f b2 27 57"
    "46 3a 98 24 25 bb 97 a3 a4 37 c5 bf 86 d0 3f 2f";
static const char pss_em[] =
    "66 e4 67 2e 83 6a d1 21 ba 24 4b ed 65 76 b8 67 d9 a4 47 c2 8a 6e 66 a5"
    "b8 7d ee 7f bc 7e 65 af 50 57 f8 6f ae 89 84 d9 ba 7f 96 9a d6 fe 02 a4"
    "d7 5f 74 45 fe fd d8 5b 6d 3a 47 7c 28 d2 4b a1 e3 75 6f 79 2d d1 dc e8"
    "ca 94 44 0e cb 52 79 ec d3 18 3a 31 1f c8 96 da 1c b3 93 11 af 37 ea 4a"
    "75 e2 4b db fd 5c 1d a0 de 7c ec df 1a 89 6f 9d 8b c8 16 d9 7c d7 a2 c4"
    "3b ad 54 6f be 8c fe bc";
static const char pss_s[] =
    "8d aa 62 7d 3d e7 59 5d 63 05 6c 7e c6 59 e5 44 06 f1 06 10 12 8b aa e8"
    "21 c8 b2 a0 f3 93 6d 54 dc 3b dc e4 66 89 f6 b7 95 1b b1 8e 84 05 42 76"
    "97 18 d5 71 5d 21 0d 85 ef bb 59 61 92 03 2c 42 be 4c 29 97 2c 85 62 75"
    "eb 6d 5a 45 f0 5f 51 87 6f c6 74 3d ed dd 28 ca ec 9b b3 0e a9 9e 02 c3"
    "48 82 69 60 4f e4 97 f7 4c cd 7c 7f ca 16 71 89 71 23 cb d3 0d ef 5d 54"
    "a2 b5 53 6a d9 0a 74 7e";

/* Fills d, dp, dq, qinv of |k| (n, e, p, q set) with BN: d = e^-1 mod
 * lcm(p-1, q-1). */
static void tkey_derive(tkey *k)
{
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *b[C_COUNT], *p1 = BN_new(), *q1 = BN_new(), *g = BN_new(),
                        *l = BN_new();

    assert_non_null(ctx);
    for (int i = 0; i < C_COUNT; i++)
        b[i] = k->c[i] ? BN_bin2bn(k->c[i], (int)k->len[i], NULL) : BN_new();
    assert_true(BN_sub(p1, b[C_P], BN_value_one()));
    assert_true(BN_sub(q1, b[C_Q], BN_value_one()));
    assert_true(BN_gcd(g, p1, q1, ctx));
    assert_true(BN_mul(l, p1, q1, ctx));
    assert_true(BN_div(l, NULL, l, g, ctx));
    assert_non_null(BN_mod_inverse(b[C_D], b[C_E], l, ctx));
    assert_true(BN_mod(b[C_DP], b[C_D], p1, ctx));
    assert_true(BN_mod(b[C_DQ], b[C_D], q1, ctx));
    assert_non_null(BN_mod_inverse(b[C_QI], b[C_Q], b[C_P], ctx));
    for (int i = C_D; i < C_COUNT; i++)
        if (k->c[i] == NULL)
            tkey_set_bn(k, i, b[i]);
    for (int i = 0; i < C_COUNT; i++)
        BN_free(b[i]);
    BN_free(p1);
    BN_free(q1);
    BN_free(g);
    BN_free(l);
    BN_CTX_free(ctx);
}

static void tkey_set_hex(tkey *k, int which, const char *hex)
{
    uint8_t buf[MAXB];
    size_t len;

    hex_decode(hex, buf, &len);
    k->c[which] = malloc(len);
    assert_non_null(k->c[which]);
    memcpy(k->c[which], buf, len);
    k->len[which] = len;
}

/* Checks private(r) = m and public(m) = r for the vector pair (m, r),
 * with and without the CRT parts, on every table. */
static void kat_one(const char *name, tkey *k, const char *m_hex,
                    const char *r_hex)
{
    size_t count, mlen, rlen;
    const fc_rsa_engine *const *tab = fc_rsa_engine_impls(&count);
    const fc_rsa_engine *ops;
    uint8_t m[MAXB], r[MAXB], out[MAXB];

    hex_decode(m_hex, m, &mlen);
    hex_decode(r_hex, r, &rlen);
    assert_int_equal(mlen, k->len[C_N]);
    assert_int_equal(rlen, k->len[C_N]);
    FC_TEST_FOREACH_IMPL("rsa engine", tab, count, ops)
    {
        for (int crt = 0; crt <= 1; crt++) {
            fc_rsa_key *key = import(k, !crt, crt, ops);
            assert_int_equal(fc_rsa_private(key, out, r, test_rng, NULL), 1);
            expect_bytes(name, out, m, mlen);
            assert_int_equal(fc_rsa_public(key, out, m), 1);
            expect_bytes(name, out, r, rlen);
            fc_rsa_key_free(key);
        }
    }
}

FC_TEST("rsa_kat", test_kat_vectors)
{
    tkey k;

    (void)state;
    /* OAEP intermediate values: c = EM^e, so private(c) = EM. */
    memset(&k, 0, sizeof(k));
    k.bits = 1024;
    tkey_set_hex(&k, C_N, oaep_n);
    tkey_set_hex(&k, C_E, oaep_e);
    tkey_set_hex(&k, C_P, oaep_p);
    tkey_set_hex(&k, C_Q, oaep_q);
    tkey_set_hex(&k, C_DP, oaep_dp);
    tkey_set_hex(&k, C_DQ, oaep_dq);
    tkey_set_hex(&k, C_QI, oaep_qinv);
    tkey_derive(&k); /* d only: the file's CRT parts stay as given */
    kat_one("oaep-int EM/c", &k, oaep_em, oaep_c);
    tkey_free(&k);

    /* PSS intermediate values: s = EM^d, so private(EM) = s. */
    memset(&k, 0, sizeof(k));
    k.bits = 1024;
    tkey_set_hex(&k, C_N, pss_n);
    tkey_set_hex(&k, C_E, pss_e);
    tkey_set_hex(&k, C_P, pss_p);
    tkey_set_hex(&k, C_Q, pss_q);
    tkey_derive(&k);
    kat_one("pss-int s/EM", &k, pss_s, pss_em);
    tkey_free(&k);
}

/* ---- rsa_diff --------------------------------------------------------- */

static void diff_key(const tkey *k, const fc_rsa_engine *ops, size_t inputs,
                     int with_crt)
{
    const size_t len = k->len[C_N];
    fc_rsa_key *key =
        import(k, !with_crt || fc_test_rand_below(2), with_crt, ops);
    uint8_t in[MAXB], want[MAXB], out[MAXB];
    char what[128];

    assert_int_equal(fc_rsa_size(key), len);
    assert_int_equal(fc_rsa_bits(key), k->bits);
    assert_int_equal(fc_rsa_has_private(key), 1);
    assert_int_equal(fc_rsa_has_crt(key), with_crt);
    for (size_t i = 0; i < inputs; i++) {
        int kind = i < 6 ? (int)i : 0;
        make_input(in, k, kind);
        snprintf(what, sizeof what, "%zu-bit %s private (%s, input kind %d)",
                 k->bits, with_crt ? "CRT" : "no-CRT", ops->name, kind);
        ossl_raw(k->pkey, 1, want, in, len);
        assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 1);
        expect_bytes(what, out, want, len);
        snprintf(what, sizeof what, "%zu-bit public (%s, input kind %d)",
                 k->bits, ops->name, kind);
        ossl_raw(k->pkey, 0, want, in, len);
        assert_int_equal(fc_rsa_public(key, out, in), 1);
        expect_bytes(what, out, want, len);
    }
    fc_rsa_key_free(key);
}

FC_TEST("rsa_diff", test_diff_openssl_keys)
{
    const int quick = fc_test_quick();
    size_t count;
    const fc_rsa_engine *const *tab = fc_rsa_engine_impls(&count);
    const fc_rsa_engine *ops;

    (void)state;
    FC_TEST_FOREACH_IMPL("rsa engine", tab, count, ops)
    {
        for (size_t s = 0; s < 3; s++) {
            const tkey *k = ossl_key(s);
            diff_key(k, ops, quick ? 3 : 12, 1);
            diff_key(k, ops, quick ? 2 : 6, 0);
        }
    }
    /* 4096 bits: the slowest oracle keygen; few inputs, and under
     * FC_TEST_QUICK one input on the first usable table only. */
    FC_TEST_FOREACH_IMPL("rsa engine", tab, count, ops)
    {
        const tkey *k = ossl_key(3);
        diff_key(k, ops, quick ? 1 : 6, 1);
        if (quick)
            break;
        diff_key(k, ops, 2, 0);
    }
}

/* An unbalanced key, p of 200 bits and q of 900: the CRT halves have
 * 4 and 15 limbs against 18 for n, so every reduction takes the folding
 * path. Oracle: BN_mod_exp. */
FC_TEST("rsa_diff", test_diff_unbalanced)
{
    size_t count;
    const fc_rsa_engine *const *tab = fc_rsa_engine_impls(&count);
    const fc_rsa_engine *ops;
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *bn[C_COUNT] = {0};
    BIGNUM *x = BN_new(), *y = BN_new(), *dd = BN_new();
    tkey k;
    uint8_t in[MAXB], want[MAXB], out[MAXB];

    (void)state;
    memset(&k, 0, sizeof(k));
    bn[C_P] = BN_new();
    bn[C_Q] = BN_new();
    bn[C_N] = BN_new();
    bn[C_E] = BN_new();
    assert_true(BN_set_word(bn[C_E], 65537));
    for (int ok = 0; !ok;) {
        assert_true(BN_generate_prime_ex(bn[C_P], 200, 0, NULL, NULL, NULL));
        assert_true(BN_generate_prime_ex(bn[C_Q], 900, 0, NULL, NULL, NULL));
        assert_true(BN_mul(bn[C_N], bn[C_P], bn[C_Q], ctx));
        /* e must be invertible mod p - 1 and q - 1. */
        assert_true(BN_sub(x, bn[C_P], BN_value_one()));
        assert_true(BN_sub(y, bn[C_Q], BN_value_one()));
        ok = BN_gcd(dd, x, bn[C_E], ctx) && BN_is_one(dd) &&
             BN_gcd(dd, y, bn[C_E], ctx) && BN_is_one(dd);
    }
    k.bits = (size_t)BN_num_bits(bn[C_N]);
    tkey_from_bns(&k, (const BIGNUM *const *)bn);
    tkey_derive(&k);
    BN_bin2bn(k.c[C_D], (int)k.len[C_D], dd);

    FC_TEST_FOREACH_IMPL("rsa engine", tab, count, ops)
    {
        for (int crt = 0; crt <= 1; crt++) {
            fc_rsa_key *key = import(&k, !crt, crt, ops);
            for (int i = 0; i < 8; i++) {
                const size_t len = k.len[C_N];
                make_input(in, &k, i < 6 ? i : 0);
                BN_bin2bn(in, (int)len, x);
                assert_true(BN_mod_exp(y, x, dd, bn[C_N], ctx));
                assert_int_equal(BN_bn2binpad(y, want, (int)len), (int)len);
                assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL),
                                 1);
                expect_bytes("unbalanced private", out, want, len);
            }
            fc_rsa_key_free(key);
        }
    }
    for (int i = 0; i < C_COUNT; i++)
        BN_free(bn[i]);
    BN_free(x);
    BN_free(y);
    BN_free(dd);
    BN_CTX_free(ctx);
    tkey_free(&k);
}

/* ---- rsa_edge --------------------------------------------------------- */

/* The provider's list for this CPU (mask and class applied). */
static const fc_rsa_engines *selected(void)
{
    return fc_test_rsa_engines();
}

FC_TEST("rsa_edge", test_edge_input_range)
{
    const tkey *k = ossl_key(1);
    const size_t len = k->len[C_N];
    fc_rsa_key *key = import_list(k, 1, 1, selected());
    uint8_t in[MAXB], out[MAXB], keep[MAXB];

    (void)state;
    /* in = n, n + 1, all ones: refused by both operations, out untouched. */
    for (int kind = 0; kind < 3; kind++) {
        if (kind == 2) {
            memset(in, 0xff, len);
        } else {
            unsigned carry = (unsigned)kind; /* n + kind < 2^(8 len) */
            memcpy(in, k->c[C_N], len);
            for (size_t i = len; i-- > 0;) {
                carry += in[i];
                in[i] = (uint8_t)carry;
                carry >>= 8;
            }
        }
        fc_test_rand_bytes(out, len);
        memcpy(keep, out, len);
        assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 0);
        assert_int_equal(fc_rsa_public(key, out, in), 0);
        expect_bytes("out after refused input", out, keep, len);
    }
    /* In place. */
    make_input(in, k, 0);
    memcpy(keep, in, len);
    assert_int_equal(fc_rsa_private(key, in, in, test_rng, NULL), 1);
    assert_int_equal(fc_rsa_public(key, in, in), 1);
    expect_bytes("in-place round trip", in, keep, len);
    fc_rsa_key_free(key);
}

/* A corrupted private part gives a wrong result, which the check before
 * release must catch: 0 returned, zeros out, never the faulty value. */
FC_TEST("rsa_edge", test_edge_fault_check)
{
    const tkey *k0 = ossl_key(1);
    const size_t len = k0->len[C_N];
    static const int parts[] = {C_DP, C_DQ, C_QI, C_D};
    uint8_t in[MAXB], out[MAXB], zero[MAXB] = {0};

    (void)state;
    for (size_t i = 0; i < FC_ARRAY_LEN(parts); i++) {
        tkey k = *k0; /* shallow: only the corrupted part is replaced */
        uint8_t *bad = malloc(k.len[parts[i]]);
        fc_rsa_key *key;
        int crt = parts[i] != C_D;

        assert_non_null(bad);
        memcpy(bad, k.c[parts[i]], k.len[parts[i]]);
        bad[k.len[parts[i]] / 2] ^= 0x10;
        k.c[parts[i]] = bad;
        key = import_list(&k, !crt, crt, selected());
        for (int j = 0; j < 3; j++) {
            make_input(in, &k, j == 0 ? 0 : 5);
            memset(out, 0xa5, len);
            assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 0);
            expect_bytes("output after a failed check", out, zero, len);
        }
        fc_rsa_key_free(key);
        free(bad);
    }
}

/*
 * CRT values that are valid but unreduced (dp + (p - 1), dq + (q - 1),
 * qinv + p) are taken and give OpenSSL's result, and come back out as
 * given; a CRT value that does not belong to the key, with d present, is
 * retried through d and gives the right result too.
 */
FC_TEST("rsa_edge", test_edge_crt_unreduced_retry)
{
    const tkey *k0 = ossl_key(1);
    const size_t len = k0->len[C_N];
    uint8_t in[MAXB], out[MAXB], want[MAXB], comp[MAXB];
    BIGNUM *p = BN_bin2bn(k0->c[C_P], (int)k0->len[C_P], NULL);
    BIGNUM *q = BN_bin2bn(k0->c[C_Q], (int)k0->len[C_Q], NULL);

    (void)state;
    assert_non_null(p);
    assert_non_null(q);
    for (int which = 0; which < 4; which++) {
        tkey k = *k0; /* shallow: the changed parts are replaced */
        BIGNUM *v[3];
        fc_rsa_key *key;

        v[0] = BN_bin2bn(k0->c[C_DP], (int)k0->len[C_DP], NULL);
        v[1] = BN_bin2bn(k0->c[C_DQ], (int)k0->len[C_DQ], NULL);
        v[2] = BN_bin2bn(k0->c[C_QI], (int)k0->len[C_QI], NULL);
        if (which == 0 || which == 3)
            assert_true(BN_add(v[0], v[0], p) && BN_sub_word(v[0], 1));
        if (which == 1 || which == 3)
            assert_true(BN_add(v[1], v[1], q) && BN_sub_word(v[1], 1));
        if (which == 2 || which == 3)
            assert_true(BN_add(v[2], v[2], p));
        tkey_set_bn(&k, C_DP, v[0]);
        tkey_set_bn(&k, C_DQ, v[1]);
        tkey_set_bn(&k, C_QI, v[2]);
        for (int with_d = 0; with_d <= 1; with_d++) {
            size_t clen;
            key = import_list(&k, with_d, 1, selected());
            for (int j = 0; j < 3; j++) {
                make_input(in, &k, j);
                ossl_raw(k0->pkey, 1, want, in, len);
                assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL),
                                 1);
                expect_bytes("unreduced CRT values", out, want, len);
            }
            for (int c = C_DP; c <= C_QI; c++) {
                assert_int_equal(fc_rsa_get_component(key, comp_letter[c], comp,
                                                      sizeof(comp), &clen),
                                 1);
                expect_bytes("component as imported", comp, k.c[c], clen);
                assert_int_equal(clen, k.len[c]);
            }
            fc_rsa_key_free(key);
        }
        for (int i = 0; i < 3; i++)
            BN_free(v[i]);
        free(k.c[C_DP]);
        free(k.c[C_DQ]);
        free(k.c[C_QI]);
    }
    /* A wrong dp, dq or qinv next to a correct d. */
    for (int part = C_DP; part <= C_QI; part++) {
        tkey k = *k0;
        uint8_t *bad = malloc(k.len[part]);
        fc_rsa_key *key;

        assert_non_null(bad);
        memcpy(bad, k.c[part], k.len[part]);
        bad[k.len[part] / 2] ^= 0x10;
        k.c[part] = bad;
        key = import_list(&k, 1, 1, selected());
        for (int j = 0; j < 3; j++) {
            make_input(in, &k, j == 0 ? 0 : 5);
            ossl_raw(k0->pkey, 1, want, in, len);
            assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 1);
            expect_bytes("retried through d", out, want, len);
        }
        fc_rsa_key_free(key);
        free(bad);
    }
    BN_free(p);
    BN_free(q);
}

static void expect_refused(const char *what, const fc_rsa_components *c)
{
    const char *why = NULL;
    fc_rsa_key *key = fc_rsa_key_new(c, selected(), &why);

    if (key != NULL) {
        fc_rsa_key_free(key);
        fail_msg("import accepted: %s", what);
    }
    assert_non_null(why);
    print_message("; refused (%s): %s\n", what, why);
}

FC_TEST("rsa_edge", test_edge_bad_imports)
{
    const tkey *k = ossl_key(0);
    const size_t len = k->len[C_N];
    fc_rsa_components c;
    uint8_t buf[2 * MAXB + 8], buf2[MAXB];
    static const uint8_t one[] = {1}, two[] = {2}, e3[] = {3};

    (void)state;
    c = tkey_comps(k, 1, 1);
    c.n = NULL;
    expect_refused("no n", &c);
    c = tkey_comps(k, 1, 1);
    c.e = NULL;
    expect_refused("no e", &c);
    /* even n */
    c = tkey_comps(k, 0, 0);
    memcpy(buf, k->c[C_N], len);
    buf[len - 1] ^= 1;
    c.n = buf;
    expect_refused("even n", &c);
    /* 504-bit n */
    c = tkey_comps(k, 0, 0);
    c.n_len = 63;
    c.e = e3;
    c.e_len = 1;
    expect_refused("504-bit n", &c);
    /* 8200-bit n: beyond the bignum layer */
    memset(buf, 0xff, 1026);
    buf[0] = 0x01;
    c = tkey_comps(k, 0, 0);
    c.n = buf;
    c.n_len = 1026;
    expect_refused("8200-bit n", &c);
    /* 16392-bit n: beyond rsa.h */
    memset(buf, 0xff, 2049);
    c.n_len = 2049;
    expect_refused("16392-bit n", &c);
    /* e = 1, e = 2, e = n, e > n */
    c = tkey_comps(k, 0, 0);
    c.e = one;
    c.e_len = 1;
    expect_refused("e = 1", &c);
    c.e = two;
    expect_refused("e = 2", &c);
    c.e = k->c[C_N];
    c.e_len = len;
    expect_refused("e = n", &c);
    memset(buf2, 0xff, len);
    c.e = buf2;
    expect_refused("e > n", &c);
    /* incomplete CRT sets */
    c = tkey_comps(k, 1, 1);
    c.qinv = NULL;
    expect_refused("CRT without qinv", &c);
    c = tkey_comps(k, 1, 1);
    c.p = NULL;
    expect_refused("CRT without p", &c);
    /* p * q != n: p replaced by p + 2 */
    c = tkey_comps(k, 1, 1);
    memcpy(buf, k->c[C_P], k->len[C_P]);
    buf[k->len[C_P] - 1] = (uint8_t)(buf[k->len[C_P] - 1] + 2);
    if (buf[k->len[C_P] - 1] < 2)
        buf[k->len[C_P] - 2]++;
    c.p = buf;
    expect_refused("p * q != n", &c);
    /* even p */
    buf[k->len[C_P] - 1] = (uint8_t)(k->c[C_P][k->len[C_P] - 1] ^ 1);
    memcpy(buf, k->c[C_P], k->len[C_P] - 1);
    expect_refused("even p", &c);
    /* d >= n */
    c = tkey_comps(k, 1, 0);
    memset(buf2, 0xff, len);
    c.d = buf2;
    c.d_len = len;
    expect_refused("d >= n", &c);
    c.d_len = len + 1;
    expect_refused("d longer than n", &c);

    /* Accepted: leading zero bytes anywhere, public-only keys. */
    {
        fc_rsa_key *key;
        uint8_t nz[MAXB + 3];
        memset(nz, 0, 3);
        memcpy(nz + 3, k->c[C_N], len);
        c = tkey_comps(k, 1, 1);
        c.n = nz;
        c.n_len = len + 3;
        key = fc_rsa_key_new(&c, selected(), NULL);
        assert_non_null(key);
        assert_int_equal(fc_rsa_size(key), len);
        fc_rsa_key_free(key);
        c = tkey_comps(k, 0, 0);
        key = fc_rsa_key_new(&c, selected(), NULL);
        assert_non_null(key);
        assert_int_equal(fc_rsa_has_private(key), 0);
        assert_int_equal(fc_rsa_has_crt(key), 0);
        make_input(buf, k, 0);
        assert_int_equal(fc_rsa_private(key, buf2, buf, test_rng, NULL), 0);
        assert_int_equal(fc_rsa_public(key, buf2, buf), 1);
        fc_rsa_key_free(key);
    }
    fc_rsa_key_free(NULL);
}

FC_TEST("rsa_edge", test_edge_components_dup)
{
    const tkey *k = ossl_key(1);
    const size_t len = k->len[C_N];
    fc_rsa_key *key = import_list(k, 1, 1, selected()), *dup;
    uint8_t out[MAXB], in[MAXB], want[MAXB];
    size_t olen;

    (void)state;
    for (int i = 0; i < C_COUNT; i++) {
        assert_int_equal(
            fc_rsa_get_component(key, comp_letter[i], out, sizeof out, &olen),
            1);
        assert_int_equal(olen, k->len[i]);
        expect_bytes("component", out, k->c[i], olen);
        /* One byte short: refused. */
        assert_int_equal(fc_rsa_get_component(key, comp_letter[i], out,
                                              k->len[i] - 1, &olen),
                         0);
    }
    assert_int_equal(fc_rsa_get_component(key, 'x', out, sizeof out, &olen), 0);
    /* The copy outlives the original and works on its own. */
    for (int i = 0; i < 3; i++) {
        make_input(in, k, 0);
        assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 1);
    }
    dup = fc_rsa_key_dup(key);
    assert_non_null(dup);
    fc_rsa_key_free(key);
    for (int i = 0; i < 3; i++) {
        make_input(in, k, 0);
        ossl_raw(k->pkey, 1, want, in, len);
        assert_int_equal(fc_rsa_private(dup, out, in, test_rng, NULL), 1);
        expect_bytes("duplicate private", out, want, len);
    }
    fc_rsa_key_free(dup);

    /* A public-only key has no private components, a no-CRT one no p. */
    key = import_list(k, 1, 0, selected());
    assert_int_equal(fc_rsa_get_component(key, 'd', out, sizeof out, &olen), 1);
    assert_int_equal(fc_rsa_get_component(key, 'p', out, sizeof out, &olen), 0);
    assert_int_equal(fc_rsa_get_component(key, 'i', out, sizeof out, &olen), 0);
    dup = fc_rsa_key_dup(key);
    assert_non_null(dup);
    make_input(in, k, 0);
    ossl_raw(k->pkey, 1, want, in, len);
    assert_int_equal(fc_rsa_private(dup, out, in, test_rng, NULL), 1);
    expect_bytes("duplicate no-CRT private", out, want, len);
    fc_rsa_key_free(dup);
    fc_rsa_key_free(key);
}

/* RNG failure makes the operation fail; the blinding pair lasts 32 uses
 * (squared in between), then a fresh one is drawn. */
FC_TEST("rsa_edge", test_edge_rng_blinding)
{
    const tkey *k = ossl_key(0);
    const size_t len = k->len[C_N];
    fc_rsa_key *key = import_list(k, 1, 1, selected());
    uint8_t in[MAXB], out[MAXB], want[MAXB];
    unsigned long before;

    (void)state;
    make_input(in, k, 0);
    ossl_raw(k->pkey, 1, want, in, len);
    __atomic_store_n(&rng_fail, 1, __ATOMIC_SEQ_CST);
    assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 0);
    assert_int_equal(fc_rsa_private(key, out, in, NULL, NULL), 0);
    __atomic_store_n(&rng_fail, 0, __ATOMIC_SEQ_CST);

    before = rng_count();
    for (int i = 0; i < 32; i++) {
        assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 1);
        expect_bytes("blinded private", out, want, len);
    }
    assert_int_equal(rng_count() - before, 1);
    assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 1);
    expect_bytes("blinded private after refresh", out, want, len);
    assert_int_equal(rng_count() - before, 2);
    fc_rsa_key_free(key);
}

/*
 * Import and the private operation with d, p, q, dp, dq, qinv, the input
 * and the blinding randomness marked secret: in the FC_CT_VALGRIND build,
 * valgrind reports any branch or memory index that depends on them. Only
 * lengths may leak (fc/rsa.h, fc/bn.h: a Montgomery context declassifies
 * the bit length of its modulus and whether it is refused), so each
 * component's first byte stays public: import strips leading zero bytes.
 */
FC_TEST("rsa_edge", test_edge_ct_marked)
{
    const tkey *k0 = ossl_key(1);
    const size_t len = k0->len[C_N];
    static const int secret[] = {C_D, C_P, C_Q, C_DP, C_DQ, C_QI};
    uint8_t in[MAXB], out[MAXB], want[MAXB];
    size_t count;
    const fc_rsa_engine *const *tab = fc_rsa_engine_impls(&count);
    const fc_rsa_engine *ops;

    (void)state;
    FC_TEST_FOREACH_IMPL("rsa engine", tab, count, ops)
    {
        for (int crt = 1; crt >= 0; crt--) {
            tkey k = *k0; /* shallow; marked copies of the secret parts */
            uint8_t *copies[FC_ARRAY_LEN(secret)];
            fc_rsa_key *key;
            for (size_t i = 0; i < FC_ARRAY_LEN(secret); i++) {
                const int w = secret[i];
                copies[i] = malloc(k.len[w]);
                assert_non_null(copies[i]);
                memcpy(copies[i], k.c[w], k.len[w]);
                FC_CT_SECRET(copies[i] + 1, k.len[w] - 1);
                k.c[w] = copies[i];
            }
            key = import(&k, !crt, crt, ops);
            rng_secret = 1;
            for (int j = 0; j < 3; j++) {
                make_input(in, &k, j == 0 ? 3 : 0);
                ossl_raw(k.pkey, 1, want, in, len);
                FC_CT_SECRET(in, len);
                assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL),
                                 1);
                FC_CT_PUBLIC(out, len);
                expect_bytes("secret-marked private", out, want, len);
            }
            rng_secret = 0;
            fc_rsa_key_free(key);
            for (size_t i = 0; i < FC_ARRAY_LEN(secret); i++)
                free(copies[i]);
        }
    }
}

/* ---- concurrency and fork ---------------------------------------------- */

#define MT_THREADS 4
#define MT_OPS     24

typedef struct mt_job {
    fc_rsa_key *key;
    const uint8_t *in, *want; /* MT_OPS inputs / outputs */
    size_t len;
    int failures;
} mt_job;

/* ---- engine choice ------------------------------------------------------ */

/* An engine that refuses every size and counts how often it was asked. */
static unsigned long refuser_calls;

static int refuser_takes(size_t pl, size_t ql)
{
    (void)pl;
    (void)ql;
    __atomic_fetch_add(&refuser_calls, 1, __ATOMIC_SEQ_CST);
    return 0;
}

static const fc_rsa_engine refuser = {
    .name = "refuser",
    .takes = refuser_takes,
    .exp2 = fc_rsa_exp2_scalar,
};

/* |list| with |first| put in front. */
static fc_rsa_engines list_after(const fc_rsa_engine *first,
                                 const fc_rsa_engines *list)
{
    fc_rsa_engines l;

    memset(&l, 0, sizeof(l));
    l.e[l.count++] = first;
    for (size_t i = 0; i < list->count && l.count < FC_RSA_MAX_ENGINES; i++)
        l.e[l.count++] = list->e[i];
    snprintf(l.names, sizeof(l.names), "%.15s,%.79s", first->name, list->names);
    return l;
}

/* A key of |bits| bits from OpenSSL, used through |list|: its engine and
 * kernels are the first of the list that take its sizes, and it computes
 * what OpenSSL computes. */
static void choice_check(size_t bits, const fc_rsa_engines *list)
{
    EVP_PKEY *pkey = EVP_RSA_gen((unsigned)bits);
    tkey k;
    fc_rsa_key *key;
    size_t pl, ql, nl = (bits + 63) / 64;
    uint8_t in[MAXB], out[MAXB], want[MAXB];
    const fc_rsa_engine *want_e;

    assert_non_null(pkey);
    memset(&k, 0, sizeof(k));
    k.bits = bits;
    tkey_from_pkey(&k, pkey);
    pl = (k.len[C_P] * 8 + 63) / 64;
    ql = (k.len[C_Q] * 8 + 63) / 64;
    key = import_list(&k, 1, 1, list);
    want_e = NULL;
    for (size_t i = 0; i < list->count && want_e == NULL; i++)
        if (fc_rsa_engine_takes(list->e[i], pl, ql))
            want_e = list->e[i];
    assert_ptr_equal(fc_rsa_key_engine(key), want_e);
    assert_ptr_equal(fc_rsa_key_kernels(key, 'n'),
                     fc_rsa_kernels_for(list, nl));
    assert_ptr_equal(fc_rsa_key_kernels(key, 'p'),
                     fc_rsa_kernels_for(list, pl));
    assert_ptr_equal(fc_rsa_key_kernels(key, 'q'),
                     fc_rsa_kernels_for(list, ql));
    print_message("[   INFO   ] RSA-%zu (%zu-limb halves) on [%s]: engine %s, "
                  "kernels n %s, p %s\n",
                  bits, pl, list->names, want_e->name,
                  fc_rsa_key_kernels(key, 'n')->name,
                  fc_rsa_key_kernels(key, 'p')->name);
    for (int i = 0; i < 2; i++) {
        make_input(in, &k, i);
        ossl_raw(pkey, 1, want, in, k.len[C_N]);
        assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 1);
        expect_bytes("engine choice private", out, want, k.len[C_N]);
    }
    fc_rsa_key_free(key);
    tkey_free(&k);
}

/*
 * The key's engine is chosen once, at import: an engine asked at import is
 * not asked again by private operations, public ones or a copy; a size an
 * engine refuses goes to the next engine of the list, not to the portable
 * one (RSA-1536's 12-limb halves: no vector engine has kernels for them,
 * MULX does), and to the portable engine only when nothing else takes it
 * (RSA-1088: 9-limb halves).
 */
FC_TEST("rsa_edge", test_edge_engine_choice)
{
    const tkey *k = ossl_key(1);
    fc_rsa_engines all, l;
    fc_rsa_key *key, *dup;
    uint8_t in[MAXB], out[MAXB];
    unsigned long before;

    (void)state;
    /* once per key */
    l = list_after(&refuser, selected());
    before = __atomic_load_n(&refuser_calls, __ATOMIC_SEQ_CST);
    key = import_list(k, 1, 1, &l);
    assert_int_equal(__atomic_load_n(&refuser_calls, __ATOMIC_SEQ_CST),
                     before + 1);
    assert_ptr_equal(fc_rsa_key_engine(key),
                     fc_rsa_engine_for(selected(), 16, 16));
    for (int i = 0; i < 4; i++) {
        make_input(in, k, 0);
        assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 1);
        assert_int_equal(fc_rsa_public(key, out, in), 1);
    }
    dup = fc_rsa_key_dup(key);
    assert_non_null(dup);
    assert_int_equal(fc_rsa_private(dup, out, in, test_rng, NULL), 1);
    assert_ptr_equal(fc_rsa_key_engine(dup), fc_rsa_key_engine(key));
    assert_int_equal(__atomic_load_n(&refuser_calls, __ATOMIC_SEQ_CST),
                     before + 1);
    fc_rsa_key_free(dup);
    fc_rsa_key_free(key);

    /* every engine this CPU runs, vector engines first (the table's order
     * would put MULX before AVX2: put AVX2 first so it gets to refuse) */
    fc_rsa_engines_init(&all, fc_test_caps(), "ifma,avx2,mulx");
    choice_check(2048, &all);
    choice_check(1536, &all);
    choice_check(1088, &all);
    l = list_after(&refuser, &all);
    choice_check(1536, &l);
    {
        const fc_rsa_engine *mulx = NULL;

        for (size_t i = 0; i < all.count; i++)
            if (strcmp(all.e[i]->name, "mulx") == 0)
                mulx = all.e[i];
        if (mulx != NULL) {
            assert_ptr_equal(fc_rsa_engine_for(&all, 12, 12), mulx);
            assert_ptr_equal(fc_rsa_kernels_for(&all, 12), mulx->kernels);
        } else {
            print_message("[  SKIPPED ] MULX fallback: the CPU (or mask) has "
                          "no MULX engine\n");
        }
        assert_string_equal(fc_rsa_engine_for(&all, 9, 9)->name, "generic");
    }
}

static void *mt_worker(void *arg)
{
    mt_job *job = arg;
    uint8_t out[MAXB];

    for (int i = 0; i < MT_OPS; i++) {
        const uint8_t *in = job->in + (size_t)i * job->len;
        if (fc_rsa_private(job->key, out, in, test_rng, NULL) != 1 ||
            memcmp(out, job->want + (size_t)i * job->len, job->len) != 0)
            job->failures++;
    }
    return NULL;
}

FC_TEST("rsa_edge", test_edge_threads)
{
    const tkey *k = ossl_key(1);
    const size_t len = k->len[C_N];
    uint8_t *in = malloc(MT_THREADS * MT_OPS * len);
    uint8_t *want = malloc(MT_THREADS * MT_OPS * len);
    pthread_t th[MT_THREADS];
    mt_job jobs[MT_THREADS];

    (void)state;
    assert_non_null(in);
    assert_non_null(want);
    for (size_t i = 0; i < MT_THREADS * MT_OPS; i++) {
        make_input(in + i * len, k, 0);
        ossl_raw(k->pkey, 1, want + i * len, in + i * len, len);
    }
    for (int crt = 1; crt >= 0; crt--) {
        fc_rsa_key *key = import_list(k, !crt, crt, selected());
        for (int t = 0; t < MT_THREADS; t++) {
            jobs[t] = (mt_job){key, in + (size_t)t * MT_OPS * len,
                               want + (size_t)t * MT_OPS * len, len, 0};
            assert_int_equal(pthread_create(&th[t], NULL, mt_worker, &jobs[t]),
                             0);
        }
        for (int t = 0; t < MT_THREADS; t++) {
            assert_int_equal(pthread_join(th[t], NULL), 0);
            if (jobs[t].failures)
                fail_msg("thread %d: %d wrong results (%s)", t,
                         jobs[t].failures, crt ? "CRT" : "no-CRT");
        }
        fc_rsa_key_free(key);
    }
    free(in);
    free(want);
}

/* The child inherits the parent's blinding pair; its first operation must
 * draw a fresh one (and every result must be right). Exit codes: 0 ok,
 * 2 wrong result, 3 no fresh draw. */
FC_TEST("rsa_edge", test_edge_fork)
{
    const tkey *k = ossl_key(1);
    const size_t len = k->len[C_N];
    fc_rsa_key *key = import_list(k, 1, 1, selected());
    uint8_t in[4][MAXB], want[4][MAXB], out[MAXB];
    int status;
    pid_t pid;

    (void)state;
    for (int i = 0; i < 4; i++) {
        make_input(in[i], k, 0);
        ossl_raw(k->pkey, 1, want[i], in[i], len);
    }
    /* Parent: a live blinding pair with uses left. */
    assert_int_equal(fc_rsa_private(key, out, in[0], test_rng, NULL), 1);
    expect_bytes("parent before fork", out, want[0], len);

    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int code = 0;
        unsigned long before = rng_count();
        for (int i = 0; i < 4; i++)
            if (fc_rsa_private(key, out, in[i], test_rng, NULL) != 1 ||
                memcmp(out, want[i], len) != 0)
                code = 2;
        if (code == 0 && rng_count() == before)
            code = 3;
        _exit(code);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) != 0)
        fail_msg("fork child failed with code %d", WEXITSTATUS(status));
    /* The parent still works, on its own pair. */
    for (int i = 0; i < 4; i++) {
        assert_int_equal(fc_rsa_private(key, out, in[i], test_rng, NULL), 1);
        expect_bytes("parent after fork", out, want[i], len);
    }
    fc_rsa_key_free(key);
}

/* ---- lazy per-key state ------------------------------------------------- */

/* An engine that runs |counted_inner| and counts how often its per-key
 * state is made: the key's first use makes it, once, whoever races. */
static const fc_rsa_engine *counted_inner;
static unsigned long counted_pre;

static int counted_takes(size_t pl, size_t ql)
{
    return fc_rsa_engine_takes(counted_inner, pl, ql);
}

static void *counted_pre_new(const fc_mont *mp, const fc_mont *mq)
{
    __atomic_fetch_add(&counted_pre, 1, __ATOMIC_SEQ_CST);
    /* engines without state get a token, freed by counted_pre_free */
    return counted_inner->pre_new != NULL ? counted_inner->pre_new(mp, mq)
                                          : malloc(1);
}

static void counted_pre_free(void *pre)
{
    if (counted_inner->pre_new != NULL)
        counted_inner->pre_free(pre);
    else
        free(pre);
}

static void *counted_pre_dup(const void *pre)
{
    return counted_inner->pre_new != NULL ? counted_inner->pre_dup(pre)
                                          : malloc(1);
}

static int counted_exp2(const void *pre, const fc_mont *mp, uint64_t *rp,
                        const uint64_t *ap, const uint64_t *ep, size_t epbits,
                        const fc_mont *mq, uint64_t *rq, const uint64_t *aq,
                        const uint64_t *eq, size_t eqbits)
{
    if (counted_inner->pre_new == NULL)
        pre = NULL;
    return counted_inner->exp2(pre, mp, rp, ap, ep, epbits, mq, rq, aq, eq,
                               eqbits);
}

static const fc_rsa_engine counted = {
    .name = "counted",
    .takes = counted_takes,
    .pre_new = counted_pre_new,
    .pre_free = counted_pre_free,
    .pre_dup = counted_pre_dup,
    .exp2 = counted_exp2,
};

static unsigned long counted_count(void)
{
    return __atomic_load_n(&counted_pre, __ATOMIC_SEQ_CST);
}

typedef struct lazy_job {
    fc_rsa_key *key;
    const tkey *k;
    const uint8_t *in, *want; /* 2 inputs and results, MAXB bytes apart */
    pthread_barrier_t *go;
    int failures;
} lazy_job;

static void *lazy_worker(void *arg)
{
    lazy_job *job = arg;
    const size_t len = job->k->len[C_N];
    uint8_t out[MAXB], back[MAXB];

    pthread_barrier_wait(job->go);
    for (int i = 0; i < 2; i++) {
        if (fc_rsa_private(job->key, out, job->in + i * MAXB, test_rng, NULL) !=
                1 ||
            memcmp(out, job->want + i * MAXB, len) != 0)
            job->failures++;
        if (fc_rsa_public(job->key, back, out) != 1 ||
            memcmp(back, job->in + i * MAXB, len) != 0)
            job->failures++;
    }
    return NULL;
}

/*
 * Import leaves the per-key state (Montgomery contexts, reduced exponents,
 * the CRT engine's constants) to the first operation: none is made at
 * import, one set is made when 8 threads start on a fresh key at once
 * (public and private operations mixed), and a child forked before the
 * first use makes its own and computes right, as does its parent after it.
 * A copy of a prepared key works without making another, one of a fresh
 * key makes its own.
 */
FC_TEST("rsa_edge", test_edge_lazy_prepare)
{
    enum { NT = 8 };
    const tkey *k = ossl_key(1);
    const size_t len = k->len[C_N];
    fc_rsa_engines l;
    fc_rsa_key *key, *dup;
    uint8_t in[NT][2][MAXB], want[NT][2][MAXB], out[MAXB];
    pthread_t th[NT];
    lazy_job jobs[NT];
    pthread_barrier_t go;
    unsigned long before;
    int status;
    pid_t pid;

    (void)state;
    counted_inner = fc_rsa_engine_for(selected(), 16, 16);
    l = list_after(&counted, selected());
    for (int t = 0; t < NT; t++)
        for (int i = 0; i < 2; i++) {
            make_input(in[t][i], k, 0);
            ossl_raw(k->pkey, 1, want[t][i], in[t][i], len);
        }

    /* threads on a fresh key */
    before = counted_count();
    key = import_list(k, 0, 1, &l);
    assert_ptr_equal(fc_rsa_key_engine(key), &counted);
    assert_int_equal(counted_count(), before);
    assert_int_equal(pthread_barrier_init(&go, NULL, NT), 0);
    for (int t = 0; t < NT; t++) {
        jobs[t] = (lazy_job){key, k, in[t][0], want[t][0], &go, 0};
        assert_int_equal(pthread_create(&th[t], NULL, lazy_worker, &jobs[t]),
                         0);
    }
    for (int t = 0; t < NT; t++) {
        assert_int_equal(pthread_join(th[t], NULL), 0);
        if (jobs[t].failures)
            fail_msg("thread %d: %d wrong results on a fresh key", t,
                     jobs[t].failures);
    }
    pthread_barrier_destroy(&go);
    assert_int_equal(counted_count(), before + 1);
    /* a copy of a prepared key brings the state along (copied, not made) */
    dup = fc_rsa_key_dup(key);
    assert_non_null(dup);
    fc_rsa_key_free(key);
    assert_int_equal(fc_rsa_private(dup, out, in[0][0], test_rng, NULL), 1);
    expect_bytes("copy of a prepared key", out, want[0][0], len);
    fc_rsa_key_free(dup);

    /* a public key: threads, nothing but n's context to make */
    key = import_list(k, 0, 0, &l);
    for (int t = 0; t < NT; t++) {
        uint8_t back[MAXB];

        assert_int_equal(fc_rsa_public(key, back, want[t][0]), 1);
        expect_bytes("public key", back, in[t][0], len);
    }
    fc_rsa_key_free(key);

    /* fork before the first use: the child prepares its own copy */
    key = import_list(k, 0, 1, &l);
    dup = fc_rsa_key_dup(key); /* fresh: makes its own state */
    before = counted_count();
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int code = 0;

        for (int i = 0; i < 2; i++)
            if (fc_rsa_private(key, out, in[1][i], test_rng, NULL) != 1 ||
                memcmp(out, want[1][i], len) != 0)
                code = 2;
        if (code == 0 && counted_count() != before + 1)
            code = 3;
        fc_rsa_key_free(dup);
        fc_rsa_key_free(key);
        _exit(code);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) != 0)
        fail_msg("child of a fresh key failed with code %d",
                 WEXITSTATUS(status));
    assert_int_equal(counted_count(), before);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(fc_rsa_private(key, out, in[2][i], test_rng, NULL), 1);
        expect_bytes("parent after the child's first use", out, want[2][i],
                     len);
        assert_int_equal(fc_rsa_private(dup, out, in[3][i], test_rng, NULL), 1);
        expect_bytes("copy of a fresh key", out, want[3][i], len);
    }
    assert_int_equal(counted_count(), before + 2);
    fc_rsa_key_free(dup);
    fc_rsa_key_free(key);
}

/* ---- rsa_keygen --------------------------------------------------------- */

/* Builds OpenSSL's view of |key| from its components. */
static EVP_PKEY *pkey_from_fc(const fc_rsa_key *key, tkey *tk)
{
    static const char *const names[C_COUNT] = {
        OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,
        OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
        OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
        OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
    };
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    BIGNUM *bn[C_COUNT];
    OSSL_PARAM *params;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    EVP_PKEY *pkey = NULL;

    assert_non_null(bld);
    assert_non_null(ctx);
    memset(tk, 0, sizeof(*tk));
    tk->bits = fc_rsa_bits(key);
    for (int i = 0; i < C_COUNT; i++) {
        uint8_t buf[MAXB];
        size_t len;
        assert_int_equal(
            fc_rsa_get_component(key, comp_letter[i], buf, sizeof buf, &len),
            1);
        bn[i] = BN_bin2bn(buf, (int)len, NULL);
        assert_non_null(bn[i]);
        tkey_set_bn(tk, i, bn[i]);
        assert_int_equal(OSSL_PARAM_BLD_push_BN(bld, names[i], bn[i]), 1);
    }
    params = OSSL_PARAM_BLD_to_param(bld);
    assert_non_null(params);
    assert_int_equal(EVP_PKEY_fromdata_init(ctx), 1);
    assert_int_equal(EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_KEYPAIR, params),
                     1);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    EVP_PKEY_CTX_free(ctx);
    for (int i = 0; i < C_COUNT; i++)
        BN_clear_free(bn[i]);
    tk->pkey = pkey;
    return pkey;
}

static void keygen_check(size_t bits, const uint8_t *e, size_t elen,
                         const fc_rsa_engine *ops, int inputs)
{
    fc_rsa_engines list = engine_list(ops);
    fc_rsa_key *key = fc_rsa_generate(bits, 2, e, elen, &list, test_rng, NULL);
    EVP_PKEY_CTX *ctx;
    tkey tk;
    uint8_t in[MAXB], out[MAXB], want[MAXB];
    BIGNUM *p, *q, *diff, *d;

    if (key == NULL)
        fail_msg("fc_rsa_generate(%zu) failed", bits);
    assert_int_equal(fc_rsa_bits(key), bits);
    assert_int_equal(fc_rsa_has_crt(key), 1);
    pkey_from_fc(key, &tk);
    assert_int_equal(EVP_PKEY_get_bits(tk.pkey), (int)bits);
    ctx = EVP_PKEY_CTX_new_from_pkey(NULL, tk.pkey, NULL);
    assert_non_null(ctx);
    assert_int_equal(EVP_PKEY_public_check(ctx), 1);
    assert_int_equal(EVP_PKEY_private_check(ctx), 1);
    assert_int_equal(EVP_PKEY_pairwise_check(ctx), 1);
    assert_int_equal(EVP_PKEY_check(ctx), 1); /* primality, d, CRT parts */
    EVP_PKEY_CTX_free(ctx);

    /* FIPS 186-5 A.1.3 conditions: |p - q| > 2^(bits/2 - 100), both
     * factors of the half size with the top bit set, d > 2^(bits/2),
     * e as asked. */
    p = BN_bin2bn(tk.c[C_P], (int)tk.len[C_P], NULL);
    q = BN_bin2bn(tk.c[C_Q], (int)tk.len[C_Q], NULL);
    d = BN_bin2bn(tk.c[C_D], (int)tk.len[C_D], NULL);
    diff = BN_new();
    assert_true(BN_sub(diff, p, q));
    BN_set_negative(diff, 0);
    assert_true(BN_num_bits(diff) > (int)(bits / 2 - 100));
    assert_int_equal(BN_num_bits(p), (int)((bits + 1) / 2));
    assert_int_equal(BN_num_bits(q), (int)(bits / 2));
    assert_true(BN_num_bits(d) > (int)(bits / 2));
    assert_int_equal(tk.len[C_E], elen);
    assert_memory_equal(tk.c[C_E], e, elen);
    BN_free(p);
    BN_free(q);
    BN_free(d);
    BN_free(diff);

    for (int i = 0; i < inputs; i++) {
        make_input(in, &tk, i == 0 ? 3 : 0);
        ossl_raw(tk.pkey, 1, want, in, tk.len[C_N]);
        assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 1);
        expect_bytes("generated key private", out, want, tk.len[C_N]);
    }
    fc_rsa_key_free(key);
    tkey_free(&tk);
}

FC_TEST("rsa_keygen", test_keygen)
{
    static const uint8_t f4[] = {0x01, 0x00, 0x01};
    static const uint8_t e3[] = {0x03};
    /* A 2^80-ish odd e (FIPS allows up to 2^256). */
    static const uint8_t ebig[] = {0x01, 0x23, 0x45, 0x67, 0x89,
                                   0xab, 0xcd, 0xef, 0x10, 0x01};
    const int quick = fc_test_quick();
    size_t count;
    const fc_rsa_engine *const *tab = fc_rsa_engine_impls(&count);
    const fc_rsa_engine *ops;

    (void)state;
    FC_TEST_FOREACH_IMPL("rsa engine", tab, count, ops)
    {
        keygen_check(1024, f4, sizeof f4, ops, 2);
        keygen_check(2048, f4, sizeof f4, ops, 2);
        if (quick)
            continue;
        keygen_check(512, f4, sizeof f4, ops, 2);
        keygen_check(1024, e3, sizeof e3, ops, 2);
        keygen_check(1536, ebig, sizeof ebig, ops, 2);
        keygen_check(1030, f4, sizeof f4, ops, 2); /* 515 + 515 bits */
        keygen_check(1031, f4, sizeof f4, ops, 2); /* 516 + 515 bits */
        keygen_check(3072, f4, sizeof f4, ops, 2);
    }
    /* Refused arguments. */
    assert_null(
        fc_rsa_generate(511, 2, f4, sizeof f4, selected(), test_rng, NULL));
    assert_null(fc_rsa_generate(2048, 2, (const uint8_t *)"\x01\x00\x00", 3,
                                selected(), test_rng, NULL));
    assert_null(fc_rsa_generate(2048, 2, (const uint8_t *)"\x01", 1, selected(),
                                test_rng, NULL));
    assert_null(
        fc_rsa_generate(2048, 2, f4, sizeof f4, selected(), NULL, NULL));
    /* prime counts: 2..3 below 4096 bits, 4 below 8192 */
    assert_null(
        fc_rsa_generate(2048, 1, f4, sizeof f4, selected(), test_rng, NULL));
    assert_null(
        fc_rsa_generate(2048, 4, f4, sizeof f4, selected(), test_rng, NULL));
    assert_null(
        fc_rsa_generate(1000, 3, f4, sizeof f4, selected(), test_rng, NULL));
    __atomic_store_n(&rng_fail, 1, __ATOMIC_SEQ_CST);
    assert_null(
        fc_rsa_generate(1024, 2, f4, sizeof f4, selected(), test_rng, NULL));
    __atomic_store_n(&rng_fail, 0, __ATOMIC_SEQ_CST);
}

/* ---- multi-prime keys (RFC 8017 3.2) ----------------------------------- */

/* A key of up to 5 primes as OpenSSL's components: n, e, d, then the
 * factors, exponents and coefficients (coefficient i for prime i >= 1). */
typedef struct mkey {
    size_t bits, np;
    EVP_PKEY *pkey;
    BIGNUM *n, *e, *d, *r[5], *x[5], *t[5];
    uint8_t *b[3 + 15];
    size_t len[3 + 15];
} mkey;

static const char *const mp_factor[5] = {
    OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
    OSSL_PKEY_PARAM_RSA_FACTOR3, OSSL_PKEY_PARAM_RSA_FACTOR4,
    OSSL_PKEY_PARAM_RSA_FACTOR5};
static const char *const mp_exp[5] = {
    OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
    OSSL_PKEY_PARAM_RSA_EXPONENT3, OSSL_PKEY_PARAM_RSA_EXPONENT4,
    OSSL_PKEY_PARAM_RSA_EXPONENT5};
static const char *const mp_coef[5] = {
    NULL, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, OSSL_PKEY_PARAM_RSA_COEFFICIENT2,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT3, OSSL_PKEY_PARAM_RSA_COEFFICIENT4};

/* The bytes of |bn| in slot |i| of |k|. */
static void mkey_put(mkey *k, size_t i, const BIGNUM *bn)
{
    k->len[i] = (size_t)BN_num_bytes(bn);
    k->b[i] = malloc(k->len[i] + 1);
    assert_non_null(k->b[i]);
    BN_bn2bin(bn, k->b[i]);
}

/* The components of |pkey| (np primes) into |k|. */
static void mkey_from_pkey(mkey *k, EVP_PKEY *pkey, size_t np)
{
    memset(k, 0, sizeof(*k));
    k->pkey = pkey;
    k->np = np;
    k->bits = (size_t)EVP_PKEY_get_bits(pkey);
    assert_true(EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_N, &k->n));
    assert_true(EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_E, &k->e));
    assert_true(EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_D, &k->d));
    for (size_t i = 0; i < np; i++) {
        assert_true(EVP_PKEY_get_bn_param(pkey, mp_factor[i], &k->r[i]));
        assert_true(EVP_PKEY_get_bn_param(pkey, mp_exp[i], &k->x[i]));
        if (i >= 1)
            assert_true(EVP_PKEY_get_bn_param(pkey, mp_coef[i], &k->t[i]));
    }
    mkey_put(k, 0, k->n);
    mkey_put(k, 1, k->e);
    mkey_put(k, 2, k->d);
    for (size_t i = 0; i < np; i++) {
        mkey_put(k, 3 + i, k->r[i]);
        mkey_put(k, 8 + i, k->x[i]);
        if (i >= 1)
            mkey_put(k, 13 + i - 1, k->t[i]);
    }
}

static void mkey_free(mkey *k)
{
    BN_free(k->n);
    BN_free(k->e);
    BN_clear_free(k->d);
    for (size_t i = 0; i < 5; i++) {
        BN_clear_free(k->r[i]);
        BN_clear_free(k->x[i]);
        BN_clear_free(k->t[i]);
    }
    for (size_t i = 0; i < FC_ARRAY_LEN(k->b); i++)
        free(k->b[i]);
    EVP_PKEY_free(k->pkey);
    memset(k, 0, sizeof(*k));
}

/* |k| as fc_rsa_components (with or without d). */
static fc_rsa_components mkey_comps(const mkey *k, int with_d)
{
    fc_rsa_components c;

    memset(&c, 0, sizeof(c));
    c.n = k->b[0], c.n_len = k->len[0];
    c.e = k->b[1], c.e_len = k->len[1];
    if (with_d)
        c.d = k->b[2], c.d_len = k->len[2];
    c.p = k->b[3], c.p_len = k->len[3];
    c.q = k->b[4], c.q_len = k->len[4];
    c.dp = k->b[8], c.dp_len = k->len[8];
    c.dq = k->b[9], c.dq_len = k->len[9];
    c.qinv = k->b[13], c.qinv_len = k->len[13];
    c.extra = k->np - 2;
    for (size_t i = 0; i < c.extra; i++) {
        c.r[i] = k->b[5 + i], c.r_len[i] = k->len[5 + i];
        c.dr[i] = k->b[10 + i], c.dr_len[i] = k->len[10 + i];
        c.tr[i] = k->b[14 + i], c.tr_len[i] = k->len[14 + i];
    }
    return c;
}

/* A |bits|-bit key of |np| primes made by OpenSSL. */
static EVP_PKEY *ossl_multiprime(size_t bits, size_t np)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    EVP_PKEY *pkey = NULL;

    assert_non_null(ctx);
    assert_int_equal(EVP_PKEY_keygen_init(ctx), 1);
    assert_int_equal(EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, (int)bits), 1);
    assert_int_equal(EVP_PKEY_CTX_set_rsa_keygen_primes(ctx, (int)np), 1);
    assert_int_equal(EVP_PKEY_keygen(ctx, &pkey), 1);
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

/* |key| computes what OpenSSL's |pkey| computes, |inputs| times (input
 * kinds of make_input), private and public. */
static void mkey_diff(const mkey *k, fc_rsa_key *key, int inputs,
                      const char *what)
{
    const size_t len = k->len[0];
    uint8_t in[MAXB], out[MAXB], want[MAXB];
    tkey t;

    memset(&t, 0, sizeof(t));
    t.c[C_N] = k->b[0];
    t.len[C_N] = len;
    for (int i = 0; i < inputs; i++) {
        make_input(in, &t, i < 6 ? i : 0);
        ossl_raw(k->pkey, 1, want, in, len);
        if (fc_rsa_private(key, out, in, test_rng, NULL) != 1)
            fail_msg("%s: private operation failed (input kind %d)", what,
                     i < 6 ? i : 0);
        expect_bytes(what, out, want, len);
        ossl_raw(k->pkey, 0, want, in, len);
        assert_int_equal(fc_rsa_public(key, out, in), 1);
        expect_bytes(what, out, want, len);
    }
}

/*
 * Keys of 3, 4 and 5 primes made by OpenSSL, imported with and without d
 * on every engine, against OpenSSL's raw operations; their parts read back
 * as given; an incomplete extra prime refused; a CRT-only multi-prime key
 * whose coefficient does not belong to it caught by the check (zeros out).
 */
FC_TEST("rsa_keygen", test_multiprime_import)
{
    const int quick = fc_test_quick();
    static const struct {
        size_t bits, np;
        int slow;
    } shapes[] = {
        {1024, 3, 0}, {2048, 3, 0}, {3072, 3, 0}, {4096, 4, 1}, {8192, 5, 1}};
    size_t count;
    const fc_rsa_engine *const *tab = fc_rsa_engine_impls(&count);

    (void)state;
    for (size_t s = 0; s < FC_ARRAY_LEN(shapes); s++) {
        mkey k;
        const fc_rsa_engine *ops;

        if (shapes[s].slow && quick && shapes[s].bits > 4096)
            continue;
        mkey_from_pkey(&k, ossl_multiprime(shapes[s].bits, shapes[s].np),
                       shapes[s].np);
        FC_TEST_FOREACH_IMPL("rsa engine", tab, count, ops)
        {
            for (int with_d = 0; with_d <= 1; with_d++) {
                fc_rsa_components c = mkey_comps(&k, with_d);
                fc_rsa_engines l = engine_list(ops);
                const char *why = NULL;
                fc_rsa_key *key = fc_rsa_key_new(&c, &l, &why);
                char what[96];

                if (key == NULL)
                    fail_msg("%zu-prime %zu-bit key refused: %s", k.np, k.bits,
                             why);
                assert_int_equal(fc_rsa_num_primes(key), k.np);
                snprintf(what, sizeof(what), "%zu-prime RSA-%zu (%s)", k.np,
                         k.bits, ops->name);
                mkey_diff(&k, key, quick || shapes[s].slow ? 2 : 6, what);
                /* the parts, as given */
                for (size_t i = 0; i < k.np; i++) {
                    uint8_t buf[MAXB];
                    size_t len;

                    assert_true(fc_rsa_get_prime_part(key, 'r', i, buf,
                                                      sizeof buf, &len));
                    expect_bytes("factor", buf, k.b[3 + i], len);
                    assert_true(fc_rsa_get_prime_part(key, 'd', i, buf,
                                                      sizeof buf, &len));
                    expect_bytes("exponent", buf, k.b[8 + i], len);
                    assert_int_equal(fc_rsa_get_prime_part(key, 't', i, buf,
                                                           sizeof buf, &len),
                                     i >= 1);
                    if (i >= 1)
                        expect_bytes("coefficient", buf, k.b[12 + i], len);
                }
                fc_rsa_key_free(key);
            }
        }
        {
            /* an extra prime without its coefficient: incomplete */
            fc_rsa_components c = mkey_comps(&k, 1);
            const char *why = NULL;

            c.tr[0] = NULL;
            assert_null(fc_rsa_key_new(&c, selected(), &why));
            assert_string_equal(why, "incomplete CRT parameters");
            /* r_3 replaced by another prime: the product check refuses */
            c = mkey_comps(&k, 1);
            c.r[0] = k.b[3];
            c.r_len[0] = k.len[3];
            assert_null(fc_rsa_key_new(&c, selected(), &why));
        }
        {
            /* a wrong t_3 and no d: the check before release answers
             * zeros and failure */
            fc_rsa_components c = mkey_comps(&k, 0);
            uint8_t bad[MAXB], in[MAXB], out[MAXB];
            fc_rsa_key *key;
            tkey t;

            memcpy(bad, k.b[14], k.len[14]);
            bad[k.len[14] - 1] ^= 2;
            c.tr[0] = bad;
            key = fc_rsa_key_new(&c, selected(), NULL);
            assert_non_null(key);
            memset(&t, 0, sizeof(t));
            t.c[C_N] = k.b[0];
            t.len[C_N] = k.len[0];
            make_input(in, &t, 0);
            assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 0);
            for (size_t i = 0; i < k.len[0]; i++)
                assert_int_equal(out[i], 0);
            fc_rsa_key_free(key);
        }
        mkey_free(&k);
    }
}

/* Keys of 3 and 4 primes from fc_rsa_generate, checked by OpenSSL
 * (EVP_PKEY_check: primality, d, the CRT parts) and used against its raw
 * private operation. */
FC_TEST("rsa_keygen", test_multiprime_keygen)
{
    static const uint8_t f4[] = {0x01, 0x00, 0x01};
    static const struct {
        size_t bits, np;
    } shapes[] = {{1024, 3}, {2048, 3}, {2050, 3}, {4096, 4}};
    const int quick = fc_test_quick();

    (void)state;
    for (size_t s = 0; s < FC_ARRAY_LEN(shapes); s++) {
        const size_t bits = shapes[s].bits, np = shapes[s].np;
        fc_rsa_key *key;
        OSSL_PARAM_BLD *bld;
        OSSL_PARAM *params;
        EVP_PKEY_CTX *ctx;
        EVP_PKEY *pkey = NULL;
        BIGNUM *keep[3 + 15] = {NULL}; /* the builder holds pointers */
        size_t nkeep = 0;
        mkey k;

        if (quick && bits > 2048)
            continue;
        key = fc_rsa_generate(bits, np, f4, sizeof f4, selected(), test_rng,
                              NULL);
        if (key == NULL)
            fail_msg("fc_rsa_generate(%zu, %zu primes) failed", bits, np);
        assert_int_equal(fc_rsa_bits(key), bits);
        assert_int_equal(fc_rsa_num_primes(key), np);
        bld = OSSL_PARAM_BLD_new();
        assert_non_null(bld);
        for (int i = 0; i < 3; i++) {
            uint8_t buf[MAXB];
            size_t len;
            BIGNUM *bn;

            assert_true(
                fc_rsa_get_component(key, "ned"[i], buf, sizeof buf, &len));
            bn = keep[nkeep++] = BN_bin2bn(buf, (int)len, NULL);
            assert_true(OSSL_PARAM_BLD_push_BN(bld,
                                               i == 0   ? OSSL_PKEY_PARAM_RSA_N
                                               : i == 1 ? OSSL_PKEY_PARAM_RSA_E
                                                        : OSSL_PKEY_PARAM_RSA_D,
                                               bn));
        }
        for (size_t i = 0; i < np; i++)
            for (int part = 0; part < 3; part++) {
                const char *name = part == 0   ? mp_factor[i]
                                   : part == 1 ? mp_exp[i]
                                               : mp_coef[i];
                uint8_t buf[MAXB];
                size_t len;
                BIGNUM *bn;

                if (name == NULL)
                    continue;
                assert_true(fc_rsa_get_prime_part(key, "rdt"[part], i, buf,
                                                  sizeof buf, &len));
                bn = keep[nkeep++] = BN_bin2bn(buf, (int)len, NULL);
                assert_true(OSSL_PARAM_BLD_push_BN(bld, name, bn));
                assert_int_equal(BN_num_bits(bn) > 0, 1);
                if (part == 0)
                    assert_int_equal(BN_num_bits(bn),
                                     (int)(bits / np + (i < bits % np)));
            }
        params = OSSL_PARAM_BLD_to_param(bld);
        ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
        assert_non_null(ctx);
        assert_int_equal(EVP_PKEY_fromdata_init(ctx), 1);
        assert_int_equal(
            EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_KEYPAIR, params), 1);
        EVP_PKEY_CTX_free(ctx);
        OSSL_PARAM_free(params);
        OSSL_PARAM_BLD_free(bld);
        for (size_t i = 0; i < nkeep; i++)
            BN_clear_free(keep[i]);
        ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
        assert_true(
            (EVP_PKEY_check(ctx) == 1 && EVP_PKEY_pairwise_check(ctx) == 1) ||
            !fc_test_default_checks_own(NULL, NULL, bits, np));
        EVP_PKEY_CTX_free(ctx);
        mkey_from_pkey(&k, pkey, np);
        mkey_diff(&k, key, 3, "generated multi-prime key");
        print_message(
            "[   INFO   ] generated a %zu-prime RSA-%zu key; "
            "OpenSSL's checks accept it (or refuse OpenSSL's own alike)\n",
            np, bits);
        mkey_free(&k);
        fc_rsa_key_free(key);
    }
}

/* ---- rsa_timing ------------------------------------------------------- */

static double now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

FC_TEST("rsa_timing", test_timing)
{
    const tkey *k = ossl_key(1);
    const size_t len = k->len[C_N];
    size_t count;
    const fc_rsa_engine *const *tab = fc_rsa_engine_impls(&count);
    const fc_rsa_engine *ops;
    uint8_t in[MAXB], out[MAXB];
    const int reps = 400;
    double t0, t;

    (void)state;
    if (fc_test_quick()) {
        print_message("[  SKIPPED ] timings under FC_TEST_QUICK\n");
        return;
    }
    make_input(in, k, 0);
    {
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, k->pkey, NULL);
        size_t olen;
        assert_int_equal(EVP_PKEY_decrypt_init(ctx), 1);
        assert_int_equal(EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING), 1);
        for (int i = 0; i < 20; i++) {
            olen = len;
            EVP_PKEY_decrypt(ctx, out, &olen, in, len);
        }
        t0 = now_us();
        for (int i = 0; i < reps; i++) {
            olen = len;
            assert_int_equal(EVP_PKEY_decrypt(ctx, out, &olen, in, len), 1);
        }
        t = (now_us() - t0) / reps;
        print_message("; RSA-2048 private, OpenSSL EVP raw decrypt: %8.1f us\n",
                      t);
        EVP_PKEY_CTX_free(ctx);
    }
    FC_TEST_FOREACH_IMPL("rsa engine", tab, count, ops)
    {
        fc_rsa_key *key = import(k, 1, 1, ops);
        for (int i = 0; i < 20; i++)
            fc_rsa_private(key, out, in, test_rng, NULL);
        t0 = now_us();
        for (int i = 0; i < reps; i++)
            assert_int_equal(fc_rsa_private(key, out, in, test_rng, NULL), 1);
        t = (now_us() - t0) / reps;
        print_message("; RSA-2048 private, fc_rsa_private (%s):%8.1f us\n",
                      ops->name, t);
        t0 = now_us();
        for (int i = 0; i < reps; i++)
            assert_int_equal(fc_rsa_public(key, out, in), 1);
        t = (now_us() - t0) / reps;
        print_message("; RSA-2048 public, fc_rsa_public (%s):   %8.1f us\n",
                      ops->name, t);
        fc_rsa_key_free(key);

        t0 = now_us();
        for (int i = 0; i < 200; i++)
            fc_rsa_key_free(import(k, 1, 1, ops));
        t = (now_us() - t0) / 200;
        print_message("; RSA-2048 key import (%s):              %8.1f us\n",
                      ops->name, t);

        {
            static const uint8_t f4[] = {0x01, 0x00, 0x01};
            const int gens = 6;
            fc_rsa_engines list = engine_list(ops);

            t0 = now_us();
            for (int i = 0; i < gens; i++) {
                fc_rsa_key *g = fc_rsa_generate(2048, 2, f4, sizeof f4, &list,
                                                test_rng, NULL);
                assert_non_null(g);
                fc_rsa_key_free(g);
            }
            t = (now_us() - t0) / gens;
            print_message(
                "; RSA-2048 keygen (%s):        %10.0f us (mean of %d)\n",
                ops->name, t, gens);
        }
    }
}

static int teardown_keys(void **state)
{
    (void)state;
    for (size_t i = 0; i < FC_ARRAY_LEN(ossl_keys); i++)
        tkey_free(&ossl_keys[i]);
    return 0;
}

int main(void)
{
    static const fc_test_fixture fixtures[] = {
        {"rsa_timing", NULL, teardown_keys},
    };

    return fc_test_main(fixtures, sizeof(fixtures) / sizeof(fixtures[0]));
}
