/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rsa_engine_mulx.c - the MULX engine (fc/rsa_engine.h): the MULX/ADX
 * Montgomery kernels of asm/x86_64/bn_mont_mulx.S for every size they
 * take (n % 4 == 0, n >= 8), and the CRT halves one after the other
 * through fc_bn_mod_exp on them.
 */
#include "fc/bn.h"
#include "fc/cpu.h"
#include "fc/rsa_engine.h"

#if defined(__x86_64__) && !defined(FC_NO_ASM)

static const fc_bn_ops fc_bn_ops_mulx = {
    .name = "mulx",
    .required_caps = FC_CAP_BMI2 | FC_CAP_ADX,
    .limb_multiple = 4,
    .min_limbs = 8,
    .mul = fc_bn_mul_mont_mulx,
    .sqr = fc_bn_sqr_mont_mulx,
};

const fc_rsa_engine fc_rsa_engine_mulx = {
    .name = "mulx",
    .tier = FC_TIER_SCALAR,
    .required_caps = FC_CAP_BMI2 | FC_CAP_ADX,
    .kernels = &fc_bn_ops_mulx,
    .exp2 = fc_rsa_exp2_scalar,
};

#endif
