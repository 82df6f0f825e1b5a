/*
 * asp_vload.c - the load-issue granularity (`vload`): does the compiler
 * issue a vector load of a buffer (vload_half{2,4}, vload{2,4}) as one
 * load, or one load per element (NVIDIA OpenCL: configs/measured/h100/ptx,
 * a vload_half4 is four 16-bit loads)?  The model's buffer.vload and
 * buffer.max_load_bytes (sim/MODEL.md, Memory).
 *
 * Seven points (mg_pplan_vload): fp16 and fp32 storage at vector widths
 * 1, 2, 4, and a float4 packed with its neighbours; each a launch of the flops shape (4 groups of up to 256 items per
 * compute unit) in which every lane of a warp reads its own cache line
 * (slots of the reported line, at least 64 bytes, 128 of them: 8-16 KiB,
 * first-level resident), 8 loads per item per pass, passes scaled until
 * a launch lasts min_ms.  Series "fp16", "fp32" and "fp32_packed": x =
 * vector width, y = ns per vector load (the median over the passes'
 * loads).  Conclusions
 * (mg_pc_vload): a half vector against a float vector of the same bytes
 * (half2 / float, half4 / float2) costs x 2 when each element is a load,
 * x 1 when a vector is one, whether a load's time goes by its lines or by
 * its bytes; max_load_bytes where a vector issues as one load and a
 * load's time goes by lines (the own-line float4 costs x 1.5 or more of
 * the packed one): the widest vector that costs what a half does.
 */
#include "probe/aspect.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>

/* One point into pts: ns per vector load, NAN when it did not run (noted);
 * -1 in *stop when the aspect must stop.  *noise takes the largest. */
static double vload_point(mgp_arun *a, int fp16, int vec, int packed, cJSON *pts, int *stop,
                          double *noise)
{
    mg_pdev pd;
    mgp_pdev(a, &pd);
    char fmt[300];
    mg_pplan_vload(&pd, fp16, vec, packed, fmt, sizeof fmt);
    mgp_point p;
    *stop = mgp_take(a, fmt, 1, 65536, &p) != 0;
    if (*stop) return NAN;
    int ok = p.status == MGP_TP_OK;
    double y = ok ? p.median / ((double)p.scale * MG_PPLAN_VLOAD_LOADS) : NAN;
    mgp_point_add(pts, vec, y, &p);
    if (!ok) mgp_note(a, "%s vec=%d%s: %s", fp16 ? "fp16" : "fp32", vec, packed ? " packed" : "",
                      p.msg);
    else *noise = fmax(*noise, p.noise);
    return y;
}

void mgp_asp_vload(mgp_arun *a)
{
    double t[2][3], noise = 0;
    int stop, ran = 0;
    for (int k = 0; k < 2; k++) {
        cJSON *pts = mgp_series(a, k ? "fp32" : "fp16", "vector_width", "ns_per_load");
        for (int i = 0; i < 3; i++) {
            t[k][i] = vload_point(a, k == 0, 1 << i, 0, pts, &stop, &noise);
            if (stop) return;
            ran += isfinite(t[k][i]);
        }
    }
    cJSON *pts = mgp_series(a, "fp32_packed", "vector_width", "ns_per_load");
    double packed = vload_point(a, 0, 4, 1, pts, &stop, &noise);
    if (stop) return;
    if (!ran) {
        mgp_fail(a, MGP_AS_ERROR, "no point ran (see the curve)");
        return;
    }
    mg_ares r = mgp_ares(a);
    mg_pc_vload(&r, t, packed, noise);
}
