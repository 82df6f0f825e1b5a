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

/* Renumber the reads that are some line's last 0, 1, ... in their order
 * (distances stay the same), in arrays of room for 4 x the lines, at
 * least 4096 (grown when they hold less; in place otherwise), the tree
 * rebuilt from their weights: the arrays stay a few times the distinct
 * lines however many reads there were.  0, or -1 out of memory. */
static int renumber(mg_am_share *c)
{
    uint64_t cap = 4 * c->used > 4096 ? 4 * c->used : 4096;
    if (cap > c->tcap) {
        double *w = realloc(c->w, cap * sizeof *w);
        if (w) c->w = w;
        double *tree = realloc(c->tree, cap * sizeof *tree);
        if (tree) c->tree = tree;
        uint64_t *who = realloc(c->who, cap * sizeof *who);
        if (who) c->who = who;
        if (!w || !tree || !who) return -1;
        memset(c->w + c->tcap, 0, (cap - c->tcap) * sizeof *w);
        memset(c->who + c->tcap, 0, (cap - c->tcap) * sizeof *who);
        c->tcap = cap;
    }
    uint64_t n = 0;
    for (uint64_t t = 0; t < c->now; t++) {            /* n <= t: moves go down */
        if (!c->who[t]) continue;
        c->w[n] = c->w[t];
        c->who[n] = c->who[t];
        c->last[slot_of(c, c->who[n])] = n + 1;
        n++;
    }
    memset(c->w + n, 0, (c->tcap - n) * sizeof *c->w);
    memset(c->who + n, 0, (c->tcap - n) * sizeof *c->who);
    c->now = n;
    memcpy(c->tree, c->w, c->tcap * sizeof *c->tree);
    for (uint64_t i = 1; i <= c->tcap; i++) {          /* O(n) build */
        uint64_t j = i + (i & (~i + 1));
        if (j <= c->tcap) c->tree[j - 1] += c->tree[i - 1];
    }
    return 0;
}

void mg_am_share_free(mg_am_share *c)
{
    free(c->key);
    free(c->last);
    free(c->w);
    free(c->tree);
    free(c->who);
    free(c->hit);
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

/* The chance of a hit at whole distance d (sets > 1). */
static double hit_at(const mg_am_share *c, double d)
{
    double others = d * c->sets * c->ways / c->share;      /* every warp's reads */
    return binom_cdf(others, 1 / c->sets, c->ways);
}

#define MAX_HIT_TABLE (1u << 20)

int mg_am_share_init(mg_am_share *c, double share, double sets, double ways)
{
    memset(c, 0, sizeof *c);
    c->share = share;
    c->sets = sets > 1 ? sets : 1;
    c->ways = ways > 1 ? ways : 1;
    if (c->sets <= 1 || share <= 0) return 0;
    uint32_t cap = 64;
    for (;;) {
        double *t = realloc(c->hit, cap * sizeof *t);
        if (!t) return -1;
        c->hit = t;
        while (c->nhit < cap) {
            c->hit[c->nhit] = hit_at(c, c->nhit);
            if (c->hit[c->nhit++] < 1e-12) return 0;
        }
        if (cap == MAX_HIT_TABLE) return 0;
        cap *= 2;
    }
}

double mg_am_share_hit(const mg_am_share *c, double dist)
{
    if (c->share <= 0) return 0;
    if (c->sets <= 1) return dist < c->share ? 1 : 0;
    if (dist < 0) dist = 0;
    double k = floor(dist);
    if (k + 1 >= (double)c->nhit) return c->nhit ? c->hit[c->nhit - 1] : 0;
    uint32_t i = (uint32_t)k;
    return c->hit[i] + (dist - k) * (c->hit[i + 1] - c->hit[i]);
}

double mg_am_share_touch(mg_am_share *c, int tensor, uint64_t line, double reach)
{
    if (2 * (c->used + 1) > c->cap && grow(c)) return -1;
    if (c->now == c->tcap && renumber(c)) return -1;
    double fetch = reach;
    uint64_t key = ((uint64_t)(tensor + 1) << 56) ^ (line + 1);
    uint64_t i = slot_of(c, key);
    if (!c->key[i]) {
        c->key[i] = key;
        c->used++;
        c->distinct[tensor]++;
    } else {
        uint64_t t0 = c->last[i] - 1;
        double dist = c->total - tree_sum(c, t0 + 1);
        fetch = reach * (1 - mg_am_share_hit(c, dist));
        c->total -= c->w[t0];
        tree_add(c, t0, -c->w[t0]);
        c->who[t0] = 0;
    }
    c->fetches[tensor] += fetch;
    tree_add(c, c->now, reach);
    c->total += reach;
    c->who[c->now] = key;
    c->last[i] = ++c->now;
    return fetch;
}
