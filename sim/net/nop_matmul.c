/*
 * nop_matmul.c - batched matrix product over the last two dimensions:
 * A [N, H, M, K] x B [N, H, K, P] (transpose_b: B [N, H, P, K]) -> [N, H,
 * M, P]; MACs N H M K P, no parameters (both operands are activations).
 */
#include "sim/net/nop.h"

#include <stdio.h>

static int shape(const mg_net_layer *l, const int64_t (*in)[4], int64_t out[4], mg_nop_why *why)
{
    const int64_t *a = in[0], *b = in[1];
    int64_t bk = l->transpose_b ? b[3] : b[2], p = l->transpose_b ? b[2] : b[3];
    char sa[64], sb[64];
    if (a[0] != b[0] || a[1] != b[1] || a[3] != bk) {
        snprintf(why->text, sizeof why->text, "A %s and B %s do not multiply (N, H equal and "
                 "A's last dimension equal to B's %s)", mg_nop_shape_str(a, sa, sizeof sa),
                 mg_nop_shape_str(b, sb, sizeof sb), l->transpose_b ? "last" : "third");
        return -1;
    }
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
    out[3] = p;
    return 0;
}

static void cost(mg_net_layer *l, const int64_t (*in)[4])
{
    double out = (double)mg_nop_elems(l->shape);
    l->macs = out * (double)in[0][3];
    l->bytes = 4 * ((double)mg_nop_elems(in[0]) + (double)mg_nop_elems(in[1]) + out);
}

const mg_nop mg_nop_matmul = {
    .name = "matmul",
    .summary = "batched A x B over the last two dimensions (transpose_b)",
    .keys = "transpose_b",
    .min_in = 2, .max_in = 2,
    .shape = shape,
    .cost = cost,
};
