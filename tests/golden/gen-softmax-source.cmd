$MGSIM gen softmax M=6 N=16 tile=2x1 wg=2,1,2 split=2 pattern=column --source
