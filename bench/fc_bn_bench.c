/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc_bn_bench.c - the two CRT halves' modular exponentiations of an RSA
 * private key (1024-, 1536- and 2048-bit halves: RSA-2048/3072/4096) on
 * every engine fastcrypto has, against OpenSSL's own constant-time code,
 * in one process, interleaved.
 *
 * Candidates per size (those the CPU runs; FASTCRYPTO_CPU_MASK hides
 * features from the fastcrypto engines as it does in the provider):
 *   every RSA engine (fc/rsa_engine.h) that takes the size, through its
 *   CRT exponentiation with its per-key state made beforehand:
 *   ifma      the AVX-512 IFMA engine (both halves at once)
 *   avx2      the AVX2 engine (both halves at once)
 *   mulx      fc_bn_mod_exp per half, MULX/ADX Montgomery kernels
 *   generic   fc_bn_mod_exp per half, portable C kernels
 *   ossl      BN_mod_exp_mont_consttime per half (Montgomery contexts made
 *             beforehand, as OpenSSL's RSA code keeps them)
 *   ossl-x2   BN_mod_exp_mont_consttime_x2 (OpenSSL 3.0+: its IFMA code
 *             for 1024-bit halves (3.0), 1024-2048 (3.2+), else two calls)
 * Run it twice, with and without OPENSSL_ia32cap=":~0x200000" (hides IFMA
 * from OpenSSL), to see OpenSSL's MULX and IFMA paths.
 *
 * One sample is one pair of exponentiations (full-size random odd moduli
 * with the top bit set, random bases, exponents of 64n bits), timed with
 * RDTSC; the candidates take turns sample by sample, and each reports the
 * minimum and the median of its samples in TSC ticks, core cycles (the
 * core clock is measured against the TSC with a chain of dependent ADDs of
 * registers) and microseconds (the TSC rate measured against
 * CLOCK_MONOTONIC). Every candidate's results are checked against
 * BN_mod_exp first.
 *
 * Bounds (core cycles per pair, printed beside the measurements):
 *   mulx      one MULX per cycle: 2n^2 per product, n(n+1)/2 + n^2 per
 *             squaring (triangle, squares, reduction)
 *   generic   one 64x64 multiply per cycle, the same counts
 *   avx2      VPMULUDQ count / 2 (two multipliers: Intel p0/p1, AMD Zen 3
 *             and later FP0/FP3) and vector ALU uops / 3 (Intel's three
 *             vector ports; the larger of the two is the bound there)
 *   ifma      VPMADD52 count / 2 (two 512-bit IFMA ports on the server
 *             cores): per pair, squaring / product n16 ~420 / ~510, n24
 *             ~850 / ~1060, n32 ~1440 / ~1820 (bn_exp_ifma.S, whose
 *             port-0/5 uop counts, ~1.4-1.6x these, are the tighter bound)
 * The operation counts follow the kernels' structure
 * (asm/x86_64/bn_exp_avx2.S) and fc_bn_mod_exp's window.
 *
 * Usage: fc_bn_bench [--samples N] [--sizes 1024,1536,2048] [--only a,b]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>

#include "fc/bn.h"
#include "fc/bn_exp2.h"
#include "fc/rsa_engine.h"
#include "fc/cpu.h"
#include "fc/tuning.h"

#define MAXC 8

typedef struct cand {
    const char *name;
    int kind; /* 0 fc engine, 2 ossl, 3 ossl-x2 */
    const fc_rsa_engine *e;
    double bound; /* core cycles per pair, 0: none */
    uint64_t *samples;
} cand;

static uint64_t rng_state = 0x853c49e6748fea9bULL;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static BIGNUM *bn_of(const uint64_t *a, size_t n)
{
    uint8_t buf[8 * FC_BN_MAX_LIMBS];

    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 8; k++)
            buf[8 * i + k] = (uint8_t)(a[i] >> (8 * k));
    return BN_lebin2bn(buf, (int)(8 * n), NULL);
}

static void limbs_of(uint64_t *r, size_t n, const BIGNUM *b)
{
    uint8_t buf[8 * FC_BN_MAX_LIMBS];

    BN_bn2lebinpad(b, buf, (int)(8 * n));
    for (size_t i = 0; i < n; i++) {
        r[i] = 0;
        for (int k = 0; k < 8; k++)
            r[i] |= (uint64_t)buf[8 * i + k] << (8 * k);
    }
}

/* Core clock per TSC tick: a chain of dependent register ADDs (one per
 * cycle; ADDs of an immediate may be folded by some cores). */
static double core_per_tsc(void)
{
    uint64_t best = ~(uint64_t)0, x = 1, y = 3;

    for (int r = 0; r < 20; r++) {
        uint64_t t0 = __rdtsc();
        for (int i = 0; i < 20000; i++)
            __asm__ volatile(".rept 100\n\tadd %1, %0\n\t.endr"
                             : "+r"(x)
                             : "r"(y));
        t0 = __rdtsc() - t0;
        if (t0 < best)
            best = t0;
    }
    return 2e6 / (double)best;
}

static double tsc_per_us(void)
{
    struct timespec a, b;
    uint64_t t0, t1;

    clock_gettime(CLOCK_MONOTONIC, &a);
    t0 = __rdtsc();
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) <
           200000000L);
    t1 = __rdtsc();
    return (double)(t1 - t0) / ((double)((b.tv_sec - a.tv_sec) * 1000000000L +
                                         (b.tv_nsec - a.tv_nsec)) /
                                1000.0);
}

/* fc_bn_mod_exp's window for an exponent of |bits| bits (bn_mont.c) */
static unsigned bn_window(size_t bits)
{
    return bits > 1536 ? 6 : bits > 384 ? 5 : bits > 96 ? 4 : bits > 24 ? 3 : 1;
}

/* bn_exp2.c's window */
static unsigned x2_window(size_t bits)
{
    return bits > 384 ? 5 : bits > 96 ? 4 : bits > 24 ? 3 : 1;
}

/* Products and squarings of one exponentiation with window w over |bits|
 * bits (the table's entries 2..2^w-1 half by squaring, the conversion in
 * and out as products). */
static void op_counts(size_t bits, unsigned w, double *muls, double *sqrs)
{
    double nwin = (double)((bits + w - 1) / w), tab = (double)(1u << w) - 2;

    *sqrs = (nwin - 1) * w + tab / 2;
    *muls = (nwin - 1) + tab / 2 + 3;
}

/* Products of a block's tile t (row r takes digit pairs j - r, j - r + 1,
 * j = 2t (+ offset); rows whose pairs are both outside 0..l-1 are left
 * out by the kernels). */
static double live_rows(long j, long k, long l)
{
    double c = 0;

    for (long r = 0; r < k; r++)
        c += (j - r + 1 >= 0 && j - r <= l - 1) ? 1 : 0;
    return c;
}

/* AVX2 kernel counts per pair operation (bn_exp_avx2.S): VPMULUDQ and
 * vector ALU uops (products, adds, broadcasts' blends, normalization). */
static void avx2_counts(size_t l, int sqr, double *vmul, double *valu)
{
    const long nt = (long)l / 2, nb4 = (long)l / 4, k2 = (long)l & 2;
    double mul = 0, alu;

    /* reduction: every block's rows on its bulk tiles */
    for (long b = 0; b < nb4; b++)
        for (long t = 0; t < nt; t++)
            mul += live_rows(4 + 2 * t, 4, (long)l);
    if (k2)
        for (long t = 0; t < nt; t++)
            mul += live_rows(2 + 2 * t, 2, (long)l);
    if (!sqr) {
        for (long b = 0; b < nb4; b++)
            for (long t = 0; t < nt + 2; t++)
                mul += live_rows(2 * t, 4, (long)l);
        if (k2)
            for (long t = 0; t < nt + 1; t++)
                mul += live_rows(2 * t, 2, (long)l);
    } else {
        for (long b = 0; b < nb4; b++)
            mul += 10 + 4.0 * (double)(nt - 2 - 2 * b);
        if (k2)
            mul += 3;
    }
    /* one add per product; 4 blends a block (y broadcasts); two lazy
     * passes of 4 uops per output tile; the copies */
    alu = 2 * mul + 4.0 * (double)(nb4 + 1) + 8.0 * (double)nt +
          (sqr ? 3.0 : 1.0) * (double)nt;
    *vmul = mul;
    *valu = alu;
}

int main(int argc, char **argv)
{
    int samples = 41;
    const char *sizes = "1024,1536,2048", *only = NULL;
    const uint32_t caps = fc_cpu_detect();
    uint32_t mask = 0, c;
    const char *env = getenv(FC_CPU_MASK_ENV);
    const char *oc = getenv("OPENSSL_ia32cap");
    double cpt, tpu;
    fc_cpu_id id = fc_cpu_identify();

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc)
            samples = atoi(argv[++i]);
        else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc)
            sizes = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr,
                    "usage: %s [--samples N] [--sizes 1024,1536,2048] "
                    "[--only ifma,avx2,mulx,generic,ossl,ossl-x2]\n",
                    argv[0]);
            return 2;
        }
    }
    if (samples < 3)
        samples = 3;
    if (env != NULL && !fc_cpu_parse_mask(env, &mask)) {
        fprintf(stderr, "bad %s\n", FC_CPU_MASK_ENV);
        return 2;
    }
    c = fc_cpu_apply_mask(caps, mask);
    cpt = core_per_tsc();
    tpu = tsc_per_us();
    printf("fc_bn_bench: %s; CPU family %u model %u (row %s); %s=%s; "
           "OPENSSL_ia32cap=%s\n",
           OpenSSL_version(OPENSSL_VERSION), id.family, id.model,
           fc_tuning_for(&id)->name, FC_CPU_MASK_ENV, env ? env : "",
           oc ? oc : "");
    printf("TSC %.0f MHz, core/TSC %.3f (core ~%.0f MHz); %d samples per "
           "candidate, interleaved; times per pair of CRT halves\n",
           tpu, cpt, tpu * cpt, samples);

    for (const char *sp = sizes; *sp != '\0';) {
        const size_t bits = strtoul(sp, NULL, 10), n = bits / 64;
        const size_t l = n == 16   ? FC_EXP2_AVX2_L16
                         : n == 24 ? FC_EXP2_AVX2_L24
                                   : FC_EXP2_AVX2_L32;
        cand cs[MAXC];
        size_t nc = 0, count;
        const fc_rsa_engine *const *tab = fc_rsa_engine_impls(&count);
        fc_rsa_engines list;
        uint64_t m[2][FC_BN_MAX_LIMBS], a[2][FC_BN_MAX_LIMBS];
        uint64_t e[2][FC_BN_MAX_LIMBS], want[2][FC_BN_MAX_LIMBS];
        uint64_t r[2][FC_BN_MAX_LIMBS];
        BIGNUM *bm[2], *ba[2], *be[2], *br[2];
        BN_MONT_CTX *mont[2];
        BN_CTX *bctx = BN_CTX_new();
        double muls, sqrs, x2m, x2s;

        while (*sp != '\0' && *sp != ',')
            sp++;
        if (*sp == ',')
            sp++;
        if (n != 16 && n != 24 && n != 32)
            continue;
        for (int h = 0; h < 2; h++) {
            for (size_t i = 0; i < n; i++) {
                m[h][i] = rnd64();
                a[h][i] = rnd64();
                e[h][i] = rnd64();
            }
            m[h][0] |= 1;
            m[h][n - 1] |= (uint64_t)1 << 63;
            a[h][n - 1] >>= 1;
            e[h][n - 1] |= (uint64_t)1 << 63;
            bm[h] = bn_of(m[h], n);
            ba[h] = bn_of(a[h], n);
            be[h] = bn_of(e[h], n);
            br[h] = BN_new();
            BN_set_flags(be[h], BN_FLG_CONSTTIME);
            mont[h] = BN_MONT_CTX_new();
            BN_MONT_CTX_set(mont[h], bm[h], bctx);
            BN_mod_exp(br[h], ba[h], be[h], bm[h], bctx);
            limbs_of(want[h], n, br[h]);
        }
        op_counts(64 * n, bn_window(64 * n), &muls, &sqrs);
        op_counts(64 * n, x2_window(64 * n), &x2m, &x2s);

        /* Every engine that runs here and takes these halves; the scalar
         * kernels of the vector engines' contexts come from the table's
         * order (fc_rsa_engines_init without a row). */
        fc_rsa_engines_init(&list, c, NULL);
        for (size_t i = 0; i < count; i++) {
            const fc_rsa_engine *en = tab[i];
            double vm, va, vm2, va2;

            if ((c & en->required_caps) != en->required_caps ||
                !fc_rsa_engine_takes(en, n, n) || nc + 2 >= MAXC)
                continue;
            cs[nc] = (cand){en->name, 0, en, 0, NULL};
            if (strcmp(en->name, "ifma") == 0) {
                double sq = n == 16 ? 422 : n == 24 ? 853 : 1437;
                double mu = n == 16 ? 510 : n == 24 ? 1061 : 1815;

                cs[nc].bound = (x2m * mu + x2s * sq) / 2;
            } else if (strcmp(en->name, "avx2") == 0) {
                avx2_counts(l, 0, &vm, &va);
                avx2_counts(l, 1, &vm2, &va2);
                vm = x2m * vm + x2s * vm2;
                va = x2m * va + x2s * va2;
                cs[nc].bound = vm / 2 > va / 3 ? vm / 2 : va / 3;
            } else if (en->kernels != NULL) {
                cs[nc].bound = 2 * (muls * 2.0 * (double)(n * n) +
                                    sqrs * (double)(n * (n + 1) / 2 + n * n));
            }
            nc++;
        }
        cs[nc++] = (cand){"ossl", 2, NULL, 0, NULL};
        cs[nc++] = (cand){"ossl-x2", 3, NULL, 0, NULL};

        printf("\n== %zu-bit halves (RSA-%zu), exponents of %zu bits\n", bits,
               2 * bits, bits);
        printf("%-8s %10s %10s %10s %10s %9s %8s %7s\n", "engine", "min tsc",
               "med tsc", "min cyc", "med cyc", "us/pair", "us/half",
               "x bound");
        for (size_t k = 0; k < nc; k++) {
            int keep = only == NULL || strstr(only, cs[k].name) != NULL;

            cs[k].samples =
                keep ? calloc((size_t)samples, sizeof(uint64_t)) : NULL;
        }
        /* the candidates' contexts and per-key state; correctness first,
         * then the samples, taken in turns */
        {
            fc_mont fm[MAXC][2];
            void *pre[MAXC] = {0};

            for (size_t k = 0; k < nc; k++) {
                const fc_rsa_engine *en = cs[k].e;
                const fc_bn_ops *ops;

                if (cs[k].samples == NULL || cs[k].kind != 0)
                    continue;
                ops = en->kernels != NULL ? en->kernels
                                          : fc_rsa_kernels_for(&list, n);
                fc_mont_init(&fm[k][0], m[0], n, ops);
                fc_mont_init(&fm[k][1], m[1], n, ops);
                if (en->pre_new != NULL)
                    pre[k] = en->pre_new(&fm[k][0], &fm[k][1]);
                memset(r, 0, sizeof(r));
                en->exp2(pre[k], &fm[k][0], r[0], a[0], e[0], 64 * n, &fm[k][1],
                         r[1], a[1], e[1], 64 * n);
                if (memcmp(r[0], want[0], 8 * n) ||
                    memcmp(r[1], want[1], 8 * n)) {
                    printf("%s: WRONG RESULT\n", cs[k].name);
                    return 1;
                }
            }
            for (int s = 0; s < samples; s++) {
                for (size_t k = 0; k < nc; k++) {
                    uint64_t t0;

                    if (cs[k].samples == NULL)
                        continue;
                    t0 = __rdtsc();
                    switch (cs[k].kind) {
                    case 0:
                        cs[k].e->exp2(pre[k], &fm[k][0], r[0], a[0], e[0],
                                      64 * n, &fm[k][1], r[1], a[1], e[1],
                                      64 * n);
                        break;
                    case 2:
                        BN_mod_exp_mont_consttime(br[0], ba[0], be[0], bm[0],
                                                  bctx, mont[0]);
                        BN_mod_exp_mont_consttime(br[1], ba[1], be[1], bm[1],
                                                  bctx, mont[1]);
                        break;
                    default:
                        BN_mod_exp_mont_consttime_x2(
                            br[0], ba[0], be[0], bm[0], mont[0], br[1], ba[1],
                            be[1], bm[1], mont[1], bctx);
                        break;
                    }
                    cs[k].samples[s] = __rdtsc() - t0;
                }
            }
            for (size_t k = 0; k < nc; k++) {
                if (cs[k].samples == NULL || cs[k].kind != 0)
                    continue;
                if (pre[k] != NULL)
                    cs[k].e->pre_free(pre[k]);
                fc_mont_free(&fm[k][0]);
                fc_mont_free(&fm[k][1]);
            }
        }
        for (int h = 0; h < 2; h++) {
            limbs_of(r[h], n, br[h]);
            if (memcmp(r[h], want[h], 8 * n) != 0) {
                printf("OpenSSL: WRONG RESULT\n");
                return 1;
            }
        }
        for (size_t k = 0; k < nc; k++) {
            uint64_t mn, md;

            if (cs[k].samples == NULL)
                continue;
            qsort(cs[k].samples, (size_t)samples, sizeof(uint64_t), cmp_u64);
            mn = cs[k].samples[0];
            md = cs[k].samples[samples / 2];
            printf("%-8s %10llu %10llu %10.0f %10.0f %9.1f %8.1f", cs[k].name,
                   (unsigned long long)mn, (unsigned long long)md,
                   (double)mn * cpt, (double)md * cpt, (double)md / tpu,
                   (double)md / tpu / 2);
            if (cs[k].bound > 0)
                printf(" %7.2f  (bound %.0f cyc)",
                       (double)mn * cpt / cs[k].bound, cs[k].bound);
            printf("\n");
            free(cs[k].samples);
        }
        for (int h = 0; h < 2; h++) {
            BN_free(bm[h]);
            BN_free(ba[h]);
            BN_free(be[h]);
            BN_free(br[h]);
            BN_MONT_CTX_free(mont[h]);
        }
        BN_CTX_free(bctx);
    }
    return 0;
}
