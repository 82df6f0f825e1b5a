#!/bin/sh
# mk/fuzz_bundle.sh FUZZDIR OUT TARGET... - pack the fuzz targets built in
# FUZZDIR (`make fuzz-build`) into the folder OUT (`make fuzz-bundle`), to
# run `make fuzz-long` on another Linux x86-64 machine that has no clang
# and no checkout:
#
#   OUT/run.sh RUNS JOBS [SPLIT [TARGET...]]    the runner (mk/fuzz.sh)
#   OUT/run.sh --plan CORES SECONDS [RUNS [TARGET...]]   RUNS (default
#                           10^7) per target as far as SECONDS of wall
#                           time allow (mk/fuzz_plan.sh, OUT/rates.tsv)
#   OUT/bin/fuzz_TARGET     the targets (ASan+UBSan+libFuzzer)
#   OUT/lib/                their shared libraries but glibc (libcjson,
#                           libstdc++, libgcc_s), on LD_LIBRARY_PATH
#   OUT/lib/glibc/          this machine's glibc and loader, used only when
#                           the other machine's glibc cannot run the targets
#   OUT/seeds/, OUT/tests/fuzz/corpus/   the seeds and committed corpus
#   OUT/configs/devices/, OUT/tests/golden/data/ the files the targets load
#   OUT/COMMIT, OUT/TARGETS, OUT/README.txt
#   OUT/rates.tsv           FUZZ_RATES (default tests/fuzz/rates.tsv), the
#                           rates --plan plans with
#   OUT/done/               the summaries of earlier long runs named by
#                           FUZZ_DONE (`make fuzz-bundle`: every
#                           doc/runs/fuzz-long*.tsv): run.sh --plan counts
#                           their executions toward RUNS, so it plans only
#                           the targets still short, for what they lack
#                           (FUZZ_DONE= ./run.sh --plan ... ignores them)
#
# and OUT.tar.gz, the same packed (about a quarter of the size: what to
# copy to a machine, or to carry to a device run).
#
# Run from the repository root.  Replaces OUT.
set -u
fz=$1 out=$2
shift 2
for t in "$@"; do
    [ -x "$fz/fuzz_$t" ] || { echo "mk/fuzz_bundle.sh: $fz/fuzz_$t missing (make fuzz-build)" >&2; exit 2; }
done
rm -rf "$out" && mkdir -p "$out/bin" "$out/lib/glibc" "$out/tests/fuzz" "$out/tests/golden" || exit 2

# The targets, their libraries (ldd's paths) and the files they read.
for t in "$@"; do cp "$fz/fuzz_$t" "$out/bin/"; done
ldd "$fz/fuzz_$1" | sed -n 's/.*=> \(\/[^ ]*\) (0x.*/\1/p; s/^[[:space:]]*\(\/[^ ]*ld-linux[^ ]*\) (0x.*/\1/p' |
while read -r so; do
    case $(basename "$so") in
        libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*) cp -L "$so" "$out/lib/glibc/" ;;
        *) cp -L "$so" "$out/lib/" ;;
    esac
done
[ -e "$out/lib/libcjson.so.1" ] && [ -e "$out/lib/glibc/ld-linux-x86-64.so.2" ] ||
    { echo "mk/fuzz_bundle.sh: libcjson.so.1 or the loader not found by ldd" >&2; exit 2; }
mkdir -p "$out/configs" && cp -R configs/devices "$out/configs/"
cp -R tests/golden/data "$out/tests/golden/"
cp -R tests/fuzz/corpus "$out/tests/fuzz/"
sh mk/fuzz.sh "$out" seeds 0 || exit 2
cp mk/fuzz.sh "$out/fuzz.sh"
cp mk/fuzz_plan.sh "$out/plan.sh"
cp "${FUZZ_RATES:-tests/fuzz/rates.tsv}" "$out/rates.tsv" || exit 2
echo "$*" > "$out/TARGETS"
if [ -n "${FUZZ_DONE:-}" ]; then
    mkdir -p "$out/done" && cp $FUZZ_DONE "$out/done/" || exit 2
fi
git rev-parse --short HEAD > "$out/COMMIT" 2>/dev/null || echo '?' > "$out/COMMIT"

cat > "$out/run.sh" <<'EOF'
#!/bin/sh
# run.sh RUNS JOBS [SPLIT [TARGET...]] - every fuzz target (or those named)
# for RUNS executions, JOBS processes at once, each target split over
# SPLIT processes (default JOBS) that share its corpus.
# run.sh --plan CORES SECONDS [RUNS [TARGET...]] - every target toward
# RUNS executions (default 10^7) on CORES cores, all done within SECONDS
# of wall time, processes given by the rates in rates.tsv (plan.sh);
# the executions of the earlier runs in done/ count toward RUNS (set
# FUZZ_DONE to other summaries, or empty to count none).
# Writes summary.tsv (what `make reliability` reads as the next
# doc/runs/fuzz-long-N.tsv) and out/ (logs, the corpus found, crash-*
# artifacts).  README.txt says more.
set -u
cd "$(dirname "$0")" || exit 2
plan=0
[ "${1:-}" = --plan ] && { plan=1; shift; }
[ $# -ge 2 ] || { echo "usage: $0 RUNS JOBS [SPLIT [TARGET...]] | --plan CORES SECONDS [RUNS [TARGET...]]" >&2; exit 2; }
if [ $plan -eq 1 ]; then
    cores=$1 secs=$2 runs=${3:-10000000}
else
    runs=$1 jobs=$2 split=${3:-$2}
fi
shift 2; [ $# -gt 0 ] && shift
targets=${*:-$(cat TARGETS)}
export LD_LIBRARY_PATH="$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
probe=bin/fuzz_$(echo $targets | cut -d' ' -f1)
if ! "$probe" -help=1 >/dev/null 2>&1; then
    wrap="lib/glibc/ld-linux-x86-64.so.2 --library-path lib/glibc:lib"
    if $wrap "$probe" -help=1 >/dev/null 2>&1; then
        echo "run.sh: this machine's glibc cannot run the targets; using the bundled one"
        export FUZZ_WRAP="$wrap"
    else
        echo "run.sh: $probe cannot start, with this machine's libraries or the bundled ones:" >&2
        "$probe" -help=1 2>&1 | head -3 >&2
        exit 2
    fi
fi
export FUZZ_BIN=bin FUZZ_SEEDS=seeds FUZZ_SUMMARY=summary.tsv FUZZ_COMMIT="$(cat COMMIT)"
if [ $plan -eq 1 ]; then
    if [ -z "${FUZZ_DONE+set}" ] && [ -d done ]; then
        FUZZ_DONE=$(ls done/*.tsv 2>/dev/null | tr '\n' ' ' | sed 's/ $//')
    fi
    export FUZZ_DONE="${FUZZ_DONE:-}"
    exec sh plan.sh out "$cores" "$secs" "$runs" rates.tsv $targets
fi
FUZZ_JOBS=$jobs FUZZ_SPLIT=$split exec sh fuzz.sh out runs "$runs" $targets
EOF
chmod +x "$out/run.sh"

cat > "$out/README.txt" <<EOF
mgsim fuzz bundle (commit $(cat "$out/COMMIT")): the libFuzzer targets of
tests/fuzz/ (ASan+UBSan), built on $(uname -m) with $(${FUZZ_CC:-clang} --version | head -1),
for a Linux x86-64 machine without clang or a checkout.

  ./run.sh RUNS JOBS [SPLIT [TARGET...]]

runs every target (TARGETS) for RUNS executions in all, JOBS processes at
once, each target as SPLIT processes (default JOBS) of RUNS/SPLIT
executions that share its corpus.  Example, 10^7 executions per target
on 16 cores:

  ./run.sh 10000000 16

or, within a wall-time budget (here 16 cores, 560 s), the processes
spread by the measured rates of rates.tsv so that as many targets as
the budget allows reach 10^7 (plan.sh says how; out/plan is the plan):

  ./run.sh --plan 16 560

The executions of the earlier runs whose summaries are in done/
($(ls "$out/done" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')) count toward the 10^7: --plan runs only
the targets still short of it, each for what it lacks (out/goal lists
both); \`FUZZ_DONE= ./run.sh --plan ...\` counts none.

Each process may use 2 GiB (-rss_limit_mb=2048); scratch files go to
/dev/shm (TMPDIR overrides).  The bundle needs only itself: its lib/
holds libcjson and the C++ runtime; when the machine's glibc is older
than the build's, run.sh uses lib/glibc/ (a message says so).

Results: summary.tsv (target, executions, seconds, processes, crashes,
result; copy it to the next free doc/runs/fuzz-long-N.tsv in the
repository (fuzz-long.tsv for the first) and run \`make reliability\`,
which sums the runs), out/TARGET.K.log (each process's log), out/corpus/
(the inputs found: copy to build/fuzz/corpus/ and \`make fuzz-corpus\`),
out/TARGET-crash-* (and -timeout-, -leak-, -oom-): a finding, replayed
here by \`LD_LIBRARY_PATH=lib bin/fuzz_TARGET FILE\` (from this folder)
or, with symbolized stacks, in the repository by build/fuzz/fuzz_TARGET FILE.
Exit status 1 when any target failed.
EOF
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")" || exit 2
echo "fuzz-bundle: $out ($(du -sh "$out" | cut -f1)) and $out.tar.gz ($(du -sh "$out.tar.gz" | cut -f1)), $# targets; run: $out/run.sh RUNS JOBS"
