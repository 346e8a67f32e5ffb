/* SPDX-License-Identifier: Apache-2.0 */
/*
 * families.c - the algorithm families (see fc/family.h), each described
 * once: its offer bit and name, the table's offer rule on the tiers of the
 * kernels it runs (fc/kernel.h), with the measurement behind each "yes",
 * and the work fastcrypto-calibrate measures for it. The rules are the
 * prior fc_offer_decide (offer.c) gives where no wisdom decided.
 *
 * What default runs (x86-64; OpenSSL's own dispatch, read from its source):
 *   AES-GCM   3.0: AES-NI + PCLMULQDQ, 6 blocks per pass in xmm registers
 *             (aesni_gcm_*, with AVX and MOVBE). From 3.1 on (taken
 *             conservatively as the first release): its AVX-512 VAES GCM
 *             where AVX512F+DQ+BW+VL, VAES and VPCLMULQDQ are all present.
 *   AES-CBC   AES-NI: serial encryption, 8 blocks in flight decrypting, xmm.
 *   AES-CTR   AES-NI, 8 blocks in flight, xmm.
 *   RSA       per CRT half: AVX-512 IFMA for 1024-bit halves in 3.0, for
 *             1536- and 2048-bit halves too from 3.1 on (conservatively);
 *             else MULX/ADX (BMI2 and ADX); else its AVX2 code for 1024-bit
 *             halves; else MULQ.
 *   CTR-DRBG  AES-NI CTR.
 *   AES-CBC-HMAC-SHA1/SHA256  stitched AES-NI code with SHA-NI where the
 *             CPU has it, else with AVX2.
 * Without AES-NI default's assembly is at least as fast as our portable
 * kernels: nothing is offered there unless forced; fc_offer_decide asks
 * these rules on x86-64 only, and fc_offer_decide_arm64 (below) on arm64.
 */
#include <string.h>

#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/family.h"
#include "fc/kernel.h"

/* Default's AVX-512 GCM: OpenSSL's ossl_vaes_vpclmulqdq_capable() asks for
 * AVX512F, DQ, BW, VL (FC_CAP_AVX512), VAES and VPCLMULQDQ. */
static int fc_default_gcm_zmm(const fc_offer_in *in)
{
    const uint32_t need = FC_CAP_AVX512 | FC_CAP_VAES | FC_CAP_VPCLMUL;

    return fc_ossl_at_least(in->ossl_version, 3, 1) &&
           (in->caps & need) == need;
}

/* Default's RSA code for a CRT half of n limbs is IFMA. */
static int fc_default_rsa_ifma(const fc_offer_in *in, size_t n)
{
    if ((in->caps & FC_CAP_IFMA) == 0)
        return 0;
    return n == 16 ||
           (fc_ossl_at_least(in->ossl_version, 3, 1) && (n == 24 || n == 32));
}

/*
 * AES-GCM. Ours against default's 6-block xmm loop (OpenSSL 3.0, or any
 * CPU without AVX-512 VAES): the VAES ymm tier 1.98x (AES-128) / 2.12x
 * (AES-256) at 16 KiB, 2.0x and more at 16 B..1350 B (Intel Xeon,
 * Sapphire Rapids class, OpenSSL 3.0.19, scripts/bench.sh); 2.4x on AMD
 * Zen 3 (3.0.19); the AES-NI/AVX tier (VAES hidden from both sides) 1.21x.
 * Against default's AVX-512 GCM only a 512-bit tier of ours competes
 * (our ymm tier measured 0.77x against OpenSSL 3.6.3's at 16 KiB on the
 * Xeon), and only where the CPU's row chose it: the zmm tier against
 * 3.6.3 on the Xeon, openssl speed -evp (a re-key per message), 1.03-1.06x
 * at 16 KiB and 1.11-1.35x at 16 B..1350 B, 64 B included (it lost there,
 * 0.89-0.98x, before its key setup made the powers of H on demand).
 */
static int fc_offer_gcm(const fc_offer_in *in, const char **why)
{
    if (fc_default_gcm_zmm(in)) {
        if (in->gcm_tier >= FC_TIER_512) {
            *why = "ours_512-bit_vs_default_AVX-512_GCM";
            return 1;
        }
        *why = "default_runs_AVX-512_GCM_from_3.1;_ours_is_narrower";
        return 0;
    }
    if (in->gcm_tier >= FC_TIER_128_AVX) {
        *why = "ours_vs_default_6-block_xmm_loop";
        return 1;
    }
    *why = "no_AES-NI+PCLMULQDQ+AVX";
    return 0;
}

/* The AES table's rule for CBC and CTR: the VAES tier wins, the AES-NI
 * tier ties. */
static int fc_offer_vaes(const fc_offer_in *in, const char **why)
{
    if (in->aes_tier >= FC_TIER_256) {
        *why = "VAES_16_blocks_vs_default_AES-NI_8";
        return 1;
    }
    *why = in->aes_tier >= FC_TIER_128 ? "AES-NI_alone_ties_default;_needs_VAES"
                                       : "no_AES-NI";
    return 0;
}

/*
 * AES-CBC. The VAES tier decrypts 16 blocks per pass: 1.96-2.08x at
 * 16 KiB, encryption 1.03-1.10x (at the AESENC latency bound, as
 * default). With VAES hidden from both sides (Xeon, 3.0.19) the AES-NI
 * tier encrypts 1.07-1.10x but decrypts 0.97-1.02x: a tie is not a win.
 * AES-256-CBC encryption of 47-2048 B messages under a fresh key each
 * (fc_bench cbc-small, 66 blocks on average): 1.10-1.12x against 3.0.19,
 * 1.04x against 3.6.3. Each message is one chain of 14 dependent AESENC
 * per block (42 c; default's ~45-47): against 3.0.19, per message, floor
 * 68 ns, default 842 ns above it, fastcrypto 747 of which ~700 is that
 * chain; with nothing at all of ours beside the chain it would be
 * ~1.18x.
 */
static int fc_offer_cbc(const fc_offer_in *in, const char **why)
{
    return fc_offer_vaes(in, why);
}

/*
 * AES-CTR: the VAES kernel (16 blocks per pass) 2.1-2.5x default at 16 KiB,
 * 1.45-2.0x at 256 B, level at 16 B (0.99-1.10x); AES-NI alone 1.1x at
 * 16 KiB by its cycles per byte (0.230 against 0.256 ticks, AES-128) and
 * level below: with the VAES tier only, as CBC. (Xeon, 3.0.19.)
 */
static int fc_offer_ctr(const fc_offer_in *in, const char **why)
{
    return fc_offer_vaes(in, why);
}

/*
 * CTR-DRBG, on the AES table's ctr32 kernels (bench/fc_bench drbg-*, Xeon
 * family 6 model 0xa7, 3 rounds, AES-256 with df, generate calls of 16 B,
 * 256 B, 4 KiB, 64 KiB): VAES tier 3.4x, 3.3x, 2.6x, 2.2x default's on
 * OpenSSL 3.0.19 and 2.0x, 2.1x, 2.2x, 2.2x on 3.6.3; AES-NI tier (mask
 * vaes) 3.2x, 2.9x, 1.5x, 1.18x on 3.0.19. Default's per-call work is
 * what the small requests (keys, nonces, blinding, padding) save; the
 * large ones are AES-CTR throughput, ahead on either tier. Offered with
 * any x86-64 AES instruction tier.
 */
static int fc_offer_drbg(const fc_offer_in *in, const char **why)
{
    const int yes = in->aes_tier >= FC_TIER_128;

    *why = yes ? "AES-NI_per-call_work_below_default" : "no_AES-NI";
    return yes;
}

/*
 * AES-CBC-HMAC-SHA1/SHA256: only with the stitched AES-NI + SHA-NI kernels
 * (default stitches too, with its own SHA-NI code where present, else
 * AVX2), and only the AVX-512 one. Against default's, encrypting (Xeon,
 * 3.0.19, openssl speed, 1 KiB and 16 KiB): AES-128-SHA1 1.23x,
 * AES-256-SHA1 1.08-1.10x, AES-128-SHA256 1.00-1.03x, AES-256-SHA256
 * 1.07-1.09x; a TLS 1.2 record loop (seal and open) 1.04-1.24x. Opening
 * one 1350-byte record (fastcrypto-calibrate's workload) is where it is
 * closest: the AVX-512 kernel 1.02-1.04x (median of the paired ratios,
 * worst of its four workloads, 3.0.19 and 3.6.3), the xmm one (aesni-shani,
 * AVX-512 hidden from both sides or AVX hidden: stand-ins for SHA-NI cores
 * without AVX-512, Zen 2/3 and Alder Lake, which this Intel masked is not)
 * 0.984-0.989x on both versions: not offered by the table there. Without
 * SHA-NI (hidden from both sides) our SHA in C lost (0.74x, 0.42x).
 */
static int fc_offer_cbc_hmac(const fc_offer_in *in, const char **why)
{
    if (in->cbc_hmac_tier >= FC_TIER_512) {
        *why = "AES-NI+SHA-NI_stitched_AVX-512";
        return 1;
    }
    *why = in->cbc_hmac_tier >= FC_TIER_128
               ? "xmm_stitch_measured_0.99x_opening_records;_needs_AVX-512"
               : "no_SHA-NI;_default_AVX2_is_faster";
    return 0;
}

/*
 * RSA, per CRT-half size, by the engine a key of that size gets
 * (fc/rsa_engine.h). The IFMA engine against default's IFMA code
 * (RSA-2048, any 3.x) 1.55-1.62x; against default's MULX code (RSA-3072
 * and 4096 on 3.0) 2.44x and 2.77x; against default's IFMA code for those
 * (3.6.3) 1.27x and 1.28x (Xeon; sign/s, scripts/bench.sh). The AVX2
 * engine where the CPU's row put it ahead of MULX (the row holds the
 * evidence) and default runs MULX. The MULX engine where the row measured
 * it ahead of OpenSSL's MULX code (rsa_mulx_wins: 1.15-1.17x on the Xeon
 * with IFMA hidden from both sides; it ties on AMD Zen 3, 1.03x, 1.04x,
 * 0.92x for 2048, 3072, 4096). The portable C and the arm64 kernels: not
 * measured ahead of default's assembly.
 */
static int fc_offer_rsa(const fc_offer_in *in, size_t i, const char **why)
{
    static const size_t halves[3] = {16, 24, 32};
    const int mulx_wins = in->tuning != NULL && in->tuning->rsa_mulx_wins;
    const uint32_t t = in->rsa_tier[i];
    const int dflt_ifma = fc_default_rsa_ifma(in, halves[i]);

    if (t == FC_TIER_512) { /* IFMA */
        *why = dflt_ifma ? "IFMA_engine_vs_default_IFMA"
                         : "IFMA_engine_vs_default_MULX";
        return 1;
    }
    if (t != FC_TIER_256 && t != FC_TIER_SCALAR) {
        *why = "portable_C_engine_only";
        return 0;
    }
    if (dflt_ifma) {
        *why = "default_runs_IFMA_for_this_size";
        return 0;
    }
    if (t == FC_TIER_256) {
        const int yes = fc_bn_mulx_capable(in->caps);

        *why = yes ? "AVX2_engine_vs_default_MULX"
                   : "no_MULX;_AVX2_engine_not_measured_there";
        return yes;
    }
    *why = mulx_wins ? "MULX_engine_measured_ahead_on_this_core"
                     : "MULX_engine_ties_default_on_this_core";
    return mulx_wins;
}

static int fc_offer_rsa2048(const fc_offer_in *in, const char **why)
{
    return fc_offer_rsa(in, 0, why);
}

static int fc_offer_rsa3072(const fc_offer_in *in, const char **why)
{
    return fc_offer_rsa(in, 1, why);
}

static int fc_offer_rsa4096(const fc_offer_in *in, const char **why)
{
    return fc_offer_rsa(in, 2, why);
}

/*
 * arm64. What default runs there (OpenSSL's own dispatch, crypto/armcap.c
 * and the perlasm): AES-GCM 3.0: aes-gcm-armv8_64, 4 blocks per pass
 * (AESE/AESMC + PMULL); from 3.1 the unroll8 EOR3 kernel (8 blocks) on
 * Neoverse V1, N2, V2, Ampere and Apple M1-M4 with FEAT_SHA3. AES-CBC
 * decryption and CTR: aesv8-armx, 5 blocks in flight (3.0); from 3.3 a
 * 12-block EOR3 CTR on V1, V2 and Ampere. RSA: armv8-mont (MUL/UMULH,
 * sqr8x and mul4x), and a NEON path above 2048-bit moduli on N1 and
 * Cortex-A72. No arm64 machine has measured ours against that: the CPU
 * row's word comes from the cycle model of both sides' main loops
 * (scripts/arm64_model.sh; the rows in tuning.c carry the figures), for
 * the families whose kernels run here: GCM needs the CE+PMULL kernels,
 * CBC and CTR the CE AES kernel, RSA the MUL/UMULH engine; never the
 * CBC-HMAC ciphers (no arm64 stitched kernel) nor the DRBG (its gain is
 * per-call work nobody has measured on arm64).
 */
uint32_t fc_offer_decide_arm64(const fc_offer_in *in)
{
    const fc_tuning *t = in->tuning;
    uint32_t o;

    if (t == NULL)
        return 0;
    o = fc_ossl_at_least(in->ossl_version, 3, 1) ? t->arm_offer_31
                                                 : t->arm_offer_30;
    if (in->gcm_tier < FC_TIER_128)
        o &= ~FC_OFFER_GCM;
    if (in->aes_tier < FC_TIER_128)
        o &= ~(FC_OFFER_CBC | FC_OFFER_CTR);
    for (size_t i = 0; i < 3; i++)
        if (in->rsa_tier[i] != FC_TIER_SCALAR)
            o &= ~(FC_OFFER_RSA2048 << i);
    return o & (FC_OFFER_GCM | FC_OFFER_CBC | FC_OFFER_CTR | FC_OFFER_RSA2048 |
                FC_OFFER_RSA3072 | FC_OFFER_RSA4096);
}

/*
 * The families, in the order fc_offer_describe lists them. A new family
 * is one entry here (its bit in fc/offer.h), its algorithms in fc_prov.c's
 * tables under that bit, and its files.
 */
static const fc_family fc_family_table[] = {
    {FC_OFFER_GCM, "gcm", fc_offer_gcm,
     "AES-256-GCM seal and open of 16 B, 1350 B and 16 KiB",
     "fastcrypto-gcm-impl", 0},
    {FC_OFFER_CBC, "cbc", fc_offer_cbc,
     "AES-256-CBC decrypt 16 B and 16 KiB; encrypt 47..2048 B, a fresh key "
     "each",
     "fastcrypto-cbc-impl", 0},
    {FC_OFFER_CTR, "ctr", fc_offer_ctr, "AES-256-CTR 16 B and 16 KiB",
     "fastcrypto-aes-impl", 0},
    {FC_OFFER_DRBG, "drbg", fc_offer_drbg, "CTR-DRBG generate 16 B and 4 KiB",
     "fastcrypto-aes-impl", 0},
    {FC_OFFER_CBC_HMAC, "cbc-hmac", fc_offer_cbc_hmac,
     "AES-128-CBC-HMAC-SHA1/SHA256 TLS records of 1350 B, seal and open",
     "fastcrypto-cbc-hmac-impl", 0},
    {FC_OFFER_RSA2048, "rsa2048", fc_offer_rsa2048,
     "RSA-2048 sign, PKCS#1 v1.5 SHA-256", "fastcrypto-bn-impl", 2048},
    {FC_OFFER_RSA3072, "rsa3072", fc_offer_rsa3072,
     "RSA-3072 sign, PKCS#1 v1.5 SHA-256", "fastcrypto-bn-impl", 3072},
    {FC_OFFER_RSA4096, "rsa4096", fc_offer_rsa4096,
     "RSA-4096 sign, PKCS#1 v1.5 SHA-256", "fastcrypto-bn-impl", 4096},
    /* Keys of other sizes: no rule (never offered by the table), nothing
     * calibrated. */
    {FC_OFFER_RSAOTHER, "rsa-other", NULL, NULL, NULL, 0},
};

/* see fc/family.h */
const fc_family *fc_families(size_t *count)
{
    *count = FC_ARRAY_LEN(fc_family_table);
    return fc_family_table;
}

/* see fc/family.h */
const fc_family *fc_family_named(const char *name, size_t len)
{
    for (size_t i = 0; i < FC_ARRAY_LEN(fc_family_table); i++)
        if (strlen(fc_family_table[i].name) == len &&
            memcmp(fc_family_table[i].name, name, len) == 0)
            return &fc_family_table[i];
    return NULL;
}
