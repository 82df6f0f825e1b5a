/*
 * nt_run.c - a network's layers to kernels and the network's time
 * (nettune.h): derive each layer's space and look its kernel up (a layer
 * met before, the cache), search the distinct spaces left in parallel
 * (min(threads, searches) workers taking them in order, each search on
 * the threads left over), cache their results in order, sum.  The report
 * is the same for any thread count: a search's result does not depend on
 * its threads or on which worker ran it.
 */
#include "sim/nettune/nettune.h"
#include "sim/nettune/nt_space.h"
#include "sim/net/nop.h"
#include "sim/search/screen.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One search (or, --layers-only, one simulation) to run: kernel `kernel`
 * of the result, first met at layer l. */
typedef struct job {
    int      kernel;
    const mg_net_layer *l;
    const char *kind;
    char    *what;                /* the space text or the schedule (owned) */
    int      rc;
    mg_diag  d;
} job;

/* Work state of one run. */
typedef struct run {
    const mg_nt_cfg *cfg;
    mg_nt_result *r;
    char (*keys)[24];             /* per kernel */
    mg_nt_space sp;
    job     *jobs;                /* kernels to search, in order of first use */
    int      njobs, next;         /* next: the next job a worker takes (under mu) */
    mg_nt_search search;          /* cfg->search on the threads of one worker */
    pthread_mutex_t mu;
} run;

static const char *given_words(const mg_nt_given *g, const char *name)
{
    for (int i = 0; i < g->n; i++)
        if (!strcmp(g->name[i], name)) return g->words[i];
    return NULL;
}

/* Find or make the kernel of `what` (a space or a schedule): the index
 * into r->kernels, from a layer met before, the cache, or a new job.
 * Returns the index, or -1 out of memory (in d). */
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
    snprintf(w->keys[i], sizeof w->keys[i], "%s", key);
    if (mg_nt_cache_get(cfg->cache, key, &r->kernels[i])) {
        r->cached[i] = 1;
        return i;
    }
    job *j = &w->jobs[w->njobs];
    j->what = strdup(what);
    if (!j->what) return mg_diag_error(d, "out of memory"), -1;
    j->kernel = i;
    j->l = l;
    j->kind = kind;
    mg_diag_init(&j->d);
    w->njobs++;
    return i;
}

/* Run job j: search its space, or simulate its schedule (--layers-only). */
static void run_job(run *w, job *j)
{
    const mg_nt_cfg *cfg = w->cfg;
    mg_nt_kernel *k = &w->r->kernels[j->kernel];
    if (cfg->progress) {
        pthread_mutex_lock(&w->mu);
        fprintf(stderr, "mgsim: net: %s: %s\n", j->l->name, cfg->given ? "simulating" : "searching");
        pthread_mutex_unlock(&w->mu);
    }
    if (cfg->given) {
        memset(k, 0, sizeof *k);
        mg_nt_simulate(&w->search, j->what, k);
        k->space = k->kept = 1;
        k->simulated = k->ok;
    } else if (mg_nt_search_space(&w->search, j->what, k, &j->d)) {
        mg_diag_error(&j->d, "%s: layer %s: the search failed", w->r->net->file, j->l->name);
        j->rc = -1;
    }
}

/* A worker: take the next job until none is left. */
static void *worker(void *p)
{
    run *w = p;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        int i = w->next < w->njobs ? w->next++ : -1;
        pthread_mutex_unlock(&w->mu);
        if (i < 0) return NULL;
        run_job(w, &w->jobs[i]);
    }
}

/* Run every job on the run's threads: min(threads, jobs) workers, each
 * search on threads / workers of them.  Which worker runs a job changes
 * nothing in its result (a sweep's is independent of its threads). */
static void run_jobs(run *w)
{
    int threads = w->cfg->search.threads < 1 ? 1 : w->cfg->search.threads;
    int nw = threads < w->njobs ? threads : w->njobs;
    if (nw > 64) nw = 64;
    if (nw < 1) return;
    w->search = w->cfg->search;
    w->search.threads = threads / nw > 0 ? threads / nw : 1;
    pthread_t tid[64];
    int started = 0;
    for (; started < nw - 1; started++)
        if (pthread_create(&tid[started], NULL, worker, w)) break;
    worker(w);                    /* this thread is a worker too */
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
}

/* After the jobs, in kernel order: count what was simulated and store
 * every result in the cache; the first failed job's problem into d.
 * Returns 0, or -1. */
static int finish_jobs(run *w, mg_diag *d)
{
    int rc = 0;
    for (int i = 0; i < w->njobs; i++) {
        job *j = &w->jobs[i];
        const mg_nt_kernel *k = &w->r->kernels[j->kernel];
        if (j->rc) {
            for (size_t m = 0; m < j->d.stored && !rc; m++) mg_diag_error(d, "%s", j->d.msg[m]);
            rc = -1;
            continue;
        }
        w->r->simulated += k->simulated;
        if (!rc && mg_nt_cache_put(w->cfg->cache, w->keys[j->kernel], k, d)) rc = -1;
    }
    return rc;
}

static void free_jobs(run *w)
{
    for (int i = 0; i < w->njobs; i++) {
        free(w->jobs[i].what);
        mg_diag_free(&w->jobs[i].d);
    }
    free(w->jobs);
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

/* Layer li's row up to its kernel (row->kernel; -1 with the reason when
 * it has none to look for).  0, or -1 with the problem in d. */
static int plan_row(run *w, int li, mg_nt_row *row, mg_diag *d)
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
    row->kernel = kernel_of(w, l, kind, what, d);
    return row->kernel < 0 ? -1 : 0;
}

/* A planned row's time, its kernel found (or why there is none). */
static void row_time(const mg_nt_result *r, mg_nt_row *row)
{
    if (row->kernel < 0) return;
    const mg_nt_kernel *kk = &r->kernels[row->kernel];
    if (!kk->ok) {
        snprintf(row->why, sizeof row->why, "no kernel: %.200s", kk->why);
        row->kernel = -1;
        return;
    }
    row->seconds = (double)row->reps * (kk->seconds + r->gap_s);
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
    w.jobs = calloc((size_t)n + 1, sizeof *w.jobs);
    if (!r->rows || !r->kernels || !r->cached || !w.keys || !w.jobs) {
        free(w.keys);
        free(w.jobs);
        mg_diag_error(d, "out of memory");
        return -1;
    }
    pthread_mutex_init(&w.mu, NULL);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        rc = plan_row(&w, net->order[i], &r->rows[i], d);
        r->nrows = i + 1;
    }
    if (!rc) {
        run_jobs(&w);
        rc = finish_jobs(&w, d);
    }
    for (int i = 0; i < r->nrows && !rc; i++) row_time(r, &r->rows[i]);
    pthread_mutex_destroy(&w.mu);
    free_jobs(&w);
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
