#!/bin/sh
# mk/validate.sh [MGSIM] - the committed validation reports, made
# by `make validate-h100`.  Deterministic: the same binary, configs and
# timings write the same bytes (the PNGs are gnuplot's).
#
#   configs/measured/h100/calibrated.json   mgsim calibrate: the H100 probe
#       profile over the hand-written base configs/devices/nvidia-h100.json
#   configs/measured/h100/validate.{txt,json,png}   the 336-kernel suite
#       (timings.json) simulated on the calibrated config
#   configs/measured/h100/validate-diag.{txt,json}  the diagnostic suite
#       (diag-timings.json: launch floor, reduction length, load width,
#       work-group shape) on the same config
#   configs/measured/h100/validate-latency.{txt,json}  the latency suite
#       (latency-timings.json: M=1 matmul, one warp per SM, weights in the
#       L2) on the same config
#   configs/measured/h100/validate-lsu.{txt,json}  the lsu suite
#       (lsu-timings.json: mlp chase steps of 1-32 loads in flight, 1-16
#       warps per SM, L1, L2 and DRAM) on the same config
#   configs/measured/h100/validate-reuse.{txt,json}  the reuse suite
#       (reuse-timings.json: mlp steps whose loads share lines)
#   configs/measured/h100/validate-scatter.{txt,json}  the scatter suite
#       (scatter-timings.json: vload kernels whose loads touch 1-32 lines;
#       mk/gen_scatter_suite.sh)
#   configs/measured/h100/validate-knobs.{txt,json}  the knobs suite
#       (knobs-timings.json: five image-path layer kernels, one knob
#       changed at a time; mk/gen_knobs_suite.sh)
#   configs/measured/h100/validate-texq.{txt,json}  the texq suite
#       (texq-timings.json: texture reads of 1-64 distinct texels per warp,
#       along a row or down a column; mk/gen_texq_suite.sh)
#   configs/measured/h100/validate-texq-lone.{txt,json}  the same reads at
#       1, 2 and 4 warps per SM (texq-lone-timings.json)
#   configs/measured/h100/validate-tiles.{txt,json}  the layer suite's
#       4x4-tile conv2d kernels with 2x4 and 1x4 tiles at the same launch
#       (tiles-timings.json; mk/gen_tiles_suite.sh)
#   configs/measured/h100/validate-base.{txt,json}  the suite on the base
#       config itself, for comparison
#   configs/measured/h100/validate-layers.{txt,json,png}  the realistic
#       layer suite (layers-timings.json: configs/suites/h100-layers.json,
#       17 real-network layers x 20 variants) on the calibrated config,
#       with validate-layers-residuals.png (the residuals by knob);
#       validate-layers-base.{txt,json} the same on the base config, and
#       validate-layers-compare.txt the two side by side
#   configs/measured/pocl/calibrated.json, validate.{txt,json,png}  the
#       PoCL sanity row: its profile over configs/measured/pocl/base.json
#
# JOBS (default 2) threads simulate kernels at once; the output does not
# depend on it.
set -eu
MGSIM=${1:-bin/mgsim}
J=${JOBS:-2}
H=configs/measured/h100
P=configs/measured/pocl

step() { echo "validate: $*"; }

step "H100: calibrate $H/calibrated.json"
"$MGSIM" calibrate --profile $H/profile.json --base configs/devices/nvidia-h100.json \
    -o $H/calibrated.json > /dev/null
step "H100: the suite on the calibrated config"
"$MGSIM" validate --config $H/calibrated.json --timings $H/timings.json -j "$J" \
    --json-file $H/validate.json --plot $H/validate.png -o $H/validate.txt
step "H100: the diagnostic suite"
"$MGSIM" validate --config $H/calibrated.json --timings $H/diag-timings.json -j "$J" \
    --json-file $H/validate-diag.json -o $H/validate-diag.txt
step "H100: the latency suite (latency-timings.json: one warp per SM)"
"$MGSIM" validate --config $H/calibrated.json --timings $H/latency-timings.json -j "$J" \
    --json-file $H/validate-latency.json -o $H/validate-latency.txt
step "H100: the lsu suite (lsu-timings.json: loads in flight per warp)"
"$MGSIM" validate --config $H/calibrated.json --timings $H/lsu-timings.json -j "$J" \
    --json-file $H/validate-lsu.json -o $H/validate-lsu.txt
step "H100: the reuse suite (reuse-timings.json: loads sharing a line)"
"$MGSIM" validate --config $H/calibrated.json --timings $H/reuse-timings.json -j "$J" \
    --json-file $H/validate-reuse.json -o $H/validate-reuse.txt
step "H100: the knobs suite (knobs-timings.json: one knob at a time around image-path kernels)"
"$MGSIM" validate --config $H/calibrated.json --timings $H/knobs-timings.json -j "$J" \
    --json-file $H/validate-knobs.json -o $H/validate-knobs.txt
step "H100: the scatter suite (scatter-timings.json: buffer loads over 1-32 lines at 1-16 warps per SM)"
"$MGSIM" validate --config $H/calibrated.json --timings $H/scatter-timings.json -j "$J" \
    --json-file $H/validate-scatter.json -o $H/validate-scatter.txt
step "H100: the texq suite (texq-timings.json: texture requests against distinct texels)"
"$MGSIM" validate --config $H/calibrated.json --timings $H/texq-timings.json -j "$J" \
    --json-file $H/validate-texq.json -o $H/validate-texq.txt
step "H100: the texq-lone suite (texq-lone-timings.json: texture requests at 1-4 warps per SM)"
"$MGSIM" validate --config $H/calibrated.json --timings $H/texq-lone-timings.json -j "$J" \
    --json-file $H/validate-texq-lone.json -o $H/validate-texq-lone.txt
step "H100: the tiles suite (tiles-timings.json: 4x4, 2x4 and 1x4 tiles at one launch)"
"$MGSIM" validate --config $H/calibrated.json --timings $H/tiles-timings.json -j "$J" \
    --json-file $H/validate-tiles.json -o $H/validate-tiles.txt
step "H100: the suite on the base config"
"$MGSIM" validate --config configs/devices/nvidia-h100.json --timings $H/timings.json \
    -j "$J" --json-file $H/validate-base.json -o $H/validate-base.txt
step "H100: the realistic layer suite (layers-timings.json) on the base and the calibrated config"
"$MGSIM" validate --config configs/devices/nvidia-h100.json --timings $H/layers-timings.json \
    -j "$J" --json-file $H/validate-layers-base.json -o $H/validate-layers-base.txt
"$MGSIM" validate --config $H/calibrated.json --timings $H/layers-timings.json -j "$J" \
    --json-file $H/validate-layers.json --plot $H/validate-layers.png \
    --plot-residuals $H/validate-layers-residuals.png \
    --compare $H/validate-layers-base.json --compare-file $H/validate-layers-compare.txt \
    -o $H/validate-layers.txt
step "PoCL: calibrate $P/calibrated.json and validate"
"$MGSIM" calibrate --profile $P/profile.json --base $P/base.json -o $P/calibrated.json \
    > /dev/null
"$MGSIM" validate --config $P/calibrated.json --timings $P/timings.json -j "$J" \
    --json-file $P/validate.json --plot $P/validate.png -o $P/validate.txt
for f in $H/validate.txt $H/validate-diag.txt $H/validate-latency.txt $H/validate-knobs.txt \
         $H/validate-texq.txt $H/validate-base.txt $H/validate-layers.txt \
         $H/validate-layers-base.txt $P/validate.txt; do
    printf '%s:\n' "$f"
    sed -n '/^all /p; /^mean of /p; /^aims/p' "$f" | sed 's/^/    /'
done
printf '%s:\n' $H/validate-layers-compare.txt
sed -n '/^all /p; /^group mean /p' $H/validate-layers-compare.txt | sed 's/^/    /'
