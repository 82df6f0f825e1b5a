$MGSIM gen softmax M=128 N=1024 tile=2x1 wg=64,1,1 pattern=block2
