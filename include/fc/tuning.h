/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/tuning.h - the one table of microarchitecture-dependent choices.
 *
 * Feature bits (fc/cpu.h) say what a CPU can run; they do not say which of
 * two correct kernels is faster on it. Where that answer differs between
 * cores (a vector RSA engine against the MULX one, a 512-bit GCM tier
 * against the 256-bit one), the choice is made here, once, from the CPU's
 * vendor, family and model, and every row says where its values come from
 * (a measurement, or the published per-core tables). A CPU no row knows
 * gets the conservative default row: the choices that are never slower
 * than OpenSSL's own code.
 *
 * The class can be forced (FASTCRYPTO_CPU_CLASS, or the config key
 * "cpu_class") so that one machine can run every row's choices, as the
 * feature mask lets it run every kernel.
 */
#ifndef FC_TUNING_H
#define FC_TUNING_H

#include <stdint.h>

/* The name of the environment variable that forces a CPU class. */
#define FC_CPU_CLASS_ENV "FASTCRYPTO_CPU_CLASS"

enum {
    FC_VENDOR_UNKNOWN = 0,
    FC_VENDOR_INTEL,
    FC_VENDOR_AMD,
    FC_VENDOR_ARM64, /* any arm64 core: family and model from MIDR_EL1 */
};

/* MIDR_EL1 implementers (bits 31:24) of the arm64 rows. */
#define FC_MIDR_ARM    0x41
#define FC_MIDR_APPLE  0x61
#define FC_MIDR_AMPERE 0xc0

/* What identifies a core: x86 display family and model (base + extended
 * fields, as the vendor manuals compute them); on arm64 (FC_VENDOR_ARM64)
 * the family is MIDR_EL1's implementer and the model its part number
 * (bits 15:4). Zero when unknown. */
typedef struct fc_cpu_id {
    uint32_t vendor; /* FC_VENDOR_* */
    uint32_t family;
    uint32_t model;
} fc_cpu_id;

/* One CPU class and its choices. */
typedef struct fc_tuning {
    const char *name; /* "zen3", "golden-cove", ..., "default" */
    uint32_t vendor;  /* FC_VENDOR_* the row matches, 0 for the default */
    uint32_t family;
    uint32_t model_lo, model_hi; /* inclusive model range */
    /* RSA: the engines (fc/rsa_engine.h) this core orders differently from
     * the table's order, best first, comma-separated ("ifma,avx2,mulx":
     * the AVX2 engine ahead of MULX, a measured or table-derived win on
     * this core); NULL keeps the table's order (IFMA, MULX, AVX2, ...). */
    const char *rsa_order;
    /* RSA: our MULX engine measured faster than OpenSSL's own MULX code on
     * this core (what default runs without IFMA), so keys it serves are
     * offered (fc/offer.h); 0 where it ties or nobody measured. */
    uint8_t rsa_mulx_wins;
    /* AES-GCM: the 512-bit (zmm) tier is preferred to the 256-bit one when
     * both can run (no frequency penalty that eats the gain, and measured
     * faster). Only fc_gcm_select reads it: the AES kernels of CBC and CTR
     * (fc_aes_select) have no zmm tier and are chosen by the features
     * alone. */
    uint8_t aes_zmm;
    /* arm64: the families (FC_OFFER_* bits) whose arm64 kernels the cycle
     * model (scripts/arm64_model.sh, llvm-mca of both sides' main loops)
     * puts ahead of default's own arm64 assembly on this core: against
     * OpenSSL 3.0's code (arm_offer_30), and against 3.5's (arm_offer_31,
     * used from 3.1 on: the unroll8 EOR3 GCM arrives in 3.1 and the
     * 12-block CTR in 3.3, so 3.5's code is the stronger competitor for
     * all of them). Zero on x86 rows and on cores nobody modelled. */
    uint32_t arm_offer_30, arm_offer_31;
    /* The row's decisions come from a model, not from a run on the core
     * (the calibration of fc/wisdom.h decides on the machine itself). */
    uint8_t modelled;
} fc_tuning;

/*
 * fc_cpu_identify returns the running CPU's vendor, family and model
 * (CPUID leaves 0 and 1 on x86-64; MIDR_EL1 on arm64 Linux, see
 * fc_cpu_id_from_midr; zeros elsewhere), from the one CPU probe
 * (provider/core/cpu.c, with fc_cpu_detect). Probed once; cheap.
 */
fc_cpu_id fc_cpu_identify(void);

/*
 * fc_cpu_identify_more returns what else tells two CPUs of one model
 * apart, for the wisdom key (fc/wisdom.h): the vendor's CPUID string
 * ("GenuineIntel", "AuthenticAMD", ...; "" when unknown) and the stepping
 * (0 when unknown). Probed with fc_cpu_identify, once.
 */
typedef struct fc_cpu_id_more {
    char vendor_name[13];
    uint32_t stepping; /* arm64: variant << 4 | revision */
    uint32_t midr;     /* arm64: MIDR_EL1 (its upper half is RES0), else 0 */
} fc_cpu_id_more;

fc_cpu_id_more fc_cpu_identify_more(void);

/*
 * fc_cpu_id_from_midr fills |id| and |more| (may be NULL) from an arm64
 * MIDR_EL1 value: vendor FC_VENDOR_ARM64, family the implementer, model
 * the part number, vendor_name "ARM", "Apple", "Ampere" or the
 * implementer in hex. A zero MIDR (not published) gives all zeros. The
 * probe (cpu.c) reads MIDR_EL1 with MRS where the kernel emulates it
 * (HWCAP_CPUID), else from /sys/devices/system/cpu/cpu0/regs/
 * identification/midr_el1; pure, for tests on any architecture.
 */
void fc_cpu_id_from_midr(uint64_t midr, fc_cpu_id *id, fc_cpu_id_more *more);

/*
 * fc_tuning_for returns the row for |id|: the first row whose vendor,
 * family and model range match, else the default row. Never NULL.
 */
const fc_tuning *fc_tuning_for(const fc_cpu_id *id);

/*
 * fc_tuning_by_name returns the row called |name| ("default" included), or
 * NULL if there is none. Used to force a class.
 */
const fc_tuning *fc_tuning_by_name(const char *name);

/*
 * fc_tuning_rows lists every row, the default row last; |*count| receives
 * their number. For tests and reports.
 */
const fc_tuning *fc_tuning_rows(unsigned *count);

#endif /* FC_TUNING_H */
