#!/bin/sh
# mk/fuzz_rates.sh FUZZDIR SECONDS OUT TARGET... - measure each fuzz
# target's executions per CPU-second of one process (what
# mk/fuzz_plan.sh plans with) and write them to OUT (TSV: a "#" line
# saying where and how, then target, executions per CPU-second,
# executions, CPU seconds).
#
# Each target runs once for SECONDS (-max_total_time) through mk/fuzz.sh
# (the same flags, seeds and committed corpus as a long run; a fresh
# corpus folder), one at a time, under /usr/bin/time.  CPU time rather
# than wall time, so that a machine shared with other work still gives a
# core's rate; the first seconds of a run (loading the seeds) count.
# From the repository root, after `make fuzz-build`.
set -u
[ $# -ge 4 ] || { echo "usage: mk/fuzz_rates.sh FUZZDIR SECONDS OUT TARGET..." >&2; exit 2; }
fz=$1 secs=$2 out=$3
shift 3
[ -x /usr/bin/time ] || { echo "mk/fuzz_rates.sh: needs /usr/bin/time (GNU time)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
FUZZ_BIN=$fz sh mk/fuzz.sh "$tmp" seeds 0 || exit 2
{
    printf '# fuzz rates: executions per CPU-second of one process, %s s each (mk/fuzz_rates.sh); %s, commit %s, %s, %s\n' \
        "$secs" "$(date -u +%Y-%m-%d)" "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" \
        "$(uname -m)" "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"
    printf '# target\trate\texecutions\tcpu_seconds\n'
} > "$tmp/rates"
for t in "$@"; do
    FUZZ_BIN=$fz FUZZ_SEEDS=$tmp/seeds FUZZ_WRAP="/usr/bin/time -o $tmp/$t.time -f %U,%S" \
        sh mk/fuzz.sh --piece "$tmp" time "$secs" "$t" 1 >/dev/null
    read -r rc runs _ < "$tmp/$t.1.res"
    cpu=$(awk -F, '{ print $1 + $2 }' "$tmp/$t.time" 2>/dev/null | tail -1)
    if [ "$rc" -ne 0 ] || [ -z "$cpu" ]; then
        echo "mk/fuzz_rates.sh: $t failed (exit $rc): $tmp/$t.1.log" >&2
        cp "$tmp/$t.1.log" "$fz/rates-$t.log" 2>/dev/null
        continue
    fi
    awk -v t="$t" -v n="$runs" -v c="$cpu" \
        'BEGIN { printf "%s\t%d\t%d\t%.2f\n", t, (c > 0 ? n / c : 0), n, c }' | tee -a "$tmp/rates"
done
cp "$tmp/rates" "$out" && echo "fuzz-rates: wrote $out"
