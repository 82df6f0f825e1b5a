$MGSIM run --config configs/devices/adreno640.json --sample auto eltwise H=224 W=224 C=32 wg=64
