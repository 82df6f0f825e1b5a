/*
 * nop_pool.c - max or average pooling over a KhxKw window with stride and
 * symmetric padding, the output length rounded down or (ceil) up:
 * [N, H, W, C] -> [N, Ho, Wo, C].  Kh Kw flops per output element.
 */
#include "sim/net/nop.h"

#include <inttypes.h>
#include <stdio.h>

static int shape(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4], mg_nop_why *why)
{
    const int64_t *x = in[0];
    out[0] = x[0];
    out[1] = mg_nop_window_out(x[1], l->kernel[0], l->stride[0], l->pad[0], 1, l->ceil);
    out[2] = mg_nop_window_out(x[2], l->kernel[1], l->stride[1], l->pad[1], 1, l->ceil);
    out[3] = x[3];
    if (out[1] < 1 || out[2] < 1) {
        snprintf(why->text, sizeof why->text, "the %" PRId64 "x%" PRId64 " window does not fit "
                 "the %" PRId64 "x%" PRId64 " input", l->kernel[0], l->kernel[1], x[1], x[2]);
        return -1;
    }
    if (l->pad[0] >= l->kernel[0] || l->pad[1] >= l->kernel[1]) {
        snprintf(why->text, sizeof why->text, "pad %" PRId64 "x%" PRId64 " must be smaller "
                 "than the window", l->pad[0], l->pad[1]);
        return -1;
    }
    return 0;
}

static void cost(mg_net_layer *l, const int64_t (*in)[4])
{
    double out = (double)mg_nop_elems(l->shape);
    l->flops_other = out * (double)(l->kernel[0] * l->kernel[1]);
    l->bytes = 4 * ((double)mg_nop_elems(in[0]) + out);
}

const mg_nop mg_nop_pool = {
    .name = "pool",
    .summary = "max or average pooling (kind, kernel, stride, pad, ceil)",
    .keys = "kind kernel stride pad ceil",
    .min_in = 1, .max_in = 1,
    .shape = shape,
    .cost = cost,
};
