# SPDX-License-Identifier: Apache-2.0
# not_offered.awk - bench.sh: the families not offered whose every row
# measured >= 1.05x, as disagreement lines.
{ k = $1 "\t" $2 }
!(k in n) { keys[++nk] = k; txt[k] = $3 }
{ n[k]++; q = $4 + 0; if (!(k in lo) || q < lo[k]) { lo[k] = q; far[k] = $5 }
  if (!(k in hi) || q > hi[k]) hi[k] = q }
END {
    for (i = 1; i <= nk; i++) {
        k = keys[i]
        if (lo[k] < 1.05) continue
        split(k, f, "\t")
        printf "%s\t%s\t%s\t%.2f\t%s\n", f[2], txt[k], \
            "not offered, every row measured >= 1.05x", lo[k], far[k]
    }
}
