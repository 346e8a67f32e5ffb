#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test.sh - build fastcrypto and run every test, the way CI does (.ci/run is
# this script and nothing else); each step in detail: docs/developing.md.
#   0. installs the Debian packages the tests need when they are missing
#      (scripts/deps.sh: never one that would change the installed OpenSSL);
#   1. release build; ctest under each CPU mask (everything, no VAES, no
#      AVX, portable C only), the "slow" label in the first pass only;
#   2. the export check; the end-to-end tests, once (`ctest -L e2e`,
#      test/e2e: openssl, speed, TLS, nginx, live counters, programs,
#      fastcrypto-check, the package; FC_E2E_INSTALL=1 installs haproxy,
#      stunnel4 and apache2 for them, and the package with dpkg);
#   3. (not with --quick) NO_ASM and clang builds, the AddressSanitizer +
#      UBSan build, the newest OpenSSL 3.x (scripts/newer_openssl.sh), the
#      arm64 cross build under qemu (scripts/test_arm64.sh), valgrind over
#      the constant-time build (scripts/test_ct.sh);
#   4. clang-format.
# Every build is made with FASTCRYPTO_WERROR=ON; every ctest run but the
# e2e one excludes the e2e label. Prints the wall time of every step (and
# of each e2e test) at the end, and a failed step's FAIL/error lines.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
. scripts/deps.sh
quick=0
for a in "$@"; do
    case "$a" in
    --quick) quick=1 ;;
    *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
    esac
done

t_all=$SECONDS
deps=("${FC_BUILD_DEPS[@]}" valgrind clang-format nginx curl)
# newer_openssl.sh builds OpenSSL with perl and make; test_arm64.sh needs
# the cross compiler and qemu (amd64 packages, the host's OpenSSL is kept);
# the clang build needs clang.
[ "$quick" -eq 1 ] ||
    deps+=(perl make binutils gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
           clang)
echo "==== Debian packages ($(dpkg-query -W -f='libssl3 ${Version}' libssl3 2>/dev/null || echo 'no libssl3'))"
fc_install_deps "${deps[@]}"
jobs=$(nproc)
failed=()
failed_logs=()
times=()
t_step=$SECONDS step_name="packages"
sub_times=() # lines printed under the step's own (the e2e tests)
step() { # step NAME: close the step before (its wall time), open NAME
    times+=("$(printf '%5ds  %s' $((SECONDS - t_step)) "$step_name")" "${sub_times[@]}")
    sub_times=()
    t_step=$SECONDS step_name=$*
    echo; echo "==== $*"
}
# Each run's output is also kept, so that the summary at the end (the part
# of a CI log that is read) can say why a step failed, not only which.
logs=$(mktemp -d /tmp/fc-test-logs.XXXXXX)
trap 'rm -rf "$logs"' EXIT
run() { # run NAME CMD...: record failures, keep going
    local name=$1; shift
    local log
    log=$logs/$(printf '%s' "$name" | tr -c 'A-Za-z0-9' _).log
    # tee through a process substitution: a server a test leaves behind
    # holding the pipe cannot keep this script waiting.
    if ! "$@" > >(tee "$log") 2>&1; then
        failed+=("$name"); failed_logs+=("$log")
        echo "!!!! FAILED: $name"
    fi
}

build() { # build DIR CMAKE_ARGS...: warnings are errors (FASTCRYPTO_WERROR)
    local dir=$1; shift
    fc_configure "$dir" "$@"
    cmake --build "$dir" -j "$jobs"
}

# ctest_mask DIR MASK [CTEST ARGS]: the suite under one CPU mask.
ctest_mask() {
    local dir=$1 mask=$2
    shift 2
    FASTCRYPTO_CPU_MASK="$mask" ctest --test-dir "$dir" --output-on-failure \
        -j "$jobs" "$@"
}
# The "slow" tests (a real calibration run) measure this machine: once, in
# the first pass of a build, not again under every mask. The "e2e" tests
# run once, in the release build, after its masks.
no_e2e=(-LE e2e)
not_slow=(-LE 'slow|e2e')

step "release build"
build build
for mask in "" "vaes" "avx" "all"; do
    step "ctest, FASTCRYPTO_CPU_MASK='${mask}'"
    if [ -z "$mask" ]; then
        run "ctest mask='${mask}'" ctest_mask build "$mask" "${no_e2e[@]}"
    else
        run "ctest mask='${mask}'" ctest_mask build "$mask" "${not_slow[@]}"
    fi
done

step "module exports"
exports=$(nm -D --defined-only build/fastcrypto.so | awk '{print $3}')
echo "$exports"
run "exports" test "$exports" = "OSSL_provider_init"

# One at a time (RUN_SERIAL): they start servers, install packages.
step "end-to-end: ctest -L e2e (openssl, speed, TLS, nginx, stats, programs, check, package)"
run "ctest e2e" env FC_E2E_INSTALL=1 ctest --test-dir build --output-on-failure \
    -L e2e --no-tests=error
# Each test's time, from the log ctest itself writes.
while read -r name secs; do
    sub_times+=("$(printf '%5.0fs    %s' "$secs" "$name")")
done < <(awk '/^[0-9]+\/[0-9]+ Test: / { n = $3 } /^Test time = / { print n, $4 }' \
    build/Testing/Temporary/LastTest.log 2>/dev/null)

if [ "$quick" -eq 0 ]; then
    step "portable build (FASTCRYPTO_NO_ASM=ON)"
    build build-noasm -DFASTCRYPTO_NO_ASM=ON
    run "ctest noasm" ctest --test-dir build-noasm --output-on-failure \
        -j "$jobs" "${not_slow[@]}"

    # The suite's quick form (about 20 s): the clang-compiled C and the
    # objects of clang's integrated assembler, on this CPU's kernels.
    step "clang build (CC=clang, Release), ctest with FC_TEST_QUICK=1"
    if CC=clang build build-clang -DCMAKE_BUILD_TYPE=Release; then
        run "ctest clang" env FC_TEST_QUICK=1 \
            ctest --test-dir build-clang --output-on-failure -j "$jobs" \
            "${not_slow[@]}"
    else
        failed+=("clang build"); failed_logs+=(/dev/null)
        echo "!!!! FAILED: clang build"
    fi

    step "AddressSanitizer + UBSan build"
    build build-asan -DFASTCRYPTO_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
    export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
    run "ctest asan mask=''" ctest_mask build-asan "" "${no_e2e[@]}"
    run "ctest asan mask='all'" ctest_mask build-asan all "${not_slow[@]}"
    unset ASAN_OPTIONS UBSAN_OPTIONS

    step "the newest OpenSSL 3.x Debian ships (private prefix, cached)"
    run "newer openssl" scripts/newer_openssl.sh --sys-build build

    step "arm64: cross build, every kernel under qemu-aarch64"
    run "arm64 (qemu)" scripts/test_arm64.sh --build-dir build-arm64

    # One valgrind pass serves both checks: the CT build differs from the
    # release build only by the client requests behind FC_CT_SECRET and
    # FC_CT_PUBLIC, which do nothing outside valgrind.
    step "valgrind memcheck, constant-time build (secrets marked)"
    run "valgrind (constant-time build)" scripts/test_ct.sh build-ct
fi

step "clang-format"
run "clang-format" scripts/format.sh --check

step "done"
echo "wall time per step:"
printf '%s\n' "${times[@]}"
printf '%5ds  total\n' $((SECONDS - t_all))
echo
if [ "${#failed[@]}" -ne 0 ]; then
    # Why: a failed step's FAIL/error lines, else its last lines.
    sleep 1 # the last tee finishes writing
    for i in "${!failed[@]}"; do
        echo "---- ${failed[$i]}:"
        { grep -E 'FAIL|[Ee]rror|Assertion|\[  FAILED' "${failed_logs[$i]}" ||
            tail -n 12 "${failed_logs[$i]}"; } | tail -n 12 | cut -c1-200
    done
    echo "FAILED: ${failed[*]}"
    exit 1
fi
echo "all test steps passed"
