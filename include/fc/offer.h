/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/offer.h - what fastcrypto offers by default: only the operations whose
 * kernel on this CPU beats what the running OpenSSL's default provider
 * runs on it ("never slower").
 *
 * Enabling fastcrypto must not make any operation slower. Which of two
 * implementations wins depends on three things: the kernel we chose (from
 * the CPU features after the mask, and the per-CPU row of fc/tuning.h),
 * the code the default provider runs on the same CPU, and the OpenSSL
 * version, because default gained wide kernels over the 3.x series
 * (AVX-512 VAES AES-GCM, AVX-512 IFMA RSA for 3072- and 4096-bit keys).
 * fc_offer_decide puts the three together once per provider instance; an
 * algorithm that is not offered is left out of the provider's algorithm
 * tables (RSA: keys of a size that is not offered are kept, at import, as
 * default's keys and their operations forwarded there, rsa_deleg.h).
 *
 * Predicting default's code: from our own feature bits after the mask.
 * FASTCRYPTO_CPU_MASK stands in for a CPU without those features; the
 * benchmarks hide the same features from OpenSSL (OPENSSL_ia32cap), so
 * the prediction follows the emulated CPU, not the real one.
 *
 * On x86-64 the rules of families.c decide, from measurements. On arm64
 * no run was ever measured: the word is the CPU row's (fc/tuning.h), from
 * a cycle model of both sides' main loops (fc_offer_decide_arm64). Where
 * nothing was measured or modelled (an arm64 core without a modelled row,
 * any other architecture), the answer is "not offered". FC_OFFER_ENV or
 * "offer = all" in the provider's section forces every algorithm on, as
 * the tests and the benchmarks do.
 *
 * All of this is the prior. Where `fastcrypto-calibrate` measured this
 * machine, its wisdom file (fc/wisdom.h) decides each family it has a
 * record for, and fc_offer_decide only the rest; forcing still wins.
 */
#ifndef FC_OFFER_H
#define FC_OFFER_H

#include <stddef.h>
#include <stdint.h>

#include "fc/tuning.h"

/* The environment variable that forces every algorithm on ("all"). */
#define FC_OFFER_ENV "FASTCRYPTO_OFFER"

/* Algorithm families, as bits of an offer word. */
#define FC_OFFER_GCM  (1u << 0) /* AES-128/192/256-GCM */
#define FC_OFFER_CBC  (1u << 1) /* AES-128/192/256-CBC */
#define FC_OFFER_DRBG (1u << 2) /* CTR-DRBG and SEED-SRC */
/* AES-128/256-CBC-HMAC-SHA1/SHA256 (TLS MAC-then-encrypt records) */
#define FC_OFFER_CBC_HMAC (1u << 3)
#define FC_OFFER_CTR      (1u << 4) /* AES-128/192/256-CTR */
/* RSA by the size of a CRT half (the limb count of p): 1024-bit halves
 * (RSA-2048), 1536 (RSA-3072), 2048 (RSA-4096), and every other size.
 * The keymgmt, signature and asymmetric cipher are registered when any
 * of the four is offered; keys of the sizes that are not are held as
 * default's keys at import and run there (rsa_deleg.h). */
#define FC_OFFER_RSA2048  (1u << 8)
#define FC_OFFER_RSA3072  (1u << 9)
#define FC_OFFER_RSA4096  (1u << 10)
#define FC_OFFER_RSAOTHER (1u << 11)
#define FC_OFFER_RSA                                                           \
    (FC_OFFER_RSA2048 | FC_OFFER_RSA3072 | FC_OFFER_RSA4096 | FC_OFFER_RSAOTHER)
#define FC_OFFER_ALL 0xffffffffu

/* What the decision looks at: the tiers (fc/kernel.h) of the kernels
 * chosen (fc_gcm_ops, fc_aes_ops, fc_cbc_sha_ops) and of the RSA engine per
 * CRT-half size, the CPU features after the mask, the CPU's row, and the
 * running libcrypto's OpenSSL_version_num(). */
typedef struct fc_offer_in {
    uint32_t caps;
    const fc_tuning *tuning;
    unsigned long ossl_version;
    uint32_t gcm_tier;
    uint32_t aes_tier;
    uint32_t cbc_hmac_tier; /* fc_cbc_sha_ops */
    uint32_t rsa_tier[3];   /* halves of 16, 24, 32 limbs */
} fc_offer_in;

/*
 * fc_offer_decide returns the FC_OFFER_* bits of the families whose kernel
 * beats default's on this CPU and OpenSSL version: each family's rule
 * (fc/family.h), with the reasoning in provider/core/families.c; on arm64
 * the CPU row's modelled word (fc_offer_decide_arm64); 0 on every other
 * architecture. Pure: the same inputs give the same word.
 */
uint32_t fc_offer_decide(const fc_offer_in *in);

/*
 * fc_offer_explain writes into |buf| (|len| bytes, NUL-terminated) why the
 * table offers each family or not on the CPU and OpenSSL |in| describes,
 * "family:reason" for every family, comma-separated, the reason in words
 * joined by '_' (no space, comma, colon or parenthesis), e.g.
 * "gcm:ours_vs_default_6-block_xmm_loop,cbc:VAES_16_blocks_vs_default_
 * AES-NI_8,...,rsa-other:no_table_rule": the rule of families.c that
 * decided. It is
 * the table's reason whatever decided in the end (wisdom, forced); the
 * provider's buildinfo carries it as "why=".
 */
void fc_offer_explain(const fc_offer_in *in, char *buf, size_t len);

/*
 * fc_offer_in_init fills |in| with what fc_offer_decide looks at for a CPU
 * with the features |caps| (after the mask) and the row |tuning|, under
 * the libcrypto of version |ossl_version|: the kernels each family selects
 * from them, as the provider selects them at init.
 */
void fc_offer_in_init(fc_offer_in *in, uint32_t caps, const fc_tuning *tuning,
                      unsigned long ossl_version);

/*
 * fc_offer_rsa_bit returns the FC_OFFER_RSA* bit that covers an RSA key
 * whose first prime has |half_limbs| 64-bit limbs.
 */
uint32_t fc_offer_rsa_bit(size_t half_limbs);

/*
 * fc_offer_describe writes the names of the families in |offer| ("gcm cbc
 * drbg rsa2048 ...", or "all") into |buf| (|len| bytes, NUL-terminated).
 */
void fc_offer_describe(uint32_t offer, char *buf, size_t len);

/*
 * fc_offer_family_bit returns the FC_OFFER_* bit of the family called
 * |name| (|len| bytes, not necessarily NUL-terminated) as
 * fc_offer_describe spells it ("gcm", "cbc-hmac", "rsa3072", ...), or 0.
 */
uint32_t fc_offer_family_bit(const char *name, size_t len);

#endif /* FC_OFFER_H */
