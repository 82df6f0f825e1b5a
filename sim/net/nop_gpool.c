/*
 * nop_gpool.c - global average pooling (squeeze): [N, H, W, C] -> [N, 1, 1,
 * C]; one flop per input element.
 */
#include "sim/net/nop.h"

static int shape(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4], mg_nop_why *why)
{
    (void)l;
    (void)why;
    out[0] = in[0][0];
    out[1] = out[2] = 1;
    out[3] = in[0][3];
    return 0;
}

static void cost(mg_net_layer *l, const int64_t (*in)[4])
{
    l->flops_other = (double)mg_nop_elems(in[0]);
    l->bytes = 4 * ((double)mg_nop_elems(in[0]) + (double)mg_nop_elems(l->shape));
}

const mg_nop mg_nop_gpool = {
    .name = "gpool",
    .summary = "global average pooling to 1x1 (squeeze)",
    .keys = "",
    .min_in = 1, .max_in = 1,
    .shape = shape,
    .cost = cost,
};
