/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runner.c - the test registry behind FC_TEST and fc_test_main, and the
 * environment helpers (see runner.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* Enough for the largest suite. */
#define FC_TEST_MAX 128

static struct {
    const char *group;
    struct CMUnitTest test;
    int line;
} fc_tests[FC_TEST_MAX];
static size_t fc_test_count;

/* see runner.h */
void fc_test_register(const char *group, const char *name,
                      CMUnitTestFunction fn, int line)
{
    size_t i = fc_test_count;

    if (i == FC_TEST_MAX) {
        fprintf(stderr, "more than %d tests: raise FC_TEST_MAX\n", FC_TEST_MAX);
        abort();
    }
    /* Constructors run in no set order: insert by line. */
    for (; i > 0 && fc_tests[i - 1].line > line; i--)
        fc_tests[i] = fc_tests[i - 1];
    fc_tests[i].group = group;
    fc_tests[i].test = (struct CMUnitTest){.name = name, .test_func = fn};
    fc_tests[i].line = line;
    fc_test_count++;
}

/* see runner.h */
size_t fc_test_group_tests(const char *group, struct CMUnitTest *out,
                           size_t max)
{
    size_t n = 0;

    for (size_t i = 0; i < fc_test_count; i++) {
        if (strcmp(fc_tests[i].group, group) != 0)
            continue;
        if (n == max) {
            fprintf(stderr, "group %s: more than %zu tests\n", group, max);
            abort();
        }
        out[n++] = fc_tests[i].test;
    }
    return n;
}

/* see runner.h */
int fc_test_main(const fc_test_fixture *fixtures, size_t count)
{
    static struct CMUnitTest tests[FC_TEST_MAX];
    const char *filter = getenv("FC_TEST_FILTER");
    int fails = 0;

    if (filter != NULL)
        cmocka_set_test_filter(filter);
    for (size_t i = 0; i < fc_test_count; i++) {
        const char *group = fc_tests[i].group;
        const fc_test_fixture *fx = NULL;
        size_t j = 0, n;

        /* A group runs where its first test stands. */
        while (j < i && strcmp(fc_tests[j].group, group) != 0)
            j++;
        if (j < i)
            continue;
        for (size_t k = 0; k < count; k++)
            if (strcmp(fixtures[k].group, group) == 0)
                fx = &fixtures[k];
        n = fc_test_group_tests(group, tests, FC_TEST_MAX);
        fails += _cmocka_run_group_tests(group, tests, n,
                                         fx != NULL ? fx->setup : NULL,
                                         fx != NULL ? fx->teardown : NULL);
    }
    return fails != 0;
}

/* see runner.h */
void fc_test_setenv(fc_test_saved_env *saved, const char *name,
                    const char *value)
{
    const char *old = getenv(name);

    saved->name = name;
    saved->value = old != NULL ? strdup(old) : NULL;
    if (value != NULL)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

/* see runner.h */
void fc_test_restoreenv(fc_test_saved_env *saved)
{
    if (saved->value != NULL)
        setenv(saved->name, saved->value, 1);
    else
        unsetenv(saved->name);
    free(saved->value);
    saved->value = NULL;
}

/* see runner.h */
int fc_test_remove_tree(const char *dir)
{
    char cmd[600];
    int n = snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);

    return n > 0 && (size_t)n < sizeof(cmd) && strchr(dir, '\'') == NULL &&
           system(cmd) == 0;
}
