#!/bin/sh
# mk/fuzz.sh DIR MODE N TARGET... - run the libFuzzer targets built in DIR
# (DIR/fuzz_TARGET), from the repository root, each for N seconds
# (MODE = time) or N executions (MODE = runs).
#
# Each target's corpus is DIR/corpus/TARGET (new inputs go there), over
# its committed corpus tests/fuzz/corpus/TARGET and its seeds: the shipped
# files of its kind (configs/, tests/bad/, tests/golden/data/, sample
# traces; files under 32 KiB).  A crash, sanitizer report, leak or an
# input slower than 10 s leaves DIR/TARGET-crash-* (or -timeout-*, -leak-*;
# replay: DIR/fuzz_TARGET FILE) and fails the target.  Prints one line per
# target and "fuzz: N passed, N failed"; exit 1 when any failed.
#
# MODE = merge instead minimizes DIR/corpus/TARGET (what runs found, not
# the seeds, which ship anyway) into tests/fuzz/corpus/TARGET, inputs up
# to 4 KiB: `make fuzz-corpus`, after a long run, to refresh the
# committed corpus (keep it to a few hundred KiB in all).
set -u
dir=$1 mode=$2 n=$3
shift 3
pass=0 fail=0
seeds="$dir/seeds"

# The seed folders of target $1, filled on first use.
seeds_of() {
    case $1 in
        trace)   echo "$seeds/trace" ;;
        vmatrix) echo "$seeds/lines" ;;
        schedule) echo "$seeds/lines $seeds/json" ;;
        units|vary) ;;
        *)       echo "$seeds/json" ;;
    esac
}

fill_seeds() {
    rm -rf "$seeds" && mkdir -p "$seeds/json" "$seeds/trace" "$seeds/lines" || exit 2
    for f in $(find configs tests/bad/configs tests/golden/data tests/plots/data \
                    -type f \( -name '*.json' -o -name '*.jsonl' \) -size -32k | sort); do
        cp "$f" "$seeds/json/$(echo "$f" | tr / _)"
    done
    cp tests/bad/traces/*.mgt traces/samples/*.mgt "$seeds/trace/"
    for f in tests/pocl/matrix.txt tests/golden/data/*.txt; do
        [ -f "$f" ] && cp "$f" "$seeds/lines/$(echo "$f" | tr / _)"
    done
}

fill_seeds
for t in "$@"; do
    bin="$dir/fuzz_$t" corpus="$dir/corpus/$t" keep="tests/fuzz/corpus/$t"
    mkdir -p "$corpus" "$keep"
    log="$dir/$t.log"
    if [ "$mode" = merge ]; then
        tmp="$dir/merge-$t"
        rm -rf "$tmp" && mkdir -p "$tmp"
        "$bin" -merge=1 -max_len=4096 "$tmp" "$keep" "$corpus" >"$log" 2>&1 &&
            rm -rf "$keep" && mv "$tmp" "$keep" &&
            echo "fuzz: $t: $(ls "$keep" | wc -l) inputs, $(du -sk "$keep" | cut -f1) KiB" &&
            pass=$((pass + 1)) || { echo "fuzz: $t: FAIL: merge (see $log)"; fail=$((fail + 1)); }
        continue
    fi
    case $mode in
        time) limit="-max_total_time=$n" ;;
        runs) limit="-runs=$n" ;;
        *) echo "mk/fuzz.sh: MODE is time, runs or merge" >&2; exit 2 ;;
    esac
    # shellcheck disable=SC2046
    "$bin" $limit -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$dir/$t-" "$corpus" "$keep" $(seeds_of "$t") \
        </dev/null >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        echo "fuzz: $t: ${runs:-?} executions, ${cov:-cov: ?}, no crash"
        pass=$((pass + 1))
    else
        echo "fuzz: $t: FAIL (exit $rc) after ${runs:-?} executions; see $log:"
        grep -E 'ERROR|SUMMARY|fuzz harness|^artifact_prefix|Test unit written' "$log" |
            head -5 | sed 's/^/    /'
        fail=$((fail + 1))
    fi
done
echo "fuzz: $pass passed, $fail failed"
[ $fail -eq 0 ]
