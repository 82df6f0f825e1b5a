$MGSIM space count --json tests/golden/data/space-mm-small.json
