$MGSIM --help
