cd /tmp && MGSIM_PATH=/nonexistent::$OLDPWD/configs $MGSIM run --config adreno64 eltwise H=8 W=8 C=4
