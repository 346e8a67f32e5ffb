/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_families.c - the offer decision pinned over a grid of inputs.
 *
 * For every CPU feature set below (three x86-64 servers and arm64, each
 * under the masks the tests and benchmarks use), every OpenSSL version
 * that moves a decision (3.0, 3.1, 3.6) and every CPU row of fc/tuning.h,
 * the word fc_offer_decide gives for the kernels the provider would select
 * (fc_offer_in_init) must equal the word recorded in offer_grid.h. The
 * table was recorded from the decision as it stood before the families
 * were described by one table (fc/family.h), so a refactor of how the
 * decision is written cannot change what it decides.
 *
 * fc_offer_explain's reasons are checked for form over the grid and
 * pinned where the version, the row and the mask move a decision.
 *
 * FC_FAMILIES_PRINT=1 prints the table the code gives now, in the form
 * of offer_grid.h, instead of testing.
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

/* The development Xeon (AVX-512 with VAES, IFMA and SHA-NI), an AVX2
 * server with VAES (AMD Zen 3, without and with SHA-NI), and arm64. */
#define CAPS_AVX2                                                              \
    (FC_CAP_AESNI | FC_CAP_PCLMUL | FC_CAP_SSSE3 | FC_CAP_SSE41 | FC_CAP_AVX | \
     FC_CAP_AVX2 | FC_CAP_VAES | FC_CAP_VPCLMUL | FC_CAP_BMI2 | FC_CAP_ADX |   \
     FC_CAP_MOVBE)
#define CAPS_XEON (CAPS_AVX2 | FC_CAP_AVX512 | FC_CAP_IFMA | FC_CAP_SHA)
#define CAPS_ARM                                                               \
    (FC_CAP_ARM_AES | FC_CAP_ARM_PMULL | FC_CAP_ARM_SHA3 | FC_CAP_ARM_SHA1 |   \
     FC_CAP_ARM_SHA2)

static const uint32_t fc_grid_bases[] = {
    CAPS_XEON,
    CAPS_AVX2,
    CAPS_AVX2 | FC_CAP_SHA,
    CAPS_ARM,
};

/* FASTCRYPTO_CPU_MASK values: the test matrix's, the benchmarks' stand-in
 * classes, and one per feature a decision or a selection looks at. */
static const char *const fc_grid_masks[] = {
    "",         "vaes",     "avx",
    "all",      "ifma",     "avx512,ifma,vaes,vpclmul",
    "sha",      "adx",      "bmi2",
    "avx512",   "avx2",     "vpclmul",
    "pclmul",   "aesni",    "ssse3",
    "sha,ifma", "vaes,adx",
};

static const unsigned long fc_grid_versions[] = {
    0x30000130UL, /* 3.0.19 */
    0x30100000UL, /* 3.1.0 */
    0x30600030UL, /* 3.6.3 */
};

typedef struct fc_grid_row {
    uint32_t caps;
    const char *row;
    unsigned long version;
    uint32_t offer;
} fc_grid_row;

#include "offer_grid.h"
#include "runner.h"

static uint32_t fc_grid_offer(uint32_t caps, const fc_tuning *t,
                              unsigned long version)
{
    fc_offer_in in;

    fc_offer_in_init(&in, caps, t, version);
    return fc_offer_decide(&in);
}

/* Every distinct masked feature set of the grid, in order. */
static size_t fc_grid_caps(uint32_t *out, size_t max)
{
    size_t n = 0;

    for (size_t b = 0; b < sizeof(fc_grid_bases) / sizeof(*fc_grid_bases); b++)
        for (size_t m = 0; m < sizeof(fc_grid_masks) / sizeof(*fc_grid_masks);
             m++) {
            uint32_t mask = 0, caps;
            size_t k;

            if (!fc_cpu_parse_mask(fc_grid_masks[m], &mask))
                abort();
            caps = fc_cpu_apply_mask(fc_grid_bases[b], mask);
            for (k = 0; k < n && out[k] != caps; k++)
                ;
            if (k == n && n < max)
                out[n++] = caps;
        }
    return n;
}

static void fc_grid_print(void)
{
    uint32_t caps[128];
    const size_t ncaps = fc_grid_caps(caps, 128);
    unsigned nrows;
    const fc_tuning *rows = fc_tuning_rows(&nrows);

    printf("static const fc_grid_row fc_grid[] = {\n");
    for (size_t c = 0; c < ncaps; c++)
        for (size_t v = 0; v < 3; v++)
            for (unsigned r = 0; r < nrows; r++) {
                /* Rows of one name differ in their models only. */
                if (fc_tuning_by_name(rows[r].name) != &rows[r])
                    continue;
                printf("    {0x%05x, \"%s\", 0x%08lx, 0x%03x},\n", caps[c],
                       rows[r].name, fc_grid_versions[v],
                       fc_grid_offer(caps[c], &rows[r], fc_grid_versions[v]));
            }
    printf("};\n");
}

/* The recorded table covers the whole grid, and each of its words is what
 * the decision gives now. */
FC_TEST("families", test_offer_grid)
{
    uint32_t caps[128];
    const size_t ncaps = fc_grid_caps(caps, 128);
    unsigned nrows, named = 0;
    const fc_tuning *rows = fc_tuning_rows(&nrows);
    size_t bad = 0;
    uint32_t offered = 0;

    (void)state;
    /* The table holds the decision over the x86-64 kernels compiled in. */
    if (strcmp(fc_aes_select(CAPS_XEON)->name, "generic") == 0)
        skip();
    for (unsigned r = 0; r < nrows; r++)
        named += fc_tuning_by_name(rows[r].name) == &rows[r];
    assert_int_equal(sizeof(fc_grid) / sizeof(*fc_grid), ncaps * 3 * named);
    for (size_t i = 0; i < sizeof(fc_grid) / sizeof(*fc_grid); i++) {
        const fc_grid_row *g = &fc_grid[i];
        const fc_tuning *t = fc_tuning_by_name(g->row);
        uint32_t o;

        assert_non_null(t);
        o = fc_grid_offer(g->caps, t, g->version);
        if (o != g->offer) {
            fprintf(stderr,
                    "caps 0x%05x row %s openssl 0x%08lx: 0x%03x, "
                    "recorded 0x%03x\n",
                    g->caps, g->row, g->version, o, g->offer);
            bad++;
        }
        offered |= g->offer;
    }
    assert_int_equal(bad, 0);
    /* The grid reaches every family's "yes". */
    assert_int_equal(offered, FC_OFFER_GCM | FC_OFFER_CBC | FC_OFFER_CTR |
                                  FC_OFFER_DRBG | FC_OFFER_CBC_HMAC |
                                  FC_OFFER_RSA2048 | FC_OFFER_RSA3072 |
                                  FC_OFFER_RSA4096);
}

/* The descriptors: one per FC_OFFER_* bit, each name found again by
 * fc_offer_family_bit, fc_offer_describe listing them in table order. */
FC_TEST("families", test_descriptors)
{
    static const char *const names[] = {
        "gcm",     "cbc",     "ctr",     "drbg",      "cbc-hmac",
        "rsa2048", "rsa3072", "rsa4096", "rsa-other",
    };
    size_t n;
    const fc_family *f = fc_families(&n);
    uint32_t seen = 0;
    char buf[128], want[128] = "";

    (void)state;
    assert_int_equal(n, sizeof(names) / sizeof(*names));
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(f[i].name, names[i]);
        assert_int_equal(f[i].bit & (f[i].bit - 1), 0); /* one bit */
        assert_int_equal(seen & f[i].bit, 0);
        seen |= f[i].bit;
        assert_int_equal(fc_offer_family_bit(names[i], strlen(names[i])),
                         f[i].bit);
        assert_ptr_equal(fc_family_named(names[i], strlen(names[i])), &f[i]);
        /* Every family the table may offer is calibrated, and says which
         * provider parameter names its kernel; the RSA sizes their size. */
        if (f[i].offer != NULL) {
            assert_non_null(f[i].workload);
            assert_non_null(f[i].kernel_param);
            assert_int_equal(strncmp(f[i].kernel_param, "fastcrypto-", 11), 0);
        }
        if (strncmp(names[i], "rsa", 3) == 0 && f[i].offer != NULL)
            assert_int_equal(f[i].rsa_bits, strtoul(names[i] + 3, NULL, 10));
        else
            assert_int_equal(f[i].rsa_bits, 0);
        strcat(want, i ? " " : "");
        strcat(want, names[i]);
    }
    assert_int_equal(seen, FC_OFFER_GCM | FC_OFFER_CBC | FC_OFFER_CTR |
                               FC_OFFER_DRBG | FC_OFFER_CBC_HMAC |
                               FC_OFFER_RSA);
    assert_int_equal(fc_offer_family_bit("gcm ", 4), 0);
    assert_int_equal(fc_offer_family_bit("rsa", 3), 0);
    assert_null(fc_family_named("", 0));
    fc_offer_describe(seen, buf, sizeof(buf));
    assert_string_equal(buf, want);
}

/* reason_of EXPLAINED NAME: the reason fc_offer_explain gave NAME. */
static const char *reason_of(const char *ex, const char *name, char *out,
                             size_t len)
{
    const size_t n = strlen(name);

    for (const char *p = ex; p != NULL; p = strchr(p, ',')) {
        p += *p == ',';
        if (strncmp(p, name, n) == 0 && p[n] == ':') {
            const size_t k = strcspn(p + n + 1, ",");

            assert_true(k < len);
            memcpy(out, p + n + 1, k);
            out[k] = '\0';
            return out;
        }
    }
    return NULL;
}

/* fc_offer_explain: every family once, in table order, with a reason of
 * words joined by '_' (no space, comma, colon or parenthesis: buildinfo
 * and fastcrypto-check parse it); and the reasons pinned where the
 * OpenSSL version, the CPU's row and the mask move a decision. */
FC_TEST("families", test_offer_explain)
{
    uint32_t caps[128];
    const size_t ncaps = fc_grid_caps(caps, 128);
    size_t n;
    const fc_family *f = fc_families(&n);
    char ex[512], r[128];
    fc_offer_in in;
    uint32_t vaes = 0;
    static const struct {
        const char *row;
        unsigned long version;
        const char *family, *reason;
    } pinned[] = {
        {"golden-cove", 0x30000130UL, "gcm",
         "ours_vs_default_6-block_xmm_loop"},
        {"golden-cove", 0x30600030UL, "gcm",
         "ours_512-bit_vs_default_AVX-512_GCM"},
        {"skylake-sp", 0x30600030UL, "gcm",
         "default_runs_AVX-512_GCM_from_3.1;_ours_is_narrower"},
        {"golden-cove", 0x30000130UL, "cbc",
         "VAES_16_blocks_vs_default_AES-NI_8"},
        {"golden-cove", 0x30000130UL, "rsa2048", "IFMA_engine_vs_default_IFMA"},
        {"golden-cove", 0x30000130UL, "rsa4096", "IFMA_engine_vs_default_MULX"},
        {"golden-cove", 0x30600030UL, "rsa4096", "IFMA_engine_vs_default_IFMA"},
        {"golden-cove", 0x30000130UL, "cbc-hmac",
         "AES-NI+SHA-NI_stitched_AVX-512"},
        {"golden-cove", 0x30000130UL, "rsa-other", "no_table_rule"},
    };

    (void)state;
    if (strcmp(fc_aes_select(CAPS_XEON)->name, "generic") == 0) {
#if defined(__x86_64__)
        skip(); /* FASTCRYPTO_NO_ASM: the grid's kernels are not here */
#else
        /* Not x86-64: no rule was measured here. */
        fc_offer_in_init(&in, CAPS_ARM, fc_tuning_by_name("default"),
                         0x30000130UL);
        fc_offer_explain(&in, ex, sizeof(ex));
        assert_non_null(reason_of(ex, "gcm", r, sizeof(r)));
        assert_string_equal(r, "not_measured_on_this_architecture");
        return;
#endif
    }
    for (size_t c = 0; c < ncaps; c++)
        for (size_t v = 0; v < 3; v++) {
            const char *p = ex;

            fc_offer_in_init(&in, caps[c], fc_tuning_by_name("golden-cove"),
                             fc_grid_versions[v]);
            fc_offer_explain(&in, ex, sizeof(ex));
            for (size_t i = 0; i < n; i++) {
                const size_t k = strlen(f[i].name);

                assert_int_equal(strncmp(p, f[i].name, k), 0);
                assert_int_equal(p[k], ':');
                p += k + 1;
                assert_true(strcspn(p, ",") > 0);
                for (; *p != '\0' && *p != ','; p++)
                    assert_null(strchr(" :()", *p));
                p += *p == ',';
            }
            assert_int_equal(*p, '\0');
        }
    for (size_t i = 0; i < sizeof(pinned) / sizeof(*pinned); i++) {
        fc_offer_in_init(&in, CAPS_XEON, fc_tuning_by_name(pinned[i].row),
                         pinned[i].version);
        fc_offer_explain(&in, ex, sizeof(ex));
        assert_non_null(reason_of(ex, pinned[i].family, r, sizeof(r)));
        assert_string_equal(r, pinned[i].reason);
    }
    /* Masks: VAES hidden, then AES-NI and SHA-NI hidden. */
    assert_true(fc_cpu_parse_mask("vaes", &vaes));
    fc_offer_in_init(&in, fc_cpu_apply_mask(CAPS_XEON, vaes),
                     fc_tuning_by_name("golden-cove"), 0x30000130UL);
    fc_offer_explain(&in, ex, sizeof(ex));
    assert_string_equal(reason_of(ex, "cbc", r, sizeof(r)),
                        "AES-NI_alone_ties_default;_needs_VAES");
    /* AVX-512 hidden: the xmm stitch, measured 0.99x opening records. */
    assert_true(fc_cpu_parse_mask("avx512", &vaes));
    fc_offer_in_init(&in, fc_cpu_apply_mask(CAPS_XEON, vaes),
                     fc_tuning_by_name("golden-cove"), 0x30000130UL);
    fc_offer_explain(&in, ex, sizeof(ex));
    assert_string_equal(
        reason_of(ex, "cbc-hmac", r, sizeof(r)),
        "xmm_stitch_measured_0.99x_opening_records;_needs_AVX-512");
    assert_int_equal(fc_offer_decide(&in) & FC_OFFER_CBC_HMAC, 0);
    fc_offer_in_init(&in, CAPS_AVX2, fc_tuning_by_name("zen3"), 0x30000130UL);
    fc_offer_explain(&in, ex, sizeof(ex));
    assert_string_equal(reason_of(ex, "cbc-hmac", r, sizeof(r)),
                        "no_SHA-NI;_default_AVX2_is_faster");
}

int main(void)
{
    const char *print = getenv("FC_FAMILIES_PRINT");

    if (print != NULL && strcmp(print, "1") == 0) {
        fc_grid_print();
        return 0;
    }
    return fc_test_main(NULL, 0);
}
