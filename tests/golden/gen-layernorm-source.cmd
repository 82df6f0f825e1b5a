$MGSIM gen layernorm M=5 N=16 layout=buffer vec=2 tile=2x1 wg=4,1,1 pattern=block2 --source
