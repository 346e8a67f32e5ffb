/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cipher_suite.h - what the provider suites of the cipher families
 * (test_provider_cbc, test_provider_gcm, test_provider_ctr) share beyond
 * the harness of provider_test.h: the tests every family runs, written
 * once and driven by a description of the cipher (fc_test_cipher_spec),
 * and the stream harness of the non-AEAD modes, which runs one message
 * through both providers call by call and compares every return value,
 * outl and output byte.
 *
 * The families themselves are described here too, side by side. A suite
 * opens each of its tests with FC_SUITE_TEST(name) instead of a list in
 * main, and main is fc_suite_run(&fc_test_family_<mode>): the tests every
 * family runs (fc_test_common_*), then the suite's own in the order they
 * are written, in every group of provider_test.h. Each test takes the
 * group's fc_test_env as *state.
 */
#ifndef FC_TEST_CIPHER_SUITE_H
#define FC_TEST_CIPHER_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core_dispatch.h>

#include "provider_test.h"
#include "runner.h"

/* What fc_test_kat_file checks of "updated-iv" after each message. */
enum {
    FC_KAT_IV_CHAIN,   /* CBC: the last ciphertext block */
    FC_KAT_IV_COUNTER, /* CTR: the IV plus the message's block count */
};

/* What the tests every family runs hold a cipher to. */
typedef struct fc_test_cipher_spec {
    unsigned int mode; /* EVP_CIPH_*_MODE */
    int ivlen;         /* the default IV length */
    int blocksize;     /* 1 for a stream or an AEAD */
    /* Two more names for each key size (family count), or NULL. */
    const char *const (*aliases)[2];
    /* Names that must be in the gettable and settable context parameter
     * lists, NULL-terminated. */
    const char *const *gettable;
    const char *const *settable;
    /* A settable parameter and two values for fc_test_check_decoding. */
    const char *decode_key;
    size_t decode_first, decode_second;
    /* The known answers fc_test_common_kat runs (fc_test_kat_file): a file
     * of test/kat, the Mode of its blocks to run, the "updated-iv" rule
     * (FC_KAT_IV_*) and how many blocks there must be; NULL for a family
     * that reads its own (GCM's vectors carry AAD and tags). */
    const char *kat_file, *kat_mode;
    int kat_iv_rule;
    size_t kat_blocks;
} fc_test_cipher_spec;

/* The three cipher families of the provider suites: names, key sizes, the
 * kernel parameter and selection, and the spec above. */
extern const fc_test_family fc_test_family_cbc;
extern const fc_test_family fc_test_family_gcm;
extern const fc_test_family fc_test_family_ctr;

/*
 * fc_test_common_identity: for every key size, the cipher fetched with
 * provider=fastcrypto is fastcrypto's, every alias reaches fastcrypto, and
 * its key length, IV length, block size and mode are the spec's (and the
 * IV length default's); the flags EVP caches from get_params equal
 * default's; the spec's names are gettable and settable.
 */
void fc_test_common_identity(void **state);

/*
 * fc_test_common_keylen: the key length policy (fc_check_keylen_policy,
 * evp_checks.h), then a message on the same contexts, equal to default's.
 */
void fc_test_common_keylen(void **state);

/*
 * fc_test_common_param_decoding: parameter arrays are decoded as default
 * decodes them (fc_test_check_decoding with the spec's key and values).
 */
void fc_test_common_param_decoding(void **state);

/*
 * fc_test_common_kat: the spec's known-answer file through EVP, both
 * directions (fc_test_kat_file); run for the families whose spec names one.
 */
void fc_test_common_kat(void **state);

/*
 * FC_SUITE_TEST(name) opens the definition of a test of the suite (a
 * function of a void **state) and registers it for fc_suite_run (in the
 * registry of runner.h, group "suite"); a test is written once, never
 * listed again.
 */
#define FC_SUITE_TEST(name) FC_TEST("suite", name)

/*
 * fc_suite_run runs, for |fam|, the tests every family runs and then the
 * registered tests in line order, through fc_test_run_groups. Returns the
 * number of failed tests.
 */
int fc_suite_run(const fc_test_family *fam);

/*
 * fc_test_tls_params fills |p| with what libssl's tls1_change_cipher_state
 * sets on every cipher: "tls-version" as an int from |*version| and
 * "tls-mac-size" as a size_t from |*macsize|, then the end marker.
 */
void fc_test_tls_params(OSSL_PARAM p[3], int *version, size_t *macsize);

/*
 * fc_test_quiet_iv_gets: the IV reads EVP and libssl make on |c| - "iv"
 * and "updated-iv", as copies of |ivlen| bytes and as pointers - succeed
 * and leave the error queue empty (QUIET, provider_test.h).
 */
void fc_test_quiet_iv_gets(EVP_CIPHER_CTX *c, size_t ivlen);

/* fc_test_raw_cbc runs |len| bytes (a multiple of 16) of |in| through the
 * cipher |c| (default's AES-CBC: the oracle for building test
 * ciphertexts) with padding off, into |out|; in == out is fine. */
void fc_test_raw_cbc(const EVP_CIPHER *c, const uint8_t *key, const uint8_t *iv,
                     int enc, const uint8_t *in, size_t len, uint8_t *out);

/* fc_test_add128 adds |n| to |iv| as a 128-bit big-endian number (the
 * counter of CTR, SP 800-38A B.1). */
void fc_test_add128(uint8_t iv[16], size_t n);

/*
 * fc_test_kat_file runs each block of the known-answer file |name|
 * (test/kat, kat.h: Mode, Key, IV, Plaintext, Ciphertext) whose Mode is
 * |mode| through fastcrypto's cipher of the block's key length in |env|,
 * in both directions with padding off, and checks the output, the lengths
 * and "updated-iv" as |iv_rule| says. Returns the number of blocks run; a
 * block it cannot run (a key length the family lacks, a message over 64
 * bytes) fails the test.
 */
size_t fc_test_kat_file(const fc_test_env *env, const char *name,
                        const char *mode, int iv_rule);

/* A cipher's functions straight from its provider, to pass lengths and
 * output sizes EVP never would (EVP takes int lengths and always offers
 * inl + 16). */
typedef struct fc_test_cipher_fns {
    void *provctx;
    OSSL_FUNC_cipher_newctx_fn *newctx;
    OSSL_FUNC_cipher_freectx_fn *freectx;
    OSSL_FUNC_cipher_encrypt_init_fn *einit;
    OSSL_FUNC_cipher_decrypt_init_fn *dinit;
    OSSL_FUNC_cipher_update_fn *update;
    OSSL_FUNC_cipher_final_fn *final;
    OSSL_FUNC_cipher_cipher_fn *cipher;
    OSSL_FUNC_cipher_set_ctx_params_fn *set_params;
} fc_test_cipher_fns;

/* fc_test_get_cipher_fns fills |f| with the functions of the cipher
 * |name| of |c|'s provider (fails the test if one it needs is missing). */
void fc_test_get_cipher_fns(const EVP_CIPHER *c, const char *name,
                            fc_test_cipher_fns *f);

/* ---------------------------------------------------------------------- */
/* The stream harness (CBC, CTR)                                          */

#define FC_STREAM_MAX_PIECES 64
#define FC_STREAM_MAX_LEN    1100

/* How a stream's buffers are laid out. */
enum {
    FC_STREAM_SEPARATE, /* distinct input and output buffers */
    FC_STREAM_LAGGING,  /* one buffer; output lags input (evp_test's) */
    FC_STREAM_SAME_PTR, /* in == out on every call, through a scratch */
    FC_STREAM_LAYOUTS
};

/* One message: cipher |ks| of the family, direction, padding, layout, the
 * key and IV, |len| bytes of input at a misalignment, and the update
 * pieces (fc_test_pieces). */
typedef struct fc_stream_spec {
    int ks, enc, pad, layout;
    const uint8_t *key, *iv, *in;
    size_t len, mis_in, mis_out;
    size_t pieces[FC_STREAM_MAX_PIECES];
    size_t npieces;
} fc_stream_spec;

/*
 * fc_stream_diff runs |s| through fastcrypto and through default, then
 * compares them: every call's return value and outl, the whole output
 * buffer with its guards (a byte written past outl counts), and
 * "updated-iv" after final. FC_STREAM_SAME_PTR runs default out of place:
 * it writes over input it has not read when it holds a partial block in
 * place (OpenSSL only promises in-place operation without one).
 */
void fc_stream_diff(const fc_test_env *env, const fc_stream_spec *s);

#endif /* FC_TEST_CIPHER_SUITE_H */
