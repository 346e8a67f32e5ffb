/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tuning.c - the per-CPU table of microarchitecture-dependent choices (see
 * fc/tuning.h) and the vendor/family/model probe behind it.
 *
 * Rows are CPU classes by vendor, display family and model range (a class
 * with scattered model numbers has several rows of the same name). Values
 * start at the conservative default (0: the choice OpenSSL's own code
 * makes) and are set to 1 only with the evidence written next to them: a
 * measurement on that core, or the published per-core instruction tables.
 */
#include <pthread.h>
#include <string.h>

#include "fc/common.h"
#include "fc/tuning.h"

#if defined(__x86_64__) && !defined(FC_NO_ASM)
#include <cpuid.h>
#endif

/* Intel family 6 and AMD families 0x17 (Zen 1/2), 0x19 (Zen 3/4) and
 * 0x1a (Zen 5). Model numbers from the vendors' documentation. */
#define ROW(n, v, f, lo, hi)                                                   \
    .name = (n), .vendor = (v), .family = (f), .model_lo = (lo),               \
    .model_hi = (hi)

static const fc_tuning fc_tuning_table[] = {
    /* Intel, AVX2 without AVX-512: Haswell, Broadwell, Skylake client and
     * its derivatives. */
    {ROW("haswell", FC_VENDOR_INTEL, 6, 0x3c, 0x3c)},
    {ROW("haswell", FC_VENDOR_INTEL, 6, 0x3f, 0x3f)},
    {ROW("haswell", FC_VENDOR_INTEL, 6, 0x45, 0x46)},
    {ROW("broadwell", FC_VENDOR_INTEL, 6, 0x3d, 0x3d)},
    {ROW("broadwell", FC_VENDOR_INTEL, 6, 0x47, 0x47)},
    {ROW("broadwell", FC_VENDOR_INTEL, 6, 0x4f, 0x4f)},
    {ROW("broadwell", FC_VENDOR_INTEL, 6, 0x56, 0x56)},
    {ROW("skylake", FC_VENDOR_INTEL, 6, 0x4e, 0x4e)},
    {ROW("skylake", FC_VENDOR_INTEL, 6, 0x5e, 0x5e)},
    {ROW("skylake", FC_VENDOR_INTEL, 6, 0x8e, 0x8e)},
    {ROW("skylake", FC_VENDOR_INTEL, 6, 0x9e, 0x9e)},
    {ROW("skylake", FC_VENDOR_INTEL, 6, 0xa5, 0xa6)},
    /* Skylake-SP, Cascade Lake, Cooper Lake: AVX-512F, no VAES/IFMA. */
    {ROW("skylake-sp", FC_VENDOR_INTEL, 6, 0x55, 0x55)},
    /* Ice Lake, Tiger Lake, Rocket Lake: AVX-512 with VAES and IFMA. */
    {ROW("icelake", FC_VENDOR_INTEL, 6, 0x6a, 0x6a)},
    {ROW("icelake", FC_VENDOR_INTEL, 6, 0x6c, 0x6c)},
    {ROW("icelake", FC_VENDOR_INTEL, 6, 0x7d, 0x7e)},
    {ROW("icelake", FC_VENDOR_INTEL, 6, 0x8c, 0x8d)},
    {ROW("icelake", FC_VENDOR_INTEL, 6, 0xa7, 0xa7)},
    /* Alder Lake and later hybrid clients: AVX2 + VAES, no AVX-512. */
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
     * Emerald Rapids, Granite Rapids. */
    {ROW("golden-cove", FC_VENDOR_INTEL, 6, 0x8f, 0x8f)},
    {ROW("golden-cove", FC_VENDOR_INTEL, 6, 0xcf, 0xcf)},
    {ROW("golden-cove", FC_VENDOR_INTEL, 6, 0xad, 0xae)},
    /* Sierra Forest and other E-core servers: AVX2 (+ AVX-IFMA), no
     * AVX-512. */
    {ROW("crestmont", FC_VENDOR_INTEL, 6, 0xaf, 0xaf)},
    {ROW("crestmont", FC_VENDOR_INTEL, 6, 0xb6, 0xb6)},
    /* AMD. */
    {ROW("zen1", FC_VENDOR_AMD, 0x17, 0x00, 0x2f)},
    {ROW("zen2", FC_VENDOR_AMD, 0x17, 0x30, 0xff)},
    {ROW("zen3", FC_VENDOR_AMD, 0x19, 0x00, 0x0f)},
    {ROW("zen4", FC_VENDOR_AMD, 0x19, 0x10, 0x1f)},
    {ROW("zen3", FC_VENDOR_AMD, 0x19, 0x20, 0x5f)},
    {ROW("zen4", FC_VENDOR_AMD, 0x19, 0x60, 0xaf)},
    {ROW("zen5", FC_VENDOR_AMD, 0x1a, 0x00, 0xff)},
    /* Anything else: OpenSSL's own choices. Must stay last. */
    {.name = "default"},
};

#undef ROW

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

#if defined(__x86_64__) && !defined(FC_NO_ASM)
static void fc_cpu_id_probe(fc_cpu_id *id)
{
    uint32_t max, b, c, d, a;

    memset(id, 0, sizeof(*id));
    if (!__get_cpuid(0, &max, &b, &c, &d) || max < 1)
        return;
    /* "GenuineIntel" / "AuthenticAMD" in EBX, EDX, ECX. */
    if (b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e)
        id->vendor = FC_VENDOR_INTEL;
    else if (b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163)
        id->vendor = FC_VENDOR_AMD;
    __cpuid(1, a, b, c, d);
    {
        uint32_t fam = (a >> 8) & 0xf, mod = (a >> 4) & 0xf;
        /* Intel SDM / AMD APM: the extended fields count for family 0xf
         * (and for the model, also family 6 on Intel). */
        if (fam == 0xf)
            fam += (a >> 20) & 0xff;
        if (fam == 0x6 || fam >= 0xf)
            mod |= ((a >> 16) & 0xf) << 4;
        id->family = fam;
        id->model = mod;
    }
}
#else
static void fc_cpu_id_probe(fc_cpu_id *id)
{
    memset(id, 0, sizeof(*id));
}
#endif

static pthread_once_t fc_cpu_id_once = PTHREAD_ONCE_INIT;
static fc_cpu_id fc_cpu_id_cached;

static void fc_cpu_id_do_probe(void)
{
    fc_cpu_id_probe(&fc_cpu_id_cached);
}

/* see fc/tuning.h */
fc_cpu_id fc_cpu_identify(void)
{
    pthread_once(&fc_cpu_id_once, fc_cpu_id_do_probe);
    return fc_cpu_id_cached;
}
