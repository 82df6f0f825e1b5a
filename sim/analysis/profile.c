/* profile.c - profile and curve schemas: validation and readers (see
 * profile.h and configs/PROFILE.md). */
#include "sim/analysis/profile.h"
#include "base/jsonfile.h"
#include "base/strsim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const mg_profile_aspects[] = {
    "warp", "flops", "alu", "regs", "cache_buffer", "cache_image", "bw_buffer", "bw_image",
    "bw_local", "bw_constant", "dram", "rstride2d", "vload", "lsu", NULL,
};

const char *const mg_profile_statuses[] = {
    "ok", "undetermined", "error", "skipped", "interrupted", "timeout", NULL,
};

/* Index of s in the NULL-terminated list, or -1. */
static int find(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], s)) return i;
    return -1;
}

static size_t count(const char *const *list)
{
    size_t n = 0;
    while (list[n]) n++;
    return n;
}

int mg_profile_is_aspect(const char *name) { return find(mg_profile_aspects, name) >= 0; }

int mg_profile_status_final(const char *status)
{
    return !strcmp(status, "ok") || !strcmp(status, "undetermined") ||
           !strcmp(status, "skipped");
}

/* Validation context: the document name and the problems. */
typedef struct vctx {
    const char *where;
    mg_diag    *d;
} vctx;

static void bad(vctx *v, const char *path, const char *what, const cJSON *got)
{
    mg_diag_error(v->d, "%s: %s: expected %s, got %s", v->where, path, what,
                  mg_json_type_name(got));
}

/* Member `key` of object o, which must have type check (NULL: any); when
 * required and missing, an error.  Returns the member or NULL. */
static const cJSON *member(vctx *v, const cJSON *o, const char *path, const char *key,
                           cJSON_bool (*check)(const cJSON *), const char *what, int required)
{
    char p[256];
    snprintf(p, sizeof p, "%s.%s", path, key);
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!m) {
        if (required) mg_diag_error(v->d, "%s: %s: missing required key (%s)", v->where, p, what);
        return NULL;
    }
    if (check && !check(m)) {
        bad(v, p, what, m);
        return NULL;
    }
    return m;
}

/* True when path names a file under the folder it is relative to: not
 * empty, not absolute, no ".." component. */
static int inside_folder(const char *path)
{
    if (!path[0] || path[0] == '/') return 0;
    for (const char *c = path; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 2 && c[0] == '.' && c[1] == '.') return 0;
        c += n;
        if (*c) c++;
    }
    return 1;
}

/* A number in [lo, hi] or (null_ok) null. */
static void check_range(vctx *v, const cJSON *m, const char *path, double lo, double hi,
                        int null_ok)
{
    if (!m) return;
    if (null_ok && cJSON_IsNull(m)) return;
    if (!cJSON_IsNumber(m) || !isfinite(m->valuedouble) || m->valuedouble < lo ||
        m->valuedouble > hi) {
        char what[96];
        snprintf(what, sizeof what, "a number in [%g, %g]%s", lo, hi, null_ok ? " or null" : "");
        if (cJSON_IsNumber(m))
            mg_diag_error(v->d, "%s: %s: expected %s, got %g", v->where, path, what,
                          m->valuedouble);
        else
            bad(v, path, what, m);
    }
}

static void check_device(vctx *v, const cJSON *dev)
{
    const char *path = "$.device";
    member(v, dev, path, "name", cJSON_IsString, "the device name (a string)", 1);
    member(v, dev, path, "driver_version", cJSON_IsString, "the driver version (a string)", 1);
    static const char *const positive[] = {"max_clock_mhz", "compute_units",
                                           "max_work_group_size", NULL};
    for (const cJSON *m = dev->child; m; m = m->next) {
        char p[256];
        snprintf(p, sizeof p, "%s.%s", path, m->string);
        if (cJSON_IsNumber(m)) {              /* what calibrate reads: never below 0 */
            int pos = find(positive, m->string) >= 0;
            if (m->valuedouble < 0 || (pos && m->valuedouble == 0))
                mg_diag_error(v->d, "%s: %s: expected a %s number, got %g", v->where, p,
                              pos ? "positive" : "non-negative", m->valuedouble);
            continue;
        }
        if (!cJSON_IsObject(m) && !cJSON_IsInvalid(m)) continue;
        bad(v, p, "a string, number, boolean, null or array (as clGetDeviceInfo reported)", m);
    }
}

static void check_conclusion(vctx *v, const cJSON *c, const char *apath)
{
    for (const cJSON *k = c->child; k; k = k->next) {
        char p[256], q[300];
        snprintf(p, sizeof p, "%s.conclusion.%s", apath, k->string);
        if (!cJSON_IsObject(k)) {
            bad(v, p, "an object {value, unit, confidence, method}", k);
            continue;
        }
        const cJSON *val = cJSON_GetObjectItemCaseSensitive(k, "value");
        snprintf(q, sizeof q, "%s.value", p);
        if (!val)
            mg_diag_error(v->d, "%s: %s: missing required key (a number, string, boolean or "
                          "null)", v->where, q);
        else if (!cJSON_IsNumber(val) && !cJSON_IsString(val) && !cJSON_IsBool(val) &&
                 !cJSON_IsNull(val))
            bad(v, q, "a number, string, boolean or null", val);
        else if (cJSON_IsNumber(val) && !isfinite(val->valuedouble))
            mg_diag_error(v->d, "%s: %s: expected a finite number", v->where, q);
        else if (cJSON_IsNumber(val) && val->valuedouble < 0)   /* sizes, times, rates */
            mg_diag_error(v->d, "%s: %s: expected a non-negative number, got %g", v->where, q,
                          val->valuedouble);
        if (val && cJSON_IsNull(val))
            member(v, k, p, "why", cJSON_IsString, "why the value is undetermined", 1);
        snprintf(q, sizeof q, "%s.confidence", p);
        check_range(v, cJSON_GetObjectItemCaseSensitive(k, "confidence"), q, 0, 1, 1);
        member(v, k, p, "unit", cJSON_IsString, "a string", 0);
        member(v, k, p, "method", cJSON_IsString, "a string", 0);
    }
}

static void check_aspect(vctx *v, const cJSON *a, const char *name)
{
    char path[128], p[200];
    snprintf(path, sizeof path, "$.aspects.%s", name);
    if (!cJSON_IsObject(a)) {
        bad(v, path, "an object", a);
        return;
    }
    const cJSON *st = member(v, a, path, "status", cJSON_IsString, "a status string", 1);
    if (st && find(mg_profile_statuses, st->valuestring) < 0) {
        snprintf(p, sizeof p, "%s.status", path);
        mg_diag_error(v->d, "%s: %s: expected one of ok|undetermined|error|skipped|interrupted|"
                      "timeout, got \"%s\"", v->where, p, st->valuestring);
        st = NULL;
    }
    if (st && strcmp(st->valuestring, "ok") && strcmp(st->valuestring, "undetermined"))
        member(v, a, path, "error", cJSON_IsString, "what went wrong (a string)", 1);
    else
        member(v, a, path, "error", cJSON_IsString, "a string", 0);
    snprintf(p, sizeof p, "%s.confidence", path);
    check_range(v, cJSON_GetObjectItemCaseSensitive(a, "confidence"), p, 0, 1, 1);
    snprintf(p, sizeof p, "%s.seconds", path);
    check_range(v, cJSON_GetObjectItemCaseSensitive(a, "seconds"), p, 0, 1e9, 0);
    const cJSON *cv = member(v, a, path, "curve", cJSON_IsString, "a file name", 0);
    if (cv && !inside_folder(cv->valuestring)) {
        snprintf(p, sizeof p, "%s.curve", path);
        mg_diag_error(v->d, "%s: %s: expected a file in the profile's folder (a relative path "
                      "without '..'), got \"%s\"", v->where, p, cv->valuestring);
    }
    member(v, a, path, "date", cJSON_IsString, "a date", 0);
    const cJSON *c = member(v, a, path, "conclusion", cJSON_IsObject, "an object", 0);
    if (c) check_conclusion(v, c, path);
    const cJSON *notes = member(v, a, path, "notes", cJSON_IsArray, "an array of strings", 0);
    for (const cJSON *n = notes ? notes->child : NULL; n; n = n->next)
        if (!cJSON_IsString(n)) {
            snprintf(p, sizeof p, "%s.notes[]", path);
            bad(v, p, "a string", n);
        }
}

/* The "schema" member must be exactly `want`. */
static void check_schema(vctx *v, const cJSON *doc, const char *want)
{
    const cJSON *s = member(v, doc, "$", "schema", cJSON_IsString, want, 1);
    if (s && strcmp(s->valuestring, want))
        mg_diag_error(v->d, "%s: $.schema: expected \"%s\", got \"%s\"", v->where, want,
                      s->valuestring);
}

int mg_profile_validate(const cJSON *p, const char *where, mg_diag *d)
{
    size_t before = d->n;
    vctx v = {where, d};
    if (!cJSON_IsObject(p)) {
        bad(&v, "$", "a profile object", p);
        return -1;
    }
    check_schema(&v, p, MG_PROFILE_SCHEMA);
    member(&v, p, "$", "tool", cJSON_IsString, "a string", 0);
    member(&v, p, "$", "started", cJSON_IsString, "the date the run started", 1);
    member(&v, p, "$", "updated", cJSON_IsString, "a date", 0);
    const cJSON *dev = member(&v, p, "$", "device", cJSON_IsObject, "the device object", 1);
    if (dev) check_device(&v, dev);
    member(&v, p, "$", "settings", cJSON_IsObject, "an object", 0);
    const cJSON *as = member(&v, p, "$", "aspects", cJSON_IsObject, "an object of aspects", 1);
    for (const cJSON *a = as ? as->child : NULL; a; a = a->next) {
        if (!mg_profile_is_aspect(a->string)) {
            mg_hint h;
            mg_diag_error(d, "%s: $.aspects.%s: unknown aspect%s", where, a->string,
                          mg_hint_near(&h, a->string, mg_profile_aspects,
                                       count(mg_profile_aspects), "\""));
            continue;
        }
        check_aspect(&v, a, a->string);
    }
    for (const cJSON *k = p->child; k; k = k->next) {
        static const char *const known[] = {"schema", "tool", "started", "updated", "device",
                                            "settings", "aspects", NULL};
        if (find(known, k->string) < 0) {
            mg_hint h;
            mg_diag_error(d, "%s: $.%s: unknown key%s", where, k->string,
                          mg_hint_near(&h, k->string, known, count(known), "\""));
        }
    }
    return d->n == before ? 0 : -1;
}

int mg_curve_validate(const cJSON *c, const char *where, mg_diag *d)
{
    size_t before = d->n;
    vctx v = {where, d};
    if (!cJSON_IsObject(c)) {
        bad(&v, "$", "a curves object", c);
        return -1;
    }
    check_schema(&v, c, MG_CURVE_SCHEMA);
    const cJSON *a = member(&v, c, "$", "aspect", cJSON_IsString, "the aspect name", 1);
    if (a && !mg_profile_is_aspect(a->valuestring))
        mg_diag_error(d, "%s: $.aspect: unknown aspect \"%s\"", where, a->valuestring);
    const cJSON *ss = member(&v, c, "$", "series", cJSON_IsArray, "an array of series", 1);
    int i = 0;
    for (const cJSON *s = ss ? ss->child : NULL; s; s = s->next, i++) {
        char p[64];
        snprintf(p, sizeof p, "$.series[%d]", i);
        if (!cJSON_IsObject(s)) {
            bad(&v, p, "an object", s);
            continue;
        }
        member(&v, s, p, "name", cJSON_IsString, "a string", 1);
        member(&v, s, p, "x", cJSON_IsString, "the x axis name", 1);
        member(&v, s, p, "y", cJSON_IsString, "the y axis name", 1);
        const cJSON *pts = member(&v, s, p, "points", cJSON_IsArray, "an array of points", 1);
        int j = 0;
        for (const cJSON *pt = pts ? pts->child : NULL; pt; pt = pt->next, j++) {
            char q[96];
            snprintf(q, sizeof q, "%s.points[%d]", p, j);
            if (!cJSON_IsObject(pt)) {
                bad(&v, q, "an object {x, y, ...}", pt);
                continue;
            }
            char r[128];
            snprintf(r, sizeof r, "%s.x", q);
            check_range(&v, cJSON_GetObjectItemCaseSensitive(pt, "x"), r, -1e300, 1e300, 0);
            if (!cJSON_GetObjectItemCaseSensitive(pt, "x"))
                mg_diag_error(d, "%s: %s: missing required key (a number)", where, r);
            snprintf(r, sizeof r, "%s.y", q);
            const cJSON *y = cJSON_GetObjectItemCaseSensitive(pt, "y");
            if (!y) mg_diag_error(d, "%s: %s: missing required key (a number or null)", where, r);
            else check_range(&v, y, r, -1e300, 1e300, 1);
        }
    }
    return d->n == before ? 0 : -1;
}

cJSON *mg_profile_load(const char *path, mg_diag *d)
{
    cJSON *p = mg_json_load(path, d);
    if (!p) return NULL;
    if (mg_profile_validate(p, path, d)) {
        cJSON_Delete(p);
        return NULL;
    }
    return p;
}

int mg_profile_number(const cJSON *p, const char *aspect, const char *key, double *v,
                      double *conf)
{
    const cJSON *as = cJSON_GetObjectItemCaseSensitive(p, "aspects");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(as, aspect);
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(a, "status");
    if (!cJSON_IsString(st) ||
        (strcmp(st->valuestring, "ok") && strcmp(st->valuestring, "undetermined")))
        return -1;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(a, "conclusion"), key);
    const cJSON *val = cJSON_GetObjectItemCaseSensitive(k, "value");
    if (!cJSON_IsNumber(val)) return -1;
    *v = val->valuedouble;
    if (conf) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(k, "confidence");
        *conf = cJSON_IsNumber(c) ? c->valuedouble : -1;
    }
    return 0;
}
