/*
 * emit.c - see emit.h.
 */
#include "traces/gen/emit.h"
#include "traces/trace_internal.h"

#include <string.h>

static _Thread_local int lanewise;
static _Thread_local uint64_t direct;

void mg_emit_set_lanewise(int on) { lanewise = on; }

uint64_t mg_emit_direct_count(void) { return direct; }

int mg_emit_wg(const mg_kernel *k, const uint32_t wg[3], mg_trace_wg *out, mg_warp_body body,
               const void *ctx)
{
    static _Thread_local mg_warp w;         /* large: keep it off the stack */
    memset(&w, 0, offsetof(mg_warp, r));
    w.k = k;
    w.out = out;
    memcpy(w.wg, wg, sizeof w.wg);
    if (mg_trace_wg_begin(out, wg)) return -1;
    int64_t items = k->local[0] * k->local[1] * k->local[2];
    uint32_t warp = k->warp;
    for (int64_t base = 0, wi = 0; base < items; base += warp, wi++) {
        w.index = (uint32_t)wi;
        w.lanes = (uint32_t)(items - base < warp ? items - base : warp);
        for (uint32_t l = 0; l < w.lanes; l++) {
            int64_t li = base + l;
            w.lid[0][l] = li % k->local[0];
            w.lid[1][l] = (li / k->local[0]) % k->local[1];
            w.lid[2][l] = li / (k->local[0] * k->local[1]);
            for (int d = 0; d < 3; d++) w.gid[d][l] = (int64_t)wg[d] * k->local[d] + w.lid[d][l];
        }
        for (int d = 0; d < 3; d++) {
            w.lid0[d] = w.lid[d][0];
            w.lidn[d] = w.lid[d][w.lanes - 1];
        }
        w.zconst = w.lid0[2] == w.lidn[2];
        w.bzb = 0;
        w.nloads = 0;
        w.settled = 0;
        w.has_need = 0;
        w.lanewise = lanewise;
        w.only[0] = w.only[1] = ~(uint64_t)0;
        if (mg_trace_wg_warp_begin(out, w.lanes)) return -1;
        body(&w, ctx);
        if (mg_trace_wg_warp_end(out)) return -1;
    }
    return 0;
}

mg_rec *mg_emit_mem(mg_warp *w, int type, int site, int ti, uint32_t width)
{
    mg_rec *r = &w->r;
    r->type = (uint8_t)type;
    r->site = (uint16_t)site;
    r->lanes = (uint16_t)w->lanes;
    r->mask[0] = r->mask[1] = 0;
    r->obj = ti >= 0 ? (uint8_t)w->k->t[ti].obj : 0;
    r->width = width;
    r->cls = r->vec = r->flops = 0;
    r->n = 0;
    r->keep = 0;
    return r;
}

/* Count r in w's load records when it is a load (emit.h, marks). */
static inline void count_load(mg_warp *w, const mg_rec *r)
{
    w->nloads += r->type == MG_REC_TEX_READ || r->type == MG_REC_BUF_LOAD ||
                 r->type == MG_REC_LOCAL_LOAD || r->type == MG_REC_CONST_LOAD;
}

/* The keep of the next ALU record of w (mg_emit_needs), which uses up the
 * mark: the loads put since it, 0 when none was set.  Loads before w's
 * last full wait are no longer in flight, so the keep counts only those
 * since (the same waits, fewer bytes); 0 when no load is then in flight
 * (nothing to wait for either way), which is a full wait. */
static inline uint32_t take_keep(mg_warp *w)
{
    uint32_t from = w->has_need && w->need > w->settled ? w->need : w->settled;
    uint32_t keep = w->has_need && from < w->nloads ? w->nloads - from : 0;
    w->has_need = 0;
    return keep;
}

/* Put w's ALU record; one with keep 0 (and a lane: else it is dropped)
 * waits for every load, so none is in flight after it. */
static void put_alu(mg_warp *w)
{
    if (!w->r.keep && (w->r.mask[0] || w->r.mask[1])) w->settled = w->nloads;
    mg_emit_put(w);
}

void mg_emit_put(mg_warp *w)
{
    w->r.mask[0] &= w->only[0];
    w->r.mask[1] &= w->only[1];
    if (!w->r.mask[0] && !w->r.mask[1]) return;
    count_load(w, &w->r);
    mg_trace_wg_put(w->out, &w->r);
}

void mg_emit_all(const mg_warp *w, uint64_t mask[2])
{
    mask[0] = w->lanes >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w->lanes) - 1);
    mask[1] = w->lanes > 64 ? (w->lanes >= 128 ? ~(uint64_t)0
                                               : (((uint64_t)1 << (w->lanes - 64)) - 1))
                            : 0;
}

void mg_emit_alu(mg_warp *w, const uint64_t *mask, int site, int cls, int vec, uint32_t n,
                 int flops)
{
    mg_rec *r = &w->r;
    r->type = MG_REC_ALU;
    r->site = (uint16_t)site;
    r->lanes = (uint16_t)w->lanes;
    if (mask) { r->mask[0] = mask[0]; r->mask[1] = mask[1]; }
    else mg_emit_all(w, r->mask);
    r->cls = (uint8_t)cls;
    r->vec = (uint8_t)vec;
    r->n = n;
    r->flops = (uint8_t)flops;
    r->dep = 1;
    r->keep = take_keep(w);
    r->obj = 0;
    r->width = 0;
    put_alu(w);
}

void mg_emit_barrier(mg_warp *w, int site)
{
    mg_rec *r = &w->r;
    r->type = MG_REC_BARRIER;
    r->site = (uint16_t)site;
    r->lanes = (uint16_t)w->lanes;
    mg_emit_all(w, r->mask);
    r->n = 0;
    r->keep = 0;
    w->settled = w->nloads;   /* a barrier waits for every load */
    w->has_need = 0;
    r->obj = 1;               /* fence: CLK_LOCAL_MEM_FENCE (FORMAT.md) */
    r->width = 0;
    mg_emit_put(w);
}

void mg_emit_alu_dep(mg_warp *w, const uint64_t *mask, int site, int cls, int vec, uint32_t n,
                     int flops, uint32_t dep)
{
    /* mg_emit_alu puts the record; rebuild it with dep (records are cheap) */
    mg_rec *r = &w->r;
    r->type = MG_REC_ALU;
    r->site = (uint16_t)site;
    r->lanes = (uint16_t)w->lanes;
    if (mask) { r->mask[0] = mask[0]; r->mask[1] = mask[1]; }
    else mg_emit_all(w, r->mask);
    r->cls = (uint8_t)cls;
    r->vec = (uint8_t)vec;
    r->n = n;
    r->flops = (uint8_t)flops;
    r->dep = dep < 1 ? 1 : dep > n ? n : dep;
    r->keep = take_keep(w);
    r->obj = 0;
    r->width = 0;
    put_alu(w);
}

/* The form of f over w's lanes into *a (p, and per dimension base, a, c):
 * lanes within one row of local x (p = lanes); rows of local x starting
 * at lane 0 (p = local x), each the next y, or with z moving, y's step
 * times local y; or a step linear in the linear local id (p = lanes).
 * Returns 0 when none of these holds. */
static int form_of(const mg_warp *w, int dims, const mg_lane_aff *f, mg_trace_affine *a)
{
    const mg_kernel *k = w->k;
    uint64_t L0 = (uint64_t)k->local[0], L1 = (uint64_t)k->local[1];
    int one_row = (uint64_t)w->lid0[0] + w->lanes <= L0;
    int rows = !one_row && w->lid0[0] == 0;
    memset(a, 0, sizeof *a);
    a->p = rows ? (uint32_t)L0 : w->lanes;
    for (int d = 0; d < dims; d++) {
        uint64_t dx = (uint64_t)f->dx[d], dy = (uint64_t)f->dy[d], dz = (uint64_t)f->dz[d];
        int zlin = w->zconst || dz == dy * L1;
        if (!one_row && !(rows && zlin) && !(dy == dx * L0 && zlin)) return 0;
        a->base[d] = (int64_t)((uint64_t)f->at[d] + dx * (uint64_t)w->lid0[0] +
                               dy * (uint64_t)w->lid0[1] + dz * (uint64_t)w->lid0[2]);
        a->a[d] = f->dx[d];
        a->c[d] = rows ? f->dy[d] : 0;
    }
    return 1;
}

/* The form of f in planes (trace_internal.h) into *pl, for a warp over
 * several local z (or blocks of local z, zb > 0) that starts at a row of
 * the group (local x 0): rows of local x, local y rows to a plane, a
 * plane per local z, with zb > 0 zb planes to a block (a plane adding dz,
 * a block dzb), lane 0 at its row of its plane (of its block).  Returns 0
 * when the warp is not such a one. */
static int planes_of(const mg_warp *w, int dims, const mg_lane_aff *f, int64_t zb,
                     const int64_t *dzb, mg_trace_planes *pl)
{
    const mg_kernel *k = w->k;
    if (w->zconst || w->lid0[0] != 0) return 0;
    memset(pl, 0, sizeof *pl);
    pl->f.p = (uint32_t)k->local[0];
    pl->q = (uint32_t)k->local[1];
    pl->q2 = (uint32_t)zb;
    int64_t z0 = zb ? w->lid0[2] % zb : 0;    /* lane 0's plane in the form */
    pl->off = (uint32_t)((z0 * k->local[1] + w->lid0[1]) * k->local[0]);
    for (int d = 0; d < dims; d++) {
        /* the form's origin: local z 0, or the start of lane 0's block */
        pl->f.base[d] = zb ? f->at[d]
                           : (int64_t)((uint64_t)f->at[d] +
                                       (uint64_t)f->dz[d] * (uint64_t)w->lid0[2]);
        pl->f.a[d] = f->dx[d];
        pl->f.c[d] = f->dy[d];
        pl->e[d] = f->dz[d];
        pl->g[d] = zb ? dzb[d] : 0;
    }
    return 1;
}

/* Put r with each active lane's addresses computed from f: local z is r
 * itself (zb = 0), or b zb + r with dzb[d] (b - b0) added. */
static void aff_lanes(mg_warp *w, mg_rec *r, int dims, const mg_lane_aff *f, uint64_t zb,
                      const int64_t *dzb, uint64_t b0)
{
    for (int h = 0; h < 2; h++)
        for (uint64_t m = r->mask[h]; m; m &= m - 1) {
            unsigned l = 64u * (unsigned)h + (unsigned)__builtin_ctzll(m);
            uint64_t z = (uint64_t)w->lid[2][l], zr = zb ? z % zb : z, b = zb ? z / zb - b0 : 0;
            int64_t v[2] = {0, 0};
            for (int d = 0; d < dims; d++)
                v[d] = (int64_t)((uint64_t)f->at[d] + (uint64_t)f->dx[d] * (uint64_t)w->lid[0][l] +
                                 (uint64_t)f->dy[d] * (uint64_t)w->lid[1][l] +
                                 (uint64_t)f->dz[d] * zr + (zb ? (uint64_t)dzb[d] * b : 0));
            r->a[l] = v[0];
            r->b[l] = v[1];
        }
    mg_emit_put(w);
}

/* The memory record mg_emit_aff() and mg_emit_aff_blocks() put, its
 * mask set (mask, or every lane when NULL); NULL when no lane is in it. */
static mg_rec *aff_rec(mg_warp *w, int type, int site, int ti, uint32_t width,
                       const uint64_t *mask)
{
    mg_rec *r = mg_emit_mem(w, type, site, ti, width);
    if (mask) {
        r->mask[0] = mask[0];
        r->mask[1] = mask[1];
    } else {
        mg_emit_all(w, r->mask);
    }
    r->mask[0] &= w->only[0];
    r->mask[1] &= w->only[1];
    return r->mask[0] || r->mask[1] ? r : NULL;
}

void mg_emit_aff(mg_warp *w, int type, int site, int ti, uint32_t width, const uint64_t *mask,
                 const mg_lane_aff *f)
{
    mg_rec *r = aff_rec(w, type, site, ti, width, mask);
    if (!r) return;
    if (w->out->sink) {                           /* its shape only: no addresses */
        count_load(w, r);
        w->out->sink(w->out->sink_ctx, r);
        return;
    }
    int dims = mg_rec_dims(type);
    mg_trace_affine a;
    if (!w->lanewise && form_of(w, dims, f, &a)) {
        count_load(w, r);
        mg_trace_wg_put_affine(w->out, r, &a);
        direct++;
        return;
    }
    mg_trace_planes pl;
    if (!w->lanewise && planes_of(w, dims, f, 0, NULL, &pl)) {
        count_load(w, r);
        mg_trace_wg_put_planes(w->out, r, &pl);
        direct++;
        return;
    }
    aff_lanes(w, r, dims, f, 0, NULL, 0);
}

void mg_emit_aff_blocks(mg_warp *w, int type, int site, int ti, uint32_t width,
                        const uint64_t *mask, const mg_lane_aff *f, int64_t zb,
                        const int64_t dzb[2])
{
    if (w->bzb != zb) {                           /* once per warp and block size */
        w->bzb = zb;
        w->b0 = w->lid0[2] / zb;
        w->bn = w->lidn[2] / zb;
    }
    uint64_t b0 = (uint64_t)w->b0, bn = (uint64_t)w->bn;
    if (w->out->sink) {                           /* its shape only: no addresses */
        mg_rec *r = aff_rec(w, type, site, ti, width, mask);
        if (r) {
            count_load(w, r);
            w->out->sink(w->out->sink_ctx, r);
        }
        return;
    }
    if (b0 == bn || zb == 1) {                    /* a form of local z */
        mg_lane_aff g = *f;
        for (int d = 0; d < 2; d++) {
            if (b0 == bn) {                       /* r = z - b0 zb */
                g.at[d] = (int64_t)((uint64_t)f->at[d] - (uint64_t)f->dz[d] * b0 * (uint64_t)zb);
            } else {                              /* r = 0, b = z */
                g.at[d] = (int64_t)((uint64_t)f->at[d] - (uint64_t)dzb[d] * b0);
                g.dz[d] = dzb[d];
            }
        }
        mg_emit_aff(w, type, site, ti, width, mask, &g);
        return;
    }
    mg_rec *r = aff_rec(w, type, site, ti, width, mask);
    if (!r) return;
    int dims = mg_rec_dims(type);
    mg_trace_planes pl;
    if (!w->lanewise && planes_of(w, dims, f, zb, dzb, &pl)) {   /* planes in blocks */
        count_load(w, r);
        mg_trace_wg_put_planes(w->out, r, &pl);
        direct++;
        return;
    }
    aff_lanes(w, r, dims, f, (uint64_t)zb, dzb, b0);
}
