/*
 * plot_validate.c - `mgsim plot validate` (and `mgsim validate --plot`):
 * predicted vs measured kernel time, log-log, with the y = x line
 * (plots/validate.gp).
 *
 * Input: one `mgsim validate --json` report (mgsim-validate/1).  Every
 * compared kernel is a point (measured us, predicted us), coloured by its
 * family: the operator, with conv2d split into "conv KxK" and "depthwise
 * KxK" and matmul with M=1 called "fc"; kernels measured faster than the
 * model's roofline bound get a ring.
 *
 * Data written:
 *   points.dat  block per family (famname_i, famn_i): "measured_us predicted_us"
 *   below.dat   the flagged kernels, one block ("measured_us predicted_us";
 *               nbelow of them)
 *   meta.gp     device, timings_device, nfam, xmin, xmax (a square, whole
 *               decades), mape, tau (pooled Kendall tau-b), taug (mean
 *               within groups), regret (mean top-1 regret), n
 */
#include "sim/plot/plot.h"
#include "base/jsonfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VP_FAMS 8

typedef struct vp_point { double x, y; int fam, below; } vp_point;

/* The value of key=... in a group's words ("" when absent). */
static void word_value(const char *words, const char *key, char *out, size_t len)
{
    out[0] = 0;
    size_t kl = strlen(key);
    for (const char *p = words; (p = strstr(p, key)) != NULL; p += kl) {
        if ((p == words || p[-1] == ' ') && p[kl] == '=') {
            size_t n = strcspn(p + kl + 1, " ");
            snprintf(out, len, "%.*s", (int)n, p + kl + 1);
            return;
        }
    }
}

/* The family label of a group name ("conv2d H=.. K=3 ..." -> "conv 3x3"). */
static void family_of(const char *group, char *out, size_t len)
{
    char op[32], k[16], dw[16], m[32];
    snprintf(op, sizeof op, "%.*s", (int)strcspn(group, " "), group);
    if (!strcmp(op, "conv2d")) {
        word_value(group, "K", k, sizeof k);
        word_value(group, "depthwise", dw, sizeof dw);
        snprintf(out, len, "%s %sx%s", !strcmp(dw, "1") ? "depthwise" : "conv", k, k);
    } else if (!strcmp(op, "matmul")) {
        word_value(group, "M", m, sizeof m);
        snprintf(out, len, "%s", !strcmp(m, "1") ? "fc" : "matmul");
    } else {
        snprintf(out, len, "%s", op);
    }
}

int mg_plot_prepare_validate(mg_plot_job *job, int n, char **inputs, mg_diag *d)
{
    (void)n;
    const char *file = inputs[0];
    cJSON *j = mg_json_load(file, d);
    if (!j) return -1;
    int rc = -1;
    vp_point *pt = NULL;
    const char *sv;
    if (mg_plot_get_str(j, "schema", file, "$", &sv, d)) goto out;
    if (strcmp(sv, "mgsim-validate/1")) {
        mg_diag_error(d, "%s: $.schema: expected \"mgsim-validate/1\" (mgsim validate --json), "
                      "got \"%s\"", file, sv);
        goto out;
    }
    const char *device, *tdev;
    const cJSON *groups = mg_plot_get_arr(j, "groups", file, "$", d);
    const cJSON *ks = mg_plot_get_arr(j, "kernels", file, "$", d);
    const cJSON *all = mg_plot_get_obj(j, "overall", file, "$", d);
    const cJSON *gm = mg_plot_get_obj(j, "group_mean", file, "$", d);
    if (mg_plot_get_str(j, "device", file, "$", &device, d) ||
        mg_plot_get_str(j, "timings_device", file, "$", &tdev, d) || !groups || !ks || !all ||
        !gm)
        goto out;
    int ng = cJSON_GetArraySize(groups), nk = cJSON_GetArraySize(ks);
    int *gfam = calloc((size_t)(ng ? ng : 1), sizeof *gfam);
    pt = calloc((size_t)(nk ? nk : 1), sizeof *pt);
    if (!gfam || !pt) {
        free(gfam);
        mg_diag_error(d, "out of memory");
        goto out;
    }
    char fam[VP_FAMS][64];
    int nfam = 0, famn[VP_FAMS] = {0};
    int gi = 0;
    for (const cJSON *g = groups->child; g; g = g->next, gi++) {
        char path[64], f[64];
        const char *name;
        snprintf(path, sizeof path, "$.groups[%d]", gi);
        if (mg_plot_get_str(g, "name", file, path, &name, d)) break;
        family_of(name, f, sizeof f);
        int x = 0;
        while (x < nfam && strcmp(fam[x], f)) x++;
        if (x == nfam) {
            if (nfam == VP_FAMS) x = VP_FAMS - 1;      /* the rest share the last colour */
            else snprintf(fam[nfam++], sizeof fam[0], "%s", f);
        }
        gfam[gi] = x;
    }
    size_t np = 0;
    double lo = INFINITY, hi = 0;
    int ki = 0;
    for (const cJSON *k = ks->child; k && !mg_diag_failed(d);
         k = k->next, ki++) {
        char path[64];
        const char *st;
        double m, p, g;
        snprintf(path, sizeof path, "$.kernels[%d]", ki);
        if (mg_plot_get_str(k, "status", file, path, &st, d)) break;
        if (strcmp(st, "ok")) continue;
        if (mg_plot_get_pos(k, "measured_ns", file, path, &m, d) ||
            mg_plot_get_pos(k, "predicted_ns", file, path, &p, d) ||
            mg_plot_get_num(k, "group", file, path, &g, d))
            break;
        if (g < 0 || g >= ng) {
            mg_diag_error(d, "%s: %s.group: %g is not a group index (0..%d)", file, path, g,
                          ng - 1);
            break;
        }
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(k, "below_bound");
        pt[np] = (vp_point){m / 1e3, p / 1e3, gfam[(int)g], cJSON_IsTrue(b)};
        lo = fmin(lo, fmin(pt[np].x, pt[np].y));
        hi = fmax(hi, fmax(pt[np].x, pt[np].y));
        famn[pt[np].fam]++;
        np++;
    }
    free(gfam);
    if (mg_diag_failed(d)) goto out;
    if (np == 0) {
        mg_diag_error(d, "%s: $.kernels: no kernel was compared (nothing to plot)", file);
        goto out;
    }
    FILE *f = mg_plot_data_open(job, "points.dat", d);
    if (!f) goto out;
    for (int x = 0; x < nfam; x++) {
        if (x) fprintf(f, "\n\n");
        int any = 0;
        for (size_t i = 0; i < np; i++)
            if (pt[i].fam == x) {
                mg_plot_row(f, 2, (double[]){pt[i].x, pt[i].y});
                any = 1;
            }
        if (!any) fprintf(f, "nan nan\n");
    }
    if (mg_plot_data_close(job, f, "points.dat", d)) goto out;
    f = mg_plot_data_open(job, "below.dat", d);
    if (!f) goto out;
    int nbelow = 0;
    for (size_t i = 0; i < np; i++)
        if (pt[i].below) {
            mg_plot_row(f, 2, (double[]){pt[i].x, pt[i].y});
            nbelow++;
        }
    if (!nbelow) fprintf(f, "nan nan\n");
    if (mg_plot_data_close(job, f, "below.dat", d)) goto out;
    double mape = NAN, tau = NAN, taug = NAN, regret = NAN;
    const cJSON *x;
    if (cJSON_IsNumber(x = cJSON_GetObjectItemCaseSensitive(all, "mape"))) mape = x->valuedouble;
    if (cJSON_IsNumber(x = cJSON_GetObjectItemCaseSensitive(all, "kendall_tau_b")))
        tau = x->valuedouble;
    if (cJSON_IsNumber(x = cJSON_GetObjectItemCaseSensitive(gm, "kendall_tau_b")))
        taug = x->valuedouble;
    if (cJSON_IsNumber(x = cJSON_GetObjectItemCaseSensitive(gm, "top1_regret")))
        regret = x->valuedouble;
    mg_plot_var_str(job, "device", device);
    mg_plot_var_str(job, "timings_device", tdev);
    mg_plot_var_num(job, "n", (double)np);
    mg_plot_var_num(job, "nfam", nfam);
    for (int i = 0; i < nfam; i++) {
        char v[32];
        snprintf(v, sizeof v, "famname%d", i + 1);
        mg_plot_var_str(job, v, fam[i]);
        snprintf(v, sizeof v, "famn%d", i + 1);
        mg_plot_var_num(job, v, famn[i]);
    }
    mg_plot_var_num(job, "nbelow", nbelow);
    mg_plot_var_num(job, "xmin", mg_plot_decade_floor(lo));
    mg_plot_var_num(job, "xmax", mg_plot_decade_ceil(hi));
    mg_plot_var_strf(job, "stats", "MAPE %.0f%%, Kendall tau %.2f pooled, %.2f mean within "
                     "groups, mean top-1 regret %.0f%%", 100 * mape, tau, taug, 100 * regret);
    snprintf(job->summary, sizeof job->summary, "%zu kernels of %s simulated on %s", np, tdev,
             device);
    rc = 0;
out:
    free(pt);
    cJSON_Delete(j);
    return rc;
}
