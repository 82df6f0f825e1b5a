#!/bin/sh
# mk/run.sh MGSIM MGPROBE - the main job on the embedded default (PoCL and
# the shipped configs): validate every shipped device config,
# print their headline figures, list the OpenCL devices, check romou's
# conv1x1 kernel on PoCL (results and access trace), and simulate it on an
# Adreno 640 (and its 2x4-tile variant on a Mali-G76); then prune romou's conv1x1 space with romou's
# rules and sweep a shipped space (the candidates romou's rules keep of
# conv1x1 [14,14,128,128], the same template) on the Adreno 640 on every
# core, into a results file that a rerun resumes; a what-if of its texture
# L1 size; the model's register and pointer-chase curves; and the plots of
# all of it in build/run/ (see README.md, "The main job").
set -eu
MGSIM=$1 MGPROBE=$2
CONV="conv2d H=28 W=28 Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 layout=image storage=fp16"
echo "== Shipped device configs (mgsim config check --strict configs/devices/*.json)"
"$MGSIM" config check --strict configs/devices/*.json
echo
echo "== Headline figures (mgsim config summary configs/devices/*.json)"
"$MGSIM" config summary configs/devices/*.json
echo
echo "== OpenCL devices reachable by the probe (mgprobe devices)"
"$MGPROBE" devices
echo
echo "== romou's conv1x1, 4x4 coarsening, fp16 images: checked on PoCL (mgprobe verify $CONV)"
"$MGPROBE" verify $CONV
echo
echo "== The same kernel simulated on adreno640 (mgsim run --config configs/devices/adreno640.json $CONV)"
"$MGSIM" run --config configs/devices/adreno640.json $CONV
echo
# The 4x4 tile's estimate (65 registers per item) is over the Mali-G76's
# 64 (CL_OUT_OF_RESOURCES there): its 2x4 variant.
CONV_MALI=$(echo "$CONV" | sed 's/tile=4x4/tile=2x4/')
echo "== Its 2x4-tile variant on mali-g76-mp5 (65 registers per item exceed its 64; mgsim run --config configs/devices/mali-g76-mp5.json $CONV_MALI)"
"$MGSIM" run --config configs/devices/mali-g76-mp5.json $CONV_MALI
echo
echo "== romou's pruning rules on romou's conv1x1 space, adreno640 (mgsim prune --summary)"
"$MGSIM" prune --config configs/devices/adreno640.json \
    --space configs/spaces/conv1x1-28x28x256x256.json --rules configs/rules/romou.json --summary
echo
SWEEP="--config configs/devices/adreno640.json --space configs/spaces/conv1x1-14x14x128x128.json --rules configs/rules/romou.json --pruned-only"
mkdir -p build/run
echo "== Sweep: the conv1x1 [14,14,128,128] candidates romou's rules keep, simulated on adreno640"
echo "   (mgsim sweep $SWEEP -j $(nproc) -o build/run/conv1x1-14-adreno640.jsonl)"
OUTF=build/run/conv1x1-14-adreno640.jsonl
rc=0
"$MGSIM" sweep $SWEEP -j "$(nproc)" -o $OUTF || rc=$?
if [ $rc -eq 2 ] && [ -f $OUTF ]; then
    # a results file left by an earlier mgsim whose config, space or rules
    # differ (the sweep names what changed above): start it again
    echo "   (the results file is another sweep's: starting again with --restart)"
    rc=0
    "$MGSIM" sweep $SWEEP -j "$(nproc)" -o $OUTF --restart || rc=$?
fi
[ $rc -eq 0 ] || exit $rc
echo
A=configs/devices/adreno640.json
echo "== What-if: adreno640's texture L1 at 512 B, 1 KiB (itself) and 2 KiB, same space and rules"
echo "   (mgsim whatif $SWEEP --vary tex_l1.size=512B,1KiB,2KiB --json -o build/run/whatif-tex-l1.json)"
"$MGSIM" whatif $SWEEP -j "$(nproc)" --vary tex_l1.size=512B,1KiB,2KiB --json \
    -o build/run/whatif-tex-l1.json
echo "   build/run/whatif-tex-l1.json (drawn below as whatif.png)"
echo
echo "== The model's own register and pointer-chase curves (P1, P2: mgsim vprobe)"
"$MGSIM" vprobe --config $A --aspects regs,cache_buffer,cache_image -o build/run/adreno640-vprofile.json \
    > /dev/null
echo "   build/run/adreno640-vprofile.json"
echo
echo "== Plots (mgsim plot, gnuplot), in build/run/"
"$MGSIM" plot sweep $OUTF -o build/run/sweep.png
"$MGSIM" plot roofline --config $A $OUTF -o build/run/roofline.png
"$MGSIM" plot whatif build/run/whatif-tex-l1.json -o build/run/whatif.png
"$MGSIM" plot regs build/run/adreno640-vprofile.json -o build/run/regs.png
"$MGSIM" plot chase build/run/adreno640-vprofile.json -o build/run/chase.png
