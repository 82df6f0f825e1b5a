d=$(mktemp -d); $MGSIM plot roofline tests/plots/data/bad-truncated.json --data $d/x; rc=$?; rm -rf $d; exit $rc
