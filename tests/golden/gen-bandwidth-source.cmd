$MGSIM gen bandwidth mem=local pattern=row vec=2 footprint=2048 items=64 wg=32 iters=2 --source
