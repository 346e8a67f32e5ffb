/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_aes.c - the AES table (fc/aes.h): key schedules, ECB encryption, CTR
 * (the ctr32 kernels, and fc_aes_ctr128 over them) and CBC in both
 * directions, for every AES table (fc_aes_impls) the CPU runs.
 *
 * Groups:
 *   aes_kat   test/kat/aes_cbc.txt, aes_ecb.txt and aes_ctr.txt (SP 800-38A,
 *             FIPS-197, counters across their wraps);
 *   aes_diff  each accelerated table against the generic one at every block
 *             count 0..400 (CTR from counters near every wrap: of the low
 *             32 bits, the low 64, all 128), the generic CTR against ECB
 *             of counter blocks counted here, and every table against
 *             OpenSSL's default provider (EVP) as an independent oracle;
 *   aes_abi   every assembly entry point through the calling-convention
 *             trampoline (test/support/abi_check.h);
 *   aes_edge  zero blocks, key sizes, schedule layout, round trips across
 *             tables, in-place operation, re-keying, and a run with key and
 *             data marked secret for the valgrind constant-time build.
 *
 * Every check runs out of place (exact-size input at a random misalignment,
 * output with guard bytes on both sides), in place, and split into two
 * calls at a random block boundary; the chaining value must come back as
 * the last ciphertext block, and the input must be left alone.
 *
 * FC_TEST_QUICK=1 shrinks the differential block counts (0..40 plus the
 * boundaries of the 4-, 8- and 16-block loops up to 400) and the EVP
 * counts, so the binary finishes quickly under valgrind. FC_TEST_SEED
 * replays a run; FASTCRYPTO_CPU_MASK switches tables off.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "abi_check.h"
#include "fc/aes.h"
#include "fc/ct.h"
#include "fc/tls_cbc.h"
#include "checks.h"
#include "impls.h"
#include "kat.h"
#include "runner.h"

#define GUARD      32
#define MAX_BLOCKS 416

/* OP_CTR32 is the kernel (the caller advancing the counter by inc32, as
 * GCM does), OP_CTR128 fc_aes_ctr128 on the table. */
enum op { OP_ECB, OP_CBC_ENC, OP_CBC_DEC, OP_CTR32, OP_CTR128, OP_COUNT };
static const char *const op_names[] = {"ecb_enc", "cbc_enc", "cbc_dec", "ctr32",
                                       "ctr128"};
static const size_t key_sizes[] = {16, 24, 32};

/* ---- helpers ---------------------------------------------------------- */

static const fc_aes_ops *const *impls(size_t *n)
{
    return fc_aes_impls(n);
}

static void set_key_for(const fc_aes_ops *ops, enum op op, fc_aes_key *k,
                        const uint8_t *key, size_t kb)
{
    if (op == OP_CBC_DEC)
        ops->set_dec_key(k, key, kb);
    else
        ops->set_enc_key(k, key, kb);
}

/* inc32 of SP 800-38D, |n| times: the last word of |ctr| plus n, mod 2^32. */
static void inc32(uint8_t ctr[16], size_t n)
{
    fc_store_be32(ctr + 12, fc_load_be32(ctr + 12) + (uint32_t)n);
}

/* |ctr| plus |n| as a 128-bit big-endian number, byte by byte: the test's
 * own count, independent of fc_ctr128_add. */
static void add128(uint8_t ctr[16], size_t n)
{
    unsigned carry = 0;

    for (int i = 15; i >= 0; i--) {
        unsigned v = ctr[i] + (unsigned)(n & 0xff) + carry;

        ctr[i] = (uint8_t)v;
        carry = v >> 8;
        n >>= 8;
    }
}

static void do_op(const fc_aes_ops *ops, enum op op, const fc_aes_key *k,
                  const uint8_t *in, uint8_t *out, size_t blocks,
                  uint8_t iv[16])
{
    switch (op) {
    case OP_ECB:
        ops->ecb_enc(k, in, out, blocks);
        break;
    case OP_CBC_ENC:
        ops->cbc_enc(k, in, out, blocks, iv);
        break;
    case OP_CBC_DEC:
        ops->cbc_dec(k, in, out, blocks, iv);
        break;
    case OP_CTR32:
        ops->ctr32(k, in, out, blocks, iv);
        inc32(iv, blocks);
        break;
    case OP_CTR128:
        fc_aes_ctr128(ops, k, in, out, blocks, iv);
        break;
    default:
        fail_msg("no op %d", (int)op);
    }
}

/*
 * check_op runs |op| of |ops| on |blocks| blocks of |in| with |key| and
 * |iv0| (CBC) in four ways: out of place, in place, and both split into
 * two calls at a random block boundary. Each must give |want|, leave the
 * IV equal to |want_iv| (CBC), write nothing outside the output, and leave
 * an out-of-place input unchanged.
 */
static void check_op(const char *what, const fc_aes_ops *ops, enum op op,
                     const uint8_t *key, size_t kb, const uint8_t *iv0,
                     const uint8_t *in, size_t blocks, const uint8_t *want,
                     const uint8_t *want_iv)
{
    static const char *const ways[] = {
        "out of place", "in place", "split, out of place", "split, in place"};
    const size_t len = 16 * blocks;
    fc_aes_key k, k_copy;
    char ctx[256];

    /* A dirty structure: nothing may depend on it being zeroed. */
    fc_test_rand_bytes(&k, sizeof(k));
    set_key_for(ops, op, &k, key, kb);
    memcpy(&k_copy, &k, sizeof(k));
    for (int way = 0; way < 4; way++) {
        const int in_place = way & 1, split = way >> 1;
        uint8_t iv[16], *inbase, *inp;
        const uint8_t *src;
        size_t first = 0;
        fc_guard g;

        if (split && blocks < 2)
            continue;
        inp = fc_test_exact_copy(in, len, fc_test_rand_below(16), &inbase);
        fc_guard_new_random(&g, len, GUARD + fc_test_rand_below(16), GUARD);
        if (in_place && len > 0)
            memcpy(g.p, in, len);
        src = in_place ? g.p : inp;
        if (iv0 != NULL)
            memcpy(iv, iv0, 16);
        else
            fc_test_rand_bytes(iv, 16);
        if (split)
            first = 1 + fc_test_rand_below(blocks - 1);
        snprintf(ctx, sizeof(ctx), "%s: %s %s AES-%zu, %zu blocks, %s%s", what,
                 ops->name, op_names[op], kb * 8, blocks, ways[way],
                 split ? " (first call " : "");
        if (split)
            snprintf(ctx + strlen(ctx), sizeof(ctx) - strlen(ctx),
                     "%zu blocks)", first);

        if (split) {
            do_op(ops, op, &k, src, g.p, first, iv);
            do_op(ops, op, &k, src + 16 * first, g.p + 16 * first,
                  blocks - first, iv);
        } else {
            do_op(ops, op, &k, src, g.p, blocks, iv);
        }
        fc_test_expect_equal(ctx, "output", g.p, want, len);
        if (op != OP_ECB)
            fc_test_expect_equal(ctx, "iv (counter) after the call", iv,
                                 want_iv, 16);
        fc_guard_check(&g, ctx);
        fc_test_expect_equal(ctx, "key schedule (must not change)",
                             (const uint8_t *)&k, (const uint8_t *)&k_copy,
                             sizeof(k));
        if (!in_place)
            fc_test_expect_equal(ctx, "input (must not change)", inp, in, len);
        fc_guard_free(&g);
        free(inbase);
    }
    fc_memzero(&k, sizeof(k));
    fc_memzero(&k_copy, sizeof(k_copy));
}

/* check_all_ops checks ECB, CBC encryption and CBC decryption of |pt| /
 * |ct| pairs: |ecb| = ECB(pt), |cbc| = CBC-Enc(pt, iv). */
static void check_cbc_pair(const char *what, const fc_aes_ops *ops,
                           const uint8_t *key, size_t kb, const uint8_t *iv,
                           const uint8_t *pt, const uint8_t *ct, size_t blocks)
{
    /* The next chaining value is the last ciphertext block, in both
     * directions; with no blocks the IV is untouched. */
    const uint8_t *last = blocks ? ct + 16 * (blocks - 1) : iv;
    check_op(what, ops, OP_CBC_ENC, key, kb, iv, pt, blocks, ct, last);
    check_op(what, ops, OP_CBC_DEC, key, kb, iv, ct, blocks, pt, last);
}

/* ---- KAT -------------------------------------------------------------- */

static const char *const kat_fields[] = {"Mode",      "Key",        "IV",
                                         "Plaintext", "Ciphertext", NULL};

/* ECB decryption through cbc_dec: one block with a zero IV is the inverse
 * cipher alone. */
static void check_ecb_decrypt(const char *what, const fc_aes_ops *ops,
                              const uint8_t *key, size_t kb, const uint8_t *pt,
                              const uint8_t *ct, size_t blocks)
{
    for (size_t i = 0; i < blocks; i++) {
        static const uint8_t zero[16];
        check_op(what, ops, OP_CBC_DEC, key, kb, zero, ct + 16 * i, 1,
                 pt + 16 * i, ct + 16 * i);
    }
}

static size_t run_kat_file(const char *file, const fc_aes_ops *ops)
{
    fc_kat *k = fc_kat_open(file);
    size_t count = 0;

    while (fc_kat_next(k)) {
        size_t kl, pl, cl, il;
        const char *mode = fc_kat_str(k, "Mode");
        const uint8_t *key = fc_kat_bytes(k, "Key", &kl);
        const uint8_t *pt = fc_kat_bytes(k, "Plaintext", &pl);
        const uint8_t *ct = fc_kat_bytes(k, "Ciphertext", &cl);
        const char *where = fc_kat_where(k);

        fc_kat_check_fields(k, kat_fields);
        if (kl != 16 && kl != 24 && kl != 32)
            fc_kat_fail(k, "key length %zu", kl);
        if (pl != cl || pl % 16 != 0 || pl == 0)
            fc_kat_fail(k, "plaintext/ciphertext lengths %zu/%zu", pl, cl);
        if (strcmp(mode, "CBC") == 0) {
            const uint8_t *iv = fc_kat_bytes(k, "IV", &il);
            if (il != 16)
                fc_kat_fail(k, "IV length %zu", il);
            check_cbc_pair(where, ops, key, kl, iv, pt, ct, pl / 16);
        } else if (strcmp(mode, "CTR") == 0) {
            const uint8_t *iv = fc_kat_bytes(k, "IV", &il);
            uint8_t next[16];

            if (il != 16)
                fc_kat_fail(k, "IV length %zu", il);
            memcpy(next, iv, 16);
            add128(next, pl / 16);
            check_op(where, ops, OP_CTR128, key, kl, iv, pt, pl / 16, ct, next);
            check_op(where, ops, OP_CTR128, key, kl, iv, ct, pl / 16, pt, next);
        } else if (strcmp(mode, "ECB") == 0) {
            if (fc_kat_has(k, "IV"))
                fc_kat_fail(k, "IV in an ECB block");
            check_op(where, ops, OP_ECB, key, kl, NULL, pt, pl / 16, ct, NULL);
            check_ecb_decrypt(where, ops, key, kl, pt, ct, pl / 16);
        } else {
            fc_kat_fail(k, "unknown Mode `%s`", mode);
        }
        count++;
    }
    fc_kat_close(k);
    return count;
}

FC_TEST("aes_kat", test_kat)
{
    size_t n, ran = 0;
    const fc_aes_ops *const *tab = impls(&n);
    const fc_aes_ops *ops;

    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        /* The vector counts pin the files: a truncated file fails. */
        assert_int_equal(run_kat_file("aes_cbc.txt", ops), 12);
        assert_int_equal(run_kat_file("aes_ecb.txt", ops), 3);
        assert_int_equal(run_kat_file("aes_ctr.txt", ops), 6);
        ran++;
    }
    assert_true(ran >= 1);
}

/* The reader itself, on a file exercising its syntax. */
FC_TEST("aes_kat", test_kat_reader)
{
    char path[] = "/tmp/fc_kat_XXXXXX", where[64];
    int fd = mkstemp(path);
    static const char text[] = "# comment\n"
                               "\n"
                               "Key = 00ff10Ab\r\n"
                               "  # indented comment inside a block\n"
                               "Label = \"a = b\"\n"
                               "Empty =\n"
                               "\n\n"
                               "  Name_2-x   =   0102  \n";
    size_t len;
    fc_kat *k;
    const uint8_t *b;

    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
    close(fd);
    k = fc_kat_open(path);
    assert_true(fc_kat_next(k));
    assert_int_equal(fc_kat_index(k), 0);
    b = fc_kat_bytes(k, "Key", &len);
    assert_int_equal(len, 4);
    assert_memory_equal(b, "\x00\xff\x10\xab", 4);
    assert_string_equal(fc_kat_str(k, "Label"), "a = b");
    b = fc_kat_bytes(k, "Label", &len);
    assert_int_equal(len, 5);
    assert_memory_equal(b, "a = b", 5);
    b = fc_kat_bytes(k, "Empty", &len);
    assert_non_null(b);
    assert_int_equal(len, 0);
    assert_false(fc_kat_has(k, "Name_2-x"));
    snprintf(where, sizeof(where), "%s:3", path);
    assert_string_equal(fc_kat_where(k), where);
    assert_true(fc_kat_next(k));
    assert_int_equal(fc_kat_index(k), 1);
    assert_false(fc_kat_has(k, "Key"));
    b = fc_kat_bytes(k, "Name_2-x", &len);
    assert_int_equal(len, 2);
    assert_memory_equal(b, "\x01\x02", 2);
    snprintf(where, sizeof(where), "%s:9", path);
    assert_string_equal(fc_kat_where(k), where);
    assert_false(fc_kat_next(k));
    fc_kat_close(k);
    unlink(path);
}

/* ---- differential ----------------------------------------------------- */

/*
 * A random counter block for a run of |blocks| blocks: random, or d blocks
 * (0 <= d <= blocks + 1) before the wrap of its low 32 bits, of its low
 * 64 bits, or of all 128, so that the wrap falls inside the run, at its
 * very start, or just past its end. |kind| 0..3 picks which.
 */
static void pick_counter(uint8_t ctr[16], size_t blocks, int kind)
{
    const uint64_t d = fc_test_rand_below(blocks + 2);

    fc_test_rand_bytes(ctr, 16);
    switch (kind) {
    case 1:
        fc_store_be32(ctr + 12, 0u - (uint32_t)d);
        break;
    case 2:
        fc_store_be64(ctr + 8, 0 - d);
        break;
    case 3:
        fc_store_be64(ctr, d == 0 ? 0 : UINT64_MAX);
        fc_store_be64(ctr + 8, 0 - d);
        break;
    }
}

/* CTR out of counter blocks counted here (inc32 or over all 128 bits)
 * through |ref|'s ECB: an oracle that shares no counter code with the
 * kernels. */
static void ctr_oracle(const fc_aes_ops *ref, const fc_aes_key *k, int wide,
                       const uint8_t ctr0[16], const uint8_t *in, uint8_t *out,
                       size_t blocks)
{
    uint8_t ctr[16];

    memcpy(ctr, ctr0, 16);
    for (size_t i = 0; i < blocks; i++) {
        memcpy(out + 16 * i, ctr, 16);
        if (wide)
            add128(ctr, 1);
        else
            inc32(ctr, 1);
    }
    ref->ecb_enc(k, out, out, blocks);
    for (size_t i = 0; i < 16 * blocks; i++)
        out[i] ^= in[i];
}

/* Reference results from the generic table, out of place in one call. */
typedef struct {
    uint8_t key[32], iv[16], ctr[16];
    uint8_t in[16 * MAX_BLOCKS];
    uint8_t ecb[16 * MAX_BLOCKS], enc[16 * MAX_BLOCKS], dec[16 * MAX_BLOCKS];
    uint8_t ctr32[16 * MAX_BLOCKS], ctr128[16 * MAX_BLOCKS];
    uint8_t enc_iv[16], dec_iv[16], ctr32_next[16], ctr128_next[16];
} ref_case;

static void make_ref(ref_case *r, const fc_aes_ops *ref, size_t kb,
                     size_t blocks)
{
    fc_aes_key k;

    assert_true(blocks <= MAX_BLOCKS);
    fc_test_rand_bytes(r->key, sizeof(r->key));
    fc_test_rand_bytes(r->iv, 16);
    fc_test_rand_bytes(r->in, 16 * blocks);
    pick_counter(r->ctr, blocks, (int)fc_test_rand_below(4));
    ref->set_enc_key(&k, r->key, kb);
    ref->ecb_enc(&k, r->in, r->ecb, blocks);
    ctr_oracle(ref, &k, 0, r->ctr, r->in, r->ctr32, blocks);
    memcpy(r->ctr32_next, r->ctr, 16);
    inc32(r->ctr32_next, blocks);
    ctr_oracle(ref, &k, 1, r->ctr, r->in, r->ctr128, blocks);
    memcpy(r->ctr128_next, r->ctr, 16);
    add128(r->ctr128_next, blocks);
    memcpy(r->enc_iv, r->iv, 16);
    ref->cbc_enc(&k, r->in, r->enc, blocks, r->enc_iv);
    ref->set_dec_key(&k, r->key, kb);
    memcpy(r->dec_iv, r->iv, 16);
    ref->cbc_dec(&k, r->in, r->dec, blocks, r->dec_iv);
}

FC_TEST("aes_diff", test_diff_generic)
{
    size_t n, ncounts, compared = 0;
    const fc_aes_ops *const *tab = impls(&n);
    const fc_aes_ops *ops, *ref = fc_test_aes_generic();
    static size_t counts[MAX_BLOCKS];
    ref_case *r = malloc(sizeof(*r));

    assert_non_null(r);
    ncounts = fc_test_block_counts(counts, 400);
    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        const int generic = fc_test_aes_is_generic(ops);

        compared += !generic;
        for (size_t s = 0; s < FC_ARRAY_LEN(key_sizes); s++) {
            for (size_t c = 0; c < ncounts; c++) {
                const size_t kb = key_sizes[s], blocks = counts[c];
                make_ref(r, ref, kb, blocks);
                /* CTR against its oracle, the generic table's too. */
                check_op("vs ECB of counted blocks", ops, OP_CTR32, r->key, kb,
                         r->ctr, r->in, blocks, r->ctr32, r->ctr32_next);
                check_op("vs ECB of counted blocks", ops, OP_CTR128, r->key, kb,
                         r->ctr, r->in, blocks, r->ctr128, r->ctr128_next);
                if (generic)
                    continue;
                check_op("vs generic", ops, OP_ECB, r->key, kb, NULL, r->in,
                         blocks, r->ecb, NULL);
                check_op("vs generic", ops, OP_CBC_ENC, r->key, kb, r->iv,
                         r->in, blocks, r->enc, r->enc_iv);
                check_op("vs generic", ops, OP_CBC_DEC, r->key, kb, r->iv,
                         r->in, blocks, r->dec, r->dec_iv);
            }
        }
    }
    free(r);
    FC_TEST_SKIP_IF(compared == 0, "no accelerated AES table to compare");
}

/* OpenSSL's default provider, no padding: the independent oracle. |mode|
 * is "ECB", "CBC" or "CTR". */
static void evp_aes(const char *mode, int enc, const uint8_t *key, size_t kb,
                    const uint8_t *iv, const uint8_t *in, uint8_t *out,
                    size_t len)
{
    char name[32];
    EVP_CIPHER *c;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int outl = 0, fl = 0;

    snprintf(name, sizeof(name), "AES-%zu-%s", kb * 8, mode);
    c = EVP_CIPHER_fetch(NULL, name, "provider=default");
    assert_non_null(c);
    assert_non_null(ctx);
    assert_int_equal(EVP_CipherInit_ex2(ctx, c, key,
                                        strcmp(mode, "ECB") != 0 ? iv : NULL,
                                        enc, NULL),
                     1);
    assert_int_equal(EVP_CIPHER_CTX_set_padding(ctx, 0), 1);
    if (len > 0)
        assert_int_equal(EVP_CipherUpdate(ctx, out, &outl, in, (int)len), 1);
    assert_int_equal(EVP_CipherFinal_ex(ctx, out + outl, &fl), 1);
    assert_int_equal((size_t)(outl + fl), len);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

FC_TEST("aes_diff", test_diff_openssl)
{
    static const size_t full[] = {0,  1,   2,   3,   4,   5,   7,   8,  9,  15,
                                  16, 17,  31,  32,  33,  47,  48,  49, 63, 64,
                                  65, 100, 127, 128, 129, 255, 256, 300};
    static const size_t quick[] = {0, 1, 3, 8, 9, 16, 17, 33, 64, 129};
    const size_t *counts = fc_test_quick() ? quick : full;
    const size_t ncounts =
        fc_test_quick() ? FC_ARRAY_LEN(quick) : FC_ARRAY_LEN(full);
    size_t n, ran = 0;
    const fc_aes_ops *const *tab = impls(&n);
    const fc_aes_ops *ops;
    ref_case *r = malloc(sizeof(*r));

    assert_non_null(r);
    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        ran++;
        for (size_t s = 0; s < FC_ARRAY_LEN(key_sizes); s++) {
            for (size_t c = 0; c < ncounts; c++) {
                const size_t kb = key_sizes[s], blocks = counts[c];
                const size_t len = 16 * blocks;
                fc_test_rand_bytes(r->key, sizeof(r->key));
                fc_test_rand_bytes(r->iv, 16);
                fc_test_rand_bytes(r->in, len);
                evp_aes("ECB", 1, r->key, kb, NULL, r->in, r->ecb, len);
                evp_aes("CBC", 1, r->key, kb, r->iv, r->in, r->enc, len);
                check_op("vs OpenSSL", ops, OP_ECB, r->key, kb, NULL, r->in,
                         blocks, r->ecb, NULL);
                /* Encrypting in->enc, then decrypting enc->in, covers both
                 * directions against one EVP result. */
                check_cbc_pair("vs OpenSSL", ops, r->key, kb, r->iv, r->in,
                               r->enc, blocks);
                /* And EVP decryption of random data, in case a kernel is
                 * only its own inverse. */
                evp_aes("CBC", 0, r->key, kb, r->iv, r->in, r->dec, len);
                check_op("vs OpenSSL", ops, OP_CBC_DEC, r->key, kb, r->iv,
                         r->in, blocks, r->dec,
                         blocks ? r->in + len - 16 : r->iv);
                /* CTR from a counter near each of its wraps in turn. */
                pick_counter(r->ctr, blocks, (int)(c % 4));
                evp_aes("CTR", 1, r->key, kb, r->ctr, r->in, r->ctr128, len);
                memcpy(r->ctr128_next, r->ctr, 16);
                add128(r->ctr128_next, blocks);
                check_op("vs OpenSSL", ops, OP_CTR128, r->key, kb, r->ctr,
                         r->in, blocks, r->ctr128, r->ctr128_next);
            }
        }
    }
    free(r);
    assert_true(ran >= 1);
}

/* ---- ABI -------------------------------------------------------------- */

FC_TEST("aes_abi", test_abi_checker)
{
    FC_TEST_SKIP_IF(!FC_ABI_CHECK_AVAILABLE, "no ABI trampoline on this build");
    assert_true(fc_abi_self_test());
}

FC_TEST("aes_abi", test_abi_kernels)
{
    /* The AES-NI kernels work 8 blocks at a time with 4/2/1 tails, the
     * VAES ones 16 at a time with 8/4/2/1 tails. */
    static const size_t counts[] = {0,  1,  2,  3,  4,  7,  8,  9, 15,
                                    16, 17, 24, 31, 32, 33, 48, 49};
    size_t n, checked = 0;
    const fc_aes_ops *const *tab = impls(&n);
    const fc_aes_ops *ops, *ref = fc_test_aes_generic();
    ref_case *r;
    uint8_t *out;
    char what[160];

    FC_TEST_SKIP_IF(!FC_ABI_CHECK_AVAILABLE, "no ABI trampoline on this build");
    r = malloc(sizeof(*r));
    out = malloc(16 * MAX_BLOCKS);
    assert_non_null(r);
    assert_non_null(out);
    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        if (fc_test_aes_is_generic(ops))
            continue; /* compiled C keeps the ABI by construction */
        checked++;
        for (size_t s = 0; s < FC_ARRAY_LEN(key_sizes); s++) {
            const size_t kb = key_sizes[s];
            fc_aes_key ek, dk;
            for (size_t c = 0; c < FC_ARRAY_LEN(counts); c++) {
                const size_t blocks = counts[c], len = 16 * blocks;
                uint8_t iv[16];

                make_ref(r, ref, kb, blocks);
                snprintf(what, sizeof(what), "%s set_enc_key AES-%zu",
                         ops->name, kb * 8);
                FC_ABI_CALL(what, ops->set_enc_key, FC_ABI_ARG(&ek),
                            FC_ABI_ARG(r->key), kb);
                snprintf(what, sizeof(what), "%s set_dec_key AES-%zu",
                         ops->name, kb * 8);
                FC_ABI_CALL(what, ops->set_dec_key, FC_ABI_ARG(&dk),
                            FC_ABI_ARG(r->key), kb);

                snprintf(what, sizeof(what), "%s ecb_enc AES-%zu blocks=%zu",
                         ops->name, kb * 8, blocks);
                FC_ABI_CALL(what, ops->ecb_enc, FC_ABI_ARG(&ek),
                            FC_ABI_ARG(r->in), FC_ABI_ARG(out), blocks);
                fc_test_expect_equal(what, "output", out, r->ecb, len);

                snprintf(what, sizeof(what), "%s ctr32 AES-%zu blocks=%zu",
                         ops->name, kb * 8, blocks);
                FC_ABI_CALL(what, ops->ctr32, FC_ABI_ARG(&ek),
                            FC_ABI_ARG(r->in), FC_ABI_ARG(out), blocks,
                            FC_ABI_ARG(r->ctr));
                fc_test_expect_equal(what, "output", out, r->ctr32, len);

                snprintf(what, sizeof(what), "%s cbc_enc AES-%zu blocks=%zu",
                         ops->name, kb * 8, blocks);
                memcpy(iv, r->iv, 16);
                FC_ABI_CALL(what, ops->cbc_enc, FC_ABI_ARG(&ek),
                            FC_ABI_ARG(r->in), FC_ABI_ARG(out), blocks,
                            FC_ABI_ARG(iv));
                fc_test_expect_equal(what, "output", out, r->enc, len);
                fc_test_expect_equal(what, "iv", iv, r->enc_iv, 16);

                snprintf(what, sizeof(what), "%s cbc_dec AES-%zu blocks=%zu",
                         ops->name, kb * 8, blocks);
                memcpy(iv, r->iv, 16);
                FC_ABI_CALL(what, ops->cbc_dec, FC_ABI_ARG(&dk),
                            FC_ABI_ARG(r->in), FC_ABI_ARG(out), blocks,
                            FC_ABI_ARG(iv));
                fc_test_expect_equal(what, "output", out, r->dec, len);
                fc_test_expect_equal(what, "iv", iv, r->dec_iv, 16);

                /* In place takes different register paths in some
                 * kernels. */
                snprintf(what, sizeof(what),
                         "%s cbc_dec in place AES-%zu blocks=%zu", ops->name,
                         kb * 8, blocks);
                memcpy(iv, r->iv, 16);
                if (len > 0)
                    memcpy(out, r->in, len);
                FC_ABI_CALL(what, ops->cbc_dec, FC_ABI_ARG(&dk),
                            FC_ABI_ARG(out), FC_ABI_ARG(out), blocks,
                            FC_ABI_ARG(iv));
                fc_test_expect_equal(what, "output", out, r->dec, len);
            }
        }
    }
    free(r);
    free(out);
    FC_TEST_SKIP_IF(checked == 0, "no assembly AES table runs here");
}

/* ---- edge cases ------------------------------------------------------- */

/* blocks == 0 writes nothing: not the output, not the IV. */
FC_TEST("aes_edge", test_zero_blocks)
{
    size_t n;
    const fc_aes_ops *const *tab = impls(&n);
    const fc_aes_ops *ops;

    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        fc_aes_key ek, dk;
        uint8_t key[32], in[32], out[32], out0[32], iv[16], iv0[16];

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(in, sizeof(in));
        fc_test_rand_bytes(out0, sizeof(out0));
        fc_test_rand_bytes(iv0, sizeof(iv0));
        ops->set_enc_key(&ek, key, 32);
        ops->set_dec_key(&dk, key, 32);
        for (int op = OP_ECB; op < OP_COUNT; op++) {
            memcpy(out, out0, sizeof(out));
            memcpy(iv, iv0, 16);
            do_op(ops, (enum op)op, op == OP_CBC_DEC ? &dk : &ek, in, out, 0,
                  iv);
            fc_test_expect_equal(ops->name, op_names[op], out, out0,
                                 sizeof(out));
            fc_test_expect_equal(ops->name, op_names[op], iv, iv0, 16);
            /* in place too */
            do_op(ops, (enum op)op, op == OP_CBC_DEC ? &dk : &ek, out, out, 0,
                  iv);
            fc_test_expect_equal(ops->name, op_names[op], out, out0,
                                 sizeof(out));
            fc_test_expect_equal(ops->name, op_names[op], iv, iv0, 16);
        }
    }
}

/* Each key size sets |rounds|, reads exactly |key_bytes| bytes of key, and
 * gives a different cipher. */
FC_TEST("aes_edge", test_key_sizes)
{
    size_t n;
    const fc_aes_ops *const *tab = impls(&n);
    const fc_aes_ops *ops;

    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        uint8_t key[32], key2[32], pt[16], ct[3][16], ct2[16];
        fc_aes_key k;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(pt, sizeof(pt));
        for (size_t s = 0; s < 3; s++) {
            const size_t kb = key_sizes[s];
            const uint32_t rounds = (uint32_t)(kb / 4 + 6);

            ops->set_enc_key(&k, key, kb);
            assert_int_equal(k.rounds, rounds);
            ops->ecb_enc(&k, pt, ct[s], 1);
            ops->set_dec_key(&k, key, kb);
            assert_int_equal(k.rounds, rounds);
            /* Bytes past key_bytes are not part of the key. */
            memcpy(key2, key, sizeof(key));
            for (size_t i = kb; i < sizeof(key2); i++)
                key2[i] ^= 0x5a;
            ops->set_enc_key(&k, key2, kb);
            ops->ecb_enc(&k, pt, ct2, 1);
            fc_test_expect_equal(ops->name,
                                 "key bytes past key_bytes were read", ct2,
                                 ct[s], 16);
            /* Every byte inside it is. */
            key2[kb - 1] ^= 1;
            ops->set_enc_key(&k, key2, kb);
            ops->ecb_enc(&k, pt, ct2, 1);
            assert_memory_not_equal(ct2, ct[s], 16);
        }
        /* AES-128/192/256 with a common key prefix are different ciphers. */
        assert_memory_not_equal(ct[0], ct[1], 16);
        assert_memory_not_equal(ct[1], ct[2], 16);
        assert_memory_not_equal(ct[0], ct[2], 16);
    }
}

/* A small, obviously-correct (and variable-time: test only) FIPS-197 key
 * expansion, to check the byte layout the AES-NI tables promise. */
static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    while (b) {
        if (b & 1)
            p ^= a;
        a = (uint8_t)((a << 1) ^ (a & 0x80 ? 0x1b : 0));
        b >>= 1;
    }
    return p;
}

static uint8_t sbox(uint8_t x)
{
    uint8_t inv = 0, s;
    for (int y = 1; y < 256 && x; y++)
        if (gmul(x, (uint8_t)y) == 1)
            inv = (uint8_t)y;
    /* FIPS-197 5.1.1 affine transform. */
    s = inv;
    for (int i = 1; i < 5; i++)
        s ^= (uint8_t)((inv << i) | (inv >> (8 - i)));
    return s ^ 0x63;
}

static void ref_expand(const uint8_t *key, size_t kb, uint8_t rk[15][16])
{
    uint8_t w[60][4], rcon = 1;
    const size_t nk = kb / 4, total = 4 * (nk + 7);

    memcpy(w, key, kb);
    for (size_t i = nk; i < total; i++) {
        uint8_t t[4];
        memcpy(t, w[i - 1], 4);
        if (i % nk == 0) {
            uint8_t t0 = t[0];
            t[0] = sbox(t[1]) ^ rcon;
            t[1] = sbox(t[2]);
            t[2] = sbox(t[3]);
            t[3] = sbox(t0);
            rcon = gmul(rcon, 2);
        } else if (nk > 6 && i % nk == 4) {
            for (int j = 0; j < 4; j++)
                t[j] = sbox(t[j]);
        }
        for (int j = 0; j < 4; j++)
            w[i][j] = w[i - nk][j] ^ t[j];
    }
    memcpy(rk, w, 16 * (nk + 7));
}

static void inv_mix_columns(uint8_t out[16], const uint8_t in[16])
{
    for (int c = 0; c < 4; c++) {
        const uint8_t *a = in + 4 * c;
        for (int r = 0; r < 4; r++)
            out[4 * c + r] = gmul(a[r], 0x0e) ^ gmul(a[(r + 1) % 4], 0x0b) ^
                             gmul(a[(r + 2) % 4], 0x0d) ^
                             gmul(a[(r + 3) % 4], 0x09);
    }
}

FC_TEST("aes_edge", test_schedule_layout)
{
    /* FIPS-197 A.1: the last round key for 2b7e1516...; checks ref_expand. */
    static const uint8_t k128[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae,
                                     0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88,
                                     0x09, 0xcf, 0x4f, 0x3c};
    static const uint8_t rk10[16] = {0xd0, 0x14, 0xf9, 0xa8, 0xc9, 0xee,
                                     0x25, 0x89, 0xe1, 0x3f, 0x0c, 0xc8,
                                     0xb6, 0x63, 0x0c, 0xa6};
    uint8_t rk[15][16], tmp[16];
    size_t n, checked = 0;
    const fc_aes_ops *const *tab = impls(&n);
    const fc_aes_ops *ops;

    ref_expand(k128, 16, rk);
    assert_memory_equal(rk[10], rk10, 16);

    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        /* The generic table's layout is its own business (fc/aes.h). */
        if (fc_test_aes_is_generic(ops))
            continue;
        checked++;
        for (size_t s = 0; s < 3; s++) {
            const size_t kb = key_sizes[s], nr = kb / 4 + 6;
            uint8_t key[32];
            fc_aes_key ek, dk;
            char ctx[64];

            fc_test_rand_bytes(key, sizeof(key));
            ref_expand(key, kb, rk);
            ops->set_enc_key(&ek, key, kb);
            ops->set_dec_key(&dk, key, kb);
            snprintf(ctx, sizeof(ctx), "%s AES-%zu schedule", ops->name,
                     kb * 8);
            for (size_t i = 0; i <= nr; i++)
                fc_test_expect_equal(ctx, "encryption round key", ek.rk[i],
                                     rk[i], 16);
            /* Equivalent Inverse Cipher (FIPS-197 5.3.5). */
            fc_test_expect_equal(ctx, "dec rk[0]", dk.rk[0], rk[nr], 16);
            fc_test_expect_equal(ctx, "dec rk[Nr]", dk.rk[nr], rk[0], 16);
            for (size_t i = 1; i < nr; i++) {
                inv_mix_columns(tmp, rk[nr - i]);
                fc_test_expect_equal(ctx, "dec rk[i] = InvMixColumns(rk[Nr-i])",
                                     dk.rk[i], tmp, 16);
            }
        }
    }
    FC_TEST_SKIP_IF(checked == 0, "no AES table with a fixed layout");
}

/* Decrypt(Encrypt(x)) = x across every pair of tables: each uses its own
 * schedules, so this ties the encryption and decryption schedules of one
 * table to the other's. */
FC_TEST("aes_edge", test_round_trip_cross)
{
    size_t n;
    const fc_aes_ops *const *tab = impls(&n);
    const fc_aes_ops *a, *b;
    uint8_t key[32], iv[16], iv2[16], pt[16 * 40], ct[16 * 40], back[16 * 40];

    FC_TEST_FOREACH_IMPL("aes", tab, n, a)
    {
        FC_TEST_FOREACH_IMPL("aes", tab, n, b)
        {
            for (size_t s = 0; s < 3; s++) {
                const size_t kb = key_sizes[s];
                const size_t blocks = 1 + fc_test_rand_below(40);
                fc_aes_key ek, dk;

                fc_test_rand_bytes(key, sizeof(key));
                fc_test_rand_bytes(iv, sizeof(iv));
                fc_test_rand_bytes(pt, sizeof(pt));
                a->set_enc_key(&ek, key, kb);
                b->set_dec_key(&dk, key, kb);
                memcpy(iv2, iv, 16);
                a->cbc_enc(&ek, pt, ct, blocks, iv2);
                memcpy(iv2, iv, 16);
                b->cbc_dec(&dk, ct, back, blocks, iv2);
                fc_test_expect_equal(a->name, b->name, back, pt, 16 * blocks);
                fc_test_expect_equal(a->name, "iv", iv2, ct + 16 * (blocks - 1),
                                     16);
            }
        }
    }
}

/* in == out gives what out-of-place gives, around every loop boundary. */
FC_TEST("aes_edge", test_in_place)
{
    size_t n;
    const fc_aes_ops *const *tab = impls(&n);
    const fc_aes_ops *ops;
    uint8_t key[32], iv[16], iv2[16], a[16 * 64], b[16 * 64];

    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        fc_aes_key ek, dk;

        fc_test_rand_bytes(key, sizeof(key));
        ops->set_enc_key(&ek, key, 32);
        ops->set_dec_key(&dk, key, 32);
        for (size_t blocks = 1; blocks <= 64; blocks++) {
            for (int op = OP_ECB; op < OP_COUNT; op++) {
                const fc_aes_key *k = op == OP_CBC_DEC ? &dk : &ek;
                uint8_t in[16 * 64];
                char ctx[96];

                fc_test_rand_bytes(in, 16 * blocks);
                fc_test_rand_bytes(iv, 16);
                memcpy(iv2, iv, 16);
                do_op(ops, (enum op)op, k, in, a, blocks, iv);
                memcpy(b, in, 16 * blocks);
                do_op(ops, (enum op)op, k, b, b, blocks, iv2);
                snprintf(ctx, sizeof(ctx), "%s %s in place, %zu blocks",
                         ops->name, op_names[op], blocks);
                fc_test_expect_equal(ctx, "output", b, a, 16 * blocks);
                if (op != OP_ECB)
                    fc_test_expect_equal(ctx, "iv", iv2, iv, 16);
            }
        }
    }
}

/* Re-keying a used structure, across key sizes, forgets the old key. */
FC_TEST("aes_edge", test_rekey)
{
    size_t n;
    const fc_aes_ops *const *tab = impls(&n);
    const fc_aes_ops *ops;

    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        uint8_t k1[32], k2[32], pt[64], c1[64], c2[64], iv[16], iv0[16];
        fc_aes_key fresh, used;

        fc_test_rand_bytes(k1, sizeof(k1));
        fc_test_rand_bytes(k2, sizeof(k2));
        fc_test_rand_bytes(pt, sizeof(pt));
        fc_test_rand_bytes(iv0, sizeof(iv0));
        for (size_t s = 0; s < 3; s++) {
            for (size_t t = 0; t < 3; t++) {
                memset(&fresh, 0, sizeof(fresh));
                ops->set_enc_key(&fresh, k2, key_sizes[t]);
                ops->set_enc_key(&used, k1, key_sizes[s]);
                ops->set_enc_key(&used, k2, key_sizes[t]);
                memcpy(iv, iv0, 16);
                ops->cbc_enc(&fresh, pt, c1, 4, iv);
                memcpy(iv, iv0, 16);
                ops->cbc_enc(&used, pt, c2, 4, iv);
                fc_test_expect_equal(ops->name, "re-keyed encryption", c2, c1,
                                     64);
                ops->set_dec_key(&fresh, k2, key_sizes[t]);
                ops->set_dec_key(&used, k1, key_sizes[s]);
                ops->set_dec_key(&used, k2, key_sizes[t]);
                memcpy(iv, iv0, 16);
                ops->cbc_dec(&fresh, c1, c2, 4, iv);
                fc_test_expect_equal(ops->name, "fresh decryption", c2, pt, 64);
                memcpy(iv, iv0, 16);
                ops->cbc_dec(&used, c1, c2, 4, iv);
                fc_test_expect_equal(ops->name, "re-keyed decryption", c2, pt,
                                     64);
            }
        }
    }
}

/*
 * Key, IV and data marked secret (FC_CT_SECRET) through every operation.
 * In a FASTCRYPTO_CT_VALGRIND build run under valgrind, any branch or
 * memory index that depends on them, in C or assembly, is reported as a use
 * of uninitialised memory; elsewhere this is one more round-trip check.
 */
FC_TEST("aes_edge", test_ct_marked)
{
    size_t n;
    const fc_aes_ops *const *tab = impls(&n);
    const fc_aes_ops *ops;

    FC_TEST_FOREACH_IMPL("aes", tab, n, ops)
    {
        for (size_t s = 0; s < 3; s++) {
            const size_t kb = key_sizes[s], blocks = 37;
            uint8_t key[32], iv[16], iv2[16], pt[16 * 37], ct[16 * 37],
                ecb[16 * 37], back[16 * 37], ctr[16 * 37];
            fc_aes_key ek, dk;

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(iv, sizeof(iv));
            fc_test_rand_bytes(pt, sizeof(pt));
            FC_CT_SECRET(key, sizeof(key));
            FC_CT_SECRET(iv, sizeof(iv));
            FC_CT_SECRET(pt, sizeof(pt));
            ops->set_enc_key(&ek, key, kb);
            ops->set_dec_key(&dk, key, kb);
            ops->ecb_enc(&ek, pt, ecb, blocks);
            memcpy(iv2, iv, 16);
            ops->cbc_enc(&ek, pt, ct, blocks, iv2);
            memcpy(iv2, iv, 16);
            ops->cbc_dec(&dk, ct, back, blocks, iv2);
            /* The counter is secret too: GCM's is, for IVs other than 96
             * bits. Two passes of the same keystream undo each other. */
            ops->ctr32(&ek, pt, ctr, blocks, iv);
            ops->ctr32(&ek, ctr, ctr, blocks, iv);
            /* Declassify only to compare. */
            FC_CT_PUBLIC(pt, sizeof(pt));
            FC_CT_PUBLIC(back, sizeof(back));
            FC_CT_PUBLIC(ct, sizeof(ct));
            FC_CT_PUBLIC(ecb, sizeof(ecb));
            FC_CT_PUBLIC(iv2, sizeof(iv2));
            FC_CT_PUBLIC(ctr, sizeof(ctr));
            fc_test_expect_equal(ops->name, "secret-marked round trip", back,
                                 pt, sizeof(pt));
            fc_test_expect_equal(ops->name, "secret-marked CTR twice", ctr, pt,
                                 sizeof(pt));
            fc_test_expect_equal(ops->name, "iv", iv2, ct + 16 * (blocks - 1),
                                 16);
            assert_memory_not_equal(ecb, ct, 16);
            FC_CT_PUBLIC(&ek, sizeof(ek));
            FC_CT_PUBLIC(&dk, sizeof(dk));
            FC_CT_PUBLIC(key, sizeof(key));
            FC_CT_PUBLIC(iv, sizeof(iv));
        }
    }
}

/*
 * The padding checks and the TLS MAC extraction with the decrypted data
 * marked secret: the final block through fc_cbc_pkcs7_check, whole TLS
 * records (payload, MAC, padding; good and bad padding) through
 * fc_tls_cbc_unpad, fc_ssl3_cbc_unpad and fc_tls_cbc_copy_mac. Only the
 * record length and the MAC size are public; the verdicts, the unpadded
 * length and the MAC are declassified after the calls, to be checked
 * against the record as it was built. In a FASTCRYPTO_CT_VALGRIND build
 * under valgrind, a branch or index on the padding shows up here.
 */
FC_TEST("aes_edge", test_tls_cbc_ct_marked)
{
    static const size_t macs[] = {20, 32, 48, 64};
    uint8_t rec[400], mac[FC_TLS_CBC_MAX_MAC], fallback[FC_TLS_CBC_MAX_MAC];

    (void)state;
    for (int r = 0; r < (fc_test_quick() ? 24 : 96); r++) {
        const size_t ms = macs[r % 4];
        const size_t pad =
            r % 3 ? fc_test_rand_below(16) : 200 + (size_t)r % 40;
        const size_t body = ms + fc_test_rand_below(64);
        size_t len = (body + pad + 1 + 15) & ~(size_t)15, un, un3, n;
        const size_t p = len - body - 1; /* the padding length byte */
        const int bad = r % 5 == 4;
        uint64_t good, good3, ok16;

        if (len > sizeof(rec))
            continue;
        assert_true(p <= 255);
        fc_test_rand_bytes(rec, len);
        fc_test_rand_bytes(fallback, sizeof(fallback));
        memset(rec + body, (int)p, p + 1);
        if (bad)
            rec[len - 1 - fc_test_rand_below(p + 1)] ^= 0x40;
        FC_CT_SECRET(rec, len);
        FC_CT_SECRET(fallback, sizeof(fallback));
        good = fc_tls_cbc_unpad(rec, len, ms, &un);
        good3 = fc_ssl3_cbc_unpad(rec, len, ms, &un3);
        fc_tls_cbc_copy_mac(mac, ms, rec, len, un, good, fallback);
        ok16 = fc_cbc_pkcs7_check(rec + len - 16, &n);
        FC_CT_PUBLIC(&good, sizeof(good));
        FC_CT_PUBLIC(&good3, sizeof(good3));
        FC_CT_PUBLIC(&un, sizeof(un));
        FC_CT_PUBLIC(&un3, sizeof(un3));
        FC_CT_PUBLIC(&ok16, sizeof(ok16));
        FC_CT_PUBLIC(&n, sizeof(n));
        FC_CT_PUBLIC(mac, ms);
        FC_CT_PUBLIC(rec, len);
        FC_CT_PUBLIC(fallback, sizeof(fallback));
        if (bad) {
            assert_true(good == 0 && un == len);
            assert_memory_equal(mac, fallback, ms);
        } else {
            assert_true(good == UINT64_MAX && un == body);
            assert_memory_equal(mac, rec + body - ms, ms);
        }
        /* SSLv3: only the length byte counts, at most one block. */
        if (rec[len - 1] == p && p < 16)
            assert_true(good3 == UINT64_MAX && un3 == body);
        else if (rec[len - 1] == p)
            assert_true(good3 == 0 && un3 == len);
        /* PKCS#7 on the last block: TLS padding p (p + 1 bytes of p) is
         * PKCS#7 padding of p bytes when 1 <= p <= 16. */
        if (!bad && p >= 1 && p <= 16)
            assert_true(ok16 == UINT64_MAX && n == 16 - p);
        else if (!bad)
            assert_true(ok16 == 0 && n == 16);
    }
}

/*
 * fc_tls_cbc_copy_mac and fc_tls_cbc_unpad against plain references for
 * every MAC size 1..64 (word-wise for multiples of 4, byte-wise
 * otherwise) at every MAC position the window allows, short and long
 * records, the fallback taken where |good| is 0 and for a size outside
 * 1..64; and the padding check
 * for every length byte and record length 1..300.
 */
FC_TEST("aes_edge", test_tls_cbc_helpers)
{
    uint8_t rec[400], mac[FC_TLS_CBC_MAX_MAC], fallback[FC_TLS_CBC_MAX_MAC];
    const size_t step = fc_test_quick() ? 7 : 1;

    (void)state;
    for (size_t ms = 1; ms <= FC_TLS_CBC_MAX_MAC; ms++) {
        const size_t len = ms % 3 == 0 ? ms + 20 : 380;

        fc_test_rand_bytes(rec, len);
        fc_test_rand_bytes(fallback, sizeof(fallback));
        for (size_t end = ms; end <= len; end += step) {
            if (len - end > FC_TLS_CBC_MAX_PAD)
                continue;
            for (int g = 0; g < 2; g++) {
                fc_tls_cbc_copy_mac(mac, ms, rec, len, end, g ? UINT64_MAX : 0,
                                    fallback);
                if (memcmp(mac, g ? rec + end - ms : fallback, ms) != 0)
                    fail_msg("copy_mac: size %zu, end %zu of %zu, good %d", ms,
                             end, len, g);
            }
        }
    }
    /* Outside the contract (no MAC, or one longer than any TLS MAC) the
     * fallback comes out, even for a good record, and nothing past
     * |mac_size| bytes is written (the sanitizer build sees the rest). */
    {
        uint8_t big[FC_TLS_CBC_MAX_MAC + 1], fb[FC_TLS_CBC_MAX_MAC + 1];
        uint8_t none = 0x5a;

        fc_test_rand_bytes(rec, sizeof(rec));
        fc_test_rand_bytes(fb, sizeof(fb));
        fc_tls_cbc_copy_mac(big, sizeof(big), rec, 300, 290, UINT64_MAX, fb);
        assert_memory_equal(big, fb, sizeof(big));
        fc_tls_cbc_copy_mac(&none, 0, rec, 300, 290, UINT64_MAX, fb);
        assert_int_equal(none, 0x5a);
    }
    for (size_t len = 1; len <= 300; len += step) {
        for (size_t ms = 0; ms <= 32; ms += 20) {
            if (len < ms + 1)
                continue;
            fc_test_rand_bytes(rec, len);
            for (size_t p = 0; p <= 255; p += fc_test_quick() ? 17 : 1) {
                size_t un, want = len, i;
                uint64_t good;
                int ok = p + 1 + ms <= len;

                rec[len - 1] = (uint8_t)p;
                for (i = 1; i <= p && i < len; i++)
                    rec[len - 1 - i] = (uint8_t)p;
                if (ok && p > 0 && (len + p) % 3 == 0) {
                    rec[len - 1 - (len + p) % p - 1] ^= 1; /* spoil one */
                    ok = 0;
                }
                if (ok)
                    want = len - p - 1;
                good = fc_tls_cbc_unpad(rec, len, ms, &un);
                if (good != (ok ? UINT64_MAX : 0) || un != want)
                    fail_msg("unpad: len %zu mac %zu pad %zu: good %d, "
                             "unpadded %zu (want %d, %zu)",
                             len, ms, p, good != 0, un, ok, want);
            }
        }
    }
}

int main(void)
{
    return fc_test_main(NULL, 0);
}
