/*
 * cache.h - a set-associative cache with a pluggable replacement policy
 * (internal to sim/model).
 *
 * Tags are opaque 64-bit line ids (the memory path turns buffer addresses
 * and 2D texel tiles into ids).  An access looks its line up in the line's
 * set (mg_cache_set); a hit tells the policy; a miss fills the set's first
 * invalid way, else the way the policy names as victim, and tells the
 * policy.  Lines are never invalidated, so the valid ways of a set are
 * always ways 0 .. fill-1: a count per set stands for valid bits.
 *
 * The policy is a struct of hooks, one file per policy in this folder
 * (lru.c, fifo.c, random.c, plru.c), listed once in policy_list.h and
 * found by name by mg_repl_find() (policy.c).  cache.c is the cache as
 * just described, through the hooks.  LRU, the shipped configs' policy,
 * is served by the fast paths instead (fast.h, fast.c), which give the
 * same hits, misses and victims as cache.c with lru.c; so do the tag
 * filter and the index that stand for a scan of the set in a cache of
 * many ways, whatever its policy.
 */
#ifndef MG_CACHE_H
#define MG_CACHE_H

#include <stdint.h>

#include "sim/model/cache/policy_list.h"

typedef struct mg_cache mg_cache;

/* A replacement policy: the slots, by name (designated initializers; a
 * NULL hook has nothing to do).  `state` is the policy's per-cache state,
 * state_bytes(sets, ways) bytes, zeroed before init; hooks get a set
 * index and a way (< ways).
 *   .name         the config's `replacement` value ("lru"); the registry's
 *                 key (required).
 *   .state_bytes  the bytes of state for a cache of sets x ways (required).
 *   .init         (optional) set up zeroed state; seed is the run's seed.
 *   .touch        (optional) a hit on valid way `way` of `set`.
 *   .fill         (optional) way `way` of `set` now holds a new line: an
 *                 invalid way, or the victim just named.
 *   .victim       the way of `set` to evict, all its ways being valid; the
 *                 cache fills it next (required). */
typedef struct mg_repl_policy {
    const char *name;
    uint64_t (*state_bytes)(uint32_t sets, uint32_t ways);
    void (*init)(void *state, uint32_t sets, uint32_t ways, uint64_t seed);
    void (*touch)(void *state, uint32_t set, uint32_t way, uint32_t ways);
    void (*fill)(void *state, uint32_t set, uint32_t way, uint32_t ways);
    uint32_t (*victim)(void *state, uint32_t set, uint32_t ways);
} mg_repl_policy;

/* The policies, mg_repl_lru and the others of policy_list.h, one file
 * each. */
#define MG_REPL_DECLARE(p) extern const mg_repl_policy mg_repl_##p;
MG_REPL_POLICIES(MG_REPL_DECLARE)
#undef MG_REPL_DECLARE

/* The policy registry (policy.c): the policy named `name` ("lru", "fifo",
 * ...: policy_list.h), or NULL. */
const mg_repl_policy *mg_repl_find(const char *name);

/* Ways from which a cache keeps a tag filter (up to MG_CACHE_FP_MAX_WAYS
 * ways) or an index (more) instead of scanning its sets; LRU sets of up to
 * MG_CACHE_ORD_WAYS ways keep their order in a word (fast.h). */
#define MG_CACHE_INDEX_WAYS 8
#define MG_CACHE_FP_MAX_WAYS 64
#define MG_CACHE_ORD_WAYS 16

/* Caches of this many slots (sets x ways) or more keep no index: they scan
 * (a test build may lower it, -DMG_CACHE_INDEX_MAX_SLOTS=1, to check that
 * path). */
#ifndef MG_CACHE_INDEX_MAX_SLOTS
#define MG_CACHE_INDEX_MAX_SLOTS ((size_t)1 << 30)
#endif

/* One way of one set: its line. */
typedef struct mg_cache_slot {
    uint64_t tag;
} mg_cache_slot;

/* One way of one set, as the index and the recency lists see it: the
 * next slot + 1 in its index bucket's chain (0: none), and (LRU lists)
 * its neighbours in the set's recency list. */
typedef struct mg_cache_link {
    uint32_t chain;
    uint16_t prev, next;      /* ways of the same set, circular */
} mg_cache_link;

/* The fields from link on are the fast paths' (fast.h says what each
 * holds); a cache keeps only those its ways and policy call for. */
struct mg_cache {
    uint32_t sets, ways;
    int      set_bits;        /* a: sets = 2^a x slices, slices odd (mg_cache_set) */
    uint32_t set_mask;        /* 2^a - 1 */
    uint32_t slices;          /* the odd factor m of sets */
    int      pow2;            /* sets is a power of two (1 included): slices = 1 */
    int      hash_shift;      /* 64 - a (63 for a = 0: the mask drops it) */
    mg_cache_slot *slot;      /* sets x ways */
    mg_cache_link *link;      /* sets x ways, for the index and the recency lists;
                                 NULL: neither */
    uint32_t *fill;           /* per set: valid ways (ways 0 .. fill-1) */
    uint8_t  *fp;             /* tag filter: sets x fpw bytes, way w's line's
                                 mg_cache_fp (w < fill); NULL: none */
    uint32_t fpw;             /* ways rounded up to a multiple of MG_CACHE_FP_GROUP */
    uint64_t *ord;            /* LRU of at most MG_CACHE_ORD_WAYS ways: per set, its
                                 ways in recency order (mg_cache_ord_front); NULL:
                                 recency lists (head, links' prev and next) */
    uint16_t *head;           /* LRU lists: per set, its most recent way */
    uint32_t *index;          /* per bucket: first slot + 1 of its chain, 0 = none;
                                 NULL: no index */
    int      index_shift;     /* 64 - log2(buckets) */
    const mg_repl_policy *pol;
    int      lru;             /* pol is mg_repl_lru, kept by the fast paths (ord or
                                 the recency lists), not through its hooks */
    void     *pstate;         /* the hooks' policy state (not LRU's) */
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
 * sets.  mg_cache_set_low() is the part within a slice, the cache's
 * fields passed unpacked (a loop keeps them in registers). */
static inline uint32_t mg_cache_set_low(uint64_t id, int set_bits, int hash_shift,
                                        uint32_t set_mask)
{
    return (uint32_t)(id ^ (((id >> set_bits) * 0x9e3779b97f4a7c15ull) >> hash_shift)) & set_mask;
}

static inline uint32_t mg_cache_set(const mg_cache *c, uint64_t id)
{
    uint32_t in = mg_cache_set_low(id, c->set_bits, c->hash_shift, c->set_mask);
    if (c->pow2) return in;
    return (uint32_t)((id >> c->set_bits) % c->slices) << c->set_bits | in;
}

/* The line id held by `way` of `set` (meaningful for way < fill[set]). */
static inline uint64_t mg_cache_tag(const mg_cache *c, uint32_t set, uint32_t way)
{
    return c->slot[(uint64_t)set * c->ways + way].tag;
}

/* The fast paths' inline operations need struct mg_cache. */
#include "sim/model/cache/fast.h"

/* The reference access (cache.c), through the policy's hooks: for every
 * cache but an LRU one.  Same contract as mg_cache_access(). */
int mg_cache_ref_access(mg_cache *c, uint64_t id);

/* mg_cache_access_all() through mg_cache_ref_access() (cache.c). */
uint32_t mg_cache_ref_access_all(mg_cache *c, const uint64_t *ids, uint32_t n, uint32_t *miss);

/* Look up line `id`; on a miss, fill it (evicting per the policy).
 * Returns 1 on a hit, 0 on a miss.  Counts hits and misses.  An LRU cache,
 * the memory path's usual case, takes the fast path (mg_cache_lru_access:
 * inline for a filtered cache, and an indexed one's hits). */
static inline int mg_cache_access(mg_cache *c, uint64_t id)
{
    return c->lru ? mg_cache_lru_access(c, id) : mg_cache_ref_access(c, id);
}

/* Look up ids[0 .. n) in order, exactly as n calls of mg_cache_access()
 * would; the indices of the ids that missed go to miss[] (ascending).
 * Returns the number of misses.  One call per warp instruction's lines:
 * an LRU cache's loop (mg_cache_lru_access_all) keeps its state in
 * registers. */
static inline uint32_t mg_cache_access_all(mg_cache *c, const uint64_t *ids, uint32_t n,
                                           uint32_t *miss)
{
    return c->lru ? mg_cache_lru_access_all(c, ids, n, miss)
                  : mg_cache_ref_access_all(c, ids, n, miss);
}

#endif
