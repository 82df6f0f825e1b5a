/*
 * variant.c - device-config variants (variant.h): set keys in a copy of a
 * config document, then load it with the ordinary loader.
 */
#include "sim/config/variant.h"
#include "sim/config/print.h"
#include "sim/config/schema.h"
#include "base/strsim.h"
#include "base/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int unit_kind(mg_ftype t, mg_unit_kind *k)
{
    switch (t) {
    case MG_T_SIZE: *k = MG_UNIT_SIZE; return 1;
    case MG_T_FREQ: *k = MG_UNIT_FREQ; return 1;
    case MG_T_BW: *k = MG_UNIT_BANDWIDTH; return 1;
    case MG_T_TIME: *k = MG_UNIT_TIME; return 1;
    default: return 0;
    }
}

static int variable_type(mg_ftype t)
{
    return t == MG_T_INT || t == MG_T_NUM || t == MG_T_ENUM || t == MG_T_SIZE ||
           t == MG_T_FREQ || t == MG_T_BW || t == MG_T_TIME;
}

/* A multiplier "x0.5" ("*0.5" too); returns 1 and *f, 0 when not one. */
static int multiplier(const char *s, double *f)
{
    if (*s != 'x' && *s != '*') return 0;
    char *end;
    errno = 0;
    *f = strtod(s + 1, &end);
    if (errno || end == s + 1 || *end || !isfinite(*f) || *f <= 0) *f = -1;
    return 1;
}

int mg_vary_parse(const char *arg, mg_vary *v, mg_diag *d)
{
    memset(v, 0, sizeof *v);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof v->key) {
        mg_diag_error(d, "--vary %s: expected KEY=v1,v2,... (e.g. "
                      "registers.pool_regs_per_sp=x0.5,x1,x2)", arg);
        return -1;
    }
    memcpy(v->key, arg, (size_t)(eq - arg));
    const mg_field *f = mg_schema_find(v->key, NULL);
    if (!f) {
        const char *cands[MG_MAX_FIELDS];
        for (size_t i = 0; i < mg_schema_count; i++) cands[i] = mg_schema[i].key;
        const char *s = mg_suggest(v->key, cands, mg_schema_count);
        mg_hint h;
        mg_diag_error(d, "--vary %s: unknown config key '%s'%s", arg, v->key,
                      s ? mg_hint_of(&h, s, "\"") : " (`mgsim config keys` lists them)");
        return -1;
    }
    if (!variable_type(f->type)) {
        mg_diag_error(d, "--vary %s: '%s' is not a number, quantity or choice", arg, v->key);
        return -1;
    }
    const char *p = eq + 1;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        if (!n || n >= sizeof v->val[0] || v->nvals == MG_VARY_VALUES) {
            mg_diag_error(d, "--vary %s: %s", arg, !n ? "empty value" :
                          v->nvals == MG_VARY_VALUES ? "too many values (at most 32)"
                                                      : "value too long");
            return -1;
        }
        memcpy(v->val[v->nvals], p, n);
        double m;
        if (multiplier(v->val[v->nvals], &m) && (m < 0 || f->type == MG_T_ENUM)) {
            mg_diag_error(d, "--vary %s: '%s': %s", arg, v->val[v->nvals],
                          f->type == MG_T_ENUM ? "a choice cannot be multiplied"
                                               : "a multiplier is x and a number > 0 (x0.5)");
            return -1;
        }
        v->nvals++;
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

/* A copy of config document doc for a variant to change: its top-level
 * members are references to doc's (cJSON_Delete leaves what they point
 * to), so a variant costs a node per member rather than a copy of the whole
 * config; section_of gives a section its own copy before it is changed.
 * NULL when out of memory. */
static cJSON *shallow_copy(const cJSON *doc)
{
    if (!cJSON_IsObject(doc)) return cJSON_Duplicate(doc, 1);
    cJSON *copy = cJSON_CreateObject();
    for (const cJSON *m = doc->child; copy && m; m = m->next) {
        if (!cJSON_AddItemReferenceToObject(copy, m->string, (cJSON *)m)) {
            cJSON_Delete(copy);
            copy = NULL;
        }
    }
    return copy;
}

/* Section s of doc, made doc's own when it is a reference (shallow_copy):
 * a deep copy in its place.  NULL when out of memory. */
static cJSON *own_section(cJSON *doc, cJSON *s)
{
    if (!(s->type & cJSON_IsReference)) return s;
    cJSON *o = cJSON_Duplicate(s, 1);
    if (!o || !cJSON_ReplaceItemViaPointer(doc, s, o)) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* The object of key's section in doc (added when missing, doc's own), its
 * leaf name in leaf; NULL when the section is not an object. */
static cJSON *section_of(cJSON *doc, const char *key, char *leaf, size_t len)
{
    const char *dot = strchr(key, '.');
    char sec[64];
    snprintf(sec, sizeof sec, "%.*s", (int)(dot - key), key);
    snprintf(leaf, len, "%s", dot + 1);
    cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, sec);
    if (!s) s = cJSON_AddObjectToObject(doc, sec);
    return cJSON_IsObject(s) ? own_section(doc, s) : NULL;
}

static void put(cJSON *sec, const char *leaf, cJSON *val)
{
    if (cJSON_GetObjectItemCaseSensitive(sec, leaf))
        cJSON_ReplaceItemInObjectCaseSensitive(sec, leaf, val);
    else
        cJSON_AddItemToObject(sec, leaf, val);
}

/* The JSON value for one key = text; -1 with a message when malformed. */
static cJSON *value_json(const mg_field *f, const mg_device *base, const char *text,
                         double *num, mg_diag *d)
{
    const char *p = (const char *)base + f->off;
    double m, v;
    mg_unit_kind k;
    char err[160], buf[48];
    if (f->type == MG_T_ENUM) return cJSON_CreateString(text);
    int is_int = f->type == MG_T_INT || f->type == MG_T_SIZE;
    if (multiplier(text, &m)) {
        v = is_int ? (double)*(const int64_t *)p : *(const double *)p;
        v *= m;
        if (is_int) v = round(v);
    } else if (unit_kind(f->type, &k)) {
        if (mg_unit_parse(k, text, &v, err, sizeof err)) {
            mg_diag_error(d, "--vary %s=%s: %s", f->key, text, err);
            return NULL;
        }
    } else {
        char *end;
        errno = 0;
        v = strtod(text, &end);
        if (errno || end == text || *end || (is_int && v != floor(v))) {
            mg_diag_error(d, "--vary %s=%s: expected %s or a multiplier like x2", f->key, text,
                          is_int ? "an integer" : "a number");
            return NULL;
        }
    }
    *num = v;
    if (unit_kind(f->type, &k)) return cJSON_CreateString(mg_unit_format(k, v, buf, sizeof buf));
    return cJSON_CreateNumber(v);
}

/* A fully associative cache stays so when only its size changes. */
static void keep_fully_assoc(cJSON *doc, const mg_device *base, const mg_field *f, double size,
                             int n, const mg_vary *v)
{
    static const struct { const char *key; size_t off; } caches[] = {
        {"tex_l1.size", offsetof(mg_device, tex_l1)},
        {"buffer_l1.size", offsetof(mg_device, buf_l1)},
        {"l2.size", offsetof(mg_device, l2)},
    };
    for (size_t i = 0; i < sizeof caches / sizeof caches[0]; i++) {
        if (strcmp(f->key, caches[i].key)) continue;
        const mg_cache_cfg *c = (const mg_cache_cfg *)((const char *)base + caches[i].off);
        if (c->line <= 0 || c->line * c->assoc != c->size) return;
        char assoc[64], leaf[64];
        snprintf(assoc, sizeof assoc, "%.*s.assoc", (int)(strchr(f->key, '.') - f->key), f->key);
        for (int q = 0; q < n; q++)
            if (!strcmp(v[q].key, assoc)) return;
        double ways = floor(size / (double)c->line);
        cJSON *sec = section_of(doc, assoc, leaf, sizeof leaf);
        if (sec && ways >= 1) put(sec, leaf, cJSON_CreateNumber(ways));
    }
}

int mg_device_variant(const cJSON *doc, const char *name, const mg_device *base, int n,
                      const mg_vary *v, const int *choice, mg_device *out,
                      char (*resolved)[48], mg_diag *d)
{
    cJSON *copy = shallow_copy(doc);
    if (!copy) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    int rc = -1;
    for (int i = 0; i < n; i++) {
        size_t idx;
        const mg_field *f = mg_schema_find(v[i].key, &idx);
        const char *text = v[i].val[choice[i]];
        if (!f || !mg_schema_applies(f, base)) {
            mg_diag_error(d, "--vary %s: the key does not apply to %s (%s)", v[i].key,
                          base->name, f && f->when ? f->when : "unknown key");
            goto out;
        }
        double num = 0;
        cJSON *val = value_json(f, base, text, &num, d);
        char leaf[64];
        cJSON *sec = val ? section_of(copy, f->key, leaf, sizeof leaf) : NULL;
        if (!sec) {
            cJSON_Delete(val);
            if (val) mg_diag_error(d, "%s: $.%s: not an object", name, v[i].key);
            goto out;
        }
        put(sec, leaf, val);
        if (f->type == MG_T_SIZE) keep_fully_assoc(copy, base, f, num, n, v);
    }
    if (mg_device_from_json(copy, name, 0, out, d)) {
        char what[400];
        int o = 0;
        for (int i = 0; i < n && o < (int)sizeof what; i++)
            o += snprintf(what + o, sizeof what - (size_t)o, "%s%s=%s", i ? " " : "", v[i].key,
                          v[i].val[choice[i]]);
        mg_diag_error(d, "the variant %s of %s is not a valid config (above)", what, name);
        goto out;
    }
    for (int i = 0; i < n; i++) {
        size_t idx;
        mg_schema_find(v[i].key, &idx);
        mg_device_field_text(out, idx, resolved[i], sizeof resolved[i]);
    }
    rc = 0;
out:
    cJSON_Delete(copy);
    return rc;
}
