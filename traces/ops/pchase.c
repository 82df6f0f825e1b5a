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
 * order=linear: position p leads to p + 1 and n-1 back to 0, so the chase
 * is one cycle of n distinct addresses in address order.  Item g starts at
 * position g % n, so its i-th load (i = 0..iters-1) reads position
 * (g + i) % n; it writes the value of its last load (the index, or packed
 * coordinates, of position (g + iters) % n) to Out[g], so the chase is not
 * dead code.
 * order=random: the same n positions, visited in the order of a random
 * cyclic permutation (Sattolo's shuffle, splitmix64 from `seed`): still one
 * cycle through all n, but the step from one address to the next is no
 * longer constant, so a CPU's stride prefetcher cannot run ahead of the
 * chase (on PoCL a linear chase reads at L1 latency whatever the range).
 * Item g still starts at position g % n and follows the permutation.  Off
 * the cycle, elements hold 0.  With page=P (bytes), the random cycle takes
 * the range one page at a time: pages in a random order, the positions of
 * a page in a random order, all of a page before the next, so a TLB entry
 * serves P / stride accesses in a row (with 4 KiB pages a fully random
 * chase adds a TLB step at 256 KiB on PoCL that looks like a cache).
 *
 * The trace follows the same positions by formula; the reference follows
 * the chain the init hook wrote, so a chain that disagrees with the formula
 * shows up in `mgprobe verify` (outputs or access log).
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <stdio.h>
#include <stdlib.h>

enum { SITE_START = 1, SITE_ADDR, SITE_CHASE, SITE_OUT };
enum { TP, TOUT };                 /* tensor indices: the chain, the result */

#define IMG_MAX   16384            /* image side limit checked here (texels) */
#define AUTO_W    4096             /* widest automatic image row (texels) */

enum { ORDER_LINEAR, ORDER_RANDOM };
static const char *const order_names[] = {"linear", "random", NULL};

/* `order` is kept in the schedule's pattern field (pchase takes no
 * pattern knob), `page` in K (the convolution's kernel size). */
static const mg_key keys[] = {
    MG_KEY_ENUM("mem", mem, "image", mg_memkind_names,
                "what is chased: image (1-channel int32 texels) or buffer (int32)"),
    MG_KEY_INT("range", range, 4, (int64_t)1 << 30, "1024",
               "bytes of the chased footprint (4-byte elements)"),
    MG_KEY_INT("stride", stride_x, 4, (int64_t)1 << 30, "4",
               "bytes between consecutive accesses (images: along x)"),
    MG_KEY_INT("stride_y", stride_y, 0, IMG_MAX, "0",
               "images: lattice row step in image rows (0: 1D chase along rows)"),
    MG_KEY_INT("W", W, 0, IMG_MAX, "0", "images: width in texels (0: min(range/4, 4096))"),
    MG_KEY_INT("iters", iters, 1, (int64_t)1 << 26, "256", "dependent loads per work item"),
    MG_KEY_INT("items", items, 1, (int64_t)1 << 20, "1",
               "work items (item g starts g positions along the chain)"),
    MG_KEY_ENUM("order", pattern, "linear", order_names,
                "linear: positions in address order; random: a random cycle (defeats prefetchers)"),
    MG_KEY_INT("page", K, 0, (int64_t)1 << 30, "0",
               "order=random: bytes visited together, pages in random order (0: no pages)"),
    MG_KEY_END,
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
    s->pattern = ORDER_LINEAR;
}

static uint64_t mix(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Fisher-Yates shuffle of a[0..n-1] from *st. */
static void shuffle(int32_t *a, int64_t n, uint64_t *st)
{
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)(mix(st) % (uint64_t)(i + 1));
        int32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* The successor of every position: p + 1 (linear); or, random, the next
 * one of a visiting sequence: with page=0 a random order of all n
 * positions; with a page, the pages (page / stride positions each) in a
 * random order and the positions of each page in a random order, all of
 * a page before the next.  The sequence closes into one cycle.  Returns a
 * malloc'd array of n, or NULL when out of memory. */
static int32_t *successors(const mg_schedule *s, const pc_geom *g)
{
    size_t n = (size_t)(g->n > 0 ? g->n : 1);
    int32_t *next = malloc(sizeof *next * n), *seq = NULL;
    if (!next) return NULL;
    if (s->pattern != ORDER_RANDOM) {
        for (int64_t p = 0; p < g->n; p++) next[p] = (int32_t)((p + 1) % g->n);
        return next;
    }
    if (!(seq = malloc(sizeof *seq * n))) {
        free(next);
        return NULL;
    }
    uint64_t st = (uint64_t)s->seed * 0x2545f4914f6cdd1dull + 0x9c4a5e;
    int64_t per = s->K > 0 ? s->K / s->stride_x : g->n;        /* positions per page */
    int64_t pages = g->n / per;
    int32_t *order = malloc(sizeof *order * (size_t)pages);
    if (!order) {
        free(next);
        free(seq);
        return NULL;
    }
    for (int64_t b = 0; b < pages; b++) order[b] = (int32_t)b;
    shuffle(order, pages, &st);
    for (int64_t b = 0; b < pages; b++) {
        int32_t *run = seq + b * per;
        for (int64_t i = 0; i < per; i++) run[i] = (int32_t)(order[b] * per + i);
        shuffle(run, per, &st);
    }
    for (int64_t k = 0; k < g->n; k++) next[seq[k]] = seq[(k + 1) % g->n];
    free(order);
    free(seq);
    return next;
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
    if (s->K && s->pattern != ORDER_RANDOM)
        mg_diag_error(d, "%s: pchase: page=%lld groups a random order: it needs order=random",
                      where, (long long)s->K);
    else if (s->K && d->n == before && (s->K % s->stride_x || s->range % s->K || (g.img && g.sy)))
        mg_diag_error(d, "%s: pchase: page=%lld must be a multiple of stride=%lld and divide "
                      "range=%lld (and pages need a 1D chase)", where, (long long)s->K,
                      (long long)s->stride_x, (long long)s->range);
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
    int32_t *next = s->pattern == ORDER_RANDOM ? successors(s, &g) : NULL;
    if (s->pattern == ORDER_RANDOM && !next) return;      /* out of memory: an empty warp */
    uint64_t valid[2] = {0, 0};
    int64_t at[MG_TRACE_MAX_LANES];                       /* each lane's position */
    for (uint32_t l = 0; l < w->lanes; l++) {
        if (w->gid[0][l] < s->items) valid[l >> 6] |= (uint64_t)1 << (l & 63);
        at[l] = w->gid[0][l] % g.n;
    }
    mg_emit_alu(w, valid, SITE_START, MG_ALU_INT, 1, g.img ? 5 : 2, 0);
    for (int64_t i = 0; i < s->iters; i++) {
        /* images: unpack x and y; buffers: scale the index to bytes */
        mg_emit_alu_dep(w, valid, SITE_ADDR, MG_ALU_INT, 1, g.img ? 2 : 1, 0, g.img ? 2 : 1);
        mg_emit_mem(w, g.img ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, SITE_CHASE, TP, 4);
        for (uint32_t l = 0; l < w->lanes; l++) {
            if (!((valid[l >> 6] >> (l & 63)) & 1)) continue;
            int64_t x, y;
            pos_addr(&g, at[l], &x, &y);
            at[l] = next ? next[at[l]] : (at[l] + 1) % g.n;
            if (g.img) mg_emit_lane(w, l, x, y);
            else mg_emit_lane(w, l, x * 4, 0);
        }
        mg_emit_put(w);
    }
    free(next);
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
 * index (packed coordinates).  order=random: the cycle positions hold their
 * successor in the permutation, the rest 0.  Otherwise buffers and 1D
 * images fill every element
 * with (e + sx) % R, on the cycle or not; lattice images leave the texels
 * off the lattice 0. */
static void init(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    pc_geom g;
    geom(s, &g);
    int32_t *P = h->i[TP];
    if (s->pattern == ORDER_RANDOM) {
        int32_t *next = successors(s, &g);
        if (!next) return;                 /* out of memory: the chain stays 0 */
        for (int64_t p = 0; p < g.n; p++) {
            int64_t x, y;
            pos_addr(&g, p, &x, &y);
            P[y * g.IW + x] = pos_value(&g, next[p]);
        }
        free(next);
        return;
    }
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
    .name = "pchase",
    .summary = "pointer chase over an image or a buffer: range, stride, 2D strides",
    .keys = keys,
    .knobs = "wg unroll warp seed",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .init = init,
    .reference = reference,
};
