/*
 * layernorm.c - layer normalization over rows, no affine:
 *   Y[m][n] = (X[m][n] - mean_m) / sqrt(var_m + 1e-5),
 *   mean_m = sum_n X[m][n] / N,  var_m = sum_n (X[m][n] - mean_m)^2 / N
 * over X [M, N] (tmmodel LayerNorm, sizes 2^4..2^12).  Scale and shift
 * (gamma, beta) are left to a following elementwise op.
 *
 * The kernel is the row-reduction kernel of rowred.h (read it for the
 * tensors, the work of an item, tile=TMx1, split, pattern and local
 * memory), with the two-pass variance:
 *   reduction 0: sum (a += v), finished by mean = sum * (1/N);
 *   reduction 1: sum of squares (d = v - mean; a += d * d), finished by
 *                rstd = rsqrt(sumsq * (1/N) + 1e-5);
 *   output:      (v - mean) * rstd.
 *
 * Flops: add, sub and mul are 1 per element, an FMA (a += d * d, and
 * sumsq * (1/N) + eps) 2, rsqrt special-function work (MG_ALU_SFU, 0).
 * A launch counts M * (6 N + split (2 (V - 1) + 2 (split - 1) + 3)).
 */
#include "traces/gen/op.h"
#include "traces/ops/rowred.h"

#include <math.h>

#define EPS 1e-5

static const mg_key keys[] = {
    MG_KEY_INT("M", M, 1, 1 << 16, "64", "rows"),
    MG_KEY_INT("N", N, 1, 1 << 16, "64", "row length (the normalized axis)"),
    MG_KEY_END,
};

static const rr_op ln = {
    "layernorm", "layernorm",
    {
        {"0", 0, {"a[i] += v;", {{RR_FP, 1, 1}}}, {"r0[i] = r0[i] * $R;", {{RR_FP, 1, 1}}}},
        {"0", 0, {"{ const $V d = v - r0[i]; a[i] += d * d; }", {{RR_FP, 1, 1}, {RR_FP, 1, 2}}},
         {"r1[i] = rsqrt(r1[i] * $R + 1e-5f);", {{RR_FP, 1, 2}, {MG_ALU_SFU, 1, 0}}}},
    },
    {"(v - r0[i]) * r1[i]", {{RR_FP, 2, 1}}},
};

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    return mg_rr_check(&ln, s, where, d);
}

static void plan(const mg_schedule *s, mg_kernel *k) { mg_rr_plan(&ln, s, k); }

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    mg_rr_emit_cl(&ln, s, k, o);
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    mg_rr_trace_wg(&ln, s, k, wg, out);
}

static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    const float *x = h->f[0];
    float *y = h->f[1];
    for (int64_t m = 0; m < s->M; m++) {
        const float *xr = x + m * s->N;
        double mean = 0, var = 0;
        for (int64_t n = 0; n < s->N; n++) mean += xr[n];
        mean /= (double)s->N;
        for (int64_t n = 0; n < s->N; n++) var += (xr[n] - mean) * (xr[n] - mean);
        var /= (double)s->N;
        double rstd = 1.0 / sqrt(var + EPS);
        for (int64_t n = 0; n < s->N; n++) y[m * s->N + n] = (float)((xr[n] - mean) * rstd);
    }
}

const mg_op mg_op_layernorm = {
    .name = "layernorm",
    .summary = "row layer normalization of X[M,N] (mean, variance, eps 1e-5, no affine)",
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
