/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_gcm_avx512.S - AES-GCM (SP 800-38D) bulk kernels with VAES and
 * VPCLMULQDQ on zmm registers: four AES blocks and four GHASH blocks per
 * instruction, 32 blocks per main-loop iteration.
 *
 * CPU features: AES-NI, PCLMULQDQ, AVX, AVX2, VAES, VPCLMULQDQ, AVX512F,
 * AVX512BW (masked byte shuffles, 64-bit opmasks), AVX512DQ (KMOVB),
 * AVX512VL (EVEX ymm/xmm forms on zmm16-31), BMI2 (BZHI), and the OS
 * saving zmm and opmask state: fc_gcm_vaes_avx512_capable (fc/cpu.h).
 *
 * ABI: SysV AMD64. Only caller-saved GPRs (rax, rcx, rdx, rsi, rdi, r8-r11),
 * vector and opmask registers are used; no stack, not even the red zone.
 * Every return goes through vzeroupper, after zeroing zmm16-26 (_exit).
 *
 * Contract: include/fc/gcm.h. The kernels implement inc32 (block i uses the
 * counter block with its last 32 bits, big-endian, + i mod 2^32; bytes
 * 0..11 unchanged), so a call may cross the wrap, and they treat the
 * counter as secret (for IVs other than 96 bits J0 = GHASH_H(IV)).
 *
 * Math. The field, bit order and representation are those of the ymm tier
 * (aes_gcm_vaes.S), restated so that this file stands alone.
 *  - GF(2^128) = GF(2)[x]/(g), g = x^128 + x^7 + x^2 + x + 1. SP 800-38D
 *    puts x^0 in the most significant bit of byte 0 and x^127 in bit 0 of
 *    byte 15. A byte reversal (VPSHUFB, .Lbswap_mask) turns the block into
 *    a 128-bit lane whose bit 127-k is the coefficient of x^k: R(a), the
 *    bit-reflected form, in which multiplying by x is a right shift.
 *  - A carry-less product of R(a) and R(b) puts the coefficient of x^k of
 *    a*b at bit 254-k of 256 bits; read with the same reflection over 256
 *    bits that is R(a*b*x). To cancel the extra x the table holds
 *    R(H^i * x^-1): (xi ^ m) * (H^i x^-1) * x = (xi ^ m) * H^i, and
 *    (H^i x^-1)(H^j x^-1) x = H^(i+j) x^-1, so the powers are built with
 *    the same multiplier. H * x^-1 is R(H) shifted left by one (the
 *    outgoing bit is the x^0 coefficient), XORed with R(x^-1) =
 *    R(x^127 + x^6 + x + 1) = 0xc2000000_00000000_00000000_00000001 when
 *    that bit was set: a mask, not a branch.
 *  - Products: schoolbook, four VPCLMULQDQ per lane: LO = a0 b0,
 *    HI = a1 b1, MI = a0 b1 ^ a1 b0 (64-bit halves). Karatsuba saves a
 *    multiply but costs a shuffle and an XOR on the data and a fix-up,
 *    and with VPTERNLOGD summing two terms per instruction schoolbook is
 *    the shorter: 6 vector uops per 4 blocks against about 7. Blocks
 *    m_1..m_n are hashed as sum m_k H^(n+1-k) with xi folded into m_1; LO,
 *    MI and HI are summed unreduced over all lanes and products, and
 *    reduced once.
 *  - Reduction of the 256-bit HI:MI:LO (MI at bit 64), per lane: the low
 *    64-bit word W of LO stands for terms of degree 192..255; x^128 = x^7
 *    + x^2 + x + 1 moves each bit of W 128 bits up (a qword swap into the
 *    next word) and 121, 126 and 127 bits up, which is W times
 *    0xc200000000000000 (one VPCLMULQDQ) landing 64 bits up. Folding LO's
 *    low word into MI and then MI's low word into HI leaves R(p mod g) in
 *    HI. It is linear, so it runs on all four lanes at once and the lanes
 *    are summed after it (two extracts, two XORs).
 *
 * Design. Figures from this project's reference machine (Xeon, Sapphire
 * Rapids class, KVM guest reporting family 6 model 0xa7, TSC 2.6 GHz,
 * core ~3.56 GHz by a dependent ADD chain), in core cycles (c), measured
 * on instruction loops before the kernel was written:
 *  - VAESENC zmm: 1/cycle (one port, latency 3); ymm: 2/cycle. With any
 *    512-bit uop in flight the second AES port is closed, and ymm AES too
 *    runs at 1/cycle. So AES is 4 blocks/cycle/round at best with either
 *    width: 2.5 c/block for AES-128, 3.5 for AES-256 (0.156 / 0.219 c/B).
 *    That is this tier's floor, and the reason for it: the ymm tier is
 *    not AES-bound but bound by all its vector uops on three ports.
 *  - VPCLMULQDQ zmm 1/cycle, on the other port (AES + CLMUL pairs: 1.0 c
 *    a pair); VPSHUFB/VPSHUFD zmm 1/cycle on that port; VPXORD/VPTERNLOGD/
 *    VPADDD zmm 2/cycle on either. zmm register moves are eliminated
 *    (8 moves + 8 VAESENC: 8.0 c).
 *  - So the time of a group is about max(AES uops, all vector uops / 2):
 *    every non-AES uop is paid for in full. Per 32 blocks: 80 VAESENC
 *    (AES-128); 34 VPCLMULQDQ (32 products, 2 reduction); 8 byte swaps
 *    of the data; 8 counter shuffles; 2 VPSHUFD and 2 lane extracts
 *    (reduction); and 33 either-port uops (16 VPTERNLOGD/VPXORD summing
 *    products, 8 XORs of the plaintext into the last round key, 4 counter
 *    adds/XORs, 5 reduction and lane-sum XORs): 167 uops, >= 84 c per 32
 *    blocks (0.163 c/B) for AES-128, the AES floor (112 c, 0.219 c/B) for
 *    AES-256.
 *  - 32 blocks per iteration rather than 16: one reduction and one lane
 *    sum (10 uops) per 32 blocks instead of 16, and half the loop
 *    overhead, at the price of a 32-power table (512 bytes: fits
 *    FC_GCM_HTABLE_BYTES with no Karatsuba halves).
 *  - Counters (secret: no branch or address may depend on them). CTR
 *    holds sixteen 32-bit counters as numbers, lane l dword k = c + 4k +
 *    l, XORed once per half-group with RX (the last word of rk[0],
 *    byte-reversed: BE32(n) ^ rk0[12..15] = BE32(n ^ RX)). A merge-masked
 *    VPSHUFB (opmask: bytes 12..15 of each lane) writes dword j of each
 *    lane, byte-reversed, over a copy of FIX = [ctr bytes 0..11] ^ rk[0]:
 *    the round-0 state of four blocks in one uop (the copy is
 *    eliminated), where a shuffle plus an XOR would take two. VPADDD
 *    steps the numbers: 32-bit lane adds wrap mod 2^32 and carry nowhere,
 *    which is inc32.
 *  - Interleaving: encryption runs AES on the next 32 counters while
 *    hashing the 32 ciphertext blocks of the previous iteration (reloaded
 *    from |out|); decryption hashes the 32 blocks it decrypts. AES round
 *    r (1..8) carries the hash of one data register (load, byte swap,
 *    four products, their sums), round 9 the reduction and lane sum; the
 *    register that carries xi is hashed last, so the previous reduction
 *    has most of an iteration to finish. AES-192/256 add their rounds
 *    behind a predictable branch. The plaintext is XORed into the last
 *    round key off the AES chain (VAESENCLAST does the final XOR).
 *  - Tails: encryption sends its last 1..32 blocks (all of them when
 *    there are at most 32) and decryption its last 1..31 to straight-line
 *    code over up to eight registers of four blocks, the last register
 *    under an opmask (AVX512BW/VL masked loads and stores by block count:
 *    nothing is read or written past the data, nor past the table, whose
 *    powers for that register load under the same mask). Its AES runs
 *    first; when encrypting, the hash of a pending group follows it in
 *    program order, so the two overlap, then each register is XORed,
 *    stored and hashed, with one reduction. An encryption with nothing
 *    pending writes its AES register by register (see _tail_ks): the
 *    oldest-first scheduler then finishes register 0 first and its hash
 *    overlaps the AES of the others. 32 blocks this way take 122 c where
 *    one unstitched group and its hash took 153 c.
 *  - GHASH alone (AAD, the buffered blocks at the end of a message): the
 *    main loop's products and reduction unstitched, 32 blocks a pass,
 *    then the tail code's hash. Its inputs are mostly blocks the C code
 *    has just written, one 16-byte store each; a 64-byte load over such
 *    stores is not forwarded from them and waits for them to reach the
 *    cache (a store-load round trip: 7 c forwarded, 26 c not), so the
 *    tail here loads 16 bytes a lane (a masked VBROADCASTI32X4 for lanes
 *    1-3). A 256-byte record (core API: IV, AAD, data, tag) went from
 *    243 c to 186 c with that (the ymm tier: 201 c).
 *
 * Results. Kernel alone, best of 41 runs of 64 KiB worth of calls on
 * one buffer, core cycles from the TSC scaled by a zmm VAESENC loop
 * (1/cycle); the ymm tier (aes_gcm_vaes.S) measured in the same process:
 *                     zmm enc  zmm dec   ymm enc  ymm dec
 *    AES-128 16 KiB    0.179    0.175     0.256    0.251   c/B
 *            1344 B    0.202    0.183     0.272    0.262
 *            1024 B    0.229    0.180     0.275    0.261
 *             512 B    0.239    0.185     0.295    0.270
 *             256 B    0.267    0.231     0.341    0.292
 *    AES-256 16 KiB    0.223    0.218     0.298    0.293
 *            1344 B    0.253    0.232     0.322    0.304
 *    GHASH alone, 16 KiB: 0.090 c/B (ymm 0.115); 10 blocks 39 c (ymm
 *    38); init 90 c (ymm 74): nine vector multiplies in five levels for
 *    32 powers, 72 uops on the multiply port, against eight ymm ones in
 *    four levels for 16.
 *  Against a loop of the same number of zmm VAESENC (the AES floor), in
 *  the same process and interleaved: AES-128 16 KiB 1.05-1.13x (the 84 c
 *  per 32 blocks of the uop count above, and the scheduler does not send
 *  every either-port uop to the non-AES port), AES-256 1.00-1.05x.
 *
 *  Through EVP, both providers in one process, the best of 300
 *  interleaved bursts (steady on this shared machine to 1-2% across runs,
 *  where 1-second runs of openssl speed swing 20-30%), throughput of
 *  fastcrypto over the default provider's; "speed" re-keys per message as
 *  openssl speed -evp does, "rec" keeps the key (IV, 13-byte AAD, data,
 *  tag), enc/dec ranges over AES-128 and AES-256:
 *    OpenSSL 3.6.3 (its own AVX-512 VAES GCM)
 *                 16 B       64 B       256 B      1350 B     16 KiB
 *      speed   0.96-1.03  0.89-0.94  1.01-1.08  1.03-1.09  1.06-1.08
 *      rec     1.14-1.22  1.01-1.11  1.13-1.21  1.10-1.14  1.01-1.10
 *    OpenSSL 3.0.19 (6-block xmm AES-NI loop)
 *      speed   2.10-2.14  1.99-2.05  2.21-2.30  2.15-2.38  2.69-2.84
 *      rec     2.02-2.18  1.84-2.06  2.07-2.24  2.21-2.28  2.69-2.76
 *  At 16 KiB OpenSSL 3.6 runs 0.217 c/B (AES-128) and 0.26 c/B (AES-256)
 *  against this tier's 0.20 and 0.245: 1.3x would need 0.167 and 0.20 c/B
 *  with EVP's own share included, at or below the AES floor (0.156 and
 *  0.219): no kernel reaches 1.3x there on this core. Re-keyed short
 *  messages (speed, 16-64 B) paid for the 32 powers at key setup (the
 *  whole fc_gcm_set_key: 191 c, the ymm tier's 169 c), where OpenSSL
 *  derives only H and makes the powers later, in its per-context state:
 *  at 64 B they lost to 3.6 (0.89-0.94x).
 *
 *  Per message, second revision: the table made in parts (init_part,
 *  grow), the key schedule, H and H^8..H^1 in one call (set_key), a
 *  partial last block in the tail (_bytes). fc_bench, both providers in
 *  one process, 7 interleaved rounds on a quiet machine, median
 *  ns per message and fastcrypto/default, OpenSSL 3.6.3, AES-128 unless
 *  marked; "speed" is openssl speed -evp's loop from 3.2 on ("ivlen",
 *  init with key and IV, data, final; no AAD), "rec" keeps the key:
 *                        before            after
 *    speed enc   16 B   118.0  1.08x     94.7  1.37x
 *    speed enc   64 B   126.6  1.06x    104.8  1.21x
 *    speed enc  256 B   129.1  1.10x    109.6  1.26x
 *    speed enc 1350 B   197.5  1.16x    180.1  1.24x
 *    speed dec   64 B   172.5  1.05x    153.6  1.17x
 *    AES-256 enc 64 B   130.6  1.04x    110.6  1.23x
 *    AES-256 dec 64 B   180.6  1.03x    158.8  1.17x
 *    rec seal    16 B    86.3  1.21x     74.9  1.36x
 *    rec seal  1350 B   181.2  1.06x    158.7  1.19x
 *  openssl speed -evp itself (scripts/bench.sh, 3 rounds), 64 B: AES-128
 *  enc/dec 0.97/0.98x -> 1.26/1.24x, AES-256 1.04/1.09x -> 1.14/1.21x.
 *  What a re-key costs now, through the core API (TSC ticks per message,
 *  AES-128, 16/64/256 B, no AAD): 117-122/154-160/164 re-keyed against
 *  55/81/94 with the key kept; the chain is key schedule (~55 ticks) ->
 *  H and three levels of powers (~55) -> the final GHASH. A 256-byte
 *  message grows the table to 16 powers (one more level, ~16 ticks).
 *
 * CT: VAES, VPCLMULQDQ and the vector ALU instructions are
 * data-independent in time; branches, addresses and opmasks depend only on
 * the block count and the number of rounds. The counter lives only in
 * vector registers: no instruction moves it to a general register, a flag
 * or an address.
 */
#include "fc_asm.h"
#include "fc/asm_offsets.h"

#if defined(__x86_64__)

FC_RODATA
.balign	64
/* Lane counter offsets: lane l dword k of CTR is c + 4k + l. */
.Lctr_offs:
	.long	0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15
/* VPSHUFB controls, j = 0..3: dword j of each lane, byte-reversed, into
 * bytes 12..15 (the only bytes the counter opmask lets through). */
.Lctr_pick:
.irp	j, 0, 1, 2, 3
.rept	4
	.byte	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
	.byte	0x80, 0x80, 0x80, 0x80, 4*\j+3, 4*\j+2, 4*\j+1, 4*\j
.endr
.endr
/* Reverses the bytes of a 128-bit lane. */
.Lbswap_mask:
	.byte	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
/* Reverses the bytes of each dword. */
.Lbswap_dwords:
	.byte	3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
/* x^127 + x^126 + x^121 seen from a 64-bit word: the reduction
 * multiplier, in both qwords. */
.Lgfpoly:
	.quad	0xc200000000000000, 0xc200000000000000
/* R(x^-1) = R(x^127 + x^6 + x + 1), for H * x^-1. */
.Lgfpoly_xinv:
	.quad	1, 0xc200000000000000
/* Key schedule (fc_gcm_set_key_vaes_avx512): RotWord of word 3 in every
 * word (PSHUFB), and Rcon in each word's low byte (01, doubled by VPSLLD
 * up to 80, then 1b, 36). */
.Lrot3_bcast:
	.long	0x0c0f0e0d, 0x0c0f0e0d, 0x0c0f0e0d, 0x0c0f0e0d
.Lrcon_01:
	.long	0x01, 0x01, 0x01, 0x01
.Lrcon_1b:
	.long	0x1b, 0x1b, 0x1b, 0x1b
/* Counter steps (VPADDD with a {1to16} broadcast). */
.Lsixteen:
	.long	16
.Lthirtytwo:
	.long	32

.text

/*
 * Vector register names shared by all functions. zmm0-7 hold AES states
 * (V0..V7); GPR names are set in each function's table.
 */
.set	RK,	%zmm8		// round key, all lanes
.set	LO,	%zmm9		// GHASH sums (schoolbook terms)
.set	MI,	%zmm10
.set	HI,	%zmm11		// the reduction leaves xi here, then XI
.set	HIy,	%ymm11
.set	HIx,	%xmm11
.set	D,	%zmm12		// data block register being hashed
.set	HPW,	%zmm13		// the powers for it
.set	P0,	%zmm14		// products / scratch
.set	P0y,	%ymm14
.set	P0x,	%xmm14
.set	P1,	%zmm15
.set	P2,	%zmm16
.set	P3,	%zmm17
.set	BSWAP,	%zmm18		// .Lbswap_mask, all lanes
.set	BSWAPx,	%xmm18
.set	CTR,	%zmm19		// counters as numbers (see _crypt_setup)
.set	CA,	%zmm20		// CTR ^ RX for blocks 0..15 of a group
.set	CB,	%zmm21		// (CTR + 16) ^ RX for blocks 16..31
.set	RX,	%zmm22		// bswap32(rk[0] bytes 12..15), every dword
.set	FIX,	%zmm23		// [ctr bytes 0..11 | -] ^ rk[0], all lanes
.set	XI,	%zmm24		// xi in R form in lane 0, lanes 1-3 zero
.set	XIx,	%xmm24
.set	GFP,	%zmm25		// .Lgfpoly, all lanes
.set	GFPy,	%ymm25
.set	GFPx,	%xmm25
.set	RKL,	%zmm26		// rk[Nr], all lanes
				// %k1: counter opmask (bytes 12..15 of
				//   each lane); %k2: tail block mask;
				//   %k3-%k5: lanes 1-3 (GHASH tail loads)

/*
 * _exit: zeroes zmm16-26 (vzeroupper leaves them alone), then vzeroupper.
 * Upper halves left dirty in zmm16-31 cost the code that runs next: a
 * 16-byte record through EVP with OpenSSL 3.6 (re-keyed, "ivlen" set as
 * openssl speed does) took 308 TSC cycles with them dirty, 270 without.
 * Zero idioms: no execution port. It also takes the round keys, counter
 * and xi out of the registers vzeroupper does not reach.
 */
.macro	_exit
.irp	r, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26
	vpxord	%xmm\r, %xmm\r, %xmm\r
.endr
	vzeroupper
.endm

/* _sum first, a, b, acc: acc = a ^ b (first = 1), else acc ^= a ^ b in
 * one VPTERNLOGD. */
.macro	_sum first, a, b, acc
.if	\first
	vpxord	\b, \a, \acc
.else
	vpternlogd	$0x96, \b, \a, \acc
.endif
.endm

/*
 * _ghash_reg s, j, pos, dbase, doff, hbase, hoff: step s (0..10) of
 * hashing data register j (blocks 4j..4j+3 at doff+64j(dbase)) against
 * the powers at hoff+64j(hbase). pos is the register's place in the
 * processing order: registers are summed in pairs (pos even, pos + 1),
 * pos 0 and 1 start the sums. Register 0 takes xi (XI) into its first
 * block.
 * In: BSWAP, XI (j = 0). Out: LO, MI, HI.
 * Clobbers: D, HPW, P0-P3 (the even register's LO/HI products live in
 * P0/P1 until its partner's step 6/7).
 */
.macro	_ghash_reg s, j, pos, dbase, doff, hbase, hoff
.if	\s == 0
	vmovdqu64	\doff+64*\j(\dbase), D
.elseif	\s == 1
	vpshufb	BSWAP, D, D
.elseif	\s == 2
	vmovdqu64	\hoff+64*\j(\hbase), HPW
.if	\j == 0
	vpxord	XI, D, D
.endif
.elseif	(\pos & 1) == 0
	// First of a pair: LO and HI terms wait in P0/P1 for the partner.
.if	\s == 3
	vpclmulqdq	$0x00, HPW, D, P0
.elseif	\s == 4
	vpclmulqdq	$0x11, HPW, D, P1
.elseif	\s == 5
	vpclmulqdq	$0x01, HPW, D, P2
.elseif	\s == 6
	vpclmulqdq	$0x10, HPW, D, P3
.elseif	\s == 7
	_sum	(\pos == 0), P2, P3, MI
.endif
.else
	// Second of a pair.
.if	\s == 3
	vpclmulqdq	$0x00, HPW, D, P2
.elseif	\s == 4
	vpclmulqdq	$0x11, HPW, D, P3
.elseif	\s == 5
	_sum	(\pos == 1), P0, P2, LO
.elseif	\s == 6
	_sum	(\pos == 1), P1, P3, HI
.elseif	\s == 7
	vpclmulqdq	$0x01, HPW, D, P0
.elseif	\s == 8
	vpclmulqdq	$0x10, HPW, D, P1
.elseif	\s == 9
	vpternlogd	$0x96, P1, P0, MI
.endif
.endif
.endm

/*
 * _fold s, gfp, src, dst, t: step s (0..2) of one fold of the reduction
 * (Math), per lane: t = src.q0 * 0xc2..00, src with its qwords swapped,
 * dst ^= src ^ t. All operands of one width; gfp holds .Lgfpoly.
 * Clobbers: src, t.
 */
.macro	_fold s, gfp, src, dst, t
.if	\s == 0
	vpclmulqdq	$0x00, \gfp, \src, \t
.elseif	\s == 1
	vpshufd	$0x4e, \src, \src
.else
	vpternlogd	$0x96, \t, \src, \dst
.endif
.endm

/*
 * _reduce_step s (0..9): the two folds of the reduction on all lanes (LO
 * into MI, MI into HI), then the sum of the four lanes into XI (lanes 1-3
 * zero). In: LO, MI, HI, GFP. Out: XI. Clobbers: LO, MI, HI, P0, P1.
 */
.macro	_reduce_step s
.if	\s < 3
	_fold	\s, GFP, LO, MI, P0
.elseif	\s < 6
	_fold	(\s - 3), GFP, MI, HI, P1
.elseif	\s == 6
	vextracti64x4	$1, HI, P0y		// lanes 2,3 onto 0,1
.elseif	\s == 7
	vpxord	P0y, HIy, HIy
.elseif	\s == 8
	vextracti32x4	$1, HIy, P0x		// lane 1 onto 0
.elseif	\s == 9
	vpxord	P0x, HIx, XIx
.endif
.endm

.macro	_reduce
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	_reduce_step	\s
.endr
.endm

/*
 * _ghash_32 dbase, doff, hbase, hoff: xi = (xi ^ m_1) H^32 ^ ... ^ m_32 H
 * for the 32 blocks at doff(dbase), with the table at hoff(hbase); the
 * register carrying xi goes last. One reduction.
 * In/out: XI. Clobbers: LO, MI, HI, D, HPW, P0-P3.
 */
.macro	_ghash_32 dbase, doff, hbase, hoff
.irp	p, 0, 1, 2, 3, 4, 5, 6, 7
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	_ghash_reg	\s, ((\p + 1) & 7), \p, \dbase, \doff, \hbase, \hoff
.endr
.endr
	_reduce
.endm

/*
 * _aes_round r, n, gh, dbase, doff: AES round r (1..13) on %zmm0 ..
 * %zmm(n-1) with rk[r] broadcast from KEY, interleaved instruction by
 * instruction with GHASH work: gh = 0..7 hashes the gh-th register of
 * the processing order (register (gh + 1) mod 8) of the group at
 * doff(dbase); gh = 8 runs the reduction; gh = -1 adds nothing.
 * In: KEY, %zmm0.., and the GHASH state. Clobbers: RK (+ GHASH's).
 */
.macro	_aes_round r, n, gh=-1, dbase=KEY, doff=0
	vbroadcasti32x4	FC_OFF_AES_RK+16*\r(KEY), RK
.irp	s, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
.if	\s < \n
	vaesenc	RK, %zmm\s, %zmm\s
.endif
.if	\gh >= 0 && \gh < 8
	_ghash_reg	\s, ((\gh + 1) & 7), \gh, \dbase, \doff, \
			KEY, FC_OFF_GCM_HTABLE
.elseif	\gh == 8
	_reduce_step	\s
.endif
.endr
.endm

/*
 * _aes_extra_rounds n, lbl: rounds 10 and 11 for AES-192, 10 to 13 for
 * AES-256 (ROUNDS = 12 or 14), none for AES-128; ends at label lbl.
 * In: KEY, ROUNDS, %zmm0... Clobbers: RK, flags.
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
 * _ctr_reg j: the round-0 state of blocks 4j..4j+3 of a group in %zmm j:
 * dword j of each lane of CA (j < 4) or dword j - 4 of CB, byte-reversed,
 * written by a merge-masked shuffle over a copy of FIX.
 * In: CA or CB, FIX, %k1. Out: %zmm j.
 */
.macro	_ctr_reg j
	vmovdqa64	FIX, %zmm\j
.if	\j < 4
	vpshufb	.Lctr_pick+64*\j(%rip), CA, %zmm\j{%k1}
.else
	vpshufb	.Lctr_pick+64*(\j-4)(%rip), CB, %zmm\j{%k1}
.endif
.endm

/* _ctr_ab n: CA = CTR ^ RX and, for n > 4 registers, CB = (CTR + 16) ^
 * RX. In: CTR, RX. Out: CA, CB. */
.macro	_ctr_ab n
	vpxord	RX, CTR, CA
.if	\n > 4
	vpaddd	.Lsixteen(%rip){1to16}, CTR, CB
	vpxord	RX, CB, CB
.endif
.endm

/*
 * _ctr_start n: _ctr_ab, then the round-0 states of the first n registers
 * of the group (_ctr_reg).
 * In: CTR, RX, FIX, %k1. Out: %zmm0 .. %zmm(n-1). Clobbers: CA, CB.
 */
.macro	_ctr_start n
	_ctr_ab	\n
.irp	j, 0, 1, 2, 3, 4, 5, 6, 7
.if	\j < \n
	_ctr_reg	\j
.endif
.endr
.endm

/*
 * _crypt_32 ghash, dbase, doff, lbl: one main-loop iteration: out[0..32)
 * = in[0..32) ^ E(K, ctr + 0..31); with ghash=1 the 32 blocks at
 * doff(dbase) are hashed into XI in the same pass. Loads all of in[0..32)
 * before storing (in == out). Does not advance IN/OUT. lbl: a unique name.
 * In: KEY, IN, OUT, RKL, ROUNDS, CTR, RX, FIX, %k1, BSWAP, GFP, XI.
 * Out: CTR += 32, XI.
 * Clobbers: %zmm0-7, RK, LO, MI, HI, D, HPW, P0-P3, CA, CB, flags.
 */
.macro	_crypt_32 ghash, dbase, doff, lbl
	// The next 32 counters, then CTR += 32 (lane adds: inc32).
	_ctr_start	8
	vpaddd	.Lthirtytwo(%rip){1to16}, CTR, CTR
.irp	r, 1, 2, 3, 4, 5, 6, 7, 8, 9
.if	\ghash
	_aes_round	\r, 8, (\r - 1), \dbase, \doff
.else
	_aes_round	\r, 8
.endif
.endr
	_aes_extra_rounds	8, \lbl
	// Last round: rk[Nr] ^ plaintext off the AES chain, so VAESENCLAST
	// yields the ciphertext.
.irp	j, 0, 1, 2, 3, 4, 5, 6, 7
.if	\j & 1
	vpxord	64*\j(IN), RKL, P3
	vaesenclast	P3, %zmm\j, %zmm\j
.else
	vpxord	64*\j(IN), RKL, P2
	vaesenclast	P2, %zmm\j, %zmm\j
.endif
.endr
.irp	j, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu64	%zmm\j, 64*\j(OUT)
.endr
.endm

/*
 * _tail_ks k, bytreg, lbl: the keystream of the next 4k blocks in %zmm0
 * .. %zmm(k-1) (k = 1..8); counters as in _ctr_start (CTR itself is
 * left alone). bytreg=0: a round at a time over the k registers (one key
 * load per round; all registers finish together, at the AES port's pace).
 * bytreg=1: register by register, so that, oldest first, register 0 is
 * ready first and the hash of the first blocks overlaps the AES of the
 * last: for short encryptions, whose hash waits for the keystream
 * (measured, 16 blocks: AES-128 79 -> 68 c, AES-256 103 -> 85 c; slower
 * where the hash does not wait: decryption 59 -> 64 c). lbl: a unique
 * name.
 * In: KEY, RKL, ROUNDS, CTR, RX, FIX, %k1. Clobbers: RK, CA, CB, flags.
 */
.macro	_tail_ks k, bytreg, lbl
.if	\bytreg
	_ctr_ab	\k
.irp	j, 0, 1, 2, 3, 4, 5, 6, 7
.if	\j < \k
	_ctr_reg	\j
.irp	r, 1, 2, 3, 4, 5, 6, 7, 8, 9
	vbroadcasti32x4	FC_OFF_AES_RK+16*\r(KEY), RK
	vaesenc	RK, %zmm\j, %zmm\j
.endr
	cmp	$12, ROUNDS
	jb	\lbl\()_\j
.irp	r, 10, 11
	vbroadcasti32x4	FC_OFF_AES_RK+16*\r(KEY), RK
	vaesenc	RK, %zmm\j, %zmm\j
.endr
	je	\lbl\()_\j
.irp	r, 12, 13
	vbroadcasti32x4	FC_OFF_AES_RK+16*\r(KEY), RK
	vaesenc	RK, %zmm\j, %zmm\j
.endr
\lbl\()_\j:
	vaesenclast	RKL, %zmm\j, %zmm\j
.endif
.endr
.else
	_ctr_start	\k
.irp	r, 1, 2, 3, 4, 5, 6, 7, 8, 9
	_aes_round	\r, \k
.endr
	_aes_extra_rounds	\k, \lbl
.irp	j, 0, 1, 2, 3, 4, 5, 6, 7
.if	\j < \k
	vaesenclast	RKL, %zmm\j, %zmm\j
.endif
.endr
.endif
.endm

/*
 * _tail_keystream lbl, short: the keystream of the BLOCKS (1..32) tail
 * blocks, register j (blocks 4j..4j+3) in %zmm j (_tail_ks_pick). short=1
 * (encryption): register by register when no group is pending (PEND =
 * 0), where the hash waits for the keystream and latency is the cost.
 * In: as _tail_ks, BLOCKS, PEND (short=1). Clobbers: as _tail_ks.
 */
.macro	_tail_keystream lbl, short=0
.if	\short
	test	PEND, PEND
	jnz	\lbl\()_r
	_tail_ks_pick	1, \lbl\()_s
	jmp	\lbl\()_done
\lbl\()_r:
.endif
	_tail_ks_pick	0, \lbl\()_r
\lbl\()_done:
.endm

/*
 * _tail_ks_pick bytreg, lbl: _tail_ks of ceil(BLOCKS/4) registers (BLOCKS
 * = 1..32), found by comparing BLOCKS with 4, 8, .., 28; ends at label
 * lbl_end. In: as _tail_ks, BLOCKS. Clobbers: as _tail_ks.
 */
.macro	_tail_ks_pick bytreg, lbl
.irp	k, 1, 2, 3, 4, 5, 6, 7
	cmp	$4*\k, BLOCKS
	jbe	\lbl\()_k\k
.endr
.irp	k, 8, 7, 6, 5, 4, 3, 2, 1
\lbl\()_k\k:
	_tail_ks	\k, \bytreg, \lbl\()_x\k
.if	\k != 1
	jmp	\lbl\()_end
.endif
.endr
\lbl\()_end:
.endm

/* _ld last, mem, reg: a 64-byte load; with last=1 only the qwords in
 * %k2 (the others zeroed), so nothing past the blocks is read. The
 * powers of H. */
.macro	_ld last, mem, reg
.if	\last
	vmovdqu64	\mem, \reg{%k2}{z}
.else
	vmovdqu64	\mem, \reg
.endif
.endm

/* _ldb last, mem, reg / _stb last, reg, mem: a 64-byte load or store of
 * data; with last=1 only the bytes in %k6 (a load zeroes the others), so
 * nothing past the data is touched, a partial last block included. */
.macro	_ldb last, mem, reg
.if	\last
	vmovdqu8	\mem, \reg{%k6}{z}
.else
	vmovdqu64	\mem, \reg
.endif
.endm

.macro	_stb last, reg, mem
.if	\last
	vmovdqu8	\reg, \mem{%k6}
.else
	vmovdqu64	\reg, \mem
.endif
.endm

/*
 * _tail_reg mode, j, last: tail register j (blocks 4j..4j+3 at IN): mode
 * 1 XORs the keystream in %zmm j into it, stores the ciphertext at OUT and
 * hashes it; mode 2 hashes it and stores the plaintext; mode 0 only
 * hashes. last=1: the final register, only its blocks in %k2 (1..4 of
 * them) hashed (the powers past the table's end are not read either),
 * and in modes 1 and 2 only its bytes in %k6 loaded and stored, a
 * partial last block hashed zero-padded. Products against 64j(HP),
 * summed into LO, MI, HI.
 * In: IN, OUT, HP, %zmm j, BSWAP, XI (j = 0), %k2 and %k6 (last),
 * %k3-%k5 and BLOCKS (mode 0).
 * Out: LO, MI, HI. Clobbers: %zmm j, D, HPW, P0-P3.
 */
.macro	_tail_reg mode, j, last
.if	\mode == 1
.if	\last
	_ldb	1, 64*\j(IN), D
	vpxorq	D, %zmm\j, %zmm\j
	vmovdqu8	%zmm\j, %zmm\j{%k6}{z}	// ciphertext, 0 past the end
.else
	vpxorq	64*\j(IN), %zmm\j, %zmm\j
.endif
	_stb	\last, %zmm\j, 64*\j(OUT)
	vpshufb	BSWAP, %zmm\j, D
.elseif	\mode == 0
	// The buffered blocks C has just written, 16 bytes a store: four
	// loads of 16 bytes are forwarded from those stores, one of 64
	// bytes would wait for them to reach the cache (~20 c measured).
	// Lanes 1-3 merge in under %k3-%k5; only the blocks there are read.
	vmovdqu64	64*\j(IN), %xmm12	// D = [block 4j, 0, 0, 0]
.irp	m, 3, 4, 5			// lane m - 2 under %k m
.if	\last
	cmp	$4*\j+\m-1, BLOCKS
	jb	1f
.endif
	vbroadcasti32x4	64*\j+16*(\m-2)(IN), D{%k\m}
.endr
1:
	vpshufb	BSWAP, D, D
.else
	_ldb	\last, 64*\j(IN), D		// 0 past the end
	vpxorq	D, %zmm\j, %zmm\j
	_stb	\last, %zmm\j, 64*\j(OUT)
	vpshufb	BSWAP, D, D
.endif
.if	\j == 0
	vpxord	XI, D, D
.endif
	_ld	\last, 64*\j(HP), HPW
	vpclmulqdq	$0x00, HPW, D, P0
	vpclmulqdq	$0x11, HPW, D, P1
	vpclmulqdq	$0x01, HPW, D, P2
	vpclmulqdq	$0x10, HPW, D, P3
	vpxord	P0, LO, LO
	vpxord	P1, HI, HI
	vpternlogd	$0x96, P3, P2, MI
.endm

/*
 * _tail mode, lbl, hbase, hoff: BLOCKS (1..32) blocks at IN, in zmm
 * registers of four, the last one (1..4 blocks) under a mask: mode 1
 * encrypts to OUT and hashes the ciphertext, mode 2 hashes and decrypts,
 * mode 0 only hashes (modes 1 and 2 take the keystream from
 * _tail_keystream in %zmm0.., and the last register's bytes from %k6:
 * the last block may be partial). The hash uses H^BLOCKS..H^1 from the
 * table at hoff(hbase), xi folded into the first block; one reduction.
 * Straight-line code per register: register j is the last one when
 * BLOCKS <= 4j + 4.
 * In: IN, OUT, BLOCKS, XI, BSWAP, GFP, keystream and %k6 (modes 1, 2),
 * %k3-%k5 (mode 0). Out: XI.
 * Clobbers: HP, MSK, %eax, %zmm0-7, LO, MI, HI, D, HPW, P0-P3, %k2,
 * flags.
 */
.macro	_tail mode, lbl, hbase, hoff
	// HP = table + 16*(32 - BLOCKS): register j finds its powers at
	// 64j(HP), ending with H^1 at the table's last entry.
	mov	BLOCKS, HP
	shl	$4, HP
	neg	HP
	lea	\hoff+512(\hbase, HP), HP
	// %k2: the last register's ((BLOCKS - 1) mod 4) + 1 blocks, two
	// qwords each.
	lea	-1(BLOCKS), %eax
	and	$3, %eax
	lea	2(%rax, %rax), %eax
	mov	$0xff, MSK
	bzhi	%eax, MSK, MSK
	kmovb	MSK, %k2
	vpxor	%xmm9, %xmm9, %xmm9		// LO, MI, HI = 0
	vpxor	%xmm10, %xmm10, %xmm10
	vpxor	%xmm11, %xmm11, %xmm11
.irp	j, 0, 1, 2, 3, 4, 5, 6
	cmp	$4*\j+4, BLOCKS
	jbe	\lbl\()_last\j
	_tail_reg	\mode, \j, 0
.endr
.irp	j, 7, 6, 5, 4, 3, 2, 1, 0
\lbl\()_last\j:
	_tail_reg	\mode, \j, 1
.if	\j != 0
	jmp	\lbl\()_reduce
.endif
.endr
\lbl\()_reduce:
	_reduce
.endm

/*
 * void fc_gcm_init_vaes_avx512(uint8_t *htable, const uint8_t h[16]);
 * void fc_gcm_init_part_vaes_avx512(uint8_t *htable, const uint8_t h[16]);
 * void fc_gcm_grow_vaes_avx512(uint8_t *htable, size_t have, size_t want);
 * void fc_gcm_set_key_vaes_avx512(fc_gcm_key *key, const uint8_t *user_key,
 *                                 size_t key_bytes);
 *
 * The table: R(H^i * x^-1) for i = 32 down to 1, 16 bytes each, highest
 * power first, H^i at byte 16*(32-i): the zmm at byte 16*(32-n) + 64j
 * holds H^(n-4j) .. H^(n-4j-3) for any n, and a call of n <= 32 blocks
 * reads only H^n..H^1, the last 16n bytes.
 *
 * fc_gcm_init_vaes_avx512 fills all 512 bytes from the hash key h =
 * E(K, 0^128): five multiply levels ([H^2], [H^4, H^3], then four lanes
 * at a time by broadcast H^4, H^8, H^16), nine vector multiplies in all,
 * bound by their 72 uops on the multiply port (~90 c). Reads h[0..16),
 * writes htable[0..512).
 *
 * fc_gcm_init_part_vaes_avx512 runs the first three levels only: H^8..H^1
 * in htable[384..512), enough for calls of up to 8 blocks, nothing else
 * written (fc_gcm_set_key: most short messages of a new key need no more;
 * a final GHASH pass of more than 8 blocks grows the table once).
 * fc_gcm_grow_vaes_avx512 then adds the rest from H^8..H^1: |have| (8 or
 * 16) powers are there, |want| (16 or 32, above |have|) are made: level
 * 4 writes H^16..H^9 (htable[256..384)), level 5 H^32..H^17
 * (htable[0..256)); it reads the powers it builds on and writes nothing
 * else.
 *
 * fc_gcm_set_key_vaes_avx512 is all of fc_gcm_set_key for this table:
 * the AES-NI schedule (fc/aes.h's layout, rounds included), h = E(K,
 * 0^128), never stored, and init_part's table part from it; nothing else
 * of |key| written. AES-128 and AES-256 expand in VEX code, the
 * AESENCLAST way of aes_aesni.S, with h's rounds applied as each round
 * key comes out, so h is ready one round after the schedule instead of a
 * whole encryption (and an ECB call) after it; AES-192 (rare) calls
 * fc_aes_set_enc_key_aesni (it keeps %rdi and uses no stack), then
 * encrypts with the stored round keys.
 * Re-keyed 16/64/256-byte messages through the core API (key, IV,
 * data, tag; median TSC ticks per message, interleaved A/B runs), with
 * the key schedule, an ECB call for h and init_part: AES-128
 * 125/165/170, AES-256 151/178/193; with this: 117/160/164 and
 * 139/169/183. A message's chain runs key schedule -> h -> three levels
 * of powers -> the final GHASH: skipping the schedule saved 55 ticks of
 * 134 (AES-128, 16 B), skipping h and the levels 55, both 75.
 * CT: nothing about the key or h leaks; branches depend on |have|,
 * |want| and the key size only.
 */

/* Register table (init, init_part, grow). */
.set	HTAB,	%rdi		// out: the table (init_key: the key, then
				//   its table)
.set	HPTR,	%rsi		// in: h (init, init_part)
.set	HAVE,	%rsi		// grow: powers present, 8 or 16
.set	WANT,	%rdx		// grow: powers wanted, 16 or 32
.set	Z1,	%zmm0		// [H^4, H^3, H^2, H^1] (lane 0 first)
.set	Z2,	%zmm1		// [H^8 .. H^5]; first %xmm1: the x^-1 mask
.set	Z3,	%zmm2		// [H^12 .. H^9]; first %xmm2: the shift carry
.set	Z4,	%zmm3		// [H^16 .. H^13]
.set	ZR,	%zmm4		// level 5 results, stored as made
.set	B,	%zmm5		// a power in every lane
.set	By,	%ymm5
.set	H1x,	%xmm6		// R(H x^-1)
.set	H1y,	%ymm6
.set	H2x,	%xmm7		// H^2
.set	H2y,	%ymm7
.set	G0,	%zmm14		// _gmul scratch, written %<w>mm14-16 there
.set	G1,	%zmm15		//   (with GFP as %<w>mm25) to take the
.set	G2,	%zmm16		//   multiply's width

/*
 * _gmul w, a, b, r: r = a * b * x mod g in R form, per 128-bit lane, at
 * width w (z, y or x: the %<w>mm registers of G0-G2 and GFP follow).
 * r may not alias a or b. In: GFP. Clobbers: G0-G2.
 */
.macro	_gmul w, a, b, r
	vpclmulqdq	$0x00, \b, \a, %\w\()mm14	// LO
	vpclmulqdq	$0x01, \b, \a, %\w\()mm15	// MI
	vpclmulqdq	$0x10, \b, \a, %\w\()mm16
	vpclmulqdq	$0x11, \b, \a, \r		// HI
	vpxord	%\w\()mm16, %\w\()mm15, %\w\()mm15
.irp	s, 0, 1, 2
	_fold	\s, %\w\()mm25, %\w\()mm14, %\w\()mm15, %\w\()mm16
.endr
.irp	s, 0, 1, 2
	_fold	\s, %\w\()mm25, %\w\()mm15, \r, %\w\()mm16
.endr
.endm

/*
 * _init_part: levels 1-3 from h at HPTR: H^8..H^1 stored at 384(HTAB).
 * In: HTAB, HPTR. Out: GFP, Z1, Z2. Clobbers: %zmm0-7, G0-G2.
 * _init_part_h: the same from h in H1x.
 */
.macro	_init_part
	vmovdqu	(HPTR), H1x
	_init_part_h
.endm

.macro	_init_part_h
	vbroadcasti32x4	.Lgfpoly(%rip), GFP
	vpshufb	.Lbswap_mask(%rip), H1x, H1x	// R(H)
	// H * x^-1: shift left by one across the qwords; if bit 127 (the
	// x^0 coefficient) was set, add R(x^-1). Mask, no branch.
	vpshufd	$0xff, H1x, %xmm1
	vpsrad	$31, %xmm1, %xmm1
	vpand	.Lgfpoly_xinv(%rip), %xmm1, %xmm1
	vpsrlq	$63, H1x, %xmm2
	vpslldq	$8, %xmm2, %xmm2		// bit 63 -> bit 64
	vpsllq	$1, H1x, H1x
	vpor	%xmm2, H1x, H1x
	vpxor	%xmm1, H1x, H1x			// x^-1 implied from here on
	_gmul	x, H1x, H1x, H2x		// level 1: H^2
	vinserti128	$1, H1x, H2y, H1y	// [H^2, H^1]
	vinserti128	$1, H2x, H2y, H2y	// [H^2, H^2]
	_gmul	y, H1y, H2y, By			// level 2: [H^4, H^3]
	vinserti64x4	$1, H1y, B, Z1		// [H^4, H^3, H^2, H^1]
	vshufi64x2	$0x00, Z1, Z1, B	// H^4 everywhere
	vmovdqu64	Z1, 448(HTAB)
	_gmul	z, Z1, B, Z2			// level 3: [H^8 .. H^5]
	vmovdqu64	Z2, 384(HTAB)
.endm

/* _level4: H^16..H^9 from Z1, Z2, stored at 256(HTAB).
 * In: GFP, Z1, Z2. Out: Z3, Z4. Clobbers: B, G0-G2. */
.macro	_level4
	vshufi64x2	$0x00, Z2, Z2, B	// H^8 everywhere
	_gmul	z, Z1, B, Z3
	_gmul	z, Z2, B, Z4
	vmovdqu64	Z3, 320(HTAB)
	vmovdqu64	Z4, 256(HTAB)
.endm

/* _level5: H^32..H^17 from Z1-Z4, stored at 0(HTAB).
 * In: GFP, Z1-Z4. Clobbers: ZR, B, G0-G2. */
.macro	_level5
	vshufi64x2	$0x00, Z4, Z4, B	// H^16 everywhere
	_gmul	z, Z1, B, ZR
	vmovdqu64	ZR, 192(HTAB)
	_gmul	z, Z2, B, ZR
	vmovdqu64	ZR, 128(HTAB)
	_gmul	z, Z3, B, ZR
	vmovdqu64	ZR, 64(HTAB)
	_gmul	z, Z4, B, ZR
	vmovdqu64	ZR, 0(HTAB)
.endm

FC_FUNC_START(fc_gcm_init_vaes_avx512)
	_init_part
	_level4
	_level5
	_exit
	ret
FC_FUNC_END(fc_gcm_init_vaes_avx512)

FC_FUNC_START(fc_gcm_init_part_vaes_avx512)
	_init_part
	_exit
	ret
FC_FUNC_END(fc_gcm_init_part_vaes_avx512)

/* Register table (set_key). */
.set	UKEY,	%rsi		// in: the user key
.set	KBYTES,	%rdx		// 16, 24 or 32
.set	KA,	%xmm0		// schedule words w[i..i+3]
.set	KB,	%xmm1		// AES-256: the next four
.set	KT,	%xmm2		// SubWord result, broadcast
.set	KU,	%xmm3		// prefix-XOR temp
.set	RCON,	%xmm4		// Rcon in each word's low byte
.set	KMASK,	%xmm5		// RotWord + broadcast PSHUFB mask
.set	KZERO,	%xmm7		// AES-256: zero round key (SubWord only)
				// H1x (%xmm6): h's AES state

/*
 * _kstep v, t: v = prefix XOR of its words (w0, w0^w1, ..) ^ t, the next
 * four words of the schedule, t being four copies of SubWord(RotWord(w))
 * ^ Rcon: PSHUFB broadcasts the rotated word, and with four equal columns
 * ShiftRows is the identity, so AESENCLAST with the Rcon register as
 * round key is SubBytes then that XOR (with a zero key SubWord alone:
 * AES-256's odd steps, PSHUFD broadcasting). Clobbers: KU.
 */
.macro	_kstep v, t
	vpslldq	$4, \v, KU
	vpxor	KU, \v, \v
	vpslldq	$8, \v, KU
	vpxor	KU, \v, \v
	vpxor	\t, \v, \v
.endm

FC_FUNC_START(fc_gcm_set_key_vaes_avx512)
	cmp	$24, KBYTES
	jne	1f
	call	fc_aes_set_enc_key_aesni	// keeps %rdi, no stack
	vmovdqu	FC_OFF_AES_RK(HTAB), H1x	// E(K, 0): 0 ^ rk[0]
.irp	r, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
	vaesenc	FC_OFF_AES_RK+16*\r(HTAB), H1x, H1x
.endr
	vaesenclast	FC_OFF_AES_RK+16*12(HTAB), H1x, H1x
	jmp	.Lsk_h
1:
	vmovdqu	(UKEY), KA
	vmovdqa	.Lrcon_01(%rip), RCON
	vmovdqa	.Lrot3_bcast(%rip), KMASK
	vmovdqu	KA, FC_OFF_AES_RK(HTAB)
	vmovdqa	KA, H1x				// E(K, 0): 0 ^ rk[0]
	cmp	$16, KBYTES
	jne	.Lsk_256
	movl	$10, FC_OFF_AES_ROUNDS(HTAB)
.irp	i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
	vpshufb	KMASK, KA, KT
	vaesenclast	RCON, KT, KT
	_kstep	KA, KT
	vmovdqu	KA, FC_OFF_AES_RK+16*\i(HTAB)
.if	\i < 10
	vaesenc	KA, H1x, H1x
.else
	vaesenclast	KA, H1x, H1x
.endif
.if	\i == 8
	vmovdqa	.Lrcon_1b(%rip), RCON		// Rcon 80 doubles to 1b
.else
	vpslld	$1, RCON, RCON
.endif
.endr
	jmp	.Lsk_h
.Lsk_256:
	vmovdqu	16(UKEY), KB
	vpxor	KZERO, KZERO, KZERO
	vmovdqu	KB, FC_OFF_AES_RK+16(HTAB)
	movl	$14, FC_OFF_AES_ROUNDS(HTAB)
	vaesenc	KB, H1x, H1x
.irp	i, 1, 2, 3, 4, 5, 6, 7
	// w[8i..8i+3]: SubWord(RotWord(w[8i-1])) ^ Rcon into the prefix XOR
	vpshufb	KMASK, KB, KT
	vaesenclast	RCON, KT, KT
	_kstep	KA, KT
	vmovdqu	KA, FC_OFF_AES_RK+32*\i(HTAB)
.if	\i < 7
	vaesenc	KA, H1x, H1x
	// w[8i+4..8i+7]: SubWord(w[8i+3]), no rotation, no Rcon
	vpshufd	$0xff, KA, KT
	vaesenclast	KZERO, KT, KT
	_kstep	KB, KT
	vmovdqu	KB, FC_OFF_AES_RK+32*\i+16(HTAB)
	vaesenc	KB, H1x, H1x
	vpslld	$1, RCON, RCON
.else
	vaesenclast	KA, H1x, H1x
.endif
.endr
.Lsk_h:
	// The schedule's registers hold round keys, and %xmm14-15 the
	// products of the H powers: cleared below with the rest of
	// %xmm0-7 (_exit clears %xmm16-26).
	add	$FC_OFF_GCM_HTABLE, HTAB
	_init_part_h
.irp	r, 0, 1, 2, 3, 4, 5, 6, 7, 14, 15
	vpxor	%xmm\r, %xmm\r, %xmm\r
.endr
	_exit
	ret
FC_FUNC_END(fc_gcm_set_key_vaes_avx512)

FC_FUNC_START(fc_gcm_grow_vaes_avx512)
	vbroadcasti32x4	.Lgfpoly(%rip), GFP
	vmovdqu64	448(HTAB), Z1
	vmovdqu64	384(HTAB), Z2
	cmp	$16, HAVE
	jae	1f
	_level4
	cmp	$16, WANT
	jbe	2f
	jmp	3f
1:
	vmovdqu64	320(HTAB), Z3
	vmovdqu64	256(HTAB), Z4
3:
	_level5
2:
	_exit
	ret
FC_FUNC_END(fc_gcm_grow_vaes_avx512)

/*
 * void fc_ghash_vaes_avx512(const uint8_t *htable, uint8_t xi[16],
 *                           const uint8_t *in, size_t blocks);
 *
 * For each of the |blocks| 16-byte blocks b of |in|: xi = (xi ^ b) * H,
 * with |htable| from fc_gcm_init_vaes_avx512. 32 blocks per reduction,
 * then the 1..31 left over, four per register, with one more. Reads
 * in[0 .. 16*blocks) and nothing past it, reads and writes xi; blocks ==
 * 0 touches nothing. No alignment needed.
 * CT: timing depends only on |blocks|.
 */

/* Register table (GHASH). */
.set	HTAB,	%rdi		// the table
.set	XIP,	%rsi		// xi in/out
.set	IN,	%rdx		// data, advanced
.set	BLOCKS,	%rcx		// blocks left
.set	HP,	%r8		// tail: the powers for its length
.set	MSK,	%r9d		// tail: block mask (and %eax: its length)
.set	OUT,	%rdx		// unused by mode 0 (named for _tail)

FC_FUNC_START(fc_ghash_vaes_avx512)
	test	BLOCKS, BLOCKS
	jz	.Lghash_ret
	vbroadcasti32x4	.Lbswap_mask(%rip), BSWAP
	vbroadcasti32x4	.Lgfpoly(%rip), GFP
	vmovdqu64	(XIP), XIx
	vpshufb	BSWAPx, XIx, XIx
	cmp	$32, BLOCKS
	jb	.Lghash_tail
.Lghash_loop:
	_ghash_32	IN, 0, HTAB, 0
	add	$512, IN
	sub	$32, BLOCKS
	cmp	$32, BLOCKS
	jae	.Lghash_loop
	test	BLOCKS, BLOCKS
	jz	.Lghash_done
.Lghash_tail:
	mov	$0x00f0, %eax			// lane 1 of 4 (dwords)
	kmovw	%eax, %k3
	mov	$0x0f00, %eax			// lane 2
	kmovw	%eax, %k4
	mov	$0xf000, %eax			// lane 3
	kmovw	%eax, %k5
	_tail	0, .Lghash_t, HTAB, 0
.Lghash_done:
	vpshufb	BSWAPx, XIx, XIx
	vmovdqu64	XIx, (XIP)
	_exit
	ret
.Lghash_ret:
	vzeroupper			// blocks == 0: nothing was touched
	ret
FC_FUNC_END(fc_ghash_vaes_avx512)

/*
 * void fc_gcm_enc_vaes_avx512(const fc_gcm_key *key, const uint8_t *in,
 *                             uint8_t *out, size_t blocks,
 *                             const uint8_t ctr[16], uint8_t xi[16]);
 * void fc_gcm_enc_bytes_vaes_avx512(const fc_gcm_key *key,
 *                                   const uint8_t *in, uint8_t *out,
 *                                   size_t len, const uint8_t ctr[16],
 *                                   uint8_t xi[16]);
 *
 * CTR-encrypts |blocks| 16-byte blocks: out[i] = in[i] ^ E(K,
 * inc32^i(ctr)) (bytes 12..15, big-endian, + i mod 2^32; bytes 0..11
 * fixed), and absorbs every ciphertext block into xi. |key| holds the
 * AES-NI encryption schedule at offset 0 and this file's table at 256.
 * Reads in[0 .. 16*blocks), ctr, xi; writes out[0 .. 16*blocks) and xi,
 * nothing else (the tail's loads and stores are masked); ctr is not
 * written back. in == out allowed, no other overlap; no alignment needed
 * (64-byte aligned data and table are fastest); blocks == 0 touches
 * nothing.
 * The _bytes entry takes a length in bytes: ceil(len/16) blocks, the
 * last one partial when len is not a multiple of 16: only its len % 16
 * bytes are read and written, it is hashed zero-padded (the ciphertext
 * bytes, zeros after them), and its keystream is not kept. It runs the
 * same code: the block entry starts it with len = 16 * blocks, and only
 * the tail's byte mask (%k6) tells the two apart.
 * CT: timing depends only on |blocks| (|len|) and the number of rounds;
 * the counter, like key, xi and data, reaches no branch or address.
 */

/* Register table (encrypt and decrypt). */
.set	KEY,	%rdi		// fc_gcm_key: round keys at 0, table at 256
.set	IN,	%rsi		// input, advanced
.set	OUT,	%rdx		// output, advanced with IN
.set	LEN,	%rcx		// bytes left (loops)
.set	BLOCKS,	%rcx		// tail: blocks left, the last maybe partial
.set	CTRP,	%r8		// the counter block (read at setup only)
.set	MSK,	%r8d		// tail: block mask (CTRP is dead by then)
.set	MSKq,	%r8		// tail: byte mask of the last register
.set	XIP,	%r9		// xi in/out
.set	RKLAST,	%rax		// setup: &rk[Nr]; tail: mask index (%eax)
.set	HP,	%r10		// tail: the powers for its length
.set	PEND,	%r10		// encrypt: a 32-block group waits at OUT-512
				//   for its hash (until the tail sets HP)
.set	ROUNDS,	%r11d		// Nr: 10, 12 or 14

/* _crypt_setup: constants, xi, the key size, rk[Nr] in RKL, and the
 * counter state: CTR (lane l dword k = c + 4k + l, c = the last word of
 * ctr as a number), RX, FIX and the counter opmask %k1.
 * Clobbers: RKLAST, P0, P1. */
.macro	_crypt_setup
	vbroadcasti32x4	.Lbswap_mask(%rip), BSWAP
	vbroadcasti32x4	.Lgfpoly(%rip), GFP
	vbroadcasti32x4	.Lbswap_dwords(%rip), P0
	vpbroadcastd	12(CTRP), CTR		// ctr[12..15] in every dword
	vpshufb	P0, CTR, CTR			// c, as a number
	vpaddd	.Lctr_offs(%rip), CTR, CTR
	vpbroadcastd	FC_OFF_AES_RK+12(KEY), RX
	vpshufb	P0, RX, RX
	vbroadcasti32x4	(CTRP), FIX
	vbroadcasti32x4	FC_OFF_AES_RK(KEY), P1
	vpxord	P1, FIX, FIX
	mov	$0xf000f000f000f000, %rax
	kmovq	%rax, %k1
	vmovdqu64	(XIP), XIx
	vpshufb	BSWAPx, XIx, XIx
	mov	FC_OFF_AES_ROUNDS(KEY), ROUNDS
	mov	ROUNDS, %eax
	shl	$4, %eax
	lea	FC_OFF_AES_RK(KEY, %rax), RKLAST
	vbroadcasti32x4	(RKLAST), RKL
.endm

/*
 * _tail_len: from LEN (1..512 bytes left) the byte mask of the last
 * register, ((LEN - 1) mod 64) + 1 bytes, in %k6, and BLOCKS =
 * ceil(LEN / 16). Clobbers: %eax, MSKq.
 */
.macro	_tail_len
	lea	-1(LEN), %eax
	and	$63, %eax
	inc	%eax
	mov	$-1, MSKq
	bzhi	%rax, MSKq, MSKq
	kmovq	MSKq, %k6
	add	$15, LEN
	shr	$4, LEN
.endm

FC_FUNC_START(fc_gcm_enc_vaes_avx512)
	shl	$4, LEN			// blocks -> bytes
	jmp	.Lenc_bytes
FC_FUNC_END(fc_gcm_enc_vaes_avx512)

FC_FUNC_START(fc_gcm_enc_bytes_vaes_avx512)
.Lenc_bytes:
	test	LEN, LEN
	jz	.Lenc_ret
	_crypt_setup
	xor	PEND, PEND
	// Up to 32 blocks go to the tail code: with no group pending its
	// hash overlaps its AES, where one unstitched group would be
	// followed by its whole hash.
	cmp	$512, LEN
	jbe	.Lenc_tail
	// The first group has no ciphertext to hash yet.
	_crypt_32	0, IN, 0, .Lenc_x0
	add	$512, IN
	add	$512, OUT
	sub	$512, LEN
	// Stitched groups while more than 32 blocks remain: the last 1..32
	// (a partial one among them) go to the tail, whose AES overlaps
	// the hash of the group before.
	cmp	$512, LEN
	jbe	.Lenc_last
	.balign	32
.Lenc_loop:
	_crypt_32	1, OUT, -512, .Lenc_x1
	add	$512, IN
	add	$512, OUT
	sub	$512, LEN
	cmp	$512, LEN
	ja	.Lenc_loop
.Lenc_last:
	mov	$1, PEND		// the previous group is still to be hashed
.Lenc_tail:
	_tail_len
	_tail_keystream	.Lenc_k, 1
	test	PEND, PEND
	jz	1f
	// Independent of the keystream above: the two overlap.
	_ghash_32	OUT, -512, KEY, FC_OFF_GCM_HTABLE
1:
	_tail	1, .Lenc_t, KEY, FC_OFF_GCM_HTABLE
.Lenc_done:
	vpshufb	BSWAPx, XIx, XIx
	vmovdqu64	XIx, (XIP)
	_exit
	ret
.Lenc_ret:
	vzeroupper			// blocks == 0: nothing was touched
	ret
FC_FUNC_END(fc_gcm_enc_bytes_vaes_avx512)

/*
 * void fc_gcm_dec_vaes_avx512(const fc_gcm_key *key, const uint8_t *in,
 *                             uint8_t *out, size_t blocks,
 *                             const uint8_t ctr[16], uint8_t xi[16]);
 * void fc_gcm_dec_bytes_vaes_avx512(const fc_gcm_key *key,
 *                                   const uint8_t *in, uint8_t *out,
 *                                   size_t len, const uint8_t ctr[16],
 *                                   uint8_t xi[16]);
 *
 * The inverse of fc_gcm_enc_vaes_avx512: absorbs every ciphertext block
 * of |in| into xi and writes out[i] = in[i] ^ E(K, inc32^i(ctr)). Same
 * contract: in == out allowed, no other overlap, nothing read or written
 * past the data, ctr not written back, blocks == 0 touches nothing; the
 * _bytes entry as for encryption (a partial last block hashed
 * zero-padded, its keystream not kept). The tag check is the caller's.
 * CT: timing depends only on |blocks| (|len|) and the number of rounds;
 * the counter reaches no branch or address.
 */
FC_FUNC_START(fc_gcm_dec_vaes_avx512)
	shl	$4, LEN			// blocks -> bytes
	jmp	.Ldec_bytes
FC_FUNC_END(fc_gcm_dec_vaes_avx512)

FC_FUNC_START(fc_gcm_dec_bytes_vaes_avx512)
.Ldec_bytes:
	test	LEN, LEN
	jz	.Ldec_ret
	_crypt_setup
	// Whole groups while 32 whole blocks remain (a partial last block
	// always goes to the tail).
	cmp	$512, LEN
	jb	.Ldec_tail
	.balign	32
.Ldec_loop:
	_crypt_32	1, IN, 0, .Ldec_x1
	add	$512, IN
	add	$512, OUT
	sub	$512, LEN
	cmp	$512, LEN
	jae	.Ldec_loop
	test	LEN, LEN
	jz	.Ldec_done
.Ldec_tail:
	_tail_len
	_tail_keystream	.Ldec_k
	_tail	2, .Ldec_t, KEY, FC_OFF_GCM_HTABLE
.Ldec_done:
	vpshufb	BSWAPx, XIx, XIx
	vmovdqu64	XIx, (XIP)
	_exit
	ret
.Ldec_ret:
	vzeroupper			// blocks == 0: nothing was touched
	ret
FC_FUNC_END(fc_gcm_dec_bytes_vaes_avx512)

#endif /* __x86_64__ */
