/*
 * emit.c - see emit.h.
 */
#include "gen/emit.h"

#include <string.h>

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
    return r;
}

void mg_emit_put(mg_warp *w)
{
    if (!w->r.mask[0] && !w->r.mask[1]) return;
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
    r->obj = 0;
    r->width = 0;
    mg_emit_put(w);
}

void mg_emit_barrier(mg_warp *w, int site)
{
    mg_rec *r = &w->r;
    r->type = MG_REC_BARRIER;
    r->site = (uint16_t)site;
    r->lanes = (uint16_t)w->lanes;
    mg_emit_all(w, r->mask);
    r->n = 0;
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
    r->obj = 0;
    r->width = 0;
    mg_emit_put(w);
}
