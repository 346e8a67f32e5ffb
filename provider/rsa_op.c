/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_op.c - the base of the RSA signature and asymmetric cipher contexts
 * (rsa_op.h): making, copying and freeing one, starting an operation on a
 * key with the implementation the key needs (native, or delegated to the
 * default provider), fetching digests, and the parameter readers both
 * algorithms use.
 *
 * Digests come from the provider's child library context under one
 * policy: explicit properties strictly; else the context's property query
 * (the signature's newctx gives one; the cipher's newctx has none), and
 * failing that none. Errors raised here are the ones the signature and the
 * cipher raised before they shared this code.
 */
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "fc_prov.h"
#include "fc_rsa.h"
#include "rsa_deleg.h"
#include "rsa_op.h"

/* see rsa_op.h */
void *fc_rsa_op_newctx(fc_prov_ctx *prov, size_t size, const char *propq,
                       const fc_rsa_op_impl *native)
{
    fc_rsa_op *op = OPENSSL_zalloc(size);

    if (op == NULL ||
        (propq != NULL && (op->propq = OPENSSL_strdup(propq)) == NULL)) {
        OPENSSL_free(op);
        FC_RAISE(prov, FC_R_MALLOC_FAILURE);
        return NULL;
    }
    op->impl = native;
    op->prov = prov;
    return op;
}

/* see rsa_op.h */
void fc_rsa_op_freectx(fc_rsa_op *op, size_t size)
{
    if (op == NULL)
        return;
    fc_rsa_deleg_clear(&op->deleg);
    OPENSSL_free(op->propq);
    fc_rsa_obj_free(op->rsa);
    OPENSSL_clear_free(op, size);
}

/* see rsa_op.h */
void *fc_rsa_op_dupctx(const fc_rsa_op *src, size_t size, int *ok)
{
    fc_rsa_op *dst = OPENSSL_malloc(size);

    if (dst == NULL) {
        FC_RAISE(src->prov, FC_R_MALLOC_FAILURE);
        return NULL;
    }
    memcpy(dst, src, size);
    dst->propq = NULL;
    memset(&dst->deleg, 0, sizeof(dst->deleg));
    /* Our own references: the caller may free |src| first (EVP's
     * DigestSignFinal signs on a duplicate). */
    if (dst->rsa != NULL)
        fc_rsa_obj_up_ref(dst->rsa);
    *ok = (src->propq == NULL ||
           (dst->propq = OPENSSL_strdup(src->propq)) != NULL) &&
          fc_rsa_deleg_dupctx(&dst->deleg, &src->deleg);
    return dst;
}

/* see rsa_op.h */
int fc_rsa_op_md_ref(EVP_MD **md)
{
    if (*md != NULL && !EVP_MD_up_ref(*md)) {
        *md = NULL;
        return 0;
    }
    return 1;
}

/* see rsa_op.h */
int fc_rsa_op_begin(fc_rsa_op *op, fc_rsa_obj *obj, int operation,
                    const fc_rsa_op_impl *native)
{
    if (obj == NULL && op->rsa == NULL) {
        FC_RAISE(op->prov, FC_R_NO_KEY_SET);
        return 0;
    }
    if (obj != NULL) {
        if (!fc_rsa_obj_has_key(obj)) {
            FC_RAISE(op->prov, FC_R_NO_KEY_SET);
            return 0;
        }
        fc_rsa_obj_up_ref(obj);
        fc_rsa_obj_free(op->rsa);
        op->rsa = obj;
    }
    fc_rsa_deleg_clear(&op->deleg);
    op->operation = operation;
    op->impl = op->rsa->impl->op != NULL ? op->rsa->impl->op : native;
    return 1;
}

/* see rsa_op.h */
EVP_MD *fc_rsa_op_fetch_md(fc_rsa_op *op, const char *name, const char *props)
{
    EVP_MD *md;

    if (props != NULL || op->propq == NULL) {
        md = EVP_MD_fetch(op->prov->libctx, name, props);
    } else {
        ERR_set_mark();
        md = EVP_MD_fetch(op->prov->libctx, name, op->propq);
        if (md == NULL)
            md = EVP_MD_fetch(op->prov->libctx, name, NULL);
        /* Keep the queue clean when the retry worked. */
        if (md != NULL)
            ERR_pop_to_mark();
        else
            ERR_clear_last_mark();
    }
    if (md == NULL)
        FC_RAISE_DATA(op->prov, FC_R_INVALID_DIGEST, "%s could not be fetched",
                      name);
    return md;
}

/* see rsa_op.h */
int fc_rsa_op_get_utf8(const OSSL_PARAM *p, char *buf, size_t cap)
{
    return OSSL_PARAM_get_utf8_string(p, &buf, cap);
}

/* see rsa_op.h */
int fc_rsa_op_read_md(const OSSL_PARAM params[], const char *key,
                      const char *props_key, char *name, char *props,
                      const char **pname, const char **pprops)
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, key);

    *pname = NULL;
    *pprops = NULL;
    if (p == NULL)
        return 1;
    if (!fc_rsa_op_get_utf8(p, name, FC_MDNAME_MAX))
        return 0;
    *pname = name;
    p = OSSL_PARAM_locate_const(params, props_key);
    if (p == NULL)
        return 1;
    if (!fc_rsa_op_get_utf8(p, props, FC_PROPQ_MAX))
        return 0;
    *pprops = props;
    return 1;
}

/* see rsa_op.h */
int fc_rsa_op_write_pad(OSSL_PARAM *p, const OSSL_ITEM *pads, int pad_mode)
{
    const char *word = NULL;

    if (p->data_type == OSSL_PARAM_INTEGER)
        return OSSL_PARAM_set_int(p, pad_mode);
    if (p->data_type != OSSL_PARAM_UTF8_STRING)
        return 0;
    /* The first name of a mode is the one reported. */
    for (size_t i = 0; word == NULL && pads[i].ptr != NULL; i++)
        if ((int)pads[i].id == pad_mode)
            word = pads[i].ptr;
    return word != NULL && OSSL_PARAM_set_utf8_string(p, word);
}

/* see rsa_op.h */
int fc_rsa_op_read_pad(const OSSL_PARAM *p, const OSSL_ITEM *pads,
                       int *pad_mode)
{
    if (p->data_type == OSSL_PARAM_INTEGER)
        return OSSL_PARAM_get_int(p, pad_mode);
    if (p->data_type != OSSL_PARAM_UTF8_STRING || p->data == NULL)
        return 0;
    *pad_mode = 0;
    for (size_t i = 0; pads[i].ptr != NULL; i++)
        if (strcmp(p->data, pads[i].ptr) == 0) {
            *pad_mode = (int)pads[i].id;
            break;
        }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Starting an operation; the dispatch entry points                         */

/* see rsa_op.h */
int fc_rsa_op_init(fc_rsa_op *op, fc_rsa_obj *obj, int operation,
                   const OSSL_PARAM params[], const fc_rsa_op_impl *native)
{
    return fc_rsa_op_begin(op, obj, operation, native) &&
           op->impl->init(op, params);
}

/* see rsa_op.h */
int fc_rsa_op_digest_init(fc_rsa_op *op, fc_rsa_obj *obj, int operation,
                          const char *mdname, const OSSL_PARAM params[],
                          const fc_rsa_op_impl *native)
{
    return fc_rsa_op_begin(op, obj, operation, native) &&
           op->impl->digest_init(op, mdname, params);
}

/* 1 if an operation can run on |op|: a context with a key (fc_rsa_op_begin
 * took one). Else FC_R_NO_KEY_SET, as the native code raised it. */
static int fc_rsa_op_ready(const fc_rsa_op *op)
{
    if (op != NULL && op->rsa != NULL)
        return 1;
    FC_RAISE(op != NULL ? op->prov : NULL, FC_R_NO_KEY_SET);
    return 0;
}

/* see rsa_op.h */
int fc_rsa_op_sign(void *vop, unsigned char *sig, size_t *siglen,
                   size_t sigsize, const unsigned char *tbs, size_t tbslen)
{
    fc_rsa_op *op = vop;

    return fc_rsa_op_ready(op) &&
           op->impl->sign(op, sig, siglen, sigsize, tbs, tbslen);
}

/* see rsa_op.h */
int fc_rsa_op_verify(void *vop, const unsigned char *sig, size_t siglen,
                     const unsigned char *tbs, size_t tbslen)
{
    fc_rsa_op *op = vop;

    return fc_rsa_op_ready(op) &&
           op->impl->verify(op, sig, siglen, tbs, tbslen);
}

/* see rsa_op.h */
int fc_rsa_op_verify_recover(void *vop, unsigned char *rout, size_t *routlen,
                             size_t routsize, const unsigned char *sig,
                             size_t siglen)
{
    fc_rsa_op *op = vop;

    return fc_rsa_op_ready(op) &&
           op->impl->verify_recover(op, rout, routlen, routsize, sig, siglen);
}

/* see rsa_op.h */
int fc_rsa_op_encrypt(void *vop, unsigned char *out, size_t *outlen,
                      size_t outsize, const unsigned char *in, size_t inlen)
{
    fc_rsa_op *op = vop;

    return fc_rsa_op_ready(op) &&
           op->impl->encrypt(op, out, outlen, outsize, in, inlen);
}

/* see rsa_op.h */
int fc_rsa_op_decrypt(void *vop, unsigned char *out, size_t *outlen,
                      size_t outsize, const unsigned char *in, size_t inlen)
{
    fc_rsa_op *op = vop;

    return fc_rsa_op_ready(op) &&
           op->impl->decrypt(op, out, outlen, outsize, in, inlen);
}

/* see rsa_op.h */
int fc_rsa_op_digest_update(void *vop, const unsigned char *data, size_t len)
{
    fc_rsa_op *op = vop;

    return op != NULL && op->impl->digest_update(op, data, len);
}

/* see rsa_op.h */
int fc_rsa_op_digest_sign_final(void *vop, unsigned char *sig, size_t *siglen,
                                size_t sigsize)
{
    fc_rsa_op *op = vop;

    return op != NULL && op->impl->digest_sign_final(op, sig, siglen, sigsize);
}

/* see rsa_op.h */
int fc_rsa_op_digest_verify_final(void *vop, const unsigned char *sig,
                                  size_t siglen)
{
    fc_rsa_op *op = vop;

    return op != NULL && op->impl->digest_verify_final(op, sig, siglen);
}

/* see rsa_op.h */
int fc_rsa_op_get_ctx_params(void *vop, OSSL_PARAM params[])
{
    fc_rsa_op *op = vop;

    return op != NULL && op->impl->get_ctx_params(op, params);
}

/* see rsa_op.h */
int fc_rsa_op_set_ctx_params(void *vop, const OSSL_PARAM params[])
{
    fc_rsa_op *op = vop;

    return op != NULL && op->impl->set_ctx_params(op, params);
}

/* see rsa_op.h */
int fc_rsa_op_get_ctx_md_params(void *vop, OSSL_PARAM params[])
{
    fc_rsa_op *op = vop;

    return op != NULL && op->impl->get_md_params(op, params);
}

/* see rsa_op.h */
int fc_rsa_op_set_ctx_md_params(void *vop, const OSSL_PARAM params[])
{
    fc_rsa_op *op = vop;

    return op != NULL && op->impl->set_md_params(op, params);
}

/* see rsa_op.h */
const OSSL_PARAM *fc_rsa_op_gettable_ctx_md_params(void *vop)
{
    fc_rsa_op *op = vop;

    return op != NULL ? op->impl->gettable_md_params(op) : NULL;
}

/* see rsa_op.h */
const OSSL_PARAM *fc_rsa_op_settable_ctx_md_params(void *vop)
{
    fc_rsa_op *op = vop;

    return op != NULL ? op->impl->settable_md_params(op) : NULL;
}
