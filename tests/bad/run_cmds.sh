#!/bin/sh
# tests/bad/run_cmds.sh MGSIM MGPROBE - bad input to commands other than
# `config check`: each case of tests/bad/cmds/CASES (NAME<TAB>PROGRAM<TAB>
# ARGS<TAB>TEXT, PROGRAM mgsim or mgprobe, ARGS split at spaces, files
# named from the repository root) must exit 2, print nothing on stdout and
# exactly one line on stderr that contains TEXT.  Every file in
# tests/bad/cmds/ must be named by some case.
set -u
MGSIM=$1 MGPROBE=$2
dir=tests/bad/cmds
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for f in "$dir"/*; do
    n=$(basename "$f")
    [ "$n" = CASES ] && continue
    grep -qF -- "$f" "$dir/CASES" || { echo "bad-cmds: $n: named by no case"; fail=$((fail+1)); }
done
while IFS='	' read -r name prog args want; do
    case "$name" in ''|'#'*) continue ;; esac
    case "$prog" in mgsim) bin=$MGSIM ;; mgprobe) bin=$MGPROBE ;; *) bin=$prog ;; esac
    # shellcheck disable=SC2086
    ${MG_WRAP:-} "$bin" $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
    why=""
    [ $rc -eq 2 ] || why="exit status $rc, expected 2"
    [ -s "$tmp/out" ] && why="${why:+$why; }printed on stdout"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || why="${why:+$why; }not one line on stderr"
    grep -qF -- "$want" "$tmp/err" || why="${why:+$why; }message lacks: $want"
    if [ -n "$why" ]; then
        echo "bad-cmds: $name: FAIL: $why"; sed 's/^/    /' "$tmp/err" | head -5
        fail=$((fail+1))
    else
        pass=$((pass+1))
    fi
done < "$dir/CASES"
echo "bad-cmds: $pass passed, $fail failed"
[ $fail -eq 0 ]
