#!/bin/sh
# mk/run.sh MGSIM MGPROBE - the main job on the embedded default (PoCL and
# the shipped configs).  Today: validate every shipped device config
# strictly, print their headline figures, and list the OpenCL devices the
# probe can reach.  Later issues extend it with the sweep of a shipped
# search space (see README.md, "The main job").
set -eu
MGSIM=$1 MGPROBE=$2
echo "== Shipped device configs (mgsim config check --strict configs/devices/*.json)"
"$MGSIM" config check --strict configs/devices/*.json
echo
echo "== Headline figures (mgsim config summary configs/devices/*.json)"
"$MGSIM" config summary configs/devices/*.json
echo
echo "== OpenCL devices reachable by the probe (mgprobe devices)"
"$MGPROBE" devices
