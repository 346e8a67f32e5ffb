/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_aes_gcm.c - AES-GCM for every GCM table (fc_gcm_impls) the CPU runs:
 * the CTR+GHASH kernels (enc/dec) on their own, and the GCM state API of
 * fc/gcm.h (IV, AAD, data in pieces, tag) built on them.
 *
 * Groups:
 *   gcm_kat   test/kat/aes_gcm.txt (McGrew-Viega test cases 1-18: three
 *             key sizes, 64-, 96- and 480-bit IVs, empty messages) through
 *             the in-test reference, through every table's raw kernels
 *             (J0, AAD, length block and tag computed here), and through
 *             the state API whole, byte by byte and in random pieces, in
 *             place and not, both directions, with tag verification;
 *   gcm_diff  every accelerated kernel against the generic one and the
 *             reference at every block count 0..3*8*16+15, random key,
 *             counter and GHASH state, in place and not, both directions;
 *             kernels and the state API across the 32-bit counter wrap
 *             (IVs built so that J0 ends just below it, and a table that
 *             fails any kernel call crossing the wrap); the state API of
 *             every table against the reference and OpenSSL's default
 *             provider with random IV, AAD and data lengths and pieces,
 *             and at every record length 0..300 with every AAD length
 *             0..64 (the short path's shapes), whole and cut once;
 *   gcm_abi   enc and dec of the assembly tables through the
 *             calling-convention trampoline at block counts
 *             {0,1,7,8,9,15,16,17,24,31,32,33,48,63,64,65,95,96,97};
 *   gcm_edge  the state API's refusals (empty IV, AAD after data, length
 *             limits, tag lengths), every one-bit tag error, truncated
 *             tags, state copies, several states on one key, the key left
 *             untouched, selection and the self test, the kernels' data
 *             and key against inaccessible pages (the over-read check of
 *             assembly, which valgrind cannot run for AVX-512), and a run
 *             with secrets marked for the valgrind constant-time build.
 *
 * The reference is written from SP 800-38D alone: AES-ECB from OpenSSL's
 * default provider (an implementation independent of ours), inc32 counter
 * blocks, and a bit-by-bit GF(2^128) multiply.
 *
 * FC_TEST_QUICK=1 shrinks the block counts and random rounds (valgrind);
 * FC_TEST_SEED replays a run; FASTCRYPTO_CPU_MASK switches tables off.
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

#include "abi_check.h"
#include "fc/asm_offsets.h"
#include "fc/common.h"
#include "fc/ct.h"
#include "fc/gcm.h"
#include "fc/tuning.h"
#include "checks.h"
#include "impls.h"
#include "kat.h"
#include "runner.h"

#define MAX_BLOCKS (3 * 8 * 16 + 15)
#define GUARD      32

static const size_t key_sizes[] = {16, 24, 32};

/* ---- reference (SP 800-38D) ------------------------------------------- */

/* h^-1 = h^(2^128 - 2): the product of h^(2^i), i = 1..127. */
static void ref_inv(uint8_t out[16], const uint8_t h[16])
{
    uint8_t s[16], r[16] = {0x80}, t[16];

    memcpy(s, h, 16);
    for (int i = 1; i < 128; i++) {
        fc_test_gf128_mul(t, s, s);
        memcpy(s, t, 16);
        fc_test_gf128_mul(t, r, s);
        memcpy(r, t, 16);
    }
    memcpy(out, r, 16);
}

/* AES from OpenSSL's default provider: the independent block cipher. */
typedef struct {
    EVP_CIPHER_CTX *ecb;
    uint8_t h[16];
} ref_key;

static void ref_ecb(const ref_key *rk, const uint8_t *in, uint8_t *out,
                    size_t blocks)
{
    int outl = 0;
    if (blocks == 0)
        return;
    assert_int_equal(
        EVP_EncryptUpdate(rk->ecb, out, &outl, in, (int)(16 * blocks)), 1);
    assert_int_equal(outl, (int)(16 * blocks));
}

static void ref_key_init(ref_key *rk, const uint8_t *key, size_t kb)
{
    static const uint8_t zero[16];
    char name[24];
    EVP_CIPHER *c;

    snprintf(name, sizeof(name), "AES-%zu-ECB", kb * 8);
    c = EVP_CIPHER_fetch(NULL, name, "provider=default");
    assert_non_null(c);
    rk->ecb = EVP_CIPHER_CTX_new();
    assert_non_null(rk->ecb);
    assert_int_equal(EVP_EncryptInit_ex2(rk->ecb, c, key, NULL, NULL), 1);
    assert_int_equal(EVP_CIPHER_CTX_set_padding(rk->ecb, 0), 1);
    EVP_CIPHER_free(c);
    ref_ecb(rk, zero, rk->h, 1);
}

static void ref_key_free(ref_key *rk)
{
    EVP_CIPHER_CTX_free(rk->ecb);
}

/* SP 800-38D inc32: the low 32 bits, big-endian, modulo 2^32. */
static void inc32(uint8_t ctr[16], uint32_t by)
{
    fc_store_be32(ctr + 12, fc_load_be32(ctr + 12) + by);
}

/* The kernel contract with the counter wrapping as the spec says:
 * out = in ^ E(K, ctr + i); xi absorbs the ciphertext blocks. */
static void ref_kernel(const ref_key *rk, int enc, const uint8_t *in,
                       uint8_t *out, size_t blocks, const uint8_t ctr0[16],
                       uint8_t xi[16])
{
    uint8_t ctr[16], ks[16];

    memcpy(ctr, ctr0, 16);
    for (size_t i = 0; i < blocks; i++) {
        uint8_t b[16];
        memcpy(b, in + 16 * i, 16);
        if (!enc)
            fc_test_ghash(rk->h, xi, b, 16);
        ref_ecb(rk, ctr, ks, 1);
        for (int j = 0; j < 16; j++)
            out[16 * i + j] = b[j] ^ ks[j];
        if (enc)
            fc_test_ghash(rk->h, xi, out + 16 * i, 16);
        inc32(ctr, 1);
    }
}

/* J0 (SP 800-38D 7.1 step 2). */
static void ref_j0(const ref_key *rk, const uint8_t *iv, size_t ivlen,
                   uint8_t j0[16])
{
    if (ivlen == 12) {
        memcpy(j0, iv, 12);
        fc_store_be32(j0 + 12, 1);
    } else {
        uint8_t lb[16] = {0};
        memset(j0, 0, 16);
        fc_test_ghash(rk->h, j0, iv, ivlen);
        fc_store_be64(lb + 8, (uint64_t)ivlen * 8);
        fc_test_ghash(rk->h, j0, lb, 16);
    }
}

/* Whole-message GCM-AE / GCM-AD (|enc| 0: |in| is ciphertext and the tag
 * is the one computed, for the caller to compare). */
static void ref_gcm(const ref_key *rk, int enc, const uint8_t *iv, size_t ivlen,
                    const uint8_t *aad, size_t alen, const uint8_t *in,
                    size_t len, uint8_t *out, uint8_t tag[16])
{
    uint8_t j0[16], ctr[16], xi[16] = {0}, ks[16], lb[16];

    ref_j0(rk, iv, ivlen, j0);
    fc_test_ghash(rk->h, xi, aad, alen);
    memcpy(ctr, j0, 16);
    for (size_t off = 0; off < len; off += 16) {
        size_t n = len - off < 16 ? len - off : 16;
        inc32(ctr, 1);
        ref_ecb(rk, ctr, ks, 1);
        for (size_t j = 0; j < n; j++)
            out[off + j] = in[off + j] ^ ks[j];
    }
    fc_test_ghash(rk->h, xi, enc ? out : in, len);
    fc_store_be64(lb, (uint64_t)alen * 8);
    fc_store_be64(lb + 8, (uint64_t)len * 8);
    fc_test_ghash(rk->h, xi, lb, 16);
    ref_ecb(rk, j0, ks, 1);
    for (int j = 0; j < 16; j++)
        tag[j] = xi[j] ^ ks[j];
}

/* ---- helpers ---------------------------------------------------------- */

static const fc_gcm_ops *const *impls(size_t *n)
{
    return fc_gcm_impls(n);
}

static int is_generic(const fc_gcm_ops *ops)
{
    return ops->enc == fc_gcm_enc_generic;
}

static const fc_gcm_ops *generic_ops(void)
{
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    assert_true(n > 0);
    assert_true(is_generic(tab[n - 1]));
    return tab[n - 1];
}

/* Dirty memory for a key, aligned as the structure asks. */
static fc_gcm_key *alloc_key(void)
{
    fc_gcm_key *k = aligned_alloc(64, (sizeof(fc_gcm_key) + 63) & ~63UL);
    assert_non_null(k);
    fc_test_rand_bytes(k, sizeof(*k));
    return k;
}

/* A key made on dirty memory, as a provider context would hold it: where
 * the table is made in parts, only its first part (the state API grows
 * it). */
static fc_gcm_key *new_key(const fc_gcm_ops *ops, const uint8_t *key, size_t kb)
{
    fc_gcm_key *k = alloc_key();
    fc_gcm_set_key(k, ops, key, kb);
    assert_ptr_equal(k->ops, ops);
    return k;
}

/* A key for the kernels themselves: its table complete. */
static fc_gcm_key *kernel_key(const fc_gcm_ops *ops, const uint8_t *key,
                              size_t kb)
{
    fc_gcm_key *k = new_key(ops, key, kb);
    fc_gcm_key_complete(k);
    assert_true(k->hmax == SIZE_MAX);
    return k;
}

static void free_key(fc_gcm_key *k)
{
    fc_memzero(k, sizeof(*k));
    free(k);
}

/* Random piece lengths summing to |total|: 0 to |maxp| bytes each (empty
 * pieces included), or one byte each when maxp is 1. */
static size_t make_cuts(size_t *cuts, size_t maxcuts, size_t total, size_t maxp)
{
    size_t n = 0, off = 0;
    while (off < total && n + 1 < maxcuts) {
        size_t p = maxp == 1 ? 1 : fc_test_rand_below(maxp + 1);
        if (p > total - off)
            p = total - off;
        off += p;
        cuts[n++] = p;
    }
    if (off < total)
        cuts[n++] = total - off;
    return n;
}

/*
 * core_run drives the state API of |k| over one message: IV, the AAD in
 * pieces |acuts|, the data in pieces |dcuts| (in == out when |in_place|),
 * then the tag (enc) or a verification of |tag| (dec). Every call must
 * succeed; returns what fc_gcm_verify said (always 1 for enc).
 */
static int core_run(fc_gcm_key *k, int enc, const uint8_t *iv, size_t ivlen,
                    const uint8_t *aad, size_t alen, const size_t *acuts,
                    size_t nacuts, const uint8_t *in, uint8_t *out, size_t len,
                    const size_t *dcuts, size_t ndcuts, uint8_t tag[16],
                    size_t taglen)
{
    fc_gcm_state st;
    size_t off = 0;

    fc_test_rand_bytes(&st, sizeof(st)); /* nothing may rely on zeroes */
    assert_int_equal(fc_gcm_set_iv(k, &st, iv, ivlen), 1);
    for (size_t i = 0; i < nacuts; i++) {
        assert_int_equal(fc_gcm_aad(k, &st, aad + off, acuts[i]), 1);
        off += acuts[i];
    }
    assert_int_equal(off, alen);
    off = 0;
    for (size_t i = 0; i < ndcuts; i++) {
        if (enc)
            assert_int_equal(
                fc_gcm_encrypt(k, &st, in + off, out + off, dcuts[i]), 1);
        else
            assert_int_equal(
                fc_gcm_decrypt(k, &st, in + off, out + off, dcuts[i]), 1);
        off += dcuts[i];
    }
    assert_int_equal(off, len);
    if (enc) {
        fc_gcm_finish(k, &st, tag);
        return 1;
    }
    return fc_gcm_verify(k, &st, tag, taglen);
}

/*
 * check_core checks one message through the state API of |ops| against
 * the expected |ct| and |tag| in several ways: whole, byte by byte, random
 * pieces; out of place (exact-size input, guarded output) and in place;
 * encryption and decryption, the latter verifying the tag.
 */
static void check_core(const char *what, const fc_gcm_ops *ops,
                       const uint8_t *key, size_t kb, const uint8_t *iv,
                       size_t ivlen, const uint8_t *aad, size_t alen,
                       const uint8_t *pt, const uint8_t *ct, size_t len,
                       const uint8_t tag[16])
{
    static const char *const ways[] = {"whole", "byte by byte",
                                       "random pieces"};
    size_t *acuts = calloc(alen + 2, sizeof(size_t));
    size_t *dcuts = calloc(len + 2, sizeof(size_t));
    fc_gcm_key *k = new_key(ops, key, kb);
    char ctx[300];

    assert_non_null(acuts);
    assert_non_null(dcuts);
    for (int way = 0; way < 3; way++) {
        for (int in_place = 0; in_place < 2; in_place++) {
            for (int enc = 1; enc >= 0; enc--) {
                const uint8_t *src = enc ? pt : ct, *want = enc ? ct : pt;
                size_t na, nd;
                uint8_t *inbase, *inp, t[16];
                fc_guard g;

                if (way == 0) {
                    na = 1, acuts[0] = alen;
                    nd = 1, dcuts[0] = len;
                } else {
                    size_t mp = way == 1 ? 1 : 1 + fc_test_rand_below(40);
                    na = make_cuts(acuts, alen + 2, alen, mp);
                    nd = make_cuts(dcuts, len + 2, len, mp);
                }
                snprintf(ctx, sizeof(ctx), "%s: %s AES-%zu %s, %s, %s", what,
                         ops->name, kb * 8, enc ? "encrypt" : "decrypt",
                         ways[way], in_place ? "in place" : "out of place");
                inp = fc_test_exact_copy(src, len, fc_test_rand_below(16),
                                         &inbase);
                fc_guard_new_random(&g, len, GUARD + fc_test_rand_below(16),
                                    GUARD);
                if (in_place && len > 0)
                    memcpy(g.p, src, len);
                memcpy(t, tag, 16);
                int ok =
                    core_run(k, enc, iv, ivlen, aad, alen, acuts, na,
                             in_place ? g.p : inp, g.p, len, dcuts, nd, t, 16);
                fc_test_expect_equal(ctx, enc ? "ciphertext" : "plaintext", g.p,
                                     want, len);
                if (enc)
                    fc_test_expect_equal(ctx, "tag", t, tag, 16);
                else if (!ok)
                    fail_msg("%s: the correct tag did not verify", ctx);
                fc_guard_check(&g, ctx);
                if (!in_place)
                    fc_test_expect_equal(ctx, "input (must not change)", inp,
                                         src, len);
                fc_guard_free(&g);
                free(inbase);
            }
        }
    }
    free_key(k);
    free(acuts);
    free(dcuts);
}

/*
 * kernel_gcm computes GCM-AE (enc) or GCM-AD with the raw kernels of |ops|
 * alone: J0 and the AAD through ops->ghash, whole blocks through
 * ops->enc/dec, the partial tail through ops->aes and ops->ghash, the tag
 * through ops->aes. It relies on nothing in provider/core/gcm.c except
 * fc_gcm_set_key and fc_gcm_key_complete, so it pins the kernels to the
 * spec directly.
 */
static void kernel_gcm(const fc_gcm_key *k, int enc, const uint8_t *iv,
                       size_t ivlen, const uint8_t *aad, size_t alen,
                       const uint8_t *in, uint8_t *out, size_t len,
                       uint8_t tag[16])
{
    const fc_gcm_ops *ops = k->ops;
    uint8_t j0[16], ctr[16], xi[16] = {0}, blk[16], ks[16], ek0[16];
    size_t full = len / 16, rem = len % 16;

    if (ivlen == 12) {
        memcpy(j0, iv, 12);
        fc_store_be32(j0 + 12, 1);
    } else {
        memset(j0, 0, 16);
        ops->ghash(k->htable, j0, iv, ivlen / 16);
        if (ivlen % 16) {
            memset(blk, 0, 16);
            memcpy(blk, iv + ivlen / 16 * 16, ivlen % 16);
            ops->ghash(k->htable, j0, blk, 1);
        }
        memset(blk, 0, 16);
        fc_store_be64(blk + 8, (uint64_t)ivlen * 8);
        ops->ghash(k->htable, j0, blk, 1);
    }
    ops->ghash(k->htable, xi, aad, alen / 16);
    if (alen % 16) {
        memset(blk, 0, 16);
        memcpy(blk, aad + alen / 16 * 16, alen % 16);
        ops->ghash(k->htable, xi, blk, 1);
    }
    memcpy(ctr, j0, 16);
    inc32(ctr, 1);
    /* The callers' counters never reach the wrap here (KAT IVs). */
    assert_true((uint64_t)fc_load_be32(ctr + 12) + full <= UINT64_C(1) << 32);
    (enc ? ops->enc : ops->dec)(k, in, out, full, ctr, xi);
    inc32(ctr, (uint32_t)full);
    if (rem) {
        ops->aes->ecb_enc(&k->aes, ctr, ks, 1);
        memset(blk, 0, 16);
        for (size_t j = 0; j < rem; j++) {
            uint8_t b = in[16 * full + j];
            out[16 * full + j] = b ^ ks[j];
            blk[j] = enc ? (uint8_t)(b ^ ks[j]) : b;
        }
        ops->ghash(k->htable, xi, blk, 1);
    }
    fc_store_be64(blk, (uint64_t)alen * 8);
    fc_store_be64(blk + 8, (uint64_t)len * 8);
    ops->ghash(k->htable, xi, blk, 1);
    ops->aes->ecb_enc(&k->aes, j0, ek0, 1);
    for (int j = 0; j < 16; j++)
        tag[j] = xi[j] ^ ek0[j];
}

/* ---- KAT -------------------------------------------------------------- */

static const char *const kat_fields[] = {
    "Key", "IV", "AAD", "Plaintext", "Ciphertext", "Tag", NULL};

typedef struct {
    const uint8_t *key, *iv, *aad, *pt, *ct, *tag;
    size_t kl, ivl, al, len;
} gcm_vec;

static int kat_next(fc_kat *k, gcm_vec *v)
{
    size_t cl, tl;
    if (!fc_kat_next(k))
        return 0;
    fc_kat_check_fields(k, kat_fields);
    v->key = fc_kat_bytes(k, "Key", &v->kl);
    v->iv = fc_kat_bytes(k, "IV", &v->ivl);
    v->aad = fc_kat_bytes(k, "AAD", &v->al);
    v->pt = fc_kat_bytes(k, "Plaintext", &v->len);
    v->ct = fc_kat_bytes(k, "Ciphertext", &cl);
    v->tag = fc_kat_bytes(k, "Tag", &tl);
    if (v->kl != 16 && v->kl != 24 && v->kl != 32)
        fc_kat_fail(k, "key length %zu", v->kl);
    if (cl != v->len || tl != 16 || v->ivl == 0)
        fc_kat_fail(k, "lengths: ct %zu pt %zu tag %zu iv %zu", cl, v->len, tl,
                    v->ivl);
    return 1;
}

/* The reference against the spec's vectors: the oracle of gcm_diff. */
FC_TEST("gcm_kat", test_kat_reference)
{
    fc_kat *k = fc_kat_open("aes_gcm.txt");
    gcm_vec v;
    size_t count = 0;

    while (kat_next(k, &v)) {
        ref_key rk;
        uint8_t *out = fc_test_xmalloc(v.len), tag[16];

        ref_key_init(&rk, v.key, v.kl);
        ref_gcm(&rk, 1, v.iv, v.ivl, v.aad, v.al, v.pt, v.len, out, tag);
        fc_test_expect_equal(fc_kat_where(k), "reference ciphertext", out, v.ct,
                             v.len);
        fc_test_expect_equal(fc_kat_where(k), "reference tag", tag, v.tag, 16);
        ref_gcm(&rk, 0, v.iv, v.ivl, v.aad, v.al, v.ct, v.len, out, tag);
        fc_test_expect_equal(fc_kat_where(k), "reference plaintext", out, v.pt,
                             v.len);
        fc_test_expect_equal(fc_kat_where(k), "reference tag (decrypt)", tag,
                             v.tag, 16);
        ref_key_free(&rk);
        free(out);
        count++;
    }
    fc_kat_close(k);
    assert_int_equal(count, 18);
}

FC_TEST("gcm_kat", test_kat_kernels)
{
    size_t n, ran = 0;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        fc_kat *k = fc_kat_open("aes_gcm.txt");
        gcm_vec v;
        size_t count = 0;

        while (kat_next(k, &v)) {
            fc_gcm_key *key = kernel_key(ops, v.key, v.kl);
            uint8_t *out = fc_test_xmalloc(v.len), tag[16];
            char ctx[200];

            snprintf(ctx, sizeof(ctx), "%s: %s kernels", fc_kat_where(k),
                     ops->name);
            kernel_gcm(key, 1, v.iv, v.ivl, v.aad, v.al, v.pt, out, v.len, tag);
            fc_test_expect_equal(ctx, "ciphertext", out, v.ct, v.len);
            fc_test_expect_equal(ctx, "tag", tag, v.tag, 16);
            kernel_gcm(key, 0, v.iv, v.ivl, v.aad, v.al, v.ct, out, v.len, tag);
            fc_test_expect_equal(ctx, "plaintext", out, v.pt, v.len);
            fc_test_expect_equal(ctx, "tag (decrypt)", tag, v.tag, 16);
            free(out);
            free_key(key);
            count++;
        }
        fc_kat_close(k);
        assert_int_equal(count, 18);
        ran++;
    }
    assert_true(ran >= 1);
}

FC_TEST("gcm_kat", test_kat_core)
{
    size_t n, ran = 0;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        fc_kat *k = fc_kat_open("aes_gcm.txt");
        gcm_vec v;
        size_t count = 0;

        while (kat_next(k, &v)) {
            check_core(fc_kat_where(k), ops, v.key, v.kl, v.iv, v.ivl, v.aad,
                       v.al, v.pt, v.ct, v.len, v.tag);
            count++;
        }
        fc_kat_close(k);
        assert_int_equal(count, 18);
        ran++;
    }
    assert_true(ran >= 1);
}

/* ---- differential: kernels -------------------------------------------- */

/*
 * check_kernel runs ops->enc or ops->dec over |blocks| blocks of |in| from
 * counter |ctr| and state |xi0|: out of place, in place, and split in two
 * calls at a random block (the caller advancing the counter, as C does).
 * Each must give |want| and |want_xi|, write nothing outside the output,
 * and leave the input, the counter and the key alone.
 */
static void check_kernel(const char *what, const fc_gcm_key *k, int enc,
                         const uint8_t *in, size_t blocks,
                         const uint8_t ctr[16], const uint8_t xi0[16],
                         const uint8_t *want, const uint8_t want_xi[16])
{
    static const char *const ways[] = {
        "out of place", "in place", "split, out of place", "split, in place"};
    const fc_gcm_ops *ops = k->ops;
    fc_gcm_crypt_fn *fn = enc ? ops->enc : ops->dec;
    const size_t len = 16 * blocks;
    fc_gcm_key *kcopy = (fc_gcm_key *)fc_test_xmalloc(sizeof(*kcopy));
    char ctx[300];

    memcpy(kcopy, k, sizeof(*k));
    for (int way = 0; way < 4; way++) {
        const int in_place = way & 1, split = way >> 1;
        uint8_t c[16], c0[16], xi[16], *inbase, *inp;
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
        memcpy(c, ctr, 16);
        memcpy(c0, ctr, 16);
        memcpy(xi, xi0, 16);
        if (split)
            first = 1 + fc_test_rand_below(blocks - 1);
        snprintf(ctx, sizeof(ctx), "%s: %s %s, %zu blocks, %s", what, ops->name,
                 enc ? "enc" : "dec", blocks, ways[way]);
        if (split) {
            snprintf(ctx + strlen(ctx), sizeof(ctx) - strlen(ctx),
                     " (first call %zu blocks)", first);
            fn(k, src, g.p, first, c, xi);
            fc_test_expect_equal(ctx, "counter (kernels never write it)", c, c0,
                                 16);
            inc32(c, (uint32_t)first);
            fn(k, src + 16 * first, g.p + 16 * first, blocks - first, c, xi);
            inc32(c, (uint32_t)(0u - first));
        } else {
            fn(k, src, g.p, blocks, c, xi);
        }
        fc_test_expect_equal(ctx, "output", g.p, want, len);
        fc_test_expect_equal(ctx, "xi", xi, want_xi, 16);
        fc_test_expect_equal(ctx, "counter (kernels never write it)", c, c0,
                             16);
        fc_guard_check(&g, ctx);
        if (!in_place)
            fc_test_expect_equal(ctx, "input (must not change)", inp, in, len);
        fc_test_expect_equal(ctx, "key (must not change)", (const uint8_t *)k,
                             (const uint8_t *)kcopy, sizeof(*k));
        fc_guard_free(&g);
        free(inbase);
    }
    free(kcopy);
}

/* A random counter block whose low 32 bits leave room for |blocks|. */
static void random_ctr(uint8_t ctr[16], size_t blocks)
{
    uint64_t room = (UINT64_C(1) << 32) - blocks;
    fc_test_rand_bytes(ctr, 16);
    /* Now and then right at the edge: the last block uses 0xffffffff. */
    uint64_t c =
        fc_test_rand_below(4) == 0 ? room : fc_test_rand64() % (room + 1);
    fc_store_be32(ctr + 12, (uint32_t)c);
}

FC_TEST("gcm_diff", test_diff_kernels)
{
    static size_t counts[MAX_BLOCKS + 1];
    size_t n, ncounts = fc_test_block_counts(counts, MAX_BLOCKS);
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops, *gen = generic_ops();
    uint8_t *in = fc_test_xmalloc(16 * MAX_BLOCKS),
            *want = fc_test_xmalloc(16 * MAX_BLOCKS);
    uint8_t *ref = fc_test_xmalloc(16 * MAX_BLOCKS);

    for (size_t c = 0; c < ncounts; c++) {
        const size_t blocks = counts[c], kb = key_sizes[c % 3];
        for (int enc = 0; enc < 2; enc++) {
            uint8_t key[32], ctr[16], xi0[16], want_xi[16], ref_xi[16];
            fc_gcm_key *gk;
            ref_key rk;

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(xi0, 16);
            fc_test_rand_bytes(in, 16 * blocks);
            random_ctr(ctr, blocks);
            /* The generic kernel against the reference, then every table
             * (the generic one included) against it. */
            gk = kernel_key(gen, key, kb);
            memcpy(want_xi, xi0, 16);
            (enc ? gen->enc : gen->dec)(gk, in, want, blocks, ctr, want_xi);
            ref_key_init(&rk, key, kb);
            memcpy(ref_xi, xi0, 16);
            ref_kernel(&rk, enc, in, ref, blocks, ctr, ref_xi);
            ref_key_free(&rk);
            fc_test_expect_equal("generic vs reference", "output", want, ref,
                                 16 * blocks);
            fc_test_expect_equal("generic vs reference", "xi", want_xi, ref_xi,
                                 16);
            free_key(gk);
            FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
            {
                fc_gcm_key *k = kernel_key(ops, key, kb);
                check_kernel("vs generic", k, enc, in, blocks, ctr, xi0, want,
                             want_xi);
                free_key(k);
            }
        }
    }
    free(in);
    free(want);
    free(ref);
}

/*
 * The _bytes kernels (ops->enc_bytes/dec_bytes, where a table has them)
 * against the generic ones at every length to 64 bytes and at each loop
 * boundary plus 1, 7 and 15 bytes: out of place (input an exact-size
 * copy, output guarded), in place, and against inaccessible pages after
 * and before the data (a partial last block is read and written under a
 * byte mask); the generic ones against the reference first. Where an ABI
 * trampoline exists, one call each way under it.
 */
FC_TEST("gcm_diff", test_diff_kernels_bytes)
{
    static const size_t whole[] = {7,  8,  9,  15, 16, 17, 31, 32,
                                   33, 47, 63, 64, 65, 95, 96, 97};
    static const size_t tails[] = {1, 7, 15};
    size_t lens[65 + FC_ARRAY_LEN(whole) * FC_ARRAY_LEN(tails)], nl = 0;
    size_t n, ran = 0;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops, *gen = generic_ops();
    static uint8_t in[16 * 98], want[16 * 98], ref[16 * 98];

    for (size_t l = 0; l <= 64; l++)
        lens[nl++] = l;
    for (size_t w = 0; w < FC_ARRAY_LEN(whole); w++)
        for (size_t t = 0; t < FC_ARRAY_LEN(tails); t++)
            lens[nl++] = 16 * whole[w] + tails[t];
    for (size_t c = 0; c < nl; c++) {
        const size_t len = lens[c], blocks = (len + 15) / 16;
        const size_t kb = key_sizes[c % 3];

        for (int enc = 0; enc < 2; enc++) {
            uint8_t key[32], ctr[16], xi0[16], want_xi[16], ref_xi[16];
            uint8_t pad[16 * 98] = {0};
            fc_gcm_key *gk;
            ref_key rk;

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(xi0, 16);
            fc_test_rand_bytes(in, len);
            random_ctr(ctr, blocks);
            gk = kernel_key(gen, key, kb);
            memcpy(want_xi, xi0, 16);
            (enc ? gen->enc_bytes : gen->dec_bytes)(gk, in, want, len, ctr,
                                                    want_xi);
            free_key(gk);
            /* The reference over the zero-padded blocks: the bytes past
             * |len| of its output are not ours, and when encrypting the
             * last block is hashed with its ciphertext cut at |len|, so
             * the reference's xi is redone from a zero-padded copy. */
            ref_key_init(&rk, key, kb);
            memcpy(pad, in, len);
            memcpy(ref_xi, xi0, 16);
            ref_kernel(&rk, enc, pad, ref, blocks, ctr, ref_xi);
            if (enc) {
                memset(pad, 0, sizeof(pad));
                memcpy(pad, ref, len);
                memcpy(ref_xi, xi0, 16);
                fc_test_ghash(rk.h, ref_xi, pad, 16 * blocks);
            }
            ref_key_free(&rk);
            fc_test_expect_equal("generic bytes vs reference", "output", want,
                                 ref, len);
            fc_test_expect_equal("generic bytes vs reference", "xi", want_xi,
                                 ref_xi, 16);
            FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
            {
                fc_gcm_crypt_bytes_fn *fn =
                    enc ? ops->enc_bytes : ops->dec_bytes;
                fc_gcm_key *k;
                char ctx[200];

                if (fn == NULL || is_generic(ops))
                    continue;
                ran++;
                k = kernel_key(ops, key, kb);
                for (int way = 0; way < 4; way++) {
                    uint8_t xi[16], *inbase, *inp, *src, *dst;
                    fc_guard g;

                    snprintf(ctx, sizeof(ctx),
                             "%s %s_bytes AES-%zu, %zu bytes, %s", ops->name,
                             enc ? "enc" : "dec", kb * 8, len,
                             way == 0   ? "out of place"
                             : way == 1 ? "in place"
                             : way == 2 ? "guard page after"
                                        : "guard page before");
                    memcpy(xi, xi0, 16);
                    if (way < 2) {
                        inp = fc_test_exact_copy(
                            in, len, fc_test_rand_below(16), &inbase);
                        fc_guard_new_random(
                            &g, len, GUARD + fc_test_rand_below(16), GUARD);
                        if (way == 1 && len > 0)
                            memcpy(g.p, in, len);
                        fn(k, way == 1 ? g.p : inp, g.p, len, ctr, xi);
                        fc_test_expect_equal(ctx, "output", g.p, want, len);
                        fc_test_expect_equal(ctx, "xi", xi, want_xi, 16);
                        fc_guard_check(&g, ctx);
                        if (way == 0)
                            fc_test_expect_equal(ctx, "input (must not change)",
                                                 inp, in, len);
                        fc_guard_free(&g);
                        free(inbase);
                        continue;
                    }
                    src = fc_test_guarded(len, way == 2);
                    dst = fc_test_guarded(len, way == 2);
                    if (len > 0)
                        memcpy(src, in, len);
                    fn(k, src, dst, len, ctr, xi);
                    fc_test_expect_equal(ctx, "output", dst, want, len);
                    fc_test_expect_equal(ctx, "xi", xi, want_xi, 16);
                    if (FC_ABI_CHECK_AVAILABLE) {
                        memcpy(xi, xi0, 16);
                        FC_ABI_CALL(ctx, fn, FC_ABI_ARG(k), FC_ABI_ARG(src),
                                    FC_ABI_ARG(src), len, FC_ABI_ARG(ctr),
                                    FC_ABI_ARG(xi));
                        fc_test_expect_equal(ctx, "output in place (ABI)", src,
                                             want, len);
                        fc_test_expect_equal(ctx, "xi (ABI)", xi, want_xi, 16);
                    }
                    fc_test_guarded_free(dst, len, way == 2);
                    fc_test_guarded_free(src, len, way == 2);
                }
                free_key(k);
            }
        }
    }
    FC_TEST_SKIP_IF(
        ran == 0,
        "no table with _bytes kernels runs here (besides the generic one)");
}

/*
 * A table's one-call key setup (ops->set_key, where it has one) against
 * its parts: the ops->aes schedule, H by ops->aes ECB, init_part. On
 * dirty memory: the round keys and |rounds| equal, the table's first part
 * equal, every other byte of the key untouched; all key sizes, under the
 * ABI checker where there is one.
 */
FC_TEST("gcm_diff", test_set_key_one_call)
{
    size_t n, ran = 0;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        if (ops->set_key == NULL)
            continue;
        ran++;
        for (int r = 0; r < 12; r++) {
            const size_t kb = key_sizes[r % 3];
            const size_t part = 16 * ops->part_pow;
            const size_t rkb = 16 * (kb / 4 + 7);
            fc_gcm_key *a = alloc_key(), *b = alloc_key(), *dirty = alloc_key();
            uint8_t key[32], h[16] = {0};
            char what[120];

            fc_test_rand_bytes(key, sizeof(key));
            memcpy(dirty, a, sizeof(*a));
            snprintf(what, sizeof(what), "%s set_key AES-%zu", ops->name,
                     kb * 8);
            if (FC_ABI_CHECK_AVAILABLE)
                FC_ABI_CALL(what, ops->set_key, FC_ABI_ARG(a), FC_ABI_ARG(key),
                            kb);
            else
                ops->set_key(a, key, kb);
            ops->aes->set_enc_key(&b->aes, key, kb);
            ops->aes->ecb_enc(&b->aes, h, h, 1);
            ops->init_part(b->htable, h);
            assert_int_equal(a->aes.rounds, kb / 4 + 6);
            assert_int_equal(a->aes.rounds, b->aes.rounds);
            fc_test_expect_equal(what, "round keys", a->aes.rk[0], b->aes.rk[0],
                                 rkb);
            fc_test_expect_equal(what, "the table's first part",
                                 a->htable + FC_GCM_HTABLE_BYTES - part,
                                 b->htable + FC_GCM_HTABLE_BYTES - part, part);
            /* Nothing else: the rest of the round-key array, the table
             * before its part, the fields after it. */
            fc_test_expect_equal(what, "round keys past Nr (untouched)",
                                 a->aes.rk[0] + rkb, dirty->aes.rk[0] + rkb,
                                 sizeof(a->aes.rk) - rkb);
            fc_test_expect_equal(what, "table before its part (untouched)",
                                 a->htable, dirty->htable,
                                 FC_GCM_HTABLE_BYTES - part);
            fc_test_expect_equal(what, "fields after the table (untouched)",
                                 (uint8_t *)&a->ops, (uint8_t *)&dirty->ops,
                                 sizeof(*a) - offsetof(fc_gcm_key, ops));
            free_key(a);
            free_key(b);
            free_key(dirty);
        }
    }
    FC_TEST_SKIP_IF(ran == 0, "no table with a one-call key setup runs here");
}

/*
 * Across the 32-bit wrap: in two calls (the first ends at counter
 * 0xffffffff, the second starts at 0, bytes 0..11 unchanged) and in one
 * call crossing it. Every table must match the reference, whose inc32 wraps
 * by itself.
 */
FC_TEST("gcm_diff", test_diff_kernels_wrap)
{
    static const size_t before[] = {1,  2,  3,  7,  8,  9,  15, 16,
                                    17, 31, 32, 33, 47, 63, 64, 65};
    static uint8_t in[16 * 112], want[16 * 112], out[16 * 112];
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    for (size_t b = 0; b < FC_ARRAY_LEN(before); b++) {
        for (int enc = 0; enc < 2; enc++) {
            const size_t k1 = before[b], k2 = fc_test_rand_below(41);
            const size_t kb = key_sizes[(b + enc) % 3];
            uint8_t key[32], ctr[16], ctr2[16], xi0[16], want_xi[16];
            ref_key rk;

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(ctr, 16);
            fc_test_rand_bytes(xi0, 16);
            fc_test_rand_bytes(in, sizeof(in));
            ctr[11] = 0xff; /* a carry out of the low word would show */
            fc_store_be32(ctr + 12, (uint32_t)(0u - k1));
            ref_key_init(&rk, key, kb);
            memcpy(want_xi, xi0, 16);
            ref_kernel(&rk, enc, in, want, k1 + k2, ctr, want_xi);
            ref_key_free(&rk);
            memcpy(ctr2, ctr, 16);
            fc_store_be32(ctr2 + 12, 0);
            FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
            {
                fc_gcm_key *k = kernel_key(ops, key, kb);
                uint8_t xi[16];
                char ctx[160];

                snprintf(ctx, sizeof(ctx),
                         "%s %s AES-%zu: %zu blocks to the wrap, %zu after",
                         ops->name, enc ? "enc" : "dec", kb * 8, k1, k2);
                memcpy(xi, xi0, 16);
                (enc ? ops->enc : ops->dec)(k, in, out, k1, ctr, xi);
                (enc ? ops->enc : ops->dec)(k, in + 16 * k1, out + 16 * k1, k2,
                                            ctr2, xi);
                fc_test_expect_equal(ctx, "output", out, want, 16 * (k1 + k2));
                fc_test_expect_equal(ctx, "xi", xi, want_xi, 16);
                /* One call across the wrap: the kernels own inc32. */
                memset(out, 0, sizeof(out));
                memcpy(xi, xi0, 16);
                (enc ? ops->enc : ops->dec)(k, in, out, k1 + k2, ctr, xi);
                fc_test_expect_equal(ctx, "output (one call)", out, want,
                                     16 * (k1 + k2));
                fc_test_expect_equal(ctx, "xi (one call)", xi, want_xi, 16);
                free_key(k);
            }
        }
    }
}

/* ---- differential: state API ------------------------------------------ */

/* OpenSSL's default provider, whole message: the second oracle. */
static void evp_gcm(int enc, const uint8_t *key, size_t kb, const uint8_t *iv,
                    size_t ivlen, const uint8_t *aad, size_t alen,
                    const uint8_t *in, size_t len, uint8_t *out,
                    uint8_t tag[16])
{
    char name[24];
    EVP_CIPHER *c;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int outl = 0, fl = 0;
    size_t ivl = ivlen;
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_size_t("ivlen", &ivl),
                       OSSL_PARAM_construct_end()};

    snprintf(name, sizeof(name), "AES-%zu-GCM", kb * 8);
    c = EVP_CIPHER_fetch(NULL, name, "provider=default");
    assert_non_null(c);
    assert_non_null(ctx);
    assert_int_equal(EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, p), 1);
    assert_int_equal(EVP_CipherInit_ex2(ctx, NULL, key, iv, enc, NULL), 1);
    if (alen > 0)
        assert_int_equal(EVP_CipherUpdate(ctx, NULL, &outl, aad, (int)alen), 1);
    if (!enc)
        assert_int_equal(
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag), 1);
    outl = 0;
    if (len > 0)
        assert_int_equal(EVP_CipherUpdate(ctx, out, &outl, in, (int)len), 1);
    assert_int_equal(EVP_CipherFinal_ex(ctx, out + outl, &fl), 1);
    assert_int_equal((size_t)(outl + fl), len);
    if (enc)
        assert_int_equal(
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag), 1);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

/* Random key, IV length (12 most often, else 1..80), AAD and data lengths
 * and pieces: every table's state API against the reference, and the
 * reference against OpenSSL. */
FC_TEST("gcm_diff", test_diff_core)
{
    const int rounds = fc_test_quick() ? 12 : 150;
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;
    const size_t maxlen = 16 * 140 + 15;
    uint8_t *pt = fc_test_xmalloc(maxlen), *ct = fc_test_xmalloc(maxlen),
            *ct2 = fc_test_xmalloc(maxlen);

    for (int r = 0; r < rounds; r++) {
        const size_t kb = key_sizes[r % 3];
        const size_t ivlen = r % 2 ? 12 : 1 + fc_test_rand_below(80);
        const size_t alen = fc_test_rand_below(4) ? fc_test_rand_below(70) : 0;
        const size_t len = fc_test_rand_below(maxlen + 1);
        uint8_t key[32], iv[80], aad[70], tag[16], tag2[16];
        ref_key rk;
        char what[100];

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(aad, sizeof(aad));
        fc_test_rand_bytes(pt, len);
        ref_key_init(&rk, key, kb);
        ref_gcm(&rk, 1, iv, ivlen, aad, alen, pt, len, ct, tag);
        ref_key_free(&rk);
        evp_gcm(1, key, kb, iv, ivlen, aad, alen, pt, len, ct2, tag2);
        fc_test_expect_equal("reference vs OpenSSL", "ciphertext", ct, ct2,
                             len);
        fc_test_expect_equal("reference vs OpenSSL", "tag", tag, tag2, 16);
        snprintf(what, sizeof(what),
                 "round %d: iv %zu bytes, aad %zu, data %zu", r, ivlen, alen,
                 len);
        FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
        {
            /* Whole + byte by byte + random pieces is slow for long data;
             * check_core's byte-by-byte pass is what costs. Keep it for
             * short messages and use random pieces elsewhere. */
            if (len <= 200) {
                check_core(what, ops, key, kb, iv, ivlen, aad, alen, pt, ct,
                           len, tag);
            } else {
                size_t acuts[72], *dcuts = calloc(len + 2, sizeof(size_t));
                size_t na, nd;
                fc_gcm_key *k = new_key(ops, key, kb);
                uint8_t *out = fc_test_xmalloc(len), t[16];
                char ctx[200];

                assert_non_null(dcuts);
                snprintf(ctx, sizeof(ctx), "%s: %s", what, ops->name);
                na = make_cuts(acuts, 72, alen, 1 + fc_test_rand_below(20));
                nd =
                    make_cuts(dcuts, len + 2, len, 1 + fc_test_rand_below(600));
                core_run(k, 1, iv, ivlen, aad, alen, acuts, na, pt, out, len,
                         dcuts, nd, t, 16);
                fc_test_expect_equal(ctx, "ciphertext", out, ct, len);
                fc_test_expect_equal(ctx, "tag", t, tag, 16);
                memcpy(out, ct, len);
                if (!core_run(k, 0, iv, ivlen, aad, alen, acuts, na, out, out,
                              len, dcuts, nd, tag, 16))
                    fail_msg("%s: tag did not verify", ctx);
                fc_test_expect_equal(ctx, "plaintext (in place)", out, pt, len);
                free(out);
                free(dcuts);
                free_key(k);
            }
        }
    }
    free(pt);
    free(ct);
    free(ct2);
}

/*
 * Record-sized messages, the shapes of the short path (fc/gcm.h: GHASH
 * input held back in |pend|, one ECB call for a short data call's keystream
 * and E(K, J0)): every data length 0..300 with every AAD length 0..64, a
 * 96-bit IV, each table's state API against the reference, both
 * directions, in place. The AAD and the data go in one call each (a TLS
 * record), or each cut once at a random point (a block left unfinished
 * across calls), alternating.
 */
FC_TEST("gcm_diff", test_diff_core_records)
{
    const size_t maxlen = 300, maxaad = 64;
    const size_t step = fc_test_quick() ? 7 : 1;
    size_t n, count = 0;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;
    uint8_t key[32], iv[12], aad[64], pt[300], ct[300], out[300], tag[16],
        t[16];

    for (size_t len = 0; len <= maxlen; len += step) {
        const size_t kb = key_sizes[len % 3];
        fc_gcm_key *k[8];
        size_t nk = 0;
        ref_key rk;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(pt, len);
        ref_key_init(&rk, key, kb);
        FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
        {
            assert_true(nk < 8);
            k[nk++] = new_key(ops, key, kb);
        }
        for (size_t alen = 0; alen <= maxaad; alen += step) {
            const int split = (len + alen) % 2;
            size_t acuts[2], dcuts[2], na = 1, nd = 1;
            char what[120];

            fc_test_rand_bytes(iv, sizeof(iv));
            fc_test_rand_bytes(aad, alen);
            ref_gcm(&rk, 1, iv, 12, aad, alen, pt, len, ct, tag);
            acuts[0] = alen;
            dcuts[0] = len;
            if (split) {
                acuts[0] = fc_test_rand_below(alen + 1);
                acuts[na++] = alen - acuts[0];
                dcuts[0] = fc_test_rand_below(len + 1);
                dcuts[nd++] = len - dcuts[0];
            }
            for (size_t i = 0; i < nk; i++) {
                snprintf(what, sizeof(what),
                         "%s: AES-%zu, aad %zu [%zu,...], data %zu [%zu,...]",
                         k[i]->ops->name, kb * 8, alen, acuts[0], len,
                         dcuts[0]);
                memcpy(out, pt, len);
                core_run(k[i], 1, iv, 12, aad, alen, acuts, na, out, out, len,
                         dcuts, nd, t, 16);
                fc_test_expect_equal(what, "ciphertext", out, ct, len);
                fc_test_expect_equal(what, "tag", t, tag, 16);
                if (!core_run(k[i], 0, iv, 12, aad, alen, acuts, na, out, out,
                              len, dcuts, nd, tag, 16))
                    fail_msg("%s: tag did not verify", what);
                fc_test_expect_equal(what, "plaintext", out, pt, len);
                t[0] = tag[0] ^ 1;
                memcpy(out, ct, len);
                if (core_run(k[i], 0, iv, 12, aad, alen, acuts, na, out, out,
                             len, dcuts, nd, t, 16))
                    fail_msg("%s: a wrong tag verified", what);
                count++;
            }
        }
        for (size_t i = 0; i < nk; i++)
            free_key(k[i]);
        ref_key_free(&rk);
    }
    print_message("[ RECORDS  ] %zu messages against the reference\n", count);
}

/*
 * iv_for_counter returns in |iv| a 16-byte IV whose J0 is |j0| under hash
 * key |h|: J0 = ((IV * H) ^ L) * H with L the length block of a 128-bit IV,
 * so IV = ((J0 * H^-1) ^ L) * H^-1.
 */
static void iv_for_counter(const uint8_t h[16], const uint8_t j0[16],
                           uint8_t iv[16])
{
    uint8_t hinv[16], t[16];

    ref_inv(hinv, h);
    fc_test_gf128_mul(t, j0, hinv);
    t[15] ^= 0x80; /* L = 0^64 || [128]_64 */
    fc_test_gf128_mul(iv, t, hinv);
}

/* A table that records the calls crossing the 32-bit counter wrap: the
 * kernels own inc32 (fc/gcm.h), so the state API must hand a whole run to
 * one kernel call, wrap or not, rather than split it (a split would show
 * whether a call crosses the wrap, and the counter is secret for IVs other
 * than 96 bits). */
static fc_gcm_ops strict_ops;
static int strict_wraps;

static void strict_check(const uint8_t ctr[16], size_t blocks)
{
    uint64_t c32 = fc_load_be32(ctr + 12);
    if (blocks != 0 && c32 + blocks > UINT64_C(1) << 32)
        strict_wraps++;
}

static void strict_enc(const fc_gcm_key *key, const uint8_t *in, uint8_t *out,
                       size_t blocks, const uint8_t ctr[16], uint8_t xi[16])
{
    strict_check(ctr, blocks);
    fc_gcm_enc_generic(key, in, out, blocks, ctr, xi);
}

static void strict_dec(const fc_gcm_key *key, const uint8_t *in, uint8_t *out,
                       size_t blocks, const uint8_t ctr[16], uint8_t xi[16])
{
    strict_check(ctr, blocks);
    fc_gcm_dec_generic(key, in, out, blocks, ctr, xi);
}

/* The _bytes kernels likewise, their partial last block counted. */
static void strict_enc_bytes(const fc_gcm_key *key, const uint8_t *in,
                             uint8_t *out, size_t len, const uint8_t ctr[16],
                             uint8_t xi[16])
{
    strict_check(ctr, (len + 15) / 16);
    fc_gcm_enc_bytes_generic(key, in, out, len, ctr, xi);
}

static void strict_dec_bytes(const fc_gcm_key *key, const uint8_t *in,
                             uint8_t *out, size_t len, const uint8_t ctr[16],
                             uint8_t xi[16])
{
    strict_check(ctr, (len + 15) / 16);
    fc_gcm_dec_bytes_generic(key, in, out, len, ctr, xi);
}

/* One message across the wrap through |ops|, in four piece patterns, both
 * directions (decryption in place). */
static void wrap_case(const char *what, const fc_gcm_ops *ops,
                      const uint8_t *key, size_t kb, const uint8_t iv[16],
                      const uint8_t *aad, size_t alen, const uint8_t *pt,
                      const uint8_t *ct, size_t len, const uint8_t tag[16])
{
    for (int rep = 0; rep < 4; rep++) {
        size_t acuts[40], dcuts[200], na, nd;
        fc_gcm_key *k = new_key(ops, key, kb);
        uint8_t *out = fc_test_xmalloc(len), t[16];
        char ctx[200];

        snprintf(ctx, sizeof(ctx), "%s: %s, pieces #%d", what, ops->name, rep);
        na = make_cuts(acuts, 40, alen, 1 + rep * 7);
        nd = rep == 0 ? (dcuts[0] = len, 1)
                      : make_cuts(dcuts, 200, len, 1 + rep * 40);
        core_run(k, 1, iv, 16, aad, alen, acuts, na, pt, out, len, dcuts, nd, t,
                 16);
        fc_test_expect_equal(ctx, "ciphertext", out, ct, len);
        fc_test_expect_equal(ctx, "tag", t, tag, 16);
        memcpy(out, ct, len);
        memcpy(t, tag, 16);
        if (!core_run(k, 0, iv, 16, aad, alen, acuts, na, out, out, len, dcuts,
                      nd, t, 16))
            fail_msg("%s: tag did not verify", ctx);
        fc_test_expect_equal(ctx, "plaintext", out, pt, len);
        free(out);
        free_key(k);
    }
}

/* The state API across the 32-bit counter wrap, with IVs whose J0 sits
 * just below it: every table against the reference and OpenSSL, in random
 * pieces (so the split at the wrap meets every call shape). */
FC_TEST("gcm_diff", test_diff_core_wrap)
{
    /* J0's low word; data starts at inc32(J0). 0xffffffff: the very first
     * data block uses counter 0. */
    static const uint32_t lows[] = {0xffffffffu, 0xfffffffeu, 0xfffffffau,
                                    0xfffffff7u, 0xfffffff0u, 0xffffffe1u,
                                    0xffffff80u};
    const size_t len = 16 * 150 + 9;
    uint8_t *pt = fc_test_xmalloc(len), *ct = fc_test_xmalloc(len),
            *ct2 = fc_test_xmalloc(len);
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    {
        /* The constructor itself, and that the reference inverts. */
        uint8_t h[16], hi[16], one[16], t[16] = {0};
        fc_test_rand_bytes(h, 16);
        ref_inv(hi, h);
        fc_test_gf128_mul(one, h, hi);
        t[0] = 0x80;
        fc_test_expect_equal("reference", "h * h^-1", one, t, 16);
    }
    for (size_t i = 0; i < FC_ARRAY_LEN(lows); i++) {
        const size_t kb = key_sizes[i % 3];
        uint8_t key[32], j0[16], iv[16], chk[16], aad[33], tag[16], tag2[16];
        ref_key rk;
        char what[100];

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(j0, 16);
        fc_test_rand_bytes(aad, sizeof(aad));
        fc_test_rand_bytes(pt, len);
        fc_store_be32(j0 + 12, lows[i]);
        ref_key_init(&rk, key, kb);
        iv_for_counter(rk.h, j0, iv);
        ref_j0(&rk, iv, 16, chk);
        fc_test_expect_equal("IV construction", "J0", chk, j0, 16);
        ref_gcm(&rk, 1, iv, 16, aad, sizeof(aad), pt, len, ct, tag);
        ref_key_free(&rk);
        evp_gcm(1, key, kb, iv, 16, aad, sizeof(aad), pt, len, ct2, tag2);
        fc_test_expect_equal("reference vs OpenSSL across the wrap",
                             "ciphertext", ct, ct2, len);
        fc_test_expect_equal("reference vs OpenSSL across the wrap", "tag", tag,
                             tag2, 16);
        snprintf(what, sizeof(what), "J0 low word 0x%08x", lows[i]);
        FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
        {
            wrap_case(what, ops, key, kb, iv, aad, sizeof(aad), pt, ct, len,
                      tag);
        }
        /* The generic kernels behind a table that counts the calls
         * crossing the wrap: the state API must not split there. */
        strict_ops = *generic_ops();
        strict_ops.name = "generic, wrap-counted";
        strict_ops.enc = strict_enc;
        strict_ops.dec = strict_dec;
        strict_ops.enc_bytes = strict_enc_bytes;
        strict_ops.dec_bytes = strict_dec_bytes;
        strict_wraps = 0;
        wrap_case(what, &strict_ops, key, kb, iv, aad, sizeof(aad), pt, ct, len,
                  tag);
        /* At least the whole-message runs (one kernel call each way)
         * crossed the wrap inside a kernel (J0 = ..ffffffff starts the data
         * at counter 0: nothing to cross). */
        if (lows[i] != 0xffffffffu)
            assert_true(strict_wraps >= 2);
    }
    free(pt);
    free(ct);
    free(ct2);
}

/* ---- ABI -------------------------------------------------------------- */

FC_TEST("gcm_abi", test_abi_checker)
{
    FC_TEST_SKIP_IF(!FC_ABI_CHECK_AVAILABLE, "no ABI trampoline on this build");
    assert_true(fc_abi_self_test());
}

FC_TEST("gcm_abi", test_abi_kernels)
{
    /* Every loop's boundaries, up to two 32-block groups and a tail. */
    static const size_t counts[] = {0,  1,  7,  8,  9,  15, 16, 17, 24, 31,
                                    32, 33, 48, 63, 64, 65, 95, 96, 97};
    size_t n, checked = 0;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops, *gen = generic_ops();
    static uint8_t in[16 * 97], out[16 * 97], want[16 * 97];
    char what[160];

    FC_TEST_SKIP_IF(!FC_ABI_CHECK_AVAILABLE, "no ABI trampoline on this build");
    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        if (is_generic(ops))
            continue; /* compiled C keeps the ABI by construction */
        checked++;
        for (size_t s = 0; s < 3; s++) {
            const size_t kb = key_sizes[s];
            for (size_t c = 0; c < FC_ARRAY_LEN(counts); c++) {
                for (int mode = 0; mode < 4; mode++) {
                    const int enc = mode & 1, in_place = mode >> 1;
                    const size_t blocks = counts[c];
                    uint8_t key[32], ctr[16], xi[16], want_xi[16];
                    fc_gcm_key *gk, *k;

                    fc_test_rand_bytes(key, sizeof(key));
                    fc_test_rand_bytes(in, sizeof(in));
                    fc_test_rand_bytes(xi, 16);
                    random_ctr(ctr, blocks);
                    gk = kernel_key(gen, key, kb);
                    memcpy(want_xi, xi, 16);
                    (enc ? gen->enc : gen->dec)(gk, in, want, blocks, ctr,
                                                want_xi);
                    free_key(gk);
                    k = kernel_key(ops, key, kb);
                    if (in_place)
                        memcpy(out, in, sizeof(in));
                    snprintf(what, sizeof(what), "%s %s AES-%zu blocks=%zu%s",
                             ops->name, enc ? "enc" : "dec", kb * 8, blocks,
                             in_place ? " in place" : "");
                    FC_ABI_CALL(what, enc ? ops->enc : ops->dec, FC_ABI_ARG(k),
                                FC_ABI_ARG(in_place ? out : in),
                                FC_ABI_ARG(out), blocks, FC_ABI_ARG(ctr),
                                FC_ABI_ARG(xi));
                    fc_test_expect_equal(what, "output", out, want,
                                         16 * blocks);
                    fc_test_expect_equal(what, "xi", xi, want_xi, 16);
                    free_key(k);
                }
            }
        }
    }
    FC_TEST_SKIP_IF(checked == 0, "no assembly GCM table runs here");
}

/*
 * The kernels touch nothing past their blocks nor before them, and read
 * nothing past the key's table: input, output and key each placed against
 * an inaccessible page (the kernels read only the round keys and the
 * table, the first FC_OFF_GCM_HTABLE + FC_GCM_HTABLE_BYTES bytes of the
 * key), out of place and in place, at every block count to 40 and at the
 * 32-block loops' boundaries. ASan does not see into assembly and
 * valgrind cannot run AVX-512: this is the over-read check of the masked
 * tails.
 */
FC_TEST("gcm_edge", test_guard_pages)
{
    static const size_t more[] = {47, 48, 63, 64, 65, 95, 96, 97};
    const size_t keylen = FC_OFF_GCM_HTABLE + FC_GCM_HTABLE_BYTES;
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops, *gen = generic_ops();
    static uint8_t src[16 * 97], want[16 * 97];

    fc_test_rand_start(__func__);
    for (size_t c = 0; c < 41 + FC_ARRAY_LEN(more); c++) {
        const size_t blocks = c <= 40 ? c : more[c - 41], len = 16 * blocks;
        const size_t kb = key_sizes[c % 3];

        for (int enc = 0; enc < 2; enc++) {
            uint8_t key[32], ctr[16], xi0[16], want_xi[16];
            fc_gcm_key *gk;

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(xi0, 16);
            fc_test_rand_bytes(src, len);
            random_ctr(ctr, blocks);
            gk = kernel_key(gen, key, kb);
            memcpy(want_xi, xi0, 16);
            (enc ? gen->enc : gen->dec)(gk, src, want, blocks, ctr, want_xi);
            free_key(gk);
            FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
            {
                fc_gcm_crypt_fn *fn = enc ? ops->enc : ops->dec;
                fc_gcm_key *k = kernel_key(ops, key, kb);

                for (int after = 0; after < 2; after++) {
                    uint8_t *kg = fc_test_guarded(keylen, after);
                    uint8_t *in = fc_test_guarded(len, after);
                    uint8_t *out = fc_test_guarded(len, after);
                    uint8_t xi[16];
                    char ctx[160];

                    snprintf(ctx, sizeof(ctx),
                             "%s %s AES-%zu, %zu blocks against a guard "
                             "page %s",
                             ops->name, enc ? "enc" : "dec", kb * 8, blocks,
                             after ? "after" : "before");
                    memcpy(kg, k, keylen);
                    if (len > 0)
                        memcpy(in, src, len);
                    memcpy(xi, xi0, 16);
                    fn((const fc_gcm_key *)kg, in, out, blocks, ctr, xi);
                    fc_test_expect_equal(ctx, "output", out, want, len);
                    fc_test_expect_equal(ctx, "xi", xi, want_xi, 16);
                    memcpy(xi, xi0, 16);
                    fn((const fc_gcm_key *)kg, in, in, blocks, ctr, xi);
                    fc_test_expect_equal(ctx, "output in place", in, want, len);
                    fc_test_expect_equal(ctx, "xi in place", xi, want_xi, 16);
                    fc_test_guarded_free(out, len, after);
                    fc_test_guarded_free(in, len, after);
                    fc_test_guarded_free(kg, keylen, after);
                }
                free_key(k);
            }
        }
    }
}

/* ---- edge cases ------------------------------------------------------- */

FC_TEST("gcm_edge", test_refusals)
{
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        uint8_t key[16], iv[12], buf[64], out[64], tag[16];
        fc_gcm_state st, snap;
        fc_gcm_key *k;

        /* Defined bytes throughout (|ks| is not set by fc_gcm_set_iv), so
         * the comparisons below are exact under valgrind too. */
        fc_test_rand_bytes(&st, sizeof(st));
        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(buf, sizeof(buf));
        k = new_key(ops, key, 16);

        /* An empty IV: refused, state untouched. */
        assert_int_equal(fc_gcm_set_iv(k, &st, iv, 12), 1);
        memcpy(&snap, &st, sizeof(st));
        assert_int_equal(fc_gcm_set_iv(k, &st, iv, 0), 0);
        assert_memory_equal(&st, &snap, sizeof(st));

        /* AAD after data: refused (A precedes C), state untouched; an
         * empty AAD is fine at any time. */
        assert_int_equal(fc_gcm_aad(k, &st, buf, 5), 1);
        assert_int_equal(fc_gcm_encrypt(k, &st, buf, out, 3), 1);
        memcpy(&snap, &st, sizeof(st));
        assert_int_equal(fc_gcm_aad(k, &st, buf, 1), 0);
        assert_memory_equal(&st, &snap, sizeof(st));
        assert_int_equal(fc_gcm_aad(k, &st, buf, 0), 1);
        assert_memory_equal(&st, &snap, sizeof(st));
        /* Zero-length data is a no-op. */
        assert_int_equal(fc_gcm_encrypt(k, &st, buf, out, 0), 1);
        assert_memory_equal(&st, &snap, sizeof(st));

        /* The message limit, SP 800-38D: 2^39 - 256 bits. */
        assert_int_equal(fc_gcm_set_iv(k, &st, iv, 12), 1);
        st.msg_len = FC_GCM_MAX_MSG_BYTES - 10;
        memcpy(&snap, &st, sizeof(st));
        assert_int_equal(fc_gcm_encrypt(k, &st, buf, out, 11), 0);
        assert_memory_equal(&st, &snap, sizeof(st));
        assert_int_equal(fc_gcm_decrypt(k, &st, buf, out, 11), 0);
        assert_memory_equal(&st, &snap, sizeof(st));
        assert_int_equal(fc_gcm_encrypt(k, &st, buf, out, 10), 1);
        assert_int_equal(st.msg_len, FC_GCM_MAX_MSG_BYTES);
        assert_int_equal(fc_gcm_encrypt(k, &st, buf, out, 1), 0);

        /* The AAD limit. */
        assert_int_equal(fc_gcm_set_iv(k, &st, iv, 12), 1);
        st.aad_len = FC_GCM_MAX_AAD_BYTES - 3;
        memcpy(&snap, &st, sizeof(st));
        assert_int_equal(fc_gcm_aad(k, &st, buf, 4), 0);
        assert_memory_equal(&st, &snap, sizeof(st));
        assert_int_equal(fc_gcm_aad(k, &st, buf, 3), 1);

        /* Tag lengths outside 1..16. */
        assert_int_equal(fc_gcm_set_iv(k, &st, iv, 12), 1);
        fc_gcm_finish(k, &st, tag);
        assert_int_equal(fc_gcm_set_iv(k, &st, iv, 12), 1);
        assert_int_equal(fc_gcm_verify(k, &st, tag, 0), 0);
        assert_int_equal(fc_gcm_set_iv(k, &st, iv, 12), 1);
        assert_int_equal(fc_gcm_verify(k, &st, tag, 17), 0);
        assert_int_equal(fc_gcm_set_iv(k, &st, iv, 12), 1);
        assert_int_equal(fc_gcm_verify(k, &st, tag, 16), 1);
        free_key(k);
    }
}

/* Every single-bit error in the tag, the ciphertext and the AAD is caught;
 * every truncation 1..16 of the right tag verifies and every truncation of
 * a wrong one does not. */
FC_TEST("gcm_edge", test_tag_errors)
{
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        uint8_t key[32], iv[12], aad[20], pt[45], ct[45], out[45], tag[16],
            bad[16];
        const size_t acut[1] = {sizeof(aad)}, dcut[1] = {sizeof(pt)};
        fc_gcm_key *k;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(aad, sizeof(aad));
        fc_test_rand_bytes(pt, sizeof(pt));
        k = new_key(ops, key, 32);
        core_run(k, 1, iv, 12, aad, sizeof(aad), acut, 1, pt, ct, sizeof(pt),
                 dcut, 1, tag, 16);
        for (size_t bit = 0; bit < 128; bit++) {
            memcpy(bad, tag, 16);
            bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            if (core_run(k, 0, iv, 12, aad, sizeof(aad), acut, 1, ct, out,
                         sizeof(ct), dcut, 1, bad, 16))
                fail_msg("%s: tag with bit %zu flipped verified", ops->name,
                         bit);
            /* The truncated tag that still covers the flipped byte. */
            if (core_run(k, 0, iv, 12, aad, sizeof(aad), acut, 1, ct, out,
                         sizeof(ct), dcut, 1, bad, bit / 8 + 1))
                fail_msg("%s: %zu-byte tag with bit %zu flipped verified",
                         ops->name, bit / 8 + 1, bit);
        }
        for (size_t tl = 1; tl <= 16; tl++) {
            if (!core_run(k, 0, iv, 12, aad, sizeof(aad), acut, 1, ct, out,
                          sizeof(ct), dcut, 1, tag, tl))
                fail_msg("%s: right %zu-byte tag refused", ops->name, tl);
            fc_test_expect_equal(ops->name, "plaintext", out, pt, sizeof(pt));
        }
        for (size_t i = 0; i < 8 * sizeof(ct); i += 7) {
            uint8_t c2[45];
            memcpy(c2, ct, sizeof(ct));
            c2[i / 8] ^= (uint8_t)(1u << (i % 8));
            if (core_run(k, 0, iv, 12, aad, sizeof(aad), acut, 1, c2, out,
                         sizeof(ct), dcut, 1, tag, 16))
                fail_msg("%s: ciphertext bit %zu flipped verified", ops->name,
                         i);
        }
        for (size_t i = 0; i < 8 * sizeof(aad); i += 5) {
            uint8_t a2[20];
            memcpy(a2, aad, sizeof(aad));
            a2[i / 8] ^= (uint8_t)(1u << (i % 8));
            if (core_run(k, 0, iv, 12, a2, sizeof(aad), acut, 1, ct, out,
                         sizeof(ct), dcut, 1, tag, 16))
                fail_msg("%s: AAD bit %zu flipped verified", ops->name, i);
        }
        free_key(k);
    }
}

/* A state copied mid-message continues like the original; several states
 * share one key, interleaved; the key is never written. */
FC_TEST("gcm_edge", test_states)
{
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        uint8_t key[24], iv[3][12], aad[3][19], pt[3][300], want[3][300],
            out[3][300], wtag[3][16], tag[16];
        fc_gcm_state st[3], copy;
        fc_gcm_key *k,
            *snap = (fc_gcm_key *)fc_test_xmalloc(sizeof(fc_gcm_key));
        ref_key rk;

        fc_test_rand_bytes(key, sizeof(key));
        fc_test_rand_bytes(iv, sizeof(iv));
        fc_test_rand_bytes(aad, sizeof(aad));
        fc_test_rand_bytes(pt, sizeof(pt));
        ref_key_init(&rk, key, 24);
        for (int m = 0; m < 3; m++)
            ref_gcm(&rk, 1, iv[m], 12, aad[m], 19, pt[m], 300, want[m],
                    wtag[m]);
        ref_key_free(&rk);
        /* The key as it will be once complete: the messages below grow
         * a table made in parts (the copy's 152 bytes) while the others
         * are in the middle of theirs, which must not notice. */
        k = new_key(ops, key, 24);
        memcpy(snap, k, sizeof(*k));
        fc_gcm_key_complete(snap);
        if (ops->init_part != NULL)
            assert_int_equal(k->hmax, ops->part_pow);

        /* Three messages, interleaved piece by piece. */
        for (int m = 0; m < 3; m++) {
            assert_int_equal(fc_gcm_set_iv(k, &st[m], iv[m], 12), 1);
            assert_int_equal(fc_gcm_aad(k, &st[m], aad[m], 7), 1);
        }
        for (int m = 0; m < 3; m++)
            assert_int_equal(fc_gcm_aad(k, &st[m], aad[m] + 7, 12), 1);
        for (size_t off = 0; off < 300; off += 37) {
            size_t len = 300 - off < 37 ? 300 - off : 37;
            for (int m = 0; m < 3; m++)
                assert_int_equal(
                    fc_gcm_encrypt(k, &st[m], pt[m] + off, out[m] + off, len),
                    1);
            if (off == 111) {
                /* A copy taken mid-message finishes the same way. */
                memcpy(&copy, &st[1], sizeof(copy));
                uint8_t o2[300];
                assert_int_equal(
                    fc_gcm_encrypt(k, &copy, pt[1] + 148, o2 + 148, 152), 1);
                fc_gcm_finish(k, &copy, tag);
                /* Nine blocks in one kernel call: a table made in parts
                 * has grown, in the middle of the other messages. */
                assert_true(k->hmax >= 9);
                fc_test_expect_equal(ops->name, "copied state: data", o2 + 148,
                                     want[1] + 148, 152);
                fc_test_expect_equal(ops->name, "copied state: tag", tag,
                                     wtag[1], 16);
            }
        }
        for (int m = 0; m < 3; m++) {
            fc_gcm_finish(k, &st[m], tag);
            fc_test_expect_equal(ops->name, "interleaved: data", out[m],
                                 want[m], 300);
            fc_test_expect_equal(ops->name, "interleaved: tag", tag, wtag[m],
                                 16);
        }
        /* Powers added, nothing else changed. */
        fc_gcm_key_complete(k);
        fc_test_expect_equal(ops->name, "key (only completed)", (uint8_t *)k,
                             (uint8_t *)snap, sizeof(*k));

        /* After finish, a new IV starts afresh (the old message's partial
         * block and lengths are gone). */
        assert_int_equal(fc_gcm_set_iv(k, &st[0], iv[2], 12), 1);
        assert_int_equal(fc_gcm_aad(k, &st[0], aad[2], 19), 1);
        assert_int_equal(fc_gcm_encrypt(k, &st[0], pt[2], out[0], 300), 1);
        fc_gcm_finish(k, &st[0], tag);
        fc_test_expect_equal(ops->name, "reused state: data", out[0], want[2],
                             300);
        fc_test_expect_equal(ops->name, "reused state: tag", tag, wtag[2], 16);

        /* Re-keying a used key gives the fresh key's results. */
        fc_gcm_set_key(k, ops, key, 16);
        fc_gcm_set_key(k, ops, key, 24);
        assert_int_equal(fc_gcm_set_iv(k, &st[0], iv[0], 12), 1);
        assert_int_equal(fc_gcm_aad(k, &st[0], aad[0], 19), 1);
        assert_int_equal(fc_gcm_encrypt(k, &st[0], pt[0], out[0], 300), 1);
        fc_gcm_finish(k, &st[0], tag);
        fc_test_expect_equal(ops->name, "re-keyed: tag", tag, wtag[0], 16);
        free(snap);
        free_key(k);
    }
}

FC_TEST("gcm_edge", test_select_and_self_test)
{
    size_t n;
    unsigned nrows;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops, *first = NULL;
    const uint32_t caps = fc_test_caps();
    const fc_tuning *row = fc_test_tuning(), *rows = fc_tuning_rows(&nrows);
    const fc_tuning *dflt = fc_tuning_by_name("default"), *zrow = NULL;

    assert_true(n >= 1);
    assert_true(is_generic(tab[n - 1]));
    assert_string_equal(tab[n - 1]->name, "generic");
    assert_int_equal(tab[n - 1]->required_caps, 0);
    assert_ptr_equal(fc_gcm_select(0, NULL), tab[n - 1]);
    for (unsigned i = 0; i < nrows && zrow == NULL; i++)
        if (rows[i].aes_zmm)
            zrow = &rows[i];
    for (size_t i = 0; i < n; i++) {
        const uint32_t need = tab[i]->required_caps;

        assert_non_null(tab[i]->aes);
        assert_non_null(tab[i]->init);
        assert_non_null(tab[i]->ghash);
        assert_non_null(tab[i]->enc);
        assert_non_null(tab[i]->dec);
        if (first == NULL && (need & ~caps) == 0 &&
            (tab[i]->tier != FC_TIER_512 || row->aes_zmm))
            first = tab[i];
        /* The zmm tier only where the row prefers it: never for the
         * default row (or none), always for such a row if it can run. */
        assert_false(fc_gcm_select(need, dflt)->tier == FC_TIER_512);
        assert_ptr_equal(fc_gcm_select(need, NULL), fc_gcm_select(need, dflt));
        if (tab[i]->tier == FC_TIER_512 && zrow != NULL)
            assert_ptr_equal(fc_gcm_select(need, zrow), tab[i]);
    }
    assert_ptr_equal(fc_gcm_select(caps, row), first);
    print_message("[ INFO     ] fc_gcm_select picks %s (CPU class %s)\n",
                  first->name, row->name);
    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        if (!fc_gcm_self_test(ops))
            fail_msg("fc_gcm_self_test(%s) failed", ops->name);
    }
}

/*
 * Key, AAD and data marked secret (FC_CT_SECRET) through the whole
 * state API, with a 96-bit and a 480-bit IV, in uneven pieces. Under
 * valgrind in a FASTCRYPTO_CT_VALGRIND build any secret-dependent branch or
 * index is reported; elsewhere one more reference check.
 */
FC_TEST("gcm_edge", test_ct_marked)
{
    size_t n;
    const fc_gcm_ops *const *tab = impls(&n);
    const fc_gcm_ops *ops;

    FC_TEST_FOREACH_IMPL("gcm", tab, n, ops)
    {
        for (int v = 0; v < 2; v++) {
            const size_t ivlen = v ? 60 : 12, len = 16 * 21 + 5;
            uint8_t key[32], iv[60], aad[29], pt[16 * 21 + 5],
                orig[16 * 21 + 5], ct[16 * 21 + 5], want[16 * 21 + 5], tag[16],
                wtag[16];
            fc_gcm_state st;
            fc_gcm_key *k = alloc_key();
            ref_key rk;
            int ok;

            fc_test_rand_bytes(key, sizeof(key));
            fc_test_rand_bytes(iv, sizeof(iv));
            fc_test_rand_bytes(aad, sizeof(aad));
            fc_test_rand_bytes(pt, sizeof(pt));
            memcpy(orig, pt, sizeof(pt));
            ref_key_init(&rk, key, 32);
            ref_gcm(&rk, 1, iv, ivlen, aad, sizeof(aad), pt, len, want, wtag);
            ref_key_free(&rk);
            /* The IV is public (it travels with the message); with 480
             * bits J0 = GHASH_H(IV) is secret all the same, through H. */
            FC_CT_SECRET(key, sizeof(key));
            FC_CT_SECRET(aad, sizeof(aad));
            FC_CT_SECRET(pt, sizeof(pt));
            fc_gcm_set_key(k, ops, key, 32);
            assert_int_equal(fc_gcm_set_iv(k, &st, iv, ivlen), 1);
            assert_int_equal(fc_gcm_aad(k, &st, aad, 3), 1);
            assert_int_equal(fc_gcm_aad(k, &st, aad + 3, 26), 1);
            assert_int_equal(fc_gcm_encrypt(k, &st, pt, ct, 7), 1);
            assert_int_equal(fc_gcm_encrypt(k, &st, pt + 7, ct + 7, 200), 1);
            assert_int_equal(
                fc_gcm_encrypt(k, &st, pt + 207, ct + 207, len - 207), 1);
            fc_gcm_finish(k, &st, tag);
            /* Decrypt in place and verify: only the verdict is public. */
            assert_int_equal(fc_gcm_set_iv(k, &st, iv, ivlen), 1);
            assert_int_equal(fc_gcm_aad(k, &st, aad, sizeof(aad)), 1);
            FC_CT_SECRET(tag, sizeof(tag));
            memcpy(pt, ct, len);
            assert_int_equal(fc_gcm_decrypt(k, &st, pt, pt, 100), 1);
            assert_int_equal(
                fc_gcm_decrypt(k, &st, pt + 100, pt + 100, len - 100), 1);
            ok = fc_gcm_verify(k, &st, tag, 16);
            FC_CT_PUBLIC(&ok, sizeof(ok));
            assert_int_equal(ok, 1);
            FC_CT_PUBLIC(ct, sizeof(ct));
            FC_CT_PUBLIC(tag, sizeof(tag));
            FC_CT_PUBLIC(pt, sizeof(pt));
            FC_CT_PUBLIC(key, sizeof(key));
            FC_CT_PUBLIC(aad, sizeof(aad));
            FC_CT_PUBLIC(k, sizeof(*k));
            FC_CT_PUBLIC(&st, sizeof(st));
            fc_test_expect_equal(ops->name, "secret-marked ciphertext", ct,
                                 want, len);
            fc_test_expect_equal(ops->name, "secret-marked tag", tag, wtag, 16);
            fc_test_expect_equal(ops->name, "secret-marked round trip", pt,
                                 orig, len);
            free_key(k);
        }
    }
}

int main(void)
{
    return fc_test_main(NULL, 0);
}
