/*
 * mem.c - the memory path of the timing model: texture L1 (2D tiles),
 * buffer L1 (Mali) or the L1-less buffer path (Adreno), local and constant
 * memory, the shared L2 and DRAM, each with its latency and a bandwidth
 * pipe.  See sim/MODEL.md, "Memory".
 */
#include "sim/model/sim_internal.h"
#include "sim/model/texlayout.h"

#include <stdlib.h>
#include <string.h>

#define MAX_IDS (2 * MG_TRACE_MAX_LANES)

/* The path a memory record takes through the model (route_of). */
typedef enum mem_route {
    ROUTE_NONE,             /* not a memory record */
    ROUTE_TEX,              /* image read: texture L1, misses to the L2 */
    ROUTE_IMG_WRITE,        /* image write: the L2, a line at a time */
    ROUTE_LOCAL,            /* on-chip local memory */
    ROUTE_CONST,            /* constant memory */
    ROUTE_BUF_L1_LOAD,      /* buffer load through the buffer L1 (Mali) */
    ROUTE_BUF_L1_STORE,     /* buffer store: the L1's bandwidth, written through to the L2 */
    ROUTE_BUF_L2,           /* buffer access without an L1: the L2 (Adreno) */
} mem_route;

/* Remove repeated ids from v[0..n), keeping first occurrences in order (and
 * the matching entries of the parallel array w, when given).  Sorted ids
 * (the usual case) drop their adjacent repeats; otherwise a few ids are
 * compared with those kept, more go through an open-addressing table of at
 * least twice their number: O(n) for the <= 256 ids of one warp
 * instruction. */
static uint32_t uniq2(uint64_t *v, uint64_t *w, uint32_t n)
{
    uint32_t m = 0, k = 1;
    while (k < n && v[k] > v[k - 1]) k++;
    if (k >= n) return n;         /* strictly rising (the usual case): nothing repeats */
    while (k < n && v[k] >= v[k - 1]) k++;
    if (k >= n) {                 /* sorted (lanes in address order): repeats are adjacent */
        for (k = 0; k < n; k++) {
            if (m && v[k] == v[m - 1]) continue;
            v[m] = v[k];
            if (w) w[m] = w[k];
            m++;
        }
        return m;
    }
    if (n <= 8) {
        for (uint32_t i = 0; i < n; i++) {
            uint64_t x = v[i];
            uint32_t j = 0;
            while (j < m && v[j] != x) j++;
            if (j < m) continue;                        /* seen */
            v[m] = x;
            if (w) w[m] = w[i];
            m++;
        }
        return m;
    }
    uint64_t key[512];
    uint8_t used[512];
    int bits = 5;
    while ((1u << bits) < 2 * n) bits++;                /* n <= 256: bits <= 9 */
    uint32_t mask = (1u << bits) - 1;
    memset(used, 0, (size_t)mask + 1);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t x = v[i];
        uint32_t h = (uint32_t)((x * 0x9e3779b97f4a7c15ull) >> (64 - bits));
        while (used[h] && key[h] != x) h = (h + 1) & mask;
        if (used[h]) continue;                          /* seen */
        used[h] = 1;
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
 * from the L2, requested at cycle t.  With an image layout `lay` in blocks,
 * a miss fetches its whole block from DRAM (one request of the block's
 * lines, all filled into the L2).  Returns the completion cycle. */
static double l2_path(mg_sim *s, uint64_t *ids, uint32_t n, double bytes, double t,
                      const mg_texlayout *lay)
{
    const mg_device *dev = s->dev;
    mg_sim_stats *st = s->st;
    double start = mg_pipe_take(&s->l2bw, t, bytes);
    double done = start + bytes / s->l2bw.per_cycle + (double)dev->l2.latency_cycles;
    st->lv[MG_LV_L2].bytes += bytes;
    uint32_t misses = 0, fetched = 0;      /* missed lines; lines fetched from DRAM */
    if (!lay || !mg_texlayout_blocked(lay)) {
        uint32_t mi[MAX_IDS];
        misses = fetched = mg_cache_access_all(&s->l2, ids, n, mi);
    } else {
        for (uint32_t i = 0; i < n; i++) {
            if (mg_cache_access(&s->l2, ids[i])) continue;
            misses++;
            uint64_t blk[MG_TEXLAYOUT_MAX_LINES];
            uint32_t nb = mg_texlayout_block_lines(lay, ids[i], blk);
            for (uint32_t j = 0; j < nb; j++)
                if (blk[j] != ids[i]) mg_cache_access(&s->l2, blk[j]);   /* fill the block */
            fetched += nb;
        }
    }
    st->lv[MG_LV_L2].accesses += n;
    st->lv[MG_LV_L2].hits += n - misses;
    st->lv[MG_LV_L2].misses += misses;
    if (misses) {
        double db = (double)fetched * (double)dev->l2.line;
        double ds = mg_pipe_take(&s->drambw, start + (double)dev->l2.latency_cycles, db);
        st->lv[MG_LV_DRAM].accesses += misses;     /* one request per line or block */
        st->lv[MG_LV_DRAM].bytes += db;
        done = maxd(done, ds + db / s->drambw.per_cycle + s->dram_latency);
    }
    return done;
}

/* The hits among ids[0 .. n) (mi[0 .. nm): the misses, ascending) on
 * lines whose fill is still in flight at `done` (the hit's own
 * completion): returns done raised to the latest such fill, and marks the
 * access as a miss in flight (s->last_miss). */
static double pending_hits(mg_sim *s, mg_fill *fills, const uint64_t *ids, uint32_t n,
                           const uint32_t *mi, uint32_t nm, double done)
{
    double ready = done;
    for (uint32_t i = 0, k = 0; i < n; i++) {
        if (k < nm && mi[k] == i) {
            k++;
            continue;
        }
        double r = mg_fills_ready(fills, ids[i]);
        if (r > ready) ready = r;
    }
    if (ready > done) s->last_miss = 1;
    return ready;
}

/* An L1 (texture or buffer) lookup of n line ids, `bytes` delivered to the
 * lanes, holding the L1's pipe for `busy` bytes' time (>= bytes); misses go
 * to the L2 (l2ids: the L2 line of each id).  With fills (core.track_fills:
 * fills.h), a hit on a line whose fill is in flight completes with it and
 * counts as a miss (s->last_miss), and each miss records its fill.
 * Returns the completion cycle. */
static double l1_path(mg_sim *s, int lv, mg_cache *c, mg_pipe *bw, const mg_cache_cfg *cfg,
                      uint64_t *ids, const uint64_t *l2ids, uint32_t n, double bytes,
                      double busy, double t, const mg_texlayout *lay, mg_fill *fills)
{
    mg_sim_stats *st = s->st;
    double start = mg_pipe_take(bw, t, busy);
    double done = start + busy / bw->per_cycle + (double)cfg->latency_cycles;
    st->lv[lv].bytes += bytes;
    uint64_t miss[MAX_IDS];
    uint32_t mi[MAX_IDS], nm = mg_cache_access_all(c, ids, n, mi);
    if (fills) done = pending_hits(s, fills, ids, n, mi, nm, done);
    for (uint32_t i = 0; i < nm; i++) miss[i] = l2ids[mi[i]];
    st->lv[lv].accesses += n;
    st->lv[lv].hits += n - nm;
    st->lv[lv].misses += nm;
    s->last_miss |= nm > 0;
    if (nm) {
        double mb = (double)nm * (double)cfg->line;
        uint32_t nmu = uniq(miss, nm);
        done = maxd(done, l2_path(s, miss, nmu, mb, start + (double)cfg->latency_cycles, lay));
        if (fills)
            for (uint32_t i = 0; i < nm; i++) mg_fills_put(fills, ids[mi[i]], done);
    }
    return done;
}

/* How texels of record r's image map to L1 tiles, L2 lines and blocks
 * (each image's layout is made once, by mg_mem_init). */
static const mg_texlayout *tex_map_of(const mg_sim *s, const mg_rec *r)
{
    return &s->tex[r->obj < s->hdr->n_images ? r->obj : 0];
}

/* log2 of v when v is a power of two, else -1 (lines and blocks of a real
 * config are powers of two: their ids are then shifts, not divisions). */
static int log2_or_neg(int64_t v)
{
    return v > 0 && !(v & (v - 1)) ? __builtin_ctzll((uint64_t)v) : -1;
}

/* x / d for unsigned x, by a shift when sh = log2(d) >= 0. */
static inline uint64_t div_sh(uint64_t x, uint64_t d, int sh)
{
    return sh >= 0 ? x >> sh : x / d;
}

/* Buffer bytes [a, a+w) of object obj in `space` -> line ids of size line
 * (sh: log2_or_neg(line)). */
static uint32_t buf_ids(uint64_t space, int64_t a, uint32_t w, int64_t line, int sh,
                        uint64_t *ids)
{
    uint64_t first = div_sh((uint64_t)a, (uint64_t)line, sh);
    uint64_t last = div_sh((uint64_t)(a + w - 1), (uint64_t)line, sh);
    uint32_t n = 0;
    for (uint64_t x = first; x <= last && n < 4; x++) ids[n++] = space | x;
    return n;
}

/* The distinct `block`-byte aligned blocks the active lanes of buffer
 * record r touch (only the lanes mg_rec_distinct_lanes lists hold
 * addresses: see the cursor's distinct_only). */
static uint32_t lookup_blocks(const mg_rec *r, const uint8_t *ln, uint32_t nl, int64_t block)
{
    uint64_t b[MAX_IDS];
    uint32_t n = 0;
    int sh = log2_or_neg(block);
    for (uint32_t k = 0; k < nl && n + 4 <= MAX_IDS; k++)
        n += buf_ids(0, r->a[ln[k]], r->width, block, sh, b + n);
    return uniq(b, n);
}

/* The path a memory record of `type` takes on dev: the one decision
 * mg_mem_access follows and mg_mem_pipes charges. */
__attribute__((always_inline))
static inline mem_route route_of(const mg_device *dev, int type)
{
    switch (type) {
    case MG_REC_TEX_READ: return ROUTE_TEX;
    case MG_REC_IMG_WRITE: return ROUTE_IMG_WRITE;
    case MG_REC_CONST_LOAD:
        if (dev->const_path == MG_CONST_OWN) return ROUTE_CONST;
        return dev->buffer_path == MG_BUF_VIA_L1 ? ROUTE_BUF_L1_LOAD : ROUTE_BUF_L2;
    case MG_REC_BUF_LOAD:
    case MG_REC_BUF_STORE:
    case MG_REC_LOCAL_LOAD:
    case MG_REC_LOCAL_STORE:
        if (mg_rec_is_local(type) && dev->local_kind == MG_LOCAL_ONCHIP) return ROUTE_LOCAL;
        /* buffers; Mali's local memory is system memory on this path too */
        if (dev->buffer_path != MG_BUF_VIA_L1) return ROUTE_BUF_L2;
        return mg_rec_is_store(type) ? ROUTE_BUF_L1_STORE : ROUTE_BUF_L1_LOAD;
    default: return ROUTE_NONE;
    }
}

/* An access to a pipe with a fixed latency and no cache (on-chip local or
 * constant memory): `bytes` counted at level lv, holding pipe bw at cycle t
 * for `busy` bytes' time.  Returns the completion cycle. */
__attribute__((always_inline))
static inline double flat_path(mg_sim *s, int lv, mg_pipe *bw, double bytes, double busy,
                               double latency, double t)
{
    double start = mg_pipe_take(bw, t, busy);
    s->st->lv[lv].accesses++;
    s->st->lv[lv].bytes += bytes;
    return start + busy / bw->per_cycle + latency;
}

/* The bytes' time a local access of `bytes` holds the local pipe for.  The
 * pipe runs at the faster of local.bandwidth and local.broadcast_bandwidth
 * (mg_mem_pipe_rate); a read whose listed lanes ln[0 .. nl) touch at most
 * local.broadcast_bytes distinct bytes (distinct addresses x width) goes
 * at local.broadcast_bandwidth, any other access at local.bandwidth: its
 * bytes scaled by the ratio of the pipe's rate to its own. */
static double local_busy(const mg_device *dev, const mg_rec *r, const uint8_t *ln, uint32_t nl,
                         double bytes)
{
    double rate = dev->local_bandwidth;
    double fast = maxd(rate, dev->local_broadcast_bandwidth);
    if (dev->local_broadcast_bytes > 0 && r->type == MG_REC_LOCAL_LOAD) {
        uint64_t a[MAX_IDS];
        uint32_t n = 0;
        for (uint32_t k = 0; k < nl && n < MAX_IDS; k++) a[n++] = (uint64_t)r->a[ln[k]];
        n = uniq(a, n);
        if ((double)n * r->width <= (double)dev->local_broadcast_bytes)
            rate = dev->local_broadcast_bandwidth;
    }
    return rate >= fast ? bytes : bytes * (fast / rate);
}

/* For every lane l of r, into src[l], the lane whose coordinates it has: a
 * distinct_only cursor fills only mg_rec_distinct_lanes (traces/trace_rec.c):
 * with ROW_CONST a row of form_p lanes shares its first active lane's, with
 * ROWS_SAME a column (lane index mod form_p) its first active lane's. */
static void coord_lanes(const mg_rec *r, uint8_t *src)
{
    uint32_t p = r->form_p, n = r->lanes;
    for (uint32_t l = 0; l < n; l++) src[l] = (uint8_t)l;
    if (!p || !r->form) return;
    int row_const = (r->form & MG_FORM_ROW_CONST) != 0;
    int rows_same = (r->form & MG_FORM_ROWS_SAME) != 0;
    int16_t first[MG_TRACE_MAX_LANES];         /* per row or column: its first active lane */
    for (uint32_t i = 0; i < MG_TRACE_MAX_LANES; i++) first[i] = -1;
    for (uint32_t l = 0; l < n; l++) {
        if (!mg_rec_active(r, l)) continue;
        uint32_t k = row_const && rows_same ? 0 : row_const ? l / p : l % p;
        if (k >= MG_TRACE_MAX_LANES) k = MG_TRACE_MAX_LANES - 1;
        if (first[k] < 0) first[k] = (int16_t)l;
        src[l] = (uint8_t)first[k];
    }
}

/* The texture unit's steps for image read r (tex_l1.unit_group_bytes > 0):
 * its lanes in order, unit_group_bytes / texel bytes of them a group, each
 * group one step per distinct block of unit_block_bytes x unit_block_rows
 * texels its active lanes read (measured on the H100: the h100-texq suite,
 * sim/MODEL.md "Memory"). */
static uint32_t tex_unit_blocks(const mg_device *dev, const mg_rec *r)
{
    uint8_t src[MG_TRACE_MAX_LANES];
    coord_lanes(r, src);
    int64_t tb = r->width > 0 ? r->width : 1;
    uint32_t g = (uint32_t)(dev->tex_unit_group_bytes / tb);
    if (g < 1) g = 1;
    if (g > MG_TRACE_MAX_LANES) g = MG_TRACE_MAX_LANES;
    int64_t bw = dev->tex_unit_block_bytes, bh = dev->tex_unit_block_rows;
    uint32_t blocks = 0;
    for (uint32_t l0 = 0; l0 < r->lanes; l0 += g) {
        uint64_t key[MG_TRACE_MAX_LANES];
        uint32_t n = 0;
        for (uint32_t l = l0; l < l0 + g && l < r->lanes; l++) {
            if (!mg_rec_active(r, l)) continue;
            int64_t x = (int64_t)r->a[src[l]] * tb, y = r->b[src[l]];
            key[n++] = ((uint64_t)(uint32_t)(x >= 0 ? x / bw : -1 - (-1 - x) / bw) << 32) |
                       (uint32_t)(y >= 0 ? y / bh : -1 - (-1 - y) / bh);
        }
        blocks += uniq(key, n);      /* the group's distinct blocks */
    }
    return blocks;
}

/* The texture unit's part of image read r issued at t on SP p: the SP's
 * unit reads r's blocks (tex_unit_blocks); the issuing warp's next record
 * waits until the unit is done plus tex_l1.unit_issue_cycles
 * (s->issue_after), so one warp's reads follow each other at blocks +
 * unit_issue_cycles while several warps share the unit's blocks per
 * cycle.  Returns when the unit is done (the texture L1 lookup starts). */
static double tex_unit(mg_sim *s, mg_spi *p, const mg_rec *r, double t)
{
    double blocks = (double)tex_unit_blocks(s->dev, r);
    double end = mg_pipe_take(&p->texu, t, blocks) + blocks / p->texu.per_cycle;
    s->issue_after = end + (double)s->dev->tex_unit_issue_cycles;
    return end;
}

/* A texture read: the distinct L1 tiles of the listed lanes, each with its
 * L2 line, through the SP's texture L1.  With a texture unit
 * (tex_l1.unit_group_bytes > 0) the read first goes through it
 * (tex_unit), which then bounds the path's throughput in place of the
 * L1's byte pipe. */
__attribute__((always_inline))
static inline double tex_read(mg_sim *s, mg_spi *p, mg_part *q, const mg_rec *r,
                              const uint8_t *ln, uint32_t nl, double bytes, double t)
{
    uint64_t ids[MAX_IDS], l2ids[MAX_IDS];
    const mg_texlayout *m = tex_map_of(s, r);
    mg_pipe free_pipe = {.free_at = 0, .per_cycle = 1};
    mg_pipe *bw = &q->tex;
    double busy = bytes;
    if (s->dev->tex_unit_group_bytes > 0) {
        t = tex_unit(s, p, r, t);
        bw = &free_pipe;             /* the unit has charged the read */
        busy = 0;
    }
    uint32_t n = nl;
    if (!mg_texlayout_ids_n(m, r->a, r->b, ln, nl, ids, l2ids))
        n = uniq2(ids, l2ids, n);    /* distinct tiles, each with its L2 line */
    return l1_path(s, MG_LV_TEX_L1, &p->tex_l1, bw, &s->dev->tex_l1, ids, l2ids, n,
                   bytes, busy, t, m, p->tex_fills);
}

/* An image write: the texture L1 is read-only; writes go to the L2 a line
 * at a time. */
__attribute__((always_inline))
static inline double img_write(mg_sim *s, const mg_rec *r, const uint8_t *ln, uint32_t nl,
                               double bytes, double t)
{
    uint64_t ids[MAX_IDS];
    const mg_texlayout *m = tex_map_of(s, r);
    uint32_t n = 0;
    for (uint32_t k = 0; k < nl; k++, n++) {
        uint64_t x;
        mg_texlayout_ids(m, r->a[ln[k]], r->b[ln[k]], &x, &ids[n]);
    }
    n = uniq(ids, n);
    return l2_path(s, ids, n, bytes, t, NULL);
}

/* The distinct lines of size `line` (sh: log2_or_neg(line)) in id space
 * `space` that buffer record r's lanes touch, into ids; returns their
 * number.  act: r's active lanes; ln[0 .. nl): its distinct lanes. */
__attribute__((always_inline))
static inline uint32_t buf_lines(const mg_rec *r, const uint8_t *ln, uint32_t nl, unsigned act,
                                 uint64_t space, int64_t line, int sh, uint64_t *ids)
{
    uint32_t n = 0;
    if (act <= MAX_IDS / 4) {        /* the cap below cannot bind: distinct lanes */
        for (uint32_t k = 0; k < nl; k++)
            n += buf_ids(space, r->a[ln[k]], r->width, line, sh, ids + n);
    } else {
        for (unsigned l = 0; l < r->lanes && n + 4 <= MAX_IDS; l++)
            if (mg_rec_active(r, l))
                n += buf_ids(space, r->a[l], r->width, line, sh, ids + n);
    }
    return uniq(ids, n);
}

/* Every active lane's address of r into full[] (lane-indexed): a record
 * with form bits may carry only the addresses of the lanes
 * mg_rec_distinct_lanes() lists; coord_lanes() names the lane each other
 * lane repeats. */
static void lane_addrs(const mg_rec *r, int64_t *full)
{
    uint8_t src[MG_TRACE_MAX_LANES];
    coord_lanes(r, src);
    for (unsigned l = 0; l < r->lanes; l++)
        if (mg_rec_active(r, l)) full[l] = r->a[src[l]];
}

/* The sectors lanes [g, end) of r's addresses a touch, each once, counted
 * into per[] by bank, `times` over. */
static void bank_count(const mg_device *dev, const mg_rec *r, const int64_t *a, unsigned g,
                       unsigned end, uint32_t times, uint32_t *per)
{
    int ssh = __builtin_ctzll((unsigned long long)dev->l2_sector_bytes);
    int bsh = __builtin_ctzll((unsigned long long)dev->l2_bank_bytes) - ssh;
    uint64_t nb = (uint64_t)dev->l2_banks, bmask = (nb & (nb - 1)) ? 0 : nb - 1;
    uint64_t sec[64];
    uint32_t n = 0;
    for (unsigned l = g; l < end; l++) {
        if (!mg_rec_active(r, l)) continue;
        uint64_t x0 = (uint64_t)a[l] >> ssh, x1 = ((uint64_t)a[l] + r->width - 1) >> ssh;
        for (uint64_t x = x0; x <= x1 && n < 64; x++) {
            uint32_t k = 0;
            while (k < n && sec[k] != x) k++;
            if (k == n) sec[n++] = x;           /* a sector new to the request */
        }
    }
    for (uint32_t k = 0; k < n; k++) {
        uint64_t blk = sec[k] >> bsh;
        per[bmask ? blk & bmask : blk % nb] += times;
    }
}

/* The L2 banks' part of buffer record r's access at cycle t (l2.banks >
 * 0): its lanes in requests of l2.request_lanes consecutive lanes, each
 * moving the distinct l2.sector_bytes sectors its active lanes touch
 * through the bank of each sector (address / l2.bank_bytes mod banks, the
 * address within the buffer), one pipe per bank shared by every SP: so
 * lanes of one request that share a sector move it once, and requests
 * that read the same sectors queue on the same banks.  A record whose
 * rows of form_p lanes repeat row 0 (every lane active, rows a whole
 * number of requests) is counted through row 0, times the rows; one whose
 * lanes share one address, through one request.  Returns the cycle the
 * last bank is done with the access. */
static double bank_stage(mg_sim *s, const mg_rec *r, double t)
{
    const mg_device *dev = s->dev;
    uint32_t per[MG_MAX_L2_BANKS];               /* sectors per bank */
    uint64_t nb = (uint64_t)dev->l2_banks;
    unsigned rl = (unsigned)dev->l2_request_lanes, p = r->form_p;
    for (uint64_t b = 0; b < nb; b++) per[b] = 0;
    int full_mask = mg_rec_popcount(r) == r->lanes;
    if (full_mask && p && (r->form & MG_FORM_ROWS_SAME) && p % rl == 0 && r->lanes % p == 0) {
        if (r->form & MG_FORM_ROW_CONST)         /* every lane one address */
            bank_count(dev, r, r->a, 0, 1, r->lanes / rl, per);
        else
            for (unsigned g = 0; g < p; g += rl)
                bank_count(dev, r, r->a, g, g + rl, r->lanes / p, per);
    } else {
        int64_t full[MG_TRACE_MAX_LANES];
        const int64_t *a = r->a;
        if (p && r->form) {
            lane_addrs(r, full);
            a = full;
        }
        for (unsigned g = 0; g < r->lanes; g += rl)
            bank_count(dev, r, a, g, g + rl < r->lanes ? g + rl : r->lanes, 1, per);
    }
    double done = t, sb = (double)dev->l2_sector_bytes;
    for (uint64_t b = 0; b < nb; b++) {
        if (!per[b]) continue;
        double bytes = (double)per[b] * sb;
        double start = mg_pipe_take(&s->l2bank[b], t, bytes);
        done = maxd(done, start + bytes / s->l2bank[b].per_cycle);
    }
    return done;
}

/* The L2 line (in `space`) holding buffer-L1 line id of size `line`. */
static inline uint64_t l2_line_of(const mg_sim *s, uint64_t space, uint64_t id, int64_t line)
{
    return space | div_sh(mg_line_in_space(id) * (uint64_t)line, (uint64_t)s->dev->l2.line,
                          s->l2_line_sh);
}

/* A buffer (or system-memory local) access on SP sp by `route`: its lines
 * through the buffer L1 (loads; stores take the L1's bandwidth and are
 * written through to the L2) or straight to the L2. */
__attribute__((always_inline))
static inline double buf_access(mg_sim *s, int sp, mg_part *q, mem_route route,
                                const mg_rec *r, const uint8_t *ln, uint32_t nl, unsigned act,
                                double bytes, double t)
{
    const mg_device *dev = s->dev;
    mg_spi *p = &s->sps[sp];
    uint64_t ids[MAX_IDS], l2ids[MAX_IDS];
    uint64_t space = mg_rec_is_local(r->type) ? mg_line_space_local(sp)
                                              : mg_line_space_obj(r->obj);
    if (route == ROUTE_BUF_L2) {
        uint32_t n = buf_lines(r, ln, nl, act, space, dev->l2.line, s->l2_line_sh, ids);
        t += (double)dev->buffer_latency_cycles;
        double done = l2_path(s, ids, n, bytes, t, NULL);
        if (dev->l2_banks <= 0) return done;
        return maxd(done, bank_stage(s, r, t) + (double)dev->l2.latency_cycles);
    }
    int64_t line = dev->buf_l1.line;
    uint32_t n = buf_lines(r, ln, nl, act, space, line, s->buf_l1_line_sh, ids);
    if (route == ROUTE_BUF_L1_LOAD) {
        for (uint32_t i = 0; i < n; i++) l2ids[i] = l2_line_of(s, space, ids[i], line);
        /* one lookup_bytes block per cycle (NVIDIA: 128 B lines), in the
         * SP's one tag stage, which every partition shares, and
         * partition_lookup_cycles per block in the warp's partition
         * (with one partition and 1 cycle its pipe already charges the
         * stage's cycles, so the stage never binds) */
        double busy = bytes;
        if (dev->buf_l1_lookup_bytes > 0) {
            double blocks = (double)lookup_blocks(r, ln, nl, dev->buf_l1_lookup_bytes);
            busy = maxd(bytes, blocks * dev->buf_l1_partition_lookup_cycles * q->buf.per_cycle);
            t = mg_pipe_take(&p->lookup, t, blocks);
        }
        return l1_path(s, MG_LV_BUF_L1, &p->buf_l1, &q->buf, &dev->buf_l1, ids, l2ids, n,
                       bytes, busy, t, NULL, p->buf_fills);
    }
    /* stores: through the L1's bandwidth, written to L2 */
    t = mg_pipe_take(&q->buf, t, bytes) + bytes / q->buf.per_cycle;
    s->st->lv[MG_LV_BUF_L1].bytes += bytes;
    for (uint32_t i = 0; i < n; i++) ids[i] = l2_line_of(s, space, ids[i], line);
    n = uniq(ids, n);
    return l2_path(s, ids, n, bytes, t, NULL);
}

double mg_mem_access(mg_sim *s, int sp, uint32_t pi, const mg_rec *r, const uint8_t *ln,
                     uint32_t nl, double t)
{
    const mg_device *dev = s->dev;
    mg_spi *p = &s->sps[sp];
    mg_part *q = &p->part[pi];
    s->last_miss = 0;
    s->issue_after = 0;
    unsigned act = mg_rec_popcount(r);
    double bytes = (double)act * r->width;
    uint8_t own[MG_TRACE_MAX_LANES];         /* lanes whose addresses may be new */
    mem_route route = route_of(dev, r->type);
    if (!ln && route != ROUTE_CONST) {
        nl = mg_rec_distinct_lanes(r, own);
        ln = own;
    }
    s->st->lane_accesses += act;
    switch (route) {
    case ROUTE_TEX: return tex_read(s, p, q, r, ln, nl, bytes, t);
    case ROUTE_IMG_WRITE: return img_write(s, r, ln, nl, bytes, t);
    case ROUTE_LOCAL:
        return flat_path(s, MG_LV_LOCAL, &q->lmem, bytes, local_busy(dev, r, ln, nl, bytes),
                         (double)dev->local_latency_cycles, t);
    case ROUTE_CONST:
        return flat_path(s, MG_LV_CONST, &q->cmem, bytes, bytes,
                         (double)dev->const_latency_cycles, t);
    case ROUTE_BUF_L1_LOAD:
    case ROUTE_BUF_L1_STORE:
    case ROUTE_BUF_L2: return buf_access(s, sp, q, route, r, ln, nl, act, bytes, t);
    default: return t;
    }
}

int mg_mem_pipes(const mg_device *dev, int type, int pipes[2])
{
    /* every pipe mg_mem_access takes on the record's route, for at least
     * the bytes the lanes move (a split buffer load takes whole parts, a
     * buffer lookup at least its bytes) */
    switch (route_of(dev, type)) {
    case ROUTE_TEX: pipes[0] = MG_BP_TEX; return 1;
    case ROUTE_IMG_WRITE: pipes[0] = MG_BP_L2; return 1;
    case ROUTE_LOCAL: pipes[0] = MG_BP_LMEM; return 1;
    case ROUTE_CONST: pipes[0] = MG_BP_CMEM; return 1;
    case ROUTE_BUF_L1_LOAD: pipes[0] = MG_BP_BUF; return 1;
    case ROUTE_BUF_L1_STORE:                     /* written through */
        pipes[0] = MG_BP_BUF;
        pipes[1] = MG_BP_L2;
        return 2;
    case ROUTE_BUF_L2: pipes[0] = MG_BP_L2; return 1;
    default: return 0;
    }
}

double mg_mem_pipe_rate(const mg_device *dev, int p)
{
    double clk = dev->clock_hz, nsp = (double)dev->sp_count;
    switch (p) {       /* as mg_mem_init sets the pipes' per_cycle */
    case MG_BP_TEX: return mg_device_tex_bandwidth(dev) / clk / nsp;
    case MG_BP_BUF: return dev->buffer_path == MG_BUF_VIA_L1 ? dev->buf_l1.bandwidth / clk / nsp : 0;
    case MG_BP_LMEM:         /* the faster of the two local rates (local_busy) */
        return dev->local_kind == MG_LOCAL_ONCHIP
                   ? maxd(dev->local_bandwidth, dev->local_broadcast_bandwidth) / clk / nsp : 0;
    case MG_BP_CMEM: return dev->const_bandwidth / clk / nsp;
    case MG_BP_L2: return dev->l2.bandwidth / clk;
    default: return 0;
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
    double clk = dev->clock_hz;
    uint32_t ni = s->hdr->n_images;
    s->tex = calloc(ni ? ni : 1, sizeof *s->tex);
    if (!s->tex) return -1;
    for (uint32_t i = 0; i < ni; i++) {
        mg_texlayout_init(&s->tex[i], dev, s->hdr->images[i].texel_bytes, i);
        mg_texlayout_set_width(&s->tex[i], s->hdr->images[i].width);
    }
    s->l2_line_sh = log2_or_neg(dev->l2.line);
    s->buf_l1_line_sh = log2_or_neg(dev->buf_l1.line);
    if (cache_from_cfg(&s->l2, &dev->l2, 7)) return -1;
    s->l2bw.per_cycle = mg_mem_pipe_rate(dev, MG_BP_L2);
    s->drambw.per_cycle = dev->dram_bandwidth / clk;
    for (int64_t b = 0; b < dev->l2_banks && b < MG_MAX_L2_BANKS; b++)
        s->l2bank[b].per_cycle = dev->l2_bank_bandwidth / clk;
    s->dram_latency = dev->dram_latency_s * clk;
    for (int i = 0; i < dev->sp_count; i++) {
        mg_spi *p = &s->sps[i];
        if (cache_from_cfg(&p->tex_l1, &dev->tex_l1, 11 + (uint64_t)i)) return -1;
        if (dev->buffer_path == MG_BUF_VIA_L1 &&
            cache_from_cfg(&p->buf_l1, &dev->buf_l1, 13 + (uint64_t)i))
            return -1;
        if (dev->track_fills) {
            p->tex_fills = calloc(MG_FILLS_SLOTS, sizeof *p->tex_fills);
            p->buf_fills = calloc(MG_FILLS_SLOTS, sizeof *p->buf_fills);
            if (!p->tex_fills || !p->buf_fills) return -1;
        }
        p->lookup.per_cycle = 1.0;     /* lookup_bytes blocks per cycle */
        p->texu.per_cycle = dev->tex_unit_blocks_per_cycle > 0 ? dev->tex_unit_blocks_per_cycle
                                                                : 1.0;
        /* each partition: 1/partitions of the SP's first-level pipes */
        double share = 1.0 / (double)mg_sim_partitions(dev);
        for (int k = 0; k < MG_MAX_PARTITIONS; k++) {
            mg_part *q = &p->part[k];
            q->tex.per_cycle = mg_mem_pipe_rate(dev, MG_BP_TEX) * share;
            q->buf.per_cycle = dev->buffer_path == MG_BUF_VIA_L1
                                   ? mg_mem_pipe_rate(dev, MG_BP_BUF) * share : 0;
            q->lmem.per_cycle = dev->local_kind == MG_LOCAL_ONCHIP
                                    ? mg_mem_pipe_rate(dev, MG_BP_LMEM) * share : 1.0;
            q->cmem.per_cycle = mg_mem_pipe_rate(dev, MG_BP_CMEM) * share;
            q->alu.per_cycle = 1.0;    /* units are cycles (see sim.c) */
            q->salu.per_cycle = 1.0;
        }
    }
    return 0;
}

/* The L2 as an identical launch before this one left it: every line of
 * every image, then of every buffer, filled in address order (so where
 * the objects exceed the L2, the last-filled lines stay). */
void mg_mem_warm_l2(mg_sim *s)
{
    const mg_trace_header *h = s->hdr;
    for (uint32_t i = 0; i < h->n_images; i++) {
        const mg_texlayout *m = &s->tex[i];
        int64_t step = m->tw * (int64_t)m->per;
        for (int64_t y = 0; y < (int64_t)h->images[i].height; y += m->th)
            for (int64_t x = 0; x < (int64_t)h->images[i].width; x += step) {
                uint64_t l1, l2;
                mg_texlayout_ids(m, x, y, &l1, &l2);
                mg_cache_access(&s->l2, l2);
            }
    }
    uint64_t line = (uint64_t)s->dev->l2.line;
    for (uint32_t i = 0; i < h->n_buffers; i++) {
        uint64_t n = (h->buffers[i].bytes + line - 1) / line;
        for (uint64_t x = 0; x < n; x++) mg_cache_access(&s->l2, mg_line_space_obj(i) | x);
    }
}

void mg_mem_free(mg_sim *s)
{
    free(s->tex);
    s->tex = NULL;
    mg_cache_free(&s->l2);
    for (int i = 0; s->sps && i < s->dev->sp_count; i++) {
        mg_cache_free(&s->sps[i].tex_l1);
        mg_cache_free(&s->sps[i].buf_l1);
        free(s->sps[i].tex_fills);
        free(s->sps[i].buf_fills);
        s->sps[i].tex_fills = s->sps[i].buf_fills = NULL;
    }
}
