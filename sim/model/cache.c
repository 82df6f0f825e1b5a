/*
 * cache.c - see cache.h.
 */
#include "model/cache.h"

#include <stdlib.h>
#include <string.h>

int mg_cache_init(mg_cache *c, uint32_t sets, uint32_t ways, const mg_repl_policy *pol,
                  uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->sets = sets ? sets : 1;
    c->ways = ways ? ways : 1;
    c->pol = pol;
    size_t n = (size_t)c->sets * c->ways;
    c->tags = calloc(n, sizeof *c->tags);
    c->valid = calloc(n, 1);
    uint64_t sb = pol->state_bytes(c->sets, c->ways);
    c->pstate = calloc(1, sb ? sb : 1);
    if (!c->tags || !c->valid || !c->pstate) {
        mg_cache_free(c);
        return -1;
    }
    pol->init(c->pstate, c->sets, c->ways, seed);
    return 0;
}

void mg_cache_free(mg_cache *c)
{
    free(c->tags);
    free(c->valid);
    free(c->pstate);
    c->tags = NULL;
    c->valid = NULL;
    c->pstate = NULL;
}

int mg_cache_access(mg_cache *c, uint64_t id)
{
    uint32_t set = mg_cache_set(c, id);
    uint64_t *t = c->tags + (size_t)set * c->ways;
    uint8_t *v = c->valid + (size_t)set * c->ways;
    uint32_t free_way = c->ways;
    for (uint32_t w = 0; w < c->ways; w++) {
        if (v[w] && t[w] == id) {
            c->pol->touch(c->pstate, set, w, c->ways);
            c->hits++;
            return 1;
        }
        if (!v[w] && free_way == c->ways) free_way = w;
    }
    uint32_t w = free_way < c->ways ? free_way : c->pol->victim(c->pstate, set, c->ways);
    t[w] = id;
    v[w] = 1;
    c->pol->fill(c->pstate, set, w, c->ways);
    c->misses++;
    return 0;
}
