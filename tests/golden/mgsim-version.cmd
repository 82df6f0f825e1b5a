$MGSIM --version
