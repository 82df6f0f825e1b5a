#!/bin/sh
# tests/pocl/run.sh MGPROBE - correctness and trace fidelity of generated
# kernels on PoCL: `mgprobe verify` over every
# schedule of tests/pocl/matrix.txt on the first OpenCL device (PoCL),
# in one worker process per core.
#
# Prints the failures with their details, the skips grouped by reason, the
# time taken, and verify's own summary "verify: N passed, N failed, N
# skipped".  PoCL is a declared dependency (mk/deps.sh): no usable OpenCL
# platform is a failure, never a skip.
#
# Under `make check` the whole matrix runs too: PoCL's LLVM is not
# instrumented and behaves (and, kernels being cached in ~/.cache/pocl,
# the second run is fast), but it and the ICD loader keep global
# allocations to the end of the process, which LeakSanitizer would report;
# tests/pocl/lsan.supp suppresses leaks allocated inside libpocl, libLLVM,
# libclang and libOpenCL only, so a leak of ours still fails.
set -u
MGPROBE=$1
matrix=tests/pocl/matrix.txt
jobs=$(nproc 2>/dev/null || echo 1)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1"
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$(pwd)/tests/pocl/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS LSAN_OPTIONS

start=$(date +%s)
"$MGPROBE" verify --jobs "$jobs" --matrix "$matrix" >"$tmp/out" 2>"$tmp/err"
rc=$?
end=$(date +%s)

# Failures and their indented details; skips counted by reason, with the
# operators they hit.
awk '/^FAIL: / {show = 1; print; next} /^    / {if (show) print; next} {show = 0}' "$tmp/out"
grep '^skip: ' "$tmp/out" | sed -E 's/^skip: ([a-z0-9]+) .*: ([^:]+)$/\2\t\1/' | sort |
    awk -F '\t' '{n[$1]++; if (index(" " ops[$1] " ", " " $2 " ") == 0) ops[$1] = ops[$1] (ops[$1] == "" ? "" : " ") $2}
                 END {for (r in n) printf "pocl: skipped %d: %s (%s)\n", n[r], r, ops[r]}'
# PoCL's compiler prints diagnostics of failed builds itself ("1 error
# generated."); they are in the FAIL details already.
grep -vE '^[0-9]+ (error|warning)s? generated\.$' "$tmp/err" | sed 's/^/pocl: stderr: /'

summary=$(grep -E '^verify: [0-9]+ passed, [0-9]+ failed' "$tmp/out" | tail -1)
if [ -z "$summary" ]; then
    echo "pocl: FAIL: mgprobe verify exited $rc without a summary: no usable OpenCL"
    echo "pocl: platform?  PoCL is a declared dependency: run 'make deps'"
    exit 1
fi
echo "pocl: $(grep -cE '^(ok|FAIL|skip): ' "$tmp/out") schedules, $jobs jobs, $((end - start)) s"
echo "$summary"
exit $rc
