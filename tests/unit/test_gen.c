/* test_gen.c - the generator framework: schedules, tensor packing, and the
 * agreement of every op's trace with its static features (traces/gen). */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "traces/gen/gen.h"
#include "traces/gen/op.h"
#include "tests/unit/ops_util.h"
#include "tests/unit/suites.h"

static void test_parse_errors(void)
{
    ops_expect_reject("conv3d H=1", "unknown operator 'conv3d' (did you mean 'conv2d'?)");
    ops_expect_reject("conv2d Hh=4", "unknown key 'Hh' (did you mean 'H'?)");
    ops_expect_reject("conv2d H=0", "H=0: expected an integer in [1, 4096]");
    ops_expect_reject("conv2d H=4x", "H=4x: expected an integer");
    ops_expect_reject("conv2d H=4 H=5", "H given twice");
    ops_expect_reject("conv2d tile=4x4x4", "expected ROWSxCOLS");
    ops_expect_reject("conv2d wg=0,4", "expected X[,Y[,Z]]");
    ops_expect_reject("conv2d layout=texture", "expected one of image|buffer");
    ops_expect_reject("conv2d H", "'H': expected key=value");
    ops_expect_reject("eltwise split=2", "eltwise does not take the knob 'split'");
    ops_expect_reject("conv2d Cin=6", "Cin=6 is not a multiple of the load width 4");
    ops_expect_reject("eltwise C=6 layout=buffer vec=4", "C=6 is not a multiple of vec=4");
    ops_expect_reject("eltwise layout=image vec=2", "a texel holds 4 channels");
}

/* format() then parse() gives the same schedule, for every op's defaults. */
static void test_format_roundtrip(void)
{
    for (int i = 0; mg_ops[i]; i++) {
        mg_schedule a, b;
        char text[2048], err[512];
        mg_diag d;
        mg_diag_init(&d);
        int rc = mg_schedule_parse(mg_ops[i]->name, 0, NULL, &a, &d);
        CU_ASSERT_EQUAL(rc, 0);      /* every op's defaults are a valid schedule */
        if (rc) fprintf(stderr, "\n%s defaults: %s\n", mg_ops[i]->name, mg_diag_first(&d));
        mg_diag_free(&d);
        if (rc) continue;
        mg_schedule_format(&a, text, sizeof text);
        CU_ASSERT_EQUAL_FATAL(ops_parse(text, &b, err, sizeof err), 0);
        char again[2048];
        mg_schedule_format(&b, again, sizeof again);
        CU_ASSERT_STRING_EQUAL(text, again);
    }
}

static void test_json_schedule(void)
{
    cJSON *j = cJSON_Parse("{\"op\": \"conv2d\", \"H\": 8, \"W\": 6, \"K\": 3, \"pad\": 1, "
                           "\"tile\": \"2x4\", \"wg\": [4, 2], \"layout_w\": \"buffer\"}");
    mg_schedule a, b;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_schedule_from_json(j, "t.json", &a, &d), 0);
    char err[256];
    CU_ASSERT_EQUAL_FATAL(ops_parse("conv2d H=8 W=6 K=3 pad=1 tile=2x4 wg=4,2 layout_w=buffer",
                                     &b, err, sizeof err), 0);
    char ta[1024], tb[1024];
    CU_ASSERT_STRING_EQUAL(mg_schedule_format(&a, ta, sizeof ta),
                           mg_schedule_format(&b, tb, sizeof tb));
    CU_ASSERT_EQUAL(a.wg[2], 1);
    CU_ASSERT_EQUAL(a.layout[MG_ROLE_W], MG_LAYOUT_BUFFER);
    CU_ASSERT_EQUAL(a.layout[MG_ROLE_IN], MG_LAYOUT_IMAGE);
    cJSON_Delete(j);
    j = cJSON_Parse("{\"H\": 8}");
    CU_ASSERT_EQUAL(mg_schedule_from_json(j, "t.json", &a, &d), -1);
    cJSON_Delete(j);
    mg_diag_free(&d);
}

static void check_flops(const char *line, double want)
{
    mg_gen *g = calloc(1, sizeof *g);
    ops_totals t;
    ops_totals_of(line, g, &t);
    CU_ASSERT_DOUBLE_EQUAL(g->k.f.flops, want, 0.5);
    CU_ASSERT_DOUBLE_EQUAL(t.flops, want, 0.5);
    if (t.flops != want || g->k.f.flops != want)
        fprintf(stderr, "\n%s: trace %.0f, features %.0f, want %.0f\n", line, t.flops,
                g->k.f.flops, want);
    mg_gen_free(g);
    free(g);
}

static void test_flops_exact(void)
{
    /* the example: 2 * 56 * 56 * 128 * 128 */
    check_flops("conv2d H=56 W=56 Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 layout=image",
                2.0 * 56 * 56 * 128 * 128);
    /* padding, stride and a tile that does not divide Wo (guarded pixels) */
    check_flops("conv2d H=9 W=11 Cin=8 Cout=8 K=3 pad=1 stride=2 tile=4x4 wg=4,4",
                2.0 * 5 * 6 * 8 * 8 * 9);
    check_flops("conv2d H=7 W=7 Cin=12 Cout=12 K=3 depthwise=1 tile=3x4 layout=buffer vec=4",
                2.0 * 5 * 5 * 12 * 9);
    check_flops("conv2d H=6 W=6 Cin=6 Cout=6 K=1 tile=2x3 layout=buffer vec=2",
                2.0 * 6 * 6 * 6 * 6);
    check_flops("eltwise H=5 W=7 C=8 tile=1x3 wg=16", 5.0 * 7 * 8);
    check_flops("eltwise H=5 W=7 C=8 layout=buffer vec=2 pattern=column tile=1x4", 5.0 * 7 * 8);
}

/* Same schedule, byte-identical trace and source. */
static void test_deterministic(void)
{
    mg_schedule s;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(ops_parse("conv2d H=9 W=9 Cin=8 Cout=8 K=3 pad=1 tile=2x4 wg=8,2",
                                     &s, err, sizeof err), 0);
    mg_gen *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_gen_prepare(a, &s, &d), 0);
    CU_ASSERT_EQUAL_FATAL(mg_gen_prepare(b, &s, &d), 0);
    CU_ASSERT_STRING_EQUAL(a->source, b->source);
    mg_trace_wg wa, wb;
    mg_trace_wg_init(&wa);
    mg_trace_wg_init(&wb);
    for (uint64_t i = 0; i < mg_gen_num_wgs(a); i++) {
        mg_gen_trace_wg(a, i, &wa);
        mg_gen_trace_wg(b, mg_gen_num_wgs(b) - 1 - i, &wb);   /* other order first */
        mg_gen_trace_wg(b, i, &wb);
        CU_ASSERT_EQUAL(wa.len, wb.len);
        CU_ASSERT_EQUAL(memcmp(wa.bytes, wb.bytes, wa.len), 0);
    }
    mg_trace_wg_free(&wa);
    mg_trace_wg_free(&wb);
    mg_gen_free(a);
    mg_gen_free(b);
    free(a);
    free(b);
    mg_diag_free(&d);
}

static void test_pack_roundtrip(void)
{
    mg_tensor t;
    memset(&t, 0, sizeof t);
    t.dims[0] = 2; t.dims[1] = 3; t.dims[2] = 5; t.dims[3] = 6;   /* 6 = 1.5 texels */
    t.channels = 4;
    for (int layout = 0; layout < 2; layout++)
        for (int dt = 0; dt < 2; dt++) {
            t.layout = layout ? MG_TL_IMAGE : MG_TL_BUFFER;
            t.dtype = dt ? MG_DT_F16 : MG_DT_F32;
            int64_t n = mg_tensor_elems(&t);
            float *in = malloc(sizeof(float) * (size_t)n), *out = malloc(sizeof(float) * (size_t)n);
            void *dev = malloc((size_t)mg_tensor_device_bytes(&t));
            for (int64_t e = 0; e < n; e++) in[e] = (float)e * 0.25f - 7.0f;
            mg_tensor_pack(&t, in, NULL, dev);
            mg_tensor_unpack(&t, dev, out, NULL);
            for (int64_t e = 0; e < n; e++) CU_ASSERT_EQUAL(out[e], in[e]);  /* exact in fp16 */
            if (layout) {
                CU_ASSERT_EQUAL(mg_tensor_img_width(&t), 10);
                CU_ASSERT_EQUAL(mg_tensor_img_height(&t), 6);
                /* element (1,2,3,5) is channel 1 of texel (3*2 + 1, 1*3 + 2) */
                int64_t e = ((1 * 3 + 2) * 5 + 3) * 6 + 5;
                int64_t di = ((5 * 10) + 7) * 4 + 1;
                float v = dt ? out[e] : ((float *)dev)[di];
                CU_ASSERT_EQUAL(v, in[e]);
            }
            free(in);
            free(out);
            free(dev);
        }
}

static void test_half_rounding(void)
{
    CU_ASSERT_EQUAL(mg_round_half(1.0f), 1.0f);
    CU_ASSERT_EQUAL(mg_round_half(65504.0f), 65504.0f);
    CU_ASSERT_TRUE(isinf(mg_round_half(70000.0f)));
    /* fp16 ulp at 1 is 1/1024 */
    CU_ASSERT_EQUAL(mg_round_half(1.0f + 1.0f / 4096), 1.0f);          /* 0.25 ulp: down */
    CU_ASSERT_EQUAL(mg_round_half(1.0f + 3.0f / 4096), 1.0f + 1.0f / 1024); /* 0.75: up */
    CU_ASSERT_EQUAL(mg_round_half(1.0f + 1.0f / 2048), 1.0f);          /* tie: to even */
    CU_ASSERT_EQUAL(mg_round_half(1.0f + 3.0f / 2048), 1.0f + 2.0f / 1024);  /* tie: even */
    CU_ASSERT_EQUAL(mg_round_half(5.9604645e-8f), 5.9604645e-8f);       /* smallest subnormal */
    CU_ASSERT_EQUAL(mg_round_half(-0.1f), -0.0999755859375f);
}

/* The work estimate against the trace's records: every op's defaults and
 * a few sizes within a factor of 2; conv2d and matmul, whose loops are
 * all loads and one ALU record, within 5%; the warps exactly. */
static uint64_t work_recs;
static void work_count(void *ctx, const mg_rec *r)
{
    (void)ctx;
    (void)r;
    work_recs++;
}

static void check_work(const char *line, double factor)
{
    mg_gen g;
    CU_ASSERT_EQUAL_FATAL(ops_prepare(line, 64, &g), 0);
    mg_gen_work w;
    mg_gen_work_estimate(&g, &w);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    wg.sink = work_count;
    work_recs = 0;
    uint64_t warps = 0, n = mg_gen_num_wgs(&g);
    for (uint64_t i = 0; i < n; i++) {
        mg_gen_trace_wg(&g, i, &wg);
        warps += wg.n_warps;
    }
    mg_trace_wg_free(&wg);
    double ratio = (double)work_recs / w.instrs;
    if (ratio > factor || ratio < 1 / factor || (double)warps != w.warps)
        fprintf(stderr, "\n%s: %llu records in %llu warps, estimate %.0f in %.0f\n", line,
                (unsigned long long)work_recs, (unsigned long long)warps, w.instrs, w.warps);
    CU_ASSERT(ratio <= factor && ratio >= 1 / factor);
    CU_ASSERT_EQUAL((double)warps, w.warps);
    CU_ASSERT(w.bytes > w.instrs);
    mg_gen_free(&g);
}

static void test_work_estimate(void)
{
    for (int i = 0; mg_ops[i]; i++) check_work(mg_ops[i]->name, 2.0);
    check_work("matmul M=256 N=256 K=256", 1.05);
    check_work("matmul M=100 N=60 K=64 layout_in=buffer layout_w=buffer layout_out=buffer "
               "vec=4 tile=2x4 wg=8,8,1", 1.05);
    check_work("conv2d H=14 W=14 Cin=128 Cout=128", 1.05);
    check_work("conv2d H=16 W=16 Cin=16 Cout=16 K=3 pad=1", 1.05);
    check_work("conv2d H=28 W=28 Cin=64 Cout=64 depthwise=1 K=3 pad=1", 1.35);
    check_work("eltwise H=64 W=64 C=8", 2.0);
    check_work("softmax M=64 N=256 split=4 wg=4,1,4", 2.0);
    check_work("layernorm M=64 N=256 split=4 wg=4,1,4 layout=buffer", 2.0);
}

/* --max-work refuses at once, with the estimate and how to raise it. */
static void test_work_guard(void)
{
    mg_gen g;
    CU_ASSERT_EQUAL_FATAL(ops_prepare("matmul M=256 N=256 K=256", 64, &g), 0);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(mg_gen_check_work(&g, 0, &d), 0);          /* 0: no limit */
    CU_ASSERT_EQUAL(mg_gen_check_work(&g, 1e9, &d), 0);
    CU_ASSERT_EQUAL(mg_gen_check_work(&g, 1000, &d), -1);
    CU_ASSERT_STRING_EQUAL(mg_diag_first(&d), "matmul: about 37248 warp instructions (193408 "
                           "trace bytes) is more than --max-work 1000: raise --max-work (0: no "
                           "limit) or shrink the launch");
    mg_diag_free(&d);
    mg_gen_free(&g);
    double v;
    CU_ASSERT(mg_gen_max_work_parse("2e9", &v) == 0 && v == 2e9);
    CU_ASSERT(mg_gen_max_work_parse("0", &v) == 0 && v == 0);
    CU_ASSERT_EQUAL(mg_gen_max_work_parse("-1", &v), -1);
    CU_ASSERT_EQUAL(mg_gen_max_work_parse("1.5", &v), -1);
    CU_ASSERT_EQUAL(mg_gen_max_work_parse("1e400", &v), -1);
    CU_ASSERT_EQUAL(mg_gen_max_work_parse("x", &v), -1);
}

int add_gen_suite(void)
{
    CU_pSuite s = CU_add_suite("gen", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "parse_errors", test_parse_errors) ||
        !CU_add_test(s, "format_roundtrip", test_format_roundtrip) ||
        !CU_add_test(s, "json_schedule", test_json_schedule) ||
        !CU_add_test(s, "flops_exact", test_flops_exact) ||
        !CU_add_test(s, "deterministic", test_deterministic) ||
        !CU_add_test(s, "pack_roundtrip", test_pack_roundtrip) ||
        !CU_add_test(s, "half_rounding", test_half_rounding) ||
        !CU_add_test(s, "work estimate against the trace", test_work_estimate) ||
        !CU_add_test(s, "work guard", test_work_guard))
        return -1;
    return 0;
}
