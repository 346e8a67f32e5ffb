/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tuning.c - the per-CPU table of microarchitecture-dependent choices (see
 * fc/tuning.h). The vendor/family/model a row matches comes from the one
 * CPU probe (cpu.c).
 *
 * Rows are CPU classes by vendor, display family and model range (a class
 * with scattered model numbers has several rows of the same name). Values
 * start at the conservative default (0 or NULL: the choice OpenSSL's own
 * code makes) and are changed only with the evidence written next to them:
 * a measurement on that core, or the published per-core instruction
 * tables.
 */
#include <string.h>

#include "fc/common.h"
#include "fc/offer.h"
#include "fc/tuning.h"

/* Intel family 6 and AMD families 0x17 (Zen 1/2), 0x19 (Zen 3/4) and
 * 0x1a (Zen 5). Model numbers from the vendors' documentation. */
/* The AVX2 engine ahead of MULX (IFMA, where the core has it, first). */
#define FC_RSA_AVX2_FIRST "ifma,avx2,mulx"

#define ROW(n, v, f, lo, hi)                                                   \
    .name = (n), .vendor = (v), .family = (f), .model_lo = (lo),               \
    .model_hi = (hi)

/*
 * rsa_order: the RSA engines' order where it differs from the table's
 * (rsa_engine.c: IFMA, MULX, AVX2, ...). The one choice a row makes is the
 * AVX2 engine (asm/x86_64/bn_exp_avx2.S) against the MULX/ADX kernels,
 * when both can run (FC_RSA_AVX2_FIRST; IFMA, where present and not
 * masked, stays first; without ADX the AVX2 engine comes first whatever the
 * row says, the alternative being the portable C). The AVX2 engine's cost is
 * its VPMULUDQ count and its vector ALU uops (one VPADDQ per VPMULUDQ, see the
 * kernel header): for a pair of 1024-bit products 1426 VPMULUDQ and ~3060
 * vector ALU uops (squarings 1102 and ~2450); the MULX kernels' is one MULX and
 * two flag adds per 64x64 product (512 MULX per 1024-bit product). Figures per
 * core from uops.info (VPMULUDQ ymm, VPADDQ ymm, MULX r64, ADCX/ADOX r64:
 * latency and reciprocal throughput); the bounds below are in cycles per pair
 * of 1024-bit Montgomery products. Measured: bench/fc_bn_bench.
 */
static const fc_tuning fc_tuning_table[] = {
    /* Intel, AVX2 without AVX-512: Haswell, Broadwell, Skylake client and
     * its derivatives. */
    /* Haswell: no ADX, so the MULX kernels never run and the AVX2 engine
     * is chosen anyway (against the portable C); 1 records that it is
     * the right choice: VPMULUDQ ymm 1/cycle (p0), VPADDQ 2/cycle (p15),
     * bound 1426 cycles a pair against the C kernels' ~2 x 900. */
    {ROW("haswell", FC_VENDOR_INTEL, 6, 0x3c, 0x3c),
     .rsa_order = FC_RSA_AVX2_FIRST},
    {ROW("haswell", FC_VENDOR_INTEL, 6, 0x3f, 0x3f),
     .rsa_order = FC_RSA_AVX2_FIRST},
    {ROW("haswell", FC_VENDOR_INTEL, 6, 0x45, 0x46),
     .rsa_order = FC_RSA_AVX2_FIRST},
    /* Broadwell: ADX; VPMULUDQ ymm still 1/cycle (p0): the AVX2 bound
     * (1426) is above MULX's 2 x 512 multiplier bound and about its
     * measured 2 x ~700 class: MULX. */
    {ROW("broadwell", FC_VENDOR_INTEL, 6, 0x3d, 0x3d)},
    {ROW("broadwell", FC_VENDOR_INTEL, 6, 0x47, 0x47)},
    {ROW("broadwell", FC_VENDOR_INTEL, 6, 0x4f, 0x4f)},
    {ROW("broadwell", FC_VENDOR_INTEL, 6, 0x56, 0x56)},
    /* Skylake and derivatives, Skylake-SP/Cascade Lake: the vector ports
     * of the golden-cove row (VPMULUDQ ymm 2/cycle on p0/p1, VPADDQ
     * 3/cycle on p0/p1/p5, shared with the scalar ALUs), MULX 1/cycle,
     * ADCX/ADOX 2/cycle (p0/p6): the golden-cove measurement applies. */
    {ROW("skylake", FC_VENDOR_INTEL, 6, 0x4e, 0x4e)},
    {ROW("skylake", FC_VENDOR_INTEL, 6, 0x5e, 0x5e)},
    {ROW("skylake", FC_VENDOR_INTEL, 6, 0x8e, 0x8e)},
    {ROW("skylake", FC_VENDOR_INTEL, 6, 0x9e, 0x9e)},
    {ROW("skylake", FC_VENDOR_INTEL, 6, 0xa5, 0xa6)},
    /* Skylake-SP, Cascade Lake, Cooper Lake: AVX-512F, no VAES/IFMA. */
    {ROW("skylake-sp", FC_VENDOR_INTEL, 6, 0x55, 0x55)},
    /* Ice Lake, Tiger Lake, Rocket Lake: AVX-512 with VAES and IFMA (the
     * IFMA engine runs; with it masked, the golden-cove reasoning). The
     * AES-GCM kernels' ports (aes_zmm) are Golden Cove's, measured on
     * the reference machine (asm/x86_64/aes_gcm_avx512.S): VAESENC zmm
     * 1/cycle on one port where ymm takes 2/cycle on two (so AES alone is
     * 4 blocks a cycle either way), VPCLMULQDQ 1/cycle at either width,
     * the vector ALU 2 ports at 512 bits against 3 at 256. The ymm tier
     * is bound by its vector uops on three ports, the zmm tier by its AES
     * port: 1.4x (AES-128) and 1.3x (AES-256) at 16 KiB there; uops
     * .info lists the same ports for Sunny Cove, so the gain carries
     * over. What differs is the AVX-512 frequency licence of these cores:
     * Ice Lake-SP: aes_zmm, the licence costing less than the gain on a
     * server whose cipher work is the load (and OpenSSL 3.5+ runs its own
     * zmm GCM there anyway). Ice Lake and Tiger Lake clients: 0, their
     * single-core turbo loses most to the licence (the Linux kernel keeps
     * ymm there for that reason), and nothing measured. Rocket Lake: the
     * licence is gone (the kernel allows zmm from it on), and this is the
     * model the reference machine's hypervisor reports: measured.
     * RSA, measured on that model (family 6 model 167, the development
     * KVM guest; its host is a Sapphire Rapids class Xeon),
     * bench/fc_bn_bench, minima of 41 interleaved pairs, ~3.6 GHz, IFMA
     * masked on both sides: per CRT half of RSA-2048 MULX 224 us (1.53x
     * its multiplier bound), AVX2 255 us (1.69x its three-port ALU bound),
     * OpenSSL 3.0's MULX code 255 us; RSA-3072 halves 719 / 753 / 802 us;
     * RSA-4096 1604 / 1760 / 1929 us. MULX kept (the AVX2 engine is 4-14%
     * behind), and it beats OpenSSL's MULX code: rsa_mulx_wins (RSA sign
     * 1.15x, 1.16x, 1.17x at 2048, 3072, 4096 bits, scripts/bench.sh
     * --hide ifma, OpenSSL 3.0.19). */
    {ROW("icelake-sp", FC_VENDOR_INTEL, 6, 0x6a, 0x6a), .aes_zmm = 1},
    {ROW("icelake-sp", FC_VENDOR_INTEL, 6, 0x6c, 0x6c), .aes_zmm = 1},
    {ROW("icelake", FC_VENDOR_INTEL, 6, 0x7d, 0x7e)},
    {ROW("icelake", FC_VENDOR_INTEL, 6, 0x8c, 0x8d)},
    {ROW("rocketlake", FC_VENDOR_INTEL, 6, 0xa7, 0xa7), .aes_zmm = 1,
     .rsa_mulx_wins = 1},
    /* Alder Lake and later hybrid clients: AVX2 + VAES, no AVX-512. The
     * P-cores are Golden Cove (measured: MULX); the E-cores' 256-bit
     * integer multiplies are not known to us: MULX. */
    {ROW("alderlake", FC_VENDOR_INTEL, 6, 0x97, 0x97)},
    {ROW("alderlake", FC_VENDOR_INTEL, 6, 0x9a, 0x9a)},
    {ROW("alderlake", FC_VENDOR_INTEL, 6, 0xaa, 0xaa)},
    {ROW("alderlake", FC_VENDOR_INTEL, 6, 0xac, 0xac)},
    {ROW("alderlake", FC_VENDOR_INTEL, 6, 0xb7, 0xb7)},
    {ROW("alderlake", FC_VENDOR_INTEL, 6, 0xba, 0xba)},
    {ROW("alderlake", FC_VENDOR_INTEL, 6, 0xbd, 0xbd)},
    {ROW("alderlake", FC_VENDOR_INTEL, 6, 0xbf, 0xbf)},
    {ROW("alderlake", FC_VENDOR_INTEL, 6, 0xc5, 0xc6)},
    /* Golden Cove / Raptor Cove / Redwood Cove servers: Sapphire Rapids,
     * Emerald Rapids, Granite Rapids. Measured on family 6 model 207
     * (bench/fc_bn_bench, IFMA masked): the AVX2 pair and two MULX
     * exponentiations within a few percent of each other at 1024 bits
     * (the AVX2 bound, 3063 uops on three vector ports, is only ~25%
     * below MULX's measured cost); MULX kept. aes_zmm: measured (the
     * GCM kernel header): the zmm tier 1.4x the ymm one for AES-128 and
     * 1.3x for AES-256 at 16 KiB (kernel and EVP alike), and no AVX-512
     * licence drop that shows in those figures. rsa_mulx_wins: the same
     * core as the rocketlake row's measurement (the development guest's
     * host is a Sapphire Rapids class Xeon). */
    {ROW("golden-cove", FC_VENDOR_INTEL, 6, 0x8f, 0x8f), .aes_zmm = 1,
     .rsa_mulx_wins = 1},
    {ROW("golden-cove", FC_VENDOR_INTEL, 6, 0xcf, 0xcf), .aes_zmm = 1,
     .rsa_mulx_wins = 1},
    {ROW("golden-cove", FC_VENDOR_INTEL, 6, 0xad, 0xae), .aes_zmm = 1,
     .rsa_mulx_wins = 1},
    /* Sierra Forest and other E-core servers: AVX2 (+ AVX-IFMA), no
     * AVX-512; no figures: MULX. */
    {ROW("crestmont", FC_VENDOR_INTEL, 6, 0xaf, 0xaf)},
    {ROW("crestmont", FC_VENDOR_INTEL, 6, 0xb6, 0xb6)},
    /* AMD. The FP/vector unit has its own schedulers and pipes, so the
     * AVX2 engine's scalar carry chains (the triangles) do not take
     * vector slots, and on Zen 2/3 a MULX design is bound by its flag
     * chains at about two cycles per MULX (OpenSSL 3.0's MULX code:
     * ~1,000 cycles per 1024-bit product on Zen 3, ~2,000 a pair).
     * Zen 1: 256-bit operations split into two 128-bit ones (VPMULUDQ
     * ymm 2 uops): MULX, unmeasured. */
    {ROW("zen1", FC_VENDOR_AMD, 0x17, 0x00, 0x2f)},
    /* Zen 2: VPMULUDQ ymm 1/cycle (FP0, latency 3), VPADDQ ymm 3/cycle:
     * bound 1426 against ~2,000: AVX2 (~1.3x expected). */
    {ROW("zen2", FC_VENDOR_AMD, 0x17, 0x30, 0xff),
     .rsa_order = FC_RSA_AVX2_FIRST},
    /* Zen 3: VPMULUDQ ymm 2/cycle (latency 3), VPADDQ ymm 4/cycle (FP0-3):
     * bound max(1426/2, 3063/4) = ~770 against ~2,000: AVX2 (~2x
     * expected; OpenSSL's own single-half AVX2 code already beats its
     * MULX code there by 14-27%). Evidence from the Intel development
     * core (family 6 model 167, IFMA hidden from both; RSA-2048 sign):
     * this engine 1,760/s, OpenSSL's AVX2 rsaz code (ADX hidden too)
     * 1,620-1,720/s, OpenSSL's MULX 1,800/s: ours is ~1.04x OpenSSL's
     * AVX2 code, so on Zen 3 ~1.2-1.3x its MULX code is expected; to be
     * confirmed there. */
    {ROW("zen3", FC_VENDOR_AMD, 0x19, 0x00, 0x0f),
     .rsa_order = FC_RSA_AVX2_FIRST},
    /* Zen 4 has IFMA (chosen first); with it masked its 256-bit integer
     * pipes are Zen 3's: AVX2. aes_zmm: Zen 4 runs a 512-bit op as one
     * macro-op over its two 256-bit halves (uops.info: VAESENC zmm
     * 1/cycle against ymm 2/cycle, VPCLMULQDQ and VPXORD zmm half their
     * ymm rate), so per block the execution pipes do the same work at
     * either width and there is no clock penalty; the zmm tier needs ~11%
     * fewer of those 256-bit slots per block (167 zmm uops per 32 blocks,
     * i.e. 334 halves, against the ymm tier's 374: schoolbook summed with
     * VPTERNLOGD, one reduction per 32 blocks) and half the macro-ops
     * through dispatch and retire. Expected faster, unmeasured. */
    {ROW("zen4", FC_VENDOR_AMD, 0x19, 0x10, 0x1f),
     .rsa_order = FC_RSA_AVX2_FIRST, .aes_zmm = 1},
    {ROW("zen3", FC_VENDOR_AMD, 0x19, 0x20, 0x5f),
     .rsa_order = FC_RSA_AVX2_FIRST},
    {ROW("zen4", FC_VENDOR_AMD, 0x19, 0x60, 0xaf),
     .rsa_order = FC_RSA_AVX2_FIRST, .aes_zmm = 1},
    /* Zen 5: IFMA (chosen first); the vector side is at least Zen 4's,
     * the MULX side unmeasured: AVX2 by the Zen 3/4 reasoning. aes_zmm:
     * the desktop and server cores have full-width 512-bit pipes (VAESENC
     * zmm at twice Zen 4's rate), the mobile ones Zen 4's split halves:
     * the Zen 4 reasoning at worst. */
    {ROW("zen5", FC_VENDOR_AMD, 0x1a, 0x00, 0xff),
     .rsa_order = FC_RSA_AVX2_FIRST, .aes_zmm = 1},
    /* arm64, keyed by MIDR_EL1: family = implementer, model = part number
     * (fc_cpu_id_from_midr). No arm64 machine has run fastcrypto: the
     * words are MODELLED (.modelled), llvm-mca 19.1.7's scheduling model of
     * the core on the main loops of our kernels and of OpenSSL's own
     * (3.0.22 and 3.5.7 perlasm), scripts/arm64_model.sh, as each library
     * dispatches on that core. A family is in a word when every kernel of
     * it that the model times is at least 1.05x default's (the model does
     * not time AESE+AESMC fusion, caches or the glue around the loops; both
     * sides are modelled alike, and 5% is the margin for what it leaves
     * out). RSA: a CRT-half size is a kernel pair (Montgomery
     * multiplication and squaring at n = 16, 24, 32 limbs against
     * armv8-mont's), and RSA would be offered where both kernels of every
     * size are at least 1.05x and the model sees all that bounds them (see
     * "RSA nowhere yet" below). Ratios ours/default, 3.0 then 3.5, c/B or
     * cycles per call (figures in asm/aarch64's headers; Mont: the lowest of
     * the six kernels, the same against 3.0 and 3.5 to 0.01x): core     GCM
     * (128/256, enc/dec)  CTR-128   CBC-dec 128/256  Mont N1       1.01-1.02 /
     * same        1.01      1.01 / 1.01      1.00 V1       1.15-1.21
     * / 1.06-1.08   1.07/1.03 1.07 / 1.05 (both) 1.07 V2       1.15-1.24
     * / 1.07-1.08   1.03/1.01 1.06 / 1.04 (both) 1.03 N2       1.13-1.17
     * / 1.07-1.08   1.04      1.05 / 1.04      1.10 Ampere1  1.13-1.21
     * / 1.06-1.09   1.05/1.02 1.06 / 1.04      0.99 (Ampere1 CTR: 0.720 / 0.688
     * = 1.047, below the margin) So: GCM on V1, V2, N2 and Ampere1,
     * against 3.0's 4-block kernel and 3.5's unroll8 EOR3 one; CBC on V1 (its
     * decryption; encryption is one dependent AESE+AESMC chain per block on
     * both sides); CTR on V1 against 3.0's 5-block loop (not against 3.5's
     * 12-block EOR3 one); RSA nowhere yet: on V1 and N2 (integer-issue bound,
     * where ours issue fewer micro-ops) the kernels pass 1.05x, but by the
     * thinnest margin of any family (1.07x, 1.10x) and the model ignores the
     * reduction rows' store-to-load dependency, which a real core pays: left to
     * the calibration (docs/arm64-model.md); V2 and Ampere1 are near the
     * multiplier floor on both sides; nothing on N1,
     * where every loop is bound by V0, the one AES/PMULL pipe, within 1-3%
     * of the floor on both sides, and the Montgomery kernels by its one
     * multiplier. Neoverse
     * V3/N3, AmpereOne A beyond Ampere1's model and Apple: no decision
     * (LLVM 19's models for them are their predecessors' or generic). */
    {ROW("neoverse-n1", FC_VENDOR_ARM64, FC_MIDR_ARM, 0xd0c, 0xd0c),
     .modelled = 1},
    {ROW("neoverse-v1", FC_VENDOR_ARM64, FC_MIDR_ARM, 0xd40, 0xd40),
     .arm_offer_30 = FC_OFFER_GCM | FC_OFFER_CBC | FC_OFFER_CTR,
     .arm_offer_31 = FC_OFFER_GCM | FC_OFFER_CBC, .modelled = 1},
    {ROW("neoverse-n2", FC_VENDOR_ARM64, FC_MIDR_ARM, 0xd49, 0xd49),
     .arm_offer_30 = FC_OFFER_GCM, .arm_offer_31 = FC_OFFER_GCM, .modelled = 1},
    {ROW("neoverse-v2", FC_VENDOR_ARM64, FC_MIDR_ARM, 0xd4f, 0xd4f),
     .arm_offer_30 = FC_OFFER_GCM, .arm_offer_31 = FC_OFFER_GCM, .modelled = 1},
    {ROW("neoverse-v3", FC_VENDOR_ARM64, FC_MIDR_ARM, 0xd84, 0xd84)},
    {ROW("neoverse-n3", FC_VENDOR_ARM64, FC_MIDR_ARM, 0xd8e, 0xd8e)},
    {ROW("ampere1", FC_VENDOR_ARM64, FC_MIDR_AMPERE, 0xac3, 0xac4),
     .arm_offer_30 = FC_OFFER_GCM, .arm_offer_31 = FC_OFFER_GCM, .modelled = 1},
    {ROW("apple", FC_VENDOR_ARM64, FC_MIDR_APPLE, 0x000, 0xfff)},
    /* Anything else: OpenSSL's own choices (MULX). Must stay last. */
    {.name = "default"},
};

#undef ROW
#undef FC_RSA_AVX2_FIRST

/* see fc/tuning.h */
const fc_tuning *fc_tuning_rows(unsigned *count)
{
    *count = (unsigned)FC_ARRAY_LEN(fc_tuning_table);
    return fc_tuning_table;
}

/* see fc/tuning.h */
const fc_tuning *fc_tuning_for(const fc_cpu_id *id)
{
    const size_t last = FC_ARRAY_LEN(fc_tuning_table) - 1;

    for (size_t i = 0; i < last; i++) {
        const fc_tuning *t = &fc_tuning_table[i];
        if (t->vendor == id->vendor && t->family == id->family &&
            id->model >= t->model_lo && id->model <= t->model_hi)
            return t;
    }
    return &fc_tuning_table[last];
}

/* see fc/tuning.h */
const fc_tuning *fc_tuning_by_name(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < FC_ARRAY_LEN(fc_tuning_table); i++)
        if (strcmp(fc_tuning_table[i].name, name) == 0)
            return &fc_tuning_table[i];
    return NULL;
}
