#!/bin/sh
# mk/gen_texq_suite.sh - write configs/suites/h100-texq.json (and
# h100-texq-lone.json, below): the texture
# unit's cost per warp request against the distinct texels the request
# reads.  `bandwidth` kernels over an L1-resident image (mem=image,
# RGBA32F and RGBA16F), 270336 items (2048 per SM of the H100's 132),
# each making 2048 reads (32 per pass, 64 passes), with R = 1..64
# readers: item g reads as reader g % R, so a 32-lane warp's read touches
# min(R, 32) distinct texels, the rest of its lanes sharing them - as the
# weight reads of a convolution do.  pattern=column puts a request's
# texels side by side in one row, pattern=row one per row down a column,
# pattern=block8 down a column 8 rows apart (a 1x1 convolution's weight
# image read with tile=1x8).  Deterministic: the same script writes the same bytes.  Run
# from the repository root.
set -eu

# suite NAME DESCRIPTION: configs/suites/NAME.json from the schedules (one
# JSON object a line) on stdin, written to a temp file and renamed.
suite() {
    file=configs/suites/$1.json
    {
        printf '{\n  "schema": "mgsim-suite/1",\n  "name": "%s",\n' "$1"
        printf '  "description": "%s",\n  "schedules": [\n' "$2"
        awk 'NR > 1 { print prev "," } { prev = "    " $0 } END { print prev }'
        printf '  ]\n}\n'
    } > "$file.tmp.$$"
    mv "$file.tmp.$$" "$file"
}

for st in fp32 fp16; do
    tb=16; [ "$st" = fp16 ] && tb=8
    for pat in column row block8; do
        for r in 1 2 4 8 16 32 64; do
            printf '{"op": "bandwidth", "mem": "image", "footprint": %s, "items": 270336, "iters": 64, "readers": %s, "wg": "256,1,1", "pattern": "%s", "vec": 4, "storage": "%s"}\n' \
                $((tb * 32 * r)) "$r" "$pat" "$st"
        done
    done
done | suite h100-texq "texture requests: L1-resident image reads at full occupancy, 1-64 readers (distinct texels per warp request), RGBA32F/RGBA16F, texels of a request side by side in a row, down a column, or down a column 8 rows apart (block8) (mk/gen_texq_suite.sh)"

# configs/suites/h100-texq-lone.json: the same reads (one texel per lane,
# 32 distinct texels along a row, 4 down a column 8 rows apart) at 1, 2
# and 4 warps per SM, one work group per SM: what one warp's reads cost
# beyond the unit's blocks (tex_l1.unit_issue_cycles).
for st in fp32 fp16; do
    tb=16; [ "$st" = fp16 ] && tb=8
    for pr in column:1 column:32 block8:4; do
        pat=${pr%:*}; r=${pr#*:}
        for w in 1 2 4; do
            printf '{"op": "bandwidth", "mem": "image", "footprint": %s, "items": %s, "iters": 64, "readers": %s, "wg": "%s,1,1", "pattern": "%s", "vec": 4, "storage": "%s"}\n' \
                $((tb * 32 * r)) $((132 * 32 * w)) "$r" $((32 * w)) "$pat" "$st"
        done
    done
done | suite h100-texq-lone "texture requests at 1, 2 and 4 warps per SM, one work group per SM: what one partition's reads cost beyond the texture unit's blocks (mk/gen_texq_suite.sh)"
