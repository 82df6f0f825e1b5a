/*
 * nt_run.c - a network's layers to kernels and the network's time
 * (nettune.h): derive, look up, search, sum.
 */
#include "sim/nettune/nettune.h"
#include "sim/nettune/nt_space.h"
#include "sim/net/nop.h"
#include "sim/search/screen.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Work state of one run. */
typedef struct run {
    const mg_nt_cfg *cfg;
    mg_nt_result *r;
    char (*keys)[24];             /* per kernel */
    mg_nt_space sp;
} run;

static const char *given_words(const mg_nt_given *g, const char *name)
{
    for (int i = 0; i < g->n; i++)
        if (!strcmp(g->name[i], name)) return g->words[i];
    return NULL;
}

/* Find or make the kernel of `what` (a space or a schedule): the index
 * into r->kernels, or -1 with the problem in d. */
static int kernel_of(run *w, const mg_net_layer *l, const char *kind, const char *what,
                     mg_diag *d)
{
    mg_nt_result *r = w->r;
    const mg_nt_cfg *cfg = w->cfg;
    char key[24];
    mg_nt_cache_key(&cfg->search, kind, what, key);
    for (int i = 0; i < r->nkernels; i++)
        if (!strcmp(w->keys[i], key)) return i;        /* a layer met before */
    int i = r->nkernels++;
    mg_nt_kernel *k = &r->kernels[i];
    snprintf(w->keys[i], sizeof w->keys[i], "%s", key);
    if (mg_nt_cache_get(cfg->cache, key, k)) {
        r->cached[i] = 1;
        return i;
    }
    if (cfg->progress)
        fprintf(stderr, "mgsim: net: %s: %s\n", l->name, cfg->given ? "simulating" : "searching");
    if (cfg->given) {
        memset(k, 0, sizeof *k);
        mg_nt_simulate(&cfg->search, what, k);
        k->space = k->kept = 1;
        k->simulated = k->ok;
    } else if (mg_nt_search_space(&cfg->search, what, k, d)) {
        mg_diag_error(d, "%s: layer %s: the search failed", r->net->file, l->name);
        return -1;
    }
    r->simulated += k->simulated;
    if (mg_nt_cache_put(cfg->cache, key, k, d)) return -1;
    return i;
}

/* Whether name is one of the comma-separated names of list. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, name, n)) return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

/* Layer l's row.  0, or -1 with the problem in d. */
static int layer_row(run *w, int li, mg_nt_row *row, mg_diag *d)
{
    const mg_net_layer *l = &w->r->net->layers[li];
    const mg_nt_cfg *cfg = w->cfg;
    row->layer = li;
    row->kernel = -1;
    row->reps = 1;
    const char *kind = "space", *what = w->sp.text;
    if (cfg->only && !listed(cfg->only, l->name)) {
        snprintf(row->why, sizeof row->why, "not asked for (--only)");
        return 0;
    }
    if (cfg->given) {
        kind = "schedule";
        what = given_words(cfg->given, l->name);
        if (!what) {
            snprintf(row->why, sizeof row->why, "no schedule given (--layers-only)");
            return 0;
        }
    } else if (mg_nt_space_derive(w->r->net, l, cfg->batch, &w->sp, row->why, sizeof row->why)) {
        return 0;
    } else {
        row->reps = w->sp.reps;
    }
    int k = kernel_of(w, l, kind, what, d);
    if (k < 0) return -1;
    const mg_nt_kernel *kk = &w->r->kernels[k];
    if (!kk->ok) {
        snprintf(row->why, sizeof row->why, "no kernel: %.200s", kk->why);
        return 0;
    }
    row->kernel = k;
    row->seconds = (double)row->reps * (kk->seconds + w->r->gap_s);
    return 0;
}

/* The totals over the rows. */
static void totals(mg_nt_result *r)
{
    for (int i = 0; i < r->nrows; i++) {
        const mg_nt_row *row = &r->rows[i];
        if (row->kernel < 0) {
            r->not_simulated++;
            continue;
        }
        const mg_nt_kernel *k = &r->kernels[row->kernel];
        r->launches += row->reps;
        r->kernel_s += (double)row->reps * k->seconds;
        r->flops += (double)row->reps * k->flops;
    }
    r->gap_total_s = (double)r->launches * r->gap_s;
    r->total_s = r->kernel_s + r->gap_total_s;
}

/* The mode and rules names of the report. */
static void names(const mg_nt_cfg *cfg, mg_nt_result *r)
{
    if (cfg->given) snprintf(r->mode, sizeof r->mode, "given");
    else if (cfg->search.screen_k) mg_screen_str(cfg->search.screen_k, 0, r->mode, sizeof r->mode);
    else snprintf(r->mode, sizeof r->mode, "exhaustive");
    if (cfg->search.rules && !cfg->given)
        snprintf(r->rules, sizeof r->rules, "%s", cfg->search.rules->name);
}

int mg_nt_run(const mg_nt_cfg *cfg, const mg_net *net, mg_nt_result *r, mg_diag *d)
{
    memset(r, 0, sizeof *r);
    r->net = net;
    r->batch = cfg->batch;
    snprintf(r->config, sizeof r->config, "%s", cfg->search.dev->name);
    r->given = cfg->given != NULL;
    r->gap_s = cfg->search.dev->dispatch_gap_s;
    names(cfg, r);
    int n = net->nlayers;
    run w = {.cfg = cfg, .r = r};
    r->rows = calloc((size_t)n + 1, sizeof *r->rows);
    r->kernels = calloc((size_t)n + 1, sizeof *r->kernels);
    r->cached = calloc((size_t)n + 1, sizeof *r->cached);
    w.keys = calloc((size_t)n + 1, sizeof *w.keys);
    if (!r->rows || !r->kernels || !r->cached || !w.keys) {
        free(w.keys);
        mg_diag_error(d, "out of memory");
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        rc = layer_row(&w, net->order[i], &r->rows[i], d);
        r->nrows = i + 1;
    }
    free(w.keys);
    if (!rc) totals(r);
    return rc;
}

void mg_nt_result_free(mg_nt_result *r)
{
    free(r->rows);
    free(r->kernels);
    free(r->cached);
    memset(r, 0, sizeof *r);
}
