/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_vaes.S - AES-CBC decryption and AES-CTR (inc32), 16 blocks at a time
 * in ymm registers with VAES (two AES blocks per VAESDEC/VAESENC).
 *
 * CPU features: AES-NI, AVX, AVX2, VAES (VEX.256 VAESDEC/VAESDECLAST,
 * VAESENC/VAESENCLAST).
 * Only VEX encodings are used, so the kernel runs on VAES parts without
 * AVX-512 (Zen 3, Alder Lake) as well as on those with it.
 *
 * ABI: SysV AMD64. Arguments in rdi, rsi, rdx, rcx, r8; only rax and the
 * vector registers are clobbered; no stack frame. Ends with vzeroupper.
 * CTR clears every vector register it used before returning.
 *
 * Math: CBC decryption is P[i] = D(C[i]) ^ C[i-1], with C[-1] = IV. The
 * D(C[i]) are independent, so any number of blocks run in parallel; only
 * the final XOR needs the previous ciphertext. The key is the Equivalent
 * Inverse Cipher schedule (FIPS-197 5.3.5) that fc_aes_set_dec_key_aesni
 * writes: rk[0] whitens, AESDEC applies rk[1..Nr-1], AESDECLAST rk[Nr].
 * Since AESDECLAST ends with "^ rk[Nr]", P[i] = AESDECLAST(state,
 * rk[Nr] ^ C[i-1]): the chaining XOR folds into the last round key, and
 * that XOR is computed off the AES dependency chain.
 *
 * Design:
 *  - Every round key is broadcast to both 128-bit lanes of a ymm register
 *    (VBROADCASTI128), so one VAESDEC does one round of two blocks.
 *  - 8 ymm = 16 blocks in flight per main-loop iteration. VAESDEC ymm has a
 *    latency of 3 (Intel Golden Cove / Ice Lake) or 4 (Zen 3) cycles at two
 *    per cycle, so 6 to 8 independent registers keep both AES units busy;
 *    8 is all the 16 ymm registers allow next to the keys.
 *  - Registers hold rk[0], rk[Nr] and rk[1..4]; the remaining middle keys
 *    are re-broadcast from memory once per round per iteration (one load
 *    for eight VAESDECs; the load ports are nearly idle). Measured on this
 *    Xeon (Sapphire Rapids class), 16 KiB buffers: keeping 4 middle keys
 *    resident vs none made no measurable difference; it is kept to save
 *    front-end uops.
 *  - The shifted ciphertext vector [C[2j-1], C[2j]] is an unaligned load
 *    from in + 32j - 16, except for j = 0 whose low lane is the chaining
 *    value kept in a register (PREV): no byte before |in| is ever read.
 *  - in == out: every load of an iteration (the ciphertext, the shifted
 *    chaining vectors and the next chaining value) is issued before its
 *    first store. Keeping the chaining value in a register also means the
 *    next iteration never reloads a block that was just overwritten, so
 *    in-place runs have no store-to-load dependency between iterations.
 *  - Tails: the leftover 0..15 blocks are done as 8, 4, 2 (ymm) and 1
 *    (xmm) blocks by the same macro. These pieces depend on each other only
 *    through PREV, which is loaded from memory, so the out-of-order core
 *    overlaps their AES chains: back-to-back calls of 15 blocks cost about
 *    what 16 do (31 vs 35 TSC ticks per call, AES-128).
 *  - One copy of the code per key size (rounds are public): no round-count
 *    branches inside the loop (about 5 KB of code in all).
 *  Measured on this Xeon (Sapphire Rapids class, 2 shared cores), 16 KiB
 *  per call, one thread, GB/s = 1e9 bytes/s, best of 5; the reference is
 *  the 8-wide xmm AES-NI loop of the default OpenSSL 3.0 provider
 *  ("openssl speed -elapsed -evp aes-N-cbc -decrypt -bytes 16384"):
 *    AES-128: 23.5-24.0 GB/s vs 11.5-11.7 GB/s (2.0x)
 *    AES-192: 19.3-19.9 GB/s vs  9.7-9.8  GB/s (2.0x)
 *    AES-256: 16.8-17.2 GB/s vs  7.7-8.5  GB/s (2.0x)
 *  AES-128 at 2 VAESDEC per cycle needs 40 cycles per 256 bytes; at the
 *  ~3.6-3.7 GHz measured here, 24 GB/s is ~40 cycles: the AES units are
 *  the bound, and only a wider unit (zmm) could go faster.
 *
 * CTR (inc32), below, has the same shape: 16 blocks in 8 ymm registers
 * per step, two consecutive counters per register. The counter pair stays
 * in a register with each lane's last word byte-swapped; there VPADDD of 2
 * is inc32 twice over, and one VPSHUFB per register swaps a copy back into
 * two counter blocks (with the whitening XOR, three operations per two
 * blocks, off the AES chain). rk[0], rk[1], rk[2] and rk[Nr] stay
 * resident; each middle key is broadcast once per round per step. The
 * keystream XOR is folded into VAESENCLAST (key rk[Nr] ^ input). 16 KiB
 * calls, TSC ticks per byte (best of 7 x 125 calls, same runs):
 * 0.111 / 0.134 / 0.162 (AES-128/192/256), i.e. 2.6 / 3.2 / 3.8 core
 * cycles per block against the 2-VAESENC-per-cycle bound Nr / 4 = 2.5 /
 * 3 / 3.5; OpenSSL 3.0.19's default provider (8-wide xmm AES-NI, through
 * EVP) 0.256 / 0.293 / 0.346: 2.3x / 2.2x / 2.1x. The registers are
 * cleared with VEX.128 zero idioms and VZEROUPPER at the end: VZEROALL,
 * microcoded, nearly doubled a one-block call (27 -> 15 ticks). A call of
 * one block (AES-CTR's short updates, a partial block's keystream) skips
 * the ymm set-up: its counter block is |ctr| as it is and its round keys
 * memory operands; openssl speed -evp aes-128-ctr -bytes 16 went from
 * 0.83-0.93x of default to 1.05-1.10x.
 *
 * CT: VAES/AES-NI instructions are data-independent in time; the only
 * branches depend on the block count and the number of rounds.
 */
#include "fc_asm.h"
#include "fc/asm_offsets.h"

#if defined(__x86_64__)

/*
 * void fc_aes_cbc_dec_vaes_avx2(const fc_aes_key *key, const uint8_t *in,
 *                               uint8_t *out, size_t blocks,
 *                               uint8_t iv[16]);
 *
 * Decrypts |blocks| 16-byte blocks from |in| to |out| in CBC mode with the
 * decryption schedule |key| (fc_aes_set_dec_key_aesni), chaining from |iv|,
 * and writes the last ciphertext block back to |iv|. Reads exactly
 * in[0 .. 16*blocks) and iv[0..16), writes exactly out[0 .. 16*blocks) and
 * iv. in == out is allowed, any other overlap is not. No alignment needed.
 * blocks == 0 returns at once and leaves |iv| untouched.
 * CT: timing depends only on |blocks| and key->rounds.
 */

/* Register table. */
.set	KEY,	%rdi		// const fc_aes_key *: round keys at offset 0
.set	IN,	%rsi		// ciphertext, advanced as blocks are done
.set	OUT,	%rdx		// plaintext, advanced with IN
.set	BLOCKS,	%rcx		// blocks left (minus 16 inside the main loop)
.set	IV,	%r8		// chaining value in/out
.set	ROUNDS,	%eax		// key->rounds, read once to pick the body
				// %ymm0-%ymm7: the 16 blocks of a main-loop step
.set	KT,	%ymm8		// round key broadcast from memory; then the
.set	KTx,	%xmm8		//   last-round key ^ chaining vector
.set	PREV,	%ymm9		// low lane: previous ciphertext block (C[-1])
.set	PREVx,	%xmm9		//   (upper lane zero, unused)
.set	RK0,	%ymm10		// rk[0] (whitening), both lanes
.set	RK0x,	%xmm10
.set	RKL,	%ymm11		// rk[Nr] (last round), both lanes
.set	RKLx,	%xmm11
.set	RK1,	%ymm12		// rk[1..4] kept resident, both lanes
.set	RK2,	%ymm13
.set	RK3,	%ymm14
.set	RK4,	%ymm15
.set	RK1x,	%xmm12		// their low lanes, for the one-block tail
.set	RK2x,	%xmm13
.set	RK3x,	%xmm14
.set	RK4x,	%xmm15

/*
 * _rounds_ymm op, nr, n, resident: the middle rounds 1 .. nr-1 with |op|
 * (vaesenc, vaesdec) on %ymm0-%ymm(n-1), all registers through one round
 * at a time. rk[1..resident] are in RK1..RK<resident> (resident <= 4);
 * each later key is broadcast from memory into KT, one load for n rounds.
 * In: KEY, RK1..RK<resident>. Clobbers: KT.
 */
.macro	_rounds_ymm op, nr, n, resident
.irp	r, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
.if	\r < \nr
.if	\r > \resident
	vbroadcasti128	FC_OFF_AES_RK+16*\r(KEY), KT
	.set	RKEY, KT
.elseif	\r == 1
	.set	RKEY, RK1
.elseif	\r == 2
	.set	RKEY, RK2
.elseif	\r == 3
	.set	RKEY, RK3
.else
	.set	RKEY, RK4
.endif
.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
.if	\i < \n
	\op	RKEY, %ymm\i, %ymm\i
.endif
.endr
.endif
.endr
.endm

/*
 * _cbc_dec_ymm nr, n: decrypts 2*n blocks (n ymm registers, n = 1, 2, 4 or
 * 8) at IN to OUT with an nr-round schedule, chaining from PREVx, and leaves
 * the last ciphertext block of the group in PREVx. Does not advance IN/OUT.
 * In: KEY, IN, OUT, PREVx, RK0, RKL, RK1-RK4. Out: PREVx.
 * Clobbers: %ymm0-%ymm(n-1), KT.
 */
.macro	_cbc_dec_ymm nr, n
	// Whitening; the ciphertext is loaded here and never kept.
.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
.if	\i < \n
	vpxor	32*\i(IN), RK0, %ymm\i
.endif
.endr
	_rounds_ymm	vaesdec, \nr, \n, 4
	// Last round with the chaining XOR folded into the key. Register 0's
	// vector is [PREV, C[0]] since C[-1] is not in |in|; register j > 0's
	// is the unaligned [C[2j-1], C[2j]] at in + 32j - 16.
	vinserti128	$1, (IN), PREV, KT
	vpxor	RKL, KT, KT
	vaesdeclast	KT, %ymm0, %ymm0
.irp	i, 1, 2, 3, 4, 5, 6, 7
.if	\i < \n
	vpxor	32*\i-16(IN), RKL, KT
	vaesdeclast	KT, %ymm\i, %ymm\i
.endif
.endr
	// Next chaining value: loaded before any store so that in == out works.
	vmovdqu	32*\n-16(IN), PREVx
.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
.if	\i < \n
	vmovdqu	%ymm\i, 32*\i(OUT)
.endif
.endr
.endm

/*
 * _cbc_dec_xmm1 nr: decrypts the one block at IN to OUT, chaining from
 * PREVx, and leaves that ciphertext block in PREVx.
 * In: KEY, IN, OUT, PREVx, RK0x, RKLx, RK1x-RK4x. Out: PREVx.
 * Clobbers: %xmm0, KTx (and the upper halves of %ymm0 and KT).
 */
.macro	_cbc_dec_xmm1 nr
	vpxor	(IN), RK0x, %xmm0
	vaesdec	RK1x, %xmm0, %xmm0
	vaesdec	RK2x, %xmm0, %xmm0
	vaesdec	RK3x, %xmm0, %xmm0
	vaesdec	RK4x, %xmm0, %xmm0
.irp	r, 5, 6, 7, 8, 9, 10, 11, 12, 13
.if	\r < \nr
	vaesdec	FC_OFF_AES_RK+16*\r(KEY), %xmm0, %xmm0
.endif
.endr
	vpxor	RKLx, PREVx, KTx
	vmovdqu	(IN), PREVx		// before the store: in == out
	vaesdeclast	KTx, %xmm0, %xmm0
	vmovdqu	%xmm0, (OUT)
.endm

/*
 * _cbc_dec_body nr: the whole kernel for one key size, from loading the
 * keys to the return. In: KEY, IN, OUT, BLOCKS >= 1, IV, PREVx = *IV.
 */
.macro	_cbc_dec_body nr
	vbroadcasti128	FC_OFF_AES_RK(KEY), RK0
	vbroadcasti128	FC_OFF_AES_RK+16*\nr(KEY), RKL
	vbroadcasti128	FC_OFF_AES_RK+16*1(KEY), RK1
	vbroadcasti128	FC_OFF_AES_RK+16*2(KEY), RK2
	vbroadcasti128	FC_OFF_AES_RK+16*3(KEY), RK3
	vbroadcasti128	FC_OFF_AES_RK+16*4(KEY), RK4
	// BLOCKS is biased by -16 in the loop; its low 4 bits stay the count
	// of leftover blocks for the tails either way.
	sub	$16, BLOCKS
	jb	.Ltail\nr
	.balign	32
.Lloop\nr:
	_cbc_dec_ymm	\nr, 8
	add	$256, IN
	add	$256, OUT
	sub	$16, BLOCKS
	jae	.Lloop\nr
.Ltail\nr:
	test	$8, BLOCKS
	jz	.Ltail4_\nr
	_cbc_dec_ymm	\nr, 4
	add	$128, IN
	add	$128, OUT
.Ltail4_\nr:
	test	$4, BLOCKS
	jz	.Ltail2_\nr
	_cbc_dec_ymm	\nr, 2
	add	$64, IN
	add	$64, OUT
.Ltail2_\nr:
	test	$2, BLOCKS
	jz	.Ltail1_\nr
	_cbc_dec_ymm	\nr, 1
	add	$32, IN
	add	$32, OUT
.Ltail1_\nr:
	test	$1, BLOCKS
	jz	.Ldone\nr
	_cbc_dec_xmm1	\nr
.Ldone\nr:
	vmovdqu	PREVx, (IV)
	vzeroupper
	ret
.endm

FC_FUNC_START(fc_aes_cbc_dec_vaes_avx2)
	test	BLOCKS, BLOCKS
	jz	.Lret			// nothing to do; iv untouched
	vmovdqu	(IV), PREVx
	mov	FC_OFF_AES_ROUNDS(KEY), ROUNDS
	cmp	$12, ROUNDS
	jb	.Lbody10
	je	.Lbody12
	_cbc_dec_body	14
.Lbody12:
	_cbc_dec_body	12
.Lbody10:
	_cbc_dec_body	10
.Lret:
	ret
FC_FUNC_END(fc_aes_cbc_dec_vaes_avx2)

/* ------------------------------------------------------------------------
 * void fc_aes_ctr32_vaes_avx2(const fc_aes_key *key, const uint8_t *in,
 *                             uint8_t *out, size_t blocks,
 *                             const uint8_t ctr[16]);
 *
 * CTR with inc32 (fc_aes_ctr32_fn, fc/aes.h), with the encryption schedule
 * of fc_aes_set_enc_key_aesni: out[i] = in[i] ^ E(ctr_i), where ctr_i is
 * |ctr| with i added mod 2^32 to its big-endian last word; the first
 * twelve bytes never change. |ctr| is read, never written. Reads exactly
 * in[0 .. 16*blocks) and ctr[0..16), writes exactly out[0 .. 16*blocks).
 * in == out is allowed (a group loads all its input before its first
 * store), any other overlap is not. No alignment needed. blocks == 0
 * returns at once.
 * CT: timing depends only on |blocks| and key->rounds.
 *
 * Counters: CTRV holds two consecutive counters, one per lane, each with
 * its last word byte-swapped (.Lctr_bswap_d3), where VPADDD of
 * .Lctr_two (2 in each lane's last word) is inc32 twice over: a 32-bit
 * lane wraps without carrying. One VPSHUFB per register, into the
 * register itself, swaps the pair back into counter blocks. The keystream
 * XOR is folded into the last round: VAESENCLAST with rk[Nr] ^ in (off
 * the AES chain) gives the output. Sixteen blocks per main-loop step, as
 * CBC decryption above; the tails are 8, 4 and 2 blocks (ymm) and 1
 * (xmm), each by the same macro.
 * ------------------------------------------------------------------------ */

	FC_RODATA
	.balign	32
/* VPSHUFB mask, both lanes: bytes 0..11 in place, 12..15 reversed. */
.Lctr_bswap_d3:
	.long	0x03020100, 0x07060504, 0x0b0a0908, 0x0c0d0e0f
	.long	0x03020100, 0x07060504, 0x0b0a0908, 0x0c0d0e0f
/* VPADDD operand: 2 in each lane's last word (two blocks per register). */
.Lctr_two:
	.long	0, 0, 0, 2, 0, 0, 0, 2
/* 1 in the last word: the high lane's counter is the low lane's + 1. */
.Lctr_one:
	.long	0, 0, 0, 1

/* Register table. */
.set	KEY,	%rdi		// const fc_aes_key *: round keys at offset 0
.set	IN,	%rsi		// input, advanced as blocks are done
.set	OUT,	%rdx		// output, advanced with IN
.set	BLOCKS,	%rcx		// blocks left (minus 16 inside the main loop)
.set	CTRP,	%r8		// ctr[16], read once
.set	ROUNDS,	%eax		// key->rounds, read once to pick the body
				// %ymm0-%ymm7: the 16 blocks of a main-loop step
.set	KT,	%ymm8		// middle round key broadcast from memory, then
.set	KTx,	%xmm8		//   rk[Nr] ^ input for the last round
.set	RK0,	%ymm9		// rk[0] (whitening), both lanes
.set	RK0x,	%xmm9
.set	RKL,	%ymm10		// rk[Nr] (last round), both lanes
.set	RKLx,	%xmm10
.set	CTRV,	%ymm11		// next two counters, last words swapped
.set	CTRVx,	%xmm11		//   (low lane: the next one)
.set	TWO,	%ymm12		// .Lctr_two
.set	BSW,	%ymm13		// .Lctr_bswap_d3
.set	BSWx,	%xmm13
.set	RK1,	%ymm14		// rk[1] and rk[2] kept resident, both lanes
.set	RK2,	%ymm15
.set	RK1x,	%xmm14		// their low lanes, for the one-block tail
.set	RK2x,	%xmm15

/*
 * _ctr_ymm nr, n: 2*n blocks (n ymm registers, n = 1, 2, 4 or 8) from IN to
 * OUT with an nr-round schedule, counters from CTRV (which moves on by
 * 2*n). Does not advance IN/OUT.
 * In: KEY, IN, OUT, CTRV, TWO, BSW, RK0, RKL, RK1, RK2. Out: CTRV.
 * Clobbers: %ymm0-%ymm(n-1), KT.
 */
.macro	_ctr_ymm nr, n
	// Counter blocks, whitened.
.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
.if	\i < \n
	vpshufb	BSW, CTRV, %ymm\i
	vpaddd	TWO, CTRV, CTRV
	vpxor	RK0, %ymm\i, %ymm\i
.endif
.endr
	_rounds_ymm	vaesenc, \nr, \n, 2
	// Last round with the input folded into the key; every load of the
	// group comes before its first store, so in == out works.
.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
.if	\i < \n
	vpxor	32*\i(IN), RKL, KT
	vaesenclast	KT, %ymm\i, %ymm\i
.endif
.endr
.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
.if	\i < \n
	vmovdqu	%ymm\i, 32*\i(OUT)
.endif
.endr
.endm

/*
 * _ctr_xmm1 nr: the one block at IN to OUT, counter from CTRV's low lane.
 * In: KEY, IN, OUT, CTRVx, BSWx, RK0x, RKLx, RK1x, RK2x.
 * Clobbers: %xmm0, KTx (and the upper halves of %ymm0 and KT).
 */
.macro	_ctr_xmm1 nr
	vpshufb	BSWx, CTRVx, %xmm0
	vpxor	RK0x, %xmm0, %xmm0
	vaesenc	RK1x, %xmm0, %xmm0
	vaesenc	RK2x, %xmm0, %xmm0
.irp	r, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
.if	\r < \nr
	vaesenc	FC_OFF_AES_RK+16*\r(KEY), %xmm0, %xmm0
.endif
.endr
	vpxor	(IN), RKLx, KTx
	vaesenclast	KTx, %xmm0, %xmm0
	vmovdqu	%xmm0, (OUT)
.endm

/*
 * _ctr_body nr: the whole kernel for one key size, from loading the keys
 * to the jump to the common exit. In: KEY, IN, OUT, BLOCKS >= 1, CTRV,
 * TWO, BSW.
 */
.macro	_ctr_body nr
	vbroadcasti128	FC_OFF_AES_RK(KEY), RK0
	vbroadcasti128	FC_OFF_AES_RK+16*\nr(KEY), RKL
	vbroadcasti128	FC_OFF_AES_RK+16*1(KEY), RK1
	vbroadcasti128	FC_OFF_AES_RK+16*2(KEY), RK2
	// BLOCKS is biased by -16 in the loop; its low 4 bits stay the count
	// of leftover blocks for the tails either way.
	sub	$16, BLOCKS
	jb	.Lctr_tail\nr
	.balign	32
.Lctr_loop\nr:
	_ctr_ymm	\nr, 8
	add	$256, IN
	add	$256, OUT
	sub	$16, BLOCKS
	jae	.Lctr_loop\nr
.Lctr_tail\nr:
	test	$8, BLOCKS
	jz	.Lctr_tail4_\nr
	_ctr_ymm	\nr, 4
	add	$128, IN
	add	$128, OUT
.Lctr_tail4_\nr:
	test	$4, BLOCKS
	jz	.Lctr_tail2_\nr
	_ctr_ymm	\nr, 2
	add	$64, IN
	add	$64, OUT
.Lctr_tail2_\nr:
	test	$2, BLOCKS
	jz	.Lctr_tail1_\nr
	_ctr_ymm	\nr, 1
	add	$32, IN
	add	$32, OUT
.Lctr_tail1_\nr:
	test	$1, BLOCKS
	jz	.Lctr_clear
	_ctr_xmm1	\nr
	jmp	.Lctr_clear
.endm

FC_FUNC_START(fc_aes_ctr32_vaes_avx2)
	test	BLOCKS, BLOCKS
	jz	.Lctr_ret		// nothing to do
	cmp	$1, BLOCKS
	je	.Lctr_single
	vbroadcasti128	.Lctr_bswap_d3(%rip), BSW
	vmovdqu	.Lctr_two(%rip), TWO
	// CTRV = [ctr, ctr + 1], last words swapped.
	vmovdqu	(CTRP), CTRVx
	vpshufb	BSWx, CTRVx, CTRVx
	vpaddd	.Lctr_one(%rip), CTRVx, KTx
	vinserti128	$1, KTx, CTRV, CTRV
	mov	FC_OFF_AES_ROUNDS(KEY), ROUNDS
	cmp	$12, ROUNDS
	jb	.Lctr_body10
	je	.Lctr_body12
	_ctr_body	14
.Lctr_body12:
	_ctr_body	12
.Lctr_body10:
	_ctr_body	10
.Lctr_clear:
	// No key, counter or keystream is left in a register: a VEX.128 zero
	// idiom clears the whole ymm register and takes no execution port
	// (VZEROALL is microcoded: it doubled the cost of a one-block call).
.irp	r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vpxor	%xmm\r, %xmm\r, %xmm\r
.endr
	vzeroupper
.Lctr_ret:
	ret

	// One block (AES-CTR's short updates, a partial block's keystream):
	// the counter block is |ctr| as it is, the round keys are memory
	// operands, and only two registers need clearing.
.Lctr_single:
	vmovdqu	(CTRP), %xmm0
	vpxor	FC_OFF_AES_RK(KEY), %xmm0, %xmm0
.irp	r, 1, 2, 3, 4, 5, 6, 7, 8, 9
	vaesenc	FC_OFF_AES_RK+16*\r(KEY), %xmm0, %xmm0
.endr
	mov	FC_OFF_AES_ROUNDS(KEY), ROUNDS
	cmp	$12, ROUNDS
	jb	.Lctr_single_last
	vaesenc	FC_OFF_AES_RK+16*10(KEY), %xmm0, %xmm0
	vaesenc	FC_OFF_AES_RK+16*11(KEY), %xmm0, %xmm0
	je	.Lctr_single_last
	vaesenc	FC_OFF_AES_RK+16*12(KEY), %xmm0, %xmm0
	vaesenc	FC_OFF_AES_RK+16*13(KEY), %xmm0, %xmm0
.Lctr_single_last:
	shl	$4, ROUNDS			// rk[Nr] at 16 * Nr
	vmovdqu	(IN), KTx
	vpxor	FC_OFF_AES_RK(KEY, %rax), KTx, KTx
	vaesenclast	KTx, %xmm0, %xmm0
	vmovdqu	%xmm0, (OUT)
	vpxor	%xmm0, %xmm0, %xmm0
	vpxor	KTx, KTx, KTx
	ret
FC_FUNC_END(fc_aes_ctr32_vaes_avx2)

#endif /* __x86_64__ */
