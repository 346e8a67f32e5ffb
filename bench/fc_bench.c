/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc_bench.c - side-by-side benchmark of a baseline provider (default) and a
 * candidate provider (fastcrypto) through EVP, for the workloads that
 * `openssl speed` cannot express.
 *
 * Both providers are loaded into one OSSL_LIB_CTX; every algorithm is fetched
 * twice, with "provider=<baseline>" and "provider=<candidate>". Each workload
 * runs one untimed warm-up per provider, then N rounds; a round times the two
 * providers back to back, alternating which goes first (A B, B A, ...) so
 * that slow drifts of the machine (turbo, a neighbour's load) fall on both.
 * Reported per provider: the median and the min..max of the rounds; the ratio
 * is candidate/baseline in throughput terms (> 1 means the candidate is
 * faster, also for workloads measured in ns per message), taken from the two
 * medians, with the min..max of the per-round paired ratios beside it.
 *
 * Every sample folds a digest of its output; the two providers must agree or
 * the program fails, so a benchmark never times a broken path.
 *
 * Workloads are rows of `workloads[]` ({name, setup, run, teardown}); add a
 * row to add one. Selecting by name matches exact names and name prefixes
 * ("cbc" selects every CBC workload, "cbc-16k-dec" both key sizes).
 *
 * Usage: fc_bench [--module PATH | --provider-path DIR] [--rounds N] [--csv]
 *                 [--messages N] [--target-ms MS] [--seed S]
 *                 [--candidate NAME] [--list] [workload...]
 * `--candidate default` runs default against itself: the noise floor.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

/* Index of the two providers in every per-provider array. */
enum { BASE = 0, CAND = 1, NPROV = 2 };

/* What the workloads share: the library context and the two providers. */
typedef struct bench_env {
    OSSL_LIB_CTX *libctx;
    const char *name[NPROV]; /* provider names, e.g. "default" */
    char propq[NPROV][96];   /* "provider=<name>" */
    size_t messages;         /* cbc-small: messages per sample */
    double target_ms;        /* throughput workloads: time per sample */
    uint64_t seed;
} bench_env;

/*
 * A workload. setup() allocates its state (fetching ciphers for both
 * providers, preparing inputs, calibrating the amount of work); run() times
 * one sample on provider |p| and returns the metric in *value and a digest
 * of the output in *check. Both return 1 on success.
 */
typedef struct workload {
    const char *name;
    const char *help;
    const char *unit;
    int lower_is_better; /* metric is a time (ns/msg) rather than a rate */
    const char *cipher;  /* argument for the generic CBC functions */
    int enc;
    int (*setup)(const bench_env *env, const struct workload *w, void **st);
    int (*run)(void *st, int p, double *value, uint64_t *check);
    void (*teardown)(void *st);
} workload;

/* ------------------------------------------------------------------------ */
/* Small utilities. */

static void die_openssl(const char *what)
{
    fprintf(stderr, "fc_bench: %s failed\n", what);
    ERR_print_errors_fp(stderr);
    exit(1);
}

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* splitmix64: a fixed-seed generator for inputs, identical for both sides. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void rng_fill(uint64_t *s, unsigned char *buf, size_t len)
{
    while (len > 0) {
        uint64_t v = rng_next(s);
        size_t n = len < 8 ? len : 8;

        memcpy(buf, &v, n);
        buf += n;
        len -= n;
    }
}

/* Folds 16 bytes into a running digest (not cryptographic: a cross-check). */
static uint64_t fold16(uint64_t h, const unsigned char *b)
{
    uint64_t a, c;

    memcpy(&a, b, 8);
    memcpy(&c, b + 8, 8);
    h = (h ^ a) * 0x100000001b3u;
    h = (h ^ c) * 0x100000001b3u;
    return h ^ (h >> 29);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);

    if (p == NULL) {
        fprintf(stderr, "fc_bench: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Median of |n| values (sorts a copy). */
static double median(const double *v, size_t n)
{
    double *t = xmalloc(n * sizeof(*t));
    double m;

    memcpy(t, v, n * sizeof(*t));
    qsort(t, n, sizeof(*t), cmp_double);
    m = (n % 2) ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    free(t);
    return m;
}

static void min_max(const double *v, size_t n, double *lo, double *hi)
{
    *lo = *hi = v[0];
    for (size_t i = 1; i < n; i++) {
        if (v[i] < *lo)
            *lo = v[i];
        if (v[i] > *hi)
            *hi = v[i];
    }
}

/* Fetches |name| from provider |p|, failing loudly if it does not offer it. */
static EVP_CIPHER *fetch_cipher(const bench_env *env, const char *name, int p)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(env->libctx, name, env->propq[p]);

    if (c == NULL) {
        fprintf(stderr, "fc_bench: provider %s does not offer %s\n",
                env->name[p], name);
        die_openssl("EVP_CIPHER_fetch");
    }
    return c;
}

/* ------------------------------------------------------------------------ */
/* cbc-small: many short messages, each under a fresh key and IV. */

#define SMALL_MIN_LEN 47
#define SMALL_MAX_LEN 2048
#define SMALL_POOL    (1u << 20) /* plaintexts are windows into this pool */

typedef struct small_state {
    EVP_CIPHER *cipher[NPROV];
    EVP_CIPHER_CTX *ctx[NPROV]; /* one each: no state crosses providers */
    size_t n;
    size_t keylen;
    unsigned char *keys; /* n * (keylen + 16): key then IV per message */
    uint32_t *len;
    uint32_t *off;
    unsigned char *pool;
    unsigned char out[SMALL_MAX_LEN + 32];
} small_state;

static int small_setup(const bench_env *env, const workload *w, void **st)
{
    small_state *s = xmalloc(sizeof(*s));
    uint64_t rng = env->seed;
    size_t kiv;

    memset(s, 0, sizeof(*s));
    for (int p = 0; p < NPROV; p++)
        s->cipher[p] = fetch_cipher(env, w->cipher, p);
    s->keylen = (size_t)EVP_CIPHER_get_key_length(s->cipher[BASE]);
    if (EVP_CIPHER_get_iv_length(s->cipher[BASE]) != 16 || s->keylen > 32) {
        fprintf(stderr, "fc_bench: %s: unexpected key/IV size\n", w->name);
        return 0;
    }
    for (int p = 0; p < NPROV; p++)
        if ((s->ctx[p] = EVP_CIPHER_CTX_new()) == NULL)
            die_openssl("EVP_CIPHER_CTX_new");
    s->n = env->messages;
    kiv = s->keylen + 16;
    s->keys = xmalloc(s->n * kiv);
    s->len = xmalloc(s->n * sizeof(*s->len));
    s->off = xmalloc(s->n * sizeof(*s->off));
    s->pool = xmalloc(SMALL_POOL + SMALL_MAX_LEN);
    rng_fill(&rng, s->pool, SMALL_POOL + SMALL_MAX_LEN);
    rng_fill(&rng, s->keys, s->n * kiv);
    for (size_t i = 0; i < s->n; i++) {
        uint64_t r = rng_next(&rng);

        s->len[i] =
            SMALL_MIN_LEN + (uint32_t)(r % (SMALL_MAX_LEN - SMALL_MIN_LEN + 1));
        s->off[i] = (uint32_t)((r >> 32) % SMALL_POOL);
    }
    *st = s;
    return 1;
}

/*
 * One sample: the whole message sequence. The cipher is bound to the reused
 * context once per sample; each message then re-keys it (key schedule and
 * IV), encrypts, and finishes with PKCS#7 padding, as an application that
 * seals independent records under per-record keys does.
 */
static int small_run(void *st, int p, double *value, uint64_t *check)
{
    small_state *s = st;
    EVP_CIPHER_CTX *ctx = s->ctx[p];
    const size_t kiv = s->keylen + 16;
    uint64_t h = 0, t0, t1;
    int l1, l2;

    if (!EVP_EncryptInit_ex(ctx, s->cipher[p], NULL, NULL, NULL))
        die_openssl("EVP_EncryptInit_ex (cipher)");
    t0 = now_ns();
    for (size_t i = 0; i < s->n; i++) {
        const unsigned char *k = s->keys + i * kiv;

        if (!EVP_EncryptInit_ex(ctx, NULL, NULL, k, k + s->keylen) ||
            !EVP_EncryptUpdate(ctx, s->out, &l1, s->pool + s->off[i],
                               (int)s->len[i]) ||
            !EVP_EncryptFinal_ex(ctx, s->out + l1, &l2))
            die_openssl("cbc-small encrypt");
        if ((size_t)(l1 + l2) != (s->len[i] / 16 + 1) * 16) {
            fprintf(stderr, "fc_bench: cbc-small: wrong output length\n");
            exit(1);
        }
        /* The last block depends on every block before it in CBC. */
        h = fold16(h, s->out + l1 + l2 - 16);
    }
    t1 = now_ns();
    *value = (double)(t1 - t0) / (double)s->n;
    *check = h;
    return 1;
}

static void small_teardown(void *st)
{
    small_state *s = st;

    for (int p = 0; p < NPROV; p++) {
        EVP_CIPHER_free(s->cipher[p]);
        EVP_CIPHER_CTX_free(s->ctx[p]);
    }
    free(s->keys);
    free(s->len);
    free(s->off);
    free(s->pool);
    free(s);
}

/* ------------------------------------------------------------------------ */
/* cbc-16k-*: bulk throughput with the key kept, 16 KiB per call. */

#define BULK_CHUNK 16384

typedef struct bulk_state {
    EVP_CIPHER *cipher[NPROV];
    EVP_CIPHER_CTX *ctx[NPROV];
    int enc;
    size_t iters; /* calls per sample, fixed after calibration */
    unsigned char key[32];
    unsigned char iv[16];
    unsigned char *in;
    unsigned char *out;
} bulk_state;

static uint64_t bulk_once(bulk_state *s, int p, size_t iters, uint64_t *ns)
{
    uint64_t t0;
    int outl;

    /* Same key and IV every sample, so the chained output is reproducible.
     * No padding: the decrypt side would otherwise hold back a block. */
    if (!EVP_CipherInit_ex(s->ctx[p], s->cipher[p], NULL, s->key, s->iv,
                           s->enc) ||
        !EVP_CIPHER_CTX_set_padding(s->ctx[p], 0))
        die_openssl("EVP_CipherInit_ex");
    t0 = now_ns();
    for (size_t i = 0; i < iters; i++) {
        if (!EVP_CipherUpdate(s->ctx[p], s->out, &outl, s->in, BULK_CHUNK) ||
            outl != BULK_CHUNK)
            die_openssl("EVP_CipherUpdate");
    }
    *ns = now_ns() - t0;
    return fold16(0, s->out + BULK_CHUNK - 16);
}

static int bulk_setup(const bench_env *env, const workload *w, void **st)
{
    bulk_state *s = xmalloc(sizeof(*s));
    uint64_t rng = env->seed ^ 0x16b;
    uint64_t ns = 0;
    size_t it;

    memset(s, 0, sizeof(*s));
    for (int p = 0; p < NPROV; p++)
        s->cipher[p] = fetch_cipher(env, w->cipher, p);
    for (int p = 0; p < NPROV; p++)
        if ((s->ctx[p] = EVP_CIPHER_CTX_new()) == NULL)
            die_openssl("EVP_CIPHER_CTX_new");
    s->enc = w->enc;
    s->in = xmalloc(BULK_CHUNK);
    s->out = xmalloc(BULK_CHUNK);
    rng_fill(&rng, s->key, sizeof(s->key));
    rng_fill(&rng, s->iv, sizeof(s->iv));
    rng_fill(&rng, s->in, BULK_CHUNK);

    /* Calibrate on the baseline: grow until a run takes >= 20 ms, then scale
     * to the target. Both providers then do exactly the same work. */
    for (it = 16;; it *= 2) {
        bulk_once(s, BASE, it, &ns);
        if (ns >= 20000000u || it >= ((size_t)1 << 30))
            break;
    }
    s->iters = (size_t)((double)it * env->target_ms * 1e6 / (double)ns);
    if (s->iters < 16)
        s->iters = 16;
    *st = s;
    return 1;
}

static int bulk_run(void *st, int p, double *value, uint64_t *check)
{
    bulk_state *s = st;
    uint64_t ns;

    *check = bulk_once(s, p, s->iters, &ns);
    /* 10^6 bytes per second, as `openssl speed` counts. */
    *value = (double)s->iters * BULK_CHUNK * 1e3 / (double)ns;
    return 1;
}

static void bulk_teardown(void *st)
{
    bulk_state *s = st;

    for (int p = 0; p < NPROV; p++) {
        EVP_CIPHER_free(s->cipher[p]);
        EVP_CIPHER_CTX_free(s->ctx[p]);
    }
    free(s->in);
    free(s->out);
    free(s);
}

/* ------------------------------------------------------------------------ */
/* The table. Add a row (and its three functions) to add a workload. */

static const workload workloads[] = {
    {"cbc-small", "AES-256-CBC encrypt, 47..2048 B messages, fresh key+IV each",
     "ns/msg", 1, "AES-256-CBC", 1, small_setup, small_run, small_teardown},
    {"cbc-16k-enc-128", "AES-128-CBC encrypt, 16 KiB calls, key kept", "MB/s",
     0, "AES-128-CBC", 1, bulk_setup, bulk_run, bulk_teardown},
    {"cbc-16k-enc-256", "AES-256-CBC encrypt, 16 KiB calls, key kept", "MB/s",
     0, "AES-256-CBC", 1, bulk_setup, bulk_run, bulk_teardown},
    {"cbc-16k-dec-128", "AES-128-CBC decrypt, 16 KiB calls, key kept", "MB/s",
     0, "AES-128-CBC", 0, bulk_setup, bulk_run, bulk_teardown},
    {"cbc-16k-dec-256", "AES-256-CBC decrypt, 16 KiB calls, key kept", "MB/s",
     0, "AES-256-CBC", 0, bulk_setup, bulk_run, bulk_teardown},
};

/* ------------------------------------------------------------------------ */
/* Running and reporting. */

typedef struct result {
    double med[NPROV], lo[NPROV], hi[NPROV];
    double ratio, ratio_lo, ratio_hi;
} result;

/* Throughput ratio candidate/baseline for one pair of metric values. */
static double speedup(const workload *w, double base, double cand)
{
    return w->lower_is_better ? base / cand : cand / base;
}

static int run_workload(const bench_env *env, const workload *w, int rounds,
                        result *res)
{
    double *v[NPROV], *ratio;
    uint64_t chk[NPROV];
    void *st = NULL;
    double value;

    if (!w->setup(env, w, &st))
        return 0;
    for (int p = 0; p < NPROV; p++)
        v[p] = xmalloc((size_t)rounds * sizeof(double));
    ratio = xmalloc((size_t)rounds * sizeof(double));

    /* Warm-up (caches, page faults, lazy init) and the output cross-check. */
    for (int p = 0; p < NPROV; p++)
        w->run(st, p, &value, &chk[p]);
    if (chk[BASE] != chk[CAND]) {
        fprintf(stderr, "fc_bench: %s: %s and %s produce different output\n",
                w->name, env->name[BASE], env->name[CAND]);
        exit(1);
    }

    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < NPROV; k++) {
            int p = (r % 2) ? NPROV - 1 - k : k; /* A B, B A, ... */
            uint64_t c;

            w->run(st, p, &v[p][r], &c);
            if (c != chk[BASE]) {
                fprintf(stderr, "fc_bench: %s: output changed in round %d\n",
                        w->name, r);
                exit(1);
            }
        }
        ratio[r] = speedup(w, v[BASE][r], v[CAND][r]);
    }

    for (int p = 0; p < NPROV; p++) {
        res->med[p] = median(v[p], (size_t)rounds);
        min_max(v[p], (size_t)rounds, &res->lo[p], &res->hi[p]);
        free(v[p]);
    }
    res->ratio = speedup(w, res->med[BASE], res->med[CAND]);
    min_max(ratio, (size_t)rounds, &res->ratio_lo, &res->ratio_hi);
    free(ratio);
    w->teardown(st);
    return 1;
}

static void print_result(const bench_env *env, const workload *w, int rounds,
                         const result *res, int csv)
{
    if (csv) {
        printf("%s,%s,%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.4f,%.4f,%.4f\n",
               w->name, w->unit, rounds, res->med[BASE], res->lo[BASE],
               res->hi[BASE], res->med[CAND], res->lo[CAND], res->hi[CAND],
               res->ratio, res->ratio_lo, res->ratio_hi);
    } else {
        printf("%-16s %s=%.1f %s [%.1f..%.1f]  %s=%.1f %s [%.1f..%.1f]  "
               "ratio=%.2fx  (%.2f..%.2f over %d rounds)\n",
               w->name, env->name[BASE], res->med[BASE], w->unit, res->lo[BASE],
               res->hi[BASE], env->name[CAND], res->med[CAND], w->unit,
               res->lo[CAND], res->hi[CAND], res->ratio, res->ratio_lo,
               res->ratio_hi, rounds);
    }
    fflush(stdout);
}

/* The "buildinfo" each provider reports (fastcrypto names its kernels). */
static void print_provider_info(const bench_env *env,
                                OSSL_PROVIDER *const *prov, int csv)
{
    for (int p = 0; p < NPROV; p++) {
        const char *bi = NULL;
        OSSL_PARAM q[] = {
            OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&bi, 0),
            OSSL_PARAM_END,
        };

        if (prov[p] == NULL)
            continue;
        if (!OSSL_PROVIDER_get_params(prov[p], q) || bi == NULL)
            bi = "?";
        printf("%sprovider %s: %s\n", csv ? "# " : "", env->name[p], bi);
    }
}

static int selected(const char *name, char **sel, int nsel)
{
    if (nsel == 0)
        return 1;
    for (int i = 0; i < nsel; i++) {
        size_t n = strlen(sel[i]);

        if (strcmp(sel[i], "all") == 0 || strncmp(name, sel[i], n) == 0)
            return 1;
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: fc_bench [options] [workload|prefix ...]\n"
        "  --module PATH       fastcrypto.so to load (its directory becomes\n"
        "                      the module search path)\n"
        "  --provider-path DIR module search path (else $OPENSSL_MODULES or\n"
        "                      OpenSSL's MODULESDIR)\n"
        "  --candidate NAME    provider compared with default (fastcrypto);\n"
        "                      'default' measures the noise floor\n"
        "  --rounds N          timed rounds per workload (5)\n"
        "  --messages N        cbc-small messages per sample (100000)\n"
        "  --target-ms MS      time per sample of throughput workloads (200)\n"
        "  --seed S            input generator seed\n"
        "  --csv               machine-readable output\n"
        "  --list              list the workloads\n");
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 0);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "fc_bench: bad value for %s: %s\n", opt, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    bench_env env;
    const char *module = NULL, *path = NULL;
    char *dir = NULL, **sel = xmalloc((size_t)argc * sizeof(char *));
    int rounds = 5, csv = 0, nsel = 0, nrun = 0;
    OSSL_PROVIDER *prov[NPROV] = {NULL, NULL};

    memset(&env, 0, sizeof(env));
    env.name[BASE] = "default";
    env.name[CAND] = "fastcrypto";
    env.messages = 100000;
    env.target_ms = 200;
    env.seed = 0x66635f62656e6368u;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : NULL;
        int takes = 1;

        if (strcmp(a, "--module") == 0 && val)
            module = val;
        else if (strcmp(a, "--provider-path") == 0 && val)
            path = val;
        else if (strcmp(a, "--candidate") == 0 && val)
            env.name[CAND] = val;
        else if (strcmp(a, "--rounds") == 0 && val)
            rounds = (int)parse_long(a, val, 1, 1000);
        else if (strcmp(a, "--messages") == 0 && val)
            env.messages = (size_t)parse_long(a, val, 1, 100000000);
        else if (strcmp(a, "--target-ms") == 0 && val)
            env.target_ms = (double)parse_long(a, val, 1, 60000);
        else if (strcmp(a, "--seed") == 0 && val)
            env.seed = (uint64_t)parse_long(a, val, 0, 0x7fffffffffffffffL);
        else if (strcmp(a, "--csv") == 0)
            csv = 1, takes = 0;
        else if (strcmp(a, "--list") == 0) {
            for (size_t k = 0; k < sizeof(workloads) / sizeof(workloads[0]);
                 k++)
                printf("%-16s %s\n", workloads[k].name, workloads[k].help);
            return 0;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            usage(stderr);
            return 2;
        } else {
            sel[nsel++] = argv[i];
            takes = 0;
        }
        i += takes;
    }
    for (int i = 0; i < nsel; i++) {
        int any = 0;

        for (size_t k = 0; k < sizeof(workloads) / sizeof(workloads[0]); k++)
            any |= selected(workloads[k].name, &sel[i], 1);
        if (!any) {
            fprintf(stderr, "fc_bench: no workload matches '%s' (--list)\n",
                    sel[i]);
            return 2;
        }
    }

    for (int p = 0; p < NPROV; p++)
        snprintf(env.propq[p], sizeof(env.propq[p]), "provider=%s",
                 env.name[p]);
    if ((env.libctx = OSSL_LIB_CTX_new()) == NULL)
        die_openssl("OSSL_LIB_CTX_new");

    /* --module /dir/fastcrypto.so: search /dir and load the provider by its
     * name, so that its name (and "provider=" queries) stay the plain one. */
    if (module != NULL) {
        const char *slash = strrchr(module, '/');

        if (slash != NULL) {
            dir = xmalloc((size_t)(slash - module) + 2);
            memcpy(dir, module, (size_t)(slash - module));
            dir[slash - module] = '\0';
            if (dir[0] == '\0')
                strcpy(dir, "/");
            path = dir;
        }
    }
    if (path != NULL &&
        !OSSL_PROVIDER_set_default_search_path(env.libctx, path))
        die_openssl("OSSL_PROVIDER_set_default_search_path");
    for (int p = 0; p < NPROV; p++) {
        if (p == CAND && strcmp(env.name[BASE], env.name[CAND]) == 0)
            break;
        prov[p] = OSSL_PROVIDER_load(env.libctx, env.name[p]);
        if (prov[p] == NULL) {
            fprintf(stderr, "fc_bench: cannot load provider %s (path %s)\n",
                    env.name[p], path ? path : "$OPENSSL_MODULES/MODULESDIR");
            die_openssl("OSSL_PROVIDER_load");
        }
    }

    if (csv)
        printf("# %s\n", OpenSSL_version(OPENSSL_VERSION));
    else
        printf("%s; seed 0x%" PRIx64 "; ratio = %s/%s throughput (>1: %s "
               "faster)\n",
               OpenSSL_version(OPENSSL_VERSION), env.seed, env.name[CAND],
               env.name[BASE], env.name[CAND]);
    print_provider_info(&env, prov, csv);
    if (csv)
        printf("workload,unit,rounds,%s_median,%s_min,%s_max,%s_median,"
               "%s_min,%s_max,ratio,ratio_min,ratio_max\n",
               env.name[BASE], env.name[BASE], env.name[BASE], env.name[CAND],
               env.name[CAND], env.name[CAND]);

    for (size_t k = 0; k < sizeof(workloads) / sizeof(workloads[0]); k++) {
        const workload *w = &workloads[k];
        result res;

        if (!selected(w->name, sel, nsel))
            continue;
        if (!run_workload(&env, w, rounds, &res)) {
            fprintf(stderr, "fc_bench: %s: setup failed\n", w->name);
            return 1;
        }
        print_result(&env, w, rounds, &res, csv);
        nrun++;
    }

    for (int p = 0; p < NPROV; p++)
        if (prov[p] != NULL)
            OSSL_PROVIDER_unload(prov[p]);
    OSSL_LIB_CTX_free(env.libctx);
    free(dir);
    free(sel);
    return nrun > 0 ? 0 : 1;
}
