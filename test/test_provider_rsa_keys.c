/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_provider_rsa_keys.c - the RSA keys beyond two primes and plain RSA
 * that the default provider accepts, through EVP against default:
 *
 *   multi-prime (3..5 primes, RFC 8017 3.2):
 *     mp_wycheproof  Wycheproof's three-prime RSA-OAEP decryption vectors
 *                    (test/kat/rsa_three_primes_oaep.txt), keys decoded by
 *                    default and used by fastcrypto, as a program's keys
 *                    are;
 *     mp_default     keys of 3 and 4 primes made by default: PKCS#1 v1.5
 *                    signatures identical to default's, PSS and OAEP
 *                    across, raw operations equal, export equal to
 *                    default's;
 *     mp_keygen      keys of 3 (and 4) primes made by fastcrypto, moved to
 *                    default: EVP_PKEY_check passes (where default passes
 *                    its own key of that shape), signatures identical;
 *                    too many primes for the size refused as default
 *                    refuses them (same reason).
 *
 *   RSA-PSS keys (RSA-PSS:RSASSA-PSS, RFC 4055; restrictions on the hash,
 *   the MGF1 hash and the minimum salt length):
 *     pss_keys       made by fastcrypto and by default, restricted or not:
 *                    the same parameters reported (mandatory and default
 *                    digest, restrictions), moved both ways intact; a plain
 *                    RSA key given restrictions refused by both;
 *     pss_rules      a matrix of digests, MGF1 digests, salt lengths and
 *                    padding modes for signing and verifying: each accepted
 *                    or refused as default does, with default's reason;
 *                    signatures cross-verified; encryption refused;
 *     pss_encoding   a key of ours through default's PEM encoder and
 *                    decoder, and an X.509 certificate signed with it by
 *                    fastcrypto (rsassaPss with the key's parameters) that
 *                    default verifies.
 *
 * The tests run in every group of support/rsa_suite.h (one library context
 * per CPU mask: native, "ifma", "all"), so every RSA engine meets every key
 * shape, with its pair helpers where an operation is compared with
 * default's. Every fastcrypto operation is checked to have run on
 * fastcrypto (EVP_PKEY_CTX_get0_provider).
 *
 * Environment: FC_TEST_CONF (required; ctest sets it), FC_TEST_QUICK=1
 * (fewer keys and cases).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "evp_checks.h"
#include "impls.h"
#include "kat.h"
#include "rsa_suite.h"

#define MAXB FC_RSA_MAXB

/* ---- keys ------------------------------------------------------------------
 */

static const char *const factor_name[5] = {
    OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
    OSSL_PKEY_PARAM_RSA_FACTOR3, OSSL_PKEY_PARAM_RSA_FACTOR4,
    OSSL_PKEY_PARAM_RSA_FACTOR5};

/* The number of primes of |pkey| (rsa-factorN present). */
static int num_primes(const EVP_PKEY *pkey)
{
    int n = 0;

    for (int i = 0; i < 5; i++) {
        BIGNUM *b = NULL;

        if (EVP_PKEY_get_bn_param(pkey, factor_name[i], &b))
            n = i + 1;
        BN_free(b);
    }
    ERR_clear_error();
    return n;
}

/* |a| and |b| hold the same value (integers, strings, ints). */
static int same_param(const OSSL_PARAM *a, const OSSL_PARAM *b)
{
    if (a->data_type == OSSL_PARAM_UTF8_STRING ||
        b->data_type == OSSL_PARAM_UTF8_STRING) {
        const char *x = NULL, *y = NULL;

        return OSSL_PARAM_get_utf8_string_ptr(a, &x) &&
               OSSL_PARAM_get_utf8_string_ptr(b, &y) && strcmp(x, y) == 0;
    }
    if (a->data_type == OSSL_PARAM_INTEGER) {
        int x, y;

        return OSSL_PARAM_get_int(a, &x) && OSSL_PARAM_get_int(b, &y) && x == y;
    }
    {
        BIGNUM *x = NULL, *y = NULL;
        int same = OSSL_PARAM_get_BN(a, &x) && OSSL_PARAM_get_BN(b, &y) &&
                   BN_cmp(x, y) == 0;

        BN_free(x);
        BN_free(y);
        return same;
    }
}

/* Every component and key parameter of |a| and |b|, as exported, is the
 * same. */
static void same_export(EVP_PKEY *a, EVP_PKEY *b, const char *what)
{
    OSSL_PARAM *pa = NULL, *pb = NULL;
    size_t na = 0, nb = 0;

    CHECK(EVP_PKEY_todata(a, EVP_PKEY_KEYPAIR, &pa) > 0 &&
              EVP_PKEY_todata(b, EVP_PKEY_KEYPAIR, &pb) > 0,
          "%s: export", what);
    for (const OSSL_PARAM *p = pa; p->key != NULL; p++, na++) {
        const OSSL_PARAM *q = OSSL_PARAM_locate_const(pb, p->key);

        CHECK(q != NULL, "%s: %s missing", what, p->key);
        CHECK(same_param(p, q), "%s: %s differs", what, p->key);
    }
    for (const OSSL_PARAM *p = pb; p->key != NULL; p++)
        nb++;
    CHECK(na == nb, "%s: %zu parameters against %zu", what, na, nb);
    OSSL_PARAM_free(pa);
    OSSL_PARAM_free(pb);
}

/* ---- operations ------------------------------------------------------------
 */

/* OAEP (|oaep_md|, MGF1 with |mgf1_md|, |label|) or raw (oaep_md NULL)
 * encryption (|enc|) or decryption on the provider |propq| selects; the
 * output length, or (size_t)-1 on failure. */
static size_t crypt_op(const fc_rsa_env *e, EVP_PKEY *pkey, const char *propq,
                       int enc, const char *oaep_md, const char *mgf1_md,
                       const uint8_t *label, size_t label_len,
                       const uint8_t *in, size_t inlen, uint8_t *out)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(e->lib, pkey, propq);
    size_t outlen = MAXB;
    int ok;

    ok = c != NULL &&
         (enc ? EVP_PKEY_encrypt_init(c) : EVP_PKEY_decrypt_init(c)) > 0;
    if (ok && oaep_md == NULL) {
        ok = EVP_PKEY_CTX_set_rsa_padding(c, RSA_NO_PADDING) > 0;
    } else if (ok) {
        ok = EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_OAEP_PADDING) > 0 &&
             EVP_PKEY_CTX_set_rsa_oaep_md_name(c, oaep_md, NULL) > 0 &&
             EVP_PKEY_CTX_set_rsa_mgf1_md_name(c, mgf1_md, NULL) > 0;
        if (ok && label_len > 0) {
            uint8_t *l = OPENSSL_memdup(label, label_len);

            ok = l != NULL &&
                 EVP_PKEY_CTX_set0_rsa_oaep_label(c, l, (int)label_len) > 0;
            if (!ok)
                OPENSSL_free(l);
        }
    }
    if (ok && strstr(propq, "fastcrypto") != NULL)
        CHECK(strcmp(fc_rsa_op_provider(c), "fastcrypto") == 0, "%s ran on %s",
              enc ? "encryption" : "decryption", fc_rsa_op_provider(c));
    ok = ok && (enc ? EVP_PKEY_encrypt(c, out, &outlen, in, inlen)
                    : EVP_PKEY_decrypt(c, out, &outlen, in, inlen)) > 0;
    EVP_PKEY_CTX_free(c);
    ERR_clear_error();
    return ok ? outlen : (size_t)-1;
}

/* ---- multi-prime -----------------------------------------------------------
 */

/* |k| (default's key) used by both providers: identical PKCS#1 v1.5
 * signatures, PSS and OAEP across, raw private operations equal, the key
 * moved to fastcrypto exports what default exports. */
static void mp_check(const fc_rsa_env *e, EVP_PKEY *kd, const char *what)
{
    EVP_PKEY *kf =
        fc_test_move_key(e->lib, kd, "RSA", EVP_PKEY_KEYPAIR, FC_PROPQ);
    const op_spec pkcs1 =
        OP(.pad = RSA_PKCS1_PADDING, .md = "SHA256", .digest = 1);
    const op_spec pss =
        OP(.pad = RSA_PKCS1_PSS_PADDING, .md = "SHA256", .digest = 1);
    const op_spec oaep =
        OP(.pad = RSA_PKCS1_OAEP_PADDING, .md = "SHA256", .mgf1 = "SHA256");
    const op_spec raw = OP(.pad = RSA_NO_PADDING);
    uint8_t msg[100], s[MAXB], c[MAXB], p[MAXB];
    size_t k = (size_t)EVP_PKEY_get_size(kd);

    CHECK(kf != NULL, "%s: fastcrypto refused the key", what);
    CHECK(strcmp(fc_rsa_key_provider(kf), "fastcrypto") == 0,
          "%s: key held by %s", what, fc_rsa_key_provider(kf));
    CHECK(num_primes(kf) == num_primes(kd), "%s: %d primes against %d", what,
          num_primes(kf), num_primes(kd));
    same_export(kf, kd, what);
    fc_test_rand_bytes(msg, sizeof(msg));
    CHECK(fc_rsa_pair_sign(e, kf, kd, &pkcs1, msg, sizeof(msg), s, what) == k,
          "%s: PKCS#1 v1.5 signatures", what);
    CHECK(fc_rsa_cross_sign(e, kf, kd, &pss, &pss, msg, sizeof(msg), what),
          "%s: PSS signatures", what);
    fc_rsa_cross_crypt(e, kf, kd, &oaep, msg, 32, k, what);
    /* raw: a random value below n (top byte zero) */
    for (int i = 0; i < 3; i++) {
        memset(c, 0, k);
        fc_test_rand_bytes(c + 1, k - 1);
        CHECK(fc_rsa_pair_same(e, OP_DECRYPT, kf, kd, &raw, c, k, p, what) == k,
              "%s: raw private operations", what);
    }
    EVP_PKEY_free(kf);
}

/* A |bits|-bit key of |np| primes generated by the provider |propq| selects,
 * NULL if it refuses. */
static EVP_PKEY *gen_mp(const fc_rsa_env *e, const char *propq, size_t bits,
                        size_t np)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(e->lib, "RSA", propq);
    EVP_PKEY *pkey = NULL;

    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) <= 0 ||
        EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, (int)bits) <= 0 ||
        EVP_PKEY_CTX_set_rsa_keygen_primes(ctx, (int)np) <= 0 ||
        EVP_PKEY_keygen(ctx, &pkey) <= 0)
        pkey = NULL;
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

/* Decryption of Wycheproof's three-prime OAEP vectors with keys decoded by
 * default and used by fastcrypto: valid ones give the message, invalid ones
 * fail, as on default. */
FC_RSA_TEST(test_mp_wycheproof)
{
    const fc_rsa_env *e = *state;
    static const char *const fields[] = {
        "Name", "N",  "E",   "D",  "P",     "Q",     "R",
        "DP",   "DQ", "DR",  "QI", "TR",    "Hash",  "MgfHash",
        "Key",  "Id", "Msg", "Ct", "Label", "Valid", NULL};
    static const char *const comp[] = {"N",  "E",  "D",  "P",  "Q", "R",
                                       "DP", "DQ", "DR", "QI", "TR"};
    static const char *const param[] = {
        OSSL_PKEY_PARAM_RSA_N,           OSSL_PKEY_PARAM_RSA_E,
        OSSL_PKEY_PARAM_RSA_D,           OSSL_PKEY_PARAM_RSA_FACTOR1,
        OSSL_PKEY_PARAM_RSA_FACTOR2,     OSSL_PKEY_PARAM_RSA_FACTOR3,
        OSSL_PKEY_PARAM_RSA_EXPONENT1,   OSSL_PKEY_PARAM_RSA_EXPONENT2,
        OSSL_PKEY_PARAM_RSA_EXPONENT3,   OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
        OSSL_PKEY_PARAM_RSA_COEFFICIENT2};
    fc_kat *k = fc_kat_open("rsa_three_primes_oaep.txt");
    EVP_PKEY *kd = NULL;
    char name[32] = "", hash[16] = "", mgf[16] = "";
    size_t valid = 0, invalid = 0;

    fc_test_rand_start(__func__);

    while (fc_kat_next(k)) {
        uint8_t out[MAXB], out2[MAXB];
        const uint8_t *ct, *msg, *label;
        size_t clen, mlen, llen, got, got2;
        int ok_expected;

        fc_kat_check_fields(k, fields);
        if (fc_kat_has(k, "Name")) {
            OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
            BIGNUM *bn[11];
            OSSL_PARAM *params;
            EVP_PKEY_CTX *ctx;

            EVP_PKEY_free(kd);
            kd = NULL;
            snprintf(name, sizeof(name), "%s", fc_kat_str(k, "Name"));
            snprintf(hash, sizeof(hash), "%s", fc_kat_str(k, "Hash"));
            snprintf(mgf, sizeof(mgf), "%s", fc_kat_str(k, "MgfHash"));
            for (size_t i = 0; i < 11; i++) {
                size_t len;
                const uint8_t *b = fc_kat_bytes(k, comp[i], &len);

                bn[i] = BN_bin2bn(b, (int)len, NULL);
                CHECK(bn[i] != NULL &&
                          OSSL_PARAM_BLD_push_BN(bld, param[i], bn[i]),
                      "%s: %s", name, comp[i]);
            }
            params = OSSL_PARAM_BLD_to_param(bld);
            ctx = EVP_PKEY_CTX_new_from_name(e->lib, "RSA", DF_PROPQ);
            CHECK(ctx != NULL && EVP_PKEY_fromdata_init(ctx) > 0 &&
                      EVP_PKEY_fromdata(ctx, &kd, EVP_PKEY_KEYPAIR, params) > 0,
                  "%s: default refused the key", name);
            EVP_PKEY_CTX_free(ctx);
            OSSL_PARAM_free(params);
            OSSL_PARAM_BLD_free(bld);
            for (size_t i = 0; i < 11; i++)
                BN_clear_free(bn[i]);
            CHECK(num_primes(kd) == 3, "%s: %d primes", name, num_primes(kd));
            continue;
        }
        CHECK(strcmp(fc_kat_str(k, "Key"), name) == 0, "key %s",
              fc_kat_str(k, "Key"));
        ct = fc_kat_bytes(k, "Ct", &clen);
        msg = fc_kat_bytes(k, "Msg", &mlen);
        label = fc_kat_bytes(k, "Label", &llen);
        ok_expected = strcmp(fc_kat_str(k, "Valid"), "yes") == 0;
        /* the key is default's: libcrypto exports it to fastcrypto */
        got =
            crypt_op(e, kd, FC_PROPQ, 0, hash, mgf, label, llen, ct, clen, out);
        got2 = crypt_op(e, kd, DF_PROPQ, 0, hash, mgf, label, llen, ct, clen,
                        out2);
        if (ok_expected) {
            CHECK(got == mlen && (mlen == 0 || memcmp(out, msg, mlen) == 0),
                  "%s tcId %s: wrong message (%zu bytes)", name,
                  fc_kat_str(k, "Id"), got);
            valid++;
        } else {
            CHECK(got == (size_t)-1,
                  "%s tcId %s: an invalid ciphertext "
                  "decrypted",
                  name, fc_kat_str(k, "Id"));
            invalid++;
        }
        CHECK(got == got2 && (got == (size_t)-1 || memcmp(out, out2, got) == 0),
              "%s tcId %s: fastcrypto and default differ", name,
              fc_kat_str(k, "Id"));
    }
    fc_kat_close(k);
    EVP_PKEY_free(kd);
    print_message("[%s] Wycheproof three-prime OAEP: %zu valid, %zu invalid "
                  "vectors as expected on fastcrypto\n",
                  fc_test_group, valid, invalid);
}

/* Keys of 3 primes (and 4, 5 outside FC_TEST_QUICK) made by default. */
FC_RSA_TEST(test_mp_default)
{
    const fc_rsa_env *e = *state;
    static const struct {
        size_t bits, np;
        int slow;
    } shapes[] = {
        {1024, 3, 0}, {2048, 3, 0}, {3072, 3, 0}, {4096, 4, 1}, {8192, 5, 1}};
    const int quick = fc_test_quick();

    fc_test_rand_start(__func__);
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        char what[64];
        EVP_PKEY *kd;

        if (shapes[i].slow && quick)
            continue;
        kd = gen_mp(e, DF_PROPQ, shapes[i].bits, shapes[i].np);
        snprintf(what, sizeof(what), "default's %zu-prime RSA-%zu",
                 shapes[i].np, shapes[i].bits);
        CHECK(kd != NULL && num_primes(kd) == (int)shapes[i].np, "%s", what);
        mp_check(e, kd, what);
        EVP_PKEY_free(kd);
    }
}

/* Keys of 3 (and 4) primes made by fastcrypto, moved to default: accepted
 * by its checks, and used as above; a prime count the size does not allow
 * is refused by both with the same reason. */
FC_RSA_TEST(test_mp_keygen)
{
    const fc_rsa_env *e = *state;
    static const struct {
        size_t bits, np;
    } shapes[] = {{2048, 3}, {3072, 3}, {4096, 4}};
    const int quick = fc_test_quick();

    fc_test_rand_start(__func__);
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        EVP_PKEY *kf, *kd;
        EVP_PKEY_CTX *ctx;
        char what[64];

        if (quick && shapes[i].bits > 2048)
            continue;
        snprintf(what, sizeof(what), "fastcrypto's %zu-prime RSA-%zu",
                 shapes[i].np, shapes[i].bits);
        kf = gen_mp(e, FC_PROPQ, shapes[i].bits, shapes[i].np);
        CHECK(kf != NULL, "%s: keygen failed", what);
        CHECK(strcmp(fc_rsa_key_provider(kf), "fastcrypto") == 0,
              "%s: made by %s", what, fc_rsa_key_provider(kf));
        CHECK(EVP_PKEY_get_bits(kf) == (int)shapes[i].bits &&
                  num_primes(kf) == (int)shapes[i].np,
              "%s: %d bits, %d primes", what, EVP_PKEY_get_bits(kf),
              num_primes(kf));
        kd = fc_test_move_key(e->lib, kf, "RSA", EVP_PKEY_KEYPAIR, DF_PROPQ);
        CHECK(kd != NULL, "%s: default refused it", what);
        ctx = EVP_PKEY_CTX_new_from_pkey(e->lib, kd, DF_PROPQ);
        CHECK(ctx != NULL, "%s: no context", what);
        CHECK((EVP_PKEY_check(ctx) == 1 && EVP_PKEY_pairwise_check(ctx) == 1) ||
                  !fc_test_default_checks_own(e->lib, DF_PROPQ, shapes[i].bits,
                                              shapes[i].np),
              "%s: default's checks fail", what);
        ERR_clear_error();
        EVP_PKEY_CTX_free(ctx);
        mp_check(e, kd, what);
        EVP_PKEY_free(kd);
        EVP_PKEY_free(kf);
    }
    /* 4 primes need 4096 bits, 3 need 1024: refused by both, one reason */
    {
        static const struct {
            size_t bits, np;
        } bad[] = {{2048, 4}, {1000, 3}, {4096, 5}, {2048, 1}};

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            unsigned long ef, ed;

            ERR_clear_error();
            CHECK(gen_mp(e, FC_PROPQ, bad[i].bits, bad[i].np) == NULL,
                  "fastcrypto made a %zu-prime RSA-%zu key", bad[i].np,
                  bad[i].bits);
            ef = ERR_peek_last_error();
            ERR_clear_error();
            CHECK(gen_mp(e, DF_PROPQ, bad[i].bits, bad[i].np) == NULL,
                  "default made a %zu-prime RSA-%zu key", bad[i].np,
                  bad[i].bits);
            ed = ERR_peek_last_error();
            ERR_clear_error();
            CHECK(ef != 0 && ed != 0 && ERR_reason_error_string(ef) != NULL &&
                      ERR_reason_error_string(ed) != NULL &&
                      strcmp(ERR_reason_error_string(ef),
                             ERR_reason_error_string(ed)) == 0,
                  "%zu primes, %zu bits: reasons \"%s\" and \"%s\"", bad[i].np,
                  bad[i].bits, ef ? ERR_reason_error_string(ef) : "(none)",
                  ed ? ERR_reason_error_string(ed) : "(none)");
        }
    }
}

/* ---- RSA-PSS keys
 * ------------------------------------------------------------- */

/* An RSA-PSS key of |bits| bits made by the provider |propq| selects, with
 * the restrictions |md|, |mgf1|, |saltlen| (NULL / -1: not given). */
static EVP_PKEY *gen_pss(const fc_rsa_env *e, const char *propq, size_t bits,
                         const char *md, const char *mgf1, int saltlen)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(e->lib, "RSA-PSS", propq);
    OSSL_PARAM params[5];
    size_t n = 0;
    EVP_PKEY *pkey = NULL;

    if (md != NULL)
        params[n++] = OSSL_PARAM_construct_utf8_string(
            OSSL_PKEY_PARAM_RSA_DIGEST, (char *)md, 0);
    if (mgf1 != NULL)
        params[n++] = OSSL_PARAM_construct_utf8_string(
            OSSL_PKEY_PARAM_RSA_MGF1_DIGEST, (char *)mgf1, 0);
    if (saltlen >= 0)
        params[n++] =
            OSSL_PARAM_construct_int(OSSL_PKEY_PARAM_RSA_PSS_SALTLEN, &saltlen);
    params[n] = OSSL_PARAM_construct_end();
    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) <= 0 ||
        EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, (int)bits) <= 0 ||
        EVP_PKEY_CTX_set_params(ctx, params) <= 0 ||
        EVP_PKEY_keygen(ctx, &pkey) <= 0)
        pkey = NULL;
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

/* What a key says about itself: its default digest query (the result and
 * the name), and its restrictions as parameters. */
typedef struct pss_view {
    int dd_ret;
    char dd[32], md[32], mgf1[32];
    int saltlen, has_saltlen;
} pss_view;

static pss_view view_of(EVP_PKEY *pkey)
{
    pss_view v;
    size_t len;

    memset(&v, 0, sizeof(v));
    v.dd_ret = EVP_PKEY_get_default_digest_name(pkey, v.dd, sizeof(v.dd));
    if (!EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_RSA_DIGEST, v.md,
                                        sizeof(v.md), &len))
        strcpy(v.md, "-");
    if (!EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_RSA_MGF1_DIGEST,
                                        v.mgf1, sizeof(v.mgf1), &len))
        strcpy(v.mgf1, "-");
    v.has_saltlen = EVP_PKEY_get_int_param(
        pkey, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN, &v.saltlen);
    ERR_clear_error();
    return v;
}

static void same_view(EVP_PKEY *a, EVP_PKEY *b, const char *what)
{
    pss_view x = view_of(a), y = view_of(b);

    CHECK(x.dd_ret == y.dd_ret && strcmp(x.dd, y.dd) == 0 &&
              strcmp(x.md, y.md) == 0 && strcmp(x.mgf1, y.mgf1) == 0 &&
              x.has_saltlen == y.has_saltlen &&
              (!x.has_saltlen || x.saltlen == y.saltlen),
          "%s: (%d %s, %s, %s, %d:%d) against (%d %s, %s, %s, %d:%d)", what,
          x.dd_ret, x.dd, x.md, x.mgf1, x.has_saltlen, x.saltlen, y.dd_ret,
          y.dd, y.md, y.mgf1, y.has_saltlen, y.saltlen);
}

/* RSA-PSS keys made by either provider, restricted or not, report the same
 * and move both ways with their restrictions. */
FC_RSA_TEST(test_pss_keys)
{
    const fc_rsa_env *e = *state;
    static const struct {
        const char *md, *mgf1;
        int saltlen;
    } shapes[] = {
        {NULL, NULL, -1},         /* unrestricted */
        {"SHA256", "SHA256", 32}, /* TLS-like */
        {"SHA384", NULL, -1},     /* mgf1 and saltlen take the defaults */
        {NULL, NULL, 20},         /* every value a default: still restricted */
        {"SHA512", "SHA1", 64},
    };

    fc_test_rand_start(__func__);

    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        EVP_PKEY *kf = gen_pss(e, FC_PROPQ, 2048, shapes[i].md, shapes[i].mgf1,
                               shapes[i].saltlen);
        EVP_PKEY *kd = gen_pss(e, DF_PROPQ, 1024, shapes[i].md, shapes[i].mgf1,
                               shapes[i].saltlen);
        EVP_PKEY *kf2d, *kd2f, *back;
        char what[96];

        snprintf(what, sizeof(what), "RSA-PSS key %s/%s/%d",
                 shapes[i].md ? shapes[i].md : "-",
                 shapes[i].mgf1 ? shapes[i].mgf1 : "-", shapes[i].saltlen);
        CHECK(kf != NULL && kd != NULL, "%s: keygen", what);
        CHECK(strcmp(fc_rsa_key_provider(kf), "fastcrypto") == 0 &&
                  EVP_PKEY_is_a(kf, "RSA-PSS") &&
                  EVP_PKEY_is_a(kf, "RSASSA-PSS"),
              "%s: %s key", what, fc_rsa_key_provider(kf));
        /* ours moved to default, default's moved to ours */
        kf2d = fc_test_move_key(e->lib, kf, "RSA-PSS",
                                EVP_PKEY_KEYPAIR | EVP_PKEY_KEY_PARAMETERS,
                                DF_PROPQ);
        kd2f = fc_test_move_key(e->lib, kd, "RSA-PSS",
                                EVP_PKEY_KEYPAIR | EVP_PKEY_KEY_PARAMETERS,
                                FC_PROPQ);
        CHECK(kf2d != NULL && kd2f != NULL, "%s: moving", what);
        CHECK(strcmp(fc_rsa_key_provider(kd2f), "fastcrypto") == 0,
              "%s: default's key held by %s", what, fc_rsa_key_provider(kd2f));
        same_view(kf, kf2d, what);
        same_view(kd, kd2f, what);
        /* and back again */
        back = fc_test_move_key(e->lib, kd2f, "RSA-PSS",
                                EVP_PKEY_KEYPAIR | EVP_PKEY_KEY_PARAMETERS,
                                DF_PROPQ);
        CHECK(back != NULL, "%s: back to default", what);
        same_view(kd, back, what);
        same_export(kd, back, what);
        EVP_PKEY_free(back);
        EVP_PKEY_free(kf2d);
        EVP_PKEY_free(kd2f);
        EVP_PKEY_free(kf);
        EVP_PKEY_free(kd);
    }
    /* restrictions on a plain RSA key: refused by both */
    {
        EVP_PKEY *kd = gen_mp(e, DF_PROPQ, 1024, 2);
        OSSL_PARAM *params = NULL, *all;
        OSSL_PARAM extra[2];
        size_t n = 0;

        CHECK(kd != NULL && EVP_PKEY_todata(kd, EVP_PKEY_KEYPAIR, &params) > 0,
              "plain key");
        for (; params[n].key != NULL; n++)
            ;
        all = OPENSSL_zalloc((n + 2) * sizeof(*all));
        memcpy(all, params, n * sizeof(*all));
        extra[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_RSA_DIGEST,
                                                    "SHA256", 0);
        all[n] = extra[0];
        all[n + 1] = OSSL_PARAM_construct_end();
        for (int p = 0; p < 2; p++) {
            EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(
                e->lib, "RSA", p ? DF_PROPQ : FC_PROPQ);
            EVP_PKEY *k = NULL;

            CHECK(ctx != NULL && EVP_PKEY_fromdata_init(ctx) > 0, "fromdata");
            CHECK(EVP_PKEY_fromdata(ctx, &k,
                                    EVP_PKEY_KEYPAIR | EVP_PKEY_KEY_PARAMETERS,
                                    all) <= 0,
                  "%s took PSS restrictions on a plain RSA key",
                  p ? "default" : "fastcrypto");
            EVP_PKEY_free(k);
            EVP_PKEY_CTX_free(ctx);
        }
        ERR_clear_error();
        OPENSSL_free(all);
        OSSL_PARAM_free(params);
        EVP_PKEY_free(kd);
    }
}

/* One signing or verifying setup: the digest (NULL: the key's default or
 * mandatory one), MGF1 digest, salt length ("saltlen" string, NULL: unset)
 * and padding ("pad-mode" string, NULL: unset). */
typedef struct pss_case {
    const char *md, *mgf1, *saltlen, *pad;
} pss_case;

/* Signs (|sig| NULL) or verifies |sig| of |msg| with |pkey| on |propq|
 * under |c|; returns 1 (and the signature length in |*slen|) or 0, and the
 * reason of the last error in |reason|. */
static int pss_run(const fc_rsa_env *e, EVP_PKEY *pkey, const char *propq,
                   const pss_case *c, const uint8_t *msg, size_t mlen,
                   uint8_t *out, size_t *slen, const uint8_t *sig, char *reason,
                   size_t rcap)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    OSSL_PARAM params[4];
    size_t n = 0;
    unsigned long err;
    int ok;

    if (c->pad != NULL)
        params[n++] = OSSL_PARAM_construct_utf8_string(
            OSSL_SIGNATURE_PARAM_PAD_MODE, (char *)c->pad, 0);
    if (c->mgf1 != NULL)
        params[n++] = OSSL_PARAM_construct_utf8_string(
            OSSL_SIGNATURE_PARAM_MGF1_DIGEST, (char *)c->mgf1, 0);
    if (c->saltlen != NULL)
        params[n++] = OSSL_PARAM_construct_utf8_string(
            OSSL_SIGNATURE_PARAM_PSS_SALTLEN, (char *)c->saltlen, 0);
    params[n] = OSSL_PARAM_construct_end();
    ERR_clear_error();
    if (sig == NULL)
        ok = EVP_DigestSignInit_ex(m, &pctx, c->md, e->lib, propq, pkey,
                                   params) > 0 &&
             EVP_DigestSign(m, out, slen, msg, mlen) > 0;
    else
        ok = EVP_DigestVerifyInit_ex(m, &pctx, c->md, e->lib, propq, pkey,
                                     params) > 0 &&
             EVP_DigestVerify(m, sig, *slen, msg, mlen) == 1;
    if (ok && strstr(propq, "fastcrypto") != NULL)
        CHECK(strcmp(fc_rsa_op_provider(pctx), "fastcrypto") == 0, "ran on %s",
              fc_rsa_op_provider(pctx));
    err = ERR_peek_last_error();
    snprintf(reason, rcap, "%s",
             err != 0 && ERR_reason_error_string(err) != NULL
                 ? ERR_reason_error_string(err)
                 : "-");
    ERR_clear_error();
    EVP_MD_CTX_free(m);
    return ok;
}

/* Every case on both providers: same outcome, same reason; a signature
 * made by one verifies on the other under the same case. */
static void pss_matrix(const fc_rsa_env *e, EVP_PKEY *kd, const char *what)
{
    static const char *const mds[] = {NULL, "SHA256", "SHA384", "SHA1"};
    static const char *const mgf1s[] = {NULL, "SHA256", "SHA1"};
    static const char *const salts[] = {NULL,     "32",  "40",  "16",
                                        "digest", "max", "auto"};
    static const char *const pads[] = {NULL, "pss", "pkcs1", "none"};
    EVP_PKEY *kf =
        fc_test_move_key(e->lib, kd, "RSA-PSS",
                         EVP_PKEY_KEYPAIR | EVP_PKEY_KEY_PARAMETERS, FC_PROPQ);
    uint8_t msg[64], sf[MAXB], sd[MAXB];
    size_t cases = 0, accepted = 0;
    const int quick = fc_test_quick();

    CHECK(kf != NULL, "%s: fastcrypto refused the key", what);
    fc_test_rand_bytes(msg, sizeof(msg));
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 3; b++)
            for (size_t c = 0; c < 7; c++)
                for (size_t d = 0; d < 4; d++) {
                    pss_case pc = {mds[a], mgf1s[b], salts[c], pads[d]};
                    char rf[128], rd[128];
                    size_t lf = MAXB, ld = MAXB;
                    int of, od;

                    if (quick && (a + b + c + d) % 3 != 0)
                        continue;
                    cases++;
                    of = pss_run(e, kf, FC_PROPQ, &pc, msg, sizeof(msg), sf,
                                 &lf, NULL, rf, sizeof(rf));
                    od = pss_run(e, kd, DF_PROPQ, &pc, msg, sizeof(msg), sd,
                                 &ld, NULL, rd, sizeof(rd));
                    CHECK(of == od && (of || strcmp(rf, rd) == 0),
                          "%s: sign md=%s mgf1=%s saltlen=%s pad=%s: "
                          "fastcrypto %d (%s), default %d (%s)",
                          what, pc.md ? pc.md : "-", pc.mgf1 ? pc.mgf1 : "-",
                          pc.saltlen ? pc.saltlen : "-", pc.pad ? pc.pad : "-",
                          of, rf, od, rd);
                    if (of) {
                        /* verified with the salt length the signature has:
                         * "auto" signs with the maximum, and a restricted
                         * key may not verify with "auto" */
                        pss_case vc = pc;

                        if (vc.saltlen != NULL &&
                            strcmp(vc.saltlen, "auto") == 0)
                            vc.saltlen = "max";
                        accepted++;
                        CHECK(pss_run(e, kd, DF_PROPQ, &vc, msg, sizeof(msg),
                                      NULL, &lf, sf, rd, sizeof(rd)),
                              "%s: default refuses our signature (%s)", what,
                              rd);
                        CHECK(pss_run(e, kf, FC_PROPQ, &vc, msg, sizeof(msg),
                                      NULL, &ld, sd, rf, sizeof(rf)),
                              "%s: we refuse default's signature (%s)", what,
                              rf);
                    } else {
                        /* verification refused alike too */
                        lf = (size_t)EVP_PKEY_get_size(kd);
                        memset(sf, 1, lf);
                        of = pss_run(e, kf, FC_PROPQ, &pc, msg, sizeof(msg),
                                     NULL, &lf, sf, rf, sizeof(rf));
                        od = pss_run(e, kd, DF_PROPQ, &pc, msg, sizeof(msg),
                                     NULL, &lf, sf, rd, sizeof(rd));
                        CHECK(!of && !od, "%s: a junk signature verified",
                              what);
                    }
                }
    /* encryption with an RSA-PSS key: refused by both */
    CHECK(crypt_op(e, kf, FC_PROPQ, 1, "SHA256", "SHA256", NULL, 0, msg, 16,
                   sf) == (size_t)-1 &&
              crypt_op(e, kd, DF_PROPQ, 1, "SHA256", "SHA256", NULL, 0, msg, 16,
                       sd) == (size_t)-1,
          "%s: encryption with an RSA-PSS key", what);
    print_message("[%s] %s: %zu signing setups, %zu accepted, all as default\n",
                  fc_test_group, what, cases, accepted);
    EVP_PKEY_free(kf);
}

FC_RSA_TEST(test_pss_rules)
{
    const fc_rsa_env *e = *state;
    EVP_PKEY *k;

    fc_test_rand_start(__func__);
    k = gen_pss(e, DF_PROPQ, 2048, "SHA256", "SHA256", 32);
    CHECK(k != NULL, "keygen");
    pss_matrix(e, k, "restricted SHA256/MGF1-SHA256/32");
    EVP_PKEY_free(k);
    /* a minimum above the digest size: "digest" salt refused */
    k = gen_pss(e, DF_PROPQ, 2048, "SHA256", NULL, 40);
    CHECK(k != NULL, "keygen");
    pss_matrix(e, k, "restricted SHA256/MGF1-SHA1/40");
    EVP_PKEY_free(k);
    k = gen_pss(e, DF_PROPQ, 2048, NULL, NULL, -1);
    CHECK(k != NULL, "keygen");
    pss_matrix(e, k, "unrestricted");
    EVP_PKEY_free(k);
}

/* A key of ours through default's PEM encoder and decoder, and an X.509
 * certificate signed with it by fastcrypto that default verifies. */
FC_RSA_TEST(test_pss_encoding)
{
    const fc_rsa_env *e = *state;
    EVP_PKEY *kf = gen_pss(e, FC_PROPQ, 2048, "SHA256", "SHA256", 32),
             *kd = NULL;
    BIO *bio = BIO_new(BIO_s_mem());
    X509 *x = X509_new_ex(e->lib, NULL);
    X509_NAME *name = X509_NAME_new();
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    const X509_ALGOR *alg;
    const ASN1_OBJECT *oid;
    EVP_PKEY_CTX *pctx = NULL;
    char buf[64];

    fc_test_rand_start(__func__);

    CHECK(kf != NULL && bio != NULL && x != NULL && name != NULL && m != NULL,
          "setup");
    CHECK(PEM_write_bio_PrivateKey_ex(bio, kf, NULL, NULL, 0, NULL, NULL,
                                      e->lib, DF_PROPQ) > 0,
          "PEM encoding of our key");
    kd = PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, NULL, e->lib, DF_PROPQ);
    CHECK(kd != NULL && EVP_PKEY_is_a(kd, "RSA-PSS"),
          "PEM decoding by default");
    CHECK(strcmp(fc_rsa_key_provider(kd), "default") == 0, "decoded by %s",
          fc_rsa_key_provider(kd));
    same_view(kf, kd, "PEM round trip");
    same_export(kf, kd, "PEM round trip");

    /* a self-signed certificate, signed by fastcrypto (mandatory digest) */
    CHECK(X509_set_version(x, X509_VERSION_3) &&
              ASN1_INTEGER_set(X509_get_serialNumber(x), 1) &&
              X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                         (const unsigned char *)"pss", -1, -1,
                                         0) &&
              X509_set_subject_name(x, name) && X509_set_issuer_name(x, name) &&
              X509_gmtime_adj(X509_getm_notBefore(x), 0) &&
              X509_gmtime_adj(X509_getm_notAfter(x), 3600) &&
              X509_set_pubkey(x, kd),
          "certificate fields");
    CHECK(EVP_DigestSignInit_ex(m, &pctx, NULL, e->lib, FC_PROPQ, kd, NULL) > 0,
          "DigestSignInit with the key's mandatory digest");
    CHECK(strcmp(fc_rsa_op_provider(pctx), "fastcrypto") == 0,
          "certificate signed by %s", fc_rsa_op_provider(pctx));
    CHECK(X509_sign_ctx(x, m) > 0, "X509_sign_ctx");
    X509_get0_signature(NULL, &alg, x);
    X509_ALGOR_get0(&oid, NULL, NULL, alg);
    OBJ_obj2txt(buf, sizeof(buf), oid, 1);
    CHECK(strcmp(buf, "1.2.840.113549.1.1.10") == 0, "signature algorithm %s",
          buf);
    {
        /* the parameters (SHA-256, MGF1 with SHA-256, salt 32) encoded as
         * default encodes them for the same key */
        X509 *y = X509_dup(x);
        EVP_MD_CTX *m2 = EVP_MD_CTX_new();
        const X509_ALGOR *alg2;

        CHECK(y != NULL && m2 != NULL &&
                  EVP_DigestSignInit_ex(m2, NULL, NULL, e->lib, DF_PROPQ, kd,
                                        NULL) > 0 &&
                  X509_sign_ctx(y, m2) > 0,
              "default's signature");
        X509_get0_signature(NULL, &alg2, y);
        CHECK(X509_ALGOR_cmp(alg, alg2) == 0,
              "the rsassaPss parameters differ from default's");
        X509_free(y);
        EVP_MD_CTX_free(m2);
    }
    /* default verifies it, with the public key only */
    {
        EVP_PKEY *pub = fc_test_move_key(
            e->lib, kd, "RSA-PSS",
            EVP_PKEY_PUBLIC_KEY | EVP_PKEY_KEY_PARAMETERS, DF_PROPQ);

        CHECK(pub != NULL && X509_verify(x, pub) == 1,
              "default does not verify the certificate");
        EVP_PKEY_free(pub);
    }
    ERR_clear_error();
    X509_free(x);
    X509_NAME_free(name);
    EVP_MD_CTX_free(m);
    BIO_free(bio);
    EVP_PKEY_free(kd);
    EVP_PKEY_free(kf);
}

/* ---- inconsistent, incomplete and over-prime keys ------------------------
 */

/* Key components in the keymgmt's order: n, e, d, rsa-factor1..5,
 * rsa-exponent1..5, rsa-coefficient1..4. */
enum { K_N, K_E, K_D, K_F, K_X = K_F + 5, K_T = K_X + 5, K_COUNT = K_T + 4 };
static const char *const comp_name[K_COUNT] = {
    OSSL_PKEY_PARAM_RSA_N,
    OSSL_PKEY_PARAM_RSA_E,
    OSSL_PKEY_PARAM_RSA_D,
    OSSL_PKEY_PARAM_RSA_FACTOR1,
    OSSL_PKEY_PARAM_RSA_FACTOR2,
    OSSL_PKEY_PARAM_RSA_FACTOR3,
    OSSL_PKEY_PARAM_RSA_FACTOR4,
    OSSL_PKEY_PARAM_RSA_FACTOR5,
    OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2,
    OSSL_PKEY_PARAM_RSA_EXPONENT3,
    OSSL_PKEY_PARAM_RSA_EXPONENT4,
    OSSL_PKEY_PARAM_RSA_EXPONENT5,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT2,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT3,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT4};
typedef struct comps {
    BIGNUM *v[K_COUNT];
} comps;
/* masks of components */
#define M(i)    (1u << (i))
#define M_PUB   (M(K_N) | M(K_E))
#define M_CRT2  (M(K_F) | M(K_F + 1) | M(K_X) | M(K_X + 1) | M(K_T))
#define M_CRT3  (M_CRT2 | M(K_F + 2) | M(K_X + 2) | M(K_T + 1))
#define M_CRT4  (M_CRT3 | M(K_F + 3) | M(K_X + 3) | M(K_T + 2))
#define M_FULL2 (M_PUB | M(K_D) | M_CRT2)
#define M_FULL3 (M_PUB | M(K_D) | M_CRT3)

static void comps_free(comps *c)
{
    for (int i = 0; i < K_COUNT; i++)
        BN_clear_free(c->v[i]);
    memset(c, 0, sizeof(*c));
}

/* The components of |pkey| (those it has). */
static comps comps_of(EVP_PKEY *pkey)
{
    comps c = {{NULL}};

    for (int i = 0; i < K_COUNT; i++)
        EVP_PKEY_get_bn_param(pkey, comp_name[i], &c.v[i]);
    ERR_clear_error();
    return c;
}

/* A |bits|-bit key of |np| primes made here (any size, any prime count),
 * e = 65537, coefficients t_i = (r_1 ... r_(i-1))^-1 mod r_i. */
static comps make_key(int bits, int np)
{
    BN_CTX *bn = BN_CTX_new();
    comps c = {{NULL}};

    for (int tries = 0; tries < 100; tries++) {
        BIGNUM *lam = BN_new(), *g = BN_new(), *rm1 = BN_new(), *pp = BN_new();
        int ok = 1;

        comps_free(&c);
        c.v[K_N] = BN_new();
        c.v[K_E] = BN_new();
        CHECK(BN_one(c.v[K_N]) && BN_one(lam) && BN_one(pp) &&
                  BN_set_word(c.v[K_E], 65537),
              "BN");
        for (int i = 0; i < np; i++) {
            BIGNUM *r = c.v[K_F + i] = BN_new();

            CHECK(BN_generate_prime_ex(r, bits / np + (i < bits % np), 0, NULL,
                                       NULL, NULL) &&
                      BN_mul(c.v[K_N], c.v[K_N], r, bn) && BN_copy(rm1, r) &&
                      BN_sub_word(rm1, 1) && BN_gcd(g, lam, rm1, bn) &&
                      BN_mul(lam, lam, rm1, bn) &&
                      BN_div(lam, NULL, lam, g, bn),
                  "prime %d", i);
        }
        c.v[K_D] = BN_mod_inverse(NULL, c.v[K_E], lam, bn);
        ok = BN_num_bits(c.v[K_N]) == bits && c.v[K_D] != NULL;
        for (int i = 0; ok && i < np; i++) {
            BIGNUM *r = c.v[K_F + i];

            c.v[K_X + i] = BN_new();
            ok = BN_copy(rm1, r) && BN_sub_word(rm1, 1) &&
                 BN_mod(c.v[K_X + i], c.v[K_D], rm1, bn);
            if (ok && i >= 1)
                ok = (c.v[K_T + i - 1] =
                          BN_mod_inverse(NULL, i == 1 ? c.v[K_F + 1] : pp,
                                         i == 1 ? c.v[K_F] : r, bn)) != NULL;
            ok = ok && BN_mul(pp, pp, r, bn);
        }
        BN_free(lam);
        BN_free(g);
        BN_free(rm1);
        BN_free(pp);
        if (ok) {
            BN_CTX_free(bn);
            return c;
        }
    }
    fail_msg("no %d-bit key of %d primes", bits, np);
    return c;
}

/* The key of the components of |c| in |mask| on the keymgmt |propq|
 * selects, an RSA-PSS one restricted to the hash |pss_md| if not NULL;
 * NULL if refused. */
static EVP_PKEY *key_of_type(const fc_rsa_env *e, const comps *c, unsigned mask,
                             const char *propq, const char *pss_md)
{
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(
        e->lib, pss_md != NULL ? "RSA-PSS" : "RSA", propq);
    EVP_PKEY *pkey = NULL;

    CHECK(bld != NULL && ctx != NULL, "allocation");
    for (int i = 0; i < K_COUNT; i++)
        if ((mask & M(i)) != 0 && c->v[i] != NULL)
            CHECK(OSSL_PARAM_BLD_push_BN(bld, comp_name[i], c->v[i]), "push");
    if (pss_md != NULL)
        CHECK(OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_RSA_DIGEST,
                                              pss_md, 0),
              "push");
    params = OSSL_PARAM_BLD_to_param(bld);
    if (params == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &pkey,
                          pss_md != NULL
                              ? EVP_PKEY_KEYPAIR | EVP_PKEY_KEY_PARAMETERS
                              : EVP_PKEY_KEYPAIR,
                          params) <= 0)
        pkey = NULL;
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

static EVP_PKEY *key_of(const fc_rsa_env *e, const comps *c, unsigned mask,
                        const char *propq)
{
    return key_of_type(e, c, mask, propq, NULL);
}

/* A signature (|pad|, digest |md|) of |msg| on the provider |propq|
 * selects, or verification (|sig| given, |*slen| its length). */
static int sig_op(const fc_rsa_env *e, EVP_PKEY *pkey, const char *propq,
                  const char *md, int pad, int verify, const uint8_t *msg,
                  size_t mlen, uint8_t *sig, size_t *slen)
{
    const op_spec s = OP(.pad = pad, .md = md, .digest = 1);
    int ok = fc_rsa_op(e, verify ? OP_VERIFY : OP_SIGN, pkey, propq, &s, msg,
                       mlen, sig, slen) == 1;

    ERR_clear_error();
    return ok;
}

/* Encryption or decryption with |pad| (OAEP with |md|). */
static int enc_op(const fc_rsa_env *e, EVP_PKEY *pkey, const char *propq,
                  int enc, int pad, const char *md, const uint8_t *in,
                  size_t inlen, uint8_t *out, size_t *outlen)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(e->lib, pkey, propq);
    int ok;

    *outlen = MAXB;
    ok = c != NULL &&
         (enc ? EVP_PKEY_encrypt_init(c) : EVP_PKEY_decrypt_init(c)) > 0 &&
         EVP_PKEY_CTX_set_rsa_padding(c, pad) > 0 &&
         (pad != RSA_PKCS1_OAEP_PADDING ||
          (EVP_PKEY_CTX_set_rsa_oaep_md_name(c, md, NULL) > 0 &&
           EVP_PKEY_CTX_set_rsa_mgf1_md_name(c, md, NULL) > 0)) &&
         (enc ? EVP_PKEY_encrypt(c, out, outlen, in, inlen)
              : EVP_PKEY_decrypt(c, out, outlen, in, inlen)) > 0;
    EVP_PKEY_CTX_free(c);
    ERR_clear_error();
    return ok;
}

/*
 * Every private operation of fastcrypto's key |kf| (of the public key
 * |c|'s n and e): PKCS#1 v1.5 and PSS signatures, OAEP, PKCS#1 v1.5 and
 * raw decryption, each run twice. Each either fails or gives a result
 * that is right with e (a signature default verifies with n and e, the
 * message encrypted, y^e = x). Returns how many gave a result.
 */
static int private_ops_checked(const fc_rsa_env *e, EVP_PKEY *kf,
                               const comps *c, const char *what)
{
    EVP_PKEY *pub = key_of(e, c, M_PUB, DF_PROPQ);
    const size_t k = (size_t)BN_num_bytes(c->v[K_N]);
    /* SHA-1 where the modulus is too short for SHA-256 */
    const char *md = k < 80 ? "SHA1" : "SHA256";
    /* what OAEP with SHA-1 carries in 48 bytes: 6 */
    const size_t mlen = k < 80 ? 4 : 8;
    static const int pads[] = {RSA_PKCS1_OAEP_PADDING, RSA_PKCS1_PADDING};
    uint8_t msg[8], sig[MAXB], ct[MAXB], pt[MAXB];
    size_t slen, clen, plen;
    int results = 0;
    BN_CTX *bn = BN_CTX_new();
    BIGNUM *x = BN_new(), *y = BN_new();

    CHECK(pub != NULL && bn != NULL && x != NULL && y != NULL, "%s: public key",
          what);
    fc_test_rand_bytes(msg, sizeof(msg));
    for (int round = 0; round < 2; round++) {
        for (int pss = 0; pss < 2; pss++) {
            int pad = pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING;

            slen = MAXB;
            if (!sig_op(e, kf, FC_PROPQ, md, pad, 0, msg, mlen, sig, &slen))
                continue;
            results++;
            CHECK(sig_op(e, pub, DF_PROPQ, md, pad, 1, msg, mlen, sig, &slen),
                  "%s: a %s signature that does not verify with e", what,
                  pss ? "PSS" : "PKCS#1 v1.5");
        }
        for (size_t i = 0; i < sizeof(pads) / sizeof(pads[0]); i++) {
            CHECK(
                enc_op(e, pub, DF_PROPQ, 1, pads[i], md, msg, mlen, ct, &clen),
                "%s: encryption", what);
            if (!enc_op(e, kf, FC_PROPQ, 0, pads[i], md, ct, clen, pt, &plen))
                continue;
            results++;
            CHECK(plen == mlen && memcmp(pt, msg, plen) == 0,
                  "%s: %s decryption released a wrong message", what,
                  pads[i] == RSA_PKCS1_PADDING ? "PKCS#1 v1.5" : "OAEP");
        }
        /* raw: y^e = x */
        memset(ct, 0, k);
        fc_test_rand_bytes(ct + 1, k - 1);
        if (enc_op(e, kf, FC_PROPQ, 0, RSA_NO_PADDING, NULL, ct, k, pt,
                   &plen)) {
            results++;
            CHECK(BN_bin2bn(ct, (int)k, x) != NULL &&
                      BN_bin2bn(pt, (int)plen, y) != NULL &&
                      BN_mod_exp(y, y, c->v[K_E], c->v[K_N], bn) &&
                      BN_cmp(x, y) == 0,
                  "%s: a raw decryption that fails y^e = x", what);
        }
    }
    BN_free(x);
    BN_free(y);
    BN_CTX_free(bn);
    EVP_PKEY_free(pub);
    return results;
}

/* Keys of |bits| bits whose primes do not multiply to n (taken from
 * another key), with d of either: refused by fastcrypto with its reason.
 * d of another key alone: refused, or taken with every private operation
 * refused. CRT values of another key with d right: taken, every private
 * operation right (through d, checked). */
static void inconsistent_keys(const fc_rsa_env *e, int bits, const char *where)
{
    comps a = make_key(bits, 2), b = make_key(bits, 2), v;
    static const struct {
        const char *name;
        int n_of_a, p_of_b, d_of_b;
    } cases[] = {
        {"n of A, the rest of B", 1, 1, 1},
        {"p of B (p * q != n), d of A", 0, 1, 0},
        {"p and d of B", 0, 1, 1},
    };
    char what[128];
    EVP_PKEY *kf, *kd;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        unsigned long err;

        snprintf(what, sizeof(what), "RSA-%d%s, %s", bits, where,
                 cases[i].name);
        v = cases[i].n_of_a ? b : a;
        if (cases[i].n_of_a)
            v.v[K_N] = a.v[K_N], v.v[K_E] = a.v[K_E];
        if (cases[i].p_of_b)
            v.v[K_F] = b.v[K_F];
        if (cases[i].d_of_b)
            v.v[K_D] = b.v[K_D];
        /* default takes it (and signs with it) */
        kd = key_of(e, &v, M_FULL2, DF_PROPQ);
        CHECK(kd != NULL, "%s: default refused it", what);
        ERR_clear_error();
        kf = key_of(e, &v, M_FULL2, FC_PROPQ);
        err = ERR_peek_last_error();
        if (kf != NULL)
            private_ops_checked(e, kf, &v, what);
        CHECK(kf == NULL, "%s: fastcrypto took it", what);
        CHECK(err != 0 && ERR_GET_REASON(err) != 0 &&
                  strcmp(ERR_lib_error_string(err), "fastcrypto") == 0 &&
                  strstr(ERR_reason_error_string(err), "invalid key") != NULL,
              "%s: refused without fastcrypto's \"invalid key\"", what);
        ERR_clear_error();
        EVP_PKEY_free(kf);
        EVP_PKEY_free(kd);
    }
    /* d of B alone: nothing to tell it from a right d but a test */
    v = a;
    v.v[K_D] = b.v[K_D];
    snprintf(what, sizeof(what), "RSA-%d%s, d of B alone", bits, where);
    kf = key_of(e, &v, M_PUB | M(K_D), FC_PROPQ);
    CHECK(kf == NULL || private_ops_checked(e, kf, &v, what) == 0,
          "%s: private operations gave results", what);
    EVP_PKEY_free(kf);
    ERR_clear_error();
    /* consistent but for the CRT values (dp of B), d right: our core and
     * default both end up on d, checked */
    v = a;
    v.v[K_X] = b.v[K_X];
    snprintf(what, sizeof(what), "RSA-%d%s, dp of B", bits, where);
    kf = key_of(e, &v, M_FULL2, FC_PROPQ);
    CHECK(kf != NULL, "%s: refused", what);
    CHECK(private_ops_checked(e, kf, &v, what) >= 8,
          "%s: private operations refused", what);
    EVP_PKEY_free(kf);
    comps_free(&a);
    comps_free(&b);
}

/* A library context as the test's, but with what fastcrypto offers on
 * this CPU (no "offer = all"), or NULL. */
static OSSL_LIB_CTX *lib_offer_auto(char *path, size_t pathlen)
{
    const char *conf = getenv("FC_TEST_CONF");
    FILE *in = conf != NULL ? fopen(conf, "r") : NULL, *out;
    char line[1024];
    int fd;

    snprintf(path, pathlen, "/tmp/fc-rsa-keys-XXXXXX");
    fd = mkstemp(path);
    out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (in == NULL || out == NULL) {
        if (in != NULL)
            fclose(in);
        if (out != NULL)
            fclose(out);
        return NULL;
    }
    while (fgets(line, sizeof(line), in) != NULL)
        if (strncmp(line, "offer", 5) != 0)
            fputs(line, out);
    fclose(in);
    fclose(out);
    return fc_test_lib_load(path, 0);
}

/* 1 if fastcrypto in |lib| offers RSA keys of sizes other than 2048, 3072
 * and 4096 bits (its "fastcrypto-offer" has "rsa-other" or "all"); also 1
 * if it offers no RSA size at all (then it registers no RSA keymgmt, and
 * no key of any size reaches it). */
static int offers_rsa_other(OSSL_LIB_CTX *lib)
{
    OSSL_PROVIDER *p = OSSL_PROVIDER_load(lib, "fastcrypto");
    char offer[256] = "";
    OSSL_PARAM req[] = {
        OSSL_PARAM_utf8_string("fastcrypto-offer", offer, sizeof(offer)),
        OSSL_PARAM_END};
    int yes;

    CHECK(p != NULL && OSSL_PROVIDER_get_params(p, req), "fastcrypto-offer");
    yes = strstr(offer, "rsa-other") != NULL || strstr(offer, "all") != NULL ||
          strstr(offer, "rsa") == NULL;
    OSSL_PROVIDER_unload(p);
    return yes;
}

/* Inconsistent keys where our core refuses them (2048 bits), where only
 * default holds them (384), and of a size fastcrypto does not offer here
 * (1024, delegated before our core sees them): default releases wrong
 * results with d; fastcrypto refuses them. */
FC_RSA_TEST(test_inconsistent_keys)
{
    const fc_rsa_env *e = *state;
    fc_rsa_env other = *e; /* the same group, another context */
    char path[64];

    fc_test_rand_start(__func__);
    inconsistent_keys(e, 384, "");
    inconsistent_keys(e, 2048, "");
    other.lib = lib_offer_auto(path, sizeof(path));
    CHECK(other.lib != NULL, "a library context without \"offer = all\"");
    if (!offers_rsa_other(other.lib))
        inconsistent_keys(&other, 1024, " (not offered)");
    else
        print_message("[%s] RSA-1024 offered here, or no RSA at all: its "
                      "delegated case skipped\n",
                      fc_test_group);
    OSSL_LIB_CTX_free(other.lib);
    unlink(path);
}

/*
 * Incomplete or mismatched multi-prime CRT sets (a missing exponent or
 * coefficient, factors alone, more exponents than factors, an extra
 * coefficient), 3 primes, on a size our core holds (2048) and one only
 * default holds (384): taken, without a crash in default's import or in
 * its first operation, and every private operation right with e (through
 * d, or the complete set).
 */
FC_RSA_TEST(test_incomplete_crt)
{
    const fc_rsa_env *e = *state;
    static const int sizes[] = {384, 2048};
    static const struct {
        const char *name;
        unsigned mask;
    } shapes[] = {
        {"no exponent3", M_FULL3 & ~M(K_X + 2)},
        {"no coefficient2", M_FULL3 & ~M(K_T + 1)},
        {"factors only", M_PUB | M(K_D) | M(K_F) | M(K_F + 1) | M(K_F + 2)},
        {"two exponents, no coefficient", M_PUB | M(K_D) | M(K_F) | M(K_F + 1) |
                                              M(K_F + 2) | M(K_X) | M(K_X + 1)},
        {"2 factors, 3 exponents", M_FULL2 | M(K_X + 2)},
        {"3 coefficients", M_FULL3 | M(K_T + 2)},
        {"no factor3", M_FULL3 & ~M(K_F + 2)},
        {"complete", M_FULL3},
    };

    fc_test_rand_start(__func__);
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        comps c = make_key(sizes[s], 3);

        /* a fourth value for "3 coefficients": one more component */
        c.v[K_T + 2] = BN_dup(c.v[K_T + 1]);
        for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
            char what[96];
            EVP_PKEY *kf;

            snprintf(what, sizeof(what), "3-prime RSA-%d, %s", sizes[s],
                     shapes[i].name);
            kf = key_of(e, &c, shapes[i].mask, FC_PROPQ);
            CHECK(kf != NULL, "%s: refused", what);
            CHECK(strcmp(fc_rsa_key_provider(kf), "fastcrypto") == 0,
                  "%s: held by %s", what, fc_rsa_key_provider(kf));
            CHECK(private_ops_checked(e, kf, &c, what) >= 8,
                  "%s: private operations refused", what);
            EVP_PKEY_free(kf);
        }
        /* an RSA-PSS key (restricted to SHA-1) of the same shape: its PSS
         * signatures verify with n and e */
        {
            char what[64];
            uint8_t msg[4] = {1, 2, 3, 4}, sig[MAXB];
            size_t slen = MAXB;
            EVP_PKEY *kf, *pub = key_of(e, &c, M_PUB, DF_PROPQ);

            snprintf(what, sizeof(what), "3-prime RSA-PSS-%d, factors only",
                     sizes[s]);
            kf = key_of_type(e, &c, shapes[2].mask, FC_PROPQ, "SHA1");
            CHECK(kf != NULL && pub != NULL, "%s: refused", what);
            CHECK(sig_op(e, kf, FC_PROPQ, "SHA1", RSA_PKCS1_PSS_PADDING, 0, msg,
                         sizeof(msg), sig, &slen) &&
                      sig_op(e, pub, DF_PROPQ, "SHA1", RSA_PKCS1_PSS_PADDING, 1,
                             msg, sizeof(msg), sig, &slen),
                  "%s: PSS signature", what);
            EVP_PKEY_free(kf);
            EVP_PKEY_free(pub);
        }
        comps_free(&c);
    }
}

/* What default answers for |pkey| on the provider |propq| selects: the
 * security bits, EVP_PKEY_pairwise_check, EVP_PKEY_check,
 * EVP_PKEY_private_check, the parameters todata exports, a signature. */
typedef struct key_answers {
    int sec, pairwise, check, privcheck, exported, signs;
} key_answers;

static key_answers answers_of(const fc_rsa_env *e, EVP_PKEY *pkey,
                              const char *propq)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(e->lib, pkey, propq);
    OSSL_PARAM *params = NULL;
    key_answers a;
    uint8_t msg[16] = {0}, sig[MAXB];
    size_t slen = MAXB;

    CHECK(ctx != NULL, "context");
    a.sec = EVP_PKEY_get_security_bits(pkey);
    a.pairwise = EVP_PKEY_pairwise_check(ctx);
    a.check = EVP_PKEY_check(ctx);
    a.privcheck = EVP_PKEY_private_check(ctx);
    a.exported = 0;
    if (EVP_PKEY_todata(pkey, EVP_PKEY_KEYPAIR, &params) > 0)
        for (const OSSL_PARAM *p = params; p->key != NULL; p++)
            a.exported++;
    OSSL_PARAM_free(params);
    a.signs = sig_op(e, pkey, propq, "SHA256", RSA_PKCS1_PADDING, 0, msg, 16,
                     sig, &slen);
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    return a;
}

static void same_answers(const fc_rsa_env *e, EVP_PKEY *kf, EVP_PKEY *kd,
                         const char *what)
{
    key_answers f = answers_of(e, kf, FC_PROPQ),
                d = answers_of(e, kd, DF_PROPQ);

    CHECK(strcmp(fc_rsa_key_provider(kf), "fastcrypto") == 0, "%s: held by %s",
          what, fc_rsa_key_provider(kf));
    CHECK(f.sec == d.sec, "%s: security bits %d, default %d", what, f.sec,
          d.sec);
    CHECK(f.pairwise == d.pairwise, "%s: pairwise check %d, default %d", what,
          f.pairwise, d.pairwise);
    CHECK(f.check == d.check, "%s: check %d, default %d", what, f.check,
          d.check);
    CHECK(f.privcheck == d.privcheck, "%s: private check %d, default %d", what,
          f.privcheck, d.privcheck);
    CHECK(f.exported == d.exported, "%s: %d parameters exported, default %d",
          what, f.exported, d.exported);
    CHECK(f.signs == d.signs, "%s: signs %d, default %d", what, f.signs,
          d.signs);
}

/* Keys where default's answers are not the obvious ones: 4 primes at 2048
 * bits (more than default allows for the size: no security bits, the key
 * pair check fails, yet it signs), and a CRT-only key (no d: default keeps
 * the public key alone). Built on both providers, the same answers. */
FC_RSA_TEST(test_default_answers)
{
    const fc_rsa_env *e = *state;
    comps c;
    EVP_PKEY *kf, *kd, *gen;

    fc_test_rand_start(__func__);
    c = make_key(2048, 4);
    kf = key_of(e, &c, M_PUB | M(K_D) | M_CRT4, FC_PROPQ);
    kd = key_of(e, &c, M_PUB | M(K_D) | M_CRT4, DF_PROPQ);
    CHECK(kf != NULL && kd != NULL, "4-prime RSA-2048: fromdata");
    same_answers(e, kf, kd, "4-prime RSA-2048");
    CHECK(EVP_PKEY_get_security_bits(kf) == 0, "4-prime RSA-2048: %d bits",
          EVP_PKEY_get_security_bits(kf));
    EVP_PKEY_free(kf);
    EVP_PKEY_free(kd);
    comps_free(&c);

    gen = gen_mp(e, DF_PROPQ, 2048, 2);
    CHECK(gen != NULL, "keygen");
    c = comps_of(gen);
    kf = key_of(e, &c, M_PUB | M_CRT2, FC_PROPQ);
    kd = key_of(e, &c, M_PUB | M_CRT2, DF_PROPQ);
    CHECK(kf != NULL && kd != NULL, "CRT-only RSA-2048: fromdata");
    same_answers(e, kf, kd, "CRT-only RSA-2048");
    CHECK(answers_of(e, kf, FC_PROPQ).exported == 2,
          "CRT-only RSA-2048: more than n and e exported");
    EVP_PKEY_free(kf);
    EVP_PKEY_free(kd);
    EVP_PKEY_free(gen);
    comps_free(&c);
}

int main(void)
{
    return fc_rsa_suite_run("rsa_keys", 0);
}
