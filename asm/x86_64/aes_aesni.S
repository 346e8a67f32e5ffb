/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_aesni.S - AES key schedules (encryption and Equivalent Inverse
 * Cipher), ECB encryption, CTR with a 32-bit counter (inc32) and CBC
 * encryption/decryption with AES-NI.
 *
 * CPU features: AES-NI, SSSE3 (PSHUFB), SSE2. Legacy SSE encodings only,
 * so no AVX state is touched; memory operands are only ever loaded with
 * MOVDQU, so no buffer or key needs any alignment. The ops table requires
 * AESNI | SSSE3 | SSE4.1 (the tier's caps); SSE4.1 itself is not used.
 *
 * ABI: SysV AMD64. Arguments in rdi, rsi, rdx, rcx, r8. Only rax, rcx, rdx,
 * rsi, r9, r10 and xmm0-xmm15 (all caller-saved) are written; rbx, rbp,
 * r12-r15 and the stack are untouched (set_dec_key makes one near call).
 * Registers that held round keys or data are zeroed before returning.
 *
 * Layout: fc_aes_key.rk[r] holds round key r in FIPS-197 byte order (byte i
 * is XORed into state byte i, what AESENC/AESDEC expect); rounds is at
 * FC_OFF_AES_ROUNDS. A decryption key holds the Equivalent Inverse Cipher
 * schedule (FIPS-197 5.3.5) for AESDEC/AESDECLAST.
 *
 * Design (figures from the development CPU, a Xeon with AVX-512 running at
 * ~3.8 GHz; the TSC runs at ~0.68x the core clock, so cycles below are core
 * cycles calibrated against a chain of 1-cycle ADDs; the machine is a
 * shared VM, figures are +/-3%):
 *
 * - Instruction costs measured: AESENC/AESENCLAST latency 3 cycles,
 *   throughput 2 per cycle; AESKEYGENASSIST latency 12; AESIMC latency 6;
 *   PSHUFB latency 1.
 *
 * - Key expansion. Each Nk-word step needs SubWord(RotWord(w)) ^ Rcon of
 *   one word. PSHUFB rotates that word into all four lanes; with four equal
 *   columns ShiftRows is the identity, so AESENCLAST with an Rcon register
 *   as round key is SubBytes ^ Rcon: 4 cycles instead of AESKEYGENASSIST's
 *   12, and the running XOR of the previous words (two shift/XOR pairs) is
 *   computed in its shadow. The AES-256 odd step (SubWord, no rotation)
 *   uses PSHUFD broadcast + AESENCLAST with a zero key. AES-192 keeps six
 *   words as 4 + 2 in two registers and stores 24 bytes per step. Fully
 *   unrolled, no branches but the key size. Measured per call (independent
 *   re-keys): set_enc_key 38 / 40 / 47 cycles (AES-128/192/256), against
 *   145 cycles for an AESKEYGENASSIST AES-128 expansion written for the
 *   comparison. set_dec_key (expand, then swap and AESIMC in place):
 *   50 / 62 / 62 cycles.
 *
 * - CBC encryption is one serial chain, so the loop is shaped around its
 *   latency. Round keys 1..Nr-1 stay in registers (AES-256 reloads rk13
 *   and rk14 each block: there are 16 xmm registers; the loads are off the
 *   chain). Whitening by rk0 and the XOR with the next plaintext are folded
 *   into the last round key: AESENCLAST with rk[Nr] ^ P[i+1] ^ rk0 yields
 *   the next block's whitened input, so the loop-carried path is exactly
 *   Nr AES rounds. 16 KiB: 30.1 / 36.3 / 42.2 cycles per block (1.88 /
 *   2.27 / 2.64 c/B, 2.1 / 1.8 / 1.5 GB/s) against the bound Nr x 3 =
 *   30 / 36 / 42: at the latency limit, 7-12% faster than OpenSSL 3.0's
 *   default provider measured in the same runs.
 *
 * - CBC decryption and ECB encryption run 8 independent blocks per group,
 *   above the 6 (latency 3 x 2 per cycle) needed to fill both AES units;
 *   one MOVDQU of the round key feeds 8 AES instructions. Round keys are
 *   addressed back from &rk[Nr], so a single unrolled body serves all key
 *   sizes by entering it at round Nr-9/Nr-11 (a predicted branch on the
 *   public round count). The CBC XOR is folded into AESDECLAST (key
 *   rk[Nr] ^ C[i-1]). Tails of 1..7 blocks take at most two groups (4, then
 *   1..3). 16 KiB: 0.30 / 0.38 / 0.43 c/B (12.7 / 10.0 / 9.0 GB/s), at the
 *   2-per-cycle throughput bound (Nr / 2 cycles per block), on par with
 *   OpenSSL 3.0.
 *
 * - CTR runs the same 8-block groups as ECB. The counter stays in a
 *   register with its last word byte-swapped (PSHUFB .Lbswap_d3), where
 *   PADDD steps it exactly as inc32, and one PSHUFB per block swaps a copy
 *   back: two SIMD operations per block, off the AES chain. The keystream
 *   XOR is folded into AESENCLAST (key rk[Nr] ^ in[i]). 16 KiB calls, TSC
 *   ticks per byte (best of 7 x 125 calls, same runs): 0.230 / 0.269 /
 *   0.324 (AES-128/192/256), i.e. 5.4 / 6.3 / 7.6 core cycles per block
 *   against Nr / 2 = 5 / 6 / 7; OpenSSL 3.0.19's default provider (its
 *   aesni_ctr32_encrypt_blocks, through EVP) 0.256 / 0.293 / 0.346. A
 *   one-block call costs ~14 ticks.
 */
#include "fc_asm.h"
#include "fc/asm_offsets.h"

#if defined(__x86_64__)

/* ------------------------------------------------------------------------
 * Constants
 * ------------------------------------------------------------------------ */
	FC_RODATA
	.balign	16
/* PSHUFB mask: RotWord(word 3), broadcast to all four words. */
.Lrot3_bcast:
	.long	0x0c0f0e0d, 0x0c0f0e0d, 0x0c0f0e0d, 0x0c0f0e0d
/* PSHUFB mask: RotWord(word 1), broadcast (AES-192 keeps w[i-1] there). */
.Lrot1_bcast:
	.long	0x04070605, 0x04070605, 0x04070605, 0x04070605
/* Rcon in byte 0 of every word; PSLLD $1 steps 01 -> 02 -> ... -> 80. */
.Lrcon_01:
	.long	0x01, 0x01, 0x01, 0x01
/* AES-128 rounds 9 and 10 continue with 1b, 36 (x^8, x^9 mod the poly). */
.Lrcon_1b:
	.long	0x1b, 0x1b, 0x1b, 0x1b
/* PSHUFB mask: bytes 0..11 in place, bytes 12..15 reversed. Its own
 * inverse: it turns a counter block's big-endian last word into a
 * little-endian 32-bit lane and back. */
.Lbswap_d3:
	.long	0x03020100, 0x07060504, 0x0b0a0908, 0x0c0d0e0f
/* PADDD operand: one in the last 32-bit lane (inc32 on the swapped form). */
.Lctr_one:
	.long	0, 0, 0, 1

/*
 * CLEAR_XMM r...: zero the listed registers before returning, so no round
 * key, plaintext or keystream is left behind in caller-saved registers.
 * PXOR r, r is a zeroing idiom: resolved at rename, no execution port.
 */
.macro CLEAR_XMM regs:vararg
.irp r, \regs
	pxor	\r, \r
.endr
.endm

/* ------------------------------------------------------------------------
 * Key expansion helpers
 * ------------------------------------------------------------------------ */

/*
 * PREFIX_XOR4 v, tmp: v = (w0, w0^w1, w0^w1^w2, w0^w1^w2^w3), the running
 * XOR every Nk-word step of FIPS-197 5.2 applies to the previous words.
 * In: v. Out: v. Clobbers: tmp.
 */
.macro PREFIX_XOR4 v, tmp
	movdqa	\v, \tmp
	pslldq	$4, \tmp
	pxor	\tmp, \v
	movdqa	\v, \tmp
	pslldq	$8, \tmp
	pxor	\tmp, \v
.endm

/*
 * SUBROT_BCAST dst, src, mask, rcon: dst = four copies of
 * SubWord(RotWord(src word k)) ^ Rcon, where |mask| picks word k rotated
 * into every lane. With four equal columns ShiftRows is the identity, so
 * AESENCLAST is exactly SubBytes then XOR with the Rcon register. This
 * costs PSHUFB + AESENCLAST (4 cycles) where AESKEYGENASSIST costs 12 on
 * the development CPU. In: src, mask, rcon. Out: dst.
 */
.macro SUBROT_BCAST dst, src, mask, rcon
	movdqa	\src, \dst
	pshufb	\mask, \dst
	aesenclast \rcon, \dst
.endm

/* ------------------------------------------------------------------------
 * void fc_aes_set_enc_key_aesni(fc_aes_key *key, const uint8_t *user_key,
 *                               size_t key_bytes);
 *
 * Expands the 16, 24 or 32-byte |user_key| (caller-checked) into
 * key->rk[0..Nr] in FIPS-197 byte order and sets key->rounds to 10, 12 or
 * 14. Writes exactly 16 * (Nr + 1) bytes of rk, plus rounds; reads exactly
 * |key_bytes| bytes of user_key. No alignment requirement.
 * Internal contract (used by fc_aes_set_dec_key_aesni): %rdi is preserved,
 * no stack is used.
 * CT: only key_bytes (public) selects a branch.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_aes_set_enc_key_aesni)
	.set	KEY,	%rdi		// fc_aes_key * (preserved)
	.set	UKEY,	%rsi		// user key bytes
	.set	KBYTES,	%rdx		// 16, 24 or 32
	.set	A,	%xmm0		// words w[i..i+3] of the schedule
	.set	B,	%xmm1		// AES-192/256: the next 2 or 4 words
	.set	T,	%xmm2		// SubWord result, broadcast
	.set	U,	%xmm3		// prefix-XOR temp for A
	.set	RCON,	%xmm4		// Rcon in each word's low byte
	.set	MASK,	%xmm5		// RotWord+broadcast PSHUFB mask
	.set	ZERO,	%xmm6		// AES-256: zero round key (SubWord only)
	.set	V,	%xmm7		// prefix-XOR temp for B

	movdqu	(UKEY), A
	movdqa	.Lrcon_01(%rip), RCON
	movdqu	A, FC_OFF_AES_RK(KEY)
	cmp	$24, KBYTES
	jb	.Lsek_128
	je	.Lsek_192

	/* AES-256: Nk = 8, seven steps; the last produces rk14 only. */
	movdqu	16(UKEY), B
	movdqa	.Lrot3_bcast(%rip), MASK
	pxor	ZERO, ZERO
	movdqu	B, FC_OFF_AES_RK+16(KEY)
	movl	$14, FC_OFF_AES_ROUNDS(KEY)
.irp i, 1, 2, 3, 4, 5, 6, 7
	/* w[8i..8i+3]: SubWord(RotWord(w[8i-1])) ^ Rcon into the prefix XOR */
	SUBROT_BCAST T, B, MASK, RCON
	PREFIX_XOR4 A, U
	pxor	T, A
	movdqu	A, FC_OFF_AES_RK+32*\i(KEY)
.if \i < 7
	/* w[8i+4..8i+7]: SubWord(w[8i+3]) with no rotation and no Rcon */
	pshufd	$0xff, A, T
	aesenclast ZERO, T
	PREFIX_XOR4 B, V
	pxor	T, B
	movdqu	B, FC_OFF_AES_RK+32*\i+16(KEY)
	pslld	$1, RCON
.endif
.endr
	CLEAR_XMM A, B, T, U, V
	ret

.Lsek_192:
	/*
	 * AES-192: Nk = 6. A holds w[6i-6..6i-3], B the low 64 bits w[6i-2..6i-1]
	 * (upper half don't-care). Each step emits 24 bytes; the 13 round keys
	 * (208 bytes) are 24 user-key bytes, 7 full steps, and the first 16
	 * bytes of an eighth.
	 */
	movq	16(UKEY), B		// reads exactly bytes 16..23
	movdqa	.Lrot1_bcast(%rip), MASK
	movq	B, FC_OFF_AES_RK+16(KEY)
	movl	$12, FC_OFF_AES_ROUNDS(KEY)
.irp i, 1, 2, 3, 4, 5, 6, 7, 8
	SUBROT_BCAST T, B, MASK, RCON
	PREFIX_XOR4 A, U
	pxor	T, A
	movdqu	A, FC_OFF_AES_RK+24*\i(KEY)
.if \i < 8
	/* w[6i+4] = w[6i-2] ^ w[6i+3], w[6i+5] = w[6i-1] ^ w[6i+4] */
	movdqa	B, V
	pslldq	$4, V
	pxor	V, B
	pshufd	$0xff, A, V
	pxor	V, B
	movq	B, FC_OFF_AES_RK+24*\i+16(KEY)
	pslld	$1, RCON
.endif
.endr
	CLEAR_XMM A, B, T, U, V
	ret

.Lsek_128:
	/* AES-128: Nk = 4, ten steps, one round key each. */
	movdqa	.Lrot3_bcast(%rip), MASK
	movl	$10, FC_OFF_AES_ROUNDS(KEY)
.irp i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
	SUBROT_BCAST T, A, MASK, RCON
	PREFIX_XOR4 A, U
	pxor	T, A
	movdqu	A, FC_OFF_AES_RK+16*\i(KEY)
.if \i == 8
	movdqa	.Lrcon_1b(%rip), RCON	// Rcon 0x80 doubles to 0x1b
.else
	pslld	$1, RCON
.endif
.endr
	CLEAR_XMM A, T, U
	ret
FC_FUNC_END(fc_aes_set_enc_key_aesni)

/* ------------------------------------------------------------------------
 * void fc_aes_set_dec_key_aesni(fc_aes_key *key, const uint8_t *user_key,
 *                               size_t key_bytes);
 *
 * Builds the Equivalent Inverse Cipher schedule (FIPS-197 5.3.5) for
 * AESDEC/AESDECLAST: rk[0] = enc rk[Nr], rk[i] = InvMixColumns(enc rk[Nr-i])
 * for 0 < i < Nr, rk[Nr] = enc rk[0]; sets rounds. Same reads/writes as
 * fc_aes_set_enc_key_aesni (it expands in place, then reverses in place).
 * CT: only key_bytes (public) selects a branch.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_aes_set_dec_key_aesni)
	.set	KEY,	%rdi		// fc_aes_key *
	.set	LO,	%rsi		// &rk[i], walking up (after the call)
	.set	HI,	%rdx		// &rk[Nr-i], walking down
	.set	NR16,	%rax		// 16 * Nr
	.set	X,	%xmm0		// enc rk[i]
	.set	Y,	%xmm1		// enc rk[Nr-i]

	call	fc_aes_set_enc_key_aesni	// preserves KEY
	mov	FC_OFF_AES_ROUNDS(KEY), %eax
	shl	$4, NR16
	lea	FC_OFF_AES_RK(KEY), LO
	lea	FC_OFF_AES_RK(KEY, NR16), HI
	/* The outer pair is swapped as is (no InvMixColumns). */
	movdqu	(LO), X
	movdqu	(HI), Y
	movdqu	Y, (LO)
	movdqu	X, (HI)
.Lsdk_pair:
	add	$16, LO
	sub	$16, HI
	movdqu	(LO), X
	movdqu	(HI), Y
	aesimc	X, X
	aesimc	Y, Y
	movdqu	Y, (LO)
	movdqu	X, (HI)
	/* Nr is even, so LO and HI meet on rk[Nr/2], done once with X == Y. */
	cmp	HI, LO
	jb	.Lsdk_pair
	CLEAR_XMM X, Y
	ret
FC_FUNC_END(fc_aes_set_dec_key_aesni)

/* ------------------------------------------------------------------------
 * N-wide block macros shared by ECB encryption and CBC decryption.
 * Block i of a group lives in %xmm<i> (i = 0..7). They use the aliases set
 * in the calling function: IN, KEND (= &rk[Nr]), NR (rounds, 32-bit), RK
 * (round key temp), K0 (rk[0]), KL (rk[Nr]).
 * ------------------------------------------------------------------------ */

/* WIDE_LOAD_WHITEN n: %xmm<i> = in[i] ^ rk[0], i < n. Clobbers nothing else. */
.macro WIDE_LOAD_WHITEN n
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	movdqu	16*\i(IN), %xmm\i
	pxor	K0, %xmm\i
.endif
.endr
.endm

/* WIDE_ROUND op, off, n: one AESENC/AESDEC round with rk at off(KEND) on
 * the n blocks. Clobbers RK. */
.macro WIDE_ROUND op, off, n
	movdqu	\off(KEND), RK
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	\op	RK, %xmm\i
.endif
.endr
.endm

/*
 * WIDE_MID_ROUNDS op, n: rounds 1..Nr-1 on n blocks. Round keys are
 * addressed back from KEND so one body serves every key size: AES-128
 * enters at "Nr-9", AES-192 at "Nr-11", AES-256 runs all 13. The branch
 * depends on the public round count only. Clobbers RK, flags.
 */
.macro WIDE_MID_ROUNDS op, n
	cmp	$12, NR
	jb	.Lr10_\@
	je	.Lr12_\@
	WIDE_ROUND \op, -13*16, \n
	WIDE_ROUND \op, -12*16, \n
.Lr12_\@:
	WIDE_ROUND \op, -11*16, \n
	WIDE_ROUND \op, -10*16, \n
.Lr10_\@:
.irp r, 9, 8, 7, 6, 5, 4, 3, 2, 1
	WIDE_ROUND \op, -\r*16, \n
.endr
.endm

/* WIDE_STORE n: out[i] = %xmm<i>, i < n. */
.macro WIDE_STORE n
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	movdqu	%xmm\i, 16*\i(OUT)
.endif
.endr
.endm

/*
 * WIDE_GROUPS group, done: runs the group macro |group| over NBLK blocks, 8
 * at a time, then the 0..7 left over as at most one group of 4 and one of
 * 1..3, and ends at |done|. The branches depend on the block count only.
 * In: NBLK (blocks, >= 1), what |group| reads. Clobbers NBLK, flags, and
 * what |group| clobbers.
 */
.macro WIDE_GROUPS group, done
	sub	$8, NBLK
	jb	.Lwg_tail\@
.Lwg_loop8\@:
	\group	8
	sub	$8, NBLK
	jae	.Lwg_loop8\@
.Lwg_tail\@:
	/* NBLK + 8 in 0..7 blocks remain: at most one 4-group and one of 1..3 */
	add	$8, NBLK
	jz	\done
	cmp	$4, NBLK
	jb	.Lwg_lt4\@
	\group	4
	sub	$4, NBLK
	jz	\done
.Lwg_lt4\@:
	cmp	$2, NBLK
	jb	.Lwg_1\@
	je	.Lwg_2\@
	\group	3
	jmp	\done
.Lwg_2\@:
	\group	2
	jmp	\done
.Lwg_1\@:
	\group	1
.endm

/* ECB_GROUP n: encrypt n blocks from IN to OUT, advance both. */
.macro ECB_GROUP n
	WIDE_LOAD_WHITEN \n
	WIDE_MID_ROUNDS aesenc, \n
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	aesenclast KL, %xmm\i
.endif
.endr
	WIDE_STORE \n
	add	$16*\n, IN
	add	$16*\n, OUT
.endm

/* ------------------------------------------------------------------------
 * void fc_aes_ecb_enc_aesni(const fc_aes_key *key, const uint8_t *in,
 *                           uint8_t *out, size_t blocks);
 *
 * out[i] = E_key(in[i]) for |blocks| 16-byte blocks, with an encryption
 * schedule. in == out allowed (each group is loaded before it is stored);
 * other overlap not. blocks == 0 is a no-op. No alignment requirement.
 * Reads only in[0..16*blocks), writes only out[0..16*blocks).
 * CT: no branch or address depends on key or data.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_aes_ecb_enc_aesni)
	.set	KEY,	%rdi		// const fc_aes_key *
	.set	IN,	%rsi		// plaintext, advancing
	.set	OUT,	%rdx		// ciphertext, advancing
	.set	NBLK,	%rcx		// blocks left
	.set	KEND,	%r9		// &rk[Nr]
	.set	NR,	%r10d		// rounds
	.set	RK,	%xmm8		// current round key
	.set	K0,	%xmm9		// rk[0]
	.set	KL,	%xmm10		// rk[Nr]
					// %xmm0..%xmm7: blocks 0..7 of a group

	test	NBLK, NBLK
	jz	.Lecb_done
	mov	FC_OFF_AES_ROUNDS(KEY), NR
	mov	NR, %eax
	shl	$4, %eax
	lea	FC_OFF_AES_RK(KEY, %rax), KEND
	movdqu	FC_OFF_AES_RK(KEY), K0
	movdqu	(KEND), KL
	WIDE_GROUPS ECB_GROUP, .Lecb_clear
.Lecb_clear:
	CLEAR_XMM %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
	CLEAR_XMM RK, K0, KL
.Lecb_done:
	ret
FC_FUNC_END(fc_aes_ecb_enc_aesni)

/* ------------------------------------------------------------------------
 * void fc_aes_ctr32_aesni(const fc_aes_key *key, const uint8_t *in,
 *                         uint8_t *out, size_t blocks,
 *                         const uint8_t ctr[16]);
 *
 * CTR with inc32 (fc_aes_ctr32_fn, fc/aes.h), with an encryption schedule:
 * out[i] = in[i] ^ E(ctr_i), where ctr_i is |ctr| with i added mod 2^32
 * to its big-endian last word; the first twelve bytes never change. |ctr|
 * is read, never written. in == out allowed (a group loads all its input
 * before it stores); other overlap not. blocks == 0 is a no-op. No
 * alignment requirement. Reads in[0..16*blocks) and ctr, writes only
 * out[0..16*blocks).
 * CT: no branch or address depends on key, counter or data.
 *
 * The counter lives in CTRV with its last word byte-swapped (.Lbswap_d3):
 * there PADDD of .Lctr_one is exactly inc32 (a 32-bit lane wraps on its
 * own), and the same PSHUFB swaps each copy back into a counter block.
 * Eight blocks per group, as for ECB, and the keystream XOR is folded into
 * the last round: AESENCLAST with rk[Nr] ^ in[i] (computed off the AES
 * chain) yields out[i].
 * ------------------------------------------------------------------------ */

/* CTR_GROUP n: n counter blocks from CTRV (which moves on by n), whitened,
 * through the rounds, the last one XORing in[i]; out[i] stored after every
 * in[i] is loaded; IN and OUT advance. Clobbers %xmm0..n-1, RK, T. */
.macro CTR_GROUP n
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	movdqa	CTRV, %xmm\i
	paddd	ONE, CTRV
	pshufb	BSWAP, %xmm\i
	pxor	K0, %xmm\i
.endif
.endr
	WIDE_MID_ROUNDS aesenc, \n
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	movdqu	16*\i(IN), T
	pxor	KL, T
	aesenclast T, %xmm\i
.endif
.endr
	WIDE_STORE \n
	add	$16*\n, IN
	add	$16*\n, OUT
.endm

FC_FUNC_START(fc_aes_ctr32_aesni)
	.set	KEY,	%rdi		// const fc_aes_key *
	.set	IN,	%rsi		// input, advancing
	.set	OUT,	%rdx		// output, advancing
	.set	NBLK,	%rcx		// blocks left (minus 8 in the loop)
	.set	CTRP,	%r8		// ctr[16], read once
	.set	KEND,	%r9		// &rk[Nr]
	.set	NR,	%r10d		// rounds
	.set	RK,	%xmm8		// current round key
	.set	K0,	%xmm9		// rk[0]
	.set	KL,	%xmm10		// rk[Nr]
	.set	CTRV,	%xmm11		// next counter, last word swapped
	.set	ONE,	%xmm12		// .Lctr_one
	.set	BSWAP,	%xmm13		// .Lbswap_d3
	.set	T,	%xmm14		// rk[Nr] ^ in[i]
					// %xmm0..%xmm7: blocks 0..7 of a group

	test	NBLK, NBLK
	jz	.Lctr_done
	mov	FC_OFF_AES_ROUNDS(KEY), NR
	mov	NR, %eax
	shl	$4, %eax
	lea	FC_OFF_AES_RK(KEY, %rax), KEND
	movdqu	FC_OFF_AES_RK(KEY), K0
	movdqu	(KEND), KL
	movdqa	.Lbswap_d3(%rip), BSWAP
	movdqa	.Lctr_one(%rip), ONE
	movdqu	(CTRP), CTRV
	pshufb	BSWAP, CTRV
	WIDE_GROUPS CTR_GROUP, .Lctr_clear
.Lctr_clear:
	CLEAR_XMM %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
	CLEAR_XMM RK, K0, KL, CTRV, T
.Lctr_done:
	ret
FC_FUNC_END(fc_aes_ctr32_aesni)

/* ------------------------------------------------------------------------
 * void fc_aes_cbc_enc_aesni(const fc_aes_key *key, const uint8_t *in,
 *                           uint8_t *out, size_t blocks, uint8_t iv[16]);
 *
 * CBC encryption with an encryption schedule: C[i] = E(P[i] ^ C[i-1]),
 * C[-1] = iv; then iv = C[blocks-1]. in == out allowed (P[i+1] is loaded
 * before C[i] is stored); other overlap not. blocks == 0 is a no-op and
 * leaves iv unchanged. No alignment requirement.
 * CT: no branch or address depends on key or data (the round count picks
 * the code path).
 *
 * The chain is serial, so the loop is built around its latency: with S the
 * whitened input P[i] ^ C[i-1] ^ rk0, the last round of block i uses the
 * key rk[Nr] ^ P[i+1] ^ rk0 (computed off the chain), so AESENCLAST yields
 * the next block's whitened input directly and the loop-carried path is
 * Nr AES rounds and nothing else. C[i] is recovered off the chain as
 * S ^ (that key) ^ rk[Nr].
 * ------------------------------------------------------------------------ */

/* CBC_ENC_MID nr: AESENC rounds 1..nr-1 on S, keys in RK1.. (and the X
 * load for round 13 of AES-256). */
.macro CBC_ENC_MID nr
	aesenc	RK1, S
	aesenc	RK2, S
	aesenc	RK3, S
	aesenc	RK4, S
	aesenc	RK5, S
	aesenc	RK6, S
	aesenc	RK7, S
	aesenc	RK8, S
	aesenc	RK9, S
.if \nr >= 12
	aesenc	RK10, S
	aesenc	RK11, S
.endif
.if \nr == 14
	aesenc	RK12, S
	movdqu	FC_OFF_AES_RK+16*13(KEY), X	// no register left for rk13
	aesenc	X, S
.endif
.endm

/* CBC_ENC_PATH nr: the whole loop for one key size. On entry S = P[0] ^
 * iv ^ rk0, X = rk0, IN points at P[1]. Returns. */
.macro CBC_ENC_PATH nr
	movdqu	FC_OFF_AES_RK+16*1(KEY), RK1
	movdqu	FC_OFF_AES_RK+16*2(KEY), RK2
	movdqu	FC_OFF_AES_RK+16*3(KEY), RK3
	movdqu	FC_OFF_AES_RK+16*4(KEY), RK4
	movdqu	FC_OFF_AES_RK+16*5(KEY), RK5
	movdqu	FC_OFF_AES_RK+16*6(KEY), RK6
	movdqu	FC_OFF_AES_RK+16*7(KEY), RK7
	movdqu	FC_OFF_AES_RK+16*8(KEY), RK8
	movdqu	FC_OFF_AES_RK+16*9(KEY), RK9
	movdqu	FC_OFF_AES_RK+16*10(KEY), RK10
.if \nr >= 12
	movdqu	FC_OFF_AES_RK+16*11(KEY), RK11
	movdqu	FC_OFF_AES_RK+16*12(KEY), RK12
.endif
.if \nr == 14
	movdqu	FC_OFF_AES_RK+16*14(KEY), T
	pxor	T, X
.else
	pxor	RKL_\nr, X
.endif
	movdqa	X, KX			// KX = rk0 ^ rk[Nr]
	dec	NBLK
	jz	.Lcbce_last_\nr
.Lcbce_loop_\nr:
	movdqu	(IN), T
	pxor	KX, T			// T = P[i+1] ^ rk0 ^ rk[Nr]
	add	$16, IN
	CBC_ENC_MID \nr
	aesenclast T, S			// S = C[i] ^ P[i+1] ^ rk0
	pxor	S, T			// T = C[i] ^ rk[Nr]
.if \nr == 14
	movdqu	FC_OFF_AES_RK+16*14(KEY), X
	pxor	X, T
.else
	pxor	RKL_\nr, T
.endif
	movdqu	T, (OUT)
	add	$16, OUT
	dec	NBLK
	jnz	.Lcbce_loop_\nr
.Lcbce_last_\nr:
	CBC_ENC_MID \nr
.if \nr == 14
	movdqu	FC_OFF_AES_RK+16*14(KEY), X
	aesenclast X, S
.else
	aesenclast RKL_\nr, S
.endif
	movdqu	S, (OUT)
	movdqu	S, (IVP)
	jmp	.Lcbce_clear
.endm

FC_FUNC_START(fc_aes_cbc_enc_aesni)
	.set	KEY,	%rdi		// const fc_aes_key *
	.set	IN,	%rsi		// plaintext, advancing
	.set	OUT,	%rdx		// ciphertext, advancing
	.set	NBLK,	%rcx		// blocks left
	.set	IVP,	%r8		// iv[16], read first, written last
	.set	S,	%xmm0		// chain: P[i] ^ C[i-1] ^ rk0 going in
	.set	T,	%xmm1		// next last-round key, then C[i]
	.set	KX,	%xmm2		// rk0 ^ rk[Nr]
	.set	X,	%xmm3		// rk0 at entry; AES-256: rk13/rk14 loads
	.set	RK1,	%xmm4		// RKi = rk[i] for i = 1..12
	.set	RK2,	%xmm5
	.set	RK3,	%xmm6
	.set	RK4,	%xmm7
	.set	RK5,	%xmm8
	.set	RK6,	%xmm9
	.set	RK7,	%xmm10
	.set	RK8,	%xmm11
	.set	RK9,	%xmm12
	.set	RK10,	%xmm13
	.set	RK11,	%xmm14
	.set	RK12,	%xmm15
	.set	RKL_10,	%xmm13		// rk[Nr] = RK10 for AES-128
	.set	RKL_12,	%xmm15		// rk[Nr] = RK12 for AES-192

	test	NBLK, NBLK
	jz	.Lcbce_done
	movdqu	(IVP), S
	movdqu	(IN), T
	movdqu	FC_OFF_AES_RK(KEY), X
	pxor	T, S
	pxor	X, S			// S = P[0] ^ iv ^ rk0
	add	$16, IN
	mov	FC_OFF_AES_ROUNDS(KEY), %eax
	cmp	$12, %eax
	jb	.Lcbce_128
	je	.Lcbce_192
	CBC_ENC_PATH 14
.Lcbce_192:
	CBC_ENC_PATH 12
.Lcbce_128:
	CBC_ENC_PATH 10
.Lcbce_clear:
	CLEAR_XMM %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
	CLEAR_XMM %xmm8, %xmm9, %xmm10, %xmm11, %xmm12, %xmm13, %xmm14, %xmm15
.Lcbce_done:
	ret
FC_FUNC_END(fc_aes_cbc_enc_aesni)

/* ------------------------------------------------------------------------
 * void fc_aes_cbc_dec_aesni(const fc_aes_key *key, const uint8_t *in,
 *                           uint8_t *out, size_t blocks, uint8_t iv[16]);
 *
 * CBC decryption with a decryption schedule (fc_aes_set_dec_key_aesni):
 * P[i] = D(C[i]) ^ C[i-1], C[-1] = iv; then iv = C[blocks-1]. in == out
 * allowed: every ciphertext a group needs (its blocks, the chaining values,
 * the next iv) is loaded before the group stores anything; other overlap
 * not. blocks == 0 is a no-op and leaves iv unchanged. No alignment
 * requirement. Reads only in[0..16*blocks) and iv.
 * CT: no branch or address depends on key or data.
 *
 * Eight independent blocks per group keep both AES units busy (latency 3,
 * two per cycle). The CBC XOR is folded into the last round: AESDECLAST
 * with the key rk[Nr] ^ C[i-1] returns P[i] directly.
 * ------------------------------------------------------------------------ */

/* CBCD_GROUP n: decrypt n blocks from IN to OUT, chaining from IV and
 * leaving C[n-1] in IV; advance IN and OUT. Clobbers %xmm0..n-1, RK, T. */
.macro CBCD_GROUP n
	WIDE_LOAD_WHITEN \n
	WIDE_MID_ROUNDS aesdec, \n
	movdqa	IV, T
	pxor	KL, T
	aesdeclast T, %xmm0
.irp i, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	movdqu	16*(\i-1)(IN), T
	pxor	KL, T
	aesdeclast T, %xmm\i
.endif
.endr
	movdqu	16*(\n-1)(IN), IV	// loaded before any store (in == out)
	WIDE_STORE \n
	add	$16*\n, IN
	add	$16*\n, OUT
.endm

FC_FUNC_START(fc_aes_cbc_dec_aesni)
	.set	KEY,	%rdi		// const fc_aes_key * (decryption)
	.set	IN,	%rsi		// ciphertext, advancing
	.set	OUT,	%rdx		// plaintext, advancing
	.set	NBLK,	%rcx		// blocks left
	.set	IVP,	%r8		// iv[16]
	.set	KEND,	%r9		// &rk[Nr]
	.set	NR,	%r10d		// rounds
	.set	RK,	%xmm8		// current round key
	.set	K0,	%xmm9		// rk[0]
	.set	KL,	%xmm10		// rk[Nr]
	.set	T,	%xmm11		// rk[Nr] ^ C[i-1]
	.set	IV,	%xmm12		// C[-1] of the current group
					// %xmm0..%xmm7: blocks 0..7 of a group

	test	NBLK, NBLK
	jz	.Lcbcd_done
	movdqu	(IVP), IV
	mov	FC_OFF_AES_ROUNDS(KEY), NR
	mov	NR, %eax
	shl	$4, %eax
	lea	FC_OFF_AES_RK(KEY, %rax), KEND
	movdqu	FC_OFF_AES_RK(KEY), K0
	movdqu	(KEND), KL
	WIDE_GROUPS CBCD_GROUP, .Lcbcd_out
.Lcbcd_out:
	movdqu	IV, (IVP)
	CLEAR_XMM %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
	CLEAR_XMM RK, K0, KL, T
.Lcbcd_done:
	ret
FC_FUNC_END(fc_aes_cbc_dec_aesni)

#endif /* __x86_64__ */
