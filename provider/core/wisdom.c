/* SPDX-License-Identifier: Apache-2.0 */
/*
 * wisdom.c - the wisdom file (fc/wisdom.h): this machine's key, a strict
 * parser for hostile input, and a loader that reads only a file that no
 * one but root or this process's user can have written.
 */
#define _GNU_SOURCE /* secure_getenv */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fc/offer.h"
#include "fc/tuning.h"
#include "fc/wisdom.h"

/* The CPU part of the key: "x86:VENDOR:FAMILY:MODEL:STEPPING" or
 * "arm64:MIDR" in hex (0 where the kernel publishes it neither way). */
#if defined(__aarch64__)
/* MIDR_EL1 from the one CPU probe (cpu.c: MRS under HWCAP_CPUID, else
 * cpu0's sysfs value), the same number the CPU rows are keyed by. */
static int fc_wisdom_cpu(char *buf, size_t len)
{
    return snprintf(buf, len, "arm64:%x",
                    (unsigned)fc_cpu_identify_more().midr);
}
#else
static int fc_wisdom_cpu(char *buf, size_t len)
{
    const fc_cpu_id id = fc_cpu_identify();
    const fc_cpu_id_more more = fc_cpu_identify_more();
    const char *arch =
#if defined(__x86_64__)
        "x86";
#else
        "other";
#endif

    return snprintf(buf, len, "%s:%s:%u:%u:%u", arch,
                    more.vendor_name[0] != '\0' ? more.vendor_name : "unknown",
                    id.family, id.model, more.stepping);
}
#endif

/* see fc/wisdom.h */
int fc_wisdom_key(char *buf, size_t len, uint32_t caps,
                  unsigned long ossl_version, const char *fc_version)
{
    char cpu[64];
    int n = fc_wisdom_cpu(cpu, sizeof(cpu));

    if (len == 0)
        return 0;
    buf[0] = '\0';
    if (n < 0 || (size_t)n >= sizeof(cpu))
        return 0;
    n = snprintf(buf, len, "cpu=%s caps=0x%08x ossl=0x%08lx fc=%s", cpu,
                 (unsigned)caps, ossl_version,
                 fc_version != NULL ? fc_version : "?");
    if (n < 0 || (size_t)n >= len) {
        buf[0] = '\0';
        return 0;
    }
    return 1;
}

/* see fc/wisdom.h */
const char *fc_wisdom_path(const char *configured)
{
    const char *env;

    if (configured != NULL && *configured != '\0')
        return configured;
    env = secure_getenv(FC_WISDOM_ENV);
    if (env != NULL && *env != '\0')
        return env;
    return FC_WISDOM_DEFAULT;
}

/* ---- parser ------------------------------------------------------------ */

/* A span of the input: never NUL-terminated, never read past n. */
typedef struct {
    const char *p;
    size_t n;
} fc_span;

static int fc_span_is(fc_span s, const char *lit)
{
    return s.n == strlen(lit) && memcmp(s.p, lit, s.n) == 0;
}

/* The next space- or tab-separated token of |*line|, or n == 0. */
static fc_span fc_next_token(fc_span *line)
{
    fc_span t;
    size_t i = 0;

    while (i < line->n && (line->p[i] == ' ' || line->p[i] == '\t'))
        i++;
    t.p = line->p + i;
    t.n = 0;
    while (i + t.n < line->n && line->p[i + t.n] != ' ' &&
           line->p[i + t.n] != '\t')
        t.n++;
    line->p += i + t.n;
    line->n -= i + t.n;
    return t;
}

/* A decimal number as the tool writes it: digits, at most one '.', with
 * a digit on each side ("2.612", "1"). */
static int fc_is_number(const char *p, size_t n)
{
    size_t i = 0, dot = 0;

    if (n == 0 || n > 16)
        return 0;
    for (; i < n; i++) {
        if (p[i] == '.') {
            if (dot++ || i == 0 || i + 1 == n)
                return 0;
        } else if (p[i] < '0' || p[i] > '9') {
            return 0;
        }
    }
    return 1;
}

/* A "name=value" field: a name of [a-z0-9_-], a non-empty value of
 * printable characters; median= and q1= must be numbers. */
static int fc_field_ok(fc_span f)
{
    size_t i = 0;

    while (i < f.n &&
           ((f.p[i] >= 'a' && f.p[i] <= 'z') ||
            (f.p[i] >= '0' && f.p[i] <= '9') || f.p[i] == '_' || f.p[i] == '-'))
        i++;
    if (i == 0 || i >= f.n || f.p[i] != '=' || i + 1 == f.n)
        return 0;
    if ((i == 6 && memcmp(f.p, "median", 6) == 0) ||
        (i == 2 && memcmp(f.p, "q1", 2) == 0))
        return fc_is_number(f.p + i + 1, f.n - i - 1);
    return 1;
}

/* Keeps the pick=|v| (|n| bytes) of the family |bit|: a name of
 * [a-z0-9-] that fits, one per family, for a family that has picks. */
static int fc_pick_take(fc_wisdom *w, uint32_t bit, const char *v, size_t n)
{
    size_t slot = 0;

    if ((bit & FC_WISDOM_PICKABLE) == 0)
        return 0;
    while (slot < FC_WISDOM_PICK_SLOTS && bit != (1u << slot))
        slot++;
    if (slot == FC_WISDOM_PICK_SLOTS || n == 0 || n >= FC_WISDOM_PICK_MAX ||
        w->pick[slot][0] != '\0')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= '0' && v[i] <= '9') ||
              v[i] == '-'))
            return 0;
    memcpy(w->pick[slot], v, n);
    w->pick[slot][n] = '\0';
    return 1;
}

/* see fc/wisdom.h */
const char *fc_wisdom_pick(const fc_wisdom *w, uint32_t bit)
{
    for (size_t slot = 0; slot < FC_WISDOM_PICK_SLOTS; slot++)
        if (bit == (1u << slot))
            return w->pick[slot][0] != '\0' ? w->pick[slot] : NULL;
    return NULL;
}

/* Fails the parse: the reason, with the line number, in w->reason. */
static int fc_wisdom_fail(fc_wisdom *w, unsigned lineno, const char *why)
{
    w->decided = w->offer = 0;
    memset(w->pick, 0, sizeof(w->pick));
    if (lineno != 0)
        snprintf(w->reason, sizeof(w->reason), "line %u: %s", lineno, why);
    else
        snprintf(w->reason, sizeof(w->reason), "%s", why);
    return 0;
}

/* The file's key against ours: byte for byte; if they differ, the reason
 * names the first field that does, with both values. */
static int fc_key_check(fc_span got, const char *key, fc_wisdom *w)
{
    fc_span a = got, b = {key, strlen(key)};

    if (got.n == b.n && memcmp(got.p, key, b.n) == 0)
        return 1;
    for (;;) {
        fc_span ta = fc_next_token(&a), tb = fc_next_token(&b);

        if (ta.n == 0 && tb.n == 0)
            break;
        if (ta.n == tb.n && memcmp(ta.p, tb.p, ta.n) == 0)
            continue;
        if (tb.n == 0)
            snprintf(w->reason, sizeof(w->reason),
                     "key differs: the file has an extra field %.*s",
                     (int)(ta.n > 60 ? 60 : ta.n), ta.p);
        else if (ta.n == 0)
            snprintf(w->reason, sizeof(w->reason),
                     "key differs: the file lacks %.*s",
                     (int)(tb.n > 60 ? 60 : tb.n), tb.p);
        else
            snprintf(w->reason, sizeof(w->reason),
                     "key differs: file %.*s, this machine %.*s",
                     (int)(ta.n > 60 ? 60 : ta.n), ta.p,
                     (int)(tb.n > 60 ? 60 : tb.n), tb.p);
        w->decided = w->offer = 0;
        return 0;
    }
    /* Same tokens, different spacing: not the byte-for-byte key. */
    snprintf(w->reason, sizeof(w->reason), "key differs in its spacing");
    w->decided = w->offer = 0;
    return 0;
}

/* see fc/wisdom.h */
int fc_wisdom_parse(const char *text, size_t len, const char *key, fc_wisdom *w)
{
    size_t pos = 0;
    unsigned lineno = 0;
    int have_magic = 0, have_key = 0;
    uint32_t decided = 0, offer = 0;

    memset(w, 0, sizeof(*w));
    if (text == NULL || key == NULL)
        return fc_wisdom_fail(w, 0, "no text or no key");
    if (len > FC_WISDOM_MAX_BYTES)
        return fc_wisdom_fail(w, 0, "larger than the format's limit");
    if (len == 0)
        return fc_wisdom_fail(w, 0, "empty");
    if (text[len - 1] != '\n')
        return fc_wisdom_fail(w, 0, "truncated: the last line has no end");

    while (pos < len) {
        fc_span line, rec;
        size_t n = 0;

        lineno++;
        while (pos + n < len && text[pos + n] != '\n')
            n++;
        /* pos + n < len: every line ends with '\n' (checked above). */
        line.p = text + pos;
        line.n = n;
        pos += n + 1;
        if (n > FC_WISDOM_MAX_LINE)
            return fc_wisdom_fail(w, lineno, "line too long");
        for (size_t i = 0; i < n; i++) {
            const unsigned char c = (unsigned char)line.p[i];

            if ((c < 0x20 && c != '\t') || c > 0x7e)
                return fc_wisdom_fail(w, lineno,
                                      c == 0 ? "NUL byte"
                                             : "a byte that is not "
                                               "printable ASCII");
        }
        rec = fc_next_token(&line);
        if (rec.n == 0 || rec.p[0] == '#')
            continue; /* blank, or a comment */

        if (!have_magic) {
            fc_span v = fc_next_token(&line);

            if (!fc_span_is(rec, "fastcrypto-wisdom"))
                return fc_wisdom_fail(w, lineno,
                                      "not a wisdom file (no \"" FC_WISDOM_MAGIC
                                      "\" first)");
            if (!fc_span_is(v, "1") || fc_next_token(&line).n != 0)
                return fc_wisdom_fail(w, lineno,
                                      "unknown wisdom format version");
            have_magic = 1;
            continue;
        }
        if (fc_span_is(rec, "key")) {
            fc_span v = line;

            if (have_key)
                return fc_wisdom_fail(w, lineno, "a second key");
            /* The value: after one separator, to the end of the line,
             * trailing blanks dropped. */
            while (v.n > 0 && (v.p[0] == ' ' || v.p[0] == '\t'))
                v.p++, v.n--;
            while (v.n > 0 && (v.p[v.n - 1] == ' ' || v.p[v.n - 1] == '\t'))
                v.n--;
            if (v.n == 0)
                return fc_wisdom_fail(w, lineno, "an empty key");
            if (!fc_key_check(v, key, w))
                return 0;
            have_key = 1;
            continue;
        }
        if (fc_span_is(rec, "family")) {
            fc_span name = fc_next_token(&line), dec = fc_next_token(&line);
            uint32_t bit;
            fc_span f;

            if (!have_key)
                return fc_wisdom_fail(w, lineno, "a family before the key");
            bit = fc_offer_family_bit(name.p, name.n);
            if (bit == 0)
                return fc_wisdom_fail(w, lineno, "unknown family");
            if (decided & bit)
                return fc_wisdom_fail(w, lineno, "a family named twice");
            if (fc_span_is(dec, "offer"))
                offer |= bit;
            else if (!fc_span_is(dec, "no"))
                return fc_wisdom_fail(w, lineno,
                                      "a decision other than offer or no");
            decided |= bit;
            while ((f = fc_next_token(&line)).n != 0) {
                if (!fc_field_ok(f))
                    return fc_wisdom_fail(w, lineno, "a malformed field");
                if (f.n > 5 && memcmp(f.p, "pick=", 5) == 0 &&
                    !fc_pick_take(w, bit, f.p + 5, f.n - 5))
                    return fc_wisdom_fail(w, lineno, "a malformed pick");
            }
            continue;
        }
        if (fc_span_is(rec, "fastcrypto-wisdom"))
            return fc_wisdom_fail(w, lineno, "a second header");
        return fc_wisdom_fail(w, lineno, "unknown record");
    }
    if (!have_magic)
        return fc_wisdom_fail(w, 0, "not a wisdom file (no records)");
    if (!have_key)
        return fc_wisdom_fail(w, 0, "no key");
    w->decided = decided;
    w->offer = offer;
    w->reason[0] = '\0';
    return 1;
}

/* ---- loader ------------------------------------------------------------ */

/* see fc/wisdom.h */
int fc_wisdom_load(const char *path, const char *key, fc_wisdom *w)
{
    struct stat st;
    char *buf;
    size_t got = 0;
    int fd, ok;

    memset(w, 0, sizeof(*w));
    path = fc_wisdom_path(path);
    /* O_NONBLOCK: opening a FIFO planted at the path must not hang. */
    fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        const int e = errno;

        if (e == ENOENT || e == ENOTDIR)
            return fc_wisdom_fail(w, 0, "no such file");
        if (e == ELOOP)
            return fc_wisdom_fail(w, 0, "a symbolic link (refused)");
        if (e == EACCES)
            return fc_wisdom_fail(w, 0, "permission denied");
        snprintf(w->reason, sizeof(w->reason), "cannot open it (errno %d)", e);
        return 0;
    }
    if (fstat(fd, &st) != 0) {
        close(fd);
        return fc_wisdom_fail(w, 0, "cannot stat it");
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return fc_wisdom_fail(w, 0, "not a regular file");
    }
    if (st.st_uid != 0 && st.st_uid != geteuid()) {
        close(fd);
        snprintf(w->reason, sizeof(w->reason),
                 "owned by uid %lu, neither root nor this process's uid %lu",
                 (unsigned long)st.st_uid, (unsigned long)geteuid());
        return 0;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        close(fd);
        snprintf(w->reason, sizeof(w->reason), "writable by %s (mode %04o)",
                 (st.st_mode & S_IWOTH) ? "anyone" : "its group",
                 (unsigned)(st.st_mode & 07777));
        return 0;
    }
    if (st.st_size < 0 || st.st_size > FC_WISDOM_MAX_BYTES) {
        close(fd);
        snprintf(w->reason, sizeof(w->reason), "larger than %d bytes",
                 FC_WISDOM_MAX_BYTES);
        return 0;
    }
    /* One byte more than the limit: a file that grew since fstat is seen
     * as too large, not cut short. */
    buf = malloc(FC_WISDOM_MAX_BYTES + 1);
    if (buf == NULL) {
        close(fd);
        return fc_wisdom_fail(w, 0, "out of memory");
    }
    for (;;) {
        ssize_t r = read(fd, buf + got, FC_WISDOM_MAX_BYTES + 1 - got);

        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            free(buf);
            close(fd);
            return fc_wisdom_fail(w, 0, "read error");
        }
        if (r == 0)
            break;
        got += (size_t)r;
        if (got > FC_WISDOM_MAX_BYTES)
            break;
    }
    close(fd);
    if (got > FC_WISDOM_MAX_BYTES) {
        free(buf);
        snprintf(w->reason, sizeof(w->reason), "larger than %d bytes",
                 FC_WISDOM_MAX_BYTES);
        return 0;
    }
    ok = fc_wisdom_parse(buf, got, key, w);
    free(buf);
    return ok;
}
