/*
 * test_vprobe.c - the virtual probe's round trip over every shipped config
 * (every configs/devices JSON file): `mgsim vprobe` must recover what the config
 * says, through the same kernels, knee detection and schema as mgprobe,
 * and `mgsim calibrate` of that virtual profile (on the same base) must
 * give the config back on the recovered keys, every value passing the
 * plausibility rules (sim/calib/cal_checks.c).
 *
 * Tolerances: discrete values exact (warp, register file and model, line
 * shapes, cache sizes: the model's sets take an address's low bits XOR a
 * hash of the rest, mg_cache_set, so a contiguous footprint of a cache's
 * size fits it exactly and the virtual probe's end of the old plateau is
 * the size); rates and bandwidths 5 %; the load issue (buffer.vload)
 * exact.  What the model
 * cannot show through the probe's kernels is listed in `known` below with
 * the mechanism, and checked to still be off (so the list cannot go
 * stale silently).  The virtual probe of all eight configs is run once,
 * in the suite's set-up (about a minute of CPU, most of it the H100's 50 MiB
 * L2 and 132-core bandwidth launches).
 */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/analysis/profile.h"
#include "sim/calib/calibrate.h"
#include "sim/config/device.h"
#include "sim/config/schema.h"
#include "tests/unit/suites.h"
#include "sim/vprobe/vprobe.h"

#define MAXC 16

typedef struct vcase {
    char       name[64];
    mg_device  dev;
    cJSON     *prof;
} vcase;

static vcase cases[MAXC];
static int ncases;

/* What the model does not show through the probe's kernels (see the
 * report in sim/vprobe and configs/PROFILE.md): config name, key, why. */
static const struct { const char *dev, *key, *why; } known[] = {
    /* 4 SPs: the warpsize sweep's 128 groups take 210 ns per iteration
     * at 1-32 items but 156 at 64, so the first step (x1.66 at 64 -> 128)
     * is bisected below 64 and read as 63; the register knee lands on
     * 34020, not 96 x 181 = 17376.  adreno640.json with sp_count 4
     * misreads the same way (63; 69632 for 70272): the probe's plan on 4
     * cores, not this config's values. */
    {"adreno540", "warp", "the warp probe on 4 SPs reads 63 (adreno640 at 4 SPs too)"},
    {"adreno540", "pool", "the register knee on 4 SPs misses the pool (adreno640 at 4 SPs too)"},
};

static const char *known_why(const char *dev, const char *key)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].dev && !strcmp(known[i].dev, dev) && !strcmp(known[i].key, key))
            return known[i].why;
    return NULL;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const vcase *)a)->name, ((const vcase *)b)->name);
}

static int setup(void)
{
    DIR *dir = opendir("configs/devices");
    if (!dir) return -1;
    struct dirent *e;
    while ((e = readdir(dir)) && ncases < MAXC) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json")) continue;
        snprintf(cases[ncases].name, sizeof cases[ncases].name, "%.*s", (int)(n - 5), e->d_name);
        ncases++;
    }
    closedir(dir);
    qsort(cases, (size_t)ncases, sizeof cases[0], by_name);
    for (int i = 0; i < ncases; i++) {
        char path[160];
        snprintf(path, sizeof path, "configs/devices/%.60s.json", cases[i].name);
        mg_diag d;
        mg_diag_init(&d);
        cJSON *curves = NULL;
        mg_vprobe_opts o = {NULL, 0, path, 0};
        int rc = mg_device_load(path, 0, &cases[i].dev, &d) ||
                 mg_vprobe_run(&cases[i].dev, &o, "vprofile.curves", &cases[i].prof, &curves, &d);
        if (rc) fprintf(stderr, "vprobe %s: %s\n", cases[i].name, mg_diag_first(&d));
        cJSON_Delete(curves);
        mg_diag_free(&d);
        if (rc) return -1;
    }
    return 0;
}

static int teardown(void)
{
    for (int i = 0; i < ncases; i++) cJSON_Delete(cases[i].prof);
    ncases = 0;
    return 0;
}

static double num(const vcase *c, const char *aspect, const char *key)
{
    double v;
    return mg_profile_number(c->prof, aspect, key, &v, NULL) ? NAN : v;
}

static const char *str(const vcase *c, const char *aspect, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(c->prof, "aspects"), aspect),
                "conclusion"), key), "value");
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* got against want within rel; a known exception must be off by more
 * (printed with its reason), everything else within. */
static void check(const vcase *c, const char *key, double want, double got, double rel)
{
    int ok = isfinite(got) && fabs(got - want) <= rel * fabs(want);
    const char *why = known_why(c->name, key);
    if (why) {
        if (ok) fprintf(stderr, "\n  %s %s: now recovered (%g, want %g): drop it from known[]",
                        c->name, key, got, want);
        CU_ASSERT(!ok);
        return;
    }
    if (!ok) fprintf(stderr, "\n  %s %s: got %g, want %g (within %g%%)", c->name, key, got,
                     want, 100 * rel);
    CU_ASSERT(ok);
}

/* The model's fp32 (fp16) peak in GFLOPS (vec4-issue devices reach it
 * with vec4 code). */
static double peak(const mg_device *d, int fp16)
{
    return mg_device_peak_flops(d, fp16) / 1e9;
}

static void test_schema(void)
{
    for (int i = 0; i < ncases; i++) {
        mg_diag d;
        mg_diag_init(&d);
        CU_ASSERT(mg_profile_validate(cases[i].prof, cases[i].name, &d) == 0);
        mg_diag_free(&d);
    }
    CU_ASSERT(ncases >= 8);
}

static void test_compute(void)
{
    for (int i = 0; i < ncases; i++) {
        const vcase *c = &cases[i];
        check(c, "warp", (double)c->dev.warp_width, num(c, "warp", "warp_size"), 0);
        check(c, "fp32", peak(&c->dev, 0), num(c, "flops", "fp32_peak_gflops"), 0.05);
        check(c, "fp16", peak(&c->dev, 1), num(c, "flops", "fp16_peak_gflops"), 0.05);
        int pool = c->dev.reg_model == MG_REG_SHARED_POOL;
        CU_ASSERT_STRING_EQUAL(str(c, "regs", "register_model"), pool ? "pooled" : "dedicated");
        if (pool)
            check(c, "pool", (double)c->dev.pool_regs_per_sp,
                  num(c, "regs", "register_file_per_cu"), 0);
    }
}

static void test_caches(void)
{
    for (int i = 0; i < ncases; i++) {
        const vcase *c = &cases[i];
        const mg_device *d = &c->dev;
        char shape[32];
        snprintf(shape, sizeof shape, "%lldx%lld",
                 (long long)(d->tile_w_texels * d->tile_texel_bytes / 4),
                 (long long)d->tile_h_texels);
        CU_ASSERT_STRING_EQUAL(str(c, "cache_image", "line_shape_texels"), shape);
        check(c, "tex.size", (double)d->tex_l1.size, num(c, "cache_image", "l1_size"), 0);
        double levels = num(c, "cache_buffer", "levels");
        char key[32];
        snprintf(key, sizeof key, "l%.0f_size", levels);
        check(c, "l2.size", (double)d->l2.size, num(c, "cache_buffer", key), 0);
        if (d->buffer_path == MG_BUF_VIA_L1) {
            CU_ASSERT(levels == 2);
            check(c, "bufl1.size", (double)d->buf_l1.size, num(c, "cache_buffer", "l1_size"), 0);
            check(c, "bufl1.line", (double)d->buf_l1.line, num(c, "cache_buffer", "line_size"), 0);
        } else {
            CU_ASSERT(levels == 1);
            check(c, "l2.line", (double)d->l2.line, num(c, "cache_buffer", "line_size"), 0);
        }
    }
}

static void test_bandwidths(void)
{
    for (int i = 0; i < ncases; i++) {
        const vcase *c = &cases[i];
        const mg_device *d = &c->dev;
        double buf = d->buffer_path == MG_BUF_VIA_L1 ? d->buf_l1.bandwidth : d->l2.bandwidth;
        double loc = d->local_kind == MG_LOCAL_ONCHIP ? d->local_bandwidth
                     : d->buffer_path == MG_BUF_VIA_L1 ? d->buf_l1.bandwidth : d->l2.bandwidth;
        check(c, "tex.bw", d->tex_l1.bandwidth / 1e9, num(c, "bw_image", "peak_gbps"), 0.05);
        check(c, "buf.bw", buf / 1e9, num(c, "bw_buffer", "peak_gbps"), 0.05);
        check(c, "local.bw", loc / 1e9, num(c, "bw_local", "peak_gbps"), 0.05);
        check(c, "const.bw", d->const_bandwidth / 1e9, num(c, "bw_constant", "peak_gbps"), 0.05);
        check(c, "dram.bw", d->dram_bandwidth / 1e9, num(c, "dram", "dram_gbps"), 0.05);
    }
}

/* The load issue: every config's buffer.vload; max_load_bytes only where
 * the loads' time is per line and a vector splits (no shipped config:
 * NVIDIA issues elements, the mobile paths cost per byte), so it is null
 * or the config's.  Then the H100 with vload = vector and max_load_bytes
 * 4, 8 and 0 (as wide as the trace's): the aspect finds 4, 8 and none, and
 * calibrate on the shipped H100 base takes vector and the width found. */
static void test_vload(void)
{
    for (int i = 0; i < ncases; i++) {
        const vcase *c = &cases[i];
        const char *want = mg_vload_names[c->dev.buffer_vload], *got = str(c, "vload", "vload");
        if (strcmp(got, want)) fprintf(stderr, "\n  %s vload: got '%s', want %s", c->name, got, want);
        CU_ASSERT(!strcmp(got, want));
        double mlb = num(c, "vload", "max_load_bytes");
        CU_ASSERT(isnan(mlb) || mlb == (double)c->dev.buffer_max_load_bytes);
    }
    static const int widths[] = {4, 8, 0};
    for (int i = 0; i < ncases; i++) {
        if (strcmp(cases[i].name, "nvidia-h100")) continue;
        for (int w = 0; w < 3; w++) {
            vcase v = cases[i];
            v.dev.buffer_vload = MG_VLOAD_VECTOR;
            v.dev.buffer_max_load_bytes = widths[w];
            mg_diag d;
            mg_diag_init(&d);
            cJSON *curves = NULL;
            mg_vprobe_opts o = {"vload", 0, NULL, 0};
            CU_ASSERT_FATAL(mg_vprobe_run(&v.dev, &o, "v.curves", &v.prof, &curves, &d) == 0);
            CU_ASSERT(!strcmp(str(&v, "vload", "vload"), "vector"));
            double mlb = num(&v, "vload", "max_load_bytes");
            CU_ASSERT(widths[w] ? mlb == widths[w] : isnan(mlb));
            mg_cal cal;
            mg_cal_opts co = {"vprofile.json", "base.json", NULL, 0.5, 0};
            CU_ASSERT_FATAL(mg_calibrate(v.prof, &cases[i].dev, &co, &cal, &d) == 0);
            CU_ASSERT(cal.dev.buffer_vload == MG_VLOAD_VECTOR);
            CU_ASSERT(cal.dev.buffer_max_load_bytes ==
                      (widths[w] ? widths[w] : cases[i].dev.buffer_max_load_bytes));
            mg_cal_free(&cal);
            cJSON_Delete(curves);
            cJSON_Delete(v.prof);
            mg_diag_free(&d);
        }
    }
}

/* A config calibrated from its own virtual profile matches it on the keys
 * the profile answers (the same tolerances, the same known exceptions). */
static void test_calibrate_roundtrip(void)
{
    for (int i = 0; i < ncases; i++) {
        const vcase *c = &cases[i];
        const mg_device *d = &c->dev;
        mg_cal cal;
        mg_cal_opts o = {"vprofile.json", "base.json", NULL, 0.5, 0};
        mg_diag dg;
        mg_diag_init(&dg);
        if (known_why(c->name, "warp")) {   /* a misread warp makes the calibrated */
            mg_diag_free(&dg);                  /* work-group limit invalid: skipped */
            fprintf(stderr, "\n  calibrate %s: skipped (%s)", c->name, known_why(c->name, "warp"));
            continue;
        }
        int rc = mg_calibrate(c->prof, d, &o, &cal, &dg);
        if (rc) fprintf(stderr, "\n  calibrate %s: %s", c->name, mg_diag_first(&dg));
        mg_diag_free(&dg);
        CU_ASSERT_FATAL(rc == 0);
        const mg_device *k = &cal.dev;
        check(c, "warp", (double)d->warp_width, (double)k->warp_width, 0);
        CU_ASSERT(k->reg_model == d->reg_model);
        CU_ASSERT(k->issue == d->issue);
        CU_ASSERT(k->buffer_path == d->buffer_path);
        CU_ASSERT(k->buffer_vload == d->buffer_vload);
        CU_ASSERT(k->buffer_max_load_bytes == d->buffer_max_load_bytes);
        if (d->reg_model == MG_REG_SHARED_POOL)
            check(c, "pool", (double)d->pool_regs_per_sp, (double)k->pool_regs_per_sp, 0);
        check(c, "fp32", peak(d, 0), peak(k, 0), 0.05);
        check(c, "fp16", peak(d, 1), peak(k, 1), 0.05);
        CU_ASSERT(k->tile_w_texels * k->tile_texel_bytes == d->tile_w_texels * d->tile_texel_bytes);
        CU_ASSERT(k->tile_h_texels == d->tile_h_texels);
        CU_ASSERT(k->tex_l1.line == d->tex_l1.line);
        int fa = d->tex_l1.assoc * d->tex_l1.line == d->tex_l1.size;
        check(c, "tex.size", (double)d->tex_l1.size, (double)k->tex_l1.size, 0);
        check(c, "l2.size", (double)d->l2.size, (double)k->l2.size, 0);
        check(c, "tex.bw", d->tex_l1.bandwidth, k->tex_l1.bandwidth, 0.05);
        check(c, "dram.bw", d->dram_bandwidth, k->dram_bandwidth, 0.05);
        /* latencies: split per the latency composition, to the cycle or two */
        if (fa) CU_ASSERT(llabs(k->tex_l1.latency_cycles - d->tex_l1.latency_cycles) <= 2);
        /* a config's own virtual profile passes every plausibility rule */
        for (int j = 0; j < cal.n_keys; j++) {
            const mg_cal_key *x = &cal.keys[j];
            if (x->verdict == MG_CAL_PASSED) continue;
            fprintf(stderr, "\n  calibrate %s: %s = %s %s by %s: %s", c->name, x->key,
                    x->judged, mg_cal_verdict_name(x->verdict), x->rule, x->why);
            CU_FAIL("a virtual profile failed a plausibility rule");
        }
        mg_cal_free(&cal);
    }
}

/* Same config, same bytes. */
static void test_deterministic(void)
{
    mg_device dev;
    mg_diag d;
    mg_diag_init(&d);
    CU_ASSERT_FATAL(mg_device_load("configs/devices/adreno640.json", 0, &dev, &d) == 0);
    char *text[2] = {NULL, NULL};
    for (int r = 0; r < 2; r++) {
        cJSON *p = NULL, *cv = NULL;
        mg_vprobe_opts o = {"warp,regs,cache_image", 0, NULL, 0};
        CU_ASSERT_FATAL(mg_vprobe_run(&dev, &o, "x.curves", &p, &cv, &d) == 0);
        text[r] = cJSON_PrintUnformatted(p);
        char *t = cJSON_PrintUnformatted(cv);
        size_t n = strlen(text[r]) + strlen(t) + 1;
        text[r] = realloc(text[r], n + 1);
        strcat(text[r], t);
        cJSON_free(t);
        cJSON_Delete(p);
        cJSON_Delete(cv);
    }
    CU_ASSERT_STRING_EQUAL(text[0], text[1]);
    free(text[0]);
    free(text[1]);
    CU_ASSERT(mg_vprobe_check_aspects("warp,cahce_image", &d) == -1);
    CU_ASSERT(strstr(mg_diag_first(&d), "did you mean \"cache_image\"") != NULL);
    mg_diag_free(&d);
}

int add_vprobe_suite(void)
{
    CU_pSuite s = CU_add_suite("vprobe", setup, teardown);
    if (!s) return -1;
    if (!CU_add_test(s, "profiles pass the probe's schema", test_schema) ||
        !CU_add_test(s, "warp, rates and registers recovered", test_compute) ||
        !CU_add_test(s, "cache sizes, lines and line shapes recovered", test_caches) ||
        !CU_add_test(s, "bandwidth ceilings recovered", test_bandwidths) ||
        !CU_add_test(s, "load issue (vload) recovered", test_vload) ||
        !CU_add_test(s, "calibrate(vprobe(config)) matches the config", test_calibrate_roundtrip) ||
        !CU_add_test(s, "deterministic; aspect names checked", test_deterministic))
        return -1;
    return 0;
}
