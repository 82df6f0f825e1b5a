/*
 * pchase.c - pointer chase over a buffer or an image (romou 3.1 Listing 2,
 * Fig 6; ArchProbe's cache-hierarchy aspect): `iters` dependent loads, each
 * reading the address of the next one.
 *
 * The chased footprint is `range` bytes of 4-byte elements, R = range / 4:
 *   mem=buffer  an int32 buffer P[R]; element e holds the index of the next
 *               element, (e + sx) % R with sx = stride / 4.  The chain visits
 *               n = range / stride elements: positions p = 0..n-1 are
 *               elements p * sx.
 *   mem=image   a 1-channel CL_SIGNED_INT32 image of IW x IH texels,
 *               IW * IH = R (IW = W, or when W=0 min(R, 4096)); a texel holds
 *               the packed coordinates x | y << 16 of the next texel.
 *               stride_y=0: the 1D chase of the buffer, texel t = p * sx at
 *               (t % IW, t / IW) (rows are walked one after the other);
 *               stride_y>0: a 2D lattice walk over the points
 *               (i * sx, j * sy), i < IW / sx, j < IH / sy, x fastest, so
 *               consecutive accesses are (sx, 0) apart within a lattice row
 *               and the next lattice row is sy image rows down (W = stride/4
 *               gives a pure column walk); n = (IW / sx) * (IH / sy).
 * Position n-1 leads back to position 0: the chase is one cycle of n
 * distinct addresses.  Item g starts at position g % n, so its i-th load
 * (i = 0..iters-1) reads position (g + i) % n; it writes the value of its
 * last load (the index, or packed coordinates, of position
 * (g + iters) % n) to Out[g], so the chase is not dead code.
 *
 * The trace follows the same positions by formula; the reference follows
 * the chain the init hook wrote, so a chain that disagrees with the formula
 * shows up in `mgprobe verify` (outputs or access log).
 */
#include "gen/clemit.h"
#include "gen/emit.h"
#include "gen/op.h"
#include "gen/plan.h"

#include <stdio.h>

enum { SITE_START = 1, SITE_ADDR, SITE_CHASE, SITE_OUT };
enum { TP, TOUT };                 /* tensor indices: the chain, the result */

#define IMG_MAX   16384            /* image side limit checked here (texels) */
#define AUTO_W    4096             /* widest automatic image row (texels) */

#define OFF(m) offsetof(mg_schedule, m)

static const mg_key keys[] = {
    {"mem", MG_K_ENUM, OFF(mem), 0, 0, "image", mg_memkind_names,
     "what is chased: image (1-channel int32 texels) or buffer (int32)"},
    {"range", MG_K_INT, OFF(range), 4, (int64_t)1 << 30, "1024", NULL,
     "bytes of the chased footprint (4-byte elements)"},
    {"stride", MG_K_INT, OFF(stride_x), 4, (int64_t)1 << 30, "4", NULL,
     "bytes between consecutive accesses (images: along x)"},
    {"stride_y", MG_K_INT, OFF(stride_y), 0, IMG_MAX, "0", NULL,
     "images: lattice row step in image rows (0: 1D chase along rows)"},
    {"W", MG_K_INT, OFF(W), 0, IMG_MAX, "0", NULL,
     "images: width in texels (0: min(range/4, 4096))"},
    {"iters", MG_K_INT, OFF(iters), 1, (int64_t)1 << 26, "256", NULL,
     "dependent loads per work item"},
    {"items", MG_K_INT, OFF(items), 1, (int64_t)1 << 20, "1", NULL,
     "work items (item g starts g positions along the chain)"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL},
};

typedef struct pc_geom {
    int     img;               /* mem=image */
    int64_t R, sx, sy;         /* elements; x step (elements); y step (rows) */
    int64_t IW, IH, nx;        /* image size; lattice points per row */
    int64_t n;                 /* distinct positions of the cycle */
} pc_geom;

static void geom(const mg_schedule *s, pc_geom *g)
{
    g->img = s->mem == MG_MEM_IMAGE;
    g->R = s->range / 4;
    g->sx = s->stride_x / 4;
    g->sy = s->stride_y;
    g->IW = g->img ? (s->W ? s->W : (g->R < AUTO_W ? g->R : AUTO_W)) : g->R;
    g->IH = g->IW ? g->R / g->IW : 1;
    g->nx = g->sx ? g->IW / g->sx : 1;
    if (g->img && g->sy) g->n = g->nx * (g->IH / g->sy);
    else g->n = g->sx ? g->R / g->sx : 1;
}

/* Element index (buffer) or texel (x, y) (image) of chain position p. */
static void pos_addr(const pc_geom *g, int64_t p, int64_t *x, int64_t *y)
{
    if (g->img && g->sy) {
        *x = p % g->nx * g->sx;
        *y = p / g->nx * g->sy;
    } else if (g->img) {
        *x = p * g->sx % g->IW;
        *y = p * g->sx / g->IW;
    } else {
        *x = p * g->sx;
        *y = 0;
    }
}

/* Position p as the chain stores it: its element index (buffer) or packed
 * coordinates x | y << 16 (image).  The load of position p returns the
 * encoding of position p + 1. */
static int32_t pos_value(const pc_geom *g, int64_t p)
{
    int64_t x, y;
    pos_addr(g, p, &x, &y);
    return g->img ? (int32_t)(x | y << 16) : (int32_t)x;
}

static void defaults(mg_schedule *s)
{
    s->wg[0] = s->wg[1] = s->wg[2] = 1;
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    pc_geom g;
    geom(s, &g);
    if (s->mem != MG_MEM_IMAGE && s->mem != MG_MEM_BUFFER) {
        mg_diag_error(d, "%s: pchase: mem=%s: the chase reads an image or a buffer", where,
                      mg_memkind_names[s->mem]);
        return -1;
    }
    if (s->range % 4 || s->stride_x % 4)
        mg_diag_error(d, "%s: pchase: range=%lld stride=%lld: both must be multiples of the "
                      "4-byte element", where, (long long)s->range, (long long)s->stride_x);
    else if (s->stride_x > s->range)
        mg_diag_error(d, "%s: pchase: stride=%lld is larger than range=%lld", where,
                      (long long)s->stride_x, (long long)s->range);
    else if (!(g.img && g.sy) && s->range % s->stride_x)
        mg_diag_error(d, "%s: pchase: range=%lld is not a multiple of stride=%lld, so the "
                      "chain would not close into one cycle", where, (long long)s->range,
                      (long long)s->stride_x);
    if (!g.img && (s->stride_y || s->W))
        mg_diag_error(d, "%s: pchase: stride_y and W describe a 2D image: they need "
                      "mem=image", where);
    if (g.img && d->n == before) {
        if (s->W && g.R % s->W)
            mg_diag_error(d, "%s: pchase: range/4=%lld texels is not a multiple of W=%lld",
                          where, (long long)g.R, (long long)s->W);
        else if (!s->W && g.R > AUTO_W && g.R % AUTO_W)
            mg_diag_error(d, "%s: pchase: range/4=%lld texels does not fill rows of %d "
                          "texels: give W", where, (long long)g.R, AUTO_W);
        else if (g.IW > IMG_MAX || g.IH > IMG_MAX)
            mg_diag_error(d, "%s: pchase: the %lldx%lld image is past the image limit of "
                          "%dx%d texels", where, (long long)g.IW, (long long)g.IH, IMG_MAX,
                          IMG_MAX);
        else if (g.sy && g.IW % g.sx)
            mg_diag_error(d, "%s: pchase: the 2D lattice needs the width %lld a multiple of "
                          "the x step %lld texels (stride=%lld)", where, (long long)g.IW,
                          (long long)g.sx, (long long)s->stride_x);
        else if (g.sy && g.IH % g.sy)
            mg_diag_error(d, "%s: pchase: the 2D lattice needs the height %lld a multiple of "
                          "stride_y=%lld", where, (long long)g.IH, (long long)g.sy);
    }
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: pchase: the launch is 1D: wg must be X,1,1", where);
    return d->n == before ? 0 : -1;
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    pc_geom g;
    geom(s, &g);
    snprintf(k->name, sizeof k->name, "pchase");
    int p = g.img ? mg_plan_tensor(k, "P", MG_TENSOR_IN, MG_TL_IMAGE, MG_DT_I32, 1,
                                   MG_INIT_CHAIN, 1, g.IH, g.IW, 1)
                  : mg_plan_tensor(k, "P", MG_TENSOR_IN, MG_TL_BUFFER, MG_DT_I32, 1,
                                   MG_INIT_CHAIN, 1, 1, 1, g.R);
    int o = mg_plan_tensor(k, "Out", MG_TENSOR_OUT, MG_TL_BUFFER, MG_DT_I32, 1, MG_INIT_ZERO,
                           1, 1, 1, s->items);
    mg_plan_arg_tensor(k, p);
    mg_plan_arg_tensor(k, o);
    int64_t items[3] = {s->items, 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    /* the chased value, the loop counter, the global id, the output address */
    k->f.regs_per_item = 4;
    k->f.loop_iters = s->iters;
    k->f.bytes_per_iter = 4;
    k->f.bytes_per_item = 4 * s->iters;
    k->f.flops = 0;
    k->f.local_bytes = 0;
    k->f.access_width = 4;
    k->f.boundary_checks = k->global[0] != s->items;
    k->log_cap = s->iters + 1;
}

/* ---- OpenCL ---------------------------------------------------------------- */

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    pc_geom g;
    geom(s, &g);
    long long sx = g.sx, n = g.n;
    mg_cl_signature(k, o);
    mg_sb_puts(o, "    const int g = get_global_id(0);\n");
    if (k->f.boundary_checks)
        mg_sb_printf(o, "    if (g >= %lld) return;\n", (long long)s->items);
    if (!g.img)
        mg_sb_printf(o, "    int c = (g %% %lld) * %lld;\n", n, sx);
    else if (!g.sy)
        mg_sb_printf(o, "    const int t = (g %% %lld) * %lld;\n"
                        "    int c = (t %% %lld) | ((t / %lld) << 16);\n", n, sx,
                     (long long)g.IW, (long long)g.IW);
    else
        mg_sb_printf(o, "    const int q = g %% %lld;\n"
                        "    int c = ((q %% %lld) * %lld) | (((q / %lld) * %lld) << 16);\n", n,
                     (long long)g.nx, sx, (long long)g.nx, (long long)g.sy);
    if (s->unroll > 1) mg_sb_printf(o, "    #pragma unroll %lld\n", (long long)s->unroll);
    mg_sb_printf(o, "    for (int i = 0; i < %lld; i++) {\n        c = ", (long long)s->iters);
    if (g.img) mg_cl_rd(o, k, TP, SITE_CHASE, "(c & 0xffff)", "(c >> 16)", 0);
    else mg_cl_ld(o, k, TP, SITE_CHASE, "c", 1, 0);
    mg_sb_puts(o, ";\n    }\n    ");
    mg_cl_st(o, k, TOUT, SITE_OUT, "g", 1, "c", 0);
    mg_sb_puts(o, "\n}\n");
}

/* ---- trace ----------------------------------------------------------------- */

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    pc_geom g;
    geom(s, &g);
    uint64_t valid[2] = {0, 0};
    for (uint32_t l = 0; l < w->lanes; l++)
        if (w->gid[0][l] < s->items) valid[l >> 6] |= (uint64_t)1 << (l & 63);
    mg_emit_alu(w, valid, SITE_START, MG_ALU_INT, 1, g.img ? 5 : 2, 0);
    for (int64_t i = 0; i < s->iters; i++) {
        /* images: unpack x and y; buffers: scale the index to bytes */
        mg_emit_alu(w, valid, SITE_ADDR, MG_ALU_INT, 1, g.img ? 2 : 1, 0);
        mg_emit_mem(w, g.img ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, SITE_CHASE, TP, 4);
        for (uint32_t l = 0; l < w->lanes; l++) {
            if (!((valid[l >> 6] >> (l & 63)) & 1)) continue;
            int64_t x, y;
            pos_addr(&g, (w->gid[0][l] + i) % g.n, &x, &y);
            if (g.img) mg_emit_lane(w, l, x, y);
            else mg_emit_lane(w, l, x * 4, 0);
        }
        mg_emit_put(w);
    }
    mg_emit_mem(w, MG_REC_BUF_STORE, SITE_OUT, TOUT, 4);
    for (uint32_t l = 0; l < w->lanes; l++)
        if ((valid[l >> 6] >> (l & 63)) & 1) mg_emit_lane(w, l, w->gid[0][l] * 4, 0);
    mg_emit_put(w);
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, trace_body, s);
}

/* ---- host ------------------------------------------------------------------ */

/* The chain: every element (texel) on the cycle holds the next position's
 * index (packed coordinates).  Buffers and 1D images fill every element
 * with (e + sx) % R, on the cycle or not; lattice images leave the texels
 * off the lattice 0. */
static void init(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    pc_geom g;
    geom(s, &g);
    int32_t *P = h->i[TP];
    if (g.img && g.sy) {
        for (int64_t p = 0; p < g.n; p++) {
            int64_t x, y;
            pos_addr(&g, p, &x, &y);
            P[y * g.IW + x] = pos_value(&g, (p + 1) % g.n);
        }
        return;
    }
    for (int64_t e = 0; e < g.R; e++) {
        int64_t t = (e + g.sx) % g.R;
        P[e] = g.img ? (int32_t)(t % g.IW | (t / g.IW) << 16) : (int32_t)t;
    }
}

/* Follow the chain in P itself from each item's start. */
static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    pc_geom g;
    geom(s, &g);
    const int32_t *P = h->i[TP];
    for (int64_t it = 0; it < s->items; it++) {
        int32_t c = pos_value(&g, it % g.n);
        for (int64_t i = 0; i < s->iters; i++)
            c = g.img ? P[(int64_t)(c >> 16) * g.IW + (c & 0xffff)] : P[c];
        h->i[TOUT][it] = c;
    }
}

const mg_op mg_op_pchase = {
    "pchase", "pointer chase over an image or a buffer: range, stride, 2D strides", keys,
    "wg unroll warp", defaults, check, plan, emit_cl, trace_wg, init, reference,
};
