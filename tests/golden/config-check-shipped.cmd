$MGSIM config check --strict configs/devices/*.json
