/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cipher_suite.c - the tests every cipher family runs and the stream
 * harness of the non-AEAD modes (see cipher_suite.h).
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
#include <openssl/provider.h>

#include "cipher_suite.h"
#include "kat.h"
#include "evp_checks.h"
#include "fc/aes.h"
#include "fc/gcm.h"
#include "impls.h"

/* ---------------------------------------------------------------------- */
/* The families                                                           */

static const int fc_aes_keylen[3] = {16, 24, 32};

/* The table the core selects under |caps| (fc_*_select): the one the
 * provider must report under the same mask. */
static const char *fc_aes_impl_for_caps(uint32_t caps)
{
    return fc_aes_select(caps)->name;
}

static const char *fc_gcm_impl_for_caps(uint32_t caps)
{
    return fc_gcm_select(caps, fc_test_tuning())->name;
}

/* AES-CBC: the AES table's kernels. */
static const char *const fc_cbc_names[3] = {"AES-128-CBC", "AES-192-CBC",
                                            "AES-256-CBC"};
static const char *const fc_cbc_aliases[3][2] = {
    {"AES128", "2.16.840.1.101.3.4.1.2"},
    {"AES192", "2.16.840.1.101.3.4.1.22"},
    {"AES256", "2.16.840.1.101.3.4.1.42"}};
static const char *const fc_generic_gettable[] = {
    "keylen", "ivlen", "padding", "num", "iv", "updated-iv", "tls-mac", NULL};
static const char *const fc_generic_settable[] = {
    "padding", "num", "use-bits", "tls-version", "tls-mac-size", NULL};
static const fc_test_cipher_spec fc_cbc_spec = {
    .mode = EVP_CIPH_CBC_MODE,
    .ivlen = 16,
    .blocksize = 16,
    .aliases = fc_cbc_aliases,
    .gettable = fc_generic_gettable,
    .settable = fc_generic_settable,
    .decode_key = "padding",
    .decode_first = 0,
    .decode_second = 1,
    /* Six SP 800-38A blocks and three FIPS-197 ones. */
    .kat_file = "aes_cbc.txt",
    .kat_mode = "CBC",
    .kat_iv_rule = FC_KAT_IV_CHAIN,
    .kat_blocks = 9,
};
const fc_test_family fc_test_family_cbc = {
    .suite = "provider_cbc",
    .count = 3,
    .names = fc_cbc_names,
    .keylen = fc_aes_keylen,
    .spec = &fc_cbc_spec,
    .impl_param = "fastcrypto-aes-impl",
    .impl_for_caps = fc_aes_impl_for_caps,
};

/* AES-GCM: the GCM table's kernels; default's AES-ECB for the suite's
 * reference GCM. */
static const char *const fc_gcm_names[3] = {"AES-128-GCM", "AES-192-GCM",
                                            "AES-256-GCM"};
static const char *const fc_gcm_aliases[3][2] = {
    {"id-aes128-GCM", "2.16.840.1.101.3.4.1.6"},
    {"id-aes192-GCM", "2.16.840.1.101.3.4.1.26"},
    {"id-aes256-GCM", "2.16.840.1.101.3.4.1.46"}};
static const char *const fc_gcm_refs[3] = {"AES-128-ECB", "AES-192-ECB",
                                           "AES-256-ECB"};
static const char *const fc_gcm_gettable[] = {
    "ivlen",     "keylen",     "taglen",   "iv", "tag",
    "tlsaadpad", "updated-iv", "tlsivgen", NULL};
static const char *const fc_gcm_settable[] = {
    "ivlen", "tag", "tlsaad", "tlsivfixed", "tlsivinv", NULL};
static const fc_test_cipher_spec fc_gcm_spec = {
    .mode = EVP_CIPH_GCM_MODE,
    .ivlen = 12,
    .blocksize = 1,
    .aliases = fc_gcm_aliases,
    .gettable = fc_gcm_gettable,
    .settable = fc_gcm_settable,
    .decode_key = "ivlen",
    .decode_first = 16,
    .decode_second = 12,
};
const fc_test_family fc_test_family_gcm = {
    .suite = "provider_gcm",
    .count = 3,
    .names = fc_gcm_names,
    .keylen = fc_aes_keylen,
    .refs = fc_gcm_refs,
    .spec = &fc_gcm_spec,
    .impl_param = "fastcrypto-gcm-impl",
    .impl_for_caps = fc_gcm_impl_for_caps,
};

/* AES-CTR: the AES table's kernels; a stream, with no OIDs (as in the
 * default provider). */
static const char *const fc_ctr_names[3] = {"AES-128-CTR", "AES-192-CTR",
                                            "AES-256-CTR"};
static const fc_test_cipher_spec fc_ctr_spec = {
    .mode = EVP_CIPH_CTR_MODE,
    .ivlen = 16,
    .blocksize = 1,
    .gettable = fc_generic_gettable,
    .settable = fc_generic_settable,
    .decode_key = "padding",
    .decode_first = 0,
    .decode_second = 1,
    /* Three SP 800-38A blocks and three across the counter's wraps. */
    .kat_file = "aes_ctr.txt",
    .kat_mode = "CTR",
    .kat_iv_rule = FC_KAT_IV_COUNTER,
    .kat_blocks = 6,
};
const fc_test_family fc_test_family_ctr = {
    .suite = "provider_ctr",
    .count = 3,
    .names = fc_ctr_names,
    .keylen = fc_aes_keylen,
    .spec = &fc_ctr_spec,
    .impl_param = "fastcrypto-aes-impl",
    .impl_for_caps = fc_aes_impl_for_caps,
};

/* ---------------------------------------------------------------------- */
/* The tests every family runs                                            */

static const char *fc_prov_of(const EVP_CIPHER *c)
{
    const OSSL_PROVIDER *p = EVP_CIPHER_get0_provider(c);

    return p != NULL ? OSSL_PROVIDER_get0_name(p) : "(none)";
}

/* Every name of |list| (NULL-terminated) is in |params|. */
static void fc_check_listed(const OSSL_PARAM *params, const char *const *list,
                            const char *what)
{
    for (; list != NULL && *list != NULL; list++)
        CHECK(params != NULL && OSSL_PARAM_locate_const(params, *list),
              "\"%s\" missing from %s", *list, what);
}

/* see cipher_suite.h */
void fc_test_common_identity(void **state)
{
    const fc_test_env *env = *state;
    const fc_test_family *fam = env->fam;
    const fc_test_cipher_spec *spec = fam->spec;

    fc_test_rand_start(__func__);
    for (size_t ks = 0; ks < fam->count; ks++) {
        const EVP_CIPHER *f = env->fc[ks], *d = env->df[ks];

        WHERE("%s", fam->names[ks]);
        CHECK(strcmp(fc_prov_of(f), FC_NAME) == 0,
              "fetched with provider=fastcrypto but came from %s",
              fc_prov_of(f));
        CHECK(strcmp(fc_prov_of(d), "default") == 0, "default's from %s",
              fc_prov_of(d));
        for (int i = 0; spec->aliases != NULL && i < 2; i++) {
            const char *name = spec->aliases[ks][i];
            EVP_CIPHER *a =
                EVP_CIPHER_fetch(env->lib, name, "provider=" FC_NAME);

            CHECK(a != NULL, "alias %s not registered", name);
            CHECK(strcmp(fc_prov_of(a), FC_NAME) == 0,
                  "alias %s resolves to %s", name, fc_prov_of(a));
            EVP_CIPHER_free(a);
        }
        CHECK(EVP_CIPHER_get_key_length(f) == fam->keylen[ks], "key length %d",
              EVP_CIPHER_get_key_length(f));
        CHECK(EVP_CIPHER_get_iv_length(f) == spec->ivlen &&
                  EVP_CIPHER_get_iv_length(d) == spec->ivlen,
              "iv length %d, default %d", EVP_CIPHER_get_iv_length(f),
              EVP_CIPHER_get_iv_length(d));
        CHECK(EVP_CIPHER_get_block_size(f) == spec->blocksize, "block size %d",
              EVP_CIPHER_get_block_size(f));
        CHECK(EVP_CIPHER_get_mode(f) == (int)spec->mode, "mode %d",
              EVP_CIPHER_get_mode(f));
        /* aead, custom-iv, cts, tls-multi, has-randkey and the presence of
         * a one-shot cipher, as EVP caches them: libssl branches on them. */
        CHECK(EVP_CIPHER_get_flags(f) == EVP_CIPHER_get_flags(d),
              "flags 0x%lx, default 0x%lx",
              (unsigned long)EVP_CIPHER_get_flags(f),
              (unsigned long)EVP_CIPHER_get_flags(d));
        fc_check_listed(EVP_CIPHER_gettable_ctx_params(f), spec->gettable,
                        "gettable_ctx_params");
        fc_check_listed(EVP_CIPHER_settable_ctx_params(f), spec->settable,
                        "settable_ctx_params");
        ERR_clear_error();
    }
}

/* see cipher_suite.h */
void fc_test_common_keylen(void **state)
{
    const fc_test_env *env = *state;
    const fc_test_family *fam = env->fam;
    uint8_t key[32], iv[64], in[100], of[132], od[132];
    char msg[400];

    fc_test_rand_start(__func__);
    for (size_t ks = 0; ks < fam->count; ks++) {
        const EVP_CIPHER *ci[2] = {env->fc[ks], env->df[ks]};
        fc_pair p;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(in, sizeof(in));
        fc_pair_new(&p);
        WHERE("%s: key length policy", fam->names[ks]);
        CHECK(fc_check_keylen_policy(p.c, ci, fam->keylen[ks], key, iv, msg,
                                     sizeof(msg)),
              "%s", msg);
        WHERE("%s: a message after the keylen attempts", fam->names[ks]);
        CHECK(fc_pair_init(&p, env, -1, key, iv, 1, NULL, "key and IV"),
              "init");
        fc_pair_run(&p, in, sizeof(in), 1, of, od);
        fc_pair_free(&p);
    }
}

/* see cipher_suite.h */
void fc_test_common_param_decoding(void **state)
{
    const fc_test_env *env = *state;
    const fc_test_cipher_spec *spec = env->fam->spec;

    fc_test_rand_start(__func__);
    for (size_t ks = 0; ks < env->fam->count; ks++)
        fc_test_check_decoding(env, (int)ks, spec->decode_key,
                               spec->decode_first, spec->decode_second);
}

/* see cipher_suite.h */
void fc_test_common_kat(void **state)
{
    const fc_test_env *env = *state;
    const fc_test_cipher_spec *spec = env->fam->spec;
    size_t n;

    fc_test_rand_start(__func__);
    n = fc_test_kat_file(env, spec->kat_file, spec->kat_mode,
                         spec->kat_iv_rule);
    CHECK(n == spec->kat_blocks, "%zu %s blocks in %s", n, spec->kat_mode,
          spec->kat_file);
}

/* The most tests a suite registers. */
#define FC_SUITE_MAX 64

/* see cipher_suite.h */
int fc_suite_run(const fc_test_family *fam)
{
    static const struct CMUnitTest common[] = {
        cmocka_unit_test(fc_test_common_identity),
        cmocka_unit_test(fc_test_common_keylen),
        cmocka_unit_test(fc_test_common_param_decoding),
    };
    struct CMUnitTest all[FC_ARRAY_LEN(common) + 1 + FC_SUITE_MAX];
    size_t n = 0;

    for (size_t i = 0; i < FC_ARRAY_LEN(common); i++)
        all[n++] = common[i];
    if (fam->spec != NULL && fam->spec->kat_file != NULL)
        all[n++] = (struct CMUnitTest)cmocka_unit_test(fc_test_common_kat);
    n += fc_test_group_tests("suite", all + n, FC_SUITE_MAX);
    return fc_test_run_groups(fam, all, n);
}

/* see cipher_suite.h */
void fc_test_raw_cbc(const EVP_CIPHER *c, const uint8_t *key, const uint8_t *iv,
                     int enc, const uint8_t *in, size_t len, uint8_t *out)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int l1 = 0, l2 = 0;

    CHECK(ctx != NULL && EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL) &&
              EVP_CIPHER_CTX_set_padding(ctx, 0) &&
              EVP_CipherUpdate(ctx, out, &l1, in, (int)len) &&
              EVP_CipherFinal_ex(ctx, out + l1, &l2) &&
              (size_t)(l1 + l2) == len,
          "raw CBC through default failed");
    EVP_CIPHER_CTX_free(ctx);
}

/* see cipher_suite.h */
void fc_test_add128(uint8_t iv[16], size_t n)
{
    unsigned carry = 0;

    for (int i = 15; i >= 0; i--) {
        unsigned v = iv[i] + (unsigned)(n & 0xff) + carry;

        iv[i] = (uint8_t)v;
        carry = v >> 8;
        n >>= 8;
    }
}

/* see cipher_suite.h */
size_t fc_test_kat_file(const fc_test_env *env, const char *name,
                        const char *mode, int iv_rule)
{
    fc_kat *k = fc_kat_open(name);
    size_t blocks = 0;

    while (fc_kat_next(k)) {
        size_t klen, ivlen, ptlen, ctlen;
        const uint8_t *key, *iv, *pt, *ct;
        uint8_t want_iv[16], out[64], uiv[16];
        int ks = -1;

        if (strcmp(fc_kat_str(k, "Mode"), mode) != 0)
            continue;
        key = fc_kat_bytes(k, "Key", &klen);
        iv = fc_kat_bytes(k, "IV", &ivlen);
        pt = fc_kat_bytes(k, "Plaintext", &ptlen);
        ct = fc_kat_bytes(k, "Ciphertext", &ctlen);
        for (size_t i = 0; i < env->fam->count; i++)
            if ((size_t)env->fam->keylen[i] == klen)
                ks = (int)i;
        CHECK(ks >= 0 && ivlen == 16 && ptlen == ctlen && ptlen >= 16 &&
                  ptlen <= sizeof(out),
              "%s: a block this test cannot run", fc_kat_where(k));
        if (iv_rule == FC_KAT_IV_CHAIN) {
            memcpy(want_iv, ct + ptlen - 16, 16);
        } else {
            memcpy(want_iv, iv, 16);
            fc_test_add128(want_iv, (ptlen + 15) / 16);
        }
        for (int enc = 0; enc <= 1; enc++) {
            EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
            int l1 = -1, l2 = -1;

            WHERE("%s: %s %s", fc_kat_where(k), env->fam->names[ks],
                  enc ? "encrypt" : "decrypt");
            CHECK(
                c != NULL &&
                    EVP_CipherInit_ex2(c, env->fc[ks], key, iv, enc, NULL) &&
                    EVP_CIPHER_CTX_set_padding(c, 0) &&
                    EVP_CipherUpdate(c, out, &l1, enc ? pt : ct, (int)ptlen) &&
                    EVP_CipherFinal_ex(c, out + l1, &l2) &&
                    EVP_CIPHER_CTX_get_updated_iv(c, uiv, 16),
                "EVP call failed");
            CHECK(l1 == (int)ptlen && l2 == 0, "outl %d + %d", l1, l2);
            CHECK_MEM(out, enc ? ct : pt, ptlen, "known answer");
            CHECK_MEM(uiv, want_iv, 16, "\"updated-iv\" after the message");
            EVP_CIPHER_CTX_free(c);
        }
        blocks++;
    }
    fc_kat_close(k);
    return blocks;
}

/* see cipher_suite.h */
void fc_test_tls_params(OSSL_PARAM p[3], int *version, size_t *macsize)
{
    p[0] = OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_TLS_VERSION, version);
    p[1] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, macsize);
    p[2] = OSSL_PARAM_construct_end();
}

/* see cipher_suite.h */
void fc_test_quiet_iv_gets(EVP_CIPHER_CTX *c, size_t ivlen)
{
    uint8_t buf[64];
    void *ptr = NULL;
    OSSL_PARAM ip[2] = {
        OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_IV, &ptr, ivlen),
        OSSL_PARAM_construct_end()};
    OSSL_PARAM up[2] = {OSSL_PARAM_construct_octet_ptr(
                            OSSL_CIPHER_PARAM_UPDATED_IV, &ptr, ivlen),
                        OSSL_PARAM_construct_end()};

    QUIET(EVP_CIPHER_CTX_get_original_iv(c, buf, ivlen), "get \"iv\"");
    QUIET(EVP_CIPHER_CTX_get_updated_iv(c, buf, ivlen), "get \"updated-iv\"");
    QUIET(EVP_CIPHER_CTX_get_params(c, ip) && ptr != NULL,
          "get \"iv\" as a pointer");
    ptr = NULL;
    QUIET(EVP_CIPHER_CTX_get_params(c, up) && ptr != NULL,
          "get \"updated-iv\" as a pointer");
}

/* see cipher_suite.h */
void fc_test_get_cipher_fns(const EVP_CIPHER *c, const char *name,
                            fc_test_cipher_fns *f)
{
    const OSSL_PROVIDER *prov = EVP_CIPHER_get0_provider(c);
    const OSSL_ALGORITHM *algs, *a;
    const OSSL_DISPATCH *d = NULL;
    size_t nl = strlen(name);
    int no_cache = 0;

    memset(f, 0, sizeof(*f));
    algs = OSSL_PROVIDER_query_operation(prov, OSSL_OP_CIPHER, &no_cache);
    for (a = algs; a != NULL && a->algorithm_names != NULL; a++)
        if (strncmp(a->algorithm_names, name, nl) == 0 &&
            (a->algorithm_names[nl] == ':' || a->algorithm_names[nl] == '\0'))
            d = a->implementation;
    CHECK(d != NULL, "%s not in %s's cipher table", name,
          OSSL_PROVIDER_get0_name(prov));
    f->provctx = OSSL_PROVIDER_get0_provider_ctx(prov);
    for (; d->function_id != 0; d++) {
        switch (d->function_id) {
        case OSSL_FUNC_CIPHER_NEWCTX:
            f->newctx = OSSL_FUNC_cipher_newctx(d);
            break;
        case OSSL_FUNC_CIPHER_FREECTX:
            f->freectx = OSSL_FUNC_cipher_freectx(d);
            break;
        case OSSL_FUNC_CIPHER_ENCRYPT_INIT:
            f->einit = OSSL_FUNC_cipher_encrypt_init(d);
            break;
        case OSSL_FUNC_CIPHER_DECRYPT_INIT:
            f->dinit = OSSL_FUNC_cipher_decrypt_init(d);
            break;
        case OSSL_FUNC_CIPHER_UPDATE:
            f->update = OSSL_FUNC_cipher_update(d);
            break;
        case OSSL_FUNC_CIPHER_FINAL:
            f->final = OSSL_FUNC_cipher_final(d);
            break;
        case OSSL_FUNC_CIPHER_CIPHER:
            f->cipher = OSSL_FUNC_cipher_cipher(d);
            break;
        case OSSL_FUNC_CIPHER_SET_CTX_PARAMS:
            f->set_params = OSSL_FUNC_cipher_set_ctx_params(d);
            break;
        }
    }
    OSSL_PROVIDER_unquery_operation(prov, OSSL_OP_CIPHER, algs);
    CHECK(f->newctx && f->freectx && f->einit && f->dinit && f->update &&
              f->final && f->set_params,
          "%s's %s lacks a required function", OSSL_PROVIDER_get0_name(prov),
          name);
}

/* ---------------------------------------------------------------------- */
/* The stream harness                                                     */

static const char *const fc_layout_name[FC_STREAM_LAYOUTS] = {
    "out-of-place", "in-place (output lags input)", "in == out per call"};

/* What one provider did with a stream, call by call. */
typedef struct fc_stream_res {
    int ret[FC_STREAM_MAX_PIECES + 1];
    int outl[FC_STREAM_MAX_PIECES + 1];
    size_t nops;
    size_t total;
    fc_guard out; /* len + 16 bytes at mis_out, 64 bytes of guards in all */
    uint8_t uiv[16];
    int uiv_ok;
    int failed;
} fc_stream_res;

/*
 * Runs one message through |c| as |s| says: the update pieces in order,
 * then final, in one of three layouts. FC_STREAM_LAGGING is OpenSSL's own
 * evp_test in-place layout: one buffer, input at buf + consumed, output at
 * buf + produced, so the output pointer lags the input by what the cipher
 * holds back. FC_STREAM_SAME_PTR is the common "read a chunk, encrypt it
 * in place, write it out" loop: each piece is copied into a scratch buffer
 * with 16 bytes to spare and updated with in == out. A failing call ends
 * the run and must leave an error (fastcrypto's, for fastcrypto).
 */
static void fc_stream_run(const EVP_CIPHER *c, const fc_stream_spec *s,
                          fc_stream_res *r, int is_fc)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    uint8_t *inbuf = NULL, *outp, scratch[FC_STREAM_MAX_LEN + 32];
    const uint8_t *inp;
    size_t i, tin = 0, tout = 0;
    int ol, ret = 1;

    memset(r, 0, sizeof(*r));
    CHECK(ctx != NULL, "out of memory");
    fc_guard_new(&r->out, s->len + 16, s->mis_out, 48 - s->mis_out);
    outp = r->out.p;
    CHECK(s->len <= FC_STREAM_MAX_LEN, "stream too long for the scratch");
    if (s->layout == FC_STREAM_LAGGING) {
        memcpy(outp, s->in, s->len);
        inp = outp;
    } else {
        inbuf = fc_test_xmalloc(s->len + 16);
        memcpy(inbuf + s->mis_in, s->in, s->len);
        inp = inbuf + s->mis_in;
    }
    CHECK(EVP_CipherInit_ex2(ctx, c, s->key, s->iv, s->enc, NULL) &&
              EVP_CIPHER_CTX_set_padding(ctx, s->pad),
          "init failed (%s)", is_fc ? FC_NAME : "default");
    for (i = 0; i < s->npieces && ret; i++) {
        ol = -7;
        if (s->layout == FC_STREAM_SAME_PTR) {
            uint8_t *p = scratch + s->mis_out;

            memcpy(p, inp + tin, s->pieces[i]);
            ret = EVP_CipherUpdate(ctx, p, &ol, p, (int)s->pieces[i]);
            if (ret && ol >= 0 && (size_t)ol <= s->pieces[i] + 16)
                memcpy(outp + tout, p, (size_t)ol);
        } else {
            ret = EVP_CipherUpdate(ctx, outp + tout, &ol, inp + tin,
                                   (int)s->pieces[i]);
        }
        r->ret[r->nops] = ret;
        r->outl[r->nops++] = ol;
        if (ret) {
            tin += s->pieces[i];
            tout += (size_t)ol;
        }
    }
    if (ret) {
        ol = -7;
        ret = EVP_CipherFinal_ex(ctx, outp + tout, &ol);
        r->ret[r->nops] = ret;
        r->outl[r->nops++] = ol;
        if (ret)
            tout += (size_t)ol;
    }
    r->failed = !ret;
    r->total = tout;
    r->uiv_ok = EVP_CIPHER_CTX_get_updated_iv(ctx, r->uiv, sizeof(r->uiv));
    if (r->failed && is_fc)
        fc_test_expect_error("failing update/final", 0);
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
    free(inbuf);
}

static void fc_stream_compare(const fc_stream_res *f, const fc_stream_res *d)
{
    CHECK(f->nops == d->nops, "calls made: fastcrypto %zu, default %zu",
          f->nops, d->nops);
    for (size_t i = 0; i < f->nops; i++) {
        CHECK(f->ret[i] == d->ret[i], "call %zu (%s) returned %d, default %d",
              i, i + 1 == f->nops ? "last" : "update", f->ret[i], d->ret[i]);
        CHECK(f->outl[i] == d->outl[i], "call %zu outl %d, default %d", i,
              f->outl[i], d->outl[i]);
    }
    CHECK(f->total == d->total, "total out %zu, default %zu", f->total,
          d->total);
    /* The whole buffer, so bytes written beyond outl count as a
     * difference too: in place, they would clobber unread input. */
    CHECK_MEM(f->out.base, d->out.base, fc_guard_whole(&f->out),
              "output buffer");
    CHECK(fc_guard_intact(&f->out), "written outside the output");
    CHECK(f->uiv_ok == d->uiv_ok, "updated-iv readable %d, default %d",
          f->uiv_ok, d->uiv_ok);
    if (f->uiv_ok)
        CHECK_MEM(f->uiv, d->uiv, 16, "updated-iv after final");
}

/* see cipher_suite.h */
void fc_stream_diff(const fc_test_env *env, const fc_stream_spec *s)
{
    fc_stream_res f, d;
    fc_stream_spec sd = *s;
    char pcs[256];

    fc_test_pieces_str(pcs, sizeof(pcs), s->pieces, s->npieces);
    WHERE("%s len=%zu %s pad=%d %s mis_in=%zu mis_out=%zu pieces=[%s] "
          "key=%s iv=%s in=%s",
          env->fam->names[s->ks], s->len, s->enc ? "enc" : "dec", s->pad,
          fc_layout_name[s->layout], s->mis_in, s->mis_out, pcs,
          fc_test_hexs(s->key, (size_t)env->fam->keylen[s->ks]),
          fc_test_hexs(s->iv, 16), fc_test_hexs(s->in, s->len));
    fc_stream_run(env->fc[s->ks], s, &f, 1);
    if (sd.layout == FC_STREAM_SAME_PTR) /* see cipher_suite.h */
        sd.layout = FC_STREAM_SEPARATE;
    fc_stream_run(env->df[s->ks], &sd, &d, 0);
    fc_stream_compare(&f, &d);
    fc_guard_free(&f.out);
    fc_guard_free(&d.out);
}
