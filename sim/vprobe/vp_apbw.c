/*
 * vp_apbw.c - the bandwidth aspects in ArchProbe's shape (`mgsim vprobe
 * --sweep archprobe`): the footprints and the access pattern of
 * ArchProbe's buffer, image, local and constant bandwidth kernels
 * (microsoft/ArchProbe apps/archprobe/app.cpp), so the model's curve can
 * be set point by point against an imported ArchProbe report.
 *
 * ArchProbe reads float4 vectors (RGBA fp32 texels for images, a 1D
 * image): work groups of the device's largest size W, item l of a group
 * reading vector (base + l + k W) & (N - 1), k < 64, N the footprint's
 * vectors, base = group x 64 W.  So up to W vectors every item reads one
 * vector again and again (the generator's bandwidth op with readers = N,
 * one load per pass); up to 64 W every group reads the same N vectors, W
 * readers of N / W each (readers = W); past that the groups stream
 * disjoint blocks (readers = the launch).  Local memory: a group's own
 * array of N vectors, read by groups of W items the same way: up to W
 * vectors item l reads vector l % N (readers = N), past that W readers of
 * N / W vectors each.  Footprints
 * 16 B x 2^k: buffers and images below 128 MiB (ArchProbe's RANGE),
 * local and constant memory below their sizes.
 *
 * The launch is 4 groups per core (ArchProbe launches the footprint's
 * worth, up to millions of items: the rate per pass is the same once
 * every core has groups waiting); GB/s = bytes of the measured passes /
 * their simulated time, passes doubled from 4 until the rate settles
 * (mg_vp_measure_steady).
 */
#include "sim/vprobe/vp.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>

#define AP_VEC       16                  /* bytes per float4 */
#define AP_LOADS     64                  /* ArchProbe's loads per item (16 unrolled x 4) */
#define AP_RANGE     ((int64_t)128 << 20)
#define AP_GROUPS    4                   /* groups per core */
#define AP_MAXP      40

static const char *const mem_name[] = {"buffer", "image", "local", "constant"};

/* The schedule of footprint fp (one "%lld": the passes) and the bytes
 * one pass reads; -1 when no shape fits. */
static int ap_plan(const mg_vp *v, int mem, int64_t fp, char *fmt, size_t len, double *bytes)
{
    int64_t W = (int64_t)v->pd.max_wg > 1024 ? 1024 : (int64_t)v->pd.max_wg;
    int64_t N = fp / AP_VEC, cus = v->pd.cus ? v->pd.cus : 1;
    if (N < 1 || W < 1) return -1;
    int64_t wg = W, readers, S;
    if (mem == MG_PMEM_LOCAL) {
        readers = N < W ? N : W;
        S = N / readers;
    } else if (N <= W) {
        readers = N, S = 1;
    } else if (N <= AP_LOADS * W) {
        readers = W, S = N / W;
    } else {
        readers = 0, S = N / (AP_GROUPS * cus * W);
    }
    int64_t items = AP_GROUPS * cus * wg;
    if (readers == 0 && mem != MG_PMEM_LOCAL && S < 1) return -1;
    *bytes = (double)items * (double)(S < 1 ? 1 : S) * AP_VEC;
    int n = snprintf(fmt, len, "bandwidth mem=%s footprint=%lld items=%lld iters=%%lld "
                     "readers=%lld wg=%lld,1,1 pattern=column vec=4 storage=fp32",
                     mem_name[mem], (long long)fp, (long long)items, (long long)readers,
                     (long long)wg);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* The largest footprint swept (exclusive). */
static int64_t ap_range(const mg_vp *v, int mem)
{
    if (mem == MG_PMEM_LOCAL) return (int64_t)v->pd.local_mem;
    if (mem == MG_PMEM_CONSTANT) return (int64_t)v->pd.const_mem;
    return AP_RANGE;
}

void mg_vp_apbw(mg_vp *v, int mem)
{
    cJSON *pts = mg_ares_series(&v->r, "footprint_sweep", "footprint_bytes", "gbytes_per_s");
    double xs[AP_MAXP], ys[AP_MAXP];
    int k = 0;
    for (int64_t fp = AP_VEC; fp < ap_range(v, mem) && k < AP_MAXP; fp *= 2) {
        char fmt[400];
        double bytes;
        if (ap_plan(v, mem, fp, fmt, sizeof fmt, &bytes)) continue;
        int big = fp > ((int64_t)1 << 20);
        mg_vp_point p;
        if (mg_vp_measure_steady(v, fmt, big ? 1 : 4, big ? 2 : 8, big ? 4 : 64, &p)) return;
        double y = p.ok ? bytes * (double)(p.b - p.a) / ((p.t_b - p.t_a) * 1e9) : NAN;
        mg_vp_point_add(pts, (double)fp, y, &p);
        if (!p.ok) {
            mg_ares_note(&v->r, "footprint %lld: %s", (long long)fp, p.msg);
            continue;
        }
        xs[k] = (double)fp;
        ys[k++] = y;
    }
    if (k == 0) {
        mg_vp_fail(v, "no footprint ran (see the curve)");
        return;
    }
    mg_pc_bw(&v->r, xs, ys, NULL, k);
    mg_ares_note(&v->r, "ArchProbe's sweep (--sweep archprobe): its footprints and access "
                 "pattern, %d groups per core", AP_GROUPS);
}
