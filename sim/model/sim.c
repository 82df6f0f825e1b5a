/*
 * sim.c - the timing model's event loop: work-group dispatch, occupancy
 * groups, warp issue, barriers.  See sim/MODEL.md.
 *
 * Events are warps, ordered by (ready cycle, creation sequence) in a binary
 * heap, so the replay is deterministic.  Popping a warp issues its next
 * record: ALU work waits for the warp's loads in flight, then occupies the
 * SP's ALU pipe; a load waits only for a free slot among the warp's
 * max_outstanding_per_warp; a store never blocks; a barrier parks the warp
 * until every warp of its work group arrives.
 */
#include "sim/model/sim_internal.h"
#include "sim/model/bound.h"
#include "sim/model/sample.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static double maxd(double a, double b) { return a > b ? a : b; }

/* ---- the event heap -------------------------------------------------------- */

/* The heap holds each warp's (ready, seq) by value, so ordering never
 * touches the (large) warp structs. */
static int before(const mg_event *a, const mg_event *b)
{
    return a->ready < b->ready || (a->ready == b->ready && a->seq < b->seq);
}

/* before(), computed without branches (bitwise, not short-circuit): which
 * child of a node is earlier is a coin toss to a branch predictor. */
static inline size_t before_nb(const mg_event *a, const mg_event *b)
{
    return (size_t)((a->ready < b->ready) | ((a->ready == b->ready) & (a->seq < b->seq)));
}

/* Put e at index i (a hole) or below it, the subtrees under i being heaps. */
static void sift_down(mg_sim *s, size_t i, mg_event e)
{
    mg_event *h = s->heap;
    size_t n = s->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c + 1 < n) c += before_nb(&h[c + 1], &h[c]);
        else if (c >= n) break;
        if (!before(&h[c], &e)) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = e;
}

/* While the top warp is being stepped (s->top_out) it stays in heap[0],
 * logically removed: a push of that warp replaces it and sifts down, a
 * push of another never rises into heap[0], and heap_settle() removes it
 * when it was not pushed back.  The heap's keys are unique, so the order
 * of pops is the same as with a pop and a push. */
static int heap_push(mg_sim *s, mg_warpi *w)
{
    mg_event e = {w->ready, w->seq, w, w->gen};
    if (s->top_out && s->heap[0].w == w) {
        s->top_out = 0;
        sift_down(s, 0, e);
        return 0;
    }
    if (s->nheap == s->capheap) {
        size_t cap = s->capheap ? 2 * s->capheap : 256;
        mg_event *h = realloc(s->heap, cap * sizeof *h);
        if (!h) return -1;
        s->heap = h;
        s->capheap = cap;
    }
    size_t i = s->nheap++, stop = s->top_out ? 1 : 0;
    while (i > stop && (i - 1) / 2 >= stop && before(&e, &s->heap[(i - 1) / 2])) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = e;
    return 0;
}

/* The earliest warp, left in heap[0] while it is stepped (top_out). */
static mg_warpi *heap_pop(mg_sim *s)
{
    s->top_out = 1;
    return s->heap[0].w;
}

/* After a step: remove the top warp if it was not pushed back. */
static void heap_settle(mg_sim *s)
{
    if (!s->top_out) return;
    s->top_out = 0;
    mg_event last = s->heap[--s->nheap];
    if (s->nheap) sift_down(s, 0, last);
}

/* ---- residency ------------------------------------------------------------- */

static void sp_account(mg_spi *p, double now)
{
    if (now > p->last_change) {
        p->warp_time += (double)p->warps * (now - p->last_change);
        if (p->wgs) p->busy_time += now - p->last_change;
    }
    p->last_change = now;
}

/* Would work group g fit on SP sp now? */
static int fits(const mg_sim *s, int sp, const mg_wgi *g)
{
    const mg_device *dev = s->dev;
    const mg_spi *p = &s->sps[sp];
    if (p->exclusive) return 0;
    if (g->n_groups > 1) return p->wgs == 0;
    if (p->warps + g->res_warps > (uint64_t)dev->max_warps_per_sp) return 0;
    if (p->items + g->res_items > (uint64_t)dev->max_items_per_sp) return 0;
    if (dev->max_wgs_per_sp > 0 && p->wgs >= (uint64_t)dev->max_wgs_per_sp) return 0;
    if (p->local + g->res_local > (uint64_t)dev->local_size && g->res_local) return 0;
    if (dev->reg_model == MG_REG_SHARED_POOL)
        return p->regs + g->res_regs <= (uint64_t)dev->pool_regs_per_sp;
    /* dedicated: the items allowed at this register count */
    return mg_occ_group_warps(s) * s->hdr->warp_width >= p->items + g->res_items ||
           p->wgs == 0;
}

static int start_group(mg_sim *s, mg_wgi *g, double t)
{
    uint32_t first = g->group * g->group_warps;
    uint32_t last = first + g->group_warps < g->n_warps ? first + g->group_warps : g->n_warps;
    g->active = last - first;
    g->at_barrier = 0;
    for (uint32_t i = first; i < last; i++) {
        mg_warpi *w = &g->warps[i];
        w->ready = t;
        if (heap_push(s, w)) return -1;
    }
    return 0;
}

static int dispatch(mg_sim *s, int sp, mg_wgi *g, double t)
{
    mg_spi *p = &s->sps[sp];
    sp_account(p, t);
    g->sp = sp;
    g->prev = NULL;
    g->next = s->live;
    if (s->live) s->live->prev = g;
    s->live = g;
    p->warps += g->res_warps;
    p->items += g->res_items;
    p->regs += g->res_regs;
    p->local += g->res_local;
    p->wgs++;
    p->exclusive = g->n_groups > 1;
    if (p->warps > s->st->resident_warps_max) s->st->resident_warps_max = p->warps;
    /* warps go to the SP's partitions in turn, as warp slots do */
    uint32_t parts = mg_sim_partitions(s->dev);
    for (uint32_t i = 0; i < g->n_warps; i++) g->warps[i].pi = p->next_part++ % parts;
    return start_group(s, g, t);
}

static void wg_free(mg_wgi *g)
{
    for (uint32_t i = 0; g->warps && i < g->warps_cap; i++) free(g->warps[i].rec);
    mg_trace_wg_free(&g->tw);
    free(g->warps);
    free(g);
}

/* Keep finished work group g for fetch() to reuse (s->spare, a list
 * through next): its trace's arrays, its warps and their record buffers
 * keep their capacity, so the next group neither grows them again nor
 * zeroes kilobytes of warp state per warp. */
static void wg_recycle(mg_sim *s, mg_wgi *g)
{
    g->next = s->spare;
    s->spare = g;
}

/* Make g->warps[0 .. n) fresh warps, as calloc'ed ones with a record
 * buffer each, reusing the ones g holds.  A warp's gen goes on counting
 * (never back to a value an event of its former work group carried).
 * Returns 0, -1 on OOM. */
static int warps_reset(mg_wgi *g, uint32_t n)
{
    if (n > g->warps_cap) {
        mg_warpi *a = realloc(g->warps, n * sizeof *a);
        if (!a) return -1;
        memset(a + g->warps_cap, 0, (n - g->warps_cap) * sizeof *a);
        g->warps = a;
        g->warps_cap = n;
    }
    for (uint32_t i = 0; i < n; i++) {
        mg_warpi *w = &g->warps[i];
        mg_rec *r = w->rec;
        uint32_t gen = w->gen + 1;
        memset(w, 0, offsetof(mg_warpi, loads));   /* (loads: only [0 .. nloads) is read) */
        w->gen = gen;
        w->rec = r ? r : malloc(sizeof *w->rec);
        if (!w->rec) return -1;
    }
    return 0;
}

/* Fetch the next work group from the source into an mg_wgi (a spare one
 * when there is one); NULL at the end of the trace or on error
 * (s->failed). */
static mg_wgi *fetch(mg_sim *s)
{
    if (s->src_done) return NULL;
    if (s->smp && mg_sample_fetch(s)) { s->failed = 1; return NULL; }
    mg_wgi *g = s->spare;
    if (g) {
        s->spare = g->next;
    } else {
        g = calloc(1, sizeof *g);
        if (!g) { s->failed = 1; return NULL; }
        mg_trace_wg_init(&g->tw);
    }
    g->tw.want_recs = 1;       /* in-memory producers skip encoding */
    int rc = s->src->next_wg(s->src->self, &g->tw, s->d);
    if (rc <= 0) {
        if (rc < 0) s->failed = 1;
        s->src_done = 1;
        wg_free(g);
        return NULL;
    }
    g->n_warps = g->tw.n_warps;
    if (warps_reset(g, g->n_warps ? g->n_warps : 1)) { s->failed = 1; wg_free(g); return NULL; }
    for (uint32_t i = 0; i < g->n_warps; i++) {
        mg_warpi *w = &g->warps[i];
        w->wg = g;
        w->index = i;
        w->seq = s->seq++;
        mg_trace_cursor_init(&w->cur, &g->tw, i);
        w->cur.distinct_only = 1;   /* mem.c reads only mg_rec_distinct_lanes() */
    }
    g->group = g->active = g->at_barrier = 0;
    g->barrier_max = 0;
    g->prev = g->next = NULL;
    uint32_t gw = mg_occ_group_warps(s);
    g->group_warps = gw < g->n_warps ? gw : g->n_warps;
    g->n_groups = g->group_warps ? (g->n_warps + g->group_warps - 1) / g->group_warps
                                 : 1;   /* no warp fits: check_launch() says so */
    g->res_warps = g->group_warps;
    g->res_items = g->group_warps * s->hdr->warp_width;
    if (g->res_items > s->items_per_wg) g->res_items = s->items_per_wg;
    g->res_regs = (uint64_t)g->group_warps * mg_occ_warp_regs(s, s->hdr->warp_width);
    g->res_local = s->hdr->local_bytes;
    s->st->work_groups++;
    s->st->warps += g->n_warps;
    if (g->n_groups > s->st->occupancy_groups) {
        s->st->occupancy_groups = g->n_groups;
        s->st->warps_per_group = g->group_warps;
    }
    return g;
}

/* Dispatch pending work groups onto SP sp while they fit. */
static int fill_sp(mg_sim *s, int sp, double t)
{
    for (;;) {
        if (!s->pending[0]) s->pending[0] = fetch(s);
        mg_wgi *g = s->pending[0];
        if (!g || !fits(s, sp, g)) return s->failed ? -1 : 0;
        s->pending[0] = NULL;
        if (dispatch(s, sp, g, t)) return -1;
    }
}

static int wg_done(mg_sim *s, mg_wgi *g, double t)
{
    mg_spi *p = &s->sps[g->sp];
    sp_account(p, t);
    p->warps -= g->res_warps;
    p->items -= g->res_items;
    p->regs -= g->res_regs;
    p->local -= g->res_local;
    p->wgs--;
    p->exclusive = 0;
    int sp = g->sp;
    if (g->prev) g->prev->next = g->next;
    else s->live = g->next;
    if (g->next) g->next->prev = g->prev;
    if (s->smp && mg_sample_done(s, g, t)) { wg_free(g); return -1; }
    wg_recycle(s, g);
    return fill_sp(s, sp, t);
}

/* ---- issuing one record ---------------------------------------------------- */

static double loads_done(const mg_warpi *w)
{
    double t = 0;
    for (uint32_t i = 0; i < w->nloads; i++) t = maxd(t, w->loads[i]);
    return t;
}

/* The cycle the loads an ALU record needs are in: every load of w in
 * flight but those of its `keep` newest load records (FORMAT.md 5.1; keep
 * 0: every load).  The loads it waits for then leave w's slots when it
 * issues (keep_loads). */
static double loads_needed(const mg_warpi *w, uint32_t keep)
{
    if (!keep) return loads_done(w);
    uint32_t cut = keep < w->lrec ? w->lrec - keep : 0;
    double t = 0;
    for (uint32_t i = 0; i < w->nloads; i++)
        if (w->lseq[i] < cut) t = maxd(t, w->loads[i]);
    return t;
}

/* Drop the loads an ALU record of `keep` > 0 waited for (loads_needed)
 * from w's slots, keeping the others. */
static void keep_loads(mg_warpi *w, uint32_t keep)
{
    uint32_t cut = keep < w->lrec ? w->lrec - keep : 0, n = 0;
    for (uint32_t i = 0; i < w->nloads; i++)
        if (w->lseq[i] >= cut) {
            w->loads[n] = w->loads[i];
            w->lmiss[n] = w->lmiss[i];
            w->lseq[n++] = w->lseq[i];
        }
    w->nloads = n;
}

/* ---- core.scheduler oldest: warps waiting for a busy pipe ------------------ */

/* Add w to k in age order.  Returns 1 when w is now the oldest (it takes
 * over the event of the one before, which goes stale), 0 otherwise, -1 on
 * OOM. */
static int park_add(mg_park *k, mg_warpi *w)
{
    if (k->n == k->cap) {
        uint32_t cap = k->cap ? 2 * k->cap : 16;
        mg_warpi **a = realloc(k->w, cap * sizeof *a);
        if (!a) return -1;
        k->w = a;
        k->cap = cap;
    }
    uint32_t i = k->n++;
    while (i > 0 && k->w[i - 1]->seq > w->seq) {
        k->w[i] = k->w[i - 1];
        i--;
    }
    k->w[i] = w;
    w->parked = 1;
    if (i == 0 && k->n > 1) k->w[1]->gen++;
    return i == 0;
}

/* Remove k's oldest warp (the one with the event). */
static void park_take_first(mg_park *k)
{
    k->w[0]->parked = 0;
    memmove(k->w, k->w + 1, (size_t)--k->n * sizeof *k->w);
}

/* Issue ALU record r at `now`, or return 1 after deferring the warp to
 * the cycle its loads arrive or (oldest scheduler, the oldest waiting
 * warp) the pipe frees, 2 after parking it off the heap behind an older
 * waiting warp, -1 on OOM (resources are only ever taken at the time of
 * the event being processed, so reservations happen in time order). */
static int issue_alu(mg_sim *s, mg_warpi *w, const mg_rec *r, double now)
{
    const mg_device *dev = s->dev;
    mg_sim_stats *st = s->st;
    mg_part *p = &s->sps[w->wg->sp].part[w->pi];
    uint32_t keep = dev->load_deps == MG_LOADS_TRACE ? r->keep : 0;
    double t0 = loads_needed(w, keep);
    if (t0 > now) {
        st->stall[MG_STALL_MEM] += t0 - now;
        w->ready = t0;
        return 1;
    }
    t0 = now;
    if (keep) keep_loads(w, keep);
    else w->nloads = 0;
    int scalar;
    /* the warp's partition has 1/partitions of the SP's rate */
    double cost = (double)mg_alu_units(dev, r, &scalar) * (double)mg_sim_partitions(dev) /
                  mg_alu_rate(dev, r->cls);
    mg_pipe *pipe = scalar ? &p->salu : &p->alu;
    /* core.scheduler oldest: a warp takes the pipe only once it is free,
     * and of the warps waiting then, the oldest: they wait in age order
     * (mg_park), the oldest with an event at the cycle the pipe frees, so
     * the event order (ready, then age) hands the pipe to the oldest of
     * them and of any warp ready at that very cycle.  round_robin: book the
     * next free slot now, so the waiting warps take turns. */
    mg_park *k = NULL;
    int promote = 0;
    if (dev->scheduler == MG_SCHED_OLDEST) {
        k = scalar ? &p->park_salu : &p->park_alu;
        if (pipe->free_at > t0) {
            w->ready = pipe->free_at;
            if (w->parked) return 1;            /* still the oldest waiting */
            w->park_t = t0;
            int first = park_add(k, w);
            return first < 0 ? -1 : first ? 1 : 2;
        }
        if (w->parked) {                        /* its wait is over */
            st->stall[MG_STALL_ALU] += t0 - w->park_t;
            park_take_first(k);
            promote = k->n > 0;
        }
    }
    double start = mg_pipe_take(pipe, t0, cost);
    st->stall[MG_STALL_ALU] += start - t0;
    if (promote) {                              /* the next oldest waits for the pipe */
        mg_warpi *x = k->w[0];
        x->ready = pipe->free_at;
        if (heap_push(s, x)) return -1;
    }
    if (!scalar) st->alu_busy += cost;
    unsigned act = mg_rec_popcount(r);
    st->flops += (double)act * r->n * r->vec * r->flops;
    st->alu_lane_ops[r->cls] += (double)act * r->n * r->vec;
    /* the record's dependent chain exposes dep latencies; independent
     * instructions overlap theirs with issue */
    double lat = (double)(r->dep ? r->dep : 1) * (double)dev->alu_latency_cycles;
    w->ready = start + (cost > lat ? cost : lat);
    return 0;
}

/* Bytes of one issued load of buffer load r (0: the whole access): at
 * most buffer.max_load_bytes, and with buffer.vload = elements one element
 * of the buffer's type where the trace gives it (MODEL.md, Memory). */
static int64_t load_part_bytes(const mg_sim *s, const mg_rec *r)
{
    int64_t mb = s->dev->buffer_max_load_bytes;
    if (s->dev->buffer_vload == MG_VLOAD_ELEMENTS && r->obj < s->hdr->n_buffers) {
        int64_t el = s->hdr->buffers[r->obj].elem;
        if (el > 0 && (mb == 0 || el < mb)) mb = el;
    }
    return mb;
}

/* core.max_misses_per_warp: with that many of w's first-level misses in
 * flight at `now`, defer w until the first of them returns and return 1;
 * else 0.  (Whether the next load misses is known only once it looks up
 * its cache, so any load waits: a warp that has missed that often streams.) */
static int wait_miss(mg_sim *s, mg_warpi *w, double now)
{
    uint32_t n = 0;
    double first = INFINITY;
    for (uint32_t i = 0; i < w->nloads; i++)
        if (w->lmiss[i] && w->loads[i] > now) {
            n++;
            if (w->loads[i] < first) first = w->loads[i];
        }
    if (n < (uint32_t)s->dev->max_misses_per_warp) return 0;
    s->st->stall[MG_STALL_MEM] += first - now;
    w->ready = first;
    return 1;
}

/* Issue memory record r at `now`, or return 1 after deferring the warp
 * until one of its load slots frees. */
static int issue_mem(mg_sim *s, mg_warpi *w, const mg_rec *r, double now)
{
    uint32_t mlp = (uint32_t)s->dev->max_outstanding_per_warp;
    if (mlp > 64) mlp = 64;
    double t0 = now;
    int load = !mg_rec_is_store(r->type) && r->type != MG_REC_IMG_WRITE;
    if (load && s->dev->max_misses_per_warp > 0 && wait_miss(s, w, now)) return 1;
    if (load && w->nloads >= mlp) {           /* wait for the oldest slot */
        uint32_t k = 0;
        for (uint32_t i = 1; i < w->nloads; i++)
            if (w->loads[i] < w->loads[k]) k = i;
        if (w->loads[k] > now) {
            s->st->stall[MG_STALL_MEM] += w->loads[k] - now;
            w->ready = w->loads[k];
            return 1;
        }
        w->loads[k] = w->loads[--w->nloads];
        w->lmiss[k] = w->lmiss[w->nloads];
        w->lseq[k] = w->lseq[w->nloads];
    }
    /* a buffer load wider than one issued load is several loads, each
     * taking a slot: issue part w->part now, the next one as a deferred step */
    int64_t mb = r->type == MG_REC_BUF_LOAD ? load_part_bytes(s, r) : 0;
    uint32_t parts = mb > 0 && r->width > (uint64_t)mb
                         ? (uint32_t)((r->width + (uint64_t)mb - 1) / (uint64_t)mb) : 1;
    mg_rec *m = w->rec;                  /* == r; the warp's own copy */
    uint32_t width = m->width;
    int64_t off = (int64_t)w->part * mb;
    if (parts > 1) {
        m->width = (uint32_t)mb;
        for (unsigned l = 0; l < m->lanes; l++) m->a[l] += off;
    }
    double done = mg_mem_access(s, w->wg->sp, w->pi, m, w->cur.ln, w->cur.nln, t0);
    if (parts > 1) {
        m->width = width;
        for (unsigned l = 0; l < m->lanes; l++) m->a[l] -= off;
    }
    if (load) {
        w->lmiss[w->nloads] = (uint8_t)s->last_miss;
        w->lseq[w->nloads] = w->lrec;
        w->loads[w->nloads++] = done;
    }
    if (done > s->now) s->now = maxd(s->now, done);    /* the launch ends after it */
    w->ready = maxd(t0 + 1.0, s->issue_after);   /* a texture read may hold the warp */
    if (parts > 1 && ++w->part < parts) return 1;     /* more parts: same record */
    w->part = 0;
    if (load) w->lrec++;
    return 0;
}

/* Warp w reached a barrier at cycle t. */
static int barrier(mg_sim *s, mg_warpi *w, double t)
{
    mg_wgi *g = w->wg;
    t = maxd(t, loads_done(w));
    w->nloads = 0;
    w->at_barrier = 1;
    w->ready = t;
    g->at_barrier++;
    g->barrier_max = maxd(g->barrier_max, t);
    if (g->at_barrier < g->active) return 0;
    for (uint32_t i = 0; i < g->n_warps; i++) {
        mg_warpi *x = &g->warps[i];
        if (!x->at_barrier) continue;
        s->st->stall[MG_STALL_BARRIER] += g->barrier_max - x->ready;
        x->at_barrier = 0;
        x->ready = g->barrier_max + 1.0;
        if (heap_push(s, x)) return -1;
    }
    g->at_barrier = 0;
    g->barrier_max = 0;
    return 0;
}

static int warp_end(mg_sim *s, mg_warpi *w, double now)
{
    mg_wgi *g = w->wg;
    double t = maxd(now, loads_done(w));
    w->done = 1;
    if (t > s->now) s->now = t;
    if (--g->active > 0) return 0;
    if (++g->group < g->n_groups) return start_group(s, g, t);
    return wg_done(s, g, t);
}

static int step(mg_sim *s, mg_warpi *w)
{
    double now = w->ready;
    mg_rec *r = w->rec;
    if (!w->has_rec) {
        int rc = mg_trace_cursor_next(&w->cur, r, s->d);
        if (rc < 0) return -1;
        if (rc == 0) return warp_end(s, w, now);
        w->has_rec = 1;
    }
    int deferred;
    switch (r->type) {
    case MG_REC_ALU:
        deferred = issue_alu(s, w, r, now);
        if (deferred < 0) { s->failed = 1; return -1; }
        if (deferred == 2) return 0;            /* parked off the heap */
        break;
    case MG_REC_BARRIER:
        w->has_rec = 0;
        s->st->warp_instrs++;
        s->st->records[r->type]++;
        return barrier(s, w, now);
    default: deferred = issue_mem(s, w, r, now); break;
    }
    if (!deferred) {
        w->has_rec = 0;
        s->st->warp_instrs++;
        s->st->records[r->type]++;
    }
    if (w->ready > s->now) s->now = w->ready;
    return heap_push(s, w);
}

/* ---- the run ----------------------------------------------------------------- */

static int check_launch(mg_sim *s, const mg_sim_opts *opts)
{
    const mg_trace_header *h = s->hdr;
    const mg_device *dev = s->dev;
    if (!opts->spill && dev->max_regs_per_item > 0 &&
        (int64_t)h->regs_per_item > dev->max_regs_per_item) {
        mg_diag_error(s->d, "%s: %u registers per item exceed %s's registers."
                      "max_regs_per_item %lld (CL_OUT_OF_RESOURCES)", h->kernel,
                      h->regs_per_item, dev->name, (long long)dev->max_regs_per_item);
        return -1;
    }
    uint32_t gw = mg_occ_group_warps(s);
    if (gw == 0) {
        mg_diag_error(s->d, "%s: one warp of %u lanes at %u registers per item does not fit "
                      "the registers of a core of %s", h->kernel, h->warp_width,
                      s->regs_per_item, dev->name);
        return -1;
    }
    if (s->items_per_wg > (uint32_t)dev->max_workgroup_size) {
        mg_diag_error(s->d, "%s: work group of %u items exceeds %s's max_workgroup_size %lld "
                      "(CL_INVALID_WORK_GROUP_SIZE)", h->kernel, s->items_per_wg, dev->name,
                      (long long)dev->max_workgroup_size);
        return -1;
    }
    if (h->local_bytes > (uint64_t)dev->local_size) {
        mg_diag_error(s->d, "%s: %u bytes of local memory per work group exceed %s's %lld "
                      "(CL_OUT_OF_RESOURCES)", h->kernel, h->local_bytes, dev->name,
                      (long long)dev->local_size);
        return -1;
    }
    if (s->has_barriers && gw < s->warps_per_wg) {
        mg_diag_error(s->d, "%s: a work group of %u items at %u registers per item cannot be "
                      "resident at once on %s (%u of %u warps fit) and it has barriers "
                      "(CL_INVALID_WORK_GROUP_SIZE)", h->kernel, s->items_per_wg,
                      s->regs_per_item, dev->name, gw, s->warps_per_wg);
        return -1;
    }
    return 0;
}

/* The launch passed opts->cycle_limit (by_bound: its trace's lower bound
 * did, before any replay): the stats say cut and hold the limit. */
static void cut_at_limit(mg_sim_stats *st, const mg_sim_opts *opts, const mg_device *dev,
                         int by_bound)
{
    st->cut = 1;
    st->cut_by_bound = by_bound;
    st->cycles = opts->cycle_limit;
    st->seconds = st->cycles / dev->clock_hz;
}

/* Does the first work group of the trace contain a barrier?  (Generated
 * kernels are uniform: every group runs the same code.) */
static int scan_barriers(mg_sim *s, mg_wgi *g)
{
    static _Thread_local mg_rec r;
    mg_trace_cursor c;
    mg_trace_cursor_init(&c, &g->tw, 0);
    int rc;
    while ((rc = mg_trace_cursor_next(&c, &r, s->d)) == 1)
        if (r.type == MG_REC_BARRIER) return 1;
    if (rc < 0) s->failed = 1;
    return 0;
}

/* Setup: s holds the launch's device, trace and stats (st zeroed).  Checks
 * the trace's warp width; returns 0, or -1 with a diagnostic (nothing is
 * allocated yet). */
static int sim_init(mg_sim *s, const mg_device *dev, mg_trace_source *src, mg_sim_stats *st,
                    mg_diag *d, mg_wgi **pending)
{
    memset(s, 0, sizeof *s);
    memset(st, 0, sizeof *st);
    s->dev = dev;
    s->hdr = src->hdr;
    s->src = src;
    s->st = st;
    s->d = d;
    s->pending = pending;
    const mg_trace_header *h = src->hdr;
    if (h->warp_width == 0 || h->warp_width > MG_TRACE_MAX_LANES) {
        mg_diag_error(d, "%s: trace warp width %u", h->kernel, h->warp_width);
        return -1;
    }
    uint64_t g = (uint64_t)dev->reg_granule;
    s->regs_per_item = (uint32_t)((h->regs_per_item + g - 1) / g * g);
    if (s->regs_per_item == 0) s->regs_per_item = (uint32_t)g;
    s->items_per_wg = h->local[0] * h->local[1] * h->local[2];
    s->warps_per_wg = mg_trace_warps_per_wg(h);
    return 0;
}

/* Setup: the SPs and the memory path, the first work group fetched into
 * s->pending[0], the launch checked against the device, the sampler.
 * Returns 0, -1 on error (diagnosed, or left to sim_release). */
static int sim_setup(mg_sim *s, const mg_sim_opts *opts)
{
    const mg_trace_header *h = s->hdr;
    s->sps = calloc((size_t)s->dev->sp_count, sizeof *s->sps);
    if (!s->sps || mg_mem_init(s)) {
        mg_diag_error(s->d, "%s: out of memory setting up the caches", h->kernel);
        return -1;
    }
    if (opts->warm_l2) mg_mem_warm_l2(s);
    s->pending[0] = fetch(s);
    if (!s->pending[0]) {
        if (!s->failed) mg_diag_error(s->d, "%s: the trace has no work group", h->kernel);
        return -1;
    }
    s->has_barriers = scan_barriers(s, s->pending[0]);
    if (s->failed || check_launch(s, opts) || mg_sample_init(s, opts)) return -1;
    return 0;
}

/* The cycle limit in replay cycles (the launch overhead is added last);
 * 0: none. */
static double replay_limit(const mg_device *dev, const mg_sim_opts *opts)
{
    return opts && opts->cycle_limit > 0
               ? opts->cycle_limit - dev->launch_overhead_s * dev->clock_hz : 0;
}

/* Before any replay: is the launch over the limit by its trace alone?
 * Returns 1 after cutting the stats at the limit, 0 when the replay must
 * run, -1 on error. */
static int sim_cut_by_bound(mg_sim *s, const mg_sim_opts *opts, double limit)
{
    if (!(limit > 0 && !opts->no_bound)) return 0;
    int over = mg_bound_over(s, limit);
    if (over <= 0) return over;
    cut_at_limit(s->st, opts, s->dev, 1);
    return 1;
}

/* Dispatch: one work group per SP in turn, while any fits, at cycle 0.
 * Returns 0, -1 on error. */
static int sim_dispatch_initial(mg_sim *s)
{
    for (int progress = 1; progress && !s->failed;) {
        progress = 0;
        for (int sp = 0; sp < s->dev->sp_count; sp++) {
            if (!s->pending[0]) s->pending[0] = fetch(s);
            mg_wgi *x = s->pending[0];
            if (!x || !fits(s, sp, x)) continue;
            s->pending[0] = NULL;
            if (dispatch(s, sp, x, 0.0)) return -1;
            progress = 1;
        }
    }
    return 0;
}

/* The event loop: step the earliest warp until none is left (stale
 * events are dropped).  Returns 0 when the heap ran empty (s->failed may
 * be set), 1 after cutting the stats at `limit` (> 0) once the launch
 * passed it, -1 on error. */
static int sim_event_loop(mg_sim *s, const mg_sim_opts *opts, double limit)
{
    while (s->nheap && !s->failed) {
        mg_warpi *w = heap_pop(s);
        if (limit > 0 && s->now > limit) {          /* passed the bar: stop here */
            cut_at_limit(s->st, opts, s->dev, 0);
            return 1;
        }
        /* the next warp to step is the earlier child of the top (or w
         * again): fetch both children's warps while w is stepped (with
         * hundreds of warps, their state is rarely in cache) */
        if (s->nheap > 2) {
            __builtin_prefetch(s->heap[1].w);
            __builtin_prefetch((const char *)s->heap[1].w + 64);
            __builtin_prefetch(s->heap[2].w);
            __builtin_prefetch((const char *)s->heap[2].w + 64);
        }
        if (s->heap[0].gen == w->gen && step(s, w)) return -1;   /* else stale */
        heap_settle(s);
    }
    return 0;
}

/* Statistics: after a complete replay, the cycles, each SP's residency and
 * idle time, the sampler's estimate and the launch overhead.  Returns 0,
 * -1 when the replay failed or left work groups undispatched. */
static int sim_statistics(mg_sim *s)
{
    const mg_device *dev = s->dev;
    mg_sim_stats *st = s->st;
    if (s->failed) return -1;
    if (s->pending[0] || !s->src_done) {
        mg_diag_error(s->d, "%s: internal: work groups left undispatched", s->hdr->kernel);
        return -1;
    }
    st->cycles = s->now;
    st->seconds = s->now / dev->clock_hz;
    double busy = 0, warp_time = 0;
    for (int i = 0; i < dev->sp_count; i++) {
        sp_account(&s->sps[i], s->now);
        busy += s->sps[i].busy_time;
        warp_time += s->sps[i].warp_time;
        st->stall[MG_STALL_IDLE] += s->now - s->sps[i].busy_time;
    }
    st->resident_warps_mean = busy > 0 ? warp_time / busy : 0;
    st->fp16_dominant = st->alu_lane_ops[MG_ALU_FP16] > st->alu_lane_ops[MG_ALU_FP32];
    if (s->smp) mg_sample_finish(s);
    /* a launch's fixed cost (core.launch_overhead): timed, but no work */
    st->cycles += dev->launch_overhead_s * dev->clock_hz;
    st->seconds = st->cycles / dev->clock_hz;
    return 0;
}

/* Release: everything s holds (work groups pending, spare and still
 * resident after an error or a cut, the heap, the SPs, the sampler, the
 * memory path).  rc != 0 without a diagnostic yet gets a generic one. */
static void sim_release(mg_sim *s, int rc)
{
    if (rc && !mg_diag_failed(s->d)) mg_diag_error(s->d, "%s: simulation failed", s->hdr->kernel);
    if (s->pending[0]) wg_free(s->pending[0]);
    while (s->spare) {
        mg_wgi *x = s->spare;
        s->spare = x->next;
        wg_free(x);
    }
    while (s->live) {
        mg_wgi *x = s->live;
        s->live = x->next;
        wg_free(x);
    }
    free(s->heap);
    for (int i = 0; s->sps && i < s->dev->sp_count; i++)
        for (int k = 0; k < MG_MAX_PARTITIONS; k++) {
            free(s->sps[i].part[k].park_alu.w);
            free(s->sps[i].part[k].park_salu.w);
        }
    mg_sample_free(s);
    mg_mem_free(s);
    free(s->sps);
}

/* The phases in order; a phase that returns 1 (a cut at the cycle limit)
 * ends the run successfully with the stats it set. */
int mg_sim_run(const mg_device *dev, mg_trace_source *src, const mg_sim_opts *opts,
               mg_sim_stats *st, mg_diag *d)
{
    mg_sim s;
    mg_wgi *pend = NULL;      /* s.pending: the next work group to dispatch */
    if (sim_init(&s, dev, src, st, d, &pend)) return -1;
    double limit = replay_limit(dev, opts);
    int rc = sim_setup(&s, opts);
    if (!rc) rc = sim_cut_by_bound(&s, opts, limit);
    if (!rc) rc = sim_dispatch_initial(&s);
    if (!rc) rc = sim_event_loop(&s, opts, limit);
    if (!rc) rc = sim_statistics(&s);
    if (rc > 0) rc = 0;
    sim_release(&s, rc);
    return rc;
}
