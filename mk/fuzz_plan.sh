#!/bin/sh
# mk/fuzz_plan.sh DIR CORES SECONDS RUNS RATES TARGET... - fuzz every
# TARGET toward RUNS executions on CORES cores, everything done within
# SECONDS of wall time (a fuzz bundle's `run.sh --plan`; from the
# repository root or a bundle's).
#
# FUZZ_DONE, when set, lists summaries of earlier long runs (mk/fuzz.sh's
# TSV: doc/runs/fuzz-long*.tsv); a target's executions there, summed over
# them, count toward RUNS: it is planned for RUNS less that sum (its
# "goal"), and a target already at RUNS is left out.  Unset or empty:
# every target gets RUNS.
#
# RATES is a TSV of "target<TAB>executions per second of one process"
# (tests/fuzz/rates.tsv, measured; a target missing from it is taken at
# 500/s).  A target needs its goal/rate core-seconds.  When all of them fit
# in the cores' time (CORES x (SECONDS - FUZZ_MARGIN), less FUZZ_START
# per process), each target gets its need, scaled up
# to fill the cores (slack for a slower machine); when they do not, each
# gets at least a quarter of an equal share, then the cheapest targets
# are given their whole need first (so as many as possible reach RUNS),
# and the one after them what is left.  A target's time is cut into
# pieces: the targets are laid end to end and cut into CORES lanes of
# equal time (McNaughton's rule), a target cut at a lane's end going on
# in the next lane; each piece is a process of its share of RUNS
# (-runs) with a -max_total_time guard, and a lane runs its pieces one
# after another.  A piece's guard is its share of what its lane has left
# (so a lane that falls behind still ends on time; at least 2 s, and a
# piece whose lane has less than 2 s left is not run, counting 0
# executions); a fast machine ends pieces early at -runs, and a lane done
# with 15 s or more left (FUZZ_START + 10) runs one more piece, xLANE,
# for a target the plan left short (the neediest first, one per lane in
# turn) until the end.  All pieces of a target share its corpus.
#
# Writes DIR/goal (target, executions to run here, done before),
# DIR/plan (lane, target, piece, runs, planned seconds with its
# start-up, the target's need, the piece's fuzzing seconds; read
# "need" as core-seconds), DIR/TARGET.K.log, DIR/summary (mk/fuzz.sh: executions summed
# over the target's pieces, crashes) and FUZZ_SUMMARY when set.  Exit 1
# when any target failed.  The environment as for mk/fuzz.sh (FUZZ_BIN,
# FUZZ_SEEDS, FUZZ_WRAP, FUZZ_COMMIT), FUZZ_MARGIN (default 15): seconds
# kept at the end for the last inputs and the summary, and FUZZ_START
# (default 5): the seconds a process takes to start and run its corpus,
# planned into every piece.  FUZZ_PLAN_ONLY=1 prints the plan and stops.
set -u
[ $# -ge 6 ] || { echo "usage: mk/fuzz_plan.sh DIR CORES SECONDS RUNS RATES TARGET..." >&2; exit 2; }
dir=$1 cores=$2 budget=$3 runs=$4 rates=$5
shift 5
fuzz=${FUZZ_SH:-$(dirname "$0")/fuzz.sh}
margin=${FUZZ_MARGIN:-15}
start=${FUZZ_START:-5}
for v in "$cores" "$budget" "$runs"; do
    case $v in ''|*[!0-9]*) echo "mk/fuzz_plan.sh: CORES, SECONDS and RUNS are integers" >&2; exit 2 ;; esac
done
lane_s=$((budget - margin))
[ "$cores" -ge 1 ] && [ "$lane_s" -ge 10 ] ||
    { echo "mk/fuzz_plan.sh: need CORES >= 1 and SECONDS >= FUZZ_MARGIN + 10" >&2; exit 2; }
[ -r "$rates" ] || { echo "mk/fuzz_plan.sh: $rates: cannot read" >&2; exit 2; }
for t in "$@"; do
    [ -x "${FUZZ_BIN:-$dir}/fuzz_$t" ] ||
        { echo "mk/fuzz_plan.sh: ${FUZZ_BIN:-$dir}/fuzz_$t missing (make fuzz-build)" >&2; exit 2; }
done
mkdir -p "$dir" || exit 2

# Each target's goal: RUNS less its executions in the FUZZ_DONE summaries.
for f in ${FUZZ_DONE:-}; do
    [ -r "$f" ] || { echo "mk/fuzz_plan.sh: FUZZ_DONE: $f: cannot read" >&2; exit 2; }
done
echo "$*" | tr ' ' '\n' | awk -v R="$runs" -v files="${FUZZ_DONE:-}" '
    BEGIN { nf = split(files, f, " ")
            for (i = 1; i <= nf; i++)
                while ((getline l < f[i]) > 0)
                    if (l !~ /^#/) { split(l, c, "\t"); done[c[1]] += c[2]; if (c[2] > 0) runs[c[1]]++ } }
    NF { d = done[$1] + 0; g = R - d; if (g < 0) g = 0; printf "%s %d %d %d\n", $1, g, d, runs[$1] + 0 }' \
    > "$dir/goal" || exit 2
if [ -n "${FUZZ_DONE:-}" ]; then
    echo "fuzz-plan: $(echo $FUZZ_DONE | wc -w) earlier runs (${FUZZ_DONE}) count toward $runs:"
    awk '{ printf "fuzz-plan:   %-9s %9d done in %d runs, %9d to go%s\n", $1, $3, $4, $2,
                  ($2 > 0 ? "" : " (reached: left out)") }' "$dir/goal"
fi
set -- $(awk '$2 > 0 { print $1 }' "$dir/goal")
if [ $# -eq 0 ]; then
    echo "fuzz-plan: every target has $runs executions already; nothing to run"
    exit 0
fi
[ -n "${FUZZ_SEEDS:-}" ] || sh "$fuzz" "$dir" seeds 0 || exit 2

# The plan: "lane target piece runs seconds need fuzzing" per piece
# (seconds: planned, start-up included; need: the target's core-seconds
# for RUNS; fuzzing: this piece's share of them).
awk '$2 > 0' "$dir/goal" | awk -v C="$cores" -v T="$lane_s" -v S="$start" -v rf="$rates" '
    BEGIN { while ((getline l < rf) > 0) if (l !~ /^#/) { split(l, f, "\t"); rate[f[1]] = f[2] } }
    NF { t[++n] = $1; R[n] = $2; r = ($1 in rate) && rate[$1] > 0 ? rate[$1] : 500
         need[n] = R[n] / r; sum += need[n] }
    END {
        W = T - S; if (W < 1) W = 1            # fuzzing time of a lane-long piece
        cap = C * T - (n + C) * S              # about n + C pieces start
        if (cap < n) cap = n
        if (sum <= cap) for (i = 1; i <= n; i++) a[i] = need[i] * cap / sum
        else {
            fl = cap / (4 * n); left = cap
            for (i = 1; i <= n; i++) { a[i] = need[i] < fl ? need[i] : fl; left -= a[i]; o[i] = i }
            for (i = 1; i <= n; i++)            # by need, cheapest first
                for (j = i + 1; j <= n; j++) if (need[o[j]] < need[o[i]]) { x = o[i]; o[i] = o[j]; o[j] = x }
            for (i = 1; i <= n; i++) {
                k = o[i]; add = need[k] - a[k]; if (add > left) add = left
                a[k] += add; left -= add
            }
        }
        # McNaughton: the targets end to end, cut into lanes of T; a
        # target cut at a lane end goes on as a piece of the next lane.
        l = 1; used = 0; m = 0
        for (i = 1; i <= n; i++) {
            left = a[i]
            while (left > 1e-6) {
                room = T - used - S
                if (room < 1 && l < C) { l++; used = 0; continue }
                if (room < 1) room = left       # past the last lane: its guards trim it
                take = left < room ? left : room
                m++; pl[m] = l; pt[m] = i; pf[m] = take; ps[m] = take + S
                pk[m] = ++np[i]; pr[m] = int(R[i] * take / a[i] + 0.999999)
                used += take + S; left -= take
            }
        }
        for (q = 1; q <= m; q++)
            printf "%d %s %d %d %d %.0f %.0f\n", pl[q], t[pt[q]], pk[q], pr[q], int(ps[q] + 0.5),
                   need[pt[q]], pf[q]
    }' > "$dir/plan" || exit 2

echo "fuzz-plan: $# targets, $cores lanes of ${lane_s}s, each toward its goal ($runs$([ -n "${FUZZ_DONE:-}" ] && echo ' less earlier runs')) where the rates allow:"
awk '{ p[$2]++; f[$2] += $7; need[$2] = $6; if (!($2 in o)) o[$2] = ++n }
     END { for (t in o) printf "fuzz-plan:   %-9s %2d pieces, %6.0f core-s of fuzzing planned, %8.0f needed%s\n",
                                t, p[t], f[t], need[t], (f[t] + 1 < need[t] ? " (short)" : "") }' "$dir/plan" | sort
[ -z "${FUZZ_PLAN_ONLY:-}" ] || exit 0
for t in "$@"; do rm -f "$dir/$t".*.res "$dir/$t".*.log; done

# The targets the plan leaves short of RUNS, neediest first.
short=$(awk '{ f[$2] += $7; need[$2] = $6 } END { for (t in f) if (f[t] + 1 < need[t]) print need[t] - f[t], t }' \
        "$dir/plan" | sort -rn | awk '{ printf "%s ", $2 }')

# Each lane runs its pieces in order, each guarded by its share of the time
# the lane has left.
t0=$(date +%s)
deadline=$((t0 + lane_s))
l=1
while [ $l -le "$cores" ]; do
    awk -v l=$l '$1 == l' "$dir/plan" > "$dir/lane.$l"
    (
        while read -r _ t k r s _; do
            after=$(awk -v t="$t" -v k="$k" 'f { a += $5 } $2 == t && $3 == k { f = 1 }
                                              END { print a + 0 }' "$dir/lane.$l")
            left=$((deadline - $(date +%s)))
            guard=$((left * s / (s + after > 0 ? s + after : 1)))
            if [ "$left" -lt 2 ]; then
                echo "0 0 0" > "$dir/$t.$k.res"
                echo "fuzz: $t [$k]: no time left in lane $l; not run"
                continue
            fi
            [ "$guard" -ge 2 ] || guard=2
            FUZZ_MAX_TIME=$guard sh "$fuzz" --piece "$dir" runs "$r" "$t" "$k"
        done < "$dir/lane.$l"
        # Time left (a faster machine): a top-up for a target short of RUNS.
        left=$((deadline - $(date +%s)))
        if [ -n "$short" ] && [ "$left" -ge $((start + 10)) ]; then
            t=$(echo "$short" | awk -v l=$l '{ print $((l - 1) % NF + 1) }')
            echo "fuzz: lane $l: ${left}s left; topping up $t"
            FUZZ_MAX_TIME=$left sh "$fuzz" --piece "$dir" runs "$(awk -v t="$t" '$1 == t { print $2 }' "$dir/goal")" "$t" "x$l"
        fi
    ) &
    l=$((l + 1))
done
wait
wall=$(($(date +%s) - t0))
set --
for t in $(awk '{ print $2 }' "$dir/plan" | awk '!s[$0]++'); do
    set -- "$@" "$t:$(awk -v t="$t" '$2 == t' "$dir/plan" | wc -l | tr -d ' ')"
done
what="plan runs $runs, $cores lanes, budget ${budget}s, $wall s wall"
[ -z "${FUZZ_DONE:-}" ] ||
    what="plan runs $runs less $(echo $FUZZ_DONE | wc -w) earlier runs ($(for f in $FUZZ_DONE; do basename "$f"; done | tr '\n' ' ' | sed 's/ $//')), $cores lanes, budget ${budget}s, $wall s wall"
sh "$fuzz" --summary "$dir" "$what" "$@"
