#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fastcrypto-config enable|disable|status [--openssl-cnf FILE] [--fastcrypto-cnf FILE]
#
# Turns fastcrypto on and off system-wide, reversibly.
#
#   enable   makes FILE (default: openssl.cnf in the directory
#            `openssl version -d` names, through its symlink) load
#            fastcrypto.cnf (default: the one installed beside this tool,
#            <prefix>/share/fastcrypto/fastcrypto.cnf): an ".include" of it
#            in FILE's main section, before FILE's own "openssl_conf" line,
#            and fastcrypto merged into the sections that line names:
#            "fastcrypto = fastcrypto_sect" right after the default
#            provider's line (default stays first), "activate = 1" for
#            default where it was implicit, the preference
#            (default_properties = ?fastcrypto.preferred=yes) in the
#            algorithm section. Every line it adds ends with
#            "# added by fastcrypto-config", and it changes no other line.
#            A copy of FILE as it was is kept as FILE.before-fastcrypto.
#            Then it asks the stock openssl whether default and fastcrypto
#            are both active under FILE; if not, FILE is put back.
#            Idempotent: a FILE it has already enabled is left as it is.
#   disable  removes those lines: FILE is again byte for byte what it was
#            (the copy is then deleted). If FILE was edited since, only the
#            added lines go, the rest is kept, and so is the copy.
#   status   says which file is in force, whether it loads fastcrypto (by
#            this tool, by hand, or not), the providers active under it, and
#            runs fastcrypto-check against it.
#
# It refuses, changing nothing, on what it cannot merge safely: a missing
# or read-only FILE; more than one openssl_conf line, or one naming a
# section FILE does not define once; a provider section without the
# default provider but with others; default switched off; a FIPS
# provider (fastcrypto is not one); default_properties already set to
# something else; a relevant section defined in an included file, an
# include it cannot read (relative paths, nested includes), continued
# lines or $variables in the sections it would edit; section names
# starting "fastcrypto" that it did not add. A FILE that already loads
# fastcrypto by hand is left alone (enable says whether it works).
#
# Exit status: 0 done (or nothing to do), 1 failed (verification, a check
# that failed), 2 usage, 3 refused / not enabled (status).
set -eu
OPENSSL=${OPENSSL:-openssl}
marker='# added by fastcrypto-config'
usage() {
    echo "usage: fastcrypto-config enable|disable|status [--openssl-cnf FILE] [--fastcrypto-cnf FILE]" >&2
    exit 2
}
say() { echo "fastcrypto-config: $*"; }
refuse() {
    echo "fastcrypto-config: refused, nothing changed: $*" >&2
    exit 3
}

cmd=""
cnf=""
fccnf=${FASTCRYPTO_CNF:-}
while [ $# -gt 0 ]; do
    case "$1" in
    enable | disable | status) [ -z "$cmd" ] || usage; cmd=$1; shift ;;
    --openssl-cnf) [ $# -ge 2 ] || usage; cnf=$2; shift 2 ;;
    --openssl-cnf=*) cnf=${1#*=}; shift ;;
    --fastcrypto-cnf) [ $# -ge 2 ] || usage; fccnf=$2; shift 2 ;;
    --fastcrypto-cnf=*) fccnf=${1#*=}; shift ;;
    -h | --help) sed -n '3,42p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) usage ;;
    esac
done
[ -n "$cmd" ] || usage

self=$(readlink -f "$0")
here=$(dirname "$self")
if [ -z "$cnf" ]; then
    dir=$("$OPENSSL" version -d | sed -n 's/^OPENSSLDIR: "\(.*\)"$/\1/p')
    [ -n "$dir" ] || refuse "cannot read the OpenSSL directory from '$OPENSSL version -d'"
    cnf=$dir/openssl.cnf
fi
shown=$cnf
# Edit the file itself, not a symlink to it (Debian: /usr/lib/ssl/openssl.cnf
# -> /etc/ssl/openssl.cnf).
cnf=$(readlink -f "$cnf" 2>/dev/null || echo "$cnf")
[ ! -L "$shown" ] || shown="$shown -> $cnf"
backup=$cnf.before-fastcrypto
if [ -z "$fccnf" ]; then
    fccnf=$(readlink -f "$here/../share/fastcrypto/fastcrypto.cnf" 2>/dev/null ||
        echo "$here/../share/fastcrypto/fastcrypto.cnf")
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fastcrypto-config.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# analyse FILE FCCNF: the plan, one line each: "refuse REASON", "state
# enabled|hand|plain", "before N TEXT" / "after N TEXT" (insert TEXT before
# or after line N of FILE).
analyse() {
    awk -v fccnf="$2" -v marker="$marker" '
    function trim(s) { sub(/^[ \t\r]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
    function uncomment(s) { sub(/#.*/, "", s); return trim(s) }
    # Refusals while reading wait for the end: a file set up by hand or by
    # this tool is reported as such whatever else is in it.
    function refuse(r) { if (inend) print "refuse " r; else why = why "refuse " r "\n"; bad = 1 }
    function yes(v) { v = tolower(v); return v == "1" || v == "yes" || v == "true" || v == "on" }
    # Sections and keys of an included file: what it defines and where the
    # section is when it ends.
    function include(path, line, n, l, hdr, sect, cmd, f, i) {
        if (path !~ /^\//) { refuse("line " line ": .include of a relative path (" path ")"); return }
        if (path ~ /[ \t"\047$;|&<>`\\]/) { refuse("line " line ": .include path it cannot read safely"); return }
        if (path ~ /fastcrypto[^\/]*\.cnf$/) { hand = 1; return }
        n = 0
        if (system("test -d \"" path "\"") == 0) {
            cmd = "ls -1 \"" path "\" 2>/dev/null"
            while ((cmd | getline f) > 0)
                if (f ~ /\.(cnf|conf)$/) files[++n] = path "/" f
            close(cmd)
        } else if (system("test -r \"" path "\"") == 0) {
            files[++n] = path
        } else if (system("test -e \"" path "\"") == 0) {
            refuse("line " line ": cannot read the included " path); return
        }
        for (i = 1; i <= n; i++) {
            while ((getline l < files[i]) > 0) {
                l = uncomment(l)
                if (l ~ /^\.include/) { refuse("nested .include in " files[i]); continue }
                if (l ~ /^\[/) {
                    hdr = l; sub(/^\[[ \t]*/, "", hdr); sub(/[ \t]*\].*/, "", hdr)
                    incsect[hdr] = files[i]; sect = hdr; continue
                }
                if (l ~ /^fastcrypto[ \t]*=/) hand = 1
                if (l ~ /^openssl_conf[ \t]*=/ && (sect == "" ? cur : sect) == "default")
                    refuse("the included " files[i] " sets openssl_conf")
            }
            close(files[i])
        }
        if (sect != "") cur = sect
    }
    BEGIN { cur = "default" }
    {
        raw = $0
        if (index(raw, marker) > 0) { markers++; next }
        l = uncomment(raw)
        if (l == "") next
        if (l ~ /^\.pragma/) next
        if (l ~ /^\.include/) {
            p = l; sub(/^\.include[ \t]*=?[ \t]*/, "", p)
            include(p, NR); next
        }
        if (l ~ /^\[/) {
            cur = l; sub(/^\[[ \t]*/, "", cur); sub(/[ \t]*\].*/, "", cur)
            hdrs[cur]++
            if (hdrs[cur] == 1) hline[cur] = NR
            if (cur ~ /^fastcrypto/) clash = cur
            next
        }
        if (raw ~ /\\[\r]?$/) cont[cur] = NR
        k = l; sub(/[ \t]*=.*/, "", k)
        v = l; if (!sub(/^[^=]*=[ \t]*/, "", v)) v = ""
        if (k == "fastcrypto") hand = 1
        cnt[cur, k]++
        val[cur, k] = v
        kline[cur, k] = NR
        keys[cur] = keys[cur] " " k
    }
    # check SECT WHAT: SECT can be edited (defined once, here, plainly).
    function check(s, what) {
        if (s !~ /^[A-Za-z0-9_.]+$/) { refuse(what " names \"" s "\", not a plain section name"); return 0 }
        if (s in incsect) { refuse(what " section [" s "] is (also) defined in " incsect[s]); return 0 }
        if (hdrs[s] != 1) { refuse(what " section [" s "] is defined " (hdrs[s] + 0) " times in the file"); return 0 }
        if (s in cont) { refuse("line " cont[s] ": a continued line in [" s "]"); return 0 }
        return 1
    }
    END {
        inend = 1
        if (markers > 0) { print "state enabled"; exit }
        if (hand) { print "state hand"; exit }
        if (bad) { printf "%s", why; exit }
        if (clash != "") { refuse("it already has a section [" clash "]"); exit }
        if (cnt["default", "openssl_conf"] > 1) { refuse("openssl_conf is set " cnt["default", "openssl_conf"] " times"); exit }
        inc1 = ".include " fccnf " " marker
        inc2 = "[ default ] " marker
        if (cnt["default", "openssl_conf"] == 0) {
            # Nothing in force: fastcrypto.cnf brings its own openssl_conf.
            print "before 1 " inc1; print "before 1 " inc2; print "state plain"; exit
        }
        if ("default" in cont) { refuse("line " cont["default"] ": a continued line in the main section"); exit }
        x = val["default", "openssl_conf"]
        if (!check(x, "openssl_conf")) exit
        print "before " kline["default", "openssl_conf"] " " inc1
        print "before " kline["default", "openssl_conf"] " " inc2
        if ((x, "providers") in val) {
            p = val[x, "providers"]
            if (!check(p, "providers")) exit
            n = split(keys[p], ks, " ")
            for (i = 1; i <= n; i++) {
                if (ks[i] == "fips" || val[p, ks[i]] ~ /fips/)
                    { refuse("a FIPS provider is configured ([" p "] " ks[i] "); fastcrypto is not a FIPS provider"); exit }
            }
            if ((p, "default") in val) {
                d = val[p, "default"]
                if (cnt[p, "default"] > 1) { refuse("[" p "] names default twice"); exit }
                if (!check(d, "the default provider")) exit
                if ((d, "activate") in val) {
                    if (!yes(val[d, "activate"])) { refuse("[" d "] switches the default provider off (activate = " val[d, "activate"] ")"); exit }
                } else
                    print "after " hline[d] " activate = 1 " marker
                print "after " kline[p, "default"] " fastcrypto = fastcrypto_sect " marker
            } else if (n == 0) {
                print "after " hline[p] " default = fastcrypto_default_sect " marker
                print "after " hline[p] " fastcrypto = fastcrypto_sect " marker
            } else {
                refuse("[" p "] loads other providers but not default; fastcrypto needs default"); exit
            }
        } else
            print "after " hline[x] " providers = fastcrypto_providers " marker
        if ((x, "alg_section") in val) {
            a = val[x, "alg_section"]
            if (!check(a, "alg_section")) exit
            if (((a, "fips_mode") in val) && yes(val[a, "fips_mode"])) { refuse("[" a "] sets fips_mode"); exit }
            if ((a, "default_properties") in val) {
                if (val[a, "default_properties"] !~ /fastcrypto\.preferred=yes/)
                    { refuse("[" a "] already sets default_properties = " val[a, "default_properties"] "; add ?fastcrypto.preferred=yes to it by hand"); exit }
            } else
                print "after " hline[a] " default_properties = ?fastcrypto.preferred=yes " marker
        } else
            print "after " hline[x] " alg_section = fastcrypto_algorithms " marker
        print "state plain"
    }' "$1"
}

# strip_nl SRC OUT: OUT is awk's output for SRC; drop the newline awk adds
# after a last line that had none.
fix_end() {
    if [ -s "$1" ] && [ "$(tail -c1 "$1" | od -An -c | tr -d ' ')" != '\n' ]; then
        head -c -1 "$2" >"$2.t" && mv "$2.t" "$2"
    fi
}
# apply FILE PLAN OUT: FILE with the plan's insertions.
apply() {
    awk -v plan="$2" '
    BEGIN {
        while ((getline l < plan) > 0) {
            split(l, f, " ")
            t = l; sub(/^[a-z]+ [0-9]+ /, "", t)
            if (f[1] == "before") pre[f[2]] = pre[f[2]] t "\n"
            if (f[1] == "after") post[f[2]] = post[f[2]] t "\n"
        }
    }
    { printf "%s%s\n%s", pre[NR], $0, post[NR] }' "$1" >"$3"
    fix_end "$1" "$3"
}
# unapply FILE OUT: FILE without the added lines.
unapply() {
    awk -v m="$marker" 'index($0, m) == 0' "$1" >"$2"
    fix_end "$1" "$2"
}
writable() {
    [ -w "$cnf" ] && [ -w "$(dirname "$cnf")" ] &&
        [ -n "$(find "$cnf" -maxdepth 0 -perm -u+w)" ]
}
# put SRC: replace the file by SRC's bytes, keeping its mode and owner.
put() {
    t=$(mktemp "$cnf.XXXXXX")
    cp -p "$cnf" "$t" && cat "$1" >"$t" && mv -f "$t" "$cnf"
}
# active: the providers active under the file, one name a line.
active() {
    OPENSSL_CONF=$cnf "$OPENSSL" list -providers 2>/dev/null | awk '
        /^  [^ ]/ { name = $1 } /status: active/ { print name }'
}
loads_fastcrypto() { active | grep -qx fastcrypto && active | grep -qx default; }

case "$cmd" in
enable)
    [ -f "$cnf" ] || refuse "$shown: no such file (OpenSSL then reads no configuration; create it, or use OPENSSL_CONF=$fccnf for one program)"
    [ -f "$fccnf" ] && [ -r "$fccnf" ] || refuse "$fccnf: no such file (--fastcrypto-cnf FILE)"
    case "$fccnf" in /*) ;; *) fccnf=$(readlink -f "$fccnf") ;; esac
    case "$fccnf" in *[[:space:]]* | *'#'*) refuse "$fccnf: a path OpenSSL's .include cannot take" ;; esac
    analyse "$cnf" "$fccnf" >"$tmp/plan"
    if grep -q '^refuse ' "$tmp/plan"; then
        sed -n 's/^refuse /  /p' "$tmp/plan" >&2
        refuse "$shown: a layout fastcrypto-config does not merge (above)"
    fi
    case "$(sed -n 's/^state //p' "$tmp/plan")" in
    enabled)
        say "$shown: already enabled, nothing changed"
        loads_fastcrypto || { echo "fastcrypto-config: but fastcrypto and default are not both active under it (fastcrypto-config status)" >&2; exit 1; }
        exit 0 ;;
    hand)
        if loads_fastcrypto; then
            say "$shown: already loads fastcrypto (set up by hand); left as it is"
            exit 0
        fi
        refuse "$shown mentions fastcrypto (set up by hand?) but does not load it; fix it by hand or restore it" ;;
    esac
    writable || refuse "$shown: read-only (or its directory is)"
    apply "$cnf" "$tmp/plan" "$tmp/new"
    cp -p "$cnf" "$backup"
    put "$tmp/new"
    if ! loads_fastcrypto; then
        put "$backup"
        rm -f "$backup"
        echo "fastcrypto-config: failed: under the edited file default and fastcrypto were not both active" \
            "('$OPENSSL list -providers'); $shown is back as it was" >&2
        exit 1
    fi
    say "enabled in $shown (was kept as $backup):"
    diff "$backup" "$cnf" | sed -n 's/^> /  + /p'
    say "active: $(active | tr '\n' ' ')"
    say "restart the programs that use OpenSSL to pick it up"
    ;;
disable)
    [ -f "$cnf" ] || refuse "$shown: no such file"
    if ! grep -qF "$marker" "$cnf"; then
        say "$shown: not enabled by fastcrypto-config, nothing changed"
        [ ! -e "$backup" ] || say "(an earlier copy is still at $backup)"
        exit 0
    fi
    writable || refuse "$shown: read-only (or its directory is)"
    unapply "$cnf" "$tmp/old"
    if [ -f "$backup" ] && cmp -s "$tmp/old" "$backup"; then
        put "$backup"
        rm -f "$backup"
        say "disabled: $shown is byte for byte what it was before enable"
    else
        put "$tmp/old"
        if [ -f "$backup" ]; then
            say "disabled: the lines fastcrypto-config added are removed from $shown;" \
                "it was edited since enable, so the rest is kept, and $backup too"
        else
            say "disabled: the lines fastcrypto-config added are removed from $shown"
        fi
    fi
    say "restart the programs that use OpenSSL to drop fastcrypto"
    ;;
status)
    echo "config file: $shown"
    if [ -n "${OPENSSL_CONF:-}" ]; then
        echo "  note: this shell sets OPENSSL_CONF=$OPENSSL_CONF, which programs started from it read instead"
    fi
    [ -f "$cnf" ] || { echo "  missing: OpenSSL reads no configuration, fastcrypto is not loaded"; exit 3; }
    if grep -qF "$marker" "$cnf"; then
        echo "  enabled by fastcrypto-config ($(grep -cF "$marker" "$cnf") lines added; before: $backup)"
    elif grep -v '^[[:space:]]*#' "$cnf" | grep -q 'fastcrypto'; then
        echo "  mentions fastcrypto (set up by hand)"
    else
        echo "  fastcrypto-config has not enabled fastcrypto here"
    fi
    echo "  providers active: $(active | tr '\n' ' ')"
    if ! active | grep -qx fastcrypto; then
        echo "fastcrypto is not loaded by $shown (fastcrypto-config enable)"
        exit 3
    fi
    check=${FASTCRYPTO_CHECK:-}
    for c in "$here/fastcrypto-check" "$here/fastcrypto-check.sh"; do
        [ -n "$check" ] || [ ! -x "$c" ] || check=$c
    done
    [ -n "$check" ] || check=fastcrypto-check
    OPENSSL_CONF=$cnf "$check"
    ;;
esac
