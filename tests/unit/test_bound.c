/* test_bound.c - the trace's lower bound of a launch's cycles
 * (sim/model/bound.c; sim/MODEL.md, "The trace's lower bound").
 *
 * - Sound: on kernels of every operator family and config kind (texture-,
 *   buffer-, ALU-, local-memory-bound; Adreno, Mali, vec4 Midgard, the
 *   H100's buffer L1), the full replay never takes fewer cycles than the
 *   bound, and the bound is tight where one pipe binds (so a bound that
 *   over-counts a pipe fails here).
 * - The shape sink (records' shapes only, no addresses) gives exactly the
 *   bound of the full records.
 * - With a cycle limit: a bound over the limit cuts before any replay, and
 *   the replay without the bound (opts.no_bound) passes the same limit; a
 *   limit between the bound and the cycles is left to the replay; one over
 *   the cycles cuts nothing. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "sim/config/device.h"
#include "traces/gen/gen.h"
#include "sim/model/bound.h"
#include "tests/unit/suites.h"

typedef struct kern {
    mg_device dev;
    mg_gen    g;
} kern;

/* Load config and prepare the schedule of `line` (config name, then the
 * schedule); NULL on failure (reported). */
static kern *kern_new(const char *line)
{
    char buf[512], path[128], warp[32], *w[64];
    snprintf(buf, sizeof buf, "%s", line);
    int n = 0;
    for (char *t = strtok(buf, " "); t && n < 62; t = strtok(NULL, " ")) w[n++] = t;
    snprintf(path, sizeof path, "configs/devices/%s.json", w[0]);
    kern *k = calloc(1, sizeof *k);
    mg_diag d;
    mg_diag_init(&d);
    mg_schedule s;
    int ok = k && !mg_device_load(path, 0, &k->dev, &d);
    if (ok) {
        snprintf(warp, sizeof warp, "warp=%lld", (long long)k->dev.warp_width);
        w[n++] = warp;
        ok = !mg_schedule_parse(w[1], n - 2, w + 2, &s, &d) && !mg_gen_prepare(&k->g, &s, &d);
    }
    if (!ok) {
        fprintf(stderr, "\n%s: %s\n", line, mg_diag_first(&d));
        if (k) mg_gen_free(&k->g);
        free(k);
        k = NULL;
    }
    mg_diag_free(&d);
    return k;
}

static void kern_free(kern *k)
{
    if (!k) return;
    mg_gen_free(&k->g);
    free(k);
}

static void count(void *ctx, const mg_rec *r) { mg_bound_add(ctx, r); }

/* The bound of every work group, from full records (sink 0) or from the
 * shape sink (sink 1); -1 on failure. */
static double bound_of(kern *k, int sink, int *pipe)
{
    mg_bound b;
    mg_bound_init(&b, &k->dev);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    wg.want_recs = 1;
    if (sink) {
        wg.sink = count;
        wg.sink_ctx = &b;
    }
    uint64_t n = mg_gen_num_wgs(&k->g);
    int rc = 0;
    for (uint64_t i = 0; i < n && !rc; i++)
        rc = mg_gen_trace_wg(&k->g, i, &wg) || mg_bound_add_wg(&b, &wg, NULL);
    mg_trace_wg_free(&wg);
    return rc ? -1 : mg_bound_cycles(&b, pipe);
}

static mg_sim_stats run(kern *k, double limit, int no_bound)
{
    mg_sim_stats st;
    mg_diag d;
    mg_diag_init(&d);
    mg_gen_stream gs;
    mg_trace_source src = mg_gen_source(&gs, &k->g);
    mg_sim_opts o = {.quiet = 1, .cycle_limit = limit, .no_bound = no_bound};
    if (mg_sim_run(&k->dev, &src, &o, &st, &d)) {
        fprintf(stderr, "\n%s\n", mg_diag_first(&d));
        st.cycles = -1;
    }
    mg_diag_free(&d);
    return st;
}

/* Operators x configs: texture-bound and buffer-bound convs, a matmul,
 * eltwise, softmax and layernorm (local memory, barriers), ALU-heavy
 * flops; every kind of device config. */
static const char *const set[] = {
    "adreno640 conv2d H=28 W=28 Cin=64 Cout=64 K=1 tile=1x4 wg=4,4",
    "adreno640 conv2d H=28 W=28 Cin=64 Cout=64 K=1 tile=1x4 wg=4,4 layout=buffer",
    "adreno630 conv2d H=30 W=30 Cin=32 Cout=32 K=3 pad=1 tile=2x4 wg=4,4,2",
    "adreno650 conv2d H=28 W=28 Cin=32 Cout=32 K=3 pad=1 depthwise=1 tile=1x4 wg=8,8",
    "adreno740 matmul M=256 N=256 K=64 tile=2x4 wg=8,4 layout=buffer",
    "mali-g76-mp5 conv2d H=28 W=28 Cin=64 Cout=64 K=1 tile=1x4 wg=4,4,4",
    "mali-g77 matmul M=256 N=256 K=64 tile=2x4 wg=8,4",
    "mali-t860-mp4 eltwise H=128 W=128 C=16 wg=64 layout=buffer",
    "nvidia-h100 matmul M=512 N=512 K=64 tile=2x4 wg=16,8 layout=buffer",
    "adreno640 softmax M=512 N=256 split=16 wg=4,1,16",
    "mali-g76-mp5 layernorm M=256 N=256 split=8 wg=4,1,8",
    "adreno640 flops vec=4 chains=8 iters=64 items=65536",
};
#define NSET (sizeof set / sizeof set[0])

static void test_sound(void)
{
    double tight = 0;
    for (size_t i = 0; i < NSET; i++) {
        kern *k = kern_new(set[i]);
        CU_ASSERT_FATAL(k != NULL);
        int pipe = -1;
        double b = bound_of(k, 0, &pipe);
        mg_sim_stats st = run(k, 0, 0);
        double over = k->dev.launch_overhead_s * k->dev.clock_hz;
        CU_ASSERT_FATAL(st.cycles > 0);
        CU_ASSERT(b > 0);
        CU_ASSERT(b <= st.cycles - over);
        if (!(b > 0 && b <= st.cycles - over))
            fprintf(stderr, "\n%s: bound %.1f, replay %.1f\n", set[i], b, st.cycles - over);
        if (b / (st.cycles - over) > tight) tight = b / (st.cycles - over);
        kern_free(k);
    }
    /* the texture-bound conv and the flops kernel come within 10% of their
     * bound: a pipe counted twice would exceed the replay */
    CU_ASSERT(tight > 0.9);
}

static void test_sink_exact(void)
{
    for (size_t i = 0; i < NSET; i++) {
        kern *k = kern_new(set[i]);
        CU_ASSERT_FATAL(k != NULL);
        int p0, p1;
        double full = bound_of(k, 0, &p0), shape = bound_of(k, 1, &p1);
        CU_ASSERT(full > 0);
        CU_ASSERT(full == shape);
        CU_ASSERT(p0 == p1);
        kern_free(k);
    }
}

static void test_cut(void)
{
    for (size_t i = 0; i < NSET; i += 3) {
        kern *k = kern_new(set[i]);
        CU_ASSERT_FATAL(k != NULL);
        double over = k->dev.launch_overhead_s * k->dev.clock_hz;
        double b = bound_of(k, 0, NULL);
        mg_sim_stats full = run(k, 0, 0);
        CU_ASSERT_FATAL(full.cycles > 0 && b > 0);
        /* under the bound: cut before any replay, and the replay agrees */
        double lim = over + 0.8 * b;
        mg_sim_stats a = run(k, lim, 0), r = run(k, lim, 1);
        CU_ASSERT(a.cut && a.cut_by_bound && a.cycles == lim);
        CU_ASSERT(r.cut && !r.cut_by_bound);
        CU_ASSERT(a.warp_instrs == 0);                         /* nothing replayed */
        /* between the bound and the cycles: the replay cuts */
        double mid = over + b + 0.5 * (full.cycles - over - b);
        if (full.cycles - over > 1.05 * b) {
            a = run(k, mid, 0);
            CU_ASSERT(a.cut && !a.cut_by_bound);
        }
        /* over the cycles: nothing is cut, the same statistics */
        a = run(k, full.cycles * 1.01, 0);
        CU_ASSERT(!a.cut && a.cycles == full.cycles);
        kern_free(k);
    }
}

int add_bound_suite(void)
{
    CU_pSuite s = CU_add_suite("bound", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "the replay never beats the trace's bound; tight when one pipe binds",
                     test_sound) ||
        !CU_add_test(s, "the shape sink gives the full records' bound", test_sink_exact) ||
        !CU_add_test(s, "a cycle limit under the bound cuts before any replay", test_cut))
        return -1;
    return 0;
}
