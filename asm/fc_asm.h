/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc_asm.h - shared macros for the hand-written .S kernels.
 *
 * FC_FUNC_START(name) / FC_FUNC_END(name) declare a global, hidden function
 * symbol with its type and size, align it, open and close its CFI, and emit
 * the landing pad: endbr64 on x86-64 (IBT), "bti c" on arm64 (BTI).
 * Every object gets a .note.GNU-stack section: no executable stack.
 * Symbols are hidden so that the module's only export stays
 * OSSL_provider_init, and every kernel symbol is prefixed fc_.
 */
#ifndef FC_ASM_H
#define FC_ASM_H

#if defined(__ELF__)
#define FC_TYPE_FUNC(name) .type name, %function
#define FC_SIZE(name) .size name, .- name
#define FC_HIDDEN(name) .hidden name
#else
#define FC_TYPE_FUNC(name)
#define FC_SIZE(name)
#define FC_HIDDEN(name) .private_extern name
#endif

#if defined(__x86_64__)
#define FC_LANDING_PAD endbr64
#define FC_FUNC_ALIGN 32
#elif defined(__aarch64__)
#define FC_LANDING_PAD hint 34 /* bti c */
#define FC_FUNC_ALIGN 16
#else
#define FC_LANDING_PAD
#define FC_FUNC_ALIGN 16
#endif

#define FC_FUNC_START(name)                                                   \
    .text;                                                                    \
    .globl name;                                                              \
    FC_HIDDEN(name);                                                          \
    FC_TYPE_FUNC(name);                                                       \
    .balign FC_FUNC_ALIGN;                                                    \
    name:                                                                     \
    .cfi_startproc;                                                           \
    FC_LANDING_PAD

#define FC_FUNC_END(name)                                                     \
    .cfi_endproc;                                                             \
    FC_SIZE(name)

/* Read-only data (constants, shuffle masks). */
#define FC_RODATA .section .rodata

#if defined(__ELF__)
.section .note.GNU-stack, "", %progbits
#endif

/*
 * arm64 ELF objects declare that they are BTI and PAC compatible: a GNU
 * property note with GNU_PROPERTY_AARCH64_FEATURE_1_AND (0xc0000000) =
 * BTI (1) | PAC (2). The linker keeps the property on the output only if
 * every input object has it, and the loader maps the code as BTI-guarded
 * only then; our functions start with "bti c" (FC_LANDING_PAD) and any that
 * spills LR signs it, so the claim holds for every kernel.
 */
#if defined(__aarch64__) && defined(__ELF__)
.pushsection .note.gnu.property, "a"
.balign 8
.long 4          /* n_namesz: "GNU\0" */
.long 16         /* n_descsz: one 8-byte-aligned property */
.long 5          /* n_type: NT_GNU_PROPERTY_TYPE_0 */
.asciz "GNU"
.long 0xc0000000 /* pr_type: GNU_PROPERTY_AARCH64_FEATURE_1_AND */
.long 4          /* pr_datasz */
.long 3          /* BTI | PAC */
.long 0          /* pad to 8 bytes */
.popsection
#endif

#endif /* FC_ASM_H */
