/*
 * fills.h - the first-level caches' fills in flight (internal to
 * sim/model; core.track_fills, sim/MODEL.md "Memory").
 *
 * A cache (cache/cache.h) knows which lines it holds, not when their data
 * arrives: the line a miss allocates is a hit for the next access at once.
 * With core.track_fills, each SP's texture and buffer L1 keep, for the
 * lines their misses brought in, the cycle the data arrives, in a
 * direct-mapped table of MG_FILLS_SLOTS entries indexed by a hash of the
 * line id.  A line whose entry another line has taken since is taken as
 * arrived: the table forgets a fill, it never invents one.  A hit on a
 * line whose fill is still in flight completes with the fill and counts
 * as a miss in flight (core.max_misses_per_warp), as the H100 does
 * (configs/measured/h100/reuse-timings.json).
 */
#ifndef MG_FILLS_H
#define MG_FILLS_H
#include <stdint.h>

#define MG_FILLS_BITS  10
#define MG_FILLS_SLOTS (1u << MG_FILLS_BITS)

/* One entry: a line id and the cycle its data arrives (0: none). */
typedef struct mg_fill {
    uint64_t id;
    double   ready;
} mg_fill;

/* The entry line `id` maps to in table f (MG_FILLS_SLOTS entries). */
static inline mg_fill *mg_fills_slot(mg_fill *f, uint64_t id)
{
    return &f[(id * 0x9e3779b97f4a7c15ull) >> (64 - MG_FILLS_BITS)];
}

/* The cycle line id's data arrives, if the table still knows its fill;
 * else 0 (arrived). */
static inline double mg_fills_ready(mg_fill *f, uint64_t id)
{
    const mg_fill *e = mg_fills_slot(f, id);
    return e->id == id ? e->ready : 0.0;
}

/* Line id's fill arrives at cycle `ready`. */
static inline void mg_fills_put(mg_fill *f, uint64_t id, double ready)
{
    mg_fill *e = mg_fills_slot(f, id);
    e->id = id;
    e->ready = ready;
}

#endif
