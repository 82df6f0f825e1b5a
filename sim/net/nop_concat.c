/*
 * nop_concat.c - concatenation along C of tensors that agree in N, H and W;
 * no flops, every element read and written once.
 */
#include "sim/net/nop.h"

#include <stdio.h>

static int shape(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4], mg_nop_why *why)
{
    out[3] = 0;
    for (int i = 0; i < l->nin; i++) {
        for (int a = 0; a < 3; a++)
            if (in[i][a] != in[0][a]) {
                char s0[64], si[64];
                snprintf(why->text, sizeof why->text, "input %d %s differs from input 0 %s in "
                         "N, H or W (concat joins along C)", i,
                         mg_nop_shape_str(in[i], si, sizeof si),
                         mg_nop_shape_str(in[0], s0, sizeof s0));
                return -1;
            }
        out[3] += in[i][3];
    }
    for (int a = 0; a < 3; a++) out[a] = in[0][a];
    return 0;
}

static void cost(mg_net_layer *l, const int64_t (*in)[4])
{
    (void)in;
    l->bytes = 8 * (double)mg_nop_elems(l->shape);
}

const mg_nop mg_nop_concat = {
    .name = "concat",
    .summary = "concatenation along C",
    .keys = "",
    .min_in = 2, .max_in = MG_NET_MAX_IN,
    .shape = shape,
    .cost = cost,
};
