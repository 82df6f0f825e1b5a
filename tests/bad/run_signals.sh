#!/bin/sh
# tests/bad/run_signals.sh MGSIM - outputs are all or nothing when a command
# is interrupted or fails: `gen -o` and `prune -o` stopped by SIGINT, SIGTERM
# or SIGHUP while their temporary exists leave no temporary (and gen no
# directory it created); a `gen -o` whose write fails removes the directory
# it created; `gen --no-trace -o DIR` removes DIR's stale trace.mgt; the
# temporary of a gen killed outright (SIGKILL) goes with the next gen -o.
# Commands start through `env --default-signal` (GNU coreutils): a job a
# script starts in the background would ignore SIGINT otherwise.
set -u
MGSIM=$1
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass+1)); }
bad() { echo "signals: FAIL: $*"; fail=$((fail+1)); }
env --default-signal=INT true 2>/dev/null || { bad "env --default-signal is missing"; echo "signals: $pass passed, $fail failed"; exit 1; }
sched=$("$MGSIM" space list configs/spaces/conv1x1-28x28x256x256.json --limit 1)

# interrupt SIG GLOB CMD...: start CMD, send SIG once a file matching GLOB
# exists (at most 10 s), wait for it; prints its exit status.
interrupt() {
    sig=$1 glob=$2; shift 2
    env --default-signal=INT,TERM,HUP "$@" >/dev/null 2>&1 &
    pid=$!
    n=0
    while [ $n -lt 200 ]; do
        # shellcheck disable=SC2086
        ls $glob >/dev/null 2>&1 && break
        sleep 0.05; n=$((n+1))
    done
    kill -"$sig" "$pid" 2>/dev/null
    wait "$pid"
    echo $?
}

for sig in INT TERM HUP; do
    # gen -o into a new directory: neither the temporary nor the directory stays
    rc=$(interrupt $sig "$tmp/new$sig/trace.mgt.tmp.*" "$MGSIM" gen $sched -o "$tmp/new$sig")
    [ "$rc" -gt 128 ] || bad "gen -o new dir, SIG$sig: exit status $rc, expected death by the signal"
    if [ -e "$tmp/new$sig" ]; then bad "gen -o new dir, SIG$sig: left $(ls "$tmp/new$sig")"; else ok; fi
    # gen -o into an existing directory: no temporary stays, the directory does
    mkdir -p "$tmp/old$sig"
    rc=$(interrupt $sig "$tmp/old$sig/trace.mgt.tmp.*" "$MGSIM" gen $sched -o "$tmp/old$sig")
    left=$(ls "$tmp/old$sig")
    if [ -d "$tmp/old$sig" ] && [ -z "$left" ]; then ok; else bad "gen -o old dir, SIG$sig: left '$left'"; fi
    # prune -o: no temporary stays
    rc=$(interrupt $sig "$tmp/p$sig.txt.tmp.*" "$MGSIM" prune --config configs/devices/adreno640.json \
         --space configs/spaces/conv1x1-28x28x256x256.json --rules configs/rules/romou.json -o "$tmp/p$sig.txt")
    left=$(cd "$tmp" && ls -d p$sig.* 2>/dev/null)
    if [ "$rc" -gt 128 ] && [ -z "$left" ]; then ok; else bad "prune -o, SIG$sig: exit $rc, left '$left'"; fi
done

# SIGKILL cannot be caught: the next gen -o into the directory removes the
# temporary the killed one left (its PID is gone)
mkdir -p "$tmp/kill"
rc=$(interrupt KILL "$tmp/kill/trace.mgt.tmp.*" "$MGSIM" gen $sched -o "$tmp/kill")
stale=$(cd "$tmp/kill" && ls trace.mgt.tmp.* 2>/dev/null)
"$MGSIM" gen eltwise H=8 W=8 C=4 --no-trace -o "$tmp/kill" >/dev/null 2>&1
left=$(cd "$tmp/kill" && ls trace.mgt.tmp.* 2>/dev/null)
if [ -n "$stale" ] && [ -z "$left" ]; then pass=$((pass+1))
else bad "gen -o after a SIGKILLed one: stale '$stale', left '$left'"; fi

# a failed gen -o (the trace's write fails: over the file size limit)
sh -c "ulimit -f 1000; trap '' XFSZ; exec \"$MGSIM\" gen $sched -o \"$tmp/fail\"" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/fail" ] && grep -q "write failed" "$tmp/err"; then ok
else bad "failed gen -o: exit $rc, $(ls -d "$tmp/fail" 2>&1), $(cat "$tmp/err")"; fi

# gen --no-trace -o DIR: a trace of an earlier run in DIR goes
"$MGSIM" gen eltwise H=8 W=8 C=4 -o "$tmp/nt" >/dev/null 2>&1
[ -f "$tmp/nt/trace.mgt" ] || bad "gen -o wrote no trace"
"$MGSIM" gen eltwise H=8 W=16 C=4 --no-trace -o "$tmp/nt" >/dev/null 2>&1
if [ ! -e "$tmp/nt/trace.mgt" ] && [ -f "$tmp/nt/kernel.json" ]; then ok
else bad "gen --no-trace -o: $(ls "$tmp/nt" | tr '\n' ' ')"; fi

echo "signals: $pass passed, $fail failed"
[ $fail -eq 0 ]
