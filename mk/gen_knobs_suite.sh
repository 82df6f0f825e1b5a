#!/bin/sh
# mk/gen_knobs_suite.sh - write configs/suites/h100-knobs.json: five of the
# layer suite's worst-predicted image-path kernels (h100-layers indices 214,
# 219, 27, 93 and 237: fp16 storage, images, the model 2-5x too fast) and,
# for each, variants that change one knob at a time (storage, each
# tensor's layout, unroll, the work group's first dimension doubled), so that timing them shows
# which knob carries the cost the model misses.  Deterministic: the same
# script writes the same bytes.  Run from the repository root.
set -eu
file=configs/suites/h100-knobs.json
src=configs/suites/h100-layers.json
python3 - "$src" > "$file.tmp.$$" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))["schedules"]
flip = {"image": "buffer", "buffer": "image"}
out = []
for i in (214, 219, 27, 93, 237):
    b = base[i]
    out.append(dict(b))
    out.append(dict(b, storage="fp32" if b["storage"] == "fp16" else "fp16"))
    for t in ("layout_in", "layout_w", "layout_out"):
        out.append(dict(b, **{t: flip[b[t]]}))
    out.append(dict(b, unroll=4 if b["unroll"] != 4 else 1))
    w = [int(x) for x in b["wg"].split(",")]
    out.append(dict(b, wg="%d,%d,%d" % (w[0] * 2, w[1], w[2])))
print('{\n  "schema": "mgsim-suite/1",\n  "name": "h100-knobs",')
print('  "description": "five worst-predicted image-path layer kernels, each with one knob changed at a time (mk/gen_knobs_suite.sh)",')
print('  "schedules": [')
print(",\n".join("    " + json.dumps(s) for s in out))
print("  ]\n}")
PY
mv "$file.tmp.$$" "$file"
