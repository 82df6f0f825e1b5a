/* test_knee.c - knee detection (sim/analysis/knee.c) on synthetic noisy
 * curves: cache-like staircases, plateaus without a knee, gradual
 * transitions, lone outliers, falling bandwidth curves, noise too high to
 * conclude, and saturation of a stride sweep.  Noise comes from a fixed
 * PRNG, so every run sees the same curves. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sim/analysis/knee.h"
#include "tests/unit/suites.h"

static uint64_t rng_state;

/* Uniform in [-1, 1). */
static double urand(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) / 4503599627370496.0 - 1.0;
}

/* y = base * (1 + noise * u), the median of 5 such repetitions, with its
 * relative noise. */
static void noisy(double base, double noise, double *y, double *spread)
{
    double r[5];
    for (int k = 0; k < 5; k++) r[k] = base * (1 + noise * urand());
    *y = mg_knee_median(r, 5);
    *spread = mg_knee_noise(r, 5);
}

/* A pointer-chase-like curve: x = 1 KiB .. 64 MiB in quarter octaves,
 * latency 2 up to 32 KiB, 5 up to 512 KiB, 20 beyond. */
static int cache_curve(double *x, double *y, double *sp, double noise)
{
    int n = 0;
    for (int k = 0; k <= 4 * 16; k++) {
        x[n] = 1024 * pow(2, k / 4.0);
        double base = x[n] <= 32768 ? 2 : x[n] <= 524288 ? 5 : 20;
        noisy(base, noise, &y[n], &sp[n]);
        n++;
    }
    return n;
}

static void test_median_spread(void)
{
    double v[] = {5, 1, 4, 2, 3};
    CU_ASSERT_DOUBLE_EQUAL(mg_knee_median(v, 5), 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(mg_knee_median(v, 4), 3, 1e-12);   /* 1 2 4 5 */
    CU_ASSERT_DOUBLE_EQUAL(mg_knee_spread(v, 5), 4.0 / 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(mg_knee_spread(v, 1), 0, 1e-12);
    /* MAD of 1 2 3 4 5 around 3 is 1 */
    CU_ASSERT_DOUBLE_EQUAL(mg_knee_noise(v, 5), 1.4826 / 3, 1e-12);
    double w[] = {10, 10, 10, 10, 40};                          /* one disturbed repetition */
    CU_ASSERT_DOUBLE_EQUAL(mg_knee_noise(w, 5), 0, 1e-12);
    CU_ASSERT_EQUAL(v[0], 5);                                   /* not sorted in place */
}

/* A run that slows part-way shifts; one outlier or noise around a level
 * does not. */
static void test_shift(void)
{
    double step[] = {35, 35, 36, 35, 35, 53, 54, 53, 54, 53};
    CU_ASSERT_DOUBLE_EQUAL(mg_knee_shift(step, 10), 53.0 / 35 - 1, 1e-12);
    double flat[] = {10, 11, 10, 40, 11, 11, 10, 11, 10, 11};
    CU_ASSERT_DOUBLE_EQUAL(mg_knee_shift(flat, 10), 0, 1e-12);
    double faster[] = {20, 20, 10, 10};
    CU_ASSERT_DOUBLE_EQUAL(mg_knee_shift(faster, 4), 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(mg_knee_shift(step, 3), 0, 1e-12);   /* too few */
    double zero[] = {0, 0, 1, 1};
    CU_ASSERT_DOUBLE_EQUAL(mg_knee_shift(zero, 4), 0, 1e-12);
}

static void test_staircase(void)
{
    double x[80], y[80], sp[80];
    rng_state = 1;
    int n = cache_curve(x, y, sp, 0.03);
    mg_knee_result r;
    CU_ASSERT_EQUAL_FATAL(mg_knee_steps(x, y, sp, n, NULL, &r), 0);
    CU_ASSERT_TRUE(r.determined);
    CU_ASSERT_EQUAL_FATAL(r.n_steps, 2);
    CU_ASSERT_DOUBLE_EQUAL(r.step[0].x_lo, 32768, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.step[1].x_lo, 524288, 1);
    /* the size estimate lies between the last point on the old level and
     * the first on the new one */
    CU_ASSERT_TRUE(r.step[0].x_mid > 32768 && r.step[0].x_mid < 32768 * 1.19);
    CU_ASSERT_DOUBLE_EQUAL(r.step[0].ratio, 2.5, 0.2);
    CU_ASSERT_DOUBLE_EQUAL(r.step[1].ratio, 4, 0.3);
    CU_ASSERT_TRUE(r.step[0].confidence > 0.9);
    CU_ASSERT_PTR_EQUAL(mg_knee_first(&r, 1, 0.5), &r.step[0]);
    CU_ASSERT_PTR_EQUAL(mg_knee_largest(&r, 1), &r.step[1]);
    CU_ASSERT_PTR_NULL(mg_knee_first(&r, -1, 0));
}

/* Many seeds, 5% noise: the two knees are always found at the right x. */
static void test_staircase_seeds(void)
{
    double x[80], y[80], sp[80];
    int ok = 0;
    for (uint64_t seed = 1; seed <= 50; seed++) {
        rng_state = seed * 7919;
        int n = cache_curve(x, y, sp, 0.05);
        mg_knee_result r;
        if (mg_knee_steps(x, y, sp, n, NULL, &r)) continue;
        ok += r.n_steps == 2 && fabs(r.step[0].x_lo - 32768) < 1 &&
              fabs(r.step[1].x_lo - 524288) < 1;
    }
    CU_ASSERT_EQUAL(ok, 50);
}

static void test_plateau_no_knee(void)
{
    double x[40], y[40], sp[40];
    rng_state = 3;
    for (int i = 0; i < 40; i++) {
        x[i] = i + 1;
        noisy(100, 0.04, &y[i], &sp[i]);
    }
    mg_knee_result r;
    CU_ASSERT_EQUAL_FATAL(mg_knee_steps(x, y, sp, 40, NULL, &r), 0);
    CU_ASSERT_TRUE(r.determined);
    CU_ASSERT_EQUAL(r.n_steps, 0);
    CU_ASSERT_EQUAL(r.n_segs, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.seg[0].level, 100, 3);
}

/* A slow drift of 10% over the whole curve is no knee. */
static void test_drift_no_knee(void)
{
    double x[30], y[30];
    for (int i = 0; i < 30; i++) {
        x[i] = i + 1;
        y[i] = 50 * (1 + 0.1 * i / 29.0);
    }
    mg_knee_result r;
    CU_ASSERT_EQUAL_FATAL(mg_knee_steps(x, y, NULL, 30, NULL, &r), 0);
    CU_ASSERT_EQUAL(r.n_steps, 0);
}

/* A level that drifts up by 30 % over many points (TLB reach inside an
 * H100 L1) stays one level under a 35 % least step (the cache aspects');
 * the sharp step after it is the knee. */
static void test_drift_then_step(void)
{
    double x[24], y[24];
    for (int i = 0; i < 24; i++) {
        x[i] = 1024 * pow(2, i / 4.0);
        y[i] = i < 16 ? 20 * (1 + 0.3 * i / 15.0) : 140;
    }
    mg_knee_opts o;
    mg_knee_opts_default(&o);
    o.min_step = 0.35;
    mg_knee_result r;
    CU_ASSERT_EQUAL_FATAL(mg_knee_steps(x, y, NULL, 24, &o, &r), 0);
    CU_ASSERT_EQUAL_FATAL(r.n_steps, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.step[0].x_hi, x[16], 1e-6);
}

static void test_too_noisy(void)
{
    double x[30], y[30], sp[30];
    rng_state = 11;
    for (int i = 0; i < 30; i++) {
        x[i] = i + 1;
        noisy(i < 15 ? 10 : 13, 0.9, &y[i], &sp[i]);
    }
    mg_knee_result r;
    CU_ASSERT_EQUAL_FATAL(mg_knee_steps(x, y, sp, 30, NULL, &r), 0);
    CU_ASSERT_FALSE(r.determined);
    CU_ASSERT_EQUAL(r.n_steps, 0);
    CU_ASSERT_TRUE(strstr(r.why, "too noisy") != NULL);
}

/* One spike is an outlier, not two steps. */
static void test_outlier(void)
{
    double x[20], y[20];
    for (int i = 0; i < 20; i++) {
        x[i] = i + 1;
        y[i] = i < 12 ? 10 : 30;
    }
    y[5] = 25;
    mg_knee_result r;
    CU_ASSERT_EQUAL_FATAL(mg_knee_steps(x, y, NULL, 20, NULL, &r), 0);
    CU_ASSERT_EQUAL_FATAL(r.n_steps, 1);
    CU_ASSERT_EQUAL(r.outliers, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.step[0].x_lo, 12, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r.step[0].x_hi, 13, 1e-9);
}

/* A transition spread over three points is one step, its middle at the
 * geometric mean of the levels. */
static void test_gradual(void)
{
    double x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    double y[] = {10, 10, 10, 10, 14, 20, 28, 40, 40, 40};
    mg_knee_result r;
    CU_ASSERT_EQUAL_FATAL(mg_knee_steps(x, y, NULL, 10, NULL, &r), 0);
    CU_ASSERT_EQUAL_FATAL(r.n_steps, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.step[0].x_lo, 4, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r.step[0].x_hi, 8, 1e-9);
    CU_ASSERT_TRUE(r.step[0].x_mid > 5.5 && r.step[0].x_mid < 6.5);
    CU_ASSERT_DOUBLE_EQUAL(r.step[0].ratio, 4, 0.01);
}

/* Bandwidth falls as the footprint leaves a cache. */
static void test_falling(void)
{
    double x[24], y[24], sp[24];
    rng_state = 5;
    for (int i = 0; i < 24; i++) {
        x[i] = 4096.0 * (1 << i / 2) * (i % 2 ? 1.5 : 1);
        noisy(x[i] <= 262144 ? 190 : 95, 0.03, &y[i], &sp[i]);
    }
    mg_knee_result r;
    CU_ASSERT_EQUAL_FATAL(mg_knee_steps(x, y, sp, 24, NULL, &r), 0);
    CU_ASSERT_EQUAL_FATAL(r.n_steps, 1);
    CU_ASSERT_TRUE(r.step[0].ratio < 0.6);
    CU_ASSERT_DOUBLE_EQUAL(r.step[0].x_lo, 262144, 1);
    CU_ASSERT_PTR_NOT_NULL(mg_knee_first(&r, -1, 0.9));
    CU_ASSERT_PTR_NULL(mg_knee_first(&r, 1, 0));
}

/* A step at the very last point counts, at lower confidence. */
static void test_last_point(void)
{
    double x[] = {1, 2, 3, 4, 5, 6, 7, 8};
    double y[] = {5, 5, 5, 5, 5, 5, 5, 20};
    mg_knee_result r;
    CU_ASSERT_EQUAL_FATAL(mg_knee_steps(x, y, NULL, 8, NULL, &r), 0);
    CU_ASSERT_EQUAL_FATAL(r.n_steps, 1);
    CU_ASSERT_TRUE(r.step[0].confidence <= 0.7);
    CU_ASSERT_DOUBLE_EQUAL(r.step[0].x_lo, 7, 1e-9);
}

/* Warp-size staircase: time doubles every 32 items. */
static void test_warp_staircase(void)
{
    double x[48], y[48], sp[48];
    rng_state = 9;
    int n = 0;
    for (int it = 4; it <= 192; it += 4) {
        x[n] = it;
        noisy((it + 31) / 32, 0.02, &y[n], &sp[n]);
        n++;
    }
    mg_knee_result r;
    CU_ASSERT_EQUAL_FATAL(mg_knee_steps(x, y, sp, n, NULL, &r), 0);
    const mg_knee_step *s = mg_knee_first(&r, 1, 0.5);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_DOUBLE_EQUAL(s->x_lo, 32, 1e-9);
    CU_ASSERT_EQUAL(r.n_steps, 5);
}

static void test_bad_input(void)
{
    double x[] = {1, 2, 2, 3}, y[] = {1, 1, 1, 1}, yz[] = {1, 0, 1, 1};
    mg_knee_result r;
    CU_ASSERT_EQUAL(mg_knee_steps(x, y, NULL, 2, NULL, &r), -1);
    CU_ASSERT_EQUAL(mg_knee_steps(x, y, NULL, 4, NULL, &r), -1);
    CU_ASSERT_TRUE(strstr(r.why, "increase") != NULL);
    double x2[] = {1, 2, 3, 4};
    CU_ASSERT_EQUAL(mg_knee_steps(x2, yz, NULL, 4, NULL, &r), -1);
    CU_ASSERT_TRUE(strstr(r.why, "positive") != NULL);
}

/* Stride sweep: latency rises with the stride until the line (64 B). */
static void test_saturation(void)
{
    double x[9], y[9], sp[9];
    rng_state = 21;
    for (int i = 0; i < 9; i++) {
        x[i] = 4 << i;                                   /* 4 .. 1024 */
        double s = x[i] < 64 ? x[i] : 64;
        noisy(2 + (12 - 2) * s / 64, 0.03, &y[i], &sp[i]);
    }
    double xs, c;
    char why[160];
    CU_ASSERT_EQUAL_FATAL(mg_knee_saturation(x, y, sp, 9, NULL, &xs, &c, why, sizeof why), 0);
    CU_ASSERT_DOUBLE_EQUAL(xs, 64, 1e-9);
    CU_ASSERT_TRUE(c > 0.75);      /* the rise starts at the first point: x0.8 */
    /* a fall after the plateau (few lines left at large steps) is ignored */
    y[8] = y[7] / 3;
    CU_ASSERT_EQUAL_FATAL(mg_knee_saturation(x, y, sp, 9, NULL, &xs, &c, why, sizeof why), 0);
    CU_ASSERT_DOUBLE_EQUAL(xs, 64, 1e-9);
    /* flat: undetermined */
    for (int i = 0; i < 9; i++) noisy(7, 0.03, &y[i], &sp[i]);
    CU_ASSERT_EQUAL(mg_knee_saturation(x, y, sp, 9, NULL, &xs, &c, why, sizeof why), -1);
    CU_ASSERT_TRUE(strstr(why, "does not rise") != NULL);
}

/* Groups at once: time doubles every C groups; the first jump is C. */
static void test_jump(void)
{
    double x[] = {1, 2, 3, 4, 5, 6, 8}, y[] = {100, 104, 210, 205, 330, 290, 420}, xl, c;
    CU_ASSERT_EQUAL_FATAL(mg_knee_jump(x, y, 7, 1.35, &xl, &c), 0);
    CU_ASSERT_DOUBLE_EQUAL(xl, 2, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(c, 0.9, 1e-9);
    double flat[] = {100, 101, 99, 110, 102, 100, 104};
    CU_ASSERT_EQUAL(mg_knee_jump(x, flat, 7, 1.35, &xl, &c), -1);
    double soft[] = {100, 101, 140, 150, 150, 150, 150};
    CU_ASSERT_EQUAL_FATAL(mg_knee_jump(x, soft, 7, 1.35, &xl, &c), 0);
    CU_ASSERT_DOUBLE_EQUAL(c, 0.6, 1e-9);
}

int add_knee_suite(void)
{
    CU_pSuite s = CU_add_suite("knee", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "median and spread", test_median_spread) ||
        !CU_add_test(s, "shift between halves", test_shift) ||
        !CU_add_test(s, "cache staircase", test_staircase) ||
        !CU_add_test(s, "staircase over 50 noise seeds", test_staircase_seeds) ||
        !CU_add_test(s, "plateau: no knee", test_plateau_no_knee) ||
        !CU_add_test(s, "slow drift: no knee", test_drift_no_knee) ||
        !CU_add_test(s, "drift, then a step", test_drift_then_step) ||
        !CU_add_test(s, "too noisy: undetermined", test_too_noisy) ||
        !CU_add_test(s, "lone outlier", test_outlier) ||
        !CU_add_test(s, "gradual transition", test_gradual) ||
        !CU_add_test(s, "falling bandwidth", test_falling) ||
        !CU_add_test(s, "step at the last point", test_last_point) ||
        !CU_add_test(s, "warp staircase", test_warp_staircase) ||
        !CU_add_test(s, "bad input", test_bad_input) ||
        !CU_add_test(s, "saturation", test_saturation) ||
        !CU_add_test(s, "first jump", test_jump))
        return -1;
    return 0;
}
