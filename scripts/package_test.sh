#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# package_test.sh [BUILD_DIR] - the install paths a user takes:
#   1. `cmake --install` into a staging prefix (DESTDIR) puts fastcrypto.so
#      in OpenSSL's module directory, fastcrypto.cnf under share/ and
#      fastcrypto-check under bin/;
#   2. the CPack Debian package installs the same files with dpkg, and then
#      the stock openssl, given only the shipped config (module found by name
#      in MODULESDIR), loads and prefers fastcrypto (fastcrypto-check);
#      the package is removed again afterwards (needs root).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "${1:-$here/build}" && pwd)
modulesdir=$(openssl version -m | sed 's/.*"\(.*\)"/\1/')
tmp=$(mktemp -d)
installed=0
cleanup() {
    [ "$installed" -eq 1 ] && dpkg -r fastcrypto >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT

echo "-- cmake --install (DESTDIR staging, prefix /usr)"
cmake -S "$here" -B "$bdir" -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
DESTDIR="$tmp/stage" cmake --install "$bdir" >/dev/null
for f in "$modulesdir/fastcrypto.so" /usr/share/fastcrypto/fastcrypto.cnf \
    /usr/bin/fastcrypto-check /usr/bin/fastcrypto-stats; do
    [ -e "$tmp/stage$f" ] || { echo "missing $f" >&2; exit 1; }
    echo "   $f"
done

echo "-- cpack -G DEB"
(cd "$bdir" && cpack -G DEB >/dev/null)
deb=$(ls "$bdir"/fastcrypto_*.deb | head -1)
dpkg-deb -c "$deb" | awk '{print "   " $6}' | grep -E 'fastcrypto(\.so|\.cnf|-check|-stats)$'

if [ "$(id -u)" -ne 0 ]; then
    echo "-- not root: dpkg -i skipped"
    exit 0
fi
if dpkg-query -W -f='${Status}' fastcrypto 2>/dev/null | grep -q "ok installed"; then
    echo "-- a fastcrypto package is already installed: dpkg -i skipped"
    exit 0
fi
echo "-- dpkg -i $(basename "$deb")"
dpkg -i "$deb" >/dev/null
installed=1
OPENSSL_CONF=/usr/share/fastcrypto/fastcrypto.cnf fastcrypto-check
dpkg -r fastcrypto >/dev/null
installed=0
[ ! -e "$modulesdir/fastcrypto.so" ] || { echo "dpkg -r left the module" >&2; exit 1; }
echo "-- removed again"
