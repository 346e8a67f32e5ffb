/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_exp_ifma.S - two independent Montgomery multiplications at once in
 * radix 2^52 with AVX-512 IFMA (VPMADD52LUQ/VPMADD52HUQ), for the two CRT
 * halves of an RSA private key, plus the matching constant-time gathers
 * from a window table. Driven by provider/core/bn_exp2.c through
 * rsa_engine_ifma.c.
 *
 * CPU features: AVX-512F, AVX-512DQ (KMOVB, VBROADCASTI64X2), AVX-512IFMA,
 * 512-bit registers (zmm0-zmm31, k1-k7); the n16 kernels also use BMI2
 * (PEXT/PDEP) and BMI1 is not needed (IMUL only in the n24/n32 kernels).
 *
 * ABI: SysV AMD64. The multiplication kernels save and restore the
 * callee-saved registers they use (pushed; CFI describes them; rbx keeps
 * the entry rsp where there is an aligned frame). Every entry point ends
 * with VZEROUPPER.
 *
 * Two families of kernels:
 *
 *   entry point              n (64-bit limbs)  L   layout        mode
 *   fc_bn_sqr52x2_n16_ifma   16 (1024-bit)     21  interleaved   m~'
 *   fc_bn_mul52x2_n16_ifma   16                21  interleaved   m~'
 *   fc_bn_amm52x2_n24_ifma   24 (1536-bit)     31  side by side  M~
 *   fc_bn_amm52x2_n32_ifma   32 (2048-bit)     40  side by side  k0
 *
 * All compute, per half, the "almost Montgomery" product
 * AMM(a, b) = (a*b + Y*M) / R, R = 2^(52L), Y < R chosen digit by digit so
 * that the division is exact (Y is unique, so every kernel that uses the
 * same M returns the same representative). Numbers are L digits of 52
 * bits, least significant first, one digit per 64-bit word; the caller
 * reduces fully once, at the end of the exponentiation.
 *
 * ---- n16: product first, then reduction, halves interleaved ------------
 *
 * Layout. A number is 6 "units" of 8 words; word 2t + h of unit j holds
 * digit 4j + t of half h (h = 0: p, 1: q). One instruction thus works on
 * 4 digits of both halves; every row multiplier is a pair (a_i of p, a_i
 * of q) repeated 4 times, one VBROADCASTI64X2 from memory.
 *
 * Product. Positions 0..43 of the double-length product live in 11 units
 * twice: L (low halves of the 104-bit digit products, at position i + j)
 * and H (high halves, also at position i + j: their true digit is one
 * more). Keeping lo and hi apart gives every row its own 22 accumulators,
 * one IFMA each, and lets both use the same multiplicand: row i adds
 * lo/hi(AS * B_i), where AS is a moved up i mod 4 digits (VALIGNQ by 2v
 * lanes), made once per residue v and reused by the rows i = v mod 4; the
 * target unit is i/4 + r. Squaring computes the pairs j > i only (lane
 * masks on the first unit), doubles L and H, and adds the squares a_i^2
 * (lo in L, hi in H, both at position 2i).
 *
 * Reduction (m~' mode). M = m~ = m * k, k = -m^-1 mod 2^52, so m~ = -1
 * mod 2^52 and y_i is simply digit i mod 2^52. Row i needs X_i, digit i
 * with all carries; then
 *     X_{i+1} = V_{i+1} + (X_i >> 52) + y_i + lo52(m~_1 y_i)
 * where V_{i+1} is digit i+1 of L + H before row i (the contributions of
 * y_i to digit i+1, hi52(m~_0 y_i) + lo52(m~_1 y_i), plus the carry out of
 * digit i, (X_i + lo52(m~_0 y_i)) >> 52, sum to (X_i >> 52) + y_i +
 * lo52(m~_1 y_i) because m~_0 = 2^52 - 1). With m~' = m~ + 2^52, i.e.
 * digit 1 plus one, y_i + lo52(m~_1 y_i) = lo52(m~'_1 y_i) + 2^52 c, and
 * hi52(m~'_1 y_i) = hi52(m~_1 y_i) + c: using m~' in the rows' products
 * and in the chain moves c one digit up exactly where the value needs it.
 * So the loop-carried chain is X -> one IFMA (lo52(m~'_1 X), IFMA reads
 * only the low 52 bits = y) -> two adds, kept in vector registers with
 * both halves in one zmm (~7 cycles per row); the row's products
 * (lo/hi(MS_v * y_i), MS_v = m~' moved up v digits, from ctx) go to the
 * units holding digits i+2 and up only, and V_{i+2} = L[i+2] + H[i+1] is
 * read back (VSHUFI64X2 broadcasts its lane pair) after them. m~'_1 must
 * stay below 2^52: when m~_1 = 2^52 - 1 the caller uses k + 2^52 instead
 * (bn_exp2.c).
 *
 * Bounds (m~' mode): m~ < 2^53 m (k below 2^53); inputs below B = 2^54 m
 * give outputs below B^2/R + m~ < 2^40 m + 2^53 m < B (m < 2^1024,
 * R = 2^1092); B fits 21 digits. Lanes: an L or H position gets at most
 * 21 products below 2^52 from the product (doubled for the squaring) and
 * 21 from the reduction: below 2^58; a digit L + H, and X, stay below
 * 2^60: no 64-bit overflow.
 *
 * Finish: result digit d (21..41) = L[d] + H[d-1], digit 21 = X_21; the
 * units are moved down 21 digits (VALIGNQ) and normalized (see below).
 *
 * ---- n24 / n32: one row at a time, halves side by side -----------------
 *
 * Layout: digits padded with zero words to 8*NR words (NR zmm registers,
 * one "slot" of S = 64*NR bytes; NR = 4 for n24, 5 for n32); a "pair" is
 * two slots back to back: half p at offset 0, half q at offset S. Row i
 * (i = 0..L-1) works in a frame where lane j of the accumulator holds
 * digit i+j:
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
 *    long as R >= 2^54 m, i.e. 52L >= bits(m) + 54: 1612 >= 1590 (n = 24).
 *    B fits L digits.
 *
 * Lane bounds: a lane lives at most L+1 rows and gains at most four
 * products below 2^52 per row, so it stays below 4*41*2^52 < 2^60; X adds
 * a carry below 2^9 and a 52-bit digit: no 64-bit overflow anywhere.
 *
 * ---- normalization (both families) --------------------------------------
 *
 * Every lane is split into its low 52 bits plus the high bits moved one
 * digit up (one pass of VPSRLQ/VPANDQ/VALIGNQ/VPADDQ); the lanes are then
 * below 2^52 + 2^12, so a lane overflows (G: lane > 2^52-1) at most by one
 * and a carry ripples through lanes equal to 2^52-1 (P). With the lane
 * masks as bit strings in a general register, the lanes receiving a carry
 * are ((G << 1) + P) ^ P (a carry entering a run of P lanes propagates
 * through it like an addition); those lanes get +1 (masked VPADDQ), then
 * all lanes are masked to 52 bits. The value is below R, so nothing
 * carries out of the top lane. The result is in canonical digits again:
 * IFMA reads only the low 52 bits of each input word, so every kernel
 * input must be.
 *
 * Aliasing: a and b are read before r is written (at the end only), so r
 * may alias a and/or b.
 *
 * Constant time: no branch or address depends on data; loops run a public
 * number of times. The gathers read every table entry in full and select
 * with a mask made by VPCMPEQQ; the indices never reach an address or a
 * branch.
 *
 * ---- design and measurements ---------------------------------------------
 *
 * Development Xeon (AVX512-IFMA, Golden Cove-class server core, shared
 * 2-core KVM guest, TSC 2.6 GHz, core ~3.6-3.75 GHz under zmm IFMA);
 * minima over many short interleaved runs, the machine being noisy.
 * Micro-measurements that shaped the n16 kernels (cycles per IFMA, 24
 * independent zmm IFMAs per loop):
 * - register operands 0.5 (two per cycle, ports 0 and 5); a 64-byte memory
 *   operand 0.75, a {1to8} broadcast operand 0.6; each 64-byte load beside
 *   IFMAs costs ~0.25, each zmm store ~0.75 (stores are the dearest);
 * - accumulators: 6 chains of dependent IFMAs run at 0.67 (latency 4 / 6),
 *   8 or more at 0.5: every row must spread its IFMAs over >= 8 registers;
 * - latencies: IFMA 4; GPR -> VPBROADCASTQ -> VMOVQ back ~5.5; a zmm store
 *   forwarded to a 64-bit load ~6 more.
 * The n16 squaring is throughput bound: ~680 port-0/5 uops per pair
 * squaring (140 IFMAs off-diagonal, 22 squares, 237 reduction, 21 chain,
 * shuffles, doubling, normalization) against ~390 cycles measured.
 *
 * Per pair operation against the former n16 kernel (one row at a time,
 * side by side, the design still used for n24/n32; 1.00 = ~600 cycles),
 * same operands, one process:
 *   squaring, halves side by side (two 3-zmm halves), scalar chain   0.84
 *   same, one accumulator per register, product by columns           0.75
 *   interleaved halves (4 digits of each per zmm), vector chain      0.67
 *   + alternating lanes (row multiplier = one broadcast load)        0.65
 *   multiplication, final                                            0.69
 * Per pair of 1024-bit exponentiations (bn_exp2.c, loaded machine):
 * ~254 us before, ~173 us after (OpenSSL 3.0's RSA-2048 private operation,
 * which runs its own IFMA code for both halves, ~296 us in the same runs).
 *
 * Tried and dropped for n16:
 * - a scalar chain (GPRs, ~6 cycles per row) with extraction by VPEXTRQ or
 *   by a zmm store and 64-bit loads: the store-forwarding path made rows
 *   ~23 cycles; extraction by VEXTRACTI32X4 + VPEXTRQ costs 3 port-0/5
 *   uops per half per row, more than the vector chain's 4 for both;
 * - the shifted copies of a stored to the stack (56 zmm stores per
 *   squaring) and read as IFMA memory operands: slower than making each
 *   copy in a register and using it for all its rows;
 * - a 3-op chain (the IFMA accumulating into V directly): one uop less,
 *   one IFMA latency more on the chain, 3% slower;
 * - keeping the most used m~' copies in registers (14 of 24, single
 *   accumulators): no gain; the reduction is bound by its uop count;
 * - the carry-lookahead of the normalization without PEXT/PDEP (spacer
 *   bits) or with KUNPCK: no measurable change.
 *
 * n24/n32 (per pair AMM, TSC ticks at 2.6 GHz): n24 ~706 (272 ns), n32
 * ~1050 (404 ns). Their design notes: both halves' rows interleave so one
 * half's y chain overlaps the other half's work (one half alone ~27.5
 * cycles per row, both ~33); each accumulator register takes four IFMAs
 * and one VALIGNQ per row, the latency floor; M~ mode with every product
 * added before the shift (a1, M1) and lane 1 read by VPEXTRQ before the
 * shift; b_i broadcast from memory; k0 mode for n32 only (M~ would need 41
 * digits, a sixth zmm per number).
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
 * void fc_bn_amm52x2_n24_ifma(uint64_t *r, const uint64_t *a,
 *                             const uint64_t *b, const uint64_t *ctx);
 * void fc_bn_amm52x2_n32_ifma(...);
 * Two AMMs (halves p and q) of the shape in the table above.
 */
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
 * void fc_bn_gather52x2_n24_ifma(uint64_t *out, const uint64_t *table,
 *                                size_t count, size_t idx_p, size_t idx_q);
 * and the n32 shape: see GATHER52X2.
 */
GATHER52X2 fc_bn_gather52x2_n24_ifma, 4
GATHER52X2 fc_bn_gather52x2_n32_ifma, 5

/* ---- n16: interleaved halves (see the file header) -------------------- */

/*
 * Register table (fc_bn_sqr52x2_n16_ifma, fc_bn_mul52x2_n16_ifma):
 *
 *   zmm0-10   L_0..L_10  lo-half accumulators, unit j = positions 4j..4j+3
 *   zmm11-21  H_0..H_10  hi-half accumulators, same positions (true digit
 *                        = position + 1)
 *   zmm22-27  product: the shifted copies AS_0..AS_5 of a
 *             reduction: X (22/23 alternating), S (24), W (25), the m~'_1
 *             vector (26), one MS unit (27)
 *   zmm26-29  diagonal: spread digits (26, 28), vpermq indices (27, 29)
 *   zmm28     product: the row multiplier B; reduction: extraction temp
 *   zmm30     2^52 - 1 in every lane
 *   zmm31     zero
 *   zmm0-5    result units R_0..R_5 (finish, normalization, loop carry)
 *   zmm10-15  normalization: carries
 *   k1, k2    squaring: lane pairs t > 0 (0xfc), t > 2 (0xc0) of the
 *             first unit of a row (the pairs above the diagonal)
 *   k5        squares: lane pairs 0 and 2 (0x33), the even positions
 *   k1-k6     normalization: G / P per unit, then the carry-in lanes
 *
 *   rdi r, rsi a, rdx b (mul) / count (sqr, moved to rbp), rcx ctx,
 *   rbx entry rsp, rax/rdx/r8-r13 normalization, r15 lane mask of half p
 *   (0x5555...) for PEXT/PDEP.
 */
.set	I16_FRAME, 448		/* stack: a (6 units, 64-byte aligned) */
.set	I16_M1, 1536		/* ctx: MS_v[r] at 384 v + 64 r, then m~'_1 */

/*
 * I16_SEL op, src, mult, d, k: "op src, mult, %zmm<d>{%k<k>}" for an
 * accumulator number d (0..21) and a mask number k (0 = none, 1, 2 or 5),
 * both assembly-time expressions. Selectors like this one turn computed
 * register numbers into names (GAS substitutes macro arguments as text).
 */
.macro I16_SEL op, src, mult, d, k
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21
	.if (\d) == \n
	.if (\k) == 0
	\op	\src, \mult, %zmm\n
	.elseif (\k) == 1
	\op	\src, \mult, %zmm\n{%k1}
	.elseif (\k) == 2
	\op	\src, \mult, %zmm\n{%k2}
	.else
	\op	\src, \mult, %zmm\n{%k5}
	.endif
	.endif
	.endr
.endm

/* I16_SELS op, s, mult, d, k: I16_SEL with src = %zmm<s>, s in 22..27 */
.macro I16_SELS op, s, mult, d, k
	.irp m, 22,23,24,25,26,27
	.if (\s) == \m
	I16_SEL	\op, %zmm\m, \mult, \d, \k
	.endif
	.endr
.endm

/* I16_DBL d: %zmm<d> += %zmm<d> */
.macro I16_DBL d
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21
	.if (\d) == \n
	vpaddq	%zmm\n, %zmm\n, %zmm\n
	.endif
	.endr
.endm

/* I16_AS r, text: "text %zmm<22+r>" (r an .irp literal 0..5) */
.macro I16_AS r, text
	.if \r == 0
	\text	%zmm22
	.elseif \r == 1
	\text	%zmm23
	.elseif \r == 2
	\text	%zmm24
	.elseif \r == 3
	\text	%zmm25
	.elseif \r == 4
	\text	%zmm26
	.else
	\text	%zmm27
	.endif
.endm

/* I16_AS2 r, text: "text %zmm<22+r>, %zmm<22+r>" (r literal 0..5) */
.macro I16_AS2 r, text
	.if \r == 0
	\text	%zmm22, %zmm22
	.elseif \r == 1
	\text	%zmm23, %zmm23
	.elseif \r == 2
	\text	%zmm24, %zmm24
	.elseif \r == 3
	\text	%zmm25, %zmm25
	.elseif \r == 4
	\text	%zmm26, %zmm26
	.else
	\text	%zmm27, %zmm27
	.endif
.endm

/*
 * I16_PROD_ROW v, u, sq, bb: row i = 4u + v of a product. B (zmm28) =
 * digit i of b (both halves: the 16-byte pair at unit u, slot v of b at
 * bb) broadcast by VBROADCASTI64X2, a load; then for each shifted copy
 * AS_r (zmm 22+r, lane pair t = digit j = 4r + t - v of a) holding a
 * digit that counts: L_{u+r} += lo(AS_r * B), H_{u+r} += hi(AS_r * B).
 * sq: only j > i counts (the off-diagonal half); the first such unit then
 * takes mask k1 (pairs t > 0) or k2 (t > 2). Clobbers zmm28.
 */
.macro I16_PROD_ROW v, u, sq, bb
	.set	_pi, 4*\u + \v
	vbroadcasti64x2 (64*\u + 16*\v)(\bb), %zmm28
	.irp r, 0,1,2,3,4,5
	.set	_pl, 4*\r - \v
	.if \sq
	.set	_plive, (_pl + 3 > _pi) && (_pl <= 20) && (\u + \r <= 10)
	.else
	.set	_plive, (_pl <= 20) && (\u + \r <= 10)
	.endif
	.if _plive
	.set	_pk, 0
	.if \sq && (_pl <= _pi)
	.set	_pk, 1 + ((_pi - _pl) >> 1)
	.endif
	I16_SELS vpmadd52luq, 22+\r, %zmm28, \u+\r, _pk
	I16_SELS vpmadd52huq, 22+\r, %zmm28, 11+\u+\r, _pk
	.endif
	.endr
.endm

/*
 * I16_PROD_GROUP v, sq, ab, bb: the rows i = v (mod 4) of a product of a
 * (units at ab) and b (units at bb). AS_r = a moved up v digits, i.e. 2v
 * lanes (VALIGNQ over units r-1 and r, unit -1 being zero), made once and
 * used by every row of the group. sq: squaring (a = b at ab = bb; copies
 * whose digits all sit at or below the diagonal are not made). pre: the
 * caller already put a in zmm22-27 (v = 0 only).
 * Clobbers zmm22-28.
 */
.macro I16_PROD_GROUP v, sq, ab, bb, pre=0
	.irp r, 0,1,2,3,4,5
	.if ((\sq == 0) || (\v < 2) || (\r >= 1)) && (\pre == 0)
	I16_AS	\r, "vmovdqu64 (64*\r)(\ab),"
	.if \v
	.if \r
	I16_AS2	\r, "valignq $(8-2*\v), (64*(\r-1))(\ab),"
	.else
	I16_AS2	\r, "valignq $(8-2*\v), .Li16_zero(%rip),"
	.endif
	.endif
	.endif
	.endr
	.irp u, 0,1,2,3,4,5
	.if 4*\u + \v <= 20
	I16_PROD_ROW \v, \u, \sq, \bb
	.endif
	.endr
.endm

/*
 * I16_SQR_DIAG j: L_j, H_j doubled (the off-diagonal sum counts twice),
 * then the squares of digits 2j and 2j+1 added: lo at the even positions
 * 4j, 4j+2 of L_j, hi at the same positions of H_j (mask k5 = pairs 0 and
 * 2). The two digit pairs are spread to pairs 0 and 2 by VPERMQ from unit
 * j/2 of a on the stack (index zmm29 for even j, zmm27 for odd j).
 * Clobbers zmm26 or zmm28.
 */
.macro I16_SQR_DIAG j
	I16_DBL	\j
	I16_DBL	11+\j
	.if \j & 1
	vpermq	(64*(\j>>1))(%rsp), %zmm27, %zmm28
	I16_SEL	vpmadd52luq, %zmm28, %zmm28, \j, 5
	I16_SEL	vpmadd52huq, %zmm28, %zmm28, 11+\j, 5
	.else
	vpermq	(64*(\j>>1))(%rsp), %zmm29, %zmm26
	I16_SEL	vpmadd52luq, %zmm26, %zmm26, \j, 5
	I16_SEL	vpmadd52huq, %zmm26, %zmm26, 11+\j, 5
	.endif
.endm

/*
 * I16_RED_ROW i, xi, xn: reduction row i. In: xi = X_i (digit i with all
 * its carries, as a pair (half p, half q) in every lane pair; its low 52
 * bits are y_i, which is all IFMA reads), W (zmm25) = V_{i+1}. First the
 * chain (emitted first so that it is oldest in the schedulers):
 * xn = X_{i+1} = lo52(m~'_1 y_i) + (X_i >> 52) + V_{i+1}. Then the row:
 * L/H += lo/hi(MS_v[r] * y_i) for the units whose digits i+2..i+21 count
 * (MS_v[r] from ctx, loaded once into zmm27 when both halves count).
 * Last W = V_{i+2} = L[i+2] + H[i+1], read after the row and spread to
 * every lane pair (VSHUFI64X2). Clobbers zmm24, zmm27, zmm28.
 */
.macro I16_RED_ROW i, xi, xn
	.set	_ru, (\i) >> 2
	.set	_rv, (\i) & 3
	vpxorq	\xn, \xn, \xn
	vpmadd52luq %zmm26, \xi, \xn
	vpsrlq	$52, \xi, %zmm24
	vpaddq	%zmm25, %zmm24, %zmm24
	vpaddq	%zmm24, \xn, \xn
	.irp r, 0,1,2,3,4,5,6
	.set	_rl, 4*\r - _rv		/* m~ digit in lane 0 of MS_v[r] */
	.set	_rlo, (_rl + 3 >= 2) && (_rl <= 20) && (_ru + \r <= 10)
	.set	_rhi, (_rl + 3 >= 1) && (_rl <= 20) && (_ru + \r <= 10)
	.if _rlo && _rhi
	vmovdqa64 (384*_rv + 64*\r)(%rcx), %zmm27
	I16_SEL	vpmadd52luq, %zmm27, \xi, _ru+\r, 0
	I16_SEL	vpmadd52huq, %zmm27, \xi, 11+_ru+\r, 0
	.elseif _rlo
	I16_SEL	vpmadd52luq, (384*_rv + 64*\r)(%rcx), \xi, _ru+\r, 0
	.elseif _rhi
	I16_SEL	vpmadd52huq, (384*_rv + 64*\r)(%rcx), \xi, 11+_ru+\r, 0
	.endif
	.endr
	.if (\i) <= 19
	I16_SELD "vshufi64x2 $(0x55*(((\i)+2)&3)),", ((\i)+2)>>2, ", %zmm25"
	I16_SELD "vshufi64x2 $(0x55*(((\i)+1)&3)),", 11+(((\i)+1)>>2), ", %zmm28"
	vpaddq	%zmm28, %zmm25, %zmm25
	.endif
.endm

/* I16_SELD pre, d, post: "pre %zmm<d>, %zmm<d>post" (quoted pre/post),
 * d an expression in 0..21 */
.macro I16_SELD pre, d, post
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21
	.if (\d) == \n
	\pre	%zmm\n, %zmm\n\post
	.endif
	.endr
.endm

/*
 * I16_REDUCE: the 21 reduction rows, from the product in L/H. X_0 =
 * L[0] (H holds nothing below position 0's true digit 1), V_1 = L[1] +
 * H[0]; X alternates between zmm22 and zmm23 (the chain of row i writes
 * X_{i+1} while the row's products still read X_i); X_21 ends in zmm23.
 * Clobbers zmm22-28.
 */
.macro I16_REDUCE
	vmovdqa64 I16_M1(%rcx), %zmm26
	vshufi64x2 $0x00, %zmm0, %zmm0, %zmm22
	vshufi64x2 $0x55, %zmm0, %zmm0, %zmm25
	vshufi64x2 $0x00, %zmm11, %zmm11, %zmm28
	vpaddq	%zmm28, %zmm25, %zmm25
	.irp i, 0,2,4,6,8,10,12,14,16,18
	I16_RED_ROW \i, %zmm22, %zmm23
	I16_RED_ROW (\i+1), %zmm23, %zmm22
	.endr
	I16_RED_ROW 20, %zmm22, %zmm23
.endm

/*
 * I16_FINISH: R_j (zmm j, j = 0..5) = result digits 21+4j..24+4j, digit
 * d = L[d] + H[d-1]: L_{5+j}, L_{6+j} moved down one digit (two lanes,
 * VALIGNQ) plus H_{5+j}; digit 21 (lane pair 0 of R_0) is X_21 (zmm23),
 * which already holds everything. Clobbers k1.
 */
.macro I16_FINISH
	valignq	$2, %zmm5, %zmm6, %zmm0
	vpaddq	%zmm16, %zmm0, %zmm0
	valignq	$2, %zmm6, %zmm7, %zmm1
	vpaddq	%zmm17, %zmm1, %zmm1
	valignq	$2, %zmm7, %zmm8, %zmm2
	vpaddq	%zmm18, %zmm2, %zmm2
	valignq	$2, %zmm8, %zmm9, %zmm3
	vpaddq	%zmm19, %zmm3, %zmm3
	valignq	$2, %zmm9, %zmm10, %zmm4
	vpaddq	%zmm20, %zmm4, %zmm4
	valignq	$2, %zmm10, %zmm31, %zmm5
	vpaddq	%zmm21, %zmm5, %zmm5
	kmovb	.Li16_m03(%rip), %k1
	vmovdqa64 %zmm23, %zmm0{%k1}
.endm

/*
 * I16_NORM: zmm0-5 (lanes below 2^60) to canonical digits. One pass moves
 * every lane's bits above 52 one digit (two lanes, VALIGNQ) up; lanes are
 * then below 2^52 + 2^8, so a lane overflows at most by one (G: lane >
 * 2^52-1) and a carry runs through lanes equal to 2^52-1 (P). G and P of
 * the 48 lanes go to general registers (unit j at bits 8j, the halves in
 * alternate bits), are split per half with PEXT (p at bits 0-23, q at
 * 32-55), the lanes taking a carry are ((G << 1) + P) ^ P, and PDEP puts
 * them back in lane order. The value is below 2^(52*21) per half, so
 * nothing leaves the top. Clobbers zmm10-15, k1-k6, rax, rdx, r8-r13.
 */
.macro I16_NORM
	.irp j, 0,1,2,3,4,5
	vpsrlq	$52, %zmm\j, %zmm1\j
	vpandq	%zmm30, %zmm\j, %zmm\j
	.endr
	valignq	$6, %zmm14, %zmm15, %zmm15
	valignq	$6, %zmm13, %zmm14, %zmm14
	valignq	$6, %zmm12, %zmm13, %zmm13
	valignq	$6, %zmm11, %zmm12, %zmm12
	valignq	$6, %zmm10, %zmm11, %zmm11
	valignq	$6, %zmm31, %zmm10, %zmm10
	.irp j, 0,1,2,3,4,5
	vpaddq	%zmm1\j, %zmm\j, %zmm\j
	.endr
	I16_NORM_MASK 6, %rax
	I16_NORM_MASK 0, %rdx
	lea	(%rdx, %rax, 2), %rax
	xor	%rdx, %rax
	pdep	%r15, %rax, %r8
	shr	$32, %rax
	not	%r15
	pdep	%r15, %rax, %r9
	not	%r15
	or	%r9, %r8
	kmovb	%r8d, %k1
	shr	$8, %r8
	kmovb	%r8d, %k2
	shr	$8, %r8
	kmovb	%r8d, %k3
	shr	$8, %r8
	kmovb	%r8d, %k4
	shr	$8, %r8
	kmovb	%r8d, %k5
	shr	$8, %r8
	kmovb	%r8d, %k6
	vpaddq	.Li16_one(%rip){1to8}, %zmm0, %zmm0{%k1}
	vpaddq	.Li16_one(%rip){1to8}, %zmm1, %zmm1{%k2}
	vpaddq	.Li16_one(%rip){1to8}, %zmm2, %zmm2{%k3}
	vpaddq	.Li16_one(%rip){1to8}, %zmm3, %zmm3{%k4}
	vpaddq	.Li16_one(%rip){1to8}, %zmm4, %zmm4{%k5}
	vpaddq	.Li16_one(%rip){1to8}, %zmm5, %zmm5{%k6}
	.irp j, 0,1,2,3,4,5
	vpandq	%zmm30, %zmm\j, %zmm\j
	.endr
.endm


/*
 * I16_NORM_MASK cmp, dst: dst = the lanes of zmm0-5 with
 * "lane cmp 2^52-1" (VPCMPUQ predicate 6: >, 0: ==) as a bit string per
 * half: p at bits 0-23, q at bits 32-55 (digit order; r15 selects half p,
 * its complement half q). Clobbers k1-k6, r8-r13.
 */
.macro I16_NORM_MASK cmp, dst
	vpcmpuq	$\cmp, %zmm30, %zmm0, %k1
	vpcmpuq	$\cmp, %zmm30, %zmm1, %k2
	vpcmpuq	$\cmp, %zmm30, %zmm2, %k3
	vpcmpuq	$\cmp, %zmm30, %zmm3, %k4
	vpcmpuq	$\cmp, %zmm30, %zmm4, %k5
	vpcmpuq	$\cmp, %zmm30, %zmm5, %k6
	kmovb	%k1, %r8d
	kmovb	%k2, %r9d
	kmovb	%k3, %r10d
	kmovb	%k4, %r11d
	kmovb	%k5, %r12d
	kmovb	%k6, %r13d
	shl	$8, %r9
	shl	$16, %r10
	shl	$24, %r11
	shl	$32, %r12
	shl	$40, %r13
	or	%r9, %r8
	or	%r11, %r10
	or	%r13, %r12
	or	%r10, %r8
	or	%r12, %r8
	pext	%r15, %r8, %r9
	not	%r15
	pext	%r15, %r8, \dst
	not	%r15
	shl	$32, \dst
	or	%r9, \dst
.endm

/*
 * I16_PROLOGUE / I16_EPILOGUE: save rbp, rbx, r12, r13, r15 (CFI), keep
 * the entry rsp in rbx, a 64-byte aligned frame of I16_FRAME bytes; set
 * zmm30 = 2^52 - 1, zmm31 = 0, r15 = half p's lane mask. The epilogue
 * ends with VZEROUPPER.
 */
.macro I16_PROLOGUE
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
	push	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r15, -48
	mov	%rsp, %rbx
	.cfi_def_cfa_register %rbx
	sub	$I16_FRAME, %rsp
	and	$-64, %rsp
	mov	$0xfffffffffffff, %rax
	vpbroadcastq %rax, %zmm30
	vpxorq	%zmm31, %zmm31, %zmm31
	mov	$0x555555555555, %r15
.endm

.macro I16_EPILOGUE
	vzeroupper
	mov	%rbx, %rsp
	.cfi_def_cfa_register %rsp
	pop	%r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r15
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
.endm

/* zero the accumulators L, H (zero idioms) */
.macro I16_ZERO
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21
	vpxorq	%zmm\n, %zmm\n, %zmm\n
	.endr
.endm

/*
 * void fc_bn_sqr52x2_n16_ifma(uint64_t *r, const uint64_t *a, size_t count,
 *                             const uint64_t *ctx);
 * r = a after count >= 1 AMM squarings (both halves), interleaved numbers
 * of 6 units. Each pass: a to the stack (the rows read it as memory
 * operands), the off-diagonal product, doubling and squares, reduction,
 * finish, normalization; the result stays in zmm0-5 for the next pass.
 * r may alias a (written at the end only).
 */
FC_FUNC_START(fc_bn_sqr52x2_n16_ifma)
	I16_PROLOGUE
	mov	%rdx, %rbp
	.irp j, 0,1,2,3,4,5
	vmovdqu64 (64*\j)(%rsi), %zmm\j
	.endr
.balign 32
1:
	/* a to the stack for the rows' memory operands; the first group's
	 * copies straight from the registers (no store forwarding) */
	.irp j, 0,1,2,3,4,5
	vmovdqa64 %zmm\j, (64*\j)(%rsp)
	.endr
	vmovdqa64 %zmm0, %zmm22
	vmovdqa64 %zmm1, %zmm23
	vmovdqa64 %zmm2, %zmm24
	vmovdqa64 %zmm3, %zmm25
	vmovdqa64 %zmm4, %zmm26
	vmovdqa64 %zmm5, %zmm27
	I16_ZERO
	kmovb	.Li16_mfc(%rip), %k1
	kmovb	.Li16_mc0(%rip), %k2
	kmovb	.Li16_m33(%rip), %k5
	I16_PROD_GROUP 0, 1, %rsp, %rsp, 1
	I16_PROD_GROUP 1, 1, %rsp, %rsp
	I16_PROD_GROUP 2, 1, %rsp, %rsp
	I16_PROD_GROUP 3, 1, %rsp, %rsp
	vmovdqa64 .Li16_didx(%rip), %zmm29
	vmovdqa64 .Li16_didx+64(%rip), %zmm27
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	I16_SQR_DIAG \j
	.endr
	I16_REDUCE
	I16_FINISH
	I16_NORM
	dec	%rbp
	jnz	1b
	.irp j, 0,1,2,3,4,5
	vmovdqu64 %zmm\j, (64*\j)(%rdi)
	.endr
	I16_EPILOGUE
FC_FUNC_END(fc_bn_sqr52x2_n16_ifma)

/*
 * void fc_bn_mul52x2_n16_ifma(uint64_t *r, const uint64_t *a,
 *                             const uint64_t *b, const uint64_t *ctx);
 * r = AMM(a, b) (both halves). a and b are read during the product only,
 * r is written at the end: r may alias a and/or b.
 */
FC_FUNC_START(fc_bn_mul52x2_n16_ifma)
	I16_PROLOGUE
	I16_ZERO
	I16_PROD_GROUP 0, 0, %rsi, %rdx
	I16_PROD_GROUP 1, 0, %rsi, %rdx
	I16_PROD_GROUP 2, 0, %rsi, %rdx
	I16_PROD_GROUP 3, 0, %rsi, %rdx
	I16_REDUCE
	I16_FINISH
	I16_NORM
	.irp j, 0,1,2,3,4,5
	vmovdqu64 %zmm\j, (64*\j)(%rdi)
	.endr
	I16_EPILOGUE
FC_FUNC_END(fc_bn_mul52x2_n16_ifma)

/*
 * void fc_bn_gather52x2_n16_ifma(uint64_t *out, const uint64_t *table,
 *                                size_t count, size_t idx_p, size_t idx_q);
 * out = half p of entry idx_p and half q of entry idx_q (entries of 6
 * units, 384 bytes), 1 <= count <= 64. Every entry is read in full; the
 * lane mask comes from comparing [idx_p, idx_q, ...] with the entry
 * number (.Li16_iota), so neither index reaches an address or a branch.
 * CT: only count leaks.
 *
 *   rdi out, rsi table (advancing), rdx count, rcx idx_p, r8 idx_q,
 *   rax entry number pointer; zmm0-5 result, zmm8 indices; k1, k2.
 */
FC_FUNC_START(fc_bn_gather52x2_n16_ifma)
	vpbroadcastq %rcx, %zmm8
	vpbroadcastq %r8, %zmm9
	kmovb	.Li16_maa(%rip), %k1
	vmovdqa64 %zmm9, %zmm8{%k1}
	.irp j, 0,1,2,3,4,5
	vpxorq	%zmm\j, %zmm\j, %zmm\j
	.endr
	lea	.Li16_iota(%rip), %rax
.balign 32
1:
	vpcmpeqq (%rax){1to8}, %zmm8, %k2
	.irp j, 0,1,2,3,4,5
	vpblendmq (64*\j)(%rsi), %zmm\j, %zmm\j{%k2}
	.endr
	add	$384, %rsi
	add	$8, %rax
	dec	%rdx
	jnz	1b
	.irp j, 0,1,2,3,4,5
	vmovdqu64 %zmm\j, (64*\j)(%rdi)
	.endr
	vzeroupper
	ret
FC_FUNC_END(fc_bn_gather52x2_n16_ifma)

FC_RODATA
.balign 64
.Li16_zero:
	.quad	0, 0, 0, 0, 0, 0, 0, 0
.Li16_didx:
	.quad	0, 1, 0, 1, 2, 3, 2, 3
	.quad	4, 5, 4, 5, 6, 7, 6, 7
.Li16_iota:
	.quad	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.quad	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	.quad	32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47
	.quad	48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63
.Li16_one:
	.quad	1
.Li16_mfc:
	.byte	0xfc
.Li16_mc0:
	.byte	0xc0
.Li16_m33:
	.byte	0x33
.Li16_m03:
	.byte	0x03
.Li16_maa:
	.byte	0xaa

FC_RODATA
.balign 8
.Lone:
	.quad	1

#endif /* __x86_64__ */
