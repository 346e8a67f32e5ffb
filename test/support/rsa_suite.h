/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_suite.h - the harness of the RSA provider suites (test_provider_rsa,
 * test_provider_rsa_keys) on that of provider_test.h: its failure reports
 * (CHECK, WHERE, the seed that replays a run), its random source and its
 * groups, one library context per CPU mask with default and fastcrypto.
 *
 * The groups: the process's own FASTCRYPTO_CPU_MASK (normally the IFMA
 * engine), "ifma" (MULX) and "all" (portable C). Each loads FC_TEST_CONF
 * under its mask; fastcrypto's RSA engine order ("fastcrypto-bn-impl")
 * must be the core's for that mask (fc_rsa_engines_init with the tuning
 * row the provider uses) and the one the build info names, or the group
 * does not run. A suite that asks for them gets the keys of
 * test/kat/rsa_keys.txt (made by OpenSSL 3.6.3) in every group, built by
 * default and moved to fastcrypto through export and import, as libcrypto
 * moves a key default decoded.
 *
 * A suite opens each test with FC_RSA_TEST(name); main is
 * fc_rsa_suite_run. Each test takes the group's fc_rsa_env as *state.
 *
 * The pair helpers run one operation on both providers, fastcrypto's with
 * provider=fastcrypto on its key and default's with provider=default on
 * its own, and hold fastcrypto to default: deterministic results (PKCS#1
 * v1.5 signatures, `none` padding) byte-identical, randomized ones (PSS,
 * OAEP, PKCS#1 type 2 encryption) verified or decrypted across providers
 * both ways.
 *
 * Environment: FC_TEST_CONF (required; ctest sets it), FC_TEST_SEED,
 * FC_TEST_QUICK=1 (fewer keys, digests and cases, for valgrind).
 */
#ifndef FC_TEST_RSA_SUITE_H
#define FC_TEST_RSA_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>
#include <openssl/evp.h>

#include "fc/common.h"
#include "provider_test.h"
#include "runner.h"

#define FC_PROPQ     "provider=" FC_NAME
#define DF_NAME      "default"
#define DF_PROPQ     "provider=" DF_NAME
#define FC_RSA_MAXB  1200 /* bytes: a 9216-bit modulus and some */
#define FC_RSA_NKEYS 10
/* RSA_PKCS1_NO_IMPLICIT_REJECT_PADDING (3.2+ headers). */
#define PAD_NO_IMPLICIT 8

/* FC_RSA_TEST(name) opens the definition of a test of the suite and
 * registers it for fc_rsa_suite_run (the registry of runner.h). */
#define FC_RSA_TEST(name) FC_TEST("rsa", name)

/* ---------------------------------------------------------------------- */
/* Keys and groups                                                        */

/* Two-prime components, in rsa_keys.txt's order. */
enum { C_N, C_E, C_D, C_P, C_Q, C_DP, C_DQ, C_QI, NCOMP };
/* Their keymgmt parameter names ("n", ..., "rsa-coefficient1"). */
extern const char *const fc_rsa_comp_param[NCOMP];
/* Their names in rsa_keys.txt ("N", ..., "QI"). */
extern const char *const fc_rsa_comp_field[NCOMP];

typedef struct fc_rsa_key {
    char name[16];
    int bits;
    BIGNUM *c[NCOMP];
    EVP_PKEY *df; /* held by default, built from the components */
    EVP_PKEY *fc; /* held by fastcrypto: df exported and imported (over
                   * 8192 bits: a delegated key, used through default) */
} fc_rsa_key;

typedef struct fc_rsa_env {
    const char *label; /* "native", "mask=ifma", "mask=all" */
    const char *mask;  /* FASTCRYPTO_CPU_MASK while loading; NULL: inherit */
    OSSL_LIB_CTX *lib;
    unsigned long ver; /* OpenSSL_version_num() of the running library */
    fc_rsa_key keys[FC_RSA_NKEYS]; /* with FC_RSA_KEYS */
    size_t nkeys;
} fc_rsa_env;

/* What fc_rsa_suite_run loads in each group besides the context. */
#define FC_RSA_KEYS 1u /* the keys of rsa_keys.txt */

/*
 * fc_rsa_suite_run runs the registered FC_RSA_TESTs in the three groups
 * ("<suite> (native engines)", "... (FASTCRYPTO_CPU_MASK=ifma)", "...
 * (FASTCRYPTO_CPU_MASK=all)"), loading what |load| says in each. Returns
 * what main returns.
 */
int fc_rsa_suite_run(const char *suite, unsigned load);

/* fc_rsa_find_key: the loaded key of |bits| bits (fails the test if none);
 * fc_rsa_find_key_name: the key called |name|, or NULL. */
const fc_rsa_key *fc_rsa_find_key(const fc_rsa_env *e, int bits);
const fc_rsa_key *fc_rsa_find_key_name(const fc_rsa_env *e, const char *name);

/*
 * FC_RSA_FOR_KEYS(e, sizes, quick_max, t) runs the statement that follows
 * once for each size (bits) of the array |sizes|, with |t| (declared here)
 * the loaded key of that size; sizes over |quick_max| bits are left out
 * under FC_TEST_QUICK. A `continue` goes on to the next size.
 */
#define FC_RSA_FOR_KEYS(e, sizes, quick_max, t)                                \
    for (size_t fc_si_ = 0; fc_si_ < FC_ARRAY_LEN(sizes); fc_si_++)            \
        for (const fc_rsa_key *t =                                             \
                 fc_test_quick() && (sizes)[fc_si_] > (quick_max)              \
                     ? NULL                                                    \
                     : fc_rsa_find_key((e), (sizes)[fc_si_]);                  \
             t != NULL; t = NULL)

/* fc_rsa_key_from_bns builds a key from the components |c| (NULL entries
 * left out) with |selection| on the keymgmt |propq| selects; NULL if it
 * refuses. */
EVP_PKEY *fc_rsa_key_from_bns(const fc_rsa_env *e, BIGNUM *const *c,
                              int selection, const char *propq);

/* The provider holding |pkey| ("(legacy)" for none), and the one an
 * initialised operation context runs on ("(none)"). */
const char *fc_rsa_key_provider(const EVP_PKEY *pkey);
const char *fc_rsa_op_provider(const EVP_PKEY_CTX *ctx);

/* ---------------------------------------------------------------------- */
/* Failure reports                                                        */

/* CHECK_BYTES(got, gotlen, expected, explen, what): same length, same
 * bytes, or a report of both. */
#define CHECK_BYTES(a, alen, b, blen, what)                                    \
    CHECK((alen) == (blen) && memcmp((a), (b), (alen)) == 0,                   \
          "%s: got %zu bytes %s, expected %zu bytes %s", (what),               \
          (size_t)(alen), fc_test_hexs((a), (alen)), (size_t)(blen),           \
          fc_test_hexs((b), (blen)))

/*
 * fc_rsa_expect_error drains the error queue and checks it held an error
 * of the library |lib| (its name as ERR_lib_error_string gives it; NULL:
 * any) whose reason text is |reason| (NULL: any, but one must be there).
 */
void fc_rsa_expect_error(const char *what, const char *lib, const char *reason);

/* ---------------------------------------------------------------------- */
/* Operations                                                             */

/* The parameters of one operation; zero/NULL fields are not set. */
typedef struct op_spec {
    int pad;             /* pad-mode (int) */
    const char *md;      /* signature digest (PKEY_sign) or OAEP digest; the
                          * digest of EVP_DigestSign with |digest| */
    const char *mdprops; /* the signature digest's properties */
    const char *mgf1;    /* mgf1-digest */
    const char *saltlen; /* saltlen (utf8) */
    const uint8_t *label;
    size_t label_len;
    unsigned tls_ver, tls_alt; /* tls-client-version, -negotiated-version */
    int implicit; /* implicit-rejection: IR_UNSET, IR_OFF (0), IR_ON (1) */
    int digest;   /* sign and verify through EVP_DigestSign/Verify */
} op_spec;

enum { IR_UNSET, IR_OFF, IR_ON };
#define OP(...) ((op_spec){__VA_ARGS__})

enum { OP_SIGN, OP_VERIFY, OP_RECOVER, OP_ENCRYPT, OP_DECRYPT };

/* fc_rsa_op_params fills |p| (room for 10) with the parameters of |s| for
 * a signature or (|cipher|) an asymmetric cipher, the values it points to
 * in |v|; returns how many. */
typedef struct fc_rsa_op_values {
    unsigned tv, ta, ir;
    int pad;
} fc_rsa_op_values;
int fc_rsa_op_params(OSSL_PARAM *p, const op_spec *s, int cipher,
                     fc_rsa_op_values *v);

/* fc_rsa_op_init: the EVP_PKEY_*_init of |op| on |ctx|; its result. */
int fc_rsa_op_init(EVP_PKEY_CTX *ctx, int op);

/*
 * fc_rsa_op runs one operation |op| on |pkey| with the provider |propq|
 * selects under |s| and checks that provider ran it: EVP_PKEY_sign,
 * _verify (|out| the signature, |*outlen| its length), _verify_recover
 * (|in| the signature), _encrypt or _decrypt; with s->digest, a sign or
 * verify is EVP_DigestSign or EVP_DigestVerify of |in| with the digest
 * s->md. |*outlen| is the capacity in, the length out. Returns EVP's
 * result (1 on success; 0 if the parameters were refused).
 */
int fc_rsa_op(const fc_rsa_env *e, int op, EVP_PKEY *pkey, const char *propq,
              const op_spec *s, const uint8_t *in, size_t inlen, uint8_t *out,
              size_t *outlen);

/* fc_rsa_digest_op: EVP_DigestSign (|verify| 0) or EVP_DigestVerify of
 * |msg| with the digest |md| and the signature parameters of |s|. */
int fc_rsa_digest_op(const fc_rsa_env *e, int verify, EVP_PKEY *pkey,
                     const char *propq, const char *md, const op_spec *s,
                     const uint8_t *msg, size_t msglen, uint8_t *sig,
                     size_t *siglen);

/* ---------------------------------------------------------------------- */
/* Pairs: fastcrypto (|kf|) against default (|kd|)                        */

/*
 * fc_rsa_pair_same runs the deterministic operation |op| under |s| on
 * both: both succeed and give the same bytes, left in |out| (room for
 * FC_RSA_MAXB); or both fail, fastcrypto with its own error, and it
 * returns 0. Returns the output's length, 0 for a failure.
 */
size_t fc_rsa_pair_same(const fc_rsa_env *e, int op, EVP_PKEY *kf, EVP_PKEY *kd,
                        const op_spec *s, const uint8_t *in, size_t inlen,
                        uint8_t *out, const char *what);

/*
 * fc_rsa_pair_sign: a deterministic signature (PKCS#1 v1.5) of |in| under
 * |s|, as fc_rsa_pair_same; where made, each provider verifies the other's
 * (default with |kf|, fastcrypto with |kd|), and fastcrypto refuses it with
 * one bit flipped. Returns the signature's length (it is in |sig|), or 0
 * if both refused to sign.
 */
size_t fc_rsa_pair_sign(const fc_rsa_env *e, EVP_PKEY *kf, EVP_PKEY *kd,
                        const op_spec *s, const uint8_t *in, size_t inlen,
                        uint8_t *sig, const char *what);

/*
 * fc_rsa_cross_sign: a randomized signature (PSS) of |in| under |s| by
 * each provider, both or neither (then fastcrypto with its own error, and
 * it returns 0); each made one verifies on the other provider under |sv|
 * (default with |kf|, fastcrypto with |kd|). Returns 1 if signed.
 */
int fc_rsa_cross_sign(const fc_rsa_env *e, EVP_PKEY *kf, EVP_PKEY *kd,
                      const op_spec *s, const op_spec *sv, const uint8_t *in,
                      size_t inlen, const char *what);

/*
 * fc_rsa_cross_crypt: |m| encrypted under |s| by each provider decrypts
 * to |m| on the other; fastcrypto's ciphertext has |k| bytes (0: any).
 */
void fc_rsa_cross_crypt(const fc_rsa_env *e, EVP_PKEY *kf, EVP_PKEY *kd,
                        const op_spec *s, const uint8_t *m, size_t mlen,
                        size_t k, const char *what);

/*
 * fc_rsa_pair_refused: the operation |op| of |inlen| bytes under |s| is
 * refused by both, fastcrypto with its own error and the reason |reason|
 * (NULL: any).
 */
void fc_rsa_pair_refused(const fc_rsa_env *e, int op, EVP_PKEY *kf,
                         EVP_PKEY *kd, const op_spec *s, const uint8_t *in,
                         size_t inlen, const char *reason, const char *what);

#endif /* FC_TEST_RSA_SUITE_H */
