/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa.c - the raw RSA primitive on our Montgomery kernels (see fc/rsa.h):
 * key import, the per-key state prepared at first use, the public
 * operation and the private operation (CRT, base blinding, check before
 * release). Key generation is in rsa_keygen.c, the number theory in
 * bn_nt.c, the engines in rsa_engine*.c.
 *
 * Import is cheap: the components are checked as far as that is cheap and
 * default checks them at import (sizes, n odd, 1 < e < n, d < n, the
 * primes odd and their product n) and stored; the key's engines are chosen
 * (rsa_key_choose). Everything a key's operations need beyond that (the
 * Montgomery contexts of n and the primes, the CRT exponents reduced, the
 * coefficients in Montgomery form, the products of the primes, the CRT
 * engine's per-key state) is made at the first operation by rsa_prepare,
 * once, under the key's lock, and read without it afterwards: a TLS client
 * importing a server's public key per handshake pays for the context of n
 * only if it verifies, as default does (it makes its Montgomery contexts
 * lazily too).
 *
 * Private operation. For an input c < n:
 *   1. take a blinding pair (A, Ai) = (r^e, r^-1) mod n, kept in Montgomery
 *      form with the key, and blind: c' = c * A mod n;
 *   2. m' = c'^d mod n by CRT (RFC 8017 5.1.2): m_i = c'^d_i mod r_i for
 *      the primes r_1 = p, r_2 = q, r_3.. (p and q on the key's CRT engine,
 *      both at once on the vector ones; the others by fc_bn_mod_exp), with
 *      the public exponent length 64 * limbs; then Garner: h = qinv *
 *      (m_1 - m_2) mod p, m = m_2 + h * q, and for each further prime
 *      h = (m_i - m) * t_i mod r_i, m = m + (r_1 ... r_(i-1)) * h. Keys
 *      without CRT parts use c'^d mod n;
 *   3. unblind: m = m' * Ai mod n (= c^d * r * r^-1);
 *   4. check m^e mod n == c before anything is written out: a fault in any
 *      step (a corrupted dp, a glitched multiplication) would otherwise hand
 *      out a value that factors n (the Bellcore attack). On a mismatch the
 *      output is zeros and the call fails.
 * Products of two non-Montgomery values x * y mod m are one kernel call
 * with one operand kept in Montgomery form (x * (y R) / R), so A, Ai and
 * the coefficients are stored as A R, Ai R and t R.
 *
 * Blinding pair. r is drawn from the caller's RNG (n-length plus 64 bits,
 * reduced mod n: bias below 2^-64). A = r^e with the public-exponent ladder.
 * r^-1 must not come from a variable-time inverse of a secret; it comes
 * from a constant-time inverse (Bernstein-Yang division steps,
 * fc_bn_ct_inverse in bn_nt.c): with CRT parts mod each prime, combined by
 * the same Garner steps as above, else mod n. Inconsistent key parts only
 * make a wrong pair, hence a wrong result, which step 4 catches.
 * After each use both halves of the stored pair are squared (a pair for
 * r^2); every FC_RSA_BLINDING_USES uses, and whenever getpid() differs from
 * the process that drew it (a fork), a fresh pair is drawn. The pair is
 * guarded by the key's mutex; the regeneration runs outside it, so
 * concurrent callers never wait for one another's arithmetic.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "fc/bn.h"
#include "fc/bn_nt.h"
#include "fc/common.h"
#include "fc/ct.h"
#include "fc/rsa.h"
#include "fc/rsa_engine.h"

typedef unsigned __int128 fc_u128;

#define MAXL FC_BN_MAX_LIMBS
#define MAXP FC_RSA_MAX_PRIMES

/* Uses of one blinding pair (squared in between) before a fresh one. */
#define FC_RSA_BLINDING_USES 32

struct fc_rsa_key {
    size_t bits, size; /* modulus bit and byte lengths (public) */
    size_t nl, el;     /* limbs of n and e */
    int has_d;
    size_t np;        /* primes: 0 (no CRT parts) or 2..MAXP */
    size_t pl[MAXP];  /* limbs of each prime */
    size_t xb[MAXP];  /* bit bounds of the exponents as given (8 * bytes) */
    size_t tb[MAXP];  /* and of the coefficients (t[1] = qinv) */
    size_t ppl[MAXP]; /* limbs of r_0 ... r_(i-1), i >= 2 */
    /* Chosen once, at import (rsa_key_choose): the CRT exponentiation of
     * the first two primes, the kernels of every context. */
    const fc_rsa_engine *crt;
    const fc_bn_ops *kn, *kp[MAXP];
    /* The key as imported, in |mem|: n, e, d (NULL without); per prime
     * r_i, its exponent and coefficient as given (possibly unreduced: what
     * export hands back, as default keeps them; nl limbs each; t_in[0]
     * unused). */
    uint64_t *n, *e, *d;
    uint64_t *r[MAXP], *x_in[MAXP], *t_in[MAXP];
    /* Made at first use by rsa_prepare, read-only once |ready| is set:
     * the contexts, the exponents mod r_i - 1, the coefficients as
     * (t mod r) R mod r for their prime r (rsa_coef_mod), the products
     * r_0 ... r_(i-1), the CRT engine's state. */
    int ready; /* atomic, release after the state is made */
    fc_mont mn, mr[MAXP];
    void *pre;
    uint64_t *x[MAXP], *t_m[MAXP], *pp[MAXP];
    /* Blinding state, under |lock| (which also serialises rsa_prepare). */
    pthread_mutex_t lock;
    uint64_t *bl_a, *bl_ai; /* A R mod n, Ai R mod n; n limbs each */
    unsigned bl_uses;
    int bl_valid;
    pid_t bl_pid;
    /* Every limb array above, right after the struct (one allocation, one
     * wipe). */
    uint64_t *mem;
    size_t mem_limbs;
};

/* ------------------------------------------------------------------------ */
/* Key import. */

/* The prime coefficient i is reduced by: qinv (i = 1) is q^-1 mod p, the
 * others t_i = (r_0 ... r_(i-1))^-1 mod r_i (RFC 8017 3.2). */
static size_t rsa_coef_mod(size_t i)
{
    return i == 1 ? 0 : i;
}

/* Points the key's limb arrays into |base| (NULL: only count) and returns
 * the limbs they take. Depends on the public sizes only. */
static size_t rsa_key_layout(fc_rsa_key *k, uint64_t *base)
{
    size_t o = 0;
#define PLACE(ptr, limbs)                                                      \
    do {                                                                       \
        if (base != NULL)                                                      \
            (ptr) = base + o;                                                  \
        o += (limbs);                                                          \
    } while (0)

    PLACE(k->n, k->nl);
    PLACE(k->e, k->el);
    if (k->has_d)
        PLACE(k->d, k->nl);
    for (size_t i = 0; i < k->np; i++) {
        PLACE(k->r[i], k->pl[i]);
        PLACE(k->x_in[i], k->nl);
        PLACE(k->x[i], k->pl[i]);
        if (i >= 1) {
            PLACE(k->t_in[i], k->nl);
            PLACE(k->t_m[i], k->pl[rsa_coef_mod(i)]);
        }
        if (i >= 2)
            PLACE(k->pp[i], k->ppl[i]);
    }
    PLACE(k->bl_a, k->nl);
    PLACE(k->bl_ai, k->nl);
#undef PLACE
    return o;
}

/*
 * The key's engines, chosen here and nowhere else (fc/rsa_engine.h): the
 * CRT exponentiation from the first engine of |list| that takes the first
 * two primes' limb counts, each Montgomery context's kernels from the first
 * engine whose kernels take its size. An engine that refuses a size passes
 * it to the next one in the list.
 */
static void rsa_key_choose(fc_rsa_key *k, const fc_rsa_engines *list)
{
    k->kn = fc_rsa_kernels_for(list, k->nl);
    if (k->np >= 2)
        k->crt = fc_rsa_engine_for(list, k->pl[0], k->pl[1]);
    for (size_t i = 0; i < k->np; i++)
        k->kp[i] = fc_rsa_kernels_for(list, k->pl[i]);
}

/* One big-endian component, stripped of leading zeros (its length is
 * public, its value not). */
typedef struct rsa_be {
    const uint8_t *b;
    size_t len;
} rsa_be;

static rsa_be rsa_be_of(const uint8_t *b, size_t len)
{
    rsa_be v;

    v.b = fc_be_strip(b, len, &v.len);
    return v;
}

/* The CRT components of |c| in prime order: factor, exponent, coefficient
 * (coefficient 0 unused). Returns the number of primes, 0 without CRT
 * parts, or (size_t)-1 if only some are present. */
static size_t rsa_crt_parts(const fc_rsa_components *c, rsa_be f[MAXP],
                            rsa_be x[MAXP], rsa_be t[MAXP])
{
    const int n = (c->p != NULL) + (c->q != NULL) + (c->dp != NULL) +
                  (c->dq != NULL) + (c->qinv != NULL);

    if (n == 0 && c->extra == 0)
        return 0;
    if (n != 5 || c->extra > MAXP - 2)
        return (size_t)-1;
    f[0] = rsa_be_of(c->p, c->p_len);
    f[1] = rsa_be_of(c->q, c->q_len);
    x[0] = rsa_be_of(c->dp, c->dp_len);
    x[1] = rsa_be_of(c->dq, c->dq_len);
    t[0] = rsa_be_of(NULL, 0);
    t[1] = rsa_be_of(c->qinv, c->qinv_len);
    for (size_t i = 0; i < c->extra; i++) {
        if (c->r[i] == NULL || c->dr[i] == NULL || c->tr[i] == NULL)
            return (size_t)-1;
        f[2 + i] = rsa_be_of(c->r[i], c->r_len[i]);
        x[2 + i] = rsa_be_of(c->dr[i], c->dr_len[i]);
        t[2 + i] = rsa_be_of(c->tr[i], c->tr_len[i]);
    }
    return 2 + c->extra;
}

/* see fc/rsa.h */
fc_rsa_key *fc_rsa_key_new(const fc_rsa_components *c,
                           const fc_rsa_engines *engines, const char **reason)
{
    const char *why = "out of memory";
    rsa_be nb, eb, db = {NULL, 0}, f[MAXP], x[MAXP], t[MAXP];
    size_t nbits, np, sum_pl = 0;
    uint64_t tmp[MAXL + MAXP], prod[MAXL + MAXP];
    fc_rsa_key hdr, *k = NULL;

    memset(&hdr, 0, sizeof(hdr));
    if (c == NULL || engines == NULL || c->n == NULL || c->e == NULL) {
        why = "missing modulus or public exponent";
        goto err;
    }
    /* Public parts: plain checks. */
    nb = rsa_be_of(c->n, c->n_len);
    eb = rsa_be_of(c->e, c->e_len);
    nbits = fc_be_bits(nb.b, nb.len);
    if (nbits < FC_RSA_MIN_BITS || nbits > FC_RSA_MAX_BITS) {
        why = "modulus size out of range";
        goto err;
    }
    if (nbits > 64 * MAXL) {
        why = "modulus larger than the bignum layer supports";
        goto err;
    }
    if ((nb.b[nb.len - 1] & 1) == 0) {
        why = "even modulus";
        goto err;
    }
    if (eb.len == 0 || (eb.b[eb.len - 1] & 1) == 0 ||
        (eb.len == 1 && eb.b[0] == 1) || eb.len > nb.len) {
        why = "public exponent not odd and > 1";
        goto err;
    }
    hdr.bits = nbits;
    hdr.size = nb.len;
    hdr.nl = fc_bn_limbs_for_bits(nbits);
    hdr.el = fc_bn_limbs_for_bits(fc_be_bits(eb.b, eb.len));

    /* Private parts: only their lengths steer the checks below, apart from
     * pass/fail outcomes. */
    hdr.has_d = c->d != NULL;
    if (hdr.has_d) {
        db = rsa_be_of(c->d, c->d_len);
        if (db.len == 0 || db.len > nb.len) {
            why = "private exponent zero or longer than the modulus";
            goto err;
        }
    }
    np = rsa_crt_parts(c, f, x, t);
    if (np == (size_t)-1) {
        why = "incomplete CRT parameters";
        goto err;
    }
    hdr.np = np;
    for (size_t i = 0; i < np; i++) {
        if (f[i].len == 0 || f[i].len > nb.len) {
            why = "bad prime factor length";
            goto err;
        }
        hdr.pl[i] = fc_bn_limbs_for_bits(fc_be_bits(f[i].b, f[i].len));
        sum_pl += hdr.pl[i];
        hdr.ppl[i] = i >= 2 ? sum_pl - hdr.pl[i] : 0;
        /* Exponents and coefficients need not be reduced (dp + (p - 1) is
         * as good a CRT exponent): they are reduced at first use, and only
         * a value longer than the modulus is refused. */
        if (x[i].len == 0 || x[i].len > nb.len ||
            (i >= 1 && (t[i].len == 0 || t[i].len > nb.len))) {
            why = "bad CRT parameter length";
            goto err;
        }
        hdr.xb[i] = 8 * x[i].len;
        hdr.tb[i] = 8 * t[i].len;
    }
    /* The primes' product has at most nl + np - 1 limbs. */
    if (np > 0 && sum_pl > hdr.nl + np - 1) {
        why = "bad CRT parameter length";
        goto err;
    }

    /* One allocation: the key, then its limbs. */
    hdr.mem_limbs = rsa_key_layout(&hdr, NULL);
    k = calloc(1, sizeof(*k) + hdr.mem_limbs * sizeof(uint64_t));
    if (k == NULL)
        goto err;
    *k = hdr;
    k->mem = (uint64_t *)(k + 1);
    if (pthread_mutex_init(&k->lock, NULL) != 0) {
        free(k);
        k = NULL;
        goto err;
    }
    rsa_key_layout(k, k->mem);
    fc_bn_from_bytes_be(k->n, k->nl, nb.b, nb.len);
    fc_bn_from_bytes_be(k->e, k->el, eb.b, eb.len);
    /* e < n: certain when e has fewer limbs (n's top limb is nonzero) */
    if (k->el == k->nl && !fc_bn_cmp_lt(k->e, k->n, k->nl)) {
        why = "public exponent not below the modulus";
        goto err;
    }
    if (k->has_d) {
        uint64_t lt;

        fc_bn_from_bytes_be(k->d, k->nl, db.b, db.len);
        lt = fc_bn_cmp_lt(k->d, k->n, k->nl);
        FC_CT_PUBLIC(&lt, sizeof(lt)); /* the key is refused */
        if (!lt) {
            why = "private exponent not below the modulus";
            goto err;
        }
    }
    for (size_t i = 0; i < np; i++) {
        uint64_t bad;

        fc_bn_from_bytes_be(k->r[i], k->pl[i], f[i].b, f[i].len);
        fc_bn_from_bytes_be(k->x_in[i], k->nl, x[i].b, x[i].len);
        if (i >= 1)
            fc_bn_from_bytes_be(k->t_in[i], k->nl, t[i].b, t[i].len);
        /* A prime is odd and above 1 (what its Montgomery context needs);
         * the outcome is public (the key is refused). */
        bad = fc_ct_is_zero(k->r[i][0] & 1) |
              (fc_ct_eq(k->pl[i], 1) & fc_ct_eq(k->r[i][0], 1));
        FC_CT_PUBLIC(&bad, sizeof(bad));
        if (bad) {
            why = "invalid prime factor";
            goto err;
        }
    }
    if (np > 0) {
        /* The product of the primes is n. The outcome is public. */
        size_t len = k->pl[0];
        uint64_t ok = 0;

        memcpy(prod, k->r[0], len * sizeof(uint64_t));
        for (size_t i = 1; i < np; i++) {
            fc_bn_mul(tmp, prod, len, k->r[i], k->pl[i]);
            len += k->pl[i];
            memcpy(prod, tmp, len * sizeof(uint64_t));
        }
        ok = len >= k->nl ? fc_bn_eq(prod, k->n, k->nl) : 0;
        for (size_t j = k->nl; j < len; j++)
            ok &= fc_ct_is_zero(prod[j]);
        FC_CT_PUBLIC(&ok, sizeof(ok));
        if (!ok) {
            why = np == 2 ? "p * q does not match the modulus"
                          : "the primes' product does not match the modulus";
            goto err;
        }
    }
    rsa_key_choose(k, engines);
    fc_memzero(tmp, sizeof(tmp));
    fc_memzero(prod, sizeof(prod));
    return k;

err:
    fc_memzero(tmp, sizeof(tmp));
    fc_memzero(prod, sizeof(prod));
    fc_rsa_key_free(k);
    if (reason != NULL)
        *reason = why;
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* The state made at first use. */

/* Makes what rsa_prepare promises; on failure the caller frees what was
 * made (the contexts are zero until made). Returns 1 or 0 (allocation). */
static int rsa_prepare_locked(fc_rsa_key *k)
{
    uint64_t rm1[MAXL];
    int ok = 0;

    if (!fc_mont_init(&k->mn, k->n, k->nl, k->kn))
        goto done;
    for (size_t i = 0; i < k->np; i++) {
        /* The prime was checked at import: only allocation can fail. */
        if (!fc_mont_init(&k->mr[i], k->r[i], k->pl[i], k->kp[i]))
            goto done;
        /* x_i mod (r_i - 1) (x^(d + j(r - 1)) = x^d mod r): r - 1 is r with
         * its low bit cleared, of the same (public) bit length. */
        memcpy(rm1, k->r[i], k->pl[i] * sizeof(uint64_t));
        rm1[0] &= ~(uint64_t)1;
        fc_bn_mod_shift(k->x[i], k->x_in[i], k->nl, k->xb[i], rm1, k->pl[i],
                        k->mr[i].bits);
        if (i >= 1) {
            /* t as (t mod r) R mod r for its prime r (p for qinv): one
             * kernel call per product */
            const fc_mont *mt = &k->mr[rsa_coef_mod(i)];

            fc_bn_mod_shift(k->t_m[i], k->t_in[i], k->nl, k->tb[i], mt->m,
                            mt->n, mt->bits);
            fc_mont_to(mt, k->t_m[i], k->t_m[i]);
        }
        if (i == 2)
            fc_bn_mul(k->pp[2], k->r[0], k->pl[0], k->r[1], k->pl[1]);
        else if (i > 2)
            fc_bn_mul(k->pp[i], k->pp[i - 1], k->ppl[i - 1], k->r[i - 1],
                      k->pl[i - 1]);
    }
    if (k->np >= 2 && k->crt->pre_new != NULL &&
        (k->pre = k->crt->pre_new(&k->mr[0], &k->mr[1])) == NULL)
        goto done;
    ok = 1;
done:
    fc_bn_wipe(rm1, MAXL);
    return ok;
}

/* Frees the state made at first use (the key is no longer shared). */
static void rsa_unprepare(fc_rsa_key *k)
{
    fc_mont_free(&k->mn);
    for (size_t i = 0; i < MAXP; i++)
        fc_mont_free(&k->mr[i]);
    if (k->pre != NULL)
        k->crt->pre_free(k->pre);
    k->pre = NULL;
}

/*
 * Makes the key's operational state on first use, once: threads that find
 * it missing serialise on the key's lock, the first one makes it, the
 * others then see |ready| set. |ready| is stored with release order after
 * everything is made and loaded with acquire order, so a thread that sees
 * it set also sees the state. Returns 1, or 0 on allocation failure (the
 * next call tries again).
 */
static int rsa_prepare(fc_rsa_key *k)
{
    int ok = 1;

    if (__atomic_load_n(&k->ready, __ATOMIC_ACQUIRE))
        return 1;
    pthread_mutex_lock(&k->lock);
    if (!k->ready) {
        ok = rsa_prepare_locked(k);
        if (ok)
            __atomic_store_n(&k->ready, 1, __ATOMIC_RELEASE);
        else
            rsa_unprepare(k);
    }
    pthread_mutex_unlock(&k->lock);
    return ok;
}

/* see fc/rsa.h */
void fc_rsa_key_free(fc_rsa_key *key)
{
    if (key == NULL)
        return;
    rsa_unprepare(key);
    fc_bn_wipe(key->mem, key->mem_limbs);
    pthread_mutex_destroy(&key->lock);
    fc_memzero(key, sizeof(*key));
    free(key);
}

/* see fc/rsa.h */
fc_rsa_key *fc_rsa_key_dup(const fc_rsa_key *key)
{
    fc_rsa_key *k;
    int ready;

    if (key == NULL)
        return NULL;
    k = malloc(sizeof(*k) + key->mem_limbs * sizeof(uint64_t));
    if (k == NULL)
        return NULL;
    /* The sizes and choices; the state made at first use is copied only
     * if it is complete (acquire: then every part of it is visible), else
     * the copy makes its own. */
    ready = __atomic_load_n(&key->ready, __ATOMIC_ACQUIRE);
    *k = *key;
    memset(&k->mn, 0, sizeof(k->mn));
    memset(k->mr, 0, sizeof(k->mr));
    k->pre = NULL;
    k->ready = 0;
    k->mem = (uint64_t *)(k + 1);
    if (pthread_mutex_init(&k->lock, NULL) != 0) {
        free(k);
        return NULL;
    }
    memcpy(k->mem, key->mem, key->mem_limbs * sizeof(uint64_t));
    rsa_key_layout(k, k->mem);
    /* The copy draws its own blinding pair. */
    k->bl_valid = 0;
    fc_bn_wipe(k->bl_a, k->nl);
    fc_bn_wipe(k->bl_ai, k->nl);
    if (ready) {
        int ok = fc_mont_copy(&k->mn, &key->mn);

        for (size_t i = 0; i < k->np; i++)
            ok &= fc_mont_copy(&k->mr[i], &key->mr[i]);
        if (ok && key->pre != NULL)
            ok = (k->pre = key->crt->pre_dup(key->pre)) != NULL;
        if (!ok) {
            fc_rsa_key_free(k);
            return NULL;
        }
        k->ready = 1;
    }
    return k;
}

/* see fc/rsa.h */
size_t fc_rsa_bits(const fc_rsa_key *key)
{
    return key->bits;
}

/* see fc/rsa.h */
size_t fc_rsa_size(const fc_rsa_key *key)
{
    return key->size;
}

/* see fc/rsa.h */
int fc_rsa_has_private(const fc_rsa_key *key)
{
    return key->has_d || key->np > 0;
}

/* see fc/rsa.h */
int fc_rsa_has_crt(const fc_rsa_key *key)
{
    return key->np > 0;
}

/* see fc/rsa.h */
const fc_rsa_engine *fc_rsa_key_engine(const fc_rsa_key *key)
{
    return key->np > 0 ? key->crt : NULL;
}

/* see fc/rsa.h */
const fc_bn_ops *fc_rsa_key_kernels(const fc_rsa_key *key, char which)
{
    switch (which) {
    case 'n':
        return key->kn;
    case 'p':
        return key->np > 0 ? key->kp[0] : NULL;
    case 'q':
        return key->np > 0 ? key->kp[1] : NULL;
    }
    return NULL;
}

/* |v| (w limbs) big-endian without leading zeros into |out|: the byte
 * length is the length. Returns 0 if absent or |cap| is too small. */
static int rsa_put_be(const uint64_t *v, size_t w, uint8_t *out, size_t cap,
                      size_t *len)
{
    size_t bytes;

    if (v == NULL)
        return 0;
    bytes = (fc_bn_bits(v, w) + 7) / 8;
    if (bytes > cap)
        return 0;
    fc_bn_to_bytes_be(out, bytes, v, w);
    *len = bytes;
    return 1;
}

/* see fc/rsa.h */
size_t fc_rsa_num_primes(const fc_rsa_key *key)
{
    return key->np;
}

/* see fc/rsa.h */
int fc_rsa_get_prime_part(const fc_rsa_key *key, char kind, size_t i,
                          uint8_t *out, size_t cap, size_t *len)
{
    if (i >= key->np)
        return 0;
    switch (kind) {
    case 'r':
        return rsa_put_be(key->r[i], key->pl[i], out, cap, len);
    case 'd':
        return rsa_put_be(key->x_in[i], key->nl, out, cap, len);
    case 't':
        return i >= 1 && rsa_put_be(key->t_in[i], key->nl, out, cap, len);
    }
    return 0;
}

/* see fc/rsa.h */
int fc_rsa_get_component(const fc_rsa_key *key, char which, uint8_t *out,
                         size_t cap, size_t *len)
{
    switch (which) {
    case 'n':
        return rsa_put_be(key->n, key->nl, out, cap, len);
    case 'e':
        return rsa_put_be(key->e, key->el, out, cap, len);
    case 'd':
        return rsa_put_be(key->d, key->nl, out, cap, len);
    case 'p':
        return fc_rsa_get_prime_part(key, 'r', 0, out, cap, len);
    case 'q':
        return fc_rsa_get_prime_part(key, 'r', 1, out, cap, len);
    case 'P':
        return fc_rsa_get_prime_part(key, 'd', 0, out, cap, len);
    case 'Q':
        return fc_rsa_get_prime_part(key, 'd', 1, out, cap, len);
    case 'i':
        return fc_rsa_get_prime_part(key, 't', 1, out, cap, len);
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The operations. */

/* see fc/rsa.h */
int fc_rsa_public(fc_rsa_key *key, uint8_t *out, const uint8_t *in)
{
    const size_t nl = key->nl;
    uint64_t x[MAXL], y[MAXL], lt;
    int ret = 0;

    if (!rsa_prepare(key))
        return 0;
    fc_bn_from_bytes_be(x, nl, in, key->size);
    lt = fc_bn_cmp_lt(x, key->n, nl);
    FC_CT_PUBLIC(&lt, sizeof(lt));
    if (lt && fc_bn_mod_exp_public(&key->mn, y, x, key->e, key->el)) {
        fc_bn_to_bytes_be(out, key->size, y, nl);
        ret = 1;
    }
    fc_bn_wipe(x, nl);
    fc_bn_wipe(y, nl);
    return ret;
}

/*
 * out (n limbs) = the x mod n with x = m[i] mod r_i for every prime, m[i]
 * < r_i (Garner, RFC 8017 5.1.2 step 2): h = qinv * (m_1 - m_2) mod p,
 * x = m_2 + h * q; then for each further prime h = (m_i - x) * t_i mod
 * r_i, x = x + (r_1 ... r_(i-1)) * h. Each step keeps x below the product
 * of the primes so far.
 */
static void rsa_crt_combine(const fc_rsa_key *k, uint64_t *out,
                            uint64_t m[MAXP][MAXL])
{
    const size_t nl = k->nl, pl = k->pl[0], ql = k->pl[1];
    const fc_mont *mp = &k->mr[0];
    uint64_t h[MAXL], t[MAXL + MAXP], borrow, c;
    size_t len;

    /* x grows to the primes' product, limbs above it zero */
    memset(t, 0, sizeof(t));
    /* m_2 may exceed p when q > p. */
    fc_mont_reduce_wide(mp, h, m[1], ql);
    borrow = fc_bn_sub(h, m[0], h, pl);
    fc_bn_add_masked(h, mp->m, pl, 0 - borrow);
    mp->ops->mul(h, h, k->t_m[1], mp->m, mp->m0inv, pl);
    fc_bn_mul(t, h, pl, k->r[1], ql);
    /* t + m_2 < p*q: the carry out of the low ql limbs runs through the rest
     * without a branch. */
    len = pl + ql;
    t[len] = 0;
    c = fc_bn_add(t, t, m[1], ql);
    for (size_t j = ql; j <= len; j++) {
        fc_u128 s = (fc_u128)t[j] + c;
        t[j] = (uint64_t)s;
        c = (uint64_t)(s >> 64);
    }
    for (size_t i = 2; i < k->np; i++) {
        const fc_mont *mi = &k->mr[i];
        const size_t il = k->pl[i];
        uint64_t u[2 * MAXL + MAXP];

        /* h = (m_i - x mod r_i) t_i mod r_i */
        fc_mont_reduce_wide(mi, h, t, len);
        borrow = fc_bn_sub(h, m[i], h, il);
        fc_bn_add_masked(h, mi->m, il, 0 - borrow);
        mi->ops->mul(h, h, k->t_m[i], mi->m, mi->m0inv, il);
        /* x += (r_1 ... r_(i-1)) h, below r_1 ... r_i */
        fc_bn_mul(u, k->pp[i], k->ppl[i], h, il);
        len = k->ppl[i] + il;
        t[len] = 0;
        c = fc_bn_add(t, u, t, len);
        t[len] = c;
        fc_bn_wipe(u, len);
    }
    /* The product of the primes is n: limbs above nl are zero. */
    memcpy(out, t, nl * sizeof(uint64_t));
    fc_bn_wipe(h, MAXL);
    fc_bn_wipe(t, MAXL + MAXP);
}

/* y (n limbs) = x^d mod n for x < n, by CRT when the parts are there.
 * Returns 0 on allocation failure. */
static int rsa_exp_private(const fc_rsa_key *k, uint64_t *y, const uint64_t *x)
{
    uint64_t m[MAXP][MAXL];
    int ok;

    if (k->np == 0)
        return fc_bn_mod_exp(&k->mn, y, x, k->d, k->nl, k->bits);
    for (size_t i = 0; i < k->np; i++)
        fc_mont_reduce_wide(&k->mr[i], m[i], x, k->nl);
    /* The key's engine for the first two primes (both at once on the
     * vector engines), fc_bn_mod_exp for the others; the exponent lengths
     * are the public 64 * limbs. */
    ok = k->crt->exp2(k->pre, &k->mr[0], m[0], m[0], k->x[0], 64 * k->pl[0],
                      &k->mr[1], m[1], m[1], k->x[1], 64 * k->pl[1]);
    for (size_t i = 2; i < k->np; i++)
        ok &= fc_bn_mod_exp(&k->mr[i], m[i], m[i], k->x[i], k->pl[i],
                            64 * k->pl[i]);
    if (ok)
        rsa_crt_combine(k, y, m);
    fc_memzero(m, sizeof(m));
    return ok;
}

/* A fresh blinding pair: a = r^e R mod n, ai = r^-1 R mod n, the inverse
 * through the primes when |use_crt|, else mod n. Returns 0 on an RNG or
 * allocation failure. */
static int rsa_blinding_new(const fc_rsa_key *k, uint64_t *a, uint64_t *ai,
                            int use_crt, fc_rand_fn *rng, void *rng_arg)
{
    const size_t nl = k->nl;
    uint8_t rb[8 * (MAXL + 1)];
    uint64_t r[MAXL + 1], x[MAXP][MAXL];
    int ok = 0;

    /* n + 64 bits reduced mod n (nl + 1 <= 2 nl). */
    if (rng == NULL || !rng(rng_arg, rb, 8 * (nl + 1)))
        goto done;
    fc_bn_from_bytes_be(r, nl + 1, rb, 8 * (nl + 1));
    fc_mont_reduce_wide(&k->mn, r, r, nl + 1);
    if (!fc_bn_mod_exp_public(&k->mn, a, r, k->e, k->el))
        goto done;
    if (use_crt) {
        /* Half-size inverses cost about half of one mod n. */
        for (size_t i = 0; i < k->np; i++) {
            fc_mont_reduce_wide(&k->mr[i], x[i], r, nl);
            fc_bn_ct_inverse(&k->mr[i], x[i], x[i]);
        }
        rsa_crt_combine(k, ai, x);
    } else {
        fc_bn_ct_inverse(&k->mn, ai, r);
    }
    fc_mont_to(&k->mn, a, a);
    fc_mont_to(&k->mn, ai, ai);
    ok = 1;
done:
    fc_memzero(rb, sizeof(rb));
    fc_bn_wipe(r, nl + 1);
    fc_memzero(x, sizeof(x));
    return ok;
}

/* Takes the key's current blinding pair into a, ai and advances the stored
 * one (squares it), or draws a new one when it is used up, absent, or
 * inherited across a fork. */
static int rsa_blinding_take(fc_rsa_key *k, uint64_t *a, uint64_t *ai,
                             fc_rand_fn *rng, void *rng_arg)
{
    const fc_mont *mn = &k->mn;
    const size_t nl = mn->n;
    const pid_t pid = getpid();

    pthread_mutex_lock(&k->lock);
    if (k->bl_valid && k->bl_pid == pid && k->bl_uses < FC_RSA_BLINDING_USES) {
        memcpy(a, k->bl_a, nl * sizeof(uint64_t));
        memcpy(ai, k->bl_ai, nl * sizeof(uint64_t));
        mn->ops->sqr(k->bl_a, k->bl_a, mn->m, mn->m0inv, nl);
        mn->ops->sqr(k->bl_ai, k->bl_ai, mn->m, mn->m0inv, nl);
        k->bl_uses++;
        pthread_mutex_unlock(&k->lock);
        return 1;
    }
    pthread_mutex_unlock(&k->lock);

    /* Regenerate without holding the lock (about one private operation). If
     * two threads race here, each uses its own pair and the last one stored
     * wins: both are fresh. */
    if (!rsa_blinding_new(k, a, ai, k->np > 0, rng, rng_arg))
        return 0;
    pthread_mutex_lock(&k->lock);
    mn->ops->sqr(k->bl_a, a, mn->m, mn->m0inv, nl);
    mn->ops->sqr(k->bl_ai, ai, mn->m, mn->m0inv, nl);
    k->bl_uses = 1;
    k->bl_pid = pid;
    k->bl_valid = 1;
    pthread_mutex_unlock(&k->lock);
    return 1;
}

/*
 * One blinded private operation on c (< n) into y, checked: y^e == c.
 * With |use_crt| the exponentiation and the blinding inverse go through p
 * and q (the stored blinding pair), else through d alone with a fresh pair
 * made mod n. Returns 1 if the check passed (y holds the result), else 0
 * (y zeroed). The outcome is public: it depends on the key or a fault.
 */
static int rsa_private_once(fc_rsa_key *key, uint64_t *y, const uint64_t *c,
                            int use_crt, fc_rand_fn *rng, void *rng_arg)
{
    const fc_mont *mn = &key->mn;
    const size_t nl = mn->n;
    uint64_t x[MAXL], a[MAXL], ai[MAXL], ok = 0;
    int got;

    if (use_crt)
        got = rsa_blinding_take(key, a, ai, rng, rng_arg);
    else
        got = rsa_blinding_new(key, a, ai, 0, rng, rng_arg);
    if (!got)
        goto done;
    /* c * A: one kernel call, A is held as A R. */
    mn->ops->mul(x, c, a, mn->m, mn->m0inv, nl);
    if (use_crt) {
        if (!rsa_exp_private(key, y, x))
            goto done;
    } else if (!fc_bn_mod_exp(mn, y, x, key->d, nl, key->bits)) {
        goto done;
    }
    mn->ops->mul(y, y, ai, mn->m, mn->m0inv, nl);

    /* Check before release: y^e must give back the input. */
    if (!fc_bn_mod_exp_public(mn, x, y, key->e, key->el))
        goto done;
    ok = fc_bn_eq(x, c, nl);
done:
    for (size_t j = 0; j < nl; j++)
        y[j] &= ok;
    FC_CT_PUBLIC(&ok, sizeof(ok));
    fc_bn_wipe(x, nl);
    fc_bn_wipe(a, nl);
    fc_bn_wipe(ai, nl);
    return ok != 0;
}

/* see fc/rsa.h */
int fc_rsa_private(fc_rsa_key *key, uint8_t *out, const uint8_t *in,
                   fc_rand_fn *rng, void *rng_arg)
{
    const size_t nl = key->nl;
    uint64_t c[MAXL], y[MAXL], lt;
    int ret = 0;

    if (!fc_rsa_has_private(key) || !rsa_prepare(key))
        return 0;
    fc_bn_from_bytes_be(c, nl, in, key->size);
    lt = fc_bn_cmp_lt(c, key->n, nl);
    FC_CT_PUBLIC(&lt, sizeof(lt));
    if (!lt)
        goto done;
    ret = rsa_private_once(key, y, c, key->np > 0, rng, rng_arg);
    /* A CRT value that does not belong to the key (valid p and q, a wrong
     * dp, dq or qinv) fails every check; so would a one-off fault. With d
     * at hand, try once more without CRT, as OpenSSL's own code does: the
     * result is still blinded and checked. */
    if (!ret && key->np > 0 && key->has_d)
        ret = rsa_private_once(key, y, c, 0, rng, rng_arg);
    fc_bn_to_bytes_be(out, key->size, y, nl);
done:
    fc_bn_wipe(c, nl);
    fc_bn_wipe(y, nl);
    return ret;
}

/* see fc/rsa.h */
int fc_rsa_get_d_padded(const fc_rsa_key *key, uint8_t *out)
{
    if (!key->has_d)
        return 0;
    fc_bn_to_bytes_be(out, key->size, key->d, key->nl);
    return 1;
}
