/* cal_report.c - the calibration report, text and JSON (calibrate.h): the
 * keys, the counts by origin, the plausibility verdicts, the notes. */
#include "sim/calib/calibrate.h"

#include <string.h>

static void counts(const mg_cal *c, int n[4])
{
    memset(n, 0, 4 * sizeof *n);
    for (int i = 0; i < c->n_keys; i++)
        if (c->keys[i].origin >= 0 && c->keys[i].origin <= MG_CAL_UNKNOWN) n[c->keys[i].origin]++;
}

void mg_cal_report_text(FILE *f, const mg_cal *c)
{
    fprintf(f, "calibrated config %s from %s%s%s\n", c->dev.name, c->profile_path,
            c->base_path ? ", base " : " (no base config)", c->base_path ? c->base_path : "");
    fprintf(f, "%-32s %-14s %-8s %s\n", "key", "value", "origin", "source");
    for (int i = 0; i < c->n_keys; i++) {
        const mg_cal_key *k = &c->keys[i];
        fprintf(f, "%-32s %-14s %-8s %s\n", k->key, k->value, mg_cal_origin_name(k->origin),
                k->ref);
    }
    int n[4];
    counts(c, n);
    fprintf(f, "from the profile: %d keys; from the base: %d; schema defaults: %d; unknown "
            "(placeholders): %d\n", n[MG_CAL_PROFILE], n[MG_CAL_BASE], n[MG_CAL_DEFAULT],
            n[MG_CAL_UNKNOWN]);
    if (n[MG_CAL_UNKNOWN]) {
        fprintf(f, "unknown:");
        for (int i = 0; i < c->n_keys; i++)
            if (c->keys[i].origin == MG_CAL_UNKNOWN) fprintf(f, " %s", c->keys[i].key);
        fprintf(f, "\n");
    }
    int nv[3] = {0, 0, 0};
    for (int i = 0; i < c->n_keys; i++) nv[c->keys[i].verdict]++;
    fprintf(f, "plausibility checks: %d refused, %d flagged\n", nv[MG_CAL_REFUSED],
            nv[MG_CAL_FLAGGED]);
    for (int i = 0; i < c->n_keys; i++) {
        const mg_cal_key *k = &c->keys[i];
        if (k->verdict == MG_CAL_REFUSED)
            fprintf(f, "refused: %s = %s (%s): %s; kept %s (%s)\n", k->key, k->judged, k->rule,
                    k->why, k->value, mg_cal_origin_name(k->origin));
        else if (k->verdict == MG_CAL_FLAGGED)
            fprintf(f, "flagged: %s = %s (%s): %s\n", k->key, k->judged, k->rule, k->why);
    }
    for (const cJSON *s = c->notes ? c->notes->child : NULL; s; s = s->next)
        fprintf(f, "note: %s\n", s->valuestring);
}

/* The verdicts other than passed, as JSON objects. */
static cJSON *checks_json(const mg_cal *c)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < c->n_keys; i++) {
        const mg_cal_key *k = &c->keys[i];
        if (k->verdict == MG_CAL_PASSED) continue;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "key", k->key);
        cJSON_AddStringToObject(e, "verdict", mg_cal_verdict_name(k->verdict));
        cJSON_AddStringToObject(e, "rule", k->rule);
        cJSON_AddStringToObject(e, "profile_value", k->judged);
        cJSON_AddStringToObject(e, "value", k->value);
        cJSON_AddStringToObject(e, "origin", mg_cal_origin_name(k->origin));
        cJSON_AddStringToObject(e, "why", k->why);
        cJSON_AddItemToArray(a, e);
    }
    return a;
}

cJSON *mg_cal_report_json(const mg_cal *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", MG_CAL_SCHEMA);
    cJSON_AddStringToObject(o, "device", c->dev.name);
    cJSON_AddStringToObject(o, "profile", c->profile_path);
    if (c->base_path) cJSON_AddStringToObject(o, "base", c->base_path);
    else cJSON_AddNullToObject(o, "base");
    int n[4];
    counts(c, n);
    cJSON *cnt = cJSON_AddObjectToObject(o, "counts");
    for (int i = 0; i <= MG_CAL_UNKNOWN; i++)
        cJSON_AddNumberToObject(cnt, mg_cal_origin_name(i), n[i]);
    cJSON *keys = cJSON_AddArrayToObject(o, "keys");
    for (int i = 0; i < c->n_keys; i++) {
        const mg_cal_key *k = &c->keys[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "key", k->key);
        cJSON_AddStringToObject(e, "value", k->value);
        cJSON_AddStringToObject(e, "origin", mg_cal_origin_name(k->origin));
        cJSON_AddStringToObject(e, "ref", k->ref);
        if (k->origin == MG_CAL_PROFILE || k->verdict != MG_CAL_PASSED)   /* judged */
            cJSON_AddStringToObject(e, "check", mg_cal_verdict_name(k->verdict));
        cJSON_AddItemToArray(keys, e);
    }
    cJSON *unk = cJSON_AddArrayToObject(o, "unknown");
    for (int i = 0; i < c->n_keys; i++)
        if (c->keys[i].origin == MG_CAL_UNKNOWN)
            cJSON_AddItemToArray(unk, cJSON_CreateString(c->keys[i].key));
    cJSON_AddItemToObject(o, "checks", checks_json(c));
    cJSON_AddItemToObject(o, "notes", c->notes ? cJSON_Duplicate(c->notes, 1)
                                               : cJSON_CreateArray());
    return o;
}
