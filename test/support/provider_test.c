/* SPDX-License-Identifier: Apache-2.0 */
/*
 * provider_test.c - the harness of the provider suites (see
 * provider_test.h).
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

#include "fc/cpu.h"
#include "provider_test.h"

/* ---------------------------------------------------------------------- */
/* Failure reports                                                        */

const char *fc_test_group = "";
char fc_test_where[1024];

/* see provider_test.h */
void fc_test_fail(const char *file, int line, const char *cond, const char *fmt,
                  ...)
{
    va_list ap;
    char msg[2048];

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    print_error("[%s] %s: check failed: %s\n  at: %s\n  %s\n"
                "  (replay: FC_TEST_SEED=%llu)\n",
                fc_test_group, fc_test_name(), cond, fc_test_where, msg,
                (unsigned long long)fc_test_seed_value());
    ERR_print_errors_fp(stderr);
    fail_msg("%s:%d", file, line);
    abort(); /* not reached: cmocka's fail jumps out of the test */
}

/* see provider_test.h */
const char *fc_test_hexs(const void *p, size_t n)
{
    static char bufs[4][2 * 80 + 4];
    static unsigned which;
    char *b = bufs[which++ & 3];

    if (n == 0)
        return strcpy(b, "(empty)");
    return fc_test_hex(b, sizeof(bufs[0]), p, n);
}

/* see provider_test.h */
size_t fc_test_mem_diff(const void *a, const void *b, size_t n)
{
    const uint8_t *x = a, *y = b;
    size_t i = 0;

    while (i < n && x[i] == y[i])
        i++;
    return i;
}

/* see provider_test.h */
void fc_test_expect_error(const char *what, int allow_evp)
{
    unsigned long e;
    int fc = 0, evp = 0, fc_reason_ok = 1;
    char last[256] = "(none)";

    CHECK(ERR_peek_last_error() != 0, "%s: failed but raised no error", what);
    while ((e = ERR_get_error()) != 0) {
        const char *lib = ERR_lib_error_string(e);

        if (lib != NULL && strcmp(lib, FC_NAME) == 0) {
            fc = 1;
            if (ERR_reason_error_string(e) == NULL)
                fc_reason_ok = 0;
        }
        if (ERR_GET_LIB(e) == ERR_LIB_EVP)
            evp = 1;
        ERR_error_string_n(e, last, sizeof(last));
    }
    CHECK(fc || (allow_evp && evp), "%s: no error from %s on the queue (%s)",
          what, FC_NAME, last);
    CHECK(fc_reason_ok, "%s: a %s error has no reason string", what, FC_NAME);
}

/* see provider_test.h */
void fc_test_expect_reason(const char *what, const char *reason)
{
    char msg[400];

    CHECK(fc_check_reason(what, reason, msg, sizeof(msg)), "%s", msg);
}

/* ---------------------------------------------------------------------- */
/* Random pieces                                                          */

/* see provider_test.h */
size_t fc_test_pieces(size_t len, size_t *pieces, size_t max)
{
    size_t cuts[8], n, i, j, prev;

    if (len > 0 && len + 1 <= max && len <= 40 && fc_test_rand_below(4) == 0) {
        /* Byte by byte, with one empty update somewhere. */
        for (i = 0; i < len; i++)
            pieces[i] = 1;
        j = fc_test_rand_below(len + 1);
        memmove(pieces + j + 1, pieces + j, (len - j) * sizeof(*pieces));
        pieces[j] = 0;
        return len + 1;
    }
    n = 1 + fc_test_rand_below(8);
    for (i = 0; i + 1 < n; i++)
        cuts[i] = fc_test_rand_below(len + 1);
    for (i = 1; i + 1 < n; i++) /* insertion sort */
        for (j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
            size_t t = cuts[j];
            cuts[j] = cuts[j - 1];
            cuts[j - 1] = t;
        }
    for (i = 0, prev = 0; i + 1 < n; i++) {
        pieces[i] = cuts[i] - prev;
        prev = cuts[i];
    }
    pieces[n - 1] = len - prev;
    if (fc_test_rand_below(4) == 0) { /* an explicit empty update */
        j = fc_test_rand_below(n + 1);
        memmove(pieces + j + 1, pieces + j, (n - j) * sizeof(*pieces));
        pieces[j] = 0;
        n++;
    }
    return n;
}

/* see provider_test.h */
const char *fc_test_pieces_str(char *buf, size_t cap, const size_t *pieces,
                               size_t n)
{
    size_t o = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < n && o + 12 < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%zu", i ? "," : "",
                              pieces[i]);
    return buf;
}

/* ---------------------------------------------------------------------- */
/* Library contexts, one per CPU mask                                     */

static const fc_test_family *fc_test_fam;
#define FC_TEST_NENVS 4
static fc_test_env fc_test_envs[FC_TEST_NENVS] = {
    {.label = "native", .mask = NULL},
    {.label = "mask=avx512", .mask = "avx512"},
    {.label = "mask=vaes", .mask = "vaes"},
    {.label = "mask=all", .mask = "all"},
};

/* The kernel the core selects under |env|'s mask (the process's own for
 * NULL) into |buf|. */
static void fc_test_env_expect(const fc_test_env *env, char *buf, size_t len)
{
    const char *spec = env->mask != NULL ? env->mask : getenv(FC_CPU_MASK_ENV);
    uint32_t mask = 0;

    snprintf(buf, len, "%s",
             fc_cpu_parse_mask(spec != NULL ? spec : "", &mask)
                 ? fc_test_fam->impl_for_caps(
                       fc_cpu_apply_mask(fc_cpu_detect(), mask))
                 : "(bad mask)");
}

/* Loads the config with the group's mask in the environment (fastcrypto
 * reads it while the config activates it), then fetches the ciphers. */
static int fc_test_env_setup(fc_test_env *env)
{
    const fc_test_family *fam = fc_test_fam;

    env->fam = fam;
    fc_test_group = env->label;
    fc_test_env_expect(env, env->expect_impl, sizeof(env->expect_impl));
    env->lib =
        fc_test_lib_load_env(NULL, FC_TEST_NEED_FC | FC_TEST_NEED_DEFAULT,
                             FC_CPU_MASK_ENV, env->mask);
    if (env->lib == NULL) {
        print_error("[%s] the test config did not load\n", env->label);
        return -1;
    }
    for (size_t i = 0; i < fam->count; i++) {
        env->fc[i] =
            EVP_CIPHER_fetch(env->lib, fam->names[i], "provider=" FC_NAME);
        env->df[i] =
            EVP_CIPHER_fetch(env->lib, fam->names[i], "provider=default");
        env->ref[i] =
            fam->refs == NULL
                ? NULL
                : EVP_CIPHER_fetch(env->lib, fam->refs[i], "provider=default");
        if (env->df[i] == NULL && fam->default_optional) {
            print_message("[%s] default has no %s here: fastcrypto's is "
                          "checked on its own\n",
                          env->label, fam->names[i]);
            ERR_clear_error();
        }
        if (env->fc[i] == NULL ||
            (env->df[i] == NULL && !fam->default_optional) ||
            (fam->refs != NULL && env->ref[i] == NULL)) {
            print_error("[%s] cannot fetch %s (or its reference)\n", env->label,
                        fam->names[i]);
            ERR_print_errors_fp(stderr);
            return -1;
        }
    }
    if (!fc_test_prov_get_str(EVP_CIPHER_get0_provider(env->fc[0]),
                              fam->impl_param, env->impl, sizeof(env->impl)))
        snprintf(env->impl, sizeof(env->impl), "(unknown)");
    if (!fc_test_prov_get_str(EVP_CIPHER_get0_provider(env->fc[0]),
                              "fastcrypto-cpu-caps", env->caps,
                              sizeof(env->caps)))
        env->caps[0] = '\0';
    print_message("[%s] fastcrypto kernel (%s): %s, expected %s (cpu caps: "
                  "%s)\n",
                  env->label, fam->impl_param, env->impl, env->expect_impl,
                  env->caps);
    if (strcmp(env->impl, env->expect_impl) != 0) {
        print_error("[%s] the provider runs %s, the core selects %s\n",
                    env->label, env->impl, env->expect_impl);
        return -1;
    }
    ERR_clear_error();
    return 0;
}

static int fc_test_env_teardown(void **state)
{
    fc_test_env *env = *state;

    for (size_t i = 0; i < FC_TEST_KS_MAX; i++) {
        EVP_CIPHER_free(env->fc[i]);
        EVP_CIPHER_free(env->df[i]);
        EVP_CIPHER_free(env->ref[i]);
        env->fc[i] = env->df[i] = env->ref[i] = NULL;
    }
    OSSL_LIB_CTX_free(env->lib);
    env->lib = NULL;
    return 0;
}

static int fc_test_cipher_setup(const fc_test_mask_group *g, void **state)
{
    *state = g->env;
    return fc_test_env_setup(g->env);
}

/* The group fc_test_run_mask_groups is running, for the setup. */
static const fc_test_mask_group *fc_test_cur_group;
static int (*fc_test_cur_setup)(const fc_test_mask_group *, void **);

static int fc_test_group_setup(void **state)
{
    return fc_test_cur_setup(fc_test_cur_group, state);
}

/* see provider_test.h */
int fc_test_run_mask_groups(const char *suite, const fc_test_mask_group *groups,
                            size_t n, const struct CMUnitTest *tests,
                            size_t count,
                            int (*setup)(const fc_test_mask_group *g,
                                         void **state),
                            CMFixtureFunction teardown)
{
    const char *filter = getenv("FC_TEST_FILTER"); /* runner.h */
    int fails = 0;

    if (filter != NULL)
        cmocka_set_test_filter(filter);
    /* The seed is printed when it is chosen. */
    (void)fc_test_seed_value();
    if (fc_test_quick())
        print_message("%s: FC_TEST_QUICK, smaller loops\n", suite);
    fc_test_cur_setup = setup;
    for (size_t g = 0; g < n; g++) {
        char name[128];

        snprintf(name, sizeof(name), "%s (%s)", suite, groups[g].what);
        fc_test_cur_group = &groups[g];
        fails += _cmocka_run_group_tests(name, tests, count,
                                         fc_test_group_setup, teardown);
    }
    return fails;
}

/* see provider_test.h */
int fc_test_run_groups(const fc_test_family *fam,
                       const struct CMUnitTest *tests, size_t count)
{
    static const char *const what[FC_TEST_NENVS] = {
        "native kernel", "FASTCRYPTO_CPU_MASK=avx512",
        "FASTCRYPTO_CPU_MASK=vaes", "FASTCRYPTO_CPU_MASK=all"};
    fc_test_mask_group groups[FC_TEST_NENVS];
    char native[64], wide[64];
    size_t n = 0;

    fc_test_fam = fam;
    fc_test_env_expect(&fc_test_envs[0], native, sizeof(native));
    fc_test_env_expect(&fc_test_envs[1], wide, sizeof(wide));
    for (int g = 0; g < FC_TEST_NENVS; g++) {
        /* The avx512 group covers the ymm tier where the native group
         * runs a zmm one; elsewhere it would repeat the native group. */
        if (g == 1 && strcmp(native, wide) == 0) {
            print_message("[  SKIPPED ] %s (%s): the native group's kernel "
                          "(%s)\n",
                          fam->suite, what[g], native);
            continue;
        }
        groups[n++] = (fc_test_mask_group){what[g], fc_test_envs[g].mask,
                                           &fc_test_envs[g]};
    }
    return fc_test_run_mask_groups(fam->suite, groups, n, tests, count,
                                   fc_test_cipher_setup, fc_test_env_teardown);
}

/* ---------------------------------------------------------------------- */
/* Small EVP helpers                                                      */

/* see provider_test.h */
int fc_test_get_size(EVP_CIPHER_CTX *c, const char *key, size_t *v)
{
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_size_t(key, v),
                       OSSL_PARAM_construct_end()};

    return EVP_CIPHER_CTX_get_params(c, p) && OSSL_PARAM_modified(p);
}

/* see provider_test.h */
int fc_test_set_size(EVP_CIPHER_CTX *c, const char *key, size_t v)
{
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_size_t(key, &v),
                       OSSL_PARAM_construct_end()};

    return EVP_CIPHER_CTX_set_params(c, p);
}

/* see provider_test.h */
int fc_test_get_uint(EVP_CIPHER_CTX *c, const char *key, unsigned int *v)
{
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_uint(key, v),
                       OSSL_PARAM_construct_end()};

    return EVP_CIPHER_CTX_get_params(c, p) && OSSL_PARAM_modified(p);
}

/* see provider_test.h */
int fc_test_get_octets(EVP_CIPHER_CTX *c, const char *key, uint8_t *buf,
                       size_t cap, size_t *n)
{
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_octet_string(key, buf, cap),
                       OSSL_PARAM_construct_end()};
    int r = EVP_CIPHER_CTX_get_params(c, p);

    *n = p[0].return_size;
    return r;
}

/* see provider_test.h */
int fc_test_set_octets(EVP_CIPHER_CTX *c, const char *key, const uint8_t *buf,
                       size_t len)
{
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_octet_string(key, (void *)buf, len),
                       OSSL_PARAM_construct_end()};

    return EVP_CIPHER_CTX_set_params(c, p);
}

/* ---------------------------------------------------------------------- */
/* The pair harness                                                       */

/* see provider_test.h */
void fc_pair_new(fc_pair *p)
{
    p->c[0] = EVP_CIPHER_CTX_new();
    p->c[1] = EVP_CIPHER_CTX_new();
    CHECK(p->c[0] != NULL && p->c[1] != NULL, "out of memory");
}

/* see provider_test.h */
void fc_pair_free(fc_pair *p)
{
    EVP_CIPHER_CTX_free(p->c[0]);
    EVP_CIPHER_CTX_free(p->c[1]);
    p->c[0] = p->c[1] = NULL;
}

/* fastcrypto's failures must come with its error; default's queue is
 * cleared either way. */
static void fc_pair_settle(int i, int r, const char *what)
{
    if (i == 0 && !r)
        fc_test_expect_error(what, 1);
    ERR_clear_error();
}

/* see provider_test.h */
int fc_pair_init(fc_pair *p, const fc_test_env *env, int ks, const uint8_t *key,
                 const uint8_t *iv, int enc, const OSSL_PARAM *params,
                 const char *what)
{
    int r[2];

    for (int i = 0; i < 2; i++) {
        const EVP_CIPHER *c = ks < 0 ? NULL : i ? env->df[ks] : env->fc[ks];

        r[i] = EVP_CipherInit_ex2(p->c[i], c, key, iv, enc, params);
        fc_pair_settle(i, r[i], what);
    }
    CHECK(r[0] == r[1], "%s: init returned %d, default %d", what, r[0], r[1]);
    return r[0];
}

/* One update on both contexts, each with its own input and output. */
static int fc_pair_update2(fc_pair *p, uint8_t *out0, uint8_t *out1,
                           const uint8_t *in0, const uint8_t *in1, size_t len,
                           int *outl, const char *what)
{
    uint8_t *out[2] = {out0, out1};
    const uint8_t *in[2] = {in0, in1};
    int l[2] = {-7, -7}, r[2];

    for (int i = 0; i < 2; i++) {
        r[i] = EVP_CipherUpdate(p->c[i], out[i], &l[i], in[i], (int)len);
        fc_pair_settle(i, r[i], what);
    }
    CHECK(r[0] == r[1], "%s: update of %zu bytes returned %d, default %d", what,
          len, r[0], r[1]);
    if (r[0]) {
        CHECK(l[0] == l[1], "%s: outl %d, default %d", what, l[0], l[1]);
        if (out0 != NULL && l[0] > 0)
            CHECK_MEM(out0, out1, (size_t)l[0], what);
    }
    *outl = r[0] ? l[0] : -1;
    return r[0];
}

/* see provider_test.h */
int fc_pair_update_at(fc_pair *p, uint8_t *out0, uint8_t *out1,
                      const uint8_t *in, size_t len, int *outl,
                      const char *what)
{
    return fc_pair_update2(p, out0, out1, in, in, len, outl, what);
}

/* see provider_test.h */
int fc_pair_update_in_place(fc_pair *p, uint8_t *buf0, uint8_t *buf1,
                            size_t len, int *outl, const char *what)
{
    return fc_pair_update2(p, buf0, buf1, buf0, buf1, len, outl, what);
}

/* see provider_test.h */
int fc_pair_update(fc_pair *p, int aad, const uint8_t *in, size_t len,
                   const char *what)
{
    fc_guard g[2];
    int r, l;

    fc_guard_new(&g[0], len + 16, 0, 16);
    fc_guard_new(&g[1], len + 16, 0, 16);
    r = fc_pair_update_at(p, aad ? NULL : g[0].p, aad ? NULL : g[1].p, in, len,
                          &l, what);
    CHECK_MEM(g[0].base, g[1].base, fc_guard_whole(&g[0]), what);
    CHECK(fc_guard_intact(&g[0]), "%s: written past the output", what);
    fc_guard_free(&g[0]);
    fc_guard_free(&g[1]);
    return r;
}

/* see provider_test.h */
int fc_pair_final_at(fc_pair *p, uint8_t *out0, uint8_t *out1, int *outl,
                     const char *what)
{
    uint8_t *out[2] = {out0, out1};
    int l[2] = {-7, -7}, r[2];

    for (int i = 0; i < 2; i++) {
        r[i] = EVP_CipherFinal_ex(p->c[i], out[i], &l[i]);
        fc_pair_settle(i, r[i], what);
    }
    CHECK(r[0] == r[1], "%s: final returned %d, default %d", what, r[0], r[1]);
    if (r[0]) {
        CHECK(l[0] == l[1], "%s: final outl %d, default %d", what, l[0], l[1]);
        if (l[0] > 0)
            CHECK_MEM(out0, out1, (size_t)l[0], what);
    }
    *outl = r[0] ? l[0] : -1;
    return r[0];
}

/* see provider_test.h */
int fc_pair_final(fc_pair *p, int want_outl, const char *what)
{
    fc_guard g[2];
    int r, l;

    fc_guard_new(&g[0], 16, 0, 16);
    fc_guard_new(&g[1], 16, 0, 16);
    r = fc_pair_final_at(p, g[0].p, g[1].p, &l, what);
    if (r && want_outl >= 0)
        CHECK(l == want_outl, "%s: final outl %d, want %d", what, l, want_outl);
    CHECK_MEM(g[0].base, g[1].base, fc_guard_whole(&g[0]), what);
    fc_guard_free(&g[0]);
    fc_guard_free(&g[1]);
    return r;
}

/* see provider_test.h */
size_t fc_pair_run(fc_pair *p, const uint8_t *in, size_t n, int do_final,
                   uint8_t *of, uint8_t *od)
{
    size_t pieces[64], np = fc_test_pieces(n, pieces, 64), tin = 0, tout = 0;
    char what[64];
    int l;

    for (size_t i = 0; i < np; i++) {
        snprintf(what, sizeof(what), "update %zu (%zu bytes)", i, pieces[i]);
        CHECK(fc_pair_update_at(p, of + tout, od + tout, in + tin, pieces[i],
                                &l, what),
              "%s failed", what);
        tin += pieces[i];
        tout += (size_t)l;
    }
    if (do_final && fc_pair_final_at(p, of + tout, od + tout, &l, "final"))
        tout += (size_t)l;
    CHECK_MEM(of, od, tout, "output");
    return tout;
}

/* see provider_test.h */
int fc_pair_get_octets(fc_pair *p, const char *key, size_t len,
                       const char *what)
{
    uint8_t v[2][64];
    size_t n[2];
    int r[2];

    CHECK(len <= sizeof(v[0]), "%s: %zu bytes", what, len);
    memset(v, 0, sizeof(v));
    for (int i = 0; i < 2; i++) {
        r[i] = fc_test_get_octets(p->c[i], key, v[i], len, &n[i]);
        fc_pair_settle(i, r[i], what);
    }
    CHECK(r[0] == r[1], "%s: get \"%s\" returned %d, default %d", what, key,
          r[0], r[1]);
    if (r[0]) {
        CHECK(n[0] == n[1], "%s: \"%s\" size %zu, default %zu", what, key, n[0],
              n[1]);
        CHECK_MEM(v[0], v[1], len, what);
    }
    return r[0];
}

/* see provider_test.h */
int fc_pair_set_octets(fc_pair *p, const char *key, const uint8_t *buf,
                       size_t len, const char *what)
{
    int r[2];

    for (int i = 0; i < 2; i++) {
        r[i] = fc_test_set_octets(p->c[i], key, buf, len);
        fc_pair_settle(i, r[i], what);
    }
    CHECK(r[0] == r[1], "%s: set \"%s\" returned %d, default %d", what, key,
          r[0], r[1]);
    return r[0];
}

/* see provider_test.h */
void fc_test_check_decoding(const fc_test_env *env, int ks, const char *key,
                            size_t first, size_t second)
{
    static const char *const keys[] = {"ivle",
                                       OSSL_CIPHER_PARAM_IVLEN,
                                       "ivlenx",
                                       OSSL_CIPHER_PARAM_KEYLEN,
                                       "",
                                       OSSL_CIPHER_PARAM_IVLEN,
                                       "keylen-but-longer",
                                       "0123456789abcde",
                                       "0123456789abcdef",
                                       OSSL_CIPHER_PARAM_KEYLEN};
    enum { N = sizeof(keys) / sizeof(keys[0]), IV1 = 1, KL1 = 3 };
    size_t v[2][N], got[2];
    OSSL_PARAM q[2][N + 1];
    int r[2];
    fc_pair p;

    fc_pair_new(&p);
    WHERE("%s: decoding of duplicate and unknown keys", env->fam->names[ks]);
    CHECK(fc_pair_init(&p, env, ks, NULL, NULL, 1, NULL, "cipher init"),
          "init");
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < N; i++) {
            v[s][i] = 1000 + i;
            q[s][i] = OSSL_PARAM_construct_size_t(keys[i], &v[s][i]);
        }
        q[s][N] = OSSL_PARAM_construct_end();
        r[s] = EVP_CIPHER_CTX_get_params(p.c[s], q[s]);
        ERR_clear_error();
    }
    /* fastcrypto: the first "ivlen" and "keylen" filled, nothing else. */
    CHECK(r[0], "get with repeated keys refused");
    for (size_t i = 0; i < N; i++) {
        const int filled = i == IV1 || i == KL1;
        const size_t want = i == IV1
                                ? (size_t)EVP_CIPHER_CTX_get_iv_length(p.c[0])
                            : i == KL1 ? (size_t)env->fam->keylen[ks]
                                       : 1000 + i;

        CHECK(OSSL_PARAM_modified(&q[0][i]) == filled && v[0][i] == want,
              "\"%s\" (entry %zu): %s, %zu; want %s, %zu", keys[i], i,
              OSSL_PARAM_modified(&q[0][i]) ? "filled" : "left", v[0][i],
              filled ? "filled" : "left", want);
    }
    /* Default: the same in 3.0-3.4 (OSSL_PARAM_locate); 3.5+ refuses
     * repeated keys, and is then not compared. */
    if (r[1])
        for (size_t i = 0; i < N; i++)
            CHECK(OSSL_PARAM_modified(&q[0][i]) ==
                          OSSL_PARAM_modified(&q[1][i]) &&
                      v[0][i] == v[1][i],
                  "\"%s\" (entry %zu): %zu, default %zu", keys[i], i, v[0][i],
                  v[1][i]);
    for (int s = 0; s < 2; s++) {
        OSSL_PARAM d[3] = {OSSL_PARAM_construct_size_t(key, &first),
                           OSSL_PARAM_construct_size_t(key, &second),
                           OSSL_PARAM_construct_end()};

        r[s] = EVP_CIPHER_CTX_set_params(p.c[s], d);
        ERR_clear_error();
        got[s] = 12345;
        CHECK(fc_test_get_size(p.c[s], key, &got[s]), "get \"%s\" (%s)", key,
              s ? "default" : FC_NAME);
    }
    CHECK(r[0] && got[0] == first, "\"%s\" set to %zu then %zu: %d, reads %zu",
          key, first, second, r[0], got[0]);
    if (r[1])
        CHECK(got[1] == first, "default: \"%s\" set to %zu then %zu reads %zu",
              key, first, second, got[1]);
    fc_pair_free(&p);
}
