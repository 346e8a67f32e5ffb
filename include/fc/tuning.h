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
};

/* What identifies a core: x86 display family and model (base + extended
 * fields, as the vendor manuals compute them). Zero when unknown. */
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
    /* AES-GCM / AES-CBC decryption: the 512-bit (zmm) tier is preferred to
     * the 256-bit one when both can run (no frequency penalty that eats
     * the gain, and measured faster). */
    uint8_t aes_zmm;
} fc_tuning;

/*
 * fc_cpu_identify returns the running CPU's vendor, family and model
 * (CPUID leaves 0 and 1 on x86-64; zeros elsewhere), from the one CPU probe
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
    uint32_t stepping;
} fc_cpu_id_more;

fc_cpu_id_more fc_cpu_identify_more(void);

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
