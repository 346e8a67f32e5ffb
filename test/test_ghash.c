/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ghash.c - the GHASH kernels (init and ghash of every GCM table,
 * fc_gcm_impls) against a bit-by-bit multiply written here from SP 800-38D
 * 6.3, Algorithm 1.
 *
 * Groups:
 *   ghash_kat   the reference multiply and every table against the
 *               intermediate values of the McGrew-Viega GCM test cases
 *               (test/kat/ghash.txt), one block per call and all at once;
 *               H = E(K, 0^128) through each table's AES;
 *   ghash_diff  random H, start state and input at every block count
 *               0..3*8*16+15 (the 8-, 16- and 32-block loops and every
 *               tail), whole and split into two calls, plus the special
 *               keys H = 0, 1, x^127 and all-ones;
 *   ghash_abi   the assembly init and ghash entry points through the
 *               calling-convention trampoline (test/support/abi_check.h)
 *               at block counts {0,1,7,8,9,15,16,17,24,31,32,33,48,63,
 *               64,65,95,96,97};
 *   ghash_edge  zero blocks, init writing only its FC_GCM_HTABLE_BYTES,
 *               ghash leaving the table and the input alone, input and
 *               table against inaccessible pages (the over-read check of
 *               assembly, which valgrind cannot run for AVX-512), and a
 *               run with H and data marked secret for the valgrind
 *               constant-time build.
 *
 * The reference works on the byte strings as SP 800-38D writes them, so it
 * shares nothing with the kernels' reflected representations. Every input
 * is an exact-size heap copy at a random misalignment, so a kernel reading
 * past its blocks is caught by ASan or valgrind.
 *
 * FC_TEST_QUICK=1 shrinks the block counts (0..40 plus the boundaries of
 * the 8-, 16- and 32-block loops up to 399); FC_TEST_SEED replays a run;
 * FASTCRYPTO_CPU_MASK switches tables off.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "abi_check.h"
#include "fc/common.h"
#include "fc/ct.h"
#include "fc/gcm.h"
#include "checks.h"
#include "impls.h"
#include "kat.h"
#include "runner.h"

/* 3 * 8 * 16 + 15: three times the widest loop's group, plus every tail. */
#define MAX_BLOCKS (3 * 8 * 16 + 15)
#define GUARD      64

/* ---- helpers ---------------------------------------------------------- */

static const fc_gcm_ops *const *impls(size_t *n)
{
    return fc_gcm_impls(n);
}

static int is_generic(const fc_gcm_ops *ops)
{
    return ops->ghash == fc_ghash_generic;
}

/* An htable with GUARD random bytes after it, aligned as in fc_gcm_key. */
typedef struct {
    FC_ALIGN(32) uint8_t t[FC_GCM_HTABLE_BYTES];
    uint8_t guard[GUARD];
} htab;

/* Fills |ht| from |h| with |ops| on dirty memory, and checks that init
 * wrote nothing past FC_GCM_HTABLE_BYTES. */
static void init_table(const fc_gcm_ops *ops, htab *ht, const uint8_t h[16])
{
    uint8_t guard[GUARD];
    fc_test_rand_bytes(ht, sizeof(*ht));
    memcpy(guard, ht->guard, GUARD);
    ops->init(ht->t, h);
    fc_test_expect_equal(ops->name, "bytes past the htable (init wrote them)",
                         ht->guard, guard, GUARD);
}

/*
 * check_ghash runs |ops| from start state |xi0| over |blocks| blocks of
 * |in| with key |h|: in one call and split into two at a random block.
 * Each must give |want|; neither may change the input or the table.
 */
static void check_ghash(const char *what, const fc_gcm_ops *ops,
                        const uint8_t h[16], const uint8_t xi0[16],
                        const uint8_t *in, size_t blocks,
                        const uint8_t want[16])
{
    htab *ht = malloc(sizeof(*ht));
    uint8_t *copy = malloc(FC_GCM_HTABLE_BYTES), *inbase, *inp, xi[16];
    char ctx[200];

    assert_non_null(ht);
    assert_non_null(copy);
    init_table(ops, ht, h);
    memcpy(copy, ht->t, FC_GCM_HTABLE_BYTES);
    inp = fc_test_exact_copy(in, 16 * blocks, fc_test_rand_below(16), &inbase);

    snprintf(ctx, sizeof(ctx), "%s: %s ghash, %zu blocks, one call", what,
             ops->name, blocks);
    memcpy(xi, xi0, 16);
    ops->ghash(ht->t, xi, inp, blocks);
    fc_test_expect_equal(ctx, "xi", xi, want, 16);
    fc_test_expect_equal(ctx, "input (must not change)", inp, in, 16 * blocks);
    fc_test_expect_equal(ctx, "htable (must not change)", ht->t, copy,
                         FC_GCM_HTABLE_BYTES);

    if (blocks >= 2) {
        size_t first = 1 + fc_test_rand_below(blocks - 1);
        snprintf(ctx, sizeof(ctx), "%s: %s ghash, %zu blocks as %zu + %zu",
                 what, ops->name, blocks, first, blocks - first);
        memcpy(xi, xi0, 16);
        ops->ghash(ht->t, xi, inp, first);
        ops->ghash(ht->t, xi, inp + 16 * first, blocks - first);
        fc_test_expect_equal(ctx, "xi", xi, want, 16);
    }
    free(inbase);
    free(copy);
    free(ht);
}

/* ---- KAT -------------------------------------------------------------- */

static const char *const kat_fields[] = {"Key", "H", "Input", "Steps", NULL};

/* The reference against the spec's intermediate values: if this fails,
 * the oracle of every other test is wrong. */
FC_TEST("ghash_kat", test_ref_kat)
{
    fc_kat *k = fc_kat_open("ghash.txt");
    size_t count = 0;

    while (fc_kat_next(k)) {
        size_t hl, il, sl;
        const uint8_t *h = fc_kat_bytes(k, "H", &hl);
        const uint8_t *in = fc_kat_bytes(k, "Input", &il);
        const uint8_t *steps = fc_kat_bytes(k, "Steps", &sl);
        uint8_t xi[16] = {0};

        fc_kat_check_fields(k, kat_fields);
        if (hl != 16 || il % 16 != 0 || il != sl || il == 0)
            fc_kat_fail(k, "lengths H %zu, Input %zu, Steps %zu", hl, il, sl);
        for (size_t i = 0; i < il / 16; i++) {
            fc_test_ghash(h, xi, in + 16 * i, 16);
            if (memcmp(xi, steps + 16 * i, 16) != 0)
                fc_kat_fail(k, "reference multiply: step %zu differs", i + 1);
        }
        count++;
    }
    fc_kat_close(k);
    assert_int_equal(count, 11);
}

FC_TEST("ghash_kat", test_kat)
{
    size_t n, ran = 0;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        fc_kat *k = fc_kat_open("ghash.txt");
        size_t count = 0;
        htab *ht = malloc(sizeof(*ht));

        assert_non_null(ht);
        while (fc_kat_next(k)) {
            size_t kl, hl, il, sl;
            const uint8_t *key = fc_kat_bytes(k, "Key", &kl);
            const uint8_t *h = fc_kat_bytes(k, "H", &hl);
            const uint8_t *in = fc_kat_bytes(k, "Input", &il);
            const uint8_t *steps = fc_kat_bytes(k, "Steps", &sl);
            const size_t blocks = il / 16;
            uint8_t xi[16] = {0}, h2[16] = {0};
            char ctx[200];
            fc_aes_key ak;

            snprintf(ctx, sizeof(ctx), "%s: %s", fc_kat_where(k), ops->name);
            /* H = E(K, 0^128) through the table's own AES. */
            ops->aes->set_enc_key(&ak, key, kl);
            ops->aes->ecb_enc(&ak, h2, h2, 1);
            fc_test_expect_equal(ctx, "H = E(K, 0)", h2, h, hl);

            init_table(ops, ht, h);
            for (size_t i = 0; i < blocks; i++) {
                char what[40];
                snprintf(what, sizeof(what), "state after block %zu", i + 1);
                ops->ghash(ht->t, xi, in + 16 * i, 1);
                fc_test_expect_equal(ctx, what, xi, steps + 16 * i, 16);
            }
            memset(xi, 0, 16);
            ops->ghash(ht->t, xi, in, blocks);
            fc_test_expect_equal(ctx, "GHASH in one call", xi,
                                 steps + 16 * (blocks - 1), 16);
            /* Resuming from each intermediate value. */
            for (size_t i = 1; i < blocks; i++) {
                memcpy(xi, steps + 16 * (i - 1), 16);
                ops->ghash(ht->t, xi, in + 16 * i, blocks - i);
                fc_test_expect_equal(ctx, "GHASH resumed from a step", xi,
                                     steps + 16 * (blocks - 1), 16);
            }
            count++;
        }
        fc_kat_close(k);
        free(ht);
        assert_int_equal(count, 11);
        ran++;
    }
    assert_true(ran >= 1);
}

/* ---- differential ----------------------------------------------------- */

/* Every table against the reference at every block count, random H. */
FC_TEST("ghash_diff", test_diff_random)
{
    static size_t counts[MAX_BLOCKS + 1];
    static uint8_t in[16 * MAX_BLOCKS];
    size_t n, ncounts = fc_test_block_counts(counts, MAX_BLOCKS);
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    for (size_t c = 0; c < ncounts; c++) {
        const size_t blocks = counts[c];
        uint8_t h[16], xi0[16], want[16];

        fc_test_rand_bytes(h, 16);
        fc_test_rand_bytes(xi0, 16);
        fc_test_rand_bytes(in, 16 * blocks);
        memcpy(want, xi0, 16);
        fc_test_ghash(h, want, in, 16 * blocks);
        FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
        {
            check_ghash("random H", ops, h, xi0, in, blocks, want);
        }
    }
}

/*
 * Keys at the edges of the field: 0, 1 (byte string 80 00..00: the
 * polynomial 1, so GHASH is the XOR of the blocks), x^127 (00..00 01: every
 * product needs the reduction), all-ones; and the same blocks with xi = 0
 * and all-ones inputs.
 */
FC_TEST("ghash_diff", test_diff_special)
{
    static const size_t counts[] = {0,  1,  2,  3,  7,  8,  9,   15,  16,
                                    17, 24, 31, 32, 33, 48, 127, 128, 399};
    static uint8_t in[16 * MAX_BLOCKS];
    uint8_t keys[5][16];
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    memset(keys, 0, sizeof(keys));
    keys[1][0] = 0x80;
    keys[2][15] = 0x01;
    memset(keys[3], 0xff, 16);
    fc_test_rand_bytes(keys[4], 16);
    keys[4][15] |= 1; /* random, with the x^127 coefficient set */

    for (size_t kidx = 0; kidx < FC_ARRAY_LEN(keys); kidx++) {
        for (size_t c = 0; c < FC_ARRAY_LEN(counts); c++) {
            for (int fill = 0; fill < 3; fill++) {
                const size_t blocks = counts[c];
                uint8_t xi0[16], want[16];
                char what[64];

                /* Random; all-ones input and state; zero state. */
                fc_test_rand_bytes(xi0, 16);
                fc_test_rand_bytes(in, 16 * blocks);
                if (fill == 1) {
                    memset(xi0, 0xff, 16);
                    memset(in, 0xff, 16 * blocks);
                } else if (fill == 2) {
                    memset(xi0, 0, 16);
                }
                memcpy(want, xi0, 16);
                fc_test_ghash(keys[kidx], want, in, 16 * blocks);
                if (kidx == 1) {
                    /* H = 1: the XOR of the state and every block. */
                    uint8_t x[16];
                    memcpy(x, xi0, 16);
                    for (size_t i = 0; i < 16 * blocks; i++)
                        x[i % 16] ^= in[i];
                    fc_test_expect_equal("reference, H = 1", "xi", want, x, 16);
                }
                snprintf(what, sizeof(what), "special H #%zu, fill %d", kidx,
                         fill);
                FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
                {
                    check_ghash(what, ops, keys[kidx], xi0, in, blocks, want);
                }
            }
        }
    }
}

/* Accelerated tables against the generic one on a long random message fed
 * in random pieces (the pieces are the same for both). */
FC_TEST("ghash_diff", test_diff_generic_pieces)
{
    static uint8_t in[16 * 1000];
    size_t n, compared = 0;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops, *gen = tab[n - 1];
    const int rounds = fc_test_quick() ? 4 : 40;
    htab *hg = malloc(sizeof(*hg)), *ha = malloc(sizeof(*ha));

    assert_non_null(hg);
    assert_non_null(ha);
    assert_true(is_generic(gen));
    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        if (is_generic(ops))
            continue;
        compared++;
        for (int r = 0; r < rounds; r++) {
            uint8_t h[16], xg[16], xa[16];
            size_t off = 0, total = fc_test_rand_below(1001);

            fc_test_rand_bytes(h, 16);
            fc_test_rand_bytes(xg, 16);
            memcpy(xa, xg, 16);
            fc_test_rand_bytes(in, 16 * total);
            init_table(gen, hg, h);
            init_table(ops, ha, h);
            while (off < total) {
                size_t piece =
                    1 + fc_test_rand_below(total - off < 70 ? total - off : 70);
                gen->ghash(hg->t, xg, in + 16 * off, piece);
                ops->ghash(ha->t, xa, in + 16 * off, piece);
                fc_test_expect_equal(ops->name, "xi vs generic, random pieces",
                                     xa, xg, 16);
                off += piece;
            }
        }
    }
    free(hg);
    free(ha);
    FC_TEST_SKIP_IF(compared == 0, "no accelerated GCM table to compare");
}

/* ---- ABI -------------------------------------------------------------- */

FC_TEST("ghash_abi", test_abi_checker)
{
    FC_TEST_SKIP_IF(!FC_ABI_CHECK_AVAILABLE, "no ABI trampoline on this build");
    assert_true(fc_abi_self_test());
}

FC_TEST("ghash_abi", test_abi_kernels)
{
    /* Every loop's boundaries, up to two 32-block groups and a tail. */
    static const size_t counts[] = {0,  1,  7,  8,  9,  15, 16, 17, 24, 31,
                                    32, 33, 48, 63, 64, 65, 95, 96, 97};
    static uint8_t in[16 * 97];
    size_t n, checked = 0;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;
    htab *ht = malloc(sizeof(*ht));
    char what[160];

    if (!FC_ABI_CHECK_AVAILABLE) {
        free(ht);
        print_message("[  SKIPPED ] no ABI trampoline on this build\n");
        skip();
        return;
    }
    assert_non_null(ht);
    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        if (is_generic(ops))
            continue; /* compiled C keeps the ABI by construction */
        checked++;
        for (size_t c = 0; c < FC_ARRAY_LEN(counts); c++) {
            const size_t blocks = counts[c];
            uint8_t h[16], xi[16], want[16];

            fc_test_rand_bytes(h, 16);
            fc_test_rand_bytes(xi, 16);
            fc_test_rand_bytes(in, sizeof(in));
            memcpy(want, xi, 16);
            fc_test_ghash(h, want, in, 16 * blocks);
            fc_test_rand_bytes(ht, sizeof(*ht));
            snprintf(what, sizeof(what), "%s init", ops->name);
            FC_ABI_CALL(what, ops->init, FC_ABI_ARG(ht->t), FC_ABI_ARG(h));
            snprintf(what, sizeof(what), "%s ghash blocks=%zu", ops->name,
                     blocks);
            FC_ABI_CALL(what, ops->ghash, FC_ABI_ARG(ht->t), FC_ABI_ARG(xi),
                        FC_ABI_ARG(in), blocks);
            fc_test_expect_equal(what, "xi", xi, want, 16);
        }
    }
    free(ht);
    FC_TEST_SKIP_IF(checked == 0, "no assembly GCM table runs here");
}

/* ---- edge cases ------------------------------------------------------- */

/*
 * The ghash kernels read nothing past the input nor before it, and nothing
 * past the table: both placed against an inaccessible page, at every block
 * count to 40 and at the 32-block loop's boundaries (ASan does not see
 * into assembly and valgrind cannot run AVX-512).
 */
FC_TEST("ghash_edge", test_guard_pages)
{
    static const size_t more[] = {47, 48, 63, 64, 65, 95, 96, 97};
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    fc_test_rand_start(__func__);
    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        for (size_t c = 0; c < 41 + FC_ARRAY_LEN(more); c++) {
            const size_t blocks = c <= 40 ? c : more[c - 41];
            const size_t len = 16 * blocks;

            for (int after = 0; after < 2; after++) {
                uint8_t *t = fc_test_guarded(FC_GCM_HTABLE_BYTES, after);
                uint8_t *in = fc_test_guarded(len, after);
                uint8_t h[16], xi[16], want[16];
                char what[120];

                fc_test_rand_bytes(h, 16);
                fc_test_rand_bytes(xi, 16);
                memcpy(want, xi, 16);
                fc_test_ghash(h, want, in, 16 * blocks);
                ops->init(t, h);
                ops->ghash(t, xi, in, blocks);
                snprintf(what, sizeof(what),
                         "%s ghash, %zu blocks against a guard page %s",
                         ops->name, blocks, after ? "after" : "before");
                fc_test_expect_equal(what, "xi", xi, want, 16);
                fc_test_guarded_free(in, len, after);
                fc_test_guarded_free(t, FC_GCM_HTABLE_BYTES, after);
            }
        }
    }
}

/* Zero blocks leave xi alone and read nothing. */
FC_TEST("ghash_edge", test_zero_blocks)
{
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;
    htab *ht = malloc(sizeof(*ht));

    assert_non_null(ht);
    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        uint8_t h[16], xi[16], xi0[16], *p = malloc(1);

        assert_non_null(p);
        fc_test_rand_bytes(h, 16);
        fc_test_rand_bytes(xi0, 16);
        memcpy(xi, xi0, 16);
        init_table(ops, ht, h);
        /* One byte allocated, zero blocks: reading a block would be
         * caught by ASan / valgrind. */
        ops->ghash(ht->t, xi, p, 0);
        fc_test_expect_equal(ops->name, "xi after 0 blocks", xi, xi0, 16);
        free(p);
    }
    free(ht);
}

/* init depends on h alone: two different dirty tables initialised from the
 * same h hash identically; and different h give different results. */
FC_TEST("ghash_edge", test_init_deterministic)
{
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;
    htab *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
    uint8_t in[16 * 20];

    assert_non_null(a);
    assert_non_null(b);
    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        uint8_t h[16], xa[16] = {0}, xb[16] = {0};

        fc_test_rand_bytes(h, 16);
        fc_test_rand_bytes(in, sizeof(in));
        init_table(ops, a, h);
        init_table(ops, b, h);
        ops->ghash(a->t, xa, in, 20);
        ops->ghash(b->t, xb, in, 20);
        fc_test_expect_equal(ops->name, "same h, different dirty tables", xa,
                             xb, 16);
        h[7] ^= 0x10;
        init_table(ops, b, h);
        memset(xb, 0, 16);
        ops->ghash(b->t, xb, in, 20);
        assert_memory_not_equal(xa, xb, 16);
    }
    free(a);
    free(b);
}

/*
 * Tables made in parts (ops->init_part, ops->grow): init_part writes the
 * last 16 * part_pow bytes (the powers a call of up to part_pow blocks
 * reads) and nothing else, each grow the powers up to |want| below them
 * and nothing else, and every byte written is the one ops->init writes.
 * With each part in place, ghash of up to that many blocks is right.
 * Every path: part, then 2x part, 4x part .. max_pow; part straight to
 * max_pow; both under the ABI checker where there is one.
 */
static void check_parts_ghash(const char *what, const fc_gcm_ops *ops,
                              const uint8_t *t, const uint8_t h[16],
                              size_t blocks)
{
    uint8_t in[16 * 32], xi[16], want[16];
    char ctx[400];

    fc_test_rand_bytes(in, 16 * blocks);
    fc_test_rand_bytes(xi, 16);
    memcpy(want, xi, 16);
    fc_test_ghash(h, want, in, 16 * blocks);
    ops->ghash(t, xi, in, blocks);
    snprintf(ctx, sizeof(ctx), "%s %s, ghash of %zu blocks", ops->name, what,
             blocks);
    fc_test_expect_equal(ctx, "xi", xi, want, 16);
}

FC_TEST("ghash_edge", test_table_parts)
{
    size_t n, checked = 0;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;
    htab *full = malloc(sizeof(*full)), *t = malloc(sizeof(*t));
    uint8_t dirty[FC_GCM_HTABLE_BYTES], guard[GUARD];
    char what[160];

    assert_non_null(full);
    assert_non_null(t);
    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        const size_t part = ops->part_pow, max = ops->max_pow;

        if (ops->init_part == NULL)
            continue;
        checked++;
        assert_non_null(ops->grow);
        assert_true(part >= 1 && part < max);
        assert_true(16 * max <= FC_GCM_HTABLE_BYTES);
        for (int direct = 0; direct < 2; direct++) {
            uint8_t h[16];
            size_t have = part;

            fc_test_rand_bytes(h, 16);
            init_table(ops, full, h);
            fc_test_rand_bytes(t, sizeof(*t));
            memcpy(dirty, t->t, FC_GCM_HTABLE_BYTES);
            memcpy(guard, t->guard, GUARD);
            snprintf(what, sizeof(what), "%s init_part", ops->name);
            if (FC_ABI_CHECK_AVAILABLE)
                FC_ABI_CALL(what, ops->init_part, FC_ABI_ARG(t->t),
                            FC_ABI_ARG(h));
            else
                ops->init_part(t->t, h);
            while (1) {
                const size_t off = FC_GCM_HTABLE_BYTES - 16 * have;
                const size_t blocks[3] = {1, have / 2 + 1, have};
                size_t want;

                snprintf(what, sizeof(what), "%zu powers made", have);
                fc_test_expect_equal(ops->name, what, t->t + off, full->t + off,
                                     16 * have);
                fc_test_expect_equal(ops->name, "bytes before them (untouched)",
                                     t->t, dirty, off);
                for (int b = 0; b < 3; b++)
                    check_parts_ghash(what, ops, t->t, h, blocks[b]);
                if (have == max)
                    break;
                want = direct ? max : 2 * have;
                snprintf(what, sizeof(what), "%s grow %zu -> %zu", ops->name,
                         have, want);
                if (FC_ABI_CHECK_AVAILABLE)
                    FC_ABI_CALL(what, ops->grow, FC_ABI_ARG(t->t), have, want);
                else
                    ops->grow(t->t, have, want);
                have = want;
            }
            fc_test_expect_equal(ops->name, "bytes past the htable", t->guard,
                                 guard, GUARD);
        }
    }
    free(full);
    free(t);
    FC_TEST_SKIP_IF(checked == 0, "no GCM table made in parts runs here");
}

/* H and data marked secret (FC_CT_SECRET) through init and ghash: in a
 * FASTCRYPTO_CT_VALGRIND build under valgrind, any secret-dependent branch
 * or index is reported; elsewhere one more reference check. */
FC_TEST("ghash_edge", test_ct_marked)
{
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;
    htab *ht = malloc(sizeof(*ht));
    uint8_t in[16 * 37];

    assert_non_null(ht);
    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        uint8_t h[16], xi[16], want[16];

        fc_test_rand_bytes(h, 16);
        fc_test_rand_bytes(xi, 16);
        fc_test_rand_bytes(in, sizeof(in));
        memcpy(want, xi, 16);
        fc_test_ghash(h, want, in, 16 * 37);
        FC_CT_SECRET(h, 16);
        FC_CT_SECRET(xi, 16);
        FC_CT_SECRET(in, sizeof(in));
        fc_test_rand_bytes(ht, sizeof(*ht));
        ops->init(ht->t, h);
        ops->ghash(ht->t, xi, in, 37);
        FC_CT_PUBLIC(xi, 16);
        FC_CT_PUBLIC(h, 16);
        FC_CT_PUBLIC(in, sizeof(in));
        FC_CT_PUBLIC(ht, sizeof(*ht));
        fc_test_expect_equal(ops->name, "secret-marked GHASH", xi, want, 16);
    }
    free(ht);
}

int main(void)
{
    return fc_test_main(NULL, 0);
}
