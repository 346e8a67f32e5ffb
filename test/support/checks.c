/* SPDX-License-Identifier: Apache-2.0 */
/*
 * checks.c - buffers, comparisons, block counts and the GF(2^128)
 * reference of the tests (see checks.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "checks.h"
#include "fc/common.h"
#include "impls.h"

/* see checks.h */
uint8_t *fc_test_xmalloc(size_t n)
{
    uint8_t *p = malloc(n == 0 ? 1 : n);

    if (p == NULL)
        fail_msg("out of memory (%zu bytes)", n);
    return p;
}

/* see checks.h */
uint8_t *fc_test_exact_copy(const void *src, size_t len, size_t off,
                            uint8_t **base)
{
    *base = fc_test_xmalloc(off + len);
    if (len > 0)
        memcpy(*base + off, src, len);
    return *base + off;
}

/* see checks.h */
void fc_test_expect_equal(const char *ctx, const char *what, const void *got,
                          const void *want, size_t len)
{
    const uint8_t *g = got, *w = want;
    char h1[70], h2[70];

    for (size_t i = 0; i < len; i++) {
        if (g[i] != w[i]) {
            size_t b = i & ~(size_t)15;
            size_t n = len - b < 16 ? len - b : 16;

            fail_msg("%s: %s differs at byte %zu (block %zu)\n"
                     "   got  %s\n   want %s",
                     ctx, what, i, i / 16,
                     fc_test_hex(h1, sizeof(h1), g + b, n),
                     fc_test_hex(h2, sizeof(h2), w + b, n));
        }
    }
}

/* ---------------------------------------------------------------------- */
/* Guarded buffers                                                        */

static void fc_guard_alloc(fc_guard *g, size_t len, size_t before, size_t after)
{
    g->len = len;
    g->before = before;
    g->after = after;
    g->base = fc_test_xmalloc(before + len + after);
    g->p = g->base + before;
    g->copy = NULL;
}

/* see checks.h */
void fc_guard_new(fc_guard *g, size_t len, size_t before, size_t after)
{
    fc_guard_alloc(g, len, before, after);
    memset(g->base, FC_TEST_FILL, fc_guard_whole(g));
}

/* see checks.h */
void fc_guard_new_random(fc_guard *g, size_t len, size_t before, size_t after)
{
    fc_guard_alloc(g, len, before, after);
    fc_test_rand_bytes(g->base, fc_guard_whole(g));
    g->copy = fc_test_xmalloc(fc_guard_whole(g));
    memcpy(g->copy, g->base, fc_guard_whole(g));
}

/* see checks.h */
void fc_guard_free(fc_guard *g)
{
    free(g->base);
    free(g->copy);
    g->base = g->p = g->copy = NULL;
}

/* see checks.h */
size_t fc_guard_whole(const fc_guard *g)
{
    return g->before + g->len + g->after;
}

/* The byte a guard at |i| bytes from |base| was made with. */
static uint8_t fc_guard_was(const fc_guard *g, size_t i)
{
    return g->copy != NULL ? g->copy[i] : FC_TEST_FILL;
}

/* The offset of the first changed guard byte from |p|, through |*at|. */
static int fc_guard_changed(const fc_guard *g, long long *at)
{
    for (size_t i = 0; i < g->before; i++)
        if (g->base[i] != fc_guard_was(g, i)) {
            *at = (long long)i - (long long)g->before;
            return 1;
        }
    for (size_t i = 0; i < g->after; i++) {
        size_t j = g->before + g->len + i;

        if (g->base[j] != fc_guard_was(g, j)) {
            *at = (long long)(g->len + i);
            return 1;
        }
    }
    return 0;
}

/* see checks.h */
int fc_guard_intact(const fc_guard *g)
{
    long long at;

    return !fc_guard_changed(g, &at);
}

/* see checks.h */
void fc_guard_check(const fc_guard *g, const char *ctx)
{
    long long at;

    if (fc_guard_changed(g, &at))
        fail_msg("%s: wrote outside the output buffer, at offset %lld", ctx,
                 at);
}

/* ---------------------------------------------------------------------- */
/* Block counts                                                           */

/* see checks.h */
size_t fc_test_block_counts(size_t *out, size_t max)
{
    static const size_t edges[] = {48, 64, 128, 256, 384};
    size_t n = 0;

    if (!fc_test_quick()) {
        for (size_t c = 0; c <= max; c++)
            out[n++] = c;
        return n;
    }
    for (size_t c = 0; c <= 40 && c <= max; c++)
        out[n++] = c;
    for (size_t i = 0; i < FC_ARRAY_LEN(edges); i++)
        for (size_t c = edges[i] - 1; c <= edges[i] + 1; c++)
            if (c > 40 && c < max)
                out[n++] = c;
    if (max > 40)
        out[n++] = max;
    return n;
}

/* ---------------------------------------------------------------------- */
/* GF(2^128)                                                              */

/* see checks.h */
void fc_test_gf128_mul(uint8_t z[16], const uint8_t x[16], const uint8_t y[16])
{
    uint64_t zh = 0, zl = 0;
    uint64_t vh = fc_load_be64(y), vl = fc_load_be64(y + 8);

    for (int i = 0; i < 128; i++) {
        uint64_t lsb;

        if ((x[i / 8] >> (7 - i % 8)) & 1) {
            zh ^= vh;
            zl ^= vl;
        }
        lsb = vl & 1;
        vl = (vl >> 1) | (vh << 63);
        vh >>= 1;
        if (lsb)
            vh ^= UINT64_C(0xe1) << 56;
    }
    fc_store_be64(z, zh);
    fc_store_be64(z + 8, zl);
}

/* see checks.h */
void fc_test_ghash(const uint8_t h[16], uint8_t xi[16], const uint8_t *in,
                   size_t len)
{
    for (size_t off = 0; off < len; off += 16) {
        uint8_t t[16];

        memcpy(t, xi, 16);
        for (size_t j = 0; j < 16 && off + j < len; j++)
            t[j] ^= in[off + j];
        fc_test_gf128_mul(xi, t, h);
    }
}
