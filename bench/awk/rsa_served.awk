# SPDX-License-Identifier: Apache-2.0
# rsa_served.awk - bench.sh: the served-by line of the RSA runs, from
# "prov signs verifies rsa-sign rsa-verify" lines.
$1 == "fastcrypto" { n++; s += $2; v += $3; fs += $4; fv += $5 }
$1 == "default" { d++ }
END {
    printf "served-by check (FASTCRYPTO_STATS): fastcrypto counted " \
        "rsa-sign=%d rsa-verify=%d over its %d run(s) (speed did %d " \
        "signs, %d verifies); in the %d default-only run(s) it was " \
        "not loaded.\n", fs, fv, n, s, v, d
}
