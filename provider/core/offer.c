/* SPDX-License-Identifier: Apache-2.0 */
/*
 * offer.c - which algorithm families fastcrypto offers by default (see
 * fc/offer.h): our kernel against the default provider's on this CPU and
 * this OpenSSL, family by family, with the measurement behind each "yes".
 *
 * What default runs (x86-64; OpenSSL's own dispatch, read from its source):
 *   AES-GCM   3.0: AES-NI + PCLMULQDQ, 6 blocks per pass in xmm registers
 *             (aesni_gcm_*, with AVX and MOVBE). From 3.1 on (taken
 *             conservatively as the first release): its AVX-512 VAES GCM
 *             where AVX512F+DQ+BW+VL, VAES and VPCLMULQDQ are all present.
 *   AES-CBC   AES-NI: serial encryption, 8 blocks in flight decrypting, xmm.
 *   AES-CTR   AES-NI, 8 blocks in flight, xmm.
 *   RSA       per CRT half: AVX-512 IFMA for 1024-bit halves in 3.0, for
 *             1536- and 2048-bit halves too from 3.1 on (conservatively);
 *             else MULX/ADX (BMI2 and ADX); else its AVX2 code for 1024-bit
 *             halves; else MULQ.
 *   CTR-DRBG  AES-NI CTR.
 *   AES-CBC-HMAC-SHA1/SHA256  stitched AES-NI code with SHA-NI where the
 *             CPU has it, else with AVX2.
 * Without AES-NI (and on arm64, which none of us has measured) default's
 * assembly is at least as fast as our portable or untimed kernels: nothing
 * is offered there unless forced.
 */
#include <stdio.h>
#include <string.h>

#include "fc/aes.h"
#include "fc/cbc_hmac.h"
#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/gcm.h"
#include "fc/offer.h"
#include "fc/rsa_engine.h"

/* Default's AVX-512 GCM: OpenSSL's ossl_vaes_vpclmulqdq_capable() asks for
 * AVX512F, DQ, BW, VL (FC_CAP_AVX512), VAES and VPCLMULQDQ. */
static int fc_default_gcm_zmm(const fc_offer_in *in)
{
    const uint32_t need = FC_CAP_AVX512 | FC_CAP_VAES | FC_CAP_VPCLMUL;

    return fc_ossl_at_least(in->ossl_version, 3, 1) &&
           (in->caps & need) == need;
}

/* Default's RSA code for a CRT half of n limbs is IFMA. */
static int fc_default_rsa_ifma(const fc_offer_in *in, size_t n)
{
    if ((in->caps & FC_CAP_IFMA) == 0)
        return 0;
    return n == 16 ||
           (fc_ossl_at_least(in->ossl_version, 3, 1) && (n == 24 || n == 32));
}

/*
 * AES-GCM. Ours against default's 6-block xmm loop (OpenSSL 3.0, or any
 * CPU without AVX-512 VAES): the VAES ymm tier 1.98x (AES-128) / 2.12x
 * (AES-256) at 16 KiB, 2.0x and more at 16 B..1350 B (Intel Xeon,
 * Sapphire Rapids class, OpenSSL 3.0.19, scripts/bench.sh); 2.4x on AMD
 * Zen 3 (3.0.19); the AES-NI/AVX tier (VAES hidden from both sides) 1.21x.
 * Against default's AVX-512 GCM only a 512-bit tier of ours competes
 * (our ymm tier measured 0.77x against OpenSSL 3.6.3's at 16 KiB on the
 * Xeon), and only where the CPU's row chose it: the zmm tier against
 * 3.6.3 on the Xeon, openssl speed -evp (a re-key per message), 1.03-1.06x
 * at 16 KiB and 1.11-1.35x at 16 B..1350 B, 64 B included (it lost there,
 * 0.89-0.98x, before its key setup made the powers of H on demand).
 */
static int fc_offer_gcm(const fc_offer_in *in)
{
    if (fc_default_gcm_zmm(in))
        return in->gcm_tier >= FC_TIER_512;
    return in->gcm_tier >= FC_TIER_128_AVX;
}

/*
 * AES-CBC. The VAES tier decrypts 16 blocks per pass: 1.96-2.08x at
 * 16 KiB, encryption 1.03-1.10x (at the AESENC latency bound, as
 * default). With VAES hidden from both sides (Xeon, 3.0.19) the AES-NI
 * tier encrypts 1.07-1.10x but decrypts 0.97-1.02x: a tie is not a win.
 * AES-256-CBC encryption of 47-2048 B messages under a fresh key each
 * (fc_bench cbc-small, 66 blocks on average): 1.10-1.12x against 3.0.19,
 * 1.04x against 3.6.3. Each message is one chain of 14 dependent AESENC
 * per block (42 c; default's ~45-47): against 3.0.19, per message, floor
 * 68 ns, default 842 ns above it, fastcrypto 747 of which ~700 is that
 * chain; with nothing at all of ours beside the chain it would be
 * ~1.18x.
 */
static int fc_offer_cbc(const fc_offer_in *in)
{
    return in->aes_tier >= FC_TIER_256;
}

/*
 * AES-CTR: the VAES kernel (16 blocks per pass) 2.1-2.5x default at 16 KiB,
 * 1.45-2.0x at 256 B, level at 16 B (0.99-1.10x); AES-NI alone 1.1x at
 * 16 KiB by its cycles per byte (0.230 against 0.256 ticks, AES-128) and
 * level below: with the VAES tier only, as CBC. (Xeon, 3.0.19.)
 */
static int fc_offer_ctr(const fc_offer_in *in)
{
    return in->aes_tier >= FC_TIER_256;
}

/*
 * CTR-DRBG, on the AES table's ctr32 kernels (bench/fc_bench drbg-*, Xeon
 * family 6 model 0xa7, 3 rounds, AES-256 with df, generate calls of 16 B,
 * 256 B, 4 KiB, 64 KiB): VAES tier 3.4x, 3.3x, 2.6x, 2.2x default's on
 * OpenSSL 3.0.19 and 2.0x, 2.1x, 2.2x, 2.2x on 3.6.3; AES-NI tier (mask
 * vaes) 3.2x, 2.9x, 1.5x, 1.18x on 3.0.19. Default's per-call work is
 * what the small requests (keys, nonces, blinding, padding) save; the
 * large ones are AES-CTR throughput, ahead on either tier. Offered with
 * any x86-64 AES instruction tier.
 */
static int fc_offer_drbg(const fc_offer_in *in)
{
    return in->aes_tier >= FC_TIER_128;
}

/*
 * AES-CBC-HMAC-SHA1/SHA256: only with the stitched AES-NI + SHA-NI kernels
 * (default stitches too, with its own SHA-NI code where present, else
 * AVX2). Against default's, encrypting (Xeon, 3.0.19, openssl speed, 1 KiB
 * and 16 KiB): AES-128-SHA1 1.23x, AES-256-SHA1 1.08-1.10x, AES-128-SHA256
 * 1.00-1.03x, AES-256-SHA256 1.07-1.09x; a TLS 1.2 record loop (seal and
 * open) 1.04-1.18x. Without SHA-NI (hidden from both sides) our SHA in C
 * lost (0.74x, 0.42x): not offered.
 */
static int fc_offer_cbc_hmac(const fc_offer_in *in)
{
    return in->cbc_hmac_tier >= FC_TIER_128;
}

/*
 * RSA, per CRT-half size, by the engine a key of that size gets
 * (fc/rsa_engine.h). The IFMA engine against default's IFMA code
 * (RSA-2048, any 3.x) 1.55-1.62x; against default's MULX code (RSA-3072
 * and 4096 on 3.0) 2.44x and 2.77x; against default's IFMA code for those
 * (3.6.3) 1.27x and 1.28x (Xeon; sign/s, scripts/bench.sh). The AVX2
 * engine where the CPU's row put it ahead of MULX (the row holds the
 * evidence) and default runs MULX. The MULX engine where the row measured
 * it ahead of OpenSSL's MULX code (rsa_mulx_wins: 1.15-1.17x on the Xeon
 * with IFMA hidden from both sides; it ties on AMD Zen 3, 1.03x, 1.04x,
 * 0.92x for 2048, 3072, 4096). The portable C and the arm64 kernels: not
 * measured ahead of default's assembly.
 */
static uint32_t fc_offer_rsa(const fc_offer_in *in)
{
    static const size_t halves[3] = {16, 24, 32};
    static const uint32_t bits[3] = {FC_OFFER_RSA2048, FC_OFFER_RSA3072,
                                     FC_OFFER_RSA4096};
    const int mulx_wins = in->tuning != NULL && in->tuning->rsa_mulx_wins;
    uint32_t r = 0;

    for (size_t i = 0; i < 3; i++) {
        const uint32_t t = in->rsa_tier[i];
        const int dflt_ifma = fc_default_rsa_ifma(in, halves[i]);

        if (t == FC_TIER_512) /* IFMA */
            r |= bits[i];
        else if (t == FC_TIER_256 && !dflt_ifma && fc_bn_mulx_capable(in->caps))
            r |= bits[i];
        else if (t == FC_TIER_SCALAR && mulx_wins && !dflt_ifma)
            r |= bits[i];
    }
    return r;
}

/* see fc/offer.h */
uint32_t fc_offer_decide(const fc_offer_in *in)
{
    uint32_t offer = 0;

#if !defined(__x86_64__)
    /* The rules below are x86-64 measurements: elsewhere (arm64) nothing
     * of ours has been measured ahead of default's assembly. */
    (void)in;
    return 0;
#endif

    if (fc_offer_gcm(in))
        offer |= FC_OFFER_GCM;
    if (fc_offer_cbc(in))
        offer |= FC_OFFER_CBC;
    if (fc_offer_drbg(in))
        offer |= FC_OFFER_DRBG;
    if (fc_offer_cbc_hmac(in))
        offer |= FC_OFFER_CBC_HMAC;
    if (fc_offer_ctr(in))
        offer |= FC_OFFER_CTR;
    return offer | fc_offer_rsa(in);
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

/* The families' names, as buildinfo and the wisdom file spell them. */
static const struct {
    uint32_t bit;
    const char *name;
} fc_offer_names[] = {
    {FC_OFFER_GCM, "gcm"},
    {FC_OFFER_CBC, "cbc"},
    {FC_OFFER_CTR, "ctr"},
    {FC_OFFER_DRBG, "drbg"},
    {FC_OFFER_CBC_HMAC, "cbc-hmac"},
    {FC_OFFER_RSA2048, "rsa2048"},
    {FC_OFFER_RSA3072, "rsa3072"},
    {FC_OFFER_RSA4096, "rsa4096"},
    {FC_OFFER_RSAOTHER, "rsa-other"},
};

/* see fc/offer.h */
uint32_t fc_offer_family_bit(const char *name, size_t len)
{
    for (size_t i = 0; i < FC_ARRAY_LEN(fc_offer_names); i++)
        if (strlen(fc_offer_names[i].name) == len &&
            memcmp(fc_offer_names[i].name, name, len) == 0)
            return fc_offer_names[i].bit;
    return 0;
}

/* see fc/offer.h */
void fc_offer_describe(uint32_t offer, char *buf, size_t len)
{
    size_t used = 0;

    if (len == 0)
        return;
    buf[0] = '\0';
    if (offer == FC_OFFER_ALL) {
        snprintf(buf, len, "all");
        return;
    }
    for (size_t i = 0; i < FC_ARRAY_LEN(fc_offer_names) && used < len; i++) {
        int n;

        if ((offer & fc_offer_names[i].bit) == 0)
            continue;
        n = snprintf(buf + used, len - used, "%s%s", used ? " " : "",
                     fc_offer_names[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    if (used == 0)
        snprintf(buf, len, "none");
}
