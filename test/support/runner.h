/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runner.h - how a suite lists and runs its tests, and the environment
 * changes its tests make for a moment. No OpenSSL in here.
 *
 * A test is written once: FC_TEST(group, name) opens its definition and
 * registers it in |group|; nothing lists it again. main is one call,
 * fc_test_main, which runs each group (its tests in the order they are
 * written, the groups in the order their first test is) as a CMocka group
 * of that name, with the setup and teardown a fixture names for it.
 *
 *   FC_TEST("aes_kat", test_kat) { ... }
 *   int main(void) { return fc_test_main(NULL, 0); }
 *
 * FC_TEST_FILTER=<pattern> runs only the tests it matches (CMocka's
 * filter: '*' and '?' wildcards), in every suite.
 */
#ifndef FC_TEST_RUNNER_H
#define FC_TEST_RUNNER_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* FC_TEST(group, name) opens the definition of the test |name| (a function
 * of a void **state) and registers it in |group| (a string literal). */
#define FC_TEST(group, name)                                                   \
    static void name(void **state);                                            \
    __attribute__((constructor)) static void fc_test_reg_##name(void)          \
    {                                                                          \
        fc_test_register((group), #name, name, __LINE__);                      \
    }                                                                          \
    static void name(void **state)

/* FC_TEST_ADD(group, fn); registers the test |fn|, defined elsewhere (a
 * support library's), in |group| at the line it stands on. */
#define FC_TEST_ADD(group, fn)                                                 \
    __attribute__((constructor)) static void fc_test_reg_##fn(void)            \
    {                                                                          \
        fc_test_register((group), #fn, fn, __LINE__);                          \
    }                                                                          \
    _Static_assert(1, #fn)

/* fc_test_register records the test |fn| named |name| at |line| of the
 * suite's file in |group| (FC_TEST calls it before main runs). */
void fc_test_register(const char *group, const char *name,
                      CMUnitTestFunction fn, int line);

/* fc_test_group_tests copies the tests of |group|, in line order, to |out|
 * (room for |max|) and returns how many there are. */
size_t fc_test_group_tests(const char *group, struct CMUnitTest *out,
                           size_t max);

/* The setup and teardown of a group's fixture (either may be NULL). */
typedef struct fc_test_fixture {
    const char *group;
    CMFixtureFunction setup, teardown;
} fc_test_fixture;

/*
 * fc_test_main runs every registered group, each with the fixture of
 * |fixtures| (|count| of them, NULL for none) named after it, and returns
 * 0 if every test passed, else 1: what main returns.
 */
int fc_test_main(const fc_test_fixture *fixtures, size_t count);

/* FC_TEST_SKIP_IF(cond, "why"); ends the test as skipped, printing
 * "[  SKIPPED ] why", when |cond| holds. */
#define FC_TEST_SKIP_IF(cond, why)                                             \
    do {                                                                       \
        if (cond) {                                                            \
            print_message("[  SKIPPED ] %s\n", (why));                         \
            skip();                                                            \
            return;                                                            \
        }                                                                      \
    } while (0)

/* ---------------------------------------------------------------------- */
/* The environment, changed for a moment                                 */

/* One variable's value before fc_test_setenv changed it. */
typedef struct fc_test_saved_env {
    const char *name;
    char *value; /* a copy, or NULL: the variable was unset */
} fc_test_saved_env;

/*
 * fc_test_setenv keeps the value of |name| in |saved| and then sets it to
 * |value| (NULL: unsets it). fc_test_restoreenv puts the kept value back
 * and forgets it.
 */
void fc_test_setenv(fc_test_saved_env *saved, const char *name,
                    const char *value);
void fc_test_restoreenv(fc_test_saved_env *saved);

/* fc_test_remove_tree removes the directory |dir| and everything under it
 * (a suite's scratch directory); 1 on success. */
int fc_test_remove_tree(const char *dir);

#endif /* FC_TEST_RUNNER_H */
