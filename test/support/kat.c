/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kat.c - reader for the FileTest-like known-answer files (see kat.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kat.h"

#ifndef FC_KAT_DIR
#define FC_KAT_DIR "."
#endif

/* More fields than any of our vector formats needs (GCM uses 7). */
#define FC_KAT_MAX_FIELDS 32

typedef struct {
    char *name;
    char *value;    /* raw text, quotes stripped */
    int quoted;     /* value was "text" */
    unsigned line;  /* line number, for messages */
    uint8_t *bytes; /* decoded on first fc_kat_bytes */
    size_t nbytes;
} fc_kat_field;

struct fc_kat {
    FILE *fp;
    char *path;
    unsigned line;       /* last line read */
    unsigned block_line; /* first line of the current block */
    size_t index;        /* current block number, from 0 */
    size_t nblocks;      /* blocks read so far */
    char where[512];
    fc_kat_field fields[FC_KAT_MAX_FIELDS];
    size_t nfields;
    char *buf; /* getline buffer */
    size_t cap;
};

/* see kat.h */
void fc_kat_fail(const fc_kat *k, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fail_msg("%s: %s", fc_kat_where(k), msg);
    abort(); /* fail_msg leaves the test through longjmp */
}

/* Fails with the position of one particular line rather than the block's. */
static void fc_kat_fail_at(const fc_kat *k, unsigned line, const char *what)
{
    fail_msg("%s:%u: %s", k->path, line, what);
    abort();
}

static void fc_kat_clear(fc_kat *k)
{
    for (size_t i = 0; i < k->nfields; i++) {
        free(k->fields[i].name);
        free(k->fields[i].value);
        free(k->fields[i].bytes);
    }
    memset(k->fields, 0, sizeof(k->fields));
    k->nfields = 0;
}

/* see kat.h */
fc_kat *fc_kat_open(const char *name)
{
    fc_kat *k = calloc(1, sizeof(*k));
    size_t n = strlen(FC_KAT_DIR) + strlen(name) + 2;

    assert_non_null(k);
    k->path = malloc(n);
    assert_non_null(k->path);
    if (strchr(name, '/') != NULL)
        snprintf(k->path, n, "%s", name);
    else
        snprintf(k->path, n, "%s/%s", FC_KAT_DIR, name);
    k->fp = fopen(k->path, "r");
    if (k->fp == NULL)
        fail_msg("%s: cannot open known-answer file", k->path);
    return k;
}

/* see kat.h */
void fc_kat_close(fc_kat *k)
{
    if (k == NULL)
        return;
    fc_kat_clear(k);
    if (k->fp != NULL)
        fclose(k->fp);
    free(k->buf);
    free(k->path);
    free(k);
}

static int fc_kat_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int fc_kat_is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* Parses one `Name = value` line (already trimmed) into a new field. */
static void fc_kat_parse_line(fc_kat *k, char *s)
{
    char *eq = strchr(s, '='), *name_end = s, *v;
    fc_kat_field *f;

    while (fc_kat_is_name_char(*name_end))
        name_end++;
    if (eq == NULL || name_end == s)
        fc_kat_fail_at(k, k->line, "expected `Name = value`");
    for (char *p = name_end; p < eq; p++)
        if (!fc_kat_is_space(*p))
            fc_kat_fail_at(k, k->line, "bad character in field name");
    *name_end = '\0';
    for (size_t i = 0; i < k->nfields; i++)
        if (strcmp(k->fields[i].name, s) == 0)
            fc_kat_fail_at(k, k->line, "field repeated within a block");
    if (k->nfields == FC_KAT_MAX_FIELDS)
        fc_kat_fail_at(k, k->line, "too many fields in one block");

    v = eq + 1;
    while (fc_kat_is_space(*v))
        v++;
    f = &k->fields[k->nfields++];
    f->line = k->line;
    f->name = strdup(s);
    if (v[0] == '"') {
        size_t n = strlen(v);
        if (n < 2 || v[n - 1] != '"')
            fc_kat_fail_at(k, k->line, "unterminated quoted value");
        v[n - 1] = '\0';
        v++;
        f->quoted = 1;
    }
    f->value = strdup(v);
    assert_non_null(f->name);
    assert_non_null(f->value);
}

/* see kat.h */
int fc_kat_next(fc_kat *k)
{
    fc_kat_clear(k);
    for (;;) {
        ssize_t got = getline(&k->buf, &k->cap, k->fp);
        char *s, *e;

        if (got < 0)
            break;
        k->line++;
        s = k->buf;
        e = s + got;
        while (e > s && fc_kat_is_space(e[-1]))
            *--e = '\0';
        while (fc_kat_is_space(*s))
            s++;
        if (*s == '#')
            continue;
        if (*s == '\0') {
            if (k->nfields > 0)
                break; /* a blank line ends a non-empty block */
            continue;
        }
        if (k->nfields == 0)
            k->block_line = k->line;
        fc_kat_parse_line(k, s);
    }
    if (k->nfields == 0)
        return 0;
    k->index = k->nblocks++;
    return 1;
}

/* see kat.h */
const char *fc_kat_where(const fc_kat *k)
{
    fc_kat *m = (fc_kat *)k; /* the buffer is scratch, not state */
    snprintf(m->where, sizeof(m->where), "%s:%u", k->path, k->block_line);
    return m->where;
}

/* see kat.h */
size_t fc_kat_index(const fc_kat *k)
{
    return k->index;
}

static fc_kat_field *fc_kat_find(const fc_kat *k, const char *name)
{
    for (size_t i = 0; i < k->nfields; i++)
        if (strcmp(k->fields[i].name, name) == 0)
            return (fc_kat_field *)&k->fields[i];
    return NULL;
}

/* see kat.h */
int fc_kat_has(const fc_kat *k, const char *name)
{
    return fc_kat_find(k, name) != NULL;
}

/* see kat.h */
const char *fc_kat_str(fc_kat *k, const char *name)
{
    fc_kat_field *f = fc_kat_find(k, name);
    if (f == NULL)
        fc_kat_fail(k, "missing field `%s`", name);
    return f->value;
}

static int fc_kat_nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* see kat.h */
const uint8_t *fc_kat_bytes(fc_kat *k, const char *name, size_t *len)
{
    fc_kat_field *f = fc_kat_find(k, name);
    size_t n;

    if (f == NULL)
        fc_kat_fail(k, "missing field `%s`", name);
    if (f->bytes == NULL) {
        n = strlen(f->value);
        if (f->quoted) {
            f->bytes = malloc(n + 1);
            assert_non_null(f->bytes);
            memcpy(f->bytes, f->value, n);
            f->nbytes = n;
        } else {
            if (n % 2 != 0)
                fc_kat_fail_at(k, f->line, "odd number of hex digits");
            f->bytes = malloc(n / 2 + 1); /* +1: never malloc(0) */
            assert_non_null(f->bytes);
            for (size_t i = 0; i < n / 2; i++) {
                int hi = fc_kat_nibble(f->value[2 * i]);
                int lo = fc_kat_nibble(f->value[2 * i + 1]);
                if (hi < 0 || lo < 0)
                    fc_kat_fail_at(k, f->line, "bad hex digit");
                f->bytes[i] = (uint8_t)(hi << 4 | lo);
            }
            f->nbytes = n / 2;
        }
    }
    *len = f->nbytes;
    return f->bytes;
}

/* see kat.h */
void fc_kat_check_fields(fc_kat *k, const char *const *allowed)
{
    for (size_t i = 0; i < k->nfields; i++) {
        size_t j;
        for (j = 0; allowed[j] != NULL; j++)
            if (strcmp(allowed[j], k->fields[i].name) == 0)
                break;
        if (allowed[j] == NULL) {
            char msg[128];
            snprintf(msg, sizeof(msg), "unknown field `%s`", k->fields[i].name);
            fc_kat_fail_at(k, k->fields[i].line, msg);
        }
    }
}
