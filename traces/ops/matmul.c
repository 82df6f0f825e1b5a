/*
 * matmul.c - C[M,N] = A[M,K] x B[K,N]; fully connected (matrix-vector,
 * kernel "fc") when M = 1 (romou FC and 4.2; tmmodel MatMul, Listing 1).
 *
 * Tensors, logical shapes [d0, d1, d2, d3] (kernel.h):
 *   A [1, M, 1, K]  image: ceil(K/4) x M texels, texel (k/4, m) = A[m][k..k+3]
 *   B [1, K, 1, N]  image: ceil(N/4) x K texels, texel (n/4, k) = B[k][n..n+3]
 *   C [1, M, 1, N]  image: ceil(N/4) x M texels
 * so a texel holds 4 consecutive K values of a row of A and 4 consecutive N
 * values of a row of B or C (romou's packing); buffers are row-major.
 *
 * V, the vector width, is 4 (a texel) when any tensor is an image, else vec.
 * Work item (gx, gy, s) computes the tile=TMxTN of C at rows m0 = gy*TM..,
 * columns n0 = gx*TN.. (TN/V column vectors, NJ = TN/V), over the reduction
 * slice s*KC .. (s+1)*KC, KC = K/split.  NDRange (ceil(N/TN), ceil(M/TM),
 * split), work group wg=X,Y,split: the split items of one tile are in one
 * group.  The reduction goes U*V values per step (U = unroll: register
 * blocking; the step's values are loaded, then multiplied):
 *
 *   for (step) { k0 = s*KC + step*U*V
 *       av[i][u] = A[m0+i][k0+u*V .. +V)       (i < TM, u < U)   region TM x U
 *       bv[r][j] = B[k0+r][n0+j*V .. +V)       (r < U*V, j < NJ) region U*V x NJ
 *       acc[i][j] += av[i][u].s(q) * bv[u*V+q][j]   (q < V: V-wide FMAs, k ascending)
 *   }
 *
 * pattern = the order of the reads of each region (walk.h).  For B's
 * region: row reads B[k0][n0..], B[k0][n0+V..], ... B[k0+1][n0..], ... (a
 * row of texels at a time); column reads B[k0][n0..], B[k0+1][n0..], ...
 * down each vector column, then the next column; blockN walks bands of N
 * rows (k) column by column.  A's TM x U region (rows m, vector columns k)
 * is walked the same way.  When both regions are one column (U = 1, TN = V)
 * all patterns coincide.
 *
 * split=S > 1: items s > 0 store their partial tile to local memory
 * (float, red[((s-1)*wgx*wgy + lid)*TM*TN + i*TN + j*V]), every item reaches
 * barrier(CLK_LOCAL_MEM_FENCE) (no early return), then item s = 0 adds the
 * S-1 partials (s ascending) and writes C.  Rows past M and column vectors
 * past N are guarded (no load, no FMA, no store): tiles need not divide the
 * shape, but N must be a multiple of V.
 *
 * Features: loop_iters = steps = K / (split U V); bytes_per_iter = the
 * step's global loads, U V (TM + TN) elements; regs_per_item = the live
 * 32-bit values (mg_plan_regs): the accumulators TM TN and the step's loads
 * U V (TM + TN), all issued before its FMAs (av and bv are distinct
 * registers: the unroll is register blocking; a small step of buffer B
 * with TM = 1 streams B instead: held_values()), A's and B's addresses,
 * the ids and the loop (with split: its index and start); local_bytes = the
 * partial tiles; log_cap = steps (TM U + U V NJ) loads + TM NJ (split - 1)
 * local loads + TM NJ stores (item s = 0, the busiest).
 *
 * Flops: an FMA of two elements is 2, an add 1; the launch counts exactly
 * 2*M*N*K (FMAs) + (split-1)*M*N (combining partial sums), which is what the
 * trace's ALU records sum to.  Test inputs are positive ([0.5, 1.5)), so
 * sums do not cancel and the relative check against the double-precision
 * reference measures the kernel.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"
#include "traces/ops/walk.h"

#include <stdio.h>

enum { SITE_A = 1, SITE_B, SITE_FMA, SITE_LST, SITE_BAR, SITE_LLD, SITE_ADD, SITE_C, SITE_CVT };
enum { TA, TB, TC };            /* tensor indices */

#define MAX_REGS 1024           /* live values per item we accept */
#define MAX_LOCAL 32768         /* OpenCL 1.2's minimum local memory */

static const mg_key keys[] = {
    MG_KEY_INT("M", M, 1, 1 << 16, "64", "rows of A and C (1: fully connected)"),
    MG_KEY_INT("N", N, 1, 1 << 16, "64", "columns of B and C"),
    MG_KEY_INT("K", KD, 1, 1 << 16, "64", "reduction length: columns of A, rows of B"),
    MG_KEY_END,
};

typedef struct mm_geom {
    int64_t TM, TN, V, NJ, U, S, KC, steps, MT, NT;
    int img_a, img_b, img_c, eb;
} mm_geom;

static void geom(const mg_schedule *s, mm_geom *g)
{
    g->TM = s->tile[0];
    g->TN = s->tile[1];
    g->img_a = s->layout[MG_ROLE_IN] == MG_LAYOUT_IMAGE;
    g->img_b = s->layout[MG_ROLE_W] == MG_LAYOUT_IMAGE;
    g->img_c = s->layout[MG_ROLE_OUT] == MG_LAYOUT_IMAGE;
    g->V = (g->img_a || g->img_b || g->img_c) ? 4 : s->vec;
    g->NJ = g->TN / g->V;
    g->U = s->unroll;
    g->S = s->split;
    g->KC = s->KD / g->S;
    g->steps = g->KC / (g->U * g->V);
    g->MT = mg_ceil_div(s->M, g->TM);
    g->NT = mg_ceil_div(s->N, g->TN);
    g->eb = mg_sched_elem_bytes(s);
}

/* Live values per item: accumulators, the step's A and B registers (the
 * check's limit on what one item may keep). */
static int64_t live_values(const mm_geom *g)
{
    return g->TM * g->TN + g->U * g->V * (g->TM + g->TN);
}

/* Whether B is streamed: TM = 1, B is a buffer and the step's B values
 * number at most 32.  Each B vector then feeds a single accumulator
 * vector, so the compiler loads one row of B (TN values) just before its
 * FMAs instead of the whole step ahead of them.  The bound is observed,
 * not derived: with 64 or 128 B values per step the NVIDIA compiler holds
 * the whole step (unroll=4 fc kernels at 124 and 154 registers in
 * configs/measured/h100/latency-timings.json); 32 is also what 64K
 * registers give each of 2048 resident items.  Image reads of B are one
 * texture batch, held until the FMAs that wait for it.  The register
 * estimate (held_values) and the trace (trace_step_streamed) both follow
 * it. */
static int b_streamed(const mm_geom *g)
{
    return g->TM == 1 && !g->img_b && g->U * g->V * g->TN <= 32;
}

/* The values the register estimate counts: the accumulators TM TN, the
 * step's loads of A, TM U V, and of B, U V TN, all issued before the
 * step's FMAs, except a streamed B (b_streamed), one row of TN. */
static int64_t held_values(const mm_geom *g)
{
    int64_t b = b_streamed(g) ? g->TN : g->U * g->V * g->TN;
    return g->TM * g->TN + g->U * g->V * g->TM + b;
}

static int64_t local_bytes(const mg_schedule *s, const mm_geom *g)
{
    return g->S > 1 ? (g->S - 1) * s->wg[0] * s->wg[1] * g->TM * g->TN * 4 : 0;
}

static void defaults(mg_schedule *s)
{
    s->wg[0] = 16;
    s->wg[1] = 4;
    s->wg[2] = 1;
    s->tile[0] = 4;
    s->tile[1] = 4;
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    mm_geom g;
    geom(s, &g);
    long long V = (long long)g.V;
    if (s->vec != 1 && s->vec != 2 && s->vec != 4 && s->vec != 8) {
        mg_diag_error(d, "%s: matmul: vec=%lld: a vector load is 1, 2, 4 or 8 wide", where,
                      (long long)s->vec);
        return -1;
    }
    if ((g.img_a || g.img_b || g.img_c) && s->vec != 4 && mg_schedule_is_set(s, "vec"))
        mg_diag_error(d, "%s: matmul: vec=%lld with an image: a texel holds 4 values, so "
                      "loads and stores are 4 wide", where, (long long)s->vec);
    if (g.TN % g.V)
        mg_diag_error(d, "%s: matmul: tile=%lldx%lld: the column tile %lld must be a multiple "
                      "of the vector width %lld (a load of B and a store of C cover %lld "
                      "columns)", where, (long long)g.TM, (long long)g.TN, (long long)g.TN, V,
                      V);
    if (s->N % g.V)
        mg_diag_error(d, "%s: matmul: N=%lld is not a multiple of the vector width %lld", where,
                      (long long)s->N, V);
    if (s->KD % (g.S * g.U * g.V))
        mg_diag_error(d, "%s: matmul: K=%lld must be a multiple of split x unroll x vector "
                      "width = %lld x %lld x %lld (each of the split items reduces whole steps "
                      "of unroll x %lld values)", where, (long long)s->KD, (long long)g.S,
                      (long long)g.U, V, V);
    if (s->wg[2] != g.S)
        mg_diag_error(d, "%s: matmul: split=%lld needs wg=X,Y,%lld (the split items of one "
                      "tile must be in one work group to meet at its barrier), got wg z %lld",
                      where, (long long)g.S, (long long)g.S, (long long)s->wg[2]);
    if (s->wg[0] * s->wg[1] * s->wg[2] > 1024)
        mg_diag_error(d, "%s: matmul: a work group of %lld items is more than 1024", where,
                      (long long)(s->wg[0] * s->wg[1] * s->wg[2]));
    else if (local_bytes(s, &g) > MAX_LOCAL)
        mg_diag_error(d, "%s: matmul: split=%lld needs %lld bytes of local memory for the "
                      "partial tiles (more than %d)", where, (long long)g.S,
                      (long long)local_bytes(s, &g), MAX_LOCAL);
    if (live_values(&g) > MAX_REGS)
        mg_diag_error(d, "%s: matmul: tile=%lldx%lld with unroll=%lld keeps %lld values live "
                      "per item (more than %d)", where, (long long)g.TM, (long long)g.TN,
                      (long long)g.U, (long long)live_values(&g), MAX_REGS);
    return d->n == before ? 0 : -1;
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    mm_geom g;
    geom(s, &g);
    snprintf(k->name, sizeof k->name, s->M == 1 ? "fc" : "matmul");
    int dt = mg_plan_dtype(s);
    int a = mg_plan_tensor(k, "A", MG_TENSOR_IN, mg_plan_layout(s, MG_ROLE_IN), dt, 4,
                           MG_INIT_POSITIVE, 1, s->M, 1, s->KD);
    int b = mg_plan_tensor(k, "B", MG_TENSOR_IN, mg_plan_layout(s, MG_ROLE_W), dt, 4,
                           MG_INIT_POSITIVE, 1, s->KD, 1, s->N);
    int c = mg_plan_tensor(k, "C", MG_TENSOR_OUT, mg_plan_layout(s, MG_ROLE_OUT), dt, 4,
                           MG_INIT_ZERO, 1, s->M, 1, s->N);
    mg_plan_arg_tensor(k, a);
    mg_plan_arg_tensor(k, b);
    mg_plan_arg_tensor(k, c);
    if (g.S > 1) mg_plan_arg_local(k, "red", local_bytes(s, &g));
    int64_t items[3] = {g.NT, g.MT, g.S};
    mg_plan_ndrange(k, 3, items, s->wg);
    k->needs_fp16 = s->compute == MG_PREC_FP16;
    k->f.regs_per_item = mg_plan_regs(s, held_values(&g), 2, 0);
    k->f.loop_iters = g.steps;
    k->f.bytes_per_iter = g.U * g.V * (g.TM + g.TN) * g.eb;
    k->f.bytes_per_item = g.steps * k->f.bytes_per_iter;
    k->f.flops = 2.0 * (double)s->M * (double)s->N * (double)s->KD +
                 (double)(g.S - 1) * (double)s->M * (double)s->N;
    k->f.local_bytes = local_bytes(s, &g);
    k->f.access_width = g.V * g.eb;
    /* The group's distinct loads per step: items with the same (gy, s) read
     * the same A rows, items with the same (gx, s) the same B columns. */
    k->f.wg_bytes_per_iter = (k->local[1] * k->local[2] * g.TM * g.U * g.V +
                              k->local[0] * k->local[2] * g.U * g.V * g.TN) * g.eb;
    k->f.boundary_checks = s->M % g.TM != 0 || s->N % g.TN != 0 || k->global[0] != g.NT ||
                           k->global[1] != g.MT;
    int64_t out = g.TM * g.NJ;
    k->log_cap = g.steps * (g.TM * g.U + g.U * g.V * g.NJ) + out * (g.S > 1 ? g.S : 1);
}

/* ---- OpenCL ---------------------------------------------------------------- */

/* Skip output element (i, j) of the tile when it lies past M or N. */
static void guard(mg_sb *o, long long M, long long V, long long N)
{
    mg_sb_printf(o, "if (m0 + i >= %lld || n0 + j * %lld >= %lld) continue;", M, V, N);
}

/* What the kernel's parts share. */
typedef struct mm_cl {
    const mg_schedule *s;
    const mg_kernel   *k;
    mm_geom     g;
    int         fp16;                   /* compute in half */
    const char *vt;                     /* the V-wide compute vector type */
} mm_cl;

/* Signature, ids, accumulators and the K loop's head with its k0. */
static void cl_head(const mm_cl *c, mg_sb *o)
{
    const mm_geom *g = &c->g;
    long long TM = g->TM, NJ = g->NJ, U = g->U, V = g->V;
    mg_cl_signature(c->k, o);
    mg_sb_printf(o, "    const int gx = get_global_id(0), gy = get_global_id(1)%s;\n"
                    "    const int n0 = gx * %lld, m0 = gy * %lld;\n",
                 g->S > 1 ? ", s = get_local_id(2)" : "", (long long)g->TN, TM);
    mg_sb_printf(o, "    %s acc[%lld], av[%lld], bv[%lld];\n"
                    "    for (int i = 0; i < %lld; i++) acc[i] = (%s)0;\n",
                 c->vt, TM * NJ, TM * U, U * V * NJ, TM * NJ, c->vt);
    if (c->s->unroll > 1)
        mg_sb_printf(o, "    /* unroll=%lld: %lld values of K per step */\n", U, U * V);
    mg_sb_printf(o, "    for (int t = 0; t < %lld; t++) {\n", (long long)g->steps);
    if (g->S > 1)
        mg_sb_printf(o, "        const int k0 = s * %lld + t * %lld;\n", (long long)g->KC, U * V);
    else
        mg_sb_printf(o, "        const int k0 = t * %lld;\n", U * V);
}

/* The step's loads of A: TM rows x U texel columns, rows past M zero. */
static void cl_load_a(const mm_cl *c, mg_sb *o)
{
    const mm_geom *g = &c->g;
    char e[256];
    mg_walk_cl_open(o, c->s->pattern, g->TM, g->U, "i", "u", "        ");
    mg_sb_printf(o, "            av[i * %lld + u] = m0 + i < %lld ? ", (long long)g->U,
                 (long long)c->s->M);
    if (g->img_a) {
        mg_cl_rd(o, c->k, TA, SITE_A, "k0 / 4 + u", "m0 + i", c->fp16);
    } else {
        snprintf(e, sizeof e, "(m0 + i) * %lld + k0 + u * %lld", (long long)c->s->KD,
                 (long long)g->V);
        mg_cl_ld(o, c->k, TA, SITE_A, e, (int)g->V, c->fp16);
    }
    mg_sb_printf(o, " : (%s)0;\n", c->vt);
    mg_walk_cl_close(o, "        ");
}

/* The step's loads of B: U V rows x NJ vector columns, columns past N
 * zero. */
static void cl_load_b(const mm_cl *c, mg_sb *o)
{
    const mm_geom *g = &c->g;
    long long NJ = g->NJ, V = g->V, N = c->s->N;
    char e[256];
    mg_walk_cl_open(o, c->s->pattern, g->U * g->V, g->NJ, "r", "j", "        ");
    mg_sb_printf(o, "            bv[r * %lld + j] = n0 + j * %lld < %lld ? ", NJ, V, N);
    if (g->img_b) {
        mg_cl_rd(o, c->k, TB, SITE_B, "n0 / 4 + j", "k0 + r", c->fp16);
    } else {
        snprintf(e, sizeof e, "(k0 + r) * %lld + n0 + j * %lld", N, V);
        mg_cl_ld(o, c->k, TB, SITE_B, e, (int)V, c->fp16);
    }
    mg_sb_printf(o, " : (%s)0;\n", c->vt);
    mg_walk_cl_close(o, "        ");
}

/* The step's V-wide FMAs, k ascending per accumulator; closes the loop. */
static void cl_fma(const mm_cl *c, mg_sb *o)
{
    const mm_geom *g = &c->g;
    long long TM = g->TM, NJ = g->NJ, U = g->U, V = g->V;
    mg_sb_printf(o, "        for (int i = 0; i < %lld; i++) {\n"
                    "            if (m0 + i >= %lld) continue;\n"
                    "            for (int u = 0; u < %lld; u++)\n"
                    "            for (int j = 0; j < %lld; j++) {\n"
                    "                if (n0 + j * %lld >= %lld) continue;\n",
                 TM, (long long)c->s->M, U, NJ, V, (long long)c->s->N);
    for (long long q = 0; q < V; q++) {
        if (V == 1)
            mg_sb_printf(o, "                acc[i * %lld + j] += av[i * %lld + u] * "
                            "bv[u * %lld + j];\n", NJ, U, NJ);
        else
            mg_sb_printf(o, "                acc[i * %lld + j] += av[i * %lld + u].s%llx * "
                            "bv[(u * %lld + %lld) * %lld + j];\n", NJ, U, q, V, q, NJ);
    }
    mg_sb_puts(o, "            }\n        }\n    }\n");
}

/* split > 1: items s > 0 store their partial tiles to local memory and
 * return after the barrier; item 0 adds them. */
static void cl_split(const mm_cl *c, mg_sb *o)
{
    const mm_geom *g = &c->g;
    const mg_schedule *s = c->s;
    long long TM = g->TM, NJ = g->NJ, V = g->V, M = s->M, N = s->N;
    long long T = g->TM * g->TN, WG = (long long)(s->wg[0] * s->wg[1]);
    char e[256], v[256];
    mg_sb_printf(o, "    const int lid = get_local_id(1) * %lld + get_local_id(0);\n"
                    "    if (s > 0)\n"
                    "        for (int i = 0; i < %lld; i++)\n"
                    "        for (int j = 0; j < %lld; j++) {\n            ",
                 (long long)s->wg[0], TM, NJ);
    guard(o, M, V, N);
    mg_sb_puts(o, "\n            ");
    snprintf(e, sizeof e, "((s - 1) * %lld + lid) * %lld + i * %lld + j * %lld", WG, T,
             (long long)g->TN, V);
    if (c->fp16) snprintf(v, sizeof v, "convert_%s(acc[i * %lld + j])", mg_cl_vtype(0, (int)V),
                          NJ);
    else snprintf(v, sizeof v, "acc[i * %lld + j]", NJ);
    mg_cl_stl(o, SITE_LST, "red", e, (int)V, v);
    mg_sb_puts(o, "\n        }\n    barrier(CLK_LOCAL_MEM_FENCE);\n    if (s > 0) return;\n");
    mg_sb_printf(o, "    for (int p = 1; p < %lld; p++)\n"
                    "    for (int i = 0; i < %lld; i++)\n"
                    "    for (int j = 0; j < %lld; j++) {\n        ",
                 (long long)g->S, TM, NJ);
    guard(o, M, V, N);
    mg_sb_printf(o, "\n        acc[i * %lld + j] += ", NJ);
    snprintf(e, sizeof e, "((p - 1) * %lld + lid) * %lld + i * %lld + j * %lld", WG, T,
             (long long)g->TN, V);
    if (c->fp16) mg_sb_printf(o, "convert_%s(", c->vt);
    mg_cl_ldl(o, SITE_LLD, "red", e, (int)V, NULL);
    mg_sb_printf(o, "%s;\n    }\n", c->fp16 ? ")" : "");
}

/* The stores of the tile to C, elements past M or N skipped. */
static void cl_store_c(const mm_cl *c, mg_sb *o)
{
    const mm_geom *g = &c->g;
    long long NJ = g->NJ, V = g->V, N = c->s->N;
    char e[256], v[256];
    mg_sb_printf(o, "    for (int i = 0; i < %lld; i++)\n"
                    "    for (int j = 0; j < %lld; j++) {\n        ", (long long)g->TM, NJ);
    guard(o, c->s->M, V, N);
    mg_sb_puts(o, "\n        ");
    snprintf(v, sizeof v, "acc[i * %lld + j]", NJ);
    if (g->img_c) {
        mg_cl_wr(o, c->k, TC, SITE_C, "n0 / 4 + j", "m0 + i", v, c->fp16);
    } else {
        snprintf(e, sizeof e, "(m0 + i) * %lld + n0 + j * %lld", N, V);
        mg_cl_st(o, c->k, TC, SITE_C, e, (int)V, v, c->fp16);
    }
    mg_sb_puts(o, "\n    }\n}\n");
}

/* The kernel: the K loop (loads of A and B, FMAs), the split's partial
 * sums, the stores of C. */
static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    mm_cl c = {.s = s, .k = k, .fp16 = s->compute == MG_PREC_FP16};
    geom(s, &c.g);
    c.vt = mg_cl_vtype(c.fp16, (int)c.g.V);
    cl_head(&c, o);
    cl_load_a(&c, o);
    cl_load_b(&c, o);
    cl_fma(&c, o);
    if (c.g.S > 1) cl_split(&c, o);
    cl_store_c(&c, o);
}

/* ---- trace ----------------------------------------------------------------- */

/* One warp's view of its items' tiles: per-lane origins, the lane masks
 * of the tile's rows and column vectors, and the constants of the affine
 * path.  fast: one local z (split index) in the warp, so every address is
 * affine in the lanes' local x, y and records go out as mg_emit_aff()
 * forms (m0 = (gy0 + y) TM, n0 = (gx0 + x) TN); otherwise lane by lane. */
typedef struct mm_warp {
    const mg_schedule *s;
    mm_geom  g;
    int      cls;                             /* the FMAs' and adds' ALU class */
    uint32_t width, lwidth;                   /* bytes per lane: global, local access */
    int64_t  n0[MG_TRACE_MAX_LANES], m0[MG_TRACE_MAX_LANES];
    int64_t  sp[MG_TRACE_MAX_LANES], lid[MG_TRACE_MAX_LANES];   /* split index, local id */
    mg_lmask rowm[64], colm[64];              /* lanes with m0 + i < M, n0 + j V < N */
    mg_lmask first, rest;                     /* lanes of split index 0, of the others */
    int      fast, tn4;
    int64_t  sp0, L0, gx0, gy0;               /* fast: the warp's split index, group origin */
    int64_t  T, WG;                           /* split: a partial tile's floats, items per z */
} mm_warp;

/* Fill mw for warp w. */
static inline void warp_setup(mm_warp *mw, const mg_warp *w, const mg_schedule *s)
{
    mm_geom *g = &mw->g;
    mw->s = s;
    geom(s, g);
    mw->cls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    mw->width = (uint32_t)(g->V * g->eb);
    mw->lwidth = (uint32_t)(g->V * 4);
    mw->first = mw->rest = (mg_lmask){{0, 0}};
    for (int64_t i = 0; i < g->TM; i++) mw->rowm[i] = (mg_lmask){{0, 0}};
    for (int64_t j = 0; j < g->NJ; j++) mw->colm[j] = (mg_lmask){{0, 0}};
    for (uint32_t l = 0; l < w->lanes; l++) {
        mw->n0[l] = w->gid[0][l] * g->TN;
        mw->m0[l] = w->gid[1][l] * g->TM;
        mw->sp[l] = w->lid[2][l];
        mw->lid[l] = w->lid[1][l] * w->k->local[0] + w->lid[0][l];
        mg_lm_set(mw->sp[l] == 0 ? &mw->first : &mw->rest, l);
        for (int64_t i = 0; i < g->TM; i++)
            if (mw->m0[l] + i < s->M) mg_lm_set(&mw->rowm[i], l);
        for (int64_t j = 0; j < g->NJ; j++)
            if (mw->n0[l] + j * g->V < s->N) mg_lm_set(&mw->colm[j], l);
    }
    mw->fast = w->zconst && !w->lanewise;
    mw->tn4 = g->TN % 4 == 0;
    mw->sp0 = w->lid0[2];
    mw->L0 = w->k->local[0];
    mw->gx0 = (int64_t)w->wg[0] * mw->L0;
    mw->gy0 = (int64_t)w->wg[1] * w->k->local[1];
    mw->T = g->TM * g->TN;
    mw->WG = w->k->local[0] * w->k->local[1];
}

/* Step t's loads of A: the TM x U region in the pattern's order (row
 * i = y, texel or vector column u = x), rows past M masked off. */
static inline void trace_load_a(mg_warp *w, const mm_warp *mw, int64_t t)
{
    const mm_geom *g = &mw->g;
    const mg_schedule *s = mw->s;
    int type = g->img_a ? MG_REC_TEX_READ : MG_REC_BUF_LOAD;
    int64_t k0f = mw->sp0 * g->KC + t * g->U * g->V;      /* fast: the warp's k0 */
    mg_walk wk;
    int64_t y, x;
    mg_walk_start(&wk, s->pattern, g->TM, g->U);
    while (mg_walk_next(&wk, &y, &x)) {
        if (mw->fast) {
            mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
            if (g->img_a) {
                f.at[0] = k0f / 4 + x;
                f.at[1] = mw->gy0 * g->TM + y;
                f.dy[1] = g->TM;
            } else {
                f.at[0] = ((mw->gy0 * g->TM + y) * s->KD + k0f + x * g->V) * g->eb;
                f.dy[0] = g->TM * s->KD * g->eb;
            }
            mg_emit_aff(w, type, SITE_A, TA, mw->width, mw->rowm[y].m, &f);
            continue;
        }
        mg_emit_mem(w, type, SITE_A, TA, mw->width);
        const mg_lmask m = mw->rowm[y];
        const int img = g->img_a;
        const int64_t KC = g->KC, kt = t * g->U * g->V, KD = s->KD, xv = x * g->V, eb = g->eb;
        for (uint32_t l = 0; l < w->lanes; l++) {
            if (!mg_lm_get(&m, l)) continue;
            int64_t k0 = mw->sp[l] * KC + kt;
            if (img) mg_emit_lane(w, l, k0 / 4 + x, mw->m0[l] + y);
            else mg_emit_lane(w, l, ((mw->m0[l] + y) * KD + k0 + xv) * eb, 0);
        }
        mg_emit_put(w);
    }
}

/* Step t's load of B's vector (row y of the step, vector column x),
 * columns past N masked off.  An image's texel column is affine in the
 * lanes only when TN is a multiple of 4. */
static inline void trace_load_b_at(mg_warp *w, const mm_warp *mw, int64_t t, int64_t y,
                                   int64_t x)
{
    const mm_geom *g = &mw->g;
    const mg_schedule *s = mw->s;
    int type = g->img_b ? MG_REC_TEX_READ : MG_REC_BUF_LOAD;
    if (mw->fast && (mw->tn4 || !g->img_b)) {
        int64_t k0f = mw->sp0 * g->KC + t * g->U * g->V;  /* the warp's k0 */
        mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
        if (g->img_b) {
            f.at[0] = mw->gx0 * g->TN / 4 + x;
            f.dx[0] = g->TN / 4;
            f.at[1] = k0f + y;
        } else {
            f.at[0] = ((k0f + y) * s->N + mw->gx0 * g->TN + x * g->V) * g->eb;
            f.dx[0] = g->TN * g->eb;
        }
        mg_emit_aff(w, type, SITE_B, TB, mw->width, mw->colm[x].m, &f);
        return;
    }
    mg_emit_mem(w, type, SITE_B, TB, mw->width);
    const mg_lmask m = mw->colm[x];
    const int img = g->img_b;
    const int64_t KC = g->KC, kt = t * g->U * g->V, N = s->N, xv = x * g->V, eb = g->eb;
    for (uint32_t l = 0; l < w->lanes; l++) {
        if (!mg_lm_get(&m, l)) continue;
        int64_t k0 = mw->sp[l] * KC + kt;
        if (img) mg_emit_lane(w, l, mw->n0[l] / 4 + x, k0 + y);
        else mg_emit_lane(w, l, ((k0 + y) * N + mw->n0[l] + xv) * eb, 0);
    }
    mg_emit_put(w);
}

/* Step t's loads of B: the U V x NJ region in the pattern's order (row
 * r = y, vector column j = x). */
static inline void trace_load_b(mg_warp *w, const mm_warp *mw, int64_t t)
{
    mg_walk wk;
    int64_t y, x;
    mg_walk_start(&wk, mw->s->pattern, mw->g.U * mw->g.V, mw->g.NJ);
    while (mg_walk_next(&wk, &y, &x)) trace_load_b_at(w, mw, t, y, x);
}

/* Step's conversions: with fp16 storage and fp32 compute, a buffer's
 * vload_half returns floats, one conversion instruction per element (the
 * H100's HADD2.F32 per half: configs/measured/h100/sass/), before the
 * FMAs use them; an image read returns floats from the texture unit. */
static inline void trace_cvt(mg_warp *w, const mm_warp *mw, mg_alu_run *run)
{
    const mm_geom *g = &mw->g;
    const mg_schedule *s = mw->s;
    if (s->storage != MG_PREC_FP16 || s->compute != MG_PREC_FP32) return;
    if (s->layout[MG_ROLE_IN] != MG_LAYOUT_IMAGE)
        for (int64_t i = 0; i < g->TM; i++)
            mg_alu_add(w, run, mw->rowm[i], SITE_CVT, MG_ALU_FP32, 1,
                       (uint64_t)(g->U * g->V), 0);
    if (s->layout[MG_ROLE_W] != MG_LAYOUT_IMAGE)
        for (int64_t j = 0; j < g->NJ; j++)
            mg_alu_add(w, run, mw->colm[j], SITE_CVT, MG_ALU_FP32, 1,
                       (uint64_t)(g->U * g->V * g->V), 0);
}

/* Step's accumulation: per accumulator (i, j), U V products as V-wide
 * FMAs, for the lanes whose row and column are inside C. */
static inline void trace_fma(mg_warp *w, const mm_warp *mw, mg_alu_run *run)
{
    const mm_geom *g = &mw->g;
    trace_cvt(w, mw, run);
    for (int64_t i = 0; i < g->TM; i++)
        for (int64_t j = 0; j < g->NJ; j++)
            mg_alu_add(w, run, mg_lm_and(mw->rowm[i], mw->colm[j]), SITE_FMA, mw->cls,
                       (int)g->V, (uint64_t)(g->U * g->V), 2);
    mg_alu_flush(w, run);
}

/* Step t with B streamed (b_streamed: TM = 1): A's loads, then per row
 * y of B's U V rows its NJ vectors and the V-wide FMA of each
 * accumulator vector with them, which waits for that row: the compiled
 * code's order, each B row loaded just before its FMAs (a trip exposes
 * up to U V load latencies).  The conversions of fp16 storage go with
 * the values they convert (A's before the first row). */
static void trace_step_streamed(mg_warp *w, const mm_warp *mw, int64_t t, mg_alu_run *run)
{
    const mm_geom *g = &mw->g;
    const int cvt = mw->s->storage == MG_PREC_FP16 && mw->s->compute == MG_PREC_FP32;
    trace_load_a(w, mw, t);
    for (int64_t y = 0; y < g->U * g->V; y++) {
        for (int64_t x = 0; x < g->NJ; x++) trace_load_b_at(w, mw, t, y, x);
        if (cvt && y == 0 && mw->s->layout[MG_ROLE_IN] != MG_LAYOUT_IMAGE)
            mg_alu_add(w, run, mw->rowm[0], SITE_CVT, MG_ALU_FP32, 1,
                       (uint64_t)(g->U * g->V), 0);
        if (cvt)
            for (int64_t j = 0; j < g->NJ; j++)
                mg_alu_add(w, run, mw->colm[j], SITE_CVT, MG_ALU_FP32, 1, (uint64_t)g->V, 0);
        for (int64_t j = 0; j < g->NJ; j++)
            mg_alu_add(w, run, mg_lm_and(mw->rowm[0], mw->colm[j]), SITE_FMA, mw->cls,
                       (int)g->V, 1, 2);
        mg_alu_flush(w, run);
    }
}

/* The local-memory address of partial p's element (i, j) for the lanes
 * of a fast warp (lid = y L0 + x): p = the split index that stored it. */
static inline mg_lane_aff partial_aff(const mm_warp *mw, int64_t p, int64_t i, int64_t j)
{
    mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    f.at[0] = ((p - 1) * mw->WG * mw->T + i * mw->g.TN + j * mw->g.V) * 4;
    f.dx[0] = mw->T * 4;
    f.dy[0] = mw->L0 * mw->T * 4;
    return f;
}

/* split > 1, items s > 0: store the partial tile to local memory. */
static void trace_store_partials(mg_warp *w, const mm_warp *mw)
{
    const mm_geom *g = &mw->g;
    for (int64_t i = 0; i < g->TM; i++)
        for (int64_t j = 0; j < g->NJ; j++) {
            mg_lmask m = mg_lm_and(mw->rest, mg_lm_and(mw->rowm[i], mw->colm[j]));
            if (mw->fast) {
                mg_lane_aff f = partial_aff(mw, mw->sp0, i, j);
                mg_emit_aff(w, MG_REC_LOCAL_STORE, SITE_LST, -1, mw->lwidth, m.m, &f);
                continue;
            }
            mg_emit_mem(w, MG_REC_LOCAL_STORE, SITE_LST, -1, mw->lwidth);
            for (uint32_t l = 0; l < w->lanes; l++)
                if (mg_lm_get(&m, l))
                    mg_emit_lane(w, l, (((mw->sp[l] - 1) * mw->WG + mw->lid[l]) * mw->T +
                                        i * g->TN + j * g->V) * 4, 0);
            mg_emit_put(w);
        }
}

/* split > 1, item s = 0: add the partials p = 1 .. S-1 to the tile. */
static void trace_add_partials(mg_warp *w, const mm_warp *mw, mg_alu_run *run)
{
    const mm_geom *g = &mw->g;
    for (int64_t p = 1; p < g->S; p++)
        for (int64_t i = 0; i < g->TM; i++)
            for (int64_t j = 0; j < g->NJ; j++) {
                mg_lmask m = mg_lm_and(mw->first, mg_lm_and(mw->rowm[i], mw->colm[j]));
                if (mw->fast) {
                    mg_lane_aff f = partial_aff(mw, p, i, j);
                    mg_emit_aff(w, MG_REC_LOCAL_LOAD, SITE_LLD, -1, mw->lwidth, m.m, &f);
                } else {
                    mg_emit_mem(w, MG_REC_LOCAL_LOAD, SITE_LLD, -1, mw->lwidth);
                    for (uint32_t l = 0; l < w->lanes; l++)
                        if (mg_lm_get(&m, l))
                            mg_emit_lane(w, l, (((p - 1) * mw->WG + mw->lid[l]) * mw->T +
                                                i * g->TN + j * g->V) * 4, 0);
                    mg_emit_put(w);
                }
                mg_alu_add(w, run, m, SITE_ADD, mw->cls, (int)g->V, 1, 1);
                mg_alu_flush(w, run);
            }
}

/* Store the tile to C for the lanes in out, elements past M or N masked
 * off. */
static void trace_store_c(mg_warp *w, const mm_warp *mw, mg_lmask out)
{
    const mm_geom *g = &mw->g;
    const mg_schedule *s = mw->s;
    int type = g->img_c ? MG_REC_IMG_WRITE : MG_REC_BUF_STORE;
    for (int64_t i = 0; i < g->TM; i++)
        for (int64_t j = 0; j < g->NJ; j++) {
            mg_lmask m = mg_lm_and(out, mg_lm_and(mw->rowm[i], mw->colm[j]));
            if (mw->fast && (mw->tn4 || !g->img_c)) {
                mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
                if (g->img_c) {
                    f.at[0] = mw->gx0 * g->TN / 4 + j;
                    f.dx[0] = g->TN / 4;
                    f.at[1] = mw->gy0 * g->TM + i;
                    f.dy[1] = g->TM;
                } else {
                    f.at[0] = ((mw->gy0 * g->TM + i) * s->N + mw->gx0 * g->TN + j * g->V) *
                              g->eb;
                    f.dx[0] = g->TN * g->eb;
                    f.dy[0] = g->TM * s->N * g->eb;
                }
                mg_emit_aff(w, type, SITE_C, TC, mw->width, m.m, &f);
                continue;
            }
            mg_emit_mem(w, type, SITE_C, TC, mw->width);
            for (uint32_t l = 0; l < w->lanes; l++) {
                if (!mg_lm_get(&m, l)) continue;
                if (g->img_c) mg_emit_lane(w, l, mw->n0[l] / 4 + j, mw->m0[l] + i);
                else mg_emit_lane(w, l, ((mw->m0[l] + i) * s->N + mw->n0[l] + j * g->V) * g->eb,
                                  0);
            }
            mg_emit_put(w);
        }
}

/* A warp's trace, in the compiled kernel's order: the K loop's steps
 * (loads of A, of B, the FMAs; a streamed B row by row), with split > 1 the partial tiles through local memory
 * (items s > 0 store theirs, the barrier, item 0 adds them), the stores
 * of C. */
static void trace_body(mg_warp *w, const void *ctx)
{
    mm_warp mw;
    warp_setup(&mw, w, ctx);
    mg_alu_run run = {{{0, 0}}, 0, 0, 0, 0, 0};
    const int streamed = b_streamed(&mw.g);
    for (int64_t t = 0; t < mw.g.steps; t++) {
        if (streamed) {
            trace_step_streamed(w, &mw, t, &run);
            continue;
        }
        trace_load_a(w, &mw, t);
        trace_load_b(w, &mw, t);
        trace_fma(w, &mw, &run);
    }
    mg_lmask out = mw.first;                  /* the items that store C */
    if (mw.g.S > 1) {
        trace_store_partials(w, &mw);
        mg_walk_barrier_local(w, SITE_BAR);
        trace_add_partials(w, &mw, &run);
    } else {
        mg_emit_all(w, out.m);                /* split = 1: every item */
    }
    trace_store_c(w, &mw, out);
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
    const float *a = h->f[TA], *b = h->f[TB];
    float *c = h->f[TC];
    for (int64_t m = 0; m < s->M; m++)
        for (int64_t n = 0; n < s->N; n++) {
            double acc = 0;
            for (int64_t kk = 0; kk < s->KD; kk++)
                acc += (double)a[m * s->KD + kk] * b[kk * s->N + n];
            c[m * s->N + n] = (float)acc;
        }
}

const mg_op mg_op_matmul = {
    .name = "matmul",
    .summary = "C[M,N] = A[M,K] x B[K,N]; fully connected when M=1 (split: FC reduction)",
    .keys = keys,
    .knobs = "layout layout_in layout_w layout_out tile wg pattern vec storage compute split "
              "unroll warp seed",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
};
