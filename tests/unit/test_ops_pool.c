/* test_ops_pool.c - the pool operator (traces/ops/pool.c): the trace's flops
 * equal the plan's (counted here by hand for small shapes), every item
 * stays within its log capacity, and bad schedules are rejected. */
#include <CUnit/CUnit.h>

#include "tests/unit/suites.h"
#include "tests/unit/ops_util.h"

static void test_flops(void)
{
    /* 4x4 input, 3x3 window, stride 1, pad 1: taps inside per output row
     * 2,3,3,2 (sum 10) along each axis: 10 x 10 x C compares */
    ops_check_trace("pool H=4 W=4 C=8 K=3 stride=1 pad=1 mode=max layout=buffer wg=16", 800, 1,
                    0);
    /* the average adds one multiply per output element: 4 x 4 x 8 */
    ops_check_trace("pool H=4 W=4 C=8 K=3 stride=1 pad=1 mode=avg layout=buffer wg=16",
                    800 + 128, 1, 0);
    /* no padding, 2x2 outputs of full 3x3 windows, images */
    ops_check_trace("pool H=5 W=5 C=4 K=3 stride=2 mode=max wg=8", 4 * 9 * 4, 1, 0);
    /* global pooling: one output of 7x7 taps per channel */
    ops_check_trace("pool H=7 W=7 C=16 K=7 stride=1 mode=avg wg=4", 16 * 49 + 16, 1, 0);
    ops_check_trace("pool H=6 W=5 C=6 K=2 stride=2 mode=max layout=buffer vec=2 wg=8",
                    -1, 1, 0);
}

static void test_rejects(void)
{
    ops_expect_reject("pool K=3 pad=3", "pad=3 must be smaller than K=3");
    ops_expect_reject("pool H=2 W=2 K=5 pad=1", "window does not fit");
    ops_expect_reject("pool C=6 layout=buffer vec=4", "C=6 is not a multiple of vec=4");
    ops_expect_reject("pool layout=image vec=2", "a texel holds 4 channels");
    ops_expect_reject("pool wg=8,2,1", "the launch is 1D");
    ops_expect_reject("pool mode=mean", "mean");
}

int add_ops_pool_suite(void)
{
    CU_pSuite s = CU_add_suite("ops_pool", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "flops", test_flops) || !CU_add_test(s, "rejects", test_rejects))
        return -1;
    return 0;
}
