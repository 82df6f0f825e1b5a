$MGSIM run --config configs/devices/adreno640.json --trace traces/samples/small.mgt
