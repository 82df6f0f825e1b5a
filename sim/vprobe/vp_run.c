/*
 * vp_run.c - the virtual probe's driver: the device as the probe sees it,
 * the aspect table, the profile and curves documents, and saving them
 * (see vprobe.h).
 */
#include "sim/vprobe/vprobe.h"
#include "sim/vprobe/vp.h"
#include "sim/analysis/profile.h"
#include "base/jsonout.h"
#include "base/strsim.h"
#include "sim/version.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct vp_aspect {
    const char *name;
    void (*run)(mg_vp *v);
} vp_aspect;

static const vp_aspect table[] = {
    {.name = "warp", .run = mg_vp_warp},
    {.name = "flops", .run = mg_vp_flops},
    {.name = "alu", .run = mg_vp_alu},
    {.name = "regs", .run = mg_vp_regs},
    {.name = "cache_buffer", .run = mg_vp_cache_buffer},
    {.name = "cache_image", .run = mg_vp_cache_image},
    {.name = "bw_buffer", .run = mg_vp_bw_buffer},
    {.name = "bw_image", .run = mg_vp_bw_image},
    {.name = "bw_local", .run = mg_vp_bw_local},
    {.name = "bw_constant", .run = mg_vp_bw_constant},
    {.name = "dram", .run = mg_vp_dram},
    {.name = "rstride2d", .run = mg_vp_rstride2d},
    {.name = "vload", .run = mg_vp_vload},
    {.name = "lsu", .run = mg_vp_lsu},
};
#define NASP (sizeof table / sizeof table[0])

const char *const mg_vprobe_aspects[] = {
    "warp", "flops", "alu", "regs", "cache_buffer", "cache_image", "bw_buffer", "bw_image",
    "bw_local", "bw_constant", "dram", "rstride2d", "vload", "lsu", NULL,
};

/* Is `name` in the comma-separated list (NULL: every name is)? */
static int wanted(const char *list, const char *name)
{
    if (!list) return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, name, n)) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

int mg_vprobe_check_aspects(const char *list, mg_diag *d)
{
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
        int ok = 0;
        for (size_t i = 0; i < NASP; i++) ok |= !strcmp(table[i].name, name);
        if (!ok) {
            mg_hint h;
            mg_diag_error(d, "--aspects: unknown aspect '%s'%s", name,
                          mg_hint_near(&h, name, mg_vprobe_aspects, NASP, "\""));
            return -1;
        }
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

/* The device as mgprobe would see it through clGetDeviceInfo. */
static void pdev_of(const mg_device *dev, mg_pdev *pd)
{
    memset(pd, 0, sizeof *pd);
    pd->cus = (unsigned)dev->sp_count;
    pd->clock_mhz = dev->clock_hz / 1e6;
    pd->max_wg = (uint64_t)dev->max_workgroup_size;
    for (int i = 0; i < 3; i++) pd->max_items[i] = pd->max_wg;
    pd->images = 1;
    pd->img_w = pd->img_h = 16384;
    pd->fp16 = 1;
    pd->local_mem = (uint64_t)dev->local_size;
    pd->const_mem = (uint64_t)dev->const_size;
    pd->max_alloc = (uint64_t)1 << 30;
    pd->cache_size = (uint64_t)dev->l2.size;     /* as Adreno and Mali drivers report it */
    pd->cacheline = (uint64_t)dev->l2.line;
}

/* The profile's device object: what `mgprobe devices --json` would list. */
static cJSON *device_json(const mg_device *dev, const mg_pdev *pd, const char *cfg)
{
    cJSON *o = cJSON_CreateObject();
    char name[160];
    snprintf(name, sizeof name, "%s (virtual)", dev->name);
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddStringToObject(o, "driver_version", "mgsim " MG_VERSION " timing model");
    cJSON_AddStringToObject(o, "vendor", dev->vendor);
    cJSON_AddStringToObject(o, "type", "GPU");
    cJSON_AddStringToObject(o, "platform", "mgsim vprobe");
    if (cfg) cJSON_AddStringToObject(o, "config", cfg);
    cJSON_AddNumberToObject(o, "compute_units", pd->cus);
    cJSON_AddNumberToObject(o, "max_clock_mhz", pd->clock_mhz);
    cJSON_AddNumberToObject(o, "max_work_group_size", (double)pd->max_wg);
    cJSON *mi = cJSON_AddArrayToObject(o, "max_work_item_sizes");
    for (int i = 0; i < 3; i++) cJSON_AddItemToArray(mi, cJSON_CreateNumber((double)pd->max_items[i]));
    cJSON_AddNumberToObject(o, "global_mem_cache_size", (double)pd->cache_size);
    cJSON_AddNumberToObject(o, "global_mem_cacheline_size", (double)pd->cacheline);
    cJSON_AddNumberToObject(o, "local_mem_size", (double)pd->local_mem);
    cJSON_AddNumberToObject(o, "max_constant_buffer_size", (double)pd->const_mem);
    cJSON_AddTrueToObject(o, "image_support");
    cJSON_AddNumberToObject(o, "image2d_max_width", (double)pd->img_w);
    cJSON_AddNumberToObject(o, "image2d_max_height", (double)pd->img_h);
    cJSON_AddNumberToObject(o, "max_mem_alloc_size", (double)pd->max_alloc);
    cJSON_AddTrueToObject(o, "cl_khr_fp16");
    return o;
}

/* Run one aspect into an entry of `aspects` and its curves document. */
static void run_aspect(const vp_aspect *asp, const mg_device *dev, const mg_pdev *pd,
                       cJSON *prof, const char *cdir, cJSON *curves, int archprobe)
{
    mg_vp v;
    memset(&v, 0, sizeof v);
    v.archprobe = archprobe;
    v.dev = dev;
    v.pd = *pd;
    v.profile = prof;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", MG_CURVE_SCHEMA);
    cJSON_AddStringToObject(doc, "aspect", asp->name);
    cJSON_AddStringToObject(doc, "device", dev->name);
    cJSON_AddStringToObject(doc, "date", "virtual");
    v.r.series = cJSON_AddArrayToObject(doc, "series");
    v.r.conclusion = cJSON_CreateObject();
    v.r.notes = cJSON_CreateArray();
    asp->run(&v);
    int any_ok;
    double conf = mg_ares_confidence(&v.r, &any_ok);
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "status", v.failed ? "error" : any_ok ? "ok" : "undetermined");
    if (v.failed) cJSON_AddStringToObject(e, "error", v.error);
    cJSON_AddStringToObject(e, "date", "virtual");
    char buf[32];
    snprintf(buf, sizeof buf, "%.6g", v.sim_seconds);
    cJSON_AddNumberToObject(e, "seconds", atof(buf));
    char rel[600];
    snprintf(rel, sizeof rel, "%s/%s.json", cdir, asp->name);
    cJSON_AddStringToObject(e, "curve", rel);
    if (conf >= 0) cJSON_AddNumberToObject(e, "confidence", conf);
    else cJSON_AddNullToObject(e, "confidence");
    cJSON_AddItemToObject(e, "conclusion", v.r.conclusion);
    mg_ares_note(&v.r, "virtual: %ld model runs, %.6g s simulated", v.runs, v.sim_seconds);
    cJSON_AddItemToObject(e, "notes", v.r.notes);
    cJSON_AddItemToObject(cJSON_GetObjectItemCaseSensitive(prof, "aspects"), asp->name, e);
    cJSON_AddItemToObject(curves, asp->name, doc);
}

int mg_vprobe_run(const mg_device *dev, const mg_vprobe_opts *o, const char *curves_dir,
                  cJSON **profile, cJSON **curves, mg_diag *d)
{
    mg_pdev pd;
    pdev_of(dev, &pd);
    cJSON *prof = cJSON_CreateObject(), *cv = cJSON_CreateObject();
    cJSON_AddStringToObject(prof, "schema", MG_PROFILE_SCHEMA);
    cJSON_AddStringToObject(prof, "tool", "mgsim vprobe " MG_VERSION);
    cJSON_AddItemToObject(prof, "device", device_json(dev, &pd, o ? o->config_name : NULL));
    cJSON_AddStringToObject(prof, "started", "virtual");
    cJSON_AddStringToObject(prof, "updated", "virtual");
    cJSON *set = cJSON_AddObjectToObject(prof, "settings");
    cJSON_AddStringToObject(set, "timing", "simulated: (time(b) - time(a)) / (b - a), one run "
                            "each (the model has no noise)");
    cJSON_AddStringToObject(set, "sampling", "off: every work group replayed");
    if (o && o->archprobe) cJSON_AddStringToObject(set, "sweep", "archprobe");
    cJSON_AddObjectToObject(prof, "aspects");
    for (size_t i = 0; i < NASP; i++) {
        if (!wanted(o ? o->aspects : NULL, table[i].name)) continue;
        if (o && o->progress) fprintf(stderr, "mgsim: vprobe: %s ...\n", table[i].name);
        run_aspect(&table[i], dev, &pd, prof, curves_dir, cv, o ? o->archprobe : 0);
    }
    int bad = mg_profile_validate(prof, "vprobe profile", d) != 0;
    for (const cJSON *c = cv->child; c; c = c->next)
        bad |= mg_curve_validate(c, c->string, d) != 0;
    if (bad) {
        mg_diag_error(d, "vprobe: internal: the virtual profile does not pass its schema");
        cJSON_Delete(prof);
        cJSON_Delete(cv);
        return -1;
    }
    *profile = prof;
    *curves = cv;
    return 0;
}

void mg_vprobe_curves_dir(const char *path, char *buf, size_t len)
{
    size_t n = strlen(path);
    if (n > 5 && !strcmp(path + n - 5, ".json")) n -= 5;
    snprintf(buf, len, "%.*s.curves", (int)n, path);
}

int mg_vprobe_save(const char *path, const cJSON *profile, const cJSON *curves, mg_diag *d)
{
    char dir[4200], file[4400];
    mg_vprobe_curves_dir(path, dir, sizeof dir);
    if (mkdir(dir, 0755) && errno != EEXIST) {
        mg_diag_error(d, "%s: cannot create: %s", dir, strerror(errno));
        return -1;
    }
    for (const cJSON *c = curves->child; c; c = c->next) {
        snprintf(file, sizeof file, "%s/%s.json", dir, c->string);
        if (mg_json_save(file, c, d)) return -1;
    }
    return mg_json_save(path, profile, d);
}
