/*
 * fast.h - the cache's fast paths, inline (internal to sim/model/cache;
 * cache.h includes it after struct mg_cache: include cache.h, not this).
 *
 * THE PROMISE: everything here and in fast.c behaves exactly like the
 * reference, cache.c's access through the policy's hooks (lru.c for LRU):
 * the same hits and misses, the same victims, so the same lines in the
 * same ways, the same hits and misses counted, in the same order.  The
 * cache unit suite is that promise: tests/unit/test_cache.c's
 * test_same_as_reference (one access at a time) and
 * test_batches_same_as_reference (mg_cache_access_all) replay every
 * policy, and associativities that scan, filter and index, beside a plain
 * cache of valid bits scanning its sets.  A change here that changes a
 * hit or a victim is a bug, however fast.
 *
 * Lookups, whatever the policy: how a set is searched depends on its
 * ways; the way found is the one a scan of the set's valid ways finds:
 *   - 8 to 64 ways (Adreno's texture L1: 32 ways in one set, missing on
 *     nearly every access in conv kernels; the L2s: 16 ways): a tag
 *     filter, a byte per way, a hash of its line id (mg_cache_fp),
 *     compared 16 at a time (one SSE2 compare), so a miss in 32 ways costs
 *     two compares and a line id is read only on a 1-in-256 byte match;
 *   - more ways: an index, a chained hash table from line id to its slot
 *     (set x ways + way), a probe or two instead of a scan of the set
 *     (but a cache of MG_CACHE_INDEX_MAX_SLOTS slots or more scans);
 *   - fewer: a scan of the set's ways.
 * The line ids are an array of their own (slot), apart from the index's
 * chains and the recency lists (link), so a lookup touches 8 bytes a way.
 *
 * LRU is kept by the cache itself rather than through lru.c's hooks.  Sets
 * of at most 16 ways (the L2s, small L1s) keep their ways' order in a word
 * of nibbles (mg_cache_ord_*): a hit or a miss is a few register
 * operations without a branch.  Larger sets keep a circular recency list
 * over the valid ways, most recent at the set's head, so the least recent
 * is the head's previous: a miss in a full set evicts that way and makes
 * it the head, which in a circular list is only moving the head back one;
 * a hit unlinks its way and puts it before the head.  A warp instruction's
 * lines go through an LRU cache in one call (mg_cache_lru_access_all),
 * with a loop of its own for each shipped geometry (fast.c).
 */
#ifndef MG_CACHE_FAST_H
#define MG_CACHE_FAST_H

#ifndef MG_CACHE_H
#error "include sim/model/cache/cache.h, which includes this header"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Allocate the structures c's ways and policy call for (c's geometry,
 * slot, fill and policy set, c->lru decided): the LRU order words or
 * recency lists, the tag filter or the index, and the links.  Returns 0,
 * or -1 when memory is short (the caller frees c). */
int mg_cache_fast_init(mg_cache *c);

/* ---- the tag filter ------------------------------------------------------ */

/* The tag filter's byte of line id, repeated in the 8 bytes of a word: a
 * hash of id independent of its set (mg_cache_set's hash takes the top
 * bits of another product). */
static inline uint64_t mg_cache_fp(uint64_t id)
{
    return ((id * 0xc2b2ae3d27d4eb4full) >> 56) * 0x0101010101010101ull;
}

/* The filter's bytes are compared 16 at a time (one SSE2 compare where
 * the target has SSE2, two 8-byte words elsewhere): a set's bytes are
 * its ways rounded up to a multiple of MG_CACHE_FP_GROUP, those past the
 * set's valid ways masked off. */
#define MG_CACHE_FP_GROUP 16

/* The bytes of f[0 .. 16) equal to pat's (pat: mg_cache_fp()), as bits
 * 0 .. 15.  Exact: no bit for a byte that differs.  Without SSE2, per
 * 8-byte word: x's zero bytes (exactly: no borrow) have their top bit
 * clear in t, and are gathered as bits 56 + j of a product. */
static inline uint64_t mg_cache_fp_match16(const uint8_t *f, uint64_t pat)
{
#if defined(__SSE2__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)f);
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi64x((long long)pat)));
#else
    uint64_t m = 0;
    for (int k = 0; k < 16; k += 8) {
        uint64_t x;
        memcpy(&x, f + k, sizeof x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        x = __builtin_bswap64(x);      /* byte j of memory as byte j of x */
#endif
        x ^= pat;
        uint64_t t = ((x & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | x;
        uint64_t z = (~t & 0x8080808080808080ull) >> 7;
        m |= (z * 0x0102040810204080ull >> 56) << k;
    }
    return m;
#endif
}

/* Bit w (w < fpw) set where filter byte f[w] equals pat's byte, fpw a
 * multiple of MG_CACHE_FP_GROUP up to 64 (unrolled: predictable
 * branches). */
static inline uint64_t mg_cache_fp_match(const uint8_t *f, uint32_t fpw, uint64_t pat)
{
    uint64_t m = mg_cache_fp_match16(f, pat);
    if (fpw > 16) m |= mg_cache_fp_match16(f + 16, pat) << 16;
    if (fpw > 32) m |= mg_cache_fp_match16(f + 32, pat) << 32;
    if (fpw > 48) m |= mg_cache_fp_match16(f + 48, pat) << 48;
    return m;
}

/* The way of a filtered set holding line id, or `ways` when none: f is the
 * set's filter bytes (fpw of them), s its slots, n its valid ways, pat
 * mg_cache_fp(id).  Each valid way whose byte matches has its line id
 * compared: the first match is the only one (a set holds a line once).
 * (The bytes past n are masked off only when there are any: a full set
 * of a multiple of MG_CACHE_FP_GROUP ways, the usual case, has none.) */
static inline uint32_t mg_cache_fp_find(const uint8_t *f, const mg_cache_slot *s, uint32_t n,
                                        uint32_t fpw, uint32_t ways, uint64_t pat, uint64_t id)
{
    uint64_t m = mg_cache_fp_match(f, fpw, pat);
    if (n < fpw) m &= (1ull << n) - 1;          /* n < fpw <= 64 */
    while (m) {
        uint32_t w = (uint32_t)__builtin_ctzll(m);
        if (s[w].tag == id) return w;
        m &= m - 1;
    }
    return ways;
}

/* Row j: byte j 0xff, the others 0 (fast.c; mg_cache_fp_set()). */
extern const uint8_t mg_cache_fp_sel[16][16];

/* Set way w's filter byte to pat's, by a store of the whole group of 16
 * bytes that mg_cache_fp_match() loads at once: a narrower store then a
 * load of its group (the next lookup) would stall the load until the
 * store retires (no forwarding). */
static inline void mg_cache_fp_set(uint8_t *f, uint32_t w, uint64_t pat)
{
    uint8_t *g = f + (w & ~15u);
#if defined(__SSE2__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)g);
    __m128i sel = _mm_loadu_si128((const __m128i *)(const void *)mg_cache_fp_sel[w & 15]);
    __m128i p = _mm_set1_epi64x((long long)pat);
    x = _mm_or_si128(_mm_andnot_si128(sel, x), _mm_and_si128(sel, p));
    _mm_storeu_si128((__m128i *)(void *)g, x);
#else
    uint64_t x[2], sel[2];
    memcpy(x, g, sizeof x);
    memcpy(sel, mg_cache_fp_sel[w & 15], sizeof sel);
    x[0] = (x[0] & ~sel[0]) | (pat & sel[0]);
    x[1] = (x[1] & ~sel[1]) | (pat & sel[1]);
    memcpy(g, x, sizeof x);
#endif
}

/* ---- the index: a chained hash table over the slots ---------------------- */

/* The index bucket of line id: the first slot + 1 of its chain. */
static inline uint32_t *mg_cache_bucket(const mg_cache *c, uint64_t id)
{
    return &c->index[(id * 0xff51afd7ed558ccdull) >> c->index_shift];
}

/* Unlink slot s (holding id) from its bucket's chain (fast.c). */
void mg_cache_index_remove(mg_cache *c, uint64_t id, uint32_t s);

/* ---- lookups for any policy ---------------------------------------------- */

/* The way of `set` holding line id, or c->ways when none: a scan of the
 * set's valid ways, or the filter or the index that stand for it. */
static inline uint32_t mg_cache_find(const mg_cache *c, uint32_t set, uint64_t id)
{
    size_t base = (size_t)set * c->ways;
    if (c->fp)
        return mg_cache_fp_find(c->fp + (size_t)set * c->fpw, c->slot + base, c->fill[set],
                                c->fpw, c->ways, mg_cache_fp(id), id);
    if (c->index) {
        uint32_t e = *mg_cache_bucket(c, id);
        while (e && c->slot[e - 1].tag != id) e = c->link[e - 1].chain;
        return e ? (uint32_t)(e - 1 - base) : c->ways;
    }
    for (uint32_t w = 0; w < c->fill[set]; w++)
        if (c->slot[base + w].tag == id) return w;
    return c->ways;
}

/* Way w of `set` now holds line id, in its slot and in the filter or the
 * index; `evict`: it held another line (leaving the index). */
static inline void mg_cache_put(mg_cache *c, uint32_t set, uint32_t w, uint64_t id, int evict)
{
    size_t s = (size_t)set * c->ways + w;
    if (c->index && evict) mg_cache_index_remove(c, c->slot[s].tag, (uint32_t)s);
    c->slot[s].tag = id;
    if (c->fp) {
        mg_cache_fp_set(c->fp + (size_t)set * c->fpw, w, mg_cache_fp(id));
    } else if (c->index) {
        uint32_t *b = mg_cache_bucket(c, id);
        c->link[s].chain = *b;
        *b = (uint32_t)(s + 1);
    }
}

/* ---- LRU of at most MG_CACHE_ORD_WAYS ways: the order in a word ---------- */

/* A set's LRU state is one word: nibble k (bits 4k .. 4k+3) is the way
 * used k-th most recently, for k < fill; nibbles fill .. 15 hold the
 * invalid ways fill .. 15 in order, so the next way to fill, way `fill`,
 * sits at nibble `fill` (MG_CACHE_ORD_INIT: nibble k holds k).  A hit, on
 * the most recent way or another (a coin toss to a branch predictor in a
 * set-associative cache), costs the same few operations. */
#define MG_CACHE_ORD_INIT 0xfedcba9876543210ull

/* ord with its nibble p (p < 16) moved to the front: nibbles 0 .. p-1
 * move up one, those above p stay (p = 0: ord itself). */
static inline uint64_t mg_cache_ord_front(uint64_t ord, uint32_t p)
{
    uint64_t low = ord & ((1ull << 4 * p) - 1);
    uint64_t high = ord >> 4 >> 4 * p << 4 << 4 * p;    /* (two shifts: p = 15) */
    return high | low << 4 | (ord >> 4 * p & 15);
}

/* The nibble of ord holding way w (present once: ord is a permutation).
 * x's zero nibble is found exactly (no borrow): its top bit is clear in t. */
static inline uint32_t mg_cache_ord_pos(uint64_t ord, uint32_t w)
{
    uint64_t x = ord ^ (w * 0x1111111111111111ull);
    uint64_t t = ((x & 0x7777777777777777ull) + 0x7777777777777777ull) | x;
    return (uint32_t)__builtin_ctzll(~t & 0x8888888888888888ull) / 4;
}

/* An LRU hit on valid way w of the set whose order is *ord. */
static inline void mg_cache_ord_touch(uint64_t *ord, uint32_t w)
{
    *ord = mg_cache_ord_front(*ord, mg_cache_ord_pos(*ord, w));
}

/* The way an LRU miss in a set of `ways` ways (*fill valid, order *ord)
 * fills, made the most recent: the first invalid way (nibble fill), else
 * the least recent (nibble ways-1).  (fill and ord may point to a caller's
 * locals.) */
static inline uint32_t mg_cache_ord_way(uint32_t ways, uint32_t *fill, uint64_t *ord)
{
    uint32_t p = *fill < ways ? (*fill)++ : ways - 1;
    *ord = mg_cache_ord_front(*ord, p);
    return (uint32_t)(*ord & 15);
}

/* ---- LRU of more ways: circular recency lists ---------------------------- */

/* LRU hit on way w of a set whose links are l and whose most recent way
 * is *head: w becomes the most recent (unlinked and put before the head
 * of the circular list, then made the head). */
static inline void mg_cache_lru_touch(mg_cache_link *l, uint16_t *head, uint32_t w)
{
    uint32_t h = *head;
    if (w == h) return;
    if (w != l[h].prev) {          /* unlink w; put it before the head */
        uint16_t p = l[w].prev, n = l[w].next, t = l[h].prev;
        l[p].next = n;
        l[n].prev = p;
        l[w].prev = t;
        l[w].next = (uint16_t)h;
        l[t].next = (uint16_t)w;
        l[h].prev = (uint16_t)w;
    }
    *head = (uint16_t)w;           /* (the least recent way: only the head moves) */
}

/* The way an LRU miss in a set of `ways` ways (links l, *fill valid ways,
 * most recent way *head) fills, made the most recent: the first invalid
 * way, joining the recency list before the head, else the least recent
 * (the head's previous).  (fill and head may point to a caller's locals:
 * a loop over many ids keeps them in registers.) */
static inline uint32_t mg_cache_lru_way(uint32_t ways, uint32_t *fill, mg_cache_link *l,
                                        uint16_t *head)
{
    uint32_t h = *head, w;
    if (*fill < ways) {
        w = (*fill)++;
        if (w == 0) {
            l[0].prev = l[0].next = 0;
        } else {
            uint16_t t = l[h].prev;
            l[w].prev = t;
            l[w].next = (uint16_t)h;
            l[t].next = (uint16_t)w;
            l[h].prev = (uint16_t)w;
        }
    } else {
        w = l[h].prev;
    }
    *head = (uint16_t)w;
    return w;
}

/* ---- one access of a filtered LRU set ------------------------------------ */

/* One access of a filtered LRU set of `ways` ways to line id, whose slots
 * are s, links l, filter bytes f, valid ways *fill and most recent way
 * *head, counting nothing (the caller counts): a hit becomes the most
 * recent way, a miss fills mg_cache_lru_way()'s.  Returns 1 on a hit. */
__attribute__((always_inline))
static inline int mg_cache_fp_lru(uint32_t ways, uint32_t fpw, uint32_t *fill, mg_cache_slot *s,
                                  mg_cache_link *l, uint8_t *f, uint16_t *head, uint64_t id)
{
    uint64_t pat = mg_cache_fp(id);
    uint32_t w = mg_cache_fp_find(f, s, *fill, fpw, ways, pat, id);
    if (w < ways) {
        mg_cache_lru_touch(l, head, w);
        return 1;
    }
    w = mg_cache_lru_way(ways, fill, l, head);
    s[w].tag = id;
    mg_cache_fp_set(f, w, pat);
    return 0;
}

/* mg_cache_fp_lru() of a set kept in order *ord instead of a list. */
__attribute__((always_inline))
static inline int mg_cache_fp_ord(uint32_t ways, uint32_t fpw, uint32_t *fill, mg_cache_slot *s,
                                  uint8_t *f, uint64_t *ord, uint64_t id)
{
    uint64_t pat = mg_cache_fp(id);
    uint32_t w = mg_cache_fp_find(f, s, *fill, fpw, ways, pat, id);
    if (w < ways) {
        mg_cache_ord_touch(ord, w);
        return 1;
    }
    w = mg_cache_ord_way(ways, fill, ord);
    s[w].tag = id;
    mg_cache_fp_set(f, w, pat);
    return 0;
}

/* ---- an LRU cache's access --------------------------------------------- */

/* A scanned LRU cache's access (neither filter nor index), counted
 * (fast.c). */
int mg_cache_lru_scan(mg_cache *c, uint64_t id);

/* An indexed LRU cache's miss of id in `set`, whose index bucket is *b
 * (fast.c): the out-of-line part of mg_cache_lru_access().  Counts the
 * miss; returns 0. */
int mg_cache_lru_miss(mg_cache *c, uint32_t set, uint64_t id, uint32_t *b);

/* mg_cache_access() of an LRU cache (c->lru).  Inline: a filtered cache's
 * accesses, an indexed one's hits. */
static inline int mg_cache_lru_access(mg_cache *c, uint64_t id)
{
    if (!(c->fp || c->index)) return mg_cache_lru_scan(c, id);
    uint32_t set = mg_cache_set(c, id);
    size_t base = (size_t)set * c->ways;
    if (c->fp) {
        uint8_t *f = c->fp + (size_t)set * c->fpw;
        int hit = c->ord ? mg_cache_fp_ord(c->ways, c->fpw, &c->fill[set], c->slot + base, f,
                                           &c->ord[set], id)
                         : mg_cache_fp_lru(c->ways, c->fpw, &c->fill[set], c->slot + base,
                                           c->link + base, f, &c->head[set], id);
        if (hit) c->hits++;
        else c->misses++;
        return hit;
    }
    uint32_t *b = mg_cache_bucket(c, id), e = *b;
    while (e && c->slot[e - 1].tag != id) e = c->link[e - 1].chain;
    if (!e) return mg_cache_lru_miss(c, set, id, b);
    c->hits++;
    mg_cache_lru_touch(c->link + base, &c->head[set], (uint32_t)(e - 1 - base));
    return 1;
}

/* mg_cache_access_all() of an LRU cache (fast.c), counted. */
uint32_t mg_cache_lru_access_all(mg_cache *c, const uint64_t *ids, uint32_t n, uint32_t *miss);

#endif
