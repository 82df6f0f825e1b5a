/* trace_lineset.c - see trace_lineset.h. */
#include "traces/trace_lineset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HLL_BITS 12
#define HLL_REGS (1u << HLL_BITS)

/* splitmix64's finalizer: a well-mixed 64-bit hash. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

void mg_trace_lineset_init(mg_trace_lineset *s, size_t exact_max)
{
    memset(s, 0, sizeof *s);
    s->exact_max = exact_max ? exact_max : MG_LINESET_EXACT_MAX;
}

void mg_trace_lineset_free(mg_trace_lineset *s)
{
    free(s->keys);
    free(s->hll);
    memset(s, 0, sizeof *s);
}

/* Add a key (slot in the top 8 bits) to the slot's sketch. */
static void hll_add(mg_trace_lineset *s, uint64_t key)
{
    uint64_t h = mix(key);
    unsigned j = (unsigned)(h >> (64 - HLL_BITS));
    uint64_t rest = h << HLL_BITS;
    uint8_t rank = rest ? (uint8_t)(__builtin_clzll(rest) + 1) : (uint8_t)(64 - HLL_BITS + 1);
    uint8_t *reg = &s->hll[(size_t)(key >> 56) * HLL_REGS + j];
    if (rank > *reg) *reg = rank;
}

/* Fold the exact table into sketches and free it.  On OOM keeps the table
 * and stops adding (counts become lower bounds). */
static void go_estimated(mg_trace_lineset *s)
{
    s->hll = calloc((size_t)MG_LINESET_SLOTS * HLL_REGS, 1);
    if (!s->hll) {
        s->oom = 1;
        return;
    }
    for (size_t i = 0; i < s->cap; i++)
        if (s->keys[i]) hll_add(s, s->keys[i] - 1);
    free(s->keys);
    s->keys = NULL;
    s->cap = s->n = 0;
}

/* Insert key into the table; returns 1 when it was new. */
static int table_insert(uint64_t *keys, size_t cap, uint64_t key)
{
    size_t i = (size_t)mix(key) & (cap - 1);
    while (keys[i]) {
        if (keys[i] == key + 1) return 0;
        i = (i + 1) & (cap - 1);
    }
    keys[i] = key + 1;
    return 1;
}

/* Double the table (or create it).  Returns 0, -1 on OOM. */
static int grow(mg_trace_lineset *s)
{
    size_t cap = s->cap ? 2 * s->cap : 1024;
    uint64_t *k = calloc(cap, sizeof *k);
    if (!k) return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->keys[i]) table_insert(k, cap, s->keys[i] - 1);
    free(s->keys);
    s->keys = k;
    s->cap = cap;
    return 0;
}

void mg_trace_lineset_add(mg_trace_lineset *s, unsigned slot, uint64_t line)
{
    if (slot >= MG_LINESET_SLOTS || s->oom) return;
    uint64_t key = ((uint64_t)slot << 56) | (line & (((uint64_t)1 << 56) - 1));
    if (s->hll) {
        hll_add(s, key);
        return;
    }
    if (2 * (s->n + 1) > s->cap) {
        if (s->n + 1 > s->exact_max) {
            go_estimated(s);
            if (s->hll) hll_add(s, key);
            return;
        }
        if (grow(s)) {
            go_estimated(s);
            if (s->hll) hll_add(s, key);
            return;
        }
    }
    if (table_insert(s->keys, s->cap, key)) {
        s->n++;
        s->count[slot]++;
    }
}

uint64_t mg_trace_lineset_count(const mg_trace_lineset *s, unsigned slot)
{
    if (slot >= MG_LINESET_SLOTS) return 0;
    if (!s->hll) return s->count[slot];
    const uint8_t *reg = &s->hll[(size_t)slot * HLL_REGS];
    double sum = 0, m = HLL_REGS;
    unsigned zeros = 0;
    for (unsigned j = 0; j < HLL_REGS; j++) {
        sum += ldexp(1.0, -reg[j]);
        zeros += reg[j] == 0;
    }
    double e = 0.7213 / (1 + 1.079 / m) * m * m / sum;
    if (e <= 2.5 * m && zeros) e = m * log(m / zeros);      /* small-range correction */
    return (uint64_t)llround(e);
}

int mg_trace_lineset_exact(const mg_trace_lineset *s)
{
    return !s->hll && !s->oom;
}
