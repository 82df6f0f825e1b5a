/*
 * regpressure.c - `regs` float registers live through a dependent loop
 * (romou 3.1 Listing 1, Fig 5; ArchProbe's register-count aspect).
 *
 * Each work item g holds r[0..regs-1], r[i] = (float)(g + i), then runs
 *
 *   for (it = 0; it < iters; it++)
 *       for (i = 0; i < regs; i++)            (unrolled in the source)
 *           r[i] = (r[i] + r[i-1]) * 0.5f     (r[-1] is r[regs-1] of the
 *                                              previous iteration)
 *
 * and writes Out[g] = ((r[0] + r[1]) + r[2]) + ... .  Every register is
 * updated from the previous one, so all `regs` values stay live across the
 * loop; every one reaches the output, so none is dead.  The update is an
 * average (bounded, exact to reproduce: an add and a multiply by 0.5, which
 * no compiler may contract), so the reference matches the device bit for
 * bit.  Registers are named scalars r0, r1, ..., never an array, so that
 * no compiler places them in private memory by choice.
 *
 * Launch: `items` work items (1D) in work groups of wg (romou: one work
 * group of up to 1024 items; sweep regs 1..256 and items); items past
 * `items` in the last group are masked.  Flops per item:
 * 2 regs iters (the loop) + regs - 1 (the final sum), exactly the ALU
 * records of the trace.  regs_per_item = regs + 3 (the global id, the loop
 * counter and the output address).
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <stdio.h>

enum { SITE_INIT = 1, SITE_STEP, SITE_SUM, SITE_OUT };

#define REGS_OVERHEAD 3            /* global id, loop counter, output address */

static const mg_key keys[] = {
    MG_KEY_INT("regs", regs, 1, 256, "16", "float registers live through the loop"),
    MG_KEY_INT("iters", iters, 1, (int64_t)1 << 24, "64",
               "loop iterations (each updates every register once)"),
    MG_KEY_INT("items", items, 1, (int64_t)1 << 20, "64", "work items (global size)"),
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
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: regpressure: the launch is 1D: wg must be X,1,1", where);
    if (s->wg[0] > s->items)
        mg_diag_error(d, "%s: regpressure: wg=%lld is larger than items=%lld: the group "
                      "would hold idle items", where, (long long)s->wg[0],
                      (long long)s->items);
    return d->n == before ? 0 : -1;
}

static double item_flops(const mg_schedule *s)
{
    return 2.0 * (double)s->regs * (double)s->iters + (double)(s->regs - 1);
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    snprintf(k->name, sizeof k->name, "regpressure");
    int o = mg_plan_tensor(k, "Out", MG_TENSOR_OUT, MG_TL_BUFFER, MG_DT_F32, 1, MG_INIT_ZERO,
                           1, 1, 1, s->items);
    mg_plan_arg_tensor(k, o);
    int64_t items[3] = {s->items, 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    k->f.regs_per_item = s->regs + REGS_OVERHEAD;
    k->f.loop_iters = s->iters;
    k->f.bytes_per_iter = 0;
    k->f.bytes_per_item = 0;
    k->f.flops = item_flops(s) * (double)s->items;
    k->f.local_bytes = 0;
    k->f.access_width = 0;
    k->f.boundary_checks = k->global[0] != s->items;
    k->log_cap = 1;
}

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    int64_t n = s->regs;
    mg_cl_signature(k, o);
    mg_sb_puts(o, "    const int g = get_global_id(0);\n");
    if (k->f.boundary_checks)
        mg_sb_printf(o, "    if (g >= %lld) return;\n", (long long)s->items);
    for (int64_t i = 0; i < n; i++)
        mg_sb_printf(o, "    float r%lld = (float)(g + %lld);\n", (long long)i, (long long)i);
    if (s->unroll > 1) mg_sb_printf(o, "    #pragma unroll %lld\n", (long long)s->unroll);
    mg_sb_printf(o, "    for (int it = 0; it < %lld; it++) {\n", (long long)s->iters);
    for (int64_t i = 0; i < n; i++)
        mg_sb_printf(o, "        r%lld = (r%lld + r%lld) * 0.5f;\n", (long long)i, (long long)i,
                     (long long)(i ? i - 1 : n - 1));
    mg_sb_puts(o, "    }\n    const float sum = r0");
    for (int64_t i = 1; i < n; i++) mg_sb_printf(o, " + r%lld", (long long)i);
    mg_sb_puts(o, ";\n    ");
    mg_cl_st(o, k, 0, SITE_OUT, "g", 1, "sum", 0);
    mg_sb_puts(o, "\n}\n");
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    uint64_t valid[2] = {0, 0};
    for (uint32_t l = 0; l < w->lanes; l++)
        if (w->gid[0][l] < s->items) valid[l >> 6] |= (uint64_t)1 << (l & 63);
    if (!valid[0] && !valid[1]) return;
    mg_emit_alu(w, valid, SITE_INIT, MG_ALU_INT, 1, (uint32_t)s->regs, 0);   /* int->float */
    for (int64_t it = 0; it < s->iters; it++)          /* one add and one multiply per register */
        mg_emit_alu_dep(w, valid, SITE_STEP, MG_ALU_FP32, 1, (uint32_t)(2 * s->regs), 1,
                        (uint32_t)(2 * s->regs));     /* r_i needs r_i-1: one chain */
    if (s->regs > 1) mg_emit_alu(w, valid, SITE_SUM, MG_ALU_FP32, 1, (uint32_t)(s->regs - 1), 1);
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

static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    float r[256];
    int64_t n = s->regs;
    for (int64_t g = 0; g < s->items; g++) {
        for (int64_t i = 0; i < n; i++) r[i] = (float)(g + i);
        for (int64_t it = 0; it < s->iters; it++)
            for (int64_t i = 0; i < n; i++) r[i] = (r[i] + r[i ? i - 1 : n - 1]) * 0.5f;
        float sum = r[0];
        for (int64_t i = 1; i < n; i++) sum += r[i];
        h->f[0][g] = sum;
    }
}

const mg_op mg_op_regpressure = {
    .name = "regpressure",
    .summary = "n float registers live through a dependent loop (romou Listing 1, Fig 5)",
    .keys = keys,
    .knobs = "wg unroll warp",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
};
