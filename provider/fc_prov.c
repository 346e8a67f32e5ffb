/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc_prov.c - the provider entry point, its parameters and reason strings,
 * and the algorithm tables. Algorithms live in one file per family.
 */
#define _GNU_SOURCE /* secure_getenv, dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "fc/cpu.h"
#include "fc/offer.h"
#include "fc_prov.h"

#ifndef FC_VERSION_STR
#define FC_VERSION_STR "0.0.0"
#endif

/*
 * Every algorithm carries two properties. "provider=fastcrypto" is for
 * programs that ask for us by name. "fastcrypto.preferred=yes" is what
 * fastcrypto.cnf prefers ("?fastcrypto.preferred=yes"): a program's own
 * query replaces a global clause of the same name, so a preference spelled
 * "?provider=fastcrypto" is dropped by any query that names "provider"
 * ("provider!=fips"), and default wins the tie. A name of our own is never
 * replaced that way; "provider=default" still gets default, and
 * "?provider=default" ties and goes to the provider activated first.
 */
#define FC_PROPS "provider=fastcrypto,fastcrypto.preferred=yes"

/* Extra provider parameters (beyond name/version/buildinfo/status). */
#define FC_PARAM_CPU_CAPS "fastcrypto-cpu-caps"
#define FC_PARAM_AES_IMPL "fastcrypto-aes-impl"
/* The AES table's earlier name, from when it served CBC alone: kept as an
 * alias so that scripts written against it go on working. */
#define FC_PARAM_CBC_IMPL     "fastcrypto-cbc-impl"
#define FC_PARAM_GCM_IMPL     "fastcrypto-gcm-impl"
#define FC_PARAM_SHA_IMPL     "fastcrypto-sha-impl"
#define FC_PARAM_CBC_SHA_IMPL "fastcrypto-cbc-hmac-impl"
#define FC_PARAM_BN_IMPL      "fastcrypto-bn-impl"
#define FC_PARAM_CPU_CLASS    "fastcrypto-cpu-class"
#define FC_PARAM_OFFER        "fastcrypto-offer"
#define FC_PARAM_STATS        "fastcrypto-stats"
#define FC_PARAM_STATSFILE    "fastcrypto-stats-file"
#define FC_PARAM_OFFER_FROM   "fastcrypto-offer-from"
#define FC_PARAM_WISDOM       "fastcrypto-wisdom"
#define FC_PARAM_WISDOM_KEY   "fastcrypto-wisdom-key"

/* Names of the counters (enum fc_stat in fc_prov.h), as printed. */
const char *const fc_stat_names[FC_STAT_COUNT] = {
    [FC_STAT_CBC_ENC] = "aes-cbc-enc",
    [FC_STAT_CBC_DEC] = "aes-cbc-dec",
    [FC_STAT_CBC_TLS] = "aes-cbc-tls",
    [FC_STAT_GCM_ENC] = "aes-gcm-enc",
    [FC_STAT_GCM_DEC] = "aes-gcm-dec",
    [FC_STAT_GCM_TLS] = "aes-gcm-tls",
    [FC_STAT_CTR_ENC] = "aes-ctr-enc",
    [FC_STAT_CTR_DEC] = "aes-ctr-dec",
    [FC_STAT_CBC_HMAC_ENC] = "aes-cbc-hmac-enc",
    [FC_STAT_CBC_HMAC_DEC] = "aes-cbc-hmac-dec",
    [FC_STAT_CBC_HMAC_TLS] = "aes-cbc-hmac-tls",
    [FC_STAT_RSA_SIGN] = "rsa-sign",
    [FC_STAT_RSA_VERIFY] = "rsa-verify",
    [FC_STAT_RSA_ENC] = "rsa-encrypt",
    [FC_STAT_RSA_DEC] = "rsa-decrypt",
    [FC_STAT_RSA_KEX] = "rsa-tls-kex",
    [FC_STAT_RSA_IMPORT] = "rsa-import",
    [FC_STAT_RSA_KEYGEN] = "rsa-keygen",
    [FC_STAT_DRBG_BYTES] = "drbg-bytes",
};

/*
 * The algorithm tables, each entry tagged with its family's FC_OFFER_* bit:
 * at init the provider copies the entries of the families it offers on
 * this CPU and OpenSSL (fc/offer.h) into its own tables, which
 * query_operation returns.
 */
typedef struct fc_alg {
    uint32_t family; /* FC_OFFER_* */
    OSSL_ALGORITHM alg;
} fc_alg;

static const fc_alg fc_ciphers[] = {
    /* The TLS MAC-then-encrypt ciphers: no aliases or OIDs, as default
     * registers them. */
    {FC_OFFER_CBC_HMAC,
     {"AES-128-CBC-HMAC-SHA1", FC_PROPS, fc_aes128cbc_hmac_sha1_functions,
      "AES-128-CBC-HMAC-SHA1 (fastcrypto)"}},
    {FC_OFFER_CBC_HMAC,
     {"AES-256-CBC-HMAC-SHA1", FC_PROPS, fc_aes256cbc_hmac_sha1_functions,
      "AES-256-CBC-HMAC-SHA1 (fastcrypto)"}},
    {FC_OFFER_CBC_HMAC,
     {"AES-128-CBC-HMAC-SHA256", FC_PROPS, fc_aes128cbc_hmac_sha256_functions,
      "AES-128-CBC-HMAC-SHA256 (fastcrypto)"}},
    {FC_OFFER_CBC_HMAC,
     {"AES-256-CBC-HMAC-SHA256", FC_PROPS, fc_aes256cbc_hmac_sha256_functions,
      "AES-256-CBC-HMAC-SHA256 (fastcrypto)"}},
    {FC_OFFER_CBC,
     {"AES-256-CBC:AES256:2.16.840.1.101.3.4.1.42", FC_PROPS,
      fc_aes256cbc_functions, "AES-256-CBC (fastcrypto)"}},
    {FC_OFFER_CBC,
     {"AES-192-CBC:AES192:2.16.840.1.101.3.4.1.22", FC_PROPS,
      fc_aes192cbc_functions, "AES-192-CBC (fastcrypto)"}},
    {FC_OFFER_CBC,
     {"AES-128-CBC:AES128:2.16.840.1.101.3.4.1.2", FC_PROPS,
      fc_aes128cbc_functions, "AES-128-CBC (fastcrypto)"}},
    {FC_OFFER_GCM,
     {"AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46", FC_PROPS,
      fc_aes256gcm_functions, "AES-256-GCM (fastcrypto)"}},
    {FC_OFFER_GCM,
     {"AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26", FC_PROPS,
      fc_aes192gcm_functions, "AES-192-GCM (fastcrypto)"}},
    {FC_OFFER_GCM,
     {"AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6", FC_PROPS,
      fc_aes128gcm_functions, "AES-128-GCM (fastcrypto)"}},
    /* No OID: the default provider registers these names alone too. */
    {FC_OFFER_CTR,
     {"AES-256-CTR", FC_PROPS, fc_aes256ctr_functions,
      "AES-256-CTR (fastcrypto)"}},
    {FC_OFFER_CTR,
     {"AES-192-CTR", FC_PROPS, fc_aes192ctr_functions,
      "AES-192-CTR (fastcrypto)"}},
    {FC_OFFER_CTR,
     {"AES-128-CTR", FC_PROPS, fc_aes128ctr_functions,
      "AES-128-CTR (fastcrypto)"}},
};

/* RSA: one name set for key management, signature and encryption, so that
 * keys from other providers match ours (EVP_KEYMGMT_is_a). Registered when
 * any RSA size is offered; keymgmt import refuses the sizes that are not. */
#define FC_RSA_NAMES "RSA:rsaEncryption:1.2.840.113549.1.1.1"

/* RSA-PSS keys (RFC 4055), with their restrictions; their operations are
 * the "RSA" signature's (query_operation_name). */
#define FC_RSA_PSS_NAMES "RSA-PSS:RSASSA-PSS:1.2.840.113549.1.1.10"

static const fc_alg fc_keymgmt[] = {
    {FC_OFFER_RSA,
     {FC_RSA_NAMES, FC_PROPS, fc_rsa_keymgmt_functions, "RSA (fastcrypto)"}},
    {FC_OFFER_RSA,
     {FC_RSA_PSS_NAMES, FC_PROPS, fc_rsa_pss_keymgmt_functions,
      "RSA-PSS (fastcrypto)"}},
};

static const fc_alg fc_signatures[] = {
    {FC_OFFER_RSA,
     {FC_RSA_NAMES, FC_PROPS, fc_rsa_signature_functions, "RSA (fastcrypto)"}},
};

static const fc_alg fc_asym_ciphers[] = {
    {FC_OFFER_RSA,
     {FC_RSA_NAMES, FC_PROPS, fc_rsa_asym_cipher_functions,
      "RSA (fastcrypto)"}},
};

/* Random generators: with these fastcrypto alone gives the library its
 * whole RAND chain (seed source, primary, public and private DRBGs). */
static const fc_alg fc_rands[] = {
    {FC_OFFER_DRBG,
     {"CTR-DRBG", FC_PROPS, fc_ctr_drbg_functions, "CTR-DRBG (fastcrypto)"}},
    {FC_OFFER_DRBG,
     {"SEED-SRC", FC_PROPS, fc_seed_src_functions,
      "getrandom seed source (fastcrypto)"}},
};

/* The operations above, in the order of fc_prov_ctx.algs. */
static const struct {
    int operation_id;
    const fc_alg *table;
    size_t count;
} fc_operations[FC_NOPS] = {
    {OSSL_OP_CIPHER, fc_ciphers, FC_ARRAY_LEN(fc_ciphers)},
    {OSSL_OP_KEYMGMT, fc_keymgmt, FC_ARRAY_LEN(fc_keymgmt)},
    {OSSL_OP_SIGNATURE, fc_signatures, FC_ARRAY_LEN(fc_signatures)},
    {OSSL_OP_ASYM_CIPHER, fc_asym_ciphers, FC_ARRAY_LEN(fc_asym_ciphers)},
    {OSSL_OP_RAND, fc_rands, FC_ARRAY_LEN(fc_rands)},
};

/* Fills prov->algs with the entries of the offered families. Returns 0 on
 * allocation failure. */
static int fc_prov_build_tables(fc_prov_ctx *prov)
{
    for (size_t op = 0; op < FC_NOPS; op++) {
        const fc_alg *t = fc_operations[op].table;
        const size_t count = fc_operations[op].count;
        OSSL_ALGORITHM *a = OPENSSL_zalloc((count + 1) * sizeof(*a));
        size_t k = 0;

        if (a == NULL)
            return 0;
        for (size_t i = 0; i < count; i++)
            if (prov->offer & t[i].family)
                a[k++] = t[i].alg;
        prov->algs[op] = a; /* ends with a zeroed entry */
    }
    return 1;
}

static void fc_prov_free_tables(fc_prov_ctx *prov)
{
    for (size_t op = 0; op < FC_NOPS; op++) {
        OPENSSL_free(prov->algs[op]);
        prov->algs[op] = NULL;
    }
}

static const OSSL_ITEM fc_reason_strings[] = {
    {FC_R_INTERNAL, "fastcrypto internal error"},
    {FC_R_MALLOC_FAILURE, "out of memory"},
    {FC_R_NULL_ARGUMENT, "a required argument is NULL"},
    {FC_R_INVALID_KEY_LENGTH, "invalid key length"},
    {FC_R_INVALID_IV_LENGTH, "invalid IV length"},
    {FC_R_NO_KEY_SET, "no key set"},
    {FC_R_NO_IV_SET, "no IV set"},
    {FC_R_OUTPUT_TOO_SMALL, "output buffer too small"},
    {FC_R_INPUT_TOO_LONG, "input too long"},
    {FC_R_WRONG_FINAL_BLOCK_LENGTH, "wrong final block length"},
    {FC_R_BAD_DECRYPT, "bad decrypt"},
    {FC_R_FINAL_ALREADY_CALLED, "operation already finalised"},
    {FC_R_INVALID_PARAMETER, "invalid parameter"},
    {FC_R_TLS_RECORD_INVALID, "invalid TLS record"},
    {FC_R_TLS_MODE_FINAL, "final is not allowed in TLS record mode"},
    {FC_R_RANDOM_FAILURE, "random generator failure"},
    {FC_R_CPU_MASK_INVALID, "invalid CPU feature mask"},
    {FC_R_SELF_TEST_FAILED, "kernel self test failed"},
    {FC_R_INVALID_TAG, "tag mismatch"},
    {FC_R_INVALID_TAG_LENGTH, "invalid tag length"},
    {FC_R_TAG_NOT_SET, "tag not set"},
    {FC_R_TOO_MUCH_DATA, "too much data under one IV"},
    {FC_R_IV_REUSE, "IV reuse refused"},
    {FC_R_OPERATION_NOT_INITIALIZED, "operation not initialised"},
    {FC_R_BAD_SIGNATURE, "bad signature"},
    {FC_R_INVALID_PADDING_MODE, "invalid padding mode"},
    {FC_R_INVALID_DIGEST, "invalid digest"},
    {FC_R_DIGEST_NOT_ALLOWED, "digest not allowed"},
    {FC_R_INVALID_DIGEST_LENGTH, "invalid digest length"},
    {FC_R_INVALID_SALT_LENGTH, "invalid salt length"},
    {FC_R_KEY_TOO_SMALL, "key size too small"},
    {FC_R_INVALID_KEY, "invalid key"},
    {FC_R_MISSING_PRIVATE_KEY, "missing private key"},
    {FC_R_MULTIPRIME_UNSUPPORTED, "too many primes in an RSA key"},
    {FC_R_DATA_TOO_LARGE, "data too large for key size"},
    {FC_R_RSA_OPERATION_FAILED, "RSA operation failed"},
    {FC_R_KEYGEN_FAILED, "key generation failed"},
    {FC_R_BAD_TLS_CLIENT_VERSION, "bad TLS client version"},
    {FC_R_DATA_TOO_SMALL, "data too small"},
    {FC_R_INVALID_MGF1_MD, "invalid mgf1 md"},
    {FC_R_BAD_RECORD_MAC, "bad record MAC or padding"},
    {FC_R_INVALID_TLS_AAD, "invalid TLS record header (tlsaad)"},
    {FC_R_TLS_AAD_NOT_SET, "TLS record mode: no record header (tlsaad) set"},
    {FC_R_KEY_PRIME_NUM_INVALID, "key prime num invalid"},
    {FC_R_PSS_SALTLEN_TOO_SMALL, "pss saltlen too small"},
    {FC_R_OPERATION_NOT_SUPPORTED_FOR_KEYTYPE,
     "operation not supported for this keytype"},
    {FC_R_ILLEGAL_PADDING_MODE, "illegal or unsupported padding mode"},
    {0, NULL},
};

/* see fc_prov.h */
void fc_raise_error(const fc_prov_ctx *prov, int reason, const char *file,
                    int line, const char *func, const char *fmt, ...)
{
    va_list ap;

    if (prov == NULL || prov->new_error == NULL)
        return;
    prov->new_error(prov->handle);
    prov->set_error_debug(prov->handle, file, line, func);
    va_start(ap, fmt);
    prov->vset_error(prov->handle, (uint32_t)reason, fmt, ap);
    va_end(ap);
}

static const char *fc_offer_source_name(int from)
{
    switch (from) {
    case FC_OFFER_FROM_WISDOM:
        return "wisdom";
    case FC_OFFER_FROM_FORCED:
        return "forced";
    default:
        return "table";
    }
}

/*
 * What this machine measured: the wisdom file at |wisdom_path| (fc/wisdom.h),
 * read once, here, before the kernels are chosen (its picks choose among
 * them) and unless the offer is forced (|all|). Nothing is measured. The
 * key holds the CPU features after the mask, so a masked run never takes
 * an unmasked machine's figures. Returns 1 with |*w| filled if the file
 * holds decisions for this machine; else 0, prov->wisdom saying why.
 */
static int fc_prov_wisdom(fc_prov_ctx *prov, int all, const char *wisdom_path,
                          fc_wisdom *w)
{
    const char *path = fc_wisdom_path(wisdom_path);

    memset(w, 0, sizeof(*w));
    if (!fc_wisdom_key(prov->wisdom_key, sizeof(prov->wisdom_key), prov->caps,
                       OpenSSL_version_num(), FC_VERSION_STR))
        prov->wisdom_key[0] = '\0';
    if (all) {
        snprintf(prov->wisdom, sizeof(prov->wisdom),
                 "%s: not read: offer forced to all", path);
        return 0;
    }
    if (prov->wisdom_key[0] == '\0') {
        snprintf(prov->wisdom, sizeof(prov->wisdom),
                 "%s: not read: no key for this machine", path);
        return 0;
    }
    if (!fc_wisdom_load(path, prov->wisdom_key, w)) {
        const int missing = strcmp(w->reason, "no such file") == 0;

        snprintf(prov->wisdom, sizeof(prov->wisdom), "%s: %s%s", path,
                 missing ? "" : "ignored: ", w->reason);
        return 0;
    }
    snprintf(prov->wisdom, sizeof(prov->wisdom), "%s", path);
    return 1;
}

/*
 * The kernels, chosen once: the first of each family's table that this CPU
 * runs (the per-CPU row bounding GCM's tier and ordering the RSA engines),
 * unless the wisdom |w| (NULL: none) picked another that it runs
 * (fc/wisdom.h "pick="): the GCM kernel, and the RSA engine of each size
 * class it measured.
 */
static void fc_prov_kernels(fc_prov_ctx *prov, const fc_wisdom *w)
{
    static const struct {
        uint32_t bit;
        unsigned bits;
    } rsa[] = {{FC_OFFER_RSA2048, 2048},
               {FC_OFFER_RSA3072, 3072},
               {FC_OFFER_RSA4096, 4096}};
    const char *pick = w != NULL ? fc_wisdom_pick(w, FC_OFFER_GCM) : NULL;
    const fc_gcm_ops *gcm = NULL;
    size_t n;

    prov->aes = fc_aes_select(prov->caps);
    if (pick != NULL) {
        const fc_gcm_ops *const *all = fc_gcm_impls(&n);

        gcm = fc_kernel_named((const void *const *)all, n, prov->caps, pick);
    }
    prov->gcm = gcm != NULL ? gcm : fc_gcm_select(prov->caps, prov->tuning);
    prov->sha = fc_sha_select(prov->caps);
    prov->cbc_sha = fc_cbc_sha_select(prov->caps);
    fc_rsa_engines_init(&prov->rsa, prov->caps, prov->tuning->rsa_order);
    for (size_t i = 0; w != NULL && i < FC_ARRAY_LEN(rsa); i++)
        if ((pick = fc_wisdom_pick(w, rsa[i].bit)) != NULL)
            (void)fc_rsa_engines_prefer(&prov->rsa, rsa[i].bits, pick);
}

/*
 * The offer: everything when forced, else the wisdom's decisions (|w|, NULL
 * when there is none for this machine) for the families it decided and the
 * table's prior (fc/offer.h: the kernels chosen, the CPU's row and the
 * running libcrypto's version) for the rest.
 */
static void fc_prov_offer(fc_prov_ctx *prov, int all, const fc_wisdom *w)
{
    fc_offer_in in;

    prov->offer_wisdom = 0;
    fc_offer_in_init(&in, prov->caps, prov->tuning, OpenSSL_version_num());
    fc_offer_explain(&in, prov->offer_why, sizeof(prov->offer_why));
    if (all) {
        prov->offer = FC_OFFER_ALL;
        prov->offer_from = FC_OFFER_FROM_FORCED;
        return;
    }
    prov->offer = fc_offer_decide(&in);
    prov->offer_from = FC_OFFER_FROM_TABLE;
    if (w == NULL)
        return;
    prov->offer = (prov->offer & ~w->decided) | (w->offer & w->decided);
    prov->offer_wisdom = w->decided;
    if (w->decided != 0)
        prov->offer_from = FC_OFFER_FROM_WISDOM;
}

/* "buildinfo" names the kernel chosen for each family on this CPU, the RSA
 * engines in the order a key takes the first that fits it, the table's
 * reason for each family (why=, fc_offer_explain), what is offered and
 * where that came from, and the wisdom file (last: a path may hold spaces)
 * with why it was not used, if it was not. */
static void fc_build_info(fc_prov_ctx *prov)
{
    char offer[96];

    fc_offer_describe(prov->offer, offer, sizeof(offer));
    snprintf(prov->buildinfo, sizeof(prov->buildinfo),
             "fastcrypto %s (aes=%s gcm=%s sha=%s cbc-hmac=%s rsa=%s cpu=%s "
             "why=%s offer=%s offer-from=%s wisdom=%.200s)",
             FC_VERSION_STR, prov->aes->name, prov->gcm->name, prov->sha->name,
             prov->cbc_sha->name, prov->rsa.names, prov->tuning->name,
             prov->offer_why, offer, fc_offer_source_name(prov->offer_from),
             prov->wisdom);
}

FC_DISPATCH(provider, gettable_params, fc_prov_gettable_params);
FC_DISPATCH(provider, get_params, fc_prov_get_params);
FC_DISPATCH(provider, query_operation, fc_prov_query_operation);
FC_DISPATCH(provider, get_reason_strings, fc_prov_get_reason_strings);
FC_DISPATCH(provider, teardown, fc_prov_teardown);

static const OSSL_PARAM *fc_prov_gettable_params(void *provctx)
{
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
        OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
        OSSL_PARAM_utf8_string(FC_PARAM_CPU_CAPS, NULL, 0),
        OSSL_PARAM_utf8_ptr(FC_PARAM_AES_IMPL, NULL, 0),
        OSSL_PARAM_utf8_ptr(FC_PARAM_CBC_IMPL, NULL, 0),
        OSSL_PARAM_utf8_ptr(FC_PARAM_GCM_IMPL, NULL, 0),
        OSSL_PARAM_utf8_ptr(FC_PARAM_SHA_IMPL, NULL, 0),
        OSSL_PARAM_utf8_ptr(FC_PARAM_CBC_SHA_IMPL, NULL, 0),
        OSSL_PARAM_utf8_ptr(FC_PARAM_BN_IMPL, NULL, 0),
        OSSL_PARAM_utf8_ptr(FC_PARAM_CPU_CLASS, NULL, 0),
        OSSL_PARAM_utf8_string(FC_PARAM_OFFER, NULL, 0),
        OSSL_PARAM_utf8_string(FC_PARAM_STATS, NULL, 0),
        OSSL_PARAM_utf8_string(FC_PARAM_STATSFILE, NULL, 0),
        OSSL_PARAM_utf8_ptr(FC_PARAM_OFFER_FROM, NULL, 0),
        OSSL_PARAM_utf8_ptr(FC_PARAM_WISDOM, NULL, 0),
        OSSL_PARAM_utf8_ptr(FC_PARAM_WISDOM_KEY, NULL, 0),
        OSSL_PARAM_END,
    };
    return params;
}

static int fc_prov_get_params(void *provctx, OSSL_PARAM params[])
{
    const fc_prov_ctx *prov = provctx;
    OSSL_PARAM *p;
    char buf[256];

    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, "fastcrypto"))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, FC_VERSION_STR))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, prov->buildinfo))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
    if (p != NULL && !OSSL_PARAM_set_int(p, 1))
        return 0;
    p = OSSL_PARAM_locate(params, FC_PARAM_CPU_CAPS);
    if (p != NULL) {
        fc_cpu_caps_describe(prov->caps, buf, sizeof(buf));
        if (!OSSL_PARAM_set_utf8_string(p, buf))
            return 0;
    }
    p = OSSL_PARAM_locate(params, FC_PARAM_AES_IMPL);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, prov->aes->name))
        return 0;
    p = OSSL_PARAM_locate(params, FC_PARAM_CBC_IMPL);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, prov->aes->name))
        return 0;
    p = OSSL_PARAM_locate(params, FC_PARAM_GCM_IMPL);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, prov->gcm->name))
        return 0;
    p = OSSL_PARAM_locate(params, FC_PARAM_SHA_IMPL);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, prov->sha->name))
        return 0;
    p = OSSL_PARAM_locate(params, FC_PARAM_CBC_SHA_IMPL);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, prov->cbc_sha->name))
        return 0;
    /* The RSA engine order ("ifma,mulx,avx2,generic"). */
    p = OSSL_PARAM_locate(params, FC_PARAM_BN_IMPL);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, prov->rsa.names))
        return 0;
    p = OSSL_PARAM_locate(params, FC_PARAM_CPU_CLASS);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, prov->tuning->name))
        return 0;
    p = OSSL_PARAM_locate(params, FC_PARAM_OFFER);
    if (p != NULL) {
        fc_offer_describe(prov->offer, buf, sizeof(buf));
        if (!OSSL_PARAM_set_utf8_string(p, buf))
            return 0;
    }
    p = OSSL_PARAM_locate(params, FC_PARAM_STATS);
    if (p != NULL) {
        char stats[512];
        fc_stats_format(prov, stats, sizeof(stats));
        if (!OSSL_PARAM_set_utf8_string(p, stats))
            return 0;
    }
    p = OSSL_PARAM_locate(params, FC_PARAM_STATSFILE);
    if (p != NULL && !OSSL_PARAM_set_utf8_string(p, fc_stats_path(prov)))
        return 0;
    p = OSSL_PARAM_locate(params, FC_PARAM_OFFER_FROM);
    if (p != NULL &&
        !OSSL_PARAM_set_utf8_ptr(p, fc_offer_source_name(prov->offer_from)))
        return 0;
    p = OSSL_PARAM_locate(params, FC_PARAM_WISDOM);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, prov->wisdom))
        return 0;
    p = OSSL_PARAM_locate(params, FC_PARAM_WISDOM_KEY);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, prov->wisdom_key))
        return 0;
    return 1;
}

static const OSSL_ALGORITHM *
fc_prov_query_operation(void *provctx, int operation_id, int *no_store)
{
    const fc_prov_ctx *prov = provctx;

    *no_store = 0;
    for (size_t op = 0; op < FC_NOPS; op++)
        if (fc_operations[op].operation_id == operation_id)
            return prov->algs[op];
    return NULL;
}

static const OSSL_ITEM *fc_prov_get_reason_strings(void *provctx)
{
    return fc_reason_strings;
}

static void fc_prov_teardown(void *provctx)
{
    fc_prov_ctx *prov = provctx;

    if (prov == NULL)
        return;
    fc_stats_detach(prov);
    OSSL_LIB_CTX_free(prov->libctx);
    fc_prov_free_tables(prov);
    OPENSSL_free(prov);
}

static const OSSL_DISPATCH fc_prov_dispatch[] = {
    FC_FN(PROVIDER_TEARDOWN, fc_prov_teardown),
    FC_FN(PROVIDER_GETTABLE_PARAMS, fc_prov_gettable_params),
    FC_FN(PROVIDER_GET_PARAMS, fc_prov_get_params),
    FC_FN(PROVIDER_QUERY_OPERATION, fc_prov_query_operation),
    FC_FN(PROVIDER_GET_REASON_STRINGS, fc_prov_get_reason_strings),
    OSSL_DISPATCH_END,
};

/* A boolean config value: 1/yes/true/on. */
static int fc_cfg_true(const char *v)
{
    return v != NULL &&
           (strcmp(v, "1") == 0 || strcasecmp(v, "yes") == 0 ||
            strcasecmp(v, "true") == 0 || strcasecmp(v, "on") == 0);
}

/* "offer": "auto" (or unset) offers what wins here (fc/offer.h), "all"
 * forces every algorithm on. Returns 0 for anything else. */
static int fc_cfg_offer(const char *v, int *all)
{
    if (v == NULL || *v == '\0' || strcasecmp(v, "auto") == 0)
        return 1;
    if (strcasecmp(v, "all") != 0)
        return 0;
    *all = 1;
    return 1;
}

/*
 * The provider's config section: "cpu_mask" (added to FASTCRYPTO_CPU_MASK),
 * "strict", "cpu_class", "offer" (FASTCRYPTO_OFFER=all also forces),
 * "stats_dir" (FASTCRYPTO_STATS_DIR wins; *dir points into the core's or
 * the environment's storage) and "wisdom" (the wisdom file's path: it
 * wins over FASTCRYPTO_WISDOM, fc_wisdom_path; *wisdom points into the
 * core's storage, or is NULL). Returns 0 if a mask or an offer value does
 * not parse: a mistyped mask must not silently test the wrong kernels.
 * |why| receives the reason.
 */
static int fc_prov_config(fc_prov_ctx *prov,
                          OSSL_FUNC_core_get_params_fn *get_params,
                          uint32_t *mask, int *strict, int *offer_all,
                          const char **dir, const char **wisdom, char *why,
                          size_t whylen)
{
    const char *env = getenv(FC_CPU_MASK_ENV);
    const char *cls = getenv(FC_CPU_CLASS_ENV);
    const char *env_offer = getenv(FC_OFFER_ENV);
    /* Not for set-user-ID programs: a caller must not choose where they
     * create files. */
    const char *env_dir = secure_getenv("FASTCRYPTO_STATS_DIR");
    char *cfg_mask = NULL, *cfg_strict = NULL, *cfg_class = NULL;
    char *cfg_dir = NULL, *cfg_offer = NULL, *cfg_wisdom = NULL;
    uint32_t m_env = 0, m_cfg = 0;
    OSSL_PARAM req[] = {
        OSSL_PARAM_utf8_ptr("cpu_mask", &cfg_mask, 0),
        OSSL_PARAM_utf8_ptr("strict", &cfg_strict, 0),
        OSSL_PARAM_utf8_ptr("cpu_class", &cfg_class, 0),
        OSSL_PARAM_utf8_ptr("stats_dir", &cfg_dir, 0),
        OSSL_PARAM_utf8_ptr("offer", &cfg_offer, 0),
        OSSL_PARAM_utf8_ptr("wisdom", &cfg_wisdom, 0),
        OSSL_PARAM_END,
    };

    if (get_params != NULL && !get_params(prov->handle, req))
        cfg_mask = cfg_strict = cfg_class = cfg_dir = cfg_offer = cfg_wisdom =
            NULL;
    *wisdom = cfg_wisdom;
    *dir = env_dir != NULL && *env_dir != '\0' ? env_dir : cfg_dir;
    *strict =
        fc_cfg_true(cfg_strict) || fc_cfg_true(getenv("FASTCRYPTO_STRICT"));
    if (env != NULL && !fc_cpu_parse_mask(env, &m_env)) {
        snprintf(why, whylen, "invalid %s=%s", FC_CPU_MASK_ENV, env);
        FC_RAISE_DATA(prov, FC_R_CPU_MASK_INVALID, "%s=%s", FC_CPU_MASK_ENV,
                      env);
        return 0;
    }
    if (cfg_mask != NULL && !fc_cpu_parse_mask(cfg_mask, &m_cfg)) {
        snprintf(why, whylen, "invalid cpu_mask=%s", cfg_mask);
        FC_RAISE_DATA(prov, FC_R_CPU_MASK_INVALID, "cpu_mask=%s", cfg_mask);
        return 0;
    }
    *mask = m_env | m_cfg;
    *offer_all = 0;
    if (!fc_cfg_offer(cfg_offer, offer_all) ||
        !fc_cfg_offer(env_offer, offer_all)) {
        snprintf(why, whylen, "invalid offer (auto or all): %s",
                 env_offer != NULL ? env_offer : cfg_offer);
        FC_RAISE_DATA(prov, FC_R_INVALID_PARAMETER, "offer=%s",
                      env_offer != NULL ? env_offer : cfg_offer);
        return 0;
    }
    /* The CPU class: the environment wins over the config, as a way to
     * try another row's choices on one machine. */
    if (cls == NULL || *cls == '\0')
        cls = cfg_class;
    if (cls != NULL && *cls != '\0') {
        prov->tuning = fc_tuning_by_name(cls);
        if (prov->tuning == NULL) {
            snprintf(why, whylen, "unknown CPU class %s", cls);
            FC_RAISE_DATA(prov, FC_R_CPU_MASK_INVALID, "cpu class %s", cls);
            return 0;
        }
    } else {
        fc_cpu_id id = fc_cpu_identify();
        prov->tuning = fc_tuning_for(&id);
    }
    return 1;
}

/*
 * A program linked statically against libcrypto that loads fastcrypto.so
 * runs two libcryptos: its own, which is the core, and the shared one this
 * module links. The shared copy registers its exit-time cleanup when first
 * used (by us, below), so at exit it runs before the program's cleanup,
 * which then tears this provider down and frees our child library context
 * into an already dead library (a crash, seen with OpenSSL's statically
 * linked test programs). So when the core is not the libcrypto we run on,
 * ours is told before its first use not to clean up at exit: the
 * program's cleanup frees what we hold while the library still works, and
 * the process ends right after. With one shared libcrypto (the usual case)
 * nothing changes.
 */
static void fc_prov_second_libcrypto(const OSSL_DISPATCH *in)
{
    Dl_info core, ours;
    void (*core_fn)(void) = NULL;

    for (; in->function_id != 0; in++)
        if (in->function_id == OSSL_FUNC_CORE_GET_PARAMS) {
            core_fn = in->function;
            break;
        }
    if (core_fn == NULL || dladdr((const void *)core_fn, &core) == 0 ||
        dladdr((const void *)&OPENSSL_init_crypto, &ours) == 0)
        return;
    if (core.dli_fbase != ours.dli_fbase)
        OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

/* Declared in <openssl/core.h>; the one symbol fastcrypto.so exports. */
__attribute__((visibility("default"))) int
OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                   const OSSL_DISPATCH **out, void **provctx)
{
    OSSL_FUNC_core_get_params_fn *core_get_params = NULL;
    fc_prov_ctx *prov;
    uint32_t mask = 0;
    int strict = 0, offer_all = 0;
    const char *stats_dir = NULL, *wisdom_path = NULL;
    char why[160] = "out of memory";
    fc_wisdom wisdom;
    int have_wisdom;
    const OSSL_DISPATCH *f;

    fc_prov_second_libcrypto(in);
    prov = OPENSSL_zalloc(sizeof(*prov));
    if (prov == NULL)
        goto err;
    prov->handle = handle;
    prov->stats = prov->stats_local; /* a stats file comes last */
    for (f = in; f->function_id != 0; f++) {
        switch (f->function_id) {
        case OSSL_FUNC_CORE_GET_PARAMS:
            core_get_params = OSSL_FUNC_core_get_params(f);
            break;
        case OSSL_FUNC_CORE_NEW_ERROR:
            prov->new_error = OSSL_FUNC_core_new_error(f);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            prov->set_error_debug = OSSL_FUNC_core_set_error_debug(f);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            prov->vset_error = OSSL_FUNC_core_vset_error(f);
            break;
        }
    }
    if (prov->new_error == NULL || prov->set_error_debug == NULL ||
        prov->vset_error == NULL)
        prov->new_error = NULL; /* no error reporting without all three */

    if (!fc_prov_config(prov, core_get_params, &mask, &strict, &offer_all,
                        &stats_dir, &wisdom_path, why, sizeof(why)))
        goto err;
    prov->caps = fc_cpu_apply_mask(fc_cpu_detect(), mask);
    have_wisdom = fc_prov_wisdom(prov, offer_all, wisdom_path, &wisdom);
    fc_prov_kernels(prov, have_wisdom ? &wisdom : NULL);
    /* Known answers through the chosen kernels before anything is offered. */
    if (!fc_aes_self_test(prov->aes)) {
        snprintf(why, sizeof(why), "self test failed: aes=%s", prov->aes->name);
        FC_RAISE_DATA(prov, FC_R_SELF_TEST_FAILED, "aes=%s", prov->aes->name);
        goto err;
    }
    if (!fc_gcm_self_test(prov->gcm)) {
        snprintf(why, sizeof(why), "self test failed: gcm=%s", prov->gcm->name);
        FC_RAISE_DATA(prov, FC_R_SELF_TEST_FAILED, "gcm=%s", prov->gcm->name);
        goto err;
    }
    if (!fc_sha_self_test(prov->sha)) {
        snprintf(why, sizeof(why), "self test failed: sha=%s", prov->sha->name);
        FC_RAISE_DATA(prov, FC_R_SELF_TEST_FAILED, "sha=%s", prov->sha->name);
        goto err;
    }
    fc_prov_offer(prov, offer_all, have_wisdom ? &wisdom : NULL);
    if (!fc_prov_build_tables(prov))
        goto err;
    fc_build_info(prov);

    /* Our own RNG and digest source: a child library context mirrors the
     * loading context's providers and default properties, and its DRBGs
     * are seeded through the core and reseed after fork. Algorithms are
     * fetched from it lazily, never here (the stores are locked during
     * provider init). */
    prov->libctx = OSSL_LIB_CTX_new_child(handle, in);
    if (prov->libctx == NULL) {
        snprintf(why, sizeof(why), "cannot create a child library context");
        goto err;
    }
    /* Last: nothing fails after it, so err never has a file to undo. */
    fc_stats_attach(prov, stats_dir);

    *out = fc_prov_dispatch;
    *provctx = prov;
    return 1;
err:
    /* OpenSSL treats a provider that fails to load from a config as a
     * non-fatal event: every algorithm then silently comes from default.
     * In strict mode that is refused, loudly. */
    if (strict) {
        fprintf(stderr, "fastcrypto: refusing to run without it: %s\n", why);
        abort();
    }
    if (prov != NULL)
        fc_prov_free_tables(prov);
    OPENSSL_free(prov);
    return 0;
}
