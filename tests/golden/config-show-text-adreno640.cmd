$MGSIM config show --text configs/devices/adreno640.json
