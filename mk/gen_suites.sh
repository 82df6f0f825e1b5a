#!/bin/sh
# mk/gen_suites.sh [MGPROBE] - write the shipped kernel suites of
# configs/suites/, deterministically: the same script writes the
# same bytes.  Each is checked with `mgprobe time --list` (every schedule
# parses and generates) when MGPROBE is given.
#
#   pocl-small.json   11 small kernels: one of each kind, seconds on PoCL
#   h100.json         the cross-check suite for the H100: 336
#                     kernels over conv1x1, conv3x3 (stride 1 and 2),
#                     depthwise 3x3, matmul and fully connected, varying
#                     tiles, work groups, layouts (image/buffer), access
#                     patterns (row, column), fp16 storage and reduction
#                     splits (the split items of a tile in one group); shapes
#                     sized so the CPU reference check stays cheap
#
# Run from the repository root: sh mk/gen_suites.sh bin/mgprobe
set -eu
MGPROBE=${1:-}
dir=configs/suites

# emit FILE NAME DESCRIPTION: wrap the schedule lines of stdin (one JSON
# object per line) into a suite document.
emit() {
    file=$1 name=$2 desc=$3
    {
        printf '{\n  "schema": "mgsim-suite/1",\n  "name": "%s",\n' "$name"
        printf '  "description": "%s",\n  "schedules": [\n' "$desc"
        awk 'NR > 1 { print prev "," } { prev = "    " $0 } END { print prev }'
        printf '  ]\n}\n'
    } > "$file.tmp.$$"
    mv "$file.tmp.$$" "$file"
}

conv() {  # conv H W Cin Cout K stride pad depthwise tile wg layout pattern storage
    printf '{"op": "conv2d", "H": %s, "W": %s, "Cin": %s, "Cout": %s, "K": %s, "stride": %s, "pad": %s, "depthwise": %s, "tile": "%s", "wg": "%s", "layout": "%s", "pattern": "%s", "storage": "%s"}\n' "$@"
}
mm() {    # mm M N K tile wg layout split storage
    printf '{"op": "matmul", "M": %s, "N": %s, "K": %s, "tile": "%s", "wg": "%s", "layout": "%s", "split": %s, "storage": "%s"}\n' "$@"
}

small() {
    conv 8 8 16 16 1 1 0 0 1x4 8,8,1 image row fp32
    conv 8 8 16 16 1 1 0 0 2x4 4,4,1 buffer row fp32
    conv 8 8 8 8 3 1 1 0 1x4 4,4,1 image column fp32
    conv 9 9 8 16 3 2 1 0 1x4 4,4,1 buffer row fp32
    conv 8 8 16 16 3 1 1 1 1x4 8,8,1 image row fp32
    conv 8 8 16 16 3 2 1 1 2x4 4,4,1 buffer row fp16
    mm 32 32 32 4x4 8,8,1 image 1 fp32
    mm 32 32 32 2x4 8,4,1 buffer 1 fp32
    mm 1 64 128 1x4 16,1,4 buffer 4 fp32
    mm 1 64 128 1x4 16,1,1 image 1 fp32
    mm 16 64 64 4x4 16,4,1 buffer 1 fp16
}

h100() {
    # conv1x1: 4 shapes x 3 tiles x 3 work groups x 2 layouts = 72, and
    # column / block2 patterns and fp16 storage on the first shape (+24)
    for shape in "28 28 64 64" "14 14 128 128" "56 56 32 64" "7 7 256 256"; do
        for tile in 1x4 2x4 4x4; do
            for wg in 8,8,1 16,4,1 4,16,1; do
                for layout in image buffer; do
                    set -- $shape
                    conv $1 $2 $3 $4 1 1 0 0 $tile $wg $layout row fp32
                done
            done
        done
    done
    for tile in 1x4 2x4 4x4; do
        for wg in 8,8,1 16,4,1; do
            for v in "image column fp32" "buffer column fp32" "buffer row fp16" "image row fp16"; do
                set -- $v
                conv 28 28 64 64 1 1 0 0 $tile $wg $1 $2 $3
            done
        done
    done
    # conv3x3: 3 shapes x 2 tiles x 2 work groups x 2 layouts x 2 patterns = 48
    for shape in "28 28 32 32 1" "14 14 64 64 1" "29 29 32 64 2"; do
        for tile in 1x4 2x4; do
            for wg in 8,8,1 16,8,1; do
                for layout in image buffer; do
                    for pat in row column; do
                        set -- $shape
                        conv $1 $2 $3 $4 3 $5 1 0 $tile $wg $layout $pat fp32
                    done
                done
            done
        done
    done
    # depthwise 3x3: 3 shapes x 2 strides x 2 tiles x 2 work groups x 2 layouts = 48
    for shape in "56 56 64" "28 28 128" "14 14 256"; do
        for stride in 1 2; do
            for tile in 1x4 2x4; do
                for wg in 8,8,1 16,4,1; do
                    for layout in image buffer; do
                        set -- $shape
                        conv $1 $2 $3 $3 3 $stride 1 1 $tile $wg $layout row fp32
                    done
                done
            done
        done
    done
    # matmul: 4 shapes x 3 tiles x 3 work groups x 2 layouts = 72
    for shape in "256 256 256" "128 512 256" "512 128 128" "64 1024 64"; do
        for tile in 4x4 2x4 4x8; do
            for wg in 16,4,1 8,8,1 16,16,1; do
                for layout in image buffer; do
                    set -- $shape
                    mm $1 $2 $3 $tile $wg $layout 1 fp32
                done
            done
        done
    done
    # fully connected (M=1): 3 shapes x 3 splits x 2 work groups x 2 layouts = 36, + fp16 (+36)
    for shape in "1024 1024" "4096 512" "512 2048"; do
        for split in 1 4 16; do
            case $split in 1) wgs="64,1,1 128,1,1";; 4) wgs="16,1,4 32,1,4";; *) wgs="4,1,16 8,1,16";; esac
            for wg in $wgs; do
                for layout in image buffer; do
                    for st in fp32 fp16; do
                        set -- $shape
                        mm 1 $1 $2 1x4 $wg $layout $split $st
                    done
                done
            done
        done
    done
}

small | emit $dir/pocl-small.json pocl-small "one small kernel of each kind for PoCL (mk/gen_suites.sh)"
h100 | emit $dir/h100.json h100 "conv1x1, conv3x3, depthwise, matmul and FC schedules for the H100 cross-check (mk/gen_suites.sh)"
if [ -n "$MGPROBE" ]; then
    for f in $dir/pocl-small.json $dir/h100.json; do
        "$MGPROBE" time --suite "$f" --list | tail -1
    done
fi
