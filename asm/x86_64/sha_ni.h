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
 *   SHA-256  S2_ST0 = ABEF, S2_ST1 = CDGH (SHA256RNDS2's layout)
 *            S2_MSG  must be %xmm0 (SHA256RNDS2's implicit operand)
 *            S2_M0..S2_M3  the schedule ring, W[4j] in dword 0
 *            S2_TMP  scratch
 *
 * The message words are loaded into the ring first (SHA*_LOAD), all four
 * registers at once, so that a caller writing over its input (in-place
 * CBC) may store over a block as soon as its LOAD has run.
 *
 * Math (FIPS 180-4): SHA-1's schedule W[t] = ROTL1(W[t-3] ^ W[t-8] ^
 * W[t-14] ^ W[t-16]) is computed four words at a time: SHA1MSG1 gives
 * W[t-16] ^ W[t-14], PXOR adds W[t-8], SHA1MSG2 adds W[t-3] (resolving the
 * dependency inside the group) and rotates. For the group of step g
 * (W[4g..4g+3], g = 4..19) these run at steps g-3, g-2 and g-1. SHA-256's
 * W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]: SHA256MSG1 gives
 * W[t-16] + s0(W[t-15]), PALIGNR+PADDD adds W[t-7], SHA256MSG2 adds
 * s1(W[t-2]); for group g (g = 4..15) at steps g-3 and g-1.
 */
#ifndef FC_X86_64_SHA_NI_H
#define FC_X86_64_SHA_NI_H

/*
 * SHA1_LOAD src, shuf: S1_M0..S1_M3 = the 64-byte block at memory operand
 * base |src| (offsets 0, 16, 32, 48 are added), byte-swapped to big-endian
 * words by the PSHUFB mask |shuf| (a register or memory operand).
 */
.macro SHA1_LOAD src, shuf
	movdqu	0+\src, S1_M0
	movdqu	16+\src, S1_M1
	movdqu	32+\src, S1_M2
	movdqu	48+\src, S1_M3
	pshufb	\shuf, S1_M0
	pshufb	\shuf, S1_M1
	pshufb	\shuf, S1_M2
	pshufb	\shuf, S1_M3
.endm

/*
 * SHA1_STEP_X i, ecur, enext, cur, nxt, prv, prv2: rounds 4i..4i+3 of
 * SHA-1 (i = 0..19) with W in |cur| = S1_M(i mod 4); |nxt|, |prv|, |prv2|
 * are S1_M((i+1) mod 4), S1_M((i-1) mod 4), S1_M((i-2) mod 4). At step 0
 * |ecur| holds E in dword 3 (zeros elsewhere); otherwise the previous
 * step's copy of ABCD, from which SHA1NEXTE derives E.
 * In: S1_ABCD, ecur, the ring. Out: S1_ABCD, enext = old ABCD (E for the
 * next step), the ring advanced. Clobbers nothing else.
 */
.macro SHA1_STEP_X i, ecur, enext, cur, nxt, prv, prv2
.if \i == 0
	paddd	\cur, \ecur
.else
	sha1nexte \cur, \ecur
.endif
	movdqa	S1_ABCD, \enext
.if \i >= 3 && \i <= 18
	sha1msg2 \cur, \nxt		// W for step i+1
.endif
	sha1rnds4 $(\i / 5), \ecur, S1_ABCD
.if \i >= 1 && \i <= 16
	sha1msg1 \cur, \prv		// for step i+3
.endif
.if \i >= 2 && \i <= 17
	pxor	\cur, \prv2		// for step i+2
.endif
.endm

/* SHA1_STEP i: SHA1_STEP_X with the registers of step i. */
.macro SHA1_STEP i
.if (\i & 1) == 0
	.set	S1_EC_, S1_E0
	.set	S1_EN_, S1_E1
.else
	.set	S1_EC_, S1_E1
	.set	S1_EN_, S1_E0
.endif
.if (\i & 3) == 0
	SHA1_STEP_X \i, S1_EC_, S1_EN_, S1_M0, S1_M1, S1_M3, S1_M2
.elseif (\i & 3) == 1
	SHA1_STEP_X \i, S1_EC_, S1_EN_, S1_M1, S1_M2, S1_M0, S1_M3
.elseif (\i & 3) == 2
	SHA1_STEP_X \i, S1_EC_, S1_EN_, S1_M2, S1_M3, S1_M1, S1_M0
.else
	SHA1_STEP_X \i, S1_EC_, S1_EN_, S1_M3, S1_M0, S1_M2, S1_M1
.endif
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
 * SHA256_LOAD src, shuf: S2_M0..S2_M3 = the block at |src|, byte-swapped
 * by |shuf| (as SHA1_LOAD).
 */
.macro SHA256_LOAD src, shuf
	movdqu	0+\src, S2_M0
	movdqu	16+\src, S2_M1
	movdqu	32+\src, S2_M2
	movdqu	48+\src, S2_M3
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
