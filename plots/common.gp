# common.gp - loaded first by every plot script.  mgsim plot passes
#   datadir  the folder of the data files and meta.gp (the variables)
#   plotdir  this folder
#   outfile  the image to write
#   termtype 'png' or 'svg'
# and this file sets the terminal, reads meta.gp and defines the shared
# colours and marks.
# A script may set plotw, ploth (pixels) before loading this file.
if (!exists('plotw')) plotw = 960
if (!exists('ploth')) ploth = 600
if (termtype eq 'svg') {
    set terminal svg size plotw,ploth dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
} else {
    set terminal pngcairo size plotw,ploth enhanced font 'DejaVu Sans,10' background rgb 'white'
}
set output outfile
load datadir.'/meta.gp'

# Memory levels, in the model's order: tex_l1 buffer_l1 local constant l2
# dram, then any other.  A level has the same colour in every plot.
array LC[8] = [0xd62728, 0xff7f0e, 0x9467bd, 0x8c564b, 0x2ca02c, 0x1f77b4, 0x7f7f7f, 0x17becf]
# Series colours (curves, variants).
array SC[8] = [0x1f77b4, 0xd62728, 0x2ca02c, 0xff7f0e, 0x9467bd, 0x8c564b, 0xe377c2, 0x17becf]
# Filled marks: circle, square, triangle up, triangle down, diamond, pentagon.
array PT[8] = [7, 5, 9, 11, 13, 15, 7, 5]

# bytes(x): a byte count with a binary prefix, for tic labels.
bytes(x) = x >= 2**30 ? sprintf('%g GiB', x / 2**30) : x >= 2**20 ? sprintf('%g MiB', x / 2**20) : \
           x >= 1024 ? sprintf('%g KiB', x / 1024) : sprintf('%g B', x)

# v(name, i): the meta variable name.i (e.g. v('lvname', 2) is lvname2).
v(name, i) = value(sprintf('%s%d', name, i))

set encoding utf8
set border lw 1 lc rgb '#444444'
set grid xtics ytics lc rgb '#e0e0e0' lw 1 dt 1
set key noenhanced
set title noenhanced
