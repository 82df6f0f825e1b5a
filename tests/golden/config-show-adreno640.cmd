$MGSIM config show configs/devices/adreno640.json
