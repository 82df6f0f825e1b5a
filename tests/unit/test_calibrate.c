/*
 * test_calibrate.c - `mgsim calibrate` on the committed H100 profile:
 * values and their sources come from the profile, the base or the schema,
 * the result passes the strict schema check, and without a base the keys
 * nothing answers are placeholders reported as unknown.
 */
#include <CUnit/CUnit.h>
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
    mg_cal_opts o = {PROFILE, base ? BASE : NULL, NULL, 0.5};
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

int add_calibrate_suite(void)
{
    CU_pSuite s = CU_add_suite("calibrate", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "H100 profile on the H100 base: sources and strict", test_with_base) ||
        !CU_add_test(s, "no base: placeholders reported unknown", test_without_base))
        return -1;
    return 0;
}
