/*
 * bench_sample.c - accuracy and speed of sampled simulation (sim/MODEL.md,
 * "Sampled simulation"): every kernel of a fixed benchmark set (operators
 * x configs) simulated in full and with --sample auto; per kernel the
 * error of the sampled cycles against the full simulation, the estimated
 * error, the DRAM bytes' error and the speed-up; then max and mean error
 * and the speed-ups.  Prints; asserts nothing (the bounds are asserted on
 * a smaller set by tests/unit/test_sample.c).  Also the trace's lower
 * bound of each launch (sim/MODEL.md, "The trace's lower bound") against
 * its full replay: never above it, and how tight.
 *
 * Usage: bench_sample [SUBSTRING]   (only kernels whose line contains it)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/config/device.h"
#include "traces/gen/gen.h"
#include "sim/model/bound.h"
#include "sim/model/model.h"

/* config, schedule (warp= defaults to the device's); "big" marks a conv of
 * 28x28 or larger (the speed-up aim). */
typedef struct bk {
    const char *cfg, *sched;
} bk;

static const bk kernels[] = {
    /* conv2d 1x1; the first two are the example (14 waves of work
     * groups on adreno640: too short to sample) */
    {"adreno640", "conv2d H=56 W=56 Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 layout=image"},
    {"mali-g76-mp5", "conv2d H=56 W=56 Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 layout=image"},
    {"adreno640", "conv2d H=28 W=28 Cin=256 Cout=256 K=1 tile=1x4 wg=4,4 storage=fp16 compute=fp16"},
    {"adreno740", "conv2d H=56 W=56 Cin=256 Cout=256 K=1 tile=1x4 wg=4,4 storage=fp16 compute=fp16"},
    {"adreno640", "conv2d H=28 W=28 Cin=256 Cout=256 K=1 tile=1x4 wg=1,1,1 storage=fp16 compute=fp16"},
    {"mali-g77", "conv2d H=112 W=112 Cin=16 Cout=128 K=1 tile=1x4 wg=8,8,4"},
    {"adreno650", "conv2d H=56 W=56 Cin=64 Cout=128 K=1 tile=1x4 wg=8,8 layout=buffer"},
    {"mali-g76-mp5", "conv2d H=112 W=112 Cin=32 Cout=64 K=1 tile=1x4 wg=4,4,4 layout=buffer"},
    {"adreno640", "conv2d H=56 W=56 Cin=128 Cout=128 K=1 tile=2x4 wg=4,4"},
    {"mali-g77", "conv2d H=224 W=224 Cin=16 Cout=64 K=1 tile=2x4 wg=8,4,2"},
    {"adreno740", "conv2d H=56 W=56 Cin=128 Cout=256 K=1 tile=1x8 wg=4,1,2 layout_in=buffer"},
    {"adreno640", "conv2d H=112 W=112 Cin=32 Cout=64 K=1 tile=1x4 wg=8,8"},
    {"mali-g76-mp5", "conv2d H=112 W=112 Cin=32 Cout=64 K=1 tile=1x4 wg=8,8"},
    {"adreno630", "conv2d H=14 W=14 Cin=512 Cout=512 K=1 tile=1x4 wg=16,1,1"},
    {"adreno740", "conv2d H=14 W=14 Cin=512 Cout=512 K=1 tile=1x4 wg=4,1,1"},
    /* conv2d 3x3, strided, boundary tiles, 5x5 */
    {"adreno640", "conv2d H=56 W=56 Cin=64 Cout=64 K=3 pad=1 tile=2x4 wg=4,4"},
    {"mali-g77", "conv2d H=224 W=224 Cin=8 Cout=16 K=3 pad=1 tile=1x4 wg=2,2"},
    {"adreno640", "conv2d H=28 W=28 Cin=128 Cout=128 K=3 pad=1 tile=1x4 wg=4,4,1 storage=fp16 compute=fp16"},
    {"mali-g76-mp5", "conv2d H=112 W=112 Cin=16 Cout=64 K=3 pad=1 tile=2x4 wg=4,4,4"},
    {"adreno650", "conv2d H=112 W=112 Cin=32 Cout=64 K=3 stride=2 pad=1 tile=1x4 wg=4,8"},
    {"adreno740", "conv2d H=112 W=112 Cin=32 Cout=64 K=3 stride=2 pad=1 tile=1x4 wg=4,4"},
    {"adreno640", "conv2d H=36 W=36 Cin=96 Cout=288 K=3 stride=2 pad=0 tile=1x4 wg=4,4,1 storage=fp16 compute=fp16"},
    {"mali-g76-mp5", "conv2d H=144 W=144 Cin=32 Cout=288 K=3 stride=2 pad=0 tile=1x4 wg=4,4,4 storage=fp16 compute=fp16"},
    {"adreno640", "conv2d H=57 W=57 Cin=64 Cout=96 K=3 pad=1 tile=4x4 wg=8,4"},
    {"adreno650", "conv2d H=113 W=113 Cin=16 Cout=40 K=3 pad=1 tile=3x4 wg=2,4"},
    {"adreno740", "conv2d H=114 W=114 Cin=32 Cout=40 K=3 pad=0 tile=3x4 wg=2,4"},
    {"adreno640", "conv2d H=100 W=100 Cin=16 Cout=16 K=5 pad=2 tile=1x4 wg=4,4"},
    /* depthwise */
    {"adreno640", "conv2d H=112 W=112 Cin=32 Cout=32 K=3 pad=1 depthwise=1 tile=1x4 wg=8,8"},
    {"mali-g77", "conv2d H=224 W=224 Cin=64 Cout=64 K=3 pad=1 depthwise=1 tile=1x4 wg=4,8,8"},
    {"adreno740", "conv2d H=56 W=56 Cin=128 Cout=128 K=3 pad=1 depthwise=1 tile=2x4 wg=2,4"},
    {"mali-g76-mp5", "conv2d H=224 W=224 Cin=64 Cout=64 K=3 pad=1 depthwise=1 tile=2x4 wg=4,8,4"},
    {"adreno650", "conv2d H=112 W=112 Cin=144 Cout=144 K=3 stride=2 pad=1 depthwise=1 tile=1x4 wg=4,16"},
    {"adreno640", "conv2d H=112 W=112 Cin=144 Cout=144 K=3 stride=2 pad=1 depthwise=1 tile=1x4 wg=4,16"},
    /* matmul and fully connected */
    {"adreno640", "matmul M=512 N=512 K=128 tile=2x4 wg=8,4"},
    {"mali-g77", "matmul M=2048 N=1024 K=32 tile=2x4 wg=16,8"},
    {"adreno740", "matmul M=1024 N=1024 K=128 tile=2x4 wg=8,4 layout=buffer"},
    {"mali-g76-mp5", "matmul M=1024 N=512 K=64 tile=2x4 wg=8,8 layout=buffer"},
    {"adreno650", "matmul M=768 N=768 K=128 tile=4x4 wg=4,4 storage=fp16 compute=fp16"},
    {"adreno640", "matmul M=1000 N=400 K=128 tile=2x4 wg=8,4"},
    {"mali-g77", "matmul M=1000 N=200 K=128 tile=2x4 wg=8,4"},
    {"adreno640", "matmul M=1 N=32768 K=256 tile=1x4 wg=4,1,16 split=16 layout=buffer"},
    {"mali-g76-mp5", "matmul M=1 N=32768 K=256 tile=1x4 wg=4,1,16 split=16 layout=buffer"},
    {"adreno740", "matmul M=1 N=4096 K=1024 tile=1x4 wg=4,1,16 split=16 layout=buffer"},
    /* softmax, layernorm */
    {"adreno640", "softmax M=4096 N=256 split=16 wg=4,1,16"},
    {"mali-g77", "softmax M=32768 N=256 split=16 wg=16,1,16"},
    {"adreno740", "softmax M=32768 N=256 split=8 wg=8,1,8 layout=buffer"},
    {"mali-g76-mp5", "softmax M=32768 N=256 split=8 wg=8,1,8 layout=buffer"},
    {"adreno640", "layernorm M=4096 N=768 split=32 wg=2,1,32"},
    {"mali-g77", "layernorm M=32768 N=256 split=16 wg=16,1,16"},
    {"adreno650", "layernorm M=32768 N=128 split=4 wg=16,1,4 layout=buffer"},
    {"adreno740", "layernorm M=65536 N=128 split=4 wg=16,1,4 layout=buffer"},
    /* eltwise */
    {"adreno640", "eltwise H=224 W=224 C=32 wg=64"},
    {"mali-g76-mp5", "eltwise H=224 W=224 C=64 wg=256"},
    {"adreno740", "eltwise H=112 W=112 C=96 layout=buffer wg=128"},
    {"mali-g77", "eltwise H=224 W=224 C=96 layout=buffer wg=256"},
    {"adreno640", "eltwise H=100 W=100 C=32 wg=48"},
    {"adreno630", "eltwise H=100 W=100 C=32 wg=48"},
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);   /* CPU time: the machine may be shared */
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Simulate `sched` on dev with `sample`; seconds taken in *secs. */
static int run(const mg_device *dev, const char *sched, int sample, mg_sim_stats *st,
               double *secs, mg_diag *d)
{
    char warp[32];
    snprintf(warp, sizeof warp, "warp=%lld", (long long)dev->warp_width);
    mg_schedule s;
    mg_gen *g = calloc(1, sizeof *g);
    int rc = -1;
    double t0 = now();
    if (g && !mg_schedule_parse_line(sched, warp, &s, d) && !mg_gen_prepare(g, &s, d)) {
        mg_gen_stream gs;
        mg_trace_source src = mg_gen_source(&gs, g);
        mg_sim_opts o = {.quiet = 1, .sample = sample};
        rc = mg_sim_run(dev, &src, &o, st, d);
    }
    *secs = now() - t0;
    if (g) mg_gen_free(g);
    free(g);
    return rc;
}

/* The trace's lower bound of `sched` on dev, in replay cycles; -1 on
 * failure. */
static double trace_bound(const mg_device *dev, const char *sched, mg_diag *d)
{
    char warp[32];
    snprintf(warp, sizeof warp, "warp=%lld", (long long)dev->warp_width);
    mg_schedule s;
    mg_gen *g = calloc(1, sizeof *g);
    double b = -1;
    if (g && !mg_schedule_parse_line(sched, warp, &s, d) && !mg_gen_prepare(g, &s, d)) {
        mg_gen_stream gs;
        mg_trace_source src = mg_gen_source(&gs, g);
        mg_bound acc;
        mg_bound_init(&acc, dev);
        if (!mg_bound_launch(&acc, &src, d)) b = mg_bound_cycles(&acc, NULL);
    }
    if (g) mg_gen_free(g);
    free(g);
    return b;
}

static double pct(double full, double x) { return full ? 100.0 * (x - full) / full : 0; }

/* The running totals over the kernels. */
typedef struct tally {
    int n, nsamp, covered, nbig;            /* kernels, sampled, covered by the estimate, big */
    double emax, esum, smax, ssum, dmax;    /* |cycles error| all, sampled; |DRAM error| */
    double tfull, tsamp;                    /* CPU seconds */
    double big_min, big_max, big_tf, big_ts;
    const char *big_best;
    double bnd_min, bnd_max;                /* trace's bound / full replay */
    int bnd_over;
} tally;

/* Add one kernel's figures to t: the full and sampled stats and times. */
static void tally_add(tally *t, const bk *k, const mg_sim_stats *full, const mg_sim_stats *smp,
                      double tf, double ts)
{
    double err = pct(full->cycles, smp->cycles);
    double derr = pct(full->lv[MG_LV_DRAM].bytes, smp->lv[MG_LV_DRAM].bytes);
    t->n++;
    t->tfull += tf;
    t->tsamp += ts;
    if (fabs(err) > t->emax) t->emax = fabs(err);
    t->esum += fabs(err);
    if (!smp->sample_used) return;
    t->nsamp++;
    if (fabs(err) > t->smax) t->smax = fabs(err);
    if (fabs(derr) > t->dmax) t->dmax = fabs(derr);
    t->ssum += fabs(err);
    t->covered += smp->sample_error >= 0 && fabs(err) <= 100 * smp->sample_error;
    /* the speed-up aim: sampled convs of 28x28 and larger */
    if (!strncmp(k->sched, "conv2d", 6) && !strstr(k->sched, "H=14 ")) {
        t->nbig++;
        t->big_tf += tf;
        t->big_ts += ts;
        if (tf / ts < t->big_min) t->big_min = tf / ts;
        if (tf / ts > t->big_max) {
            t->big_max = tf / ts;
            t->big_best = k->sched;
        }
    }
}

/* Simulate kernel k in full and sampled, take its trace bound, print its
 * line and add it to t.  0, or -1 with the messages printed. */
static int bench_one(const bk *k, tally *t)
{
    char path[256];
    snprintf(path, sizeof path, "configs/devices/%s.json", k->cfg);
    mg_diag d;
    mg_diag_init(&d);
    mg_device *dev = malloc(sizeof *dev);
    mg_sim_stats full, smp;
    double tf, ts;
    if (!dev || mg_device_load(path, 0, dev, &d) ||
        run(dev, k->sched, MG_SAMPLE_OFF, &full, &tf, &d) ||
        run(dev, k->sched, MG_SAMPLE_AUTO, &smp, &ts, &d)) {
        mg_diag_print(&d, stderr, "bench_sample");
        return -1;
    }
    double bnd = trace_bound(dev, k->sched, &d);
    mg_diag_free(&d);
    if (bnd >= 0) {      /* bound / the full replay's cycles (no launch overhead) */
        double r = bnd / (full.cycles - dev->launch_overhead_s * dev->clock_hz);
        if (r < t->bnd_min) t->bnd_min = r;
        if (r > t->bnd_max) t->bnd_max = r;
        t->bnd_over += r > 1;
    }
    free(dev);
    double err = pct(full.cycles, smp.cycles);
    double derr = pct(full.lv[MG_LV_DRAM].bytes, smp.lv[MG_LV_DRAM].bytes);
    char est[16];
    if (smp.sample_error < 0) snprintf(est, sizeof est, "%6s", "-");
    else snprintf(est, sizeof est, "%6.2f", 100 * smp.sample_error);
    printf("%-13s %-62.62s %7llu %7llu %+7.2f %s %+7.2f %8.3f %8.4f %7.1fx%s\n", k->cfg,
           k->sched, (unsigned long long)full.work_groups,
           (unsigned long long)smp.sample_wgs_simulated, err, est, derr, tf, ts, tf / ts,
           smp.sample_used ? "" : "  (all simulated)");
    fflush(stdout);
    tally_add(t, k, &full, &smp, tf, ts);
    return 0;
}

/* The summary lines. */
static void print_summary(const tally *t)
{
    int n = t->n, nsamp = t->nsamp;
    printf("kernels %d: %d sampled, %d simulated in full (too short to sample, or not uniform)\n",
           n, nsamp, n - nsamp);
    printf("cycles error vs full simulation: sampled kernels max %.2f%%, mean %.2f%%; "
           "all kernels max %.2f%%, mean %.2f%% (aim: max <= 3%%, mean <= 1%%)\n", t->smax,
           nsamp ? t->ssum / nsamp : 0, t->emax, t->esum / n);
    printf("estimated error covered the actual one in %d of %d sampled kernels; DRAM bytes "
           "error max %.2f%%\n", t->covered, nsamp, t->dmax);
    printf("speed-up: all kernels %.1fx (%.2f s full, %.2f s sampled)\n", t->tfull / t->tsamp,
           t->tfull, t->tsamp);
    printf("trace's lower bound / full replay: min %.3f, max %.4f; above the replay in %d of "
           "%d kernels (must be 0)\n", t->bnd_min, t->bnd_max, t->bnd_over, n);
    if (t->nbig)
        printf("speed-up on sampled convs of 28x28 and larger: %.1fx overall, min %.1fx, "
               "max %.1fx (%s) over %d kernels\n", t->big_tf / t->big_ts, t->big_min,
               t->big_max, t->big_best, t->nbig);
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    printf("sampled simulation (--sample auto) against full simulation; times are CPU "
           "seconds\n");
    printf("%-13s %-62s %7s %7s %7s %6s %7s %8s %8s %8s\n", "config", "kernel", "wgs", "sim",
           "err%", "est%", "dram%", "full s", "smp s", "speedup");
    tally t = {.big_min = 1e30, .big_best = "", .bnd_min = 1e30};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        const bk *k = &kernels[i];
        char line[600];
        snprintf(line, sizeof line, "%s %s", k->cfg, k->sched);
        if (only && !strstr(line, only)) continue;
        if (bench_one(k, &t)) return 2;
    }
    if (!t.n) return 0;
    print_summary(&t);
    return 0;
}
