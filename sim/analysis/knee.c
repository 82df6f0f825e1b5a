/* knee.c - knee detection in measured curves (see knee.h for the method). */
#include "sim/analysis/knee.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mg_knee_opts_default(mg_knee_opts *o)
{
    o->min_step = 0.15;
    o->noise_k = 4.0;
    o->max_noise = 0.25;
    o->persist = 2;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile (0..1, nearest rank below) of v[0..n-1], n >= 1. */
static double quantile(const double *v, int n, double q)
{
    double buf[MG_KNEE_MAX_POINTS];
    double *s = n <= MG_KNEE_MAX_POINTS ? buf : malloc(sizeof *s * (size_t)n);
    if (!s) return 0;
    memcpy(s, v, sizeof *s * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    double r;
    if (q == 0.5) r = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    else r = s[(int)(q * (n - 1))];
    if (s != buf) free(s);
    return r;
}

double mg_knee_median(const double *v, int n)
{
    return n > 0 ? quantile(v, n, 0.5) : 0;
}

double mg_knee_spread(const double *v, int n)
{
    if (n < 2) return 0;
    double lo = v[0], hi = v[0];
    for (int i = 1; i < n; i++) {
        if (v[i] < lo) lo = v[i];
        if (v[i] > hi) hi = v[i];
    }
    double m = mg_knee_median(v, n);
    return m > 0 ? (hi - lo) / m : 0;
}

double mg_knee_shift(const double *v, int n)
{
    if (n < 4) return 0;
    double a = mg_knee_median(v, n / 2), b = mg_knee_median(v + n / 2, n - n / 2);
    return a > 0 && b > 0 ? fabs(b / a - 1) : 0;
}

double mg_knee_noise(const double *v, int n)
{
    if (n < 2) return 0;
    double m = mg_knee_median(v, n), dev[MG_KNEE_MAX_POINTS];
    if (!(m > 0) || n > MG_KNEE_MAX_POINTS) return 0;
    for (int i = 0; i < n; i++) dev[i] = fabs(v[i] - m);
    return 1.4826 * mg_knee_median(dev, n) / m;
}

/* Check the input; fill why and return -1 when unusable. */
static int check_input(const double *x, const double *y, int n, char *why, size_t len)
{
    if (n < 3 || n > MG_KNEE_MAX_POINTS) {
        snprintf(why, len, "%d points: need 3 to %d", n, MG_KNEE_MAX_POINTS);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i]) || !(y[i] > 0)) {
            snprintf(why, len, "point %d: x and y must be finite, y positive", i);
            return -1;
        }
        if (i && !(x[i] > x[i - 1])) {
            snprintf(why, len, "point %d: x must increase", i);
            return -1;
        }
    }
    return 0;
}

/* Repetition noise: the median of the points' relative noise; 0 without. */
static double rep_noise(const double *noise, int n)
{
    return noise ? mg_knee_median(noise, n) : 0;
}

/* Point-to-point roughness from second differences (blind to smooth
 * trends): for normal noise of sigma, d2 = l[i+1] - 2 l[i] + l[i-1] is
 * normal of scale sigma sqrt(6), and the 0.25 quantile of |d2| is
 * 0.3186 sigma sqrt(6); the lower quartile keeps the estimate robust when
 * up to 3/4 of the second differences touch a step. */
static double roughness(const double *l, int n)
{
    double d[MG_KNEE_MAX_POINTS];
    for (int i = 1; i + 1 < n; i++) d[i - 1] = fabs(l[i + 1] - 2 * l[i] + l[i - 1]);
    return quantile(d, n - 2, 0.25) / (0.3186 * sqrt(6.0));
}

/* The median of l over segment s, outliers (out[i]) excluded. */
static double seg_level(const double *l, const unsigned char *out, int first, int last)
{
    double v[MG_KNEE_MAX_POINTS];
    int k = 0;
    for (int i = first; i <= last; i++)
        if (!out[i]) v[k++] = l[i];
    return k ? mg_knee_median(v, k) : l[first];
}

/* Last non-outlier index of [first, last] (first when all are). */
static int last_kept(const unsigned char *out, int first, int last)
{
    for (int i = last; i > first; i--)
        if (!out[i]) return i;
    return first;
}

/* Where the log curve crosses m between points a and b (non-outliers),
 * interpolated in log x; the geometric mean of x[a], x[b] as a fallback. */
static double crossing(const double *x, const double *l, const unsigned char *out, int a, int b,
                       double m)
{
    int p = a;
    for (int q = a + 1; q <= b; q++) {
        if (out[q]) continue;
        if ((l[p] - m) * (l[q] - m) <= 0 && l[q] != l[p]) {
            double t = (m - l[p]) / (l[q] - l[p]);
            return exp(log(x[p]) + t * (log(x[q]) - log(x[p])));
        }
        p = q;
    }
    return sqrt(x[a] * x[b]);
}

/* Segmentation (step 4).  Returns the number of segments. */
static int segment(const double *l, int n, double thr, int persist, unsigned char *out,
                   mg_knee_seg *seg, int *ends_alone)
{
    int ns = 0;
    seg[0].first = 0;
    seg[0].last = 0;
    double level = l[0];
    *ends_alone = 0;
    int i = 1;
    while (i < n) {
        double d = l[i] - level;
        if (fabs(d) <= thr) {
            seg[ns].last = i;
            level = seg_level(l, out, seg[ns].first, i);
            i++;
            continue;
        }
        int dir = d > 0 ? 1 : -1, ok = 1, end = i + persist - 1;
        for (int j = i + 1; j <= end && j < n; j++)
            if (!(dir * (l[j] - level) > thr)) ok = 0;
        if (!ok) {                         /* a lone outlier */
            out[i] = 1;
            seg[ns].last = i;
            i++;
            continue;
        }
        if (ns + 1 >= MG_KNEE_MAX_SEGS) break;
        ns++;
        seg[ns].first = i;
        seg[ns].last = end < n ? end : n - 1;
        if (end >= n) *ends_alone = 1;
        level = seg_level(l, out, seg[ns].first, seg[ns].last);
        i = seg[ns].last + 1;
    }
    return ns + 1;
}

/* Merge gradual transitions: drop a short middle segment (at most
 * persist points) that is itself a ramp in the direction of the steps on
 * both sides.  The segments kept, by index into seg, go to keep; returns
 * how many. */
static int merge_ramps(const mg_knee_seg *seg, int ns, const double *l, const unsigned char *out,
                       int persist, double thr, int *keep)
{
    int nk = 0;
    for (int s = 0; s < ns; s++) {
        if (nk >= 2 && s < ns) {
            const mg_knee_seg *a = &seg[keep[nk - 2]], *m = &seg[keep[nk - 1]], *b = &seg[s];
            int d1 = m->level > a->level ? 1 : -1, d2 = b->level > m->level ? 1 : -1;
            double span = l[last_kept(out, m->first, m->last)] - l[m->first];
            if (d1 == d2 && m->last - m->first + 1 <= persist && d1 * span > thr / 2) {
                /* drop the middle segment: its points belong to the transition */
                keep[nk - 1] = s;
                continue;
            }
        }
        keep[nk++] = s;
    }
    return nk;
}

/* The step from segment a to segment b (levels in log): the last point on
 * the old level and the first on the new, within thr of the levels (a
 * merged transition's middle points are on neither), the ratio, the
 * midpoint crossing; the confidence before the caller's discounts. */
static void make_step(const double *x, const double *l, const unsigned char *out, double thr,
                      const mg_knee_seg *a, const mg_knee_seg *b, mg_knee_step *st)
{
    int lo = last_kept(out, a->first, a->last), hi = b->first;
    for (int j = a->last + 1; j <= b->last; j++)
        if (!out[j] && fabs(l[j] - b->level) <= thr) {
            hi = j;
            break;
        }
    for (int j = lo; j >= a->first; j--)
        if (!out[j] && fabs(l[j] - a->level) <= thr) {
            lo = j;
            break;
        }
    st->i_lo = lo;
    st->i_hi = hi;
    st->x_lo = x[st->i_lo];
    st->x_hi = x[st->i_hi];
    st->y_before = exp(a->level);
    st->y_after = exp(b->level);
    st->ratio = st->y_after / st->y_before;
    st->x_mid = crossing(x, l, out, st->i_lo, st->i_hi, 0.5 * (a->level + b->level));
    double z = fabs(b->level - a->level) / thr;
    st->confidence = fmin(0.99, 0.5 + 0.25 * (z - 1));
}

int mg_knee_steps(const double *x, const double *y, const double *noise, int n,
                  const mg_knee_opts *opts, mg_knee_result *r)
{
    mg_knee_opts o;
    if (opts) o = *opts;
    else mg_knee_opts_default(&o);
    if (o.persist < 1) o.persist = 1;
    memset(r, 0, sizeof *r);
    if (check_input(x, y, n, r->why, sizeof r->why)) return -1;
    double l[MG_KNEE_MAX_POINTS];
    unsigned char out[MG_KNEE_MAX_POINTS];
    memset(out, 0, sizeof out);
    for (int i = 0; i < n; i++) l[i] = log(y[i]);
    double s_rep = rep_noise(noise, n), s_curve = roughness(l, n);
    r->sigma = s_rep > s_curve ? s_rep : s_curve;
    r->thr = fmax(log(1 + o.min_step), o.noise_k * r->sigma);
    if (r->sigma > o.max_noise) {
        snprintf(r->why, sizeof r->why, "too noisy: noise %.0f%% > %.0f%%", 100 * r->sigma,
                 100 * o.max_noise);
        return 0;
    }
    int ends_alone;
    mg_knee_seg seg[MG_KNEE_MAX_SEGS];
    int ns = segment(l, n, r->thr, o.persist, out, seg, &ends_alone);
    for (int i = 0; i < n; i++) r->outliers += out[i];
    for (int s = 0; s < ns; s++) seg[s].level = seg_level(l, out, seg[s].first, seg[s].last);
    int keep[MG_KNEE_MAX_SEGS];
    int nk = merge_ramps(seg, ns, l, out, o.persist, r->thr, keep);
    r->n_segs = nk;
    for (int k = 0; k < nk; k++) {
        r->seg[k] = seg[keep[k]];
        r->seg[k].level = exp(seg[keep[k]].level);
    }
    for (int k = 0; k + 1 < nk; k++) {
        const mg_knee_seg *a = &seg[keep[k]], *b = &seg[keep[k + 1]];
        mg_knee_step *st = &r->step[r->n_steps++];
        make_step(x, l, out, r->thr, a, b, st);
        /* less sure of a step to a last point alone, or from a first alone */
        if (k + 2 == nk && ends_alone && b->last == n - 1 && b->first == n - 1)
            st->confidence *= 0.7;
        if (k == 0 && a->last == 0) st->confidence *= 0.8;
    }
    r->determined = 1;
    return 0;
}

const mg_knee_step *mg_knee_first(const mg_knee_result *r, int dir, double min_conf)
{
    for (int k = 0; k < r->n_steps; k++) {
        const mg_knee_step *s = &r->step[k];
        if ((dir > 0) == (s->ratio > 1) && s->confidence >= min_conf) return s;
    }
    return NULL;
}

const mg_knee_step *mg_knee_largest(const mg_knee_result *r, int dir)
{
    const mg_knee_step *best = NULL;
    for (int k = 0; k < r->n_steps; k++) {
        const mg_knee_step *s = &r->step[k];
        if ((dir > 0) != (s->ratio > 1)) continue;
        if (!best || fabs(log(s->ratio)) > fabs(log(best->ratio))) best = s;
    }
    return best;
}

int mg_knee_saturation(const double *x, const double *y, const double *noise, int n,
                       const mg_knee_opts *opts, double *x_sat, double *conf, char *why,
                       int why_len)
{
    char tmp[160];
    if (!why || why_len <= 0) {
        why = tmp;
        why_len = sizeof tmp;
    }
    why[0] = '\0';
    *x_sat = 0;
    *conf = 0;
    mg_knee_result r;
    if (mg_knee_steps(x, y, noise, n, opts, &r)) {
        snprintf(why, (size_t)why_len, "%s", r.why);
        return -1;
    }
    if (!r.determined) {
        snprintf(why, (size_t)why_len, "%s", r.why);
        return -1;
    }
    const mg_knee_step *s = mg_knee_first(&r, 1, 0.5);
    if (!s) {
        snprintf(why, (size_t)why_len, "the curve does not rise (no up-step of more than "
                 "%.0f%%)", 100 * (exp(r.thr) - 1));
        return -1;
    }
    *x_sat = s->x_hi;
    *conf = s->confidence;
    return 0;
}

int mg_knee_saturation_exact(const double *x, const double *y, int n, double tol,
                             double *x_sat)
{
    *x_sat = 0;
    if (n < 2) return -1;
    int m = 0;
    for (int i = 1; i < n; i++)
        if (y[i] > y[m]) m = i;
    if (!(y[m] > y[0] * (1 + tol))) return -1;
    int i = 0;
    while (y[i] < y[m] / (1 + tol)) i++;
    if (i + 1 >= n || y[i + 1] < y[m] / (1 + 2 * tol)) return -1;   /* a blip, not a level */
    *x_sat = x[i];
    return 0;
}

int mg_knee_jump(const double *x, const double *y, int n, double factor, double *x_last,
                 double *conf)
{
    *x_last = 0;
    *conf = 0;
    if (n < 2 || !(y[0] > 0)) return -1;
    for (int i = 1; i < n; i++) {
        if (y[i] <= factor * y[0]) continue;
        *x_last = x[i - 1];
        *conf = y[i] >= 1.6 * y[0] ? 0.9 : 0.6;
        return 0;
    }
    return -1;
}
