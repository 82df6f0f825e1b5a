$MGSIM whatif --config configs/devices/adreno640.json --space tests/golden/data/space-sweep-tiny.json --rules configs/rules/romou.json --vary tex_l1.size=x0.5,x2 -j 2 -q --csv -
