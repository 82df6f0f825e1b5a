d=$(mktemp -d) && cd $d && $MGSIM vprobe --config $OLDPWD/configs/devices/adreno640.json -o -; echo "[exit $?]"; ls; cd $OLDPWD; rm -rf $d
