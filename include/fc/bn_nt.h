/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/bn_nt.h - number theory on fixed-size limb arrays for RSA: masked
 * add, subtract and shift steps, equality masks, reduction of numbers
 * longer than twice the modulus, a constant-time inverse modulo an odd
 * modulus (Bernstein-Yang division steps), binary gcd, modular inverse
 * modulo any modulus, and bit-serial division. Used by key import (the CRT
 * exponents reduced), the private operation (blinding inverses, the CRT
 * recombination) and key generation (provider/core/rsa.c, rsa_keygen.c).
 *
 * Numbers are fc/bn.h limb arrays (64-bit limbs, least significant first).
 * Lengths are public, values secret: every loop runs a number of times
 * fixed by the lengths (and the public bit length of a modulus), every
 * choice is a mask; a function that returns a pass/fail outcome says what
 * the outcome reveals.
 */
#ifndef FC_BN_NT_H
#define FC_BN_NT_H

#include <stddef.h>
#include <stdint.h>

#include "fc/bn.h"

/* fc_bn_add_masked adds |b| to |r| where |mask| is all-ones (adds 0 where it
 * is zero), over w limbs; returns the carry. CT: only w leaks. */
uint64_t fc_bn_add_masked(uint64_t *r, const uint64_t *b, size_t w,
                          uint64_t mask);

/* fc_bn_sub_masked subtracts |b| from |r| where |mask| is all-ones, over w
 * limbs; returns the borrow. CT: only w leaks. */
uint64_t fc_bn_sub_masked(uint64_t *r, const uint64_t *b, size_t w,
                          uint64_t mask);

/* fc_bn_shr1_masked shifts |x| (w limbs) right by one bit where |mask| is
 * all-ones. CT: only w leaks. */
void fc_bn_shr1_masked(uint64_t *x, size_t w, uint64_t mask);

/* fc_bn_shl1_masked shifts |x| (w limbs) left by one bit where |mask| is
 * all-ones; the top bit falls off. CT: only w leaks. */
void fc_bn_shl1_masked(uint64_t *x, size_t w, uint64_t mask);

/* fc_bn_eq returns all-ones if a == b over w limbs, else 0. CT: only w
 * leaks. */
uint64_t fc_bn_eq(const uint64_t *a, const uint64_t *b, size_t w);

/* fc_bn_eq_word returns all-ones if a (w limbs) equals the one-word value
 * v, else 0. CT: only w leaks. */
uint64_t fc_bn_eq_word(const uint64_t *a, size_t w, uint64_t v);

/*
 * fc_mont_reduce_wide sets r (mont->n limbs) = a mod m for a of any length
 * |alen| (fc_mont_reduce takes up to 2n limbs; longer inputs, the residues
 * of very unbalanced factors, are folded from the top n limbs at a time).
 * r may alias a only when alen <= 2n. CT: only n and alen leak.
 */
void fc_mont_reduce_wide(const fc_mont *mont, uint64_t *r, const uint64_t *a,
                         size_t alen);

/*
 * fc_bn_mod_shift sets r (ml limbs) = x mod m for x of xl limbs below
 * 2^xbits and m of ml limbs with exactly mbits bits (xbits, mbits public,
 * xl, ml <= FC_BN_MAX_LIMBS): max(0, xbits - mbits + 1) shift-and-subtract
 * steps, one for a value already about the size of m, so a CRT exponent or
 * coefficient that arrives reduced costs one pass (fc_bn_divmod always
 * takes 64 xl). r may alias x. CT: only the lengths and bit bounds leak.
 */
void fc_bn_mod_shift(uint64_t *r, const uint64_t *x, size_t xl, size_t xbits,
                     const uint64_t *m, size_t ml, size_t mbits);

/*
 * fc_bn_ct_inverse sets r (mont->n limbs) = x^-1 mod m for the odd modulus
 * of |mont| and x in [0, m) with gcd(x, m) = 1; otherwise r is some value
 * (callers check what they make from it). r may alias x.
 * CT: only n and the bit length of m leak.
 */
void fc_bn_ct_inverse(const fc_mont *mont, uint64_t *r, const uint64_t *x);

/*
 * fc_bn_gcd sets g = gcd(a, b), all w limbs (binary gcd, gcd(0, 0) = 0).
 * Returns 1, or 0 on allocation failure. CT: only w leaks.
 */
int fc_bn_gcd(uint64_t *g, const uint64_t *a, const uint64_t *b, size_t w);

/*
 * fc_bn_modinv sets r = a^-1 mod n (w limbs each) for a < n with a or n odd
 * (n may be even: key generation inverts e modulo lcm(p - 1, q - 1)).
 * Returns 1 with r set if gcd(a, n) = 1, else 0 (also on allocation
 * failure). CT: only w and whether a is invertible leak.
 */
int fc_bn_modinv(uint64_t *r, const uint64_t *a, const uint64_t *n, size_t w);

/*
 * fc_bn_divmod sets q = a / m (al limbs, if q is not NULL) and rem = a mod
 * m (ml limbs) for a of al limbs and m of ml limbs, m != 0, by 64 al
 * shift-and-subtract steps. Returns 1, or 0 on allocation failure.
 * CT: only al and ml leak.
 */
int fc_bn_divmod(uint64_t *q, uint64_t *rem, const uint64_t *a, size_t al,
                 const uint64_t *m, size_t ml);

#endif /* FC_BN_NT_H */
