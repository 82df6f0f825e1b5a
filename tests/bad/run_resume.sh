#!/bin/sh
# tests/bad/run_resume.sh MGSIM - a sweep resumes only a results file that
# is a prefix of its own: each refusal below exits 2 with its one-line
# message and leaves the file as it was (another model revision's header, a
# record removed from the middle, a kept flag flipped consistently or not,
# a file another sweep holds locked); --restart overwrites; an interrupt in
# --cutoff's first phase counts the records really on file.  Then, at
# random points (delays drawn from MG_SEED, default 1, as fractions of an
# uninterrupted run's time: the same delays each run, the point they hit
# as fast as the machine), a sweep, a whatif (--results DIR) and a
# validate are stopped by SIGINT, SIGTERM and SIGKILL and run again to
# the end: their files must equal the uninterrupted run's byte for byte,
# and after SIGINT/SIGTERM no temporary (*.tmp.*) may stay.  sweep and
# whatif resume from their results; validate has no results to resume
# from, so it simulates everything again.
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
# The count must be of the records really on file, whatever phase the
# signal hit: a slow build (ASan under load) may not have finished a kept
# candidate at 1.5 s, a fast machine may be past the first phase already.
held=$(sed -n 's/.*holds \([0-9][0-9]*\) records.*/\1/p' "$tmp/err" | head -n 1)
if [ $rc -eq 130 ] && [ -n "$held" ] && [ "$held" -eq $((lines - 1)) ] &&
   { [ "$held" -gt 0 ] || grep -q "holds 0 records (the [1-9][0-9]* kept candidates simulated first were not written yet" "$tmp/err" ||
     grep -q "holds 0 records; rerun the same command to resume" "$tmp/err"; }; then
    pass=$((pass+1))
elif [ $rc -eq 0 ]; then
    # finished before the signal came: nothing to check about the count
    pass=$((pass+1))
else
    bad "cutoff interrupt: exit $rc, $lines lines, $(cat "$tmp/err")"
fi

# ---- interrupted at random points, then resumed ------------------------------
seed=${MG_SEED:-1}
now() { date +%s.%N; }
# delays N SECONDS: N delays, uniform in [0, SECONDS), from the seed
delays() { awk -v n="$1" -v t="$2" -v s="$seed" 'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.3f\n", rand() * t }'; }
SW="sweep --config configs/devices/adreno640.json --space tests/golden/data/space-sweep-bound.json --rules configs/rules/romou.json -j 1 --sample off --no-progress"
WI="whatif --config configs/devices/adreno640.json --space tests/golden/data/space-sweep-bound.json --rules configs/rules/romou.json -j 1 --no-progress --vary tex_l1.size=1KiB,4KiB"
VA="validate --config configs/devices/nvidia-h100.json --timings tests/golden/data/timings-h100-small.json"
# args_of WHICH DIR: the arguments of WHICH (sweep, whatif, validate)
# writing into DIR
args_of() {
    case $1 in
    sweep)    echo "$SW -o $2/r.jsonl" ;;
    whatif)   echo "$WI --results $2/res -o $2/report.txt" ;;
    validate) echo "$VA -o $2/report.txt" ;;
    esac
}
# run_cmd WHICH DIR [&]: run it, stdout into DIR/stdout (started with the
# default INT and TERM actions: a background job ignores SIGINT otherwise)
run_cmd() {
    # shellcheck disable=SC2046
    env --default-signal=INT,TERM "$MGSIM" $(args_of "$1" "$2") >"$2/stdout" 2>/dev/null
}
stopped=0
for which in sweep whatif validate; do
    mkdir -p "$tmp/ref-$which"
    t0=$(now)
    run_cmd $which "$tmp/ref-$which" || { bad "$which: the uninterrupted run failed"; continue; }
    took=$(echo "$t0 $(now)" | awk '{ printf "%.3f", $2 - $1 }')
    i=0
    for d in $(delays 3 "$took"); do
        sig=$(echo "INT TERM KILL" | cut -d' ' -f$((i + 1)))
        i=$((i + 1))
        dir="$tmp/$which-$sig"
        mkdir -p "$dir"
        # shellcheck disable=SC2046
        env --default-signal=INT,TERM "$MGSIM" $(args_of $which "$dir") >"$dir/stdout" 2>/dev/null &
        pid=$!                       # env execs mgsim: the signal goes to it
        sleep "$d"
        kill -"$sig" "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        [ $? -ne 0 ] && stopped=$((stopped + 1))
        left=""
        [ "$sig" = KILL ] || left=$(find "$dir" -name '*.tmp.*' | sed "s#$dir/##")
        # the same command again, to the end
        run_cmd $which "$dir"
        rc=$?
        diffs=$(cd "$tmp/ref-$which" && find . -type f | sort | while read -r f; do
                    cmp -s "$f" "$dir/$f" || printf '%s ' "$f"; done)
        if [ $rc -eq 0 ] && [ -z "$diffs" ] && [ -z "$left" ]; then pass=$((pass+1))
        else bad "$which SIG$sig after ${d}s of ${took}s: rerun exit $rc, differs: '$diffs', left '$left'"; fi
    done
done
# a test that cannot fail is none: most of the runs must have been stopped
echo "resume: $stopped of 9 runs stopped before their end (seed $seed)"
[ $stopped -ge 3 ] || bad "only $stopped of 9 runs were stopped before their end"

echo "resume: $pass passed, $fail failed"
[ $fail -eq 0 ]
