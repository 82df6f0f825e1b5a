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
 * per set stands for valid bits.  Fully associative caches (one set) of 8
 * to 64 ways, such as Adreno's texture L1 (32 ways, missing on nearly
 * every access in conv kernels), keep a tag filter instead of comparing
 * every way's line: a byte per way, a hash of its line id (mg_cache_fp),
 * 8 ways compared per 64-bit word, so a miss in 32 ways costs four word
 * compares and reads a line id only on a 1-in-256 byte match per way.
 * Other caches of 8 ways or more keep an index, a chained hash table from
 * line id to its slot (set x ways + way), so a lookup costs a probe or two
 * instead of a scan of the set (for set-associative caches, mostly hits,
 * that is faster than the filter).  Either way the hits, misses and
 * victims are the same as a scan's.
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
#include <string.h>

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

/* Ways from which a cache keeps a tag filter (one set, up to
 * MG_CACHE_FP_MAX_WAYS ways) or an index instead of scanning its sets. */
#define MG_CACHE_INDEX_WAYS 8
#define MG_CACHE_FP_MAX_WAYS 64

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
    uint8_t  *fp;             /* tag filter: sets x fpw bytes, way w's line's
                                 mg_cache_fp (w < fill); NULL: none */
    uint32_t fpw;             /* ways rounded up to a multiple of 8 */
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

/* Any cache but a filtered or indexed LRU one (cache.c). */
int mg_cache_access_any(mg_cache *c, uint64_t id);

/* An indexed LRU cache's access (cache.c): the out-of-line part, a miss
 * of id in `set`, whose index bucket is *b.  Counts the miss; returns 0. */
int mg_cache_lru_miss(mg_cache *c, uint32_t set, uint64_t id, uint32_t *b);

/* Look up ids[0 .. n) in order, exactly as n calls of mg_cache_access()
 * (below) would; the indices of the ids that missed go to miss[]
 * (ascending).  Returns the number of misses.  One call per warp
 * instruction's lines: a filtered or indexed LRU cache's loop keeps its
 * state in registers. */
uint32_t mg_cache_access_all(mg_cache *c, const uint64_t *ids, uint32_t n, uint32_t *miss);

/* The tag filter's byte of line id, repeated in the 8 bytes of a word: a
 * hash of id independent of its set (mg_cache_set's hash takes the top
 * bits of another product). */
static inline uint64_t mg_cache_fp(uint64_t id)
{
    return ((id * 0xc2b2ae3d27d4eb4full) >> 56) * 0x0101010101010101ull;
}

/* The way of a filtered set holding line id, or `ways` when none: f is the
 * set's filter bytes, s its slots, n its valid ways, pat mg_cache_fp(id).
 * A word's bytes equal to id's are those of x = word ^ pat that are zero;
 * (x - 0x01..) & ~x & 0x80.. flags every zero byte, and may flag a byte
 * above a zero one too (the borrow), so each flagged way's line id is
 * compared: the first match is the only one (a set holds a line once). */
static inline uint32_t mg_cache_fp_find(const uint8_t *f, const mg_cache_slot *s, uint32_t n,
                                        uint32_t ways, uint64_t pat, uint64_t id)
{
    uint64_t any = 0;
    for (uint32_t k = 0; k < n; k += 8) {      /* a quick pass: no byte matches (a miss) */
        uint64_t x;
        memcpy(&x, f + k, sizeof x);
        x ^= pat;
        any |= (x - 0x0101010101010101ull) & ~x;
    }
    if (!(any & 0x8080808080808080ull)) return ways;
    for (uint32_t k = 0; k < n; k += 8) {
        uint64_t x;
        memcpy(&x, f + k, sizeof x);
        x ^= pat;
        uint64_t m = (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
        while (m) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            uint32_t w = k + (uint32_t)__builtin_clzll(m) / 8;
            m &= ~(0x8000000000000000ull >> __builtin_clzll(m));
#else
            uint32_t w = k + (uint32_t)__builtin_ctzll(m) / 8;
            m &= m - 1;
#endif
            if (w < n && s[w].tag == id) return w;
        }
    }
    return ways;
}

/* Set way w's filter byte to pat's, by a store of the whole 8-byte word
 * holding it: a byte store then an 8-byte load of its word (the next
 * lookup) would stall the load until the store retires (no forwarding). */
static inline void mg_cache_fp_set(uint8_t *f, uint32_t w, uint64_t pat)
{
    uint64_t x;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    int sh = 8 * (7 - (int)(w & 7));
#else
    int sh = 8 * (int)(w & 7);
#endif
    memcpy(&x, f + (w & ~7u), sizeof x);
    x = (x & ~(0xffull << sh)) | (pat & 0xffull) << sh;
    memcpy(f + (w & ~7u), &x, sizeof x);
}

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

/* The way an LRU miss in a set of `ways` ways (slots s, *fill valid ways,
 * most recent way *head) fills, made the most recent: the first invalid
 * way, joining the recency list before the head, else the least recent
 * (the head's previous).  (fill and head may point to a caller's locals:
 * a loop over many ids keeps them in registers.) */
static inline uint32_t mg_cache_lru_way(uint32_t ways, uint32_t *fill, mg_cache_slot *s,
                                        uint16_t *head)
{
    uint32_t h = *head, w;
    if (*fill < ways) {
        w = (*fill)++;
        if (w == 0) {
            s[0].prev = s[0].next = 0;
        } else {
            uint16_t t = s[h].prev;
            s[w].prev = t;
            s[w].next = (uint16_t)h;
            s[t].next = (uint16_t)w;
            s[h].prev = (uint16_t)w;
        }
    } else {
        w = s[h].prev;
    }
    *head = (uint16_t)w;
    return w;
}

/* One access of a filtered LRU set of `ways` ways to line id, whose slots
 * are s, filter bytes f, valid ways *fill and most recent way *head,
 * counting nothing (the caller counts): a hit becomes the most recent way,
 * a miss fills mg_cache_lru_way()'s.  Returns 1 on a hit. */
__attribute__((always_inline))
static inline int mg_cache_fp_lru(uint32_t ways, uint32_t *fill, mg_cache_slot *s, uint8_t *f,
                                  uint16_t *head, uint64_t id)
{
    uint64_t pat = mg_cache_fp(id);
    uint32_t w = mg_cache_fp_find(f, s, *fill, ways, pat, id);
    if (w < ways) {
        mg_cache_lru_touch(s, head, w);
        return 1;
    }
    w = mg_cache_lru_way(ways, fill, s, head);
    s[w].tag = id;
    mg_cache_fp_set(f, w, pat);
    return 0;
}

/* Look up line `id`; on a miss, fill it (evicting per the policy).
 * Returns 1 on a hit, 0 on a miss.  Counts hits and misses.  LRU caches,
 * the memory path's usual case, are inline: a filtered one's accesses, an
 * indexed one's hits. */
static inline int mg_cache_access(mg_cache *c, uint64_t id)
{
    if (!c->lru || !(c->fp || c->index)) return mg_cache_access_any(c, id);
    uint32_t set = mg_cache_set(c, id);
    mg_cache_slot *s = c->slot + (size_t)set * c->ways;
    if (c->fp) {
        int hit = mg_cache_fp_lru(c->ways, &c->fill[set], s, c->fp + (size_t)set * c->fpw,
                                  &c->head[set], id);
        if (hit) c->hits++;
        else c->misses++;
        return hit;
    }
    uint32_t *b = &c->index[(id * 0xff51afd7ed558ccdull) >> c->index_shift], e = *b;
    while (e && c->slot[e - 1].tag != id) e = c->slot[e - 1].chain;
    if (!e) return mg_cache_lru_miss(c, set, id, b);
    c->hits++;
    mg_cache_lru_touch(s, &c->head[set], (uint32_t)(e - 1 - (uint64_t)set * c->ways));
    return 1;
}

#endif
