#!/bin/sh
# validate_mali.sh MGSIM OUTDIR - the Mali-T860 cross-check: AutoTVM's
# tophub log of kernels tuned and timed on an RK3399 (Mali-T860 MP4,
# configs/measured/mali-t860/autotvm/) imported into generator schedules
# and timings, then the shipped mali-t860-mp4 config validated against the
# matched records and, apart, the approximate ones, broken down by
# precision (configs/measured/mali-t860/README.md).  JOBS threads (2).
set -eu
MG=${1:-bin/mgsim}
OUT=${2:-configs/measured/mali-t860}
LOG=configs/measured/mali-t860/autotvm/mali_v0.06.log
CFG=configs/devices/mali-t860-mp4.json
$MG import autotvm "$LOG" -o "$OUT" > /dev/null
for set in matched approximate; do
    $MG validate -q --config "$CFG" --timings "$OUT/timings-$set.json" --sample auto \
        -j "${JOBS:-2}" --by storage --json-file "$OUT/validate-$set.json" \
        -o "$OUT/validate-$set.txt"
done
sed -n '/^timings:/p' "$OUT/import.txt"
for set in matched approximate; do
    echo "$set:"
    sed -n '/^by storage/,/^median/p' "$OUT/validate-$set.txt" | sed '1d;$d'
done
