#!/bin/sh
# mk/device_run.sh [OUTDIR] - the whole H100 run in one call:
# register NVIDIA's OpenCL driver with the ICD loader, list the devices,
# measure the NVIDIA device's profile (`mgprobe run`) and time the H100
# kernel suite (`mgprobe time --suite configs/suites/h100.json`), and pack
# everything into OUTDIR/h100.tar.gz (plus the logs beside it).
#
# The accelerator machine has no cJSON, CUnit or OpenCL headers: build
# mgprobe here and carry it with libcjson.so.1 in .devcarry/ (ignored by
# .git/info/exclude):
#     make bin/mgprobe && mkdir -p .devcarry && cp bin/mgprobe .devcarry/ &&
#     cp "$(ldconfig -p | awk '/libcjson.so.1 /{print $NF; exit}')" .devcarry/
# then, with the device tool: run `sh mk/device_run.sh $OUT` carrying
# .devcarry.  Each step has a time limit (SIGINT: `mgprobe run` saves what
# it measured; a partial profile is valid JSON), so the call ends within
# about 9 minutes whatever happens.
set -u
OUTDIR=${1:-${OUT:-out}}
CARRY=${CARRY:-.devcarry}
RUN_S=${RUN_S:-330}            # mgprobe run, all aspects
TIME_S=${TIME_S:-170}          # mgprobe time, the suite
MATCH=${MATCH:-NVIDIA}         # the platform to measure (its name contains this)
SUITE=${SUITE:-configs/suites/h100.json}
RUN_ARGS=${RUN_ARGS:-}         # more `mgprobe run` options (a dry run here: --quick)
PREV=${PREV:-}                 # an earlier run's unpacked folder: resume its profile
SKIP_TIME=${SKIP_TIME:-0}      # 1: keep PREV's timings, do not time the suite again
SKIP_RUN=${SKIP_RUN:-0}        # 1: keep PREV's profile, do not run mgprobe run
TIME_ARGS=${TIME_ARGS:-}       # more `mgprobe time` options (e.g. --reps 32)
mkdir -p "$OUTDIR"
W=$(mktemp -d)
[ -n "$PREV" ] && cp -r "$PREV"/. "$W"/
export LD_LIBRARY_PATH="$CARRY${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
MGPROBE=$CARRY/mgprobe
main() {
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -a)"
if [ -e /usr/lib/libnvidia-opencl.so.1 ]; then
    mkdir -p /etc/OpenCL/vendors
    echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv \
    > "$W/nvidia-smi.csv" 2>&1 || echo "nvidia-smi: not available"
cat "$W/nvidia-smi.csv"
"$MGPROBE" devices | tee "$W/devices.txt"
"$MGPROBE" devices --json > "$W/devices.json"
dev=$(awk -v m="$MATCH" '/^Platform /{p=$2} /^  Name/ && index($0, m) {print p; exit}' \
    "$W/devices.txt")
if [ -z "$dev" ]; then
    echo "device_run: no platform named like '$MATCH': the ICD registration failed?"
    tar czf "$OUTDIR/h100.tar.gz" -C "$W" .
    return 1
fi
echo "== platform $dev ($MATCH): device $dev:0"
if [ "$SKIP_RUN" != 1 ]; then
    t0=$(date +%s)
    timeout -s INT -k 20 "$RUN_S" "$MGPROBE" run --device "$dev:0" --aspect-budget 100 \
        $RUN_ARGS -o "$W/profile.json"
    echo "== mgprobe run: exit $?, $(( $(date +%s) - t0 )) s"
fi
if [ "$SKIP_TIME" != 1 ]; then
    t0=$(date +%s)
    # no on-disk program cache: a cached build reports no register count
    CUDA_CACHE_DISABLE=1 timeout -s INT -k 20 "$TIME_S" "$MGPROBE" time --device "$dev:0" \
        --suite "$SUITE" $TIME_ARGS -o "$W/timings.json" > "$W/time.txt"
    echo "== mgprobe time: exit $?, $(( $(date +%s) - t0 )) s"
fi
tail -1 "$W/time.txt"
tar czf "$OUTDIR/h100.tar.gz" -C "$W" .
rm -rf "$W"
ls -l "$OUTDIR"
}
main 2>&1 | tee "$OUTDIR/device_run.log"
