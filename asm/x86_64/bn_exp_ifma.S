/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_exp_ifma.S - two independent Montgomery multiplications at once in
 * radix 2^52 with AVX-512 IFMA (VPMADD52LUQ/VPMADD52HUQ), for the two CRT
 * halves of an RSA private key, plus the matching constant-time gather from
 * a window table. Driven by provider/core/bn_exp2.c.
 *
 * CPU features: AVX-512F, AVX-512DQ (KMOVB), AVX-512IFMA, 512-bit registers
 * (zmm0-zmm31, k1); BMI-free scalar code (IMUL only).
 *
 * ABI: SysV AMD64. The multiplication kernels save and restore rbx, rbp and
 * r12-r15 (pushed; CFI describes them); no stack scratch. Every entry point
 * ends with VZEROUPPER.
 *
 * Operands. A number is L digits of 52 bits, least significant first, each
 * digit in its own 64-bit word, padded with zero words to 8*NR words (NR zmm
 * registers, one "slot" of S = 64*NR bytes). A "pair" is two slots back to
 * back: half p at offset 0, half q at offset S. The three fixed shapes are
 *
 *     entry point              n (64-bit limbs)  NR  L   mode
 *     fc_bn_amm52x2_n16_ifma   16 (1024-bit)     3   21  M~ (k0 = 1)
 *     fc_bn_amm52x2_n24_ifma   24 (1536-bit)     4   31  M~ (k0 = 1)
 *     fc_bn_amm52x2_n32_ifma   32 (2048-bit)     5   40  k0
 *
 * Math. The kernels compute, per half, the "almost Montgomery" product
 * AMM(a, b) = (a*b + Y*M) / R, R = 2^(52L), Y < R chosen digit by digit so
 * that the division is exact. Row i (i = 0..L-1) works in a frame where
 * lane j of the accumulator holds digit i+j:
 *
 *     X   = lane 0 + carry + lo52(a_0 * b_i)        (scalar, see below)
 *     y   = X * k0 mod 2^52
 *     acc += lo52(a * b_i) + lo52(M * y)            (lane j: digit i+j)
 *     acc  = acc >> 64 bits (one lane down)         (frame i+1)
 *     acc += hi52(a * b_i) + hi52(M * y)            (hi halves: digit i+j+1)
 *     carry = (X + lo52(M_0 * y)) >> 52             (exact: low 52 bits 0)
 *
 * Lane 0 never carries into lane 1 inside the vector: it is read into a
 * general register (X) right after the shift, the scalar code adds the
 * carry of the lane that was shifted out, and the lane itself is dropped
 * by the next shift. Only y sits on the loop-carried chain.
 *
 * Two modes differ in M and k0:
 *  - k0 mode: M = m, k0 = -m^-1 mod 2^52. Inputs below 2m give outputs
 *    below (4m^2 + R*m)/R < 2m since 4m < R (2080 > 2048 + 2 bits).
 *  - M~ mode: M = m~ = m * (-m^-1 mod 2^52), so m~ = -1 mod 2^52 and k0 = 1:
 *    y = X mod 2^52 needs no multiplication, and the carry is
 *    (X + lo52(-y)) >> 52 = (X + 2^52 - 1) >> 52 (one LEA, one shift).
 *    The cost is one more digit: m~ < 2^52 m, and with inputs below
 *    B = 2^53 m the output is below B^2/R + m~ <= 2^52 m + 2^52 m = B as
 *    long as R >= 2^54 m, i.e. 52L >= bits(m) + 54: 1092 >= 1078 (n = 16),
 *    1612 >= 1590 (n = 24). B fits L digits. Both halves use the same R;
 *    AMM(a, b) = a*b*R^-1 mod m either way, and the caller reduces fully
 *    once at the end of the exponentiation.
 *
 * Lane bounds: a lane lives at most L+1 rows and gains at most four
 * products below 2^52 per row, so it stays below 4*41*2^52 < 2^60; X adds
 * a carry below 2^9 and a 52-bit digit: no 64-bit overflow anywhere.
 *
 * Normalization (after the last row): lane 0 += carry; then every lane is
 * split into its low 52 bits plus the high bits moved one lane up (one
 * pass of VPSRLQ/VPANDQ/VALIGNQ/VPADDQ); the lanes are then below
 * 2^52 + 2^12, so a lane overflows (G: lane > 2^52-1) at most by one and a
 * carry ripples through lanes equal to 2^52-1 (P). With the lane masks as
 * bit strings in a general register, the lanes receiving a carry are
 * ((G << 1) + P) ^ P (a carry entering a run of P lanes propagates through
 * it like an addition); those lanes get +1 (masked VPADDQ), then all lanes
 * are masked to 52 bits. The value is below R, so nothing carries out of
 * the top lane. The result is in canonical digits again: IFMA reads only
 * the low 52 bits of each input word, so every kernel input must be.
 *
 * Aliasing: a and b are read during the rows, r is written at the end only,
 * so r may alias a and/or b.
 *
 * Constant time: no branch or address depends on data; the only loop runs
 * L times. The gather reads every table entry in full and selects with a
 * mask made by VPCMPEQQ; the index never reaches an address or a branch.
 *
 * Design (measured on the development Xeon, Golden Cove-class server core
 * in a shared 2-core KVM guest; TSC 2.6 GHz; the core runs ~4.1 GHz on
 * scalar code and ~3.7 GHz under sustained zmm IFMA; minima over many
 * interleaved runs, the machine being noisy):
 * - VPMADD52[LH]UQ issue twice per cycle at 256 and at 512 bits (ports 0
 *   and 5 for zmm), latency 4; VALIGNQ zmm once per cycle (port 5),
 *   latency ~4; a GPR->zmm VPBROADCASTQ plus VMOVQ back ~7 cycles. zmm
 *   thus doubles the lanes per cycle against ymm, and NR = 3/4/5 zmm hold
 *   the 21/31/40 digits with little waste. 24 IFMA + 12 VALIGNQ measured
 *   17.6 cycles: the port-0/5 uop count is the throughput model.
 * - The two halves are independent: their rows interleave, so one half's
 *   y chain overlaps the other half's work. One half alone runs ~27.5
 *   cycles per row, both ~33: the kernel is latency bound.
 * - The latency floor is the accumulator itself: each register takes four
 *   IFMAs and one VALIGNQ per row (a synthetic chain of exactly that runs
 *   ~21 cycles per row at 3.7 GHz), and the y chain (broadcast, IFMA, IFMA,
 *   extract, scalar) interleaves with it.
 * - M~ mode with every product added before the shift (a1, M1) and lane 1
 *   read by VPEXTRQ before the shift took n16 from 242 to ~225 us per
 *   pair exponentiation; y = X mod 2^52 needs no IMUL.
 * - Tried and dropped (A/B in one process, same operands): a scalar
 *   "shadow" of the next digit (lo52(M_1 y) + y + (X >> 52) + Q) with two
 *   accumulators per half (a*b and M*y, each two IFMAs + one VALIGNQ per
 *   row): 10% slower (448 vs 406 TSC per pair AMM at n16; the extra
 *   VALIGNQs load port 5); hi(M1*y) of register 0 into a separate
 *   register added afterwards: 2% slower.
 * - b_i is broadcast from memory (a load uop, no shuffle port); a, a1, M
 *   and M1 are IFMA memory operands (L1 loads, micro-fused), which frees
 *   registers for the two accumulators.
 * - k0 mode for n32 only: M~ would need 41 digits, a sixth zmm per number.
 *
 * Measured per pair AMM (both halves), TSC ticks at 2.6 GHz: n16 ~406
 * (156 ns), n24 ~706 (272 ns), n32 ~1050 (404 ns). Per pair of
 * exponentiations with full-size CRT exponents (fc_bn_exp2): see
 * provider/core/bn_exp2.c.
 */
#include "fc_asm.h"

#if defined(__x86_64__)

/* ---- register table (multiplication kernels) ---------------------------
 *
 *   rdi   r      output pair (written at the end only)
 *   rsi   a      first operand pair
 *   rdx   bp     b pair, advanced by one digit per row
 *   rcx   ctx    M pair at 0, then k0_p, k0_q, m0_p, m0_q (k0 mode)
 *   r8    X_p    lane-0 value of half p (row input)
 *   r9    X_q
 *   r10   c_p    carry from the dropped lane of half p
 *   r11   c_q
 *   r12   a0_p   digit 0 of a (half p)
 *   r13   a0_q
 *   r14   mask   2^52 - 1
 *   r15   rows   loop counter
 *   rax   y_p / scratch
 *   rbx   y_q / scratch
 *   rbp   t    / scratch
 *
 *   zmm0-4    acc of half p (NR used)
 *   zmm10-14  acc of half q
 *   zmm5/15   b_i broadcast (p / q)
 *   zmm6/16   y broadcast (p / q)
 *   zmm7      scratch (carry into lane 0)
 *   zmm20-24  scratch (normalization)
 *   zmm30     2^52 - 1 in every lane
 *   zmm31     zero
 */
.set	MASKV, 30
.set	ZEROV, 31

/*
 * ROW insn, off, mem, src, pre, nr: for k < nr,
 *   insn  (off + k*64)(mem), %zmm<src>, %zmm<pre>k
 * i.e. acc_k += op(mem_k * src). pre is "" for half p (zmm0-4) and 1 for
 * half q (zmm10-14). Clobbers nothing else.
 */
.macro ROW insn, off, mem, src, pre, nr
	.irp	k, 0,1,2,3,4
	.if	\k < \nr
	\insn	(\off + \k*64)(\mem), %zmm\src, %zmm\pre\k
	.endif
	.endr
.endm

/*
 * SHIFT pre, nr: the accumulator moves one lane down (frame i -> i+1);
 * zero enters the top lane. In order k = 0..nr-1, each VALIGNQ reads the
 * still-unshifted register above it.
 */
.macro SHIFT pre, nr
	valignq	$1, %zmm\pre\()0, %zmm\pre\()1, %zmm\pre\()0
	valignq	$1, %zmm\pre\()1, %zmm\pre\()2, %zmm\pre\()1
	.if	\nr == 3
	valignq	$1, %zmm\pre\()2, %zmm31, %zmm\pre\()2
	.else
	valignq	$1, %zmm\pre\()2, %zmm\pre\()3, %zmm\pre\()2
	.if	\nr == 4
	valignq	$1, %zmm\pre\()3, %zmm31, %zmm\pre\()3
	.else
	valignq	$1, %zmm\pre\()3, %zmm\pre\()4, %zmm\pre\()3
	valignq	$1, %zmm\pre\()4, %zmm31, %zmm\pre\()4
	.endif
	.endif
.endm

/*
 * HALF_ROW: one row for one half.
 *   pre      register bank ("" or 1)
 *   off      byte offset of this half in a pair (0 or S)
 *   x, c, a0 its X, carry and a_0 registers
 *   bv, yv   its b_i and y broadcast registers (zmm numbers)
 *   kidx     index of its k0/m0 words in the ctx tail (0 = p, 1 = q)
 *   nr, mode NR and 0 (M~) / 1 (k0)
 * In:  acc (frame i), c, bp -> digit i of half p of b.
 * Out: acc (frame i+1), c updated. Clobbers rax, rbp, the broadcasts.
 */
.macro HALF_ROW pre, off, x, c, a0, bv, yv, kidx, nr, mode
	/* X = lane 0 + carry + lo52(a_0 * b_i); lo52 from the low 64 bits */
	vmovq	%xmm\pre\()0, \x
	mov	\off(%rdx), %rbp
	imul	\a0, %rbp
	and	%r14, %rbp
	add	\c, \x
	add	%rbp, \x
	vpbroadcastq \off(%rdx), %zmm\bv
	.if	\mode == 0
	/* M~ mode: y = X mod 2^52; carry = (X + 2^52 - 1) >> 52 */
	mov	\x, %rax
	and	%r14, %rax
	lea	(\x, %r14), \c
	shr	$52, \c
	.else
	/* k0 mode: y = X*k0 mod 2^52; carry = (X + lo52(m_0*y)) >> 52 */
	mov	\x, %rax
	imul	(64*\nr*2 + 8*\kidx)(%rcx), %rax
	and	%r14, %rax
	mov	%rax, %rbp
	imul	(64*\nr*2 + 16 + 8*\kidx)(%rcx), %rbp
	and	%r14, %rbp
	lea	(\x, %rbp), \c
	shr	$52, \c
	.endif
	vpbroadcastq %rax, %zmm\yv
	ROW	vpmadd52luq, \off, %rsi, \bv, \pre, \nr
	ROW	vpmadd52luq, \off, %rcx, \yv, \pre, \nr
	SHIFT	\pre, \nr
	ROW	vpmadd52huq, \off, %rsi, \bv, \pre, \nr
	ROW	vpmadd52huq, \off, %rcx, \yv, \pre, \nr
.endm

/*
 * HALF_ROW_MT: one row for one half in M~ mode, with every product added
 * before the shift (a1 = a and M1 = M~ moved one lane up, so their hi
 * halves land on digit i+j+1 in frame i). Arguments as HALF_ROW.
 * In:  X = digit i complete (lane 0 + carry + lo52(a_0 b_i)); acc (frame
 *      i) already holds row i's a*b_i products.
 * Out: X = digit i+1 complete, acc = frame i+1 with row i+1's a*b_{i+1}
 *      products (b_L is a zero padding word: the last row adds nothing).
 * The y chain per row is: broadcast, two IFMAs, VPEXTRQ of lane 1 (the
 * next digit, read before the shift so the VALIGNQs stay off the chain),
 * three scalar ops. Clobbers rax, rbp, the broadcasts.
 */
.macro HALF_ROW_MT pre, off, x, c, a0, bv, yv, nr
	mov	\x, %rax
	and	%r14, %rax
	lea	(\x, %r14), \c
	shr	$52, \c
	vpbroadcastq %rax, %zmm\yv
	ROW	vpmadd52luq, \off, %rcx, \yv, \pre, \nr
	ROW	vpmadd52huq, (\off + 2*64*\nr), %rcx, \yv, \pre, \nr
	vpextrq	$1, %xmm\pre\()0, \x
	SHIFT	\pre, \nr
	mov	(\off + 8)(%rdx), %rbp
	imul	\a0, %rbp
	and	%r14, %rbp
	add	\c, \x
	add	%rbp, \x
	vpbroadcastq (\off + 8)(%rdx), %zmm\bv
	ROW	vpmadd52luq, \off, %rsi, \bv, \pre, \nr
	ROW	vpmadd52huq, \off, %rsp, \bv, \pre, \nr
.endm

/*
 * PROLOGUE_MT pre, off, x, a0, bv, nr: a1 (a one lane up) of this half to
 * off(%rsp); row 0's a*b_0 products into the (zero) acc; X = lo52(a_0 b_0).
 * Clobbers zmm7, zmm20-24, rbp.
 */
.macro PROLOGUE_MT pre, off, x, a0, bv, nr
	.irp	k, 0,1,2,3,4
	.if	\k < \nr
	vmovdqu64 (\off + \k*64)(%rsi), %zmm2\k
	.endif
	.endr
	valignq	$7, %zmm31, %zmm20, %zmm7
	vmovdqa64 %zmm7, (\off)(%rsp)
	valignq	$7, %zmm20, %zmm21, %zmm7
	vmovdqa64 %zmm7, (\off + 64)(%rsp)
	valignq	$7, %zmm21, %zmm22, %zmm7
	vmovdqa64 %zmm7, (\off + 128)(%rsp)
	.if	\nr > 3
	valignq	$7, %zmm22, %zmm23, %zmm7
	vmovdqa64 %zmm7, (\off + 192)(%rsp)
	.endif
	.if	\nr > 4
	valignq	$7, %zmm23, %zmm24, %zmm7
	vmovdqa64 %zmm7, (\off + 256)(%rsp)
	.endif
	mov	(\off)(%rdx), \x
	imul	\a0, \x
	and	%r14, \x
	vpbroadcastq (\off)(%rdx), %zmm\bv
	ROW	vpmadd52luq, \off, %rsi, \bv, \pre, \nr
	ROW	vpmadd52huq, \off, %rsp, \bv, \pre, \nr
.endm

/*
 * NORMALIZE pre, c, nr: add the pending carry c into lane 0 and bring
 * every lane to a canonical 52-bit digit (see Math). Clobbers zmm7,
 * zmm20-24, k1, rax, rbp, r8.
 */
.macro NORMALIZE pre, c, nr
	vmovq	\c, %xmm7
	vpaddq	%zmm7, %zmm\pre\()0, %zmm\pre\()0
	.irp	k, 0,1,2,3,4
	.if	\k < \nr
	vpsrlq	$52, %zmm\pre\k, %zmm2\k
	vpandq	%zmm30, %zmm\pre\k, %zmm\pre\k
	.endif
	.endr
	/* carries one lane up, highest register first (reads the one below) */
	.if	\nr > 4
	valignq	$7, %zmm23, %zmm24, %zmm24
	.endif
	.if	\nr > 3
	valignq	$7, %zmm22, %zmm23, %zmm23
	.endif
	valignq	$7, %zmm21, %zmm22, %zmm22
	valignq	$7, %zmm20, %zmm21, %zmm21
	valignq	$7, %zmm31, %zmm20, %zmm20
	.irp	k, 0,1,2,3,4
	.if	\k < \nr
	vpaddq	%zmm2\k, %zmm\pre\k, %zmm\pre\k
	.endif
	.endr
	/* G (lane > 2^52-1) into rax, P (lane == 2^52-1) into rbp */
	xor	%eax, %eax
	xor	%ebp, %ebp
	.irp	k, 0,1,2,3,4
	.if	\k < \nr
	vpcmpuq	$6, %zmm30, %zmm\pre\k, %k1
	kmovb	%k1, %r8d
	shl	$(8*\k), %r8
	or	%r8, %rax
	vpcmpuq	$0, %zmm30, %zmm\pre\k, %k1
	kmovb	%k1, %r8d
	shl	$(8*\k), %r8
	or	%r8, %rbp
	.endif
	.endr
	/* lanes that receive a carry: ((G << 1) + P) ^ P */
	add	%rax, %rax
	add	%rbp, %rax
	xor	%rbp, %rax
	.irp	k, 0,1,2,3,4
	.if	\k < \nr
	mov	%rax, %r8
	shr	$(8*\k), %r8
	kmovb	%r8d, %k1
	vpaddq	.Lone(%rip){1to8}, %zmm\pre\k, %zmm\pre\k{%k1}
	vpandq	%zmm30, %zmm\pre\k, %zmm\pre\k
	.endif
	.endr
.endm

/*
 * AMM52X2 name, nr, l, mode: emits
 *   void name(uint64_t *r, const uint64_t *a, const uint64_t *b,
 *             const uint64_t *ctx);
 * r, a, b: pairs of 2*8*nr words (64-byte alignment recommended); ctx: the
 * M pair (2*8*nr words) followed, in k0 mode, by k0_p, k0_q, m0_p, m0_q.
 * Inputs: canonical digits, values below the bound of the mode (see Math);
 * output: AMM(a, b) per half, canonical digits, same bound.
 */
.macro AMM52X2 name, nr, l, mode
FC_FUNC_START(\name)
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	push	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbx, -24
	push	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r12, -32
	push	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r13, -40
	push	%r14
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r14, -48
	push	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r15, -56
	/* rbx keeps the entry rsp; the M~ mode's a1 pair lives below it */
	mov	%rsp, %rbx
	.cfi_def_cfa_register %rbx
	sub	$(2*64*\nr), %rsp
	and	$-64, %rsp

	mov	$0xfffffffffffff, %r14
	vpbroadcastq %r14, %zmm30
	vpxorq	%zmm31, %zmm31, %zmm31
	.irp	k, 0,1,2,3,4
	.if	\k < \nr
	vpxorq	%zmm\k, %zmm\k, %zmm\k
	vpxorq	%zmm1\k, %zmm1\k, %zmm1\k
	.endif
	.endr
	xor	%r10d, %r10d
	xor	%r11d, %r11d
	mov	(%rsi), %r12
	mov	(64*\nr)(%rsi), %r13
	mov	$\l, %r15d
	.if	\mode == 0
	PROLOGUE_MT "", 0,        %r8, %r12, 5,  \nr
	PROLOGUE_MT 1,  (64*\nr), %r9, %r13, 15, \nr
.balign 32
1:
	HALF_ROW_MT "", 0,        %r8, %r10, %r12, 5,  6,  \nr
	HALF_ROW_MT 1,  (64*\nr), %r9, %r11, %r13, 15, 16, \nr
	add	$8, %rdx
	dec	%r15d
	jnz	1b
	.else
.balign 32
1:
	HALF_ROW "",  0,       %r8, %r10, %r12, 5,  6,  0, \nr, \mode
	HALF_ROW 1,   (64*\nr), %r9, %r11, %r13, 15, 16, 1, \nr, \mode
	add	$8, %rdx
	dec	%r15d
	jnz	1b
	.endif

	NORMALIZE "", %r10, \nr
	NORMALIZE 1,  %r11, \nr
	.irp	k, 0,1,2,3,4
	.if	\k < \nr
	vmovdqu64 %zmm\k, (\k*64)(%rdi)
	vmovdqu64 %zmm1\k, (64*\nr + \k*64)(%rdi)
	.endif
	.endr
	vzeroupper

	mov	%rbx, %rsp
	.cfi_def_cfa_register %rsp
	pop	%r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r15
	pop	%r14
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r14
	pop	%r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r13
	pop	%r12
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r12
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	pop	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
FC_FUNC_END(\name)
.endm

/*
 * void fc_bn_amm52x2_n16_ifma(uint64_t *r, const uint64_t *a,
 *                             const uint64_t *b, const uint64_t *ctx);
 * void fc_bn_amm52x2_n24_ifma(...);  void fc_bn_amm52x2_n32_ifma(...);
 * Two AMMs (halves p and q) of the shape in the table above.
 */
AMM52X2 fc_bn_amm52x2_n16_ifma, 3, 21, 0
AMM52X2 fc_bn_amm52x2_n24_ifma, 4, 31, 0
AMM52X2 fc_bn_amm52x2_n32_ifma, 5, 40, 1

/*
 * GATHER52X2 name, nr: emits
 *   void name(uint64_t *out, const uint64_t *table, size_t count,
 *             size_t idx_p, size_t idx_q);
 * out (a pair) = half p of table entry idx_p and half q of entry idx_q,
 * where entry j is the pair at table + j*2*8*nr words. Every entry is
 * loaded in full; a VPCMPEQQ mask picks the wanted ones (register blends),
 * so neither index reaches an address or a branch. count >= 1 (public).
 * CT: only count and nr leak.
 *
 *   rdi out, rsi table (advancing), rdx count (counter), rcx idx_p,
 *   r8 idx_q; zmm0-4 / zmm10-14 result, zmm5/15 loaded entry, zmm6 j,
 *   zmm8/18 indices, zmm9 one; k1 (p), k2 (q).
 */
.macro GATHER52X2 name, nr
FC_FUNC_START(\name)
	vpbroadcastq %rcx, %zmm8
	vpbroadcastq %r8, %zmm18
	vpbroadcastq .Lone(%rip), %zmm9
	vpxorq	%zmm6, %zmm6, %zmm6
	.irp	k, 0,1,2,3,4
	.if	\k < \nr
	vpxorq	%zmm\k, %zmm\k, %zmm\k
	vpxorq	%zmm1\k, %zmm1\k, %zmm1\k
	.endif
	.endr
.balign 32
1:
	vpcmpeqq %zmm8, %zmm6, %k1
	vpcmpeqq %zmm18, %zmm6, %k2
	.irp	k, 0,1,2,3,4
	.if	\k < \nr
	vmovdqu64 (\k*64)(%rsi), %zmm5
	vmovdqu64 (64*\nr + \k*64)(%rsi), %zmm15
	vpblendmq %zmm5, %zmm\k, %zmm\k{%k1}
	vpblendmq %zmm15, %zmm1\k, %zmm1\k{%k2}
	.endif
	.endr
	vpaddq	%zmm9, %zmm6, %zmm6
	add	$(2*64*\nr), %rsi
	dec	%rdx
	jnz	1b
	.irp	k, 0,1,2,3,4
	.if	\k < \nr
	vmovdqu64 %zmm\k, (\k*64)(%rdi)
	vmovdqu64 %zmm1\k, (64*\nr + \k*64)(%rdi)
	.endif
	.endr
	vzeroupper
	ret
FC_FUNC_END(\name)
.endm

/*
 * void fc_bn_gather52x2_n16_ifma(uint64_t *out, const uint64_t *table,
 *                                size_t count, size_t idx_p, size_t idx_q);
 * and the n24 / n32 shapes: see GATHER52X2.
 */
GATHER52X2 fc_bn_gather52x2_n16_ifma, 3
GATHER52X2 fc_bn_gather52x2_n24_ifma, 4
GATHER52X2 fc_bn_gather52x2_n32_ifma, 5

FC_RODATA
.balign 8
.Lone:
	.quad	1

#endif /* __x86_64__ */
