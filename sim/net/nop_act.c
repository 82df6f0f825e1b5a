/*
 * nop_act.c - a standalone activation, Y = act(X) (what a framework runs
 * when it does not fold the activation into the layer before it): the
 * input's shape; the activation's flops per element.
 */
#include "sim/net/nop.h"

static void cost(mg_net_layer *l, const int64_t (*in)[4])
{
    (void)in;
    double out = (double)mg_nop_elems(l->shape);
    l->flops_other = out * mg_nop_act_flops(l->act);
    l->bytes = 8 * out;
}

const mg_nop mg_nop_act = {
    .name = "act",
    .summary = "a standalone activation of the input (act)",
    .keys = "act",
    .min_in = 1, .max_in = 1,
    .shape = mg_nop_shape_same,
    .cost = cost,
};
