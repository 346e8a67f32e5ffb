/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_ce.S - AES key schedules (encryption and Equivalent Inverse
 * Cipher), ECB encryption, CTR (inc32) and CBC encryption/decryption with
 * the ARMv8 Cryptography Extensions (AESE/AESD/AESMC/AESIMC).
 *
 * CPU features: FEAT_AES (HWCAP_AES; FC_CAP_ARM_AES) and Advanced SIMD.
 * Little-endian only (LDR Q and LD1 {.16b} then agree: memory byte i is
 * vector byte i). No alignment is required of any buffer or of the key.
 *
 * ABI: AAPCS64. Arguments in x0..x4. Only x0..x7, x9..x11, x15 (all
 * caller-saved) and v0..v7, v16..v31 are written; fc_aes_cbc_dec_ce also
 * uses v8 and saves/restores d8 on the stack, fc_aes_ctr32_ce uses v8..v15
 * and saves/restores d8..d15. x18 and x19..x29 are never
 * touched; the functions are leaves (set_dec_key makes one local BL,
 * keeping LR in x15 and restoring x30, never spilling it), so no PAC is
 * needed. Each entry
 * point starts with a BTI C landing pad (FC_FUNC_START). Vector registers
 * that held round keys or data are zeroed before returning.
 *
 * Layout: fc_aes_key.rk[r] is round key r in FIPS-197 byte order (byte i is
 * XORed into state byte i), which is what AESE/AESD expect; rounds (10, 12,
 * 14) is at FC_OFF_AES_ROUNDS. The GCM kernels use this encryption schedule
 * and fc_aes_ecb_enc_ce as they are. A decryption key holds the Equivalent
 * Inverse Cipher schedule (FIPS-197 5.3.5): dk[0] = rk[Nr], dk[i] =
 * InvMixColumns(rk[Nr-i]), dk[Nr] = rk[0].
 *
 * Math. AESE v, k computes SubBytes(ShiftRows(v ^ k)) and AESMC v computes
 * MixColumns(v): AddRoundKey comes first, so with round keys k0..kNr,
 *     E(x) = AESE(AESMC(AESE(...AESMC(AESE(x, k0))..., k[Nr-2])), k[Nr-1])
 *            ^ k[Nr],
 * i.e. Nr-1 AESE+AESMC pairs, one lone AESE and a final EOR. Decryption is
 * the same shape with AESD/AESIMC and dk[]. Because of the leading XOR,
 * AESE(y, a ^ b) = AESE(y ^ a, b): any XOR into a block that is followed by
 * an AESE can be merged into that AESE's round key. CBC encryption uses
 * that to take its EORs off the serial chain (below).
 *
 * Key expansion (FIPS-197 5.2) needs SubWord(RotWord(w)) ^ Rcon once per
 * Nk words. DUP broadcasts w into the four columns; with four equal
 * columns ShiftRows is the identity, so AESE with an all-zero round key is
 * exactly SubBytes = SubWord in every lane. SubWord works bytewise, so it
 * commutes with RotWord, which on four equal words is a one-byte rotation
 * of the whole vector: EXT t, t, t, #1. The running XOR of the previous Nk
 * words is a two-step prefix XOR (EXT from zero by 4 then 8 bytes, EOR),
 * computed alongside; Rcon comes from a MOVI immediate off the chain.
 * AES-256's odd step (SubWord, no rotation, no Rcon) is DUP + AESE.
 * Fully unrolled; the only branch is on the key size.
 *
 * Instruction costs used for the estimates (published figures, not
 * measured here: this code was developed under qemu, which has no timing):
 *  - Neoverse N1 (Arm's Neoverse N1 Software Optimization Guide):
 *    AESE/AESD/AESMC/AESIMC latency 2, one per cycle, pipeline V0 only;
 *    an adjacent AESE+AESMC (AESD+AESIMC) pair fuses and costs one issue
 *    slot with latency 2, so 2 independent blocks keep V0 busy.
 *  - Neoverse V1 (Arm's Neoverse V1 Software Optimization Guide): same
 *    latency 2 and fusion, on all four V pipelines: four fused pairs per
 *    cycle, so at least 8 independent blocks are needed to fill them.
 *  - Apple M1 Firestorm (Dougall Johnson's measurements): AESE/AESD
 *    latency 3, AESE+AESMC fuses into one uop with latency 3, four SIMD
 *    pipelines; 12 blocks in flight would be needed to fill them.
 *
 * Design and estimated cost per byte (AES-128 / 192 / 256):
 *
 * - CBC encryption is one serial chain, so it is latency-bound whatever
 *   the core. rk0 whitening and the XOR with the next plaintext are folded
 *   into one round key: block i+1 starts with AESE(y_i, rk[Nr] ^ P[i+1] ^
 *   rk0), where y_i is block i's last AESE output (C[i] = y_i ^ rk[Nr] is
 *   computed and stored off the chain). The loop-carried path is then Nr-1
 *   fused pairs plus one lone AESE, nothing else: 2*Nr cycles per block on
 *   N1 and V1 = 1.25 / 1.50 / 1.75 c/B; 3*Nr on M1 = 1.88 / 2.25 / 2.63
 *   c/B. All 15 round keys live in v16..v30, so nothing is reloaded.
 *
 * - ECB encryption and CBC decryption run 8 independent blocks per group,
 *   one round across all 8 before the next, each AESE/AESMC (AESD/AESIMC)
 *   pair adjacent so it fuses. Round keys sit in v16..v30 aligned so that
 *   rk[Nr] is always v30: one unrolled body serves every key size by
 *   entering it at AES-256's round 0, AES-192's or AES-128's (a predicted
 *   branch on the public round count). CBC decryption's chaining XOR is
 *   one EOR with dk[Nr] ^ C[i-1] (computed off the chain). Bound by AES
 *   issue throughput: N1 one pair per cycle, Nr per block = 0.63 / 0.75 /
 *   0.88 c/B (8 blocks are four times what N1 needs). V1: 8 blocks x
 *   latency 2 exactly fills four pipes, Nr/4 cycles per block plus the
 *   EOR/loads sharing V pipes: ~0.18 / 0.21 / 0.25 c/B (a 12-block group
 *   would add slack). M1: 8 blocks cover 8 of the 12 needed slots, so
 *   latency-bound at 3*Nr cycles per 8 blocks: ~0.23 / 0.28 / 0.33 c/B.
 *   Tails of 1..7 blocks are one group each of 4, 2 and 1 (bits of the
 *   count), independent of each other.
 *
 * - CTR (inc32) runs the same 8-block groups as ECB. The counter blocks
 *   are built in general registers (ADD, REV, ORR, then FMOV and INS into
 *   the vector: five instructions per block, beside Nr AES pairs), so the
 *   estimates above hold. The input is loaded and XORed with the last
 *   round key mid-way through the rounds (into v8..v15), so one EOR per
 *   block follows the last AESE. Stores: see GROUP_STORE.
 *
 * - MODEL figures (llvm-mca 19.1.7 scheduling models, scripts/arm64_model.sh;
 * not measurements): cycles per byte of the steady-state main loop, the
 * instruction stream traced under qemu and fed to llvm-mca; OpenSSL's the
 * same way from its own perlasm, as it dispatches on each core (3.5.7:
 * 12-block EOR3 CTR on V1/V2/Ampere1). Limits: llvm-mca does not fuse
 * AESE+AESMC (AESD+AESIMC), so each pair costs two vector slots and both
 * sides look slower than a fusing core runs them; loads hit L1, no
 * store-to-load forwarding or aliasing, perfect branch prediction, no
 * front-end limit.
 *   c/B       CTR-128   CBC-dec-128  CBC-dec-256   (OpenSSL 3.0.22 / 3.5.7)
 *   N1        1.204     1.203        1.704         1.213 / 1.213 1.713
 *   V1        0.356     0.340        0.465         0.381/0.367  0.363  0.489
 *   V2        0.364     0.344        0.469         0.376/0.367  0.363  0.489
 *   N2        0.719     0.688        0.938         0.750        0.725  0.975
 *   Ampere1   0.688     0.657        0.907         0.720/0.703  0.694  0.944
 *   Ratios against 3.0's 5-block loops: CTR 1.01x (N1) to 1.07x (V1),
 *   CBC decryption 1.01x (N1) to 1.07x (V1); against 3.5's 12-block EOR3
 *   CTR 1.01-1.03x. Target (>= 1.0x 3.0's everywhere) met. (Before the
 *   STUR/STP stores and the early input XOR: CTR N1 1.251 = 0.97x, V1
 *   0.368, Ampere1 0.719; CBC N1 1.219 = 0.995x, V1 0.336.)
 *   N1 floor: the model issues AESE/AESD/AESMC/AESIMC on V0 only, all
 *   other vector ops on V0 or V1, STR/STP Q store data on V0 or V1 and
 *   STUR Q on the integer and load/store pipes only. AES-128 is 10 + 9 =
 *   19 V0 slots per block: 19 / 16 = 1.1875 c/B (AES-256: 1.6875). All
 *   STUR stores reach it (1.188 / 1.688); GROUP_STORE's two STPs cost
 *   1.3% on N1 to save V1 2 slots per group. 3.0's loops: 1.213 / 1.713.
 *   V1/V2 floor: all vector ops share four V pipes (store data: V0/V1);
 *   per 128 B 152 AES + 8 counter inserts + 16 EOR + 6 store data (V1;
 *   8 on V2) = 182 slots = 0.355 c/B (CTR; 0.356 reached), 152 + 16 + 6
 *   = 174 = 0.340 c/B (CBC, reached).
 *
 * - set_enc_key is one dependency chain per Nk-word step: DUP (3) + AESE
 *   (2) + EXT (2) + EOR (2) with the prefix XOR (8) alongside, plus the
 *   half-step of AES-192 (DUP + EOR) or AES-256 (DUP + AESE + EOR): about
 *   12 / 16 / 18 cycles per step on N1, ~120 / 130 / 125 cycles per key.
 *   set_dec_key adds an in-place swap-and-AESIMC pass (~Nr/2 iterations
 *   of two loads, two AESIMC, two stores).
 */
#include "fc_asm.h"
#include "fc/asm_offsets.h"

#if defined(__aarch64__)

#if defined(__AARCH64EB__)
#error "aes_ce.S assumes little-endian (LDR Q == LD1 .16b)"
#endif

	.arch	armv8-a+crypto

/*
 * CLEAR_V r...: zero the listed vector registers before returning, so no
 * round key, plaintext or keystream is left in caller-saved registers.
 * (One-operand helpers like CLEAR1 exist because a "\x\()" inside an .irp
 * nested in a macro is consumed by the macro, not the .irp.)
 */
.macro CLEAR1 r
	movi	\r\().16b, #0
.endm

.macro CLEAR_V regs:vararg
.irp r, \regs
	CLEAR1	\r
.endr
.endm

/* ------------------------------------------------------------------------
 * Key expansion helpers
 * ------------------------------------------------------------------------ */

/*
 * PREFIX_XOR4 v, t, z: v = (w0, w0^w1, w0^w1^w2, w0^w1^w2^w3), the running
 * XOR each Nk-word step of FIPS-197 5.2 applies to the previous words.
 * In: v, z (all zero). Out: v. Clobbers: t.
 */
.macro PREFIX_XOR4 v, t, z
	ext	\t\().16b, \z\().16b, \v\().16b, #12	// (0, w0, w1, w2)
	eor	\v\().16b, \v\().16b, \t\().16b
	ext	\t\().16b, \z\().16b, \v\().16b, #8	// (0, 0, v0, v1)
	eor	\v\().16b, \v\().16b, \t\().16b
.endm

/*
 * SUBWORD_BCAST t, src, lane, z: t = four copies of SubWord(src[lane]).
 * Four equal columns make ShiftRows the identity, so AESE with the zero
 * key z is SubBytes alone. In: src, z. Out: t.
 */
.macro SUBWORD_BCAST t, src, lane, z
	dup	\t\().4s, \src\().s[\lane]
	aese	\t\().16b, \z\().16b
.endm

/* ROT_BCAST t: RotWord on four equal words = rotate the vector one byte. */
.macro ROT_BCAST t
	ext	\t\().16b, \t\().16b, \t\().16b, #1
.endm

/* ------------------------------------------------------------------------
 * void fc_aes_set_enc_key_ce(fc_aes_key *key, const uint8_t *user_key,
 *                            size_t key_bytes);
 *
 * Expands the 16, 24 or 32-byte |user_key| (caller-checked) into
 * key->rk[0..Nr] in FIPS-197 byte order and sets key->rounds to 10, 12 or
 * 14. Writes exactly 16 * (Nr + 1) bytes of rk, plus rounds; reads exactly
 * |key_bytes| bytes of user_key.
 * Internal contract (used by fc_aes_set_dec_key_ce): x0 and x15 are
 * preserved, no stack is used.
 * CT: only key_bytes (public) selects a branch.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_aes_set_enc_key_ce)
.Lset_enc_key_body:
	KEY	.req	x0		// fc_aes_key * (preserved)
	UKEY	.req	x1		// user key bytes
	KBYTES	.req	x2		// 16, 24 or 32
	TMPW	.req	w9		// rounds
	A	.req	v0		// words w[i..i+3] of the schedule
	QA	.req	q0
	B	.req	v1		// AES-192/256: the next 2 or 4 words
	QB	.req	q1
	DB	.req	d1
	T	.req	v2		// SubWord result, broadcast
	U	.req	v3		// prefix-XOR temp for A
	RCON	.req	v4		// Rcon in the low byte of each word
	Z	.req	v5		// all zero: AESE key, EXT filler
	V	.req	v6		// prefix-XOR / broadcast temp for B

	ld1	{A.16b}, [UKEY]
	movi	Z.16b, #0
	str	QA, [KEY, #FC_OFF_AES_RK]
	cmp	KBYTES, #24
	b.lo	.Lsek_128
	b.eq	.Lsek_192

	/* AES-256: Nk = 8, seven steps; the last produces rk14 only. */
	ldr	QB, [UKEY, #16]
	mov	TMPW, #14
	str	QB, [KEY, #FC_OFF_AES_RK + 16]
	str	TMPW, [KEY, #FC_OFF_AES_ROUNDS]
.irp i, 1, 2, 3, 4, 5, 6, 7
	/* w[8i..8i+3]: SubWord(RotWord(w[8i-1])) ^ Rcon into the prefix XOR */
	SUBWORD_BCAST T, B, 3, Z
	movi	RCON.4s, #(1 << (\i - 1))
	PREFIX_XOR4 A, U, Z
	ROT_BCAST T
	eor	A.16b, A.16b, RCON.16b
	eor	A.16b, A.16b, T.16b
	str	QA, [KEY, #FC_OFF_AES_RK + 32 * \i]
.if \i < 7
	/* w[8i+4..8i+7]: SubWord(w[8i+3]), no rotation and no Rcon */
	SUBWORD_BCAST T, A, 3, Z
	PREFIX_XOR4 B, V, Z
	eor	B.16b, B.16b, T.16b
	str	QB, [KEY, #FC_OFF_AES_RK + 32 * \i + 16]
.endif
.endr
	CLEAR_V	A, B, T, U, RCON, V
	ret

.Lsek_192:
	/*
	 * AES-192: Nk = 6. A holds w[6i-6..6i-3], the low half of B holds
	 * w[6i-2..6i-1] (upper half don't-care). Each step emits 24 bytes; the
	 * 13 round keys (208 bytes) are the 24 user-key bytes, 7 full steps
	 * and the first 16 bytes of an eighth.
	 */
	ldr	DB, [UKEY, #16]		// reads exactly bytes 16..23
	mov	TMPW, #12
	str	DB, [KEY, #FC_OFF_AES_RK + 16]
	str	TMPW, [KEY, #FC_OFF_AES_ROUNDS]
.irp i, 1, 2, 3, 4, 5, 6, 7, 8
	SUBWORD_BCAST T, B, 1, Z
	movi	RCON.4s, #(1 << (\i - 1))
	PREFIX_XOR4 A, U, Z
	ROT_BCAST T
	eor	A.16b, A.16b, RCON.16b
	eor	A.16b, A.16b, T.16b
	stur	QA, [KEY, #FC_OFF_AES_RK + 24 * \i]
.if \i < 8
	/* w[6i+4] = w[6i-2] ^ w[6i+3], w[6i+5] = w[6i-1] ^ w[6i+4] */
	ext	V.16b, Z.16b, B.16b, #12
	eor	B.16b, B.16b, V.16b
	dup	V.4s, A.s[3]
	eor	B.16b, B.16b, V.16b
	stur	DB, [KEY, #FC_OFF_AES_RK + 24 * \i + 16]
.endif
.endr
	CLEAR_V	A, B, T, U, RCON, V
	ret

.Lsek_128:
	/* AES-128: Nk = 4, ten steps, one round key each. */
	mov	TMPW, #10
	str	TMPW, [KEY, #FC_OFF_AES_ROUNDS]
.irp i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
	SUBWORD_BCAST T, A, 3, Z
.if \i == 9
	movi	RCON.4s, #0x1b		// x^8 mod the AES polynomial
.elseif \i == 10
	movi	RCON.4s, #0x36
.else
	movi	RCON.4s, #(1 << (\i - 1))
.endif
	PREFIX_XOR4 A, U, Z
	ROT_BCAST T
	eor	A.16b, A.16b, RCON.16b
	eor	A.16b, A.16b, T.16b
	str	QA, [KEY, #FC_OFF_AES_RK + 16 * \i]
.endr
	CLEAR_V	A, T, U, RCON
	ret

	.unreq	KEY
	.unreq	UKEY
	.unreq	KBYTES
	.unreq	TMPW
	.unreq	A
	.unreq	QA
	.unreq	B
	.unreq	QB
	.unreq	DB
	.unreq	T
	.unreq	U
	.unreq	RCON
	.unreq	Z
	.unreq	V
FC_FUNC_END(fc_aes_set_enc_key_ce)

/* ------------------------------------------------------------------------
 * void fc_aes_set_dec_key_ce(fc_aes_key *key, const uint8_t *user_key,
 *                            size_t key_bytes);
 *
 * Builds the Equivalent Inverse Cipher schedule (FIPS-197 5.3.5) for
 * AESD/AESIMC: dk[0] = rk[Nr], dk[i] = InvMixColumns(rk[Nr-i]) for
 * 0 < i < Nr, dk[Nr] = rk[0]; sets rounds. Same reads/writes as
 * fc_aes_set_enc_key_ce (it expands in place, then reverses in place).
 * CT: only key_bytes (public) selects a branch.
 * ------------------------------------------------------------------------ */
FC_FUNC_START(fc_aes_set_dec_key_ce)
	KEY	.req	x0		// fc_aes_key *
	LO	.req	x10		// &rk[i], walking up
	HI	.req	x11		// &rk[Nr-i], walking down
	NR	.req	w9		// rounds
	LR_SAVE	.req	x15		// our return address across the BL
	X	.req	v0		// rk[i]
	QX	.req	q0
	Y	.req	v1		// rk[Nr-i]
	QY	.req	q1

	/* A direct BL to the local body: no PLT, no BTI check, LR kept in a
	 * register (nothing spilled, so no return-address signing needed). */
	mov	LR_SAVE, x30
	bl	.Lset_enc_key_body	// preserves KEY and LR_SAVE
	mov	x30, LR_SAVE
	ldr	NR, [KEY, #FC_OFF_AES_ROUNDS]
	add	LO, KEY, #FC_OFF_AES_RK
	add	HI, LO, NR, uxtw #4
	/* The outer pair is swapped as is (no InvMixColumns). */
	ldr	QX, [LO]
	ldr	QY, [HI]
	str	QY, [LO]
	str	QX, [HI]
.Lsdk_pair:
	add	LO, LO, #16
	sub	HI, HI, #16
	ldr	QX, [LO]
	ldr	QY, [HI]
	aesimc	X.16b, X.16b
	aesimc	Y.16b, Y.16b
	str	QY, [LO]
	str	QX, [HI]
	/* Nr is even, so LO and HI meet on rk[Nr/2], done once with X == Y. */
	cmp	LO, HI
	b.lo	.Lsdk_pair
	CLEAR_V	X, Y
	ret

	.unreq	KEY
	.unreq	LO
	.unreq	HI
	.unreq	NR
	.unreq	LR_SAVE
	.unreq	X
	.unreq	QX
	.unreq	Y
	.unreq	QY
FC_FUNC_END(fc_aes_set_dec_key_ce)

/* ------------------------------------------------------------------------
 * Wide (1..8 block) macros shared by ECB encryption and CBC decryption.
 * Block i of a group lives in v<i> (i = 0..7). Round keys: rk[j] is in
 * v(30 - Nr + j), so rk[Nr] is always v30 and rk[Nr-1] v29; AES-256 uses
 * v16..v30, AES-192 v18..v30, AES-128 v20..v30.
 * ------------------------------------------------------------------------ */

/*
 * LOAD_RK key, nr, tmp: load the Nr+1 round keys at |key| into
 * v(30-Nr)..v30. In: key, nr (32-bit). Clobbers: tmp, flags.
 * The branch depends on the public round count only.
 */
.macro LOAD_RK key, nr, tmp
	add	\tmp, \key, #FC_OFF_AES_RK
	cmp	\nr, #12
	b.lo	.Llrk10_\@
	b.eq	.Llrk12_\@
	ld1	{v16.16b, v17.16b}, [\tmp], #32
.Llrk12_\@:
	ld1	{v18.16b, v19.16b}, [\tmp], #32
.Llrk10_\@:
	ld1	{v20.16b, v21.16b, v22.16b, v23.16b}, [\tmp], #64
	ld1	{v24.16b, v25.16b, v26.16b, v27.16b}, [\tmp], #64
	ld1	{v28.16b, v29.16b, v30.16b}, [\tmp]
.endm

/* WIDE_LOAD n, base: v<i> = base[i], i < n (n = 1, 2, 4, 8). */
.macro WIDE_LOAD n, base
.if \n == 1
	ldr	q0, [\base]
.else
	ldp	q0, q1, [\base]
.endif
.if \n >= 4
	ldp	q2, q3, [\base, #32]
.endif
.if \n == 8
	ldp	q4, q5, [\base, #64]
	ldp	q6, q7, [\base, #96]
.endif
.endm

/* WIDE_STORE n, base: base[i] = v<i>, i < n (n = 1, 2, 4, 8). */
.macro WIDE_STORE n, base
.if \n == 1
	str	q0, [\base]
.else
	stp	q0, q1, [\base]
.endif
.if \n >= 4
	stp	q2, q3, [\base, #32]
.endif
.if \n == 8
	stp	q4, q5, [\base, #64]
	stp	q6, q7, [\base, #96]
.endif
.endm

/* STUR_STORE n, base: base[i] = v<i>, i < n, as STUR Q (unscaled). The
 * llvm-mca N1 model (after N1's Software Optimization Guide) issues STUR Q
 * on the integer and load/store pipes only, where STR/STP Q also take a
 * vector slot that the model may put on V0, N1's only AES pipe. */
.macro STUR_STORE n, base
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	stur	q\i, [\base, #16 * \i]
.endif
.endr
.endm

/* GROUP_STORE n, base: base[i] = v<i>, i < n; a full group of 8 stores
 * half with STUR Q, half with STP Q: STP Q takes half a vector slot per
 * block in the V1 model (STUR Q a whole one), STUR Q none in the N1 model
 * (STP Q one, which the model may put on V0). Half and half keeps N1
 * within 1.5% of its AES-only floor and saves V1 two slots per group. */
.macro GROUP_STORE n, base
.if \n == 8
	STUR_STORE 4, \base
	stp	q4, q5, [\base, #64]
	stp	q6, q7, [\base, #96]
.else
	STUR_STORE \n, \base
.endif
.endm

/* AES_PAIR op, mc, i, k: v<i> = mc(op(v<i>, k)), adjacent so they fuse. */
.macro AES_PAIR op, mc, i, k
	\op	v\i\().16b, \k\().16b
	\mc	v\i\().16b, v\i\().16b
.endm

/* AES_ONE op, i, k: v<i> = op(v<i>, k). */
.macro AES_ONE op, i, k
	\op	v\i\().16b, \k\().16b
.endm

/* EOR_V i, k: v<i> ^= k. */
.macro EOR_V i, k
	eor	v\i\().16b, v\i\().16b, \k\().16b
.endm

/*
 * WIDE_ROUND n, op, mc, k: one full round with key register k on blocks
 * 0..n-1, each op (AESE/AESD) immediately followed by its mc
 * (AESMC/AESIMC) so the pair fuses. Clobbers nothing else.
 */
.macro WIDE_ROUND n, op, mc, k
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	AES_PAIR \op, \mc, \i, \k
.endif
.endr
.endm

/*
 * WIDE_ROUNDS n, op, mc, nr: rounds 0..Nr-1 on blocks 0..n-1, ending with
 * the lone op with rk[Nr-1] (the caller applies rk[Nr] = v30). AES-128
 * enters at v20, AES-192 at v18, AES-256 runs all from v16. The branch
 * depends on the public round count only. Clobbers flags.
 */
.macro WIDE_ROUNDS n, op, mc, nr, mid
	cmp	\nr, #12
	b.lo	.Lwr10_\@
	b.eq	.Lwr12_\@
	WIDE_ROUND \n, \op, \mc, v16
	WIDE_ROUND \n, \op, \mc, v17
.Lwr12_\@:
	WIDE_ROUND \n, \op, \mc, v18
	WIDE_ROUND \n, \op, \mc, v19
.Lwr10_\@:
.irp k, v20, v21, v22, v23, v24
	WIDE_ROUND \n, \op, \mc, \k
.endr
.ifnb \mid
	\mid	\n
.endif
.irp k, v25, v26, v27, v28
	WIDE_ROUND \n, \op, \mc, \k
.endr
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	AES_ONE	\op, \i, v29
.endif
.endr
.endm

/* ------------------------------------------------------------------------
 * void fc_aes_ecb_enc_ce(const fc_aes_key *key, const uint8_t *in,
 *                        uint8_t *out, size_t blocks);
 *
 * out[i] = E_key(in[i]) for |blocks| 16-byte blocks, with an encryption
 * schedule. in == out allowed (each group is loaded before it is stored);
 * other overlap not. blocks == 0 is a no-op. No alignment requirement.
 * Reads only in[0..16*blocks) and the key, writes only out[0..16*blocks).
 * CT: no branch or address depends on key or data.
 * ------------------------------------------------------------------------ */

/* ECB_GROUP n: encrypt n blocks from IN to OUT, advance both. */
.macro ECB_GROUP n
	WIDE_LOAD \n, IN
	WIDE_ROUNDS \n, aese, aesmc, NR
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	EOR_V	\i, RKL
.endif
.endr
	WIDE_STORE \n, OUT
	add	IN, IN, #16 * \n
	add	OUT, OUT, #16 * \n
.endm

FC_FUNC_START(fc_aes_ecb_enc_ce)
	KEY	.req	x0		// const fc_aes_key *
	IN	.req	x1		// plaintext, advancing
	OUT	.req	x2		// ciphertext, advancing
	NBLK	.req	x3		// blocks left (minus 8 in the loop)
	NR	.req	w9		// rounds
	KPTR	.req	x10		// LOAD_RK cursor
	RKL	.req	v30		// rk[Nr]
					// v0..v7: blocks 0..7 of a group
					// v(30-Nr)..v30: rk[0..Nr]

	cbz	NBLK, .Lecb_done
	ldr	NR, [KEY, #FC_OFF_AES_ROUNDS]
	LOAD_RK	KEY, NR, KPTR
	subs	NBLK, NBLK, #8
	b.lo	.Lecb_tail
.Lecb_loop8:
	ECB_GROUP 8
	subs	NBLK, NBLK, #8
	b.hs	.Lecb_loop8
.Lecb_tail:
	/* NBLK = (blocks mod 8) - 8: its low three bits are blocks mod 8. */
	tbz	NBLK, #2, .Lecb_t2
	ECB_GROUP 4
.Lecb_t2:
	tbz	NBLK, #1, .Lecb_t1
	ECB_GROUP 2
.Lecb_t1:
	tbz	NBLK, #0, .Lecb_clear
	ECB_GROUP 1
.Lecb_clear:
	CLEAR_V	v0, v1, v2, v3, v4, v5, v6, v7
	CLEAR_V	v16, v17, v18, v19, v20, v21, v22, v23
	CLEAR_V	v24, v25, v26, v27, v28, v29, v30
.Lecb_done:
	ret

	.unreq	KEY
	.unreq	IN
	.unreq	OUT
	.unreq	NBLK
	.unreq	NR
	.unreq	KPTR
	.unreq	RKL
FC_FUNC_END(fc_aes_ecb_enc_ce)

/* ------------------------------------------------------------------------
 * void fc_aes_ctr32_ce(const fc_aes_key *key, const uint8_t *in,
 *                      uint8_t *out, size_t blocks, const uint8_t ctr[16]);
 *
 * CTR with inc32 (fc_aes_ctr32_fn, fc/aes.h), with an encryption schedule:
 * out[i] = in[i] ^ E(ctr_i), where ctr_i is |ctr| with i added mod 2^32
 * to its big-endian last word; the first twelve bytes never change. |ctr|
 * is read, never written. in == out allowed (a group loads all its input
 * before it stores); other overlap not. blocks == 0 is a no-op. No
 * alignment requirement. Reads in[0..16*blocks), ctr and the key, writes
 * only out[0..16*blocks).
 * CT: no branch or address depends on key, counter or data.
 *
 * Eight blocks per group, as ECB. The counter blocks are built in general
 * registers, off the AES pipes: bytes 0..7 and 8..11 of |ctr| stay in
 * CLO and CMID; the last word, byte-reversed to a native number in CNT,
 * is added to with a 32-bit ADD (inc32: it wraps on its own), reversed
 * back and put above CMID; FMOV and INS make the vector. The last round
 * key and the input go in with two EORs.
 * ------------------------------------------------------------------------ */

/* CTR_BLOCK i: v<i> = the counter block CNT + i. Clobbers TMP. */
.macro CTR_BLOCK i
	add	TMPW, CNT, #\i
	rev	TMPW, TMPW
	orr	TMP, CMID, TMP, lsl #32
	fmov	d\i, CLO
	mov	v\i\().d[1], TMP
.endm

/* CTR_IN n: v(8+i) = in[i] ^ rk[Nr] for i < n, every load before any
 * store; issued mid-way through the rounds (WIDE_ROUNDS' |mid| hook), so
 * that only the XOR with the keystream waits for the last AESE. */
.macro CTR_IN1 i, r
	ldr	q\r, [IN, #16 * \i]
	eor	v\r\().16b, v\r\().16b, RKL.16b
.endm

.macro CTR_IN n
	CTR_IN1	0, 8
.if \n >= 2
	CTR_IN1	1, 9
.endif
.if \n >= 4
	CTR_IN1	2, 10
	CTR_IN1	3, 11
.endif
.if \n == 8
	CTR_IN1	4, 12
	CTR_IN1	5, 13
	CTR_IN1	6, 14
	CTR_IN1	7, 15
.endif
.endm

/* CTR_OUT n: v<i> ^= v(8+i), i < n. */
.macro CTR_OUT n
	eor	v0.16b, v0.16b, v8.16b
.if \n >= 2
	eor	v1.16b, v1.16b, v9.16b
.endif
.if \n >= 4
	eor	v2.16b, v2.16b, v10.16b
	eor	v3.16b, v3.16b, v11.16b
.endif
.if \n == 8
	eor	v4.16b, v4.16b, v12.16b
	eor	v5.16b, v5.16b, v13.16b
	eor	v6.16b, v6.16b, v14.16b
	eor	v7.16b, v7.16b, v15.16b
.endif
.endm

/* CTR_GROUP n: n blocks from IN to OUT, counters from CNT (which moves on
 * by n); IN and OUT advance. Clobbers v0..v(n-1), v8..v(8+n-1), TMP,
 * flags. */
.macro CTR_GROUP n
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	CTR_BLOCK \i
.endif
.endr
	add	CNT, CNT, #\n
	WIDE_ROUNDS \n, aese, aesmc, NR, CTR_IN
	CTR_OUT	\n
	GROUP_STORE \n, OUT
	add	IN, IN, #16 * \n
	add	OUT, OUT, #16 * \n
.endm

FC_FUNC_START(fc_aes_ctr32_ce)
	KEY	.req	x0		// const fc_aes_key *
	IN	.req	x1		// input, advancing
	OUT	.req	x2		// output, advancing
	NBLK	.req	x3		// blocks left (minus 8 in the loop)
	CTRP	.req	x4		// ctr[16], read once
	CLO	.req	x5		// ctr bytes 0..7
	CMID	.req	x6		// ctr bytes 8..11, zero-extended
	CNT	.req	w7		// ctr bytes 12..15 as a number
	NR	.req	w9		// rounds
	KPTR	.req	x10		// LOAD_RK cursor
	TMP	.req	x11		// counter block bytes 8..15
	TMPW	.req	w11
	RKL	.req	v30		// rk[Nr]
					// v0..v7: blocks 0..7 of a group
					// v8..v15: in[i] ^ rk[Nr] (d8..d15 saved)
					// v(30-Nr)..v30: rk[0..Nr]

	cbz	NBLK, .Lctr_done
	stp	d8, d9, [sp, #-64]!
	.cfi_def_cfa_offset 64
	.cfi_offset 72, -64		// DWARF 72..79 = v8..v15 (d8..d15)
	.cfi_offset 73, -56
	stp	d10, d11, [sp, #16]
	.cfi_offset 74, -48
	.cfi_offset 75, -40
	stp	d12, d13, [sp, #32]
	.cfi_offset 76, -32
	.cfi_offset 77, -24
	stp	d14, d15, [sp, #48]
	.cfi_offset 78, -16
	.cfi_offset 79, -8
	ldr	NR, [KEY, #FC_OFF_AES_ROUNDS]
	LOAD_RK	KEY, NR, KPTR
	ldr	CLO, [CTRP]
	ldr	w6, [CTRP, #8]			// CMID, upper half zeroed
	ldr	CNT, [CTRP, #12]
	rev	CNT, CNT
	subs	NBLK, NBLK, #8
	b.lo	.Lctr_tail
.Lctr_loop8:
	CTR_GROUP 8
	subs	NBLK, NBLK, #8
	b.hs	.Lctr_loop8
.Lctr_tail:
	/* NBLK = (blocks mod 8) - 8: its low three bits are blocks mod 8. */
	tbz	NBLK, #2, .Lctr_t2
	CTR_GROUP 4
.Lctr_t2:
	tbz	NBLK, #1, .Lctr_t1
	CTR_GROUP 2
.Lctr_t1:
	tbz	NBLK, #0, .Lctr_clear
	CTR_GROUP 1
.Lctr_clear:
	CLEAR_V	v0, v1, v2, v3, v4, v5, v6, v7
	CLEAR_V	v16, v17, v18, v19, v20, v21, v22, v23
	CLEAR_V	v24, v25, v26, v27, v28, v29, v30
	ldp	d10, d11, [sp, #16]	// LDP D also zeroes v8..v15's upper halves
	ldp	d12, d13, [sp, #32]
	ldp	d14, d15, [sp, #48]
	ldp	d8, d9, [sp], #64
	.cfi_def_cfa_offset 0
	.cfi_restore 72
	.cfi_restore 73
	.cfi_restore 74
	.cfi_restore 75
	.cfi_restore 76
	.cfi_restore 77
	.cfi_restore 78
	.cfi_restore 79
.Lctr_done:
	ret

	.unreq	KEY
	.unreq	IN
	.unreq	OUT
	.unreq	NBLK
	.unreq	CTRP
	.unreq	CLO
	.unreq	CMID
	.unreq	CNT
	.unreq	NR
	.unreq	KPTR
	.unreq	TMP
	.unreq	TMPW
	.unreq	RKL
FC_FUNC_END(fc_aes_ctr32_ce)

/* ------------------------------------------------------------------------
 * void fc_aes_cbc_enc_ce(const fc_aes_key *key, const uint8_t *in,
 *                        uint8_t *out, size_t blocks, uint8_t iv[16]);
 *
 * CBC encryption with an encryption schedule: C[i] = E(P[i] ^ C[i-1]),
 * C[-1] = iv; then iv = C[blocks-1]. in == out allowed (P[i+1] is loaded
 * before C[i] is stored); other overlap not. blocks == 0 is a no-op and
 * leaves iv unchanged. No alignment requirement.
 * CT: no branch or address depends on key or data (the round count picks
 * the code path).
 *
 * The chain is serial, so the loop is built around its latency. With y_i
 * block i's last AESE output (C[i] = y_i ^ rk[Nr]), block i+1's first
 * round is AESE(y_i, rk[Nr] ^ P[i+1] ^ rk0) = AESE(C[i] ^ P[i+1], rk0):
 * the key is computed off the chain, so the loop-carried path is exactly
 * Nr-1 fused AESE+AESMC pairs and one lone AESE per block.
 * ------------------------------------------------------------------------ */

/* S_PAIR k: one fused AESE+AESMC round of the CBC chain S with key k. */
.macro S_PAIR k
	aese	S.16b, \k\().16b
	aesmc	S.16b, S.16b
.endm

/*
 * CBCE_MID nr: rounds 1..Nr-1 on S, ending with the lone AESE by rk[Nr-1]
 * (v29). rk1 is v17 (AES-256), v19 (AES-192) or v21 (AES-128).
 */
.macro CBCE_MID nr
.if \nr == 14
	S_PAIR	v17
	S_PAIR	v18
.endif
.if \nr >= 12
	S_PAIR	v19
	S_PAIR	v20
.endif
.irp k, v21, v22, v23, v24, v25, v26, v27, v28
	S_PAIR	\k
.endr
	aese	S.16b, v29.16b
.endm

/*
 * CBCE_PATH nr: the loop for one key size. On entry S has had round 0
 * (AESE+AESMC with rk0) of block 0, IN points at P[1], NBLK = blocks.
 * Ends by branching to .Lcbce_clear.
 */
.macro CBCE_PATH nr
	subs	NBLK, NBLK, #1
	b.eq	.Lcbce_last\nr
.Lcbce_loop\nr:
	ld1	{T.16b}, [IN], #16	// P[i+1], before C[i] is stored
	CBCE_MID \nr			// S = y_i
	eor	T.16b, T.16b, KX.16b	// T = P[i+1] ^ rk0 ^ rk[Nr]
	eor	U.16b, S.16b, RKL.16b	// U = C[i], off the chain
	aese	S.16b, T.16b		// block i+1, round 0
	aesmc	S.16b, S.16b
	st1	{U.16b}, [OUT], #16
	subs	NBLK, NBLK, #1
	b.ne	.Lcbce_loop\nr
.Lcbce_last\nr:
	CBCE_MID \nr
	eor	S.16b, S.16b, RKL.16b	// C[blocks-1]
	st1	{S.16b}, [OUT]
	st1	{S.16b}, [IVP]
	b	.Lcbce_clear
.endm

FC_FUNC_START(fc_aes_cbc_enc_ce)
	KEY	.req	x0		// const fc_aes_key *
	IN	.req	x1		// plaintext, advancing
	OUT	.req	x2		// ciphertext, advancing
	NBLK	.req	x3		// blocks left
	IVP	.req	x4		// iv[16], read first, written last
	NR	.req	w9		// rounds
	KPTR	.req	x10		// LOAD_RK cursor
	S	.req	v0		// the chain
	T	.req	v1		// P[i+1], then the folded round-0 key
	U	.req	v2		// C[i]
	K0	.req	v3		// rk0 (loaded apart: its register varies)
	QK0	.req	q3
	KX	.req	v4		// rk0 ^ rk[Nr]
	IV	.req	v5		// iv at entry
	RKL	.req	v30		// rk[Nr]
					// v(30-Nr)..v30: rk[0..Nr]

	cbz	NBLK, .Lcbce_done
	ldr	NR, [KEY, #FC_OFF_AES_ROUNDS]
	LOAD_RK	KEY, NR, KPTR
	ld1	{S.16b}, [IN], #16
	ld1	{IV.16b}, [IVP]
	ldr	QK0, [KEY, #FC_OFF_AES_RK]
	eor	S.16b, S.16b, IV.16b	// P[0] ^ iv
	eor	KX.16b, K0.16b, RKL.16b
	aese	S.16b, K0.16b
	aesmc	S.16b, S.16b
	cmp	NR, #12
	b.lo	.Lcbce_128
	b.eq	.Lcbce_192
	CBCE_PATH 14
.Lcbce_192:
	CBCE_PATH 12
.Lcbce_128:
	CBCE_PATH 10
.Lcbce_clear:
	CLEAR_V	v0, v1, v2, v3, v4, v5
	CLEAR_V	v16, v17, v18, v19, v20, v21, v22, v23
	CLEAR_V	v24, v25, v26, v27, v28, v29, v30
.Lcbce_done:
	ret

	.unreq	KEY
	.unreq	IN
	.unreq	OUT
	.unreq	NBLK
	.unreq	IVP
	.unreq	NR
	.unreq	KPTR
	.unreq	S
	.unreq	T
	.unreq	U
	.unreq	K0
	.unreq	QK0
	.unreq	KX
	.unreq	IV
	.unreq	RKL
FC_FUNC_END(fc_aes_cbc_enc_ce)

/* ------------------------------------------------------------------------
 * void fc_aes_cbc_dec_ce(const fc_aes_key *key, const uint8_t *in,
 *                        uint8_t *out, size_t blocks, uint8_t iv[16]);
 *
 * CBC decryption with a decryption schedule (fc_aes_set_dec_key_ce):
 * P[i] = D(C[i]) ^ C[i-1], C[-1] = iv; then iv = C[blocks-1]. in == out
 * allowed: every ciphertext a group needs (its blocks, the chaining values,
 * the next iv) is loaded before the group stores anything; other overlap
 * not. blocks == 0 is a no-op and leaves iv unchanged. No alignment
 * requirement. Reads only in[0..16*blocks), iv and the key.
 * CT: no branch or address depends on key or data.
 *
 * Eight independent blocks per group; the last round's key dk[Nr] and the
 * chaining value merge into one EOR with dk[Nr] ^ C[i-1], computed from a
 * reload of C[i-1] off the chain. The group's chaining value C[-1] stays
 * in v8 across groups (all other vector registers hold blocks or keys), so
 * d8 is saved and restored.
 * ------------------------------------------------------------------------ */

/* CBCD_GROUP n: decrypt n blocks from IN to OUT, chaining from IV and
 * leaving C[n-1] in IV; advance IN and OUT. Clobbers v0..v(n-1), T, flags. */
.macro CBCD_GROUP n
	WIDE_LOAD \n, IN
	WIDE_ROUNDS \n, aesd, aesimc, NR
	eor	T.16b, IV.16b, RKL.16b
	eor	v0.16b, v0.16b, T.16b
.irp i, 1, 2, 3, 4, 5, 6, 7
.if \i < \n
	ldr	QT, [IN, #16 * (\i - 1)]	// C[i-1], still unmodified
	eor	T.16b, T.16b, RKL.16b
	EOR_V	\i, T
.endif
.endr
	ldr	QIV, [IN, #16 * (\n - 1)]	// loaded before any store
	GROUP_STORE \n, OUT
	add	IN, IN, #16 * \n
	add	OUT, OUT, #16 * \n
.endm

FC_FUNC_START(fc_aes_cbc_dec_ce)
	KEY	.req	x0		// const fc_aes_key * (decryption)
	IN	.req	x1		// ciphertext, advancing
	OUT	.req	x2		// plaintext, advancing
	NBLK	.req	x3		// blocks left (minus 8 in the loop)
	IVP	.req	x4		// iv[16]
	NR	.req	w9		// rounds
	KPTR	.req	x10		// LOAD_RK cursor
	IV	.req	v8		// C[-1] of the current group (d8 saved)
	QIV	.req	q8
	T	.req	v31		// dk[Nr] ^ C[i-1]
	QT	.req	q31
	RKL	.req	v30		// dk[Nr]
					// v0..v7: blocks 0..7 of a group
					// v(30-Nr)..v30: dk[0..Nr]

	cbz	NBLK, .Lcbcd_done
	str	d8, [sp, #-16]!
	.cfi_adjust_cfa_offset 16
	.cfi_offset 72, -16		// DWARF 72 = v8 (its low half, d8)
	ld1	{IV.16b}, [IVP]
	ldr	NR, [KEY, #FC_OFF_AES_ROUNDS]
	LOAD_RK	KEY, NR, KPTR
	subs	NBLK, NBLK, #8
	b.lo	.Lcbcd_tail
.Lcbcd_loop8:
	CBCD_GROUP 8
	subs	NBLK, NBLK, #8
	b.hs	.Lcbcd_loop8
.Lcbcd_tail:
	/* NBLK = (blocks mod 8) - 8: its low three bits are blocks mod 8. */
	tbz	NBLK, #2, .Lcbcd_t2
	CBCD_GROUP 4
.Lcbcd_t2:
	tbz	NBLK, #1, .Lcbcd_t1
	CBCD_GROUP 2
.Lcbcd_t1:
	tbz	NBLK, #0, .Lcbcd_out
	CBCD_GROUP 1
.Lcbcd_out:
	st1	{IV.16b}, [IVP]
	CLEAR_V	v0, v1, v2, v3, v4, v5, v6, v7
	CLEAR_V	v16, v17, v18, v19, v20, v21, v22, v23
	CLEAR_V	v24, v25, v26, v27, v28, v29, v30, v31
	ldr	d8, [sp], #16		// also zeroes v8's upper half
	.cfi_restore 72
	.cfi_adjust_cfa_offset -16
.Lcbcd_done:
	ret

	.unreq	KEY
	.unreq	IN
	.unreq	OUT
	.unreq	NBLK
	.unreq	IVP
	.unreq	NR
	.unreq	KPTR
	.unreq	IV
	.unreq	QIV
	.unreq	T
	.unreq	QT
	.unreq	RKL
FC_FUNC_END(fc_aes_cbc_dec_ce)

#endif /* __aarch64__ */
