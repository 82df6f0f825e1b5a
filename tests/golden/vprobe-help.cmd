$MGSIM vprobe --help
