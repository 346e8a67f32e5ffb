# SPDX-License-Identifier: Apache-2.0
# rsa_rows.awk - bench.sh: sign/s and verify/s per size from `openssl speed
# -mr rsa...` (-F:, +F2:index:bits:sign/s:verify/s) as "rsaBITS op BITS p r value".
$1 == "+F2" { print "rsa" $3, "sign", $3, p, r, $4
              print "rsa" $3, "verify", $3, p, r, $5; got++ }
END { if (got == 0) exit 3 }
