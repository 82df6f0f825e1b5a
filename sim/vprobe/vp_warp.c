/*
 * vp_warp.c - the virtual warp and alu aspects.
 *
 * warp: the timing method of mgprobe (asp_warp.c): the warpsize op with
 * mg_pplan_warp_groups groups of `items` items; y = ns per loop iteration.
 * Swept at 1, 2, 4 .. 256 items (up to the largest group; it stops two
 * points past the first up-step of knee.h), then that step is narrowed
 * by bisection to adjacent item counts; the warp is the last count before
 * it.  The ticket method needs the order in
 * which the hardware ran atomics, which a timing model does not produce:
 * warp_size_by_ticket is null, warp_size is the timing estimate.
 *
 * alu: the ticket interleaving is null for the same reason; the flops
 * estimate (fp32 peak / (2 x clock x cores)) is concluded as mgprobe does.
 */
#include "sim/vprobe/vp.h"
#include "sim/analysis/knee.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXP 64
#define ITERS_A 4
#define ITERS_B 8

typedef struct wsweep {
    cJSON *pts;
    int    n;
    double x[MAXP], y[MAXP];
} wsweep;

/* Measure `items` per group into the sweep (kept sorted).  Returns 0, or
 * -1 when the aspect must stop. */
static int warp_point(mg_vp *v, wsweep *w, int64_t items, int64_t groups)
{
    char fmt[256];
    snprintf(fmt, sizeof fmt, "warpsize items=%lld groups=%lld iters=%%lld", (long long)items,
             (long long)groups);
    mg_vp_point p;
    if (mg_vp_measure(v, fmt, ITERS_A, ITERS_B, &p)) return -1;
    mg_vp_point_add(w->pts, (double)items, p.ns, &p);
    if (!p.ok || w->n >= MAXP) return 0;
    int i = w->n++;
    while (i > 0 && w->x[i - 1] > (double)items) {
        w->x[i] = w->x[i - 1];
        w->y[i] = w->y[i - 1];
        i--;
    }
    w->x[i] = (double)items;
    w->y[i] = p.ns;
    return 0;
}

/* The first up-step of the sweep with confidence >= 0.5, or NULL (r is
 * the knee result it points into). */
static const mg_knee_step *first_up(const wsweep *w, mg_knee_result *r)
{
    if (w->n < 3 || mg_knee_steps(w->x, w->y, NULL, w->n, NULL, r) || !r->determined) return NULL;
    return mg_knee_first(r, 1, 0.5);
}

/* The warp by the timing staircase; *conf < 0 when undetermined. */
static double by_timing(mg_vp *v, double *conf)
{
    int64_t groups = mg_pplan_warp_groups(&v->pd);
    wsweep w;
    memset(&w, 0, sizeof w);
    w.pts = mg_ares_series(&v->r, "division_loop", "items_per_group", "ns_per_iteration");
    *conf = -1;
    mg_knee_result r;
    const mg_knee_step *s = NULL;
    for (int64_t items = 1; items <= 256 && (uint64_t)items <= v->pd.max_wg; items *= 2) {
        if (warp_point(v, &w, items, groups)) return 0;
        /* two points past the first step are enough (as the step needs) */
        if ((s = first_up(&w, &r)) && s->i_hi + 1 < w.n) break;
    }
    s = first_up(&w, &r);
    double lo = 0, hi = 0;
    if (s) {
        /* narrow the step to adjacent counts: bisection between its last
         * point on the old level and the next point measured */
        lo = s->x_lo;
        hi = s->i_lo + 1 < w.n ? w.x[s->i_lo + 1] : s->x_hi;
        double base = s->y_before, thr = r.thr;
        mg_knee_step st = *s;
        while (hi - lo > 1) {
            int64_t mid = (int64_t)((lo + hi) / 2);
            if (warp_point(v, &w, mid, groups)) return 0;
            double y = NAN;
            for (int i = 0; i < w.n; i++)
                if (w.x[i] == (double)mid) y = w.y[i];
            if (isfinite(y) && log(y / base) <= thr) lo = (double)mid;
            else hi = (double)mid;
        }
        st.x_lo = lo;
        st.x_hi = hi;
        r.step[0] = st;
        s = &r.step[0];
    }
    if (!s) {
        mg_ares_note(&v->r, "by timing: %s", w.n < 3 ? "too few points"
                     : !r.determined ? r.why : "no step up in the time per iteration");
        return 0;
    }
    *conf = s->confidence;
    mg_ares_note(&v->r, "by timing: first step x%.2f between %g and %g items per group (%lld "
                 "groups)", s->ratio, s->x_lo, s->x_hi, (long long)groups);
    return s->x_lo;
}

void mg_vp_warp(mg_vp *v)
{
    double c2, w2 = by_timing(v, &c2);
    if (v->failed) return;
    mg_pc_warp(&v->r, 0, -1, w2, c2, "the timing model does not order atomic tickets (no "
               "ticket run in a virtual probe)");
}

void mg_vp_alu(mg_vp *v)
{
    mg_ares_conclude_none(&v->r, "alu_lanes_per_cu", "lanes",
                          "ticket interleaving inside each warp of one 3D group (romou Fig 8)",
                          "the timing model does not order atomic tickets (no ticket run in a "
                          "virtual probe)");
    double peak;
    int have = mg_vp_earlier(v, "flops", "fp32_peak_gflops", &peak) == 0;
    mg_pc_alu_by_flops(&v->r, have, have ? peak : 0, v->pd.clock_mhz, v->pd.cus);
}
