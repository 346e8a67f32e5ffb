/* SPDX-License-Identifier: Apache-2.0 */
/*
 * evp_checks.h - checks through EVP shared by the provider tests of both
 * cipher families (test_provider_cbc for CBC, test_provider_gcm for GCM),
 * and the key helpers the RSA tests share.
 * Header only, for test binaries that link OpenSSL. Each check returns 1
 * on success, or 0 with a description in |msg|; the caller reports it
 * through its own CHECK, with its own context.
 */
#ifndef FC_TEST_EVP_CHECKS_H
#define FC_TEST_EVP_CHECKS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rsa.h>

#define FC_TEST_PROV_NAME "fastcrypto"

/* fc_test_move_key exports |src| (|selection|) and imports the result into
 * the keymgmt |name| of |lib| that |propq| selects, how libcrypto moves a
 * key between providers. Returns the new key, or NULL. */
static inline EVP_PKEY *fc_test_move_key(OSSL_LIB_CTX *lib, EVP_PKEY *src,
                                         const char *name, int selection,
                                         const char *propq)
{
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    EVP_PKEY *pkey = NULL;

    if (EVP_PKEY_todata(src, selection, &params) <= 0)
        return NULL;
    ctx = EVP_PKEY_CTX_new_from_name(lib, name, propq);
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &pkey, selection, params) <= 0)
        pkey = NULL;
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    return pkey;
}

/*
 * fc_test_default_checks_own tells whether EVP_PKEY_check and
 * EVP_PKEY_pairwise_check of the provider |propq| selects in |lib| accept a
 * key of |np| primes and |bits| bits it generated itself and moved to
 * itself (export, import), as a key of ours is moved to it. OpenSSL 3.6
 * refuses its own 4-prime keys so moved ("mp coefficient not inverse of
 * r"); a test then skips those checks of ours, with the note this prints.
 */
static inline int fc_test_default_checks_own(OSSL_LIB_CTX *lib,
                                             const char *propq, size_t bits,
                                             size_t np)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(lib, "RSA", propq);
    EVP_PKEY *k = NULL, *k2 = NULL;
    int ok = 0;

    if (ctx != NULL && EVP_PKEY_keygen_init(ctx) > 0 &&
        EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, (int)bits) > 0 &&
        EVP_PKEY_CTX_set_rsa_keygen_primes(ctx, (int)np) > 0 &&
        EVP_PKEY_keygen(ctx, &k) > 0)
        k2 = fc_test_move_key(lib, k, "RSA", EVP_PKEY_KEYPAIR, propq);
    EVP_PKEY_CTX_free(ctx);
    ctx = k2 != NULL ? EVP_PKEY_CTX_new_from_pkey(lib, k2, propq) : NULL;
    ok = ctx != NULL && EVP_PKEY_check(ctx) == 1 &&
         EVP_PKEY_pairwise_check(ctx) == 1;
    if (!ok)
        printf("  note: %s refuses its own moved %zu-prime RSA-%zu key in "
               "its checks; checks of ours skipped\n",
               OpenSSL_version(OPENSSL_VERSION), np, bits);
    ERR_clear_error();
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(k2);
    EVP_PKEY_free(k);
    return ok;
}

static inline int fc_check_fail(char *msg, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline int fc_check_fail(char *msg, size_t cap, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    return 0;
}

/*
 * fc_check_reason drains the error queue; it succeeds if the queue held an
 * error of fastcrypto's whose reason string is |reason| (the strings of
 * provider/fc_prov.c).
 */
static inline int fc_check_reason(const char *what, const char *reason,
                                  char *msg, size_t cap)
{
    unsigned long e;
    int found = 0, any = ERR_peek_last_error() != 0;
    char last[256] = "(none)";

    while ((e = ERR_get_error()) != 0) {
        const char *lib = ERR_lib_error_string(e);
        const char *why = ERR_reason_error_string(e);

        if (lib != NULL && strcmp(lib, FC_TEST_PROV_NAME) == 0 && why != NULL &&
            strcmp(why, reason) == 0)
            found = 1;
        ERR_error_string_n(e, last, sizeof(last));
    }
    if (!any)
        return fc_check_fail(msg, cap, "%s: failed but raised no error", what);
    if (!found)
        return fc_check_fail(msg, cap, "%s: no %s error \"%s\" (last: %s)",
                             what, FC_TEST_PROV_NAME, reason, last);
    return 1;
}

/*
 * fc_check_quiet succeeds if |ok| (a call's result) is true and the call
 * left the error queue empty, as a successful call must: an application
 * or libssl that reads the queue later (SSL_get_error does) would take a
 * stray error for a failure. Clears the queue either way.
 */
static inline int fc_check_quiet(int ok, const char *what, char *msg,
                                 size_t cap)
{
    unsigned long e = ERR_peek_error();
    char err[256] = "";

    if (e != 0)
        ERR_error_string_n(e, err, sizeof(err));
    ERR_clear_error();
    if (!ok)
        return fc_check_fail(msg, cap, "%s failed (%s)", what,
                             e != 0 ? err : "no error");
    if (e != 0)
        return fc_check_fail(msg, cap, "%s succeeded and left an error: %s",
                             what, err);
    return 1;
}

/* fc_check_same_names succeeds if the lists |a| (ours) and |b| (default's)
 * name the same parameters, in any order. */
static inline int fc_check_same_names(const OSSL_PARAM *a, const OSSL_PARAM *b,
                                      char *msg, size_t cap)
{
    for (int pass = 0; pass < 2; pass++) {
        const OSSL_PARAM *x = pass ? b : a, *y = pass ? a : b;

        for (; x != NULL && x->key != NULL; x++)
            if (y == NULL || OSSL_PARAM_locate_const(y, x->key) == NULL)
                return fc_check_fail(msg, cap, "\"%s\" only in %s's list",
                                     x->key,
                                     pass ? "default" : FC_TEST_PROV_NAME);
    }
    return 1;
}

/*
 * fc_check_keylen_policy holds ci[0] (fastcrypto's) and ci[1] (default's
 * same cipher, key length |own|) to one key length policy, on the contexts
 * c[0] and c[1]; |key| has |own| bytes, |iv| the cipher's IV length.
 * - The settable lists name the same parameters, "keylen" not among them.
 * - EVP_CIPHER_CTX_set_key_length: the own length is taken, any other
 *   refused by EVP itself (keylen is not settable), as by default.
 * - "keylen" in the parameters, through EVP_CTRL_SET_KEY_LENGTH, and in an
 *   init's parameters (with and without the cipher): the own length is
 *   taken by both, any other refused by fastcrypto with "invalid key
 *   length". Default ignores another there (3.0) or records it so that
 *   the next key init fails (3.5+), so it is not asked.
 * The key length reads |own| throughout. The contexts are left
 * initialised with the cipher, no key.
 */
static inline int fc_check_keylen_policy(EVP_CIPHER_CTX *c[2],
                                         const EVP_CIPHER *ci[2], int own,
                                         const uint8_t *key, const uint8_t *iv,
                                         char *msg, size_t cap)
{
    static const int other[] = {0,  1,  15, 16, 17, 23, 24,
                                25, 31, 32, 33, 64, -1};
    size_t v, now;

    if (!fc_check_same_names(EVP_CIPHER_settable_ctx_params(ci[0]),
                             EVP_CIPHER_settable_ctx_params(ci[1]), msg, cap))
        return 0;
    for (int s = 0; s < 2; s++)
        if (c[s] == NULL ||
            !EVP_CipherInit_ex2(c[s], ci[s], NULL, NULL, 1, NULL))
            return fc_check_fail(msg, cap, "cipher init (%s)",
                                 s ? "default" : FC_TEST_PROV_NAME);

    for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
        const int kl = other[i], want = kl == own;
        OSSL_PARAM q[2] = {
            OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &v),
            OSSL_PARAM_construct_end()};
        int r[2];

        for (int s = 0; s < 2; s++) {
            r[s] = EVP_CIPHER_CTX_set_key_length(c[s], kl);
            if (s == 0 && !r[0] && ERR_peek_last_error() == 0)
                return fc_check_fail(msg, cap,
                                     "set_key_length(%d) refused without an "
                                     "error",
                                     kl);
            ERR_clear_error();
            if (EVP_CIPHER_CTX_get_key_length(c[s]) != own)
                return fc_check_fail(msg, cap,
                                     "set_key_length(%d): key length %d (%s)",
                                     kl, EVP_CIPHER_CTX_get_key_length(c[s]),
                                     s ? "default" : FC_TEST_PROV_NAME);
        }
        if (r[0] != r[1] || r[0] != want)
            return fc_check_fail(msg, cap, "set_key_length(%d): %d, default %d",
                                 kl, r[0], r[1]);
        if (kl < 0)
            continue; /* not a size_t */
        v = (size_t)kl;
        for (int s = 0; s < 1 + want; s++) {
            const char *who = s ? "default" : FC_TEST_PROV_NAME;
            OSSL_PARAM g[2] = {
                OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &now),
                OSSL_PARAM_construct_end()};

            for (int step = 0; step < 4; step++) {
                static const char *const name[] = {"set_params",
                                                   "EVP_CTRL_SET_KEY_LENGTH",
                                                   "key init", "cipher init"};
                int ok;

                switch (step) {
                case 0:
                    ok = EVP_CIPHER_CTX_set_params(c[s], q) == 1;
                    break;
                case 1:
                    ok = EVP_CIPHER_CTX_ctrl(c[s], EVP_CTRL_SET_KEY_LENGTH, kl,
                                             NULL) > 0;
                    break;
                case 2:
                    ok = EVP_CipherInit_ex2(c[s], NULL, key, iv, 1, q) == 1;
                    break;
                default:
                    ok = EVP_CipherInit_ex2(c[s], ci[s], NULL, NULL, 1, q) == 1;
                    break;
                }
                if (ok != want)
                    return fc_check_fail(msg, cap, "%s with keylen %d: %s (%s)",
                                         name[step], kl,
                                         want ? "refused" : "taken", who);
                if (!want && !fc_check_reason(name[step], "invalid key length",
                                              msg, cap))
                    return 0;
            }
            now = 0;
            if (!EVP_CIPHER_CTX_get_params(c[s], g) || now != (size_t)own ||
                EVP_CIPHER_CTX_get_key_length(c[s]) != own)
                return fc_check_fail(
                    msg, cap, "after keylen %d: keylen %zu (%s)", kl, now, who);
        }
    }
    return 1;
}

#endif /* FC_TEST_EVP_CHECKS_H */
