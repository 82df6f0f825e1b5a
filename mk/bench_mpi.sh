#!/bin/sh
# mk/bench_mpi.sh COMMIT MACHINE - the MPI sweep's scaling (make bench,
# when bin/mgsim-mpi and mpirun exist; else it says why it is skipped):
# romou's kept conv1x1-14 candidates on adreno640 (--pruned-only, 554
# candidates, -j 1 per rank) at 1 and 2 ranks; candidates/s per rank and
# the efficiency (per-rank rate at 2 ranks / rate at 1 rank), with the
# load average (the machine may be shared), a row per run in
# bench/results/mpi.csv.  The files must be identical.  Nothing asserted.
set -eu
COMMIT=$1 MACHINE=$2
MPI_BIN=${MGSIM_MPI:-bin/mgsim-mpi}
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPI_BIN" ]; then
    echo "mpi: skipped (needs mpirun and $MPI_BIN: make MPI=1)"
    exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
CSV=bench/results/mpi.csv
[ -f "$CSV" ] || echo "date,commit,machine,load1,space,candidates,ranks,seconds,candidates_per_s,per_rank,efficiency" >"$CSV"
S="--config configs/devices/adreno640.json --space configs/spaces/conv1x1-14x14x128x128.json --rules configs/rules/romou.json --pruned-only -q --time -j 1"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
base=""
for n in 1 2; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    # shellcheck disable=SC2086
    mpirun --oversubscribe -n $n "$MPI_BIN" sweep $S -o "$D/n$n.jsonl" >/dev/null 2>"$D/t$n"
    s=$(sed -n 's/.*simulated \([0-9]*\) candidates in \([0-9.]*\) s (\([0-9.]*\) candidates\/s.*/\1 \2 \3/p' "$D/t$n")
    set -- $s
    per=$(echo "$3 $n" | awk '{printf "%.2f", $1 / $2}')
    [ -n "$base" ] || base=$per
    eff=$(echo "$per $base" | awk '{printf "%.1f", 100 * $1 / $2}')
    echo "mpi: conv1x1-14 kept, $1 candidates, $n rank(s) x -j1: $3 candidates/s, $per per rank, efficiency $eff% ($2 s; load average $load)"
    echo "$(date -u +%Y-%m-%dT%H:%MZ),$COMMIT,\"$MACHINE\",$load,conv1x1-14x14x128x128 pruned-only,$1,$n,$2,$3,$per,$eff" >>"$CSV"
    cmp -s "$D/n1.jsonl" "$D/n$n.jsonl" || echo "mpi: $n ranks' results differ from 1 rank's (a bug)"
done
