$MGSIM gen matmul M=1 N=4096 K=4096 tile=1x4 wg=64,1,4 split=4
