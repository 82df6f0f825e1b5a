$MGSIM run --config configs/devices/mali-t860-mp4.json bandwidth mem=local footprint=16384 items=1024 wg=1024
