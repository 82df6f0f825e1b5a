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
 * way; images: R also within the image width limit).  Local memory: groups
 * of up to 256 items, at least 64 loads per item, 32 groups per compute
 * unit, each over its own copy.  GB/s = bytes read per pass (footprint x
 * items / readers; local: x groups) x passes / the median time.
 * Footprints double from 4 KiB (local, constant: 1 KiB) to
 * mgp_big_footprint (max(4 x the reported global cache, 256 MiB), at most
 * 512 MiB and half the largest allocation); local up to min(local memory,
 * 32 KiB), constant up to min(the constant buffer limit, 64 KiB).  The
 * curve is kept raw; the conclusions are the peak, the bandwidth at the
 * largest footprint and the first drop (knee.h down-step).
 *
 * dram: buffer reads of mgp_big_footprint (at least 256 MiB where the
 * device allows: NVIDIA reports its L1s as the global cache, so the
 * reported size cannot be trusted to exceed the L2), vec 4, unrolled 1
 * and 8; the better of the two.
 */
#include "aspect.h"
#include "analysis/knee.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { BW_BUFFER, BW_IMAGE, BW_LOCAL, BW_CONSTANT };

/* Loads each reader makes per pass, at least: with fewer, a compiler keeps
 * a reader's few loads in registers across passes (they are the same
 * every pass) and the "bandwidth" becomes the adds' throughput (the H100
 * reported 127 TB/s that way). */
#define MIN_LOADS 64
static const char *const mem_names[] = {"buffer", "image", "local", "constant"};

/* The largest power of two <= v (at least 1). */
static int64_t pow2_floor(double v)
{
    int64_t p = 1;
    while ((double)(p * 2) <= v) p *= 2;
    return p;
}

/* The bandwidth schedule format for footprint fp (with %lld for the
 * passes); *bytes_mult = bytes read per pass.  Returns 0, or -1 when no
 * valid launch shape exists. */
static int bw_fmt(const mgp_arun *a, int mem, int64_t fp, const char *extra, char *buf,
                  size_t len, double *bytes_mult)
{
    const mgp_kexec_dev *x = a->dp->x;
    int64_t nc = fp / 16, maxwg = x->max_wg < 256 ? (int64_t)x->max_wg : 256;
    if (mem == BW_LOCAL) {
        int64_t wg = pow2_floor(fmin((double)maxwg, fmax(1, (double)nc / MIN_LOADS)));
        int64_t groups = (int64_t)a->dp->cus * 32;
        snprintf(buf, len, "bandwidth mem=local footprint=%lld items=%lld wg=%lld %s iters=%%lld",
                 (long long)fp, (long long)(wg * groups), (long long)wg, extra);
        *bytes_mult = (double)fp * (double)groups;
        return 0;
    }
    int64_t items = pow2_floor(fmin(2.0 * a->dp->cus * (double)x->max_wg, 1 << 20));
    int64_t wg = items < maxwg ? items : maxwg;
    int64_t r = pow2_floor(fmin((double)items, fmax(1, (double)nc / MIN_LOADS)));
    for (; r >= 1; r /= 2) {
        snprintf(buf, len, "bandwidth mem=%s footprint=%lld items=%lld readers=%lld wg=%lld %s "
                 "iters=%%lld", mem_names[mem], (long long)fp, (long long)items, (long long)r,
                 (long long)wg, extra);
        if (mem != BW_IMAGE) break;
        int64_t sc = nc / r, ih = sc < 4096 ? sc : 4096, iw = r * (sc / ih);
        if (iw <= 16384 && (size_t)iw <= x->img_w && (size_t)ih <= x->img_h) break;
    }
    if (r < 1) return -1;
    *bytes_mult = (double)fp * (double)items / (double)r;
    return 0;
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
    double top = mgp_big_footprint(a);
    int64_t lo = 4096;
    if (mem == BW_LOCAL) top = fmin((double)x->local_mem, 32768), lo = 1024;
    if (mem == BW_CONSTANT) top = fmin((double)x->const_mem, 65536), lo = 1024;
    if (a->quick) top = fmin(top, (double)lo * 16);
    if (a->max_footprint > 0) top = fmin(top, a->max_footprint);   /* local, constant too */
    cJSON *pts = mgp_series(a, "footprint_sweep", "footprint_bytes", "gbytes_per_s");
    double xs[40], ys[40], sp[40], per = 0, best = 0;
    int k = 0;
    for (int64_t fp = lo; fp <= top && k < 40; fp *= a->quick ? 4 : 2) {
        char fmt[256];
        double mult;
        if (bw_fmt(a, mem, fp, "", fmt, sizeof fmt, &mult)) continue;
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
        if (y > best) best = y;
        xs[k] = (double)fp;
        ys[k] = y;
        sp[k++] = p.noise;
    }
    if (a->stopped || a->hung) return;
    const char *m = "bytes read / median time, 16-byte loads, column pattern";
    if (k == 0) {
        mgp_fail(a, MGP_AS_ERROR, "no footprint ran (see the curve)");
        return;
    }
    mgp_conclude(a, "peak_gbps", best, "GB/s", 0.8, m);
    mgp_conclude(a, "largest_footprint_gbps", ys[k - 1], "GB/s", 0.8, m);
    mg_knee_result r;
    const char *md = "x_lo of the first down-step of the bandwidth over the footprint";
    if (k >= 3 && mg_knee_steps(xs, ys, sp, k, NULL, &r) == 0 && r.determined) {
        const mg_knee_step *s = mg_knee_first(&r, -1, 0.5);
        if (s) mgp_conclude(a, "first_drop_bytes", s->x_lo, "bytes", s->confidence, md);
        else mgp_conclude_none(a, "first_drop_bytes", "bytes", md, "no drop in the bandwidth");
        for (int i = 0; i < r.n_steps; i++)
            mgp_note(a, "step x%.2f between %g and %g bytes (%.1f -> %.1f GB/s)",
                     r.step[i].ratio, r.step[i].x_lo, r.step[i].x_hi, r.step[i].y_before,
                     r.step[i].y_after);
    } else {
        mgp_conclude_none(a, "first_drop_bytes", "bytes", md, "%s",
                          k < 3 ? "too few points" : r.why);
    }
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
    for (int v = 0; v < 2; v++) {
        char fmt[256];
        double mult;
        if (bw_fmt(a, BW_BUFFER, fp, variants[v], fmt, sizeof fmt, &mult)) break;
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
        }
    }
    const char *m = "best of two unrolls: buffer reads of a footprint far past the last cache";
    if (best > 0) {
        mgp_conclude(a, "dram_gbps", best, "GB/s", fmax(0.5, 0.9 - 2 * spread), m);
        mgp_note(a, "footprint %lld bytes (reported global cache %g bytes)", (long long)fp, cache);
    } else {
        mgp_fail(a, MGP_AS_ERROR, "no variant ran (see the curve)");
    }
}
