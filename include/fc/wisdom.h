/* SPDX-License-Identifier: Apache-2.0 */
/* clang-format off */
/*
 * fc/wisdom.h - what this machine measured: the offer decisions that
 * `fastcrypto-calibrate` writes after timing our kernels against the
 * default provider's on the machine itself, and that the provider reads
 * at load instead of the per-CPU table's prior (fc/offer.h). The provider
 * never measures at load: a missing, foreign or broken file only means
 * the table decides.
 *
 * The file is text, one record a line; a line whose first non-blank
 * character is '#' is a comment, and blank lines are skipped. The first record is the key, then one record per
 * family measured:
 *
 *     fastcrypto-wisdom 1
 *     key cpu=x86:GenuineIntel:6:167:1 caps=0x0007fbff ossl=0x30000130 fc=0.1.0
 *     family gcm offer median=2.612 q1=2.540 ours=vaes-avx512 default=3.0.19 ms=2210
 *     family rsa3072 no median=1.011 q1=0.985 ours=ifma default=3.0.19 ms=3100
 *
 * "fastcrypto-wisdom 1" names the format and its version. The key is the
 * machine and software the figures hold for, written by the provider
 * itself (its "fastcrypto-wisdom-key" parameter, fc_wisdom_key below) so
 * that the tool and the provider never disagree on its spelling:
 *   cpu=   x86:VENDOR:FAMILY:MODEL:STEPPING (display family and model), or
 *          arm64:MIDR (hex, implementer/variant/part/revision)
 *   caps=  the FC_CAP_* bits the kernels use, after FASTCRYPTO_CPU_MASK
 *   ossl=  the running libcrypto's OpenSSL_version_num(), hex
 *   fc=    fastcrypto's version
 * A file is used only if its key equals the provider's own, byte for byte.
 *
 * A family record: "family", the family's name as fc_offer_describe
 * spells it (gcm cbc ctr drbg cbc-hmac rsa2048 rsa3072 rsa4096 rsa-other),
 * the decision ("offer" or "no"), then name=value fields the provider
 * does not need and keeps for reports: the median and lower quartile of
 * the paired ratios default-time / our-time (> 1: ours is faster), the
 * kernel or engine of ours measured, the OpenSSL version measured against,
 * the milliseconds spent; and one field the provider does use:
 *   pick=  the kernel (gcm) or RSA engine (rsa2048, rsa3072, rsa4096) of
 *          ours that measured fastest here where it is not the one the
 *          table would run: [a-z0-9-], 1..FC_WISDOM_PICK_MAX-1 bytes. The
 *          provider runs it instead if this CPU (after the mask) runs it,
 *          else ignores the pick (the family's decision still holds); the
 *          RSA engines form one order, the picks of rsa2048, rsa3072 and
 *          rsa4096 first in that order. The record's decision and figures
 *          are the picked kernel's.
 * A family without a record keeps the table's decision.
 *
 * Hostile input: the file is read only if it is a regular file owned by
 * root or by the process's effective uid and writable by no one else
 * (group and other write bits clear); at most FC_WISDOM_MAX_BYTES bytes
 * and FC_WISDOM_MAX_LINE per line (its '\n' not counted); every line ends with '\n' (a last
 * line without one is a truncated file) and holds printable ASCII, space
 * and tab only; fields are separated by spaces or tabs. Any record that
 * does not parse, an unknown record type or family, a family named twice,
 * a missing or second key or header makes the whole file ignored. The
 * reason is kept for reports.
 */
/* clang-format on */
#ifndef FC_WISDOM_H
#define FC_WISDOM_H

#include <stddef.h>
#include <stdint.h>

#include "fc/offer.h" /* FC_OFFER_* */

#define FC_WISDOM_ENV        "FASTCRYPTO_WISDOM" /* read with secure_getenv */
#define FC_WISDOM_DEFAULT    "/var/lib/fastcrypto/wisdom"
#define FC_WISDOM_MAGIC      "fastcrypto-wisdom 1"
#define FC_WISDOM_MAX_BYTES  16384
#define FC_WISDOM_MAX_LINE   512
#define FC_WISDOM_KEY_MAX    160
#define FC_WISDOM_REASON_MAX 160
#define FC_WISDOM_PICK_MAX   24 /* a pick's name and its NUL */
#define FC_WISDOM_PICK_SLOTS 16 /* family bits 0..15 may carry a pick */
/* The families whose kernel or engine a pick may name. */
#define FC_WISDOM_PICKABLE                                                     \
    (FC_OFFER_GCM | FC_OFFER_RSA2048 | FC_OFFER_RSA3072 | FC_OFFER_RSA4096)

/* Where the offer decision came from, as buildinfo's "offer-from=". */
typedef enum fc_offer_source {
    FC_OFFER_FROM_TABLE = 0, /* the per-CPU table's prior (fc/offer.h) */
    FC_OFFER_FROM_WISDOM,    /* a valid wisdom file for this machine */
    FC_OFFER_FROM_FORCED,    /* "offer = all" / FASTCRYPTO_OFFER=all */
} fc_offer_source;

/* What a wisdom file said: the families it decided (FC_OFFER_* bits in
 * |decided|), which of them to offer (|offer|, a subset of |decided|). */
typedef struct fc_wisdom {
    uint32_t decided;
    uint32_t offer;
    /* pick[i]: the "pick=" of the family whose bit is 1 << i, or "". */
    char pick[FC_WISDOM_PICK_SLOTS][FC_WISDOM_PICK_MAX];
    char reason[FC_WISDOM_REASON_MAX]; /* why it was ignored, or "" */
} fc_wisdom;

/*
 * fc_wisdom_pick returns the kernel or engine name the file picked for the
 * family |bit| (one FC_OFFER_* bit), or NULL if it picked none.
 */
const char *fc_wisdom_pick(const fc_wisdom *w, uint32_t bit);

/*
 * fc_wisdom_key writes this machine's key (the "key" record's value,
 * without "key ") into |buf| (|len| bytes, NUL-terminated) from the CPU
 * features |caps| after the mask, the running OpenSSL's version number and
 * fastcrypto's version string. Returns 1, or 0 if it did not fit.
 */
int fc_wisdom_key(char *buf, size_t len, uint32_t caps,
                  unsigned long ossl_version, const char *fc_version);

/*
 * fc_wisdom_parse reads the |len| bytes at |text| as a wisdom file for the
 * machine whose key is |key|. Returns 1 with |*w| filled if the file is
 * valid and its key matches; else 0 with |w->reason| saying why and
 * nothing decided. Never reads past |len|; |text| need not be
 * NUL-terminated.
 */
int fc_wisdom_parse(const char *text, size_t len, const char *key,
                    fc_wisdom *w);

/*
 * fc_wisdom_path returns the file the provider reads: |configured| (the
 * config section's "wisdom") if set and not empty, else FC_WISDOM_ENV's
 * value (secure_getenv: ignored in set-user-ID programs) if not empty,
 * else FC_WISDOM_DEFAULT.
 */
const char *fc_wisdom_path(const char *configured);

/*
 * fc_wisdom_load opens |path| (NULL: the environment's, else the default
 * path, as fc_wisdom_path), checks its owner and mode as above, reads it and
 * parses it with fc_wisdom_parse. Returns 1 if it holds decisions for this
 * machine, else 0 with the reason (a missing file says so too).
 */
int fc_wisdom_load(const char *path, const char *key, fc_wisdom *w);

#endif /* FC_WISDOM_H */
