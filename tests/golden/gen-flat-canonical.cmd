S=$($MGSIM gen conv2d H=8 W=8 Cin=8 Cout=8 launch=flat | sed -n 's/^schedule *//p'); $MGSIM gen $S | head -2; $MGSIM gen conv2d H=8 W=8 Cin=8 Cout=8 launch=flat wg=4,4,1
