/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sha_ni.h - the SHA-NI round macros shared by the SHA kernels
 * (sha_ni.S) and the stitched AES-CBC + SHA kernels (aes_cbc_sha_ni.S).
 * Included by .S files only; defines assembler macros and no code or data.
 *
 * Each macro is one step of a compression function, indexed by its step
 * number, so that a caller can spread the steps of one 64-byte block
 * between other work (the AES rounds of a CBC chain) in any pattern, as
 * long as the steps themselves stay in order. Register roles are names the
 * including function sets with .set before using a macro:
 *
 *   SHA-1    S1_ABCD  A in dword 3 .. D in dword 0 (SHA1RNDS4's layout)
 *            S1_E0, S1_E1  E for even and odd steps (alternating)
 *            S1_M0..S1_M3  the message schedule ring: W[4j..4j+3] in
 *                          S1_M(j mod 4), W[4j] in dword 3
 *            S1_T, S1_V    schedule scratch
 *            S1_VPROLD     1: rotate with AVX-512 VPROLD, 0: SSE shifts
 *            S1_WOFF       the W buffer: group j (W[4j..4j+3]) at
 *                          S1_WOFF + 16 j from %rsp, 16-byte aligned
 *                          (320 bytes)
 *   SHA-256  S2_ST0 = ABEF, S2_ST1 = CDGH (SHA256RNDS2's layout)
 *            S2_MSG  must be %xmm0 (SHA256RNDS2's implicit operand)
 *            S2_M0..S2_M3  the schedule ring, W[4j] in dword 0
 *            S2_TMP  scratch
 *
 * SHA-256's message words are loaded into the ring first (SHA256_LOAD),
 * all four registers at once, so that a caller writing over its input
 * (in-place CBC) may store over a block as soon as its LOAD has run.
 * SHA-1's schedule runs a block ahead of its rounds, through a buffer on
 * the stack: block n+1 is read during block n.
 *
 * Math (FIPS 180-4): SHA-1's schedule W[t] = ROTL1(W[t-3] ^ W[t-8] ^
 * W[t-14] ^ W[t-16]) is computed four words at a time on the vector ALUs
 * (see SHA1_STEP_X); for t >= 32 it is applied twice, W[t] = ROTL2(W[t-6]
 * ^ W[t-16] ^ W[t-28] ^ W[t-32]), whose inputs all lie in earlier groups.
 * The group of step g (W[4g..4g+3], g = 4..19) is built during steps g-3
 * to g-1. SHA-256's
 * W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]: SHA256MSG1 gives
 * W[t-16] + s0(W[t-15]), PALIGNR+PADDD adds W[t-7], SHA256MSG2 adds
 * s1(W[t-2]); for group g (g = 4..15) at steps g-3 and g-1.
 */
#ifndef FC_X86_64_SHA_NI_H
#define FC_X86_64_SHA_NI_H

/*
 * SHA1_STATE_LOAD hp / SHA1_STATE_STORE hp: between h[0..4] at (hp)
 * (FIPS 180-4 H0..H4, host order) and S1_ABCD (A in dword 3) and S1_E0 (E
 * in dword 3, zeros below, as step 0 wants it). STORE clobbers both.
 */
.macro SHA1_STATE_LOAD hp
	movdqu	(\hp), S1_ABCD
	pshufd	$0x1b, S1_ABCD, S1_ABCD
	movd	16(\hp), S1_E0
	pslldq	$12, S1_E0
.endm

.macro SHA1_STATE_STORE hp
	pshufd	$0x1b, S1_ABCD, S1_ABCD
	movdqu	S1_ABCD, (\hp)
	psrldq	$12, S1_E0
	movd	S1_E0, 16(\hp)
.endm

/*
 * ROL32 r, n, tmp: rotate each dword of |r| left by |n|. With S1_VPROLD
 * set to 1 by the including function (AVX-512F+VL), one VPROLD (EVEX.128:
 * it zeroes the register's upper bits, so no SSE/AVX transition state is
 * left dirty); else shift, shift, or, clobbering |tmp|. The rotations are
 * most of the schedule's vector work: VPROLD takes SHA-1 from 1.79 to 1.53
 * c/B on the development CPU (fewer micro-ops competing with the SHA unit
 * and the AES units).
 */
.macro ROL32 r, n, tmp
.if S1_VPROLD
	vprold	$\n, \r, \r
.else
	movdqa	\r, \tmp
	psrld	$(32 - \n), \tmp
	pslld	$\n, \r
	por	\tmp, \r
.endif
.endm

/*
 * SHA1_SCHED_X g, src, shuf, cur, m1, m2, m3: the message schedule's group
 * g (W[4g..4g+3], g = 0..19) of the block at (|src|), |src| a register,
 * into |cur| = S1_M(g mod 4) and the W buffer; |m1|, |m2|, |m3| are
 * S1_M((g-1) mod 4), S1_M((g-2) mod 4), S1_M((g-3) mod 4), holding groups
 * g-1, g-2, g-3 (and |cur| group g-4) from the previous calls.
 *   g < 4: the block's words, byte-swapped by the PSHUFB mask |shuf|.
 *   g = 4..7, from W[t] = ROTL1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]):
 *     ROTL1(W(g-4) ^ {W[4g-14..4g-11]} ^ W(g-2) ^ {W[4g-3..4g-1], 0}),
 *     then word 3 (t = 4g+3) takes the ROTL1 of W[4g] it lacked.
 *   g = 8..19, from the recurrence applied twice, W[t] = ROTL2(W[t-6] ^
 *     W[t-16] ^ W[t-28] ^ W[t-32]), every input in an earlier group:
 *     ROTL2({W[4g-6..4g-3]} ^ W(g-4) ^ W(g-7) ^ W(g-8)), the last two
 *     from the buffer.
 * This is SHA1MSG1/SHA1MSG2's work on the vector ALUs: SHA1MSG2 keeps the
 * SHA unit busy ~4 cycles and contends with AESENC on the development CPU.
 * Out: |cur|, the buffer's group g. Clobbers: S1_T, S1_V.
 */
.macro SHA1_SCHED_X g, src, shuf, cur, m1, m2, m3
.if \g < 4
	movdqu	16*\g(\src), \cur
	pshufb	\shuf, \cur
.elseif \g < 8
	movdqa	\cur, S1_T
	palignr	$8, \m3, S1_T		// W[4g-14..4g-11]
	pxor	S1_T, \cur
	pxor	\m2, \cur
	movdqa	\m1, S1_T
	pslldq	$4, S1_T		// W[4g-3..4g-1], 0
	pxor	S1_T, \cur
	ROL32	\cur, 1, S1_T
	movdqa	\cur, S1_T
	psrldq	$12, S1_T		// W[4g] alone in word 0
	ROL32	S1_T, 1, S1_V
	pxor	S1_T, \cur
.else
	pxor	S1_WOFF+16*(\g-7)(%rsp), \cur
	pxor	S1_WOFF+16*(\g-8)(%rsp), \cur
	movdqa	\m2, S1_T
	palignr	$8, \m1, S1_T		// W[4g-6..4g-3]
	pxor	S1_T, \cur
	ROL32	\cur, 2, S1_T
.endif
	movdqa	\cur, S1_WOFF+16*\g(%rsp)
.endm

/* SHA1_SCHED g, src, shuf: SHA1_SCHED_X with the ring registers of g. */
.macro SHA1_SCHED g, src, shuf
.if (\g & 3) == 0
	SHA1_SCHED_X \g, \src, \shuf, S1_M0, S1_M3, S1_M2, S1_M1
.elseif (\g & 3) == 1
	SHA1_SCHED_X \g, \src, \shuf, S1_M1, S1_M0, S1_M3, S1_M2
.elseif (\g & 3) == 2
	SHA1_SCHED_X \g, \src, \shuf, S1_M2, S1_M1, S1_M0, S1_M3
.else
	SHA1_SCHED_X \g, \src, \shuf, S1_M3, S1_M2, S1_M1, S1_M0
.endif
.endm

/*
 * SHA1_ROUNDS i: rounds 4i..4i+3 (i = 0..19) with W[4i..4i+3] from the W
 * buffer. At step 0 S1_E0 holds E in dword 3 (zeros elsewhere); otherwise
 * the previous step's copy of ABCD, from which SHA1NEXTE derives E; even
 * steps use S1_E0, odd ones S1_E1.
 * In: S1_ABCD, E. Out: S1_ABCD, the other E = old ABCD.
 */
.macro SHA1_ROUNDS i
.if (\i & 1) == 0
	.set	S1_EC_, S1_E0
	.set	S1_EN_, S1_E1
.else
	.set	S1_EC_, S1_E1
	.set	S1_EN_, S1_E0
.endif
.if \i == 0
	paddd	S1_WOFF(%rsp), S1_EC_
.else
	sha1nexte S1_WOFF+16*\i(%rsp), S1_EC_
.endif
	movdqa	S1_ABCD, S1_EN_
	sha1rnds4 $(\i / 5), S1_EC_, S1_ABCD
.endm

/*
 * SHA1_STEP i, next, shuf: rounds 4i..4i+3 of this block, then the
 * schedule's group i of the next one (at (|next|), a register): the
 * schedule runs a block ahead of the rounds, so its chain (~4 cycles a
 * group, more for groups 4..7) never holds the rounds up. The buffer's
 * group i is read by the rounds before the schedule overwrites it.
 */
.macro SHA1_STEP i, next, shuf
	SHA1_ROUNDS \i
	SHA1_SCHED \i, \next, \shuf
.endm

/*
 * SHA1_FRAME_ENTER hp, src, shuf: at a function's entry (rsp 8 mod 16),
 * reserves the W buffer at (%rsp) (328 bytes keep it 16-byte aligned),
 * loads the state from h at (hp) and the PSHUFB mask fc_sha_bswap128_ni
 * into |shuf|, and computes the schedule of the first block, at (|src|),
 * a register (read before the caller stores anything).
 * SHA1_FRAME_LEAVE hp: stores the state to h, wipes the buffer (it holds
 * message words) and releases it. Clobbers S1_ABCD, S1_E0, S1_T.
 */
.macro SHA1_FRAME_ENTER hp, src, shuf
	sub	$328, %rsp
	.cfi_adjust_cfa_offset 328
	SHA1_STATE_LOAD \hp
	movdqa	fc_sha_bswap128_ni(%rip), \shuf
.irp g, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19
	SHA1_SCHED \g, \src, \shuf
.endr
.endm

.macro SHA1_FRAME_LEAVE hp
	SHA1_STATE_STORE \hp
	pxor	S1_T, S1_T
.irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19
	movdqa	S1_T, S1_WOFF+16*\j(%rsp)
.endr
	add	$328, %rsp
	.cfi_adjust_cfa_offset -328
.endm

/*
 * SHA1_BLOCK_START esave, abcdsave, src, nb, nxt: at the top of a block,
 * saves E and ABCD for the feed-forward and points |nxt| at the block
 * after |src|, whose schedule the steps compute; at the last block (|nb|
 * == 1) at |src| itself again (harmless, and in bounds).
 */
.macro SHA1_BLOCK_START esave, abcdsave, src, nb, nxt
	movdqa	S1_E0, \esave
	movdqa	S1_ABCD, \abcdsave
	lea	64(\src), \nxt
	cmp	$1, \nb
	cmove	\src, \nxt
.endm

/*
 * SHA1_FINISH esave, abcdsave: the feed-forward after step 19: S1_E0 =
 * the new E (dword 3) plus |esave| (E at the block's start, dword 3),
 * S1_ABCD += |abcdsave|. Register or memory operands.
 */
.macro SHA1_FINISH esave, abcdsave
	sha1nexte \esave, S1_E0
	paddd	\abcdsave, S1_ABCD
.endm

/*
 * SHA256_STATE_LOAD hp / SHA256_STATE_STORE hp: between h[0..7] at (hp)
 * (H0..H7: DCBA, HGFE as 128-bit loads) and S2_ST0 = ABEF, S2_ST1 = CDGH.
 * Clobber S2_TMP; STORE also S2_ST0 and S2_ST1.
 */
.macro SHA256_STATE_LOAD hp
	movdqu	(\hp), S2_ST0
	movdqu	16(\hp), S2_ST1
	pshufd	$0xb1, S2_ST0, S2_ST0	// CDAB
	pshufd	$0x1b, S2_ST1, S2_ST1	// EFGH
	movdqa	S2_ST0, S2_TMP
	palignr	$8, S2_ST1, S2_ST0	// ABEF
	pblendw	$0xf0, S2_TMP, S2_ST1	// CDGH
.endm

.macro SHA256_STATE_STORE hp
	pshufd	$0x1b, S2_ST0, S2_ST0	// FEBA
	pshufd	$0xb1, S2_ST1, S2_ST1	// DCHG
	movdqa	S2_ST0, S2_TMP
	pblendw	$0xf0, S2_ST1, S2_ST0	// DCBA
	palignr	$8, S2_TMP, S2_ST1	// HGFE
	movdqu	S2_ST0, (\hp)
	movdqu	S2_ST1, 16(\hp)
.endm

/*
 * SHA256_LOAD src, shuf: S2_M0..S2_M3 = the block at (|src|), |src| a
 * register, byte-swapped by |shuf|.
 */
.macro SHA256_LOAD src, shuf
	movdqu	(\src), S2_M0
	movdqu	16(\src), S2_M1
	movdqu	32(\src), S2_M2
	movdqu	48(\src), S2_M3
	pshufb	\shuf, S2_M0
	pshufb	\shuf, S2_M1
	pshufb	\shuf, S2_M2
	pshufb	\shuf, S2_M3
.endm

/*
 * SHA256_HALF_X i, h, cur, nxt, prv: half |h| (0: rounds 4i, 4i+1; 1:
 * rounds 4i+2, 4i+3) of step i (i = 0..15), W in |cur| = S2_M(i mod 4);
 * |nxt|, |prv| = S2_M((i+1) mod 4), S2_M((i-1) mod 4). Half 1 must follow
 * half 0 of the same step (it takes W+K from S2_MSG). K256 comes from
 * fc_sha256_k_ni (sha_ni.S).
 * In: S2_ST0, S2_ST1, the ring. Out: S2_ST0, S2_ST1, the ring advanced.
 * Clobbers: S2_MSG (%xmm0), S2_TMP.
 */
.macro SHA256_HALF_X i, h, cur, nxt, prv
.if \h == 0
	movdqa	\cur, S2_MSG
	paddd	fc_sha256_k_ni+16*\i(%rip), S2_MSG
	sha256rnds2 S2_ST0, S2_ST1
.if \i >= 3 && \i <= 14
	movdqa	\cur, S2_TMP		// W for step i+1: + W[t-7], s1(W[t-2])
	palignr	$4, \prv, S2_TMP
	paddd	S2_TMP, \nxt
	sha256msg2 \cur, \nxt
.endif
.else
	pshufd	$0x0e, S2_MSG, S2_MSG
	sha256rnds2 S2_ST1, S2_ST0
.if \i >= 1 && \i <= 12
	sha256msg1 \cur, \prv		// for step i+3
.endif
.endif
.endm

/* SHA256_HALF i, h: SHA256_HALF_X with the registers of step i. */
.macro SHA256_HALF i, h
.if (\i & 3) == 0
	SHA256_HALF_X \i, \h, S2_M0, S2_M1, S2_M3
.elseif (\i & 3) == 1
	SHA256_HALF_X \i, \h, S2_M1, S2_M2, S2_M0
.elseif (\i & 3) == 2
	SHA256_HALF_X \i, \h, S2_M2, S2_M3, S2_M1
.else
	SHA256_HALF_X \i, \h, S2_M3, S2_M0, S2_M2
.endif
.endm

/* SHA256_STEP i: both halves of step i. */
.macro SHA256_STEP i
	SHA256_HALF \i, 0
	SHA256_HALF \i, 1
.endm

#endif /* FC_X86_64_SHA_NI_H */
