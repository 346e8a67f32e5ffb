#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# arm64_model.sh - llvm-mca's model of our arm64 kernels against OpenSSL's own
# arm64 code from 3.0.x and 3.5.x, on the Neoverse N1/V1/V2/N2 and Ampere1
# scheduling models. No arm64 machine is needed; the figures are a MODEL.
#
# Usage: arm64_model.sh [--offline] [--cores "neoverse-n1 ..."] [--keep DIR]
# (--keep: copy the traces, bodies and llvm-mca reports to DIR)
#
# OpenSSL's arm64 perlasm (fetched as Debian source packages into the cache
# $FC_CACHE_DIR/arm64-model) and our kernels run under qemu -singlestep;
# one main-loop iteration of each trace goes through llvm-mca per core
# model. How, and what the model cannot time: docs/scripts.md.
set -euo pipefail

cd "$(dirname "$0")/.."
cache=${FC_CACHE_DIR:-/var/cache/fastcrypto}/arm64-model
cores="neoverse-n1 neoverse-v1 neoverse-v2 neoverse-n2 ampere1"
offline=0 keep=""
while [ $# -gt 0 ]; do
    case "$1" in
    --offline) offline=1; shift ;;
    --cores) cores=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "usage: $0 [--offline] [--cores \"c1 c2\"] [--keep DIR]" >&2; exit 2 ;;
    esac
done
. scripts/deps.sh
command -v llvm-mca-19 >/dev/null && command -v aarch64-linux-gnu-gcc >/dev/null &&
    command -v qemu-aarch64 >/dev/null ||
    fc_install_deps llvm-19 gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial" \
    "$cache/apt/sources.list.d" "$cache/src"
exec 9>"$cache/.lock"
flock 9

# --- 2. OpenSSL's sources and perlasm output ---------------------------------
a=$cache/apt
kr=/usr/share/keyrings/debian-archive-keyring.gpg
printf "deb-src [signed-by=$kr] http://deb.debian.org/%s main\n" "debian bookworm" \
    "debian-security bookworm-security" "debian trixie" >"$a/sources.list"
ao=(-o "Dir::State::Lists=$a/lists" -o "Dir::Etc::SourceList=$a/sources.list"
    -o "Dir::Etc::SourceParts=$a/sources.list.d" -o "Dir::Cache=$a/cache"
    -o "APT::Sandbox::User=root")
[ "$offline" -eq 1 ] || timeout 300 apt-get "${ao[@]}" -qq update ||
    echo "apt-get update failed: cached sources only" >&2
perlasm=(crypto/aes/asm/aesv8-armx.pl crypto/modes/asm/aes-gcm-armv8_64.pl
         crypto/modes/asm/aes-gcm-armv8-unroll8_64.pl crypto/bn/asm/armv8-mont.pl)
series_dir() { # series_dir 3.0|3.5: the generated asm of the newest served
    local s=$1 v up d
    for v in $(apt-cache "${ao[@]}" showsrc --only-source openssl 2>/dev/null |
               sed -n "s/^Version: \($s\.[0-9]*-.*\)/\1/p" | sort -rV); do
        up=${v%%-*}
        [ -f "$cache/src/openssl_$up.orig.tar.gz" ] ||
            (cd "$cache/src" && apt-get "${ao[@]}" -qq source --download-only \
                "openssl=$v" >/dev/null 2>&1) || true
        [ -f "$cache/src/openssl_$up.orig.tar.gz" ] && break
    done
    up=$(ls "$cache/src" | sed -n "s/^openssl_\($s\.[0-9]*\)\.orig\.tar\.gz$/\1/p" |
         sort -V | tail -n 1)
    [ -n "$up" ] || { echo "no OpenSSL $s source" >&2; return 1; }
    d=$cache/gen-$up
    if [ ! -f "$d/.done" ]; then
        rm -rf "$d" && mkdir -p "$d/src"
        tar -xzf "$cache/src/openssl_$up.orig.tar.gz" -C "$d/src" \
            --strip-components=1 --wildcards '*/crypto/aes/asm/*.pl' \
            '*/crypto/modes/asm/*.pl' '*/crypto/bn/asm/*.pl' \
            '*/crypto/perlasm/*.pl' '*/crypto/arm_arch.h'
        for p in "${perlasm[@]}"; do
            [ -f "$d/src/$p" ] || continue
            (cd "$d/src" && perl "$p" linux64 "$d/$(basename "$p" .pl).S")
            aarch64-linux-gnu-gcc -c -Wa,-L -I"$d/src/crypto" \
                "$d/$(basename "$p" .pl).S" -o "$d/$(basename "$p" .pl).o"
        done
        touch "$d/.done"
    fi
    echo "$d"
}
o30=$(series_dir 3.0)
o35=$(series_dir 3.5)
v30=${o30##*gen-} v35=${o35##*gen-}

# --- 3. harnesses -----------------------------------------------------------
w=$(mktemp -d "$cache/run.XXXXXX")
trap 'rm -rf "$w"' EXIT
h=bench/arm64_model/harness.c
cc=(aarch64-linux-gnu-gcc -O1 -static -Wa,-L -march=armv8-a+crypto+sha3)
for f in aes_ce aes_gcm_ce bn_mont; do
    "${cc[@]}" -c -Iinclude -Iasm "asm/aarch64/$f.S" -o "$w/$f.o"
done
"${cc[@]}" -DOURS "$h" "$w"/aes_ce.o "$w"/aes_gcm_ce.o "$w"/bn_mont.o -o "$w/h-ours"
for d in "$o30" "$o35"; do
    b=$w/h-${d##*gen-}
    nm -g --defined-only "$d"/*.o | awk '$2 == "T" && $3 ~ /gcm_.*_kernel|ctr32/ {
        d = d "extern char " $3 "[];\n"; t = t "{\"" $3 "\", " $3 "},\n" }
        END { printf "%sstatic const struct { const char *n; void *f; } tab[] = {\n%s{0, 0}};\n", d, t }' \
        >"$w/tab.h"
    "${cc[@]}" -I"$w" "$h" "$d"/*.o -o "$b"
done

# --- 4. traces, loop bodies, llvm-mca ------------------------------------------
# body NAME BIN ARGS...: writes $w/NAME.s (the region) and $w/NAME.bytes.
body() {
    local name=$1 bin=$2 a e lo=0 hi=0 n
    shift 2
    while read -r a e; do
        e=$((16#$a + 16#$e)) && a=$((16#$a))
        [ "$lo" -ne 0 ] && [ "$lo" -le "$a" ] || lo=$a
        [ "$hi" -ge "$e" ] || hi=$e
    done < <(nm -S "$bin" | awk '$3 ~ /^[Tt]$/ { print $1, $2, $4 }' |
        grep -wFf <(nm --defined-only "${objs[@]}" | awk '{ print $3 }') |
        cut -d' ' -f1,2)
    lo=$(printf '0x%x' "$lo") hi=$((hi - lo))
    for n in 3840 7680; do
        qemu-aarch64 -cpu max -singlestep -d exec,nochain -dfilter "$lo+$hi" \
            -D "$w/$name.$n.log" "$bin" "$1" "$2" "$n" "${3:-}" || true
        sed -n 's/^Trace [0-9]*: [^[]*\[[0-9a-f]*\/\([0-9a-f]*\)\/.*/\1/p' \
            "$w/$name.$n.log" >"$w/$name.$n.pc"
        rm -f "$w/$name.$n.log"
    done
    [ -f "$w/$(basename "$bin").dis" ] ||
        llvm-objdump-19 -d --no-show-raw-insn --mattr=+aes,+sha3 "$bin" \
            >"$w/$(basename "$bin").dis"
    python3 bench/arm64_model/loop_body.py "$w/$name" \
        "$w/$(basename "$bin").dis" "$1"
}
# mca NAME CORE: cycles per byte (per call for Montgomery) of NAME on CORE.
mca() {
    local b; read -r b _ <"$w/$1.bytes"
    llvm-mca-19 -mtriple=aarch64-linux-gnu -mcpu="$2" -mattr=+aes,+sha3 \
        -iterations=200 "$w/$1.s" >"$w/mca-$1-$2.txt" 2>&1 || { echo "?"; return; }
    awk -v b="$b" '/^Iterations:/ { it = $2 } /^Total Cycles:/ { c = $3 }
        END { if (b > 0) printf "%.3f", c / it / b; else printf "%.0f", c / it }' \
        "$w/mca-$1-$2.txt"
}

# Kernel list: name, key bits (rounds), our harness call, OpenSSL's call.
kernels="gcm-enc-128:10:gcm_enc:gcm_enc_128 gcm-dec-128:10:gcm_dec:gcm_dec_128
gcm-enc-256:14:gcm_enc:gcm_enc_256 gcm-dec-256:14:gcm_dec:gcm_dec_256
ctr-128:10:ctr:ctr cbc-dec-128:10:cbc_dec:cbc_dec cbc-dec-256:14:cbc_dec:cbc_dec
mont-mul-1024:0:mont_mul:mont_mul mont-sqr-1024:0:mont_sqr:mont_sqr"
echo "== OpenSSL perlasm: $v30 and $v35 (Debian sources); llvm-mca $(llvm-mca-19 --version |
    sed -n 's/.*LLVM version \([0-9.]*\).*/\1/p')"
for k in $kernels; do
    IFS=: read -r name nr ours theirs <<<"$k"
    objs=("$w"/aes_ce.o "$w"/aes_gcm_ce.o "$w"/bn_mont.o)
    body "o-$name" "$w/h-ours" "$ours" "$nr"
    case "$ours" in gcm_*) body "o-$name-sha3" "$w/h-ours" "${ours}_sha3" "$nr" ;; esac
    for d in "$o30" "$o35"; do
        v=${d##*gen-} objs=("$d"/*.o)
        case "$theirs" in
        gcm_*) set -- ${theirs//_/ }
               body "$v-$name" "$w/h-$v" gcm "$nr" "aes_gcm_$2_$3_kernel"
               [ "$v" = "$v30" ] ||
                   body "$v-$name-u" "$w/h-$v" gcm "$nr" "unroll8_eor3_aes_gcm_$2_$3_kernel" ;;
        ctr) body "$v-$name" "$w/h-$v" ctr "$nr" aes_v8_ctr32_encrypt_blocks
             [ "$v" = "$v30" ] ||
                 body "$v-$name-u" "$w/h-$v" ctr "$nr" aes_v8_ctr32_encrypt_blocks_unroll12_eor3 ;;
        *) body "$v-$name" "$w/h-$v" "$theirs" "$nr" ;;
        esac
    done
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", b / a; else printf "-" }'; }
printf '\n%-12s %-14s %11s %11s %11s %9s %9s\n' core kernel fastcrypto \
    "openssl-$v30" "openssl-$v35" "vs $v30" "vs $v35"
for core in $cores; do
    for k in $kernels; do
        IFS=: read -r name _ _ theirs <<<"$k"
        o=o-$name t35=$v35-$name
        if [ "$core" != neoverse-n1 ]; then
            [ -f "$w/o-$name-sha3.s" ] && o=o-$name-sha3
            case "$core:$theirs" in
            neoverse-n2:gcm* | neoverse-v[12]:gcm* | neoverse-v[12]:ctr | ampere*:gcm* | ampere*:ctr)
                t35=$v35-$name-u ;;
            esac
        fi
        a=$(mca "$o" "$core") b=$(mca "$v30-$name" "$core") c=$(mca "$t35" "$core")
        printf '%-12s %-14s %11s %11s %11s %9s %9s\n' "$core" "$name" "$a" "$b" "$c" \
            "$(ratio "$a" "$b")" "$(ratio "$a" "$c")"
    done
done
echo "c/B: cycles per byte, steady state of the main loop; mont-*: cycles per call, n = 16 limbs"
echo "llvm-mca MODEL figures (no fusion of AESE+AESMC, L1 hits, perfect prediction); not measurements"
[ -z "$keep" ] || { cp -r "$w" "$keep"; echo "work files: $keep"; }
