$MGSIM trace stats tests/bad/traces/buffer-overrun.mgt; $MGSIM trace dump tests/bad/traces/image-id.mgt 2>&1 | tail -3; $MGSIM trace stats tests/no/such.mgt
