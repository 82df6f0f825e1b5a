/*
 * validate_compare.c - this validation side by side with another report
 * of the same timings (`mgsim validate --compare OTHER.json`; see
 * validate.h): per group, pooled and the mean over groups, tau, top-1
 * regret and MAPE of both configs and which is better.  Counted here,
 * printed by validate_report_miss.c.
 */
#include "sim/analysis/validate.h"
#include "base/jsonfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-9

/* The number at o.key, NaN when it is not one (null: undefined). */
static double num(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(x) ? x->valuestring : NULL;
}

/* +1 when a beats b by more than EPS (higher when up, else lower), -1
 * when b beats a, 0 otherwise (either undefined included). */
static int wins(double a, double b, int up)
{
    if (!isfinite(a) || !isfinite(b) || fabs(a - b) <= EPS) return 0;
    return (a > b) == up ? 1 : -1;
}

/* Fill the row's side `s` from summary s_this (side 0) or the other's
 * JSON summary o (side 1), then the verdict once both are in. */
static void row_side(mg_vcmp_row *r, int s, const mg_vsummary *x, const cJSON *o)
{
    if (x) {
        r->n[s] = x->n;
        r->tau[s] = x->kendall;
        r->regret[s] = x->regret;
        r->mape[s] = x->mape;
    } else {
        double n = num(o, "n");
        r->n[s] = isfinite(n) && n > 0 ? (size_t)n : 0;
        r->tau[s] = num(o, "kendall_tau_b");
        r->regret[s] = num(o, "top1_regret");
        r->mape[s] = num(o, "mape");
    }
}

/* Who wins each statistic, and the row. */
static void verdict(mg_vcmp_row *r)
{
    int w[3] = {wins(r->tau[0], r->tau[1], 1), wins(r->regret[0], r->regret[1], 0),
                wins(r->mape[0], r->mape[1], 0)};
    int sum = 0;
    for (int x = 0; x < 3; x++) {
        r->win[x] = w[x] > 0 ? 0 : w[x] < 0 ? 1 : -1;
        sum += w[x];
    }
    r->better = sum > 0 ? 0 : sum < 0 ? 1 : -1;
}

/* Are o's kernels those of v?  0, or -1 with the
 * problem in d. */
static int same_timings(const mg_validation *v, const cJSON *o, const char *file, mg_diag *d)
{
    const cJSON *ks = cJSON_GetObjectItemCaseSensitive(o, "kernels");
    if (!cJSON_IsArray(ks) || (size_t)cJSON_GetArraySize(ks) != v->n) {
        mg_diag_error(d, "%s: $.kernels: %d kernels, but %s has %zu: not the same timings",
                      file, cJSON_IsArray(ks) ? cJSON_GetArraySize(ks) : 0, v->timings, v->n);
        return -1;
    }
    size_t i = 0;
    for (const cJSON *k = ks->child; k; k = k->next, i++) {
        const char *s = str(k, "schedule");
        if (!s || strcmp(s, v->k[i].schedule)) {
            mg_diag_error(d, "%s: $.kernels[%zu].schedule: not kernel %zu of %s: not the "
                          "same timings", file, i, i, v->timings);
            return -1;
        }
    }
    return 0;
}

/* The other's group called name, or NULL. */
static const cJSON *group_named(const cJSON *groups, const char *name)
{
    for (const cJSON *g = groups ? groups->child : NULL; g; g = g->next) {
        const char *n = str(g, "name");
        if (n && !strcmp(n, name)) return g;
    }
    return NULL;
}

/* Fill c's rows from v and the other's report o. */
static void fill_rows(const mg_validation *v, const cJSON *o, mg_vcompare *c)
{
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(o, "groups");
    snprintf(c->all.name, sizeof c->all.name, "all");
    row_side(&c->all, 0, &v->all, NULL);
    row_side(&c->all, 1, NULL, cJSON_GetObjectItemCaseSensitive(o, "overall"));
    verdict(&c->all);
    snprintf(c->mean.name, sizeof c->mean.name, "group mean");
    row_side(&c->mean, 0, &v->mean, NULL);
    row_side(&c->mean, 1, NULL, cJSON_GetObjectItemCaseSensitive(o, "group_mean"));
    verdict(&c->mean);
    for (size_t g = 0; g < c->nrows; g++) {
        mg_vcmp_row *r = &c->rows[g];
        snprintf(r->name, sizeof r->name, "%s", v->groups[g].name);
        row_side(r, 0, &v->groups[g], NULL);
        row_side(r, 1, NULL, group_named(groups, v->groups[g].name));
        verdict(r);
        c->better[r->better < 0 ? 2 : r->better]++;
    }
}

cJSON *mg_validate_compare_load(const char *other, mg_diag *d)
{
    cJSON *o = mg_json_load(other, d);
    const char *schema = o ? str(o, "schema") : NULL;
    if (o && (!schema || strcmp(schema, MG_VALIDATE_SCHEMA))) {
        mg_diag_error(d, "%s: $.schema: expected \"%s\" (mgsim validate --json), got %s%s%s",
                      other, MG_VALIDATE_SCHEMA, schema ? "\"" : "", schema ? schema : "none",
                      schema ? "\"" : "");
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

int mg_validate_compare(mg_validation *v, const cJSON *o, const char *other, mg_diag *d)
{
    mg_vcompare *c = NULL;
    if (same_timings(v, o, other, d)) goto fail;
    c = calloc(1, sizeof *c);
    if (c) c->rows = calloc(v->ngroups ? v->ngroups : 1, sizeof *c->rows);
    if (!c || !c->rows) {
        mg_diag_error(d, "out of memory");
        goto fail;
    }
    snprintf(c->file, sizeof c->file, "%s", other);
    snprintf(c->config, sizeof c->config, "%s", str(o, "config") ? str(o, "config") : "");
    snprintf(c->device, sizeof c->device, "%s", str(o, "device") ? str(o, "device") : "");
    snprintf(c->simulation, sizeof c->simulation, "%s",
             str(o, "simulation") ? str(o, "simulation") : "");
    snprintf(c->regs, sizeof c->regs, "%s", str(o, "regs") ? str(o, "regs") : "");
    c->nrows = v->ngroups;
    fill_rows(v, o, c);
    if (v->cmp) free(v->cmp->rows);
    free(v->cmp);
    v->cmp = c;
    return 0;
fail:
    if (c) free(c->rows);
    free(c);
    return -1;
}
