/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_mont_mulx.S - Montgomery multiplication and squaring with MULX and the
 * two carry chains of ADCX/ADOX, for the RSA modular exponentiation.
 *
 * CPU features: BMI2 (MULX) and ADX (ADCX/ADOX); otherwise baseline x86-64
 * (CMOV). No vector registers are touched.
 *
 * ABI: SysV AMD64. Both entry points save and restore every callee-saved
 * register they use (rbx, rbp, r12-r15); rbp is the frame pointer while the
 * kernel runs (CFI describes it, so unwinders and debuggers see through).
 * Scratch lives on the stack: 16n + 128 bytes plus alignment to 64, at most
 * 2.2 KiB for n = FC_BN_MAX_LIMBS = 128, below one page: no stack probing.
 *
 * Math. Limbs are 64 bits, least significant first; R = 2^(64n). Both
 * kernels first form the full 2n-limb product T = a*b (or a*a) in the
 * scratch, then run n word-by-word Montgomery reduction rows:
 *
 *   row i:  q_i = T[i] * m0inv mod 2^64;  T[i..i+n-1] += q_i * m.
 *
 * T[i] becomes 0, so row i+1 sees the final value of T[i+1]. The carry out
 * of row i, X_i, belongs at position i+n. It is not added there at once:
 * q_j only needs the final T[j], and j <= n-1 < i+n, so no X_i ever feeds
 * a q. All X_i are parked in the dead word T[i] and summed in one pass at
 * the end, U = T[n..2n-1] + X[0..n-1] with one carry c; a row's own carry
 * bookkeeping is thus just two flag-absorbing adds.
 *
 * Carry bounds. One row adds w * x (w one word, x an n-limb number) into an
 * n-limb window of T. MULX gives lo/hi with hi <= 2^64 - 2. ADCX adds the
 * lo words along the row (carry flag), ADOX adds each hi word one position
 * up (overflow flag); both chains run in parallel. The window plus w*x is
 * below 2^(64(n+1)), so the last hi word plus the two pending flags fits
 * one word: the row's final word never overflows. In the generic loops a
 * trip ends by absorbing the pending OF into the hi word not yet added
 * (hi + 1 <= 2^64 - 1), because the INC of the loop counter clears OF (it
 * keeps CF, which thus carries across trips).
 * After reduction, (T + sum q_i m 2^(64i)) / R = U + c R < (m^2 + R m) / R
 * < 2m, so the final subtraction happens exactly once, after the last row:
 * D = U - m (borrow b); the result is U if c = 0 and b = 1, else D (c = 1
 * forces b = 1). It is selected by CMOV on a flag derived from the data,
 * never by a branch.
 *
 * Squaring: the cross products a_i a_j (i < j) are accumulated once, rows
 * r = 0..n-2 adding a_r * a[r+1..n-1] at position 2r+1, then one pass
 * doubles T (ADCX x, x along the CF chain) while adding the squares a_i^2
 * at positions 2i, 2i+1 (OF chain): n(n-1)/2 + n MULX for the product
 * instead of n^2. The reduction is the same as for the multiplication.
 *
 * Aliasing: a, b are only read while forming T; r is written only in the
 * final selection pass, so r may alias a and/or b. m must not alias r.
 * What is left in the scratch after return is U and U - m, i.e. the result
 * or the result +/- m: nothing the caller does not hold already.
 *
 * Constant time: the only branches and memory addresses depend on n.
 * Checked with valgrind memcheck with a and b marked undefined: no
 * conditional jump and no address depends on them, for every n tested.
 *
 * Design. Figures from the development CPU (a Xeon with AVX-512 and ADX in
 * a shared 2-core KVM guest, ~4.0 GHz core clock calibrated against a chain
 * of IMULs, TSC 2.6 GHz); cycles are minima over many short interleaved
 * runs, since the machine is noisy and noise only ever adds time.
 *
 * - Two resources cap a row step (one MULX + its two adds) at one cycle:
 *   MULX issues one per cycle (measured 1.04 cycles each), and ADCX/ADOX
 *   run on two ports only (measured 1.8 per cycle, against 3.3 for ADD).
 *   Every MULX needs two flag adds (its lo and hi words), so the bound for
 *   a Montgomery multiplication is 2n^2 cycles and for a squaring
 *   1.5n^2 + n; the ports are saturated together, so in practice a step
 *   costs 1.2-1.3 cycles.
 * - T stays in memory (L1): a 17-word or wider register window does not
 *   fit the 14 free registers at the sizes that matter. Loading the T word
 *   with its own MOV and adding it register to register runs 5-7% faster
 *   than ADCX with a memory operand (n = 16: mul 727 -> 680 cycles).
 * - Fixed sizes n = 16, 24, 32 (the CRT halves of RSA-2048/3072/4096) are
 *   dispatched on n (public) to straight-line rows: no loop counter, no OF
 *   closure, no pointer bumps; the reduction takes q_{i+1} from the
 *   register that held the new T[i+1] instead of reloading it; the
 *   squaring's triangle of cross products is unrolled entirely, with
 *   pointers re-based per row so every displacement fits in 8 bits (8 KiB
 *   less code, same speed). Against the generic loops at the same n they
 *   save 13% (n = 16), 8% (24) and 7% (32) for both mul and sqr.
 *   Unrolling further does not pay: the fully unrolled n = 32 reduction and
 *   product rows (~200 KiB of code) ran 2.3x slower (front end), and n = 16
 *   4% slower. Interleaving product row i with reduction row i was 5%
 *   slower at n = 16 (longer dependency chain); issuing each MULX one step
 *   early (software pipelining) gained nothing.
 * - The generic loops run 8 limbs per trip, entering mid-trip for an odd
 *   number of 4-limb groups: the OF closure and the loop branch compete
 *   for the ADCX/ADOX ports, and halving them took n = 64 from 1.50 to
 *   1.34 cycles per step.
 * - The final pass (add, subtract, select) costs ~40 cycles at n = 16 and
 *   ~95 at n = 32, mostly the latency of two serial chains behind the last
 *   reduction row; a mask-based select or other orderings measured no
 *   better.
 *
 * Measured (cycles at ~4.0 GHz; ns; x = ratio to the bound above; the
 * OpenSSL 3.0 column is BN_mod_mul_montgomery, which adds its BIGNUM
 * overhead to its own MULX kernels):
 *
 *     n |  mul cyc (x bound)   ns |  sqr cyc (x bound)   ns | OpenSSL mul/sqr ns
 *    16 |   695 (1.36)        177 |   583 (1.46)        148 |  225 / 174
 *    24 |  1492 (1.30)        374 |  1165 (1.31)        292 |  472 / 352
 *    32 |  2497 (1.22)        648 |  2048 (1.31)        523 |  848 / 623
 *    64 | 10945 (1.34)       2965 |  8431 (1.36)       2284 | 3532 / 2538
 *
 * Run to run the figures move by about 5%.
 *
 * A 1024-bit modexp with a 1024-bit exponent (window 5: ~1024 sqr + ~205
 * mul) is thus ~190 us of kernel time, against ~157 us for the multiplier
 * bound of 2n^2 cycles per operation (~129 us if squarings cost 1.5n^2).
 * Measured through fc_bn_mod_exp it takes 211-225 us against 242-254 us
 * for OpenSSL's BN_mod_exp_mont_consttime in the same runs (1.12-1.15x;
 * 1536-bit 1.11x, 2048-bit 1.17x). OpenSSL 3.0 uses AVX-512 IFMA for
 * RSA-2048 on this CPU (BN_mod_exp_mont_consttime_x2: ~122 us per 1024-bit
 * modexp), which no MULX kernel can match.
 */
#include "fc_asm.h"

#if defined(__x86_64__)

/* Frame slots (from the 64-byte aligned rsp). */
#define F_RP	0	/* r, the output pointer */
#define F_N	8	/* n */
#define F_G	16	/* -n/4: groups of 4 limbs in a full row, negated */
#define F_G1	24	/* -(n/4 - 1) */
#define F_END	32	/* &T[n]: end of the row loops */
#define F_KC	40	/* sqr: -(4-limb groups after the block's triangle) */
#define F_G8	48	/* -ceil(n/8): 8-limb loop trips of a full row */
#define F_C8	56	/* sqr: the same for the current block's rows */
#define F_MSAVE	64	/* sqr: m, while rcx is the loop parity */
#define F_T	128	/* T[0..2n-1] */

/* Register table, shared by both entry points (argument registers are
 * shuffled on entry so that this map holds in the common code). */
	.set	TW,	%rdi	// generic loops: the T word being loaded
	.set	QN,	%rdi	// fixed paths: the next row's T[i+1] (q source)
	.set	AP0,	%rsi	// a
	.set	MP,	%rcx	// m
	.set	M0I,	%r8	// m0inv = -m^-1 mod 2^64
	.set	HIB,	%r9	// hi word of odd steps (n on entry, saved)
	.set	LO,	%rax	// lo word, then the new T word
	.set	HIA,	%rbx	// hi word of even steps; row's final word
	.set	AP,	%r10	// walks a or m along a row (generic loops)
	.set	TP,	%r11	// walks T along a row
	.set	CNT,	%r12	// negative group counter (generic loops)
	.set	ZERO,	%r13	// 0, for flag-absorbing adds
	.set	BP,	%r14	// mul: b walker; sqr: &a[4k] or &a[r+1] + 128
	.set	ROWP,	%r15	// &T[i] of the current row
	.set	TWF,	%r10	// fixed paths: the T word being loaded (= AP)
	/* rdx: the MULX multiplier (b_i, q_i or a_r). */

/* ------------------------------------------------------------------------
 * Frame
 * ------------------------------------------------------------------------ */

/*
 * FRAME_ENTER: push the callee-saved registers, make rbp the frame pointer,
 * allocate F_T + 16n bytes aligned to 64 and fill the slots.
 * In: n in HIB (r9), r in rdi. Out: ZERO = 0. Clobbers: rax, flags.
 */
.macro FRAME_ENTER
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	push	%rbx
	.cfi_offset %rbx, -24
	push	%r12
	.cfi_offset %r12, -32
	push	%r13
	.cfi_offset %r13, -40
	push	%r14
	.cfi_offset %r14, -48
	push	%r15
	.cfi_offset %r15, -56
	mov	HIB, %rax
	shl	$4, %rax
	sub	%rax, %rsp
	sub	$F_T, %rsp
	and	$-64, %rsp
	mov	%rdi, F_RP(%rsp)
	mov	HIB, F_N(%rsp)
	mov	HIB, %rax
	shr	$2, %rax
	neg	%rax
	mov	%rax, F_G(%rsp)
	inc	%rax
	mov	%rax, F_G1(%rsp)
	mov	HIB, %rax
	add	$4, %rax
	shr	$3, %rax
	neg	%rax
	mov	%rax, F_G8(%rsp)
	lea	F_T(%rsp, HIB, 8), %rax
	mov	%rax, F_END(%rsp)
	xor	%r13d, %r13d
.endm

/* FRAME_LEAVE: restore the callee-saved registers and return. */
.macro FRAME_LEAVE
	lea	-40(%rbp), %rsp
	pop	%r15
	.cfi_restore %r15
	pop	%r14
	.cfi_restore %r14
	pop	%r13
	.cfi_restore %r13
	pop	%r12
	.cfi_restore %r12
	pop	%rbx
	.cfi_restore %rbx
	pop	%rbp
	.cfi_restore %rbp
	.cfi_def_cfa %rsp, 8
	ret
.endm

/* ------------------------------------------------------------------------
 * Generic (looped) building blocks, any n % 4 == 0, n >= 8
 * ------------------------------------------------------------------------ */

/*
 * ROW_LOOP lbl: T[TP..] += rdx * AP[0..4g-1] for g 4-limb groups, run as
 * ceil(g/2) trips of 8 limbs (-CNT trips). For odd g the row enters at
 * \lbl\()_mid with AP and TP moved back 32 bytes (ROW_ENTER_*), so the
 * first trip does only its second half. Unrolling to 8 limbs halves the
 * OF closure and loop branch, both on the ports ADCX/ADOX need (p0/p6):
 * measured 1.50 -> 1.34 cycles per limb step at n = 64.
 * In: rdx, AP, TP, CNT < 0, HIA = hi word still to be added at TP[0] (OF
 * chain), CF = carry into TP[0]; OF = 0.
 * Out: AP, TP past the row; HIA = hi word for the position at TP, OF
 * absorbed, CF = carry into that position; CNT = 0.
 * Clobbers: LO, HIB, TW.
 */
.macro ROW_LOOP lbl
\lbl\()_top:
	mulx	0(AP), LO, HIB
	mov	0(TP), TW
	adcx	TW, LO
	adox	HIA, LO
	mov	LO, 0(TP)
	mulx	8(AP), LO, HIA
	mov	8(TP), TW
	adcx	TW, LO
	adox	HIB, LO
	mov	LO, 8(TP)
	mulx	16(AP), LO, HIB
	mov	16(TP), TW
	adcx	TW, LO
	adox	HIA, LO
	mov	LO, 16(TP)
	mulx	24(AP), LO, HIA
	mov	24(TP), TW
	adcx	TW, LO
	adox	HIB, LO
	mov	LO, 24(TP)
\lbl\()_mid:
	mulx	32(AP), LO, HIB
	mov	32(TP), TW
	adcx	TW, LO
	adox	HIA, LO
	mov	LO, 32(TP)
	mulx	40(AP), LO, HIA
	mov	40(TP), TW
	adcx	TW, LO
	adox	HIB, LO
	mov	LO, 40(TP)
	mulx	48(AP), LO, HIB
	mov	48(TP), TW
	adcx	TW, LO
	adox	HIA, LO
	mov	LO, 48(TP)
	mulx	56(AP), LO, HIA
	mov	56(TP), TW
	adcx	TW, LO
	adox	HIB, LO
	mov	LO, 56(TP)
	adox	ZERO, HIA		// absorb OF (hi <= 2^64-2): INC clears it
	lea	64(AP), AP
	lea	64(TP), TP
	inc	CNT			// keeps CF; OF = 0 (no signed overflow)
	jnz	\lbl\()_top
.endm

/*
 * ROW_ENTER_FULL lbl: start a full row (n/4 groups) with HIA = 0 and
 * CF = OF = 0 (TEST clears both), entering ROW_LOOP \lbl by n's parity.
 * In: AP, TP at the row start. Out: CNT = F_G8.
 */
.macro ROW_ENTER_FULL lbl
	mov	F_G8(%rsp), CNT
	xor	%ebx, %ebx
	testb	$4, F_N(%rsp)		// n/4 odd?
	jz	\lbl\()_top
	lea	-32(AP), AP
	lea	-32(TP), TP
	jmp	\lbl\()_mid
.endm

/*
 * ROW_ENTER_LIVE lbl: enter ROW_LOOP \lbl while a carry chain is live:
 * JRCXZ reads no flags. In: rcx = parity of the group count (sqr blocks),
 * CNT set by the caller. Out: AP, TP moved back 32 bytes if rcx != 0.
 */
.macro ROW_ENTER_LIVE lbl
	jrcxz	\lbl\()_top
	lea	-32(AP), AP
	lea	-32(TP), TP
	jmp	\lbl\()_mid
.endm

/*
 * ZERO_TLOW: T[0..n-1] = 0 (the positions the first product row adds into).
 * In: ZERO. Clobbers: TP, CNT, flags.
 */
.macro ZERO_TLOW lbl
	lea	F_T(%rsp), TP
	mov	F_G(%rsp), CNT
\lbl:
	mov	ZERO, 0(TP)
	mov	ZERO, 8(TP)
	mov	ZERO, 16(TP)
	mov	ZERO, 24(TP)
	lea	32(TP), TP
	inc	CNT
	jnz	\lbl
.endm

/*
 * REDUCE_LOOP pfx: n Montgomery rows over T (see Math); X_i lands in T[i].
 * In: T, MP, M0I, ZERO, frame slots. Clobbers: everything but AP0, MP, M0I,
 * ZERO, BP.
 */
.macro REDUCE_LOOP pfx
	lea	F_T(%rsp), ROWP
\pfx\()_row:
	mov	M0I, %rdx
	imul	(ROWP), %rdx		// q_i = T[i] * m0inv mod 2^64
	mov	MP, AP
	mov	ROWP, TP
	ROW_ENTER_FULL \pfx\()_grp
	ROW_LOOP \pfx\()_grp
	adcx	ZERO, HIA		// X_i (fits: see Math)
	mov	HIA, (ROWP)		// T[i] is 0 now: park X_i there
	lea	8(ROWP), ROWP
	cmp	F_END(%rsp), ROWP
	jne	\pfx\()_row
.endm

/*
 * FINAL_LOOP pfx: U = T[n..2n-1] + T[0..n-1] (carry c), D = U - m (borrow
 * b), r = (c - b == 0) ? D : U, selected with CMOV. Stores U over T[n..]
 * and D over T[0..n-1]. In: MP, ZERO, frame. Clobbers: all but AP0, MP.
 */
.macro FINAL_LOOP pfx
	lea	F_T(%rsp), TP
	mov	F_N(%rsp), %rax
	lea	(TP, %rax, 8), AP	// &T[n]
	mov	AP, ROWP
	mov	F_G(%rsp), CNT
	xor	%ebx, %ebx		// HIA = 0, CF = 0
\pfx\()_add:
	mov	0(AP), LO
	adcx	0(TP), LO
	mov	LO, 0(AP)
	mov	8(AP), LO
	adcx	8(TP), LO
	mov	LO, 8(AP)
	mov	16(AP), LO
	adcx	16(TP), LO
	mov	LO, 16(AP)
	mov	24(AP), LO
	adcx	24(TP), LO
	mov	LO, 24(AP)
	lea	32(AP), AP
	lea	32(TP), TP
	inc	CNT
	jnz	\pfx\()_add
	adcx	ZERO, HIA		// HIA = c
	lea	F_T(%rsp), TP
	mov	ROWP, AP		// &T[n] = U
	mov	MP, HIB
	mov	F_G(%rsp), CNT
	xor	%edx, %edx		// CF = 0
\pfx\()_sub:
	mov	0(AP), LO
	sbb	0(HIB), LO
	mov	LO, 0(TP)
	mov	8(AP), LO
	sbb	8(HIB), LO
	mov	LO, 8(TP)
	mov	16(AP), LO
	sbb	16(HIB), LO
	mov	LO, 16(TP)
	mov	24(AP), LO
	sbb	24(HIB), LO
	mov	LO, 24(TP)
	lea	32(AP), AP
	lea	32(TP), TP
	lea	32(HIB), HIB
	inc	CNT
	jnz	\pfx\()_sub
	sbb	$0, HIA			// c - b: 0 -> take D, -1 -> keep U
	lea	F_T(%rsp), TP
	mov	ROWP, AP
	mov	F_RP(%rsp), %rdx
	mov	F_G(%rsp), CNT
\pfx\()_sel:
	test	HIA, HIA		// a data flag, consumed only by CMOV
	mov	0(TP), LO
	cmovnz	0(AP), LO
	mov	LO, 0(%rdx)
	mov	8(TP), LO
	cmovnz	8(AP), LO
	mov	LO, 8(%rdx)
	mov	16(TP), LO
	cmovnz	16(AP), LO
	mov	LO, 16(%rdx)
	mov	24(TP), LO
	cmovnz	24(AP), LO
	mov	LO, 24(%rdx)
	lea	32(AP), AP
	lea	32(TP), TP
	lea	32(%rdx), %rdx
	inc	CNT
	jnz	\pfx\()_sel
.endm

/* ------------------------------------------------------------------------
 * Fixed-size (fully unrolled row) building blocks
 * ------------------------------------------------------------------------ */

/*
 * ROW_FIXED len, areg, ad, treg, td, mode, cap: one row, straight-line:
 *   T[td/8 ..] += rdx * A[ad/8 .. ad/8+len-1]   (byte displacements)
 * mode 0: the T words are loaded (ADCX chain); mode 1: they are fresh (not
 * loaded: OF chain only). The first hi word to add is 0. Hi words alternate
 * between HIA and HIB so that the last one ends in HIA.
 * cap 1 (reduction rows): step 0's word (T[i], now 0) is not stored, and
 * step 1's new word (the next row's T[i+1]) is copied into QN.
 * In: rdx, CF = OF = 0. Out: HIA = last hi word; CF (mode 0) and OF
 * pending into the position after the row. Clobbers: LO, HIB, TWF (QN).
 */
.macro ROW_FIXED len, areg, ad, treg, td, mode, cap=0
	.set	.Ls, 0
	.rept	\len
	.if ((\len - 1 - .Ls) & 1) == 0
	mulx	(\ad + 8*.Ls)(\areg), LO, HIA
	.if \mode == 0
	mov	(\td + 8*.Ls)(\treg), TWF
	adcx	TWF, LO
	.endif
	.if .Ls > 0
	adox	HIB, LO
	.endif
	.else
	mulx	(\ad + 8*.Ls)(\areg), LO, HIB
	.if \mode == 0
	mov	(\td + 8*.Ls)(\treg), TWF
	adcx	TWF, LO
	.endif
	.if .Ls > 0
	adox	HIA, LO
	.endif
	.endif
	.if (\cap == 0) || (.Ls > 0)
	mov	LO, (\td + 8*.Ls)(\treg)
	.endif
	.if (\cap == 1) && (.Ls == 1)
	mov	LO, QN
	.endif
	.set	.Ls, .Ls + 1
	.endr
.endm

/*
 * REDUCE_FIXED n, pfx: the n reduction rows, each row straight-line.
 * q_{i+1} comes from the register copy of the new T[i+1] (QN), not from
 * memory. Row i's step 0 result (T[i] = 0) is not stored: X_i goes there.
 */
.macro REDUCE_FIXED n, pfx
	lea	F_T(%rsp), ROWP
	mov	F_T(%rsp), QN		// T[0]
	mov	$\n, CNT
\pfx\()_row:
	mov	QN, %rdx
	imul	M0I, %rdx		// q_i
	xor	%ebx, %ebx		// CF = OF = 0
	ROW_FIXED \n, MP, 0, ROWP, 0, 0, 1
	adcx	ZERO, HIA
	adox	ZERO, HIA		// X_i
	mov	HIA, (ROWP)
	lea	8(ROWP), ROWP
	dec	CNT
	jnz	\pfx\()_row
.endm

/*
 * FINAL_FIXED n: as FINAL_LOOP, unrolled, with the addition on CF and the
 * subtraction U + ~m + 1 on OF in one pass (NEG m_0 supplies the +1: m is
 * odd, so -m_0 = ~m_0 + 1 without carry). In: MP, ZERO. Clobbers: all but
 * AP0, MP.
 */
.macro FINAL_FIXED n
	mov	0(MP), HIB
	neg	HIB			// -m_0 (before the flags are cleared)
	mov	F_RP(%rsp), %rdx
	xor	%ebx, %ebx		// HIA = 0; CF = OF = 0
	.set	.Lj, 0
	.rept	\n
	mov	(F_T + 8*(\n + .Lj))(%rsp), LO
	adcx	(F_T + 8*.Lj)(%rsp), LO		// U_j (CF chain)
	mov	LO, (F_T + 8*(\n + .Lj))(%rsp)
	.if .Lj > 0
	mov	(8*.Lj)(MP), HIB
	not	HIB
	.endif
	adox	LO, HIB				// D_j = U_j + ~m_j + OF
	mov	HIB, (F_T + 8*.Lj)(%rsp)
	.set	.Lj, .Lj + 1
	.endr
	adcx	ZERO, HIA		// c
	adox	ZERO, HIA		// c + (no borrow): 0 -> keep U
	test	HIA, HIA		// a data flag, consumed only by CMOV
	.set	.Lj, 0
	.rept	\n
	mov	(F_T + 8*.Lj)(%rsp), LO
	cmovz	(F_T + 8*(\n + .Lj))(%rsp), LO
	mov	LO, (8*.Lj)(%rdx)
	.set	.Lj, .Lj + 1
	.endr
.endm

/*
 * MUL_FIXED n, pfx: product rows (straight-line rows, looped over b) for
 * the fixed size n. Row 0 writes fresh words (no loads). In: AP0, BP = b.
 */
.macro MUL_FIXED n, pfx
	mov	0(BP), %rdx
	xor	%ebx, %ebx
	ROW_FIXED \n, AP0, 0, %rsp, F_T, 1
	adox	ZERO, HIA
	mov	HIA, (F_T + 8*\n)(%rsp)
	lea	(F_T + 8)(%rsp), ROWP
	lea	8(BP), BP
	mov	$(\n - 1), CNT
\pfx\()_prow:
	mov	0(BP), %rdx
	xor	%ebx, %ebx
	ROW_FIXED \n, AP0, 0, ROWP, 0, 0
	adcx	ZERO, HIA
	adox	ZERO, HIA
	mov	HIA, (8*\n)(ROWP)		// T[i+n], fresh
	lea	8(ROWP), ROWP
	lea	8(BP), BP
	dec	CNT
	jnz	\pfx\()_prow
	REDUCE_FIXED \n, \pfx\()_red
	FINAL_FIXED \n
.endm

/*
 * SQR_FIXED n, pfx: all cross-product rows straight-line, then the
 * doubling/diagonal pass straight-line, reduction, final. In: AP0.
 */
.macro SQR_FIXED n, pfx
	/* Row 0: fresh words T[1..n-1], final at T[n]. Rows re-base their
	 * pointers (+128) so that every displacement fits in 8 bits. */
	mov	0(AP0), %rdx
	lea	(8 + 128)(AP0), BP
	lea	(F_T + 8 + 128)(%rsp), ROWP
	xor	%ebx, %ebx
	ROW_FIXED (\n - 1), BP, -128, ROWP, -128, 1
	adox	ZERO, HIA
	mov	HIA, (8*(\n - 1) - 128)(ROWP)
	.set	.Lr, 1
	.rept	\n - 2
	mov	(8*.Lr)(AP0), %rdx
	lea	8(BP), BP		// &a[r+1] + 128
	lea	16(ROWP), ROWP		// &T[2r+1] + 128
	xor	%ebx, %ebx
	ROW_FIXED (\n - 1 - .Lr), BP, -128, ROWP, -128, 0
	adcx	ZERO, HIA
	adox	ZERO, HIA
	mov	HIA, (8*(\n - 1 - .Lr) - 128)(ROWP)
	.set	.Lr, .Lr + 1
	.endr
	/* Double and add the squares. T[0] and T[2n-1] hold no cross
	 * product (they are 0): T[0] = lo_0 is written, never read, and
	 * T[2n-1] is just hi_{n-1} plus the two carries. */
	mov	0(AP0), %rdx
	xor	%ebx, %ebx
	mulx	%rdx, LO, HIA
	mov	LO, F_T(%rsp)
	.set	.Li, 1
	.rept	\n - 1
	mov	(F_T + 8*(2*.Li - 1))(%rsp), LO
	adcx	LO, LO
	adox	HIA, LO
	mov	LO, (F_T + 8*(2*.Li - 1))(%rsp)
	mov	(8*.Li)(AP0), %rdx
	mulx	%rdx, HIB, HIA
	mov	(F_T + 8*(2*.Li))(%rsp), LO
	adcx	LO, LO
	adox	HIB, LO
	mov	LO, (F_T + 8*(2*.Li))(%rsp)
	.set	.Li, .Li + 1
	.endr
	adcx	ZERO, HIA		// T[2n-1] = 0 doubled + carries
	adox	ZERO, HIA		// + hi_{n-1}: fits (a^2 < 2^(128n))
	mov	HIA, (F_T + 8*(2*\n - 1))(%rsp)
	REDUCE_FIXED \n, \pfx\()_red
	FINAL_FIXED \n
.endm

	.text

/* ------------------------------------------------------------------------
 * void fc_bn_mul_mont_mulx(uint64_t *r, const uint64_t *a,
 *                          const uint64_t *b, const uint64_t *m,
 *                          uint64_t m0inv, size_t n);
 *
 * r = a * b * 2^(-64n) mod m, for a, b in [0, m), m odd with n limbs,
 * n % 4 == 0, 8 <= n <= 128, m0inv = -m^-1 mod 2^64. Output fully reduced.
 * r may alias a and/or b; m must not alias r. Reads a, b, m (n limbs
 * each), writes r (n limbs) and its own stack scratch.
 * CT: only n leaks (branches and addresses depend on n alone).
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_bn_mul_mont_mulx)
	/* rdi r, rsi a, rdx b, rcx m, r8 m0inv, r9 n */
	FRAME_ENTER
	mov	%rdx, BP
	cmp	$16, HIB
	je	.Lmul_16
	cmp	$24, HIB
	je	.Lmul_24
	cmp	$32, HIB
	je	.Lmul_32

	/* Generic n. Product rows: T[i..i+n] += a * b_i. */
	ZERO_TLOW .Lmul_zero
	lea	F_T(%rsp), ROWP
.Lmul_prow:
	mov	0(BP), %rdx
	lea	8(BP), BP
	mov	AP0, AP
	mov	ROWP, TP
	ROW_ENTER_FULL .Lmul_pgrp
	ROW_LOOP .Lmul_pgrp
	adcx	ZERO, HIA
	mov	HIA, (TP)		// T[i+n], fresh
	lea	8(ROWP), ROWP
	cmp	F_END(%rsp), ROWP
	jne	.Lmul_prow
	REDUCE_LOOP .Lmul_red
	FINAL_LOOP .Lmul_fin
.Lmul_done:
	.cfi_remember_state
	FRAME_LEAVE
	.cfi_restore_state

.Lmul_16:
	MUL_FIXED 16, .Lmul16
	jmp	.Lmul_done
.Lmul_24:
	MUL_FIXED 24, .Lmul24
	jmp	.Lmul_done
.Lmul_32:
	MUL_FIXED 32, .Lmul32
	jmp	.Lmul_done
FC_FUNC_END(fc_bn_mul_mont_mulx)

/* ------------------------------------------------------------------------
 * void fc_bn_sqr_mont_mulx(uint64_t *r, const uint64_t *a,
 *                          const uint64_t *m, uint64_t m0inv, size_t n);
 *
 * r = a * a * 2^(-64n) mod m; the same rules as fc_bn_mul_mont_mulx
 * (a in [0, m), n % 4 == 0, 8 <= n <= 128, r may alias a, m may not).
 * CT: only n leaks.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_bn_sqr_mont_mulx)
	/* rdi r, rsi a, rdx m, rcx m0inv, r8 n: move to the common map. */
	mov	%r8, HIB		// n
	mov	%rcx, M0I
	mov	%rdx, MP
	FRAME_ENTER
	cmp	$16, HIB
	je	.Lsqr_16
	cmp	$24, HIB
	je	.Lsqr_24
	cmp	$32, HIB
	je	.Lsqr_32

	/*
	 * Generic n. Cross products in blocks of 4 rows r = 4k+t: row r first
	 * takes the 3-t products inside the block's 4x4 triangle
	 * (a[4k+t+1..4k+3], straight-line), then the 4-aligned rest
	 * a[4k+4..n-1] (ROW_LOOP, n/4-1-k groups). The last block (k = n/4-1)
	 * is only a triangle. Row 0 adds into T[1..n-1]: zero them first.
	 */
	ZERO_TLOW .Lsqr_zero
	mov	AP0, BP			// &a[4k]
	lea	F_T(%rsp), ROWP		// &T[8k]
	mov	F_G1(%rsp), %rax
	mov	%rax, F_KC(%rsp)	// -(n/4-1-k): groups after the triangle
	mov	MP, F_MSAVE(%rsp)	// rcx: loop parity for ROW_ENTER_LIVE
.Lsqr_block:
	mov	F_KC(%rsp), %rax
	neg	%rax			// g = n/4-1-k
	mov	%eax, %ecx
	and	$1, %ecx		// g odd: enter mid-trip
	inc	%rax
	shr	$1, %rax
	neg	%rax
	mov	%rax, F_C8(%rsp)	// -ceil(g/2) trips
	/* t = 0: a[4k] * a[4k+1..], from position 8k+1. */
	mov	0(BP), %rdx
	xor	%ebx, %ebx
	mulx	8(BP), LO, HIA
	adcx	8(ROWP), LO
	mov	LO, 8(ROWP)
	mulx	16(BP), LO, HIB
	adcx	16(ROWP), LO
	adox	HIA, LO
	mov	LO, 16(ROWP)
	mulx	24(BP), LO, HIA
	adcx	24(ROWP), LO
	adox	HIB, LO
	mov	LO, 24(ROWP)
	lea	32(BP), AP
	lea	32(ROWP), TP
	mov	F_C8(%rsp), CNT
	ROW_ENTER_LIVE .Lsqr_r0
	ROW_LOOP .Lsqr_r0
	adcx	ZERO, HIA
	mov	HIA, (TP)		// T[r+n], fresh
	/* t = 1: a[4k+1] * a[4k+2..], from position 8k+3. */
	mov	8(BP), %rdx
	xor	%ebx, %ebx
	mulx	16(BP), LO, HIB
	adcx	24(ROWP), LO
	mov	LO, 24(ROWP)
	mulx	24(BP), LO, HIA
	adcx	32(ROWP), LO
	adox	HIB, LO
	mov	LO, 32(ROWP)
	lea	32(BP), AP
	lea	40(ROWP), TP
	mov	F_C8(%rsp), CNT
	ROW_ENTER_LIVE .Lsqr_r1
	ROW_LOOP .Lsqr_r1
	adcx	ZERO, HIA
	mov	HIA, (TP)
	/* t = 2: a[4k+2] * a[4k+3..], from position 8k+5. */
	mov	16(BP), %rdx
	xor	%ebx, %ebx
	mulx	24(BP), LO, HIA
	adcx	40(ROWP), LO
	mov	LO, 40(ROWP)
	lea	32(BP), AP
	lea	48(ROWP), TP
	mov	F_C8(%rsp), CNT
	ROW_ENTER_LIVE .Lsqr_r2
	ROW_LOOP .Lsqr_r2
	adcx	ZERO, HIA
	mov	HIA, (TP)
	/* t = 3: a[4k+3] * a[4k+4..], from position 8k+7. */
	mov	24(BP), %rdx
	xor	%ebx, %ebx
	lea	32(BP), AP
	lea	56(ROWP), TP
	mov	F_C8(%rsp), CNT
	ROW_ENTER_LIVE .Lsqr_r3
	ROW_LOOP .Lsqr_r3
	adcx	ZERO, HIA
	mov	HIA, (TP)
	lea	32(BP), BP
	lea	64(ROWP), ROWP
	incq	F_KC(%rsp)
	jnz	.Lsqr_block
	/* The last triangle: rows n-4..n-2, BP = &a[n-4], ROWP = &T[2n-8]. */
	mov	0(BP), %rdx
	xor	%ebx, %ebx
	mulx	8(BP), LO, HIA
	adcx	8(ROWP), LO
	mov	LO, 8(ROWP)
	mulx	16(BP), LO, HIB
	adcx	16(ROWP), LO
	adox	HIA, LO
	mov	LO, 16(ROWP)
	mulx	24(BP), LO, HIA
	adcx	24(ROWP), LO
	adox	HIB, LO
	mov	LO, 24(ROWP)
	adcx	ZERO, HIA
	adox	ZERO, HIA
	mov	HIA, 32(ROWP)		// T[2n-4]
	mov	8(BP), %rdx
	xor	%ebx, %ebx
	mulx	16(BP), LO, HIB
	adcx	24(ROWP), LO
	mov	LO, 24(ROWP)
	mulx	24(BP), LO, HIA
	adcx	32(ROWP), LO
	adox	HIB, LO
	mov	LO, 32(ROWP)
	adcx	ZERO, HIA
	adox	ZERO, HIA
	mov	HIA, 40(ROWP)		// T[2n-3]
	mov	16(BP), %rdx
	xor	%ebx, %ebx
	mulx	24(BP), LO, HIA
	adcx	40(ROWP), LO
	mov	LO, 40(ROWP)
	adcx	ZERO, HIA
	mov	HIA, 48(ROWP)		// T[2n-2]

	/*
	 * Double and add the squares. Iteration g covers positions 8g+1 ..
	 * 8g+8 (hi_{4g}, lo/hi of a_{4g+1..4g+3}, lo_{4g+4}), so the pending
	 * OF at its end can be absorbed into hi_{4g+4}, which is not yet
	 * added. Position 0 is lo_0 (T[0] = 0); the tail covers 2n-7..2n-1.
	 */
	mov	0(AP0), %rdx
	xor	%ebx, %ebx
	mulx	%rdx, LO, HIA
	mov	LO, F_T(%rsp)
	lea	F_T(%rsp), TP
	mov	AP0, AP
	mov	F_G1(%rsp), CNT
.Lsqr_diag:
	mov	8(TP), LO
	adcx	LO, LO
	adox	HIA, LO
	mov	LO, 8(TP)
	mov	8(AP), %rdx
	mulx	%rdx, HIB, HIA
	mov	16(TP), LO
	adcx	LO, LO
	adox	HIB, LO
	mov	LO, 16(TP)
	mov	24(TP), LO
	adcx	LO, LO
	adox	HIA, LO
	mov	LO, 24(TP)
	mov	16(AP), %rdx
	mulx	%rdx, HIB, HIA
	mov	32(TP), LO
	adcx	LO, LO
	adox	HIB, LO
	mov	LO, 32(TP)
	mov	40(TP), LO
	adcx	LO, LO
	adox	HIA, LO
	mov	LO, 40(TP)
	mov	24(AP), %rdx
	mulx	%rdx, HIB, HIA
	mov	48(TP), LO
	adcx	LO, LO
	adox	HIB, LO
	mov	LO, 48(TP)
	mov	56(TP), LO
	adcx	LO, LO
	adox	HIA, LO
	mov	LO, 56(TP)
	mov	32(AP), %rdx
	mulx	%rdx, HIB, HIA
	mov	64(TP), LO
	adcx	LO, LO
	adox	HIB, LO
	mov	LO, 64(TP)
	adox	ZERO, HIA		// absorb OF into hi_{4g+4}
	lea	32(AP), AP
	lea	64(TP), TP
	inc	CNT
	jnz	.Lsqr_diag
	/* Tail: AP = &a[n-4], TP = &T[2n-8], HIA = hi_{n-4}. */
	mov	8(TP), LO
	adcx	LO, LO
	adox	HIA, LO
	mov	LO, 8(TP)
	mov	8(AP), %rdx
	mulx	%rdx, HIB, HIA
	mov	16(TP), LO
	adcx	LO, LO
	adox	HIB, LO
	mov	LO, 16(TP)
	mov	24(TP), LO
	adcx	LO, LO
	adox	HIA, LO
	mov	LO, 24(TP)
	mov	16(AP), %rdx
	mulx	%rdx, HIB, HIA
	mov	32(TP), LO
	adcx	LO, LO
	adox	HIB, LO
	mov	LO, 32(TP)
	mov	40(TP), LO
	adcx	LO, LO
	adox	HIA, LO
	mov	LO, 40(TP)
	mov	24(AP), %rdx
	mulx	%rdx, HIB, HIA
	mov	48(TP), LO
	adcx	LO, LO
	adox	HIB, LO
	mov	LO, 48(TP)
	adcx	ZERO, HIA		// T[2n-1]: 0 doubled + carries + hi_{n-1}
	adox	ZERO, HIA
	mov	HIA, 56(TP)

	mov	F_MSAVE(%rsp), MP
	REDUCE_LOOP .Lsqr_red
	FINAL_LOOP .Lsqr_fin
.Lsqr_done:
	.cfi_remember_state
	FRAME_LEAVE
	.cfi_restore_state

.Lsqr_16:
	SQR_FIXED 16, .Lsqr16
	jmp	.Lsqr_done
.Lsqr_24:
	SQR_FIXED 24, .Lsqr24
	jmp	.Lsqr_done
.Lsqr_32:
	SQR_FIXED 32, .Lsqr32
	jmp	.Lsqr_done
FC_FUNC_END(fc_bn_sqr_mont_mulx)

#endif /* __x86_64__ */
