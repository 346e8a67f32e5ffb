#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# speed_alone.sh [BUILD_DIR] - `openssl speed -provider fastcrypto ...` as a
# user types it, with no other provider loaded (fastcrypto's own CTR-DRBG
# serves the random numbers speed needs): each run must exit 0 and print its
# results table, and the counters must show fastcrypto did the work.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
out=$tmp/out
speed() { # speed NAME COUNTER ARGS...
    local name=$1 counter=$2
    shift 2
    if FASTCRYPTO_STATS=1 OPENSSL_CONF=/dev/null timeout 300 openssl speed \
        -seconds 1 -provider-path "$mod" -provider fastcrypto "$@" \
        >"$out" 2>&1 &&
        grep -qE "^(type|  *sign)" "$out" &&
        grep -qE "fastcrypto: stats .* $counter=[1-9]" "$out"; then
        ok "speed $name"
    else
        bad "speed $name"
        tail -5 "$out"
    fi
}
speed "-evp aes-128-gcm" aes-gcm-enc -evp aes-128-gcm
speed "-evp aes-256-gcm -decrypt" aes-gcm-dec -evp aes-256-gcm -decrypt
speed "-evp aes-256-cbc" aes-cbc-enc -evp aes-256-cbc
speed "-evp aes-128-cbc -decrypt" aes-cbc-dec -evp aes-128-cbc -decrypt
speed "rsa2048 rsa3072 rsa4096" rsa-sign rsa2048 rsa3072 rsa4096
e2e_done
