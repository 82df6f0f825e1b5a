/*
 * rule_load.c - read and check a pruning-rules file (rule.h).
 * Table-driven: each rule's parameters are rows of `params`.
 */
#include "sim/search/rule.h"
#include "base/jsonfile.h"
#include "base/strsim.h"

#include <stddef.h>
#include <string.h>

const char *const mg_rule_names[MG_RULE_COUNT] = {
    "l1", "registers", "buffer", "local_memory", "warp", "access_width",
};

typedef struct param {
    int rule;
    const char *name;
    int is_enum;                   /* 1: a string from names, stored as int */
    double min, max;
    size_t off;
    const char *const *names;
    const char *help;
} param;

static const char *const footprints[] = {"group", "items", NULL};
static const char *const alus[] = {"core", "device", NULL};

#define OFF(m) offsetof(mg_rules, m)
static const param params[] = {
    {MG_RULE_L1, "footprint", 1, 0, 0, OFF(l1_items), footprints, "\"group\" or \"items\""},
    {MG_RULE_L1, "fraction", 0, 0.001, 1000, OFF(l1_fraction), NULL, "a number in (0, 1000]"},
    {MG_RULE_REGS, "fraction", 0, 0.001, 1000, OFF(regs_fraction), NULL,
     "a number in (0, 1000]"},
    {MG_RULE_LOCAL, "alpha", 0, 0.001, 1000, OFF(local_alpha), NULL, "a number in (0, 1000]"},
    {MG_RULE_LOCAL, "alus", 1, 0, 0, OFF(local_device), alus, "\"core\" or \"device\""},
    {MG_RULE_WARP, "min_warps", 0, 0.001, 64, OFF(warp_min_warps), NULL,
     "a number in (0, 64]"},
    {MG_RULE_WIDTH, "best", 0, 1, 16, OFF(width_best), NULL, "1, 2, 4, 8 or 16"},
};
#define NPARAMS (sizeof params / sizeof params[0])

static void defaults(mg_rules *r)
{
    memset(r, 0, sizeof *r);
    r->l1_fraction = 1;
    r->regs_fraction = 1;
    r->local_alpha = 3;
    r->warp_min_warps = 1;
    r->width_best = 4;
}

static void unknown(mg_diag *d, const char *file, const char *path, const char *what,
                    const char *word, const char *const *cands, size_t n)
{
    mg_hint h;
    mg_diag_error(d, "%s: %s: unknown %s \"%s\"%s", file, path, what, word,
                  mg_hint_near(&h, word, cands, n, "\""));
}

static void load_param(const param *p, const cJSON *v, const char *file, const char *path,
                       mg_rules *r, mg_diag *d)
{
    char *base = (char *)r + p->off;
    if (p->is_enum) {
        int i = 0;
        if (cJSON_IsString(v))
            for (; p->names[i] && strcmp(p->names[i], v->valuestring); i++) {}
        if (!cJSON_IsString(v) || !p->names[i]) {
            mg_diag_error(d, "%s: %s: expected %s", file, path, p->help);
            return;
        }
        *(int *)(void *)base = i;
        return;
    }
    if (!cJSON_IsNumber(v) || v->valuedouble < p->min || v->valuedouble > p->max) {
        mg_diag_error(d, "%s: %s: expected %s", file, path, p->help);
        return;
    }
    if (p->rule == MG_RULE_WIDTH) {
        int64_t b = (int64_t)v->valuedouble;
        if ((double)b != v->valuedouble || (b & (b - 1))) {
            mg_diag_error(d, "%s: %s: expected %s", file, path, p->help);
            return;
        }
        r->width_best = b;
        return;
    }
    *(double *)(void *)base = v->valuedouble;
}

int mg_rules_from_json(const cJSON *root, const char *file, mg_rules *r, mg_diag *d)
{
    defaults(r);
    size_t before = d->n;
    static const char *const top[] = {"schema", "name", "description", "source", "rules"};
    if (!cJSON_IsObject(root)) {
        mg_diag_error(d, "%s: $: expected an object", file);
        return -1;
    }
    for (const cJSON *e = root->child; e; e = e->next) {
        size_t i = 0;
        while (i < 5 && strcmp(top[i], e->string)) i++;
        if (i == 5) unknown(d, file, "$", "key", e->string, top, 5);
    }
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, MG_RULES_SCHEMA))
        mg_diag_error(d, "%s: $.schema: expected \"%s\"", file, MG_RULES_SCHEMA);
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(root, "name");
    if (!cJSON_IsString(nm) || !*nm->valuestring || strlen(nm->valuestring) >= sizeof r->name)
        mg_diag_error(d, "%s: $.name: expected a name (1..63 characters)", file);
    else
        snprintf(r->name, sizeof r->name, "%s", nm->valuestring);
    const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
    if (!cJSON_IsObject(rules)) {
        mg_diag_error(d, "%s: $.rules: expected an object of rule: {\"enabled\": ...}", file);
        return -1;
    }
    for (const cJSON *e = rules->child; e; e = e->next) {
        char path[160];
        snprintf(path, sizeof path, "$.rules.%s", e->string);
        int ri = 0;
        while (ri < MG_RULE_COUNT && strcmp(mg_rule_names[ri], e->string)) ri++;
        if (ri == MG_RULE_COUNT) {
            unknown(d, file, "$.rules", "rule", e->string, mg_rule_names, MG_RULE_COUNT);
            continue;
        }
        if (!cJSON_IsObject(e)) {
            mg_diag_error(d, "%s: %s: expected an object {\"enabled\": true|false, ...}", file,
                          path);
            continue;
        }
        const cJSON *en = cJSON_GetObjectItemCaseSensitive(e, "enabled");
        if (!cJSON_IsBool(en))
            mg_diag_error(d, "%s: %s.enabled: expected true or false", file, path);
        r->enabled[ri] = cJSON_IsTrue(en);
        for (const cJSON *p = e->child; p; p = p->next) {
            if (!strcmp(p->string, "enabled") || !strcmp(p->string, "comment")) continue;
            char pp[220];
            snprintf(pp, sizeof pp, "%s.%s", path, p->string);
            const param *row = NULL;
            const char *cands[8] = {"enabled", "comment"};
            size_t n = 2;
            for (size_t i = 0; i < NPARAMS; i++)
                if (params[i].rule == ri) {
                    cands[n++] = params[i].name;
                    if (!strcmp(params[i].name, p->string)) row = &params[i];
                }
            if (!row) {
                char what[64];
                snprintf(what, sizeof what, "parameter of rule %s", mg_rule_names[ri]);
                unknown(d, file, path, what, p->string, cands, n);
                continue;
            }
            load_param(row, p, file, pp, r, d);
        }
    }
    return d->n == before ? 0 : -1;
}

int mg_rules_load(const char *path, mg_rules *r, mg_diag *d)
{
    defaults(r);
    cJSON *j = mg_json_load(path, d);
    if (!j) return -1;
    int rc = mg_rules_from_json(j, path, r, d);
    cJSON_Delete(j);
    return rc;
}
