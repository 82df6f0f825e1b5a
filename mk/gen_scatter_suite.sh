#!/bin/sh
# mk/gen_scatter_suite.sh - write configs/suites/h100-scatter.json: what a
# warp's buffer load costs against the lines its lanes touch, at 1 to 16
# warps per SM.  `vload` kernels (8 independent loads per pass, 2048
# passes) over an L1-resident buffer of 256 slots: with vec=1, stride=4
# puts a warp's 32 lanes on one 128 B line, 32 on 8 lines (4 lanes a 32 B
# sector), 128 on 32 lines (a lane a line); with vec=4, stride=16 on 4
# lines, 128 on 32.  One work group of 32 W items
# per SM (132 groups, W = 1, 2, 4, 8, 16), as the layer suite's
# worst-predicted kernels run at 2-7 warps per SM with weight loads whose
# lanes are on distinct lines.  Deterministic: the same script writes the
# same bytes.  Run from the repository root.
set -eu
file=configs/suites/h100-scatter.json
for vs in 1:4 1:32 1:128 4:16 4:128; do
    v=${vs%:*} s=${vs#*:}
    for w in 1 2 4 8 16; do
        printf '{"op": "vload", "items": %s, "wg": "%s,1,1", "iters": 2048, "lines": 256, "stride": %s, "vec": %s}\n' \
            $((132 * 32 * w)) $((32 * w)) "$s" "$v"
    done
done | {
    printf '{\n  "schema": "mgsim-suite/1",\n  "name": "h100-scatter",\n'
    printf '  "description": "%s",\n  "schedules": [\n' \
        "buffer loads whose lanes touch 1, 8 or 32 lines, L1-resident, 1-16 warps per SM, one work group per SM (mk/gen_scatter_suite.sh)"
    awk 'NR > 1 { print prev "," } { prev = "    " $0 } END { print prev }'
    printf '  ]\n}\n'
} > "$file.tmp.$$"
mv "$file.tmp.$$" "$file"
