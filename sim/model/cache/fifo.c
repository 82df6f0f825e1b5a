/*
 * fifo.c - first in, first out: a fill timestamp per way; hits do nothing.
 */
#include "sim/model/cache/cache.h"

typedef struct fifo_state {
    uint64_t clock;
    uint64_t stamp[];
} fifo_state;

static uint64_t fifo_bytes(uint32_t sets, uint32_t ways)
{
    return sizeof(fifo_state) + (uint64_t)sets * ways * sizeof(uint64_t);
}

static void fifo_init(void *st, uint32_t sets, uint32_t ways, uint64_t seed)
{
    (void)st; (void)sets; (void)ways; (void)seed;
}

static void fifo_touch(void *st, uint32_t set, uint32_t way, uint32_t ways)
{
    (void)st; (void)set; (void)way; (void)ways;
}

static void fifo_fill(void *st, uint32_t set, uint32_t way, uint32_t ways)
{
    fifo_state *s = st;
    s->stamp[(uint64_t)set * ways + way] = ++s->clock;
}

static uint32_t fifo_victim(void *st, uint32_t set, uint32_t ways)
{
    fifo_state *s = st;
    const uint64_t *p = s->stamp + (uint64_t)set * ways;
    uint32_t v = 0;
    for (uint32_t w = 1; w < ways; w++)
        if (p[w] < p[v]) v = w;
    return v;
}

const mg_repl_policy mg_repl_fifo = {"fifo", fifo_bytes, fifo_init, fifo_touch, fifo_fill,
                                     fifo_victim};
