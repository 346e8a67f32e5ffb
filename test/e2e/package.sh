#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# package.sh [BUILD_DIR] - the install paths a user takes:
#   1. `cmake --install` into a staging prefix (DESTDIR) puts fastcrypto.so
#      in OpenSSL's module directory, fastcrypto.cnf under share/,
#      fastcrypto-check, -stats, -calibrate and -config under bin/, the boot-time
#      calibration unit under /lib/systemd/system (debhelper's directory on
#      Debian 12), its ExecStart naming the installed binary;
#   2. `fastcrypto-calibrate --check` (the unit's condition) exits 1 on a
#      missing wisdom file, 0 on one it has just written, 1 on that file
#      with a key field edited;
#   3. the CPack Debian package holds the same files and the maintainer
#      scripts; its postinst, run where neither systemd nor
#      deb-systemd-helper exists, succeeds and says it enabled nothing;
#   4. (root, with FC_E2E_INSTALL=1) dpkg -i: the postinst enables the unit with
#      deb-systemd-helper and, systemd not running, reloads and starts
#      nothing; `systemd-analyze verify` accepts the installed unit; the
#      stock openssl, given only the shipped config (module found by name
#      in MODULESDIR), loads and prefers fastcrypto (fastcrypto-check),
#      and warns of a foreign wisdom file, naming the command to run;
#      fastcrypto-config enables the installed fastcrypto.cnf in a copy of
#      the system's openssl.cnf (status ok) and disables it byte for byte;
#      the prerm on remove disables it in the file `openssl version -d` names;
#      dpkg -r leaves the wisdom and masks the unit, dpkg -P deletes the
#      wisdom and forgets the unit. A wisdom file already at the default
#      path is put back afterwards.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
modulesdir=$(openssl version -m | sed 's/.*"\(.*\)"/\1/')
unit=fastcrypto-calibrate.service
unitfile=/lib/systemd/system/$unit
wisdom=/var/lib/fastcrypto/wisdom
installed=0
saved=0
placed=0
e2e_on_exit() {
    if [ "$installed" -eq 1 ]; then dpkg -P fastcrypto >/dev/null 2>&1 || true; fi
    if [ "$saved" -eq 1 ]; then
        mkdir -p "$(dirname "$wisdom")"
        cp -p "$tmp/wisdom.saved" "$wisdom"
    elif [ "$placed" -eq 1 ]; then
        rm -f "$wisdom"
        rmdir "$(dirname "$wisdom")" 2>/dev/null || true
    fi
}
fail() {
    echo "package.sh: FAIL: $*" >&2
    exit 1
}

echo "-- cmake --install (DESTDIR staging, prefix /usr)"
cmake -S "$here" -B "$bdir" -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
DESTDIR="$tmp/stage" cmake --install "$bdir" >/dev/null
for f in "$modulesdir/fastcrypto.so" /usr/share/fastcrypto/fastcrypto.cnf \
    /usr/bin/fastcrypto-check /usr/bin/fastcrypto-stats \
    /usr/bin/fastcrypto-calibrate /usr/bin/fastcrypto-config "$unitfile"; do
    [ -e "$tmp/stage$f" ] || fail "missing $f"
    echo "   $f"
done
grep -qx "ExecStart=/usr/bin/fastcrypto-calibrate --budget 20 --out $wisdom" \
    "$tmp/stage$unitfile" || fail "the unit's ExecStart is not /usr/bin's"

echo "-- fastcrypto-calibrate --check: missing, fresh, foreign"
cal=$bdir/tools/fastcrypto-calibrate
# cal_check FILE WANT: --check's exit code on FILE is WANT.
cal_check() {
    local rc=0
    FASTCRYPTO_WISDOM=$1 OPENSSL_MODULES=$bdir "$cal" --check >"$tmp/out" 2>&1 || rc=$?
    sed 's/^/   /' "$tmp/out"
    [ "$rc" -eq "$2" ] || fail "--check on $1: exit $rc, want $2"
}
cal_check "$tmp/w/wisdom" 1
grep -q 'no such file' "$tmp/out" || fail "--check does not say the file is missing"
OPENSSL_MODULES=$bdir "$cal" --quick --budget 3 --out "$tmp/w/wisdom" >/dev/null
cal_check "$tmp/w/wisdom" 0
# The same with --out instead of the environment.
OPENSSL_MODULES=$bdir "$cal" --check --out "$tmp/w/wisdom" >/dev/null ||
    fail "--check --out on a fresh file"
sed 's/^\(key .*\) fc=[^ ]*$/\1 fc=0.0.0-elsewhere/' "$tmp/w/wisdom" >"$tmp/w/foreign"
grep -q 'fc=0.0.0-elsewhere' "$tmp/w/foreign" || fail "could not edit the key"
cal_check "$tmp/w/foreign" 1
grep -q 'ignored: key differs' "$tmp/out" || fail "--check does not say the key differs"

echo "-- cpack -G DEB"
(cd "$bdir" && cpack -G DEB >/dev/null)
deb=$(ls "$bdir"/fastcrypto_*.deb | head -1)
dpkg-deb -c "$deb" | awk '{print $6}' >"$tmp/contents"
sed 's/^/   /' "$tmp/contents" |
    grep -E 'fastcrypto(\.so|\.cnf|-check|-stats|-calibrate|-config|-calibrate\.service)$'
grep -qx ".$unitfile" "$tmp/contents" || fail "the package has no .$unitfile"
dpkg-deb -e "$deb" "$tmp/control"
for s in postinst prerm postrm; do
    [ -x "$tmp/control/$s" ] || fail "the package has no executable $s"
done
echo "-- postinst where there is no systemd and no deb-systemd-helper"
mkdir "$tmp/nobin"
out=$(PATH=$tmp/nobin "$tmp/control/postinst" configure "") ||
    fail "postinst failed without systemd"
echo "   $out"
case "$out" in
*"not enabled"*) ;;
*) fail "postinst does not say it enabled nothing" ;;
esac

if [ "$(id -u)" -ne 0 ]; then
    echo "-- not root: dpkg -i skipped"
    exit 0
fi
# Installing and purging a package changes the system: only when asked
# (scripts/test.sh asks), never from a plain `ctest` run as root.
if [ "${FC_E2E_INSTALL:-}" != 1 ]; then
    echo "-- dpkg -i skipped (FC_E2E_INSTALL=1 runs it: it installs and purges the package)"
    exit 0
fi
if dpkg-query -W -f='${Status}' fastcrypto 2>/dev/null | grep -q "ok installed"; then
    echo "-- a fastcrypto package is already installed: dpkg -i skipped"
    exit 0
fi
if [ -e "$wisdom" ]; then
    cp -p "$wisdom" "$tmp/wisdom.saved"
    saved=1
fi
echo "-- dpkg -i $(basename "$deb")"
dpkg -i "$deb" >"$tmp/dpkg.out" 2>&1 || { cat "$tmp/dpkg.out" >&2; fail "dpkg -i"; }
installed=1
sed -n 's/^fastcrypto: /   postinst: /p' "$tmp/dpkg.out"
if [ -d /run/systemd/system ]; then
    echo "   (systemd runs here: the postinst's messages are not checked)"
elif command -v deb-systemd-helper >/dev/null 2>&1; then
    grep -q "^fastcrypto: $unit enabled for the next boot (systemd is not running" \
        "$tmp/dpkg.out" || fail "postinst: no 'enabled for the next boot' line"
    [ -L "/etc/systemd/system/multi-user.target.wants/$unit" ] ||
        fail "postinst did not enable $unit"
fi
if command -v systemd-analyze >/dev/null 2>&1; then
    rc=0
    systemd-analyze verify "$unitfile" >"$tmp/verify" 2>&1 || rc=$?
    sed 's/^/   verify: /' "$tmp/verify"
    { [ "$rc" -eq 0 ] && ! grep -q . "$tmp/verify"; } ||
        fail "systemd-analyze verify $unitfile (exit $rc)"
    echo "   systemd-analyze verify: ok"
else
    for l in '^Type=oneshot$' '^ExecCondition=' '^ExecStart=/usr/bin/' \
        '^StateDirectory=fastcrypto$' '^WantedBy=multi-user.target$'; do
        grep -q "$l" "$unitfile" || fail "$unitfile has no $l"
    done
    echo "   (no systemd-analyze: the unit's key lines grepped)"
fi
# The unit's condition, as systemd runs it: calibrate when the file at the
# default path is missing or foreign. A foreign file (never a valid one:
# programs running now would follow it) stands in for the wisdom.
cond=$(sed -n 's/^ExecCondition=//p' "$unitfile")
rc=0
eval "$cond" >/dev/null || rc=$?
[ "$rc" -eq 0 ] || fail "the unit's condition skips calibration with no wisdom"
mkdir -p "$(dirname "$wisdom")"
cp "$tmp/w/foreign" "$wisdom"
placed=1
rc=0
eval "$cond" >/dev/null || rc=$?
[ "$rc" -eq 0 ] || fail "the unit's condition skips calibration on foreign wisdom"
fastcrypto-calibrate --check --out "$tmp/w/wisdom" >/dev/null ||
    fail "the installed fastcrypto-calibrate --check on a fresh file"
echo "   ExecCondition: calibrates on missing and on foreign wisdom"

# With the foreign wisdom in place it warns, and says what to run.
OPENSSL_CONF=/usr/share/fastcrypto/fastcrypto.cnf fastcrypto-check 2>"$tmp/check.err" ||
    { cat "$tmp/check.err" >&2; fail "fastcrypto-check"; }
cat "$tmp/check.err"
grep -q "warning: no valid wisdom for this machine ($wisdom: ignored: key differs" \
    "$tmp/check.err" || fail "fastcrypto-check does not warn on foreign wisdom"
grep -q "^    fastcrypto-calibrate " "$tmp/check.err" ||
    fail "fastcrypto-check's warning does not say to run fastcrypto-calibrate"

# fastcrypto-config as installed, on a scratch copy of the system config:
# its default fastcrypto.cnf is the package's, the module found by name.
cp "$(readlink -f "$(openssl version -d | sed 's/.*"\(.*\)"/\1/')/openssl.cnf")" "$tmp/sys.cnf"
cp "$tmp/sys.cnf" "$tmp/sys.orig"
fastcrypto-config enable --openssl-cnf "$tmp/sys.cnf" | sed 's/^/   /' ||
    fail "fastcrypto-config enable"
grep -q '^\.include /usr/share/fastcrypto/fastcrypto.cnf ' "$tmp/sys.cnf" ||
    fail "fastcrypto-config does not include the installed fastcrypto.cnf"
fastcrypto-config status --openssl-cnf "$tmp/sys.cnf" >/dev/null 2>&1 ||
    fail "fastcrypto-config status after enable"
fastcrypto-config disable --openssl-cnf "$tmp/sys.cnf" >/dev/null
cmp -s "$tmp/sys.cnf" "$tmp/sys.orig" || fail "fastcrypto-config disable"
echo "   fastcrypto-config: enable, status, disable on a copy of the system config"
# The prerm, on remove, undoes an enable in the openssl.cnf `openssl version
# -d` names (here a stand-in openssl names a scratch directory).
mkdir "$tmp/ssldir" "$tmp/fakebin"
cp "$tmp/sys.orig" "$tmp/ssldir/openssl.cnf"
fastcrypto-config enable --openssl-cnf "$tmp/ssldir/openssl.cnf" >/dev/null
printf '#!/bin/sh\necho "OPENSSLDIR: \\"%s\\""\n' "$tmp/ssldir" >"$tmp/fakebin/openssl"
chmod +x "$tmp/fakebin/openssl"
PATH=$tmp/fakebin:$PATH "$tmp/control/prerm" remove >/dev/null
cmp -s "$tmp/ssldir/openssl.cnf" "$tmp/sys.orig" || fail "prerm remove left fastcrypto enabled"
echo "   prerm remove: fastcrypto-config disable, the file back byte for byte"

dpkg -r fastcrypto >/dev/null 2>&1
[ ! -e "$modulesdir/fastcrypto.so" ] || fail "dpkg -r left the module"
[ ! -e "$unitfile" ] || fail "dpkg -r left $unitfile"
[ -e "$wisdom" ] || fail "dpkg -r deleted the wisdom"
if command -v deb-systemd-helper >/dev/null 2>&1; then
    [ "$(readlink "/etc/systemd/system/$unit")" = /dev/null ] ||
        fail "dpkg -r did not mask $unit"
fi
echo "-- removed: module and unit gone (masked), wisdom kept"
dpkg -P fastcrypto >/dev/null 2>&1
installed=0
[ ! -e "$wisdom" ] || fail "dpkg -P left $wisdom"
[ ! -e "$(dirname "$wisdom")" ] || fail "dpkg -P left $(dirname "$wisdom")"
if ls /etc/systemd/system/*/"$unit" /etc/systemd/system/"$unit" >/dev/null 2>&1; then
    fail "dpkg -P left $unit links in /etc/systemd/system"
fi
echo "-- purged: wisdom and unit links gone"
