/*
 * vload.c - buffer vector loads with every lane on its own cache line: the
 * load-issue granularity microbenchmark (the `vload` aspect of `mgprobe
 * run`, sim/analysis/pconclude.h mg_pc_vload).
 *
 * A buffer of `lines` slots, `stride` bytes apart (a slot at least a
 * cache line), is read by `items` work items, `iters` passes of LOADS
 * loads each.  Item g is reader t = g % lines; its k-th load of a pass
 * reads `vec` elements of the storage type (vload_half{,2,4} for fp16
 * storage, vload{,2,4} for fp32) at the start of slot (t + k) % lines, so
 * the lanes of a warp of up to `lines` items read as many different lines
 * with every load instruction: an instruction costs one load/store-cache
 * pass per line, whatever its width, and its time is per instruction, not
 * per byte.  A compiler that issues a vector as one load reads a half4 as
 * cheaply as a half; one that issues an element per load (NVIDIA OpenCL:
 * configs/measured/h100/ptx) pays for four.  The footprint (lines x
 * stride) is small enough to stay in a first-level cache.
 *
 * Each pass offsets the element index by pz = p * zero, `zero` a kernel
 * argument that is 0 at run time (traces/ops/bandwidth.c): the compiler
 * cannot prove a pass's addresses the same as the last one's, so it does
 * not hoist the loads out of the pass loop.
 *
 * Every load is added into a float accumulator of the load's width (acc +=
 * v), written to Out[g] at the end; the reference adds in the same order
 * (exact).  Flops: items x iters x LOADS x vec (the adds), the trace's.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <stdio.h>
#include <string.h>

enum { SITE_ADDR = 1, SITE_LOAD, SITE_ADD, SITE_OUT };
enum { TSRC, TOUT };

#define LOADS 8                 /* loads per item per pass */

static const mg_key keys[] = {
    MG_KEY_INT("items", items, 1, (int64_t)1 << 20, "256",
               "work items (global size; a multiple of wg)"),
    MG_KEY_INT("iters", iters, 1, (int64_t)1 << 16, "2", "passes of 8 loads per item"),
    MG_KEY_INT("lines", readers, 1, 4096, "128",
               "slots read (a power of two): item g's k-th load of a pass reads slot "
               "(g + k) % lines"),
    MG_KEY_INT("stride", stride, 4, 4096, "128",
               "bytes between slots (a power of two, at least a cache line to put every "
               "lane on its own line)"),
    MG_KEY_END,
};

static void defaults(mg_schedule *s)
{
    s->wg[0] = 64;
    s->wg[1] = s->wg[2] = 1;
    s->vec = 1;
}

static int pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    int64_t eb = mg_sched_elem_bytes(s);
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: vload: the launch is 1D: wg must be X,1,1", where);
    if (s->items % s->wg[0])
        mg_diag_error(d, "%s: vload: items=%lld is not a multiple of wg=%lld", where,
                      (long long)s->items, (long long)s->wg[0]);
    if (s->vec != 1 && s->vec != 2 && s->vec != 4)
        mg_diag_error(d, "%s: vload: vec=%lld: vload and vload_half are 1, 2 or 4 wide here",
                      where, (long long)s->vec);
    if (!pow2(s->readers))
        mg_diag_error(d, "%s: vload: lines=%lld is not a power of two", where,
                      (long long)s->readers);
    if (!pow2(s->stride) || s->stride < s->vec * eb)
        mg_diag_error(d, "%s: vload: stride=%lld must be a power of two of at least one "
                      "%lld-byte vector", where, (long long)s->stride, (long long)(s->vec * eb));
    return d->n == before ? 0 : -1;
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    int64_t eb = mg_sched_elem_bytes(s);
    snprintf(k->name, sizeof k->name, "vload_lines");   /* "vload" is reserved in OpenCL C */
    int src = mg_plan_tensor(k, "Src", MG_TENSOR_IN, MG_TL_BUFFER, mg_plan_dtype(s), 1,
                             MG_INIT_RANDOM, 1, 1, 1, s->readers * s->stride / eb);
    int out = mg_plan_tensor(k, "Out", MG_TENSOR_OUT, MG_TL_BUFFER, MG_DT_F32, 1, MG_INIT_ZERO,
                             1, 1, s->items, s->vec);
    mg_plan_arg_tensor(k, src);
    mg_plan_arg_tensor(k, out);
    mg_plan_arg_int(k, "zero", 0);               /* p * zero: see the top of this file */
    int64_t items[3] = {s->items, 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    int64_t loads = s->iters * LOADS;
    /* accumulator, LOADS loaded vectors in flight, g, t, the counter, pz */
    k->f.regs_per_item = s->vec * (1 + LOADS) + 4;
    k->f.loop_iters = loads;
    k->f.bytes_per_iter = s->vec * eb;
    k->f.bytes_per_item = loads * s->vec * eb;
    k->f.flops = (double)s->items * (double)loads * (double)s->vec;
    k->f.access_width = s->vec * eb;
    k->f.boundary_checks = 0;
    k->log_cap = loads + 1;
}

/* ---- OpenCL ---------------------------------------------------------------- */

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    int vec = (int)s->vec;
    long long L = s->readers, SE = s->stride / mg_sched_elem_bytes(s);
    mg_cl_signature(k, o);
    mg_sb_printf(o, "    const int g = get_global_id(0), t = g & %lld;\n"
                    "    %s acc = 0;\n"
                    "    for (int p = 0; p < %lld; p++) {\n"
                    "        const int pz = p * zero;\n"
                    "        #pragma unroll\n"
                    "        for (int k = 0; k < %d; k++) {\n"
                    "            const int e = ((t + k) & %lld) * %lld + pz;\n"
                    "            acc += ", L - 1, mg_cl_vtype(0, vec), (long long)s->iters, LOADS,
                 L - 1, SE);
    mg_cl_ld(o, k, TSRC, SITE_LOAD, "e", vec, 0);
    mg_sb_puts(o, ";\n        }\n    }\n    ");
    char e[32];
    snprintf(e, sizeof e, "g * %d", vec);
    mg_cl_st(o, k, TOUT, SITE_OUT, e, vec, "acc", 0);
    mg_sb_puts(o, "\n}\n");
}

/* ---- trace ----------------------------------------------------------------- */

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    int64_t eb = mg_sched_elem_bytes(s), L = s->readers;
    uint32_t width = (uint32_t)(s->vec * eb);
    /* The loop is unrolled: a pass issues its LOADS loads, then their adds. */
    for (int64_t p = 0; p < s->iters; p++) {
        /* the addresses need no load (emit.h, marks): only the adds do */
        mg_emit_needs(w, 0);
        mg_emit_alu(w, NULL, SITE_ADDR, MG_ALU_INT, 1, 1, 0);          /* pz */
        for (int64_t i = 0; i < LOADS; i++) {
            mg_emit_needs(w, 0);
            mg_emit_alu(w, NULL, SITE_ADDR, MG_ALU_INT, 1, 3, 0);      /* add, and, mad */
            mg_emit_mem(w, MG_REC_BUF_LOAD, SITE_LOAD, TSRC, width);
            for (uint32_t l = 0; l < w->lanes; l++)
                mg_emit_lane(w, l, ((w->gid[0][l] + i) & (L - 1)) * s->stride, 0);
            mg_emit_put(w);
        }
        mg_emit_alu(w, NULL, SITE_ADD, MG_ALU_FP32, (int)s->vec, LOADS, 1);
    }
    mg_emit_mem(w, MG_REC_BUF_STORE, SITE_OUT, TOUT, (uint32_t)(s->vec * 4));
    for (uint32_t l = 0; l < w->lanes; l++) mg_emit_lane(w, l, w->gid[0][l] * s->vec * 4, 0);
    mg_emit_put(w);
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, trace_body, s);
}

/* ---- reference ------------------------------------------------------------- */

static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    int64_t SE = s->stride / mg_sched_elem_bytes(s), L = s->readers;
    const float *src = h->f[TSRC];
    for (int64_t g = 0; g < s->items; g++) {
        float acc[4] = {0};
        for (int64_t p = 0; p < s->iters; p++)
            for (int64_t i = 0; i < LOADS; i++)
                for (int64_t e = 0; e < s->vec; e++)
                    acc[e] += src[((g + i) & (L - 1)) * SE + e];
        for (int64_t e = 0; e < s->vec; e++) h->f[TOUT][g * s->vec + e] = acc[e];
    }
}

const mg_op mg_op_vload = {
    .name = "vload",
    .summary = "buffer vector loads, every lane on its own cache line (load-issue granularity)",
    .keys = keys,
    .knobs = "wg vec storage warp",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
};
