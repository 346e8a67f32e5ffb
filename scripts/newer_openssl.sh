#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# newer_openssl.sh - run the provider tests under the newest OpenSSL 3.x that
# Debian ships as a source package, next to the system's OpenSSL 3.0.
#
# Usage: newer_openssl.sh [--prefix DIR] [--build-dir BUILD]
#                         [--sys-build SYSBUILD] [--version DEBVER] [--offline]
#
#   --prefix DIR       where that OpenSSL is installed (default below)
#   --build-dir BUILD  fastcrypto built against it (default: build-newssl)
#   --sys-build DIR    fastcrypto built against the system's 3.0 headers, as
#                      test.sh leaves it (default: build; configured and
#                      built here when it has no fastcrypto.so yet)
#   --version DEBVER   take this Debian version (e.g. 3.6.3-1) instead of the
#                      newest; also FC_NEWSSL_VERSION
#   --offline          no apt index refresh: use the newest finished build
#                      already in the cache
#
# It picks the newest 3.x source package of Debian's suites (a private apt
# configuration), builds it once into a cached prefix (FC_CACHE_DIR,
# default /var/cache/fastcrypto; FC_NEWSSL_TIMEOUT bounds fetch and build),
# builds fastcrypto against it, and runs `ctest -L provider` and
# test/e2e/smoke.sh on the new libcrypto with modules built on either
# version's headers. Each step, the cache, the time: docs/scripts.md.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
. scripts/deps.sh

cache=${FC_CACHE_DIR:-/var/cache/fastcrypto}
timeout_s=${FC_NEWSSL_TIMEOUT:-900}
jobs=${FC_NEWSSL_JOBS:-$(nproc)}
want_version=${FC_NEWSSL_VERSION:-}
prefix_opt=""
build="$here/build-newssl"
sysbuild="$here/build"
offline=0

# What Configure leaves out. Only parts that take no 3.0 symbol away:
# ctest itself (through libcurl, libssh2) and every other system program
# under LD_LIBRARY_PATH run on this libcrypto too, so leaving out an
# algorithm or the ENGINE API breaks them ("undefined symbol: EVP_cast5_cbc").
# Every "no-X" is dropped when that Configure does not know X, so the list
# works on any 3.x; the stamp records it.
FC_OSSL_NO=(tests docs legacy quic)

usage() {
    sed -n '/^# Usage:/,/^#$/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# ---------------------------------------------------------------------------
# Internal entry: fetch and build one version. Run as its own process so that
# `timeout` can end it together with everything it started.
if [ "${1:-}" = "--_fetch-build" ]; then
    ver=$2 prefix=$3 aptdir=$4 stamp_text=$5
    shift 5
    conf_args=("$@")
    work=$(mktemp -d "${TMPDIR:-/tmp}/fc-newssl.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    apt_opts=(-o "Dir::State::Lists=$aptdir/lists"
              -o "Dir::Etc::SourceList=$aptdir/sources.list"
              -o "Dir::Etc::SourceParts=$aptdir/sources.list.d"
              -o "Dir::Cache=$aptdir/cache" -o "APT::Sandbox::User=root")
    cd "$work"
    echo "-- fetching openssl $ver (Debian source package)"
    apt-get "${apt_opts[@]}" -qq source --download-only "openssl=$ver" \
        >fetch.log 2>&1 || { cat fetch.log >&2; exit 3; }
    orig=""
    for f in openssl_*.orig.tar.*; do
        case "$f" in *.asc) ;; *) orig=$f ;; esac
    done
    [ -n "$orig" ] || { echo "no .orig tarball in the download" >&2; exit 1; }
    echo "-- unpacking $orig"
    mkdir src
    tar -xf "$orig" -C src --strip-components=1
    cd src
    # Keep only the "no-X" this Configure knows (its @disablables list).
    args=()
    for a in "${conf_args[@]}"; do
        case "$a" in
        no-*) grep -Eq "^[[:space:]]*\"${a#no-}\"" Configure ||
                  { echo "-- (this version has no option $a)"; continue; } ;;
        esac
        args+=("$a")
    done
    conf_args=("${args[@]}")
    rm -rf "$prefix"
    echo "-- configure: ${conf_args[*]}"
    ./Configure "${conf_args[@]}" >"$work/configure.log" 2>&1 ||
        { tail -n 40 "$work/configure.log" >&2; exit 1; }
    echo "-- make -j$jobs build_sw"
    make -j"$jobs" build_sw >"$work/make.log" 2>&1 ||
        { tail -n 60 "$work/make.log" >&2; exit 1; }
    echo "-- make install_sw"
    make install_sw >"$work/install.log" 2>&1 ||
        { tail -n 40 "$work/install.log" >&2; exit 1; }
    printf '%s\n' "$stamp_text" >"$prefix/.fc-openssl-stamp"
    exit 0
fi

while [ $# -gt 0 ]; do
    case "$1" in
    --prefix) prefix_opt=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --sys-build) sysbuild=$2; shift 2 ;;
    --version) want_version=$2; shift 2 ;;
    --offline) offline=1; shift ;;
    -h | --help) usage ;;
    *) echo "unknown option: $1" >&2; usage ;;
    esac
done
if [ -n "$prefix_opt" ]; then
    prefix_opt=$(mkdir -p "$prefix_opt" && cd "$prefix_opt" && pwd)
fi
mkdir -p "$build" "$sysbuild"
build=$(cd "$build" && pwd)
sysbuild=$(cd "$sysbuild" && pwd)

fc_install_deps "${FC_BUILD_DEPS[@]}" perl make
t_start=$SECONDS
step() { echo; echo "==== $*"; }

mkdir -p "$cache" ||
    { echo "cannot create $cache: set FC_CACHE_DIR" >&2; exit 1; }
exec 9>"$cache/.lock"
flock 9

# ---------------------------------------------------------------------------
# 1. Which version: private apt indices of Debian's deb-src suites.
aptdir="$cache/apt"
mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" \
         "$aptdir/sources.list.d"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
: >"$aptdir/sources.list"
for suite in bookworm-backports trixie trixie-backports sid; do
    echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian" \
        "$suite main" >>"$aptdir/sources.list"
done
apt_opts=(-o "Dir::State::Lists=$aptdir/lists"
          -o "Dir::Etc::SourceList=$aptdir/sources.list"
          -o "Dir::Etc::SourceParts=$aptdir/sources.list.d"
          -o "Dir::Cache=$aptdir/cache" -o "APT::Sandbox::User=root")

prefix_for() { # prefix_for DEBVER
    if [ -n "$prefix_opt" ]; then
        echo "$prefix_opt"
    else
        echo "$cache/openssl-${1//\~/_}"
    fi
}
stamp_for() { # stamp_for DEBVER CONF_ARGS...: what a finished build records
    local v=$1; shift
    printf 'openssl %s\nconfigure %s' "$v" "$*"
}

step "choosing the OpenSSL 3.x version"
candidates=()
if [ -n "$want_version" ]; then
    candidates=("$want_version")
fi
if [ "$offline" -eq 0 ]; then
    if timeout 300 apt-get "${apt_opts[@]}" -qq update \
        >"$aptdir/update.log" 2>&1; then
        if [ -z "$want_version" ]; then
            # The upstream part (before the last '-') is 3.x, no pre-release.
            mapfile -t candidates < <(
                apt-cache "${apt_opts[@]}" showsrc --only-source openssl \
                    2>/dev/null | sed -n 's/^Version: //p' | sort -u |
                    awk '{ up = $0; sub(/-[^-]*$/, "", up);
                           if (up ~ /^3\./ && up !~ /~/) print }' |
                    sort -V -r)
        fi
    else
        echo "apt-get update failed ($aptdir/update.log): cache only"
        offline=1
    fi
fi
if [ "$offline" -eq 1 ] && [ -z "$want_version" ]; then
    # Newest finished build in the cache.
    mapfile -t candidates < <(
        for s in "$cache"/openssl-*/.fc-openssl-stamp \
            ${prefix_opt:+"$prefix_opt/.fc-openssl-stamp"}; do
            [ -f "$s" ] && sed -n 's/^openssl //p' "$s"
        done | sort -u | sort -V -r)
fi
[ "${#candidates[@]}" -gt 0 ] ||
    { echo "no OpenSSL 3.x source package found" >&2; exit 1; }
echo "candidates (newest first): ${candidates[*]}"

# ---------------------------------------------------------------------------
# 2. A finished build from the cache, or fetch and build, newest first.
ossl_version="" prefix=""
for v in "${candidates[@]}"; do
    p=$(prefix_for "$v")
    conf=(--prefix="$p" --libdir=lib --openssldir="$p/ssl" shared)
    stamp=$(stamp_for "$v" "${conf[@]}" "${FC_OSSL_NO[@]/#/no-}")
    if [ -f "$p/.fc-openssl-stamp" ] && [ -x "$p/bin/openssl" ] &&
        [ "$(cat "$p/.fc-openssl-stamp")" = "$stamp" ]; then
        echo "cached: openssl $v in $p"
        ossl_version=$v prefix=$p
        break
    fi
    if [ "$offline" -eq 1 ]; then
        echo "openssl $v: not in the cache (offline)"
        continue
    fi

    step "building openssl $v into $p (limit ${timeout_s}s)"
    t0=$SECONDS
    # Configure options the Configure of this version knows: we only learn
    # which after unpacking, so the child filters the "no-X" list itself.
    # $(LIBRPATH) is OpenSSL's own Makefile variable: kept literal on purpose.
    set +e
    # shellcheck disable=SC2016
    timeout "$timeout_s" bash "$0" --_fetch-build "$v" "$p" "$aptdir" \
        "$stamp" "${conf[@]}" "${FC_OSSL_NO[@]/#/no-}" \
        '-Wl,-rpath,$(LIBRPATH)'
    rc=$?
    set -e
    if [ "$rc" -eq 0 ]; then
        echo "openssl $v built in $((SECONDS - t0)) s"
        ossl_version=$v prefix=$p
        break
    fi
    rm -rf "$p"
    if [ "$rc" -eq 124 ]; then
        echo "!!!! TIMEOUT: fetching and building openssl $v took" \
            "over ${timeout_s}s" >&2
        echo "!!!! (raise FC_NEWSSL_TIMEOUT or check the machine's load)" >&2
        exit 124
    fi
    if [ "$rc" -eq 3 ]; then
        echo "openssl $v: the mirror does not serve it; trying the next version"
        continue
    fi
    echo "!!!! FAILED: building openssl $v (exit $rc)" >&2
    exit 1
done
[ -n "$ossl_version" ] ||
    { echo "no OpenSSL 3.x version could be fetched or found cached" >&2
      exit 1; }
newssl="$prefix/bin/openssl"
echo "using: $("$newssl" version) (Debian $ossl_version) from $prefix"
t_ossl=$((SECONDS - t_start))

# ---------------------------------------------------------------------------
# 3. Build fastcrypto against it, and the 3.0 build if it is missing.
cmake_openssl_dirs() { # print the OpenSSL include dir and lib that BUILD uses
    sed -n -e 's/^OPENSSL_INCLUDE_DIR:[A-Z]*=//p' \
        -e 's/^OPENSSL_CRYPTO_LIBRARY:[A-Z]*=//p' "$1/CMakeCache.txt"
}

step "fastcrypto against openssl $ossl_version in $build"
# FindOpenSSL also asks pkg-config; point that at the prefix too, or it
# hands back the system's headers first.
PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
    fc_configure "$build" -DOPENSSL_ROOT_DIR="$prefix" -DOPENSSL_USE_STATIC_LIBS=OFF
dirs=$(cmake_openssl_dirs "$build")
echo "$dirs"
if [ -z "$dirs" ] || grep -qv "^$prefix/" <<<"$dirs"; then
    echo "!!!! $build did not pick up the OpenSSL in $prefix" >&2
    exit 1
fi
cmake --build "$build" -j "$jobs"

step "fastcrypto against the system OpenSSL in $sysbuild"
if [ ! -f "$sysbuild/CMakeCache.txt" ]; then
    fc_configure "$sysbuild"
fi
dirs=$(cmake_openssl_dirs "$sysbuild")
echo "$dirs"
if grep -q "^$prefix/" <<<"$dirs"; then
    echo "!!!! $sysbuild is built against $prefix, not the system OpenSSL" >&2
    exit 1
fi
cmake --build "$sysbuild" -j "$jobs"
t_build=$((SECONDS - t_start))

# ---------------------------------------------------------------------------
# 4. The combinations.
passed=() failed=() info=()
check() { # check NAME CMD...: record the outcome, keep going
    local name=$1; shift
    if "$@"; then
        passed+=("$name")
    else
        failed+=("$name")
        echo "!!!! FAILED: $name"
    fi
}

ldd_check() { # every provider-labelled test binary in DIR uses $prefix/lib
    local dir=$1 t lib ok=0
    for t in $(ctest --test-dir "$dir" -L provider -N -V 2>/dev/null |
               sed -n 's/^[0-9]*: Test command: //p' | awk '{print $1}'); do
        lib=$(LD_LIBRARY_PATH="$prefix/lib" ldd "$t" |
              awk '/libcrypto/ {print $3}')
        echo "$(basename "$t"): libcrypto from $lib"
        [ "${lib#"$prefix/lib/"}" != "$lib" ] || ok=1
    done
    return $ok
}

ctest_new() { # ctest_new DIR: provider tests on the new libcrypto
    ldd_check "$1" &&
        LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            ctest --test-dir "$1" -L provider --no-tests=error \
            --output-on-failure -j "$jobs"
}

# The CLI checks: test/e2e/smoke.sh with that openssl first in PATH (it
# lists fastcrypto active and compares its ciphers with default), every
# algorithm offered, whether or not it beats this OpenSSL's default here.
cli_check() { # cli_check OPENSSL_BINDIR BUILD
    "$1/openssl" version
    PATH="$1:$PATH" FASTCRYPTO_OFFER=all test/e2e/smoke.sh "$2"
}

step "new/new: tests and module built with openssl $ossl_version headers"
check "new/new ctest -L provider" ctest_new "$build"

step "3.0/new: tests and module built with the system 3.0 headers"
check "3.0/new ctest -L provider" ctest_new "$sysbuild"

step "cli new: $prefix/bin/openssl with $build/fastcrypto.so"
check "cli new module (smoke.sh)" cli_check "$prefix/bin" "$build"

step "cli 3.0: $prefix/bin/openssl with $sysbuild/fastcrypto.so"
check "cli 3.0 module (smoke.sh)" cli_check "$prefix/bin" "$sysbuild"

step "info: $build/fastcrypto.so (new headers) in the system openssl"
if command -v openssl >/dev/null &&
    cli_check "$(dirname "$(command -v openssl)")" "$build"; then
    info+=("new-built module loads in system openssl: yes")
else
    info+=("new-built module loads in system openssl: NO (not required)")
fi
echo
echo "==== newer OpenSSL summary"
echo "openssl: Debian $ossl_version, $("$newssl" version), prefix $prefix"
echo "time: openssl ready ${t_ossl}s, builds done ${t_build}s," \
    "total $((SECONDS - t_start))s"
for n in "${passed[@]}"; do echo "PASS  $n"; done
for n in "${failed[@]}"; do echo "FAIL  $n"; done
for n in "${info[@]}"; do echo "info  $n"; done
echo "newer_openssl: ${#passed[@]} passed, ${#failed[@]} failed"
[ "${#failed[@]}" -eq 0 ]
