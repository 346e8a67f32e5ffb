/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_engine.c - the table of RSA engines, the per-CPU list made from it,
 * the lookups a key's choice is made with, the scalar engines' CRT
 * exponentiation, and the generic engine (see fc/rsa_engine.h).
 *
 * The table's order is the preference where the per-CPU row says nothing:
 * IFMA (both halves in 52-bit lanes, beats everything it runs on), MULX,
 * AVX2 (ahead of MULX only where a row says so: on Intel cores the two are
 * about even, on AMD Zen the AVX2 engine wins, see tuning.c), the arm64
 * kernels, the portable C last.
 */
#include <stdio.h>
#include <string.h>

#include "fc/bn.h"
#include "fc/common.h"
#include "fc/rsa_engine.h"

/* Every engine compiled in; add a line to add one. */
static const fc_rsa_engine *const fc_rsa_engine_table[] = {
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    &fc_rsa_engine_ifma,    &fc_rsa_engine_mulx, &fc_rsa_engine_avx2,
#endif
#if defined(__aarch64__) && !defined(FC_NO_ASM)
    &fc_rsa_engine_arm64,
#endif
    &fc_rsa_engine_generic,
};

_Static_assert(FC_ARRAY_LEN(fc_rsa_engine_table) <= FC_RSA_MAX_ENGINES,
               "FC_RSA_MAX_ENGINES too small");

/* see fc/rsa_engine.h */
const fc_rsa_engine *const *fc_rsa_engine_impls(size_t *count)
{
    *count = FC_ARRAY_LEN(fc_rsa_engine_table);
    return fc_rsa_engine_table;
}

/* Appends |e| to |list| unless it is there already. */
static void fc_rsa_engines_add(fc_rsa_engines *list, const fc_rsa_engine *e)
{
    size_t len;

    for (size_t i = 0; i < list->count; i++)
        if (list->e[i] == e)
            return;
    list->e[list->count++] = e;
    len = strlen(list->names);
    if (len + strlen(e->name) + 2 <= sizeof(list->names)) {
        if (len > 0)
            list->names[len++] = ',';
        strcpy(list->names + len, e->name);
    }
}

/* The runnable engine called name[0..len), or NULL. */
static const fc_rsa_engine *fc_rsa_engine_named(const char *name, size_t len,
                                                uint32_t caps)
{
    for (size_t i = 0; i < FC_ARRAY_LEN(fc_rsa_engine_table); i++) {
        const fc_rsa_engine *e = fc_rsa_engine_table[i];

        if (strlen(e->name) == len && memcmp(e->name, name, len) == 0 &&
            fc_kernel_runs(&e->head, caps))
            return e;
    }
    return NULL;
}

/* see fc/rsa_engine.h */
void fc_rsa_engines_init(fc_rsa_engines *list, uint32_t caps, const char *order)
{
    memset(list, 0, sizeof(*list));
    while (order != NULL && *order != '\0') {
        size_t len = strcspn(order, ",");
        const fc_rsa_engine *e = fc_rsa_engine_named(order, len, caps);

        /* The generic engine stays last whatever a row says. */
        if (e != NULL && e != &fc_rsa_engine_generic)
            fc_rsa_engines_add(list, e);
        order += len + (order[len] == ',');
    }
    for (size_t i = 0; i < FC_ARRAY_LEN(fc_rsa_engine_table); i++) {
        const fc_rsa_engine *e = fc_rsa_engine_table[i];

        if (fc_kernel_runs(&e->head, caps) && e != &fc_rsa_engine_generic)
            fc_rsa_engines_add(list, e);
    }
    fc_rsa_engines_add(list, &fc_rsa_engine_generic);
}

/* see fc/rsa_engine.h */
int fc_rsa_engine_takes(const fc_rsa_engine *e, size_t pl, size_t ql)
{
    if (e->takes != NULL)
        return e->takes(pl, ql);
    return e->kernels != NULL && fc_bn_ops_takes(e->kernels, pl) &&
           fc_bn_ops_takes(e->kernels, ql);
}

/* The preference class of halves of |pl| and |ql| limbs: 0, 1, 2 for
 * RSA-2048, -3072, -4096, else -1. */
static int fc_rsa_prefer_class(size_t pl, size_t ql)
{
    if (pl != ql)
        return -1;
    return pl == 16 ? 0 : pl == 24 ? 1 : pl == 32 ? 2 : -1;
}

/* see fc/rsa_engine.h */
int fc_rsa_engines_prefer(fc_rsa_engines *list, unsigned bits, const char *name)
{
    const size_t half = bits / 128; /* limbs of one half */
    const int c = bits % 128 == 0 ? fc_rsa_prefer_class(half, half) : -1;
    size_t len = strlen(list->names);

    if (c < 0)
        return 0;
    for (size_t i = 0; i < list->count; i++) {
        const fc_rsa_engine *e = list->e[i];

        if (strcmp(e->name, name) != 0 || !fc_rsa_engine_takes(e, half, half))
            continue;
        list->prefer[c] = e;
        snprintf(list->names + len, sizeof(list->names) - len, "/%u:%s", bits,
                 e->name);
        return 1;
    }
    return 0;
}

/* see fc/rsa_engine.h */
const fc_rsa_engine *fc_rsa_engine_for(const fc_rsa_engines *list, size_t pl,
                                       size_t ql)
{
    const int c = fc_rsa_prefer_class(pl, ql);

    if (c >= 0 && list->prefer[c] != NULL)
        return list->prefer[c];
    for (size_t i = 0; i < list->count; i++)
        if (fc_rsa_engine_takes(list->e[i], pl, ql))
            return list->e[i];
    return NULL;
}

/* see fc/rsa_engine.h */
const fc_bn_ops *fc_rsa_kernels_for(const fc_rsa_engines *list, size_t n)
{
    for (size_t i = 0; i < list->count; i++) {
        const fc_bn_ops *k = list->e[i]->kernels;

        if (k != NULL && fc_bn_ops_takes(k, n))
            return k;
    }
    return NULL;
}

/* see fc/rsa_engine.h */
int fc_rsa_exp2_scalar(const void *pre, const fc_mont *mp, uint64_t *rp,
                       const uint64_t *ap, const uint64_t *ep, size_t epbits,
                       const fc_mont *mq, uint64_t *rq, const uint64_t *aq,
                       const uint64_t *eq, size_t eqbits)
{
    (void)pre;
    return fc_bn_mod_exp(mp, rp, ap, ep, fc_bn_limbs_for_bits(epbits), epbits) &
           fc_bn_mod_exp(mq, rq, aq, eq, fc_bn_limbs_for_bits(eqbits), eqbits);
}

/* The portable engine: C kernels for every size. */
const fc_rsa_engine fc_rsa_engine_generic = {
    .name = "generic",
    .tier = FC_TIER_GENERIC,
    .required_caps = 0,
    .kernels = &fc_bn_ops_generic,
    .exp2 = fc_rsa_exp2_scalar,
};
