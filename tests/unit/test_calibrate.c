/*
 * test_calibrate.c - `mgsim calibrate` on the committed H100 profile:
 * values and their sources come from the profile, the base or the schema,
 * the result passes the strict schema check, and without a base the keys
 * nothing answers are placeholders reported as unknown.  The plausibility
 * rules (cal_checks.c), each on the H100 profile with one figure changed:
 * an impossible one refused (the base's value kept, the rule and reason in
 * the report and the source's "check"), a plausible one passed.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/analysis/profile.h"
#include "sim/calib/calibrate.h"
#include "sim/config/device.h"
#include "sim/config/schema.h"
#include "tests/unit/suites.h"

#define PROFILE "configs/measured/h100/profile.json"
#define BASE    "configs/devices/nvidia-h100.json"

static const mg_cal_key *find(const mg_cal *c, const char *key)
{
    for (int i = 0; i < c->n_keys; i++)
        if (!strcmp(c->keys[i].key, key)) return &c->keys[i];
    return NULL;
}

/* Calibrate the H100 profile (with the base or not).  Returns 0. */
static int run(mg_cal *c, const mg_device *base)
{
    mg_diag d;
    mg_diag_init(&d);
    cJSON *prof = mg_profile_load(PROFILE, &d);
    mg_cal_opts o = {PROFILE, base ? BASE : NULL, NULL, 0.5, 0};
    int rc = prof ? mg_calibrate(prof, base, &o, c, &d) : -1;
    mg_diag_free(&d);
    cJSON_Delete(prof);
    return rc;
}

static void test_with_base(void)
{
    mg_device base;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_FATAL(mg_device_load(BASE, 1, &base, &d) == 0);
    mg_cal c;
    CU_ASSERT_FATAL(run(&c, &base) == 0);
    /* measured values with the profile as their source */
    const mg_cal_key *k = find(&c, "core.warp_width");
    CU_ASSERT(k && k->origin == MG_CAL_PROFILE && strstr(k->ref, "warp.warp_size"));
    CU_ASSERT(c.dev.warp_width == 32);
    k = find(&c, "registers.model");
    CU_ASSERT(k && k->origin == MG_CAL_PROFILE);
    CU_ASSERT(c.dev.sp_count == 132);
    CU_ASSERT(c.dev.buffer_path == MG_BUF_VIA_L1);      /* three buffer levels measured */
    /* the measured fp32 peak is kept: lanes x rate x cores x clock */
    double gf = mg_device_peak_flops(&c.dev, 0) / 1e9;
    CU_ASSERT(gf > 65560 * 0.999 && gf < 65560 * 1.001);
    /* what the probe does not measure comes from the base, with its source */
    size_t row;
    CU_ASSERT_FATAL(mg_schema_find("core.max_warps_per_sp", &row) != NULL);
    k = find(&c, "core.max_warps_per_sp");
    CU_ASSERT(k && k->origin == MG_CAL_BASE && !strcmp(k->ref, base.src[row].ref));
    CU_ASSERT(c.dev.max_warps_per_sp == base.max_warps_per_sp);
    /* the profile has no fp16 (no cl_khr_fp16): the base's rate stays */
    k = find(&c, "core.fp16_flops_per_alu_cycle");
    CU_ASSERT(k && k->origin == MG_CAL_BASE);
    /* nothing unknown with a base; the document passes --strict again */
    for (int i = 0; i < c.n_keys; i++) CU_ASSERT(c.keys[i].origin != MG_CAL_UNKNOWN);
    mg_device again;
    CU_ASSERT(mg_device_from_json(c.config, "calibrated", 1, &again, &d) == 0);
    cJSON *rep = mg_cal_report_json(&c);
    CU_ASSERT(cJSON_GetObjectItemCaseSensitive(rep, "keys") != NULL);
    cJSON_Delete(rep);
    mg_cal_free(&c);
    mg_diag_free(&d);
}

static void test_without_base(void)
{
    mg_cal c;
    CU_ASSERT_FATAL(run(&c, NULL) == 0);
    const mg_cal_key *k = find(&c, "core.max_warps_per_sp");
    CU_ASSERT(k && k->origin == MG_CAL_UNKNOWN && !strncmp(k->ref, "placeholder", 11));
    k = find(&c, "core.warp_width");
    CU_ASSERT(k && k->origin == MG_CAL_PROFILE);
    int unknown = 0;
    for (int i = 0; i < c.n_keys; i++) unknown += c.keys[i].origin == MG_CAL_UNKNOWN;
    CU_ASSERT(unknown > 0);
    mg_device again;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT(mg_device_from_json(c.config, "calibrated", 1, &again, &d) == 0);
    mg_diag_free(&d);
    mg_cal_free(&c);
}

/* ---- the plausibility rules ------------------------------------------------ */

/* One change to the profile: $.aspects.ASPECT.conclusion.KEY (or, for
 * aspect "device", $.device.KEY) := value, and its confidence when conf >= 0. */
typedef struct edit { const char *aspect, *key; double value, conf; } edit;

/* One rule case: up to three edits, the key judged, the verdict and rule
 * expected (rule NULL: passed), and the value the config must end with
 * (NULL: not checked). */
typedef struct rule_case {
    edit        e[3];
    int         strict;
    const char *key;
    int         verdict;
    const char *rule, *value;
} rule_case;

static void apply(cJSON *prof, const edit *e)
{
    cJSON *k;
    if (!strcmp(e->aspect, "device")) {
        cJSON *dev = cJSON_GetObjectItemCaseSensitive(prof, "device");
        cJSON_DeleteItemFromObjectCaseSensitive(dev, e->key);
        cJSON_AddNumberToObject(dev, e->key, e->value);
        return;
    }
    cJSON *as = cJSON_GetObjectItemCaseSensitive(prof, "aspects");
    cJSON *a = cJSON_GetObjectItemCaseSensitive(as, e->aspect);
    if (!a) {                             /* an aspect the profile did not measure */
        a = cJSON_AddObjectToObject(as, e->aspect);
        cJSON_AddStringToObject(a, "status", "ok");
        cJSON_AddObjectToObject(a, "conclusion");
    }
    cJSON *con = cJSON_GetObjectItemCaseSensitive(a, "conclusion");
    CU_ASSERT_FATAL(con != NULL);
    k = cJSON_GetObjectItemCaseSensitive(con, e->key);
    if (!k) k = cJSON_AddObjectToObject(con, e->key);
    cJSON_DeleteItemFromObjectCaseSensitive(k, "value");
    cJSON_AddNumberToObject(k, "value", e->value);
    if (e->conf >= 0) {
        cJSON_DeleteItemFromObjectCaseSensitive(k, "confidence");
        cJSON_AddNumberToObject(k, "confidence", e->conf);
    }
}

#define MIB (1024.0 * 1024.0)
static const rule_case rule_cases[] = {
    /* bandwidths: the per-core ceiling 2 x 132 x 1.98 GHz x 32 x 4 B = 66.9 TB/s */
    {{{"bw_image", "peak_gbps", 78400, -1}}, 0, "tex_l1.bandwidth", MG_CAL_REFUSED,
     "bw-ceiling", "8.36TB/s"},
    {{{"bw_image", "peak_gbps", 8015, -1}}, 0, "tex_l1.bandwidth", MG_CAL_PASSED, NULL,
     "8.015TB/s"},
    {{{"bw_buffer", "peak_gbps", 40000, -1}}, 0, "buffer_l1.bandwidth", MG_CAL_FLAGGED,
     "bw-width", "40TB/s"},
    {{{"dram", "dram_gbps", 4000, -1}}, 0, "dram.bandwidth", MG_CAL_REFUSED, "bw-vendor",
     "3.35TB/s"},
    {{{"dram", "dram_gbps", 3000, -1}}, 0, "dram.bandwidth", MG_CAL_PASSED, NULL, "3TB/s"},
    /* one buffer level: buffers read the L2, bw_buffer is its bandwidth */
    {{{"cache_buffer", "levels", 1, -1}, {"bw_buffer", "peak_gbps", 2000, -1}}, 0,
     "l2.bandwidth", MG_CAL_REFUSED, "l2-below-dram", "7TB/s"},
    {{{"cache_buffer", "levels", 1, -1}, {"bw_buffer", "peak_gbps", 5000, -1}}, 0,
     "l2.bandwidth", MG_CAL_PASSED, NULL, "5TB/s"},
    {{{"cache_buffer", "levels", 1, -1}, {"bw_buffer", "peak_gbps", 9000, -1},
      {"bw_image", "peak_gbps", 3000, -1}}, 0, "tex_l1.bandwidth", MG_CAL_FLAGGED,
     "l1-below-l2", "3TB/s"},
    {{{"bw_local", "peak_gbps", 8247, -1}}, 0, "local.bandwidth", MG_CAL_FLAGGED,
     "local-narrow", NULL},
    {{{"bw_local", "peak_gbps", 30000, -1}}, 0, "local.bandwidth", MG_CAL_PASSED, NULL, "30TB/s"},
    {{{"bw_constant", "peak_gbps", 31743, -1}}, 0, "constant.bandwidth", MG_CAL_FLAGGED,
     "constant-is-l1", NULL},
    {{{"bw_constant", "peak_gbps", 7000, -1}}, 0, "constant.bandwidth", MG_CAL_PASSED, NULL,
     "7TB/s"},
    /* latencies: L1 < L2 < DRAM in the chase */
    {{{"cache_buffer", "l3_latency_ns", 15, -1}}, 0, "l2.latency_cycles", MG_CAL_REFUSED,
     "latency-order", "121"},
    {{{"cache_buffer", "memory_latency_ns", 100, -1}}, 0, "dram.latency", MG_CAL_REFUSED,
     "latency-order", "58ns"},
    {{{"cache_buffer", "memory_latency_ns", 300, -1}}, 0, "dram.latency", MG_CAL_PASSED, NULL,
     NULL},
    /* sizes */
    {{{"cache_image", "l1_size", 40, -1}}, 0, "tex_l1.size", MG_CAL_REFUSED, "size-sets",
     "256KiB"},
    {{{"cache_image", "l1_size", 64 * MIB, -1}}, 0, "tex_l1.size", MG_CAL_REFUSED,
     "l1-within-l2", "256KiB"},
    {{{"cache_buffer", "l3_size", 26 * MIB, -1}}, 0, "l2.size", MG_CAL_FLAGGED, "size-vendor",
     "26MiB"},
    {{{"cache_buffer", "l3_size", 50 * MIB, -1}}, 0, "l2.size", MG_CAL_PASSED, NULL, "50MiB"},
    /* lines: a texture line longer than the L2's; the buffer chase's sector */
    {{{"cache_image", "line_width_bytes", 256, 0.95}, {"cache_image", "line_height_rows", 1, 0.95}},
     0, "tex_l1.line", MG_CAL_REFUSED, "line-divides", "32B"},
    {{{"cache_image", "line_width_bytes", 64, 0.95}, {"cache_image", "line_height_rows", 2, 0.95}},
     0, "tex_l1.line", MG_CAL_PASSED, NULL, "128B"},
    {{{"cache_buffer", "line_size", 32, 0.79}}, 0, "buffer_l1.line", MG_CAL_REFUSED,
     "line-sector", "128B"},
    {{{"cache_buffer", "line_size", 32, 0.95}, {"device", "global_mem_cacheline_size", 32, -1}},
     0, "buffer_l1.line", MG_CAL_PASSED, NULL, "32B"},
    {{{"cache_buffer", "line_size", 128, 0.79}}, 0, "buffer_l1.line", MG_CAL_PASSED, NULL,
     "128B"},
    /* lanes */
    {{{"alu", "alu_lanes_per_cu_by_flops", 125, -1}}, 0, "core.alus_per_sp", MG_CAL_FLAGGED,
     "lanes-warp", "125"},
    {{{"alu", "alu_lanes_per_cu_by_flops", 128, -1}}, 0, "core.alus_per_sp", MG_CAL_PASSED, NULL,
     "128"},
    /* the widest load: a power of two of 2 to 64 bytes */
    {{{"vload", "max_load_bytes", 12, -1}}, 0, "buffer.max_load_bytes", MG_CAL_REFUSED,
     "load-width", "4"},
    {{{"vload", "max_load_bytes", 8, -1}}, 0, "buffer.max_load_bytes", MG_CAL_PASSED, NULL, "8"},
    /* --strict refuses what is flagged */
    {{{"bw_local", "peak_gbps", 8247, -1}}, 1, "local.bandwidth", MG_CAL_REFUSED,
     "local-narrow", "33TB/s"},
};

/* The source's "check" in the config document for key ("" when none). */
static const char *check_of(const cJSON *cfg, const char *key)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cfg, "sources"), key),
        "check");
    return cJSON_IsString(s) ? s->valuestring : "";
}

static void test_rules(void)
{
    mg_device base;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_FATAL(mg_device_load(BASE, 1, &base, &d) == 0);
    for (size_t i = 0; i < sizeof rule_cases / sizeof rule_cases[0]; i++) {
        const rule_case *rc = &rule_cases[i];
        cJSON *prof = mg_profile_load(PROFILE, &d);
        CU_ASSERT_FATAL(prof != NULL);
        for (int j = 0; j < 3 && rc->e[j].aspect; j++) apply(prof, &rc->e[j]);
        mg_cal_opts o = {PROFILE, BASE, NULL, 0.5, rc->strict};
        mg_cal c;
        int rcode = mg_calibrate(prof, &base, &o, &c, &d);
        CU_ASSERT_FATAL(rcode == 0);
        const mg_cal_key *k = find(&c, rc->key);
        CU_ASSERT_FATAL(k != NULL);
        int good = k->verdict == rc->verdict &&
                   (rc->rule ? !strcmp(k->rule, rc->rule) && k->why[0] : !k->rule[0]) &&
                   (!rc->value || !strcmp(k->value, rc->value));
        if (!good)
            fprintf(stderr, "\n  case %zu: %s = %s: %s by %s (%s), expected %s by %s (%s)", i,
                    rc->key, k->value, mg_cal_verdict_name(k->verdict), k->rule, k->why,
                    mg_cal_verdict_name(rc->verdict), rc->rule ? rc->rule : "-",
                    rc->value ? rc->value : "-");
        CU_ASSERT(good);
        /* a refused value is the base's, its source says so; a flagged one too */
        const char *chk = check_of(c.config, rc->key);
        if (rc->verdict == MG_CAL_REFUSED)
            CU_ASSERT(k->origin == MG_CAL_BASE && !strncmp(chk, "refused by ", 11) &&
                      strstr(chk, rc->rule));
        if (rc->verdict == MG_CAL_FLAGGED)
            CU_ASSERT(k->origin == MG_CAL_PROFILE && !strncmp(chk, "flagged by ", 11));
        if (rc->verdict == MG_CAL_PASSED) CU_ASSERT(k->origin == MG_CAL_PROFILE && !chk[0]);
        /* the texture shape goes with its line */
        if (!strcmp(rc->key, "tex_l1.line") && rc->verdict == MG_CAL_REFUSED)
            CU_ASSERT(c.dev.tile_w_texels == base.tile_w_texels &&
                      c.dev.tile_h_texels == base.tile_h_texels);
        /* the result loads again, checks and all */
        mg_device again;
        CU_ASSERT(mg_device_from_json(c.config, "calibrated", 1, &again, &d) == 0);
        mg_cal_free(&c);
        cJSON_Delete(prof);
    }
    if (mg_diag_failed(&d)) fprintf(stderr, "\n  %s", mg_diag_first(&d));
    mg_diag_free(&d);
}

/* The report names every verdict: text lines and JSON entries. */
static void test_report_checks(void)
{
    mg_device base;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_FATAL(mg_device_load(BASE, 1, &base, &d) == 0);
    mg_cal c;
    CU_ASSERT_FATAL(run(&c, &base) == 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_FATAL(f != NULL);
    mg_cal_report_text(f, &c);
    fclose(f);
    CU_ASSERT(strstr(buf, "refused: buffer_l1.line = 32B (line-sector): ") != NULL);
    CU_ASSERT(strstr(buf, "kept 128B (base)") != NULL);
    CU_ASSERT(strstr(buf, "flagged: local.bandwidth = 8.2471TB/s (local-narrow): ") != NULL);
    cJSON *j = mg_cal_report_json(&c);
    const cJSON *e, *checks = cJSON_GetObjectItemCaseSensitive(j, "checks");
    int refused = 0, flagged = 0;
    cJSON_ArrayForEach(e, checks) {
        const char *v = cJSON_GetObjectItemCaseSensitive(e, "verdict")->valuestring;
        refused += !strcmp(v, "refused");
        flagged += !strcmp(v, "flagged");
        CU_ASSERT(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "why")));
    }
    CU_ASSERT(refused == 1 && flagged >= 1);
    cJSON_Delete(j);
    free(buf);
    mg_cal_free(&c);
    mg_diag_free(&d);
}

int add_calibrate_suite(void)
{
    CU_pSuite s = CU_add_suite("calibrate", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "H100 profile on the H100 base: sources and strict", test_with_base) ||
        !CU_add_test(s, "no base: placeholders reported unknown", test_without_base) ||
        !CU_add_test(s, "plausibility rules: refused, flagged, passed", test_rules) ||
        !CU_add_test(s, "the report lists the verdicts", test_report_checks))
        return -1;
    return 0;
}
