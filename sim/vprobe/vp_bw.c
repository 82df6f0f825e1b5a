/*
 * vp_bw.c - the virtual bandwidth aspects (bw_buffer, bw_image, bw_local,
 * bw_constant, dram) and rstride2d: mgprobe's launches (mg_pplan_bw)
 * through the model.
 *
 * Footprints x4 from 4 KiB (local, constant: 1 KiB) to 2 x the first
 * cache level the cache aspects found (at least 64 KiB; without them
 * 4 MiB; local and constant: their limits): past the first level the
 * model's warps drift apart over passes, and re-reads that hit a cache
 * would pass for bandwidth (the peak is behind us there anyway).  The
 * launch is the probe's (2 x compute units x the largest group, in groups
 * of up to 256) in a whole number of groups per compute unit (per-core
 * pipes: 8 groups on 5 cores deliver 5/8 x 8/10 = 80 %, as Mali-G76 showed),
 * with at least 4 loads per reader per pass instead of 64
 * (64 keeps a compiler from holding the loads in registers; the model
 * holds nothing) and 8 local-memory groups per compute unit instead of 32:
 * both make the point cheaper to simulate, and the first only changes
 * what is measured where lines per warp load cost time (NVIDIA's
 * buffer_l1.lookup_bytes: the readers set how many lines a warp's load
 * spans, so 4 loads per reader give the H100 64 readers whose float4 loads
 * span 4 lines, a quarter of the rate).  So the buffer sweep's first
 * footprint, where the peak is, runs mgprobe's own 64 loads per reader
 * (the H100 model reads 33 TB/s there; 64 loads at every footprint would
 * go on 16.7 and 8.4 TB/s at 16 and 64 KiB, as the real H100 measured 31,
 * 16 and 8 TB/s at 4-8, 16 and 32 readers, at 4x the simulation time).
 * Image reads are shaped to the texture L1 cache_image measured
 * (mg_pplan_bw), and before the sweep the launch is grown at the first
 * footprint while a doubling raises the rate
 * by 5 % (grow_launch: a last wave of groups that leaves cores half full,
 * as Adreno 650's 6 groups per core with 4 resident did, reads low); the
 * sweep uses the grown launch.  GB/s = the bytes of the
 * second pass (then passes 3-4, 5-8 while the rate changes by 0.2 % or
 * more: the first pass overlaps the second as warps get ahead) / their
 * simulated time.
 *
 * dram: the probe's two unrolls, but one pass each over F and 2F (F half
 * the largest power of two up to 4 x the L2): GB/s = F / (time(2F) -
 * time(F)).  Repeated passes would not do: the model's warps drift apart,
 * so a warp re-reads its chunks while most of the others have not evicted
 * them, and the L2 serves passes after the first even at 4 x its size
 * (Mali-G76: 13.75 GB/s "DRAM" against 11 configured); a first pass
 * misses everything.  A reader per item (F holds a load per item), and the
 * better unroll's launch doubled while the rate rises by 5 % (Adreno 740's
 * 600 ns DRAM needs twice the probe's launch in flight).
 */
#include "sim/vprobe/vp.h"
#include "sim/analysis/knee.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>

#define MIN_LOADS    4
#define PROBE_LOADS  64             /* mgprobe's loads per reader (asp_bw.c) */
#define LOCAL_GROUPS 8
#define MAXP         40
#define GROW_MAX     4              /* launch doublings tried (mg_pplan_bw_grown) */
#define GROW_GAIN    0.05           /* the rise that makes a doubling count */

/* The largest footprint of the sweeps: 4 x the L2, at least 1 MiB. */
static double big(const mg_vp *v)
{
    double b = 4.0 * (double)v->pd.cache_size;
    return b < 1 << 20 ? 1 << 20 : b;
}

/* The device as the bandwidth plan sees it: the probe's, plus the texture
 * L1 and its line as cache_image measured them (mg_pplan_bw shapes image
 * reads to them). */
static mg_pdev bw_pdev(const mg_vp *v)
{
    mg_pdev pd = v->pd;
    double size, w, h;
    if (!mg_vp_earlier(v, "cache_image", "l1_size", &size) &&
        !mg_vp_earlier(v, "cache_image", "line_width_bytes", &w) &&
        !mg_vp_earlier(v, "cache_image", "line_height_rows", &h) && size > 0 && w > 0 && h > 0) {
        pd.tex_l1_bytes = (uint64_t)size;
        pd.tex_line_w_bytes = (uint64_t)w;
        pd.tex_line_rows = (uint64_t)h;
    }
    return pd;
}

/* One bandwidth point: GB/s of footprint fp (NAN when it did not run);
 * -1 in *stop when the aspect must stop. */
static double bw_point(mg_vp *v, int mem, int64_t fp, int loads, int grow, const char *extra,
                       cJSON *pts, double x, int *stop)
{
    char fmt[300];
    double mult;
    *stop = 0;
    mg_pdev pd = bw_pdev(v);
    if (mg_pplan_bw_grown(&pd, mem, fp, loads, LOCAL_GROUPS, 1, grow, extra, fmt,
                          sizeof fmt, &mult))
        return NAN;
    mg_vp_point p;
    if (mg_vp_measure_steady(v, fmt, 1, 2, 8, &p)) {
        *stop = 1;
        return NAN;
    }
    double y = p.ok ? mult * (double)(p.b - p.a) / ((p.t_b - p.t_a) * 1e9) : NAN;
    mg_vp_point_add(pts, x, y, &p);
    if (!p.ok) mg_ares_note(&v->r, "footprint %lld: %s", (long long)fp, p.msg);
    return y;
}

/* The launch growth of a sweep: at footprint fp, the launch doubled while
 * a doubling raises the rate by GROW_GAIN or more (at most GROW_MAX
 * times; "launch_growth": x = doublings).  Returns the doublings kept, or
 * -1 when the aspect must stop. */
static int grow_launch(mg_vp *v, int mem, int64_t fp, const char *extra)
{
    cJSON *pts = mg_ares_series(&v->r, "launch_growth", "launch_doublings", "gbytes_per_s");
    double best = NAN;
    int g = 0, stop;
    for (int k = 0; k <= GROW_MAX; k++) {
        double y = bw_point(v, mem, fp, MIN_LOADS, k, extra, pts, k, &stop);
        if (stop) return -1;
        if (!isfinite(y)) break;
        if (isfinite(best) && y < best * (1 + GROW_GAIN)) break;
        best = y;
        g = k;
    }
    if (g) mg_ares_note(&v->r, "launch doubled %d time%s at footprint %lld: the rate rose by "
                        "%.0f%% or more each time", g, g == 1 ? "" : "s", (long long)fp,
                        100 * GROW_GAIN);
    return g;
}

static void bw_sweep(mg_vp *v, int mem)
{
    if (v->archprobe) {
        mg_vp_apbw(v, mem);
        return;
    }
    int64_t lo;
    double hi, l1 = 0;
    mg_pplan_bw_range(&v->pd, mem, big(v), &lo, &hi);
    /* past 4 x the first cache level the peak is behind us: stop there
     * (the probe goes on to 256 MiB; the model would take minutes) */
    if (mem == MG_PMEM_BUFFER) mg_vp_earlier(v, "cache_buffer", "l1_size", &l1);
    if (mem == MG_PMEM_IMAGE) mg_vp_earlier(v, "cache_image", "l1_size", &l1);
    hi = fmin(hi, l1 > 0 ? fmax(65536, 2 * l1) : 4 << 20);
    int grow = grow_launch(v, mem, lo, "");
    if (grow < 0) return;
    cJSON *pts = mg_ares_series(&v->r, "footprint_sweep", "footprint_bytes", "gbytes_per_s");
    double xs[MAXP], ys[MAXP];
    int k = 0, stop;
    for (int64_t fp = lo; (double)fp <= hi && k < MAXP; fp *= 4) {
        /* buffers: the first footprint with mgprobe's own plan (see above) */
        int loads = mem == MG_PMEM_BUFFER && fp == lo ? PROBE_LOADS : MIN_LOADS;
        double y = bw_point(v, mem, fp, loads, grow, "", pts, (double)fp, &stop);
        if (stop) return;
        if (!isfinite(y)) continue;
        xs[k] = (double)fp;
        ys[k++] = y;
    }
    if (k == 0) {
        mg_vp_fail(v, "no footprint ran (see the curve)");
        return;
    }
    mg_pc_bw(&v->r, xs, ys, NULL, k);
}

void mg_vp_bw_buffer(mg_vp *v) { bw_sweep(v, MG_PMEM_BUFFER); }
void mg_vp_bw_image(mg_vp *v) { bw_sweep(v, MG_PMEM_IMAGE); }
void mg_vp_bw_local(mg_vp *v) { bw_sweep(v, MG_PMEM_LOCAL); }
void mg_vp_bw_constant(mg_vp *v) { bw_sweep(v, MG_PMEM_CONSTANT); }

/* One cold pass over fp and 2 fp with `extra`, the launch grown `grow`
 * times, a reader per item (at least one load each: the launches of fp
 * and 2 fp differ only in the loads per item): GB/s, NAN when either
 * failed or F has fewer loads than the launch items; *stop on a bad
 * schedule. */
static double dram_point(mg_vp *v, int64_t fp, int grow, const char *extra, cJSON *pts, double x,
                         int *stop)
{
    char f1[300], f2[300];
    double m1, m2;
    *stop = 0;
    if (mg_pplan_bw_grown(&v->pd, MG_PMEM_BUFFER, fp, 1, LOCAL_GROUPS, 0, grow, extra, f1,
                          sizeof f1, &m1) ||
        mg_pplan_bw_grown(&v->pd, MG_PMEM_BUFFER, 2 * fp, 1, LOCAL_GROUPS, 0, grow, extra, f2,
                          sizeof f2, &m2) || m2 != 2 * m1)
        return NAN;          /* (m2 != 2 m1: F has fewer loads than items, a reader each) */
    mg_vp_point p, q;
    if (mg_vp_measure_once(v, f1, 1, &p) < 0 || mg_vp_measure_once(v, f2, 1, &q) < 0) {
        *stop = 1;
        return NAN;
    }
    mg_vp_point r = q;
    r.t_a = p.t_b;
    r.ok = p.ok && q.ok && q.t_b > p.t_b;
    if (!r.ok && !r.msg[0]) snprintf(r.msg, sizeof r.msg, "%s", p.ok ? q.msg : p.msg);
    double y = r.ok ? (m2 - m1) / ((q.t_b - p.t_b) * 1e9) : NAN;
    cJSON *o = mg_vp_point_add(pts, x, y, &r);
    cJSON_ReplaceItemInObjectCaseSensitive(o, "loop_counts", cJSON_CreateIntArray(
        (const int[]){1, 1}, 2));
    cJSON_AddItemToObject(o, "footprints", cJSON_CreateIntArray(
        (const int[]){(int)(fp >> 10), (int)(fp >> 9)}, 2));
    return y;
}

void mg_vp_dram(mg_vp *v)
{
    int64_t fp = mg_pplan_pow2_floor(big(v)) / 2;
    static const char *const variants[] = {"vec=4 unroll=1", "vec=4 unroll=8"};
    cJSON *pts = mg_ares_series(&v->r, "variants", "unroll", "gbytes_per_s");
    double best = 0;
    int stop, bi = 0;
    for (int i = 0; i < 2; i++) {
        double y = dram_point(v, fp, 0, variants[i], pts, i ? 8 : 1, &stop);
        if (stop) return;
        if (isfinite(y) && y > best) best = y, bi = i;
    }
    if (best <= 0) {
        mg_vp_fail(v, "no variant ran (see the curve)");
        return;
    }
    /* the better unroll's launch doubled while the rate rises (loads in
     * flight against the DRAM latency) */
    cJSON *gp = mg_ares_series(&v->r, "launch_growth", "launch_doublings", "gbytes_per_s");
    int g = 0;
    for (int k = 1; k <= GROW_MAX; k++) {
        double y = dram_point(v, fp, k, variants[bi], gp, k, &stop);
        if (stop) return;
        if (!isfinite(y) || y < best * (1 + GROW_GAIN)) break;
        best = y;
        g = k;
    }
    if (g) mg_ares_note(&v->r, "%s: launch doubled %d time%s: the rate rose by %.0f%% or more "
                        "each time", variants[bi], g, g == 1 ? "" : "s", 100 * GROW_GAIN);
    mg_ares_conclude(&v->r, "dram_gbps", best, "GB/s", 0.9, "best of two unrolls, the better "
                     "one's launch doubled while the rate rises by 5 %: one cold pass over F "
                     "and over 2F, F = half the largest power of two up to 4 x the reported "
                     "global cache; GB/s = F / the time difference");
    mg_ares_note(&v->r, "footprints %lld and %lld bytes (the reported global cache is %llu "
                 "bytes); loop_counts [1, 1], footprints in KiB", (long long)fp,
                 (long long)(2 * fp), (unsigned long long)v->pd.cache_size);
}

void mg_vp_rstride2d(mg_vp *v)
{
    cJSON *pts = mg_ares_series(&v->r, "runs", "seed", "ns_per_load");
    double lat[16];
    int k = 0;
    for (int seed = 1; seed <= 16; seed++) {
        char fmt[256];
        snprintf(fmt, sizeof fmt, "rstride2d W=1024 H=1024 strides=1,2,3,4 seed=%d iters=%%lld",
                 seed);
        mg_vp_point p;
        if (mg_vp_measure(v, fmt, 4096, 8192, &p)) return;
        mg_vp_point_add(pts, seed, p.ns, &p);
        if (p.ok) lat[k++] = p.ns;
    }
    if (k == 0) {
        mg_vp_fail(v, "no run succeeded (see the curve)");
        return;
    }
    const char *m = "median over runs of ns per dependent load (the raw runs are the data)";
    mg_ares_conclude(&v->r, "median_latency_ns", mg_knee_median(lat, k), "ns", 0.8, m);
    double spread = mg_knee_spread(lat, k);
    mg_ares_conclude(&v->r, "latency_spread", spread < 1e-9 ? 0 : spread, NULL, 0.8,
                     "(max - min) / median of the runs' latencies");
    mg_ares_note(&v->r, "the per-run stride histograms of mgprobe are not computed here (the "
                 "chains are the generator's, the same on any device)");
}
