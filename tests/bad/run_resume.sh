#!/bin/sh
# tests/bad/run_resume.sh MGSIM - a sweep resumes only a results file that
# is a prefix of its own: each refusal below exits 2 with its one-line
# message and leaves the file as it was (another model revision's header, a
# record removed from the middle, a kept flag flipped consistently or not,
# a file another sweep holds locked); --restart overwrites; an interrupt in
# --cutoff's first phase counts the records really on file.
set -u
MGSIM=$1
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
bad() { echo "resume: FAIL: $*"; fail=$((fail+1)); }
A="--config configs/devices/adreno640.json --space tests/golden/data/space-sweep-tiny.json --rules configs/rules/romou.json -j 2 --no-progress"
# shellcheck disable=SC2086
"$MGSIM" sweep $A -o "$tmp/a.jsonl" >/dev/null || { bad "the first sweep failed"; exit 1; }
grep -q '^{"schema":"mgsim-sweep/1","mgsim":"[^"]*","model":[0-9][0-9]*,' "$tmp/a.jsonl" ||
    bad "the header carries no model revision"

# refuse NAME FILE TEXT: resuming FILE exits 2 with one line holding TEXT,
# and FILE is unchanged
refuse() {
    cp "$2" "$tmp/before"
    # shellcheck disable=SC2086
    "$MGSIM" sweep $A -o "$2" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    why=""
    [ $rc -eq 2 ] || why="exit status $rc, expected 2"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || why="${why:+$why; }not one line on stderr"
    grep -qF -- "$3" "$tmp/err" || why="${why:+$why; }message lacks: $3"
    cmp -s "$2" "$tmp/before" || why="${why:+$why; }the file changed"
    if [ -n "$why" ]; then bad "$1: $why"; sed 's/^/    /' "$tmp/err" | head -3
    else pass=$((pass+1)); fi
}

sed 's/"model":[0-9]*,/"model":0,/' "$tmp/a.jsonl" | head -20 > "$tmp/old.jsonl"
refuse old-model "$tmp/old.jsonl" "another model revision wrote it (its results would differ): model is 0 in the file"
sed 's/"model":[0-9]*,//' "$tmp/a.jsonl" | head -20 > "$tmp/nomodel.jsonl"
refuse no-model "$tmp/nomodel.jsonl" "model is missing in the file"
sed 10d "$tmp/a.jsonl" > "$tmp/gap.jsonl"
refuse middle-record-removed "$tmp/gap.jsonl" "no record for candidate 8 before the one for candidate 9 (a record is missing"
n=$(grep -n '"kept":true' "$tmp/a.jsonl" | head -1 | cut -d: -f1)
sed "${n}s/\"kept\":true,\"fired\":\[\]/\"kept\":false,\"fired\":[\"l1\"]/" "$tmp/a.jsonl" > "$tmp/flip.jsonl"
refuse kept-flipped "$tmp/flip.jsonl" "says pruned, the rules say kept (the file was edited; use --restart)"
m=$(grep -n '"kept":false' "$tmp/a.jsonl" | head -1 | cut -d: -f1)
sed "${m}s/\"kept\":false,\"fired\":\[[^]]*\]/\"kept\":true,\"fired\":[]/" "$tmp/a.jsonl" > "$tmp/flip3.jsonl"
refuse pruned-flipped "$tmp/flip3.jsonl" "says kept, the rules say pruned"
sed "${n}s/\"kept\":true/\"kept\":false/" "$tmp/a.jsonl" > "$tmp/flip2.jsonl"
refuse kept-without-fired "$tmp/flip2.jsonl" "flip2.jsonl:${n}: not a sweep record (\$.kept: false, but no rule fired)"
cp "$tmp/a.jsonl" "$tmp/locked.jsonl"
flock "$tmp/locked.jsonl" sleep 3 &
lockpid=$!
sleep 0.5
refuse locked "$tmp/locked.jsonl" "locked by another sweep writing it"
kill "$lockpid" 2>/dev/null; wait "$lockpid" 2>/dev/null

# --restart overwrites an edited file with the complete sweep
# shellcheck disable=SC2086
"$MGSIM" sweep $A --restart -o "$tmp/gap.jsonl" >/dev/null 2>&1
if cmp -s "$tmp/gap.jsonl" "$tmp/a.jsonl"; then pass=$((pass+1)); else bad "--restart: not the complete sweep"; fi

# SIGINT in --cutoff's first phase: the count is of records on file
env --default-signal=INT "$MGSIM" sweep --config configs/devices/adreno640.json \
    --space configs/spaces/conv1x1-14x14x128x128.json --rules configs/rules/romou.json \
    --cutoff 1.5 -j 2 --no-progress -o "$tmp/c.jsonl" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid"
rc=$?
lines=$(wc -l <"$tmp/c.jsonl")
if [ $rc -eq 130 ] && [ "$lines" -eq 1 ] && grep -q "holds 0 records (the [0-9]* kept candidates simulated first were not written yet" "$tmp/err"; then
    pass=$((pass+1))
else
    bad "cutoff interrupt: exit $rc, $lines lines, $(cat "$tmp/err")"
fi

echo "resume: $pass passed, $fail failed"
[ $fail -eq 0 ]
