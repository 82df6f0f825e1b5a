/* validate_report.c - the validation report as text and as JSON (see
 * validate.h).  Nothing is computed here beyond formatting. */
#include "sim/analysis/validate.h"
#include "sim/analytic/analytic.h"
#include "sim/model/model.h"
#include "sim/version.h"

#include <math.h>
#include <string.h>

/* The validation's aims: Kendall tau within groups, top-1 regret, MAPE. */
#define AIM_TAU    0.8
#define AIM_REGRET 0.10
#define AIM_MAPE   0.30
#define MAX_SHIFT  0.10       /* mgprobe time's default --max-shift */
#define SHIFT_LIST 64         /* at most this many shifted kernels listed */

static const char *const status_names[] = {"ok", "skipped", "failed"};

/* "12.3%" or "-" (NaN), right-aligned in w. */
static void pct(FILE *f, int w, double x)
{
    if (isfinite(x)) fprintf(f, " %*.1f%%", w - 1, 100 * x);
    else fprintf(f, " %*s", w, "-");
}

static void num(FILE *f, int w, double x)
{
    if (isfinite(x)) fprintf(f, " %*.2f", w, x);
    else fprintf(f, " %*s", w, "-");
}

static void summary_row(FILE *f, int nw, const char *name, const mg_vsummary *s)
{
    fprintf(f, "%-*s %4zu", nw, name, s->n);
    pct(f, 7, s->mape);
    pct(f, 7, s->aggregate);
    num(f, 5, s->pearson);
    num(f, 6, s->pearson_log);
    num(f, 5, s->spearman);
    num(f, 5, s->kendall);
    num(f, 5, s->kendall_noise);
    pct(f, 7, s->regret);
    if (isfinite(s->recall)) fprintf(f, " %3.0f/%zu", s->recall * (double)s->k, s->k);
    else fprintf(f, " %5s", "-");
    fprintf(f, " %6zu\n", s->below_bound);
}

/* How many groups (n >= 2) meet an aim. */
static size_t groups_meeting(const mg_validation *v, int which, size_t *of)
{
    size_t c = 0;
    *of = 0;
    for (size_t g = 0; g < v->ngroups; g++) {
        const mg_vsummary *s = &v->groups[g];
        if (s->n < 2) continue;
        (*of)++;
        if (which == 0) c += s->kendall >= AIM_TAU;
        else if (which == 1) c += s->regret <= AIM_REGRET;
        else c += s->mape <= AIM_MAPE;
    }
    return c;
}

/* The knobs of a schedule: its words after the group's. */
static const char *knobs(const mg_validation *v, const mg_vkernel *k)
{
    size_t gl = strlen(v->groups[k->group].name);
    if (!strncmp(k->schedule, v->groups[k->group].name, gl) && k->schedule[gl] == ' ')
        return k->schedule + gl + 1;
    return k->schedule;
}

/* The compared kernels whose samples shift by more than MAX_SHIFT
 * between the halves of their run: the count returned, the first cap
 * of their indices into idx; *with how many have samples. */
static size_t shifted(const mg_validation *v, size_t *idx, size_t cap, size_t *with)
{
    size_t n = 0;
    *with = 0;
    for (size_t i = 0; i < v->n; i++) {
        const mg_vkernel *k = &v->k[i];
        if (k->status != MG_VK_OK || !isfinite(k->shift)) continue;
        (*with)++;
        if (k->shift > MAX_SHIFT && n++ < cap) idx[n - 1] = k->index;
    }
    return n;
}

/* One line on the timings' steadiness (nothing when no kernel has
 * samples): how many compared kernels shifted part-way, and which. */
static void print_steadiness(FILE *f, const mg_validation *v)
{
    size_t idx[SHIFT_LIST], with, n = shifted(v, idx, SHIFT_LIST, &with);
    if (!with) return;
    fprintf(f, "steadiness: %zu of %zu compared kernels shift by more than %.0f%% between "
            "the halves of their samples", n, with, 100 * MAX_SHIFT);
    if (n) {
        fprintf(f, " (a run disturbed part-way; `mgprobe time --retime` times them again):");
        for (size_t i = 0; i < n && i < SHIFT_LIST; i++) fprintf(f, " %zu", idx[i]);
        if (n > SHIFT_LIST) fprintf(f, " ...");
    }
    fprintf(f, "\n");
}

void mg_validate_print_text(FILE *f, const mg_validation *v)
{
    fprintf(f, "validation of %s (%s) against %s\n", v->device, v->config, v->timings);
    fprintf(f, "measured on %s%s%s: %zu kernels, %zu compared, %zu not timed, %zu not "
            "simulated\n", v->timings_device, v->suite[0] ? ", suite " : "", v->suite, v->n,
            v->n_ok, v->n_skipped, v->n_failed);
    fprintf(f, "%s with the %s register count, %s, ",
            v->predictor == MG_PRED_ANALYTIC ? "predicted by the analytical model" : "simulated",
            v->regs == MG_VREGS_COMPILER ? "compiler's (where reported)" : "generator's",
            v->predictor == MG_PRED_ANALYTIC ? "one work group walked"
            : v->sample == MG_SAMPLE_OFF ? "every work group (exact)" : "sampled");
    if (v->warmup > 0)
        fprintf(f, "the L2 warm (the timings' %d warm-up launches)\n", v->warmup);
    else
        fprintf(f, "the L2 cold (%s)\n", v->warmup ? "no warm-up launches recorded"
                                                    : "no warm-up launches");
    int nw = 10;
    for (size_t g = 0; g < v->ngroups; g++) {
        int l = (int)strlen(v->groups[g].name) + 4;
        if (l > nw) nw = l;
    }
    fprintf(f, "\n%-*s %4s %7s %7s %5s %6s %5s %5s %5s %7s %5s %6s\n", nw, "group", "n", "MAPE",
            "aggr", "r", "r(log)", "rho", "tau", "tau*", "regret", "top5", "<bound");
    summary_row(f, nw, "all", &v->all);
    char name[64];
    snprintf(name, sizeof name, "mean of %zu groups", v->mean.groups);
    summary_row(f, nw, name, &v->mean);
    for (size_t g = 0; g < v->ngroups; g++) {
        char gn[300];
        snprintf(gn, sizeof gn, "g%zu %s", g + 1, v->groups[g].name);
        summary_row(f, nw, gn, &v->groups[g]);
    }
    fprintf(f, "\nMAPE mean |predicted - measured| / measured; aggr sum predicted / sum "
            "measured - 1;\nr Pearson (of times, of log times); rho Spearman; tau Kendall "
            "tau-b; tau* the\nmeasurement against itself (medians of its even vs odd "
            "repetitions: a ceiling);\nregret measured time of the model's pick / measured "
            "best - 1; top5 measured best 5\nin the model's best 5; <bound measured faster "
            "than the model's roofline bound.\n");
    size_t of, c;
    fprintf(f, "\naims:");
    c = groups_meeting(v, 0, &of);
    fprintf(f, " tau >= %.1f in %zu of %zu groups;", AIM_TAU, c, of);
    c = groups_meeting(v, 1, &of);
    fprintf(f, " top-1 regret <= %.0f%% in %zu of %zu;", 100 * AIM_REGRET, c, of);
    fprintf(f, " MAPE <= %.0f%%: %s (%.1f%%)\n", 100 * AIM_MAPE,
            v->all.mape <= AIM_MAPE ? "met" : "missed", 100 * v->all.mape);
    mg_validate_print_by(f, v);
    mg_validate_print_compare(f, v);
    const mg_vregs *r = &v->regstat;
    fprintf(f, "\nregisters, generator estimate vs compiler count, %zu kernels", r->n);
    if (r->n)
        fprintf(f, ": median error %+.0f, median |error| %.0f, MAPE %.1f%%, within 25%% %zu "
                "(%.0f%%), estimate below %zu\n", r->median_error, r->median_abs_error,
                100 * r->mape, r->within25, 100.0 * (double)r->within25 / (double)r->n,
                r->under);
    else fprintf(f, " (the timings carry no compiler counts)\n");
    if (r->stack_n)
        fprintf(f, "stack frames (compiler): %zu kernels with one, median error %+.1f%%; "
                "%zu without, %+.1f%%\n", r->stack_n, 100 * r->stack_error, r->nostack_n,
                100 * r->nostack_error);
    else if (r->nostack_n)
        fprintf(f, "stack frames (compiler): none in the %zu kernels reported\n", r->nostack_n);
    print_steadiness(f, v);
    mg_validate_print_misses(f, v);
    mg_validate_print_residuals(f, v);
    fprintf(f, "\n%5s %4s %10s %10s %8s %9s %-9s %7s  %s\n", "index", "grp", "measured",
            "predicted", "error", "bound", "binding", "regs", "knobs (flags)");
    fprintf(f, "%5s %4s %10s %10s %8s %9s %-9s %7s\n", "", "", "us", "us", "", "us", "",
            "est/cc");
    for (size_t i = 0; i < v->n; i++) {
        const mg_vkernel *k = &v->k[i];
        char regs[32];
        snprintf(regs, sizeof regs, "%d/%d", k->regs_estimate, k->regs_compiler);
        if (k->status != MG_VK_OK) {
            fprintf(f, "%5zu %4zu %10s %10s %8s %9s %-9s %7s  %s (%s: %s)\n", k->index,
                    k->group + 1, "-", "-", "-", "-", "-", regs, knobs(v, k),
                    status_names[k->status], k->reason);
            continue;
        }
        fprintf(f, "%5zu %4zu %10.2f %10.2f", k->index, k->group + 1, k->measured_ns / 1e3,
                k->predicted_ns / 1e3);
        pct(f, 8, k->predicted_ns / k->measured_ns - 1);
        fprintf(f, " %9.2f %-9s %7s  %s%s\n", k->bound_ns / 1e3, k->binding, regs, knobs(v, k),
                k->below_bound ? " (below bound)" : "");
    }
}

static cJSON *summary_json(const mg_vsummary *s, int with_name)
{
    cJSON *o = cJSON_CreateObject();
    if (with_name) cJSON_AddStringToObject(o, "name", s->name);
    cJSON_AddNumberToObject(o, "n", (double)s->n);
    cJSON_AddNumberToObject(o, "mape", s->mape);
    cJSON_AddNumberToObject(o, "aggregate_error", s->aggregate);
    cJSON_AddNumberToObject(o, "pearson", s->pearson);
    cJSON_AddNumberToObject(o, "pearson_log", s->pearson_log);
    cJSON_AddNumberToObject(o, "spearman", s->spearman);
    cJSON_AddNumberToObject(o, "kendall_tau_b", s->kendall);
    cJSON_AddNumberToObject(o, "kendall_tau_b_measurement", s->kendall_noise);
    cJSON_AddNumberToObject(o, "top1_regret", s->regret);
    cJSON_AddNumberToObject(o, "top5_recall", s->recall);
    cJSON_AddNumberToObject(o, "top5_k", (double)s->k);
    cJSON_AddNumberToObject(o, "below_bound", (double)s->below_bound);
    if (s->best >= 0) cJSON_AddNumberToObject(o, "measured_best", (double)s->best);
    if (s->pick >= 0) cJSON_AddNumberToObject(o, "model_pick", (double)s->pick);
    if (s->groups) cJSON_AddNumberToObject(o, "groups", (double)s->groups);
    return o;
}

static cJSON *kernel_json(const mg_vkernel *k)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "index", (double)k->index);
    cJSON_AddNumberToObject(o, "group", (double)k->group);
    cJSON_AddStringToObject(o, "schedule", k->schedule);
    cJSON_AddStringToObject(o, "status", status_names[k->status]);
    if (k->status != MG_VK_OK) cJSON_AddStringToObject(o, "reason", k->reason);
    if (k->status == MG_VK_OK) {
        cJSON_AddNumberToObject(o, "measured_ns", k->measured_ns);
        cJSON_AddNumberToObject(o, "spread", k->spread);
        cJSON_AddNumberToObject(o, "predicted_ns", k->predicted_ns);
        cJSON_AddNumberToObject(o, "error", k->predicted_ns / k->measured_ns - 1);
        cJSON_AddNumberToObject(o, "bound_ns", k->bound_ns);
        cJSON_AddStringToObject(o, "binding", k->binding);
        cJSON_AddBoolToObject(o, "below_bound", k->below_bound);
        cJSON_AddNumberToObject(o, "resident_warps", k->occupancy);
        cJSON_AddNumberToObject(o, "occupancy_groups", k->occ_groups);
        cJSON *s = cJSON_AddObjectToObject(o, "stall_shares");
        for (int c = 0; c < MG_STALL_COUNT; c++)
            cJSON_AddNumberToObject(s, mg_stall_name(c), k->stall[c]);
        cJSON *kn = cJSON_AddObjectToObject(o, "knobs");
        for (int j = 0; j < MG_VKNOB_COUNT; j++)
            if (k->knob[j][0]) cJSON_AddStringToObject(kn, mg_vknob_names[j], k->knob[j]);
    }
    if (k->regs_estimate >= 0) cJSON_AddNumberToObject(o, "regs_estimate", k->regs_estimate);
    else cJSON_AddNullToObject(o, "regs_estimate");
    if (k->regs_compiler >= 0) cJSON_AddNumberToObject(o, "regs_compiler", k->regs_compiler);
    else cJSON_AddNullToObject(o, "regs_compiler");
    if (k->stack_compiler >= 0) cJSON_AddNumberToObject(o, "stack_compiler", k->stack_compiler);
    if (k->status == MG_VK_OK) cJSON_AddNumberToObject(o, "regs_simulated", k->regs_simulated);
    return o;
}

cJSON *mg_validate_to_json(const mg_validation *v)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", MG_VALIDATE_SCHEMA);
    cJSON_AddStringToObject(o, "tool", "mgsim " MG_VERSION);
    cJSON_AddStringToObject(o, "config", v->config);
    cJSON_AddStringToObject(o, "device", v->device);
    cJSON_AddStringToObject(o, "timings", v->timings);
    cJSON_AddStringToObject(o, "timings_device", v->timings_device);
    cJSON_AddStringToObject(o, "suite", v->suite);
    cJSON_AddStringToObject(o, "regs", v->regs == MG_VREGS_COMPILER ? "compiler" : "estimate");
    cJSON_AddStringToObject(o, "simulation", v->predictor == MG_PRED_ANALYTIC ? "analytic"
                                             : v->sample == MG_SAMPLE_OFF ? "exact" : "sampled");
    cJSON_AddStringToObject(o, "l2", v->warmup > 0 ? "warm" : "cold");
    cJSON *c = cJSON_AddObjectToObject(o, "counts");
    cJSON_AddNumberToObject(c, "kernels", (double)v->n);
    cJSON_AddNumberToObject(c, "compared", (double)v->n_ok);
    cJSON_AddNumberToObject(c, "not_timed", (double)v->n_skipped);
    cJSON_AddNumberToObject(c, "not_simulated", (double)v->n_failed);
    cJSON_AddItemToObject(o, "overall", summary_json(&v->all, 0));
    cJSON_AddItemToObject(o, "group_mean", summary_json(&v->mean, 0));
    cJSON *gs = cJSON_AddArrayToObject(o, "groups");
    for (size_t g = 0; g < v->ngroups; g++) {
        cJSON *x = summary_json(&v->groups[g], 1);
        if (v->miss) cJSON_AddItemToObject(x, "miss", mg_validate_miss_json(&v->miss[g]));
        cJSON_AddItemToArray(gs, x);
    }
    cJSON_AddItemToObject(o, "residuals", mg_validate_residuals_json(v));
    if (v->byrows) cJSON_AddItemToObject(o, "by", mg_validate_by_json(v));
    if (v->cmp) cJSON_AddItemToObject(o, "compare", mg_validate_compare_json(v));
    const mg_vregs *r = &v->regstat;
    cJSON *rg = cJSON_AddObjectToObject(o, "registers");
    cJSON_AddNumberToObject(rg, "n", (double)r->n);
    cJSON_AddNumberToObject(rg, "median_error", r->median_error);
    cJSON_AddNumberToObject(rg, "median_abs_error", r->median_abs_error);
    cJSON_AddNumberToObject(rg, "mape", r->mape);
    cJSON_AddNumberToObject(rg, "within_25pct", (double)r->within25);
    cJSON_AddNumberToObject(rg, "estimate_below", (double)r->under);
    if (r->stack_n + r->nostack_n) {
        cJSON *sf = cJSON_AddObjectToObject(rg, "stack_frames");
        cJSON_AddNumberToObject(sf, "with", (double)r->stack_n);
        cJSON_AddNumberToObject(sf, "with_median_error", r->stack_error);
        cJSON_AddNumberToObject(sf, "without", (double)r->nostack_n);
        cJSON_AddNumberToObject(sf, "without_median_error", r->nostack_error);
    }
    size_t idx[SHIFT_LIST], with, n = shifted(v, idx, SHIFT_LIST, &with);
    if (with) {
        cJSON *st = cJSON_AddObjectToObject(o, "steadiness");
        cJSON_AddNumberToObject(st, "with_samples", (double)with);
        cJSON_AddNumberToObject(st, "max_shift", MAX_SHIFT);
        cJSON *sh = cJSON_AddArrayToObject(st, "shifted");
        cJSON_AddNumberToObject(st, "count", (double)n);
        for (size_t i = 0; i < n && i < SHIFT_LIST; i++)
            cJSON_AddItemToArray(sh, cJSON_CreateNumber((double)idx[i]));
    }
    cJSON *ks = cJSON_AddArrayToObject(o, "kernels");
    for (size_t i = 0; i < v->n; i++) cJSON_AddItemToArray(ks, kernel_json(&v->k[i]));
    return o;
}
