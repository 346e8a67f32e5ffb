#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# format.sh [--check] - clang-format every C source and header of ours.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files 'provider/*.[ch]' 'include/*.h' 'test/*.[ch]' 'bench/*.[ch]' 'tools/*.[ch]')
[ "${#files[@]}" -eq 0 ] && exit 0
if [ "${1:-}" = "--check" ]; then
    clang-format --dry-run --Werror "${files[@]}"
else
    clang-format -i "${files[@]}"
fi
