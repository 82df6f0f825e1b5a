$MGSIM run --config configs/devices/adreno640.json --sample auto eltwise H=4 W=4 C=16
