$MGSIM config check configs/devices/adreno640.json --strict
