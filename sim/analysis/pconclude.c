/* pconclude.c - the probe aspects' shared conclusions (see pconclude.h). */
#include "sim/analysis/pconclude.h"
#include "sim/analysis/knee.h"
#include "sim/analysis/pplan.h"

#include <math.h>
#include <stdio.h>

void mg_pc_warp(mg_ares *r, double w1, double c1, double w2, double c2, const char *why_ticket)
{
    const char *m1 = "atomic-ticket runs of a delayed group (ticket op)";
    const char *m2 = "first knee of the division-loop time over items per group (warpsize op)";
    if (c1 >= 0) mg_ares_conclude(r, "warp_size_by_ticket", w1, "items", c1, m1);
    else mg_ares_conclude_none(r, "warp_size_by_ticket", "items", m1, "%s", why_ticket);
    if (c2 >= 0) mg_ares_conclude(r, "warp_size_by_timing", w2, "items", c2, m2);
    else mg_ares_conclude_none(r, "warp_size_by_timing", "items", m2, "no clear first knee");
    const char *m = "the ticket and timing estimates combined";
    if (c1 >= 0 && c2 >= 0 && w1 == w2) {
        mg_ares_conclude(r, "warp_size", w1, "items", fmin(0.99, c1 + c2 - c1 * c2), m);
    } else if (c1 >= 0 && c2 >= 0) {
        mg_ares_note(r, "the two estimates disagree (%g by ticket, %g by timing): the ticket "
                     "order is taken", w1, w2);
        mg_ares_conclude(r, "warp_size", w1, "items", 0.6 * c1, m);
    } else if (c1 >= 0) {
        mg_ares_conclude(r, "warp_size", w1, "items", c1, m);
    } else if (c2 >= 0) {
        mg_ares_conclude(r, "warp_size", w2, "items", c2, m);
    } else {
        mg_ares_conclude_none(r, "warp_size", "items", m, "neither method found a warp");
    }
}

void mg_pc_alu_by_flops(mg_ares *r, int have_peak, double peak_gflops, double clock_mhz,
                        unsigned cus)
{
    const char *m = "fp32 peak / (2 flops per FMA x the reported max clock x compute units)";
    if (have_peak && clock_mhz > 0 && cus) {
        double lanes = peak_gflops * 1e9 / (2.0 * clock_mhz * 1e6 * cus);
        mg_ares_conclude(r, "alu_lanes_per_cu_by_flops", round(lanes), "lanes", 0.7, m);
    } else {
        mg_ares_conclude_none(r, "alu_lanes_per_cu_by_flops", "lanes", m, "needs the flops "
                              "aspect's fp32 peak and the reported clock and compute units");
    }
}

/* The conclusion keys of precision k. */
static void flops_keys(int k, char *key, size_t klen, char *vkey, size_t vlen)
{
    snprintf(key, klen, "%s_peak_gflops", k ? "fp16" : "fp32");
    snprintf(vkey, vlen, "preferred_vector_width_%s", k ? "half" : "float");
}

static const char *const flops_m = "best of vector widths 1-16, 8 multiply-add chains per item";
static const char *const flops_mv = "narrowest vector width within 5% of the peak";

void mg_pc_flops(mg_ares *r, int k, const double g[5], double noise)
{
    static const int vecs[] = {1, 2, 4, 8, 16};
    char key[64], vkey[64];
    flops_keys(k, key, sizeof key, vkey, sizeof vkey);
    double best = 0;
    for (int i = 0; i < 5; i++)
        if (g[i] > best) best = g[i];
    if (best <= 0) {
        mg_ares_conclude_none(r, key, "GFLOPS", flops_m, "no vector width ran (see the curve)");
        mg_ares_conclude_none(r, vkey, "elements", flops_mv, "no vector width ran");
        return;
    }
    int pref = 0;
    for (int i = 0; i < 5 && !pref; i++)
        if (g[i] >= 0.95 * best) pref = vecs[i];
    double conf = fmax(0.5, 0.9 - 2 * noise);
    mg_ares_conclude(r, key, best, "GFLOPS", conf, flops_m);
    mg_ares_conclude(r, vkey, pref, "elements", conf, flops_mv);
}

void mg_pc_flops_none(mg_ares *r, int k, const char *why)
{
    char key[64], vkey[64];
    flops_keys(k, key, sizeof key, vkey, sizeof vkey);
    mg_ares_conclude_none(r, key, "GFLOPS", flops_m, "%s", why);
    mg_ares_conclude_none(r, vkey, "elements", flops_mv, "%s", why);
}

void mg_pc_reg_model(mg_ares *r, double g1, double c1, double g2, double c2, int full,
                     int64_t wgc)
{
    const char *m3 = "groups running at once (first jump of the time over groups) at full vs "
                     "half registers: x2 pooled, x1 dedicated";
    const char *m4 = "groups of 256 running at once at full registers (one per core when they "
                     "fill its register file)";
    if (g1 > 0 && g2 > 0) {
        double ratio = g2 / g1;
        mg_ares_note(r, "%g groups of %lld at once at %d registers, %g at %d (ratio %.2f)", g1,
                     (long long)wgc, full, g2, full / 2, ratio);
        if (ratio > 1.6) mg_ares_conclude_str(r, "register_model", "pooled", fmin(c1, c2), m3);
        else if (ratio < 1.25)
            mg_ares_conclude_str(r, "register_model", "dedicated", fmin(c1, c2), m3);
        else mg_ares_conclude_none(r, "register_model", NULL, m3, "concurrency ratio %.2f is "
                                   "neither about 1 nor about 2", ratio);
        mg_ares_conclude(r, "compute_units_by_timing", g1, "groups", c1 * 0.8, m4);
    } else {
        mg_ares_conclude_none(r, "register_model", NULL, m3, "no clear jump in the time over "
                              "groups (%g at full, %g at half)", g1, g2);
        if (g1 > 0) mg_ares_conclude(r, "compute_units_by_timing", g1, "groups", c1 * 0.8, m4);
        else mg_ares_conclude_none(r, "compute_units_by_timing", "groups", m4, "no clear jump");
    }
}

void mg_pc_bw(mg_ares *r, const double *xs, const double *ys, const double *sp, int k)
{
    const char *m = "bytes read / median time, 16-byte loads, column pattern";
    double best = 0;
    for (int i = 0; i < k; i++)
        if (ys[i] > best) best = ys[i];
    mg_ares_conclude(r, "peak_gbps", best, "GB/s", 0.8, m);
    mg_ares_conclude(r, "largest_footprint_gbps", ys[k - 1], "GB/s", 0.8, m);
    mg_knee_result kr;
    const char *md = "x_lo of the first down-step of the bandwidth over the footprint";
    if (k >= 3 && mg_knee_steps(xs, ys, sp, k, NULL, &kr) == 0 && kr.determined) {
        const mg_knee_step *s = mg_knee_first(&kr, -1, 0.5);
        if (s) mg_ares_conclude(r, "first_drop_bytes", s->x_lo, "bytes", s->confidence, md);
        else mg_ares_conclude_none(r, "first_drop_bytes", "bytes", md, "no drop in the bandwidth");
        for (int i = 0; i < kr.n_steps; i++)
            mg_ares_note(r, "step x%.2f between %g and %g bytes (%.1f -> %.1f GB/s)",
                         kr.step[i].ratio, kr.step[i].x_lo, kr.step[i].x_hi, kr.step[i].y_before,
                         kr.step[i].y_after);
    } else {
        mg_ares_conclude_none(r, "first_drop_bytes", "bytes", md, "%s",
                              k < 3 ? "too few points" : kr.why);
    }
}

int64_t mg_pc_line_range(const mg_ares *r, double min_ratio, double times)
{
    double range = 256 * 1024, next = 0;
    for (int i = 1; i <= 4; i++) {
        char k1[32], k2[32], k3[32];
        snprintf(k1, sizeof k1, "l%d_size", i);
        snprintf(k2, sizeof k2, "l%d_latency_ns", i);
        snprintf(k3, sizeof k3, "l%d_latency_ns", i + 1);
        double size = mg_ares_value(r, k1), lat = mg_ares_value(r, k2);
        double up = mg_ares_value(r, k3);
        if (up <= 0) up = mg_ares_value(r, "memory_latency_ns");
        if (size <= 0 || lat <= 0) break;
        if (up >= min_ratio * lat) {
            range = times * size;
            snprintf(k1, sizeof k1, "l%d_size", i + 1);
            next = mg_ares_value(r, k1);
            break;
        }
    }
    if (next > 0 && range > next / 2) range = next / 2;
    if (range < 65536) range = 65536;
    return mg_pplan_round_to(range, 16384);
}
