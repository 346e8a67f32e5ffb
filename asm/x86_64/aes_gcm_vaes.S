/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_gcm_vaes.S - AES-GCM (SP 800-38D) bulk kernels with VAES and
 * VPCLMULQDQ on ymm registers: two AES blocks and two GHASH blocks per
 * instruction, 16 blocks per main-loop iteration.
 *
 * CPU features: AES-NI, PCLMULQDQ, AVX, AVX2, VAES, VPCLMULQDQ. Only VEX
 * encodings (VEX.256 VAESENC/VAESENCLAST/VPCLMULQDQ), no EVEX: this tier is
 * meant for VAES parts without AVX-512 (Zen 3, Alder Lake) and runs as well
 * on those with it.
 *
 * ABI: SysV AMD64. Only caller-saved GPRs (rax, rcx, rdx, rsi, rdi, r8-r11)
 * and vector registers are used; no stack frame. The encrypt/decrypt
 * kernels (leaf functions) keep 32 bytes in the red zone below %rsp, wiped
 * before return. Every return goes through vzeroupper.
 *
 * Contract: include/fc/gcm.h. The kernels implement inc32 (block i uses the
 * counter block with its last 32 bits, big-endian, + i mod 2^32; bytes
 * 0..11 unchanged), so a call may cross the wrap, and they treat the
 * counter as secret (for IVs other than 96 bits J0 = GHASH_H(IV)).
 *
 * Math.
 *  - Bit order. GHASH's field is GF(2^128) = GF(2)[x]/(g), g = x^128 + x^7 +
 *    x^2 + x + 1, and SP 800-38D maps the most significant bit of byte 0
 *    (0x80) to x^0 and bit 0 of byte 15 to x^127. Reversing the 16 bytes
 *    (VPSHUFB with .Lbswap_mask) gives a 128-bit register whose bit 127-k
 *    holds the coefficient of x^k: a fully bit-reflected polynomial. Call
 *    that form R(a). In R form, multiplying by x is a right shift by one.
 *  - Products. For R(a), R(b) the 255-bit carry-less product has the
 *    coefficient of x^k of a*b at bit 254-k. Read as a 256-bit register in
 *    the same reflected convention (bit 255-k holds x^k) this is R(a*b*x):
 *    reflected multiplication costs one extra factor x.
 *  - H preprocessing. The table holds H^i * x^-1 (mod g) instead of H^i, so
 *    that xi * (H^i x^-1) * x = xi * H^i comes out of the multiplier with no
 *    shift, and (H^i x^-1)(H^j x^-1) x = H^(i+j) x^-1 keeps the table closed
 *    under the same multiplier. x^-1 = x^127 + x^6 + x + 1, so H*x^-1 is a
 *    left shift of R(H) by one, XORed with R(x^-1) =
 *    0xc2000000000000000000000000000001 when the shifted-out bit (the x^0
 *    coefficient) was set; done with masks, no branch.
 *  - Karatsuba. Each 128x128 product is LO = a0*b0, HI = a1*b1 and
 *    MI = (a0^a1)*(b0^b1) ^ LO ^ HI (64-bit halves), three VPCLMULQDQ. The
 *    (b0^b1) halves of the powers are precomputed in the table. With
 *    aggregation, blocks m_1..m_n are hashed as sum m_k * H^(n+1-k) (xi
 *    folded into m_1), LO, MI and HI are summed unreduced over all n
 *    products, and the Karatsuba fix-up and the reduction run once.
 *  - Reduction. The 256-bit sum HI:MI:LO (MI at bit offset 64) is R(p) for
 *    a polynomial p of degree < 255 whose high terms x^128..x^255 sit in
 *    the low register bits. Each low 64-bit word W is folded with
 *    x^128 = x^7 + x^2 + x + 1: bit k of W moves 128 bits up (a qword swap
 *    into the next word) and 127, 126 and 121 bits up, which is one
 *    VPCLMULQDQ of W by 0xc200000000000000 landing 64 bits up. Two folds
 *    (LO.q0 into MI, then MI.q0 into HI) leave R(p mod g) in HI. The whole
 *    reduction is linear, so it runs on both ymm lanes at once and the two
 *    lanes are XORed at the very end.
 *
 * Design. All figures below were measured on this project's reference
 * machine (Xeon, Sapphire Rapids class, 2 shared cores, TSC 2.6 GHz, core
 * ~3.7-3.9 GHz), kernel alone in a loop, best of >= 15 runs, in core cycles
 * (c) and cycles per byte (c/B).
 *  - What bounds the loop. VAESENC ymm: 2/cycle, latency 3; VPCLMULQDQ ymm:
 *    1/cycle, latency 3. But AES, carry-less multiplies, shuffles and
 *    VPXOR/VPADDD all issue on the same three vector ports: 8 VAESENC + 24
 *    VPXOR take 10.8 c (= 32/3), 8 VAESENC + 4 VPCLMULQDQ + 12 VPXOR 8.5 c.
 *    In the stitched loop, replacing all VAESENC (or all VPCLMULQDQ) by
 *    VPXOR leaves the time unchanged. So the cost of 16 blocks is their
 *    vector-uop count / 3: AES-128 has 187 uops (80 AES rounds, 26
 *    multiplies, 81 others) -> >= 62 c; measured 68-70 c. Every choice
 *    below removes uops; none adds a multiply to save an XOR.
 *  - Table (FC_GCM_HTABLE_BYTES = 512, at key + 256): bytes 0..255 hold
 *    R(H^16 x^-1), R(H^15 x^-1), ..., R(H^1 x^-1), 16 bytes each, highest
 *    power first; bytes 256..511 hold, for the same powers in the same
 *    order, the Karatsuba half (h0 ^ h1) in both qwords. The list is
 *    contiguous, so a ymm load at byte 16*(16-n) + 32j gives the powers
 *    [H^(n-2j), H^(n-2j-1)] for any n: tails of any length use the same
 *    table with unaligned loads. Init squares its way up (H^2, [H^4, H^3],
 *    [H^8..H^5], [H^16..H^9]: four multiplies deep): ~70 c (~19 ns) per key.
 *  - Main loop: 16 blocks (8 ymm of AES state) per iteration. Encryption
 *    runs AES on the next 16 counters while hashing the 16 ciphertext
 *    blocks of the previous iteration (reloaded from |out|); decryption
 *    hashes the 16 ciphertext blocks it is decrypting. One GHASH pair (two
 *    blocks, three VPCLMULQDQ) is woven into each of AES rounds 1..8 and the
 *    reduction into round 9, instruction by instruction (step-indexed
 *    macros); AES-192/256 add their extra rounds behind a predictable
 *    branch, so one body serves all key sizes. The plaintext is XORed into
 *    the last round key off the AES chain (VAESENCLAST does the final XOR).
 *    Register budget: 8 AES states, round key, LO/MI/HI, 2 temporaries,
 *    counter and byte-swap mask: all 16 ymm registers.
 *    16 vs 8 blocks per iteration (decrypt, correct code for both):
 *    AES-128 67-73 c vs 75-77 c per 256 bytes, AES-256 73-80 c vs 88-95 c:
 *    half the reductions and loop overhead.
 *  - Karatsuba vs schoolbook (four multiplies per pair, no VPSHUFD/VPXOR
 *    on the data): same uop count, and schoolbook loaded the multiplier
 *    port more: stitched AES-128 loop 72 c vs 74 c, GHASH alone 33 c vs
 *    35.5 c per 16 blocks. Karatsuba kept.
 *  - Counters (secret, so no branch or address may depend on them). CTR
 *    holds eight 32-bit counters as numbers: dword k of lane l is
 *    c + 2k + l, so lane 0 has the even blocks of the group and lane 1 the
 *    odd ones. VPADDD steps them (16 per group; CTR + 8 gives blocks
 *    8..15): 32-bit lane adds wrap mod 2^32 and carry nowhere, which is
 *    inc32. One VPSHUFB with a constant control per pair then moves dword
 *    j of each lane, byte-reversed, to bytes 12..15 and zeroes bytes
 *    0..11, and one VPXOR adds [ctr bytes 0..11 | 0] ^ rk[0] (computed
 *    once per call, kept in the red zone): two uops per pair, as few as
 *    any form here, plus two VPADDD per group. The former code added a
 *    constant to dword 3 of the stored block while byte 15 could not
 *    carry and took a byte-reversed path otherwise: a branch on the
 *    counter, now gone. Against it (kernel alone, medians of 15-21
 *    interleaved rounds, TSC (2.6 GHz) cycles per byte), the byte-reversed
 *    form (add, VPSHUFB, XOR per pair) everywhere cost 6-10%; this form
 *    costs 0-2.5% (old -> now):
 *                   16 KiB enc    16 KiB dec    1344 B enc    1344 B dec
 *      AES-128      0.174->0.178  0.164->0.167  0.178->0.182  0.170->0.177
 *      AES-256      0.201->0.201  0.197->0.197  0.215->0.217  0.203->0.204
 *  - GHASH alone (AAD; fc_ghash_vaes_avx2): the pair that carries xi is
 *    hashed last, so the previous reduction overlaps the other seven pairs:
 *    33 c -> 30 c per 16 blocks (0.12 c/B).
 *  - Tails (1..15 blocks): one AES pass over 1, 2, 4, 6 or 8 ymm of
 *    counters (up to 6 registers, AES latency rather than throughput is
 *    the bound), then a straight-line chain that XORs, stores and hashes
 *    pair by pair with H^r..H^1, and one reduction. For encryption with a
 *    pending 16-block group, its GHASH (with its own reduction) follows the
 *    tail's AES in program order so the two overlap out of order. One
 *    block costs ~30 c, four ~35 c.
 *
 *  Results, c/B, two runs on a busy machine (the clock estimate moves by
 *  ~8% between runs; the ratios, measured in the same process, move less).
 *  In brackets: OpenSSL 3.0's default provider (its 6-block xmm loop),
 *  EVP update on the same buffers, same process:
 *                       16 KiB           1344 B           1 KiB
 *    AES-128 encrypt    0.26-0.27 [0.54] 0.25-0.28 [0.55] 0.27 [0.61]
 *    AES-128 decrypt    0.25-0.27 [0.54] 0.25-0.27 [0.55] 0.27 [0.61]
 *    AES-256 encrypt    0.29     [0.60]  0.30-0.32 [0.68] 0.30 [0.68]
 *    AES-256 decrypt    0.28-0.29 [0.62] 0.29-0.31 [0.66] 0.28 [0.68]
 *  i.e. 2.0-2.2x at 16 KiB, 2.1-2.4x at 1-1.3 KiB; 16 and 64 bytes take
 *  30 and 35 cycles (2.4-3.4x the EVP update alone).
 *  AES-256 cannot reach 2.5x here: its 32 extra AES uops per 16 blocks
 *  alone add ~11 c to the port bound (>= 73 c, 0.29 c/B).
 *
 * CT: VAES, VPCLMULQDQ and the vector ALU instructions are data-independent
 * in time; branches and addresses depend only on the block count and the
 * number of rounds. The counter lives only in vector registers (CTR, D,
 * the AES states) and the red-zone block: no instruction moves it to a
 * general register, a flag or an address.
 */
#include "fc_asm.h"
#include "fc/asm_offsets.h"

#if defined(__x86_64__)

FC_RODATA
.balign	32
/* Reverses the bytes of each 128-bit lane. */
.Lbswap_mask:
	.byte	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	.byte	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
/* x^127 + x^126 + x^121 seen from a 64-bit word: the reduction multiplier,
 * in every qword so that any VPCLMULQDQ selector works. */
.Lgfpoly:
	.quad	0xc200000000000000, 0xc200000000000000
	.quad	0xc200000000000000, 0xc200000000000000
/* R(x^-1) = R(x^127 + x^6 + x + 1), for H * x^-1, in both lanes. */
.Lgfpoly_xinv:
	.quad	1, 0xc200000000000000, 1, 0xc200000000000000
/* Steps both lanes of a byte-reversed counter pair by two blocks (tails:
 * VPADDD on dword 0, the counter as a number, wraps mod 2^32). */
.Lctr_inc2:
	.long	2, 0, 0, 0, 2, 0, 0, 0
/* Counter offsets of CTR: dword k of lane l is c + 2k + l. */
.Lctr_offs:
	.long	0, 2, 4, 6, 1, 3, 5, 7
.Lctr_step8:
	.long	8, 8, 8, 8, 8, 8, 8, 8
.Lctr_step16:
	.long	16, 16, 16, 16, 16, 16, 16, 16
/* Keeps bytes 0..11 of each lane (the counter block's fixed part). */
.Lctr_fixed:
	.long	-1, -1, -1, 0, -1, -1, -1, 0
/* VPSHUFB controls, j = 0..3: dword j of each lane, byte-reversed, into
 * bytes 12..15; bytes 0..11 zeroed. */
.Lctr_pick:
.irp	j, 0, 1, 2, 3
.rept	2
	.byte	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
	.byte	0x80, 0x80, 0x80, 0x80, 4*\j+3, 4*\j+2, 4*\j+1, 4*\j
.endr
.endr

.text

/*
 * Vector register names shared by all functions. The GPR names (KEY, IN,
 * OUT, ...) are set in each function's own table.
 */
.set	RK,	%ymm8		// round key, both lanes (tail: free)
.set	RKx,	%xmm8
.set	LO,	%ymm9		// GHASH accumulators (Karatsuba terms)
.set	LOx,	%xmm9
.set	MI,	%ymm10
.set	MIx,	%xmm10
.set	HI,	%ymm11		// also xi, in R form, between groups:
.set	HIx,	%xmm11		//   the reduction leaves it here
.set	XI,	%ymm11
.set	XIx,	%xmm11
.set	D,	%ymm12		// data block pair being hashed
.set	Dx,	%xmm12
.set	T,	%ymm13		// product / scratch
.set	Tx,	%xmm13
.set	CTR,	%ymm14		// main loop: counters as numbers, dword k
.set	CTRx,	%xmm14		//   of lane l = c + 2k + l; tail keystream:
				//   the byte-reversed blocks [c, c + 1]
.set	XT,	%ymm14		// tail chain only: xi (CTR is dead by then)
.set	XTx,	%xmm14
.set	BSWAP,	%ymm15		// .Lbswap_mask
.set	BSWAPx,	%xmm15
				// %ymm0-%ymm7: AES states / keystream

/*
 * _ghash_pair i, j, first, fold, dbase, doff, hbase, hoff: step i (0..10)
 * of hashing the block pair j (two blocks) at doff+32*j(dbase) against the
 * powers at hoff+32*j(hbase) and their Karatsuba halves 256 bytes further.
 * first=1: LO/MI/HI are written rather than accumulated. fold=1: xi (XI)
 * is XORed into the pair's first block (pair 0); when XI is HI, this pair
 * must also be first (XI is read before HI is written).
 * In: BSWAP, XI (fold=1). Out: LO, MI, HI. Clobbers: D, T.
 */
.macro	_ghash_pair i, j, first, fold, dbase, doff, hbase, hoff
.if	\i == 0
	vmovdqu	\doff+32*\j(\dbase), D
.elseif	\i == 1
	vpshufb	BSWAP, D, D
.elseif	\i == 2
.if	\fold
	vpxor	XI, D, D
.endif
.elseif	\i == 3
.if	\first
	vpclmulqdq	$0x00, \hoff+32*\j(\hbase), D, LO
.else
	vpclmulqdq	$0x00, \hoff+32*\j(\hbase), D, T
.endif
.elseif	\i == 4
.if	!\first
	vpxor	T, LO, LO
.endif
.elseif	\i == 5
.if	\first
	vpclmulqdq	$0x11, \hoff+32*\j(\hbase), D, HI
.else
	vpclmulqdq	$0x11, \hoff+32*\j(\hbase), D, T
.endif
.elseif	\i == 6
.if	!\first
	vpxor	T, HI, HI
.endif
.elseif	\i == 7
	vpshufd	$0x4e, D, T
.elseif	\i == 8
	vpxor	T, D, D
.elseif	\i == 9
.if	\first
	vpclmulqdq	$0x00, \hoff+256+32*\j(\hbase), D, MI
.else
	vpclmulqdq	$0x00, \hoff+256+32*\j(\hbase), D, T
.endif
.elseif	\i == 10
.if	!\first
	vpxor	T, MI, MI
.endif
.endif
.endm

/*
 * _ghash_reduce_step i (0..11): Karatsuba fix-up of the aggregated LO, MI,
 * HI (both lanes), the two folds of the reduction, then the XOR of the two
 * lanes. After step 11, XIx holds the new xi in R form (upper lane zero).
 * In: LO, MI, HI. Out: XI (= HI). Clobbers: LO, MI, T.
 */
.macro	_ghash_reduce_step i
.if	\i == 0
	vpxor	LO, MI, MI
.elseif	\i == 1
	vpxor	HI, MI, MI
.elseif	\i == 2
	vpclmulqdq	$0x00, .Lgfpoly(%rip), LO, T	// LO.q0 folded...
.elseif	\i == 3
	vpshufd	$0x4e, LO, LO
.elseif	\i == 4
	vpxor	LO, MI, MI
.elseif	\i == 5
	vpxor	T, MI, MI			// ...into MI
.elseif	\i == 6
	vpclmulqdq	$0x00, .Lgfpoly(%rip), MI, T	// MI.q0 folded...
.elseif	\i == 7
	vpshufd	$0x4e, MI, MI
.elseif	\i == 8
	vpxor	MI, HI, HI
.elseif	\i == 9
	vpxor	T, HI, HI			// ...into HI
.elseif	\i == 10
	vextracti128	$1, HI, Tx		// lane 1 + lane 0
.elseif	\i == 11
	vpxor	Tx, HIx, XIx
.endif
.endm

.macro	_ghash_reduce
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
	_ghash_reduce_step	\s
.endr
.endm

/*
 * _ghash_16 dbase, doff, hbase, hoff, late=0: xi = (xi ^ m_1) H^16 ^ ...
 * ^ m_16 H for the 16 blocks at doff(dbase), with the full table at
 * hoff(hbase). late=1 (XI must not be HI): the pair holding xi goes last,
 * so only its product and the reduction wait for the previous xi (one
 * multiply-reduce latency per 16 blocks instead of the whole accumulation:
 * GHASH alone 33 -> 30 cycles per 16 blocks).
 * In/out: XI. Clobbers: LO, MI, HI, D, T.
 */
.macro	_ghash_16 dbase, doff, hbase, hoff, late=0
.if	\late
.irp	j, 1, 2, 3, 4, 5, 6, 7, 0
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
	_ghash_pair	\s, \j, (\j == 1), (\j == 0), \dbase, \doff, \
			\hbase, \hoff
.endr
.endr
.else
.irp	j, 0, 1, 2, 3, 4, 5, 6, 7
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
	_ghash_pair	\s, \j, (\j == 0), (\j == 0), \dbase, \doff, \
			\hbase, \hoff
.endr
.endr
.endif
	_ghash_reduce
.endm

/*
 * _aes_round r, n, ghj, dbase, doff: AES round r (1 .. 13) on %ymm0 ..
 * %ymm(n-1) with rk[r] broadcast from KEY, interleaved instruction by
 * instruction with GHASH work: ghj = 0..7 hashes pair ghj of the group at
 * doff(dbase) (table at KEY + 256), ghj = 8 runs the reduction, ghj = -1
 * adds nothing.
 * In: KEY, %ymm0.., BSWAP, and the GHASH state. Clobbers: RK (+ GHASH's).
 */
.macro	_aes_round r, n, ghj=-1, dbase=KEY, doff=0
	vbroadcasti128	FC_OFF_AES_RK+16*\r(KEY), RK
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
.if	\s < \n
	vaesenc	RK, %ymm\s, %ymm\s
.endif
.if	\ghj >= 0 && \ghj < 8 && \s <= 10
	_ghash_pair	\s, \ghj, (\ghj == 0), (\ghj == 0), \dbase, \doff, \
			KEY, FC_OFF_GCM_HTABLE
.elseif	\ghj == 8
	_ghash_reduce_step	\s
.endif
.endr
.endm

/*
 * _ctr16_start: the next 16 counter blocks in %ymm0..%ymm7 (pair j: blocks
 * 2j, 2j + 1), XORed with rk[0], and CTR advanced by 16 (mod 2^32 in each
 * dword). Pair j < 4 takes dword j of CTR's lanes, pair j >= 4 dword j - 4
 * of CTR + 8, through .Lctr_pick; CBLK(%rsp) supplies bytes 0..11 and
 * rk[0]. No branch: the counter is secret.
 * In: CTR, CBLK(%rsp). Out: %ymm0-%ymm7, CTR. Clobbers: RK, D.
 */
.macro	_ctr16_start
	vmovdqu	CBLK(%rsp), RK
	vpaddd	.Lctr_step8(%rip), CTR, D
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7
.if	\s < 4
	vpshufb	.Lctr_pick+32*\s(%rip), CTR, %ymm\s
.else
	vpshufb	.Lctr_pick+32*(\s-4)(%rip), D, %ymm\s
.endif
	vpxor	RK, %ymm\s, %ymm\s
.endr
	vpaddd	.Lctr_step16(%rip), CTR, CTR
.endm

/*
 * _aes_ctr_start n: makes the next 2n counter blocks in %ymm0..%ymm(n-1)
 * (block order: low lane first), XORs in rk[0] and advances CTR by 2n.
 * In: KEY, CTR, BSWAP. Out: %ymm0.., CTR. Clobbers: RK.
 */
.macro	_aes_ctr_start n
	vbroadcasti128	FC_OFF_AES_RK(KEY), RK
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7
.if	\s < \n
	vpshufb	BSWAP, CTR, %ymm\s
	vpaddd	.Lctr_inc2(%rip), CTR, CTR
	vpxor	RK, %ymm\s, %ymm\s
.endif
.endr
.endm

/*
 * _aes_extra_rounds n, lbl: rounds 10 and 11 for AES-192, 10 to 13 for
 * AES-256 (ROUNDS = 12 or 14), none for AES-128; ends at label lbl.
 * In: KEY, ROUNDS, %ymm0... Clobbers: RK, flags.
 */
.macro	_aes_extra_rounds n, lbl
	cmp	$12, ROUNDS
	jb	\lbl
	_aes_round	10, \n
	_aes_round	11, \n
	je	\lbl			// flags of the cmp above survive AES
	_aes_round	12, \n
	_aes_round	13, \n
\lbl:
.endm

/*
 * _aes_ctr_keystream n, lbl: E(K, inc32^i(ctr)) for the next 2n counters, in
 * %ymm0..%ymm(n-1), CTR advanced by 2n. lbl: a unique label name.
 * In: KEY, RKLAST, ROUNDS, CTR, BSWAP. Clobbers: RK, flags.
 */
.macro	_aes_ctr_keystream n, lbl
	_aes_ctr_start	\n
.irp	r, 1, 2, 3, 4, 5, 6, 7, 8, 9
	_aes_round	\r, \n
.endr
	_aes_extra_rounds	\n, \lbl
	vbroadcasti128	(RKLAST), RK
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7
.if	\s < \n
	vaesenclast	RK, %ymm\s, %ymm\s
.endif
.endr
.endm

/*
 * _crypt_16 ghash, dbase, doff, lbl: one main-loop iteration: out[0..16) =
 * in[0..16) ^ E(K, ctr + 0..15); with ghash=1 the 16 blocks at
 * doff(dbase) are hashed into XI in the same pass. Loads all of in[0..16)
 * before storing (in == out). Does not advance IN/OUT.
 * In: KEY, IN, OUT, RKLAST, ROUNDS, CTR, CBLK(%rsp), BSWAP, XI.
 * Out: CTR += 16, XI.
 * Clobbers: %ymm0-%ymm7, RK, LO, MI, D, T, flags.
 */
.macro	_crypt_16 ghash, dbase, doff, lbl
	_ctr16_start
.irp	r, 1, 2, 3, 4, 5, 6, 7, 8, 9
.if	\ghash
	_aes_round	\r, 8, (\r - 1), \dbase, \doff
.else
	_aes_round	\r, 8
.endif
.endr
	_aes_extra_rounds	8, \lbl
	// Last round: rk[Nr] ^ plaintext computed off the AES chain, so
	// VAESENCLAST yields the ciphertext directly.
	vbroadcasti128	(RKLAST), RK
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7
.if	\s & 1
	vpxor	32*\s(IN), RK, D
	vaesenclast	D, %ymm\s, %ymm\s
.else
	vpxor	32*\s(IN), RK, T
	vaesenclast	T, %ymm\s, %ymm\s
.endif
.endr
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu	%ymm\s, 32*\s(OUT)
.endr
.endm

/*
 * _tail_keystream lbl: keystream for the BLOCKS (1..15) tail blocks in
 * %ymm0.. (pair j in %ymm j), computing 2, 4, 8, 12 or 16 blocks. CTR
 * comes in as the main loop keeps it (dword 0 of its lanes: c, c + 1) and
 * becomes the byte-reversed blocks [c, c + 1]: the byte-reversed counter
 * block from CTRP with dword 0 of each lane replaced (VPBLENDD); from there
 * VPADDD steps dword 0, again inc32.
 * In: KEY, RKLAST, ROUNDS, CTR, CTRP, BSWAP, BLOCKS. Clobbers: RK, CTR,
 * flags.
 */
.macro	_tail_keystream lbl
	vbroadcasti128	(CTRP), RK
	vpshufb	BSWAP, RK, RK
	vpblendd	$0x11, CTR, RK, CTR	// [c, c + 1] as numbers
	cmp	$4, BLOCKS
	jbe	\lbl\()_le4
	cmp	$8, BLOCKS
	jbe	\lbl\()_le8
	cmp	$12, BLOCKS
	jbe	\lbl\()_le12
	_aes_ctr_keystream	8, \lbl\()_x16
	jmp	\lbl\()_done
\lbl\()_le12:
	_aes_ctr_keystream	6, \lbl\()_x12
	jmp	\lbl\()_done
\lbl\()_le8:
	_aes_ctr_keystream	4, \lbl\()_x8
	jmp	\lbl\()_done
\lbl\()_le4:
	cmp	$2, BLOCKS
	jbe	\lbl\()_le2
	_aes_ctr_keystream	2, \lbl\()_x4
	jmp	\lbl\()_done
\lbl\()_le2:
	_aes_ctr_keystream	1, \lbl\()_x2
\lbl\()_done:
.endm

/*
 * _tail_pair mode, j, w: the XOR/store (mode 1: encrypt, 2: decrypt; 0:
 * GHASH only) and the accumulating hash of tail pair j; w = 32 for two
 * blocks (ymm), 16 for the last, odd block (xmm). Pair 0 XORs in xi (XT).
 * In: IN, OUT, HP (powers for this tail), %ymm j (keystream), XT, BSWAP.
 * Out: LO, MI, HI (accumulated). Clobbers: D, T, %ymm j.
 */
.macro	_tail_pair mode, j, w
	// TP*: the operand width for this call (ymm pair or xmm block).
.if	\w == 32
	.set	TPV, %ymm\j
	.set	TPD, D
	.set	TPT, T
	.set	TPX, XT
	.set	TPB, BSWAP
.else
	.set	TPV, %xmm\j
	.set	TPD, Dx
	.set	TPT, Tx
	.set	TPX, XTx
	.set	TPB, BSWAPx
.endif
.if	\mode == 1
	vpxor	32*\j(IN), TPV, TPV
	vmovdqu	TPV, 32*\j(OUT)
	vpshufb	TPB, TPV, TPD
.else
	vmovdqu	32*\j(IN), TPD
.if	\mode == 2
	vpxor	TPD, TPV, TPV
	vmovdqu	TPV, 32*\j(OUT)
.endif
	vpshufb	TPB, TPD, TPD
.endif
.if	\j == 0
	vpxor	TPX, TPD, TPD
.endif
	// An xmm product leaves T's upper lane zero (VEX.128), so the
	// accumulators always take the full T.
	vpclmulqdq	$0x00, 32*\j(HP), TPD, TPT
	vpxor	T, LO, LO
	vpclmulqdq	$0x11, 32*\j(HP), TPD, TPT
	vpxor	T, HI, HI
	vpshufd	$0x4e, TPD, TPT
	vpxor	TPT, TPD, TPD
	vpclmulqdq	$0x00, 256+32*\j(HP), TPD, TPT
	vpxor	T, MI, MI
.endm

/*
 * _tail mode, lbl, hbase, hoff: hashes (and for modes 1/2 en/decrypts
 * with the keystream in %ymm0..) the BLOCKS (1..15) tail blocks at IN with
 * H^BLOCKS..H^1, one reduction. Table at hoff(hbase).
 * In: XI, IN, OUT, BLOCKS, BSWAP, keystream. Out: XI.
 * Clobbers: HP, %ymm0-%ymm7, LO, MI, D, T, XT, flags.
 */
.macro	_tail mode, lbl, hbase, hoff
	// HP = table + 16*(16 - BLOCKS): pair j then finds its powers at
	// 32j(HP), ending with H^1 at the table's last entry.
	mov	BLOCKS, HP
	shl	$4, HP
	neg	HP
	lea	\hoff+256(\hbase, HP), HP
	vmovdqa	XIx, XTx
	vpxor	LOx, LOx, LOx
	vpxor	MIx, MIx, MIx
	vpxor	HIx, HIx, HIx
.irp	j, 0, 1, 2, 3, 4, 5, 6
	cmp	$2*\j+2, BLOCKS
	jb	\lbl\()_odd\j
	_tail_pair	\mode, \j, 32
.endr
	// 14 blocks done; BLOCKS is 14 or 15.
.irp	j, 7, 6, 5, 4, 3, 2, 1, 0
\lbl\()_odd\j:
	// BLOCKS is 2j or 2j + 1.
	test	$1, BLOCKS
	jz	\lbl\()_reduce
	_tail_pair	\mode, \j, 16
	jmp	\lbl\()_reduce
.endr
\lbl\()_reduce:
	_ghash_reduce
.endm

/*
 * void fc_gcm_init_vaes_avx2(uint8_t *htable, const uint8_t h[16]);
 *
 * Fills the 512-byte |htable| from the hash key h = E(K, 0^128): R(H^i *
 * x^-1) for i = 16 down to 1, then their Karatsuba halves (layout in the
 * file header). Reads h[0..16), writes htable[0..512).
 * Every new key runs this once, so it is kept short: four levels of
 * multiplies, two powers per ymm, eight multiplies in all (48 VPCLMULQDQ,
 * at one per cycle nearly the latency of the chain). Level 1 works on
 * [H, H] (broadcast by the load) so that [H^2, H^2] needs no lane shuffle;
 * [H^4, H^4] and [H^8, H^8] are lane copies (VPERMQ, 3 cycles), cheaper
 * than squaring again (measured: 10 multiplies with no VPERMQ took 83
 * cycles back to back, this 8-multiply form 70-72).
 * CT: nothing about h leaks.
 */

/* Register table (init). */
.set	HTAB,	%rdi		// out: the table
.set	HPTR,	%rsi		// in: h
.set	B1,	%ymm0		// [H^1, H^1]
.set	B2,	%ymm1		// [H^2, H^2]
.set	B4,	%ymm2		// [H^4, H^4] (lane copy of P2)
.set	B8,	%ymm3		// [H^8, H^8] (lane copy of P4)
.set	P1,	%ymm4		// [H^2, H^1]
.set	P2,	%ymm5		// [H^4, H^3]
.set	P3,	%ymm6		// [H^6, H^5]
.set	P4,	%ymm7		// [H^8, H^7]
.set	GR,	%ymm8		// _gmul result for [H^10, H^9] .. [H^16, H^15]
.set	G0,	%ymm9		// _gmul scratch
.set	G1,	%ymm10
.set	G2,	%ymm11
.set	MASK,	%ymm12		// H preprocessing: mask
.set	SHC,	%ymm13		// H preprocessing: carry

/*
 * _gmul a, b, r, t0, t1, t2: r = a * b * x mod g in R form, per 128-bit
 * lane (schoolbook: four independent multiplies, the shortest latency).
 * a, b, r, t0-t2 all xmm or all ymm; r may not alias a or b.
 * Clobbers: t0, t1, t2.
 */
.macro	_gmul a, b, r, t0, t1, t2
	vpclmulqdq	$0x00, \b, \a, \t0	// LO
	vpclmulqdq	$0x01, \b, \a, \t1	// MI = a1*b0 ^ a0*b1
	vpclmulqdq	$0x10, \b, \a, \t2
	vpxor	\t2, \t1, \t1
	vpclmulqdq	$0x11, \b, \a, \r	// HI
	vpclmulqdq	$0x00, .Lgfpoly(%rip), \t0, \t2
	vpshufd	$0x4e, \t0, \t0
	vpxor	\t0, \t1, \t1
	vpxor	\t2, \t1, \t1
	vpclmulqdq	$0x00, .Lgfpoly(%rip), \t1, \t2
	vpshufd	$0x4e, \t1, \t1
	vpxor	\t1, \r, \r
	vpxor	\t2, \r, \r
.endm

/* _store_powers p, off: stores [H^a, H^b] at off and its Karatsuba halves
 * 256 bytes further. Clobbers: G0. */
.macro	_store_powers p, off
	vmovdqu	\p, \off(HTAB)
	vpshufd	$0x4e, \p, G0
	vpxor	\p, G0, G0
	vmovdqu	G0, 256+\off(HTAB)
.endm

FC_FUNC_START(fc_gcm_init_vaes_avx2)
	vbroadcasti128	(HPTR), B1
	vpshufb	.Lbswap_mask(%rip), B1, B1	// [R(H), R(H)]
	// H * x^-1: shift left by one across the qwords; if bit 127 (the x^0
	// coefficient) was set, add R(x^-1). Mask, no branch.
	vpshufd	$0xff, B1, MASK
	vpsrad	$31, MASK, MASK
	vpand	.Lgfpoly_xinv(%rip), MASK, MASK
	vpsrlq	$63, B1, SHC
	vpslldq	$8, SHC, SHC			// bit 63 -> bit 64
	vpsllq	$1, B1, B1
	vpor	SHC, B1, B1
	vpxor	MASK, B1, B1			// x^-1 implied from here on
	_gmul	B1, B1, B2, G0, G1, G2		// level 1
	vpblendd	$0xf0, B1, B2, P1	// [H^2, H^1]
	_store_powers	P1, 224
	_gmul	P1, B2, P2, G0, G1, G2		// level 2
	vpermq	$0x44, P2, B4
	_store_powers	P2, 192
	_gmul	P1, B4, P3, G0, G1, G2		// level 3
	_gmul	P2, B4, P4, G0, G1, G2
	vpermq	$0x44, P4, B8
	_store_powers	P3, 160
	_store_powers	P4, 128
	_gmul	P1, B8, GR, G0, G1, G2		// level 4
	_store_powers	GR, 96
	_gmul	P2, B8, GR, G0, G1, G2
	_store_powers	GR, 64
	_gmul	P3, B8, GR, G0, G1, G2
	_store_powers	GR, 32
	_gmul	P4, B8, GR, G0, G1, G2
	_store_powers	GR, 0
	vzeroupper
	ret
FC_FUNC_END(fc_gcm_init_vaes_avx2)

/*
 * void fc_ghash_vaes_avx2(const uint8_t *htable, uint8_t xi[16],
 *                         const uint8_t *in, size_t blocks);
 *
 * For each of the |blocks| 16-byte blocks b of |in|: xi = (xi ^ b) * H,
 * with |htable| from fc_gcm_init_vaes_avx2. 16 blocks per reduction, then
 * the 1..15 left over with one more. Reads in[0 .. 16*blocks), reads and
 * writes xi; blocks == 0 touches nothing. No alignment needed.
 * CT: timing depends only on |blocks|.
 */

/* Register table (GHASH). */
.set	HTAB,	%rdi		// the table
.set	XIP,	%rsi		// xi in/out
.set	IN,	%rdx		// data, advanced
.set	BLOCKS,	%rcx		// blocks left
.set	HP,	%rax		// tail: powers for the tail's length
.set	OUT,	%rdx		// unused by mode 0 (named for _tail_pair)
.set	XI,	%ymm0		// xi, in R form: apart from HI so that the
.set	XIx,	%xmm0		//   xi pair can go last (_ghash_16 late=1)

FC_FUNC_START(fc_ghash_vaes_avx2)
	test	BLOCKS, BLOCKS
	jz	.Lghash_ret
	vmovdqa	.Lbswap_mask(%rip), BSWAP
	vmovdqu	(XIP), XIx
	vpshufb	BSWAPx, XIx, XIx
	cmp	$16, BLOCKS
	jb	.Lghash_tail
.Lghash_loop:
	_ghash_16	IN, 0, HTAB, 0, 1
	add	$256, IN
	sub	$16, BLOCKS
	cmp	$16, BLOCKS
	jae	.Lghash_loop
	test	BLOCKS, BLOCKS
	jz	.Lghash_done
.Lghash_tail:
	_tail	0, .Lghash_t, HTAB, 0
.Lghash_done:
	vpshufb	BSWAPx, XIx, XIx
	vmovdqu	XIx, (XIP)
.Lghash_ret:
	vzeroupper			// also on the blocks == 0 path
	ret
FC_FUNC_END(fc_ghash_vaes_avx2)
.set	XI,	%ymm11		// back to the shared name
.set	XIx,	%xmm11

/*
 * void fc_gcm_enc_vaes_avx2(const fc_gcm_key *key, const uint8_t *in,
 *                           uint8_t *out, size_t blocks,
 *                           const uint8_t ctr[16], uint8_t xi[16]);
 *
 * CTR-encrypts |blocks| 16-byte blocks: out[i] = in[i] ^ E(K, inc32^i(ctr))
 * (bytes 12..15, big-endian, + i mod 2^32; bytes 0..11 fixed), and absorbs
 * every ciphertext block into xi. |key| holds the
 * AES-NI encryption schedule at offset 0 and this file's table at 256.
 * Reads in[0 .. 16*blocks), ctr, xi; writes out[0 .. 16*blocks) and xi;
 * ctr is not written back. in == out allowed, no other overlap; no
 * alignment needed; blocks == 0 touches nothing. Uses 32 bytes of red
 * zone, wiped before return.
 * CT: timing depends only on |blocks| and the number of rounds; the
 * counter, like key, xi and data, reaches no branch or address.
 */

/* Register table (encrypt and decrypt). */
.set	KEY,	%rdi		// fc_gcm_key: round keys at 0, table at 256
.set	IN,	%rsi		// input, advanced
.set	OUT,	%rdx		// output, advanced with IN
.set	BLOCKS,	%rcx		// blocks left
.set	CTRP,	%r8		// the counter block (read at setup and by
				//   the tail)
.set	XIP,	%r9		// xi in/out
.set	RKLAST,	%rax		// &rk[Nr]
.set	HP,	%r10		// tail: powers for the tail's length
.set	PEND,	%r10		// encrypt: 16 hashed-pending blocks at OUT-256
.set	ROUNDS,	%r11d		// Nr: 10, 12 or 14
.set	CBLK,	-32		// (%rsp), red zone: ([ctr bytes 0..11 | 0] ^
				//   rk[0]) in both lanes; wiped on return

/* _crypt_setup: loads the constants, xi and the key size; CTR = c + 2k + l
 * in dword k of lane l (c = the last 32 bits of ctr as a number), and the
 * fixed part of the round-0 state at CBLK(%rsp). Clobbers: T, RK. */
.macro	_crypt_setup
	vmovdqa	.Lbswap_mask(%rip), BSWAP
	vbroadcasti128	(CTRP), T		// [ctr, ctr], big-endian
	vpshufb	BSWAP, T, CTR
	vpshufd	$0x00, CTR, CTR			// c in every dword
	vpaddd	.Lctr_offs(%rip), CTR, CTR
	vpand	.Lctr_fixed(%rip), T, T
	vbroadcasti128	FC_OFF_AES_RK(KEY), RK
	vpxor	RK, T, T
	vmovdqu	T, CBLK(%rsp)
	vmovdqu	(XIP), XIx
	vpshufb	BSWAPx, XIx, XIx
	mov	FC_OFF_AES_ROUNDS(KEY), ROUNDS
	mov	ROUNDS, %eax
	shl	$4, %eax
	lea	FC_OFF_AES_RK(KEY, %rax), RKLAST
.endm

FC_FUNC_START(fc_gcm_enc_vaes_avx2)
	test	BLOCKS, BLOCKS
	jz	.Lenc_ret
	_crypt_setup
	xor	PEND, PEND
	cmp	$16, BLOCKS
	jb	.Lenc_tail
	// The first group has no ciphertext to hash yet.
	_crypt_16	0, IN, 0, .Lenc_x0
	add	$256, IN
	add	$256, OUT
	sub	$16, BLOCKS
	cmp	$16, BLOCKS
	jb	.Lenc_last
	.balign	32
.Lenc_loop:
	_crypt_16	1, OUT, -256, .Lenc_x1
	add	$256, IN
	add	$256, OUT
	sub	$16, BLOCKS
	cmp	$16, BLOCKS
	jae	.Lenc_loop
.Lenc_last:
	// The previous group is still to be hashed.
	test	BLOCKS, BLOCKS
	jnz	.Lenc_tail_pending
	_ghash_16	OUT, -256, KEY, FC_OFF_GCM_HTABLE
	jmp	.Lenc_done
.Lenc_tail_pending:
	mov	$1, PEND
.Lenc_tail:
	_tail_keystream	.Lenc_k
	test	PEND, PEND
	jz	1f
	// Independent of the keystream above: runs beside it.
	_ghash_16	OUT, -256, KEY, FC_OFF_GCM_HTABLE
1:
	_tail	1, .Lenc_t, KEY, FC_OFF_GCM_HTABLE
.Lenc_done:
	vpshufb	BSWAPx, XIx, XIx
	vmovdqu	XIx, (XIP)
	vpxor	T, T, T
	vmovdqu	T, CBLK(%rsp)
.Lenc_ret:
	vzeroupper			// also on the blocks == 0 path
	ret
FC_FUNC_END(fc_gcm_enc_vaes_avx2)

/*
 * void fc_gcm_dec_vaes_avx2(const fc_gcm_key *key, const uint8_t *in,
 *                           uint8_t *out, size_t blocks,
 *                           const uint8_t ctr[16], uint8_t xi[16]);
 *
 * The inverse of fc_gcm_enc_vaes_avx2: absorbs every ciphertext block of
 * |in| into xi and writes out[i] = in[i] ^ E(K, ctr + i). Same contract:
 * in == out allowed, no other overlap, ctr not written back, blocks == 0
 * touches nothing. The tag check is the caller's.
 * CT: timing depends only on |blocks| and the number of rounds; the
 * counter reaches no branch or address.
 */
FC_FUNC_START(fc_gcm_dec_vaes_avx2)
	test	BLOCKS, BLOCKS
	jz	.Ldec_ret
	_crypt_setup
	cmp	$16, BLOCKS
	jb	.Ldec_tail
	.balign	32
.Ldec_loop:
	_crypt_16	1, IN, 0, .Ldec_x1
	add	$256, IN
	add	$256, OUT
	sub	$16, BLOCKS
	cmp	$16, BLOCKS
	jae	.Ldec_loop
	test	BLOCKS, BLOCKS
	jz	.Ldec_done
.Ldec_tail:
	_tail_keystream	.Ldec_k
	_tail	2, .Ldec_t, KEY, FC_OFF_GCM_HTABLE
.Ldec_done:
	vpshufb	BSWAPx, XIx, XIx
	vmovdqu	XIx, (XIP)
	vpxor	T, T, T
	vmovdqu	T, CBLK(%rsp)
.Ldec_ret:
	vzeroupper			// also on the blocks == 0 path
	ret
FC_FUNC_END(fc_gcm_dec_vaes_avx2)

#endif /* __x86_64__ */
