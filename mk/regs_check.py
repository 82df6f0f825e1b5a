#!/usr/bin/env python3
"""mk/regs_check.py MGSIM [SURVEY] - the generator's register estimate
against the compiler's counts of the compile survey (default
configs/measured/h100/cc-survey.tsv, mk/cc_survey.py's output).  For each
survey row it asks MGSIM gen for the estimate of that row's schedule now
(the survey's regs_estimate column is the estimate when surveyed) and
prints, per suite and op and per suite overall: rows, median error
(estimate - compiler), median |error|, MAPE (mean |error| / compiler, %),
and median |error| with the estimate capped at 255, the most the compiler
gives an item (above it, it spills and reports 255).

Cross-validation (--cv): the variants' 17 layers (op and shape) are split
into two halves by a fixed order (alternate layers of the sorted keys); each
half is scored alone, so constants picked on one half can be scored on the
other.  --rows FILE writes suite, index, op, layer, estimate, compiler,
error, schedule per row (tab separated)."""
import json, statistics, subprocess, sys

CC_MAX = 255
SHAPE = {"conv2d": "H W Cin Cout K stride pad depthwise".split(), "matmul": "M N K".split()}

def estimate(mgsim, sched):
    r = subprocess.run([mgsim, "gen"] + sched.split() + ["--json"], capture_output=True, text=True)
    return int(json.loads(r.stdout)["features"]["regs_per_item"])

def layer(sched):
    w = sched.split()
    kv = dict(x.split("=", 1) for x in w[1:])
    return w[0] + " " + " ".join("%s=%s" % (k, kv[k]) for k in SHAPE[w[0]])

def stats(rows):
    e = [r["err"] for r in rows]
    cap = [abs(min(r["est"], CC_MAX) - r["cc"]) for r in rows]
    return (len(e), statistics.median(e), statistics.median(abs(x) for x in e),
            100.0 * sum(abs(r["err"]) / r["cc"] for r in rows) / len(e), statistics.median(cap))

def line(name, rows):
    if not rows: return
    n, me, mae, mape, mcap = stats(rows)
    print("%-26s %5d %8.1f %8.1f %7.1f %8.1f" % (name, n, me, mae, mape, mcap))

def main(argv):
    cv = "--cv" in argv
    argv = [a for a in argv if a != "--cv"]
    out = None
    if "--rows" in argv:
        i = argv.index("--rows"); out = argv[i + 1]; del argv[i:i + 2]
    mgsim = argv[0]
    survey = argv[1] if len(argv) > 1 else "configs/measured/h100/cc-survey.tsv"
    rows = []
    for l in open(survey).read().splitlines()[1:]:
        f = l.split("\t")
        if f[3] == "-": continue
        op = f[7].split()[0]
        est = estimate(mgsim, f[7])
        rows.append(dict(suite=f[0], idx=f[1], op=op, layer=layer(f[7]), est=est,
                         cc=int(f[3]), err=est - int(f[3]), sched=f[7]))
    print("%-26s %5s %8s %8s %7s %8s" % ("suite op", "rows", "med_err", "med|err|", "MAPE%",
                                         "cap255"))
    for s in ("variants", "h100-layers", "h100-knobs"):
        for op in ("conv2d", "matmul"):
            line(s + " " + op, [r for r in rows if r["suite"] == s and r["op"] == op])
        line(s + " all", [r for r in rows if r["suite"] == s])
    if cv:
        keys = sorted({r["layer"] for r in rows if r["suite"] == "variants"})
        for h in (0, 1):
            half = set(keys[h::2])
            sel = [r for r in rows if r["suite"] == "variants" and r["layer"] in half]
            for op in ("conv2d", "matmul"):
                line("variants half%d %s" % (h, op), [r for r in sel if r["op"] == op])
            line("variants half%d all" % h, sel)
    if out:
        with open(out, "w") as f:
            for r in rows:
                f.write("\t".join(str(r[k]) for k in
                        ("suite", "idx", "op", "layer", "est", "cc", "err", "sched")) + "\n")

main(sys.argv[1:])
