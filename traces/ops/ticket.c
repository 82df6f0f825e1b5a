/*
 * ticket.c - atomic ticket order (romou 3.1 Listing 3, Fig 8; ArchProbe's
 * warp-size method A and ALU count): every work item of a group takes a
 * ticket from one local counter with atomic_inc, and writes it at its own
 * place, so the output is the order in which the hardware ran the items.
 *
 * Launch: `groups` work groups (along x) of wg = X,Y,Z items (3D, as
 * romou's (64,6,2)).  Item with local linear id l = x + X (y + Y z) of
 * group q writes its ticket to Out[q * WG + l] (WG = X Y Z), so each
 * group's tickets are one consecutive block:
 *
 *   __local int mg_ticket;
 *   if (l == 0) mg_ticket = 0;
 *   barrier(CLK_LOCAL_MEM_FENCE);
 *   v = (uint)l;  for (j = 0; j < (WG - 1 - l) * delay; j++) v = v * 1103515245u + 12345u;
 *   t = atomic_inc(&mg_ticket);
 *   Out[q * WG + l] = t + (int)(v & (uint)z);       (z = 0, a kernel argument)
 *
 * delay=0 is romou's kernel: items that run together take consecutive
 * tickets in turn, so the order shows the warps that issue at once (the
 * ticket step inside a warp is the number of warps interleaved: the ALU
 * lanes of a core are warp width x that).  delay>0 makes item l spin
 * (WG - 1 - l) x delay steps first: on a SIMT machine a warp's lanes wait
 * for its slowest (lowest) lane and then take their tickets together, so
 * warps finish in reverse order while the lanes of each stay in order:
 * runs of consecutive tickets exactly one warp long.  (v & z) keeps the
 * spin alive without changing the ticket.
 *
 * The order depends on the device, so the output is not compared element
 * by element: each group's block must be a permutation of 0..WG-1 (the
 * tensor's perm_block).  The reference writes l (the serial order).  In
 * the trace the atomic is a local load and a local store of byte 0.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <stdio.h>

enum { SITE_INIT = 1, SITE_BAR, SITE_SPIN, SITE_TAKE, SITE_PUT, SITE_OUT };

/* `groups` is kept in the schedule's M field, `delay` in iters. */
static const mg_key keys[] = {
    MG_KEY_INT("groups", M, 1, 65536, "1", "work groups (along x)"),
    MG_KEY_INT("delay", iters, 0, 4096, "0",
               "item l spins (WG-1-l) x delay steps before its ticket (0: romou's Listing 3)"),
    MG_KEY_END,
};

static void defaults(mg_schedule *s)
{
    s->wg[0] = 64;
    s->wg[1] = 4;
    s->wg[2] = 1;
}

static int64_t wg_items(const mg_schedule *s) { return s->wg[0] * s->wg[1] * s->wg[2]; }

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    if (wg_items(s) > 1024) {
        mg_diag_error(d, "%s: ticket: a work group of %lld items is past 1024", where,
                      (long long)wg_items(s));
        return -1;
    }
    return 0;
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    snprintf(k->name, sizeof k->name, "ticket");
    int64_t wg = wg_items(s);
    int o = mg_plan_tensor(k, "Out", MG_TENSOR_OUT, MG_TL_BUFFER, MG_DT_I32, 1, MG_INIT_ZERO,
                           1, 1, s->M, wg);
    k->t[o].perm_block = wg;
    mg_plan_arg_tensor(k, o);
    mg_plan_arg_int(k, "delay", s->iters);
    mg_plan_arg_int(k, "z", 0);
    int64_t items[3] = {s->wg[0] * s->M, s->wg[1], s->wg[2]};
    mg_plan_ndrange(k, 3, items, s->wg);
    k->f.regs_per_item = 5;         /* l, the group, v, j, the ticket */
    k->f.loop_iters = (wg - 1) * s->iters;
    k->f.bytes_per_iter = 0;
    k->f.bytes_per_item = 0;
    k->f.flops = 0;
    k->f.local_bytes = 4;
    k->f.access_width = 4;
    k->f.boundary_checks = 0;
    k->log_cap = 4;
}

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    long long wg = (long long)wg_items(s);
    mg_cl_signature(k, o);
    mg_sb_printf(o,
        "    __local int mg_ticket;\n"
        "    const int l = get_local_id(0) + get_local_size(0) * (get_local_id(1) +\n"
        "                  get_local_size(1) * get_local_id(2));\n"
        "    const int q = get_group_id(0);\n"
        "    if (l == 0) { MG_ACCS(%d, %d, 0, 0, 0); mg_ticket = 0; }\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    uint v = (uint)l;\n"
        "    for (int j = 0; j < (%lld - l) * delay; j++) v = v * 1103515245u + 12345u;\n"
        "    const int t = MG_ACC(%d, %d, 0, 0, 0, atomic_inc(&mg_ticket));\n"
        "    MG_ACCS(%d, %d, 0, 0, 0);\n    ",
        SITE_INIT, MG_REC_LOCAL_STORE, wg - 1, SITE_TAKE, MG_REC_LOCAL_LOAD, SITE_PUT,
        MG_REC_LOCAL_STORE);
    char e[64];
    snprintf(e, sizeof e, "q * %lld + l", wg);
    mg_cl_st(o, k, 0, SITE_OUT, e, 1, "t + (int)(v & (uint)z)", 0);
    mg_sb_puts(o, "\n}\n");
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    int64_t wg = wg_items(s), maxspin = 0;
    int64_t l[MG_TRACE_MAX_LANES];
    for (uint32_t i = 0; i < w->lanes; i++) {
        l[i] = w->lid[0][i] + s->wg[0] * (w->lid[1][i] + s->wg[1] * w->lid[2][i]);
        int64_t spin = (wg - 1 - l[i]) * s->iters;
        if (spin > maxspin) maxspin = spin;
    }
    mg_emit_mem(w, MG_REC_LOCAL_STORE, SITE_INIT, -1, 4);
    for (uint32_t i = 0; i < w->lanes; i++)
        if (l[i] == 0) mg_emit_lane(w, i, 0, 0);
    mg_emit_put(w);
    mg_emit_barrier(w, SITE_BAR);
    /* the warp runs its slowest lane's spin (a multiply and an add a step) */
    if (maxspin) mg_emit_alu(w, NULL, SITE_SPIN, MG_ALU_INT, 1, (uint32_t)(2 * maxspin), 0);
    for (int pass = 0; pass < 2; pass++) {
        mg_emit_mem(w, pass ? MG_REC_LOCAL_STORE : MG_REC_LOCAL_LOAD,
                    pass ? SITE_PUT : SITE_TAKE, -1, 4);
        for (uint32_t i = 0; i < w->lanes; i++) mg_emit_lane(w, i, 0, 0);
        mg_emit_put(w);
    }
    mg_emit_mem(w, MG_REC_BUF_STORE, SITE_OUT, 0, 4);
    for (uint32_t i = 0; i < w->lanes; i++)
        mg_emit_lane(w, i, ((int64_t)w->wg[0] * wg + l[i]) * 4, 0);
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
    int64_t wg = wg_items(s);
    for (int64_t q = 0; q < s->M; q++)
        for (int64_t l = 0; l < wg; l++) h->i[0][q * wg + l] = (int32_t)l;
}

const mg_op mg_op_ticket = {
    .name = "ticket",
    .summary = "atomic ticket order of a group's items (romou Listing 3, Fig 8): warps, ALUs",
    .keys = keys,
    .knobs = "wg warp",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
};
