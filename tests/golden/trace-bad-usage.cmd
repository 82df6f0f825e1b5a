$MGSIM trace stats --tile 4 traces/samples/small.mgt; $MGSIM trace stats --line 0 traces/samples/small.mgt; $MGSIM trace dump; $MGSIM trace bogus
