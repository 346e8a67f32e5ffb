#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# stats_e2e.sh [BUILD_DIR] - live counters with real programs.
#
#   1. nginx (master + 2 workers), configured with `stats_dir` in the
#      fastcrypto section, serves TLS 1.3 and TLS 1.2 to curl while
#      `fastcrypto-stats` reads the counters of the running processes:
#      three nginx processes, the workers children of the master, one RSA
#      signature per full handshake, the GCM counters growing between two
#      reads. After a graceful stop (SIGQUIT; SIGTERM may escalate to
#      SIGKILL under load) the files say "exited"; a second nginx killed
#      with SIGKILL leaves its counts, "gone"; --clean removes both.
#   2. A Python program (python3-cryptography) that leaves through
#      os._exit(): its counts stay readable.
#   3. `ulimit -f 0` (RLIMIT_FSIZE = 0, as in OpenSSH's sandbox) with
#      FASTCRYPTO_STATS=1 and stderr on a file: the program is not killed
#      by SIGXFSZ, writes nothing there, makes no stats file, and its
#      output is right.
#   4. A stats directory the program cannot write (run as nobody; and one
#      that does not exist): ignored, output right.
#
# Prints one ok/FAIL line per check; exits non-zero on any failure.
# FC_KEEP_TMP=1 keeps the scratch directory.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "${1:-$here/build}" && pwd)
tool=$bdir/tools/fastcrypto-stats
[ -f "$bdir/fastcrypto.so" ] || { echo "no $bdir/fastcrypto.so" >&2; exit 1; }
[ -x "$tool" ] || { echo "no $tool" >&2; exit 1; }
PATH=$PATH:/usr/sbin
for c in nginx curl openssl; do
    command -v "$c" >/dev/null || { echo "stats_e2e: needs $c" >&2; exit 1; }
done

tmp=$(mktemp -d /tmp/fc-stats-e2e.XXXXXX)
chmod 0755 "$tmp"
nginx_pid=""
cleanup() {
    if [ -n "$nginx_pid" ]; then
        kill_tree "$nginx_pid"
    fi
    if [ -n "${FC_KEEP_TMP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# shellcheck source=scripts/e2e_lib.sh
. "$here/scripts/e2e_lib.sh"

stats=$tmp/stats
mkdir -m 0755 "$stats"
# The shipped config, the module from the build, stats_dir set there.
sed -e "s|^module = .*|module = $bdir/fastcrypto.so|" \
    -e "s|^# stats_dir = .*|stats_dir = $stats|" "$here/fastcrypto.cnf" >"$tmp/fc.cnf"
grep -q "^stats_dir = $stats" "$tmp/fc.cnf" || { echo "no stats_dir line in fastcrypto.cnf" >&2; exit 1; }
export OPENSSL_CONF=$tmp/fc.cnf
# Helper runs (openssl req, curl) keep their stats files elsewhere.
other=(env FASTCRYPTO_STATS_DIR="$tmp/other")
mkdir "$tmp/other"
echo "== $(nginx -v 2>&1), $(openssl version)"

# --- 1. nginx ------------------------------------------------------------------
"${other[@]}" openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost -days 2 \
    -addext "subjectAltName=IP:127.0.0.1" -propquery provider=default \
    -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null
mkdir -p "$tmp/www"
head -c 200000 /dev/urandom >"$tmp/www/f"

# nginx_start DIR: master + 2 workers in prefix DIR; sets nginx_pid, port.
nginx_start() {
    local p=$1 user="" _
    [ "$(id -u)" -ne 0 ] || user="user root root;"
    mkdir -p "$p/tmp"
    port=$(pick_port)
    cat >"$p/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes 2;
$user
pid $p/nginx.pid;
error_log $p/error.log notice;
env OPENSSL_CONF;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $p/tmp/body;
    proxy_temp_path $p/tmp/proxy;
    fastcgi_temp_path $p/tmp/fastcgi;
    uwsgi_temp_path $p/tmp/uwsgi;
    scgi_temp_path $p/tmp/scgi;
    server {
        listen 127.0.0.1:$port ssl;
        ssl_certificate $tmp/cert.pem;
        ssl_certificate_key $tmp/key.pem;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache off;
        ssl_session_tickets off;
        root $tmp/www;
    }
}
EOF
    nginx -p "$p" -c "$p/nginx.conf" -e "$p/error.log" >"$p/out" 2>&1 &
    nginx_pid=$!
    for _ in $(seq 100); do
        (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && return 0
        sleep 0.05
    done
    echo "nginx did not start" >&2
    tail -5 "$p/error.log" >&2 || true
    return 1
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

nginx_start "$tmp/ng1"
m=$nginx_pid
get_ok=1
get 6 --tlsv1.3 || get_ok=0
get 4 --tlsv1.2 --tls-max 1.2 || get_ok=0
check "nginx: 10 downloads over TLS 1.3 and 1.2, bodies intact" test "$get_ok" -eq 1

echo "-- fastcrypto-stats -n nginx (nginx running)"
"$tool" -d "$stats" -n nginx | sed 's/^/   /'
nrun=$("$tool" -d "$stats" -n nginx -r | grep -c ' state=running ' || true)
check "nginx: 3 running processes listed (master + 2 workers), got $nrun" test "$nrun" -eq 3
nkids=$("$tool" -d "$stats" -n nginx -r | grep -c " ppid=$m " || true)
check "nginx: 2 of them children of the master ($m), got $nkids" test "$nkids" -eq 2
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
check "nginx: after SIGQUIT, 3 files marked exited ($nex), counts kept" \
    test "$nex" -eq 3 -a "$(sum rsa-sign "program=nginx ")" -eq 13

nginx_start "$tmp/ng2"
m2=$nginx_pid
get 2 --tlsv1.3 || bad "nginx 2: downloads"
kill_tree "$m2"
wait "$m2" 2>/dev/null || true
nginx_pid=""
sleep 0.2
ngone=$(raw | grep " program=nginx " | grep -c ' state=gone ' || true)
s=$(sum rsa-sign "program=nginx .* state=gone ")
check "nginx: after SIGKILL, 3 files gone ($ngone) keeping their counts (rsa-sign $s)" \
    test "$ngone" -eq 3 -a "$s" -eq 2
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

echo "$fails failed"
[ "$fails" -eq 0 ]
