$MGSIM config frob
