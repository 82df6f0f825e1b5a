/*
 * validate_by.c - `mgsim validate --by KNOB`: the compared kernels broken
 * down by one knob's value across groups (e.g. storage: fp32 against
 * fp16 layers), with the agreement of achieved GFLOPS (flops / time) as
 * well as of times: what a per-layer cross-check needs when every group
 * holds one kernel, as an AutoTVM log's best configurations do
 * (validate.h).
 */
#include "sim/analysis/validate.h"
#include "sim/analysis/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The statistics of the compared kernels whose knob equals value (NULL:
 * all); p, m, gp, gm have room for every kernel. */
static void by_row(const mg_validation *v, const char *value, mg_vby *r, double *p, double *m,
                   double *gp, double *gm)
{
    size_t n = 0;
    for (size_t i = 0; i < v->n; i++) {
        const mg_vkernel *k = &v->k[i];
        if (k->status != MG_VK_OK || (value && strcmp(k->knob[v->by - 1], value))) continue;
        p[n] = k->predicted_ns;
        m[n] = k->measured_ns;
        gp[n] = k->flops / k->predicted_ns;         /* flops per ns = GFLOPS */
        gm[n++] = k->flops / k->measured_ns;
    }
    snprintf(r->value, sizeof r->value, "%s", value ? value : "all");
    r->n = n;
    r->mape = mg_stats_mape(p, m, n);
    r->aggregate = mg_stats_aggregate(p, m, n);
    r->pearson_log = mg_stats_pearson_log(p, m, n);
    r->spearman = mg_stats_spearman(p, m, n);
    r->pearson_gflops = mg_stats_pearson(gp, gm, n);
    r->pearson_log_gflops = mg_stats_pearson_log(gp, gm, n);
    r->spearman_gflops = mg_stats_spearman(gp, gm, n);
    for (size_t i = 0; i < n; i++) p[i] = p[i] / m[i] - 1;
    r->median_error = mg_stats_median(p, n);
}

void mg_validate_by(mg_validation *v)
{
    free(v->byrows);
    v->byrows = NULL;
    v->nby = 0;
    if (v->by < 1 || v->by > MG_VKNOB_COUNT) return;
    size_t nv = 0;
    for (size_t x = 0; x < v->nres; x++) nv += v->res[x].knob == v->by - 1;
    size_t n = v->n ? v->n : 1;
    mg_vby *rows = malloc((nv + 1) * sizeof *rows);
    double *buf = malloc(4 * n * sizeof *buf);
    if (!rows || !buf) {
        free(rows);
        free(buf);
        return;
    }
    by_row(v, NULL, &rows[0], buf, buf + n, buf + 2 * n, buf + 3 * n);
    size_t r = 1;
    for (size_t x = 0; x < v->nres; x++)            /* the residuals' values, in order */
        if (v->res[x].knob == v->by - 1)
            by_row(v, v->res[x].value, &rows[r++], buf, buf + n, buf + 2 * n, buf + 3 * n);
    free(buf);
    v->byrows = rows;
    v->nby = r;
}

static void cell(FILE *f, int w, double x, int percent)
{
    if (!isfinite(x)) fprintf(f, " %*s", w, "-");
    else if (percent) fprintf(f, " %*.1f%%", w - 1, 100 * x);
    else fprintf(f, " %*.2f", w, x);
}

void mg_validate_print_by(FILE *f, const mg_validation *v)
{
    if (!v->byrows) return;
    fprintf(f, "\nby %s, across groups (GF: achieved GFLOPS, the launch's flops / time):\n",
            mg_vknob_names[v->by - 1]);
    fprintf(f, "%-14s %5s %7s %7s %7s %8s %6s %6s %8s %7s\n", "value", "n", "MAPE", "aggr",
            "median", "r(log t)", "rho(t)", "r(GF)", "r(logGF)", "rho(GF)");
    for (size_t i = 0; i < v->nby; i++) {
        const mg_vby *r = &v->byrows[i];
        fprintf(f, "%-14s %5zu", r->value, r->n);
        cell(f, 7, r->mape, 1);
        cell(f, 7, r->aggregate, 1);
        cell(f, 7, r->median_error, 1);
        cell(f, 8, r->pearson_log, 0);
        cell(f, 6, r->spearman, 0);
        cell(f, 6, r->pearson_gflops, 0);
        cell(f, 8, r->pearson_log_gflops, 0);
        cell(f, 7, r->spearman_gflops, 0);
        fprintf(f, "\n");
    }
    fprintf(f, "median: the median of predicted / measured - 1; r Pearson, rho Spearman, "
            "between\npredicted and measured (times, log times, GFLOPS, log GFLOPS).\n");
}

cJSON *mg_validate_by_json(const mg_validation *v)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "knob", mg_vknob_names[v->by - 1]);
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    for (size_t i = 0; i < v->nby; i++) {
        const mg_vby *r = &v->byrows[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "value", r->value);
        cJSON_AddNumberToObject(x, "n", (double)r->n);
        cJSON_AddNumberToObject(x, "mape", r->mape);
        cJSON_AddNumberToObject(x, "aggregate_error", r->aggregate);
        cJSON_AddNumberToObject(x, "median_error", r->median_error);
        cJSON_AddNumberToObject(x, "pearson_log", r->pearson_log);
        cJSON_AddNumberToObject(x, "spearman", r->spearman);
        cJSON_AddNumberToObject(x, "pearson_gflops", r->pearson_gflops);
        cJSON_AddNumberToObject(x, "pearson_log_gflops", r->pearson_log_gflops);
        cJSON_AddNumberToObject(x, "spearman_gflops", r->spearman_gflops);
        cJSON_AddItemToArray(rows, x);
    }
    return o;
}
