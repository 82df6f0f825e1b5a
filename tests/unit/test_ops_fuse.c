/* test_ops_fuse.c - the fused operators: convpool (traces/ops/convpool.c)
 * and fuse (traces/ops/fuse.c).  Their traces' flops equal their plans',
 * items stay within their log capacity, bad schedules are rejected, and a
 * fused warp issues two sub-kernels' bodies exactly when its lanes
 * straddle their ranges (round=none), never with round=wave. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/suites.h"
#include "tests/unit/ops_util.h"

static void test_convpool_flops(void)
{
    /* 4x4 input, 3x3 conv pad 1 (4x4 out), 2x2 pool stride 2 (2x2 out):
     * taps inside per conv row 2,3,3,2, so each axis sums 10 over the
     * pooled outputs' windows; dots 32 x Cout/4 x Cin/4 x 10 x 10, plus
     * per output element (2 x 2 x 4 of them) 4 (pool) + 1 (relu).  Taps in
     * the padding load nothing, so log_cap (every tap) is not tight. */
    ops_check_trace("convpool H=4 W=4 Cin=4 Cout=4 K=3 pad=1 pool=2 pstride=2 act=relu wg=16",
                    32.0 * 100 + 16 * 5, 0, 0);
    /* avg adds a multiply, norm a multiply-add (2), act none nothing */
    ops_check_trace("convpool H=4 W=4 Cin=4 Cout=4 K=3 pad=1 pool=2 pstride=2 mode=avg norm=1 "
                    "act=none wg=16", 32.0 * 100 + 16 * (4 + 1 + 2), 0, 0);
    ops_check_trace("convpool H=9 W=7 Cin=8 Cout=12 K=3 stride=2 pad=1 pool=3 pstride=1 wg=8",
                    -1, 0, 0);
    /* no padding: every tap loads, so some item makes log_cap accesses */
    ops_check_trace("convpool H=6 W=6 Cin=8 Cout=4 K=3 pad=0 pool=2 pstride=2 norm=1 wg=8",
                    -1, 1, 0);
}

static void test_convpool_rejects(void)
{
    ops_expect_reject("convpool Cin=6", "multiples of 4");
    ops_expect_reject("convpool K=3 pad=3", "pad=3 must be smaller than K=3");
    ops_expect_reject("convpool H=4 W=4 K=3 pad=0 pool=3", "smaller than the pool=3 window");
    ops_expect_reject("convpool wg=8,2", "the launch is 1D");
    ops_expect_reject("convpool layout=image", "does not take the knob 'layout'");
}

static void test_fuse_flops(void)
{
    /* the sum of the sub-kernels': eltwise 1 x 5 x 8 adds, pool as in
     * test_ops_pool (10 x 10 x 8 compares) */
    ops_check_trace("fuse a=eltwise:H=1:W=5:C=8:layout=buffer "
                    "b=pool:H=4:W=4:C=8:K=3:stride=1:pad=1:layout=buffer round=none wg=16 "
                    "warp=16", 40 + 800, 0, 0);
    ops_check_trace("fuse a=eltwise:H=1:W=5:C=8:layout=buffer "
                    "b=pool:H=4:W=4:C=8:K=3:stride=1:pad=1:layout=buffer round=wave wg=16 "
                    "warp=16", 40 + 800, 0, 0);
}

static void test_fuse_rejects(void)
{
    ops_expect_reject("fuse a=pol b=eltwise", "unknown operator 'pol'");
    ops_expect_reject("fuse a=eltwise b=pool c=pool d=pool", "unknown key 'd'");
    ops_expect_reject("fuse a=conv2d b=pool", "not 1D without local memory (set launch=flat)");
    ops_expect_reject("fuse a=matmul b=pool", "matmul cannot be a sub-kernel");
    ops_expect_reject("conv2d launch=flat split=2 wg=8,1,2", "launch=flat is a 1D launch");
    ops_expect_reject("conv2d launch=flat wg=8,2", "launch=flat is a 1D launch");
    ops_expect_reject("conv2d box=2,2", "box is launch=flat's");
    ops_expect_reject("fuse a=fuse b=pool", "fuse cannot be a sub-kernel");
    ops_expect_reject("fuse a=eltwise:wg=16 b=pool", "set wg on fuse");
    ops_expect_reject("fuse a=eltwise b=pool:seed=2", "set seed on fuse");
    ops_expect_reject("fuse a=eltwise b=", "b is empty");
    ops_expect_reject("fuse a=eltwise b=pool wg=48 warp=64", "round=wave with wg=48");
    ops_expect_reject("fuse a=eltwise b=pool wg=8,2", "the launch is 1D");
}

/* add, act, concat and a flat conv2d as sub-kernels: the flops are the
 * sum of theirs (add 1 x 4 x 8: an add and relu6's 2; act 2 x 2 x 4: a
 * max; concat none; a 1x1 conv 4 x 4 x 8 outputs x 2 x 4 inputs, its
 * flat ids integer instructions) */
static void test_fuse_more_ops(void)
{
    ops_check_trace("fuse a=add:H=1:W=4:C=8:layout=buffer:act=relu6 b=act:H=2:W=2:C=4 "
                    "c=concat:H=2:W=2:C=4,8 round=none wg=16 warp=16", 32 * 3 + 16, 0, 0);
    ops_check_trace("fuse a=conv2d:H=4:W=4:Cin=4:Cout=8:tile=1x4:box=2,2,2:launch=flat "
                    "b=act:H=2:W=2:C=4 round=wave wg=16 warp=16", 4 * 4 * 8 * 2 * 4 + 16, 0, 0);
}

/* The memory records of line's trace (warps of 16), in launch order,
 * into r[] (at most max); ALU records are skipped.  Returns the count. */
static int mem_records(const char *line, mg_rec *r, int max)
{
    mg_gen *g = calloc(1, sizeof *g);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_EQUAL_FATAL(ops_prepare(line, 16, g), 0);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    int n = 0;
    for (uint64_t i = 0; i < mg_gen_num_wgs(g); i++) {
        CU_ASSERT_EQUAL_FATAL(mg_gen_trace_wg(g, i, &wg), 0);
        for (uint32_t w = 0; w < wg.n_warps; w++) {
            mg_trace_cursor c;
            mg_trace_cursor_init(&c, &wg, w);
            while (n < max && mg_trace_cursor_next(&c, &r[n], NULL) == 1)
                if (r[n].type != MG_REC_ALU) n++;
        }
    }
    mg_trace_wg_free(&wg);
    mg_gen_free(g);
    free(g);
    return n;
}

/* launch=flat with box = the grid's work group of 16 items (a warp): every
 * warp makes the grid warp's memory records, the same lanes at the same
 * addresses (buffers and images, a padded window, an edge tile along Wo,
 * work groups past Cout). */
static void test_conv_flat_same_as_grid(void)
{
    static const char *const shapes[] = {
        "conv2d H=5 W=7 Cin=8 Cout=12 K=3 pad=1 tile=2x4 layout=buffer vec=4",
        "conv2d H=6 W=5 Cin=8 Cout=8 K=3 stride=2 pad=1 tile=1x4 layout=image bias=1 act=relu",
        "conv2d H=6 W=6 Cin=8 Cout=8 K=3 pad=1 depthwise=1 tile=2x4 layout=image",
    };
    static mg_rec a[4096], b[4096];
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        char grid[256], flat[256];
        snprintf(grid, sizeof grid, "%s wg=2,4,2", shapes[i]);
        snprintf(flat, sizeof flat, "%s launch=flat box=2,4,2 wg=16", shapes[i]);
        int na = mem_records(grid, a, 4096), nb = mem_records(flat, b, 4096);
        CU_ASSERT(na > 0 && na < 4096);
        CU_ASSERT_EQUAL(na, nb);
        for (int k = 0; k < na && k < nb; k++) {
            CU_ASSERT_EQUAL(a[k].type, b[k].type);
            CU_ASSERT_EQUAL(a[k].site, b[k].site);
            CU_ASSERT(a[k].mask[0] == b[k].mask[0] && a[k].mask[1] == b[k].mask[1]);
            for (int l = 0; l < a[k].lanes; l++)
                if ((a[k].mask[l >> 6] >> (l & 63)) & 1)
                    CU_ASSERT(a[k].a[l] == b[k].a[l] && a[k].b[l] == b[k].b[l]);
        }
    }
}

/* Records of each warp of line's trace (warps of 16), in launch order,
 * into n[] (at most max); returns the number of warps. */
static int records_per_warp(const char *line, int *n, int max)
{
    mg_gen *g = calloc(1, sizeof *g);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_EQUAL_FATAL(ops_prepare(line, 16, g), 0);
    static mg_rec r;
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    int warps = 0;
    for (uint64_t i = 0; i < mg_gen_num_wgs(g); i++) {
        CU_ASSERT_EQUAL_FATAL(mg_gen_trace_wg(g, i, &wg), 0);
        for (uint32_t w = 0; w < wg.n_warps && warps < max; w++, warps++) {
            mg_trace_cursor c;
            mg_trace_cursor_init(&c, &wg, w);
            n[warps] = 0;
            while (mg_trace_cursor_next(&c, &r, NULL) == 1) n[warps]++;
        }
    }
    mg_trace_wg_free(&wg);
    mg_gen_free(g);
    free(g);
    return warps;
}

/* Two eltwise sub-kernels of 10 and 6 items (4 records a warp: address,
 * load, add, store) in warps of 16: round=none puts both in one warp,
 * which issues both bodies (8 records); round=wave gives each its own
 * warp of 4 records.  With 16 and 16 items, none and wave are the same. */
static void test_fuse_straddle(void)
{
    const char *a = "fuse a=eltwise:H=1:W=5:C=8:layout=buffer b=eltwise:H=1:W=3:C=8:"
                    "layout=buffer:scalar=2 wg=16 round=";
    char line[256];
    int n[8], warps;
    snprintf(line, sizeof line, "%snone", a);
    warps = records_per_warp(line, n, 8);
    CU_ASSERT_EQUAL(warps, 1);
    CU_ASSERT_EQUAL(n[0], 8);
    snprintf(line, sizeof line, "%swave", a);
    warps = records_per_warp(line, n, 8);
    CU_ASSERT_EQUAL(warps, 2);
    CU_ASSERT_EQUAL(n[0], 4);
    CU_ASSERT_EQUAL(n[1], 4);
    const char *b = "fuse a=eltwise:H=1:W=8:C=8:layout=buffer b=eltwise:H=2:W=4:C=8:"
                    "layout=buffer wg=16 round=";
    for (int r = 0; r < 2; r++) {
        snprintf(line, sizeof line, "%s%s", b, r ? "wave" : "none");
        warps = records_per_warp(line, n, 8);
        CU_ASSERT_EQUAL(warps, 2);
        CU_ASSERT_EQUAL(n[0], 4);
        CU_ASSERT_EQUAL(n[1], 4);
    }
}

/* When the first range is a whole number of warps (16 items), round=none
 * and round=wave lay the items out alike: the same accesses per item. */
static void test_fuse_same_as_wave(void)
{
    ops_check_reorder("fuse a=eltwise:H=1:W=8:C=8:layout=buffer b=pool:H=4:W=4:C=16:"
                      "layout=buffer wg=16 warp=16 round=none",
                      "fuse a=eltwise:H=1:W=8:C=8:layout=buffer b=pool:H=4:W=4:C=16:"
                      "layout=buffer wg=16 warp=16 round=wave", 0);
}

int add_ops_fuse_suite(void)
{
    CU_pSuite s = CU_add_suite("ops_fuse", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "convpool_flops", test_convpool_flops) ||
        !CU_add_test(s, "convpool_rejects", test_convpool_rejects) ||
        !CU_add_test(s, "fuse_flops", test_fuse_flops) ||
        !CU_add_test(s, "fuse_rejects", test_fuse_rejects) ||
        !CU_add_test(s, "fuse_straddle", test_fuse_straddle) ||
        !CU_add_test(s, "fuse_same_as_wave", test_fuse_same_as_wave) ||
        !CU_add_test(s, "fuse_more_ops", test_fuse_more_ops) ||
        !CU_add_test(s, "conv_flat_same_as_grid", test_conv_flat_same_as_grid))
        return -1;
    return 0;
}
