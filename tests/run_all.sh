#!/bin/sh
# tests/run_all.sh UNIT MGSIM MGPROBE - every test suite; exit 1 if any fails.
# Each suite prints its own "NAME: N passed, N failed" line; the last line
# here is the total.
set -u
UNIT=$1 MGSIM=$2 MGPROBE=$3
total_pass=0 total_fail=0 failed=""
run() {  # run NAME CMD...: run a suite, collect its summary line
    name=$1; shift
    out=$("$@" 2>&1); rc=$?
    printf '%s\n' "$out"
    line=$(printf '%s\n' "$out" | grep -E '^[a-z-]+: [0-9]+ passed, [0-9]+ failed' | tail -1)
    p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    [ -n "$line" ] || { p=0; f=1; }
    [ $rc -eq 0 ] || [ "$f" -gt 0 ] || f=1
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
    [ $rc -eq 0 ] || failed="$failed $name"
}
run unit "$UNIT"
run golden sh tests/golden/run.sh "$MGSIM" "$MGPROBE"
run bad-input sh tests/bad/run.sh "$MGSIM"
run bad-traces sh tests/bad/run_traces.sh "$MGSIM"
run bad-cmds sh tests/bad/run_cmds.sh "$MGSIM" "$MGPROBE"
run networks sh tests/networks/gen_check.sh "$MGSIM"
run findings sh tests/networks/findings.sh "$MGSIM"
run signals sh tests/bad/run_signals.sh "$MGSIM"
run resume sh tests/bad/run_resume.sh "$MGSIM"
run dist sh tests/dist/run.sh "$MGSIM"
run layout sh tests/layout.sh "$MGSIM"
run archprobe sh tests/archprobe/run.sh "$MGSIM"
run plots sh tests/plots/run.sh "$MGSIM"
run install sh tests/install/run.sh "$UNIT" "$MGSIM"
run examples sh tests/docs/examples.sh "$MGSIM" "$MGPROBE"
run readme-accuracy sh mk/readme_accuracy.sh --check README.md
run pocl sh tests/pocl/run.sh "$MGPROBE"
run probe sh tests/pocl/probe.sh "$MGPROBE"
echo "----"
[ -z "$failed" ] || echo "FAILED suites:$failed"
echo "all: $total_pass passed, $total_fail failed"
[ -z "$failed" ]
