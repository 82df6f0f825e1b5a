/*
 * asp_lsu.c - loads in flight (`lsu`): what a lone warp's loads cost
 * against a loaded compute unit's, the share of the unit's load rate one
 * warp reaches (NVIDIA: an SM's four processing blocks each own a quarter
 * of it).  The model's core.partitions (sim/MODEL.md, Issue).
 *
 * Ten points of the mlp op (mg_pplan_lsu: one work group per compute
 * unit, chase steps of independent line loads from a first-level-resident
 * buffer): a lone warp at 1, 2, 4, 8, 16 loads a step (series "lone", x =
 * loads), 16 loads at 2, 4, 8, 16 warps (series "warps", x = warps; one
 * warp is the lone series' 16-load point),
 * and 8 loads at the most warps that ran (series "loaded").  y = ns per
 * step.  Concluded by mg_pc_lsu.  The warp width is the warp aspect's
 * warp_size (32 when it has none).
 */
#include "probe/aspect.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>

/* ns per step of one point into pts (x), NAN when it did not run (noted);
 * *stop when the aspect must stop; *noise takes the largest. */
static double lsu_point(mgp_arun *a, int loads, int warps, int warp, double x, cJSON *pts,
                        int *stop, double *noise)
{
    mg_pdev pd;
    mgp_pdev(a, &pd);
    char fmt[300];
    *stop = 0;
    if (!mg_pplan_lsu(&pd, loads, warps, warp, fmt, sizeof fmt)) {
        mgp_note(a, "%d warps of %d: over the largest work group", warps, warp);
        return NAN;
    }
    mgp_point p;
    *stop = mgp_take(a, fmt, 16, 1 << 24, &p) != 0;
    if (*stop) return NAN;
    int ok = p.status == MGP_TP_OK;
    double y = ok ? p.median / (double)p.scale : NAN;
    mgp_point_add(pts, x, y, &p);
    if (!ok) mgp_note(a, "%d loads, %d warps: %s", loads, warps, p.msg);
    else *noise = fmax(*noise, p.noise);
    return y;
}

void mgp_asp_lsu(mgp_arun *a)
{
    double w = 32, t1[MG_PPLAN_LSU_NLOADS], tw[MG_PPLAN_LSU_NWARPS], noise = 0;
    if (mgp_earlier(a, "warp", "warp_size", &w) || w < 1 || w > 1024) w = 32;
    int stop, wmax = 0;
    cJSON *pts = mgp_series(a, "lone", "loads", "ns_per_step");
    for (int i = 0; i < MG_PPLAN_LSU_NLOADS; i++) {
        int n = mg_pplan_lsu_loads[i];
        if (t1[i] = lsu_point(a, n, 1, (int)w, n, pts, &stop, &noise), stop) return;
    }
    pts = mgp_series(a, "warps", "warps", "ns_per_step");
    for (int i = 0; i < MG_PPLAN_LSU_NWARPS; i++) {
        int k = mg_pplan_lsu_warps[i];
        tw[i] = i ? lsu_point(a, 16, k, (int)w, k, pts, &stop, &noise) : t1[MG_PPLAN_LSU_NLOADS - 1];
        if (stop) return;
        if (isfinite(tw[i])) wmax = k;
    }
    pts = mgp_series(a, "loaded", "warps", "ns_per_step_8_loads");
    double t8 = wmax > 1 ? lsu_point(a, 8, wmax, (int)w, wmax, pts, &stop, &noise) : NAN;
    if (stop) return;
    mg_ares r = mgp_ares(a);
    mg_pc_lsu(&r, t1, tw, t8, wmax, noise);
}
