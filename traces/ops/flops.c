/*
 * flops.c - peak arithmetic throughput, fp32 or fp16 (romou 3.1 "number of
 * ALUs", Fig 11's peak; ArchProbe's gflops aspect).
 *
 * Each work item runs `chains` independent multiply-add chains of vectors
 * of `vec` elements (enough independent chains that the ALU, not the
 * latency of one chain, binds):
 *
 *   a_k = iota + (float)((g + k) & 63)        k < chains, iota = (0, 1, .., vec-1)
 *   for (it = 0; it < iters; it++)
 *       a_k = a_k * m + c                     for each k (unrolled in the source)
 *   v = ((a_0 + a_1) + a_2) + ...             (vec-wide adds)
 *   Out[g] = v.s0 + v.s1 + ...                (scalar adds, in order)
 *
 * with m = 0.5 and c = 0.25 passed as kernel arguments (the compiler cannot
 * fold the loop).  a * m + c is one multiply-add: the kernel states
 * FP_CONTRACT ON (OpenCL C's default), which lets the compiler fuse it (an
 * expression, not a mad() call, so no vector builtin is called either).
 * m is a power of two, so a * m is exact and the result is the same
 * whether the device fuses or not: the reference is exact for fp32 (fp16:
 * rounded to half after every operation).  The
 * chains converge to 2c but the hardware still executes every mad; the
 * distinct lanes of iota keep a compiler from scalarising a splat.
 *
 * compute=fp16 uses half arithmetic (cl_khr_fp16); the output is fp32.
 * Items past `items` in the last work group are masked.  Flops per item:
 * 2 vec chains iters + vec (chains - 1) + (vec - 1), exactly the ALU
 * records of the trace.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <stdio.h>

enum { SITE_INIT = 1, SITE_MAD, SITE_SUM, SITE_HSUM, SITE_OUT };

#define MUL 0.5
#define ADD 0.25

/* `chains` is kept in the schedule's regs field; `vec` is the op's own key
 * (the common knob stops at 8). */
static const mg_key keys[] = {
    MG_KEY_INT("vec", vec, 1, 16, "4", "vector width of the math: 1, 2, 4, 8 or 16"),
    MG_KEY_INT("chains", regs, 1, 64, "8", "independent multiply-add chains per item"),
    MG_KEY_INT("iters", iters, 1, (int64_t)1 << 24, "64",
               "loop iterations (one mad per chain each)"),
    MG_KEY_INT("items", items, 1, (int64_t)1 << 24, "1024", "work items (global size)"),
    MG_KEY_END,
};

static void defaults(mg_schedule *s)
{
    s->wg[0] = 64;
    s->wg[1] = s->wg[2] = 1;
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    if (s->vec != 1 && s->vec != 2 && s->vec != 4 && s->vec != 8 && s->vec != 16)
        mg_diag_error(d, "%s: flops: vec=%lld: OpenCL vectors are 1, 2, 4, 8 or 16 wide", where,
                      (long long)s->vec);
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: flops: the launch is 1D: wg must be X,1,1", where);
    return d->n == before ? 0 : -1;
}

static double item_flops(const mg_schedule *s)
{
    double v = (double)s->vec, c = (double)s->regs;
    return 2.0 * v * c * (double)s->iters + v * (c - 1) + (v - 1);
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    snprintf(k->name, sizeof k->name, "flops");
    int o = mg_plan_tensor(k, "Out", MG_TENSOR_OUT, MG_TL_BUFFER, MG_DT_F32, 1, MG_INIT_ZERO,
                           1, 1, 1, s->items);
    mg_plan_arg_tensor(k, o);
    mg_plan_arg_float(k, "m", MUL);
    mg_plan_arg_float(k, "c", ADD);
    int64_t items[3] = {s->items, 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    int fp16 = s->compute == MG_PREC_FP16;
    k->needs_fp16 = fp16;
    /* the chains (fp16 packs two per register), m and c splats, g, loop counter */
    int64_t lanes = fp16 ? (s->vec + 1) / 2 : s->vec;
    k->f.regs_per_item = lanes * (s->regs + 2) + 2;
    k->f.loop_iters = s->iters;
    k->f.bytes_per_iter = 0;
    k->f.bytes_per_item = 0;
    k->f.flops = item_flops(s) * (double)s->items;
    k->f.local_bytes = 0;
    k->f.access_width = 0;
    k->f.boundary_checks = k->global[0] != s->items;
    k->log_cap = 1;
}

static const char *const hex = "0123456789abcdef";

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16;
    int vec = (int)s->vec;
    long long nc = (long long)s->regs;
    const char *st = fp16 ? "half" : "float";
    char vt[16];
    snprintf(vt, sizeof vt, "%s%s", st, vec == 1 ? "" : vec == 2 ? "2" : vec == 4 ? "4"
                                                   : vec == 8 ? "8" : "16");
    mg_sb_puts(o, "#pragma OPENCL FP_CONTRACT ON\n");
    mg_cl_signature(k, o);
    mg_sb_puts(o, "    const int g = get_global_id(0);\n");
    if (k->f.boundary_checks)
        mg_sb_printf(o, "    if (g >= %lld) return;\n", (long long)s->items);
    mg_sb_printf(o, "    const %s mv = (%s)((%s)m), cv = (%s)((%s)c);\n", vt, vt, st, vt, st);
    mg_sb_printf(o, "    const %s iota = ", vt);
    if (vec == 1) {
        mg_sb_puts(o, "0;\n");
    } else {
        mg_sb_printf(o, "(%s)(", vt);
        for (int i = 0; i < vec; i++) mg_sb_printf(o, "%s(%s)%d", i ? ", " : "", st, i);
        mg_sb_puts(o, ");\n");
    }
    for (long long c = 0; c < nc; c++)
        mg_sb_printf(o, "    %s a%lld = iota + (%s)((%s)((g + %lld) & 63));\n", vt, c, vt, st, c);
    if (s->unroll > 1) mg_sb_printf(o, "    #pragma unroll %lld\n", (long long)s->unroll);
    mg_sb_printf(o, "    for (int it = 0; it < %lld; it++) {\n", (long long)s->iters);
    for (long long c = 0; c < nc; c++) mg_sb_printf(o, "        a%lld = a%lld * mv + cv;\n", c, c);
    mg_sb_printf(o, "    }\n    const %s v = a0", vt);
    for (long long c = 1; c < nc; c++) mg_sb_printf(o, " + a%lld", c);
    mg_sb_printf(o, ";\n    const %s r = ", st);
    if (vec == 1) mg_sb_puts(o, "v");
    for (int i = 0; vec > 1 && i < vec; i++) mg_sb_printf(o, "%sv.s%c", i ? " + " : "", hex[i]);
    mg_sb_puts(o, ";\n    ");
    mg_cl_st(o, k, 0, SITE_OUT, "g", 1, "r", fp16);
    mg_sb_puts(o, "\n}\n");
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    int cls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    int vec = (int)s->vec;
    uint64_t valid[2] = {0, 0};
    for (uint32_t l = 0; l < w->lanes; l++)
        if (w->gid[0][l] < s->items) valid[l >> 6] |= (uint64_t)1 << (l & 63);
    if (!valid[0] && !valid[1]) return;
    /* per chain: (g + k) & 63 and its conversion; the iota add is setup too */
    mg_emit_alu(w, valid, SITE_INIT, MG_ALU_INT, 1, (uint32_t)(3 * s->regs), 0);
    for (int64_t it = 0; it < s->iters; it++)
        mg_emit_alu(w, valid, SITE_MAD, cls, vec, (uint32_t)s->regs, 2);
    if (s->regs > 1) mg_emit_alu(w, valid, SITE_SUM, cls, vec, (uint32_t)(s->regs - 1), 1);
    if (vec > 1) mg_emit_alu(w, valid, SITE_HSUM, cls, 1, (uint32_t)(vec - 1), 1);
    mg_emit_mem(w, MG_REC_BUF_STORE, SITE_OUT, 0, 4);
    for (uint32_t l = 0; l < w->lanes; l++)
        if ((valid[l >> 6] >> (l & 63)) & 1) mg_emit_lane(w, l, w->gid[0][l] * 4, 0);
    mg_emit_put(w);
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, trace_body, s);
}

/* One operation's result in the compute precision. */
static float rnd(float x, int fp16) { return fp16 ? mg_round_half(x) : x; }

static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    int fp16 = s->compute == MG_PREC_FP16;
    int64_t vec = s->vec, nc = s->regs;
    float a[64][16], m = (float)MUL, c = (float)ADD;
    for (int64_t g = 0; g < s->items; g++) {
        for (int64_t ch = 0; ch < nc; ch++)
            for (int64_t e = 0; e < vec; e++)
                a[ch][e] = rnd((float)e + (float)((g + ch) & 63), fp16);
        for (int64_t it = 0; it < s->iters; it++)
            for (int64_t ch = 0; ch < nc; ch++)
                for (int64_t e = 0; e < vec; e++) a[ch][e] = rnd(a[ch][e] * m + c, fp16);
        float v[16] = {0};
        for (int64_t e = 0; e < vec; e++) {
            v[e] = a[0][e];
            for (int64_t ch = 1; ch < nc; ch++) v[e] = rnd(v[e] + a[ch][e], fp16);
        }
        float r = v[0];
        for (int64_t e = 1; e < vec; e++) r = rnd(r + v[e], fp16);
        h->f[0][g] = r;
    }
}

const mg_op mg_op_flops = {
    .name = "flops",
    .summary = "peak fp32/fp16 multiply-add throughput: vector width, independent chains",
    .keys = keys,
    .knobs = "wg compute unroll warp",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
};
