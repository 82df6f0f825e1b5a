# validate.gp - predicted vs measured kernel time, log-log, with y = x
# (mgsim plot validate / mgsim validate --plot; the data is described in
# sim/plot/plot_validate.c).  A point per kernel, coloured by family;
# dashed lines at 2x and 1/2x; rings mark measurements faster than the
# model's roofline bound.
load plotdir.'/common.gp'

set title sprintf("%s simulated vs measured on %s\n%d kernels of %s\n%s", device, timings_device, n, input, stats) noenhanced
set logscale xy 10
set xrange [xmin:xmax]
set yrange [xmin:xmax]
set size square
set format x '%g'
set format y '%g'
set xlabel 'measured time (µs, median of the repetitions)'
set ylabel 'predicted time (µs)'
set grid mxtics mytics lc rgb '#f0f0f0'
# the key right of the square frame, where it covers no point
set key outside right top Left reverse box samplen 2 spacing 1.1
set samples 2

plot \
  x with lines lw 2 lc rgb 'black' title 'y = x', \
  2*x with lines lw 1 dt 2 lc rgb '#888888' title '2x, 1/2x', \
  x/2 with lines lw 1 dt 2 lc rgb '#888888' notitle, \
  for [i=1:nfam] datadir.'/points.dat' index i-1 using 1:2 with points pt PT[i] ps 0.9 \
      lc rgb SC[i] title sprintf('%s (%d)', v('famname', i), v('famn', i)), \
  for [z=1:(nbelow > 0)] datadir.'/below.dat' using 1:2 with points pt 6 ps 1.8 lw 1.5 \
      lc rgb '#000000' title sprintf('faster than the roofline bound (%d)', nbelow)
