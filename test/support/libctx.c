/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libctx.c - library contexts of the provider tests (see libctx.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <openssl/err.h>
#include <openssl/params.h>

#include "libctx.h"
#include "runner.h"

/* see libctx.h */
OSSL_LIB_CTX *fc_test_lib_load(const char *conf, unsigned need)
{
    OSSL_LIB_CTX *lib;

    if (conf == NULL && (conf = getenv("FC_TEST_CONF")) == NULL) {
        fprintf(stderr, "FC_TEST_CONF is not set (run through ctest)\n");
        return NULL;
    }
    lib = OSSL_LIB_CTX_new();
    if (lib == NULL || !OSSL_LIB_CTX_load_config(lib, conf) ||
        ((need & FC_TEST_NEED_FC) && !OSSL_PROVIDER_available(lib, FC_NAME)) ||
        ((need & FC_TEST_NEED_DEFAULT) &&
         !OSSL_PROVIDER_available(lib, "default"))) {
        fprintf(stderr, "%s does not load%s%s\n", conf,
                need & FC_TEST_NEED_FC ? " " FC_NAME : "",
                need & FC_TEST_NEED_DEFAULT ? " default" : "");
        ERR_print_errors_fp(stderr);
        OSSL_LIB_CTX_free(lib);
        return NULL;
    }
    return lib;
}

/* see libctx.h */
OSSL_LIB_CTX *fc_test_lib_load_env(const char *conf, unsigned need,
                                   const char *var, const char *value)
{
    fc_test_saved_env saved;
    OSSL_LIB_CTX *lib;

    if (value == NULL)
        return fc_test_lib_load(conf, need);
    fc_test_setenv(&saved, var, value);
    lib = fc_test_lib_load(conf, need);
    fc_test_restoreenv(&saved);
    return lib;
}

/* see libctx.h */
int fc_test_setup_ok(int ok, const char *fmt, ...)
{
    va_list ap;

    if (ok)
        return 0;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    ERR_print_errors_fp(stderr);
    return -1;
}

/* see libctx.h */
int fc_test_prov_get_str(const OSSL_PROVIDER *prov, const char *key, char *buf,
                         size_t len)
{
    const OSSL_PARAM *g = OSSL_PROVIDER_gettable_params(prov);
    OSSL_PARAM req[2];
    char *ptr = NULL;

    g = g == NULL ? NULL : OSSL_PARAM_locate_const(g, key);
    if (g == NULL)
        return 0;
    if (g->data_type == OSSL_PARAM_UTF8_PTR)
        req[0] = OSSL_PARAM_construct_utf8_ptr(key, &ptr, 0);
    else
        req[0] = OSSL_PARAM_construct_utf8_string(key, buf, len);
    req[1] = OSSL_PARAM_construct_end();
    if (!OSSL_PROVIDER_get_params(prov, req) || !OSSL_PARAM_modified(req))
        return 0;
    if (g->data_type == OSSL_PARAM_UTF8_PTR) {
        if (ptr == NULL)
            return 0;
        snprintf(buf, len, "%s", ptr);
    }
    return 1;
}

/* see libctx.h */
int fc_test_lib_get_str(OSSL_LIB_CTX *lib, const char *key, char *buf,
                        size_t len)
{
    OSSL_PROVIDER *p = OSSL_PROVIDER_load(lib, FC_NAME);
    int ok = p != NULL && fc_test_prov_get_str(p, key, buf, len);

    OSSL_PROVIDER_unload(p);
    return ok;
}
