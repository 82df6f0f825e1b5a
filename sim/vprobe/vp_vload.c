/*
 * vp_vload.c - the virtual vload aspect: mgprobe's seven vload points
 * (mg_pplan_vload: fp16 and fp32 storage at vector widths 1, 2, 4, every
 * lane of a warp on its own line, and a packed float4) through the model,
 * concluded by mg_pc_vload.  The time per vector load is a pass's (passes
 * 1 to 2, then on while it changes by 0.2 %: mg_vp_measure_steady) over
 * its loads; the model has no noise.  What it shows is the config's
 * buffer.vload and buffer.max_load_bytes through the buffer path's cost:
 * per line where buffer_l1.lookup_bytes is set (NVIDIA), per byte
 * otherwise.
 */
#include "sim/vprobe/vp.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>

/* One point into pts at x: ns per vector load, NAN when it did not run;
 * -1 in *stop when the aspect must stop. */
static double vload_point(mg_vp *v, int fp16, int vec, int packed, cJSON *pts, int *stop)
{
    char fmt[300];
    mg_pplan_vload(&v->pd, fp16, vec, packed, fmt, sizeof fmt);
    mg_vp_point p;
    *stop = mg_vp_measure_steady(v, fmt, 1, 2, 8, &p) != 0;
    if (*stop) return NAN;
    double y = p.ok ? p.ns / MG_PPLAN_VLOAD_LOADS : NAN;
    mg_vp_point_add(pts, vec, y, &p);
    if (!p.ok) mg_ares_note(&v->r, "%s vec=%d%s: %s", fp16 ? "fp16" : "fp32", vec,
                            packed ? " packed" : "", p.msg);
    return y;
}

void mg_vp_vload(mg_vp *v)
{
    double t[2][3];
    int stop;
    for (int k = 0; k < 2; k++) {
        cJSON *pts = mg_ares_series(&v->r, k ? "fp32" : "fp16", "vector_width", "ns_per_load");
        for (int i = 0; i < 3; i++)
            if (t[k][i] = vload_point(v, k == 0, 1 << i, 0, pts, &stop), stop) return;
    }
    cJSON *pts = mg_ares_series(&v->r, "fp32_packed", "vector_width", "ns_per_load");
    double packed = vload_point(v, 0, 4, 1, pts, &stop);
    if (stop) return;
    mg_pc_vload(&v->r, t, packed, 0);
}
