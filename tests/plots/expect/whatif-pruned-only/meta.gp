# gnuplot variables written by mgsim plot
input = 'whatif-pruned-only.json'
line_1_1 = 'best kept kernel'
nlines_1 = 1
key_1 = 'tex_l1.size'
nvals_1 = 2
val_1_1 = 'x0.5'
val_1_2 = 'x2'
config = 'adreno640'
space = 'sweep-tiny'
rules = 'romou'
pruned_only = 1
nkeys = 1
base = 2.6329932239140494
basekept = -1
haskept = 0
ymin = 2.2275448012655725
ymax = 3.0768832874123881
