/*
 * fast.c - the cache's fast paths, out of line: their structures, an LRU
 * cache's accesses that are not inline, and the batched loops, one per
 * shipped geometry.  They behave exactly like the reference (cache.c with
 * the policy's hooks): fast.h states the promise and the tests that hold
 * it.
 */
#include "sim/model/cache/cache.h"

#include <stdlib.h>

const uint8_t mg_cache_fp_sel[16][16] = {
#define ROW(j) {[j] = 0xff}
    ROW(0), ROW(1), ROW(2), ROW(3), ROW(4), ROW(5), ROW(6), ROW(7),
    ROW(8), ROW(9), ROW(10), ROW(11), ROW(12), ROW(13), ROW(14), ROW(15),
#undef ROW
};

/* The index of a cache of n slots: about two buckets a slot (chains of
 * about one slot), a power of two. */
static int index_init(mg_cache *c, size_t n)
{
    size_t buckets = 16;
    int bits = 4;
    while (buckets < 2 * n) {
        buckets *= 2;
        bits++;
    }
    c->index = calloc(buckets, sizeof *c->index);
    c->index_shift = 64 - bits;
    return c->index ? 0 : -1;
}

/* (fast.h) LRU keeps an order word per set, or a recency list; 8 to 64
 * ways keep a filter, more an index (unless the cache is too large);
 * the index and the lists need links. */
int mg_cache_fast_init(mg_cache *c)
{
    size_t n = (size_t)c->sets * c->ways;
    int ok = 1;
    if (c->lru && c->ways <= MG_CACHE_ORD_WAYS) {
        c->ord = malloc((size_t)c->sets * sizeof *c->ord);
        ok = c->ord != NULL;
        for (uint32_t i = 0; ok && i < c->sets; i++) c->ord[i] = MG_CACHE_ORD_INIT;
    } else if (c->lru) {
        c->head = calloc(c->sets, sizeof *c->head);
        ok = c->head != NULL;
    }
    if (ok && c->ways >= MG_CACHE_INDEX_WAYS && c->ways <= MG_CACHE_FP_MAX_WAYS) {
        c->fpw = (c->ways + MG_CACHE_FP_GROUP - 1) / MG_CACHE_FP_GROUP * MG_CACHE_FP_GROUP;
        c->fp = calloc((size_t)c->sets * c->fpw, 1);
        ok = c->fp != NULL;
    } else if (ok && c->ways >= MG_CACHE_INDEX_WAYS && n < MG_CACHE_INDEX_MAX_SLOTS) {
        ok = index_init(c, n) == 0;
    }
    if (ok && (c->index || c->head)) {      /* chains, recency lists */
        c->link = calloc(n, sizeof *c->link);
        ok = c->link != NULL;
    }
    return ok ? 0 : -1;
}

/* (fast.h) */
void mg_cache_index_remove(mg_cache *c, uint64_t id, uint32_t s)
{
    uint32_t *link = mg_cache_bucket(c, id);
    while (*link != s + 1) link = &c->link[*link - 1].chain;
    *link = c->link[s].chain;
}

/* ---- an LRU cache's accesses, one at a time ------------------------------- */

/* (fast.h) The way mg_cache_lru_way() picks (an indexed cache has over
 * MG_CACHE_FP_MAX_WAYS ways: recency lists), unlinked from its old line's
 * chain, now holds id at the head of *b's chain. */
int mg_cache_lru_miss(mg_cache *c, uint32_t set, uint64_t id, uint32_t *b)
{
    size_t base = (size_t)set * c->ways;
    int full = c->fill[set] == c->ways;
    uint32_t w = mg_cache_lru_way(c->ways, &c->fill[set], c->link + base, &c->head[set]);
    if (full) mg_cache_index_remove(c, c->slot[base + w].tag, (uint32_t)(base + w));
    c->slot[base + w].tag = id;
    c->link[base + w].chain = *b;  /* the head of id's bucket (after the removal) */
    *b = (uint32_t)(base + w + 1);
    c->misses++;
    return 0;
}

/* One access of a scanned LRU cache (under MG_CACHE_INDEX_WAYS ways: no
 * filter, no index; kept in order, c->ord) of `ways` ways (a constant
 * where the caller passes one) to id, counting nothing (the caller
 * counts): a hit becomes the most recent way, a miss fills
 * mg_cache_ord_way()'s.  The most recent way, where most of a small L1's
 * hits are, is tried first (a hit there changes nothing).  The one copy
 * of this case, for mg_cache_lru_scan() and the batched loop of
 * mg_cache_lru_access_all().  Returns 1 on a hit. */
__attribute__((always_inline))
static inline int lru_scan_one(mg_cache *c, uint32_t ways, uint64_t id)
{
    uint32_t set = mg_cache_set(c, id);
    mg_cache_slot *t = c->slot + (size_t)set * ways;
    uint32_t n = c->fill[set];
    uint64_t *ord = &c->ord[set];
    if (t[*ord & 15].tag == id && n) return 1;
    for (uint32_t w = 0; w < n; w++) {
        if (t[w].tag == id) {
            mg_cache_ord_touch(ord, w);
            return 1;
        }
    }
    t[mg_cache_ord_way(ways, &c->fill[set], ord)].tag = id;
    return 0;
}

/* lru_scan_one() of a set too large to keep in order (over
 * MG_CACHE_ORD_WAYS ways: a cache of so many lines that it has no index,
 * MG_CACHE_INDEX_MAX_SLOTS), kept in a recency list instead. */
static int lru_list_scan_one(mg_cache *c, uint64_t id)
{
    uint32_t set = mg_cache_set(c, id);
    size_t base = (size_t)set * c->ways;
    mg_cache_slot *t = c->slot + base;
    mg_cache_link *l = c->link + base;
    for (uint32_t w = 0; w < c->fill[set]; w++) {
        if (t[w].tag == id) {
            mg_cache_lru_touch(l, &c->head[set], w);
            return 1;
        }
    }
    t[mg_cache_lru_way(c->ways, &c->fill[set], l, &c->head[set])].tag = id;
    return 0;
}

/* A scanned LRU cache's access, as lru_scan_one(), whichever way it keeps
 * its order; counting nothing. */
static int lru_scan_any(mg_cache *c, uint64_t id)
{
    return c->ord ? lru_scan_one(c, c->ways, id) : lru_list_scan_one(c, id);
}

/* (fast.h) */
int mg_cache_lru_scan(mg_cache *c, uint64_t id)
{
    int hit = lru_scan_any(c, id);
    if (hit) c->hits++;
    else c->misses++;
    return hit;
}

/* ---- an LRU cache's batches: mg_cache_lru_access_all() -------------------- */

/* One access of an indexed LRU cache to id in `set`, as
 * mg_cache_lru_access() but counting nothing (the caller counts); the
 * state passed unpacked, so that a loop keeps it in registers.  Returns 1
 * on a hit. */
__attribute__((always_inline))
static inline int lru_index_one(mg_cache *c, mg_cache_slot *slot, mg_cache_link *link,
                                uint32_t *index, int shift, uint16_t *head, uint32_t ways,
                                uint32_t set, uint64_t id)
{
    uint32_t base = set * ways;
    uint32_t *b = &index[(id * 0xff51afd7ed558ccdull) >> shift], e = *b;
    while (e && slot[e - 1].tag != id) e = link[e - 1].chain;
    mg_cache_link *l = link + base;
    uint32_t h = head[set];
    if (e) {
        mg_cache_lru_touch(l, &head[set], e - 1 - base);
        return 1;
    }
    if (c->fill[set] < ways) {                    /* an invalid way */
        mg_cache_lru_miss(c, set, id, b);
        c->misses--;                              /* (the caller counts) */
        return 0;
    }
    uint32_t v = l[h].prev;                       /* the least recent way becomes the head */
    head[set] = (uint16_t)v;
    uint32_t *p = &index[(slot[base + v].tag * 0xff51afd7ed558ccdull) >> shift];
    while (*p != base + v + 1) p = &link[*p - 1].chain;
    *p = l[v].chain;
    slot[base + v].tag = id;
    l[v].chain = *b;
    *b = base + v + 1;
    return 0;
}

/* The batch of an indexed LRU cache, counting nothing.  A first pass only
 * prefetches: each id's bucket and the slot it leads to (a hint: the
 * lookups below may change the chains), so the lookups' loads overlap
 * instead of waiting one after another. */
static uint32_t index_lru_all(mg_cache *c, const uint64_t *ids, uint32_t n, uint32_t *miss)
{
    mg_cache_slot *slot = c->slot;
    mg_cache_link *link = c->link;
    uint32_t *index = c->index, ways = c->ways, nm = 0;
    uint16_t *head = c->head;
    int shift = c->index_shift;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t e = index[(ids[i] * 0xff51afd7ed558ccdull) >> shift];
        if (e) __builtin_prefetch(&slot[e - 1]);
    }
    for (uint32_t i = 0; i < n; i++)
        if (!lru_index_one(c, slot, link, index, shift, head, ways, mg_cache_set(c, ids[i]),
                           ids[i]))
            miss[nm++] = i;
    return nm;
}

/* The batch of a filtered LRU cache of one set kept in a recency list,
 * counting nothing.  ways and fpw are the cache's (constants where the
 * caller passes them: a copy of the loop for the usual geometry); the
 * set's fill and head live in registers through the loop. */
__attribute__((always_inline))
static inline uint32_t fp_list_one_set(mg_cache *c, const uint64_t *ids, uint32_t n,
                                       uint32_t *miss, uint32_t ways, uint32_t fpw)
{
    mg_cache_slot *slot = c->slot;
    mg_cache_link *link = c->link;
    uint8_t *fp = c->fp;
    uint32_t fill = c->fill[0], nm = 0;
    uint16_t head = c->head[0];
    for (uint32_t i = 0; i < n; i++)
        if (!mg_cache_fp_lru(ways, fpw, &fill, slot, link, fp, &head, ids[i])) miss[nm++] = i;
    c->fill[0] = fill;
    c->head[0] = head;
    return nm;
}

/* The batch of a filtered LRU cache of several sets kept in recency
 * lists, counting nothing. */
static uint32_t fp_list_sets(mg_cache *c, const uint64_t *ids, uint32_t n, uint32_t *miss)
{
    uint32_t ways = c->ways, fpw = c->fpw, nm = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t set = mg_cache_set(c, ids[i]);
        size_t base = (size_t)set * ways;
        if (!mg_cache_fp_lru(ways, fpw, &c->fill[set], c->slot + base, c->link + base,
                             c->fp + (size_t)set * fpw, &c->head[set], ids[i]))
            miss[nm++] = i;
    }
    return nm;
}

/* The batch of a filtered LRU cache kept in order (c->ord), counting
 * nothing; ways and fpw as fp_list_one_set()'s, pow2 the cache's (a
 * constant where the caller passes one). */
__attribute__((always_inline))
static inline uint32_t fp_ord_sets(mg_cache *c, const uint64_t *ids, uint32_t n,
                                   uint32_t *miss, uint32_t ways, uint32_t fpw, int pow2)
{
    mg_cache_slot *slot = c->slot;
    uint8_t *fp = c->fp;
    uint32_t *fill = c->fill, set_mask = c->set_mask, nm = 0;
    uint64_t *ord = c->ord;
    int set_bits = c->set_bits, hash_shift = c->hash_shift;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t id = ids[i];
        uint32_t set = pow2 ? mg_cache_set_low(id, set_bits, hash_shift, set_mask)
                            : mg_cache_set(c, id);
        if (!mg_cache_fp_ord(ways, fpw, &fill[set], slot + (size_t)set * ways,
                             fp + (size_t)set * fpw, &ord[set], id))
            miss[nm++] = i;
    }
    return nm;
}

/* (fast.h) The shipped configs' geometries (a 32-way texture L1 of one
 * set, 16-way L2s of 2^a sets, 4-way L1s) get loops of their own. */
uint32_t mg_cache_lru_access_all(mg_cache *c, const uint64_t *ids, uint32_t n, uint32_t *miss)
{
    uint32_t nm = 0;
    if (c->fp && c->ord)
        nm = c->ways == 16 && c->pow2 ? fp_ord_sets(c, ids, n, miss, 16, 16, 1)
                                      : fp_ord_sets(c, ids, n, miss, c->ways, c->fpw, c->pow2);
    else if (c->fp && c->sets == 1)
        nm = c->ways == 32 ? fp_list_one_set(c, ids, n, miss, 32, 32)
                           : fp_list_one_set(c, ids, n, miss, c->ways, c->fpw);
    else if (c->fp)
        nm = fp_list_sets(c, ids, n, miss);
    else if (c->index)
        nm = index_lru_all(c, ids, n, miss);
    else if (c->ways == 4)
        for (uint32_t i = 0; i < n; i++) {
            if (!lru_scan_one(c, 4, ids[i])) miss[nm++] = i;
        }
    else
        for (uint32_t i = 0; i < n; i++) {
            if (!lru_scan_any(c, ids[i])) miss[nm++] = i;
        }
    c->hits += n - nm;
    c->misses += nm;
    return nm;
}
