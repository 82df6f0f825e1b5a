$MGSIM validate --config configs/devices/mali-t860-mp4.json --timings tests/golden/data/timings-h100-small.json --by storag
