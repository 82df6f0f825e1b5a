/*
 * asp_rstride.c - tmmodel's random 2D-stride image chase (tmmodel 3.1
 * steps I-II), kept raw for fitting cross-block-stride models.
 *
 * Runs seed = 1 .. 16 of rstride2d over a 1024 x 1024 image (candidate
 * strides 1, 2, 3, 4 in x and in y, each seed another multinomial
 * distribution); the dependent loads are scaled until a launch lasts
 * min_ms.  Each run keeps its latency (ns per load) and, from the chain
 * the kernel followed (rebuilt on the host), the histogram of its x and y
 * steps and the number of steps that cross block boundaries for assumed
 * block shapes 2x2 .. 32x2 (tmmodel step III: the regression's features).
 * The aspect concludes only the median latency and its spread over runs;
 * the model is fitted elsewhere from the curve.
 */
#include "probe/aspect.h"
#include "sim/analysis/knee.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIDE 1024
#define NSTRIDES 4

static const int shapes[][2] = {{2, 2}, {4, 2}, {4, 4}, {8, 4}, {8, 8}, {16, 4}, {32, 2}};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

/* Follow the chain of `line` for `steps` loads and add the step
 * histograms and cross-block counts to point o. */
static void features(const char *line, int64_t steps, cJSON *o)
{
    mg_schedule s;
    char msg[256];
    if (mgp_parse_line(line, &s, msg, sizeof msg)) return;
    mg_gen g;
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_gen_prepare(&g, &s, &d);
    mg_diag_free(&d);
    mg_host h;
    if (rc || mg_host_init(&g, &h)) {
        mg_gen_free(&g);
        return;
    }
    int64_t hx[NSTRIDES + 1] = {0}, hy[NSTRIDES + 1] = {0}, cross[NSHAPES][2];
    memset(cross, 0, sizeof cross);
    int32_t c = 0;
    for (int64_t i = 0; i < steps; i++) {
        int32_t n = h.i[0][(int64_t)(c >> 16) * SIDE + (c & 0xffff)];
        int64_t x0 = c & 0xffff, y0 = c >> 16, x1 = n & 0xffff, y1 = n >> 16;
        int64_t dx = (x1 - x0 + SIDE) % SIDE, dy = (y1 - y0 + SIDE) % SIDE;
        hx[dx <= NSTRIDES ? dx : 0]++;
        hy[dy <= NSTRIDES ? dy : 0]++;
        for (int b = 0; b < NSHAPES; b++) {
            cross[b][0] += x0 / shapes[b][0] != x1 / shapes[b][0];
            cross[b][1] += y0 / shapes[b][1] != y1 / shapes[b][1];
        }
        c = n;
    }
    cJSON *jx = cJSON_AddArrayToObject(o, "dx_hist"), *jy = cJSON_AddArrayToObject(o, "dy_hist");
    for (int i = 1; i <= NSTRIDES; i++) {
        cJSON_AddItemToArray(jx, cJSON_CreateNumber((double)hx[i]));
        cJSON_AddItemToArray(jy, cJSON_CreateNumber((double)hy[i]));
    }
    cJSON *cb = cJSON_AddObjectToObject(o, "cross_block");
    for (int b = 0; b < NSHAPES; b++) {
        char key[16];
        snprintf(key, sizeof key, "%dx%d", shapes[b][0], shapes[b][1]);
        cJSON *p = cJSON_AddArrayToObject(cb, key);
        cJSON_AddItemToArray(p, cJSON_CreateNumber((double)cross[b][0]));
        cJSON_AddItemToArray(p, cJSON_CreateNumber((double)cross[b][1]));
    }
    mg_host_free(&h);
    mg_gen_free(&g);
}

void mgp_asp_rstride2d(mgp_arun *a)
{
    if (!a->dp->x->images) {
        mgp_fail(a, MGP_AS_SKIPPED, "the device has no image support (CL_DEVICE_IMAGE_SUPPORT "
                 "is CL_FALSE)");
        return;
    }
    cJSON *pts = mgp_series(a, "runs", "seed", "ns_per_load");
    double lat[32], per = 0;
    int k = 0, runs = a->quick ? 2 : 16;
    for (int seed = 1; seed <= runs; seed++) {
        char fmt[256];
        snprintf(fmt, sizeof fmt, "rstride2d W=%d H=%d strides=1,2,3,4 seed=%d iters=%%lld", SIDE,
                 SIDE, seed);
        int64_t start = per > 0 ? (int64_t)ceil(1.3e6 * a->t->min_ms / per) : 4096;
        mgp_point p;
        if (mgp_take(a, fmt, start, (int64_t)1 << 22, &p)) break;
        double y = p.status == MGP_TP_OK ? p.median / (double)p.scale : NAN;
        cJSON *o = mgp_point_add(pts, seed, y, &p);
        if (p.status == MGP_TP_SKIP && k == 0) {
            mgp_fail(a, MGP_AS_SKIPPED, "%s", p.msg);
            return;
        }
        if (p.status != MGP_TP_OK) continue;
        char line[256];
        mgp_fmt_scale(line, sizeof line, fmt, (long long)p.scale);
        cJSON_AddItemToObject(o, "strides", cJSON_CreateIntArray((const int[]){1, 2, 3, 4}, 4));
        features(line, p.scale, o);
        per = y;
        lat[k++] = y;
    }
    if (a->stopped || a->hung) return;
    const char *m = "median over runs of ns per dependent load (the raw runs are the data)";
    if (k == 0) {
        mgp_fail(a, MGP_AS_ERROR, "no run succeeded (see the curve)");
        return;
    }
    double med = mg_knee_median(lat, k);
    mgp_conclude(a, "median_latency_ns", med, "ns", 0.8, m);
    mgp_conclude(a, "latency_spread", mg_knee_spread(lat, k), NULL, 0.8,
                 "(max - min) / median of the runs' latencies");
}
