/*
 * cache.c - see cache.h.
 */
#include "model/cache.h"
#include "model/policy/lru.h"

#include <stdlib.h>
#include <string.h>

int mg_cache_init(mg_cache *c, uint32_t sets, uint32_t ways, const mg_repl_policy *pol,
                  uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->sets = sets ? sets : 1;
    c->ways = ways ? ways : 1;
    c->set_mask = (c->sets & (c->sets - 1)) == 0 ? c->sets - 1 : 0;
    c->pol = pol;
    c->lru = pol == &mg_repl_lru;
    size_t n = (size_t)c->sets * c->ways;
    c->tags = calloc(n, sizeof *c->tags);
    c->fill = calloc(c->sets, sizeof *c->fill);
    uint64_t sb = pol->state_bytes(c->sets, c->ways);
    c->pstate = calloc(1, sb ? sb : 1);
    int ok = c->tags && c->fill && c->pstate;
    if (ok && c->ways >= MG_CACHE_INDEX_WAYS && n < ((size_t)1 << 30)) {
        size_t buckets = 16;
        int bits = 4;
        while (buckets < 2 * n) {           /* chains of about one slot */
            buckets *= 2;
            bits++;
        }
        c->index = calloc(buckets, sizeof *c->index);
        c->chain = calloc(n, sizeof *c->chain);
        c->index_mask = (uint32_t)(buckets - 1);
        c->index_shift = 64 - bits;
        ok = c->index && c->chain;
    }
    if (!ok) {
        mg_cache_free(c);
        return -1;
    }
    pol->init(c->pstate, c->sets, c->ways, seed);
    return 0;
}

void mg_cache_free(mg_cache *c)
{
    free(c->tags);
    free(c->fill);
    free(c->index);
    free(c->chain);
    free(c->pstate);
    c->tags = NULL;
    c->fill = NULL;
    c->index = NULL;
    c->chain = NULL;
    c->pstate = NULL;
}

/* ---- the index: a chained hash table over the slots ------------------------- */

static inline uint32_t home(const mg_cache *c, uint64_t id)
{
    return (uint32_t)((id * 0xff51afd7ed558ccdull) >> c->index_shift);
}

/* The slot + 1 holding id, 0 when none. */
static inline uint32_t index_find(const mg_cache *c, uint64_t id)
{
    uint32_t e = c->index[home(c, id)];
    while (e && c->tags[e - 1] != id) e = c->chain[e - 1];
    return e;
}

/* Unlink slot s (holding id) from its bucket's chain. */
static void index_remove(mg_cache *c, uint64_t id, uint32_t s)
{
    uint32_t *link = &c->index[home(c, id)];
    while (*link != s + 1) link = &c->chain[*link - 1];
    *link = c->chain[s];
}

/* Put slot s (now holding id) at the head of its bucket's chain. */
static inline void index_insert(mg_cache *c, uint64_t id, uint32_t s)
{
    uint32_t *head = &c->index[home(c, id)];
    c->chain[s] = *head;
    *head = s + 1;
}

/* The policy's hooks, LRU's inline. */
static inline void pol_touch(mg_cache *c, uint32_t set, uint32_t way)
{
    if (c->lru) mg_lru_touch(c->pstate, set, way, c->ways);
    else c->pol->touch(c->pstate, set, way, c->ways);
}

static inline void pol_fill(mg_cache *c, uint32_t set, uint32_t way)
{
    if (c->lru) mg_lru_touch(c->pstate, set, way, c->ways);
    else c->pol->fill(c->pstate, set, way, c->ways);
}

/* A miss in set `set`: the way to fill (the first invalid one, else the
 * policy's victim). */
static inline uint32_t fill_way(mg_cache *c, uint32_t set)
{
    if (c->fill[set] < c->ways) return c->fill[set]++;
    if (c->lru) return mg_lru_victim(c->pstate, set, c->ways);
    return c->pol->victim(c->pstate, set, c->ways);
}

int mg_cache_access(mg_cache *c, uint64_t id)
{
    uint32_t set = mg_cache_set(c, id);
    size_t base = (size_t)set * c->ways;
    uint64_t *t = c->tags + base;
    if (c->index) {
        uint32_t e = index_find(c, id);
        if (e) {
            pol_touch(c, set, (uint32_t)(e - 1 - base));
            c->hits++;
            return 1;
        }
        int full = c->fill[set] == c->ways;
        uint32_t w = fill_way(c, set);
        if (full) index_remove(c, t[w], (uint32_t)(base + w));
        t[w] = id;
        index_insert(c, id, (uint32_t)(base + w));
        pol_fill(c, set, w);
        c->misses++;
        return 0;
    }
    uint32_t n = c->fill[set];
    for (uint32_t w = 0; w < n; w++) {
        if (t[w] == id) {
            pol_touch(c, set, w);
            c->hits++;
            return 1;
        }
    }
    uint32_t w = fill_way(c, set);
    t[w] = id;
    pol_fill(c, set, w);
    c->misses++;
    return 0;
}
