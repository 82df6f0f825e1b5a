/*
 * mlp.c - memory-level parallelism of one warp: a pointer chase whose
 * every step issues `loads` independent loads, each of a whole cache line
 * for the warp, and waits for all of them before the next step (the
 * `lsu` aspect of `mgprobe run`; sim/MODEL.md "Issue").
 *
 * The chase runs over `range` bytes of int32, `range / stride` lines of
 * `stride` bytes (NL lines of SL elements, both powers of two, NL >= 32),
 * in a buffer of twice that (the loads of a step reach past the chased
 * lines).  The lines form one cycle in the order of a full-period linear
 * congruence (next(x) = (x * 1103515245 + 12345) mod NL): every element of
 * line x (and of line x + NL) holds next(x) * SL, the element index of
 * the next line's start.
 * Items run in chains of 32 (a chain per 32-lane warp; a wider warp holds
 * several): chain q = g / 32 starts at line (q * 97) mod NL, and its item
 * g reads element c + j * D * SL + g mod SL with its j-th load of a step
 * (j = 0..loads-1, D = NL / 32 lines between them), so a 32-lane warp's
 * every load reads one line (its lanes wrap round a line shorter than the
 * warp), at a constant offset from the step's base c + g mod SL: a
 * compiler puts the offsets into the loads, no arithmetic per load.  The step's next position is
 * c = v0 + (v1 + ... + v(loads-1)) * zero, `zero` a kernel argument that is
 * 0 at run time, the sum a balanced tree (its dependent chain grows with
 * log2 of the loads, not with their number): the next step needs every
 * load of this one, and the compiler can neither drop the loads nor
 * reorder a step's loads past the next step's.  A step therefore costs one round trip of `loads` loads in
 * flight together: the time per step against `loads` gives the round trip
 * (its intercept) and the cost of each further load in flight (its
 * slope), at the hierarchy level the range settles in.
 *
 * With reuse = R > 1, load j reads line j / R instead, its lanes shifted
 * by j mod R elements (element c + (j / R) D SL + (g + j mod R) mod SL):
 * R loads of a step, each its own instruction, read the same line, as
 * the several narrow loads a compiler makes of one wide vector load do;
 * every element of a line holds the same value, so the chase is the same.
 * Out[g] gets the last position; the reference follows the chain the init
 * hook wrote.  No flops.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <stdio.h>

enum { SITE_START = 1, SITE_ADDR, SITE_LOAD, SITE_NEXT, SITE_OUT };
enum { TP, TOUT };

#define CHAIN_ITEMS 32             /* items following one chain */
/* The registers a step holds besides its `loads` values, counted from the
 * emitted loop while its loads are in flight: the 64-bit address of P[b]
 * (the other loads are constant offsets from it: 2), P's 64-bit base that
 * the next step's address is formed from (2), l, zero, the loop counter i
 * and g, kept for the store of Out[g] after the loop (1 each).  b and c
 * are dead once the address is formed; the sum's partial sums reuse the
 * registers of the values they add.  With reuse = R, each further shift
 * adds its lane l_r and its load address (2 more per shift). */
#define REGS_STEP   8
#define MAX_LOADS   32

static const mg_key keys[] = {
    MG_KEY_INT("range", range, 128, (int64_t)1 << 30, "16384",
               "bytes of the chased buffer (a power of two, at least 32 lines)"),
    MG_KEY_INT("stride", stride, 4, 4096, "128",
               "bytes per line (a power of two: the cache line the loads are laid out in)"),
    MG_KEY_INT("loads", readers, 1, MAX_LOADS, "1",
               "independent loads a step issues before it waits for them all"),
    MG_KEY_INT("reuse", reuse, 1, MAX_LOADS, "1",
               "loads of a step that read the same line (1: each load its own line)"),
    MG_KEY_INT("iters", iters, 1, (int64_t)1 << 24, "256", "steps per work item"),
    MG_KEY_INT("items", items, 1, (int64_t)1 << 20, "32",
               "work items (global size; a multiple of wg)"),
    MG_KEY_END,
};

typedef struct mlp_geom {
    int64_t NL, SL, R, D;      /* lines, elements per line, elements, lines between loads */
    int64_t reuse;             /* loads per line */
} mlp_geom;

static void geom(const mg_schedule *s, mlp_geom *g)
{
    g->SL = s->stride / 4;
    g->R = s->range / 4;
    g->NL = g->SL ? g->R / g->SL : 1;
    g->D = g->NL / 32 > 0 ? g->NL / 32 : 1;
    g->reuse = s->reuse > 0 ? s->reuse : 1;
}

static int64_t next_line(int64_t x, int64_t NL)
{
    return (int64_t)(((uint64_t)x * 1103515245u + 12345u) & (uint64_t)(NL - 1));
}

static int64_t start_elem(const mlp_geom *g, int64_t item)
{
    return (item / CHAIN_ITEMS * 97 & (g->NL - 1)) * g->SL;
}

/* Element item reads with load j of the step at position c. */
static int64_t elem_of(const mlp_geom *g, int64_t c, int64_t j, int64_t item)
{
    return c + j / g->reuse * g->D * g->SL + ((item + j % g->reuse) & (g->SL - 1));
}

static void defaults(mg_schedule *s)
{
    s->wg[0] = 32;
    s->wg[1] = s->wg[2] = 1;
}

static int pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: mlp: the launch is 1D: wg must be X,1,1", where);
    if (s->items % s->wg[0])
        mg_diag_error(d, "%s: mlp: items=%lld is not a multiple of wg=%lld", where,
                      (long long)s->items, (long long)s->wg[0]);
    if (!pow2(s->range) || !pow2(s->stride))
        mg_diag_error(d, "%s: mlp: range=%lld and stride=%lld must be powers of two", where,
                      (long long)s->range, (long long)s->stride);
    else if (s->range / s->stride < 32)
        mg_diag_error(d, "%s: mlp: range=%lld holds %lld lines of %lld bytes: it needs 32",
                      where, (long long)s->range, (long long)(s->range / s->stride),
                      (long long)s->stride);
    return d->n == before ? 0 : -1;
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    mlp_geom g;
    geom(s, &g);
    snprintf(k->name, sizeof k->name, "mlp");
    int p = mg_plan_tensor(k, "P", MG_TENSOR_IN, MG_TL_BUFFER, MG_DT_I32, 1, MG_INIT_CHAIN, 1,
                           1, 1, 2 * g.R);
    int o = mg_plan_tensor(k, "Out", MG_TENSOR_OUT, MG_TL_BUFFER, MG_DT_I32, 1, MG_INIT_ZERO,
                           1, 1, 1, s->items);
    mg_plan_arg_tensor(k, p);
    mg_plan_arg_tensor(k, o);
    mg_plan_arg_int(k, "zero", 0);               /* the sum times zero: see the top */
    int64_t items[3] = {s->items, 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    k->f.regs_per_item = (int)s->readers + REGS_STEP + 2 * (int)(g.reuse - 1);
    k->f.loop_iters = s->iters;
    k->f.bytes_per_iter = 4 * s->readers;
    k->f.bytes_per_item = 4 * s->readers * s->iters;
    k->f.flops = 0;
    k->f.access_width = 4;
    k->f.boundary_checks = 0;
    k->log_cap = s->iters * s->readers + 1;
}

/* ---- OpenCL ---------------------------------------------------------------- */

/* (v[lo] + ... + v[hi-1]) as a balanced tree of additions. */
static void tree_sum(mg_sb *o, int64_t lo, int64_t hi)
{
    if (hi - lo == 1) {
        mg_sb_printf(o, "v%lld", (long long)lo);
        return;
    }
    int64_t mid = lo + (hi - lo) / 2;
    mg_sb_puts(o, "(");
    tree_sum(o, lo, mid);
    mg_sb_puts(o, " + ");
    tree_sum(o, mid, hi);
    mg_sb_puts(o, ")");
}

/* Levels of the tree of n values (0 for one). */
static int tree_depth(int64_t n)
{
    int d = 0;
    while (((int64_t)1 << d) < n) d++;
    return d;
}

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    mlp_geom g;
    geom(s, &g);
    mg_cl_signature(k, o);
    mg_sb_printf(o, "    const int g = get_global_id(0), l = g & %lld;\n",
                 (long long)(g.SL - 1));
    for (int64_t r = 1; r < g.reuse; r++)     /* the lanes' shifts of reuse */
        mg_sb_printf(o, "    const int l%lld = (g + %lld) & %lld;\n", (long long)r,
                     (long long)r, (long long)(g.SL - 1));
    mg_sb_printf(o, "    int c = ((g / %d) * 97 & %lld) * %lld;\n"
                    "    for (int i = 0; i < %lld; i++) {\n"
                    "        const int b = c + l;\n",
                 CHAIN_ITEMS, (long long)(g.NL - 1), (long long)g.SL, (long long)s->iters);
    for (int64_t r = 1; r < g.reuse; r++)
        mg_sb_printf(o, "        const int b%lld = c + l%lld;\n", (long long)r, (long long)r);
    char e[96], base[24];
    for (int64_t j = 0; j < s->readers; j++) {
        if (j % g.reuse) snprintf(base, sizeof base, "b%lld", (long long)(j % g.reuse));
        else snprintf(base, sizeof base, "b");
        snprintf(e, sizeof e, "%s + %lld", base, (long long)(j / g.reuse * g.D * g.SL));
        mg_sb_printf(o, "        const int v%lld = ", (long long)j);
        mg_cl_ld(o, k, TP, SITE_LOAD, e, 1, 0);
        mg_sb_puts(o, ";\n");
    }
    mg_sb_puts(o, "        c = v0");
    if (s->readers > 1) {
        mg_sb_puts(o, " + ");
        tree_sum(o, 1, s->readers);
        mg_sb_puts(o, " * zero");
    }
    mg_sb_puts(o, ";\n    }\n    ");
    mg_cl_st(o, k, TOUT, SITE_OUT, "g", 1, "c", 0);
    mg_sb_puts(o, "\n}\n");
}

/* ---- trace ----------------------------------------------------------------- */

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    mlp_geom g;
    geom(s, &g);
    int64_t c[MG_TRACE_MAX_LANES];
    for (uint32_t l = 0; l < w->lanes; l++) c[l] = start_elem(&g, w->gid[0][l]);
    mg_emit_alu(w, NULL, SITE_START, MG_ALU_INT, 1, 4, 0);
    for (int64_t i = 0; i < s->iters; i++) {
        /* the step's base: the loads add constant offsets to it */
        mg_emit_alu(w, NULL, SITE_ADDR, MG_ALU_INT, 1, g.reuse, 0);
        for (int64_t j = 0; j < s->readers; j++) {
            mg_emit_mem(w, MG_REC_BUF_LOAD, SITE_LOAD, TP, 4);
            for (uint32_t l = 0; l < w->lanes; l++)
                mg_emit_lane(w, l, elem_of(&g, c[l], j, w->gid[0][l]) * 4, 0);
            mg_emit_put(w);
        }
        /* the sum's tree, times zero, plus v0: it needs every load */
        int adds = (int)s->readers - 2 > 0 ? (int)s->readers - 2 : 0;
        if (s->readers == 1) mg_emit_alu(w, NULL, SITE_NEXT, MG_ALU_INT, 1, 1, 0);
        else mg_emit_alu_dep(w, NULL, SITE_NEXT, MG_ALU_INT, 1, adds + 2, 0,
                             tree_depth(s->readers - 1) + 2);
        for (uint32_t l = 0; l < w->lanes; l++)
            c[l] = next_line(elem_of(&g, c[l], 0, w->gid[0][l]) / g.SL, g.NL) * g.SL;
    }
    mg_emit_mem(w, MG_REC_BUF_STORE, SITE_OUT, TOUT, 4);
    for (uint32_t l = 0; l < w->lanes; l++) mg_emit_lane(w, l, w->gid[0][l] * 4, 0);
    mg_emit_put(w);
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, trace_body, s);
}

/* ---- host ------------------------------------------------------------------ */

/* Every element of line x holds the next line's first element. */
static void init(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    mlp_geom g;
    geom(s, &g);
    int32_t *P = h->i[TP];
    for (int64_t e = 0; e < 2 * g.R; e++)
        P[e] = (int32_t)(next_line(e / g.SL % g.NL, g.NL) * g.SL);
}

/* Follow the chain in P itself. */
static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    mlp_geom g;
    geom(s, &g);
    const int32_t *P = h->i[TP];
    for (int64_t it = 0; it < s->items; it++) {
        int64_t c = start_elem(&g, it);
        for (int64_t i = 0; i < s->iters; i++) c = P[elem_of(&g, c, 0, it)];
        h->i[TOUT][it] = (int32_t)c;
    }
}

const mg_op mg_op_mlp = {
    .name = "mlp",
    .summary = "a warp's loads in flight together: a chase of steps of independent line loads",
    .keys = keys,
    .knobs = "wg warp",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .init = init,
    .reference = reference,
};
