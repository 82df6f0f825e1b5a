/*
 * cache.h - a set-associative cache with a pluggable replacement policy
 * (internal to sim/model).
 *
 * Tags are opaque 64-bit line ids (the memory path turns buffer addresses
 * and 2D texel tiles into ids).  The replacement policy is a struct of
 * hooks, one file per policy in policy/, found by name in policy.c; the
 * cache itself only keeps tags and which ways are valid.
 *
 * Lines are never invalidated, and a miss fills the first invalid way of
 * its set, so the valid ways of a set are always ways 0 .. fill-1: a count
 * per set stands for valid bits.  Caches of many ways also keep an index,
 * a chained hash table from line id to its slot (set x ways + way), so a
 * lookup costs a probe or two instead of a scan of the set; the hits,
 * misses and victims are the same as a scan's.
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

/* Ways from which a cache keeps an index instead of scanning its sets. */
#define MG_CACHE_INDEX_WAYS 8

struct mg_cache {
    uint32_t sets, ways;
    uint32_t set_mask;        /* sets - 1 when sets is a power of two, else 0 */
    uint64_t *tags;           /* sets x ways */
    uint32_t *fill;           /* per set: valid ways (ways 0 .. fill-1) */
    uint32_t *index;          /* per bucket: first slot + 1 of its chain, 0 = none;
                                 NULL: scan sets */
    uint32_t *chain;          /* per slot: the next slot + 1 in its bucket's chain */
    uint32_t index_mask;      /* buckets - 1 (a power of two) */
    int      index_shift;     /* 64 - log2(buckets) */
    const mg_repl_policy *pol;
    int      lru;             /* pol is mg_repl_lru: its operations inline */
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

/* The set of a line id (a mixed hash, so 2D tile ids spread over sets):
 * the high 32 bits of id x 0x9e3779b97f4a7c15, modulo the set count. */
static inline uint32_t mg_cache_set(const mg_cache *c, uint64_t id)
{
    uint32_t h = (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> 32);
    if (c->set_mask) return h & c->set_mask;
    return c->sets == 1 ? 0 : h % c->sets;
}

#endif
