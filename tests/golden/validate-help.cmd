$MGSIM validate --help
