/*
 * plot_curves.c - `mgsim plot regs` and `mgsim plot chase`: a probe
 * profile's measured curves (configs/PROFILE.md), from `mgprobe run` on a
 * real device or `mgsim vprobe` on the model (the same schema).
 *
 * INPUT is a profile (mgsim-profile/1; each aspect's curves file is found
 * relative to the profile's folder, as its "curve" key says) or one curves
 * file (mgsim-curve/1) of the right aspect.
 *
 * regs (plots/regs.gp), aspect `regs`:
 *   r.dat   block per series whose x is "regs": latency per register update
 *           vs registers per item (rlabel_i: its work-group size)
 *   rf.dat  launches that failed, drawn at the top of the left panel
 *   g.dat   block per series whose x is "groups": latency vs groups at once
 *           (glabel_i: the group size and registers)
 *   maxregs the profile's regs.max_regs_per_item (0: none)
 * chase (plots/chase.gp), aspects `cache_buffer` and `cache_image`:
 *   c.dat   block per memory kind (ckind_i, clabel_i): the random pointer
 *           chase's ns per access vs footprint ("range_sweep")
 *   vlx_i, vlk_i, vltag_i: the cache sizes the profile concluded (their
 *           list ends the curve's label)
 * Both set logy when the curves span more than a factor of 10.
 */
#include "sim/analysis/profile.h"
#include "sim/plot/plot.h"
#include "base/jsonfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The document of INPUT: a profile with its curves of `aspect`, or a
 * curves file itself.  Returns the curves document (the caller hands it
 * back with mg_plot_unload) or NULL: with a message in d, or silently
 * (*absent = 1) when a profile lacks the aspect or its curve and
 * `optional` is set. */
static cJSON *load_curves(mg_plot_job *job, const char *file, const cJSON *prof,
                          const char *aspect, int optional, int *absent, mg_diag *d)
{
    *absent = 0;
    if (!prof) {
        cJSON *c = mg_plot_load(job, file, d);
        if (!c) return NULL;
        if (mg_curve_validate(c, file, d)) {
            mg_plot_unload(job, c);
            return NULL;
        }
        return c;
    }
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(prof, "aspects"), aspect);
    const cJSON *cv = cJSON_GetObjectItemCaseSensitive(a, "curve");
    if (!cJSON_IsString(cv)) {
        *absent = 1;
        if (!optional)
            mg_diag_error(d, "%s: $.aspects.%s%s: the profile has no %s curve", file, aspect,
                          a ? ".curve" : "", aspect);
        return NULL;
    }
    const char *slash = strrchr(file, '/');
    size_t dl = slash ? (size_t)(slash - file + 1) : 0;
    char *p = malloc(dl + strlen(cv->valuestring) + 1);
    if (!p) {
        mg_diag_error(d, "out of memory");
        return NULL;
    }
    memcpy(p, file, dl);
    strcpy(p + dl, cv->valuestring);
    cJSON *c = mg_plot_load(job, p, d);
    if (c && mg_curve_validate(c, p, d)) {
        mg_plot_unload(job, c);
        c = NULL;
    }
    if (c) {
        const cJSON *an = cJSON_GetObjectItemCaseSensitive(c, "aspect");
        if (strcmp(an->valuestring, aspect)) {
            mg_diag_error(d, "%s: $.aspect: \"%s\", expected \"%s\" (from %s: $.aspects.%s."
                          "curve)", p, an->valuestring, aspect, file, aspect);
            mg_plot_unload(job, c);
            c = NULL;
        }
    }
    free(p);
    return c;
}

/* INPUT's document into *prof when it is a profile (validated; hand it
 * back with mg_plot_unload), else NULL when it is a curves file; -1 on an
 * error. */
static int open_input(mg_plot_job *job, const char *file, cJSON **prof, mg_diag *d)
{
    *prof = NULL;
    cJSON *j = mg_plot_load(job, file, d);
    if (!j) return -1;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "schema");
    if (cJSON_IsString(s) && !strcmp(s->valuestring, MG_CURVE_SCHEMA)) {
        mg_plot_unload(job, j);
        return 0;
    }
    if (!cJSON_IsString(s) || strcmp(s->valuestring, MG_PROFILE_SCHEMA)) {
        mg_diag_error(d, "%s: $.schema: expected \"%s\" (a probe profile) or \"%s\" (its "
                      "curves), got %s", file, MG_PROFILE_SCHEMA, MG_CURVE_SCHEMA,
                      cJSON_IsString(s) ? s->valuestring : mg_json_type_name(s));
        mg_plot_unload(job, j);
        return -1;
    }
    if (mg_profile_validate(j, file, d)) {
        mg_plot_unload(job, j);
        return -1;
    }
    *prof = j;
    return 0;
}

/* The point's value of key=N in its "schedule" string, or 0. */
static long sched_value(const cJSON *pt, const char *key)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(pt, "schedule");
    if (!cJSON_IsString(s)) return 0;
    size_t kl = strlen(key);
    for (const char *p = s->valuestring; (p = strstr(p, key)) != NULL; p += kl)
        if ((p == s->valuestring || p[-1] == ' ') && p[kl] == '=') {
            long v = 1;
            const char *q = p + kl + 1;
            /* "wg=64,1,1": the product */
            for (;;) {
                char *e;
                long x = strtol(q, &e, 10);
                if (e == q) return 0;
                v *= x;
                if (*e != ',') return v;
                q = e + 1;
            }
        }
    return 0;
}

typedef struct yrange {
    double lo, hi;
} yrange;

/* Write the series' usable points sorted by x as one block; failed ones
 * (y null) to fail (when not NULL) as x only.  Returns the points written. */
static int write_series(FILE *f, int block, const cJSON *s, FILE *fail, int *nfail,
                        yrange *yr)
{
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(s, "points");
    int n = cJSON_GetArraySize(pts), m = 0;
    double (*xy)[2] = malloc((size_t)(n ? n : 1) * sizeof *xy);
    if (!xy) return 0;
    const cJSON *pt;
    cJSON_ArrayForEach(pt, pts) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(pt, "x");
        const cJSON *y = cJSON_GetObjectItemCaseSensitive(pt, "y");
        if (!cJSON_IsNumber(y) || !(y->valuedouble > 0)) {
            if (fail) {
                mg_plot_row(fail, 1, &x->valuedouble);
                ++*nfail;
            }
            continue;
        }
        int i = m++;
        while (i > 0 && xy[i - 1][0] > x->valuedouble) {
            xy[i][0] = xy[i - 1][0];
            xy[i][1] = xy[i - 1][1];
            i--;
        }
        xy[i][0] = x->valuedouble;
        xy[i][1] = y->valuedouble;
        yr->lo = fmin(yr->lo, y->valuedouble);
        yr->hi = fmax(yr->hi, y->valuedouble);
    }
    fprintf(f, "%s", block ? "\n\n" : "");
    for (int i = 0; i < m; i++) mg_plot_row(f, 2, xy[i]);
    if (!m) fprintf(f, "NaN NaN\n");   /* keep the block so indexes line up */
    free(xy);
    return m;
}

static const cJSON *first_ok_point(const cJSON *s)
{
    const cJSON *pt;
    cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(s, "points"))
        if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(pt, "y"))) return pt;
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "points"), 0);
}

static void device_title(mg_plot_job *job, const cJSON *prof, const cJSON *curves)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(prof, "device"), "name");
    if (!prof) n = cJSON_GetObjectItemCaseSensitive(curves, "device");
    mg_plot_var_str(job, "device", cJSON_IsString(n) ? n->valuestring : "?");
}

int mg_plot_prepare_regs(mg_plot_job *job, int n, char **inputs, mg_diag *d)
{
    (void)n;
    const char *file = inputs[0];
    cJSON *prof, *c = NULL;
    int absent, rc = -1;
    FILE *r = NULL, *g = NULL, *rf = NULL;
    int nfail = 0;
    if (open_input(job, file, &prof, d)) return -1;
    c = load_curves(job, file, prof, "regs", 0, &absent, d);
    if (!c) goto done;
    if (strcmp(cJSON_GetObjectItemCaseSensitive(c, "aspect")->valuestring, "regs")) {
        mg_diag_error(d, "%s: $.aspect: expected \"regs\" curves, got \"%s\"", file,
                      cJSON_GetObjectItemCaseSensitive(c, "aspect")->valuestring);
        goto done;
    }
    r = mg_plot_data_open(job, "r.dat", d);
    g = r ? mg_plot_data_open(job, "g.dat", d) : NULL;
    rf = g ? mg_plot_data_open(job, "rf.dat", d) : NULL;
    if (!rf) goto done;
    int nr = 0, ng = 0, pts = 0;
    yrange yr = {INFINITY, 0}, yg = {INFINITY, 0};
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(c, "series")) {
        const char *x = cJSON_GetObjectItemCaseSensitive(s, "x")->valuestring;
        const cJSON *p0 = first_ok_point(s);
        char v[32];
        if (!strcmp(x, "regs")) {
            pts += write_series(r, nr, s, rf, &nfail, &yr);
            snprintf(v, sizeof v, "rlabel%d", ++nr);
            long items = sched_value(p0, "wg");
            if (items) mg_plot_var_strf(job, v, "work group of %ld items", items);
            else mg_plot_var_str(job, v, cJSON_GetObjectItemCaseSensitive(s, "name")->valuestring);
        } else if (!strcmp(x, "groups")) {
            pts += write_series(g, ng, s, NULL, NULL, &yg);
            snprintf(v, sizeof v, "glabel%d", ++ng);
            long items = sched_value(p0, "wg"), regs = sched_value(p0, "regs");
            if (items && regs)
                mg_plot_var_strf(job, v, "groups of %ld items, %ld live values", items, regs);
            else mg_plot_var_str(job, v, cJSON_GetObjectItemCaseSensitive(s, "name")->valuestring);
        }
    }
    if (!nfail) fprintf(rf, "NaN\n");
    if (!nr || !pts) {
        mg_diag_error(d, "%s: no measured point of latency vs registers per item", file);
        goto done;
    }
    double maxregs = 0;
    if (prof) mg_profile_number(prof, "regs", "max_regs_per_item", &maxregs, NULL);
    device_title(job, prof, c);
    mg_plot_var_num(job, "nr", nr);
    mg_plot_var_num(job, "ng", ng);
    mg_plot_var_num(job, "maxregs", maxregs);
    mg_plot_var_num(job, "nfail", nfail);
    mg_plot_var_num(job, "logy", yr.hi > 10 * yr.lo);
    mg_plot_var_num(job, "logyg", ng && yg.hi > 10 * yg.lo);
    /* failed launches sit just above the highest point */
    mg_plot_var_num(job, "failtop", yr.hi > 10 * yr.lo ? yr.hi * 1.6 : yr.hi * 1.08);
    snprintf(job->summary, sizeof job->summary, "register curves (%d series by registers, "
             "%d by groups)", nr, ng);
    rc = 0;
done:
    if (r && mg_plot_data_close(job, r, "r.dat", d)) rc = -1;
    if (g && mg_plot_data_close(job, g, "g.dat", d)) rc = -1;
    if (rf && mg_plot_data_close(job, rf, "rf.dat", d)) rc = -1;
    mg_plot_unload(job, c);
    mg_plot_unload(job, prof);
    return rc;
}

/* The device's global memory cache size (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE
 * in the profile's device object: the L2 on GPUs), or 0. */
static double global_cache(const cJSON *prof)
{
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(prof, "device");
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(dev, "global_mem_cache_size");
    return cJSON_IsNumber(g) ? g->valuedouble : 0;
}

/* Cache sizes the profile concluded for aspect: vertical lines (vlx_i,
 * vlk_i, vltag_i "L1"), and their list for the key in sizes ("" if none).
 * The probe's l1_size is the first cache the chase meets; where that size
 * is the device's global memory cache (buffers going straight to the L2,
 * as on Adreno) it is tagged L2, and the levels after it L3... */
static int size_lines(mg_plot_job *job, const cJSON *prof, const char *aspect, int kind, int nvl,
                      char *sizes, size_t len)
{
    static const char *const keys[] = {"l1_size", "l2_size", "l3_size", "l4_size"};
    double gmc = global_cache(prof);
    int shift = 0;
    sizes[0] = 0;
    for (int i = 0; i < 4; i++) {
        double v;
        if (mg_profile_number(prof, aspect, keys[i], &v, NULL) || v <= 0) continue;
        int lv = i + 1 + shift;
        if (v == gmc && lv < 2) shift += 2 - lv, lv = 2;
        char k[32];
        nvl++;
        snprintf(k, sizeof k, "vlx%d", nvl);
        mg_plot_var_num(job, k, v);
        snprintf(k, sizeof k, "vlk%d", nvl);
        mg_plot_var_num(job, k, kind);
        snprintf(k, sizeof k, "vltag%d", nvl);
        mg_plot_var_strf(job, k, "L%d", lv);
        size_t o = strlen(sizes);
        if (v >= 1 << 20)
            snprintf(sizes + o, len - o, "%sL%d %.3g MiB", o ? ", " : "", lv, v / (1 << 20));
        else
            snprintf(sizes + o, len - o, "%sL%d %.3g KiB", o ? ", " : "", lv, v / 1024);
    }
    return nvl;
}

int mg_plot_prepare_chase(mg_plot_job *job, int n, char **inputs, mg_diag *d)
{
    (void)n;
    static const char *const aspects[] = {"cache_buffer", "cache_image"};
    static const char *const labels[] = {"buffer (global memory)", "image (texture path)"};
    const char *file = inputs[0];
    cJSON *prof;
    if (open_input(job, file, &prof, d)) return -1;
    FILE *f = mg_plot_data_open(job, "c.dat", d);
    int rc = f ? 0 : -1, nc = 0, nvl = 0, pts = 0;
    yrange yr = {INFINITY, 0};
    const cJSON *dev_curves = NULL;
    cJSON *keep[2] = {NULL, NULL};
    for (int a = 0; a < 2 && !rc; a++) {
        int absent;
        cJSON *c = load_curves(job, file, prof, aspects[a], 1, &absent, d);
        if (!c) {
            if (!absent) rc = -1;
            continue;
        }
        keep[a] = c;
        const char *an = cJSON_GetObjectItemCaseSensitive(c, "aspect")->valuestring;
        int kind = !strcmp(an, "cache_buffer") ? 1 : !strcmp(an, "cache_image") ? 2 : 0;
        if (!prof && !kind) {
            mg_diag_error(d, "%s: $.aspect: expected \"cache_buffer\" or \"cache_image\" "
                          "curves, got \"%s\"", file, an);
            rc = -1;
            break;
        }
        dev_curves = c;
        const cJSON *s;
        cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(c, "series")) {
            if (strcmp(cJSON_GetObjectItemCaseSensitive(s, "x")->valuestring,
                       "footprint_bytes"))
                continue;
            pts += write_series(f, nc, s, NULL, NULL, &yr);
            char v[32], sizes[200] = "";
            snprintf(v, sizeof v, "ckind%d", ++nc);
            mg_plot_var_num(job, v, kind);
            snprintf(v, sizeof v, "clabel%d", nc);
            if (prof) nvl = size_lines(job, prof, an, kind, nvl, sizes, sizeof sizes);
            if (sizes[0])
                mg_plot_var_strf(job, v, "%s; profile: %s", labels[kind - 1], sizes);
            else
                mg_plot_var_str(job, v, labels[kind - 1]);
            break;
        }
        if (!prof) break;    /* a curves file is one aspect */
    }
    if (!rc && (!nc || !pts)) {
        mg_diag_error(d, "%s: no pointer-chase curve (cache_buffer or cache_image "
                      "range_sweep with measured points)", file);
        rc = -1;
    }
    if (!rc) {
        device_title(job, prof, dev_curves);
        mg_plot_var_num(job, "nc", nc);
        mg_plot_var_num(job, "nvl", nvl);
        mg_plot_var_num(job, "logy", yr.hi > 10 * yr.lo);
        snprintf(job->summary, sizeof job->summary, "pointer-chase latency, %d curve%s, %d "
                 "cache size%s", nc, nc == 1 ? "" : "s", nvl, nvl == 1 ? "" : "s");
    }
    if (f && mg_plot_data_close(job, f, "c.dat", d)) rc = -1;
    mg_plot_unload(job, keep[0]);
    mg_plot_unload(job, keep[1]);
    mg_plot_unload(job, prof);
    return rc;
}
