$MGSIM space count tests/golden/data/space-mm-small.json
