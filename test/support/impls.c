/* SPDX-License-Identifier: Apache-2.0 */
/*
 * impls.c - masked CPU features, implementation loops with visible skips,
 * and the tests' reproducible random source (see impls.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fc/cpu.h"
#include "fc/rsa_engine.h"
#include "fc/tuning.h"
#include "impls.h"

/* see impls.h */
uint32_t fc_test_caps(void)
{
    const char *spec = getenv(FC_CPU_MASK_ENV);
    uint32_t mask = 0;

    /* Parsed on every call (it is cheap) so a test may change the
     * environment and see the effect. */
    if (spec != NULL && !fc_cpu_parse_mask(spec, &mask))
        fail_msg("%s=\"%s\" does not parse", FC_CPU_MASK_ENV, spec);
    return fc_cpu_apply_mask(fc_cpu_detect(), mask);
}

/* see impls.h */
const fc_tuning *fc_test_tuning(void)
{
    const char *cls = getenv(FC_CPU_CLASS_ENV);
    fc_cpu_id id;

    if (cls != NULL && *cls != '\0') {
        const fc_tuning *row = fc_tuning_by_name(cls);

        if (row == NULL)
            fail_msg("%s=\"%s\" names no row", FC_CPU_CLASS_ENV, cls);
        return row;
    }
    id = fc_cpu_identify();
    return fc_tuning_for(&id);
}

/* see impls.h */
const fc_rsa_engines *fc_test_rsa_engines(void)
{
    static fc_rsa_engines list;

    fc_rsa_engines_init(&list, fc_test_caps(), fc_test_tuning()->rsa_order);
    return &list;
}

/* see impls.h */
const fc_bn_ops *fc_test_bn_kernels(size_t n)
{
    const fc_bn_ops *k = fc_rsa_kernels_for(fc_test_rsa_engines(), n);

    assert_non_null(k);
    return k;
}

/* see impls.h */
const fc_bn_ops *const *fc_test_bn_impls(size_t *count)
{
    static const fc_bn_ops *tab[FC_RSA_MAX_ENGINES];
    size_t ne, k = 0;
    const fc_rsa_engine *const *e = fc_rsa_engine_impls(&ne);

    for (size_t i = 0; i < ne; i++)
        if (e[i]->kernels != NULL)
            tab[k++] = e[i]->kernels;
    *count = k;
    return tab;
}

/* see impls.h */
int fc_test_impl_usable(const char *family, const char *name,
                        uint32_t required_caps)
{
    uint32_t caps = fc_test_caps();
    uint32_t missing = required_caps & ~caps;
    char desc[256];

    if (missing == 0)
        return 1;
    fc_cpu_caps_describe(missing, desc, sizeof(desc));
    /* Say whether the mask or the silicon is the reason: a masked run that
     * skips a table is expected, an unmasked one tells the reader about the
     * machine. */
    print_message(
        "[  SKIPPED ] %s impl %s: CPU lacks %s%s\n", family, name, desc,
        (missing & ~fc_cpu_detect()) == 0 ? " (masked by " FC_CPU_MASK_ENV ")"
                                          : "");
    return 0;
}

/* The pages of a guarded mapping: the data's, rounded up, and the guard. */
static size_t fc_test_guard_span(size_t len, size_t *page)
{
    *page = (size_t)sysconf(_SC_PAGESIZE);
    return (len + *page - 1) / *page * *page + *page;
}

/* see impls.h */
uint8_t *fc_test_guarded(size_t len, int after)
{
    size_t page, span = fc_test_guard_span(len, &page);
    uint8_t *m = mmap(NULL, span, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    uint8_t *p;

    assert_true(m != MAP_FAILED);
    if (after) {
        assert_int_equal(mprotect(m + span - page, page, PROT_NONE), 0);
        p = m + span - page - len;
    } else {
        assert_int_equal(mprotect(m, page, PROT_NONE), 0);
        p = m + page;
    }
    fc_test_rand_bytes(p, len);
    return p;
}

/* see impls.h */
void fc_test_guarded_free(uint8_t *p, size_t len, int after)
{
    size_t page, span = fc_test_guard_span(len, &page);
    uint8_t *m = after ? p + len + page - span : p - page;

    assert_int_equal(munmap(m, span), 0);
}

/* see impls.h */
const fc_aes_ops *fc_test_aes_generic(void)
{
    size_t n;
    const fc_aes_ops *const *tab = fc_aes_impls(&n);

    assert_true(n > 0);
    assert_true(fc_test_aes_is_generic(tab[n - 1]));
    return tab[n - 1];
}

/* see impls.h */
int fc_test_aes_is_generic(const fc_aes_ops *ops)
{
    return ops->set_enc_key == fc_aes_set_enc_key_generic &&
           ops->cbc_dec == fc_aes_cbc_dec_generic;
}

/* see impls.h */
int fc_test_quick(void)
{
    const char *q = getenv("FC_TEST_QUICK");
    return q != NULL && q[0] != '\0' && strcmp(q, "0") != 0;
}

static uint64_t fc_test_state, fc_test_seed_v;
static int fc_test_seeded;
static const char *fc_test_cur = "";

static void fc_test_seed(void)
{
    const char *s = getenv("FC_TEST_SEED");
    uint64_t seed;

    if (s != NULL && s[0] != '\0') {
        seed = strtoull(s, NULL, 0);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec;
    }
    fc_test_state = fc_test_seed_v = seed;
    fc_test_seeded = 1;
    print_message("[ SEED     ] FC_TEST_SEED=%llu\n", (unsigned long long)seed);
}

/* see impls.h */
uint64_t fc_test_rand64(void)
{
    uint64_t z;

    if (!fc_test_seeded)
        fc_test_seed();
    /* splitmix64: full period, good enough bits for test data. */
    z = (fc_test_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* see impls.h */
uint64_t fc_test_seed_value(void)
{
    if (!fc_test_seeded)
        fc_test_seed();
    return fc_test_seed_v;
}

/* see impls.h */
void fc_test_rand_start(const char *name)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */

    for (const char *t = name; *t != '\0'; t++)
        h = (h ^ (uint8_t)*t) * 1099511628211ull;
    fc_test_state = fc_test_seed_value() ^ h;
    fc_test_cur = name;
}

/* see impls.h */
const char *fc_test_name(void)
{
    return fc_test_cur;
}

/* see impls.h */
void fc_test_rand_bytes(void *p, size_t len)
{
    uint8_t *b = p;
    while (len > 0) {
        uint64_t r = fc_test_rand64();
        size_t n = len < 8 ? len : 8;
        memcpy(b, &r, n);
        b += n;
        len -= n;
    }
}

/* see impls.h */
size_t fc_test_rand_below(size_t n)
{
    return n == 0 ? 0 : (size_t)(fc_test_rand64() % n);
}

/* see impls.h */
const char *fc_test_hex(char *buf, size_t buflen, const void *p, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    const uint8_t *b = p;
    size_t i, o = 0;

    if (buflen == 0)
        return buf;
    for (i = 0; i < len && o + 3 < buflen; i++) {
        buf[o++] = digits[b[i] >> 4];
        buf[o++] = digits[b[i] & 15];
    }
    if (i < len && buflen >= 4) {
        o = o > buflen - 4 ? buflen - 4 : o;
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}
