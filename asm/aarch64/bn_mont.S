/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_mont.S - Montgomery multiplication and squaring with MUL/UMULH for the
 * RSA modular exponentiation on arm64.
 *
 * CPU features: ARMv8.0-A base integer instructions only (MUL, UMULH,
 * ADDS/ADCS/SBCS, EXTR, CSEL). No vector registers are touched, so the
 * kernels need no capability bit (required_caps 0).
 *
 * ABI: AAPCS64. Both entry points save and restore the callee-saved
 * registers they use (x19-x28) and build a frame record in x29; x18 (the
 * platform register) is never touched; sp stays 16-byte aligned. LR is
 * stored in the frame record (for frame-pointer unwinders) but never
 * reloaded, so no PAC signing is needed. The frame (128 bytes) also holds
 * r, n, m and m0inv, spilled on entry so that 28 registers are free for
 * the rows. Scratch lives on the stack: 16n + 128 bytes, at most 2176
 * bytes for n = FC_BN_MAX_LIMBS = 128, below one page: no stack probing.
 *
 *   void fc_bn_mul_mont_arm64(uint64_t *r, const uint64_t *a,
 *                             const uint64_t *b, const uint64_t *m,
 *                             uint64_t m0inv, size_t n);
 *   void fc_bn_sqr_mont_arm64(uint64_t *r, const uint64_t *a,
 *                             const uint64_t *m, uint64_t m0inv, size_t n);
 *
 * Contract (fc/bn.h): r = a*b*R^-1 mod m (or a*a*R^-1 mod m), R = 2^(64n),
 * a, b in [0, m), m odd with a nonzero top limb, m0inv = -m^-1 mod 2^64,
 * n % 4 == 0 and n >= 4 (the table asks for n >= 8, see bn_mont.c). r may
 * alias a and/or b. Output fully reduced.
 *
 * Math. Limbs are 64 bits, least significant first. Both kernels first form
 * the full 2n-limb product T = a*b (or a*a) in the stack scratch, then run
 * n word-by-word Montgomery reduction rows:
 *
 *   row i:  q_i = T[i] * m0inv mod 2^64;  T[i..i+n-1] += q_i * m.
 *
 * T[i] becomes 0, so row i+1 sees the final value of T[i+1]. The carry
 * word out of row i, X_i, belongs at position i+n; it is parked in the dead
 * word T[i] (no q_j with j < n ever depends on a position >= n) and all X_i
 * are added in one pass at the end: U = T[n..2n-1] + X[0..n-1], carry c.
 *
 * Rows and the two carry chains. Every row is T[p..p+L-1] += w * X[0..L-1]
 * for one word w, done in chunks of k <= 8 limbs (CHUNK; GROUP4 and GROUP8
 * in the looped rows). A chunk computes hi_j = UMULH and lo_j = MUL of its
 * limbs, then runs two ADDS/ADCS chains one after the other: chain A adds
 * lo_0..lo_(k-1) at positions 0..k-1, chain B adds the incoming carry word
 * cw at position 0 and hi_0..hi_(k-2) at positions 1..k-1. Each chain is
 * closed inside the chunk rather than held in the single carry flag:
 * chain A's carry is folded into hi_(k-1) (ADC; a high word is <= 2^64 -
 * 2, so +1 cannot wrap), and chain B ends with cw' = hi_(k-1) + C (ADC).
 * Chain B starts only when chain A is done, but chain A of the next chunk
 * does not wait for chain B (the flags are renamed). One product costs
 * MUL + UMULH + 2 + 2/k flag-setting adds: 2.25 for k = 8 (2.5 for the
 * 4-limb groups of the first version of this file).
 * Carry bound: a chunk adds w * x (x k limbs) and cw (1 limb) to k limbs
 * of T: (2^64k - 1) + (2^64 - 1) + (2^64 - 1)(2^64k - 1) = 2^(64k+64) - 1,
 * so the result fits in k limbs plus the one word cw': hi_(k-1) + both
 * carries never wraps. The same bound makes every row's final cw the exact
 * carry word.
 * Shortcuts: (1) a reduction row's lo(q_i m_0) is -T[i] mod 2^64 by the
 * choice of q_i, so T[i] + lo is 0 with carry T[i] != 0: the fixed-size
 * reduction rows skip that MUL and start chain A with CMP T[i], #1 (C set
 * iff T[i] >= 1); the word they store at T[i] is junk that X_i overwrites.
 * (2) In the fixed-size paths the first product row (and the squaring's
 * first cross row) write into a T nobody has written: chain A vanishes
 * (fresh), and T needs no zeroing.
 *
 * Bounds and the final subtraction: after reduction, (T + sum q_i m
 * 2^(64i)) / R = U + c R < (m^2 + R m) / R < 2m, so one conditional
 * subtraction, after the last row, reduces fully: D = U - m with the
 * borrow chained through c (SBCS); the result is U if c = 0 and the chain
 * borrowed, else D (c = 1 forces the borrow out of U - m, since U + R < 2m
 * means U - m < m - R < 0). The choice is CSEL on the final carry flag,
 * limb by limb, never a branch. At n = 16 the three passes run unrolled
 * in 16 registers (FIN16); their three flag chains are separate flag
 * versions, so they overlap.
 *
 * Squaring: the cross products a_i a_j (i < j) are accumulated once (row r
 * adds a_r * a[r+1..n-1] at position 2r+1), then one pass doubles T with
 * EXTR (no flags: (T[k] << 1) | (T[k-1] >> 63)) while one ADCS chain adds
 * the squares a_i^2 at positions 2i, 2i+1: n(n-1)/2 + n products instead
 * of n^2 (the design of armv8-mont's sqr8x path, written afresh). The
 * cross sum is < a^2 / 2 < 2^(128n-1), so the doubling never overflows 2n
 * limbs. The reduction is the multiplication's.
 *
 * Paths, chosen by n alone. n = 16, 24, 32 (the CRT halves of RSA-2048,
 * -3072, -4096): every row at fixed offsets from a, m and sp, no pointer
 * or counter updates inside a row; the product rows two per trip, the
 * reduction rows four per trip; the squaring's cross rows and doubling
 * trips fully unrolled (recursive macros: a row of L limbs is one CHUNK
 * of L % 8 limbs, then CHUNK 8s). Any other n: looped rows (ROW_BODY:
 * one GROUP4 if n/4 is odd, then GROUP8s; squaring rows in blocks of four
 * with 1-3 head limbs). Code size: 39.8 KB of text; the paths of one size
 * (mul and sqr, the reduction shared) are 6.9 KB at n = 16 and 18.9 KB at
 * n = 32 (the unrolled squaring 16 KB), within the 64 KB L1 instruction
 * caches of the Neoverse cores.
 *
 * Aliasing: a and b are only read while forming T; r is written only in
 * the final selection pass, after every read of a, b and m, so r may alias
 * any of them. What is left in the scratch after return is U and U - m,
 * i.e. the result or the result +/- m: nothing the caller does not hold.
 *
 * Constant time: branches and addresses depend on n only (path choice,
 * loop counts and row offsets). MUL, UMULH, ADDS/ADCS/SBCS, CMP, EXTR and
 * CSEL are in the Armv8.4 DIT list of data-independent-timing
 * instructions and have fixed latency on the cores below; the kernels do
 * not set PSTATE.DIT.
 *
 * Design. No arm64 machine has run this file: the kernels were developed
 * and verified under qemu-user, where timing means nothing, and tuned
 * against llvm-mca 19.1.7's scheduling models (scripts/arm64_model.sh:
 * the whole call, traced under qemu; not measurements).
 *
 *   core (model)  | MUL/UMULH      | integer pipes (of which multiply)
 *   Neoverse N1   | 1 per 3 cycles | 3 (1, not pipelined)
 *   V1, V2, N2    | 2 per cycle    | 4 (2: M0, M1 also take ALU ops)
 *   Ampere1       | 1 per cycle    | 4-wide dispatch
 *
 * - On V1 and N2 the bound is integer issue: every MUL, UMULH, ADDS/ADCS
 *   and pointer update takes one of 4 integer pipes. The first version
 *   (4-limb groups, every row looped: 28 instructions per 4 products,
 *   7 integer micro-ops per product) ran at 0.80-0.90x armv8-mont there.
 *   8-limb chunks, fixed offsets (no XP/TP/CNT updates), the q_i
 *   shortcut and the unrolled final passes bring it to ~4.3 integer
 *   micro-ops per product (2 multiplies + 2.25 adds + loop control per
 *   2-4 rows): at n = 16, 1759 integer micro-ops per squaring (440
 *   cycles at 4 per cycle; modelled V1 448, N2 459) and 2220 per
 *   multiplication (555; V1 563, N2 586).
 * - Chain A is interleaved with the multiplies a limb pair at a time (MUL
 *   and UMULH of a limb adjacent, then that pair's ADCS): on the models,
 *   -1 to -5% against all 16 multiplies first (N2 mul +2%).
 * - Latency: along a row the serial chain is chain B's k + 1 flag ops per
 *   chunk; consecutive rows only meet through T, and an out-of-order
 *   window of ~2 rows overlaps them. The q_i chain (load T[i] -> MUL
 *   m0inv -> the row's multiplies) is ~10 cycles per reduction row.
 * - T stays in L1 rather than registers: a 2n-limb window does not fit 28
 *   general registers at RSA sizes; LDP/STP use the load/store pipes,
 *   not the integer ones (the V1 model runs its 3 load pipes ~85% busy:
 *   LDP is 2 load micro-ops; the next limit after integer issue).
 * - MODEL figures, cycles per call (n limbs), ours / OpenSSL 3.0.22
 *   armv8-mont (__bn_mul4x_mont, __bn_sqr8x_mont; 3.5.7 the same to 1
 *   cycle), ratio = theirs / ours:
 *     n = 16  mul                       sqr
 *     N1      3116 / 3128  1.00x        2427 / 2448  1.01x
 *     V1       563 /  699  1.24x         448 /  503  1.12x
 *     V2       523 /  563  1.08x         418 /  449  1.07x
 *     N2       586 /  725  1.24x         459 /  512  1.12x
 *     Ampere1 1040 / 1053  1.01x         806 /  829  1.03x
 *     n = 24 (mul, sqr): N1 1.00x, 1.00x; V1 1.19x, 1.07x; V2 1.06x,
 *     1.04x; N2 1.25x, 1.10x; Ampere1 0.99x, 1.00x.
 *     n = 32: N1 1.00x, 1.00x; V1 1.19x, 1.07x; V2 1.05x, 1.03x; N2
 *     1.26x, 1.11x; Ampere1 0.99x, 1.00x.
 *     n = 8 (looped path; RSA-1024 halves, not offered on arm64): 0.65-
 *     0.94x.
 *   First version, n = 16, for comparison: mul N1 3200, V1 773, V2 575,
 *   N2 772, Ampere1 1319; sqr N1 2512, V1 626, V2 464, N2 627, Ampere1
 *   1061.
 * - Floors (the multiplies alone, from the models' port assignments): a
 *   schoolbook Montgomery multiplication at n = 16 is 2n^2 = 512 products
 *   = 1024 MUL/UMULH plus 16 q_i MULs (15 here); the squaring
 *   n(n-1)/2 + n + n^2 = 392 products. N1 (3 cycles each on its one M
 *   pipe): 3120 / 2400 cycles, both sides within 1-4% of it; 1.1x (2844 /
 *   2225) is INFEASIBLE without fewer multiplies (Karatsuba on the
 *   product half would save 64 of the 256 products at n = 16). V1, V2,
 *   N2 (2 per cycle): 520 / 400; Ampere1 (1 per cycle): 1040 / 800, so
 *   1.1x armv8-mont is INFEASIBLE on Ampere1 (957 / 754 would be below
 *   the floor) and for the V2 mul (512 < 520); the V2 squaring (408) is
 *   2% above the floor, which no schedule reaches with 4 integer pipes
 *   carrying ~1000 adds besides. V1 and N2 (integer issue, not the
 *   multipliers, the limit) are where a rework wins: >= 1.1x for n = 16
 *   on both, and >= 1.05x for every RSA size, mul and sqr.
 * - Not done: Karatsuba; interleaving product and reduction rows (OpenSSL's
 *   mul4x does; the model gives it no edge over fixed-offset rows); an
 *   in-register final pass for n = 24, 32 (more than 16 words).
 */
#include "fc_asm.h"

#if defined(__aarch64__)

/* Register table, shared by both entry points. r, n, m and m0inv are
 * spilled to the frame on entry (SPILL_*) and reloaded where needed, so
 * that a row has 23 registers (8-limb groups) and the phase 5. */
ROWP	.req	x0	// &T[i] (row start); sqr: &T[8k] of the block
AP	.req	x1	// a (mul, sqr)
MP	.req	x1	// m (reduction: a is no longer needed)
BP	.req	x2	// mul: b walker; sqr: &a[4k] of the current block
M0I	.req	x2	// m0inv (reduction)
ROWS	.req	x3	// rows (or blocks) left
NG	.req	x4	// groups of 4 limbs in a row (after a squaring row's head)
LO0	.req	x5	// limbs of X, then their low product words, then T
LO1	.req	x6
LO2	.req	x7
LO3	.req	x8
LO4	.req	x9
LO5	.req	x10
LO6	.req	x11
LO7	.req	x12
HI0	.req	x13	// high product words
HI1	.req	x14
HI2	.req	x15
HI3	.req	x16
HI4	.req	x17
HI5	.req	x19
HI6	.req	x20
HI7	.req	x21
T0	.req	x22	// T words on their way into chain A
T1	.req	x23
MW	.req	x24	// the row's multiplier: b_i, q_i or a_r
CW	.req	x25	// carry word between groups; row's final word
XP	.req	x26	// walks a or m along a row
TP	.req	x27	// walks T along a row
CNT	.req	x28	// 8-limb groups left in the row (or trips left in a pass)
/* T[0..2n-1] lives at sp; the spill slots at x29 + SPILL_*. */
#define SPILL_RP 96
#define SPILL_NL 104
#define SPILL_MP 112
#define SPILL_M0I 120

/* ------------------------------------------------------------------------
 * Frame
 * ------------------------------------------------------------------------ */

/*
 * FRAME_ENTER rp, mp, m0i, nl: frame record in x29, save x19-x28, spill
 * the four argument registers given, allocate 16n bytes for T at sp.
 * Out: NG = n / 4. Clobbers: none else.
 */
.macro FRAME_ENTER rp, mp, m0i, nl
	stp	x29, x30, [sp, #-128]!
	.cfi_def_cfa_offset 128
	.cfi_offset x29, -128
	.cfi_offset x30, -120
	mov	x29, sp
	.cfi_def_cfa_register x29
	stp	x19, x20, [sp, #16]
	.cfi_offset x19, -112
	.cfi_offset x20, -104
	stp	x21, x22, [sp, #32]
	.cfi_offset x21, -96
	.cfi_offset x22, -88
	stp	x23, x24, [sp, #48]
	.cfi_offset x23, -80
	.cfi_offset x24, -72
	stp	x25, x26, [sp, #64]
	.cfi_offset x25, -64
	.cfi_offset x26, -56
	stp	x27, x28, [sp, #80]
	.cfi_offset x27, -48
	.cfi_offset x28, -40
	stp	\rp, \nl, [sp, #SPILL_RP]
	stp	\mp, \m0i, [sp, #SPILL_MP]
	sub	sp, sp, \nl, lsl #4		// T: 2n limbs, 16n bytes
	lsr	NG, \nl, #2
.endm

/* FRAME_LEAVE: restore x19-x28, x29 and sp; return. LR was never changed. */
.macro FRAME_LEAVE
	mov	sp, x29
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldr	x29, [sp], #128
	.cfi_def_cfa sp, 0
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
	.cfi_restore x29
	.cfi_restore x30
	ret
.endm

/*
 * ZERO_LOW: T[0..n-1] = 0.
 * In: NG. Clobbers: TP, CNT.
 */
.macro ZERO_LOW
	mov	TP, sp
	mov	CNT, NG
1:
	stp	xzr, xzr, [TP]
	stp	xzr, xzr, [TP, #16]
	add	TP, TP, #32
	sub	CNT, CNT, #1
	cbnz	CNT, 1b
.endm

/* ------------------------------------------------------------------------
 * Row arithmetic
 * ------------------------------------------------------------------------ */

/*
 * GROUP4: T[TP..TP+3] += MW * X[XP..XP+3] + CW; the group's carry word
 * into CW; XP and TP advance by 4 limbs. Chain A adds the low words at
 * positions 0..3 and folds its carry into hi_3; chain B adds CW at 0 and
 * hi_0..hi_2 at 1..3 and ends with CW = hi_3 + C.
 * Clobbers: LO0-LO3, HI0-HI7 (HI4-HI7 hold the T words), flags.
 */
.macro GROUP4
	ldp	LO0, LO1, [XP]
	ldp	LO2, LO3, [XP, #16]
	ldp	HI4, HI5, [TP]
	ldp	HI6, HI7, [TP, #16]
	add	XP, XP, #32
	umulh	HI0, LO0, MW
	umulh	HI1, LO1, MW
	umulh	HI2, LO2, MW
	umulh	HI3, LO3, MW
	mul	LO0, LO0, MW
	mul	LO1, LO1, MW
	mul	LO2, LO2, MW
	mul	LO3, LO3, MW
	adds	LO0, LO0, HI4
	adcs	LO1, LO1, HI5
	adcs	LO2, LO2, HI6
	adcs	LO3, LO3, HI7
	adc	HI3, HI3, xzr
	adds	LO0, LO0, CW
	adcs	LO1, LO1, HI0
	adcs	LO2, LO2, HI1
	adcs	LO3, LO3, HI2
	adc	CW, HI3, xzr
	stp	LO0, LO1, [TP]
	stp	LO2, LO3, [TP, #16]
	add	TP, TP, #32
.endm

/*
 * GROUP8: the same on 8 limbs (CHUNK 8 at XP and TP, which do not move):
 * one chain of 8 low words (its carry folded into hi_7), one chain of CW
 * and 7 high words; 2.25 adds per product instead of GROUP4's 2.5.
 * Clobbers: LO0-LO7, HI0-HI7, T0, T1, flags.
 */
.macro GROUP8
	CHUNK	8, XP, 0, TP, 0, 0, 0
.endm

/*
 * ROW_BODY: T[TP..] += MW * X[XP..] over NG >= 1 groups of 4 limbs (one
 * GROUP4 if NG is odd, then GROUP8s), CW added at the first position and
 * the final carry word left in CW (the caller stores it).
 * In: MW, XP, TP, CW, NG. Out: CW; XP, TP past the row.
 * Clobbers: CNT, LO0-LO7, HI0-HI7, T0, T1, flags.
 */
.macro ROW_BODY
	tbz	NG, #0, 1f			// public: n and the row index
	GROUP4
1:
	lsr	CNT, NG, #1
	cbz	CNT, 3f
2:
	GROUP8
	add	XP, XP, #64
	add	TP, TP, #64
	sub	CNT, CNT, #1
	cbnz	CNT, 2b
3:
.endm

/*
 * CHUNK k, xp, xo, tp, to, first, fresh: T[tp+to..+k-1] += MW * X[xp+xo..+k-1]
 * for 1 <= k <= 8 limbs at fixed offsets (bytes), as GROUP8_AT: chain A
 * (low words, skipped if fresh) closed into hi_(k-1), chain B (CW unless
 * first, then the high words) ending in the chunk's carry word CW.
 * red = 1 (a reduction row's first chunk, k >= 2, not fresh): limb 0's low
 * word is -T[i] by the choice of q_i, so it is not computed: chain A starts
 * with the carry of T[i] + lo, i.e. T[i] != 0 (CMP T[i], #1), and the
 * word stored at T[i] is junk that the row's carry word overwrites.
 * Clobbers: LO0-LO7, HI0-HI7, T0, T1, flags.
 */
.macro CHUNK k, xp, xo, tp, to, first, fresh, red=0
.if \k > 1
	ldp	LO0, LO1, [\xp, #\xo + 0]
.elseif \k > 0
	ldr	LO0, [\xp, #\xo + 0]
.endif
.if \k > 3
	ldp	LO2, LO3, [\xp, #\xo + 16]
.elseif \k > 2
	ldr	LO2, [\xp, #\xo + 16]
.endif
.if \k > 5
	ldp	LO4, LO5, [\xp, #\xo + 32]
.elseif \k > 4
	ldr	LO4, [\xp, #\xo + 32]
.endif
.if \k > 7
	ldp	LO6, LO7, [\xp, #\xo + 48]
.elseif \k > 6
	ldr	LO6, [\xp, #\xo + 48]
.endif
.if \k > 0
	umulh	HI0, LO0, MW
.if \red == 0
	mul	LO0, LO0, MW
.endif
.endif
.if \k > 1
	umulh	HI1, LO1, MW
	mul	LO1, LO1, MW
.endif
.if \fresh == 0
.if \k > 1
	ldp	T0, T1, [\tp, #\to + 0]
.if \red
	cmp	T0, #1
.else
	adds	LO0, LO0, T0
.endif
	adcs	LO1, LO1, T1
.elseif \k > 0
	ldr	T0, [\tp, #\to + 0]
	adds	LO0, LO0, T0
.endif
.endif
.if \k > 2
	umulh	HI2, LO2, MW
	mul	LO2, LO2, MW
.endif
.if \k > 3
	umulh	HI3, LO3, MW
	mul	LO3, LO3, MW
.endif
.if \fresh == 0
.if \k > 3
	ldp	T0, T1, [\tp, #\to + 16]
	adcs	LO2, LO2, T0
	adcs	LO3, LO3, T1
.elseif \k > 2
	ldr	T0, [\tp, #\to + 16]
	adcs	LO2, LO2, T0
.endif
.endif
.if \k > 4
	umulh	HI4, LO4, MW
	mul	LO4, LO4, MW
.endif
.if \k > 5
	umulh	HI5, LO5, MW
	mul	LO5, LO5, MW
.endif
.if \fresh == 0
.if \k > 5
	ldp	T0, T1, [\tp, #\to + 32]
	adcs	LO4, LO4, T0
	adcs	LO5, LO5, T1
.elseif \k > 4
	ldr	T0, [\tp, #\to + 32]
	adcs	LO4, LO4, T0
.endif
.endif
.if \k > 6
	umulh	HI6, LO6, MW
	mul	LO6, LO6, MW
.endif
.if \k > 7
	umulh	HI7, LO7, MW
	mul	LO7, LO7, MW
.endif
.if \fresh == 0
.if \k > 7
	ldp	T0, T1, [\tp, #\to + 48]
	adcs	LO6, LO6, T0
	adcs	LO7, LO7, T1
.elseif \k > 6
	ldr	T0, [\tp, #\to + 48]
	adcs	LO6, LO6, T0
.endif
.endif
.if \fresh == 0
.if \k == 1
	adc	HI0, HI0, xzr
.endif
.if \k == 2
	adc	HI1, HI1, xzr
.endif
.if \k == 3
	adc	HI2, HI2, xzr
.endif
.if \k == 4
	adc	HI3, HI3, xzr
.endif
.if \k == 5
	adc	HI4, HI4, xzr
.endif
.if \k == 6
	adc	HI5, HI5, xzr
.endif
.if \k == 7
	adc	HI6, HI6, xzr
.endif
.if \k == 8
	adc	HI7, HI7, xzr
.endif
.endif
.if \first == 0
	adds	LO0, LO0, CW
.if \k > 1
	adcs	LO1, LO1, HI0
.endif
.if \k > 2
	adcs	LO2, LO2, HI1
.endif
.if \k > 3
	adcs	LO3, LO3, HI2
.endif
.if \k > 4
	adcs	LO4, LO4, HI3
.endif
.if \k > 5
	adcs	LO5, LO5, HI4
.endif
.if \k > 6
	adcs	LO6, LO6, HI5
.endif
.if \k > 7
	adcs	LO7, LO7, HI6
.endif
.if \k == 1
	adc	CW, HI0, xzr
.endif
.if \k == 2
	adc	CW, HI1, xzr
.endif
.if \k == 3
	adc	CW, HI2, xzr
.endif
.if \k == 4
	adc	CW, HI3, xzr
.endif
.if \k == 5
	adc	CW, HI4, xzr
.endif
.if \k == 6
	adc	CW, HI5, xzr
.endif
.if \k == 7
	adc	CW, HI6, xzr
.endif
.if \k == 8
	adc	CW, HI7, xzr
.endif
.else
.if \k == 1
	mov	CW, HI0
.else
	adds	LO1, LO1, HI0
.if \k > 2
	adcs	LO2, LO2, HI1
.endif
.if \k > 3
	adcs	LO3, LO3, HI2
.endif
.if \k > 4
	adcs	LO4, LO4, HI3
.endif
.if \k > 5
	adcs	LO5, LO5, HI4
.endif
.if \k > 6
	adcs	LO6, LO6, HI5
.endif
.if \k > 7
	adcs	LO7, LO7, HI6
.endif
.if \k == 2
	adc	CW, HI1, xzr
.endif
.if \k == 3
	adc	CW, HI2, xzr
.endif
.if \k == 4
	adc	CW, HI3, xzr
.endif
.if \k == 5
	adc	CW, HI4, xzr
.endif
.if \k == 6
	adc	CW, HI5, xzr
.endif
.if \k == 7
	adc	CW, HI6, xzr
.endif
.if \k == 8
	adc	CW, HI7, xzr
.endif
.endif
.endif
.if \k > 1
	stp	LO0, LO1, [\tp, #\to + 0]
.elseif \k > 0
	str	LO0, [\tp, #\to + 0]
.endif
.if \k > 3
	stp	LO2, LO3, [\tp, #\to + 16]
.elseif \k > 2
	str	LO2, [\tp, #\to + 16]
.endif
.if \k > 5
	stp	LO4, LO5, [\tp, #\to + 32]
.elseif \k > 4
	str	LO4, [\tp, #\to + 32]
.endif
.if \k > 7
	stp	LO6, LO7, [\tp, #\to + 48]
.elseif \k > 6
	str	LO6, [\tp, #\to + 48]
.endif
.endm

/* GROUP8_AT xp, tp, off, first, fresh, toff, red: CHUNK 8 at offset off
 * in X (from xp) and off + toff in T (from tp). */
.macro GROUP8_AT xp, tp, off, first, fresh, toff=0, red=0
	CHUNK	8, \xp, \off, \tp, "(\off + \toff)", \first, \fresh, \red
.endm

/*
 * ROW_FIXED g, xp, tp, fresh, toff, red: T[tp+toff..+8g-1] += MW *
 * X[xp..xp+8g-1], no carry word in, the row's carry word in CW: g
 * GROUP8_ATs with immediate offsets, so a row has no pointer or counter
 * updates at all. red: a reduction row (see CHUNK).
 */
.macro ROW_FIXED g, xp, tp, fresh, toff=0, red=0
	GROUP8_AT \xp, \tp, 0, 1, \fresh, \toff, \red
.if \g > 1
	GROUP8_AT \xp, \tp, 64, 0, \fresh, \toff
.endif
.if \g > 2
	GROUP8_AT \xp, \tp, 128, 0, \fresh, \toff
.endif
.if \g > 3
	GROUP8_AT \xp, \tp, 192, 0, \fresh, \toff
.endif
.endm

/*
 * MUL_ROWS_FIXED g: the product rows of a multiplication with n = 8g, two
 * per trip: row 0 writes a * b_0 into the unwritten T (fresh), rows
 * 1..n-1 add. In: ROWP = sp, BP = b, AP = a. Clobbers: ROWS, BP, the row
 * registers.
 */
.macro MUL_ROWS_FIXED g
	ldr	MW, [BP]
	ROW_FIXED \g, AP, ROWP, 1
	str	CW, [ROWP, #64 * \g]
	ldr	MW, [BP, #8]
	ROW_FIXED \g, AP, ROWP, 0, 8
	str	CW, [ROWP, #64 * \g + 8]
	add	BP, BP, #16
	add	ROWP, ROWP, #16
	mov	ROWS, #4 * \g - 1
1:
	ldr	MW, [BP]
	ROW_FIXED \g, AP, ROWP, 0
	str	CW, [ROWP, #64 * \g]
	ldr	MW, [BP, #8]
	ROW_FIXED \g, AP, ROWP, 0, 8
	str	CW, [ROWP, #64 * \g + 8]
	add	BP, BP, #16
	add	ROWP, ROWP, #16
	sub	ROWS, ROWS, #1
	cbnz	ROWS, 1b
.endm

/*
 * RED_ROWS_FIXED g: the n = 8g reduction rows, as .Lred_row, two per trip,
 * each row's first chunk in its red form. In: ROWP = sp, MP, M0I.
 * Clobbers: ROWS, the row registers.
 */
.macro RED_ROWS_FIXED g
	mov	ROWS, #2 * \g
1:
	ldr	T0, [ROWP, #0]
	mul	MW, T0, M0I
	ROW_FIXED \g, MP, ROWP, 0, 0, 1
	str	CW, [ROWP, #0]
	ldr	T0, [ROWP, #8]
	mul	MW, T0, M0I
	ROW_FIXED \g, MP, ROWP, 0, 8, 1
	str	CW, [ROWP, #8]
	ldr	T0, [ROWP, #16]
	mul	MW, T0, M0I
	ROW_FIXED \g, MP, ROWP, 0, 16, 1
	str	CW, [ROWP, #16]
	ldr	T0, [ROWP, #24]
	mul	MW, T0, M0I
	ROW_FIXED \g, MP, ROWP, 0, 24, 1
	str	CW, [ROWP, #24]
	add	ROWP, ROWP, #32
	sub	ROWS, ROWS, #1
	cbnz	ROWS, 1b
.endm

/*
 * SQR_CHUNKS8 cnt, xo, to, fresh / SQR_ROW_FIXED r, n: the cross-product
 * row r of a squaring with fixed n: T[2r+1..r+n-1] += a_r * a[r+1..n-1]
 * (T at sp), carry word stored at T[r+n]. The row's n-1-r limbs are one
 * CHUNK of (n-1-r) % 8 limbs, then CHUNK 8s. Row 0 is fresh: nothing of
 * T has been written before it.
 */
.macro SQR_CHUNKS8 cnt, xo, to, first, fresh
.if \cnt > 0
	CHUNK	8, AP, \xo, sp, \to, \first, \fresh
	SQR_CHUNKS8 "(\cnt - 1)", "(\xo + 64)", "(\to + 64)", 0, \fresh
.endif
.endm

.macro SQR_ROW_FIXED r, n
	ldr	MW, [AP, #8 * \r]
.if (\n - 1 - \r) % 8
	CHUNK	"((\n - 1 - \r) % 8)", AP, "(8 * \r + 8)", sp, "(16 * \r + 8)", 1, "(\r == 0)"
	SQR_CHUNKS8 "((\n - 1 - \r) / 8)", "(8 * \r + 8 + 8 * ((\n - 1 - \r) % 8))", "(16 * \r + 8 + 8 * ((\n - 1 - \r) % 8))", 0, "(\r == 0)"
.else
	SQR_CHUNKS8 "((\n - 1 - \r) / 8)", "(8 * \r + 8)", "(16 * \r + 8)", 1, "(\r == 0)"
.endif
	str	CW, [sp, #8 * (\r + \n)]
.endm

/*
 * SQR_DIAG_AT t, first, w0, w1, w2, w3, prev: trip t of the doubling pass
 * (.Lsqr_diag) at fixed offsets: T[4t..4t+3] = 2 T[4t..4t+3] (with
 * T[4t-1]'s top bit, held in prev) + a_(2t)^2 + a_(2t+1)^2 2^128, the
 * carry chain running on in the flags from trip to trip. The T words go
 * into w0-w3, alternating between two sets so that prev (the last trip's
 * w3) needs no move.
 */
.macro SQR_DIAG_AT t, first, w0, w1, w2, w3, prev
	ldp	LO0, LO1, [AP, #16 * \t]
	ldp	\w0, \w1, [sp, #32 * \t]
	ldp	\w2, \w3, [sp, #32 * \t + 16]
	umulh	HI0, LO0, LO0
	mul	LO0, LO0, LO0
	umulh	HI1, LO1, LO1
	mul	LO1, LO1, LO1
	extr	HI3, \w3, \w2, #63
	extr	HI2, \w2, \w1, #63
	extr	LO3, \w1, \w0, #63
.if \first
	lsl	LO2, \w0, #1
	adds	LO2, LO2, LO0
.else
	extr	LO2, \w0, \prev, #63
	adcs	LO2, LO2, LO0
.endif
	adcs	LO3, LO3, HI0
	adcs	HI2, HI2, LO1
	adcs	HI3, HI3, HI1
	stp	LO2, LO3, [sp, #32 * \t]
	stp	HI2, HI3, [sp, #32 * \t + 16]
.endm

/*
 * FIN16: the final passes for n = 16 in registers: U = T[16..31] + X
 * (T[0..15]) into LO0-LO7, HI0-HI7 (also stored back to T[16..31]), c in
 * CW; D = U - m in place; r = D if (c:U) >= m else U, by CSEL. The three
 * chains are separate flag versions, so they overlap. In: MP.
 * Clobbers: the row registers, XP, flags.
 */
.macro FIN16
	ldp	LO0, LO1, [sp, #128]
	ldp	T0, T1, [sp, #0]
	adds	LO0, LO0, T0
	adcs	LO1, LO1, T1
	ldp	LO2, LO3, [sp, #144]
	ldp	T0, T1, [sp, #16]
	adcs	LO2, LO2, T0
	adcs	LO3, LO3, T1
	ldp	LO4, LO5, [sp, #160]
	ldp	T0, T1, [sp, #32]
	adcs	LO4, LO4, T0
	adcs	LO5, LO5, T1
	ldp	LO6, LO7, [sp, #176]
	ldp	T0, T1, [sp, #48]
	adcs	LO6, LO6, T0
	adcs	LO7, LO7, T1
	ldp	HI0, HI1, [sp, #192]
	ldp	T0, T1, [sp, #64]
	adcs	HI0, HI0, T0
	adcs	HI1, HI1, T1
	ldp	HI2, HI3, [sp, #208]
	ldp	T0, T1, [sp, #80]
	adcs	HI2, HI2, T0
	adcs	HI3, HI3, T1
	ldp	HI4, HI5, [sp, #224]
	ldp	T0, T1, [sp, #96]
	adcs	HI4, HI4, T0
	adcs	HI5, HI5, T1
	ldp	HI6, HI7, [sp, #240]
	ldp	T0, T1, [sp, #112]
	adcs	HI6, HI6, T0
	adcs	HI7, HI7, T1
	adc	CW, xzr, xzr
	stp	LO0, LO1, [sp, #128]
	stp	LO2, LO3, [sp, #144]
	stp	LO4, LO5, [sp, #160]
	stp	LO6, LO7, [sp, #176]
	stp	HI0, HI1, [sp, #192]
	stp	HI2, HI3, [sp, #208]
	stp	HI4, HI5, [sp, #224]
	stp	HI6, HI7, [sp, #240]
	ldp	T0, T1, [MP, #0]
	subs	LO0, LO0, T0
	sbcs	LO1, LO1, T1
	ldp	T0, T1, [MP, #16]
	sbcs	LO2, LO2, T0
	sbcs	LO3, LO3, T1
	ldp	T0, T1, [MP, #32]
	sbcs	LO4, LO4, T0
	sbcs	LO5, LO5, T1
	ldp	T0, T1, [MP, #48]
	sbcs	LO6, LO6, T0
	sbcs	LO7, LO7, T1
	ldp	T0, T1, [MP, #64]
	sbcs	HI0, HI0, T0
	sbcs	HI1, HI1, T1
	ldp	T0, T1, [MP, #80]
	sbcs	HI2, HI2, T0
	sbcs	HI3, HI3, T1
	ldp	T0, T1, [MP, #96]
	sbcs	HI4, HI4, T0
	sbcs	HI5, HI5, T1
	ldp	T0, T1, [MP, #112]
	sbcs	HI6, HI6, T0
	sbcs	HI7, HI7, T1
	sbcs	xzr, CW, xzr			// C = 0 iff U < m and c = 0
	ldr	XP, [x29, #SPILL_RP]
	ldp	T0, T1, [sp, #128]
	csel	LO0, LO0, T0, hs
	csel	LO1, LO1, T1, hs
	stp	LO0, LO1, [XP, #0]
	ldp	T0, T1, [sp, #144]
	csel	LO2, LO2, T0, hs
	csel	LO3, LO3, T1, hs
	stp	LO2, LO3, [XP, #16]
	ldp	T0, T1, [sp, #160]
	csel	LO4, LO4, T0, hs
	csel	LO5, LO5, T1, hs
	stp	LO4, LO5, [XP, #32]
	ldp	T0, T1, [sp, #176]
	csel	LO6, LO6, T0, hs
	csel	LO7, LO7, T1, hs
	stp	LO6, LO7, [XP, #48]
	ldp	T0, T1, [sp, #192]
	csel	HI0, HI0, T0, hs
	csel	HI1, HI1, T1, hs
	stp	HI0, HI1, [XP, #64]
	ldp	T0, T1, [sp, #208]
	csel	HI2, HI2, T0, hs
	csel	HI3, HI3, T1, hs
	stp	HI2, HI3, [XP, #80]
	ldp	T0, T1, [sp, #224]
	csel	HI4, HI4, T0, hs
	csel	HI5, HI5, T1, hs
	stp	HI4, HI5, [XP, #96]
	ldp	T0, T1, [sp, #240]
	csel	HI6, HI6, T0, hs
	csel	HI7, HI7, T1, hs
	stp	HI6, HI7, [XP, #112]
.endm

/*
 * SQR_ROWS_FIXED r, n / SQR_DIAGS_FIXED t, n / SQR_FIXED n: the squaring's
 * cross products and doubling for a fixed n (16, 24, 32), every row and
 * trip at fixed offsets from AP and sp (largest offset 8 (2n - 1) = 504 at
 * n = 32, the LDP limit). T[0] and T[2n-1] are the only words no cross
 * row writes. The doubling trips alternate two register sets.
 */
.macro SQR_ROWS_FIXED r, n
	SQR_ROW_FIXED \r, \n
.if \r < \n - 2
	SQR_ROWS_FIXED "(\r + 1)", \n
.endif
.endm

.macro SQR_DIAGS_FIXED t, n
	SQR_DIAG_AT \t, 0, LO6, LO7, HI4, HI5, LO5
	SQR_DIAG_AT "(\t + 1)", 0, T0, T1, LO4, LO5, HI5
.if \t < \n / 2 - 3
	SQR_DIAGS_FIXED "(\t + 2)", \n
.endif
.endm

.macro SQR_FIXED n
	str	xzr, [sp]
	str	xzr, [sp, #8 * (2 * \n - 1)]
	SQR_ROWS_FIXED 0, \n
	SQR_DIAG_AT 0, 1, T0, T1, LO4, LO5, HI5
	SQR_DIAGS_FIXED 1, \n
	SQR_DIAG_AT "(\n / 2 - 1)", 0, LO6, LO7, HI4, HI5, LO5
.endm

/*
 * HEAD3 / HEAD2 / HEAD1: the first 3, 2 or 1 limbs of a squaring row, with
 * no carry word in: T[TP..TP+h-1] += MW * a[XP..XP+h-1], the carry word
 * into CW; XP and TP advance by h limbs. Same two chains as GROUP4 (chain
 * B starts at position 1).
 * Clobbers: LO0-LO2, HI0-HI2, T0, T1, LO4, flags.
 */
.macro HEAD3
	ldp	LO0, LO1, [XP]
	ldr	LO2, [XP, #16]
	ldp	T0, T1, [TP]
	ldr	LO4, [TP, #16]
	add	XP, XP, #24
	umulh	HI0, LO0, MW
	umulh	HI1, LO1, MW
	umulh	HI2, LO2, MW
	mul	LO0, LO0, MW
	mul	LO1, LO1, MW
	mul	LO2, LO2, MW
	adds	LO0, LO0, T0
	adcs	LO1, LO1, T1
	adcs	LO2, LO2, LO4
	adc	HI2, HI2, xzr
	adds	LO1, LO1, HI0
	adcs	LO2, LO2, HI1
	adc	CW, HI2, xzr
	stp	LO0, LO1, [TP]
	str	LO2, [TP, #16]
	add	TP, TP, #24
.endm

.macro HEAD2
	ldp	LO0, LO1, [XP]
	ldp	T0, T1, [TP]
	add	XP, XP, #16
	umulh	HI0, LO0, MW
	umulh	HI1, LO1, MW
	mul	LO0, LO0, MW
	mul	LO1, LO1, MW
	adds	LO0, LO0, T0
	adcs	LO1, LO1, T1
	adc	HI1, HI1, xzr
	adds	LO1, LO1, HI0
	adc	CW, HI1, xzr
	stp	LO0, LO1, [TP]
	add	TP, TP, #16
.endm

.macro HEAD1
	ldr	LO0, [XP]
	ldr	T0, [TP]
	add	XP, XP, #8
	umulh	HI0, LO0, MW
	mul	LO0, LO0, MW
	adds	LO0, LO0, T0
	adc	CW, HI0, xzr
	str	LO0, [TP]
	add	TP, TP, #8
.endm

/*
 * SQR_ROW h, k: cross-product row r = 4k' + k of the current block (ROWP =
 * &T[8k'], BP = &a[4k'], NG = groups after the head): T[2r+1..r+n-1] +=
 * a_r * a[r+1..n-1], carry word stored at T[r+n]. h = 3 - k head limbs.
 * Clobbers: MW, CW, XP, TP, CNT, the group registers, flags.
 */
.macro SQR_ROW h, k
	ldr	MW, [BP, #8 * \k]
	add	XP, BP, #8 * (\k + 1)
	add	TP, ROWP, #8 * (2 * \k + 1)
.if \h == 3
	HEAD3
.elseif \h == 2
	HEAD2
.elseif \h == 1
	HEAD1
.else
	mov	CW, xzr
.endif
	cbz	NG, 4f				// public: last block has no groups
	ROW_BODY
4:
	str	CW, [TP]
.endm

/* ------------------------------------------------------------------------
 * Entry points
 * ------------------------------------------------------------------------ */

/*
 * void fc_bn_mul_mont_arm64(uint64_t *r, const uint64_t *a,
 *                           const uint64_t *b, const uint64_t *m,
 *                           uint64_t m0inv, size_t n);
 * r = a*b*R^-1 mod m; n % 4 == 0, n >= 4. Reads a, b, m (n limbs each);
 * writes r (n limbs) last, so r may alias a, b or m. CT: only n leaks.
 */
FC_FUNC_START(fc_bn_mul_mont_arm64)
	FRAME_ENTER x0, x3, x4, x5
	mov	ROWS, x5
	mov	ROWP, sp
	/* n = 16, 24, 32 (RSA-2048, -3072, -4096): rows with fixed offsets.
	 * The branch depends on n only. */
	cmp	ROWS, #16
	b.eq	.Lmul16
	cmp	ROWS, #24
	b.eq	.Lmul24
	cmp	ROWS, #32
	b.eq	.Lmul32
	ZERO_LOW
	/* Product rows: T[i..i+n-1] += a * b_i, carry word to T[i+n] (not
	 * yet written by any row: row i-1 ended at T[i+n-1]). */
.Lmul_row:
	ldr	MW, [BP], #8
	mov	XP, AP
	mov	TP, ROWP
	mov	CW, xzr
	ROW_BODY
	str	CW, [TP]
	add	ROWP, ROWP, #8
	sub	ROWS, ROWS, #1
	cbnz	ROWS, .Lmul_row
	b	.Lbn_mont_reduce
.Lmul16:
	MUL_ROWS_FIXED 2
	b	.Lbn_mont_reduce
.Lmul24:
	MUL_ROWS_FIXED 3
	b	.Lbn_mont_reduce
.Lmul32:
	MUL_ROWS_FIXED 4

	/* Shared by the squaring, which branches here with the same frame. */
.Lbn_mont_reduce:
	/* Reduction rows: q_i = T[i] * m0inv, T[i..i+n-1] += q_i * m; the
	 * carry word X_i parks in the now-zero T[i]. */
	ldp	MP, M0I, [x29, #SPILL_MP]
	ldr	ROWS, [x29, #SPILL_NL]
	mov	ROWP, sp
	cmp	ROWS, #16
	b.eq	.Lred16
	cmp	ROWS, #24
	b.eq	.Lred24
	cmp	ROWS, #32
	b.eq	.Lred32
.Lred_row:
	ldr	T0, [ROWP]
	mul	MW, T0, M0I
	mov	XP, MP
	mov	TP, ROWP
	mov	CW, xzr
	ROW_BODY
	str	CW, [ROWP]
	add	ROWP, ROWP, #8
	sub	ROWS, ROWS, #1
	cbnz	ROWS, .Lred_row
	b	.Lred_done
.Lred16:
	RED_ROWS_FIXED 2
	FIN16
	b	.Lfin_done
.Lred24:
	RED_ROWS_FIXED 3
	b	.Lred_done
.Lred32:
	RED_ROWS_FIXED 4
.Lred_done:

	/* U = T[n..2n-1] + X[0..n-1] into T[n..], top carry c in CW. The loop
	 * control (ADD, SUB, CBNZ) leaves the flags alone, so the carry
	 * chain runs across iterations. */
	ldr	ROWS, [x29, #SPILL_NL]		// n
	mov	XP, sp				// X
	add	TP, sp, ROWS, lsl #3		// U
	mov	CNT, NG
	cmn	xzr, xzr			// C = 0
.Lfin_add:
	ldp	LO0, LO1, [TP]
	ldp	LO2, LO3, [TP, #16]
	ldp	HI0, HI1, [XP]
	ldp	HI2, HI3, [XP, #16]
	add	XP, XP, #32
	adcs	LO0, LO0, HI0
	adcs	LO1, LO1, HI1
	adcs	LO2, LO2, HI2
	adcs	LO3, LO3, HI3
	stp	LO0, LO1, [TP]
	stp	LO2, LO3, [TP, #16]
	add	TP, TP, #32
	sub	CNT, CNT, #1
	cbnz	CNT, .Lfin_add
	adc	CW, xzr, xzr

	/* D = U - m into T[0..n-1]; then C = 1 iff (c:U) >= m. */
	mov	ROWP, sp			// D
	add	TP, sp, ROWS, lsl #3		// U
	mov	XP, MP
	mov	CNT, NG
	cmp	xzr, xzr			// C = 1: no borrow in
.Lfin_sub:
	ldp	LO0, LO1, [TP]
	ldp	LO2, LO3, [TP, #16]
	ldp	HI0, HI1, [XP]
	ldp	HI2, HI3, [XP, #16]
	add	TP, TP, #32
	add	XP, XP, #32
	sbcs	LO0, LO0, HI0
	sbcs	LO1, LO1, HI1
	sbcs	LO2, LO2, HI2
	sbcs	LO3, LO3, HI3
	stp	LO0, LO1, [ROWP]
	stp	LO2, LO3, [ROWP, #16]
	add	ROWP, ROWP, #32
	sub	CNT, CNT, #1
	cbnz	CNT, .Lfin_sub
	sbcs	xzr, CW, xzr			// c - borrow: C = 0 iff U < m, c = 0

	/* r = D if C (hs) else U, by CSEL; the loop keeps the flags. */
	ldr	XP, [x29, #SPILL_RP]		// r
	mov	ROWP, sp			// D
	add	TP, sp, ROWS, lsl #3		// U
	mov	CNT, NG
.Lfin_sel:
	ldp	LO0, LO1, [TP]
	ldp	LO2, LO3, [TP, #16]
	ldp	HI0, HI1, [ROWP]
	ldp	HI2, HI3, [ROWP, #16]
	add	TP, TP, #32
	add	ROWP, ROWP, #32
	csel	LO0, HI0, LO0, hs
	csel	LO1, HI1, LO1, hs
	csel	LO2, HI2, LO2, hs
	csel	LO3, HI3, LO3, hs
	stp	LO0, LO1, [XP]
	stp	LO2, LO3, [XP, #16]
	add	XP, XP, #32
	sub	CNT, CNT, #1
	cbnz	CNT, .Lfin_sel

.Lfin_done:
	FRAME_LEAVE
FC_FUNC_END(fc_bn_mul_mont_arm64)

/*
 * void fc_bn_sqr_mont_arm64(uint64_t *r, const uint64_t *a,
 *                           const uint64_t *m, uint64_t m0inv, size_t n);
 * r = a*a*R^-1 mod m; n % 4 == 0, n >= 4. Reads a and m (n limbs each);
 * writes r (n limbs) last, so r may alias a or m. CT: only n leaks.
 */
FC_FUNC_START(fc_bn_sqr_mont_arm64)
	FRAME_ENTER x0, x2, x3, x4
	cmp	NG, #4				// public: n = 16, 24, 32
	b.eq	.Lsqr16
	cmp	NG, #6
	b.eq	.Lsqr24
	cmp	NG, #8
	b.eq	.Lsqr32
	ZERO_LOW				// T[0] and row 0's span

	/* Cross products, 4 rows per block k: rows 4k..4k+3 each have 3-j
	 * head limbs and NG = n/4 - k - 1 groups. Row n-1 (the last block's
	 * fourth) is empty and stores its zero carry word in T[2n-1]. */
	mov	BP, AP				// &a[4k]
	mov	ROWP, sp			// &T[8k]
	mov	ROWS, NG			// blocks
	sub	NG, NG, #1			// groups in block 0's rows
.Lsqr_block:
	SQR_ROW	3, 0
	SQR_ROW	2, 1
	SQR_ROW	1, 2
	SQR_ROW	0, 3
	add	BP, BP, #32
	add	ROWP, ROWP, #64
	sub	NG, NG, #1
	sub	ROWS, ROWS, #1
	cbnz	ROWS, .Lsqr_block

	/* T = 2T + sum a_i^2 2^(128i): EXTR doubles without flags, one ADCS
	 * chain adds the squares; two limbs of a (four of T) per trip. CW
	 * carries T[2i-1] into the next trip's first EXTR. */
	ldr	CNT, [x29, #SPILL_NL]
	mov	XP, AP
	mov	TP, sp
	mov	CW, xzr
	lsr	CNT, CNT, #1
	cmn	xzr, xzr			// C = 0
.Lsqr_diag:
	ldp	LO0, LO1, [XP]
	ldp	T0, T1, [TP]
	ldp	LO4, LO5, [TP, #16]
	add	XP, XP, #16
	umulh	HI0, LO0, LO0
	mul	LO0, LO0, LO0
	umulh	HI1, LO1, LO1
	mul	LO1, LO1, LO1
	extr	HI3, LO5, LO4, #63
	extr	HI2, LO4, T1, #63
	extr	LO3, T1, T0, #63
	extr	LO2, T0, CW, #63
	mov	CW, LO5
	adcs	LO2, LO2, LO0
	adcs	LO3, LO3, HI0
	adcs	HI2, HI2, LO1
	adcs	HI3, HI3, HI1
	stp	LO2, LO3, [TP]
	stp	HI2, HI3, [TP, #16]
	add	TP, TP, #32
	sub	CNT, CNT, #1
	cbnz	CNT, .Lsqr_diag
	/* The final carry is 0: a^2 < 2^(128n). */

	ldr	NG, [x29, #SPILL_NL]
	lsr	NG, NG, #2			// n / 4 again for the reduction
	b	.Lbn_mont_reduce
.Lsqr16:
	SQR_FIXED 16
	b	.Lbn_mont_reduce
.Lsqr24:
	SQR_FIXED 24
	b	.Lbn_mont_reduce
.Lsqr32:
	SQR_FIXED 32
	b	.Lbn_mont_reduce
FC_FUNC_END(fc_bn_sqr_mont_arm64)

	.unreq	ROWP
	.unreq	AP
	.unreq	MP
	.unreq	BP
	.unreq	M0I
	.unreq	ROWS
	.unreq	NG
	.unreq	LO0
	.unreq	LO1
	.unreq	LO2
	.unreq	LO3
	.unreq	LO4
	.unreq	LO5
	.unreq	LO6
	.unreq	LO7
	.unreq	HI0
	.unreq	HI1
	.unreq	HI2
	.unreq	HI3
	.unreq	HI4
	.unreq	HI5
	.unreq	HI6
	.unreq	HI7
	.unreq	T0
	.unreq	T1
	.unreq	MW
	.unreq	CW
	.unreq	XP
	.unreq	TP
	.unreq	CNT

#endif /* __aarch64__ */
