$MGSIM run --config configs/devices/adreno640.json matmul M=65536 N=65536 K=65536
