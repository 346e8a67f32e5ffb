/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ct_canary: marks one byte secret and branches on it. Under valgrind
 * memcheck this must be flagged (scripts/test_ct.sh requires exit 99), or
 * the constant-time check proves nothing: client requests compiled out,
 * valgrind not reporting, exit code lost. Built by test_ct.sh with
 * -DFC_CT_VALGRIND=1, not by CMake.
 */
#include <stdio.h>
#include "fc/ct.h"

int main(void)
{
    volatile unsigned char secret = 1;

    FC_CT_SECRET((void *)&secret, 1);
    if (secret & 1) /* the secret-dependent branch valgrind must see */
        puts("canary: branched on a secret");
    return 0;
}
