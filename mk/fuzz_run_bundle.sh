#!/bin/sh
# mk/fuzz_run_bundle.sh TARBALL SECONDS [CORES] - unpack a fuzz bundle
# (`make fuzz-bundle`'s build/fuzz-bundle.tar.gz) into a scratch folder,
# run its plan (`run.sh --plan CORES SECONDS`, CORES default nproc) and
# copy the results into $OUT (default ./fuzz-results): summary.tsv (to
# commit as the next doc/runs/fuzz-long-N.tsv, which `make reliability`
# sums with the earlier runs), goal, plan, run.out and
# logs.tgz (every process's log and any crash-, timeout-, leak-, oom- or
# slow-unit- finding).  For a machine without clang or a checkout of its
# own, such as a device run; the whole takes SECONDS plus about 5 s.
# Exit status: run.sh's (1 when a target failed), 2 on a bad bundle.
set -u
[ $# -ge 2 ] || { echo "usage: mk/fuzz_run_bundle.sh TARBALL SECONDS [CORES]" >&2; exit 2; }
tb=$1 secs=$2 cores=${3:-$(nproc)}
dest=${OUT:-$PWD/fuzz-results}
case $tb in /*) ;; *) tb=$PWD/$tb ;; esac
w=$(mktemp -d) || exit 2
trap 'rm -rf "$w"' EXIT
tar xzf "$tb" -C "$w" && [ -x "$w/fuzz-bundle/run.sh" ] ||
    { echo "mk/fuzz_run_bundle.sh: $tb is not a fuzz bundle" >&2; exit 2; }
(cd "$w/fuzz-bundle" && ./run.sh --plan "$cores" "$secs") > "$w/run.out" 2>&1
rc=$?
mkdir -p "$dest" || exit 2
cp "$w/run.out" "$dest/"
cp "$w/fuzz-bundle/summary.tsv" "$w/fuzz-bundle/out/goal" "$w/fuzz-bundle/out/plan" "$dest/" 2>/dev/null
(cd "$w/fuzz-bundle/out" &&
    tar czf "$dest/logs.tgz" $(ls | grep -E '\.log$|-(crash|timeout|leak|oom|slow-unit)-'))
grep -v '^fuzz: [a-z]* \[' "$w/run.out" | tail -40
echo "fuzz-run-bundle: run.sh exit $rc; $(nproc) cores; results in $dest"
exit $rc
