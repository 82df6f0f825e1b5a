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

/* ---- vload ------------------------------------------------------------------------ */

static const char *const vload_m = "time per vector load, every lane on its own line: a half "
                                   "vector over a float vector of the same bytes";

/* max_load_bytes of a vector-issuing device (pconclude.h), from the times
 * t relative to a half's: the sizes up to it cost x 1.15 or less, the
 * next one x 1.8 to 2.3 (two loads). */
static void vload_max_bytes(mg_ares *r, const double t[2][3], double packed, double conf)
{
    const char *m = "the widest vector that costs what a half does (x 1.15 or less), where the "
                    "next one costs two loads (x 1.8 to 2.3): a load's time per line";
    double h = t[0][0];
    if (!(t[1][2] / packed >= 1.5)) {
        mg_ares_conclude_none(r, "max_load_bytes", "bytes", m, "a float4 on its own line "
                              "costs x %.2f of one packed with its neighbours': the loads' time "
                              "goes by their bytes, not their lines, so a split vector costs "
                              "what a whole one does", t[1][2] / packed);
        return;
    }
    if (t[1][0] / h >= 1.4) {
        mg_ares_conclude_none(r, "max_load_bytes", "bytes", m, "a float costs x %.2f a half: "
                              "the loads' time follows their bytes, so a split vector costs "
                              "what a whole one does", t[1][0] / h);
        return;
    }
    /* the widest cost of each size: 2, 4, 8, 16 bytes */
    double q[4] = {1, fmax(t[0][1], t[1][0]) / h, fmax(t[0][2], t[1][1]) / h, t[1][2] / h};
    int k = 0;
    while (k < 3 && q[k + 1] <= 1.15) k++;
    if (k == 3)
        mg_ares_conclude_none(r, "max_load_bytes", "bytes", m, "no vector up to 16 bytes "
                              "costs more than a half (x %.2f at 16): at least 16 bytes", q[3]);
    else if (q[k + 1] >= 1.8 && q[k + 1] <= 2.3)
        mg_ares_conclude(r, "max_load_bytes", (double)(2 << k), "bytes", conf, m);
    else
        mg_ares_conclude_none(r, "max_load_bytes", "bytes", m, "a %d-byte vector costs x %.2f "
                              "a half: neither one load nor two", 4 << k, q[k + 1]);
}

void mg_pc_vload(mg_ares *r, const double t[2][3], double packed, double noise)
{
    for (int k = 0; k < 2; k++)
        if (t[k][0] > 0)
            mg_ares_note(r, "%s: time per vector x1, x%.3g, x%.3g at widths 1, 2, 4",
                         k ? "fp32" : "fp16", t[k][1] / t[k][0], t[k][2] / t[k][0]);
    double r4 = t[0][1] / t[1][0], r8 = t[0][2] / t[1][1];
    if (!(r4 > 0) || !(r8 > 0) || !(t[0][0] > 0)) {
        mg_ares_conclude_none(r, "equal_bytes_ratio", "x", vload_m, "a point did not run");
        mg_ares_conclude_none(r, "vload", NULL, vload_m, "a point did not run");
        mg_ares_conclude_none(r, "max_load_bytes", "bytes", vload_m, "a point did not run");
        return;
    }
    double ratio = sqrt(r4 * r8), conf = fmax(0.5, 0.9 - 2 * noise);
    mg_ares_note(r, "half2 / float x%.3g, half4 / float2 x%.3g; float4 on its own line / "
                 "packed x%.3g", r4, r8, t[1][2] / packed);
    mg_ares_conclude(r, "equal_bytes_ratio", ratio, "x", conf, vload_m);
    int near = fabs(ratio - 1.25) < 0.1 || fabs(ratio - 1.5) < 0.1;
    double c = fmax(0.5, conf - (near ? 0.2 : 0));
    if (ratio >= 1.5) {
        mg_ares_conclude_str(r, "vload", "elements", c, vload_m);
        mg_ares_conclude_none(r, "max_load_bytes", "bytes", vload_m, "each element is a load: "
                              "how wide one load may be does not show");
    } else if (ratio <= 1.25) {
        mg_ares_conclude_str(r, "vload", "vector", c, vload_m);
        vload_max_bytes(r, t, packed, c);
    } else {
        mg_ares_conclude_none(r, "vload", NULL, vload_m, "ratio x%.3g: between one load per "
                              "vector (1) and one per element (2)", ratio);
        mg_ares_conclude_none(r, "max_load_bytes", "bytes", vload_m, "vload undetermined");
    }
}

/* ---- lsu ---------------------------------------------------------------------------- */

static const char *const lsu_m = "mlp chase steps of line loads from a first-level-resident "
                                 "buffer: a lone warp's time per further load against a loaded "
                                 "compute unit's per warp-load";

/* Least-squares slope of y over x (n points, NANs skipped); NAN under 2. */
static double lsq_slope(const int *x, const double *y, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(y[i])) continue;
        sx += x[i], sy += y[i], sxx += (double)x[i] * x[i], sxy += x[i] * y[i];
        k++;
    }
    double den = k * sxx - sx * sx;
    return k >= 2 && den > 0 ? (k * sxy - sx * sy) / den : NAN;
}

void mg_pc_lsu(mg_ares *r, const double t1[MG_PPLAN_LSU_NLOADS],
               const double tw[MG_PPLAN_LSU_NWARPS], double t8w, int wmax, double noise)
{
    double lone = lsq_slope(mg_pplan_lsu_loads, t1, MG_PPLAN_LSU_NLOADS);
    int iw = -1;
    for (int i = 0; i < MG_PPLAN_LSU_NWARPS; i++)
        if (mg_pplan_lsu_warps[i] == wmax) iw = i;
    double sp = iw >= 0 && wmax > 1 ? (tw[iw] - t8w) / 8.0 / wmax : NAN;
    int flat = 0;
    for (int i = 0; i < MG_PPLAN_LSU_NWARPS && isfinite(tw[0]); i++)
        if (isfinite(tw[i]) && tw[i] <= 1.25 * tw[0]) flat = mg_pplan_lsu_warps[i];
    if (!(lone > 0) || !(sp > 0)) {
        mg_ares_conclude_none(r, "lone_load_ns", "ns", lsu_m, "a point did not run or the "
                              "time did not grow with the loads");
        mg_ares_conclude_none(r, "sp_load_ns", "ns", lsu_m, "no loaded point");
        mg_ares_conclude_none(r, "lone_ratio", "x", lsu_m, "no ratio");
        return;
    }
    double ratio = lone / sp, conf = fmax(0.5, 0.9 - 2 * noise);
    mg_ares_conclude(r, "lone_load_ns", lone, "ns", conf, lsu_m);
    mg_ares_conclude(r, "sp_load_ns", sp, "ns", conf, lsu_m);
    mg_ares_conclude(r, "lone_ratio", ratio, "x", conf, lsu_m);
    if (flat) mg_ares_conclude(r, "flat_warps", flat, "warps", conf, lsu_m);
    mg_ares_note(r, "a lone warp reaches 1/%.3g of a loaded unit's load rate (%d warps at 16 "
                 "loads within 1.25x of one)", ratio, flat);
}
