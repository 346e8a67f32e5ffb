/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/rsa_engine.h - the RSA engines: every way fastcrypto runs the two CRT
 * exponentiations of a private operation, and the scalar Montgomery
 * kernels the rest of RSA runs on, in one table; the ordered list of the
 * engines one CPU runs, made once per provider instance from its features
 * and its per-CPU row (fc/tuning.h); and the choice for a key, made once
 * per key from that list (fc_rsa_key_new).
 *
 * An engine has a name, the CPU features it needs, optionally scalar
 * Montgomery kernels (an fc_bn_ops table: MULX, arm64, generic), and the
 * two-half CRT exponentiation with the per-key state it precomputes: the
 * vector engines (IFMA, AVX2) run both halves in one instruction stream
 * for the limb counts they have kernels for; the scalar ones run
 * fc_bn_mod_exp per half on the halves' own Montgomery contexts.
 *
 * Choice for a key: the CRT exponentiation comes from the first engine of
 * the list that takes the key's half sizes (an engine refusing them hands
 * the key to the next one, never straight to the portable code), the
 * kernels for n, p and q each from the first engine whose kernels take
 * that limb count. The portable "generic" engine is always last and takes
 * everything. Hot paths then make one indirect call.
 *
 * Adding an engine: its kernels (asm/<arch>/...S), its glue
 * (provider/core/rsa_engine_<name>.c, defining an fc_rsa_engine), and one
 * line in the table of rsa_engine.c.
 */
#ifndef FC_RSA_ENGINE_H
#define FC_RSA_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "fc/bn.h"
#include "fc/kernel.h"

/*
 * fc_rsa_exp2_fn: rp = ap^ep mod p and rq = aq^eq mod q with the per-key
 * state |pre| (made by the engine's pre_new from these contexts; NULL for
 * engines without one), for ap in [0, p), aq in [0, q). Exponent e_h is an
 * array of ceil(e_h_bits/64) limbs, bits at or above e_h_bits zero;
 * e_h_bits > 0. Results fully reduced; r_h may alias a_h. Returns 1, or 0
 * on allocation failure or a size the state was not made for.
 * CT: only the limb counts and max(epbits, eqbits) leak.
 */
typedef int fc_rsa_exp2_fn(const void *pre, const fc_mont *mp, uint64_t *rp,
                           const uint64_t *ap, const uint64_t *ep,
                           size_t epbits, const fc_mont *mq, uint64_t *rq,
                           const uint64_t *aq, const uint64_t *eq,
                           size_t eqbits);

typedef struct fc_rsa_engine {
    FC_KERNEL_HEAD; /* name, required_caps, tier (fc/kernel.h) */
    /* Scalar Montgomery kernels (for n, p, q, blinding, the check), or
     * NULL: a CRT-only engine leaves them to the engines after it. */
    const fc_bn_ops *kernels;
    /* 1 if exp2 takes halves of pl and ql limbs; NULL: whenever the
     * kernels take both. */
    int (*takes)(size_t pl, size_t ql);
    /* Per-key state for exp2 from the halves' contexts (NULL on
     * allocation failure); all three NULL for engines without one. */
    void *(*pre_new)(const fc_mont *mp, const fc_mont *mq);
    void (*pre_free)(void *pre);
    void *(*pre_dup)(const void *pre);
    fc_rsa_exp2_fn *exp2;
} fc_rsa_engine;

/* The most engines one list holds (every compiled-in engine). */
#define FC_RSA_MAX_ENGINES 8

/* The engines one CPU runs, best first, the generic engine last. */
typedef struct fc_rsa_engines {
    size_t count;
    const fc_rsa_engine *e[FC_RSA_MAX_ENGINES];
    /* prefer[c]: the engine this machine measured fastest for the halves
     * of RSA-2048, -3072, -4096 (c = 0, 1, 2: 16, 24, 32 limbs each), ahead
     * of the order for those halves (fc_rsa_engines_prefer), or NULL. */
    const fc_rsa_engine *prefer[3];
    /* "ifma,mulx,avx2,generic": the order, for reports; then
     * "/2048:avx2" for each preference. */
    char names[128];
} fc_rsa_engines;

/*
 * fc_rsa_engine_impls returns every engine compiled in, in the table's
 * order (the preference when no per-CPU row says otherwise), the generic
 * engine last; |*count| gets their number. For tests and reports.
 */
const fc_rsa_engine *const *fc_rsa_engine_impls(size_t *count);

/*
 * fc_rsa_engines_init fills |list| with the engines whose features are in
 * |caps|: first those named in |order| (comma-separated engine names, the
 * per-CPU row's preference, may be NULL), in that order, then the others
 * in the table's order. Names of engines not compiled in or not runnable
 * are skipped. The generic engine is always present, last.
 */
void fc_rsa_engines_init(fc_rsa_engines *list, uint32_t caps,
                         const char *order);

/*
 * fc_rsa_engines_prefer makes the engine called |name| the first choice of
 * |list| for the halves of an RSA key of |bits| (2048, 3072 or 4096, both
 * halves bits/2 bits): a choice measured on the machine (fc/wisdom.h
 * "pick="). Returns 1, or 0 (nothing changed) if |bits| is not one of
 * those, or no engine of |list| has that name or takes those halves.
 */
int fc_rsa_engines_prefer(fc_rsa_engines *list, unsigned bits,
                          const char *name);

/*
 * fc_rsa_engine_takes returns 1 if the CRT exponentiation of |e| takes
 * halves of pl and ql limbs.
 */
int fc_rsa_engine_takes(const fc_rsa_engine *e, size_t pl, size_t ql);

/*
 * fc_rsa_engine_for returns the engine of |list| preferred for halves of
 * pl == ql limbs if there is one, else the first whose CRT exponentiation
 * takes halves of pl and ql limbs (the generic engine takes every pair).
 * Never NULL for a list made by fc_rsa_engines_init.
 */
const fc_rsa_engine *fc_rsa_engine_for(const fc_rsa_engines *list, size_t pl,
                                       size_t ql);

/*
 * fc_rsa_kernels_for returns the kernels of the first engine of |list|
 * whose kernels take |n| limbs (the generic kernels take every n >= 1).
 * Never NULL for a list made by fc_rsa_engines_init and n >= 1.
 */
const fc_bn_ops *fc_rsa_kernels_for(const fc_rsa_engines *list, size_t n);

/*
 * fc_rsa_exp2_scalar is the CRT exponentiation of the scalar engines:
 * fc_bn_mod_exp on each half with its own context's kernels (|pre| is
 * unused). See fc_rsa_exp2_fn.
 */
int fc_rsa_exp2_scalar(const void *pre, const fc_mont *mp, uint64_t *rp,
                       const uint64_t *ap, const uint64_t *ep, size_t epbits,
                       const fc_mont *mq, uint64_t *rq, const uint64_t *aq,
                       const uint64_t *eq, size_t eqbits);

/* The engines, defined by their glue files (provider/core/rsa_engine*.c). */
extern const fc_rsa_engine fc_rsa_engine_generic;
#if defined(__x86_64__) && !defined(FC_NO_ASM)
extern const fc_rsa_engine fc_rsa_engine_ifma;
extern const fc_rsa_engine fc_rsa_engine_avx2;
extern const fc_rsa_engine fc_rsa_engine_mulx;
#endif
#if defined(__aarch64__) && !defined(FC_NO_ASM)
extern const fc_rsa_engine fc_rsa_engine_arm64;
#endif

#endif /* FC_RSA_ENGINE_H */
