/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/family.h - the algorithm families, each described once.
 *
 * A family is what is offered or not as one (fc/offer.h): gcm, cbc, ctr,
 * drbg, cbc-hmac, and RSA by size class (rsa2048, rsa3072, rsa4096,
 * rsa-other). Its descriptor (provider/core/families.c) holds its offer
 * bit, its name as buildinfo and the wisdom file spell it, the table's
 * offer rule on the tiers of the kernels it runs (fc/kernel.h), and the
 * work fastcrypto-calibrate measures for it. Its algorithms are the
 * entries of provider/fc_prov.c's algorithm tables tagged with its bit
 * (the glue layer's half of the descriptor: the core has no OpenSSL
 * types). fc_offer_decide, fc_offer_describe and fc_offer_family_bit
 * loop over the descriptors.
 */
#ifndef FC_FAMILY_H
#define FC_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#include "fc/offer.h"

typedef struct fc_family {
    uint32_t bit;     /* FC_OFFER_* */
    const char *name; /* "gcm", "cbc-hmac", "rsa3072", ... */
    /* The table's prior: 1 if the kernels |in| describes beat default's
     * on that CPU and OpenSSL (x86-64 only, fc_offer_decide), and in
     * |*why| the reason for the answer (fc_offer_explain: words joined by
     * '_', no spaces, commas, colons or parentheses). NULL: never offered
     * by the table. */
    int (*offer)(const fc_offer_in *in, const char **why);
    /* What fastcrypto-calibrate measures, ours against default's; NULL:
     * not calibrated. */
    const char *workload;
    /* The provider parameter that names the kernel (RSA: the engine
     * order) the family runs here, as calibration reports it. */
    const char *kernel_param;
    unsigned rsa_bits; /* rsa2048, rsa3072, rsa4096: the modulus; else 0 */
} fc_family;

/*
 * fc_families returns every family, in the order fc_offer_describe lists
 * them; |*count| receives their number.
 */
const fc_family *fc_families(size_t *count);

/*
 * fc_family_named returns the family called |name| (|len| bytes, not
 * necessarily NUL-terminated), or NULL.
 */
const fc_family *fc_family_named(const char *name, size_t len);

/*
 * fc_offer_decide_arm64 is fc_offer_decide on arm64: the CPU row's
 * modelled word (fc_tuning.arm_offer_30 / arm_offer_31 by the OpenSSL
 * version), kept to the families whose arm64 kernels |in| selected.
 * Pure; callable on any architecture (tests).
 */
uint32_t fc_offer_decide_arm64(const fc_offer_in *in);

#endif /* FC_FAMILY_H */
