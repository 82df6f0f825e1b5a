/*
 * lru.c - least recently used: a per-way timestamp per set.
 */
#include "model/cache.h"

#include <stdint.h>

typedef struct lru_state {
    uint64_t clock;
    uint64_t stamp[];       /* sets x ways */
} lru_state;

static uint64_t lru_bytes(uint32_t sets, uint32_t ways)
{
    return sizeof(lru_state) + (uint64_t)sets * ways * sizeof(uint64_t);
}

static void lru_init(void *st, uint32_t sets, uint32_t ways, uint64_t seed)
{
    (void)st; (void)sets; (void)ways; (void)seed;   /* calloc'ed: all zero */
}

static void lru_touch(void *st, uint32_t set, uint32_t way, uint32_t ways)
{
    lru_state *s = st;
    s->stamp[(uint64_t)set * ways + way] = ++s->clock;
}

static uint32_t lru_victim(void *st, uint32_t set, uint32_t ways)
{
    lru_state *s = st;
    const uint64_t *p = s->stamp + (uint64_t)set * ways;
    uint32_t v = 0;
    for (uint32_t w = 1; w < ways; w++)
        if (p[w] < p[v]) v = w;
    return v;
}

const mg_repl_policy mg_repl_lru = {"lru", lru_bytes, lru_init, lru_touch, lru_touch, lru_victim};
