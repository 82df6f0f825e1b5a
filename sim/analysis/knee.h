/*
 * knee.h - knee (step) detection in measured curves, shared by `mgprobe
 * run` (real devices) and the simulator's virtual probe.  No OpenCL here.
 *
 * A curve is n points (x[i], y[i]), x increasing, y > 0 the median of
 * several repetitions (mg_knee_median), optionally with each point's
 * relative noise (mg_knee_noise: 1.4826 x the median absolute deviation /
 * the median, a standard deviation that one or two disturbed repetitions
 * of five do not inflate).  The method, every threshold stated:
 *
 *  1. Work in log y, so a step is a ratio whatever the scale.
 *  2. Noise.  sigma = the larger of
 *       - the median of the points' relative noise (repetitions),
 *       - the point-to-point roughness: the lower quartile of the second
 *         differences |l[i+1] - 2 l[i] + l[i-1]| of l = log y, divided by
 *         0.3186 sqrt(6) (their quartile for normal noise), which ignores
 *         smooth trends and up to 3/4 of the points being near a step.
 *     A curve with sigma > max_noise (0.25) is "undetermined: too noisy".
 *  3. Threshold.  thr = max(log(1 + min_step), noise_k x sigma), with
 *     min_step 0.15 (a 15 % change) and noise_k 4.
 *  4. Segmentation, left to right.  A segment's level is the median of
 *     its points' log y.  Point i opens a new segment when it differs from
 *     the current level by more than thr and the next persist - 1 points
 *     (persist 2) differ in the same direction by more than thr too (they
 *     hold the new level); a lone point that does not is an outlier, left
 *     out of every level.  The last point of the curve opens a segment on
 *     its own, at lower confidence (it cannot be confirmed).
 *  5. Steps.  Consecutive segments make a step; steps in the same
 *     direction separated by a segment of fewer than persist points are
 *     one gradual transition and are merged.  Each step reports x_lo (the
 *     last x on the old level), x_hi (the first x on the new one), x_mid
 *     (where the curve crosses the geometric mean of the two levels,
 *     interpolated in log x and log y), the levels and their ratio.  (The
 *     probe's cache aspects take x_hi as a cache's size: for a cyclic
 *     chase over an LRU cache, the first footprint past its capacity.)
 *  6. Confidence of a step, in [0, 0.99]: with z = |log ratio| / thr >= 1,
 *     c = min(0.99, 0.5 + 0.25 (z - 1)), times 0.7 when the new level is
 *     a single point at the end of the curve, times 0.8 when the old level
 *     is a single point at its start.
 *
 * mg_knee_saturation answers the other question a sweep asks: where a
 * rising curve stops rising (the line size from a stride sweep): the
 * first point on the new level of the first up-step (x_hi; a rise over
 * several points is one merged step), with that step's confidence.  What
 * the curve does after (a stride sweep can fall again once few lines
 * remain) does not matter.
 *
 * mg_knee_jump is for staircases whose first step is all that matters
 * (groups that run at once): the last x before y first exceeds `factor`
 * (the caller's: 1.5 for groups) x the curve's first value; its
 * confidence is 0.9 when the point
 * after is at least 1.6 x the first value (a clear step), else 0.6.
 * Segmentation can take a staircase that steps every other point for
 * noise; this cannot.
 */
#ifndef MG_KNEE_H
#define MG_KNEE_H

#define MG_KNEE_MAX_POINTS 1024
#define MG_KNEE_MAX_SEGS   32

typedef struct mg_knee_opts {
    double min_step;       /* smallest relative change that is a step (0.15) */
    double noise_k;        /* a step also exceeds noise_k x sigma (4) */
    double max_noise;      /* sigma above this: undetermined (0.25) */
    int    persist;        /* points that must hold a new level (2) */
} mg_knee_opts;

typedef struct mg_knee_seg {
    int    first, last;    /* point indices (inclusive) */
    double level;          /* median y of its points (outliers excluded) */
} mg_knee_seg;

typedef struct mg_knee_step {
    int    i_lo, i_hi;     /* last point of the old level, first of the new */
    double x_lo, x_hi, x_mid;
    double y_before, y_after;
    double ratio;          /* y_after / y_before: > 1 up, < 1 down */
    double confidence;
} mg_knee_step;

typedef struct mg_knee_result {
    int          determined;   /* 0: too few points or too noisy (see why) */
    char         why[160];
    double       sigma;        /* the noise estimate (log units ~ relative) */
    double       thr;          /* the step threshold used (log units) */
    int          n_segs, n_steps;
    mg_knee_seg  seg[MG_KNEE_MAX_SEGS];
    mg_knee_step step[MG_KNEE_MAX_SEGS];
    int          outliers;     /* points left out as lone outliers */
} mg_knee_result;

/* The defaults stated above. */
void mg_knee_opts_default(mg_knee_opts *o);

/* Median of v[0..n-1] (n >= 1; v is not modified; 0 when n == 0). */
double mg_knee_median(const double *v, int n);

/* Relative spread of repetitions: (max - min) / median (0 when n < 2 or
 * the median is not positive). */
double mg_knee_spread(const double *v, int n);

/* Relative noise of repetitions: 1.4826 x median |v - median| / median
 * (0 when n < 2 or the median is not positive). */
double mg_knee_noise(const double *v, int n);

/* Shift between the halves of a series of repetitions in time order:
 * |median(second half) / median(first half) - 1| (0 when n < 4 or a
 * median is not positive).  A run whose conditions changed part-way
 * (clocks, another process) shows a shift its spread alone can hide. */
double mg_knee_shift(const double *v, int n);

/* Segment the curve and find its steps (method above).  noise (each
 * point's relative noise) may be NULL.  opts NULL means the defaults.  Returns 0 with *r filled (r->
 * determined may still be 0), or -1 when the input is unusable (n < 3,
 * more than MG_KNEE_MAX_POINTS, x not increasing, y not finite and
 * positive), with r->why set. */
int mg_knee_steps(const double *x, const double *y, const double *noise, int n,
                  const mg_knee_opts *opts, mg_knee_result *r);

/* The first step in direction dir (+1 up, -1 down) with confidence >=
 * min_conf, or NULL. */
const mg_knee_step *mg_knee_first(const mg_knee_result *r, int dir, double min_conf);

/* The largest step (by |log ratio|) in direction dir, or NULL. */
const mg_knee_step *mg_knee_largest(const mg_knee_result *r, int dir);

/* Saturation of a rising curve (see above): sets *x_sat and *conf;
 * returns 0, or -1 (undetermined: why in the message buffer) when there
 * is no up-step or the curve is too noisy.  why may be NULL. */
int mg_knee_saturation(const double *x, const double *y, const double *noise, int n,
                       const mg_knee_opts *opts, double *x_sat, double *conf, char *why,
                       int why_len);

/* Saturation of a noise-free rising curve (the virtual probe's, whose
 * points carry no noise, where the segmentation's roughness estimate would
 * read a deterministic curve's bends as noise): m = the first point of the
 * curve's maximum; *x_sat = the first x[i], i <= m, with y[i] >= y[m] /
 * (1 + tol), provided the point after it is within 2 tol of the maximum
 * too (a level, not a blip; past the line a stride sweep may start to fall
 * slowly, as fewer lines are touched).  Returns 0, or -1 when the curve never rises by more than tol
 * above y[0] (flat or falling), when the level does not hold, or n < 2. */
int mg_knee_saturation_exact(const double *x, const double *y, int n, double tol,
                             double *x_sat);

/* The first jump (see above): sets *x_last and *conf and returns 0, or
 * -1 when y never exceeds factor x y[0] (no jump) or n < 2. */
int mg_knee_jump(const double *x, const double *y, int n, double factor, double *x_last,
                 double *conf);

#endif
