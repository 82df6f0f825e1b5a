d=$(mktemp -d); $MGSIM net --config configs/devices/adreno640.json tests/networks/tiny.json --batch 4 --screen analytic:4 -j 2 --cache $d -v; rm -rf $d
