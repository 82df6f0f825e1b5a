$MGSIM gen warpsize items=65 groups=4 iters=32 --source
