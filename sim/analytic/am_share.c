/*
 * am_share.c - the analytical model's cache shares (am_internal.h): the
 * walked warp's reads of a cache's lines against its share of the cache,
 * the cache's lines divided by the warps that use it at once (TMModel's
 * warp-level capacity argument, eq. 3, applied line by line: an L1 over
 * the warps resident on its SP, the L2 over those on the GPU).  A read of
 * a line is fetched again with the chance that the cache evicted it since
 * its last read, from its LRU stack distance (the distinct lines read
 * meanwhile) and the cache's sets and ways (sim/MODEL.md, "The analytical
 * model").
 */
#include "sim/analytic/am_internal.h"

#include <math.h>
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
    n.last = calloc(n.cap, sizeof *n.last);
    if (!n.key || !n.last) {
        free(n.key);
        free(n.last);
        return -1;
    }
    for (uint64_t i = 0; i < c->cap; i++) {
        if (!c->key[i]) continue;
        uint64_t j = slot_of(&n, c->key[i]);
        n.key[j] = c->key[i];
        n.last[j] = c->last[i];
    }
    free(c->key);
    free(c->last);
    *c = n;
    return 0;
}

/* Add v at time t (0-based) of the Fenwick tree. */
static void tree_add(mg_am_share *c, uint64_t t, double v)
{
    c->w[t] += v;
    for (uint64_t i = t + 1; i <= c->tcap; i += i & (~i + 1)) c->tree[i - 1] += v;
}

/* The weights of times 0 .. t-1. */
static double tree_sum(const mg_am_share *c, uint64_t t)
{
    double s = 0;
    for (uint64_t i = t; i > 0; i -= i & (~i + 1)) s += c->tree[i - 1];
    return s;
}

/* Double the time arrays, the tree rebuilt from the weights.  0, or -1
 * out of memory. */
static int grow_time(mg_am_share *c)
{
    uint64_t cap = c->tcap ? 2 * c->tcap : 4096;
    double *w = calloc(cap, sizeof *w), *tree = calloc(cap, sizeof *tree);
    if (!w || !tree) {
        free(w);
        free(tree);
        return -1;
    }
    if (c->tcap) memcpy(w, c->w, c->tcap * sizeof *w);
    free(c->w);
    free(c->tree);
    c->w = w;
    c->tree = tree;
    c->tcap = cap;
    for (uint64_t i = 1; i <= cap; i++) {              /* O(n) build */
        tree[i - 1] += w[i - 1];
        uint64_t j = i + (i & (~i + 1));
        if (j <= cap) tree[j - 1] += tree[i - 1];
    }
    return 0;
}

void mg_am_share_init(mg_am_share *c, double share, double sets, double ways)
{
    memset(c, 0, sizeof *c);
    c->share = share;
    c->sets = sets > 1 ? sets : 1;
    c->ways = ways > 1 ? ways : 1;
}

void mg_am_share_free(mg_am_share *c)
{
    free(c->key);
    free(c->last);
    free(c->w);
    free(c->tree);
    memset(c, 0, sizeof *c);
}

/* P(X <= w - 1) for X ~ Binomial(m, p), m real (the generalised
 * coefficients; terms past m vanish), 0 < p < 1. */
static double binom_cdf(double m, double p, double w)
{
    double pmf = pow(1 - p, m), sum = 0, r = p / (1 - p);
    for (double k = 0; k < w && pmf > 0; k++) {
        sum += pmf;
        if (m - k <= 0) break;
        pmf *= (m - k) / (k + 1) * r;
    }
    return sum < 1 ? sum : 1;
}

double mg_am_share_hit(const mg_am_share *c, double dist)
{
    if (c->share <= 0) return 0;
    if (c->sets <= 1) return dist < c->share ? 1 : 0;
    double others = dist * c->sets * c->ways / c->share;   /* every warp's reads */
    return binom_cdf(others, 1 / c->sets, c->ways);
}

double mg_am_share_touch(mg_am_share *c, int tensor, uint64_t line, double reach)
{
    if (2 * (c->used + 1) > c->cap && grow(c)) return -1;
    if (c->now == c->tcap && grow_time(c)) return -1;
    double fetch = reach;
    uint64_t key = ((uint64_t)(tensor + 1) << 56) ^ (line + 1);
    uint64_t i = slot_of(c, key);
    if (!c->key[i]) {
        c->key[i] = key;
        c->used++;
        c->distinct[tensor]++;
    } else {
        uint64_t t0 = c->last[i] - 1;
        double dist = tree_sum(c, c->now) - tree_sum(c, t0 + 1);
        fetch = reach * (1 - mg_am_share_hit(c, dist));
        tree_add(c, t0, -c->w[t0]);
    }
    c->fetches[tensor] += fetch;
    tree_add(c, c->now, reach);
    c->last[i] = ++c->now;
    return fetch;
}
