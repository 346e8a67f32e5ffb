# SPDX-License-Identifier: Apache-2.0
# fc_table.awk - bench.sh's table of fc_bench --csv rows (workload,unit,
# rounds,def_med,def_min,def_max,fc_med,fc_min,fc_max,ratio,ratio_min,
# ratio_max), with the decision column.
BEGIN { load_decisions(decide) }
/^#/ { sub(/^# /, ""); print; next }
$1 == "workload" { next }
!hdr++ {
    printf "%-24s %-7s %13s %16s %7s  %-12s  %s\n", "workload", \
        "unit", "default", "fastcrypto", "ratio", "(min..max)", \
        "offered by default?"
}
{
    mm = sprintf("(%.2f..%.2f)", $11, $12)
    printf "%-24s %-7s %13.1f %16.1f %6.2fx  %-12s  %s\n", \
        $1, $2, $4, $7, $10, mm, decision($1, $10, "fc_bench " $1)
}
