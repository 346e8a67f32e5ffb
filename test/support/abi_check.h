/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abi_check.h - call an assembly entry point through a trampoline that
 * checks it honours the platform calling convention.
 *
 * On x86-64 (SysV AMD64) the trampoline (abi_tramp_x86_64.S):
 *   - loads rbx, rbp, r12-r15 with fresh random values, and the unused
 *     argument registers, rax, r10 and r11 with random junk (so a kernel
 *     that reads a register it was not given sees garbage, not a leftover
 *     that happens to work);
 *   - calls |fn| with rsp 16-byte aligned and up to 6 integer arguments;
 *   - records rbx, rbp, r12-r15, rsp, rflags, MXCSR and the x87 control
 *     word after the call, then restores its own state whatever |fn| did.
 * The C side then checks that every callee-saved register and rsp came back
 * unchanged, that the direction flag is clear, and that the MXCSR control
 * bits and the x87 control word are unchanged (both are callee-saved).
 *
 * On arm64 (AAPCS64) the trampoline (abi_tramp_aarch64.S):
 *   - loads x19-x28, x29 and d8-d15 with fresh random values, and the unused
 *     argument registers, x6-x15, x17, v0-v7 and v16-v31 with random junk;
 *   - calls |fn| through x16 (blr) with sp 16-byte aligned;
 *   - records x19-x29, d8-d15, sp, x18 and the FPCR after the call, then
 *     restores its own state whatever |fn| did.
 * The C side checks that x19-x29, d8-d15 and sp came back unchanged, that
 * the platform register x18 was not touched, and that the FPCR (rounding
 * mode, flush-to-zero, default NaN: callee-saved) is unchanged.
 *
 * The trampoline keeps its bookkeeping in static storage so it can recover
 * from a callee that corrupted the stack pointer: calls must not run
 * concurrently from several threads. Where no trampoline exists
 * (FASTCRYPTO_NO_ASM builds, other architectures) FC_ABI_CHECK_AVAILABLE is
 * 0 and fc_abi_call makes a plain call.
 */
#ifndef FC_TEST_ABI_CHECK_H
#define FC_TEST_ABI_CHECK_H

#include <stddef.h>
#include <stdint.h>

#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(FC_NO_ASM)
#define FC_ABI_CHECK_AVAILABLE 1
#else
#define FC_ABI_CHECK_AVAILABLE 0
#endif

/* The largest number of integer arguments fc_abi_call passes. */
#define FC_ABI_MAX_ARGS 6

/*
 * fc_abi_report describes one call: |ok| is 1 if the convention held, else
 * |msg| names every violation ("rbx clobbered: 0x... -> 0x...; ...").
 */
typedef struct fc_abi_report {
    int ok;
    uint64_t ret; /* rax (x0 on arm64) after the call */
    char msg[512];
} fc_abi_report;

/*
 * fc_abi_check calls |fn|(args[0], ..., args[nargs-1]) through the
 * trampoline with a random fill of the callee-saved registers (new values on
 * every call) and fills |*rep|. |nargs| is at most FC_ABI_MAX_ARGS. Returns
 * rep->ok. Without a trampoline it calls |fn| directly and reports ok.
 */
int fc_abi_check(const void *fn, const uint64_t *args, size_t nargs,
                 fc_abi_report *rep);

/*
 * fc_abi_call is fc_abi_check that fails the running CMocka test, naming
 * |what| and every clobbered register, if the convention was broken.
 * Returns the function's rax (x0 on arm64).
 */
uint64_t fc_abi_call(const char *what, const void *fn, const uint64_t *args,
                     size_t nargs);

/*
 * FC_ABI_CALL(what, fn, ...) is fc_abi_call with the arguments listed
 * inline; each is converted to uint64_t (pointers through uintptr_t).
 */
#define FC_ABI_ARG(x) ((uint64_t)(uintptr_t)(x))
#define FC_ABI_CALL(what, fn, ...)                                             \
    fc_abi_call((what), (const void *)(fn), (const uint64_t[]){__VA_ARGS__},   \
                sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t))

/*
 * fc_abi_self_test runs the checker against deliberately broken functions
 * (x86-64: clobbering rbx, rbp, r12, r15, moving rsp, leaving DF set,
 * changing the MXCSR rounding mode; arm64: clobbering x19, x28, x29, d8,
 * d15 or x18, moving sp, changing the FPCR rounding mode) and well-behaved
 * ones, and returns 1 if each was judged correctly. Returns 1 trivially
 * when FC_ABI_CHECK_AVAILABLE is 0.
 */
int fc_abi_self_test(void);

/*
 * fc_abi_test_checker is a CMocka test: fc_abi_self_test must pass, or the
 * test is skipped where no trampoline exists. A suite's ABI group can list
 * it as cmocka_unit_test(fc_abi_test_checker).
 */
void fc_abi_test_checker(void **state);

#endif /* FC_TEST_ABI_CHECK_H */
