/* SPDX-License-Identifier: Apache-2.0 */
/*
 * checks.h - buffers and comparisons every suite uses, and the small
 * reference computations more than one suite needs:
 *   - memory: fc_test_xmalloc, exact-size copies at a misalignment (so
 *     that ASan and valgrind see a read past the end), and guarded output
 *     buffers (fc_guard) that show a write outside what a call may touch;
 *   - comparisons: fc_test_expect_equal fails a test with the first
 *     differing block of both sides;
 *   - the block counts of the differential loops (every count, or in
 *     quick mode the small ones and the edges of the kernels' loops);
 *   - GF(2^128) of SP 800-38D: the reference multiply and GHASH, written
 *     from the specification, slow and obviously right (test only).
 * CMocka's fail_msg reports a failure; no OpenSSL in here.
 */
#ifndef FC_TEST_CHECKS_H
#define FC_TEST_CHECKS_H

#include <stddef.h>
#include <stdint.h>

/* fc_test_xmalloc returns |n| bytes (at least one) or fails the test. */
uint8_t *fc_test_xmalloc(size_t n);

/*
 * fc_test_exact_copy returns a copy of the |len| bytes at |src| in a heap
 * block of exactly |off| + |len| bytes, at offset |off| (a misalignment);
 * free |*base|.
 */
uint8_t *fc_test_exact_copy(const void *src, size_t len, size_t off,
                            uint8_t **base);

/*
 * fc_test_expect_equal fails the test, naming |ctx| and |what|, if the
 * |len| bytes at |got| and |want| differ: it shows the first differing
 * byte and its 16-byte block on both sides.
 */
void fc_test_expect_equal(const char *ctx, const char *what, const void *got,
                          const void *want, size_t len);

/* ---------------------------------------------------------------------- */
/* Guarded buffers                                                        */

#define FC_TEST_FILL 0xa5

/*
 * A buffer of |len| bytes at |p| with |before| and |after| guard bytes
 * around it. fc_guard_new fills it all with FC_TEST_FILL, so that two
 * buffers made alike can be compared whole (fc_guard_whole bytes from
 * |base|); fc_guard_new_random fills it with random bytes and keeps a
 * copy. fc_guard_intact says whether both guards still hold what they
 * were made with; fc_guard_check fails the test, naming |ctx| and the
 * offset, if not.
 */
typedef struct fc_guard {
    uint8_t *base, *p, *copy;
    size_t len, before, after;
} fc_guard;

void fc_guard_new(fc_guard *g, size_t len, size_t before, size_t after);
void fc_guard_new_random(fc_guard *g, size_t len, size_t before, size_t after);
void fc_guard_free(fc_guard *g);
size_t fc_guard_whole(const fc_guard *g);
int fc_guard_intact(const fc_guard *g);
void fc_guard_check(const fc_guard *g, const char *ctx);

/* ---------------------------------------------------------------------- */
/* Block counts                                                           */

/*
 * fc_test_block_counts writes the block counts of a differential loop to
 * |out| (room for max + 1) and returns how many: every count 0..|max|,
 * or with FC_TEST_QUICK 0..40, both sides of 48, 64, 128, 256 and 384
 * (the kernels' 8-, 16- and 32-block loops and their tails) below |max|,
 * and |max|.
 */
size_t fc_test_block_counts(size_t *out, size_t max);

/* ---------------------------------------------------------------------- */
/* GF(2^128) (SP 800-38D)                                                 */

/* fc_test_gf128_mul: z = x * y, SP 800-38D 6.3 Algorithm 1; any aliasing. */
void fc_test_gf128_mul(uint8_t z[16], const uint8_t x[16], const uint8_t y[16]);

/* fc_test_ghash: xi = (xi ^ b) * h for each 16-byte block b of the |len|
 * bytes at |in|, a partial last block zero-padded. */
void fc_test_ghash(const uint8_t h[16], uint8_t xi[16], const uint8_t *in,
                   size_t len);

#endif /* FC_TEST_CHECKS_H */
