#!/usr/bin/env python3
"""tests/networks/findings/schedules.py REPORT.json - the schedules file
(mgsim-net-schedules/1) of a `mgsim net --config ... --json` report: each
simulated layer's kernel, its default warp=64 and seed=1 left out, in the
report's (execution) order.  Layers the report did not simulate get none."""
import json
import sys

rep = json.load(open(sys.argv[1]))
layers = {}
for l in rep["layers"]:
    if not l.get("simulated"):
        continue
    words = [w for w in l["schedule"].split() if w not in ("warp=64", "seed=1")]
    layers[l["name"]] = " ".join(words)
json.dump({"schema": "mgsim-net-schedules/1", "layers": layers}, sys.stdout, indent=2)
sys.stdout.write("\n")
