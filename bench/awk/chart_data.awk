# SPDX-License-Identifier: Apache-2.0
# chart_data.awk - bench.sh: the chart's series (AES-128/256-GCM encrypt,
# AES-256-CBC decrypt), ranked, from its speed results, in MB/s.
BEGIN { rank["aes-128-gcm enc"] = 1; rank["aes-256-gcm enc"] = 2
        rank["aes-256-cbc dec"] = 3 }
($1 " " $2) in rank {
    print rank[$1 " " $2], \
        toupper($1) "_" ($2 == "enc" ? "encrypt" : "decrypt"), \
        $3, $4 / 1e6, $5 / 1e6
}
