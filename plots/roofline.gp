# roofline.gp - the hierarchical roofline (mgsim plot roofline; the data is
# described in sim/plot/plot_roofline.c).  Each memory level's ceiling is
# bandwidth x operation intensity, capped by the compute peak; a kernel is
# drawn once per level it touched, at its intensity there and its achieved
# GFLOPS, in that level's colour: the point nearest its ceiling shows the
# level that bounds it.  A ceiling within 10% of one drawn before it is
# dashed, so the one under it shows through.
load plotdir.'/common.gp'

set title sprintf('Hierarchical roofline on %s: %s', device, input) noenhanced
set logscale xy 10
set xrange [xmin:xmax]
set yrange [ymin:ymax]
set format x '%g'
set format y '%g'
set xlabel 'operation intensity (flop/byte of traffic at each memory level)'
set ylabel 'performance (GFLOPS)'
set grid mxtics mytics lc rgb '#f0f0f0'
# the key right of the frame: it never covers a ceiling or a kernel
set rmargin at screen 0.66
set key at screen 0.67, graph 1 left top Left reverse box samplen 2 spacing 1.1 width 1 \
    title (many ? 'colour: memory level' : 'colour: memory level, mark: kernel')

# Every kernel as dots when there are too many to mark one by one: a macro,
# since even an empty `for` clause with a title takes a line in the key.
allpts = many ? "datadir.'/all.dat' using 1:2:(LC[int($3)]) with points pt 7 ps 0.4 " . \
    "lc rgb variable notitle, keyentry with points pt 7 ps 0.6 lc rgb 'black' " . \
    "title sprintf('%d kernels (one point per level)', nk)," : ""
plot \
  for [i=1:nlev] datadir.'/ceil.dat' index i-1 using 1:2 with lines lw 2 dt v('lvdt', i) \
      lc rgb LC[v('lvcol', i)] title sprintf('%s  %.1f GB/s', v('lvname', i), v('lvbw', i)), \
  for [i=1:npeak] datadir.'/peak.dat' index i-1 using 1:2 with lines lw 3 lc rgb 'black' dt i \
      title sprintf('%s peak  %.1f GFLOPS', strlen(v('peakname', i)) ? v('peakname', i) : 'compute', v('peak', i)), \
  @allpts \
  for [k=1:nnamed] datadir.'/points.dat' index k-1 using 1:2 with lines lw 1 lc rgb '#999999' notitle, \
  for [k=1:nnamed] datadir.'/points.dat' index k-1 using 1:2:(LC[int($3)]) with points \
      pt (many ? 6 : PT[k]) ps (many ? 2.5 : 1.6) lw 2 lc rgb variable notitle, \
  for [k=1:nnamed] keyentry with points pt (many ? 6 : PT[k]) ps 1.4 lw 2 lc rgb 'black' \
      title sprintf('%s%s  %.1f GFLOPS', many ? 'best: ' : '', v('klabel', k), v('kgflops', k))
