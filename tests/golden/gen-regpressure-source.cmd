$MGSIM gen regpressure regs=4 iters=8 items=48 wg=32 --source
