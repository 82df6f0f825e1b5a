$MGSIM trace dump --limit 3 traces/samples/small.mgt
