$MGSIM gen pchase mem=image range=4096 stride=32 stride_y=2 W=32 iters=64 items=3 wg=2 --source
