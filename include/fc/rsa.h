/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/rsa.h - the RSA primitive on our Montgomery kernels: key material with
 * its precomputed Montgomery contexts, the public operation, and the private
 * operation (CRT, base blinding, check before release). Padding schemes live
 * in the provider layer (provider/rsa_pad.c); this is raw RSA on byte
 * strings of the modulus length. No OpenSSL headers here.
 */
#ifndef FC_RSA_H
#define FC_RSA_H

#include <stddef.h>
#include <stdint.h>

#include "fc/bn.h"
#include "fc/rsa_engine.h"

/* Modulus sizes fc_rsa_key_new accepts: 512 bits up to the bignum layer's
 * 64 * FC_BN_MAX_LIMBS (8192); OpenSSL's own limit is 16384, and a modulus
 * between the two is refused with its own reason. */
#define FC_RSA_MIN_BITS 512
#define FC_RSA_MAX_BITS 16384

/* The most primes a key may have (OpenSSL's RSA_MAX_PRIME_NUM). */
#define FC_RSA_MAX_PRIMES 5

/* Randomness source for blinding: fills |len| bytes, returns 1 or 0. The
 * provider passes its child library context's DRBG (fork-safe). */
typedef int fc_rand_fn(void *arg, uint8_t *buf, size_t len);

/* Opaque: layout private to provider/core/rsa.c. */
typedef struct fc_rsa_key fc_rsa_key;

/* Big-endian unsigned byte strings, as they come out of OSSL_PARAMs after
 * conversion; a component is absent when its pointer is NULL. A multi-prime
 * key (RFC 8017 3.2) has |extra| more primes r_3.. after p and q, each with
 * its CRT exponent d_i and coefficient t_i = (p q r_3 ... r_(i-1))^-1 mod
 * r_i (OpenSSL's rsa-factor3.., rsa-exponent3.., rsa-coefficient2..). */
typedef struct fc_rsa_components {
    const uint8_t *n, *e, *d, *p, *q, *dp, *dq, *qinv;
    size_t n_len, e_len, d_len, p_len, q_len, dp_len, dq_len, qinv_len;
    size_t extra; /* 0..FC_RSA_MAX_PRIMES - 2 */
    const uint8_t *r[FC_RSA_MAX_PRIMES - 2], *dr[FC_RSA_MAX_PRIMES - 2],
        *tr[FC_RSA_MAX_PRIMES - 2];
    size_t r_len[FC_RSA_MAX_PRIMES - 2], dr_len[FC_RSA_MAX_PRIMES - 2],
        tr_len[FC_RSA_MAX_PRIMES - 2];
} fc_rsa_components;

/*
 * fc_rsa_key_new builds a key from |c|: n and e are required; d (private
 * key without CRT) and p, q, dp, dq, qinv (all five, CRT) are optional, and
 * with them up to FC_RSA_MAX_PRIMES - 2 more primes (each with its exponent
 * and coefficient). It checks the public parts (n odd, 512..8192 bits,
 * 1 < e < n, e odd), d < n, and with CRT parts that the primes are odd and
 * their product is n; and stores the components. The CRT exponents and
 * coefficients may be unreduced (dp + (p - 1), qinv + p, up to the modulus
 * length): they are reduced for use, and fc_rsa_get_component still
 * returns them as given. The key's
 * engines are chosen here, once, from |engines| (fc/rsa_engine.h): the CRT
 * exponentiation from the first engine that takes the halves' sizes, the
 * kernels for n, p and q each from the first engine whose kernels take
 * that size. The per-key state the operations need (Montgomery contexts,
 * reduced exponents, the engine's constants) is made by the key's first
 * operation, once, whichever thread gets there first. Returns NULL on
 * invalid input or allocation failure; |*reason| (if not NULL) receives a
 * short static string saying why. CT: n and e are public; d, p, q, dp, dq,
 * qinv are not leaked beyond their lengths.
 */
fc_rsa_key *fc_rsa_key_new(const fc_rsa_components *c,
                           const fc_rsa_engines *engines, const char **reason);
/* fc_rsa_key_free wipes and frees. NULL-safe. */
void fc_rsa_key_free(fc_rsa_key *key);
/* fc_rsa_key_dup returns an independent deep copy (fresh blinding; the
 * per-key state is copied if the original has made it, else the copy makes
 * its own at first use). */
fc_rsa_key *fc_rsa_key_dup(const fc_rsa_key *key);

/* Queries. fc_rsa_bits: modulus bit length; fc_rsa_size: its byte length;
 * fc_rsa_has_private: 1 if d or the CRT parts are present; fc_rsa_has_crt. */
size_t fc_rsa_bits(const fc_rsa_key *key);
size_t fc_rsa_size(const fc_rsa_key *key);
int fc_rsa_has_private(const fc_rsa_key *key);
int fc_rsa_has_crt(const fc_rsa_key *key);

/*
 * fc_rsa_key_engine returns the engine the key's CRT exponentiation runs on
 * (NULL for a key without CRT parts); fc_rsa_key_kernels the Montgomery
 * kernels of its context for n ('n'), p ('p') or q ('q'), NULL if absent.
 * Both were chosen once, by fc_rsa_key_new. For tests and reports.
 */
const fc_rsa_engine *fc_rsa_key_engine(const fc_rsa_key *key);
const fc_bn_ops *fc_rsa_key_kernels(const fc_rsa_key *key, char which);

/* fc_rsa_num_primes returns the number of primes of the key's CRT form
 * (0 without CRT parts, else 2..FC_RSA_MAX_PRIMES). */
size_t fc_rsa_num_primes(const fc_rsa_key *key);

/*
 * fc_rsa_get_prime_part writes part |kind| of prime |i| (0-based: 0 is p,
 * 1 is q) big-endian into |out| (capacity |cap|), without leading zeros,
 * and sets |*len|: 'r' the prime, 'd' its CRT exponent, 't' its
 * coefficient (i >= 1; i = 1 is qinv), as imported. Returns 0 if absent or
 * too small.
 */
int fc_rsa_get_prime_part(const fc_rsa_key *key, char kind, size_t i,
                          uint8_t *out, size_t cap, size_t *len);

/*
 * fc_rsa_get_component writes component |which| ('n','e','d','p','q',
 * 'P' = dp, 'Q' = dq, 'i' = qinv) big-endian into |out| (capacity |cap|),
 * without leading zeros, and sets |*len|. Returns 0 if absent or too small.
 */
int fc_rsa_get_component(const fc_rsa_key *key, char which, uint8_t *out,
                         size_t cap, size_t *len);

/*
 * fc_rsa_public computes out = in^e mod n. |in| and |out| are fc_rsa_size
 * bytes, big-endian; they may alias. Returns 0 if in >= n, or on an
 * allocation failure making the key's state (first use). Thread-safe on a
 * shared key.
 * CT: the exponent e leaks (public); |in| does not.
 */
int fc_rsa_public(fc_rsa_key *key, uint8_t *out, const uint8_t *in);

/*
 * fc_rsa_private computes out = in^d mod n with CRT when available (else
 * with d), under base blinding with a factor refreshed from |rng| (and
 * re-derived after fork), and checks out^e == in before writing |out|.
 * When the CRT result fails the check and the key has d (a CRT value that
 * does not belong to the key, or a fault), it tries once more with d alone,
 * blinded by a fresh pair and checked the same way.
 * |in| and |out| are fc_rsa_size bytes, big-endian; they may alias. Returns
 * 0 if in >= n, on a failed check (|out| then holds zeros), on an RNG
 * failure, or on an allocation failure making the key's state (first
 * use). Thread-safe on a shared key.
 * CT: nothing about d, p, q, dp, dq, qinv or |in| leaks beyond lengths;
 * whether the CRT attempt failed (a property of the key, or a fault) does.
 */
int fc_rsa_private(fc_rsa_key *key, uint8_t *out, const uint8_t *in,
                   fc_rand_fn *rng, void *rng_arg);

/*
 * fc_rsa_get_d_padded writes the private exponent d big-endian into |out|,
 * exactly fc_rsa_size bytes (leading zeros kept). Returns 0 if the key has
 * no d. CT: nothing about d leaks (not even its bit length).
 */
int fc_rsa_get_d_padded(const fc_rsa_key *key, uint8_t *out);

/*
 * fc_rsa_generate makes a new key of |bits| bits (512..8192) with |primes|
 * primes (2..fc_rsa_max_primes(bits)) and the odd public exponent |e|
 * (big-endian, > 1), primes found with our own Miller-Rabin on our kernels
 * (rounds per FIPS 186-5 table B.1), of bits/primes bits each (the first
 * bits % primes of them one bit longer) with the top two bits set, n of
 * exactly |bits| bits; the kernels and the key's engines come from
 * |engines|. Returns NULL on failure.
 */
fc_rsa_key *fc_rsa_generate(size_t bits, size_t primes, const uint8_t *e,
                            size_t e_len, const fc_rsa_engines *engines,
                            fc_rand_fn *rng, void *rng_arg);

/*
 * fc_rsa_max_primes returns the most primes a |bits|-bit key may have, as
 * OpenSSL caps them (ossl_rsa_multip_cap): 2 below 1024 bits, 3 below 4096,
 * 4 below 8192, else 5.
 */
size_t fc_rsa_max_primes(size_t bits);

#endif /* FC_RSA_H */
