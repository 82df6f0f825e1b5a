/*
 * nop_conv2d.c - a KhxKw convolution with stride, symmetric zero padding
 * and dilation, standard or depthwise, an optional bias and activation:
 * X [N, H, W, Cin] -> Y [N, Ho, Wo, Cout], Cout the stated shape's C
 * (depthwise: Cout = Cin).  MACs N Ho Wo Cout Cpg Kh Kw, Cpg = Cin (1
 * depthwise); params Cout Cpg Kh Kw (+ Cout bias).
 */
#include "sim/net/nop.h"

#include <inttypes.h>
#include <stdio.h>

static int shape(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4], mg_nop_why *why)
{
    const int64_t *x = in[0];
    out[0] = x[0];
    out[1] = mg_nop_window_out(x[1], l->kernel[0], l->stride[0], l->pad[0], l->dilation[0], 0);
    out[2] = mg_nop_window_out(x[2], l->kernel[1], l->stride[1], l->pad[1], l->dilation[1], 0);
    out[3] = l->depthwise ? x[3] : l->shape[3];
    if (out[1] < 1 || out[2] < 1) {
        snprintf(why->text, sizeof why->text, "the %" PRId64 "x%" PRId64 " window does not fit "
                 "the %" PRId64 "x%" PRId64 " input with pad %" PRId64 "x%" PRId64,
                 l->kernel[0], l->kernel[1], x[1], x[2], l->pad[0], l->pad[1]);
        return -1;
    }
    return 0;
}

static void cost(mg_net_layer *l, const int64_t (*in)[4])
{
    double cpg = l->depthwise ? 1 : (double)in[0][3];
    double out = (double)mg_nop_elems(l->shape);
    l->macs = out * cpg * (double)(l->kernel[0] * l->kernel[1]);
    l->params = (double)l->shape[3] * cpg * (double)(l->kernel[0] * l->kernel[1]) +
                (l->bias ? (double)l->shape[3] : 0);
    l->flops_other = out * ((l->bias ? 1 : 0) + mg_nop_act_flops(l->act));
    l->bytes = 4 * ((double)mg_nop_elems(in[0]) + out + l->params);
}

const mg_nop mg_nop_conv2d = {
    .name = "conv2d",
    .summary = "KhxKw convolution (stride, pad, dilation, depthwise, bias, act)",
    .keys = "kernel stride pad dilation depthwise bias act",
    .min_in = 1, .max_in = 1,
    .shape = shape,
    .cost = cost,
};
