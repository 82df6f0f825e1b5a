/*
 * plru.c - tree pseudo-LRU: ways-1 direction bits per set (ways a power of
 * two; other counts fall back to the nearest tree over the valid ways).
 */
#include "sim/model/cache/cache.h"

#include <stdint.h>

static uint32_t tree_ways(uint32_t ways)
{
    uint32_t t = 1;
    while (t < ways) t <<= 1;
    return t;
}

static uint64_t plru_bytes(uint32_t sets, uint32_t ways)
{
    return (uint64_t)sets * tree_ways(ways);
}

/* Point every node on way's path away from it. */
static void plru_touch(void *st, uint32_t set, uint32_t way, uint32_t ways)
{
    uint32_t t = tree_ways(ways);
    uint8_t *b = (uint8_t *)st + (uint64_t)set * t;
    uint32_t node = 1, lo = 0, hi = t;
    while (node < t) {
        uint32_t mid = (lo + hi) / 2;
        if (way < mid) { b[node] = 1; node = 2 * node; hi = mid; }
        else { b[node] = 0; node = 2 * node + 1; lo = mid; }
    }
}

static uint32_t plru_victim(void *st, uint32_t set, uint32_t ways)
{
    uint32_t t = tree_ways(ways);
    const uint8_t *b = (const uint8_t *)st + (uint64_t)set * t;
    uint32_t node = 1, lo = 0, hi = t;
    while (node < t) {
        uint32_t mid = (lo + hi) / 2;
        if (b[node]) { node = 2 * node + 1; lo = mid; }
        else { node = 2 * node; hi = mid; }
    }
    return lo < ways ? lo : ways - 1;
}

const mg_repl_policy mg_repl_plru = {
    .name = "plru",
    .state_bytes = plru_bytes,
    .touch = plru_touch,
    .fill = plru_touch,
    .victim = plru_victim,
};
