#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_arm64.sh - cross-build fastcrypto for arm64 and run the tests under
# qemu-aarch64 (user mode; no binfmt_misc needed):
# installs the cross compiler and qemu-user (amd64 packages), makes the
# private arm64 sysroot (scripts/arm64_sysroot.sh), cross-builds BUILD_DIR
# (default build-arm64) with warnings as errors, checks the objects, prints
# the provider's buildinfo per arm64 CPU mask, runs ctest under qemu for
# each mask, lists the providers with the sysroot's openssl and runs
# fc_bench's arm64 rows once. Each step in detail: docs/scripts.md.
# Prints a summary with timings; exits non-zero if any step failed.
# Options: --build-dir DIR, --no-install (no apt-get install; the sysroot is
# still made, it installs nothing), --sysroot DIR (use this arm64 root
# instead), --masks "m1,m2,..." (use "-" for the empty mask).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
. scripts/deps.sh
bdir=build-arm64
install=1
sysroot=""
masks=("" "sha3" "pmull" "all")
while [ $# -gt 0 ]; do
    case "$1" in
    --build-dir) bdir=$2; shift 2 ;;
    --no-install) install=0; shift ;;
    --sysroot) sysroot=$(cd "$2" && pwd); shift 2 ;;
    --masks)
        IFS=, read -r -a masks <<<"$2"
        for i in "${!masks[@]}"; do [ "${masks[$i]}" = "-" ] && masks[$i]=""; done
        shift 2 ;;
    *) echo "usage: $0 [--build-dir DIR] [--no-install] [--sysroot DIR]" \
            "[--masks m1,m2]" >&2
       exit 2 ;;
    esac
done
mkdir -p "$bdir"
bdir=$(cd "$bdir" && pwd)
jobs=$(nproc)
qemu=()
# qemu_setup: the emulator command, as cmake/aarch64-linux-gnu.cmake builds
# it: loader, libc and libcrypto from the sysroot, one set of packages
# (mixing the multiarch libc with libc6-arm64-cross's loader hangs fork).
qemu_setup() {
    qemu=(qemu-aarch64 -cpu max -L "$sysroot")
}

failed=()
summary=()
t_start=$SECONDS
step() { echo; echo "==== $*"; }
run() { # run NAME CMD...: time it, record the outcome, keep going
    local name=$1 t0=$SECONDS rc=0; shift
    "$@" || rc=$?
    if [ "$rc" -eq 0 ]; then
        summary+=("$(printf 'ok    %4ds  %s' $((SECONDS - t0)) "$name")")
    else
        summary+=("$(printf 'FAIL  %4ds  %s' $((SECONDS - t0)) "$name")")
        failed+=("$name")
        echo "!!!! FAILED: $name"
    fi
}

# ---------------------------------------------------------------------------
arm64_install() {
    fc_install_deps cmake make pkg-config binutils qemu-user \
        gcc-aarch64-linux-gnu libc6-dev-arm64-cross
}

# The arm64 root: OpenSSL, CMocka and libc at one version the mirror serves.
arm64_sysroot() {
    if [ -z "$sysroot" ]; then
        sysroot=$(scripts/arm64_sysroot.sh | tail -n 1) || return 1
    fi
    [ -x "$sysroot/usr/bin/openssl" ] ||
        { echo "$sysroot is no arm64 sysroot" >&2; return 1; }
    ssl_version=$(sed -n 's/^libssl3=//p' "$sysroot/.fc-sysroot-stamp" 2>/dev/null)
    echo "arm64 sysroot: $sysroot"
    sed 's/^/  /' "$sysroot/.fc-sysroot-stamp" 2>/dev/null || true
}

build() {
    fc_configure "$bdir" -DFC_AARCH64_SYSROOT="$sysroot" \
        -DCMAKE_TOOLCHAIN_FILE="$here/cmake/aarch64-linux-gnu.cmake"
    # The build must use the sysroot's OpenSSL, not the host's headers.
    local inc
    inc=$(sed -n 's/^OPENSSL_INCLUDE_DIR:[A-Z]*=//p' "$bdir/CMakeCache.txt")
    [ "$inc" = "$sysroot/usr/include" ] ||
        { echo "$bdir: OpenSSL headers from $inc, not $sysroot" >&2; return 1; }
    cmake --build "$bdir" -j "$jobs"
}

check_objects() {
    local so=$bdir/fastcrypto.so ok=0 o n=0
    readelf -h "$so" | grep -q "Machine:.*AArch64" ||
        { echo "$so is not an AArch64 object" >&2; ok=1; }
    local exports
    exports=$(readelf --dyn-syms -W "$so" |
        awk '$7 != "UND" && $5 == "GLOBAL" { print $8 }' | sed 's/@.*//' | sort -u)
    echo "exports: $exports"
    [ "$exports" = "OSSL_provider_init" ] || { echo "unexpected exports" >&2; ok=1; }
    echo "kernels built into fc_core:"
    while IFS= read -r o; do
        n=$((n + 1))
        if readelf -n "$o" | grep -q "AArch64 feature: BTI, PAC"; then
            echo "  $(basename "$o"): BTI, PAC"
        else
            echo "  $(basename "$o"): NO BTI/PAC property note" >&2
            ok=1
        fi
    done < <(find "$bdir/CMakeFiles/fc_core.dir" -name '*.S.o' | sort)
    [ "$n" -gt 0 ] || echo "  (none: no asm/aarch64/*.S yet, portable C only)"
    echo "module property note: $(readelf -n "$so" | grep -o 'AArch64 feature:.*' || echo none)"
    return $ok
}

# The Montgomery and RSA tests (the slowest under qemu) run again under a
# mask only when the mask changes the bignum kernels the provider picks
# (the buildinfo's rsa=, the engine order); the others run under every mask.
declare -A info=() # "m<mask>" -> the buildinfo line
bn_kernels() { grep -o 'rsa=[^ )]*' <<<"$1" || echo "?"; }
ctest_mask() { # ctest_mask MASK
    local sel=()
    local first="m${masks[0]}"
    if [ "$1" != "${masks[0]}" ] && [ -n "${info[$first]:-}" ] &&
        [ "$(bn_kernels "${info[m$1]:-}")" = "$(bn_kernels "${info[$first]}")" ]; then
        echo "($(bn_kernels "${info[m$1]}") as under mask '${masks[0]}':" \
            "test_rsa, test_bn_mont, test_bn_exp2 ran there)"
        sel=(-E '^test_(rsa|bn_mont|bn_exp2)$')
    fi
    FASTCRYPTO_CPU_MASK="$1" FC_TEST_QUICK=1 \
        ctest --test-dir "$bdir" --output-on-failure -j "$jobs" --timeout 600 \
        "${sel[@]}"
}

openssl_list() {
    local ossl=$sysroot/usr/bin/openssl
    "${qemu[@]}" "$ossl" version
    "${qemu[@]}" "$ossl" list -providers -verbose \
        -provider-path "$bdir" -provider fastcrypto -provider default |
        tee "$bdir/providers.txt"
    grep -A4 "fastcrypto" "$bdir/providers.txt" | grep -q "status: active"
}

# test/fc_prov_info (test/support/prov_info.c), an arm64 program: the
# module in a fresh library context under each mask, its buildinfo.
prov_info() {
    local exe=$bdir/test/fc_prov_info m
    for m in "${masks[@]}"; do
        info[m$m]=$(FASTCRYPTO_CPU_MASK="$m" "${qemu[@]}" "$exe" "$bdir") ||
            return 1
        printf "FASTCRYPTO_CPU_MASK=%-7s %s\n" "'$m'" "${info[m$m]}"
    done
    # The CPU row from MIDR_EL1 (qemu-user emulates the MRS, HWCAP_CPUID):
    # qemu's Neoverse N1 model must give the neoverse-n1 row.
    m=$(qemu-aarch64 -cpu neoverse-n1 -L "$sysroot" "$exe" "$bdir") || return 1
    echo "qemu -cpu neoverse-n1:       $m"
    grep -q "cpu=neoverse-n1 " <<<"$m"
}

# The arm64 seeds' fc_bench rows, one short round each under qemu (the
# figures mean nothing under emulation: this shows the rows build and run
# on arm64, each checked against default). RSA-3072/4096 keygen is too slow
# emulated: their rows run on x86-64 and on arm64 hardware.
fc_bench_quick() {
    [ -x "$bdir/bench/fc_bench" ] || { echo "no fc_bench built" >&2; return 1; }
    "${qemu[@]}" "$bdir/bench/fc_bench" --module "$bdir/fastcrypto.so" \
        --rounds 1 --target-ms 20 --messages 200 cbc-small \
        gcm-rec-seal-256-1k gcm-rec-open-256-1k gcm-rec-seal-256-8k \
        gcm-rec-open-256-8k rsa2048-
}

# ---------------------------------------------------------------------------
if [ "$install" -eq 1 ]; then
    step "cross compiler and qemu (amd64 packages)"
    run "install" arm64_install
fi
ssl_version=""
step "arm64 sysroot (OpenSSL, CMocka, libc)"
run "sysroot" arm64_sysroot
if [ -z "$sysroot" ]; then
    echo "no arm64 sysroot; nothing to build" >&2
    printf '%s\n' "${summary[@]}"
    exit 1
fi
echo "arm64 OpenSSL: ${ssl_version:-?}"

qemu_setup
echo "emulator: ${qemu[*]}"

step "cross build ($bdir)"
run "build" build
if [ ! -f "$bdir/fastcrypto.so" ]; then
    echo "build failed; nothing to test" >&2
    printf '%s\n' "${summary[@]}"
    exit 1
fi

step "arm64 objects"
run "objects" check_objects

step "provider buildinfo per mask (arm64 program under qemu)"
run "buildinfo" prov_info

for mask in "${masks[@]}"; do
    step "ctest under qemu, FASTCRYPTO_CPU_MASK='${mask}'"
    run "ctest mask='${mask}'" ctest_mask "$mask"
done

step "arm64 openssl list -providers (under qemu)"
run "openssl list" openssl_list

step "fc_bench: the arm64 seeds' rows, one short round (under qemu)"
run "fc_bench rows" fc_bench_quick

echo
echo "==== summary (total $((SECONDS - t_start))s; arm64 OpenSSL ${ssl_version:-?})"
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -ne 0 ]; then
    echo "FAILED: ${failed[*]}"
    exit 1
fi
echo "all arm64 steps passed"
