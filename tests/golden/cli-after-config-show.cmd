$MGSIM config show configs/devices/adreno630.json --text | head -4
