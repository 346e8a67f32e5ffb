# SPDX-License-Identifier: Apache-2.0
# targets.awk - bench.sh's targets table: RESULTS ("key ratio lo hi") then
# TARGETS ("label|needs|key key ..."); per target the worst row.
NR == FNR { ratio[$1] = $2; lo[$1] = $3; hi[$1] = $4; next }
{
    split($0, f, "|"); n = split(f[3], keys, " ")
    worst = ""; wk = ""
    for (i = 1; i <= n; i++) {
        if (!(keys[i] in ratio)) continue
        if (worst == "" || ratio[keys[i]] < worst) {
            worst = ratio[keys[i]]; wk = keys[i]
        }
    }
    if (worst == "") next
    if (!shown++)
        printf "%-34s %7s %9s  %-7s %-12s %s\n", "target", "needs", \
            "measured", "verdict", "(min..max)", "worst row"
    verdict = (worst >= f[2]) ? "PASS" : "short"
    # The paired ratios of the worst row straddle the target: noise
    # could flip the verdict.
    note = (lo[wk] < f[2] && hi[wk] >= f[2]) ? " ~noise" : ""
    w = wk; sub(/^fc:/, "fc_bench ", w); gsub(/:/, " ", w)
    printf "%-34s %6.2fx %8.2fx  %-7s (%.2f..%.2f)  %s%s\n", f[1], \
        f[2], worst, verdict, lo[wk], hi[wk], w, note
}
END { if (!shown) print "(no measured row has a target)" }
