/*
 * screen.c - the analytical screen of a two-stage sweep (screen.h): the
 * candidates listed once (rules evaluated), each one's analytical time on
 * N threads (each thread its own share, written to its own slots), then
 * the K fastest of each shape chosen.
 */
#include "sim/search/screen.h"
#include "sim/analytic/analytic.h"
#include "sim/search/space_list.h"
#include "traces/gen/gen.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct scand {
    uint64_t index;
    int      group;               /* shape group (0 without shape keys) */
    int      kept;                /* the rules keep it (1 without rules) */
    char    *words;
    double   score;               /* analytical seconds; INFINITY: refused */
} scand;

typedef struct screen {
    const mg_sweep_cfg *cfg;
    mg_sweep_sum *sum;
    scand   *c;
    uint64_t n, cap;
    const mg_space_list *list;    /* the members, the rules fired on each */
    int      nthreads, failed;
    mg_diag *d;
} screen;

int mg_screen_parse(const char *s, uint64_t *k, int *kept)
{
    if (strncmp(s, "analytic:", 9)) return -1;
    char *end;
    const char *p = s + 9;
    if (*p < '1' || *p > '9') return -1;
    unsigned long long v = strtoull(p, &end, 10);
    *kept = 0;
    if (!strcmp(end, "+kept")) *kept = 1;
    else if (*end) return -1;
    *k = v;
    return 0;
}

const char *mg_screen_str(uint64_t k, int kept, char *buf, size_t len)
{
    snprintf(buf, len, "analytic:%" PRIu64 "%s", k, kept ? "+kept" : "");
    return buf;
}

/* List member c when the sweep would simulate it. */
static int list_visit(void *p, const mg_space_cand *c)
{
    screen *S = p;
    const mg_sweep_cfg *cfg = S->cfg;
    unsigned m = S->list->fired[c->index];
    if (cfg->pruned_only && m) return 0;
    if (S->n == S->cap) {
        uint64_t cap = S->cap ? 2 * S->cap : 1024;
        scand *q = realloc(S->c, cap * sizeof *q);
        if (!q) { mg_diag_error(S->d, "out of memory"); S->failed = 1; return 1; }
        S->c = q;
        S->cap = cap;
    }
    const mg_sweep_group *g = mg_sweep_group_of(S->sum, c->words, 0);
    scand *x = &S->c[S->n];
    x->index = c->index;
    x->group = g ? (int)(g - S->sum->group) : 0;
    x->kept = m == 0;
    x->score = INFINITY;
    x->words = strdup(c->words);
    if (!x->words) { mg_diag_error(S->d, "out of memory"); S->failed = 1; return 1; }
    S->n++;
    return 0;
}

/* The analytical time of one candidate, as the sweep would simulate it
 * (warp= the device's unless set); INFINITY when the generator or the
 * model refuses it. */
static double score_of(const mg_sweep_cfg *cfg, const char *words)
{
    char warp[32];
    snprintf(warp, sizeof warp, "warp=%lld", (long long)cfg->dev->warp_width);
    mg_diag d;
    mg_diag_init(&d);
    double t = INFINITY;
    mg_schedule s;
    mg_gen *g = calloc(1, sizeof *g);
    if (g && !mg_schedule_parse_line(words, NULL, &s, &d)) {
        int has_warp = mg_schedule_is_set(&s, "warp");
        if ((has_warp || !mg_schedule_parse_line(words, warp, &s, &d)) &&
            !mg_gen_prepare(g, &s, &d) && !mg_gen_check_work(g, cfg->max_work, &d)) {
            mg_gen_stream gs;
            mg_trace_source src = mg_gen_source(&gs, g);
            mg_am_est e;
            if (!mg_am_estimate(cfg->dev, &src, &e, &d)) t = e.seconds;
        }
    }
    if (g) mg_gen_free(g);
    free(g);
    mg_diag_free(&d);
    return t;
}

typedef struct share { screen *S; int t; } share;

static void *score_share(void *p)
{
    share *sh = p;
    screen *S = sh->S;
    for (uint64_t i = (uint64_t)sh->t; i < S->n; i += (uint64_t)S->nthreads)
        S->c[i].score = score_of(S->cfg, S->c[i].words);
    return NULL;
}

static void score_all(screen *S)
{
    int nt = S->cfg->threads < 1 ? 1 : S->cfg->threads > 64 ? 64 : S->cfg->threads;
    S->nthreads = nt;
    pthread_t tid[64];
    share sh[64];
    int started = 1;
    for (int t = 1; t < nt; t++, started++) {
        sh[t] = (share){S, t};
        if (pthread_create(&tid[t], NULL, score_share, &sh[t])) break;
    }
    sh[0] = (share){S, 0};
    if (started < nt) {         /* threads that did not start: thread 0 does their shares */
        for (uint64_t i = 0; i < S->n; i++)
            if ((int)(i % (uint64_t)nt) >= started) S->c[i].score = score_of(S->cfg, S->c[i].words);
    }
    score_share(&sh[0]);
    for (int t = 1; t < started; t++) pthread_join(tid[t], NULL);
}

static int by_group_score(const void *a, const void *b)
{
    const scand *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    if (x->score != y->score) return x->score < y->score ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Mark the K fastest of each group (and, with +kept, every kept one). */
static void choose(screen *S, unsigned char *keep)
{
    if (S->n) qsort(S->c, S->n, sizeof *S->c, by_group_score);   /* S->c is NULL when none */
    uint64_t in_group = 0;
    for (uint64_t i = 0; i < S->n; i++) {
        if (i == 0 || S->c[i].group != S->c[i - 1].group) in_group = 0;
        int take = in_group < S->cfg->screen_k && isfinite(S->c[i].score);
        take |= S->cfg->screen_kept && S->c[i].kept;
        if (take && !keep[S->c[i].index]) {
            keep[S->c[i].index] = 1;
            S->sum->screen_chosen++;
        }
        in_group++;
    }
}

/* Whether the sweep would simulate member `index` (its words wanted). */
static int rankable(void *p, uint64_t index)
{
    screen *S = p;
    return !S->cfg->pruned_only || !S->list->fired[index];
}

int mg_screen_select(const mg_sweep_cfg *cfg, mg_sweep_sum *sum, const mg_space_list *list,
                     unsigned char **keep, mg_diag *d)
{
    screen S = {.cfg = cfg, .sum = sum, .list = list, .d = d};
    int rc = -1;
    *keep = NULL;
    if (mg_space_visit_members(cfg->space, list->raw, list->n, rankable, list_visit, &S) < 0 &&
        !S.failed) {
        mg_diag_error(d, "internal: a listed member of the space does not parse");
        S.failed = 1;
    }
    if (S.failed) goto out;
    *keep = calloc(list->n ? list->n : 1, 1);
    if (!*keep) {
        mg_diag_error(d, "out of memory");
        goto out;
    }
    score_all(&S);
    sum->screen_ranked = S.n;
    choose(&S, *keep);
    rc = 0;
out:
    for (uint64_t i = 0; i < S.n; i++) free(S.c[i].words);
    free(S.c);
    return rc;
}
