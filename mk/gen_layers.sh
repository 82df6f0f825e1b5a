#!/bin/sh
# mk/gen_layers.sh [MGSIM] - write configs/suites/h100-layers.json: the
# realistic validation suite.  17 layers of real networks (MobileNet-V1,
# ResNet-18/50, Xception-65 in DeepLab-V3+, BERT-base, AlexNet/VGG
# classifiers), sized so that their
# kernels run for tens of microseconds to a few milliseconds on an H100,
# 20 kernel variants each (340 kernels).  A layer's variants are drawn from
# the product of every knob the search spaces vary (tile, work-group shape,
# layout of each tensor, load width, unroll, reduction split, access
# pattern, storage precision) by a fixed pseudo-random sequence, keeping
# only those `mgsim gen` accepts and that differ as schedules; the same
# script and mgsim write the same bytes.
#
# Run from the repository root: sh mk/gen_layers.sh bin/mgsim
set -eu
MGSIM=${1:-bin/mgsim}
PER=${PER:-20}                 # variants per layer
out=configs/suites/h100-layers.json

# layer NAME OP BASE KIND: PER variants of the schedule "OP BASE" whose
# knobs are drawn for KIND (conv, dw, mm, fc); one JSON object per line.
layer() {
    name=$1 op=$2 base=$3 kind=$4
    seen=$(mktemp)
    n=0
    awk -v kind="$kind" -v seed="$(printf '%s' "$name" | cksum | cut -d' ' -f1)" '
    function rnd(n) { s = (s * 1103515245 + 12345) % 2147483648; return int(s / 65536) % n }
    function pick(list,   a, k) { k = split(list, a, " "); return a[rnd(k) + 1] }
    BEGIN {
        s = seed % 2147483648
        for (i = 0; i < 4000; i++) {
            split1 = 1
            if (kind == "conv") {
                tile = pick("1x4 2x4 4x4 1x8 2x2")
                wg = pick("8,8 16,4 4,16 32,2 16,8 8,4 4,4 16,16")
                split1 = pick("1 1 1 2 4")
                pat = pick("row row column block2")
            } else if (kind == "dw") {
                tile = pick("1x4 2x4 4x4 1x8 2x2")
                wg = pick("8,8 16,4 4,16 32,2 16,8 8,4 4,4 16,16")
                pat = pick("row row column block2")
            } else if (kind == "mm") {
                tile = pick("4x4 2x4 4x8 1x4 8x4 2x8")
                wg = pick("16,4 8,8 16,16 32,4 8,16 4,16 8,4")
                split1 = pick("1 1 1 2 4")
                pat = "row"
            } else {
                tile = pick("1x4 1x8")
                split1 = pick("1 4 8 16")
                wg = pick("4 8 16 32 64 128") ",1"
                pat = "row"
            }
            printf "tile=%s wg=%s,%s split=%s pattern=%s layout_in=%s layout_w=%s layout_out=%s vec=%s unroll=%s storage=%s\n",
                tile, wg, split1, split1, pat, pick("image buffer"), pick("image buffer"),
                pick("image buffer"), pick("4 4 2 1"), pick("1 1 2 4"), pick("fp32 fp32 fp16")
        }
    }' | while read -r knobs; do
        [ "$n" -lt "$PER" ] || break
        # shellcheck disable=SC2086
        canon=$("$MGSIM" gen $op $base $knobs 2>/dev/null | sed -n 's/^schedule *//p') || continue
        [ -n "$canon" ] || continue
        grep -qxF "$canon" "$seen" && continue
        echo "$canon" >> "$seen"
        n=$((n + 1))
        echo "$canon"
    done
    rm -f "$seen"
}

# A canonical schedule line ("conv2d H=28 ... seed=1") as a suite object,
# without the warp and seed words (the device's warp; the default seed).
json() {
    awk '{
        printf "{\"op\": \"%s\"", $1
        for (i = 2; i <= NF; i++) {
            split($i, kv, "=")
            if (kv[1] == "warp" || kv[1] == "seed") continue
            if (kv[2] ~ /^[0-9]+$/) printf ", \"%s\": %s", kv[1], kv[2]
            else printf ", \"%s\": \"%s\"", kv[1], kv[2]
        }
        print "}"
    }'
}

layers() {
    # conv 1x1 (pointwise): MobileNet-V1, ResNet-50
    layer pw28 conv2d "H=28 W=28 Cin=256 Cout=256 K=1" conv
    layer pw14 conv2d "H=14 W=14 Cin=512 Cout=512 K=1" conv
    layer pw56 conv2d "H=56 W=56 Cin=64 Cout=256 K=1" conv
    layer pw7 conv2d "H=7 W=7 Cin=1024 Cout=1024 K=1" conv
    # conv 3x3: ResNet-18's stages and its stride-2 downsampling
    layer c3x56 conv2d "H=56 W=56 Cin=64 Cout=64 K=3 pad=1" conv
    layer c3x28 conv2d "H=28 W=28 Cin=128 Cout=128 K=3 pad=1" conv
    layer c3x14 conv2d "H=14 W=14 Cin=256 Cout=256 K=3 pad=1" conv
    layer c3s2 conv2d "H=56 W=56 Cin=64 Cout=128 K=3 stride=2 pad=1" conv
    # depthwise 3x3: DeepLab-V3+'s Xception-65 entry flow at 513x513 (stride
    # 1 and 2); the depthwise layers of 224x224 MobileNets run under 30 us
    layer dw257 conv2d "H=257 W=257 Cin=128 Cout=128 K=3 pad=1 depthwise=1" dw
    layer dw257s2 conv2d "H=257 W=257 Cin=128 Cout=128 K=3 stride=2 pad=1 depthwise=1" dw
    layer dw129 conv2d "H=129 W=129 Cin=256 Cout=256 K=3 pad=1 depthwise=1" dw
    # matmul: BERT-base (512 tokens QKV, 128 tokens FFN), a square one
    layer qkv matmul "M=512 N=768 K=768" mm
    layer ffn1 matmul "M=128 N=3072 K=768" mm
    layer ffn2 matmul "M=128 N=768 K=3072" mm
    layer sq512 matmul "M=512 N=512 K=512" mm
    # fully connected (M=1): AlexNet fc6, VGG fc7
    layer fc6 matmul "M=1 N=4096 K=9216" fc
    layer fc7 matmul "M=1 N=4096 K=4096" fc
}

tmp=$out.tmp.$$
{
    printf '{\n  "schema": "mgsim-suite/1",\n  "name": "h100-layers",\n'
    printf '  "description": "17 real-network layers (MobileNet-V1, ResNet-18/50, Xception-65, BERT-base, AlexNet/VGG FC) x %s variants over every knob, sized for 30 us - 2 ms on an H100 (mk/gen_layers.sh)",\n  "schedules": [\n' "$PER"
    layers | json | awk 'NR > 1 { print prev "," } { prev = "    " $0 } END { print prev }'
    printf '  ]\n}\n'
} > "$tmp"
mv "$tmp" "$out"
echo "$out: $(grep -c '"op"' "$out") schedules"
