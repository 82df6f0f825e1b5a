#!/bin/sh
# mk/gen_tiles_suite.sh [MGSIM] - write configs/suites/h100-tiles.json: the
# layer suite's 49 conv2d kernels with a 4x4 tile (4 pixels x 4 output
# channels per item), each also with a 2x4 and a 1x4 tile on a layer whose
# width is scaled (the width whose work is closest to 1/2 or 1/4 of the
# base's among those) so that the launch has the same global size: the same
# work groups and warps, the same occupancy limits apart from registers,
# and 2 or 4 times less work per item and loop iteration.  Timing them
# shows how a warp's time grows with its pixels per item at fixed
# concurrency (the layer suite's 4x4 kernels are the model's most
# under-predicted tile, configs/measured/README.md).  Deterministic: the
# same script writes the same bytes.  Run from the repository root.
set -eu
mgsim=${1:-bin/mgsim}
file=configs/suites/h100-tiles.json
src=configs/suites/h100-layers.json
python3 - "$src" "$mgsim" > "$file.tmp.$$" <<'PY'
import json, subprocess, sys
base = json.load(open(sys.argv[1]))["schedules"]
mgsim = sys.argv[2]
KEYS = ("op H W Cin Cout K stride pad depthwise layout_in layout_w layout_out tile wg "
        "pattern vec storage compute split unroll").split()

def words(s):
    return [s["op"]] + ["%s=%s" % (k, s[k]) for k in KEYS[1:] if k in s]

def launch(s):
    r = subprocess.run([mgsim, "gen"] + words(s) + ["warp=32", "--json"],
                       capture_output=True, text=True)
    if r.returncode:
        return None, 0
    j = json.loads(r.stdout)
    return j["global"], j["features"]["flops"]

out = []
for s in base:
    if s["op"] != "conv2d" or s["tile"] != "4x4":
        continue
    g, f = launch(s)
    out.append(dict(s))
    for a in (2, 1):
        t = dict(s, tile="%dx4" % a)
        best = None
        for w in range(max(1, s["W"] * a // 4 - 4), s["W"] * a // 4 + 5):
            gv, fv = launch(dict(t, W=w))
            if gv == g and (best is None or abs(fv * 4 - f * a) < best[0]):
                best = (abs(fv * 4 - f * a), w)
        if best is None:
            sys.exit("gen_tiles_suite: no width keeps the launch of %s" % " ".join(words(t)))
        out.append(dict(t, W=best[1]))
print('{\n  "schema": "mgsim-suite/1",\n  "name": "h100-tiles",')
print('  "description": "the layer suite\'s 4x4-tile conv2d kernels with 2x4 and 1x4 tiles at the same launch (mk/gen_tiles_suite.sh)",')
print('  "schedules": [')
print(",\n".join("    " + json.dumps(s) for s in out))
print("  ]\n}")
PY
mv "$file.tmp.$$" "$file"
