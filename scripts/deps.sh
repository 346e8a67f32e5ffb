#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# deps.sh PACKAGE... - install the Debian packages that are missing (as root,
# or through sudo). Sourced or run by the other scripts; does nothing when
# everything is present.
#
# It keeps the installed OpenSSL: only missing packages are named to apt
# (naming an installed one would upgrade it), a missing libssl-dev or
# openssl is asked for at the installed libssl3's exact version, and the
# install is simulated first: if it would upgrade or remove libssl3,
# libssl-dev or openssl, nothing is installed and the call fails. The
# packages and versions it installs are printed. While apt runs, a
# temporary /usr/sbin/policy-rc.d (when there is none) keeps services such
# as a system nginx from starting: the tests start their own.
set -euo pipefail

# The packages whose installed version must never change.
FC_KEEP_PKGS=(libssl3 libssl-dev openssl)

# fc_use_openssl DIR|newest: run what follows on another OpenSSL 3.x:
# DIR/bin first in PATH, DIR/lib first in LD_LIBRARY_PATH (so Debian's
# programs, nginx among them, load that libssl and libcrypto); "newest" is
# the newest finished build in the cache of scripts/newer_openssl.sh. Sets
# fc_openssl_dir; fails with a message when there is no such build.
fc_use_openssl() {
    local d=$1
    if [[ $d == newest ]]; then
        d=$(ls -d "${FC_CACHE_DIR:-/var/cache/fastcrypto}"/openssl-3.* 2>/dev/null |
            while read -r x; do
                [[ -f $x/.fc-openssl-stamp && -x $x/bin/openssl ]] && echo "$x"
            done | sort -V | tail -n 1)
        [[ -n $d ]] || {
            echo "--openssl newest: no finished build in the cache" \
                "(run scripts/newer_openssl.sh first)" >&2
            return 1
        }
    fi
    [[ -x $d/bin/openssl ]] || { echo "no $d/bin/openssl" >&2; return 1; }
    export PATH=$d/bin:$PATH
    export LD_LIBRARY_PATH=$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    fc_openssl_dir=$d
}

fc_install_deps() {
    local missing=() p v
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
            missing+=("$p")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    echo "== installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    # A missing OpenSSL package comes at the installed libssl3's version, or
    # not at all (the mirror may no longer serve it: then apt says so).
    v=$(dpkg-query -W -f='${Status} ${Version}' libssl3 2>/dev/null |
        sed -n 's/^install ok installed //p')
    if [ -n "$v" ]; then
        for p in "${!missing[@]}"; do
            case "${missing[$p]}" in
            libssl-dev | openssl) missing[$p]="${missing[$p]}=$v" ;;
            esac
        done
    fi
    local apt=($sudo apt-get -o DPkg::Lock::Timeout=600 -y -qq
               --no-install-recommends)
    $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
    local plan keep
    plan=$("${apt[@]}" -s install "${missing[@]}") || {
        echo "apt cannot install: ${missing[*]}" >&2
        return 1
    }
    keep=$(printf '%s|' "${FC_KEEP_PKGS[@]}")
    if grep -E "^(Inst (${keep%|})(:[a-z0-9]+)? \[|Remv (${keep%|})(:[a-z0-9]+)? )" \
        <<<"$plan" >&2; then
        echo "!!!! refusing: installing ${missing[*]} would change the" \
            "installed OpenSSL (above); install them by hand" >&2
        return 1
    fi
    sed -n 's/^Inst \([^ ]*\) \(\[[^]]*\] \)\{0,1\}(\([^ ]*\).*/   \1 \2\3/p' \
        <<<"$plan"
    local added_policy=0 rc=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
        $sudo chmod +x /usr/sbin/policy-rc.d
        added_policy=1
    fi
    "${apt[@]}" install "${missing[@]}" >/dev/null || rc=$?
    [ "$added_policy" -eq 0 ] || $sudo rm -f /usr/sbin/policy-rc.d
    return "$rc"
}

# fc_configure DIR [CMAKE ARGS]: the scripts' configure step, quiet:
# RelWithDebInfo, warnings as errors (a later -D overrides either).
fc_configure() {
    local dir=$1
    shift
    cmake -S "$(dirname "${BASH_SOURCE[0]}")/.." -B "$dir" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFASTCRYPTO_WERROR=ON "$@" >/dev/null
}

# The build and test dependencies every script needs.
FC_BUILD_DEPS=(build-essential cmake pkg-config openssl libssl-dev
               libcmocka-dev ca-certificates)

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    fc_install_deps "${FC_BUILD_DEPS[@]}" "$@"
fi
