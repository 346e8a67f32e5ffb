/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_deleg.c - delegated RSA keys (rsa_deleg.h): keys the default provider
 * takes and fastcrypto's core does not, kept as default's EVP_PKEY in the
 * provider's child library context and used there.
 *
 * Why: the default provider's import checks little (ossl_rsa_fromdata), and
 * programs build such keys with EVP_PKEY_fromdata on whatever keymgmt the
 * configuration prefers: n = e = d = 0 to read back, 32-bit test keys, keys
 * of up to 16384 bits (default's operation limit) or larger (which default
 * holds but refuses to use, "modulus too large"). With fastcrypto preferred
 * they reach our import; refusing them made EVP_PKEY_fromdata fail where
 * default succeeds. Import keeps such a key as default's (rsa_key.c);
 * every query and every operation on it then goes to default, with
 * default's results and reasons, and none is counted as fastcrypto's work.
 * libcrypto moving a key decoded by default into fastcrypto for an
 * operation (its export-to-provider) takes the same import, so the
 * operation comes to our signature or cipher and is forwarded here, where
 * it formerly fell back to default in libcrypto: the same code runs.
 *
 * Everything uses the child library context with the property query
 * "provider=default": never the application's context, whose default
 * properties may prefer fastcrypto and would route back to us.
 */
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rsa.h>

#include "fc_prov.h"
#include "fc_rsa.h"
#include "rsa_deleg.h"
#include "rsa_op.h"

#define FC_DELEG_PROPQ "provider=default"

/* ------------------------------------------------------------------------ */
/* Keys                                                                     */

/* see rsa_deleg.h */
EVP_PKEY *fc_rsa_deleg_import(fc_prov_ctx *prov, int pss, int selection,
                              const OSSL_PARAM params[])
{
    EVP_PKEY_CTX *ctx;
    EVP_PKEY *pkey = NULL;

    ERR_set_mark();
    ctx = EVP_PKEY_CTX_new_from_name(prov->libctx, pss ? "RSA-PSS" : "RSA",
                                     FC_DELEG_PROPQ);
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &pkey, selection, (OSSL_PARAM *)params) <= 0) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    ERR_pop_to_mark();
    return pkey;
}

/* The primes, exponents and coefficients of a key, by position. */
static const char *const fc_deleg_factor[] = {
    OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
    OSSL_PKEY_PARAM_RSA_FACTOR3, OSSL_PKEY_PARAM_RSA_FACTOR4,
    OSSL_PKEY_PARAM_RSA_FACTOR5};
static const char *const fc_deleg_exp[] = {
    OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
    OSSL_PKEY_PARAM_RSA_EXPONENT3, OSSL_PKEY_PARAM_RSA_EXPONENT4,
    OSSL_PKEY_PARAM_RSA_EXPONENT5};
static const char *const fc_deleg_coef[] = {
    OSSL_PKEY_PARAM_RSA_COEFFICIENT1, OSSL_PKEY_PARAM_RSA_COEFFICIENT2,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT3, OSSL_PKEY_PARAM_RSA_COEFFICIENT4};
#define FC_DELEG_MAX_PRIMES 5

/* Parameter |name| of |params| as a BIGNUM marked constant-time (the
 * private parts go through BN_mod_mul's fixed-top division), NULL if
 * absent or not an integer. */
static BIGNUM *fc_deleg_bn(const OSSL_PARAM params[], const char *name)
{
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);
    BIGNUM *b = NULL;

    if (p == NULL || !OSSL_PARAM_get_BN(p, &b))
        return NULL;
    BN_set_flags(b, BN_FLG_CONSTTIME);
    return b;
}

/*
 * One raw private operation of default's on the key of |params| (n, e, d
 * and the CRT values it has), on a random x below n, checked: y^e = x mod
 * n. Returns NULL if it passes, or if default refuses the key or the
 * operation (it then refuses the key's operations itself), else why not.
 * Imported as a plain RSA key, key pair only: an RSA-PSS key's private
 * operation is the same, and a PSS key cannot decrypt.
 */
static const char *fc_rsa_deleg_selftest(fc_prov_ctx *prov,
                                         const OSSL_PARAM params[],
                                         const BIGNUM *n, const BIGNUM *e,
                                         BN_CTX *bn)
{
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    BIGNUM *x = BN_new(), *y = BN_new();
    const size_t k = (size_t)BN_num_bytes(n);
    unsigned char *buf = NULL;
    size_t outlen = k;
    const char *why = NULL;

    ERR_set_mark();
    if (x == NULL || y == NULL || BN_cmp(n, BN_value_one()) <= 0 ||
        (buf = OPENSSL_zalloc(2 * k)) == NULL)
        goto done;
    pkey = fc_rsa_deleg_import(prov, 0, OSSL_KEYMGMT_SELECT_KEYPAIR, params);
    if (pkey == NULL || !BN_priv_rand_range_ex(x, n, 0, bn) ||
        BN_bn2binpad(x, buf, (int)k) < 0)
        goto done;
    ctx = EVP_PKEY_CTX_new_from_pkey(prov->libctx, pkey, FC_DELEG_PROPQ);
    if (ctx == NULL || EVP_PKEY_decrypt_init(ctx) <= 0 ||
        EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) <= 0 ||
        EVP_PKEY_decrypt(ctx, buf + k, &outlen, buf, k) <= 0)
        goto done;
    if (BN_bin2bn(buf + k, (int)outlen, y) == NULL ||
        !BN_mod_exp(y, y, e, n, bn) || BN_cmp(y, x) != 0)
        why = "a test private operation failed its check with e "
              "(d does not belong to n and e)";
done:
    ERR_pop_to_mark();
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(pkey);
    OPENSSL_clear_free(buf, 2 * k);
    BN_clear_free(x);
    BN_clear_free(y);
    return why;
}

/* see rsa_deleg.h */
const char *fc_rsa_deleg_check_private(fc_prov_ctx *prov,
                                       const OSSL_PARAM params[])
{
    BN_CTX *bn = BN_CTX_new_ex(prov->libctx);
    BIGNUM *n = NULL, *e = NULL, *prod = BN_new(), *rm1 = BN_new();
    BIGNUM *t = BN_new(), *r[FC_DELEG_MAX_PRIMES] = {NULL};
    BIGNUM *x[FC_DELEG_MAX_PRIMES] = {NULL}, *c[FC_DELEG_MAX_PRIMES] = {NULL};
    const char *why = NULL;
    size_t np = 0;
    int crt_right = 0;

    ERR_set_mark();
    if (bn == NULL || prod == NULL || rm1 == NULL || t == NULL) {
        why = "out of memory";
        goto done;
    }
    n = fc_deleg_bn(params, OSSL_PKEY_PARAM_RSA_N);
    e = fc_deleg_bn(params, OSSL_PKEY_PARAM_RSA_E);
    if (n == NULL || e == NULL)
        goto done; /* default refuses the key */
    while (np < FC_DELEG_MAX_PRIMES &&
           (r[np] = fc_deleg_bn(params, fc_deleg_factor[np])) != NULL)
        np++;
    if (np >= 2) {
        /* The primes multiply to n: else default's CRT result never passes
         * its check and every operation falls back to d, unchecked. */
        BN_one(prod);
        for (size_t i = 0; i < np; i++) {
            if (BN_cmp(r[i], BN_value_one()) <= 0) {
                why = "invalid prime factor";
                goto done;
            }
            if (!BN_mul(prod, prod, r[i], bn)) {
                why = "out of memory";
                goto done;
            }
        }
        if (BN_cmp(prod, n) != 0) {
            why = np == 2 ? "p * q does not match the modulus"
                          : "the primes' product does not match the modulus";
            goto done;
        }
        /* The CRT values belong to the primes (e x_i = 1 mod r_i - 1,
         * qinv q = 1 mod p, t_i r_1 ... r_(i-1) = 1 mod r_i): then default's
         * CRT results pass its own check with e. */
        crt_right = 1;
        BN_one(prod);
        for (size_t i = 0; i < np && crt_right; i++) {
            x[i] = fc_deleg_bn(params, fc_deleg_exp[i]);
            c[i] = i >= 1 ? fc_deleg_bn(params, fc_deleg_coef[i - 1]) : NULL;
            crt_right = x[i] != NULL && (i == 0 || c[i] != NULL) &&
                        BN_copy(rm1, r[i]) != NULL && BN_sub_word(rm1, 1) &&
                        BN_mod_mul(t, e, x[i], rm1, bn) && BN_is_one(t) &&
                        (i == 0 || (BN_mod_mul(t, c[i], i == 1 ? r[1] : prod,
                                               i == 1 ? r[0] : r[i], bn) &&
                                    BN_is_one(t))) &&
                        BN_mul(prod, prod, r[i], bn);
        }
    }
    /* d alone, or CRT values that do not belong to the primes: default
     * uses d, whose results it does not check. One test operation. */
    if (!crt_right)
        why = fc_rsa_deleg_selftest(prov, params, n, e, bn);
done:
    ERR_pop_to_mark();
    for (size_t i = 0; i < FC_DELEG_MAX_PRIMES; i++) {
        BN_clear_free(r[i]);
        BN_clear_free(x[i]);
        BN_clear_free(c[i]);
    }
    BN_free(n);
    BN_free(e);
    BN_clear_free(prod);
    BN_clear_free(rm1);
    BN_clear_free(t);
    BN_CTX_free(bn);
    return why;
}

/*
 * The delegated key implementation (fc_rsa_key_delegated, fc_rsa.h): the
 * key management's queries on obj->deleg, answered by default.
 */

/* No domain parameters or "other" parameters: those are trivially
 * present. */
static int fc_deleg_has(const fc_rsa_obj *obj, int selection)
{
    return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) == 0 ||
           obj->deleg_priv;
}

/* The parts of the key in |selection|, as default exports them. */
static int fc_deleg_export(fc_rsa_obj *obj, int selection, OSSL_CALLBACK *cb,
                           void *cbarg)
{
    return EVP_PKEY_export(obj->deleg, selection, cb, cbarg) > 0;
}

static int fc_deleg_get_params(fc_rsa_obj *obj, OSSL_PARAM params[])
{
    return EVP_PKEY_get_params(obj->deleg, params) > 0;
}

/* 1 if parameter |name| of |a| and |b| is equal, or absent from both. The
 * value may be d: compared without an early exit. */
static int fc_rsa_deleg_same_bn(EVP_PKEY *a, EVP_PKEY *b, const char *name)
{
    BIGNUM *x = NULL, *y = NULL;
    unsigned char *bx = NULL, *by = NULL;
    int hx, hy, same = 0, len = 0;

    /* an absent parameter is an answer here, not an error */
    ERR_set_mark();
    hx = EVP_PKEY_get_bn_param(a, name, &x) > 0;
    hy = EVP_PKEY_get_bn_param(b, name, &y) > 0;
    ERR_pop_to_mark();
    if (hx != hy)
        goto done;
    if (!hx) {
        same = 1;
        goto done;
    }
    len = BN_num_bytes(x) > BN_num_bytes(y) ? BN_num_bytes(x) : BN_num_bytes(y);
    bx = OPENSSL_zalloc(len + 1);
    by = OPENSSL_zalloc(len + 1);
    if (bx == NULL || by == NULL || BN_bn2binpad(x, bx, len) < 0 ||
        BN_bn2binpad(y, by, len) < 0)
        goto done;
    same = CRYPTO_memcmp(bx, by, len) == 0;
done:
    OPENSSL_clear_free(bx, (size_t)len + 1);
    OPENSSL_clear_free(by, (size_t)len + 1);
    BN_clear_free(x);
    BN_clear_free(y);
    return same;
}

/* n and e, or d for the private key alone, as default matches. A
 * delegated key has a shape ours cannot have: it equals another delegated
 * one only (the keymgmt's match compares the implementations first). */
static int fc_deleg_match(const fc_rsa_obj *oa, const fc_rsa_obj *ob,
                          int selection)
{
    EVP_PKEY *a = oa->deleg, *b = ob->deleg;

    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        return fc_rsa_deleg_same_bn(a, b, OSSL_PKEY_PARAM_RSA_N) &&
               fc_rsa_deleg_same_bn(a, b, OSSL_PKEY_PARAM_RSA_E);
    return fc_rsa_deleg_same_bn(a, b, OSSL_PKEY_PARAM_RSA_D);
}

/* default's check: pairwise for a key pair, else of the private or the
 * public key. */
static int fc_deleg_validate(fc_rsa_obj *obj, int selection, int checktype)
{
    EVP_PKEY_CTX *ctx;
    int ok;

    ctx = EVP_PKEY_CTX_new_from_pkey(obj->prov->libctx, obj->deleg,
                                     FC_DELEG_PROPQ);
    if (ctx == NULL)
        return 0;
    /* default's rsa_validate: the pair, else the private, else the public
     * key */
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) ==
        OSSL_KEYMGMT_SELECT_KEYPAIR)
        ok = EVP_PKEY_pairwise_check(ctx);
    else if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        ok = EVP_PKEY_private_check(ctx);
    else if (checktype == OSSL_KEYMGMT_VALIDATE_QUICK_CHECK)
        ok = EVP_PKEY_public_check_quick(ctx);
    else
        ok = EVP_PKEY_public_check(ctx);
    EVP_PKEY_CTX_free(ctx);
    return ok > 0;
}

/* A copy of the key: all of it if |selection| has the private key, else
 * its public key (and RSA-PSS restrictions). */
static EVP_PKEY *fc_deleg_copy(const fc_rsa_obj *from, int selection)
{
    const int pub =
        OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS;
    OSSL_PARAM *params = NULL;
    EVP_PKEY *copy;

    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        return EVP_PKEY_dup(from->deleg);
    if (EVP_PKEY_todata(from->deleg, pub, &params) <= 0)
        return NULL;
    copy = fc_rsa_deleg_import(from->prov, from->pss, pub, params);
    OSSL_PARAM_free(params);
    return copy;
}

static int fc_deleg_dup(fc_rsa_obj *to, const fc_rsa_obj *from, int selection)
{
    int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;

    to->deleg = fc_deleg_copy(from, selection);
    to->deleg_priv = priv && from->deleg_priv;
    return to->deleg != NULL;
}

/* see fc_rsa.h */
const fc_rsa_key_impl fc_rsa_key_delegated = {
    .op = &fc_rsa_op_delegated,
    .has = fc_deleg_has,
    .match = fc_deleg_match,
    .validate = fc_deleg_validate,
    .export = fc_deleg_export,
    .get_params = fc_deleg_get_params,
    .dup = fc_deleg_dup,
};

/* ------------------------------------------------------------------------ */
/* Operations                                                               */

/* see rsa_deleg.h */
void fc_rsa_deleg_clear(fc_rsa_deleg_op *op)
{
    EVP_PKEY_CTX_free(op->pctx);
    EVP_MD_CTX_free(op->mctx);
    memset(op, 0, sizeof(*op));
}

/* see rsa_deleg.h */
int fc_rsa_deleg_dupctx(fc_rsa_deleg_op *dst, const fc_rsa_deleg_op *src)
{
    memset(dst, 0, sizeof(*dst));
    if (src->pctx != NULL && (dst->pctx = EVP_PKEY_CTX_dup(src->pctx)) == NULL)
        goto err;
    if (src->mctx != NULL) {
        dst->mctx = EVP_MD_CTX_new();
        if (dst->mctx == NULL || !EVP_MD_CTX_copy_ex(dst->mctx, src->mctx))
            goto err;
    }
    return 1;
err:
    fc_rsa_deleg_clear(dst);
    return 0;
}

/*
 * The delegated implementation (fc_rsa_op_delegated, rsa_op.h): every call
 * goes to default's operation on the key (op->rsa->deleg), with default's
 * results and reasons; nothing is counted. fc_rsa_op_begin has cleared
 * op->deleg and set op->operation.
 */

static int fc_deleg_init(fc_rsa_op *op, const OSSL_PARAM params[])
{
    fc_rsa_deleg_op *d = &op->deleg;
    int ok = 0;

    d->pctx = EVP_PKEY_CTX_new_from_pkey(op->prov->libctx, op->rsa->deleg,
                                         FC_DELEG_PROPQ);
    if (d->pctx == NULL)
        goto err;
    switch (op->operation) {
    case EVP_PKEY_OP_SIGN:
        ok = EVP_PKEY_sign_init_ex(d->pctx, params);
        break;
    case EVP_PKEY_OP_VERIFY:
        ok = EVP_PKEY_verify_init_ex(d->pctx, params);
        break;
    case EVP_PKEY_OP_VERIFYRECOVER:
        ok = EVP_PKEY_verify_recover_init_ex(d->pctx, params);
        break;
    case EVP_PKEY_OP_ENCRYPT:
        ok = EVP_PKEY_encrypt_init_ex(d->pctx, params);
        break;
    case EVP_PKEY_OP_DECRYPT:
        ok = EVP_PKEY_decrypt_init_ex(d->pctx, params);
        break;
    }
    if (ok > 0)
        return 1;
err:
    fc_rsa_deleg_clear(d);
    return 0;
}

/* A digest-sign (EVP_PKEY_OP_SIGN) or digest-verify with |mdname| (NULL or
 * empty: the key's default). */
static int fc_deleg_digest_init(fc_rsa_op *op, const char *mdname,
                                const OSSL_PARAM params[])
{
    fc_rsa_deleg_op *d = &op->deleg;
    int ok;

    if ((d->mctx = EVP_MD_CTX_new()) == NULL)
        return 0;
    if (mdname != NULL && mdname[0] == '\0')
        mdname = NULL;
    if (op->operation == EVP_PKEY_OP_SIGN)
        ok = EVP_DigestSignInit_ex(d->mctx, NULL, mdname, op->prov->libctx,
                                   FC_DELEG_PROPQ, op->rsa->deleg, params);
    else
        ok = EVP_DigestVerifyInit_ex(d->mctx, NULL, mdname, op->prov->libctx,
                                     FC_DELEG_PROPQ, op->rsa->deleg, params);
    if (ok <= 0) {
        fc_rsa_deleg_clear(d);
        return 0;
    }
    return 1;
}

/* A data call on a delegated operation whose init failed (no default
 * context was made): a clear error, not a silent 0. */
static int fc_deleg_uninit(const fc_rsa_op *op)
{
    FC_RAISE(op->prov, FC_R_OPERATION_NOT_INITIALIZED);
    return 0;
}

/* Sign, verify-recover, encrypt or decrypt, as the operation was begun. */
static int fc_deleg_run(fc_rsa_op *op, unsigned char *out, size_t *outlen,
                        size_t outsize, const unsigned char *in, size_t inlen)
{
    EVP_PKEY_CTX *pctx = op->deleg.pctx;
    size_t len = outsize;
    int ok = 0;

    if (pctx == NULL)
        return fc_deleg_uninit(op);
    switch (op->operation) {
    case EVP_PKEY_OP_SIGN:
        ok = EVP_PKEY_sign(pctx, out, &len, in, inlen);
        break;
    case EVP_PKEY_OP_VERIFYRECOVER:
        ok = EVP_PKEY_verify_recover(pctx, out, &len, in, inlen);
        break;
    case EVP_PKEY_OP_ENCRYPT:
        ok = EVP_PKEY_encrypt(pctx, out, &len, in, inlen);
        break;
    case EVP_PKEY_OP_DECRYPT:
        ok = EVP_PKEY_decrypt(pctx, out, &len, in, inlen);
        break;
    }
    if (ok <= 0)
        return 0;
    *outlen = len;
    return 1;
}

static int fc_deleg_verify(fc_rsa_op *op, const unsigned char *sig,
                           size_t siglen, const unsigned char *tbs,
                           size_t tbslen)
{
    if (op->deleg.pctx == NULL)
        return fc_deleg_uninit(op);
    return EVP_PKEY_verify(op->deleg.pctx, sig, siglen, tbs, tbslen) == 1;
}

static int fc_deleg_digest_update(fc_rsa_op *op, const unsigned char *data,
                                  size_t len)
{
    EVP_MD_CTX *mctx = op->deleg.mctx;

    if (mctx == NULL)
        return fc_deleg_uninit(op);
    if (op->operation == EVP_PKEY_OP_SIGN)
        return EVP_DigestSignUpdate(mctx, data, len) > 0;
    return EVP_DigestVerifyUpdate(mctx, data, len) > 0;
}

static int fc_deleg_digest_sign_final(fc_rsa_op *op, unsigned char *sig,
                                      size_t *siglen, size_t sigsize)
{
    size_t len = sigsize;

    if (op->deleg.mctx == NULL)
        return fc_deleg_uninit(op);
    if (EVP_DigestSignFinal(op->deleg.mctx, sig, &len) <= 0)
        return 0;
    *siglen = len;
    return 1;
}

static int fc_deleg_digest_verify_final(fc_rsa_op *op, const unsigned char *sig,
                                        size_t siglen)
{
    if (op->deleg.mctx == NULL)
        return fc_deleg_uninit(op);
    return EVP_DigestVerifyFinal(op->deleg.mctx, sig, siglen) == 1;
}

/* The operation's own context: the one made at init, or the digest's. */
static EVP_PKEY_CTX *fc_deleg_pctx(const fc_rsa_op *op)
{
    return op->deleg.pctx != NULL   ? op->deleg.pctx
           : op->deleg.mctx != NULL ? EVP_MD_CTX_get_pkey_ctx(op->deleg.mctx)
                                    : NULL;
}

static int fc_deleg_get_ctx_params(fc_rsa_op *op, OSSL_PARAM params[])
{
    EVP_PKEY_CTX *pctx = fc_deleg_pctx(op);

    return pctx != NULL && EVP_PKEY_CTX_get_params(pctx, params) > 0;
}

static int fc_deleg_set_ctx_params(fc_rsa_op *op, const OSSL_PARAM params[])
{
    EVP_PKEY_CTX *pctx = fc_deleg_pctx(op);

    return pctx != NULL && EVP_PKEY_CTX_set_params(pctx, params) > 0;
}

static int fc_deleg_get_md_params(fc_rsa_op *op, OSSL_PARAM params[])
{
    return op->deleg.mctx != NULL &&
           EVP_MD_CTX_get_params(op->deleg.mctx, params) > 0;
}

static int fc_deleg_set_md_params(fc_rsa_op *op, const OSSL_PARAM params[])
{
    return op->deleg.mctx != NULL &&
           EVP_MD_CTX_set_params(op->deleg.mctx, params) > 0;
}

static const OSSL_PARAM *fc_deleg_gettable_md_params(fc_rsa_op *op)
{
    return op->deleg.mctx != NULL ? EVP_MD_CTX_gettable_params(op->deleg.mctx)
                                  : NULL;
}

static const OSSL_PARAM *fc_deleg_settable_md_params(fc_rsa_op *op)
{
    return op->deleg.mctx != NULL ? EVP_MD_CTX_settable_params(op->deleg.mctx)
                                  : NULL;
}

/* see rsa_op.h */
const fc_rsa_op_impl fc_rsa_op_delegated = {
    .init = fc_deleg_init,
    .digest_init = fc_deleg_digest_init,
    .sign = fc_deleg_run,
    .verify = fc_deleg_verify,
    .verify_recover = fc_deleg_run,
    .encrypt = fc_deleg_run,
    .decrypt = fc_deleg_run,
    .digest_update = fc_deleg_digest_update,
    .digest_sign_final = fc_deleg_digest_sign_final,
    .digest_verify_final = fc_deleg_digest_verify_final,
    .get_ctx_params = fc_deleg_get_ctx_params,
    .set_ctx_params = fc_deleg_set_ctx_params,
    .get_md_params = fc_deleg_get_md_params,
    .set_md_params = fc_deleg_set_md_params,
    .gettable_md_params = fc_deleg_gettable_md_params,
    .settable_md_params = fc_deleg_settable_md_params,
};
