/*
 * curvecmp.c - measured curves against the model's, point by point
 * (curvecmp.h).  Aspects compared: the bandwidth sweeps (footprint_sweep,
 * GB/s) and the pointer chases (range_sweep, ns per access).
 */
#include "sim/analysis/curvecmp.h"
#include "sim/analysis/profile.h"
#include "base/jsonfile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const cmp_aspects[] = {"bw_buffer", "bw_image", "bw_local", "bw_constant",
                                          "cache_buffer", "cache_image"};
#define NCMP (sizeof cmp_aspects / sizeof *cmp_aspects)

/* The first series of a profile's aspect's curves file (loaded into
 * *doc, caller frees), or NULL when the aspect or its curve is absent. */
static const cJSON *first_series(const char *path, const cJSON *prof, const char *aspect,
                                 cJSON **doc, mg_diag *d)
{
    *doc = NULL;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(prof, "aspects"), aspect);
    const cJSON *cv = cJSON_GetObjectItemCaseSensitive(a, "curve");
    if (!cJSON_IsString(cv)) return NULL;
    char file[4400];
    const char *sl = strrchr(path, '/');
    snprintf(file, sizeof file, "%.*s%s", sl ? (int)(sl - path + 1) : 0, path, cv->valuestring);
    *doc = mg_json_load(file, d);
    if (!*doc || mg_curve_validate(*doc, file, d)) return NULL;
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(*doc, "series"), 0);
}

/* The y of the point at x in series s (NAN when none or null). */
static double y_at(const cJSON *s, double x)
{
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(s, "points");
    for (const cJSON *p = pts ? pts->child : NULL; p; p = p->next) {
        const cJSON *px = cJSON_GetObjectItemCaseSensitive(p, "x");
        const cJSON *py = cJSON_GetObjectItemCaseSensitive(p, "y");
        if (cJSON_IsNumber(px) && px->valuedouble == x)
            return cJSON_IsNumber(py) ? py->valuedouble : NAN;
    }
    return NAN;
}

/* The exclusion of aspect's point x, or NULL. */
static const char *excluded(const cJSON *excl, const char *aspect, double x)
{
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(excl, "exclude");
    for (const cJSON *e = l ? l->child : NULL; e; e = e->next) {
        const cJSON *as = cJSON_GetObjectItemCaseSensitive(e, "aspect");
        const cJSON *fr = cJSON_GetObjectItemCaseSensitive(e, "from");
        const cJSON *to = cJSON_GetObjectItemCaseSensitive(e, "to");
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(e, "reason");
        if (cJSON_IsString(as) && !strcmp(as->valuestring, aspect) && cJSON_IsNumber(fr) &&
            cJSON_IsNumber(to) && x >= fr->valuedouble && x <= to->valuedouble &&
            cJSON_IsString(why))
            return why->valuestring;
    }
    return NULL;
}

/* One aspect's comparison, or NULL when either side lacks it. */
static cJSON *cmp_aspect(const char *mpath, const cJSON *mp, const char *vpath, const cJSON *vp,
                         const char *aspect, const cJSON *excl, mg_diag *d)
{
    cJSON *md, *vd;
    const cJSON *ms = first_series(mpath, mp, aspect, &md, d);
    const cJSON *vs = first_series(vpath, vp, aspect, &vd, d);
    cJSON *o = NULL;
    if (!ms || !vs) goto done;
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "aspect", aspect);
    cJSON *pts = cJSON_AddArrayToObject(o, "points");
    double sum = 0, worst = 0;
    int n = 0, nx = 0;
    const cJSON *mpts = cJSON_GetObjectItemCaseSensitive(ms, "points");
    for (const cJSON *p = mpts ? mpts->child : NULL; p; p = p->next) {
        const cJSON *px = cJSON_GetObjectItemCaseSensitive(p, "x");
        const cJSON *py = cJSON_GetObjectItemCaseSensitive(p, "y");
        if (!cJSON_IsNumber(px) || !cJSON_IsNumber(py) || py->valuedouble <= 0) continue;
        double x = px->valuedouble, ym = py->valuedouble, yv = y_at(vs, x);
        if (!isfinite(yv)) continue;
        cJSON *q = cJSON_CreateObject();
        cJSON_AddNumberToObject(q, "x", x);
        cJSON_AddNumberToObject(q, "measured", ym);
        cJSON_AddNumberToObject(q, "model", yv);
        double err = fabs(yv - ym) / ym;
        cJSON_AddNumberToObject(q, "error", round(err * 1e4) / 1e4);
        const char *why = excluded(excl, aspect, x);
        if (why) {
            cJSON_AddStringToObject(q, "excluded", why);
            nx++;
        } else {
            sum += err;
            worst = fmax(worst, err);
            n++;
        }
        cJSON_AddItemToArray(pts, q);
    }
    cJSON_AddNumberToObject(o, "compared", n);
    cJSON_AddNumberToObject(o, "excluded", nx);
    cJSON_AddNumberToObject(o, "mean_error_pct", n ? round(1e4 * sum / n) / 100 : 0);
    cJSON_AddNumberToObject(o, "max_error_pct", round(1e4 * worst) / 100);
    double km, kv;
    int hm = !mg_profile_number(mp, aspect, "first_drop_bytes", &km, NULL);
    int hv = !mg_profile_number(vp, aspect, "first_drop_bytes", &kv, NULL);
    if (hm) cJSON_AddNumberToObject(o, "knee_measured", km);
    else cJSON_AddNullToObject(o, "knee_measured");
    if (hv) cJSON_AddNumberToObject(o, "knee_model", kv);
    else cJSON_AddNullToObject(o, "knee_model");
    if (hm && hv) cJSON_AddBoolToObject(o, "knee_within_one_step",
                                        fmax(km, kv) <= 2 * fmin(km, kv));
done:
    cJSON_Delete(md);
    cJSON_Delete(vd);
    return o;
}

cJSON *mg_curvecmp(const char *measured, const char *model, const cJSON *excl, mg_diag *d)
{
    cJSON *mp = mg_profile_load(measured, d), *vp = mp ? mg_profile_load(model, d) : NULL;
    cJSON *rep = NULL;
    if (!mp || !vp) goto done;
    rep = cJSON_CreateObject();
    cJSON_AddStringToObject(rep, "schema", "mgsim-compare/1");
    cJSON_AddStringToObject(rep, "measured", measured);
    cJSON_AddStringToObject(rep, "model", model);
    cJSON *cs = cJSON_AddArrayToObject(rep, "curves");
    for (size_t i = 0; i < NCMP; i++) {
        cJSON *c = cmp_aspect(measured, mp, model, vp, cmp_aspects[i], excl, d);
        if (mg_diag_failed(d)) {
            cJSON_Delete(c);
            cJSON_Delete(rep);
            rep = NULL;
            goto done;
        }
        if (c) cJSON_AddItemToArray(cs, c);
    }
done:
    cJSON_Delete(mp);
    cJSON_Delete(vp);
    return rep;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

void mg_curvecmp_print(FILE *f, const cJSON *rep)
{
    fprintf(f, "%-13s %8s %8s %10s %10s %12s %12s %s\n", "curve", "points", "excluded",
            "mean err%", "max err%", "knee meas.", "knee model", "within 1 step");
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(rep, "curves");
    for (const cJSON *c = cs ? cs->child : NULL; c; c = c->next) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(c, "aspect");
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(c, "knee_within_one_step");
        fprintf(f, "%-13s %8.0f %8.0f %10.2f %10.2f %12.0f %12.0f %s\n", a->valuestring,
                num(c, "compared"), num(c, "excluded"), num(c, "mean_error_pct"),
                num(c, "max_error_pct"), num(c, "knee_measured"), num(c, "knee_model"),
                cJSON_IsBool(w) ? (cJSON_IsTrue(w) ? "yes" : "no") : "-");
    }
    fprintf(f, "\nexcluded points:\n");
    for (const cJSON *c = cs ? cs->child : NULL; c; c = c->next) {
        const cJSON *pts = cJSON_GetObjectItemCaseSensitive(c, "points");
        for (const cJSON *p = pts ? pts->child : NULL; p; p = p->next) {
            const cJSON *why = cJSON_GetObjectItemCaseSensitive(p, "excluded");
            if (cJSON_IsString(why))
                fprintf(f, "  %s x=%.0f: measured %.4g, model %.4g: %s\n",
                        cJSON_GetObjectItemCaseSensitive(c, "aspect")->valuestring, num(p, "x"),
                        num(p, "measured"), num(p, "model"), why->valuestring);
        }
    }
}
