/* test_ops_matmul.c - the matmul operator (traces/ops/matmul.c): its
 * trace's flops equal its features', patterns reorder accesses without
 * changing them, split meets one barrier, check() gives its reasons, and
 * the register estimate follows the held values. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/ops_util.h"
#include "tests/unit/suites.h"

static void test_flops(void)
{
    /* 2 M N K, plus (split - 1) M N adds of partial sums */
    ops_check_trace("matmul M=16 N=16 K=16", 2.0 * 16 * 16 * 16, 1, 0);
    ops_check_trace("matmul M=13 N=20 K=24 tile=3x8 wg=3,2,1", 2.0 * 13 * 20 * 24, 0, 0);
    ops_check_trace("matmul M=9 N=10 K=6 layout=buffer vec=1 tile=2x3 wg=3,2,1 pattern=column",
                    2.0 * 9 * 10 * 6, 0, 0);
    ops_check_trace("matmul M=1 N=64 K=64 tile=1x4 wg=16,1,4 split=4",
                    2.0 * 64 * 64 + 3.0 * 64, 1, 1);
    ops_check_trace("matmul M=8 N=32 K=64 tile=4x8 wg=2,2,4 split=4 unroll=2 layout=buffer "
                    "vec=4 pattern=block2", 2.0 * 8 * 32 * 64 + 3.0 * 8 * 32, 1, 1);
    ops_check_trace("matmul M=7 N=20 K=48 tile=3x8 wg=2,2,3 split=3 layout_in=buffer "
                    "layout_out=buffer pattern=column", 2.0 * 7 * 20 * 48 + 2.0 * 7 * 20, 0, 1);
    ops_check_trace("matmul M=8 N=16 K=32 layout=buffer vec=4 compute=fp16 split=2 wg=2,2,2",
                    2.0 * 8 * 16 * 32 + 8.0 * 16, 1, 1);
    ops_check_trace("matmul M=16 N=16 K=64 tile=4x4 wg=4,4,1 unroll=4 pattern=block2 warp=16",
                    2.0 * 16 * 16 * 64, 1, 0);
    ops_check_trace("matmul M=12 N=32 K=64 layout=buffer vec=8 tile=2x16 unroll=2 wg=2,3,1 "
                    "storage=fp16", 2.0 * 12 * 32 * 64, 1, 0);
}

static void test_patterns(void)
{
    const char *base = "matmul M=8 N=32 K=32 tile=4x8 unroll=2 wg=4,2,1 layout_in=buffer";
    char a[256], b[256];
    static const char *const pats[] = {"column", "block2", "block4", "block8"};
    for (int i = 0; i < 4; i++) {
        snprintf(a, sizeof a, "%s pattern=row", base);
        snprintf(b, sizeof b, "%s pattern=%s", base, pats[i]);
        ops_check_reorder(a, b, 1);
    }
    /* one texel of A and one of B per step: every pattern is the same walk */
    ops_check_reorder("matmul M=16 N=16 K=16 tile=1x4 pattern=row",
                      "matmul M=16 N=16 K=16 tile=1x4 pattern=block4", 0);
}

static void test_rejects(void)
{
    ops_expect_reject("matmul vec=3", "vec=3: a vector load is 1, 2, 4 or 8 wide");
    ops_expect_reject("matmul vec=2", "vec=2 with an image: a texel holds 4 values");
    ops_expect_reject("matmul tile=4x6", "the column tile 6 must be a multiple of the vector "
                      "width 4");
    ops_expect_reject("matmul N=18 layout=buffer vec=4 tile=1x4",
                      "N=18 is not a multiple of the vector width 4");
    ops_expect_reject("matmul K=40 split=4 wg=16,4,4",
                      "K=40 must be a multiple of split x unroll x vector width = 4 x 1 x 4");
    ops_expect_reject("matmul K=16 unroll=8", "K=16 must be a multiple of split x unroll");
    ops_expect_reject("matmul split=2", "split=2 needs wg=X,Y,2");
    ops_expect_reject("matmul wg=16,4,2", "split=1 needs wg=X,Y,1");
    ops_expect_reject("matmul wg=64,32,1", "a work group of 2048 items is more than 1024");
    ops_expect_reject("matmul split=8 wg=64,2,8 K=64",
                      "split=8 needs 57344 bytes of local memory");
    ops_expect_reject("matmul tile=32x32 unroll=4 K=256",
                      "keeps 2048 values live per item (more than 1024)");
}

/* The register estimate of line (regs_per_item). */
static int64_t regs_of(const char *line)
{
    mg_schedule s;
    char err[512];
    CU_ASSERT_EQUAL_FATAL(ops_parse(line, &s, err, sizeof err), 0);
    mg_gen g;
    memset(&g, 0, sizeof g);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_gen_plan(&g, &s, &d), 0);
    mg_diag_free(&d);
    int64_t r = g.k.f.regs_per_item;
    mg_gen_free(&g);
    return r;
}

/* The estimate against counts derived by hand from the emitted kernels
 * (matmul.c, held_values()): the accumulators, the step's A and B values,
 * A and B (4 each) and the item's 9. */
static void test_registers(void)
{
    const char *fc = "matmul M=1 N=64 K=64 tile=1x4 wg=16,1,1 vec=4 layout_out=buffer";
    char line[256];
    /* fc, unroll 2: A 2 vectors (8); buffer B, 32 values a step, streamed
     * a row (4) at a time */
    snprintf(line, sizeof line, "%s layout_in=buffer layout_w=buffer unroll=2", fc);
    CU_ASSERT_EQUAL(regs_of(line), 4 + 8 + 4 + 8 + 9);
    snprintf(line, sizeof line, "%s layout_in=image layout_w=buffer unroll=2", fc);
    CU_ASSERT_EQUAL(regs_of(line), 4 + 8 + 4 + 8 + 9);
    /* unroll 4: 64 B values a step, held; image B: one texture batch, held */
    snprintf(line, sizeof line, "%s layout_in=buffer layout_w=buffer unroll=4", fc);
    CU_ASSERT_EQUAL(regs_of(line), 4 + 16 + 64 + 8 + 9);
    snprintf(line, sizeof line, "%s layout_in=buffer layout_w=image unroll=2", fc);
    CU_ASSERT_EQUAL(regs_of(line), 4 + 8 + 32 + 8 + 9);
    /* two rows: every B vector feeds both, the step held (8 + 8 + 16) */
    CU_ASSERT_EQUAL(regs_of("matmul M=16 N=64 K=64 layout=buffer vec=4 tile=2x4 wg=16,1,1"),
                    8 + 8 + 16 + 8 + 9);
}

int add_ops_matmul_suite(void)
{
    CU_pSuite s = CU_add_suite("ops_matmul", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "flops", test_flops) || !CU_add_test(s, "patterns", test_patterns) ||
        !CU_add_test(s, "rejects", test_rejects) ||
        !CU_add_test(s, "registers", test_registers))
        return -1;
    return 0;
}
