#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# smoke.sh [BUILD_DIR] - the `openssl` binary first in PATH (the stock one,
# or a newer one: scripts/newer_openssl.sh) loads fastcrypto.so from
# BUILD_DIR, lists its algorithms, and its ciphers give byte-identical
# results to the default provider's. Exits non-zero on any difference.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
prov=(-provider-path "$mod" -provider fastcrypto -provider default)

echo "-- openssl list -providers"
openssl list -providers -verbose "${prov[@]}" | tee "$tmp/providers"
grep -q "fastcrypto" "$tmp/providers"
grep -A3 "fastcrypto" "$tmp/providers" | grep -q "status: active"

echo "-- ciphers @ fastcrypto"
openssl list -cipher-algorithms "${prov[@]}" | grep "@ fastcrypto" | tee "$tmp/ciphers"
for c in AES-128-CBC AES-192-CBC AES-256-CBC AES-128-CTR AES-192-CTR \
    AES-256-CTR; do
    grep -q "$c" "$tmp/ciphers" || { echo "missing $c @ fastcrypto" >&2; exit 1; }
done

echo "-- openssl enc: fastcrypto vs default"
head -c 100000 /dev/urandom >"$tmp/plain"
for mode in cbc ctr; do
    for bits in 128 192 256; do
        key=$(openssl rand -hex $((bits / 8)))
        iv=$(openssl rand -hex 16)
        # CTR also from a counter two blocks before a wrap of all 128 bits.
        [ "$mode" = ctr ] && [ "$bits" = 128 ] && iv=fffffffffffffffffffffffffffffffe
        for len in 0 1 15 16 17 4096 100000; do
            head -c "$len" "$tmp/plain" >"$tmp/p"
            for who in fastcrypto default; do
                openssl enc -aes-$bits-$mode -K "$key" -iv "$iv" "${prov[@]}" \
                    -propquery "provider=$who" -in "$tmp/p" -out "$tmp/c.$who"
            done
            cmp -s "$tmp/c.fastcrypto" "$tmp/c.default" ||
                { echo "aes-$bits-$mode len $len: ciphertexts differ" >&2; exit 1; }
            openssl enc -d -aes-$bits-$mode -K "$key" -iv "$iv" "${prov[@]}" \
                -propquery provider=fastcrypto -in "$tmp/c.default" -out "$tmp/d"
            cmp -s "$tmp/d" "$tmp/p" ||
                { echo "aes-$bits-$mode len $len: decrypt differs" >&2; exit 1; }
        done
        echo "aes-$bits-$mode: identical to default (7 lengths, both directions)"
    done
done
