#!/bin/sh
# mk/gen_lsu_suite.sh - write configs/suites/h100-lsu.json, the suite of
# `mlp` kernels (traces/ops/mlp.c) that measures what a warp's loads in
# flight together cost: 1 to 32 independent line loads per chase step,
# from the first-level cache (16 KiB), the L2 (8 MiB) and DRAM (256 MiB,
# one warp per SM only), at 1, 4 and 16 warps per SM (one work group per
# SM of the H100's 132).  Deterministic: the same script writes the same
# bytes.  Run from the repository root: sh mk/gen_lsu_suite.sh
set -eu
file=configs/suites/h100-lsu.json
sms=132
{
    printf '{\n  "schema": "mgsim-suite/1",\n  "name": "h100-lsu",\n'
    printf '  "description": "%s",\n  "schedules": [\n' \
        "a warp's loads in flight: mlp chase steps of 1-32 independent line loads, from the L1 (16 KiB), the L2 (8 MiB) and DRAM (256 MiB), 1, 4 and 16 warps per SM, one work group per SM"
    for range in 16384 8388608 268435456; do
        for w in 1 4 16; do
            [ "$range" -eq 268435456 ] && [ "$w" -ne 1 ] && continue
            for n in 1 2 3 4 6 8 12 16 24 32; do
                printf '{"op": "mlp", "range": %s, "loads": %s, "iters": 2048, "items": %s, "wg": "%s,1,1"}\n' \
                    "$range" "$n" $((sms * 32 * w)) $((32 * w))
            done
        done
    done | awk 'NR > 1 { print prev "," } { prev = "    " $0 } END { print prev }'
    printf '  ]\n}\n'
} > "$file.tmp.$$"
mv "$file.tmp.$$" "$file"
