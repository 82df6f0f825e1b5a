$MGSIM space list tests/golden/data/space-mm-small.json --limit 4
