/*
 * random.c - random replacement from a seeded xorshift generator, so runs
 * are reproducible.
 */
#include "sim/model/cache/cache.h"

typedef struct rnd_state {
    uint64_t x;
} rnd_state;

static uint64_t rnd_bytes(uint32_t sets, uint32_t ways)
{
    (void)sets; (void)ways;
    return sizeof(rnd_state);
}

static void rnd_init(void *st, uint32_t sets, uint32_t ways, uint64_t seed)
{
    (void)sets; (void)ways;
    ((rnd_state *)st)->x = seed * 2654435761u + 0x9e3779b97f4a7c15ull;
}

static uint32_t rnd_victim(void *st, uint32_t set, uint32_t ways)
{
    rnd_state *s = st;
    (void)set;
    s->x ^= s->x << 13;
    s->x ^= s->x >> 7;
    s->x ^= s->x << 17;
    return (uint32_t)(s->x % ways);
}

const mg_repl_policy mg_repl_random = {
    .name = "random",
    .state_bytes = rnd_bytes,
    .init = rnd_init,
    .victim = rnd_victim,
};
