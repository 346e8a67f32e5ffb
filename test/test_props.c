/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_props.c - the shipped fastcrypto.cnf keeps fastcrypto preferred
 * under the property queries programs pass themselves.
 *
 * A program's query is merged with the config's default_properties, and a
 * clause of the program's replaces a global clause of the same name
 * (ossl_property_merge, the same in 3.0 and 3.6). stunnel, for one, makes
 * its SSL_CTX with "provider!=fips": against "?provider=fastcrypto" that
 * dropped the preference, and default won the tie. fastcrypto.cnf prefers
 * "?fastcrypto.preferred=yes", a property only fastcrypto defines, instead.
 *
 * The tests load the shipped config (FC_TEST_SHIPPED_CONF, else beside
 * FC_TEST_CONF: fastcrypto.cnf with the module path of this build) into a
 * library context and check
 *   - which provider each algorithm resolves to under the common program
 *     queries: fastcrypto where it offers the algorithm on this CPU and
 *     OpenSSL (its "fastcrypto-offer" parameter, fc/offer.h), default
 *     where it does not; and that a program naming default gets default;
 *   - TLS 1.3 and TLS 1.2 (ECDHE and RSA key exchange) handshakes and data
 *     transfers between SSL_CTX_new_ex(libctx, "provider!=fips" or
 *     "fips=no", ...) servers and clients over
 *     a memory BIO pair, with fastcrypto's own counters proving that it
 *     encrypted and decrypted every record, signed, and unwrapped the RSA
 *     key exchange where it offers those algorithms, and did none of it
 *     where it does not; and that with "provider=default" it did none of
 *     that either.
 * Run under FASTCRYPTO_CPU_MASK values (test.sh does), the same tests see
 * fewer algorithms offered and check that those go to default.
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
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include "libctx.h"
#include "runner.h"

static OSSL_LIB_CTX *g_lib;
static EVP_PKEY *g_key;
static X509 *g_cert;
/* fastcrypto's "fastcrypto-offer": the families it offers here. */
static char g_offer[256];

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */

/* Fetches NAME of type T under Q and sets WHO to its provider's name. */
#define RESOLVE(T, WHO, NAME, Q)                                               \
    do {                                                                       \
        EVP_##T *m_ = EVP_##T##_fetch(g_lib, (NAME), (Q));                     \
        const OSSL_PROVIDER *p_ =                                              \
            m_ != NULL ? EVP_##T##_get0_provider(m_) : NULL;                   \
        (WHO) = p_ != NULL ? OSSL_PROVIDER_get0_name(p_) : "(none)";           \
        EVP_##T##_free(m_);                                                    \
    } while (0)

/* The provider an algorithm of |op| named |name| resolves to under |q|,
 * or "(none)". Provider names outlive the fetched object (the store holds
 * them). */
static const char *resolve(int op, const char *name, const char *q)
{
    const char *who = "(bad op)";

    switch (op) {
    case OSSL_OP_CIPHER:
        RESOLVE(CIPHER, who, name, q);
        break;
    case OSSL_OP_SIGNATURE:
        RESOLVE(SIGNATURE, who, name, q);
        break;
    case OSSL_OP_ASYM_CIPHER:
        RESOLVE(ASYM_CIPHER, who, name, q);
        break;
    case OSSL_OP_KEYMGMT:
        RESOLVE(KEYMGMT, who, name, q);
        break;
    case OSSL_OP_RAND:
        RESOLVE(RAND, who, name, q);
        break;
    }
    ERR_clear_error();
    return who;
}

/* 1 if fastcrypto offers the family |fam| ("gcm", "cbc", "drbg", "rsa"
 * for any RSA size, "rsa2048", ...). */
static int offered(const char *fam)
{
    size_t n = strlen(fam);

    if (strcmp(g_offer, "all") == 0)
        return 1;
    for (const char *s = g_offer; (s = strstr(s, fam)) != NULL; s += n)
        if ((s == g_offer || s[-1] == ' ') &&
            (s[n] == ' ' || s[n] == '\0' || strcmp(fam, "rsa") == 0))
            return 1;
    return 0;
}

/* Counter |name| of fastcrypto in g_lib, from "fastcrypto-stats". */
static uint64_t fc_counter(const char *name)
{
    OSSL_PROVIDER *p = OSSL_PROVIDER_load(g_lib, FC_NAME);
    char buf[1024] = "";
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_string("fastcrypto-stats", buf, sizeof(buf)),
        OSSL_PARAM_END,
    };
    size_t nl = strlen(name);
    const char *s;

    assert_non_null(p);
    assert_true(OSSL_PROVIDER_get_params(p, params));
    OSSL_PROVIDER_unload(p);
    for (s = buf; (s = strstr(s, name)) != NULL; s += nl)
        if ((s == buf || s[-1] == ' ') && s[nl] == '=')
            return strtoull(s + nl + 1, NULL, 10);
    fail_msg("no counter %s in \"%s\"", name, buf);
    return 0;
}

enum {
    C_GCM_ENC,
    C_GCM_DEC,
    C_GCM_TLS,
    C_CBC_ENC,
    C_RSA_SIGN,
    C_RSA_VERIFY,
    C_RSA_DEC,
    C_RSA_KEX,
    NC
};
static const char *const c_names[NC] = {
    "aes-gcm-enc", "aes-gcm-dec", "aes-gcm-tls", "aes-cbc-enc",
    "rsa-sign",    "rsa-verify",  "rsa-decrypt", "rsa-tls-kex",
};

static void counters(uint64_t v[NC])
{
    for (int i = 0; i < NC; i++)
        v[i] = fc_counter(c_names[i]);
}

/* ---------------------------------------------------------------------- */
/* Setup: the shipped config, a server key and certificate                */

static int setup(void **state)
{
    const char *conf = getenv("FC_TEST_SHIPPED_CONF");
    const char *tconf = getenv("FC_TEST_CONF");
    static char derived[4096];
    X509_NAME *nm;
    EVP_MD_CTX *md;
    int ok;

    /* Else the one CMake writes beside the test config. */
    if (conf == NULL && tconf != NULL && strrchr(tconf, '/') != NULL) {
        snprintf(derived, sizeof(derived), "%.*s/fastcrypto-shipped.cnf",
                 (int)(strrchr(tconf, '/') - tconf), tconf);
        conf = derived;
    }
    if (conf == NULL) {
        print_error("FC_TEST_SHIPPED_CONF is not set (run through ctest)\n");
        return -1;
    }
    g_lib = fc_test_lib_load(conf, FC_TEST_NEED_FC | FC_TEST_NEED_DEFAULT);
    if (g_lib == NULL)
        return -1;
    {
        OSSL_PROVIDER *p = OSSL_PROVIDER_load(g_lib, FC_NAME);
        OSSL_PARAM params[] = {
            OSSL_PARAM_utf8_string("fastcrypto-offer", g_offer,
                                   sizeof(g_offer)),
            OSSL_PARAM_END,
        };

        if (p == NULL || !OSSL_PROVIDER_get_params(p, params)) {
            print_error("no fastcrypto-offer parameter\n");
            return -1;
        }
        OSSL_PROVIDER_unload(p);
        printf("test_props: fastcrypto offers: %s\n", g_offer);
    }
    /* The key and certificate are made by default: they only need to
     * exist; what matters is who uses them in the handshake. */
    g_key = EVP_PKEY_Q_keygen(g_lib, "provider=default", "RSA", (size_t)2048);
    g_cert = X509_new_ex(g_lib, NULL);
    md = EVP_MD_CTX_new();
    ok = g_key != NULL && g_cert != NULL && md != NULL &&
         X509_set_version(g_cert, X509_VERSION_3) &&
         ASN1_INTEGER_set(X509_get_serialNumber(g_cert), 1) &&
         X509_gmtime_adj(X509_getm_notBefore(g_cert), -60) &&
         X509_gmtime_adj(X509_getm_notAfter(g_cert), 3600) &&
         X509_set_pubkey(g_cert, g_key) &&
         (nm = X509_get_subject_name(g_cert)) != NULL &&
         X509_NAME_add_entry_by_txt(nm, "CN", MBSTRING_ASC,
                                    (const unsigned char *)"localhost", -1, -1,
                                    0) &&
         X509_set_issuer_name(g_cert, nm) &&
         EVP_DigestSignInit_ex(md, NULL, "SHA256", g_lib, "provider=default",
                               g_key, NULL) &&
         X509_sign_ctx(g_cert, md) > 0;
    EVP_MD_CTX_free(md);
    return fc_test_setup_ok(ok, "cannot make the test certificate");
}

static int teardown(void **state)
{
    X509_free(g_cert);
    EVP_PKEY_free(g_key);
    OSSL_LIB_CTX_free(g_lib);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Fetches under program queries                                          */

static const struct {
    int op;
    const char *name;
    const char *family; /* as in "fastcrypto-offer" */
} k_algs[] = {
    {OSSL_OP_CIPHER, "AES-128-GCM", "gcm"},
    {OSSL_OP_CIPHER, "id-aes256-GCM", "gcm"},
    {OSSL_OP_CIPHER, "AES-128-CBC", "cbc"},
    {OSSL_OP_CIPHER, "AES-256-CBC", "cbc"},
    {OSSL_OP_CIPHER, "AES-128-CTR", "ctr"},
    {OSSL_OP_CIPHER, "AES-128-CBC-HMAC-SHA1", "cbc-hmac"},
    {OSSL_OP_CIPHER, "AES-256-CBC-HMAC-SHA256", "cbc-hmac"},
    {OSSL_OP_SIGNATURE, "RSA", "rsa"},
    {OSSL_OP_ASYM_CIPHER, "RSA", "rsa"},
    {OSSL_OP_KEYMGMT, "RSA", "rsa"},
    {OSSL_OP_KEYMGMT, "rsaEncryption", "rsa"},
    {OSSL_OP_RAND, "CTR-DRBG", "drbg"},
    {OSSL_OP_RAND, "SEED-SRC", "drbg"},
};

/* A program query and what it must resolve to: |want| for an algorithm
 * fastcrypto offers, |want_not| for one it does not. */
typedef struct query {
    const char *q;
    const char *want, *want_not;
} query;

static void check_queries(const query *qs, size_t nq)
{
    int bad = 0;

    for (size_t i = 0; i < nq; i++) {
        for (size_t a = 0; a < sizeof(k_algs) / sizeof(k_algs[0]); a++) {
            const char *who = resolve(k_algs[a].op, k_algs[a].name, qs[i].q);
            const char *want =
                offered(k_algs[a].family) ? qs[i].want : qs[i].want_not;

            /* Default offers some of these on some CPUs only (the
             * CBC-HMAC ciphers need AES-NI): where it lacks one, the
             * answer that would be default is nothing. */
            if (strcmp(want, "default") == 0 &&
                strcmp(
                    resolve(k_algs[a].op, k_algs[a].name, "provider=default"),
                    "default") != 0)
                want = "(none)";
            if (strcmp(who, want) != 0) {
                print_error("query \"%s\": op %d %s resolves to %s, want %s\n",
                            qs[i].q != NULL ? qs[i].q : "(none)", k_algs[a].op,
                            k_algs[a].name, who, want);
                bad = 1;
            }
        }
    }
    assert_false(bad);
}

/* Queries that say nothing for or against fastcrypto keep it where it is
 * offered; the rest goes to default (nothing at all where the query
 * excludes default or asks for fastcrypto outright). */
FC_TEST("property queries (shipped config)", test_fetch_keeps_fastcrypto)
{
    static const query qs[] = {
        {NULL, FC_NAME, "default"},
        {"", FC_NAME, "default"},
        {"provider!=fips", FC_NAME, "default"},
        {"provider!=legacy", FC_NAME, "default"},
        {"fips=no", FC_NAME, "default"},
        {"fips!=yes", FC_NAME, "default"},
        {"?fips=yes", FC_NAME, "default"},
        {"-provider", FC_NAME, "default"},
        {"-fips", FC_NAME, "default"},
        {"provider=fastcrypto", FC_NAME, "(none)"},
        {"?provider=fastcrypto", FC_NAME, "default"},
        {"provider!=default,?provider=fastcrypto", FC_NAME, "default"},
    };

    check_queries(qs, sizeof(qs) / sizeof(qs[0]));
}

/* A program that asks for default by name gets default. The optional form
 * ties with our preference, and a tie goes to the provider activated
 * first: default, in fastcrypto.cnf. */
FC_TEST("property queries (shipped config)", test_fetch_default_by_name)
{
    static const query qs[] = {
        {"provider=default", "default", "default"},
        {"?provider=default", "default", "default"},
        {"provider!=fastcrypto", "default", "default"},
        {"provider=default,fips=no", "default", "default"},
    };

    check_queries(qs, sizeof(qs) / sizeof(qs[0]));
}

/* Nothing matches a hard query for FIPS-approved implementations: neither
 * fastcrypto nor default claims "fips=yes". */
FC_TEST("property queries (shipped config)", test_fetch_fips_yes)
{
    assert_string_equal(resolve(OSSL_OP_CIPHER, "AES-128-GCM", "fips=yes"),
                        "(none)");
    assert_string_equal(resolve(OSSL_OP_SIGNATURE, "RSA", "fips=yes"),
                        "(none)");
}

/* ---------------------------------------------------------------------- */
/* TLS over a memory BIO pair with an SSL_CTX query of its own            */

/* Moves data between the two ends until both handshakes are done. */
static int handshake(SSL *srv, SSL *cli)
{
    int sdone = 0, cdone = 0;

    for (int i = 0; i < 100 && !(sdone && cdone); i++) {
        if (!cdone) {
            int r = SSL_connect(cli);
            if (r == 1)
                cdone = 1;
            else if (SSL_get_error(cli, r) != SSL_ERROR_WANT_READ)
                return 0;
        }
        if (!sdone) {
            int r = SSL_accept(srv);
            if (r == 1)
                sdone = 1;
            else if (SSL_get_error(srv, r) != SSL_ERROR_WANT_READ)
                return 0;
        }
    }
    return sdone && cdone;
}

/* |n| records of |len| bytes from |from| to |to|, checked byte for byte. */
static int transfer(SSL *from, SSL *to, int n, size_t len)
{
    static unsigned char out[4096], in[4096];

    for (int i = 0; i < n; i++) {
        size_t got = 0;

        if (RAND_bytes_ex(g_lib, out, len, 0) != 1 ||
            SSL_write(from, out, (int)len) != (int)len)
            return 0;
        while (got < len) {
            int r = SSL_read(to, in + got, (int)(len - got));
            if (r <= 0)
                return 0;
            got += (size_t)r;
        }
        if (memcmp(in, out, len) != 0)
            return 0;
    }
    return 1;
}

/*
 * One connection between a server made with SSL_CTX_new_ex(g_lib, |sq|,
 * ...) and a client made with |cq|, limited to |version| and |suite|, with
 * |n| records each way. Returns the negotiated cipher's name in |got|.
 */
static void tls_run2(const char *sq, const char *cq, int version,
                     const char *suite, int n, char *got, size_t gotlen)
{
    SSL_CTX *sctx = SSL_CTX_new_ex(g_lib, sq, TLS_server_method());
    SSL_CTX *cctx = SSL_CTX_new_ex(g_lib, cq, TLS_client_method());
    SSL *srv = NULL, *cli = NULL;
    BIO *sb = NULL, *cb = NULL;

    assert_non_null(sctx);
    assert_non_null(cctx);
    assert_true(SSL_CTX_use_certificate(sctx, g_cert) == 1 &&
                SSL_CTX_use_PrivateKey(sctx, g_key) == 1);
    assert_true(X509_STORE_add_cert(SSL_CTX_get_cert_store(cctx), g_cert));
    SSL_CTX_set_verify(cctx, SSL_VERIFY_PEER, NULL);
    for (int i = 0; i < 2; i++) {
        SSL_CTX *c = i == 0 ? sctx : cctx;
        assert_true(SSL_CTX_set_min_proto_version(c, version) &&
                    SSL_CTX_set_max_proto_version(c, version));
        if (version == TLS1_3_VERSION)
            assert_true(SSL_CTX_set_ciphersuites(c, suite));
        else
            assert_true(SSL_CTX_set_cipher_list(c, suite));
    }
    srv = SSL_new(sctx);
    cli = SSL_new(cctx);
    assert_non_null(srv);
    assert_non_null(cli);
    assert_true(BIO_new_bio_pair(&sb, 0, &cb, 0));
    SSL_set_bio(srv, sb, sb);
    SSL_set_bio(cli, cb, cb);
    if (!handshake(srv, cli)) {
        ERR_print_errors_fp(stderr);
        fail_msg("handshake (%s) failed", suite);
    }
    assert_int_equal(SSL_get_verify_result(cli), X509_V_OK);
    snprintf(got, gotlen, "%s",
             SSL_CIPHER_get_name(SSL_get_current_cipher(cli)));
    assert_true(transfer(cli, srv, n, 1000));
    assert_true(transfer(srv, cli, n, 3000));
    SSL_free(srv);
    SSL_free(cli);
    SSL_CTX_free(sctx);
    SSL_CTX_free(cctx);
    ERR_clear_error();
}

/* Both ends with |propq|. */
static void tls_run(const char *propq, int version, const char *suite, int n,
                    char *got, size_t gotlen)
{
    tls_run2(propq, propq, version, suite, n, got, gotlen);
}

#define NREC 8

/* Where fastcrypto offers |fam|, the counters moved as |cond| says; where
 * it does not, counter |i| did not move at all (default did the work). */
#define EXPECT_MOVED(fam, i, cond)                                             \
    do {                                                                       \
        if (offered(fam))                                                      \
            assert_true(cond);                                                 \
        else                                                                   \
            assert_int_equal(b[i] - a[i], 0);                                  \
    } while (0)

FC_TEST("property queries (shipped config)", test_tls13_provider_not_fips)
{
    uint64_t a[NC], b[NC];
    char got[64];

    counters(a);
    tls_run("provider!=fips", TLS1_3_VERSION, "TLS_AES_128_GCM_SHA256", NREC,
            got, sizeof(got));
    counters(b);
    assert_string_equal(got, "TLS_AES_128_GCM_SHA256");
    print_message("TLS 1.3 under \"provider!=fips\": aes-gcm-enc +%llu, "
                  "aes-gcm-dec +%llu, rsa-sign +%llu, aes-cbc-enc +%llu\n",
                  (unsigned long long)(b[C_GCM_ENC] - a[C_GCM_ENC]),
                  (unsigned long long)(b[C_GCM_DEC] - a[C_GCM_DEC]),
                  (unsigned long long)(b[C_RSA_SIGN] - a[C_RSA_SIGN]),
                  (unsigned long long)(b[C_CBC_ENC] - a[C_CBC_ENC]));
    /* Both ends run here: every record one sealed, the other opened. */
    EXPECT_MOVED("gcm", C_GCM_ENC, b[C_GCM_ENC] - a[C_GCM_ENC] >= 2 * NREC);
    assert_int_equal(b[C_GCM_ENC] - a[C_GCM_ENC], b[C_GCM_DEC] - a[C_GCM_DEC]);
    /* The server's CertificateVerify, checked by the client. */
    EXPECT_MOVED("rsa2048", C_RSA_SIGN, b[C_RSA_SIGN] - a[C_RSA_SIGN] == 1);
    EXPECT_MOVED("rsa2048", C_RSA_VERIFY,
                 b[C_RSA_VERIFY] - a[C_RSA_VERIFY] >= 1);
    /* Session tickets (AES-256-CBC). */
    EXPECT_MOVED("cbc", C_CBC_ENC, b[C_CBC_ENC] - a[C_CBC_ENC] >= 1);

    /* The other common query, on the server. (Not on the client: there
     * OpenSSL 3.6, default alone as well, cannot decode the server's
     * certificate key under "fips=no".) */
    counters(a);
    tls_run2("fips=no", NULL, TLS1_3_VERSION, "TLS_AES_256_GCM_SHA384", NREC,
             got, sizeof(got));
    counters(b);
    assert_string_equal(got, "TLS_AES_256_GCM_SHA384");
    EXPECT_MOVED("gcm", C_GCM_ENC, b[C_GCM_ENC] - a[C_GCM_ENC] >= 2 * NREC);
    assert_int_equal(b[C_GCM_ENC] - a[C_GCM_ENC], b[C_GCM_DEC] - a[C_GCM_DEC]);
    EXPECT_MOVED("rsa2048", C_RSA_SIGN, b[C_RSA_SIGN] - a[C_RSA_SIGN] == 1);
}

FC_TEST("property queries (shipped config)", test_tls12_provider_not_fips)
{
    uint64_t a[NC], b[NC];
    char got[64];

    counters(a);
    tls_run("provider!=fips", TLS1_2_VERSION, "ECDHE-RSA-AES128-GCM-SHA256",
            NREC, got, sizeof(got));
    counters(b);
    assert_string_equal(got, "ECDHE-RSA-AES128-GCM-SHA256");
    /* One count per record per end: an even number. */
    EXPECT_MOVED("gcm", C_GCM_TLS, b[C_GCM_TLS] - a[C_GCM_TLS] >= 4 * NREC);
    assert_int_equal((b[C_GCM_TLS] - a[C_GCM_TLS]) % 2, 0);
    EXPECT_MOVED("rsa2048", C_RSA_SIGN, b[C_RSA_SIGN] - a[C_RSA_SIGN] == 1);
    EXPECT_MOVED("rsa2048", C_RSA_VERIFY,
                 b[C_RSA_VERIFY] - a[C_RSA_VERIFY] >= 1);

    /* RSA key exchange: the premaster secret unwrapped by fastcrypto. */
    counters(a);
    tls_run("provider!=fips", TLS1_2_VERSION, "AES128-GCM-SHA256", NREC, got,
            sizeof(got));
    counters(b);
    assert_string_equal(got, "AES128-GCM-SHA256");
    EXPECT_MOVED("rsa2048", C_RSA_DEC, b[C_RSA_DEC] - a[C_RSA_DEC] == 1);
    EXPECT_MOVED("rsa2048", C_RSA_KEX, b[C_RSA_KEX] - a[C_RSA_KEX] == 1);
    EXPECT_MOVED("gcm", C_GCM_TLS, b[C_GCM_TLS] - a[C_GCM_TLS] >= 4 * NREC);
}

/* Signs with |sk| and verifies with |vk| under |vprops| (NULL: the
 * preferred provider), a fresh digest context for each as a handshake has;
 * both must succeed and leave no error. Returns the signer's provider. */
static const char *sign_then_verify(EVP_PKEY *sk, EVP_PKEY *vk,
                                    const char *vprops)
{
    static const unsigned char msg[] = "a size fastcrypto does not offer";
    unsigned char sig[256];
    size_t siglen = sizeof(sig);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    const char *who;

    assert_non_null(md);
    ERR_clear_error();
    assert_int_equal(
        EVP_DigestSignInit_ex(md, &pc, "SHA256", g_lib, NULL, sk, NULL), 1);
    assert_non_null(EVP_PKEY_CTX_get0_provider(pc));
    who = OSSL_PROVIDER_get0_name(EVP_PKEY_CTX_get0_provider(pc));
    assert_int_equal(EVP_DigestSign(md, sig, &siglen, msg, sizeof(msg) - 1), 1);
    assert_int_equal(EVP_MD_CTX_reset(md), 1);
    assert_int_equal(
        EVP_DigestVerifyInit_ex(md, NULL, "SHA256", g_lib, vprops, vk, NULL),
        1);
    assert_int_equal(EVP_DigestVerify(md, sig, siglen, msg, sizeof(msg) - 1),
                     1);
    assert_int_equal(ERR_peek_error(), 0);
    EVP_MD_CTX_free(md);
    return who;
}

/* 1 if |pkey| is held by fastcrypto's key management. */
static int held_by_us(const EVP_PKEY *pkey)
{
    const OSSL_PROVIDER *p = EVP_PKEY_get0_provider(pkey);

    return p != NULL && strcmp(OSSL_PROVIDER_get0_name(p), "fastcrypto") == 0;
}

/*
 * An RSA key of a size fastcrypto does not offer (1024 bits: a scalar
 * Montgomery size on every CPU, see fc/offer.h) runs on default: imported
 * into fastcrypto (libcrypto moving the key for an operation, or a
 * program's EVP_PKEY_fromdata on the preferred keymgmt) it is kept as
 * default's key and used there (provider/rsa_deleg.c): signing and
 * verifying work, leave the error queue empty, and move none of
 * fastcrypto's counters.
 */
FC_TEST("property queries (shipped config)", test_rsa_size_not_offered)
{
    EVP_PKEY *key =
        EVP_PKEY_Q_keygen(g_lib, "provider=default", "RSA", (size_t)1024);
    uint64_t a[NC], b[NC];

    assert_non_null(key);
    counters(a);
    sign_then_verify(key, key, NULL);
    counters(b);
    if (!offered("rsa-other")) {
        assert_int_equal(b[C_RSA_SIGN] - a[C_RSA_SIGN], 0);
        assert_int_equal(b[C_RSA_VERIFY] - a[C_RSA_VERIFY], 0);
    }
    /* The same key built by the program on the preferred keymgmt: ours
     * wherever fastcrypto registers RSA at all, and its operations then
     * go through our signature code to default's. */
    {
        OSSL_PARAM *params = NULL;
        EVP_PKEY_CTX *fd = EVP_PKEY_CTX_new_from_name(g_lib, "RSA", NULL);
        EVP_PKEY *built = NULL;
        const char *who;

        assert_int_equal(EVP_PKEY_todata(key, EVP_PKEY_KEYPAIR, &params), 1);
        assert_non_null(fd);
        assert_int_equal(EVP_PKEY_fromdata_init(fd), 1);
        assert_int_equal(
            EVP_PKEY_fromdata(fd, &built, EVP_PKEY_KEYPAIR, params), 1);
        if (offered("rsa"))
            assert_true(held_by_us(built));
        sign_then_verify(key, built, NULL);
        who = sign_then_verify(built, key, "provider=default");
        if (offered("rsa"))
            assert_string_equal(who, "fastcrypto");
        counters(a);
        if (!offered("rsa-other")) {
            assert_int_equal(a[C_RSA_SIGN] - b[C_RSA_SIGN], 0);
            assert_int_equal(a[C_RSA_VERIFY] - b[C_RSA_VERIFY], 0);
        }
        EVP_PKEY_free(built);
        EVP_PKEY_CTX_free(fd);
        OSSL_PARAM_free(params);
    }
    /* And one generated on the preferred keymgmt: its operations too run
     * on default where the size is not offered. */
    {
        EVP_PKEY *gen = EVP_PKEY_Q_keygen(g_lib, NULL, "RSA", (size_t)1024);

        assert_non_null(gen);
        if (offered("rsa"))
            assert_true(held_by_us(gen));
        counters(b);
        sign_then_verify(gen, gen, "provider=default");
        counters(a);
        if (!offered("rsa-other"))
            assert_int_equal(a[C_RSA_SIGN] - b[C_RSA_SIGN], 0);
        EVP_PKEY_free(gen);
    }
    EVP_PKEY_free(key);
}

/* The counters can tell: a program asking for default gets none of ours. */
FC_TEST("property queries (shipped config)", test_tls_provider_default)
{
    uint64_t a[NC], b[NC];
    char got[64];

    counters(a);
    tls_run("provider=default", TLS1_3_VERSION, "TLS_AES_128_GCM_SHA256", NREC,
            got, sizeof(got));
    tls_run("provider=default", TLS1_2_VERSION, "AES128-GCM-SHA256", NREC, got,
            sizeof(got));
    counters(b);
    for (int i = 0; i < NC; i++)
        if (b[i] != a[i])
            fail_msg("\"provider=default\": %s moved by %llu", c_names[i],
                     (unsigned long long)(b[i] - a[i]));
}

int main(void)
{
    static const fc_test_fixture fixtures[] = {
        {"property queries (shipped config)", setup, teardown},
    };

    printf("test_props: %s\n", OpenSSL_version(OPENSSL_VERSION));
    fflush(stdout);
    return fc_test_main(fixtures, sizeof(fixtures) / sizeof(fixtures[0]));
}
