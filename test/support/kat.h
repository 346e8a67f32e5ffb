/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kat.h - reader for the known-answer files in test/kat/.
 *
 * The format is FileTest-like: a file is a sequence of blocks separated by
 * blank lines; each block is a set of `Name = value` lines. A line whose
 * first non-blank character is '#' is a comment and is ignored (it does not
 * end a block). A value is either hex (`Key = 2b7e1516...`, possibly empty)
 * or text in double quotes (`Label = "abc"`, no escapes). Field names are
 * unique within a block and made of letters, digits, '_' and '-'.
 *
 *   # SP 800-38A F.2.1
 *   Key = 2b7e151628aed2a6abf7158809cf4f3c
 *   IV = 000102030405060708090a0b0c0d0e0f
 *
 * Every error (missing file, syntax error, missing field, bad hex) fails the
 * running CMocka test with a message starting "file:line:". The reader is for
 * tests only: it is not hardened against hostile input beyond that.
 */
#ifndef FC_TEST_KAT_H
#define FC_TEST_KAT_H

#include <stddef.h>
#include <stdint.h>

typedef struct fc_kat fc_kat;

/*
 * fc_kat_open opens the known-answer file |name|: relative to FC_KAT_DIR
 * (set by test/CMakeLists.txt) unless it contains a '/'. Fails the test if
 * the file cannot be opened; never returns NULL.
 */
fc_kat *fc_kat_open(const char *name);

/* fc_kat_close releases |k| and everything it returned. NULL is allowed. */
void fc_kat_close(fc_kat *k);

/*
 * fc_kat_next reads the next block, discarding the previous one (and every
 * pointer returned for it). Returns 1 if a block was read, 0 at end of
 * file. A syntax error fails the test.
 */
int fc_kat_next(fc_kat *k);

/* fc_kat_where returns "file:line" for the first line of the current block;
 * valid until the next fc_kat_next. */
const char *fc_kat_where(const fc_kat *k);

/* fc_kat_index returns the 0-based number of the current block. */
size_t fc_kat_index(const fc_kat *k);

/* fc_kat_has returns 1 if the current block has the field |name|, else 0. */
int fc_kat_has(const fc_kat *k, const char *name);

/*
 * fc_kat_str returns the raw text of field |name| (quotes removed for quoted
 * values). Fails the test if the field is missing.
 */
const char *fc_kat_str(fc_kat *k, const char *name);

/*
 * fc_kat_bytes returns field |name| decoded (hex, or the text of a quoted
 * value) and its length in |*len|. The buffer belongs to |k| and lives until
 * the next fc_kat_next; it is never NULL, even for an empty value. Fails the
 * test if the field is missing or is not valid hex.
 */
const uint8_t *fc_kat_bytes(fc_kat *k, const char *name, size_t *len);

/*
 * fc_kat_check_fields fails the test if the current block holds a field not
 * in the NULL-terminated list |allowed|: a misspelt field name would
 * otherwise silently turn a check off.
 */
void fc_kat_check_fields(fc_kat *k, const char *const *allowed);

/* fc_kat_fail fails the test with printf-style |fmt|, prefixed with the
 * current block's "file:line: ". Does not return. */
void fc_kat_fail(const fc_kat *k, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

#endif /* FC_TEST_KAT_H */
