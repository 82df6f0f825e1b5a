# gnuplot variables written by mgsim plot
input = 'validate-small.json'
device = 'nvidia-h100'
timings_device = 'NVIDIA H100 80GB HBM3'
n = 16
nfam = 3
famname1 = 'conv 3x3'
famn1 = 6
famname2 = 'fc'
famn2 = 6
famname3 = 'matmul'
famn3 = 4
nbelow = 0
xmin = 1
xmax = 1000
stats = 'MAPE 40%, Kendall tau 0.87 pooled, 0.67 mean within groups, mean top-1 regret 0%'
input = 'timings-h100-small.json'
