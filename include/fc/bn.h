/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/bn.h - fixed-size big numbers for RSA: Montgomery multiplication
 * kernels, Montgomery contexts, and constant-time modular exponentiation.
 *
 * Numbers are arrays of 64-bit limbs, least significant limb first, of a
 * length fixed by the modulus (|n| limbs); lengths are public, values are
 * secret unless a function says otherwise. No function here branches on or
 * indexes memory with a secret value.
 *
 * Montgomery form: with R = 2^(64n), the Montgomery form of x is x*R mod m.
 * mont_mul(a, b) = a*b*R^-1 mod m. All Montgomery values are fully reduced
 * (in [0, m)) on input and output.
 */
#ifndef FC_BN_H
#define FC_BN_H

#include <stddef.h>
#include <stdint.h>

#include "fc/common.h"

/* Largest modulus handled: 8192 bits (RSA-8192 public ops, 16384-bit n is
 * refused). CRT halves of RSA-8192 are 64 limbs. */
#define FC_BN_MAX_LIMBS 128

/*
 * Kernel contract. r = a*b*R^-1 mod m for a, b in [0, m), m odd with
 * n limbs (top limb nonzero), m0inv = -m^-1 mod 2^64. r may alias a and/or
 * b (the kernel works in its own scratch space). Output fully reduced.
 * CT: only n leaks.
 */
typedef void fc_bn_mul_mont_fn(uint64_t *r, const uint64_t *a,
                               const uint64_t *b, const uint64_t *m,
                               uint64_t m0inv, size_t n);
/* r = a*a*R^-1 mod m; same rules as fc_bn_mul_mont_fn. */
typedef void fc_bn_sqr_mont_fn(uint64_t *r, const uint64_t *a,
                               const uint64_t *m, uint64_t m0inv, size_t n);

typedef struct fc_bn_ops {
    const char *name;       /* "generic", "mulx", ... */
    uint32_t required_caps; /* FC_CAP_* bits this table needs */
    /* The table handles n when n % limb_multiple == 0 and n >= min_limbs
     * (fc_bn_ops_takes); the RSA engine list (fc/rsa_engine.h) picks,
     * per size, a table that takes it. */
    size_t limb_multiple;
    size_t min_limbs;
    fc_bn_mul_mont_fn *mul;
    fc_bn_sqr_mont_fn *sqr;
} fc_bn_ops;

/* fc_bn_ops_takes returns 1 if the kernels of |ops| handle n limbs. */
static inline int fc_bn_ops_takes(const fc_bn_ops *ops, size_t n)
{
    return ops != NULL && n >= 1 && n <= FC_BN_MAX_LIMBS &&
           n % ops->limb_multiple == 0 && n >= ops->min_limbs;
}

/* The portable kernels' table (every n; bn_mont.c). */
extern const fc_bn_ops fc_bn_ops_generic;

/* Portable C kernels (provider/core/bn_mont.c), 64-bit limbs with
 * unsigned __int128 products. CT: only n leaks. */
void fc_bn_mul_mont_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *m, uint64_t m0inv, size_t n);
void fc_bn_sqr_mont_generic(uint64_t *r, const uint64_t *a, const uint64_t *m,
                            uint64_t m0inv, size_t n);

#if defined(__x86_64__) && !defined(FC_NO_ASM)
/* MULX + ADCX/ADOX kernels (asm/x86_64/bn_mont_mulx.S): n % 4 == 0,
 * n >= 8; their table is the MULX engine's (rsa_engine_mulx.c). CT: only n
 * leaks. */
void fc_bn_mul_mont_mulx(uint64_t *r, const uint64_t *a, const uint64_t *b,
                         const uint64_t *m, uint64_t m0inv, size_t n);
void fc_bn_sqr_mont_mulx(uint64_t *r, const uint64_t *a, const uint64_t *m,
                         uint64_t m0inv, size_t n);
#endif

#if defined(__aarch64__) && !defined(FC_NO_ASM)
/* MUL/UMULH kernels (asm/aarch64/bn_mont.S): n % 4 == 0, n >= 4 (the
 * arm64 engine's table, rsa_engine_arm64.c, asks for n >= 8). CT: only n
 * leaks. */
void fc_bn_mul_mont_arm64(uint64_t *r, const uint64_t *a, const uint64_t *b,
                          const uint64_t *m, uint64_t m0inv, size_t n);
void fc_bn_sqr_mont_arm64(uint64_t *r, const uint64_t *a, const uint64_t *m,
                          uint64_t m0inv, size_t n);
#endif

/* A Montgomery context for one odd modulus: everything precomputed at key
 * import and kept with the key. */
typedef struct fc_mont {
    size_t n;             /* limbs */
    size_t bits;          /* bit length of m (public) */
    uint64_t m0inv;       /* -m^-1 mod 2^64 */
    uint64_t *m;          /* modulus, n limbs */
    uint64_t *rr;         /* R^2 mod m, n limbs */
    uint64_t *one;        /* R mod m (Montgomery form of 1), n limbs */
    const fc_bn_ops *ops; /* kernels for this size */
} fc_mont;

/*
 * fc_mont_init sets up |mont| for the odd modulus |m| of |n| limbs (top limb
 * nonzero, n <= FC_BN_MAX_LIMBS) with the kernels |ops|, which must take n
 * (fc_bn_ops_takes). Allocates; returns 1, or 0 on a bad modulus, kernels
 * that do not take n, or allocation failure (then |mont| needs no free).
 * CT: only n, the bit length of m and whether m is refused leak; m itself
 * may be secret (RSA primes).
 */
int fc_mont_init(fc_mont *mont, const uint64_t *m, size_t n,
                 const fc_bn_ops *ops);
/* fc_mont_free wipes and frees what fc_mont_init allocated. NULL-safe. */
void fc_mont_free(fc_mont *mont);
/* fc_mont_copy makes |dst| an independent copy of |src|; returns 1 or 0. */
int fc_mont_copy(fc_mont *dst, const fc_mont *src);

/* fc_mont_to: r = a*R mod m, for a in [0, m). fc_mont_from: r = a*R^-1 mod
 * m. n limbs each; r may alias a. CT: only n leaks. */
void fc_mont_to(const fc_mont *mont, uint64_t *r, const uint64_t *a);
void fc_mont_from(const fc_mont *mont, uint64_t *r, const uint64_t *a);

/*
 * fc_mont_reduce sets r (n limbs) = a mod m for a of |alen| limbs,
 * alen <= 2n. CT: only n and alen leak.
 */
void fc_mont_reduce(const fc_mont *mont, uint64_t *r, const uint64_t *a,
                    size_t alen);

/*
 * fc_bn_mod_exp sets r = a^e mod m, for a in [0, m) and an exponent |e| of
 * |elimbs| limbs of which only the low |ebits| bits may be nonzero
 * (ebits > 0). Fixed-window exponentiation; every window table entry is read
 * through a mask on every lookup. r may alias a. Returns 1, or 0 on
 * allocation failure.
 * CT: only n, elimbs and ebits leak; a and e are secret.
 */
int fc_bn_mod_exp(const fc_mont *mont, uint64_t *r, const uint64_t *a,
                  const uint64_t *e, size_t elimbs, size_t ebits);

/*
 * fc_bn_mod_exp_public is fc_bn_mod_exp for a public exponent (RSA e):
 * square-and-multiply that may branch on e's bits.
 * CT: e leaks; a stays secret.
 */
int fc_bn_mod_exp_public(const fc_mont *mont, uint64_t *r, const uint64_t *a,
                         const uint64_t *e, size_t elimbs);

/* Helpers on n-limb numbers. CT: only n leaks. */
/* fc_bn_from_bytes_be loads a big-endian byte string of |len| bytes into |n|
 * limbs; returns 0 if it does not fit. fc_bn_to_bytes_be writes exactly
 * |len| bytes big-endian (leading zeros), returns 0 if the value does not
 * fit. */
int fc_bn_from_bytes_be(uint64_t *r, size_t n, const uint8_t *in, size_t len);
int fc_bn_to_bytes_be(uint8_t *out, size_t len, const uint64_t *a, size_t n);
/* fc_bn_cmp_lt returns all-ones if a < b, else 0 (n limbs each). */
uint64_t fc_bn_cmp_lt(const uint64_t *a, const uint64_t *b, size_t n);
/* fc_bn_add / fc_bn_sub: r = a +/- b over n limbs; return the carry /
 * borrow (0 or 1). r may alias a or b. */
uint64_t fc_bn_add(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
uint64_t fc_bn_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
/* fc_bn_mul: r (an + bn limbs) = a * b; r must not alias a or b. */
void fc_bn_mul(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *b,
               size_t bn);
/* fc_bn_bits returns the bit length of a (n limbs). CT: the result is
 * treated as public by callers; computed without branches anyway. */
size_t fc_bn_bits(const uint64_t *a, size_t n);

/* fc_bn_wipe zeroes n limbs (a secret the compiler must not keep). */
static inline void fc_bn_wipe(uint64_t *a, size_t n)
{
    fc_memzero(a, n * sizeof(uint64_t));
}

/* fc_bn_limbs_for_bits returns the limbs that hold |bits| bits. */
static inline size_t fc_bn_limbs_for_bits(size_t bits)
{
    return (bits + 63) / 64;
}

/* fc_be_strip returns |p| past its leading zero bytes and their count
 * removed from |len| in |*out_len|. CT: the stripped length is public (a
 * component's length; its value is not), so this loop may branch on it. */
static inline const uint8_t *fc_be_strip(const uint8_t *p, size_t len,
                                         size_t *out_len)
{
    while (len > 0 && p[0] == 0) {
        p++;
        len--;
    }
    *out_len = len;
    return p;
}

/* fc_be_bits returns the bit length of a stripped big-endian string (the
 * top byte's bit count is part of the length, public). */
static inline size_t fc_be_bits(const uint8_t *p, size_t len)
{
    if (len == 0)
        return 0;
    return 8 * (len - 1) + (size_t)(32 - __builtin_clz((unsigned)p[0]));
}

#endif /* FC_BN_H */
