/*
 * asp_bw.c - bandwidth curves over the footprint (romou 3.1 "bandwidth",
 * 5.3; ArchProbe's bandwidth aspects): bw_buffer, bw_image, bw_local,
 * bw_constant, and dram.
 *
 * The bandwidth op reads a footprint in 16-byte loads (float4, or one
 * RGBA fp32 texel), column pattern (neighbouring items read neighbouring
 * chunks), passes scaled until a launch lasts min_ms.  Launch: items =
 * the largest power of two up to 2 x compute units x the largest work
 * group (at most 2^20), in groups of up to 256; readers R = the largest
 * power of two up to the items with at least MIN_LOADS (64) loads each
 * per pass (items g reads as reader g % R: groups of items re-read the
 * same data, so a small footprint still has every item busy, ArchProbe's
 * way; images: R also within the image width limit and, once cache_image
 * has measured the texture L1 and its line, at most a quarter of its
 * lines' worth of texels per row: see mg_pplan_bw).  Local memory: groups
 * of up to 256 items, at least 64 loads per item, 32 groups per compute
 * unit, each over its own copy.  GB/s = bytes read per pass (footprint x
 * items / readers; local: x groups) x passes / the median time.
 * Footprints double from 4 KiB (local, constant: 1 KiB) to
 * mgp_big_footprint (max(4 x the reported global cache, 256 MiB), at most
 * 512 MiB and half the largest allocation); local up to min(local memory,
 * 32 KiB), constant up to min(the constant buffer limit, 64 KiB).  The
 * curve is kept raw; the conclusions are the peak, the bandwidth at the
 * largest footprint and the first drop (knee.h down-step).  Before the
 * sweep the launch is grown at the first footprint (grow_launch: doubled
 * while the rate rises by 5 %), and the sweep uses the grown launch.
 *
 * dram: buffer reads of mgp_big_footprint (at least 256 MiB where the
 * device allows: NVIDIA reports its L1s as the global cache, so the
 * reported size cannot be trusted to exceed the L2), vec 4, unrolled 1
 * and 8; the better of the two, its launch then doubled while the rate
 * rises by 5 % (loads in flight against the DRAM latency).
 */
#include "probe/aspect.h"
#include "sim/analysis/knee.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { BW_BUFFER = MG_PMEM_BUFFER, BW_IMAGE = MG_PMEM_IMAGE, BW_LOCAL = MG_PMEM_LOCAL,
       BW_CONSTANT = MG_PMEM_CONSTANT };

/* Loads each reader makes per pass, at least: with fewer, a compiler keeps
 * a reader's few loads in registers across passes (they are the same
 * every pass) and the "bandwidth" becomes the adds' throughput (the H100
 * reported 127 TB/s that way). */
#define MIN_LOADS 64
#define GROW_MAX  4                 /* launch doublings tried (grow_launch) */
#define GROW_GAIN 0.05              /* the rise that makes a doubling count */

/* The bandwidth schedule format for footprint fp (mg_pplan_bw: the probe's
 * launch, 32 local-memory groups per compute unit). */
static int bw_fmt(const mgp_arun *a, int mem, int64_t fp, int grow, const char *extra, char *buf,
                  size_t len, double *bytes_mult)
{
    mg_pdev pd;
    mgp_pdev(a, &pd);
    double size, w, h;         /* the texture L1 as cache_image measured it (mg_pplan_bw) */
    if (!mgp_earlier(a, "cache_image", "l1_size", &size) &&
        !mgp_earlier(a, "cache_image", "line_width_bytes", &w) &&
        !mgp_earlier(a, "cache_image", "line_height_rows", &h) && size > 0 && w > 0 && h > 0) {
        pd.tex_l1_bytes = (uint64_t)size;
        pd.tex_line_w_bytes = (uint64_t)w;
        pd.tex_line_rows = (uint64_t)h;
    }
    return mg_pplan_bw_grown(&pd, mem, fp, MIN_LOADS, 32, 0, grow, extra, buf, len, bytes_mult);
}

/* One point of memory `mem` at footprint fp, the launch grown `grow`
 * times, into the series pts at x: GB/s, NAN when it did not run (noted;
 * *skip when the device refused it outright); -1 in *stop when the aspect
 * must stop. */
static double bw_take(mgp_arun *a, int mem, int64_t fp, int grow, const char *extra, cJSON *pts,
                      double x, int *stop, int *skip)
{
    char fmt[256];
    double mult;
    *stop = *skip = 0;
    if (bw_fmt(a, mem, fp, grow, extra, fmt, sizeof fmt, &mult)) return NAN;
    mgp_point p;
    if (mgp_take(a, fmt, 1, 65536, &p)) {
        *stop = 1;
        return NAN;
    }
    double y = p.status == MGP_TP_OK ? mult * (double)p.scale / p.median : NAN;
    mgp_point_add(pts, x, y, &p);
    if (p.status != MGP_TP_OK) {
        *skip = p.status == MGP_TP_SKIP;
        mgp_note(a, "footprint %lld, launch doubled %d times: %s", (long long)fp, grow, p.msg);
    }
    return y;
}

/* The launch growth (mg_pplan_bw_grown): at footprint fp the launch
 * doubled while a doubling raises the rate by GROW_GAIN or more, at most
 * GROW_MAX times (series "launch_growth", x = doublings): a launch with too
 * few loads in flight, or whose last wave of groups leaves cores half
 * full, reads low.  Returns the doublings kept, -1 when the aspect must
 * stop. */
static int grow_launch(mgp_arun *a, int mem, int64_t fp, const char *extra, double *best)
{
    cJSON *pts = mgp_series(a, "launch_growth", "launch_doublings", "gbytes_per_s");
    int g = 0, stop, skip;
    *best = NAN;
    for (int k = 0; k <= GROW_MAX; k++) {
        double y = bw_take(a, mem, fp, k, extra, pts, k, &stop, &skip);
        if (stop) return -1;
        if (!isfinite(y) || (isfinite(*best) && y < *best * (1 + GROW_GAIN))) break;
        *best = y;
        g = k;
    }
    if (g) mgp_note(a, "launch doubled %d time%s at footprint %lld: the rate rose by %.0f%% or "
                    "more each time", g, g == 1 ? "" : "s", (long long)fp, 100 * GROW_GAIN);
    return g;
}

/* Sweep the footprints of memory `mem` and conclude. */
static void bw_sweep(mgp_arun *a, int mem)
{
    const mgp_kexec_dev *x = a->dp->x;
    if (mem == BW_IMAGE && !x->images) {
        mgp_fail(a, MGP_AS_SKIPPED, "the device has no image support (CL_DEVICE_IMAGE_SUPPORT "
                 "is CL_FALSE)");
        return;
    }
    mg_pdev pd;
    mgp_pdev(a, &pd);
    double top;
    int64_t lo;
    mg_pplan_bw_range(&pd, mem, mgp_big_footprint(a), &lo, &top);
    if (a->quick) top = fmin(top, (double)lo * 16);
    if (a->max_footprint > 0) top = fmin(top, a->max_footprint);   /* local, constant too */
    double first;
    int grow = grow_launch(a, mem, lo, "", &first);
    if (grow < 0 || a->stopped || a->hung) return;
    cJSON *pts = mgp_series(a, "footprint_sweep", "footprint_bytes", "gbytes_per_s");
    double xs[40], ys[40], sp[40], per = 0;
    int k = 0;
    for (int64_t fp = lo; fp <= top && k < 40; fp *= a->quick ? 4 : 2) {
        char fmt[256];
        double mult;
        if (bw_fmt(a, mem, fp, grow, "", fmt, sizeof fmt, &mult)) continue;
        int64_t start = per > 0 ? (int64_t)ceil(1.3e6 * a->t->min_ms / per) : 1;
        mgp_point p;
        if (mgp_take(a, fmt, start, 65536, &p)) break;
        double y = p.status == MGP_TP_OK ? mult * (double)p.scale / p.median : NAN;
        mgp_point_add(pts, (double)fp, y, &p);
        if (p.status != MGP_TP_OK) {
            if (k == 0 && p.status == MGP_TP_SKIP) {
                mgp_fail(a, MGP_AS_SKIPPED, "%s", p.msg);
                return;
            }
            mgp_note(a, "footprint %lld: %s", (long long)fp, p.msg);
            continue;
        }
        per = p.median / (double)p.scale;
        xs[k] = (double)fp;
        ys[k] = y;
        sp[k++] = p.noise;
    }
    if (a->stopped || a->hung) return;
    if (k == 0) {
        mgp_fail(a, MGP_AS_ERROR, "no footprint ran (see the curve)");
        return;
    }
    mg_ares r = mgp_ares(a);
    mg_pc_bw(&r, xs, ys, sp, k);
}

void mgp_asp_bw_buffer(mgp_arun *a) { bw_sweep(a, BW_BUFFER); }
void mgp_asp_bw_image(mgp_arun *a) { bw_sweep(a, BW_IMAGE); }
void mgp_asp_bw_local(mgp_arun *a) { bw_sweep(a, BW_LOCAL); }
void mgp_asp_bw_constant(mgp_arun *a) { bw_sweep(a, BW_CONSTANT); }

void mgp_asp_dram(mgp_arun *a)
{
    double cache = (double)a->dp->cache_size;
    double fpd = mgp_big_footprint(a);
    if (a->quick) fpd = fmin(fpd, 16.0 * (1 << 20));
    int64_t fp = 1;
    while (fp * 2 <= fpd) fp *= 2;
    static const char *const variants[] = {"vec=4 unroll=1", "vec=4 unroll=8"};
    cJSON *pts = mgp_series(a, "variants", "unroll", "gbytes_per_s");
    double best = 0, spread = 0;
    int bv = 0;
    for (int v = 0; v < 2; v++) {
        char fmt[256];
        double mult;
        if (bw_fmt(a, BW_BUFFER, fp, 0, variants[v], fmt, sizeof fmt, &mult)) break;
        mgp_point p;
        if (mgp_take(a, fmt, 1, 65536, &p)) return;
        double y = p.status == MGP_TP_OK ? mult * (double)p.scale / p.median : NAN;
        mgp_point_add(pts, v ? 8 : 1, y, &p);
        if (p.status != MGP_TP_OK) {
            mgp_note(a, "%s: %s", variants[v], p.msg);
            continue;
        }
        if (y > best) {
            best = y;
            spread = p.noise;
            bv = v;
        }
    }
    if (best > 0) {            /* the better unroll's launch grown while the rate rises */
        cJSON *gp = mgp_series(a, "launch_growth", "launch_doublings", "gbytes_per_s");
        int g = 0, stop, skip;
        for (int k = 1; k <= GROW_MAX; k++) {
            double y = bw_take(a, BW_BUFFER, fp, k, variants[bv], gp, k, &stop, &skip);
            if (stop) return;
            if (!isfinite(y) || y < best * (1 + GROW_GAIN)) break;
            best = y;
            g = k;
        }
        if (g) mgp_note(a, "%s: launch doubled %d time%s: the rate rose by %.0f%% or more each "
                        "time", variants[bv], g, g == 1 ? "" : "s", 100 * GROW_GAIN);
    }
    const char *m = "best of two unrolls, the better one's launch doubled while the rate rises "
                    "by 5 %: buffer reads of a footprint far past the last cache";
    if (best > 0) {
        mgp_conclude(a, "dram_gbps", best, "GB/s", fmax(0.5, 0.9 - 2 * spread), m);
        mgp_note(a, "footprint %lld bytes (reported global cache %g bytes)", (long long)fp, cache);
    } else {
        mgp_fail(a, MGP_AS_ERROR, "no variant ran (see the curve)");
    }
}
