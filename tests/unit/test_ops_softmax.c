/* test_ops_softmax.c - the softmax operator (traces/ops/softmax.c on
 * rowred.c): its trace's flops equal its features', patterns reorder
 * accesses without changing them, split meets two barriers, and check()
 * gives its reasons. */
#include <CUnit/CUnit.h>

#include "tests/unit/ops_util.h"
#include "tests/unit/suites.h"

/* M (5 N + 2 S (V - 1) + 2 S (S - 1)) */
static double sm_flops(double M, double N, double V, double S)
{
    return M * (5 * N + 2 * S * (V - 1) + 2 * S * (S - 1));
}

static void test_flops(void)
{
    ops_check_trace("softmax M=16 N=16", sm_flops(16, 16, 4, 1), 1, 0);
    ops_check_trace("softmax M=16 N=32 tile=2x1 wg=8,1,1", sm_flops(16, 32, 4, 1), 1, 0);
    ops_check_trace("softmax M=13 N=32 tile=3x1 wg=2,1,1 pattern=block2",
                    sm_flops(13, 32, 4, 1), 0, 0);
    ops_check_trace("softmax M=8 N=64 wg=4,1,2 split=2", sm_flops(8, 64, 4, 2), 1, 2);
    ops_check_trace("softmax M=5 N=24 layout=buffer vec=2 tile=3x1 wg=4,1,3 split=3 "
                    "pattern=block2", sm_flops(5, 24, 2, 3), 0, 2);
    ops_check_trace("softmax M=7 N=20 layout=buffer vec=1 wg=5,1,4 split=4",
                    sm_flops(7, 20, 1, 4), 0, 2);
    ops_check_trace("softmax M=9 N=64 wg=2,1,8 split=8 layout=buffer vec=2 tile=3x1",
                    sm_flops(9, 64, 2, 8), 1, 2);
    ops_check_trace("softmax M=12 N=48 layout=buffer vec=8 tile=4x1 wg=3,1,1 storage=fp16",
                    sm_flops(12, 48, 8, 1), 1, 0);
    ops_check_trace("softmax M=8 N=32 compute=fp16 split=2 wg=4,1,2 layout=buffer vec=4",
                    sm_flops(8, 32, 4, 2), 1, 2);
    ops_check_trace("softmax M=32 N=16 wg=16,1,2 split=2 warp=8 tile=2x1",
                    sm_flops(32, 16, 4, 2), 1, 2);
}

static void test_patterns(void)
{
    const char *base = "softmax M=16 N=64 tile=8x1 wg=2,1,1";
    char a[256], b[256];
    static const char *const pats[] = {"column", "block2", "block4"};
    for (int i = 0; i < 3; i++) {
        snprintf(a, sizeof a, "%s pattern=row", base);
        snprintf(b, sizeof b, "%s pattern=%s", base, pats[i]);
        ops_check_reorder(a, b, 1);
    }
    /* block8 over 8 rows is column; one row per item: every pattern is row */
    ops_check_reorder("softmax M=16 N=64 tile=8x1 wg=2,1,1 pattern=column",
                      "softmax M=16 N=64 tile=8x1 wg=2,1,1 pattern=block8", 0);
    ops_check_reorder("softmax M=16 N=64 pattern=row", "softmax M=16 N=64 pattern=column", 0);
}

static void test_rejects(void)
{
    ops_expect_reject("softmax vec=5", "softmax: vec=5: a vector load is 1, 2, 4 or 8 wide");
    ops_expect_reject("softmax vec=8", "vec=8 with an image: a texel holds 4 values");
    ops_expect_reject("softmax tile=2x2", "tile=2x2: the tile is TMx1");
    ops_expect_reject("softmax N=30", "N=30 must be a multiple of vector width x split = 4 x 1");
    ops_expect_reject("softmax N=32 split=16 wg=4,1,16",
                      "N=32 must be a multiple of vector width x split = 4 x 16");
    ops_expect_reject("softmax wg=8,2,1", "the launch is rows x 1 x split: wg must be X,1,1");
    ops_expect_reject("softmax split=4", "split=4 needs wg=X,1,4");
    ops_expect_reject("softmax wg=64,1,2", "split=1 needs wg=X,1,1");
    ops_expect_reject("softmax wg=512,1,4 split=4", "a work group of 2048 items");
    ops_expect_reject("softmax N=256 split=4 wg=256,1,4 tile=8x1",
                      "split=4 needs 65536 bytes of local memory");
}

int add_ops_softmax_suite(void)
{
    CU_pSuite s = CU_add_suite("ops_softmax", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "flops", test_flops) || !CU_add_test(s, "patterns", test_patterns) ||
        !CU_add_test(s, "rejects", test_rejects))
        return -1;
    return 0;
}
