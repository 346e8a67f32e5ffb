#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# arm64_sysroot.sh - a private arm64 sysroot of Debian packages for the cross
# build and the qemu test run; prints its path on the last line of stdout.
#
# Usage: arm64_sysroot.sh [--offline]
#
# OpenSSL, CMocka and libc arm64 .debs through a private apt configuration
# ($FC_CACHE_DIR/apt-arm64), unpacked with dpkg -x into
# $FC_CACHE_DIR/arm64-sysroot-<openssl version>; nothing is installed, the
# host's apt and dpkg state is not changed. Versions, --offline, the cache:
# docs/scripts.md.
set -euo pipefail

cache=${FC_CACHE_DIR:-/var/cache/fastcrypto}
offline=0
case "${1:-}" in
--offline) offline=1 ;;
"") ;;
*) echo "usage: $0 [--offline]" >&2; exit 2 ;;
esac

mkdir -p "$cache" ||
    { echo "cannot create $cache: set FC_CACHE_DIR" >&2; exit 1; }
exec 8>"$cache/.arm64-sysroot.lock"
flock 8

aptdir=$cache/apt-arm64
mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" \
         "$aptdir/sources.list.d" "$aptdir/preferences.d"
: >"$aptdir/status"
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
{
    for s in "$codename" "$codename-updates"; do
        echo "deb [arch=arm64 signed-by=$keyring] http://deb.debian.org/debian $s main"
    done
    echo "deb [arch=arm64 signed-by=$keyring] http://deb.debian.org/debian-security $codename-security main"
} >"$aptdir/sources.list"
apt_opts=(-o "Dir::State::Lists=$aptdir/lists"
          -o "Dir::State::status=$aptdir/status"
          -o "Dir::Etc::SourceList=$aptdir/sources.list"
          -o "Dir::Etc::SourceParts=$aptdir/sources.list.d"
          -o "Dir::Etc::Preferences=$aptdir/preferences"
          -o "Dir::Etc::PreferencesParts=$aptdir/preferences.d"
          -o "Dir::Cache=$aptdir/cache"
          -o "APT::Architecture=arm64" -o "APT::Architectures=arm64"
          -o "APT::Sandbox::User=root")

newest_cached() {
    local s
    for s in "$cache"/arm64-sysroot-*/.fc-sysroot-stamp; do
        [ -f "$s" ] && dirname "$s"
    done | sort -V | tail -n 1
}

if [ "$offline" -eq 0 ] &&
    ! timeout 300 apt-get "${apt_opts[@]}" -qq update >"$aptdir/update.log" 2>&1; then
    echo "apt-get update failed ($aptdir/update.log): cache only" >&2
    offline=1
fi
if [ "$offline" -eq 1 ]; then
    root=$(newest_cached)
    [ -n "$root" ] || { echo "no arm64 sysroot in $cache" >&2; exit 1; }
    echo "cached (offline): $root" >&2
    echo "$root"
    exit 0
fi

served() { # served PKG VERSION: the arm64 index has PKG at VERSION
    apt-cache "${apt_opts[@]}" madison "$1" 2>/dev/null |
        awk -F'|' -v v="$2" '{ gsub(/ /, "", $2) } $2 == v { f = 1 } END { exit !f }'
}
host_v=$(dpkg-query -W -f='${Version}' libssl3 2>/dev/null || true)
if [ -n "$host_v" ] && served libssl3 "$host_v" && served libssl-dev "$host_v" &&
    served openssl "$host_v"; then
    ssl_v=$host_v
    echo "arm64 OpenSSL: $ssl_v, the host's version" >&2
else
    ssl_v=$(apt-cache "${apt_opts[@]}" policy libssl3 |
        sed -n 's/^ *Candidate: //p')
    [ -n "$ssl_v" ] && [ "$ssl_v" != "(none)" ] ||
        { echo "the mirror serves no arm64 libssl3" >&2; exit 1; }
    echo "arm64 OpenSSL: $ssl_v (the host's ${host_v:-none} is not served" \
        "for arm64)" >&2
fi

# The packages and what they need at run time (Depends and Pre-Depends).
want=(libssl3 libssl-dev openssl libcmocka0 libcmocka-dev libc6)
mapfile -t pkgs < <(apt-cache "${apt_opts[@]}" depends --recurse --important \
    "${want[@]}" | grep -v '^ ' | grep -v '^<' | sort -u)
spec=()
for p in "${pkgs[@]}"; do
    case "$p" in
    libssl3 | libssl-dev | openssl) spec+=("$p=$ssl_v") ;;
    *) spec+=("$p=$(apt-cache "${apt_opts[@]}" policy "$p" |
                       sed -n 's/^ *Candidate: //p')") ;;
    esac
done
stamp=$(printf '%s\n' "${spec[@]}")
root="$cache/arm64-sysroot-${ssl_v//[~:]/_}"
if [ -f "$root/.fc-sysroot-stamp" ] &&
    [ "$(cat "$root/.fc-sysroot-stamp")" = "$stamp" ]; then
    echo "cached: $root" >&2
    echo "$root"
    exit 0
fi

work=$(mktemp -d "$cache/.arm64-sysroot.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "fetching: ${spec[*]}" >&2
(cd "$work" && apt-get "${apt_opts[@]}" -qq download "${spec[@]}") >&2
mkdir "$work/root"
for deb in "$work"/*.deb; do
    dpkg -x "$deb" "$work/root"
done
# Absolute symlinks (the loader's, in some libc6 versions) would point into
# the host under qemu -L: make them relative to the sysroot.
while IFS= read -r l; do
    t=$(readlink "$l")
    case "$t" in
    /*) ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$work/root$t")" "$l" ;;
    esac
done < <(find "$work/root" -type l)
rm -rf "$work/root/usr/share/doc" "$work/root/usr/share/man" \
    "$work/root/usr/share/locale" "$work/root/usr/share/lintian"
for f in lib/ld-linux-aarch64.so.1 usr/lib/aarch64-linux-gnu/libcrypto.so \
    usr/include/openssl/opensslv.h usr/bin/openssl; do
    [ -e "$work/root/$f" ] || { echo "sysroot lacks $f" >&2; exit 1; }
done
printf '%s\n' "$stamp" >"$work/root/.fc-sysroot-stamp"
rm -rf "$root"
mv "$work/root" "$root"
echo "unpacked into $root" >&2
echo "$root"
