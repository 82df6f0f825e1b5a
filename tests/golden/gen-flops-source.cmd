$MGSIM gen flops vec=4 chains=3 iters=16 items=100 --source
