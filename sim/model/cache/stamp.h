/*
 * stamp.h - a time stamp per way, the state of the policies that evict the
 * way stamped longest ago: lru.c stamps a way on every use, fifo.c on its
 * fill.  Internal to sim/model/cache/.
 */
#ifndef MG_CACHE_STAMP_H
#define MG_CACHE_STAMP_H

#include <stdint.h>

typedef struct mg_stamps {
    uint64_t clock;           /* stamps given so far */
    uint64_t at[];            /* per way of each set: the clock at its stamp */
} mg_stamps;

/* state_bytes: the clock and a stamp per way. */
static inline uint64_t mg_stamps_bytes(uint32_t sets, uint32_t ways)
{
    return sizeof(mg_stamps) + (uint64_t)sets * ways * sizeof(uint64_t);
}

/* Stamp (set, way) with the next clock: it is now the newest. */
static inline void mg_stamps_set(void *st, uint32_t set, uint32_t way, uint32_t ways)
{
    mg_stamps *s = st;
    s->at[(uint64_t)set * ways + way] = ++s->clock;
}

/* The way of `set` stamped longest ago (stamps are distinct: no ties). */
static inline uint32_t mg_stamps_oldest(void *st, uint32_t set, uint32_t ways)
{
    const uint64_t *a = ((const mg_stamps *)st)->at + (uint64_t)set * ways;
    uint32_t v = 0;
    for (uint32_t w = 1; w < ways; w++)
        if (a[w] < a[v]) v = w;
    return v;
}

#endif
