/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cbc_hmac.c - the TLS MAC-then-encrypt record core (fc/cbc_hmac.h)
 * and its stitched AES-CBC + SHA kernels, for every combination of AES,
 * SHA and stitched-kernel tables the CPU runs.
 *
 * Groups:
 *   cbc_hmac_diff  records sealed by the core against records built with
 *                  OpenSSL (HMAC, then AES-CBC through EVP) for every
 *                  payload length 0..1100 and both IV layouts; records
 *                  opened: every padding length, bad padding bytes and
 *                  lengths, bad MACs, against the reference verdict; the
 *                  non-TLS mode against AES-CBC and SHA; each stitched
 *                  kernel against AES-CBC then SHA at every block count
 *                  0..40, from random chaining values, in place and not,
 *                  with the SHA input at every offset 0..80 after the AES
 *                  input;
 *   cbc_hmac_abi   each stitched kernel through the calling-convention
 *                  trampoline (test/support/abi_check.h);
 *   cbc_hmac_edge  opening with the record and keys marked secret
 *                  (FC_CT_SECRET) for the valgrind constant-time build:
 *                  good records and every kind of bad one must take the
 *                  same path, which valgrind checks branch by branch;
 *                  sealing with payload and keys marked secret.
 *
 * FC_TEST_QUICK=1 shrinks the loops (for valgrind). FC_TEST_SEED replays a
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
#include "fc/cbc_hmac.h"
#include "fc/ct.h"
#include "checks.h"
#include "impls.h"
#include "runner.h"

#define MAXREC 4096

static const char *const alg_names[2] = {"SHA-1", "SHA-256"};

/* ---- helpers ---------------------------------------------------------- */

/* One combination of tables under test. */
typedef struct combo {
    const fc_aes_ops *aes;
    const fc_sha_ops *sha;
    const fc_cbc_sha_ops *st;
    char name[96];
} combo;

/* Every usable combination: each AES table with each SHA table and each
 * stitched table (a stitched kernel only runs with an AES-NI layout
 * table; fc_cbc_hmac_init falls back otherwise, which is tested too). */
static size_t combos(combo *out, size_t max)
{
    size_t na, ns, nt, n = 0;
    const fc_aes_ops *const *a = fc_aes_impls(&na);
    const fc_sha_ops *const *s = fc_sha_impls(&ns);
    const fc_cbc_sha_ops *const *t = fc_cbc_sha_impls(&nt);
    const uint32_t caps = fc_test_caps();

    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < ns; j++)
            for (size_t k = 0; k < nt; k++) {
                uint32_t need = a[i]->required_caps | s[j]->required_caps |
                                t[k]->required_caps;

                if ((caps & need) != need || n == max)
                    continue;
                out[n].aes = a[i];
                out[n].sha = s[j];
                out[n].st = t[k];
                snprintf(out[n].name, sizeof(out[n].name), "aes=%s sha=%s %s",
                         a[i]->name, s[j]->name, t[k]->name);
                n++;
            }
    assert_true(n >= 1);
    return n;
}

static const EVP_MD *evp_md(int alg)
{
    return alg == FC_SHA1 ? EVP_sha1() : EVP_sha256();
}

static const EVP_CIPHER *evp_cbc(size_t kb)
{
    return kb == 16   ? EVP_aes_128_cbc()
           : kb == 24 ? EVP_aes_192_cbc()
                      : EVP_aes_256_cbc();
}

/* AES-CBC with padding off through OpenSSL. */
static void ref_cbc(size_t kb, const uint8_t *key, const uint8_t *iv, int enc,
                    const uint8_t *in, size_t len, uint8_t *out)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int l1 = 0, l2 = 0;

    assert_non_null(c);
    assert_true(EVP_CipherInit_ex(c, evp_cbc(kb), NULL, key, iv, enc));
    EVP_CIPHER_CTX_set_padding(c, 0);
    assert_true(EVP_CipherUpdate(c, out, &l1, in, (int)len));
    assert_true(EVP_CipherFinal_ex(c, out + l1, &l2));
    assert_int_equal(l1 + l2, len);
    EVP_CIPHER_CTX_free(c);
}

/* HMAC(mk, hdr with length plen || payload) through OpenSSL. */
static void ref_mac(int alg, const uint8_t *mk, size_t mklen,
                    const uint8_t hdr[13], const uint8_t *payload, size_t plen,
                    uint8_t *mac)
{
    uint8_t *m = malloc(13 + plen);
    unsigned int ml;

    assert_non_null(m);
    memcpy(m, hdr, 13);
    m[11] = (uint8_t)(plen >> 8);
    m[12] = (uint8_t)plen;
    memcpy(m + 13, payload, plen);
    assert_non_null(HMAC(evp_md(alg), mk, (int)mklen, m, 13 + plen, mac, &ml));
    free(m);
}

/* A key for |co|, |alg|, |kb|-byte AES key, |enc| direction. */
static void make_key(fc_cbc_hmac_key *k, const combo *co, int alg, size_t kb,
                     const uint8_t *key, int enc, const uint8_t *mk,
                     size_t mklen)
{
    fc_cbc_hmac_init(k, co->aes, co->sha, co->st, (fc_sha_alg)alg);
    if (enc)
        k->aes->set_enc_key(&k->ks, key, kb);
    else
        k->aes->set_dec_key(&k->ks, key, kb);
    fc_cbc_hmac_set_mac_key(k, mk, mklen);
}

static void make_hdr(uint8_t hdr[13], uint64_t seq, size_t len)
{
    for (int i = 0; i < 8; i++)
        hdr[i] = (uint8_t)(seq >> (56 - 8 * i));
    hdr[8] = 23;
    hdr[9] = 3;
    hdr[10] = 3;
    hdr[11] = (uint8_t)(len >> 8);
    hdr[12] = (uint8_t)len;
}

/* ---- sealing ---------------------------------------------------------- */

FC_TEST("cbc_hmac_diff", test_seal)
{
    combo co[64];
    const size_t nco = combos(co, 64), step = fc_test_quick() ? 37 : 1;
    uint8_t *in = malloc(MAXREC), *out = malloc(MAXREC + 32),
            *ref = malloc(MAXREC);

    assert_true(in && out && ref);
    for (size_t ci = 0; ci < nco; ci++) {
        for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
            const size_t kb = alg == FC_SHA1 ? 16 : 32;
            const size_t ml = alg == FC_SHA1 ? 20 : 32;

            for (size_t plen = 0; plen <= 1100; plen += step) {
                const size_t eiv = (plen & 1) ? 16 : 0;
                const size_t len = fc_cbc_hmac_sealed_len(eiv, plen, ml);
                const int in_place = (plen & 2) != 0;
                uint8_t key[32], iv[16], iv2[16], mk[40], hdr[13];
                fc_cbc_hmac_key k;
                char ctx[160];

                snprintf(ctx, sizeof(ctx), "%s %s eiv=%zu plen=%zu%s",
                         co[ci].name, alg_names[alg], eiv, plen,
                         in_place ? " in place" : "");
                fc_test_rand_bytes(key, sizeof(key));
                fc_test_rand_bytes(iv, sizeof(iv));
                fc_test_rand_bytes(mk, sizeof(mk));
                fc_test_rand_bytes(in, eiv + plen);
                make_hdr(hdr, fc_test_rand64(), plen);
                /* The reference: payload | HMAC | padding, AES-CBC. */
                memcpy(ref, in, eiv + plen);
                ref_mac(alg, mk, sizeof(mk), hdr, in + eiv, plen,
                        ref + eiv + plen);
                memset(ref + eiv + plen + ml, (int)(len - eiv - plen - ml - 1),
                       len - eiv - plen - ml);
                ref_cbc(kb, key, iv, 1, ref, len, ref);
                make_key(&k, &co[ci], alg, kb, key, 1, mk, sizeof(mk));
                memcpy(iv2, iv, 16);
                memset(out, 0xa5, MAXREC + 32);
                if (in_place) {
                    memcpy(out, in, eiv + plen);
                    assert_int_equal(
                        fc_cbc_hmac_seal(&k, iv2, hdr, out, out, eiv, plen), 1);
                } else {
                    assert_int_equal(
                        fc_cbc_hmac_seal(&k, iv2, hdr, in, out, eiv, plen), 1);
                }
                fc_test_expect_equal(ctx, "record", out, ref, len);
                fc_test_expect_equal(ctx, "chaining value", iv2, ref + len - 16,
                                     16);
                for (size_t i = len; i < len + 32; i++)
                    if (out[i] != 0xa5)
                        fail_msg("%s: wrote byte %zu past the record", ctx, i);
            }
        }
    }
    free(in);
    free(out);
    free(ref);
}

/* ---- opening ---------------------------------------------------------- */

enum { K_GOOD, K_PADBYTE, K_PADLEN, K_MAC, K_HDR, K_KINDS };

/*
 * Builds a record (eiv explicit-IV bytes, |plen| payload, MAC, |p| + 1
 * padding bytes) of kind |kind| encrypted from |iv|; returns its length.
 */
static size_t build(int alg, size_t kb, const uint8_t *key, const uint8_t *iv,
                    const uint8_t *mk, size_t mklen, const uint8_t hdr[13],
                    size_t eiv, size_t plen, size_t p, int kind, uint8_t *pt,
                    uint8_t *rec)
{
    const size_t ml = alg == FC_SHA1 ? 20 : 32;
    const size_t body = eiv + plen + ml, len = body + p + 1;
    uint8_t h2[13];

    fc_test_rand_bytes(pt, eiv + plen);
    memcpy(h2, hdr, 13);
    if (kind == K_HDR)
        h2[7] ^= 1;
    ref_mac(alg, mk, mklen, h2, pt + eiv, plen, pt + eiv + plen);
    memset(pt + body, (int)p, p + 1);
    if (kind == K_PADBYTE)
        pt[len - 2 - fc_test_rand_below(p)] ^= 0x10;
    if (kind == K_PADLEN)
        pt[len - 1] = (uint8_t)(len - eiv - ml);
    if (kind == K_MAC)
        pt[eiv + plen + fc_test_rand_below(ml)] ^= 0x04;
    ref_cbc(kb, key, iv, 1, pt, len, rec);
    return len;
}

/* A padding length for a record of |body| bytes before the padding, of
 * kind |kind|: any that makes whole blocks, up to 255. */
static size_t pick_pad(size_t body, int kind)
{
    size_t p = (16 - (body + 1) % 16) % 16;

    if (kind == K_PADLEN)
        return p;
    p += 16 * fc_test_rand_below((255 - p) / 16 + 1);
    if (kind == K_PADBYTE && p == 0)
        p = 16;
    return p;
}

FC_TEST("cbc_hmac_diff", test_open)
{
    combo co[64];
    const size_t nco = combos(co, 64);
    const int rounds = fc_test_quick() ? 8 : 120;
    uint8_t *pt = malloc(MAXREC), *rec = malloc(MAXREC), *out = malloc(MAXREC);

    assert_true(pt && rec && out);
    for (size_t ci = 0; ci < nco; ci++) {
        for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
            const size_t kb = alg == FC_SHA1 ? 32 : 16;
            const size_t ml = alg == FC_SHA1 ? 20 : 32;

            for (int r = 0; r < rounds; r++) {
                const int kind = r % K_KINDS;
                const size_t eiv = (r / K_KINDS) & 1 ? 16 : 0;
                const size_t plen =
                    kind == K_PADLEN ? fc_test_rand_below(200)
                                     : fc_test_rand_below(r & 4 ? 120 : 1500);
                const size_t p = pick_pad(eiv + plen + ml, kind);
                uint8_t key[32], iv[16], iv2[16], mk[32], hdr[13];
                fc_cbc_hmac_key k;
                size_t len, got_len = 0;
                uint64_t good;
                char ctx[200];

                fc_test_rand_bytes(key, sizeof(key));
                fc_test_rand_bytes(iv, sizeof(iv));
                fc_test_rand_bytes(mk, sizeof(mk));
                make_hdr(hdr, fc_test_rand64(), 0);
                len = build(alg, kb, key, iv, mk, sizeof(mk), hdr, eiv, plen, p,
                            kind, pt, rec);
                snprintf(ctx, sizeof(ctx),
                         "%s %s eiv=%zu plen=%zu pad=%zu kind=%d", co[ci].name,
                         alg_names[alg], eiv, plen, p, kind);
                make_key(&k, &co[ci], alg, kb, key, 0, mk, sizeof(mk));
                memcpy(iv2, iv, 16);
                /* The header's own length field is ignored. */
                hdr[11] = 0xff;
                if (r & 8) {
                    memcpy(out, rec, len);
                    good = fc_cbc_hmac_open(&k, iv2, hdr, out, out, len, eiv,
                                            &got_len);
                } else {
                    good = fc_cbc_hmac_open(&k, iv2, hdr, rec, out, len, eiv,
                                            &got_len);
                }
                if (kind == K_GOOD) {
                    if (good != UINT64_MAX)
                        fail_msg("%s: good record refused", ctx);
                    assert_int_equal(got_len, plen);
                    fc_test_expect_equal(ctx, "payload", out + eiv, pt + eiv,
                                         plen);
                } else if (good != 0) {
                    fail_msg("%s: bad record accepted", ctx);
                }
                fc_test_expect_equal(ctx, "chaining value", iv2, rec + len - 16,
                                     16);
            }
        }
    }
    free(pt);
    free(rec);
    free(out);
}

/* ---- the non-TLS mode ------------------------------------------------- */

FC_TEST("cbc_hmac_diff", test_plain)
{
    combo co[64];
    const size_t nco = combos(co, 64);
    uint8_t *in = malloc(MAXREC), *out = malloc(MAXREC), *ref = malloc(MAXREC);

    assert_true(in && out && ref);
    for (size_t ci = 0; ci < nco; ci++) {
        for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
            for (size_t blocks = 0; blocks <= 200;
                 blocks += fc_test_quick() ? 23 : 3) {
                const size_t len = 16 * blocks, pre = fc_test_rand_below(100);
                uint8_t key[32], iv[16], iv2[16], md[32], md2[32];
                fc_cbc_hmac_key k;
                fc_sha_hash h;
                fc_sha_state st, st2;

                fc_test_rand_bytes(key, sizeof(key));
                fc_test_rand_bytes(iv, sizeof(iv));
                fc_test_rand_bytes(in, len + pre);
                for (int enc = 0; enc <= 1; enc++) {
                    make_key(&k, &co[ci], alg, 16, key, enc, NULL, 0);
                    /* A running hash with |pre| bytes absorbed already. */
                    fc_sha_hash_for(&h, &fc_sha_ops_generic, (fc_sha_alg)alg);
                    fc_sha_init(&h, &st);
                    fc_sha_update(&h, &st, in + len, pre);
                    st2 = st;
                    memcpy(iv2, iv, 16);
                    if (enc)
                        fc_cbc_hmac_enc_hash(&k, &st, in, out, len, iv2);
                    else
                        fc_cbc_hmac_dec_hash(&k, &st, in, out, len, iv2);
                    ref_cbc(16, key, iv, enc, in, len, ref);
                    fc_test_expect_equal(co[ci].name, "CBC", out, ref, len);
                    if (len > 0)
                        fc_test_expect_equal(co[ci].name, "chaining value", iv2,
                                             (enc ? ref : in) + len - 16, 16);
                    fc_sha_update(&h, &st2, enc ? in : ref, len);
                    fc_sha_final(&h, &st, md);
                    fc_sha_final(&h, &st2, md2);
                    fc_test_expect_equal(co[ci].name, "running hash", md, md2,
                                         h.len);
                }
            }
        }
    }
    free(in);
    free(out);
    free(ref);
}

/* ---- stitched kernels ------------------------------------------------- */

#if defined(__x86_64__) && !defined(FC_NO_ASM)
/* The stitched kernels read AES-NI schedules. */
static void stitch_key(fc_aes_key *ks, const uint8_t *key, size_t kb)
{
    fc_aes_set_enc_key_aesni(ks, key, kb);
}
#else
static void stitch_key(fc_aes_key *ks, const uint8_t *key, size_t kb)
{
    fc_aes_set_enc_key_generic(ks, key, kb); /* no stitched kernel here */
}
#endif

/* Each stitched kernel against AES-CBC then SHA (generic kernels): every
 * block count 0..40, random chaining values, with the SHA input inside
 * the buffer at offsets 0..80 from its start, or in another buffer. */
FC_TEST("cbc_hmac_diff", test_stitched_kernels)
{
    size_t n, checked = 0;
    const fc_cbc_sha_ops *const *tab = fc_cbc_sha_impls(&n);
    const fc_cbc_sha_ops *ops;
    const size_t maxb = fc_test_quick() ? 12 : 40;
    uint8_t *buf = malloc(64 * 40 + 96), *copy = malloc(64 * 40 + 96),
            *ref = malloc(64 * 40 + 96);

    assert_true(buf && copy && ref);
    FC_TEST_FOREACH_IMPL("cbc-sha", tab, n, ops)
    {
        if (ops->sha1_enc == NULL)
            continue;
        checked++;
        for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
            fc_cbc_sha_enc_fn *fn =
                alg == FC_SHA1 ? ops->sha1_enc : ops->sha256_enc;
            fc_sha_blocks_fn *sha = alg == FC_SHA1 ? fc_sha1_blocks_generic
                                                   : fc_sha256_blocks_generic;

            for (size_t kb = 16; kb <= 32; kb += 8) {
                for (size_t blocks = 0; blocks <= maxb; blocks++) {
                    const size_t off = fc_test_rand_below(81);
                    const int apart = blocks % 3 == 2;
                    uint8_t key[32], iv[16], iv2[16];
                    uint32_t h[8], hr[8];
                    fc_aes_key ks;
                    char ctx[120];

                    snprintf(ctx, sizeof(ctx),
                             "%s %s AES-%zu blocks=%zu sha %s %zu", ops->name,
                             alg_names[alg], 8 * kb, blocks,
                             apart ? "in another buffer at" : "at offset", off);
                    fc_test_rand_bytes(key, sizeof(key));
                    fc_test_rand_bytes(iv, sizeof(iv));
                    fc_test_rand_bytes(h, sizeof(h));
                    fc_test_rand_bytes(buf, 64 * blocks + off);
                    memcpy(copy, buf, 64 * blocks + off);
                    memcpy(hr, h, sizeof(h));
                    sha(hr, copy + off, blocks);
                    ref_cbc(kb, key, iv, 1, buf, 64 * blocks, ref);
                    stitch_key(&ks, key, kb);
                    memcpy(iv2, iv, 16);
                    fn(&ks, buf, blocks, iv2, h,
                       apart ? copy + off : buf + off);
                    fc_test_expect_equal(ctx, "ciphertext", buf, ref,
                                         64 * blocks);
                    /* Past the AES range the buffer is untouched. */
                    fc_test_expect_equal(ctx, "bytes after", buf + 64 * blocks,
                                         copy + 64 * blocks, off);
                    fc_test_expect_equal(ctx, "SHA state", (uint8_t *)h,
                                         (uint8_t *)hr, sizeof(h));
                    fc_test_expect_equal(
                        ctx, "chaining value", iv2,
                        blocks > 0 ? ref + 64 * blocks - 16 : iv, 16);
                }
            }
        }
    }
    free(buf);
    free(copy);
    free(ref);
    FC_TEST_SKIP_IF(checked == 0, "no stitched kernel runs here");
}

/* ---- ABI -------------------------------------------------------------- */

FC_TEST("cbc_hmac_abi", test_abi_kernels)
{
    static const size_t counts[] = {0, 1, 2, 3, 7, 8, 9, 16, 17};
    static uint8_t buf[64 * 17 + 64], ref[64 * 17];
    size_t n, checked = 0;
    const fc_cbc_sha_ops *const *tab = fc_cbc_sha_impls(&n);
    const fc_cbc_sha_ops *ops;
    char what[120];

    FC_TEST_SKIP_IF(!FC_ABI_CHECK_AVAILABLE, "no ABI trampoline on this build");
    FC_TEST_FOREACH_IMPL("cbc-sha", tab, n, ops)
    {
        if (ops->sha1_enc == NULL)
            continue;
        checked++;
        for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
            fc_cbc_sha_enc_fn *fn =
                alg == FC_SHA1 ? ops->sha1_enc : ops->sha256_enc;

            for (size_t kb = 16; kb <= 32; kb += 8) {
                for (size_t c = 0; c < FC_ARRAY_LEN(counts); c++) {
                    uint8_t key[32], iv[16], iv0[16];
                    uint32_t h[8], hr[8];
                    fc_aes_key ks;

                    fc_test_rand_bytes(key, sizeof(key));
                    fc_test_rand_bytes(iv0, sizeof(iv0));
                    fc_test_rand_bytes(buf, sizeof(buf));
                    fc_test_rand_bytes(h, sizeof(h));
                    memcpy(hr, h, sizeof(h));
                    (alg == FC_SHA1
                         ? fc_sha1_blocks_generic
                         : fc_sha256_blocks_generic)(hr, buf + 64, counts[c]);
                    ref_cbc(kb, key, iv0, 1, buf, 64 * counts[c], ref);
                    stitch_key(&ks, key, kb);
                    memcpy(iv, iv0, 16);
                    snprintf(what, sizeof(what), "%s %s AES-%zu blocks=%zu",
                             ops->name, alg_names[alg], 8 * kb, counts[c]);
                    FC_ABI_CALL(what, fn, FC_ABI_ARG(&ks), FC_ABI_ARG(buf),
                                counts[c], FC_ABI_ARG(iv), FC_ABI_ARG(h),
                                FC_ABI_ARG(buf + 64));
                    fc_test_expect_equal(what, "ciphertext", buf, ref,
                                         64 * counts[c]);
                    fc_test_expect_equal(what, "SHA state", (uint8_t *)h,
                                         (uint8_t *)hr, sizeof(h));
                }
            }
        }
    }
    FC_TEST_SKIP_IF(checked == 0, "no stitched kernel runs here");
}

/* ---- constant time ---------------------------------------------------- */

/*
 * Records opened with the ciphertext, the AES key schedule and the HMAC
 * key states marked secret: in a FASTCRYPTO_CT_VALGRIND build under
 * valgrind, any branch or memory index that depends on the decrypted
 * bytes (the padding length, the payload length, where the MAC sits,
 * whether padding or MAC is good) is reported. Good records with short
 * and long padding, and every kind of bad one, at lengths on both sides
 * of the 256-byte window. Only the verdict and, for good records, the
 * payload length are declassified, after the call. Sealing runs with the
 * payload and keys marked secret.
 */
FC_TEST("cbc_hmac_edge", test_ct_marked)
{
    combo co[64];
    const size_t nco = combos(co, 64);
    static const size_t plens[] = {0, 5, 47, 300, 700};
    uint8_t *pt = malloc(MAXREC), *rec = malloc(MAXREC), *out = malloc(MAXREC);

    assert_true(pt && rec && out);
    for (size_t ci = 0; ci < nco; ci++) {
        for (int alg = FC_SHA1; alg <= FC_SHA256; alg++) {
            const size_t ml = alg == FC_SHA1 ? 20 : 32;

            for (size_t pi = 0; pi < FC_ARRAY_LEN(plens); pi++) {
                for (int kind = 0; kind < K_KINDS; kind++) {
                    const size_t plen =
                        kind == K_PADLEN && plens[pi] > 200 ? 100 : plens[pi];
                    const size_t eiv = pi & 1 ? 16 : 0;
                    const size_t p = pick_pad(eiv + plen + ml, kind);
                    uint8_t key[32], iv[16], mk[32], hdr[13];
                    fc_cbc_hmac_key k;
                    size_t len, got = 0;
                    uint64_t good;

                    fc_test_rand_bytes(key, sizeof(key));
                    fc_test_rand_bytes(iv, sizeof(iv));
                    fc_test_rand_bytes(mk, sizeof(mk));
                    make_hdr(hdr, 9, 0);
                    len = build(alg, 16, key, iv, mk, sizeof(mk), hdr, eiv,
                                plen, p, kind, pt, rec);
                    make_key(&k, &co[ci], alg, 16, key, 0, mk, sizeof(mk));
                    FC_CT_SECRET(k.ks.rk, sizeof(k.ks.rk));
                    FC_CT_SECRET(k.inner.h, sizeof(k.inner.h));
                    FC_CT_SECRET(k.outer.h, sizeof(k.outer.h));
                    FC_CT_SECRET(rec, len);
                    good =
                        fc_cbc_hmac_open(&k, iv, hdr, rec, out, len, eiv, &got);
                    FC_CT_PUBLIC(&good, sizeof(good));
                    FC_CT_PUBLIC(&got, sizeof(got));
                    FC_CT_PUBLIC(out, len);
                    FC_CT_PUBLIC(iv, sizeof(iv));
                    FC_CT_PUBLIC(rec, len);
                    if (kind == K_GOOD) {
                        assert_true(good == UINT64_MAX);
                        assert_int_equal(got, plen);
                        assert_memory_equal(out + eiv, pt + eiv, plen);
                    } else {
                        assert_true(good == 0);
                    }
                }
                /* Sealing: payload, AES key and MAC key secret. */
                {
                    uint8_t key[32], iv[16], mk[32], hdr[13], ref[MAXREC];
                    const size_t eiv = 16,
                                 len =
                                     fc_cbc_hmac_sealed_len(eiv, plens[pi], ml);
                    fc_cbc_hmac_key k;

                    fc_test_rand_bytes(key, sizeof(key));
                    fc_test_rand_bytes(iv, sizeof(iv));
                    fc_test_rand_bytes(mk, sizeof(mk));
                    fc_test_rand_bytes(pt, eiv + plens[pi]);
                    make_hdr(hdr, 3, plens[pi]);
                    memcpy(ref, pt, eiv + plens[pi]);
                    ref_mac(alg, mk, sizeof(mk), hdr, pt + eiv, plens[pi],
                            ref + eiv + plens[pi]);
                    memset(ref + eiv + plens[pi] + ml,
                           (int)(len - eiv - plens[pi] - ml - 1),
                           len - eiv - plens[pi] - ml);
                    ref_cbc(16, key, iv, 1, ref, len, ref);
                    make_key(&k, &co[ci], alg, 16, key, 1, mk, sizeof(mk));
                    FC_CT_SECRET(k.ks.rk, sizeof(k.ks.rk));
                    FC_CT_SECRET(k.inner.h, sizeof(k.inner.h));
                    FC_CT_SECRET(k.outer.h, sizeof(k.outer.h));
                    FC_CT_SECRET(pt, eiv + plens[pi]);
                    assert_int_equal(
                        fc_cbc_hmac_seal(&k, iv, hdr, pt, out, eiv, plens[pi]),
                        1);
                    FC_CT_PUBLIC(out, len);
                    FC_CT_PUBLIC(pt, eiv + plens[pi]);
                    FC_CT_PUBLIC(iv, sizeof(iv));
                    fc_test_expect_equal(co[ci].name, "secret-marked seal", out,
                                         ref, len);
                }
            }
        }
    }
    free(pt);
    free(rec);
    free(out);
}

/* Sealing refuses lengths its callers' arithmetic got wrong (an explicit
 * IV other than 0 or 16 bytes, a payload length that wrapped around below
 * zero) before it writes a byte, with every kernel combination. */
FC_TEST("cbc_hmac_diff", test_seal_preconditions)
{
    static const size_t bad_plen[] = {(size_t)0 - 16, (size_t)0 - 1,
                                      FC_CBC_HMAC_MAX_PAYLOAD + 1};
    combo co[64];
    const size_t nc = combos(co, 64);
    uint8_t key[32] = {1}, mk[20] = {2}, hdr[13] = {0}, iv[16] = {3};
    uint8_t buf[256], copy[256];

    (void)state;
    for (size_t ci = 0; ci < nc; ci++) {
        for (int alg = 0; alg < 2; alg++) {
            fc_cbc_hmac_key k;

            make_key(&k, &co[ci], alg, 16, key, 1, mk, sizeof(mk));
            for (size_t i = 0; i < sizeof(buf); i++)
                buf[i] = (uint8_t)i;
            memcpy(copy, buf, sizeof(buf));
            for (size_t i = 0; i < sizeof(bad_plen) / sizeof(bad_plen[0]); i++)
                assert_int_equal(
                    fc_cbc_hmac_seal(&k, iv, hdr, buf, buf, 16, bad_plen[i]),
                    0);
            assert_int_equal(fc_cbc_hmac_seal(&k, iv, hdr, buf, buf, 8, 16), 0);
            assert_memory_equal(buf, copy, sizeof(buf));
            /* The same call with sound lengths works. */
            assert_int_equal(fc_cbc_hmac_seal(&k, iv, hdr, buf, buf, 16, 16),
                             1);
        }
    }
}

int main(void)
{
    return fc_test_main(NULL, 0);
}
