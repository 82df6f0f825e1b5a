/* ares.c - an aspect's curves, conclusions and notes (see ares.h). */
#include "sim/analysis/ares.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

cJSON *mg_ares_series(mg_ares *r, const char *name, const char *x, const char *y)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "name", name);
    cJSON_AddStringToObject(s, "x", x);
    cJSON_AddStringToObject(s, "y", y);
    cJSON *pts = cJSON_AddArrayToObject(s, "points");
    cJSON_AddItemToArray(r->series, s);
    return pts;
}

/* A fresh conclusion object under key (an earlier one is replaced). */
static cJSON *entry(mg_ares *r, const char *key)
{
    cJSON_DeleteItemFromObjectCaseSensitive(r->conclusion, key);
    return cJSON_AddObjectToObject(r->conclusion, key);
}

static void add_conf(cJSON *e, double conf)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.2f", conf < 0 ? 0 : conf > 1 ? 1 : conf);
    cJSON_AddNumberToObject(e, "confidence", atof(buf));
}

void mg_ares_conclude(mg_ares *r, const char *key, double value, const char *unit, double conf,
                      const char *method)
{
    cJSON *e = entry(r, key);
    char buf[32];
    snprintf(buf, sizeof buf, "%.6g", value);
    cJSON_AddNumberToObject(e, "value", atof(buf));
    if (unit) cJSON_AddStringToObject(e, "unit", unit);
    add_conf(e, conf);
    cJSON_AddStringToObject(e, "method", method);
}

void mg_ares_conclude_str(mg_ares *r, const char *key, const char *value, double conf,
                          const char *method)
{
    cJSON *e = entry(r, key);
    cJSON_AddStringToObject(e, "value", value);
    add_conf(e, conf);
    cJSON_AddStringToObject(e, "method", method);
}

void mg_ares_conclude_none(mg_ares *r, const char *key, const char *unit, const char *method,
                           const char *why, ...)
{
    cJSON *e = entry(r, key);
    cJSON_AddNullToObject(e, "value");
    if (unit) cJSON_AddStringToObject(e, "unit", unit);
    cJSON_AddNullToObject(e, "confidence");
    cJSON_AddStringToObject(e, "method", method);
    char buf[700];
    va_list ap;
    va_start(ap, why);
    vsnprintf(buf, sizeof buf, why, ap);
    va_end(ap);
    cJSON_AddStringToObject(e, "why", buf);
}

void mg_ares_note(mg_ares *r, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cJSON_AddItemToArray(r->notes, cJSON_CreateString(buf));
}

double mg_ares_value(const mg_ares *r, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(r->conclusion, key), "value");
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

double mg_ares_confidence(const mg_ares *r, int *any_ok)
{
    double conf = -1;
    *any_ok = 0;
    for (const cJSON *k = r->conclusion ? r->conclusion->child : NULL; k; k = k->next) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(k, "confidence");
        if (!cJSON_IsNumber(c)) continue;
        if (conf < 0 || c->valuedouble < conf) conf = c->valuedouble;
        if (c->valuedouble >= 0.5) *any_ok = 1;
    }
    return conf;
}
