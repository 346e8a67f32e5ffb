/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_engine_arm64.c - the arm64 engine (fc/rsa_engine.h): the MUL/UMULH
 * Montgomery kernels of asm/aarch64/bn_mont.S, and the CRT halves one
 * after the other through fc_bn_mod_exp on them.
 */
#include "fc/bn.h"
#include "fc/rsa_engine.h"

#if defined(__aarch64__) && !defined(FC_NO_ASM)

/* Base ARMv8.0 instructions only, so no capability bit. The kernels
 * handle any n % 4 == 0 from 4 up; min_limbs 8 keeps the x86-64 table's
 * size rule, which the table checks of test_bn_mont.c assume. Only the
 * 4-limb CRT halves of RSA-512 go to the generic engine because of it. */
static const fc_bn_ops fc_bn_ops_arm64 = {
    .name = "arm64",
    .required_caps = 0,
    .limb_multiple = 4,
    .min_limbs = 8,
    .mul = fc_bn_mul_mont_arm64,
    .sqr = fc_bn_sqr_mont_arm64,
};

const fc_rsa_engine fc_rsa_engine_arm64 = {
    .name = "arm64",
    .tier = FC_TIER_SCALAR,
    .required_caps = 0,
    .kernels = &fc_bn_ops_arm64,
    .exp2 = fc_rsa_exp2_scalar,
};

#endif
