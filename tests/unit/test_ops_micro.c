/* test_ops_micro.c - the microbenchmark operators (traces/ops/pchase.c,
 * regpressure.c, warpsize.c, flops.c, bandwidth.c, rstride2d.c): trace flops
 * equal the static features, the pointer chases visit the cycle they
 * promise and follow the chain their init hook writes, rstride2d's steps
 * come from the configured strides, and invalid schedules are rejected
 * with a reason.  No OpenCL here: `mgprobe verify` runs these on PoCL. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "traces/gen/gen.h"
#include "traces/gen/op.h"
#include "tests/unit/ops_util.h"
#include "tests/unit/suites.h"

/* A prepared generator for `line` (NULL, with a test failure, if invalid). */
static mg_gen *prepare(const char *line)
{
    mg_schedule s;
    char err[512];
    if (ops_parse(line, &s, err, sizeof err)) {
        fprintf(stderr, "\n%s: %s\n", line, err);
        CU_FAIL("schedule rejected");
        return NULL;
    }
    mg_gen *g = calloc(1, sizeof *g);
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_gen_prepare(g, &s, &d);
    mg_diag_free(&d);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc) {
        free(g);
        return NULL;
    }
    return g;
}

static void release(mg_gen *g)
{
    mg_gen_free(g);
    free(g);
}

/* Call fn(r, ctx) on every record of the launch, in order. */
typedef void (*rec_fn)(const mg_rec *r, void *ctx);

static void each_record(const mg_gen *g, rec_fn fn, void *ctx)
{
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    mg_rec *r = malloc(sizeof *r);
    for (uint64_t i = 0; i < mg_gen_num_wgs(g); i++) {
        mg_gen_trace_wg(g, i, &wg);
        for (uint32_t w = 0; w < wg.n_warps; w++) {
            mg_trace_cursor c;
            mg_trace_cursor_init(&c, &wg, w);
            int got;
            while ((got = mg_trace_cursor_next(&c, r, NULL)) == 1) fn(r, ctx);
            CU_ASSERT_EQUAL(got, 0);
        }
    }
    free(r);
    mg_trace_wg_free(&wg);
}

static void add_flops(const mg_rec *r, void *ctx)
{
    if (r->type == MG_REC_ALU)
        *(double *)ctx += (double)mg_rec_popcount(r) * r->n * r->vec * r->flops;
}

/* The trace's flops equal the plan's, and the plan's equal `want`. */
static void check_flops(const char *line, double want)
{
    mg_gen *g = prepare(line);
    if (!g) return;
    double flops = 0;
    each_record(g, add_flops, &flops);
    CU_ASSERT_DOUBLE_EQUAL(g->k.f.flops, want, 0.5);
    CU_ASSERT_DOUBLE_EQUAL(flops, want, 0.5);
    if (flops != want || g->k.f.flops != want)
        fprintf(stderr, "\n%s: trace %.0f, features %.0f, want %.0f\n", line, flops,
                g->k.f.flops, want);
    release(g);
}

static void test_flops_exact(void)
{
    /* flops: items x (2 vec chains iters + vec (chains - 1) + vec - 1) */
    check_flops("flops vec=4 chains=8 iters=16 items=128", 128.0 * (2 * 4 * 8 * 16 + 4 * 7 + 3));
    check_flops("flops vec=16 chains=1 iters=3 items=1 wg=1", 2.0 * 16 * 3 + 15);
    check_flops("flops vec=1 chains=5 iters=7 items=70 wg=32", 70.0 * (2 * 5 * 7 + 4));
    check_flops("flops vec=8 chains=2 iters=4 items=64 compute=fp16",
                64.0 * (2 * 8 * 2 * 4 + 8 + 7));
    /* regpressure: items x (2 regs iters + regs - 1) */
    check_flops("regpressure regs=181 iters=5 items=384 wg=384", 384.0 * (2 * 181 * 5 + 180));
    check_flops("regpressure regs=1 iters=9 items=1 wg=1", 2.0 * 9);
    check_flops("regpressure regs=7 iters=3 items=100 wg=64", 100.0 * (2 * 7 * 3 + 6));
    /* bandwidth: one add per loaded element */
    check_flops("bandwidth mem=buffer footprint=4096 items=64 iters=3", 4096.0 / 4 * 3);
    check_flops("bandwidth mem=image pattern=block4 footprint=16384 items=16 wg=16 iters=2",
                16384.0 / 4 * 2);
    check_flops("bandwidth mem=local footprint=4096 items=128 wg=64 vec=2 iters=1",
                2.0 * 4096 / 4);     /* two work groups, each over its own local copy */
    check_flops("bandwidth mem=buffer storage=fp16 vec=8 footprint=4096 items=16 wg=16",
                2.0 * 4096 / 2);     /* iters=2 by default */
    /* no floating-point work */
    check_flops("pchase mem=image range=1024 stride=32 iters=50", 0);
    check_flops("warpsize items=65 groups=3 iters=10", 0);
    check_flops("rstride2d iters=30", 0);
}

/* ---- pointer chases ------------------------------------------------------- */

#define MAX_ADDR 4096

typedef struct chase_log {
    int     obj_type;                 /* record type of the chased loads */
    int64_t n;
    int64_t a[MAX_ADDR], b[MAX_ADDR]; /* lane 0's addresses, in order */
} chase_log;

static void log_lane0(const mg_rec *r, void *ctx)
{
    chase_log *c = ctx;
    if (r->type != c->obj_type || !mg_rec_active(r, 0) || c->n == MAX_ADDR) return;
    c->a[c->n] = r->a[0];
    c->b[c->n] = r->b[0];
    c->n++;
}

/* The chased addresses of the first item of `line` (type: tex or buf). */
static mg_gen *chase(const char *line, int type, chase_log *c)
{
    mg_gen *g = prepare(line);
    memset(c, 0, sizeof *c);
    c->obj_type = type;
    if (g) each_record(g, log_lane0, c);
    return g;
}

static int64_t distinct(const chase_log *c)
{
    int64_t n = 0;
    for (int64_t i = 0; i < c->n; i++) {
        int64_t j = 0;
        while (j < i && (c->a[j] != c->a[i] || c->b[j] != c->b[i])) j++;
        n += j == i;
    }
    return n;
}

/* Lane 0 visits exactly `cycle` distinct addresses, periodically. */
static void check_cycle(const char *line, int type, int64_t cycle)
{
    chase_log *c = malloc(sizeof *c);
    mg_gen *g = chase(line, type, c);
    if (!g) { free(c); return; }
    CU_ASSERT_EQUAL(distinct(c), cycle);
    int periodic = 1;
    for (int64_t i = cycle; i < c->n; i++)
        periodic &= c->a[i] == c->a[i - cycle] && c->b[i] == c->b[i - cycle];
    CU_ASSERT_TRUE(periodic);
    CU_ASSERT_TRUE(c->n >= 2 * cycle);
    if (distinct(c) != cycle) fprintf(stderr, "\n%s: %lld distinct, want %lld\n", line,
                                      (long long)distinct(c), (long long)cycle);
    release(g);
    free(c);
}

static void test_pchase_cycle(void)
{
    /* range / stride distinct addresses */
    check_cycle("pchase mem=buffer range=1024 stride=16 iters=200", MG_REC_BUF_LOAD, 64);
    check_cycle("pchase mem=buffer range=3072 stride=12 iters=600", MG_REC_BUF_LOAD, 256);
    check_cycle("pchase mem=image range=1024 stride=4 iters=600", MG_REC_TEX_READ, 256);
    check_cycle("pchase mem=image range=65536 stride=64 iters=2100", MG_REC_TEX_READ, 1024);
    check_cycle("pchase mem=image range=24576 stride=12 W=64 iters=4096", MG_REC_TEX_READ, 2048);
    /* 2D lattice: (W / sx) x (H / stride_y) points */
    check_cycle("pchase mem=image range=4096 stride=32 stride_y=2 W=32 iters=200",
                MG_REC_TEX_READ, 4 * 16);
    check_cycle("pchase mem=image range=2048 stride=4 stride_y=4 W=1 iters=300",
                MG_REC_TEX_READ, 128);
}

/* The stride between the chase's consecutive addresses, and a 2D step. */
static void test_pchase_steps(void)
{
    chase_log *c = malloc(sizeof *c);
    mg_gen *g = chase("pchase mem=buffer range=4096 stride=64 iters=100", MG_REC_BUF_LOAD, c);
    for (int64_t i = 1; g && i < c->n; i++)
        CU_ASSERT_EQUAL((c->a[i] - c->a[i - 1] + 4096) % 4096, 64);
    if (g) release(g);
    /* lattice: (sx, 0) within a lattice row, then down stride_y rows */
    g = chase("pchase mem=image range=4096 stride=32 stride_y=2 W=32 iters=9", MG_REC_TEX_READ, c);
    if (g) {
        CU_ASSERT_EQUAL(c->n, 9);
        for (int64_t i = 0; i < 4; i++) {
            CU_ASSERT_EQUAL(c->a[i], 8 * i);
            CU_ASSERT_EQUAL(c->b[i], 0);
        }
        CU_ASSERT_EQUAL(c->a[4], 0);
        CU_ASSERT_EQUAL(c->b[4], 2);
        release(g);
    }
    free(c);
}

/* The chain the init hook writes leads each load to the next one of the
 * trace (the kernel follows the data; the trace follows the formula), and
 * the reference ends where the trace does. */
static void check_chain(const char *line, int type)
{
    chase_log *c = malloc(sizeof *c);
    mg_gen *g = chase(line, type, c);
    if (!g) { free(c); return; }
    mg_host h;
    CU_ASSERT_EQUAL_FATAL(mg_host_init(g, &h), 0);
    mg_host_reference(g, &h);
    const mg_tensor *t = &g->k.t[0];
    int64_t iw = mg_tensor_img_width(t);
    int ok = 1;
    int32_t last = 0;
    for (int64_t i = 0; i < c->n; i++) {
        int32_t v = type == MG_REC_TEX_READ ? h.i[0][c->b[i] * iw + c->a[i]]
                                            : h.i[0][c->a[i] / 4];
        last = v;
        if (i + 1 == c->n) break;
        if (type == MG_REC_TEX_READ) ok &= (v & 0xffff) == c->a[i + 1] && (v >> 16) == c->b[i + 1];
        else ok &= (int64_t)v * 4 == c->a[i + 1];
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_EQUAL(h.i[1][0], last);         /* item 0's result */
    if (!ok) fprintf(stderr, "\n%s: the chain and the trace disagree\n", line);
    mg_host_free(&h);
    release(g);
    free(c);
}

static void test_chain_matches_trace(void)
{
    check_chain("pchase mem=buffer range=3072 stride=12 iters=300", MG_REC_BUF_LOAD);
    check_chain("pchase mem=image range=65536 stride=64 iters=300", MG_REC_TEX_READ);
    check_chain("pchase mem=image range=4096 stride=32 stride_y=2 W=32 iters=200",
                MG_REC_TEX_READ);
    check_chain("rstride2d iters=500", MG_REC_TEX_READ);
    check_chain("rstride2d strides=3,5 W=16 H=16 iters=300 seed=7", MG_REC_TEX_READ);
    check_chain("rstride2d strides=1,2,4,8 W=64 H=64 iters=1000 seed=3", MG_REC_TEX_READ);
}

/* ---- rstride2d -------------------------------------------------------------- */

/* Each step is (dx, dy) with dx and dy from the configured strides (modulo
 * the image), until the walk closes a cycle; every stride shows up. */
static void check_strides(const char *line, int64_t W, int64_t H, const int64_t *set, int n)
{
    chase_log *c = malloc(sizeof *c);
    mg_gen *g = chase(line, MG_REC_TEX_READ, c);
    if (!g) { free(c); return; }
    int bad = 0, used[8] = {0};
    for (int64_t i = 1; i < c->n; i++) {
        int64_t dx = c->a[i] - c->a[i - 1], dy = c->b[i] - c->b[i - 1];
        int okx = 0, oky = 0;
        for (int k = 0; k < n; k++) {
            if ((dx - set[k]) % W == 0) { okx = 1; used[k] = 1; }
            if ((dy - set[k]) % H == 0) { oky = 1; used[k] = 1; }
        }
        bad += !okx || !oky;
    }
    CU_ASSERT_EQUAL(bad, 0);
    for (int k = 0; k < n; k++) CU_ASSERT_TRUE(used[k]);
    if (bad) fprintf(stderr, "\n%s: %d steps outside the stride set\n", line, bad);
    release(g);
    free(c);
}

static void test_rstride2d_strides(void)
{
    static const int64_t s1[] = {1, 2, 3, 4}, s2[] = {16, 32}, s3[] = {2, 7};
    check_strides("rstride2d W=1024 H=1024 iters=500", 1024, 1024, s1, 4);
    check_strides("rstride2d strides=16,32 W=512 H=512 iters=400 seed=11", 512, 512, s2, 2);
    check_strides("rstride2d strides=2,7 W=17 H=13 iters=250 seed=12", 17, 13, s3, 2);
    /* seeds give different walks; the same seed the same walk */
    chase_log *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    mg_gen *ga = chase("rstride2d seed=1 iters=64", MG_REC_TEX_READ, a);
    mg_gen *gb = chase("rstride2d seed=2 iters=64", MG_REC_TEX_READ, b);
    CU_ASSERT_NOT_EQUAL(memcmp(a->a, b->a, sizeof a->a), 0);
    release(gb);
    gb = chase("rstride2d seed=1 iters=64", MG_REC_TEX_READ, b);
    CU_ASSERT_EQUAL(memcmp(a->a, b->a, sizeof a->a), 0);
    CU_ASSERT_EQUAL(memcmp(a->b, b->b, sizeof a->b), 0);
    release(ga);
    release(gb);
    free(a);
    free(b);
}

/* ---- features and rejections ------------------------------------------------ */

static void test_features(void)
{
    mg_gen *g = prepare("regpressure regs=90 iters=4 items=768 wg=768");
    if (g) {
        CU_ASSERT_EQUAL(g->k.f.regs_per_item, 93);
        CU_ASSERT_EQUAL(g->k.local[0], 768);
        CU_ASSERT_EQUAL(g->hdr.regs_per_item, 93);
        release(g);
    }
    /* mlp: the 6 loads in flight, the address and P's base (2 each), l,
     * zero, the counter and g */
    g = prepare("mlp loads=6");
    if (g) {
        CU_ASSERT_EQUAL(g->k.f.regs_per_item, 6 + 2 + 2 + 4);
        release(g);
    }
    g = prepare("bandwidth mem=local footprint=8192 items=128 wg=64 vec=4 iters=2");
    if (g) {
        CU_ASSERT_EQUAL(g->k.f.local_bytes, 8192);
        CU_ASSERT_EQUAL(g->k.f.access_width, 16);
        CU_ASSERT_EQUAL(g->k.f.loop_iters, 2 * 8192 / 16 / 64);
        release(g);
    }
    g = prepare("bandwidth mem=local footprint=128 readers=8 items=128 wg=64 vec=4 iters=2");
    if (g) {          /* 8 readers of one float4 each: item l reads as l % 8 */
        CU_ASSERT_EQUAL(g->k.f.local_bytes, 128);
        CU_ASSERT_EQUAL(g->k.f.loop_iters, 2);
        release(g);
    }
    g = prepare("bandwidth mem=image pattern=block4 footprint=65536 items=4 wg=4");
    if (g) {          /* 1024 texels per item: 256-wide strips of 4 rows */
        CU_ASSERT_EQUAL(mg_tensor_img_width(&g->k.t[0]), 256);
        CU_ASSERT_EQUAL(mg_tensor_img_height(&g->k.t[0]), 16);
        release(g);
    }
    g = prepare("warpsize items=100 groups=7");
    if (g) {
        CU_ASSERT_EQUAL(g->k.global[0], 700);
        CU_ASSERT_EQUAL(g->k.local[0], 100);
        release(g);
    }
    g = prepare("pchase mem=image range=65536 stride=64");
    if (g) {
        CU_ASSERT_EQUAL(mg_tensor_img_width(&g->k.t[0]), 4096);
        CU_ASSERT_EQUAL(mg_tensor_img_height(&g->k.t[0]), 4);
        CU_ASSERT_EQUAL(g->k.t[0].channels, 1);
        CU_ASSERT_EQUAL(g->k.t[0].dtype, MG_DT_I32);
        release(g);
    }
}

static void test_rejections(void)
{
    ops_expect_reject("pchase range=1000 stride=12", "range=1000 is not a multiple of stride=12");
    ops_expect_reject("pchase range=1024 stride=6", "multiples of the 4-byte element");
    ops_expect_reject("pchase range=64 stride=128", "stride=128 is larger than range=64");
    ops_expect_reject("pchase mem=local", "mem=local: the chase reads an image or a buffer");
    ops_expect_reject("pchase mem=buffer stride_y=2", "they need mem=image");
    ops_expect_reject("pchase range=1048576 W=8", "past the image limit");
    ops_expect_reject("pchase range=20000", "give W");
    ops_expect_reject("pchase range=4096 stride=12 stride_y=1 W=32", "multiple of the x step");
    ops_expect_reject("pchase range=1024 stride=4 stride_y=3 W=1",
                  "height 256 a multiple of stride_y=3");
    ops_expect_reject("regpressure regs=257", "regs=257: expected an integer in [1, 256]");
    ops_expect_reject("regpressure items=32", "wg=64 is larger than items=32");
    ops_expect_reject("warpsize items=1025", "items=1025: expected an integer in [1, 1024]");
    ops_expect_reject("warpsize wg=32", "warpsize does not take the knob 'wg'");
    ops_expect_reject("flops vec=3", "vec=3: OpenCL vectors are 1, 2, 4, 8 or 16 wide");
    ops_expect_reject("flops vec=32", "vec=32: expected an integer in [1, 16]");
    ops_expect_reject("bandwidth mem=local footprint=65536 items=64",
                  "local footprint of 65536 bytes is larger than 32 KiB");
    ops_expect_reject("bandwidth mem=constant footprint=131072 items=64", "larger than 64 KiB");
    ops_expect_reject("bandwidth footprint=1000 items=64", "not a positive multiple of 64 readers");
    ops_expect_reject("bandwidth pattern=block4", "pattern=block4 is a 2D walk: it needs mem=image");
    ops_expect_reject("bandwidth mem=image vec=2", "a texel holds 4 channels");
    ops_expect_reject("bandwidth items=100", "items=100 is not a multiple of wg=64");
    ops_expect_reject("bandwidth mem=local storage=fp16", "storage must be fp32");
    ops_expect_reject("bandwidth mem=local footprint=1024 readers=3 items=64",
                  "readers=3 with mem=local: a divisor of wg=64");
    ops_expect_reject("bandwidth mem=image pattern=block8 footprint=4096 items=64",
                  "do not fill whole rows");
    ops_expect_reject("bandwidth mem=image pattern=column footprint=8388608 items=32768",
                  "past the image limit");
    ops_expect_reject("rstride2d strides=1,2,1", "stride 1 is listed twice");
    ops_expect_reject("rstride2d strides=0,1", "strides=0,1: expected a comma-separated list");
    ops_expect_reject("rstride2d strides=1,2,3,4,5,6,7,8,9", "expected a comma-separated list");
}

int add_ops_micro_suite(void)
{
    CU_pSuite s = CU_add_suite("ops_micro", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "flops_exact", test_flops_exact) ||
        !CU_add_test(s, "pchase_cycle", test_pchase_cycle) ||
        !CU_add_test(s, "pchase_steps", test_pchase_steps) ||
        !CU_add_test(s, "chain_matches_trace", test_chain_matches_trace) ||
        !CU_add_test(s, "rstride2d_strides", test_rstride2d_strides) ||
        !CU_add_test(s, "features", test_features) ||
        !CU_add_test(s, "rejections", test_rejections))
        return -1;
    return 0;
}
