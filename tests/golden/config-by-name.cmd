$MGSIM config check adreno640 mali-g76-mp5
