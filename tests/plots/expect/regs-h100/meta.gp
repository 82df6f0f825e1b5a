# gnuplot variables written by mgsim plot
input = 'profile.json'
rlabel1 = 'work group of 64 items'
rlabel2 = 'work group of 1024 items'
glabel1 = 'groups of 256 items, 236 live values'
glabel2 = 'groups of 256 items, 118 live values'
device = 'NVIDIA H100 80GB HBM3'
nr = 2
ng = 2
maxregs = 255
nfail = 4
logy = 0
logyg = 0
failtop = 9.162504187930967
