$MGSIM run --config configs/devices/mali-g76-mp5.json --sample 2 --json conv2d H=112 W=112 Cin=8 Cout=16 K=1 tile=1x4 wg=4,4,4
