/*
 * rowred.c - the row-reduction kernel of softmax and layernorm (rowred.h).
 */
#include "traces/ops/rowred.h"

#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/plan.h"
#include "traces/ops/walk.h"

#include <stdio.h>
#include <string.h>

enum { TX, TY };                /* tensor indices */
/* Sites: per reduction r, base 1 + 8 r; then the output pass. */
enum { S_LOAD, S_UPD, S_HOR, S_LST, S_BAR, S_LLD, S_CMB, S_FIN };
#define SITE(r, what) (1 + 8 * (r) + (what))
enum { SITE_OUT_LOAD = 17, SITE_OUT_ALU, SITE_OUT_STORE };

#define MAX_LOCAL 32768         /* OpenCL 1.2's minimum local memory */

typedef struct rr_geom {
    int64_t TM, V, S, CS, MG;
    int img_x, img_y, eb;
} rr_geom;

static void geom(const mg_schedule *s, rr_geom *g)
{
    g->TM = s->tile[0];
    g->img_x = s->layout[MG_ROLE_IN] == MG_LAYOUT_IMAGE;
    g->img_y = s->layout[MG_ROLE_OUT] == MG_LAYOUT_IMAGE;
    g->V = (g->img_x || g->img_y) ? 4 : s->vec;
    g->S = s->split;
    g->CS = s->N / (g->V * g->S);
    g->MG = mg_ceil_div(s->M, g->TM);
    g->eb = mg_sched_elem_bytes(s);
}

static int64_t local_bytes(const mg_schedule *s, const rr_geom *g)
{
    return g->S > 1 ? 2 * g->S * s->wg[0] * g->TM * 4 : 0;
}

void mg_rr_defaults(mg_schedule *s)
{
    s->wg[0] = 64;
    s->wg[1] = s->wg[2] = 1;
    s->tile[0] = s->tile[1] = 1;
}

int mg_rr_check(const rr_op *op, const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    rr_geom g;
    geom(s, &g);
    const char *n = op->name;
    if (s->vec != 1 && s->vec != 2 && s->vec != 4 && s->vec != 8) {
        mg_diag_error(d, "%s: %s: vec=%lld: a vector load is 1, 2, 4 or 8 wide", where, n,
                      (long long)s->vec);
        return -1;
    }
    if ((g.img_x || g.img_y) && s->vec != 4 && mg_schedule_is_set(s, "vec"))
        mg_diag_error(d, "%s: %s: vec=%lld with an image: a texel holds 4 values, so loads "
                      "and stores are 4 wide", where, n, (long long)s->vec);
    if (s->tile[1] != 1)
        mg_diag_error(d, "%s: %s: tile=%lldx%lld: the tile is TMx1 (TM whole rows per item; "
                      "split spreads a row over items)", where, n, (long long)s->tile[0],
                      (long long)s->tile[1]);
    if (s->N % (g.V * g.S))
        mg_diag_error(d, "%s: %s: N=%lld must be a multiple of vector width x split = %lld x "
                      "%lld (each of the split items takes whole chunks of the row)", where,
                      n, (long long)s->N, (long long)g.V, (long long)g.S);
    if (s->wg[1] != 1)
        mg_diag_error(d, "%s: %s: the launch is rows x 1 x split: wg must be X,1,%lld", where,
                      n, (long long)g.S);
    if (s->wg[2] != g.S)
        mg_diag_error(d, "%s: %s: split=%lld needs wg=X,1,%lld (the split items of one row "
                      "must be in one work group to meet at its barriers), got wg z %lld",
                      where, n, (long long)g.S, (long long)g.S, (long long)s->wg[2]);
    if (s->wg[0] * s->wg[1] * s->wg[2] > 1024)
        mg_diag_error(d, "%s: %s: a work group of %lld items is more than 1024", where, n,
                      (long long)(s->wg[0] * s->wg[1] * s->wg[2]));
    else if (local_bytes(s, &g) > MAX_LOCAL)
        mg_diag_error(d, "%s: %s: split=%lld needs %lld bytes of local memory (more than %d)",
                      where, n, (long long)g.S, (long long)local_bytes(s, &g), MAX_LOCAL);
    return d->n == before ? 0 : -1;
}

/* Flops of one element of a record list (sum of n x flops). */
static int64_t code_flops(const rr_code *c)
{
    int64_t f = 0;
    for (int i = 0; i < RR_MAX_ALU && c->alu[i].n; i++) f += (int64_t)c->alu[i].n * c->alu[i].flops;
    return f;
}

double mg_rr_flops(const rr_op *op, const mg_schedule *s)
{
    rr_geom g;
    geom(s, &g);
    /* per row: every element through both updates and the output; per
     * item of the row: horizontal reductions, combines, finishes */
    double elem = (double)(code_flops(&op->red[0].update) + code_flops(&op->red[1].update) +
                           code_flops(&op->out));
    double item = 0;
    for (int r = 0; r < 2; r++)
        item += (double)(g.V - 1) + (double)(g.S - 1) + (double)code_flops(&op->red[r].finish);
    return (double)s->M * ((double)s->N * elem + (double)g.S * item);
}

void mg_rr_plan(const rr_op *op, const mg_schedule *s, mg_kernel *k)
{
    rr_geom g;
    geom(s, &g);
    snprintf(k->name, sizeof k->name, "%s", op->kernel);
    int dt = mg_plan_dtype(s);
    int x = mg_plan_tensor(k, "X", MG_TENSOR_IN, mg_plan_layout(s, MG_ROLE_IN), dt, 4,
                           MG_INIT_RANDOM, 1, s->M, 1, s->N);
    int y = mg_plan_tensor(k, "Y", MG_TENSOR_OUT, mg_plan_layout(s, MG_ROLE_OUT), dt, 4,
                           MG_INIT_ZERO, 1, s->M, 1, s->N);
    mg_plan_arg_tensor(k, x);
    mg_plan_arg_tensor(k, y);
    if (g.S > 1) mg_plan_arg_local(k, "red", local_bytes(s, &g));
    int64_t items[3] = {g.MG, 1, g.S};
    mg_plan_ndrange(k, 3, items, s->wg);
    k->needs_fp16 = s->compute == MG_PREC_FP16;
    int64_t vecs = g.TM * g.V + 2 * g.V;          /* accumulators, chunk, temporary */
    if (s->compute == MG_PREC_FP16) vecs = (vecs + 1) / 2;
    k->f.regs_per_item = vecs + 2 * g.TM + 6;     /* + row results, ids, counters */
    k->f.loop_iters = 3 * g.TM * g.CS;
    k->f.bytes_per_iter = g.V * g.eb;
    k->f.bytes_per_item = k->f.loop_iters * k->f.bytes_per_iter;
    k->f.flops = mg_rr_flops(op, s);
    k->f.local_bytes = local_bytes(s, &g);
    k->f.access_width = g.V * g.eb;
    k->f.boundary_checks = s->M % g.TM != 0 || k->global[0] != g.MG;
    k->log_cap = 4 * g.TM * g.CS + (g.S > 1 ? 2 * (g.TM + g.S * g.TM) : 0);
}

/* ---- OpenCL ---------------------------------------------------------------- */

/* Append text t with $V, $S and $R replaced. */
static void put_code(mg_sb *o, const char *t, const char *vt, const char *st, int64_t N)
{
    for (; *t; t++) {
        if (t[0] == '$' && t[1] == 'V') { mg_sb_puts(o, vt); t++; }
        else if (t[0] == '$' && t[1] == 'S') { mg_sb_puts(o, st); t++; }
        else if (t[0] == '$' && t[1] == 'R') {
            mg_sb_printf(o, "(1.0f / %lld)", (long long)N);
            t++;
        }
        else mg_sb_printf(o, "%c", *t);
    }
}

/* What the kernel's parts share. */
typedef struct rr_cl {
    const rr_op       *op;
    const mg_schedule *s;
    const mg_kernel   *k;
    rr_geom     g;
    int         fp16;                   /* compute in half */
    const char *vt, *st;                /* the V-wide and the scalar compute type */
} rr_cl;

#define IND "        "                  /* the body of a walk over the row's chunks */

/* The load of chunk c0 + c of row m0 + i, as an expression. */
static void load_x(const rr_cl *c, int site, mg_sb *o)
{
    char e[160];
    if (c->g.img_x) {
        mg_cl_rd(o, c->k, TX, site, "c0 + c", "m0 + i", c->fp16);
    } else {
        snprintf(e, sizeof e, "(m0 + i) * %lld + (c0 + c) * %lld", (long long)c->s->N,
                 (long long)c->g.V);
        mg_cl_ld(o, c->k, TX, site, e, (int)c->g.V, c->fp16);
    }
}

/* "for (rows of the tile) { if (row past M) continue;" opening a loop
 * over the tile's rows, its body at 8 spaces. */
static void open_rows(const rr_cl *c, mg_sb *o)
{
    mg_sb_printf(o, "    for (int i = 0; i < %lld; i++) {\n        if (m0 + i >= %lld) "
                    "continue;\n        ", (long long)c->g.TM, (long long)c->s->M);
}

/* Signature, ids and the accumulators. */
static void cl_head(const rr_cl *c, mg_sb *o)
{
    long long TM = c->g.TM;
    mg_cl_signature(c->k, o);
    mg_sb_printf(o, "    const int m0 = get_global_id(0) * %lld, c0 = get_local_id(2) * %lld;\n",
                 TM, (long long)c->g.CS);
    if (c->g.S > 1)
        mg_sb_printf(o, "    const int s = get_local_id(2), lx = get_local_id(0);\n");
    mg_sb_printf(o, "    %s a[%lld], v;\n    %s r0[%lld], r1[%lld];\n", c->vt, TM, c->st, TM,
                 TM);
}

/* Reduction r's pass over the item's chunks into the vector a[i]. */
static void cl_pass(const rr_cl *c, int r, mg_sb *o)
{
    const rr_red *rd = &c->op->red[r];
    const mg_schedule *s = c->s;
    mg_sb_printf(o, "    /* reduction %d */\n    for (int i = 0; i < %lld; i++) a[i] = (%s)(",
                 r, (long long)c->g.TM, c->vt);
    put_code(o, rd->init, c->vt, c->st, s->N);
    mg_sb_puts(o, ");\n");
    if (s->unroll > 1) mg_sb_printf(o, "    #pragma unroll %lld\n", (long long)s->unroll);
    mg_walk_cl_open(o, s->pattern, c->g.TM, c->g.CS, "i", "c", "    ");
    mg_sb_printf(o, IND "if (m0 + i >= %lld) continue;\n" IND "v = ", (long long)s->M);
    load_x(c, SITE(r, S_LOAD), o);
    mg_sb_puts(o, ";\n" IND);
    put_code(o, rd->update.cl, c->vt, c->st, s->N);
    mg_sb_puts(o, "\n");
    mg_walk_cl_close(o, "    ");
}

/* Reduction r across a[i]'s V lanes into r<r>[i]. */
static void cl_horizontal(const rr_cl *c, int r, mg_sb *o)
{
    const rr_red *rd = &c->op->red[r];
    open_rows(c, o);
    mg_sb_printf(o, "r%d[i] = ", r);
    if (c->g.V == 1) {
        mg_sb_puts(o, "a[i];\n    }\n");
        return;
    }
    for (int q = 1; q < c->g.V; q++) mg_sb_puts(o, rd->max ? "fmax(" : "(");
    mg_sb_puts(o, "a[i].s0");
    for (int q = 1; q < c->g.V; q++) {
        if (rd->max) mg_sb_printf(o, ", a[i].s%x)", q);
        else mg_sb_printf(o, " + a[i].s%x)", q);
    }
    mg_sb_puts(o, ";\n    }\n");
}

/* split > 1: reduction r's partials through local memory: every item
 * stores its r<r>[i], the barrier, every item combines the S partials of
 * its rows (s ascending) into r<r>[i]. */
static void cl_combine(const rr_cl *c, int r, mg_sb *o)
{
    const rr_red *rd = &c->op->red[r];
    long long TM = c->g.TM, S = c->g.S, WG = (long long)c->s->wg[0], base = r * S * WG * TM;
    char e[200], v[32];
    snprintf(v, sizeof v, "r%d[i]", r);
    snprintf(e, sizeof e, "%lld + (s * %lld + lx) * %lld + i", base, WG, TM);
    open_rows(c, o);
    mg_cl_stl(o, SITE(r, S_LST), "red", e, 1, v);
    mg_sb_puts(o, "\n    }\n    barrier(CLK_LOCAL_MEM_FENCE);\n");
    open_rows(c, o);
    mg_sb_printf(o, "%s t = (%s)", c->st, c->st);
    snprintf(e, sizeof e, "%lld + lx * %lld + i", base, TM);
    mg_cl_ldl(o, SITE(r, S_LLD), "red", e, 1, NULL);
    mg_sb_printf(o, ";\n        for (int p = 1; p < %lld; p++) t = ", S);
    if (rd->max) mg_sb_printf(o, "fmax(t, (%s)", c->st);
    else mg_sb_printf(o, "t + (%s)", c->st);
    snprintf(e, sizeof e, "%lld + (p * %lld + lx) * %lld + i", base, WG, TM);
    mg_cl_ldl(o, SITE(r, S_LLD), "red", e, 1, NULL);
    mg_sb_printf(o, "%s;\n        r%d[i] = t;\n    }\n", rd->max ? ")" : "", r);
}

/* The output pass: each chunk loaded again, transformed, stored. */
static void cl_output(const rr_cl *c, mg_sb *o)
{
    const mg_schedule *s = c->s;
    char e[200];
    mg_sb_puts(o, "    /* output */\n");
    if (s->unroll > 1) mg_sb_printf(o, "    #pragma unroll %lld\n", (long long)s->unroll);
    mg_walk_cl_open(o, s->pattern, c->g.TM, c->g.CS, "i", "c", "    ");
    mg_sb_printf(o, IND "if (m0 + i >= %lld) continue;\n" IND "v = ", (long long)s->M);
    load_x(c, SITE_OUT_LOAD, o);
    mg_sb_puts(o, ";\n" IND "v = ");
    put_code(o, c->op->out.cl, c->vt, c->st, s->N);
    mg_sb_puts(o, ";\n" IND);
    if (c->g.img_y) {
        mg_cl_wr(o, c->k, TY, SITE_OUT_STORE, "c0 + c", "m0 + i", "v", c->fp16);
    } else {
        snprintf(e, sizeof e, "(m0 + i) * %lld + (c0 + c) * %lld", (long long)s->N,
                 (long long)c->g.V);
        mg_cl_st(o, c->k, TY, SITE_OUT_STORE, e, (int)c->g.V, "v", c->fp16);
    }
    mg_sb_puts(o, "\n");
    mg_walk_cl_close(o, "    ");
}

/* The kernel: per reduction its pass, the horizontal step, the split's
 * combine and the finish; then the output pass. */
void mg_rr_emit_cl(const rr_op *op, const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    rr_cl c = {.op = op, .s = s, .k = k, .fp16 = s->compute == MG_PREC_FP16};
    geom(s, &c.g);
    c.vt = mg_cl_vtype(c.fp16, (int)c.g.V);
    c.st = mg_cl_vtype(c.fp16, 1);
    cl_head(&c, o);
    for (int r = 0; r < 2; r++) {
        cl_pass(&c, r, o);
        cl_horizontal(&c, r, o);
        if (c.g.S > 1) cl_combine(&c, r, o);
        if (op->red[r].finish.cl) {
            open_rows(&c, o);
            put_code(o, op->red[r].finish.cl, c.vt, c.st, s->N);
            mg_sb_puts(o, "\n    }\n");
        }
    }
    cl_output(&c, o);
    mg_sb_puts(o, "}\n");
}

#undef IND

/* ---- trace ----------------------------------------------------------------- */

typedef struct rr_ctx {
    const rr_op *op;
    const mg_schedule *s;
} rr_ctx;

/* The ALU records of code c for the lanes in m, vec wide. */
static void put_alu(mg_warp *w, mg_alu_run *run, const rr_code *c, mg_lmask m, int site,
                    int fpcls, int vec)
{
    for (int i = 0; i < RR_MAX_ALU && c->alu[i].n; i++) {
        int cls = c->alu[i].cls == RR_FP ? fpcls : c->alu[i].cls;
        mg_alu_add(w, run, m, site, cls, vec, (uint64_t)c->alu[i].n, c->alu[i].flops);
    }
}

/* A load (or the store) of chunk c0 + c of row m0 + i for the lanes in m. */
static void chunk_access(mg_warp *w, mg_alu_run *run, const mg_schedule *s, const rr_geom *g,
                         int out, int site, const int64_t *m0, const int64_t *c0, mg_lmask m,
                         int64_t i, int64_t c)
{
    mg_alu_flush(w, run);
    int img = out ? g->img_y : g->img_x;
    int type = img ? (out ? MG_REC_IMG_WRITE : MG_REC_TEX_READ)
                   : (out ? MG_REC_BUF_STORE : MG_REC_BUF_LOAD);
    mg_emit_mem(w, type, site, out ? TY : TX, (uint32_t)(g->V * g->eb));
    for (uint32_t l = 0; l < w->lanes; l++) {
        if (!mg_lm_get(&m, l)) continue;
        if (img) mg_emit_lane(w, l, c0[l] + c, m0[l] + i);
        else mg_emit_lane(w, l, ((m0[l] + i) * s->N + (c0[l] + c) * g->V) * g->eb, 0);
    }
    mg_emit_put(w);
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const rr_ctx *x = ctx;
    const rr_op *op = x->op;
    const mg_schedule *s = x->s;
    rr_geom g;
    geom(s, &g);
    int fpcls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    int64_t m0[MG_TRACE_MAX_LANES], c0[MG_TRACE_MAX_LANES], sp[MG_TRACE_MAX_LANES];
    int64_t lx[MG_TRACE_MAX_LANES];
    mg_lmask rowm[64];
    for (int64_t i = 0; i < g.TM; i++) rowm[i] = (mg_lmask){{0, 0}};
    for (uint32_t l = 0; l < w->lanes; l++) {
        m0[l] = w->gid[0][l] * g.TM;
        sp[l] = w->lid[2][l];
        c0[l] = sp[l] * g.CS;
        lx[l] = w->lid[0][l];
        for (int64_t i = 0; i < g.TM; i++)
            if (m0[l] + i < s->M) mg_lm_set(&rowm[i], l);
    }
    int64_t WG = w->k->local[0];
    mg_alu_run run = {{{0, 0}}, 0, 0, 0, 0, 0};
    rr_code hor = {NULL, {{RR_FP, (int)g.V - 1, 1}, {0, 0, 0}}};
    rr_code cmb = {NULL, {{RR_FP, 1, 1}, {0, 0, 0}}};
    mg_walk wk;
    int64_t i, c;
    for (int r = 0; r < 2; r++) {
        const rr_red *rd = &op->red[r];
        mg_walk_start(&wk, s->pattern, g.TM, g.CS);
        while (mg_walk_next(&wk, &i, &c)) {
            chunk_access(w, &run, s, &g, 0, SITE(r, S_LOAD), m0, c0, rowm[i], i, c);
            put_alu(w, &run, &rd->update, rowm[i], SITE(r, S_UPD), fpcls, (int)g.V);
        }
        if (g.V > 1)
            for (i = 0; i < g.TM; i++) put_alu(w, &run, &hor, rowm[i], SITE(r, S_HOR), fpcls, 1);
        if (g.S > 1) {
            int64_t base = r * g.S * WG * g.TM;
            mg_alu_flush(w, &run);
            for (i = 0; i < g.TM; i++) {
                mg_emit_mem(w, MG_REC_LOCAL_STORE, SITE(r, S_LST), -1, 4);
                for (uint32_t l = 0; l < w->lanes; l++)
                    if (mg_lm_get(&rowm[i], l))
                        mg_emit_lane(w, l, (base + (sp[l] * WG + lx[l]) * g.TM + i) * 4, 0);
                mg_emit_put(w);
            }
            mg_walk_barrier_local(w, SITE(r, S_BAR));
            for (i = 0; i < g.TM; i++)
                for (int64_t p = 0; p < g.S; p++) {
                    mg_alu_flush(w, &run);
                    mg_emit_mem(w, MG_REC_LOCAL_LOAD, SITE(r, S_LLD), -1, 4);
                    for (uint32_t l = 0; l < w->lanes; l++)
                        if (mg_lm_get(&rowm[i], l))
                            mg_emit_lane(w, l, (base + (p * WG + lx[l]) * g.TM + i) * 4, 0);
                    mg_emit_put(w);
                    if (p > 0) put_alu(w, &run, &cmb, rowm[i], SITE(r, S_CMB), fpcls, 1);
                }
        }
        if (rd->finish.cl)
            for (i = 0; i < g.TM; i++)
                put_alu(w, &run, &rd->finish, rowm[i], SITE(r, S_FIN), fpcls, 1);
    }
    mg_walk_start(&wk, s->pattern, g.TM, g.CS);
    while (mg_walk_next(&wk, &i, &c)) {
        chunk_access(w, &run, s, &g, 0, SITE_OUT_LOAD, m0, c0, rowm[i], i, c);
        put_alu(w, &run, &op->out, rowm[i], SITE_OUT_ALU, fpcls, (int)g.V);
        chunk_access(w, &run, s, &g, 1, SITE_OUT_STORE, m0, c0, rowm[i], i, c);
    }
    mg_alu_flush(w, &run);
}

void mg_rr_trace_wg(const rr_op *op, const mg_schedule *s, const mg_kernel *k,
                    const uint32_t wg[3], mg_trace_wg *out)
{
    rr_ctx x = {op, s};
    mg_emit_wg(k, wg, out, trace_body, &x);
}
