/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abi_tramp_x86_64.S - calling-convention checker for x86-64 kernels.
 *
 * Purpose: the test suite calls every assembly entry point through
 * fc_abi_tramp, which runs it with random values in the registers the SysV
 * AMD64 ABI makes callee-saved and records what came back; abi_check.c
 * compares. A kernel that forgets to restore rbx, rbp or r12-r15, returns
 * with a different rsp, leaves the direction flag set, or changes the MXCSR
 * or x87 control word is caught on every path the tests reach.
 *
 * CPU: baseline x86-64 (SSE2 for the xmm fill).
 * ABI: SysV AMD64. void fc_abi_tramp(fc_abi_state *st);
 *
 * Design:
 *   - The callee may have corrupted rsp, so the trampoline cannot find its
 *     own frame, or |st|, through the stack after the call. It keeps |st|,
 *     the callee's address and its own rsp in static storage instead, and
 *     reloads rsp from there before touching memory. That makes it
 *     non-reentrant; the tests are single-threaded.
 *   - rsp is 16-byte aligned at the call, as the ABI promises the callee.
 *   - Argument registers the call does not use, rax, r10, r11 and
 *     xmm0-xmm15 get random junk from |st| rather than whatever the C
 *     caller left there, so a kernel relying on a stale value fails.
 *   - Flags are captured with pushfq before any flag-changing instruction;
 *     cld then restores the ABI state for our own C caller. MXCSR and the
 *     x87 control word are restored too, whatever the callee did.
 */
#include "fc_asm.h"

#if defined(__x86_64__)

/* fc_abi_state field offsets (pinned by _Static_assert in abi_check.c). */
.set ST_FN, 0           // function to call
.set ST_ARGS, 8         // rdi rsi rdx rcx r8 r9
.set ST_JUNK, 56        // rax r10 r11 on entry
.set ST_IN, 80          // rbx rbp r12 r13 r14 r15 before
.set ST_OUT, 128        // the same after
.set ST_RSP_BEFORE, 176 // rsp at the call
.set ST_RSP_AFTER, 184  // rsp after the return
.set ST_RFLAGS, 192     // rflags after the return
.set ST_RET, 200        // rax after the return
.set ST_MXCSR_BEFORE, 208
.set ST_MXCSR_AFTER, 212
.set ST_FCW_BEFORE, 216
.set ST_FCW_AFTER, 218
.set ST_XMM, 224        // xmm0-xmm15 on entry, 16 x 16 bytes

/*
 * void fc_abi_tramp(fc_abi_state *st);
 *
 * Reads st->fn, args, junk, in, xmm; writes out, rsp_before, rsp_after,
 * rflags_after, ret, mxcsr_*, fcw_*. Returns normally even if the callee
 * broke rsp or a callee-saved register (as long as it returned at all).
 */
FC_FUNC_START(fc_abi_tramp)
	// Our own callee-saved registers: the callee's breakage must not
	// reach our C caller.
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r12, 0
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r13, 0
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r14, 0
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r15, 0
	// Entry rsp is 8 mod 16; six pushes keep it 8 mod 16; one more
	// slot makes the call site 16-byte aligned.
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8

	movq	%rdi, .Lst(%rip)
	movq	%rsp, .Lrsp(%rip)
	movq	ST_FN(%rdi), %rax
	movq	%rax, .Lfn(%rip)
	movq	%rsp, ST_RSP_BEFORE(%rdi)
	stmxcsr	ST_MXCSR_BEFORE(%rdi)
	fnstcw	ST_FCW_BEFORE(%rdi)

	movdqu	ST_XMM+0*16(%rdi), %xmm0
	movdqu	ST_XMM+1*16(%rdi), %xmm1
	movdqu	ST_XMM+2*16(%rdi), %xmm2
	movdqu	ST_XMM+3*16(%rdi), %xmm3
	movdqu	ST_XMM+4*16(%rdi), %xmm4
	movdqu	ST_XMM+5*16(%rdi), %xmm5
	movdqu	ST_XMM+6*16(%rdi), %xmm6
	movdqu	ST_XMM+7*16(%rdi), %xmm7
	movdqu	ST_XMM+8*16(%rdi), %xmm8
	movdqu	ST_XMM+9*16(%rdi), %xmm9
	movdqu	ST_XMM+10*16(%rdi), %xmm10
	movdqu	ST_XMM+11*16(%rdi), %xmm11
	movdqu	ST_XMM+12*16(%rdi), %xmm12
	movdqu	ST_XMM+13*16(%rdi), %xmm13
	movdqu	ST_XMM+14*16(%rdi), %xmm14
	movdqu	ST_XMM+15*16(%rdi), %xmm15

	movq	ST_IN+0*8(%rdi), %rbx
	movq	ST_IN+1*8(%rdi), %rbp
	movq	ST_IN+2*8(%rdi), %r12
	movq	ST_IN+3*8(%rdi), %r13
	movq	ST_IN+4*8(%rdi), %r14
	movq	ST_IN+5*8(%rdi), %r15
	movq	ST_JUNK+0*8(%rdi), %rax
	movq	ST_JUNK+1*8(%rdi), %r10
	movq	ST_JUNK+2*8(%rdi), %r11
	movq	ST_ARGS+1*8(%rdi), %rsi
	movq	ST_ARGS+2*8(%rdi), %rdx
	movq	ST_ARGS+3*8(%rdi), %rcx
	movq	ST_ARGS+4*8(%rdi), %r8
	movq	ST_ARGS+5*8(%rdi), %r9
	movq	ST_ARGS+0*8(%rdi), %rdi		// last: it held |st|
	call	*.Lfn(%rip)

	// Record rsp, then get back onto our own frame before any stack use.
	movq	%rsp, .Lrsp_after(%rip)
	movq	.Lrsp(%rip), %rsp
	pushfq					// flags exactly as the callee left them
	movq	.Lst(%rip), %rcx
	popq	ST_RFLAGS(%rcx)
	cld
	movq	%rax, ST_RET(%rcx)
	movq	.Lrsp_after(%rip), %rax
	movq	%rax, ST_RSP_AFTER(%rcx)
	movq	%rbx, ST_OUT+0*8(%rcx)
	movq	%rbp, ST_OUT+1*8(%rcx)
	movq	%r12, ST_OUT+2*8(%rcx)
	movq	%r13, ST_OUT+3*8(%rcx)
	movq	%r14, ST_OUT+4*8(%rcx)
	movq	%r15, ST_OUT+5*8(%rcx)
	stmxcsr	ST_MXCSR_AFTER(%rcx)
	fnstcw	ST_FCW_AFTER(%rcx)
	ldmxcsr	ST_MXCSR_BEFORE(%rcx)
	fldcw	ST_FCW_BEFORE(%rcx)

	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	popq	%r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r15
	popq	%r14
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r14
	popq	%r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r13
	popq	%r12
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r12
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	ret
FC_FUNC_END(fc_abi_tramp)

	// Static bookkeeping (see Design above); local to this object.
	.bss
	.balign	8
.Lst:
	.quad	0	// fc_abi_state *
.Lfn:
	.quad	0	// callee
.Lrsp:
	.quad	0	// our rsp at the call site
.Lrsp_after:
	.quad	0	// the callee's rsp on return

#endif /* __x86_64__ */
