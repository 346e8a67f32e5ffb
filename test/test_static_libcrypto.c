/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_static_libcrypto - a program linked statically against libcrypto
 * that loads fastcrypto.so (which links the shared libcrypto) through its
 * configuration, uses it for work that reaches fastcrypto's child library
 * context (RSA key generation and signing: digests and random bytes come
 * from there) and AES-GCM, and exits normally. The two libcryptos' exit
 * handlers must not tear fastcrypto down into a library already cleaned
 * up (fc_prov.c, fc_prov_second_libcrypto): the test is the exit status,
 * so a crash at exit fails it.
 *
 * Not CMocka: CMocka's own exit paths would hide what happens at exit.
 * Environment: FC_TEST_CONF, the test configuration (offer = all).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

static int fail(const char *what)
{
    fprintf(stderr, "test_static_libcrypto: %s\n", what);
    ERR_print_errors_fp(stderr);
    return 1;
}

static int served_by_us(const OSSL_PROVIDER *p)
{
    return p != NULL && strcmp(OSSL_PROVIDER_get0_name(p), "fastcrypto") == 0;
}

int main(void)
{
    const char *conf = getenv("FC_TEST_CONF");
    unsigned char msg[32] = {1, 2, 3}, sig[512], key[16] = {0}, iv[12] = {0};
    unsigned char ct[64], tag[16];
    size_t sl = sizeof(sig);
    int l = 0, ok;
    EVP_PKEY *pk;
    EVP_MD_CTX *mc;
    EVP_CIPHER *gcm;
    EVP_CIPHER_CTX *cc;

    if (conf == NULL)
        return fail("FC_TEST_CONF not set");
    /* The configuration file loads default and fastcrypto. */
    if (OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, NULL) == 0 ||
        OSSL_LIB_CTX_load_config(NULL, conf) == 0 ||
        !OSSL_PROVIDER_available(NULL, "fastcrypto") ||
        !OSSL_PROVIDER_available(NULL, "default"))
        return fail("loading the configuration");

    pk = EVP_PKEY_Q_keygen(NULL, "provider=fastcrypto", "RSA", (size_t)2048);
    if (pk == NULL || !served_by_us(EVP_PKEY_get0_provider(pk)))
        return fail("RSA key generation by fastcrypto");
    mc = EVP_MD_CTX_new();
    ok = mc != NULL &&
         EVP_DigestSignInit_ex(mc, NULL, "SHA256", NULL, "provider=fastcrypto",
                               pk, NULL) == 1 &&
         EVP_DigestSign(mc, sig, &sl, msg, sizeof(msg)) == 1;
    EVP_MD_CTX_free(mc);
    if (!ok)
        return fail("RSA signature");
    mc = EVP_MD_CTX_new();
    ok = mc != NULL &&
         EVP_DigestVerifyInit_ex(mc, NULL, "SHA256", NULL, "provider=default",
                                 pk, NULL) == 1 &&
         EVP_DigestVerify(mc, sig, sl, msg, sizeof(msg)) == 1;
    EVP_MD_CTX_free(mc);
    EVP_PKEY_free(pk);
    if (!ok)
        return fail("default verifies fastcrypto's signature");

    gcm = EVP_CIPHER_fetch(NULL, "AES-128-GCM", "provider=fastcrypto");
    cc = EVP_CIPHER_CTX_new();
    ok = gcm != NULL && cc != NULL &&
         EVP_EncryptInit_ex2(cc, gcm, key, iv, NULL) == 1 &&
         EVP_EncryptUpdate(cc, ct, &l, msg, sizeof(msg)) == 1 &&
         EVP_EncryptFinal_ex(cc, ct + l, &l) == 1 &&
         EVP_CIPHER_CTX_ctrl(cc, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1;
    EVP_CIPHER_CTX_free(cc);
    EVP_CIPHER_free(gcm);
    if (!ok)
        return fail("AES-GCM");
    printf("test_static_libcrypto: fastcrypto served a static libcrypto "
           "(%s); exiting through both libraries' exit handlers\n",
           OpenSSL_version(OPENSSL_VERSION));
    return 0;
}
