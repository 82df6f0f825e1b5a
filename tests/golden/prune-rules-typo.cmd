$MGSIM prune --config configs/devices/adreno640.json --space tests/golden/data/space-mm-small.json --rules tests/golden/data/rules-typo.json
