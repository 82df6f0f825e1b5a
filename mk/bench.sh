#!/bin/sh
# mk/bench.sh BENCHDIR - run the benchmarks and print their figures, with the
# commit and the machine.  Nothing is asserted (see README: speed is
# measured here, never in tests).
set -eu
B=$1
# The commit (+dirty when the tree has changes) and the machine, for the
# printed header and the rows appended under bench/results/.
# MG_BENCH_COMMIT names the commit where the tree is a copy without .git
# (a lent machine running binaries built elsewhere).
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || COMMIT="$COMMIT+dirty"
COMMIT=${MG_BENCH_COMMIT:-$COMMIT}
MACHINE="$(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
RESULTS=bench/results
mkdir -p "$RESULTS"
echo "mgsim bench: commit $COMMIT, $MACHINE"
"$B/bench_config" configs/devices/adreno640.json 1
"$B/bench_gen" conv2d H=56 W=56 Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 layout=image
# full simulation, single-threaded: rates per core (a row per run in sim.csv)
"$B/bench_sim" --csv "$RESULTS/sim.csv" --commit "$COMMIT" --machine "$MACHINE" \
    configs/devices/adreno640.json conv2d H=56 W=56 Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 layout=image storage=fp16
# sampled simulation (--sample auto): cycles error against full simulation
# and speed-up over 57 kernels of several operators and configs
"$B/bench_sample"
# sweep throughput (mgsim sweep): the first 24 kept candidates of romou's
# conv1x1 space on adreno640 (--pruned-only --limit 24, sampling auto) at
# -j1, -j2 and -j<cores>; the results files must be identical (a row per
# run in sweep.csv)
MGSIM=${MGSIM:-bin/mgsim}
SW="--config configs/devices/adreno640.json --space configs/spaces/conv1x1-28x28x256x256.json --rules configs/rules/romou.json --pruned-only --limit 24 --no-progress --time"
SWD=$(mktemp -d)
[ -f "$RESULTS/sweep.csv" ] || echo "commit,machine,space,candidates,threads,seconds,candidates_per_s" > "$RESULTS/sweep.csv"
for j in $(printf '1\n2\n%s\n' "$(nproc)" | sort -nu); do
    "$MGSIM" sweep $SW -j "$j" -o "$SWD/j$j.jsonl" 2>"$SWD/t$j" >/dev/null
    s=$(sed -n 's/.* in \([0-9.]*\) s (\([0-9.]*\) candidates\/s.*/\1 \2/p' "$SWD/t$j")
    echo "sweep: conv1x1 kept subset, 24 candidates, -j$j: ${s#* } candidates/s (${s% *} s)"
    echo "$COMMIT,\"$MACHINE\",conv1x1-28x28x256x256 pruned-only first 24,24,$j,${s% *},${s#* }" >> "$RESULTS/sweep.csv"
    cmp -s "$SWD/j1.jsonl" "$SWD/j$j.jsonl" || echo "sweep: -j$j results differ from -j1 (a bug)"
done
rm -rf "$SWD"
# a whole conv1x1 space (conv1x1-14x14x128x128, 25424 candidates) with
# --cutoff 1.5 on every core: the kept candidates in full, the pruned ones
# stopped at 1.5 x the best kept (the aim: 100,000 candidates in
# 5 minutes on 2 cores, i.e. 333 candidates/s)
SWD=$(mktemp -d)
j=$(nproc)
"$MGSIM" sweep --config configs/devices/adreno640.json --space configs/spaces/conv1x1-14x14x128x128.json \
    --rules configs/rules/romou.json --cutoff 1.5 --no-progress --time -j "$j" -o "$SWD/c.jsonl" \
    2>"$SWD/t" >/dev/null
s=$(sed -n 's/.* in \([0-9.]*\) s (\([0-9.]*\) candidates\/s.*/\1 \2/p' "$SWD/t")
echo "sweep: conv1x1-14 whole space, --cutoff 1.5, 25424 candidates, -j$j: ${s#* } candidates/s (${s% *} s; 100,000 would take $(echo "${s#* }" | awk '{printf "%.0f", 100000 / $1}') s)"
echo "$COMMIT,\"$MACHINE\",conv1x1-14x14x128x128 whole --cutoff 1.5,25424,$j,${s% *},${s#* }" >> "$RESULTS/sweep.csv"
rm -rf "$SWD"
# the two-stage sweep (--screen analytic:K) against the exhaustive sweep of
# romou's kept candidates: regret, candidates simulated, speed-up (a row
# per space in screen.csv); MG_SCREEN_SPACES names the spaces (default the
# ones whose exhaustive sweep takes under a minute here)
sh mk/screen_bench.sh "$MGSIM" "$RESULTS" "$COMMIT" "$MACHINE" \
    ${MG_SCREEN_SPACES:-conv1x1-14x14x128x128 softmax-128xN layernorm-128xN dwconv3x3-56x56x128}
sh mk/bench_mpi.sh "$COMMIT" "$MACHINE"
# a whole network: MobileNet-V2 on adreno640 through `mgsim net`, the
# default search and --tune, cold and warm cache (a row per run in net.csv)
sh mk/net_bench.sh "$MGSIM" "$RESULTS" "$COMMIT" "$MACHINE"
