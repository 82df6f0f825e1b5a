/*
 * warpsize.c - the division loop of romou 3.1 (Fig 7; ArchProbe's warp-size
 * method B): enough work groups to fill every core, each of `items` work
 * items running a long chain of dependent integer divisions.  While a work
 * group fits in one warp, its latency does not grow with `items`; past the
 * warp width it does.
 *
 * Launch: `groups` work groups of `items` work items (1D, global
 * items x groups).  Item g computes
 *
 *   v = g;  for (j = 0; j < iters; j++) v = v / d + j;   Out[g] = v;
 *
 * with d = 3 passed as a kernel argument (a divisor the compiler cannot
 * turn into a multiplication), so each iteration waits for the previous
 * division.  Integer division is exact, so the reference matches bit for
 * bit (a float division is not correctly rounded in OpenCL C).
 *
 * Trace: per iteration one SFU-class ALU record (the division: a
 * multi-cycle operation on every GPU, emulated through the reciprocal unit)
 * and one int record (the add); no flops.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <stdio.h>

enum { SITE_DIV = 1, SITE_ADD, SITE_OUT };

#define DIVISOR 3

/* `groups` is kept in the schedule's M field (matmul's M: unused here). */
static const mg_key keys[] = {
    MG_KEY_INT("items", items, 1, 1024, "64", "work items per work group (the swept value)"),
    MG_KEY_INT("groups", M, 1, 65536, "64", "work groups (enough to occupy every core)"),
    MG_KEY_INT("iters", iters, 1, (int64_t)1 << 24, "256", "dependent divisions per work item"),
    MG_KEY_END,
};

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    if (s->items * s->M > (int64_t)1 << 30) {
        mg_diag_error(d, "%s: warpsize: items x groups = %lld work items is past 2^30", where,
                      (long long)(s->items * s->M));
        return -1;
    }
    return 0;
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    snprintf(k->name, sizeof k->name, "warpsize");
    int o = mg_plan_tensor(k, "Out", MG_TENSOR_OUT, MG_TL_BUFFER, MG_DT_I32, 1, MG_INIT_ZERO,
                           1, 1, 1, s->items * s->M);
    mg_plan_arg_tensor(k, o);
    mg_plan_arg_int(k, "d", DIVISOR);
    int64_t items[3] = {s->items * s->M, 1, 1}, wg[3] = {s->items, 1, 1};
    mg_plan_ndrange(k, 1, items, wg);
    k->f.regs_per_item = 4;           /* v, the loop counter, the divisor, the global id */
    k->f.loop_iters = s->iters;
    k->f.bytes_per_iter = 0;
    k->f.bytes_per_item = 0;
    k->f.flops = 0;
    k->f.local_bytes = 0;
    k->f.access_width = 0;
    k->f.boundary_checks = 0;
    k->log_cap = 1;
}

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    mg_cl_signature(k, o);
    mg_sb_puts(o, "    const int g = get_global_id(0);\n    int v = g;\n");
    if (s->unroll > 1) mg_sb_printf(o, "    #pragma unroll %lld\n", (long long)s->unroll);
    mg_sb_printf(o, "    for (int j = 0; j < %lld; j++) v = v / d + j;\n    ",
                 (long long)s->iters);
    mg_cl_st(o, k, 0, SITE_OUT, "g", 1, "v", 0);
    mg_sb_puts(o, "\n}\n");
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    for (int64_t j = 0; j < s->iters; j++) {
        mg_emit_alu(w, NULL, SITE_DIV, MG_ALU_SFU, 1, 1, 0);
        mg_emit_alu(w, NULL, SITE_ADD, MG_ALU_INT, 1, 1, 0);
    }
    mg_emit_mem(w, MG_REC_BUF_STORE, SITE_OUT, 0, 4);
    for (uint32_t l = 0; l < w->lanes; l++) mg_emit_lane(w, l, w->gid[0][l] * 4, 0);
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
    for (int64_t g = 0; g < s->items * s->M; g++) {
        int64_t v = g;
        for (int64_t j = 0; j < s->iters; j++) v = v / DIVISOR + j;
        h->i[0][g] = (int32_t)v;
    }
}

const mg_op mg_op_warpsize = {
    .name = "warpsize",
    .summary = "dependent integer division loop per item, swept over items (romou Fig 7)",
    .keys = keys,
    .knobs = "unroll warp",
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
};
