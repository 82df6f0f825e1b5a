$MGSIM gen matmul M=6 N=16 K=16 tile=2x8 wg=2,2,2 split=2 unroll=2 pattern=block2 layout_w=buffer --source
