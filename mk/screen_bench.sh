#!/bin/sh
# mk/screen_bench.sh MGSIM RESULTS COMMIT MACHINE SPACE... - the two-stage
# sweep (`mgsim sweep --screen analytic:K`) against the exhaustive one on
# each SPACE (a name under configs/spaces/), adreno640, romou's rules,
# --pruned-only, -j2: the screen's regret per shape (screened best /
# exhaustive best - 1, the worst shape), the candidates simulated (of the
# space and of the kept ones) and the speed-up in wall time; a row per
# space in RESULTS/screen.csv.  The aims are printed, not asserted.
# MG_SCREEN_K sets K (default 50).
set -eu
MGSIM=$1 RESULTS=$2 COMMIT=$3 MACHINE=$4
shift 4
K=${MG_SCREEN_K:-50}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CSV="$RESULTS/screen.csv"
[ -f "$CSV" ] || echo "date,commit,machine,space,k,size,kept,simulated,simulated_pct,worst_regret_pct,exhaustive_s,screened_s,speedup" > "$CSV"
now() { date +%s.%N; }
for sp in "$@"; do
    A="--config configs/devices/adreno640.json --space configs/spaces/$sp.json --rules configs/rules/romou.json --pruned-only -j 2 -q --json"
    t0=$(now); nice "$MGSIM" sweep $A > "$T/ex.json"; t1=$(now)
    nice "$MGSIM" sweep $A --screen "analytic:$K" > "$T/sc.json"; t2=$(now)
    python3 - "$T/ex.json" "$T/sc.json" "$t0" "$t1" "$t2" "$sp" "$K" "$COMMIT" "$MACHINE" "$CSV" <<'PY'
import json, sys, datetime
ex, sc = (json.load(open(p)) for p in sys.argv[1:3])
t0, t1, t2 = (float(x) for x in sys.argv[3:6])
sp, k, commit, machine, csv = sys.argv[6:11]
def bests(j):
    if j.get("shapes"):
        return {g["shape"]: g["best"]["seconds"] for g in j["shapes"] if g["best"]}
    return {"": j["best"]["seconds"]} if j["best"] else {}
be, bs = bests(ex), bests(sc)
regrets = [bs[s] / be[s] - 1 for s in be if s in bs]
worst = 100 * max(regrets) if regrets else float("nan")
missing = [s for s in be if s not in bs]
sim = sc["simulated"]
pct = 100.0 * sim / sc["size"]
tex, tsc = t1 - t0, t2 - t1
print(f"screen: {sp}: analytic:{k} simulated {sim} of {sc['size']} candidates ({pct:.2f}%; "
      f"{ex['simulated']} kept), worst regret over {len(be)} shape(s) {worst:.2f}%"
      f"{' (shapes with no screened best: ' + str(len(missing)) + ')' if missing else ''}, "
      f"exhaustive {tex:.1f} s, screened {tsc:.1f} s, speed-up {tex / tsc:.1f}x")
print(f"screen: {sp}: aim regret <= 1%: {'met' if worst <= 1 and not missing else 'NOT met'}; "
      f"aim <= 2% simulated: {'met' if pct <= 2 else 'NOT met'}")
date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
with open(csv, "a") as f:
    f.write(f'{date},{commit},"{machine}",{sp},{k},{sc["size"]},{ex["simulated"]},{sim},'
            f'{pct:.3f},{worst:.3f},{tex:.2f},{tsc:.2f},{tex / tsc:.2f}\n')
PY
done
