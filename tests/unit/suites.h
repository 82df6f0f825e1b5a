/*
 * suites.h - one CUnit suite per module; each test file defines one
 * add_*_suite() that registers its suite and returns 0 on success.
 * Tests run from the repository root (paths like configs/devices/...).
 */
#ifndef MG_TEST_SUITES_H
#define MG_TEST_SUITES_H

#include <CUnit/CUnit.h>

int add_units_suite(void);
int add_strsim_suite(void);
int add_jsonfile_suite(void);
int add_jsonout_suite(void);
int add_afile_suite(void);
int add_diag_suite(void);
int add_schema_suite(void);
int add_device_suite(void);
int add_rules_suite(void);
int add_gen_suite(void);
int add_model_suite(void);
int add_tracer_suite(void);
int add_trace_codec_suite(void);
int add_trace_file_suite(void);
int add_trace_stats_suite(void);
int add_trace_corpus_suite(void);
int add_ops_matmul_suite(void);
int add_ops_conv2d_suite(void);
int add_ops_softmax_suite(void);
int add_ops_layernorm_suite(void);
int add_ops_micro_suite(void);
int add_knee_suite(void);
int add_ops_probe_suite(void);
int add_profile_suite(void);
int add_search_suite(void);
int add_sweep_suite(void);
int add_shard_suite(void);
int add_stats_suite(void);
int add_plot_suite(void);
int add_sample_suite(void);
int add_trace_drec_suite(void);
int add_analytic_suite(void);
int add_cache_suite(void);
int add_emit_suite(void);
int add_vprobe_suite(void);
int add_calibrate_suite(void);
int add_bound_suite(void);
int add_cli_suite(void);
int add_net_suite(void);
int add_nettune_suite(void);
int add_ops_pool_suite(void);
int add_ops_fuse_suite(void);
int add_ops_net_suite(void);
int add_autotvm_suite(void);
int add_deps_suite(void);

#endif
