/*
 * nop_fc.c - fully connected over the last dimension, an optional bias and
 * activation: X [N, H, W, Cin] -> Y [N, H, W, Cout], Cout the stated
 * shape's C.  MACs N H W Cin Cout; params Cin Cout (+ Cout bias).
 */
#include "sim/net/nop.h"

static int shape(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4], mg_nop_why *why)
{
    (void)why;
    for (int i = 0; i < 3; i++) out[i] = in[0][i];
    out[3] = l->shape[3];
    return 0;
}

static void cost(mg_net_layer *l, const int64_t (*in)[4])
{
    double out = (double)mg_nop_elems(l->shape);
    l->macs = out * (double)in[0][3];
    l->params = (double)in[0][3] * (double)l->shape[3] + (l->bias ? (double)l->shape[3] : 0);
    l->flops_other = out * ((l->bias ? 1 : 0) + mg_nop_act_flops(l->act));
    l->bytes = 4 * ((double)mg_nop_elems(in[0]) + out + l->params);
}

const mg_nop mg_nop_fc = {
    .name = "fc",
    .summary = "fully connected over C (bias, act)",
    .keys = "bias act",
    .min_in = 1, .max_in = 1,
    .shape = shape,
    .cost = cost,
};
