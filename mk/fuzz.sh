#!/bin/sh
# mk/fuzz.sh DIR MODE N TARGET... - run the libFuzzer targets fuzz_TARGET,
# from the repository root (or a fuzz bundle's root: `make fuzz-bundle`),
# each for N seconds (MODE = time) or N executions (MODE = runs).
#
# Each target's corpus is DIR/corpus/TARGET (new inputs go there), over
# its committed corpus tests/fuzz/corpus/TARGET and its seeds: the shipped
# files of its kind (configs/, tests/bad/, tests/golden/data/, sample
# traces; files under 32 KiB; each schedule line of the verify matrices
# as a file of its own, and the matrices cut at line ends into pieces of
# at most 4 KiB).  A crash, sanitizer report, leak or an
# input slower than 10 s leaves DIR/TARGET-crash-* (or -timeout-*, -leak-*;
# replay: fuzz_TARGET FILE) and fails the target.  Prints one line per
# process, then one per target and "fuzz: N passed, N failed"; exit 1 when
# any failed.
#
# The environment:
#   FUZZ_JOBS=N     processes at once (default 1)
#   FUZZ_SPLIT=K    processes per target (default 1), sharing its corpus:
#                   in runs mode each runs N/K executions (rounded up), in
#                   time mode each runs N seconds; a target's executions
#                   are their sum
#   FUZZ_SUMMARY=F  write F (TSV): a "#" line saying what ran where, then
#                   target, executions, seconds (its processes' running
#                   times, summed), processes, crashes (processes that
#                   stopped on a finding), result; `make reliability`
#                   folds it into doc/RELIABILITY.md
#   FUZZ_BIN=D      where fuzz_TARGET are (default DIR)
#   FUZZ_SEEDS=D    seeds already made (a bundle's); default DIR/seeds,
#                   filled from the repository
#   FUZZ_WRAP=CMD   a command before each fuzz_TARGET (a bundle's loader)
#   TMPDIR          the targets' scratch files; default /dev/shm when
#                   writable (five times faster for the file loaders)
#
# MODE = merge instead minimizes DIR/corpus/TARGET (what runs found, not
# the seeds, which ship anyway) into tests/fuzz/corpus/TARGET, inputs up
# to 4 KiB: `make fuzz-corpus`, after a long run, to refresh the
# committed corpus (keep it to a few hundred KiB in all).  MODE = seeds
# only fills DIR/seeds.
set -u
self=$0
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
    export TMPDIR=/dev/shm
fi

# The seed folders of target $1.
seeds_of() {
    case $1 in
        trace)   echo "$seeds/trace" ;;
        vmatrix) echo "$seeds/lines $seeds/words" ;;
        schedule) echo "$seeds/words $seeds/json" ;;
        units|vary) ;;
        *)       echo "$seeds/json" ;;
    esac
}

# The -max_len of target $1 (libFuzzer's default, the largest seed, when
# empty).  vmatrix: its matrix lines are parsed one by one, so 4 KiB (40
# lines) reaches every path of the file loop; its seeds are cut to fit.
maxlen_of() {
    case $1 in
        vmatrix) echo "-max_len=4096" ;;
    esac
}

# Split the line files $@ into $seeds/words (one schedule line each) and
# $seeds/lines (pieces of at most 4 KiB, cut at line ends).
split_lines() {
    for f in "$@"; do
        [ -f "$f" ] || continue
        base=$(echo "$f" | tr / _)
        grep -v '^[[:space:]]*#' "$f" | grep '[^[:space:]]' |
            awk -v o="$seeds/words/$base" '{ print > (o "." NR) }'
        awk -v o="$seeds/lines/$base" '
            { n = length($0) + 1
              if (size + n > 4096) { close(o "." k); k++; size = 0 }
              print > (o "." k); size += n }' k=1 size=0 "$f"
    done
}

fill_seeds() {
    rm -rf "$seeds" && mkdir -p "$seeds/json" "$seeds/trace" "$seeds/lines" "$seeds/words" ||
        exit 2
    for f in $(find configs tests/bad/configs tests/golden/data tests/plots/data \
                    -type f \( -name '*.json' -o -name '*.jsonl' \) -size -32k | sort); do
        cp "$f" "$seeds/json/$(echo "$f" | tr / _)"
    done
    cp tests/bad/traces/*.mgt traces/samples/*.mgt "$seeds/trace/"
    split_lines tests/pocl/matrix.txt tests/golden/data/*.txt
}

# The executions a log reports: the final statistics, or (after a crash)
# the last status line's count.
executions() {
    r=$(sed -n 's/^stat::number_of_executed_units: *//p' "$1" | tail -1)
    [ -n "$r" ] || r=$(sed -n 's/^#\([0-9][0-9]*\)[^0-9].*/\1/p' "$1" | tail -1)
    echo "${r:-0}"
}

# piece DIR MODE N TARGET K: one fuzzing process, its result in
# DIR/TARGET.K.res ("exit executions seconds").
piece() {
    dir=$1 mode=$2 n=$3 t=$4 k=$5 bindir=${FUZZ_BIN:-$1}
    corpus="$dir/corpus/$t" keep="tests/fuzz/corpus/$t" log="$dir/$t.$k.log"
    mkdir -p "$corpus"
    [ -d "$keep" ] || keep=""
    case $mode in
        time) limit="-max_total_time=$n" ;;
        runs) limit="-runs=$n${FUZZ_MAX_TIME:+ -max_total_time=$FUZZ_MAX_TIME}" ;;
    esac
    t0=$(date +%s)
    # shellcheck disable=SC2046,SC2086
    ${FUZZ_WRAP:-} "$bindir/fuzz_$t" $limit $(maxlen_of "$t") -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$dir/$t-" "$corpus" $keep $(seeds_of "$t") \
        </dev/null >"$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - t0)) runs=$(executions "$log")
    echo "$rc $runs $secs" > "$dir/$t.$k.res"
    if [ $rc -eq 0 ]; then
        echo "fuzz: $t [$k]: $runs executions in ${secs}s"
    else                                # one write: other processes print too
        printf '%s\n%s\n' "fuzz: $t [$k]: FAIL (exit $rc) after $runs executions; see $log:" \
            "$(grep -E 'ERROR|SUMMARY|fuzz harness|^artifact_prefix|Test unit written' "$log" |
               head -5 | sed 's/^/    /')"
    fi
}

# merge DIR TARGET: minimize the target's found inputs into its committed corpus.
merge() {
    dir=$1 t=$2 bindir=${FUZZ_BIN:-$1}
    keep="tests/fuzz/corpus/$t" tmp="$dir/merge-$t" log="$dir/$t.log"
    mkdir -p "$dir/corpus/$t" "$keep"
    rm -rf "$tmp" && mkdir -p "$tmp"
    "$bindir/fuzz_$t" -merge=1 -max_len=4096 "$tmp" "$keep" "$dir/corpus/$t" >"$log" 2>&1 &&
        rm -rf "$keep" && mv "$tmp" "$keep" &&
        echo "fuzz: $t: $(ls "$keep" | wc -l) inputs, $(du -sk "$keep" | cut -f1) KiB"
}

# report DIR TARGET K: the target's line and summary row from its K pieces
# (and its extra pieces xN); processes counts those that ran.
report() {
    dir=$1 t=$2 k=$3
    runs=0 secs=0 crashes=0 procs=0 i=1
    # pieces 1..K, then any extra ones (mk/fuzz_plan.sh's top-ups: xN)
    set -- $(while [ $i -le "$k" ]; do echo "$dir/$t.$i.res"; i=$((i + 1)); done)
    for f in "$dir/$t".x*.res; do [ -f "$f" ] && set -- "$@" "$f"; done
    for f in "$@"; do
        read -r rc r s < "$f" 2>/dev/null || { rc=-1 r=0 s=0; }
        runs=$((runs + r)) secs=$((secs + s))
        [ "$rc" -eq 0 ] || crashes=$((crashes + 1))
        [ "$rc" -eq 0 ] && [ "$r" -eq 0 ] || procs=$((procs + 1))   # "0 0 0": not run
    done
    k=$procs
    cov=$(cat "$dir/$t".*.log 2>/dev/null | grep -o 'cov: [0-9]*' | sort -t' ' -k2 -n | tail -1)
    if [ $crashes -eq 0 ]; then
        res="no crash"
        echo "fuzz: $t: $runs executions, ${cov:-cov: ?}, no crash"
    else
        res="FAIL: $(ls "$dir/$t"-* 2>/dev/null | wc -l) artifacts in $dir"
        echo "fuzz: $t: FAIL: $crashes of $k processes stopped, after $runs executions"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$runs" "$secs" "$k" "$crashes" "$res" >> "$dir/summary"
    [ $crashes -eq 0 ]
}

# summarize DIR WHAT TARGET:K...: DIR/summary ("#" lines saying WHAT ran
# where, then a row per target from its K pieces), one line per target,
# then "fuzz: N passed, N failed"; copied to FUZZ_SUMMARY when set.  Exit
# 1 when any target failed.
summarize() {
    dir=$1 what=$2
    shift 2
    {
        printf '# fuzz %s; %s, commit %s, %s, %s cores\n' "$what" "$(date -u +%Y-%m-%d)" \
            "${FUZZ_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo '?')}" \
            "$(uname -m)" "$(nproc)"
        printf '# target\texecutions\tseconds\tprocesses\tcrashes\tresult\n'
    } > "$dir/summary"
    pass=0 fail=0
    for tk in "$@"; do
        if report "$dir" "${tk%%:*}" "${tk#*:}"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
    done
    echo "fuzz: $pass passed, $fail failed"
    if [ -n "${FUZZ_SUMMARY:-}" ]; then
        mkdir -p "$(dirname "$FUZZ_SUMMARY")" &&
            cp "$dir/summary" "$FUZZ_SUMMARY.tmp.$$" && mv "$FUZZ_SUMMARY.tmp.$$" "$FUZZ_SUMMARY" &&
            echo "fuzz: wrote $FUZZ_SUMMARY"
    fi
    [ $fail -eq 0 ]
}

if [ "$1" = --summary ]; then            # mk/fuzz_plan.sh's pieces
    shift
    summarize "$@"
    exit
fi

if [ "$1" = --piece ]; then              # one process, from xargs below
    shift
    seeds=${FUZZ_SEEDS:-$1/seeds}
    piece "$@"
    exit 0
fi

dir=$1 mode=$2 n=$3
shift 3
mkdir -p "$dir" || exit 2
seeds=${FUZZ_SEEDS:-$dir/seeds}
[ -n "${FUZZ_SEEDS:-}" ] || fill_seeds
pass=0 fail=0
case $mode in
    seeds) exit 0 ;;
    merge)
        for t in "$@"; do
            if merge "$dir" "$t"; then pass=$((pass + 1))
            else echo "fuzz: $t: FAIL: merge (see $dir/$t.log)"; fail=$((fail + 1)); fi
        done
        echo "fuzz: $pass passed, $fail failed"
        [ $fail -eq 0 ]; exit ;;
    time) each=$n ;;
    runs) each=$(( (n + ${FUZZ_SPLIT:-1} - 1) / ${FUZZ_SPLIT:-1} )) ;;
    *) echo "mk/fuzz.sh: MODE is time, runs, merge or seeds" >&2; exit 2 ;;
esac
split=${FUZZ_SPLIT:-1} jobs=${FUZZ_JOBS:-1}
targets=$*
for t in "$@"; do rm -f "$dir/$t".*.res "$dir/$t".*.log; done
t0=$(date +%s)
k=1
while [ $k -le "$split" ]; do
    for t in "$@"; do echo "$t $k"; done
    k=$((k + 1))
done | xargs -P "$jobs" -L 1 sh "$self" --piece "$dir" "$mode" "$each"
wall=$(($(date +%s) - t0))
set --
for t in $targets; do set -- "$@" "$t:$split"; done
summarize "$dir" "$mode $n, $jobs processes at once, $split per target, $wall s wall" "$@"
