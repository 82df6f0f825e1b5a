#!/bin/sh
# tests/bad/run.sh MGSIM - every file of the bad-input corpus must make
# `mgsim config check` exit 2, print nothing on stdout, and print on stderr
# a message naming the file and the expected place (JSON path or offset)
# listed for it in tests/bad/configs/EXPECT.  Files and EXPECT must match.
set -u
MGSIM=$1
dir=tests/bad/configs
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for f in "$dir"/*.json; do
    n=$(basename "$f")
    grep -q "^$n	" "$dir/EXPECT" || { echo "bad: $n: not listed in $dir/EXPECT"; fail=$((fail+1)); }
done
while IFS='	' read -r name want; do
    case "$name" in ''|'#'*) continue ;; esac
    f="$dir/$name"
    if [ ! -f "$f" ]; then echo "bad: $name: listed in EXPECT but missing"; fail=$((fail+1)); continue; fi
    ${MG_WRAP:-} "$MGSIM" config check "$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    why=""
    [ $rc -eq 2 ] || why="exit status $rc, expected 2"
    [ -s "$tmp/out" ] && why="${why:+$why; }printed on stdout"
    grep -qF -- "$f" "$tmp/err" || why="${why:+$why; }message does not name the file"
    grep -qF -- "$want" "$tmp/err" || why="${why:+$why; }message lacks: $want"
    if [ -n "$why" ]; then
        echo "bad: $name: FAIL: $why"; sed 's/^/    /' "$tmp/err" | head -5
        fail=$((fail+1))
    else
        pass=$((pass+1))
    fi
done < "$dir/EXPECT"
echo "bad-input: $pass passed, $fail failed"
[ $fail -eq 0 ]
