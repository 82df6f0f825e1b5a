/*
 * nop_add.c - elementwise sum of 2 or more tensors of one shape, an
 * optional activation; (inputs - 1) flops per element plus the activation's.
 */
#include "sim/net/nop.h"

#include <stdio.h>

static int shape(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4], mg_nop_why *why)
{
    for (int i = 1; i < l->nin; i++)
        for (int a = 0; a < 4; a++)
            if (in[i][a] != in[0][a]) {
                char s0[64], si[64];
                snprintf(why->text, sizeof why->text, "input %d %s differs from input 0 %s "
                         "(add takes one shape)", i, mg_nop_shape_str(in[i], si, sizeof si),
                         mg_nop_shape_str(in[0], s0, sizeof s0));
                return -1;
            }
    return mg_nop_shape_same(l, in, out, why);
}

static void cost(mg_net_layer *l, const int64_t (*in)[4])
{
    (void)in;
    double out = (double)mg_nop_elems(l->shape);
    l->flops_other = out * ((double)(l->nin - 1) + mg_nop_act_flops(l->act));
    l->bytes = 4 * out * (double)(l->nin + 1);
}

const mg_nop mg_nop_add = {
    .name = "add",
    .summary = "elementwise sum of 2+ tensors of one shape (act)",
    .keys = "act",
    .min_in = 2, .max_in = MG_NET_MAX_IN,
    .shape = shape,
    .cost = cost,
};
