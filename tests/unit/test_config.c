/* test_config.c - the device-config schema table, loader and cross-field
 * rules (sim/config). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/config/device.h"
#include "sim/config/schema.h"
#include "tests/unit/suites.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"

#define A640 "configs/devices/adreno640.json"

static cJSON *load_doc(const char *path)
{
    mg_diag d;
    mg_diag_init(&d);
    cJSON *j = mg_json_load(path, &d);
    mg_diag_free(&d);
    return j;
}

/* Set dotted key (section.key) to the JSON value `val`, or delete it (and
 * its source) when val is NULL. */
static void mutate(cJSON *root, const char *key, const char *val)
{
    char sec[64];
    const char *dot = strchr(key, '.');
    cJSON *parent = root;
    const char *leaf = key;
    if (dot) {
        memcpy(sec, key, (size_t)(dot - key));
        sec[dot - key] = '\0';
        parent = cJSON_GetObjectItemCaseSensitive(root, sec);
        if (!parent) parent = cJSON_AddObjectToObject(root, sec);
        leaf = dot + 1;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(parent, leaf);
    if (val) {
        cJSON_AddItemToObject(parent, leaf, cJSON_Parse(val));
    } else {
        cJSON *src = cJSON_GetObjectItemCaseSensitive(root, "sources");
        cJSON_DeleteItemFromObjectCaseSensitive(src, key);
    }
}

/* Load adreno640 with one mutation; return 0/-1 and the first message. */
static int load_mutated(const char *key, const char *val, char *msg, size_t len)
{
    cJSON *root = load_doc(A640);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    if (key) mutate(root, key, val);
    mg_device *dev = malloc(sizeof *dev);
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_device_from_json(root, "x.json", 0, dev, &d);
    snprintf(msg, len, "%s", rc ? mg_diag_first(&d) : "");
    mg_diag_free(&d);
    free(dev);
    cJSON_Delete(root);
    return rc;
}

static void expect_error(const char *key, const char *val, const char *want)
{
    char msg[1024];
    int rc = load_mutated(key, val, msg, sizeof msg);
    CU_ASSERT_EQUAL(rc, -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
    if (rc != -1 || !strstr(msg, want))
        fprintf(stderr, "\n%s=%s: got '%s', want '%s'\n", key, val ? val : "(deleted)", msg,
                want);
}

static void expect_ok(const char *key, const char *val)
{
    char msg[1024];
    int rc = load_mutated(key, val, msg, sizeof msg);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc)
        fprintf(stderr, "\n%s=%s: unexpected '%s'\n", key ? key : "(unchanged)",
                val ? val : "(deleted)", msg);
}

/* ---- schema ------------------------------------------------------------- */

static void test_schema_integrity(void)
{
    CU_ASSERT_TRUE(mg_schema_count <= MG_MAX_FIELDS);
    CU_ASSERT_PTR_NULL(mg_schema_find("", NULL));
    CU_ASSERT_PTR_NULL(mg_schema_find("core", NULL));
    CU_ASSERT_PTR_NULL(mg_schema_find("no.such.key", NULL));
    for (size_t i = 0; i < mg_schema_count; i++) {
        const mg_field *f = &mg_schema[i];
        size_t j;
        CU_ASSERT_PTR_EQUAL(mg_schema_find(f->key, &j), f);   /* keys unique */
        CU_ASSERT_EQUAL(j, i);
        /* near misses of every key are not found (the hashed index) */
        char near[96];
        size_t kl = strlen(f->key);
        snprintf(near, sizeof near, "%sx", f->key);
        CU_ASSERT_PTR_NULL(mg_schema_find(near, NULL));
        snprintf(near, sizeof near, "%.*s", (int)(kl - 1), f->key);
        const mg_field *g = mg_schema_find(near, NULL);
        CU_ASSERT_TRUE(!g || !strcmp(g->key, near));        /* found: that key */
        snprintf(near, sizeof near, "%s", f->key);
        near[0] = (char)(near[0] ^ 0x20);                   /* case */
        CU_ASSERT_PTR_NULL(mg_schema_find(near, NULL));
        CU_ASSERT_PTR_NOT_NULL(f->help);
        CU_ASSERT_PTR_NOT_NULL(f->unit);
        if (f->type == MG_T_ENUM) CU_ASSERT_PTR_NOT_NULL(f->names);
        if (f->when) {
            /* the controlling key is an enum that comes earlier */
            char ctl[64];
            size_t n = (size_t)(strchr(f->when, '=') - f->when);
            memcpy(ctl, f->when, n);
            ctl[n] = '\0';
            size_t ci = 0;
            const mg_field *c = mg_schema_find(ctl, &ci);
            CU_ASSERT_PTR_NOT_NULL_FATAL(c);
            CU_ASSERT_EQUAL(c->type, MG_T_ENUM);
            CU_ASSERT_TRUE(ci < i);
        }
        if (f->def && f->def[0] == '=') {
            const mg_field *r = mg_schema_find(f->def + 1, NULL);
            CU_ASSERT_PTR_NOT_NULL_FATAL(r);
            CU_ASSERT_EQUAL(r->type, f->type);
        }
    }
}

/* Every documented key appears in configs/README.md. */
static void test_schema_documented(void)
{
    size_t len = 0;
    mg_diag d;
    mg_diag_init(&d);
    char *doc = mg_read_file("configs/README.md", 1 << 20, &len, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    for (size_t i = 0; i < mg_schema_count; i++) {
        const char *leaf = strrchr(mg_schema[i].key, '.');
        leaf = leaf ? leaf + 1 : mg_schema[i].key;
        char tick[80];
        snprintf(tick, sizeof tick, "`%s`", leaf);
        CU_ASSERT_PTR_NOT_NULL(strstr(doc, tick));
        if (!strstr(doc, tick)) fprintf(stderr, "\nundocumented key %s\n", mg_schema[i].key);
    }
    free(doc);
    mg_diag_free(&d);
}

/* ---- device ------------------------------------------------------------- */

static void test_load_adreno640(void)
{
    mg_device *dev = malloc(sizeof *dev);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_device_load(A640, 1, dev, &d), 0);
    CU_ASSERT_STRING_EQUAL(dev->name, "adreno640");
    CU_ASSERT_EQUAL(dev->sp_count, 2);
    CU_ASSERT_EQUAL(dev->alus_per_sp, 384);
    CU_ASSERT_EQUAL(dev->clock_hz, 585e6);
    CU_ASSERT_EQUAL(dev->reg_model, MG_REG_SHARED_POOL);
    CU_ASSERT_EQUAL(dev->pool_regs_per_sp, 384 * 183);
    CU_ASSERT_EQUAL(dev->tex_l1.size, 1024);
    CU_ASSERT_EQUAL(dev->tex_l1.line, 32);
    CU_ASSERT_EQUAL(dev->l2.size, 128 * 1024);
    CU_ASSERT_EQUAL(dev->buffer_path, MG_BUF_VIA_L2);
    CU_ASSERT_EQUAL(dev->max_items_per_sp, 16 * 64);          /* derived */
    CU_ASSERT_EQUAL(dev->const_latency_cycles, dev->l2.latency_cycles); /* =ref default */
    /* 768 lanes x 2 flops x 585 MHz; P4 wants within 3% of 898 GFLOPS */
    CU_ASSERT_DOUBLE_EQUAL(mg_device_peak_flops(dev, 0), 898.56e9, 1e3);
    CU_ASSERT_EQUAL(mg_device_tex_sets(dev), 1);
    size_t i;
    mg_schema_find("tex_l1.size", &i);
    CU_ASSERT_EQUAL(dev->set[i], 1);
    CU_ASSERT_EQUAL(dev->src[i].kind, MG_SRC_MEASURED);
    mg_schema_find("core.max_outstanding_per_warp", &i);
    CU_ASSERT_EQUAL(dev->set[i], 0);
    CU_ASSERT_FALSE(mg_diag_failed(&d));
    CU_ASSERT_EQUAL(d.nwarn, 0);
    mg_diag_free(&d);
    free(dev);
}

/* show's output is itself a valid config, resolving to the same values. */
static void test_resolved_roundtrip(void)
{
    mg_device *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL_FATAL(mg_device_load(A640, 0, a, &d), 0);
    cJSON *j = mg_device_to_json(a);
    /* resolved output sets every key; drop sources so none is "missing" */
    cJSON_DeleteItemFromObject(j, "sources");
    CU_ASSERT_EQUAL_FATAL(mg_device_from_json(j, "resolved", 0, b, &d), 0);
    cJSON *k = mg_device_to_json(b);
    cJSON_DeleteItemFromObject(k, "sources");
    CU_ASSERT_TRUE(cJSON_Compare(j, k, 1));
    CU_ASSERT_EQUAL(a->tex_l1.bandwidth, b->tex_l1.bandwidth);
    CU_ASSERT_EQUAL(a->dram_latency_s, b->dram_latency_s);
    cJSON_Delete(j);
    cJSON_Delete(k);
    mg_diag_free(&d);
    free(a);
    free(b);
}

static void test_type_errors(void)
{
    expect_error("core.sp_count", "\"2\"", "$.core.sp_count: expected an integer, got a string");
    expect_error("core.sp_count", "2.5", "$.core.sp_count: expected an integer, got 2.5");
    expect_error("core.sp_count", "0", "$.core.sp_count: expected an integer in [1, 4096], got 0");
    expect_error("core.sp_count", "-3", "in [1, 4096], got -3");
    expect_error("core.sp_count", "1e300", "in [1, 4096], got 1e+300");
    expect_error("tex_l1.size", "1024", "a bare number is ambiguous");
    expect_error("tex_l1.size", "\"1KB\"", "write KiB (1024) or kB (1000)");
    expect_error("tex_l1.size", "\"0B\"", "$.tex_l1.size: expected a value in [16B, 1TiB], got 0B");
    expect_error("tex_l1.size", "\"1000.5B\"", "whole number of bytes");
    expect_error("core.clock", "\"585\"", "$.core.clock: expected a frequency with a unit");
    expect_error("registers.model", "\"shared\"", "expected one of shared_pool, dedicated, got \"shared\"");
    expect_error("registers.model", "\"dedicatd\"", "did you mean \"dedicated\"");
    expect_error("device.name", "[]", "$.device.name: expected a string");
    expect_error("device.name", NULL, "$.device.name: missing required key");
    expect_error("core", "3", "$.core: expected an object, got a number");
    expect_error("schema", "\"mgsim-device/9\"", "$.schema: expected \"mgsim-device/1\"");
}

static void test_unknown_keys(void)
{
    expect_error("tex_l1.sizee", "\"1KiB\"", "$.tex_l1.sizee: unknown key (did you mean \"size\"?)");
    expect_error("tex_l1.warp_width", "64", "did you mean \"core.warp_width\"?");
    expect_error("coer", "{}", "$.coer: unknown key (did you mean \"core\"?)");
    expect_error("frobnicate", "{}", "$.frobnicate: unknown key; a device config has");
}

static void test_conditional_keys(void)
{
    expect_error("buffer_l1.size", "\"16KiB\"", "$.buffer_l1.size: only applies when buffer.path=l1");
    expect_error("registers.occupancy_steps", "[{\"max_regs\":32,\"max_items\":768}]",
                 "only applies when registers.model=dedicated");
    expect_error("buffer.latency_cycles", NULL, "$.buffer.latency_cycles: missing required key "
                                                 "(required when buffer.path=l2)");
    expect_error("buffer.path", "\"l1\"", "$.buffer.latency_cycles: only applies when buffer.path=l2 "
                                         "(here buffer.path is \"l1\")");
}

static void test_sources(void)
{
    cJSON *root = load_doc(A640);
    cJSON *src = cJSON_GetObjectItem(root, "sources");
    cJSON_DeleteItemFromObject(src, "l2.assoc");
    mg_device *dev = malloc(sizeof *dev);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(mg_device_from_json(root, "x.json", 0, dev, &d), 0);   /* a warning */
    CU_ASSERT_EQUAL(d.nwarn, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "1 value without a source (first: $.l2.assoc)"));
    mg_diag_free(&d);
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(mg_device_from_json(root, "x.json", 1, dev, &d), -1);  /* strict: error */
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "no source for $.l2.assoc"));
    mg_diag_free(&d);
    cJSON_AddItemToObject(src, "l2.asoc", cJSON_Parse("{\"kind\":\"inferred\",\"ref\":\"x\"}"));
    cJSON_AddItemToObject(src, "core.max_outstanding_per_warp",
                          cJSON_Parse("{\"kind\":\"fitted\",\"ref\":\"x\"}"));
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(mg_device_from_json(root, "x.json", 0, dev, &d), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), "$.sources[\"l2.asoc\"]: names no config key (did you mean \"l2.assoc\"?)"));
    CU_ASSERT_TRUE(d.stored >= 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg[1], "gives a source for a key this file does not set"));
    mg_diag_free(&d);
    cJSON_Delete(root);
    free(dev);
    expect_error("sources", "{\"l2.assoc\": {\"kind\": \"guessed\", \"ref\": \"x\"}}",
                 "expected one of measured, vendor");
    expect_error("sources", "{\"l2.assoc\": {\"kind\": \"fitted\", \"ref\": \"x\"}}",
                 "must name the \"curve\"");
}

/* Several independent problems are all reported in one pass. */
static void test_one_pass(void)
{
    cJSON *root = load_doc(A640);
    mutate(root, "core.sp_count", "0");
    mutate(root, "tex_l1.sizee", "1");
    mutate(root, "dram.latency", "\"5 parsecs\"");
    mg_device *dev = malloc(sizeof *dev);
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_EQUAL(mg_device_from_json(root, "x.json", 0, dev, &d), -1);
    CU_ASSERT_EQUAL(d.n, 3);
    mg_diag_free(&d);
    cJSON_Delete(root);
    free(dev);
}

/* ---- rules -------------------------------------------------------------- */

static void test_rules(void)
{
    expect_ok(NULL, NULL);
    expect_error("tex_l1.line", "\"48B\"", "$.tex_l1.line: expected a power of two, got 48B");
    expect_error("l2.size", "\"100000B\"", "$.l2.size: expected a multiple of line x assoc");
    expect_error("tex_l1.assoc", "64", "$.tex_l1.assoc: expected at most size/line = 32 ways");
    expect_error("tex_l1.tile_w_texels", "16", "expected tile_w x tile_h x tile_texel_bytes = line (32B)");
    expect_error("core.max_workgroup_size", "1000", "expected a multiple of core.warp_width (64)");
    expect_error("core.warp_width_max", "96", "$.core.warp_width_max: expected a multiple");
    expect_error("core.max_warps_per_sp", "8", "a work group runs on one core");
    expect_error("registers.pool_regs_per_sp", "1000", "one warp at the register limit must fit");
    expect_error("l2.line", "\"16B\"", "$.tex_l1.line: expected at most l2.line (16B)");
    expect_error("tex_l1.size", "\"256KiB\"", "$.l2.size: expected at least tex_l1.size (256KiB)");
    expect_ok("registers.granule", "8");     /* 255 regs in units of 8 is fine (NVIDIA) */
    expect_error("sources", "{\"l2.assoc\": {\"kind\": \"inferred\", \"ref\": 3}}",
                 "$.sources[\"l2.assoc\"].ref: expected a string");
}

/* image.block_*: both or neither; whole L2 lines; at most 64 lines.  On
 * adreno640 (8x1 tiles of 4 B, two per 64 B L2 line) a line is 16 texels
 * wide and one row tall. */
static void test_rules_image_layout(void)
{
    static const struct { const char *w, *h, *want; } cases[] = {
        {"16", "4", NULL},
        {"32", "1", NULL},
        {"16", "0", "$.image.block_h_texels: expected block_w_texels and block_h_texels both"},
        {"24", "4", "$.image.block_w_texels: expected a multiple of an L2 line's width, 16"},
        {"128", "16", "$.image.block_w_texels: a block holds at most 64 L2 lines"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *root = load_doc(A640);
        CU_ASSERT_PTR_NOT_NULL_FATAL(root);
        mutate(root, "image.block_w_texels", cases[i].w);
        mutate(root, "image.block_h_texels", cases[i].h);
        mg_device *dev = malloc(sizeof *dev);
        mg_diag d;
        mg_diag_init(&d);
        int rc = mg_device_from_json(root, "x.json", 0, dev, &d);
        const char *msg = rc ? mg_diag_first(&d) : "";
        if (cases[i].want) {
            CU_ASSERT_EQUAL(rc, -1);
            CU_ASSERT_PTR_NOT_NULL(strstr(msg, cases[i].want));
            if (!strstr(msg, cases[i].want)) fprintf(stderr, "\ngot '%s'\n", msg);
        } else {
            CU_ASSERT_EQUAL(rc, 0);
            if (rc) fprintf(stderr, "\nunexpected '%s'\n", msg);
        }
        mg_diag_free(&d);
        free(dev);
        cJSON_Delete(root);
    }
}

static void test_rules_dedicated(void)
{
    static const char *pre =
        "{\"device\": {\"name\": \"m\"},"
        " \"core\": {\"sp_count\": 5, \"alus_per_sp\": 24, \"clock\": \"800MHz\","
        "   \"warp_width\": 8, \"max_warps_per_sp\": 96, \"max_workgroup_size\": 384},"
        " \"registers\": {\"model\": \"dedicated\", \"max_regs_per_item\": 64,"
        "   \"occupancy_steps\": ";
    static const char *post = "},"
        " \"tex_l1\": {\"size\": \"8KiB\", \"line\": \"64B\", \"latency_cycles\": 10,"
        "   \"bandwidth\": \"30GB/s\", \"tile_w_texels\": 4, \"tile_h_texels\": 4},"
        " \"buffer\": {\"path\": \"l1\"},"
        " \"buffer_l1\": {\"size\": \"16KiB\", \"line\": \"64B\", \"latency_cycles\": 10,"
        "   \"bandwidth\": \"23.3GB/s\"},"
        " \"local\": {\"kind\": \"system\", \"size\": \"32KiB\"},"
        " \"l2\": {\"size\": \"256KiB\", \"line\": \"64B\", \"latency_cycles\": 20,"
        "   \"bandwidth\": \"15.6GB/s\"},"
        " \"dram\": {\"bandwidth\": \"11GB/s\", \"latency\": \"100ns\"}}";
    static const struct { const char *steps; const char *want; } cases[] = {
        {"[{\"max_regs\":32,\"max_items\":768},{\"max_regs\":64,\"max_items\":384}]", NULL},
        {"[{\"max_regs\":64,\"max_items\":768},{\"max_regs\":32,\"max_items\":384}]",
         "occupancy_steps[1].max_regs: expected more than the previous step's 64"},
        {"[{\"max_regs\":32,\"max_items\":384},{\"max_regs\":64,\"max_items\":768}]",
         "occupancy_steps[1].max_items: expected at most the previous step's 384"},
        {"[{\"max_regs\":32,\"max_items\":768},{\"max_regs\":48,\"max_items\":384}]",
         "the last step must end at registers.max_regs_per_item (64)"},
        {"[{\"max_regs\":32,\"max_items\":4}, {\"max_regs\":64,\"max_items\":4}]",
         "expected at least one warp (8 items)"},
        {"[{\"max_regs\":64,\"max_item\":768}]", "occupancy_steps[0].max_item: unknown key "
                                                "(did you mean \"max_items\"?)"},
        {"[]", "expected an array of 1 to 8 objects"},
        {"{}", "expected an array of 1 to 8 objects"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[4096];
        snprintf(text, sizeof text, "%s%s%s", pre, cases[i].steps, post);
        cJSON *j = cJSON_Parse(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(j);
        mg_device *dev = malloc(sizeof *dev);
        mg_diag d;
        mg_diag_init(&d);
        int rc = mg_device_from_json(j, "m.json", 0, dev, &d);
        if (!cases[i].want) {
            CU_ASSERT_EQUAL(rc, 0);
            if (rc) fprintf(stderr, "\nunexpected: %s\n", mg_diag_first(&d));
            CU_ASSERT_EQUAL(dev->nsteps, 2);
            CU_ASSERT_EQUAL(dev->steps[1].max_items, 384);
            CU_ASSERT_EQUAL(dev->max_items_per_sp, 768);
        } else {
            CU_ASSERT_EQUAL(rc, -1);
            CU_ASSERT_PTR_NOT_NULL(strstr(mg_diag_first(&d), cases[i].want));
            if (!strstr(mg_diag_first(&d), cases[i].want))
                fprintf(stderr, "\ncase %zu: got '%s'\n", i, mg_diag_first(&d));
        }
        mg_diag_free(&d);
        free(dev);
        cJSON_Delete(j);
    }
}

int add_schema_suite(void)
{
    CU_pSuite s = CU_add_suite("schema", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "integrity", test_schema_integrity) ||
        !CU_add_test(s, "documented", test_schema_documented))
        return -1;
    return 0;
}

int add_device_suite(void)
{
    CU_pSuite s = CU_add_suite("device", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "load_adreno640", test_load_adreno640) ||
        !CU_add_test(s, "resolved_roundtrip", test_resolved_roundtrip) ||
        !CU_add_test(s, "type_errors", test_type_errors) ||
        !CU_add_test(s, "unknown_keys", test_unknown_keys) ||
        !CU_add_test(s, "conditional_keys", test_conditional_keys) ||
        !CU_add_test(s, "sources", test_sources) ||
        !CU_add_test(s, "one_pass", test_one_pass))
        return -1;
    return 0;
}

int add_rules_suite(void)
{
    CU_pSuite s = CU_add_suite("rules", NULL, NULL);
    if (!s) return -1;
    if (!CU_add_test(s, "shared_pool_device", test_rules) ||
        !CU_add_test(s, "dedicated_steps", test_rules_dedicated) ||
        !CU_add_test(s, "image_layout", test_rules_image_layout))
        return -1;
    return 0;
}
