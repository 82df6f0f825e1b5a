#!/bin/sh
# tests/plots/run.sh MGSIM - `mgsim plot`: every kind renders from small
# inputs (committed under tests/plots/data/, the measured profiles in
# configs/measured/, and a virtual profile made here with mgsim vprobe) to
# PNG and SVG: exit 0, nothing from gnuplot on stderr (its warnings are
# bugs: an empty data block, a bad range), a non-empty file that is a PNG
# or an SVG by its magic, the same bytes twice.  Bad input (broken JSON, a
# document of the wrong kind, an unknown kind or image type, no gnuplot on
# PATH) exits 2 with a message naming the problem, prints nothing on
# stdout and leaves no image.  The scripts are found next to an installed
# binary (PREFIX/bin -> PREFIX/share/mgsim/plots) and through $MGSIM_PLOTS.
# Without gnuplot the rendering cases are skipped (reported), the others run.
set -u
MGSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
W=${MG_WRAP:-}
D=tests/plots/data
A=configs/devices/adreno640.json
pass=0 fail=0 skip=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass+1)); }
bad() { echo "plots: FAIL: $*"; fail=$((fail+1)); }

# magic FILE png|svg: is FILE a non-empty image of that type?
magic() {
    [ -s "$1" ] || return 1
    case $2 in
        png) [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ;;
        svg) head -c 400 "$1" | grep -q '<svg' ;;
    esac
}

# render NAME KIND ARGS...: PNG and SVG, checked; the PNG twice, compared.
render() {
    name=$1; shift
    for ext in png svg; do
        out=$tmp/$name.$ext
        $W "$MGSIM" plot "$@" -o "$out" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        why=""
        [ $rc -eq 0 ] || why="exit status $rc"
        [ -s "$tmp/err" ] && why="${why:+$why; }stderr not empty"
        magic "$out" $ext || why="${why:+$why; }$out is not a non-empty $ext"
        grep -qF "$out: " "$tmp/out" || why="${why:+$why; }no summary line naming $out"
        if [ -n "$why" ]; then
            bad "$name.$ext: $why"; sed 's/^/    /' "$tmp/err" | head -5
        else
            ok
        fi
    done
    $W "$MGSIM" plot "$@" -o "$tmp/$name.again.png" >/dev/null 2>&1
    if cmp -s "$tmp/$name.png" "$tmp/$name.again.png"; then ok; else bad "$name: not deterministic"; fi
}

# refuse NAME WANT ARGS...: exit 2, nothing on stdout, WANT on stderr, no image.
# $PRE (default $W) prefixes the command.
refuse() {
    name=$1 want=$2; shift 2
    ${PRE-$W} "$MGSIM" plot -o "$tmp/refused.png" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    why=""
    [ $rc -eq 2 ] || why="exit status $rc, expected 2"
    [ -s "$tmp/out" ] && why="${why:+$why; }printed on stdout"
    grep -qF -- "$want" "$tmp/err" || why="${why:+$why; }message lacks: $want"
    [ -e "$tmp/refused.png" ] && why="${why:+$why; }left an image"
    ls "$tmp" | grep -q 'refused.png.tmp' && why="${why:+$why; }left a temporary"
    if [ -n "$why" ]; then bad "$name: $why"; sed 's/^/    /' "$tmp/err" | head -5; else ok; fi
    rm -f "$tmp/refused.png"
}

have_gnuplot=0
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1

# data NAME ARGS...: the data files gnuplot reads (mgsim plot ARGS --data)
# equal tests/plots/expect/NAME/ (MG_PLOTS_UPDATE=1 rewrites them); no
# gnuplot needed.
data() {
    name=$1; shift
    rm -rf "$tmp/data-$name"
    if ! $W "$MGSIM" plot "$@" --data "$tmp/data-$name" >/dev/null 2>"$tmp/err"; then
        bad "data $name: $(head -1 "$tmp/err")"; return
    fi
    if [ -n "${MG_PLOTS_UPDATE:-}" ]; then
        rm -rf "tests/plots/expect/$name" && mkdir -p tests/plots/expect &&
            cp -r "$tmp/data-$name" "tests/plots/expect/$name" && ok; return
    fi
    if diff -r "tests/plots/expect/$name" "$tmp/data-$name" >"$tmp/diff" 2>&1; then ok
    else bad "data $name differs from tests/plots/expect/$name:"; head -20 "$tmp/diff" | sed 's/^/    /'; fi
}
# has NAME FILE TEXT WHY: the data file holds the line TEXT
has() {
    if grep -qxF -- "$3" "$tmp/data-$1/$2"; then ok; else bad "data $1: $2 lacks '$3' ($4)"; fi
}

# the model's own curves: a virtual profile of adreno640
if $W "$MGSIM" vprobe --config $A --aspects warp,regs,cache_buffer,cache_image -q \
        -o "$tmp/vprofile.json" >/dev/null 2>"$tmp/err"; then ok
else bad "mgsim vprobe failed: $(head -3 "$tmp/err")"; fi

# the data of every kind, and what the plots must say
data roofline roofline $D/run-conv1x1-image.json $D/run-conv1x1-buffer.json $D/run-matmul-fp16.json
has roofline meta.gp "input = 'run-conv1x1-image.json and 2 more'" "the title names the input"
data roofline-config roofline --config $A $D/run-conv1x1-image.json
has roofline-config meta.gp "lvname4 = 'l2'" "l2 is the 4th ceiling"
has roofline-config meta.gp "lvdt4 = 2" "l2 (96 GB/s) is dashed over constant (95 GB/s)"
has roofline-config meta.gp "lvdt3 = 2" "constant (95 GB/s) is dashed under local (103.1 GB/s)"
has roofline-config meta.gp "lvdt2 = 1" "local is solid"
data chase-model chase "$tmp/vprofile.json"
has chase-model meta.gp "vltag1 = 'L2'" "adreno640's buffers go straight to the L2"
has chase-model meta.gp "clabel1 = 'buffer (global memory); profile: L2 128 KiB'" "the key"
has chase-model meta.gp "vltag2 = 'L1'" "the texture L1"
data compare compare configs/measured/pixel4/compare.json
has compare meta.gp "cname1 = 'bw_buffer'" "the first curve"
has compare meta.gp "cerr2 = 2.84" "the image curve's mean error"
has compare meta.gp "cx2 = 8" "the image curve's points left out"
has compare meta.gp "nc = 6" "six curves"
data chase-h100 chase configs/measured/h100/profile.json
data regs-h100 regs configs/measured/h100/profile.json
data sweep sweep $D/sweep-small.jsonl
data sweep-pruned-only sweep $D/sweep-pruned-only.jsonl
has sweep-pruned-only meta.gp "pruned_only = 1" "the script leaves out best overall and regret"
has sweep-pruned-only meta.gp "npruned = 0" "no pruned candidate simulated"
data whatif whatif $D/whatif-small.json
data whatif-pruned-only whatif $D/whatif-pruned-only.json
has whatif-pruned-only meta.gp "line_1_1 = 'best kept kernel'" "after --pruned-only"
data validate validate $D/validate-small.json
has validate meta.gp "input = 'timings-h100-small.json'" "the title names the timings"
data validate-residuals validate-residuals $D/validate-residuals-small.json
data net net $D/net-tiny.json
has net net.dat "0 13.904361206688199 16.812231800834013 26.619367017987035 0 0" "conv0: the first span, tex_l1-bound"
has net meta.gp "binds = 98" "the key lists tex_l1, l2 and dram, the ceilings that bind a layer"
has net meta.gp "input = 'net-tiny.json'" "the title names the report"
if grep -q "set key .*at screen" plots/net.gp; then ok; else bad "net.gp: the utilization key is not placed outside the frame"; fi
# the scripts: µs everywhere, never "us"
if grep -n "(us\|us)" plots/*.gp >"$tmp/us"; then bad "plots write us for µs: $(head -2 "$tmp/us")"; else ok; fi

if [ $have_gnuplot -eq 1 ]; then
    # -o -: a PNG on stdout (not a terminal), no summary line mixed in
    $W "$MGSIM" plot sweep $D/sweep-pruned-only.jsonl -o - >"$tmp/stdout.png" 2>"$tmp/err"
    if [ $? -eq 0 ] && [ ! -s "$tmp/err" ] && magic "$tmp/stdout.png" png; then ok
    else bad "plot -o -: $(head -2 "$tmp/err")"; fi
    ls -a | grep -q '^-' && bad "plot -o - left a file named -"
    render sweep-pruned-only sweep $D/sweep-pruned-only.jsonl
    render whatif-pruned-only whatif $D/whatif-pruned-only.json
    render roofline roofline $D/run-conv1x1-image.json $D/run-conv1x1-buffer.json \
        $D/run-matmul-fp16.json
    render roofline-config roofline --config $A $D/run-conv1x1-image.json
    render roofline-sweep roofline --config $A $D/sweep-small.jsonl
    render compare compare configs/measured/pixel4/compare.json
    render regs-h100 regs configs/measured/h100/profile.json
    render regs-pocl regs configs/measured/pocl/profile.json
    render regs-curves regs configs/measured/h100/profile.curves/regs.json
    render regs-model regs "$tmp/vprofile.json"
    render chase-h100 chase configs/measured/h100/profile.json
    render chase-pocl chase configs/measured/pocl/profile.json
    render chase-model chase "$tmp/vprofile.json"
    render sweep sweep $D/sweep-small.jsonl
    render whatif whatif $D/whatif-small.json
    render validate validate $D/validate-small.json
    render validate-residuals validate-residuals $D/validate-residuals-small.json
    render net net $D/net-tiny.json
    # mgsim validate --plot draws the same from its own JSON
    $W "$MGSIM" validate --config configs/devices/nvidia-h100.json \
        --timings tests/golden/data/timings-h100-small.json --plot "$tmp/vp.png" \
        -o /dev/null 2>"$tmp/err"
    if [ $? -eq 0 ] && [ ! -s "$tmp/err" ] && magic "$tmp/vp.png" png; then ok
    else bad "validate --plot: $(head -2 "$tmp/err")"; fi
    $W "$MGSIM" validate --config configs/devices/nvidia-h100.json \
        --timings tests/golden/data/timings-h100-small.json --plot-residuals "$tmp/vr.svg" \
        -o /dev/null 2>"$tmp/err"
    if [ $? -eq 0 ] && [ ! -s "$tmp/err" ] && magic "$tmp/vr.svg" svg; then ok
    else bad "validate --plot-residuals: $(head -2 "$tmp/err")"; fi

    # installed layout: PREFIX/bin/mgsim finds PREFIX/share/mgsim/plots
    mkdir -p "$tmp/prefix/bin" "$tmp/prefix/share/mgsim" "$tmp/elsewhere"
    cp "$MGSIM" "$tmp/prefix/bin/mgsim" && cp -r plots "$tmp/prefix/share/mgsim/plots"
    here=$(pwd)
    if (cd "$tmp/elsewhere" && MGSIM_PLOTS= "$tmp/prefix/bin/mgsim" plot sweep \
            "$here/$D/sweep-small.jsonl" -o s.png >/dev/null 2>&1) && magic "$tmp/elsewhere/s.png" png
    then ok; else bad "an installed mgsim does not find PREFIX/share/mgsim/plots"; fi
    # MGSIM_PLOTS wins, and a folder without the script is an error
    if (cd "$tmp/elsewhere" && MGSIM_PLOTS="$here/plots" "$tmp/prefix/bin/mgsim" plot sweep \
            "$here/$D/sweep-small.jsonl" -o m.png >/dev/null 2>&1) && magic "$tmp/elsewhere/m.png" png
    then ok; else bad "MGSIM_PLOTS=plots is not used"; fi
    rm -rf "$tmp/prefix/share/mgsim/plots"
    (cd "$tmp/elsewhere" && "$tmp/prefix/bin/mgsim" plot sweep "$here/$D/sweep-small.jsonl" \
        -o n.png >/dev/null 2>"$tmp/err"); rc=$?
    if [ $rc -eq 2 ] && grep -q "cannot find the gnuplot script sweep.gp" "$tmp/err"; then ok
    else bad "no scripts: exit $rc, $(head -1 "$tmp/err")"; fi
    # validate --plot without its script: refused before simulating, nothing written
    (cd "$tmp/elsewhere" && "$tmp/prefix/bin/mgsim" validate --config "$here/configs/devices/adreno640.json" \
        --timings "$here/configs/measured/h100/latency-timings.json" --json-file v.json \
        --plot v.png -o v.txt >/dev/null 2>"$tmp/err"); rc=$?
    if [ $rc -eq 2 ] && grep -q "cannot find the gnuplot script validate.gp" "$tmp/err" &&
        [ ! -e "$tmp/elsewhere/v.json" ] && [ ! -e "$tmp/elsewhere/v.txt" ]; then ok
    else bad "validate --plot, no scripts: exit $rc, $(head -1 "$tmp/err")"; fi

    echo '{"kernel": "k", "device": "adreno640"' > "$tmp/torn.json"
    printf '{"schema":"mgsim-sweep/1","config":"adreno640"}\n{"index":0,' > "$tmp/torn.jsonl"
    printf '{"schema":"mgsim-sweep/1"}\n{"index":0,"status":"ok","seconds":-1}\n' > "$tmp/neg.jsonl"
    refuse broken-json "$tmp/torn.json:" roofline "$tmp/torn.json"
    refuse not-a-report '$.roofline: missing: not an `mgsim run --json` report' \
        roofline $D/whatif-small.json
    refuse sweep-needs-config 'give the sweep'"'"'s device config with --config' \
        roofline $D/sweep-small.jsonl
    refuse other-device "but configs/devices/nvidia-h100.json is for 'nvidia-h100'" \
        roofline --config configs/devices/nvidia-h100.json $D/run-conv1x1-image.json
    refuse profile-schema 'expected "mgsim-profile/1" (a probe profile)' regs $D/whatif-small.json
    refuse regs-wrong-curve 'expected "regs" curves, got "cache_image"' \
        regs configs/measured/h100/profile.curves/cache_image.json
    refuse chase-wrong-curve 'expected "cache_buffer" or "cache_image" curves' \
        chase configs/measured/h100/profile.curves/regs.json
    refuse sweep-not-jsonl 'not a results file of `mgsim sweep -o`' sweep $D/whatif-small.json
    refuse sweep-empty 'no simulated candidate' sweep "$tmp/torn.jsonl"
    refuse sweep-bad-record "$tmp/neg.jsonl:2: \$.seconds: expected a positive number" \
        sweep "$tmp/neg.jsonl"
    refuse whatif-schema 'expected "mgsim-whatif/1"' whatif configs/measured/h100/profile.json
    refuse validate-schema 'expected "mgsim-validate/1"' validate $D/whatif-small.json
    refuse residuals-schema 'expected "mgsim-validate/1"' validate-residuals $D/whatif-small.json
    refuse net-schema 'expected "mgsim-net-time/1"' net $D/whatif-small.json
    refuse residuals-old-report '$.residuals: missing' validate-residuals $D/validate-small.json
    refuse missing-file 'cannot open' sweep "$tmp/nonexistent.jsonl"
else
    echo "plots: gnuplot not on PATH: rendering cases skipped"
    skip=$((skip+1))
fi

# usage errors and no gnuplot: exit 2 whatever is installed
refuse unknown-kind "unknown kind 'pie'" pie $D/whatif-small.json
refuse image-type 'unknown image type (use .png or .svg' sweep $D/sweep-small.jsonl -o "$tmp/x.gif"
refuse no-input 'expected INPUT' sweep
refuse too-many 'sweep takes 1 INPUT, got 2' sweep $D/sweep-small.jsonl $D/sweep-small.jsonl
PRE="env PATH=/nonexistent" refuse no-gnuplot 'gnuplot not found on PATH' sweep $D/sweep-small.jsonl
# ... but --data alone needs no gnuplot, and writes the same data twice
if env PATH=/nonexistent "$MGSIM" plot roofline $D/run-conv1x1-image.json --data "$tmp/d1" \
        >/dev/null 2>&1 && [ -s "$tmp/d1/meta.gp" ] && [ -s "$tmp/d1/ceil.dat" ]; then ok
else bad "--data without gnuplot"; fi
$W "$MGSIM" plot roofline $D/run-conv1x1-image.json --data "$tmp/d2" >/dev/null 2>&1
if diff -r "$tmp/d1" "$tmp/d2" >/dev/null; then ok; else bad "--data: not deterministic"; fi
# a failed prepare leaves no temporary data folder behind
mkdir "$tmp/t"
TMPDIR=$tmp/t $W "$MGSIM" plot sweep $D/whatif-small.json -o "$tmp/y.png" >/dev/null 2>&1
TMPDIR=$tmp/t $W "$MGSIM" plot sweep $D/sweep-small.jsonl -o "$tmp/y.png" >/dev/null 2>&1
if [ -z "$(ls "$tmp/t")" ]; then ok; else bad "a temporary data folder was left behind"; fi

if [ $skip -gt 0 ]; then echo "plots: $pass passed, $fail failed, $skip skipped"
else echo "plots: $pass passed, $fail failed"; fi
[ $fail -eq 0 ]
