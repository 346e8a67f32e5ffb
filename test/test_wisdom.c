/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_wisdom.c - the wisdom file (fc/wisdom.h): its parser on valid and
 * broken files and on a few thousand mutated ones, its loader's refusals
 * (owner, mode, symbolic link, FIFO, size), and fabricated files loaded by
 * the provider in a library context of their own: the offer follows the
 * file for the families it decides and the table for the rest; a foreign
 * key, a file others may write, a truncated file each fall back to the
 * table with the reason in "fastcrypto-wisdom"; "offer = all",
 * FASTCRYPTO_OFFER=all and the CPU mask still win.
 *
 * Environment: FC_TEST_MODULE_DIR (the directory of fastcrypto.so; ctest
 * sets it). The configs are written by the test into a scratch directory:
 * FC_TEST_CONF forces every algorithm on, which is what is tested here not
 * to happen. FASTCRYPTO_OFFER and FASTCRYPTO_WISDOM are cleared for the
 * run; FASTCRYPTO_CPU_MASK is kept (the key follows it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "fc/common.h"
#include "fc/cpu.h"
#include "fc/offer.h"
#include "fc/wisdom.h"
#include "libctx.h"
#include "runner.h"

/* The nine families, as the file and fastcrypto-offer spell them. */
static const char *const k_families[] = {
    "gcm",     "cbc",     "ctr",     "drbg",      "cbc-hmac",
    "rsa2048", "rsa3072", "rsa4096", "rsa-other",
};
#define FAMILY_BITS                                                            \
    (FC_OFFER_GCM | FC_OFFER_CBC | FC_OFFER_CTR | FC_OFFER_DRBG |              \
     FC_OFFER_CBC_HMAC | FC_OFFER_RSA)

static char g_dir[64];                /* scratch directory */
static char g_module[512];            /* fastcrypto.so */
static char g_key[FC_WISDOM_KEY_MAX]; /* this machine's key, per provider */
static uint32_t g_table;              /* the table's offer here */
static int g_nfile;

/* ---------------------------------------------------------------------- */
/* Parser unit tests                                                      */

#define KEY                                                                    \
    "cpu=x86:GenuineIntel:6:167:1 caps=0x0007fbff ossl=0x30000130 fc=0.1.0"
#define HEAD "fastcrypto-wisdom 1\nkey " KEY "\n"

/* Parses exactly |len| bytes in a heap block of that size, so that a read
 * past the end is an ASan error. */
static int parse_n(const char *text, size_t len, fc_wisdom *w)
{
    char *copy = malloc(len ? len : 1);
    int r;

    assert_non_null(copy);
    memcpy(copy, text, len);
    r = fc_wisdom_parse(copy, len, KEY, w);
    free(copy);
    /* What every answer must look like. */
    assert_true(memchr(w->reason, '\0', sizeof(w->reason)) != NULL);
    if (r == 1) {
        assert_int_equal(w->offer & ~w->decided, 0);
        assert_string_equal(w->reason, "");
    } else {
        assert_int_equal(r, 0);
        assert_int_equal(w->decided, 0);
        assert_int_equal(w->offer, 0);
        assert_true(w->reason[0] != '\0');
    }
    return r;
}

static int parse(const char *text, fc_wisdom *w)
{
    return parse_n(text, strlen(text), w);
}

/* |text| is refused, for a reason that contains |why|. */
static void refused(const char *text, size_t len, const char *why)
{
    fc_wisdom w;

    if (parse_n(text, len, &w) != 0)
        fail_msg("accepted: %.*s", (int)len, text);
    if (strstr(w.reason, why) == NULL)
        fail_msg("reason \"%s\", expected \"%s\"", w.reason, why);
}

FC_TEST("wisdom parser", test_parse_valid)
{
    fc_wisdom w;

    assert_int_equal(
        parse(HEAD "family gcm offer median=2.612 q1=2.540 ours=vaes-avx512 "
                   "default=3.0.19 ms=2210\n"
                   "family rsa3072 no median=1.011 q1=0.985 ours=ifma\n",
              &w),
        1);
    assert_int_equal(w.decided, FC_OFFER_GCM | FC_OFFER_RSA3072);
    assert_int_equal(w.offer, FC_OFFER_GCM);

    /* Comments, blank lines, tabs and runs of blanks between fields. */
    assert_int_equal(parse("# written by fastcrypto-calibrate\n\n"
                           "fastcrypto-wisdom\t1\n  \n"
                           "key  " KEY "  \n"
                           "# a comment\n"
                           "\t  # an indented comment: fields # = x\n"
                           "family\tcbc\toffer\n"
                           "family cbc-hmac  no   median=0.9\n"
                           "family rsa-other offer\n",
                           &w),
                     1);
    assert_int_equal(w.decided,
                     FC_OFFER_CBC | FC_OFFER_CBC_HMAC | FC_OFFER_RSAOTHER);
    assert_int_equal(w.offer, FC_OFFER_CBC | FC_OFFER_RSAOTHER);

    /* Every family by its name. */
    for (size_t i = 0; i < FC_ARRAY_LEN(k_families); i++) {
        char buf[256];

        snprintf(buf, sizeof(buf), HEAD "family %s offer\n", k_families[i]);
        assert_int_equal(parse(buf, &w), 1);
        assert_int_equal(w.decided, fc_offer_family_bit(k_families[i],
                                                        strlen(k_families[i])));
        assert_int_equal(w.offer, w.decided);
    }

    /* A key and no family: valid, decides nothing. */
    assert_int_equal(parse(HEAD, &w), 1);
    assert_int_equal(w.decided, 0);
    assert_null(fc_wisdom_pick(&w, FC_OFFER_GCM));

    /* Picks: GCM's kernel and an RSA size's engine; none elsewhere. */
    assert_int_equal(parse(HEAD "family gcm offer median=2.2 pick=vaes-avx2\n"
                                "family rsa4096 offer ours=mulx pick=mulx\n"
                                "family rsa2048 offer ours=ifma\n",
                           &w),
                     1);
    assert_string_equal(fc_wisdom_pick(&w, FC_OFFER_GCM), "vaes-avx2");
    assert_string_equal(fc_wisdom_pick(&w, FC_OFFER_RSA4096), "mulx");
    assert_null(fc_wisdom_pick(&w, FC_OFFER_RSA2048));
    assert_null(fc_wisdom_pick(&w, FC_OFFER_CBC));
    assert_null(fc_wisdom_pick(&w, FC_OFFER_ALL));
    {
        char buf[512];

        /* The longest pick that fits. */
        snprintf(buf, sizeof(buf), HEAD "family gcm no pick=%0*d\n",
                 FC_WISDOM_PICK_MAX - 1, 7);
        assert_int_equal(parse(buf, &w), 1);
        assert_int_equal(strlen(fc_wisdom_pick(&w, FC_OFFER_GCM)),
                         FC_WISDOM_PICK_MAX - 1);
    }
}

FC_TEST("wisdom parser", test_parse_broken)
{
    static const struct {
        const char *text, *why;
    } cases[] = {
        {"", "empty"},
        {"\n\n# nothing\n", "no records"},
        {"fastcrypto-wisdom 1\n", "no key"},
        {"fastcrypto-wisdom 1\nfamily gcm offer\n", "before the key"},
        {"key " KEY "\nfastcrypto-wisdom 1\n", "not a wisdom file"},
        {"fastcrypto-wisdom 2\nkey " KEY "\n", "version"},
        {"fastcrypto-wisdom 1 x\nkey " KEY "\n", "version"},
        {"fastcrypto-wisdom\nkey " KEY "\n", "version"},
        {HEAD "key " KEY "\n", "a second key"},
        {HEAD "fastcrypto-wisdom 1\n", "a second header"},
        {"fastcrypto-wisdom 1\nkey\n", "an empty key"},
        {HEAD "offer gcm\n", "unknown record"},
        {HEAD "Family gcm offer\n", "unknown record"},
        {HEAD "family gcm offer\nfamily gcm no\n", "a family named twice"},
        {HEAD "family gcm offer\nfamily gcm offer\n", "a family named twice"},
        {HEAD "family aes offer\n", "unknown family"},
        {HEAD "family GCM offer\n", "unknown family"},
        {HEAD "family rsa offer\n", "unknown family"},
        {HEAD "family gcm\n", "offer or no"},
        {HEAD "family gcm yes\n", "offer or no"},
        {HEAD "family gcm Offer\n", "offer or no"},
        {HEAD "family gcm offerx\n", "offer or no"},
        {HEAD "family gcm offer median\n", "a malformed field"},
        {HEAD "family gcm offer median=\n", "a malformed field"},
        {HEAD "family gcm offer =2\n", "a malformed field"},
        {HEAD "family gcm offer median=2.x\n", "a malformed field"},
        {HEAD "family gcm offer median=.5\n", "a malformed field"},
        {HEAD "family gcm offer q1=1.\n", "a malformed field"},
        {HEAD "family gcm offer q1=-1\n", "a malformed field"},
        {HEAD "family gcm offer Ours=x\n", "a malformed field"},
        /* Picks: names of [a-z0-9-] that fit, once, for gcm and rsa*. */
        {HEAD "family gcm offer pick=\n", "a malformed field"},
        {HEAD "family gcm offer pick=Vaes\n", "a malformed pick"},
        {HEAD "family gcm offer pick=vaes_avx2\n", "a malformed pick"},
        {HEAD "family gcm offer pick=a pick=b\n", "a malformed pick"},
        {HEAD "family gcm offer pick=aaaaaaaaaaaaaaaaaaaaaaaa\n",
         "a malformed pick"},
        {HEAD "family cbc offer pick=aesni\n", "a malformed pick"},
        {HEAD "family rsa-other offer pick=mulx\n", "a malformed pick"},
        {HEAD "family gcm offer\r\n", "printable ASCII"},
        {HEAD "family gcm offer ours=\xc3\xa9\n", "printable ASCII"},
        {HEAD "family gcm offer\x7f\n", "printable ASCII"},
        /* Truncated mid-line: the last line has no end. */
        {HEAD "family gcm off", "truncated"},
        {HEAD "family gcm offer", "truncated"},
        {"fastcrypto-wisdom 1\nkey cpu=x86", "truncated"},
        /* Another machine's key, field by field. */
        {"fastcrypto-wisdom 1\nkey cpu=x86:AuthenticAMD:25:1:1 "
         "caps=0x0007fbff ossl=0x30000130 fc=0.1.0\n",
         "key differs: file cpu=x86:AuthenticAMD:25:1:1, this machine "
         "cpu=x86:GenuineIntel:6:167:1"},
        {"fastcrypto-wisdom 1\nkey cpu=x86:GenuineIntel:6:167:2 "
         "caps=0x0007fbff ossl=0x30000130 fc=0.1.0\n",
         "key differs: file cpu=x86:GenuineIntel:6:167:2"},
        {"fastcrypto-wisdom 1\nkey cpu=x86:GenuineIntel:6:167:1 "
         "caps=0x0007fbfe ossl=0x30000130 fc=0.1.0\n",
         "key differs: file caps=0x0007fbfe, this machine caps=0x0007fbff"},
        {"fastcrypto-wisdom 1\nkey cpu=x86:GenuineIntel:6:167:1 "
         "caps=0x0007fbff ossl=0x30600030 fc=0.1.0\n",
         "key differs: file ossl=0x30600030"},
        {"fastcrypto-wisdom 1\nkey cpu=x86:GenuineIntel:6:167:1 "
         "caps=0x0007fbff ossl=0x30000130 fc=0.2.0\n",
         "key differs: file fc=0.2.0"},
        {"fastcrypto-wisdom 1\nkey cpu=x86:GenuineIntel:6:167:1 "
         "caps=0x0007fbff ossl=0x30000130\n",
         "key differs: the file lacks fc=0.1.0"},
        {"fastcrypto-wisdom 1\nkey " KEY " extra=1\n",
         "key differs: the file has an extra field extra=1"},
        {"fastcrypto-wisdom 1\nkey cpu=x86:GenuineIntel:6:167:1  "
         "caps=0x0007fbff ossl=0x30000130 fc=0.1.0\n",
         "key differs in its spacing"},
    };

    for (size_t i = 0; i < FC_ARRAY_LEN(cases); i++)
        refused(cases[i].text, strlen(cases[i].text), cases[i].why);

    /* NUL bytes, in a line and as a line. */
    {
        static const char nul1[] = HEAD "family gcm\0offer\n";
        static const char nul2[] = HEAD "\0\n";

        refused(nul1, sizeof(nul1) - 1, "NUL byte");
        refused(nul2, sizeof(nul2) - 1, "NUL byte");
    }
}

/* Line and file size limits, at and one past the limit. */
FC_TEST("wisdom parser", test_parse_limits)
{
    const size_t max = FC_WISDOM_MAX_BYTES;
    char *buf = malloc(max + 2);
    size_t head = strlen(HEAD), n;
    fc_wisdom w;

    assert_non_null(buf);
    /* A comment line of FC_WISDOM_MAX_LINE bytes (without its '\n'). */
    memcpy(buf, HEAD, head);
    buf[head] = '#';
    memset(buf + head + 1, 'x', FC_WISDOM_MAX_LINE - 1);
    buf[head + FC_WISDOM_MAX_LINE] = '\n';
    assert_int_equal(parse_n(buf, head + FC_WISDOM_MAX_LINE + 1, &w), 1);
    buf[head + FC_WISDOM_MAX_LINE] = 'x';
    buf[head + FC_WISDOM_MAX_LINE + 1] = '\n';
    refused(buf, head + FC_WISDOM_MAX_LINE + 2, "line too long");

    /* A file of exactly FC_WISDOM_MAX_BYTES: comment lines after the key. */
    memcpy(buf, HEAD, head);
    for (n = head; n < max;) {
        size_t l = max - n > 100 ? 100 : max - n;

        buf[n] = '#';
        memset(buf + n + 1, 'y', l - 1);
        buf[n + l - 1] = '\n';
        n += l;
    }
    assert_int_equal(buf[max - 1], '\n');
    assert_int_equal(parse_n(buf, max, &w), 1);
    buf[max] = '\n';
    refused(buf, max + 1, "larger than");
    free(buf);
}

/* Fixed-seed xorshift: the same mutations every run. */
static uint64_t g_rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng % n);
}

/* A few thousand mutations of a valid file and of random bytes: every
 * answer is well formed (parse_n checks it), nothing crashes or reads
 * past the end (the ASan build), and the valid file still parses. */
FC_TEST("wisdom parser", test_parse_fuzz)
{
    static const char seed[] =
        "# wisdom\n" HEAD
        "family gcm offer median=2.612 q1=2.540 ours=vaes-avx512 "
        "default=3.0.19 ms=2210\n"
        "family cbc no median=1.011 q1=0.985\n"
        "family rsa3072 offer median=1.3 q1=1.2 ours=ifma\n";
    static const char alphabet[] = "\n\t #=.:0123456789abcfgmnoxy-_"
                                   "\0\r\x7f\xff";
    char buf[1024];
    unsigned accepted = 0, refused_n = 0;
    fc_wisdom w;

    for (int iter = 0; iter < 4000; iter++) {
        size_t n = sizeof(seed) - 1;
        const int muts = 1 + (int)rnd(4);

        memcpy(buf, seed, n);
        for (int m = 0; m < muts && n > 0; m++) {
            size_t at = rnd((uint32_t)n);
            const char c = (iter & 1) ? alphabet[rnd(sizeof(alphabet) - 1)]
                                      : (char)rnd(256);

            switch (rnd(5)) {
            case 0: /* replace a byte */
                buf[at] = c;
                break;
            case 1: /* insert a byte */
                if (n + 1 < sizeof(buf)) {
                    memmove(buf + at + 1, buf + at, n - at);
                    buf[at] = c;
                    n++;
                }
                break;
            case 2: /* delete a byte */
                memmove(buf + at, buf + at + 1, n - at - 1);
                n--;
                break;
            case 3: /* cut the file short */
                n = at;
                break;
            default: { /* repeat a stretch (a line twice, ...) */
                size_t len = 1 + rnd(60);

                if (at + len > n)
                    len = n - at;
                if (n + len <= sizeof(buf)) {
                    memmove(buf + at + len, buf + at, n - at);
                    n += len;
                }
                break;
            }
            }
        }
        if (parse_n(buf, n, &w))
            accepted++;
        else
            refused_n++;
    }
    /* Pure random bytes. */
    for (int iter = 0; iter < 1000; iter++) {
        size_t n = rnd(sizeof(buf));

        for (size_t i = 0; i < n; i++)
            buf[i] = (char)rnd(256);
        refused_n += parse_n(buf, n, &w) == 0;
    }
    print_message("[ fuzz     ] %u mutated files accepted, %u refused\n",
                  accepted, refused_n);
    /* Both outcomes happened: the mutations reached the parser's paths. */
    assert_true(accepted > 0);
    assert_true(refused_n > 0);
    assert_int_equal(parse(seed, &w), 1);
    assert_int_equal(w.decided, FC_OFFER_GCM | FC_OFFER_CBC | FC_OFFER_RSA3072);
    assert_int_equal(w.offer, FC_OFFER_GCM | FC_OFFER_RSA3072);
}

FC_TEST("wisdom parser", test_key)
{
    char buf[FC_WISDOM_KEY_MAX], small[20];
    unsigned caps;
    unsigned long ossl;
    char fcv[32];

    assert_int_equal(
        fc_wisdom_key(buf, sizeof(buf), 0x1234, 0x30000130UL, "0.1.0"), 1);
    print_message("[ key      ] %s\n", buf);
    assert_true(strncmp(buf, "cpu=", 4) == 0);
    assert_non_null(strstr(buf, " caps=0x00001234 ossl=0x30000130 fc=0.1.0"));
    assert_int_equal(sscanf(strstr(buf, " caps="),
                            " caps=0x%x ossl=0x%lx fc=%31s", &caps, &ossl, fcv),
                     3);
#if defined(__x86_64__) && !defined(FC_NO_ASM)
    assert_true(strncmp(buf, "cpu=x86:", 8) == 0);
    {
        /* vendor:family:model:stepping, the vendor as CPUID spells it. */
        char vendor[16];
        unsigned f, m, s;

        assert_int_equal(
            sscanf(buf, "cpu=x86:%15[^:]:%u:%u:%u", vendor, &f, &m, &s), 4);
        assert_int_equal(strlen(vendor), 12);
        assert_true(f >= 6);
        assert_true(s <= 15);
    }
#elif defined(__aarch64__)
    assert_true(strncmp(buf, "cpu=arm64:", 10) == 0);
#endif
    /* The same inputs, the same key; another input, another key. */
    {
        char again[FC_WISDOM_KEY_MAX];

        assert_int_equal(
            fc_wisdom_key(again, sizeof(again), 0x1234, 0x30000130UL, "0.1.0"),
            1);
        assert_string_equal(buf, again);
        assert_int_equal(
            fc_wisdom_key(again, sizeof(again), 0x1235, 0x30000130UL, "0.1.0"),
            1);
        assert_string_not_equal(buf, again);
    }
    /* Too small a buffer: 0 and an empty string. */
    assert_int_equal(
        fc_wisdom_key(small, sizeof(small), 0x1234, 0x30000130UL, "0.1.0"), 0);
    assert_string_equal(small, "");
}

/* ---------------------------------------------------------------------- */
/* Loader                                                                 */

/* Writes |text| to a new file of mode |mode| in g_dir; |path| gets its
 * name. */
static void write_file(char *path, size_t len, const char *text, mode_t mode)
{
    int fd;
    size_t n = strlen(text);

    snprintf(path, len, "%s/w%d", g_dir, g_nfile++);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    assert_int_equal(fchmod(fd, mode), 0);
    assert_int_equal(close(fd), 0);
}

/* Gives |path| to uid 65534 (nobody): 1 if done; 0, with a skip note,
 * where that cannot be done (not root, or no such uid in this user
 * namespace). */
static int give_away(const char *path)
{
    if (geteuid() == 0 && chown(path, 65534, 65534) == 0)
        return 1;
    print_message("[ skip     ] a file of another owner: cannot chown here\n");
    return 0;
}

static void load_refused(const char *path, const char *why)
{
    fc_wisdom w;

    memset(&w, 0xa5, sizeof(w));
    assert_int_equal(fc_wisdom_load(path, KEY, &w), 0);
    assert_int_equal(w.decided, 0);
    assert_int_equal(w.offer, 0);
    if (strstr(w.reason, why) == NULL)
        fail_msg("%s: reason \"%s\", expected \"%s\"", path, w.reason, why);
}

FC_TEST("wisdom parser", test_load)
{
    char path[256], link[300], big[FC_WISDOM_MAX_BYTES + 64];
    fc_wisdom w;

    write_file(path, sizeof(path), HEAD "family ctr offer\n", 0644);
    assert_int_equal(fc_wisdom_load(path, KEY, &w), 1);
    assert_int_equal(w.decided, FC_OFFER_CTR);
    assert_int_equal(w.offer, FC_OFFER_CTR);
    /* Read-only for all, or for the owner alone: fine. */
    assert_int_equal(chmod(path, 0400), 0);
    assert_int_equal(fc_wisdom_load(path, KEY, &w), 1);

    assert_int_equal(chmod(path, 0666), 0);
    load_refused(path, "writable by anyone (mode 0666)");
    assert_int_equal(chmod(path, 0646), 0);
    load_refused(path, "writable by anyone");
    assert_int_equal(chmod(path, 0664), 0);
    load_refused(path, "writable by its group (mode 0664)");
    assert_int_equal(chmod(path, 0644), 0);

    snprintf(link, sizeof(link), "%s.link", path);
    assert_int_equal(symlink(path, link), 0);
    load_refused(link, "a symbolic link");

    snprintf(link, sizeof(link), "%s/missing", g_dir);
    load_refused(link, "no such file");
    snprintf(link, sizeof(link), "%s/sub/missing", path); /* ENOTDIR */
    load_refused(link, "no such file");
    load_refused(g_dir, "not a regular file");
    /* A FIFO must neither hang the open nor be read. */
    snprintf(link, sizeof(link), "%s/fifo", g_dir);
    assert_int_equal(mkfifo(link, 0600), 0);
    load_refused(link, "not a regular file");

    /* Larger than the limit (a valid head, then comments). */
    memset(big, '#', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    memcpy(big, HEAD, strlen(HEAD));
    big[sizeof(big) - 2] = '\n';
    write_file(path, sizeof(path), big, 0644);
    load_refused(path, "larger than 16384 bytes");

    write_file(path, sizeof(path), HEAD "family ctr off", 0644);
    load_refused(path, "truncated");

    /* Owned by another user (needs root to make). */
    write_file(path, sizeof(path), HEAD "family ctr offer\n", 0644);
    if (give_away(path))
        load_refused(path, "owned by uid 65534");
}

/* ---------------------------------------------------------------------- */
/* The provider with fabricated files                                     */

typedef struct {
    uint32_t offer;
    char offer_str[256];
    char from[32];
    char wisdom[512];
    char key[FC_WISDOM_KEY_MAX];
    char buildinfo[1536];
    int gcm, cbc, ctr, cbc_hmac, drbg, rsa; /* fetched from fastcrypto */
    char gcm_impl[64], bn_impl[160];        /* the kernels chosen */
} prov_view;

static int get_str(OSSL_PROVIDER *p, const char *name, int ptr, char *buf,
                   size_t len)
{
    char *v = NULL;
    OSSL_PARAM req[2];

    req[0] = ptr ? OSSL_PARAM_construct_utf8_ptr(name, &v, 0)
                 : OSSL_PARAM_construct_utf8_string(name, buf, len);
    req[1] = OSSL_PARAM_construct_end();
    if (!OSSL_PROVIDER_get_params(p, req) || !OSSL_PARAM_modified(req))
        return 0;
    if (ptr)
        snprintf(buf, len, "%s", v != NULL ? v : "");
    return 1;
}

static uint32_t offer_bits(const char *s)
{
    uint32_t r = 0;

    if (strcmp(s, "all") == 0)
        return FC_OFFER_ALL;
    if (strcmp(s, "none") == 0)
        return 0;
    while (*s != '\0') {
        size_t n = strcspn(s, " ");
        uint32_t b = fc_offer_family_bit(s, n);

        if (b == 0)
            fail_msg("unknown family in fastcrypto-offer: %s", s);
        r |= b;
        s += n;
        s += *s == ' ';
    }
    return r;
}

static int fetches_cipher(OSSL_LIB_CTX *lib, const char *name)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(lib, name, "provider=" FC_NAME);

    EVP_CIPHER_free(c);
    return c != NULL;
}

/*
 * Loads fastcrypto into a new library context from a config written into
 * g_dir with |extra| lines in its section, and reads what it says.
 */
static void load_view(const char *extra, prov_view *v)
{
    char conf[256];
    FILE *f;
    OSSL_LIB_CTX *lib;
    OSSL_PROVIDER *p;

    memset(v, 0, sizeof(*v));
    snprintf(conf, sizeof(conf), "%s/c%d.cnf", g_dir, g_nfile++);
    f = fopen(conf, "w");
    assert_non_null(f);
    fprintf(f,
            "openssl_conf = openssl_init\n[openssl_init]\n"
            "providers = provider_sect\n[provider_sect]\n"
            "default = default_sect\nfastcrypto = fastcrypto_sect\n"
            "[default_sect]\nactivate = 1\n[fastcrypto_sect]\n"
            "module = %s\nactivate = 1\n%s",
            g_module, extra);
    assert_int_equal(fclose(f), 0);
    lib = fc_test_lib_load(conf, FC_TEST_NEED_FC);
    if (lib == NULL)
        fail_msg("%s does not load fastcrypto", conf);
    p = OSSL_PROVIDER_load(lib, FC_NAME);
    assert_non_null(p);
    assert_true(
        get_str(p, "fastcrypto-offer", 0, v->offer_str, sizeof(v->offer_str)));
    assert_true(
        get_str(p, "fastcrypto-offer-from", 1, v->from, sizeof(v->from)));
    assert_true(
        get_str(p, "fastcrypto-wisdom", 1, v->wisdom, sizeof(v->wisdom)));
    assert_true(get_str(p, "fastcrypto-wisdom-key", 1, v->key, sizeof(v->key)));
    assert_true(get_str(p, "buildinfo", 1, v->buildinfo, sizeof(v->buildinfo)));
    assert_true(
        get_str(p, "fastcrypto-gcm-impl", 1, v->gcm_impl, sizeof(v->gcm_impl)));
    assert_true(
        get_str(p, "fastcrypto-bn-impl", 1, v->bn_impl, sizeof(v->bn_impl)));
    v->offer = offer_bits(v->offer_str);
    v->gcm = fetches_cipher(lib, "AES-128-GCM");
    v->cbc = fetches_cipher(lib, "AES-128-CBC");
    v->ctr = fetches_cipher(lib, "AES-128-CTR");
    v->cbc_hmac = fetches_cipher(lib, "AES-128-CBC-HMAC-SHA1");
    {
        EVP_RAND *r = EVP_RAND_fetch(lib, "CTR-DRBG", "provider=" FC_NAME);
        EVP_KEYMGMT *k = EVP_KEYMGMT_fetch(lib, "RSA", "provider=" FC_NAME);

        v->drbg = r != NULL;
        v->rsa = k != NULL;
        EVP_RAND_free(r);
        EVP_KEYMGMT_free(k);
    }
    ERR_clear_error();
    OSSL_PROVIDER_unload(p);
    OSSL_LIB_CTX_free(lib);
}

/* The algorithms fastcrypto registers are those of the offer word. */
static void check_algorithms(const prov_view *v)
{
    const uint32_t o = v->offer;

    assert_int_equal(v->gcm, (o & FC_OFFER_GCM) != 0);
    assert_int_equal(v->cbc, (o & FC_OFFER_CBC) != 0);
    assert_int_equal(v->ctr, (o & FC_OFFER_CTR) != 0);
    assert_int_equal(v->cbc_hmac, (o & FC_OFFER_CBC_HMAC) != 0);
    assert_int_equal(v->drbg, (o & FC_OFFER_DRBG) != 0);
    assert_int_equal(v->rsa, (o & FC_OFFER_RSA) != 0);
}

static void expect_from(const prov_view *v, const char *from)
{
    char want[64];

    assert_string_equal(v->from, from);
    snprintf(want, sizeof(want), " offer-from=%s wisdom=", from);
    if (strstr(v->buildinfo, want) == NULL)
        fail_msg("buildinfo without \"%s\": %s", want, v->buildinfo);
}

/* The table's decisions, with |path| in force and why it was not used. */
static void expect_table(const prov_view *v, const char *path, const char *why)
{
    char want[600];

    print_message("[ table    ] %s\n", v->wisdom);
    assert_int_equal(v->offer, g_table);
    expect_from(v, "table");
    snprintf(want, sizeof(want), "%s: ignored: ", path);
    if (strncmp(v->wisdom, want, strlen(want)) != 0 ||
        strstr(v->wisdom, why) == NULL)
        fail_msg("fastcrypto-wisdom \"%s\", expected \"%s...%s\"", v->wisdom,
                 want, why);
    /* buildinfo carries the same words. */
    assert_non_null(strstr(v->buildinfo, v->wisdom));
    check_algorithms(v);
}

static void wisdom_cfg(char *cfg, size_t len, const char *path)
{
    snprintf(cfg, len, "wisdom = %s\n", path);
}

/* A file for this machine: the key the provider reports, then |body|. */
static void write_wisdom(char *path, size_t len, const char *body, mode_t mode)
{
    char text[2048];

    snprintf(text, sizeof(text), "fastcrypto-wisdom 1\nkey %s\n%s", g_key,
             body);
    write_file(path, len, text, mode);
}

FC_TEST("wisdom in the provider", test_provider_table)
{
    char path[256], cfg[400];
    prov_view v;

    /* No file: the table, "no such file" and not "ignored". */
    snprintf(path, sizeof(path), "%s/none", g_dir);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    assert_int_equal(v.offer, g_table);
    expect_from(&v, "table");
    assert_string_equal(v.key, g_key);
    {
        char want[300];

        snprintf(want, sizeof(want), "%s: no such file", path);
        assert_string_equal(v.wisdom, want);
    }
    check_algorithms(&v);
}

FC_TEST("wisdom in the provider", test_provider_follows_file)
{
    char path[256], cfg[400], body[1024];
    uint32_t want;
    prov_view v;

    /* The example: GCM withdrawn, CBC offered, the rest as the
     * table says. */
    write_wisdom(path, sizeof(path),
                 "family gcm no median=0.97 q1=0.93\n"
                 "family cbc offer median=1.30 q1=1.22\n",
                 0644);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    print_message("[ wisdom   ] offer: %s (table: 0x%x)\n", v.offer_str,
                  g_table);
    want = (g_table & ~(FC_OFFER_GCM | FC_OFFER_CBC)) | FC_OFFER_CBC;
    assert_int_equal(v.offer, want);
    assert_false(v.gcm);
    assert_true(v.cbc);
    expect_from(&v, "wisdom");
    assert_string_equal(v.wisdom, path);
    check_algorithms(&v);

    /* Every family the opposite of the table: the file decides all. */
    body[0] = '\0';
    for (size_t i = 0; i < FC_ARRAY_LEN(k_families); i++) {
        const uint32_t b =
            fc_offer_family_bit(k_families[i], strlen(k_families[i]));
        size_t n = strlen(body);

        snprintf(body + n, sizeof(body) - n, "family %s %s\n", k_families[i],
                 (g_table & b) ? "no" : "offer");
    }
    write_wisdom(path, sizeof(path), body, 0600);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    print_message("[ wisdom   ] flipped: %s\n", v.offer_str);
    assert_int_equal(v.offer, ~g_table & FAMILY_BITS);
    expect_from(&v, "wisdom");
    check_algorithms(&v);

    /* A file for this machine that decides nothing: the table. */
    write_wisdom(path, sizeof(path), "# nothing measured\n", 0644);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    assert_int_equal(v.offer, g_table);
    expect_from(&v, "table");
    assert_string_equal(v.wisdom, path);
}

/* Each way a file is ignored: the table decides, the reason is reported. */
FC_TEST("wisdom in the provider", test_provider_fallbacks)
{
    static const char *const fields[] = {"cpu=", "caps=", "ossl=", "fc="};
    const char *body = "family gcm no\nfamily cbc offer\nfamily ctr no\n"
                       "family rsa2048 no\n";
    char path[256], cfg[400], text[1024];
    prov_view v;

    /* A changed key field, each field in turn. */
    for (size_t i = 0; i < FC_ARRAY_LEN(fields); i++) {
        char key[FC_WISDOM_KEY_MAX], why[64];
        char *at;

        snprintf(key, sizeof(key), "%s", g_key);
        at = strstr(key, fields[i]);
        assert_non_null(at);
        at = strchr(at, '=') + 1;
        /* Change the value's first character (stays printable, differs). */
        *at = *at == '9' ? '8' : '9';
        snprintf(text, sizeof(text), "fastcrypto-wisdom 1\nkey %s\n%s", key,
                 body);
        write_file(path, sizeof(path), text, 0644);
        wisdom_cfg(cfg, sizeof(cfg), path);
        load_view(cfg, &v);
        snprintf(why, sizeof(why), "key differs: file %s", fields[i]);
        expect_table(&v, path, why);
    }

    /* Writable by anyone. */
    write_wisdom(path, sizeof(path), body, 0644);
    assert_int_equal(chmod(path, 0666), 0);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    expect_table(&v, path, "writable by anyone (mode 0666)");

    /* Writable by its group. */
    write_wisdom(path, sizeof(path), body, 0620);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    expect_table(&v, path, "writable by its group");

    /* Truncated mid-line. */
    snprintf(text, sizeof(text), "%sfamily rsa3072 of", body);
    write_wisdom(path, sizeof(path), text, 0644);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    expect_table(&v, path, "truncated");

    /* Does not parse further down. */
    snprintf(text, sizeof(text), "%sfamily gcm offer\n", body);
    write_wisdom(path, sizeof(path), text, 0644);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    expect_table(&v, path, "a family named twice");

    /* A symbolic link to a good file. */
    {
        char link[300];

        write_wisdom(path, sizeof(path), body, 0644);
        snprintf(link, sizeof(link), "%s.link", path);
        assert_int_equal(symlink(path, link), 0);
        wisdom_cfg(cfg, sizeof(cfg), link);
        load_view(cfg, &v);
        expect_table(&v, link, "a symbolic link");
    }

    /* Owned by another user. */
    write_wisdom(path, sizeof(path), body, 0644);
    if (give_away(path)) {
        wisdom_cfg(cfg, sizeof(cfg), path);
        load_view(cfg, &v);
        expect_table(&v, path, "owned by uid 65534");
    }
}

/* "offer = all", FASTCRYPTO_OFFER=all and the CPU mask still win. */
FC_TEST("wisdom in the provider", test_provider_overrides)
{
    const char *body = "family gcm no\nfamily cbc no\nfamily ctr no\n"
                       "family drbg no\nfamily rsa2048 no\n";
    char path[256], cfg[400], want[300];
    prov_view v;

    write_wisdom(path, sizeof(path), body, 0644);
    /* The file alone: it decides. */
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    expect_from(&v, "wisdom");
    assert_false(v.gcm);

    snprintf(cfg, sizeof(cfg), "wisdom = %s\noffer = all\n", path);
    load_view(cfg, &v);
    assert_string_equal(v.offer_str, "all");
    expect_from(&v, "forced");
    assert_true(v.gcm && v.cbc && v.ctr && v.drbg && v.rsa && v.cbc_hmac);
    snprintf(want, sizeof(want), "%s: not read: offer forced to all", path);
    assert_string_equal(v.wisdom, want);

    wisdom_cfg(cfg, sizeof(cfg), path);
    assert_int_equal(setenv(FC_OFFER_ENV, "all", 1), 0);
    load_view(cfg, &v);
    assert_int_equal(unsetenv(FC_OFFER_ENV), 0);
    assert_string_equal(v.offer_str, "all");
    expect_from(&v, "forced");
    assert_true(v.gcm && v.cbc && v.ctr && v.drbg && v.rsa && v.cbc_hmac);

    /* The mask: the key holds the features after it, so an unmasked
     * machine's wisdom does not apply to a masked run. */
    {
        fc_test_saved_env saved;
        prov_view masked;

        fc_test_setenv(&saved, FC_CPU_MASK_ENV, "all");
        wisdom_cfg(cfg, sizeof(cfg), "/nonexistent/wisdom");
        load_view(cfg, &masked); /* the masked run's table and key */
        wisdom_cfg(cfg, sizeof(cfg), path);
        load_view(cfg, &v);
        fc_test_restoreenv(&saved);
        if (strcmp(masked.key, g_key) == 0) {
            print_message("[ skip     ] mask: no feature to mask here\n");
        } else {
            assert_int_equal(v.offer, masked.offer);
            assert_string_equal(v.from, "table");
            assert_non_null(strstr(v.wisdom, ": ignored: key differs: file "
                                             "caps="));
        }
    }
}

/* The kernels this CPU runs (their names, best first) as the provider
 * lists them with FASTCRYPTO_OFFER=all; NULL-terminated into |out|. */
static size_t runnable(const char *impls, char out[][32], size_t max)
{
    size_t n = 0;
    const char *p = impls;

    while (*p != '\0' && n + 1 < max) {
        size_t len = strcspn(p, ",/");

        snprintf(out[n++], 32, "%.*s", (int)len, p);
        if (p[len] != ',')
            break;
        p += len + 1;
    }
    out[n][0] = '\0';
    return n;
}

/* "pick=": the provider runs the kernel or RSA engine the file names if this
 * CPU runs it, else its own; the family's decision holds either way. */
FC_TEST("wisdom in the provider", test_provider_picks)
{
    char path[256], cfg[400], body[512], engines[8][32];
    prov_view table, v;
    size_t n;

    wisdom_cfg(cfg, sizeof(cfg), "/nonexistent/wisdom");
    load_view(cfg, &table);
    print_message("[ table    ] gcm=%s rsa=%s\n", table.gcm_impl,
                  table.bn_impl);

    /* The GCM kernel: the portable one always runs. */
    write_wisdom(path, sizeof(path),
                 "family gcm offer median=1.1 q1=1.05 pick=generic\n", 0644);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    expect_from(&v, "wisdom");
    assert_string_equal(v.gcm_impl, "generic");
    assert_true(v.gcm);
    if (strstr(v.buildinfo, " gcm=generic ") == NULL)
        fail_msg("buildinfo does not name the pick: %s", v.buildinfo);
    assert_string_equal(v.bn_impl, table.bn_impl); /* nothing else moved */

    /* A kernel no CPU runs or none of that name: the table's, decided. */
    write_wisdom(path, sizeof(path), "family gcm no pick=no-such-kernel\n",
                 0644);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    expect_from(&v, "wisdom");
    assert_string_equal(v.gcm_impl, table.gcm_impl);
    assert_false(v.gcm);

    /* The RSA engines: a pick for RSA-4096 only, the last engine this
     * CPU runs (the portable one, or the one before it). */
    n = runnable(table.bn_impl, engines, 8);
    assert_true(n >= 1);
    snprintf(body, sizeof(body), "family rsa4096 offer pick=%s\n",
             engines[n - 1]);
    write_wisdom(path, sizeof(path), body, 0644);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    {
        char want[64];

        snprintf(want, sizeof(want), "/4096:%s", engines[n - 1]);
        if (strstr(v.bn_impl, want) == NULL)
            fail_msg("bn-impl \"%s\" without \"%s\"", v.bn_impl, want);
    }
    assert_int_equal(strncmp(v.bn_impl, table.bn_impl, strlen(table.bn_impl)),
                     0);
    /* An engine not compiled in or not runnable: the order alone. */
    write_wisdom(path, sizeof(path), "family rsa2048 offer pick=nope\n", 0644);
    wisdom_cfg(cfg, sizeof(cfg), path);
    load_view(cfg, &v);
    assert_string_equal(v.bn_impl, table.bn_impl);

    /* Forced offer: the file is not read, its picks neither. */
    write_wisdom(path, sizeof(path), "family gcm offer pick=generic\n", 0644);
    snprintf(cfg, sizeof(cfg), "wisdom = %s\noffer = all\n", path);
    load_view(cfg, &v);
    assert_string_equal(v.gcm_impl, table.gcm_impl);
}

/* Where the file is looked for: the config's "wisdom", else
 * FASTCRYPTO_WISDOM, else the default path. */
FC_TEST("wisdom in the provider", test_provider_path)
{
    char path[256], other[256], cfg[400], want[300];
    prov_view v;

    write_wisdom(path, sizeof(path), "family gcm no\n", 0644);
    write_wisdom(other, sizeof(other), "family gcm offer\nfamily cbc no\n",
                 0644);

    assert_int_equal(setenv(FC_WISDOM_ENV, path, 1), 0);
    load_view("", &v);
    assert_string_equal(v.wisdom, path);
    expect_from(&v, "wisdom");
    assert_false(v.gcm);

    /* The config wins over the environment. */
    wisdom_cfg(cfg, sizeof(cfg), other);
    load_view(cfg, &v);
    assert_string_equal(v.wisdom, other);
    assert_true(v.gcm);
    assert_false(v.cbc);
    assert_int_equal(unsetenv(FC_WISDOM_ENV), 0);

    /* Neither: the default path. */
    load_view("", &v);
    snprintf(want, sizeof(want), "%s", FC_WISDOM_DEFAULT);
    assert_true(strncmp(v.wisdom, want, strlen(want)) == 0);
}

/* ---------------------------------------------------------------------- */

static int setup(void **state)
{
    const char *dir = getenv("FC_TEST_MODULE_DIR");
    char path[256];
    prov_view v;

    if (dir == NULL) {
        print_error("FC_TEST_MODULE_DIR is not set (run through ctest)\n");
        return -1;
    }
    snprintf(g_module, sizeof(g_module), "%s/fastcrypto.so", dir);
    snprintf(g_dir, sizeof(g_dir), "/tmp/fc-wisdom.XXXXXX");
    if (mkdtemp(g_dir) == NULL)
        return -1;
    /* What is tested here is the offer when nothing forces it. */
    unsetenv(FC_OFFER_ENV);
    unsetenv(FC_WISDOM_ENV);
    /* This machine's key and the table's offer, as the provider sees
     * them: a config naming a file that does not exist. */
    snprintf(path, sizeof(path), "wisdom = %s/none\n", g_dir);
    load_view(path, &v);
    snprintf(g_key, sizeof(g_key), "%s", v.key);
    g_table = v.offer;
    print_message("[ setup    ] key %s; table offers %s\n", g_key, v.offer_str);
    return g_key[0] != '\0' ? 0 : -1;
}

static int teardown(void **state)
{
    return fc_test_remove_tree(g_dir) ? 0 : -1;
}

int main(void)
{
    static const fc_test_fixture fixtures[] = {
        {"wisdom parser", setup, teardown},
        {"wisdom in the provider", setup, teardown},
    };

    return fc_test_main(fixtures, sizeof(fixtures) / sizeof(fixtures[0]));
}
