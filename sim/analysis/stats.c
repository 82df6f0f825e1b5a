/* stats.c - prediction accuracy and rank agreement (see stats.h). */
#include "sim/analysis/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double mg_stats_mape(const double *p, const double *m, size_t n)
{
    if (n == 0) return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(m[i] > 0)) return NAN;
        s += fabs(p[i] - m[i]) / m[i];
    }
    return s / (double)n;
}

double mg_stats_aggregate(const double *p, const double *m, size_t n)
{
    double sp = 0, sm = 0;
    for (size_t i = 0; i < n; i++) {
        sp += p[i];
        sm += m[i];
    }
    return n && sm > 0 ? sp / sm - 1 : NAN;
}

double mg_stats_pearson(const double *x, const double *y, size_t n)
{
    if (n < 2) return NAN;
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= (double)n;
    my /= (double)n;
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; i++) {
        double a = x[i] - mx, b = y[i] - my;
        sxy += a * b;
        sxx += a * a;
        syy += b * b;
    }
    if (!(sxx > 0) || !(syy > 0)) return NAN;
    return sxy / sqrt(sxx * syy);
}

double mg_stats_pearson_log(const double *x, const double *y, size_t n)
{
    if (n < 2) return NAN;
    double *lx = malloc(2 * n * sizeof *lx);
    if (!lx) return NAN;
    double *ly = lx + n, r = NAN;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0) || !(y[i] > 0)) goto out;
        lx[i] = log(x[i]);
        ly[i] = log(y[i]);
    }
    r = mg_stats_pearson(lx, ly, n);
out:
    free(lx);
    return r;
}

/* Sort indices by value, then by index (a total order: deterministic). */
typedef struct { double v; size_t i; } vi;

static int vi_cmp(const void *a, const void *b)
{
    const vi *x = a, *y = b;
    if (x->v < y->v) return -1;
    if (x->v > y->v) return 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* idx[0..n) = the indices of x, smallest value first (ties by index). */
static int order(const double *x, size_t n, size_t *idx)
{
    vi *t = malloc((n ? n : 1) * sizeof *t);
    if (!t) return -1;
    for (size_t i = 0; i < n; i++) t[i] = (vi){x[i], i};
    qsort(t, n, sizeof *t, vi_cmp);
    for (size_t i = 0; i < n; i++) idx[i] = t[i].i;
    free(t);
    return 0;
}

int mg_stats_ranks(const double *x, size_t n, double *r)
{
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    if (!idx || order(x, n, idx)) {
        free(idx);
        return -1;
    }
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && x[idx[j + 1]] == x[idx[i]]) j++;
        double avg = ((double)i + (double)j) / 2 + 1;
        for (size_t k = i; k <= j; k++) r[idx[k]] = avg;
        i = j + 1;
    }
    free(idx);
    return 0;
}

double mg_stats_spearman(const double *x, const double *y, size_t n)
{
    if (n < 2) return NAN;
    double *rx = malloc(2 * n * sizeof *rx);
    if (!rx) return NAN;
    double *ry = rx + n, r = NAN;
    if (!mg_stats_ranks(x, n, rx) && !mg_stats_ranks(y, n, ry)) r = mg_stats_pearson(rx, ry, n);
    free(rx);
    return r;
}

static int sgn(double a, double b) { return (a > b) - (a < b); }

double mg_stats_kendall_b(const double *x, const double *y, size_t n)
{
    if (n < 2) return NAN;
    double c = 0, d = 0, tx = 0, ty = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            int a = sgn(x[i], x[j]), b = sgn(y[i], y[j]);
            if (a == 0) tx++;
            if (b == 0) ty++;
            if (a && b) {
                if (a == b) c++;
                else d++;
            }
        }
    double n0 = (double)n * (double)(n - 1) / 2;
    double den = sqrt((n0 - tx) * (n0 - ty));
    return den > 0 ? (c - d) / den : NAN;
}

double mg_stats_top1_regret(const double *p, const double *m, size_t n)
{
    if (n == 0) return NAN;
    size_t pick = 0;
    double best = m[0];
    for (size_t i = 1; i < n; i++) {
        if (p[i] < p[pick]) pick = i;
        if (m[i] < best) best = m[i];
    }
    return best > 0 ? m[pick] / best - 1 : NAN;
}

double mg_stats_topk_recall(const double *p, const double *m, size_t n, size_t k)
{
    if (n == 0 || k == 0) return NAN;
    if (k > n) k = n;
    size_t *ip = malloc(2 * n * sizeof *ip);
    if (!ip) return NAN;
    size_t *im = ip + n;
    double r = NAN;
    if (!order(p, n, ip) && !order(m, n, im)) {
        size_t hit = 0;
        for (size_t a = 0; a < k; a++)
            for (size_t b = 0; b < k; b++)
                if (ip[a] == im[b]) hit++;
        r = (double)hit / (double)k;
    }
    free(ip);
    return r;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double mg_stats_median(const double *x, size_t n)
{
    if (n == 0) return NAN;
    double *t = malloc(n * sizeof *t);
    if (!t) return NAN;
    memcpy(t, x, n * sizeof *t);
    qsort(t, n, sizeof *t, dbl_cmp);
    double r = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    free(t);
    return r;
}
