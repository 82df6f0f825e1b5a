/* test_deps.c - load dependences (traces/FORMAT.md 5.1, keep; sim/MODEL.md,
 * Issue) on hand-built one-warp traces on nvidia-h100, launch overhead off:
 * - a keep survives the record encoder, the record form and a file (v3);
 *   a version 2 file that carries one is refused;
 * - the model: N buffer loads of distinct cold lines, each after an
 *   address ALU record, take about one memory round trip when the ALU
 *   records keep the loads in flight (they need none of them), and N round
 *   trips when they wait for every load (keep 0, as v1/v2 traces): at
 *   least 0.6 N times longer for N = 8; with core.load_deps = all the
 *   keeps are ignored (byte-equal statistics to a trace without them);
 * - a keep changes nothing where no load is in flight, and a keep larger
 *   than the loads in flight is the same as one equal to them (byte-equal
 *   statistics);
 * - keep k waits for every load but the k newest: after loads of a cold
 *   line and of a hot one, keep 1 waits for the cold one (a round trip),
 *   keep 2 for none;
 * - the emitter's marks (emit.h): the bandwidth operator's address
 *   records keep the loads of their step in flight, its adds none. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/config/device.h"
#include "sim/model/model.h"
#include "tests/unit/suites.h"
#include "traces/gen/gen.h"
#include "traces/trace.h"

/* A record script: 'L' a load of a new cold line, 'H' a load of line 0
 * (hot after its first), 'A' an ALU record with keep keeps[i] (i its
 * position), 'F' an ALU record that waits for every load. */
typedef struct script {
    mg_trace_header h;
    const char *ops;
    const uint32_t *keeps;
    int given;
} script;

static void put_script(const script *S, mg_trace_wg *wg)
{
    uint32_t id[3] = {0, 0, 0};
    mg_trace_wg_begin(wg, id);
    mg_trace_wg_warp_begin(wg, 32);
    int64_t line = 1;
    for (int i = 0; S->ops[i]; i++) {
        mg_rec r;
        memset(&r, 0, sizeof r);
        r.lanes = 32;
        for (unsigned l = 0; l < 32; l++) mg_rec_set_active(&r, l);
        if (S->ops[i] == 'L' || S->ops[i] == 'H') {
            r.type = MG_REC_BUF_LOAD;
            r.site = 1;
            r.width = 4;
            int64_t base = S->ops[i] == 'H' ? 0 : (line++) * 4096;
            for (unsigned l = 0; l < 32; l++) r.a[l] = base + 4 * (int64_t)l;
        } else {
            r.type = MG_REC_ALU;
            r.site = 2;
            r.cls = MG_ALU_INT;
            r.vec = 1;
            r.n = 1;
            r.dep = 1;
            r.keep = S->ops[i] == 'A' && S->keeps ? S->keeps[i] : 0;
        }
        mg_trace_wg_put(wg, &r);
    }
    mg_trace_wg_warp_end(wg);
}

static int script_next(void *self, mg_trace_wg *wg, mg_diag *d)
{
    (void)d;
    script *S = self;
    if (S->given++) return 0;
    put_script(S, wg);
    return 1;
}

static void script_init(script *S, const char *ops, const uint32_t *keeps)
{
    memset(S, 0, sizeof *S);
    S->ops = ops;
    S->keeps = keeps;
    S->h.version = MG_TRACE_VERSION;
    snprintf(S->h.kernel, sizeof S->h.kernel, "deps");
    S->h.global[0] = S->h.local[0] = 32;
    S->h.global[1] = S->h.global[2] = S->h.local[1] = S->h.local[2] = 1;
    S->h.warp_width = 32;
    S->h.regs_per_item = 16;
    S->h.n_buffers = 1;
    snprintf(S->h.buffers[0].name, sizeof S->h.buffers[0].name, "P");
    S->h.buffers[0].bytes = 1 << 20;
    S->h.buffers[0].elem = 4;
}

/* core.load_deps for run_script: nvidia-h100's (trace), or all when set. */
static int deps_all;

/* Simulate the script on nvidia-h100; stats into *st (cycles -1: failed). */
static void run_script(const char *ops, const uint32_t *keeps, mg_sim_stats *st)
{
    static mg_device dev;
    mg_diag d;
    mg_diag_init(&d);
    memset(st, 0, sizeof *st);
    st->cycles = -1;
    script S;
    script_init(&S, ops, keeps);
    if (mg_device_load("configs/devices/nvidia-h100.json", 0, &dev, &d) == 0) {
        dev.launch_overhead_s = 0;
        if (deps_all) dev.load_deps = MG_LOADS_ALL;
        mg_trace_source src = {&S.h, script_next, &S, NULL, NULL};
        mg_sim_opts o = {.quiet = 1};
        if (mg_sim_run(&dev, &src, &o, st, &d)) st->cycles = -1;
    }
    if (st->cycles < 0) fprintf(stderr, "\n%s: %s\n", ops, mg_diag_first(&d));
    mg_diag_free(&d);
}

static double cycles(const char *ops, const uint32_t *keeps)
{
    mg_sim_stats st;
    run_script(ops, keeps, &st);
    return st.cycles;
}

/* A record's keep goes through the encoder, both decoders and a file. */
static void test_keep_roundtrip(void)
{
    static const uint32_t keeps[] = {0, 0, 0, 2, 0};
    script S;
    script_init(&S, "LLAAF", keeps);
    char path[] = "/tmp/mgsim-deps-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_source src = {&S.h, script_next, &S, NULL, NULL};
    CU_ASSERT_FATAL(mg_trace_write_all(path, &src, &d) == 0);
    for (int want = 0; want < 2; want++) {        /* bytes form, then record form */
        mg_trace_reader *rd = mg_trace_reader_open(path, &d);
        CU_ASSERT_PTR_NOT_NULL_FATAL(rd);
        CU_ASSERT_EQUAL(mg_trace_reader_header(rd)->version, 3);
        mg_trace_wg wg;
        mg_trace_wg_init(&wg);
        wg.want_recs = want;
        CU_ASSERT_EQUAL_FATAL(mg_trace_reader_next_wg(rd, &wg, &d), 1);
        mg_trace_cursor c;
        mg_trace_cursor_init(&c, &wg, 0);
        static mg_rec r;
        uint32_t got[5] = {9, 9, 9, 9, 9};
        for (int i = 0; i < 5; i++) {
            CU_ASSERT_EQUAL_FATAL(mg_trace_cursor_next(&c, &r, &d), 1);
            got[i] = r.type == MG_REC_ALU ? r.keep : 0;
        }
        CU_ASSERT_EQUAL(got[2], 0);
        CU_ASSERT_EQUAL(got[3], 2);
        CU_ASSERT_EQUAL(got[4], 0);
        mg_trace_wg_free(&wg);
        mg_trace_reader_close(rd);
    }
    CU_ASSERT_FALSE(mg_diag_failed(&d));
    mg_diag_free(&d);
    remove(path);
}

/* A version 2 file whose ALU record carries a keep is refused. */
static void test_keep_in_v2(void)
{
    static const uint32_t keeps[] = {0, 1, 0};
    script S;
    script_init(&S, "LAF", keeps);
    char path[] = "/tmp/mgsim-deps-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_source src = {&S.h, script_next, &S, NULL, NULL};
    CU_ASSERT_FATAL(mg_trace_write_all(path, &src, &d) == 0);
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 8, SEEK_SET);                        /* the version, after the magic */
    fputc(2, f);
    fclose(f);
    mg_trace_reader *rd = mg_trace_reader_open(path, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rd);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    CU_ASSERT_EQUAL(mg_trace_reader_next_wg(rd, &wg, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "keep"));
    mg_trace_wg_free(&wg);
    mg_trace_reader_close(rd);
    mg_diag_free(&d);
    remove(path);
}

/* The bandwidth operator's marks (unroll 4, one pass): pz and tz with no
 * load in flight, then each load's address keeping the loads before it
 * in flight (0, 1, 2, 3), the adds waiting for them all. */
static void test_emit_marks(void)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_schedule s;
    mg_gen *g = calloc(1, sizeof *g);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    int rc = mg_schedule_parse_line("bandwidth unroll=4 iters=1 footprint=16384 items=64 wg=64",
                                    NULL, &s, &d);
    if (!rc) rc = mg_gen_prepare(g, &s, &d);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    CU_ASSERT_EQUAL_FATAL(mg_gen_trace_wg(g, 0, &wg), 0);
    mg_trace_cursor c;
    mg_trace_cursor_init(&c, &wg, 0);
    static mg_rec r;
    char seq[64] = "";
    size_t n = 0;
    while (n + 3 < sizeof seq && mg_trace_cursor_next(&c, &r, &d) == 1) {
        if (r.type == MG_REC_ALU) n += (size_t)snprintf(seq + n, sizeof seq - n, "%u", r.keep);
        else seq[n++] = r.type == MG_REC_BUF_LOAD ? 'L' : 'S';
        seq[n] = 0;
    }
    /* 16 loads of 4 steps: pz tz, then A L A L A L A L add per step */
    CU_ASSERT_STRING_EQUAL(seq, "00L1L2L3L00L1L2L3L00L1L2L3L00L1L2L3L0S");
    mg_trace_wg_free(&wg);
    mg_gen_free(g);
    free(g);
    mg_diag_free(&d);
}

/* Address records that need no load let the loads overlap. */
static void test_keep_overlaps_loads(void)
{
    /* A L A L ... : each A needs none of the loads before it */
    static const uint32_t keeps[] = {0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0};
    const char *ops = "ALALALALALALALALF";
    double marked = cycles(ops, keeps), all = cycles(ops, NULL);
    double one = cycles("ALF", NULL);
    CU_ASSERT_TRUE_FATAL(marked > 0 && all > 0 && one > 0);
    CU_ASSERT_TRUE(all > 0.6 * 8 * marked);
    CU_ASSERT_TRUE(marked < 1.5 * one);
    /* core.load_deps = all: the keeps are ignored, every load waited for */
    mg_sim_stats a, b;
    deps_all = 1;
    run_script(ops, keeps, &a);
    run_script(ops, NULL, &b);
    deps_all = 0;
    CU_ASSERT_TRUE(a.cycles > 0);
    CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
    CU_ASSERT_DOUBLE_EQUAL(a.cycles, all, 1e-9);
}

/* Where no load is in flight, or past the loads in flight, a keep is the
 * same as none or as the number in flight. */
static void test_keep_no_effect(void)
{
    static const uint32_t k_first[] = {5, 0, 0};
    mg_sim_stats a, b;
    run_script("ALF", k_first, &a);
    run_script("ALF", NULL, &b);
    CU_ASSERT_TRUE(a.cycles > 0);
    CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
    static const uint32_t k_big[] = {0, 0, 9, 0}, k_two[] = {0, 0, 2, 0};
    run_script("LLAF", k_big, &a);
    run_script("LLAF", k_two, &b);
    CU_ASSERT_TRUE(a.cycles > 0);
    CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
}

/* keep k: every load but the k newest.  H (line 0) is made hot first. */
static void test_keep_newest(void)
{
    static const uint32_t k1[] = {0, 0, 0, 0, 1, 0, 0}, k2[] = {0, 0, 0, 0, 2, 0, 0};
    /* warm line 0, then a cold load, a hot one, A, and a final cold load
     * whose issue A holds back until A issues */
    double w1 = cycles("HFLHALF", k1), w2 = cycles("HFLHALF", k2);
    double warm = cycles("HF", NULL), one = cycles("ALF", NULL);
    CU_ASSERT_TRUE_FATAL(w1 > 0 && w2 > 0 && warm > 0 && one > 0);
    /* keep 1 waits for the cold load: two round trips after the warm-up;
     * keep 2 waits for none: the two cold loads overlap */
    CU_ASSERT_TRUE(w1 - warm > 1.6 * one);
    CU_ASSERT_TRUE(w2 - warm < 1.4 * one);
}

int add_deps_suite(void)
{
    CU_pSuite s = CU_add_suite("deps", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "keep_roundtrip", test_keep_roundtrip) ||
        !CU_add_test(s, "keep_overlaps_loads", test_keep_overlaps_loads) ||
        !CU_add_test(s, "keep_no_effect", test_keep_no_effect) ||
        !CU_add_test(s, "keep_newest", test_keep_newest) ||
        !CU_add_test(s, "keep_in_v2", test_keep_in_v2) ||
        !CU_add_test(s, "emit_marks", test_emit_marks))
        return -1;
    return 0;
}
