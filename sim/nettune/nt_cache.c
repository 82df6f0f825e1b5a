/*
 * nt_cache.c - the cache of layer kernels, one small JSON file per key
 * (nt_kernel.h): DIR/KEY.json, schema "mgsim-net-kernel/1", written
 * atomically (base/jsonout.h), so concurrent runs and interrupted ones
 * never leave a torn entry.  The key covers everything the result depends
 * on, so an entry is never stale: another model revision (the analytical
 * model's too, when screened), config, rule set, screen or sampling is
 * another key.
 */
#include "sim/nettune/nt_kernel.h"
#include "sim/analytic/analytic.h"
#include "sim/model/model.h"
#include "sim/version.h"
#include "base/hash.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CACHE_SCHEMA "mgsim-net-kernel/1"

void mg_nt_cache_key(const mg_nt_search *s, const char *kind, const char *what, char key[24])
{
    char head[320], analytic[32];
    snprintf(analytic, sizeof analytic, " analytic=%d", MG_AM_REVISION);
    snprintf(head, sizeof head, "%s model=%d%s config=%s rules=%s screen=%llu sample=%d "
             "max_work=%.17g\n", kind, MG_MODEL_REVISION, s->screen_k ? analytic : "",
             s->dev_hash, s->rules_hash, (unsigned long long)s->screen_k, s->sample,
             s->max_work);
    uint64_t h = mg_fnv1a_more(mg_fnv1a_str(head), what, strlen(what));
    snprintf(key, 24, "%016llx", (unsigned long long)h);
}

void mg_nt_cache_dir(const char *dir, char *out, size_t n)
{
    const char *e;
    if (dir) snprintf(out, n, "%s", dir);
    else if ((e = getenv("MGSIM_CACHE")) && *e) snprintf(out, n, "%s", e);
    else if ((e = getenv("XDG_CACHE_HOME")) && *e) snprintf(out, n, "%s/mgsim", e);
    else if ((e = getenv("HOME")) && *e) snprintf(out, n, "%s/.cache/mgsim", e);
    else snprintf(out, n, "%s", "");
}

cJSON *mg_nt_kernel_json(const mg_nt_kernel *k)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", k->ok);
    cJSON_AddStringToObject(o, "schedule", k->schedule);
    if (!k->ok) cJSON_AddStringToObject(o, "why", k->why);
    cJSON_AddNumberToObject(o, "seconds", k->seconds);
    cJSON_AddNumberToObject(o, "flops", k->flops);
    cJSON_AddNumberToObject(o, "gflops", k->gflops);
    cJSON_AddNumberToObject(o, "bound_gflops", k->bound_gflops);
    cJSON_AddStringToObject(o, "binding", k->ok ? mg_level_name(k->binding) : "");
    cJSON_AddNumberToObject(o, "alu_utilization", k->alu_util);
    cJSON_AddNumberToObject(o, "lsu_utilization", k->lsu_util);
    cJSON_AddNumberToObject(o, "space", (double)k->space);
    cJSON_AddNumberToObject(o, "kept", (double)k->kept);
    cJSON_AddNumberToObject(o, "simulated", (double)k->simulated);
    cJSON_AddStringToObject(o, "rules_dropped", k->relaxed);
    cJSON_AddBoolToObject(o, "unpruned", k->unpruned);
    return o;
}

static double num(const cJSON *o, const char *key, int *bad)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(j)) *bad = 1;
    return cJSON_IsNumber(j) ? j->valuedouble : 0;
}

static const char *str(const cJSON *o, const char *key, int *bad)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(j)) *bad = 1;
    return cJSON_IsString(j) ? j->valuestring : "";
}

/* The level a binding name stands for (-1: compute). */
static int level_of(const char *name)
{
    for (int lv = 0; lv < MG_LV_COUNT; lv++)
        if (!strcmp(mg_level_name(lv), name)) return lv;
    return -1;
}

int mg_nt_kernel_from_json(const cJSON *j, mg_nt_kernel *k)
{
    int bad = 0;
    memset(k, 0, sizeof *k);
    k->ok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "ok"));
    snprintf(k->schedule, sizeof k->schedule, "%s", str(j, "schedule", &bad));
    if (!k->ok) snprintf(k->why, sizeof k->why, "%s", str(j, "why", &bad));
    k->seconds = num(j, "seconds", &bad);
    k->flops = num(j, "flops", &bad);
    k->gflops = num(j, "gflops", &bad);
    k->bound_gflops = num(j, "bound_gflops", &bad);
    k->binding = level_of(str(j, "binding", &bad));
    k->alu_util = num(j, "alu_utilization", &bad);
    k->lsu_util = num(j, "lsu_utilization", &bad);
    k->space = (uint64_t)num(j, "space", &bad);
    k->kept = (uint64_t)num(j, "kept", &bad);
    k->simulated = (uint64_t)num(j, "simulated", &bad);
    snprintf(k->relaxed, sizeof k->relaxed, "%s", str(j, "rules_dropped", &bad));
    k->unpruned = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "unpruned"));
    return bad ? -1 : 0;
}

int mg_nt_cache_get(const char *dir, const char *key, mg_nt_kernel *k)
{
    if (!*dir) return 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.json", dir, key);
    struct stat st;
    if (stat(path, &st)) return 0;
    mg_diag d;
    mg_diag_init(&d);
    cJSON *j = mg_json_load(path, &d);
    mg_diag_free(&d);
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(j, "schema");
    const cJSON *ky = cJSON_GetObjectItemCaseSensitive(j, "key");
    int hit = cJSON_IsString(sc) && !strcmp(sc->valuestring, CACHE_SCHEMA) &&
              cJSON_IsString(ky) && !strcmp(ky->valuestring, key) &&
              !mg_nt_kernel_from_json(cJSON_GetObjectItemCaseSensitive(j, "kernel"), k);
    cJSON_Delete(j);
    return hit;
}

/* mkdir -p path.  0, or -1 with the problem in d. */
static int make_dirs(const char *path, mg_diag *d)
{
    char buf[4200];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1;; p++) {
        if (*p && *p != '/') continue;
        char c = *p;
        *p = 0;
        struct stat st;
        if (mkdir(buf, 0777) && !(errno == EEXIST && !stat(buf, &st) && S_ISDIR(st.st_mode))) {
            mg_diag_error(d, "%s: cannot create the cache folder: %s", buf, strerror(errno));
            return -1;
        }
        if (!c) return 0;
        *p = c;
    }
}

int mg_nt_cache_put(const char *dir, const char *key, const mg_nt_kernel *k, mg_diag *d)
{
    if (!*dir) return 0;
    if (make_dirs(dir, d)) return -1;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.json", dir, key);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", CACHE_SCHEMA);
    cJSON_AddStringToObject(o, "key", key);
    cJSON_AddItemToObject(o, "kernel", mg_nt_kernel_json(k));
    int rc = mg_json_save(path, o, d);
    cJSON_Delete(o);
    return rc;
}
