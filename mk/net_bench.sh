#!/bin/sh
# mk/net_bench.sh MGSIM RESULTS COMMIT MACHINE - `mgsim net` on MobileNet-V2
# on adreno640 (README.md "Networks"): the default search (every candidate
# the rules keep) and --tune (the analytical screen), each with a cold
# cache (a fresh folder) and then warm (the same folder again), on
# MG_NET_JOBS threads (default 2).  Prints the wall times against the aims
# (cold under 5 minutes, warm under 1 second; --tune under 60 s) and, layer
# by layer, how far --tune's kernel is from the default search's (the aim:
# within 1%) on a sample of layers (MG_NET_SAMPLE: 28x28, 14x14 and 7x7
# blocks, the last conv, the pooling and the classifier), searched
# exhaustively with --only.  A row per run in RESULTS/net.csv.  Nothing is
# asserted.  MG_NET_MODES (default "tune sample exhaustive") picks the
# runs; "exhaustive" (the whole network, every kept candidate) takes the
# longest.  Needs
# /usr/bin/time (the CPU seconds: on a loaded machine the wall time says
# little) and python3.
set -eu
MGSIM=$1 RESULTS=$2 COMMIT=$3 MACHINE=$4
NET=configs/networks/mobilenet_v2.json
CFG=configs/devices/adreno640.json
J=${MG_NET_JOBS:-2}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
SAMPLE=${MG_NET_SAMPLE:-b4_expand,b4_dw,b4_project,b8_expand,b8_dw,b8_project,b14_expand,b14_dw,b14_project,conv_last,avgpool,logits}
CSV=$RESULTS/net.csv
[ -f "$CSV" ] || echo "date,commit,machine,network,config,search,cache,threads,seconds,cpu_seconds,latency_ms,kernels,searched,candidates_simulated" > "$CSV"
# one MODE cold|warm ARGS...: time one run; its report is $D/MODE-cold|warm.json,
# its cache $D/cache-MODE
one() {
    mode=$1 cache=$2; shift 2
    name=$mode-$cache
    t0=$(date +%s.%N)
    /usr/bin/time -f '%U %S' -o "$D/$name.cpu" "$MGSIM" net --config $CFG $NET \
        --cache "$D/cache-$mode" -j "$J" -v --json -o "$D/$name.json" "$@" 2>"$D/$name.err"
    t1=$(date +%s.%N)
    s=$(echo "$t0 $t1" | awk '{printf "%.3f", $2 - $1}')
    cpu=$(awk '{printf "%.2f", $1 + $2}' "$D/$name.cpu")
    v=$(sed -n 's/.*kernels, \([0-9]*\) from the cache, \([0-9]*\) searched (\([0-9]*\) candidates.*/\2 \3/p' "$D/$name.err")
    lat=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('%.3f %d' % (r['latency_s'] * 1e3, r['kernels']))" "$D/$name.json")
    echo "net: mobilenet_v2 on adreno640, $mode, $cache cache, -j$J: $s s wall, $cpu s CPU (latency ${lat% *} ms, ${lat#* } kernels, ${v% *} searched, ${v#* } candidates simulated)"
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ),$COMMIT,\"$MACHINE\",mobilenet_v2,adreno640,$mode,$cache,$J,$s,$cpu,${lat% *},${lat#* },${v% *},${v#* }" >> "$CSV"
}
for m in ${MG_NET_MODES:-tune sample exhaustive}; do
    case $m in
        tune) args="--tune" ;;
        sample) args="--only $SAMPLE" ;;
        exhaustive) args="" ;;
        *) echo "net bench: unknown mode $m"; exit 2 ;;
    esac
    # shellcheck disable=SC2086
    one "$m" cold $args
    # shellcheck disable=SC2086
    one "$m" warm $args
done
# the regret of --tune against the default search, per distinct layer
# both simulated (the sample's, or the whole network's)
for e in exhaustive sample; do
    [ -f "$D/tune-cold.json" ] && [ -f "$D/$e-cold.json" ] || continue
    python3 - "$D/tune-cold.json" "$D/$e-cold.json" "$e" <<'PY'
import json, sys
t, e = (json.load(open(p)) for p in sys.argv[1:3])
worst, n, over, seen, rows = -1.0, 0, 0, set(), []
for a, b in zip(t["layers"], e["layers"]):
    if not (a["simulated"] and b["simulated"]) or b["schedule"] in seen:
        continue
    seen.add(b["schedule"])
    r = a["kernel_seconds"] / b["kernel_seconds"] - 1
    n += 1
    over += r > 0.01
    worst = max(worst, r)
    rows.append("%s %+.2f%%" % (a["name"], 100 * r))
print("net: --tune against the default search (%s): %d distinct layers, %d more than 1%% "
      "slower, worst %+.2f%%" % (sys.argv[3], n, over, 100 * worst))
print("net:   " + ", ".join(rows))
PY
done
