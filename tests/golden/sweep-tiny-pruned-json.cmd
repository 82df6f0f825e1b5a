$MGSIM sweep --config configs/devices/adreno640.json --space tests/golden/data/space-sweep-tiny.json --rules configs/rules/romou.json --pruned-only --json -j 1 --no-progress
