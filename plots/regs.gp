# regs.gp - the register-pressure curves of a probe profile (mgsim plot
# regs; data described in sim/plot/plot_curves.c).  Left: latency of one
# register update vs the live values per item, one curve per work-group
# size (romou P1, Fig 5): the step where a curve jumps is where registers
# spill or occupancy halves.  Right (when the profile has it): latency vs
# work groups launched at once at a fixed register count, which shows how
# many groups fit at a time.
plotw = 1200
ploth = 560
load plotdir.'/common.gp'

if (ng > 0) { set multiplot layout 1,2 title sprintf('Register pressure on %s: %s', device, input) noenhanced }
set title (ng > 0 ? 'latency vs registers per item' : sprintf('Register pressure on %s: %s', device, input))
set xlabel 'live float values per item (regpressure regs=)'
set ylabel 'ns per register update'
# Keys go under the x labels, at fixed places (key below overlaps them in
# a multiplot).
set bmargin at screen 0.27
set tmargin at screen 0.88
set lmargin at screen 0.07
set rmargin at screen (ng > 0 ? 0.48 : 0.97)
set key at screen 0.07, screen 0.16 left top Left reverse samplen 2 width 2 maxrows 4
set xrange [0:*]
if (logy) { set logscale y 10; set format y '%g' } else { set yrange [0:*] }
if (maxregs > 0) {
    set arrow 1 from maxregs, graph 0 to maxregs, graph 1 nohead dt 2 lw 1.5 lc rgb '#555555'
}
plot \
  for [i=1:nr] datadir.'/r.dat' index i-1 using 1:2 with linespoints lw 2 pt PT[i] ps 1 \
      lc rgb SC[i] title v('rlabel', i), \
  for [z=1:(nfail > 0)] datadir.'/rf.dat' using 1:(failtop) with points pt 2 ps 1.5 lw 2 \
      lc rgb '#d62728' title 'did not launch', \
  for [z=1:(maxregs > 0)] keyentry with lines dt 2 lw 1.5 lc rgb '#555555' \
      title sprintf('max registers per item: %g (the profile)', maxregs)

if (ng > 0) {
    unset arrow 1
    unset logscale y
    set title 'latency vs work groups at once'
    set xlabel 'work groups launched at once'
    set lmargin at screen 0.57
    set rmargin at screen 0.97
    set key at screen 0.57, screen 0.16 left top Left reverse samplen 2 width 2 maxrows 4
    set xrange [0:*]
    if (logyg) { set logscale y 10; set format y '%g' } else { set yrange [0:*] }
    plot for [i=1:ng] datadir.'/g.dat' index i-1 using 1:2 with linespoints lw 2 pt PT[i+nr] \
         ps 1 lc rgb SC[i+nr] title v('glabel', i)
    unset multiplot
}
