$MGSIM trace stats traces/samples/small.mgt --json
