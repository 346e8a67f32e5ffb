/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_exp2.c - both CRT halves' modular exponentiations in one pass on a
 * vector engine (see fc/bn_exp2.h): the part every vector engine shares.
 * Each engine's glue (rsa_engine_ifma.c, rsa_engine_avx2.c) gives its
 * number layouts, kernel constants and kernels as fc_exp2_shape tables.
 *
 * Per key (fc_exp2_key_new), per half: the kernel constants (the engine's
 * ctx_init), R = 2^(db L) mod m (the Montgomery one, table entry 0),
 * RR = R^2 mod m and u = 2^-D mod m, D = db L - 64n, all through the 64-bit
 * Montgomery kernels of the fc_mont context. Per call (fc_exp2_run): a ->
 * the engine's radix and a * R = AMM(a, RR) (one vector product for both
 * halves), the table, a fixed-window exponentiation on "almost Montgomery"
 * values (below a small multiple of m, see the .S headers), then per half
 * one full reduction (fc_mont_reduce) and one 64-bit product by u, which
 * also leaves the Montgomery domain.
 *
 * Measured (IFMA; development Xeon with AVX512-IFMA, shared 2-core KVM
 * guest under load from other jobs: only ratios within one run mean
 * anything), one pair of 1024-bit CRT exponentiations with a real
 * RSA-2048 key's dP and dQ, medians of 7 interleaved rounds (each the
 * minimum of 40):
 *
 *   version                                           us per pair
 *   side-by-side AMM kernel, conversions per call     254
 *   interleaved sqr/mul kernels, per-key constants    173
 *
 * In the same runs OpenSSL 3.0's whole RSA-2048 private operation (raw
 * decrypt through EVP, its own 1024-bit IFMA code for both halves) took
 * 296 us and fc_rsa_private 195 us (276 us before). Window size for
 * 1024-bit exponents: 4 and 5 measure the same within noise, 6 is ~3%
 * slower; 5 is used. The gather of one window (32 entries, both halves)
 * costs ~180 cycles, ~6% of the pair. AVX2 figures: bench/fc_bn_bench and
 * the header of bn_exp_avx2.S.
 */
#include <stdlib.h>
#include <string.h>

#include "fc/bn.h"
#include "fc/bn_exp2.h"
#include "fc/common.h"
#include "fc/ct.h"

/*
 * The per-key state: kernel constants, R = 2^(db*l) mod m (the Montgomery
 * one) and RR = R^2 mod m in the kernels' number layout (64-byte aligned,
 * in |mem|), and u = 2^-D mod m per half.
 */
struct fc_exp2_key {
    const fc_exp2_shape *sh;
    uint64_t *mem; /* ctx, one, rr, u[0], u[1] */
    size_t mem_words;
    uint64_t *ctx;
    uint64_t *one;  /* R mod m (the Montgomery one) */
    uint64_t *rr;   /* R^2 mod m */
    uint64_t *u[2]; /* 2^-D mod m, n limbs */
};

/* see fc/bn_exp2.h */
const fc_exp2_shape *fc_exp2_shape_find(const fc_exp2_shape *shapes,
                                        size_t count, size_t n)
{
    for (size_t i = 0; i < count; i++)
        if (shapes[i].n == n)
            return &shapes[i];
    return NULL;
}

/* fc_exp2_todig writes |l| digits of |db| bits from the |n|-limb x (bits
 * past 64n read as zero), then zero digits up to |slot|. CT: only the
 * lengths leak. */
static void fc_exp2_todig(uint64_t *d, const uint64_t *x, size_t n, size_t l,
                          size_t slot, unsigned db)
{
    const uint64_t mask = ((uint64_t)1 << db) - 1;

    for (size_t i = 0; i < l; i++) {
        size_t bit = db * i, limb = bit / 64, sh = bit % 64;
        uint64_t v = 0;

        if (limb < n)
            v = x[limb] >> sh;
        if (sh > 64 - db && limb + 1 < n)
            v |= x[limb + 1] << (64 - sh);
        d[i] = v & mask;
    }
    for (size_t i = l; i < slot; i++)
        d[i] = 0;
}

/* fc_exp2_fromdig: |xn| limbs from |l| digits of |db| bits that may exceed
 * 2^db (the AVX2 kernels leave digits below 2^28 + 2^8): the carries are
 * propagated first, then the bits placed (high bits past 64*xn dropped;
 * callers size xn to hold the value). |d| is normalized in place. */
static void fc_exp2_fromdig(uint64_t *x, size_t xn, uint64_t *d, size_t l,
                            unsigned db)
{
    const uint64_t mask = ((uint64_t)1 << db) - 1;
    uint64_t c = 0;

    for (size_t i = 0; i < l; i++) {
        uint64_t v = d[i] + c;
        d[i] = v & mask;
        c = v >> db;
    }
    memset(x, 0, xn * sizeof(uint64_t));
    for (size_t i = 0; i < l; i++) {
        size_t bit = db * i, limb = bit / 64, sh = bit % 64;

        if (limb < xn)
            x[limb] |= d[i] << sh;
        if (sh > 64 - db && limb + 1 < xn)
            x[limb + 1] |= d[i] >> (64 - sh);
    }
}

/* see fc/bn_exp2.h */
void fc_exp2_mdigits(const fc_exp2_shape *sh, const fc_mont *mont, uint64_t k,
                     uint64_t *d)
{
    uint64_t x[FC_BN_MAX_LIMBS + 2], kk[2] = {k, 0};

    fc_bn_mul(x, mont->m, mont->n, kk, 2);
    fc_exp2_todig(d, x, mont->n + 2, sh->l, sh->slot, sh->db);
    fc_memzero(x, sizeof(x));
}

/* Digits of one half of a number of shape |sh| into |num| (both halves)
 * from the slot-digit arrays d0, d1. */
static void fc_exp2_pack(const fc_exp2_shape *sh, uint64_t *num,
                         const uint64_t *d0, const uint64_t *d1)
{
    for (size_t i = 0; i < sh->slot; i++) {
        num[sh->pos(sh, 0, i)] = d0[i];
        num[sh->pos(sh, 1, i)] = d1[i];
    }
}

/* fc_exp2_window: exponent bits [pos, pos+w) of e (ebits bits in
 * ceil(ebits/64) limbs; bits at or past ebits read as zero). pos, w and
 * ebits are public: the limb choice and shifts depend on them only. */
static size_t fc_exp2_window(const uint64_t *e, size_t ebits, size_t pos,
                             unsigned w)
{
    size_t elimbs = (ebits + 63) / 64, limb = pos / 64, sh = pos % 64;
    uint64_t v = 0;

    if (pos >= ebits)
        return 0;
    v = e[limb] >> sh;
    if (sh + w > 64 && limb + 1 < elimbs)
        v |= e[limb + 1] << (64 - sh);
    v &= ((uint64_t)1 << w) - 1;
    if (pos + w > ebits)
        v &= ((uint64_t)1 << (ebits - pos)) - 1;
    return (size_t)v;
}

static unsigned fc_exp2_wsize(size_t ebits)
{
    if (ebits > 384)
        return 5;
    if (ebits > 96)
        return 4;
    if (ebits > 24)
        return 3;
    return 1;
}

/* see fc/bn_exp2.h */
fc_exp2_key *fc_exp2_key_new(const fc_exp2_shape *sh, const fc_mont *m1,
                             const fc_mont *m2)
{
    const fc_mont *m[2] = {m1, m2};
    fc_exp2_key *key;
    uint64_t one[2][FC_EXP2_MAXL], rr[2][FC_EXP2_MAXL];
    uint64_t x[FC_BN_MAX_LIMBS], y[FC_BN_MAX_LIMBS], t[FC_BN_MAX_LIMBS];
    size_t n, dbits, ctxw;

    if (sh == NULL)
        return NULL;
    n = sh->n;
    /* fc_mont_init refused even moduli and a zero top limb; the moduli
     * are secret (RSA primes), so only their public limb count is looked
     * at here. */
    if (m[0]->n != n || m[1]->n != n)
        return NULL;
    key = calloc(1, sizeof(*key));
    if (key == NULL)
        return NULL;
    ctxw = (sh->ctx_words + 7) & ~(size_t)7;
    key->mem_words = ctxw + 2 * sh->words + 2 * n;
    key->mem = aligned_alloc(64, key->mem_words * sizeof(uint64_t));
    if (key->mem == NULL) {
        free(key);
        return NULL;
    }
    memset(key->mem, 0, key->mem_words * sizeof(uint64_t));
    key->sh = sh;
    key->ctx = key->mem;
    key->one = key->ctx + ctxw;
    key->rr = key->one + sh->words;
    key->u[0] = key->rr + sh->words;
    key->u[1] = key->u[0] + n;

    dbits = sh->db * sh->l - 64 * n; /* D, below 64n */
    for (size_t h = 0; h < 2; h++) {
        const fc_mont *mont = m[h];

        /* y = 2^D (< m); x = 2^D * 2^64n = R mod m; t = R * 2^64n;
         * y = R * R * 2^64n / 2^64n = RR. */
        memset(y, 0, n * sizeof(uint64_t));
        y[dbits / 64] = (uint64_t)1 << (dbits % 64);
        fc_mont_to(mont, x, y);
        fc_exp2_todig(one[h], x, n, sh->l, sh->slot, sh->db);
        fc_mont_to(mont, t, x);
        mont->ops->mul(y, x, t, mont->m, mont->m0inv, n);
        fc_exp2_todig(rr[h], y, n, sh->l, sh->slot, sh->db);
        /* u = 2^(64n - D) / 2^64n = 2^-D mod m (2^(64n-D) < m). */
        memset(y, 0, n * sizeof(uint64_t));
        y[(64 * n - dbits) / 64] = (uint64_t)1 << ((64 * n - dbits) % 64);
        fc_mont_from(mont, key->u[h], y);
    }
    sh->ctx_init(sh, m, key->ctx);
    fc_exp2_pack(sh, key->one, one[0], one[1]);
    fc_exp2_pack(sh, key->rr, rr[0], rr[1]);
    fc_memzero(one, sizeof(one));
    fc_memzero(rr, sizeof(rr));
    fc_memzero(x, sizeof(x));
    fc_memzero(y, sizeof(y));
    fc_memzero(t, sizeof(t));
    return key;
}

/* see fc/bn_exp2.h */
void fc_exp2_key_free(void *vkey)
{
    fc_exp2_key *key = vkey;

    if (key == NULL)
        return;
    fc_memzero(key->mem, key->mem_words * sizeof(uint64_t));
    free(key->mem);
    fc_memzero(key, sizeof(*key));
    free(key);
}

/* see fc/bn_exp2.h */
void *fc_exp2_key_dup(const void *vkey)
{
    const fc_exp2_key *key = vkey;
    fc_exp2_key *k;

    if (key == NULL)
        return NULL;
    k = malloc(sizeof(*k));
    if (k == NULL)
        return NULL;
    *k = *key;
    k->mem = aligned_alloc(64, key->mem_words * sizeof(uint64_t));
    if (k->mem == NULL) {
        free(k);
        return NULL;
    }
    memcpy(k->mem, key->mem, key->mem_words * sizeof(uint64_t));
    /* re-point into the copy */
    k->ctx = k->mem + (key->ctx - key->mem);
    k->one = k->mem + (key->one - key->mem);
    k->rr = k->mem + (key->rr - key->mem);
    k->u[0] = k->mem + (key->u[0] - key->mem);
    k->u[1] = k->mem + (key->u[1] - key->mem);
    return k;
}

/* see fc/bn_exp2.h */
int fc_exp2_run(const void *vkey, const fc_mont *m1, uint64_t *r1,
                const uint64_t *a1, const uint64_t *e1, size_t e1bits,
                const fc_mont *m2, uint64_t *r2, const uint64_t *a2,
                const uint64_t *e2, size_t e2bits)
{
    const fc_exp2_key *key = vkey;
    const fc_exp2_shape *sh;
    const fc_mont *m[2] = {m1, m2};
    const uint64_t *e[2] = {e1, e2};
    const size_t eb[2] = {e1bits, e2bits};
    uint64_t *r[2] = {r1, r2};
    uint64_t d[2][FC_EXP2_MAXL], x[2 * FC_BN_MAX_LIMBS], y[FC_BN_MAX_LIMBS];
    const size_t ebits = e1bits > e2bits ? e1bits : e2bits;
    size_t words, nwin, count, n, xn, bufw;
    uint64_t *buf, *table, *acc, *tmp, *work;
    unsigned w;

    if (key == NULL)
        return 0;
    sh = key->sh;
    n = sh->n;
    if (m1->n != n || m2->n != n)
        return 0;
    w = fc_exp2_wsize(ebits);
    count = (size_t)1 << w;
    /* table, acc, tmp, the kernels' work buffer (zero: its padding must
     * read as zero pairs) */
    words = (count + 2) * sh->words;
    bufw = words + sh->work_bytes / 8;
    buf = aligned_alloc(64, bufw * sizeof(uint64_t));
    if (buf == NULL)
        return 0;
    table = buf;
    acc = table + count * sh->words;
    tmp = acc + sh->words;
    work = tmp + sh->words;
    memset(work, 0, sh->work_bytes);

    /* table[0] = R, table[1] = AMM(a, RR) = a * R, table[j] = a^j R
     * (almost reduced); even entries by squaring. */
    memcpy(table, key->one, sh->words * sizeof(uint64_t));
    fc_exp2_todig(d[0], a1, n, sh->l, sh->slot, sh->db);
    fc_exp2_todig(d[1], a2, n, sh->l, sh->slot, sh->db);
    fc_exp2_pack(sh, tmp, d[0], d[1]);
    sh->mul(sh, table + sh->words, tmp, key->rr, key->ctx, work);
    for (size_t j = 2; j < count; j++) {
        if ((j & 1) == 0)
            sh->sqr(sh, table + j * sh->words, table + (j / 2) * sh->words, 1,
                    key->ctx, work);
        else
            sh->mul(sh, table + j * sh->words, table + (j - 1) * sh->words,
                    table + sh->words, key->ctx, work);
    }

    /* Fixed windows over max(e1bits, e2bits): the operation sequence
     * depends on that length only; a zero window multiplies by table[0]
     * (R, the Montgomery one). The next window's gather comes before the
     * squarings: it does not depend on them and overlaps their start. */
    nwin = ebits == 0 ? 1 : (ebits + w - 1) / w;
    sh->gather(acc, table, count,
               fc_exp2_window(e[0], eb[0], (nwin - 1) * w, w),
               fc_exp2_window(e[1], eb[1], (nwin - 1) * w, w));
    for (size_t win = nwin - 1; win-- > 0;) {
        sh->gather(tmp, table, count, fc_exp2_window(e[0], eb[0], win * w, w),
                   fc_exp2_window(e[1], eb[1], win * w, w));
        sh->sqr(sh, acc, acc, w, key->ctx, work);
        sh->mul(sh, acc, acc, tmp, key->ctx, work);
    }

    /* r = acc / R mod m, fully reduced: acc mod m (fc_mont_reduce), then
     * times u = 2^-D: y * u / 2^64n = acc * 2^-(D + 64n) = acc / R. */
    xn = (sh->db * sh->l + 63) / 64;
    for (size_t h = 0; h < 2; h++) {
        for (size_t i = 0; i < sh->l; i++)
            d[h][i] = acc[sh->pos(sh, h, i)];
        fc_exp2_fromdig(x, xn, d[h], sh->l, sh->db);
        fc_mont_reduce(m[h], y, x, xn);
        m[h]->ops->mul(r[h], y, key->u[h], m[h]->m, m[h]->m0inv, n);
    }
    fc_memzero(d, sizeof(d));
    fc_memzero(x, sizeof(x));
    fc_memzero(y, sizeof(y));
    fc_memzero(buf, bufw * sizeof(uint64_t));
    free(buf);
    return 1;
}
