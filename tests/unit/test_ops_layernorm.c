/* test_ops_layernorm.c - the layernorm operator (traces/ops/layernorm.c on
 * rowred.c): its trace's flops equal its features', patterns reorder
 * accesses without changing them, split meets two barriers, and check()
 * gives its reasons. */
#include <CUnit/CUnit.h>

#include "tests/unit/ops_util.h"
#include "tests/unit/suites.h"

/* M (6 N + S (2 (V - 1) + 2 (S - 1) + 3)) */
static double ln_flops(double M, double N, double V, double S)
{
    return M * (6 * N + S * (2 * (V - 1) + 2 * (S - 1) + 3));
}

static void test_flops(void)
{
    ops_check_trace("layernorm M=16 N=16", ln_flops(16, 16, 4, 1), 1, 0);
    ops_check_trace("layernorm M=9 N=16 tile=4x1 wg=5,1,1 pattern=column",
                    ln_flops(9, 16, 4, 1), 0, 0);
    ops_check_trace("layernorm M=8 N=64 wg=2,1,4 split=4 pattern=column tile=2x1",
                    ln_flops(8, 64, 4, 4), 1, 2);
    ops_check_trace("layernorm M=7 N=20 layout=buffer vec=1 wg=5,1,4 split=4",
                    ln_flops(7, 20, 1, 4), 0, 2);
    ops_check_trace("layernorm M=9 N=64 wg=2,1,8 split=8 layout=buffer vec=2 tile=3x1",
                    ln_flops(9, 64, 2, 8), 1, 2);
    ops_check_trace("layernorm M=12 N=48 layout=buffer vec=8 tile=4x1 wg=3,1,1 "
                    "pattern=block4", ln_flops(12, 48, 8, 1), 1, 0);
    ops_check_trace("layernorm M=8 N=32 storage=fp16 layout_in=image layout_out=buffer "
                    "split=2 wg=4,1,2", ln_flops(8, 32, 4, 2), 1, 2);
    ops_check_trace("layernorm M=16 N=32 compute=fp16", ln_flops(16, 32, 4, 1), 1, 0);
    ops_check_trace("layernorm M=12 N=24 wg=6,1,1 warp=4 layout=buffer vec=2",
                    ln_flops(12, 24, 2, 1), 1, 0);
}

static void test_patterns(void)
{
    ops_check_reorder("layernorm M=12 N=32 tile=6x1 wg=2,1,1 layout=buffer vec=2",
                      "layernorm M=12 N=32 tile=6x1 wg=2,1,1 layout=buffer vec=2 "
                      "pattern=column", 1);
    ops_check_reorder("layernorm M=12 N=32 tile=6x1 wg=2,1,1 pattern=block2",
                      "layernorm M=12 N=32 tile=6x1 wg=2,1,1 pattern=block4", 1);
    ops_check_reorder("layernorm M=8 N=64 wg=2,1,4 split=4 tile=2x1 pattern=row",
                      "layernorm M=8 N=64 wg=2,1,4 split=4 tile=2x1 pattern=block4", 1);
}

static void test_rejects(void)
{
    ops_expect_reject("layernorm vec=0", "vec=0: expected an integer in [1, 8]");
    ops_expect_reject("layernorm vec=6 layout=buffer", "layernorm: vec=6: a vector load is 1");
    ops_expect_reject("layernorm layout_out=image layout_in=buffer vec=2",
                      "vec=2 with an image: a texel holds 4 values");
    ops_expect_reject("layernorm tile=1x4", "tile=1x4: the tile is TMx1");
    ops_expect_reject("layernorm N=20 layout=buffer vec=8",
                      "N=20 must be a multiple of vector width x split = 8 x 1");
    ops_expect_reject("layernorm wg=16,4,1", "wg must be X,1,1");
    ops_expect_reject("layernorm split=2 wg=32,1,4", "split=2 needs wg=X,1,2");
    ops_expect_reject("layernorm N=256 split=4 wg=256,1,4 tile=8x1",
                      "split=4 needs 65536 bytes of local memory");
}

int add_ops_layernorm_suite(void)
{
    CU_pSuite s = CU_add_suite("ops_layernorm", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "flops", test_flops) || !CU_add_test(s, "patterns", test_patterns) ||
        !CU_add_test(s, "rejects", test_rejects))
        return -1;
    return 0;
}
