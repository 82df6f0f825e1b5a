/*
 * plot_net.c - `mgsim plot net` (plots/net.gp): a network's timeline from
 * an `mgsim net --config --json` report (schema mgsim-net-time/1), as
 * ParallelFusion's Fig. 11 draws one: every simulated layer a span of the
 * network's time, its ALU and LSU utilization over the span, and a bar
 * coloured by the roofline ceiling that binds it.
 *
 * Data written (times in microseconds from the network's start):
 *   net.dat   one row per simulated layer in execution order:
 *             "start end alu_pct lsu_pct level index" (level: 0-based
 *             model level, -1 compute; index: the layer's row)
 *   meta.gp   network, config, mode, batch, latency_ms, nrows (simulated
 *             layers), nmissing (not simulated), tmax (the latency, us),
 *             umax (the highest utilization drawn, %, at least 10),
 *             top_N / top_x_N (the names and centres of the 5 longest
 *             layers, for labels), ntop, binds (a bit per ceiling that
 *             binds some layer: bit 0 compute, bit L + 1 level L, so the
 *             key lists only those)
 */
#include "sim/plot/plot.h"
#include "base/jsonfile.h"

#include <math.h>
#include <string.h>

#define NET_TOP 5

static const char *const levels[] = {"tex_l1", "buffer_l1", "local", "constant", "l2",
                                     "dram"};

static int level_index(const char *name)
{
    for (int i = 0; i < (int)(sizeof levels / sizeof levels[0]); i++)
        if (!strcmp(levels[i], name)) return i;
    return -1;
}

/* The longest layers so far: keep the NET_TOP longest in top[]. */
typedef struct top_row {
    double us, mid;
    char name[64];
} top_row;

static void keep_top(top_row *top, int *n, double us, double mid, const char *name)
{
    int i = *n < NET_TOP ? (*n)++ : NET_TOP - 1;
    if (i == NET_TOP - 1 && *n == NET_TOP && top[i].us >= us) return;
    for (; i > 0 && top[i - 1].us < us; i--) top[i] = top[i - 1];
    top[i].us = us;
    top[i].mid = mid;
    snprintf(top[i].name, sizeof top[i].name, "%s", name);
}

/* The ceilings that bind some simulated layer of ls: bit 0 compute, bit
 * L + 1 model level L. */
static unsigned levels_used(const cJSON *ls)
{
    unsigned used = 0;
    const cJSON *l;
    cJSON_ArrayForEach(l, ls) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(l, "binding");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(l, "simulated")) && cJSON_IsString(b))
            used |= 1u << (level_index(b->valuestring) + 1);
    }
    return used;
}

/* One layer's row into f (simulated ones), updating the scales. */
static int layer_row(const cJSON *l, int idx, const char *file, FILE *f, double *umax,
                     top_row *top, int *ntop, int *nrows, mg_diag *d)
{
    char p[64];
    snprintf(p, sizeof p, "$.layers[%d]", idx);
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(l, "simulated"))) return 0;
    double start, sec, alu, lsu;
    const char *name, *bind;
    if (mg_plot_get_num(l, "start_s", file, p, &start, d) ||
        mg_plot_get_pos(l, "seconds", file, p, &sec, d) ||
        mg_plot_get_num(l, "alu_utilization", file, p, &alu, d) ||
        mg_plot_get_num(l, "lsu_utilization", file, p, &lsu, d) ||
        mg_plot_get_str(l, "name", file, p, &name, d) ||
        mg_plot_get_str(l, "binding", file, p, &bind, d))
        return -1;
    double v[6] = {start * 1e6, (start + sec) * 1e6, 100 * alu, 100 * lsu,
                   level_index(bind), idx};
    mg_plot_row(f, 6, v);
    *umax = fmax(*umax, fmax(v[2], v[3]));
    keep_top(top, ntop, sec * 1e6, (v[0] + v[1]) / 2, name);
    (*nrows)++;
    return 0;
}

int mg_plot_prepare_net(mg_plot_job *job, int n, char **inputs, mg_diag *d)
{
    (void)n;
    const char *file = inputs[0];
    cJSON *j = mg_plot_load(job, file, d);
    if (!j) return -1;
    const char *schema, *net, *cfg, *mode;
    double lat, batch;
    const cJSON *ls = NULL;
    int rc = -1;
    if (mg_plot_get_str(j, "schema", file, "$", &schema, d)) goto out;
    if (strcmp(schema, "mgsim-net-time/1")) {
        mg_diag_error(d, "%s: $.schema: expected \"mgsim-net-time/1\" (an `mgsim net --config "
                      "--json` report), got \"%s\"", file, schema);
        goto out;
    }
    if (mg_plot_get_str(j, "network", file, "$", &net, d) ||
        mg_plot_get_str(j, "config", file, "$", &cfg, d) ||
        mg_plot_get_str(j, "mode", file, "$", &mode, d) ||
        mg_plot_get_num(j, "latency_s", file, "$", &lat, d) ||
        mg_plot_get_pos(j, "batch", file, "$", &batch, d) ||
        !(ls = mg_plot_get_arr(j, "layers", file, "$", d)))
        goto out;
    FILE *f = mg_plot_data_open(job, "net.dat", d);
    if (!f) goto out;
    double umax = 10;
    top_row top[NET_TOP];
    int ntop = 0, nrows = 0, idx = 0, bad = 0;
    const cJSON *l;
    cJSON_ArrayForEach(l, ls) {
        if (!bad) bad = layer_row(l, idx, file, f, &umax, top, &ntop, &nrows, d) != 0;
        idx++;
    }
    if (mg_plot_data_close(job, f, "net.dat", d) || bad) goto out;
    if (!nrows) {
        mg_diag_error(d, "%s: $.layers: no simulated layer to draw", file);
        goto out;
    }
    mg_plot_var_str(job, "network", net);
    mg_plot_var_str(job, "config", cfg);
    mg_plot_var_str(job, "mode", mode);
    mg_plot_var_num(job, "batch", batch);
    mg_plot_var_num(job, "latency_ms", lat * 1e3);
    mg_plot_var_num(job, "tmax", lat * 1e6);
    mg_plot_var_num(job, "umax", ceil(umax / 10) * 10);
    mg_plot_var_num(job, "nrows", nrows);
    mg_plot_var_num(job, "nmissing", idx - nrows);
    mg_plot_var_num(job, "ntop", ntop);
    mg_plot_var_num(job, "binds", levels_used(ls));
    for (int i = 0; i < ntop; i++) {
        char var[32];
        snprintf(var, sizeof var, "top_%d", i + 1);
        mg_plot_var_str(job, var, top[i].name);
        snprintf(var, sizeof var, "top_x_%d", i + 1);
        mg_plot_var_num(job, var, top[i].mid);
    }
    snprintf(job->summary, sizeof job->summary, "%s on %s: %d layers drawn over %.3f ms", net,
             cfg, nrows, lat * 1e3);
    rc = 0;
out:
    mg_plot_unload(job, j);
    return rc;
}
