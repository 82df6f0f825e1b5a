/*
 * softmax.c - row softmax, Y[m][n] = exp(X[m][n] - max_m) / sum_n exp(X[m][n] - max_m)
 * over X [M, N] (tmmodel SoftMax, sizes 2^4..2^12).
 *
 * The kernel is the row-reduction kernel of rowred.h (read it for the
 * tensors, the work of an item, tile=TMx1, split, pattern and local
 * memory):
 *   reduction 0: max (a = fmax(a, v); horizontal and split combine fmax);
 *   reduction 1: sum of exp(v - max) (sub, exp, add), finished by r1 = 1/sum;
 *   output:      exp(v - max) * r1 (sub, exp, mul).
 * exp is computed twice per element (no exp values are kept between the
 * passes: a row may be longer than the registers).
 *
 * Flops: add, sub, mul and max are 1 per element, exp and the reciprocal
 * are special-function work (MG_ALU_SFU, 0 flops).  A launch counts
 *   M * (5 N + 2 split (V - 1) + 2 split (split - 1))
 * (max 1 + sub, add 2 + sub, mul 2 per element; per item of a row two
 * horizontal reductions of V - 1 and two combines of split - 1).
 */
#include "traces/gen/op.h"
#include "traces/ops/rowred.h"

#include <math.h>

static const mg_key keys[] = {
    MG_KEY_INT("M", M, 1, 1 << 16, "64", "rows"),
    MG_KEY_INT("N", N, 1, 1 << 16, "64", "row length (the softmax axis)"),
    MG_KEY_END,
};

static const rr_op sm = {
    "softmax", "softmax",
    {
        {"-INFINITY", 1, {"a[i] = fmax(a[i], v);", {{RR_FP, 1, 1}}}, {NULL, {{0, 0, 0}}}},
        {"0", 0, {"a[i] += exp(v - r0[i]);", {{RR_FP, 1, 1}, {MG_ALU_SFU, 1, 0}, {RR_FP, 1, 1}}},
         {"r1[i] = 1.0f / r1[i];", {{MG_ALU_SFU, 1, 0}}}},
    },
    {"exp(v - r0[i]) * r1[i]", {{RR_FP, 1, 1}, {MG_ALU_SFU, 1, 0}, {RR_FP, 1, 1}}},
};

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    return mg_rr_check(&sm, s, where, d);
}

static void plan(const mg_schedule *s, mg_kernel *k) { mg_rr_plan(&sm, s, k); }

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    mg_rr_emit_cl(&sm, s, k, o);
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    mg_rr_trace_wg(&sm, s, k, wg, out);
}

static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    const float *x = h->f[0];
    float *y = h->f[1];
    for (int64_t m = 0; m < s->M; m++) {
        const float *xr = x + m * s->N;
        double mx = -INFINITY, sum = 0;
        for (int64_t n = 0; n < s->N; n++) mx = fmax(mx, xr[n]);
        for (int64_t n = 0; n < s->N; n++) sum += exp(xr[n] - mx);
        for (int64_t n = 0; n < s->N; n++) y[m * s->N + n] = (float)(exp(xr[n] - mx) / sum);
    }
}

const mg_op mg_op_softmax = {
    .name = "softmax",
    .summary = "row softmax of X[M,N] (max, sum of exp, scale; split: row over items)",
    .keys = keys,
    .knobs = "layout layout_in layout_out tile wg pattern vec storage compute split unroll warp "
              "seed",
    .defaults = mg_rr_defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
    .trace_inert = "unroll",  /* a #pragma: the trace and the register estimate ignore it */
};
