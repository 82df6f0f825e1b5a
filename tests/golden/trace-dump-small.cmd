$MGSIM trace dump traces/samples/small.mgt
