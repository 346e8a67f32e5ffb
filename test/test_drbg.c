/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_drbg.c - the SP 800-90A CTR_DRBG (provider/core/ctr_drbg.c) and the
 * provider's random generators "CTR-DRBG" and "SEED-SRC"
 * (provider/rand_ctr_drbg.c).
 *
 * Groups:
 *   drbg_core  test/kat/ctr_drbg.txt (NIST CAVP CTR_DRBG vectors, AES-128/
 *              192/256, with and without df, with and without prediction
 *              resistance) on every AES table the CPU runs; each table
 *              against the generic one on random inputs; the 128-bit counter
 *              carry; length errors; zeroization; monobit and chi-square on
 *              1 MiB of a fixed-seed stream.
 *   drbg_evp   through EVP_RAND in a library context with default and
 *              fastcrypto: the same CAVP vectors driven exactly as OpenSSL's
 *              own evp_test drives them (TEST-RAND of the default provider
 *              as the entropy parent, so the cross-provider parent calls are
 *              exercised), random sequences compared byte for byte with the
 *              default provider's CTR-DRBG, parameters, the reseed policy
 *              (reseed_requests, prediction resistance, time interval,
 *              propagation from the parent), error recovery, SEED-SRC,
 *              chains mixing our generators with the default provider's,
 *              and the dispatch table called directly with a parent of the
 *              test's own (split of requests over 2^16 bytes).
 *   drbg_solo  a library context with fastcrypto alone: RAND_bytes and
 *              RAND_priv_bytes run on our SEED-SRC -> primary -> public/
 *              private chain; output after fork(2) differs between parent
 *              and child; many threads at once (per-thread DRBGs sharing the
 *              primary, and one locked DRBG shared by all); monobit and
 *              chi-square on 1 MiB of RAND_bytes.
 *
 * Environment: FC_TEST_CONF (config loading default and fastcrypto) and
 * FC_TEST_MODULE_DIR (where fastcrypto.so is; without it, the module path
 * of FC_TEST_CONF), both set by ctest;
 * FC_TEST_SEED replays the random inputs; FC_TEST_QUICK shrinks loops;
 * FASTCRYPTO_CPU_MASK switches AES tables off.
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
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include "fc/aes.h"
#include "fc/drbg.h"
#include "libctx.h"
#include "impls.h"
#include "kat.h"
#include "runner.h"

#define PROP_FC     "provider=fastcrypto"
#define PROP_DEF    "provider=default"
#define STATS_BYTES (1u << 20)

static OSSL_LIB_CTX *g_both;       /* default + fastcrypto (FC_TEST_CONF) */
static OSSL_LIB_CTX *g_solo;       /* fastcrypto alone */
static OSSL_PROVIDER *g_solo_prov; /* loaded by path: compare pointers */

/* ---- helpers ------------------------------------------------------------ */

static void print_openssl_errors(void)
{
    unsigned long e;
    const char *data = NULL;
    int flags = 0;
    char buf[256];

    while ((e = ERR_get_error_all(NULL, NULL, NULL, &data, &flags)) != 0) {
        ERR_error_string_n(e, buf, sizeof(buf));
        print_message("    openssl: %s%s%s\n", buf,
                      (flags & ERR_TXT_STRING) ? ": " : "",
                      (flags & ERR_TXT_STRING) ? data : "");
    }
}

#define CHECK_OSSL(expr)                                                       \
    do {                                                                       \
        if (!(expr)) {                                                         \
            print_openssl_errors();                                            \
            fail_msg("%s:%d: %s failed", __FILE__, __LINE__, #expr);           \
        }                                                                      \
    } while (0)

static size_t cipher_keylen(const char *name)
{
    if (strcmp(name, "AES-128-CTR") == 0)
        return 16;
    if (strcmp(name, "AES-192-CTR") == 0)
        return 24;
    if (strcmp(name, "AES-256-CTR") == 0)
        return 32;
    fail_msg("unknown cipher %s", name);
    return 0;
}

/* One CAVP vector, decoded. Absent fields have NULL pointers. */
typedef struct {
    const char *cipher;
    size_t keylen;
    int df, pr;
    const uint8_t *ent, *nonce, *pers, *ent_rs, *adin_rs, *ent_pra, *ent_prb,
        *adin_a, *adin_b, *out;
    size_t ent_len, nonce_len, pers_len, ent_rs_len, adin_rs_len, ent_pra_len,
        ent_prb_len, adin_a_len, adin_b_len, out_len;
} vec;

static const uint8_t *opt_bytes(fc_kat *k, const char *name, size_t *len)
{
    *len = 0;
    return fc_kat_has(k, name) ? fc_kat_bytes(k, name, len) : NULL;
}

static void vec_read(fc_kat *k, vec *v)
{
    static const char *const fields[] = {
        "Cipher",        "DF",         "PR",
        "Entropy",       "Nonce",      "Pers",
        "EntropyReseed", "AdinReseed", "EntropyPRA",
        "EntropyPRB",    "AdinA",      "AdinB",
        "Output",        NULL};

    fc_kat_check_fields(k, fields);
    memset(v, 0, sizeof(*v));
    v->cipher = fc_kat_str(k, "Cipher");
    v->keylen = cipher_keylen(v->cipher);
    v->df = strcmp(fc_kat_str(k, "DF"), "1") == 0;
    v->pr = strcmp(fc_kat_str(k, "PR"), "1") == 0;
    v->ent = fc_kat_bytes(k, "Entropy", &v->ent_len);
    v->nonce = opt_bytes(k, "Nonce", &v->nonce_len);
    v->pers = opt_bytes(k, "Pers", &v->pers_len);
    v->ent_rs = opt_bytes(k, "EntropyReseed", &v->ent_rs_len);
    v->adin_rs = opt_bytes(k, "AdinReseed", &v->adin_rs_len);
    v->ent_pra = opt_bytes(k, "EntropyPRA", &v->ent_pra_len);
    v->ent_prb = opt_bytes(k, "EntropyPRB", &v->ent_prb_len);
    v->adin_a = opt_bytes(k, "AdinA", &v->adin_a_len);
    v->adin_b = opt_bytes(k, "AdinB", &v->adin_b_len);
    v->out = fc_kat_bytes(k, "Output", &v->out_len);
    if (v->pr != (v->ent_pra != NULL) || v->pr != (v->ent_prb != NULL))
        fc_kat_fail(k, "PR and EntropyPRA/B disagree");
}

/* The CAVP procedure on the core (see the header of ctr_drbg.txt). */
static int vec_run_core(const fc_aes_ops *ops, const vec *v, uint8_t *got)
{
    fc_ctr_drbg d;
    int ok = fc_ctr_drbg_init(&d, ops, v->keylen, v->df);

    ok = ok && fc_ctr_drbg_instantiate(&d, v->ent, v->ent_len, v->nonce,
                                       v->nonce_len, v->pers, v->pers_len);
    if (v->ent_rs != NULL)
        ok = ok && fc_ctr_drbg_reseed(&d, v->ent_rs, v->ent_rs_len, v->adin_rs,
                                      v->adin_rs_len);
    if (v->pr) {
        ok = ok && fc_ctr_drbg_reseed(&d, v->ent_pra, v->ent_pra_len, v->adin_a,
                                      v->adin_a_len);
        ok = ok && fc_ctr_drbg_generate(&d, got, v->out_len, NULL, 0);
        ok = ok && fc_ctr_drbg_reseed(&d, v->ent_prb, v->ent_prb_len, v->adin_b,
                                      v->adin_b_len);
        ok = ok && fc_ctr_drbg_generate(&d, got, v->out_len, NULL, 0);
    } else {
        ok = ok && fc_ctr_drbg_generate(&d, got, v->out_len, v->adin_a,
                                        v->adin_a_len);
        ok = ok && fc_ctr_drbg_generate(&d, got, v->out_len, v->adin_b,
                                        v->adin_b_len);
    }
    fc_ctr_drbg_uninstantiate(&d);
    ok = ok && fc_ctr_drbg_is_zeroized(&d);
    return ok;
}

/* Square root by Newton's method (keeps the test free of libm). */
static double sqrt_pos(double x)
{
    double r = x > 1 ? x : 1;

    for (int i = 0; i < 200; i++)
        r = 0.5 * (r + x / r);
    return r;
}

/* Monobit and byte chi-square: bounds at about 1e-6 false alarms each. */
static void check_stats(const char *what, const uint8_t *p, size_t n)
{
    uint64_t ones = 0, freq[256] = {0};
    double bits = 8.0 * (double)n, dev, sigma, chi = 0, expect;

    for (size_t i = 0; i < n; i++) {
        ones += (uint64_t)__builtin_popcount(p[i]);
        freq[p[i]]++;
    }
    dev = (double)ones - bits / 2;
    if (dev < 0)
        dev = -dev;
    sigma = sqrt_pos(bits) / 2;
    expect = (double)n / 256;
    for (int b = 0; b < 256; b++)
        chi += ((double)freq[b] - expect) * ((double)freq[b] - expect) / expect;
    print_message("[ STATS    ] %s: %zu bytes, ones %.6f (%.2f sigma), "
                  "chi-square %.1f (255 dof)\n",
                  what, n, (double)ones / bits, dev / sigma, chi);
    /* |z| < 5 (p 5.7e-7); chi-square(255) in [161, 378] (p ~ 1e-6 each). */
    if (dev > 5 * sigma)
        fail_msg("%s: monobit off by %.2f sigma", what, dev / sigma);
    if (chi < 161.0 || chi > 378.0)
        fail_msg("%s: chi-square %.1f outside [161, 378]", what, chi);
}

/* ---- drbg_core ---------------------------------------------------------- */

FC_TEST("drbg_core", test_core_kat)
{
    size_t n;
    const fc_aes_ops *const *tab = fc_aes_impls(&n);
    const fc_aes_ops *ops;
    size_t count = 0;

    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        fc_kat *k = fc_kat_open("ctr_drbg.txt");
        uint8_t got[256];
        vec v;

        while (fc_kat_next(k)) {
            vec_read(k, &v);
            assert_true(v.out_len <= sizeof(got));
            if (!vec_run_core(ops, &v, got))
                fc_kat_fail(k, "[%s] %s df=%d: a call failed", ops->name,
                            v.cipher, v.df);
            if (memcmp(got, v.out, v.out_len) != 0) {
                char a[80], b[80];
                fc_kat_fail(k, "[%s] got %s, want %s", ops->name,
                            fc_test_hex(a, sizeof(a), got, v.out_len),
                            fc_test_hex(b, sizeof(b), v.out, v.out_len));
            }
            count++;
        }
        fc_kat_close(k);
    }
    print_message("[ KAT      ] %zu CAVP vector runs\n", count);
    assert_true(count >= 50);
}

/* Each accelerated table against the generic one: random inputs, every
 * key size, both df modes, lengths 0..2100 bytes (partial blocks, the
 * 8-block kernel loop, more than one 4 KiB batch). */
FC_TEST("drbg_core", test_core_diff)
{
    size_t n;
    const fc_aes_ops *const *tab = fc_aes_impls(&n);
    const fc_aes_ops *gen = fc_test_aes_generic(), *ops;
    static const size_t kls[] = {16, 24, 32};
    int rounds = fc_test_quick() ? 20 : 150;
    static uint8_t a[9000], b[9000];

    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        if (ops == gen)
            continue;
        for (int r = 0; r < rounds; r++) {
            size_t kl = kls[r % 3];
            int df = (r / 3) & 1;
            fc_ctr_drbg x, y;
            uint8_t ent[64], nonce[32], pers[64], adin[64];
            size_t el = df ? kl + fc_test_rand_below(33) : kl + 16;
            size_t pl = fc_test_rand_below(df ? 65 : kl + 17);
            size_t al = fc_test_rand_below(df ? 65 : kl + 17);
            size_t ol = r < 40 ? (size_t)r : fc_test_rand_below(2100);
            if (r == rounds - 1)
                ol = 4096 + 16 * 300 + 7; /* several batches */

            fc_test_rand_bytes(ent, sizeof(ent));
            fc_test_rand_bytes(nonce, sizeof(nonce));
            fc_test_rand_bytes(pers, sizeof(pers));
            fc_test_rand_bytes(adin, sizeof(adin));
            assert_true(fc_ctr_drbg_init(&x, ops, kl, df));
            assert_true(fc_ctr_drbg_init(&y, gen, kl, df));
            assert_true(
                fc_ctr_drbg_instantiate(&x, ent, el, nonce, kl / 2, pers, pl));
            assert_true(
                fc_ctr_drbg_instantiate(&y, ent, el, nonce, kl / 2, pers, pl));
            for (int g = 0; g < 3; g++) {
                memset(a, 0xa5, sizeof(a));
                memset(b, 0x5a, sizeof(b));
                assert_true(fc_ctr_drbg_generate(&x, a, ol, adin, al));
                assert_true(fc_ctr_drbg_generate(&y, b, ol, adin, al));
                if (memcmp(a, b, ol) != 0)
                    fail_msg("[%s] kl=%zu df=%d len=%zu: differs from generic",
                             ops->name, kl, df, ol);
                /* Nothing written past the request. */
                assert_int_equal(a[ol], 0xa5);
                assert_true(fc_ctr_drbg_reseed(&x, ent, el, adin, al / 2));
                assert_true(fc_ctr_drbg_reseed(&y, ent, el, adin, al / 2));
            }
            assert_memory_equal(x.K, y.K, sizeof(x.K));
            assert_memory_equal(x.V, y.V, sizeof(x.V));
        }
    }
}

/* The counter is 128 bits: a carry out of the low 32 bits (the AES
 * table's ctr32 wraps there), out of the low 64, and out of all 128 (back
 * to zero) must come out as the SP 800-90A increment has it. Output
 * blocks are E(K, V+1), E(K, V+2), ... */
FC_TEST("drbg_core", test_core_counter_carry)
{
    /* The low bytes of V, three blocks before each wrap; the rest 01 ..
     * 01 so that a carry that goes too far shows too. */
    static const struct {
        size_t ones; /* trailing FF bytes before the final FD */
    } wraps[] = {{3}, {7}, {15}};
    size_t n;
    const fc_aes_ops *const *tab = fc_aes_impls(&n);
    const fc_aes_ops *ops;

    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        for (size_t w = 0; w < FC_ARRAY_LEN(wraps); w++) {
            fc_ctr_drbg d;
            uint8_t ent[48] = {1}, got[80], want[80], ctr[16];
            fc_aes_key ks;

            assert_true(fc_ctr_drbg_init(&d, ops, 32, 0));
            assert_true(fc_ctr_drbg_instantiate(&d, ent, 48, NULL, 0, NULL, 0));
            memset(d.V, 0x01, 16);
            memset(d.V + 15 - wraps[w].ones, 0xff, wraps[w].ones);
            d.V[15] = 0xfd;
            memcpy(ctr, d.V, 16);
            memcpy(&ks, &d.ks, sizeof(ks));
            for (int i = 0; i < 5; i++) {
                /* byte-wise big-endian increment, independent of the core */
                for (int j = 15; j >= 0 && ++ctr[j] == 0; j--)
                    ;
                memcpy(want + 16 * i, ctr, 16);
            }
            ops->ecb_enc(&ks, want, want, 5);
            assert_true(fc_ctr_drbg_generate(&d, got, 77, NULL, 0));
            if (memcmp(got, want, 77) != 0)
                fail_msg("[%s] V with %zu FF bytes: wrong output", ops->name,
                         wraps[w].ones);
            fc_ctr_drbg_uninstantiate(&d);
        }
    }
}

FC_TEST("drbg_core", test_core_edges)
{
    const fc_aes_ops *ops = fc_aes_select(fc_test_caps());
    fc_ctr_drbg d;
    uint8_t ent[64] = {0}, buf[64], buf2[64];
    static uint8_t big[FC_CTR_DRBG_MAX_REQUEST + 1];

    fc_test_rand_bytes(ent, sizeof(ent));
    assert_false(fc_ctr_drbg_init(&d, ops, 20, 1));
    assert_false(fc_ctr_drbg_init(&d, NULL, 32, 1));

    /* No df: entropy exactly seedlen, pers/adin at most seedlen. */
    assert_true(fc_ctr_drbg_init(&d, ops, 32, 0));
    assert_false(fc_ctr_drbg_generate(&d, buf, 16, NULL, 0));
    assert_false(fc_ctr_drbg_reseed(&d, ent, 48, NULL, 0));
    assert_false(fc_ctr_drbg_instantiate(&d, ent, 47, NULL, 0, NULL, 0));
    assert_false(fc_ctr_drbg_instantiate(&d, ent, 49, NULL, 0, NULL, 0));
    assert_false(fc_ctr_drbg_instantiate(&d, ent, 48, NULL, 0, ent, 49));
    assert_false(fc_ctr_drbg_instantiate(&d, NULL, 48, NULL, 0, NULL, 0));
    assert_true(fc_ctr_drbg_is_zeroized(&d));
    assert_true(fc_ctr_drbg_instantiate(&d, ent, 48, NULL, 0, ent, 48));
    assert_false(fc_ctr_drbg_is_zeroized(&d));
    assert_false(fc_ctr_drbg_generate(&d, buf, 16, ent, 49));
    assert_false(fc_ctr_drbg_reseed(&d, ent, 32, NULL, 0));
    assert_false(fc_ctr_drbg_generate(&d, big, sizeof(big), NULL, 0));
    assert_true(fc_ctr_drbg_generate(&d, big, sizeof(big) - 1, NULL, 0));
    assert_int_equal(d.reseed_counter, 2);
    assert_true(fc_ctr_drbg_reseed(&d, ent, 48, ent, 10));
    assert_int_equal(d.reseed_counter, 1);

    /* A zero-length request still moves the state (backtracking
     * resistance), so the next output differs. */
    {
        fc_ctr_drbg e = d;
        assert_true(fc_ctr_drbg_generate(&d, buf, 32, NULL, 0));
        assert_true(fc_ctr_drbg_generate(&e, NULL, 0, NULL, 0));
        assert_true(fc_ctr_drbg_generate(&e, buf2, 32, NULL, 0));
        assert_memory_not_equal(buf, buf2, 32);
        fc_ctr_drbg_uninstantiate(&e);
    }
    fc_ctr_drbg_uninstantiate(&d);
    assert_true(fc_ctr_drbg_is_zeroized(&d));
    assert_false(fc_ctr_drbg_generate(&d, buf, 16, NULL, 0));

    /* df: any entropy length, empty pers and adin count as none. */
    assert_true(fc_ctr_drbg_init(&d, ops, 16, 1));
    assert_true(fc_ctr_drbg_instantiate(&d, ent, 1, NULL, 0, NULL, 0));
    assert_true(fc_ctr_drbg_generate(&d, buf, 16, ent, 0));
    assert_true(fc_ctr_drbg_reseed(&d, ent, 64, NULL, 0));
    fc_ctr_drbg_uninstantiate(&d);
    assert_true(fc_ctr_drbg_is_zeroized(&d));
}

/* 1 MiB of a fixed-seed stream: deterministic, so never flaky. */
FC_TEST("drbg_core", test_core_stats)
{
    const fc_aes_ops *ops = fc_aes_select(fc_test_caps());
    fc_ctr_drbg d;
    uint8_t ent[32] = "fixed seed for the stats check", nonce[16] = {7};
    uint8_t *buf = malloc(STATS_BYTES);

    assert_non_null(buf);
    assert_true(fc_ctr_drbg_init(&d, ops, 32, 1));
    assert_true(fc_ctr_drbg_instantiate(&d, ent, 32, nonce, 16, NULL, 0));
    for (size_t off = 0; off < STATS_BYTES; off += FC_CTR_DRBG_MAX_REQUEST)
        assert_true(fc_ctr_drbg_generate(&d, buf + off, FC_CTR_DRBG_MAX_REQUEST,
                                         NULL, 0));
    check_stats("core AES-256 df, fixed seed", buf, STATS_BYTES);
    fc_ctr_drbg_uninstantiate(&d);
    free(buf);
}

/* ---- drbg_evp ----------------------------------------------------------- */

static EVP_RAND_CTX *new_rand(OSSL_LIB_CTX *lib, const char *name,
                              const char *props, EVP_RAND_CTX *parent)
{
    EVP_RAND *r = EVP_RAND_fetch(lib, name, props);
    const char *shown = props != NULL ? props : "no properties";
    EVP_RAND_CTX *c;

    if (r == NULL) {
        print_openssl_errors();
        fail_msg("cannot fetch %s (%s)", name, shown);
    }
    c = EVP_RAND_CTX_new(r, parent);
    EVP_RAND_free(r);
    if (c == NULL) {
        print_openssl_errors();
        fail_msg("cannot create %s (%s)", name, shown);
    }
    return c;
}

static const char *rand_provider(EVP_RAND_CTX *c)
{
    return OSSL_PROVIDER_get0_name(
        EVP_RAND_get0_provider(EVP_RAND_CTX_get0_rand(c)));
}

static const OSSL_PROVIDER *rand_prov(EVP_RAND_CTX *c)
{
    return EVP_RAND_get0_provider(EVP_RAND_CTX_get0_rand(c));
}

static EVP_RAND_CTX *new_test_parent(OSSL_LIB_CTX *lib, unsigned int strength)
{
    EVP_RAND_CTX *t = new_rand(lib, "TEST-RAND", PROP_DEF, NULL);
    OSSL_PARAM p[2] = {
        OSSL_PARAM_construct_uint(OSSL_RAND_PARAM_STRENGTH, &strength),
        OSSL_PARAM_END};

    CHECK_OSSL(EVP_RAND_CTX_set_params(t, p));
    return t;
}

static void set_test_entropy(EVP_RAND_CTX *t, const uint8_t *ent,
                             size_t ent_len, const uint8_t *nonce,
                             size_t nonce_len, int instantiate)
{
    OSSL_PARAM p[3], *q = p;

    *q++ = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_ENTROPY,
                                             (void *)ent, ent_len);
    if (nonce != NULL)
        *q++ = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_NONCE,
                                                 (void *)nonce, nonce_len);
    *q = OSSL_PARAM_construct_end();
    if (instantiate)
        CHECK_OSSL(EVP_RAND_instantiate(t, 0, 0, NULL, 0, p));
    else
        CHECK_OSSL(EVP_RAND_CTX_set_params(t, p));
}

static void set_drbg_config(EVP_RAND_CTX *c, const char *cipher, int df)
{
    OSSL_PARAM p[3] = {OSSL_PARAM_construct_int(OSSL_DRBG_PARAM_USE_DF, &df),
                       OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER,
                                                        (char *)cipher, 0),
                       OSSL_PARAM_END};

    CHECK_OSSL(EVP_RAND_CTX_set_params(c, p));
}

static unsigned int get_uint(EVP_RAND_CTX *c, const char *key)
{
    unsigned int v = 0;
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_uint(key, &v), OSSL_PARAM_END};

    CHECK_OSSL(EVP_RAND_CTX_get_params(c, p));
    return v;
}

static size_t get_size(EVP_RAND_CTX *c, const char *key)
{
    size_t v = 0;
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_size_t(key, &v), OSSL_PARAM_END};

    CHECK_OSSL(EVP_RAND_CTX_get_params(c, p));
    return v;
}

static int get_int(EVP_RAND_CTX *c, const char *key)
{
    int v = -1;
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_int(key, &v), OSSL_PARAM_END};

    CHECK_OSSL(EVP_RAND_CTX_get_params(c, p));
    return v;
}

static time_t get_time(EVP_RAND_CTX *c, const char *key)
{
    time_t v = 0;
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_time_t(key, &v), OSSL_PARAM_END};

    CHECK_OSSL(EVP_RAND_CTX_get_params(c, p));
    return v;
}

/* The CAVP procedure through EVP, as OpenSSL's evp_test runs it: the
 * vector's entropy and nonce come from a TEST-RAND parent. */
static void vec_run_evp(const vec *v, const char *props, uint8_t *got)
{
    EVP_RAND_CTX *t = new_test_parent(g_both, 256);
    EVP_RAND_CTX *c = new_rand(g_both, "CTR-DRBG", props, t);
    unsigned int strength;

    set_drbg_config(c, v->cipher, v->df);
    strength = EVP_RAND_get_strength(c);
    assert_int_equal(strength, 8 * v->keylen);
    set_test_entropy(t, v->ent, v->ent_len, v->nonce, v->nonce_len, 1);
    CHECK_OSSL(EVP_RAND_instantiate(
        c, strength, v->pr, v->pers != NULL ? v->pers : (const uint8_t *)"",
        v->pers_len, NULL));
    if (v->ent_rs != NULL) {
        set_test_entropy(t, v->ent_rs, v->ent_rs_len, NULL, 0, 0);
        CHECK_OSSL(
            EVP_RAND_reseed(c, v->pr, NULL, 0, v->adin_rs, v->adin_rs_len));
    }
    if (v->ent_pra != NULL)
        set_test_entropy(t, v->ent_pra, v->ent_pra_len, NULL, 0, 0);
    CHECK_OSSL(EVP_RAND_generate(c, got, v->out_len, strength, v->pr, v->adin_a,
                                 v->adin_a_len));
    if (v->ent_prb != NULL)
        set_test_entropy(t, v->ent_prb, v->ent_prb_len, NULL, 0, 0);
    CHECK_OSSL(EVP_RAND_generate(c, got, v->out_len, strength, v->pr, v->adin_b,
                                 v->adin_b_len));
    CHECK_OSSL(EVP_RAND_uninstantiate(c));
    CHECK_OSSL(EVP_RAND_uninstantiate(t));
    CHECK_OSSL(EVP_RAND_verify_zeroization(c));
    assert_int_equal(EVP_RAND_get_state(c), EVP_RAND_STATE_UNINITIALISED);
    EVP_RAND_CTX_free(c);
    EVP_RAND_CTX_free(t);
}

FC_TEST("drbg_evp", test_evp_kat)
{
    static const char *const provs[] = {PROP_FC, PROP_DEF};
    size_t count = 0;

    /* The same vectors through the default provider too: they exercise
     * the EVP procedure, not only our code. */
    for (size_t i = 0; i < 2; i++) {
        fc_kat *k = fc_kat_open("ctr_drbg.txt");
        uint8_t got[256];
        vec v;

        while (fc_kat_next(k)) {
            vec_read(k, &v);
            vec_run_evp(&v, provs[i], got);
            if (memcmp(got, v.out, v.out_len) != 0) {
                char a[80], b[80];
                fc_kat_fail(k, "[%s] got %s, want %s", provs[i],
                            fc_test_hex(a, sizeof(a), got, v.out_len),
                            fc_test_hex(b, sizeof(b), v.out, v.out_len));
            }
            count++;
        }
        fc_kat_close(k);
    }
    assert_true(count >= 100);
}

/* Random call sequences, ours and the default provider's CTR-DRBG side by
 * side on the same TEST-RAND inputs: every output byte must agree,
 * including requests larger than max_request (split by the EVP layer)
 * and prediction resistance. */
FC_TEST("drbg_evp", test_evp_vs_default)
{
    static const char *const ciphers[] = {"AES-128-CTR", "AES-192-CTR",
                                          "AES-256-CTR"};
    static const size_t lens[] = {1,  15,   16,   17,    31,
                                  64, 1000, 4099, 65536, 65536 + 4096 + 3};
    static uint8_t a[70000], b[70000];
    int rounds = fc_test_quick() ? 12 : 48;

    for (int r = 0; r < rounds; r++) {
        const char *cipher = ciphers[r % 3];
        size_t kl = cipher_keylen(cipher);
        int df = (r / 3) & 1, pr = (r / 6) & 1;
        uint8_t ent[64], nonce[32], pers[64], adin[64];
        size_t el = df ? kl + fc_test_rand_below(17) : kl + 16;
        size_t nl = kl / 2 + fc_test_rand_below(8);
        size_t pl = fc_test_rand_below(kl + 17), al;
        EVP_RAND_CTX *t[2], *c[2];

        fc_test_rand_bytes(ent, sizeof(ent));
        fc_test_rand_bytes(nonce, sizeof(nonce));
        fc_test_rand_bytes(pers, sizeof(pers));
        fc_test_rand_bytes(adin, sizeof(adin));
        for (int i = 0; i < 2; i++) {
            t[i] = new_test_parent(g_both, 256);
            c[i] = new_rand(g_both, "CTR-DRBG", i ? PROP_DEF : PROP_FC, t[i]);
            set_drbg_config(c[i], cipher, df);
            set_test_entropy(t[i], ent, el, nonce, nl, 1);
            CHECK_OSSL(EVP_RAND_instantiate(c[i], 0, pr, pers, pl, NULL));
        }
        assert_string_equal(rand_provider(c[0]), FC_NAME);
        assert_string_equal(rand_provider(c[1]), "default");
        for (int g = 0; g < 6; g++) {
            size_t ol = lens[fc_test_rand_below(FC_ARRAY_LEN(lens))];
            al = fc_test_rand_below(kl + 17);
            fc_test_rand_bytes(ent, sizeof(ent));
            for (int i = 0; i < 2; i++) {
                uint8_t *o = i ? b : a;
                set_test_entropy(t[i], ent, el, NULL, 0, 0);
                if (g == 3)
                    CHECK_OSSL(EVP_RAND_reseed(c[i], 0, NULL, 0, adin, al));
                CHECK_OSSL(EVP_RAND_generate(c[i], o, ol, 0, pr, adin, al));
            }
            if (memcmp(a, b, ol) != 0)
                fail_msg("%s df=%d pr=%d call %d (%zu bytes): differs from "
                         "the default provider",
                         cipher, df, pr, g, ol);
        }
        for (int i = 0; i < 2; i++) {
            EVP_RAND_CTX_free(c[i]);
            EVP_RAND_CTX_free(t[i]);
        }
    }
}

FC_TEST("drbg_evp", test_evp_params)
{
    EVP_RAND_CTX *s = new_rand(g_both, "SEED-SRC", PROP_FC, NULL);
    EVP_RAND_CTX *c = new_rand(g_both, "CTR-DRBG", PROP_FC, s);
    char name[32] = "";
    int bad_df = 0;
    OSSL_PARAM pn[2] = {OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER,
                                                         name, sizeof(name)),
                        OSSL_PARAM_END};
    OSSL_PARAM pbad[2] = {OSSL_PARAM_construct_utf8_string(
                              OSSL_DRBG_PARAM_CIPHER, "AES-256-ECB", 0),
                          OSSL_PARAM_END};
    OSSL_PARAM pprop[3] = {
        OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_PROPERTIES,
                                         "provider=fastcrypto", 0),
        OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER, "aes-256-ctr",
                                         0),
        OSSL_PARAM_END};
    OSSL_PARAM pdf[2] = {
        OSSL_PARAM_construct_int(OSSL_DRBG_PARAM_USE_DF, &bad_df),
        OSSL_PARAM_END};
    uint8_t buf[64];

    CHECK_OSSL(EVP_RAND_instantiate(s, 0, 0, NULL, 0, NULL));
    /* Defaults, before instantiation: AES-256 with df. */
    CHECK_OSSL(EVP_RAND_CTX_get_params(c, pn));
    assert_string_equal(name, "AES-256-CTR");
    assert_int_equal(get_int(c, OSSL_DRBG_PARAM_USE_DF), 1);
    assert_int_equal(get_int(c, OSSL_RAND_PARAM_STATE),
                     EVP_RAND_STATE_UNINITIALISED);
    assert_int_equal(get_uint(c, OSSL_RAND_PARAM_STRENGTH), 256);
    assert_int_equal(get_size(c, OSSL_RAND_PARAM_MAX_REQUEST), 65536);
    assert_int_equal(get_size(c, OSSL_DRBG_PARAM_MIN_ENTROPYLEN), 32);
    assert_int_equal(get_size(c, OSSL_DRBG_PARAM_MAX_ENTROPYLEN), 0x7fffffff);
    assert_int_equal(get_size(c, OSSL_DRBG_PARAM_MIN_NONCELEN), 16);
    assert_int_equal(get_size(c, OSSL_DRBG_PARAM_MAX_NONCELEN), 0x7fffffff);
    assert_int_equal(get_size(c, OSSL_DRBG_PARAM_MAX_PERSLEN), 0x7fffffff);
    assert_int_equal(get_size(c, OSSL_DRBG_PARAM_MAX_ADINLEN), 0x7fffffff);
    assert_int_equal(get_uint(c, OSSL_DRBG_PARAM_RESEED_REQUESTS), 256);
    assert_int_equal(get_time(c, OSSL_DRBG_PARAM_RESEED_TIME_INTERVAL), 3600);
    assert_int_equal(get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER), 1);
    assert_non_null(EVP_RAND_gettable_ctx_params(EVP_RAND_CTX_get0_rand(c)));
    assert_non_null(EVP_RAND_settable_ctx_params(EVP_RAND_CTX_get0_rand(c)));

    /* Key size and df. */
    set_drbg_config(c, "AES-128-CTR", 0);
    assert_int_equal(get_uint(c, OSSL_RAND_PARAM_STRENGTH), 128);
    assert_int_equal(get_size(c, OSSL_DRBG_PARAM_MIN_ENTROPYLEN), 32);
    assert_int_equal(get_size(c, OSSL_DRBG_PARAM_MAX_ENTROPYLEN), 32);
    assert_int_equal(get_size(c, OSSL_DRBG_PARAM_MAX_NONCELEN), 0);
    assert_int_equal(get_size(c, OSSL_DRBG_PARAM_MAX_PERSLEN), 32);
    set_drbg_config(c, "AES-192-CTR", 1);
    assert_int_equal(get_uint(c, OSSL_RAND_PARAM_STRENGTH), 192);
    assert_int_equal(get_size(c, OSSL_DRBG_PARAM_MIN_NONCELEN), 12);
    assert_false(EVP_RAND_CTX_set_params(c, pbad));
    ERR_clear_error();
    /* "properties" is accepted; cipher names are case-insensitive. */
    CHECK_OSSL(EVP_RAND_CTX_set_params(c, pprop));
    assert_int_equal(get_uint(c, OSSL_RAND_PARAM_STRENGTH), 256);
    /* Too strong a request. */
    assert_false(EVP_RAND_instantiate(c, 384, 0, NULL, 0, NULL));
    ERR_clear_error();

    CHECK_OSSL(EVP_RAND_instantiate(c, 256, 0, NULL, 0, NULL));
    assert_int_equal(get_int(c, OSSL_RAND_PARAM_STATE), EVP_RAND_STATE_READY);
    assert_true(get_time(c, OSSL_DRBG_PARAM_RESEED_TIME) > 0);
    /* Instantiated: the same cipher is fine, another one is refused. */
    set_drbg_config(c, "AES-256-CTR", 1);
    assert_false(EVP_RAND_CTX_set_params(c, pdf));
    ERR_clear_error();
    assert_false(EVP_RAND_instantiate(c, 256, 0, NULL, 0, NULL));
    ERR_clear_error();
    CHECK_OSSL(EVP_RAND_generate(c, buf, sizeof(buf), 256, 0, NULL, 0));
    assert_false(EVP_RAND_generate(c, buf, sizeof(buf), 512, 0, NULL, 0));
    ERR_clear_error();

    /* Uninstantiate wipes; generate then instantiates afresh. */
    CHECK_OSSL(EVP_RAND_uninstantiate(c));
    CHECK_OSSL(EVP_RAND_verify_zeroization(c));
    assert_int_equal(EVP_RAND_get_state(c), EVP_RAND_STATE_UNINITIALISED);
    CHECK_OSSL(EVP_RAND_generate(c, buf, sizeof(buf), 0, 0, NULL, 0));
    assert_int_equal(EVP_RAND_get_state(c), EVP_RAND_STATE_READY);
    assert_false(EVP_RAND_verify_zeroization(c));
    EVP_RAND_CTX_free(c);
    EVP_RAND_CTX_free(s);
}

FC_TEST("drbg_evp", test_evp_reseed_policy)
{
    EVP_RAND_CTX *s = new_rand(g_both, "SEED-SRC", PROP_FC, NULL);
    EVP_RAND_CTX *c = new_rand(g_both, "CTR-DRBG", PROP_FC, s);
    unsigned int three = 3, r0;
    time_t one = 1, t0;
    OSSL_PARAM preq[2] = {
        OSSL_PARAM_construct_uint(OSSL_DRBG_PARAM_RESEED_REQUESTS, &three),
        OSSL_PARAM_END};
    OSSL_PARAM ptime[2] = {
        OSSL_PARAM_construct_time_t(OSSL_DRBG_PARAM_RESEED_TIME_INTERVAL, &one),
        OSSL_PARAM_END};
    uint8_t buf[32], ent[32];

    CHECK_OSSL(EVP_RAND_instantiate(s, 0, 0, NULL, 0, NULL));
    CHECK_OSSL(EVP_RAND_instantiate(c, 0, 0, NULL, 0, preq));
    assert_int_equal(get_uint(c, OSSL_DRBG_PARAM_RESEED_REQUESTS), 3);
    r0 = get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER);
    assert_int_equal(r0, 2); /* 1 at creation, +1 for the instantiation */
    /* SP 800-90A: reseed_counter 1..3 generate, the 4th reseeds first. */
    for (int i = 1; i <= 10; i++) {
        CHECK_OSSL(EVP_RAND_generate(c, buf, sizeof(buf), 0, 0, NULL, 0));
        assert_int_equal(get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER),
                         r0 + (unsigned)(i - 1) / 3);
    }
    r0 = get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER);
    /* Prediction resistance reseeds every time. */
    for (int i = 1; i <= 3; i++) {
        CHECK_OSSL(EVP_RAND_generate(c, buf, sizeof(buf), 0, 1, NULL, 0));
        assert_int_equal(get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER),
                         r0 + (unsigned)i);
    }
    /* An explicit reseed, with and without caller entropy. */
    r0 = get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER);
    CHECK_OSSL(EVP_RAND_reseed(c, 0, NULL, 0, (const uint8_t *)"ad", 2));
    fc_test_rand_bytes(ent, sizeof(ent));
    CHECK_OSSL(EVP_RAND_reseed(c, 0, ent, sizeof(ent), NULL, 0));
    assert_false(EVP_RAND_reseed(c, 0, ent, 31, NULL, 0)); /* < min */
    ERR_clear_error();
    assert_int_equal(get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER), r0 + 2);
    /* Recovers from the error state the short entropy left it in. */
    CHECK_OSSL(EVP_RAND_generate(c, buf, sizeof(buf), 0, 0, NULL, 0));

    /* Time: with a 1 s interval, a generate a second later reseeds. */
    CHECK_OSSL(EVP_RAND_CTX_set_params(c, ptime));
    CHECK_OSSL(EVP_RAND_reseed(c, 0, NULL, 0, NULL, 0));
    r0 = get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER);
    t0 = get_time(c, OSSL_DRBG_PARAM_RESEED_TIME);
    while (time(NULL) < t0 + 1)
        usleep(20000);
    CHECK_OSSL(EVP_RAND_generate(c, buf, sizeof(buf), 0, 0, NULL, 0));
    assert_int_equal(get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER), r0 + 1);
    assert_true(get_time(c, OSSL_DRBG_PARAM_RESEED_TIME) > t0);
    EVP_RAND_CTX_free(c);
    EVP_RAND_CTX_free(s);
}

/* A reseed of the parent reaches the child at its next generate (how
 * RAND_add on the primary reaches every thread), whichever provider the
 * child comes from. */
FC_TEST("drbg_evp", test_evp_parent_propagation)
{
    static const char *const child_props[] = {PROP_FC, PROP_DEF};
    EVP_RAND_CTX *s = new_rand(g_both, "SEED-SRC", PROP_FC, NULL);
    EVP_RAND_CTX *p = new_rand(g_both, "CTR-DRBG", PROP_FC, s);
    uint8_t buf[48];

    CHECK_OSSL(EVP_RAND_instantiate(s, 0, 0, NULL, 0, NULL));
    CHECK_OSSL(EVP_RAND_enable_locking(p));
    CHECK_OSSL(EVP_RAND_instantiate(p, 0, 0, NULL, 0, NULL));
    for (size_t i = 0; i < 2; i++) {
        EVP_RAND_CTX *c = new_rand(g_both, "CTR-DRBG", child_props[i], p);
        unsigned int r0;

        /* The default provider's DRBG needs its cipher named. */
        set_drbg_config(c, "AES-256-CTR", 1);
        CHECK_OSSL(EVP_RAND_instantiate(c, 0, 0, NULL, 0, NULL));
        CHECK_OSSL(EVP_RAND_generate(c, buf, sizeof(buf), 0, 0, NULL, 0));
        r0 = get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER);
        CHECK_OSSL(EVP_RAND_generate(c, buf, sizeof(buf), 0, 0, NULL, 0));
        assert_int_equal(get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER), r0);
        CHECK_OSSL(EVP_RAND_reseed(p, 0, NULL, 0, NULL, 0));
        CHECK_OSSL(EVP_RAND_generate(c, buf, sizeof(buf), 0, 0, NULL, 0));
        if (get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER) != r0 + 1)
            fail_msg("%s child did not reseed after its parent did",
                     child_props[i]);
        EVP_RAND_CTX_free(c);
    }
    EVP_RAND_CTX_free(p);
    EVP_RAND_CTX_free(s);
}

/* Our generators and the default provider's, as parents and children of
 * each other, and a parent too weak for the child. */
FC_TEST("drbg_evp", test_evp_mixed_chains)
{
    static const struct {
        const char *seed, *mid, *leaf;
    } chains[] = {
        {PROP_FC, PROP_FC, PROP_FC},   {PROP_DEF, PROP_FC, PROP_FC},
        {PROP_FC, PROP_DEF, PROP_FC},  {PROP_FC, PROP_FC, PROP_DEF},
        {PROP_DEF, PROP_DEF, PROP_FC}, {PROP_FC, PROP_DEF, PROP_DEF},
    };
    uint8_t a[100], b[100];

    for (size_t i = 0; i < FC_ARRAY_LEN(chains); i++) {
        EVP_RAND_CTX *s = new_rand(g_both, "SEED-SRC", chains[i].seed, NULL);
        EVP_RAND_CTX *m = new_rand(g_both, "CTR-DRBG", chains[i].mid, s);
        EVP_RAND_CTX *l;

        CHECK_OSSL(EVP_RAND_instantiate(s, 0, 0, NULL, 0, NULL));
        CHECK_OSSL(EVP_RAND_enable_locking(m));
        set_drbg_config(m, "AES-256-CTR", 1);
        if (!EVP_RAND_instantiate(m, 0, 0, NULL, 0, NULL)) {
            print_openssl_errors();
            fail_msg("chain %zu: instantiating the middle DRBG failed", i);
        }
        l = new_rand(g_both, "CTR-DRBG", chains[i].leaf, m);
        set_drbg_config(l, "AES-128-CTR", (int)(i & 1));
        CHECK_OSSL(EVP_RAND_instantiate(l, 128, 0, NULL, 0, NULL));
        CHECK_OSSL(EVP_RAND_generate(l, a, sizeof(a), 128, 0, NULL, 0));
        CHECK_OSSL(EVP_RAND_generate(l, b, sizeof(b), 128, 1, NULL, 0));
        assert_memory_not_equal(a, b, sizeof(a));
        CHECK_OSSL(EVP_RAND_generate(m, a, sizeof(a), 256, 1, NULL, 0));
        EVP_RAND_CTX_free(l);
        EVP_RAND_CTX_free(m);
        EVP_RAND_CTX_free(s);
    }

    /* SP 800-90C: an AES-256 DRBG refuses a 128-bit parent (no df, so
     * the failure is the strength check, not the parent's nonce). */
    {
        uint8_t ent[64] = {0};
        EVP_RAND_CTX *t = new_test_parent(g_both, 128);
        EVP_RAND_CTX *c = new_rand(g_both, "CTR-DRBG", PROP_FC, t);

        set_drbg_config(c, "AES-256-CTR", 0);
        set_test_entropy(t, ent, sizeof(ent), ent, 16, 1);
        assert_false(EVP_RAND_instantiate(c, 0, 0, NULL, 0, NULL));
        ERR_clear_error();
        assert_int_equal(EVP_RAND_get_state(c), EVP_RAND_STATE_ERROR);
        EVP_RAND_CTX_free(c);
        EVP_RAND_CTX_free(t);
    }
    /* A parent that runs dry leaves the error state; fed again, the next
     * generate recovers by itself. */
    {
        uint8_t ent[64];
        EVP_RAND_CTX *t = new_test_parent(g_both, 256);
        EVP_RAND_CTX *c = new_rand(g_both, "CTR-DRBG", PROP_FC, t);

        fc_test_rand_bytes(ent, sizeof(ent));
        set_test_entropy(t, ent, 8, ent, 16, 1);
        assert_false(EVP_RAND_instantiate(c, 0, 0, NULL, 0, NULL));
        ERR_clear_error();
        assert_int_equal(EVP_RAND_get_state(c), EVP_RAND_STATE_ERROR);
        set_test_entropy(t, ent, 48, NULL, 0, 0);
        CHECK_OSSL(EVP_RAND_generate(c, a, sizeof(a), 0, 0, NULL, 0));
        assert_int_equal(EVP_RAND_get_state(c), EVP_RAND_STATE_READY);
        EVP_RAND_CTX_free(c);
        EVP_RAND_CTX_free(t);
    }
}

/* A parent of our own making, called only through its dispatch table (as
 * a third-party provider's would be): fixed seed bytes, no nonce call, so
 * the DRBG takes entropy and nonce in one request. Counts its calls. */
static struct {
    uint8_t seed[256];
    int locks, unlocks, seeds, clears;
} g_fake;

static int fake_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STRENGTH);

    return p == NULL || OSSL_PARAM_set_uint(p, 256);
}

static size_t fake_get_seed(void *vctx, unsigned char **pout, int entropy,
                            size_t min_len, size_t max_len, int pr,
                            const unsigned char *adin, size_t adin_len)
{
    size_t n = min_len > 40 ? min_len : 40;

    if (n > max_len || n > sizeof(g_fake.seed))
        return 0;
    g_fake.seeds++;
    *pout = g_fake.seed;
    return n;
}

static void fake_clear_seed(void *vctx, unsigned char *buf, size_t len)
{
    g_fake.clears += buf == g_fake.seed;
}

static int fake_lock(void *vctx)
{
    g_fake.locks++;
    return 1;
}

static void fake_unlock(void *vctx)
{
    g_fake.unlocks++;
}

static const OSSL_DISPATCH fake_parent[] = {
    {OSSL_FUNC_RAND_GET_CTX_PARAMS, (void (*)(void))fake_get_ctx_params},
    {OSSL_FUNC_RAND_GET_SEED, (void (*)(void))fake_get_seed},
    {OSSL_FUNC_RAND_CLEAR_SEED, (void (*)(void))fake_clear_seed},
    {OSSL_FUNC_RAND_LOCK, (void (*)(void))fake_lock},
    {OSSL_FUNC_RAND_UNLOCK, (void (*)(void))fake_unlock},
    {0, NULL},
};

/* Our CTR-DRBG straight from the provider's algorithm table (no EVP
 * layer): a request of more than 2^16 bytes is split inside, exactly as
 * the EVP layer splits it, and the parent calls are balanced. */
FC_TEST("drbg_evp", test_evp_direct_split)
{
    EVP_RAND *r = EVP_RAND_fetch(g_both, "CTR-DRBG", PROP_FC);
    OSSL_PROVIDER *prov;
    const OSSL_ALGORITHM *algs;
    const OSSL_DISPATCH *d = NULL;
    OSSL_FUNC_rand_newctx_fn *newctx = NULL;
    OSSL_FUNC_rand_freectx_fn *freectx = NULL;
    OSSL_FUNC_rand_instantiate_fn *inst = NULL;
    OSSL_FUNC_rand_generate_fn *gen = NULL;
    OSSL_FUNC_rand_get_ctx_params_fn *getp = NULL;
    void *provctx, *a, *b;
    int no_cache = 0;
    size_t total = 3 * 65536 + 3392, max_req = 0;
    uint8_t *x = malloc(total), *y = malloc(total);
    OSSL_PARAM mp[2] = {
        OSSL_PARAM_construct_size_t(OSSL_RAND_PARAM_MAX_REQUEST, &max_req),
        OSSL_PARAM_END};

    assert_non_null(r);
    assert_non_null(x);
    assert_non_null(y);
    prov = (OSSL_PROVIDER *)EVP_RAND_get0_provider(r);
    provctx = OSSL_PROVIDER_get0_provider_ctx(prov);
    algs = OSSL_PROVIDER_query_operation(prov, OSSL_OP_RAND, &no_cache);
    for (; algs != NULL && algs->algorithm_names != NULL; algs++) {
        if (strcmp(algs->algorithm_names, "CTR-DRBG") == 0)
            d = algs->implementation;
    }
    assert_non_null(d);
    for (; d->function_id != 0; d++) {
        switch (d->function_id) {
        case OSSL_FUNC_RAND_NEWCTX:
            newctx = OSSL_FUNC_rand_newctx(d);
            break;
        case OSSL_FUNC_RAND_FREECTX:
            freectx = OSSL_FUNC_rand_freectx(d);
            break;
        case OSSL_FUNC_RAND_INSTANTIATE:
            inst = OSSL_FUNC_rand_instantiate(d);
            break;
        case OSSL_FUNC_RAND_GENERATE:
            gen = OSSL_FUNC_rand_generate(d);
            break;
        case OSSL_FUNC_RAND_GET_CTX_PARAMS:
            getp = OSSL_FUNC_rand_get_ctx_params(d);
            break;
        }
    }
    assert_true(newctx && freectx && inst && gen && getp);

    memset(&g_fake, 0, sizeof(g_fake));
    fc_test_rand_bytes(g_fake.seed, sizeof(g_fake.seed));
    a = newctx(provctx, &g_fake, fake_parent);
    b = newctx(provctx, &g_fake, fake_parent);
    assert_non_null(a);
    assert_non_null(b);
    assert_true(getp(a, mp));
    assert_int_equal(max_req, 65536);
    assert_true(inst(a, 256, 0, (const uint8_t *)"split", 5, NULL));
    assert_true(inst(b, 256, 0, (const uint8_t *)"split", 5, NULL));
    /* One call of 3.05 * 2^16 bytes against four calls of at most 2^16. */
    assert_true(gen(a, x, total, 256, 0, (const uint8_t *)"adin", 4));
    for (size_t off = 0; off < total; off += 65536) {
        size_t n = total - off < 65536 ? total - off : 65536;
        assert_true(gen(b, y + off, n, 256, 0, (const uint8_t *)"adin", 4));
    }
    assert_memory_equal(x, y, total);
    /* The same with prediction resistance and additional input: only the
     * first piece reseeds (taking the input), the others still get it. */
    assert_true(gen(a, x, total, 256, 1, (const uint8_t *)"adin2", 5));
    assert_true(gen(b, y, 65536, 256, 1, (const uint8_t *)"adin2", 5));
    for (size_t off = 65536; off < total; off += 65536) {
        size_t n = total - off < 65536 ? total - off : 65536;
        assert_true(gen(b, y + off, n, 256, 0, (const uint8_t *)"adin2", 5));
    }
    assert_memory_equal(x, y, total);
    /* Prediction resistance: the parent is asked again, once per call. */
    g_fake.seeds = 0;
    assert_true(gen(a, x, 1000, 256, 1, NULL, 0));
    assert_int_equal(g_fake.seeds, 1);
    assert_int_equal(g_fake.locks, g_fake.unlocks);
    assert_true(g_fake.locks > 0);
    /* two instantiates, two PR generates above, one here */
    assert_int_equal(g_fake.clears, 2 + 2 + 1);
    freectx(a);
    freectx(b);
    EVP_RAND_free(r);
    free(x);
    free(y);
}

FC_TEST("drbg_evp", test_evp_seed_src)
{
    EVP_RAND_CTX *s = new_rand(g_both, "SEED-SRC", PROP_FC, NULL);
    EVP_RAND *r = EVP_RAND_fetch(g_both, "SEED-SRC", PROP_FC);
    uint8_t a[1000], b[1000];
    size_t zeros = 0;

    assert_string_equal(rand_provider(s), FC_NAME);
    /* A seed source has no parent. */
    assert_null(EVP_RAND_CTX_new(r, s));
    ERR_clear_error();
    EVP_RAND_free(r);
    assert_false(EVP_RAND_generate(s, a, 16, 0, 0, NULL, 0));
    ERR_clear_error();
    CHECK_OSSL(EVP_RAND_instantiate(s, 0, 0, NULL, 0, NULL));
    assert_int_equal(get_int(s, OSSL_RAND_PARAM_STATE), EVP_RAND_STATE_READY);
    assert_int_equal(get_uint(s, OSSL_RAND_PARAM_STRENGTH), 1024);
    assert_int_equal(get_size(s, OSSL_RAND_PARAM_MAX_REQUEST), 256);
    CHECK_OSSL(EVP_RAND_enable_locking(s));
    CHECK_OSSL(EVP_RAND_generate(s, a, sizeof(a), 0, 0, NULL, 0));
    CHECK_OSSL(EVP_RAND_generate(s, b, sizeof(b), 1024, 1, NULL, 0));
    CHECK_OSSL(EVP_RAND_reseed(s, 0, NULL, 0, NULL, 0));
    assert_memory_not_equal(a, b, sizeof(a));
    for (size_t i = 0; i < sizeof(a); i++)
        zeros += a[i] == 0;
    assert_true(zeros < 20);
    CHECK_OSSL(EVP_RAND_verify_zeroization(s));
    CHECK_OSSL(EVP_RAND_uninstantiate(s));
    assert_int_equal(EVP_RAND_get_state(s), EVP_RAND_STATE_UNINITIALISED);
    EVP_RAND_CTX_free(s);
}

/* ---- drbg_solo ---------------------------------------------------------- */

FC_TEST("drbg_solo", test_solo_chain)
{
    uint8_t a[64], b[64];

    assert_false(OSSL_PROVIDER_available(g_solo, "default"));
    CHECK_OSSL(RAND_bytes_ex(g_solo, a, sizeof(a), 0) == 1);
    CHECK_OSSL(RAND_priv_bytes_ex(g_solo, b, sizeof(b), 0) == 1);
    assert_memory_not_equal(a, b, sizeof(a));
    assert_ptr_equal(rand_prov(RAND_get0_primary(g_solo)), g_solo_prov);
    assert_ptr_equal(rand_prov(RAND_get0_public(g_solo)), g_solo_prov);
    assert_ptr_equal(rand_prov(RAND_get0_private(g_solo)), g_solo_prov);
    /* The library sets the secondaries' intervals. */
    assert_int_equal(
        get_uint(RAND_get0_public(g_solo), OSSL_DRBG_PARAM_RESEED_REQUESTS),
        1u << 16);
    assert_int_equal(get_time(RAND_get0_public(g_solo),
                              OSSL_DRBG_PARAM_RESEED_TIME_INTERVAL),
                     7 * 60);
    /* A big request, split into 2^16-byte generate calls. */
    {
        uint8_t *big = malloc(300000);
        assert_non_null(big);
        memset(big, 0, 300000);
        CHECK_OSSL(RAND_bytes_ex(g_solo, big, 300000, 256) == 1);
        assert_memory_not_equal(big, big + 65536, 4096);
        free(big);
    }
    /* RAND_add on the primary reaches the public DRBG. */
    {
        EVP_RAND_CTX *pub = RAND_get0_public(g_solo);
        unsigned int r0 = get_uint(pub, OSSL_DRBG_PARAM_RESEED_COUNTER);
        CHECK_OSSL(
            EVP_RAND_reseed(RAND_get0_primary(g_solo), 0, NULL, 0, NULL, 0));
        CHECK_OSSL(RAND_bytes_ex(g_solo, a, sizeof(a), 0) == 1);
        assert_int_equal(get_uint(pub, OSSL_DRBG_PARAM_RESEED_COUNTER), r0 + 1);
    }
}

/* After fork(2), the child must not repeat the parent's next output:
 * through the library chain (public DRBG <- primary <- SEED-SRC) and
 * through a DRBG seeded directly from getrandom (no parent). */
FC_TEST("drbg_solo", test_solo_fork)
{
    EVP_RAND_CTX *direct = new_rand(g_solo, "CTR-DRBG", NULL, NULL);
    uint8_t before[32], mine[2][32], theirs[2][32 + sizeof(unsigned int)];
    unsigned int r_before, r_child;
    int fds[2], status;
    pid_t pid;

    CHECK_OSSL(EVP_RAND_instantiate(direct, 0, 0, NULL, 0, NULL));
    CHECK_OSSL(RAND_bytes_ex(g_solo, before, sizeof(before), 0) == 1);
    CHECK_OSSL(EVP_RAND_generate(direct, before, 32, 0, 0, NULL, 0));
    r_before = get_uint(direct, OSSL_DRBG_PARAM_RESEED_COUNTER);
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        uint8_t out[2][32 + sizeof(unsigned int)] = {{0}};
        int ok = RAND_bytes_ex(g_solo, out[0], 32, 0) == 1;
        unsigned int r;
        ok = ok && EVP_RAND_generate(direct, out[1], 32, 0, 0, NULL, 0);
        r = get_uint(direct, OSSL_DRBG_PARAM_RESEED_COUNTER);
        memcpy(out[1] + 32, &r, sizeof(r));
        ok = ok && write(fds[1], out, sizeof(out)) == (ssize_t)sizeof(out);
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    CHECK_OSSL(RAND_bytes_ex(g_solo, mine[0], 32, 0) == 1);
    CHECK_OSSL(EVP_RAND_generate(direct, mine[1], 32, 0, 0, NULL, 0));
    assert_int_equal(read(fds[0], theirs, sizeof(theirs)),
                     (ssize_t)sizeof(theirs));
    close(fds[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_memory_not_equal(mine[0], theirs[0], 32);
    assert_memory_not_equal(mine[1], theirs[1], 32);
    memcpy(&r_child, theirs[1] + 32, sizeof(r_child));
    /* The child reseeded; the parent did not need to. */
    assert_int_equal(r_child, r_before + 1);
    assert_int_equal(get_uint(direct, OSSL_DRBG_PARAM_RESEED_COUNTER),
                     r_before);
    EVP_RAND_CTX_free(direct);
}

#define NTHREADS   4
#define PER_THREAD 3000

typedef struct {
    EVP_RAND_CTX *shared; /* NULL: RAND_bytes_ex / RAND_priv_bytes_ex */
    uint8_t (*out)[16];
    int failures;
} thread_arg;

static void *thread_main(void *varg)
{
    thread_arg *a = varg;

    for (int i = 0; i < PER_THREAD; i++) {
        int ok;
        if (a->shared != NULL)
            ok = EVP_RAND_generate(a->shared, a->out[i], 16, 0, 0, NULL, 0);
        else if (i & 1)
            ok = RAND_priv_bytes_ex(g_solo, a->out[i], 16, 0) == 1;
        else
            ok = RAND_bytes_ex(g_solo, a->out[i], 16, 0) == 1;
        a->failures += !ok;
    }
    return NULL;
}

static int cmp16(const void *x, const void *y)
{
    return memcmp(x, y, 16);
}

static void run_threads(EVP_RAND_CTX *shared, const char *what)
{
    uint8_t(*all)[16] = calloc(NTHREADS * PER_THREAD, 16);
    pthread_t th[NTHREADS];
    thread_arg args[NTHREADS];
    int failures = 0;

    assert_non_null(all);
    for (int t = 0; t < NTHREADS; t++) {
        args[t].shared = shared;
        args[t].out = all + t * PER_THREAD;
        args[t].failures = 0;
        assert_int_equal(pthread_create(&th[t], NULL, thread_main, &args[t]),
                         0);
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        failures += args[t].failures;
    }
    if (failures != 0) {
        print_openssl_errors();
        fail_msg("%s: %d generate calls failed", what, failures);
    }
    qsort(all, NTHREADS * PER_THREAD, 16, cmp16);
    for (int i = 1; i < NTHREADS * PER_THREAD; i++) {
        if (memcmp(all[i - 1], all[i], 16) == 0)
            fail_msg("%s: repeated 16-byte output", what);
    }
    free(all);
}

FC_TEST("drbg_solo", test_solo_threads)
{
    EVP_RAND_CTX *s = new_rand(g_solo, "SEED-SRC", NULL, NULL);
    EVP_RAND_CTX *c = new_rand(g_solo, "CTR-DRBG", NULL, s);
    unsigned int small = 50;
    OSSL_PARAM p[2] = {
        OSSL_PARAM_construct_uint(OSSL_DRBG_PARAM_RESEED_REQUESTS, &small),
        OSSL_PARAM_END};

    /* Per-thread public/private DRBGs drawing on the shared primary. */
    run_threads(NULL, "RAND_bytes");
    /* One DRBG shared by every thread (locking on), reseeding often. */
    CHECK_OSSL(EVP_RAND_instantiate(s, 0, 0, NULL, 0, NULL));
    CHECK_OSSL(EVP_RAND_enable_locking(c));
    CHECK_OSSL(EVP_RAND_instantiate(c, 0, 0, NULL, 0, p));
    run_threads(c, "shared DRBG");
    assert_true(get_uint(c, OSSL_DRBG_PARAM_RESEED_COUNTER) >=
                NTHREADS * PER_THREAD / 51);
    EVP_RAND_CTX_free(c);
    EVP_RAND_CTX_free(s);
}

FC_TEST("drbg_solo", test_solo_stats)
{
    uint8_t *buf = malloc(STATS_BYTES);

    assert_non_null(buf);
    CHECK_OSSL(RAND_bytes_ex(g_solo, buf, STATS_BYTES, 0) == 1);
    check_stats("RAND_bytes (fastcrypto alone)", buf, STATS_BYTES);
    free(buf);
}

/* ---- setup -------------------------------------------------------------- */

static int setup_both(void **state)
{
    g_both = fc_test_lib_load(NULL, FC_TEST_NEED_FC | FC_TEST_NEED_DEFAULT);
    return g_both != NULL ? 0 : -1;
}

static int teardown_both(void **state)
{
    OSSL_LIB_CTX_free(g_both);
    g_both = NULL;
    return 0;
}

/*
 * The module for the fastcrypto-only context: FC_TEST_MODULE_DIR/
 * fastcrypto.so, or else the "module = " path of FC_TEST_CONF (a name with
 * a '/' is loaded as a path). Writes it to |buf|; returns 0 if neither is
 * set.
 */
static int solo_module_path(char *buf, size_t len)
{
    const char *dir = getenv("FC_TEST_MODULE_DIR");
    const char *conf = getenv("FC_TEST_CONF");
    char line[1024];
    FILE *f;
    int found = 0;

    if (dir != NULL) {
        snprintf(buf, len, "%s/%s.so", dir, FC_NAME);
        return 1;
    }
    if (conf == NULL || (f = fopen(conf, "r")) == NULL)
        return 0;
    while (!found && fgets(line, sizeof(line), f) != NULL) {
        char *p = line, *e;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "module", 6) != 0)
            continue;
        p += 6;
        while (*p == ' ' || *p == '\t' || *p == '=')
            p++;
        e = p + strcspn(p, " \t\r\n#");
        *e = '\0';
        if (*p != '\0') {
            snprintf(buf, len, "%s", p);
            found = 1;
        }
    }
    fclose(f);
    return found;
}

static int setup_solo(void **state)
{
    char path[1024];

    if (!solo_module_path(path, sizeof(path))) {
        print_error("neither FC_TEST_MODULE_DIR nor FC_TEST_CONF names the "
                    "module (run through ctest)\n");
        return -1;
    }
    /* Loaded without a config: the generators are forced on, as the test
     * config does for the other groups, whatever this CPU would offer. */
    setenv("FASTCRYPTO_OFFER", "all", 1);
    g_solo = OSSL_LIB_CTX_new();
    g_solo_prov = g_solo != NULL ? OSSL_PROVIDER_load(g_solo, path) : NULL;
    return fc_test_setup_ok(g_solo_prov != NULL, "cannot load %s", path);
}

static int teardown_solo(void **state)
{
    OSSL_PROVIDER_unload(g_solo_prov);
    OSSL_LIB_CTX_free(g_solo);
    g_solo = NULL;
    return 0;
}

int main(void)
{
    static const fc_test_fixture fixtures[] = {
        {"drbg_evp", setup_both, teardown_both},
        {"drbg_solo", setup_solo, teardown_solo},
    };

    return fc_test_main(fixtures, sizeof(fixtures) / sizeof(fixtures[0]));
}
