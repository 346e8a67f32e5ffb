/* SPDX-License-Identifier: Apache-2.0 */
/*
 * offer.c - which algorithm families fastcrypto offers by default (see
 * fc/offer.h): the rule of each family (families.c) on the kernels this
 * CPU runs and this OpenSSL, and the families' names.
 */
#include <stdio.h>
#include <string.h>

#include "fc/aes.h"
#include "fc/cbc_hmac.h"
#include "fc/common.h"
#include "fc/family.h"
#include "fc/gcm.h"
#include "fc/offer.h"
#include "fc/rsa_engine.h"

/* see fc/offer.h */
uint32_t fc_offer_decide(const fc_offer_in *in)
{
    uint32_t offer = 0;
    size_t n;
    const fc_family *f = fc_families(&n);

#if defined(__aarch64__)
    /* arm64: the CPU row's modelled word (families.c). */
    (void)f;
    (void)n;
    return fc_offer_decide_arm64(in);
#elif !defined(__x86_64__)
    /* The rules are x86-64 measurements: elsewhere nothing of ours has
     * been measured or modelled ahead of default's assembly. */
    (void)in;
    (void)f;
    return 0;
#endif
    for (size_t i = 0; i < n; i++) {
        const char *why;

        if (f[i].offer != NULL && f[i].offer(in, &why))
            offer |= f[i].bit;
    }
    return offer;
}

/* see fc/offer.h */
void fc_offer_explain(const fc_offer_in *in, char *buf, size_t len)
{
    size_t used = 0, n;
    const fc_family *f = fc_families(&n);

    if (len == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++) {
        const char *why = "no_table_rule";
        int k;

#if defined(__x86_64__)
        if (f[i].offer != NULL)
            (void)f[i].offer(in, &why);
#else
        (void)in;
        why = "not_measured_on_this_architecture";
#endif
        k = snprintf(buf + used, len - used, "%s%s:%s", used ? "," : "",
                     f[i].name, why);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

/* see fc/offer.h */
void fc_offer_in_init(fc_offer_in *in, uint32_t caps, const fc_tuning *tuning,
                      unsigned long ossl_version)
{
    static const size_t halves[3] = {16, 24, 32};
    fc_rsa_engines rsa;

    memset(in, 0, sizeof(*in));
    in->caps = caps;
    in->tuning = tuning;
    in->ossl_version = ossl_version;
    in->gcm_tier = fc_gcm_select(caps, tuning)->tier;
    in->aes_tier = fc_aes_select(caps)->tier;
    in->cbc_hmac_tier = fc_cbc_sha_select(caps)->tier;
    fc_rsa_engines_init(&rsa, caps, tuning != NULL ? tuning->rsa_order : NULL);
    for (size_t i = 0; i < 3; i++)
        in->rsa_tier[i] = fc_rsa_engine_for(&rsa, halves[i], halves[i])->tier;
}

/* see fc/offer.h */
uint32_t fc_offer_rsa_bit(size_t half_limbs)
{
    switch (half_limbs) {
    case 16:
        return FC_OFFER_RSA2048;
    case 24:
        return FC_OFFER_RSA3072;
    case 32:
        return FC_OFFER_RSA4096;
    default:
        return FC_OFFER_RSAOTHER;
    }
}

/* see fc/offer.h */
uint32_t fc_offer_family_bit(const char *name, size_t len)
{
    const fc_family *f = fc_family_named(name, len);

    return f != NULL ? f->bit : 0;
}

/* see fc/offer.h */
void fc_offer_describe(uint32_t offer, char *buf, size_t len)
{
    size_t used = 0, count;
    const fc_family *f;

    if (len == 0)
        return;
    buf[0] = '\0';
    if (offer == FC_OFFER_ALL) {
        snprintf(buf, len, "all");
        return;
    }
    f = fc_families(&count);
    for (size_t i = 0; i < count && used < len; i++) {
        int n;

        if ((offer & f[i].bit) == 0)
            continue;
        n = snprintf(buf + used, len - used, "%s%s", used ? " " : "",
                     f[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    if (used == 0)
        snprintf(buf, len, "none");
}
