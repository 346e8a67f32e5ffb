# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# lib.sh - the helpers of the end-to-end tests (test/e2e/*.sh), sourced:
# the scratch directory and the module copy, certificates, OpenSSL configs,
# loopback ports, nginx, the ok/FAIL lines and fastcrypto's counters.
# CTest runs each test with this build's directory as its argument
# (test/e2e/CMakeLists.txt); by hand: test/e2e/NAME.sh [BUILD_DIR].

# e2e_init [BUILD_DIR]: sets here (the source tree), bdir, tool
# (fastcrypto-stats), tmp (a 0755 scratch directory, removed at exit unless
# FC_KEEP_TMP is set) and mod, a 0755 directory holding a 0644 copy of the
# module: programs that run unprivileged (PostgreSQL, sshd, `nobody`) load
# it from there, wherever the build tree lives (a clone under a 0700 home
# is unreadable to them). At exit, e2e_on_exit (if the test defines it)
# runs, then every pid in e2e_pids is killed with its children.
e2e_init() {
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    bdir=$(cd "${1:-$here/build}" && pwd)
    tool=$bdir/tools/fastcrypto-stats
    [ -f "$bdir/fastcrypto.so" ] || { echo "no $bdir/fastcrypto.so" >&2; exit 1; }
    PATH=$PATH:/usr/sbin:/usr/local/sbin
    tmp=$(mktemp -d "/tmp/fc-$(basename "$0" .sh).XXXXXX")
    chmod 0755 "$tmp"
    trap e2e_cleanup EXIT
    trap 'exit 130' INT TERM
    mod=$tmp/mod
    mkdir -m 0755 "$mod"
    install -m 0644 "$bdir/fastcrypto.so" "$mod/fastcrypto.so"
}
e2e_pids=()
e2e_cleanup() {
    local p
    if declare -F e2e_on_exit >/dev/null; then e2e_on_exit || true; fi
    for p in "${e2e_pids[@]}"; do kill_tree "$p"; done
    if [ -n "${FC_KEEP_TMP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}

# One line per check; $fails counts the FAIL lines. e2e_done ends a test:
# "N failed", exit status 0 only for none.
fails=0
ok() { echo "ok    $*"; }
bad() { echo "FAIL  $*"; fails=$((fails + 1)); }
skip() { echo "skip  $*"; }
info() { echo "info  $*"; }
check() { # check LABEL COND...
    local label=$1
    shift
    if "$@"; then ok "$label"; else bad "$label"; fi
}
e2e_done() {
    echo "$fails failed"
    [ "$fails" -eq 0 ]
}

# --- OpenSSL configs and the certificate ----------------------------------
# fc_conf [SED EXPR...]: the shipped fastcrypto.cnf, its module the copy in
# $mod, then the given sed expressions (stats_dir, default_properties).
fc_conf() {
    local e=(-e "s|^module = .*|module = $mod/fastcrypto.so|") x
    for x in "$@"; do e+=(-e "$x"); done
    sed "${e[@]}" "$here/fastcrypto.cnf"
}
# default_conf: a config whose init section loads nothing, so the default
# provider is loaded as the fallback.
default_conf() { printf 'openssl_conf = openssl_init\n[openssl_init]\n'; }

# e2e_cert: $tmp/key.pem and $tmp/cert.pem, RSA-2048, self-signed for
# localhost and 127.0.0.1, made on the default provider alone (no
# fastcrypto counter moves).
e2e_cert() {
    OPENSSL_CONF=/dev/null openssl req -x509 -newkey rsa:2048 -nodes \
        -subj /CN=localhost -days 2 \
        -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
        -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null
}

# --- ports and processes ----------------------------------------------------
# pick_port: a random high loopback port nothing listens on.
pick_port() {
    local p _
    for _ in $(seq 30); do
        p=$((20000 + RANDOM % 40000))
        if ! (exec 3<>/dev/tcp/127.0.0.1/"$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# wait_port PORT [PID]: until something listens there (5 s at most; fails
# at once when PID has exited).
wait_port() {
    local _
    for _ in $(seq 100); do
        (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0
        [ -z "${2:-}" ] || kill -0 "$2" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}

# kill_tree PID: SIGKILL PID and its children, if PID is still a child of
# this script (a pid already waited for may belong to someone else by
# now). PID is stopped first, so that it cannot fork a child (an nginx
# worker starting late) between the listing and the kill.
kill_tree() {
    [ "$(ps -o ppid= -p "$1" 2>/dev/null | tr -d ' ')" = "$$" ] || return 0
    kill -STOP "$1" 2>/dev/null || return 0
    # shellcheck disable=SC2046 # the pid list is meant to split
    kill -KILL $(pgrep -P "$1") "$1" 2>/dev/null || true
}

# --- nginx --------------------------------------------------------------------
# nginx_conf PREFIX PORT HTTP SERVER: an nginx.conf for a private PREFIX:
# master + 2 workers (kept as root when run as root: "nobody" could not
# read the scratch files), TLS 1.2 and 1.3 on 127.0.0.1:PORT with
# $tmp/cert.pem, files from $tmp/www; HTTP and SERVER are extra lines for
# the http and server blocks.
nginx_conf() {
    local p=$1 port=$2 user=""
    [ "$(id -u)" -ne 0 ] || user="user root root;"
    mkdir -p "$p/tmp"
    cat >"$p/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes 2;
$user
pid $p/nginx.pid;
lock_file $p/nginx.lock;
error_log $p/error.log notice;
# Workers get a cleaned environment; keep what the provider reads.
env FASTCRYPTO_STATS;
env FASTCRYPTO_CPU_MASK;
env FASTCRYPTO_OFFER;
env OPENSSL_CONF;
events { worker_connections 256; }
http {
    client_body_temp_path $p/tmp/body;
    proxy_temp_path $p/tmp/proxy;
    fastcgi_temp_path $p/tmp/fastcgi;
    uwsgi_temp_path $p/tmp/uwsgi;
    scgi_temp_path $p/tmp/scgi;
$3
    server {
        listen 127.0.0.1:$port ssl;
        ssl_certificate $tmp/cert.pem;
        ssl_certificate_key $tmp/key.pem;
        ssl_protocols TLSv1.2 TLSv1.3;
        root $tmp/www;
$4
    }
}
EOF
}

# nginx_start PREFIX HTTP SERVER [ENV...]: nginx_conf on a free port, nginx
# started with the environment ENV (stdout, stderr in PREFIX); sets
# nginx_pid and port. A port lost to a race is picked again.
nginx_start() {
    local p=$1 http=$2 server=$3 try
    shift 3
    for try in 1 2 3; do
        port=$(pick_port) || { echo "no free port" >&2; return 1; }
        nginx_conf "$p" "$port" "$http" "$server"
        env "$@" nginx -p "$p" -c "$p/nginx.conf" -e "$p/error.log" \
            >"$p/stdout" 2>"$p/stderr" &
        nginx_pid=$!
        wait_port "$port" "$nginx_pid" && return 0
        nginx_stop
        grep -q 'Address already in use' "$p/error.log" "$p/stderr" 2>/dev/null || break
        echo "port $port taken (try $try), picking another" >&2
    done
    echo "nginx did not start:" >&2
    tail -5 "$p/error.log" "$p/stderr" >&2 || true
    return 1
}

# nginx_stop: graceful shutdown (SIGQUIT: the workers exit normally, so the
# provider is unloaded and prints its stats), bounded; then SIGKILL.
nginx_stop() {
    [ -n "${nginx_pid:-}" ] || return 0
    local _
    kill -QUIT "$nginx_pid" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$nginx_pid" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$nginx_pid" 2>/dev/null; then
        echo "nginx did not stop, killing it" >&2
        kill_tree "$nginx_pid"
    fi
    wait "$nginx_pid" 2>/dev/null || true
    nginx_pid=""
}

# --- fastcrypto's counters ------------------------------------------------------
# stats_sum NAME FILE...: NAME=<n> summed over the "fastcrypto: stats"
# lines (FASTCRYPTO_STATS=1, printed at unload) in FILEs.
stats_sum() {
    local name=$1
    shift
    cat "$@" 2>/dev/null | grep -h 'fastcrypto: stats' | awk -v k="$name" '
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) s += kv[2] } }
        END { print s + 0 }'
}
# raw: every live stats file in $stats (stats_dir), one line each, every
# counter. sum NAME FILTER: counter NAME summed over the raw lines matching
# FILTER (grep -E).
# shellcheck disable=SC2154 # $stats is set by the test
raw() { "$tool" -d "$stats" -a -z -r; }
sum() {
    raw | grep -E -- "$2" | awk -v k="$1" '
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) s += kv[2] } }
        END { print s + 0 }'
}
