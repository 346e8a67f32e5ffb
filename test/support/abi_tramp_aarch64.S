/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abi_tramp_aarch64.S - placeholder for the AAPCS64 calling-convention
 * checker.
 *
 * Not written yet: the arm64 kernels come later, and a trampoline that has
 * never run on arm64 hardware would give false confidence. Until then
 * FC_ABI_CHECK_AVAILABLE is 0 on arm64 (test/support/abi_check.h), the ABI
 * test groups skip visibly, and this file assembles to nothing on every
 * architecture (test/CMakeLists.txt does not list it yet).
 *
 * The plan, mirroring abi_tramp_x86_64.S: fill x19-x28, x29 and d8-d15
 * with random values from the state block, x9-x17 and v0-v7 with junk,
 * call through x16 with sp 16-byte aligned, record x19-x29, d8-d15 and sp
 * after the call, and restore our own frame from static storage. Then add
 * the trampoline to test/CMakeLists.txt and set FC_ABI_CHECK_AVAILABLE on
 * __aarch64__.
 */
#include "fc_asm.h"

#if defined(__aarch64__)
/* Intentionally empty; see above. */
#endif
