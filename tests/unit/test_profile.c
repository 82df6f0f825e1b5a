/* test_profile.c - the profile, curve, suite and timings schemas
 * (sim/analysis/profile.c, suite.c): valid documents pass, each kind of
 * mistake is reported at its JSON path, and the reader returns concluded
 * numbers only for usable aspects. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "sim/analysis/profile.h"
#include "sim/analysis/suite.h"
#include "base/jsonfile.h"
#include "tests/unit/suites.h"

static const char *good_profile =
    "{\"schema\": \"mgsim-profile/1\", \"tool\": \"mgprobe 0.1.0\","
    " \"device\": {\"name\": \"dev\", \"driver_version\": \"1.0\", \"compute_units\": 2,"
    "   \"max_work_item_sizes\": [4, 4, 4], \"image_support\": true},"
    " \"started\": \"2026-01-01T00:00:00Z\", \"settings\": {\"reps\": 5},"
    " \"aspects\": {"
    "  \"warp\": {\"status\": \"ok\", \"confidence\": 0.9, \"seconds\": 1.5,"
    "    \"curve\": \"p.curves/warp.json\", \"notes\": [\"a note\"],"
    "    \"conclusion\": {\"warp_size\": {\"value\": 32, \"unit\": \"items\","
    "       \"confidence\": 0.9, \"method\": \"tickets\"},"
    "     \"warp_size_by_timing\": {\"value\": null, \"confidence\": null, \"why\": \"flat\"}}},"
    "  \"cache_image\": {\"status\": \"skipped\", \"confidence\": null,"
    "    \"error\": \"no image support\"},"
    "  \"regs\": {\"status\": \"interrupted\", \"error\": \"interrupted\","
    "    \"conclusion\": {\"max_regs_per_item\": {\"value\": 64, \"confidence\": 0.2}}}}}";

/* Parse text, validate it with fn; return the error count and the first
 * message in first. */
static size_t check(const char *text, int (*fn)(const cJSON *, const char *, mg_diag *),
                    char *first, size_t len)
{
    mg_diag d;
    mg_diag_init(&d);
    cJSON *j = mg_json_parse("t.json", text, strlen(text), &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    fn(j, "t.json", &d);
    size_t n = d.n;
    snprintf(first, len, "%s", mg_diag_first(&d));
    cJSON_Delete(j);
    mg_diag_free(&d);
    return n;
}

static void test_profile_good(void)
{
    char first[512];
    CU_ASSERT_EQUAL(check(good_profile, mg_profile_validate, first, sizeof first), 0);
    mg_diag d;
    mg_diag_init(&d);
    cJSON *j = mg_json_parse("t.json", good_profile, strlen(good_profile), &d);
    double v, c;
    CU_ASSERT_EQUAL(mg_profile_number(j, "warp", "warp_size", &v, &c), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 32, 0);
    CU_ASSERT_DOUBLE_EQUAL(c, 0.9, 1e-12);
    CU_ASSERT_EQUAL(mg_profile_number(j, "warp", "warp_size_by_timing", &v, &c), -1);
    CU_ASSERT_EQUAL(mg_profile_number(j, "regs", "max_regs_per_item", &v, &c), -1);
    CU_ASSERT_EQUAL(mg_profile_number(j, "dram", "dram_gbps", &v, NULL), -1);
    cJSON_Delete(j);
    mg_diag_free(&d);
    CU_ASSERT_TRUE(mg_profile_status_final("ok"));
    CU_ASSERT_TRUE(mg_profile_status_final("skipped"));
    CU_ASSERT_FALSE(mg_profile_status_final("interrupted"));
    CU_ASSERT_FALSE(mg_profile_status_final("timeout"));
}

/* Replace the first occurrence of a in good_profile by b and expect an
 * error containing want. */
static void expect_bad(const char *a, const char *b, const char *want)
{
    char text[4096], first[512];
    const char *at = strstr(good_profile, a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good_profile), good_profile, b,
             at + strlen(a));
    size_t n = check(text, mg_profile_validate, first, sizeof first);
    CU_ASSERT_TRUE(n > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, want));
    if (!strstr(first, want)) fprintf(stderr, "\nwant '%s', got '%s'\n", want, first);
}

static void test_profile_bad(void)
{
    expect_bad("mgsim-profile/1", "mgsim-profile/2", "$.schema: expected \"mgsim-profile/1\"");
    expect_bad("\"driver_version\": \"1.0\",", "", "$.device.driver_version: missing required");
    expect_bad("\"status\": \"ok\"", "\"status\": \"done\"", "$.aspects.warp.status: expected one of");
    expect_bad("\"confidence\": 0.9, \"seconds\"", "\"confidence\": 1.5, \"seconds\"",
               "$.aspects.warp.confidence: expected a number in [0, 1] or null, got 1.5");
    expect_bad("\"why\": \"flat\"", "\"whyy\": \"flat\"",
               "$.aspects.warp.conclusion.warp_size_by_timing.why: missing required");
    expect_bad("\"error\": \"no image support\"", "\"notes\": []",
               "$.aspects.cache_image.error: missing required");
    expect_bad("\"warp\": {", "\"wrap\": {", "$.aspects.wrap: unknown aspect (did you mean \"warp\"?)");
    expect_bad("\"settings\"", "\"setings\"", "$.setings: unknown key (did you mean \"settings\"?)");
    expect_bad("\"value\": 32,", "\"value\": [32],", "expected a number, string, boolean or null");
    expect_bad("\"started\": \"2026-01-01T00:00:00Z\",", "", "$.started: missing required");
}

static void test_curve(void)
{
    char first[512];
    const char *good = "{\"schema\": \"mgsim-curve/1\", \"aspect\": \"cache_buffer\","
                       " \"series\": [{\"name\": \"r\", \"x\": \"bytes\", \"y\": \"ns\","
                       " \"points\": [{\"x\": 1024, \"y\": 2.5, \"ns_samples\": [1, 2]},"
                       " {\"x\": 2048, \"y\": null, \"status\": \"error\"}]}]}";
    CU_ASSERT_EQUAL(check(good, mg_curve_validate, first, sizeof first), 0);
    const char *bad = "{\"schema\": \"mgsim-curve/1\", \"aspect\": \"cache\","
                      " \"series\": [{\"name\": \"r\", \"x\": \"bytes\","
                      " \"points\": [{\"y\": 2.5}]}]}";
    CU_ASSERT_EQUAL(check(bad, mg_curve_validate, first, sizeof first), 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "$.aspect: unknown aspect \"cache\""));
}

static void test_suite(void)
{
    mg_diag d;
    mg_diag_init(&d);
    const char *list = "[{\"op\": \"matmul\", \"M\": 8, \"N\": 8, \"K\": 8, \"wg\": [4, 4, 1]},"
                       " {\"op\": \"conv2d\", \"tile\": \"1x4\"}]";
    cJSON *j = mg_json_parse("s.json", list, strlen(list), &d);
    mg_suite su;
    CU_ASSERT_EQUAL_FATAL(mg_suite_parse(j, "dir/s.json", &su, &d), 0);
    CU_ASSERT_EQUAL(su.n, 2);
    CU_ASSERT_STRING_EQUAL(su.name, "s");
    CU_ASSERT_EQUAL(su.s[0].wg[1], 4);
    mg_suite_free(&su);
    cJSON_Delete(j);
    const char *obj = "{\"schema\": \"mgsim-suite/1\", \"name\": \"x\", \"schedules\": ["
                      " {\"op\": \"matmul\", \"M\": 0}, {\"op\": \"nosuch\"}, {\"opp\": 1}]}";
    j = mg_json_parse("s.json", obj, strlen(obj), &d);
    CU_ASSERT_EQUAL(mg_suite_parse(j, "s.json", &su, &d), -1);
    CU_ASSERT_EQUAL(d.n, 3);                      /* every bad schedule reported */
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg[0], "s.json: $.schedules[0]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg[1], "$.schedules[1]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg[2], "$.schedules[2]"));
    CU_ASSERT_PTR_NULL(su.s);
    cJSON_Delete(j);
    mg_diag_free(&d);
    mg_diag_init(&d);
    const char *empty = "{\"schedules\": []}";
    j = mg_json_parse("s.json", empty, strlen(empty), &d);
    CU_ASSERT_EQUAL(mg_suite_parse(j, "s.json", &su, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "expected 1 to"));
    cJSON_Delete(j);
    mg_diag_free(&d);
    CU_ASSERT_EQUAL(mg_suite_load("configs/suites/pocl-small.json", &su, &d), 0);
    CU_ASSERT_EQUAL(su.n, 11);
    mg_suite_free(&su);
    CU_ASSERT_EQUAL(mg_suite_load("configs/suites/h100.json", &su, &d), 0);
    CU_ASSERT_TRUE(su.n >= 300);
    mg_suite_free(&su);
}

static void test_timings(void)
{
    char first[512];
    const char *good = "{\"schema\": \"mgsim-timings/1\", \"date\": \"d\","
                       " \"device\": {\"name\": \"n\", \"driver_version\": \"v\"},"
                       " \"kernels\": [{\"schedule\": \"s\", \"status\": \"ok\","
                       "  \"ns\": {\"median\": 2, \"min\": 1, \"max\": 3, \"spread\": 1}},"
                       " {\"schedule\": \"s\", \"status\": \"wrong\", \"reason\": \"r\"}]}";
    CU_ASSERT_EQUAL(check(good, mg_timings_validate, first, sizeof first), 0);
    const char *bad = "{\"schema\": \"mgsim-timings/1\", \"date\": \"d\","
                      " \"device\": {\"name\": \"n\", \"driver_version\": \"v\"},"
                      " \"kernels\": [{\"schedule\": \"s\", \"status\": \"ok\","
                      "  \"ns\": {\"median\": 5, \"min\": 1, \"max\": 3, \"spread\": 1}},"
                      " {\"schedule\": \"s\", \"status\": \"skip\"}]}";
    CU_ASSERT_EQUAL(check(bad, mg_timings_validate, first, sizeof first), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "$.kernels[0].ns: expected min <= median <= max"));
}

int add_profile_suite(void)
{
    CU_pSuite s = CU_add_suite("profile", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "valid profile and reader", test_profile_good) ||
        !CU_add_test(s, "profile mistakes", test_profile_bad) ||
        !CU_add_test(s, "curves", test_curve) ||
        !CU_add_test(s, "suites", test_suite) ||
        !CU_add_test(s, "timings", test_timings))
        return -1;
    return 0;
}
