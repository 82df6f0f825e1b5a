/*
 * lru.h - least recently used, the operations inline (internal to
 * sim/model): a doubly linked recency list per set, most recent at the
 * head, so a hit and a victim choice are both O(1).  lru.c wraps them as
 * the policy hooks.  A cache whose policy is mg_repl_lru keeps its own
 * circular lists instead (cache.h), with the same victims: the cache's
 * unit suite replays the hooks beside it.
 *
 * Per set: head, tail, then prev[ways], next[ways] (way indices, 0xffff =
 * none).  Every way is on the list from the start, in way order, so the
 * first victims of an empty set are its ways in order (the cache fills
 * invalid ways first anyway).
 */
#ifndef MG_POLICY_LRU_H
#define MG_POLICY_LRU_H

#include <stdint.h>

#include "sim/model/cache/cache.h"

extern const mg_repl_policy mg_repl_lru;

typedef uint16_t mg_lru_link;
#define MG_LRU_NONE 0xffffu

static inline mg_lru_link *mg_lru_set(void *st, uint32_t set, uint32_t ways)
{
    return (mg_lru_link *)st + (uint64_t)set * (2u + 2u * ways);
}

/* Move `way` to the head of its set's list (a hit, or a fill). */
static inline void mg_lru_touch(void *st, uint32_t set, uint32_t way, uint32_t ways)
{
    mg_lru_link *b = mg_lru_set(st, set, ways), *prev = b + 2, *next = b + 2 + ways;
    if (b[0] == way) return;
    /* unlink */
    mg_lru_link p = prev[way], n = next[way];
    if (p != MG_LRU_NONE) next[p] = n;
    if (n != MG_LRU_NONE) prev[n] = p;
    else b[1] = p;
    /* push at the head */
    prev[way] = MG_LRU_NONE;
    next[way] = b[0];
    prev[b[0]] = (mg_lru_link)way;
    b[0] = (mg_lru_link)way;
}

/* The least recently used way of the set: the tail. */
static inline uint32_t mg_lru_victim(void *st, uint32_t set, uint32_t ways)
{
    return mg_lru_set(st, set, ways)[1];
}

#endif
