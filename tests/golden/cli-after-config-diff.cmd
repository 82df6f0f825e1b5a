$MGSIM config diff configs/devices/adreno640.json configs/devices/adreno650.json --json
