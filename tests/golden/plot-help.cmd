$MGSIM plot --help
