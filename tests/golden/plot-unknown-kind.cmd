$MGSIM plot pie tests/plots/data/sweep-small.jsonl
