#!/bin/sh
# tests/pocl/probe.sh MGPROBE - `mgprobe run` and `mgprobe time` on PoCL:
# that they work and write valid JSON, never how fast.
#
#   run      a quick subset (warp, flops, alu): exit 0, a valid profile and
#            curves (mgprobe check); run again: every aspect kept
#   resume   cache_buffer interrupted by SIGINT after 2 s: exit 1, the
#            profile still valid with the aspect "interrupted"; run again
#            (quick): the aspect is measured and the rest kept
#   vload    the load-issue aspect (quick): exit 0, ok or undetermined, a
#            valid profile and curves with its three conclusion keys and
#            seven points
#   time     a 3-kernel suite: exit 0, valid timings; with -o - the JSON
#            alone on stdout; a bad suite: exit 2; run -o -: exit 2
#   truth    the buffer pointer chase (up to 3 x L2) finds the L1d and L2
#            sizes of /sys/devices/system/cpu/cpu0/cache within a factor
#            of 1.25 (skipped with a message when sysfs lacks them).  A
#            VM's L2 can look smaller than it is (page colouring of the
#            host's 4 KiB pages): one retry, with a fresh allocation, and
#            on a hypervisor an L2 still off is reported, not failed; the
#            L1d (virtually indexed: no page colours) counts everywhere.
#
# Under `make check` (ASan with leak detection), LeakSanitizer's own
# stop-the-world tracer can crash at exit while PoCL's worker threads wind
# down ("Tracer caught signal 11", "LeakSanitizer has encountered a fatal
# error": seen on the 2-core machine at 48e9ac5 and later alike).  That is
# the sanitizer failing, not a leak: such a step is run again once without
# leak detection, and says so.  A leak report still fails.
#
# Prints "probe: N passed, N failed".
set -u
MGPROBE=$1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "probe: FAIL: $*"; fail=$((fail + 1)); }
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1"
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$(pwd)/tests/pocl/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS LSAN_OPTIONS
Q="--quick --min-ms 0.2 --reps 2"

# lsan_retry OUT CMD...: CMD with its output in OUT; when it fails because
# LeakSanitizer's tracer crashed, CMD again without leak detection.
lsan_retry() {
    out=$1; shift
    "$@" > "$out" 2>&1 && return 0
    rc=$?
    grep -q 'LeakSanitizer has encountered a fatal error' "$out" || return $rc
    echo "probe: note: LeakSanitizer's tracer crashed in '$*': run again without leak detection"
    ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" "$@" > "$out" 2>&1
}

# run: a quick subset, then again (all kept)
lsan_retry "$tmp/run1" "$MGPROBE" run $Q --aspects warp,flops,alu -o "$tmp/p.json" && ok ||
    { bad "run exited $?"; sed 's/^/    /' "$tmp/run1"; }
"$MGPROBE" check "$tmp/p.json" "$tmp"/p.curves/*.json > "$tmp/chk" 2>&1 && ok ||
    { bad "the profile or its curves are not valid"; sed 's/^/    /' "$tmp/chk"; }
"$MGPROBE" run $Q --aspects warp,flops,alu -o "$tmp/p.json" > "$tmp/run2" 2>&1
[ $? -eq 0 ] && [ "$(grep -c 'earlier, kept' "$tmp/run2")" -eq 3 ] && ok ||
    { bad "a second run did not keep the 3 aspects"; sed 's/^/    /' "$tmp/run2"; }

# resume: SIGINT saves; the next run measures the interrupted aspect only
timeout --preserve-status -s INT 2 "$MGPROBE" run --aspects cache_buffer -o "$tmp/p.json" > "$tmp/run3" 2>&1
rc=$?
st=$("$MGPROBE" check --print cache_buffer.levels "$tmp/p.json" 2>/dev/null; \
     grep -o '"status": "[a-z]*"' "$tmp/p.json" | tail -1)
if [ $rc -eq 1 ] && "$MGPROBE" check "$tmp/p.json" > /dev/null 2>&1 &&
   grep -q '^interrupted: the profile is saved' "$tmp/run3" && echo "$st" | grep -q interrupted; then
    ok
else
    bad "SIGINT: exit $rc (want 1), status: $st"; sed 's/^/    /' "$tmp/run3"
fi
lsan_retry "$tmp/run4" "$MGPROBE" run $Q --max-footprint 65536 -a warp,cache_buffer -o "$tmp/p.json"
if [ $? -eq 0 ] && grep -q '^warp: .* earlier, kept' "$tmp/run4" &&
   grep -qE '^cache_buffer: (ok|undetermined)' "$tmp/run4"; then ok
else bad "resume after SIGINT"; sed 's/^/    /' "$tmp/run4"; fi

# vload: runs, concludes (vector or elements, or null with why), valid documents;
# 4 keys: the aspect and its three conclusions
lsan_retry "$tmp/vl" "$MGPROBE" run $Q --aspects vload -o "$tmp/v.json"
rc=$?
pts=$(grep -c '"schedule": "vload ' "$tmp/v.curves/vload.json" 2>/dev/null)
if [ $rc -eq 0 ] && grep -qE '^vload: (ok|undetermined)' "$tmp/vl" &&
   "$MGPROBE" check "$tmp/v.json" "$tmp/v.curves/vload.json" > /dev/null 2>&1 &&
   [ "$pts" = 7 ] && "$MGPROBE" check --print vload.equal_bytes_ratio "$tmp/v.json" > /dev/null &&
   [ "$(grep -c '"\(equal_bytes_ratio\|vload\|max_load_bytes\)": {' "$tmp/v.json")" = 4 ]; then ok
else bad "vload: exit $rc, $pts points"; sed 's/^/    /' "$tmp/vl"; fi

# time: a 3-kernel suite, then a bad one
"$MGPROBE" time --suite tests/pocl/suite3.json -o "$tmp/t.json" > "$tmp/time" 2>&1 &&
    "$MGPROBE" check "$tmp/t.json" > /dev/null 2>&1 && grep -q '^time: 3 ok' "$tmp/time" && ok ||
    { bad "time on the 3-kernel suite"; sed 's/^/    /' "$tmp/time"; }
# -o -: the timings alone on stdout (valid JSON), the lines on stderr
"$MGPROBE" time --suite tests/pocl/suite3.json --reps 2 -o - > "$tmp/t-stdout.json" 2> "$tmp/time2" &&
    "$MGPROBE" check "$tmp/t-stdout.json" > /dev/null 2>&1 && grep -q '^time: 3 ok' "$tmp/time2" && ok ||
    { bad "time -o -"; sed 's/^/    /' "$tmp/time2"; }
# --retime: with a shift few CPU runs meet (halves' medians within 1e-9),
# the kernels that shifted are timed again once, said so, and keep their
# steadiest attempt: as many entries with attempts 2 as the summary line
# counts, and stable false on those whose second attempt shifted too
"$MGPROBE" time --suite tests/pocl/suite3.json --reps 8 --retime 1 --max-shift 1e-9 \
    -o "$tmp/t3.json" > "$tmp/time3" 2>&1 &&
    "$MGPROBE" check "$tmp/t3.json" > /dev/null 2>&1 &&
    rt=$(sed -n 's/^retimed \([0-9]*\) kernels whose samples shifted by more than 0%: \([0-9]*\) stable$/\1 \2/p' "$tmp/time3") &&
    [ -n "$rt" ] && [ "${rt% *}" -ge 1 ] &&
    [ "$(grep -c '"attempts": *2' "$tmp/t3.json")" = "${rt% *}" ] &&
    [ "$(grep -c '"stable": *false' "$tmp/t3.json")" = "$(( ${rt% *} - ${rt#* } ))" ] && ok ||
    { bad "time --retime"; sed 's/^/    /' "$tmp/time3"; }
# run -o -: refused (the profile has a folder of curves), no '-.curves' made
absprobe=$(cd "$(dirname "$MGPROBE")" && pwd)/$(basename "$MGPROBE")
(cd "$tmp" && "$absprobe" run -o - > run-stdout.out 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q 'needs a file name' "$tmp/run-stdout.out" && [ ! -e "$tmp/-.curves" ] &&
    ok || bad "run -o -: exit $rc, $(head -1 "$tmp/run-stdout.out")"
echo '[{"op": "matmul", "M": 0}]' > "$tmp/bad.json"
"$MGPROBE" time --suite "$tmp/bad.json" -o "$tmp/t2.json" > /dev/null 2>&1
[ $? -eq 2 ] && [ ! -e "$tmp/t2.json" ] && ok || bad "a bad suite did not exit 2"

# truth: L1d and L2 of cpu0 within a factor of 1.25
sysfs=/sys/devices/system/cpu/cpu0/cache
size_of() {  # size_of LEVEL TYPE...: bytes of that cache, or nothing
    for d in "$sysfs"/index*; do
        [ "$(cat "$d/level" 2>/dev/null)" = "$1" ] || continue
        t=$(cat "$d/type" 2>/dev/null)
        case " $2 " in *" $t "*) ;; *) continue ;; esac
        s=$(cat "$d/size" 2>/dev/null)
        case $s in *K) echo $(( ${s%K} * 1024 ));; *M) echo $(( ${s%M} * 1048576 ));; *) echo "$s";; esac
        return
    done
}
l1=$(size_of 1 "Data Unified") l2=$(size_of 2 "Unified Data")
within() { awk -v a="$1" -v b="$2" 'BEGIN { r = a / b; exit !(a > 0 && r <= 1.25 && r >= 0.8) }'; }
if [ -z "$l1" ] || [ -z "$l2" ]; then
    echo "probe: truth: skipped: $sysfs lacks the L1d or L2 size"
    ok
else
    top=$((l2 * 3))
    for try in 1 2; do
        rm -rf "$tmp/c.json" "$tmp/c.curves"
        "$MGPROBE" run --aspects cache_buffer --min-footprint $((l1 / 4)) --max-footprint $top --reps 5 \
            -o "$tmp/c.json" > "$tmp/truth" 2>&1
        m1=$("$MGPROBE" check --print cache_buffer.l1_size "$tmp/c.json" 2>/dev/null)
        m2=$("$MGPROBE" check --print cache_buffer.l2_size "$tmp/c.json" 2>/dev/null)
        echo "probe: truth: try $try: L1d $m1, L2 $m2"
        if within "$m1" "$l1" && within "$m2" "$l2"; then break; fi
    done
    echo "probe: truth: L1d $m1 bytes (sysfs $l1), L2 $m2 bytes (sysfs $l2), try $try"
    if ! within "$m1" "$l1"; then
        bad "the chase's L1d is not within 1.25 of sysfs"; sed 's/^/    /' "$tmp/truth"
    elif within "$m2" "$l2"; then
        ok
    elif grep -q '^flags.* hypervisor' /proc/cpuinfo 2>/dev/null; then
        # A guest's physically indexed L2 sees the host's 4 KiB pages: their
        # colours decide how much of it a footprint can use, differently on
        # every allocation (configs/measured/README.md), and a neighbour on
        # the SMT sibling takes its share: on this workplace's 2-vCPU VMs the
        # half-miss crossing came out 0.73-1.04 x sysfs under load (about 1
        # try in 5 under 0.8), 0.89-1.09 on a quieter machine.
        echo "probe: truth: L2 outside 1.25 on a virtual machine (host page colouring): not counted"
        ok
    else
        bad "the chase's L2 is not within 1.25 of sysfs"; sed 's/^/    /' "$tmp/truth"
    fi
fi
echo "probe: $pass passed, $fail failed"
[ $fail -eq 0 ]
