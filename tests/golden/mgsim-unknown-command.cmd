$MGSIM confg check x
