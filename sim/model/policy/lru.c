/*
 * lru.c - least recently used: a doubly linked recency list per set, most
 * recent at the head, so a hit and a victim choice are both O(1).
 */
#include "model/cache.h"

#include <stdint.h>

/* Per set: head, tail, then prev[ways], next[ways] (way indices, 0xffff =
 * none).  Every way is on the list from the start, in way order, so the
 * first victims of an empty set are its ways in order (the cache fills
 * invalid ways first anyway). */
typedef uint16_t link;
#define NONE 0xffffu

static uint64_t lru_bytes(uint32_t sets, uint32_t ways)
{
    return (uint64_t)sets * (2u + 2u * ways) * sizeof(link);
}

static link *set_base(void *st, uint32_t set, uint32_t ways)
{
    return (link *)st + (uint64_t)set * (2u + 2u * ways);
}

static void lru_init(void *st, uint32_t sets, uint32_t ways, uint64_t seed)
{
    (void)seed;
    for (uint32_t s = 0; s < sets; s++) {
        link *b = set_base(st, s, ways), *prev = b + 2, *next = b + 2 + ways;
        b[0] = 0;                         /* head */
        b[1] = (link)(ways - 1);          /* tail */
        for (uint32_t w = 0; w < ways; w++) {
            prev[w] = w ? (link)(w - 1) : NONE;
            next[w] = w + 1 < ways ? (link)(w + 1) : NONE;
        }
    }
}

static void lru_touch(void *st, uint32_t set, uint32_t way, uint32_t ways)
{
    link *b = set_base(st, set, ways), *prev = b + 2, *next = b + 2 + ways;
    if (b[0] == way) return;
    /* unlink */
    link p = prev[way], n = next[way];
    if (p != NONE) next[p] = n;
    if (n != NONE) prev[n] = p;
    else b[1] = p;
    /* push at the head */
    prev[way] = NONE;
    next[way] = b[0];
    prev[b[0]] = (link)way;
    b[0] = (link)way;
}

static uint32_t lru_victim(void *st, uint32_t set, uint32_t ways)
{
    return set_base(st, set, ways)[1];
}

const mg_repl_policy mg_repl_lru = {"lru", lru_bytes, lru_init, lru_touch, lru_touch, lru_victim};
