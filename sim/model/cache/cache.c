/*
 * cache.c - the cache as specified (cache.h): look a line up in its set;
 * on a hit tell the policy; on a miss fill the set's first invalid way,
 * else the policy's victim, and tell the policy.  This is the reference
 * the fast paths (fast.h, fast.c) must match; an LRU cache takes those
 * instead of this file's accesses.
 */
#include "sim/model/cache/cache.h"

#include <stdlib.h>
#include <string.h>

/* c's sets, ways and the set index's fields (mg_cache_set). */
static void set_geometry(mg_cache *c, uint32_t sets, uint32_t ways)
{
    c->sets = sets ? sets : 1;
    c->ways = ways ? ways : 1;
    while (c->set_bits < 31 && c->sets % (2ull << c->set_bits) == 0) c->set_bits++;
    c->set_mask = (1u << c->set_bits) - 1;
    c->slices = c->sets >> c->set_bits;
    c->pow2 = c->slices == 1;
    c->hash_shift = c->set_bits ? 64 - c->set_bits : 63;
}

/* (cache.h) LRU of at most 65536 ways (uint16_t ways in the recency
 * lists) is kept by the fast paths; any other policy keeps state_bytes()
 * of state for its hooks. */
int mg_cache_init(mg_cache *c, uint32_t sets, uint32_t ways, const mg_repl_policy *pol,
                  uint64_t seed)
{
    memset(c, 0, sizeof *c);
    set_geometry(c, sets, ways);
    c->pol = pol;
    c->lru = pol == &mg_repl_lru && c->ways <= 65536;
    c->slot = calloc((size_t)c->sets * c->ways, sizeof *c->slot);
    c->fill = calloc(c->sets, sizeof *c->fill);
    int ok = c->slot && c->fill;
    if (ok && !c->lru) {
        uint64_t sb = pol->state_bytes(c->sets, c->ways);
        c->pstate = calloc(1, sb ? sb : 1);
        ok = c->pstate != NULL;
    }
    if (!ok || mg_cache_fast_init(c) != 0) {
        mg_cache_free(c);
        return -1;
    }
    if (c->pstate && pol->init) pol->init(c->pstate, c->sets, c->ways, seed);
    return 0;
}

void mg_cache_free(mg_cache *c)
{
    free(c->slot);
    free(c->link);
    free(c->fill);
    free(c->head);
    free(c->ord);
    free(c->index);
    free(c->fp);
    free(c->pstate);
    c->slot = NULL;
    c->link = NULL;
    c->fill = NULL;
    c->head = NULL;
    c->ord = NULL;
    c->index = NULL;
    c->fp = NULL;
    c->pstate = NULL;
}

/* (cache.h) */
int mg_cache_ref_access(mg_cache *c, uint64_t id)
{
    const mg_repl_policy *pol = c->pol;
    uint32_t set = mg_cache_set(c, id);
    uint32_t w = mg_cache_find(c, set, id);
    if (w < c->ways) {
        if (pol->touch) pol->touch(c->pstate, set, w, c->ways);
        c->hits++;
        return 1;
    }
    int full = c->fill[set] == c->ways;
    w = full ? pol->victim(c->pstate, set, c->ways) : c->fill[set]++;
    if (pol->fill) pol->fill(c->pstate, set, w, c->ways);
    mg_cache_put(c, set, w, id, full);
    c->misses++;
    return 0;
}

/* (cache.h) */
uint32_t mg_cache_ref_access_all(mg_cache *c, const uint64_t *ids, uint32_t n, uint32_t *miss)
{
    uint32_t nm = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!mg_cache_ref_access(c, ids[i])) miss[nm++] = i;
    return nm;
}
