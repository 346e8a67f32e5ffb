/* SPDX-License-Identifier: Apache-2.0 */
/*
 * provider_test.h - the harness of the provider suites (test_provider_cbc
 * for CBC, test_provider_gcm for GCM, ...; the RSA suites through
 * rsa_suite.h): failure reports with their context, error-queue checks,
 * guarded buffers, random pieces, one library context per CPU mask
 * (fc_test_run_mask_groups) with the fastcrypto and default ciphers
 * fetched, and the pair harness that runs every call on both providers
 * and compares.
 *
 * A suite describes its family once (fc_test_family: cipher names, key
 * lengths, the provider parameter naming the kernel, and the core's
 * selection function) and hands its tests to fc_test_run_groups, which
 * runs them up to four times, each group in its own OSSL_LIB_CTX loaded
 * from FC_TEST_CONF: under the process's own FASTCRYPTO_CPU_MASK (normally
 * the best kernel), under "avx512" (the ymm tier on x86-64; skipped where
 * it selects the native group's kernel), under "vaes" (the AES-NI tier)
 * and under "all" (the portable C code). fastcrypto reads the mask when a
 * library context activates it; the kernel it reports must be the one the
 * core selects under that mask (with this CPU's tuning row, or
 * FASTCRYPTO_CPU_CLASS's), or the group does not run.
 *
 * Randomness comes from impls.h (one seeded generator; FC_TEST_SEED
 * replays). Each test calls fc_test_rand_start(__func__) first, so its
 * stream depends on the seed and its name alone: one test run by itself
 * sees the data it saw in the whole suite.
 *
 * Environment: FC_TEST_CONF (required; ctest sets it), FC_TEST_SEED,
 * FC_TEST_QUICK=1 (smaller loops, for valgrind).
 */
#ifndef FC_TEST_PROVIDER_TEST_H
#define FC_TEST_PROVIDER_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "checks.h"
#include "evp_checks.h"
#include "impls.h"
#include "libctx.h"

#define FC_TEST_KS_MAX 4 /* ciphers (key sizes) per family */
#define FC_TEST_FILL   0xa5

/* ---------------------------------------------------------------------- */
/* Failure reports                                                        */

/* The group and the place a test is at; WHERE sets the place. */
extern const char *fc_test_group;
extern char fc_test_where[1024];

#define WHERE(...) snprintf(fc_test_where, sizeof(fc_test_where), __VA_ARGS__)

/* fc_test_fail prints a failed check with its group, test, place and the
 * seed that replays it, and fails the test: it does not return (cmocka
 * leaves the test), so code after a CHECK may rely on its condition. */
void fc_test_fail(const char *file, int line, const char *cond, const char *fmt,
                  ...) __attribute__((format(printf, 4, 5), noreturn));

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond))                                                           \
            fc_test_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);              \
    } while (0)

/* fc_test_hexs formats up to 80 bytes for a report, in one of four rotating
 * static buffers (so one report may hold four). */
const char *fc_test_hexs(const void *p, size_t n);

/* fc_test_mem_diff returns the index of the first byte where |a| and |b|
 * differ, or |n|. */
size_t fc_test_mem_diff(const void *a, const void *b, size_t n);

/* CHECK_MEM(got, expected, n, what): equal, or a report showing the first
 * difference and the 32 bytes around it. */
#define CHECK_MEM(a, b, n, what)                                               \
    do {                                                                       \
        const uint8_t *ca_ = (const uint8_t *)(a);                             \
        const uint8_t *cb_ = (const uint8_t *)(b);                             \
        size_t cn_ = (n), ci_ = fc_test_mem_diff(ca_, cb_, cn_);               \
        size_t cs_ = ci_ & ~(size_t)15;                                        \
        size_t cl_ = cn_ - cs_ < 32 ? cn_ - cs_ : 32;                          \
        CHECK(ci_ == cn_,                                                      \
              "%s: first difference at byte %zu of %zu\n"                      \
              "  got (from byte %zu):      %s\n"                               \
              "  expected (from byte %zu): %s",                                \
              (what), ci_, cn_, cs_, fc_test_hexs(ca_ + cs_, cl_), cs_,        \
              fc_test_hexs(cb_ + cs_, cl_));                                   \
    } while (0)

/*
 * fc_test_expect_error drains the error queue and checks it held an error
 * of fastcrypto's (its own library, named after the provider) with a
 * reason string; with |allow_evp| an EVP error will do, for calls EVP
 * refuses before the provider is reached.
 */
void fc_test_expect_error(const char *what, int allow_evp);

/* fc_test_expect_reason drains the queue and checks it held fastcrypto's
 * error with the reason string |reason|. */
void fc_test_expect_reason(const char *what, const char *reason);

/* QUIET(call, what): the call succeeds and leaves the queue empty
 * (fc_check_quiet, evp_checks.h). */
#define QUIET(call, what)                                                      \
    do {                                                                       \
        char qmsg_[400];                                                       \
        CHECK(fc_check_quiet((call), (what), qmsg_, sizeof(qmsg_)), "%s",      \
              qmsg_);                                                          \
    } while (0)

/* ---------------------------------------------------------------------- */
/* Random pieces (guarded buffers: checks.h)                              */

/*
 * fc_test_pieces cuts |len| into random piece lengths that sum to it,
 * writing at most |max| (>= 10) to |pieces| and returning their number:
 * 1 to 8 pieces at random cut points, sometimes with an empty piece, or
 * (short lengths, one time in four) byte by byte with one empty piece.
 */
size_t fc_test_pieces(size_t len, size_t *pieces, size_t max);

/* fc_test_pieces_str formats |n| pieces as "3,0,17" into |buf|. */
const char *fc_test_pieces_str(char *buf, size_t cap, const size_t *pieces,
                               size_t n);

/* ---------------------------------------------------------------------- */
/* Library contexts, one per CPU mask                                     */

/* What a suite tests: its ciphers and how to tell which kernel runs. */
typedef struct fc_test_family {
    const char *suite;        /* group names: "<suite> (native kernel)", ... */
    size_t count;             /* ciphers, <= FC_TEST_KS_MAX */
    const char *const *names; /* [count] */
    const int *keylen;        /* [count] */
    /* Ciphers also fetched from default alone, as references: NULL, or
     * [count] names. */
    const char *const *refs;
    /* 1: default may lack the ciphers (it offers the AES-CBC-HMAC ones on
     * AES-NI CPUs only); then df[] stays NULL and tests compare with it
     * only where it is non-NULL. 0: a missing one fails the setup. */
    int default_optional;
    /* What the tests every family runs check (cipher_suite.h), or NULL. */
    const struct fc_test_cipher_spec *spec;
    const char *impl_param; /* provider parameter naming the kernel */
    /* The kernel's name the core selects under |caps| (fc_*_select, with
     * the tuning row the provider uses: impls.h fc_test_tuning). */
    const char *(*impl_for_caps)(uint32_t caps);
} fc_test_family;

typedef struct fc_test_env {
    const fc_test_family *fam;
    const char *label;
    const char *mask; /* FASTCRYPTO_CPU_MASK while loading; NULL: inherit */
    OSSL_LIB_CTX *lib;
    EVP_CIPHER *fc[FC_TEST_KS_MAX];  /* fastcrypto's */
    EVP_CIPHER *df[FC_TEST_KS_MAX];  /* default's (see default_optional) */
    EVP_CIPHER *ref[FC_TEST_KS_MAX]; /* default's references, or NULL */
    char impl[64];                   /* the kernel fastcrypto reports */
    char expect_impl[64];            /* the core's selection */
    char caps[256];                  /* "fastcrypto-cpu-caps" */
} fc_test_env;

/*
 * fc_test_run_groups runs |tests| in the groups (native, "avx512" where it
 * selects another kernel than native, "vaes", "all"), each test getting
 * its fc_test_env as *state. Returns the number of failed tests; prints
 * the seed first.
 */
int fc_test_run_groups(const fc_test_family *fam,
                       const struct CMUnitTest *tests, size_t count);

/* One group of a suite: CMocka's group "<suite> (<what>)", loaded under
 * FASTCRYPTO_CPU_MASK=|mask| (NULL: the process's own), with the suite's
 * state for it (|env|, handed to the setup). */
typedef struct fc_test_mask_group {
    const char *what;
    const char *mask;
    void *env;
} fc_test_mask_group;

/*
 * fc_test_run_mask_groups runs |tests| once in each of the |n| |groups|:
 * |setup| loads the group's library context into its env and puts the
 * env in *state (0, or -1: the group's tests fail), |teardown| frees it.
 * The harness of every provider suite: fc_test_run_groups for the cipher
 * families, rsa_suite.h for RSA. Returns the number of failed tests.
 */
int fc_test_run_mask_groups(const char *suite, const fc_test_mask_group *groups,
                            size_t n, const struct CMUnitTest *tests,
                            size_t count,
                            int (*setup)(const fc_test_mask_group *g,
                                         void **state),
                            CMFixtureFunction teardown);

/* ---------------------------------------------------------------------- */
/* Small EVP helpers                                                      */

/* Context parameter gets and sets of one value; the gets succeed only if
 * the provider filled the parameter. */
int fc_test_get_size(EVP_CIPHER_CTX *c, const char *key, size_t *v);
int fc_test_set_size(EVP_CIPHER_CTX *c, const char *key, size_t v);
int fc_test_get_uint(EVP_CIPHER_CTX *c, const char *key, unsigned int *v);
/* An octet-string get: the call's result, *n the returned size. */
int fc_test_get_octets(EVP_CIPHER_CTX *c, const char *key, uint8_t *buf,
                       size_t cap, size_t *n);
int fc_test_set_octets(EVP_CIPHER_CTX *c, const char *key, const uint8_t *buf,
                       size_t len);

/* ---------------------------------------------------------------------- */
/* The pair harness: one call on both providers, results compared         */

typedef struct fc_pair {
    EVP_CIPHER_CTX *c[2]; /* [0] fastcrypto, [1] default */
} fc_pair;

/* fc_pair_new makes both contexts (or fails the test); fc_pair_free frees
 * them. */
void fc_pair_new(fc_pair *p);
void fc_pair_free(fc_pair *p);

/*
 * fc_pair_init runs the same EVP_CipherInit_ex2 on both contexts: with the
 * family's cipher |ks|, or with no cipher (the context keeps its own) if
 * |ks| < 0. The results must agree; a failure must leave fastcrypto's
 * error (or EVP's). Returns the result.
 */
int fc_pair_init(fc_pair *p, const fc_test_env *env, int ks, const uint8_t *key,
                 const uint8_t *iv, int enc, const OSSL_PARAM *params,
                 const char *what);

/*
 * fc_pair_update_at runs EVP_CipherUpdate on both contexts, fastcrypto's
 * writing at |out0| and default's at |out1| (both NULL: AAD). Return
 * values must agree, and outl where they succeed; fastcrypto's output
 * must equal default's over the |outl| bytes reported. Sets *outl (-1 on
 * failure) and returns the result.
 */
int fc_pair_update_at(fc_pair *p, uint8_t *out0, uint8_t *out1,
                      const uint8_t *in, size_t len, int *outl,
                      const char *what);

/* fc_pair_update_in_place: the same with in == out, fastcrypto's context
 * on |buf0| and default's on |buf1| (which start equal). */
int fc_pair_update_in_place(fc_pair *p, uint8_t *buf0, uint8_t *buf1,
                            size_t len, int *outl, const char *what);

/* fc_pair_update: the same into guarded buffers of |len| + 16 bytes (|aad|:
 * no output), compared whole: no byte past outl may differ. */
int fc_pair_update(fc_pair *p, int aad, const uint8_t *in, size_t len,
                   const char *what);

/* fc_pair_final_at runs EVP_CipherFinal_ex on both contexts writing at
 * |out0| / |out1|, compared as fc_pair_update_at does. */
int fc_pair_final_at(fc_pair *p, uint8_t *out0, uint8_t *out1, int *outl,
                     const char *what);

/* fc_pair_final: the same into guarded 32-byte buffers, compared whole;
 * outl must be |want_outl| on success (0 for an AEAD, -1: any). */
int fc_pair_final(fc_pair *p, int want_outl, const char *what);

/*
 * fc_pair_run runs |n| bytes of |in| through both contexts in random
 * pieces (each update must succeed), then final if |do_final| (the
 * results must agree), writing at |of| / |od| as it goes. Returns the
 * bytes produced; every output byte must match.
 */
size_t fc_pair_run(fc_pair *p, const uint8_t *in, size_t n, int do_final,
                   uint8_t *of, uint8_t *od);

/* fc_pair_get_octets / fc_pair_set_octets: an octet-string parameter get
 * (|len| bytes; values compared where both succeed) or set on both
 * contexts; results must agree. */
int fc_pair_get_octets(fc_pair *p, const char *key, size_t len,
                       const char *what);
int fc_pair_set_octets(fc_pair *p, const char *key, const uint8_t *buf,
                       size_t len, const char *what);

/*
 * fc_test_check_decoding holds fastcrypto's parameter decoding to
 * OSSL_PARAM_locate's rules on cipher |ks|: a get of an array with "ivlen"
 * and "keylen" twice each among keys no cipher has (a prefix, a longer
 * name, 15 and 16 characters, the empty key) fills the first of each and
 * nothing else; a set of |key| twice, to |first| then |second| (size_t),
 * applies the first. Default is compared where it takes such arrays (3.0
 * to 3.4; 3.5+ refuses repeated keys). The contexts are initialised for
 * encryption first.
 */
void fc_test_check_decoding(const fc_test_env *env, int ks, const char *key,
                            size_t first, size_t second);

#endif /* FC_TEST_PROVIDER_TEST_H */
