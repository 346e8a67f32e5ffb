/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sha_ni.S - SHA-1 and SHA-256 compression functions with the x86 SHA
 * extensions (SHA-NI), and the SHA-256 round constants the stitched
 * kernels share.
 *
 * CPU features: SHA (SHA1RNDS4, SHA1NEXTE, SHA1MSG1/2, SHA256RNDS2,
 * SHA256MSG1/2), SSSE3 (PSHUFB, PALIGNR), SSE4.1 (PBLENDW, in the SHA-256
 * layout conversion), SSE2. Legacy SSE encodings only (the SHA
 * instructions have no VEX form), so no AVX state is touched. The ops
 * table requires SHA | SSSE3 | SSE4.1: Intel Goldmont and Ice Lake
 * onwards, AMD Zen.
 *
 * ABI: SysV AMD64. Arguments in rdi, rsi, rdx. Only rdx, rsi and
 * xmm0-xmm10 (caller-saved) are written; no stack, no callee-saved
 * register. Registers that held state or message words are zeroed before
 * returning.
 *
 * Layout: the chaining value is FIPS 180-4's H0..H7 as host-order 32-bit
 * words (uint32_t h[5] or h[8]); the kernels convert to and from the
 * instructions' layouts (SHA-1: A in dword 3; SHA-256: ABEF and CDGH)
 * once per call, not per block.
 *
 * Math and schedule: see sha_ni.h (the step macros used here and by the
 * stitched AES-CBC kernels).
 *
 * Design: each compression function is one dependency chain through the
 * round instructions (SHA-1: 20 SHA1RNDS4 of 4 rounds; SHA-256: 32
 * SHA256RNDS2 of 2 rounds, alternating ABEF/CDGH); SHA1NEXTE and the
 * schedule (SHA*MSG1/2) run beside it, off the chain, and all four message
 * registers are loaded at the top of a block. No unrolling across blocks:
 * block n+1 needs block n's result. Measured on the development CPU (Xeon,
 * Sapphire Rapids class, ~3.6 GHz by a dependent-ADD clock; a shared VM,
 * +/-3%): SHA256RNDS2 latency 4 cycles and one issue per ~3 cycles,
 * SHA1RNDS4 latency 4-5, SHA1NEXTE 3, SHA1MSG2/SHA256MSG2 6, AESENC 3.
 * 16 KiB per call: SHA-1 1.88 c/B (120 cycles per block), SHA-256 2.00
 * c/B (128 cycles: 32 x the SHA256RNDS2 latency, the bound); portable C
 * 5.7 / 11.7 c/B. An AES-128-CBC encryption chain costs 117-120 cycles per
 * 64 bytes on the same core, so stitched with it SHA-256 sets the pace.
 */
#include "fc_asm.h"

#if defined(__x86_64__)
#include "sha_ni.h"

	FC_RODATA
	.balign	64
/* K256 (FIPS 180-4 4.2.2), four per 16 bytes in round order. Hidden
 * global: the stitched kernels in aes_cbc_sha_ni.S read it too. */
	.globl	fc_sha256_k_ni
	FC_HIDDEN(fc_sha256_k_ni)
	.type	fc_sha256_k_ni, %object
fc_sha256_k_ni:
	.long	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5
	.long	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5
	.long	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3
	.long	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174
	.long	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc
	.long	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da
	.long	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7
	.long	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967
	.long	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13
	.long	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85
	.long	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3
	.long	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070
	.long	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5
	.long	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3
	.long	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208
	.long	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
	FC_SIZE(fc_sha256_k_ni)
/* PSHUFB masks: big-endian words. SHA-256 keeps W[4j] in dword 0 (swap
 * within each dword); SHA-1 wants W[4j] in dword 3 (reverse all bytes). */
	.globl	fc_sha_bswap32_ni
	FC_HIDDEN(fc_sha_bswap32_ni)
	.type	fc_sha_bswap32_ni, %object
fc_sha_bswap32_ni:
	.byte	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
	FC_SIZE(fc_sha_bswap32_ni)
	.globl	fc_sha_bswap128_ni
	FC_HIDDEN(fc_sha_bswap128_ni)
	.type	fc_sha_bswap128_ni, %object
fc_sha_bswap128_ni:
	.byte	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	FC_SIZE(fc_sha_bswap128_ni)

/*
 * CLEAR_XMM r...: zero the listed registers (no state or message word is
 * left in caller-saved registers).
 */
.macro CLEAR_XMM regs:vararg
.irp r, \regs
	pxor	\r, \r
.endr
.endm

/* ------------------------------------------------------------------------
 * void fc_sha1_blocks_shani(uint32_t h[5], const uint8_t *in, size_t blocks);
 *
 * Absorbs |blocks| 64-byte blocks at |in| into h[0..4]. blocks == 0 is a
 * no-op. No alignment requirement. Reads exactly 64 * blocks bytes.
 * CT: no branch or address depends on the data or the state.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_sha1_blocks_shani)
	.set	HP,	%rdi		// uint32_t h[5]
	.set	IN,	%rsi		// message, advancing
	.set	NB,	%rdx		// blocks left
	.set	S1_ABCD, %xmm0		// A (dword 3) .. D (dword 0)
	.set	S1_E0,	%xmm1		// E, even steps; E + 0 elsewhere at start
	.set	S1_E1,	%xmm2		// E, odd steps
	.set	S1_M0,	%xmm3		// schedule ring
	.set	S1_M1,	%xmm4
	.set	S1_M2,	%xmm5
	.set	S1_M3,	%xmm6
	.set	SHUF,	%xmm7		// fc_sha_bswap128_ni
	.set	ESAVE,	%xmm8		// E at the block's start
	.set	ABCDSAVE, %xmm9		// ABCD at the block's start

	test	NB, NB
	jz	.Lsha1_done
	movdqu	(HP), S1_ABCD
	pshufd	$0x1b, S1_ABCD, S1_ABCD	// A in dword 3
	movd	16(HP), S1_E0
	pslldq	$12, S1_E0		// E in dword 3, zeros below
	movdqa	fc_sha_bswap128_ni(%rip), SHUF
.Lsha1_loop:
	movdqa	S1_E0, ESAVE
	movdqa	S1_ABCD, ABCDSAVE
	SHA1_LOAD (IN), SHUF
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19
	SHA1_STEP \i
.endr
	SHA1_FINISH ESAVE, ABCDSAVE
	add	$64, IN
	dec	NB
	jnz	.Lsha1_loop
	pshufd	$0x1b, S1_ABCD, S1_ABCD
	movdqu	S1_ABCD, (HP)
	psrldq	$12, S1_E0
	movd	S1_E0, 16(HP)
	CLEAR_XMM %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm8
	CLEAR_XMM %xmm9
.Lsha1_done:
	ret
FC_FUNC_END(fc_sha1_blocks_shani)

/* ------------------------------------------------------------------------
 * void fc_sha256_blocks_shani(uint32_t h[8], const uint8_t *in,
 *                             size_t blocks);
 *
 * Absorbs |blocks| 64-byte blocks at |in| into h[0..7]. blocks == 0 is a
 * no-op. No alignment requirement. Reads exactly 64 * blocks bytes.
 * CT: no branch or address depends on the data or the state.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_sha256_blocks_shani)
	.set	HP,	%rdi		// uint32_t h[8]
	.set	IN,	%rsi		// message, advancing
	.set	NB,	%rdx		// blocks left
	.set	S2_MSG,	%xmm0		// W + K (SHA256RNDS2's implicit operand)
	.set	S2_ST0,	%xmm1		// ABEF
	.set	S2_ST1,	%xmm2		// CDGH
	.set	S2_M0,	%xmm3		// schedule ring
	.set	S2_M1,	%xmm4
	.set	S2_M2,	%xmm5
	.set	S2_M3,	%xmm6
	.set	S2_TMP,	%xmm7		// schedule scratch; layout conversion
	.set	SHUF,	%xmm8		// fc_sha_bswap32_ni
	.set	SAVE0,	%xmm9		// ABEF at the block's start
	.set	SAVE1,	%xmm10		// CDGH at the block's start

	test	NB, NB
	jz	.Lsha256_done
	/* h[0..3] = DCBA (A in dword 0), h[4..7] = HGFE: to ABEF, CDGH. */
	movdqu	(HP), S2_ST0
	movdqu	16(HP), S2_ST1
	pshufd	$0xb1, S2_ST0, S2_ST0	// CDAB
	pshufd	$0x1b, S2_ST1, S2_ST1	// EFGH
	movdqa	S2_ST0, S2_TMP
	palignr	$8, S2_ST1, S2_ST0	// ABEF
	pblendw	$0xf0, S2_TMP, S2_ST1	// CDGH
	movdqa	fc_sha_bswap32_ni(%rip), SHUF
.Lsha256_loop:
	movdqa	S2_ST0, SAVE0
	movdqa	S2_ST1, SAVE1
	SHA256_LOAD (IN), SHUF
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	SHA256_STEP \i
.endr
	paddd	SAVE0, S2_ST0
	paddd	SAVE1, S2_ST1
	add	$64, IN
	dec	NB
	jnz	.Lsha256_loop
	/* Back to DCBA, HGFE. */
	pshufd	$0x1b, S2_ST0, S2_ST0	// FEBA
	pshufd	$0xb1, S2_ST1, S2_ST1	// DCHG
	movdqa	S2_ST0, S2_TMP
	pblendw	$0xf0, S2_ST1, S2_ST0	// DCBA
	palignr	$8, S2_TMP, S2_ST1	// HGFE
	movdqu	S2_ST0, (HP)
	movdqu	S2_ST1, 16(HP)
	CLEAR_XMM %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
	CLEAR_XMM %xmm9, %xmm10
.Lsha256_done:
	ret
FC_FUNC_END(fc_sha256_blocks_shani)

#endif /* __x86_64__ */
