# chase.gp - pointer-chase latency vs footprint of a probe profile (mgsim
# plot chase; data described in sim/plot/plot_curves.c): one dependent
# random load at a time over a footprint, through buffers and through
# images (romou P2, Fig 6).  Each step up is a cache level running out; the
# dashed lines, tagged L1.. above the frame, are the cache sizes the profile
# concluded, in the colour of their curve (the key lists them).
load plotdir.'/common.gp'

set title sprintf('Pointer-chase latency on %s: %s', device, input) offset 0,1.2
set tmargin 5
set logscale x 2
set xtics ()
do for [e=0:40:2] { set xtics add (bytes(2**e) 2**e) }
set mxtics 2
set xlabel 'footprint (bytes, random chase over it)'
set ylabel 'latency (ns per access)'
# the key under the x label, at a fixed place (key below can overlap it)
set bmargin at screen 0.2
set key at screen 0.07, screen 0.095 left top Left reverse samplen 2 maxrows 2
if (logy) { set logscale y 10; set format y '%g' } else { set yrange [0:*] }
do for [i=1:nvl] {
    set arrow i from v('vlx', i), graph 0 to v('vlx', i), graph 1 nohead dt 2 lw 1.5 \
        lc rgb SC[v('vlk', i)]
    set label i v('vltag', i) at v('vlx', i), graph 1 center \
        offset 0, (v('vlk', i) == 1 ? 0.6 : 1.6) textcolor rgb SC[v('vlk', i)] font ',9' noenhanced
}
plot for [i=1:nc] datadir.'/c.dat' index i-1 using 1:2 with linespoints lw 2 \
     pt PT[v('ckind', i)] ps 0.8 lc rgb SC[v('ckind', i)] title v('clabel', i)
