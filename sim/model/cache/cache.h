/*
 * cache.h - a set-associative cache with a pluggable replacement policy
 * (internal to sim/model).
 *
 * Tags are opaque 64-bit line ids (the memory path turns buffer addresses
 * and 2D texel tiles into ids).  The replacement policy is a struct of
 * hooks, one file per policy beside it, found by name in policy.c; the
 * cache itself only keeps tags and which ways are valid.
 *
 * Lines are never invalidated, and a miss fills the first invalid way of
 * its set, so the valid ways of a set are always ways 0 .. fill-1: a count
 * per set stands for valid bits.  How a set is searched depends on its
 * ways; the hits, misses and victims are the same as a scan's:
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
 * LRU, the common policy, is kept by the cache itself rather than through
 * the hooks.  Sets of at most 16 ways (the L2s, small L1s) keep their ways'
 * order in a word of nibbles (mg_cache_ord_*): a hit or a miss is a few
 * register operations without a branch.  Larger sets keep a circular
 * recency list over the valid ways, most recent at the set's head, so the
 * least recent is the head's previous: a miss in a full set evicts that
 * way and makes it the head, which in a circular list is only moving the
 * head back one; a hit unlinks its way and puts it before the head.
 * Either way the victims are LRU's (lru.h): the same as through its
 * hooks (tests/unit/test_cache.c checks it).
 */
#ifndef MG_CACHE_H
#define MG_CACHE_H

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/* Ways from which a cache keeps a tag filter (up to MG_CACHE_FP_MAX_WAYS
 * ways) or an index (more) instead of scanning its sets; LRU sets of up to
 * MG_CACHE_ORD_WAYS ways keep their order in a word. */
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
    int      lru;             /* pol is mg_repl_lru: ord or the recency lists */
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

/* Any cache but a filtered or indexed LRU one (cache.c; mg_cache_access()
 * calls it for those). */
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

/* Row j: byte j 0xff, the others 0 (cache.c; mg_cache_fp_set()). */
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

/* ---- one access of a filtered LRU set -------------------------------------- */

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

/* Look up line `id`; on a miss, fill it (evicting per the policy).
 * Returns 1 on a hit, 0 on a miss.  Counts hits and misses.  LRU caches,
 * the memory path's usual case, are inline: a filtered one's accesses, an
 * indexed one's hits. */
static inline int mg_cache_access(mg_cache *c, uint64_t id)
{
    if (!c->lru || !(c->fp || c->index)) return mg_cache_access_any(c, id);
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
    uint32_t *b = &c->index[(id * 0xff51afd7ed558ccdull) >> c->index_shift], e = *b;
    while (e && c->slot[e - 1].tag != id) e = c->link[e - 1].chain;
    if (!e) return mg_cache_lru_miss(c, set, id, b);
    c->hits++;
    mg_cache_lru_touch(c->link + base, &c->head[set], (uint32_t)(e - 1 - base));
    return 1;
}

#endif
