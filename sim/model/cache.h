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
 *
 * LRU, the common policy, is kept by the cache itself rather than through
 * the hooks: a circular recency list per set over the valid ways, most
 * recent at the set's head, so the least recent is the head's previous.
 * A miss in a full set evicts that way and makes it the head, which in a
 * circular list is only moving the head back one; a hit unlinks its way
 * and puts it before the head.  The victims are LRU's (policy/lru.h): the
 * same as through its hooks (tests/unit/test_cache.c checks it).
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

/* One way of one set: its line, the next slot + 1 in its index bucket's
 * chain (0: none), and (LRU) its neighbours in the set's recency list. */
typedef struct mg_cache_slot {
    uint64_t tag;
    uint32_t chain;
    uint16_t prev, next;      /* LRU: ways of the same set, circular */
} mg_cache_slot;

struct mg_cache {
    uint32_t sets, ways;
    int      set_bits;        /* a: sets = 2^a x slices, slices odd (mg_cache_set) */
    uint32_t set_mask;        /* 2^a - 1 */
    uint32_t slices;          /* the odd factor m of sets */
    int      pow2;            /* sets is a power of two (1 included): slices = 1 */
    int      hash_shift;      /* 64 - a (63 for a = 0: the mask drops it) */
    mg_cache_slot *slot;      /* sets x ways */
    uint32_t *fill;           /* per set: valid ways (ways 0 .. fill-1) */
    uint16_t *head;           /* LRU: per set, its most recent way */
    uint32_t *index;          /* per bucket: first slot + 1 of its chain, 0 = none;
                                 NULL: scan sets */
    int      index_shift;     /* 64 - log2(buckets) */
    const mg_repl_policy *pol;
    int      lru;             /* pol is mg_repl_lru: the recency lists above */
    void     *pstate;         /* other policies' state */
    uint64_t hits, misses;
};

/* Returns 0, or -1 when memory is short. */
int  mg_cache_init(mg_cache *c, uint32_t sets, uint32_t ways, const mg_repl_policy *pol,
                   uint64_t seed);
void mg_cache_free(mg_cache *c);

/* The set of a line id, as hardware indexes sets by an address's low
 * bits XOR-folded with its higher (tag) bits.  With S = 2^a x m sets (m
 * odd), a line's block is id >> a; the set is slice x 2^a + the id's low
 * a bits XOR the top a bits of block x 0x9e3779b97f4a7c15, where slice =
 * block mod m (m = 1, a power of two: slice 0; m > 1 spreads blocks over
 * m slices as GPUs spread lines over memory partitions).  For any fixed
 * block its 2^a lines map one to one onto a slice's sets, and consecutive
 * blocks take the slices in turn, so any S x k consecutive line ids from
 * a multiple of 2^a (a contiguous buffer's lines, a row-major image's
 * tiles: objects start at line 0 of their id space) fill every set k
 * times: a contiguous footprint of the cache's size fits exactly, as in a
 * real cache, while the hash keeps power-of-two strides (and separate
 * objects, whose ids differ in their top bits) from piling onto a few
 * sets. */
static inline uint32_t mg_cache_set(const mg_cache *c, uint64_t id)
{
    uint64_t blk = id >> c->set_bits;
    uint32_t in = (uint32_t)(id ^ ((blk * 0x9e3779b97f4a7c15ull) >> c->hash_shift)) & c->set_mask;
    if (c->pow2) return in;
    return (uint32_t)(blk % c->slices) << c->set_bits | in;
}

/* The line id held by `way` of `set` (meaningful for way < fill[set]). */
static inline uint64_t mg_cache_tag(const mg_cache *c, uint32_t set, uint32_t way)
{
    return c->slot[(uint64_t)set * c->ways + way].tag;
}

/* Any cache but an indexed LRU one (cache.c). */
int mg_cache_access_any(mg_cache *c, uint64_t id);

/* An indexed LRU cache's access (cache.c): the out-of-line part, a miss
 * of id in `set`, whose index bucket is *b. */
int mg_cache_lru_miss(mg_cache *c, uint32_t set, uint64_t id, uint32_t *b);

/* Look up ids[0 .. n) in order, exactly as n calls of mg_cache_access()
 * (below) would; the indices of the ids that missed go to miss[]
 * (ascending).  Returns the number of misses.  One call per warp
 * instruction's lines: an indexed LRU cache's loop keeps its state in
 * registers. */
uint32_t mg_cache_access_all(mg_cache *c, const uint64_t *ids, uint32_t n, uint32_t *miss);

/* LRU hit on way w of a set whose ways are s and whose most recent way is
 * *head: w becomes the most recent (unlinked and put before the head of
 * the circular list, then made the head). */
static inline void mg_cache_lru_touch(mg_cache_slot *s, uint16_t *head, uint32_t w)
{
    uint32_t h = *head;
    if (w == h) return;
    if (w != s[h].prev) {          /* unlink w; put it before the head */
        uint16_t p = s[w].prev, n = s[w].next, t = s[h].prev;
        s[p].next = n;
        s[n].prev = p;
        s[w].prev = t;
        s[w].next = (uint16_t)h;
        s[t].next = (uint16_t)w;
        s[h].prev = (uint16_t)w;
    }
    *head = (uint16_t)w;           /* (the least recent way: only the head moves) */
}

/* Look up line `id`; on a miss, fill it (evicting per the policy).
 * Returns 1 on a hit, 0 on a miss.  Counts hits and misses.  The hit of
 * an indexed LRU cache, the memory path's usual case, is inline. */
static inline int mg_cache_access(mg_cache *c, uint64_t id)
{
    if (!(c->index && c->lru)) return mg_cache_access_any(c, id);
    uint32_t set = mg_cache_set(c, id);
    uint32_t *b = &c->index[(id * 0xff51afd7ed558ccdull) >> c->index_shift], e = *b;
    while (e && c->slot[e - 1].tag != id) e = c->slot[e - 1].chain;
    if (!e) return mg_cache_lru_miss(c, set, id, b);
    c->hits++;
    mg_cache_lru_touch(c->slot + (uint64_t)set * c->ways, &c->head[set],
                       (uint32_t)(e - 1 - (uint64_t)set * c->ways));
    return 1;
}

#endif
