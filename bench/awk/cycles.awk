# SPDX-License-Identifier: Apache-2.0
# cycles.awk - bench.sh's cycles per byte at 16 KiB from its speed results
# (-v mhz: the clock).
$3 == 16384 && $4 > 0 && $5 > 0 {
    rounds = ($1 ~ /128/) ? 10 : ($1 ~ /192/) ? 12 : 14
    extra = ""
    # CBC encryption is one serial chain: c/B x 16 / rounds is the
    # cycles per AES round, the AESENC latency at the limit. With a
    # stitched MAC (cbc-hmac) too, unless the SHA chain is the
    # longer one (SHA-256 with AES-128: ~1.1x the AES bound).
    if ($1 ~ /cbc/ && $2 == "enc")
        extra = sprintf("  (fastcrypto: %.2f cycles per AES round)", \
            mhz * 1e6 / $5 * 16 / rounds)
    printf "%-22s %-4s default %5.2f c/B   fastcrypto %5.2f c/B%s\n", \
        $1, $2, mhz * 1e6 / $4, mhz * 1e6 / $5, extra
}
