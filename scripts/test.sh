#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test.sh - build fastcrypto and run every test, the way CI does (.ci/run is
# this script and nothing else):
#   0. installs the Debian packages the tests need when they are missing
#      (scripts/deps.sh: never one that would upgrade the installed OpenSSL;
#      the tests run on the machine's own libssl3);
#   1. release build; ctest under each CPU mask (everything, AES-NI without
#      VAES, AES-NI without AVX, portable C only), a FASTCRYPTO_NO_ASM build,
#      and a clang build (CC=clang, Release: clang's C compiler and its
#      integrated assembler) with the suite in its quick form
#      (FC_TEST_QUICK=1); the "slow" label (a real fastcrypto-calibrate
#      run, about 10 s) only in the first pass of the release and sanitizer
#      builds;
#   2. AddressSanitizer + UBSan build, ctest;
#   3. the provider tests under the newest OpenSSL 3.x Debian ships as a
#      source package, built once into a cached private prefix; the arm64
#      cross build (against a private arm64 sysroot of Debian packages) with
#      the whole suite under qemu-aarch64 for each arm64 CPU mask; the
#      constant-time build (FASTCRYPTO_CT_VALGRIND=ON: the tests mark keys,
#      data and RSA secrets with FC_CT_SECRET) with every test binary under
#      valgrind memcheck, so a memory error, a leak, or a branch or memory
#      index that depends on a marked secret fails the run;
#   4. the module exports only OSSL_provider_init; stock `openssl` loads it
#      and agrees with the default provider; `openssl speed` runs with
#      fastcrypto alone; real TLS with s_server/s_client and nginx/curl,
#      fastcrypto on either side, its counters proving it did the work;
#      clang-format is clean.
# Every build here, the arm64 and constant-time ones included, is made with
# FASTCRYPTO_WERROR=ON: a compiler or assembler warning fails it.
# Options: --quick (skip step 3, the NO_ASM, clang and sanitizer builds).
# Prints the wall time of every step at the end.
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
step() { # step NAME: close the step before (its wall time), open NAME
    times+=("$(printf '%5ds  %s' $((SECONDS - t_step)) "$step_name")")
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
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DFASTCRYPTO_WERROR=ON "$@" >/dev/null
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
# the first pass of a build, not again under every mask.
not_slow=(-LE slow)

step "release build"
build build
for mask in "" "vaes" "avx" "all"; do
    step "ctest, FASTCRYPTO_CPU_MASK='${mask}'"
    if [ -z "$mask" ]; then
        run "ctest mask='${mask}'" ctest_mask build "$mask"
    else
        run "ctest mask='${mask}'" ctest_mask build "$mask" "${not_slow[@]}"
    fi
done

step "module exports"
exports=$(nm -D --defined-only build/fastcrypto.so | awk '{print $3}')
echo "$exports"
run "exports" test "$exports" = "OSSL_provider_init"

# The end-to-end runs prove that programs reach fastcrypto's kernels: every
# algorithm is offered there (FASTCRYPTO_OFFER=all), whether or not it
# beats default on this CPU (fc/offer.h; test_props checks what is offered
# by default and that the rest goes to default).
forced() { FASTCRYPTO_OFFER=all "$@"; }

step "stock openssl loads the module"
run "openssl cli" forced scripts/smoke.sh build

step "openssl speed with fastcrypto alone"
run "speed alone" forced scripts/speed_alone.sh build

step "TLS over loopback: openssl s_server / s_client"
run "tls s_server/s_client" forced scripts/tls_e2e.sh build

step "nginx and curl"
run "nginx/curl" forced scripts/nginx_e2e.sh build

step "live counters: fastcrypto-stats on a running nginx, _exit, RLIMIT_FSIZE=0"
run "stats e2e" forced scripts/stats_e2e.sh build

step "programs: stunnel, HAProxy, PostgreSQL, OpenSSH, Apache, python, openssl"
run "programs" forced scripts/programs_e2e.sh --install build

step "fastcrypto-check against the shipped config"
sed "s|^module = .*|module = $here/build/fastcrypto.so|" fastcrypto.cnf >build/check.cnf
run "fastcrypto-check" env OPENSSL_CONF="$here/build/check.cnf" scripts/check.sh

step "install: cmake --install and the Debian package"
run "install/package" scripts/package_test.sh build

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
    run "ctest asan mask=''" ctest_mask build-asan ""
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
