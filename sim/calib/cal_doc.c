/*
 * cal_doc.c - the config document calibration builds: dotted-key access,
 * values with their sources, defaults, conditions (see cal_internal.h).
 */
#include "sim/calib/cal_internal.h"
#include "base/units.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Split "sec.leaf"; returns the section object (created when make) and
 * sets *leaf; a key without a dot lives at the root. */
static cJSON *parent_of(cJSON *cfg, const char *key, const char **leaf, int make)
{
    const char *dot = strchr(key, '.');
    if (!dot) {
        *leaf = key;
        return cfg;
    }
    char sec[32];
    snprintf(sec, sizeof sec, "%.*s", (int)(dot - key), key);
    *leaf = dot + 1;
    cJSON *p = cJSON_GetObjectItemCaseSensitive(cfg, sec);
    if (!p && make) p = cJSON_AddObjectToObject(cfg, sec);
    return p;
}

cJSON *cal_get(const cal_ctx *c, const char *key)
{
    const char *leaf;
    cJSON *p = parent_of(c->cfg, key, &leaf, 0);
    return p ? cJSON_GetObjectItemCaseSensitive(p, leaf) : NULL;
}

static void set_origin(cal_ctx *c, const char *key, int origin)
{
    size_t i;
    if (mg_schema_find(key, &i)) c->origin[i] = origin;
}

int cal_put(cal_ctx *c, const char *key, cJSON *v, const char *kind, const char *ref,
            int origin)
{
    size_t row;
    if (origin == MG_CAL_PROFILE && c->verdict && mg_schema_find(key, &row) &&
        c->verdict[row].verdict == MG_CAL_REFUSED) {
        cJSON_Delete(v);
        return 0;
    }
    const char *leaf;
    cJSON *p = parent_of(c->cfg, key, &leaf, 1);
    if (cJSON_GetObjectItemCaseSensitive(p, leaf)) cJSON_ReplaceItemInObjectCaseSensitive(p, leaf, v);
    else cJSON_AddItemToObject(p, leaf, v);
    cJSON *src = cJSON_GetObjectItemCaseSensitive(c->cfg, "sources");
    if (!src) src = cJSON_AddObjectToObject(c->cfg, "sources");
    cJSON_DeleteItemFromObjectCaseSensitive(src, key);
    cJSON *o = cJSON_AddObjectToObject(src, key);
    cJSON_AddStringToObject(o, "kind", kind);
    char r[MG_REF_MAX];
    snprintf(r, sizeof r, "%s", ref);           /* the loader's limit */
    cJSON_AddStringToObject(o, "ref", r);
    set_origin(c, key, origin);
    return 1;
}

static int origin_of(const char *ref)
{
    return !strncmp(ref, "placeholder", 11) ? MG_CAL_UNKNOWN : MG_CAL_PROFILE;
}

int cal_put_num(cal_ctx *c, const char *key, double v, const char *kind, const char *ref)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.6g", v);
    return cal_put(c, key, cJSON_CreateNumber(atof(buf)), kind, ref, origin_of(ref));
}

int cal_put_unit(cal_ctx *c, const char *key, double v, const char *kind, const char *ref)
{
    const mg_field *f = mg_schema_find(key, NULL);
    mg_unit_kind u = f->type == MG_T_SIZE ? MG_UNIT_SIZE : f->type == MG_T_FREQ ? MG_UNIT_FREQ
                     : f->type == MG_T_BW ? MG_UNIT_BANDWIDTH : MG_UNIT_TIME;
    char buf[64], num[32];
    if (u == MG_UNIT_SIZE) {
        mg_unit_format(u, round(v), buf, sizeof buf);
    } else {
        snprintf(num, sizeof num, "%.5g", v);   /* a measurement: 5 significant digits */
        mg_unit_format(u, atof(num), buf, sizeof buf);
    }
    return cal_put(c, key, cJSON_CreateString(buf), kind, ref, origin_of(ref));
}

int cal_put_str(cal_ctx *c, const char *key, const char *v, const char *kind, const char *ref)
{
    return cal_put(c, key, cJSON_CreateString(v), kind, ref, origin_of(ref));
}

void cal_drop(cal_ctx *c, const char *key)
{
    const char *leaf;
    cJSON *p = parent_of(c->cfg, key, &leaf, 0);
    if (p) cJSON_DeleteItemFromObjectCaseSensitive(p, leaf);
    cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(c->cfg, "sources"),
                                            key);
    set_origin(c, key, -1);
}

double cal_value(const cal_ctx *c, const char *key)
{
    const mg_field *f = mg_schema_find(key, NULL);
    if (!f) return 0;
    const cJSON *v = cal_get(c, key);
    const char *text = cJSON_IsString(v) ? v->valuestring : NULL;
    if (cJSON_IsNumber(v)) return v->valuedouble;
    if (!v && f->def) {
        if (f->def[0] == '=') return cal_value(c, f->def + 1);
        text = f->def;
    }
    if (!text) return 0;
    mg_unit_kind u;
    switch (f->type) {
    case MG_T_SIZE: u = MG_UNIT_SIZE; break;
    case MG_T_FREQ: u = MG_UNIT_FREQ; break;
    case MG_T_BW: u = MG_UNIT_BANDWIDTH; break;
    case MG_T_TIME: u = MG_UNIT_TIME; break;
    default: return atof(text);
    }
    double out = 0;
    char err[128];
    return mg_unit_parse(u, text, &out, err, sizeof err) ? 0 : out;
}

const char *cal_text(const cal_ctx *c, const char *key)
{
    const cJSON *v = cal_get(c, key);
    if (cJSON_IsString(v)) return v->valuestring;
    const mg_field *f = mg_schema_find(key, NULL);
    return !v && f && f->def && f->def[0] != '=' ? f->def : "";
}

void cal_note(cal_ctx *c, const char *fmt, ...)
{
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cJSON_AddItemToArray(c->notes, cJSON_CreateString(buf));
}

cJSON *cal_base_doc(const mg_device *base)
{
    if (!base) return cJSON_CreateObject();
    cJSON *doc = mg_device_to_json(base);
    cJSON *src = cJSON_GetObjectItemCaseSensitive(doc, "sources");
    for (size_t i = 0; i < mg_schema_count; i++) {
        const char *key = mg_schema[i].key, *dot = strchr(key, '.');
        if (!dot) continue;
        if (base->set[i] && base->src[i].kind != MG_SRC_DEFAULT) {
            if (base->src[i].kind == MG_SRC_NONE) {      /* set without a source */
                cJSON_DeleteItemFromObjectCaseSensitive(src, key);
                cJSON *o = cJSON_AddObjectToObject(src, key);
                cJSON_AddStringToObject(o, "kind", "inferred");
                cJSON_AddStringToObject(o, "ref", "the base config (no source given there)");
            }
            continue;
        }
        /* a schema default (written out or not): let the loader resolve it
         * again, from the calibrated values it may copy */
        char sec[32];
        snprintf(sec, sizeof sec, "%.*s", (int)(dot - key), key);
        cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, sec),
                                                dot + 1);
        cJSON_DeleteItemFromObjectCaseSensitive(src, key);
    }
    return doc;
}

void cal_drop_inapplicable(cal_ctx *c)
{
    for (size_t i = 0; i < mg_schema_count; i++) {
        const mg_field *f = &mg_schema[i];
        if (!f->when) continue;
        const char *eq = strchr(f->when, '=');
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(eq - f->when), f->when);
        /* an enum not decided yet (a placeholder comes later) drops nothing */
        if (cal_get(c, key) && strcmp(cal_text(c, key), eq + 1) && cal_get(c, f->key))
            cal_drop(c, f->key);
    }
}
