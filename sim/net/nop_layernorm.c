/*
 * nop_layernorm.c - layer normalization over C with a scale and a shift
 * (2 C params): 8 flops per element (mean 1, variance 3, normalize 2,
 * scale and shift 2).
 */
#include "sim/net/nop.h"

static void cost(mg_net_layer *l, const int64_t (*in)[4])
{
    (void)in;
    double out = (double)mg_nop_elems(l->shape);
    l->params = 2 * (double)l->shape[3];
    l->flops_other = 8 * out;
    l->bytes = 4 * (2 * out + l->params);
}

const mg_nop mg_nop_layernorm = {
    .name = "layernorm",
    .summary = "layer normalization over C (scale and shift)",
    .keys = "",
    .min_in = 1, .max_in = 1,
    .shape = mg_nop_shape_same,
    .cost = cost,
};
