/*
 * am_traffic.c - the analytical model's traffic floors (am_internal.h):
 * every warp of the walked work group through the group's share of each
 * L1 and of the L2 (am_share.c); the L2 floor is its L1 misses' lines and
 * its stores, the DRAM floor each input's bytes times its L2 refetch
 * factor, both over the launch (sim/MODEL.md, "The analytical model").
 */
#include "sim/analytic/am_internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The walked group's shares (its `warps` warps): each L1's lines over the
 * groups resident per SP; the L2's lines x warps / the warps resident on
 * the GPU, at sh[MG_AM_PATHS].  Returns 0, -1 out of memory. */
static int shares_init(const mg_device *dev, const mg_am_params *p, mg_am_est *e,
                       uint64_t warps, mg_am_share sh[MG_AM_PATHS + 1])
{
    uint64_t all = (uint64_t)e->warps_per_wg * e->wgs;
    uint64_t per_sp = e->groups_per_wg > 1 ? e->occupancy
                                           : (uint64_t)e->wgs_per_sp * e->warps_per_wg;
    per_sp = min_u64(per_sp, all);
    uint64_t at_once = min_u64(all, per_sp * (uint64_t)dev->sp_count);
    double lines = dev->l2.line > 0 ? (double)dev->l2.size / (double)dev->l2.line : 0;
    warps = min_u64(warps, per_sp);
    e->l2_share = at_once ? lines * (double)warps / (double)at_once : lines;
    double sp_groups = e->groups_per_wg > 1 || !e->wgs_per_sp ? 1 : e->wgs_per_sp;
    int rc = 0;
    for (int q = 0; q < MG_AM_PATHS; q++)
        rc |= mg_am_share_init(&sh[q], (double)p->lines[q] / sp_groups, p->sets[q],
                               (double)p->lines[q] / p->sets[q]);
    rc |= mg_am_share_init(&sh[MG_AM_PATHS], e->l2_share, p->l2_sets, lines / p->l2_sets);
    return rc;
}

static void shares_free(mg_am_share sh[MG_AM_PATHS + 1])
{
    for (int q = 0; q <= MG_AM_PATHS; q++) mg_am_share_free(&sh[q]);
}

/* The floors from the walked group's shares: the L2's (its expected L1
 * misses, a line of the path each, and its stores' bytes, times the
 * launch's items over its items, at the L2 bandwidth) and DRAM's (each
 * texture and buffer input's bytes times its refetch factor in the
 * group's L2 share, at the DRAM bandwidth). */
static void floors(const mg_device *dev, const mg_am_params *p, const mg_trace_header *h,
                   double walked_items, const mg_am_share *sh, mg_am_est *e)
{
    const mg_am_share *l2 = &sh[MG_AM_PATHS];
    uint64_t items = (uint64_t)h->global[0] * h->global[1] * h->global[2];
    double scale = walked_items > 0 ? (double)items / walked_items : 0;
    for (int i = 0; i < e->ntensors; i++) {
        const mg_am_tensor *t = &e->t[i];
        double line = t->path == MG_AM_TEX ? (double)dev->tex_l1.line
                    : t->path == MG_AM_BUF ? (double)p->line_bytes[MG_AM_BUF] : 0;
        e->l2_bytes += sh[t->path].fetches[i] * line * scale;
    }
    e->l2_bytes += e->store_bytes * scale;
    if (dev->l2.bandwidth > 0) e->l2_cycles = e->l2_bytes / dev->l2.bandwidth * dev->clock_hz;
    for (int i = 0; i < e->ntensors; i++) {
        mg_am_tensor *t = &e->t[i];
        t->dram_amp = l2->distinct[i] ? l2->fetches[i] / (double)l2->distinct[i] : 1;
        double bytes = t->path == MG_AM_TEX
            ? (double)h->images[t->obj].width * h->images[t->obj].height *
              h->images[t->obj].texel_bytes
            : t->path == MG_AM_BUF ? (double)h->buffers[t->obj].bytes : 0;
        e->dram_bytes += bytes * t->dram_amp;
    }
    if (dev->dram_bandwidth > 0)
        e->dram_cycles = e->dram_bytes / dev->dram_bandwidth * dev->clock_hz;
}

int mg_am_traffic(const mg_device *dev, const mg_am_params *p, const mg_trace_header *h,
                  const mg_trace_wg *wg, mg_am_est *e, mg_diag *d)
{
    double items = 0;
    for (uint32_t k = 0; k < wg->n_warps; k++) items += wg->warps[k].lanes;
    mg_am_share sh[MG_AM_PATHS + 1];
    int rc = shares_init(dev, p, e, wg->n_warps, sh);
    if (rc) mg_diag_error(d, "out of memory");
    else rc = mg_am_walk_shares(dev, p, h, wg, e, sh, d);
    if (rc == 0) floors(dev, p, h, items, sh, e);
    shares_free(sh);
    return rc;
}
