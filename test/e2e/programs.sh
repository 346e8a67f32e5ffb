#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# programs.sh [--install] [BUILD_DIR] - the programs an administrator
# runs once fastcrypto is enabled, on loopback ports, each proven by
# fastcrypto's live counters (`fastcrypto-stats`, stats_dir in the shipped
# config): the data must arrive intact and the counters must show who did
# the work.
#
#   stunnel4   server with the query "provider!=fips" of its own: records
#              and signatures are fastcrypto's (and, for the record, with
#              the old "?provider=fastcrypto" preference they were not)
#   haproxy    master-worker (-W, as Debian's unit runs it), 2 threads;
#              once through OPENSSL_CONF, once through its own global
#              ssl-provider / ssl-provider-path / ssl-propquery lines
#   postgres   PostgreSQL server, TLS from psql; a backend's counters read
#              while its query still runs
#   sshd       OpenSSH, with FASTCRYPTO_STATS=1 and stderr (-e) on a file,
#              which used to kill the sandboxed pre-auth child (SIGXFSZ);
#              AES-GCM packets are fastcrypto's, host-key signatures are
#              not (OpenSSH 9.2 signs with the low-level RSA_sign)
#   apache2    httpd with mod_ssl, event MPM, parent and children
#   python3    ssl module server (live counters while it serves), and
#              python3-cryptography (RSA key generation is not ours: it
#              uses RSA_generate_key_ex)
#   openssl    req, dgst, pkeyutl, cms, pkcs12, genpkey
#
# Clients run on the default provider only (OPENSSL_CONF=/dev/null), so
# every count is the server's. Programs that are not installed are
# skipped; --install (or FC_E2E_INSTALL=1: scripts/test.sh's e2e run)
# installs haproxy, stunnel4 and apache2 with apt-get
# (after checking with -s that libssl3 and openssl stay as they are) and
# unpacks openssh-server's sshd into the scratch directory without
# installing it. Services are never started: every program runs by hand
# here and is stopped at the end.
#
# sshd runs as root when the package's "sshd" user exists (logging in as
# root), otherwise as FC_SSH_USER (default: postgres, a user with a login
# shell that PostgreSQL's package creates). FC_SSHD names another sshd.
#
# Prints one ok/FAIL/skip/info line per check; exits non-zero on a FAIL.
# FC_KEEP_TMP=1 keeps the scratch directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
install=0
[ "${FC_E2E_INSTALL:-}" != 1 ] || install=1
if [ "${1:-}" = "--install" ]; then install=1; shift; fi
e2e_init "$@"
[ -x "$tool" ] || { echo "no $tool" >&2; exit 1; }
PY=/usr/bin/python3 # Debian's: its ssl and cryptography use the system libssl
e2e_on_exit() {
    if [ -n "${pgdata:-}" ] && [ -f "$pgdata/postmaster.pid" ]; then
        su postgres -s /bin/sh -c "$pgbin/pg_ctl -D '$pgdata' stop -m immediate" >/dev/null 2>&1 || true
    fi
}

# --- optional installation ------------------------------------------------------
if [ "$install" -eq 1 ]; then
    want=()
    command -v haproxy >/dev/null || want+=(haproxy)
    command -v stunnel4 >/dev/null || want+=(stunnel4)
    command -v apache2 >/dev/null || want+=(apache2)
    if [ "${#want[@]}" -gt 0 ]; then
        if apt-get install -s -y --no-install-recommends "${want[@]}" 2>/dev/null |
            grep -qE '^Inst (libssl3|openssl) '; then
            echo "--install: ${want[*]} would upgrade libssl3/openssl; not installing" >&2
        else
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
                "${want[@]}" >/dev/null
        fi
    fi
    if [ -z "${FC_SSHD:-}" ] && ! [ -x /usr/sbin/sshd ]; then
        # The server package would upgrade openssh-client: unpack, do not install.
        (cd "$tmp" && apt-get download -q openssh-server >/dev/null 2>&1 &&
            dpkg -x openssh-server_*.deb "$tmp/openssh") || true
        [ -x "$tmp/openssh/usr/sbin/sshd" ] && FC_SSHD=$tmp/openssh/usr/sbin/sshd
    fi
fi

# --- configs, certificate ---------------------------------------------------------------
# PostgreSQL and sshd run as an unprivileged user from start to end: they
# load the module's copy in $mod (lib.sh's e2e_init).
stats=$tmp/stats
mkdir -m 1777 "$stats" # servers drop privileges; files stay 0600
conf() { # conf PREFERENCE: the shipped config with stats_dir and this preference
    fc_conf "s|^# stats_dir = .*|stats_dir = $stats|" \
        "s|^default_properties = .*|default_properties = $1|"
}
conf "$(sed -n 's/^default_properties = //p' "$here/fastcrypto.cnf")" >"$tmp/fc.cnf"
conf "?provider=fastcrypto" >"$tmp/fc-old.cnf"
fc=$tmp/fc.cnf
export OPENSSL_CONF=/dev/null # clients and helpers: default provider only
e2e_cert
cat "$tmp/cert.pem" "$tmp/key.pem" >"$tmp/both.pem"
chmod 0644 "$tmp/key.pem" "$tmp/both.pem"
head -c 100000 /dev/urandom >"$tmp/body"
# HAProxy returns a file from one buffer (16 kB).
head -c 10000 "$tmp/body" >"$tmp/hbody"
echo "== $(openssl version); fastcrypto from $bdir"

show() { "$tool" -d "$stats" -a "$@" | sed 's/^/      /'; }

# https_get N PORT [CURL ARGS]: N separate curl runs (N full handshakes),
# each body compared with $expect.
expect=$tmp/body
https_get() {
    local n=$1 port=$2 _
    shift 2
    for _ in $(seq "$n"); do
        curl -sS --fail --max-time 20 --cacert "$tmp/cert.pem" "$@" \
            "https://127.0.0.1:$port/body" | cmp -s - "$expect" || return 1
    done
}

# A TLS echo client: sends N random bytes, expects them back.
cat >"$tmp/echo_client.py" <<'EOF'
import os, socket, ssl, sys
port, n, ca = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
ctx = ssl.create_default_context(cafile=ca)
data = os.urandom(n)
with socket.create_connection(("127.0.0.1", port)) as s:
    with ctx.wrap_socket(s, server_hostname="localhost") as t:
        t.sendall(data)
        got = b""
        while len(got) < n:
            b = t.recv(65536)
            if not b:
                break
            got += b
sys.exit(0 if got == data else 1)
EOF

# --- stunnel --------------------------------------------------------------------------
run_stunnel() { # run_stunnel CNF LABEL: 3 echo connections
    local cnf=$1 label=$2 port p i
    port=$(pick_port)
    cat >"$tmp/stunnel-$label.conf" <<EOF
foreground = yes
pid =
output = $tmp/stunnel-$label.log
[echo]
accept = 127.0.0.1:$port
cert = $tmp/both.pem
exec = /bin/cat
EOF
    OPENSSL_CONF=$cnf stunnel4 "$tmp/stunnel-$label.conf" >/dev/null 2>&1 &
    p=$!
    e2e_pids+=("$p")
    wait_port "$port" || { bad "stunnel ($label) did not start"; return; }
    for i in 1 2 3; do
        $PY "$tmp/echo_client.py" "$port" 200000 "$tmp/cert.pem" || { bad "stunnel ($label): echo $i"; break; }
    done
    echo "  stunnel ($label), running:"
    show -p "$p"
    stunnel_pid=$p
    kill -TERM "$p"
    wait "$p" 2>/dev/null || true
}
if command -v stunnel4 >/dev/null; then
    echo "-- $(stunnel4 -version 2>&1 | grep -m1 '^stunnel')"
    run_stunnel "$fc" new
    f="program=stunnel4 pid=$stunnel_pid "
    check "stunnel: 3 x 200 kB echoed; records, ticket and signatures are fastcrypto's" \
        test "$(sum aes-gcm-enc "$f")" -gt 0 -a "$(sum aes-gcm-dec "$f")" -gt 0 \
        -a "$(sum rsa-sign "$f")" -eq 3
    run_stunnel "$tmp/fc-old.cnf" old
    n=$(sum aes-gcm-enc "program=stunnel4 pid=$stunnel_pid ")
    info "stunnel with the old default_properties = ?provider=fastcrypto: aes-gcm-enc=$n," \
        "rsa-sign=$(sum rsa-sign "program=stunnel4 pid=$stunnel_pid ") (its \"provider!=fips\" drops that preference)"
else
    skip "stunnel: stunnel4 not installed"
fi

# --- haproxy --------------------------------------------------------------------------------
run_haproxy() { # run_haproxy LABEL GLOBAL-LINES ENV...
    local label=$1 glob=$2 port p w
    shift 2
    port=$(pick_port)
    cat >"$tmp/haproxy-$label.cfg" <<EOF
global
    nbthread 2
$glob
defaults
    mode http
    timeout connect 5s
    timeout client 10s
    timeout server 10s
frontend fe
    bind 127.0.0.1:$port ssl crt $tmp/both.pem
    http-request return status 200 content-type application/octet-stream file $tmp/hbody
EOF
    env "$@" haproxy -W -db -f "$tmp/haproxy-$label.cfg" >"$tmp/haproxy-$label.log" 2>&1 &
    p=$!
    e2e_pids+=("$p")
    wait_port "$port" || { bad "haproxy ($label) did not start"; cat "$tmp/haproxy-$label.log"; return; }
    expect=$tmp/hbody
    if ! https_get 4 "$port" --tlsv1.3 || ! https_get 2 "$port" --tls-max 1.2; then
        bad "haproxy ($label): downloads"
    fi
    expect=$tmp/body
    echo "  haproxy ($label), master $p and its worker, running:"
    w=$(pgrep -P "$p" | head -1)
    show -n haproxy | grep -E " ($p|$w) " || true
    f="program=haproxy pid=$w ppid=$p "
    check "haproxy ($label): the worker's counters, live: TLS 1.3 and 1.2 records, 6 signatures" \
        test "$(sum aes-gcm-enc "$f")" -gt 0 -a "$(sum aes-gcm-tls "$f")" -gt 0 \
        -a "$(sum rsa-sign "$f")" -eq 6
    kill -TERM "$p"
    wait "$p" 2>/dev/null || true
    check "haproxy ($label): after SIGTERM (no unload) the counts stay readable" \
        test "$(sum rsa-sign "$f")" -eq 6
}
if command -v haproxy >/dev/null; then
    echo "-- $(haproxy -v | head -1)"
    run_haproxy cnf "" OPENSSL_CONF="$fc"
    run_haproxy global "    ssl-provider-path $mod
    ssl-provider default
    ssl-provider fastcrypto
    ssl-propquery ?fastcrypto.preferred=yes" FASTCRYPTO_STATS_DIR="$stats"
else
    skip "haproxy: not installed"
fi

# --- PostgreSQL -------------------------------------------------------------------------------
pgbin=""
for d in /usr/lib/postgresql/*/bin; do [ ! -x "$d/initdb" ] || pgbin=$d; done
if [ -n "$pgbin" ] && [ -x "$pgbin/initdb" ] && getent passwd postgres >/dev/null &&
    [ "$(id -u)" -eq 0 ]; then
    echo "-- $("$pgbin/postgres" --version)"
    pgdata=$tmp/pg/data
    mkdir -p "$tmp/pg"
    cp "$tmp/cert.pem" "$tmp/pg/server.crt"
    cp "$tmp/key.pem" "$tmp/pg/server.key"
    chmod 0600 "$tmp/pg/server.key"
    chown -R postgres "$tmp/pg"
    port=$(pick_port)
    su postgres -s /bin/sh -c "$pgbin/initdb -D '$pgdata' -A trust -U postgres" >"$tmp/pg/initdb.log" 2>&1
    cat >>"$pgdata/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$tmp/pg'
ssl = on
ssl_cert_file = '$tmp/pg/server.crt'
ssl_key_file = '$tmp/pg/server.key'
EOF
    echo "hostssl all all 127.0.0.1/32 trust" >>"$pgdata/pg_hba.conf"
    su postgres -s /bin/sh -c "OPENSSL_CONF='$fc' $pgbin/pg_ctl -D '$pgdata' -l '$tmp/pg/log' -w start" >/dev/null
    pm=$(head -1 "$pgdata/postmaster.pid")
    dsn="host=127.0.0.1 port=$port user=postgres dbname=postgres sslmode=verify-ca sslrootcert=$tmp/cert.pem"
    # A backend still running its query: read its counters meanwhile (for
    # up to 3 s of its 4: a loaded machine may take a while to connect).
    psql "$dsn" -Atc "select pg_sleep(4), length(repeat('x', 300000))" >"$tmp/pg/q1" &
    q=$!
    live=0
    for _ in $(seq 15); do
        sleep 0.2
        live=$(raw | grep -E "program=postgres .* ppid=$pm state=running" | grep -vc " rsa-sign=0 " || true)
        [ "$live" -lt 1 ] || break
    done
    echo "  postgres: postmaster $pm, backends running:"
    show -n postgres | grep " running " || true
    check "postgres: a backend serving a query shows its handshake live ($live)" test "$live" -ge 1
    wait "$q"
    for _ in 1 2; do
        psql "$dsn" -Atc "select cipher from pg_stat_ssl where pid = pg_backend_pid()" >>"$tmp/pg/q2"
    done
    su postgres -s /bin/sh -c "$pgbin/pg_ctl -D '$pgdata' -m fast stop" >/dev/null
    # Ended backends are folded into postgres's ended sums (ppid 0) by later ones.
    f="program=postgres .* (ppid=$pm |state=ended )"
    check "postgres: 3 TLS sessions ($(sort -u "$tmp/pg/q2" | tr '\n' ' ')), 3 signatures, records in the backends" \
        test "$(sum rsa-sign "$f")" -eq 3 -a "$(sum aes-gcm-enc "$f")" -gt 0 \
        -a "$(cut -d'|' -f2 "$tmp/pg/q1")" = 300000
else
    skip "postgres: PostgreSQL server or the postgres user not available (or not root)"
fi

# --- OpenSSH ---------------------------------------------------------------------------------
sshd=${FC_SSHD:-/usr/sbin/sshd}
ssh_user=""
if [ "$(id -u)" -eq 0 ] && getent passwd sshd >/dev/null; then
    ssh_user=root
elif [ "$(id -u)" -eq 0 ] && getent passwd "${FC_SSH_USER:-postgres}" >/dev/null; then
    ssh_user=${FC_SSH_USER:-postgres}
fi
if [ -x "$sshd" ] && command -v ssh >/dev/null && [ -n "$ssh_user" ]; then
    echo "-- $("$sshd" -V 2>&1 | head -1) ($sshd, as $([ "$ssh_user" = root ] && echo root || echo "$ssh_user"))"
    d=$tmp/ssh
    mkdir -p "$d"
    ssh-keygen -q -t rsa -b 2048 -N '' -f "$d/host_rsa"
    ssh-keygen -q -t ed25519 -N '' -f "$d/client"
    cp "$d/client.pub" "$d/authorized_keys"
    port=$(pick_port)
    cat >"$d/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $d/host_rsa
PidFile $d/sshd.pid
AuthorizedKeysFile $d/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
Ciphers aes128-gcm@openssh.com,aes256-gcm@openssh.com
HostKeyAlgorithms rsa-sha2-256,rsa-sha2-512
EOF
    [ "$ssh_user" = root ] || chown -R "$ssh_user" "$d"
    # stderr on a file with -e: the pre-auth child writes there, under
    # RLIMIT_FSIZE = 0 and a seccomp filter.
    cmd="OPENSSL_CONF='$fc' FASTCRYPTO_STATS=1 exec $sshd -D -e -f '$d/sshd_config' 2>'$d/stderr'"
    if [ "$ssh_user" = root ]; then
        sh -c "$cmd" &
    else
        su "$ssh_user" -s /bin/sh -c "$cmd" 2>/dev/null &
    fi
    p=$!
    e2e_pids+=("$p")
    wait_port "$port" || bad "sshd did not start"
    n=$(timeout 30 ssh -p "$port" -i "$d/client" -o BatchMode=yes -o StrictHostKeyChecking=no \
        -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -c aes128-gcm@openssh.com \
        "$ssh_user@127.0.0.1" 'head -c 3000000 /dev/zero' | wc -c || true)
    kill -TERM "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
    echo "  sshd: listener $p and its children:"
    show -n sshd
    grep -v '^fastcrypto: stats' "$d/stderr" | grep -E 'preauth|signal' | sed 's/^/      sshd: /' || true
    check "sshd: login with FASTCRYPTO_STATS=1, stderr on a file: 3 MB received ($n bytes), no child killed" \
        test "$n" -eq 3000000 -a -z "$(grep 'terminated by signal' "$d/stderr" || true)"
    check "sshd: AES-GCM packets counted in its children (enc $(sum aes-gcm-enc "program=sshd "))" \
        test "$(sum aes-gcm-enc "program=sshd ")" -gt 100 -a "$(sum aes-gcm-dec "program=sshd ")" -gt 0
    info "sshd: rsa-sign=$(sum rsa-sign "program=sshd ") (the RSA host key signs through RSA_sign, which reaches no provider)"
else
    skip "sshd: not installed (--install unpacks it) or no user to run it as"
fi

# --- Apache httpd ---------------------------------------------------------------------------
mods=/usr/lib/apache2/modules
if command -v apache2 >/dev/null && [ -f "$mods/mod_ssl.so" ] && [ "$(id -u)" -eq 0 ]; then
    echo "-- $(apache2 -v | head -1)"
    a=$tmp/apache
    mkdir -p "$a/www" "$a/logs"
    cp "$tmp/body" "$a/www/body"
    chmod -R a+rX "$a"
    port=$(pick_port)
    cat >"$a/httpd.conf" <<EOF
ServerRoot $a
PidFile $a/httpd.pid
ErrorLog $a/logs/error.log
LoadModule mpm_event_module $mods/mod_mpm_event.so
LoadModule authz_core_module $mods/mod_authz_core.so
LoadModule socache_shmcb_module $mods/mod_socache_shmcb.so
LoadModule ssl_module $mods/mod_ssl.so
User www-data
Group www-data
ServerName localhost
Listen 127.0.0.1:$port
StartServers 2
DocumentRoot $a/www
<Directory $a/www>
    Require all granted
</Directory>
SSLSessionCache shmcb:$a/scache(512000)
<VirtualHost 127.0.0.1:$port>
    SSLEngine on
    SSLCertificateFile $tmp/cert.pem
    SSLCertificateKeyFile $tmp/key.pem
</VirtualHost>
EOF
    OPENSSL_CONF=$fc apache2 -f "$a/httpd.conf" -DFOREGROUND >"$a/out" 2>&1 &
    p=$!
    e2e_pids+=("$p")
    if wait_port "$port"; then
        https_get 5 "$port" || bad "apache2: downloads"
        echo "  apache2: parent $p and children, running:"
        show -n apache2 | grep " running " || true
        f="program=apache2 .* ppid=$p state=running"
        check "apache2: children's counters, live: records and 5 signatures" \
            test "$(sum aes-gcm-enc "$f")" -gt 0 -a "$(sum rsa-sign "$f")" -eq 5
    else
        bad "apache2 did not start: $(tail -2 "$a/logs/error.log" "$a/out" 2>/dev/null)"
    fi
    kill -TERM "$p"
    wait "$p" 2>/dev/null || true
else
    skip "apache2: not installed (or not root)"
fi

# --- Python -------------------------------------------------------------------------------------
echo "-- $($PY -c 'import ssl, sys; print("Python", sys.version.split()[0], ssl.OPENSSL_VERSION)')"
port=$(pick_port)
cat >"$tmp/py_server.py" <<EOF
import http.server, ssl
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain("$tmp/cert.pem", "$tmp/key.pem")
srv = http.server.HTTPServer(("127.0.0.1", $port), http.server.SimpleHTTPRequestHandler)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
srv.serve_forever()
EOF
(cd "$tmp" && OPENSSL_CONF=$fc exec $PY "$tmp/py_server.py" 2>/dev/null) &
p=$!
e2e_pids+=("$p")
if wait_port "$port"; then
    https_get 3 "$port" || bad "python ssl server: downloads"
    f="program=python3 pid=$p "
    echo "  python ssl server, running:"
    show -p "$p"
    check "python ssl server: counters live while it serves (3 signatures, records)" \
        test "$(sum rsa-sign "$f")" -eq 3 -a "$(sum aes-gcm-enc "$f")" -gt 0
else
    bad "python ssl server did not start"
fi
kill -TERM "$p" 2>/dev/null || true
wait "$p" 2>/dev/null || true

if $PY -c 'import cryptography' 2>/dev/null; then
    ver=$($PY -c 'import cryptography; print(cryptography.__version__)')
    p=$(OPENSSL_CONF=$fc $PY - <<'EOF'
import os
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
k = rsa.generate_private_key(public_exponent=65537, key_size=2048)
sig = k.sign(b"m", padding.PKCS1v15(), hashes.SHA256())
k.public_key().verify(sig, b"m", padding.PKCS1v15(), hashes.SHA256())
oaep = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
assert k.decrypt(k.public_key().encrypt(b"s", oaep), oaep) == b"s"
a, n = AESGCM(os.urandom(16)), os.urandom(12)
assert a.decrypt(n, a.encrypt(n, b"x" * 5000, None), None) == b"x" * 5000
e = Cipher(algorithms.AES(os.urandom(32)), modes.CBC(os.urandom(16))).encryptor()
e.update(b"y" * 64)
e.finalize()
print(os.getpid())
EOF
)
    f="program=python3 pid=$p "
    echo "  python3-cryptography $ver:"
    show -p "$p"
    check "python3-cryptography $ver: sign, verify, OAEP, AES-GCM, AES-CBC are fastcrypto's" \
        test "$(sum rsa-sign "$f")" -eq 1 -a "$(sum rsa-verify "$f")" -eq 1 \
        -a "$(sum rsa-decrypt "$f")" -eq 1 -a "$(sum aes-gcm-enc "$f")" -eq 1 \
        -a "$(sum aes-cbc-enc "$f")" -eq 1
    info "python3-cryptography $ver: rsa-keygen=$(sum rsa-keygen "$f") (it generates keys with RSA_generate_key_ex, which reaches no provider)"
else
    skip "python3-cryptography: not installed"
fi

# --- openssl commands ---------------------------------------------------------------------------
echo "-- openssl commands"
echo "hello" >"$tmp/msg"
openssl pkey -in "$tmp/key.pem" -pubout -out "$tmp/pub.pem"
# ossl_case LABEL COUNTERS -- ARGS: openssl ARGS with fastcrypto; every
# counter in COUNTERS must be > 0 in that process's stats file.
ossl_case() {
    local label=$1 need=$2 c l miss=""
    shift 3
    l=$(cd "$tmp" || exit 1
        OPENSSL_CONF=$fc FASTCRYPTO_STATS=1 openssl "$@" 2>&1 >/dev/null |
            grep '^fastcrypto: stats' || true)
    for c in $need; do
        [ "$(echo "$l" | tr ' ' '\n' | sed -n "s/^$c=//p")" -gt 0 ] 2>/dev/null || miss="$miss $c"
    done
    check "openssl $label: $need" test -z "$miss"
}
ossl_case "req -x509" "rsa-sign" -- req -new -x509 -key key.pem -subj /CN=t -days 1 -out t.crt
ossl_case "dgst -sign" "rsa-sign" -- dgst -sha256 -sign key.pem -out msg.sig msg
ossl_case "dgst -verify" "rsa-verify" -- dgst -sha256 -verify pub.pem -signature msg.sig msg
ossl_case "pkeyutl -encrypt" "rsa-encrypt" -- pkeyutl -encrypt -pubin -inkey pub.pem -in msg -out msg.rsa
ossl_case "pkeyutl -decrypt" "rsa-decrypt" -- pkeyutl -decrypt -inkey key.pem -in msg.rsa -out msg.out
ossl_case "cms -encrypt" "aes-cbc-enc rsa-encrypt" -- cms -encrypt -binary -aes256 -in msg -out msg.cms cert.pem
ossl_case "cms -decrypt" "aes-cbc-dec rsa-decrypt" -- cms -decrypt -binary -in msg.cms -inkey key.pem -recip cert.pem -out msg.dec
ossl_case "cms -sign" "rsa-sign" -- cms -sign -in msg -signer cert.pem -inkey key.pem -out msg.p7s
ossl_case "cms -verify" "rsa-verify" -- cms -verify -in msg.p7s -CAfile cert.pem -out msg.ver
ossl_case "pkcs12 -export" "aes-cbc-enc" -- pkcs12 -export -in cert.pem -inkey key.pem -passout pass:x -out t.p12
ossl_case "pkcs12 -in" "aes-cbc-dec" -- pkcs12 -in t.p12 -passin pass:x -nodes -out t.pem
ossl_case "genpkey RSA" "rsa-keygen" -- genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out g.pem
same() { cmp -s "$tmp/msg" "$tmp/msg.out" && cmp -s "$tmp/msg" "$tmp/msg.dec"; }
check "openssl: round trips intact (pkeyutl, cms)" same

e2e_done
