/*
 * nop_resize.c - bilinear resize to the stated shape's H and W: [N, H, W,
 * C] -> [N, Ho, Wo, C]; 7 flops per output element (4 products, 3 sums of
 * the interpolation).
 */
#include "sim/net/nop.h"

static int shape(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4], mg_nop_why *why)
{
    (void)why;
    out[0] = in[0][0];
    out[1] = l->shape[1];
    out[2] = l->shape[2];
    out[3] = in[0][3];
    return 0;
}

static void cost(mg_net_layer *l, const int64_t (*in)[4])
{
    double out = (double)mg_nop_elems(l->shape);
    l->flops_other = 7 * out;
    l->bytes = 4 * ((double)mg_nop_elems(in[0]) + out);
}

const mg_nop mg_nop_resize = {
    .name = "resize",
    .summary = "bilinear resize to the stated H and W",
    .keys = "",
    .min_in = 1, .max_in = 1,
    .shape = shape,
    .cost = cost,
};
