$MGSIM gen rstride2d W=64 H=32 strides=1,2,3,4 seed=5 iters=100 --source
