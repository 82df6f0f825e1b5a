#!/bin/sh
# mk/sameout.sh MGSIM OUTDIR - write a wide set of mgsim outputs into OUTDIR
# (run reports of the 57 benchmark kernels full and sampled, JSON and text;
# 16 schedules on every shipped device config with each replacement policy;
# trace files; small sweeps, a cutoff sweep, prune, whatif, validate, vprobe,
# calibrate).  A change meant to keep every output the same is checked with
#   sh mk/sameout.sh OLD/mgsim /tmp/a; sh mk/sameout.sh bin/mgsim /tmp/b
#   diff -r /tmp/a /tmp/b
# Times printed by --time are not written; everything else must be equal.
set -u
M=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
O=$2
R=$(pwd)
J=${J:-2}
rm -rf "$O"
mkdir -p "$O/run" "$O/cfg" "$O/trace" "$O/sweep" "$O/misc"
# the 57 kernels of bench/bench_sample.c
sed -n 's/^ *{"\([a-z0-9-]*\)", "\([^"]*\)".*/\1|\2/p' bench/bench_sample.c > "$O/kernels.txt"
n=0
while IFS='|' read -r cfg sched; do
    n=$((n+1))
    C=configs/devices/$cfg.json
    # shellcheck disable=SC2086
    "$M" run --config "$C" --json $sched > "$O/run/$n.json" 2>&1 &
    # shellcheck disable=SC2086
    "$M" run --config "$C" $sched > "$O/run/$n.txt" 2>&1 &
    # shellcheck disable=SC2086
    "$M" run --config "$C" --sample auto --json $sched > "$O/run/$n.smp.json" 2>&1
    wait
done < "$O/kernels.txt"
# every config x policy on schedules of every operator
mkdir -p "$O/cfgs"
for cfg in configs/devices/*.json; do
    c=$(basename "$cfg" .json)
    for pol in lru fifo plru random; do
        v="$O/cfgs/$c.$pol.json"
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in ("tex_l1","l2"):
    if k in d: d[k]["replacement"]=sys.argv[2]
d["device"]["name"]+="-"+sys.argv[2]
json.dump(d,open(sys.argv[3],"w"),indent=1)' "$cfg" "$pol" "$v"
        i=0
        for sched in \
            "conv2d H=28 W=28 Cin=64 Cout=64 K=1 tile=1x4 wg=8,4" \
            "conv2d H=28 W=28 Cin=32 Cout=32 K=3 pad=1 tile=2x4 wg=4,4 layout=buffer" \
            "conv2d H=56 W=56 Cin=32 Cout=32 K=3 pad=1 depthwise=1 tile=1x4 wg=8,8" \
            "matmul M=256 N=256 K=128 tile=2x4 wg=8,4" \
            "matmul M=1 N=4096 K=256 tile=1x4 wg=4,1,16 split=16 layout=buffer" \
            "softmax M=1024 N=256 split=16 wg=4,1,16" \
            "layernorm M=1024 N=256 split=8 wg=8,1,8 layout=buffer" \
            "eltwise H=56 W=56 C=32 wg=64" \
            "pchase" "bandwidth" "flops" "ticket" "regpressure" "warpsize" "rstride2d" \
            "conv2d H=30 W=30 Cin=16 Cout=32 K=3 stride=2 pad=0 tile=1x4 wg=4,4 storage=fp16 compute=fp16"; do
            i=$((i+1))
            # shellcheck disable=SC2086
            "$M" run --config "$v" --json $sched \
                > "$O/cfg/$c.$pol.$i.json" 2>&1
        done
    done
done
# trace files and their stats/dump
"$M" gen conv2d H=28 W=28 Cin=32 Cout=32 K=3 pad=1 tile=2x4 wg=4,4 -o "$O/trace/k" > "$O/trace/gen.txt" 2>&1
"$M" gen matmul M=128 N=128 K=64 tile=2x4 wg=8,4 layout=buffer -o "$O/trace/m" > "$O/trace/genm.txt" 2>&1
for f in k/trace.mgt m/trace.mgt; do   # relative names: the reports print them
    (cd "$O/trace" && "$M" trace stats "$f" > "$f.stats" 2>&1
     "$M" trace dump --limit 200 "$f" > "$f.dump" 2>&1
     "$M" run --config "$R/configs/devices/adreno640.json" --json --trace "$f" > "$f.run.json" 2>&1)
done
# search
A=configs/devices/adreno640.json
"$M" space count configs/spaces/matmul-512.json > "$O/sweep/space.txt" 2>&1
"$M" sweep --config $A --space configs/spaces/conv1x1-14x14x128x128.json --rules configs/rules/romou.json \
    --pruned-only --limit 60 -j "$J" --no-progress -o "$O/sweep/c14.jsonl" > "$O/sweep/c14.txt" 2>&1
"$M" sweep --config configs/devices/mali-g76-mp5.json --space tests/golden/data/space-mm-small.json \
    --rules configs/rules/romou.json --cutoff 1.5 -j "$J" --no-progress -o "$O/sweep/mm.jsonl" > "$O/sweep/mm.txt" 2>&1
"$M" sweep --config $A --space tests/plots/data/softmax-small-space.json -j "$J" --no-progress \
    -o "$O/sweep/sm.jsonl" --json > "$O/sweep/sm.json" 2>&1
"$M" prune --config configs/devices/mali-g76-mp5.json --space tests/golden/data/space-mm-small.json \
    --rules configs/rules/romou.json --summary > "$O/sweep/prune.txt" 2>&1
"$M" whatif --config $A --space tests/plots/data/softmax-small-space.json --rules configs/rules/romou.json \
    --pruned-only -j "$J" --vary registers.pool_regs_per_sp=x0.5,x1,x2 --vary tex_l1.size=512B,1KiB,2KiB,4KiB \
    --vary l2.replacement=lru,fifo,plru,random --json -o "$O/sweep/whatif.json" > "$O/sweep/whatif.txt" 2>&1
# analysis
"$M" validate --config configs/devices/nvidia-h100.json --timings configs/measured/h100/timings.json \
    --json -o "$O/misc/validate.json" > "$O/misc/validate.txt" 2>&1
"$M" validate --config configs/measured/pocl/calibrated.json --timings configs/measured/pocl/timings.json \
    > "$O/misc/validate-pocl.txt" 2>&1
"$M" vprobe -q --config $A -o "$O/misc/vprofile.json" > "$O/misc/vprobe.txt" 2>&1
"$M" calibrate --profile configs/measured/h100/profile.json --base configs/devices/nvidia-h100.json \
    -o "$O/misc/cal.json" > "$O/misc/cal.txt" 2>&1
for cfg in configs/devices/*.json; do
    "$M" config show "$cfg" > "$O/misc/show-$(basename "$cfg")" 2>&1
done
find "$O" -type f | wc -l
