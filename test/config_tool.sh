#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# config_tool.sh MODULE SOURCE_DIR - fastcrypto-config on scratch copies of
# system configs, with fastcrypto.cnf pointed at MODULE (this build's):
#   - Debian 12's stock /etc/ssl/openssl.cnf (openssl 3.0.19-1~deb12u2,
#     unmodified: `dpkg -V openssl` silent) and Debian 13's (the file in
#     openssl_3.5.7-1~deb13u2_amd64.deb from deb.debian.org), byte for byte
#     in test/conf/: enable, then the stock openssl lists default and
#     fastcrypto active; enable again changes nothing; status runs
#     fastcrypto-check (exit 0: loaded and preferred); disable gives the
#     original bytes back and removes the copy;
#   - hand-edited ones: set up by hand the way the old README said (left
#     alone), a custom provider section with legacy (merged: default,
#     legacy and fastcrypto active), .include lines (an unrelated file
#     merged; one defining a section to edit, or a relative path, refused),
#     unmergeable layouts (no default, default off, FIPS, another
#     default_properties: refused), a missing file, a read-only file, a
#     symlink, no openssl_conf and no final newline, a file edited between
#     enable and disable (only the added lines go).
# "Refused" means exit 3 and the file byte for byte as it was.
set -eu
module=$1
src=$2
tool=$src/tools/fastcrypto-config.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/config_tool.XXXXXX")
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
unset OPENSSL_CONF
export FASTCRYPTO_CHECK="$src/tools/fastcrypto-check.sh"
sed "s|^module = .*|module = $module|" "$src/fastcrypto.cnf" >"$tmp/fc.cnf"
n=0
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
fc() { "$tool" "$@" --fastcrypto-cnf "$tmp/fc.cnf"; }
# active FILE: the providers active under FILE, space-separated, sorted.
active() {
    OPENSSL_CONF=$1 openssl list -providers 2>/dev/null |
        awk '/^  [^ ]/ { n = $1 } /status: active/ { print n }' | sort | tr '\n' ' '
}
# want_rc RC CMD...: CMD exits RC.
want_rc() {
    wrc=$1
    shift
    rc=0
    "$@" >"$tmp/out" 2>&1 || rc=$?
    sed 's/^/    /' "$tmp/out"
    [ "$rc" -eq "$wrc" ] || fail "$* exited $rc, want $wrc"
}
# roundtrip NAME FILE [PROVIDERS]: enable (PROVIDERS active after), enable
# again (no change), disable (the original bytes, no copy left).
roundtrip() {
    name=$1 f=$2 want=${3:-default fastcrypto }
    n=$((n + 1))
    echo "-- $name"
    cp "$f" "$tmp/orig"
    want_rc 0 fc enable --openssl-cnf "$f"
    [ "$(active "$f")" = "$want" ] || fail "$name: active after enable: '$(active "$f")', want '$want'"
    [ -f "$f.before-fastcrypto" ] && cmp -s "$f.before-fastcrypto" "$tmp/orig" ||
        fail "$name: no copy of the original"
    cp "$f" "$tmp/enabled"
    want_rc 0 fc enable --openssl-cnf "$f"
    grep -q 'already enabled' "$tmp/out" || fail "$name: second enable"
    cmp -s "$f" "$tmp/enabled" || fail "$name: a second enable changed the file"
    want_rc 0 fc disable --openssl-cnf "$f"
    cmp -s "$f" "$tmp/orig" || fail "$name: not byte for byte the original after disable"
    [ ! -e "$f.before-fastcrypto" ] || fail "$name: the copy is left after disable"
    [ "$(active "$f")" != "$want" ] || fail "$name: still active after disable"
}
# refused NAME FILE REASON: enable exits 3, says REASON, changes nothing.
refused() {
    n=$((n + 1))
    echo "-- $1 (refused)"
    cp "$2" "$tmp/orig"
    want_rc 3 fc enable --openssl-cnf "$2"
    grep -q "$3" "$tmp/out" || fail "$1: the refusal does not say '$3'"
    cmp -s "$2" "$tmp/orig" || fail "$1: the file changed"
    [ ! -e "$2.before-fastcrypto" ] || fail "$1: a copy was made"
}

cp "$src/test/conf/debian12-openssl.cnf" "$tmp/d12.cnf"
cp "$src/test/conf/debian13-openssl.cnf" "$tmp/d13.cnf"
[ "$(active "$tmp/d12.cnf")" = "default " ] || fail "stock Debian 12 config: $(active "$tmp/d12.cnf")"
roundtrip "Debian 12 stock" "$tmp/d12.cnf"
roundtrip "Debian 13 stock" "$tmp/d13.cnf"

echo "-- status on the enabled Debian 13 config (fastcrypto-check)"
n=$((n + 1))
fc enable --openssl-cnf "$tmp/d13.cnf" >/dev/null
want_rc 0 "$tool" status --openssl-cnf "$tmp/d13.cnf"
grep -q 'enabled by fastcrypto-config' "$tmp/out" || fail "status: state"
grep -q 'fastcrypto-check: ok: fastcrypto is loaded and preferred' "$tmp/out" || fail "status: check"
# The Debian 13 file keeps its section order: default before fastcrypto.
awk '/^default = default_sect/ { d = NR } /^fastcrypto = fastcrypto_sect/ { f = NR }
     END { exit !(d && f == d + 1) }' "$tmp/d13.cnf" || fail "fastcrypto is not right after default"
# Under the newest OpenSSL too, where cached (scripts/newer_openssl.sh).
new=$(ls -d /var/cache/fastcrypto/openssl-3.*/bin/openssl 2>/dev/null | tail -1 || true)
if [ -n "$new" ]; then
    got=$(OPENSSL_CONF=$tmp/d13.cnf LD_LIBRARY_PATH=${new%/bin/openssl}/lib "$new" list -providers |
        awk '/^  [^ ]/ { n = $1 } /status: active/ { print n }' | sort | tr '\n' ' ')
    [ "$got" = "default fastcrypto " ] || fail "under $new: '$got'"
    echo "    $("$new" version 2>/dev/null || true): $got"
fi
fc disable --openssl-cnf "$tmp/d13.cnf" >/dev/null
cmp -s "$tmp/d13.cnf" "$src/test/conf/debian13-openssl.cnf" || fail "Debian 13 after status"
want_rc 3 "$tool" status --openssl-cnf "$tmp/d13.cnf"

# Set up by hand as the README used to say: .include at the top, the
# file's own openssl_conf commented out. Left alone, and said so.
n=$((n + 1))
echo "-- set up by hand"
{
    echo ".include $tmp/fc.cnf"
    sed 's/^openssl_conf = /# openssl_conf = /' "$src/test/conf/debian12-openssl.cnf"
} >"$tmp/hand.cnf"
cp "$tmp/hand.cnf" "$tmp/orig"
want_rc 0 fc enable --openssl-cnf "$tmp/hand.cnf"
grep -q 'set up by hand' "$tmp/out" || fail "hand: not recognised"
cmp -s "$tmp/hand.cnf" "$tmp/orig" || fail "hand: changed"

# A custom init section with another provider (legacy) and an ssl_conf.
cat >"$tmp/custom.cnf" <<'EOF'
HOME = .
openssl_conf = my_init
[my_init]
providers = my_providers
ssl_conf = my_ssl
[my_providers]
default = my_default
legacy = my_legacy
[my_default]
activate = yes
[my_legacy]
activate = 1
[my_ssl]
system_default = my_sysdef
[my_sysdef]
MinProtocol = TLSv1.2
EOF
roundtrip "custom section with legacy" "$tmp/custom.cnf" "default fastcrypto legacy "

# An include of an unrelated file: merged. No final newline, no openssl_conf.
printf '[extra]\nfoo = bar\n' >"$tmp/extra.cnf"
sed "s|^HOME = .|.include $tmp/extra.cnf\n[default]\nHOME = .|" "$tmp/custom.cnf" >"$tmp/inc.cnf"
roundtrip "with an .include" "$tmp/inc.cnf" "default fastcrypto legacy "
printf 'HOME = .\n[x]\ny = 1' >"$tmp/bare.cnf"
roundtrip "no openssl_conf, no final newline" "$tmp/bare.cnf"

# Refused.
printf '[my_init]\nalg_section = elsewhere\n' >"$tmp/sects.cnf"
sed "s|^HOME = .|.include $tmp/sects.cnf\n[default]\nHOME = .|" "$tmp/custom.cnf" >"$tmp/r1.cnf"
refused "an include defining the init section" "$tmp/r1.cnf" "also) defined in"
sed "s|^HOME = .|.include extra.cnf\nHOME = .|" "$tmp/custom.cnf" >"$tmp/r2.cnf"
refused "a relative include" "$tmp/r2.cnf" "relative path"
sed '/^default = my_default/d' "$tmp/custom.cnf" >"$tmp/r3.cnf"
refused "no default provider" "$tmp/r3.cnf" "but not default"
sed 's/^activate = yes/activate = 0/' "$tmp/custom.cnf" >"$tmp/r4.cnf"
refused "default switched off" "$tmp/r4.cnf" "switches the default provider off"
sed 's/^legacy = my_legacy/fips = my_legacy/' "$tmp/custom.cnf" >"$tmp/r5.cnf"
refused "a FIPS provider" "$tmp/r5.cnf" "not a FIPS provider"
sed 's/^ssl_conf = my_ssl/alg_section = my_alg\n[my_alg]\ndefault_properties = fips=no/' \
    "$tmp/custom.cnf" >"$tmp/r6.cnf"
refused "another default_properties" "$tmp/r6.cnf" "already sets default_properties"
printf 'openssl_conf = nowhere\n[x]\ny = 1\n' >"$tmp/r7.cnf"
refused "openssl_conf naming no section" "$tmp/r7.cnf" "defined 0 times"
cp "$tmp/custom.cnf" "$tmp/ro.cnf"
chmod 444 "$tmp/ro.cnf"
refused "a read-only file" "$tmp/ro.cnf" "read-only"
n=$((n + 1))
echo "-- a missing file (refused)"
want_rc 3 fc enable --openssl-cnf "$tmp/missing.cnf"
[ ! -e "$tmp/missing.cnf" ] || fail "missing: created"

# A symlink (Debian's /usr/lib/ssl/openssl.cnf): the target is edited.
n=$((n + 1))
echo "-- through a symlink"
cp "$src/test/conf/debian12-openssl.cnf" "$tmp/target.cnf"
ln -s "$tmp/target.cnf" "$tmp/link.cnf"
want_rc 0 fc enable --openssl-cnf "$tmp/link.cnf"
[ -L "$tmp/link.cnf" ] && grep -q 'added by fastcrypto-config' "$tmp/target.cnf" ||
    fail "symlink: the link or the target"
want_rc 0 fc disable --openssl-cnf "$tmp/link.cnf"
cmp -s "$tmp/target.cnf" "$src/test/conf/debian12-openssl.cnf" || fail "symlink: disable"

# Edited between enable and disable: only the added lines go.
n=$((n + 1))
echo "-- edited after enable"
cp "$src/test/conf/debian13-openssl.cnf" "$tmp/ed.cnf"
fc enable --openssl-cnf "$tmp/ed.cnf" >/dev/null
echo "# a later edit" >>"$tmp/ed.cnf"
want_rc 0 fc disable --openssl-cnf "$tmp/ed.cnf"
{
    cat "$src/test/conf/debian13-openssl.cnf"
    echo "# a later edit"
} | cmp -s - "$tmp/ed.cnf" || fail "edited: not the original plus the edit"
[ -f "$tmp/ed.cnf.before-fastcrypto" ] || fail "edited: the copy was not kept"

echo "config_tool: ok ($n cases)"
