# SPDX-License-Identifier: Apache-2.0
# floor.awk - bench.sh's AES-GCM per record above libcrypto's floor, from
# fc_bench --csv with --floor (columns 13-15).
!/^#/ && $1 ~ /^gcm-rec-/ && $13 != "" {
    printf "%-24s floor %7.1f   default +%8.1f   fastcrypto +%8.1f\n", \
        $1, $13, $14, $15
    above[$1] = $15
}
END {
    for (k in above) if (k ~ /-16$/)
        printf "%-40s %6.1f ns  (target <= 60)   %s\n", \
            "fastcrypto above the floor, " k, above[k], \
            (above[k] <= 60 ? "PASS" : "short")
    # Both above the floor: the 1350-byte record against 1350
    # bytes at the rate of the 16 KiB record.
    for (k in above) if (k ~ /-1350$/) {
        b = k; sub(/-1350$/, "-16k", b)
        if (!(b in above) || above[b] <= 0) continue
        q = above[k] / (1350 * above[b] / 16384)
        printf "%-40s %6.2fx  (target <= 1.15x bulk rate)   %s\n", \
            "fastcrypto " k " above the floor vs its 16 KiB rate", \
            q, (q <= 1.15 ? "PASS" : "short")
    }
}
