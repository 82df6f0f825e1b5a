#!/bin/sh
# tests/golden/run.sh [--update] MGSIM MGPROBE
#
# Each tests/golden/NAME.cmd holds one shell command line using $MGSIM and
# $MGPROBE.  Its stdout and stderr (merged), followed by "[exit N]", must
# equal tests/golden/NAME.out after the version string is normalized to
# VERSION.  --update rewrites the .out files instead (review the diff!).
set -u
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
MGSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MGPROBE=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
# MG_WRAP (e.g. a valgrind command line) prefixes every run: `make memcheck-all`.
MGSIM_BIN=$MGSIM MGPROBE_BIN=$MGPROBE
MGSIM="${MG_WRAP:-} $MGSIM" MGPROBE="${MG_WRAP:-} $MGPROBE"
export MGSIM MGPROBE
dir=tests/golden
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
normalize() {
    sed -E -e 's/(mgsim|mgprobe) [0-9]+\.[0-9]+\.[0-9]+/\1 VERSION/g' \
           -e "s#$MGSIM_BIN#mgsim#g; s#$MGPROBE_BIN#mgprobe#g"
}
for cmd in "$dir"/*.cmd; do
    name=$(basename "$cmd" .cmd)
    { sh -c "$(cat "$cmd")" 2>&1; echo "[exit $?]"; } | normalize > "$tmp/$name.out"
    if [ $update -eq 1 ]; then
        cp "$tmp/$name.out" "$dir/$name.out"
        pass=$((pass+1))
    elif [ ! -f "$dir/$name.out" ]; then
        echo "golden: $name: no $dir/$name.out (run make golden-update)"; fail=$((fail+1))
    elif cmp -s "$tmp/$name.out" "$dir/$name.out"; then
        pass=$((pass+1))
    else
        echo "golden: $name: FAIL: output differs:"
        diff -u "$dir/$name.out" "$tmp/$name.out" | head -30 | sed 's/^/    /'
        fail=$((fail+1))
    fi
done
echo "golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
