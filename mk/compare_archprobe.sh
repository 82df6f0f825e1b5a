#!/bin/sh
# compare_archprobe.sh MGSIM OUTDIR - the Adreno 640 model against ArchProbe's
# Pixel 4 report (configs/measured/pixel4/archprobe/): import, calibrate,
# the shipped config's virtual probe in ArchProbe's sweep, and the point by
# point comparison (configs/measured/pixel4/README.md), drawn as compare.png.
set -eu
MG=${1:-bin/mgsim}
OUT=${2:-configs/measured/pixel4}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
$MG import archprobe configs/measured/pixel4/archprobe --name "Adreno 640 (Pixel 4, ArchProbe)" \
    -o "$TMP/pixel4.json" > "$OUT/import.txt"
$MG calibrate --profile "$TMP/pixel4.json" --base configs/devices/adreno640.json \
    -o "$OUT/calibrated.json" > "$OUT/calibrate.txt"
$MG vprobe --quiet --config configs/devices/adreno640.json --sweep archprobe \
    -o "$TMP/model.json" > "$OUT/vprobe.txt"
rc=0
$MG compare --measured "$TMP/pixel4.json" --model "$TMP/model.json" \
    --exclude configs/measured/pixel4/exclude.json -o "$TMP/compare.json" \
    > "$OUT/compare.txt" || rc=$?
# the report names the temporary profiles: name them by what made them
sed -e "s#$TMP/pixel4.json#mgsim import archprobe configs/measured/pixel4/archprobe#" \
    -e "s#$TMP/model.json#mgsim vprobe --sweep archprobe configs/devices/adreno640.json#" \
    "$TMP/compare.json" > "$OUT/compare.json"
sed -i "s#$TMP/pixel4.json#pixel4.json (mgsim import archprobe configs/measured/pixel4/archprobe)#g" \
    "$OUT/calibrated.json" "$OUT/calibrate.txt"
cat "$OUT/compare.txt"
# the curves side by side (where gnuplot is installed)
if command -v gnuplot > /dev/null; then
    $MG plot compare "$OUT/compare.json" -o "$OUT/compare.png" > /dev/null
fi
exit $rc
