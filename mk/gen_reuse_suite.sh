#!/bin/sh
# mk/gen_reuse_suite.sh - write configs/suites/h100-reuse.json, the suite of
# `mlp` kernels (traces/ops/mlp.c) whose steps read each line with several
# loads (`reuse`), as the narrow loads a compiler makes of one wide vector
# load do: 4 to 32 loads a step, 1 to 8 of them per line, from the L2
# (8 MiB), at 1 warp per SM, and at 4 warps per SM for 16 and 32 loads,
# one work group per SM of the H100's 132.  Against h100-lsu (reuse 1) it
# shows whether a load that finds its line's miss still in flight counts
# as a miss in flight (sim/MODEL.md "Issue").  Deterministic: the same
# script writes the same bytes.  Run from the repository root.
set -eu
file=configs/suites/h100-reuse.json
sms=132
{
    printf '{\n  "schema": "mgsim-suite/1",\n  "name": "h100-reuse",\n'
    printf '  "description": "%s",\n  "schedules": [\n' \
        "loads that share a line: mlp chase steps of 4-32 loads, 1-8 per line, from the L2 (8 MiB), 1 and 4 warps per SM, one work group per SM"
    for w in 1 4; do
        for n in 4 8 16 24 32; do
            [ "$w" -eq 4 ] && [ "$n" -ne 16 ] && [ "$n" -ne 32 ] && continue
            for r in 1 2 4 8; do
                [ "$r" -gt "$n" ] && continue
                [ "$w" -eq 4 ] && [ "$r" -ne 1 ] && [ "$r" -ne 4 ] && continue
                printf '{"op": "mlp", "range": 8388608, "loads": %s, "reuse": %s, "iters": 2048, "items": %s, "wg": "%s,1,1"}\n' \
                    "$n" "$r" $((sms * 32 * w)) $((32 * w))
            done
        done
    done | awk 'NR > 1 { print prev "," } { prev = "    " $0 } END { print prev }'
    printf '  ]\n}\n'
} > "$file.tmp.$$"
mv "$file.tmp.$$" "$file"
