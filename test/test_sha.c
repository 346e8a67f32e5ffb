/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sha.c - the SHA-1 and SHA-256 kernels, the streaming layer and the
 * HMAC key setup, for every SHA table (fc_sha_impls) the CPU runs.
 *
 * Groups:
 *   sha_kat   test/kat/sha.txt (FIPS 180-4 examples, padding boundaries)
 *             and test/kat/hmac_sha.txt (RFC 2202, RFC 4231), each message
 *             fed whole and in pieces;
 *   sha_diff  each accelerated kernel against the generic one from random
 *             chaining values at block counts 0..80 and a few long runs,
 *             and every table against OpenSSL's EVP digests and HMAC for
 *             every message length 0..2100 (random pieces, random keys of
 *             0..200 bytes);
 *   sha_abi   every assembly entry point through the calling-convention
 *             trampoline (test/support/abi_check.h);
 *   sha_edge  empty updates, unaligned input, copies of a state in
 *             progress, the wiped buffer after final, and a run with
 *             message, key and state marked secret for the valgrind
 *             constant-time build.
 *
 * FC_TEST_QUICK=1 shrinks the lengths (every 7th length, fewer long runs)
 * so the binary finishes quickly under valgrind. FC_TEST_SEED replays a
 * run; FASTCRYPTO_CPU_MASK switches tables off.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "abi_check.h"
#include "fc/ct.h"
#include "fc/sha.h"
#include "checks.h"
#include "impls.h"
#include "kat.h"
#include "runner.h"

static const char *const alg_names[2] = {"SHA-1", "SHA-256"};

/* ---- helpers ---------------------------------------------------------- */

static const fc_sha_ops *const *impls(size_t *n)
{
    return fc_sha_impls(n);
}

static int is_generic(const fc_sha_ops *ops)
{
    return ops->sha1_blocks == fc_sha1_blocks_generic &&
           ops->sha256_blocks == fc_sha256_blocks_generic;
}

static fc_sha_blocks_fn *kernel(const fc_sha_ops *ops, int alg)
{
    return alg == FC_SHA1 ? ops->sha1_blocks : ops->sha256_blocks;
}

static const EVP_MD *evp_md(int alg)
{
    return alg == FC_SHA1 ? EVP_sha1() : EVP_sha256();
}

static int alg_of(fc_kat *k)
{
    const char *a = fc_kat_str(k, "Alg");

    if (strcmp(a, "SHA-1") == 0)
        return FC_SHA1;
    if (strcmp(a, "SHA-256") == 0)
        return FC_SHA256;
    fc_kat_fail(k, "unknown Alg \"%s\"", a);
}

/* The digest of |len| bytes at |msg|: one update (step == 0), or updates
 * of random sizes 1..step. */
static void digest(const fc_sha_ops *ops, int alg, const uint8_t *msg,
                   size_t len, size_t step, uint8_t *md)
{
    fc_sha_hash h;
    fc_sha_state st;
    size_t off = 0;

    fc_sha_hash_for(&h, ops, (fc_sha_alg)alg);
    fc_sha_init(&h, &st);
    if (step == 0) {
        fc_sha_update(&h, &st, msg, len);
    } else {
        while (off < len) {
            size_t take = 1 + fc_test_rand_below(step);

            if (take > len - off)
                take = len - off;
            fc_sha_update(&h, &st, msg + off, take);
            off += take;
        }
    }
    fc_sha_final(&h, &st, md);
}

/* HMAC through fc_hmac_sha_key and the streaming layer, the message in
 * two pieces cut at |cut|. */
static void hmac(const fc_sha_ops *ops, int alg, const uint8_t *key,
                 size_t klen, const uint8_t *msg, size_t len, size_t cut,
                 uint8_t *mac)
{
    fc_sha_hash h;
    fc_sha_state in, out;
    uint8_t md[FC_SHA_MAX_LEN];

    fc_sha_hash_for(&h, ops, (fc_sha_alg)alg);
    fc_hmac_sha_key(&h, &in, &out, key, klen);
    fc_sha_update(&h, &in, msg, cut);
    fc_sha_update(&h, &in, msg + cut, len - cut);
    fc_sha_final(&h, &in, md);
    fc_sha_update(&h, &out, md, h.len);
    fc_sha_final(&h, &out, mac);
}

/* ---- known answers ---------------------------------------------------- */

FC_TEST("sha_kat", test_kat)
{
    static const char *const fields[] = {"Alg", "Msg", "Repeat", "MD", NULL};
    size_t n, ran = 0;
    const fc_sha_ops *const *tab = impls(&n);
    const fc_sha_ops *ops;

    FC_TEST_FOREACH_IMPL("sha", tab, n, ops)
    {
        fc_kat *k = fc_kat_open("sha.txt");
        size_t count = 0;

        while (fc_kat_next(k)) {
            size_t ml, dl, reps = 1;
            const int alg = alg_of(k);
            const uint8_t *msg = fc_kat_bytes(k, "Msg", &ml);
            const uint8_t *want = fc_kat_bytes(k, "MD", &dl);
            uint8_t md[FC_SHA_MAX_LEN], *all;
            char ctx[200];

            fc_kat_check_fields(k, fields);
            snprintf(ctx, sizeof(ctx), "%s: %s %s", fc_kat_where(k), ops->name,
                     alg_names[alg]);
            if (fc_kat_has(k, "Repeat"))
                reps = strtoul(fc_kat_str(k, "Repeat"), NULL, 10);
            assert_int_equal(dl, alg == FC_SHA1 ? 20 : 32);
            all = malloc(ml * reps + 1);
            assert_non_null(all);
            for (size_t r = 0; r < reps; r++)
                memcpy(all + r * ml, msg, ml);
            digest(ops, alg, all, ml * reps, 0, md);
            fc_test_expect_equal(ctx, "digest (one update)", md, want, dl);
            digest(ops, alg, all, ml * reps, ml * reps > 4096 ? 5000 : 70, md);
            fc_test_expect_equal(ctx, "digest (random pieces)", md, want, dl);
            free(all);
            count++;
        }
        fc_kat_close(k);
        assert_int_equal(count, 26);
        ran++;
    }
    assert_true(ran >= 1);
}

FC_TEST("sha_kat", test_kat_hmac)
{
    static const char *const fields[] = {"Alg", "Key", "Msg", "MAC", NULL};
    size_t n, ran = 0;
    const fc_sha_ops *const *tab = impls(&n);
    const fc_sha_ops *ops;

    FC_TEST_FOREACH_IMPL("sha", tab, n, ops)
    {
        fc_kat *k = fc_kat_open("hmac_sha.txt");
        size_t count = 0;

        while (fc_kat_next(k)) {
            size_t kl, ml, al;
            const int alg = alg_of(k);
            const uint8_t *key = fc_kat_bytes(k, "Key", &kl);
            const uint8_t *msg = fc_kat_bytes(k, "Msg", &ml);
            const uint8_t *want = fc_kat_bytes(k, "MAC", &al);
            uint8_t mac[FC_SHA_MAX_LEN];
            char ctx[200];

            fc_kat_check_fields(k, fields);
            snprintf(ctx, sizeof(ctx), "%s: %s HMAC-%s", fc_kat_where(k),
                     ops->name, alg_names[alg]);
            for (size_t cut = 0; cut <= ml; cut += ml / 3 + 1) {
                hmac(ops, alg, key, kl, msg, ml, cut, mac);
                fc_test_expect_equal(ctx, "HMAC", mac, want, al);
            }
            count++;
        }
        fc_kat_close(k);
        assert_int_equal(count, 12);
        ran++;
    }
    assert_true(ran >= 1);
}

/* The kat reader's fields and the self test the provider runs at load. */
FC_TEST("sha_kat", test_self_test)
{
    size_t n;
    const fc_sha_ops *const *tab = impls(&n);
    const fc_sha_ops *ops;

    assert_true(is_generic(tab[n - 1]));
    FC_TEST_FOREACH_IMPL("sha", tab, n, ops)
    {
        assert_int_equal(fc_sha_self_test(ops), 1);
        /* The selection under this CPU picks a usable table. */
        assert_true(
            (fc_test_caps() & fc_sha_select(fc_test_caps())->required_caps) ==
            fc_sha_select(fc_test_caps())->required_caps);
    }
    assert_ptr_equal(fc_sha_select(0), &fc_sha_ops_generic);
}

/* ---- differential ----------------------------------------------------- */

/* Kernel against the generic kernel: random chaining values, every block
 * count 0..80 and a few long runs, exact-size input at a random offset. */
FC_TEST("sha_diff", test_diff_generic)
{
    static const size_t longs[] = {127, 128, 129, 255, 256, 257, 1000};
    size_t n, checked = 0;
    const fc_sha_ops *const *tab = impls(&n);
    const fc_sha_ops *ops;
    const size_t upto = fc_test_quick() ? 20 : 80;

    FC_TEST_FOREACH_IMPL("sha", tab, n, ops)
    {
        if (is_generic(ops))
            continue;
        checked++;
        for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
            for (size_t c = 0; c <= upto + FC_ARRAY_LEN(longs); c++) {
                const size_t blocks = c <= upto ? c : longs[c - upto - 1];
                const size_t off = fc_test_rand_below(16);
                uint8_t *buf = malloc(off + 64 * blocks + 1);
                uint32_t h[8], ref[8], h0[8];
                char ctx[100];

                assert_non_null(buf);
                fc_test_rand_bytes(buf, off + 64 * blocks);
                fc_test_rand_bytes(h0, sizeof(h0));
                memcpy(h, h0, sizeof(h));
                memcpy(ref, h0, sizeof(ref));
                kernel(ops, alg)(h, buf + off, blocks);
                kernel(&fc_sha_ops_generic, alg)(ref, buf + off, blocks);
                snprintf(ctx, sizeof(ctx), "%s %s blocks=%zu", ops->name,
                         alg_names[alg], blocks);
                fc_test_expect_equal(ctx, "chaining value", (uint8_t *)h,
                                     (uint8_t *)ref, sizeof(h));
                free(buf);
            }
        }
    }
    FC_TEST_SKIP_IF(checked == 0, "no accelerated SHA table runs here");
}

/* Every table against OpenSSL: digests and HMACs of every length. */
FC_TEST("sha_diff", test_diff_openssl)
{
    const size_t maxlen = 2100, step = fc_test_quick() ? 7 : 1;
    uint8_t *msg = malloc(maxlen), key[200];
    size_t n;
    const fc_sha_ops *const *tab = impls(&n);
    const fc_sha_ops *ops;

    assert_non_null(msg);
    fc_test_rand_bytes(msg, maxlen);
    FC_TEST_FOREACH_IMPL("sha", tab, n, ops)
    {
        for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
            for (size_t len = 0; len < maxlen; len += step) {
                uint8_t md[FC_SHA_MAX_LEN], ref[EVP_MAX_MD_SIZE];
                unsigned int rl;
                size_t kl = fc_test_rand_below(sizeof(key) + 1);
                char ctx[100];

                snprintf(ctx, sizeof(ctx), "%s %s len=%zu", ops->name,
                         alg_names[alg], len);
                assert_true(EVP_Digest(msg, len, ref, &rl, evp_md(alg), NULL));
                digest(ops, alg, msg, len, 150, md);
                fc_test_expect_equal(ctx, "digest", md, ref, rl);

                fc_test_rand_bytes(key, kl);
                assert_non_null(
                    HMAC(evp_md(alg), key, (int)kl, msg, len, ref, &rl));
                hmac(ops, alg, key, kl, msg, len, fc_test_rand_below(len + 1),
                     md);
                fc_test_expect_equal(ctx, "HMAC", md, ref, rl);
            }
        }
    }
    free(msg);
}

/* ---- ABI -------------------------------------------------------------- */

FC_TEST_ADD("sha_abi", fc_abi_test_checker);

FC_TEST("sha_abi", test_abi_kernels)
{
    static const size_t counts[] = {0, 1, 2, 3, 7, 8, 9, 16, 17, 33};
    static uint8_t in[64 * 33];
    size_t n, checked = 0;
    const fc_sha_ops *const *tab = impls(&n);
    const fc_sha_ops *ops;
    char what[120];

    FC_TEST_SKIP_IF(!FC_ABI_CHECK_AVAILABLE, "no ABI trampoline on this build");
    FC_TEST_FOREACH_IMPL("sha", tab, n, ops)
    {
        if (is_generic(ops))
            continue; /* compiled C keeps the ABI by construction */
        checked++;
        for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
            for (size_t c = 0; c < FC_ARRAY_LEN(counts); c++) {
                uint32_t h[8], ref[8];

                fc_test_rand_bytes(in, sizeof(in));
                fc_test_rand_bytes(h, sizeof(h));
                memcpy(ref, h, sizeof(h));
                kernel(&fc_sha_ops_generic, alg)(ref, in, counts[c]);
                snprintf(what, sizeof(what), "%s %s blocks=%zu", ops->name,
                         alg_names[alg], counts[c]);
                FC_ABI_CALL(what, kernel(ops, alg), FC_ABI_ARG(h),
                            FC_ABI_ARG(in), counts[c]);
                fc_test_expect_equal(what, "chaining value", (uint8_t *)h,
                                     (uint8_t *)ref, sizeof(h));
            }
        }
    }
    FC_TEST_SKIP_IF(checked == 0, "no assembly SHA table runs here");
}

/* ---- edge cases ------------------------------------------------------- */

/* Empty updates (NULL allowed), a copy of a state in progress continuing
 * independently, and final wiping the partial block. */
FC_TEST("sha_edge", test_streaming_edges)
{
    size_t n;
    const fc_sha_ops *const *tab = impls(&n);
    const fc_sha_ops *ops;
    uint8_t msg[300];

    fc_test_rand_bytes(msg, sizeof(msg));
    FC_TEST_FOREACH_IMPL("sha", tab, n, ops)
    {
        for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
            fc_sha_hash h;
            fc_sha_state a, b;
            uint8_t ma[FC_SHA_MAX_LEN], mb[FC_SHA_MAX_LEN], ref[FC_SHA_MAX_LEN];
            uint8_t zero[FC_SHA_BLOCK] = {0};

            fc_sha_hash_for(&h, ops, (fc_sha_alg)alg);
            assert_int_equal(h.len, alg == FC_SHA1 ? 20 : 32);
            assert_int_equal(h.words * 4, h.len);
            fc_sha_init(&h, &a);
            fc_sha_update(&h, &a, NULL, 0);
            fc_sha_update(&h, &a, msg, 100);
            fc_sha_update(&h, &a, NULL, 0);
            b = a; /* a copy in progress */
            fc_sha_update(&h, &a, msg + 100, 200);
            fc_sha_update(&h, &b, msg + 100, 50);
            fc_sha_final(&h, &a, ma);
            assert_memory_equal(a.buf, zero, sizeof(zero));
            fc_sha_final(&h, &b, mb);
            digest(&fc_sha_ops_generic, alg, msg, 300, 0, ref);
            fc_test_expect_equal(ops->name, "original", ma, ref, h.len);
            digest(&fc_sha_ops_generic, alg, msg, 150, 0, ref);
            fc_test_expect_equal(ops->name, "copy", mb, ref, h.len);
            /* fc_sha_store is the digest encoding of a chaining value. */
            fc_sha_init(&h, &a);
            fc_sha_store(&h, a.h, ma);
            for (size_t i = 0; i < h.words; i++)
                assert_int_equal(fc_load_be32(ma + 4 * i), h.iv[i]);
        }
    }
}

/*
 * Message, HMAC key and chaining value marked secret (FC_CT_SECRET) through
 * the kernels, the streaming layer and the HMAC key setup (keys shorter
 * and longer than a block). In a FASTCRYPTO_CT_VALGRIND build under
 * valgrind any branch or memory index that depends on them is reported;
 * elsewhere this is one more comparison with the generic code.
 */
FC_TEST("sha_edge", test_ct_marked)
{
    size_t n;
    const fc_sha_ops *const *tab = impls(&n);
    const fc_sha_ops *ops;

    FC_TEST_FOREACH_IMPL("sha", tab, n, ops)
    {
        for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
            uint8_t msg[64 * 5 + 17], key[100], mac[FC_SHA_MAX_LEN],
                ref[FC_SHA_MAX_LEN];
            uint32_t h[8], hr[8];

            fc_test_rand_bytes(msg, sizeof(msg));
            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(h, sizeof(h));
            memcpy(hr, h, sizeof(h));
            kernel(&fc_sha_ops_generic, alg)(hr, msg, 5);
            FC_CT_SECRET(msg, sizeof(msg));
            FC_CT_SECRET(key, sizeof(key));
            FC_CT_SECRET(h, sizeof(h));
            kernel(ops, alg)(h, msg, 5);
            for (size_t kl = 20; kl <= 100; kl += 80) {
                hmac(ops, alg, key, kl, msg, sizeof(msg), 33, mac);
                FC_CT_PUBLIC(mac, sizeof(mac));
                FC_CT_PUBLIC(key, sizeof(key));
                FC_CT_PUBLIC(msg, sizeof(msg));
                hmac(&fc_sha_ops_generic, alg, key, kl, msg, sizeof(msg), 33,
                     ref);
                fc_test_expect_equal(ops->name, "secret-marked HMAC", mac, ref,
                                     alg == FC_SHA1 ? 20 : 32);
                FC_CT_SECRET(msg, sizeof(msg));
                FC_CT_SECRET(key, sizeof(key));
            }
            FC_CT_PUBLIC(h, sizeof(h));
            FC_CT_PUBLIC(msg, sizeof(msg));
            FC_CT_PUBLIC(key, sizeof(key));
            fc_test_expect_equal(ops->name, "secret-marked blocks",
                                 (uint8_t *)h, (uint8_t *)hr, sizeof(h));
        }
    }
}

int main(void)
{
    return fc_test_main(NULL, 0);
}
