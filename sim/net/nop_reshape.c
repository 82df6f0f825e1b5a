/*
 * nop_reshape.c - a view of the input as the stated shape, the same number
 * of elements (a head split or merge's permutation is left to the
 * consumer's indexing): no flops, no traffic.
 */
#include "sim/net/nop.h"

#include <inttypes.h>
#include <stdio.h>

static int shape(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4], mg_nop_why *why)
{
    if (mg_nop_elems(in[0]) != mg_nop_elems(l->shape)) {
        snprintf(why->text, sizeof why->text, "%" PRId64 " elements cannot be viewed as %"
                 PRId64, mg_nop_elems(in[0]), mg_nop_elems(l->shape));
        return -1;
    }
    for (int a = 0; a < 4; a++) out[a] = l->shape[a];
    return 0;
}

static void cost(mg_net_layer *l, const int64_t (*in)[4]) { (void)l; (void)in; }

const mg_nop mg_nop_reshape = {
    .name = "reshape",
    .summary = "a view as the stated shape (same element count)",
    .keys = "",
    .min_in = 1, .max_in = 1,
    .shape = shape,
    .cost = cost,
};
