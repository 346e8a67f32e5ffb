#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_ct.sh [BUILD_DIR] - valgrind memcheck over every test binary of the
# constant-time build, so that a memory error, a leak, or a branch or memory
# index that depends on a secret fails: the FASTCRYPTO_CT_VALGRIND=ON
# build (FC_CT_SECRET/FC_CT_PUBLIC become memcheck client requests), a
# canary that must be flagged, then every test binary under valgrind with
# FC_TEST_QUICK=1, as many at once as there are cores. In detail:
# docs/scripts.md. Prints a summary with timings; exits non-zero if
# anything failed.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
. scripts/deps.sh
bdir=${1:-build-ct}
mkdir -p "$bdir"
bdir=$(cd "$bdir" && pwd)
jobs=$(nproc)
fc_install_deps "${FC_BUILD_DEPS[@]}" valgrind

failed=()
summary=()
t_start=$SECONDS
record() { # record NAME EXIT SECONDS
    if [ "$2" -eq 0 ]; then
        summary+=("$(printf 'ok    %4ds  %s' "$3" "$1")")
    else
        summary+=("$(printf 'FAIL  %4ds  %s (exit %s)' "$3" "$1" "$2")")
        failed+=("$1")
        echo "!!!! FAILED: $1 (exit $2)"
    fi
}
vg=(valgrind -q --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite)

echo "==== constant-time build ($bdir, FASTCRYPTO_CT_VALGRIND=ON)"
t0=$SECONDS
fc_configure "$bdir" -DFASTCRYPTO_CT_VALGRIND=ON
grep -q '^FASTCRYPTO_CT_VALGRIND:BOOL=ON$' "$bdir/CMakeCache.txt" ||
    { echo "$bdir is not a FASTCRYPTO_CT_VALGRIND build" >&2; exit 1; }
cmake --build "$bdir" -j "$jobs"
record build 0 $((SECONDS - t0))

canary() { # test/support/ct_canary.c: one branch on a marked secret
    local exe=$bdir/ct_canary rc=0
    cc -O1 -g -DFC_CT_VALGRIND=1 -I"$here/include" -o "$exe" \
        "$here/test/support/ct_canary.c" || return 1
    "${vg[@]}" "$exe" >/dev/null 2>"$bdir/ct_canary.log" || rc=$?
    if [ "$rc" -ne 99 ]; then
        echo "valgrind did not flag a branch on a marked secret (exit $rc)" >&2
        cat "$bdir/ct_canary.log" >&2
        return 1
    fi
    echo "canary: valgrind flags a branch on a marked secret (exit 99), as it must"
}
echo
echo "==== canary"
t0=$SECONDS rc=0
canary || rc=$?
record canary "$rc" $((SECONDS - t0))

# The binaries run $jobs at a time (valgrind runs one thread per program),
# the slowest first; each one's output is printed when it is done.
vg_one() { # vg_one BINARY: run it under valgrind into BINARY.vg.log
    local t0=$SECONDS rc=0
    # The environment ctest gives the tests (test/CMakeLists.txt); the
    # tools they start run outside valgrind.
    env FC_TEST_QUICK=1 FC_TEST_CONF="$bdir/test/fastcrypto-test.cnf" \
        FC_TEST_MODULE_DIR="$bdir" \
        FC_TEST_STATS_TOOL="$bdir/tools/fastcrypto-stats" \
        FC_TEST_CALIBRATE_TOOL="$bdir/tools/fastcrypto-calibrate" \
        "${vg[@]}" "$1" >"$1.vg.log" 2>&1 || rc=$?
    echo "$rc $((SECONDS - t0))" >"$1.vg.rc"
}
mapfile -t tests < <(ls -S "$bdir"/test/test_* | while read -r t; do
    [ -x "$t" ] && [ -f "$t" ] && echo "$t"; done)
mapfile -t tests < <(printf '%s\n' "${tests[@]}" | grep '/test_rsa$' || true
                     printf '%s\n' "${tests[@]}" | grep -v '/test_rsa$')
pids=()
for t in "${tests[@]}"; do
    rm -f "$t.vg.rc"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    vg_one "$t" &
    pids+=($!)
done
wait "${pids[@]}" || true
for t in "${tests[@]}"; do
    name=$(basename "$t")
    echo
    echo "==== valgrind $name"
    cat "$t.vg.log"
    read -r rc secs <"$t.vg.rc" || { rc=1 secs=0; }
    record "valgrind $name" "$rc" "$secs"
done

echo
echo "==== constant-time summary (total $((SECONDS - t_start))s)"
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -ne 0 ]; then
    echo "FAILED: ${failed[*]}"
    exit 1
fi
echo "constant-time check: all passed"
