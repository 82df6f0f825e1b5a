# net.gp - a network's timeline (mgsim plot net; data described in
# sim/plot/plot_net.c), as ParallelFusion's Fig. 11: on top, the ALU and
# LSU utilization of each layer's kernel over its span of the network's
# time; below, one bar per layer coloured by the roofline ceiling that
# binds its kernel (compute or a memory level), the longest layers named.
load datadir.'/meta.gp'
plotw = 1200
ploth = 600
load plotdir.'/common.gp'

levname(i) = i == 0 ? 'tex_l1' : i == 1 ? 'buffer_l1' : i == 2 ? 'local' : i == 3 ? 'constant' : \
             i == 4 ? 'l2' : i == 5 ? 'dram' : 'compute'
levcol(i) = i >= 0 && i < 6 ? LC[i + 1] : LC[7]
# a key entry only for the ceilings that bind some layer (meta.gp's binds)
levkey(i) = int(binds / 2**(i + 1)) % 2 ? levname(i) : ''
set multiplot title sprintf("%s (%s) on %s, batch %d (%s): %.3f ms%s", network, input, config, batch, mode, \
    latency_ms, nmissing > 0 ? sprintf('; %d layer%s not simulated', nmissing, nmissing == 1 ? '' : 's') : '') noenhanced
set lmargin at screen 0.08
set rmargin at screen 0.97
set xrange [0:tmax]

set tmargin at screen 0.90
set bmargin at screen 0.40
set ylabel 'utilization (%)'
set yrange [0:umax]
set format x ''
# the key above the frame, where it covers no bar
set key horizontal right bottom at screen 0.97, screen 0.905 font ',9'
plot datadir.'/net.dat' using 1:3:1:2:(0):3 with boxxyerror fs transparent solid 0.35 lc rgb SC[1] title 'ALU', \
     '' using 1:4:1:2:(0):4 with boxxyerror fs transparent solid 0.35 lc rgb SC[2] title 'LSU'

set tmargin at screen 0.36
set bmargin at screen 0.12
unset ylabel
set yrange [0:1]
unset ytics
set format x '%g'
set xlabel 'time from the network''s start (µs)'
set key below horizontal font ',9'
do for [i=1:ntop] {
    set label i value(sprintf('top_%d', i)) at value(sprintf('top_x_%d', i)), 0.5 center rotate by 90 font ',8' noenhanced front
}
plot for [lv=-1:5] datadir.'/net.dat' using ($5 == lv ? $1 : NaN):(0.1):1:2:(0.1):(0.9) \
        with boxxyerror fs solid 0.8 border lc rgb '#ffffff' lc rgb levcol(lv) title levkey(lv)
unset multiplot
