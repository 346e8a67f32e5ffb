/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/drbg.h - the SP 800-90A Rev. 1 CTR_DRBG mechanism (section 10.2.1) on
 * the AES kernels of fc/aes.h, with and without the derivation function
 * (Block_Cipher_df, 10.3.2), and the operating system's entropy source.
 *
 * This is the deterministic mechanism only: where the entropy comes from,
 * when to reseed (reseed interval, time, fork, prediction resistance) and
 * locking are the caller's business (provider/rand_ctr_drbg.c). Nothing in
 * here allocates or takes a lock; a state must not be used by two threads at
 * once.
 *
 * Lengths are in bytes. With AES-k, keylen = k/8, blocklen = 16 and
 * seedlen = keylen + 16 (32, 40 or 48 bytes). The counter V is incremented
 * over all 128 bits (ctr_len = blocklen), which is what the CAVP vectors and
 * every common implementation use.
 *
 * Only AES encryption is used, and every request is encrypted with as few
 * kernel calls as possible: a generate's output and the two or three blocks
 * of the Update function are CTR keystream from V+1 (fc_aes_ctr128, the
 * AES table's counter, written straight into the output), and the BCC
 * chains of the derivation function go to the ECB kernel together.
 */
#ifndef FC_DRBG_H
#define FC_DRBG_H

#include <stddef.h>
#include <stdint.h>

#include "fc/aes.h"

/* SP 800-90A Table 3: max_number_of_bits_per_request = 2^19 bits. */
#define FC_CTR_DRBG_MAX_REQUEST ((size_t)1 << 16)
/* Block_Cipher_df encodes input lengths in 32 bits (10.3.2 step 2). With
 * the derivation function the inputs together must stay below this;
 * SP 800-90A allows 2^35 bits, we stop at 2^31 bytes. */
#define FC_CTR_DRBG_MAX_LENGTH  ((size_t)0x7fffffff)
#define FC_CTR_DRBG_MAX_SEEDLEN 48

typedef struct fc_ctr_drbg {
    fc_aes_key ks;    /* schedule of K: the only key the kernels see */
    fc_aes_key ks_df; /* schedule of the fixed df key 00 01 .. (public) */
    uint8_t K[32];    /* Key (keylen bytes used) */
    uint8_t V[16];    /* V, big-endian counter */
    const fc_aes_ops *aes;
    size_t keylen;  /* 16, 24 or 32 */
    size_t seedlen; /* keylen + 16 */
    int use_df;
    /* SP 800-90A reseed_counter: generate requests since the last
     * (re)seed, 1 right after it. Informational: the caller decides. */
    uint64_t reseed_counter;
    int instantiated;
} fc_ctr_drbg;

/*
 * fc_ctr_drbg_init prepares |d| for CTR_DRBG with AES-(8*keylen) on the
 * kernel table |aes| (use the provider's chosen table: it is the fastest
 * one the CPU runs), with the derivation function if |use_df| is nonzero.
 * |d| starts uninstantiated. Returns 1, or 0 if |keylen| is not 16, 24 or
 * 32 or |aes| is NULL.
 */
int fc_ctr_drbg_init(fc_ctr_drbg *d, const fc_aes_ops *aes, size_t keylen,
                     int use_df);

/*
 * fc_ctr_drbg_instantiate runs CTR_DRBG_Instantiate_algorithm (10.2.1.3.1
 * without df, 10.2.1.3.2 with df) on |entropy|, |nonce| and the
 * personalization string |pers| (NULL pointers count as empty).
 *   - Without df: |entropy_len| must equal seedlen, |pers_len| must be at
 *     most seedlen (it is zero-padded), and the nonce is not used.
 *   - With df: the three inputs together must not exceed
 *     FC_CTR_DRBG_MAX_LENGTH; the caller enforces minimum entropy.
 * Returns 1, or 0 on a length error (|d| is then left uninstantiated).
 * CT: only the input lengths leak.
 */
int fc_ctr_drbg_instantiate(fc_ctr_drbg *d, const uint8_t *entropy,
                            size_t entropy_len, const uint8_t *nonce,
                            size_t nonce_len, const uint8_t *pers,
                            size_t pers_len);

/*
 * fc_ctr_drbg_reseed runs CTR_DRBG_Reseed_algorithm (10.2.1.4.1/10.2.1.4.2)
 * with |entropy| and additional input |adin| (NULL or empty for none),
 * under the same length rules as instantiate (|adin| in place of |pers|).
 * Resets reseed_counter to 1. Returns 1, or 0 if |d| is not instantiated or
 * a length is wrong (the state is then unchanged).
 * CT: only the input lengths leak.
 */
int fc_ctr_drbg_reseed(fc_ctr_drbg *d, const uint8_t *entropy,
                       size_t entropy_len, const uint8_t *adin,
                       size_t adin_len);

/*
 * fc_ctr_drbg_generate runs CTR_DRBG_Generate_algorithm (10.2.1.5.1/
 * 10.2.1.5.2) steps 2-8: it writes |out_len| bytes (at most
 * FC_CTR_DRBG_MAX_REQUEST; 0 is allowed and still updates the state) to
 * |out|, with additional input |adin| (NULL or empty for none; without df
 * at most seedlen bytes). It does not check the reseed interval (step 1):
 * the caller does, from |reseed_counter|. Returns 1, or 0 if |d| is not
 * instantiated or a length is out of range (|out| untouched).
 * CT: only the lengths leak.
 */
int fc_ctr_drbg_generate(fc_ctr_drbg *d, uint8_t *out, size_t out_len,
                         const uint8_t *adin, size_t adin_len);

/*
 * fc_ctr_drbg_uninstantiate wipes the working state (K, V, the key
 * schedule) of |d| and marks it uninstantiated (9.4). The configuration
 * (key size, df, kernel table) is kept, so |d| can be instantiated again.
 */
void fc_ctr_drbg_uninstantiate(fc_ctr_drbg *d);

/*
 * fc_ctr_drbg_is_zeroized returns 1 if every secret byte of |d| (K, V, the
 * key schedule) is zero, as it must be after uninstantiate, else 0.
 */
int fc_ctr_drbg_is_zeroized(const fc_ctr_drbg *d);

/*
 * fc_os_entropy fills |len| bytes at |buf| from the kernel's entropy pool:
 * getrandom(2) with no flags (it blocks only until the pool is initialised
 * at boot), retried on EINTR and on short reads; /dev/urandom where the
 * system call does not exist. Returns 1, or 0 if no source worked (|buf|
 * is then zeroed).
 */
int fc_os_entropy(uint8_t *buf, size_t len);

#endif /* FC_DRBG_H */
