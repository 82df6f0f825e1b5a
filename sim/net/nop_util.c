/* nop_util.c - helpers shared by the network operators (nop.h). */
#include "sim/net/nop.h"

#include <inttypes.h>
#include <stdio.h>

int64_t mg_nop_elems(const int64_t s[4]) { return s[0] * s[1] * s[2] * s[3]; }

int mg_nop_shape_same(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4],
                      mg_nop_why *why)
{
    (void)l;
    (void)why;
    for (int a = 0; a < 4; a++) out[a] = in[0][a];
    return 0;
}

int64_t mg_nop_window_out(int64_t n, int64_t k, int64_t stride, int64_t pad, int64_t dil,
                          int ceil)
{
    int64_t span = n + 2 * pad - dil * (k - 1) - 1;
    if (span < 0) return 0;
    return (ceil ? (span + stride - 1) / stride : span / stride) + 1;
}

double mg_nop_act_flops(mg_net_act a)
{
    switch (a) {
    case MG_ACT_RELU: return 1;
    case MG_ACT_RELU6: return 2;
    case MG_ACT_GELU: return 8;     /* tanh form: 3 mul, 2 add, tanh, 2 mul */
    default: return 0;
    }
}

const char *mg_nop_shape_str(const int64_t s[4], char *buf, size_t len)
{
    snprintf(buf, len, "[%" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 "]", s[0], s[1], s[2],
             s[3]);
    return buf;
}
