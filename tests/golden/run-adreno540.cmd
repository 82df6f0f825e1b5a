$MGSIM run --config adreno540 conv2d H=28 W=28 Cin=32 Cout=32 K=3 pad=1 bias=1 act=relu tile=1x4 wg=8,8 layout=image storage=fp16 compute=fp16
