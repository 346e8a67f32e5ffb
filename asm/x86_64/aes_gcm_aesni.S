/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_gcm_aesni.S - AES-GCM (SP 800-38D) with AES-NI and PCLMULQDQ, AVX
 * (VEX.128) encoding: GHASH key precomputation, GHASH, and the fused
 * CTR-encrypt + GHASH kernels that process 8 blocks per iteration.
 *
 * CPU features required: AES-NI, PCLMULQDQ, SSSE3 (PSHUFB), SSE4.1, AVX.
 * Only VEX.128 instructions are used: no AVX2, no VAES, no EVEX.
 * ABI: SysV AMD64. fc_gcm_enc/dec save and restore %rbx and %rbp and use
 * up to 592 bytes of stack (a 320-byte, 256-aligned area: the counter
 * buffer and the refill's slot tables, wiped before return); fc_gcm_init
 * and fc_ghash use neither. Every entry point zeroes
 * the vector registers it used and ends with VZEROUPPER.
 *
 * Contract: include/fc/gcm.h. The kernels take whole 16-byte blocks; C
 * (provider/core/gcm.c) handles IVs, partial blocks, lengths, the counter
 * write-back and the tag. The kernels implement inc32 themselves: block i
 * uses the counter block with its last 32 bits (big-endian) + i mod 2^32,
 * bytes 0..11 unchanged, so a call may cross the wrap; and the counter is
 * secret (for IVs other than 96 bits J0 = GHASH_H(IV)).
 *
 * ========================================================================
 * Math
 * ========================================================================
 *
 * GHASH works in GF(2^128) = GF(2)[x] / g(x), g = x^128 + x^7 + x^2 + x + 1.
 * SP 800-38D maps a 16-byte string b[0..15] to a polynomial with the
 * coefficient of x^i in bit (7 - i%8) of byte i/8: "bit-reflected".
 *
 * Bit reflection. We byte-reverse every block with one VPSHUFB and then read
 * it as a 128-bit little-endian integer. Byte 0 lands in bits 120..127 with
 * its MSB at bit 127, so the coefficient of x^i sits at integer bit 127 - i:
 * the register holds rev128(a), the full 128-bit bit-reversal of a. No
 * per-bit work is ever needed beyond that one VPSHUFB per block.
 *
 * Carry-less products of reflected values. For a, b of degree < 128,
 * clmul(rev128(a), rev128(b)) has the coefficient of x^k of a*b at bit
 * 254 - k: it is rev256(a*b) shifted right by one bit, i.e. rev256(x*a*b).
 * Rather than shift every product left by one, we fold the extra x into
 * the key:
 *
 * H preprocessing. fc_gcm_init stores H' = H * x^-1 mod g (and its powers
 * H^i * x^-1, see below). Since x * (x^127 + x^6 + x + 1) = 1 + g, we have
 * x^-1 = x^127 + x^6 + x + 1, so H * x^-1 is "H divided by x": in the
 * reflected register that is a 128-bit shift LEFT by one, and when the
 * constant term of H (bit 127) falls out, we add rev128(x^-1) =
 * 0xc2000000_00000000_00000000_00000001 (.Lgfpoly). Then
 * clmul(rev(a), rev(H')) = rev256(x * a * H * x^-1) = rev256(a * H): a
 * properly aligned 256-bit reflected product, ready to reduce.
 * Powers: mul(A', B') = A' * B' * x (the same reduction), so with
 * P_i = H^i * x^-1 we get mul(P_i, P_j) = H^(i+j) * x^-1 = P_(i+j): the
 * table is built with the very multiply the hash uses.
 *
 * LO/MI/HI Karatsuba. A 128x128 product of (a1:a0) and (h1:h0) (64-bit
 * halves) is LO + MI*2^64 + HI*2^128 with LO = a0*h0, HI = a1*h1 and
 * MI = a0*h1 + a1*h0 = (a0+a1)*(h0+h1) + LO + HI. The table holds h0+h1 for
 * every power, so each block costs three PCLMULQDQ. In the 8-block loop the
 * halves a0+a1 of two blocks are formed together (VPUNPCKLQDQ,
 * VPUNPCKHQDQ, VPXOR: 1.5 ops per block) and multiplied against a packed
 * pair of key halves (imm 0x00 and 0x11); the tail uses PSHUFD + PXOR.
 * GHASH of 8 blocks B0..B7 with state X is
 * (X+B0)*H^8 + B1*H^7 + ... + B7*H^1: the 8 products are summed unreduced
 * in three accumulators (LO, MI, HI), MI is corrected once with LO + HI,
 * and one reduction serves all 8 blocks.
 *
 * Reduction (two folds by one constant). Write the 256-bit reflected
 * product as 64-bit words w0..w3 (w0 least significant). Word w0 holds the
 * coefficients of x^192..x^255, w1 x^128..x^191, w2 x^64..x^127, w3
 * x^0..x^63. A term x^(128+j)*t (t of degree < 64) reduces as
 * x^128 = x^7 + x^2 + x + 1 (mod g), i.e. t + t*(x^7 + x^2 + x). In
 * reflected 64-bit words, t*(x^7+x^2+x) is clmul(w, 0xc200000000000000)
 * (bits 63, 62, 57 = x^0, x^1, x^6: one power of x is supplied by the
 * clmul's one-bit offset), landing 64 bits above w, while the "+ t" term
 * is w itself moved up 128 bits. With LO = w1:w0 at bit 0, MI at bit 64
 * and HI at bit 128:
 *   fold LO into MI:  MI += clmul(LO.q0, K) + swap64(LO)
 *   fold MI into HI:  HI += clmul(MI.q0, K) + swap64(MI)
 * where K = 0xc200000000000000 (high qword of .Lgfpoly) and swap64 (PSHUFD
 * $0x4e) does both moves at once: LO.q1 (bits 64..127) is already in MI.q0's
 * place, and LO.q0 lands in MI.q1, 128 bits above where it was.
 * The overflow of the first fold (up to x^134) lands in MI.q0, which the
 * second fold reduces. HI is then rev128(product mod g): 2 PCLMULQDQ,
 * 2 PSHUFD and 4 PXOR per reduction.
 *
 * ========================================================================
 * Design
 * ========================================================================
 *
 * Main loop (encrypt): CTR encryption of 8 blocks interleaved with the
 * GHASH of the previous 8 ciphertext blocks (re-read from |out|, just
 * written, so store forwarding serves them); one reduction per 8 blocks.
 * Decrypt hashes the 8 ciphertext blocks it is about to decrypt, so it has
 * no pipeline delay. GHASH work is cut into steps 0..9 (8 blocks, then the
 * two folds) issued between the AES rounds; AES-192/256 run their extra
 * first rounds without GHASH work. The last round XORs the input in
 * through the round key (AESENCLAST with rk[Nr] ^ in), off the AES chain.
 *
 * Tail: 1..7 remaining blocks get 7 keystream lanes in one parallel AES
 * pass (for encrypt, interleaved with the GHASH of the last full group),
 * then one block at a time: XOR, store, and multiply by H^n..H^1 into
 * unreduced LO/MI/HI, with a single reduction at the end. Fewer than 8
 * blocks in all: the same without the stack buffer.
 *
 * What bounds the loop. On the development CPU (Xeon, Golden Cove class,
 * ~3.8 GHz when idle) AESENC issues 2/cycle (ports 0, 1), PCLMULQDQ 1/cycle
 * (port 5), other vector ALU ops and shuffles 3/cycle over ports 0, 1, 5,
 * and BSWAP r32 also takes port 1 or 5. Micro-benchmarks showed that
 * neither the AES units nor the multiplier is the limit: vector-port issue
 * is. The loop therefore minimizes vector ALU uops. Per 8 blocks with
 * AES-128 it issues 164: 72 AESENC + 8 AESENCLAST, 26 PCLMULQDQ, 8 VPSHUFB
 * (data), 8 VPUNPCK + 2 PSHUFD, 40 VPXOR (8 last-round, 8 pair halves and
 * Xi, 21 accumulate, 2 Karatsuba correction, 4 folds). That is 55 cycles
 * at 3/cycle; the loop measures ~57 (0.45 c/B).
 *  - Counters from memory. Computing 8 counter blocks in registers costs
 *    24 vector uops per group (VPADDD, VPSHUFB, the rk[0] VPXOR). Instead
 *    the round-0 states ctr_i ^ rk[0] are loaded from a stack buffer (loads
 *    use no ALU port) and refreshed with 32-bit scalar stores two groups
 *    ahead (see _ctr_refill8). Measured: +6-9% over register counters;
 *    doing the refill with one BSWAP per block instead of one per group
 *    gave back ~4% (BSWAP issues on ports 1/5). The 16-byte loads never
 *    hit an in-flight 4-byte store (replacing the stores by dummy stores
 *    did not change the speed).
 *  - Branch-free refill. The counter is secret, so the refill may not pick
 *    a path by its value (an earlier version took a one-BSWAP fast path
 *    while the low byte could not carry, and a BSWAP per block otherwise).
 *    Always paying a BSWAP per block cost 2-4% (kernel, 16 KiB and 1344
 *    bytes); the select form of _ctr_refill8 (one BSWAP per group, four
 *    integer ops per slot that need no vector port) costs 0-1.7% over
 *    that fast path, 1344-byte calls included (slot tables: 12 vector uops
 *    and 4 stores per call). Kernel alone, medians of 15-21 interleaved
 *    rounds, TSC (2.6 GHz) cycles per byte, old fast path -> now:
 *                   16 KiB enc    16 KiB dec    1344 B enc    1344 B dec
 *      AES-128      0.304->0.305  0.289->0.291  0.329->0.329  0.318->0.324
 *      AES-256      0.384->0.387  0.386->0.388  0.419->0.423  0.414->0.420
 *  - Karatsuba with packed pairs: MI costs 3.5 uops per block (schoolbook
 *    4: two multiplies, two XORs; plain Karatsuba 4 plus the correction),
 *    measured ~+2% over per-block PSHUFD halves; it also keeps port 5
 *    lighter (26 multiplies instead of 34).
 *  - 8 blocks: 16 vector registers hold 8 AES states, a round key, the
 *    three accumulators and three temporaries; a 6-block loop spends the
 *    same reduction and loop overhead on fewer blocks.
 *
 * Measured (development VM, 16 KiB per call, AES-NI round keys kept; the
 * kernel against OpenSSL 3.0 EVP (its 6-block AES-NI/AVX loop on this
 * machine) in the same process, interleaved, medians of 31-41 rounds):
 *                 fastcrypto       OpenSSL         ratio (median)
 *   AES-128 enc   8.0-8.6 GB/s     6.2-6.7 GB/s    1.29-1.30
 *   AES-128 dec   8.2-8.9 GB/s     6.5-6.9 GB/s    1.28-1.31
 *   AES-256 enc   7.0-7.4 GB/s     5.5-5.9 GB/s    1.26-1.28
 *   AES-256 dec   6.9-7.5 GB/s     5.4-5.9 GB/s    1.27
 *   (`openssl speed -evp aes-128-gcm -bytes 16384` on the idle machine:
 *   5.9-6.0 GB/s.) Steps to get there, AES-128 encrypt ratio: counters in
 *   registers and per-block PSHUFD halves 1.13-1.14; counters from memory
 *   with a BSWAP per block 1.21; one BSWAP per group 1.25-1.27; packed
 *   Karatsuba pairs 1.28-1.30.
 *   fc_gcm_init_aesni_avx: ~27 ns idle (7 products in 3 dependent levels).
 *   fc_ghash_aesni_avx: ~17 GB/s at 16 KiB.
 *   Small calls, AES-128 encrypt (kernel alone): 1 block ~45 cycles,
 *   8 blocks ~80-100, 84 blocks (1344 bytes) ~660 (0.49 c/B).
 *
 * Register names are set per function (.set NAME, %reg); the macros below
 * use those names, so each function's table is the single reference.
 *
 * CT: no branch or memory index depends on key, H, Xi, the counter or
 * data; only block counts and the key length (rounds) select paths. AES-NI,
 * PCLMULQDQ, BSWAP and the vector ALU are data-independent in time.
 */
#include "fc_asm.h"
#include "fc/asm_offsets.h"

/* Every table access is HTOFF + offset(HTAB): HTAB is a gcm key pointer
 * (fc_ghash_aesni_avx biases its htable argument to match). */
#define HTOFF FC_OFF_GCM_HTABLE

#if defined(__x86_64__)

/* ------------------------------------------------------------------------
 * Constants
 * ------------------------------------------------------------------------ */
	FC_RODATA
	.balign	16
/* VPSHUFB mask: reverse the 16 bytes of a block. */
.Lbswap_mask:
	.byte	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
/* rev128(x^-1) = rev128(x^127 + x^6 + x + 1); its high qword,
 * 0xc200000000000000, is the reduction constant K. */
.Lgfpoly:
	.quad	0x0000000000000001, 0xc200000000000000
/* Slot indices 0..7 and the mask 7, for the refill's slot tables. */
.Lslot_idx:
	.long	0, 1, 2, 3, 4, 5, 6, 7
.Lseven:
	.long	7, 7, 7, 7
/* Counter increments 1..8 for the byte-reversed counter (32-bit lane 0). */
.Lctr_inc:
	.long	1, 0, 0, 0
	.long	2, 0, 0, 0
	.long	3, 0, 0, 0
	.long	4, 0, 0, 0
	.long	5, 0, 0, 0
	.long	6, 0, 0, 0
	.long	7, 0, 0, 0
	.long	8, 0, 0, 0

/*
 * Hash key table (FC_GCM_HTABLE_BYTES = 512; the first 320 are used), at
 * HTOFF(HTAB):
 *   16*(8-i)          P_i = rev128(H^i * x^-1), i = 1..8 (H^8 first, so
 *                     block k of a group of 8 uses offset 16*k)
 *   128 + 16*(8-i)    h(P_i) = P_i.q0 ^ P_i.q1 in both qwords (Karatsuba
 *                     half; the one-block tail)
 *   256 + 16*p        (h(P_(8-2p)), h(P_(7-2p))), p = 0..3: the halves of
 *                     blocks 2p and 2p+1 of a group, packed in one register
 * Bytes 320..511 are neither used nor written.
 */
#define HT_KARA 128
#define HT_KPAIR 256

/* ------------------------------------------------------------------------
 * GHASH macros. They use the names LO, MI, HI, GT0, GT1, GT2, HTAB, which
 * each function sets.
 * ------------------------------------------------------------------------ */

/*
 * _ghash_step8 k, disp, base: step k of the GHASH of the 8 blocks at
 * disp(base): X = (X + B0)*H^8 + B1*H^7 + ... + B7*H^1.
 *   k = 0..7  LO/HI products of block k (k = 0 also adds X, held in HI,
 *             and starts the accumulators instead of adding to them); even
 *             k loads blocks k and k+1, odd k also forms the Karatsuba
 *             halves of blocks k-1 and k and their two middle products;
 *   k = 8     MI += LO + HI (Karatsuba correction), fold LO into MI;
 *   k = 9     fold MI into HI.
 * In: HI = X (k = 0), HTAB. Out (after k = 9): HI = new X, reduced.
 * Clobbers: GT0, GT1, GT2, LO, MI (and HI). Reads 16 bytes at
 * disp+16k(base) for k < 8.
 */
.macro _ghash_step8 k, disp, base
.if \k < 8 && (\k & 1) == 0
	/* Even step: load blocks k and k+1, LO/HI products of block k. */
	vmovdqu	\disp+16*\k(\base), GT0
	vpshufb	.Lbswap_mask(%rip), GT0, GT0
.if \k == 0
	vpxor	HI, GT0, GT0			// B0 + X
.endif
	vmovdqu	\disp+16*(\k+1)(\base), GT1
	vpshufb	.Lbswap_mask(%rip), GT1, GT1
.if \k == 0
	vpclmulqdq $0x00, HTOFF+16*\k(HTAB), GT0, LO
	vpclmulqdq $0x11, HTOFF+16*\k(HTAB), GT0, HI
.else
	vpclmulqdq $0x00, HTOFF+16*\k(HTAB), GT0, GT2
	vpxor	GT2, LO, LO
	vpclmulqdq $0x11, HTOFF+16*\k(HTAB), GT0, GT2
	vpxor	GT2, HI, HI
.endif
.elseif \k < 8
	/* Odd step: LO/HI products of block k, then the Karatsuba middle
	 * products of blocks k-1 and k from one packed pair of halves. */
	vpclmulqdq $0x00, HTOFF+16*\k(HTAB), GT1, GT2
	vpxor	GT2, LO, LO
	vpclmulqdq $0x11, HTOFF+16*\k(HTAB), GT1, GT2
	vpxor	GT2, HI, HI
	vpunpcklqdq GT1, GT0, GT2		// (b[k-1].q0, b[k].q0)
	vpunpckhqdq GT1, GT0, GT0		// (b[k-1].q1, b[k].q1)
	vpxor	GT0, GT2, GT2			// both Karatsuba halves
.if \k == 1
	vpclmulqdq $0x00, HTOFF+HT_KPAIR+8*(\k-1)(HTAB), GT2, MI
.else
	vpclmulqdq $0x00, HTOFF+HT_KPAIR+8*(\k-1)(HTAB), GT2, GT0
	vpxor	GT0, MI, MI
.endif
	vpclmulqdq $0x11, HTOFF+HT_KPAIR+8*(\k-1)(HTAB), GT2, GT1
	vpxor	GT1, MI, MI
.elseif \k == 8
	vpxor	LO, MI, MI
	vpxor	HI, MI, MI			// MI = a0*h1 + a1*h0
	vpclmulqdq $0x10, .Lgfpoly(%rip), LO, GT0	// LO.q0 * K
	vpshufd	$0x4e, LO, LO
	vpxor	LO, MI, MI
	vpxor	GT0, MI, MI
.elseif \k == 9
	vpclmulqdq $0x10, .Lgfpoly(%rip), MI, GT0	// MI.q0 * K
	vpshufd	$0x4e, MI, MI
	vpxor	MI, HI, HI
	vpxor	GT0, HI, HI
.endif
.endm

/*
 * _ghash_1x mode: the tail, one block per iteration, NBLK (1..7) blocks.
 * Block i (0-based) is multiplied by H^(NBLK-i) and summed unreduced into
 * LO/MI/HI; one reduction at the end.
 *   mode 0: hash the blocks at IN.
 *   mode 1 (encrypt): out = in ^ ks, hash out.
 *   mode 2 (decrypt): hash in, out = in ^ ks.
 * Keystream (modes 1, 2): block i uses %xmm0 after i lane shifts
 * (%xmm1 -> %xmm0, ..., %xmm6 -> %xmm5), so the caller puts ks for block i
 * in %xmm(i), i < 7.
 * In: HI = X, IN, OUT (modes 1, 2), NBLK >= 1, HTAB.
 * Out: HI = new X; IN, OUT advanced by 16*NBLK; NBLK = 0.
 * Clobbers: HP, XI, GT0-GT2, LO, MI, %xmm0-%xmm6 (modes 1, 2), flags.
 */
.macro _ghash_1x mode
	vmovdqa	HI, XI			// X goes into block 0 only
	vpxor	LO, LO, LO
	vpxor	MI, MI, MI
	vpxor	HI, HI, HI
	/* HP = &P_NBLK = HTAB + HTOFF + 16*(8 - NBLK) */
	mov	NBLK, HP
	shl	$4, HP
	neg	HP
	lea	HTOFF+128(HTAB, HP), HP
1:
	vmovdqu	(IN), GT0
.if \mode == 1
	vpxor	%xmm0, GT0, GT0
	vmovdqu	GT0, (OUT)
.elseif \mode == 2
	vpxor	%xmm0, GT0, GT1
	vmovdqu	GT1, (OUT)
.endif
	vpshufb	.Lbswap_mask(%rip), GT0, GT0
	vpxor	XI, GT0, GT0
	vpxor	XI, XI, XI		// zero idiom: later blocks add nothing
	vpshufd	$0x4e, GT0, GT1
	vpxor	GT0, GT1, GT1
	vpclmulqdq $0x00, (HP), GT0, GT2
	vpxor	GT2, LO, LO
	vpclmulqdq $0x11, (HP), GT0, GT0
	vpxor	GT0, HI, HI
	vpclmulqdq $0x00, HT_KARA(HP), GT1, GT1
	vpxor	GT1, MI, MI
.if \mode != 0
	vmovdqa	%xmm1, %xmm0		// next lane (register moves: renamed)
	vmovdqa	%xmm2, %xmm1
	vmovdqa	%xmm3, %xmm2
	vmovdqa	%xmm4, %xmm3
	vmovdqa	%xmm5, %xmm4
	vmovdqa	%xmm6, %xmm5
	add	$16, OUT
.endif
	add	$16, IN
	add	$16, HP
	dec	NBLK
	jnz	1b
	_ghash_step8 8
	_ghash_step8 9
.endm

/* ------------------------------------------------------------------------
 * AES-CTR macros. AES states are %xmm0..%xmm7 (block i in %xmm(i)).
 *
 * Counter blocks. In the 8-block loop the round-0 states ctr_i ^ rk[0] come
 * from memory: a 256-byte stack buffer holds two groups of 8 blocks (BUFP
 * points at the current group and toggles by XOR 128). Only the last 32 bits
 * of a counter block change within a call, so after the setup (vector
 * code, 16-byte stores) each block is refreshed by one 32-bit scalar store
 * of bswap(c) ^ rk[0][12..15]. Group g's blocks are written while group
 * g-2 runs, so the 16-byte load that reads them back finds the narrower
 * store long committed (no store-forwarding stall), and the 24 vector ops
 * per group that VPADDD/VPSHUFB/VPXOR counters cost move to the integer
 * ports.
 *
 * inc32 without branches. The counter is secret, and BSWAP per block costs
 * vector-port issue, so the refill uses that groups advance by 8: c0 = c
 * mod 8 is fixed for the call. With A = (the group's first counter) - c0,
 * a multiple of 8, block i of the group is A + t_i, t_i = c0 + i in 0..14,
 * and since adding less than 8 to a multiple of 8 cannot carry,
 *   bswap(A + t_i) = bswap(A)     | (t_i << 24)        if t_i < 8,
 *                    bswap(A + 8) | ((t_i - 8) << 24)  if t_i >= 8.
 * A + 8 is a 32-bit add, i.e. inc32's wrap mod 2^32. _buf_setup stores per
 * slot the mask m_i = -(t_i >= 8) and w_i = ((t_i & 7) << 24) ^ rk[0] word
 * 3 (SELM, SELW); a refill is then one BSWAP per group and, per slot,
 * (D & m_i) ^ bswap(A) ^ w_i with D = bswap(A) ^ bswap(A + 8): the
 * counter selects through masks, never through a branch or an address.
 * The vector paths (_ctr_vec, _buf_setup) add in the byte-reversed 32-bit
 * lane with VPADDD, which wraps mod 2^32 and carries nowhere.
 * ------------------------------------------------------------------------ */

/*
 * _aes_round nl, rk: one AESENC round with round key |rk| (memory) on
 * blocks 0..nl-1. Clobbers RK.
 */
.macro _aes_round nl, rk
	vmovdqu	\rk, RK
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \nl
	vaesenc	RK, %xmm\i, %xmm\i
.endif
.endr
.endm

/*
 * _ctr_refill8: write the round-0 states of the group two groups ahead
 * (counters A+c0 .. A+c0+7, see above) into the buffer group at BUFP:
 * word 3 of slot i = bswap(A + c0 + i) ^ rk[0] word 3, selected without
 * branches; then A += 8 (mod 2^32) and BC = bswap(A).
 * In: CW = A, BC = bswap(A), SELM/SELW tables. Clobbers TMP, DN.
 */
.macro _ctr_refill8
	lea	8(CW), DNd
	bswap	DNd				// bswap(A + 8)
	xor	BCd, DNd			// D = bswap(A) ^ bswap(A + 8)
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
	mov	DNd, TMPd
	and	SELM+4*\i(%rsp), TMPd		// D & m_i
	xor	BCd, TMPd
	xor	SELW+4*\i(%rsp), TMPd		// ^ w_i
	mov	TMPd, 12+16*\i(BUFP)
.endr
	xor	DNd, BCd			// bswap(A + 8)
	add	$8, CWd
.endm

/*
 * _ctr_vec nl: round-0 states from the counter at CTRP with vector code
 * (paths that never touch the buffer): %xmm(i) = inc32^i(ctr) ^ rk[0].
 * Clobbers GT0, RK.
 */
.macro _ctr_vec nl
	vmovdqu	(CTRP), GT0
	vpshufb	.Lbswap_mask(%rip), GT0, GT0	// 32-bit counter in lane 0
	vmovdqu	FC_OFF_AES_RK(KEY), RK
	vpshufb	.Lbswap_mask(%rip), GT0, %xmm0
.irp i, 1, 2, 3, 4, 5, 6, 7
.if \i < \nl
	vpaddd	.Lctr_inc+16*(\i-1)(%rip), GT0, %xmm\i
	vpshufb	.Lbswap_mask(%rip), %xmm\i, %xmm\i
.endif
.endr
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \nl
	vpxor	RK, %xmm\i, %xmm\i
.endif
.endr
.endm

/*
 * _buf_setup: fill both buffer groups (blocks 0..15) with vector code and
 * 16-byte stores; set BUFP = %rsp, CW = A and BC = bswap(A) for block 16
 * (A = its counter rounded down to a multiple of 8), and the slot tables
 * SELM, SELW (see the counter notes above). CTRP is read here for the last
 * time (CW reuses its register).
 * Clobbers GT0-GT2, LO, RK.
 */
.macro _buf_setup
	mov	%rsp, BUFP
	vmovdqu	(CTRP), GT0
	vpshufb	.Lbswap_mask(%rip), GT0, GT0
	vmovdqu	FC_OFF_AES_RK(KEY), RK
	vpaddd	.Lctr_inc+16*7(%rip), GT0, LO		// counter + 8
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i == 0
	vpshufb	.Lbswap_mask(%rip), GT0, GT1
	vpshufb	.Lbswap_mask(%rip), LO, GT2
.else
	vpaddd	.Lctr_inc+16*(\i-1)(%rip), GT0, GT1
	vpaddd	.Lctr_inc+16*(\i-1)(%rip), LO, GT2
	vpshufb	.Lbswap_mask(%rip), GT1, GT1
	vpshufb	.Lbswap_mask(%rip), GT2, GT2
.endif
	vpxor	RK, GT1, GT1
	vpxor	RK, GT2, GT2
	vmovdqa	GT1, 16*\i(BUFP)
	vmovdqa	GT2, 128+16*\i(BUFP)
.endr
	/* Slot tables: t_i = c0 + i with c0 = counter mod 8 (block 16
	 * has the same residue as block 0). */
	vpshufd	$0, GT0, GT0
	vpand	.Lseven(%rip), GT0, GT0		// c0 in every lane
	vpaddd	.Lslot_idx(%rip), GT0, GT1	// t_i, i = 0..3
	vpaddd	.Lslot_idx+16(%rip), GT0, GT2	// t_i, i = 4..7
	vpcmpgtd .Lseven(%rip), GT1, LO		// m_i = -(t_i >= 8)
	vpcmpgtd .Lseven(%rip), GT2, RK
	vmovdqa	LO, SELM(%rsp)
	vmovdqa	RK, SELM+16(%rsp)
	vbroadcastss FC_OFF_AES_RK+12(KEY), GT0	// rk[0] word 3
	vpand	.Lseven(%rip), GT1, GT1
	vpand	.Lseven(%rip), GT2, GT2
	vpslld	$24, GT1, GT1
	vpslld	$24, GT2, GT2
	vpxor	GT0, GT1, GT1			// w_i = ((t_i & 7) << 24) ^ rk
	vpxor	GT0, GT2, GT2
	vmovdqa	GT1, SELW(%rsp)
	vmovdqa	GT2, SELW+16(%rsp)
	mov	12(CTRP), CWd
	bswap	CWd
	add	$16, CWd			// block 16 (mod 2^32)
	and	$-8, CWd			// A
	mov	CWd, BCd
	bswap	BCd				// bswap(A)
.endm

/*
 * _crypt_8x nl, ctr, gh, gdisp, gbase, lastx: AES-CTR on |nl| (7 or 8)
 * counter blocks, optionally interleaved with the GHASH of the 8 blocks at
 * gdisp(gbase) (gh = 1).
 *   ctr = 0: round-0 states from CTRP (_ctr_vec);
 *   ctr = 1: from the buffer group at BUFP, which is refilled for two groups
 *            ahead (CW += 8) and toggled;
 *   ctr = 2: from the buffer group at BUFP, no refill (the last group).
 *   lastx = 1: the last round also XORs in the input blocks at IN, leaving
 *              the output blocks in %xmm0..%xmm(nl-1) (caller stores);
 *   lastx = 0: leaves the keystream there.
 * In: KEY, RKEND = &rk[Nr]; BUFP, CW, BC, slot tables (ctr 1, 2);
 * HI = X (gh).
 * Out: %xmm0..%xmm(nl-1); HI = new X (gh).
 * Clobbers: RK, GT0-GT2, LO, MI, TMP, DN, flags; CW += 8, BC and BUFP
 * updated (ctr 1).
 */
.macro _crypt_8x nl, ctr, gh, gdisp, gbase, lastx
.if \ctr == 0
	_ctr_vec \nl
.else
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \nl
	vmovdqu	16*\i(BUFP), %xmm\i
.endif
.endr
.endif
	/* AES-192/256: rounds 1..Nr-10 without GHASH work. */
	cmpl	$10, FC_OFF_AES_ROUNDS(KEY)
	je	1f
	_aes_round \nl, FC_OFF_AES_RK+16(KEY)
	_aes_round \nl, FC_OFF_AES_RK+32(KEY)
	cmpl	$12, FC_OFF_AES_ROUNDS(KEY)
	je	1f
	_aes_round \nl, FC_OFF_AES_RK+48(KEY)
	_aes_round \nl, FC_OFF_AES_RK+64(KEY)
1:
	/* Rounds Nr-9..Nr-1, each with one GHASH step and one refill. */
.irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8
	_aes_round \nl, -16*(9-\j)(RKEND)
.if \gh
	_ghash_step8 \j, \gdisp, \gbase
.endif
.if \ctr == 1 && \j == 1
	_ctr_refill8
.endif
.endr
.if \gh
	_ghash_step8 9
.endif
.if \ctr == 1
	xor	$128, BUFP
.endif
	/* Round Nr. */
	vmovdqu	(RKEND), RK
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \nl
.if \lastx
	/* AESENCLAST(s, rk ^ in) = AESENCLAST(s, rk) ^ in */
.if \i & 1
	vpxor	16*\i(IN), RK, GT1
	vaesenclast GT1, %xmm\i, %xmm\i
.else
	vpxor	16*\i(IN), RK, GT2
	vaesenclast GT2, %xmm\i, %xmm\i
.endif
.else
	vaesenclast RK, %xmm\i, %xmm\i
.endif
.endif
.endr
.endm

/* _store8: the 8 blocks %xmm0..%xmm7 to OUT. */
.macro _store8
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu	%xmm\i, 16*\i(OUT)
.endr
.endm

/* _advance8: IN, OUT += 128; NBLK -= 8; flags from "NBLK >= 8". */
.macro _advance8
	add	$128, IN
	add	$128, OUT
	sub	$8, NBLK
	cmp	$8, NBLK
.endm

/*
 * _clear_regs: zero the vector registers (keystream, data, GHASH values),
 * then VZEROUPPER.
 */
.macro _clear_regs
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vpxor	%xmm\i, %xmm\i, %xmm\i
.endr
	vzeroupper
.endm

/* ------------------------------------------------------------------------
 * void fc_gcm_init_aesni_avx(uint8_t *htable, const uint8_t h[16]);
 *
 * Fills the first 256 bytes of |htable| (FC_GCM_HTABLE_BYTES) from the hash
 * key h = E(K, 0^128) (SP 800-38D byte order): P_i = rev128(H^i * x^-1)
 * for i = 1..8 and their Karatsuba halves (layout above). No alignment
 * requirement.
 * CT: straight-line code; nothing about h leaks.
 * ------------------------------------------------------------------------ */

/*
 * _gf_mul a, b, d, t0, t1, t2: d = a*b*x mod g on reflected operands
 * (schoolbook, then the two folds). d must differ from a and b.
 * Clobbers t0-t2.
 */
.macro _gf_mul a, b, d, t0, t1, t2
	vpclmulqdq $0x00, \b, \a, \t0		// LO
	vpclmulqdq $0x01, \b, \a, \t1		// a.q1 * b.q0
	vpclmulqdq $0x10, \b, \a, \t2		// a.q0 * b.q1
	vpclmulqdq $0x11, \b, \a, \d		// HI
	vpxor	\t2, \t1, \t1			// MI
	vpclmulqdq $0x10, .Lgfpoly(%rip), \t0, \t2
	vpshufd	$0x4e, \t0, \t0
	vpxor	\t0, \t1, \t1
	vpxor	\t2, \t1, \t1
	vpclmulqdq $0x10, .Lgfpoly(%rip), \t1, \t2
	vpshufd	$0x4e, \t1, \t1
	vpxor	\t1, \d, \d
	vpxor	\t2, \d, \d
.endm

/* _ht_store p, i, t: store P_i (in |p|) and its Karatsuba half. */
.macro _ht_store p, i, t
	vmovdqu	\p, 16*(8-\i)(HTAB)
	vpshufd	$0x4e, \p, \t
	vpxor	\p, \t, \t
	vmovdqu	\t, HT_KARA+16*(8-\i)(HTAB)
.endm

FC_FUNC_START(fc_gcm_init_aesni_avx)
	.set	HTAB,	%rdi		// uint8_t *htable
	.set	HP_IN,	%rsi		// const uint8_t h[16]
	.set	P1,	%xmm0		// P_1 = rev(H * x^-1)
	.set	P2,	%xmm1
	.set	P3,	%xmm2
	.set	P4,	%xmm3
	.set	P5,	%xmm4
	.set	P6,	%xmm5
	.set	P7,	%xmm6
	.set	P8,	%xmm7
	.set	T0,	%xmm8		// temporaries
	.set	T1,	%xmm9
	.set	T2,	%xmm10
	.set	T3,	%xmm11
	.set	T4,	%xmm12
	.set	T5,	%xmm13

	vmovdqu	(HP_IN), P1
	vpshufb	.Lbswap_mask(%rip), P1, P1	// rev128(H)
	/* P1 = H * x^-1: shift left one bit; if bit 127 (the x^0
	 * coefficient) fell out, add rev128(x^-1). Mask, no branch. */
	vpshufd	$0xff, P1, T0
	vpsrad	$31, T0, T0			// all-ones iff bit 127 set
	vpand	.Lgfpoly(%rip), T0, T0
	vpsrlq	$63, P1, T1
	vpslldq	$8, T1, T1			// carry q0 -> q1
	vpsllq	$1, P1, P1
	vpxor	T1, P1, P1
	vpxor	T0, P1, P1
	/* Powers in three dependent levels: 2; 3, 4; 5, 6, 7, 8. */
	_gf_mul	P1, P1, P2, T0, T1, T2
	_gf_mul	P2, P1, P3, T0, T1, T2
	_gf_mul	P2, P2, P4, T3, T4, T5
	_gf_mul	P4, P1, P5, T0, T1, T2
	_gf_mul	P4, P2, P6, T3, T4, T5
	_gf_mul	P4, P3, P7, T0, T1, T2
	_gf_mul	P4, P4, P8, T3, T4, T5
	_ht_store P1, 1, T0
	_ht_store P2, 2, T1
	_ht_store P3, 3, T2
	_ht_store P4, 4, T3
	_ht_store P5, 5, T4
	_ht_store P6, 6, T5
	_ht_store P7, 7, T0
	_ht_store P8, 8, T1
	/* Packed pairs for the 8-block loop: (h(P_8), h(P_7)), ... */
.irp p, 0, 1, 2, 3
	vmovdqu	HT_KARA+32*\p(HTAB), T0
	vpunpcklqdq HT_KARA+32*\p+16(HTAB), T0, T0
	vmovdqu	T0, HT_KPAIR+16*\p(HTAB)
.endr
	_clear_regs
	ret
FC_FUNC_END(fc_gcm_init_aesni_avx)

/* ------------------------------------------------------------------------
 * void fc_ghash_aesni_avx(const uint8_t *htable, uint8_t xi[16],
 *                         const uint8_t *in, size_t blocks);
 *
 * For each of |blocks| 16-byte blocks b of |in|: xi = (xi ^ b) * H, with
 * |htable| from fc_gcm_init_aesni_avx. xi in SP 800-38D byte order, read
 * and written once. Any block count (0 leaves xi untouched); no alignment
 * requirement.
 * CT: only |blocks| selects paths.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_ghash_aesni_avx)
	.set	HTAB,	%r8		// htable - HTOFF (the layout of fc_gcm_key)
	.set	XIP,	%rsi		// uint8_t xi[16]
	.set	IN,	%rdx		// const uint8_t *in
	.set	NBLK,	%rcx		// blocks left
	.set	HP,	%rax		// tail: &P_(blocks left)
	.set	XI,	%xmm7		// tail: X, for block 0 only
	.set	GT0,	%xmm9		// GHASH temporaries
	.set	GT1,	%xmm10
	.set	GT2,	%xmm11
	.set	LO,	%xmm12		// unreduced sums: low, middle, high
	.set	MI,	%xmm13
	.set	HI,	%xmm14		// also X between groups

	test	NBLK, NBLK
	jz	.Lghash_ret
	lea	-HTOFF(%rdi), HTAB
	vmovdqu	(XIP), HI
	vpshufb	.Lbswap_mask(%rip), HI, HI
	cmp	$8, NBLK
	jb	.Lghash_tail
.Lghash_loop8:
.irp k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	_ghash_step8 \k, 0, IN
.endr
	add	$128, IN
	sub	$8, NBLK
	cmp	$8, NBLK
	jae	.Lghash_loop8
	test	NBLK, NBLK
	jz	.Lghash_done
.Lghash_tail:
	_ghash_1x 0
.Lghash_done:
	vpshufb	.Lbswap_mask(%rip), HI, HI
	vmovdqu	HI, (XIP)
	_clear_regs
.Lghash_ret:
	ret
FC_FUNC_END(fc_ghash_aesni_avx)

/* ------------------------------------------------------------------------
 * Encrypt/decrypt: the register table both kernels open with, and their
 * frame.
 * ------------------------------------------------------------------------ */

.macro _gcm_regs
	.set	KEY,	%rdi		// const fc_gcm_key *
	.set	IN,	%rsi		// const uint8_t *in (advanced)
	.set	OUT,	%rdx		// uint8_t *out (advanced)
	.set	NBLK,	%rcx		// blocks left
	.set	CTRP,	%r8		// const uint8_t ctr[16] (read in setup)
	.set	CW,	%r8		// after setup: A of the next buffer refill
	.set	CWd,	%r8d		//   (block 0 of group + 2, rounded down to
					//   a multiple of 8; secret: zeroed on exit)
	.set	XIP,	%r9		// uint8_t xi[16] (setup; saved at -16(%rbp))
	.set	BC,	%r9		// after setup: bswap(CW)
	.set	BCd,	%r9d
	.set	RKEND,	%r10		// &rk[Nr]
	.set	DNd,	%r11d		// refill: bswap(A) ^ bswap(A + 8) (secret:
					//   zeroed on exit)
	.set	HP,	%r11		// tail: &P_(blocks left); reuses DN
	.set	TMP,	%rax		// refill temporary
	.set	TMPd,	%eax
	.set	BUFP,	%rbx		// current counter group (callee-saved)
	.set	HTAB,	%rdi		// = KEY: the hash key table is at KEY + HTOFF
	// %xmm0..%xmm7: AES states / keystream of blocks 0..7 of the group
	.set	XI,	%xmm7		// tail: X, for block 0 only (lane 7 unused)
	.set	RK,	%xmm8		// current round key
	.set	GT0,	%xmm9		// GHASH temporaries
	.set	GT1,	%xmm10
	.set	GT2,	%xmm11
	.set	LO,	%xmm12		// unreduced sums: low, middle, high
	.set	MI,	%xmm13
	.set	HI,	%xmm14		// also X between groups
	// %xmm15 unused
	.set	SELM,	256		// (%rsp): slot masks m_0..m_7 (32-bit)
	.set	SELW,	288		// (%rsp): slot words w_0..w_7 (32-bit)
.endm

/*
 * _gcm_enter: frame with a 320-byte, 256-aligned area at %rsp (counter
 * buffer, then the slot tables SELM and SELW); HI = rev(Xi); RKEND. Saves
 * %rbp, %rbx, and XIP at -16(%rbp).
 */
.macro _gcm_enter
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	push	%rbx
	.cfi_offset %rbx, -24
	push	XIP
	sub	$320, %rsp
	and	$-256, %rsp
	vmovdqu	(XIP), HI
	vpshufb	.Lbswap_mask(%rip), HI, HI
	mov	FC_OFF_GCM_AES+FC_OFF_AES_ROUNDS(KEY), TMPd
	shl	$4, TMPd
	lea	FC_OFF_AES_RK(KEY, TMP), RKEND
.endm

/* _gcm_wipe_buf: zero the counter buffer (it holds ctr ^ rk[0]) and the
 * slot tables (counter- and key-derived). */
.macro _gcm_wipe_buf
	vpxor	GT0, GT0, GT0
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19
	vmovdqa	GT0, 16*\i(%rsp)
.endr
.endm

/* _gcm_leave: store Xi, clear registers, restore the frame, return. */
.macro _gcm_leave
	.cfi_remember_state
	mov	-16(%rbp), XIP
	vpshufb	.Lbswap_mask(%rip), HI, HI
	vmovdqu	HI, (XIP)
	_clear_regs
	xor	DNd, DNd
	xor	CWd, CWd
	xor	TMPd, TMPd
	lea	-8(%rbp), %rsp
	pop	%rbx
	pop	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	.cfi_restore %rbx
	ret
	.cfi_restore_state
.endm

/* ------------------------------------------------------------------------
 * void fc_gcm_enc_aesni_avx(const fc_gcm_key *key, const uint8_t *in,
 *                           uint8_t *out, size_t blocks,
 *                           const uint8_t ctr[16], uint8_t xi[16]);
 *
 * out[i] = in[i] ^ E(K, inc32^i(ctr)) for i < |blocks| (the last 32 bits,
 * big-endian, + i mod 2^32; bytes 0..11 fixed), and xi absorbs every
 * output block. |key| holds the AES-NI encryption schedule at offset 0,
 * rounds at 240 and the table of fc_gcm_init_aesni_avx at 256. in == out
 * allowed, no other overlap; no alignment requirement. ctr is read, never
 * written.
 * blocks = 0 is a no-op (xi untouched). Uses 352..592 bytes of stack,
 * wiped before return.
 * CT: only |blocks| and the key length select paths; the counter, like
 * key, xi and data, reaches no branch or address.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_gcm_enc_aesni_avx)
	_gcm_regs			// register table: _gcm_regs above
	test	NBLK, NBLK
	jnz	1f
	ret				// 0 blocks: no-op
1:
	_gcm_enter
	cmp	$8, NBLK
	jb	.Lenc_small

	_buf_setup
	/* First group: AES only; its GHASH runs with the next group. */
	_crypt_8x 8, 1, 0, 0, IN, 1
	_store8
	_advance8
	jb	.Lenc_pend
.Lenc_loop8:
	/* AES of this group, GHASH of the previous output group. */
	_crypt_8x 8, 1, 1, -128, OUT, 1
	_store8
	_advance8
	jae	.Lenc_loop8
.Lenc_pend:
	/* The last output group (at OUT - 128) is not hashed yet. */
	test	NBLK, NBLK
	jz	.Lenc_last8
	_crypt_8x 7, 2, 1, -128, OUT, 0
	_ghash_1x 1
	jmp	.Lenc_wipe
.Lenc_last8:
.irp k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	_ghash_step8 \k, -128, OUT
.endr
.Lenc_wipe:
	_gcm_wipe_buf
	_gcm_leave

.Lenc_small:
	/* 1..7 blocks: no buffer. */
	_crypt_8x 7, 0, 0, 0, IN, 0
	_ghash_1x 1
	_gcm_leave
FC_FUNC_END(fc_gcm_enc_aesni_avx)

/* ------------------------------------------------------------------------
 * void fc_gcm_dec_aesni_avx(const fc_gcm_key *key, const uint8_t *in,
 *                           uint8_t *out, size_t blocks,
 *                           const uint8_t ctr[16], uint8_t xi[16]);
 *
 * xi absorbs every input block, and out[i] = in[i] ^ E(K, inc32^i(ctr)).
 * Otherwise as fc_gcm_enc_aesni_avx (in == out allowed: every input block
 * is read for GHASH before its output is stored).
 * CT: only |blocks| and the key length select paths.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_gcm_dec_aesni_avx)
	_gcm_regs			// register table: _gcm_regs above
	test	NBLK, NBLK
	jnz	1f
	ret				// 0 blocks: no-op
1:
	_gcm_enter
	cmp	$8, NBLK
	jb	.Ldec_small

	_buf_setup
.Ldec_loop8:
	/* AES of this group, GHASH of its own input (the ciphertext). */
	_crypt_8x 8, 1, 1, 0, IN, 1
	_store8
	_advance8
	jae	.Ldec_loop8
	test	NBLK, NBLK
	jz	.Ldec_wipe
	_crypt_8x 7, 2, 0, 0, IN, 0
	_ghash_1x 2
.Ldec_wipe:
	_gcm_wipe_buf
	_gcm_leave

.Ldec_small:
	_crypt_8x 7, 0, 0, 0, IN, 0
	_ghash_1x 2
	_gcm_leave
FC_FUNC_END(fc_gcm_dec_aesni_avx)

#endif /* __x86_64__ */
