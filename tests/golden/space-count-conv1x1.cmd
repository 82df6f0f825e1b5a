$MGSIM space count configs/spaces/conv1x1-28x28x256x256.json
