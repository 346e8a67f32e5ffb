/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libctx.h - the library contexts the provider tests load: the test
 * config (FC_TEST_CONF, which ctest sets) or another, under a variable of
 * the environment set while fastcrypto reads it (the CPU mask, the CPU
 * class, the stats directory), and fastcrypto's string parameters.
 */
#ifndef FC_TEST_LIBCTX_H
#define FC_TEST_LIBCTX_H

#include <stddef.h>

#include <openssl/provider.h>

#define FC_NAME "fastcrypto"

/* What fc_test_lib_load requires of the context it returns. */
#define FC_TEST_NEED_FC      1u /* fastcrypto is available */
#define FC_TEST_NEED_DEFAULT 2u /* default is available */

/*
 * fc_test_lib_load returns a new library context with the config |conf|
 * (NULL: FC_TEST_CONF's) loaded and the providers |need| asks for
 * available, or NULL with the reason and OpenSSL's errors on stderr.
 */
OSSL_LIB_CTX *fc_test_lib_load(const char *conf, unsigned need);

/*
 * fc_test_lib_load_env does the same with the environment variable |var|
 * set to |value| while the config loads (fastcrypto reads its environment
 * then), and as it was afterwards. A NULL |value| leaves |var| alone.
 */
OSSL_LIB_CTX *fc_test_lib_load_env(const char *conf, unsigned need,
                                   const char *var, const char *value);

/*
 * fc_test_setup_ok is what a group setup returns: 0 if |ok|, else -1 after
 * printing |fmt| (printf-style) and OpenSSL's error queue to stderr.
 */
int fc_test_setup_ok(int ok, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * fc_test_prov_get_str reads the provider string parameter |key| of
 * |prov| into |buf|, whether the provider answers it as a UTF-8 string or
 * pointer; 1 on success, 0 if it does not answer it.
 */
int fc_test_prov_get_str(const OSSL_PROVIDER *prov, const char *key, char *buf,
                         size_t len);

/* fc_test_lib_get_str: the same for fastcrypto in |lib|. */
int fc_test_lib_get_str(OSSL_LIB_CTX *lib, const char *key, char *buf,
                        size_t len);

#endif /* FC_TEST_LIBCTX_H */
