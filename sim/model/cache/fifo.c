/*
 * fifo.c - first in, first out: the victim is the way filled longest ago;
 * hits change nothing.  A fill timestamp per way.
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

const mg_repl_policy mg_repl_fifo = {
    .name = "fifo",
    .state_bytes = fifo_bytes,
    .fill = fifo_fill,
    .victim = fifo_victim,
};
