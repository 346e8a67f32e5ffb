# SPDX-License-Identifier: Apache-2.0
# disagree.awk - bench.sh: the disagreements by family and decision.
{ k = $1 "\t" $2 }
!(k in n) { keys[++nk] = k; fam[k] = $1; txt[k] = $2; why[k] = $3 }
{
    n[k]++; q = $4 + 0
    if (!(k in lo) || q < lo[k]) lo[k] = q
    if (!(k in hi) || q > hi[k]) hi[k] = q
    # The slowest offered row, the fastest row not offered.
    if (!(k in far) || ($3 ~ /^offered/ ? q < fq[k] : q > fq[k])) {
        far[k] = $5; fq[k] = q
    }
}
END {
    for (i = 1; i <= nk; i++) {
        k = keys[i]
        printf "  ! %-9s %s: %s, %d row(s), %.2fx..%.2fx (farthest: %s)\n", \
            fam[k], txt[k], why[k], n[k], lo[k], hi[k], far[k]
    }
}
