/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes_gcm_ce.S - AES-GCM (SP 800-38D) with the ARMv8 Cryptography
 * Extensions: GHASH key precomputation (H^1..H^8 with their Karatsuba
 * halves), GHASH, and the stitched CTR-encrypt + GHASH kernels that process
 * 8 blocks per iteration (AESE/AESMC for CTR, PMULL/PMULL2 for GHASH).
 *
 * CPU features: FEAT_AES and FEAT_PMULL (HWCAP_AES, HWCAP_PMULL;
 * FC_CAP_ARM_AES | FC_CAP_ARM_PMULL), Advanced SIMD. The *_sha3 entry points
 * also need FEAT_SHA3 (HWCAP_SHA3; FC_CAP_ARM_SHA3) for EOR3; they are the
 * same code with every three-way XOR merged into one EOR3 (an assembler-
 * time switch on one macro body). fc_gcm_init_ce serves both tables.
 * Little-endian only (LDR Q and LD1 {.16b} agree: memory byte i is vector
 * byte i). No alignment is required of any buffer, key or table.
 *
 * ABI: AAPCS64. fc_ghash_ce* and fc_gcm_{enc,dec}_ce* use v8..v15 and so
 * save d8..d15 (64 bytes of stack) and restore them; they write only
 * caller-saved GPRs (x0..x16) and never touch x18 or x19..x29. All entry
 * points are leaves that keep LR in place (no PAC needed) and start with a
 * BTI C landing pad (FC_FUNC_START). Vector registers that held round keys,
 * powers of H, keystream or data are zeroed before returning (v8..v15 are
 * reloaded from the stack with LDP D, which clears their upper halves).
 *
 * Contract: include/fc/gcm.h. Kernels take whole 16-byte blocks; C
 * (provider/core/gcm.c) handles IVs, partial blocks, lengths, the counter
 * write-back and the tag. Block i uses the counter block with its last 32
 * bits (big-endian) + i mod 2^32 and bytes 0..11 unchanged (inc32), so a
 * call may cross the wrap; the counter is secret (for IVs other than 96
 * bits J0 = GHASH_H(IV)). Round keys are fc_aes_key.rk in FIPS-197 byte
 * order (fc_aes_set_enc_key_ce, asm/aarch64/aes_ce.S), rounds at
 * FC_OFF_AES_ROUNDS; the htable is at FC_OFF_GCM_HTABLE in fc_gcm_key.
 *
 * ========================================================================
 * Math
 * ========================================================================
 *
 * GHASH works in GF(2^128) = GF(2)[x] / g(x), g = x^128 + x^7 + x^2 + x + 1.
 * SP 800-38D maps a 16-byte string b[0..15] to a polynomial with the
 * coefficient of x^i in bit (7 - i%8) of byte i/8: "bit-reflected".
 *
 * Bit reflection. Read b as a big-endian 128-bit integer A = (a1:a0)
 * (a1 = BE64(b[0..7]), a0 = BE64(b[8..15])): the coefficient of x^i sits
 * at integer bit 127 - i, so A = rev128(a), the polynomial's full bit
 * reversal. LD1 + REV64 (.16b) produces exactly (a1, a0) in lanes 0 and 1:
 * the two halves of A in swapped order. We call that the S form and keep
 * every block, the hash state Xi and the powers of H in it. Swapped halves
 * cost nothing: PMULL (lane 0 x lane 0) gives a1*h1 = HI and PMULL2
 * (lane 1 x lane 1) gives a0*h0 = LO. PMULL's own output is a normal
 * 128-bit integer (lane 0 = low half). One REV64 per block is the whole
 * byte-order cost; Xi gets one EXT #8 per reduction to return to S form.
 *
 * Carry-less products of reflected values. For a, b of degree < 128,
 * clmul(rev128(a), rev128(b)) holds the coefficient of x^k of a*b at bit
 * 254 - k: it is rev256(x*a*b). Rather than shift every product left by
 * one bit, the key absorbs the extra x:
 *
 * H preprocessing. fc_gcm_init_ce stores P_i = H^i * x^-1 mod g. Since
 * x * (x^127 + x^6 + x + 1) = 1 + g, x^-1 = x^127 + x^6 + x + 1, and
 * H * x^-1 in the reflected integer is a 128-bit shift LEFT by one, adding
 * rev128(x^-1) = 0xc2000000_00000000_00000000_00000001 when the constant
 * term of H (bit 127) falls out (done branch-free with an arithmetic-shift
 * mask in GPRs). Then clmul(rev(a), rev(P_1)) = rev256(x*a*H*x^-1) =
 * rev256(a*H), an aligned product ready to reduce. Powers: the same
 * multiply gives mul(P_i, P_j) = P_i * P_j * x = H^(i+j) * x^-1 = P_(i+j),
 * so the table is built with the very multiply the hash uses.
 *
 * Karatsuba. With A = (a1:a0), P = (h1:h0): LO = a0*h0, HI = a1*h1 and the
 * middle term a0*h1 + a1*h0 = (a0+a1)*(h0+h1) + LO + HI: three PMULLs per
 * block. The table holds k = h0+h1 for every power. In the 8-block loop
 * the halves a0+a1 of two blocks are formed together (TRN1, TRN2, EOR: 1.5
 * ops per block) and multiplied by a packed pair (k_i, k_j) with PMULL and
 * PMULL2; single blocks use EXT #8 + EOR. GHASH of 8 blocks B0..B7 with
 * state X is (X+B0)*H^8 + B1*H^7 + ... + B7*H^1: the 24 products are summed
 * unreduced in LO, MI, HI, MI is corrected once with LO + HI, and one
 * reduction serves all 8 blocks. Tails: n < 8 blocks multiply by
 * H^n..H^1 the same way, one reduction at the end.
 *
 * Reduction (two folds by one constant). Write the 256-bit reflected
 * product as words w0..w3 (w0 least significant, holding the coefficients
 * of x^192..x^255). A term x^(128+j)*t (t of degree < 64) reduces by
 * x^128 = x^7 + x^2 + x + 1 to t + t*(x^7 + x^2 + x); in reflected words
 * t*(x^7+x^2+x) is clmul(w, K) with K = 0xc200000000000000 (bits 63, 62,
 * 57 = x^0, x^1, x^6; the clmul's one-bit offset supplies the last x),
 * landing 64 bits above w, and "+ t" is w moved up 128 bits. With LO at
 * bit 0, MI at bit 64, HI at bit 128:
 *   fold LO into MI:  MI ^= PMULL(LO.d[0], K) ^ EXT(LO, LO, #8)
 *   fold MI into HI:  HI ^= PMULL(MI.d[0], K) ^ EXT(MI, MI, #8)
 * EXT #8 swaps the halves, doing both moves at once (w1 is already in MI's
 * low half; w0 lands 128 bits up). The first fold's overflow (up to
 * x^134) lands in MI.d[0], which the second fold reduces. HI is then
 * rev128(product mod g) in normal form; Xi = EXT(HI, HI, #8) in S form.
 * Per reduction: 2 PMULL, 3 EXT, 4 EOR (2 EOR3).
 *
 * ========================================================================
 * Design
 * ========================================================================
 *
 * Main loop: the CTR encryption of 8 blocks (AESE+AESMC pairs kept
 * adjacent so they fuse) interleaved with the GHASH of 8 ciphertext blocks
 * against H^8..H^1, one reduction per 8 blocks. Encrypt hashes the
 * previous group (re-read from |out|, just written: 16-byte store-to-load
 * forwarding); decrypt hashes the group it is decrypting (read from |in|
 * before the group's stores, so in == out works). GHASH is cut into
 * steps 0..9 (four block pairs of load+halves and multiply, then the
 * correction with fold 1 and fold 2), one step after each of the last 9
 * AESE+AESMC rounds and one after the lone AESE. AES-192/256 run their 2
 * or 4 extra first rounds without GHASH work. The last round key and the
 * input are XORed into the last AESE output in one EOR3, or with two EORs
 * of which only one is on the AES chain (in ^ rk[Nr] is formed off it).
 * Pairs are hashed last-first (blocks 6,7 then 4,5, ...) so that only the
 * final pair waits for the previous group's Xi.
 *
 * Counters: built in general registers. Bytes 0..7 and 8..11 of the
 * counter block stay in CLO and CMID; the last word, byte-reversed to a
 * native number in CNT, gets i added with a 32-bit ADD (which wraps mod
 * 2^32: inc32 exactly, bytes 0..11 never change), is reversed back (REV)
 * and put above CMID (ORR); FMOV d<i> writes bytes 0..7 and an insert
 * into lane 1 bytes 8..15. No branch, nothing depends on the counter's
 * value. Vector-pipe cost per 8 blocks: 8 (the inserts, INS) on the
 * 4-pipe cores, 0 on N1 (FMOV v.d[1] is an M-pipe op there), against 16
 * (ADD .4s + REV32 per block) for counters kept in a vector register.
 *
 * Tails (1..7 blocks): one 8-lane AES pass (for encrypt interleaved with
 * the GHASH of the last full group), then block by block: XOR, store, and
 * multiply by H^n..H^1 into unreduced LO/MI/HI, one reduction at the end.
 * A final group with no tail is hashed alone.
 *
 * Registers (enc/dec): v0..v7 the 8 AES states; v8 Xi; v10..v12
 * LO/MI/HI; v13..v20 temporaries; v21..v31 the last 11 round keys
 * rk[Nr-10..Nr], resident. AES-192/256 reload their first 2/4 round keys
 * into v19..v20 / v17..v20 at each group (free on the load pipes), which
 * then serve as GHASH temporaries. The 0,0,0,1 increment and K are loaded
 * from .Lgcm_consts when needed (loads use no vector pipe). x13..x16 hold
 * CLO, CMID, CNT and the counter scratch.
 *
 * htable layout (448 of FC_GCM_HTABLE_BYTES = 512 bytes, all S form):
 *   0..191:   loop table, 4 x 48 bytes: for pair p = 0..3,
 *             P_(8-2p), P_(7-2p), (k_(8-2p), k_(7-2p))
 *   192..447: single table, 8 x 32 bytes: for i = 1..8, P_i, (k_i, k_i)
 *
 * Instruction costs used for the estimates (published figures; this code
 * was developed under qemu, which has no timing):
 *  - Neoverse N1 (Software Optimization Guide; LLVM's N1 model): two
 *    vector pipes V0, V1. AESE/AESMC and PMULL (64x64) latency 2 and issue
 *    on V0 only, one per cycle; an adjacent AESE+AESMC pair fuses into one
 *    slot. EOR/EXT/TRN/REV/ADD latency 2 on V0 or V1. No SHA3.
 *  - Neoverse V1 (SWOG; LLVM's V1 model): four vector pipes; AES (fused
 *    pairs) and PMULL latency 2 on all four; EOR3 latency 2 on V0 only.
 *  - Apple M1 Firestorm (Dougall Johnson's measurements): four SIMD
 *    pipes; AESE+AESMC fuse into one uop (latency 3); PMULL latency 3;
 *    EOR3 is one uop. FEAT_SHA3 present.
 *
 * ESTIMATED cost (not measured), per 8 blocks = 128 bytes, AES-128 loop:
 * 72 AESE+AESMC pairs + 8 AESE (80 AES slots), 26 PMULL, and 83 other
 * vector ops (16 counter -- now 8 or 0, see Counters --, 8 REV64, 12 Karatsuba halves, 22 accumulate +
 * Xi merge, 2 correction, 7 folding and Xi EXT, 16 last-round/input EOR);
 * 63 with EOR3 (20 of them EOR3). Loads (30 q-registers, 32/34 for
 * AES-192/256) and stores (8) go to the load/store pipes.
 *  - N1: AES and PMULL share V0: 80 + 26 = 106 V0 cycles, with the 83
 *    other ops fitting on V1 -> ~0.83 c/B (AES-192 ~0.95, AES-256 ~1.08).
 *    Bound by the single crypto pipe; this is why GHASH uses Karatsuba (3
 *    PMULL per block, schoolbook would take 4: ~0.89 c/B).
 *  - V1: everything shares four pipes: (80 + 26 + 83) / 4 = ~47 cycles ->
 *    ~0.37 c/B; ~0.33 c/B with EOR3 (169 ops; the 20 EOR3 fit V0's
 *    share). AES-256: ~0.43 / ~0.39 c/B. Bound by vector issue width,
 *    which is why the non-crypto op count is minimised (paired halves,
 *    EOR3, REV64-only byte order).
 *  - M1: four pipes, EOR3 variant: ~169 / 4 = ~42 cycles -> ~0.33 c/B
 *    (AES-256 ~0.39). The 3-cycle fused AES latency leaves each group's
 *    8 chains (30 cycles for AES-128) shorter than its issue time, so
 *    consecutive groups overlap and issue width stays the bound.
 *  - Counters kept in a stack buffer refreshed by scalar stores a group
 *    ahead (as the x86-64 kernel does) would take the 8 remaining inserts
 *    off the vector pipes too (~-3% on V1 in the model), at the price of
 *    a 16-byte load of two 8-byte stores, which Neoverse cores do not
 *    forward: kept in registers.
 *  - fc_ghash_ce: 26 PMULL + 51 other ops per 8 blocks (39 with EOR3):
 *    N1 ~39 cycles over both pipes -> ~0.30 c/B; V1 ~0.15 c/B; M1 (EOR3)
 *    ~0.13 c/B; bound by vector issue as above.
 *
 * MODEL figures (llvm-mca 19.1.7 scheduling models, scripts/arm64_model.sh;
 * not measurements): cycles per byte of the steady-state main loop, the
 * instruction stream traced under qemu and fed to llvm-mca; OpenSSL's the
 * same way from its own perlasm, as it dispatches on each core (3.5.7:
 * unroll8 EOR3 GCM on V1/V2/N2/Ampere1). Limits: llvm-mca does not fuse
 * AESE+AESMC (AESD+AESIMC), so each pair costs two vector slots and both
 * sides look slower than a fusing core runs them (on V1 our loop's 237
 * vector uops per 128 B would be 165 fused); loads hit L1, no
 * store-to-load forwarding or aliasing, perfect branch prediction, no
 * front-end limit.
 *
 *   c/B        AES-128 enc / dec   AES-256 enc / dec   vs 3.0.22        vs 3.5.7
 *   N1         1.406 / 1.407       1.906 / 1.907       1.01-1.02x       (= 3.0)
 *   V1 (sha3)  0.463 / 0.464       0.588 / 0.589       1.15-1.21x       1.06-1.08x
 *   V2 (sha3)  0.471 / 0.471       0.596 / 0.596       1.15-1.24x       1.07-1.08x
 *   N2 (sha3)  0.942 / 0.942       1.192 / 1.192       1.13-1.17x       1.07-1.08x
 *   Ampere1    0.910 / 0.911       1.168 / 1.169       1.13-1.21x       1.06-1.09x
 *   OpenSSL 3.0.22 (4-block aes-gcm-armv8_64) enc/dec-128: N1 1.438/1.422,
 *   V1 0.560/0.552, V2 0.560/0.583; enc/dec-256: N1 1.922, V1 0.690/0.677,
 *   V2 0.688/0.708. 3.5.7 (unroll8 EOR3) -128: V1 0.502, V2 0.510, N2
 *   1.020, Ampere1 0.988; -256: V1 0.627, V2 0.635.
 *   (Before the GPR counters, the STP/STUR stores and the GMUL order: N1
 *   1.469, V1/V2 0.487 for AES-128.)
 *
 * Floors, from the models' own port assignments (llvm-mca
 * -resource-pressure; LLVM's AArch64SchedNeoverse{N1,V1,V2}.td):
 *  - N1: AESE, AESMC and PMULL issue on V0 only; everything else on V0 or
 *    V1 (STUR Q on the integer/load-store pipes). Per 128 B AES-128 needs
 *    80 AESE + 72 AESMC = 152 V0 slots, GHASH 26 PMULL (3 per block
 *    Karatsuba + 2 for the reduction; schoolbook would need 34): floor 178
 *    / 128 = 1.391 c/B = 1.03x 3.0's 1.438; ours issues 180 on V0 (1.406).
 *    The target 1.2x = 1.198 c/B = 153 V0 slots, one more than the AES
 *    rounds alone: INFEASIBLE in the model. AES-256: (216 + 26) / 128 =
 *    1.891 c/B floor, 1.02x 3.0's 1.922.
 *  - V1/V2: every vector op (AES, PMULL, EOR3 -- V0 only --, the rest, and
 *    the store data of STP/STR Q) shares four V pipes: c/B >= slots / 512.
 *    Per 128 B, AES-128: 152 AES + 26 PMULL + 8 EOR3 (keystream ^ rk[Nr]
 *    ^ data) + 8 counter inserts + 8 REV64 + store data (4 on V1 with STP,
 *    8 on V2) = 206 (V1); GHASH then needs >= 11 EOR3 to sum 24 products
 *    into LO/MI/HI, >= 8 ops for the Karatsuba halves (ours 12; schoolbook
 *    trades them for 8 PMULL), and >= 5 for the reduction (2 EXT + 2 EOR3
 *    + the Xi EXT; ours 6 with the Karatsuba correction) + 1 Xi merge:
 *    floor ~231 slots = 0.451 c/B = 1.24x 3.0's 0.560 (V2: 235, 1.22x).
 *    Ours: 237 slots on V1 (0.463, 1.21x), 241 on V2 (0.471, 1.19x). The
 *    target 1.3x = 0.431 c/B = 220 slots: INFEASIBLE in the model for
 *    AES-128 by ~11 slots. AES-256: 1.3x of 3.0's 0.677-0.708 = 0.521-
 *    0.545 c/B = 267-279 slots; the floor is 216 AES (14 AESE + 13 AESMC
 *    per block) + 26 PMULL + 28/32 (XOR, counter, REV64, stores) + 25
 *    (GHASH sums, halves, reduction) = 295 (V1, 0.576 c/B) / 299 (V2,
 *    0.584 c/B): INFEASIBLE.
 *    Counters from memory (see above) would be the one remaining lever
 *    (-8 slots). >= 1.0x 3.5.7: met on V1, V2, N2 and Ampere1.
 *
 * CT: no branch or memory address depends on the key, H, Xi, the counter
 * or the data; only the block count and the key length (rounds) select
 * paths. AESE/AESMC, PMULL, EOR3 and the other vector instructions used
 * have data-independent timing on the cores above.
 */
#include "fc_asm.h"
#include "fc/asm_offsets.h"

#if defined(__aarch64__)

#if defined(__AARCH64EB__)
#error "aes_gcm_ce.S assumes little-endian (LDR Q == LD1 .16b)"
#endif

	.arch	armv8.2-a+crypto+sha3

/* Offsets into the htable (see "htable layout" above). */
#define HT_LOOP   0
#define HT_SINGLE 192

/* Load the address of a local symbol (ELF and Mach-O spellings). */
#if defined(__APPLE__)
#define LOAD_ADDR(reg, sym) adrp reg, sym@PAGE; add reg, reg, sym@PAGEOFF
#else
#define LOAD_ADDR(reg, sym) adrp reg, sym; add reg, reg, :lo12:sym
#endif

/* ------------------------------------------------------------------------
 * Constants
 * ------------------------------------------------------------------------ */
	FC_RODATA
	.balign	16
.Lgcm_consts:
/* +0: the counter increment (0,0,0,1) as four 32-bit lanes. */
	.long	0, 0, 0, 1
/* +16: K = 0xc200000000000000, the reduction constant, in lane 0. */
	.quad	0xc200000000000000, 0

/* ------------------------------------------------------------------------
 * Register names (shared by every function below; a function that takes
 * its arguments elsewhere moves them into place first).
 * ------------------------------------------------------------------------ */
KEY	.req	x0	// fc_gcm_key: round keys at +0, rounds at +240
IN	.req	x1	// input blocks
OUT	.req	x2	// output blocks
N8	.req	x3	// full 8-block groups left
CTRP	.req	x4	// counter block (read once)
XIP	.req	x5	// xi (read at entry, written at exit)
NT	.req	x6	// tail blocks (0..7)
HT	.req	x7	// htable
CONST	.req	x8	// .Lgcm_consts
NR	.req	x9	// rounds: 10, 12 or 14
NRW	.req	w9
GSRC	.req	x10	// next 8 blocks to hash
TT	.req	x11	// tail pointer into the single table (walks down)
KEYX	.req	x12	// scratch: address of rk[Nr-10]
CLO	.req	x13	// counter block bytes 0..7
CMID	.req	x14	// counter block bytes 8..11, zero-extended
CNT	.req	w15	// counter block bytes 12..15 as a native number
CTMP	.req	x16	// scratch: counter block bytes 8..15
CTMPW	.req	w16

XI	.req	v8	// GHASH state, S form
LO	.req	v10	// Karatsuba accumulators (normal form)
MI	.req	v11
HI	.req	v12
/* v13..v20 are temporaries, named in each macro's contract. v17..v20 also
 * hold AES-256's rk0..rk3 (AES-192: v19, v20 = rk0, rk1) during a group's
 * first rounds. v21..v31 hold rk[Nr-10]..rk[Nr]; v30 = rk[Nr-1] (the lone
 * AESE), v31 = rk[Nr] (the final XOR). */

/* ------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------ */

/* ACC3 sha3, acc, a, b: acc ^= a ^ b. Without EOR3 a is clobbered (a ^ b
 * is formed first, off acc's chain). */
.macro ACC3 sha3, acc, a, b
.if \sha3
	eor3	\acc\().16b, \acc\().16b, \a\().16b, \b\().16b
.else
	eor	\a\().16b, \a\().16b, \b\().16b
	eor	\acc\().16b, \acc\().16b, \a\().16b
.endif
.endm

/* AESR1 s, k: one full round (AESE + AESMC, adjacent so they fuse). */
.macro AESR1 s, k
	aese	\s\().16b, \k\().16b
	aesmc	\s\().16b, \s\().16b
.endm

/* AESR8 k: one full round on v0..v7 with round key k. */
.macro AESR8 k
	AESR1	v0, \k
	AESR1	v1, \k
	AESR1	v2, \k
	AESR1	v3, \k
	AESR1	v4, \k
	AESR1	v5, \k
	AESR1	v6, \k
	AESR1	v7, \k
.endm

/* AESL8: the lone AESE of the last round (rk[Nr-1] = v30) on v0..v7; the
 * rk[Nr] XOR comes with the data XOR. */
.macro AESL8
	aese	v0.16b, v30.16b
	aese	v1.16b, v30.16b
	aese	v2.16b, v30.16b
	aese	v3.16b, v30.16b
	aese	v4.16b, v30.16b
	aese	v5.16b, v30.16b
	aese	v6.16b, v30.16b
	aese	v7.16b, v30.16b
.endm

/* CLR r: zero one vector register. */
.macro CLR r
	movi	\r\().16b, #0
.endm

/*
 * CTR8 sha3: v0..v7 = the next 8 counter blocks; CNT += 8 (mod 2^32,
 * inc32). Built in general registers: ADD, REV, ORR, then FMOV d<i> (bytes
 * 0..7; no vector pipe in any of the models) and an insert of bytes 8..15
 * into lane 1: FMOV v<i>.d[1] without sha3 (N1: one M-pipe uop, no vector
 * slot), INS (MOV) with it (the same two uops as FMOV on V1/V2/N2, one
 * cycle less latency on Ampere1). One vector slot per block on the
 * 4-pipe cores where ADD .4s + REV32 took two, none on N1.
 * In: CLO, CMID, CNT. Out: v0..v7, CNT. Clobbers: CTMP.
 */
.macro CTR1 sha3, i
	add	CTMPW, CNT, #\i
	rev	CTMPW, CTMPW
	orr	CTMP, CMID, CTMP, lsl #32
	fmov	d\i, CLO
.if \sha3
	mov	v\i\().d[1], CTMP
.else
	fmov	v\i\().d[1], CTMP
.endif
.endm

.macro CTR8 sha3
	CTR1	\sha3, 0
	CTR1	\sha3, 1
	CTR1	\sha3, 2
	CTR1	\sha3, 3
	CTR1	\sha3, 4
	CTR1	\sha3, 5
	CTR1	\sha3, 6
	CTR1	\sha3, 7
	add	CNT, CNT, #8
.endm

/*
 * EXTRA_ROUNDS: AES-192's 2 and AES-256's 4 first rounds on v0..v7, with
 * their round keys reloaded from KEY (a predicted branch on the public
 * round count). In: KEY, NRW. Clobbers: v17..v20 (AES-256), v19..v20
 * (AES-192).
 */
.macro EXTRA_ROUNDS
	tbz	NRW, #2, .Lxr_done\@		// Nr = 10 (0b1010): none
	tbz	NRW, #1, .Lxr_192\@		// Nr = 12 (0b1100): two
	ld1	{v17.16b-v20.16b}, [KEY]	// Nr = 14: rk0..rk3
	AESR8	v17
	AESR8	v18
	b	.Lxr_last2\@
.Lxr_192\@:
	ld1	{v19.16b, v20.16b}, [KEY]	// rk0, rk1
.Lxr_last2\@:
	AESR8	v19
	AESR8	v20
.Lxr_done\@:
.endm

/* ------------------------------------------------------------------------
 * GHASH steps. Temporaries: v13..v20. Step s of one 8-block group:
 *   s = 0, 2, 4, 6: GLOAD for pair p = 3 - s/2
 *   s = 1, 3, 5, 7: GMUL for that pair (s = 1 starts the accumulators)
 *   s = 8: RED_A (Karatsuba correction, fold LO into MI)
 *   s = 9: RED_B (fold MI into HI, Xi), GSRC += 128
 * ------------------------------------------------------------------------ */

/*
 * GLOAD p: load blocks 2p, 2p+1 from GSRC (not advanced), bring them to S
 * form, merge Xi into block 0, load P_(8-2p), P_(7-2p) and their k pair,
 * and form both blocks' halves a0 ^ a1.
 * In: GSRC, HT, XI (p = 0). Out: v13, v14 (blocks), v15, v16 (powers),
 * v17 (k pair), v18 (halves). Clobbers: v19.
 */
.macro GLOAD p
	ldp	q13, q14, [GSRC, #(32 * \p)]
	ldp	q15, q16, [HT, #(HT_LOOP + 48 * \p)]
	ldr	q17, [HT, #(HT_LOOP + 48 * \p + 32)]
	rev64	v13.16b, v13.16b
	rev64	v14.16b, v14.16b
.if \p == 0
	eor	v13.16b, v13.16b, XI.16b
.endif
	trn1	v18.2d, v13.2d, v14.2d		// (a1, b1)
	trn2	v19.2d, v13.2d, v14.2d		// (a0, b0)
	eor	v18.16b, v18.16b, v19.16b	// (a0 ^ a1, b0 ^ b1)
.endm

/*
 * GMUL sha3, first: the six products of the pair GLOAD left in v13..v18,
 * added into LO, MI, HI (or starting them if |first|).
 * In: v13..v18. Out: LO, MI, HI. Clobbers: v13..v19.
 */
.macro GMUL sha3, first
	pmull	v19.1q, v18.1d, v17.1d		// middle of block a
	pmull2	v18.1q, v18.2d, v17.2d		// middle of block b
	pmull	v17.1q, v13.1d, v15.1d		// a1 * h1 (HI of block a)
	pmull2	v13.1q, v13.2d, v15.2d		// a0 * h0 (LO of block a)
	pmull	v15.1q, v14.1d, v16.1d		// HI of block b
	pmull2	v14.1q, v14.2d, v16.2d		// LO of block b
.if \first
	eor	MI.16b, v19.16b, v18.16b
	eor	HI.16b, v17.16b, v15.16b
	eor	LO.16b, v13.16b, v14.16b
.else
	ACC3	\sha3, MI, v19, v18
	ACC3	\sha3, HI, v17, v15
	ACC3	\sha3, LO, v13, v14
.endif
.endm

/*
 * RED_A sha3: MI = MI ^ LO ^ HI (Karatsuba correction), then fold LO into
 * MI. In: LO, MI, HI, CONST. Out: MI, v20 = K (kept for RED_B).
 * Clobbers: v13, v14.
 */
.macro RED_A sha3
	ldr	d20, [CONST, #16]
.if \sha3
	eor3	MI.16b, MI.16b, LO.16b, HI.16b
.else
	eor	v13.16b, LO.16b, HI.16b
	eor	MI.16b, MI.16b, v13.16b
.endif
	pmull	v13.1q, LO.1d, v20.1d
	ext	v14.16b, LO.16b, LO.16b, #8
	ACC3	\sha3, MI, v13, v14
.endm

/*
 * RED_B sha3: fold MI into HI; Xi = the reduced product in S form.
 * In: MI, HI, v20 = K. Out: XI, HI. Clobbers: v13, v14.
 */
.macro RED_B sha3
	pmull	v13.1q, MI.1d, v20.1d
	ext	v14.16b, MI.16b, MI.16b, #8
	ACC3	\sha3, HI, v13, v14
	ext	XI.16b, HI.16b, HI.16b, #8
.endm

/* GSTEP sha3, s: GHASH step s (see above). */
.macro GSTEP sha3, s
.if \s == 0
	GLOAD	3
.elseif \s == 1
	GMUL	\sha3, 1
.elseif \s == 2
	GLOAD	2
.elseif \s == 3
	GMUL	\sha3, 0
.elseif \s == 4
	GLOAD	1
.elseif \s == 5
	GMUL	\sha3, 0
.elseif \s == 6
	GLOAD	0
.elseif \s == 7
	GMUL	\sha3, 0
.elseif \s == 8
	RED_A	\sha3
.else
	RED_B	\sha3
	add	GSRC, GSRC, #128
.endif
.endm

/* GHASH8 sha3: Xi = GHASH of the 8 blocks at GSRC, GSRC += 128.
 * In: XI, GSRC, HT, CONST. Out: XI, GSRC. Clobbers: LO, MI, HI, v13..v20. */
.macro GHASH8 sha3
	GSTEP	\sha3, 0
	GSTEP	\sha3, 1
	GSTEP	\sha3, 2
	GSTEP	\sha3, 3
	GSTEP	\sha3, 4
	GSTEP	\sha3, 5
	GSTEP	\sha3, 6
	GSTEP	\sha3, 7
	GSTEP	\sha3, 8
	GSTEP	\sha3, 9
.endm

/*
 * GH1 first: add one S-form block in v14 (Xi already merged if it is the
 * first) times the power at TT into LO/MI/HI (or start them), TT -= 32.
 * In: v14, TT. Out: LO, MI, HI, TT. Clobbers: v15..v19.
 */
.macro GH1 first
	ldp	q15, q16, [TT], #-32		// P_i, (k_i, k_i)
	ext	v17.16b, v14.16b, v14.16b, #8
	eor	v17.16b, v17.16b, v14.16b	// a0 ^ a1 in both lanes
.if \first
	pmull2	LO.1q, v14.2d, v15.2d
	pmull	HI.1q, v14.1d, v15.1d
	pmull	MI.1q, v17.1d, v16.1d
.else
	pmull2	v18.1q, v14.2d, v15.2d
	pmull	v19.1q, v14.1d, v15.1d
	pmull	v17.1q, v17.1d, v16.1d
	eor	LO.16b, LO.16b, v18.16b
	eor	HI.16b, HI.16b, v19.16b
	eor	MI.16b, MI.16b, v17.16b
.endif
.endm

/* ------------------------------------------------------------------------
 * CTR passes and stores
 * ------------------------------------------------------------------------ */

/*
 * PASS sha3, gh: v0..v7 = the next 8 counter blocks through all rounds but
 * the final rk[Nr] XOR; with |gh|, interleaved with GHASH8 of GSRC.
 * In: CTR, KEY, NRW, v21..v31, CONST (+ XI, GSRC, HT). Out: v0..v7, CTR
 * (+ XI, GSRC). Clobbers: v13..v20 (+ LO, MI, HI).
 */
.macro PASS sha3, gh
	CTR8	\sha3
	EXTRA_ROUNDS
	AESR8	v21
.if \gh
	GSTEP	\sha3, 0
.endif
	AESR8	v22
.if \gh
	GSTEP	\sha3, 1
.endif
	AESR8	v23
.if \gh
	GSTEP	\sha3, 2
.endif
	AESR8	v24
.if \gh
	GSTEP	\sha3, 3
.endif
	AESR8	v25
.if \gh
	GSTEP	\sha3, 4
.endif
	AESR8	v26
.if \gh
	GSTEP	\sha3, 5
.endif
	AESR8	v27
.if \gh
	GSTEP	\sha3, 6
.endif
	AESR8	v28
.if \gh
	GSTEP	\sha3, 7
.endif
	AESR8	v29
.if \gh
	GSTEP	\sha3, 8
.endif
	AESL8
.if \gh
	GSTEP	\sha3, 9
.endif
.endm

/* XOUT1 sha3, s, d: s ^= rk[Nr] ^ d (the keystream's last XOR and the data
 * XOR). Without EOR3, d ^ rk[Nr] is formed first, off the AES chain;
 * d is clobbered. */
.macro XOUT1 sha3, s, d
.if \sha3
	eor3	\s\().16b, \s\().16b, \d\().16b, v31.16b
.else
	eor	\d\().16b, \d\().16b, v31.16b
	eor	\s\().16b, \s\().16b, \d\().16b
.endif
.endm

/*
 * STORE8 sha3: 8 blocks out = in ^ keystream (v0..v7 ^ rk[Nr]).
 * In: v0..v7, v31, IN, OUT. Out: IN += 128, OUT += 128.
 * Clobbers: v0..v7, v13..v20.
 */
.macro STORE8 sha3
	ld1	{v13.16b-v16.16b}, [IN], #64
	ld1	{v17.16b-v20.16b}, [IN], #64
	XOUT1	\sha3, v0, v13
	XOUT1	\sha3, v1, v14
	XOUT1	\sha3, v2, v15
	XOUT1	\sha3, v3, v16
	XOUT1	\sha3, v4, v17
	XOUT1	\sha3, v5, v18
	XOUT1	\sha3, v6, v19
	XOUT1	\sha3, v7, v20
.if \sha3
	stp	q0, q1, [OUT]
	stp	q2, q3, [OUT, #32]
	stp	q4, q5, [OUT, #64]
	stp	q6, q7, [OUT, #96]
.else
	stur	q0, [OUT]
	stur	q1, [OUT, #16]
	stur	q2, [OUT, #32]
	stur	q3, [OUT, #48]
	stur	q4, [OUT, #64]
	stur	q5, [OUT, #80]
	stur	q6, [OUT, #96]
	stur	q7, [OUT, #112]
.endif
	add	OUT, OUT, #128
.endm

/*
 * TAIL1 sha3, dec, first, s: one tail block with keystream lane s: load,
 * XOR, store, and hash it (the input if |dec|, else the output).
 * In: s, v31, IN, OUT, TT, XI (first). Out: LO, MI, HI, IN, OUT, TT.
 * Clobbers: s, v13..v19.
 */
.macro TAIL1 sha3, dec, first, s
	ldr	q13, [IN], #16
.if \dec
	rev64	v14.16b, v13.16b
.endif
	XOUT1	\sha3, \s, v13
	st1	{\s\().16b}, [OUT], #16
.if !\dec
	rev64	v14.16b, \s\().16b
.endif
.if \first
	eor	v14.16b, v14.16b, XI.16b
.endif
	GH1	\first
.endm

/*
 * TAIL sha3, dec: the last NT (1..7) blocks, keystream in v0..v6: XOR,
 * store, hash with H^NT..H^1 unreduced, one reduction into Xi.
 * In: NT, HT, IN, OUT, XI, v0..v6, v31, CONST. Out: XI.
 * Clobbers: NT, TT, LO, MI, HI, v0..v6, v13..v20.
 */
.macro TAIL sha3, dec
	add	TT, HT, NT, lsl #5
	add	TT, TT, #(HT_SINGLE - 32)	// -> P_NT
	TAIL1	\sha3, \dec, 1, v0
	subs	NT, NT, #1
	b.eq	.Ltail_red\@
	TAIL1	\sha3, \dec, 0, v1
	subs	NT, NT, #1
	b.eq	.Ltail_red\@
	TAIL1	\sha3, \dec, 0, v2
	subs	NT, NT, #1
	b.eq	.Ltail_red\@
	TAIL1	\sha3, \dec, 0, v3
	subs	NT, NT, #1
	b.eq	.Ltail_red\@
	TAIL1	\sha3, \dec, 0, v4
	subs	NT, NT, #1
	b.eq	.Ltail_red\@
	TAIL1	\sha3, \dec, 0, v5
	subs	NT, NT, #1
	b.eq	.Ltail_red\@
	TAIL1	\sha3, \dec, 0, v6
.Ltail_red\@:
	RED_A	\sha3
	RED_B	\sha3
.endm

/* ------------------------------------------------------------------------
 * Prologue / epilogue of the functions that use v8..v15.
 * ------------------------------------------------------------------------ */
.macro SAVE_D8_D15
	stp	d8, d9, [sp, #-64]!
	.cfi_def_cfa_offset 64
	.cfi_offset d8, -64
	.cfi_offset d9, -56
	stp	d10, d11, [sp, #16]
	.cfi_offset d10, -48
	.cfi_offset d11, -40
	stp	d12, d13, [sp, #32]
	.cfi_offset d12, -32
	.cfi_offset d13, -24
	stp	d14, d15, [sp, #48]
	.cfi_offset d14, -16
	.cfi_offset d15, -8
.endm

/* Zero v0..v7 and v16..v31, then reload d8..d15 (clearing v8..v15's upper
 * halves too). */
.macro WIPE_RESTORE
	CLR	v0
	CLR	v1
	CLR	v2
	CLR	v3
	CLR	v4
	CLR	v5
	CLR	v6
	CLR	v7
	CLR	v16
	CLR	v17
	CLR	v18
	CLR	v19
	CLR	v20
	CLR	v21
	CLR	v22
	CLR	v23
	CLR	v24
	CLR	v25
	CLR	v26
	CLR	v27
	CLR	v28
	CLR	v29
	CLR	v30
	CLR	v31
	ldp	d10, d11, [sp, #16]
	ldp	d12, d13, [sp, #32]
	ldp	d14, d15, [sp, #48]
	ldp	d8, d9, [sp], #64
	.cfi_def_cfa_offset 0
	.cfi_restore d8
	.cfi_restore d9
	.cfi_restore d10
	.cfi_restore d11
	.cfi_restore d12
	.cfi_restore d13
	.cfi_restore d14
	.cfi_restore d15
.endm

/*
 * SETUP_CTR: common entry work of enc/dec: rounds, htable, constants, Xi
 * and CTR, the resident round keys, the group/tail split.
 * In: KEY, CTRP, XIP, N8 (= blocks). Out: NR, HT, CONST, XI, CTR, v21..v31,
 * N8 = blocks / 8, NT = blocks % 8. Clobbers: KEYX.
 */
.macro SETUP_CTR
	ldr	NRW, [KEY, #FC_OFF_AES_ROUNDS]
	add	HT, KEY, #FC_OFF_GCM_HTABLE
	LOAD_ADDR(CONST, .Lgcm_consts)
	ld1	{XI.16b}, [XIP]
	rev64	XI.16b, XI.16b
	ldr	CLO, [CTRP]
	ldr	w14, [CTRP, #8]			// CMID, upper half zeroed
	ldr	CNT, [CTRP, #12]
	rev	CNT, CNT
	add	KEYX, KEY, NR, lsl #4
	sub	KEYX, KEYX, #160		// rk[Nr - 10]
	ld1	{v21.16b-v24.16b}, [KEYX], #64
	ld1	{v25.16b-v28.16b}, [KEYX], #64
	ld1	{v29.16b-v31.16b}, [KEYX]
	and	NT, N8, #7
	lsr	N8, N8, #3
.endm

/* ------------------------------------------------------------------------
 * Function bodies
 * ------------------------------------------------------------------------ */

/*
 * void fc_gcm_enc_ce[_sha3](const fc_gcm_key *key, const uint8_t *in,
 *                           uint8_t *out, size_t blocks,
 *                           const uint8_t ctr[16], uint8_t xi[16]);
 * Encrypts |blocks| whole blocks (0 is a no-op) and absorbs the ciphertext
 * into xi. in == out allowed, no other overlap. Reads ctr, never writes
 * it. Schedule: group 0's AES alone; then each pass runs the next group's
 * (or the tail's) AES with the previous group's GHASH; a last group with
 * no tail is hashed alone.
 */
.macro GCM_ENC sha3
	cbz	N8, .Lenc_ret\@
	SAVE_D8_D15
	SETUP_CTR
	mov	GSRC, OUT
	PASS	\sha3, 0
	cbz	N8, .Lenc_tail\@		// fewer than 8 blocks
	STORE8	\sha3
	sub	N8, N8, #1
.Lenc_loop\@:
	cbnz	N8, .Lenc_more\@
	cbz	NT, .Lenc_drain\@
.Lenc_more\@:
	PASS	\sha3, 1			// AES of the next group or tail,
	cbz	N8, .Lenc_tail\@		// GHASH of the previous group
	STORE8	\sha3
	sub	N8, N8, #1
	b	.Lenc_loop\@
.Lenc_drain\@:
	GHASH8	\sha3
	b	.Lenc_done\@
.Lenc_tail\@:
	TAIL	\sha3, 0
.Lenc_done\@:
	rev64	XI.16b, XI.16b
	st1	{XI.16b}, [XIP]
	WIPE_RESTORE
.Lenc_ret\@:
	ret
.endm

/*
 * void fc_gcm_dec_ce[_sha3](const fc_gcm_key *key, const uint8_t *in,
 *                           uint8_t *out, size_t blocks,
 *                           const uint8_t ctr[16], uint8_t xi[16]);
 * Absorbs |blocks| ciphertext blocks into xi and decrypts them (0 is a
 * no-op). in == out allowed (each group is hashed before it is stored), no
 * other overlap. Reads ctr, never writes it.
 */
.macro GCM_DEC sha3
	cbz	N8, .Ldec_ret\@
	SAVE_D8_D15
	SETUP_CTR
	mov	GSRC, IN
.Ldec_loop\@:
	cbz	N8, .Ldec_tail\@
	PASS	\sha3, 1			// AES and GHASH of one group
	STORE8	\sha3
	sub	N8, N8, #1
	b	.Ldec_loop\@
.Ldec_tail\@:
	cbz	NT, .Ldec_done\@
	PASS	\sha3, 0
	TAIL	\sha3, 1
.Ldec_done\@:
	rev64	XI.16b, XI.16b
	st1	{XI.16b}, [XIP]
	WIPE_RESTORE
.Ldec_ret\@:
	ret
.endm

/*
 * void fc_ghash_ce[_sha3](const uint8_t *htable, uint8_t xi[16],
 *                         const uint8_t *in, size_t blocks);
 * For each of |blocks| blocks b: xi = (xi ^ b) * H. 8 blocks per reduction,
 * then the tail with one reduction.
 */
.macro GHASH_BODY sha3
	cbz	x3, .Lgh_ret\@
	SAVE_D8_D15
	mov	HT, x0
	mov	XIP, x1
	mov	GSRC, x2
	and	NT, x3, #7
	lsr	N8, x3, #3
	LOAD_ADDR(CONST, .Lgcm_consts)
	ld1	{XI.16b}, [XIP]
	rev64	XI.16b, XI.16b
.Lgh_loop\@:
	cbz	N8, .Lgh_tail\@
	GHASH8	\sha3
	sub	N8, N8, #1
	b	.Lgh_loop\@
.Lgh_tail\@:
	cbz	NT, .Lgh_done\@
	add	TT, HT, NT, lsl #5
	add	TT, TT, #(HT_SINGLE - 32)	// -> P_NT
	ldr	q14, [GSRC], #16
	rev64	v14.16b, v14.16b
	eor	v14.16b, v14.16b, XI.16b
	GH1	1
	subs	NT, NT, #1
	b.eq	.Lgh_red\@
.Lgh_tail_loop\@:
	ldr	q14, [GSRC], #16
	rev64	v14.16b, v14.16b
	GH1	0
	subs	NT, NT, #1
	b.ne	.Lgh_tail_loop\@
.Lgh_red\@:
	RED_A	\sha3
	RED_B	\sha3
.Lgh_done\@:
	rev64	XI.16b, XI.16b
	st1	{XI.16b}, [XIP]
	WIPE_RESTORE
.Lgh_ret\@:
	ret
.endm

/* ------------------------------------------------------------------------
 * void fc_gcm_init_ce(uint8_t *htable, const uint8_t h[16]);
 * Fills the htable (layout above) from H = E(K, 0^128): P_1 = H * x^-1,
 * P_(i+1) = mul(P_i, P_1), k_i = the XOR of P_i's halves.
 * Registers: x0 htable, x1 h, x2..x8 scratch; v16..v23 = P_1..P_8,
 * v24..v31 = (k_i, k_i), v0..v5 scratch, v6 = K. Uses no v8..v15.
 * ------------------------------------------------------------------------ */

/* GFMUL_S d, a, b: d = mul(a, b), all S form (Karatsuba, both folds).
 * In: a, b, v6 = K. Out: d. Clobbers: v0..v4. */
.macro GFMUL_S d, a, b
	pmull	v0.1q, \a\().1d, \b\().1d		// HI
	pmull2	v1.1q, \a\().2d, \b\().2d		// LO
	ext	v2.16b, \a\().16b, \a\().16b, #8
	eor	v2.16b, v2.16b, \a\().16b
	ext	v3.16b, \b\().16b, \b\().16b, #8
	eor	v3.16b, v3.16b, \b\().16b
	pmull	v2.1q, v2.1d, v3.1d			// middle
	eor	v2.16b, v2.16b, v0.16b
	eor	v2.16b, v2.16b, v1.16b			// MI
	pmull	v3.1q, v1.1d, v6.1d
	ext	v4.16b, v1.16b, v1.16b, #8
	eor	v2.16b, v2.16b, v3.16b
	eor	v2.16b, v2.16b, v4.16b			// LO folded
	pmull	v3.1q, v2.1d, v6.1d
	ext	v4.16b, v2.16b, v2.16b, #8
	eor	v0.16b, v0.16b, v3.16b
	eor	v0.16b, v0.16b, v4.16b			// MI folded
	ext	\d\().16b, v0.16b, v0.16b, #8
.endm

/* KHALF k, p: k = (p0 ^ p1, p0 ^ p1). */
.macro KHALF k, p
	ext	\k\().16b, \p\().16b, \p\().16b, #8
	eor	\k\().16b, \k\().16b, \p\().16b
.endm

FC_FUNC_START(fc_gcm_init_ce)
	ldp	x2, x3, [x1]
	rev	x2, x2				// a1 = BE64(h[0..7])
	rev	x3, x3				// a0 = BE64(h[8..15])
	asr	x4, x2, #63			// all ones iff bit 127 is set
	extr	x5, x2, x3, #63			// (a1 << 1) | (a0 >> 63)
	lsl	x6, x3, #1
	mov	x8, #0xc200000000000000
	and	x7, x4, #1
	and	x4, x4, x8
	eor	x6, x6, x7			// + rev128(x^-1) when bit 127
	eor	x5, x5, x4			// fell out: H * x^-1
	fmov	d16, x5				// P_1 in S form: (hi, lo)
	mov	v16.d[1], x6
	fmov	d6, x8				// K
	GFMUL_S	v17, v16, v16			// P_2
	GFMUL_S	v18, v17, v16			// P_3
	GFMUL_S	v19, v18, v16
	GFMUL_S	v20, v19, v16
	GFMUL_S	v21, v20, v16
	GFMUL_S	v22, v21, v16
	GFMUL_S	v23, v22, v16			// P_8
	KHALF	v24, v16
	KHALF	v25, v17
	KHALF	v26, v18
	KHALF	v27, v19
	KHALF	v28, v20
	KHALF	v29, v21
	KHALF	v30, v22
	KHALF	v31, v23
	/* Loop table: (P_8, P_7, (k_8, k_7)), (P_6, P_5, ...), ... */
	zip1	v0.2d, v31.2d, v30.2d
	zip1	v1.2d, v29.2d, v28.2d
	zip1	v2.2d, v27.2d, v26.2d
	zip1	v3.2d, v25.2d, v24.2d
	stp	q23, q22, [x0, #(HT_LOOP + 0)]
	str	q0, [x0, #(HT_LOOP + 32)]
	stp	q21, q20, [x0, #(HT_LOOP + 48)]
	str	q1, [x0, #(HT_LOOP + 80)]
	stp	q19, q18, [x0, #(HT_LOOP + 96)]
	str	q2, [x0, #(HT_LOOP + 128)]
	stp	q17, q16, [x0, #(HT_LOOP + 144)]
	str	q3, [x0, #(HT_LOOP + 176)]
	/* Single table: (P_i, (k_i, k_i)) for i = 1..8. */
	stp	q16, q24, [x0, #(HT_SINGLE + 0)]
	stp	q17, q25, [x0, #(HT_SINGLE + 32)]
	stp	q18, q26, [x0, #(HT_SINGLE + 64)]
	stp	q19, q27, [x0, #(HT_SINGLE + 96)]
	stp	q20, q28, [x0, #(HT_SINGLE + 128)]
	stp	q21, q29, [x0, #(HT_SINGLE + 160)]
	stp	q22, q30, [x0, #(HT_SINGLE + 192)]
	stp	q23, q31, [x0, #(HT_SINGLE + 224)]
	/* H-derived values leave no trace in registers. */
	mov	x2, xzr
	mov	x3, xzr
	mov	x4, xzr
	mov	x5, xzr
	mov	x6, xzr
	mov	x7, xzr
	CLR	v0
	CLR	v1
	CLR	v2
	CLR	v3
	CLR	v4
	CLR	v16
	CLR	v17
	CLR	v18
	CLR	v19
	CLR	v20
	CLR	v21
	CLR	v22
	CLR	v23
	CLR	v24
	CLR	v25
	CLR	v26
	CLR	v27
	CLR	v28
	CLR	v29
	CLR	v30
	CLR	v31
	ret
FC_FUNC_END(fc_gcm_init_ce)

FC_FUNC_START(fc_ghash_ce)
	GHASH_BODY 0
FC_FUNC_END(fc_ghash_ce)

FC_FUNC_START(fc_ghash_ce_sha3)
	GHASH_BODY 1
FC_FUNC_END(fc_ghash_ce_sha3)

FC_FUNC_START(fc_gcm_enc_ce)
	GCM_ENC 0
FC_FUNC_END(fc_gcm_enc_ce)

FC_FUNC_START(fc_gcm_enc_ce_sha3)
	GCM_ENC 1
FC_FUNC_END(fc_gcm_enc_ce_sha3)

FC_FUNC_START(fc_gcm_dec_ce)
	GCM_DEC 0
FC_FUNC_END(fc_gcm_dec_ce)

FC_FUNC_START(fc_gcm_dec_ce_sha3)
	GCM_DEC 1
FC_FUNC_END(fc_gcm_dec_ce_sha3)

#endif /* __aarch64__ */
