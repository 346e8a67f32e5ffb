#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# deps.sh PACKAGE... - install the Debian packages that are missing (as root,
# or through sudo). Sourced or run by the other scripts; does nothing when
# everything is present.
set -euo pipefail

fc_install_deps() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
            missing+=("$p")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    echo "== installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The build and test dependencies every script needs.
FC_BUILD_DEPS=(build-essential cmake pkg-config openssl libssl-dev
               libcmocka-dev ca-certificates)

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    fc_install_deps "${FC_BUILD_DEPS[@]}" "$@"
fi
