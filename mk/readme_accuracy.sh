#!/bin/sh
# mk/readme_accuracy.sh [--check] [README.md] - the README's accuracy
# table, made from the committed validation reports (mgsim validate --json
# under configs/measured/) and their timings' dates, written between the
# lines <!-- accuracy:begin --> and <!-- accuracy:end --> (`make
# readme-accuracy`).  With --check, exit 1 (printing the difference) when
# the README's table is not what the reports give: make test runs this, so
# the table cannot go stale when the reports are regenerated.
# POSIX sh and awk only: the reports are mgsim's own deterministic JSON
# (one member per line), read by indentation.
set -eu
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
readme=${1:-README.md}
M=configs/measured

# One member of a report: top-level "KEY" (2 spaces in) or SECTION.KEY
# (4 spaces in, inside the top-level object SECTION).
get() {  # get FILE KEY [SECTION]
    awk -v key="$2" -v sec="${3:-}" '
        /^  "[a-z_]+": \{/ { cur = $1; gsub(/[":]/, "", cur); next }
        /^  [^ ]/ { cur = "" }
        {
            k = $1; gsub(/[":]/, "", k)
            if (k != key) next
            if ((sec == "" && /^  "/) || (sec != "" && cur == sec && /^    "/)) {
                v = $0; sub(/^[^:]*: */, "", v); sub(/,$/, "", v); gsub(/"/, "", v)
                print v; exit
            }
        }' "$1"
}
pct() { awk -v x="$1" 'BEGIN { printf "%.1f%%", x * 100 }'; }
num() { awk -v x="$1" 'BEGIN { printf "%.2f", x }'; }

row() {  # row REPORT WHAT
    r=$M/$1
    t=$(get "$r" timings)
    day=$(get "$t" date | cut -c1-10)
    cfg=$(get "$r" config)
    printf '| %s | %s | `%s` | %s | %s | %s | %s | %s | %s |\n' \
        "$2" "$(get "$r" timings_device)" "$cfg" "$(get "$r" n overall)" \
        "$(pct "$(get "$r" mape overall)")" "$(num "$(get "$r" kendall_tau_b overall)")" \
        "$(num "$(get "$r" kendall_tau_b group_mean)")" \
        "$(pct "$(get "$r" top1_regret group_mean)")" "$day"
}

# The Mali-T860 row: the matched AutoTVM records on the shipped config;
# the suite cell adds the Spearman rho of achieved GFLOPS across layers
# (the first "spearman_gflops" of the report: its --by "all" row).
row_mali() {
    r=$M/mali-t860/validate-matched.json
    rho=$(awk '/"spearman_gflops"/ { v = $2; sub(/,$/, "", v); print v; exit }' "$r")
    row mali-t860/validate-matched.json "AutoTVM's tuned conv2d and depthwise, one per layer \
and precision, the matched records (tophub log, \`mali-t860\`; Spearman of achieved GFLOPS \
across layers $(num "$rho"))" |
        sed 's/| opencl -model=rk3399 -device=mali |/| Mali-T860 MP4 (RK3399, AutoTVM log) |/'
}

# The Adreno 640 row: ArchProbe's Pixel 4 curves point by point
# (mgsim compare); MAPE is the mean error over every compared point.
row_pixel4() {
    awk '/"compared":/ { n = $2 + 0 }
         /"mean_error_pct":/ { s += n * ($2 + 0); t += n }
         END { printf "| ArchProbe curves point by point: 4 bandwidths, 2 pointer chases (`pixel4`) | Adreno 640 (Pixel 4, ArchProbe report) | `configs/devices/adreno640.json` | %d points | %.1f%% | - | - | - | - |\n", t, s / t }' \
        "$M/pixel4/compare.json"
}

table() {
    echo "| suite (kernels timed on the device) | device | config | kernels | MAPE | Kendall tau | tau within groups | top-1 regret | timed |"
    echo "|---|---|---|---|---|---|---|---|---|"
    row h100/validate.json "conv, depthwise, matmul, FC schedules (\`h100\`)"
    row h100/validate-base.json "the same, uncalibrated config"
    row h100/validate-layers.json "17 real-network layers x 20 variants (\`h100-layers\`)"
    row h100/validate-layers-base.json "the same, uncalibrated config"
    row h100/validate-diag.json "launch floor, reduction, load width, group shape (\`h100-diag\`)"
    row_mali
    row_pixel4
    row pocl/validate.json "small CPU suite (\`pocl-small\`)"
}

new=$(mktemp) && trap 'rm -f "$new" "$new.t"' EXIT
table > "$new.t"
awk -v t="$new.t" '
    /^<!-- accuracy:begin -->$/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
    /^<!-- accuracy:end -->$/ { skip = 0 }
    !skip { print }' "$readme" > "$new"
grep -q '^<!-- accuracy:begin -->$' "$readme" || { echo "$readme: no accuracy markers" >&2; exit 2; }
if [ $check -eq 1 ]; then
    if cmp -s "$new" "$readme"; then echo "readme-accuracy: 1 passed, 0 failed"; exit 0; fi
    echo "readme-accuracy: $readme's table differs from the reports (run make readme-accuracy):"
    diff "$readme" "$new" | sed 's/^/    /'
    echo "readme-accuracy: 0 passed, 1 failed"
    exit 1
fi
cp "$new" "$readme"
echo "readme-accuracy: $readme updated from $M"
