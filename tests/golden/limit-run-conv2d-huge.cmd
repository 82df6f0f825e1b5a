for l in "" "layout=buffer"; do timeout 10 $MGSIM run --config configs/devices/adreno640.json conv2d H=4096 W=4096 Cin=8192 Cout=8192 K=15 pad=7 $l; echo "rc=$?"; done
