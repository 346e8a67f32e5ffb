/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cipher_aes_gcm.c - AES-128/192/256-GCM for OpenSSL: context life cycle,
 * streaming AEAD (update with out == NULL is AAD), the one-shot cipher call,
 * parameters, and the TLS 1.2 record mode libssl drives through "tlsaad".
 *
 * Behaviour follows OpenSSL's default provider:
 * - init takes key and IV together or apart; an IV with the key set
 *   starts the message at once (J0, E(K, J0) and the first keystream block
 *   in one AES call), so the IV-only re-init TLS 1.3 does per record has
 *   the AES done before the data comes (starting at the first update
 *   instead, measured on the Xeon with 3.6.3: 16-byte records 85 -> 101
 *   ns, even openssl speed's decryption loop, which sets the IV twice,
 *   slower); an IV without a key waits for it (or the first update); a
 *   key costs the schedule, H and the powers of H a short message needs
 *   (fc_gcm_set_key; the rest when a longer call first needs them).
 * - an encryption without IV draws a random one (when ivlen >= 12); a
 *   decryption without IV fails.
 * - after final the IV is spent: update or final again fail until a new IV
 *   is set. Changing "ivlen" spends a set IV too.
 * - "tag" is set (1..16 bytes) before a decrypt final, which compares that
 *   many bytes in constant time; after an encrypt final any 1..16 leading
 *   bytes of the tag can be read. Setting "tag" when encrypting is
 *   refused, with or without data. "taglen" is 16 after an encrypt final,
 *   otherwise the length of the last tag set (16 if none was).
 * - the key length is the cipher's: "keylen" is not settable, so
 *   EVP_CIPHER_CTX_set_key_length refuses another length.
 * - messages and TLS records are counted for "fastcrypto-stats" per
 *   context, added to the provider's counters at a context's first of each
 *   kind, every 64 after, and when it is freed.
 * - TLS 1.2: "tlsivfixed" sets the 4-byte salt (the 8-byte invocation field
 *   is drawn at random when encrypting), "tlsaad" arms one record, and the
 *   next update processes explicit IV | payload | tag in place. A "tlsaad"
 *   whose length is too short for a record is refused and still arms the
 *   next update, which fails; a final with a record armed fails and spends
 *   the header and the IV (all as the default's).
 * Deliberate differences, where the default's result is not meaningful or
 *   not safe: IVs of any length >= 1 (not capped at 128 bytes); a decrypt
 *   final checks only a tag set through "tag" (never one left behind by an
 *   earlier encryption); a failed decrypt final spends the IV like a
 *   successful one; a re-key in the middle of a message restarts it from
 *   its IV; in TLS IV-generation mode an encryption that would use the
 *   next generated IV outside a record is refused (it would repeat); an
 *   explicit IV leaves that mode; IV generation keeps a fixed field of at
 *   least 4 bytes before the 8-byte invocation field, so a "tlsivfixed" of
 *   the whole IV (length -1) or an "ivlen" change while generating that
 *   leaves less is refused (the default takes both, and with an IV under
 *   8 bytes counts in memory in front of the IV); a "keylen" other than
 *   the cipher's, passed in parameters anyway, is refused (the default
 *   ignores it, and EVP 3.5+ then records it and fails the next init); a
 *   "tlsaad" leaves the tag of a finished encryption readable (the
 *   default keeps the header where it keeps the tag).
 */
#include <stdint.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "fc/ct.h"
#include "fc/gcm.h"
#include "cipher_common.h"
#include "fc_prov.h"

#define FC_GCM_IVLEN_DEFAULT 12 /* SP 800-38D's recommended 96 bits */
#define FC_GCM_IV_INLINE     64 /* longer IVs live on the heap */
#define FC_TLS_FIXED_IV      4  /* EVP_GCM_TLS_FIXED_IV_LEN */
#define FC_TLS_EXPLICIT_IV   8  /* EVP_GCM_TLS_EXPLICIT_IV_LEN */
#define FC_TLS_TAG           16 /* EVP_GCM_TLS_TAG_LEN */
#define FC_TLS_AAD           13 /* EVP_AEAD_TLS1_AAD_LEN */
/* IV generation (SP 800-38D 8.2.1) needs a fixed field of at least 4 bytes
 * in front of the 8-byte invocation field, which is the IV's last 8. */
#define FC_IVGEN_MIN_IV (FC_TLS_FIXED_IV + FC_TLS_EXPLICIT_IV)

/* Where the IV stands; "spent" states say why it cannot be used again. */
enum {
    FC_IV_UNSET = 0, /* never set: encrypt draws one, decrypt fails */
    FC_IV_BUFFERED,  /* set; J0 not derived yet */
    FC_IV_ACTIVE,    /* J0 derived, message in progress */
    FC_IV_FINAL,     /* spent by final */
    FC_IV_STALE,     /* spent by an "ivlen" change */
    FC_IV_TLS_USED,  /* spent by a TLS record */
};

FC_DISPATCH(cipher, newctx, fc_aes128_gcm_newctx);
FC_DISPATCH(cipher, newctx, fc_aes192_gcm_newctx);
FC_DISPATCH(cipher, newctx, fc_aes256_gcm_newctx);
FC_DISPATCH(cipher, get_params, fc_aes128_gcm_get_params);
FC_DISPATCH(cipher, get_params, fc_aes192_gcm_get_params);
FC_DISPATCH(cipher, get_params, fc_aes256_gcm_get_params);
FC_DISPATCH(cipher, freectx, fc_aes_gcm_freectx);
FC_DISPATCH(cipher, dupctx, fc_aes_gcm_dupctx);
FC_DISPATCH(cipher, encrypt_init, fc_aes_gcm_einit);
FC_DISPATCH(cipher, decrypt_init, fc_aes_gcm_dinit);
FC_DISPATCH(cipher, update, fc_aes_gcm_update);
FC_DISPATCH(cipher, final, fc_aes_gcm_final);
FC_DISPATCH(cipher, cipher, fc_aes_gcm_cipher);
FC_DISPATCH(cipher, get_ctx_params, fc_aes_gcm_get_ctx_params);
FC_DISPATCH(cipher, set_ctx_params, fc_aes_gcm_set_ctx_params);
FC_DISPATCH(cipher, gettable_ctx_params, fc_aes_gcm_gettable_ctx_params);
FC_DISPATCH(cipher, settable_ctx_params, fc_aes_gcm_settable_ctx_params);

typedef struct fc_aes_gcm_ctx {
    fc_gcm_key key; /* first: aligned with the context */
    fc_gcm_state st;
    const fc_gcm_ops *ops;
    fc_prov_ctx *prov;
    uint8_t *iv_heap; /* IV storage beyond FC_GCM_IV_INLINE, or NULL */
    size_t iv_heap_cap;
    size_t ivlen;
    size_t keylen;        /* fixed by the cipher: 16, 24 or 32 */
    size_t taglen;        /* bytes of |tag| set (decrypt) or made (encrypt) */
    size_t tls_aad_pad;   /* "tlsaadpad" */
    uint64_t ivgen_count; /* IVs generated since key or fixed field */
    uint8_t iv_inline[FC_GCM_IV_INLINE];
    uint8_t tag[FC_GCM_TAG_BYTES]; /* expected (decrypt) or computed */
    uint8_t tls_aad[FC_TLS_AAD];
    uint8_t enc, key_set, iv_state, iv_gen;
    uint8_t tls_aad_set;   /* a "tlsaad" arms the next update as a record */
    uint8_t tls_aad_bad;   /* ... which fails: its length was refused */
    uint8_t dec_tag_set;   /* |tag| came from a "tag" set */
    uint8_t enc_tag_ready; /* |tag| holds this message's computed tag */
    uint8_t stat_seen;     /* bit k: counter k was added to once */
    uint32_t stat_pend[3]; /* messages not yet added (fc_gcm_count) */
} fc_aes_gcm_ctx;

/* ------------------------------------------------------------------------ */
/* Parameter names (decoded by fc_params_find, cipher_common.h). */

/* Lookup order: what EVP and libssl ask per record first ("ivlen" around
 * every init, "tag" per TLS 1.3 record, "tlsaadpad" per TLS 1.2 record). */
static const uint8_t fc_gcm_get_ids[] = {
    FC_CP_IVLEN,  FC_CP_TAG, FC_CP_TLS_AAD_PAD, FC_CP_KEYLEN,
    FC_CP_TAGLEN, FC_CP_IV,  FC_CP_UPDATED_IV,  FC_CP_TLS_IV_GEN,
};
static const fc_param_table fc_gcm_get_table = FC_PARAM_TABLE(fc_gcm_get_ids);

/* "tlsaad" per TLS 1.2 record, "tag" per TLS 1.3 record opened. The
 * "tls-version" and "tls-mac-size" libssl sets for every cipher mean
 * nothing to an AEAD: ignored like any unknown key. */
static const uint8_t fc_gcm_set_ids[] = {
    FC_CP_TLS_AAD, FC_CP_TAG,          FC_CP_IVLEN,
    FC_CP_KEYLEN,  FC_CP_TLS_IV_FIXED, FC_CP_TLS_IV_INV,
};
static const fc_param_table fc_gcm_set_table = FC_PARAM_TABLE(fc_gcm_set_ids);

static const OSSL_PARAM fc_aes_gcm_gettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, NULL, 0),
    OSSL_PARAM_END,
};

/* "keylen" is absent, as in the default provider (the length policy of
 * cipher_common.h); a "keylen" passed anyway must be the cipher's own. */
static const OSSL_PARAM fc_aes_gcm_settable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *fc_aes_gcm_gettable_ctx_params(void *cctx,
                                                        void *provctx)
{
    return fc_aes_gcm_gettable;
}

static const OSSL_PARAM *fc_aes_gcm_settable_ctx_params(void *cctx,
                                                        void *provctx)
{
    return fc_aes_gcm_settable;
}

/* ------------------------------------------------------------------------ */
/* IV storage and the TLS IV helpers. */

static inline uint8_t *fc_gcm_ivbuf(fc_aes_gcm_ctx *ctx)
{
    return ctx->iv_heap != NULL ? ctx->iv_heap : ctx->iv_inline;
}

/* Grows the IV storage to |n| bytes (above |cap|), keeping what is
 * stored. */
__attribute__((noinline)) static int fc_gcm_iv_grow(fc_aes_gcm_ctx *ctx,
                                                    size_t n, size_t cap)
{
    uint8_t *p = OPENSSL_zalloc(n);

    if (p == NULL) {
        FC_RAISE(ctx->prov, FC_R_MALLOC_FAILURE);
        return 0;
    }
    memcpy(p, fc_gcm_ivbuf(ctx), cap);
    OPENSSL_clear_free(ctx->iv_heap, ctx->iv_heap_cap);
    ctx->iv_heap = p;
    ctx->iv_heap_cap = n;
    return 1;
}

/* Makes room for an IV of |n| bytes, keeping what is stored. Only IVs
 * longer than FC_GCM_IV_INLINE ever allocate. */
static inline int fc_gcm_iv_reserve(fc_aes_gcm_ctx *ctx, size_t n)
{
    size_t cap = ctx->iv_heap != NULL ? ctx->iv_heap_cap : FC_GCM_IV_INLINE;

    return FC_LIKELY(n <= cap) || fc_gcm_iv_grow(ctx, n, cap);
}

/* Derives J0 from the stored IV: the message starts here. */
static inline int fc_gcm_start(fc_aes_gcm_ctx *ctx)
{
    if (!fc_gcm_set_iv(&ctx->key, &ctx->st, fc_gcm_ivbuf(ctx), ctx->ivlen)) {
        FC_RAISE_DATA(ctx->prov, FC_R_INVALID_IV_LENGTH, "ivlen=%zu",
                      ctx->ivlen);
        return 0;
    }
    ctx->iv_state = FC_IV_ACTIVE;
    ctx->enc_tag_ready = 0;
    return 1;
}

/* Whether the IV holds the generator's two fields. "tlsivfixed" and
 * "ivlen" never let IV generation run otherwise; checked again where the
 * invocation field is written, which must never land in front of the IV. */
static inline int fc_gcm_ivgen_fits(fc_aes_gcm_ctx *ctx)
{
    if (FC_LIKELY(ctx->ivlen >= FC_IVGEN_MIN_IV))
        return 1;
    FC_RAISE_DATA(ctx->prov, FC_R_INVALID_IV_LENGTH,
                  "IV generation with ivlen %zu", ctx->ivlen);
    return 0;
}

/*
 * Starts a message with the next generated TLS IV (fixed field followed by
 * the invocation field) and advances the invocation field, a big-endian
 * counter in the last 8 bytes (SP 800-38D 8.2.1). Writes the last |olen|
 * bytes of the IV used to |out| (the whole IV if |olen| is 0 or too big).
 */
static int fc_gcm_iv_generate(fc_aes_gcm_ctx *ctx, uint8_t *out, size_t olen)
{
    uint8_t *iv = fc_gcm_ivbuf(ctx), *inv;

    if (!ctx->iv_gen || !ctx->key_set) {
        FC_RAISE_DATA(ctx->prov,
                      ctx->key_set ? FC_R_NO_IV_SET : FC_R_NO_KEY_SET,
                      "IV generation needs a key and \"tlsivfixed\"");
        return 0;
    }
    if (!fc_gcm_ivgen_fits(ctx))
        return 0;
    /* 2^64 invocations would bring the counter back to its start. */
    if (ctx->ivgen_count == UINT64_MAX) {
        FC_RAISE_DATA(ctx->prov, FC_R_IV_REUSE, "invocation field exhausted");
        return 0;
    }
    if (!fc_gcm_start(ctx))
        return 0;
    ctx->ivgen_count++;
    if (olen == 0 || olen > ctx->ivlen)
        olen = ctx->ivlen;
    memcpy(out, iv + ctx->ivlen - olen, olen);
    inv = iv + ctx->ivlen - FC_TLS_EXPLICIT_IV;
    for (int i = FC_TLS_EXPLICIT_IV - 1; i >= 0; i--)
        if (++inv[i] != 0)
            break;
    return 1;
}

/* Decrypt side: the record's explicit IV replaces the invocation field. */
static int fc_gcm_iv_invocation(fc_aes_gcm_ctx *ctx, const uint8_t *in,
                                size_t inl)
{
    if (!ctx->iv_gen || !ctx->key_set || ctx->enc || inl > ctx->ivlen) {
        FC_RAISE_DATA(ctx->prov, FC_R_INVALID_PARAMETER,
                      "the TLS invocation field needs a key, "
                      "\"tlsivfixed\" and decryption");
        return 0;
    }
    if (!fc_gcm_ivgen_fits(ctx))
        return 0;
    memcpy(fc_gcm_ivbuf(ctx) + ctx->ivlen - inl, in, inl);
    return fc_gcm_start(ctx);
}

/* ------------------------------------------------------------------------ */
/* Parameters of a context. */

/* "iv" or "updated-iv": the IV as set, once there is one. */
static int fc_gcm_get_iv(fc_aes_gcm_ctx *ctx, OSSL_PARAM *p)
{
    if (ctx->iv_state == FC_IV_UNSET) {
        FC_RAISE(ctx->prov, FC_R_NO_IV_SET);
        return 0;
    }
    return fc_cipher_get_iv(ctx->prov, p, fc_gcm_ivbuf(ctx), ctx->ivlen, 1);
}

static int fc_aes_gcm_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    fc_aes_gcm_ctx *ctx = vctx;
    fc_params f;
    OSSL_PARAM *p;
    size_t sz;

    if (fc_params_find(&fc_gcm_get_table, params, &f) == 0)
        return 1;
    /* The default provider's order, which matters at the end only: the IV
     * is read before "tlsivgen" advances it. */
    if ((p = fc_param(&f, FC_CP_IVLEN)) != NULL &&
        !fc_cipher_set_size(ctx->prov, p, ctx->ivlen))
        return 0;
    if ((p = fc_param(&f, FC_CP_KEYLEN)) != NULL &&
        !fc_cipher_set_size(ctx->prov, p, ctx->keylen))
        return 0;
    if ((p = fc_param(&f, FC_CP_TAGLEN)) != NULL &&
        !fc_cipher_set_size(ctx->prov, p,
                            ctx->taglen != 0 ? ctx->taglen : FC_GCM_TAG_BYTES))
        return 0;
    /* GCM never updates the IV: both names give the IV as set. */
    if ((p = fc_param(&f, FC_CP_IV)) != NULL && !fc_gcm_get_iv(ctx, p))
        return 0;
    if ((p = fc_param(&f, FC_CP_UPDATED_IV)) != NULL && !fc_gcm_get_iv(ctx, p))
        return 0;
    if ((p = fc_param(&f, FC_CP_TLS_AAD_PAD)) != NULL &&
        !fc_cipher_set_size(ctx->prov, p, ctx->tls_aad_pad))
        return 0;
    if ((p = fc_param(&f, FC_CP_TAG)) != NULL) {
        sz = p->data_size;
        if (sz == 0 || sz > FC_GCM_TAG_BYTES) {
            FC_RAISE_DATA(ctx->prov, FC_R_INVALID_TAG_LENGTH, "%zu", sz);
            return 0;
        }
        if (!ctx->enc || !ctx->enc_tag_ready) {
            FC_RAISE_DATA(ctx->prov, FC_R_TAG_NOT_SET,
                          "the tag is available after an encrypt final");
            return 0;
        }
        if (!OSSL_PARAM_set_octet_string(p, ctx->tag, sz))
            goto bad;
    }
    if ((p = fc_param(&f, FC_CP_TLS_IV_GEN)) != NULL) {
        if (p->data == NULL || p->data_type != OSSL_PARAM_OCTET_STRING)
            goto bad;
        sz = p->data_size == 0 || p->data_size > ctx->ivlen ? ctx->ivlen
                                                            : p->data_size;
        if (!fc_gcm_iv_generate(ctx, p->data, p->data_size))
            return 0;
        p->return_size = sz;
    }
    return 1;
bad:
    FC_RAISE_DATA(ctx->prov, FC_R_INVALID_PARAMETER, "get %s", p->key);
    return 0;
}

/* "tlsaad": keep the 13-byte record header, its length corrected to the
 * payload's (without explicit IV, and without tag when decrypting). A
 * header whose length leaves no room for those is refused, and still arms
 * the next update, which then fails as a record (as the default's). */
static int fc_gcm_set_tls_aad(fc_aes_gcm_ctx *ctx, const OSSL_PARAM *p)
{
    const uint8_t *aad = p->data;
    size_t len, overhead = FC_TLS_EXPLICIT_IV + (ctx->enc ? 0 : FC_TLS_TAG);

    if (p->data_type != OSSL_PARAM_OCTET_STRING || aad == NULL ||
        p->data_size != FC_TLS_AAD) {
        FC_RAISE_DATA(ctx->prov, FC_R_TLS_RECORD_INVALID,
                      "\"tlsaad\" must be a %d-byte record header", FC_TLS_AAD);
        return 0;
    }
    len = ((size_t)aad[FC_TLS_AAD - 2] << 8) | aad[FC_TLS_AAD - 1];
    ctx->tls_aad_set = 1;
    ctx->tls_aad_bad = len < overhead;
    if (ctx->tls_aad_bad) {
        FC_RAISE_DATA(ctx->prov, FC_R_TLS_RECORD_INVALID,
                      "record length %zu below %zu", len, overhead);
        return 0;
    }
    len -= overhead;
    memcpy(ctx->tls_aad, aad, FC_TLS_AAD);
    ctx->tls_aad[FC_TLS_AAD - 2] = (uint8_t)(len >> 8);
    ctx->tls_aad[FC_TLS_AAD - 1] = (uint8_t)len;
    /* libssl adds this to the record length: the tag follows the data. */
    ctx->tls_aad_pad = FC_TLS_TAG;
    return 1;
}

/*
 * "tlsivfixed": the fixed field (at least 4 bytes, leaving at least 8 for
 * the invocation field), or with length (size_t)-1 the whole IV, whose
 * last 8 bytes are then the invocation field and which must leave 4 in
 * front of them too (the default provider checks nothing for that form,
 * and with an IV under 8 bytes its generator writes in front of the IV).
 */
static int fc_gcm_set_tls_iv_fixed(fc_aes_gcm_ctx *ctx, const OSSL_PARAM *p)
{
    uint8_t *iv = fc_gcm_ivbuf(ctx);
    size_t len = p->data_size;

    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL)
        goto bad;
    if (len == (size_t)-1) {
        if (ctx->ivlen < FC_IVGEN_MIN_IV) {
            FC_RAISE_DATA(ctx->prov, FC_R_INVALID_IV_LENGTH,
                          "\"tlsivfixed\" of the whole IV needs ivlen >= "
                          "%d, have %zu",
                          FC_IVGEN_MIN_IV, ctx->ivlen);
            return 0;
        }
        memcpy(iv, p->data, ctx->ivlen);
    } else {
        if (len < FC_TLS_FIXED_IV || len > ctx->ivlen ||
            ctx->ivlen - len < FC_TLS_EXPLICIT_IV)
            goto bad;
        memcpy(iv, p->data, len);
        /* The invocation field starts at a random point; the child
         * library context's DRBG is fork-safe. */
        if (ctx->enc && RAND_bytes_ex(ctx->prov->libctx, iv + len,
                                      ctx->ivlen - len, 0) <= 0) {
            FC_RAISE(ctx->prov, FC_R_RANDOM_FAILURE);
            return 0;
        }
    }
    ctx->iv_gen = 1;
    ctx->ivgen_count = 0;
    ctx->iv_state = FC_IV_BUFFERED;
    return 1;
bad:
    FC_RAISE_DATA(ctx->prov, FC_R_INVALID_IV_LENGTH,
                  "\"tlsivfixed\" of %zu bytes with ivlen %zu", len,
                  ctx->ivlen);
    return 0;
}

static int fc_aes_gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    fc_aes_gcm_ctx *ctx = vctx;
    fc_params f;
    const OSSL_PARAM *p;
    size_t sz;

    if (fc_params_find(&fc_gcm_set_table, params, &f) == 0)
        return 1;
    /* In this order: the key length first, so that its refusal changes
     * nothing (the policy of cipher_common.h); the tag and the IV length
     * before the TLS fields, which depend on the IV length; "tlsaad"
     * before "tlsivfixed" and "tlsivinv", as the default provider has
     * them. */
    if ((p = fc_param(&f, FC_CP_KEYLEN)) != NULL &&
        !fc_cipher_check_keylen_param(ctx->prov, p, ctx->keylen))
        return 0;
    if ((p = fc_param(&f, FC_CP_TAG)) != NULL) {
        /* The tag is an output when encrypting: refused with data or
         * without (a length alone), as the default provider does. */
        if (ctx->enc) {
            FC_RAISE_DATA(ctx->prov, FC_R_INVALID_PARAMETER,
                          "the tag cannot be set when encrypting");
            return 0;
        }
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL)
            goto bad;
        sz = p->data_size;
        if (sz == 0 || sz > FC_GCM_TAG_BYTES) {
            FC_RAISE_DATA(ctx->prov, FC_R_INVALID_TAG_LENGTH, "%zu", sz);
            return 0;
        }
        memcpy(ctx->tag, p->data, sz);
        ctx->taglen = sz;
        ctx->dec_tag_set = 1;
        ctx->enc_tag_ready = 0;
    }
    if ((p = fc_param(&f, FC_CP_IVLEN)) != NULL) {
        if (!fc_cipher_get_ivlen_param(ctx->prov, p, &sz, 1,
                                       FC_GCM_MAX_IV_BYTES))
            return 0;
        if (sz != ctx->ivlen) {
            /* The generator's fields must still fit (as at "tlsivfixed");
             * an explicit IV through init ends generation first. */
            if (ctx->iv_gen && sz < FC_IVGEN_MIN_IV) {
                FC_RAISE_DATA(ctx->prov, FC_R_INVALID_IV_LENGTH,
                              "ivlen %zu with IV generation on "
                              "(\"tlsivfixed\") needs >= %d",
                              sz, FC_IVGEN_MIN_IV);
                return 0;
            }
            if (!fc_gcm_iv_reserve(ctx, sz))
                return 0;
            /* An IV already set was meant for the old length. */
            if (ctx->iv_state != FC_IV_UNSET)
                ctx->iv_state = FC_IV_STALE;
            ctx->ivlen = sz;
        }
    }
    if ((p = fc_param(&f, FC_CP_TLS_AAD)) != NULL &&
        !fc_gcm_set_tls_aad(ctx, p))
        return 0;
    if ((p = fc_param(&f, FC_CP_TLS_IV_FIXED)) != NULL &&
        !fc_gcm_set_tls_iv_fixed(ctx, p))
        return 0;
    if ((p = fc_param(&f, FC_CP_TLS_IV_INV)) != NULL) {
        if (p->data == NULL || p->data_type != OSSL_PARAM_OCTET_STRING)
            goto bad;
        if (!fc_gcm_iv_invocation(ctx, p->data, p->data_size))
            return 0;
    }
    return 1;
bad:
    FC_RAISE_DATA(ctx->prov, FC_R_INVALID_PARAMETER, "set %s", p->key);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Operation counters. */

/*
 * Messages are counted per context and added to the provider's counters
 * ("fastcrypto-stats") in batches: a locked add per message took ~13 TSC
 * ticks on the Xeon, 2-5% of a TLS record. A context's first message of
 * each kind is added at once, so any context that did something shows;
 * the rest go every FC_GCM_STAT_BATCH messages and when the context is
 * freed.
 */
#define FC_GCM_STAT_BATCH 64

enum { FC_GCM_CNT_ENC, FC_GCM_CNT_DEC, FC_GCM_CNT_TLS };

static const enum fc_stat fc_gcm_cnt_stat[] = {FC_STAT_GCM_ENC, FC_STAT_GCM_DEC,
                                               FC_STAT_GCM_TLS};

static inline void fc_gcm_count(fc_aes_gcm_ctx *ctx, int k)
{
    if (FC_LIKELY(++ctx->stat_pend[k] < FC_GCM_STAT_BATCH &&
                  (ctx->stat_seen >> k & 1) != 0))
        return;
    fc_stat_add(ctx->prov, fc_gcm_cnt_stat[k], ctx->stat_pend[k]);
    ctx->stat_pend[k] = 0;
    ctx->stat_seen |= (uint8_t)(1u << k);
}

static void fc_gcm_count_flush(fc_aes_gcm_ctx *ctx)
{
    for (int k = 0; k < (int)FC_ARRAY_LEN(ctx->stat_pend); k++)
        if (ctx->stat_pend[k] != 0)
            fc_stat_add(ctx->prov, fc_gcm_cnt_stat[k], ctx->stat_pend[k]);
    memset(ctx->stat_pend, 0, sizeof(ctx->stat_pend));
}

/* ------------------------------------------------------------------------ */
/* Context life cycle. */

static void fc_aes_gcm_release(fc_aes_gcm_ctx *ctx)
{
    /* Round keys, H powers, tag, keystream and IV: nothing survives. */
    OPENSSL_clear_free(ctx->iv_heap, ctx->iv_heap_cap);
    fc_cipher_ctx_free(ctx, sizeof(*ctx));
}

static void *fc_aes_gcm_newctx(void *provctx, size_t keylen)
{
    fc_prov_ctx *prov = provctx;
    fc_aes_gcm_ctx *ctx = fc_cipher_ctx_new(prov, sizeof(*ctx));

    if (ctx == NULL)
        return NULL;
    ctx->prov = prov;
    ctx->ops = prov->gcm;
    ctx->keylen = keylen;
    ctx->ivlen = FC_GCM_IVLEN_DEFAULT;
    return ctx;
}

/* What get_params reports (cipher_common.h), with the key length of each
 * cipher. */
static const fc_cipher_info fc_aes_gcm_info = {.mode = EVP_CIPH_GCM_MODE,
                                               .ivlen = FC_GCM_IVLEN_DEFAULT,
                                               .blocksize = 1,
                                               .aead = 1,
                                               .custom_iv = 1};

static void fc_aes_gcm_freectx(void *vctx)
{
    if (vctx == NULL)
        return;
    fc_gcm_count_flush(vctx);
    fc_aes_gcm_release(vctx);
}

static void *fc_aes_gcm_dupctx(void *vctx)
{
    fc_aes_gcm_ctx *src = vctx, *dst;

    /* Everything is a value except the heap IV; the key holds only a
     * pointer to a static table. */
    dst = fc_cipher_ctx_dup(src->prov, src, sizeof(*src));
    if (dst == NULL)
        return NULL;
    /* The source's uncounted messages stay the source's. */
    memset(dst->stat_pend, 0, sizeof(dst->stat_pend));
    if (src->iv_heap == NULL)
        return dst;
    dst->iv_heap = OPENSSL_memdup(src->iv_heap, src->iv_heap_cap);
    if (dst->iv_heap == NULL) {
        /* iv_heap is NULL now: nothing of the source is freed. */
        dst->iv_heap_cap = 0;
        fc_aes_gcm_release(dst);
        FC_RAISE(src->prov, FC_R_MALLOC_FAILURE);
        return NULL;
    }
    return dst;
}

static int fc_aes_gcm_init(void *vctx, const unsigned char *key, size_t keylen,
                           const unsigned char *iv, size_t ivlen,
                           const OSSL_PARAM params[], int enc)
{
    fc_aes_gcm_ctx *ctx = vctx;

    ctx->enc = (uint8_t)enc;
    if (iv != NULL) {
        if (!fc_cipher_check_ivlen(ctx->prov, ivlen, 1, FC_GCM_MAX_IV_BYTES) ||
            !fc_gcm_iv_reserve(ctx, ivlen))
            return 0;
        /* Copied; the message starts below if the key is there. */
        if (FC_LIKELY(ivlen == FC_GCM_IVLEN_DEFAULT))
            memcpy(fc_gcm_ivbuf(ctx), iv, FC_GCM_IVLEN_DEFAULT);
        else
            memcpy(fc_gcm_ivbuf(ctx), iv, ivlen);
        ctx->ivlen = ivlen;
        ctx->iv_state = FC_IV_BUFFERED;
        /* The caller manages IVs now, not the TLS generator. */
        ctx->iv_gen = 0;
        ctx->enc_tag_ready = 0;
    }
    if (key != NULL) {
        if (!fc_cipher_check_keylen(ctx->prov, keylen, ctx->keylen))
            return 0;
        fc_gcm_set_key(&ctx->key, ctx->ops, key, keylen);
        ctx->key_set = 1;
        ctx->ivgen_count = 0;
        /* A message in progress under the old key restarts from its IV. */
        if (ctx->iv_state == FC_IV_ACTIVE)
            ctx->iv_state = FC_IV_BUFFERED;
    }
    /* A new IV with a key: the message starts now, and with it the AES of
     * E(K, J0) and the first keystream block (fc_gcm_set_iv), which then
     * runs while EVP and the caller prepare the data (a TLS 1.3 record's
     * IV-only init). Without a key, it starts at the first update. */
    if (iv != NULL && ctx->key_set && !fc_gcm_start(ctx))
        return 0;
    return params == NULL || fc_aes_gcm_set_ctx_params(ctx, params);
}

static int fc_aes_gcm_einit(void *vctx, const unsigned char *key, size_t keylen,
                            const unsigned char *iv, size_t ivlen,
                            const OSSL_PARAM params[])
{
    return fc_aes_gcm_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int fc_aes_gcm_dinit(void *vctx, const unsigned char *key, size_t keylen,
                            const unsigned char *iv, size_t ivlen,
                            const OSSL_PARAM params[])
{
    return fc_aes_gcm_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* ------------------------------------------------------------------------ */
/* Data. */

/* fc_gcm_ready past a message in progress. */
__attribute__((noinline)) static int fc_gcm_ready_slow(fc_aes_gcm_ctx *ctx)
{
    if (FC_UNLIKELY(!ctx->key_set)) {
        FC_RAISE(ctx->prov, FC_R_NO_KEY_SET);
        return 0;
    }
    switch (ctx->iv_state) {
    case FC_IV_ACTIVE:
        return 1;
    case FC_IV_BUFFERED:
        /* In IV-generation mode the stored IV is the next one the
         * generator hands out: using it here would repeat it. */
        if (ctx->enc && ctx->iv_gen) {
            FC_RAISE_DATA(ctx->prov, FC_R_IV_REUSE,
                          "TLS IV generation: set \"tlsaad\" or get "
                          "\"tlsivgen\" first");
            return 0;
        }
        return fc_gcm_start(ctx);
    case FC_IV_UNSET:
        if (!ctx->enc || ctx->ivlen < FC_GCM_IVLEN_DEFAULT) {
            FC_RAISE(ctx->prov, FC_R_NO_IV_SET);
            return 0;
        }
        /* SP 800-38D 8.2.2: a random IV of at least 96 bits. */
        if (RAND_bytes_ex(ctx->prov->libctx, fc_gcm_ivbuf(ctx), ctx->ivlen,
                          0) <= 0) {
            FC_RAISE(ctx->prov, FC_R_RANDOM_FAILURE);
            return 0;
        }
        return fc_gcm_start(ctx);
    case FC_IV_FINAL:
        FC_RAISE_DATA(ctx->prov, FC_R_FINAL_ALREADY_CALLED,
                      "set a new IV to start another message");
        return 0;
    case FC_IV_STALE:
        FC_RAISE_DATA(ctx->prov, FC_R_NO_IV_SET,
                      "the IV length changed after the IV was set");
        return 0;
    default:
        FC_RAISE_DATA(ctx->prov, ctx->enc ? FC_R_IV_REUSE : FC_R_NO_IV_SET,
                      "the IV was used by a TLS record");
        return 0;
    }
}

/* Makes sure a message is in progress: key set, J0 derived from a usable
 * IV (drawn at random for an encryption that has none). A message started
 * (FC_IV_ACTIVE) always has its key. */
__attribute__((always_inline)) static inline int
fc_gcm_ready(fc_aes_gcm_ctx *ctx)
{
    return FC_LIKELY(ctx->iv_state == FC_IV_ACTIVE) || fc_gcm_ready_slow(ctx);
}

/* AAD (out == NULL) or data, |inl| > 0, outside TLS record mode. */
static int fc_gcm_process(fc_aes_gcm_ctx *ctx, unsigned char *out,
                          const unsigned char *in, size_t inl)
{
    if (!fc_gcm_ready(ctx))
        return 0;
    if (out == NULL) {
        if (!fc_gcm_aad(&ctx->key, &ctx->st, in, inl)) {
            FC_RAISE_DATA(ctx->prov,
                          ctx->st.msg_len != 0 ? FC_R_INVALID_PARAMETER
                                               : FC_R_TOO_MUCH_DATA,
                          ctx->st.msg_len != 0 ? "AAD after data"
                                               : "AAD too long");
            return 0;
        }
        return 1;
    }
    if (fc_partial_overlap(out, in, inl)) {
        /* A stream cipher maps byte i to byte i: move, then work in
         * place. */
        memmove(out, in, inl);
        in = out;
    }
    if (!(ctx->enc ? fc_gcm_encrypt : fc_gcm_decrypt)(&ctx->key, &ctx->st, in,
                                                      out, inl)) {
        FC_RAISE_DATA(ctx->prov, FC_R_TOO_MUCH_DATA,
                      "more than 2^39 - 256 bits under one IV");
        return 0;
    }
    return 1;
}

/* Ends the message: computes the tag, or checks the one set. */
static int fc_gcm_final_tag(fc_aes_gcm_ctx *ctx)
{
    if (ctx->tls_aad_set) {
        /* Taken as a record that fails: header and IV are spent (as the
         * default's). */
        ctx->tls_aad_set = ctx->tls_aad_bad = 0;
        ctx->iv_state = FC_IV_TLS_USED;
        FC_RAISE(ctx->prov, FC_R_TLS_MODE_FINAL);
        return 0;
    }
    if (!fc_gcm_ready(ctx))
        return 0;
    fc_gcm_count(ctx, ctx->enc ? FC_GCM_CNT_ENC : FC_GCM_CNT_DEC);
    if (ctx->enc) {
        fc_gcm_finish(&ctx->key, &ctx->st, ctx->tag);
        ctx->taglen = FC_GCM_TAG_BYTES;
        /* |tag| now holds our output, not a tag to check against. */
        ctx->dec_tag_set = 0;
        ctx->enc_tag_ready = 1;
        ctx->iv_state = FC_IV_FINAL;
        return 1;
    }
    /* Checked before anything changes: the caller may set the tag and
     * call final again. */
    if (!ctx->dec_tag_set) {
        FC_RAISE(ctx->prov, FC_R_TAG_NOT_SET);
        return 0;
    }
    ctx->iv_state = FC_IV_FINAL;
    if (!fc_gcm_verify(&ctx->key, &ctx->st, ctx->tag, ctx->taglen)) {
        FC_RAISE(ctx->prov, FC_R_INVALID_TAG);
        return 0;
    }
    return 1;
}

/*
 * One TLS 1.2 record in place: explicit IV (8) | payload | tag (16). On
 * encrypt the explicit IV is generated and written, the payload encrypted
 * and the tag appended, *outl = the whole record; on decrypt the explicit
 * IV is taken from the record, the payload decrypted and the tag checked
 * (the payload is wiped on mismatch), *outl = the payload length. Either
 * way the record spends the armed "tlsaad" and the IV.
 */
static int fc_gcm_tls_record(fc_aes_gcm_ctx *ctx, unsigned char *out,
                             size_t *outl, const unsigned char *in, size_t len)
{
    uint8_t *payload;
    size_t plen = 0, n;
    int ok = 0;

    if (!ctx->key_set) {
        FC_RAISE(ctx->prov, FC_R_NO_KEY_SET);
        goto done;
    }
    if (ctx->tls_aad_bad) {
        FC_RAISE_DATA(ctx->prov, FC_R_TLS_RECORD_INVALID,
                      "the record's \"tlsaad\" was refused");
        goto done;
    }
    if (out != in || in == NULL || len < FC_TLS_EXPLICIT_IV + FC_TLS_TAG) {
        FC_RAISE_DATA(ctx->prov, FC_R_TLS_RECORD_INVALID,
                      "a record is processed in place (%s) and has at "
                      "least %d bytes (got %zu)",
                      out == in ? "it was" : "it was not",
                      FC_TLS_EXPLICIT_IV + FC_TLS_TAG, len);
        goto done;
    }
    if (ctx->enc) {
        if (!fc_gcm_iv_generate(ctx, out, FC_TLS_EXPLICIT_IV))
            goto done;
    } else if (!fc_gcm_iv_invocation(ctx, in, FC_TLS_EXPLICIT_IV)) {
        goto done;
    }
    fc_gcm_count(ctx, FC_GCM_CNT_TLS);
    payload = out + FC_TLS_EXPLICIT_IV;
    n = len - FC_TLS_EXPLICIT_IV - FC_TLS_TAG;
    if (!fc_gcm_aad(&ctx->key, &ctx->st, ctx->tls_aad, FC_TLS_AAD))
        goto done;
    if (ctx->enc) {
        if (!fc_gcm_encrypt(&ctx->key, &ctx->st, payload, payload, n))
            goto too_long;
        fc_gcm_finish(&ctx->key, &ctx->st, payload + n);
        plen = len;
    } else {
        if (!fc_gcm_decrypt(&ctx->key, &ctx->st, payload, payload, n))
            goto too_long;
        if (!fc_gcm_verify(&ctx->key, &ctx->st, payload + n, FC_TLS_TAG)) {
            OPENSSL_cleanse(payload, n);
            FC_RAISE(ctx->prov, FC_R_INVALID_TAG);
            goto done;
        }
        plen = n;
    }
    ok = 1;
    goto done;
too_long:
    FC_RAISE(ctx->prov, FC_R_TOO_MUCH_DATA);
done:
    ctx->iv_state = FC_IV_TLS_USED;
    ctx->tls_aad_set = ctx->tls_aad_bad = 0;
    *outl = plen;
    return ok;
}

static int fc_aes_gcm_update(void *vctx, unsigned char *out, size_t *outl,
                             size_t outsize, const unsigned char *in,
                             size_t inl)
{
    fc_aes_gcm_ctx *ctx = vctx;

    if (inl == 0) {
        *outl = 0;
        return 1;
    }
    if (FC_UNLIKELY(outsize < inl)) {
        FC_RAISE_DATA(ctx->prov, FC_R_OUTPUT_TOO_SMALL, "need %zu, have %zu",
                      inl, outsize);
        return 0;
    }
    if (FC_UNLIKELY(in == NULL)) {
        FC_RAISE(ctx->prov, FC_R_NULL_ARGUMENT);
        return 0;
    }
    if (ctx->tls_aad_set)
        return fc_gcm_tls_record(ctx, out, outl, in, inl);
    if (!fc_gcm_process(ctx, out, in, inl))
        return 0;
    *outl = inl;
    return 1;
}

static int fc_aes_gcm_final(void *vctx, unsigned char *out, size_t *outl,
                            size_t outsize)
{
    fc_aes_gcm_ctx *ctx = vctx;

    if (!fc_gcm_final_tag(ctx))
        return 0;
    *outl = 0;
    return 1;
}

/*
 * The one-shot call behind EVP_Cipher, as the default provider has it: in
 * == NULL finalises (tag computed or checked), out == NULL is AAD, anything
 * else data or, with "tlsaad" armed, one TLS record. *outl is always |inl|.
 */
static int fc_aes_gcm_cipher(void *vctx, unsigned char *out, size_t *outl,
                             size_t outsize, const unsigned char *in,
                             size_t inl)
{
    fc_aes_gcm_ctx *ctx = vctx;
    size_t n;

    if (outsize < inl) {
        FC_RAISE_DATA(ctx->prov, FC_R_OUTPUT_TOO_SMALL, "need %zu, have %zu",
                      inl, outsize);
        return 0;
    }
    if (in == NULL) {
        if (!fc_gcm_final_tag(ctx))
            return 0;
    } else if (ctx->tls_aad_set) {
        if (!fc_gcm_tls_record(ctx, out, &n, in, inl))
            return 0;
    } else if (inl == 0) {
        if (!fc_gcm_ready(ctx))
            return 0;
    } else if (!fc_gcm_process(ctx, out, in, inl)) {
        return 0;
    }
    *outl = inl;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Dispatch tables (fc_prov.h): each cipher's table after the two entries
 * its key size makes its own. */

static void *fc_aes128_gcm_newctx(void *provctx)
{
    return fc_aes_gcm_newctx(provctx, 16);
}

static int fc_aes128_gcm_get_params(OSSL_PARAM params[])
{
    return fc_cipher_get_params(params, &fc_aes_gcm_info, 16);
}

const OSSL_DISPATCH fc_aes128gcm_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes128_gcm_newctx),
    FC_FN(CIPHER_FREECTX, fc_aes_gcm_freectx),
    FC_FN(CIPHER_DUPCTX, fc_aes_gcm_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_aes_gcm_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_aes_gcm_dinit),
    FC_FN(CIPHER_UPDATE, fc_aes_gcm_update),
    FC_FN(CIPHER_FINAL, fc_aes_gcm_final),
    FC_FN(CIPHER_CIPHER, fc_aes_gcm_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes128_gcm_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_aes_gcm_get_ctx_params),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_aes_gcm_set_ctx_params),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_aes_gcm_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_aes_gcm_settable_ctx_params),
    OSSL_DISPATCH_END,
};

static void *fc_aes192_gcm_newctx(void *provctx)
{
    return fc_aes_gcm_newctx(provctx, 24);
}

static int fc_aes192_gcm_get_params(OSSL_PARAM params[])
{
    return fc_cipher_get_params(params, &fc_aes_gcm_info, 24);
}

const OSSL_DISPATCH fc_aes192gcm_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes192_gcm_newctx),
    FC_FN(CIPHER_FREECTX, fc_aes_gcm_freectx),
    FC_FN(CIPHER_DUPCTX, fc_aes_gcm_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_aes_gcm_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_aes_gcm_dinit),
    FC_FN(CIPHER_UPDATE, fc_aes_gcm_update),
    FC_FN(CIPHER_FINAL, fc_aes_gcm_final),
    FC_FN(CIPHER_CIPHER, fc_aes_gcm_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes192_gcm_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_aes_gcm_get_ctx_params),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_aes_gcm_set_ctx_params),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_aes_gcm_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_aes_gcm_settable_ctx_params),
    OSSL_DISPATCH_END,
};

static void *fc_aes256_gcm_newctx(void *provctx)
{
    return fc_aes_gcm_newctx(provctx, 32);
}

static int fc_aes256_gcm_get_params(OSSL_PARAM params[])
{
    return fc_cipher_get_params(params, &fc_aes_gcm_info, 32);
}

const OSSL_DISPATCH fc_aes256gcm_functions[] = {
    FC_FN(CIPHER_NEWCTX, fc_aes256_gcm_newctx),
    FC_FN(CIPHER_FREECTX, fc_aes_gcm_freectx),
    FC_FN(CIPHER_DUPCTX, fc_aes_gcm_dupctx),
    FC_FN(CIPHER_ENCRYPT_INIT, fc_aes_gcm_einit),
    FC_FN(CIPHER_DECRYPT_INIT, fc_aes_gcm_dinit),
    FC_FN(CIPHER_UPDATE, fc_aes_gcm_update),
    FC_FN(CIPHER_FINAL, fc_aes_gcm_final),
    FC_FN(CIPHER_CIPHER, fc_aes_gcm_cipher),
    FC_FN(CIPHER_GET_PARAMS, fc_aes256_gcm_get_params),
    FC_FN(CIPHER_GETTABLE_PARAMS, fc_cipher_gettable_params),
    FC_FN(CIPHER_GET_CTX_PARAMS, fc_aes_gcm_get_ctx_params),
    FC_FN(CIPHER_SET_CTX_PARAMS, fc_aes_gcm_set_ctx_params),
    FC_FN(CIPHER_GETTABLE_CTX_PARAMS, fc_aes_gcm_gettable_ctx_params),
    FC_FN(CIPHER_SETTABLE_CTX_PARAMS, fc_aes_gcm_settable_ctx_params),
    OSSL_DISPATCH_END,
};
