$MGSIM config --help
