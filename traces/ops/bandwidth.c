/*
 * bandwidth.c - streaming reads over an image, buffer, local or constant
 * footprint (romou 3.1 "bandwidth", 5.3; tmmodel 3.2.1 access patterns,
 * Fig 3-4): the P5 and P6 kernel.
 *
 * The footprint (`footprint` bytes) is cut into chunks of one load each:
 * `vec` elements of the storage type for buffers, local and constant
 * memory, one texel (4 channels) for images (vec must be 4).  NC chunks
 * are read by T items, S = NC / T chunks per item per pass, `iters`
 * passes.  T is the launch (`items`) for image, buffer and constant
 * memory, or `readers` (item g reads as reader g % readers); for local
 * memory the footprint is per work group (a local array), T = the
 * work-group size or `readers` (a divisor of it: item l reads as reader
 * l % readers, so groups of items read the same chunks, as ArchProbe's
 * local-memory kernel does), and each group's first T items copy the
 * array from a global buffer Src (item l copies chunks k*T + l, k < S),
 * then the group waits at a barrier.
 *
 * Item t's s-th chunk of a pass (pattern):
 *   buffer/local/constant
 *     row     chunk t*S + s                    (a private run per item)
 *     column  chunk s*T + t                    (coalesced across items)
 *   image (IW x IH texels, automatic shape; a side is at most 4096 texels
 *   unless the footprint forces more, and at most 16384):
 *     column  x = (s / IH) * T + t, y = s % IH  (item t walks column t of
 *             each band of T columns: neighbours read neighbouring texels
 *             at once, cache-line reuse distance 0); IH = min(S, 4096)
 *     row     x = s % IW, y = t*h + s / IW      (item t owns h rows and
 *             walks them row by row, reuse distance 1); IW = min(S, 4096)
 *     blockN  item t owns h rows (h a multiple of N) and walks strips of
 *             N rows column by column inside a strip: strip = s / (IW N),
 *             r = s % (IW N), x = r / N, y = t*h + strip*N + r % N
 *             (reuse distance N); IW = min(S / N, 4096)
 *
 * Each pass offsets its item's first chunk by pz = p * zero, where `zero`
 * is a kernel argument that is 0 at run time: the addresses are the
 * table's, but the compiler cannot prove them the same in every pass, so
 * it cannot hoist the loads out of the pass loop (NVIDIA's compiler does
 * hoist loop-invariant loads: a kernel of `iters` passes then reads its
 * footprint once and reports `iters` times the bandwidth;
 * configs/measured/README.md).  The offset is folded into the item's
 * part of the address once a pass (tz), so a load costs what it did.
 *
 * Every load is added into a float accumulator of the load's width (acc +=
 * v, one add per element), written to Out[g] at the end, so the result
 * depends on every load; the reference adds in the same order (exact).
 * Flops: items x iters x S x vec (the adds), exactly the trace's.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <stdio.h>
#include <string.h>

enum { SITE_CP_LD = 1, SITE_CP_ST, SITE_BAR, SITE_ADDR, SITE_LOAD, SITE_ADD, SITE_OUT };
enum { TSRC, TOUT };

#define LOCAL_MAX   (32 * 1024)      /* local memory footprint limit (bytes) */
#define CONST_MAX   (64 * 1024)      /* OpenCL's minimum constant buffer size */
#define SIDE_AUTO   4096             /* preferred longest image side (texels) */
#define SIDE_MAX    16384            /* image side limit (texels) */

static const mg_key keys[] = {
    MG_KEY_ENUM("mem", mem, "buffer", mg_memkind_names, "memory read: image|buffer|local|constant"),
    MG_KEY_INT("footprint", footprint, 16, (int64_t)1 << 30, "65536",
               "bytes read per pass (local: per work group)"),
    MG_KEY_INT("items", items, 1, (int64_t)1 << 20, "256",
               "work items (global size; a multiple of wg)"),
    MG_KEY_INT("iters", iters, 1, (int64_t)1 << 16, "2", "passes over the footprint"),
    MG_KEY_INT("readers", readers, 0, (int64_t)1 << 20, "0",
               "item g reads as reader g % readers (0: as many readers as items; fewer readers "
               "than items: groups of items read the same data, P5/P7; mem=local: local item "
               "l as reader l % readers, a divisor of wg, 0: wg)"),
    MG_KEY_END,
};

typedef struct bw_geom {
    int     img, local, cnst;
    int     eb;                   /* storage bytes per element */
    int64_t vec;                  /* elements per load (images: 4 channels) */
    int64_t chunk;                /* bytes per load */
    int64_t NC, T, S;             /* chunks, readers, chunks per reader per pass */
    int64_t N;                    /* rows per block (blockN), else 1 */
    int64_t IW, IH, h;            /* image shape; rows per item (row, block) */
} bw_geom;

static void geom(const mg_schedule *s, bw_geom *g)
{
    memset(g, 0, sizeof *g);
    g->img = s->mem == MG_MEM_IMAGE;
    g->local = s->mem == MG_MEM_LOCAL;
    g->cnst = s->mem == MG_MEM_CONSTANT;
    g->eb = g->local ? 4 : mg_sched_elem_bytes(s);
    g->vec = g->img ? 4 : s->vec;
    g->chunk = g->vec * g->eb;
    g->NC = s->footprint / g->chunk;
    g->T = s->readers ? s->readers : g->local ? s->wg[0] : s->items;
    g->S = g->NC / g->T;
    g->N = s->pattern == MG_PAT_BLOCK2 ? 2 : s->pattern == MG_PAT_BLOCK4 ? 4
           : s->pattern == MG_PAT_BLOCK8 ? 8 : 1;
    if (!g->img || !g->S) return;
    if (s->pattern == MG_PAT_COLUMN) {
        g->IH = g->S < SIDE_AUTO ? g->S : SIDE_AUTO;
        g->IW = g->T * (g->S / g->IH);
    } else {
        int64_t run = g->S / g->N;
        g->IW = run < SIDE_AUTO ? run : SIDE_AUTO;
        g->h = g->IW ? g->S / g->IW : 0;
        g->IH = g->T * g->h;
    }
}

static void defaults(mg_schedule *s)
{
    s->wg[0] = 64;
    s->wg[1] = s->wg[2] = 1;
    s->pattern = MG_PAT_COLUMN;
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    bw_geom g;
    geom(s, &g);
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: bandwidth: the launch is 1D: wg must be X,1,1", where);
    if (s->readers > s->items)
        mg_diag_error(d, "%s: bandwidth: readers=%lld: at most items=%lld", where,
                      (long long)s->readers, (long long)s->items);
    else if (g.local && s->readers && s->wg[0] % s->readers)
        mg_diag_error(d, "%s: bandwidth: readers=%lld with mem=local: a divisor of wg=%lld "
                      "(a work group's items read as reader l %% readers)", where,
                      (long long)s->readers, (long long)s->wg[0]);
    if (s->items % s->wg[0])
        mg_diag_error(d, "%s: bandwidth: items=%lld is not a multiple of wg=%lld (every item "
                      "reads its share)", where, (long long)s->items, (long long)s->wg[0]);
    if (g.img && s->vec != 4 && mg_schedule_is_set(s, "vec"))
        mg_diag_error(d, "%s: bandwidth: vec=%lld with an image: a texel holds 4 channels, so "
                      "loads are 4 wide", where, (long long)s->vec);
    else if (s->vec != 1 && s->vec != 2 && s->vec != 4 && s->vec != 8)
        mg_diag_error(d, "%s: bandwidth: vec=%lld: a vector load is 1, 2, 4 or 8 wide", where,
                      (long long)s->vec);
    if (!g.img && s->pattern != MG_PAT_ROW && s->pattern != MG_PAT_COLUMN)
        mg_diag_error(d, "%s: bandwidth: pattern=%s is a 2D walk: it needs mem=image", where,
                      mg_pattern_names[s->pattern]);
    if (g.local && s->storage != MG_PREC_FP32)
        mg_diag_error(d, "%s: bandwidth: local memory arrays are float: storage must be fp32",
                      where);
    if (g.local && s->footprint > LOCAL_MAX)
        mg_diag_error(d, "%s: bandwidth: a local footprint of %lld bytes is larger than %d "
                      "KiB", where, (long long)s->footprint, LOCAL_MAX / 1024);
    if (g.cnst && s->footprint > CONST_MAX)
        mg_diag_error(d, "%s: bandwidth: a constant footprint of %lld bytes is larger than "
                      "%d KiB (OpenCL's minimum constant buffer)", where,
                      (long long)s->footprint, CONST_MAX / 1024);
    if (d->n != before) return -1;
    if (s->footprint % (g.chunk * g.T) || !g.S) {
        mg_diag_error(d, "%s: bandwidth: footprint=%lld is not a positive multiple of %lld "
                      "readers x %lld-byte loads", where, (long long)s->footprint,
                      (long long)g.T, (long long)g.chunk);
        return -1;
    }
    if (g.img) {
        if (s->pattern == MG_PAT_COLUMN ? g.S % g.IH : (g.S % g.N || g.S % g.IW || g.h % g.N))
            mg_diag_error(d, "%s: bandwidth: %lld texels per item do not fill whole %s of the "
                          "image (rows of %d texels, %lld-row blocks)", where, (long long)g.S,
                          s->pattern == MG_PAT_COLUMN ? "columns" : "rows", SIDE_AUTO,
                          (long long)g.N);
        else if (g.IW > SIDE_MAX || g.IH > SIDE_MAX)
            mg_diag_error(d, "%s: bandwidth: footprint=%lld needs a %lldx%lld image, past the "
                          "image limit of %dx%d texels", where, (long long)s->footprint,
                          (long long)g.IW, (long long)g.IH, SIDE_MAX, SIDE_MAX);
    }
    return d->n == before ? 0 : -1;
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    bw_geom g;
    geom(s, &g);
    snprintf(k->name, sizeof k->name, "bandwidth");
    int dt = g.local ? MG_DT_F32 : mg_plan_dtype(s);
    int src;
    if (g.img)
        src = mg_plan_tensor(k, "Src", MG_TENSOR_IN, MG_TL_IMAGE, dt, 4, MG_INIT_RANDOM, 1,
                             g.IH, g.IW, 4);
    else
        src = mg_plan_tensor(k, "Src", MG_TENSOR_IN, g.cnst ? MG_TL_CONSTANT : MG_TL_BUFFER, dt,
                             1, MG_INIT_RANDOM, 1, 1, 1, g.NC * g.vec);
    int out = mg_plan_tensor(k, "Out", MG_TENSOR_OUT, MG_TL_BUFFER, MG_DT_F32, 1, MG_INIT_ZERO,
                             1, 1, s->items, g.vec);
    mg_plan_arg_tensor(k, src);
    mg_plan_arg_tensor(k, out);
    if (g.local) mg_plan_arg_local(k, "lm", s->footprint);
    mg_plan_arg_int(k, "zero", 0);               /* p * zero: see the top of this file */
    int64_t items[3] = {s->items, 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    int64_t loads = s->iters * g.S;
    /* accumulator, `unroll` loaded values in flight, g, 2 counters, address, tz */
    k->f.regs_per_item = g.vec * (1 + s->unroll) + 5;
    k->f.loop_iters = loads;
    k->f.bytes_per_iter = g.chunk;
    k->f.bytes_per_item = (loads + (g.local ? 2 * g.S : 0)) * g.chunk;
    k->f.flops = (double)s->items * (double)loads * (double)g.vec;
    k->f.local_bytes = g.local ? s->footprint : 0;
    k->f.access_width = g.chunk;
    k->f.boundary_checks = 0;
    k->log_cap = loads + 1 + (g.local ? 2 * g.S : 0);
}

/* ---- OpenCL ---------------------------------------------------------------- */

/* The pass's offset of item t's addresses, tz (see the top of the file):
 * the element of its first chunk (buffer, local, constant), its column
 * (image, column pattern) or its first row (image, row and block). */
static void emit_item_offset(const mg_schedule *s, const bw_geom *g, mg_sb *o)
{
    long long S = g->S, V = g->vec;
    if (!g->img && s->pattern == MG_PAT_ROW)
        mg_sb_printf(o, "        const int tz = t * %lld + pz;\n", S * V);
    else if (!g->img)
        mg_sb_printf(o, "        const int tz = t * %lld + pz;\n", V);
    else if (s->pattern == MG_PAT_COLUMN)
        mg_sb_puts(o, "        const int tz = t + pz;\n");
    else
        mg_sb_printf(o, "        const int tz = t * %lld + pz;\n", (long long)g->h);
}

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    bw_geom g;
    geom(s, &g);
    int vec = (int)g.vec;
    const char *vt = mg_cl_vtype(0, vec);
    long long S = g.S, T = g.T, V = g.vec;
    mg_cl_signature(k, o);
    int shared = g.local && T < s->wg[0];   /* local readers: groups of items per reader */
    if (shared)
        mg_sb_printf(o, "    const int g = get_global_id(0), l = get_local_id(0), t = l %% %lld;\n",
                     T);
    else if (g.local)
        mg_sb_puts(o, "    const int g = get_global_id(0), t = get_local_id(0);\n");
    else
        mg_sb_printf(o, "    const int g = get_global_id(0), t = g %% %lld;\n", T);
    if (g.local) {
        mg_sb_printf(o, "    for (int k = 0; k < %lld%s; k++) {\n"
                        "        const int e = (k * %lld + t) * %lld;\n        const %s v = ",
                     S, shared ? " && l == t" : "", T, V, vt);
        mg_cl_ld(o, k, TSRC, SITE_CP_LD, "e", vec, 0);
        mg_sb_puts(o, ";\n        ");
        mg_cl_stl(o, SITE_CP_ST, "lm", "e", vec, "v");
        mg_sb_puts(o, "\n    }\n    barrier(CLK_LOCAL_MEM_FENCE);\n");
    }
    mg_sb_printf(o, "    %s acc = 0;\n    for (int p = 0; p < %lld; p++) {\n"
                    "        const int pz = p * zero;\n", vt, (long long)s->iters);
    emit_item_offset(s, &g, o);
    if (s->unroll > 1) mg_sb_printf(o, "        #pragma unroll %lld\n", (long long)s->unroll);
    mg_sb_printf(o, "        for (int s = 0; s < %lld; s++) {\n", S);
    if (g.img) {
        if (s->pattern == MG_PAT_COLUMN)
            mg_sb_printf(o, "            const int x = (s / %lld) * %lld + tz, y = s %% %lld;\n",
                         (long long)g.IH, T, (long long)g.IH);
        else if (g.N == 1)
            mg_sb_printf(o, "            const int x = s %% %lld, y = tz + s / %lld;\n",
                         (long long)g.IW, (long long)g.IW);
        else
            mg_sb_printf(o, "            const int r = s %% %lld;\n"
                            "            const int x = r / %lld, y = tz + (s / %lld) * "
                            "%lld + r %% %lld;\n", (long long)(g.IW * g.N), (long long)g.N,
                         (long long)(g.IW * g.N), (long long)g.N, (long long)g.N);
        mg_sb_puts(o, "            acc += ");
        mg_cl_rd(o, k, TSRC, SITE_LOAD, "x", "y", 0);
    } else {
        if (s->pattern == MG_PAT_ROW)
            mg_sb_printf(o, "            const int e = s * %lld + tz;\n", V);
        else
            mg_sb_printf(o, "            const int e = s * %lld + tz;\n", T * V);
        mg_sb_puts(o, "            acc += ");
        if (g.local) mg_cl_ldl(o, SITE_LOAD, "lm", "e", vec, vt);
        else mg_cl_ld(o, k, TSRC, SITE_LOAD, "e", vec, 0);
    }
    mg_sb_printf(o, ";\n        }\n    }\n    ");
    char e[32];
    snprintf(e, sizeof e, "g * %lld", V);
    mg_cl_st(o, k, TOUT, SITE_OUT, e, vec, "acc", 0);
    mg_sb_puts(o, "\n}\n");
}

/* ---- trace ----------------------------------------------------------------- */

/* Chunk index (buffers) or texel (x, y) (images) of reader t's s-th load. */
static void chunk_at(const mg_schedule *s, const bw_geom *g, int64_t t, int64_t i, int64_t *x,
                     int64_t *y)
{
    *y = 0;
    if (!g->img) {
        *x = s->pattern == MG_PAT_ROW ? t * g->S + i : i * g->T + t;
    } else if (s->pattern == MG_PAT_COLUMN) {
        *x = (i / g->IH) * g->T + t;
        *y = i % g->IH;
    } else {
        int64_t r = i % (g->IW * g->N);
        *x = r / g->N;
        *y = t * g->h + (i / (g->IW * g->N)) * g->N + r % g->N;
    }
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    bw_geom g;
    geom(s, &g);
    uint32_t width = (uint32_t)g.chunk;
    int64_t *t = g.local ? w->lid[0] : w->gid[0];
    if (g.local) {
        for (int64_t c = 0; c < g.S; c++) {
            for (int pass = 0; pass < 2; pass++) {
                mg_emit_mem(w, pass ? MG_REC_LOCAL_STORE : MG_REC_BUF_LOAD,
                            pass ? SITE_CP_ST : SITE_CP_LD, pass ? -1 : TSRC, width);
                for (uint32_t l = 0; l < w->lanes; l++)
                    if (t[l] < g.T) mg_emit_lane(w, l, (c * g.T + t[l]) * g.chunk, 0);
                mg_emit_put(w);
            }
        }
        w->r.obj = 1;              /* the barrier's fence: local (mg_emit_barrier keeps obj) */
        mg_emit_barrier(w, SITE_BAR);
    }
    int type = g.img ? MG_REC_TEX_READ : g.local ? MG_REC_LOCAL_LOAD
               : g.cnst ? MG_REC_CONST_LOAD : MG_REC_BUF_LOAD;
    uint32_t addr_ops = g.img ? (s->pattern == MG_PAT_COLUMN ? 4 : g.N == 1 ? 4 : 7) : 2;
    /* With unroll U the compiler issues U loads before their U adds: the
     * memory order is the kernel's either way, only the ALU work moves. */
    int64_t U = s->unroll;
    for (int64_t p = 0; p < s->iters; p++) {
        /* addresses come from the ids and the loop counters, never from a
         * load (emit.h, marks): the U loads of a step are in flight together */
        mg_emit_needs(w, 0);
        mg_emit_alu(w, NULL, SITE_ADDR, MG_ALU_INT, 1, 2, 0);       /* pz, tz */
        for (int64_t i0 = 0; i0 < g.S; i0 += U) {
            int64_t n = g.S - i0 < U ? g.S - i0 : U;
            for (int64_t i = i0; i < i0 + n; i++) {
                mg_emit_needs(w, 0);
                mg_emit_alu(w, NULL, SITE_ADDR, MG_ALU_INT, 1, addr_ops, 0);
                mg_emit_mem(w, type, SITE_LOAD, g.local ? -1 : TSRC, width);
                for (uint32_t l = 0; l < w->lanes; l++) {
                    int64_t x, y;
                    chunk_at(s, &g, t[l] % g.T, i, &x, &y);
                    if (g.img) mg_emit_lane(w, l, x, y);
                    else mg_emit_lane(w, l, x * g.chunk, 0);
                }
                mg_emit_put(w);
            }
            mg_emit_alu(w, NULL, SITE_ADD, MG_ALU_FP32, (int)g.vec, (uint32_t)n, 1);
        }
    }
    mg_emit_mem(w, MG_REC_BUF_STORE, SITE_OUT, TOUT, (uint32_t)(g.vec * 4));
    for (uint32_t l = 0; l < w->lanes; l++) mg_emit_lane(w, l, w->gid[0][l] * g.vec * 4, 0);
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
    bw_geom g;
    geom(s, &g);
    const float *src = h->f[TSRC];
    for (int64_t it = 0; it < s->items; it++) {
        int64_t t = (g.local ? it % s->wg[0] : it) % g.T;
        float acc[8] = {0};
        for (int64_t p = 0; p < s->iters; p++)
            for (int64_t i = 0; i < g.S; i++) {
                int64_t x, y, e0;
                chunk_at(s, &g, t, i, &x, &y);
                e0 = g.img ? (y * g.IW + x) * 4 : x * g.vec;
                for (int64_t e = 0; e < g.vec; e++) acc[e] += src[e0 + e];
            }
        for (int64_t e = 0; e < g.vec; e++) h->f[TOUT][it * g.vec + e] = acc[e];
    }
}

const mg_op mg_op_bandwidth = {
    .name = "bandwidth",
    .summary = "streaming reads of an image, buffer, local or constant footprint (P5, P6)",
    .keys = keys,
    .knobs = "wg pattern vec storage unroll warp",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
};
