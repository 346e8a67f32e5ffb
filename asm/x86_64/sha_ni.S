/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sha_ni.S - SHA-1 and SHA-256 compression functions with the x86 SHA
 * extensions (SHA-NI), and the constants the stitched kernels share.
 *
 * CPU features: SHA (SHA1RNDS4, SHA1NEXTE, SHA256RNDS2, SHA256MSG1/2),
 * SSSE3 (PSHUFB, PALIGNR), SSE4.1 (PBLENDW, in the SHA-256 layout
 * conversion), SSE2. Legacy SSE encodings (the SHA instructions have no
 * VEX form), so no AVX state is touched but by the _avx512 form. The ops
 * table requires SHA | SSSE3 | SSE4.1: Intel Goldmont and Ice Lake
 * onwards, AMD Zen. fc_sha1_blocks_shani_avx512 also needs AVX-512F+VL
 * (VPROLD, EVEX.128 only: no upper state is left dirty).
 *
 * ABI: SysV AMD64. Arguments in rdi, rsi, rdx. Only rax, rdx, rsi and
 * xmm0-xmm11 (caller-saved) are written; no callee-saved register. The
 * SHA-1 kernels keep the message schedule in a 320-byte stack buffer,
 * wiped before they return. Registers that held state or message words
 * are zeroed.
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
 * SHA256RNDS2 of 2 rounds, alternating ABEF/CDGH); the message schedule
 * runs beside it. Measured on the development CPU (Xeon, Sapphire Rapids
 * class, ~3.6 GHz by a dependent-ADD clock; a shared VM, +/-3%):
 * SHA256RNDS2 latency 4 cycles, one issue per ~3; SHA1RNDS4 latency ~4,
 * one per ~3; SHA1NEXTE and SHA1MSG1 one per cycle; SHA256MSG2 one per 2;
 * SHA1MSG2 one per ~4, and it slows AESENC beside it; AESENC latency 3.
 * - SHA-256 runs at its chain: 2.04 c/B (128 cycles = 32 x 4) with
 *   SHA256MSG1/2, whose schedule is not on the critical path.
 * - SHA-1 with SHA1MSG1/2 (Intel's reference arrangement) ran at 1.88 c/B,
 *   bound by SHA-unit occupancy: 120 cycles a block against 84 for the
 *   rounds alone. Its schedule now runs on the vector ALUs a block ahead
 *   of the rounds, through a stack buffer (sha_ni.h): 1.79 c/B with SSE
 *   shifts, 1.54 with AVX-512 VPROLD for the rotations (the
 *   fc_sha1_blocks_shani_avx512 form, its own table).
 * - Portable C on the same core: 5.7 (SHA-1) / 11.7 (SHA-256) c/B.
 * An AES-128-CBC encryption chain costs 117-120 cycles per 64 bytes on the
 * same core (aes_cbc_sha_ni.S stitches the two).
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
 * void fc_sha1_blocks_shani_avx512(uint32_t h[5], const uint8_t *in,
 *                                  size_t blocks);
 *
 * Absorbs |blocks| 64-byte blocks at |in| into h[0..4]. blocks == 0 is a
 * no-op. No alignment requirement. Reads exactly 64 * blocks bytes. The
 * _avx512 form rotates with VPROLD (AVX-512F+VL), the other with SSE
 * shifts; one body (SHA1_BLOCKS_FN).
 * CT: no branch or address depends on the data or the state.
 *
 * The schedule runs a block ahead of the rounds (sha_ni.h): the loop's
 * rounds read block n's W from the stack buffer while the schedule of
 * block n+1 is written behind them, so the state chain of SHA1RNDS4 (84
 * cycles a block measured alone) waits for nothing but itself.
 * ------------------------------------------------------------------------ */
.macro SHA1_BLOCKS_FN name, vprold
FC_FUNC_START(\name)
	.set	S1_VPROLD, \vprold
	.set	HP,	%rdi		// uint32_t h[5]
	.set	IN,	%rsi		// message, advancing
	.set	NB,	%rdx		// blocks left
	.set	NXT,	%rax		// the next block (this one at the last)
	.set	S1_ABCD, %xmm0		// A (dword 3) .. D (dword 0)
	.set	S1_E0,	%xmm1		// E, even steps; E + 0 elsewhere at start
	.set	S1_E1,	%xmm2		// E, odd steps
	.set	S1_M0,	%xmm3		// schedule ring (a block ahead)
	.set	S1_M1,	%xmm4
	.set	S1_M2,	%xmm5
	.set	S1_M3,	%xmm6
	.set	SHUF,	%xmm7		// fc_sha_bswap128_ni
	.set	ESAVE,	%xmm8		// E at the block's start
	.set	ABCDSAVE, %xmm9		// ABCD at the block's start
	.set	S1_T,	%xmm10		// schedule scratch
	.set	S1_V,	%xmm11
	.set	S1_WOFF, 0		// W groups 0..19 at 0..319(%rsp)

	test	NB, NB
	jz	.Lsha1_done_\name
	SHA1_FRAME_ENTER HP, IN, SHUF
.Lsha1_loop_\name:
	/* The schedule of the next block runs beside this one's rounds. */
	SHA1_BLOCK_START ESAVE, ABCDSAVE, IN, NB, NXT
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19
	SHA1_STEP \i, NXT, SHUF
.endr
	SHA1_FINISH ESAVE, ABCDSAVE
	add	$64, IN
	dec	NB
	jnz	.Lsha1_loop_\name
	SHA1_FRAME_LEAVE HP
	CLEAR_XMM %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm8
	CLEAR_XMM %xmm9, %xmm11
.if \vprold
	vzeroupper
.endif
.Lsha1_done_\name:
	ret
FC_FUNC_END(\name)
.endm

	SHA1_BLOCKS_FN fc_sha1_blocks_shani, 0
	SHA1_BLOCKS_FN fc_sha1_blocks_shani_avx512, 1

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
	SHA256_STATE_LOAD HP
	movdqa	fc_sha_bswap32_ni(%rip), SHUF
.Lsha256_loop:
	movdqa	S2_ST0, SAVE0
	movdqa	S2_ST1, SAVE1
	SHA256_LOAD IN, SHUF
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	SHA256_STEP \i
.endr
	paddd	SAVE0, S2_ST0
	paddd	SAVE1, S2_ST1
	add	$64, IN
	dec	NB
	jnz	.Lsha256_loop
	SHA256_STATE_STORE HP
	CLEAR_XMM %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
	CLEAR_XMM %xmm9, %xmm10
.Lsha256_done:
	ret
FC_FUNC_END(fc_sha256_blocks_shani)

#endif /* __x86_64__ */
