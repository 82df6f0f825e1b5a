# parallel fusion: two 196-item convpools (3 warps and 4 lanes each) fused;
# round=none puts the 4 lanes and 60 of the second in one warp, which
# issues both bodies (slower); two 256-item ones (whole warps) time the
# same either way.
for s in 14 16; do for r in wave none; do $MGSIM run --config adreno640 fuse a=convpool:H=$s:W=$s:Cin=16:Cout=16 b=convpool:H=$s:W=$s:Cin=16:Cout=16 round=$r | sed -n 1,2p; done; done
