# sweep.gp - the candidates of a sweep (mgsim plot sweep; data described in
# sim/plot/plot_sweep.c).  Left: predicted time of every simulated
# candidate by its number in the space; right: the same candidates sorted
# by time (rank 1 = fastest), which shows where the kept ones fall among
# the fastest.  Pruned candidates are grey, kept ones blue; the best overall
# and the best kept are ringed.  A --pruned-only sweep simulated no pruned
# candidate: it has neither a best overall nor a regret, and its key says
# so instead of showing an empty "pruned" entry.
plotw = 1200
ploth = 600
load plotdir.'/common.gp'

hasrules = strlen(rules) > 0
showpruned = hasrules && !pruned_only && npruned > 0
set multiplot layout 1,2 title sprintf("Sweep of %s on %s%s (%s)\n%d simulated%s%s%s", space, config, \
    hasrules ? ' with the '.rules.' rules' : '', input, n, \
    !hasrules ? '' : pruned_only ? sprintf(' (the %d kept; --pruned-only: the %d pruned not simulated)', nkept, size - nkept) \
    : sprintf(', %d kept, %d pruned', nkept, npruned), \
    nfailed > 0 ? sprintf(', %d rejected', nfailed) : '', \
    ncut > 0 ? sprintf(', %d cut (over %gx the best kept)', ncut, cutoff) : '') noenhanced

set bmargin at screen 0.25
set tmargin at screen 0.86
set ylabel 'predicted time (µs)'
if (logy) { set logscale y 10; set format y '%g' }

# one panel: x column xc, and the key at screen (kx, 0.15)
ptitle(what, cnt) = sprintf('%s (%d)', what, cnt)
besttitle = sprintf('best overall: #%d, %.4g µs', bestidx, besttime)
kepttitle = keptidx < 0 ? 'no kept candidate' : pruned_only ? \
    sprintf('best kept: #%d, %.4g µs (no regret: pruned not simulated)', keptidx, kepttime) : \
    sprintf('best kept: #%d, %.4g µs (regret %.1f%%)', keptidx, kepttime, 100 * regret)

# Entries that exist only with rules: macros, since even an empty `for`
# clause with a title takes a line in the key.
pruned1 = showpruned ? "datadir.'/s.dat' index 0 using 1:2 with points pt 7 ps 0.35 lc rgb '#b8b8b8' title ptitle('pruned', npruned)," : ""
pruned3 = showpruned ? "datadir.'/s.dat' index 0 using 3:2 with points pt 7 ps 0.35 lc rgb '#b8b8b8' title ptitle('pruned', npruned)," : ""
bestall1 = pruned_only ? "" : ", datadir.'/best.dat' index 0 using 1:2 with points pt 6 ps 3 lw 2 lc rgb '#d62728' title besttitle"
bestall3 = pruned_only ? "" : ", datadir.'/best.dat' index 0 using 3:2 with points pt 6 ps 3 lw 2 lc rgb '#d62728' title besttitle"
bestkept1 = hasrules && keptidx >= 0 ? ", datadir.'/best.dat' index 1 using 1:2 with points pt 8 ps 3 lw 2 lc rgb '#2ca02c' title kepttitle" : ""
bestkept3 = hasrules && keptidx >= 0 ? ", datadir.'/best.dat' index 1 using 3:2 with points pt 8 ps 3 lw 2 lc rgb '#2ca02c' title kepttitle" : ""

set lmargin at screen 0.07
set rmargin at screen 0.48
set key at screen 0.07, screen 0.15 left top Left reverse samplen 1 maxrows 4 width 2
set title 'by candidate number'
set xlabel 'candidate (number in the space)'
set xrange [0:*]
plot \
  @pruned1 \
  datadir.'/s.dat' index 1 using 1:2 with points pt 7 ps 0.7 lc rgb '#1f77b4' \
      title (hasrules ? ptitle('kept', nkept) : ptitle('simulated', n)) \
  @bestall1 \
  @bestkept1

set lmargin at screen 0.57
set rmargin at screen 0.97
set key at screen 0.57, screen 0.15 left top Left reverse samplen 1 maxrows 4 width 2
set title 'sorted by predicted time'
set xlabel 'rank (1 = fastest simulated)'
set logscale x 10
set format x '%g'
set xrange [0.8:*]
plot \
  @pruned3 \
  datadir.'/s.dat' index 1 using 3:2 with points pt 7 ps 0.7 lc rgb '#1f77b4' \
      title (hasrules ? ptitle('kept', nkept) : ptitle('simulated', n)) \
  @bestall3 \
  @bestkept3
unset multiplot
