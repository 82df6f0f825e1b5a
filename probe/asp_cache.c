/*
 * asp_cache.c - the cache_buffer and cache_image aspects (romou 3.1
 * "memory hierarchy", Fig 6; ArchProbe's pointer chase).
 *
 * Sizes: one work item chases a chain of 64-byte steps through a footprint
 * of R bytes, R = 1 KiB .. mgp_big_footprint (at least 256 MiB where the
 * device allows) in quarter octaves up to 64 MiB, octaves beyond (pchase order=random page=4096: a random
 * cycle that takes the footprint one 4 KiB page at a time, so neither a
 * CPU prefetcher nor the TLB fakes a cache; below 16 KiB fully random).
 * Each launch walks the whole cycle at least once (the warm-up launch
 * fills the caches), and long enough for min_ms, but at most 0.4 s (images:
 * 1 s): past that a launch covers only part of the cycle, which matters
 * only far beyond the last cache.  y = ns
 * per access (median); the knees are found on each point's minimum
 * over its repetitions, as interference only ever adds latency (on CPU
 * devices on the lower monotone envelope of those minima: knees()).  The
 * footprints are measured in an interleaved order (every 5th first), so a
 * burst of interference raises scattered points, not a stretch.  The
 * up-steps of knee.h (with a 35 % least step, not 15 %) are the cache
 * levels, up to four; each step is refined with three more footprints
 * between its last point on the old level and its first on the new, then
 * every point within x1.5 of a step is measured twice more, later, with
 * other seeds (confirmation passes: the smallest minimum counts, so one
 * burst of interference on a shared machine cannot fake or shift a step).
 * Level i's size is where half the chased lines miss (half_miss(): the
 * minimum latency crosses the middle of the plateaus around the i-th
 * step); its latency is the i-th plateau; the last plateau is memory.  A 64-byte
 * step never exceeds a line, so each level's knee sits at its capacity
 * whatever its line size.
 *
 * Line: at R = 4 x the first level whose miss at least doubles the
 * latency (x1.5 on CPUs; at least 64 KiB, under half the next level), the
 * step swept over
 * 4 .. 1024 bytes in the same paged random order: while the step is under
 * a line, several accesses of a page share each line (hits), so the time
 * rises with the step until it reaches the line and then stays flat: the
 * line is the saturation point (knee.h) of the minimum latency.
 *
 * Images (1-channel int32 texels, rows of 1024 texels): the same range
 * sweep, and the line's 2D shape: its width in bytes from the step sweep
 * along rows, its height in rows from a lattice walk (pchase stride_y) over
 * a 4096 x 4096 image: points 64 texels apart along x, lattice rows sy
 * image rows apart, sy = 1 .. 32: the walk comes back to a line one
 * lattice row (64 accesses) later while sy is under the line's height.
 */
#include "probe/aspect.h"
#include "sim/analysis/knee.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STEP MG_PPLAN_STEP         /* bytes between chased buffer elements */
#define STEP_IMG MG_PPLAN_STEP_IMG /* bytes between chased texels: 4, under a tile's width */
#define MAX_PTS 96
#define CONFIRM_PASSES 2           /* re-measurements of the points near a step */
#define LEVEL_STEP 0.35            /* a cache level changes the latency by >= 35 %:
                                      slow drifts inside a level (TLB reach, set
                                      conflicts: +35 % across the H100's L1, as
                                      segment medians) are not levels */

/* The chase's format for a footprint r (bytes) and a seed (the random
 * order); NULL when r does not fit (mg_pplan_chase). */
static const char *chase_fmt(const mgp_arun *a, int img, int64_t r, int64_t stride, int seed,
                             char *buf, size_t len)
{
    mg_pdev pd;
    mgp_pdev(a, &pd);
    if (!mg_pplan_chase(&pd, img, r, stride, buf, len)) return NULL;
    size_t at = strlen(buf);
    if (seed != 1) snprintf(buf + at, len - at, " seed=%d", seed);
    return buf;
}

/* The footprints of the range sweep, rounded so the chase is valid. */
static int ranges(const mgp_arun *a, int img, int64_t *out)
{
    const mgp_kexec_dev *x = a->dp->x;
    if (a->quick) {
        static const int64_t q[] = {4096, 16384, 65536, 262144};
        memcpy(out, q, sizeof q);
        return 4;
    }
    double top = mgp_big_footprint(a);
    if (img) top = fmin(top, (double)x->img_w * (double)x->img_h * 4);
    int n = 0;
    for (int k = 0; n < MAX_PTS; k++) {
        double v = 1024 * pow(2, k / 4.0);
        if (v > 64.0 * (1 << 20)) v = 64.0 * (1 << 20) * pow(2, k - 64);   /* octaves past 64 MiB */
        if (v > top) break;
        int64_t r = mg_pplan_chase_round(img, v);
        if (n && r <= out[n - 1]) continue;
        if (a->min_footprint > 0 && (double)r < a->min_footprint) continue;
        out[n++] = r;
    }
    return n;
}

/* The first level's size from an earlier conclusion of this aspect's run. */
static double lookup(const cJSON *conclusion, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(conclusion, key), "value");
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* The measured points of a sweep, kept sorted by x. */
typedef struct sweep {
    int    n;
    double x[MAX_PTS], y[MAX_PTS];     /* y: the minimum ns per access */
    double per;                        /* the last point's ns per access */
} sweep;

/* Measure the chase at footprint r into the curve and (when it ran) into
 * sw.  Returns 0; 1 when the point failed (noted); -1 when the aspect must
 * stop (failed first point, budget, SIGINT, hang). */
static int chase_point(mgp_arun *a, int img, int64_t r, int seed, cJSON *pts, sweep *sw)
{
    char fmt[256];
    int64_t step = img ? STEP_IMG : STEP;
    if (!chase_fmt(a, img, r, step, seed, fmt, sizeof fmt)) return 1;
    int64_t n = r / step;                           /* one cycle */
    int64_t start = n;
    double cap_ns = img ? 1.0e9 : 0.4e9;            /* one launch: 0.4 s, images 1 s */
    if (sw->per > 0) {
        start = (int64_t)fmax((double)n, ceil(1.3e6 * a->t->min_ms / sw->per));
        if (sw->per * (double)start > cap_ns) start = (int64_t)(cap_ns / sw->per);
    }
    mgp_point p;
    if (mgp_take(a, fmt, start, (int64_t)1 << 26, &p)) return -1;
    double y = p.status == MGP_TP_OK ? p.median / (double)p.scale : NAN;
    mgp_point_add(pts, (double)r, y, &p);
    if (p.status != MGP_TP_OK) {
        if (sw->n == 0) {
            mgp_fail(a, p.status == MGP_TP_SKIP ? MGP_AS_SKIPPED : MGP_AS_ERROR, "%s: %s",
                     p.schedule[0] ? p.schedule : fmt, p.msg);
            return -1;
        }
        mgp_note(a, "range %lld: %s", (long long)r, p.msg);
        return 1;
    }
    sw->per = y;
    int i = sw->n;
    while (i > 0 && sw->x[i - 1] > (double)r) {
        sw->x[i] = sw->x[i - 1];
        sw->y[i] = sw->y[i - 1];
        i--;
    }
    sw->x[i] = (double)r;
    sw->y[i] = p.min / (double)p.scale;
    sw->n++;
    return 0;
}

/* A confirmation pass: a shared machine's interference comes in bursts
 * of seconds, longer than one point's repetitions, so a burst can lift a
 * few neighbouring points and fake (or shift) a step.  Every point within
 * x1.5 of an up-step found so far is measured once more, later, with
 * another seed (another random order), and keeps the smaller of the
 * minima (interference only adds latency).  The repeats are their
 * own series in the curves ("range_sweep_confirm_seedN").  Returns the
 * number of points re-measured, or -1 when the aspect must stop. */
static int confirm_pass(mgp_arun *a, int img, int seed, sweep *sw, const mg_knee_result *r)
{
    double lo[MG_KNEE_MAX_SEGS], hi[MG_KNEE_MAX_SEGS];
    int ns = 0;
    for (int s = 0; s < r->n_steps && ns < MG_KNEE_MAX_SEGS; s++) {
        if (r->step[s].ratio <= 1) continue;
        lo[ns] = r->step[s].x_lo / 1.5;
        hi[ns++] = r->step[s].x_hi * 1.5;
    }
    if (!ns) return 0;
    char name[40];
    snprintf(name, sizeof name, "range_sweep_confirm_seed%d", seed);
    cJSON *pts = mgp_series(a, name, "footprint_bytes", "ns_per_access");
    double xs[MAX_PTS];
    int n = sw->n, done = 0;
    memcpy(xs, sw->x, sizeof xs);
    for (int i = 0; i < n && !a->budget && !a->stopped && !a->hung; i++) {
        int near = 0;
        for (int s = 0; s < ns; s++) near |= xs[i] >= lo[s] && xs[i] <= hi[s];
        if (!near) continue;
        sweep one;
        memset(&one, 0, sizeof one);
        one.per = sw->per;
        if (chase_point(a, img, (int64_t)xs[i], seed, pts, &one) < 0) return -1;
        if (one.n != 1) continue;
        for (int j = 0; j < sw->n; j++)
            if (sw->x[j] == xs[i] && one.y[0] < sw->y[j]) sw->y[j] = one.y[0];
        done++;
    }
    if (a->stopped || a->hung) return -1;
    return done;
}

/* The footprint where half the chased lines miss at step st: the minimum
 * latency first crosses the middle mid = (y_before + y_after) / 2 of the
 * plateaus around the step (a dependent chase's latency is linear in the
 * miss ratio) and the point after stays over it too (a lone high point is
 * noise); interpolated in log footprint from the point before.  For a
 * cyclic chase over an LRU cache the misses start just past the capacity
 * (a sharp step: the crossing lies between the last hit and the first
 * miss footprint); where page colours spread the transition over an
 * octave (a physically indexed cache, random pages), half the lines miss
 * near the capacity too.  Falls back on the step's first footprint on the
 * new plateau. */
static double half_miss(const sweep *sw, const double *y, const mg_knee_step *st)
{
    double mid = 0.5 * (st->y_before + st->y_after);
    for (int i = st->i_lo + 1; i <= st->i_hi && i < sw->n; i++) {
        if (y[i] <= mid || (i < st->i_hi && y[i + 1] <= mid)) continue;
        double y0 = y[i - 1], y1 = y[i];
        double t = y0 < mid && y1 > y0 ? (mid - y0) / (y1 - y0) : 1;
        return round(exp(log(sw->x[i - 1]) + t * (log(sw->x[i]) - log(sw->x[i - 1]))));
    }
    return st->x_hi;
}

/* The knees of the sweep (mg_knee_steps) on y: on CPU devices the lower
 * monotone envelope of the minima, y[i] = min over j >= i of sw->y[j];
 * elsewhere the minima themselves.  A cyclic chase's latency never falls
 * as the footprint grows, and whatever disturbs one core (a neighbour on
 * the SMT sibling, preemption, a footprint whose physical pages crowd a
 * few L2 sets) only adds latency, so the envelope is the closest curve to
 * the undisturbed one that the points allow: it drops a raised point
 * instead of letting it fake a step or lift the noise estimate until a
 * real step drowns (PoCL on this workplace's VMs: an L1 step of x1.65 lost
 * in the roughness of a raised L2 transition).  GPUs keep the raw minima:
 * their curves may dip for real.  Returns mg_knee_steps' value. */
static int knees(const mgp_arun *a, const sweep *sw, const mg_knee_opts *ko, double *y,
                 mg_knee_result *r)
{
    for (int i = sw->n - 1; i >= 0; i--)
        y[i] = a->dp->x->cpu && i + 1 < sw->n ? fmin(sw->y[i], y[i + 1]) : sw->y[i];
    return mg_knee_steps(sw->x, y, NULL, sw->n, ko, r);
}

/* Three more footprints (into pts and sw) inside every up-step of r that
 * spans more than 6%, between its last point on the old level and its
 * first on the new.  Returns how many were measured. */
static int refine_steps(mgp_arun *a, int img, const mg_knee_result *r, cJSON *pts, sweep *sw)
{
    int refined = 0;
    for (int s = 0; s < r->n_steps && !a->budget && !a->stopped && !a->hung; s++) {
        const mg_knee_step *st = &r->step[s];
        if (st->ratio <= 1 || st->confidence < 0.5 || st->x_hi / st->x_lo < 1.06) continue;
        for (int j = 1; j <= 3 && sw->n < MAX_PTS; j++) {
            double v = st->x_lo * pow(st->x_hi / st->x_lo, j / 4.0);
            int64_t rr = mg_pplan_chase_round(img, v);
            if ((double)rr <= st->x_lo || (double)rr >= st->x_hi) continue;
            int dup = 0;
            for (int i = 0; i < sw->n; i++) dup |= sw->x[i] == (double)rr;
            if (dup) continue;
            if (chase_point(a, img, rr, 1, pts, sw) < 0) break;
            refined++;
        }
    }
    return refined;
}

/* The conclusions of the final knees r of sw (ey: its envelope): the size
 * and latency of up to four levels, the memory latency and the number of
 * levels; m is how the sizes were found. */
static void conclude_levels(mgp_arun *a, const sweep *sw, const double *ey,
                            const mg_knee_result *r, const char *m)
{
    int lv = 0;
    for (int s = 0; s < r->n_steps && lv < 4; s++) {
        const mg_knee_step *st = &r->step[s];
        if (st->ratio <= 1 || st->confidence < 0.5) continue;
        double size = half_miss(sw, ey, st);
        char key[32];
        snprintf(key, sizeof key, "l%d_size", lv + 1);
        mgp_conclude(a, key, size, "bytes", st->confidence, m);
        snprintf(key, sizeof key, "l%d_latency_ns", lv + 1);
        mgp_conclude(a, key, st->y_before, "ns", st->confidence,
                     "the minimum-latency plateau below the step");
        mgp_note(a, "step %d: x%.2f, last footprint on the old level %g, first on the new %g, "
                 "half-miss crossing %.0f bytes (%.2f -> %.2f ns)", lv + 1, st->ratio, st->x_lo,
                 st->x_hi, size, st->y_before, st->y_after);
        lv++;
    }
    if (lv == 0) {
        mgp_conclude_none(a, "l1_size", "bytes", m, "the latency never stepped up over %g .. "
                          "%g bytes", sw->x[0], sw->x[sw->n - 1]);
        return;
    }
    mgp_conclude(a, "memory_latency_ns", r->seg[r->n_segs - 1].level, "ns", 0.8,
                 "the last plateau of the range sweep (minimum latency)");
    mgp_conclude(a, "levels", lv, "caches", 0.8, "up-steps of the range sweep");
}

/* Range sweep and its conclusions.  Returns 0, or -1 when the sweep ended
 * early or nothing ran.  The knees are found on each point's minimum
 * (interference only adds latency; y in the curve stays the median), then
 * every up-step gets three more footprints between its last point on the
 * old level and its first on the new, and the knees are found again;
 * then the confirmation pass (above) and the knees once more. */
static int size_sweep(mgp_arun *a, int img)
{
    int64_t rs[MAX_PTS];
    int nr = ranges(a, img, rs);
    cJSON *pts = mgp_series(a, "range_sweep", "footprint_bytes", "ns_per_access");
    sweep sw;
    memset(&sw, 0, sizeof sw);
    /* in an interleaved order (every 5th footprint, then the next 5th...):
     * a burst of interference lasting a few points raises footprints far
     * apart, not one stretch of the curve (a stretch of raised points
     * looks like a level; scattered ones are dropped by the envelope) */
    for (int k = 0; k < 5; k++)
        for (int i = k; i < nr; i += 5)
            if (chase_point(a, img, rs[i], 1, pts, &sw) < 0) goto swept;
swept:
    if (a->state != MGP_AS_RUNNING || a->stopped || a->hung) return -1;
    mg_knee_result r;
    mg_knee_opts ko;
    mg_knee_opts_default(&ko);
    ko.min_step = LEVEL_STEP;
    const char *m = "where the minimum latency over the footprint first crosses (and stays "
                    "over) the middle of the plateaus around the i-th up-step (>= x1.35): half "
                    "the chased lines miss; interpolated in log footprint, refined to 1/16 "
                    "octave, points near a step measured 3 times (random paged chase, 64-byte "
                    "steps, images 16)";
    double ey[MAX_PTS];
    if (sw.n < 3 || knees(a, &sw, &ko, ey, &r) || !r.determined) {
        mgp_conclude_none(a, "l1_size", "bytes", m, "%s", sw.n < 3 ? "too few points" : r.why);
        return 0;
    }
    int refined = refine_steps(a, img, &r, pts, &sw);
    if (a->stopped || a->hung) return -1;
    if (refined && (knees(a, &sw, &ko, ey, &r) || !r.determined)) {
        mgp_conclude_none(a, "l1_size", "bytes", m, "after refinement: %s", r.why);
        return 0;
    }
    for (int pass = 0; pass < CONFIRM_PASSES && !a->budget; pass++) {
        int confirmed = confirm_pass(a, img, 2 + pass, &sw, &r);
        if (confirmed < 0) return -1;
        if (confirmed && (knees(a, &sw, &ko, ey, &r) || !r.determined)) {
            mgp_conclude_none(a, "l1_size", "bytes", m, "after confirmation pass %d: %s",
                              pass + 1, r.why);
            return 0;
        }
    }
    conclude_levels(a, &sw, ey, &r, m);
    return 0;
}

/* Step sweep at footprint r (bytes): saturation -> line; key names it. */
static void step_sweep(mgp_arun *a, int img, int64_t r, const char *key)
{
    static const int64_t full[] = {4, 8, 16, 32, 64, 128, 256, 512, 1024};
    static const int64_t quick[] = {4, 16, 64, 256};
    const int64_t *list = a->quick ? quick : full;
    int n = a->quick ? 4 : 9;
    char name[64];
    snprintf(name, sizeof name, "step_sweep_at_%lld", (long long)r);
    cJSON *pts = mgp_series(a, name, "step_bytes", "ns_per_access");
    double xs[16], ys[16], per = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        char fmt[256];
        if (!chase_fmt(a, img, r, list[i], 1, fmt, sizeof fmt)) break;
        int64_t cyc = r / list[i];
        int64_t start = per > 0 ? (int64_t)fmax((double)cyc, ceil(1.3e6 * a->t->min_ms / per))
                                : cyc;
        mgp_point p;
        if (mgp_take(a, fmt, start, (int64_t)1 << 26, &p)) return;
        double y = p.status == MGP_TP_OK ? p.median / (double)p.scale : NAN;
        mgp_point_add(pts, (double)list[i], y, &p);
        if (p.status != MGP_TP_OK) continue;
        per = y;
        xs[k] = (double)list[i];
        ys[k++] = p.min / (double)p.scale;
    }
    double xsat, conf;
    char why[160];
    const char *m = "saturation of the minimum latency over the step between chased elements";
    if (k >= 3 && mg_knee_saturation(xs, ys, NULL, k, NULL, &xsat, &conf, why, sizeof why) == 0)
        mgp_conclude(a, key, xsat, "bytes", conf, m);
    else
        mgp_conclude_none(a, key, "bytes", m, "%s", k >= 3 ? why : "too few points");
}

/* The footprint of the line sweeps (mg_pc_line_range: 4 x the first level
 * whose miss at least doubles the latency, 1.5x on a CPU, where prefetchers
 * soften the miss; below half of the next level; 256 KiB when none). */
static int64_t line_range(mgp_arun *a)
{
    mg_ares r = mgp_ares(a);
    return mg_pc_line_range(&r, a->dp->x->cpu ? 1.5 : 2.0, 4);
}

void mgp_asp_cache_buffer(mgp_arun *a)
{
    if (size_sweep(a, 0) || a->budget) return;
    step_sweep(a, 0, line_range(a), "line_size");
}

/* Line height: a lattice walk over a 4096 x 4096 image (or the device's
 * largest), points 64 texels apart along x, lattice rows sy rows apart. */
static void height_sweep(mgp_arun *a)
{
    mg_pdev pd;
    mgp_pdev(a, &pd);
    cJSON *pts = mgp_series(a, "row_step_sweep", "lattice_row_step_rows", "ns_per_access");
    double xs[8], ys[8], per = 0;
    int k = 0;
    for (int sy = 1; sy <= (a->quick ? 8 : 32); sy *= 2) {
        char fmt[256];
        int64_t cyc;
        mg_pplan_lattice(&pd, 64, 64, sy, fmt, sizeof fmt, &cyc);
        int64_t start = per > 0 ? (int64_t)fmax((double)cyc, ceil(1.3e6 * a->t->min_ms / per))
                                : cyc;
        mgp_point p;
        if (mgp_take(a, fmt, start, (int64_t)1 << 26, &p)) return;
        double y = p.status == MGP_TP_OK ? p.median / (double)p.scale : NAN;
        mgp_point_add(pts, sy, y, &p);
        if (p.status != MGP_TP_OK) continue;
        per = y;
        xs[k] = sy;
        ys[k++] = p.min / (double)p.scale;
    }
    double xsat, conf;
    char why[160];
    const char *m = "saturation of the minimum latency over the lattice row step (linear "
                    "lattice walk)";
    if (k >= 3 && mg_knee_saturation(xs, ys, NULL, k, NULL, &xsat, &conf, why, sizeof why) == 0)
        mgp_conclude(a, "line_height_rows", xsat, "rows", conf, m);
    else
        mgp_conclude_none(a, "line_height_rows", "rows", m, "%s", k >= 3 ? why : "too few points");
}

void mgp_asp_cache_image(mgp_arun *a)
{
    if (!a->dp->x->images) {
        mgp_fail(a, MGP_AS_SKIPPED, "the device has no image support (CL_DEVICE_IMAGE_SUPPORT "
                 "is CL_FALSE)");
        return;
    }
    if (size_sweep(a, 1) || a->budget) return;
    step_sweep(a, 1, line_range(a), "line_width_bytes");
    if (a->stopped || a->hung || a->budget) return;
    height_sweep(a);
    double wb = lookup(a->conclusion, "line_width_bytes"),
           hr = lookup(a->conclusion, "line_height_rows");
    if (wb > 0 && hr > 0) {
        char shape[64];
        snprintf(shape, sizeof shape, "%gx%g", wb / 4, hr);
        mgp_conclude_str(a, "line_shape_texels", shape, 0.5, "line width / 4-byte texel x line "
                         "height");
    }
}
