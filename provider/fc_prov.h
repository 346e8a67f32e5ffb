/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc_prov.h - the provider context, error reasons, and the dispatch tables
 * each algorithm file exports to fc_prov.c.
 */
#ifndef FC_PROV_H
#define FC_PROV_H

#include <stdarg.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include "fc/aes.h"

/* Declares a dispatch function with its exact OpenSSL prototype, so a wrong
 * signature fails to compile: FC_DISPATCH(cipher, newctx, fc_aes_cbc_newctx) */
#define FC_DISPATCH(op, fn, name) static OSSL_FUNC_##op##_##fn##_fn name

/* Reasons for errors raised by fastcrypto (strings in fc_prov.c). */
enum {
    FC_R_INTERNAL = 1,
    FC_R_MALLOC_FAILURE,
    FC_R_NULL_ARGUMENT,
    FC_R_INVALID_KEY_LENGTH,
    FC_R_INVALID_IV_LENGTH,
    FC_R_NO_KEY_SET,
    FC_R_NO_IV_SET,
    FC_R_OUTPUT_TOO_SMALL,
    FC_R_INPUT_TOO_LONG,
    FC_R_WRONG_FINAL_BLOCK_LENGTH,
    FC_R_BAD_DECRYPT,
    FC_R_FINAL_ALREADY_CALLED,
    FC_R_INVALID_PARAMETER,
    FC_R_TLS_RECORD_INVALID,
    FC_R_TLS_MODE_FINAL,
    FC_R_RANDOM_FAILURE,
    FC_R_CPU_MASK_INVALID,
    FC_R_SELF_TEST_FAILED,
    FC_R_INVALID_TAG,
    FC_R_INVALID_TAG_LENGTH,
    FC_R_TAG_NOT_SET,
    FC_R_TOO_MUCH_DATA,
    FC_R_IV_REUSE,
    FC_R_OPERATION_NOT_INITIALIZED,
};

/* One per library context that loads fastcrypto. */
typedef struct fc_prov_ctx {
    const OSSL_CORE_HANDLE *handle;
    OSSL_LIB_CTX *libctx; /* child of the loading libctx: RNG, digests */
    uint32_t caps;        /* CPU features after masking */
    const fc_aes_ops *aes;
    char buildinfo[128]; /* "fastcrypto 0.1.0 (cbc=vaes-avx2 ...)" */
    /* Core upcalls for errors. */
    OSSL_FUNC_core_new_error_fn *new_error;
    OSSL_FUNC_core_set_error_debug_fn *set_error_debug;
    OSSL_FUNC_core_vset_error_fn *vset_error;
} fc_prov_ctx;

/*
 * fc_raise_error files an error with reason |reason| (FC_R_*) on the
 * calling thread's OpenSSL error queue under fastcrypto's library, with an
 * optional printf-style detail |fmt|. Use through FC_RAISE / FC_RAISE_DATA.
 */
void fc_raise_error(const fc_prov_ctx *prov, int reason, const char *file,
                    int line, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#define FC_RAISE(prov, reason)                                                \
    fc_raise_error((prov), (reason), __FILE__, __LINE__, __func__, NULL)
#define FC_RAISE_DATA(prov, reason, ...)                                      \
    fc_raise_error((prov), (reason), __FILE__, __LINE__, __func__, __VA_ARGS__)

/* Algorithm dispatch tables (one file per family). */
extern const OSSL_DISPATCH fc_aes128cbc_functions[];
extern const OSSL_DISPATCH fc_aes192cbc_functions[];
extern const OSSL_DISPATCH fc_aes256cbc_functions[];

#ifndef OSSL_DISPATCH_END
#define OSSL_DISPATCH_END                                                     \
    {                                                                         \
        0, NULL                                                               \
    }
#endif

#endif /* FC_PROV_H */
