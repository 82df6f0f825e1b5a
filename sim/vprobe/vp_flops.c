/*
 * vp_flops.c - the virtual flops aspect: mgprobe's flops sweep (the flops
 * op, 8 multiply-add chains per item, vector widths 1-16, fp32 and fp16,
 * the launch of mg_pplan_flops) through the model.  GFLOPS = the flops of
 * the extra loop iterations / their simulated time.  The model's devices
 * all take fp16 (its rate is core.fp16_flops_per_alu_cycle).
 */
#include "sim/vprobe/vp.h"
#include "sim/analysis/pconclude.h"

#include <stdio.h>

#define ITERS_A 8                  /* 4 -> 8 is not yet steady on Mali-G76 */
#define ITERS_B 16

void mg_vp_flops(mg_vp *v)
{
    static const int vecs[] = {1, 2, 4, 8, 16};
    static const char *const precs[] = {"fp32", "fp16"};
    int64_t items, wg;
    mg_pplan_flops(&v->pd, &items, &wg);
    for (int k = 0; k < 2; k++) {
        char name[64];
        snprintf(name, sizeof name, "%s_by_vector_width", precs[k]);
        cJSON *pts = mg_ares_series(&v->r, name, "vector_width", "gflops");
        double g[5] = {0};
        for (int i = 0; i < 5; i++) {
            char fmt[256];
            snprintf(fmt, sizeof fmt, "flops vec=%d chains=8 items=%lld wg=%lld compute=%s "
                     "iters=%%lld", vecs[i], (long long)items, (long long)wg, precs[k]);
            mg_vp_point p;
            if (mg_vp_measure_steady(v, fmt, ITERS_A, ITERS_B, 256, &p)) return;
            double t = (p.t_b - p.t_a) * 1e9;
            g[i] = p.ok && t > 0 ? p.flops / t : 0;
            mg_vp_point_add(pts, vecs[i], g[i], &p);
        }
        mg_pc_flops(&v->r, k, g, 0);
    }
    mg_ares_note(&v->r, "virtual device: preferred vector widths are not reported (the model "
                 "has no driver); fp16 is supported");
}
