#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fastcrypto-check - exit 0 only if the OpenSSL configuration in force
# (OPENSSL_CONF, or the system openssl.cnf) loads fastcrypto AND makes
# programs prefer it. It asks `openssl list` whether the provider is active,
# then encrypts one block through a stock `openssl enc` with
# FASTCRYPTO_STATS=1 and requires fastcrypto's own counter to show it did
# the work: a provider that is loaded but not preferred fails too.
set -eu
OPENSSL=${OPENSSL:-openssl}

if ! "$OPENSSL" list -providers 2>/dev/null | grep -A3 '^  fastcrypto' |
    grep -q 'status: active'; then
    echo "fastcrypto-check: FAIL: fastcrypto is not loaded (openssl list -providers)" >&2
    exit 1
fi
line=$(FASTCRYPTO_STATS=1 "$OPENSSL" enc -aes-256-cbc \
    -K 0000000000000000000000000000000000000000000000000000000000000000 \
    -iv 00000000000000000000000000000000 </dev/null 2>&1 >/dev/null |
    grep 'fastcrypto: stats' || true)
case "$line" in
*" aes-cbc-enc=0 "* | "")
    echo "fastcrypto-check: FAIL: fastcrypto is loaded but not preferred" \
        "(set default_properties = ?provider=fastcrypto)" >&2
    exit 1
    ;;
esac
echo "fastcrypto-check: ok: fastcrypto is loaded and preferred"
echo "  ${line#fastcrypto: stats }" | cut -c1-200
