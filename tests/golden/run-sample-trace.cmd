$MGSIM run --config configs/devices/adreno640.json --sample 3 --trace traces/samples/small.mgt
