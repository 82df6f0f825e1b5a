$MGSIM config keys --json
