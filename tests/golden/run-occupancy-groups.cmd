$MGSIM run --config configs/devices/adreno640.json regpressure regs=200 items=1024 wg=1024 iters=1
