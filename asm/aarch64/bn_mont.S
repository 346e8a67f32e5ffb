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
 * registers they use (x19-x26) and build a frame record in x29; x18 (the
 * platform register) is never touched; sp stays 16-byte aligned. LR is
 * stored in the frame record (for frame-pointer unwinders) but never
 * reloaded, so no PAC signing is needed. Scratch lives on the stack:
 * 16n + 96 bytes, at most 2144 bytes for n = FC_BN_MAX_LIMBS = 128, below
 * one page: no stack probing.
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
 * for one word w, done in groups of 4 limbs. A group computes hi_j = UMULH
 * and lo_j = MUL of its 4 limbs, then runs two ADDS/ADCS chains one after
 * the other: chain A adds lo_0..lo_3 at positions 0..3 of the group, chain
 * B adds the incoming carry word cw at position 0 and hi_0..hi_2 at
 * positions 1..3. Each chain is closed inside the group rather than held in
 * the single carry flag: chain A's carry is folded into hi_3 (ADC; hi_3 <=
 * 2^64 - 2, so hi_3 + 1 cannot wrap), and chain B ends with cw' = hi_3 +
 * C (ADC). Keeping the low and high halves in separate chains is what lets
 * the multiplies of a group issue back to back: no add waits for the
 * UMULH of the same limb's MUL, and chain A of group g+1 does not wait for
 * chain B of group g (the flags are renamed). One product costs MUL + UMULH
 * + 2.5 flag-setting adds.
 * Carry bound: a group adds w * x (x 4 limbs) and cw (1 limb) to 4 limbs
 * of T: (2^256 - 1) + (2^64 - 1) + (2^64 - 1)(2^256 - 1) = 2^320 - 1, so
 * the result fits in 4 limbs plus the one word cw': hi_3 + both carries
 * never wraps. The same bound makes every row's final cw the exact carry
 * word; for the first few limbs of a squaring row (1-3 "head" limbs, where
 * cw is still 0) the same two-chain scheme runs on 1-3 limbs.
 *
 * Bounds and the final subtraction: after reduction, (T + sum q_i m
 * 2^(64i)) / R = U + c R < (m^2 + R m) / R < 2m, so one conditional
 * subtraction, after the last row, reduces fully: D = U - m with the
 * borrow chained through c (SBCS); the result is U if c = 0 and the chain
 * borrowed, else D (c = 1 forces the borrow out of U - m, since U + R < 2m
 * means U - m < m - R < 0). The choice is CSEL on the final carry flag,
 * limb by limb, never a branch.
 *
 * Squaring: the cross products a_i a_j (i < j) are accumulated once (row r
 * adds a_r * a[r+1..n-1] at position 2r+1: 1-3 head limbs, then groups of 4,
 * since n % 4 == 0 makes n-1-r - ((3 - r) mod 4) a multiple of 4), then one
 * pass doubles T with EXTR (no flags: (T[k] << 1) | (T[k-1] >> 63)) while
 * one ADCS chain adds the squares a_i^2 at positions 2i, 2i+1:
 * n(n-1)/2 + n products instead of n^2. The cross sum is < a^2 / 2 <
 * 2^(128n-1), so the doubling never overflows 2n limbs. The reduction is the
 * multiplication's.
 *
 * Aliasing: a and b are only read while forming T; r is written only in
 * the final selection pass, after every read of a, b and m, so r may alias
 * any of them. What is left in the scratch after return is U and U - m,
 * i.e. the result or the result +/- m: nothing the caller does not hold.
 *
 * Constant time: branches and addresses depend on n only (loop counts and
 * row offsets). MUL, UMULH, ADDS/ADCS/SBCS, EXTR and CSEL are in the
 * Armv8.4 DIT list of data-independent-timing instructions and have fixed
 * latency on the cores below; the kernels do not set PSTATE.DIT.
 *
 * Design. Every cycle figure here is an ESTIMATE from published instruction
 * tables (the kernels were developed and verified under qemu-user, where
 * timing means nothing): Arm's Software Optimization Guides for Neoverse N1
 * and V1 as encoded in LLVM's scheduling models, and Dougall Johnson's
 * measurements of the Apple M1 (Firestorm) core.
 *
 *   core    | MUL x-form    | UMULH        | pipes that multiply | int ALU
 *   N1      | 4 cyc, 1 / 3  | 5 cyc, 1 / 3 | 1 (M, not pipelined)| 3
 *   V1      | 2 cyc         | 3 cyc        | 2 (M0, M1)          | 4
 *   M1 (P)  | 3 cyc         | 3 cyc        | 2                   | 6
 *
 * - A group of 4 products is 28 instructions: 8 MUL/UMULH, 10 ADDS/ADCS/
 *   ADC, 4 LDP + 2 STP, 2 pointer adds, SUB + CBNZ. A 1024-bit (n = 16)
 *   Montgomery multiplication is 2n^2 = 512 products = 128 groups plus
 *   ~32 row setups (q_i = T[i] * m0inv is one more MUL per reduction row)
 *   and the three n-limb final passes: ~4050 instructions. The squaring is
 *   n(n-1)/2 + n + n^2 = 392 products.
 * - N1: the single multiply pipe accepts one 64-bit MUL or UMULH every 3
 *   cycles, so a product costs 6 cycles of it and everything else hides
 *   behind: ~3100 cycles bound, ESTIMATED ~3200-3300 per n = 16 mul,
 *   ~2500 per sqr. Bound by the multiplier; no instruction ordering helps.
 * - V1: the two M pipes take the 8 multiplies of a group in 4 cycles, but
 *   the 21 integer-pipe micro-ops of a group (the adds and pointer updates
 *   share the same 4 pipes) need 5.25: ~1.3 cycles per product. ESTIMATED
 *   ~800-900 cycles per n = 16 mul, ~650 per sqr. Bound by integer issue,
 *   with the multipliers ~75% busy.
 * - M1: 8 multiplies on 2 pipes = 4 cycles per group, the other 13 integer
 *   micro-ops fit the remaining 4 ALUs: ~1 cycle per product. ESTIMATED
 *   ~600-650 cycles per n = 16 mul, ~480 per sqr. Bound by the
 *   multipliers.
 * - Latency is not the bound: along a row the serial chain is chain B's
 *   5 flag ops per group (1.25 cycles per product); consecutive rows only
 *   meet through T one group apart, so an out-of-order window of ~2 rows
 *   (~110 micro-ops at n = 16; N1 ROB 128, V1 256, M1 ~600) overlaps them.
 *   The q_i chain (load T[i] -> MUL m0inv -> first group) is ~10-15 cycles
 *   per reduction row, well below the row's throughput cost.
 * - T stays in L1 rather than registers: a 2n-limb window does not fit 28
 *   general registers at RSA sizes, and one LDP/STP per 2 limbs and row
 *   uses the two (N1) or three (V1, M1) load/store pipes far below their
 *   rate.
 * - The squaring doubles with EXTR instead of an ADCS x, x, x chain so
 *   that the doubling and the addition of the squares need only one flag
 *   chain between them.
 * - MODEL figures (llvm-mca 19.1.7, scripts/arm64_model.sh: the whole
 *   n = 16 call, traced under qemu; not measurements), cycles per call,
 *   ours / OpenSSL 3.0.22 armv8-mont (3.5.7 the same to 1 cycle):
 *     mul: N1 3200 / 3128, V1 773 / 699, V2 575 / 563, N2 772 / 725,
 *          Ampere1 1319 / 1053
 *     sqr: N1 2512 / 2448, V1 626 / 503, V2 464 / 449, N2 627 / 512,
 *          Ampere1 1061 / 829
 *   0.78-0.98x: armv8-mont's __bn_mul4x_mont / __bn_sqr8x_mont are ahead
 *   on every model (target >= 1.1x not met; the sqr8x path's dedicated
 *   squaring is the largest gap).
 *   N1 floor: LLVM's N1 model issues MUL (x-form) and UMULH on the one M
 *   pipe, 3 cycles each (ResourceCycles 3). A schoolbook Montgomery
 *   multiplication at n = 16 is 2n^2 = 512 products = 1024 MUL/UMULH
 *   plus 16 q_i MULs: 3120 cycles, whatever the schedule (armv8-mont
 *   3128, ours 3200); squaring n(n-1)/2 + n + n^2 = 392 products: 2400
 *   (armv8-mont 2448, ours 2512). 1.1x (2844 / 2225) is below both
 *   floors: INFEASIBLE on N1 without fewer multiplies (Karatsuba on the
 *   product half would save 64 of the 256 products at n = 16).
 *   The same count on the other models (MUL/UMULH per cycle: V1, V2, N2
 *   two, Ampere1 one): mul / sqr floors 520 / 400 cycles (V1, V2, N2),
 *   1040 / 800 (Ampere1). 1.1x armv8-mont: V1 635 / 457 and N2 659 /
 *   465, above the floors (integer issue, not the multipliers, is what
 *   separates us: ~4050 instructions per mul call); V2 512 / 408 and
 *   Ampere1 957 / 754, at or below them: INFEASIBLE for the mul on V2 and
 *   both on Ampere1 (a 4-wide dispatch there, which armv8-mont nearly
 *   saturates at 1053 / 829). The RSA rows of provider/core/tuning.c
 *   therefore never offer RSA on arm64.
 * - Not done: fixed-size unrolled paths (the x86-64 kernel gains 7-13%
 *   from them with a measuring CPU at hand; without one, the generic loops
 *   are kept) and interleaving product and reduction rows.
 */
#include "fc_asm.h"

#if defined(__aarch64__)

/* Register table, shared by both entry points (the squaring shuffles its
 * arguments on entry so that this map holds in the common code). */
RP	.req	x0	// r, the output
AP	.req	x1	// a
BP	.req	x2	// mul: b walker; sqr: &a[4k] of the current block
MP	.req	x3	// m
M0I	.req	x4	// m0inv = -m^-1 mod 2^64
NL	.req	x5	// n
MW	.req	x6	// the row's multiplier: b_i, q_i or a_r
CW	.req	x7	// carry word between groups; row's final word
XP	.req	x8	// walks a or m along a row
TP	.req	x9	// walks T along a row
CNT	.req	x10	// groups left in the row (or limbs left in a pass)
LO0	.req	x11	// limbs of X, then their low product words
LO1	.req	x12
LO2	.req	x13
LO3	.req	x14
HI0	.req	x15	// high product words
HI1	.req	x16
HI2	.req	x17
HI3	.req	x19
TW0	.req	x20	// T words of the group
TW1	.req	x21
TW2	.req	x22
TW3	.req	x23
ROWP	.req	x24	// &T[i] (row start); sqr: &T[8k] of the block
ROWS	.req	x25	// rows (or blocks) left
NG	.req	x26	// n / 4: groups in a full row; sqr: groups per row of block
/* T[0..2n-1] lives at sp. */

/* ------------------------------------------------------------------------
 * Frame
 * ------------------------------------------------------------------------ */

/*
 * FRAME_ENTER: frame record in x29, save x19-x26, allocate 16n bytes for T
 * at sp. In: NL = n. Out: NG = n / 4. Clobbers: none else.
 */
.macro FRAME_ENTER
	stp	x29, x30, [sp, #-96]!
	.cfi_def_cfa_offset 96
	.cfi_offset x29, -96
	.cfi_offset x30, -88
	mov	x29, sp
	.cfi_def_cfa_register x29
	stp	x19, x20, [sp, #16]
	.cfi_offset x19, -80
	.cfi_offset x20, -72
	stp	x21, x22, [sp, #32]
	.cfi_offset x21, -64
	.cfi_offset x22, -56
	stp	x23, x24, [sp, #48]
	.cfi_offset x23, -48
	.cfi_offset x24, -40
	stp	x25, x26, [sp, #64]
	.cfi_offset x25, -32
	.cfi_offset x26, -24
	sub	sp, sp, NL, lsl #4		// T: 2n limbs, 16n bytes
	lsr	NG, NL, #2
.endm

/* FRAME_LEAVE: restore x19-x26, x29 and sp; return. LR was never changed. */
.macro FRAME_LEAVE
	mov	sp, x29
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldr	x29, [sp], #96
	.cfi_def_cfa sp, 0
	.cfi_restore x19
	.cfi_restore x20
	.cfi_restore x21
	.cfi_restore x22
	.cfi_restore x23
	.cfi_restore x24
	.cfi_restore x25
	.cfi_restore x26
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
 * ROW_GROUPS: T[TP..] += MW * X[XP..] over CNT >= 1 groups of 4 limbs, with
 * the carry word CW added at the first position and the final carry word
 * left in CW (the caller stores it at the position after the row).
 * In: MW, XP, TP, CNT, CW. Out: CW; XP, TP advanced by 32 * CNT; CNT = 0.
 * Clobbers: LO0-LO3, HI0-HI3, TW0-TW3, flags.
 */
.macro ROW_GROUPS
1:
	ldp	LO0, LO1, [XP]
	ldp	LO2, LO3, [XP, #16]
	ldp	TW0, TW1, [TP]
	ldp	TW2, TW3, [TP, #16]
	add	XP, XP, #32
	umulh	HI0, LO0, MW
	umulh	HI1, LO1, MW
	umulh	HI2, LO2, MW
	umulh	HI3, LO3, MW
	mul	LO0, LO0, MW
	mul	LO1, LO1, MW
	mul	LO2, LO2, MW
	mul	LO3, LO3, MW
	/* Chain A: low words at positions 0..3; its carry goes into hi_3
	 * (hi_3 <= 2^64 - 2). */
	adds	TW0, TW0, LO0
	adcs	TW1, TW1, LO1
	adcs	TW2, TW2, LO2
	adcs	TW3, TW3, LO3
	adc	HI3, HI3, xzr
	/* Chain B: incoming carry word at 0, high words at 1..3, and the
	 * group's top word (bounded above: cannot wrap). */
	adds	TW0, TW0, CW
	adcs	TW1, TW1, HI0
	adcs	TW2, TW2, HI1
	adcs	TW3, TW3, HI2
	adc	CW, HI3, xzr
	stp	TW0, TW1, [TP]
	stp	TW2, TW3, [TP, #16]
	add	TP, TP, #32
	sub	CNT, CNT, #1
	cbnz	CNT, 1b
.endm

/*
 * HEAD3 / HEAD2 / HEAD1: the first 3, 2 or 1 limbs of a squaring row, with
 * CW = 0 on entry: T[TP..TP+h-1] += MW * a[XP..XP+h-1], the carry word
 * into CW; XP and TP advance by h limbs. Same two chains as ROW_GROUPS
 * (the incoming carry word is 0, so chain B starts at position 1).
 * Clobbers: LO0-LO2, HI0-HI2, TW0-TW2, flags.
 */
.macro HEAD3
	ldp	LO0, LO1, [XP]
	ldr	LO2, [XP, #16]
	ldp	TW0, TW1, [TP]
	ldr	TW2, [TP, #16]
	add	XP, XP, #24
	umulh	HI0, LO0, MW
	umulh	HI1, LO1, MW
	umulh	HI2, LO2, MW
	mul	LO0, LO0, MW
	mul	LO1, LO1, MW
	mul	LO2, LO2, MW
	adds	TW0, TW0, LO0
	adcs	TW1, TW1, LO1
	adcs	TW2, TW2, LO2
	adc	HI2, HI2, xzr
	adds	TW1, TW1, HI0
	adcs	TW2, TW2, HI1
	adc	CW, HI2, xzr
	stp	TW0, TW1, [TP]
	str	TW2, [TP, #16]
	add	TP, TP, #24
.endm

.macro HEAD2
	ldp	LO0, LO1, [XP]
	ldp	TW0, TW1, [TP]
	add	XP, XP, #16
	umulh	HI0, LO0, MW
	umulh	HI1, LO1, MW
	mul	LO0, LO0, MW
	mul	LO1, LO1, MW
	adds	TW0, TW0, LO0
	adcs	TW1, TW1, LO1
	adc	HI1, HI1, xzr
	adds	TW1, TW1, HI0
	adc	CW, HI1, xzr
	stp	TW0, TW1, [TP]
	add	TP, TP, #16
.endm

.macro HEAD1
	ldr	LO0, [XP]
	ldr	TW0, [TP]
	add	XP, XP, #8
	umulh	HI0, LO0, MW
	mul	LO0, LO0, MW
	adds	TW0, TW0, LO0
	adc	CW, HI0, xzr
	str	TW0, [TP]
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
	mov	CW, xzr
.if \h == 3
	HEAD3
.elseif \h == 2
	HEAD2
.elseif \h == 1
	HEAD1
.endif
	cbz	NG, 2f				// public: last block has no groups
	mov	CNT, NG
	ROW_GROUPS
2:
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
	FRAME_ENTER
	ZERO_LOW
	/* Product rows: T[i..i+n-1] += a * b_i, carry word to T[i+n] (not
	 * yet written by any row: row i-1 ended at T[i+n-1]). */
	mov	ROWP, sp
	mov	ROWS, NL
.Lmul_row:
	ldr	MW, [BP], #8
	mov	XP, AP
	mov	TP, ROWP
	mov	CW, xzr
	mov	CNT, NG
	ROW_GROUPS
	str	CW, [TP]
	add	ROWP, ROWP, #8
	sub	ROWS, ROWS, #1
	cbnz	ROWS, .Lmul_row

	/* Shared by the squaring, which branches here with the same frame. */
.Lbn_mont_reduce:
	/* Reduction rows: q_i = T[i] * m0inv, T[i..i+n-1] += q_i * m; the
	 * carry word X_i parks in the now-zero T[i]. */
	mov	ROWP, sp
	mov	ROWS, NL
.Lred_row:
	ldr	TW0, [ROWP]
	mul	MW, TW0, M0I
	mov	XP, MP
	mov	TP, ROWP
	mov	CW, xzr
	mov	CNT, NG
	ROW_GROUPS
	str	CW, [ROWP]
	add	ROWP, ROWP, #8
	sub	ROWS, ROWS, #1
	cbnz	ROWS, .Lred_row

	/* U = T[n..2n-1] + X[0..n-1] into T[n..], top carry c in CW. The loop
	 * control (ADD, SUB, CBNZ) leaves the flags alone, so the carry
	 * chain runs across iterations. */
	mov	XP, sp				// X
	add	TP, sp, NL, lsl #3		// U
	mov	CNT, NG
	cmn	xzr, xzr			// C = 0
.Lfin_add:
	ldp	TW0, TW1, [TP]
	ldp	TW2, TW3, [TP, #16]
	ldp	LO0, LO1, [XP]
	ldp	LO2, LO3, [XP, #16]
	add	XP, XP, #32
	adcs	TW0, TW0, LO0
	adcs	TW1, TW1, LO1
	adcs	TW2, TW2, LO2
	adcs	TW3, TW3, LO3
	stp	TW0, TW1, [TP]
	stp	TW2, TW3, [TP, #16]
	add	TP, TP, #32
	sub	CNT, CNT, #1
	cbnz	CNT, .Lfin_add
	adc	CW, xzr, xzr

	/* D = U - m into T[0..n-1]; then C = 1 iff (c:U) >= m. */
	mov	ROWP, sp			// D
	add	TP, sp, NL, lsl #3		// U
	mov	XP, MP
	mov	CNT, NG
	cmp	xzr, xzr			// C = 1: no borrow in
.Lfin_sub:
	ldp	TW0, TW1, [TP]
	ldp	TW2, TW3, [TP, #16]
	ldp	LO0, LO1, [XP]
	ldp	LO2, LO3, [XP, #16]
	add	TP, TP, #32
	add	XP, XP, #32
	sbcs	TW0, TW0, LO0
	sbcs	TW1, TW1, LO1
	sbcs	TW2, TW2, LO2
	sbcs	TW3, TW3, LO3
	stp	TW0, TW1, [ROWP]
	stp	TW2, TW3, [ROWP, #16]
	add	ROWP, ROWP, #32
	sub	CNT, CNT, #1
	cbnz	CNT, .Lfin_sub
	sbcs	xzr, CW, xzr			// c - borrow: C = 0 iff U < m, c = 0

	/* r = D if C (hs) else U, by CSEL; the loop keeps the flags. */
	mov	ROWP, sp			// D
	add	TP, sp, NL, lsl #3		// U
	mov	CNT, NG
.Lfin_sel:
	ldp	TW0, TW1, [TP]
	ldp	TW2, TW3, [TP, #16]
	ldp	LO0, LO1, [ROWP]
	ldp	LO2, LO3, [ROWP, #16]
	add	TP, TP, #32
	add	ROWP, ROWP, #32
	csel	TW0, LO0, TW0, hs
	csel	TW1, LO1, TW1, hs
	csel	TW2, LO2, TW2, hs
	csel	TW3, LO3, TW3, hs
	stp	TW0, TW1, [RP]
	stp	TW2, TW3, [RP, #16]
	add	RP, RP, #32
	sub	CNT, CNT, #1
	cbnz	CNT, .Lfin_sel

	FRAME_LEAVE
FC_FUNC_END(fc_bn_mul_mont_arm64)

/*
 * void fc_bn_sqr_mont_arm64(uint64_t *r, const uint64_t *a,
 *                           const uint64_t *m, uint64_t m0inv, size_t n);
 * r = a*a*R^-1 mod m; n % 4 == 0, n >= 4. Reads a and m (n limbs each);
 * writes r (n limbs) last, so r may alias a or m. CT: only n leaks.
 */
FC_FUNC_START(fc_bn_sqr_mont_arm64)
	/* Move the arguments into the shared register map. */
	mov	NL, x4
	mov	M0I, x3
	mov	MP, x2
	FRAME_ENTER
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
	lsr	NG, NL, #2			// back to n / 4 for the reduction

	/* T = 2T + sum a_i^2 2^(128i): EXTR doubles without flags, one ADCS
	 * chain adds the squares; two limbs of a (four of T) per trip. CW
	 * carries T[2i-1] into the next trip's first EXTR. */
	mov	XP, AP
	mov	TP, sp
	mov	CW, xzr
	lsr	CNT, NL, #1
	cmn	xzr, xzr			// C = 0
.Lsqr_diag:
	ldp	LO0, LO1, [XP]
	ldp	TW0, TW1, [TP]
	ldp	TW2, TW3, [TP, #16]
	add	XP, XP, #16
	umulh	HI0, LO0, LO0
	mul	LO0, LO0, LO0
	umulh	HI1, LO1, LO1
	mul	LO1, LO1, LO1
	extr	HI3, TW3, TW2, #63
	extr	HI2, TW2, TW1, #63
	extr	LO3, TW1, TW0, #63
	extr	LO2, TW0, CW, #63
	mov	CW, TW3
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

	b	.Lbn_mont_reduce
FC_FUNC_END(fc_bn_sqr_mont_arm64)

	.unreq	RP
	.unreq	AP
	.unreq	BP
	.unreq	MP
	.unreq	M0I
	.unreq	NL
	.unreq	MW
	.unreq	CW
	.unreq	XP
	.unreq	TP
	.unreq	CNT
	.unreq	LO0
	.unreq	LO1
	.unreq	LO2
	.unreq	LO3
	.unreq	HI0
	.unreq	HI1
	.unreq	HI2
	.unreq	HI3
	.unreq	TW0
	.unreq	TW1
	.unreq	TW2
	.unreq	TW3
	.unreq	ROWP
	.unreq	ROWS
	.unreq	NG

#endif /* __aarch64__ */
