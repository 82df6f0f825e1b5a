$MGSIM prune --config configs/devices/adreno640.json --space configs/spaces/conv1x1-28x28x256x256.json --rules configs/rules/romou.json --summary
