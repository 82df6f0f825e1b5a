$MGSIM run --config configs/devices/adreno640.json --sample 0 eltwise H=4 W=4 C=16
