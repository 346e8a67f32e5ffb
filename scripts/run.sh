#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run.sh - the main job: build fastcrypto, load it into the stock `openssl`,
# show that it is active and agrees with the default provider, then print the
# side-by-side benchmark (fastcrypto vs default, same run, interleaved).
# Options are passed to scripts/bench.sh (e.g. --quick, --rounds 5).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
. scripts/deps.sh
fc_install_deps "${FC_BUILD_DEPS[@]}"

echo "== build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"

echo
echo "== load into the stock openssl ($(openssl version))"
test/e2e/smoke.sh build

echo
echo "== benchmark: fastcrypto vs default"
exec scripts/bench.sh --build-dir build "$@"
