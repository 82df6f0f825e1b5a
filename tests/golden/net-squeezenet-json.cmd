$MGSIM net configs/networks/squeezenet_v1.json --json
