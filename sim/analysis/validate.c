/*
 * validate.c - load timings, simulate every timed kernel (in parallel:
 * each kernel is independent, its result lands in its own slot, so the
 * output does not depend on the thread count), summarize (see validate.h).
 */
#include "sim/analysis/validate.h"
#include "sim/analysis/knee.h"
#include "sim/analytic/analytic.h"
#include "base/term.h"
#include "sim/analysis/stats.h"
#include "sim/analysis/suite.h"
#include "traces/gen/gen.h"
#include "traces/gen/op.h"
#include "sim/model/model.h"
#include "base/jsonfile.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_WORDS 64

void mg_validate_free(mg_validation *v)
{
    free(v->k);
    free(v->groups);
    free(v->miss);
    free(v->res);
    free(v->byrows);
    if (v->cmp) free(v->cmp->rows);
    free(v->cmp);
    memset(v, 0, sizeof *v);
}

/* ---- reading the timings --------------------------------------------------- */

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(j) ? j->valuestring : NULL;
}

static int int_of(const cJSON *o, const char *key)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(j) && j->valuedouble >= 0 && j->valuedouble < 1e6 ? (int)j->valuedouble
                                                                           : -1;
}

/* The medians of the even and of the odd repetitions into out[], and
 * the shift between the first and second half of the run (time order)
 * into *shift; NaN under 4 samples. */
static void halves(const cJSON *samples, double out[2], double *shift)
{
    out[0] = out[1] = *shift = NAN;
    int n = cJSON_IsArray(samples) ? cJSON_GetArraySize(samples) : 0;
    if (n < 4 || n > 100000) return;
    double *x = malloc(2 * (size_t)n * sizeof *x), *t = x + n;
    if (!x) return;
    size_t ne = 0, no = (size_t)(n + 1) / 2;
    int i = 0;
    for (const cJSON *s = samples->child; s; s = s->next, i++) {
        if (!cJSON_IsNumber(s) || !(s->valuedouble > 0)) {
            free(x);
            return;
        }
        t[i] = s->valuedouble;
        if (i % 2) x[no++] = s->valuedouble;
        else x[ne++] = s->valuedouble;
    }
    out[0] = mg_stats_median(x, (size_t)(n + 1) / 2);
    out[1] = mg_stats_median(x + (n + 1) / 2, (size_t)n / 2);
    *shift = mg_knee_shift(t, n);
    free(x);
}

/* Split the schedule text into words (op first), set warp= to the device's
 * warp width.  Returns the number of words, or -1 when it does not fit. */
static int split_words(char *text, char **w, char *warp, size_t warplen, int64_t warp_width)
{
    int n = 0, has_warp = 0;
    char *save = NULL;
    for (char *t = strtok_r(text, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
        if (n >= MAX_WORDS - 1) return -1;
        if (!strncmp(t, "warp=", 5)) {
            snprintf(warp, warplen, "warp=%lld", (long long)warp_width);
            t = warp;
            has_warp = 1;
        }
        w[n++] = t;
    }
    if (n > 0 && !has_warp) {
        snprintf(warp, warplen, "warp=%lld", (long long)warp_width);
        w[n++] = warp;
    }
    return n;
}

/* Is the word at w ("key=value") one of the operator's own keys? */
static int own_key(const mg_op *op, const char *w)
{
    size_t n = strcspn(w, "=");
    for (const mg_key *k = op->keys; k && k->name; k++)
        if (strlen(k->name) == n && !strncmp(k->name, w, n)) return 1;
    return 0;
}

/* The group of a schedule: the operator and its own (shape) keys, as the
 * first words of the canonical text (a quiet key at its default is not
 * there, so the words are matched by name, not counted). */
static void group_of(const mg_schedule *s, char *out, size_t len)
{
    char text[2048];
    mg_schedule_format(s, text, sizeof text);
    size_t i = strcspn(text, " ");
    while (text[i] == ' ' && own_key(s->op, text + i + 1)) i += 1 + strcspn(text + i + 1, " ");
    snprintf(out, len, "%.*s", (int)i, text);
}

static size_t group_index(mg_validation *v, const char *name, mg_diag *d)
{
    for (size_t g = 0; g < v->ngroups; g++)
        if (!strcmp(v->groups[g].name, name)) return g;
    mg_vsummary *ng = realloc(v->groups, (v->ngroups + 1) * sizeof *ng);
    if (!ng) {
        mg_diag_error(d, "out of memory");
        return 0;
    }
    v->groups = ng;
    memset(&ng[v->ngroups], 0, sizeof *ng);
    snprintf(ng[v->ngroups].name, sizeof ng[v->ngroups].name, "%s", name);
    return v->ngroups++;
}

/* One kernel entry of the timings into v->k[i]; its schedule into *s.
 * Bad schedule words are added to d. */
static void load_kernel(mg_validation *v, const mg_device *dev, const cJSON *kj, size_t i,
                        mg_schedule *s, mg_diag *d)
{
    mg_vkernel *k = &v->k[i];
    k->index = i;
    k->predicted_ns = k->bound_ns = NAN;
    k->binding = "";
    const char *sched = str_of(kj, "schedule"), *status = str_of(kj, "status");
    snprintf(k->schedule, sizeof k->schedule, "%s", sched);
    k->regs_estimate = int_of(kj, "regs_estimate");
    k->regs_compiler = int_of(kj, "regs_compiler");
    k->stack_compiler = int_of(kj, "stack_compiler");
    halves(cJSON_GetObjectItemCaseSensitive(kj, "samples"), k->half_ns, &k->shift);
    char text[1024], *w[MAX_WORDS], warp[32];
    snprintf(text, sizeof text, "%s", sched);
    int n = split_words(text, w, warp, sizeof warp, dev->warp_width);
    mg_diag pd;
    mg_diag_init(&pd);
    if (n < 1) mg_diag_error(&pd, "expected \"OP key=value ...\"");
    else mg_schedule_parse(w[0], n - 1, w + 1, s, &pd);
    if (mg_diag_failed(&pd)) {
        for (size_t j = 0; j < pd.stored; j++)
            mg_diag_error(d, "%s: $.kernels[%zu].schedule: %s", v->timings, i, pd.msg[j]);
        mg_diag_free(&pd);
        return;
    }
    mg_diag_free(&pd);
    char g[256];
    group_of(s, g, sizeof g);
    k->group = group_index(v, g, d);
    if (strcmp(status, "ok")) {
        k->status = MG_VK_SKIPPED;
        snprintf(k->reason, sizeof k->reason, "%s: %s", status, str_of(kj, "reason"));
        return;
    }
    const cJSON *ns = cJSON_GetObjectItemCaseSensitive(kj, "ns");
    k->measured_ns = cJSON_GetObjectItemCaseSensitive(ns, "median")->valuedouble;
    k->spread = cJSON_GetObjectItemCaseSensitive(ns, "spread")->valuedouble;
    if (!(k->measured_ns > 0)) {
        k->status = MG_VK_SKIPPED;
        snprintf(k->reason, sizeof k->reason, "measured median is 0 ns");
    }
}

/* ---- simulating -------------------------------------------------------------- */

typedef struct job {
    mg_validation     *v;
    const mg_device   *dev;
    const mg_schedule *s;
    const mg_validate_opts *o;
    pthread_mutex_t    lock;
    size_t             next, done;     /* under lock */
    char             **fatal;          /* per kernel: the generator's error */
    int                progress;
} job;

/* Kernel k by the analytical model: its prediction, the throughput floor
 * as its bound, occupancy as resident warps; no stalls.  A refusal marks
 * it failed. */
static void analytic_one(const mg_device *dev, mg_trace_source *src, mg_vkernel *k, mg_diag *d)
{
    mg_am_est e;
    if (mg_am_estimate(dev, src, &e, d)) {
        k->status = MG_VK_FAILED;
        snprintf(k->reason, sizeof k->reason, "analytical model: %s", mg_diag_first(d));
        return;
    }
    uint64_t resident = (uint64_t)e.wgs_per_sp * e.warps_per_wg;
    k->predicted_ns = e.seconds * 1e9;
    k->bound_ns = e.floor_cycles / dev->clock_hz * 1e9;
    k->binding = e.bound_by_floor ? "floor" : "latency";
    k->below_bound = k->measured_ns < k->bound_ns;
    k->occupancy = (double)(resident < e.occupancy ? resident : e.occupancy);
    k->occ_groups = e.groups_per_wg;
    for (int c = 0; c < MG_STALL_COUNT; c++) k->stall[c] = 0;
}

/* Simulate kernel i: fills predicted, bound, occupancy, stall shares; a simulation
 * failure marks it failed; a generator error goes to fatal[i]. */
static void sim_one(job *J, size_t i)
{
    mg_vkernel *k = &J->v->k[i];
    mg_gen *g = calloc(1, sizeof *g);
    mg_diag d;
    mg_diag_init(&d);
    if (!g) {
        k->status = MG_VK_FAILED;
        snprintf(k->reason, sizeof k->reason, "out of memory");
        goto out;
    }
    if (mg_gen_prepare(g, &J->s[i], &d)) {
        J->fatal[i] = strdup(mg_diag_first(&d));
        goto out;
    }
    k->regs_simulated = k->regs_estimate = (int)g->hdr.regs_per_item;
    k->flops = g->k.f.flops;
    if (mg_gen_check_work(g, J->o->max_work, &d)) {
        k->status = MG_VK_FAILED;
        snprintf(k->reason, sizeof k->reason, "%s", mg_diag_first(&d));
        goto out;
    }
    if (J->o->regs == MG_VREGS_COMPILER && k->regs_compiler > 0) {
        g->hdr.regs_per_item = (uint32_t)k->regs_compiler;
        k->regs_simulated = k->regs_compiler;
    }
    mg_gen_stream gs;
    mg_trace_source src = mg_gen_source(&gs, g);
    mg_sim_opts so;
    memset(&so, 0, sizeof so);
    so.quiet = 1;
    so.sample = J->o->sample;
    so.warm_l2 = J->v->warmup > 0;
    if (J->o->predictor == MG_PRED_ANALYTIC) {
        analytic_one(J->dev, &src, k, &d);
        goto out;
    }
    mg_sim_stats st;
    if (mg_sim_run(J->dev, &src, &so, &st, &d)) {
        k->status = MG_VK_FAILED;
        snprintf(k->reason, sizeof k->reason, "simulation: %s", mg_diag_first(&d));
        goto out;
    }
    mg_roofline rf;
    mg_roofline_compute(J->dev, &st, &rf);
    k->predicted_ns = st.seconds * 1e9;
    k->bound_ns = rf.bound_seconds * 1e9;
    k->binding = mg_level_name(rf.binding);
    k->below_bound = k->measured_ns < k->bound_ns;
    k->occupancy = st.resident_warps_mean;
    k->occ_groups = st.occupancy_groups;
    double total = 0;
    for (int c = 0; c < MG_STALL_COUNT; c++) total += st.stall[c];
    for (int c = 0; c < MG_STALL_COUNT; c++) k->stall[c] = total > 0 ? st.stall[c] / total : 0;
out:
    mg_diag_free(&d);
    if (g) mg_gen_free(g);
    free(g);
}

static void *worker(void *arg)
{
    job *J = arg;
    for (;;) {
        pthread_mutex_lock(&J->lock);
        size_t i = J->next;
        while (i < J->v->n && J->v->k[i].status != MG_VK_OK) i++;
        J->next = i + 1;
        pthread_mutex_unlock(&J->lock);
        if (i >= J->v->n) break;
        sim_one(J, i);
        pthread_mutex_lock(&J->lock);
        J->done++;
        if (J->progress)
            fprintf(stderr, "\rmgsim: validate: %zu/%zu kernels simulated", J->done, J->v->n_ok);
        pthread_mutex_unlock(&J->lock);
    }
    return NULL;
}

static int simulate_all(mg_validation *v, const mg_device *dev, const mg_schedule *s,
                        const mg_validate_opts *o, mg_diag *d)
{
    job J;
    memset(&J, 0, sizeof J);
    J.v = v;
    J.dev = dev;
    J.s = s;
    J.o = o;
    J.fatal = calloc(v->n ? v->n : 1, sizeof *J.fatal);
    J.progress = !o->quiet && mg_term_progress();
    if (!J.fatal || pthread_mutex_init(&J.lock, NULL)) {
        free(J.fatal);
        mg_diag_error(d, "out of memory");
        return -1;
    }
    int nt = o->jobs < 1 ? 1 : o->jobs > 256 ? 256 : o->jobs;
    pthread_t th[256];
    int started = 0;
    for (int t = 1; t < nt; t++, started++)
        if (pthread_create(&th[t], NULL, worker, &J)) break;
    worker(&J);
    for (int t = 1; t <= started; t++) pthread_join(th[t], NULL);
    pthread_mutex_destroy(&J.lock);
    if (J.progress) fprintf(stderr, "\n");
    int rc = 0;
    for (size_t i = 0; i < v->n; i++)
        if (J.fatal[i]) {
            mg_diag_error(d, "%s: $.kernels[%zu].schedule: the generator rejects it: %s",
                          v->timings, i, J.fatal[i]);
            free(J.fatal[i]);
            rc = -1;
        }
    free(J.fatal);
    return rc;
}

int mg_validate_run(const mg_device *dev, const char *config_path, const char *timings,
                    const mg_validate_opts *o, mg_validation *v, mg_diag *d)
{
    memset(v, 0, sizeof *v);
    snprintf(v->config, sizeof v->config, "%s", config_path);
    snprintf(v->device, sizeof v->device, "%s", dev->name);
    snprintf(v->timings, sizeof v->timings, "%s", timings);
    v->regs = o->regs;
    v->sample = o->sample;
    v->predictor = o->predictor;
    v->by = o->by;
    cJSON *t = mg_json_load(timings, d);
    if (!t) return -1;
    mg_schedule *s = NULL;
    if (mg_timings_validate(t, timings, d)) goto fail;
    const cJSON *dv = cJSON_GetObjectItemCaseSensitive(t, "device");
    snprintf(v->timings_device, sizeof v->timings_device, "%s", str_of(dv, "name"));
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(t, "settings");
    const cJSON *wu = cJSON_GetObjectItemCaseSensitive(st, "warmup");
    v->warmup = cJSON_IsNumber(wu) && wu->valuedouble >= 0 && wu->valuedouble <= 1e6
                    ? (int)wu->valuedouble : -1;      /* out of range: unknown */
    const char *suite = str_of(t, "suite_name");
    snprintf(v->suite, sizeof v->suite, "%s", suite ? suite : "");
    const cJSON *ks = cJSON_GetObjectItemCaseSensitive(t, "kernels");
    size_t n = (size_t)cJSON_GetArraySize(ks);      /* 1..MG_SUITE_MAX: validated */
    v->k = calloc(n, sizeof *v->k);
    s = calloc(n, sizeof *s);
    if (!v->k || !s) {
        mg_diag_error(d, "out of memory");
        goto fail;
    }
    v->n = n;
    size_t i = 0;
    for (const cJSON *kj = ks->child; kj; kj = kj->next, i++)
        load_kernel(v, dev, kj, i, &s[i], d);
    if (mg_diag_failed(d)) goto fail;
    for (i = 0; i < n; i++) v->n_ok += v->k[i].status == MG_VK_OK;
    if (simulate_all(v, dev, s, o, d)) goto fail;
    free(s);
    cJSON_Delete(t);
    mg_validate_summarize(v);
    return 0;
fail:
    free(s);
    cJSON_Delete(t);
    mg_validate_free(v);
    return -1;
}

/* ---- statistics ---------------------------------------------------------------- */

/* Summarize the compared kernels of group g (SIZE_MAX: all) into *out. */
static void summarize_one(const mg_validation *v, size_t g, mg_vsummary *out, double *p,
                          double *m, double *ha, double *hb, long *idx)
{
    size_t n = 0, nh = 0;
    out->below_bound = 0;
    for (size_t i = 0; i < v->n; i++) {
        const mg_vkernel *k = &v->k[i];
        if (k->status != MG_VK_OK || (g != (size_t)-1 && k->group != g)) continue;
        p[n] = k->predicted_ns;
        m[n] = k->measured_ns;
        idx[n++] = (long)k->index;
        out->below_bound += (size_t)k->below_bound;
        if (isfinite(k->half_ns[0]) && isfinite(k->half_ns[1])) {
            ha[nh] = k->half_ns[0];
            hb[nh++] = k->half_ns[1];
        }
    }
    out->n = n;
    out->mape = mg_stats_mape(p, m, n);
    out->aggregate = mg_stats_aggregate(p, m, n);
    out->pearson = mg_stats_pearson(p, m, n);
    out->pearson_log = mg_stats_pearson_log(p, m, n);
    out->spearman = mg_stats_spearman(p, m, n);
    out->kendall = mg_stats_kendall_b(p, m, n);
    out->kendall_noise = nh == n ? mg_stats_kendall_b(ha, hb, nh) : NAN;
    out->regret = mg_stats_top1_regret(p, m, n);
    out->k = n < MG_VALIDATE_TOPK ? n : MG_VALIDATE_TOPK;
    out->recall = mg_stats_topk_recall(p, m, n, MG_VALIDATE_TOPK);
    out->best = out->pick = -1;
    for (size_t j = 0; j < n; j++) {
        if (out->best < 0 || m[j] < m[(size_t)out->best]) out->best = (long)j;
        if (out->pick < 0 || p[j] < p[(size_t)out->pick]) out->pick = (long)j;
    }
    if (out->best >= 0) out->best = idx[out->best];
    if (out->pick >= 0) out->pick = idx[out->pick];
}

/* Mean of the finite values among n (NaN when none). */
static void mean_acc(double *sum, size_t *cnt, double x)
{
    if (isfinite(x)) {
        *sum += x;
        (*cnt)++;
    }
}

static void group_mean(mg_validation *v)
{
    mg_vsummary *a = &v->mean;
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "group mean");
    double s[9] = {0};
    size_t c[9] = {0};
    for (size_t g = 0; g < v->ngroups; g++) {
        const mg_vsummary *x = &v->groups[g];
        if (x->n < 2) continue;
        a->groups++;
        a->n += x->n;
        a->below_bound += x->below_bound;
        const double f[9] = {x->mape, x->aggregate, x->pearson, x->pearson_log, x->spearman,
                             x->kendall, x->kendall_noise, x->regret, x->recall};
        for (int j = 0; j < 9; j++) mean_acc(&s[j], &c[j], f[j]);
    }
    double r[9];
    for (int j = 0; j < 9; j++) r[j] = c[j] ? s[j] / (double)c[j] : NAN;
    a->mape = r[0];
    a->aggregate = r[1];
    a->pearson = r[2];
    a->pearson_log = r[3];
    a->spearman = r[4];
    a->kendall = r[5];
    a->kendall_noise = r[6];
    a->regret = r[7];
    a->recall = r[8];
    a->k = MG_VALIDATE_TOPK;
    a->best = a->pick = -1;
}

/* The compared kernels with and without a compiler stack frame: their
 * counts and median errors into v->regstat (e, ae: scratch of v->n). */
static void stack_split(mg_validation *v, double *e, double *ae)
{
    mg_vregs *r = &v->regstat;
    r->stack_n = r->nostack_n = 0;
    for (size_t i = 0; i < v->n; i++) {
        const mg_vkernel *k = &v->k[i];
        if (k->status != MG_VK_OK || k->stack_compiler < 0) continue;
        double x = k->predicted_ns / k->measured_ns - 1;
        if (!isfinite(x)) continue;
        if (k->stack_compiler > 0) e[r->stack_n++] = x;
        else ae[r->nostack_n++] = x;
    }
    r->stack_error = mg_stats_median(e, r->stack_n);
    r->nostack_error = mg_stats_median(ae, r->nostack_n);
}

static void regs_summary(mg_validation *v)
{
    mg_vregs *r = &v->regstat;
    memset(r, 0, sizeof *r);
    double *e = malloc(2 * (v->n ? v->n : 1) * sizeof *e);
    if (!e) return;
    double *ae = e + v->n, rel = 0;
    for (size_t i = 0; i < v->n; i++) {
        const mg_vkernel *k = &v->k[i];
        if (k->regs_estimate < 0 || k->regs_compiler <= 0) continue;
        double x = k->regs_estimate - k->regs_compiler;
        e[r->n] = x;
        ae[r->n++] = fabs(x);
        rel += fabs(x) / k->regs_compiler;
        r->within25 += fabs(x) <= 0.25 * k->regs_compiler;
        r->under += x < 0;
    }
    r->median_error = mg_stats_median(e, r->n);
    r->median_abs_error = mg_stats_median(ae, r->n);
    r->mape = r->n ? rel / (double)r->n : NAN;
    stack_split(v, e, ae);
    free(e);
}

void mg_validate_summarize(mg_validation *v)
{
    size_t n = v->n ? v->n : 1;
    double *buf = malloc(4 * n * sizeof *buf);
    long *idx = malloc(n * sizeof *idx);
    if (!buf || !idx) {
        free(buf);
        free(idx);
        return;
    }
    v->n_skipped = v->n_failed = 0;
    for (size_t i = 0; i < v->n; i++) {
        v->n_skipped += v->k[i].status == MG_VK_SKIPPED;
        v->n_failed += v->k[i].status == MG_VK_FAILED;
    }
    v->n_ok = v->n - v->n_skipped - v->n_failed;
    snprintf(v->all.name, sizeof v->all.name, "all");
    summarize_one(v, (size_t)-1, &v->all, buf, buf + n, buf + 2 * n, buf + 3 * n, idx);
    for (size_t g = 0; g < v->ngroups; g++)
        summarize_one(v, g, &v->groups[g], buf, buf + n, buf + 2 * n, buf + 3 * n, idx);
    group_mean(v);
    regs_summary(v);
    for (size_t i = 0; i < v->n; i++) mg_validate_knobs(&v->k[i]);
    mg_validate_misses(v);
    mg_validate_residuals(v);
    mg_validate_by(v);
    free(buf);
    free(idx);
}
