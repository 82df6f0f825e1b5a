$MGSIM help run | head -2; $MGSIM help config | head -1; $MGSIM help confg; echo "[exit $?]"; $MGPROBE help verify | head -1
