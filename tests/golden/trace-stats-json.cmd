$MGSIM trace stats --json --line 32 --tile 8x2 traces/samples/small.mgt
