$MGSIM config check --bogus configs/devices/adreno640.json
