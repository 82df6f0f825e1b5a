/* suite.c - suite files and timings documents (see suite.h). */
#include "sim/analysis/suite.h"
#include "base/jsonfile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mg_suite_free(mg_suite *su)
{
    free(su->s);
    su->s = NULL;
    su->n = 0;
}

/* The base name of path without ".json". */
static void base_name(const char *path, char *out, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(out, len, "%s", b);
    size_t n = strlen(out);
    if (n > 5 && !strcmp(out + n - 5, ".json")) out[n - 5] = '\0';
}

int mg_suite_parse(const cJSON *doc, const char *where, mg_suite *su, mg_diag *d)
{
    memset(su, 0, sizeof *su);
    base_name(where, su->name, sizeof su->name);
    const cJSON *list = doc;
    const char *prefix = "$";
    if (cJSON_IsObject(doc)) {
        const cJSON *schema = cJSON_GetObjectItemCaseSensitive(doc, "schema");
        if (schema && (!cJSON_IsString(schema) || strcmp(schema->valuestring, MG_SUITE_SCHEMA))) {
            mg_diag_error(d, "%s: $.schema: expected \"%s\"", where, MG_SUITE_SCHEMA);
            return -1;
        }
        for (const cJSON *k = doc->child; k; k = k->next)
            if (strcmp(k->string, "schema") && strcmp(k->string, "name") &&
                strcmp(k->string, "description") && strcmp(k->string, "schedules"))
                mg_diag_error(d, "%s: $.%s: unknown key (a suite has schema, name, "
                              "description and schedules)", where, k->string);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(doc, "name");
        if (name && !cJSON_IsString(name))
            mg_diag_error(d, "%s: $.name: expected a string, got %s", where,
                          mg_json_type_name(name));
        else if (name)
            snprintf(su->name, sizeof su->name, "%s", name->valuestring);
        list = cJSON_GetObjectItemCaseSensitive(doc, "schedules");
        prefix = "$.schedules";
        if (!list) {
            mg_diag_error(d, "%s: $.schedules: missing required key (the array of schedules)",
                          where);
            return -1;
        }
    }
    if (!cJSON_IsArray(list)) {
        mg_diag_error(d, "%s: %s: expected an array of schedule objects, got %s", where,
                      prefix, mg_json_type_name(list));
        return -1;
    }
    int n = cJSON_GetArraySize(list);
    if (n == 0 || n > MG_SUITE_MAX) {
        mg_diag_error(d, "%s: %s: expected 1 to %d schedules, got %d", where, prefix,
                      MG_SUITE_MAX, n);
        return -1;
    }
    su->s = calloc((size_t)n, sizeof *su->s);
    if (!su->s) {
        mg_diag_error(d, "%s: out of memory for %d schedules", where, n);
        return -1;
    }
    size_t before = d->n;
    int i = 0;
    for (const cJSON *e = list->child; e; e = e->next, i++) {
        char w[4200];
        snprintf(w, sizeof w, "%s: %s[%d]", where, prefix, i);
        mg_diag one;
        mg_diag_init(&one);
        if (mg_schedule_from_json(e, w, &su->s[i], &one)) {
            for (size_t k = 0; k < one.stored; k++) {
                const char *m = one.msg[k];
                /* the parser names its own place "schedule: ..." */
                if (!strncmp(m, "schedule: ", 10)) mg_diag_error(d, "%s: %s", w, m + 10);
                else mg_diag_error(d, "%s", m);
            }
            if (!one.stored) mg_diag_error(d, "%s: invalid schedule", w);
        }
        mg_diag_free(&one);
    }
    su->n = (size_t)n;
    if (d->n != before) {
        mg_suite_free(su);
        return -1;
    }
    return 0;
}

int mg_suite_load(const char *path, mg_suite *su, mg_diag *d)
{
    memset(su, 0, sizeof *su);
    cJSON *doc = mg_json_load(path, d);
    if (!doc) return -1;
    int rc = mg_suite_parse(doc, path, su, d);
    cJSON_Delete(doc);
    return rc;
}

/* ---- timings --------------------------------------------------------------- */

static void need(const cJSON *o, const char *key, cJSON_bool (*check)(const cJSON *),
                 const char *what, const char *where, const char *path, mg_diag *d)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!m) mg_diag_error(d, "%s: %s.%s: missing required key (%s)", where, path, key, what);
    else if (!check(m))
        mg_diag_error(d, "%s: %s.%s: expected %s, got %s", where, path, key, what,
                      mg_json_type_name(m));
}

static int finite_nonneg(const cJSON *m)
{
    return cJSON_IsNumber(m) && isfinite(m->valuedouble) && m->valuedouble >= 0;
}

int mg_timings_validate(const cJSON *t, const char *where, mg_diag *d)
{
    size_t before = d->n;
    if (!cJSON_IsObject(t)) {
        mg_diag_error(d, "%s: $: expected a timings object, got %s", where, mg_json_type_name(t));
        return -1;
    }
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(t, "schema");
    if (!cJSON_IsString(s) || strcmp(s->valuestring, MG_TIMINGS_SCHEMA))
        mg_diag_error(d, "%s: $.schema: expected \"%s\"", where, MG_TIMINGS_SCHEMA);
    need(t, "date", cJSON_IsString, "the date of the run", where, "$", d);
    need(t, "device", cJSON_IsObject, "the device object", where, "$", d);
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(t, "device");
    if (cJSON_IsObject(dev)) {
        need(dev, "name", cJSON_IsString, "a string", where, "$.device", d);
        need(dev, "driver_version", cJSON_IsString, "a string", where, "$.device", d);
    }
    need(t, "kernels", cJSON_IsArray, "the array of kernels", where, "$", d);
    const cJSON *ks = cJSON_GetObjectItemCaseSensitive(t, "kernels");
    int nk = cJSON_IsArray(ks) ? cJSON_GetArraySize(ks) : -1;
    if (nk == 0) mg_diag_error(d, "%s: $.kernels: no kernels", where);
    if (nk > MG_SUITE_MAX)
        mg_diag_error(d, "%s: $.kernels: %d kernels, at most %d", where, nk, MG_SUITE_MAX);
    int i = 0;
    for (const cJSON *k = cJSON_IsArray(ks) ? ks->child : NULL; k; k = k->next, i++) {
        char p[64];
        snprintf(p, sizeof p, "$.kernels[%d]", i);
        if (!cJSON_IsObject(k)) {
            mg_diag_error(d, "%s: %s: expected an object, got %s", where, p, mg_json_type_name(k));
            continue;
        }
        need(k, "schedule", cJSON_IsString, "the canonical schedule", where, p, d);
        need(k, "status", cJSON_IsString, "ok|wrong|skip|error", where, p, d);
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(k, "status");
        if (!cJSON_IsString(st)) continue;
        const char *v = st->valuestring;
        if (strcmp(v, "ok") && strcmp(v, "wrong") && strcmp(v, "skip") && strcmp(v, "error")) {
            mg_diag_error(d, "%s: %s.status: expected ok|wrong|skip|error, got \"%s\"", where, p, v);
            continue;
        }
        if (strcmp(v, "ok")) {
            need(k, "reason", cJSON_IsString, "why it was not timed", where, p, d);
            continue;
        }
        char q[96];
        snprintf(q, sizeof q, "%s.ns", p);
        need(k, "ns", cJSON_IsObject, "{median, min, max, spread}", where, p, d);
        const cJSON *ns = cJSON_GetObjectItemCaseSensitive(k, "ns");
        if (!cJSON_IsObject(ns)) continue;
        static const char *const f[] = {"median", "min", "max", "spread"};
        for (int j = 0; j < 4; j++) {
            const cJSON *m = cJSON_GetObjectItemCaseSensitive(ns, f[j]);
            if (!finite_nonneg(m))
                mg_diag_error(d, "%s: %s.%s: expected a non-negative number, got %s", where, q,
                              f[j], mg_json_type_name(m));
        }
        const cJSON *mn = cJSON_GetObjectItemCaseSensitive(ns, "min"),
                    *md = cJSON_GetObjectItemCaseSensitive(ns, "median"),
                    *mx = cJSON_GetObjectItemCaseSensitive(ns, "max");
        if (finite_nonneg(mn) && finite_nonneg(md) && finite_nonneg(mx) &&
            !(mn->valuedouble <= md->valuedouble && md->valuedouble <= mx->valuedouble))
            mg_diag_error(d, "%s: %s: expected min <= median <= max, got %g, %g, %g", where, q,
                          mn->valuedouble, md->valuedouble, mx->valuedouble);
    }
    return d->n == before ? 0 : -1;
}
