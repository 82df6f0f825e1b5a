# gnuplot variables written by mgsim plot
input = 'vprofile.json'
ckind1 = 1
vlx1 = 131072
vlk1 = 1
vltag1 = 'L2'
clabel1 = 'buffer (global memory); profile: L2 128 KiB'
ckind2 = 2
vlx2 = 1024
vlk2 = 2
vltag2 = 'L1'
clabel2 = 'image (texture path); profile: L1 1 KiB'
device = 'adreno640 (virtual)'
nc = 2
nvl = 2
logy = 0
