#!/bin/sh
# tests/dist/run.sh MGSIM - distributed sweeps (sim/search/shard.h,
# sim/mpi/sweep_mpi.h).  --shard I/N for N = 2, 3, 4 then --merge must give
# the one-process results file and summary byte for byte; --merge refuses
# a missing, duplicate, incomplete, edited or foreign shard (exit 2, one
# line, nothing written).  With mpirun and bin/mgsim-mpi (make MPI=1; the
# MPI part is skipped, saying why, without them): mpirun --oversubscribe
# -n 2, 3, 4 writes the same file and summary, resumes a cut file, refuses
# ranks with other inputs (exit 2), and a rank killed mid-sweep leaves a
# file of complete records that the next run completes to the same bytes.
set -u
MGSIM=$1
MPI_BIN=${MGSIM_MPI:-$(dirname "$MGSIM")/mgsim-mpi}
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
bad() { echo "dist: FAIL: $*"; fail=$((fail+1)); }
ok() { pass=$((pass+1)); }
A="--config configs/devices/adreno640.json --space tests/golden/data/space-sweep-tiny.json --rules configs/rules/romou.json -j 2 -q"
# shellcheck disable=SC2086
"$MGSIM" sweep $A -o "$tmp/full.jsonl" >"$tmp/full.txt" || { bad "the one-process sweep failed"; exit 1; }

# ---- --shard and --merge ---------------------------------------------------
for n in 2 3 4; do
    files=""
    i=$((n - 1))
    while [ $i -ge 0 ]; do                   # shards in reverse: merge takes any order
        # shellcheck disable=SC2086
        "$MGSIM" sweep $A --shard $i/$n -o "$tmp/s$i-$n.jsonl" >/dev/null || bad "shard $i/$n failed"
        files="$files $tmp/s$i-$n.jsonl"
        i=$((i - 1))
    done
    # shellcheck disable=SC2086
    "$MGSIM" sweep $A --merge -o "$tmp/m$n.jsonl" $files >"$tmp/m$n.txt" 2>/dev/null
    if cmp -s "$tmp/m$n.jsonl" "$tmp/full.jsonl" && cmp -s "$tmp/m$n.txt" "$tmp/full.txt"
    then ok; else bad "merge of $n shards differs from the one-process sweep"; fi
done
grep -q ',"shard":"1/3"}$' "$tmp/s1-3.jsonl" && ok || bad "a shard's header lacks \"shard\":\"1/3\""

# refuse NAME TEXT FILES...: --merge exits 2 with one line holding TEXT and
# writes nothing
refuse() {
    name=$1 text=$2; shift 2
    rm -f "$tmp/o.jsonl"
    # shellcheck disable=SC2086
    "$MGSIM" sweep $A --merge -o "$tmp/o.jsonl" "$@" >/dev/null 2>"$tmp/err"
    rc=$? why=""
    [ $rc -eq 2 ] || why="exit status $rc, expected 2"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || why="${why:+$why; }not one line on stderr"
    grep -qF -- "$text" "$tmp/err" || why="${why:+$why; }message lacks: $text"
    [ -z "$(ls "$tmp"/o.jsonl* 2>/dev/null)" ] || why="${why:+$why; }something was written"
    if [ -n "$why" ]; then bad "$name: $why"; sed 's/^/    /' "$tmp/err" | head -3; else ok; fi
}
refuse missing "shard 2/3 is missing" "$tmp/s0-3.jsonl" "$tmp/s1-3.jsonl"
refuse duplicate "are both shard 1/3" "$tmp/s0-3.jsonl" "$tmp/s1-3.jsonl" "$tmp/s1-3.jsonl"
head -3 "$tmp/s1-3.jsonl" >"$tmp/cut.jsonl"
refuse incomplete "ends before its record for candidate 18 (the shard is incomplete" \
    "$tmp/s0-3.jsonl" "$tmp/cut.jsonl" "$tmp/s2-3.jsonl"
refuse other-split "shard 1/2, but" "$tmp/s0-3.jsonl" "$tmp/s1-2.jsonl" "$tmp/s2-3.jsonl"
refuse not-a-shard "made without --shard?" "$tmp/full.jsonl"
sed 3d "$tmp/s0-2.jsonl" >"$tmp/gap.jsonl"
refuse record-removed "the record of candidate 2 where shard 0/2's next is candidate 1" \
    "$tmp/gap.jsonl" "$tmp/s1-2.jsonl"
{ cat "$tmp/s0-2.jsonl"; tail -1 "$tmp/s0-2.jsonl"; } >"$tmp/extra.jsonl"
refuse record-added "a record this sweep does not have" "$tmp/extra.jsonl" "$tmp/s1-2.jsonl"
sed 's/"sample":"auto"/"sample":"off"/' "$tmp/s1-2.jsonl" >"$tmp/foreign.jsonl"
refuse foreign 'sample is "off" in the file, "auto" in this sweep' "$tmp/s0-2.jsonl" \
    "$tmp/foreign.jsonl"
# an interrupted shard resumes like any results file, then merges
head -c 3000 "$tmp/s0-2.jsonl" >"$tmp/r0.jsonl"
# shellcheck disable=SC2086
"$MGSIM" sweep $A --shard 0/2 -o "$tmp/r0.jsonl" >/dev/null 2>&1
cmp -s "$tmp/r0.jsonl" "$tmp/s0-2.jsonl" && ok || bad "a cut shard did not resume to the same file"

# ---- MPI -------------------------------------------------------------------
if ! command -v mpirun >/dev/null 2>&1; then
    echo "dist: MPI tests skipped: no mpirun (apt-get install openmpi-bin libopenmpi-dev)"
elif [ ! -x "$MPI_BIN" ]; then
    echo "dist: MPI tests skipped: no $MPI_BIN (build it with make MPI=1)"
else
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    M="--config configs/devices/adreno640.json --space tests/golden/data/space-sweep-tiny.json --rules configs/rules/romou.json -j 1 -q"
    for n in 2 3 4; do
        # shellcheck disable=SC2086
        timeout 300 mpirun --oversubscribe -n $n "$MPI_BIN" sweep $M -o "$tmp/mpi$n.jsonl" \
            >"$tmp/mpi$n.txt" 2>"$tmp/err"
        rc=$?
        if [ $rc -eq 0 ] && cmp -s "$tmp/mpi$n.jsonl" "$tmp/full.jsonl" &&
           cmp -s "$tmp/mpi$n.txt" "$tmp/full.txt"; then ok
        else bad "mpirun -n $n: exit $rc, or its file or summary differs"; head -5 "$tmp/err"; fi
    done
    head -c 5000 "$tmp/full.jsonl" >"$tmp/res.jsonl"
    # shellcheck disable=SC2086
    timeout 300 mpirun --oversubscribe -n 3 "$MPI_BIN" sweep $M -o "$tmp/res.jsonl" >/dev/null 2>&1
    cmp -s "$tmp/res.jsonl" "$tmp/full.jsonl" && ok || bad "mpirun -n 3 did not resume a cut file to the same bytes"
    # shellcheck disable=SC2086
    timeout 300 mpirun --oversubscribe -n 1 "$MPI_BIN" sweep $M -o "$tmp/x.jsonl" : \
        -n 1 "$MPI_BIN" sweep $M --sample off -o "$tmp/x.jsonl" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "rank 1 has other inputs than rank 0" "$tmp/err" &&
       [ ! -s "$tmp/x.jsonl" ]; then ok
    else bad "ranks with other inputs: exit $rc, expected 2 and nothing written"; fi
    # a rank killed mid-sweep: the file holds complete records of the
    # one-process sweep (a prefix of it), and the next run completes it
    B="--config configs/devices/adreno640.json --space tests/golden/data/space-sweep-mpi.json --rules configs/rules/romou.json -j 1 -q"
    # shellcheck disable=SC2086
    "$MGSIM" sweep $B -o "$tmp/mid.jsonl" >/dev/null
    # shellcheck disable=SC2086
    mpirun --oversubscribe -n 3 "$MPI_BIN" sweep $B -o "$tmp/k.jsonl" >/dev/null 2>"$tmp/err" &
    mp=$!
    t=0
    while [ "$(cat "$tmp/k.jsonl" 2>/dev/null | wc -l)" -lt 10 ] && [ $t -lt 600 ]; do
        sleep 0.1; t=$((t + 1))
    done
    for p in $(pgrep -P $mp); do
        r=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p')
        [ "$r" = 1 ] && kill -9 "$p"
    done
    wait $mp
    rc=$?
    n=$(wc -c <"$tmp/k.jsonl")
    if [ $rc -ne 0 ] && [ "$(tail -c 1 "$tmp/k.jsonl" | od -An -c | tr -d ' ')" = '\n' ] &&
       cmp -s -n "$n" "$tmp/k.jsonl" "$tmp/mid.jsonl" && [ "$n" -lt "$(wc -c <"$tmp/mid.jsonl")" ]
    then ok
    else bad "rank 1 killed: exit $rc (expected non-zero), or the file is not a clean prefix"; fi
    # shellcheck disable=SC2086
    timeout 300 mpirun --oversubscribe -n 2 "$MPI_BIN" sweep $B -o "$tmp/k.jsonl" >/dev/null 2>&1
    cmp -s "$tmp/k.jsonl" "$tmp/mid.jsonl" && ok || bad "the run after the killed rank did not complete the file"
fi
echo "dist: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
