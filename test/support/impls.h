/* SPDX-License-Identifier: Apache-2.0 */
/*
 * impls.h - what the tests need to run every implementation table the
 * machine supports: the masked CPU features, a loop over any family of
 * tables with visible skips, and a reproducible random source.
 *
 * Any table type with a `const char *name` and a `uint32_t required_caps`
 * member works with FC_TEST_FOREACH_IMPL: every kernel table of include/fc/ has
 * them (fc_aes_ops, fc_gcm_ops, fc_bn_ops, fc_bn_exp2_ops). For example:
 *
 *   size_t n;
 *   const fc_aes_ops *const *tab = fc_aes_impls(&n);
 *   const fc_aes_ops *ops;
 *   FC_TEST_FOREACH_IMPL("aes", tab, n, ops) {
 *       ... runs for each table whose required_caps are in fc_test_caps();
 *       ... prints "[  SKIPPED ] aes impl vaes-avx2: CPU lacks vaes" for
 *       ... each other one.
 *   }
 *
 * Environment:
 *   FASTCRYPTO_CPU_MASK  features to switch off (fc_cpu_parse_mask syntax),
 *                        so one machine exercises every table.
 *   FASTCRYPTO_CPU_CLASS a per-CPU row whose choices apply (fc/tuning.h),
 *                        e.g. "zen3" or "default" to reorder the RSA
 *                        engines (fc_test_rsa_engines).
 *   FC_TEST_QUICK=1      tests shrink their loops (valgrind, CI matrices).
 *   FC_TEST_SEED=<n>     fixes the random seed (printed at first use);
 *                        the seed a failure reports replays it.
 */
#ifndef FC_TEST_IMPLS_H
#define FC_TEST_IMPLS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fc/aes.h"

/*
 * fc_test_caps returns fc_cpu_detect() with FASTCRYPTO_CPU_MASK applied
 * through fc_cpu_apply_mask. An unparsable mask fails the test: a typo must
 * not silently test the full-feature path.
 */
uint32_t fc_test_caps(void);

struct fc_tuning;

/*
 * fc_test_tuning returns the per-CPU row the provider would use: the one
 * FASTCRYPTO_CPU_CLASS names if set (an unknown name fails the test),
 * else the row fc/tuning.h gives this CPU. For the selection functions
 * that take a row (fc_gcm_select, fc_rsa_engines_init).
 */
const struct fc_tuning *fc_test_tuning(void);

/*
 * fc_test_rsa_engines returns the RSA engine list the provider would make
 * (fc_rsa_engines_init with fc_test_caps() and fc_test_tuning()'s order:
 * e.g. FASTCRYPTO_CPU_CLASS=zen3 puts the AVX2 engine ahead of MULX). The
 * list is rebuilt on each call, in static storage.
 */
const struct fc_rsa_engines *fc_test_rsa_engines(void);

/* fc_test_bn_kernels returns the Montgomery kernels that list picks for n
 * limbs (fc_rsa_kernels_for). */
const struct fc_bn_ops *fc_test_bn_kernels(size_t n);

/* fc_test_bn_impls lists every kernel table compiled in (the engines'
 * tables in the engine table's order, generic last); |*count| gets their
 * number. */
const struct fc_bn_ops *const *fc_test_bn_impls(size_t *count);

/*
 * fc_test_impl_usable returns 1 if a table needing |required_caps| can run
 * under fc_test_caps(). Otherwise it prints
 * "[  SKIPPED ] <family> impl <name>: CPU lacks <features>" (adding
 * "(masked)" when FASTCRYPTO_CPU_MASK removed them) and returns 0.
 */
int fc_test_impl_usable(const char *family, const char *name,
                        uint32_t required_caps);

/*
 * FC_TEST_FOREACH_IMPL(family, tables, count, var) runs the statement that
 * follows once per usable entry of the table-pointer array |tables|, with
 * |var| pointing to it, and reports the others as skipped. Works for any
 * table type with |name| and |required_caps| members.
 */
#define FC_TEST_CAT2_(a, b) a##b
#define FC_TEST_CAT_(a, b)  FC_TEST_CAT2_(a, b)
#define FC_TEST_FOREACH_IMPL(family, tables, count, var)                       \
    for (size_t FC_TEST_CAT_(fc_i_, __LINE__) = 0;                             \
         FC_TEST_CAT_(fc_i_, __LINE__) < (count);                              \
         FC_TEST_CAT_(fc_i_, __LINE__)++)                                      \
        if (((var) = (tables)[FC_TEST_CAT_(fc_i_, __LINE__)]),                 \
            !fc_test_impl_usable((family), (var)->name,                        \
                                 (var)->required_caps)) {                      \
        } else

/* FC_TEST_FIND_IMPL(tables, count, name, var) sets |var| to the entry of
 * the table-pointer array |tables| called |name|, whatever the CPU, or
 * NULL. */
#define FC_TEST_FIND_IMPL(tables, count, nm, var)                              \
    do {                                                                       \
        (var) = NULL;                                                          \
        for (size_t fc_j_ = 0; fc_j_ < (count); fc_j_++)                       \
            if (strcmp((tables)[fc_j_]->name, (nm)) == 0)                      \
                (var) = (tables)[fc_j_];                                       \
    } while (0)

/*
 * fc_test_guarded maps |len| bytes against an inaccessible page: ending
 * exactly where that page starts (after = 1) or starting exactly where it
 * ends (after = 0), so an access one byte past the end (or before the
 * start) faults. The bytes are random. Assembly kernels are checked this
 * way for over-reads that ASan does not instrument and valgrind cannot
 * run (it has no AVX-512). Release with fc_test_guarded_free(p, len,
 * after).
 */
uint8_t *fc_test_guarded(size_t len, int after);
void fc_test_guarded_free(uint8_t *p, size_t len, int after);

/* fc_test_aes_generic returns the portable AES table (the last entry of
 * fc_aes_impls), the oracle of the differential tests. */
const fc_aes_ops *fc_test_aes_generic(void);

/* fc_test_aes_is_generic returns 1 if |ops| runs the portable C kernels
 * (checked by function pointer, not by name). */
int fc_test_aes_is_generic(const fc_aes_ops *ops);

/* fc_test_quick returns 1 if FC_TEST_QUICK is set to a non-empty value
 * other than "0". */
int fc_test_quick(void);

/*
 * fc_test_rand64 returns the next value of a deterministic 64-bit generator
 * (splitmix64). The seed comes from FC_TEST_SEED or the clock and is printed
 * once, so a failing run can be replayed. Not for keys outside tests.
 */
uint64_t fc_test_rand64(void);

/*
 * fc_test_rand_start restarts the generator on a stream that depends only
 * on the seed and |name| (a test's name), so a test run alone, or in
 * another group, draws what it drew in the whole suite; |name| is kept
 * for fc_test_name.
 */
void fc_test_rand_start(const char *name);

/* fc_test_name returns the name last given to fc_test_rand_start, or "". */
const char *fc_test_name(void);

/* fc_test_seed_value returns the seed (choosing it first if need be). */
uint64_t fc_test_seed_value(void);

/* fc_test_rand_bytes fills |len| bytes at |p| from fc_test_rand64. */
void fc_test_rand_bytes(void *p, size_t len);

/* fc_test_rand_below returns a value in [0, n), or 0 for n == 0 (slightly
 * biased; fine for picking test sizes). */
size_t fc_test_rand_below(size_t n);

/* fc_test_hex formats |len| bytes of |p| as hex into |buf| (at most
 * |buflen| bytes, NUL-terminated, truncated with "..."), returning |buf|;
 * for failure messages. */
const char *fc_test_hex(char *buf, size_t buflen, const void *p, size_t len);

#endif /* FC_TEST_IMPLS_H */
