#!/bin/sh
# mk/reliability.sh MGSIM MGPROBE OUT - regenerate the reliability report
# OUT (doc/RELIABILITY.md; `make reliability`), from runs made now:
#   - the hostile-input corpus: every file of tests/bad/configs (config
#     check), tests/bad/traces (trace stats), every case of
#     tests/bad/cmds/CASES and every golden case whose output ends in
#     "[exit 2]", each under a 10 s timeout, with the binaries given and,
#     when `make check` built them, with build/asan/bin's (ASan+UBSan):
#     crashes (death by a signal, a sanitizer report), hangs (the timeout),
#     leftovers (*.tmp.* files anywhere under the repository or the
#     temporary folder afterwards), and whether each rejection is one
#     line with exit 2;
#   - the fuzz targets: `make fuzz` for FUZZ_SECONDS (default 8) each, the
#     executions of each as libFuzzer counted them;
#   - the summaries of the runs too long to repeat here, when RUNS_DIR
#     (default doc/runs) holds them: fuzz-long.tsv, fuzz-long-2.tsv, ...
#     (`make fuzz-long`, `make fuzz-plan` or the fuzz bundle's run.sh; the
#     executions summed per target over the runs, each run listed),
#     tsan.tsv (`make tsan`), memcheck.tsv (`make memcheck`), each with
#     the date and commit it ran on.
# Takes about 3-4 minutes on 2 cores.
set -u
MGSIM=$1 MGPROBE=$2 OUT=$3
secs=${FUZZ_SECONDS:-8} runs=${RUNS_DIR:-doc/runs}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
TMPROOT=${TMPDIR:-/tmp}
leftovers() { { find . -name '*.tmp.[0-9]*' -newer "$tmp/start" 2>/dev/null
                find "$TMPROOT" -maxdepth 3 -name '*.tmp.[0-9]*' -newer "$tmp/start" 2>/dev/null; } | wc -l; }

# case_list: NAME<TAB>KIND<TAB>shell command, one a line
case_list() {
    for f in tests/bad/configs/*.json; do printf '%s\tconfig\t$MGSIM config check %s\n' "$f" "$f"; done
    for f in tests/bad/traces/*.mgt; do printf '%s\ttrace\t$MGSIM trace stats %s\n' "$f" "$f"; done
    while IFS='	' read -r name prog args want; do
        case "$name" in ''|'#'*) continue ;; esac
        p='$MGSIM'; [ "$prog" = mgprobe ] && p='$MGPROBE'
        printf 'cmds/%s\tcmd\t%s %s\n' "$name" "$p" "$args"
    done < tests/bad/cmds/CASES
    for o in tests/golden/*.out; do
        tail -1 "$o" | grep -q '^\[exit 2\]$' || continue
        printf '%s\tgolden\t%s\n' "$o" "$(cat "${o%.out}.cmd")"
    done
}

# fuzzlong FILE: the table of a fuzz-long summary (mk/fuzz.sh).
fuzzlong() {
    echo "From \`$1\` ($(sed -n '1s/^# //p' "$1")):"
    echo
    echo "| target | executions | seconds | processes | crashes | result |"
    echo "|---|---|---|---|---|---|"
    grep -v '^#' "$1" | awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }'
    echo
    grep -v '^#' "$1" | awk -F'\t' '{ n++; if ($2 >= 10000000) r++; if ($5 > 0) c++ }
        END { printf "In this run %d of %d targets reached 10^7 executions; %d had a crash.\n", r, n, c }'
}

# fuzzsum FILE...: the executions of the long runs FILE... summed per
# target (every target of tests/fuzz/, those in no run at 0), how many
# runs gave each some, the crashes, whether the sum reaches 10^7; then
# each run's own table.
fuzzsum() {
    echo "Summed over $# run$([ $# -gt 1 ] && echo s) ($(for f in "$@"; do printf '`%s` ' "$f"; done | sed 's/ $//'));"
    echo "a run's executions count whatever the commit it ran on (each run says"
    echo "which), those of a process stopped by a finding up to the finding."
    echo "For a target that crashed, only the runs after its last crash count"
    echo "toward 10^7 (\"since\"): those ran the fixed code."
    echo
    echo "| target | executions | runs | crashes | since the last crash | 10^7 reached |"
    echo "|---|---|---|---|---|---|"
    { for f in tests/fuzz/fuzz_*.c; do t=${f##*/fuzz_}; printf '%s\t0\t0\t0\t0\n' "${t%.c}"; done
      for f in "$@"; do grep -v '^#' "$f" | awk -F'\t' '{ printf "%s\t%s\t%d\t%s\t0\n", $1, $2, ($2 > 0), $5 }'; done
    } | awk -F'\t' '{ if (!($1 in e)) o[++n] = $1; e[$1] += $2; r[$1] += $3; c[$1] += $4
                      if ($4 > 0) s[$1] = 0; else s[$1] += $2 }
        END { for (i = 1; i <= n; i++) { t = o[i]; g = c[t] > 0 ? s[t] : e[t]
                  printf "| %s | %.0f | %d | %d | %s | %s |\n", t, e[t], r[t], c[t],
                      (c[t] > 0 ? sprintf("%.0f", s[t]) : "-"),
                      (g >= 10000000 ? (c[t] > 0 ? "yes, since the last crash" : "yes") : "no, " sprintf("%.0f", 10000000 - g) " short") }
              for (i = 1; i <= n; i++) { t = o[i]; if ((c[t] > 0 ? s[t] : e[t]) >= 10000000) y++; if (c[t] > 0) k++ }
              printf "\n%d of %d targets reached 10^7 executions (a target that crashed: since its last crash), summed over the runs; %d had a crash in some run.\n", y, n, k }' \
      > "$tmp/fuzzsum"
    sed '$d' "$tmp/fuzzsum" | sed '$d'
    echo
    tail -1 "$tmp/fuzzsum"
    i=0
    for f in "$@"; do
        i=$((i + 1))
        echo
        echo "#### Run $i"
        echo
        fuzzlong "$f"
    done
}

# rtcheck FILE: the counts of a `make tsan` or `make memcheck` summary
# (mk/rtcheck.sh), its failures and what ran.
rtcheck() {
    echo "From \`$1\` ($(sed -n '1s/^# //p' "$1")):"
    echo
    grep -v '^#' "$1" | awk -F'\t' '
        { k = $1; n[k]++; s[k] += $6; if ($7 == "clean") c[k]++ }
        END { for (k in n) printf "- %s: %d run, %d clean, %d failed, %d s\n",
                  (k == "unit" ? "unit suites" : "commands"), n[k], c[k], n[k] - c[k], s[k] }' | sort -r
    grep -v '^#' "$1" | awk -F'\t' '$7 != "clean" { printf "- FAILED: %s %s%s: %s\n", $1, $2, ($3 == "-" ? "" : " -j" $3), $7 }'
    sed -n 's/^# skipped unit suites: \(.*\)/- unit suites skipped: \1/p' "$1"
    echo "- unit suites run: $(awk -F'\t' '$1 == "unit" { printf "%s ", $2 }' "$1" | sed 's/ $//')"
    echo "- commands (mk/rtcheck.sh lists them in full): $(awk -F'\t' '$1 == "cmd" {
        if ($2 in j) j[$2] = j[$2] "," $3; else { o[++n] = $2; j[$2] = $3 } }
        END { for (i = 1; i <= n; i++) printf "%s%s%s", (i > 1 ? ", " : ""), o[i],
              (j[o[i]] == "-" ? "" : " (-j " j[o[i]] ")") }' "$1")"
}

# corpus LABEL MGSIM MGPROBE: run every case, print the table row
corpus() {
    label=$1; export MGSIM=$2 MGPROBE=$3
    n=0 crash=0 hang=0 one=0 multi=0 notwo=0
    touch "$tmp/start"; sleep 1
    case_list > "$tmp/cases"
    while IFS='	' read -r name kind cmd; do
        n=$((n + 1))
        timeout 10 sh -c "$cmd" >"$tmp/out" 2>"$tmp/err" </dev/null
        rc=$?
        [ $rc -eq 124 ] && { hang=$((hang + 1)); echo "hang: $name" >> "$tmp/notes-$label"; continue; }
        if [ $rc -gt 128 ] || grep -qE 'Sanitizer|runtime error' "$tmp/err"; then
            crash=$((crash + 1)); echo "crash: $name (exit $rc)" >> "$tmp/notes-$label"
        fi
        if [ "$kind" = golden ]; then        # a script: its golden output is the check
            lines=$(($(wc -l < "$name") - 1))
        else
            [ $rc -eq 2 ] || { notwo=$((notwo + 1)); echo "exit $rc: $name" >> "$tmp/notes-$label"; }
            lines=$(cat "$tmp/out" "$tmp/err" | wc -l)
        fi
        if [ "$lines" -eq 1 ]; then one=$((one + 1))
        else
            multi=$((multi + 1))
            if [ "$kind" = golden ] && grep -q "^Try '" "$name"; then why=usage
            elif [ "$kind" = golden ]; then why=script
            else why=problems; fi
            echo "$(basename "$name" .out)" >> "$tmp/multi-$label-$why"
        fi
    done < "$tmp/cases"
    left=$(leftovers)
    echo "| $label | $n | $crash | $hang | $left | $notwo | $one | $multi |"
}

{
echo "# Reliability report"
echo
echo "Regenerated by \`make reliability\` (mk/reliability.sh) on $(date -u +%Y-%m-%d), commit"
echo "$(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(uname -m), $(nproc) cores. Every number below is from that run."
echo
echo "## Hostile inputs"
echo
echo "Every file of \`tests/bad/configs\` (\`config check\`) and \`tests/bad/traces\`"
echo "(\`trace stats\`), every case of \`tests/bad/cmds/CASES\`, and every golden case"
echo "whose output ends in \`[exit 2]\`, each under a 10 s timeout. A crash is a"
echo "death by a signal or a sanitizer report; a leftover a \`*.tmp.PID\` file left"
echo "under the repository or the temporary folder; \"exit != 2\" counts the"
echo "non-golden cases (the goldens' scripts print their own statuses, checked by"
echo "their golden output); \"one line\" counts the cases whose whole output is one"
echo "line (for a golden, its output but the \`[exit 2]\` line)."
echo
echo "| binaries | cases | crashes | hangs > 10 s | leftovers | exit != 2 | one line | more lines |"
echo "|---|---|---|---|---|---|---|---|"
corpus bin "$MGSIM" "$MGPROBE"
if [ -x build/asan/bin/mgsim ] && [ -x build/asan/bin/mgprobe ]; then
    corpus asan "$PWD/build/asan/bin/mgsim" "$PWD/build/asan/bin/mgprobe"
    asan=1
else
    asan=0
fi
echo
names() { [ -s "$1" ] && tr '\n' ' ' < "$1" | sed 's/ $//'; }
echo "The cases of more than one line (with the normal binaries), by why:"
echo
echo "- usage errors, the message and a \"Try '... --help'\" line ($(wc -l < "$tmp/multi-bin-usage" 2>/dev/null || echo 0)): $(names "$tmp/multi-bin-usage")"
echo "- inputs with several problems, one line each ($(wc -l < "$tmp/multi-bin-problems" 2>/dev/null || echo 0)): $(names "$tmp/multi-bin-problems")"
echo "- golden scripts that run several commands or print more than the"
echo "  message ($(wc -l < "$tmp/multi-bin-script" 2>/dev/null || echo 0)): $(names "$tmp/multi-bin-script")"
for l in bin asan; do
    [ -s "$tmp/notes-$l" ] && { echo; echo "Findings ($l):"; echo; sed 's/^/- /' "$tmp/notes-$l"; }
done
echo
echo "## Fuzzing"
echo
echo "\`make fuzz FUZZ_SECONDS=$secs\`: each libFuzzer target (ASan+UBSan) for $secs s of"
echo "this machine's time, from its seeds and committed corpus. 10^7"
echo "executions per target (\`make fuzz-long\`) is a run by hand of hours on"
echo "2 cores for the slow targets; these are the counts of this run:"
echo
echo "| target | executions in $secs s | result |"
echo "|---|---|---|"
make --no-print-directory fuzz FUZZ_SECONDS="$secs" > "$tmp/fuzz" 2>&1
sed -n 's/^fuzz: \([a-z]*\): \([0-9?]*\) executions, cov: [0-9?]*, \(no crash\)$/| \1 | \2 | \3 |/p;
        s/^fuzz: \([a-z]*\): FAIL:* \(.*\)$/| \1 | - | FAIL \2 |/p' "$tmp/fuzz"
grep '^fuzz: [0-9]* passed' "$tmp/fuzz" | sed 's/^/\n/'
echo
echo "### 10^7 executions per target"
echo
echo "\`make fuzz-long\` or \`make fuzz-plan\` here, or \`run.sh\` of \`make fuzz-bundle\`"
echo "on a machine without clang, writes a run's summary (\`$runs/fuzz-long.tsv\`, then"
echo "\`fuzz-long-2.tsv\`, ...); a later run plans only the targets still short of"
echo "10^7, for what they lack. The runs, summed:"
echo
set -- $( [ -f "$runs/fuzz-long.tsv" ] && echo "$runs/fuzz-long.tsv"
          ls "$runs"/fuzz-long-*.tsv 2>/dev/null |
              sed 's/.*fuzz-long-\([0-9]*\)\.tsv$/\1 &/' | sort -n | cut -d' ' -f2-)
if [ $# -gt 0 ]; then fuzzsum "$@"
else echo "No summary (\`$runs/fuzz-long*.tsv\`): no long run recorded."; fi
echo
echo "## Sanitizers"
echo
if [ $asan -eq 1 ]; then
    echo "The hostile-input corpus ran under the ASan+UBSan build (row \"asan\""
    echo "above, from \`make check\`'s build/asan/bin). The full \`make check\` (unit,"
    echo "golden, bad-input, signal, resume and plot suites under ASan+UBSan) is"
    echo "run by CI and by hand; it is not repeated here (it takes longer than this"
    echo "report's budget)."
else
    echo "build/asan/bin is missing: run \`make check\` first for the corpus under"
    echo "ASan+UBSan. The full \`make check\` is run by CI and by hand."
fi
for c in tsan memcheck; do
    echo
    if [ $c = tsan ]; then
        echo "ThreadSanitizer (\`make tsan\`: build/tsan, -fsanitize=thread; sweep, whatif"
        echo "and validate at -j 2, 3 and 4):"
    else
        echo "Valgrind (\`make memcheck\`: memcheck, full leak check; an error or a"
        echo "definite or indirect leak fails the case; sweep, whatif and validate at -j 2):"
    fi
    echo
    if [ -s "$runs/$c.tsv" ]; then rtcheck "$runs/$c.tsv"
    else echo "No summary (\`$runs/$c.tsv\`): run \`make $c\`."; fi
done
} > "$tmp/report.md"
mkdir -p "$(dirname "$OUT")" && cp "$tmp/report.md" "$OUT.tmp.$$" && mv "$OUT.tmp.$$" "$OUT"
echo "reliability: wrote $OUT"
