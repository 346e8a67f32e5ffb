# shellcheck shell=bash disable=SC2154 # $tool and $stats come from the caller
# SPDX-License-Identifier: Apache-2.0
# e2e_lib.sh - helpers shared by stats_e2e.sh and programs_e2e.sh (sourced).
# The callers set $tool (fastcrypto-stats) and $stats (the stats directory).

# One line per check; $fails counts the FAIL lines.
fails=0
ok() { echo "ok    $*"; }
bad() { echo "FAIL  $*"; fails=$((fails + 1)); }
skip() { echo "skip  $*"; }
info() { echo "info  $*"; }
check() { # check LABEL COND...
    local label=$1
    shift
    if "$@"; then ok "$label"; else bad "$label"; fi
}

# pick_port: a random high loopback port nothing listens on.
pick_port() {
    local p _
    for _ in $(seq 30); do
        p=$((20000 + RANDOM % 40000))
        if ! (exec 3<>/dev/tcp/127.0.0.1/"$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# wait_port PORT: until something listens there (5 s at most).
wait_port() {
    local _
    for _ in $(seq 100); do
        (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}

# raw: every stats file in $stats, one line each, every counter.
raw() { "$tool" -d "$stats" -a -z -r; }

# sum NAME FILTER: counter NAME summed over the raw lines matching FILTER
# (grep -E).
sum() {
    raw | grep -E -- "$2" | awk -v k="$1" '
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) s += kv[2] } }
        END { print s + 0 }'
}

# kill_tree PID: SIGKILL PID and its children, if PID is still a child of
# this script (a pid already waited for may belong to someone else by
# now). PID is stopped first, so that it cannot fork a child (an nginx
# worker starting late) between the listing and the kill.
kill_tree() {
    [ "$(ps -o ppid= -p "$1" 2>/dev/null | tr -d ' ')" = "$$" ] || return 0
    kill -STOP "$1" 2>/dev/null || return 0
    # shellcheck disable=SC2046 # the pid list is meant to split
    kill -KILL $(pgrep -P "$1") "$1" 2>/dev/null || true
}
