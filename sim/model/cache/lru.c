/*
 * lru.c - least recently used: the victim is the way whose line was hit
 * or filled longest ago.  Each way keeps the time of its last use, a
 * count of the set's hits and fills; the victim is the way of the oldest.
 *
 * This file is the specification of LRU.  A cache whose policy is
 * mg_repl_lru does not call these hooks: the fast paths (fast.h) keep
 * the same order in a word or a recency list per set, with the same
 * victims (tests/unit/test_cache.c replays these hooks beside them).
 */
#include "sim/model/cache/cache.h"

typedef struct lru_state {
    uint64_t clock;           /* uses so far */
    uint64_t used[];          /* per way of each set: the clock at its last use */
} lru_state;

static uint64_t lru_bytes(uint32_t sets, uint32_t ways)
{
    return sizeof(lru_state) + (uint64_t)sets * ways * sizeof(uint64_t);
}

/* A hit or a fill: way is now the most recently used. */
static void lru_use(void *st, uint32_t set, uint32_t way, uint32_t ways)
{
    lru_state *s = st;
    s->used[(uint64_t)set * ways + way] = ++s->clock;
}

/* The least recently used way (the uses are distinct: no ties). */
static uint32_t lru_victim(void *st, uint32_t set, uint32_t ways)
{
    const uint64_t *u = ((lru_state *)st)->used + (uint64_t)set * ways;
    uint32_t v = 0;
    for (uint32_t w = 1; w < ways; w++)
        if (u[w] < u[v]) v = w;
    return v;
}

const mg_repl_policy mg_repl_lru = {
    .name = "lru",
    .state_bytes = lru_bytes,
    .touch = lru_use,
    .fill = lru_use,
    .victim = lru_victim,
};
