/* test_cache.c - the set-associative cache (sim/model/cache/): its fast
 * paths (fast.h: fill counts, set masks, tag filter, line index, LRU
 * order words and lists) give exactly the hits, misses and victims of the
 * straightforward cache (valid bits, a scan of the set, first invalid way
 * filled, else the policy's victim), for every policy, over
 * associativities that scan, filter and index, and set counts that are
 * and are not powers of two; one access at a time (test_same_as_reference)
 * and a batch at a time (test_batches_same_as_reference); the tag filter
 * also with lines whose filter bytes collide.  And the set index's promise
 * (cache.h): a contiguous footprint of the cache's size fits it exactly. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/model/cache/cache.h"
#include "tests/unit/suites.h"

/* The reference: the cache as first written (valid bits, a scan). */
typedef struct ref_cache {
    uint32_t sets, ways;
    uint64_t *tags;
    uint8_t  *valid;
    const mg_repl_policy *pol;
    void     *pstate;
} ref_cache;

static int ref_init(ref_cache *c, uint32_t sets, uint32_t ways, const mg_repl_policy *pol,
                    uint64_t seed)
{
    c->sets = sets;
    c->ways = ways;
    c->pol = pol;
    c->tags = calloc((size_t)sets * ways, sizeof *c->tags);
    c->valid = calloc((size_t)sets * ways, 1);
    uint64_t sb = pol->state_bytes(sets, ways);
    c->pstate = calloc(1, sb ? sb : 1);
    if (!c->tags || !c->valid || !c->pstate) return -1;
    if (pol->init) pol->init(c->pstate, sets, ways, seed);
    return 0;
}

static void ref_free(ref_cache *c)
{
    free(c->tags);
    free(c->valid);
    free(c->pstate);
}

/* The set of id as cache.h states it: sets = 2^a x m (m odd); the low a
 * bits of id XOR the top a bits of (id >> a) x 0x9e3779b97f4a7c15, in
 * slice (id >> a) mod m. */
static uint32_t ref_set(uint32_t sets, uint64_t id)
{
    int a = 0;
    while (sets % (2u << a) == 0) a++;
    uint64_t blk = id >> a, m = sets >> a;
    uint64_t in = a ? (id ^ ((blk * 0x9e3779b97f4a7c15ull) >> (64 - a))) & ((1ull << a) - 1) : 0;
    return (uint32_t)((blk % m) << a | in);
}

static int ref_access(ref_cache *c, uint64_t id)
{
    uint32_t set = ref_set(c->sets, id);
    uint64_t *t = c->tags + (size_t)set * c->ways;
    uint8_t *v = c->valid + (size_t)set * c->ways;
    uint32_t free_way = c->ways;
    for (uint32_t w = 0; w < c->ways; w++) {
        if (v[w] && t[w] == id) {
            if (c->pol->touch) c->pol->touch(c->pstate, set, w, c->ways);
            return 1;
        }
        if (!v[w] && free_way == c->ways) free_way = w;
    }
    uint32_t w = free_way < c->ways ? free_way : c->pol->victim(c->pstate, set, c->ways);
    t[w] = id;
    v[w] = 1;
    if (c->pol->fill) c->pol->fill(c->pstate, set, w, c->ways);
    return 0;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Line ids like the memory path's: an object in the top byte, 2D tiles
 * (y << 28 | x) or buffer lines, drawn from about twice the cache's lines,
 * often the neighbour of the previous one. */
static uint64_t next_id(uint64_t lines, uint64_t *r)
{
    uint64_t range = 2 * lines + 1;
    *r = rnd() % 4 ? (*r + 1) % range : rnd() % range;
    uint64_t obj = (uint64_t)(1 + *r % 3) << 56;
    return *r % 2 ? obj | (*r / 8) << 28 | (*r % 8) : obj | *r;
}

static void test_same_as_reference(void)
{
    static const char *const pols[] = {"lru", "fifo", "random", "plru"};
    static const uint32_t sets_v[] = {1, 3, 64};
    static const uint32_t ways_v[] = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 128};
    const size_t nw = sizeof ways_v / sizeof ways_v[0];
    int indexed = 0, filtered = 0;
    for (size_t pi = 0; pi < 4; pi++)
        for (size_t si = 0; si < 3; si++)
            for (size_t wi = 0; wi < nw; wi++) {
                const mg_repl_policy *pol = mg_repl_find(pols[pi]);
                CU_ASSERT_PTR_NOT_NULL_FATAL(pol);
                uint32_t sets = sets_v[si], ways = ways_v[wi];
                mg_cache c;
                ref_cache ref;
                CU_ASSERT_EQUAL_FATAL(mg_cache_init(&c, sets, ways, pol, 11), 0);
                CU_ASSERT_EQUAL_FATAL(ref_init(&ref, sets, ways, pol, 11), 0);
                indexed += c.index != NULL;
                filtered += c.fp != NULL;
                uint64_t run = 0, hits = 0, n = 60000;
                int same = 1;
                for (uint64_t i = 0; i < n && same; i++) {
                    uint64_t id = next_id((uint64_t)sets * ways, &run);
                    int a = mg_cache_access(&c, id), b = ref_access(&ref, id);
                    hits += (uint64_t)b;
                    if (a != b) {
                        fprintf(stderr, "\n%s %u sets x %u ways: access %llu differs\n", pols[pi],
                                sets, ways, (unsigned long long)i);
                        same = 0;
                    }
                }
                CU_ASSERT_TRUE(same);
                /* the same lines in the same ways (valid ways are a prefix) */
                for (uint32_t s = 0; s < sets && same; s++)
                    for (uint32_t w = 0; w < ways; w++) {
                        size_t k = (size_t)s * ways + w;
                        if ((w < c.fill[s]) != ref.valid[k] ||
                            (ref.valid[k] && c.slot[k].tag != ref.tags[k])) {
                            CU_FAIL("the caches hold different lines");
                            same = 0;
                            break;
                        }
                    }
                CU_ASSERT_EQUAL(c.hits + c.misses, n);
                CU_ASSERT_EQUAL(c.hits, hits);
                /* the id stream both hits and misses */
                CU_ASSERT_TRUE(hits > n / 20 && hits < n - n / 20);
                mg_cache_free(&c);
                ref_free(&ref);
            }
    CU_ASSERT_TRUE(indexed > 0);
    CU_ASSERT_TRUE(filtered > 0);
}

/* The tag filter (a set of 8 to 64 ways, cache.h; here one set) with every line's
 * filter byte among a few values, so most lookups find byte matches that
 * are not the line (0x00 also matches unfilled ways' bytes; 0x01 is what
 * the zero-byte test's borrow falsely flags): one access at a time and in
 * batches, the same hits, misses and lines as the reference's scan, for
 * every policy and way counts that are and are not multiples of 8. */
static void test_filter_collisions(void)
{
    static const char *const pols[] = {"lru", "fifo", "random", "plru"};
    static const uint32_t ways_v[] = {8, 12, 32, 64};
    static const uint8_t bytes[] = {0x00, 0x01, 0x80, 0xff};
    for (size_t pi = 0; pi < 4; pi++)
        for (size_t wi = 0; wi < 4; wi++) {
            const mg_repl_policy *pol = mg_repl_find(pols[pi]);
            uint32_t ways = ways_v[wi], np = 2 * ways;
            uint64_t pool[128];
            for (uint32_t k = 0; k < np;) {          /* ids whose byte is one of bytes[] */
                uint64_t id = rnd() >> (rnd() % 40);
                if ((uint8_t)mg_cache_fp(id) == bytes[k % 4]) pool[k++] = id;
            }
            mg_cache c;
            ref_cache ref;
            CU_ASSERT_EQUAL_FATAL(mg_cache_init(&c, 1, ways, pol, 3), 0);
            CU_ASSERT_EQUAL_FATAL(ref_init(&ref, 1, ways, pol, 3), 0);
            CU_ASSERT_PTR_NOT_NULL(c.fp);
            uint64_t ids[40], hits = 0, n = 0;
            uint32_t miss[40];
            int same = 1;
            while (n < 40000 && same) {
                uint32_t k = 1 + (uint32_t)(rnd() % 40), nm = 0, j = 0;
                for (uint32_t i = 0; i < k; i++) ids[i] = pool[rnd() % np];
                if (n % 2) {
                    nm = mg_cache_access_all(&c, ids, k, miss);
                } else {
                    for (uint32_t i = 0; i < k; i++)
                        if (!mg_cache_access(&c, ids[i])) miss[nm++] = i;
                }
                for (uint32_t i = 0; i < k; i++) {
                    int hit = ref_access(&ref, ids[i]);
                    if (!hit && (j >= nm || miss[j++] != i)) same = 0;
                    hits += (uint64_t)hit;
                }
                same &= j == nm;
                n += k;
            }
            CU_ASSERT_TRUE(same);
            for (uint32_t w = 0; w < ways && same; w++)
                if ((w < c.fill[0]) != ref.valid[w] || (ref.valid[w] && c.slot[w].tag != ref.tags[w]))
                    same = 0;
            CU_ASSERT_TRUE(same);
            CU_ASSERT_EQUAL(c.hits + c.misses, n);
            CU_ASSERT_EQUAL(c.hits, hits);
            CU_ASSERT_TRUE(hits > n / 10 && hits < n - n / 10);
            mg_cache_free(&c);
            ref_free(&ref);
        }
}

/* mg_cache_access_all() over batches of 1 to 40 ids gives the reference's
 * hits and misses, id by id, and lists the misses in order. */
static void test_batches_same_as_reference(void)
{
    static const char *const pols[] = {"lru", "fifo"};
    static const uint32_t sets_v[] = {1, 3, 64};
    static const uint32_t ways_v[] = {2, 8, 12, 16, 24, 32, 64, 128};
    const size_t nw = sizeof ways_v / sizeof ways_v[0];
    for (size_t pi = 0; pi < 2; pi++)
        for (size_t si = 0; si < 3; si++)
            for (size_t wi = 0; wi < nw; wi++) {
                const mg_repl_policy *pol = mg_repl_find(pols[pi]);
                uint32_t sets = sets_v[si], ways = ways_v[wi];
                mg_cache c;
                ref_cache ref;
                CU_ASSERT_EQUAL_FATAL(mg_cache_init(&c, sets, ways, pol, 5), 0);
                CU_ASSERT_EQUAL_FATAL(ref_init(&ref, sets, ways, pol, 5), 0);
                uint64_t run = 0, ids[40], misses = 0, n = 0;
                uint32_t miss[40];
                int same = 1;
                while (n < 40000 && same) {
                    uint32_t k = 1 + (uint32_t)(rnd() % 40), nm, j = 0;
                    for (uint32_t i = 0; i < k; i++) ids[i] = next_id((uint64_t)sets * ways, &run);
                    nm = mg_cache_access_all(&c, ids, k, miss);
                    for (uint32_t i = 0; i < k; i++) {
                        int hit = ref_access(&ref, ids[i]);
                        if (!hit && (j >= nm || miss[j++] != i)) same = 0;
                        misses += !hit;
                    }
                    same &= j == nm;
                    n += k;
                }
                CU_ASSERT_TRUE(same);
                CU_ASSERT_EQUAL(c.misses, misses);
                CU_ASSERT_EQUAL(c.hits + c.misses, n);
                CU_ASSERT_TRUE(misses > n / 20 && misses < n - n / 20);
                mg_cache_free(&c);
                ref_free(&ref);
            }
}

/* Any sets x ways consecutive line ids from a multiple of 2^a (sets = 2^a
 * x m, m odd: a contiguous footprint of the cache's size from an aligned
 * start, in any object's id space) fill every set exactly: a second pass
 * over them hits throughout; one id more makes exactly one set overflow,
 * so a cyclic LRU pass then misses ways + 1. */
static void test_contiguous_fits(void)
{
    static const uint32_t sets_v[] = {1, 3, 64, 96, 25600};
    static const uint64_t base_v[] = {0, (uint64_t)5 << 20, (uint64_t)3 << 56 | 7 << 20};
    for (size_t si = 0; si < sizeof sets_v / sizeof sets_v[0]; si++)
        for (size_t bi = 0; bi < 3; bi++) {
            uint32_t sets = sets_v[si], ways = 4;
            uint64_t n = (uint64_t)sets * ways, b = base_v[bi];
            mg_cache c;
            CU_ASSERT_FATAL(mg_cache_init(&c, sets, ways, mg_repl_find("lru"), 1) == 0);
            for (int pass = 0; pass < 2; pass++)
                for (uint64_t i = 0; i < n; i++) mg_cache_access(&c, b + i);
            CU_ASSERT_EQUAL(c.misses, n);
            CU_ASSERT_EQUAL(c.hits, n);
            mg_cache_free(&c);
            CU_ASSERT_FATAL(mg_cache_init(&c, sets, ways, mg_repl_find("lru"), 1) == 0);
            for (int pass = 0; pass < 3; pass++)
                for (uint64_t i = 0; i <= n; i++) mg_cache_access(&c, b + i);
            CU_ASSERT_EQUAL(c.misses, (n + 1) + 2 * (ways + 1));
            mg_cache_free(&c);
        }
}

int add_cache_suite(void)
{
    CU_pSuite s = CU_add_suite("cache", NULL, NULL);
    return s && CU_add_test(s, "same_as_reference", test_same_as_reference) &&
                   CU_add_test(s, "batches_same_as_reference",
                               test_batches_same_as_reference) &&
                   CU_add_test(s, "filter_collisions", test_filter_collisions) &&
                   CU_add_test(s, "contiguous footprint of the size fits", test_contiguous_fits)
               ? 0 : -1;
}
