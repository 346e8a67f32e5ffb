/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cpu.c - the one CPU probe (features, and the identity fc/tuning.h and
 * the wisdom key read), and feature masking.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fc/cpu.h"
#include "fc/kernel.h"
#include "fc/tuning.h"

/* What the probe reads, once per process. */
typedef struct fc_cpu_probed {
    uint32_t caps; /* FC_CAP_*, normalised, before any mask */
    fc_cpu_id id;
    fc_cpu_id_more more;
} fc_cpu_probed;

#if defined(__x86_64__) && !defined(FC_NO_ASM)
#include <cpuid.h>

static uint64_t fc_xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* The vendor (leaf 0) and the display family, model and stepping (leaf
 * 1's EAX). */
static void fc_cpu_probe_id(fc_cpu_probed *p, uint32_t b, uint32_t c,
                            uint32_t d, uint32_t eax1)
{
    uint32_t fam = (eax1 >> 8) & 0xf, mod = (eax1 >> 4) & 0xf;

    memcpy(p->more.vendor_name, &b, 4);
    memcpy(p->more.vendor_name + 4, &d, 4);
    memcpy(p->more.vendor_name + 8, &c, 4);
    p->more.vendor_name[12] = '\0';
    /* "GenuineIntel" / "AuthenticAMD" in EBX, EDX, ECX. */
    if (b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e)
        p->id.vendor = FC_VENDOR_INTEL;
    else if (b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163)
        p->id.vendor = FC_VENDOR_AMD;
    /* Intel SDM / AMD APM: the extended fields count for family 0xf (and
     * for the model, also family 6 on Intel). */
    if (fam == 0xf)
        fam += (eax1 >> 20) & 0xff;
    if (fam == 0x6 || fam >= 0xf)
        mod |= ((eax1 >> 16) & 0xf) << 4;
    p->id.family = fam;
    p->id.model = mod;
    p->more.stepping = eax1 & 0xf;
}

static void fc_cpu_probe(fc_cpu_probed *p)
{
    uint32_t a, b, c, d, b0, c0, d0, caps = 0, max_leaf;

    if (!__get_cpuid(0, &max_leaf, &b0, &c0, &d0))
        return;
    __cpuid(1, a, b, c, d);
    if (max_leaf >= 1)
        fc_cpu_probe_id(p, b0, c0, d0, a);
    if (c & bit_AES)
        caps |= FC_CAP_AESNI;
    if (c & bit_PCLMUL)
        caps |= FC_CAP_PCLMUL;
    if (c & bit_SSSE3)
        caps |= FC_CAP_SSSE3;
    if (c & bit_SSE4_1)
        caps |= FC_CAP_SSE41;
    if (c & bit_MOVBE)
        caps |= FC_CAP_MOVBE;

    /* AVX needs both the CPU bit and the OS saving xmm|ymm (XCR0 bits 1,2). */
    int os_ymm = 0, os_zmm = 0;
    if ((c & bit_OSXSAVE) && (c & bit_AVX)) {
        uint64_t xcr0 = fc_xgetbv0();
        os_ymm = (xcr0 & 0x6) == 0x6;
        os_zmm = (xcr0 & 0xe6) == 0xe6; /* + opmask, ZMM_Hi256, Hi16_ZMM */
        if (os_ymm)
            caps |= FC_CAP_AVX;
    }

    if (max_leaf >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (b & bit_BMI2)
            caps |= FC_CAP_BMI2;
        if (b & bit_ADX)
            caps |= FC_CAP_ADX;
        if (b & bit_SHA)
            caps |= FC_CAP_SHA;
        if (os_ymm) {
            if (b & bit_AVX2)
                caps |= FC_CAP_AVX2;
            if (c & (1u << 9)) /* VAES */
                caps |= FC_CAP_VAES;
            if (c & (1u << 10)) /* VPCLMULQDQ */
                caps |= FC_CAP_VPCLMUL;
        }
        const uint32_t avx512 =
            bit_AVX512F | bit_AVX512DQ | bit_AVX512BW | bit_AVX512VL;
        if (os_zmm && (b & avx512) == avx512) {
            caps |= FC_CAP_AVX512;
            if (b & bit_AVX512IFMA)
                caps |= FC_CAP_IFMA;
        }
    }
    /* Normalise: a feature is usable only with what it builds on. */
    p->caps = fc_cpu_apply_mask(caps, 0);
}

#elif defined(__aarch64__) && defined(__linux__) && !defined(FC_NO_ASM)
#include <sys/auxv.h>

#ifndef HWCAP_AES
#define HWCAP_AES (1 << 3)
#endif
#ifndef HWCAP_PMULL
#define HWCAP_PMULL (1 << 4)
#endif
#ifndef HWCAP_SHA1
#define HWCAP_SHA1 (1 << 5)
#endif
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1 << 6)
#endif
#ifndef HWCAP_SHA3
#define HWCAP_SHA3 (1 << 17)
#endif
#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1 << 11)
#endif

/* MIDR_EL1: with HWCAP_CPUID the kernel emulates the EL0 read (of the
 * CPU this thread runs on); else cpu0's value in sysfs (Linux 4.7+); else
 * 0. */
static uint64_t fc_cpu_midr(unsigned long hw)
{
    uint64_t midr = 0;
    char line[64];
    FILE *f;

    if (hw & HWCAP_CPUID) {
        __asm__ volatile("mrs %0, MIDR_EL1" : "=r"(midr));
        return midr;
    }
    f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1",
              "re");
    if (f == NULL)
        return 0;
    if (fgets(line, sizeof(line), f) != NULL) {
        char *end;
        unsigned long long v = strtoull(line, &end, 16);
        if (end != line)
            midr = v;
    }
    fclose(f);
    return midr;
}

static void fc_cpu_probe(fc_cpu_probed *p)
{
    unsigned long hw = getauxval(AT_HWCAP);
    uint32_t caps = 0;

    fc_cpu_id_from_midr(fc_cpu_midr(hw), &p->id, &p->more);
    if (hw & HWCAP_AES)
        caps |= FC_CAP_ARM_AES;
    if (hw & HWCAP_PMULL)
        caps |= FC_CAP_ARM_PMULL;
    if (hw & HWCAP_SHA3)
        caps |= FC_CAP_ARM_SHA3;
    if (hw & HWCAP_SHA1)
        caps |= FC_CAP_ARM_SHA1;
    if (hw & HWCAP_SHA2)
        caps |= FC_CAP_ARM_SHA2;
    p->caps = caps;
}

#else
static void fc_cpu_probe(fc_cpu_probed *p)
{
    (void)p;
}
#endif

/* see fc/tuning.h */
void fc_cpu_id_from_midr(uint64_t midr, fc_cpu_id *id, fc_cpu_id_more *more)
{
    const uint32_t impl = (uint32_t)(midr >> 24) & 0xff;
    fc_cpu_id_more m;

    memset(&m, 0, sizeof(m));
    memset(id, 0, sizeof(*id));
    midr &= 0xffffffffu;
    if (midr != 0) {
        id->vendor = FC_VENDOR_ARM64;
        id->family = impl;
        id->model = (uint32_t)(midr >> 4) & 0xfff;
        m.stepping = ((uint32_t)(midr >> 16) & 0xf0) | ((uint32_t)midr & 0xf);
        m.midr = (uint32_t)midr;
        if (impl == FC_MIDR_ARM)
            strcpy(m.vendor_name, "ARM");
        else if (impl == FC_MIDR_APPLE)
            strcpy(m.vendor_name, "Apple");
        else if (impl == FC_MIDR_AMPERE)
            strcpy(m.vendor_name, "Ampere");
        else
            snprintf(m.vendor_name, sizeof(m.vendor_name), "0x%02x", impl);
    }
    if (more != NULL)
        *more = m;
}

static pthread_once_t fc_cpu_once = PTHREAD_ONCE_INIT;
static fc_cpu_probed fc_cpu_probed_cached; /* zero where nothing is known */

static void fc_cpu_do_probe(void)
{
    fc_cpu_probe(&fc_cpu_probed_cached);
}

/* see fc/cpu.h */
uint32_t fc_cpu_detect(void)
{
    pthread_once(&fc_cpu_once, fc_cpu_do_probe);
    return fc_cpu_probed_cached.caps;
}

/* see fc/tuning.h */
fc_cpu_id fc_cpu_identify(void)
{
    pthread_once(&fc_cpu_once, fc_cpu_do_probe);
    return fc_cpu_probed_cached.id;
}

/* see fc/tuning.h */
fc_cpu_id_more fc_cpu_identify_more(void)
{
    pthread_once(&fc_cpu_once, fc_cpu_do_probe);
    return fc_cpu_probed_cached.more;
}

static const struct {
    const char *name;
    uint32_t bit;
} fc_cpu_names[] = {
    {"aesni", FC_CAP_AESNI},   {"pclmul", FC_CAP_PCLMUL},
    {"ssse3", FC_CAP_SSSE3},   {"sse41", FC_CAP_SSE41},
    {"avx", FC_CAP_AVX},       {"avx2", FC_CAP_AVX2},
    {"vaes", FC_CAP_VAES},     {"vpclmul", FC_CAP_VPCLMUL},
    {"bmi2", FC_CAP_BMI2},     {"adx", FC_CAP_ADX},
    {"avx512", FC_CAP_AVX512}, {"ifma", FC_CAP_IFMA},
    {"movbe", FC_CAP_MOVBE},   {"sha", FC_CAP_SHA},
    {"aes", FC_CAP_ARM_AES},   {"pmull", FC_CAP_ARM_PMULL},
    {"sha3", FC_CAP_ARM_SHA3}, {"sha1", FC_CAP_ARM_SHA1},
    {"sha2", FC_CAP_ARM_SHA2},
};

/* see fc/cpu.h */
int fc_cpu_parse_mask(const char *spec, uint32_t *out)
{
    uint32_t mask = 0;
    const char *p = spec;

    if (spec == NULL) {
        *out = 0;
        return 1;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        char *end;
        unsigned long v = strtoul(p, &end, 16);
        while (*end == ' ' || *end == '\t')
            end++;
        if (*end != '\0' || v > 0xffffffffUL)
            return 0;
        *out = (uint32_t)v;
        return 1;
    }
    while (*p != '\0') {
        char word[16];
        size_t n = 0;
        while (*p == ',' || *p == ' ' || *p == '+' || *p == '\t')
            p++;
        if (*p == '\0')
            break;
        while (*p != '\0' && *p != ',' && *p != ' ' && *p != '+' &&
               *p != '\t') {
            if (n + 1 >= sizeof(word))
                return 0;
            word[n++] = (char)tolower((unsigned char)*p++);
        }
        word[n] = '\0';
        if (strcmp(word, "all") == 0) {
            mask = 0xffffffffu;
            continue;
        }
        if (strcmp(word, "none") == 0)
            continue;
        size_t i;
        for (i = 0; i < sizeof(fc_cpu_names) / sizeof(fc_cpu_names[0]); i++) {
            if (strcmp(word, fc_cpu_names[i].name) == 0) {
                mask |= fc_cpu_names[i].bit;
                break;
            }
        }
        if (i == sizeof(fc_cpu_names) / sizeof(fc_cpu_names[0]))
            return 0;
    }
    *out = mask;
    return 1;
}

/* see fc/cpu.h */
uint32_t fc_cpu_apply_mask(uint32_t caps, uint32_t mask)
{
    caps &= ~mask;
    if (!(caps & FC_CAP_AVX))
        caps &= ~(FC_CAP_AVX2 | FC_CAP_VAES | FC_CAP_VPCLMUL | FC_CAP_AVX512);
    if (!(caps & FC_CAP_AVX2))
        caps &= ~(FC_CAP_VAES | FC_CAP_VPCLMUL | FC_CAP_AVX512);
    if (!(caps & FC_CAP_AESNI))
        caps &= ~FC_CAP_VAES;
    if (!(caps & FC_CAP_PCLMUL))
        caps &= ~FC_CAP_VPCLMUL;
    if (!(caps & FC_CAP_AVX512))
        caps &= ~FC_CAP_IFMA;
    return caps;
}

/* see fc/cpu.h */
void fc_cpu_caps_describe(uint32_t caps, char *buf, unsigned long len)
{
    size_t used = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(fc_cpu_names) / sizeof(fc_cpu_names[0]);
         i++) {
        if (!(caps & fc_cpu_names[i].bit))
            continue;
        size_t n = strlen(fc_cpu_names[i].name);
        if (used + n + 2 > len)
            break;
        if (used > 0)
            buf[used++] = ' ';
        memcpy(buf + used, fc_cpu_names[i].name, n);
        used += n;
        buf[used] = '\0';
    }
}

/* see fc/kernel.h */
const void *fc_kernel_select(const void *const *table, size_t n, uint32_t caps,
                             uint32_t max_tier)
{
    for (size_t i = 0; i < n; i++) {
        /* Each table begins with its head (FC_KERNEL_HEAD). */
        const fc_kernel *k = table[i];

        if (fc_kernel_runs(k, caps) && k->tier <= max_tier)
            return table[i];
    }
    return NULL;
}

/* see fc/kernel.h */
const void *fc_kernel_named(const void *const *table, size_t n, uint32_t caps,
                            const char *name)
{
    for (size_t i = 0; i < n; i++) {
        const fc_kernel *k = table[i];

        if (strcmp(k->name, name) == 0)
            return fc_kernel_runs(k, caps) ? table[i] : NULL;
    }
    return NULL;
}
