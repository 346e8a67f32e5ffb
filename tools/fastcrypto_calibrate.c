/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastcrypto_calibrate.c - `fastcrypto-calibrate`: measures, on the machine
 * it runs on, each family of fastcrypto against the default provider, and
 * writes the offer decisions as wisdom (fc/wisdom.h) for the provider to
 * read at load.
 *
 * Method (bench/fc_bench.c's, in one short run). One OSSL_LIB_CTX holds
 * default and fastcrypto with every algorithm offered (FASTCRYPTO_OFFER=all
 * while it activates); every algorithm is fetched twice, "provider=default"
 * and "provider=fastcrypto". A family has the workloads that matter to its
 * users, driven through EVP as libssl and applications drive them:
 *   gcm       AES-256-GCM records of 16 B, 1350 B and 16 KiB, key kept, per
 *             record a 12-byte IV re-init, 13 B of AAD, data, final and the
 *             tag: seal and open
 *   cbc       AES-256-CBC decrypt of 16 KiB calls and of 16 B calls with
 *             padding on (each returns the block before: openssl speed's
 *             and most programs' decrypt loop), key kept;
 *             encrypt of 47..2048 B messages under a fresh key and IV each
 *   ctr       AES-256-CTR, 16 B and 16 KiB calls (the 16 B calls are where
 *             per-call overhead shows: "never slower" covers them too)
 *   drbg      CTR-DRBG (AES-256, derivation function) generate of 16 B and
 *             4 KiB, both generators restarted from the same fixed entropy
 *   cbc-hmac  TLS 1.2 records of 1350 B in AES-128-CBC-HMAC-SHA1 and -SHA256
 *             as libssl drives them: "tlsaad" (the 13-byte header), then one
 *             in-place update; seal and open
 *   rsa2048, rsa3072, rsa4096
 *             PKCS#1 v1.5 SHA-256 signatures, one EVP_DigestSignInit_ex +
 *             EVP_DigestSign each (a TLS server's handshake); fixed keys
 *             (calibrate_keys.h) made by default and imported into ours
 *             with EVP_PKEY_fromdata. rsa-other is not measured: the table
 *             keeps deciding it.
 * A sample is about a millisecond of one workload on one side; a round
 * times both sides back to back, alternating which goes first, and keeps
 * the paired ratio default_ns / our_ns (> 1: ours faster), so that a drift
 * of the machine (turbo, a neighbour) falls on both halves of a pair. The
 * two sides' outputs are compared every sample: a broken path is never
 * timed. Per workload: the median and lower quartile of its ratios over the
 * rounds. A family's ratio is the minimum of its workloads' medians, its q1
 * the minimum of their q1s: a family is offered only if it wins on every
 * workload that matters.
 *
 * The decision rule: offered iff q1 >= 1.02 and median >= 1.05. Measured
 * with --self (fastcrypto on both sides of every pair, 20 s budget, every
 * tier) on a 2-core VM shared with other jobs (Xeon family 6 model 167,
 * OpenSSL 3.0.19): of 58 workload-tier series, the medians of the paired
 * ratios lay in 0.984..1.046 (all but three within 1.000 +- 0.006; the
 * 1.046 from 46 rounds of 4096-bit signatures), their lower quartiles in
 * 0.93..1.00; every family's figures (the minimum over its workloads)
 * were medians 0.996..1.003 and q1s 0.928..0.979, so no family was
 * offered against itself. A neighbour landing on one half of a pair moves
 * that one ratio by 10-50%, which the quartiles of tens of rounds absorb;
 * a median 5% up is beyond what that noise shifted any family's median by,
 * and q1 >= 1.02 asks that three rounds in four show ours ahead, which a
 * tie never did (q1 <= 0.98 throughout). A family that wins by less is not
 * worth the risk of being slower on a neighbour's busy day: the default
 * provider is the safe side of every doubt.
 *
 * Tiers. Where this CPU runs several of our kernels for a family (GCM
 * vaes-avx512 / vaes-avx2 / aesni, the RSA engines ifma / mulx / avx2),
 * each is measured in its own library context whose fastcrypto was
 * activated under a FASTCRYPTO_CPU_MASK that makes it the provider's pick
 * (the masks tried are listed in tier_masks[]; a mask adds to the process's
 * own). For GCM and the RSA sizes another tier runs instead of the
 * provider's own choice when it measured ahead of it by the tier rule
 * (calibrate_logic.h, fc_cal_picked: median 5% higher, lower quartile above
 * the own choice's median); the wisdom then names it ("pick=", fc/wisdom.h)
 * and the family's decision and figures are that tier's. Otherwise the
 * decision is for the provider's own choice, and the fastest tier measured
 * is printed beside it. (The AES kernels of cbc, ctr, drbg and cbc-hmac
 * have no tier choice beyond the CPU's features: no pick.)
 *
 * Budget: --budget S (default 30) is the whole run, --quick caps it at 10;
 * it is shared out over the (family, tier) pairs, the unmasked tiers
 * weighing double, and each stops its rounds when its share is spent,
 * after at least FC_CAL_MIN_ROUNDS.
 *
 * Output: a table on stdout, and the wisdom file (fc/wisdom.h) written
 * atomically to --out FILE, else to FASTCRYPTO_WISDOM's path or
 * /var/lib/fastcrypto/wisdom (what the provider reads); --dry-run prints
 * without writing. --test-timings FILE replaces the measurements by
 * injected ones, a line per round: "FAMILY[:WORKLOAD] OURS_NS DEFAULT_NS"
 * (no provider is loaded; the key is --key's, or a placeholder), so that
 * the decision logic runs under an emulator and in CI without noise.
 *
 * Usage: fastcrypto-calibrate [--module PATH] [--budget S] [--quick]
 *            [--out FILE] [--dry-run] [--only FAM,...] [--verbose]
 *            [--self] [--test-timings FILE [--key KEY]]
 *        fastcrypto-calibrate --check [--out FILE] [--module PATH]
 * --check measures nothing: it asks the provider, activated as programs
 * have it, whether the wisdom it reads (--out FILE, else FASTCRYPTO_WISDOM,
 * else the default path) is valid for this machine: exit 0 if so, 1 if it
 * is missing, foreign or broken (the provider's reason printed), 2 if the
 * provider cannot be loaded. The boot unit (packaging/) calibrates only
 * when it fails.
 * --self measures fastcrypto against itself (both sides of every pair
 * ours; nothing is written): the noise floor the margins stand on.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>

#include "calibrate_keys.h"
#include "calibrate_logic.h"
#include "fc/cpu.h"
#include "fc/family.h"
#include "fc/offer.h"
#include "fc/rsa_engine.h"
#include "fc/wisdom.h"

#define FC_NAME        "fastcrypto"
#define CAL_PARAM_KEY  "fastcrypto-wisdom-key"
#define CAL_SAMPLE_NS  1000000.0 /* about this much work per sample */
#define CAL_MAX_ROUNDS 5000
#define CAL_MAX_WL     6
#define CAL_MAX_TIERS  8
#define CAL_POOL       8 /* records or messages cycled through */

enum { OURS = 0, DFLT = 1 };

static void die(const char *what)
{
    fprintf(stderr, "fastcrypto-calibrate: %s failed\n", what);
    ERR_print_errors_fp(stderr);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = calloc(1, n);

    if (p == NULL) {
        fprintf(stderr, "fastcrypto-calibrate: out of memory\n");
        exit(1);
    }
    return p;
}

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* splitmix64: the same inputs for both sides. */
static void fill(uint64_t *s, unsigned char *buf, size_t len)
{
    while (len > 0) {
        uint64_t z = (*s += 0x9e3779b97f4a7c15u);
        size_t n = len < 8 ? len : 8;

        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        memcpy(buf, &z, n);
        buf += n;
        len -= n;
    }
}

/* Folds 16 bytes into a digest of a sample's output (a cross-check). */
static uint64_t fold16(uint64_t h, const unsigned char *b)
{
    uint64_t a, c;

    memcpy(&a, b, 8);
    memcpy(&c, b + 8, 8);
    h = (h ^ a) * 0x100000001b3u;
    h = (h ^ c) * 0x100000001b3u;
    return h ^ (h >> 29);
}

/* ------------------------------------------------------------------------ */
/* Families and tiers. */

/* The families calibrated: those of fc/family.h with a workload, in its
 * order (families_init). */
#define CAL_MAX_FAM 12
typedef struct family {
    uint32_t bit;      /* FC_OFFER_* */
    const char *name;  /* as fc_offer_describe spells it */
    const char *param; /* the provider parameter naming its kernel */
    int rsa_bits;      /* rsa*: the modulus size */
} family;

static family families[CAL_MAX_FAM];
static size_t nfam;

static void families_init(void)
{
    size_t count;
    const fc_family *all = fc_families(&count);

    for (size_t i = 0; i < count && nfam < CAL_MAX_FAM; i++)
        if (all[i].workload != NULL && all[i].kernel_param != NULL)
            families[nfam++] =
                (family){all[i].bit, all[i].name, all[i].kernel_param,
                         (int)all[i].rsa_bits};
}

/* Masks that make another of our kernels the provider's pick; each kept
 * only if it changes some family's kernel. */
#if defined(__aarch64__)
static const char *const tier_masks[] = {"sha3", "pmull", "aes"};
#else
static const char *const tier_masks[] = {
    "avx512", "vaes", "avx", "ifma", "ifma,bmi2", "ifma,bmi2,adx,avx2"};
#endif
#define NMASKS (sizeof(tier_masks) / sizeof(tier_masks[0]))

/* One library context: default and fastcrypto activated under a mask. */
typedef struct tier_env {
    char mask[64]; /* the tier's own mask ("" for the provider's pick) */
    OSSL_LIB_CTX *lib;
    OSSL_PROVIDER *fc, *df;
    char impl[CAL_MAX_FAM][96]; /* our kernel of each family here */
} tier_env;

static const char *module_dir;
/* --self: the noise floor, fastcrypto on both sides of every pair. */
static int self_mode;
static const char *dflt_propq = "provider=default";

static int get_str(OSSL_PROVIDER *p, const char *name, char *buf, size_t len)
{
    OSSL_PARAM prm[2] = {OSSL_PARAM_construct_utf8_string(name, buf, len),
                         OSSL_PARAM_construct_end()};

    buf[0] = '\0';
    prm[0].return_size = OSSL_PARAM_UNMODIFIED;
    if (OSSL_PROVIDER_get_params(p, prm) && OSSL_PARAM_modified(&prm[0]))
        return 1;
    /* Parameters handed out as pointers (OSSL_PARAM_UTF8_PTR). */
    {
        const char *ptr = NULL;
        OSSL_PARAM q[2] = {
            OSSL_PARAM_construct_utf8_ptr(name, (char **)&ptr, 0),
            OSSL_PARAM_construct_end()};

        q[0].return_size = OSSL_PARAM_UNMODIFIED;
        if (OSSL_PROVIDER_get_params(p, q) && OSSL_PARAM_modified(&q[0]) &&
            ptr != NULL) {
            snprintf(buf, len, "%s", ptr);
            return 1;
        }
    }
    ERR_clear_error();
    return 0;
}

/* The RSA engine the provider takes for |bits|-bit keys: the first of its
 * order ("ifma,mulx,avx2,generic") whose CRT exponentiation takes halves
 * of bits/2. */
static void rsa_engine_for(const char *order, int bits, char *out, size_t len)
{
    size_t n = 0, limbs = (size_t)bits / 128;
    const fc_rsa_engine *const *all = fc_rsa_engine_impls(&n);
    char list[96], *save = NULL;

    char tag[16];
    const char *pref;

    /* A preference for this size ("/2048:avx2", fc_rsa_engines_prefer)
     * comes first; the order ends at the first '/'. */
    snprintf(tag, sizeof(tag), "/%d:", bits);
    if ((pref = strstr(order, tag)) != NULL) {
        pref += strlen(tag);
        snprintf(out, len, "%.*s", (int)strcspn(pref, "/"), pref);
        return;
    }
    snprintf(out, len, "?");
    snprintf(list, sizeof(list), "%.*s", (int)strcspn(order, "/"), order);
    for (char *t = strtok_r(list, ",", &save); t != NULL;
         t = strtok_r(NULL, ",", &save))
        for (size_t i = 0; i < n; i++)
            if (strcmp(all[i]->name, t) == 0 &&
                fc_rsa_engine_takes(all[i], limbs, limbs)) {
                snprintf(out, len, "%s", t);
                return;
            }
}

/* Loads default and fastcrypto into a new context, fastcrypto activated
 * with FASTCRYPTO_OFFER=|offer| (NULL: unset) and the process's mask plus
 * |mask|. */
static int tier_load(tier_env *t, const char *mask, const char *offer)
{
    const char *um = getenv(FC_CPU_MASK_ENV), *uo = getenv(FC_OFFER_ENV);
    char *save_m = um ? strdup(um) : NULL, *save_o = uo ? strdup(uo) : NULL;
    char spec[160];

    memset(t, 0, sizeof(*t));
    snprintf(t->mask, sizeof(t->mask), "%s", mask);
    if (mask[0] != '\0') {
        snprintf(spec, sizeof(spec), "%s%s%s", um ? um : "", um ? "," : "",
                 mask);
        setenv(FC_CPU_MASK_ENV, spec, 1);
    }
    if (offer != NULL)
        setenv(FC_OFFER_ENV, offer, 1);
    else
        unsetenv(FC_OFFER_ENV);
    t->lib = OSSL_LIB_CTX_new();
    if (t->lib != NULL && module_dir != NULL)
        OSSL_PROVIDER_set_default_search_path(t->lib, module_dir);
    if (t->lib != NULL) {
        t->df = OSSL_PROVIDER_load(t->lib, "default");
        t->fc = OSSL_PROVIDER_load(t->lib, FC_NAME);
    }
    save_m ? setenv(FC_CPU_MASK_ENV, save_m, 1) : unsetenv(FC_CPU_MASK_ENV);
    save_o ? setenv(FC_OFFER_ENV, save_o, 1) : unsetenv(FC_OFFER_ENV);
    free(save_m);
    free(save_o);
    if (t->fc == NULL || t->df == NULL) {
        fprintf(stderr,
                "fastcrypto-calibrate: cannot load default and %s "
                "(mask '%s'; --module PATH, or OPENSSL_MODULES)\n",
                FC_NAME, mask);
        ERR_print_errors_fp(stderr);
        return 0;
    }
    for (size_t f = 0; f < nfam; f++) {
        char v[96];

        if (!get_str(t->fc, families[f].param, v, sizeof(v)))
            snprintf(v, sizeof(v), "?");
        if (families[f].rsa_bits != 0)
            rsa_engine_for(v, families[f].rsa_bits, t->impl[f],
                           sizeof(t->impl[f]));
        else
            snprintf(t->impl[f], sizeof(t->impl[f]), "%s", v);
    }
    return 1;
}

static void tier_free(tier_env *t)
{
    if (t->fc != NULL)
        OSSL_PROVIDER_unload(t->fc);
    if (t->df != NULL)
        OSSL_PROVIDER_unload(t->df);
    OSSL_LIB_CTX_free(t->lib);
    memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------------------ */
/* The machine's key (fc/wisdom.h). */

/* ------------------------------------------------------------------------ */
/* Workloads. */

typedef enum {
    W_GCM_SEAL,
    W_GCM_OPEN,
    W_CBC_DEC,
    W_CBC_DEC_PAD, /* CBC decryption as EVP_DecryptUpdate with padding on */
    W_CBC_SMALL,
    W_CTR,
    W_DRBG,
    W_MTE_SEAL,
    W_MTE_OPEN,
    W_RSA_SIGN,
} wkind;

typedef struct wl {
    wkind kind;
    size_t len; /* record, call or message bytes; rsa: modulus bits */
    size_t iters;
    OSSL_LIB_CTX *lib;
    char propq[2][32];
    EVP_CIPHER *cipher[2];
    EVP_CIPHER_CTX *ctx[2];
    unsigned char key[32], iv[16], mk[32], aad[13];
    unsigned char *in, *out;
    unsigned char tag[CAL_POOL][16];
    /* cbc-small: per message a key and IV, a length and an offset */
    unsigned char *keys;
    size_t mlen[64], moff[64];
    /* cbc-hmac */
    size_t rec, maclen;
    /* drbg */
    EVP_RAND_CTX *parent[2], *drbg[2];
    /* rsa */
    EVP_PKEY *pkey[2];
    EVP_MD_CTX *mctx[2];
    unsigned char sig[512];
} wl;

static void gcm_nonce(const wl *w, size_t seq, unsigned char n[12])
{
    memcpy(n, w->iv, 12);
    n[11] ^= (unsigned char)seq;
}

static void gcm_seal(wl *w, int s, size_t seq, const unsigned char *in,
                     unsigned char *tag)
{
    unsigned char n[12];
    int l1, l2, la;

    gcm_nonce(w, seq, n);
    if (!EVP_EncryptInit_ex(w->ctx[s], NULL, NULL, NULL, n) ||
        !EVP_EncryptUpdate(w->ctx[s], NULL, &la, w->aad, 13) ||
        !EVP_EncryptUpdate(w->ctx[s], w->out, &l1, in, (int)w->len) ||
        !EVP_EncryptFinal_ex(w->ctx[s], w->out + l1, &l2) ||
        EVP_CIPHER_CTX_ctrl(w->ctx[s], EVP_CTRL_AEAD_GET_TAG, 16, tag) <= 0)
        die("GCM seal");
}

static void mte_hdr(unsigned char hdr[13], size_t seq, size_t len)
{
    memset(hdr, 0, 8);
    hdr[7] = (unsigned char)seq;
    hdr[8] = 0x17;
    hdr[9] = 0x03;
    hdr[10] = 0x03;
    hdr[11] = (unsigned char)(len >> 8);
    hdr[12] = (unsigned char)len;
}

/* Side |s|'s context as libssl sets one up (key, IV, MAC key, version). */
static void mte_keys(wl *w, int s, int enc)
{
    int version = 0x0303;
    OSSL_PARAM prm[2] = {
        OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_TLS_VERSION, &version),
        OSSL_PARAM_construct_end()};

    if (!EVP_CipherInit_ex(w->ctx[s], w->cipher[s], NULL, w->key, w->iv, enc) ||
        EVP_CIPHER_CTX_ctrl(w->ctx[s], EVP_CTRL_AEAD_SET_MAC_KEY,
                            (int)w->maclen, w->mk) <= 0 ||
        !EVP_CIPHER_CTX_set_params(w->ctx[s], prm))
        die("CBC-HMAC context setup");
}

/* Seals payload |j| as record |j| into w->out (rec bytes, in place). */
static void mte_seal(wl *w, int s, size_t j)
{
    unsigned char hdr[13];
    int outl;

    memcpy(w->out, w->in + j * (16 + w->len), 16 + w->len);
    mte_hdr(hdr, j, 16 + w->len);
    if (EVP_CIPHER_CTX_ctrl(w->ctx[s], EVP_CTRL_AEAD_TLS1_AAD, 13, hdr) !=
            (int)(w->rec - 16 - w->len) ||
        !EVP_CipherUpdate(w->ctx[s], w->out, &outl, w->out, (int)w->rec) ||
        (size_t)outl != w->rec)
        die("CBC-HMAC seal");
}

static void drbg_restart(wl *w, int s)
{
    static const unsigned char ent[48] = "fastcrypto-calibrate: entropy";
    static const unsigned char nonce[16] = "calibrate nonce";
    static const unsigned char pers[] = "fastcrypto-calibrate";
    unsigned int never = 0;
    OSSL_PARAM tp[3], dp[2];

    tp[0] = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_ENTROPY,
                                              (void *)ent, sizeof(ent));
    tp[1] = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_NONCE,
                                              (void *)nonce, sizeof(nonce));
    tp[2] = OSSL_PARAM_construct_end();
    dp[0] = OSSL_PARAM_construct_uint(OSSL_DRBG_PARAM_RESEED_REQUESTS, &never);
    dp[1] = OSSL_PARAM_construct_end();
    EVP_RAND_uninstantiate(w->drbg[s]);
    EVP_RAND_uninstantiate(w->parent[s]);
    if (!EVP_RAND_instantiate(w->parent[s], 256, 0, NULL, 0, tp) ||
        !EVP_RAND_CTX_set_params(w->drbg[s], dp) ||
        !EVP_RAND_instantiate(w->drbg[s], 256, 0, pers, sizeof(pers), NULL))
        die("DRBG instantiate");
}

static void rsa_sign(wl *w, int s, size_t *siglen)
{
    EVP_PKEY_CTX *pctx = NULL;

    *siglen = sizeof(w->sig);
    if (!EVP_DigestSignInit_ex(w->mctx[s], &pctx, "SHA256", w->lib, w->propq[s],
                               w->pkey[s], NULL) ||
        EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) <= 0 ||
        !EVP_DigestSign(w->mctx[s], w->sig, siglen, w->in, 100))
        die("EVP_DigestSign (RSA PKCS#1 v1.5)");
}

/* Runs |iters| operations of |w| on side |s|; *ns gets the time taken and
 * the return value digests the output (the same for both sides). */
static uint64_t wl_once(wl *w, int s, size_t iters, double *ns)
{
    EVP_CIPHER_CTX *ctx = w->ctx[s];
    unsigned char n[12], hdr[13];
    uint64_t h = 0;
    double t0;
    int l1, l2, la;
    size_t siglen = 0;

    switch (w->kind) { /* per-sample set-up, not timed */
    case W_CBC_DEC:
    case W_CTR:
        if (!EVP_CipherInit_ex(ctx, w->cipher[s], NULL, w->key, w->iv,
                               w->kind == W_CTR) ||
            !EVP_CIPHER_CTX_set_padding(ctx, 0))
            die("EVP_CipherInit_ex");
        break;
    case W_CBC_DEC_PAD: /* padding on: each update holds one block back */
        if (!EVP_DecryptInit_ex(ctx, w->cipher[s], NULL, w->key, w->iv))
            die("EVP_DecryptInit_ex");
        break;
    case W_CBC_SMALL:
        if (!EVP_EncryptInit_ex(ctx, w->cipher[s], NULL, NULL, NULL))
            die("EVP_EncryptInit_ex");
        break;
    case W_MTE_SEAL:
    case W_MTE_OPEN:
        mte_keys(w, s, w->kind == W_MTE_SEAL);
        break;
    case W_DRBG:
        drbg_restart(w, s);
        break;
    default:
        break;
    }
    t0 = now_ns();
    for (size_t i = 0; i < iters; i++) {
        size_t j = i % CAL_POOL;

        switch (w->kind) {
        case W_GCM_SEAL:
            gcm_seal(w, s, j, w->in + j * w->len, w->tag[0]);
            h = fold16(h, w->tag[0]);
            break;
        case W_GCM_OPEN:
            gcm_nonce(w, j, n);
            if (!EVP_DecryptInit_ex(ctx, NULL, NULL, NULL, n) ||
                EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16,
                                    w->tag[j]) <= 0 ||
                !EVP_DecryptUpdate(ctx, NULL, &la, w->aad, 13) ||
                !EVP_DecryptUpdate(ctx, w->out, &l1, w->in + j * w->len,
                                   (int)w->len) ||
                !EVP_DecryptFinal_ex(ctx, w->out + l1, &l2))
                die("GCM open (tag check)");
            h = fold16(h, w->out + w->len - 16);
            break;
        case W_CBC_DEC:
        case W_CTR:
            if (!EVP_CipherUpdate(ctx, w->out, &l1, w->in, (int)w->len) ||
                (size_t)l1 != w->len)
                die("EVP_CipherUpdate");
            break;
        case W_CBC_DEC_PAD:
            /* The first call returns nothing, each later one the block
             * held back by the one before. */
            if (!EVP_DecryptUpdate(ctx, w->out, &l1, w->in, (int)w->len) ||
                (size_t)l1 != (i == 0 ? w->len - 16 : w->len))
                die("EVP_DecryptUpdate");
            break;
        case W_CBC_SMALL: {
            size_t m = i % 64;
            const unsigned char *k = w->keys + m * 48;

            if (!EVP_EncryptInit_ex(ctx, NULL, NULL, k, k + 32) ||
                !EVP_EncryptUpdate(ctx, w->out, &l1, w->in + w->moff[m],
                                   (int)w->mlen[m]) ||
                !EVP_EncryptFinal_ex(ctx, w->out + l1, &l2))
                die("CBC encrypt");
            h = fold16(h, w->out + l1 + l2 - 16);
            break;
        }
        case W_DRBG:
            if (!EVP_RAND_generate(w->drbg[s], w->out, w->len, 256, 0, NULL, 0))
                die("EVP_RAND_generate");
            break;
        case W_MTE_SEAL:
            mte_seal(w, s, j);
            h = fold16(h, w->out + w->rec - 16);
            break;
        case W_MTE_OPEN:
            /* Both sides pay the copy of the sealed record. */
            memcpy(w->out, w->in + j * w->rec, w->rec);
            mte_hdr(hdr, j, w->rec);
            if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr) <=
                    0 ||
                !EVP_CipherUpdate(ctx, w->out, &l1, w->out, (int)w->rec) ||
                (size_t)l1 != w->len)
                die("CBC-HMAC open");
            h = fold16(h, w->out + 16 + w->len - 16);
            break;
        case W_RSA_SIGN:
            rsa_sign(w, s, &siglen);
            break;
        }
    }
    *ns = now_ns() - t0;
    if (w->kind == W_CBC_DEC || w->kind == W_CBC_DEC_PAD || w->kind == W_CTR ||
        w->kind == W_DRBG)
        h = fold16(h, w->out + w->len - 16);
    if (w->kind == W_RSA_SIGN)
        h = fold16(h, w->sig + siglen - 16);
    return h;
}

static EVP_CIPHER *fetch(const tier_env *t, const char *name, int s)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(
        t->lib, name, s == OURS ? "provider=" FC_NAME : dflt_propq);

    if (c == NULL) {
        fprintf(stderr, "fastcrypto-calibrate: no %s in %s\n", name,
                s == OURS ? FC_NAME : "default");
        die("EVP_CIPHER_fetch");
    }
    return c;
}

static EVP_PKEY *rsa_key(const tier_env *t, int bits, int s)
{
    const char *pem = bits == 2048   ? fc_cal_key2048
                      : bits == 3072 ? fc_cal_key3072
                                     : fc_cal_key4096;
    BIO *b = BIO_new_mem_buf(pem, -1);
    EVP_PKEY *k = NULL, *ours = NULL;
    EVP_PKEY_CTX *kc = NULL;
    OSSL_PARAM *prm = NULL;

    if (b == NULL ||
        (k = PEM_read_bio_PrivateKey_ex(b, NULL, NULL, NULL, t->lib,
                                        "provider=default")) == NULL)
        die("reading the RSA key");
    BIO_free(b);
    if (s == DFLT && !self_mode)
        return k;
    /* As libcrypto hands a key to another provider: export, import. */
    if (!EVP_PKEY_todata(k, EVP_PKEY_KEYPAIR, &prm) ||
        (kc = EVP_PKEY_CTX_new_from_name(t->lib, "RSA", "provider=" FC_NAME)) ==
            NULL ||
        EVP_PKEY_fromdata_init(kc) <= 0 ||
        EVP_PKEY_fromdata(kc, &ours, EVP_PKEY_KEYPAIR, prm) <= 0)
        die("importing the RSA key into " FC_NAME);
    OSSL_PARAM_free(prm);
    EVP_PKEY_CTX_free(kc);
    EVP_PKEY_free(k);
    return ours;
}

/* Sets |w| up on both sides of |t|. */
static void wl_setup(wl *w, const tier_env *t, wkind kind, const char *alg,
                     size_t len)
{
    uint64_t rng = 0x63616c6962726174u ^ (uint64_t)kind ^ len;

    memset(w, 0, sizeof(*w));
    w->kind = kind;
    w->len = len;
    w->lib = t->lib;
    snprintf(w->propq[OURS], sizeof(w->propq[OURS]), "provider=%s", FC_NAME);
    snprintf(w->propq[DFLT], sizeof(w->propq[DFLT]), "%s", dflt_propq);
    fill(&rng, w->key, sizeof(w->key));
    fill(&rng, w->iv, sizeof(w->iv));
    fill(&rng, w->mk, sizeof(w->mk));
    fill(&rng, w->aad, sizeof(w->aad));
    w->in = xmalloc(CAL_POOL * (len + 64) + 4096);
    w->out = xmalloc(len + 4096);
    fill(&rng, w->in, CAL_POOL * (len + 64) + 4096);
    for (int s = 0; s < 2; s++) {
        if (kind == W_RSA_SIGN) {
            w->pkey[s] = rsa_key(t, (int)len, s);
            if ((w->mctx[s] = EVP_MD_CTX_new()) == NULL)
                die("EVP_MD_CTX_new");
            continue;
        }
        if (kind == W_DRBG) {
            EVP_RAND *tr =
                EVP_RAND_fetch(t->lib, "TEST-RAND", "provider=default");
            EVP_RAND *dr = EVP_RAND_fetch(t->lib, "CTR-DRBG", w->propq[s]);
            unsigned int strength = 256;
            int df = 1;
            OSSL_PARAM tp[2], dp[3];

            if (tr == NULL || dr == NULL)
                die("EVP_RAND_fetch (TEST-RAND, CTR-DRBG)");
            w->parent[s] = EVP_RAND_CTX_new(tr, NULL);
            w->drbg[s] =
                w->parent[s] ? EVP_RAND_CTX_new(dr, w->parent[s]) : NULL;
            EVP_RAND_free(tr);
            EVP_RAND_free(dr);
            tp[0] =
                OSSL_PARAM_construct_uint(OSSL_RAND_PARAM_STRENGTH, &strength);
            tp[1] = OSSL_PARAM_construct_end();
            dp[0] = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER,
                                                     "AES-256-CTR", 0);
            dp[1] = OSSL_PARAM_construct_int(OSSL_DRBG_PARAM_USE_DF, &df);
            dp[2] = OSSL_PARAM_construct_end();
            if (w->drbg[s] == NULL ||
                !EVP_RAND_CTX_set_params(w->parent[s], tp) ||
                !EVP_RAND_CTX_set_params(w->drbg[s], dp))
                die("DRBG setup");
            continue;
        }
        w->cipher[s] = fetch(t, alg, s);
        if ((w->ctx[s] = EVP_CIPHER_CTX_new()) == NULL)
            die("EVP_CIPHER_CTX_new");
        if ((kind == W_GCM_SEAL || kind == W_GCM_OPEN) &&
            !EVP_CipherInit_ex(w->ctx[s], w->cipher[s], NULL, w->key, NULL,
                               kind == W_GCM_SEAL))
            die("EVP_CipherInit_ex (GCM key)");
    }
    if (kind == W_GCM_OPEN) {
        /* The records to open, sealed by default, kept in place. */
        wl tmp = *w;

        if (!EVP_CipherInit_ex(tmp.ctx[OURS] = EVP_CIPHER_CTX_new(),
                               w->cipher[DFLT], NULL, w->key, NULL, 1))
            die("EVP_CipherInit_ex (GCM key)");
        for (size_t j = 0; j < CAL_POOL; j++) {
            gcm_seal(&tmp, OURS, j, w->in + j * len, w->tag[j]);
            memcpy(w->in + j * len, w->out, len);
        }
        EVP_CIPHER_CTX_free(tmp.ctx[OURS]);
    }
    if (kind == W_CBC_SMALL) {
        free(w->keys);
        w->keys = xmalloc(64 * 48);
        fill(&rng, w->keys, 64 * 48);
        for (size_t m = 0; m < 64; m++) {
            unsigned char r[4];

            fill(&rng, r, sizeof(r));
            w->mlen[m] = 47 + ((size_t)r[0] | (size_t)r[1] << 8) % 2002;
            w->moff[m] = ((size_t)r[2] | (size_t)r[3] << 8) % 2048;
        }
    }
    if (kind == W_MTE_SEAL || kind == W_MTE_OPEN) {
        w->maclen = strstr(alg, "SHA256") != NULL ? 32 : 20;
        w->rec = (16 + len + w->maclen + 16) & ~(size_t)15;
    }
    if (kind == W_MTE_OPEN) {
        /* The records to open, sealed by default. */
        unsigned char *sealed = xmalloc(CAL_POOL * w->rec);

        mte_keys(w, DFLT, 1);
        for (size_t j = 0; j < CAL_POOL; j++) {
            mte_seal(w, DFLT, j);
            memcpy(sealed + j * w->rec, w->out, w->rec);
        }
        free(w->in);
        w->in = sealed;
    }
}

static void wl_free(wl *w)
{
    for (int s = 0; s < 2; s++) {
        EVP_CIPHER_free(w->cipher[s]);
        EVP_CIPHER_CTX_free(w->ctx[s]);
        EVP_RAND_CTX_free(w->drbg[s]);
        EVP_RAND_CTX_free(w->parent[s]);
        EVP_PKEY_free(w->pkey[s]);
        EVP_MD_CTX_free(w->mctx[s]);
    }
    free(w->in);
    free(w->out);
    free(w->keys);
}

/* The workloads of family |f|: fills |w| and |names|, returns how many. */
static size_t family_workloads(size_t f, const tier_env *t, wl *w,
                               fc_cal_series *ser)
{
    static const size_t gcm_len[3] = {16, 1350, 16384};
    size_t n = 0;

#define WL(kind, alg, len, label)                                              \
    do {                                                                       \
        wl_setup(&w[n], t, kind, alg, len);                                    \
        snprintf(ser[n].name, sizeof(ser[n].name), "%s", label);               \
        n++;                                                                   \
    } while (0)
    switch (families[f].bit) {
    case FC_OFFER_GCM:
        for (size_t i = 0; i < 3; i++) {
            char a[32], b[32];

            snprintf(a, sizeof(a), "seal-%zu", gcm_len[i]);
            snprintf(b, sizeof(b), "open-%zu", gcm_len[i]);
            WL(W_GCM_SEAL, "AES-256-GCM", gcm_len[i], a);
            WL(W_GCM_OPEN, "AES-256-GCM", gcm_len[i], b);
        }
        break;
    case FC_OFFER_CBC:
        WL(W_CBC_DEC_PAD, "AES-256-CBC", 16, "dec-16-padded");
        WL(W_CBC_DEC, "AES-256-CBC", 16384, "dec-16384");
        WL(W_CBC_SMALL, "AES-256-CBC", 2048, "enc-47..2048-fresh-key");
        break;
    case FC_OFFER_CTR:
        WL(W_CTR, "AES-256-CTR", 16, "16");
        WL(W_CTR, "AES-256-CTR", 16384, "16384");
        break;
    case FC_OFFER_DRBG:
        WL(W_DRBG, NULL, 16, "generate-16");
        WL(W_DRBG, NULL, 4096, "generate-4096");
        break;
    case FC_OFFER_CBC_HMAC:
        WL(W_MTE_SEAL, "AES-128-CBC-HMAC-SHA1", 1350, "sha1-seal-1350");
        WL(W_MTE_OPEN, "AES-128-CBC-HMAC-SHA1", 1350, "sha1-open-1350");
        WL(W_MTE_SEAL, "AES-128-CBC-HMAC-SHA256", 1350, "sha256-seal-1350");
        WL(W_MTE_OPEN, "AES-128-CBC-HMAC-SHA256", 1350, "sha256-open-1350");
        break;
    default: /* a family with a workload and no code for it: none */
        if (families[f].rsa_bits != 0)
            WL(W_RSA_SIGN, NULL, (size_t)families[f].rsa_bits,
               "sign-pkcs1-sha256");
        break;
    }
#undef WL
    return n;
}

/* Iterations for a sample of about CAL_SAMPLE_NS on the slower side (a
 * tier far behind costs no more than one far ahead), after checking that
 * both sides produce the same output. */
static size_t wl_calibrate(wl *w, const char *fam, const char *label)
{
    double ns = 0, other = 0;
    size_t it;

    if (wl_once(w, OURS, 2, &ns) != wl_once(w, DFLT, 2, &ns)) {
        fprintf(stderr,
                "fastcrypto-calibrate: %s %s: fastcrypto's output differs "
                "from default's\n",
                fam, label);
        exit(1);
    }
    for (it = 1;; it *= 2) {
        wl_once(w, DFLT, it, &ns);
        wl_once(w, OURS, it, &other);
        ns = ns > other ? ns : other;
        if (ns >= CAL_SAMPLE_NS / 4 || it >= ((size_t)1 << 24))
            break;
    }
    it = (size_t)((double)it * CAL_SAMPLE_NS / (ns > 1 ? ns : 1));
    return it < 1 ? 1 : it;
}

/* Measures the workloads |w| of one (family, tier) until |deadline|, at
 * least FC_CAL_MIN_ROUNDS rounds. */
static void measure(wl *w, fc_cal_series *ser, size_t n, const char *fam,
                    double deadline)
{
    for (size_t r = 0; r < CAL_MAX_ROUNDS; r++) {
        for (size_t k = 0; k < n; k++) {
            double t[2];
            uint64_t h[2];
            int first = (int)(r & 1);

            h[first] = wl_once(&w[k], first, w[k].iters, &t[first]);
            h[!first] = wl_once(&w[k], !first, w[k].iters, &t[!first]);
            if (h[0] != h[1]) {
                fprintf(stderr, "fastcrypto-calibrate: %s %s: outputs differ\n",
                        fam, ser[k].name);
                exit(1);
            }
            if (!fc_cal_series_add(&ser[k], t[OURS], t[DFLT]))
                die("recording a round");
        }
        if (r + 1 >= FC_CAL_MIN_ROUNDS && now_ns() >= deadline)
            break;
    }
}

/* ------------------------------------------------------------------------ */
/* Results, table, wisdom. */

typedef struct tier_result {
    char ours[96];
    char mask[64];
    fc_cal_result r;
    char worst[48];
    double ms;
    int done;
} tier_result;

typedef struct fam_result {
    tier_result tier[CAL_MAX_TIERS];
    size_t ntiers;
    size_t pick; /* the tier the record stands for: 0, or one picked */
    int table;   /* the table's decision: 1 offer, 0 no, -1 unknown */
} fam_result;

/* The tier that runs: the provider's own (0) unless another measured
 * ahead of it by the tier rule (fc_cal_picked); the fastest such. */
static size_t fam_pick(const fam_result *fr, const family *fam)
{
    size_t best = 0;

    if ((fam->bit & FC_WISDOM_PICKABLE) == 0 || fr->ntiers == 0 ||
        !fr->tier[0].done)
        return 0;
    for (size_t i = 1; i < fr->ntiers; i++)
        if (fr->tier[i].done && fc_cal_picked(&fr->tier[0].r, &fr->tier[i].r) &&
            (best == 0 || fr->tier[i].r.median > fr->tier[best].r.median))
            best = i;
    return best;
}

static int table_offers(const char *offer, const char *fam)
{
    char buf[256], *save = NULL;

    snprintf(buf, sizeof(buf), "%s", offer);
    if (strcmp(buf, "all") == 0)
        return 1;
    for (char *t = strtok_r(buf, " ", &save); t != NULL;
         t = strtok_r(NULL, " ", &save))
        if (strcmp(t, fam) == 0)
            return 1;
    return 0;
}

static void print_table(const fam_result *res, const int *sel, const char *dver,
                        int verbose_tiers)
{
    printf("%-9s %-18s %-8s %7s %7s %6s  %-8s %-6s %s\n", "family", "ours",
           "default", "median", "q1", "rounds", "decision", "table",
           "worst workload");
    for (size_t f = 0; f < nfam; f++) {
        const fam_result *fr = &res[f];
        const tier_result *p = &fr->tier[fr->pick];
        size_t best = 0;

        if (!sel[f] || fr->ntiers == 0 || !p->done)
            continue;
        printf("%-9s %-18s %-8s %7.3f %7.3f %6zu  %-8s %-6s %s\n",
               families[f].name, p->ours, dver, p->r.median, p->r.q1,
               p->r.rounds, p->r.offer ? "offer" : "no",
               fr->table < 0 ? "-"
               : fr->table   ? "offer"
                             : "no",
               p->worst);
        for (size_t i = 0; i < fr->ntiers; i++) {
            const tier_result *q = &fr->tier[i];

            if (!q->done)
                continue;
            if (verbose_tiers && i != fr->pick)
                printf("  %-7s %-18s %-8s %7.3f %7.3f %6zu  (%s, mask=%s) %s\n",
                       "tier", q->ours, dver, q->r.median, q->r.q1, q->r.rounds,
                       q->r.offer ? "would offer" : "would not", q->mask,
                       q->worst);
            if (q->r.median > fr->tier[best].r.median)
                best = i;
        }
        if (fr->ntiers > 1 && fr->pick != 0)
            printf("  %-7s %s picked: ahead of the provider's own %s by the "
                   "tier rule; the wisdom runs it first\n",
                   "tier", p->ours, fr->tier[0].ours);
        else if (fr->ntiers > 1)
            printf("  %-7s %s measured fastest of %zu tiers%s\n", "tier",
                   fr->tier[best].ours, fr->ntiers,
                   best == 0 ? " (the provider's own)"
                   : (families[f].bit & FC_WISDOM_PICKABLE) != 0
                       ? " (not by the tier rule's margin: the provider's "
                         "own stays)"
                       : " (this family's kernel is not picked by wisdom)");
    }
}

static int write_wisdom(const char *path, const char *key,
                        const fam_result *res, const int *sel, const char *dver,
                        int dry_run)
{
    char *text = xmalloc(FC_WISDOM_MAX_BYTES), err[256];
    size_t used = 0;
    int n;

    n = snprintf(text, FC_WISDOM_MAX_BYTES,
                 "%s\nkey %s\n# fastcrypto-calibrate: default (OpenSSL %s) "
                 "against fastcrypto; offer iff q1 >= %.2f and median >= "
                 "%.2f\n",
                 FC_WISDOM_MAGIC, key, dver, FC_CAL_Q1_MIN, FC_CAL_MEDIAN_MIN);
    used = (size_t)n;
    for (size_t f = 0; f < nfam; f++) {
        const tier_result *p = &res[f].tier[res[f].pick];
        char rec[FC_WISDOM_MAX_LINE];

        if (!sel[f] || res[f].ntiers == 0 || !p->done)
            continue;
        if (!fc_cal_record(rec, sizeof(rec), families[f].name, &p->r, p->ours,
                           dver, (unsigned long)(p->ms + 0.5),
                           res[f].pick != 0 ? p->ours : NULL) ||
            used + strlen(rec) + 2 > FC_WISDOM_MAX_BYTES) {
            fprintf(stderr, "fastcrypto-calibrate: record of %s too long\n",
                    families[f].name);
            free(text);
            return 0;
        }
        used += (size_t)snprintf(text + used, FC_WISDOM_MAX_BYTES - used,
                                 "%s\n", rec);
    }
    if (dry_run) {
        printf("\n--dry-run: would write %s:\n%s", path, text);
        free(text);
        return 1;
    }
    if (!fc_cal_write_atomic(path, text, used, err, sizeof(err))) {
        fprintf(stderr, "fastcrypto-calibrate: %s\n", err);
        free(text);
        return 0;
    }
    printf("\nwrote %s\n", path);
    free(text);
    return 1;
}

static int family_index(const char *name)
{
    for (size_t f = 0; f < nfam; f++)
        if (strcmp(families[f].name, name) == 0)
            return (int)f;
    return -1;
}

/* --test-timings: one line per round, "FAMILY[:WORKLOAD] OURS DEFAULT". */
static int load_timings(const char *path, fam_result *res, int *sel,
                        fc_cal_series ser[CAL_MAX_FAM][CAL_MAX_WL],
                        size_t nser[CAL_MAX_FAM])
{
    FILE *fp = fopen(path, "r");
    char line[256];
    int lineno = 0;

    if (fp == NULL) {
        fprintf(stderr, "fastcrypto-calibrate: %s: %s\n", path,
                strerror(errno));
        return 0;
    }
    while (fgets(line, sizeof(line), fp) != NULL) {
        char name[96], *colon;
        const char *wname;
        double o, d;
        int f;
        size_t k;

        lineno++;
        if (line[0] == '#' || strspn(line, " \t\r\n") == strlen(line))
            continue;
        if (sscanf(line, "%95s %lf %lf", name, &o, &d) != 3)
            goto bad;
        colon = strchr(name, ':');
        wname = colon != NULL ? colon + 1 : "injected";
        if (colon != NULL)
            *colon = '\0';
        if ((f = family_index(name)) < 0)
            goto bad;
        for (k = 0; k < nser[f]; k++)
            if (strcmp(ser[f][k].name, wname) == 0)
                break;
        if (k == nser[f]) {
            if (k == CAL_MAX_WL)
                goto bad;
            snprintf(ser[f][k].name, sizeof(ser[f][k].name), "%s", wname);
            nser[f]++;
        }
        if (!fc_cal_series_add(&ser[f][k], o, d))
            goto bad;
        sel[f] = 1;
        res[f].ntiers = 1;
        snprintf(res[f].tier[0].ours, sizeof(res[f].tier[0].ours), "injected");
        res[f].table = -1;
    }
    fclose(fp);
    return 1;
bad:
    fprintf(stderr,
            "fastcrypto-calibrate: %s:%d: not \"FAMILY[:WORKLOAD] OURS_NS "
            "DEFAULT_NS\" with a known family and positive times\n",
            path, lineno);
    fclose(fp);
    return 0;
}

/*
 * --check: is the wisdom file the provider would read valid for this
 * machine? fastcrypto is activated as programs have it (no forced offer)
 * with FASTCRYPTO_WISDOM set to |path| if given, and its own verdict is
 * read back: "fastcrypto-wisdom" is the bare path when the file was used,
 * else "PATH: reason". Returns 0 if valid, 1 if missing, foreign or
 * broken (the reason printed), 2 if fastcrypto cannot be loaded.
 */
static int check_wisdom(const char *path)
{
    const char *uo = getenv(FC_OFFER_ENV);
    char *save_o = uo ? strdup(uo) : NULL, state[FC_WISDOM_REASON_MAX + 512];
    char from[32], key[FC_WISDOM_KEY_MAX + 64];
    OSSL_LIB_CTX *lib;
    OSSL_PROVIDER *fc = NULL;
    int rc;

    if (path != NULL)
        setenv(FC_WISDOM_ENV, path, 1);
    path = fc_wisdom_path(NULL);
    unsetenv(FC_OFFER_ENV);
    if ((lib = OSSL_LIB_CTX_new()) != NULL) {
        if (module_dir != NULL)
            OSSL_PROVIDER_set_default_search_path(lib, module_dir);
        fc = OSSL_PROVIDER_load(lib, FC_NAME);
    }
    save_o ? setenv(FC_OFFER_ENV, save_o, 1) : unsetenv(FC_OFFER_ENV);
    free(save_o);
    if (fc == NULL || !get_str(fc, "fastcrypto-wisdom", state, sizeof(state))) {
        fprintf(stderr,
                "fastcrypto-calibrate: cannot load %s, or it does not "
                "report its wisdom (--module PATH, or OPENSSL_MODULES)\n",
                FC_NAME);
        ERR_print_errors_fp(stderr);
        if (fc != NULL)
            OSSL_PROVIDER_unload(fc);
        OSSL_LIB_CTX_free(lib);
        return 2;
    }
    if (!get_str(fc, "fastcrypto-offer-from", from, sizeof(from)))
        snprintf(from, sizeof(from), "?");
    if (!get_str(fc, CAL_PARAM_KEY, key, sizeof(key)))
        snprintf(key, sizeof(key), "?");
    if (strcmp(state, path) == 0) {
        printf("fastcrypto-calibrate: %s: valid for this machine "
               "(offer-from=%s)\n",
               path, from);
        rc = 0;
    } else {
        printf("fastcrypto-calibrate: %s (offer-from=%s)\n"
               "  this machine's key: %s\n"
               "  run fastcrypto-calibrate to measure this machine\n",
               state, from, key);
        rc = 1;
    }
    OSSL_PROVIDER_unload(fc);
    OSSL_LIB_CTX_free(lib);
    return rc;
}

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: fastcrypto-calibrate [--module PATH] [--budget S] "
            "[--quick]\n"
            "           [--out FILE] [--dry-run] [--only FAM,...] "
            "[--verbose]\n"
            "           [--self] [--test-timings FILE [--key KEY]]\n"
            "       fastcrypto-calibrate --check [--out FILE] [--module PATH]\n"
            "Measures fastcrypto against default on this machine and writes "
            "the offer\ndecisions (to FASTCRYPTO_WISDOM's path, else %s).\n"
            "Families:",
            FC_WISDOM_DEFAULT);
    for (size_t f = 0; f < nfam; f++)
        fprintf(fp, " %s", families[f].name);
    fprintf(fp,
            ".\n--check measures nothing: exit 0 if the wisdom the provider "
            "reads (--out FILE,\nelse FASTCRYPTO_WISDOM, else the default) "
            "is valid for this machine, 1 if it\nis missing, foreign or "
            "broken (the reason is printed), 2 on error.\n");
}

int main(int argc, char **argv)
{
    const char *out = FC_WISDOM_DEFAULT, *timings = NULL, *key_arg = NULL;
    const char *only = NULL;
    double budget = 30;
    int quick = 0, dry_run = 0, verbose = 0, check = 0, sel[CAL_MAX_FAM],
        ok = 1;
    int out_set = 0;
    static fam_result res[CAL_MAX_FAM];
    static fc_cal_series ser[CAL_MAX_FAM][CAL_MAX_WL];
    size_t nser[CAL_MAX_FAM];
    char key[FC_WISDOM_KEY_MAX + 64], dver[32], *dir = NULL;
    double start = now_ns();

    families_init();
    memset(nser, 0, sizeof(nser));
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

        if (strcmp(a, "--module") == 0 && v != NULL) {
            const char *slash = strrchr(v, '/');

            if (slash != NULL) {
                dir = strndup(v, (size_t)(slash - v) + (slash == v));
                module_dir = dir;
            }
            i++;
        } else if (strcmp(a, "--budget") == 0 && v != NULL) {
            char *end;

            budget = strtod(v, &end);
            if (*end != '\0' || !(budget > 0) || budget > 3600) {
                fprintf(stderr, "fastcrypto-calibrate: --budget 0..3600\n");
                return 2;
            }
            i++;
        } else if (strcmp(a, "--out") == 0 && v != NULL) {
            out = v;
            out_set = 1;
            i++;
        } else if (strcmp(a, "--test-timings") == 0 && v != NULL) {
            timings = v;
            i++;
        } else if (strcmp(a, "--key") == 0 && v != NULL) {
            key_arg = v;
            i++;
        } else if (strcmp(a, "--only") == 0 && v != NULL) {
            only = v;
            i++;
        } else if (strcmp(a, "--check") == 0) {
            check = 1;
        } else if (strcmp(a, "--quick") == 0) {
            quick = 1;
        } else if (strcmp(a, "--self") == 0) {
            self_mode = 1;
            dflt_propq = "provider=" FC_NAME;
        } else if (strcmp(a, "--dry-run") == 0) {
            dry_run = 1;
        } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            verbose = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (check) {
        int rc = check_wisdom(out_set ? out : NULL);

        free(dir);
        return rc;
    }
    if (quick && budget > 10)
        budget = 10;
    snprintf(dver, sizeof(dver), "%s", OpenSSL_version(OPENSSL_VERSION_STRING));
    if (self_mode)
        snprintf(dver, sizeof(dver), "self");
    for (size_t f = 0; f < nfam; f++) {
        char list[128];

        snprintf(list, sizeof(list), ",%s,", only != NULL ? only : "");
        if (only == NULL) {
            sel[f] = timings == NULL;
        } else {
            char want[40];

            snprintf(want, sizeof(want), ",%s,", families[f].name);
            sel[f] = strstr(list, want) != NULL;
        }
    }

    if (timings != NULL) {
        int want[CAL_MAX_FAM];

        memcpy(want, sel, sizeof(want));
        memset(sel, 0, sizeof(sel));
        if (!load_timings(timings, res, sel, ser, nser))
            return 1;
        for (size_t f = 0; f < nfam; f++) {
            if (only != NULL && !want[f])
                sel[f] = 0;
            if (sel[f] && !fc_cal_family(ser[f], nser[f], &res[f].tier[0].r))
                return 1;
            if (sel[f]) {
                res[f].tier[0].done = 1;
                snprintf(res[f].tier[0].worst, sizeof(res[f].tier[0].worst),
                         "%s", ser[f][res[f].tier[0].r.worst].name);
            }
        }
        if (key_arg != NULL)
            snprintf(key, sizeof(key), "%s", key_arg);
        else
            snprintf(key, sizeof(key),
                     "cpu=injected caps=0x00000000 ossl=0x%08lx fc=injected",
                     (unsigned long)OpenSSL_version_num());
        printf("fastcrypto-calibrate: injected timings from %s\n", timings);
    } else {
        static tier_env tiers[1 + NMASKS];
        tier_env plain;
        char offer[256];
        size_t ntiers = 0, units = 0;
        double weight_left = 0;

        /* The table's decisions: fastcrypto activated as users have it. */
        if (!tier_load(&plain, "", NULL))
            return 1;
        if (!get_str(plain.fc, "fastcrypto-offer", offer, sizeof(offer)))
            snprintf(offer, sizeof(offer), "?");
        if (key_arg != NULL)
            snprintf(key, sizeof(key), "%s", key_arg);
        else if (!get_str(plain.fc, CAL_PARAM_KEY, key, sizeof(key))) {
            /* The provider spells the key (fc/wisdom.h): one it reads. */
            fprintf(stderr,
                    "fastcrypto-calibrate: this fastcrypto.so does "
                    "not report \"%s\" (older than the tool)\n",
                    CAL_PARAM_KEY);
            tier_free(&plain);
            return 1;
        }
        tier_free(&plain);

        if (!tier_load(&tiers[0], "", "all"))
            return 1;
        ntiers = 1;
        for (size_t m = 0; m < NMASKS; m++) {
            tier_env t;
            int fresh = 0;

            if (!tier_load(&t, tier_masks[m], "all"))
                return 1;
            for (size_t f = 0; f < nfam; f++) {
                size_t k;

                for (k = 0; k < ntiers; k++)
                    if (strcmp(tiers[k].impl[f], t.impl[f]) == 0)
                        break;
                fresh |= sel[f] && k == ntiers;
            }
            if (fresh)
                tiers[ntiers++] = t;
            else
                tier_free(&t);
        }
        /* Each family's distinct kernels, first the provider's pick. */
        for (size_t f = 0; f < nfam; f++) {
            res[f].table = table_offers(offer, families[f].name);
            for (size_t k = 0; sel[f] && k < ntiers; k++) {
                size_t i;

                for (i = 0; i < res[f].ntiers; i++)
                    if (strcmp(res[f].tier[i].ours, tiers[k].impl[f]) == 0)
                        break;
                if (i < res[f].ntiers || res[f].ntiers == CAL_MAX_TIERS)
                    continue;
                snprintf(res[f].tier[i].ours, sizeof(res[f].tier[i].ours), "%s",
                         tiers[k].impl[f]);
                snprintf(res[f].tier[i].mask, sizeof(res[f].tier[i].mask),
                         "%.63s", k == 0 ? "none" : tiers[k].mask);
                res[f].ntiers++;
                units++;
                weight_left += i == 0 ? 2 : 1;
            }
        }
        printf("fastcrypto-calibrate: %s; key %s; budget %.0f s over %zu "
               "measurements\n",
               OpenSSL_version(OPENSSL_VERSION), key, budget, units);
        fflush(stdout);

        for (size_t f = 0; f < nfam; f++) {
            for (size_t i = 0; sel[f] && i < res[f].ntiers; i++) {
                tier_result *tr = &res[f].tier[i];
                const tier_env *t = NULL;
                double wgt = i == 0 ? 2 : 1, t0 = now_ns(), left, deadline;
                wl w[CAL_MAX_WL];
                fc_cal_series s[CAL_MAX_WL];
                size_t n;

                for (size_t k = 0; k < ntiers && t == NULL; k++)
                    if (strcmp(tiers[k].impl[f], tr->ours) == 0)
                        t = &tiers[k];
                left = start + budget * 1e9 - t0;
                deadline = t0 + (left > 0 ? left : 0) * wgt / weight_left;
                weight_left -= wgt;
                memset(s, 0, sizeof(s));
                n = family_workloads(f, t, w, s);
                for (size_t k = 0; k < n; k++)
                    w[k].iters =
                        wl_calibrate(&w[k], families[f].name, s[k].name);
                measure(w, s, n, families[f].name, deadline);
                if (fc_cal_family(s, n, &tr->r)) {
                    tr->done = 1;
                    snprintf(tr->worst, sizeof(tr->worst), "%s",
                             s[tr->r.worst].name);
                }
                tr->ms = (now_ns() - t0) / 1e6;
                if (verbose)
                    for (size_t k = 0; k < n; k++) {
                        double m = 0, q = 0;

                        fc_cal_series_stats(&s[k], &m, &q);
                        fprintf(stderr,
                                "  %-9s %-14s %-24s median %.3f q1 %.3f "
                                "(%zu rounds)\n",
                                families[f].name, tr->ours, s[k].name, m, q,
                                s[k].n);
                    }
                for (size_t k = 0; k < n; k++) {
                    wl_free(&w[k]);
                    fc_cal_series_free(&s[k]);
                }
            }
        }
        for (size_t k = 0; k < ntiers; k++)
            tier_free(&tiers[k]);
        printf("measured in %.1f s\n\n", (now_ns() - start) / 1e9);
    }

    /* --self: no picks (every tier is ours on both sides). */
    for (size_t f = 0; f < nfam && !self_mode; f++)
        res[f].pick = fam_pick(&res[f], &families[f]);
    print_table(res, sel, dver, 1);
    if (timings == NULL && !self_mode)
        for (size_t f = 0; f < nfam; f++) {
            const tier_result *p = &res[f].tier[res[f].pick];

            if (sel[f] && p->done && res[f].table >= 0 &&
                res[f].table != p->r.offer)
                printf("disagrees with the table: %s measured %.3f (q1 "
                       "%.3f): %s, the table: %s\n",
                       families[f].name, p->r.median, p->r.q1,
                       p->r.offer ? "offer" : "no",
                       res[f].table ? "offer" : "no");
        }
    /* Without --out, the file the provider reads (FASTCRYPTO_WISDOM, else
     * the default), as --check looks at it. */
    ok = write_wisdom(out_set ? out : fc_wisdom_path(NULL), key, res, sel, dver,
                      dry_run || self_mode);
    for (size_t f = 0; f < nfam; f++)
        for (size_t k = 0; k < nser[f]; k++)
            fc_cal_series_free(&ser[f][k]);
    free(dir);
    return ok ? 0 : 1;
}
