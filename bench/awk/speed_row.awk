# SPDX-License-Identifier: Apache-2.0
# speed_row.awk - bench.sh: the bytes/s of size `want` from `openssl speed -mr`
# (-F:, +H sizes, +F rates) as "c o want p r value"; exit 2/3: unparsable.
$1 == "+H" { nh = NF - 1; for (i = 2; i <= NF; i++) sz[i - 1] = $i }
$1 == "+F" {
    if (nh == 0 || NF - 3 != nh) exit 2
    for (i = 4; i <= NF; i++)
        if (sz[i - 3] == want) { print c, o, want, p, r, $i; got = 1 }
}
END { if (!got) exit 3 }
