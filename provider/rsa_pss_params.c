/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_pss_params.c - the restrictions of RSA-PSS keys (see fc_rsa.h):
 * reading them from key parameters and writing them back, in the names and
 * forms the default provider uses, so that a key moves between the two
 * providers (and through default's encoders and decoders) with its
 * restrictions intact.
 *
 * The forms follow default (crypto/rsa/rsa_backend.c, rsa_schemes.c):
 *   - "digest" and "mgf1-digest" are digest names; on output SHA-1's is
 *     left out (the RFC 8017 default) and the others are written as
 *     "SHA2-256" and so on;
 *   - "saltlen" is an int, always written for a restricted key, so that
 *     the receiving side sees the key as restricted even when every value
 *     is a default;
 *   - "mgf" may only name MGF1 and is never written.
 */
#include <string.h>
#include <strings.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/params.h>

#include "fc/common.h"
#include "fc_prov.h"
#include "fc_rsa.h"
#include "rsa_pad.h"

/* The hashes PSS parameters may name, as default names them. */
static const struct {
    int nid;
    const char *name;
} fc_pss_mds[] = {
    {NID_sha1, "SHA1"},
    {NID_sha224, "SHA2-224"},
    {NID_sha256, "SHA2-256"},
    {NID_sha384, "SHA2-384"},
    {NID_sha512, "SHA2-512"},
    {NID_sha512_224, "SHA2-512/224"},
    {NID_sha512_256, "SHA2-512/256"},
};

/* see fc_rsa.h */
const char *fc_rsa_pss_md_name(int nid)
{
    for (size_t i = 0; i < FC_ARRAY_LEN(fc_pss_mds); i++)
        if (fc_pss_mds[i].nid == nid)
            return fc_pss_mds[i].name;
    return NULL;
}

/* The NID of the PSS hash named by |p| (a UTF-8 string parameter), fetched
 * with |props|; 0 with an error raised if it is none of them. */
static int fc_pss_md_nid(fc_prov_ctx *prov, const OSSL_PARAM *p,
                         const char *props)
{
    const char *name = NULL;
    EVP_MD *md;
    int nid = 0;

    if (!OSSL_PARAM_get_utf8_string_ptr(p, &name)) {
        FC_RAISE_DATA(prov, FC_R_INVALID_DIGEST, "%s is not a string", p->key);
        return 0;
    }
    md = EVP_MD_fetch(prov->libctx, name, props);
    if (md != NULL)
        nid = EVP_MD_get_type(md);
    EVP_MD_free(md);
    if (fc_rsa_pss_md_name(nid) == NULL) {
        FC_RAISE_DATA(prov, FC_R_DIGEST_NOT_ALLOWED, "%s=%s", p->key, name);
        return 0;
    }
    return nid;
}

/* see fc_rsa.h */
int fc_rsa_pss_params_fromdata(fc_prov_ctx *prov, fc_rsa_pss_params *pss,
                               const OSSL_PARAM params[])
{
    const OSSL_PARAM *md, *mgf, *mgf1, *salt, *props;
    const char *propq = NULL;

    md = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_DIGEST);
    mgf = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_MASKGENFUNC);
    mgf1 = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_MGF1_DIGEST);
    salt = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN);
    props = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_DIGEST_PROPS);
    if (props != NULL && !OSSL_PARAM_get_utf8_string_ptr(props, &propq))
        return 0;
    if (md == NULL && mgf == NULL && mgf1 == NULL && salt == NULL)
        return 1;
    if (!pss->restricted) {
        pss->restricted = 1;
        pss->md_nid = NID_sha1;
        pss->mgf1_nid = NID_sha1;
        pss->saltlen = 20;
    }
    if (mgf != NULL) {
        const char *name = NULL;

        if (!OSSL_PARAM_get_utf8_string_ptr(mgf, &name) ||
            strcasecmp(name, "MGF1") != 0) {
            FC_RAISE_DATA(prov, FC_R_INVALID_PARAMETER,
                          "mask generation function: only MGF1");
            return 0;
        }
    }
    if (md != NULL && (pss->md_nid = fc_pss_md_nid(prov, md, propq)) == 0)
        return 0;
    if (mgf1 != NULL && (pss->mgf1_nid = fc_pss_md_nid(prov, mgf1, propq)) == 0)
        return 0;
    if (salt != NULL && !OSSL_PARAM_get_int(salt, &pss->saltlen)) {
        FC_RAISE_DATA(prov, FC_R_INVALID_SALT_LENGTH, "saltlen is no int");
        return 0;
    }
    return 1;
}

/* see fc_rsa.h */
int fc_rsa_pss_params_todata(const fc_rsa_pss_params *pss, OSSL_PARAM *params)
{
    OSSL_PARAM *p;

    if (!pss->restricted)
        return 1;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_RSA_DIGEST);
    if (p != NULL && pss->md_nid != NID_sha1 &&
        !OSSL_PARAM_set_utf8_string(p, fc_rsa_pss_md_name(pss->md_nid)))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_RSA_MGF1_DIGEST);
    if (p != NULL && pss->mgf1_nid != NID_sha1 &&
        !OSSL_PARAM_set_utf8_string(p, fc_rsa_pss_md_name(pss->mgf1_nid)))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN);
    if (p != NULL && !OSSL_PARAM_set_int(p, pss->saltlen))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST);
    if (p != NULL &&
        !OSSL_PARAM_set_utf8_string(p, fc_rsa_pss_md_name(pss->md_nid)))
        return 0;
    return 1;
}

/* see fc_rsa.h */
size_t fc_rsa_pss_params_export(const fc_rsa_pss_params *pss, OSSL_PARAM *out,
                                int *saltlen_store)
{
    size_t n = 0;

    if (!pss->restricted)
        return 0;
    if (pss->md_nid != NID_sha1)
        out[n++] = OSSL_PARAM_construct_utf8_string(
            OSSL_PKEY_PARAM_RSA_DIGEST, (char *)fc_rsa_pss_md_name(pss->md_nid),
            0);
    if (pss->mgf1_nid != NID_sha1)
        out[n++] = OSSL_PARAM_construct_utf8_string(
            OSSL_PKEY_PARAM_RSA_MGF1_DIGEST,
            (char *)fc_rsa_pss_md_name(pss->mgf1_nid), 0);
    *saltlen_store = pss->saltlen;
    out[n++] = OSSL_PARAM_construct_int(OSSL_PKEY_PARAM_RSA_PSS_SALTLEN,
                                        saltlen_store);
    return n;
}
