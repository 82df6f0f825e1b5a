$MGSIM calibrate --help
