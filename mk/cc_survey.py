#!/usr/bin/env python3
"""mk/cc_survey.py MGSIM OUTDIR - OpenCL C of the kernels whose compiled form
(registers, stack frame, spills: NVIDIA's -cl-nv-verbose) the compile survey
reads: every kernel of the h100-layers and h100-knobs suites, and for each
layer of h100-layers PER (default 48) further variants drawn from the knob
product by a fixed pseudo-random sequence.  Writes OUTDIR/NNNN.cl and
OUTDIR/manifest.tsv (file, suite, index, schedule).  Compile them on the
H100 with mk/ptxdump.c (build logs: "== FILE: build RC" then the log).

mk/cc_survey.py read MGSIM OUTDIR LOGS - the survey table on stdout, a row
per kernel: suite, index, the generator's register estimate, the compiler's
registers, stack frame, spill store and spill load bytes (from its own log,
or from an identical source's: the driver's program cache logs nothing),
schedule.  configs/measured/h100/cc-survey.tsv is its output."""
import hashlib, json, os, random, re, subprocess, sys

def read(mgsim, out, logs):
    cc = {}
    for b in open(logs).read().split("== ")[1:]:
        f = b.split(":")[0]
        st = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", b)
        rg = re.search(r"Used (\d+) registers", b)
        if rg and st: cc[f] = (int(rg.group(1)),) + tuple(map(int, st.groups()))
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(out, "manifest.tsv"))]
    src = lambda f: hashlib.sha1(open(os.path.join(out, f), "rb").read()).hexdigest()
    by_src = {src(f): cc[f] for f, *_ in rows if f in cc}
    print("suite\tindex\tregs_estimate\tregs_compiler\tstack\tspill_stores\tspill_loads\tschedule")
    for f, suite, idx, sched in rows:
        c = cc.get(f) or by_src.get(src(f))
        j = json.loads(subprocess.run([mgsim, "gen"] + sched.split() + ["--json"],
                                      capture_output=True, text=True).stdout)
        est = j["features"]["regs_per_item"]
        print("\t".join(map(str, [suite, idx, est] + (list(c) if c else ["-"] * 4) + [sched])))

if len(sys.argv) == 5 and sys.argv[1] == "read":
    read(*sys.argv[2:])
    sys.exit(0)

mgsim, out = sys.argv[1], sys.argv[2]
PER = int(os.environ.get("PER", "48"))
os.makedirs(out, exist_ok=True)
SHAPE = {"conv2d": "H W Cin Cout K stride pad depthwise".split(),
         "matmul": "M N K".split()}
KNOBS = {
    "conv": dict(tile="1x4 2x4 4x4 1x8 2x2 2x8 4x8", wg="8,8 16,4 4,16 32,2 8,4 4,4",
                 split="1 2 4", pattern="row column block2"),
    "dw": dict(tile="1x4 2x4 4x4 1x8 2x2 2x8 4x8", wg="8,8 16,4 4,16 32,2 8,4 4,4",
               split="1", pattern="row column block2"),
    "mm": dict(tile="4x4 2x4 4x8 1x4 8x4 2x8", wg="16,4 8,8 16,16 8,4", split="1 2 4",
               pattern="row"),
    "fc": dict(tile="1x4 1x8", wg="4,1 16,1 64,1", split="1 4 16", pattern="row"),
}

def canon(words):
    r = subprocess.run([mgsim, "gen"] + words, capture_output=True, text=True)
    if r.returncode: return None
    for line in r.stdout.splitlines():
        if line.startswith("schedule"): return line.split(None, 1)[1].strip()
    return None

def source(sched):
    r = subprocess.run([mgsim, "gen"] + sched.split() + ["--source"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None

rows = []
def add(suite, index, sched):
    src = source(sched)
    if src is None: return
    f = "%04d.cl" % len(rows)
    open(os.path.join(out, f), "w").write(src)
    rows.append((f, suite, index, sched))

def words_of(k):
    return [k["op"]] + ["%s=%s" % (a, b) for a, b in k.items() if a != "op"]

for suite in ("h100-layers", "h100-knobs"):
    ks = json.load(open("configs/suites/%s.json" % suite))["schedules"]
    for i, k in enumerate(ks):
        c = canon(words_of(k))
        if c: add(suite, i, c)

layers = {}
for k in json.load(open("configs/suites/h100-layers.json"))["schedules"]:
    key = tuple((a, k[a]) for a in SHAPE[k["op"]])
    layers.setdefault((k["op"], key), k)
for (op, key), k in layers.items():
    kind = "mm" if op == "matmul" and dict(key)["M"] > 1 else "fc" if op == "matmul" else \
           "dw" if dict(key)["depthwise"] else "conv"
    rnd = random.Random("%s %s" % (op, key))
    kn = KNOBS[kind]
    seen, tries = set(), 0
    base = [op] + ["%s=%s" % kv for kv in key]
    while len(seen) < PER and tries < 2000:
        tries += 1
        sp = rnd.choice(kn["split"].split())
        w = base + ["tile=" + rnd.choice(kn["tile"].split()),
                    "wg=%s,%s" % (rnd.choice(kn["wg"].split()), sp),
                    "split=" + sp,
                    "pattern=" + rnd.choice(kn["pattern"].split()),
                    "layout_in=" + rnd.choice(["image", "buffer"]),
                    "layout_w=" + rnd.choice(["image", "buffer"]),
                    "layout_out=" + rnd.choice(["image", "buffer"]),
                    "vec=" + rnd.choice("1 2 4".split()),
                    "unroll=" + rnd.choice("1 2 4 8".split()),
                    "storage=" + rnd.choice(["fp32", "fp16"])]
        c = canon(w)
        if not c or c in seen: continue
        seen.add(c)
        add("variants", len(seen) - 1, c)

with open(os.path.join(out, "manifest.tsv"), "w") as f:
    for r in rows: f.write("\t".join(map(str, r)) + "\n")
print(len(rows), "kernels")
