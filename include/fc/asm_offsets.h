/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fc/asm_offsets.h - structure offsets read by assembly. Plain #defines so
 * .S files can include this; each is pinned by a _Static_assert next to the
 * structure's definition (provider/core/aes.c and friends).
 */
#ifndef FC_ASM_OFFSETS_H
#define FC_ASM_OFFSETS_H

/* fc_aes_key (fc/aes.h) */
#define FC_OFF_AES_RK     0
#define FC_OFF_AES_ROUNDS 240
#define FC_SIZEOF_AES_KEY 256

/* fc_gcm_key (fc/gcm.h) */
#define FC_OFF_GCM_AES    0
#define FC_OFF_GCM_HTABLE 256

#endif /* FC_ASM_OFFSETS_H */
