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
#include "base/words.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VP_FAMS 8

typedef struct vp_point { double x, y; int fam, below; } vp_point;

/* The family label of a group name ("conv2d H=.. K=3 ..." -> "conv 3x3"). */
static void family_of(const char *group, char *out, size_t len)
{
    char op[32], k[16], dw[16], m[32];
    snprintf(op, sizeof op, "%.*s", (int)strcspn(group, " "), group);
    if (!strcmp(op, "conv2d")) {
        mg_word_value(group, "K", k, sizeof k);
        mg_word_value(group, "depthwise", dw, sizeof dw);
        snprintf(out, len, "%s %sx%s", !strcmp(dw, "1") ? "depthwise" : "conv", k, k);
    } else if (!strcmp(op, "matmul")) {
        mg_word_value(group, "M", m, sizeof m);
        snprintf(out, len, "%s", !strcmp(m, "1") ? "fc" : "matmul");
    } else {
        snprintf(out, len, "%s", op);
    }
}

/* What the report gives the plot: its points, coloured by family. */
typedef struct vp_data {
    const char *file;
    const char *device, *tdev;            /* $.device, $.timings_device */
    const cJSON *groups, *ks, *all, *gm;  /* $.groups, kernels, overall, group_mean */
    int *gfam;                            /* each group's family */
    char fam[VP_FAMS][64];                /* the family labels */
    int nfam, famn[VP_FAMS];              /* families, points in each */
    vp_point *pt;                         /* the compared kernels */
    size_t np;
    double lo, hi;                        /* the smallest and largest coordinate */
} vp_data;

/* Check the schema and find the report's members.  0, or -1 with
 * messages in d. */
static int read_report(const cJSON *j, vp_data *v, mg_diag *d)
{
    const char *sv, *file = v->file;
    if (mg_plot_get_str(j, "schema", file, "$", &sv, d)) return -1;
    if (strcmp(sv, "mgsim-validate/1")) {
        mg_diag_error(d, "%s: $.schema: expected \"mgsim-validate/1\" (mgsim validate --json), "
                      "got \"%s\"", file, sv);
        return -1;
    }
    v->groups = mg_plot_get_arr(j, "groups", file, "$", d);
    v->ks = mg_plot_get_arr(j, "kernels", file, "$", d);
    v->all = mg_plot_get_obj(j, "overall", file, "$", d);
    v->gm = mg_plot_get_obj(j, "group_mean", file, "$", d);
    if (mg_plot_get_str(j, "device", file, "$", &v->device, d) ||
        mg_plot_get_str(j, "timings_device", file, "$", &v->tdev, d) || !v->groups || !v->ks ||
        !v->all || !v->gm)
        return -1;
    return 0;
}

/* The family of every group (v->gfam), the first VP_FAMS - 1 families
 * in order of appearance and the rest sharing the last.  Stops at the
 * first bad group, with a message in d. */
static void group_families(vp_data *v, mg_diag *d)
{
    int gi = 0;
    for (const cJSON *g = v->groups->child; g; g = g->next, gi++) {
        char path[64], f[64];
        const char *name;
        snprintf(path, sizeof path, "$.groups[%d]", gi);
        if (mg_plot_get_str(g, "name", v->file, path, &name, d)) break;
        family_of(name, f, sizeof f);
        int x = 0;
        while (x < v->nfam && strcmp(v->fam[x], f)) x++;
        if (x == v->nfam) {
            if (v->nfam == VP_FAMS) x = VP_FAMS - 1;      /* the rest share the last colour */
            else snprintf(v->fam[v->nfam++], sizeof v->fam[0], "%s", f);
        }
        v->gfam[gi] = x;
    }
}

/* A point (us) for every compared kernel ("status": "ok"), with the range
 * of the coordinates and the points per family.  Stops at the first bad
 * kernel, with a message in d. */
static void kernel_points(vp_data *v, int ng, mg_diag *d)
{
    const char *file = v->file;
    int ki = 0;
    for (const cJSON *k = v->ks->child; k && !mg_diag_failed(d); k = k->next, ki++) {
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
        vp_point *q = &v->pt[v->np++];
        *q = (vp_point){m / 1e3, p / 1e3, v->gfam[(int)g], cJSON_IsTrue(b)};
        v->lo = fmin(v->lo, fmin(q->x, q->y));
        v->hi = fmax(v->hi, fmax(q->x, q->y));
        v->famn[q->fam]++;
    }
}

/* Read the groups' families and the kernels' points.  0, or -1 with
 * messages in d. */
static int read_points(vp_data *v, mg_diag *d)
{
    int ng = cJSON_GetArraySize(v->groups), nk = cJSON_GetArraySize(v->ks);
    v->gfam = calloc((size_t)(ng ? ng : 1), sizeof *v->gfam);
    v->pt = calloc((size_t)(nk ? nk : 1), sizeof *v->pt);
    if (!v->gfam || !v->pt) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    group_families(v, d);
    kernel_points(v, ng, d);
    if (mg_diag_failed(d)) return -1;
    if (v->np == 0) {
        mg_diag_error(d, "%s: $.kernels: no kernel was compared (nothing to plot)", v->file);
        return -1;
    }
    return 0;
}

/* points.dat (a block per family) and below.dat (the flagged kernels);
 * *nbelow = how many are flagged.  0, or -1 with messages in d. */
static int write_points(mg_plot_job *job, const vp_data *v, int *nbelow, mg_diag *d)
{
    FILE *f = mg_plot_data_open(job, "points.dat", d);
    if (!f) return -1;
    for (int x = 0; x < v->nfam; x++) {
        if (x) fprintf(f, "\n\n");
        int any = 0;
        for (size_t i = 0; i < v->np; i++)
            if (v->pt[i].fam == x) {
                mg_plot_row(f, 2, (double[]){v->pt[i].x, v->pt[i].y});
                any = 1;
            }
        if (!any) fprintf(f, "nan nan\n");
    }
    if (mg_plot_data_close(job, f, "points.dat", d)) return -1;
    f = mg_plot_data_open(job, "below.dat", d);
    if (!f) return -1;
    *nbelow = 0;
    for (size_t i = 0; i < v->np; i++)
        if (v->pt[i].below) {
            mg_plot_row(f, 2, (double[]){v->pt[i].x, v->pt[i].y});
            (*nbelow)++;
        }
    if (!*nbelow) fprintf(f, "nan nan\n");
    return mg_plot_data_close(job, f, "below.dat", d);
}

/* The number at o.key, or NAN when it is not a number. */
static double num_or_nan(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

/* meta.gp's variables and the job's summary line. */
static void write_meta(mg_plot_job *job, const vp_data *v, int nbelow)
{
    double mape = num_or_nan(v->all, "mape"), tau = num_or_nan(v->all, "kendall_tau_b");
    double taug = num_or_nan(v->gm, "kendall_tau_b"), regret = num_or_nan(v->gm, "top1_regret");
    mg_plot_var_str(job, "device", v->device);
    mg_plot_var_str(job, "timings_device", v->tdev);
    mg_plot_var_num(job, "n", (double)v->np);
    mg_plot_var_num(job, "nfam", v->nfam);
    for (int i = 0; i < v->nfam; i++) {
        char name[32];
        snprintf(name, sizeof name, "famname%d", i + 1);
        mg_plot_var_str(job, name, v->fam[i]);
        snprintf(name, sizeof name, "famn%d", i + 1);
        mg_plot_var_num(job, name, v->famn[i]);
    }
    mg_plot_var_num(job, "nbelow", nbelow);
    mg_plot_var_num(job, "xmin", mg_plot_decade_floor(v->lo));
    mg_plot_var_num(job, "xmax", mg_plot_decade_ceil(v->hi));
    mg_plot_var_strf(job, "stats", "MAPE %.0f%%, Kendall tau %.2f pooled, %.2f mean within "
                     "groups, mean top-1 regret %.0f%%", 100 * mape, tau, taug, 100 * regret);
    snprintf(job->summary, sizeof job->summary, "%zu kernels of %s simulated on %s", v->np,
             v->tdev, v->device);
}

int mg_plot_prepare_validate(mg_plot_job *job, int n, char **inputs, mg_diag *d)
{
    (void)n;
    cJSON *j = mg_plot_load(job, inputs[0], d);
    if (!j) return -1;
    vp_data *v = calloc(1, sizeof *v);
    int rc = -1, nbelow = 0;
    if (!v) {
        mg_diag_error(d, "out of memory");
    } else {
        v->file = inputs[0];
        v->lo = INFINITY;
        if (!read_report(j, v, d) && !read_points(v, d) && !write_points(job, v, &nbelow, d)) {
            write_meta(job, v, nbelow);
            mg_plot_var_timings(job, j);
            rc = 0;
        }
        free(v->gfam);
        free(v->pt);
    }
    free(v);
    mg_plot_unload(job, j);
    return rc;
}
