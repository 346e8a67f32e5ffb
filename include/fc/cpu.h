/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/cpu.h - CPU feature probe, feature masking, capability predicates.
 *
 * The CPU is probed once per process (fc_cpu_detect). Each provider instance
 * then applies its mask (environment FASTCRYPTO_CPU_MASK and the config key
 * "cpu_mask") and every kernel family picks its implementation once from the
 * resulting bits. Hot paths never look at these bits.
 */
#ifndef FC_CPU_H
#define FC_CPU_H

#include <stdint.h>

/* x86-64 features. */
#define FC_CAP_AESNI   (1u << 0)  /* AES-NI */
#define FC_CAP_PCLMUL  (1u << 1)  /* PCLMULQDQ */
#define FC_CAP_SSSE3   (1u << 2)  /* SSSE3 (PSHUFB) */
#define FC_CAP_SSE41   (1u << 3)  /* SSE4.1 */
#define FC_CAP_AVX     (1u << 4)  /* AVX, OS saves ymm */
#define FC_CAP_AVX2    (1u << 5)  /* AVX2 */
#define FC_CAP_VAES    (1u << 6)  /* VAES (VEX.256 forms) */
#define FC_CAP_VPCLMUL (1u << 7)  /* VPCLMULQDQ (VEX.256 forms) */
#define FC_CAP_BMI2    (1u << 8)  /* MULX */
#define FC_CAP_ADX     (1u << 9)  /* ADCX/ADOX */
#define FC_CAP_AVX512  (1u << 10) /* F+DQ+BW+VL, OS saves zmm/k */
#define FC_CAP_MOVBE   (1u << 11) /* MOVBE */
#define FC_CAP_IFMA    (1u << 12) /* AVX512-IFMA (VPMADD52*), with AVX512 */
#define FC_CAP_SHA     (1u << 13) /* SHA-NI (SHA1RNDS4, SHA256RNDS2, ...) */
/* arm64 features. */
#define FC_CAP_ARM_AES   (1u << 16) /* AESE/AESD/AESMC/AESIMC */
#define FC_CAP_ARM_PMULL (1u << 17) /* PMULL/PMULL2 (64x64) */
#define FC_CAP_ARM_SHA3  (1u << 18) /* EOR3 */
#define FC_CAP_ARM_SHA1  (1u << 19) /* SHA1C/SHA1P/SHA1M/SHA1H/SHA1SU0/1 */
#define FC_CAP_ARM_SHA2  (1u << 20) /* SHA256H/SHA256H2/SHA256SU0/1 */

/* The name of the environment variable holding the feature mask. */
#define FC_CPU_MASK_ENV "FASTCRYPTO_CPU_MASK"

/*
 * fc_cpu_detect returns the features of the running CPU that the OS also
 * enables (XGETBV on x86-64, getauxval on arm64). The probe runs once per
 * process; later calls return the cached result. Thread-safe.
 */
uint32_t fc_cpu_detect(void);

/*
 * fc_cpu_parse_mask parses a feature mask: a list of feature names separated
 * by commas, spaces or '+', each naming a feature to switch off ("aesni",
 * "pclmul", "ssse3", "sse41", "avx", "avx2", "vaes", "vpclmul", "bmi2", "adx",
 * "avx512", "ifma", "movbe", "sha", "aes", "pmull", "sha3", "sha1",
 * "sha2"), or "all"; or a number
 * (0x...) giving FC_CAP_* bits to clear directly. An empty string or "none"
 * masks nothing. On success it stores the bits to clear in |*out| and returns
 * 1; on an unknown name it returns 0 and leaves |*out| unchanged.
 */
int fc_cpu_parse_mask(const char *spec, uint32_t *out);

/*
 * fc_cpu_apply_mask returns |caps| without the bits in |mask| and without
 * every feature that depends on a removed one (no AVX means no AVX2, VAES,
 * VPCLMULQDQ or AVX-512; no AES-NI means no VAES; no PCLMULQDQ means no
 * VPCLMULQDQ; no AVX2 means no VAES, VPCLMULQDQ or AVX-512, since our wide
 * kernels are ymm-based; no AVX-512 means no IFMA).
 */
uint32_t fc_cpu_apply_mask(uint32_t caps, uint32_t mask);

/*
 * fc_cpu_caps_describe writes the names of the features in |caps| into
 * |buf| (at most |len| bytes, NUL-terminated), separated by spaces.
 */
void fc_cpu_caps_describe(uint32_t caps, char *buf, unsigned long len);

/* Capability predicates, one per kernel tier. */
static inline int fc_aesni_capable(uint32_t caps)
{
    const uint32_t need = FC_CAP_AESNI | FC_CAP_SSSE3 | FC_CAP_SSE41;
    return (caps & need) == need;
}

static inline int fc_vaes_avx2_capable(uint32_t caps)
{
    const uint32_t need = FC_CAP_AESNI | FC_CAP_SSSE3 | FC_CAP_SSE41 |
                          FC_CAP_AVX | FC_CAP_AVX2 | FC_CAP_VAES;
    return (caps & need) == need;
}

static inline int fc_gcm_aesni_avx_capable(uint32_t caps)
{
    const uint32_t need =
        FC_CAP_AESNI | FC_CAP_PCLMUL | FC_CAP_SSSE3 | FC_CAP_SSE41 | FC_CAP_AVX;
    return (caps & need) == need;
}

static inline int fc_gcm_vaes_avx2_capable(uint32_t caps)
{
    return fc_gcm_aesni_avx_capable(caps) && fc_vaes_avx2_capable(caps) &&
           (caps & FC_CAP_VPCLMUL) != 0;
}

static inline int fc_sha_ni_capable(uint32_t caps)
{
    const uint32_t need = FC_CAP_SHA | FC_CAP_SSSE3 | FC_CAP_SSE41;
    return (caps & need) == need;
}

/* The zmm GCM tier: the ymm tier's features, AVX-512 (F+DQ+BW+VL with the
 * OS saving zmm and opmasks) and BMI2 (BZHI for the tail masks). Whether
 * it is preferred is the tuning row's call (fc_gcm_select). */
static inline int fc_gcm_vaes_avx512_capable(uint32_t caps)
{
    const uint32_t more = FC_CAP_AVX512 | FC_CAP_BMI2;
    return fc_gcm_vaes_avx2_capable(caps) && (caps & more) == more;
}

static inline int fc_bn_mulx_capable(uint32_t caps)
{
    return (caps & (FC_CAP_BMI2 | FC_CAP_ADX)) == (FC_CAP_BMI2 | FC_CAP_ADX);
}

#endif /* FC_CPU_H */
