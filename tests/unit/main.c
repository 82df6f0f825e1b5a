/*
 * main.c - the CUnit runner: every module's suite, a summary, and exit
 * status 1 when any assertion failed.  `unit_tests SUITE` runs one suite.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/suites.h"

int main(int argc, char **argv)
{
    static int (*const adders[])(void) = {
        add_units_suite,  add_strsim_suite, add_jsonfile_suite,
        add_jsonout_suite, add_afile_suite, add_diag_suite,
        add_schema_suite, add_device_suite, add_rules_suite,
        add_gen_suite, add_model_suite, add_tracer_suite,
        add_trace_codec_suite, add_trace_file_suite, add_trace_stats_suite,
        add_trace_corpus_suite,
        add_ops_matmul_suite, add_ops_softmax_suite, add_ops_layernorm_suite,
        add_ops_micro_suite,
        add_ops_conv2d_suite,
        add_knee_suite, add_ops_probe_suite, add_profile_suite,
        add_search_suite,
        add_sweep_suite,
        add_shard_suite,
        add_stats_suite,
        add_plot_suite,
        add_sample_suite,
        add_bound_suite,
        add_analytic_suite,
        add_trace_drec_suite,
        add_cache_suite,
        add_emit_suite,
        add_calibrate_suite,
        add_vprobe_suite,
        add_cli_suite,
        add_net_suite,
        add_nettune_suite,
        add_ops_pool_suite,
        add_ops_fuse_suite,
        add_ops_net_suite,
        add_autotvm_suite,
        add_deps_suite,
    };
    if (CU_initialize_registry() != CUE_SUCCESS) return 2;
    for (size_t i = 0; i < sizeof adders / sizeof adders[0]; i++) {
        if (adders[i]()) {
            fprintf(stderr, "unit_tests: cannot register suite %zu: %s\n", i,
                    CU_get_error_msg());
            CU_cleanup_registry();
            return 2;
        }
    }
    CU_basic_set_mode(CU_BRM_NORMAL);
    if (argc > 1) {
        CU_pSuite s = CU_get_suite(argv[1]);
        if (!s) {
            fprintf(stderr, "unit_tests: no suite named '%s'\n", argv[1]);
            CU_cleanup_registry();
            return 2;
        }
        CU_basic_run_suite(s);
    } else {
        CU_basic_run_tests();
    }
    unsigned failed = CU_get_number_of_failures();
    unsigned tests_failed = CU_get_number_of_tests_failed();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    printf("unit: %u passed, %u failed\n", run - tests_failed, tests_failed);
    return failed ? 1 : 0;
}
