/* test_sample.c - sampled simulation (sim/model/sample*.c; sim/MODEL.md,
 * "Sampled simulation"): accuracy against full simulation on a small set
 * of kernels, and behaviour: off is the unsampled replay, N is honoured, a
 * launch too short to sample is replayed in full with the same statistics,
 * the trace's own counts are extrapolated exactly, the output is
 * deterministic, and --sample values are parsed strictly.
 *
 * Bounds (the aims): |cycles error| <= 3% per kernel and <= 1% on
 * average over the set; `make bench` (bench/bench_sample.c) measures the
 * same over 56 kernels.  The set is small enough to run in a few seconds. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/config/device.h"
#include "traces/gen/gen.h"
#include "sim/model/model.h"
#include "tests/unit/suites.h"

/* Simulate `line` (config name, then the schedule) with `sample`; cycles
 * < 0 on failure. */
static mg_sim_stats sim(const char *line, int sample)
{
    mg_sim_stats st;
    memset(&st, 0, sizeof st);
    st.cycles = -1;
    char buf[512], path[128], warp[32], *w[64];
    snprintf(buf, sizeof buf, "%s", line);
    int n = 0;
    for (char *t = strtok(buf, " "); t && n < 62; t = strtok(NULL, " ")) w[n++] = t;
    snprintf(path, sizeof path, "configs/devices/%s.json", w[0]);
    mg_diag d;
    mg_diag_init(&d);
    mg_device *dev = malloc(sizeof *dev);
    mg_gen *g = calloc(1, sizeof *g);
    mg_schedule s;
    if (dev && g && !mg_device_load(path, 0, dev, &d)) {
        snprintf(warp, sizeof warp, "warp=%lld", (long long)dev->warp_width);
        w[n++] = warp;
        if (!mg_schedule_parse(w[1], n - 2, w + 2, &s, &d) && !mg_gen_prepare(g, &s, &d)) {
            mg_gen_stream gs;
            mg_trace_source src = mg_gen_source(&gs, g);
            mg_sim_opts o = {.quiet = 1, .sample = sample};
            if (mg_sim_run(dev, &src, &o, &st, &d)) st.cycles = -1;
        }
    }
    if (st.cycles < 0) fprintf(stderr, "\n%s: %s\n", line, mg_diag_first(&d));
    if (g) mg_gen_free(g);
    free(g);
    free(dev);
    mg_diag_free(&d);
    return st;
}

/* The statistics a replay produces, without the sample_* fields. */
static size_t core_bytes(void) { return offsetof(mg_sim_stats, sample_mode); }

/* Long enough launches (>= 32 waves) of several operators and configs. */
static const char *const set[] = {
    "adreno640 eltwise H=128 W=128 C=16 wg=64",
    "adreno640 conv2d H=56 W=56 Cin=16 Cout=32 K=1 tile=1x4 wg=4,4",
    "adreno640 conv2d H=112 W=112 Cin=16 Cout=16 K=3 pad=1 depthwise=1 tile=1x4 wg=2,4",
    "adreno640 matmul M=512 N=256 K=16 tile=1x4 wg=8,4",
    "mali-g76-mp5 eltwise H=256 W=128 C=16 wg=64 layout=buffer",
    "adreno740 eltwise H=256 W=192 C=16 wg=64",
};

static void test_accuracy(void)
{
    double sum = 0;
    int n = 0, used = 0;
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++) {
        mg_sim_stats full = sim(set[i], MG_SAMPLE_OFF), smp = sim(set[i], MG_SAMPLE_AUTO);
        CU_ASSERT_FATAL(full.cycles > 0 && smp.cycles > 0);
        double err = fabs(smp.cycles - full.cycles) / full.cycles;
        if (err > 0.03) fprintf(stderr, "\n%s: cycles error %.2f%%\n", set[i], 100 * err);
        CU_ASSERT(err <= 0.03);
        sum += err;
        n++;
        used += smp.sample_used;
        /* the trace's own counts are exact: every group's kind is known */
        CU_ASSERT_EQUAL(smp.work_groups, full.work_groups);
        CU_ASSERT_EQUAL(smp.warps, full.warps);
        CU_ASSERT_EQUAL(smp.warp_instrs, full.warp_instrs);
        CU_ASSERT_EQUAL(smp.lane_accesses, full.lane_accesses);
        CU_ASSERT_DOUBLE_EQUAL(smp.flops, full.flops, 0.5);
        /* simulated fewer groups when sampled, all of them otherwise */
        if (smp.sample_used) {
            CU_ASSERT(smp.sample_wgs_simulated < full.work_groups);
        } else {
            CU_ASSERT_EQUAL(smp.sample_wgs_simulated, full.work_groups);
        }
    }
    CU_ASSERT(sum / n <= 0.01);
    CU_ASSERT(used >= n - 1);       /* the set is meant to be sampled */
}

static void test_off_is_full(void)
{
    const char *k = set[1];
    mg_sim_stats a = sim(k, MG_SAMPLE_OFF);
    CU_ASSERT_FATAL(a.cycles > 0);
    /* no sampling fields, and the replay of every group */
    CU_ASSERT_EQUAL(a.sample_mode, 0);
    CU_ASSERT_EQUAL(a.sample_used, 0);
    CU_ASSERT_EQUAL(a.sample_wgs_simulated, 0);
    CU_ASSERT_EQUAL(a.work_groups, 1568);
    /* N larger than the launch allows: replayed in full, same statistics */
    mg_sim_stats b = sim(k, 100);
    CU_ASSERT_EQUAL(b.sample_used, 0);
    CU_ASSERT_EQUAL(b.sample_note, MG_SAMPLE_NOTE_FEW);
    CU_ASSERT_EQUAL(b.sample_wgs_simulated, 1568);
    CU_ASSERT(memcmp(&a, &b, core_bytes()) == 0);
}

static void test_short_launch(void)
{
    /* 14 waves of 32 on adreno640: too short for auto */
    const char *k = "adreno640 conv2d H=56 W=56 Cin=32 Cout=128 K=1 tile=4x4 wg=16,4";
    mg_sim_stats a = sim(k, MG_SAMPLE_OFF), b = sim(k, MG_SAMPLE_AUTO);
    CU_ASSERT_FATAL(a.cycles > 0 && b.cycles > 0);
    CU_ASSERT_EQUAL(b.sample_mode, MG_SAMPLE_AUTO);
    CU_ASSERT_EQUAL(b.sample_used, 0);
    CU_ASSERT_EQUAL(b.sample_note, MG_SAMPLE_NOTE_FEW);
    CU_ASSERT_EQUAL(b.sample_wgs_simulated, a.work_groups);
    CU_ASSERT(memcmp(&a, &b, core_bytes()) == 0);
}

static void test_small_skip(void)
{
    /* 52 waves of 32 on adreno630, long enough for auto, but its rate
     * settles so late that the jumps would skip under a quarter of it
     * (it used to skip 352 of 1667 groups, 0.03% off): replayed in full,
     * exactly */
    const char *k = "adreno630 eltwise H=100 W=100 C=32 wg=48";
    mg_sim_stats a = sim(k, MG_SAMPLE_OFF), b = sim(k, MG_SAMPLE_AUTO);
    CU_ASSERT_FATAL(a.cycles > 0 && b.cycles > 0);
    CU_ASSERT_EQUAL(b.sample_used, 0);
    CU_ASSERT_EQUAL(b.sample_note, MG_SAMPLE_NOTE_FEW);
    CU_ASSERT_EQUAL(b.sample_wgs_simulated, a.work_groups);
    CU_ASSERT(memcmp(&a, &b, core_bytes()) == 0);
    /* with N waves asked for, sampling still skips what it can */
    mg_sim_stats c = sim(k, 3);
    CU_ASSERT_EQUAL(c.sample_used, 1);
    CU_ASSERT(c.sample_wgs_simulated < a.work_groups);
}

static void test_explicit_n(void)
{
    const char *k = set[1];
    mg_sim_stats full = sim(k, MG_SAMPLE_OFF), two = sim(k, 2), four = sim(k, 4);
    CU_ASSERT_FATAL(full.cycles > 0 && two.cycles > 0 && four.cycles > 0);
    CU_ASSERT_EQUAL(two.sample_mode, 2);
    CU_ASSERT_EQUAL(two.sample_used, 1);
    CU_ASSERT_EQUAL(two.sample_windows, 1);
    CU_ASSERT_DOUBLE_EQUAL(two.sample_measured_waves, 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(four.sample_measured_waves, 4.0, 1e-9);
    CU_ASSERT(two.sample_wgs_simulated < four.sample_wgs_simulated);
    CU_ASSERT_EQUAL(two.sample_wave, 32);
    CU_ASSERT(fabs(two.cycles - full.cycles) / full.cycles <= 0.03);
    CU_ASSERT(two.sample_error >= 0);
    /* one measured wave: no spread to estimate an error from */
    mg_sim_stats one = sim(k, 1);
    CU_ASSERT_EQUAL(one.sample_used, 1);
    CU_ASSERT(one.sample_error < 0);
}

static void test_error_covers(void)
{
    /* its re-warming stretches end still off the steady rate: with that
     * transient counted the estimate covers the actual error (0.47%);
     * from the rate's spread alone it was 0.46% */
    const char *k = "adreno640 conv2d H=56 W=56 Cin=128 Cout=128 K=1 tile=2x4 wg=4,4";
    mg_sim_stats full = sim(k, MG_SAMPLE_OFF), smp = sim(k, MG_SAMPLE_AUTO);
    CU_ASSERT_FATAL(full.cycles > 0 && smp.cycles > 0);
    CU_ASSERT_EQUAL(smp.sample_used, 1);
    double err = fabs(smp.cycles - full.cycles) / full.cycles;
    CU_ASSERT(err > 0.001);
    CU_ASSERT(smp.sample_error >= err);
    CU_ASSERT(smp.sample_error <= 4 * err);        /* and not by far */
}

static void test_deterministic(void)
{
    mg_sim_stats a = sim(set[2], MG_SAMPLE_AUTO), b = sim(set[2], MG_SAMPLE_AUTO);
    CU_ASSERT_FATAL(a.cycles > 0);
    CU_ASSERT_EQUAL(a.sample_used, 1);
    CU_ASSERT(memcmp(&a, &b, sizeof a) == 0);
}

static void test_nonuniform(void)
{
    /* 5x5 with padding 2: the second row of work groups differs from the
     * middle ones, which position classes of depth one do not capture */
    const char *k = "adreno640 conv2d H=64 W=64 Cin=4 Cout=4 K=5 pad=2 tile=1x4 wg=1,2,1";
    mg_sim_stats a = sim(k, MG_SAMPLE_OFF), b = sim(k, 1);
    CU_ASSERT_FATAL(a.cycles > 0 && b.cycles > 0);
    CU_ASSERT_EQUAL(b.sample_used, 0);
    CU_ASSERT_EQUAL(b.sample_note, MG_SAMPLE_NOTE_NONUNIFORM);
    CU_ASSERT(memcmp(&a, &b, core_bytes()) == 0);
}

static void test_parse(void)
{
    int m = 7;
    CU_ASSERT(mg_sample_parse("off", &m) == 0 && m == MG_SAMPLE_OFF);
    CU_ASSERT(mg_sample_parse("auto", &m) == 0 && m == MG_SAMPLE_AUTO);
    CU_ASSERT(mg_sample_parse("3", &m) == 0 && m == 3);
    CU_ASSERT(mg_sample_parse("1000", &m) == 0 && m == 1000);
    CU_ASSERT(mg_sample_parse("0", &m) == -1);
    CU_ASSERT(mg_sample_parse("-2", &m) == -1);
    CU_ASSERT(mg_sample_parse("1001", &m) == -1);
    CU_ASSERT(mg_sample_parse("3x", &m) == -1);
    CU_ASSERT(mg_sample_parse("", &m) == -1);
    CU_ASSERT(mg_sample_parse("Auto", &m) == -1);
}

int add_sample_suite(void)
{
    CU_pSuite s = CU_add_suite("sample", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "auto within 3% (mean 1%) of full; exact counts", test_accuracy) ||
        !CU_add_test(s, "off replays everything; N too large replays in full", test_off_is_full) ||
        !CU_add_test(s, "a launch too short is replayed in full", test_short_launch) ||
        !CU_add_test(s, "auto replays in full what would skip under a quarter", test_small_skip) ||
        !CU_add_test(s, "N measures N waves", test_explicit_n) ||
        !CU_add_test(s, "the estimated error covers the re-warming's transient", test_error_covers) ||
        !CU_add_test(s, "deterministic", test_deterministic) ||
        !CU_add_test(s, "non-uniform launches are replayed in full", test_nonuniform) ||
        !CU_add_test(s, "--sample values", test_parse))
        return -1;
    return 0;
}
