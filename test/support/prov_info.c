/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc_prov_info MODULE_DIR - load fastcrypto from MODULE_DIR into a fresh
 * library context and print its name, version and build info (the kernels
 * it picks under FASTCRYPTO_CPU_MASK): scripts/test_arm64.sh runs it under
 * qemu for each arm64 mask and CPU model.
 */
#include <stdio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>

int main(int argc, char **argv)
{
    OSSL_LIB_CTX *lib = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *p;
    const char *name = "?", *ver = "?", *info = "?";
    OSSL_PARAM q[] = {
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, (char **)&name, 0),
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, (char **)&ver, 0),
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&info, 0),
        OSSL_PARAM_END};

    if (argc != 2 || lib == NULL ||
        !OSSL_PROVIDER_set_default_search_path(lib, argv[1]) ||
        (p = OSSL_PROVIDER_load(lib, "fastcrypto")) == NULL ||
        !OSSL_PROVIDER_get_params(p, q)) {
        ERR_print_errors_fp(stderr);
        return 1;
    }
    printf("%s %s: %s\n", name, ver, info);
    OSSL_PROVIDER_unload(p);
    OSSL_LIB_CTX_free(lib);
    return 0;
}
