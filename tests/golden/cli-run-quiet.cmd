$MGSIM run -q --config adreno640 add H=28 W=28 C=32 act=relu layout=buffer | head -2; $MGSIM run --config adreno640 add H=28 W=28 C=32 act=relu layout=buffer --quiet | head -2
