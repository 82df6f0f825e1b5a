$MGSIM trace --help
