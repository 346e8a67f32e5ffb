/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_deleg.h - delegated RSA keys: the key shapes fastcrypto's core does
 * not take but the default provider does (moduli outside 512..8192 bits,
 * even moduli, even or unit exponents, zero components, ...), held as an
 * EVP_PKEY of the default provider in the provider's child library context
 * and used there (provider/rsa_deleg.c). The key management makes such
 * keys with these functions (rsa_key.c); once made, a key object holding
 * one answers the key management through fc_rsa_key_delegated (fc_rsa.h),
 * and its signature and cipher operations run on fc_rsa_op_delegated
 * (rsa_op.h), chosen when an operation starts. The key management hands
 * default only shapes it handles safely, and private keys only once
 * fc_rsa_deleg_check_private passed them.
 */
#ifndef FC_PROV_RSA_DELEG_H
#define FC_PROV_RSA_DELEG_H

#include <stddef.h>

#include <openssl/core.h>
#include <openssl/types.h>

#include "fc_prov.h"
#include "rsa_op.h"

/* ------------------------------------------------------------------------ */
/* Keys                                                                     */

/*
 * fc_rsa_deleg_import has the default provider of |prov|'s child library
 * context import |params| under |selection| as an "RSA" key (an "RSA-PSS"
 * one if |pss|), with default's rules. Returns the key, or NULL with the
 * error queue as it was on entry (default's errors are dropped: the caller
 * reports its own reason).
 */
EVP_PKEY *fc_rsa_deleg_import(fc_prov_ctx *prov, int pss, int selection,
                              const OSSL_PARAM params[]);

/*
 * fc_rsa_deleg_check_private checks that default's private operations on
 * the key of |params| (n, e, d, and a complete CRT set or none, as the key
 * management hands them to fc_rsa_deleg_import) give results that pass the
 * check with e, which default does not make when it computes with d (a key
 * without CRT values, or after its CRT result failed the check). Primes
 * given must multiply to n. With CRT values that belong to the primes
 * (e dP = 1 mod p - 1, ..., qinv q = 1 mod p, ...) default's CRT result
 * passes its own check; otherwise, and for d alone, one raw private
 * operation of default's on a random value is checked with e. Returns NULL
 * if the key passes (or default refuses to compute with it at all), else a
 * short static reason. CT: the private values go through BIGNUMs marked
 * constant-time; only the outcome leaks.
 */
const char *fc_rsa_deleg_check_private(fc_prov_ctx *prov,
                                       const OSSL_PARAM params[]);

/* The rest of what the key management asks of a delegated key is
 * fc_rsa_key_delegated's (fc_rsa.h). */

/* ------------------------------------------------------------------------ */
/* Operations                                                               */

/* fc_rsa_deleg_clear ends default's operation |op| (NULL-safe contexts);
 * it is zeroed after. The rest of the delegated operations are
 * fc_rsa_op_delegated's (rsa_op.h). */
void fc_rsa_deleg_clear(fc_rsa_deleg_op *op);

/* fc_rsa_deleg_dupctx makes |dst| a copy of |src|; on failure |dst| is
 * zeroed. */
int fc_rsa_deleg_dupctx(fc_rsa_deleg_op *dst, const fc_rsa_deleg_op *src);

#endif /* FC_PROV_RSA_DELEG_H */
