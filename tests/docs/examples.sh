#!/bin/sh
# tests/docs/examples.sh MGSIM MGPROBE [FILE.md...] - run every `$ mgsim` /
# `$ mgprobe` example of README.md, doc/*.md, traces/README.md and
# configs/README.md (or the files given) and
# compare its output with the one written under it, so that examples cannot
# go stale.  Blocks are cut by tests/docs/extract.awk and compared by
# tests/docs/match.awk (stdout and stderr merged; "..." alone on a line
# stands for any lines).  A block may be marked, on the line before its
# fence:
#   <!-- example: skip REASON -->   not run (say why: takes minutes, needs a
#                                   GPU, prints timings ...)
#   <!-- example: head N -->        only the first N lines of output are
#                                   compared
# Each block runs in a fresh folder holding configs/, tests/, traces/ and
# plots/ as trees of links to the repository's files, a writable doc/img/,
# and mgsim and mgprobe first on PATH; its commands run in one shell, in
# order.
# --update writes the actual output of every failing block without "..."
# into its document instead (review the diff, and the prose around it).
# MG_EXAMPLES_TIMEOUT (default 60) seconds per block; MG_EXAMPLES_TIMES=1
# prints each block's seconds; MG_EXAMPLES_ONLY=LINE runs only the block
# whose fence is on that line (of each file given); MG_EXAMPLES_KEEP=DIR
# keeps each block's actual output as DIR/FILE.md:LINE.out.
set -u
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
root=$(pwd)
MGSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MGPROBE=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
[ $# -gt 0 ] || set -- README.md doc/*.md traces/README.md configs/README.md
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
ln -s "$MGSIM" "$tmp/bin/mgsim"
ln -s "$MGPROBE" "$tmp/bin/mgprobe"
limit=${MG_EXAMPLES_TIMEOUT:-60}
case "$MGSIM" in *asan*) limit=${MG_EXAMPLES_TIMEOUT:-300} ;; esac   # sanitizer builds run ~5x slower
# The inputs as a tree of links: an example that writes into configs/ (its
# output is renamed into place) replaces a link, never a repository file.
mkdir -p "$tmp/farm"
for f in configs tests traces plots; do cp -rs "$root/$f" "$tmp/farm/$f"; done
pass=0 fail=0 skip=0
for md in "$@"; do
    d=$tmp/blocks/$(echo "$md" | tr / _)
    mkdir -p "$d"
    awk -v out="$d" -v src="$md" -f tests/docs/extract.awk "$md" || { echo "examples: $md: cannot parse"; exit 2; }
    n=1 todo=""
    while [ -f "$d/$n.sh" ]; do
        read -r where last marker < "$d/$n.meta" || true
        case $marker in
        skip*)
            skip=$((skip + 1)); n=$((n + 1)); continue ;;
        esac
        if [ -n "${MG_EXAMPLES_ONLY:-}" ] && [ "${where##*:}" != "$MG_EXAMPLES_ONLY" ]; then
            n=$((n + 1)); continue
        fi
        w=$tmp/work/$n
        mkdir -p "$w/doc/img"
        for f in configs tests traces plots; do ln -s "$tmp/farm/$f" "$w/$f"; done
        t0=$(date +%s)
        ( cd "$w" && PATH=$tmp/bin:$PATH timeout "$limit" sh "$d/$n.sh" ) > "$d/$n.out" 2>&1
        rc=$?
        [ -z "${MG_EXAMPLES_TIMES:-}" ] || echo "examples: $where: $(($(date +%s) - t0)) s"
        case $marker in
        head*)
            h=${marker#head }
            awk -v h="$h" '/^@@cmd [0-9]+@@$/ || k++ < h' "$d/$n.out" > "$d/$n.cut" &&
                mv "$d/$n.cut" "$d/$n.out" ;;
        esac
        if [ $rc -eq 124 ]; then
            fail=$((fail + 1))
            echo "examples: $where: FAIL: still running after $limit s (mark it skip, or shorten it)"
        elif awk -f tests/docs/match.awk "$d/$n.exp" "$d/$n.out"; then
            pass=$((pass + 1))
        elif [ $update -eq 1 ] && ! grep -qx '\.\.\.' "$d/$n.exp"; then
            todo="$n $where $last $todo"    # applied last to first, below
            echo "examples: $where: updated"
        else
            fail=$((fail + 1))
            echo "examples: $where: FAIL: output differs (- documented, + actual):"
            diff -u "$d/$n.exp" "$d/$n.out" | tail -n +3 | head -40 | sed 's/^/    /'
        fi
        [ -z "${MG_EXAMPLES_KEEP:-}" ] || cp "$d/$n.out" "$MG_EXAMPLES_KEEP/${where##*/}.out"
        rm -rf "$w"
        n=$((n + 1))
    done
    set -- $todo
    while [ $# -ge 3 ]; do
        awk -v first="${2##*:}" -v last="$3" -v outf="$d/$1.out" -v rawf="$d/$1.raw" \
            -f tests/docs/update.awk "$md" > "$tmp/new.md" && cat "$tmp/new.md" > "$md"
        shift 3
    done
done
echo "examples: $skip skipped (marked skip in the documents)"
echo "examples: $pass passed, $fail failed"
[ $fail -eq 0 ]
