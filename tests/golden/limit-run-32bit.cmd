$MGSIM run --config configs/devices/adreno640.json eltwise H=65536 W=65536 C=65536
