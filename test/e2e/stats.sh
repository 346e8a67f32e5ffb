#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# stats.sh [BUILD_DIR] - live counters with real programs.
#
#   1. nginx (master + 2 workers), configured with `stats_dir` in the
#      fastcrypto section, serves TLS 1.3 and TLS 1.2 to curl while
#      `fastcrypto-stats` reads the counters of the running processes:
#      the master and the workers that served (a file is made at a
#      process's first counted operation), the workers children of the
#      master, one RSA signature per full handshake, the GCM counters
#      growing between two reads. After a graceful stop (SIGQUIT; SIGTERM
#      may escalate to SIGKILL under load) the files say "exited"; a second
#      nginx folds them into nginx's "ended" sums as it starts, and, killed
#      with SIGKILL, leaves its own counts, "gone"; --clean removes all.
#   2. A Python program (python3-cryptography) that leaves through
#      os._exit(): its counts stay readable.
#   3. `ulimit -f 0` (RLIMIT_FSIZE = 0, as in OpenSSH's sandbox) with
#      FASTCRYPTO_STATS=1 and stderr on a file: the program is not killed
#      by SIGXFSZ, writes nothing there, makes no stats file, and its
#      output is right.
#   4. A stats directory the program cannot write (run as nobody; and one
#      that does not exist): ignored, output right.
#   5. Forks: 10,000 children of test_stats, each one AES-GCM message
#      through EVP, leaving through _exit() (test_fork_bound), and a
#      Python program forking 2,000 children, half of them idle: the
#      directory keeps a few files, and `fastcrypto-stats -a` reports every
#      message.
#   6. (root) Files planted in a shared directory by another user
#      (nobody): one claiming nginx's counts is flagged and kept out of
#      nginx's total; terminal escapes in names are printed escaped; times
#      out of range and --clean do not crash the tool.
#
# Prints one ok/FAIL line per check; exits non-zero on any failure.
# FC_KEEP_TMP=1 keeps the scratch directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
[ -x "$tool" ] || { echo "no $tool" >&2; exit 1; }
for c in nginx curl openssl; do
    command -v "$c" >/dev/null || { echo "stats.sh: needs $c" >&2; exit 1; }
done
nginx_pid=""
live=""
e2e_on_exit() {
    [ -z "$nginx_pid" ] || kill_tree "$nginx_pid"
    [ -z "$live" ] || kill "$live" 2>/dev/null || true
}

stats=$tmp/stats
mkdir -m 0755 "$stats"
# The shipped config, the module from the build, stats_dir set there.
fc_conf "s|^# stats_dir = .*|stats_dir = $stats|" >"$tmp/fc.cnf"
grep -q "^stats_dir = $stats" "$tmp/fc.cnf" || { echo "no stats_dir line in fastcrypto.cnf" >&2; exit 1; }
export OPENSSL_CONF=$tmp/fc.cnf
# Helper runs (curl) keep their stats files elsewhere.
other=(env FASTCRYPTO_STATS_DIR="$tmp/other")
mkdir "$tmp/other"
echo "== $(nginx -v 2>&1), $(openssl version)"

# --- 1. nginx ------------------------------------------------------------------
e2e_cert
mkdir -p "$tmp/www"
head -c 200000 /dev/urandom >"$tmp/www/f"

# ngx_start PREFIX: master + 2 workers, no access log, no session
# resumption (every download a full handshake); sets nginx_pid, port.
ngx_start() {
    nginx_start "$1" "    access_log off;" "        ssl_session_cache off;
        ssl_session_tickets off;"
}

# get N ARGS...: N separate curl runs (N full handshakes), body checked.
want=$(sha256sum <"$tmp/www/f" | cut -d' ' -f1)
get() {
    local n=$1 _
    shift
    for _ in $(seq "$n"); do
        [ "$("${other[@]}" curl -sS --fail --max-time 20 --cacert "$tmp/cert.pem" "$@" \
            "https://127.0.0.1:$port/f" | sha256sum | cut -d' ' -f1)" = "$want" ] || return 1
    done
}

ngx_start "$tmp/ng1"
m=$nginx_pid
get_ok=1
get 6 --tlsv1.3 || get_ok=0
get 4 --tlsv1.2 --tls-max 1.2 || get_ok=0
check "nginx: 10 downloads over TLS 1.3 and 1.2, bodies intact" test "$get_ok" -eq 1

echo "-- fastcrypto-stats -n nginx (nginx running)"
"$tool" -d "$stats" -n nginx | sed 's/^/   /'
nrun=$("$tool" -d "$stats" -n nginx -r | grep -c ' state=running ' || true)
check "nginx: the master and the workers that served listed running (2 or 3), got $nrun" \
    test "$nrun" -ge 2 -a "$nrun" -le 3
nkids=$("$tool" -d "$stats" -n nginx -r | grep -c " ppid=$m " || true)
check "nginx: all but the master are its children ($m), got $nkids" test "$nkids" -eq $((nrun - 1))
s=$(sum rsa-sign "program=nginx ")
check "nginx: rsa-sign = 10 (one per full handshake), live: $s" test "$s" -eq 10
g13=$(sum aes-gcm-enc "program=nginx ")
g12=$(sum aes-gcm-tls "program=nginx ")
check "nginx: TLS 1.3 GCM messages ($g13) and TLS 1.2 GCM records ($g12) counted live" \
    test "$g13" -gt 0 -a "$g12" -gt 0
mg=$(sum aes-gcm-enc "program=nginx pid=$m ")
check "nginx: the master served no records ($mg)" test "$mg" -eq 0
get 3 --tlsv1.3 || bad "nginx: 3 more downloads"
g13b=$(sum aes-gcm-enc "program=nginx ")
s=$(sum rsa-sign "program=nginx ")
check "nginx: counters grow while it runs (aes-gcm-enc $g13 -> $g13b, rsa-sign $s)" \
    test "$g13b" -gt "$g13" -a "$s" -eq 13
echo "-- fastcrypto-stats -s (totals)"
"$tool" -d "$stats" -s | sed 's/^/   /'

kill -QUIT "$m"
wait "$m" 2>/dev/null || true
nginx_pid=""
nex=$(raw | grep " program=nginx " | grep -c ' state=exited ' || true)
nother=$(raw | grep " program=nginx " | grep -vc ' state=exited ' || true)
check "nginx: after SIGQUIT, every file marked exited ($nex, $nother not), counts kept" \
    test "$nex" -ge 2 -a "$nother" -eq 0 -a "$(sum rsa-sign "program=nginx ")" -eq 13

ngx_start "$tmp/ng2"
m2=$nginx_pid
get 2 --tlsv1.3 || bad "nginx 2: downloads"
kill_tree "$m2"
wait "$m2" 2>/dev/null || true
nginx_pid=""
sleep 0.2
ngone=$(raw | grep " program=nginx " | grep -c ' state=gone ' || true)
nother=$(raw | grep " program=nginx " | grep -v ' state=ended ' | grep -vc ' state=gone ' || true)
s=$(sum rsa-sign "program=nginx .* state=gone ")
check "nginx: after SIGKILL, its files gone ($ngone, $nother not) keeping their counts (rsa-sign $s)" \
    test "$ngone" -ge 2 -a "$nother" -eq 0 -a "$s" -eq 2
s=$(sum rsa-sign "program=nginx .* state=ended ")
m=$(raw | sed -n 's/.* program=nginx .* state=ended .* merged=\([0-9]*\) .*/\1/p')
check "nginx: the first nginx's files folded into nginx's ended sums (rsa-sign $s, $m processes)" \
    test "$s" -eq 13 -a "${m:-0}" -ge 2
"$tool" -d "$stats" --clean -n nginx >/dev/null
left=$(find "$stats" -name 'nginx.*' | wc -l)
check "fastcrypto-stats --clean removes the exited and gone files ($left left)" test "$left" -eq 0

# --- 2. _exit --------------------------------------------------------------------------
if /usr/bin/python3 -c 'import cryptography' 2>/dev/null; then
    /usr/bin/python3 -c '
import os
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
a = AESGCM(bytes(16))
for i in range(7):
    a.encrypt(bytes(12), b"x" * 1000, None)
print(os.getpid(), flush=True)
os._exit(0)' >"$tmp/py.pid"
    pp=$(cat "$tmp/py.pid")
    line=$("$tool" -d "$stats" -a -r -p "$pp")
    check "python os._exit(): counts readable afterwards, state gone" \
        grep -qE " state=gone .* aes-gcm-enc=7 " <<<"$line"
else
    echo "skip  python os._exit(): python3-cryptography not installed"
fi

# --- 3. RLIMIT_FSIZE = 0 -------------------------------------------------------------
key=000102030405060708090a0b0c0d0e0f
iv=0f0e0d0c0b0a09080706050403020100
printf 'attack at dawn' >"$tmp/plain"
ref=$(OPENSSL_CONF=/dev/null openssl enc -aes-128-cbc -K $key -iv $iv -in "$tmp/plain" | od -An -tx1 | tr -d ' \n')
rc=0
out=$(bash -c "ulimit -f 0; FASTCRYPTO_STATS=1 openssl enc -aes-128-cbc -K $key -iv $iv \
    -in '$tmp/plain' 2>'$tmp/fsize.err' | od -An -tx1 | tr -d ' \n'; exit \${PIPESTATUS[0]}") || rc=$?
check "RLIMIT_FSIZE=0, FASTCRYPTO_STATS=1, stderr on a file: exit $rc (no SIGXFSZ), output right" \
    test "$rc" -eq 0 -a "$out" = "$ref"
check "RLIMIT_FSIZE=0: nothing written to stderr ($(stat -c %s "$tmp/fsize.err") bytes)" \
    test ! -s "$tmp/fsize.err"

# --- 4. a stats directory that cannot be used -------------------------------------------
for d in "$tmp/ro" "$tmp/missing/dir"; do
    runner=()
    if [ "$d" = "$tmp/ro" ]; then
        mkdir -m 0555 "$d"
        [ "$(id -u)" -ne 0 ] || runner=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
    fi
    rc=0
    out=$(FASTCRYPTO_STATS_DIR=$d "${runner[@]}" openssl enc -aes-128-cbc -K $key -iv $iv \
        -in "$tmp/plain" 2>"$tmp/ro.err" | od -An -tx1 | tr -d ' \n') || rc=$?
    check "stats dir $d${runner:+ (as nobody)}: ignored, exit $rc, output right" \
        test "$rc" -eq 0 -a "$out" = "$ref" -a ! -s "$tmp/ro.err"
done
check "no file in the unwritable directory" test -z "$(ls -A "$tmp/ro")"

# --- 5. forks ---------------------------------------------------------------------------
if [ -x "$bdir/test/test_stats" ]; then
    rc=0
    out=$(FC_TEST_FORKS=10000 FC_TEST_FILTER=test_fork_bound FC_TEST_CONF="$bdir/test/fastcrypto-test.cnf" \
        FC_TEST_STATS_TOOL="$tool" "$bdir/test/test_stats" 2>&1) || rc=$?
    grep -E 'children|total' <<<"$out" | sed 's/^/   /'
    check "10,000 forked children, one AES-GCM message each, _exit(): few files, every message counted" \
        test "$rc" -eq 0
else
    skip "10,000 forks: no $bdir/test/test_stats (built without tests)"
fi
if /usr/bin/python3 -c 'import cryptography' 2>/dev/null; then
    forks=$tmp/forks
    mkdir "$forks"
    FASTCRYPTO_STATS_DIR=$forks /usr/bin/python3 -c '
import os
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
a = AESGCM(bytes(16))
for i in range(2000):
    pid = os.fork()
    if pid == 0:
        if i % 2:
            a.encrypt(bytes(12), b"x" * 100, None)
        os._exit(0)
    os.waitpid(pid, 0)'
    nf=$(find "$forks" -name '*.fcstats' | wc -l)
    g=$("$tool" -d "$forks" -a -z -r | grep " program=python3 " | awk '
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "aes-gcm-enc") s += kv[2] } }
        END { print s + 0 }')
    check "python: 2,000 forked children (1,000 idle) leave $nf files (at most 10), aes-gcm-enc $g = 1000" \
        test "$nf" -le 10 -a "$g" -eq 1000
else
    skip "python forks: python3-cryptography not installed"
fi

# --- 6. planted files ------------------------------------------------------------------------
if [ "$(id -u)" -eq 0 ]; then
    pl=$tmp/planted
    mkdir -m 1777 "$pl"
    # A running program of root's with a file of its own.
    FASTCRYPTO_OFFER=all FASTCRYPTO_STATS_DIR=$pl openssl enc -aes-128-cbc -K $key -iv $iv -in "$tmp/plain" >/dev/null
    sleep 300 >/dev/null 2>&1 &
    live=$!
    # fc/stats_file.h's layout, native (little-endian) byte order.
    /usr/bin/python3 - "$pl" "$live" <<'PY'
import os, struct, sys
d, live = sys.argv[1], int(sys.argv[2])
def page(comm, pid, gcm, created, names=(b"aes-gcm-enc", b"rsa-sign")):
    b = bytearray(4096)
    struct.pack_into("<8sIIIIqqQqqII16s", b, 0, b"FCSTATS", 1, 4096, len(names), 1,
                     pid, 1, 0, created, 0, 0, 0, comm)
    for i, n in enumerate(names):
        struct.pack_into("24s", b, 248 + 24 * i, n)
    struct.pack_into("<Q", b, 1024, gcm)
    return bytes(b)
def plant(name, data, uid):
    p = os.path.join(d, name)
    with open(p, "wb") as f:
        f.write(data)
    os.chown(p, uid, -1)
plant("planted.claim.fcstats", page(b"openssl", live, 999999, 1700000000), 65534)
plant("planted.esc.fcstats", page(b"\x1b]0;owned\x07", live, 5, 1700000000,
      (b"\x1b[2J\x9b", b"rsa-sign")), 0)
plant("planted.time.fcstats", page(b"badtime", live, 4, -(1 << 63)), 0)
plant("planted.time2.fcstats", page(b"badtime", live, 4, (1 << 63) - 1), 0)
PY
    rc=0
    out=$("$tool" -d "$pl" -a 2>&1) || rc=$?
    printf '%s\n' "$out" | sed 's/^/   /'
    check "planted files: the tool exits 0 ($rc) on times out of range" test "$rc" -eq 0
    esc_ok=0
    if ! LC_ALL=C grep -q '[^[:print:]]' <<<"$out" && grep -qF '\x1b]0;owned\x07' <<<"$out"; then
        esc_ok=1
    fi
    check "planted files: no control byte reaches the terminal, escapes shown as \\x1b" test "$esc_ok" -eq 1
    check "planted files: nobody's file claiming openssl's counts is flagged" \
        grep -q "^openssl .*aes-gcm-enc=999999 .*\[unverified: owner uid 65534\]" <<<"$out"
    t=$("$tool" -d "$pl" -a -s -n openssl | awk '$2 == "total"')
    check "planted files: ... and not in openssl's total ($t)" \
        test -n "$t" -a "${t/999999/}" = "$t"
    rc=0
    "$tool" -d "$pl" --clean >/dev/null 2>&1 || rc=$?
    left=$(find "$pl" -name '*.fcstats' | wc -l)
    check "planted files: --clean (root) exits $rc and removes them all ($left left)" test "$rc" -eq 0 -a "$left" -eq 0
    kill "$live" 2>/dev/null || true
    wait "$live" 2>/dev/null || true
    live=""
else
    skip "planted files: not root (needs files owned by nobody)"
fi

e2e_done
