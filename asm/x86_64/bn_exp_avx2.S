/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bn_exp_avx2.S - two independent Montgomery multiplications at once with
 * AVX2 (VPMULUDQ, 32x32 -> 64-bit products in 64-bit lanes), in a
 * redundant radix 2^28, for the two CRT halves of an RSA private key
 * (1024-, 1536- and 2048-bit halves: RSA-2048/3072/4096), plus the
 * matching constant-time gather from a window table. Driven by
 * provider/core/bn_exp2.c through rsa_engine_avx2.c, placed in the engine
 * order by provider/core/tuning.c.
 *
 * CPU features: AVX2 (with the OS saving ymm state); nothing else (no
 * BMI2, no ADX, no AVX-512). Scalar: IMUL, MOV, ADD, AND, SHR, LEA.
 *
 * ABI: SysV AMD64. The multiplication and squaring kernels push and
 * restore rbx, rbp, r12-r15 (CFI describes them) and use no stack beyond
 * that: their scratch is the caller's work buffer. Every entry point ends
 * with VZEROUPPER.
 *
 *   entry point                 n    L    AMM on
 *   fc_bn_mul28x2_nXX_avx2      16   38   r = AMM(a, b), both halves
 *   fc_bn_sqr28x2_nXX_avx2      24   56   r = a after count squarings
 *   fc_bn_gather28x2_nXX_avx2   32   76   table lookup, both halves
 *
 * ---- why a vector engine ----------------------------------------------------
 *
 * A MULX/ADX Montgomery product of 1024-bit numbers is 512 MULX, each with
 * two flag-chained adds (ADCX, ADOX). On AMD Zen 2/3 the flag chains, not
 * the multiplier, bound it (about two cycles a MULX: ~1,000 cycles per
 * product). VPMULUDQ makes four 32x32 products a uop and needs no flags;
 * the price is a redundant radix (digits of 28 bits, so that sums of
 * products do not overflow 64-bit lanes) and one VPADDQ per VPMULUDQ.
 *
 * ---- numbers ----------------------------------------------------------------
 *
 * Per half, L digits of 28 bits, least significant first, each a 64-bit
 * word; a number holds both halves as digit pairs: word 2j + h is digit j
 * of half h (h = 0: p, 1: q). A 32-byte "tile" is two pairs: (p_j, q_j,
 * p_j+1, q_j+1). Every instruction thus works on two digits of both
 * halves, and a row multiplier (digit i of both halves) is one
 * VBROADCASTI128 of a 16-byte pair. Digits may exceed 2^28 by a little:
 * inputs and outputs are below 2^28 + 2^8. Values are below 2 m~ per half.
 *
 * ---- the Montgomery product ---------------------------------------------------
 *
 * Modulus form: m~ = m * k, k = -m^-1 mod 2^28, so m~ = -1 mod 2^28 and
 * the quotient digit of position i is just y_i = X_i mod 2^28 (X_i:
 * position i with everything below carried in); m~ has L digits
 * (m~ < 2^28 m). AMM(a, b) = (a b + Y m~) / R, R = 2^(28 L), with the
 * unique Y < R that makes the division exact; AMM(a, b) = a b R^-1 mod m
 * since m divides m~.
 *
 *   1. T = a * b (positions 0..2L-2): "rows" i (multiplier b_i, or a_i for
 *      a squaring) over tiles: tile k gets a_(2k-i), a_(2k+1-i) times b_i,
 *      i.e. a moved up i digits, which is a 32-byte load at 32k - 16i from
 *      a copy of a: an even copy (32-byte aligned) serves even rows, an
 *      odd copy (16 bytes off) odd rows, so every load is aligned. Zero
 *      pairs around the copies make each row's ends free of special cases.
 *      Squaring: row i adds a_i^2 at position 2i and 2 a_j a_i at i + j,
 *      j > i: its first tile (position 2i, 2i+1) takes (a_i, 2 a_(i+1)),
 *      one VPBLENDD of the copies of a and 2a, the others 2a.
 *   2. Reduction, four rows (a "block") at a time, positions 4b..4b+3 of
 *      both halves by scalar code (the "triangle"), the rest by vector
 *      rows of m~ times y: with m~_0 = 2^28 - 1,
 *          y_s = X_s mod 2^28,   carry out of s = (X_s >> 28) + y_s
 *      (X_s + m~_0 y_s = 2^28 ((X_s >> 28) + y_s)), and with
 *      m~'_1 = m~_1 + 1 the y_s of that carry folds into the product for
 *      position s+1:  X_(s+1) = raw_(s+1) + (X_s >> 28) + m~'_1 y_s + ...
 *      The chain per position is AND, IMUL, ADD (5 cycles); the products
 *      by m~_2 and m~_3 inside the block are off it. Both halves' chains
 *      are independent and interleave. The vector part adds m~_j y_i to
 *      the positions 4b+4.. (tiles 2b+2..2b+NT+1); the triangle of block
 *      b+1 reads only tiles 2b+2, 2b+3 of them ("head").
 *   3. The carry out of position L-1 and positions L..2L-1 of T are the
 *      result; two lazy passes ("low 28 bits plus the carry of the digit
 *      below", VPERM2I128 moving the carries of the upper pair of a tile
 *      to the next tile) leave digits below 2^28 + 2^8.
 *
 * No subtraction of m ever happens in the kernels: outputs stay below
 * 2 m~ (Bounds) and feed the next product as they are. bn_exp2.c reduces
 * once, after the last product of the exponentiation (fc_mont_reduce),
 * and leaves the Montgomery domain with one 64-bit product by 2^-D mod m
 * (D = 28L - 64n).
 *
 * Schedule (one software-pipelined loop, block b = 0, 1, ...):
 *     TRI(b); PROD(b+1); TAIL(b-1); LOADY(b); HEAD(b)
 * TRI(b) needs the product rows up to 4b+3 and HEAD(b-1); PROD(b+1) (the
 * product's next block of rows, independent of every carry chain) and
 * TAIL(b-1) (tiles 2b+2.. of block b-1) keep the vector ports busy while
 * the triangle's chains run. PROD(b+1) comes before HEAD(b) so that the
 * head tiles are not rewritten by the product on the chain. Each tile is
 * straight code with constant displacements from the block pointer (no
 * loop counters or pointer increments on the vector ports' path); only
 * the squaring's product has loops (its rows shorten block by block).
 * A multiplication's product stores the tiles it is first to reach
 * instead of loading zeros (T is not cleared); the squaring clears T.
 *
 * ---- bounds -------------------------------------------------------------------
 *
 * Lanes: a position of T gets at most L products of digits below
 * 2^28 + 2^8 (the product; a squaring's doubled terms count twice and
 * are half as many) and L products m~_j y_i below 2^56: at most
 * 2L 2^56 (1 + 2^-19) < 2^63.3 for L = 76, below 2^64: no lane overflows
 * and no intermediate normalization is needed (this is what fixes 28
 * bits: with 29, 2L = 72 products of 2^58 overflow at L = 36). A
 * triangle's X adds a carry below 2^35.3 + 2^28: no 64-bit overflow. The
 * first normalization pass leaves digits below 2^28 + 2^35.3 (+ the carry
 * into position L), the second below 2^28 + 2^7.3.
 * Values: inputs below 2 m~ give (4 m~^2 + R m~) / R <= 2 m~ when
 * R >= 4 m~, i.e. 28L >= 64n + 28 + 2: n = 16: 1064 >= 1054; n = 24:
 * 1568 >= 1566; n = 32: 2128 >= 2078 (L even for the tiles). 2 m~ fits
 * in L digits.
 *
 * Aliasing: a and b are copied into the work buffer (the b copy at W_B)
 * before anything is written to r: r may alias a and/or b.
 *
 * Constant time: no branch or address depends on data; loops run a public
 * number of times (from L and count). The gather reads every entry in full
 * and selects with a VPCMPEQQ mask of the entry number against
 * (idx_p, idx_q, idx_p, idx_q).
 *
 * ---- cost, bound and measurements --------------------------------------------
 *
 * Per pair of products (count from the kernels' structure, the products
 * of zero padding left out; bench/fc_bn_bench computes the same):
 *
 *     L   VPMULUDQ    vector ALU uops      VPMULUDQ     vector ALU uops
 *         (product)   (product)            (squaring)   (squaring)
 *     38     1426        3063                 1102         2453
 *     56     3108        6528                 2380         5128
 *     76     5738       11898                 4370         9238
 *
 * plus ~50 scalar ALU uops (12 IMUL) per block of four rows. Bounds per
 * core, cycles per pair at L = 38 (uops.info figures for VPMULUDQ ymm,
 * VPADDQ ymm; measured here only on Golden Cove):
 *   Intel Skylake..Golden Cove: VPMULUDQ 2/cycle (p0, p1), VPADDQ 3/cycle
 *     (p0, p1, p5), ports shared with the scalar ALUs: ALU bound
 *     3063/3 = 1021 (product), 818 (squaring). MULX: 2 x 512 multiplier
 *     bound, 2 x ~700 measured.
 *   Haswell, Broadwell: VPMULUDQ 1/cycle (p0): 1426.
 *   AMD Zen 2: VPMULUDQ 1/cycle (FP0), VPADDQ 3/cycle: 1426 / 1102;
 *   Zen 3/4: VPMULUDQ 2/cycle, VPADDQ 4/cycle (FP0-3): max(713, 766) =
 *     766 / 613. The scalar triangles run on the integer pipes.
 *
 * Measured on the development Xeon (Golden Cove class, family 6 model
 * 207, shared 2-core KVM guest under load from other jobs; core clock
 * ~3.0 GHz = 1.30 x TSC by a chain of dependent register ADDs; minima of
 * many interleaved runs, core cycles per pair at L = 38):
 *
 *   version                                         product  squaring
 *   v1: tile loops, product then reduction,          1800    1620
 *       T cleared, odd copies by unaligned stores
 *   v2: tiles straight-line, product fused into      1437    1187
 *       the pipelined reduction, first-touch stores,
 *       aligned odd copies (VPERM2I128)
 *   + squaring product loop two tiles a trip         1437    1170
 *   + products of zero padding left out              1372    1139
 *   bound (three vector ports)                       1021     818
 *   MULX kernels, two halves (bn_mont_mulx.S)        1414    1152
 *   (L = 56: 2820 / 2330; L = 76: 5040 / 4110)
 *
 * v2's cost by parts (product, removing one part at a time): product 640,
 * reduction tails 500, triangles ~100 (their scalar uops share p0/p1/p5),
 * normalization 53; with product and tails removed the rest runs at the
 * triangle chain, ~50 cycles a block. So on this core the AVX2 pair
 * costs what two MULX products cost (measured bound ratio 1.34 / 1.39),
 * and tuning.c keeps MULX here. Per pair of exponentiations
 * (bench/fc_bn_bench, IFMA hidden, OpenSSL 3.0.19 in the same run): 1024-
 * bit halves AVX2 1.28M TSC ticks, MULX 1.22M, OpenSSL's
 * BN_mod_exp_mont_consttime 1.39M; 1536: 3.80M, 3.81M, 4.37M; 2048: 9.19M,
 * 8.74M, 10.28M (the exponentiation adds the window gathers, ~5%, and the
 * conversions). On the AMD cores above the bound is ~2x below MULX's
 * flag-bound cost (~2,000 cycles a pair on Zen 3).
 *
 * Considered and not done:
 * - radix 2^29 (36 digits for n16, 10% fewer products): the lanes
 *   overflow without a normalization of T between product and reduction,
 *   m~ no longer fits (a k0 IMUL per row, a longer chain): about even;
 * - the whole accumulator in registers (a rotating frame of 9 ymm per
 *   half): only one half fits in 16 ymm, and a frame of strided digits
 *   cannot skip the squaring's lower triangle;
 * - halves in separate registers or separate passes: the carry chain of
 *   one half alone is about as long as its vector work (~50 cycles a
 *   block), so the halves share the instruction stream.
 * On this core chains of ADD with an immediate run faster than one a
 * cycle (folded at rename): the clock calibration uses register ADDs.
 */
#include "fc_asm.h"
#include "fc/bn_exp2.h"

#if defined(__x86_64__)

/* ---- register table ------------------------------------------------------
 *
 * General registers (multiplication and squaring kernels):
 *   r8    W     work buffer: T at 0, y pairs, the copies of a, 2a, b, and
 *               W_SAVE (r, the squaring count, the loop's end, a counter)
 *   rcx   CTX   kernel constants (m~ copies, triangle scalars)
 *   r9    TB    T + 64b: the reduction block; the product block is
 *               addressed from it too (+64: block b+1)
 *   rbx   STS   squaring product: T + 128b' (its staircase tiles)
 *   r13   CP    carry into the triangle, half p
 *   r14   CQ    carry into the triangle, half q
 *   triangle temporaries: half p rax (X), rbp (y), r15, rsi; half q rdx
 *   (X), rdi (y), r10, r11
 *   squaring product loop: rax (tile), rbp (operand), r15 (count), free
 *   between triangles
 *   rdi, rsi, rdx: arguments, consumed (copied or saved) before the first
 *   triangle
 *
 * Vector registers:
 *   ymm0-3   y_i pairs (p, q, p, q) of the reduction block's rows
 *   ymm10-13 b_i (a_i) pairs of the product block's rows
 *            (VPMULUDQ reads only the low dword of a lane)
 *   ymm4     the tile being accumulated
 *   ymm5-8   products
 *   ymm9     scratch (y broadcasts, diagonal operands, 2a)
 *   normalization: ymm4/13 results, ymm5/10 and ymm6/12 carries (roles
 *   alternate between tiles), ymm8 scratch, ymm15 2^28 - 1 in every lane
 *   gather: ymm0-10 a chunk of tiles, ymm11 scratch, ymm12 entry number,
 *   ymm13 ones, ymm14 the indices, ymm15 the mask
 */
#define W   %r8
#define CTX %rcx
#define TB  %r9
#define TP  %r10
#define OP  %r11
#define CNT %r12
#define BLK %rbx
#define CP  %r13
#define CQ  %r14
#define XP  %rax
#define YP  %rbp
#define PP  %r15
#define QP  %rsi
#define XQ  %rdx
#define YQ  %rdi
#define PQ  %r10
#define QQ  %r11

.set	M28, 0x0fffffff

/* KSIZE l: the constants of one size (l digits per half). */
.macro KSIZE l
	.set	L, \l
	.set	NT, (\l) >> 1
	.set	NB4, (\l) >> 2
	.set	K2, (\l) & 2
	.set	YOFF, FC_EXP2_AVX2_W_Y(\l)
	.set	WAE, FC_EXP2_AVX2_W_AE(\l) + FC_EXP2_AVX2_BASE_E
	.set	WAO, FC_EXP2_AVX2_W_AO(\l) + FC_EXP2_AVX2_BASE_O
	.set	WA2E, FC_EXP2_AVX2_W_A2E(\l) + FC_EXP2_AVX2_BASE_E
	.set	WA2O, FC_EXP2_AVX2_W_A2O(\l) + FC_EXP2_AVX2_BASE_O
	.set	WSAVE, FC_EXP2_AVX2_W_SAVE(\l)
	.set	CME, FC_EXP2_AVX2_C_ME + FC_EXP2_AVX2_BASE_E
	.set	CMO, FC_EXP2_AVX2_C_MO(\l) + FC_EXP2_AVX2_BASE_O
	.set	CS, FC_EXP2_AVX2_C_S(\l)
	/* operand copies relative to the even copy of a */
	.set	WB, WA2E
	.set	OMO, CMO - CME
.endm

/* ---- prologue / epilogue ------------------------------------------------ */

.macro PROLOGUE
	push	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbx, -16
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -24
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
.endm

.macro EPILOGUE
	vzeroupper
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
	pop	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	ret
.endm

/* ---- tiles ---------------------------------------------------------------
 *
 * TILE tb, td, ob, d0, d1, d2, d3, mv, k, fresh: the tile at td(tb) +=
 * sum over the rows r < k (2 or 4) of (operand at d_r(ob)) * ymm(mv + r),
 * lane by lane; fresh: the tile was never written (no load). Clobbers
 * ymm4-8.
 */
.macro TILE tb, td, ob, d0, d1, d2, d3, mv, k, fresh, live=15
	.if \mv == 0
	TILEX	\tb, \td, \ob, \d0, \d1, \d2, \d3, 0, 1, 2, 3, \k, \fresh, \live
	.else
	TILEX	\tb, \td, \ob, \d0, \d1, \d2, \d3, 10, 11, 12, 13, \k, \fresh, \live
	.endif
.endm

/* live: the rows whose operand is not all zero padding (bit r); the
 * products of the others are left out (the tile's index is an assembly
 * constant). The products go to ymm5.. in order and are summed as a
 * tree. */
.macro TILEX tb, td, ob, d0, d1, d2, d3, m0, m1, m2, m3, k, fresh, live
	.set	_tn, 0
	.if	(\live) & 1
	VMULT	\d0, \ob, \m0
	.endif
	.if	((\live) >> 1) & 1
	VMULT	\d1, \ob, \m1
	.endif
	.if	(\k == 4) && (((\live) >> 2) & 1)
	VMULT	\d2, \ob, \m2
	.endif
	.if	(\k == 4) && (((\live) >> 3) & 1)
	VMULT	\d3, \ob, \m3
	.endif
	.if _tn == 0
	.if \fresh
	vpxor	%xmm4, %xmm4, %xmm4
	vmovdqa	%ymm4, \td(\tb)
	.endif
	.else
	.if _tn >= 2
	vpaddq	%ymm6, %ymm5, %ymm5
	.endif
	.if _tn == 4
	vpaddq	%ymm8, %ymm7, %ymm7
	.endif
	.if !\fresh
	vpaddq	\td(\tb), %ymm5, %ymm5
	.endif
	.if _tn >= 3
	vpaddq	%ymm7, %ymm5, %ymm4
	vmovdqa	%ymm4, \td(\tb)
	.else
	vmovdqa	%ymm5, \td(\tb)
	.endif
	.endif
.endm

/* VMULT d, ob, m: the next product, d(ob) * ymm<m>, into ymm(5 + _tn) */
.macro VMULT d, ob, m
	.if _tn == 0
	vpmuludq \d(\ob), %ymm\m, %ymm5
	.elseif _tn == 1
	vpmuludq \d(\ob), %ymm\m, %ymm6
	.elseif _tn == 2
	vpmuludq \d(\ob), %ymm\m, %ymm7
	.else
	vpmuludq \d(\ob), %ymm\m, %ymm8
	.endif
	.set	_tn, _tn + 1
.endm

/* LIVE(j): the rows r < 4 whose operand pairs j - r, j - r + 1 (digit
 * indices) are not both outside 0..L-1 */
#define LIVE1(j, r) ((((j) - (r) + 1 >= 0) && ((j) - (r) <= L - 1)) << (r))
#define LIVE(j) (LIVE1(j, 0) | LIVE1(j, 1) | LIVE1(j, 2) | LIVE1(j, 3))

/* ---- operand copies -------------------------------------------------------
 *
 * A copy region holds a number twice: the even copy (pair j at WAE + 16j)
 * and the odd copy (pair j at WAO + 16j, i.e. 32-byte chunk c at
 * WAO - 16 + 32c holds pairs 2c - 1, 2c), written with aligned stores
 * only: the odd chunk c is (tile c-1 high half, tile c low half), one
 * VPERM2I128.
 *
 * PUT_TILE t, v, vp, dbl: tile t of a number is in ymm<v>, tile t-1 in
 * ymm<vp> (zero for t = 0): store even tile, odd chunk t and, with dbl,
 * the same for 2a. dbl = 2: the even tile only, at WB (the b copy of a
 * multiplication). Clobbers ymm8, ymm9.
 */
.macro PUT_TILE t, v, vp, dbl
	.if \dbl == 2
	vmovdqa	%ymm\v, (WB + 32*\t)(W)
	.else
	vperm2i128 $0x21, %ymm\v, %ymm\vp, %ymm8
	vmovdqa	%ymm\v, (WAE + 32*\t)(W)
	vmovdqa	%ymm8, (WAO - 16 + 32*\t)(W)
	.if \dbl
	vpaddq	%ymm\v, %ymm\v, %ymm9
	vmovdqa	%ymm9, (WA2E + 32*\t)(W)
	vpaddq	%ymm8, %ymm8, %ymm8
	vmovdqa	%ymm8, (WA2O - 16 + 32*\t)(W)
	.endif
	.endif
.endm

/* PUT_LAST v, dbl: the odd chunk NT (pair L-1, zero pair). */
.macro PUT_LAST v, dbl
	.if \dbl != 2
	vperm2i128 $0x81, %ymm\v, %ymm\v, %ymm8
	vmovdqa	%ymm8, (WAO - 16 + 32*NT)(W)
	.if \dbl
	vpaddq	%ymm8, %ymm8, %ymm8
	vmovdqa	%ymm8, (WA2O - 16 + 32*NT)(W)
	.endif
	.endif
.endm

/* COPY_IN src, dbl: the copies of the NT tiles at src. Clobbers ymm4,
 * ymm8-10. */
.macro COPY_IN src, dbl
	vpxor	%xmm10, %xmm10, %xmm10
	.irp t, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37
	.if \t < NT
	.if (\t & 1) == 0
	vmovdqu	(32*\t)(\src), %ymm4
	PUT_TILE \t, 4, 10, \dbl
	.else
	vmovdqu	(32*\t)(\src), %ymm10
	PUT_TILE \t, 10, 4, \dbl
	.endif
	.endif
	.endr
	.if NT & 1
	PUT_LAST 4, \dbl
	.else
	PUT_LAST 10, \dbl
	.endif
.endm

/* ZERO_T: T = 0 (L tiles). Clobbers ymm4. */
.macro ZERO_T
	vpxor	%xmm4, %xmm4, %xmm4
	.set	_k, 0
	.rept	L
	vmovdqa	%ymm4, (32*_k)(W)
	.set	_k, _k + 1
	.endr
.endm

/* ---- product phase -------------------------------------------------------
 *
 * Multiplication, block b (rows i = 4b + r): ymm10-13 = b_i (pairs from
 * the b copy at WB), tile k = 2b + t (t = 0..NT+1) adds a_(2k-i),
 * a_(2k+1-i) times b_i: the operand at 32t - 16r from the even copy (r
 * even) or the odd copy (r odd) of a; zero pairs around the copies give
 * the rows' ends for free. The block's T tiles and b pairs are addressed
 * from TB + d (d = 64: the block after TB's), the copies of a from W.
 * fresh: 1 for block 0 (no tile written before), else tiles NT, NT+1 are
 * the ones no earlier block reached.
 */
#define AM(r,t) ((((r)&1)*(WAO-WAE))+WAE+32*(t)-16*(r))

.macro PROD_MUL d, first, k
	vbroadcasti128 (\d + WB)(TB), %ymm10
	vbroadcasti128 (\d + WB + 16)(TB), %ymm11
	.if \k == 4
	vbroadcasti128 (\d + WB + 32)(TB), %ymm12
	vbroadcasti128 (\d + WB + 48)(TB), %ymm13
	.endif
	.irp t, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39
	.if \t < NT + \k / 2
	.if \first || (\t >= NT)
	TILE	TB, (\d+32*\t), W, AM(0,\t), AM(1,\t), AM(2,\t), AM(3,\t), 10, \k, 1, LIVE(2*\t)
	.else
	TILE	TB, (\d+32*\t), W, AM(0,\t), AM(1,\t), AM(2,\t), AM(3,\t), 10, \k, 0, LIVE(2*\t)
	.endif
	.endif
	.endr
.endm

/*
 * Squaring, block b (rows 4b + r): row i adds a_i^2 at position 2i and
 * 2 a_j a_i at i + j for j > i: its tiles start at tile i with the
 * operand (a_i, 2a_(i+1)) (SQR_DIAG: low half from a, high half from 2a)
 * and go on with 2a. The block's four staircase tiles 4b..4b+3 are
 * straight code, tiles 4b+4+t (t < NT - 2 - 2b, a count in CNT) a loop.
 * Pointers: TS (rbx) = T + 128b; the copies and b_i from TB + d; the loop
 * uses rax (TP), rbp (OP), r15 (CNT), free between triangles. T is zeroed
 * before (every tile is read).
 */
#define STS  %rbx
#define STP  %rax
#define SOP  %rbp
#define SCNT %r15

.macro SQR_DIAG r, d, dst
	.if (\r) & 1
	vmovdqa	(\d + WAO + 16*(\r))(TB), \dst
	vpblendd $0xf0, (\d + WA2O + 16*(\r))(TB), \dst, \dst
	.else
	vmovdqa	(\d + WAE + 16*(\r))(TB), \dst
	vpblendd $0xf0, (\d + WA2E + 16*(\r))(TB), \dst, \dst
	.endif
.endm

/* the 2a operand of row 4b + r for the tile at byte offset x of the block
 * (relative to the even copy of a plus 64b) */
#define SQ2(r,x) ((((r)&1)*(WA2O-WA2E))+WA2E+(x)-16*(r))

.macro PROD_SQR d, k
	vbroadcasti128 (\d + WAE)(TB), %ymm10
	vbroadcasti128 (\d + WAE + 16)(TB), %ymm11
	.if \k == 4
	vbroadcasti128 (\d + WAE + 32)(TB), %ymm12
	vbroadcasti128 (\d + WAE + 48)(TB), %ymm13
	.endif
	/* staircase tile 4b: row 0 */
	SQR_DIAG 0, \d, %ymm9
	vpmuludq %ymm9, %ymm10, %ymm5
	vpaddq	0(STS), %ymm5, %ymm4
	vmovdqa	%ymm4, 0(STS)
	/* tile 4b+1: rows 0, 1 */
	SQR_DIAG 1, \d, %ymm9
	vpmuludq (\d+SQ2(0,32))(TB), %ymm10, %ymm5
	vpmuludq %ymm9, %ymm11, %ymm6
	vpaddq	32(STS), %ymm5, %ymm5
	vpaddq	%ymm6, %ymm5, %ymm4
	vmovdqa	%ymm4, 32(STS)
	.if \k == 4
	/* tile 4b+2: rows 0..2 */
	SQR_DIAG 2, \d, %ymm9
	vpmuludq (\d+SQ2(0,64))(TB), %ymm10, %ymm5
	vpmuludq (\d+SQ2(1,64))(TB), %ymm11, %ymm6
	vpmuludq %ymm9, %ymm12, %ymm7
	vpaddq	%ymm6, %ymm5, %ymm5
	vpaddq	64(STS), %ymm7, %ymm7
	vpaddq	%ymm7, %ymm5, %ymm4
	vmovdqa	%ymm4, 64(STS)
	/* tile 4b+3: rows 0..3 */
	SQR_DIAG 3, \d, %ymm9
	vpmuludq (\d+SQ2(0,96))(TB), %ymm10, %ymm5
	vpmuludq (\d+SQ2(1,96))(TB), %ymm11, %ymm6
	vpmuludq (\d+SQ2(2,96))(TB), %ymm12, %ymm7
	vpmuludq %ymm9, %ymm13, %ymm8
	vpaddq	%ymm6, %ymm5, %ymm5
	vpaddq	%ymm8, %ymm7, %ymm7
	vpaddq	96(STS), %ymm5, %ymm5
	vpaddq	%ymm7, %ymm5, %ymm4
	vmovdqa	%ymm4, 96(STS)
	/* tiles 4b+4 ..: all four rows with 2a */
	/* NT - 2 - 2b tiles: odd for odd NT (one peeled), two a trip */
	mov	(WSAVE + 16)(W), SCNT
	subq	$1, (WSAVE + 16)(W)
	lea	128(STS), STP
	lea	(\d + 128)(TB), SOP
	.if NT & 1
	TILE	STP, 0, SOP, SQ2(0,0), SQ2(1,0), SQ2(2,0), SQ2(3,0), 10, 4, 0
	add	$32, STP
	add	$32, SOP
	.endif
	test	SCNT, SCNT
	jz	3f
.balign 16
2:
	TILE	STP, 0, SOP, SQ2(0,0), SQ2(1,0), SQ2(2,0), SQ2(3,0), 10, 4, 0
	TILE	STP, 32, SOP, SQ2(0,32), SQ2(1,32), SQ2(2,32), SQ2(3,32), 10, 4, 0
	add	$64, STP
	add	$64, SOP
	dec	SCNT
	jnz	2b
3:
	add	$128, STS
	.endif
	/* k == 2 (the last two rows, L = 2 mod 4): the row 4b+1 ends at tile
	 * (4b + 1 + L - 1) / 2 = 4b + 1, nothing beyond the staircase */
.endm

/* ---- reduction ----------------------------------------------------------- */

/*
 * TRI4_HALF h, X, Y, P, Q, C: the triangle of block b for half h: the
 * positions 4b..4b+3, from the raw sums in tiles 2b, 2b+1 (TB) and the
 * carry C into position 4b, to y_(4b..4b+3) (stored to W_Y) and the carry
 * into 4b+4 (in C). With m~_0 = 2^28 - 1, y_s = X_s mod 2^28 and the carry
 * out of position s is (X_s >> 28) + y_s; m~'_1 = m~_1 + 1 folds that y_s
 * into the product for position s+1, so the chain per position is AND,
 * IMUL, ADD. The products by m~_2, m~_3 are off the chain.
 */
.macro TRI4_HALF h, X, Y, P, Q, C
	mov	(8*\h)(TB), \X
	add	\C, \X
	mov	\X, \Y
	and	$M28, \Y
	mov	\Y, (YOFF + 8*\h)(TB)
	shr	$28, \X
	mov	(16 + 8*\h)(TB), \P
	add	\X, \P
	mov	\Y, \X
	imul	(CS + 8*\h)(CTX), \X
	add	\P, \X				/* X1 */
	mov	\Y, \Q
	imul	(CS + 16 + 8*\h)(CTX), \Q
	add	(32 + 8*\h)(TB), \Q		/* raw2 + m2 y0 */
	mov	\Y, \P
	imul	(CS + 32 + 8*\h)(CTX), \P
	add	(48 + 8*\h)(TB), \P		/* raw3 + m3 y0 */
	/* position 1 */
	mov	\X, \Y
	and	$M28, \Y
	mov	\Y, (YOFF + 16 + 8*\h)(TB)
	shr	$28, \X
	add	\X, \Q
	mov	\Y, \X
	imul	(CS + 8*\h)(CTX), \X
	add	\Q, \X				/* X2 */
	mov	\Y, \Q
	imul	(CS + 16 + 8*\h)(CTX), \Q
	add	\Q, \P				/* + m2 y1 */
	/* position 2 */
	mov	\X, \Y
	and	$M28, \Y
	mov	\Y, (YOFF + 32 + 8*\h)(TB)
	shr	$28, \X
	add	\X, \P
	mov	\Y, \X
	imul	(CS + 8*\h)(CTX), \X
	add	\P, \X				/* X3 */
	/* position 3 */
	mov	\X, \Y
	and	$M28, \Y
	mov	\Y, (YOFF + 48 + 8*\h)(TB)
	shr	$28, \X
	lea	(\X, \Y), \C
.endm

/* TRI4: both halves; the two chains are independent and interleave in
 * the schedulers. */
.macro TRI4
	TRI4_HALF 0, XP, YP, PP, QP, CP
	TRI4_HALF 1, XQ, YQ, PQ, QQ, CQ
.endm

/* TRI2: the same for the two positions of a two-row block. */
.macro TRI2_HALF h, X, Y, P, C
	mov	(8*\h)(TB), \X
	add	\C, \X
	mov	\X, \Y
	and	$M28, \Y
	mov	\Y, (YOFF + 8*\h)(TB)
	shr	$28, \X
	mov	(16 + 8*\h)(TB), \P
	add	\X, \P
	mov	\Y, \X
	imul	(CS + 8*\h)(CTX), \X
	add	\P, \X				/* X1 */
	mov	\X, \Y
	and	$M28, \Y
	mov	\Y, (YOFF + 16 + 8*\h)(TB)
	shr	$28, \X
	lea	(\X, \Y), \C
.endm

.macro TRI2
	TRI2_HALF 0, XP, YP, PP, CP
	TRI2_HALF 1, XQ, YQ, PQ, CQ
.endm

/* LOADY k: ymm_r = (yp, yq, yp, yq) of row 4b + r, r < k, from W_Y.
 * Clobbers ymm9. */
.macro LOADY k
	.irp	r, 0,1,2,3
	.if	\r < \k
	vpbroadcastq (YOFF + 16*\r)(TB), %ymm\r
	vpbroadcastq (YOFF + 16*\r + 8)(TB), %ymm9
	vpblendd $0xcc, %ymm9, %ymm\r, %ymm\r
	.endif
	.endr
.endm

/* the m~ operand of row r for the tile at byte offset x of a block */
#define RM(r,x) (((((r)&1)*OMO)+(x)-16*(r))+CME)

/* HEAD: bulk tiles 0, 1 (T tiles 2b+2, 2b+3) of block b = TB: the two
 * the next triangle reads. */
.macro HEAD
	TILE	TB, 64, CTX, RM(0,64), RM(1,64), RM(2,64), RM(3,64), 0, 4, 0
	TILE	TB, 96, CTX, RM(0,96), RM(1,96), RM(2,96), RM(3,96), 0, 4, 0
.endm

/* TAIL td: bulk tiles 2..NT-1 of block b, tile t at td + 32t from TB
 * (td = 64 while TB is block b, 0 once it moved to block b+1). */
.macro TAIL td
	.irp t, 2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37
	.if \t < NT
	TILE	TB, (\td+32*\t), CTX, RM(0,64+32*\t), RM(1,64+32*\t), RM(2,64+32*\t), RM(3,64+32*\t), 0, 4, 0, LIVE(4+2*\t)
	.endif
	.endr
.endm

/* BULK2: the last block when L = 2 mod 4 (rows 4b, 4b+1): tiles 2b+1 ..
 * 2b+NT, tile t at 32 + 32t from TB, operand at 32 + 32t - 16r. */
.macro BULK2
	.irp t, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37
	.if \t < NT
	TILE	TB, (32+32*\t), CTX, RM(0,32+32*\t), RM(1,32+32*\t), RM(0,0), RM(0,0), 0, 2, 0, LIVE(2+2*\t)
	.endif
	.endr
.endm

/*
 * MONT sqr: the product and the Montgomery reduction of T by m~, four
 * rows a block, in one software-pipelined loop. Reduction block b: the
 * scalar triangle (y for both halves, the carries), the y broadcasts,
 * then the block's rows on T tiles 2b+2 .. 2b+NT+1. The triangle of block
 * b+1 needs only tiles 2b+2, 2b+3 ("head") of block b and the product
 * rows up to 4b+7, so one trip is
 *     TRI(b); PROD(b+1); TAIL(b-1); LOADY(b); HEAD(b)
 * and the carry chain of TRI(b) runs while PROD(b+1) and TAIL(b-1) keep
 * the vector ports busy. PROD(b+1) comes before HEAD(b) so that the head
 * tiles are not read-modify-written by the product on the chain.
 * Out: CP, CQ = the carries into position L.
 */
.macro PROD sqr, d, first, k
	.if \sqr
	PROD_SQR \d, \k
	.else
	PROD_MUL \d, \first, \k
	.endif
.endm

.macro MONT sqr
	mov	W, TB
	.if \sqr
	mov	W, STS
	movq	$((NT - 2) >> 1), (WSAVE + 16)(W)
	.endif
	lea	(64 * (NB4 - 2))(W), %rax
	mov	%rax, (WSAVE + 24)(W)
	PROD	\sqr, 0, 1, 4
	xor	CP, CP
	xor	CQ, CQ
	TRI4
	PROD	\sqr, 64, 0, 4
	LOADY	4
	HEAD
	.if NB4 > 2
.balign 16
1:
	add	$64, TB
	TRI4
	PROD	\sqr, 64, 0, 4
	TAIL	0
	LOADY	4
	HEAD
	cmp	(WSAVE + 24)(W), TB
	jne	1b
	.endif
	/* b = NB4 - 1 */
	add	$64, TB
	TRI4
	.if K2
	PROD	\sqr, 64, 0, 2
	.endif
	TAIL	0
	LOADY	4
	HEAD
	.if K2
	add	$64, TB
	TRI2
	TAIL	0
	LOADY	2
	BULK2
	.else
	TAIL	64
	.endif
.endm

/* ---- normalization --------------------------------------------------------
 *
 * NORM_TILE t, v, vp, c, cp, c2, c2p, mode: tile NT + t of T, two passes of
 * "low 28 bits plus the carry of the digit below" (the carry of the pair
 * below is the high half of the previous tile's carries: VPERM2I128),
 * result in ymm<v> (the previous result in ymm<vp>). Register roles
 * alternate between tiles. mode 0: to (%rax) + 32t; mode 1: into the
 * copies a, 2a for the next squaring.
 */
.macro NORM_TILE t, v, vp, c, cp, c2, c2p, mode
	vmovdqa	(32*(NT + \t))(W), %ymm\v
	vpsrlq	$28, %ymm\v, %ymm\c
	vpand	%ymm15, %ymm\v, %ymm\v
	vperm2i128 $0x21, %ymm\c, %ymm\cp, %ymm8
	vpaddq	%ymm8, %ymm\v, %ymm\v
	vpsrlq	$28, %ymm\v, %ymm\c2
	vpand	%ymm15, %ymm\v, %ymm\v
	vperm2i128 $0x21, %ymm\c2, %ymm\c2p, %ymm8
	vpaddq	%ymm8, %ymm\v, %ymm\v
	.if \mode == 0
	vmovdqu	%ymm\v, (32*\t)(%rax)
	.else
	PUT_TILE \t, \v, \vp, 1
	.endif
.endm

/*
 * NORM mode: the result (tiles NT..L-1, with the carries CP, CQ into
 * position L) to digits below 2^28 + 2^8 (two passes, see Bounds).
 * Clobbers ymm4-13, ymm15.
 */
.macro NORM mode
	mov	$M28, %r10d
	vmovq	%r10, %xmm15
	vpbroadcastq %xmm15, %ymm15
	vmovq	CP, %xmm10
	vpinsrq	$1, CQ, %xmm10, %xmm10
	vpxor	%xmm11, %xmm11, %xmm11
	vinserti128 $1, %xmm10, %ymm11, %ymm10	/* (0, 0, cp, cq) */
	vpxor	%xmm12, %xmm12, %xmm12
	vpxor	%xmm13, %xmm13, %xmm13
	.irp t, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37
	.if \t < NT
	.if (\t & 1) == 0
	NORM_TILE \t, 4, 13, 5, 10, 6, 12, \mode
	.else
	NORM_TILE \t, 13, 4, 10, 5, 12, 6, \mode
	.endif
	.endif
	.endr
	.if \mode
	.if NT & 1
	PUT_LAST 4, 1
	.else
	PUT_LAST 13, 1
	.endif
	.endif
.endm

/* ---- entry points ---------------------------------------------------------- */

/*
 * MUL_BODY: r = AMM(a, b). rdi r, rsi a, rdx b, rcx ctx, r8 work. a and b
 * are read into the work buffer first, r written last: r may alias them.
 */
.macro MUL_BODY
	PROLOGUE
	mov	%rdi, WSAVE(W)
	COPY_IN	%rsi, 0
	COPY_IN	%rdx, 2
	MONT	0
	mov	WSAVE(W), %rax
	NORM	0
	EPILOGUE
.endm

/*
 * SQR_BODY: r = a after count >= 1 AMM squarings. rdi r, rsi a, rdx
 * count, rcx ctx, r8 work. Each pass leaves its result in the copies the
 * next one reads; the last is copied to r.
 */
.macro SQR_BODY
	PROLOGUE
	mov	%rdi, WSAVE(W)
	mov	%rdx, (WSAVE + 8)(W)
	COPY_IN	%rsi, 1
.balign 16
5:
	ZERO_T
	MONT	1
	NORM	1
	decq	(WSAVE + 8)(W)
	jnz	5b
	mov	WSAVE(W), %rax
	.set	_k, 0
	.rept	NT
	vmovdqa	(WAE + 32*_k)(W), %ymm4
	vmovdqu	%ymm4, (32*_k)(%rax)
	.set	_k, _k + 1
	.endr
	EPILOGUE
.endm

/*
 * GATHER: out = half p of entry idx_p and half q of entry idx_q of a table
 * of count entries of NT tiles (rdi out, rsi table, rdx count, rcx idx_p,
 * r8 idx_q). Every entry is read in full; the lane mask is a comparison
 * of the entry number with (idx_p, idx_q, idx_p, idx_q), so no index
 * reaches an address or a branch. Chunks of up to 11 tiles stay in
 * ymm0-10 over the whole table.
 */
.macro GATHER_CHUNK c0, nc
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < \nc
	vpxor	%xmm\j, %xmm\j, %xmm\j
	.endif
	.endr
	vpxor	%xmm12, %xmm12, %xmm12		/* entry number */
	mov	%rsi, %rax
	mov	%rdx, %r9
.balign 16
1:
	vpcmpeqq %ymm14, %ymm12, %ymm15
	vpaddq	%ymm13, %ymm12, %ymm12
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < \nc
	vpand	(32*(\c0 + \j))(%rax), %ymm15, %ymm11
	vpor	%ymm11, %ymm\j, %ymm\j
	.endif
	.endr
	add	$(32*NT), %rax
	dec	%r9
	jnz	1b
	.irp j, 0,1,2,3,4,5,6,7,8,9,10
	.if \j < \nc
	vmovdqu	%ymm\j, (32*(\c0 + \j))(%rdi)
	.endif
	.endr
.endm

.macro GATHER_BODY
	vmovq	%rcx, %xmm14
	vpinsrq	$1, %r8, %xmm14, %xmm14
	vinserti128 $1, %xmm14, %ymm14, %ymm14
	mov	$1, %eax
	vmovq	%rax, %xmm13
	vpbroadcastq %xmm13, %ymm13
	.set	_c, 0
	.rept	4
	.if _c < NT
	.if NT - _c >= 11
	GATHER_CHUNK _c, 11
	.else
	GATHER_CHUNK _c, (NT - _c)
	.endif
	.endif
	.set	_c, _c + 11
	.endr
	vzeroupper
	ret
.endm

/*
 * void fc_bn_mul28x2_nXX_avx2(uint64_t *r, const uint64_t *a,
 *                             const uint64_t *b, const uint64_t *ctx,
 *                             uint64_t *work);
 * void fc_bn_sqr28x2_nXX_avx2(uint64_t *r, const uint64_t *a, size_t count,
 *                             const uint64_t *ctx, uint64_t *work);
 * void fc_bn_gather28x2_nXX_avx2(uint64_t *out, const uint64_t *table,
 *                                size_t count, size_t idx_p, size_t idx_q);
 */
KSIZE	FC_EXP2_AVX2_L16
FC_FUNC_START(fc_bn_mul28x2_n16_avx2)
	MUL_BODY
FC_FUNC_END(fc_bn_mul28x2_n16_avx2)
FC_FUNC_START(fc_bn_sqr28x2_n16_avx2)
	SQR_BODY
FC_FUNC_END(fc_bn_sqr28x2_n16_avx2)
FC_FUNC_START(fc_bn_gather28x2_n16_avx2)
	GATHER_BODY
FC_FUNC_END(fc_bn_gather28x2_n16_avx2)

KSIZE	FC_EXP2_AVX2_L24
FC_FUNC_START(fc_bn_mul28x2_n24_avx2)
	MUL_BODY
FC_FUNC_END(fc_bn_mul28x2_n24_avx2)
FC_FUNC_START(fc_bn_sqr28x2_n24_avx2)
	SQR_BODY
FC_FUNC_END(fc_bn_sqr28x2_n24_avx2)
FC_FUNC_START(fc_bn_gather28x2_n24_avx2)
	GATHER_BODY
FC_FUNC_END(fc_bn_gather28x2_n24_avx2)

KSIZE	FC_EXP2_AVX2_L32
FC_FUNC_START(fc_bn_mul28x2_n32_avx2)
	MUL_BODY
FC_FUNC_END(fc_bn_mul28x2_n32_avx2)
FC_FUNC_START(fc_bn_sqr28x2_n32_avx2)
	SQR_BODY
FC_FUNC_END(fc_bn_sqr28x2_n32_avx2)
FC_FUNC_START(fc_bn_gather28x2_n32_avx2)
	GATHER_BODY
FC_FUNC_END(fc_bn_gather28x2_n32_avx2)

#endif /* __x86_64__ */
