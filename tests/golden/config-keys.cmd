$MGSIM config keys
