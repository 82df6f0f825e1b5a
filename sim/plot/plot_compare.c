/*
 * plot_compare.c - `mgsim plot compare`: a curve comparison of `mgsim
 * compare -o REPORT.json` (schema mgsim-compare/1: a measured profile's
 * curves against a model's, point by point), one panel per curve.
 *
 * c.dat   block per curve (in the report's order): x, measured, model,
 *         and the measured value again where the point is excluded (the
 *         report's reason), else NaN
 * cname_i the curve's aspect, cerr_i its mean error (%), cn_i the points
 *         compared, cx_i the points excluded, cbw_i 1 for a bandwidth
 *         curve (GB/s), 0 for a latency (ns)
 * nc, measured, model (the two profiles' names, as the report gives them)
 */
#include "sim/plot/plot.h"
#include "base/jsonfile.h"

#include <math.h>
#include <string.h>

/* One curve's block into f; -1 with a message in d on a bad point. */
static int compare_block(FILE *f, const cJSON *c, const char *file, int i, mg_diag *d)
{
    char path[64];
    snprintf(path, sizeof path, "$.curves[%d].points", i);
    const cJSON *pts = mg_plot_get_arr(c, "points", file, path, d), *p;
    if (!pts) return -1;
    if (i) fprintf(f, "\n\n");
    int k = 0, n = 0;
    cJSON_ArrayForEach(p, pts) {
        double v[4];
        char pp[96];
        snprintf(pp, sizeof pp, "%s[%d]", path, k++);
        if (mg_plot_get_pos(p, "x", file, pp, &v[0], d) ||
            mg_plot_get_num(p, "measured", file, pp, &v[1], d) ||
            mg_plot_get_num(p, "model", file, pp, &v[2], d))
            return -1;
        v[3] = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(p, "excluded")) ? v[1] : NAN;
        mg_plot_row(f, 4, v);
        n++;
    }
    if (!n) fprintf(f, "NaN NaN NaN NaN\n");   /* keep the block so indexes line up */
    return 0;
}

/* The curve's names and figures into meta.gp as cname_i ... (i from 1). */
static int compare_vars(mg_plot_job *job, const cJSON *c, const char *file, int i, mg_diag *d)
{
    char path[64], k[32];
    snprintf(path, sizeof path, "$.curves[%d]", i);
    const char *aspect;
    double err = NAN, cmp = 0, exc = 0;
    if (mg_plot_get_str(c, "aspect", file, path, &aspect, d)) return -1;
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(c, "mean_error_pct");
    if (cJSON_IsNumber(e)) err = e->valuedouble;
    if (mg_plot_get_num(c, "compared", file, path, &cmp, d) ||
        mg_plot_get_num(c, "excluded", file, path, &exc, d))
        return -1;
    snprintf(k, sizeof k, "cname%d", i + 1);
    mg_plot_var_str(job, k, aspect);
    snprintf(k, sizeof k, "cerr%d", i + 1);
    mg_plot_var_num(job, k, isfinite(err) ? err : -1);
    snprintf(k, sizeof k, "cn%d", i + 1);
    mg_plot_var_num(job, k, cmp);
    snprintf(k, sizeof k, "cx%d", i + 1);
    mg_plot_var_num(job, k, exc);
    snprintf(k, sizeof k, "cbw%d", i + 1);
    mg_plot_var_num(job, k, strncmp(aspect, "bw_", 3) == 0 || !strcmp(aspect, "dram"));
    return 0;
}

int mg_plot_prepare_compare(mg_plot_job *job, int n, char **inputs, mg_diag *d)
{
    (void)n;
    const char *file = inputs[0];
    cJSON *j = mg_plot_load(job, file, d);
    if (!j) return -1;
    const char *schema = NULL, *meas = "measured", *model = "model";
    int rc = -1, nc = 0;
    FILE *f = NULL;
    if (mg_plot_get_str(j, "schema", file, "$", &schema, d)) goto out;
    if (strcmp(schema, "mgsim-compare/1")) {
        mg_diag_error(d, "%s: $.schema: expected \"mgsim-compare/1\" (mgsim compare -o), got "
                      "\"%s\"", file, schema);
        goto out;
    }
    const cJSON *curves = mg_plot_get_arr(j, "curves", file, "$", d), *c;
    if (!curves || !(f = mg_plot_data_open(job, "c.dat", d))) goto out;
    cJSON_ArrayForEach(c, curves) {
        if (compare_block(f, c, file, nc, d) || compare_vars(job, c, file, nc, d)) goto out;
        nc++;
    }
    if (!nc) {
        mg_diag_error(d, "%s: $.curves: no curve to plot", file);
        goto out;
    }
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "measured");
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, "model");
    if (cJSON_IsString(m)) meas = m->valuestring;
    if (cJSON_IsString(o)) model = o->valuestring;
    mg_plot_var_str(job, "measured", meas);
    mg_plot_var_str(job, "model", model);
    mg_plot_var_num(job, "nc", nc);
    snprintf(job->summary, sizeof job->summary, "%d curves, measured against the model", nc);
    rc = 0;
out:
    if (f && mg_plot_data_close(job, f, "c.dat", d)) rc = -1;
    mg_plot_unload(job, j);
    return rc;
}
