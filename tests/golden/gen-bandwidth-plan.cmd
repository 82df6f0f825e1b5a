$MGSIM gen bandwidth mem=image pattern=block4 footprint=65536 items=4 wg=4 iters=3
