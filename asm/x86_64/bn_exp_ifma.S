/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_exp_ifma.S - two independent Montgomery multiplications at once in
 * radix 2^52 with AVX-512 IFMA (VPMADD52LUQ/VPMADD52HUQ), for the two CRT
 * halves of an RSA private key, plus the matching constant-time gathers
 * from a window table. Driven by provider/core/bn_exp2.c through
 * rsa_engine_ifma.c.
 *
 * CPU features: AVX-512F, AVX-512DQ (KMOVB, VBROADCASTI64X2), AVX-512IFMA,
 * 512-bit registers (zmm0-zmm31, k1-k7), BMI2 (PEXT/PDEP in the
 * normalization).
 *
 * ABI: SysV AMD64. The multiplication kernels save and restore the
 * callee-saved registers they use (pushed; CFI describes them; rbx keeps
 * the entry rsp where there is an aligned frame). Every entry point ends
 * with VZEROUPPER.
 *
 One design at three sizes:
 *
 *   entry points                  n (64-bit limbs)  L   units  mode
 *   fc_bn_{sqr,mul}52x2_n16_ifma  16 (1024-bit)     21   6     m~'
 *   fc_bn_{sqr,mul}52x2_n24_ifma  24 (1536-bit)     31   8     m~'
 *   fc_bn_{sqr,mul}52x2_n32_ifma  32 (2048-bit)     41  11     m~'
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
 * ---- n24 / n32: the same design with the product in column blocks -----
 *
 * Layout, product, reduction and finish as n16, with L = 31 (8 units) and
 * L = 41 (11 units; 40 digits would hold 2048 bits, but the m~' bound
 * below needs 52 L >= 64 n + 55). The product has PU = 16 / 21 units, L
 * and H: 32 / 42 accumulators, more than there are registers, so:
 *
 * Product in column blocks: units [8, 16), [0, 8) (n24) and [14, 21),
 * [7, 14), [0, 7) (n32), highest first. A block holds its L and H units
 * in registers (16 / 14 accumulators) and, per row group v, the copies
 * AS_r (a moved up v digits) that its rows need in zmm18-28 (up to 11):
 * each row of the group adds lo/hi(AS_r * B_i) to the units u + r that
 * fall in the block. The blocks above the lowest go to the stack (one
 * store per unit, 16 / 28 per operation); the lowest stays in registers.
 * The cost of the blocks is the copies made again per block (VALIGNQ:
 * n24 ~60, n32 ~90 in all instead of ~30 / ~40) and the B broadcasts (a
 * load, one per row and block).
 *
 * Reduction with a sliding window: row i = 4u + v touches the units u to
 * u + (L - 1 + v) / 4 only, so W = 9 / 11 units (18 / 22 registers) are
 * live at any time: unit c lives in zmm<c mod W> (L) and zmm<W + c mod W>
 * (H); at the start of unit group u unit u + W - 1 is loaded from the
 * stack into the place of unit u - 1, which no row from 4u - 1 on reads
 * or writes. The chain and the rows are n16's (zmm22-28). The finish
 * reads the result from the window (Q = L / 4, S = L mod 4: VALIGNQ by S
 * digits of L, by S - 1 of H) and the normalization works on bit strings
 * of 32 / 44 lanes per half (two 64-bit words of lane masks for n32).
 *
 * Bounds: as n16 with R = 2^(52 L): inputs below B = 2^54 m give outputs
 * below B^2/R + m~ < 2^(108 + 2*64n - 52L) m + 2^53 m < B, i.e. 52 L >=
 * 64 n + 55 (1612 >= 1591, 2132 >= 2103); B fits L digits. A lane gets at
 * most L products below 2^52 from the product (squaring: fewer, doubled,
 * plus one square) and L from the reduction: below 2^59.
 *
 * Port-0/5 uops per pair operation (the IFMAs, VALIGNQ/VPERMQ/
 * VSHUFI64X2, adds and shifts, normalization; as counted for n16):
 *                 IFMAs   p0/p5 uops   bound (cycles, 2 per cycle)
 *   n16 squaring   422      680          340
 *   n16 product    510      729          365
 *   n24 squaring   853     1247          624
 *   n24 product   1061     1432          716
 *   n32 squaring  1437     1963          982
 *   n32 product   1815     2322         1161
 * (n24: 31 chain IFMAs, ~480 reduction, ~340 product and squares.)
 *
 * ---- normalization (every size) --------------------------------------
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
 * side by side, the design n24/n32 used before; 1.00 = ~600 cycles),
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
 * n24/n32, per pair of exponentiations with 64n-bit exponents (window 5:
 * ~1550 squarings + ~320 products at n24, ~2060 + ~425 at n32;
 * bench/fc_bn_bench, 41 interleaved samples, min core cycles, core
 * ~3.77 GHz, OpenSSL 3.0.19 beside; loaded machine):
 *                      this design        former side-by-side AMM
 *   n24 (RSA-3072)     1.50-1.68 M cyc    2.15 M cyc       0.75x
 *   n32 (RSA-4096)     3.34-3.39 M cyc    4.58 M cyc       0.72x
 * i.e. ~1.3x the port-0/5 bound of the kernels' uops (n24 1.20 M, n32
 * 2.52 M; n16 in the same runs 0.58 M against 0.43 M), the same fraction
 * as n16: the gathers (~3%), the chain's latency at the unit-group
 * loads, and the product blocks' stores take the rest. Median us per
 * pair: n16 177, n24 451-481, n32 904-944 (OpenSSL 3.0.19's
 * BN_mod_exp_mont_consttime_x2: 257, 1705, 3682).
 * RSA sign/s against the default provider (scripts/bench.sh --only rsa,
 * 3 interleaved rounds of 2 s, quiet machine, median (range)):
 *                      OpenSSL 3.0.19       OpenSSL 3.6.3 (its own IFMA)
 *   RSA-2048           1.63x (1.56-1.63)    1.61x (1.56-1.61)
 *   RSA-3072           3.33x (3.22-3.38)    1.69x (1.66-1.70)
 *   RSA-4096           3.71x (3.71-3.83)    1.72x (1.68-1.74)
 *
 * Considered for n24/n32 (not built): the former design (one row at a
 * time) reaches its latency floor per row (~33 cycles for both halves at
 * n24); merged product and reduction rows (operand scanning) would lose
 * the squaring's halved product (~240 IFMAs at n24). Column blocks for
 * the product and a sliding window for the reduction keep n16's uop mix
 * with ~30 extra VALIGNQs and the stores of the upper blocks.
 */
#include "fc_asm.h"

#if defined(__x86_64__)


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

/* ---- n24 / n32: the n16 design at 8 and 11 units ----------------------
 *
 * See the file header ("n24 / n32") for the design; the macros below are
 * parameterised by the kernel's constants, set before each kernel:
 *   IU_NU  units per number (8, 11)        IU_L   digits (31, 41)
 *   IU_PU  units of the product (16, 21)   IU_W   window units (9, 11)
 *   IU_Q, IU_S  L = 4 IU_Q + IU_S (the result's first unit and lane pair)
 *
 * Register table:
 *   zmm<c mod W>, zmm<W + c mod W>  L and H of product unit c while it is
 *             in the window (reduction, finish); in a product block
 *             [c0, c1): L at zmm<c - c0>, H at zmm<W + c - c0>
 *   zmm18-28  product: the shifted copies AS_r (zmm 18 + r) of a
 *   zmm29     product: the row multiplier B; squares: the spread digits
 *   zmm22-28  reduction: X (22/23 alternating), S (24), V (25), m~'_1
 *             (26), one MS unit (27), extraction temp (28)
 *   zmm30     2^52 - 1 (product of a squaring: the VPERMQ index for even
 *             units)
 *   zmm31     zero (product of a squaring: the index for odd units)
 *   k1, k2, k5  squaring: pairs t > 0, t > 2 of a row's first unit, the
 *             squares' lane pairs; normalization: k1
 *   rdi r, rsi a (squaring: the previous pass's r), rdx b (mul) / count
 *   (sqr, moved to rbp), rcx ctx, rbx entry rsp, rax, rdx, r8-r14
 *   normalization, r15 half p's lane mask (0x5555...).
 * Frame: the product units c >= c1 of the low block, L at 64c, H at
 * 64(PU + c) (64-byte aligned).
 */

/*
 * IU_Z3 op, s1, s2, d, k: "op %zmm<s1>, %zmm<s2>, %zmm<d>{%k<k>}" with
 * s1, s2, d assembly-time expressions in 0..31 and k in 0 (no mask), 1,
 * 2, 5. IU_M3: the same with the first operand a text (memory, %zmm
 * name). op may carry an immediate ("valignq $6,").
 */
.macro IU_Z3 op, s1, s2, d, k=0
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.if (\s1) == \n
	IU_M3	"\op", %zmm\n, \s2, \d, \k
	.endif
	.endr
.endm

.macro IU_M3 op, t1, s2, d, k=0
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.if (\s2) == \n
	IU_MM3	"\op", \t1, %zmm\n, \d, \k
	.endif
	.endr
.endm

.macro IU_MM3 op, t1, t2, d, k
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.if (\d) == \n
	.if (\k) == 0
	\op	\t1, \t2, %zmm\n
	.elseif (\k) == 1
	\op	\t1, \t2, %zmm\n{%k1}
	.elseif (\k) == 2
	\op	\t1, \t2, %zmm\n{%k2}
	.else
	\op	\t1, \t2, %zmm\n{%k5}
	.endif
	.endif
	.endr
.endm

/* IU_T pre, d, post: "pre %zmm<d>post" (quoted pre/post), d in 0..31 */
.macro IU_T pre, d, post
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.if (\d) == \n
	\pre	%zmm\n\post
	.endif
	.endr
.endm

/* IU_T2 pre, d: "pre %zmm<d>, %zmm<d>"; IU_T3 op, d: "op" on d, d, d */
.macro IU_T2 pre, d, post=""
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.if (\d) == \n
	\pre	%zmm\n, %zmm\n\post
	.endif
	.endr
.endm

.macro IU_T3 op, d
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.if (\d) == \n
	\op	%zmm\n, %zmm\n, %zmm\n
	.endif
	.endr
.endm

/*
 * IU_LIVE u, v, r, c0, c1, sq: _lv = row i = 4u + v of the product has
 * digits of the copy AS_r (digits j = 4r + t - v) that count, in a unit
 * u + r of the block [c0, c1); _lpi = i, _lpl = 4r - v. sq: only j > i.
 */
.macro IU_LIVE u, v, r, c0, c1, sq
	.set	_lpi, 4*(\u) + (\v)
	.set	_lpl, 4*(\r) - (\v)
	.set	_lv, (_lpi <= IU_L - 1) && (_lpl <= IU_L - 1) && ((\u) + (\r) >= (\c0)) && ((\u) + (\r) < (\c1))
	.if \sq
	.set	_lv, _lv && (_lpl + 3 > _lpi)
	.endif
.endm

/*
 * IU_PROD_V v, c0, c1, sq, ab, bb: the rows i = v (mod 4) of the product
 * block [c0, c1): the copies AS_r = a moved up v digits that the block
 * needs (VALIGNQ over units r-1 and r of a; unit -1 and units from NU on
 * are zero), then per row B = the digit pair i of b (VBROADCASTI64X2) and
 * for every live r: L_{u+r} += lo(AS_r B), H_{u+r} += hi(AS_r B), masked
 * on the diagonal unit of a squaring (k1: t > 0, k2: t > 2).
 */
.macro IU_PROD_V v, c0, c1, sq, ab, bb
	.irp r, 0,1,2,3,4,5,6,7,8,9,10
	.set	_need, 0
	.irp u, 0,1,2,3,4,5,6,7,8,9,10
	IU_LIVE	\u, \v, \r, \c0, \c1, \sq
	.if _lv
	.set	_need, 1
	.endif
	.endr
	.if _need
	.if \r < IU_NU
	IU_T	"vmovdqu64 (64*\r)(\ab),", 18+\r, ""
	.else
	IU_T3	vpxorq, 18+\r
	.endif
	.if \v
	.if \r
	IU_T2	"valignq $(8-2*\v), (64*(\r-1))(\ab),", 18+\r
	.else
	IU_T2	"valignq $(8-2*\v), .Li16_zero(%rip),", 18
	.endif
	.endif
	.endif
	.endr
	.irp u, 0,1,2,3,4,5,6,7,8,9,10
	.set	_any, 0
	.irp r, 0,1,2,3,4,5,6,7,8,9,10
	IU_LIVE	\u, \v, \r, \c0, \c1, \sq
	.if _lv
	.set	_any, 1
	.endif
	.endr
	.if _any
	vbroadcasti64x2 (64*\u + 16*\v)(\bb), %zmm29
	.irp r, 0,1,2,3,4,5,6,7,8,9,10
	IU_LIVE	\u, \v, \r, \c0, \c1, \sq
	.if _lv
	.set	_pk, 0
	.if \sq && (_lpl <= _lpi)
	.set	_pk, 1 + ((_lpi - _lpl) >> 1)
	.endif
	IU_Z3	vpmadd52luq, 18+\r, 29, \u+\r-\c0, _pk
	IU_Z3	vpmadd52huq, 18+\r, 29, IU_W+\u+\r-\c0, _pk
	.endif
	.endr
	.endif
	.endr
.endm

/*
 * IU_PROD_BLOCK c0, c1, sq, ab, bb, keep: units [c0, c1) of the product
 * of a (at ab) and b (at bb): zeroed accumulators, the four row groups,
 * then for a squaring the doubling and the squares (I16_SQR_DIAG's method:
 * digits 2c, 2c+1 spread to lane pairs 0 and 2 by VPERMQ, index zmm30 for
 * even c, zmm31 for odd c; lo into L_c, hi into H_c, mask k5). keep = 0:
 * the block goes to the frame (L at 64c, H at 64(PU + c)); keep = 1 (the
 * low block, c0 = 0): it stays where the reduction's window wants it.
 */
.macro IU_PROD_BLOCK c0, c1, sq, ab, bb, keep
	.irp c, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20
	.if (\c >= \c0) && (\c < \c1)
	IU_T3	vpxorq, \c-\c0
	IU_T3	vpxorq, IU_W+\c-\c0
	.endif
	.endr
	.irp v, 0,1,2,3
	IU_PROD_V \v, \c0, \c1, \sq, \ab, \bb
	.endr
	.irp c, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20
	.if (\c >= \c0) && (\c < \c1)
	.if \sq
	IU_T3	vpaddq, \c-\c0
	IU_T3	vpaddq, IU_W+\c-\c0
	.if ((\c >> 1) < IU_NU) && (2*\c < IU_L)
	.if \c & 1
	vpermq	(64*(\c>>1))(\ab), %zmm31, %zmm29
	.else
	vpermq	(64*(\c>>1))(\ab), %zmm30, %zmm29
	.endif
	IU_Z3	vpmadd52luq, 29, 29, \c-\c0, 5
	IU_Z3	vpmadd52huq, 29, 29, IU_W+\c-\c0, 5
	.endif
	.endif
	.if \keep == 0
	IU_T	"vmovdqa64", \c-\c0, ", (64*\c)(%rsp)"
	IU_T	"vmovdqa64", IU_W+\c-\c0, ", (64*(IU_PU+\c))(%rsp)"
	.endif
	.endif
	.endr
.endm

/*
 * IU_PRODUCT sq, ab, bb, b1, b2: the whole product in blocks [b2, PU),
 * [b1, b2), [0, b1) (b2 = PU: two blocks), highest first, the low block
 * kept in registers; then zmm30/31 back to 2^52 - 1 and zero, and the
 * window's other units [b1, W) loaded from the frame.
 */
.macro IU_PRODUCT sq, ab, bb, b1, b2
	.if \sq
	kmovb	.Li16_mfc(%rip), %k1
	kmovb	.Li16_mc0(%rip), %k2
	kmovb	.Li16_m33(%rip), %k5
	vmovdqa64 .Li16_didx(%rip), %zmm30
	vmovdqa64 .Li16_didx+64(%rip), %zmm31
	.endif
	.if \b2 < IU_PU
	IU_PROD_BLOCK \b2, IU_PU, \sq, \ab, \bb, 0
	.endif
	IU_PROD_BLOCK \b1, \b2, \sq, \ab, \bb, 0
	IU_PROD_BLOCK 0, \b1, \sq, \ab, \bb, 1
	vpbroadcastq .Liu_m52(%rip), %zmm30
	vpxorq	%zmm31, %zmm31, %zmm31
	.irp c, 0,1,2,3,4,5,6,7,8,9,10
	.if (\c >= \b1) && (\c < IU_W)
	IU_T	"vmovdqa64 (64*\c)(%rsp),", \c, ""
	IU_T	"vmovdqa64 (64*(IU_PU+\c))(%rsp),", IU_W+\c, ""
	.endif
	.endr
.endm

/*
 * IU_RED_ROW i, xi, xn: reduction row i, as I16_RED_ROW with the window:
 * unit c in zmm<c mod W> (L) and zmm<W + c mod W> (H). At the start of a
 * unit group (i = 4u, u >= 1) unit u + W - 1 comes from the frame into
 * the place of unit u - 1, which no row from 4u - 1 on touches. MS_v[r]
 * at ctx + 64(W v + r), m~'_1 at ctx + 256 W.
 */
.macro IU_RED_ROW i, xi, xn
	.set	_ru, (\i) >> 2
	.set	_rv, (\i) & 3
	.if (_rv == 0) && (_ru >= 1) && (_ru + IU_W - 1 < IU_PU)
	.set	_rnl, (_ru + IU_W - 1) % IU_W
	.set	_rnh, IU_W + _rnl
	IU_T	"vmovdqa64 (64*(_ru+IU_W-1))(%rsp),", _rnl, ""
	IU_T	"vmovdqa64 (64*(IU_PU+_ru+IU_W-1))(%rsp),", _rnh, ""
	.endif
	vpxorq	\xn, \xn, \xn
	vpmadd52luq %zmm26, \xi, \xn
	vpsrlq	$52, \xi, %zmm24
	vpaddq	%zmm25, %zmm24, %zmm24
	vpaddq	%zmm24, \xn, \xn
	.irp r, 0,1,2,3,4,5,6,7,8,9,10
	.if \r < IU_W
	.set	_rl, 4*\r - _rv		/* m~ digit in lane pair 0 of MS_v[r] */
	.set	_rlo, (_rl + 3 >= 2) && (_rl <= IU_L - 1) && (_ru + \r < IU_PU)
	.set	_rhi, (_rl + 3 >= 1) && (_rl <= IU_L - 1) && (_ru + \r < IU_PU)
	.set	_rc, (_ru + \r) % IU_W
	.set	_rch, IU_W + _rc
	.if _rlo && _rhi
	vmovdqa64 (64*(IU_W*_rv + \r))(%rcx), %zmm27
	IU_MM3	vpmadd52luq, %zmm27, \xi, _rc, 0
	IU_MM3	vpmadd52huq, %zmm27, \xi, _rch, 0
	.elseif _rlo
	IU_MM3	vpmadd52luq, (64*(IU_W*_rv+\r))(%rcx), \xi, _rc, 0
	.elseif _rhi
	IU_MM3	vpmadd52huq, (64*(IU_W*_rv+\r))(%rcx), \xi, _rch, 0
	.endif
	.endif
	.endr
	.if (\i) <= IU_L - 2
	.set	_rwl, (((\i)+2)>>2) % IU_W
	.set	_rwh, IU_W + ((((\i)+1)>>2) % IU_W)
	IU_T2	"vshufi64x2 $(0x55*(((\i)+2)&3)),", _rwl, ", %zmm25"
	IU_T2	"vshufi64x2 $(0x55*(((\i)+1)&3)),", _rwh, ", %zmm28"
	vpaddq	%zmm28, %zmm25, %zmm25
	.endif
.endm

/*
 * IU_REDUCE: the L reduction rows from the product in the window, X_0 =
 * L[0], V_1 = L[1] + H[0]; X alternates between zmm22 and zmm23 and X_L
 * ends in zmm23 (L odd).
 */
.macro IU_REDUCE
	.if (IU_L & 1) == 0
	.error "IU_REDUCE: L must be odd"
	.endif
	vmovdqa64 (256*IU_W)(%rcx), %zmm26
	vshufi64x2 $0x00, %zmm0, %zmm0, %zmm22
	vshufi64x2 $0x55, %zmm0, %zmm0, %zmm25
	IU_T2	"vshufi64x2 $0x00,", IU_W, ", %zmm28"
	vpaddq	%zmm28, %zmm25, %zmm25
	.set	_ri, 0
	.rept	(IU_L - 1) / 2
	IU_RED_ROW _ri, %zmm22, %zmm23
	IU_RED_ROW _ri+1, %zmm23, %zmm22
	.set	_ri, _ri + 2
	.endr
	IU_RED_ROW _ri, %zmm22, %zmm23
.endm

/*
 * IU_FINISH: result unit j (digits L + 4j .. L + 4j + 3; digit d = L[d] +
 * H[d-1]) into zmm<(Q + j) mod W>, the L place of unit Q + j: L units
 * Q + j, Q + j + 1 moved down S digits (VALIGNQ), plus H units moved down
 * S - 1 digits (into the H place of unit Q + j); unit PU reads as zero.
 * Digit L (lane pair 0 of unit 0) is X_L (zmm23). Clobbers k1.
 */
.macro IU_FINISH
	.if IU_S == 0
	.error "IU_FINISH: L = 4Q + S with S > 0"
	.endif
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < IU_NU
	.set	_fa, (IU_Q + \j) % IU_W
	.set	_fah, IU_W + _fa
	.if IU_Q + \j + 1 < IU_PU
	.set	_fb, (IU_Q + \j + 1) % IU_W
	.set	_fbh, IU_W + _fb
	.else
	.set	_fb, 31
	.set	_fbh, 31
	.endif
	IU_Z3	"valignq $(2*IU_S),", _fa, _fb, _fa
	.if IU_S > 1
	IU_Z3	"valignq $(2*IU_S-2),", _fah, _fbh, _fah
	.endif
	IU_Z3	vpaddq, _fah, _fa, _fa
	.endif
	.endr
	kmovb	.Li16_m03(%rip), %k1
	.set	_fa, IU_Q % IU_W
	IU_T	"vmovdqa64 %zmm23,", _fa, "{%k1}"
.endm

/*
 * IU_NMASK cmp, lo, hi: lo (units 0-7) and hi (units 8-) = the lanes of
 * the result units with "lane cmp 2^52-1" (VPCMPUQ 6: >, 0: ==), unit j
 * at bits 8(j mod 8). Clobbers k1, rax.
 */
.macro IU_NMASK cmp, lo, hi
	xor	\lo, \lo
	xor	\hi, \hi
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < IU_NU
	.set	_nr, (IU_Q + \j) % IU_W
	IU_T	"vpcmpuq $\cmp, %zmm30,", _nr, ", %k1"
	kmovb	%k1, %eax
	.if \j & 7
	shl	$(8*(\j & 7)), %rax
	.endif
	.if \j < 8
	or	%rax, \lo
	.else
	or	%rax, \hi
	.endif
	.endif
	.endr
.endm

/*
 * IU_NSPLIT lo, hi, dst: dst = the bits of half p (r15 = 0x5555...: even
 * bits; ~r15: half q) of lo at 0-31 and of hi at 32-63. Clobbers rax.
 */
.macro IU_NSPLIT lo, hi, dst
	pext	%r15, \lo, \dst
	.if IU_NU > 8
	pext	%r15, \hi, %rax
	shl	$32, %rax
	or	%rax, \dst
	.endif
.endm

/*
 * IU_NORM: the result units (lanes below 2^60) to canonical digits, as
 * I16_NORM: one pass moves every lane's bits above 52 one digit up
 * (carries in the H places, zmm<W + (Q + j) mod W>), then the carry
 * lookahead per half on bit strings of up to 44 lanes: G, P split per
 * half (PEXT), carry-in lanes ((G << 1) + P) ^ P, put back (PDEP), +1 and
 * masked to 52 bits. The value is below 2^(52 L): nothing leaves the top.
 * Clobbers zmm<W..2W-1>, k1, rax, rdx, r8-r14.
 */
.macro IU_NORM
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < IU_NU
	.set	_na, (IU_Q + \j) % IU_W
	.set	_nc, IU_W + _na
	IU_M3	vpsrlq, $52, _na, _nc
	IU_M3	vpandq, %zmm30, _na, _na
	.endif
	.endr
	.irp j, 10,9,8,7,6,5,4,3,2,1,0
	.if \j < IU_NU
	.set	_nc, IU_W + ((IU_Q + \j) % IU_W)
	.if \j
	.set	_nb, IU_W + ((IU_Q + \j - 1) % IU_W)
	.else
	.set	_nb, 31
	.endif
	IU_Z3	"valignq $6,", _nb, _nc, _nc
	.endif
	.endr
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < IU_NU
	.set	_na, (IU_Q + \j) % IU_W
	.set	_nc, IU_W + _na
	IU_Z3	vpaddq, _nc, _na, _na
	.endif
	.endr
	IU_NMASK 6, %r8, %r9
	IU_NMASK 0, %r10, %r11
	IU_NSPLIT %r8, %r9, %r12	/* G of p */
	IU_NSPLIT %r10, %r11, %r14	/* P of p */
	not	%r15
	IU_NSPLIT %r8, %r9, %r13	/* G of q */
	IU_NSPLIT %r10, %r11, %rdx	/* P of q */
	not	%r15
	lea	(%r14, %r12, 2), %r12
	xor	%r14, %r12		/* carry-in lanes of p */
	lea	(%rdx, %r13, 2), %r13
	xor	%rdx, %r13		/* of q */
	pdep	%r15, %r12, %r8
	.if IU_NU > 8
	shr	$32, %r12
	pdep	%r15, %r12, %r9
	.endif
	not	%r15
	pdep	%r15, %r13, %rax
	or	%rax, %r8
	.if IU_NU > 8
	shr	$32, %r13
	pdep	%r15, %r13, %rax
	or	%rax, %r9
	.endif
	not	%r15
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < IU_NU
	.set	_na, (IU_Q + \j) % IU_W
	.if \j < 8
	mov	%r8, %rax
	.else
	mov	%r9, %rax
	.endif
	.if \j & 7
	shr	$(8*(\j & 7)), %rax
	.endif
	kmovb	%eax, %k1
	IU_T2	"vpaddq .Li16_one(%rip){1to8},", _na, "{%k1}"
	IU_M3	vpandq, %zmm30, _na, _na
	.endif
	.endr
.endm

/*
 * IU_PROLOGUE / IU_EPILOGUE: save rbp, rbx, r12-r15 (CFI), keep the entry
 * rsp in rbx, a 64-byte aligned frame for the product (2 PU units); zmm30
 * = 2^52 - 1, zmm31 = 0, r15 = half p's lane mask. The epilogue ends with
 * VZEROUPPER.
 */
.macro IU_PROLOGUE
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
	mov	%rsp, %rbx
	.cfi_def_cfa_register %rbx
	sub	$(128*IU_PU), %rsp
	and	$-64, %rsp
	vpbroadcastq .Liu_m52(%rip), %zmm30
	vpxorq	%zmm31, %zmm31, %zmm31
	mov	$0x5555555555555555, %r15
.endm

.macro IU_EPILOGUE
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
.endm

/* IU_STORE: the result units to r (rdi) */
.macro IU_STORE
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < IU_NU
	.set	_na, (IU_Q + \j) % IU_W
	IU_T	"vmovdqu64", _na, ", (64*\j)(%rdi)"
	.endif
	.endr
.endm

/*
 * IU_KERNELS sqr, mul, b1, b2: the two kernels of one size (IU_* set):
 *   void sqr(uint64_t *r, const uint64_t *a, size_t count,
 *            const uint64_t *ctx);   r = a after count >= 1 AMM squarings
 *   void mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
 *            const uint64_t *ctx);   r = AMM(a, b)
 * b1, b2: the product's block bounds (IU_PRODUCT). A squaring pass reads
 * a (the first) or r (the later ones) and writes r at its end; r may
 * alias a and/or b.
 */
.macro IU_KERNELS sqr, mul, b1, b2
FC_FUNC_START(\sqr)
	IU_PROLOGUE
	mov	%rdx, %rbp
.balign 32
1:
	IU_PRODUCT 1, %rsi, %rsi, \b1, \b2
	IU_REDUCE
	IU_FINISH
	IU_NORM
	IU_STORE
	mov	%rdi, %rsi
	dec	%rbp
	jnz	1b
	IU_EPILOGUE
FC_FUNC_END(\sqr)

FC_FUNC_START(\mul)
	IU_PROLOGUE
	IU_PRODUCT 0, %rsi, %rdx, \b1, \b2
	IU_REDUCE
	IU_FINISH
	IU_NORM
	IU_STORE
	IU_EPILOGUE
FC_FUNC_END(\mul)
.endm

/*
 * IU_GATHER name, nu: as fc_bn_gather52x2_n16_ifma for entries of nu
 * units (64 nu bytes), 1 <= count <= 64: every entry read in full, the
 * lanes picked by comparing [idx_p, idx_q, ...] (zmm30) with the entry
 * number. CT: only count leaks.
 */
.macro IU_GATHER name, nu
FC_FUNC_START(\name)
	vpbroadcastq %rcx, %zmm30
	vpbroadcastq %r8, %zmm31
	kmovb	.Li16_maa(%rip), %k1
	vmovdqa64 %zmm31, %zmm30{%k1}
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < \nu
	vpxorq	%zmm\j, %zmm\j, %zmm\j
	.endif
	.endr
	lea	.Li16_iota(%rip), %rax
.balign 32
1:
	vpcmpeqq (%rax){1to8}, %zmm30, %k2
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < \nu
	vpblendmq (64*\j)(%rsi), %zmm\j, %zmm\j{%k2}
	.endif
	.endr
	add	$(64*\nu), %rsi
	add	$8, %rax
	dec	%rdx
	jnz	1b
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < \nu
	vmovdqu64 %zmm\j, (64*\j)(%rdi)
	.endif
	.endr
	vzeroupper
	ret
FC_FUNC_END(\name)
.endm

/* n24: 31 digits, 8 units; blocks [8, 16), [0, 8); window 9 units */
.set	IU_NU, 8
.set	IU_L, 31
.set	IU_PU, 16
.set	IU_W, 9
.set	IU_Q, 7
.set	IU_S, 3
IU_KERNELS fc_bn_sqr52x2_n24_ifma, fc_bn_mul52x2_n24_ifma, 8, 16
IU_GATHER fc_bn_gather52x2_n24_ifma, 8

/* n32: 41 digits, 11 units; blocks [14, 21), [7, 14), [0, 7); window 11 */
.set	IU_NU, 11
.set	IU_L, 41
.set	IU_PU, 21
.set	IU_W, 11
.set	IU_Q, 10
.set	IU_S, 1
IU_KERNELS fc_bn_sqr52x2_n32_ifma, fc_bn_mul52x2_n32_ifma, 7, 14
IU_GATHER fc_bn_gather52x2_n32_ifma, 11

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
.balign 8
.Liu_m52:
	.quad	0xfffffffffffff


#endif /* __x86_64__ */
