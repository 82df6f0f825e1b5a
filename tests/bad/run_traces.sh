#!/bin/sh
# tests/bad/run_traces.sh MGSIM - every file of the malformed-trace corpus
# must make `mgsim trace stats` exit 2, print nothing on stdout, and print
# on stderr a message naming the file and containing the text listed for
# it in tests/bad/traces/EXPECT (the record index and byte offset where
# they apply).  Files and EXPECT must match.
set -u
MGSIM=$1
dir=tests/bad/traces
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for f in "$dir"/*.mgt; do
    n=$(basename "$f")
    grep -q "^$n	" "$dir/EXPECT" || { echo "bad-traces: $n: not listed in $dir/EXPECT"; fail=$((fail+1)); }
done
while IFS='	' read -r name want; do
    case "$name" in ''|'#'*) continue ;; esac
    f="$dir/$name"
    if [ ! -f "$f" ]; then echo "bad-traces: $name: listed in EXPECT but missing"; fail=$((fail+1)); continue; fi
    ${MG_WRAP:-} "$MGSIM" trace stats "$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    why=""
    [ $rc -eq 2 ] || why="exit status $rc, expected 2"
    [ -s "$tmp/out" ] && why="${why:+$why; }printed on stdout"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || why="${why:+$why; }expected one line on stderr"
    grep -qF -- "mgsim: $f: " "$tmp/err" || why="${why:+$why; }message does not name the file"
    grep -qF -- "$want" "$tmp/err" || why="${why:+$why; }message lacks: $want"
    if [ -n "$why" ]; then
        echo "bad-traces: $name: FAIL: $why"; sed 's/^/    /' "$tmp/err" | head -5
        fail=$((fail+1))
    else
        pass=$((pass+1))
    fi
done < "$dir/EXPECT"
echo "bad-traces: $pass passed, $fail failed"
[ $fail -eq 0 ]
