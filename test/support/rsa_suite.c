/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_suite.c - the harness of the RSA provider suites (see rsa_suite.h).
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
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/provider.h>

#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/rsa_engine.h"
#include "fc/tuning.h"
#include "kat.h"
#include "rsa_suite.h"

const char *const fc_rsa_comp_field[NCOMP] = {"N", "E",  "D",  "P",
                                              "Q", "DP", "DQ", "QI"};
const char *const fc_rsa_comp_param[NCOMP] = {
    OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,
    OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
    OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};

/* ---------------------------------------------------------------------- */
/* Keys                                                                   */

/* see rsa_suite.h */
EVP_PKEY *fc_rsa_key_from_bns(const fc_rsa_env *e, BIGNUM *const *c,
                              int selection, const char *propq)
{
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    EVP_PKEY *pkey = NULL;

    if (bld == NULL)
        return NULL;
    for (int i = 0; i < NCOMP; i++)
        if (c[i] != NULL &&
            !OSSL_PARAM_BLD_push_BN(bld, fc_rsa_comp_param[i], c[i]))
            goto done;
    params = OSSL_PARAM_BLD_to_param(bld);
    ctx = EVP_PKEY_CTX_new_from_name(e->lib, "RSA", propq);
    if (params == NULL || ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &pkey, selection, params) <= 0)
        pkey = NULL;
done:
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    return pkey;
}

/* see rsa_suite.h */
const char *fc_rsa_key_provider(const EVP_PKEY *pkey)
{
    const OSSL_PROVIDER *p = EVP_PKEY_get0_provider(pkey);

    return p != NULL ? OSSL_PROVIDER_get0_name(p) : "(legacy)";
}

/* see rsa_suite.h */
const char *fc_rsa_op_provider(const EVP_PKEY_CTX *ctx)
{
    const OSSL_PROVIDER *p =
        ctx != NULL ? EVP_PKEY_CTX_get0_provider(ctx) : NULL;

    return p != NULL ? OSSL_PROVIDER_get0_name(p) : "(none)";
}

/* see rsa_suite.h */
const fc_rsa_key *fc_rsa_find_key(const fc_rsa_env *e, int bits)
{
    for (size_t i = 0; i < e->nkeys; i++)
        if (e->keys[i].bits == bits)
            return &e->keys[i];
    fail_msg("no %d-bit key loaded", bits);
    return NULL;
}

/* see rsa_suite.h */
const fc_rsa_key *fc_rsa_find_key_name(const fc_rsa_env *e, const char *name)
{
    for (size_t i = 0; i < e->nkeys; i++)
        if (strcmp(e->keys[i].name, name) == 0)
            return &e->keys[i];
    return NULL;
}

static void fc_rsa_load_keys(fc_rsa_env *e)
{
    fc_kat *k = fc_kat_open("rsa_keys.txt");
    static const char *const fields[] = {"Name", "N",  "E",  "D",  "P",
                                         "Q",    "DP", "DQ", "QI", NULL};

    while (fc_kat_next(k)) {
        fc_rsa_key *t;
        const char *name = fc_kat_str(k, "Name");

        fc_kat_check_fields(k, fields);
        if (e->nkeys == FC_RSA_NKEYS)
            fc_kat_fail(k, "too many keys");
        t = &e->keys[e->nkeys];
        snprintf(t->name, sizeof(t->name), "%s", name);
        for (int i = 0; i < NCOMP; i++) {
            size_t len;
            const uint8_t *b = fc_kat_bytes(k, fc_rsa_comp_field[i], &len);

            t->c[i] = BN_bin2bn(b, (int)len, NULL);
            if (t->c[i] == NULL)
                fc_kat_fail(k, "BN_bin2bn");
        }
        t->bits = BN_num_bits(t->c[C_N]);
        t->df = fc_rsa_key_from_bns(e, t->c, EVP_PKEY_KEYPAIR, DF_PROPQ);
        if (t->df == NULL)
            fc_kat_fail(k, "default refused the key");
        t->fc =
            fc_test_move_key(e->lib, t->df, "RSA", EVP_PKEY_KEYPAIR, FC_PROPQ);
        ERR_clear_error();
        e->nkeys++;
    }
    fc_kat_close(k);
}

/* ---------------------------------------------------------------------- */
/* Groups                                                                 */

static unsigned fc_rsa_load;
static fc_rsa_env fc_rsa_envs[] = {
    {.label = "native", .mask = NULL},
    {.label = "mask=ifma", .mask = "ifma"},
    {.label = "mask=all", .mask = "all"},
};

/* The RSA engine order the core makes under |mask| (the process's own for
 * NULL), with the tuning row the provider uses, into |buf|. */
static void fc_rsa_expect_engines(const char *mask, char *buf, size_t len)
{
    const char *spec = mask != NULL ? mask : getenv(FC_CPU_MASK_ENV);
    uint32_t m = 0;
    fc_rsa_engines list;

    if (!fc_cpu_parse_mask(spec != NULL ? spec : "", &m)) {
        snprintf(buf, len, "(bad mask)");
        return;
    }
    fc_rsa_engines_init(&list, fc_cpu_apply_mask(fc_cpu_detect(), m),
                        fc_test_tuning()->rsa_order);
    snprintf(buf, len, "%s", list.names);
}

static int fc_rsa_env_setup(const fc_test_mask_group *g, void **state)
{
    fc_rsa_env *e = g->env;
    char bn[128] = "?", want[128], info[512] = "";
    const char *rsa;
    size_t n;

    *state = e;
    fc_test_group = e->label;
    e->ver = OpenSSL_version_num();
    e->lib = fc_test_lib_load_env(NULL, FC_TEST_NEED_FC | FC_TEST_NEED_DEFAULT,
                                  FC_CPU_MASK_ENV, e->mask);
    if (e->lib == NULL)
        return fc_test_setup_ok(0, "[%s] the test config did not load",
                                e->label);
    fc_test_lib_get_str(e->lib, "fastcrypto-bn-impl", bn, sizeof(bn));
    fc_test_lib_get_str(e->lib, OSSL_PROV_PARAM_BUILDINFO, info, sizeof(info));
    fc_rsa_expect_engines(e->mask, want, sizeof(want));
    print_message("[%s] fastcrypto RSA engines: %s, expected %s (OpenSSL %s)\n",
                  e->label, bn, want, OpenSSL_version(OPENSSL_VERSION));
    /* The build info names the engines as "fastcrypto-bn-impl" does
     * ("rsa=ifma,mulx,..."); the order before any per-size preference
     * ("/2048:avx2") is the core's, generic last. */
    rsa = strstr(info, "rsa=");
    n = rsa != NULL ? strcspn(rsa + 4, " )") : 0;
    if (rsa == NULL || n != strlen(bn) || strncmp(rsa + 4, bn, n) != 0 ||
        strstr(bn, "generic") == NULL || strncmp(bn, want, strlen(want)) != 0 ||
        (bn[strlen(want)] != '\0' && bn[strlen(want)] != '/') ||
        (e->mask != NULL && strstr(e->mask, "ifma") != NULL &&
         strstr(bn, "ifma") != NULL))
        return fc_test_setup_ok(0,
                                "[%s] engine order \"%s\" against the core's "
                                "\"%s\" and the build info \"%s\"",
                                e->label, bn, want, info);
    if (fc_rsa_load & FC_RSA_KEYS) {
        fc_test_rand_start("load_keys");
        fc_rsa_load_keys(e);
    }
    ERR_clear_error();
    return 0;
}

static int fc_rsa_env_teardown(void **state)
{
    fc_rsa_env *e = *state;

    for (size_t i = 0; i < e->nkeys; i++) {
        EVP_PKEY_free(e->keys[i].df);
        EVP_PKEY_free(e->keys[i].fc);
        for (int j = 0; j < NCOMP; j++)
            BN_free(e->keys[i].c[j]);
    }
    memset(e->keys, 0, sizeof(e->keys));
    e->nkeys = 0;
    OSSL_LIB_CTX_free(e->lib);
    e->lib = NULL;
    return 0;
}

/* see rsa_suite.h */
int fc_rsa_suite_run(const char *suite, unsigned load)
{
    static struct CMUnitTest tests[64];
    const fc_test_mask_group groups[] = {
        {"native engines", fc_rsa_envs[0].mask, &fc_rsa_envs[0]},
        {"FASTCRYPTO_CPU_MASK=ifma", fc_rsa_envs[1].mask, &fc_rsa_envs[1]},
        {"FASTCRYPTO_CPU_MASK=all", fc_rsa_envs[2].mask, &fc_rsa_envs[2]},
    };
    size_t n = fc_test_group_tests("rsa", tests, FC_ARRAY_LEN(tests));

    fc_rsa_load = load;
    return fc_test_run_mask_groups(suite, groups, FC_ARRAY_LEN(groups), tests,
                                   n, fc_rsa_env_setup,
                                   fc_rsa_env_teardown) != 0;
}

/* ---------------------------------------------------------------------- */
/* Failure reports                                                        */

/* see rsa_suite.h */
void fc_rsa_expect_error(const char *what, const char *lib, const char *reason)
{
    unsigned long err;
    int found = 0;
    char last[256] = "(none)";

    while ((err = ERR_get_error()) != 0) {
        const char *l = ERR_lib_error_string(err);
        const char *r = ERR_reason_error_string(err);

        if ((lib == NULL || (l != NULL && strcmp(l, lib) == 0)) && r != NULL &&
            (reason == NULL || strcmp(r, reason) == 0))
            found = 1;
        ERR_error_string_n(err, last, sizeof(last));
    }
    CHECK(found, "%s: no error from %s with reason \"%s\" (last: %s)", what,
          lib != NULL ? lib : "any library", reason != NULL ? reason : "(any)",
          last);
}

/* ---------------------------------------------------------------------- */
/* Operations                                                             */

/* see rsa_suite.h */
int fc_rsa_op_params(OSSL_PARAM *p, const op_spec *s, int cipher,
                     fc_rsa_op_values *v)
{
    int n = 0;

    v->pad = s->pad;
    if (s->pad != 0)
        p[n++] = OSSL_PARAM_construct_int(OSSL_PKEY_PARAM_PAD_MODE, &v->pad);
    if (s->md != NULL && !s->digest)
        p[n++] = OSSL_PARAM_construct_utf8_string(
            cipher ? OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST
                   : OSSL_SIGNATURE_PARAM_DIGEST,
            (char *)s->md, 0);
    if (s->mdprops != NULL)
        p[n++] = OSSL_PARAM_construct_utf8_string(
            OSSL_SIGNATURE_PARAM_PROPERTIES, (char *)s->mdprops, 0);
    if (s->mgf1 != NULL)
        p[n++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_MGF1_DIGEST,
                                                  (char *)s->mgf1, 0);
    if (s->saltlen != NULL)
        p[n++] = OSSL_PARAM_construct_utf8_string(
            OSSL_SIGNATURE_PARAM_PSS_SALTLEN, (char *)s->saltlen, 0);
    if (s->label != NULL)
        p[n++] = OSSL_PARAM_construct_octet_string(
            OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, (void *)s->label, s->label_len);
    if (s->tls_ver != 0) {
        v->tv = s->tls_ver;
        p[n++] = OSSL_PARAM_construct_uint(
            OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION, &v->tv);
    }
    if (s->tls_alt != 0) {
        v->ta = s->tls_alt;
        p[n++] = OSSL_PARAM_construct_uint(
            OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION, &v->ta);
    }
    if (s->implicit != IR_UNSET) {
        v->ir = s->implicit == IR_ON;
        p[n++] = OSSL_PARAM_construct_uint("implicit-rejection", &v->ir);
    }
    p[n] = OSSL_PARAM_construct_end();
    return n;
}

/* see rsa_suite.h */
int fc_rsa_op_init(EVP_PKEY_CTX *ctx, int op)
{
    switch (op) {
    case OP_SIGN:
        return EVP_PKEY_sign_init(ctx);
    case OP_VERIFY:
        return EVP_PKEY_verify_init(ctx);
    case OP_RECOVER:
        return EVP_PKEY_verify_recover_init(ctx);
    case OP_ENCRYPT:
        return EVP_PKEY_encrypt_init(ctx);
    default:
        return EVP_PKEY_decrypt_init(ctx);
    }
}

/* EVP_DigestSign / EVP_DigestVerify with the digest s->md. */
static int fc_rsa_digest_run(const fc_rsa_env *e, int verify, EVP_PKEY *pkey,
                             const char *propq, const op_spec *s,
                             const uint8_t *msg, size_t msglen, uint8_t *sig,
                             size_t *siglen)
{
    EVP_MD_CTX *mctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    OSSL_PARAM p[10];
    fc_rsa_op_values v;
    const char *want = strchr(propq, '=') + 1;
    int ret;

    fc_rsa_op_params(p, s, 0, &v);
    CHECK(mctx != NULL, "EVP_MD_CTX_new");
    if (verify)
        ret =
            EVP_DigestVerifyInit_ex(mctx, &pctx, s->md, e->lib, propq, pkey, p);
    else
        ret = EVP_DigestSignInit_ex(mctx, &pctx, s->md, e->lib, propq, pkey, p);
    if (ret == 1) {
        CHECK(strcmp(fc_rsa_op_provider(pctx), want) == 0,
              "digest %s ran in %s, not %s", verify ? "verify" : "sign",
              fc_rsa_op_provider(pctx), want);
        if (verify)
            ret = EVP_DigestVerify(mctx, sig, *siglen, msg, msglen);
        else
            ret = EVP_DigestSign(mctx, sig, siglen, msg, msglen);
    }
    EVP_MD_CTX_free(mctx);
    return ret;
}

/* see rsa_suite.h */
int fc_rsa_op(const fc_rsa_env *e, int op, EVP_PKEY *pkey, const char *propq,
              const op_spec *s, const uint8_t *in, size_t inlen, uint8_t *out,
              size_t *outlen)
{
    EVP_PKEY_CTX *ctx;
    OSSL_PARAM p[10];
    fc_rsa_op_values v;
    const char *want = strchr(propq, '=') + 1;
    int ret;

    if (s->digest && (op == OP_SIGN || op == OP_VERIFY))
        return fc_rsa_digest_run(e, op == OP_VERIFY, pkey, propq, s, in, inlen,
                                 out, outlen);
    ctx = EVP_PKEY_CTX_new_from_pkey(e->lib, pkey, propq);
    CHECK(ctx != NULL, "EVP_PKEY_CTX_new_from_pkey(%s)", propq);
    ret = fc_rsa_op_init(ctx, op);
    CHECK(ret == 1, "init (op %d) with %s", op, propq);
    CHECK(strcmp(fc_rsa_op_provider(ctx), want) == 0,
          "operation ran in %s, not %s", fc_rsa_op_provider(ctx), want);
    if (fc_rsa_op_params(p, s, op >= OP_ENCRYPT, &v) > 0 &&
        EVP_PKEY_CTX_set_params(ctx, p) <= 0) {
        EVP_PKEY_CTX_free(ctx);
        return 0;
    }
    switch (op) {
    case OP_SIGN:
        ret = EVP_PKEY_sign(ctx, out, outlen, in, inlen);
        break;
    case OP_VERIFY:
        ret = EVP_PKEY_verify(ctx, out, *outlen, in, inlen);
        break;
    case OP_RECOVER: /* |in| is the signature */
        ret = EVP_PKEY_verify_recover(ctx, out, outlen, in, inlen);
        break;
    case OP_ENCRYPT:
        ret = EVP_PKEY_encrypt(ctx, out, outlen, in, inlen);
        break;
    default:
        ret = EVP_PKEY_decrypt(ctx, out, outlen, in, inlen);
    }
    EVP_PKEY_CTX_free(ctx);
    return ret;
}

/* see rsa_suite.h */
int fc_rsa_digest_op(const fc_rsa_env *e, int verify, EVP_PKEY *pkey,
                     const char *propq, const char *md, const op_spec *s,
                     const uint8_t *msg, size_t msglen, uint8_t *sig,
                     size_t *siglen)
{
    op_spec d = *s;

    d.md = md;
    d.digest = 1;
    return fc_rsa_digest_run(e, verify, pkey, propq, &d, msg, msglen, sig,
                             siglen);
}

/* ---------------------------------------------------------------------- */
/* Pairs                                                                  */

/* |op| on both, fastcrypto's output to |of| (*lf), default's to |od| (*ld):
 * 1 if both succeed, 0 if both fail (fastcrypto with its own error). */
static int fc_rsa_pair_run(const fc_rsa_env *e, int op, EVP_PKEY *kf,
                           EVP_PKEY *kd, const op_spec *s, const uint8_t *in,
                           size_t inlen, uint8_t *of, size_t *lf, uint8_t *od,
                           size_t *ld, const char *what)
{
    int rf = fc_rsa_op(e, op, kf, FC_PROPQ, s, in, inlen, of, lf);
    int rd = fc_rsa_op(e, op, kd, DF_PROPQ, s, in, inlen, od, ld);

    CHECK((rf == 1) == (rd == 1), "%s: fastcrypto %d, default %d", what, rf,
          rd);
    if (rf != 1)
        fc_rsa_expect_error(what, FC_NAME, NULL);
    return rf == 1;
}

/* see rsa_suite.h */
size_t fc_rsa_pair_same(const fc_rsa_env *e, int op, EVP_PKEY *kf, EVP_PKEY *kd,
                        const op_spec *s, const uint8_t *in, size_t inlen,
                        uint8_t *out, const char *what)
{
    uint8_t od[FC_RSA_MAXB];
    size_t lf = FC_RSA_MAXB, ld = sizeof(od);

    if (!fc_rsa_pair_run(e, op, kf, kd, s, in, inlen, out, &lf, od, &ld, what))
        return 0;
    CHECK_BYTES(out, lf, od, ld, what);
    return lf;
}

/* see rsa_suite.h */
size_t fc_rsa_pair_sign(const fc_rsa_env *e, EVP_PKEY *kf, EVP_PKEY *kd,
                        const op_spec *s, const uint8_t *in, size_t inlen,
                        uint8_t *sig, const char *what)
{
    uint8_t bad[FC_RSA_MAXB];
    size_t l = fc_rsa_pair_same(e, OP_SIGN, kf, kd, s, in, inlen, sig, what);
    size_t lv = l;

    if (l == 0)
        return 0;
    CHECK(fc_rsa_op(e, OP_VERIFY, kf, DF_PROPQ, s, in, inlen, sig, &lv) == 1,
          "%s: default verifies ours", what);
    CHECK(fc_rsa_op(e, OP_VERIFY, kd, FC_PROPQ, s, in, inlen, sig, &lv) == 1,
          "%s: we verify default's", what);
    memcpy(bad, sig, l);
    bad[l / 2] ^= 1;
    CHECK(fc_rsa_op(e, OP_VERIFY, kd, FC_PROPQ, s, in, inlen, bad, &lv) != 1,
          "%s: a bad signature verified", what);
    ERR_clear_error();
    return l;
}

/* see rsa_suite.h */
int fc_rsa_cross_sign(const fc_rsa_env *e, EVP_PKEY *kf, EVP_PKEY *kd,
                      const op_spec *s, const op_spec *sv, const uint8_t *in,
                      size_t inlen, const char *what)
{
    uint8_t sf[FC_RSA_MAXB], sd[FC_RSA_MAXB];
    size_t lf = sizeof(sf), ld = sizeof(sd);

    if (!fc_rsa_pair_run(e, OP_SIGN, kf, kd, s, in, inlen, sf, &lf, sd, &ld,
                         what))
        return 0;
    CHECK(lf == ld, "%s: lengths %zu, %zu", what, lf, ld);
    CHECK(fc_rsa_op(e, OP_VERIFY, kf, DF_PROPQ, sv, in, inlen, sf, &lf) == 1,
          "%s: default verifies ours", what);
    CHECK(fc_rsa_op(e, OP_VERIFY, kd, FC_PROPQ, sv, in, inlen, sd, &ld) == 1,
          "%s: we verify default's", what);
    return 1;
}

/* see rsa_suite.h */
void fc_rsa_cross_crypt(const fc_rsa_env *e, EVP_PKEY *kf, EVP_PKEY *kd,
                        const op_spec *s, const uint8_t *m, size_t mlen,
                        size_t k, const char *what)
{
    for (int dir = 0; dir < 2; dir++) {
        uint8_t ct[FC_RSA_MAXB], pt[FC_RSA_MAXB];
        size_t cl = sizeof(ct), pl = sizeof(pt);
        const char *pe = dir ? DF_PROPQ : FC_PROPQ;
        const char *pd = dir ? FC_PROPQ : DF_PROPQ;

        CHECK(fc_rsa_op(e, OP_ENCRYPT, dir ? kd : kf, pe, s, m, mlen, ct,
                        &cl) == 1,
              "%s: encrypt (%s)", what, pe);
        CHECK(k == 0 || cl == k, "%s: ciphertext %zu bytes", what, cl);
        CHECK(fc_rsa_op(e, OP_DECRYPT, dir ? kf : kd, pd, s, ct, cl, pt, &pl) ==
                  1,
              "%s: decrypt (%s)", what, pd);
        CHECK_BYTES(pt, pl, m, mlen, what);
    }
}

/* see rsa_suite.h */
void fc_rsa_pair_refused(const fc_rsa_env *e, int op, EVP_PKEY *kf,
                         EVP_PKEY *kd, const op_spec *s, const uint8_t *in,
                         size_t inlen, const char *reason, const char *what)
{
    uint8_t out[FC_RSA_MAXB];
    size_t l = sizeof(out);

    CHECK(fc_rsa_op(e, op, kf, FC_PROPQ, s, in, inlen, out, &l) <= 0,
          "%s: fastcrypto accepted", what);
    fc_rsa_expect_error(what, FC_NAME, reason);
    l = sizeof(out);
    CHECK(fc_rsa_op(e, op, kd, DF_PROPQ, s, in, inlen, out, &l) <= 0,
          "%s: default accepted", what);
    ERR_clear_error();
}
