/*
 * nop_softmax.c - softmax over C: 5 flops per element (max, subtract,
 * exponential, sum, divide).
 */
#include "sim/net/nop.h"

static void cost(mg_net_layer *l, const int64_t (*in)[4])
{
    (void)in;
    double out = (double)mg_nop_elems(l->shape);
    l->flops_other = 5 * out;
    l->bytes = 8 * out;
}

const mg_nop mg_nop_softmax = {
    .name = "softmax",
    .summary = "softmax over C",
    .keys = "",
    .min_in = 1, .max_in = 1,
    .shape = mg_nop_shape_same,
    .cost = cost,
};
