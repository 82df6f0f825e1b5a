/* test_ops_net.c - the network operators of the generator: add, act and
 * concat (traces/ops/add.c, act.c, concat.c on ewise.c) and conv2d's
 * bias/activation epilogue: trace flops equal hand counts and the plan's,
 * every item stays within its log capacity, the epilogue keys stay out of
 * the canonical text at their defaults, and bad schedules are rejected. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "tests/unit/ops_util.h"
#include "tests/unit/suites.h"
#include "traces/gen/schedule.h"

static void test_flops(void)
{
    /* add: one add per element, relu one more, relu6 two more */
    ops_check_trace("add H=4 W=4 C=8 layout=buffer wg=16", 128, 1, 0);
    ops_check_trace("add H=4 W=4 C=8 act=relu wg=16", 256, 1, 0);
    ops_check_trace("add H=5 W=3 C=6 act=relu6 layout=buffer vec=2 wg=8", 90 * 3, 1, 0);
    /* act: the activation's flops alone */
    ops_check_trace("act H=4 W=4 C=8 wg=16", 128, 1, 0);
    ops_check_trace("act H=4 W=4 C=8 act=relu6 layout=buffer vec=8 wg=8", 256, 1, 0);
    /* concat: no flops, one load and one store per item */
    ops_check_trace("concat H=4 W=4 C=8,16,4 wg=16", 0, 1, 0);
    ops_check_trace("concat H=3 W=5 C=2,6,4,2 layout=buffer vec=2 wg=8 warp=16", 0, 1, 0);
    /* conv2d epilogue: + Ho Wo Cout (bias + act) over the conv's 2 Ho Wo Cout Cin */
    ops_check_trace("conv2d H=4 W=4 Cin=8 Cout=8 K=1 bias=1 act=relu", 2048 + 256, 0, 0);
    ops_check_trace("conv2d H=4 W=4 Cin=8 Cout=8 K=1 act=relu6 layout=buffer vec=4",
                    2048 + 256, 0, 0);
    ops_check_trace("conv2d H=6 W=6 Cin=8 Cout=8 K=3 stride=2 tile=2x4 split=2 wg=2,2,2 "
                    "bias=1 layout=buffer vec=4", -1, 0, 1);
}

/* The epilogue keys print only when set; parsing the text gives it back. */
static void test_canonical(void)
{
    mg_schedule s;
    char err[256], buf[1024];
    CU_ASSERT_FATAL(ops_parse("conv2d H=8 W=8 Cin=8 Cout=8", &s, err, sizeof err) == 0);
    mg_schedule_format(&s, buf, sizeof buf);
    CU_ASSERT_PTR_NULL(strstr(buf, "bias="));
    CU_ASSERT_PTR_NULL(strstr(buf, "act="));
    CU_ASSERT_FATAL(ops_parse("conv2d H=8 W=8 Cin=8 Cout=8 bias=1 act=relu6", &s, err,
                              sizeof err) == 0);
    mg_schedule_format(&s, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, " bias=1 act=relu6 "));
    mg_schedule t;
    CU_ASSERT_FATAL(ops_parse(buf, &t, err, sizeof err) == 0);
    CU_ASSERT(t.bias == 1 && t.act == s.act);
    CU_ASSERT_FATAL(ops_parse("concat C=8,4,12", &s, err, sizeof err) == 0);
    mg_schedule_format(&s, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, " C=8,4,12 "));
}

static void test_rejects(void)
{
    ops_expect_reject("add C=6 layout=buffer vec=4", "C=6 is not a multiple of vec=4");
    ops_expect_reject("add layout=image vec=2", "a texel holds 4 channels");
    ops_expect_reject("add wg=8,2,1", "the launch is 1D");
    ops_expect_reject("add act=gelu", "gelu");
    ops_expect_reject("act act=sigmoid", "sigmoid");
    ops_expect_reject("concat C=8", "concat joins 2 to 7 inputs");
    ops_expect_reject("concat C=4,4,4,4,4,4,4,4", "concat joins 2 to 7 inputs");
    ops_expect_reject("concat C=8,6 layout=buffer vec=4", "input 1's C=6 is not a multiple");
    ops_expect_reject("concat C=8,8 layout=image vec=8", "a texel holds 4 channels");
    ops_expect_reject("conv2d bias=2", "bias");
    ops_expect_reject("conv2d act=tanh", "tanh");
}

int add_ops_net_suite(void)
{
    CU_pSuite s = CU_add_suite("ops_net", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "flops", test_flops) || !CU_add_test(s, "canonical", test_canonical) ||
        !CU_add_test(s, "rejects", test_rejects))
        return -1;
    return 0;
}
