$MGSIM gen layernorm M=4096 N=4096 wg=64,1,4 split=4 storage=fp16
