d=$(mktemp -d) && $MGSIM calibrate --json --profile configs/measured/h100/profile.json --base configs/devices/nvidia-h100.json -o $d/cal.json | head -40; rm -rf $d
