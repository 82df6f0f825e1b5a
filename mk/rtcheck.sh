#!/bin/sh
# mk/rtcheck.sh MODE UNIT MGSIM MGPROBE SUMMARY - the unit suites and a
# representative set of commands under a runtime checker, from the
# repository root (`make tsan`, `make memcheck`; not part of `make test`):
#
#   MODE tsan      UNIT, MGSIM and MGPROBE built with -fsanitize=thread
#                  (build/tsan/); the threaded commands (sweep, whatif,
#                  validate: the lines with $J below) at -j 2, 3 and 4.
#   MODE memcheck  the normal binaries under valgrind (memcheck, full leak
#                  check, definite and indirect leaks are errors); the
#                  threaded commands at -j 2.
#
# Every unit suite runs as its own process (`UNIT SUITE`), except those in
# RT_SKIP (default "vprobe": 80 s natively, an hour under valgrind; its
# code runs in the vprobe command below, every aspect); RT_SKIP= runs
# them all.  A case fails when the checker reports (TSan: a report on
# stderr; valgrind: its exit status 99) or the exit status differs from
# the expected one.
# Prints one line per case and "MODE: N passed, N failed"; writes SUMMARY
# (TSV: a "#" line saying what ran where, then check, case, jobs, expected
# exit, exit, seconds, result), which `make reliability` folds into
# doc/RELIABILITY.md; a failed case's stderr stays in RT_LOGS (default
# build/rtcheck-MODE/).  Exit 1 when any case failed.
set -u
MODE=$1 UNIT=$2 BIN_MGSIM=$3 BIN_MGPROBE=$4 SUMMARY=$5
skip=${RT_SKIP-vprobe} logs=${RT_LOGS:-build/rtcheck-$1}
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
case $MODE in
    tsan)
        wrap=""
        jobs_list="2 3 4"
        export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
        ;;
    memcheck)
        wrap="valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99"
        jobs_list="2"
        ;;
    *) echo "mk/rtcheck.sh: MODE is tsan or memcheck" >&2; exit 2 ;;
esac
export OCL_ICD_VENDORS=/nonexistent     # mgprobe check needs no OpenCL device

# The commands: NAME<TAB>expected exit<TAB>command ($MGSIM, $MGPROBE, $D a
# scratch folder, $J the thread count: a command with $J runs once per -j).
# Small inputs of every kind: run, gen, trace, config, space, prune, sweep
# (with resume, cutoff, CSV), whatif, validate, vprobe, calibrate, import,
# plot inputs, mgprobe check, and bad input that each loader rejects.
commands() {
    A=configs/devices/adreno640.json M=configs/devices/mali-g76-mp5.json
    H=configs/devices/nvidia-h100.json R=configs/rules/romou.json
    S=tests/golden/data/space-sweep-tiny.json T=tests/golden/data/timings-h100-small.json
    cat <<EOF
run	0	\$MGSIM run --config $A eltwise H=4 W=4 C=16
run-json	0	\$MGSIM run --config $M --json matmul M=16 N=16 K=32 tile=2x4 wg=4,4 -o \$D/run.json
run-trace	0	\$MGSIM run --config $A --trace traces/samples/small.mgt
run-sample	0	\$MGSIM run --config $A --sample auto conv2d H=14 W=14 Cin=32 Cout=32 K=3 pad=1
gen	0	\$MGSIM gen matmul M=64 N=64 K=64 -o \$D/gen
gen-source	0	\$MGSIM gen softmax --source
trace-stats	0	\$MGSIM trace stats --json \$D/gen/trace.mgt
trace-dump	0	\$MGSIM trace dump traces/samples/small.mgt
config-check	0	\$MGSIM config check $A $M $H
config-show	0	\$MGSIM config show $A -o \$D/show.json
config-show-text	0	\$MGSIM config show --text $M
config-diff	1	\$MGSIM config diff $A $M
space-count	0	\$MGSIM space count tests/golden/data/space-mm-small.json
prune	0	\$MGSIM prune --config $M --space tests/golden/data/space-mm-small.json --rules $R
sweep	0	\$MGSIM sweep --config $A --space $S --rules $R -j \$J --no-progress -o \$D/s\$J.jsonl --csv \$D/s\$J.csv
sweep-resume	0	head -c 6000 \$D/s\$J.jsonl > \$D/r\$J.jsonl && \$MGSIM sweep --config $A --space $S --rules $R -j \$J --no-progress -o \$D/r\$J.jsonl
sweep-cutoff	0	\$MGSIM sweep --config $A --space tests/golden/data/space-sweep-bound.json --rules $R --cutoff 1.5 -j \$J --no-progress -o \$D/c\$J.jsonl
whatif	0	\$MGSIM whatif --config $A --space $S --rules $R --vary tex_l1.size=x0.5,x2 -j \$J --no-progress --results \$D/w\$J --json
validate	0	\$MGSIM validate --config $H --timings $T -j \$J --json -o \$D/v\$J.json
validate-compare	0	\$MGSIM validate --config configs/measured/h100/calibrated.json --timings $T -j \$J --compare \$D/v\$J.json -o \$D/vc\$J.txt
vprobe	0	\$MGSIM vprobe -q --config $A -o \$D/vp.json
calibrate	0	\$MGSIM calibrate --profile configs/measured/h100/profile.json --base $H -o \$D/cal.json
import	0	\$MGSIM import archprobe configs/measured/pixel4/archprobe -o \$D/ap.json
plot-sweep	0	\$MGSIM plot sweep tests/plots/data/sweep-small.jsonl --data \$D/p1
plot-whatif	0	\$MGSIM plot whatif tests/plots/data/whatif-small.json --data \$D/p2
plot-roofline	0	\$MGSIM plot roofline --config $A tests/plots/data/run-conv1x1-image.json tests/plots/data/run-matmul-fp16.json --data \$D/p3
plot-chase	0	\$MGSIM plot chase configs/measured/pocl/profile.json --data \$D/p4
mgprobe-check	0	\$MGPROBE check configs/measured/h100/profile.json \$D/vp.json
bad-config	2	\$MGSIM config check tests/bad/configs/typo-key.json
bad-trace	2	\$MGSIM trace stats tests/bad/traces/$(ls tests/bad/traces | head -1)
bad-timings	2	\$MGSIM validate --config $A --timings tests/bad/cmds/string-timings-name.json
bad-import	2	\$MGSIM import archprobe tests/bad/cmds/ap-nan-cell -o \$D/bad.json
bad-vary	2	\$MGSIM whatif --config $A --space $S --vary tex_l1.size=512B --vary tex_l1.size=2KiB
bad-regs	2	\$MGSIM run --config $M regpressure regs=200 warp=8
bad-profile	2	\$MGSIM calibrate --profile tests/bad/cmds/profile-curve-outside.json -o \$D/bad.json
bad-huge	2	\$MGSIM run --config $A conv2d H=4096 W=4096 Cin=8192 Cout=8192 K=15 pad=7 layout=buffer
bad-results	2	\$MGSIM sweep --config $A --space $S --no-progress -o $S
EOF
}

# The unit suites, from their registrations in tests/unit/.
suites() {
    grep -ho 'CU_add_suite("[^"]*"' tests/unit/*.c | sed 's/CU_add_suite("//; s/"$//' | sort
}

pass=0 fail=0
{
    printf '# %s %s, commit %s, %s, %s cores, %s\n' "$MODE" "$(date -u +%Y-%m-%d)" \
        "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" "$(uname -m)" "$(nproc)" \
        "$( [ "$MODE" = tsan ] && ${CC:-cc} --version | head -1 || valgrind --version)"
    printf '# check\tcase\tjobs\twant\texit\tseconds\tresult\n'
} > "$D/summary"

# one KIND NAME JOBS WANT CMD: run CMD, judge it, record a line.
one() {
    kind=$1 name=$2 j=$3 want=$4 cmd=$5
    t0=$(date +%s)
    J=$j sh -c "$cmd" >"$D/out" 2>"$D/err" </dev/null
    rc=$?
    secs=$(($(date +%s) - t0))
    why=""
    if [ "$MODE" = tsan ] && grep -q 'ThreadSanitizer' "$D/err"; then why="TSan report"
    elif [ "$MODE" = memcheck ] && [ $rc -eq 99 ]; then why="valgrind errors"
    elif [ $rc -gt 128 ]; then why="killed by signal $((rc - 128))"
    elif [ $rc -ne "$want" ]; then why="exit $rc, expected $want"
    fi
    label=$name; [ "$j" = - ] || label="$name -j$j"
    if [ -z "$why" ]; then
        pass=$((pass + 1)); res=clean
        echo "$MODE: $label: clean (${secs}s)"
    else
        fail=$((fail + 1)); res="FAIL: $why"
        echo "$MODE: $label: FAIL: $why; stderr:"
        grep -E 'WARNING|ERROR|SUMMARY|definitely|indirectly|uninitialised|Invalid|==[0-9]+== +(at|by) ' \
            "$D/err" | head -12 | sed 's/^/    /'
        mkdir -p "$logs" && cp "$D/err" "$logs/$name-$j.err" &&
            echo "    (full stderr: $logs/$name-$j.err)"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$name" "$j" "$want" "$rc" "$secs" "$res" >> "$D/summary"
}

export D MGSIM="${wrap:+$wrap }$BIN_MGSIM" MGPROBE="${wrap:+$wrap }$BIN_MGPROBE"
for s in $(suites); do
    case " $skip " in *" $s "*) continue ;; esac
    one unit "$s" - 0 "${wrap:+$wrap }$UNIT $s"
done
commands > "$D/cmds"
while IFS='	' read -r name want cmd; do
    case $cmd in
        *'$J'*) for j in $jobs_list; do one cmd "$name" "$j" "$want" "$cmd"; done ;;
        *) one cmd "$name" - "$want" "$cmd" ;;
    esac
done < "$D/cmds"
[ -n "$skip" ] && echo "# skipped unit suites: $skip" >> "$D/summary"
echo "$MODE: $pass passed, $fail failed"
mkdir -p "$(dirname "$SUMMARY")" && cp "$D/summary" "$SUMMARY.tmp.$$" && mv "$SUMMARY.tmp.$$" "$SUMMARY"
[ $fail -eq 0 ]
