# SPDX-License-Identifier: Apache-2.0
# decide.awk - bench.sh's decision column, functions for its tables
# (median_table.awk, fc_table.awk): load_decisions FILE reads $tmp/decide; decision(LABEL, RATIO) is the text beside a row's ratio:
# the decision for the row's family and its source, "!" and why when the
# median ratio (as printed, to 2 decimals) disagrees with it; a flagged
# row also goes to $tmp/disagree ("family decision why ratio row", tabs).
function load_decisions(file,   line, f) {
    while ((getline line < file) > 0) {
        split(line, f, " ")
        dec[f[1], f[2]] = f[3]; src[f[1], f[2]] = f[4]; fig[f[1], f[2]] = f[5]
    }
    close(file)
}
function family(l) {
    sub(/\[mask=[a-z0-9,]*\]/, "", l)
    if (l ~ /cbc-hmac/ || l ~ /^mte-/) return "cbc-hmac"
    if (l ~ /gcm/) return "gcm"
    if (l ~ /^aes-[0-9]+-cbc$/ || l ~ /^cbc-/) return "cbc"
    if (l ~ /^aes-[0-9]+-ctr$/ || l ~ /^ctr-/) return "ctr"
    if (l ~ /^rsa(2048|3072|4096)$/) return l
    if (l ~ /^rsa-/) return "rsa2048"
    if (l ~ /^drbg/) return "drbg"
    return ""
}
function decision(label, q, row,   t, fam, d, txt, why) {
    t = "-"
    if (match(label, /\[mask=[a-z0-9,]*\]/))
        t = substr(label, RSTART + 6, RLENGTH - 7)
    fam = family(label)
    if (fam == "" || !((t, fam) in dec)) return ""
    d = dec[t, fam]; q = sprintf("%.2f", q) + 0
    txt = d " (" src[t, fam] (fig[t, fam] != "-" ? " " fig[t, fam] : "") ")"
    why = ""
    if (d == "offer" && q < 1.0) why = "offered, measured slower"
    # Not offered: judged on the whole family (one algorithm serves all its
    # rows), in the summary; a faster row alone is no disagreement.
    if (d == "no") {
        printf "%s\t%s\t%s\t%.2f\t%s\n", t, fam, txt, q, row >> noff
        return txt (q >= 1.05 ? "  (this row faster)" : "")
    }
    if (why == "") return txt
    printf "%s\t%s\t%s\t%.2f\t%s\n", fam, txt, why, q, row >> dis
    return txt "  ! " why
}
