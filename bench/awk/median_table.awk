# SPDX-License-Identifier: Apache-2.0
# median_table.awk - bench.sh's table of speed runs (see median_table there).
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
    load_decisions(decide)
    printf "%-22s %-6s %6s %14s %17s %7s  %-12s  %s\n", "", "op", \
        "size", "default " unit, "fastcrypto " unit, "ratio", \
        "(min..max)", "offered by default?"
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
        q = (d > 0) ? c / d : 0
        mm = sprintf("(%.2f..%.2f)", lo, hi)
        printf "%-22s %-6s %6d %14.1f %17.1f %6.2fx  %-12s  %s\n", \
            f[1], f[2], f[3], d / div, c / div, q, mm, \
            decision(f[1], q, f[1] " " f[2] " " f[3])
        print f[1], f[2], f[3], d, c, q, lo, hi > out
    }
}
