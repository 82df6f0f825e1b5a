$MGSIM run --config configs/devices/mali-g76-mp5.json --json matmul M=16 N=16 K=32 tile=2x4 wg=4,4
