/*
 * plot_residuals.c - `mgsim plot validate-residuals` (and `mgsim validate
 * --plot-residuals`): predicted / measured per kernel, grouped by each
 * knob's value, a panel per knob (plots/validate-residuals.gp).
 *
 * Input: one `mgsim validate --json` report (mgsim-validate/1): its
 * "residuals" table (the knobs, their values in order, the median error
 * of each) and its compared kernels ("knobs": each kernel's value of each
 * knob).  A panel per knob with at least two values (when none has two,
 * every knob); a point per kernel at its value's position, spread
 * sideways by a fixed jitter of its index, so the plot is deterministic.
 *
 * Data written:
 *   pts.dat   block per panel: "x ratio" (x = value number from 0 plus the
 *             jitter; ratio = predicted / measured)
 *   med.dat   block per panel: "x0 median dx 0" (a bar from x0 to x0 + dx
 *             at the value's median ratio)
 *   meta.gp   device, timings_device, n, npanel, knob<i> (the title of
 *             panel i, from 1: the knob's name), nval<i>, val<i>_<j> ("VALUE (N)"), ymin, ymax
 *             (powers of 2 around every ratio, at least 1/2 and 2), stats
 */
#include "sim/plot/plot.h"
#include "base/jsonfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RP_PANELS 16
#define RP_VALUES 64

typedef struct rp_panel {
    const char *knob;
    int         nval;
    const char *val[RP_VALUES];
    double      n[RP_VALUES], med[RP_VALUES];   /* kernels, median error */
} rp_panel;

typedef struct rp_data {
    const char *file, *device, *tdev;
    const cJSON *res, *ks, *all;
    rp_panel    panel[RP_PANELS];
    int         npanel;
    double      lo, hi;            /* the smallest and largest ratio */
    size_t      nk;                /* kernels plotted */
} rp_data;

/* Check the schema, find the members.  0, or -1 with messages in d. */
static int read_report(const cJSON *j, rp_data *r, mg_diag *d)
{
    const char *sv;
    if (mg_plot_get_str(j, "schema", r->file, "$", &sv, d)) return -1;
    if (strcmp(sv, "mgsim-validate/1")) {
        mg_diag_error(d, "%s: $.schema: expected \"mgsim-validate/1\" (mgsim validate --json), "
                      "got \"%s\"", r->file, sv);
        return -1;
    }
    if (!cJSON_GetObjectItemCaseSensitive(j, "residuals")) {
        mg_diag_error(d, "%s: $.residuals: missing: a report of an older mgsim validate "
                      "(run it again)", r->file);
        return -1;
    }
    r->res = mg_plot_get_arr(j, "residuals", r->file, "$", d);
    r->ks = mg_plot_get_arr(j, "kernels", r->file, "$", d);
    r->all = mg_plot_get_obj(j, "overall", r->file, "$", d);
    if (!r->res || !r->ks || !r->all || mg_plot_get_str(j, "device", r->file, "$", &r->device, d) ||
        mg_plot_get_str(j, "timings_device", r->file, "$", &r->tdev, d))
        return -1;
    return 0;
}

/* The panel of knob (added when new and there is room), or NULL. */
static rp_panel *panel_of(rp_data *r, const char *knob)
{
    for (int i = 0; i < r->npanel; i++)
        if (!strcmp(r->panel[i].knob, knob)) return &r->panel[i];
    if (r->npanel == RP_PANELS) return NULL;
    rp_panel *p = &r->panel[r->npanel++];
    memset(p, 0, sizeof *p);
    p->knob = knob;
    return p;
}

/* The panels from the residuals table, in its order.  0, or -1 with a
 * message in d. */
static int read_table(rp_data *r, mg_diag *d)
{
    int i = 0;
    for (const cJSON *x = r->res->child; x; x = x->next, i++) {
        char path[64];
        const char *knob, *val;
        double n, med;
        snprintf(path, sizeof path, "$.residuals[%d]", i);
        if (mg_plot_get_str(x, "knob", r->file, path, &knob, d) ||
            mg_plot_get_str(x, "value", r->file, path, &val, d) ||
            mg_plot_get_pos(x, "n", r->file, path, &n, d))
            return -1;
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(x, "median_error");
        med = cJSON_IsNumber(m) ? m->valuedouble : NAN;
        rp_panel *p = panel_of(r, knob);
        if (!p || p->nval == RP_VALUES) continue;    /* beyond what a panel can show */
        p->val[p->nval] = val;
        p->n[p->nval] = n;
        p->med[p->nval++] = med;
    }
    int keep = 0;                                    /* the knobs with 2 values or more */
    for (int k = 0; k < r->npanel; k++)
        if (r->panel[k].nval >= 2) r->panel[keep++] = r->panel[k];
    if (keep) r->npanel = keep;
    if (!r->npanel) {
        mg_diag_error(d, "%s: $.residuals: empty: no kernel was compared (nothing to plot)",
                      r->file);
        return -1;
    }
    return 0;
}

/* The value number of kernel k in panel p, or -1. */
static int value_of(const rp_panel *p, const cJSON *k)
{
    const cJSON *kn = cJSON_GetObjectItemCaseSensitive(k, "knobs");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(kn, p->knob);
    if (!cJSON_IsString(s)) return -1;
    for (int j = 0; j < p->nval; j++)
        if (!strcmp(p->val[j], s->valuestring)) return j;
    return -1;
}

/* A fixed sideways jitter in [-0.3, 0.3) from a kernel's position. */
static double jitter(int ki)
{
    double f = fmod((double)ki * 0.6180339887498949, 1.0);
    return 0.6 * f - 0.3;
}

/* pts.dat: a block per panel, a point per compared kernel.  0, or -1. */
static int write_points(mg_plot_job *job, rp_data *r, mg_diag *d)
{
    FILE *f = mg_plot_data_open(job, "pts.dat", d);
    if (!f) return -1;
    for (int i = 0; i < r->npanel && !mg_diag_failed(d); i++) {
        if (i) fprintf(f, "\n\n");
        int ki = 0, any = 0;
        for (const cJSON *k = r->ks->child; k; k = k->next, ki++) {
            char path[64];
            const char *st;
            double m, p;
            snprintf(path, sizeof path, "$.kernels[%d]", ki);
            if (mg_plot_get_str(k, "status", r->file, path, &st, d)) break;
            if (strcmp(st, "ok")) continue;
            if (mg_plot_get_pos(k, "measured_ns", r->file, path, &m, d) ||
                mg_plot_get_pos(k, "predicted_ns", r->file, path, &p, d))
                break;
            r->nk += i == 0;
            int j = value_of(&r->panel[i], k);
            if (j < 0) continue;
            mg_plot_row(f, 2, (double[]){j + jitter(ki), p / m});
            r->lo = fmin(r->lo, p / m);
            r->hi = fmax(r->hi, p / m);
            any = 1;
        }
        if (!any) fprintf(f, "nan nan\n");
    }
    if (mg_diag_failed(d)) {
        fclose(f);
        return -1;
    }
    return mg_plot_data_close(job, f, "pts.dat", d);
}

/* med.dat: a block per panel, a bar per value at its median. */
static int write_medians(mg_plot_job *job, const rp_data *r, mg_diag *d)
{
    FILE *f = mg_plot_data_open(job, "med.dat", d);
    if (!f) return -1;
    for (int i = 0; i < r->npanel; i++) {
        if (i) fprintf(f, "\n\n");
        const rp_panel *p = &r->panel[i];
        for (int j = 0; j < p->nval; j++)
            mg_plot_row(f, 4, (double[]){j - 0.38, 1 + p->med[j], 0.76, 0});
    }
    return mg_plot_data_close(job, f, "med.dat", d);
}

static void write_meta(mg_plot_job *job, const rp_data *r)
{
    const cJSON *mape = cJSON_GetObjectItemCaseSensitive(r->all, "mape");
    mg_plot_var_str(job, "device", r->device);
    mg_plot_var_str(job, "timings_device", r->tdev);
    mg_plot_var_num(job, "n", (double)r->nk);
    mg_plot_var_num(job, "npanel", r->npanel);
    for (int i = 0; i < r->npanel; i++) {
        const rp_panel *p = &r->panel[i];
        char name[48];
        snprintf(name, sizeof name, "knob%d", i + 1);
        if (!strcmp(p->knob, "occupancy"))
            mg_plot_var_str(job, name, "occupancy (mean resident warps per SP)");
        else mg_plot_var_str(job, name, p->knob);
        snprintf(name, sizeof name, "nval%d", i + 1);
        mg_plot_var_num(job, name, p->nval);
        for (int j = 0; j < p->nval; j++) {
            snprintf(name, sizeof name, "val%d_%d", i + 1, j + 1);
            mg_plot_var_strf(job, name, "%s (%.0f)", p->val[j], p->n[j]);
        }
    }
    double lo = fmin(0.5, exp2(floor(log2(r->lo)))), hi = fmax(2, exp2(ceil(log2(r->hi))));
    mg_plot_var_num(job, "ymin", lo);
    mg_plot_var_num(job, "ymax", hi);
    mg_plot_var_strf(job, "stats", "MAPE %.0f%% over all; bars: the median of each value",
                     cJSON_IsNumber(mape) ? 100 * mape->valuedouble : NAN);
    snprintf(job->summary, sizeof job->summary, "%zu kernels of %s simulated on %s, %d knobs",
             r->nk, r->tdev, r->device, r->npanel);
}

int mg_plot_prepare_residuals(mg_plot_job *job, int n, char **inputs, mg_diag *d)
{
    (void)n;
    cJSON *j = mg_plot_load(job, inputs[0], d);
    if (!j) return -1;
    rp_data *r = calloc(1, sizeof *r);
    int rc = -1;
    if (!r) mg_diag_error(d, "out of memory");
    else {
        r->file = inputs[0];
        r->lo = INFINITY;
        r->hi = 0;
        if (!read_report(j, r, d) && !read_table(r, d) && !write_points(job, r, d) &&
            !write_medians(job, r, d)) {
            write_meta(job, r);
            mg_plot_var_timings(job, j);
            rc = 0;
        }
    }
    free(r);
    mg_plot_unload(job, j);
    return rc;
}
