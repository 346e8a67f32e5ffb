#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fastcrypto-check [--propq QUERY]... - exit 0 only if the OpenSSL
# configuration in force (OPENSSL_CONF, or the system openssl.cnf) loads
# fastcrypto AND makes programs prefer it, also for programs that pass a
# property query of their own.
#
# It asks `openssl list` whether the provider is active, then, for each
# query, encrypts one block with a stock `openssl enc -propquery QUERY` and
# signs with `openssl pkeyutl -propquery QUERY` (FASTCRYPTO_STATS=1), and
# requires fastcrypto's own counters to show it did the work: a provider
# that is loaded but not preferred fails too.
#
# fastcrypto offers by default only what beats the default provider on
# this CPU and OpenSSL (fc/offer.h; "offer=" in its build info). The check
# runs its commands with FASTCRYPTO_OFFER=all, so that it tests the
# configuration's preference whatever is offered, and then says what is
# offered here: the rest runs on default, which is as fast or faster.
# For each family it prints whether it is offered and why: "wisdom" (what
# `fastcrypto-calibrate` measured on this machine, with the median ratio
# default/ours), "table" (the per-CPU prior: the provider's own reason,
# "why=" in its build info, from the rule of provider/core/families.c on
# the kernel tier this CPU gets and the OpenSSL version) or "forced"
# (offer = all); the header names the CPU class and the OpenSSL version
# the decisions are for. It warns when no valid wisdom exists, and says
# how to measure this machine (the package's fastcrypto-calibrate.service,
# or fastcrypto-calibrate).
#
# Without --propq it checks no query and the ones programs commonly pass
# ("provider!=fips" as stunnel does, "fips=no", "-provider"); with --propq
# only the queries given (repeatable), e.g.
#     fastcrypto-check --propq "provider!=fips"
# A query naming default ("provider=default") is reported as such: the
# program asked for default, and gets it.
set -eu
OPENSSL=${OPENSSL:-openssl}
wisdom_default=/var/lib/fastcrypto/wisdom
queries=""
nq=0
while [ $# -gt 0 ]; do
    case "$1" in
    --propq)
        [ $# -ge 2 ] || { echo "usage: $0 [--propq QUERY]..." >&2; exit 2; }
        # One query a line: a query has no newline.
        queries="$queries$2
"
        nq=$((nq + 1))
        shift 2
        ;;
    --propq=*)
        queries="$queries${1#--propq=}
"
        nq=$((nq + 1))
        shift
        ;;
    -h | --help)
        sed -n '3,34p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "usage: $0 [--propq QUERY]..." >&2
        exit 2
        ;;
    esac
done
if [ "$nq" -eq 0 ]; then
    queries="
provider!=fips
fips=no
-provider
"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fastcrypto-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/stats"
# openssl, with the stats files of our own runs (if any) in $tmp, and
# every algorithm offered.
ossl() { FASTCRYPTO_OFFER=all FASTCRYPTO_STATS_DIR="$tmp/stats" "$OPENSSL" "$@"; }
# What fastcrypto offers by default here ("gcm cbc ..." or "none"), where
# that came from (wisdom, table, forced) and the wisdom file's state (its
# path, then ": ..." if it was not used). The build info ends with
# "offer=... offer-from=... wisdom=...)"; the wisdom part may hold spaces.
binfo=$(FASTCRYPTO_STATS_DIR="$tmp/stats" "$OPENSSL" list -providers -verbose 2>/dev/null |
    sed -n 's/.*build info: \(fastcrypto .*\))$/\1/p' | head -1)
offer=$(echo "$binfo" | sed -n 's/.* offer=\(.*\) offer-from=.*/\1/p')
offer_from=$(echo "$binfo" | sed -n 's/.* offer-from=\([a-z]*\) .*/\1/p')
# The table's reason per family: "gcm:words_joined_by_underscores,cbc:...".
why=$(echo "$binfo" | sed -n 's/.* why=\([^ ]*\) offer=.*/\1/p')
cpu_class=$(echo "$binfo" | sed -n 's/.* cpu=\([^ ]*\) .*/\1/p')
wisdom=$(echo "$binfo" | sed -n 's/.* offer-from=[a-z]* wisdom=//p')

if ! ossl list -providers 2>/dev/null | grep -A3 '^  fastcrypto' |
    grep -q 'status: active'; then
    echo "fastcrypto-check: FAIL: fastcrypto is not loaded (openssl list -providers)" >&2
    exit 1
fi

# The key is made by default, quickly; only who signs with it matters.
if ! ossl genpkey -propquery provider=default -algorithm RSA \
    -pkeyopt rsa_keygen_bits:2048 -out "$tmp/key.pem" >/dev/null 2>&1; then
    echo "fastcrypto-check: FAIL: cannot make an RSA test key" >&2
    exit 1
fi
head -c 32 /dev/zero >"$tmp/digest"
zero_key=$(printf '%064d' 0)
zero_iv=$(printf '%032d' 0)

# counter NAME LINE: NAME=<n> from a stats line, or 0.
counter() {
    echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1 | grep . || echo 0
}

# who QUERY CMD...: sets $res to "fastcrypto" if the stats line of CMD,
# run with -propquery QUERY (none if empty), shows the counter $want > 0,
# to "default" otherwise, and $line to that stats line.
who() {
    q=$1
    shift
    if [ -n "$q" ]; then set -- "$@" -propquery "$q"; fi
    if FASTCRYPTO_STATS=1 ossl "$@" >/dev/null 2>"$tmp/err"; then rc=0; else rc=1; fi
    line=$(grep 'fastcrypto: stats' "$tmp/err" | tail -1 || true)
    if [ "$(counter "$want" "$line")" -gt 0 ]; then
        res=fastcrypto
    elif [ "$rc" -ne 0 ]; then
        res=n/a # the command itself failed (see the RSA note below)
    else
        res=default
    fi
}

bad=0
stale=0
cipher_line=""
echo "$queries" | sed '$d' >"$tmp/queries"
while IFS= read -r q; do
    want=aes-cbc-enc
    who "$q" enc -aes-256-cbc -K "$zero_key" -iv "$zero_iv" -in /dev/null
    c=$res
    [ -n "$cipher_line" ] || cipher_line=$line
    want=rsa-sign
    who "$q" pkeyutl -sign -inkey "$tmp/key.pem" -in "$tmp/digest"
    s=$res
    label=${q:-(no query)}
    [ -n "$q" ] && label="\"$q\""
    if [ "$c" = fastcrypto ] && [ "$s" = fastcrypto ]; then
        printf '  ok    %-24s AES-256-CBC: fastcrypto, RSA sign: fastcrypto\n' "$label"
        continue
    fi
    # Under "fips=no" the openssl command cannot open a key file at all:
    # OpenSSL's file store loader and key decoders are tagged fips=yes.
    # Nothing to do with fastcrypto; the cipher still says who is preferred.
    if [ "$c" = fastcrypto ] && [ "$s" = n/a ]; then
        printf '  ok    %-24s AES-256-CBC: fastcrypto, RSA sign: not checked (openssl loads no key file under this query)\n' "$label"
        continue
    fi
    case "$q" in
    *provider=default* | *provider!=fastcrypto*)
        printf '  note  %-24s AES-256-CBC: %s, RSA sign: %s (the query asks for default)\n' \
            "$label" "$c" "$s"
        ;;
    *)
        printf '  FAIL  %-24s AES-256-CBC: %s, RSA sign: %s\n' "$label" "$c" "$s"
        case "$q" in *provider*) stale=1 ;; esac
        ;;
    esac
    bad=1
done <"$tmp/queries"

if [ "$bad" -ne 0 ]; then
    echo "fastcrypto-check: FAIL: fastcrypto is loaded but not preferred under every query above" >&2
    if [ "$stale" -eq 1 ]; then
        echo "  A program's query replaces the config's clause of the same name: with" \
            "default_properties = ?provider=fastcrypto, any query naming provider" \
            "drops the preference. Use default_properties = ?fastcrypto.preferred=yes" \
            "(as the shipped fastcrypto.cnf does)." | fold -s -w 76 | sed '2,$s/^/  /' >&2
    else
        echo "  (set default_properties = ?fastcrypto.preferred=yes)" >&2
    fi
    exit 1
fi
echo "fastcrypto-check: ok: fastcrypto is loaded and preferred"
echo "  offered on this CPU and OpenSSL: ${offer:-unknown} (the rest runs on default, as fast or faster here)"
# Family by family: offered or not, decided by what, measured how.
# wisdom_path is the file in force when the state is a bare path.
case "$wisdom" in
*": "*) wisdom_path="" ;;
*) wisdom_path=$wisdom ;;
esac
echo "  decisions for CPU class ${cpu_class:-unknown}, $("$OPENSSL" version | cut -d' ' -f1-2)" \
    "(offer-from=${offer_from:-unknown}; wisdom: ${wisdom:-unknown}):"
for fam in gcm cbc ctr drbg cbc-hmac rsa2048 rsa3072 rsa4096 rsa-other; do
    case " $offer " in
    " all ") o=offered ;;
    *" $fam "*) o=offered ;;
    *) o="not offered" ;;
    esac
    src=table
    # The table's reason, in words (the provider's, see why= above).
    reason=$(echo "$why" | tr ',' '\n' | sed -n "s/^$fam://p" | tr '_' ' ')
    fig=${reason:-no reason given (an older fastcrypto)}
    if [ "$offer_from" = forced ]; then
        src=forced
        fig="offer = all (the table: $fig)"
    elif [ -n "$wisdom_path" ] && [ -r "$wisdom_path" ]; then
        # The provider used this file: its record for the family, if any.
        fig=$(awk -v f="$fam" '$1 == "family" && $2 == f {
                m = ""; q = ""; k = ""
                for (i = 4; i <= NF; i++) {
                    if ($i ~ /^median=/) m = substr($i, 8)
                    else if ($i ~ /^q1=/) q = substr($i, 4)
                    else if ($i ~ /^ours=/) k = substr($i, 6)
                }
                printf "measured: median %sx, q1 %sx (default time / ours)%s\n",
                    (m == "" ? "?" : m), (q == "" ? "?" : q),
                    (k == "" ? "" : ", ours=" k)
                found = 1; exit
            } END { if (!found) exit 1 }' "$wisdom_path") && src=wisdom ||
            fig=${reason:-no reason given}
    fi
    printf '    %-10s %-12s %-7s %s\n' "$fam" "$o" "$src" "$fig"
done
if [ "$offer_from" != forced ] && [ -z "$wisdom_path" ]; then
    # The file the provider looked for: the state up to its ": reason".
    wisdom_file=${wisdom%%: *}
    unit=fastcrypto-calibrate.service
    {
        echo "fastcrypto-check: warning: no valid wisdom for this machine (${wisdom:-unknown});"
        echo "  the per-CPU table decides what is offered. To measure this machine:"
        if [ -n "$wisdom_file" ] && [ "$wisdom_file" != "$wisdom_default" ]; then
            echo "    fastcrypto-calibrate --out $wisdom_file"
        else
            if [ -d /run/systemd/system ] && { [ -e "/lib/systemd/system/$unit" ] ||
                [ -e "/usr/lib/systemd/system/$unit" ] || [ -e "/etc/systemd/system/$unit" ]; }; then
                echo "    systemctl start $unit    (the package also runs it at boot"
                echo "        when the wisdom is missing or foreign)"
                echo "  or, as root,"
            fi
            echo "    fastcrypto-calibrate    (as root: writes $wisdom_default)"
        fi
        echo "  then restart the programs that use fastcrypto (README, Wisdom)."
    } >&2
fi
# The counters of one AES-256-CBC run (its build info, printed above, cut).
echo "$cipher_line" | sed 's/^fastcrypto: stats \(pid=[0-9]*\) fastcrypto .*) /  \1 /' |
    cut -c1-200
# Live counters: does a run with the configuration as it is leave a stats
# file? (That one file is removed again.)
stats=$(dirname "$0")/fastcrypto-stats
[ -x "$stats" ] || stats=fastcrypto-stats
if command -v "$stats" >/dev/null 2>&1; then
    line=$(FASTCRYPTO_STATS=1 "$OPENSSL" enc -aes-256-cbc -K "$zero_key" \
        -iv "$zero_iv" -in /dev/null 2>&1 >/dev/null | grep 'fastcrypto: stats' || true)
    pid=$(echo "$line" | sed -n 's/^fastcrypto: stats pid=\([0-9]*\) .*/\1/p')
    f=""
    [ -z "$pid" ] ||
        f=$("$stats" -a -r -p "$pid" 2>/dev/null | sed -n 's/^file=\([^ ]*\) .*/\1/p' | head -1)
    if [ -n "$f" ]; then
        echo "  live counters: on, in $(dirname "$f") (fastcrypto-stats lists them)"
        rm -f "$f"
    else
        echo "  live counters: off (stats_dir in the fastcrypto section, or FASTCRYPTO_STATS_DIR)"
    fi
fi
