/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abi_tramp_aarch64.S - calling-convention checker for arm64 kernels.
 *
 * Purpose: the test suite calls every assembly entry point through
 * fc_abi_tramp, which runs it with random values in the registers AAPCS64
 * makes callee-saved and records what came back; abi_check.c compares. A
 * kernel that forgets to restore x19-x28, the frame pointer x29 or the low
 * halves of v8-v15 (d8-d15), returns with a different sp, touches the
 * platform register x18, or changes the FPCR (rounding mode, flush-to-zero,
 * default NaN: callee-saved) is caught on every path the tests reach.
 *
 * CPU: ARMv8.0-A (Advanced SIMD for the vector fill). The PAC instructions
 * are in the hint space and run as NOPs on CPUs without pointer
 * authentication.
 * ABI: AAPCS64. void fc_abi_tramp(fc_abi_state *st);
 *
 * Design:
 *   - The callee may have corrupted sp, so the trampoline cannot find its
 *     own frame, or |st|, through the stack after the call. It keeps |st|
 *     and its own sp in static storage instead, and reloads sp from there
 *     before touching memory. That makes it non-reentrant; the tests are
 *     single-threaded.
 *   - sp is 16-byte aligned at the call, as the ABI promises the callee
 *     (the hardware alignment check would fault otherwise).
 *   - The callee is reached with `blr x16`: x16 is the intra-procedure-call
 *     register, so no argument or callee-saved register is spent on it, and
 *     `bti c` landing pads accept a call through any register.
 *   - Argument registers the call does not use, the other caller-saved
 *     registers (x6-x15, x17) and v0-v7, v16-v31 get random junk from |st|
 *     rather than whatever the C caller left there, so a kernel relying on a
 *     stale value fails. v8-v15 are loaded with the d8-d15 values (their
 *     upper halves, which are caller-saved, come up zero).
 *   - x18 is neither set nor restored (the platform owns it); its value is
 *     recorded before and after so a kernel that uses it is reported.
 *   - The FPCR is read before and after and then restored whatever the
 *     callee did. The FPSR cumulative flags are not checked: AAPCS64 lets a
 *     callee set them.
 *   - The trampoline spills LR, so it signs it (paciasp/autiasp): its own
 *     return is protected when the CPU has PAC.
 */
#include "fc_asm.h"

#if defined(__aarch64__)

/* fc_abi_state field offsets (pinned by _Static_assert in abi_check.c). */
.set ST_FN, 0           // function to call
.set ST_ARGS, 8         // x0-x5
.set ST_JUNK, 56        // x6-x15, x17 on entry (11 used, 12 slots)
.set ST_IN, 152         // x19-x28, x29 before (11)
.set ST_OUT, 240        // the same after
.set ST_D_IN, 328       // d8-d15 before
.set ST_D_OUT, 392      // d8-d15 after
.set ST_SP_BEFORE, 456  // sp at the call
.set ST_SP_AFTER, 464   // sp after the return
.set ST_RET, 472        // x0 after the return
.set ST_X18_BEFORE, 480
.set ST_X18_AFTER, 488
.set ST_FPCR_BEFORE, 496
.set ST_FPCR_AFTER, 504
.set ST_V, 512          // v0-v7, v16-v31 on entry, 24 x 16 bytes

/* Our frame: x29, x30, x19-x28 and d8-d15. */
.set FRAME, 160

/*
 * void fc_abi_tramp(fc_abi_state *st);
 *
 * Reads st->fn, args, junk, in, d_in, v; writes out, d_out, sp_before,
 * sp_after, ret, x18_*, fpcr_*. Returns normally even if the callee broke sp
 * or a callee-saved register (as long as it returned at all).
 */
FC_FUNC_START(fc_abi_tramp)
	hint	#25			// paciasp: sign LR, it is spilled
	.cfi_negate_ra_state
	// Our own callee-saved registers: the callee's breakage must not
	// reach our C caller.
	stp	x29, x30, [sp, #-FRAME]!
	.cfi_def_cfa_offset FRAME
	.cfi_offset x29, -FRAME
	.cfi_offset x30, -FRAME+8
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	.cfi_offset x19, -FRAME+16
	.cfi_offset x20, -FRAME+24
	.cfi_offset x21, -FRAME+32
	.cfi_offset x22, -FRAME+40
	.cfi_offset x23, -FRAME+48
	.cfi_offset x24, -FRAME+56
	.cfi_offset x25, -FRAME+64
	.cfi_offset x26, -FRAME+72
	.cfi_offset x27, -FRAME+80
	.cfi_offset x28, -FRAME+88
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	.cfi_offset d8, -FRAME+96
	.cfi_offset d9, -FRAME+104
	.cfi_offset d10, -FRAME+112
	.cfi_offset d11, -FRAME+120
	.cfi_offset d12, -FRAME+128
	.cfi_offset d13, -FRAME+136
	.cfi_offset d14, -FRAME+144
	.cfi_offset d15, -FRAME+152

	adrp	x9, .Lst
	add	x9, x9, :lo12:.Lst
	mov	x10, sp
	stp	x0, x10, [x9]			// .Lst = st, .Lsp = our sp
	str	x10, [x0, #ST_SP_BEFORE]
	str	x18, [x0, #ST_X18_BEFORE]
	mrs	x11, fpcr
	str	x11, [x0, #ST_FPCR_BEFORE]
	ldr	x16, [x0, #ST_FN]

	add	x9, x0, #ST_V
	ld1	{v0.16b-v3.16b}, [x9], #64
	ld1	{v4.16b-v7.16b}, [x9], #64
	ld1	{v16.16b-v19.16b}, [x9], #64
	ld1	{v20.16b-v23.16b}, [x9], #64
	ld1	{v24.16b-v27.16b}, [x9], #64
	ld1	{v28.16b-v31.16b}, [x9]

	ldp	d8, d9, [x0, #ST_D_IN]
	ldp	d10, d11, [x0, #ST_D_IN+16]
	ldp	d12, d13, [x0, #ST_D_IN+32]
	ldp	d14, d15, [x0, #ST_D_IN+48]

	ldp	x19, x20, [x0, #ST_IN]
	ldp	x21, x22, [x0, #ST_IN+16]
	ldp	x23, x24, [x0, #ST_IN+32]
	ldp	x25, x26, [x0, #ST_IN+48]
	ldp	x27, x28, [x0, #ST_IN+64]
	ldr	x29, [x0, #ST_IN+80]

	ldp	x6, x7, [x0, #ST_JUNK]
	ldp	x8, x9, [x0, #ST_JUNK+16]
	ldp	x10, x11, [x0, #ST_JUNK+32]
	ldp	x12, x13, [x0, #ST_JUNK+48]
	ldp	x14, x15, [x0, #ST_JUNK+64]
	ldr	x17, [x0, #ST_JUNK+80]
	ldp	x2, x3, [x0, #ST_ARGS+16]
	ldp	x4, x5, [x0, #ST_ARGS+32]
	ldp	x0, x1, [x0, #ST_ARGS]		// last: x0 held |st|
	blr	x16

	// Record sp, then get back onto our own frame before any stack use.
	mov	x9, sp
	adrp	x10, .Lst
	add	x10, x10, :lo12:.Lst
	ldp	x10, x11, [x10]			// st, our sp
	mov	sp, x11
	str	x9, [x10, #ST_SP_AFTER]
	str	x0, [x10, #ST_RET]
	str	x18, [x10, #ST_X18_AFTER]
	stp	x19, x20, [x10, #ST_OUT]
	stp	x21, x22, [x10, #ST_OUT+16]
	stp	x23, x24, [x10, #ST_OUT+32]
	stp	x25, x26, [x10, #ST_OUT+48]
	stp	x27, x28, [x10, #ST_OUT+64]
	str	x29, [x10, #ST_OUT+80]
	stp	d8, d9, [x10, #ST_D_OUT]
	stp	d10, d11, [x10, #ST_D_OUT+16]
	stp	d12, d13, [x10, #ST_D_OUT+32]
	stp	d14, d15, [x10, #ST_D_OUT+48]
	mrs	x11, fpcr
	str	x11, [x10, #ST_FPCR_AFTER]
	ldr	x11, [x10, #ST_FPCR_BEFORE]
	msr	fpcr, x11

	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #FRAME
	.cfi_restore x19
	.cfi_restore x20
	.cfi_restore x21
	.cfi_restore x22
	.cfi_restore x23
	.cfi_restore x24
	.cfi_restore x25
	.cfi_restore x26
	.cfi_restore x27
	.cfi_restore x28
	.cfi_restore d8
	.cfi_restore d9
	.cfi_restore d10
	.cfi_restore d11
	.cfi_restore d12
	.cfi_restore d13
	.cfi_restore d14
	.cfi_restore d15
	.cfi_restore x29
	.cfi_restore x30
	.cfi_def_cfa_offset 0
	hint	#29			// autiasp
	.cfi_negate_ra_state
	ret
FC_FUNC_END(fc_abi_tramp)

	// Static bookkeeping (see Design above); local to this object.
	.bss
	.balign	16
.Lst:
	.quad	0	// fc_abi_state *
.Lsp:
	.quad	0	// our sp at the call site

#endif /* __aarch64__ */
