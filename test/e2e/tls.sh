#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tls.sh [BUILD_DIR] - real TLS over loopback with the stock openssl
# s_server / s_client: one side prefers fastcrypto through a config, the
# other runs the default provider only (and the reverse). Files of several
# sizes are fetched over each suite and compared by checksum. With
# FASTCRYPTO_STATS set, the provider reports what it served at unload; the
# script requires that the fastcrypto side did the record encryption.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
srv_pid=""
e2e_on_exit() { [ -z "$srv_pid" ] || kill "$srv_pid" 2>/dev/null; }

fc_conf >"$tmp/fc.cnf"   # prefers fastcrypto, the module of this build
default_conf >"$tmp/default.cnf"
e2e_cert
mkdir -p "$tmp/www"
head -c 0 /dev/urandom >"$tmp/www/f0"
head -c 1 /dev/urandom >"$tmp/www/f1"
head -c 16383 /dev/urandom >"$tmp/www/f16383"
head -c 16385 /dev/urandom >"$tmp/www/f16385"
head -c 1048576 /dev/urandom >"$tmp/www/f1m"

files=(f0 f1 f16383 f16385 f1m)

# run_case NAME FAMILY SERVER_CNF CLIENT_CNF CLIENT_ARGS...
# FAMILY (gcm-tls12, gcm-tls13, cbc, cbc-hmac) names the counters that
# prove the fastcrypto side did the record encryption; cbc-hmac is a CBC
# suite without encrypt-then-MAC, which libssl runs on the combined
# AES-*-CBC-HMAC-SHA* ciphers.
run_case() {
    local name=$1 family=$2 scnf=$3 ccnf=$4
    shift 4
    : >"$tmp/srv.out"
    : >"$tmp/cli.err"
    # The server exits by itself after serving every file, so that the
    # provider unloads and prints its counters.
    port=$(pick_port)
    (cd "$tmp/www" && FASTCRYPTO_STATS=1 OPENSSL_CONF=$scnf exec timeout 60 \
        openssl s_server -accept "$port" -cert "$tmp/cert.pem" \
        -key "$tmp/key.pem" -WWW -naccept "${#files[@]}" \
        "${server_args[@]}" >"$tmp/srv.out" 2>"$tmp/srv.err") &
    srv_pid=$!
    for _ in $(seq 100); do
        grep -q ACCEPT "$tmp/srv.out" && break
        sleep 0.05
    done
    local ok=1 f
    for f in "${files[@]}"; do
        printf 'GET /%s HTTP/1.0\r\n\r\n' "$f" |
            FASTCRYPTO_STATS=1 OPENSSL_CONF=$ccnf timeout 30 openssl s_client \
                -quiet -connect 127.0.0.1:"$port" "$@" 2>>"$tmp/cli.err" \
                >"$tmp/resp" || true
        # Strip the HTTP header s_server -WWW puts in front.
        http_body "$tmp/resp" >"$tmp/body"
        if ! cmp -s "$tmp/body" "$tmp/www/$f"; then
            ok=0
            echo "   $f: body differs ($(stat -c %s "$tmp/body") vs $(stat -c %s "$tmp/www/$f") bytes)"
        fi
    done
    wait "$srv_pid" 2>/dev/null || true
    srv_pid=""

    # Proof: the fastcrypto side's counters.
    local fcerr="$tmp/cli.err" side=client
    [ "$scnf" = "$tmp/fc.cnf" ] && { fcerr="$tmp/srv.err"; side=server; }
    local rec
    case $family in
    gcm-tls12) rec=$(stats_sum aes-gcm-tls "$fcerr") ;;
    gcm-tls13) rec=$(($(stats_sum aes-gcm-enc "$fcerr") + $(stats_sum aes-gcm-dec "$fcerr"))) ;;
    cbc) rec=$(stats_sum aes-cbc-tls "$fcerr") ;;
    cbc-hmac) rec=$(stats_sum aes-cbc-hmac-tls "$fcerr") ;;
    esac
    local proof="$side $family records=$rec"
    if [ "$rec" -eq 0 ]; then
        ok=0
        echo "   no record went through fastcrypto on the $side"
    fi
    if [ "$side" = server ]; then
        local sig
        sig=$(stats_sum rsa-sign "$fcerr")
        proof="$proof rsa-sign=$sig"
        if [ "$sig" -eq 0 ]; then
            ok=0
            echo "   the server's handshake signature did not go through fastcrypto"
        fi
    fi
    if [ "$ok" -eq 1 ]; then
        echo "ok    $name  ($proof)"
    else
        echo "FAIL  $name  ($proof)"
        fails=$((fails + 1))
    fi
}

# http_body FILE: what follows the first CRLF CRLF of an HTTP response.
http_body() {
    perl -0777 -pe 's/\A.*?\r\n\r\n//s' "$1"
}

server_args=()
suites=(
    "tls1.3 TLS_AES_128_GCM_SHA256|gcm-tls13|-tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256"
    "tls1.3 TLS_AES_256_GCM_SHA384|gcm-tls13|-tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384"
    "tls1.2 ECDHE-RSA-AES128-GCM-SHA256|gcm-tls12|-tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256"
    "tls1.2 ECDHE-RSA-AES256-GCM-SHA384|gcm-tls12|-tls1_2 -cipher ECDHE-RSA-AES256-GCM-SHA384"
    "tls1.2 ECDHE-RSA-AES128-SHA256 (ETM)|cbc|-tls1_2 -cipher ECDHE-RSA-AES128-SHA256"
    "tls1.2 ECDHE-RSA-AES256-SHA384 (no ETM)|cbc|-tls1_2 -cipher ECDHE-RSA-AES256-SHA384 -no_etm"
    "tls1.1 ECDHE-RSA-AES256-SHA (ETM)|cbc|-tls1_1 -cipher ECDHE-RSA-AES256-SHA@SECLEVEL=0"
    "tls1.2 ECDHE-RSA-AES128-SHA (no ETM)|cbc-hmac|-tls1_2 -cipher ECDHE-RSA-AES128-SHA -no_etm"
    "tls1.2 ECDHE-RSA-AES256-SHA (no ETM)|cbc-hmac|-tls1_2 -cipher ECDHE-RSA-AES256-SHA -no_etm"
    "tls1.2 ECDHE-RSA-AES128-SHA256 (no ETM)|cbc-hmac|-tls1_2 -cipher ECDHE-RSA-AES128-SHA256 -no_etm"
    "tls1.2 DHE-RSA-AES256-SHA256 (no ETM)|cbc-hmac|-tls1_2 -cipher DHE-RSA-AES256-SHA256 -no_etm"
    "tls1.1 ECDHE-RSA-AES128-SHA (no ETM)|cbc-hmac|-tls1_1 -cipher ECDHE-RSA-AES128-SHA@SECLEVEL=0 -no_etm"
    "tls1.0 ECDHE-RSA-AES256-SHA (no ETM)|cbc-hmac|-tls1 -cipher ECDHE-RSA-AES256-SHA@SECLEVEL=0 -no_etm"
)
for s in "${suites[@]}"; do
    IFS='|' read -r name family argstr <<<"$s"
    read -r -a args <<<"$argstr"
    server_args=()
    [[ " ${args[*]} " == *" -tls1_1 "* || " ${args[*]} " == *" -tls1 "* ]] &&
        server_args=(-cipher 'ALL@SECLEVEL=0')
    run_case "$name  server=fastcrypto client=default" "$family" "$tmp/fc.cnf" "$tmp/default.cnf" "${args[@]}"
    run_case "$name  server=default client=fastcrypto" "$family" "$tmp/default.cnf" "$tmp/fc.cnf" "${args[@]}"
done
e2e_done
