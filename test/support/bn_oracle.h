/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_oracle.h - OpenSSL's BIGNUM as the oracle of the bignum suites
 * (test_bn_mont, test_bn_exp2): conversions between our little-endian
 * 64-bit limbs and BIGNUMs, a limb-by-limb comparison, and a modular
 * exponentiation on limbs. Test only; for binaries that link OpenSSL.
 */
#ifndef FC_TEST_BN_ORACLE_H
#define FC_TEST_BN_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>

/* fc_test_bn_from_limbs returns a new BIGNUM of the |n| limbs at |a|
 * (least significant first); fails the test if out of memory. */
BIGNUM *fc_test_bn_from_limbs(const uint64_t *a, size_t n);

/* fc_test_bn_to_limbs writes |b| to |n| limbs at |r|, zero-padded; fails
 * the test if it does not fit. */
void fc_test_bn_to_limbs(uint64_t *r, size_t n, const BIGNUM *b);

/* fc_test_expect_limbs fails the test, naming |what|, at the first of
 * |n| limbs where |got| and |want| differ. */
void fc_test_expect_limbs(const char *what, const uint64_t *got,
                          const uint64_t *want, size_t n);

/* fc_test_bn_mod_exp sets |want| (n limbs) to a^e mod m by BN_mod_exp;
 * |a| and |m| have n limbs, |e| elimbs. */
void fc_test_bn_mod_exp(uint64_t *want, const uint64_t *a, const uint64_t *e,
                        size_t elimbs, const uint64_t *m, size_t n);

#endif /* FC_TEST_BN_ORACLE_H */
