$MGSIM validate --config configs/devices/nvidia-h100.json --timings tests/golden/data/timings-h100-small.json -q --csv -
