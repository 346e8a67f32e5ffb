#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# bench.sh - fastcrypto against OpenSSL's default provider, side by side.
#
# 1. `openssl speed -evp` for each cipher, encrypt and decrypt, each size,
#    with the two providers loaded together and selected by -propquery, run
#    back to back per size (their order flips every round), R rounds; prints
#    the median MB/s per size and the ratio fastcrypto/default.
# 2. bench/fc_bench: the workloads speed cannot express (fresh key per
#    message, ...), run in one process with both providers.
#
# The ratio is fastcrypto/default throughput: > 1 means fastcrypto is faster.
# "(min..max)" is the range of the per-round paired ratios: a wide one means
# the machine was busy; rerun before believing the row.
#
# Usage: scripts/bench.sh [--build-dir DIR] [--quick] [--rounds N]
#                         [--seconds S] [--only cbc[,...]]
#                         [--ciphers aes-128-cbc,...] [--sizes all|16,1024,...]
#                         [--no-fc-bench]
# Exits non-zero if the provider does not load or any run fails.

set -euo pipefail

prog=${0##*/}
build_dir=./build
rounds=3
seconds=2
only=cbc
ciphers=""
sizes=all
quick=0
fc_rounds=""
run_fc_bench=1

usage() {
    sed -n '/^# Usage:/,/^# Exits/p' "$0" | sed 's/^# \{0,1\}//'
}

die() {
    printf '%s: %s\n' "$prog" "$*" >&2
    exit 1
}

need_value() {
    [[ $# -ge 2 && -n $2 ]] || die "option $1 needs a value"
}

while [[ $# -gt 0 ]]; do
    case $1 in
    --build-dir) need_value "$@"; build_dir=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --rounds) need_value "$@"; rounds=$2; fc_rounds=$2; shift 2 ;;
    --seconds) need_value "$@"; seconds=$2; shift 2 ;;
    --only) need_value "$@"; only=$2; shift 2 ;;
    --ciphers) need_value "$@"; ciphers=$2; shift 2 ;;
    --sizes) need_value "$@"; sizes=$2; shift 2 ;;
    --no-fc-bench) run_fc_bench=0; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
    esac
done

[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || die "--seconds must be a positive integer"
[[ $sizes == all || $sizes =~ ^[0-9]+(,[0-9]+)*$ ]] ||
    die "--sizes must be 'all' or a comma-separated list of byte counts"

# fc_bench defaults: 5 rounds (it is cheap), 100k messages, 200 ms samples.
fc_args=(--rounds "${fc_rounds:-5}")
if ((quick)); then
    rounds=1
    seconds=1
    [[ $sizes == all ]] && sizes=16,1024,16384
    fc_args=(--rounds 1 --messages 20000 --target-ms 50)
fi

# Workload families: what each adds to the speed cipher list and to fc_bench.
speed_ciphers=()
fc_select=()
IFS=, read -r -a families <<<"$only"
for fam in "${families[@]}"; do
    case $fam in
    cbc)
        speed_ciphers+=(aes-128-cbc aes-256-cbc)
        fc_select+=(cbc)
        ;;
    *) die "--only: unknown family '$fam' (known: cbc)" ;;
    esac
done
if [[ -n $ciphers ]]; then
    IFS=, read -r -a speed_ciphers <<<"$ciphers"
fi

# --- the build tree -------------------------------------------------------
command -v openssl >/dev/null || die "openssl not found in PATH"
[[ -d $build_dir ]] || die "build directory not found: $build_dir"
build_dir=$(cd "$build_dir" && pwd)
module=$build_dir/fastcrypto.so
fc_bench=$build_dir/bench/fc_bench
[[ -f $module ]] || die "no $module (build the 'fastcrypto' target first)"
if ((run_fc_bench)); then
    [[ -x $fc_bench ]] || die "no $fc_bench (build the 'fc_bench' target first)"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# A neutral configuration: a system config that already loads an installed
# fastcrypto (or sets default_properties) would otherwise decide which module
# and which implementation get measured.
: >"$tmp/empty.cnf"
export OPENSSL_CONF=$tmp/empty.cnf
unset OPENSSL_MODULES

prov_opts=(-provider-path "$build_dir" -provider fastcrypto -provider default)

# --- header: machine, OpenSSL, the kernels fastcrypto chose ----------------
if ! openssl list -providers -verbose "${prov_opts[@]}" >"$tmp/list" 2>&1; then
    cat "$tmp/list" >&2
    die "fastcrypto does not load from $build_dir"
fi
# The "fastcrypto" block of the listing: its status and build info.
fc_block=$(awk '/^  [^ ]/ { inside = ($1 == "fastcrypto") } inside' "$tmp/list")
grep -q 'status: active' <<<"$fc_block" || {
    cat "$tmp/list" >&2
    die "fastcrypto is not active"
}
buildinfo=$(sed -n 's/^ *build info: //p' <<<"$fc_block")

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
    head -n 1)
if [[ $sizes == all ]]; then sizes=16,64,256,1024,8192,16384; fi
IFS=, read -r -a size_list <<<"$sizes"
est=$((${#speed_ciphers[@]} * 2 * ${#size_list[@]} * 2 * rounds * seconds))

echo "fastcrypto bench  $(date -u '+%Y-%m-%d %H:%M:%SZ')"
echo "cpu:        ${cpu:-unknown} ($(nproc) online)"
# A load above the core count at the start means a neighbour is busy too.
if [[ -r /proc/loadavg ]]; then
    echo "load:       $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
fi
echo "openssl:    $(openssl version)"
echo "fastcrypto: ${buildinfo:-?} ($module)"
echo "speed:      ${speed_ciphers[*]}; enc+dec; sizes $sizes; ${seconds}s per" \
    "run; $rounds round(s); ~${est}s"
echo

# --- openssl speed, interleaved ---------------------------------------------
# run_speed PROVIDER CIPHER OP SIZE ROUND: one speed run of one size; appends
# "cipher op size prov round bytes/s" to $tmp/data, from speed's
# machine-readable output (+H: the sizes, +F: bytes per second for each).
run_speed() {
    local prov=$1 cipher=$2 op=$3 size=$4 round=$5 out=$tmp/speed.out
    local -a cmd

    # -provider and -propquery must precede -evp: speed fetches the cipher
    # while it parses -evp.
    cmd=(openssl speed -mr -elapsed -seconds "$seconds" -bytes "$size"
        "${prov_opts[@]}" -propquery "provider=$prov" -evp "$cipher")
    [[ $op == dec ]] && cmd+=(-decrypt)
    if ! "${cmd[@]}" >"$out" 2>"$tmp/speed.err"; then
        cat "$out" "$tmp/speed.err" >&2
        die "failed: ${cmd[*]}"
    fi
    awk -v c="$cipher" -v o="$op" -v p="$prov" -v r="$round" -v want="$size" \
        -F: '
        $1 == "+H" { nh = NF - 1; for (i = 2; i <= NF; i++) sz[i - 1] = $i }
        $1 == "+F" {
            if (nh == 0 || NF - 3 != nh) exit 2
            for (i = 4; i <= NF; i++)
                if (sz[i - 3] == want) { print c, o, want, p, r, $i; got = 1 }
        }
        END { if (!got) exit 3 }' "$out" >>"$tmp/data" || {
        cat "$out" "$tmp/speed.err" >&2
        die "cannot parse the output of: ${cmd[*]}"
    }
}

# The two providers run back to back for each size (pairs 'seconds' apart,
# not a whole size sweep apart), and the order flips every round, so drift
# and a neighbour's load fall on both alike.
: >"$tmp/data"
for ((r = 1; r <= rounds; r++)); do
    order=(fastcrypto default)
    ((r % 2)) || order=(default fastcrypto)
    for cipher in "${speed_ciphers[@]}"; do
        for op in enc dec; do
            for size in "${size_list[@]}"; do
                if [[ -t 2 ]]; then
                    printf '\r  round %d/%d  %-12s %s %6s B' "$r" "$rounds" \
                        "$cipher" "$op" "$size" >&2
                fi
                for prov in "${order[@]}"; do
                    run_speed "$prov" "$cipher" "$op" "$size" "$r"
                done
            done
        done
    done
done
if [[ -t 2 ]]; then printf '\r%60s\r' '' >&2; fi

# One row per (cipher, op, size), in the order run: the median of each
# provider, their ratio, and the min..max of the per-round paired ratios (a
# wide range means the machine was busy: rerun before believing the row).
awk '
    function median(list,   a, n, i, j, t) {
        n = split(list, a, " ")
        for (i = 2; i <= n; i++) {
            t = a[i] + 0
            for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]
            a[j + 1] = t
        }
        return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    {
        k = $1 " " $2 " " $3
        if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
        vals[k, $4] = vals[k, $4] " " $6
        one[k, $4, $5] = $6
        if ($5 > nr) nr = $5
    }
    END {
        printf "%-12s %-3s %6s %13s %16s %7s  %s\n", "cipher", "op", "size", \
            "default MB/s", "fastcrypto MB/s", "ratio", "(min..max)"
        for (i = 1; i <= nk; i++) {
            k = order[i]; split(k, f, " ")
            d = median(vals[k, "default"]); c = median(vals[k, "fastcrypto"])
            lo = hi = ""
            for (r = 1; r <= nr; r++) {
                if (one[k, "default", r] + 0 <= 0) continue
                q = one[k, "fastcrypto", r] / one[k, "default", r]
                if (lo == "" || q < lo) lo = q
                if (hi == "" || q > hi) hi = q
            }
            printf "%-12s %-3s %6d %13.1f %16.1f %6.2fx  (%.2f..%.2f)\n", \
                f[1], f[2], f[3], d / 1e6, c / 1e6, (d > 0) ? c / d : 0, lo, hi
        }
    }' "$tmp/data"

# --- fc_bench --------------------------------------------------------------
if ((run_fc_bench)) && ((${#fc_select[@]})); then
    echo
    echo "fc_bench ${fc_args[*]} ${fc_select[*]}"
    "$fc_bench" --module "$module" "${fc_args[@]}" "${fc_select[@]}" ||
        die "fc_bench failed"
fi
