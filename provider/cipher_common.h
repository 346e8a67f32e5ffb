/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cipher_common.h - what every cipher glue file shares: one decoder for
 * parameter arrays, one key and IV length policy, the context allocation,
 * the IV read-out, the algorithm constants behind get_params, the state
 * and parameters of the non-AEAD modes (fc_cipher_generic: CBC, CTR), and
 * how every cipher file writes its dispatch tables.
 *
 * A cipher file keeps only its own semantics. Its parameter handlers decode
 * the caller's array once (fc_params_find) into a set of slots, one per
 * name the cipher knows, and then apply the slots in an order the handler
 * spells out and comments; the order the caller wrote them in never
 * matters. A non-AEAD mode takes the default provider's generic parameters
 * from fc_cipher_generic as they are. Adding a cipher means a newctx, an
 * init, its data path, the names it takes beyond those, and its dispatch
 * tables, written out by hand as the section at the end of this header
 * says: cipher_aes_ctr.c is the smallest example.
 *
 * Parameter names. Every name any cipher of ours knows has one id (enum
 * fc_cparam) and its string in fc_cparam_names. A table (fc_param_table)
 * lists the ids one handler takes, in the order they are looked up: put
 * the names EVP and libssl send per record first. Names have 2 to 15
 * characters; a lookup costs about one compare per entry before the match
 * and one per character of the name matched.
 */
#ifndef FC_CIPHER_COMMON_H
#define FC_CIPHER_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <openssl/core.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "fc_prov.h"

/* The parameter names of our ciphers, one id each (at most 32). */
enum fc_cparam {
    /* Algorithm constants (get_params). */
    FC_CP_MODE,
    FC_CP_BLOCK_SIZE,
    FC_CP_AEAD,
    FC_CP_CUSTOM_IV,
    FC_CP_CTS,
    FC_CP_TLS_MULTI,
    FC_CP_HAS_RANDKEY,
    /* Lengths: constants of the algorithm, and of each context. */
    FC_CP_KEYLEN,
    FC_CP_IVLEN, /* also OSSL_CIPHER_PARAM_AEAD_IVLEN */
    /* Context parameters. */
    FC_CP_IV,
    FC_CP_UPDATED_IV,
    FC_CP_PADDING,
    FC_CP_NUM,
    FC_CP_USE_BITS,
    FC_CP_TLS_VERSION,
    FC_CP_TLS_MAC_SIZE,
    FC_CP_TLS_MAC,
    FC_CP_TAG,
    FC_CP_TAGLEN,
    FC_CP_TLS_AAD,
    FC_CP_TLS_AAD_PAD,
    FC_CP_TLS_IV_FIXED,
    FC_CP_TLS_IV_GEN,
    FC_CP_TLS_IV_INV,
    FC_CP_MAC_KEY, /* OSSL_CIPHER_PARAM_AEAD_MAC_KEY, "mackey" */
    FC_CP_COUNT
};

_Static_assert(FC_CP_COUNT <= 32, "parameter ids must fit a 32-bit mask");

/* A parameter name, NUL-padded, and its length. */
typedef struct fc_param_name {
    char s[16];
    uint8_t len;
} fc_param_name;

/* FC_CP_NAME(OSSL_CIPHER_PARAM_IVLEN) is an entry of fc_cparam_names; a
 * name must have 2..15 characters, else this divides by zero. */
#define FC_CP_NAME(name)                                                       \
    {                                                                          \
        name, (sizeof(name) - 1) / (sizeof(name) >= 3 && sizeof(name) <= 16)   \
    }

/* The names of the ids: the one place where a name meets its id. */
static const fc_param_name fc_cparam_names[FC_CP_COUNT] = {
    [FC_CP_MODE] = FC_CP_NAME(OSSL_CIPHER_PARAM_MODE),
    [FC_CP_BLOCK_SIZE] = FC_CP_NAME(OSSL_CIPHER_PARAM_BLOCK_SIZE),
    [FC_CP_AEAD] = FC_CP_NAME(OSSL_CIPHER_PARAM_AEAD),
    [FC_CP_CUSTOM_IV] = FC_CP_NAME(OSSL_CIPHER_PARAM_CUSTOM_IV),
    [FC_CP_CTS] = FC_CP_NAME(OSSL_CIPHER_PARAM_CTS),
    [FC_CP_TLS_MULTI] = FC_CP_NAME(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK),
    [FC_CP_HAS_RANDKEY] = FC_CP_NAME(OSSL_CIPHER_PARAM_HAS_RAND_KEY),
    [FC_CP_KEYLEN] = FC_CP_NAME(OSSL_CIPHER_PARAM_KEYLEN),
    [FC_CP_IVLEN] = FC_CP_NAME(OSSL_CIPHER_PARAM_IVLEN),
    [FC_CP_IV] = FC_CP_NAME(OSSL_CIPHER_PARAM_IV),
    [FC_CP_UPDATED_IV] = FC_CP_NAME(OSSL_CIPHER_PARAM_UPDATED_IV),
    [FC_CP_PADDING] = FC_CP_NAME(OSSL_CIPHER_PARAM_PADDING),
    [FC_CP_NUM] = FC_CP_NAME(OSSL_CIPHER_PARAM_NUM),
    [FC_CP_USE_BITS] = FC_CP_NAME(OSSL_CIPHER_PARAM_USE_BITS),
    [FC_CP_TLS_VERSION] = FC_CP_NAME(OSSL_CIPHER_PARAM_TLS_VERSION),
    [FC_CP_TLS_MAC_SIZE] = FC_CP_NAME(OSSL_CIPHER_PARAM_TLS_MAC_SIZE),
    [FC_CP_TLS_MAC] = FC_CP_NAME(OSSL_CIPHER_PARAM_TLS_MAC),
    [FC_CP_TAG] = FC_CP_NAME(OSSL_CIPHER_PARAM_AEAD_TAG),
    [FC_CP_TAGLEN] = FC_CP_NAME(OSSL_CIPHER_PARAM_AEAD_TAGLEN),
    [FC_CP_TLS_AAD] = FC_CP_NAME(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD),
    [FC_CP_TLS_AAD_PAD] = FC_CP_NAME(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD),
    [FC_CP_TLS_IV_FIXED] = FC_CP_NAME(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED),
    [FC_CP_TLS_IV_GEN] = FC_CP_NAME(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN),
    [FC_CP_TLS_IV_INV] = FC_CP_NAME(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV),
    [FC_CP_MAC_KEY] = FC_CP_NAME(OSSL_CIPHER_PARAM_AEAD_MAC_KEY),
};

/* The names one handler takes, as ids in lookup order. */
typedef struct fc_param_table {
    const uint8_t *ids;
    size_t count;
} fc_param_table;

/* FC_PARAM_TABLE(ids) makes the table of the uint8_t array |ids|. */
#define FC_PARAM_TABLE(ids)                                                    \
    {                                                                          \
        (ids), sizeof(ids) / sizeof((ids)[0])                                  \
    }

/*
 * The result of one decoding pass: for each id whose bit is set in |seen|,
 * the first parameter of the array with that name (as OSSL_PARAM_locate
 * would find it). Slots whose bit is clear are never written and hold
 * garbage: read them through fc_param.
 */
typedef struct fc_params {
    uint32_t seen;
    OSSL_PARAM *slot[FC_CP_COUNT];
} fc_params;

/*
 * Whether the key |k| is the name of |e|, byte by byte: k[j] is read only
 * once k[0..j) matched characters of the name, so never past the key's
 * NUL (a key may end anywhere; reading on could touch another page, and
 * sanitizers would rightly object). Unrolled over a constant table, this
 * is a chain of compares against immediates: no call, no loop.
 */
static inline int fc_param_is(const char *k, const fc_param_name *e)
{
#pragma GCC unroll 16
    for (size_t j = 0; j < sizeof(e->s); j++) {
        if (k[j] != e->s[j])
            return 0;
        if (e->s[j] == '\0')
            return 1;
    }
    return 0;
}

/*
 * fc_params_find makes one pass over |params| (NULL or ended by a NULL
 * key) and fills |found| with the first parameter of each name in |table|;
 * names not in |table| are ignored, as OpenSSL ignores unknown keys.
 * Returns |found->seen|: 0 when nothing applies. The array is not written
 * (the slots are non-const so that get handlers can fill them). Inline,
 * so that with a constant table the names become immediates: a key costs
 * about one compare per entry before its own, then one per character.
 */
static inline uint32_t fc_params_find(const fc_param_table *table,
                                      const OSSL_PARAM *params,
                                      fc_params *found)
{
    const uint8_t *ids = table->ids;
    const size_t count = table->count;
    uint32_t seen = 0;

    for (const OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++) {
#pragma GCC unroll 32
        for (size_t i = 0; i < count; i++) {
            uint32_t bit;

            if (!fc_param_is(p->key, &fc_cparam_names[ids[i]]))
                continue;
            bit = (uint32_t)1 << ids[i];
            /* Like OSSL_PARAM_locate: the first of duplicate keys. */
            if ((seen & bit) == 0) {
                seen |= bit;
                found->slot[ids[i]] = (OSSL_PARAM *)p;
            }
            break;
        }
    }
    found->seen = seen;
    return seen;
}

/* fc_param returns the slot of |id| in |found|, or NULL if absent. */
static inline OSSL_PARAM *fc_param(const fc_params *found, int id)
{
    return (found->seen >> id) & 1 ? found->slot[id] : NULL;
}

/* ------------------------------------------------------------------------ */
/* Algorithm constants. */

/* What get_params reports for the ciphers of one mode, whatever the key
 * size. */
typedef struct fc_cipher_info {
    unsigned int mode; /* EVP_CIPH_*_MODE */
    size_t ivlen, blocksize;
    int aead, custom_iv; /* 1 or 0; "cts", "tls-multi", "has-randkey": 0 */
} fc_cipher_info;

/*
 * fc_cipher_get_params answers the constant parameters of |info| and the
 * key length |keylen|. There is no provider context here, so a failure
 * returns 0 without an error of ours on the queue.
 */
int fc_cipher_get_params(OSSL_PARAM params[], const fc_cipher_info *info,
                         size_t keylen);

/* fc_cipher_gettable_params lists the names fc_cipher_get_params answers;
 * the same for every cipher of ours. */
const OSSL_PARAM *fc_cipher_gettable_params(void *provctx);

/* ------------------------------------------------------------------------ */
/* Key and IV lengths. */

/*
 * The key length is the cipher's own, whoever passes another: an init's
 * |keylen|, or a "keylen" in any parameter array (the default provider
 * ignores another there, and EVP 3.5+ then records it and fails the next
 * init; refusing it clearly is better). "keylen" is never settable, so
 * EVP_CIPHER_CTX_set_key_length refuses a change in EVP itself.
 *
 * fc_cipher_check_keylen returns 1 if |got| is |own|, else raises
 * FC_R_INVALID_KEY_LENGTH (fc_cipher_bad_keylen) and returns 0.
 * fc_cipher_check_keylen_param does the same for the size_t of a "keylen"
 * parameter |p| (an unreadable one gets FC_R_INVALID_PARAMETER).
 */
int fc_cipher_bad_keylen(fc_prov_ctx *prov, size_t got, size_t own);

static inline int fc_cipher_check_keylen(fc_prov_ctx *prov, size_t got,
                                         size_t own)
{
    return FC_LIKELY(got == own) || fc_cipher_bad_keylen(prov, got, own);
}

int fc_cipher_check_keylen_param(fc_prov_ctx *prov, const OSSL_PARAM *p,
                                 size_t own);

/*
 * fc_cipher_check_ivlen returns 1 if |min| <= |got| <= |max|, else raises
 * FC_R_INVALID_IV_LENGTH (fc_cipher_bad_ivlen) and returns 0. A fixed IV length
 * has min == max. fc_cipher_get_ivlen_param reads the size_t of an "ivlen"
 * parameter |p| into |*v| and checks it the same way.
 */
int fc_cipher_bad_ivlen(fc_prov_ctx *prov, size_t got, size_t min,
                        uint64_t max);

static inline int fc_cipher_check_ivlen(fc_prov_ctx *prov, size_t got,
                                        size_t min, uint64_t max)
{
    return FC_LIKELY(got >= min && (uint64_t)got <= max) ||
           fc_cipher_bad_ivlen(prov, got, min, max);
}

int fc_cipher_get_ivlen_param(fc_prov_ctx *prov, const OSSL_PARAM *p, size_t *v,
                              size_t min, uint64_t max);

/* ------------------------------------------------------------------------ */
/* Context parameters every cipher answers (AEAD or not, through
 * fc_cipher_generic or its own handlers). */

/* fc_cipher_bad_param raises FC_R_INVALID_PARAMETER naming the key of |p|
 * with |what| ("get", "set") and returns 0. */
int fc_cipher_bad_param(fc_prov_ctx *prov, const OSSL_PARAM *p,
                        const char *what);

/* fc_cipher_set_size answers a size_t get (or raises FC_R_INVALID_PARAMETER
 * naming the key). */
static inline int fc_cipher_set_size(fc_prov_ctx *prov, OSSL_PARAM *p, size_t v)
{
    return FC_LIKELY(OSSL_PARAM_set_size_t(p, v)) ||
           fc_cipher_bad_param(prov, p, "get");
}

/*
 * fc_cipher_get_iv answers an "iv" or "updated-iv" get with the |len| bytes
 * at |iv|: a pointer into the context for an octet_ptr parameter, a copy
 * for an octet string. The type is tested, not tried: OpenSSL 3.2+ queues
 * an error from a setter given the wrong type, which would stay behind a
 * successful call. With |strict| an octet string must have room for the
 * whole IV (a size query without a buffer is refused too), as the default
 * provider's AEAD ciphers have it; else OSSL_PARAM_set_octet_string
 * decides, as its block ciphers have it.
 */
int fc_cipher_get_iv(fc_prov_ctx *prov, OSSL_PARAM *p, const uint8_t *iv,
                     size_t len, int strict);

/* ------------------------------------------------------------------------ */
/* The non-AEAD modes: state and parameters CBC and CTR share. */

#define FC_CIPHER_GENERIC_IVLEN 16

/*
 * What the default provider keeps for every cipher that is not an AEAD
 * (its PROV_CIPHER_CTX): the raw key and the IV, "iv" (as set) and
 * "updated-iv" (as the mode moved it on), "num", "padding", and the TLS
 * fields libssl sets on any cipher. CBC and CTR hold one each, and
 * fc_cipher_generic_* below do for both what the default provider does
 * for both; each mode adds its own buffers and data path.
 */
typedef struct fc_cipher_generic {
    fc_prov_ctx *prov;
    size_t keylen;           /* fixed by the cipher: 16, 24 or 32 */
    size_t tlsmacsize;       /* "tls-mac-size" */
    unsigned int tlsversion; /* "tls-version"; > 0: CBC's TLS record mode */
    unsigned int num;        /* "num"; CTR: keystream bytes of |buf| used */
    unsigned int num_max;    /* the largest "num" a set takes */
    uint8_t key[32];         /* the raw key as last set */
    uint8_t iv[FC_CIPHER_GENERIC_IVLEN];  /* "updated-iv": chain, counter */
    uint8_t oiv[FC_CIPHER_GENERIC_IVLEN]; /* "iv": the IV as last set */
    uint8_t enc, pad, key_set, iv_set;
    uint8_t iv_restart; /* an init without IV goes back to |oiv| */
} fc_cipher_generic;

/*
 * fc_cipher_generic_setup readies |g| in a new (zeroed) context: key
 * length |keylen|, padding on, "num" up to |num_max|, and with
 * |iv_restart| an init without IV restarting from the IV last set (the
 * default provider does that for CBC, CFB and OFB; CTR goes on from its
 * counter).
 */
void fc_cipher_generic_setup(fc_cipher_generic *g, fc_prov_ctx *prov,
                             size_t keylen, unsigned int num_max,
                             int iv_restart);

/*
 * fc_cipher_generic_init is the part of an init the modes share: "num"
 * back to 0 and the direction |enc|; an |iv| (of exactly 16 bytes) taken
 * as both "iv" and "updated-iv", or none (see iv_restart); a |key| of the
 * cipher's length copied to g->key (the mode then expands it). Returns 1,
 * or 0 with the error raised (a wrong length; |g| may be partly updated,
 * as the default provider's is).
 */
int fc_cipher_generic_init(fc_cipher_generic *g, const unsigned char *key,
                           size_t keylen, const unsigned char *iv, size_t ivlen,
                           int enc);

/*
 * fc_cipher_generic_get_ctx_params answers "keylen", "ivlen", "padding",
 * "num", "iv", "updated-iv" and "tls-mac" (|tlsmac|, NULL for none, of
 * g->tlsmacsize bytes: valid until the context changes) from |g|.
 */
int fc_cipher_generic_get_ctx_params(const fc_cipher_generic *g,
                                     OSSL_PARAM params[],
                                     const uint8_t *tlsmac);

/*
 * fc_cipher_generic_set_ctx_params takes "padding", "num" (up to
 * g->num_max), "use-bits" (accepted and unused, as for CFB1 only),
 * "tls-version", "tls-mac-size", and a "keylen" or "ivlen" only of the
 * cipher's own length. Everything is read and checked before anything is
 * stored, so a refused array changes nothing.
 */
int fc_cipher_generic_set_ctx_params(fc_cipher_generic *g,
                                     const OSSL_PARAM params[]);

/*
 * fc_cipher_generic_check_io makes the checks every call that maps |inl|
 * bytes of |in| to as many at |out| starts with: a key set, room for
 * |inl| bytes in |outsize|, and buffers where there are bytes. Returns 1,
 * or 0 with FC_R_NO_KEY_SET, FC_R_OUTPUT_TOO_SMALL or FC_R_NULL_ARGUMENT
 * raised.
 */
int fc_cipher_generic_check_io(const fc_cipher_generic *g,
                               const unsigned char *out, size_t outsize,
                               const unsigned char *in, size_t inl);

/*
 * fc_cipher_generic_ctx_get and fc_cipher_generic_ctx_set are the
 * get_ctx_params and set_ctx_params entries of a context whose first
 * member is its fc_cipher_generic, with no TLS MAC to report.
 */
OSSL_FUNC_cipher_get_ctx_params_fn fc_cipher_generic_ctx_get;
OSSL_FUNC_cipher_set_ctx_params_fn fc_cipher_generic_ctx_set;

/* The gettable_ctx_params and settable_ctx_params entries of every
 * non-AEAD cipher: the names the two above answer, as the default
 * provider's lists ("keylen" is not settable: the length policy). */
OSSL_FUNC_cipher_gettable_ctx_params_fn fc_cipher_generic_gettable_ctx_params;
OSSL_FUNC_cipher_settable_ctx_params_fn fc_cipher_generic_settable_ctx_params;

/* ------------------------------------------------------------------------ */
/* Context life cycle. */

/* Contexts are aligned for the kernels' aligned loads. */
#define FC_CIPHER_CTX_ALIGN 64

/*
 * fc_cipher_ctx_new returns |size| zeroed bytes aligned to
 * FC_CIPHER_CTX_ALIGN, or NULL with FC_R_MALLOC_FAILURE raised. Free with
 * fc_cipher_ctx_free, copy with fc_cipher_ctx_dup.
 */
void *fc_cipher_ctx_new(fc_prov_ctx *prov, size_t size);

/* fc_cipher_ctx_free wipes and frees a context of |size| bytes (NULL is
 * fine): keys, schedules and buffered data do not outlive it. */
void fc_cipher_ctx_free(void *ctx, size_t size);

/* fc_cipher_ctx_dup returns a flat copy of the |size|-byte context |src|,
 * or NULL with FC_R_MALLOC_FAILURE raised. Pointers the context holds into
 * memory of its own are the caller's to re-point. */
void *fc_cipher_ctx_dup(fc_prov_ctx *prov, const void *src, size_t size);

/* ------------------------------------------------------------------------ */
/* Dispatch tables. */

/*
 * Every cipher file writes its tables the same way, by hand, as the house
 * style asks (cipher_aes_ctr.c is the smallest example):
 *   - before its context type, one FC_DISPATCH (fc_prov.h) line per static
 *     entry it defines, so that a wrong prototype fails to compile; the
 *     entries of this header are declared here with their types;
 *   - one newctx and one get_params per cipher, each a 3-line wrapper that
 *     passes the key length (and for CBC-HMAC the digest) to the mode's
 *     own: fc_aes128_cbc_newctx calls fc_aes_cbc_newctx(provctx, 16), and
 *     fc_aes128_cbc_get_params calls fc_cipher_get_params(params,
 *     &fc_aes_cbc_info, 16);
 *   - encrypt_init and decrypt_init, two wrappers of the mode's init that
 *     pass the direction;
 *   - at the end of the file, under "Dispatch tables (fc_prov.h)", one
 *     OSSL_DISPATCH table per cipher written out in full, one FC_FN
 *     (fc_prov.h) row a line as every table of the provider is, in the
 *     order newctx, freectx, dupctx, encrypt_init, decrypt_init, update,
 *     final, cipher, get_params, gettable_params, get_ctx_params,
 *     set_ctx_params, gettable_ctx_params, settable_ctx_params, and
 *     OSSL_DISPATCH_END, named fc_aes<bits><mode>_functions as fc_prov.h
 *     declares it.
 */

#endif /* FC_CIPHER_COMMON_H */
