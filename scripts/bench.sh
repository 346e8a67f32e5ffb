#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# bench.sh - fastcrypto against OpenSSL's default provider, side by side.
#
# `openssl speed` for the ciphers (encrypt and decrypt, each size) and RSA,
# then bench/fc_bench for what speed cannot express; interleaved rounds,
# medians, ratios fastcrypto/default with the range of the per-round
# ratios, the performance targets, cycles per byte, the offer decisions
# beside the ratios, a chart. Every run's counters (FASTCRYPTO_STATS=1)
# must show that the provider it names served it. Each part, the defaults,
# --openssl, --hide and --calibrate in detail: docs/scripts.md.
#
# Usage: scripts/bench.sh [--build-dir DIR] [--quick] [--rounds N]
#                         [--seconds S] [--rsa-seconds S]
#                         [--only cbc,ctr,gcm,cbc-hmac,rsa,drbg]
#                         [--ciphers aes-128-cbc,...]
#                         [--sizes all|16,1024,...] [--no-fc-bench]
#                         [--no-chart] [--openssl DIR|newest]
#                         [--hide FEATURES] [--calibrate [S]]
# Exits non-zero if the provider does not load, a run fails, or the
# counters show that a run was not served by the provider it names.

set -euo pipefail

prog=${0##*/}
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/deps.sh
. "$here/scripts/deps.sh" # fc_use_openssl
build_dir=./build
rounds=3
seconds=1
rsa_seconds=2
only=cbc,gcm,cbc-hmac,rsa
ciphers=""
sizes=""
quick=0
fc_rounds=""
run_fc_bench=1
chart=1
ossl_dir=""
hide=""
calibrate=""

usage() {
    sed -n '/^# Usage:/,/^# counters/p' "$0" | sed 's/^# \{0,1\}//'
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
    --rsa-seconds) need_value "$@"; rsa_seconds=$2; shift 2 ;;
    --only) need_value "$@"; only=$2; shift 2 ;;
    --ciphers) need_value "$@"; ciphers=$2; shift 2 ;;
    --sizes) need_value "$@"; sizes=$2; shift 2 ;;
    --no-fc-bench) run_fc_bench=0; shift ;;
    --no-chart) chart=0; shift ;;
    --openssl) need_value "$@"; ossl_dir=$2; shift 2 ;;
    --hide) need_value "$@"; hide=$2; shift 2 ;;
    --calibrate)
        if [[ ${2:-} =~ ^[0-9]+$ ]]; then calibrate=$2; shift 2
        else calibrate=30; shift; fi ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
    esac
done

[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || die "--seconds must be a positive integer"
[[ $rsa_seconds =~ ^[1-9][0-9]*$ ]] ||
    die "--rsa-seconds must be a positive integer"
[[ -z $sizes || $sizes == all || $sizes =~ ^[0-9]+(,[0-9]+)*$ ]] ||
    die "--sizes must be 'all' or a comma-separated list of byte counts"

# --openssl: that OpenSSL's binary and libraries for every run below.
if [[ -n $ossl_dir ]]; then
    fc_use_openssl "$ossl_dir" || exit 1
    ossl_dir=$fc_openssl_dir
fi

# --hide: the OPENSSL_ia32cap mask of each feature name (OpenSSL's capability
# vector: word 1 = CPUID.1 EDX:ECX, word 2 = CPUID.7.0 EBX, ECX in the high
# half), and our own mask with the same names.
ia32cap=""
if [[ -n $hide ]]; then
    w1=0 w2=0
    IFS=, read -r -a hlist <<<"$hide"
    for h in "${hlist[@]}"; do
        case $h in
        ifma) w2=$((w2 | 0x200000)) ;;              # EBX 21 AVX512IFMA
        avx512) w2=$((w2 | 0x10000 | 0x200000)) ;;  # EBX 16 AVX512F (+IFMA)
        vaes) w2=$((w2 | (1 << 41))) ;;             # ECX 9 VAES
        vpclmul) w2=$((w2 | (1 << 42))) ;;          # ECX 10 VPCLMULQDQ
        adx) w2=$((w2 | 0x80000)) ;;                # EBX 19 ADX
        bmi2) w2=$((w2 | 0x100)) ;;                 # EBX 8 BMI2
        avx2) w2=$((w2 | 0x20 | 0x10000 | 0x200000 | (3 << 41))) ;;
        avx) # ECX 28 AVX, and everything that needs it
            w1=$((w1 | (1 << 60)))
            w2=$((w2 | 0x20 | 0x10000 | 0x200000 | (3 << 41))) ;;
        *) die "--hide: no OPENSSL_ia32cap bits known for '$h'" ;;
        esac
    done
    ia32cap=$(printf '~0x%x:~0x%x' "$w1" "$w2")
    [[ $w1 -eq 0 ]] && ia32cap=$(printf ':~0x%x' "$w2")
fi

cbc_sizes=16,64,256,1024,16384
gcm_sizes=16,64,256,1024,1350,16384
cbc_hmac_sizes=1024,16384
# fc_bench defaults: 5 rounds (it is cheap), 100k messages, 200 ms samples.
fc_args=(--rounds "${fc_rounds:-5}")
if ((quick)); then
    rounds=1
    seconds=1
    rsa_seconds=1
    cbc_sizes=16,1024,16384
    gcm_sizes=16,256,1350,16384
    fc_args=(--rounds 1 --messages 20000 --target-ms 50)
fi
if [[ $sizes == all ]]; then sizes=16,64,256,1024,1350,8192,16384; fi
if [[ -n $sizes ]]; then
    cbc_sizes=$sizes
    gcm_sizes=$sizes
fi

# Workload families: the speed jobs ("cipher op size mask" lines) and the
# fc_bench selections each one adds.
jobs=()
fc_select=()
do_rsa=0
add_cipher_jobs() { # CIPHER SIZES [MASK [OPS]]
    local c=$1 op s
    local -a sz ops
    IFS=, read -r -a sz <<<"$2"
    read -r -a ops <<<"${4:-enc dec}"
    for op in "${ops[@]}"; do
        for s in "${sz[@]}"; do jobs+=("$c $op $s ${3:--}"); done
    done
}
IFS=, read -r -a families <<<"$only"
for fam in "${families[@]}"; do
    case $fam in
    cbc)
        if [[ -z $ciphers ]]; then
            add_cipher_jobs aes-128-cbc "$cbc_sizes"
            add_cipher_jobs aes-256-cbc "$cbc_sizes"
        fi
        fc_select+=(cbc)
        ;;
    ctr)
        if [[ -z $ciphers ]]; then
            add_cipher_jobs aes-128-ctr "$cbc_sizes"
            add_cipher_jobs aes-256-ctr "$cbc_sizes"
        fi
        ;;
    gcm)
        if [[ -z $ciphers ]]; then
            add_cipher_jobs aes-128-gcm "$gcm_sizes"
            add_cipher_jobs aes-256-gcm "$gcm_sizes"
            # The AES-NI-only kernels, where the target is >= 1.1x.
            add_cipher_jobs aes-128-gcm 16384 vaes
            add_cipher_jobs aes-256-gcm 16384 vaes
        fi
        # gcm-speed: openssl speed's re-keying loop (3.2+), also on 3.0.
        fc_select+=(gcm-rec gcm-tls13 gcm-speed)
        ;;
    cbc-hmac)
        # Encrypt only: speed's decrypt loop is raw CBC decryption plus a
        # hash, no record check, which TLS never does (fc_bench's mte-xfer
        # rows open real records).
        if [[ -z $ciphers ]]; then
            for c in aes-128-cbc-hmac-sha1 aes-256-cbc-hmac-sha1 \
                aes-128-cbc-hmac-sha256 aes-256-cbc-hmac-sha256; do
                add_cipher_jobs "$c" "$cbc_hmac_sizes" - enc
            done
        fi
        fc_select+=(mte-xfer)
        ;;
    rsa)
        do_rsa=1
        fc_select+=(rsa)
        ;;
    drbg)
        # CTR-DRBG generate calls: speed has no such loop.
        fc_select+=(drbg)
        ;;
    *) die "--only: unknown family '$fam' (known: cbc, ctr, gcm, cbc-hmac, rsa, drbg)" ;;
    esac
done
if [[ -n $ciphers ]]; then
    IFS=, read -r -a clist <<<"$ciphers"
    for c in "${clist[@]}"; do
        case $c in
        *gcm*) add_cipher_jobs "$c" "$gcm_sizes" ;;
        *) add_cipher_jobs "$c" "$cbc_sizes" ;;
        esac
    done
fi
rsa_sizes=(2048 3072 4096)

# --- the build tree -------------------------------------------------------
command -v openssl >/dev/null || die "openssl not found in PATH"
[[ -d $build_dir ]] || die "build directory not found: $build_dir"
build_dir=$(cd "$build_dir" && pwd)
module=$build_dir/fastcrypto.so
fc_bench=$build_dir/bench/fc_bench
[[ -f $module ]] || die "no $module (build the 'fastcrypto' target first)"
if ((run_fc_bench)) && ((${#fc_select[@]})); then
    [[ -x $fc_bench ]] || die "no $fc_bench (build the 'fc_bench' target first)"
else
    run_fc_bench=0
fi

awkdir=$here/bench/awk # the report's awk programs
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# A neutral configuration: a system config that already loads an installed
# fastcrypto (or sets default_properties) would otherwise decide which module
# and which implementation get measured.
: >"$tmp/empty.cnf"
export OPENSSL_CONF=$tmp/empty.cnf
export FASTCRYPTO_STATS=1
# Every kernel is measured, whether or not fastcrypto offers it by default
# here (fc/offer.h); the header says what it offers.
export FASTCRYPTO_OFFER=all
unset OPENSSL_MODULES FASTCRYPTO_CPU_MASK OPENSSL_ia32cap
if [[ -n $hide ]]; then
    # Both sides: fastcrypto through its own mask, OpenSSL through its own.
    export FASTCRYPTO_CPU_MASK=$hide OPENSSL_ia32cap=$ia32cap
fi
# The do-nothing AEAD provider: fc_bench's per-record rows report the cost
# above libcrypto's own floor when it is there.
floor=$build_dir/bench/fcfloor.so
[[ -f $floor ]] && fc_args+=(--floor "$floor")

# The RSA configs: the shipped fastcrypto.cnf pointed at this build's module,
# and one that loads the default provider alone.
sed "s|^module *=.*|module = $module|" "$here/fastcrypto.cnf" >"$tmp/fastcrypto.cnf"
grep -q "^module = $module\$" "$tmp/fastcrypto.cnf" ||
    die "cannot set the module path in a copy of fastcrypto.cnf"
cat >"$tmp/default.cnf" <<'EOF'
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
[default_sect]
activate = 1
EOF

prov_opts=(-provider-path "$build_dir" -provider fastcrypto -provider default)

# --calibrate: this machine's (or the stand-in class's) own wisdom, measured
# now under the same OpenSSL and mask, decides the offer column below.
if [[ -n $calibrate ]]; then
    cal=$build_dir/tools/fastcrypto-calibrate
    [[ -x $cal ]] || die "no $cal (build the 'fastcrypto-calibrate' target first)"
    env -u FASTCRYPTO_STATS FASTCRYPTO_OFFER= "$cal" --module "$module" \
        --budget "$calibrate" --out "$tmp/wisdom" >"$tmp/calibrate" 2>&1 || {
        cat "$tmp/calibrate" >&2
        die "fastcrypto-calibrate failed"
    }
    export FASTCRYPTO_WISDOM=$tmp/wisdom
fi

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
# What it offers by default on this CPU and OpenSSL (not forced), family by
# family, and where each decision came from: its unforced build info ends
# "offer=gcm cbc ... offer-from=wisdom|table|forced wisdom=STATE)", STATE the
# wisdom file's path, then ": ..." when it was not used (missing, a key of
# another machine or CPU mask, a bad file); the path may hold spaces.
# fc_decisions TAG [MASK] appends "TAG family offer|no source figure|-" lines
# to $tmp/decide (TAG "-" for the rows run under the --hide mask alone, else
# the extra mask of [mask=TAG] rows) and sets offer_auto, offer_from and
# wisdom_state.
offer_families=(gcm cbc ctr drbg cbc-hmac rsa2048 rsa3072 rsa4096 rsa-other)
: >"$tmp/decide"
fc_decisions() {
    local tag=$1 info path fam dec src fig
    local -a env=(FASTCRYPTO_OFFER=)
    [[ -n ${2:-} ]] && env+=(FASTCRYPTO_CPU_MASK="${hide:+$hide,}$2")
    info=$(env "${env[@]}" openssl list -providers -verbose "${prov_opts[@]}" \
        2>/dev/null | sed -n 's/.*build info: \(fastcrypto .*\))$/\1/p' |
        head -n 1)
    offer_auto=$(sed -n 's/.* offer=\(.*\) offer-from=.*/\1/p' <<<"$info")
    offer_from=$(sed -n 's/.* offer-from=\([a-z]*\) .*/\1/p' <<<"$info")
    wisdom_state=$(sed -n 's/.* offer-from=[a-z]* wisdom=//p' <<<"$info")
    # The file in force: the state is its bare path.
    path=$wisdom_state
    [[ $path == *": "* ]] && path=""
    for fam in "${offer_families[@]}"; do
        case " $offer_auto " in
        " all " | *" $fam "*) dec=offer ;;
        *) dec=no ;;
        esac
        src=table fig=-
        if [[ $offer_from == forced ]]; then
            src=forced
        elif [[ $offer_from == wisdom && -n $path && -r $path ]]; then
            # A family without a record in the file keeps the table's.
            fig=$(awk -v f="$fam" '$1 == "family" && $2 == f {
                    m = "?"
                    for (i = 4; i <= NF; i++)
                        if ($i ~ /^median=/) m = substr($i, 8)
                    print m; exit
                }' "$path")
            if [[ -n $fig ]]; then src=wisdom; else fig=-; fi
        fi
        echo "$tag $fam $dec $src $fig" >>"$tmp/decide"
    done
}
# The [mask=...] rows first: the header and summary show the plain run's.
for m in $(printf '%s\n' "${jobs[@]}" | awk '$4 != "-" { print $4 }' | sort -u); do
    fc_decisions "$m" "$m"
done
fc_decisions -

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
    head -n 1)
# The clock for cycles per byte: the mean "cpu MHz" over the CPUs. In a VM
# and with turbo this is the nominal clock at best, so c/B is an estimate.
mhz=$(awk -F: '/^cpu MHz/ { s += $2; n++ } END { if (n) printf "%.0f", s / n }' \
    /proc/cpuinfo 2>/dev/null || true)
est=$((${#jobs[@]} * 2 * rounds * seconds))
((do_rsa)) && est=$((est + ${#rsa_sizes[@]} * 2 * 2 * rounds * rsa_seconds))
((run_fc_bench)) && est=$((est + (quick ? 10 : 50)))

echo "fastcrypto bench  $(date -u '+%Y-%m-%d %H:%M:%SZ')"
echo "cpu:        ${cpu:-unknown} ($(nproc) online; cpu MHz ${mhz:-?})"
# A load above the core count at the start means a neighbour is busy too.
if [[ -r /proc/loadavg ]]; then
    echo "load:       $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
fi
echo "openssl:    $(openssl version)${ossl_dir:+ ($ossl_dir)}"
[[ -n $hide ]] &&
    echo "hidden:     $hide from both: FASTCRYPTO_CPU_MASK=$hide," \
        "OPENSSL_ia32cap=$ia32cap"
echo "fastcrypto: ${buildinfo:-?} ($module)"
echo "offered:    ${offer_auto:-?} by default here (measured below: everything);" \
    "offer-from=${offer_from:-?} wisdom=${wisdom_state:-?}"
echo "runs:       $rounds interleaved round(s); ciphers ${seconds}s per run" \
    "(cbc sizes $cbc_sizes; gcm sizes $gcm_sizes);" \
    "rsa ${rsa_seconds}s per size and op; ~$((est / 60 + 1)) min"
if [[ -n $calibrate ]]; then
    echo
    echo "== fastcrypto-calibrate --budget $calibrate (its wisdom decides the" \
        "offer column below)"
    cat "$tmp/calibrate"
fi
echo

# The decision column: bench/awk/decide.awk (load_decisions, decision).
: >"$tmp/disagree"
: >"$tmp/noff"

# median_table DATA UNIT DIV OUT: DATA holds "label op size prov round value"
# lines; prints one row per (label, op, size) in the order run - each
# provider's median (divided by DIV), their ratio and the min..max of the
# per-round paired ratios - and writes "label op size default fastcrypto
# ratio lo hi" (undivided medians) to OUT.
median_table() {
    awk -v unit="$2" -v div="$3" -v out="$4" -v decide="$tmp/decide" \
        -v dis="$tmp/disagree" -v noff="$tmp/noff" -f "$awkdir/decide.awk" \
        -f "$awkdir/median_table.awk" "$1"
}

# stat_value FILE NAME: counter NAME from the fastcrypto stats line(s) in FILE
# (summed), or "none" when fastcrypto printed no stats (it was not loaded).
stat_value() {
    awk -v want="$2" '
        /^fastcrypto: stats / {
            seen = 1
            for (i = 1; i <= NF; i++) {
                split($i, kv, "=")
                if (kv[1] == want) sum += kv[2]
            }
        }
        END { print seen ? sum + 0 : "none" }' "$1"
}

# --- openssl speed, interleaved ---------------------------------------------
# run_speed PROVIDER CIPHER OP SIZE MASK ROUND: one speed run of one size;
# appends "label op size prov round bytes/s" to $tmp/data from speed's
# machine-readable output (+H: the sizes, +F: bytes per second for each),
# and checks fastcrypto's counters for that run.
nproof_fc=0
nproof_def=0
run_speed() {
    local prov=$1 cipher=$2 op=$3 size=$4 mask=$5 round=$6 out=$tmp/speed.out
    local label=$cipher counter n mode
    local -a cmd env=()

    # -provider and -propquery must precede -evp: speed fetches the cipher
    # while it parses -evp.
    cmd=(openssl speed -mr -elapsed -seconds "$seconds" -bytes "$size"
        "${prov_opts[@]}" -propquery "provider=$prov" -evp "$cipher")
    [[ $op == dec ]] && cmd+=(-decrypt)
    if [[ $mask != - ]]; then
        env=(FASTCRYPTO_CPU_MASK="${hide:+$hide,}$mask")
        label="${cipher}[mask=$mask]"
    fi
    if ! env "${env[@]}" "${cmd[@]}" >"$out" 2>"$tmp/speed.err"; then
        cat "$out" "$tmp/speed.err" >&2
        die "failed: ${env[*]} ${cmd[*]}"
    fi
    awk -v c="$label" -v o="$op" -v p="$prov" -v r="$round" -v want="$size" \
        -F: -f "$awkdir/speed_row.awk" "$out" >>"$tmp/data" || {
        cat "$out" "$tmp/speed.err" >&2
        die "cannot parse the output of: ${cmd[*]}"
    }

    # Who served it: fastcrypto counts every message it finishes.
    # (the buildinfo names the table: aes= for CBC and CTR, gcm= for GCM).
    case $cipher in
    *-gcm) mode=gcm table=gcm ;;
    *-cbc) mode=cbc table=aes ;;
    *-ctr) mode=ctr table=aes ;;
    *-cbc-hmac-sha*) mode=cbc-hmac table=cbc-hmac ;; # speed: the non-TLS mode
    *) return 0 ;; # a cipher fastcrypto does not count
    esac
    counter=aes-$mode-$op
    n=$(stat_value "$tmp/speed.err" "$counter")
    if [[ $prov == fastcrypto ]]; then
        [[ $n != none && $n -gt 0 ]] ||
            die "$label $op $size: fastcrypto's $counter is $n after a" \
                "fastcrypto run: it did not serve it"
        if [[ $mask == vaes ]] &&
            grep -q "^fastcrypto: stats .*$table=vaes" "$tmp/speed.err"; then
            die "$label: the mask did not take (VAES kernel still chosen)"
        fi
        nproof_fc=$((nproof_fc + 1))
    else
        [[ $n == none || $n -eq 0 ]] ||
            die "$label $op $size: fastcrypto's $counter is $n after a" \
                "default run"
        nproof_def=$((nproof_def + 1))
    fi
}

# The two providers run back to back for each size (pairs 'seconds' apart,
# not a whole size sweep apart), and the order flips every round, so drift
# and a neighbour's load fall on both alike.
: >"$tmp/data"
: >"$tmp/speed.res"
if ((${#jobs[@]})); then
    for ((r = 1; r <= rounds; r++)); do
        order=(fastcrypto default)
        ((r % 2)) || order=(default fastcrypto)
        for job in "${jobs[@]}"; do
            read -r cipher op size mask <<<"$job"
            if [[ -t 2 ]]; then
                printf '\r  round %d/%d  %-12s %s %6s B %-5s' "$r" "$rounds" \
                    "$cipher" "$op" "$size" "${mask#-}" >&2
            fi
            for prov in "${order[@]}"; do
                run_speed "$prov" "$cipher" "$op" "$size" "$mask" "$r"
            done
        done
    done
    if [[ -t 2 ]]; then printf '\r%70s\r' '' >&2; fi

    echo "== openssl speed -evp (MB/s = 10^6 bytes/s)"
    median_table "$tmp/data" MB/s 1e6 "$tmp/speed.res"
    echo "served-by check (FASTCRYPTO_STATS): all $nproof_fc fastcrypto runs" \
        "counted their messages in fastcrypto; all $nproof_def default runs" \
        "counted none."
    grep -q 'mask=' "$tmp/speed.res" &&
        echo "[mask=vaes]: fastcrypto with FASTCRYPTO_CPU_MASK=vaes (AES-NI" \
            "kernels, checked in its build info); default is unaffected."
    echo
fi

# --- RSA: openssl speed under two configs -----------------------------------
# run_rsa PROVIDER ROUND: one `openssl speed rsa...` run; appends "rsaBITS
# sign|verify BITS prov round ops/s" to $tmp/rsa, from the +F2 lines
# (+F2:index:bits:sign/s:verify/s); the operation counts of the +R1 (sign)
# and +R2 (verify) lines go to $tmp/rsa.count for the served-by check.
run_rsa() {
    local prov=$1 round=$2 out=$tmp/rsa.out cnf sign verify ns nv
    local -a cmd

    cnf=$tmp/$prov.cnf
    cmd=(openssl speed -mr -elapsed -seconds "$rsa_seconds")
    for b in "${rsa_sizes[@]}"; do cmd+=("rsa$b"); done
    if ! OPENSSL_CONF=$cnf "${cmd[@]}" >"$out" 2>"$tmp/rsa.err"; then
        cat "$out" "$tmp/rsa.err" >&2
        die "failed: OPENSSL_CONF=$cnf ${cmd[*]}"
    fi
    awk -v p="$prov" -v r="$round" -F: -f "$awkdir/rsa_rows.awk" "$out" >>"$tmp/rsa" || {
        cat "$out" "$tmp/rsa.err" >&2
        die "cannot parse the output of: OPENSSL_CONF=$cnf ${cmd[*]}"
    }
    # speed -mr reports the operation counts (+R1 sign, +R2 verify) on
    # stderr; read both streams in case that changes.
    ns=$(awk -F: '$1 == "+R1" { s += $2 } END { print s + 0 }' "$out" \
        "$tmp/rsa.err")
    nv=$(awk -F: '$1 == "+R2" { s += $2 } END { print s + 0 }' "$out" \
        "$tmp/rsa.err")
    sign=$(stat_value "$tmp/rsa.err" rsa-sign)
    verify=$(stat_value "$tmp/rsa.err" rsa-verify)
    if [[ $prov == fastcrypto ]]; then
        [[ $sign != none && $sign -gt 0 && $verify -gt 0 ]] ||
            die "RSA under fastcrypto.cnf: fastcrypto counted rsa-sign=$sign" \
                "rsa-verify=$verify: the config did not make it serve RSA"
    else
        [[ $sign == none ]] ||
            die "RSA under the default-only config: fastcrypto was loaded"
    fi
    echo "$prov $ns $nv $sign $verify" >>"$tmp/rsa.count"
}

: >"$tmp/rsa.res"
if ((do_rsa)); then
    : >"$tmp/rsa"
    : >"$tmp/rsa.count"
    for ((r = 1; r <= rounds; r++)); do
        order=(fastcrypto default)
        ((r % 2)) || order=(default fastcrypto)
        for prov in "${order[@]}"; do
            if [[ -t 2 ]]; then
                printf '\r  round %d/%d  rsa %-10s' "$r" "$rounds" "$prov" >&2
            fi
            run_rsa "$prov" "$r"
        done
    done
    if [[ -t 2 ]]; then printf '\r%70s\r' '' >&2; fi

    echo "== openssl speed rsa (ops/s; OPENSSL_CONF: fastcrypto.cnf with" \
        "this build's module vs default only)"
    median_table "$tmp/rsa" ops/s 1 "$tmp/rsa.res"
    awk -f "$awkdir/rsa_served.awk" "$tmp/rsa.count"
    echo
fi

# --- fc_bench --------------------------------------------------------------
: >"$tmp/fc.csv"
if ((run_fc_bench)); then
    echo "== fc_bench ${fc_args[*]} ${fc_select[*]} (one process, both" \
        "providers; ops/s, MB/s, or ns/msg where lower is better)"
    "$fc_bench" --csv --module "$module" "${fc_args[@]}" "${fc_select[@]}" \
        >"$tmp/fc.csv" 2>"$tmp/fc.err" || {
        cat "$tmp/fc.csv" "$tmp/fc.err" >&2
        die "fc_bench failed"
    }
    # workload,unit,rounds,def_med,def_min,def_max,fc_med,fc_min,fc_max,
    # ratio,ratio_min,ratio_max
    awk -F, -v decide="$tmp/decide" -v dis="$tmp/disagree" -v noff="$tmp/noff" \
        -f "$awkdir/decide.awk" -f "$awkdir/fc_table.awk" "$tmp/fc.csv"
    echo
fi

# --- cycles per byte -----------------------------------------------------------
if [[ -n $mhz ]] && grep -q ' 16384 ' "$tmp/speed.res"; then
    echo "== cycles per byte at 16 KiB (estimate: seconds x ${mhz} MHz, the" \
        "mean 'cpu MHz' of /proc/cpuinfo; turbo and VM clocks make it rough)"
    # Wall-clock seconds: time spent waiting for a busy core counts too.
    if awk -v n="$(nproc)" '{ exit !($1 > n) }' /proc/loadavg 2>/dev/null; then
        echo "(load $(cut -d' ' -f1 /proc/loadavg) > $(nproc) cores now:" \
            "these are inflated; the ratios hold better)"
    fi
    awk -v mhz="$mhz" -f "$awkdir/cycles.awk" "$tmp/speed.res"
    echo
fi

# --- targets -------------------------------------------------------------------
# One row per performance target measured here (the list below, with the
# ratio each needs): the worst median ratio among the rows the target
# covers, which row that was, and the range of that row's paired ratios.
{
    awk '{ print $1 ":" $2 ":" $3, $6, $7, $8 }' "$tmp/speed.res" "$tmp/rsa.res"
    awk -F, '!/^#/ && $1 != "workload" { print "fc:" $1, $10, $11, $12 }' \
        "$tmp/fc.csv"
} >"$tmp/results"
# The 16 KiB GCM target depends on what default runs: >= 2.3x where it has
# no AVX-512 GCM (every 3.0, and any CPU without AVX-512 + VAES + VPCLMULQDQ),
# >= 1.3x where it has (3.5 and later on such a CPU, unless hidden).
gcm16k=2.3
gcm16k_why="default has no AVX-512 GCM here"
ossl_minor=$(openssl version | awk '{ split($2, v, "."); print v[1] * 100 + v[2] }')
if ((ossl_minor >= 305)) &&
    grep -qw avx512f /proc/cpuinfo && grep -qw avx512bw /proc/cpuinfo &&
    grep -qw avx512dq /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo &&
    grep -qw vaes /proc/cpuinfo && grep -qw vpclmulqdq /proc/cpuinfo &&
    ! [[ ,$hide, =~ ,(avx512|vaes|vpclmul|avx2), ]]; then
    gcm16k=1.3
    gcm16k_why="default runs its own AVX-512 GCM here"
fi
# "label|target|key key ...": keys are label:op:size (speed) or fc:workload.
gcm_small="aes-128-gcm:enc:16 aes-128-gcm:dec:16 aes-256-gcm:enc:16 aes-256-gcm:dec:16 aes-128-gcm:enc:64 aes-128-gcm:dec:64 aes-256-gcm:enc:64 aes-256-gcm:dec:64 aes-128-gcm:enc:256 aes-128-gcm:dec:256 aes-256-gcm:enc:256 aes-256-gcm:dec:256"
targets=(
    "AES-128-GCM 16 KiB enc+dec|$gcm16k|aes-128-gcm:enc:16384 aes-128-gcm:dec:16384"
    "AES-256-GCM 16 KiB enc+dec|$gcm16k|aes-256-gcm:enc:16384 aes-256-gcm:dec:16384"
    "AES-GCM 16 KiB, AES-NI-only path|1.1|aes-128-gcm[mask=vaes]:enc:16384 aes-128-gcm[mask=vaes]:dec:16384 aes-256-gcm[mask=vaes]:enc:16384 aes-256-gcm[mask=vaes]:dec:16384"
    "AES-GCM 1350 B|2.0|aes-128-gcm:enc:1350 aes-128-gcm:dec:1350 aes-256-gcm:enc:1350 aes-256-gcm:dec:1350"
    "AES-GCM 16-256 B|2.0|$gcm_small"
    "AES-GCM records 16-1350 B (fc_bench)|2.0|fc:gcm-rec-seal-128-16 fc:gcm-rec-seal-128-64 fc:gcm-rec-seal-128-256 fc:gcm-rec-seal-128-1350 fc:gcm-rec-open-128-16 fc:gcm-rec-open-128-1350 fc:gcm-rec-seal-256-16 fc:gcm-rec-seal-256-1350"
    "AES-CBC decrypt 16 KiB|1.6|aes-128-cbc:dec:16384 aes-256-cbc:dec:16384"
    "AES-CBC encrypt 16 KiB|1.0|aes-128-cbc:enc:16384 aes-256-cbc:enc:16384"
    "AES-256-CBC fresh key, 47-2048 B|1.2|fc:cbc-small"
    "AES-CBC-HMAC-SHA* encrypt 1, 16 KiB|1.2|aes-128-cbc-hmac-sha1:enc:1024 aes-128-cbc-hmac-sha1:enc:16384 aes-256-cbc-hmac-sha1:enc:1024 aes-256-cbc-hmac-sha1:enc:16384 aes-128-cbc-hmac-sha256:enc:1024 aes-128-cbc-hmac-sha256:enc:16384 aes-256-cbc-hmac-sha256:enc:1024 aes-256-cbc-hmac-sha256:enc:16384"
    "TLS 1.2 MtE transfer (fc_bench)|1.2|fc:mte-xfer-128-sha1-16k fc:mte-xfer-128-sha1-1k fc:mte-xfer-256-sha1-16k fc:mte-xfer-256-sha1-1k fc:mte-xfer-128-sha256-16k fc:mte-xfer-128-sha256-1k fc:mte-xfer-256-sha256-16k fc:mte-xfer-256-sha256-1k"
    "RSA-2048 sign|1.5|rsa2048:sign:2048"
    "RSA-3072 sign|1.4|rsa3072:sign:3072"
    "RSA-4096 sign|1.4|rsa4096:sign:4096"
    "RSA-2048 verify|1.3|rsa2048:verify:2048"
    "RSA-2048 PSS sign (fc_bench)|1.5|fc:rsa-sign-pss"
    "RSA-2048 OAEP decrypt (fc_bench)|1.5|fc:rsa-oaep-dec"
    "RSA key import (fc_bench)|1.0|fc:rsa-import fc:rsa-import-pub"
    "RSA import + first sign (fc_bench)|1.2|fc:rsa-import-sign"
)
printf '%s\n' "${targets[@]}" >"$tmp/targets"
echo "== targets: worst median ratio of the rows each" \
    "covers"
awk -f "$awkdir/targets.awk" \
    "$tmp/results" "$tmp/targets"
echo "(AES-GCM 16 KiB: $gcm16k_why.)"
# Per record: fastcrypto's own cost above libcrypto's floor (fc_bench
# --floor): <= 60 ns at 16 B, and at 1350 B <= 1.15 x its bulk rate.
if awk -F, '!/^#/ && $1 ~ /^gcm-rec-/ && $13 != "" { f = 1 } END { exit !f }' \
    "$tmp/fc.csv"; then
    echo
    echo "== AES-GCM per record above libcrypto's floor (fc_bench --floor;" \
        "ns per record, medians)"
    awk -F, -f "$awkdir/floor.awk" "$tmp/fc.csv"
fi

# --- the offer decisions against the measurements ------------------------------
echo
echo "== offer decisions (fastcrypto's unforced build info) against the" \
    "measured ratios"
case $offer_from in
wisdom) echo "source:       wisdom $wisdom_state (families it has no record" \
    "for: the table)" ;;
forced) echo "source:       forced (offer = all)" ;;
*) echo "source:       table (wisdom: ${wisdom_state:-?})" ;;
esac
awk '$1 == "-" {
        s = $2 " (" $4 ($5 != "-" ? " " $5 : "") ")"
        if ($3 == "offer") o = o (o == "" ? "" : ", ") s
        else n = n (n == "" ? "" : ", ") s
    }
    END {
        print "offered:      " (o == "" ? "none" : o)
        print "not offered:  " (n == "" ? "none" : n)
    }' "$tmp/decide"
# A family not offered disagrees when every one of its rows (per mask tag)
# measured >= 1.05x: offering it would have been faster everywhere.
awk -F'\t' -f "$awkdir/not_offered.awk" "$tmp/noff" >>"$tmp/disagree"
ndis=$(wc -l <"$tmp/disagree")
echo "disagreements: $ndis (rows offered but < 1.00x, flagged \"!\" above;" \
    "families not offered whose every row measured >= 1.05x)"
# By family and decision (a [mask=...] row may have its own): how many
# rows, their range of ratios, the one farthest from the decision.
awk -F'\t' -f "$awkdir/disagree.awk" "$tmp/disagree"
echo
echo "not measured here: the nginx TLS 1.3 targets (handshakes/s, 1 MiB" \
    "transfers) - scripts/bench_tls.sh."
echo "The machine is shared and noisy: trust a ratio only when its" \
    "(min..max) is narrow."

# --- chart ---------------------------------------------------------------------
# Throughput against record size, default vs fastcrypto, for AES-128-GCM and
# AES-256-GCM encryption and AES-256-CBC decryption.
if ((chart)); then
    # One panel per series, in this order.
    awk -f "$awkdir/chart_data.awk" "$tmp/speed.res" | sort -s -n -k1,1 | cut -d' ' -f2- \
        >"$tmp/chart.dat"
    if [[ -s $tmp/chart.dat ]]; then
        mkdir -p "$build_dir/bench"
        cp "$tmp/chart.dat" "$build_dir/bench/throughput.dat"
        echo
        "$here/scripts/bench_chart.sh" "$build_dir/bench/throughput.dat" \
            "$build_dir/bench/throughput.png" \
            "fastcrypto vs default, openssl speed, ${cpu:-?}" ||
            echo "chart: skipped (bench_chart.sh failed)"
    fi
fi
