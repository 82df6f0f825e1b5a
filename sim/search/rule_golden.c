/*
 * rule_golden.c - write, read and compare recorded pruning decisions
 * (rule_golden.h).
 */
#include "sim/search/rule_golden.h"
#include "sim/search/rule.h"
#include "base/afile.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMA "mgsim-prune-golden/1"

int mg_decisions_add(mg_decisions *ds, const char *sched, unsigned mask)
{
    if (ds->n == ds->cap) {
        size_t cap = ds->cap ? ds->cap * 2 : 1024;
        mg_decision *v = realloc(ds->v, cap * sizeof *v);
        if (!v) return -1;
        ds->v = v;
        ds->cap = cap;
    }
    char *s = strdup(sched);
    if (!s) return -1;
    ds->v[ds->n].sched = s;
    ds->v[ds->n++].mask = mask;
    return 0;
}

void mg_decisions_free(mg_decisions *ds)
{
    for (size_t i = 0; i < ds->n; i++) free(ds->v[i].sched);
    free(ds->v);
    free(ds->best);
    memset(ds, 0, sizeof *ds);
}

static cJSON *mask_json(unsigned mask)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < MG_RULE_COUNT; i++)
        if (mask & (1u << i)) cJSON_AddItemToArray(a, cJSON_CreateString(mg_rule_names[i]));
    return a;
}

int mg_golden_write(const char *path, const mg_decisions *ds, mg_diag *d)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", SCHEMA);
    cJSON_AddStringToObject(j, "config", ds->config);
    cJSON_AddStringToObject(j, "space", ds->space);
    cJSON_AddStringToObject(j, "rules", ds->rules);
    size_t kept = 0;
    for (size_t i = 0; i < ds->n; i++) kept += ds->v[i].mask == 0;
    cJSON_AddNumberToObject(j, "size", (double)ds->n);
    cJSON_AddNumberToObject(j, "kept", (double)kept);
    if (ds->best) cJSON_AddStringToObject(j, "best", ds->best);
    else cJSON_AddNullToObject(j, "best");
    cJSON *a = cJSON_AddArrayToObject(j, "decisions");
    for (size_t i = 0; i < ds->n; i++) {
        cJSON *e = cJSON_CreateArray();
        cJSON_AddItemToArray(e, cJSON_CreateString(ds->v[i].sched));
        cJSON_AddItemToArray(e, mask_json(ds->v[i].mask));
        cJSON_AddItemToArray(a, e);
    }
    int rc = mg_json_save(path, j, d);
    cJSON_Delete(j);
    return rc;
}

static void copy_str(const cJSON *root, const char *key, char *out, size_t len)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, key);
    snprintf(out, len, "%s", cJSON_IsString(s) ? s->valuestring : "");
}

int mg_golden_read(const char *path, mg_decisions *ds, mg_diag *d)
{
    memset(ds, 0, sizeof *ds);
    cJSON *j = mg_json_load(path, d);
    if (!j) return -1;
    int rc = -1;
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(j, "schema");
    const cJSON *dec = cJSON_GetObjectItemCaseSensitive(j, "decisions");
    const cJSON *best = cJSON_GetObjectItemCaseSensitive(j, "best");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, SCHEMA)) {
        mg_diag_error(d, "%s: $.schema: expected \"%s\"", path, SCHEMA);
        goto out;
    }
    if (!cJSON_IsArray(dec)) {
        mg_diag_error(d, "%s: $.decisions: expected an array", path);
        goto out;
    }
    copy_str(j, "config", ds->config, sizeof ds->config);
    copy_str(j, "space", ds->space, sizeof ds->space);
    copy_str(j, "rules", ds->rules, sizeof ds->rules);
    if (cJSON_IsString(best)) ds->best = strdup(best->valuestring);
    size_t i = 0;
    for (const cJSON *e = dec->child; e; e = e->next, i++) {
        const cJSON *s = cJSON_GetArrayItem(e, 0), *m = cJSON_GetArrayItem(e, 1);
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 || !cJSON_IsString(s) ||
            !cJSON_IsArray(m)) {
            mg_diag_error(d, "%s: $.decisions[%zu]: expected [SCHEDULE, [RULE, ...]]", path, i);
            goto out;
        }
        unsigned mask = 0;
        size_t q = 0;
        for (const cJSON *r = m->child; r; r = r->next, q++) {
            int ri = 0;
            while (ri < MG_RULE_COUNT &&
                   (!cJSON_IsString(r) || strcmp(mg_rule_names[ri], r->valuestring)))
                ri++;
            if (ri == MG_RULE_COUNT) {
                mg_diag_error(d, "%s: $.decisions[%zu][1][%zu]: expected a rule name", path, i,
                              q);
                goto out;
            }
            mask |= 1u << ri;
        }
        if (mg_decisions_add(ds, s->valuestring, mask)) {
            mg_diag_error(d, "%s: out of memory", path);
            goto out;
        }
    }
    rc = 0;
out:
    cJSON_Delete(j);
    if (rc) mg_decisions_free(ds);
    return rc;
}

static int by_sched(const void *a, const void *b)
{
    return strcmp((*(const mg_decision *const *)a)->sched, (*(const mg_decision *const *)b)->sched);
}

static const mg_decision *find(const mg_decision **sorted, size_t n, const char *s)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(sorted[mid]->sched, s);
        if (!c) return sorted[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

static const mg_decision **sorted_view(const mg_decisions *ds)
{
    const mg_decision **v = malloc((ds->n ? ds->n : 1) * sizeof *v);
    if (!v) return NULL;
    for (size_t i = 0; i < ds->n; i++) v[i] = &ds->v[i];
    qsort(v, ds->n, sizeof *v, by_sched);
    return v;
}

static void line(FILE *f, size_t *shown, size_t max, const char *kind, const mg_decision *g,
                 const mg_decision *c)
{
    if ((*shown)++ >= max) return;
    char a[128], b[128];
    const char *sched = g ? g->sched : c->sched;
    if (g) mg_rules_mask_str(g->mask, a, sizeof a);
    if (c) mg_rules_mask_str(c->mask, b, sizeof b);
    fprintf(f, "  %-14s %s\n", kind, sched);
    if (g && c)
        fprintf(f, "                 golden: %s  now: %s\n", g->mask ? a : "kept",
                c->mask ? b : "kept");
}

size_t mg_golden_diff(const mg_decisions *golden, const mg_decisions *cur, FILE *f, size_t max)
{
    const mg_decision **gs = sorted_view(golden), **cs = sorted_view(cur);
    size_t ndiff = 0, shown = 0, flips = 0, changed = 0, gone = 0, added = 0;
    if (!gs || !cs) { free(gs); free(cs); fprintf(f, "  out of memory\n"); return 1; }
    for (size_t i = 0; i < cur->n; i++) {            /* in the current order */
        const mg_decision *c = &cur->v[i], *g = find(gs, golden->n, c->sched);
        if (!g) { line(f, &shown, max, "new", NULL, c); added++; continue; }
        if (g->mask == c->mask) continue;
        if (!g->mask != !c->mask) {
            line(f, &shown, max, c->mask ? "kept->pruned" : "pruned->kept", g, c);
            flips++;
        } else {
            line(f, &shown, max, "rules changed", g, c);
            changed++;
        }
    }
    for (size_t i = 0; i < golden->n; i++)
        if (!find(cs, cur->n, golden->v[i].sched)) {
            line(f, &shown, max, "gone", &golden->v[i], NULL);
            gone++;
        }
    if (golden->best) {
        const mg_decision *c = find(cs, cur->n, golden->best);
        if (!c || c->mask) {
            fprintf(f, "  best pruned    %s\n", golden->best);
            ndiff++;
        }
    }
    ndiff += flips + changed + gone + added;
    if (shown > max) fprintf(f, "  ... and %zu more\n", shown - max);
    if (ndiff)
        fprintf(f, "%zu differences: %zu kept<->pruned flips, %zu with other rules, %zu new, "
                "%zu gone\n", ndiff, flips, changed, added, gone);
    free(gs);
    free(cs);
    return ndiff;
}
