/*
 * print.c - the resolved form of a device config, as JSON and as text.
 */
#include "sim/config/device.h"
#include "sim/config/print.h"
#include "sim/config/schema.h"
#include "base/units.h"

#include <stdio.h>
#include <string.h>

static const void *field_ptr(const mg_device *dev, const mg_field *f)
{
    return (const char *)dev + f->off;
}

cJSON *mg_device_field_json(const mg_device *dev, size_t i)
{
    const mg_field *f = &mg_schema[i];
    const void *p = field_ptr(dev, f);
    char buf[64];
    switch (f->type) {
    case MG_T_STR: return cJSON_CreateString((const char *)p);
    case MG_T_INT: return cJSON_CreateNumber((double)*(const int64_t *)p);
    case MG_T_NUM: return cJSON_CreateNumber(*(const double *)p);
    case MG_T_ENUM: return cJSON_CreateString(f->names[*(const int *)p]);
    case MG_T_SIZE:
        return cJSON_CreateString(
            mg_unit_format(MG_UNIT_SIZE, (double)*(const int64_t *)p, buf, sizeof buf));
    case MG_T_FREQ:
        return cJSON_CreateString(mg_unit_format(MG_UNIT_FREQ, *(const double *)p, buf,
                                                 sizeof buf));
    case MG_T_BW:
        return cJSON_CreateString(mg_unit_format(MG_UNIT_BANDWIDTH, *(const double *)p, buf,
                                                 sizeof buf));
    case MG_T_TIME:
        return cJSON_CreateString(mg_unit_format(MG_UNIT_TIME, *(const double *)p, buf,
                                                 sizeof buf));
    case MG_T_STEPS: {
        cJSON *a = cJSON_CreateArray();
        for (int s = 0; a && s < dev->nsteps; s++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "max_regs", (double)dev->steps[s].max_regs);
            cJSON_AddNumberToObject(o, "max_items", (double)dev->steps[s].max_items);
            cJSON_AddItemToArray(a, o);
        }
        return a;
    }
    }
    return cJSON_CreateNull();
}

char *mg_device_field_text(const mg_device *dev, size_t i, char *buf, size_t len)
{
    cJSON *j = mg_device_field_json(dev, i);
    if (cJSON_IsString(j)) {
        snprintf(buf, len, "%s", j->valuestring);
    } else if (cJSON_IsNumber(j)) {
        snprintf(buf, len, "%.15g", j->valuedouble);
    } else {
        char *s = cJSON_PrintUnformatted(j);
        snprintf(buf, len, "%s", s ? s : "?");
        cJSON_free(s);
    }
    cJSON_Delete(j);
    return buf;
}

cJSON *mg_device_to_json(const mg_device *dev)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    for (size_t i = 0; i < mg_schema_count; i++) {
        const mg_field *f = &mg_schema[i];
        if (!mg_schema_applies(f, dev)) continue;
        const char *dot = strchr(f->key, '.');
        cJSON *parent = root;
        const char *leaf = f->key;
        if (dot) {
            char sec[32];
            size_t n = (size_t)(dot - f->key);
            memcpy(sec, f->key, n);
            sec[n] = '\0';
            parent = cJSON_GetObjectItemCaseSensitive(root, sec);
            if (!parent) parent = cJSON_AddObjectToObject(root, sec);
            leaf = dot + 1;
        }
        cJSON_AddItemToObject(parent, leaf, mg_device_field_json(dev, i));
    }
    cJSON *src = cJSON_AddObjectToObject(root, "sources");
    for (size_t i = 0; i < mg_schema_count; i++) {
        const mg_source *s = &dev->src[i];
        if (!mg_schema_applies(&mg_schema[i], dev) || !strcmp(mg_schema[i].key, "schema"))
            continue;
        cJSON *o = cJSON_AddObjectToObject(src, mg_schema[i].key);
        if (s->kind == MG_SRC_NONE) {
            /* The resolved output writes defaults out; say so, so that it
             * is itself a complete config that passes --strict. */
            cJSON_AddStringToObject(o, "kind", "default");
            cJSON_AddStringToObject(o, "ref", "mgsim schema default");
        } else {
            cJSON_AddStringToObject(o, "kind", mg_source_kind_name(s->kind));
            cJSON_AddStringToObject(o, "ref", s->ref);
            if (s->curve[0]) cJSON_AddStringToObject(o, "curve", s->curve);
        }
        if (s->check[0]) cJSON_AddStringToObject(o, "check", s->check);
    }
    return root;
}

void mg_device_print_text(const mg_device *dev, FILE *out)
{
    int w = 5;                      /* value column: widest short value */
    for (size_t i = 0; i < mg_schema_count; i++) {
        char val[256];
        if (!mg_schema_applies(&mg_schema[i], dev)) continue;
        int n = (int)strlen(mg_device_field_text(dev, i, val, sizeof val));
        if (n > w && n <= 28) w = n;
    }
    fprintf(out, "%-34s %-*s %-7s %s\n", "key", w, "value", "origin", "source");
    for (size_t i = 0; i < mg_schema_count; i++) {
        const mg_field *f = &mg_schema[i];
        if (!mg_schema_applies(f, dev)) continue;
        char val[256];
        mg_device_field_text(dev, i, val, sizeof val);
        const mg_source *s = &dev->src[i];
        char srcbuf[MG_REF_MAX + 32] = "";
        if (s->kind != MG_SRC_NONE)
            snprintf(srcbuf, sizeof srcbuf, "%s: %s%s%s", mg_source_kind_name(s->kind),
                     s->ref, s->curve[0] ? "; fitted to " : "", s->curve);
        fprintf(out, "%-34s %-*s %-7s %s%s%s\n", f->key, w, val,
                dev->set[i] ? "file" : "default", srcbuf, s->check[0] ? "; " : "", s->check);
    }
}
