# validate-residuals.gp - predicted / measured per kernel by each knob's
# value, a panel per knob (mgsim plot validate-residuals / mgsim validate
# --plot-residuals; the data is described in sim/plot/plot_residuals.c).
# Log-2 y axis around 1 (a perfect prediction); a point per kernel, spread
# sideways; a red bar at each value's median.  Panels fill rows of up to
# four; a knob with more than 8 values gets a row of its own.
load datadir.'/meta.gp'
cols = npanel <= 3 ? npanel : npanel <= 4 ? 2 : npanel <= 9 ? 3 : 4
array PR[npanel]
array PC[npanel]
array PW[npanel]
r = 0
c = 0
do for [i=1:npanel] {
    if (value(sprintf('nval%d', i)) > 8) {
        if (c > 0) { r = r + 1; c = 0 }
        PR[i] = r; PC[i] = 0; PW[i] = cols
        r = r + 1
    } else {
        PR[i] = r; PC[i] = c; PW[i] = 1
        c = c + 1
        if (c == cols) { r = r + 1; c = 0 }
    }
}
rows = r + (c > 0)
plotw = 380 * cols
ploth = 290 * rows + 70
load plotdir.'/common.gp'

set multiplot title sprintf("%s simulated vs measured on %s (%d kernels of %s): predicted / measured by knob\n%s", device, timings_device, n, input, stats) noenhanced
top = 70.0 / ploth
rowh = (1 - top) / rows
set logscale y 2
set yrange [ymin:ymax]
set format y '%gx'
set ytics scale 0.5
set grid ytics lc rgb '#e0e0e0'
set key off
set tmargin 2.5
set bmargin 4.5
set lmargin 7
set samples 2
set xtics scale 0 font ',9' noenhanced
do for [i=1:npanel] {
    nv = v('nval', i)
    set origin 1.0 * PC[i] / cols, 1 - top - (PR[i] + 1) * rowh
    set size 1.0 * PW[i] / cols, rowh
    set title v('knob', i) offset 0,-0.6
    set xrange [-0.5:nv - 0.5]
    set xtics ()
    if (nv > 4) { set xtics rotate by 30 right offset 0.5,0 } else { set xtics norotate offset 0,0 }
    do for [j=1:nv] { set xtics add (value(sprintf('val%d_%d', i, j)) j - 1) }
    plot 1 with lines lw 1.5 lc rgb '#444444' notitle, \
        datadir.'/med.dat' index i-1 using 1:2:3:4 with vectors nohead lw 2.5 \
            lc rgb '#d62728' notitle, \
        datadir.'/pts.dat' index i-1 using 1:2 with points pt 7 ps 0.6 \
            lc rgb '#401f77b4' notitle
}
unset multiplot
