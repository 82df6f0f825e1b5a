d=$(mktemp -d); $MGSIM plot roofline tests/plots/data/run-conv1x1-image.json --config configs/devices/nvidia-h100.json --data $d/x; rc=$?; rm -rf $d; exit $rc
