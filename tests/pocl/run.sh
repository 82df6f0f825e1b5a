#!/bin/sh
# tests/pocl/run.sh MGPROBE - correctness and trace fidelity of generated
# kernels on PoCL (issue 3, items 4 and 5): `mgprobe verify` over the
# schedules of tests/pocl/matrix.txt, on the first OpenCL device (PoCL).
#
# Prints the failures (with their details), the skips grouped by reason,
# the time taken, and verify's own summary line
# "verify: N passed, N failed, N skipped".  PoCL is a declared dependency
# (mk/deps.sh), so no usable OpenCL platform is a failure, never a skip.
#
# Under `make check` (MG_SANITIZED=1) only a spread of 10 schedules runs:
# PoCL compiles every kernel with its own LLVM inside the sanitized
# process, which is slow there (ASan's interceptors and shadow memory on
# every LLVM allocation), and our code paths are the same for every
# schedule; LeakSanitizer is told to ignore PoCL's and LLVM's allocations
# (tests/pocl/lsan.supp), which are theirs, not ours.
set -u
MGPROBE=$1
matrix=tests/pocl/matrix.txt
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

if [ "${MG_SANITIZED:-0}" = 1 ]; then
    grep -vE '^[[:space:]]*(#|$)' "$matrix" >"$tmp/all"
    n=$(wc -l <"$tmp/all")
    step=$(( n / 10 )); [ "$step" -ge 1 ] || step=1
    awk -v s="$step" 'NR % s == 1 || s == 1' "$tmp/all" | head -10 >"$tmp/matrix"
    matrix=$tmp/matrix
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1"
    LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$(pwd)/tests/pocl/lsan.supp:print_suppressions=0"
    export ASAN_OPTIONS LSAN_OPTIONS
    echo "pocl: sanitized build: a subset of $(wc -l <"$matrix") schedules"
fi

start=$(date +%s)
"$MGPROBE" verify --matrix "$matrix" >"$tmp/out" 2>"$tmp/err"
rc=$?
end=$(date +%s)

# Failures and their indented details; skips grouped by reason.
awk '/^FAIL: / {show = 1; print; next} /^    / {if (show) print; next} {show = 0}' "$tmp/out"
grep '^skip: ' "$tmp/out" | sed -E 's/^skip: [a-z0-9_]+ .*: ([^:]+)$/\1/' | sort | uniq -c |
    sed 's/^ *\([0-9]*\) /pocl: skipped \1: /'
[ -s "$tmp/err" ] && sed 's/^/pocl: stderr: /' "$tmp/err"

summary=$(grep -E '^verify: [0-9]+ passed, [0-9]+ failed' "$tmp/out" | tail -1)
if [ -z "$summary" ]; then
    echo "pocl: FAIL: mgprobe verify exited $rc without a summary (no usable OpenCL"
    echo "pocl: platform? PoCL is a declared dependency: run 'make deps')"
    exit 1
fi
echo "pocl: $(grep -cE '^(ok|FAIL|skip): ' "$tmp/out") schedules in $((end - start)) s"
echo "$summary"
exit $rc
