$MGSIM config check tests/golden/data/adreno640-whatif-typo.json
