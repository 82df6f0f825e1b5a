$MGSIM gen regpressure regs=181 iters=100 items=384 wg=384
