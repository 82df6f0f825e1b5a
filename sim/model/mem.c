/*
 * mem.c - the memory path of the timing model: texture L1 (2D tiles),
 * buffer L1 (Mali) or the L1-less buffer path (Adreno), local and constant
 * memory, the shared L2 and DRAM, each with its latency and a bandwidth
 * pipe.  See sim/MODEL.md, "Memory".
 */
#include "model/sim_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_IDS (2 * MG_TRACE_MAX_LANES)

/* Remove repeated ids from v[0..n), keeping first occurrences in order (and
 * the matching entries of the parallel array w, when given).  A 512-slot
 * open-addressing table: O(n) for the <= 256 ids of one warp instruction. */
static uint32_t uniq2(uint64_t *v, uint64_t *w, uint32_t n)
{
    uint64_t key[512];
    uint16_t used[512];
    uint16_t stamp = 1;
    memset(used, 0, sizeof used);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t x = v[i];
        uint32_t h = (uint32_t)((x * 0x9e3779b97f4a7c15ull) >> 55);   /* 9 bits */
        while (used[h] == stamp && key[h] != x) h = (h + 1) & 511;
        if (used[h] == stamp) continue;                 /* seen */
        used[h] = stamp;
        key[h] = x;
        v[m] = x;
        if (w) w[m] = w[i];
        m++;
    }
    return m;
}

static uint32_t uniq(uint64_t *v, uint32_t n) { return uniq2(v, NULL, n); }

static double maxd(double a, double b) { return a > b ? a : b; }

/* The L2 and below for `n` line ids at L2 granularity, `bytes` moved to or
 * from the L2, requested at cycle t.  Returns the completion cycle. */
static double l2_path(mg_sim *s, uint64_t *ids, uint32_t n, double bytes, double t)
{
    const mg_device *dev = s->dev;
    mg_sim_stats *st = s->st;
    double start = mg_pipe_take(&s->l2bw, t, bytes);
    double done = start + bytes / s->l2bw.per_cycle + (double)dev->l2.latency_cycles;
    st->lv[MG_LV_L2].bytes += bytes;
    uint32_t misses = 0;
    for (uint32_t i = 0; i < n; i++) {
        st->lv[MG_LV_L2].accesses++;
        if (mg_cache_access(&s->l2, ids[i])) st->lv[MG_LV_L2].hits++;
        else { st->lv[MG_LV_L2].misses++; misses++; }
    }
    if (misses) {
        double db = (double)misses * (double)dev->l2.line;
        double ds = mg_pipe_take(&s->drambw, start + (double)dev->l2.latency_cycles, db);
        st->lv[MG_LV_DRAM].accesses += misses;
        st->lv[MG_LV_DRAM].bytes += db;
        done = maxd(done, ds + db / s->drambw.per_cycle + s->dram_latency);
    }
    return done;
}

/* An L1 (texture or buffer) lookup of n line ids, `bytes` delivered to the
 * lanes; misses go to the L2 (l2ids: the L2 line of each id).  Returns the
 * completion cycle. */
static double l1_path(mg_sim *s, int lv, mg_cache *c, mg_pipe *bw, const mg_cache_cfg *cfg,
                      uint64_t *ids, const uint64_t *l2ids, uint32_t n, double bytes, double t)
{
    mg_sim_stats *st = s->st;
    double start = mg_pipe_take(bw, t, bytes);
    double done = start + bytes / bw->per_cycle + (double)cfg->latency_cycles;
    st->lv[lv].bytes += bytes;
    uint64_t miss[MAX_IDS];
    uint32_t nm = 0;
    for (uint32_t i = 0; i < n; i++) {
        st->lv[lv].accesses++;
        if (mg_cache_access(c, ids[i])) st->lv[lv].hits++;
        else { st->lv[lv].misses++; miss[nm++] = l2ids[i]; }
    }
    if (nm) {
        double mb = (double)nm * (double)cfg->line;
        nm = uniq(miss, nm);
        done = maxd(done, l2_path(s, miss, nm, mb, start + (double)cfg->latency_cycles));
    }
    return done;
}

/* How texels of one image map to L1 tiles and L2 lines. */
typedef struct tex_map {
    int64_t  tw, th;        /* tile size in texels */
    uint64_t per;           /* tiles per L2 line, side by side in x */
    uint64_t img;           /* the image's id bits */
} tex_map;

static tex_map tex_map_of(const mg_sim *s, const mg_rec *r)
{
    const mg_device *dev = s->dev;
    const mg_trace_image *im = &s->hdr->images[r->obj];
    tex_map m;
    m.tw = dev->tile_w_texels * dev->tile_texel_bytes / (int64_t)im->texel_bytes;
    if (m.tw < 1) m.tw = 1;
    m.th = dev->tile_h_texels;
    m.per = (uint64_t)(dev->l2.line / dev->tex_l1.line);
    if (m.per < 1) m.per = 1;
    m.img = (uint64_t)(r->obj + 1) << 56;
    return m;
}

/* Texel (x, y) of lane l -> its L1 tile id, and its L2 line id. */
static inline void tex_ids(const tex_map *m, const mg_rec *r, unsigned l, uint64_t *l1,
                           uint64_t *l2)
{
    uint64_t tx = (uint64_t)(r->a[l] / m->tw), ty = (uint64_t)(r->b[l] / m->th);
    *l1 = m->img | (ty << 28) | tx;
    *l2 = m->img | (ty << 28) | (tx / m->per);
}

/* Buffer bytes [a, a+w) of object obj in `space` -> line ids of size line. */
static uint32_t buf_ids(uint64_t space, int64_t a, uint32_t w, int64_t line, uint64_t *ids)
{
    uint64_t first = (uint64_t)a / (uint64_t)line, last = (uint64_t)(a + w - 1) / (uint64_t)line;
    uint32_t n = 0;
    for (uint64_t x = first; x <= last && n < 4; x++) ids[n++] = space | x;
    return n;
}

double mg_mem_access(mg_sim *s, int sp, const mg_rec *r, double t)
{
    const mg_device *dev = s->dev;
    mg_sim_stats *st = s->st;
    mg_spi *p = &s->sps[sp];
    unsigned act = mg_rec_popcount(r);
    double bytes = (double)act * r->width;
    uint64_t ids[MAX_IDS], l2ids[MAX_IDS];
    uint32_t n = 0;
    st->lane_accesses += act;
    switch (r->type) {
    case MG_REC_TEX_READ: {
        tex_map m = tex_map_of(s, r);
        for (unsigned l = 0; l < r->lanes; l++)
            if (mg_rec_active(r, l)) { tex_ids(&m, r, l, &ids[n], &l2ids[n]); n++; }
        n = uniq2(ids, l2ids, n);        /* distinct tiles, each with its L2 line */
        return l1_path(s, MG_LV_TEX_L1, &p->tex_l1, &p->tex, &dev->tex_l1, ids, l2ids, n,
                       bytes, t);
    }
    case MG_REC_IMG_WRITE: {
        tex_map m = tex_map_of(s, r);
        for (unsigned l = 0; l < r->lanes; l++)
            if (mg_rec_active(r, l)) { uint64_t x; tex_ids(&m, r, l, &x, &ids[n]); n++; }
        n = uniq(ids, n);
        return l2_path(s, ids, n, bytes, t);       /* the texture L1 is read-only */
    }
    case MG_REC_BUF_LOAD:
    case MG_REC_BUF_STORE:
    case MG_REC_LOCAL_LOAD:
    case MG_REC_LOCAL_STORE: {
        int local = r->type == MG_REC_LOCAL_LOAD || r->type == MG_REC_LOCAL_STORE;
        int store = r->type == MG_REC_BUF_STORE || r->type == MG_REC_LOCAL_STORE;
        if (local && dev->local_kind == MG_LOCAL_ONCHIP) {
            double start = mg_pipe_take(&p->lmem, t, bytes);
            st->lv[MG_LV_LOCAL].accesses++;
            st->lv[MG_LV_LOCAL].bytes += bytes;
            return start + bytes / p->lmem.per_cycle + (double)dev->local_latency_cycles;
        }
        /* buffers; Mali's local memory is system memory on this path too */
        uint64_t space = local ? ((uint64_t)63 << 56 | (uint64_t)sp << 48)
                               : (uint64_t)(r->obj + 1) << 56;
        int via_l1 = dev->buffer_path == MG_BUF_VIA_L1;
        int64_t line = via_l1 ? dev->buf_l1.line : dev->l2.line;
        for (unsigned l = 0; l < r->lanes && n + 4 <= MAX_IDS; l++)
            if (mg_rec_active(r, l)) n += buf_ids(space, r->a[l], r->width, line, ids + n);
        n = uniq(ids, n);
        if (via_l1 && !store) {
            for (uint32_t i = 0; i < n; i++)
                l2ids[i] = space | ((ids[i] & 0xffffffffffffull) * (uint64_t)line /
                                    (uint64_t)dev->l2.line);
            return l1_path(s, MG_LV_BUF_L1, &p->buf_l1, &p->buf, &dev->buf_l1, ids, l2ids, n,
                           bytes, t);
        }
        if (via_l1) {      /* stores: through the L1's bandwidth, written to L2 */
            t = mg_pipe_take(&p->buf, t, bytes) + bytes / p->buf.per_cycle;
            st->lv[MG_LV_BUF_L1].bytes += bytes;
            for (uint32_t i = 0; i < n; i++)
                ids[i] = space | ((ids[i] & 0xffffffffffffull) * (uint64_t)line /
                                  (uint64_t)dev->l2.line);
            n = uniq(ids, n);
            return l2_path(s, ids, n, bytes, t);
        }
        return l2_path(s, ids, n, bytes, t + (double)dev->buffer_latency_cycles);
    }
    case MG_REC_CONST_LOAD: {
        double start = mg_pipe_take(&p->cmem, t, bytes);
        st->lv[MG_LV_CONST].accesses++;
        st->lv[MG_LV_CONST].bytes += bytes;
        return start + bytes / p->cmem.per_cycle + (double)dev->const_latency_cycles;
    }
    default:
        return t;
    }
}

static int cache_from_cfg(mg_cache *c, const mg_cache_cfg *cfg, uint64_t seed)
{
    const mg_repl_policy *pol = mg_repl_find(mg_repl_name(cfg->replacement));
    uint32_t sets = (uint32_t)(cfg->size / (cfg->line * cfg->assoc));
    return pol ? mg_cache_init(c, sets, (uint32_t)cfg->assoc, pol, seed) : -1;
}

int mg_mem_init(mg_sim *s)
{
    const mg_device *dev = s->dev;
    double clk = dev->clock_hz, nsp = (double)dev->sp_count;
    if (cache_from_cfg(&s->l2, &dev->l2, 7)) return -1;
    s->l2bw.per_cycle = dev->l2.bandwidth / clk;
    s->drambw.per_cycle = dev->dram_bandwidth / clk;
    s->dram_latency = dev->dram_latency_s * clk;
    for (int i = 0; i < dev->sp_count; i++) {
        mg_spi *p = &s->sps[i];
        if (cache_from_cfg(&p->tex_l1, &dev->tex_l1, 11 + (uint64_t)i)) return -1;
        p->tex.per_cycle = dev->tex_l1.bandwidth / clk / nsp;
        if (dev->buffer_path == MG_BUF_VIA_L1) {
            if (cache_from_cfg(&p->buf_l1, &dev->buf_l1, 13 + (uint64_t)i)) return -1;
            p->buf.per_cycle = dev->buf_l1.bandwidth / clk / nsp;
        }
        p->lmem.per_cycle = dev->local_kind == MG_LOCAL_ONCHIP
                                ? dev->local_bandwidth / clk / nsp : 1.0;
        p->cmem.per_cycle = dev->const_bandwidth / clk / nsp;
        p->alu.per_cycle = 1.0;        /* units are cycles (see sim.c) */
    }
    return 0;
}

void mg_mem_free(mg_sim *s)
{
    mg_cache_free(&s->l2);
    for (int i = 0; s->sps && i < s->dev->sp_count; i++) {
        mg_cache_free(&s->sps[i].tex_l1);
        mg_cache_free(&s->sps[i].buf_l1);
    }
}
