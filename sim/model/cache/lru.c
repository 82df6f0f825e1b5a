/*
 * lru.c - least recently used: the victim is the way whose line was hit
 * or filled longest ago.  Each way keeps the stamp of its last use
 * (stamp.h); the victim is the way of the oldest.
 *
 * This file is the specification of LRU.  A cache whose policy is
 * mg_repl_lru does not call these hooks: the fast paths (fast.h) keep
 * the same order in a word or a recency list per set, with the same
 * victims (tests/unit/test_cache.c replays these hooks beside them).
 */
#include "sim/model/cache/cache.h"
#include "sim/model/cache/stamp.h"

/* A hit and a fill alike stamp the way: it is now the most recently used;
 * the victim is the way stamped longest ago. */
const mg_repl_policy mg_repl_lru = {
    .name = "lru",
    .state_bytes = mg_stamps_bytes,
    .touch = mg_stamps_set,
    .fill = mg_stamps_set,
    .victim = mg_stamps_oldest,
};
