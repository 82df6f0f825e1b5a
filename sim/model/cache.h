/*
 * cache.h - a set-associative cache with a pluggable replacement policy
 * (internal to sim/model).
 *
 * Tags are opaque 64-bit line ids (the memory path turns buffer addresses
 * and 2D texel tiles into ids).  The replacement policy is a struct of
 * hooks, one file per policy in policy/, found by name in policy.c; the
 * cache itself only keeps tags and valid bits.
 */
#ifndef MG_CACHE_H
#define MG_CACHE_H

#include <stdint.h>

typedef struct mg_cache mg_cache;

/* Replacement policy hooks.  `state` is per-cache policy state sized by
 * state_bytes(sets, ways); hooks get the set index and way. */
typedef struct mg_repl_policy {
    const char *name;
    uint64_t (*state_bytes)(uint32_t sets, uint32_t ways);
    void (*init)(void *state, uint32_t sets, uint32_t ways, uint64_t seed);
    void (*touch)(void *state, uint32_t set, uint32_t way, uint32_t ways);   /* hit */
    void (*fill)(void *state, uint32_t set, uint32_t way, uint32_t ways);    /* new line */
    uint32_t (*victim)(void *state, uint32_t set, uint32_t ways);            /* all valid */
} mg_repl_policy;

/* The policy registry (policy.c): lookup by name ("lru", "fifo", ...). */
const mg_repl_policy *mg_repl_find(const char *name);

struct mg_cache {
    uint32_t sets, ways;
    uint64_t *tags;           /* sets x ways */
    uint8_t  *valid;
    const mg_repl_policy *pol;
    void     *pstate;
    uint64_t hits, misses;
};

/* Returns 0, or -1 when memory is short. */
int  mg_cache_init(mg_cache *c, uint32_t sets, uint32_t ways, const mg_repl_policy *pol,
                   uint64_t seed);
void mg_cache_free(mg_cache *c);

/* Look up line `id`; on a miss, fill it (evicting per the policy).
 * Returns 1 on a hit, 0 on a miss.  Counts hits and misses. */
int  mg_cache_access(mg_cache *c, uint64_t id);

/* The set of a line id (a mixed hash, so 2D tile ids spread over sets). */
static inline uint32_t mg_cache_set(const mg_cache *c, uint64_t id)
{
    uint64_t h = id * 0x9e3779b97f4a7c15ull;
    return c->sets == 1 ? 0 : (uint32_t)((h >> 32) % c->sets);
}

#endif
