/*
 * am_share.c - the analytical model's cache shares (am_internal.h): the
 * walked warp's reads of a cache's lines against its share of the cache,
 * the cache's lines divided by the warps that use it at once (TMModel's
 * warp-level capacity argument, eq. 3, applied line by line: an L1 over
 * the warps resident on its SP, the L2 over those on the GPU).  A read of
 * a line whose last use lies more than `share` newly fetched lines back is
 * fetched again (sim/MODEL.md, "The analytical model").
 */
#include "sim/analytic/am_internal.h"

#include <stdlib.h>
#include <string.h>

/* Slot for key in a table of cap (a power of two) slots. */
static uint64_t slot_of(const mg_am_share *c, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    uint64_t i = (h >> 17) & (c->cap - 1);
    while (c->key[i] && c->key[i] != key) i = (i + 1) & (c->cap - 1);
    return i;
}

/* Double the table.  0, or -1 out of memory. */
static int grow(mg_am_share *c)
{
    mg_am_share n = *c;
    n.cap = c->cap ? 2 * c->cap : 1024;
    n.key = calloc(n.cap, sizeof *n.key);
    n.stamp = calloc(n.cap, sizeof *n.stamp);
    if (!n.key || !n.stamp) {
        free(n.key);
        free(n.stamp);
        return -1;
    }
    for (uint64_t i = 0; i < c->cap; i++) {
        if (!c->key[i]) continue;
        uint64_t j = slot_of(&n, c->key[i]);
        n.key[j] = c->key[i];
        n.stamp[j] = c->stamp[i];
    }
    free(c->key);
    free(c->stamp);
    *c = n;
    return 0;
}

void mg_am_share_init(mg_am_share *c, double share)
{
    memset(c, 0, sizeof *c);
    c->share = share;
}

void mg_am_share_free(mg_am_share *c)
{
    free(c->key);
    free(c->stamp);
    memset(c, 0, sizeof *c);
}

int mg_am_share_touch(mg_am_share *c, int tensor, uint64_t line)
{
    if (2 * (c->used + 1) > c->cap && grow(c)) return -1;
    int fetch = 1;
    uint64_t key = ((uint64_t)(tensor + 1) << 56) ^ (line + 1);
    uint64_t i = slot_of(c, key);
    if (!c->key[i]) {
        c->key[i] = key;
        c->used++;
        c->distinct[tensor]++;
    } else if ((double)(c->fetched - c->stamp[i]) < c->share) {
        fetch = 0;                  /* still in the warp's share */
    }
    if (fetch) {
        c->fetches[tensor]++;
        c->fetched++;
    }
    c->stamp[i] = c->fetched;
    return fetch;
}
