# compare.gp - a measured profile's curves against a model's, point by
# point (mgsim plot compare; the data is described in
# sim/plot/plot_compare.c): a panel per curve, the measured points, the
# model's line, and rings on the points the comparison leaves out (the
# report says why); each title gives the mean error over the compared ones.
plotw = 1200
ploth = 420 * 3
load plotdir.'/common.gp'

cols = 2
rows = int((nc + cols - 1) / cols)
set multiplot layout rows, cols title sprintf("measured: %s\nmodel: %s", measured, model) noenhanced
set logscale x 2
set xtics ()
do for [e=0:40:2] { set xtics add (bytes(2**e) 2**e) }
set xtics rotate by 30 right font ',8'
set mxtics 2
set grid xtics ytics lc rgb '#e8e8e8'
set bmargin 6
set key bmargin center horizontal Left reverse samplen 2 font ',9'
do for [i=1:nc] {
    set title sprintf('%s: %s', v('cname', i), v('cerr', i) >= 0 ? \
        sprintf('mean error %.1f%% over %d point%s (%d left out)', v('cerr', i), v('cn', i), v('cn', i) == 1 ? '' : 's', v('cx', i)) : \
        'no point compared') noenhanced
    set xlabel 'footprint (bytes)'
    set ylabel (v('cbw', i) ? 'GB/s' : 'ns per access')
    set yrange [0:*]
    plot datadir.'/c.dat' index i-1 using 1:2 with linespoints lw 2 pt 7 ps 0.7 lc rgb SC[1] \
             title 'measured', \
         '' index i-1 using 1:3 with lines lw 2 lc rgb SC[2] title 'model', \
         '' index i-1 using 1:4 with points pt 6 ps 1.6 lw 1.2 lc rgb '#555555' title 'left out'
}
unset multiplot
