#!/bin/sh
# tests/networks/gen_check.sh MGSIM - the shipped network descriptions are
# what configs/networks/gen.py writes (byte for byte), and each loads with
# `mgsim net` and lies within its published figures.
set -u
MGSIM=$1
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
if command -v python3 >/dev/null 2>&1; then
    if python3 configs/networks/gen.py "$tmp" >/dev/null; then
        for f in "$tmp"/*.json; do
            n=$(basename "$f")
            if cmp -s "$f" "configs/networks/$n"; then pass=$((pass+1))
            else echo "networks: $n: differs from what gen.py writes"; fail=$((fail+1)); fi
        done
    else
        echo "networks: gen.py failed"; fail=$((fail+1))
    fi
else
    echo "networks: python3 not found: gen.py not compared"
fi
for f in configs/networks/*.json; do
    if "$MGSIM" net "$f" --json >"$tmp/out.json" 2>"$tmp/err" &&
       grep -q '"within": true' "$tmp/out.json"; then pass=$((pass+1))
    else echo "networks: $f: $(head -1 "$tmp/err")"; fail=$((fail+1)); fi
done
echo "networks: $pass passed, $fail failed"
[ $fail -eq 0 ]
