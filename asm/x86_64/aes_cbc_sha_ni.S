/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_cbc_sha_ni.S - stitched AES-CBC encryption + SHA-1 / SHA-256 with
 * AES-NI and SHA-NI: the sealing kernels of the TLS MAC-then-encrypt
 * ciphers (fc/cbc_hmac.h). Each step of the loop CBC-encrypts 64 bytes
 * (four AES blocks) and absorbs one 64-byte SHA block of the MAC input.
 *
 * CPU features: AES-NI, SHA, SSSE3 (PSHUFB, PALIGNR), SSE4.1 (PBLENDW),
 * SSE2. Legacy SSE encodings only. The ops table requires AESNI | SSSE3 |
 * SSE4.1 | SHA. Memory operands of AESENC/PXOR/PADDD read the round keys
 * and the SHA-256 constants in place, so the key schedule must be 16-byte
 * aligned, as the fc_aes_key type is (data buffers need no alignment).
 *
 * ABI: SysV AMD64. Arguments in rdi, rsi, rdx, rcx, r8, r9. Writes rax,
 * rdx, rsi, r9, r10 and xmm0-xmm15 (caller-saved); no callee-saved
 * register. The SHA-1 kernel keeps its message schedule in a 320-byte
 * stack buffer, wiped before it returns. Registers that held keys, state or data are zeroed.
 * The kernels work in place: six arguments, and the one layout TLS uses
 * (the C caller copies first when asked for separate buffers).
 *
 * Math: CBC, C[i] = E(K, P[i] ^ C[i-1]); the SHA steps are sha_ni.h's.
 * The whitening and the next block's XOR fold into the last round key,
 * as in aes_aesni.S: with S = P[i] ^ C[i-1] ^ rk0 going in, the last
 * round of block i uses T = P[i+1] ^ rk0 ^ rk[Nr], so AESENCLAST leaves
 * S = C[i] ^ P[i+1] ^ rk0, the next block's input, and C[i] = S ^ T ^
 * rk[Nr] is recovered off the chain. The very last block takes P[i+1] = 0
 * (T = rk0 ^ rk[Nr]), which the same recovery undoes.
 *
 * Design. CBC encryption is one serial chain of Nr AES rounds per block
 * (3-cycle AESENC on the development CPU: 120 / 144 / 168 cycles per 64
 * bytes for AES-128/192/256), and a SHA compression is another (SHA-256:
 * 32 SHA256RNDS2 of 4-cycle latency, 128 cycles; SHA-1: 20 SHA1RNDS4, ~84
 * cycles, when its message schedule is kept off the SHA unit, sha_ni.h).
 * The two share no data and use different units, so a core runs them side
 * by side: a step costs the longer chain, not the sum. The SHA steps are
 * spread between the AES rounds in program order (one SHA-256 half-step
 * or one SHA-1 step every round or two) so that the scheduler sees both
 * chains' next instructions at once. Round keys stay in memory (AESENC's
 * load is off the chain): the SHA state, schedule and saves take ten to
 * twelve registers, the AES chain four. SHA-1's schedule runs a block
 * ahead through a stack buffer; SHA-256's block is loaded at the top of
 * its step.
 * Measured on the development CPU (Xeon, Sapphire Rapids class, ~3.6 GHz
 * by a dependent-ADD clock, 16 KiB per call, cycles per byte; "back to
 * back" is fc_sha*_blocks_shani then fc_aes_cbc_enc_aesni on the same
 * data; the bound is the longer of the two chains alone):
 *                      stitched  back to back  bound (AES | SHA alone)
 *   AES-128 + SHA-1      1.89        3.41        1.87 (1.87 | 1.54)
 *     (SSE rotations)    2.04        3.66        1.87 (1.87 | 1.79)
 *   AES-128 + SHA-256    2.04        3.91        2.04 (1.87 | 2.04)
 *   AES-256 + SHA-1      2.63        4.16        2.62 (2.62 | 1.54)
 *   AES-256 + SHA-256    2.63        4.65        2.62 (2.62 | 2.04)
 * Stitching hides the SHA work entirely wherever AVX-512 VPROLD keeps
 * SHA-1's schedule light; with SSE rotations AES-128 + SHA-1 is 9% above
 * the AES bound (the schedule's shifts compete with AESENC for ports).
 * OpenSSL 3.0's aesni_cbc_sha*_enc_shaext on the same core: ~2.3 (SHA-1)
 * and ~2.05 (SHA-256) c/B with AES-128.
 */
#include "fc_asm.h"
#include "fc/asm_offsets.h"

#if defined(__x86_64__)
#include "sha_ni.h"

/* Arguments (both kernels). */
	.set	KEY,	%rdi		// const fc_aes_key * (16-byte aligned)
	.set	BUF,	%rsi		// plaintext in, ciphertext out; advancing
	.set	NB,	%rdx		// 64-byte steps left
	.set	IVP,	%rcx		// iv[16]: read first, written last
	.set	HP,	%r8		// uint32_t h[5] or h[8]
	.set	SIN,	%r9		// SHA input, advancing

/* AES registers (both kernels). */
	.set	S,	%xmm10		// chain: P[i] ^ C[i-1] ^ rk0 going in
	.set	T,	%xmm11		// P[i+1] ^ rk0 ^ rk[Nr]; then C[i]
	.set	KX,	%xmm12		// rk0 ^ rk[Nr]
	.set	U,	%xmm13		// the next plaintext block, loaded

/*
 * CLEAR_XMM r...: zero the listed registers before returning.
 */
.macro CLEAR_XMM regs:vararg
.irp r, \regs
	pxor	\r, \r
.endr
.endm

/*
 * AES_ENTRY nr: S = P[0] ^ iv ^ rk0, KX = rk0 ^ rk[Nr].
 * In: KEY, BUF, IVP. Clobbers: T.
 */
.macro AES_ENTRY nr
	movdqu	(IVP), S
	movdqu	(BUF), T
	pxor	T, S
	movdqa	FC_OFF_AES_RK(KEY), KX
	pxor	KX, S
	pxor	FC_OFF_AES_RK+16*\nr(KEY), KX
.endm

/*
 * AES_PRE j: T = P[next] ^ KX for block j (0..3) of the step: the block
 * at BUF + 16 (j + 1), which for j = 3 is the next step's first, or zero
 * after the last step (NB == 1). In: BUF, NB, KX. Out: T. Clobbers: U.
 * The load precedes block j's store: in place, P[next] is still there.
 */
.macro AES_PRE j
.if \j < 3
	movdqu	16*(\j+1)(BUF), U
	movdqa	KX, T
	pxor	U, T
.else
	movdqa	KX, T
	cmp	$1, NB
	je	.Lpre_last\@
	movdqu	64(BUF), U
	pxor	U, T
.Lpre_last\@:
.endif
.endm

/*
 * AES_POST nr, j: after AESENCLAST T, S: C = S ^ T ^ rk[Nr] to BUF + 16 j,
 * and left in T. In: S, T. Out: T = C[i].
 */
.macro AES_POST nr, j
	pxor	S, T
	pxor	FC_OFF_AES_RK+16*\nr(KEY), T
	movdqu	T, 16*\j(BUF)
.endm

/* AESR r: one middle round (r = 1..Nr-1) on S. */
.macro AESR r
	aesenc	FC_OFF_AES_RK+16*\r(KEY), S
.endm

/*
 * AES_FINISH nr, j: after round 9, the rounds AES-192/256 add, the last
 * round with the folded key T, and AES_POST (block j's ciphertext out).
 */
.macro AES_FINISH nr, j
.if \nr >= 12
	AESR	10
	AESR	11
.endif
.if \nr == 14
	AESR	12
	AESR	13
.endif
	aesenclast T, S
	AES_POST \nr, \j
.endm

/* ------------------------------------------------------------------------
 * SHA-1
 * ------------------------------------------------------------------------ */

/*
 * S1_AES_BLOCK nr, j, a, b, c, d, e: AES block j of the step with SHA-1
 * steps a..e (five of the block's twenty) between its rounds.
 */
.macro S1_AES_BLOCK nr, j, a, b, c, d, e
	AES_PRE	\j
	AESR	1
	SHA1_STEP \a, NXT, SHUF
	AESR	2
	AESR	3
	SHA1_STEP \b, NXT, SHUF
	AESR	4
	AESR	5
	SHA1_STEP \c, NXT, SHUF
	AESR	6
	AESR	7
	SHA1_STEP \d, NXT, SHUF
	AESR	8
	AESR	9
	SHA1_STEP \e, NXT, SHUF
	AES_FINISH \nr, \j
.endm

/* S1_PATH nr, sfx: the whole loop for one key size; returns through
 * .Ls1_out_<sfx>. */
.macro S1_PATH nr, sfx
	AES_ENTRY \nr
.Ls1_loop_\nr\()_\sfx:
	/* The SHA schedule of the next block beside this one's rounds. */
	SHA1_BLOCK_START ESAVE, ABCDSAVE, SIN, NB, NXT
	S1_AES_BLOCK \nr, 0, 0, 1, 2, 3, 4
	S1_AES_BLOCK \nr, 1, 5, 6, 7, 8, 9
	S1_AES_BLOCK \nr, 2, 10, 11, 12, 13, 14
	S1_AES_BLOCK \nr, 3, 15, 16, 17, 18, 19
	SHA1_FINISH ESAVE, ABCDSAVE
	add	$64, BUF
	add	$64, SIN
	dec	NB
	jnz	.Ls1_loop_\nr\()_\sfx
	jmp	.Ls1_out_\sfx
.endm

/* ------------------------------------------------------------------------
 * void fc_aes_cbc_sha1_enc_shani(const fc_aes_key *key, uint8_t *buf,
 *                                size_t blocks, uint8_t iv[16],
 *                                uint32_t h[5], const uint8_t *sha_in);
 * void fc_aes_cbc_sha1_enc_shani_avx512(...the same...);
 *
 * CBC-encrypts the 64 * blocks bytes at |buf| in place chaining from |iv|
 * (left holding the last ciphertext block) and absorbs the |blocks|
 * 64-byte blocks at |sha_in| into h[0..4]. |sha_in| lies at or after |buf|
 * or outside it (the SHA schedule reads block n+1 during step n, which
 * stores only below buf + 64 (n + 1)). The _avx512 form rotates the SHA
 * schedule with VPROLD (AVX-512F+VL), the other with SSE shifts (S1_FN).
 * blocks == 0 is a no-op. Reads 64 * blocks bytes at |buf| and |sha_in|,
 * writes 64 * blocks at |buf|.
 * CT: no branch or address depends on key, data or state (the round
 * count picks the code path; the step count is public).
 * ------------------------------------------------------------------------ */
.macro S1_FN name, vprold
FC_FUNC_START(\name)
	.set	S1_VPROLD, \vprold
	.set	S1_ABCD, %xmm0		// A (dword 3) .. D
	.set	S1_E0,	%xmm1		// E, even steps
	.set	S1_E1,	%xmm2		// E, odd steps
	.set	S1_M0,	%xmm3		// schedule ring
	.set	S1_M1,	%xmm4
	.set	S1_M2,	%xmm5
	.set	S1_M3,	%xmm6
	.set	S1_T,	%xmm14		// schedule scratch
	.set	S1_V,	%xmm15
	.set	S1_WOFF, 0		// W groups 0..19 at 0..319(%rsp)
	.set	NXT,	%r10		// the next SHA block (this one at the last)
	.set	ESAVE,	%xmm7		// E at the step's start
	.set	ABCDSAVE, %xmm8		// ABCD at the step's start
	.set	SHUF,	%xmm9		// fc_sha_bswap128_ni
	/* xmm10-13: S, T, KX, U (above) */

	test	NB, NB
	jz	.Ls1_done_\name
	/* The schedule of block 0 (its bytes are read before any store). */
	SHA1_FRAME_ENTER HP, SIN, SHUF
	mov	FC_OFF_AES_ROUNDS(KEY), %eax
	cmp	$12, %eax
	jb	.Ls1_128_\name
	je	.Ls1_192_\name
	S1_PATH 14, \name
.Ls1_192_\name:
	S1_PATH 12, \name
.Ls1_128_\name:
	S1_PATH 10, \name
.Ls1_out_\name:
	movdqu	T, (IVP)
	SHA1_FRAME_LEAVE HP
	CLEAR_XMM %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
	CLEAR_XMM %xmm8, %xmm10, %xmm11, %xmm12, %xmm13, %xmm15
.if \vprold
	vzeroupper
.endif
.Ls1_done_\name:
	ret
FC_FUNC_END(\name)
.endm

	S1_FN fc_aes_cbc_sha1_enc_shani, 0
	S1_FN fc_aes_cbc_sha1_enc_shani_avx512, 1

/* ------------------------------------------------------------------------
 * SHA-256
 * ------------------------------------------------------------------------ */

/*
 * S2_AES_BLOCK nr, j, a, b, c, d: AES block j of the step with SHA-256
 * steps a..d (eight half-steps) between its rounds.
 */
.macro S2_AES_BLOCK nr, j, a, b, c, d
	AES_PRE	\j
	AESR	1
	SHA256_HALF \a, 0
	AESR	2
	SHA256_HALF \a, 1
	AESR	3
	SHA256_HALF \b, 0
	AESR	4
	SHA256_HALF \b, 1
	AESR	5
	SHA256_HALF \c, 0
	AESR	6
	SHA256_HALF \c, 1
	AESR	7
	SHA256_HALF \d, 0
	AESR	8
	SHA256_HALF \d, 1
	AESR	9
	AES_FINISH \nr, \j
.endm

/* S2_PATH nr: the whole loop for one key size; returns through .Ls2_out. */
.macro S2_PATH nr
	AES_ENTRY \nr
.Ls2_loop_\nr:
	movdqa	S2_ST0, SAVE0
	movdqa	S2_ST1, SAVE1
	SHA256_LOAD SIN, SHUF
	S2_AES_BLOCK \nr, 0, 0, 1, 2, 3
	S2_AES_BLOCK \nr, 1, 4, 5, 6, 7
	S2_AES_BLOCK \nr, 2, 8, 9, 10, 11
	S2_AES_BLOCK \nr, 3, 12, 13, 14, 15
	paddd	SAVE0, S2_ST0
	paddd	SAVE1, S2_ST1
	add	$64, BUF
	add	$64, SIN
	dec	NB
	jnz	.Ls2_loop_\nr
	jmp	.Ls2_out
.endm

/* ------------------------------------------------------------------------
 * void fc_aes_cbc_sha256_enc_shani(const fc_aes_key *key, uint8_t *buf,
 *                                  size_t blocks, uint8_t iv[16],
 *                                  uint32_t h[8], const uint8_t *sha_in);
 *
 * As fc_aes_cbc_sha1_enc_shani, absorbing into the SHA-256 state h[0..7].
 * CT: as there.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_aes_cbc_sha256_enc_shani)
	.set	S2_MSG,	%xmm0		// W + K (SHA256RNDS2's implicit operand)
	.set	S2_ST0,	%xmm1		// ABEF
	.set	S2_ST1,	%xmm2		// CDGH
	.set	S2_M0,	%xmm3		// schedule ring
	.set	S2_M1,	%xmm4
	.set	S2_M2,	%xmm5
	.set	S2_M3,	%xmm6
	.set	S2_TMP,	%xmm7		// schedule scratch; layout conversion
	.set	SAVE0,	%xmm8		// ABEF at the step's start
	.set	SAVE1,	%xmm9		// CDGH at the step's start
	.set	SHUF,	%xmm14		// fc_sha_bswap32_ni
	/* xmm10-13: S, T, KX, U (above) */

	test	NB, NB
	jz	.Ls2_done
	SHA256_STATE_LOAD HP
	movdqa	fc_sha_bswap32_ni(%rip), SHUF
	mov	FC_OFF_AES_ROUNDS(KEY), %eax
	cmp	$12, %eax
	jb	.Ls2_128
	je	.Ls2_192
	S2_PATH 14
.Ls2_192:
	S2_PATH 12
.Ls2_128:
	S2_PATH 10
.Ls2_out:
	movdqu	T, (IVP)
	SHA256_STATE_STORE HP
	CLEAR_XMM %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
	CLEAR_XMM %xmm8, %xmm9, %xmm10, %xmm11, %xmm12, %xmm13
.Ls2_done:
	ret
FC_FUNC_END(fc_aes_cbc_sha256_enc_shani)

#endif /* __x86_64__ */
