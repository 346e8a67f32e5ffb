#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# bench_chart.sh - a PNG of throughput against record size, default vs
# fastcrypto, from the data scripts/bench.sh writes.
#
# Usage: scripts/bench_chart.sh DATA OUT.png [TITLE]
# DATA: one line per point, "series size default_MB/s fastcrypto_MB/s"
# (e.g. "AES-128-GCM_encrypt 16384 3120.5 7800.2"; "_" shows as a space);
# one panel per series, in the order they first appear, log-scale sizes.
# Installs gnuplot (gnuplot-nox) with apt-get when it is missing; if that is
# not possible it prints a notice and exits 0 without a chart.
set -euo pipefail

prog=${0##*/}
here=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -ge 2 ]] || {
    sed -n '/^# Usage:/,/^# not possible/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
data=$1
out=$2
title=${3:-fastcrypto vs default}
[[ -s $data ]] || { echo "$prog: no data in $data" >&2; exit 1; }

if ! command -v gnuplot >/dev/null; then
    # deps.sh installs as root or through sudo; a failure is not fatal here.
    if ! (. "$here/scripts/deps.sh" && fc_install_deps gnuplot-nox) \
        >/dev/null 2>&1 || ! command -v gnuplot >/dev/null; then
        echo "chart: skipped (gnuplot is not installed and could not be" \
            "installed: apt-get install gnuplot-nox)"
        exit 0
    fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fc-chart.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# One block per series, separated by two blank lines (gnuplot's "index").
mapfile -t series < <(awk '!seen[$1]++ { print $1 }' "$data")
for s in "${series[@]}"; do
    awk -v s="$s" '$1 == s { print $2, $3, $4 }' "$data" | sort -n
    printf '\n\n'
done >"$tmp/blocks"

n=${#series[@]}
{
    echo "set terminal pngcairo size $((420 * n + 80)),480 font 'sans,10'"
    echo "set output '$out'"
    echo "set multiplot layout 1,$n title \"${title//\"/}\" noenhanced"
    echo "set logscale x 2"
    echo "set xlabel 'bytes per call (record)'"
    echo "set ylabel 'MB/s (10^6 B/s)'"
    echo "set yrange [0:*]"
    echo "set grid"
    echo "set key left top"
    echo "set format x '%g'"
    for i in "${!series[@]}"; do
        echo "set title '${series[$i]//_/ }' noenhanced"
        echo "plot '$tmp/blocks' index $i using 1:2 with linespoints" \
            "lw 2 pt 7 title 'default', '' index $i using 1:3 with" \
            "linespoints lw 2 pt 5 title 'fastcrypto'"
    done
    echo "unset multiplot"
} >"$tmp/plot.gp"

# pngcairo is in gnuplot-nox; fall back to the plain png terminal.
if ! gnuplot "$tmp/plot.gp" 2>"$tmp/err"; then
    sed -i 's/^set terminal pngcairo \(size [0-9,]*\).*/set terminal png \1/' \
        "$tmp/plot.gp"
    if ! gnuplot "$tmp/plot.gp" 2>>"$tmp/err"; then
        echo "chart: skipped (gnuplot failed: $(head -n 3 "$tmp/err"))"
        exit 0
    fi
fi
echo "chart: $out"
