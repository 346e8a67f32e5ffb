/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cpu.c - CPU feature probe, feature masks, and AES table dispatch.
 *
 * Groups:
 *   mask      fc_cpu_parse_mask (names, "all", "none", hex, rejects) and
 *             fc_cpu_apply_mask dependency rules;
 *   detect    fc_cpu_detect against the compiler's own CPUID reading;
 *   dispatch  fc_aes_impls shape, fc_aes_select under masks, and
 *             fc_aes_self_test on every table the CPU runs (and that the
 *             self test does catch a broken table);
 *   tuning    the per-CPU table: the vendor/family/model probe against
 *             the compiler's CPUID, row matching for known cores, the
 *             default row for unknown ones, lookup by name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fc/aes.h"
#include "fc/cpu.h"
#include "fc/family.h"
#include "fc/offer.h"
#include "fc/tuning.h"
#include "impls.h"
#include "runner.h"

#define X86_ALL                                                                \
    (FC_CAP_AESNI | FC_CAP_PCLMUL | FC_CAP_SSSE3 | FC_CAP_SSE41 | FC_CAP_AVX | \
     FC_CAP_AVX2 | FC_CAP_VAES | FC_CAP_VPCLMUL | FC_CAP_BMI2 | FC_CAP_ADX |   \
     FC_CAP_AVX512 | FC_CAP_MOVBE | FC_CAP_SHA)
#define SENTINEL 0xdeadbeefu

static const struct {
    const char *name;
    uint32_t bit;
} names[] = {
    {"aesni", FC_CAP_AESNI},     {"pclmul", FC_CAP_PCLMUL},
    {"ssse3", FC_CAP_SSSE3},     {"sse41", FC_CAP_SSE41},
    {"avx", FC_CAP_AVX},         {"avx2", FC_CAP_AVX2},
    {"vaes", FC_CAP_VAES},       {"vpclmul", FC_CAP_VPCLMUL},
    {"bmi2", FC_CAP_BMI2},       {"adx", FC_CAP_ADX},
    {"avx512", FC_CAP_AVX512},   {"movbe", FC_CAP_MOVBE},
    {"sha", FC_CAP_SHA},         {"aes", FC_CAP_ARM_AES},
    {"pmull", FC_CAP_ARM_PMULL}, {"sha3", FC_CAP_ARM_SHA3},
    {"sha1", FC_CAP_ARM_SHA1},   {"sha2", FC_CAP_ARM_SHA2},
};

static uint32_t parse_ok(const char *spec)
{
    uint32_t out = SENTINEL;
    if (!fc_cpu_parse_mask(spec, &out))
        fail_msg("fc_cpu_parse_mask(\"%s\") rejected a valid mask", spec);
    return out;
}

/* ---- mask ------------------------------------------------------------ */

FC_TEST("cpu_mask", test_parse_names)
{
    char upper[32];
    uint32_t every = 0;

    for (size_t i = 0; i < FC_ARRAY_LEN(names); i++) {
        assert_int_equal(parse_ok(names[i].name), names[i].bit);
        /* Names are case-insensitive. */
        snprintf(upper, sizeof(upper), "%s", names[i].name);
        for (char *p = upper; *p; p++)
            *p = (char)(*p - ('a' <= *p && *p <= 'z' ? 32 : 0));
        assert_int_equal(parse_ok(upper), names[i].bit);
        every |= names[i].bit;
    }
    /* The bits are distinct. */
    assert_int_equal(__builtin_popcount(every), FC_ARRAY_LEN(names));
    /* Separators: commas, spaces, '+', tabs, repeated and trailing. */
    assert_int_equal(parse_ok("aesni,avx2"), FC_CAP_AESNI | FC_CAP_AVX2);
    assert_int_equal(parse_ok("aesni avx2+vaes"),
                     FC_CAP_AESNI | FC_CAP_AVX2 | FC_CAP_VAES);
    assert_int_equal(parse_ok(" ,pclmul,, \t+bmi2, "),
                     FC_CAP_PCLMUL | FC_CAP_BMI2);
    assert_int_equal(parse_ok("avx,avx"), FC_CAP_AVX);
}

FC_TEST("cpu_mask", test_parse_special)
{
    uint32_t out = SENTINEL;

    assert_int_equal(parse_ok(""), 0);
    assert_int_equal(parse_ok("none"), 0);
    assert_int_equal(parse_ok("NONE"), 0);
    assert_int_equal(parse_ok("  "), 0);
    assert_int_equal(parse_ok("all"), 0xffffffffu);
    assert_int_equal(parse_ok(" All "), 0xffffffffu);
    assert_int_equal(parse_ok("none,aesni"), FC_CAP_AESNI);
    assert_int_equal(parse_ok("aesni,all"), 0xffffffffu);
    assert_int_equal(parse_ok("0x41"), 0x41);
    assert_int_equal(parse_ok("0X41"), 0x41);
    assert_int_equal(parse_ok("0x0"), 0);
    assert_int_equal(parse_ok(" 0x10 "), 0x10);
    assert_int_equal(parse_ok("0xffffffff"), 0xffffffffu);
    assert_true(fc_cpu_parse_mask(NULL, &out));
    assert_int_equal(out, 0);
}

FC_TEST("cpu_mask", test_parse_rejects)
{
    static const char *const bad[] = {
        "bogus", "aesni,bogus", "aesni;avx",   "aes-ni",
        "avx 2", "0xzz",        "0x1ffffffff", "0x10 avx",
        "0x",    "avx512f",     "sse4.1",      "aesni,,xyz",
        "12",    "allx",        "nonex",       "averyveryverylongfeaturename",
    };
    for (size_t i = 0; i < FC_ARRAY_LEN(bad); i++) {
        uint32_t out = SENTINEL;
        if (fc_cpu_parse_mask(bad[i], &out))
            fail_msg("fc_cpu_parse_mask(\"%s\") accepted a bad mask (0x%x)",
                     bad[i], out);
        /* On failure |*out| is left alone. */
        assert_int_equal(out, SENTINEL);
    }
}

FC_TEST("cpu_mask", test_apply_rules)
{
    const uint32_t all = X86_ALL;
    uint32_t c;

    assert_int_equal(fc_cpu_apply_mask(all, 0), all);
    assert_int_equal(fc_cpu_apply_mask(all, 0xffffffffu), 0);

    /* No AVX: no AVX2, VAES, VPCLMULQDQ or AVX-512; the rest stays (SHA-NI
     * is a legacy-SSE extension). */
    c = fc_cpu_apply_mask(all, FC_CAP_AVX);
    assert_int_equal(c, FC_CAP_AESNI | FC_CAP_PCLMUL | FC_CAP_SSSE3 |
                            FC_CAP_SSE41 | FC_CAP_BMI2 | FC_CAP_ADX |
                            FC_CAP_MOVBE | FC_CAP_SHA);
    /* No AES-NI: no VAES, but VPCLMULQDQ and AVX2 stay. */
    c = fc_cpu_apply_mask(all, FC_CAP_AESNI);
    assert_int_equal(c & (FC_CAP_AESNI | FC_CAP_VAES), 0);
    assert_int_equal(c & (FC_CAP_VPCLMUL | FC_CAP_AVX2 | FC_CAP_PCLMUL),
                     FC_CAP_VPCLMUL | FC_CAP_AVX2 | FC_CAP_PCLMUL);
    /* No PCLMULQDQ: no VPCLMULQDQ, but VAES stays. */
    c = fc_cpu_apply_mask(all, FC_CAP_PCLMUL);
    assert_int_equal(c & (FC_CAP_PCLMUL | FC_CAP_VPCLMUL), 0);
    assert_int_equal(c & FC_CAP_VAES, FC_CAP_VAES);
    /* No AVX2: no VAES or VPCLMULQDQ (our wide kernels are ymm-based). */
    c = fc_cpu_apply_mask(all, FC_CAP_AVX2);
    assert_int_equal(c & (FC_CAP_AVX2 | FC_CAP_VAES | FC_CAP_VPCLMUL), 0);
    assert_int_equal(c & (FC_CAP_AVX | FC_CAP_AESNI),
                     FC_CAP_AVX | FC_CAP_AESNI);
    /* Masking VAES alone leaves the AES-NI tier intact. */
    c = fc_cpu_apply_mask(all, FC_CAP_VAES);
    assert_int_equal(c, all & ~FC_CAP_VAES);
    assert_true(fc_aesni_capable(c));
    assert_false(fc_vaes_avx2_capable(c));
    /* Masking a feature the CPU lacks is harmless. */
    assert_int_equal(fc_cpu_apply_mask(FC_CAP_AESNI, FC_CAP_AVX512),
                     FC_CAP_AESNI);
    /* A dependent feature without its base is dropped even with mask 0. */
    assert_int_equal(fc_cpu_apply_mask(FC_CAP_VAES | FC_CAP_AVX2, 0), 0);

    /* Properties over random inputs: the result is a subset of |caps|
     * without |mask|, and applying again changes nothing. */
    for (int i = 0; i < 2000; i++) {
        uint32_t caps = (uint32_t)fc_test_rand64();
        uint32_t mask = (uint32_t)fc_test_rand64() & (uint32_t)fc_test_rand64();
        uint32_t r = fc_cpu_apply_mask(caps, mask);
        assert_int_equal(r & ~caps, 0);
        assert_int_equal(r & mask, 0);
        assert_int_equal(fc_cpu_apply_mask(r, mask), r);
        assert_int_equal(fc_cpu_apply_mask(r, 0), r);
    }
}

FC_TEST("cpu_mask", test_caps_describe)
{
    char buf[256];

    fc_cpu_caps_describe(FC_CAP_AESNI | FC_CAP_AVX2, buf, sizeof(buf));
    assert_string_equal(buf, "aesni avx2");
    fc_cpu_caps_describe(0, buf, sizeof(buf));
    assert_string_equal(buf, "");
    /* Too small: stops at a whole name, still NUL-terminated. */
    memset(buf, 'x', sizeof(buf));
    fc_cpu_caps_describe(FC_CAP_AESNI | FC_CAP_PCLMUL, buf, 10);
    assert_string_equal(buf, "aesni");
    /* Every name round-trips through the parser. */
    fc_cpu_caps_describe(X86_ALL, buf, sizeof(buf));
    assert_int_equal(parse_ok(buf), X86_ALL);
}

/* ---- detect ---------------------------------------------------------- */

FC_TEST("cpu_detect", test_detect)
{
    uint32_t caps = fc_cpu_detect();
    char desc[256];

    assert_int_equal(fc_cpu_detect(), caps);            /* cached, stable */
    assert_int_equal(fc_cpu_apply_mask(caps, 0), caps); /* normalised */
    fc_cpu_caps_describe(caps, desc, sizeof(desc));
    print_message("[ CPU      ] detected: %s\n", desc[0] ? desc : "(none)");
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    /* The compiler's runtime reads CPUID (and XCR0 for AVX) on its own: an
     * independent oracle for the probe. */
    const struct {
        uint32_t bit;
        int has;
    } ref[] = {
        {FC_CAP_AESNI, __builtin_cpu_supports("aes") != 0},
        {FC_CAP_PCLMUL, __builtin_cpu_supports("pclmul") != 0},
        {FC_CAP_SSSE3, __builtin_cpu_supports("ssse3") != 0},
        {FC_CAP_SSE41, __builtin_cpu_supports("sse4.1") != 0},
        {FC_CAP_AVX, __builtin_cpu_supports("avx") != 0},
        {FC_CAP_AVX2, __builtin_cpu_supports("avx2") != 0},
        {FC_CAP_BMI2, __builtin_cpu_supports("bmi2") != 0},
#if !defined(__clang__) /* clang 14 does not know these three names */
        {FC_CAP_SHA, __builtin_cpu_supports("sha") != 0},
        {FC_CAP_VAES, __builtin_cpu_supports("vaes") != 0 &&
                          __builtin_cpu_supports("avx2") != 0},
        {FC_CAP_VPCLMUL, __builtin_cpu_supports("vpclmulqdq") != 0 &&
                             __builtin_cpu_supports("avx2") != 0},
#endif
    };
    for (size_t i = 0; i < FC_ARRAY_LEN(ref); i++) {
        char name[32];
        fc_cpu_caps_describe(ref[i].bit, name, sizeof(name));
        if (((caps & ref[i].bit) != 0) != ref[i].has)
            fail_msg("fc_cpu_detect says %s=%d, the compiler's CPUID says %d",
                     name, (caps & ref[i].bit) != 0, ref[i].has);
    }
    /* x86-64 builds never report arm64 features. */
    assert_int_equal(caps &
                         (FC_CAP_ARM_AES | FC_CAP_ARM_PMULL | FC_CAP_ARM_SHA3 |
                          FC_CAP_ARM_SHA1 | FC_CAP_ARM_SHA2),
                     0);
#elif defined(FC_NO_ASM)
    (void)caps; /* portable builds may or may not probe; nothing to check */
#endif
}

/* fc_test_caps follows FASTCRYPTO_CPU_MASK, read at each call. */
FC_TEST("cpu_detect", test_env_mask)
{
    fc_test_saved_env saved;
    uint32_t det = fc_cpu_detect();

    fc_test_setenv(&saved, FC_CPU_MASK_ENV, "all");
    assert_int_equal(fc_test_caps(), 0);
    setenv(FC_CPU_MASK_ENV, "vaes", 1);
    assert_int_equal(fc_test_caps(), fc_cpu_apply_mask(det, FC_CAP_VAES));
    assert_int_equal(fc_test_caps() & FC_CAP_VAES, 0);
    setenv(FC_CPU_MASK_ENV, "", 1);
    assert_int_equal(fc_test_caps(), det);
    unsetenv(FC_CPU_MASK_ENV);
    assert_int_equal(fc_test_caps(), det);
    fc_test_restoreenv(&saved);
}

/* ---- dispatch -------------------------------------------------------- */

static __attribute__((unused)) const fc_aes_ops *find_impl(const char *name)
{
    size_t n;
    const fc_aes_ops *const *tab = fc_aes_impls(&n), *ops;

    FC_TEST_FIND_IMPL(tab, n, name, ops);
    return ops;
}

FC_TEST("aes_dispatch", test_impls_shape)
{
    size_t n;
    const fc_aes_ops *const *tab = fc_aes_impls(&n);

    assert_true(n >= 1);
    assert_string_equal(tab[n - 1]->name, "generic");
    assert_true(fc_test_aes_is_generic(tab[n - 1]));
    assert_int_equal(tab[n - 1]->required_caps, 0);
    for (size_t i = 0; i < n; i++) {
        assert_non_null(tab[i]->name);
        assert_non_null(tab[i]->set_enc_key);
        assert_non_null(tab[i]->set_dec_key);
        assert_non_null(tab[i]->ecb_enc);
        assert_non_null(tab[i]->cbc_enc);
        assert_non_null(tab[i]->cbc_dec);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(tab[i]->name, tab[j]->name);
        /* Only the last entry may need nothing: otherwise every table
         * after it would be unreachable. */
        if (i + 1 < n)
            assert_int_not_equal(tab[i]->required_caps, 0);
    }
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    /* The x86-64 tables, and their caps matching the predicates. */
    const fc_aes_ops *aesni = find_impl("aesni");
    const fc_aes_ops *vaes = find_impl("vaes-avx2");
    assert_non_null(aesni);
    assert_non_null(vaes);
    assert_true(fc_aesni_capable(aesni->required_caps));
    assert_false(fc_vaes_avx2_capable(aesni->required_caps));
    assert_true(fc_vaes_avx2_capable(vaes->required_caps));
    assert_ptr_equal(tab[0], vaes); /* fastest first */
#elif defined(__aarch64__) && !defined(FC_NO_ASM)
    /* The Crypto Extensions table, first, needing the AES instructions. */
    const fc_aes_ops *ce = find_impl("ce");
    assert_non_null(ce);
    assert_int_equal(ce->required_caps, FC_CAP_ARM_AES);
    assert_ptr_equal(tab[0], ce);
    assert_int_equal(n, 2);
#else
    assert_int_equal(n, 1);
#endif
}

static const char *select_name(uint32_t caps)
{
    const fc_aes_ops *ops = fc_aes_select(caps);
    assert_non_null(ops);
    return ops->name;
}

FC_TEST("aes_dispatch", test_select)
{
    size_t n;
    const fc_aes_ops *const *tab = fc_aes_impls(&n);
    uint32_t det = fc_cpu_detect();

    /* Synthetic feature sets. */
    assert_string_equal(select_name(0), "generic");
    assert_string_equal(select_name(0xffffffffu), tab[0]->name);
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    assert_string_equal(select_name(FC_CAP_AESNI | FC_CAP_SSSE3 | FC_CAP_SSE41),
                        "aesni");
    assert_string_equal(select_name(FC_CAP_AESNI | FC_CAP_SSSE3), "generic");
    assert_string_equal(select_name(fc_cpu_apply_mask(X86_ALL, FC_CAP_VAES)),
                        "aesni");
    assert_string_equal(select_name(fc_cpu_apply_mask(X86_ALL, FC_CAP_AVX)),
                        "aesni");
    assert_string_equal(select_name(X86_ALL), "vaes-avx2");
#endif

    /* The real CPU under the CI masks. */
    assert_string_equal(select_name(fc_cpu_apply_mask(det, parse_ok("all"))),
                        "generic");
    if (fc_aesni_capable(det)) {
        assert_string_equal(
            select_name(fc_cpu_apply_mask(det, parse_ok("vaes"))), "aesni");
        assert_string_equal(
            select_name(fc_cpu_apply_mask(det, parse_ok("avx"))), "aesni");
        assert_string_equal(
            select_name(fc_cpu_apply_mask(det, parse_ok("aesni"))), "generic");
    } else {
        print_message("[  SKIPPED ] select under masks: no aesni detected\n");
    }
    if (fc_vaes_avx2_capable(det))
        assert_string_equal(select_name(det), "vaes-avx2");
    else
        print_message("[  SKIPPED ] select vaes-avx2: not detected\n");

    /* In general: the first table whose needs are met, over random sets. */
    for (int i = 0; i < 1000; i++) {
        uint32_t caps = fc_cpu_apply_mask((uint32_t)fc_test_rand64(), 0);
        size_t want = n - 1;
        for (size_t j = 0; j < n; j++) {
            if ((caps & tab[j]->required_caps) == tab[j]->required_caps) {
                want = j;
                break;
            }
        }
        assert_ptr_equal(fc_aes_select(caps), tab[want]);
    }
}

FC_TEST("aes_dispatch", test_self_test_every_impl)
{
    size_t n, ran = 0;
    const fc_aes_ops *const *tab = fc_aes_impls(&n);
    const fc_aes_ops *ops;

    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        if (!fc_aes_self_test(ops))
            fail_msg("fc_aes_self_test failed for %s", ops->name);
        ran++;
    }
    assert_true(ran >= 1); /* the generic table always runs */
}

/* Broken variants of the generic table: each must fail the self test. */
static void bad_cbc_enc(const fc_aes_key *key, const uint8_t *in, uint8_t *out,
                        size_t blocks, uint8_t iv[16])
{
    fc_aes_cbc_enc_generic(key, in, out, blocks, iv);
    if (blocks > 1)
        out[16 * blocks - 1] ^= 1; /* last block wrong */
}

static void bad_cbc_dec_iv(const fc_aes_key *key, const uint8_t *in,
                           uint8_t *out, size_t blocks, uint8_t iv[16])
{
    uint8_t keep[16];
    memcpy(keep, iv, 16);
    fc_aes_cbc_dec_generic(key, in, out, blocks, iv);
    memcpy(iv, keep, 16); /* forgets the IV update */
}

static void bad_ecb(const fc_aes_key *key, const uint8_t *in, uint8_t *out,
                    size_t blocks)
{
    fc_aes_ecb_enc_generic(key, in, out, blocks);
    if (blocks > 0)
        out[0] ^= 0x80;
}

static void bad_set_dec_key(fc_aes_key *key, const uint8_t *user_key,
                            size_t key_bytes)
{
    fc_aes_set_dec_key_generic(key, user_key, key_bytes);
    key->rk[1][0] ^= 1; /* one wrong round-key bit, whatever the layout */
}

FC_TEST("aes_dispatch", test_self_test_catches)
{
    fc_aes_ops bad = *fc_test_aes_generic();

    assert_true(fc_aes_self_test(&bad));
    bad.cbc_enc = bad_cbc_enc;
    assert_false(fc_aes_self_test(&bad));
    bad = *fc_test_aes_generic();
    bad.cbc_dec = bad_cbc_dec_iv;
    assert_false(fc_aes_self_test(&bad));
    bad = *fc_test_aes_generic();
    bad.ecb_enc = bad_ecb;
    assert_false(fc_aes_self_test(&bad));
    bad = *fc_test_aes_generic();
    bad.set_dec_key = bad_set_dec_key;
    assert_false(fc_aes_self_test(&bad));
}

/* ---- tuning ---------------------------------------------------------- */

FC_TEST("cpu_tuning", test_tuning_identify)
{
    fc_cpu_id id = fc_cpu_identify(), again = fc_cpu_identify();
    const fc_tuning *t = fc_tuning_for(&id);

    assert_memory_equal(&id, &again, sizeof(id));
    assert_non_null(t);
    print_message("[ CPU      ] vendor %u family 0x%x model 0x%x: class %s\n",
                  id.vendor, id.family, id.model, t->name);
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    if (__builtin_cpu_is("intel"))
        assert_int_equal(id.vendor, FC_VENDOR_INTEL);
    else if (__builtin_cpu_is("amd"))
        assert_int_equal(id.vendor, FC_VENDOR_AMD);
    /* Every x86-64 CPU has family >= 6. */
    assert_true(id.family >= 6);
#elif defined(__aarch64__) && defined(__linux__) && !defined(FC_NO_ASM)
    /* MIDR_EL1 where the kernel (or qemu-user) publishes it, else 0. */
    {
        const fc_cpu_id_more more = fc_cpu_identify_more();
        fc_cpu_id from;

        print_message("[ CPU      ] MIDR_EL1 0x%08x (%s)\n", more.midr,
                      more.vendor_name);
        fc_cpu_id_from_midr(more.midr, &from, NULL);
        assert_memory_equal(&from, &id, sizeof(id));
        if (more.midr != 0)
            assert_int_equal(id.vendor, FC_VENDOR_ARM64);
    }
#else
    assert_int_equal(id.vendor, FC_VENDOR_UNKNOWN);
    assert_string_equal(t->name, "default");
#endif
}

/* MIDR_EL1 values of shipping cores (Arm TRMs; Ampere and Apple as Linux's
 * cputype.h lists them) and what the probe makes of them. */
FC_TEST("cpu_tuning", test_tuning_midr)
{
    static const struct {
        uint32_t midr;
        const char *want, *vendor;
        uint32_t stepping;
    } cases[] = {
        {0x413fd0c1, "neoverse-n1", "ARM", 0x31}, /* Graviton 2 */
        {0x411fd401, "neoverse-v1", "ARM", 0x11}, /* Graviton 3 */
        {0x410fd490, "neoverse-n2", "ARM", 0x00}, /* Cobalt 100 */
        {0x410fd4f1, "neoverse-v2", "ARM", 0x01}, /* Graviton 4 */
        {0x410fd840, "neoverse-v3", "ARM", 0x00},
        {0x410fd8e0, "neoverse-n3", "ARM", 0x00},
        {0xc00fac30, "ampere1", "Ampere", 0x00}, /* AmpereOne */
        {0xc00fac41, "ampere1", "Ampere", 0x01}, /* AmpereOne A */
        {0x611f0231, "apple", "Apple", 0x11},    /* M1 Firestorm */
        {0x410fd083, "default", "ARM", 0x03},    /* Cortex-A72 */
        {0x500f0000, "default", "0x50", 0x00},   /* X-Gene */
    };
    fc_cpu_id id;
    fc_cpu_id_more more;

    (void)state;
    for (size_t i = 0; i < FC_ARRAY_LEN(cases); i++) {
        fc_cpu_id_from_midr(cases[i].midr, &id, &more);
        assert_int_equal(id.vendor, FC_VENDOR_ARM64);
        assert_int_equal(id.family, cases[i].midr >> 24);
        assert_int_equal(id.model, (cases[i].midr >> 4) & 0xfff);
        assert_int_equal(more.midr, cases[i].midr);
        assert_int_equal(more.stepping, cases[i].stepping);
        assert_string_equal(more.vendor_name, cases[i].vendor);
        if (strcmp(fc_tuning_for(&id)->name, cases[i].want) != 0)
            fail_msg("MIDR 0x%08x: %s, want %s", cases[i].midr,
                     fc_tuning_for(&id)->name, cases[i].want);
    }
    /* Not published: nothing, the default row. */
    fc_cpu_id_from_midr(0, &id, &more);
    assert_int_equal(id.vendor, FC_VENDOR_UNKNOWN);
    assert_int_equal(more.midr, 0);
    assert_string_equal(fc_tuning_for(&id)->name, "default");
    /* An x86 id never matches an arm64 row of the same numbers. */
    id.vendor = FC_VENDOR_INTEL;
    id.family = FC_MIDR_ARM;
    id.model = 0xd0c;
    assert_string_equal(fc_tuning_for(&id)->name, "default");
}

FC_TEST("cpu_tuning", test_tuning_rows)
{
    static const struct {
        fc_cpu_id id;
        const char *want;
    } cases[] = {
        {{FC_VENDOR_AMD, 0x19, 0x01}, "zen3"},       /* EPYC Milan */
        {{FC_VENDOR_AMD, 0x19, 0x21}, "zen3"},       /* Ryzen 5000 */
        {{FC_VENDOR_AMD, 0x19, 0x11}, "zen4"},       /* EPYC Genoa */
        {{FC_VENDOR_AMD, 0x19, 0x61}, "zen4"},       /* Ryzen 7000 */
        {{FC_VENDOR_AMD, 0x17, 0x31}, "zen2"},       /* EPYC Rome */
        {{FC_VENDOR_AMD, 0x1a, 0x02}, "zen5"},       /* EPYC Turin */
        {{FC_VENDOR_INTEL, 6, 0xcf}, "golden-cove"}, /* Emerald Rapids */
        {{FC_VENDOR_INTEL, 6, 0x8f}, "golden-cove"}, /* Sapphire Rapids */
        {{FC_VENDOR_INTEL, 6, 0x6a}, "icelake-sp"},  /* Ice Lake-SP */
        {{FC_VENDOR_INTEL, 6, 0x7e}, "icelake"},     /* Ice Lake client */
        {{FC_VENDOR_INTEL, 6, 0xa7}, "rocketlake"},
        {{FC_VENDOR_INTEL, 6, 0x55}, "skylake-sp"},
        {{FC_VENDOR_INTEL, 6, 0x3f}, "haswell"},
        {{FC_VENDOR_INTEL, 6, 0x97}, "alderlake"},
        {{FC_VENDOR_INTEL, 6, 0x01}, "default"},  /* unknown model */
        {{FC_VENDOR_AMD, 0x15, 0x01}, "default"}, /* Bulldozer */
        {{FC_VENDOR_UNKNOWN, 0, 0}, "default"},
    };
    unsigned n;
    const fc_tuning *rows = fc_tuning_rows(&n);

    for (size_t i = 0; i < FC_ARRAY_LEN(cases); i++) {
        const fc_tuning *t = fc_tuning_for(&cases[i].id);
        if (strcmp(t->name, cases[i].want) != 0)
            fail_msg("vendor %u family 0x%x model 0x%x: %s, want %s",
                     cases[i].id.vendor, cases[i].id.family, cases[i].id.model,
                     t->name, cases[i].want);
    }
    /* The default row is last and matches by name; every name resolves
     * to a row of that name; unknown names do not. */
    assert_true(n >= 2);
    assert_string_equal(rows[n - 1].name, "default");
    assert_ptr_equal(fc_tuning_by_name("default"), &rows[n - 1]);
    for (unsigned i = 0; i < n; i++)
        assert_string_equal(fc_tuning_by_name(rows[i].name)->name,
                            rows[i].name);
    assert_null(fc_tuning_by_name("pentium"));
    assert_null(fc_tuning_by_name(NULL));
    /* Rows of one name make one choice (forcing a class by name takes
     * the first of them). */
    for (unsigned i = 0; i < n; i++) {
        const fc_tuning *f = fc_tuning_by_name(rows[i].name);
        assert_ptr_equal(rows[i].rsa_order, f->rsa_order);
        assert_int_equal(rows[i].rsa_mulx_wins, f->rsa_mulx_wins);
        assert_int_equal(rows[i].aes_zmm, f->aes_zmm);
        assert_int_equal(rows[i].arm_offer_30, f->arm_offer_30);
        assert_int_equal(rows[i].arm_offer_31, f->arm_offer_31);
        /* arm64 words only on arm64 rows, and those are modelled. */
        if (rows[i].vendor != FC_VENDOR_ARM64) {
            assert_int_equal(rows[i].arm_offer_30 | rows[i].arm_offer_31, 0);
            assert_int_equal(rows[i].modelled, 0);
        }
        if (rows[i].arm_offer_30 | rows[i].arm_offer_31)
            assert_int_equal(rows[i].modelled, 1);
    }
    /* The default row makes OpenSSL's own choices; the zmm AES tier where
     * it was measured or reasoned faster, never on the AVX-512 parts
     * without VAES. */
    assert_null(rows[n - 1].rsa_order);
    assert_int_equal(rows[n - 1].rsa_mulx_wins, 0);
    assert_int_equal(rows[n - 1].aes_zmm, 0);
    assert_int_equal(fc_tuning_by_name("skylake-sp")->aes_zmm, 0);
    assert_int_equal(fc_tuning_by_name("golden-cove")->aes_zmm, 1);
    assert_int_equal(fc_tuning_by_name("zen4")->aes_zmm, 1);
}

/* ---- offer: never slower than default ----------------------------------- */

#define OSSL_30 0x30000130UL /* 3.0.19 */
#define OSSL_36 0x30600030UL /* 3.6.3 */

/* x86-64 features of the development Xeon (AVX-512 with VAES and IFMA),
 * of an AVX2 server without AVX-512 (AMD Zen 3), and of AES-NI alone. */
#define CAPS_AVX2                                                              \
    (FC_CAP_AESNI | FC_CAP_PCLMUL | FC_CAP_SSSE3 | FC_CAP_SSE41 | FC_CAP_AVX | \
     FC_CAP_AVX2 | FC_CAP_VAES | FC_CAP_VPCLMUL | FC_CAP_BMI2 | FC_CAP_ADX |   \
     FC_CAP_MOVBE)
#define CAPS_XEON (CAPS_AVX2 | FC_CAP_AVX512 | FC_CAP_IFMA | FC_CAP_SHA)

/* The kernels' tiers (fc/kernel.h), named after the x86-64 kernels that
 * have them. */
#define GENERIC   FC_TIER_GENERIC
#define MULX      FC_TIER_SCALAR
#define AESNI     FC_TIER_128
#define AESNI_AVX FC_TIER_128_AVX
#define VAES_AVX2 FC_TIER_256
#define AVX512    FC_TIER_512

static uint32_t offer(uint32_t caps, const char *row, unsigned long ver,
                      uint32_t gcm, uint32_t aes, uint32_t rsa2k,
                      uint32_t rsa3k, uint32_t rsa4k)
{
    fc_offer_in in = {
        .caps = caps,
        .tuning = fc_tuning_by_name(row),
        .ossl_version = ver,
        .gcm_tier = gcm,
        .aes_tier = aes,
        /* The stitched kernels: AVX-512 with it, else xmm (cbc_hmac.c). */
        .cbc_hmac_tier = !(caps & FC_CAP_SHA)     ? GENERIC
                         : (caps & FC_CAP_AVX512) ? AVX512
                                                  : AESNI,
        .rsa_tier = {rsa2k, rsa3k, rsa4k},
    };

    assert_non_null(in.tuning);
    return fc_offer_decide(&in);
}

/* Each answer below is a row of measurements in provider/core/families.c. */
FC_TEST("offer", test_offer_decide)
{
    const uint32_t rsa3 =
        FC_OFFER_RSA2048 | FC_OFFER_RSA3072 | FC_OFFER_RSA4096;
    uint32_t o;

    (void)state;
#if defined(__aarch64__)
    /* arm64: the rows' modelled words (test_offer_arm64), whatever the
     * tiers say on x86-64. */
    assert_int_equal(offer(FC_CAP_ARM_AES | FC_CAP_ARM_PMULL, "default",
                           OSSL_36, AESNI, AESNI, MULX, MULX, MULX),
                     0);
    assert_int_equal(offer(FC_CAP_ARM_AES | FC_CAP_ARM_PMULL, "neoverse-v1",
                           OSSL_30, AESNI, AESNI, MULX, MULX, MULX),
                     FC_OFFER_GCM | FC_OFFER_CBC | FC_OFFER_CTR);
    assert_int_equal(offer(CAPS_XEON, "golden-cove", OSSL_30, VAES_AVX2,
                           VAES_AVX2, AVX512, AVX512, AVX512),
                     0);
    return;
#elif !defined(__x86_64__)
    /* The rules are x86-64 measurements: elsewhere nothing, whatever the
     * inputs. */
    assert_int_equal(offer(FC_CAP_ARM_AES | FC_CAP_ARM_PMULL, "neoverse-v1",
                           OSSL_30, AESNI, AESNI, MULX, MULX, MULX),
                     0);
    return;
#endif
    /* The Xeon on OpenSSL 3.0: everything; our ymm GCM against default's
     * xmm loop, IFMA RSA against default's IFMA (2048) and MULX. */
    o = offer(CAPS_XEON, "golden-cove", OSSL_30, VAES_AVX2, VAES_AVX2, AVX512,
              AVX512, AVX512);
    assert_int_equal(o, FC_OFFER_GCM | FC_OFFER_CBC | FC_OFFER_CTR |
                            FC_OFFER_DRBG | FC_OFFER_CBC_HMAC | rsa3);
    /* On 3.6 default has an AVX-512 GCM: our ymm tier loses, a zmm tier
     * is offered. */
    o = offer(CAPS_XEON, "golden-cove", OSSL_36, VAES_AVX2, VAES_AVX2, AVX512,
              AVX512, AVX512);
    assert_int_equal(o & FC_OFFER_GCM, 0);
    assert_int_equal(o & rsa3, rsa3);
    o = offer(CAPS_XEON, "golden-cove", OSSL_36, AVX512, VAES_AVX2, GENERIC,
              GENERIC, GENERIC);
    assert_int_equal(o & FC_OFFER_GCM, FC_OFFER_GCM);
    /* Without AVX-512 default keeps its xmm loop on every version. */
    o = offer(CAPS_AVX2, "zen3", OSSL_36, VAES_AVX2, VAES_AVX2, GENERIC,
              GENERIC, GENERIC);
    assert_int_equal(o & FC_OFFER_GCM, FC_OFFER_GCM);
    /* The MAC-then-encrypt ciphers need the stitched SHA-NI kernels, and
     * the AVX-512 one (the xmm one opened records at 0.99x). */
    assert_int_equal(o & FC_OFFER_CBC_HMAC, 0);
    assert_int_equal(offer(CAPS_AVX2 | FC_CAP_SHA, "zen3", OSSL_30, VAES_AVX2,
                           VAES_AVX2, GENERIC, GENERIC, GENERIC) &
                         FC_OFFER_CBC_HMAC,
                     0);
    o = offer(CAPS_AVX2 & ~(FC_CAP_VAES | FC_CAP_VPCLMUL), "default", OSSL_30,
              AESNI_AVX, AESNI, GENERIC, GENERIC, GENERIC);
    assert_int_equal(o, FC_OFFER_GCM | FC_OFFER_DRBG);
    /* CBC needs the VAES decryption (the AES-NI tier ties). */
    assert_int_equal(o & FC_OFFER_CBC, 0);
    /* RSA: MULX against MULX ties on Zen 3; the AVX2 engine where the row
     * put it first and default runs MULX; not where default runs IFMA. */
    o = offer(CAPS_AVX2, "zen3", OSSL_30, VAES_AVX2, VAES_AVX2, GENERIC,
              GENERIC, GENERIC);
    assert_int_equal(o & FC_OFFER_RSA, 0);
    o = offer(CAPS_AVX2, "zen3", OSSL_30, VAES_AVX2, VAES_AVX2, VAES_AVX2,
              VAES_AVX2, VAES_AVX2);
    assert_int_equal(o & FC_OFFER_RSA, rsa3);
    o = offer(CAPS_AVX2, "default", OSSL_30, VAES_AVX2, VAES_AVX2, MULX, MULX,
              MULX);
    assert_int_equal(o & FC_OFFER_RSA, 0);
    /* Without ADX the AVX2 engine runs against default's own AVX2 code
     * (RSA-2048) or its MULQ code: not measured, not offered. */
    o = offer(CAPS_AVX2 & ~FC_CAP_ADX, "haswell", OSSL_30, VAES_AVX2, VAES_AVX2,
              VAES_AVX2, VAES_AVX2, VAES_AVX2);
    assert_int_equal(o & FC_OFFER_RSA, 0);
    o = offer(CAPS_XEON, "zen4", OSSL_36, VAES_AVX2, VAES_AVX2, VAES_AVX2,
              VAES_AVX2, VAES_AVX2);
    assert_int_equal(o & FC_OFFER_RSA, 0);
    o = offer(CAPS_XEON, "zen4", OSSL_30, VAES_AVX2, VAES_AVX2, VAES_AVX2,
              VAES_AVX2, VAES_AVX2);
    assert_int_equal(o & FC_OFFER_RSA, FC_OFFER_RSA3072 | FC_OFFER_RSA4096);
    /* MULX against default's MULX where the row measured it ahead (the
     * Xeon with IFMA hidden from both sides), not where it ties (Zen 3). */
    o = offer(CAPS_XEON & ~FC_CAP_IFMA, "golden-cove", OSSL_36, AVX512,
              VAES_AVX2, MULX, MULX, MULX);
    assert_int_equal(o & FC_OFFER_RSA, rsa3);
    o = offer(CAPS_AVX2, "zen3", OSSL_30, VAES_AVX2, VAES_AVX2, MULX, MULX,
              MULX);
    assert_int_equal(o & FC_OFFER_RSA, 0);
    /* Portable C: nothing. */
    assert_int_equal(offer(0, "default", OSSL_30, GENERIC, GENERIC, GENERIC,
                           GENERIC, GENERIC),
                     0);
}

/* arm64 (fc_offer_decide_arm64, pure, so it runs on every architecture):
 * each row's modelled word (provider/core/tuning.c), by OpenSSL version,
 * kept to the families whose arm64 kernels run. */
static uint32_t offer_arm(const char *row, unsigned long ver, uint32_t gcm,
                          uint32_t aes, uint32_t rsa)
{
    fc_offer_in in = {
        .tuning = row != NULL ? fc_tuning_by_name(row) : NULL,
        .ossl_version = ver,
        .gcm_tier = gcm,
        .aes_tier = aes,
        .rsa_tier = {rsa, rsa, rsa},
    };

    if (row != NULL)
        assert_non_null(in.tuning);
    return fc_offer_decide_arm64(&in);
}

FC_TEST("offer", test_offer_arm64)
{
    static const struct {
        const char *row;
        uint32_t w30, w31;
    } want[] = {
        {"neoverse-n1", 0, 0},
        {"neoverse-v1", FC_OFFER_GCM | FC_OFFER_CBC | FC_OFFER_CTR,
         FC_OFFER_GCM | FC_OFFER_CBC},
        {"neoverse-v2", FC_OFFER_GCM, FC_OFFER_GCM},
        {"neoverse-n2", FC_OFFER_GCM, FC_OFFER_GCM},
        {"ampere1", FC_OFFER_GCM, FC_OFFER_GCM},
        {"neoverse-v3", 0, 0},
        {"neoverse-n3", 0, 0},
        {"apple", 0, 0},
        {"default", 0, 0},
        {"golden-cove", 0, 0},
    };
    const uint32_t ce = FC_TIER_128, mul = FC_TIER_SCALAR;

    (void)state;
    for (size_t i = 0; i < FC_ARRAY_LEN(want); i++) {
        const uint32_t o30 = offer_arm(want[i].row, OSSL_30, ce, ce, mul);
        const uint32_t o31 = offer_arm(want[i].row, 0x30100000UL, ce, ce, mul);
        const uint32_t o36 = offer_arm(want[i].row, OSSL_36, ce, ce, mul);

        if (o30 != want[i].w30 || o31 != want[i].w31 || o36 != want[i].w31)
            fail_msg("%s: 0x%x 0x%x 0x%x, want 0x%x 0x%x", want[i].row, o30,
                     o31, o36, want[i].w30, want[i].w31);
    }
    /* Only the families whose kernels run: the portable GHASH (pmull
     * masked) drops GCM, the portable AES (aes masked) CBC and CTR. */
    assert_int_equal(offer_arm("neoverse-v1", OSSL_30, GENERIC, ce, mul),
                     FC_OFFER_CBC | FC_OFFER_CTR);
    assert_int_equal(offer_arm("neoverse-v1", OSSL_30, GENERIC, GENERIC, mul),
                     0);
    /* No row, no word; never the DRBG, CBC-HMAC or RSA. */
    assert_int_equal(offer_arm(NULL, OSSL_30, ce, ce, mul), 0);
    for (size_t i = 0; i < FC_ARRAY_LEN(want); i++)
        assert_int_equal(offer_arm(want[i].row, OSSL_30, ce, ce, mul) &
                             (FC_OFFER_DRBG | FC_OFFER_CBC_HMAC | FC_OFFER_RSA),
                         0);
#if defined(__aarch64__) && !defined(FC_NO_ASM)
    /* On arm64 the decision is that word for the kernels the provider
     * selects: Crypto Extensions with PMULL and SHA3 (a Neoverse V1). */
    {
        fc_offer_in in;
        const uint32_t caps =
            FC_CAP_ARM_AES | FC_CAP_ARM_PMULL | FC_CAP_ARM_SHA3;

        fc_offer_in_init(&in, caps, fc_tuning_by_name("neoverse-v1"), OSSL_30);
        assert_int_equal(fc_offer_decide(&in),
                         FC_OFFER_GCM | FC_OFFER_CBC | FC_OFFER_CTR);
        fc_offer_in_init(&in, caps & ~FC_CAP_ARM_PMULL,
                         fc_tuning_by_name("neoverse-v1"), OSSL_30);
        assert_int_equal(fc_offer_decide(&in), FC_OFFER_CBC | FC_OFFER_CTR);
        fc_offer_in_init(&in, caps, fc_tuning_by_name("neoverse-n1"), OSSL_30);
        assert_int_equal(fc_offer_decide(&in), 0);
    }
#endif
}

FC_TEST("offer", test_offer_names)
{
    char buf[128];

    assert_int_equal(fc_offer_rsa_bit(16), FC_OFFER_RSA2048);
    assert_int_equal(fc_offer_rsa_bit(24), FC_OFFER_RSA3072);
    assert_int_equal(fc_offer_rsa_bit(32), FC_OFFER_RSA4096);
    assert_int_equal(fc_offer_rsa_bit(8), FC_OFFER_RSAOTHER);
    assert_int_equal(fc_offer_rsa_bit(17), FC_OFFER_RSAOTHER);
    fc_offer_describe(FC_OFFER_ALL, buf, sizeof(buf));
    assert_string_equal(buf, "all");
    fc_offer_describe(0, buf, sizeof(buf));
    assert_string_equal(buf, "none");
    fc_offer_describe(FC_OFFER_GCM | FC_OFFER_DRBG | FC_OFFER_RSA4096, buf,
                      sizeof(buf));
    assert_string_equal(buf, "gcm drbg rsa4096");
}

int main(void)
{
    return fc_test_main(NULL, 0);
}
