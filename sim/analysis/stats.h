/*
 * stats.h - accuracy and rank-agreement statistics of predictions against
 * measurements (`mgsim validate`).  Pure functions over two parallel
 * arrays: p[i] the prediction and m[i] the measurement of item i.  No
 * allocation beyond what a call frees before returning; NaN when a
 * statistic is undefined (too few items, zero variance, a non-positive
 * value where a ratio or a logarithm needs a positive one).
 *
 * Definitions (every one unit-tested against hand-computed values in
 * tests/unit/test_stats.c, ties included):
 *
 *   MAPE            mean over i of |p - m| / m                  (m > 0)
 *   aggregate error sum p / sum m - 1: a signed total-time error
 *   Pearson r       covariance / (sd_p sd_m), on the values or on their
 *                   natural logarithms (mg_stats_pearson_log)
 *   Spearman rho    Pearson r of the ranks, tied values sharing their
 *                   average rank (1-based)
 *   Kendall tau-b   (C - D) / sqrt((n0 - n1)(n0 - n2)), n0 = n(n-1)/2, C and
 *                   D the concordant and discordant pairs, n1 and n2 the
 *                   pairs tied in p and in m: a pair tied in either counts
 *                   as neither concordant nor discordant
 *   top-1 regret    m[j] / min m - 1, j the item with the smallest p (the
 *                   lowest index among items tied at the smallest p): how
 *                   much slower the model's pick is than the measured best
 *   top-k recall    |{k smallest m} & {k smallest p}| / k, k = min(k, n);
 *                   ties broken by index, so the sets are always k items
 */
#ifndef MG_STATS_H
#define MG_STATS_H

#include <stddef.h>

double mg_stats_mape(const double *p, const double *m, size_t n);
double mg_stats_aggregate(const double *p, const double *m, size_t n);
double mg_stats_pearson(const double *x, const double *y, size_t n);
double mg_stats_pearson_log(const double *x, const double *y, size_t n);
double mg_stats_spearman(const double *x, const double *y, size_t n);
double mg_stats_kendall_b(const double *x, const double *y, size_t n);
double mg_stats_top1_regret(const double *p, const double *m, size_t n);
double mg_stats_topk_recall(const double *p, const double *m, size_t n, size_t k);

/* Average ranks (1-based; ties share the mean of their ranks) of x into
 * r.  Returns 0, or -1 when out of memory. */
int mg_stats_ranks(const double *x, size_t n, double *r);

/* Median of x (sorted copy; the mean of the middle two for even n); NaN
 * for n == 0. */
double mg_stats_median(const double *x, size_t n);

#endif
