/*
 * vp_lsu.c - the virtual lsu aspect: mgprobe's ten lsu points (mg_pplan_lsu:
 * mlp chase steps of line loads, a lone warp at 1-16 loads, 16 loads at
 * 2-16 warps per core, 8 loads at the most) through the model, concluded
 * by mg_pc_lsu.  The time per step is a step's (steps 64 to 128, past
 * the chain's first round of the buffer's 32 lines, then on while it
 * changes by 0.2 %: mg_vp_measure_steady); warps are of the
 * config's warp width.  What it shows is core.partitions through the
 * per-partition pipes a lone warp issues to.
 */
#include "sim/vprobe/vp.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>

/* ns per step of one point into pts (x), NAN when it did not run; *stop
 * when the aspect must stop. */
static double lsu_point(mg_vp *v, int loads, int warps, double x, cJSON *pts, int *stop)
{
    char fmt[300];
    *stop = 0;
    if (!mg_pplan_lsu(&v->pd, loads, warps, (int)v->dev->warp_width, fmt, sizeof fmt)) {
        mg_ares_note(&v->r, "%d warps: over the largest work group", warps);
        return NAN;
    }
    mg_vp_point p;
    *stop = mg_vp_measure_steady(v, fmt, 64, 128, 1024, &p) != 0;
    if (*stop) return NAN;
    double y = p.ok ? p.ns : NAN;
    mg_vp_point_add(pts, x, y, &p);
    if (!p.ok) mg_ares_note(&v->r, "%d loads, %d warps: %s", loads, warps, p.msg);
    return y;
}

void mg_vp_lsu(mg_vp *v)
{
    double t1[MG_PPLAN_LSU_NLOADS], tw[MG_PPLAN_LSU_NWARPS];
    int stop, wmax = 0;
    cJSON *pts = mg_ares_series(&v->r, "lone", "loads", "ns_per_step");
    for (int i = 0; i < MG_PPLAN_LSU_NLOADS; i++) {
        int n = mg_pplan_lsu_loads[i];
        if (t1[i] = lsu_point(v, n, 1, n, pts, &stop), stop) return;
    }
    pts = mg_ares_series(&v->r, "warps", "warps", "ns_per_step");
    for (int i = 0; i < MG_PPLAN_LSU_NWARPS; i++) {
        int k = mg_pplan_lsu_warps[i];
        tw[i] = i ? lsu_point(v, 16, k, k, pts, &stop) : t1[MG_PPLAN_LSU_NLOADS - 1];
        if (stop) return;
        if (isfinite(tw[i])) wmax = k;
    }
    pts = mg_ares_series(&v->r, "loaded", "warps", "ns_per_step_8_loads");
    double t8 = wmax > 1 ? lsu_point(v, 8, wmax, wmax, pts, &stop) : NAN;
    if (stop) return;
    mg_pc_lsu(&v->r, t1, tw, t8, wmax, 0);
}
