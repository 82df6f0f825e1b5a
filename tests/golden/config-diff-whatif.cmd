$MGSIM config diff configs/devices/adreno640.json tests/golden/data/adreno640-l1-4k.json
