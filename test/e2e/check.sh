#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check.sh [BUILD_DIR] - fastcrypto-check (tools/fastcrypto-check.sh, as
# installed) against the shipped fastcrypto.cnf with this build's module:
# the stock openssl loads fastcrypto and prefers it, also under the
# property queries programs pass; exits with fastcrypto-check's status.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
fc_conf >"$tmp/check.cnf"
OPENSSL_CONF=$tmp/check.cnf "$here/tools/fastcrypto-check.sh"
