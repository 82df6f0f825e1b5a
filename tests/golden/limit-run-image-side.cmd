$MGSIM run --config configs/devices/adreno640.json eltwise H=1 W=65536 C=8
