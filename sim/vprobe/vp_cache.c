/*
 * vp_cache.c - the virtual cache_buffer and cache_image aspects: mgprobe's
 * pointer chases (asp_cache.c, mg_pplan_chase) through the model.
 *
 * Sizes: buffers: mgprobe's random paged chase (64-byte steps); images:
 * a random chase in 8 x 8 texel blocks (mg_pplan_chase_blocks, 16-byte
 * steps), so each 2D tile's accesses come together and the tiles cycle
 * like a buffer's lines (mgprobe's row-paged image chase touches a tile
 * from several rows at random times, which smears a 2D-tiled cache's
 * step).  Footprints 256 B x 2^k up to 4 x the reported global cache (the
 * L2; buffers), or until the first level is established two octaves past
 * its step (images: their L2 is the buffers').  y = ns per access after
 * one whole cycle (the warm-up).  The up-steps of knee.h are the levels,
 * at a 3 % least step (mgprobe takes 35 % against drifts a real device has
 * and the model has not: the model has no noise, and a level's step is
 * only the share of accesses that miss, 1 / (accesses per line), which is
 * 1/4 for a 4x4 tile read 4 texels at a time).  A level's size is the end
 * of the plateau before its step: the largest footprint whose latency
 * stays within FLAT (1e-6) of the plateau's last point, bisected to the
 * chase's granule.  The model's sets share a contiguous footprint out
 * evenly (mg_cache_set: low bits XOR a hash of the rest), so a footprint
 * of the cache's size hits throughout and one granule more overflows a
 * few sets: exact for set-associative caches as for fully associative
 * ones.  Whole chase cycles are timed (chase_point), so that the plateau
 * is flat to the last bit.
 *
 * Line: mgprobe's stride sweep at 8 x the first level (mgprobe: 4; below
 * half the next; at least 64 KiB; at 4 x the lines a step of twice the
 * line still touches can fit the L1 again, which ends the plateau the
 * saturation needs): the saturation of the latency over the step
 * (knee.h's noise-free saturation);
 * images at 16 x the first level (a step of a row reads a texel per row),
 * in rows of 64 texels, one row per page (a row's tiles together,
 * their other rows much later), steps 4 .. 256 bytes.  Image line height:
 * a lattice walk with at most a quarter of the L1's lines (at most 32) per
 * lattice row, 68 texels apart (power-of-two spacings alias in hashed
 * sets), sy = 1 .. 16 rows, a walk that fits 1/16 of the L2, warmed by
 * one whole walk: the saturation of the latency (knee.h's noise-free
 * saturation: the first point within 3 % of the maximum).  A sweep flat
 * at the level-1 miss latency (every step misses) means one texel wide, or
 * one row high.
 */
#include "sim/vprobe/vp.h"
#include "sim/analysis/knee.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXP 96
#define FIRST 256                      /* the smallest footprint, bytes */
#define ROW_W 64                       /* texels per row of the image line sweep */
#define LATTICE_DX 68                  /* texels between lattice points */
#define LINE_TIMES 8                   /* line sweeps at 8 x level 1 (mgprobe: 4) */
#define LINE_TIMES_IMG 16               /* images: 16 x (see step_sweep's caller) */
#define LEVEL_STEP 0.03                /* least step of a cache level (see above) */
#define FLAT 1e-6                      /* relative rise that leaves a plateau (see above) */

/* knee.h's options for the model's curves: a LEVEL_STEP least step and no
 * noise term (the model has no noise; knee.h's roughness estimate would
 * read a deterministic curve's bends as noise). */
static const mg_knee_opts *level_opts(void)
{
    static mg_knee_opts o;
    mg_knee_opts_default(&o);
    o.min_step = LEVEL_STEP;
    o.noise_k = 0;
    o.max_noise = 1e30;
    return &o;
}

typedef struct csweep {
    cJSON *pts;
    int    n;
    double x[MAXP], y[MAXP];
} csweep;

/* The footprint granule at v: buffers as mgprobe rounds them (64 bytes
 * below 16 KiB, 4 KiB pages above); images one block page. */
static int64_t vquantum(const mg_vp *v, int img, double x)
{
    if (!img) return mg_pplan_chase_quantum(0, x);
    int64_t q = 0;
    char fmt[256];
    mg_pplan_chase_blocks(&v->pd, (int64_t)x, MG_PPLAN_STEP_IMG, fmt, sizeof fmt, &q);
    return q;
}

static int64_t vround(const mg_vp *v, int img, double x)
{
    return mg_pplan_round_to(x, vquantum(v, img, x));
}

/* Measure the chase at footprint r into the curve and sw (sorted by x):
 * one cycle of warm-up and 64 accesses more (so the cold cycle's last
 * misses are not what ends the shorter run), then whole cycles timed (one;
 * as many as reach 256 accesses): a part of a cycle would start and end
 * inside the random order of a page's accesses, and whether a line's first
 * access falls inside shifts the count of misses timed by one or two, a
 * wiggle (1/2048 of the misses at a 4096-access window: 5e-4 on the
 * H100's L2 plateau) as large as the step a few sets overflowing makes.
 * Returns 0; 1 when the point failed (noted) or does not fit; -1 when the
 * aspect must stop. */
static int chase_point(mg_vp *v, int img, int64_t r, csweep *sw, double *y)
{
    char fmt[256];
    int64_t step = img ? MG_PPLAN_STEP_IMG : MG_PPLAN_STEP;
    if (!(img ? mg_pplan_chase_blocks(&v->pd, r, step, fmt, sizeof fmt, NULL)
              : mg_pplan_chase(&v->pd, 0, r, step, fmt, sizeof fmt)))
        return 1;
    int64_t n = r / step, m = n * ((256 + n - 1) / n);
    mg_vp_point p;
    if (mg_vp_measure(v, fmt, n + 64, n + 64 + m, &p)) return -1;
    mg_vp_point_add(sw->pts, (double)r, p.ns, &p);
    if (!p.ok) {
        mg_ares_note(&v->r, "range %lld: %s", (long long)r, p.msg);
        return 1;
    }
    if (y) *y = p.ns;
    if (sw->n >= MAXP) return 0;
    int i = sw->n++;
    while (i > 0 && sw->x[i - 1] > (double)r) {
        sw->x[i] = sw->x[i - 1];
        sw->y[i] = sw->y[i - 1];
        i--;
    }
    sw->x[i] = (double)r;
    sw->y[i] = p.ns;
    return 0;
}

/* Has the image sweep seen its first level with two octaves past it? */
static int first_level_done(const csweep *sw)
{
    mg_knee_result r;
    if (sw->n < 4 || mg_knee_steps(sw->x, sw->y, NULL, sw->n, level_opts(), &r) || !r.determined)
        return 0;
    const mg_knee_step *s = mg_knee_first(&r, 1, 0.5);
    return s && sw->x[sw->n - 1] >= 4 * s->x_hi && s->i_hi + 2 <= sw->n - 1;
}

/* The level's size: the largest footprint whose latency stays at or under
 * `top` (the old plateau), bisected between xl (on it) and xh (off it)
 * down to the chase's granule.  Returns it, or -1 when the aspect must
 * stop. */
static double plateau_end(mg_vp *v, int img, csweep *sw, double xl, double xh, double top)
{
    for (int it = 0; it < 40; it++) {
        if (xh - xl <= (double)vquantum(v, img, xl)) break;
        int64_t xm = vround(v, img, 0.5 * (xl + xh));
        if ((double)xm <= xl || (double)xm >= xh) break;
        double y = NAN;
        int rc = chase_point(v, img, xm, sw, &y);
        if (rc < 0) return -1;
        if (rc > 0) break;
        if (y <= top) xl = (double)xm;
        else xh = (double)xm;
    }
    return xl;
}

/* The range sweep and its conclusions.  Returns 0, or -1 when nothing
 * useful ran or the aspect must stop. */
static int size_sweep(mg_vp *v, int img)
{
    csweep sw;
    memset(&sw, 0, sizeof sw);
    sw.pts = mg_ares_series(&v->r, "range_sweep", "footprint_bytes", "ns_per_access");
    double top = 4.0 * (double)v->pd.cache_size;
    if (top < 1 << 20) top = 1 << 20;
    int stopped_early = 0;
    for (int k = 0;; k++) {
        int64_t r = vround(v, img, (double)FIRST * pow(2, k));
        if ((double)r > top) break;
        int rc = chase_point(v, img, r, &sw, NULL);
        if (rc < 0) return -1;
        if (img && first_level_done(&sw)) {
            stopped_early = 1;
            break;
        }
    }
    const char *m = "the largest footprint whose latency stays on the plateau before the i-th "
                    "up-step (>= x1.03; within 1e-6: no chased line misses), bisected to the "
                    "chase's granule (random paged chase, 64-byte steps; images 16 in 8x8 "
                    "blocks)";
    mg_knee_result r;
    if (sw.n < 3 || mg_knee_steps(sw.x, sw.y, NULL, sw.n, level_opts(), &r) || !r.determined) {
        mg_ares_conclude_none(&v->r, "l1_size", "bytes", m, "%s", sw.n < 3 ? "too few points"
                              : r.why);
        return -1;
    }
    int lv = 0;
    for (int s = 0; s < r.n_steps && lv < 4; s++) {
        const mg_knee_step st = r.step[s];
        if (st.ratio <= 1 || st.confidence < 0.5) continue;
        /* the last point on the old plateau (within FLAT of the step's
         * last footprint before it) and the first past it */
        double ref = NAN;
        for (int i = 0; i < sw.n; i++)
            if (sw.x[i] == st.x_lo) ref = sw.y[i];
        if (!isfinite(ref)) ref = st.y_before;
        double flat = ref * (1 + FLAT), xl = st.x_lo, xh = st.x_hi;
        for (int i = 0; i + 1 < sw.n; i++)
            if (sw.x[i] >= st.x_lo && sw.x[i + 1] <= st.x_hi && sw.y[i] <= flat &&
                sw.y[i + 1] > flat) {
                xl = sw.x[i], xh = sw.x[i + 1];
                break;
            }
        double size = plateau_end(v, img, &sw, xl, xh, flat);
        if (size < 0) return -1;
        char key[32];
        snprintf(key, sizeof key, "l%d_size", lv + 1);
        mg_ares_conclude(&v->r, key, size, "bytes", st.confidence, m);
        snprintf(key, sizeof key, "l%d_latency_ns", lv + 1);
        mg_ares_conclude(&v->r, key, st.y_before, "ns", st.confidence,
                         "the latency plateau below the step");
        mg_ares_note(&v->r, "step %d: x%.2f, last footprint on the old level %g, first on the "
                     "new %g, end of the old plateau %.0f bytes (%.3f -> %.3f ns)", lv + 1, st.ratio,
                     st.x_lo, st.x_hi, size, st.y_before, st.y_after);
        lv++;
    }
    if (lv == 0) {
        mg_ares_conclude_none(&v->r, "l1_size", "bytes", m, "the latency never stepped up over "
                              "%g .. %g bytes", sw.x[0], sw.x[sw.n - 1]);
        return -1;
    }
    double last = r.seg[r.n_segs - 1].level;
    if (stopped_early) {
        char key[32];
        snprintf(key, sizeof key, "l%d_latency_ns", lv + 1);
        mg_ares_conclude(&v->r, key, last, "ns", 0.8, "the plateau after the last step (the "
                         "sweep stopped there: the next level's size is the buffers')");
        mg_ares_note(&v->r, "the image sweep stops two octaves past its first level (the L2 is "
                     "measured by cache_buffer)");
    } else {
        mg_ares_conclude(&v->r, "memory_latency_ns", last, "ns", 0.8,
                         "the last plateau of the range sweep");
    }
    mg_ares_conclude(&v->r, "levels", lv, "caches", 0.8, "up-steps of the range sweep");
    return 0;
}

/* The latency plateau right after level 1 (its miss level), or 0. */
static double miss_level(const mg_vp *v)
{
    double hit = mg_ares_value(&v->r, "l1_latency_ns"), up = mg_ares_value(&v->r, "l2_latency_ns");
    if (up <= 0) up = mg_ares_value(&v->r, "memory_latency_ns");
    return hit > 0 && up > hit ? 0.5 * (hit + up) : 0;
}

/* A saturation sweep's conclusion: knee.h's saturation of a noise-free
 * curve (the first point within LEVEL_STEP of the maximum); or
 * `flat_value` when the whole sweep is flat (within LEVEL_STEP) above the
 * level-1 miss midpoint (every step misses); else null. */
static void saturate(mg_vp *v, const double *xs, const double *ys, int k, const char *key,
                     const char *unit, const char *m, double flat_value)
{
    double xsat;
    if (k >= 3 && mg_knee_saturation_exact(xs, ys, k, LEVEL_STEP, &xsat) == 0) {
        mg_ares_conclude(&v->r, key, xsat, unit, 0.9, m);
        return;
    }
    double mid = miss_level(v), lo = k ? ys[0] : 0, hi = lo;
    for (int i = 1; i < k; i++) lo = fmin(lo, ys[i]), hi = fmax(hi, ys[i]);
    if (k >= 3 && mid > 0 && lo > mid && hi <= lo * (1 + LEVEL_STEP)) {
        mg_ares_conclude(&v->r, key, flat_value, unit, 0.7, m);
        mg_ares_note(&v->r, "%s: flat at the miss level from the first step: every access "
                     "misses", key);
        return;
    }
    mg_ares_conclude_none(&v->r, key, unit, m, "%s", k < 3 ? "too few points"
                          : "the curve neither rises by 3%% nor stays flat at the miss level");
}

/* Stride sweep at footprint r: saturation -> line (key). */
static void step_sweep(mg_vp *v, int img, int64_t r, const char *key)
{
    static const int64_t list[] = {4, 8, 16, 32, 64, 128, 256, 512, 1024};
    char name[64];
    snprintf(name, sizeof name, "step_sweep_at_%lld", (long long)r);
    cJSON *pts = mg_ares_series(&v->r, name, "step_bytes", "ns_per_access");
    double xs[16], ys[16];
    int k = 0;
    for (int i = 0; i < 9; i++) {
        char fmt[256];
        if (img ? !mg_pplan_chase_img(&v->pd, r, list[i], ROW_W, ROW_W * 4, fmt, sizeof fmt)
                : !mg_pplan_chase(&v->pd, 0, r, list[i], fmt, sizeof fmt))
            break;
        int64_t n = r / list[i], m = n < 16384 ? n : 16384;
        mg_vp_point p;
        if (mg_vp_measure(v, fmt, n + 64, n + 64 + (m < 256 ? 256 : m), &p)) return;
        mg_vp_point_add(pts, (double)list[i], p.ns, &p);
        if (!p.ok) continue;
        xs[k] = (double)list[i];
        ys[k++] = p.ns;
    }
    saturate(v, xs, ys, k, key, "bytes", img ? "saturation of the latency over the step between "
             "chased elements (rows of 64 texels, one row per page)" : "saturation of the "
             "latency over the step between chased elements", 4);
}

/* Line height: the lattice walk, sy = 1 .. 16 rows, P points per lattice
 * row, K lattice rows per walk (H = K x sy image rows, at most 16384): a
 * walk of P x K points, 8 x the L1's lines (as if one row high) so the L1
 * never holds a walk, and at most 1/16 of the L2 in lines (the L2 is
 * warmed by one whole walk first, so every L1 miss costs an L2 hit,
 * whatever the L2's line or the image blocks it fetches). */
static void height_sweep(mg_vp *v)
{
    double size = mg_ares_value(&v->r, "l1_size"), wb = mg_ares_value(&v->r, "line_width_bytes");
    if (!(size > 0 && wb > 0)) size = 16384, wb = 16;
    int64_t pts_row = mg_pplan_pow2_floor(size / wb / 4);
    pts_row = pts_row < 2 ? 2 : pts_row > 32 ? 32 : pts_row;
    double line = (double)v->pd.cacheline > wb ? (double)v->pd.cacheline : wb;
    double walk = fmin(8 * size / wb, (double)v->pd.cache_size / (16 * line));
    int64_t rows = (int64_t)fmax(8, walk / (double)pts_row);
    cJSON *pts = mg_ares_series(&v->r, "row_step_sweep", "lattice_row_step_rows", "ns_per_access");
    double xs[8], ys[8];
    int k = 0;
    for (int sy = 1; sy <= 16; sy *= 2) {
        char fmt[256];
        int64_t cyc;
        mg_pdev pd = v->pd;
        int64_t h = rows * sy > 16384 ? 16384 : rows * sy;
        if ((uint64_t)h < pd.img_h) pd.img_h = (uint64_t)h;
        mg_pplan_lattice(&pd, pts_row, LATTICE_DX, sy, fmt, sizeof fmt, &cyc);
        mg_vp_point p;
        if (mg_vp_measure(v, fmt, cyc, cyc + 64 * pts_row, &p)) return;
        mg_vp_point_add(pts, sy, p.ns, &p);
        if (!p.ok) continue;
        xs[k] = sy;
        ys[k++] = p.ns;
    }
    mg_ares_note(&v->r, "row step sweep: %lld lattice points per row, %d texels apart (a "
                 "quarter of the L1's lines at most), %lld lattice rows per walk",
                 (long long)pts_row, LATTICE_DX, (long long)rows);
    saturate(v, xs, ys, k, "line_height_rows", "rows", "saturation of the latency over the "
             "lattice row step (linear lattice walk)", 1);
}

/* Undo the dilution of the plateaus above level 1: with `per` chased
 * accesses to each line of level 1, only one of them misses, so a plateau
 * shows 1 / per of the latency the miss adds.  Each l<i>_latency_ns
 * (i >= 2) and memory_latency_ns becomes the latency of an access that
 * misses the levels below: l1 + (plateau - l1) x per. */
static void undilute(mg_vp *v, double per, const char *why)
{
    double l1 = mg_ares_value(&v->r, "l1_latency_ns");
    if (!(per > 1) || l1 <= 0) return;
    for (int i = 2; i <= 5; i++) {
        char key[32];
        if (i == 5) snprintf(key, sizeof key, "memory_latency_ns");
        else snprintf(key, sizeof key, "l%d_latency_ns", i);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(v->r.conclusion, key);
        const cJSON *val = cJSON_GetObjectItemCaseSensitive(e, "value");
        const cJSON *cf = cJSON_GetObjectItemCaseSensitive(e, "confidence");
        if (!cJSON_IsNumber(val)) continue;
        double raw = val->valuedouble, conf = cJSON_IsNumber(cf) ? cf->valuedouble : 0.8;
        mg_ares_conclude(&v->r, key, l1 + (raw - l1) * per, "ns", conf, "the latency of an "
                         "access that misses the levels below: l1 + (plateau - l1) x the "
                         "chased accesses per level-1 line");
        mg_ares_note(&v->r, "%s: plateau %.4g ns, %g accesses per line (%s)", key, raw, per, why);
    }
}

void mg_vp_cache_buffer(mg_vp *v)
{
    if (size_sweep(v, 0) || v->failed) return;
    step_sweep(v, 0, mg_pc_line_range(&v->r, 0, LINE_TIMES), "line_size");
    double line = mg_ares_value(&v->r, "line_size");
    if (line > MG_PPLAN_STEP) undilute(v, line / MG_PPLAN_STEP, "64-byte steps");
}

void mg_vp_cache_image(mg_vp *v)
{
    if (size_sweep(v, 1) || v->failed) return;
    /* a step of a whole row (256 bytes) reads a texel per row, so lines h
     * rows high take footprint / (8 h) bytes of the L1's at 256-byte
     * steps: at 8 x level 1 the H100's 8x4 tiles fill it exactly and, with
     * sets that share lines out evenly, hit; at 16 x they overflow it
     * twice, and every step of a line or more misses */
    step_sweep(v, 1, mg_pc_line_range(&v->r, 0, LINE_TIMES_IMG), "line_width_bytes");
    if (v->failed) return;
    height_sweep(v);
    double wb = mg_ares_value(&v->r, "line_width_bytes"), hr = mg_ares_value(&v->r,
                                                                             "line_height_rows");
    if (wb > 0 && hr > 0) {
        char shape[64];
        snprintf(shape, sizeof shape, "%gx%g", wb / 4, hr);
        mg_ares_conclude_str(&v->r, "line_shape_texels", shape, 0.5, "line width / 4-byte texel "
                             "x line height");
        undilute(v, wb * hr / MG_PPLAN_STEP_IMG, "16-byte steps in 8x8 blocks");
    }
}
