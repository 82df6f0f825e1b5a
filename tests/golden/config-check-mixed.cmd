$MGSIM config check tests/golden/data/adreno640-unsourced.json tests/golden/data/no-such-file.json
