/*
 * lru.c - least recently used: the hooks over the inline operations of
 * lru.h (a doubly linked recency list per set).
 */
#include "sim/model/cache/cache.h"
#include "sim/model/cache/lru.h"

#include <stdint.h>

static uint64_t lru_bytes(uint32_t sets, uint32_t ways)
{
    return (uint64_t)sets * (2u + 2u * ways) * sizeof(mg_lru_link);
}

static void lru_init(void *st, uint32_t sets, uint32_t ways, uint64_t seed)
{
    (void)seed;
    for (uint32_t s = 0; s < sets; s++) {
        mg_lru_link *b = mg_lru_set(st, s, ways), *prev = b + 2, *next = b + 2 + ways;
        b[0] = 0;                         /* head */
        b[1] = (mg_lru_link)(ways - 1);   /* tail */
        for (uint32_t w = 0; w < ways; w++) {
            prev[w] = w ? (mg_lru_link)(w - 1) : MG_LRU_NONE;
            next[w] = w + 1 < ways ? (mg_lru_link)(w + 1) : MG_LRU_NONE;
        }
    }
}

static void lru_touch(void *st, uint32_t set, uint32_t way, uint32_t ways)
{
    mg_lru_touch(st, set, way, ways);
}

static uint32_t lru_victim(void *st, uint32_t set, uint32_t ways)
{
    return mg_lru_victim(st, set, ways);
}

const mg_repl_policy mg_repl_lru = {"lru", lru_bytes, lru_init, lru_touch, lru_touch, lru_victim};
