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
 * ("cbc" selects every CBC workload, "cbc-16k-dec" both key sizes, "gcm" and
 * "rsa" every workload of those families).
 *
 * Families:
 *   cbc-*        AES-CBC: fresh key per message; 16 KiB calls, key kept.
 *   gcm-tls13-*  AES-GCM shaped like a TLS 1.3 record layer: the key set
 *                once, then per record an IV-only re-init (12-byte nonce =
 *                static IV XOR sequence number), 5-byte AAD, the record,
 *                final and the tag ("seal"), or the tag set and checked
 *                ("open").
 *   gcm-rec-*    AES-GCM, one record per call with the key kept: 12-byte
 *                IV re-init, 13-byte AAD, data, final and the tag (get when
 *                sealing, set before the data when opening): the per-record
 *                cost of an AEAD user (TLS 1.2/1.3 record layers, QUIC,
 *                application AEAD APIs), in ns per record.
 *   gcm-speed-*  AES-GCM as `openssl speed -evp` drives it from OpenSSL 3.2
 *                on (apps/speed.c, EVP_Update_loop_aead_enc/_dec): per
 *                message "ivlen" set and an init with key and IV (a re-key
 *                every message), then data and final; decrypting, the IV
 *                set again and the tag set before the data. No AAD, unless
 *                -aead (the gcm-speed-aead-* rows: 13 B of AAD first).
 *                OpenSSL 3.0/3.1 speed runs plain updates instead; these
 *                rows are the same sequence on every version.
 *   mte-*        TLS 1.2 MAC-then-encrypt records (AES-*-CBC-HMAC-SHA*, the
 *                ciphers libssl uses without encrypt-then-MAC), driven as
 *                libssl drives them: contexts set up once (key, IV,
 *                "mackey", "tls-version"), then per record the 13-byte
 *                header and one in-place update; "seal" (explicit IV and
 *                payload in), "open" (records the baseline sealed), and
 *                "xfer", a sender and a receiver: each record sealed and
 *                opened again, MB/s of payload.
 *   rsa-*        RSA-2048, one key made by the baseline and imported into
 *                the candidate with EVP_PKEY_fromdata (as libcrypto exports
 *                a key to another provider): PSS-SHA256 signing as a TLS 1.3
 *                server does it (one EVP_DigestSignInit_ex + EVP_DigestSign
 *                per signature), OAEP decryption, and key import.
 *                Signatures are randomised, so each sample's last signature
 *                is verified by the *other* provider instead of compared.
 *
 * rsa-import-pub (+ -verify) does the same with the public half only, as a
 * TLS client takes each server's key (and verifies one signature with it).
 *
 * drbg-*      CTR-DRBG (AES-256, derivation function) generate calls of
 *              16 B to 64 KiB, each provider's generator instantiated
 *              from the same fixed entropy (default's TEST-RAND as the
 *              parent, the same personalization string) and count-based
 *              reseeding off, so both produce the same bytes: what
 *              RAND_bytes costs between reseeds.
 *
 * rsa-import times EVP_PKEY_fromdata alone. A provider may do its per-key
 * precomputation there (fastcrypto: the Montgomery contexts of n, p, q) or
 * defer it to the first private-key operation (default), so rsa-import
 * alone flatters the latter; rsa-import-sign (import + the first signature
 * with the new key) is the fair comparison of what a fresh key costs.
 *
 * The floor: with --floor, the gcm-rec, gcm-speed and cbc-small rows also
 * run on "fcfloor" (bench/fc_floor_prov.c, built beside this program), a
 * provider whose AES-GCM and AES-256-CBC do nothing: what is left is
 * libcrypto's own EVP cost for the same call sequence. Those rows then
 * print each provider's cost above that floor, i.e. what the provider
 * itself spends per record or message.
 *
 * Usage: fc_bench [--module PATH | --provider-path DIR] [--rounds N] [--csv]
 *                 [--messages N] [--target-ms MS] [--seed S]
 *                 [--candidate NAME] [--floor] [--list] [workload...]
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
#include <openssl/rsa.h>

/* Index of the providers in every per-provider array: the two compared,
 * and the do-nothing floor that some workloads also run on. */
enum { BASE = 0, CAND = 1, NPROV = 2, FLOOR = 2, NPROV_MAX = 3 };

/* What the workloads share: the library context and the providers. */
typedef struct bench_env {
    OSSL_LIB_CTX *libctx;
    const char *name[NPROV_MAX]; /* provider names, e.g. "default" */
    char propq[NPROV_MAX][96];   /* "provider=<name>" */
    int has_floor;               /* --floor: FLOOR is loaded */
    size_t messages;             /* cbc-small: messages per sample */
    double target_ms;            /* throughput workloads: time per sample */
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
    const char *cipher;  /* algorithm for the generic cipher functions */
    int enc;             /* 1 encrypt/seal, 0 decrypt/open; rsa: rsa_kind */
    size_t size;         /* gcm-*: record bytes; rsa: modulus bits */
    size_t aad;          /* gcm-*: AAD bytes (0: the 13 of TLS 1.2) */
    int no_aad;          /* gcm-speed-*: no AAD (speed without -aead) */
    int floor;           /* also runs on the floor provider (--floor) */
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

/*
 * A timed loop of a throughput workload: |iters| iterations on provider |p|,
 * the time taken in *ns; returns the digest of the output.
 */
typedef uint64_t once_fn(void *st, int p, size_t iters, uint64_t *ns);

/*
 * Calibrates on the baseline: doubles the iteration count from |start| until
 * a run takes >= 20 ms, then scales it to the target time per sample (at
 * least |min| iterations). Both providers then do exactly the same work.
 */
static size_t calibrate(const bench_env *env, void *st, once_fn *once,
                        size_t start, size_t min)
{
    uint64_t ns = 0;
    size_t it, n;

    for (it = start;; it *= 2) {
        once(st, BASE, it, &ns);
        if (ns >= 20000000u || it >= ((size_t)1 << 30))
            break;
    }
    n = (size_t)((double)it * env->target_ms * 1e6 / (double)ns);
    return n < min ? min : n;
}

/* ------------------------------------------------------------------------ */
/* cbc-small: many short messages, each under a fresh key and IV. */

#define SMALL_MIN_LEN 47
#define SMALL_MAX_LEN 2048
#define SMALL_POOL    (1u << 20) /* plaintexts are windows into this pool */

typedef struct small_state {
    EVP_CIPHER *cipher[NPROV_MAX];
    EVP_CIPHER_CTX *ctx[NPROV_MAX]; /* one each: no state crosses providers */
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

    const int np = w->floor && env->has_floor ? NPROV_MAX : NPROV;

    memset(s, 0, sizeof(*s));
    for (int p = 0; p < np; p++)
        s->cipher[p] = fetch_cipher(env, w->cipher, p);
    s->keylen = (size_t)EVP_CIPHER_get_key_length(s->cipher[BASE]);
    if (EVP_CIPHER_get_iv_length(s->cipher[BASE]) != 16 || s->keylen > 32) {
        fprintf(stderr, "fc_bench: %s: unexpected key/IV size\n", w->name);
        return 0;
    }
    for (int p = 0; p < np; p++)
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

    for (int p = 0; p < NPROV_MAX; p++) {
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

static uint64_t bulk_once(void *st, int p, size_t iters, uint64_t *ns)
{
    bulk_state *s = st;
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

    s->iters = calibrate(env, s, bulk_once, 16, 16);
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
/* gcm-tls13-*, gcm-rec-* and gcm-speed-*: AES-GCM records. */

#define REC_NONCE 12
#define REC_AAD   13 /* the TLS 1.2 header; TLS 1.3 authenticates 5 bytes */
#define REC_TAG   16
#define REC_POOL  8 /* open: sealed records cycled through */

enum { REC_SEAL, REC_OPEN, REC_SPEED, REC_SPEED_DEC };

typedef struct rec_state {
    EVP_CIPHER *cipher[NPROV_MAX];
    EVP_CIPHER_CTX *ctx[NPROV_MAX];
    int np;         /* providers this workload runs on */
    int kind;       /* REC_* */
    size_t len;     /* record (plaintext) bytes */
    size_t aad_len; /* 13 (TLS 1.2 header), 5 (TLS 1.3 header) or 0 */
    int per_rec;    /* metric: ns per record (else MB/s) */
    size_t iters;
    unsigned char key[32];
    unsigned char iv[REC_NONCE];
    unsigned char aad[REC_AAD];
    unsigned char *in; /* seal: one plaintext; open: REC_POOL records */
    unsigned char *out;
    unsigned char tag[REC_POOL][REC_TAG]; /* open: the records' tags */
} rec_state;

/* Record |seq|'s nonce: the IV with the sequence number XORed in. */
static void rec_nonce(const rec_state *s, uint64_t seq,
                      unsigned char nonce[REC_NONCE])
{
    memcpy(nonce, s->iv, REC_NONCE);
    for (int i = 0; i < 8; i++)
        nonce[REC_NONCE - 1 - i] ^= (unsigned char)(seq >> (8 * i));
}

static void rec_seal(rec_state *s, int p, uint64_t seq, const unsigned char *in,
                     unsigned char *tag)
{
    EVP_CIPHER_CTX *ctx = s->ctx[p];
    unsigned char nonce[REC_NONCE];
    int l1, l2, la;

    rec_nonce(s, seq, nonce);
    if (!EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, nonce) ||
        (s->aad_len != 0 &&
         !EVP_EncryptUpdate(ctx, NULL, &la, s->aad, (int)s->aad_len)) ||
        !EVP_EncryptUpdate(ctx, s->out, &l1, in, (int)s->len) ||
        !EVP_EncryptFinal_ex(ctx, s->out + l1, &l2) ||
        (size_t)(l1 + l2) != s->len ||
        EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, REC_TAG, tag) <= 0)
        die_openssl("gcm-rec seal");
}

/* The floor's output is not a ciphertext: only the compared providers'
 * outputs go into the digest. */
static uint64_t rec_fold(int p, uint64_t h, const unsigned char *b)
{
    return p == FLOOR ? h : fold16(h, b);
}

static uint64_t rec_once(void *st, int p, size_t iters, uint64_t *ns)
{
    rec_state *s = st;
    EVP_CIPHER_CTX *ctx = s->ctx[p];
    unsigned char nonce[REC_NONCE], tag[REC_TAG];
    uint64_t h = 0, t0;
    int l1, l2, la;

    if (s->kind < REC_SPEED &&
        !EVP_CipherInit_ex(ctx, s->cipher[p], NULL, s->key, NULL,
                           s->kind == REC_SEAL))
        die_openssl("gcm-rec: EVP_CipherInit_ex (key)");
    if (s->kind >= REC_SPEED &&
        (!EVP_CipherInit_ex(ctx, s->cipher[p], NULL, NULL, NULL,
                            s->kind == REC_SPEED) ||
         !EVP_CIPHER_CTX_set_padding(ctx, 0)))
        die_openssl("gcm-speed: EVP_CipherInit_ex (cipher)");
    t0 = now_ns();
    switch (s->kind) {
    case REC_SEAL:
        for (size_t i = 0; i < iters; i++) {
            rec_seal(s, p, i, s->in, tag);
            h = rec_fold(p, h, tag);
        }
        break;
    case REC_OPEN:
        for (size_t i = 0; i < iters; i++) {
            size_t j = i % REC_POOL;

            rec_nonce(s, j, nonce);
            if (!EVP_DecryptInit_ex(ctx, NULL, NULL, NULL, nonce) ||
                EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, REC_TAG,
                                    s->tag[j]) <= 0 ||
                !EVP_DecryptUpdate(ctx, NULL, &la, s->aad, (int)s->aad_len) ||
                !EVP_DecryptUpdate(ctx, s->out, &l1, s->in + j * s->len,
                                   (int)s->len) ||
                !EVP_DecryptFinal_ex(ctx, s->out + l1, &l2) ||
                (size_t)(l1 + l2) != s->len)
                die_openssl("gcm-rec open (tag check)");
            h = rec_fold(p, h, s->out + s->len - 16);
        }
        break;
    case REC_SPEED: /* apps/speed.c's EVP_Update_loop_aead_enc */
        for (size_t i = 0; i < iters; i++) {
            if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, REC_NONCE,
                                    NULL) <= 0 ||
                !EVP_CipherInit_ex(ctx, NULL, NULL, s->key, s->iv, -1) ||
                (s->aad_len != 0 &&
                 !EVP_CipherUpdate(ctx, NULL, &la, s->aad, (int)s->aad_len)) ||
                !EVP_CipherUpdate(ctx, s->out, &l1, s->in, (int)s->len) ||
                !EVP_CipherFinal_ex(ctx, s->out + l1, &l2))
                die_openssl("gcm-speed");
        }
        h = rec_fold(p, h, s->out + s->len - 16);
        break;
    default: /* REC_SPEED_DEC: apps/speed.c's EVP_Update_loop_aead_dec */
        for (size_t i = 0; i < iters; i++) {
            memcpy(tag, s->tag[0], REC_TAG);
            if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, REC_NONCE,
                                    NULL) <= 0 ||
                !EVP_CipherInit_ex(ctx, NULL, NULL, s->key, s->iv, -1) ||
                !EVP_DecryptInit_ex(ctx, NULL, NULL, NULL, s->iv) ||
                EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, REC_TAG, tag) <=
                    0 ||
                (s->aad_len != 0 &&
                 !EVP_DecryptUpdate(ctx, NULL, &la, s->aad, (int)s->aad_len)) ||
                !EVP_DecryptUpdate(ctx, s->out, &l1, s->in, (int)s->len) ||
                !EVP_DecryptFinal_ex(ctx, s->out + l1, &l2))
                die_openssl("gcm-speed (decrypt, tag check)");
        }
        h = rec_fold(p, h, s->out + s->len - 16);
        break;
    }
    *ns = now_ns() - t0;
    return h;
}

static int rec_setup(const bench_env *env, const workload *w, void **st)
{
    rec_state *s = xmalloc(sizeof(*s));
    uint64_t rng = env->seed ^ 0x7ec;
    size_t keylen;

    memset(s, 0, sizeof(*s));
    s->np = w->floor && env->has_floor ? NPROV_MAX : NPROV;
    for (int p = 0; p < s->np; p++)
        if ((s->cipher[p] = fetch_cipher(env, w->cipher, p)) == NULL ||
            (s->ctx[p] = EVP_CIPHER_CTX_new()) == NULL)
            die_openssl("gcm-rec setup");
    keylen = (size_t)EVP_CIPHER_get_key_length(s->cipher[BASE]);
    if (keylen > sizeof(s->key) || w->size < 16 || w->size > 65535 - 16 ||
        EVP_CIPHER_get_iv_length(s->cipher[BASE]) != REC_NONCE) {
        fprintf(stderr, "fc_bench: %s: unexpected cipher or size\n", w->name);
        return 0;
    }
    s->kind = w->enc;
    s->len = w->size;
    s->per_rec = w->lower_is_better;
    s->in = xmalloc(REC_POOL * s->len);
    s->out = xmalloc(s->len + 16);
    rng_fill(&rng, s->key, sizeof(s->key));
    rng_fill(&rng, s->iv, sizeof(s->iv));
    rng_fill(&rng, s->in, REC_POOL * s->len);
    if (w->no_aad) {
        /* openssl speed without -aead: no AAD. */
        s->aad_len = 0;
    } else if (w->aad == 5) {
        /* TLS 1.3: type, legacy version, ciphertext length. */
        size_t clen = s->len + REC_TAG;

        s->aad_len = 5;
        s->aad[0] = 0x17;
        s->aad[1] = 0x03;
        s->aad[2] = 0x03;
        s->aad[3] = (unsigned char)(clen >> 8);
        s->aad[4] = (unsigned char)clen;
    } else {
        /* TLS 1.2: sequence number, type, version, length. */
        s->aad_len = REC_AAD;
        rng_fill(&rng, s->aad, 8);
        s->aad[8] = 0x17;
        s->aad[9] = 0x03;
        s->aad[10] = 0x03;
        s->aad[11] = (unsigned char)(s->len >> 8);
        s->aad[12] = (unsigned char)s->len;
    }
    if (s->kind == REC_OPEN || s->kind == REC_SPEED_DEC) {
        /* The records to open, sealed in place by the baseline (the
         * speed loop opens the first, whose nonce is the IV itself). */
        if (!EVP_CipherInit_ex(s->ctx[BASE], s->cipher[BASE], NULL, s->key,
                               NULL, 1))
            die_openssl("gcm-rec: EVP_CipherInit_ex (key)");
        for (size_t j = 0; j < REC_POOL; j++) {
            rec_seal(s, BASE, j, s->in + j * s->len, s->tag[j]);
            memcpy(s->in + j * s->len, s->out, s->len);
        }
    }
    s->iters = calibrate(env, s, rec_once, 16, 16);
    *st = s;
    return 1;
}

static int rec_run(void *st, int p, double *value, uint64_t *check)
{
    rec_state *s = st;
    uint64_t ns;

    *check = rec_once(s, p, s->iters, &ns);
    *value = s->per_rec ? (double)ns / (double)s->iters
                        : (double)s->iters * (double)s->len * 1e3 / (double)ns;
    return 1;
}

static void rec_teardown(void *st)
{
    rec_state *s = st;

    for (int p = 0; p < NPROV_MAX; p++) {
        EVP_CIPHER_free(s->cipher[p]);
        EVP_CIPHER_CTX_free(s->ctx[p]);
    }
    free(s->in);
    free(s->out);
    free(s);
}

/* ------------------------------------------------------------------------ */
/* mte-*: TLS 1.2 MAC-then-encrypt records (AES-CBC-HMAC-SHA*). */

#define MTE_POOL 8 /* payloads (seal) or sealed records (open) cycled */
#define MTE_EIV  16

enum { MTE_SEAL, MTE_OPEN, MTE_XFER };

typedef struct mte_state {
    EVP_CIPHER *cipher[NPROV];
    EVP_CIPHER_CTX *enc[NPROV], *dec[NPROV];
    int kind;      /* MTE_* */
    size_t len;    /* payload bytes */
    size_t rec;    /* record bytes: explicit IV, payload, MAC, padding */
    size_t maclen; /* 20 or 32 */
    size_t iters;
    unsigned char key[32], iv[16], mk[32];
    unsigned char *pool;   /* MTE_POOL payloads, each behind its IV block */
    unsigned char *sealed; /* open: MTE_POOL records as the baseline sealed */
    unsigned char *buf;
} mte_state;

/* The 13-byte header of record |seq| whose length field is |len|. */
static void mte_hdr(unsigned char hdr[13], uint64_t seq, size_t len)
{
    for (int i = 0; i < 8; i++)
        hdr[i] = (unsigned char)(seq >> (56 - 8 * i));
    hdr[8] = 0x17;
    hdr[9] = 0x03;
    hdr[10] = 0x03;
    hdr[11] = (unsigned char)(len >> 8);
    hdr[12] = (unsigned char)len;
}

/* Both contexts of provider |p| set up as tls1_change_cipher_state does. */
static void mte_keys(mte_state *s, int p)
{
    int version = 0x0303;
    size_t zero = 0;
    OSSL_PARAM prm[3] = {
        OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_TLS_VERSION, &version),
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &zero),
        OSSL_PARAM_construct_end()};

    for (int e = 0; e <= 1; e++) {
        EVP_CIPHER_CTX *c = e ? s->enc[p] : s->dec[p];

        if (!EVP_CipherInit_ex(c, s->cipher[p], NULL, s->key, s->iv, e) ||
            EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_MAC_KEY, (int)s->maclen,
                                s->mk) <= 0 ||
            !EVP_CIPHER_CTX_set_params(c, prm))
            die_openssl("mte: context setup");
    }
}

/* Seals payload |j| of the pool as record |seq| into s->buf. */
static void mte_seal(mte_state *s, int p, size_t j, uint64_t seq)
{
    unsigned char hdr[13];
    int outl;

    memcpy(s->buf, s->pool + j * (MTE_EIV + s->len), MTE_EIV + s->len);
    mte_hdr(hdr, seq, MTE_EIV + s->len);
    if (EVP_CIPHER_CTX_ctrl(s->enc[p], EVP_CTRL_AEAD_TLS1_AAD, 13, hdr) !=
            (int)(s->rec - MTE_EIV - s->len) ||
        !EVP_CipherUpdate(s->enc[p], s->buf, &outl, s->buf, (int)s->rec) ||
        (size_t)outl != s->rec)
        die_openssl("mte seal");
}

/* Opens the record in s->buf as record |seq|. */
static void mte_open(mte_state *s, int p, uint64_t seq)
{
    unsigned char hdr[13];
    int outl;

    mte_hdr(hdr, seq, s->rec);
    if (EVP_CIPHER_CTX_ctrl(s->dec[p], EVP_CTRL_AEAD_TLS1_AAD, 13, hdr) <= 0 ||
        !EVP_CipherUpdate(s->dec[p], s->buf, &outl, s->buf, (int)s->rec) ||
        (size_t)outl != s->len)
        die_openssl("mte open");
}

static uint64_t mte_once(void *st, int p, size_t iters, uint64_t *ns)
{
    mte_state *s = st;
    uint64_t h = 0, t0;

    mte_keys(s, p);
    t0 = now_ns();
    for (size_t i = 0; i < iters; i++) {
        size_t j = i % MTE_POOL;

        switch (s->kind) {
        case MTE_SEAL:
            mte_seal(s, p, j, i);
            h = fold16(h, s->buf + s->rec - 16);
            break;
        case MTE_OPEN:
            memcpy(s->buf, s->sealed + j * s->rec, s->rec);
            mte_open(s, p, j);
            h = fold16(h, s->buf + MTE_EIV + s->len - 16);
            break;
        default: /* a sender and a receiver: the record goes both ways */
            mte_seal(s, p, j, i);
            h = fold16(h, s->buf + s->rec - 16);
            mte_open(s, p, i);
            h = fold16(h, s->buf + MTE_EIV + s->len - 16);
            break;
        }
    }
    *ns = now_ns() - t0;
    return h;
}

static int mte_setup(const bench_env *env, const workload *w, void **st)
{
    mte_state *s = xmalloc(sizeof(*s));
    uint64_t rng = env->seed ^ 0x3e7;

    memset(s, 0, sizeof(*s));
    for (int p = 0; p < NPROV; p++)
        if ((s->cipher[p] = fetch_cipher(env, w->cipher, p)) == NULL ||
            (s->enc[p] = EVP_CIPHER_CTX_new()) == NULL ||
            (s->dec[p] = EVP_CIPHER_CTX_new()) == NULL)
            die_openssl("mte setup");
    s->kind = w->enc;
    s->len = w->size;
    s->maclen = strstr(w->cipher, "SHA256") != NULL ? 32 : 20;
    s->rec = (MTE_EIV + s->len + s->maclen + 16) & ~(size_t)15;
    s->pool = xmalloc(MTE_POOL * (MTE_EIV + s->len));
    s->sealed = xmalloc(MTE_POOL * s->rec);
    s->buf = xmalloc(s->rec);
    rng_fill(&rng, s->key, sizeof(s->key));
    rng_fill(&rng, s->iv, sizeof(s->iv));
    rng_fill(&rng, s->mk, sizeof(s->mk));
    rng_fill(&rng, s->pool, MTE_POOL * (MTE_EIV + s->len));
    /* The records to open: sealed by the baseline as records 0..7. */
    mte_keys(s, BASE);
    for (size_t j = 0; j < MTE_POOL; j++) {
        mte_seal(s, BASE, j, j);
        memcpy(s->sealed + j * s->rec, s->buf, s->rec);
    }
    s->iters = calibrate(env, s, mte_once, 16, 16);
    *st = s;
    return 1;
}

static int mte_run(void *st, int p, double *value, uint64_t *check)
{
    mte_state *s = st;
    uint64_t ns;

    *check = mte_once(s, p, s->iters, &ns);
    *value = (double)s->iters * (double)s->len * 1e3 / (double)ns;
    return 1;
}

static void mte_teardown(void *st)
{
    mte_state *s = st;

    for (int p = 0; p < NPROV; p++) {
        EVP_CIPHER_free(s->cipher[p]);
        EVP_CIPHER_CTX_free(s->enc[p]);
        EVP_CIPHER_CTX_free(s->dec[p]);
    }
    free(s->pool);
    free(s->sealed);
    free(s->buf);
    free(s);
}

/* ------------------------------------------------------------------------ */
/* rsa-*: RSA private-key operations (sign, decrypt), public-key ones
 * (verify, encrypt) and key import. */

#define RSA_MSG_LEN  130 /* a TLS 1.3 CertificateVerify input (SHA-256) */
#define RSA_PT_LEN   32  /* OAEP: a wrapped 256-bit key */
#define RSA_POOL     16  /* OAEP: ciphertexts cycled through */
#define RSA_MAX_SIZE 1024

enum rsa_kind {
    RSA_SIGN_PSS,
    RSA_OAEP_DEC,
    RSA_IMPORT,
    RSA_IMPORT_SIGN,
    RSA_IMPORT_PUB,
    RSA_IMPORT_PUB_VERIFY,
    RSA_SIGN_V15,   /* PKCS#1 v1.5 SHA-256 signature */
    RSA_VERIFY_V15, /* its verification */
    RSA_V15_DEC,    /* PKCS#1 v1.5 decryption of 32 B */
    RSA_V15_ENC,    /* PKCS#1 v1.5 encryption of 32 B */
    RSA_OAEP_ENC,   /* OAEP-SHA256 encryption of 32 B */
};

/* The padding a kind signs or encrypts with. */
static int rsa_pad_of(enum rsa_kind kind)
{
    switch (kind) {
    case RSA_SIGN_V15:
    case RSA_VERIFY_V15:
    case RSA_V15_DEC:
    case RSA_V15_ENC:
        return RSA_PKCS1_PADDING;
    case RSA_OAEP_DEC:
    case RSA_OAEP_ENC:
        return RSA_PKCS1_OAEP_PADDING;
    default:
        return RSA_PKCS1_PSS_PADDING;
    }
}

typedef struct rsa_state {
    const bench_env *env;
    enum rsa_kind kind;
    int pad; /* rsa_pad_of(kind) */
    size_t iters;
    EVP_PKEY *key[NPROV]; /* the same key, held by each provider's keymgmt */
    OSSL_PARAM *params;   /* the key as the baseline exports it */
    OSSL_PARAM *pub;      /* its public half (n, e) */
    unsigned char psig[RSA_MAX_SIZE]; /* a PSS signature by the baseline */
    EVP_PKEY_CTX *kctx[NPROV];        /* fromdata, keymgmt of provider p */
    EVP_PKEY_CTX *dctx[NPROV];        /* OAEP decryption */
    EVP_MD_CTX *mctx[NPROV];
    size_t size; /* modulus bytes */
    unsigned char msg[RSA_MSG_LEN];
    unsigned char pt[RSA_POOL][RSA_PT_LEN];
    unsigned char ct[RSA_POOL][RSA_MAX_SIZE];
    unsigned char sig[RSA_MAX_SIZE];
    size_t siglen;
    uint64_t import_check; /* rsa-import: digest of an imported key's n */
} rsa_state;

/* The baseline key of each modulus size, generated once per process: key
 * generation is slow and not what is measured. */
static EVP_PKEY *rsa_base_keys[4];
static size_t rsa_base_bits[4];

static EVP_PKEY *rsa_base_key(const bench_env *env, size_t bits)
{
    size_t i;

    for (i = 0; i < 4 && rsa_base_keys[i] != NULL; i++)
        if (rsa_base_bits[i] == bits)
            return rsa_base_keys[i];
    if (i == 4) {
        fprintf(stderr, "fc_bench: too many RSA key sizes\n");
        exit(1);
    }
    rsa_base_keys[i] =
        EVP_PKEY_Q_keygen(env->libctx, env->propq[BASE], "RSA", bits);
    if (rsa_base_keys[i] == NULL)
        die_openssl("EVP_PKEY_Q_keygen (RSA)");
    rsa_base_bits[i] = bits;
    return rsa_base_keys[i];
}

static void rsa_base_keys_free(void)
{
    for (size_t i = 0; i < 4; i++)
        EVP_PKEY_free(rsa_base_keys[i]);
}

/* The padding signatures use: PKCS#1 v1.5 for the v1.5 kinds, else PSS
 * (the OAEP kinds sign only in setup). */
static int rsa_sig_pad(const rsa_state *s)
{
    return s->pad == RSA_PKCS1_PADDING ? RSA_PKCS1_PADDING
                                       : RSA_PKCS1_PSS_PADDING;
}

/* Makes a new key from s->params in provider |p|'s keymgmt. */
static EVP_PKEY *rsa_import(rsa_state *s, int p)
{
    EVP_PKEY *k = NULL;

    if (EVP_PKEY_fromdata(s->kctx[p], &k, EVP_PKEY_KEYPAIR, s->params) <= 0)
        die_openssl("EVP_PKEY_fromdata (RSA)");
    return k;
}

/*
 * One PSS-SHA256 signature (salt = hash length, as TLS 1.3 uses) of s->msg
 * with |key| on provider |p| into s->sig. The context is set up per
 * signature, as a TLS server does per handshake.
 */
static void rsa_sign_pss(rsa_state *s, int p, EVP_PKEY *key)
{
    EVP_PKEY_CTX *pctx = NULL;

    s->siglen = sizeof(s->sig);
    if (!EVP_DigestSignInit_ex(s->mctx[p], &pctx, "SHA256", s->env->libctx,
                               s->env->propq[p], key, NULL) ||
        EVP_PKEY_CTX_set_rsa_padding(pctx, rsa_sig_pad(s)) <= 0 ||
        (rsa_sig_pad(s) == RSA_PKCS1_PSS_PADDING &&
         EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) <= 0) ||
        !EVP_DigestSign(s->mctx[p], s->sig, &s->siglen, s->msg,
                        sizeof(s->msg)) ||
        s->siglen != s->size)
        die_openssl("EVP_DigestSign (RSA)");
}

/* Verifies the PSS signature |sig| of s->msg (made by the other provider)
 * with |key| on provider |p|. */
static void rsa_verify_with(rsa_state *s, int p, EVP_PKEY *key,
                            const unsigned char *sig)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;

    if (m == NULL ||
        !EVP_DigestVerifyInit_ex(m, &pctx, "SHA256", s->env->libctx,
                                 s->env->propq[p], key, NULL) ||
        EVP_PKEY_CTX_set_rsa_padding(pctx, rsa_sig_pad(s)) <= 0 ||
        (rsa_sig_pad(s) == RSA_PKCS1_PSS_PADDING &&
         EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) <= 0))
        die_openssl("EVP_DigestVerifyInit_ex (RSA)");
    if (EVP_DigestVerify(m, sig, s->size, s->msg, sizeof(s->msg)) != 1) {
        fprintf(stderr, "fc_bench: a signature by %s does not verify with %s\n",
                s->env->name[NPROV - 1 - p], s->env->name[p]);
        ERR_print_errors_fp(stderr);
        exit(1);
    }
    EVP_MD_CTX_free(m);
}

/* Verifies s->sig (made by the other provider) on provider |p|. */
static void rsa_verify_pss(rsa_state *s, int p)
{
    rsa_verify_with(s, p, s->key[p], s->sig);
}

/* Makes a public key from s->pub in provider |p|'s keymgmt. */
static EVP_PKEY *rsa_import_pub(rsa_state *s, int p)
{
    EVP_PKEY *k = NULL;

    if (EVP_PKEY_fromdata(s->kctx[p], &k, EVP_PKEY_PUBLIC_KEY, s->pub) <= 0)
        die_openssl("EVP_PKEY_fromdata (RSA public)");
    return k;
}

/* An encryption or decryption context for |key| on provider |p|: OAEP-SHA256
 * (MGF1-SHA256) or PKCS#1 v1.5, by s->pad. */
static EVP_PKEY_CTX *rsa_oaep_ctx(rsa_state *s, int p, EVP_PKEY *key, int enc)
{
    EVP_PKEY_CTX *c =
        EVP_PKEY_CTX_new_from_pkey(s->env->libctx, key, s->env->propq[p]);

    if (c == NULL ||
        (enc ? EVP_PKEY_encrypt_init(c) : EVP_PKEY_decrypt_init(c)) <= 0 ||
        EVP_PKEY_CTX_set_rsa_padding(c, s->pad) <= 0 ||
        (s->pad == RSA_PKCS1_OAEP_PADDING &&
         (EVP_PKEY_CTX_set_rsa_oaep_md_name(c, "SHA256", NULL) <= 0 ||
          EVP_PKEY_CTX_set_rsa_mgf1_md_name(c, "SHA256", NULL) <= 0)))
        die_openssl("RSA encryption context");
    return c;
}

static void rsa_oaep_encrypt(rsa_state *s, int p, const unsigned char *pt,
                             unsigned char *ct)
{
    EVP_PKEY_CTX *c = rsa_oaep_ctx(s, p, s->key[p], 1);
    size_t outlen = s->size;

    if (EVP_PKEY_encrypt(c, ct, &outlen, pt, RSA_PT_LEN) <= 0 ||
        outlen != s->size)
        die_openssl("EVP_PKEY_encrypt (RSA)");
    EVP_PKEY_CTX_free(c);
}

static void rsa_oaep_decrypt(rsa_state *s, int p, const unsigned char *ct,
                             unsigned char *pt)
{
    size_t outlen = RSA_MAX_SIZE;

    if (EVP_PKEY_decrypt(s->dctx[p], pt, &outlen, ct, s->size) <= 0 ||
        outlen != RSA_PT_LEN)
        die_openssl("EVP_PKEY_decrypt (RSA)");
}

/* Folds a big-endian parameter of |k| (e.g. "n"), to compare keys. */
static uint64_t rsa_fold_param(EVP_PKEY *k, const char *name, size_t size)
{
    unsigned char buf[RSA_MAX_SIZE];
    BIGNUM *bn = NULL;
    uint64_t h = 0;

    if (!EVP_PKEY_get_bn_param(k, name, &bn) ||
        BN_bn2binpad(bn, buf, (int)size) < 0)
        die_openssl("EVP_PKEY_get_bn_param");
    BN_free(bn);
    for (size_t i = 0; i + 16 <= size; i += 16)
        h = fold16(h, buf + i);
    return h;
}

static uint64_t rsa_once(void *st, int p, size_t iters, uint64_t *ns)
{
    rsa_state *s = st;
    unsigned char pt[RSA_MAX_SIZE];
    uint64_t h = 0, t0;
    EVP_PKEY *k;

    t0 = now_ns();
    switch (s->kind) {
    case RSA_SIGN_PSS:
    case RSA_SIGN_V15:
        for (size_t i = 0; i < iters; i++)
            rsa_sign_pss(s, p, s->key[p]);
        break;
    case RSA_VERIFY_V15:
        for (size_t i = 0; i < iters; i++)
            rsa_verify_with(s, p, s->key[p], s->psig);
        break;
    case RSA_V15_ENC:
    case RSA_OAEP_ENC:
        for (size_t i = 0; i < iters; i++)
            rsa_oaep_encrypt(s, p, s->pt[i % RSA_POOL], s->ct[i % RSA_POOL]);
        break;
    case RSA_OAEP_DEC:
    case RSA_V15_DEC:
        for (size_t i = 0; i < iters; i++) {
            size_t j = i % RSA_POOL;

            rsa_oaep_decrypt(s, p, s->ct[j], pt);
            if (memcmp(pt, s->pt[j], RSA_PT_LEN) != 0) {
                fprintf(stderr, "fc_bench: %s: RSA decrypts wrongly\n",
                        s->env->name[p]);
                exit(1);
            }
            h = fold16(fold16(h, pt), pt + 16);
        }
        break;
    case RSA_IMPORT:
        for (size_t i = 0; i < iters; i++)
            EVP_PKEY_free(rsa_import(s, p));
        break;
    case RSA_IMPORT_SIGN:
        for (size_t i = 0; i < iters; i++) {
            k = rsa_import(s, p);
            rsa_sign_pss(s, p, k);
            EVP_PKEY_free(k);
        }
        break;
    case RSA_IMPORT_PUB:
        for (size_t i = 0; i < iters; i++)
            EVP_PKEY_free(rsa_import_pub(s, p));
        break;
    case RSA_IMPORT_PUB_VERIFY:
        for (size_t i = 0; i < iters; i++) {
            k = rsa_import_pub(s, p);
            rsa_verify_with(s, p, k, s->psig);
            EVP_PKEY_free(k);
        }
        break;
    }
    *ns = now_ns() - t0;

    /* Untimed: the result must hold up against the other provider. */
    switch (s->kind) {
    case RSA_SIGN_PSS:
    case RSA_SIGN_V15:
    case RSA_IMPORT_SIGN:
        if (iters > 0)
            rsa_verify_pss(s, NPROV - 1 - p);
        h = 1; /* randomised output: "verified" is what both must agree on */
        break;
    case RSA_VERIFY_V15:
        h = 1; /* each verification passed */
        break;
    case RSA_V15_ENC:
    case RSA_OAEP_ENC:
        /* Randomised too: what was encrypted last must open on the other
         * provider. */
        for (size_t j = 0; j < RSA_POOL && j < iters; j++) {
            rsa_oaep_decrypt(s, NPROV - 1 - p, s->ct[j], pt);
            if (memcmp(pt, s->pt[j], RSA_PT_LEN) != 0) {
                fprintf(stderr,
                        "fc_bench: %s: encryption does not open on %s\n",
                        s->env->name[p], s->env->name[NPROV - 1 - p]);
                exit(1);
            }
        }
        h = 1;
        break;
    case RSA_V15_DEC:
    case RSA_IMPORT:
    case RSA_IMPORT_PUB:
    case RSA_IMPORT_PUB_VERIFY:
        /* The imported key must say it is the key it was given (and a
         * verification that passed is all a verifying loop shows). */
        k = s->kind == RSA_IMPORT ? rsa_import(s, p) : rsa_import_pub(s, p);
        h = rsa_fold_param(k, OSSL_PKEY_PARAM_RSA_N, s->size) ^
            rsa_fold_param(k, OSSL_PKEY_PARAM_RSA_E, s->size);
        EVP_PKEY_free(k);
        break;
    case RSA_OAEP_DEC:
        break;
    }
    return h;
}

static int rsa_setup(const bench_env *env, const workload *w, void **st)
{
    rsa_state *s = xmalloc(sizeof(*s));
    uint64_t rng = env->seed ^ 0x45a;
    unsigned char pt[RSA_MAX_SIZE];

    memset(s, 0, sizeof(*s));
    s->env = env;
    s->kind = (enum rsa_kind)w->enc;
    s->pad = rsa_pad_of(s->kind);
    s->key[BASE] = rsa_base_key(env, w->size);
    if (!EVP_PKEY_up_ref(s->key[BASE]))
        die_openssl("EVP_PKEY_up_ref");
    s->size = (size_t)EVP_PKEY_get_size(s->key[BASE]);
    if (s->size > RSA_MAX_SIZE) {
        fprintf(stderr, "fc_bench: %s: key too large\n", w->name);
        return 0;
    }
    /* What libcrypto hands a provider when it exports a key to it. */
    if (EVP_PKEY_todata(s->key[BASE], EVP_PKEY_KEYPAIR, &s->params) <= 0 ||
        EVP_PKEY_todata(s->key[BASE], EVP_PKEY_PUBLIC_KEY, &s->pub) <= 0)
        die_openssl("EVP_PKEY_todata (RSA)");
    for (int p = 0; p < NPROV; p++) {
        s->kctx[p] =
            EVP_PKEY_CTX_new_from_name(env->libctx, "RSA", env->propq[p]);
        if (s->kctx[p] == NULL || EVP_PKEY_fromdata_init(s->kctx[p]) <= 0) {
            fprintf(stderr, "fc_bench: provider %s has no RSA keymgmt\n",
                    env->name[p]);
            die_openssl("EVP_PKEY_fromdata_init");
        }
        if ((s->mctx[p] = EVP_MD_CTX_new()) == NULL)
            die_openssl("EVP_MD_CTX_new");
    }
    s->key[CAND] = rsa_import(s, CAND);
    rng_fill(&rng, s->msg, sizeof(s->msg));
    /* what the public-key rows verify: a signature by the baseline, which
     * the candidate's full key must accept too */
    rsa_sign_pss(s, BASE, s->key[BASE]);
    memcpy(s->psig, s->sig, s->size);
    rsa_verify_with(s, CAND, s->key[CAND], s->psig);
    rng_fill(&rng, &s->pt[0][0], sizeof(s->pt));

    if (s->pad != RSA_PKCS1_PSS_PADDING) {
        for (int p = 0; p < NPROV; p++)
            s->dctx[p] = rsa_oaep_ctx(s, p, s->key[p], 0);
        /* OAEP is randomised too: the pool is the baseline's, and one
         * candidate ciphertext must open on the baseline. */
        for (size_t j = 0; j < RSA_POOL; j++)
            rsa_oaep_encrypt(s, BASE, s->pt[j], s->ct[j]);
        rsa_oaep_encrypt(s, CAND, s->pt[0], pt);
        rsa_oaep_decrypt(s, BASE, pt, pt);
        if (memcmp(pt, s->pt[0], RSA_PT_LEN) != 0) {
            fprintf(stderr, "fc_bench: %s: RSA by %s does not open on %s\n",
                    w->name, env->name[CAND], env->name[BASE]);
            return 0;
        }
    }
    s->iters = calibrate(env, s, rsa_once, 1, 4);
    *st = s;
    return 1;
}

static int rsa_run(void *st, int p, double *value, uint64_t *check)
{
    rsa_state *s = st;
    uint64_t ns;

    *check = rsa_once(s, p, s->iters, &ns);
    *value = (double)s->iters * 1e9 / (double)ns;
    return 1;
}

static void rsa_teardown(void *st)
{
    rsa_state *s = st;

    for (int p = 0; p < NPROV; p++) {
        EVP_PKEY_free(s->key[p]);
        EVP_PKEY_CTX_free(s->kctx[p]);
        EVP_PKEY_CTX_free(s->dctx[p]);
        EVP_MD_CTX_free(s->mctx[p]);
    }
    OSSL_PARAM_free(s->params);
    OSSL_PARAM_free(s->pub);
    free(s);
}

/* ------------------------------------------------------------------------ */
/* drbg-*: CTR-DRBG generate calls. */

typedef struct drbg_state {
    EVP_RAND_CTX *parent[NPROV];
    EVP_RAND_CTX *drbg[NPROV];
    size_t len;   /* bytes per generate call */
    size_t iters; /* calls per sample, fixed after calibration */
    unsigned char *out;
} drbg_state;

static uint64_t drbg_once(void *st, int p, size_t iters, uint64_t *ns)
{
    drbg_state *s = st;
    uint64_t t0 = now_ns();

    for (size_t i = 0; i < iters; i++)
        if (!EVP_RAND_generate(s->drbg[p], s->out, s->len, 256, 0, NULL, 0))
            die_openssl("EVP_RAND_generate");
    *ns = now_ns() - t0;
    return fold16(0, s->out + s->len - 16);
}

/* Both generators restart from the same state before every sample, so
 * the two providers' outputs (and the checks) are the same bytes. */
static void drbg_restart(const drbg_state *s, int p)
{
    static const unsigned char ent[48] = "fc_bench drbg: fixed entropy input";
    static const unsigned char nonce[16] = "fc_bench nonce";
    /* Explicit: each provider has its own default personalization. */
    static const unsigned char pers[] = "fc_bench drbg";
    unsigned int never = 0;
    OSSL_PARAM tp[3], dp[2];

    tp[0] = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_ENTROPY,
                                              (void *)ent, sizeof(ent));
    tp[1] = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_NONCE,
                                              (void *)nonce, sizeof(nonce));
    tp[2] = OSSL_PARAM_construct_end();
    dp[0] = OSSL_PARAM_construct_uint(OSSL_DRBG_PARAM_RESEED_REQUESTS, &never);
    dp[1] = OSSL_PARAM_construct_end();
    EVP_RAND_uninstantiate(s->drbg[p]);
    EVP_RAND_uninstantiate(s->parent[p]);
    if (!EVP_RAND_instantiate(s->parent[p], 256, 0, NULL, 0, tp) ||
        !EVP_RAND_CTX_set_params(s->drbg[p], dp) ||
        !EVP_RAND_instantiate(s->drbg[p], 256, 0, pers, sizeof(pers), NULL))
        die_openssl("DRBG instantiate");
}

static int drbg_setup(const bench_env *env, const workload *w, void **st)
{
    drbg_state *s = xmalloc(sizeof(*s));

    memset(s, 0, sizeof(*s));
    s->len = w->size;
    s->out = xmalloc(s->len);
    for (int p = 0; p < NPROV; p++) {
        EVP_RAND *tr =
            EVP_RAND_fetch(env->libctx, "TEST-RAND", "provider=default");
        EVP_RAND *dr = EVP_RAND_fetch(env->libctx, "CTR-DRBG", env->propq[p]);
        unsigned int strength = 256;
        int df = 1;
        OSSL_PARAM tp[2], dp[3];

        if (tr == NULL || dr == NULL) {
            fprintf(stderr, "fc_bench: %s: no TEST-RAND or CTR-DRBG in %s\n",
                    w->name, env->name[p]);
            die_openssl("EVP_RAND_fetch");
        }
        s->parent[p] = EVP_RAND_CTX_new(tr, NULL);
        s->drbg[p] = s->parent[p] ? EVP_RAND_CTX_new(dr, s->parent[p]) : NULL;
        EVP_RAND_free(tr);
        EVP_RAND_free(dr);
        tp[0] = OSSL_PARAM_construct_uint(OSSL_RAND_PARAM_STRENGTH, &strength);
        tp[1] = OSSL_PARAM_construct_end();
        dp[0] = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER,
                                                 "AES-256-CTR", 0);
        dp[1] = OSSL_PARAM_construct_int(OSSL_DRBG_PARAM_USE_DF, &df);
        dp[2] = OSSL_PARAM_construct_end();
        if (s->drbg[p] == NULL || !EVP_RAND_CTX_set_params(s->parent[p], tp) ||
            !EVP_RAND_CTX_set_params(s->drbg[p], dp))
            die_openssl("DRBG setup");
        drbg_restart(s, p);
    }
    s->iters = calibrate(env, s, drbg_once, 16, 16);
    *st = s;
    return 1;
}

static int drbg_run(void *st, int p, double *value, uint64_t *check)
{
    drbg_state *s = st;
    uint64_t ns;

    drbg_restart(s, p);
    *check = drbg_once(s, p, s->iters, &ns);
    *value = (double)ns / (double)s->iters;
    return 1;
}

static void drbg_teardown(void *st)
{
    drbg_state *s = st;

    for (int p = 0; p < NPROV; p++) {
        EVP_RAND_CTX_free(s->drbg[p]);
        EVP_RAND_CTX_free(s->parent[p]);
    }
    free(s->out);
    free(s);
}

/* ------------------------------------------------------------------------ */
/* The table. Add a row (and its three functions) to add a workload. */

static const workload workloads[] = {
    {.name = "cbc-small",
     .help = "AES-256-CBC encrypt, 47..2048 B messages, fresh key+IV each",
     .unit = "ns/msg",
     .lower_is_better = 1,
     .cipher = "AES-256-CBC",
     .enc = 1,
     .floor = 1,
     .setup = small_setup,
     .run = small_run,
     .teardown = small_teardown},
#define BULK(n, h, c, e)                                                       \
    {                                                                          \
        .name = n, .help = h, .unit = "MB/s", .cipher = c, .enc = e,           \
        .setup = bulk_setup, .run = bulk_run, .teardown = bulk_teardown        \
    }
    BULK("cbc-16k-enc-128", "AES-128-CBC encrypt, 16 KiB calls, key kept",
         "AES-128-CBC", 1),
    BULK("cbc-16k-enc-256", "AES-256-CBC encrypt, 16 KiB calls, key kept",
         "AES-256-CBC", 1),
    BULK("cbc-16k-dec-128", "AES-128-CBC decrypt, 16 KiB calls, key kept",
         "AES-128-CBC", 0),
    BULK("cbc-16k-dec-256", "AES-256-CBC decrypt, 16 KiB calls, key kept",
         "AES-256-CBC", 0),
#undef BULK
#define TLS13(n, h, c, e, len)                                                 \
    {                                                                          \
        .name = n, .help = h, .unit = "MB/s", .cipher = c,                     \
        .enc = (e) ? REC_SEAL : REC_OPEN, .size = len, .aad = 5,               \
        .setup = rec_setup, .run = rec_run, .teardown = rec_teardown           \
    }
    TLS13("gcm-tls13-seal-128-16k", "AES-128-GCM TLS 1.3 records, 16 KiB, seal",
          "AES-128-GCM", 1, 16384),
    TLS13("gcm-tls13-seal-256-16k", "AES-256-GCM TLS 1.3 records, 16 KiB, seal",
          "AES-256-GCM", 1, 16384),
    TLS13("gcm-tls13-open-128-16k", "AES-128-GCM TLS 1.3 records, 16 KiB, open",
          "AES-128-GCM", 0, 16384),
    TLS13("gcm-tls13-open-256-16k", "AES-256-GCM TLS 1.3 records, 16 KiB, open",
          "AES-256-GCM", 0, 16384),
    TLS13("gcm-tls13-seal-128-1350",
          "AES-128-GCM TLS 1.3 records, 1350 B, seal", "AES-128-GCM", 1, 1350),
    TLS13("gcm-tls13-seal-256-1350",
          "AES-256-GCM TLS 1.3 records, 1350 B, seal", "AES-256-GCM", 1, 1350),
    TLS13("gcm-tls13-open-128-1350",
          "AES-128-GCM TLS 1.3 records, 1350 B, open", "AES-128-GCM", 0, 1350),
    TLS13("gcm-tls13-open-256-1350",
          "AES-256-GCM TLS 1.3 records, 1350 B, open", "AES-256-GCM", 0, 1350),
#undef TLS13
#define REC(n, h, c, kind, len)                                                \
    {                                                                          \
        .name = n, .help = h, .unit = "ns/rec", .lower_is_better = 1,          \
        .cipher = c, .enc = kind, .size = len, .floor = 1, .setup = rec_setup, \
        .run = rec_run, .teardown = rec_teardown                               \
    }
    REC("gcm-rec-seal-128-16", "AES-128-GCM record, 16 B, seal", "AES-128-GCM",
        REC_SEAL, 16),
    REC("gcm-rec-seal-128-64", "AES-128-GCM record, 64 B, seal", "AES-128-GCM",
        REC_SEAL, 64),
    REC("gcm-rec-seal-128-256", "AES-128-GCM record, 256 B, seal",
        "AES-128-GCM", REC_SEAL, 256),
    REC("gcm-rec-seal-128-1350", "AES-128-GCM record, 1350 B, seal",
        "AES-128-GCM", REC_SEAL, 1350),
    REC("gcm-rec-seal-128-16k", "AES-128-GCM record, 16 KiB, seal",
        "AES-128-GCM", REC_SEAL, 16384),
    REC("gcm-rec-open-128-16", "AES-128-GCM record, 16 B, open", "AES-128-GCM",
        REC_OPEN, 16),
    REC("gcm-rec-open-128-1350", "AES-128-GCM record, 1350 B, open",
        "AES-128-GCM", REC_OPEN, 1350),
    REC("gcm-rec-seal-256-16", "AES-256-GCM record, 16 B, seal", "AES-256-GCM",
        REC_SEAL, 16),
    REC("gcm-rec-seal-256-1350", "AES-256-GCM record, 1350 B, seal",
        "AES-256-GCM", REC_SEAL, 1350),
    REC("gcm-rec-seal-256-16k", "AES-256-GCM record, 16 KiB, seal",
        "AES-256-GCM", REC_SEAL, 16384),
    REC("gcm-rec-open-256-16k", "AES-256-GCM record, 16 KiB, open",
        "AES-256-GCM", REC_OPEN, 16384),
    /* The arm64 seeds' sizes: 1 KiB and 8 KiB seal and open. */
    REC("gcm-rec-seal-128-1k", "AES-128-GCM record, 1 KiB, seal", "AES-128-GCM",
        REC_SEAL, 1024),
    REC("gcm-rec-open-128-1k", "AES-128-GCM record, 1 KiB, open", "AES-128-GCM",
        REC_OPEN, 1024),
    REC("gcm-rec-seal-128-8k", "AES-128-GCM record, 8 KiB, seal", "AES-128-GCM",
        REC_SEAL, 8192),
    REC("gcm-rec-open-128-8k", "AES-128-GCM record, 8 KiB, open", "AES-128-GCM",
        REC_OPEN, 8192),
    REC("gcm-rec-seal-256-1k", "AES-256-GCM record, 1 KiB, seal", "AES-256-GCM",
        REC_SEAL, 1024),
    REC("gcm-rec-open-256-1k", "AES-256-GCM record, 1 KiB, open", "AES-256-GCM",
        REC_OPEN, 1024),
    REC("gcm-rec-seal-256-8k", "AES-256-GCM record, 8 KiB, seal", "AES-256-GCM",
        REC_SEAL, 8192),
    REC("gcm-rec-open-256-8k", "AES-256-GCM record, 8 KiB, open", "AES-256-GCM",
        REC_OPEN, 8192),
    REC("gcm-speed-aead-128-16", "openssl speed -evp -aead, AES-128-GCM, 16 B",
        "AES-128-GCM", REC_SPEED, 16),
    REC("gcm-speed-aead-128-1350",
        "openssl speed -evp -aead, AES-128-GCM, 1350 B", "AES-128-GCM",
        REC_SPEED, 1350),
#define SPEED(bits, e, len)                                                    \
    {                                                                          \
        .name = "gcm-speed-" e "-" #bits "-" #len,                             \
        .help =                                                                \
            "openssl speed -evp (3.2+), AES-" #bits "-GCM " e ", " #len " B",  \
        .unit = "ns/rec", .lower_is_better = 1, .cipher = "AES-" #bits "-GCM", \
        .enc = e[0] == 'e' ? REC_SPEED : REC_SPEED_DEC, .size = len,           \
        .no_aad = 1, .floor = 1, .setup = rec_setup, .run = rec_run,           \
        .teardown = rec_teardown                                               \
    }
    SPEED(128, "enc", 16),
    SPEED(128, "enc", 64),
    SPEED(128, "enc", 256),
    SPEED(128, "enc", 1350),
    SPEED(128, "dec", 16),
    SPEED(128, "dec", 64),
    SPEED(128, "dec", 1350),
    SPEED(256, "enc", 16),
    SPEED(256, "enc", 64),
    SPEED(256, "enc", 256),
    SPEED(256, "enc", 1350),
    SPEED(256, "dec", 64),
#undef SPEED
#undef REC
#define MTE(n, h, c, kind, len)                                                \
    {                                                                          \
        .name = n, .help = h, .unit = "MB/s", .cipher = c, .enc = kind,        \
        .size = len, .setup = mte_setup, .run = mte_run,                       \
        .teardown = mte_teardown                                               \
    }
#define MTE4(c, ciph, what)                                                    \
    MTE("mte-xfer-" c "-16k", what ", TLS 1.2, 16 KiB, seal + open", ciph,     \
        MTE_XFER, 16384),                                                      \
        MTE("mte-xfer-" c "-1k", what ", TLS 1.2, 1 KiB, seal + open", ciph,   \
            MTE_XFER, 1024),                                                   \
        MTE("mte-seal-" c "-16k", what ", TLS 1.2, 16 KiB, seal", ciph,        \
            MTE_SEAL, 16384),                                                  \
        MTE("mte-open-" c "-16k", what ", TLS 1.2, 16 KiB, open", ciph,        \
            MTE_OPEN, 16384),                                                  \
        MTE("mte-seal-" c "-1k", what ", TLS 1.2, 1 KiB, seal", ciph,          \
            MTE_SEAL, 1024),                                                   \
        MTE("mte-open-" c "-1k", what ", TLS 1.2, 1 KiB, open", ciph,          \
            MTE_OPEN, 1024)
    MTE4("128-sha1", "AES-128-CBC-HMAC-SHA1", "AES-128-CBC-HMAC-SHA1 records"),
    MTE4("256-sha1", "AES-256-CBC-HMAC-SHA1", "AES-256-CBC-HMAC-SHA1 records"),
    MTE4("128-sha256", "AES-128-CBC-HMAC-SHA256",
         "AES-128-CBC-HMAC-SHA256 records"),
    MTE4("256-sha256", "AES-256-CBC-HMAC-SHA256",
         "AES-256-CBC-HMAC-SHA256 records"),
#undef MTE4
#undef MTE
#define RSAW(n, h, kind)                                                       \
    {                                                                          \
        .name = n, .help = h, .unit = "ops/s", .enc = kind, .size = 2048,      \
        .setup = rsa_setup, .run = rsa_run, .teardown = rsa_teardown           \
    }
    RSAW("rsa-sign-pss",
         "RSA-2048 PSS-SHA256 sign (DigestSignInit_ex + DigestSign each)",
         RSA_SIGN_PSS),
    RSAW("rsa-oaep-dec", "RSA-2048 OAEP-SHA256 decrypt of 32 B", RSA_OAEP_DEC),
    RSAW("rsa-import",
         "RSA-2048 key pair into the provider's keymgmt (EVP_PKEY_fromdata)",
         RSA_IMPORT),
    RSAW("rsa-import-sign",
         "RSA-2048 EVP_PKEY_fromdata + first PSS sign with the new key",
         RSA_IMPORT_SIGN),
    RSAW("rsa-import-pub",
         "RSA-2048 public key (n, e) into the keymgmt (EVP_PKEY_fromdata)",
         RSA_IMPORT_PUB),
    RSAW("rsa-import-pub-verify",
         "RSA-2048 public key import + first PSS verify, as a TLS client",
         RSA_IMPORT_PUB_VERIFY),
#undef RSAW
/* Per modulus size: PKCS#1 v1.5 SHA-256 sign and verify, PKCS#1 v1.5
 * and OAEP-SHA256 decrypt and encrypt of 32 B. */
#define RSA1(bits, b, suffix, what, op)                                        \
    {                                                                          \
        .name = "rsa" b suffix, .help = "RSA-" b " " what, .unit = "ops/s",    \
        .enc = op, .size = bits, .setup = rsa_setup, .run = rsa_run,           \
        .teardown = rsa_teardown                                               \
    }
#define RSAN(bits, b)                                                          \
    RSA1(bits, b, "-sign", "PKCS#1 v1.5 SHA-256 sign", RSA_SIGN_V15),          \
        RSA1(bits, b, "-verify", "PKCS#1 v1.5 SHA-256 verify",                 \
             RSA_VERIFY_V15),                                                  \
        RSA1(bits, b, "-v15-dec", "PKCS#1 v1.5 decrypt of 32 B", RSA_V15_DEC), \
        RSA1(bits, b, "-v15-enc", "PKCS#1 v1.5 encrypt of 32 B", RSA_V15_ENC), \
        RSA1(bits, b, "-oaep-dec", "OAEP-SHA256 decrypt of 32 B",              \
             RSA_OAEP_DEC),                                                    \
        RSA1(bits, b, "-oaep-enc", "OAEP-SHA256 encrypt of 32 B",              \
             RSA_OAEP_ENC)
    RSAN(2048, "2048"),
    RSAN(3072, "3072"),
    RSAN(4096, "4096"),
#undef RSAN
#undef RSA1
#define DRBGW(n, h, len)                                                       \
    {                                                                          \
        .name = n, .help = h, .unit = "ns/call", .lower_is_better = 1,         \
        .size = len, .setup = drbg_setup, .run = drbg_run,                     \
        .teardown = drbg_teardown                                              \
    }
    DRBGW("drbg-16", "CTR-DRBG (AES-256, df) generate, 16 B per call", 16),
    DRBGW("drbg-256", "CTR-DRBG (AES-256, df) generate, 256 B per call", 256),
    DRBGW("drbg-4k", "CTR-DRBG (AES-256, df) generate, 4 KiB per call", 4096),
    DRBGW("drbg-64k", "CTR-DRBG (AES-256, df) generate, 64 KiB per call",
          65536),
#undef DRBGW
};

/* ------------------------------------------------------------------------ */
/* Running and reporting. */

typedef struct result {
    int np; /* providers measured: NPROV, or NPROV_MAX with the floor */
    double med[NPROV_MAX], lo[NPROV_MAX], hi[NPROV_MAX];
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
    double *v[NPROV_MAX], *ratio;
    uint64_t chk[NPROV_MAX];
    void *st = NULL;
    double value;
    int np = w->floor && env->has_floor ? NPROV_MAX : NPROV;

    if (!w->setup(env, w, &st))
        return 0;
    res->np = np;
    for (int p = 0; p < np; p++)
        v[p] = xmalloc((size_t)rounds * sizeof(double));
    ratio = xmalloc((size_t)rounds * sizeof(double));

    /* Warm-up (caches, page faults, lazy init) and the output cross-check
     * (the floor computes nothing to compare). */
    for (int p = 0; p < np; p++)
        w->run(st, p, &value, &chk[p]);
    if (chk[BASE] != chk[CAND]) {
        fprintf(stderr, "fc_bench: %s: %s and %s produce different output\n",
                w->name, env->name[BASE], env->name[CAND]);
        exit(1);
    }

    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < np; k++) {
            int p = (r % 2) ? np - 1 - k : k; /* A B C, C B A, ... */
            uint64_t c;

            w->run(st, p, &v[p][r], &c);
            if (p != FLOOR && c != chk[BASE]) {
                fprintf(stderr, "fc_bench: %s: output changed in round %d\n",
                        w->name, r);
                exit(1);
            }
        }
        ratio[r] = speedup(w, v[BASE][r], v[CAND][r]);
    }

    for (int p = 0; p < np; p++) {
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
    int fl = res->np > FLOOR;
    double f = fl ? res->med[FLOOR] : 0;

    if (csv) {
        printf("%s,%s,%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.4f,%.4f,%.4f", w->name,
               w->unit, rounds, res->med[BASE], res->lo[BASE], res->hi[BASE],
               res->med[CAND], res->lo[CAND], res->hi[CAND], res->ratio,
               res->ratio_lo, res->ratio_hi);
        if (fl)
            printf(",%.2f,%.2f,%.2f\n", f, res->med[BASE] - f,
                   res->med[CAND] - f);
        else
            printf(",,,\n");
    } else {
        printf("%-24s %s=%.1f %s [%.1f..%.1f]  %s=%.1f %s [%.1f..%.1f]  "
               "ratio=%.2fx  (%.2f..%.2f over %d rounds)\n",
               w->name, env->name[BASE], res->med[BASE], w->unit, res->lo[BASE],
               res->hi[BASE], env->name[CAND], res->med[CAND], w->unit,
               res->lo[CAND], res->hi[CAND], res->ratio, res->ratio_lo,
               res->ratio_hi, rounds);
        if (fl)
            printf("%-24s floor=%.1f %s [%.1f..%.1f]  above the floor: "
                   "%s=%.1f %s=%.1f %s\n",
                   "", f, w->unit, res->lo[FLOOR], res->hi[FLOOR],
                   env->name[BASE], res->med[BASE] - f, env->name[CAND],
                   res->med[CAND] - f, w->unit);
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

/*
 * The candidate's own operation counters, if it keeps any (fastcrypto's
 * "fastcrypto-stats"): the proof that it served the candidate's side.
 */
static void print_provider_stats(const bench_env *env, OSSL_PROVIDER *prov,
                                 int csv)
{
    char buf[1024];
    OSSL_PARAM q[] = {
        OSSL_PARAM_utf8_string("fastcrypto-stats", buf, sizeof(buf)),
        OSSL_PARAM_END,
    };

    buf[0] = '\0';
    if (prov == NULL || !OSSL_PROVIDER_get_params(prov, q) ||
        !OSSL_PARAM_modified(&q[0]))
        return;
    printf("%sprovider %s stats: %s\n", csv ? "# " : "", env->name[CAND], buf);
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
        "  --floor PATH        the do-nothing provider (fcfloor.so): gcm-rec,\n"
        "                      gcm-speed and cbc-small rows also report the\n"
        "                      cost above libcrypto's own floor\n"
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
    const char *module = NULL, *path = NULL, *floor_path = NULL;
    char *dir = NULL, **sel = xmalloc((size_t)argc * sizeof(char *));
    int rounds = 5, csv = 0, nsel = 0, nrun = 0;
    OSSL_PROVIDER *prov[NPROV_MAX] = {NULL, NULL, NULL};

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
        else if (strcmp(a, "--floor") == 0 && val)
            floor_path = val;
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
                printf("%-24s %s\n", workloads[k].name, workloads[k].help);
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

    env.name[FLOOR] = "fcfloor";
    for (int p = 0; p < NPROV_MAX; p++)
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
    /* The kernels are measured whether or not fastcrypto offers them by
     * default on this CPU (FASTCRYPTO_OFFER, fc/offer.h), unless the
     * caller says otherwise. */
    setenv("FASTCRYPTO_OFFER", "all", 0);
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

    /* The floor is loaded by path; its algorithms carry provider=fcfloor
     * whatever name the core gives it. */
    if (floor_path != NULL) {
        prov[FLOOR] = OSSL_PROVIDER_load(env.libctx, floor_path);
        if (prov[FLOOR] == NULL) {
            fprintf(stderr, "fc_bench: cannot load the floor %s\n", floor_path);
            die_openssl("OSSL_PROVIDER_load");
        }
        env.has_floor = 1;
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
               "%s_min,%s_max,ratio,ratio_min,ratio_max,floor_median,"
               "base_above_floor,cand_above_floor\n",
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

    print_provider_stats(&env, prov[CAND], csv);
    rsa_base_keys_free();
    for (int p = 0; p < NPROV_MAX; p++)
        if (prov[p] != NULL)
            OSSL_PROVIDER_unload(prov[p]);
    OSSL_LIB_CTX_free(env.libctx);
    free(dir);
    free(sel);
    return nrun > 0 ? 0 : 1;
}
