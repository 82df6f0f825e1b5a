/*
 * validate_report_miss.c - the report's parts on where the model misses
 * (see validate.h): per group the worst-predicted kernels against the
 * best-predicted, the residuals by knob, and the side-by-side comparison
 * with another config's report; text for people and JSON for tools.
 * Nothing is computed here beyond formatting.
 */
#include "sim/analysis/validate.h"

#include <math.h>
#include <string.h>

static const char *const better_names[] = {"this", "other", "neither"};

/* "12.3%" or "-" (NaN), right-aligned in w; with sign when sign. */
static void pct(FILE *f, int w, double x, int sign)
{
    if (!isfinite(x)) fprintf(f, " %*s", w, "-");
    else if (sign) fprintf(f, " %+*.1f%%", w - 1, 100 * x);
    else fprintf(f, " %*.1f%%", w - 1, 100 * x);
}

static void num(FILE *f, int w, double x, int sign)
{
    if (!isfinite(x)) fprintf(f, " %*s", w, "-");
    else if (sign) fprintf(f, " %+*.2f", w, x);
    else fprintf(f, " %*.2f", w, x);
}

/* ---- worst against best ---------------------------------------------------------- */

static void profile_row(FILE *f, const char *g, const char *set, const mg_vprofile *p)
{
    char under[48], bind[64];
    snprintf(under, sizeof under, "%zu/%zu", p->under, p->n);
    snprintf(bind, sizeof bind, "%s %zu/%zu", p->binding, p->binding_n, p->n);
    fprintf(f, "%-4s %-5s", g, set);
    pct(f, 7, p->error, 1);
    fprintf(f, " %5s", under);
    for (int s = 0; s < MG_STALL_COUNT; s++) pct(f, 6, p->stall[s], 0);
    fprintf(f, "  %-15s %6.1f %5.1f %5.0f ", bind, p->occupancy, p->occ_groups, p->regs);
    for (size_t j = 0; j < p->n; j++) fprintf(f, " %ld", p->kernel[j]);
    fprintf(f, "\n");
}

void mg_validate_print_misses(FILE *f, const mg_validation *v)
{
    if (!v->miss) return;
    fprintf(f, "\nwhere it misses: per group the worst-predicted kernels (largest |log(predicted"
            "/measured)|:\na quarter of the group, at most %d) against as many best-predicted, "
            "as the simulation\nsees them: median signed error, how many under-predicted, "
            "mean stall shares\n(warp-cycles; idle in SP-cycles), the most common roofline "
            "binding level, mean\nresident warps per SP, occupancy groups and registers per "
            "item; timings indices\n(worst or best first)\n\n", MG_VMISS_MAX);
    fprintf(f, "%-4s %-5s %7s %5s %6s %6s %6s %6s  %-15s %6s %5s %5s  %s\n", "grp", "set",
            "error", "under", "memory", "alu", "barr.", "idle", "binding", "warps", "occ.g",
            "regs", "kernels");
    for (size_t g = 0; g < v->ngroups; g++) {
        const mg_vmiss *m = &v->miss[g];
        if (!m->worst.n) continue;
        char gn[32];
        snprintf(gn, sizeof gn, "g%zu", g + 1);
        profile_row(f, gn, "worst", &m->worst);
        profile_row(f, "", "best", &m->best);
    }
}

static cJSON *profile_json(const mg_vprofile *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "n", (double)p->n);
    cJSON_AddNumberToObject(o, "under_predicted", (double)p->under);
    cJSON_AddNumberToObject(o, "median_error", p->error);
    cJSON *s = cJSON_AddObjectToObject(o, "stall_shares");
    for (int c = 0; c < MG_STALL_COUNT; c++) cJSON_AddNumberToObject(s, mg_stall_name(c), p->stall[c]);
    cJSON_AddStringToObject(o, "stall_main", mg_stall_name(p->stall_main));
    cJSON_AddStringToObject(o, "binding", p->binding);
    cJSON_AddNumberToObject(o, "binding_n", (double)p->binding_n);
    cJSON_AddNumberToObject(o, "mean_resident_warps", p->occupancy);
    cJSON_AddNumberToObject(o, "mean_occupancy_groups", p->occ_groups);
    cJSON_AddNumberToObject(o, "mean_regs", p->regs);
    cJSON *k = cJSON_AddArrayToObject(o, "kernels");
    for (size_t j = 0; j < p->n; j++) cJSON_AddItemToArray(k, cJSON_CreateNumber((double)p->kernel[j]));
    return o;
}

cJSON *mg_validate_miss_json(const mg_vmiss *m)
{
    if (!m->worst.n) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "worst", profile_json(&m->worst));
    cJSON_AddItemToObject(o, "best", profile_json(&m->best));
    return o;
}

/* ---- residuals by knob ----------------------------------------------------------- */

void mg_validate_print_residuals(FILE *f, const mg_validation *v)
{
    if (!v->nres) return;
    fprintf(f, "\nresiduals by knob: the compared kernels sharing a knob's value, their median "
            "signed\nerror (predicted / measured - 1) and MAPE; occupancy is the simulated mean "
            "resident\nwarps per SP, binned\n\n%-10s %-10s %4s %8s %7s\n", "knob", "value", "n",
            "median", "MAPE");
    for (size_t x = 0; x < v->nres; x++) {
        const mg_vresidual *r = &v->res[x];
        int first = !x || v->res[x - 1].knob != r->knob;
        fprintf(f, "%-10s %-10s %4zu", first ? mg_vknob_names[r->knob] : "", r->value, r->n);
        pct(f, 8, r->median_error, 1);
        pct(f, 7, r->mape, 0);
        fprintf(f, "\n");
    }
}

cJSON *mg_validate_residuals_json(const mg_validation *v)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t x = 0; x < v->nres; x++) {
        const mg_vresidual *r = &v->res[x];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "knob", mg_vknob_names[r->knob]);
        cJSON_AddStringToObject(o, "value", r->value);
        cJSON_AddNumberToObject(o, "n", (double)r->n);
        cJSON_AddNumberToObject(o, "median_error", r->median_error);
        cJSON_AddNumberToObject(o, "mape", r->mape);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* ---- side by side ---------------------------------------------------------------- */

static void compare_row(FILE *f, int nw, const char *name, const mg_vcmp_row *r)
{
    fprintf(f, "%-*s %4zu", nw, name, r->n[0]);
    num(f, 5, r->tau[0], 0);
    num(f, 5, r->tau[1], 0);
    num(f, 5, r->tau[0] - r->tau[1], 1);
    fprintf(f, " ");
    pct(f, 7, r->regret[0], 0);
    pct(f, 7, r->regret[1], 0);
    pct(f, 7, r->regret[0] - r->regret[1], 1);
    fprintf(f, " ");
    pct(f, 7, r->mape[0], 0);
    pct(f, 7, r->mape[1], 0);
    pct(f, 7, r->mape[0] - r->mape[1], 1);
    static const char *const stat[3] = {"tau", "regret", "MAPE"};
    char w[2][64] = {"", ""};                 /* what A and B win */
    for (int x = 0; x < 3; x++)
        if (r->win[x] >= 0) {
            char *o = w[r->win[x]];
            size_t l = strlen(o);
            snprintf(o + l, sizeof w[0] - l, "%s%s", l ? ", " : "", stat[x]);
        }
    fprintf(f, "  %s", r->better == 0 ? "A" : r->better == 1 ? "B" : "-");
    if (w[0][0] && w[1][0]) fprintf(f, " (A: %s; B: %s)", w[0], w[1]);
    else if (w[0][0] || w[1][0]) fprintf(f, " (%s: %s)", w[0][0] ? "A" : "B", w[0][0] ? w[0] : w[1]);
    fprintf(f, "\n");
}

void mg_validate_print_compare(FILE *f, const mg_validation *v)
{
    const mg_vcompare *c = v->cmp;
    if (!c) return;
    int nw = 10;
    for (size_t g = 0; g < c->nrows; g++) {
        int l = (int)strlen(c->rows[g].name) + 4;
        if (l > nw) nw = l;
    }
    fprintf(f, "\nside by side: A %s (%s), B %s (%s, report %s)\n", v->device, v->config,
            c->device, c->config, c->file);
    const char *sim = v->sample == MG_SAMPLE_OFF ? "exact" : "sampled";
    const char *regs = v->regs == MG_VREGS_COMPILER ? "compiler" : "estimate";
    if (strcmp(sim, c->simulation) || strcmp(regs, c->regs))
        fprintf(f, "note: A simulated %s with the register %s, B %s with the register %s\n",
                sim, regs, c->simulation, c->regs);
    fprintf(f, "\n");
    fprintf(f, "%-*s %4s %5s %5s %5s  %7s %7s %7s  %7s %7s %7s  %s\n", nw, "group", "n",
            "tau A", "tau B", "A-B", "regr A", "regr B", "A-B", "MAPE A", "MAPE B", "A-B",
            "better");
    compare_row(f, nw, "all", &c->all);
    compare_row(f, nw, "group mean", &c->mean);
    for (size_t g = 0; g < c->nrows; g++) {
        char gn[300];
        snprintf(gn, sizeof gn, "g%zu %s", g + 1, c->rows[g].name);
        compare_row(f, nw, gn, &c->rows[g]);
    }
    fprintf(f, "\nA-B this config's minus the other's; better the config that wins more of "
            "higher tau,\nlower regret, lower MAPE (in parentheses what each wins): A in %zu "
            "groups, B in %zu,\nneither in %zu\n", c->better[0], c->better[1], c->better[2]);
}

/* {"tau", "top1_regret", "mape"} of side s (0, 1) or their difference (2). */
static cJSON *side_json(const mg_vcmp_row *r, int s)
{
    cJSON *o = cJSON_CreateObject();
    double t = s < 2 ? r->tau[s] : r->tau[0] - r->tau[1];
    double g = s < 2 ? r->regret[s] : r->regret[0] - r->regret[1];
    double m = s < 2 ? r->mape[s] : r->mape[0] - r->mape[1];
    if (s < 2) cJSON_AddNumberToObject(o, "n", (double)r->n[s]);
    cJSON_AddNumberToObject(o, "kendall_tau_b", t);
    cJSON_AddNumberToObject(o, "top1_regret", g);
    cJSON_AddNumberToObject(o, "mape", m);
    return o;
}

static cJSON *row_json(const mg_vcmp_row *r, int with_name)
{
    cJSON *o = cJSON_CreateObject();
    if (with_name) cJSON_AddStringToObject(o, "name", r->name);
    cJSON_AddItemToObject(o, "this", side_json(r, 0));
    cJSON_AddItemToObject(o, "other", side_json(r, 1));
    cJSON_AddItemToObject(o, "difference", side_json(r, 2));
    cJSON *w = cJSON_AddObjectToObject(o, "wins");
    static const char *const stat[3] = {"kendall_tau_b", "top1_regret", "mape"};
    for (int x = 0; x < 3; x++)
        cJSON_AddStringToObject(w, stat[x], better_names[r->win[x] < 0 ? 2 : r->win[x]]);
    cJSON_AddStringToObject(o, "better", better_names[r->better < 0 ? 2 : r->better]);
    return o;
}

cJSON *mg_validate_compare_json(const mg_validation *v)
{
    const mg_vcompare *c = v->cmp;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "other", c->file);
    cJSON_AddStringToObject(o, "other_config", c->config);
    cJSON_AddStringToObject(o, "other_device", c->device);
    cJSON_AddStringToObject(o, "rule", "the config that wins more of higher Kendall tau-b, "
                            "lower top-1 regret, lower MAPE; difference this - other");
    cJSON_AddItemToObject(o, "overall", row_json(&c->all, 0));
    cJSON_AddItemToObject(o, "group_mean", row_json(&c->mean, 0));
    cJSON *gs = cJSON_AddArrayToObject(o, "groups");
    for (size_t g = 0; g < c->nrows; g++) cJSON_AddItemToArray(gs, row_json(&c->rows[g], 1));
    cJSON *b = cJSON_AddObjectToObject(o, "better_groups");
    for (int x = 0; x < 3; x++) cJSON_AddNumberToObject(b, better_names[x], (double)c->better[x]);
    return o;
}
