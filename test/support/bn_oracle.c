/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_oracle.c - OpenSSL's BIGNUM as the bignum suites' oracle (see
 * bn_oracle.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "bn_oracle.h"
#include "checks.h"
#include "fc/common.h"

/* see bn_oracle.h */
BIGNUM *fc_test_bn_from_limbs(const uint64_t *a, size_t n)
{
    uint8_t *buf = fc_test_xmalloc(8 * n);
    BIGNUM *b;

    for (size_t i = 0; i < n; i++)
        fc_store_le64(buf + 8 * i, a[i]);
    b = BN_lebin2bn(buf, (int)(8 * n), NULL);
    free(buf);
    assert_non_null(b);
    return b;
}

/* see bn_oracle.h */
void fc_test_bn_to_limbs(uint64_t *r, size_t n, const BIGNUM *b)
{
    uint8_t *buf = fc_test_xmalloc(8 * n);

    assert_true(BN_num_bytes(b) <= (int)(8 * n));
    assert_int_equal(BN_bn2lebinpad(b, buf, (int)(8 * n)), (int)(8 * n));
    for (size_t i = 0; i < n; i++)
        r[i] = fc_load_le64(buf + 8 * i);
    free(buf);
}

/* see bn_oracle.h */
void fc_test_expect_limbs(const char *what, const uint64_t *got,
                          const uint64_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s: limb %zu of %zu: got %016llx, want %016llx", what, i,
                     n, (unsigned long long)got[i],
                     (unsigned long long)want[i]);
}

/* see bn_oracle.h */
void fc_test_bn_mod_exp(uint64_t *want, const uint64_t *a, const uint64_t *e,
                        size_t elimbs, const uint64_t *m, size_t n)
{
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *bm = fc_test_bn_from_limbs(m, n), *ba = fc_test_bn_from_limbs(a, n);
    BIGNUM *be = fc_test_bn_from_limbs(e, elimbs), *br = BN_new();

    assert_non_null(ctx);
    assert_non_null(br);
    assert_true(BN_mod_exp(br, ba, be, bm, ctx));
    fc_test_bn_to_limbs(want, n, br);
    BN_free(bm);
    BN_free(ba);
    BN_free(be);
    BN_free(br);
    BN_CTX_free(ctx);
}
