$MGSIM run --config configs/devices/adreno640.json conv2d H=16 W=16 Cin=16 Cout=16 wg=1024,1024,1024
