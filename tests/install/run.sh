#!/bin/sh
# tests/install/run.sh UNIT MGSIM - install into a temporary DESTDIR with
# PREFIX=/usr (mk/install.sh, as `make install` runs it), then, from another
# directory: the installed mgsim finds a config by name; the man pages
# render with no warning (groff -ww, man -l); the bash completion completes
# subcommands, options and config names; the example program builds
# against the installed header and library through pkg-config, shared and
# static, and predicts what `mgsim run` prints; the Python module predicts
# the same in-process; then uninstall leaves no file behind.
# BUILD is the folder of UNIT's tests/ (build/ or build/asan/).
set -u
UNIT=$1 MGSIM=$2
BUILD=$(dirname "$(dirname "$UNIT")") BINDIR=$(dirname "$MGSIM")
ABSBUILD=$(cd "$BUILD" && pwd)
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "install: FAIL: $*"; fail=$((fail + 1)); }
check() { name=$1; shift; if "$@"; then ok; else bad "$name"; fi; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
D=$tmp/dest W=$tmp/work
mkdir -p "$W"
SCHED="conv2d H=16 W=16 Cin=16 Cout=16 tile=4x4"
src=$(pwd)

if ! DESTDIR=$D PREFIX=/usr BUILD=$BUILD BINDIR=$BINDIR sh mk/install.sh install > "$tmp/inst.log" 2>&1; then
    bad "mk/install.sh install: $(tail -3 "$tmp/inst.log")"
    echo "install: $pass passed, $fail failed"; exit 1
fi
ok
cd "$W" || exit 2

# 1. the installed mgsim finds its configs by name, from another directory
"$D/usr/bin/mgsim" run --config adreno640 $SCHED > run.txt 2>&1
check "installed mgsim run --config adreno640" grep -q "^kernel conv2d on adreno640" run.txt
"$D/usr/bin/mgsim" run --config adreno640 --json $SCHED > run.json 2>/dev/null
cycles=$(sed -n 's/^time *\([0-9]*\) cycles.*/\1/p' run.txt)
SPACE=$src/tests/golden/data/space-sweep-tiny.json
best=$("$D/usr/bin/mgsim" sweep --config adreno640 --space "$SPACE" -j 2 2>/dev/null |
       sed -n 's/^best *\(#[0-9]*\) *\([0-9.]*\) us .*/\1 \2 us/p')
check "the installed configs: measured/, spaces/, rules/, suites/" \
    test -f "$D/usr/share/mgsim/configs/measured/h100/profile.json" -a \
         -f "$D/usr/share/mgsim/configs/rules/romou.json" -a \
         -f "$D/usr/share/mgsim/configs/suites/pocl-small.json" -a \
         -f "$D/usr/share/doc/mgsim/sim/MODEL.md" -a -f "$D/usr/share/doc/mgsim/LICENSE"
# the shipped networks, checked by the installed mgsim, and a network timed
# with the default rules from the installed configs
NET=$D/usr/share/mgsim/configs/networks/mobilenet_v2.json
"$D/usr/bin/mgsim" net "$NET" > net.txt 2>&1
check "installed mgsim net mobilenet_v2.json: $(head -1 net.txt)" grep -q "^MACs .*within" net.txt
"$D/usr/bin/mgsim" net --config adreno640 "$src/tests/networks/tiny.json" --only pool --no-cache \
    -j 2 -q > net-time.txt 2>&1
check "installed mgsim net --config: $(tail -1 net-time.txt)" grep -q "search   exhaustive, rules romou" net-time.txt

# 2. man pages: no groff warning, and man -l renders them silently
for p in mgsim mgprobe; do
    page=$D/usr/share/man/man1/$p.1
    check "groff -ww $p.1" test -z "$(groff -ww -z -man "$page" 2>&1)"
    if command -v man > /dev/null 2>&1; then
        MANWIDTH=80 man -l "$page" > "$p.man" 2> "$p.err"
        check "man -l $p.1 warns: $(head -2 "$p.err")" test ! -s "$p.err" -a -s "$p.man"
    fi
done

# 3. bash completion: subcommands, options, config names
if command -v bash > /dev/null 2>&1; then
    cat > comp.sh <<'EOS'
. "$1"
t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _mgsim; echo "${COMPREPLY[*]}"; }
t mgsim con; t mgsim sweep --cu; t mgsim run --config adreno64; t mgprobe ver
t mgsim ne; t mgsim net --cs; t mgsim net --config adreno64; t mgsim plot n; t mgsim import a
t mgsim sweep --sha; t mgsim run --pred; t mgsim help comp
EOS
    PATH=$D/usr/bin:$PATH bash comp.sh "$D/usr/share/bash-completion/completions/mgsim" > comp.out 2>&1
    printf 'config\n--cutoff\nadreno640\nverify\nnet\n--csv\nadreno640\nnet\narchprobe autotvm\n--shard\n--predictor\ncompare\n' > comp.exp
    check "bash completion: $(tr '\n' '|' < comp.out)" cmp -s comp.out comp.exp
fi

# 4. the example program against the installed library (skipped for a
# sanitizer build, whose library needs the sanitizer runtime first)
if nm -D "$ABSBUILD"/libmgsim.so.* 2>/dev/null | grep -q __asan; then
    echo "install: the example and the Python module skipped: a sanitizer build"
else
    export PKG_CONFIG_SYSROOT_DIR=$D PKG_CONFIG_PATH=$D/usr/lib/pkgconfig
    cp "$D/usr/share/doc/mgsim/examples/predict.c" "$D/usr/share/doc/mgsim/examples/Makefile" .
    for kind in shared static; do
        st=0; [ $kind = static ] && st=1
        rm -f predict
        # the shared library finds the configs beside itself; a static
        # program staged under DESTDIR is not at its PREFIX: MGSIM_PATH
        mp=; [ $kind = static ] && mp=$D/usr/share/mgsim/configs
        if make -s STATIC=$st predict > "build-$kind.log" 2>&1; then
            LD_LIBRARY_PATH=$D/usr/lib MGSIM_PATH=$mp ./predict adreno640 "$SCHED" "$SPACE" \
                > "predict-$kind.txt" 2>&1
            check "example ($kind) predicts $cycles cycles: $(sed -n 2p "predict-$kind.txt")" \
                grep -q ": $cycles cycles = " "predict-$kind.txt"
            check "example ($kind) sweeps to mgsim sweep's best $best: $(tail -1 "predict-$kind.txt")" \
                grep -q "^sweep: 36 candidates, 36 simulated, best $best: " "predict-$kind.txt"
        else
            bad "example ($kind) does not build: $(tail -3 "build-$kind.log")"
        fi
    done
    check "the static example needs no libmgsim.so" \
        sh -c "! ldd ./predict | grep -q libmgsim"
    # 5. the Python module, in-process, through the installed library
    if command -v python3 > /dev/null 2>&1; then
        PYTHONPATH=$D/usr/lib/python3/dist-packages python3 - "$SCHED" > py.txt 2>&1 <<'EOS'
import json, sys, mgsim
dev = mgsim.Device("adreno640")
st = dev.run(sys.argv[1])
ref = json.load(open("run.json"))
print("%.0f %s" % (st["cycles"], st["seconds"] == ref["seconds"]))
try:
    dev.run("conv2d H=0")
except mgsim.Error as e:
    print("error:", e)
EOS
        check "python: $(tr '\n' '|' < py.txt)" grep -q "^$cycles True$" py.txt
        check "python: errors raise mgsim.Error" grep -q "^error: .*H=0" py.txt
    else
        echo "install: the Python module test skipped: no python3"
    fi
fi

# 6. uninstall removes every file
cd "$src" || exit 2
DESTDIR=$D PREFIX=/usr BUILD=$BUILD BINDIR=$BINDIR sh mk/install.sh uninstall > /dev/null 2>&1
check "uninstall leaves: $(find "$D" -type f | head -3)" test -z "$(find "$D" -type f)"
echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
