/* test_ops_conv2d.c - the conv2d operator's reduction split (traces/ops/
 * conv2d*.c): the trace's flops equal the features' (the combine adds
 * included) and every warp meets one barrier; the split moves global loads
 * between items without adding any, and adds exactly the partial tiles'
 * local stores and loads; the static features; the register estimate;
 * check()'s reasons; vec_axis=cout (TVM's spatial-pack order); pack_in=1
 * (TVM's packed data_vec input); and the local_memory pruning rule on a
 * split conv. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/config/device.h"
#include "traces/gen/gen.h"
#include "traces/ops/conv2d.h"
#include "tests/unit/ops_util.h"
#include "sim/search/rule.h"
#include "tests/unit/suites.h"
#include "base/jsonfile.h"

static void test_flops(void)
{
    /* 2 Ho Wo Cout Cin K K (depthwise 2 Ho Wo C K K) + (split - 1) Ho Wo Cout */
    ops_check_trace("conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 layout=buffer tile=2x4 wg=2,2,4 "
                    "split=2", 2.0 * 5 * 6 * 8 * 8 * 9 + 5.0 * 6 * 8, 0, 1);
    ops_check_trace("conv2d H=5 W=6 Cin=16 Cout=8 K=3 stride=2 pad=1 tile=1x4 wg=2,3,8 "
                    "split=4 pattern=column", 2.0 * 3 * 3 * 8 * 16 * 9 + 3.0 * 3 * 3 * 8, 0, 1);
    ops_check_trace("conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 depthwise=1 layout=buffer tile=2x4 "
                    "wg=2,2,3 split=3", 2.0 * 5 * 6 * 8 * 9 + 2.0 * 5 * 6 * 8, 0, 1);
    ops_check_trace("conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 depthwise=1 tile=1x4 wg=2,2,9 "
                    "split=9 pattern=column", 2.0 * 5 * 6 * 8 * 9 + 8.0 * 5 * 6 * 8, 0, 1);
    ops_check_trace("conv2d H=7 W=7 Cin=16 Cout=12 K=1 layout=buffer vec=2 tile=3x3 wg=2,2,6 "
                    "split=2 compute=fp16", 2.0 * 7 * 7 * 12 * 16 + 7.0 * 7 * 12, 0, 1);
    /* split=1: no barrier, no local memory */
    ops_check_trace("conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 layout=buffer tile=2x4 wg=2,2,2",
                    2.0 * 5 * 6 * 8 * 8 * 9, 0, 0);
}

/* Accesses of `split` minus those of `base` (the same kernel, split=1):
 * exactly 2 (S - 1) Ho Wo Cout / LW, one local store and one local load per
 * partial of LW values, nothing else. */
static void check_extra(const char *split, const char *base, uint64_t want)
{
    mg_gen *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a && b);
    ops_totals ta, tb;
    ops_totals_of(split, a, &ta);
    ops_totals_of(base, b, &tb);
    CU_ASSERT_EQUAL(ta.accesses, tb.accesses + want);
    if (ta.accesses != tb.accesses + want)
        fprintf(stderr, "\n%s: %llu accesses, %s: %llu, want %llu more\n", split,
                (unsigned long long)ta.accesses, base, (unsigned long long)tb.accesses,
                (unsigned long long)want);
    mg_gen_free(a);
    mg_gen_free(b);
    free(a);
    free(b);
}

static void test_accesses(void)
{
    check_extra("conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 layout=buffer tile=2x4 wg=2,2,4 split=2",
                "conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 layout=buffer tile=2x4 wg=2,2,2",
                2 * 1 * 5 * 6 * 8 / 4);
    check_extra("conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 depthwise=1 layout=buffer tile=2x4 "
                "wg=2,2,3 split=3",
                "conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 depthwise=1 layout=buffer tile=2x4 "
                "wg=2,2,1", 2 * 2 * 5 * 6 * 8 / 4);
    check_extra("conv2d H=7 W=7 Cin=16 Cout=12 K=1 layout=buffer vec=2 tile=3x3 wg=2,2,6 "
                "split=2", "conv2d H=7 W=7 Cin=16 Cout=12 K=1 layout=buffer vec=2 tile=3x3 "
                "wg=2,2,3", 2 * 1 * 7 * 7 * 12);
}

static void plan_of(const char *line, mg_gen *g)
{
    mg_schedule s;
    char err[512];
    CU_ASSERT_EQUAL_FATAL(ops_parse(line, &s, err, sizeof err), 0);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_gen_plan(g, &s, &d), 0);
    mg_diag_free(&d);
}

static void test_features(void)
{
    static mg_gen a, b;
    /* split 2 of Cin 8 at 4 wide: 9 taps x 1 step; partial tiles (2-1) x
     * (2 x 2 x 2 rows) x 8 floats; z = 5 rows x 2 padded to 12 */
    plan_of("conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 layout=buffer tile=2x4 wg=2,2,4 split=2", &a);
    plan_of("conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 layout=buffer tile=2x4 wg=2,2,2", &b);
    CU_ASSERT_EQUAL(a.k.f.loop_iters, 9);
    CU_ASSERT_EQUAL(b.k.f.loop_iters, 18);
    CU_ASSERT_EQUAL(a.k.f.bytes_per_iter, (2 * 4 + 4 * 4) * 4);
    CU_ASSERT_EQUAL(a.k.f.bytes_per_item, 9 * (2 * 4 + 4 * 4) * 4);
    CU_ASSERT_EQUAL(a.k.f.local_bytes, 1 * 2 * 2 * 2 * 8 * 4);
    CU_ASSERT_EQUAL(b.k.f.local_bytes, 0);
    /* registers: accumulators 8; split: one 4-wide step per tap, xv 8 + wv
     * 16; unsplit: the 2-step channel loop unrolled whole, xv 16 + wv 32;
     * + X and Wt 8, the window 3, the item 9 (+ the split 2) */
    CU_ASSERT_EQUAL(a.k.f.regs_per_item, 8 + 8 + 16 + 8 + 3 + 9 + 2);
    CU_ASSERT_EQUAL(b.k.f.regs_per_item, 8 + 16 + 32 + 8 + 3 + 9);
    /* distinct bytes: (wg y x wg z) pixel rows x 2 x 4 + (wg x x split) x 4 x 4 weights */
    CU_ASSERT_EQUAL(a.k.f.wg_bytes_per_iter, (2 * 4 * 2 * 4 + 2 * 2 * 4 * 4) * 4);
    CU_ASSERT_EQUAL(b.k.f.wg_bytes_per_iter, (2 * 2 * 2 * 4 + 2 * 4 * 4) * 4);
    CU_ASSERT_EQUAL(a.k.global[2], 12);
    CU_ASSERT_EQUAL(a.k.local[2], 4);
    CU_ASSERT_TRUE(a.k.f.boundary_checks);
    mg_gen_free(&a);
    mg_gen_free(&b);
    /* depthwise: 3 of the 9 taps per item, one 4-wide channel step each */
    plan_of("conv2d H=6 W=8 Cin=8 Cout=8 K=3 pad=1 depthwise=1 layout=buffer tile=2x4 "
            "wg=2,4,3 split=3", &a);
    CU_ASSERT_EQUAL(a.k.f.loop_iters, 3);
    CU_ASSERT_EQUAL(a.k.f.local_bytes, 2 * 2 * 4 * 1 * 8 * 4);
    CU_ASSERT_EQUAL(a.k.global[2], 18);
    CU_ASSERT_FALSE(a.k.f.boundary_checks);
    mg_gen_free(&a);
}

/* The register estimate of line (regs_per_item). */
static int64_t regs_of(const char *line)
{
    mg_gen g;
    memset(&g, 0, sizeof g);
    plan_of(line, &g);
    int64_t r = g.k.f.regs_per_item;
    mg_gen_free(&g);
    return r;
}

/* The estimate against counts derived by hand from the emitted kernels
 * (conv2d.c, regs_per_item()): the held values plus X and Wt (4 each),
 * the item's 9, a window's 3, a split's 2. */
static void test_registers(void)
{
    const char *one = "conv2d H=8 W=8 Cin=64 Cout=16 K=1 tile=1x4 wg=4,4,1 vec=4 "
                      "layout_out=buffer";
    char line[256];
    /* 1x4, 16 channel steps: accumulators 4, one X vector 4; buffer
     * weights streamed (one vector, 4) */
    snprintf(line, sizeof line, "%s layout_in=buffer layout_w=buffer", one);
    CU_ASSERT_EQUAL(regs_of(line), 4 + 4 + 4 + 8 + 9);
    snprintf(line, sizeof line, "%s layout_in=buffer layout_w=buffer unroll=2", one);
    CU_ASSERT_EQUAL(regs_of(line), 4 + 4 + 4 + 8 + 9);
    /* image weights: one texture batch, the 4 texels held */
    snprintf(line, sizeof line, "%s layout_in=buffer layout_w=image", one);
    CU_ASSERT_EQUAL(regs_of(line), 4 + 4 + 16 + 8 + 9);
    /* image X: streamed weights, unless the unrolled copies wait on X's batch */
    snprintf(line, sizeof line, "%s layout_in=image layout_w=buffer", one);
    CU_ASSERT_EQUAL(regs_of(line), 4 + 4 + 4 + 8 + 9);
    snprintf(line, sizeof line, "%s layout_in=image layout_w=buffer unroll=2", one);
    CU_ASSERT_EQUAL(regs_of(line), 4 + 4 + 16 + 8 + 9);
    /* depthwise 2x4, one channel step: buffers hold 2 X vectors + 1 weight
     * vector, and the window's 3 */
    CU_ASSERT_EQUAL(regs_of("conv2d H=16 W=16 Cin=8 Cout=8 K=3 pad=1 depthwise=1 "
                            "layout=buffer vec=4 tile=2x4 wg=4,4,1"), 8 + 8 + 4 + 8 + 3 + 9);
    /* image X: a window row's 3 taps unrolled, its distinct texels one
     * batch: stride 1, pixels wo0 and wo0 + 1 read 4 texels (wo0 - 1 ..
     * wo0 + 2); stride 2, 5; column pattern, 2 x 3 = 6; plus one weight
     * texel, no window counters */
    CU_ASSERT_EQUAL(regs_of("conv2d H=16 W=16 Cin=8 Cout=8 K=3 pad=1 depthwise=1 "
                            "layout=image tile=2x4 wg=4,4,1"), 8 + (4 + 1) * 4 + 8 + 9);
    CU_ASSERT_EQUAL(regs_of("conv2d H=17 W=17 Cin=8 Cout=8 K=3 stride=2 pad=1 depthwise=1 "
                            "layout=image tile=2x4 wg=4,4,1"), 8 + (5 + 1) * 4 + 8 + 9);
    CU_ASSERT_EQUAL(regs_of("conv2d H=16 W=16 Cin=8 Cout=8 K=3 pad=1 depthwise=1 "
                            "layout=image tile=2x4 wg=4,4,1 pattern=column"),
                    8 + (6 + 1) * 4 + 8 + 9);
    /* split 9: one tap per item, the 2 pixels' texels differ */
    CU_ASSERT_EQUAL(regs_of("conv2d H=16 W=16 Cin=8 Cout=8 K=3 pad=1 depthwise=1 "
                            "layout=image tile=2x4 wg=2,2,9 split=9"),
                    8 + (2 + 1) * 4 + 8 + 9 + 2);
}

static void test_rejects(void)
{
    ops_expect_reject("conv2d split=2", "split=2 needs wg=X,Y,R*2 (R output rows per work "
                      "group: the split items of one output tile must be in one work group");
    ops_expect_reject("conv2d depthwise=1 K=3 pad=1 split=2 wg=8,8,2",
                      "depthwise: split=2 must divide the 3x3 window's 9 taps");
    ops_expect_reject("conv2d Cin=12 split=2 wg=4,4,2",
                      "Cin=12 must be a multiple of split x load width = 2 x 4");
    ops_expect_reject("conv2d Cin=16 split=4 wg=32,16,4",
                      "a work group of 2048 items is more than 1024");
    ops_expect_reject("conv2d H=16 W=16 Cin=64 Cout=64 tile=8x8 wg=8,4,8 split=8",
                      "split=8 needs 57344 bytes of local memory for the partial tiles");
    ops_expect_reject("conv2d split=0", "split=0: expected an integer in [1, 256]");
    ops_expect_reject("conv2d layout=buffer layout_out=packed",
                      "layout_out=packed: only the weights (layout_w) can be packed");
    ops_expect_reject("conv2d depthwise=1 K=3 pad=1 layout=buffer layout_w=packed",
                      "layout_w=packed is for a standard conv");
    ops_expect_reject("matmul layout_w=packed", "matmul: layout_w=packed: this operator has no "
                      "packed weight layout");
}

/* layout_w=packed: the same flops; each item's weight loads are one
 * stream (addresses rising by the load width), where the unpacked
 * layout jumps a whole filter between its TC channels. */
static void test_packed(void)
{
    const char *p = "conv2d H=5 W=6 Cin=16 Cout=8 K=3 pad=1 layout=buffer layout_w=packed "
                    "tile=2x4 wg=2,2,2 vec=4";
    ops_check_trace(p, 2.0 * 5 * 6 * 8 * 16 * 9, 0, 0);
    ops_check_trace("conv2d H=7 W=7 Cin=16 Cout=12 K=1 layout=buffer layout_w=packed vec=2 "
                    "tile=3x3 wg=2,2,6 split=2", 2.0 * 7 * 7 * 12 * 16 + 7.0 * 7 * 12, 0, 1);
    mg_schedule s;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(ops_parse(p, &s, err, sizeof err), 0);
    mg_conv_geom g;
    mg_conv_geom_of(&s, &g);
    /* item of channels 4..7: tap (1, 2), channels 8..11: one block of TC V = 16 */
    int64_t at = mg_conv_w_index(&s, &g, 4, 1, 2, 8);
    CU_ASSERT_EQUAL(at, (((1 * 3 + 1) * 3 + 2) * 4 + 2) * 16);
    CU_ASSERT_EQUAL(mg_conv_w_index(&s, &g, 5, 1, 2, 8), at + 4);       /* next channel */
    CU_ASSERT_EQUAL(mg_conv_w_index(&s, &g, 4, 1, 2, 12), at + 16);     /* next load */
    CU_ASSERT_EQUAL(mg_conv_w_index(&s, &g, 4, 1, 2, 9), at + 1);
    s.layout[MG_ROLE_W] = MG_LAYOUT_BUFFER;
    mg_conv_geom_of(&s, &g);
    CU_ASSERT_EQUAL(mg_conv_w_index(&s, &g, 4, 1, 2, 8), ((4 * 3 + 1) * 3 + 2) * 16 + 8);
}

/* vec_axis=cout: the flops of every form (split, fp16 storage, flat, the
 * epilogue); the features and register estimate of the emitted loop (TW
 * scalars, TC/V weight vectors, TW x TC accumulators); the packed index
 * [Cout/TC][K][K][Cin][TC]; at vec=1 the very trace of vec_axis=cin
 * vec=1 (the same loads, scalar FMAs); at vec=4, a quarter of the weight
 * loads, 4 times as wide. */
static void test_cout(void)
{
    const char *c = "conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 layout=buffer layout_w=packed "
                    "vec_axis=cout";
    char line[256];
    snprintf(line, sizeof line, "%s tile=2x8 wg=1,3,2 vec=4", c);
    ops_check_trace(line, 2.0 * 5 * 6 * 8 * 8 * 9, 0, 0);
    snprintf(line, sizeof line, "%s tile=2x4 wg=2,2,4 vec=2 split=2 storage=fp16", c);
    ops_check_trace(line, 2.0 * 5 * 6 * 8 * 8 * 9 + 5.0 * 6 * 8, 0, 1);
    snprintf(line, sizeof line, "%s tile=3x8 wg=1,2,1 vec=8 bias=1 act=relu", c);
    ops_check_trace(line, 2.0 * 5 * 6 * 8 * 8 * 9 + 2.0 * 5 * 6 * 8, 0, 0);
    ops_check_trace("conv2d H=5 W=5 Cin=8 Cout=16 K=1 tile=2x8 wg=20 launch=flat "
                    "layout=buffer layout_w=packed vec=4 vec_axis=cout",
                    2.0 * 5 * 5 * 16 * 8, 0, 0);
    static mg_gen g;
    snprintf(line, sizeof line, "%s tile=2x8 wg=1,3,2 vec=4", c);
    plan_of(line, &g);
    CU_ASSERT_EQUAL(g.k.f.loop_iters, 9 * 8);                 /* one input channel a step */
    CU_ASSERT_EQUAL(g.k.f.bytes_per_iter, (2 + 8) * 4);       /* 2 scalars, 2 vectors of 4 */
    CU_ASSERT_EQUAL(g.k.f.access_width, 16);
    /* wg 1 x 3 x 2: 3 x 2 pixel pairs, one channel tile of weights */
    CU_ASSERT_EQUAL(g.k.f.wg_bytes_per_iter, (3 * 2 * 2 + 1 * 8) * 4);
    /* accumulators 16, xv 2, wv 8, X and Wt 8, the window 3, the item 9 */
    CU_ASSERT_EQUAL(g.k.f.regs_per_item, 16 + 2 + 8 + 8 + 3 + 9);
    mg_gen_free(&g);
    /* TW = 1: each weight vector feeds one FMA, loaded just before it */
    CU_ASSERT_EQUAL(regs_of("conv2d H=8 W=8 Cin=64 Cout=16 K=1 tile=1x16 wg=1,8,1 vec=4 "
                            "layout=buffer layout_w=packed vec_axis=cout"), 16 + 1 + 4 + 8 + 9);
    CU_ASSERT_EQUAL(regs_of("conv2d H=8 W=8 Cin=64 Cout=16 K=1 tile=4x16 wg=1,2,1 vec=4 "
                            "layout=buffer layout_w=packed vec_axis=cout compute=fp16"),
                    (64 + 4 + 16 + 1) / 2 + 8 + 9);
    mg_schedule s;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(ops_parse(line, &s, err, sizeof err), 0);
    mg_conv_geom geo;
    mg_conv_geom_of(&s, &geo);
    CU_ASSERT_EQUAL(geo.XV, 1);
    CU_ASSERT_EQUAL(geo.nw, 2);
    int64_t at = mg_conv_w_index(&s, &geo, 0, 1, 2, 3);
    CU_ASSERT_EQUAL(at, ((1 * 3 + 2) * 8 + 3) * 8);
    CU_ASSERT_EQUAL(mg_conv_w_index(&s, &geo, 4, 1, 2, 3), at + 4);    /* the next vector */
    CU_ASSERT_EQUAL(mg_conv_w_index(&s, &geo, 0, 1, 2, 4), at + 8);    /* the next channel */
    /* vec=1: the same trace as vec_axis=cin vec=1 */
    const char *base = "conv2d H=5 W=6 Cin=8 Cout=8 K=3 pad=1 layout=buffer layout_w=packed "
                       "tile=2x4 wg=2,3,1";
    char a[256], b[256];
    snprintf(a, sizeof a, "%s vec=1 vec_axis=cout", base);
    snprintf(b, sizeof b, "%s vec=1", base);
    static mg_gen ga, gb;
    ops_totals ta, tb;
    ops_totals_of(a, &ga, &ta);
    ops_totals_of(b, &gb, &tb);
    CU_ASSERT_EQUAL(memcmp(&ta, &tb, sizeof ta), 0);
    mg_gen_free(&ga);
    mg_gen_free(&gb);
    /* vec=4: per step 1 weight load where vec=1 has 4; the 30 items (2
     * channel tiles x 3 pixel pairs x 5 rows) each make 9 x 8 steps */
    snprintf(a, sizeof a, "%s vec=4 vec_axis=cout", base);
    ops_totals_of(a, &ga, &ta);
    CU_ASSERT_EQUAL(ta.accesses, tb.accesses - 30 * 72 * 3);
    CU_ASSERT_EQUAL(ta.flops, tb.flops);
    mg_gen_free(&ga);
}

static void test_cout_rejects(void)
{
    ops_expect_reject("conv2d depthwise=1 K=3 pad=1 layout=buffer vec_axis=cout",
                      "vec_axis=cout is for a standard conv");
    ops_expect_reject("conv2d layout_in=image layout_w=packed layout_out=buffer vec_axis=cout",
                      "layout_in and layout_w must be buffers");
    ops_expect_reject("conv2d layout=buffer vec_axis=cout", "vec_axis=cout needs "
                      "layout_w=packed");
    ops_expect_reject("conv2d layout=buffer layout_w=packed tile=1x6 Cout=12 vec=4 "
                      "vec_axis=cout", "the channel tile 6 must be a multiple of vec=4");
    ops_expect_reject("conv2d layout=buffer layout_w=packed vec_axis=cin2",
                      "vec_axis=cin2");
}

/* pack_in=1: the input is TVM's data_vec [Ho][nx][Cin][stride+K-1]
 * [TW stride+K-1], the weights its kernel_vec; the flops, features and register estimate of the
 * NHWC kernel; the same loads but the padding's (read from data_vec, not
 * skipped); the host's data_vec holds one NHWC input, zeros in the
 * padding and the same value where tiles overlap.  pack_in=2 adds the
 * packing pre-pass's loads and stores, and no flops. */
static void test_pack_in(void)
{
    const char *c = "conv2d H=5 W=7 Cin=8 Cout=8 K=3 stride=2 pad=1 layout=buffer "
                    "layout_w=packed vec_axis=cout tile=2x8 wg=1,2,3 vec=4";
    char line[256], nhwc[256];
    snprintf(line, sizeof line, "%s pack_in=1", c);
    snprintf(nhwc, sizeof nhwc, "%s", c);
    ops_check_trace(line, 2.0 * 3 * 4 * 8 * 8 * 9, 0, 0);
    ops_check_trace("conv2d H=5 W=7 Cin=8 Cout=8 K=3 stride=2 pad=1 layout=buffer "
                    "layout_w=packed vec_axis=cout tile=2x8 wg=1,2,4 vec=4 pack_in=1 split=2 "
                    "storage=fp16", 2.0 * 3 * 4 * 8 * 8 * 9 + 3.0 * 4 * 8, 0, 1);
    ops_check_trace("conv2d H=5 W=5 Cin=8 Cout=16 K=1 tile=2x8 wg=20 launch=flat "
                    "layout=buffer layout_w=packed vec=4 vec_axis=cout pack_in=1",
                    2.0 * 5 * 5 * 16 * 8, 0, 0);
    snprintf(line, sizeof line, "%s pack_in=1", c);
    static mg_gen g, gn;
    plan_of(line, &g);
    plan_of(nhwc, &gn);
    /* Ho 3, Wo 4: 2 tiles of 2 pixels; windows of 2 + 3 - 1 rows, 2 x 2 + 3 - 1 columns */
    const mg_tensor *x = &g.k.t[MG_CONV_TX];
    CU_ASSERT_EQUAL(x->dims[0], 3);
    CU_ASSERT_EQUAL(x->dims[1], 2);
    CU_ASSERT_EQUAL(x->dims[2], 8);
    CU_ASSERT_EQUAL(x->dims[3], 4 * 6);
    CU_ASSERT_EQUAL(g.k.f.loop_iters, gn.k.f.loop_iters);
    CU_ASSERT_EQUAL(g.k.f.bytes_per_iter, gn.k.f.bytes_per_iter);
    CU_ASSERT_EQUAL(g.k.f.wg_bytes_per_iter, gn.k.f.wg_bytes_per_iter);
    CU_ASSERT_EQUAL(g.k.f.regs_per_item, gn.k.f.regs_per_item);
    CU_ASSERT_EQUAL(g.k.f.flops, gn.k.f.flops);
    mg_conv_geom geo;
    mg_conv_geom_of(&g.s, &geo);
    int64_t at = mg_conv_xp_index(&g.s, &geo, 1, 1, 0, 1, 2, 3);
    CU_ASSERT_EQUAL(at, ((1 * 2 + 1) * 8 + 3) * 24 + 1 * 6 + 2);
    CU_ASSERT_EQUAL(mg_conv_xp_index(&g.s, &geo, 1, 1, 1, 1, 2, 3), at + 2);   /* stride 2 */
    CU_ASSERT_EQUAL(mg_conv_xp_index(&g.s, &geo, 1, 1, 0, 1, 2, 4), at + 24);  /* next channel */
    /* the weights as TVM's kernel_vec [Cout/TC][Cin][K][K][TC]: the taps
     * inside the channels, as the loop walks them */
    int64_t wat = mg_conv_w_index(&g.s, &geo, 3, 1, 2, 5);
    CU_ASSERT_EQUAL(wat, ((5 * 3 + 1) * 3 + 2) * 8 + 3);
    CU_ASSERT_EQUAL(mg_conv_w_index(&g.s, &geo, 3, 2, 0, 5), wat + 8);    /* the next tap */
    CU_ASSERT_EQUAL(mg_conv_w_index(&g.s, &geo, 3, 0, 0, 6),              /* the last tap, */
                    mg_conv_w_index(&g.s, &geo, 3, 2, 2, 5) + 8);         /* the next channel */
    /* the host's data_vec: padding 0; tile 0's last columns are tile 1's first */
    mg_host h;
    CU_ASSERT_EQUAL_FATAL(mg_host_init(&g, &h), 0);
    const float *xv = h.f[MG_CONV_TX];
    for (int64_t ci = 0; ci < 8; ci++) {
        CU_ASSERT_EQUAL(xv[mg_conv_xp_index(&g.s, &geo, 0, 0, 0, 0, 0, ci)], 0.0f);  /* hi -1 */
        CU_ASSERT_EQUAL(xv[mg_conv_xp_index(&g.s, &geo, 1, 0, 0, 1, 0, ci)], 0.0f);  /* wi -1 */
        float v = xv[mg_conv_xp_index(&g.s, &geo, 1, 0, 1, 1, 2, ci)];               /* wi 3 */
        CU_ASSERT_NOT_EQUAL(v, 0.0f);
        CU_ASSERT_EQUAL(xv[mg_conv_xp_index(&g.s, &geo, 1, 1, 0, 1, 0, ci)], v);
    }
    mg_host_free(&h);
    mg_gen_free(&g);
    mg_gen_free(&gn);
    /* the loads: NHWC's plus the padding's, a Cin x TC/V-wide step each for
     * every (item's valid pixel, tap) that falls outside the input */
    int64_t pads = 0;
    for (int64_t ho = 0; ho < 3; ho++)
        for (int64_t wo = 0; wo < 4; wo++)
            for (int64_t ky = 0; ky < 3; ky++)
                for (int64_t kx = 0; kx < 3; kx++) {
                    int64_t hi = ho * 2 - 1 + ky, wi = wo * 2 - 1 + kx;
                    pads += hi < 0 || hi >= 5 || wi < 0 || wi >= 7;
                }
    ops_totals tp, tn;
    ops_totals_of(line, &g, &tp);
    ops_totals_of(nhwc, &gn, &tn);
    CU_ASSERT_EQUAL(tp.accesses, tn.accesses + (uint64_t)(pads * 8));
    CU_ASSERT_EQUAL(tp.flops, tn.flops);
    mg_gen_free(&g);
    mg_gen_free(&gn);
    ops_expect_reject("conv2d layout=buffer layout_w=packed pack_in=1",
                      "pack_in=1 needs vec_axis=cout");
    /* pack_in=2: pack_in=1's accesses plus the pre-pass: every data_vec
     * element stored once, XS loaded where the window lies inside it */
    int64_t inside = 0;
    for (int64_t ho = 0; ho < 3; ho++)
        for (int64_t gx = 0; gx < 2; gx++)
            for (int64_t r = 0; r < 4; r++)
                for (int64_t c2 = 0; c2 < 6; c2++) {
                    int64_t hi = ho * 2 - 1 + r, wi = gx * 4 - 1 + c2;
                    inside += hi >= 0 && hi < 5 && wi >= 0 && wi < 7;
                }
    snprintf(nhwc, sizeof nhwc, "%s pack_in=2", c);
    ops_totals_of(line, &g, &tp);
    ops_totals_of(nhwc, &gn, &tn);
    CU_ASSERT_EQUAL(tn.accesses, tp.accesses + (uint64_t)(3 * 2 * 8 * 4 * 6 + inside * 8));
    CU_ASSERT_EQUAL(tn.flops, tp.flops);
    CU_ASSERT_EQUAL(gn.k.n_tensors, 5);
    CU_ASSERT_EQUAL(gn.k.t[4].dims[3], 4 * 6);
    mg_gen_free(&g);
    mg_gen_free(&gn);
    ops_check_trace(nhwc, 2.0 * 3 * 4 * 8 * 8 * 9, 0, 0);
    ops_expect_reject("conv2d layout=buffer layout_w=packed vec_axis=cout pack_in=3",
                      "pack_in");
    ops_expect_reject("conv2d Cin=16 layout=buffer layout_w=packed vec_axis=cout pack_in=2 "
                      "split=2 wg=8,8,2", "pack_in=2 needs split=1");
}

/* The rules that fire for sched on dev_path with romou's rules file. */
static unsigned fire(const char *dev_path, const char *sched)
{
    static mg_device dev;
    static mg_gen g;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_device_load(dev_path, 0, &dev, &d), 0);
    mg_rules r;
    CU_ASSERT_EQUAL_FATAL(mg_rules_load("configs/rules/romou.json", &r, &d), 0);
    mg_diag_free(&d);
    plan_of(sched, &g);
    unsigned m = mg_rules_eval(&r, &dev, &g.s, &g.k);
    mg_gen_free(&g);
    return m;
}

static void test_local_rule(void)
{
    /* mali-g76: 24 ALUs per core, alpha 3: more than 72 items fire */
    const char *c = "conv2d H=28 W=28 Cin=256 Cout=256 K=1 tile=1x4 storage=fp16 compute=fp16";
    char s[256];
    unsigned local = 1u << MG_RULE_LOCAL;
    snprintf(s, sizeof s, "%s wg=8,4,4 split=4", c);          /* 128 items */
    CU_ASSERT_EQUAL(fire("configs/devices/mali-g76-mp5.json", s) & local, local);
    snprintf(s, sizeof s, "%s wg=4,2,4 split=4", c);          /* 32 items */
    CU_ASSERT_EQUAL(fire("configs/devices/mali-g76-mp5.json", s) & local, 0);
    snprintf(s, sizeof s, "%s wg=8,4,4", c);                  /* no local memory */
    CU_ASSERT_EQUAL(fire("configs/devices/mali-g76-mp5.json", s) & local, 0);
    /* adreno640: 384 ALUs per core: 3 x 384 > 1024, the most a group holds */
    snprintf(s, sizeof s, "%s wg=16,16,4 split=4", c);
    CU_ASSERT_EQUAL(fire("configs/devices/adreno640.json", s) & local, 0);
}

int add_ops_conv2d_suite(void)
{
    CU_pSuite s = CU_add_suite("ops_conv2d", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "flops", test_flops) || !CU_add_test(s, "accesses", test_accesses) ||
        !CU_add_test(s, "features", test_features) ||
        !CU_add_test(s, "registers", test_registers) ||
        !CU_add_test(s, "rejects", test_rejects) ||
        !CU_add_test(s, "packed weights", test_packed) ||
        !CU_add_test(s, "vec_axis=cout", test_cout) ||
        !CU_add_test(s, "vec_axis=cout rejects", test_cout_rejects) ||
        !CU_add_test(s, "pack_in", test_pack_in) ||
        !CU_add_test(s, "local_rule", test_local_rule))
        return -1;
    return 0;
}
