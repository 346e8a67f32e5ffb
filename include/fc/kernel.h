/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/kernel.h - the head every kernel table begins with, and the one
 * selection over such tables.
 *
 * A kernel table (fc_aes_ops, fc_gcm_ops, fc_sha_ops, fc_cbc_sha_ops,
 * fc_rsa_engine) is a name, the CPU features it needs, its tier and its
 * function pointers. The first three are the head, declared once here and
 * placed first in each table by FC_KERNEL_HEAD: the table reads them as
 * its own members (ops->name) and hands &ops->head, or the table itself,
 * to what is common to every family.
 *
 * The tier ranks a kernel by the width of the registers it computes in,
 * wider higher. It is what the offer rules (fc/offer.h) look at, rather
 * than the kernel's name, and what keeps a 512-bit tier out of the
 * selection where the CPU's row does not want it.
 */
#ifndef FC_KERNEL_H
#define FC_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* Tiers, wider higher. */
enum {
    FC_TIER_GENERIC = 0, /* portable C */
    FC_TIER_SCALAR = 1,  /* 64-bit scalar instructions (MULX/ADX, UMULH) */
    FC_TIER_128 = 2,     /* 128-bit vectors: xmm (SSE), NEON */
    FC_TIER_128_AVX = 3, /* xmm in VEX encoding */
    FC_TIER_256 = 4,     /* ymm */
    FC_TIER_512 = 5,     /* zmm */
};

typedef struct fc_kernel {
    const char *name;       /* "vaes-avx2", "aesni", "ifma", "generic", ... */
    uint32_t required_caps; /* FC_CAP_* bits the kernel needs */
    uint32_t tier;          /* FC_TIER_* */
} fc_kernel;

/*
 * FC_KERNEL_HEAD is the first member of every kernel table: the fc_kernel
 * |head|, whose members the table also reads by their own names.
 */
#define FC_KERNEL_HEAD                                                         \
    union {                                                                    \
        fc_kernel head;                                                        \
        struct {                                                               \
            const char *name;                                                  \
            uint32_t required_caps;                                            \
            uint32_t tier;                                                     \
        };                                                                     \
    }

/* fc_kernel_runs returns 1 if a CPU with the features |caps| runs |k|. */
static inline int fc_kernel_runs(const fc_kernel *k, uint32_t caps)
{
    return (caps & k->required_caps) == k->required_caps;
}

/*
 * fc_kernel_select returns the first of the |n| kernel tables of |table|
 * (pointers to tables that begin with FC_KERNEL_HEAD, best first) that a
 * CPU with the features |caps| runs and whose tier is at most |max_tier|,
 * or NULL if there is none (every family's last table is its portable C,
 * which needs nothing).
 */
const void *fc_kernel_select(const void *const *table, size_t n, uint32_t caps,
                             uint32_t max_tier);

/*
 * fc_kernel_named returns the one of the |n| kernel tables of |table| whose
 * name is |name| if a CPU with the features |caps| runs it, whatever its
 * tier (a choice measured on the machine, fc/wisdom.h), else NULL.
 */
const void *fc_kernel_named(const void *const *table, size_t n, uint32_t caps,
                            const char *name);

#endif /* FC_KERNEL_H */
