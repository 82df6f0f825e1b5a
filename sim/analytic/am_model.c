/*
 * am_model.c - the analytical model's warp, work-group and integrated
 * levels (TMModel equations 2-7) over the thread level of am_walk.c, and
 * the launch checks the simulator makes too (sim/MODEL.md, "The
 * analytical model").
 */
#include "sim/analytic/am_internal.h"
#include "sim/model/bound.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the simulator refuses to launch (sim.c's check_launch), said the
 * same way.  Returns 0, or -1 with a message. */
static int check_launch(const mg_device *dev, const mg_trace_header *h, const mg_am_est *e,
                        mg_diag *d)
{
    uint32_t items = h->local[0] * h->local[1] * h->local[2];
    if (dev->max_regs_per_item > 0 && (int64_t)h->regs_per_item > dev->max_regs_per_item)
        return mg_diag_error(d, "%s: %u registers per item exceed %s's registers."
                             "max_regs_per_item %lld (CL_OUT_OF_RESOURCES)", h->kernel,
                             h->regs_per_item, dev->name, (long long)dev->max_regs_per_item), -1;
    if (e->occupancy == 0)
        return mg_diag_error(d, "%s: one warp of %u lanes at %u registers per item does not "
                             "fit the registers of a core of %s", h->kernel, h->warp_width,
                             e->regs_per_item, dev->name), -1;
    if (items > (uint32_t)dev->max_workgroup_size)
        return mg_diag_error(d, "%s: work group of %u items exceeds %s's max_workgroup_size "
                             "%lld (CL_INVALID_WORK_GROUP_SIZE)", h->kernel, items, dev->name,
                             (long long)dev->max_workgroup_size), -1;
    if (h->local_bytes > (uint64_t)dev->local_size)
        return mg_diag_error(d, "%s: %u bytes of local memory per work group exceed %s's "
                             "%lld (CL_OUT_OF_RESOURCES)", h->kernel, h->local_bytes,
                             dev->name, (long long)dev->local_size), -1;
    return 0;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Work-group level (eq. 4-6): occupancy in warps, work groups resident per
 * SP (as many as warps, items and local memory allow; one when a work group
 * runs in occupancy groups), L_g. */
static void wg_level(const mg_device *dev, const mg_trace_header *h, mg_am_est *e)
{
    uint64_t g = dev->reg_granule > 0 ? (uint64_t)dev->reg_granule : 1;
    uint64_t regs = (h->regs_per_item + g - 1) / g * g;
    e->regs_per_item = (uint32_t)(regs ? regs : g);
    e->occupancy = mg_occ_warps(dev, h->warp_width, e->regs_per_item);
    e->warps_per_wg = mg_trace_warps_per_wg(h);
    e->wgs = mg_trace_num_wgs(h);
    uint64_t items = (uint64_t)h->local[0] * h->local[1] * h->local[2];
    if (e->occupancy == 0 || e->warps_per_wg == 0) return;
    if (e->occupancy >= e->warps_per_wg) {
        uint64_t n = e->occupancy / e->warps_per_wg;
        n = min_u64(n, (uint64_t)dev->max_warps_per_sp / e->warps_per_wg);
        if (items) n = min_u64(n, (uint64_t)dev->max_items_per_sp / items);
        if (dev->max_wgs_per_sp > 0) n = min_u64(n, (uint64_t)dev->max_wgs_per_sp);
        if (h->local_bytes) n = min_u64(n, (uint64_t)dev->local_size / h->local_bytes);
        e->wgs_per_sp = (uint32_t)(n ? n : 1);
        e->groups_per_wg = 1;
    } else {
        e->wgs_per_sp = 1;
        e->groups_per_wg = (e->warps_per_wg + e->occupancy - 1) / e->occupancy;
    }
    uint64_t at_once = (uint64_t)dev->sp_count * e->wgs_per_sp;
    e->lg = (e->wgs + at_once - 1) / at_once * e->groups_per_wg;
}

/* Thread level (eq. 1) and warp level (eq. 2, 3): L_t per tensor, the
 * pressure on each cache, its thrashing steps, L_w (each tensor's share
 * at most its every-access-misses latency). */
static void warp_level(const mg_am_params *p, mg_am_est *e)
{
    for (int i = 0; i < e->ntensors; i++) {
        mg_am_tensor *t = &e->t[i];
        const double *b = p->beta[t->path];
        t->lt = 0;
        for (int k = 0; k < MG_AM_BINS; k++) t->lt += b[k] * t->hist[k];
        t->lt_miss = t->hist[MG_AM_H_ACCESS] * (b[MG_AM_H_ACCESS] + b[MG_AM_H_LINE]) +
                     t->hist[MG_AM_H_BLOCK] * b[MG_AM_H_BLOCK];
        e->lt += t->lt;
        e->pressure[t->path] += t->lanes * t->reuse;
    }
    for (int q = 0; q < MG_AM_PATHS; q++) {
        double c = (double)p->lines[q];
        e->steps[q] = c > 0 && e->pressure[q] > c ? (int)ceil((e->pressure[q] - c) / c) : 0;
    }
    for (int i = 0; i < e->ntensors; i++) {
        mg_am_tensor *t = &e->t[i];
        double f = pow(p->decay[t->path], e->steps[t->path]);
        double cap = t->lt_miss > t->lt ? t->lt_miss : t->lt;
        t->lw = t->lt * f < cap ? t->lt * f : cap;
        e->lw += t->lw;
    }
}

/* The work group the model walks: the middle one of the launch (the
 * first when the source cannot seek).  Returns 0, -1 (message in d). */
static int fetch_wg(mg_trace_source *src, uint64_t wgs, mg_trace_wg *wg, uint64_t *idx,
                    mg_diag *d)
{
    wg->want_recs = 1;
    *idx = 0;
    if (src->wg_at && wgs > 0) {
        *idx = wgs / 2;
        return src->wg_at(src->self, *idx, wg, d);
    }
    int rc = src->next_wg(src->self, wg, d);
    if (rc == 0) return mg_diag_error(d, "%s: the trace has no work group", src->hdr->kernel), -1;
    return rc < 0 ? -1 : 0;
}

/* The throughput floor: the trace's lower bound of wg times the work
 * groups (bound.h). */
static int floor_of(const mg_device *dev, const mg_trace_wg *wg, mg_am_est *e, mg_diag *d)
{
    mg_bound *b = malloc(sizeof *b);
    if (!b) return mg_diag_error(d, "out of memory"), -1;
    mg_bound_init(b, dev);
    int rc = mg_bound_add_wg(b, wg, d);
    if (rc == 0) e->floor_cycles = mg_bound_cycles(b, NULL) * (double)e->wgs;
    free(b);
    return rc;
}

/* The warp's shares: of each L1 (lines over the warps resident on an SP)
 * and of the L2 (over those resident on the GPU), at sh[MG_AM_PATHS]. */
static void shares_init(const mg_device *dev, const mg_am_params *p, mg_am_est *e,
                        mg_am_share sh[MG_AM_PATHS + 1])
{
    uint64_t warps = (uint64_t)e->warps_per_wg * e->wgs;
    uint64_t per_sp = e->groups_per_wg > 1 ? e->occupancy
                                           : (uint64_t)e->wgs_per_sp * e->warps_per_wg;
    per_sp = min_u64(per_sp, warps);
    uint64_t at_once = min_u64(warps, per_sp * (uint64_t)dev->sp_count);
    double lines = dev->l2.line > 0 ? (double)dev->l2.size / (double)dev->l2.line : 0;
    e->l2_share = at_once ? lines / (double)at_once : lines;
    uint64_t groups = e->groups_per_wg > 1 ? 1 : (e->wgs_per_sp ? e->wgs_per_sp : 1);
    for (int q = 0; q < MG_AM_PATHS; q++)
        mg_am_share_init(&sh[q], (double)p->lines[q] / (double)groups);
    mg_am_share_init(&sh[MG_AM_PATHS], e->l2_share);
}

static void shares_free(mg_am_share sh[MG_AM_PATHS + 1])
{
    for (int q = 0; q <= MG_AM_PATHS; q++) mg_am_share_free(&sh[q]);
}

/* The traffic floors: the L2's (every L1 miss of the walked warp, a line
 * of its path, times the warps of the launch, at the L2 bandwidth) and
 * DRAM's (each texture and buffer input's bytes times its refetch factor
 * in the warp's L2 share, at the DRAM bandwidth). */
static void traffic_level(const mg_device *dev, const mg_am_params *p, const mg_trace_header *h,
                          const mg_trace_wg *wg, const mg_am_share *sh, mg_am_est *e)
{
    const mg_am_share *l2 = &sh[MG_AM_PATHS];
    uint64_t items = (uint64_t)h->global[0] * h->global[1] * h->global[2];
    double warps = wg->warps[0].lanes ? (double)items / wg->warps[0].lanes : 0;
    for (int i = 0; i < e->ntensors; i++) {
        const mg_am_tensor *t = &e->t[i];
        double line = t->path == MG_AM_TEX ? (double)dev->tex_l1.line
                    : t->path == MG_AM_BUF ? (double)p->line_bytes[MG_AM_BUF] : 0;
        e->l2_bytes += (double)sh[t->path].fetches[i] * line * warps;
    }
    if (dev->l2.bandwidth > 0) e->l2_cycles = e->l2_bytes / dev->l2.bandwidth * dev->clock_hz;
    for (int i = 0; i < e->ntensors; i++) {
        mg_am_tensor *t = &e->t[i];
        t->dram_amp = l2->distinct[i] ? (double)l2->fetches[i] / (double)l2->distinct[i] : 1;
        double bytes = t->path == MG_AM_TEX
            ? (double)h->images[t->obj].width * h->images[t->obj].height *
              h->images[t->obj].texel_bytes
            : t->path == MG_AM_BUF ? (double)h->buffers[t->obj].bytes : 0;
        e->dram_bytes += bytes * t->dram_amp;
    }
    if (dev->dram_bandwidth > 0)
        e->dram_cycles = e->dram_bytes / dev->dram_bandwidth * dev->clock_hz;
}

int mg_am_estimate(const mg_device *dev, mg_trace_source *src, mg_am_est *e, mg_diag *d)
{
    const mg_trace_header *h = src->hdr;
    memset(e, 0, sizeof *e);
    mg_am_params p;
    mg_am_params_init(&p, dev);
    wg_level(dev, h, e);
    if (check_launch(dev, h, e, d)) return -1;
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    mg_am_share sh[MG_AM_PATHS + 1];
    shares_init(dev, &p, e, sh);
    int barrier = 0, rc = fetch_wg(src, e->wgs, &wg, &e->sample_wg, d);
    if (rc == 0 && wg.n_warps == 0) {
        mg_diag_error(d, "%s: empty work group", h->kernel);
        rc = -1;
    }
    if (rc == 0) rc = mg_am_walk(dev, &p, h, &wg, 0, e, sh, &barrier, d);
    if (rc == 0) rc = floor_of(dev, &wg, e, d);
    if (rc == 0) traffic_level(dev, &p, h, &wg, sh, e);
    shares_free(sh);
    mg_trace_wg_free(&wg);
    if (rc) return -1;
    if (barrier && e->groups_per_wg > 1)
        return mg_diag_error(d, "%s: a work group of %u warps at %u registers per item cannot "
                             "be resident at once on %s (%u fit) and it has barriers "
                             "(CL_INVALID_WORK_GROUP_SIZE)", h->kernel, e->warps_per_wg,
                             e->regs_per_item, dev->name, e->occupancy), -1;
    warp_level(&p, e);
    e->tm_cycles = e->lw * (double)e->lg;
    e->bound_by_floor = e->floor_cycles > e->tm_cycles;
    e->cycles = e->bound_by_floor ? e->floor_cycles : e->tm_cycles;
    double traffic = e->l2_cycles > e->dram_cycles ? e->l2_cycles : e->dram_cycles;
    if (traffic > e->cycles) {
        e->bound_by_floor = 0;
        e->bound_by_traffic = 1;
        e->cycles = traffic;
    }
    e->seconds = e->cycles / dev->clock_hz + dev->launch_overhead_s;
    return 0;
}
