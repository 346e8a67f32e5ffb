#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_arm64.sh - cross-build fastcrypto for arm64 and run the tests under
# qemu-aarch64 (user mode; no binfmt_misc needed):
#   1. installs, once (as root or through sudo), the arm64 multiarch
#      packages: gcc-aarch64-linux-gnu, libc6-dev-arm64-cross,
#      libssl-dev:arm64, libcmocka-dev:arm64, qemu-user;
#   2. configures BUILD_DIR (default build-arm64) with
#      cmake/aarch64-linux-gnu.cmake and builds it; checks that the module is
#      an AArch64 object exporting only OSSL_provider_init and that every
#      assembly object carries the BTI|PAC property note;
#   3. ctest under `qemu-aarch64 -cpu max` for each arm64 CPU mask:
#      "" (every kernel), "sha3" (no EOR3), "pmull" (no PMULL: portable
#      GHASH), "all" (portable C only), with FC_TEST_QUICK=1 so the emulated
#      run stays short;
#   4. the arm64 `openssl` binary (unpacked from openssl:arm64, which cannot
#      be installed beside the host's) lists the providers under qemu, so the
#      log shows fastcrypto active with its arm64 kernel names; a small arm64
#      C program prints the same for each mask.
# Prints a summary with timings; exits non-zero if any step failed.
# Options: --build-dir DIR, --no-install, --masks "m1,m2,..." (use "-" for
# the empty mask).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
bdir=build-arm64
install=1
masks=("" "sha3" "pmull" "all")
while [ $# -gt 0 ]; do
    case "$1" in
    --build-dir) bdir=$2; shift 2 ;;
    --no-install) install=0; shift ;;
    --masks)
        IFS=, read -r -a masks <<<"$2"
        for i in "${!masks[@]}"; do [ "${masks[$i]}" = "-" ] && masks[$i]=""; done
        shift 2 ;;
    *) echo "usage: $0 [--build-dir DIR] [--no-install] [--masks m1,m2]" >&2
       exit 2 ;;
    esac
done
mkdir -p "$bdir"
bdir=$(cd "$bdir" && pwd)
triple=aarch64-linux-gnu
jobs=$(nproc)
qemu=()
# qemu_setup: the emulator command, as cmake/aarch64-linux-gnu.cmake builds
# it: loader and libc from one glibc build (the multiarch libc6:arm64 when
# installed; mixing its libc with libc6-arm64-cross's loader hangs fork).
qemu_setup() {
    local prefix=/usr/$triple
    [ -e "/usr/lib/$triple/libc.so.6" ] && [ -e /lib/ld-linux-aarch64.so.1 ] &&
        prefix=/
    qemu=(qemu-aarch64 -cpu max -L "$prefix")
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
    local sudo="" p missing=()
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    local apt=($sudo apt-get -o DPkg::Lock::Timeout=600 -y -qq)
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        $sudo dpkg --add-architecture arm64
    fi
    for p in cmake make pkg-config binutils qemu-user gcc-aarch64-linux-gnu \
        libc6-dev-arm64-cross libssl-dev:arm64 libcmocka-dev:arm64; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
            missing+=("$p")
    done
    [ "${#missing[@]}" -eq 0 ] && { echo "arm64 packages present"; return 0; }
    echo "== installing: ${missing[*]}"
    "${apt[@]}" update
    # libssl-dev:arm64 is Multi-Arch: same, so it must match the host's
    # libssl-dev version exactly; pin it when the host one is installed.
    local i v
    for i in "${!missing[@]}"; do
        case "${missing[$i]}" in
        libssl-dev:arm64)
            v=$(dpkg-query -W -f='${Version}' libssl-dev:amd64 2>/dev/null || true)
            [ -n "$v" ] && missing[$i]="libssl-dev:arm64=$v" ;;
        esac
    done
    "${apt[@]}" install --no-install-recommends "${missing[@]}" >/dev/null
}

build() {
    cmake -S . -B "$bdir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_TOOLCHAIN_FILE="$here/cmake/aarch64-linux-gnu.cmake" >/dev/null
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

ctest_mask() { # ctest_mask MASK
    FASTCRYPTO_CPU_MASK="$1" FC_TEST_QUICK=1 \
        ctest --test-dir "$bdir" --output-on-failure -j "$jobs" --timeout 600
}

# The arm64 openssl binary, unpacked from the openssl:arm64 package matching
# the installed libssl3:arm64 (installing it would remove the host's).
openssl_arm64() {
    local dir=$bdir/openssl-arm64 v
    if [ ! -x "$dir/usr/bin/openssl" ]; then
        v=$(dpkg-query -W -f='${Version}' libssl3:arm64)
        rm -rf "$dir" && mkdir -p "$dir"
        # As root, apt fetches as _apt, which cannot write into our tree.
        (cd "$dir" && apt-get download -qq -o APT::Sandbox::User="$(id -un)" \
            "openssl:arm64=$v" >/dev/null) || return 1
        dpkg -x "$dir"/openssl_*_arm64.deb "$dir" || return 1
    fi
    echo "$dir/usr/bin/openssl"
}

openssl_list() {
    local ossl
    ossl=$(openssl_arm64) || { echo "could not unpack openssl:arm64" >&2; return 1; }
    "${qemu[@]}" "$ossl" version
    "${qemu[@]}" "$ossl" list -providers -verbose \
        -provider-path "$bdir" -provider fastcrypto -provider default |
        tee "$bdir/providers.txt"
    grep -A4 "fastcrypto" "$bdir/providers.txt" | grep -q "status: active"
}

# A small arm64 program: load the module into a fresh library context under
# each mask and print its name, version, buildinfo and features.
prov_info() {
    local src=$bdir/fc_prov_info.c exe=$bdir/fc_prov_info m
    cat >"$src" <<'EOF'
#include <stdio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>
int main(int argc, char **argv)
{
    OSSL_LIB_CTX *lib = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *p;
    const char *name = "?", *ver = "?", *info = "?";
    OSSL_PARAM q[] = {
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, (char **)&name, 0),
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, (char **)&ver, 0),
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&info, 0),
        OSSL_PARAM_END};
    if (argc != 2 || lib == NULL ||
        !OSSL_PROVIDER_set_default_search_path(lib, argv[1]) ||
        (p = OSSL_PROVIDER_load(lib, "fastcrypto")) == NULL ||
        !OSSL_PROVIDER_get_params(p, q)) {
        ERR_print_errors_fp(stderr);
        return 1;
    }
    printf("%s %s: %s\n", name, ver, info);
    OSSL_PROVIDER_unload(p);
    OSSL_LIB_CTX_free(lib);
    return 0;
}
EOF
    $triple-gcc -O1 -o "$exe" "$src" -lcrypto || return 1
    for m in "${masks[@]}"; do
        printf "FASTCRYPTO_CPU_MASK=%-6s " "'$m'"
        FASTCRYPTO_CPU_MASK="$m" "${qemu[@]}" "$exe" "$bdir" || return 1
    done
}

# ---------------------------------------------------------------------------
if [ "$install" -eq 1 ]; then
    step "arm64 cross packages"
    run "install" arm64_install
fi

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

for mask in "${masks[@]}"; do
    step "ctest under qemu, FASTCRYPTO_CPU_MASK='${mask}'"
    run "ctest mask='${mask}'" ctest_mask "$mask"
done

step "arm64 openssl list -providers (under qemu)"
run "openssl list" openssl_list

step "provider buildinfo per mask (arm64 program under qemu)"
run "buildinfo" prov_info

echo
echo "==== summary (total $((SECONDS - t_start))s)"
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -ne 0 ]; then
    echo "FAILED: ${failed[*]}"
    exit 1
fi
echo "all arm64 steps passed"
