# whatif.gp - what-if curves (mgsim plot whatif; data described in
# sim/plot/plot_whatif.c).  One panel per varied config key: the best
# predicted time for each of its values, one line per combination of the
# other keys' values; a filled mark where the best kernel differs from the
# base config's, an open one where it is the same kernel.  With rules (and
# not --pruned-only) the best kept kernel's time is the dashed line of the
# same colour; after --pruned-only the best is the best kept, and the
# labels say so.  The grey line is the base config's best.  Earlier lines are
# drawn wider, so lines that coincide show as nested bands.
load datadir.'/meta.gp'
plotw = (nkeys > 1 ? 600 * nkeys : 900)
ploth = 600
load plotdir.'/common.gp'

w(name, k, i) = value(sprintf('%s_%d_%d', name, k, i))
kv(name, k) = value(sprintf('%s_%d', name, k))

set multiplot layout 1,nkeys title sprintf("What-if on %s: %s%s (%s)", config, space, \
    strlen(rules) ? sprintf(' (%s rules%s)', rules, pruned_only ? ', kept candidates only' : '') : '', \
    input) noenhanced
set bmargin at screen 0.32
set tmargin at screen 0.86
bestwhat = pruned_only ? 'best kept kernel' : 'best kernel'
set ylabel sprintf('%s: predicted time (µs)', bestwhat)
set label 99 sprintf('filled mark: the %s differs from the base config''s; open: the same kernel', bestwhat). \
    (haskept ? '; dashed: the best kept kernel' : '') at screen 0.5, screen 0.03 center font ',9'
set yrange [ymin:ymax]
set ytics nomirror
# the base config's line, when it has a best: a macro, since even an empty
# `for` clause with a title takes a line in the key
baseline = base > 0 ? "base with lines dt 3 lw 1.5 lc rgb '#777777' title sprintf('base config''s %s: %.4g µs', bestwhat, base)," : ""
do for [k=1:nkeys] {
    lm = (k - 1.0) / nkeys + 0.09 / (nkeys > 1 ? 1 : 1.3)
    rm = (k * 1.0) / nkeys - 0.03
    set lmargin at screen lm
    set rmargin at screen rm
    set key at screen lm, screen 0.19 left top Left reverse samplen 2 maxrows 5 width 1 font ',9'
    set title sprintf('varying %s', kv('key', k)) noenhanced
    set xlabel kv('key', k) noenhanced
    set xtics () 
    do for [i=1:kv('nvals', k)] { set xtics add (w('val', k, i) i) }
    set xrange [0.7:kv('nvals', k) + 0.3]
    plot \
      @baseline \
      for [j=1:kv('nlines', k)] datadir.sprintf('/w%d.dat', k) index j-1 using 1:2 with lines \
          lw (1.5 + 1.2 * (kv('nlines', k) - j)) lc rgb SC[(j - 1) % 8 + 1] title w('line', k, j), \
      for [j=1:kv('nlines', k)] datadir.sprintf('/w%d.dat', k) index j-1 \
          using 1:($3 > 0 ? $2 : NaN) with points pt 7 ps 1.3 lc rgb SC[(j - 1) % 8 + 1] notitle, \
      for [j=1:kv('nlines', k)] datadir.sprintf('/w%d.dat', k) index j-1 \
          using 1:($3 > 0 ? NaN : $2) with points pt 6 ps 1.3 lw 1.5 lc rgb SC[(j - 1) % 8 + 1] notitle, \
      for [j=1:(haskept ? kv('nlines', k) : 0)] datadir.sprintf('/w%d.dat', k) index j-1 \
          using 1:4 with linespoints dt 2 lw 1.5 pt 4 ps 1 lc rgb SC[(j - 1) % 8 + 1] notitle
}
unset multiplot
