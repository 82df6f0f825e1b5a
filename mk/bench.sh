#!/bin/sh
# mk/bench.sh BENCHDIR - run the benchmarks and print their figures, with the
# commit and the machine.  Nothing is asserted (see README: speed is
# measured here, never in tests).
set -eu
B=$1
echo "mgsim bench: commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)," \
     "$(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
"$B/bench_config" configs/devices/adreno640.json 1
"$B/bench_gen" conv2d H=56 W=56 Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 layout=image
"$B/bench_sim" configs/devices/adreno640.json conv2d H=56 W=56 Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 layout=image storage=fp16
