/*
 * load.c - check a device-config document against the schema table and
 * fill an mg_device, reporting every problem in one pass.
 *
 * Order of work: (1) walk the document and match every key to a schema row
 * (unknown keys get "did you mean"); (2) for each row in table order, parse
 * the given value or apply the default, honouring `when` conditions;
 * (3) resolve "=other.key" defaults; (4) read "sources"; (5) run the
 * cross-field rules (rules.c) when everything else was clean.
 */
#include "sim/config/device.h"
#include "sim/config/load_internal.h"
#include "sim/config/schema.h"
#include "sim/config/find.h"
#include "base/jsonfile.h"
#include "base/strsim.h"
#include "base/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct load_ctx {
    const char *name;             /* file name for messages */
    mg_diag    *d;
    mg_device  *dev;
    const cJSON *node[MG_MAX_FIELDS];
    unsigned char bad[MG_MAX_FIELDS];
} load_ctx;

/* ---- small helpers ------------------------------------------------------ */

static void fmt_bound(const mg_field *f, double v, char *buf, size_t len)
{
    switch (f->type) {
    case MG_T_SIZE: mg_unit_format(MG_UNIT_SIZE, v, buf, len); break;
    case MG_T_FREQ: mg_unit_format(MG_UNIT_FREQ, v, buf, len); break;
    case MG_T_BW: mg_unit_format(MG_UNIT_BANDWIDTH, v, buf, len); break;
    case MG_T_TIME: mg_unit_format(MG_UNIT_TIME, v, buf, len); break;
    default: snprintf(buf, len, "%.15g", v); break;
    }
}

static void range_error(load_ctx *c, const char *path, const mg_field *f, double v,
                        const char *shown)
{
    char lo[48], hi[48], val[48];
    fmt_bound(f, f->min, lo, sizeof lo);
    fmt_bound(f, f->max, hi, sizeof hi);
    if (!shown) {
        fmt_bound(f, v, val, sizeof val);
        shown = val;
    }
    mg_diag_error(c->d, "%s: %s: expected %s in [%s, %s], got %s", c->name, path,
                  f->type == MG_T_INT ? "an integer" : "a value", lo, hi, shown);
}

static const char *unit_expectation(mg_ftype t, mg_unit_kind *k)
{
    switch (t) {
    case MG_T_SIZE: *k = MG_UNIT_SIZE; return "a size with a unit";
    case MG_T_FREQ: *k = MG_UNIT_FREQ; return "a frequency with a unit";
    case MG_T_BW: *k = MG_UNIT_BANDWIDTH; return "a bandwidth with a unit";
    case MG_T_TIME: *k = MG_UNIT_TIME; return "a time with a unit";
    default: *k = MG_UNIT_SIZE; return NULL;
    }
}

/* Read an integer from JSON number j into *out with range [lo, hi]. */
static int read_int(load_ctx *c, const char *path, const cJSON *j, double lo, double hi,
                    const mg_field *f, int64_t *out)
{
    if (!cJSON_IsNumber(j)) {
        mg_diag_error(c->d, "%s: %s: expected an integer, got %s", c->name, path,
                      mg_json_type_name(j));
        return -1;
    }
    double v = j->valuedouble;
    if (!isfinite(v) || v != floor(v)) {
        mg_diag_error(c->d, "%s: %s: expected an integer, got %.17g", c->name, path, v);
        return -1;
    }
    if (v < lo || v > hi) {
        if (f) {
            range_error(c, path, f, v, NULL);
        } else {
            mg_diag_error(c->d, "%s: %s: expected an integer in [%.15g, %.15g], got %.17g",
                          c->name, path, lo, hi, v);
        }
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

static int read_steps(load_ctx *c, const char *path, const cJSON *j, mg_device *dev)
{
    static const char *const step_keys[] = {"max_regs", "max_items"};
    int n = cJSON_GetArraySize(j);
    if (!cJSON_IsArray(j) || n < 1 || n > MG_MAX_STEPS) {
        mg_diag_error(c->d, "%s: %s: expected an array of 1 to %d objects "
                      "{\"max_regs\": N, \"max_items\": M}, got %s", c->name, path,
                      MG_MAX_STEPS, cJSON_IsArray(j) ? "an array of the wrong length"
                                                     : mg_json_type_name(j));
        return -1;
    }
    int rc = 0, i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
        char p[160];
        snprintf(p, sizeof p, "%s[%d]", path, i);
        if (!cJSON_IsObject(e)) {
            mg_diag_error(c->d, "%s: %s: expected an object {\"max_regs\": N, "
                          "\"max_items\": M}, got %s", c->name, p, mg_json_type_name(e));
            rc = -1;
            continue;
        }
        for (const cJSON *k = e->child; k; k = k->next) {
            if (strcmp(k->string, "max_regs") && strcmp(k->string, "max_items")) {
                mg_hint h;
                mg_diag_error(c->d, "%s: %s.%s: unknown key%s", c->name, p, k->string,
                              mg_hint_near(&h, k->string, step_keys, 2, "\""));
                rc = -1;
            }
        }
        for (int q = 0; q < 2; q++) {
            char kp[200];
            snprintf(kp, sizeof kp, "%s.%s", p, step_keys[q]);
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, step_keys[q]);
            if (!v) {
                mg_diag_error(c->d, "%s: %s: missing required key", c->name, kp);
                rc = -1;
                continue;
            }
            int64_t x;
            if (read_int(c, kp, v, 1, q == 0 ? 4096 : (1 << 20), NULL, &x)) {
                rc = -1;
                continue;
            }
            if (q == 0) dev->steps[i].max_regs = x;
            else dev->steps[i].max_items = x;
        }
    }
    if (rc == 0) dev->nsteps = n;
    return rc;
}

/* A string value of at most f->cap - 1 characters into base. */
static int set_str(load_ctx *c, const mg_field *f, const cJSON *j, const char *path, char *base)
{
    if (!cJSON_IsString(j) || strlen(j->valuestring) >= f->cap) {
        mg_diag_error(c->d, "%s: %s: expected a string of at most %zu characters, got %s",
                      c->name, path, f->cap - 1,
                      cJSON_IsString(j) ? "a longer one" : mg_json_type_name(j));
        return -1;
    }
    memcpy(base, j->valuestring, strlen(j->valuestring) + 1);
    return 0;
}

/* A finite number in [f->min, f->max] into *(double *)base. */
static int set_num(load_ctx *c, const mg_field *f, const cJSON *j, const char *path, char *base)
{
    if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble)) {
        mg_diag_error(c->d, "%s: %s: expected a number, got %s", c->name, path,
                      mg_json_type_name(j));
        return -1;
    }
    double v = j->valuedouble;
    if (v < f->min || v > f->max) {
        range_error(c, path, f, v, NULL);
        return -1;
    }
    *(double *)base = v;
    return 0;
}

/* One of f->names, its index into *(int *)base. */
static int set_enum(load_ctx *c, const mg_field *f, const cJSON *j, const char *path, char *base)
{
    size_t n = 0;
    while (f->names[n]) n++;
    char list[160];
    mg_join_names(list, sizeof list, f->names, n, ", ");
    if (!cJSON_IsString(j)) {
        mg_diag_error(c->d, "%s: %s: expected one of %s (a string), got %s", c->name,
                      path, list, mg_json_type_name(j));
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(j->valuestring, f->names[i])) {
            *(int *)base = (int)i;
            return 0;
        }
    }
    mg_hint h;
    mg_diag_error(c->d, "%s: %s: expected one of %s, got \"%s\"%s", c->name, path, list,
                  j->valuestring, mg_hint_near(&h, j->valuestring, f->names, n, "\""));
    return -1;
}

/* A quantity with a unit (size, frequency, bandwidth, time) in
 * [f->min, f->max]: a size, whole bytes, into *(int64_t *)base, the others
 * into *(double *)base. */
static int set_unit(load_ctx *c, const mg_field *f, const cJSON *j, const char *path, char *base)
{
    mg_unit_kind uk;
    const char *uexp = unit_expectation(f->type, &uk);
    if (!cJSON_IsString(j)) {
        mg_diag_error(c->d, "%s: %s: expected %s such as %s, got %s%s", c->name, path,
                      uexp, mg_unit_example(uk), mg_json_type_name(j),
                      cJSON_IsNumber(j) ? " (a bare number is ambiguous: name the unit)"
                                        : "");
        return -1;
    }
    double v;
    char err[200];
    if (mg_unit_parse(uk, j->valuestring, &v, err, sizeof err)) {
        mg_diag_error(c->d, "%s: %s: expected %s: %s", c->name, path, uexp, err);
        return -1;
    }
    if (v < f->min || v > f->max) {
        range_error(c, path, f, v, j->valuestring);
        return -1;
    }
    if (f->type != MG_T_SIZE) {
        *(double *)base = v;
        return 0;
    }
    if (v != floor(v)) {
        mg_diag_error(c->d, "%s: %s: expected a whole number of bytes, got %s",
                      c->name, path, j->valuestring);
        return -1;
    }
    *(int64_t *)base = (int64_t)v;
    return 0;
}

/* Parse value j for row f into dev.  Returns 0, or -1 after an error. */
static int set_value(load_ctx *c, const mg_field *f, const cJSON *j, const char *path)
{
    char *base = (char *)c->dev + f->off;
    switch (f->type) {
    case MG_T_STR: return set_str(c, f, j, path, base);
    case MG_T_INT: return read_int(c, path, j, f->min, f->max, f, (int64_t *)base);
    case MG_T_NUM: return set_num(c, f, j, path, base);
    case MG_T_ENUM: return set_enum(c, f, j, path, base);
    case MG_T_SIZE:
    case MG_T_FREQ:
    case MG_T_BW:
    case MG_T_TIME: return set_unit(c, f, j, path, base);
    case MG_T_STEPS: return read_steps(c, path, j, c->dev);
    }
    return -1;
}

/* Apply a literal default (never an "=ref" one). */
static void set_default(load_ctx *c, const mg_field *f)
{
    cJSON *j;
    if (f->type == MG_T_INT || f->type == MG_T_NUM)
        j = cJSON_CreateNumber(strtod(f->def, NULL));
    else
        j = cJSON_CreateString(f->def);
    if (!j) return;
    char path[96];
    snprintf(path, sizeof path, "(default of %s)", f->key);
    set_value(c, f, j, path);     /* defaults are checked by a unit test */
    cJSON_Delete(j);
}

/* ---- key matching ------------------------------------------------------- */

/* n bytes of s at buf + o, as many as fit before buf[len - 1]; the new o. */
static size_t put_part(char *buf, size_t o, size_t len, const char *s, size_t n)
{
    if (n > len - 1 - o) n = len - 1 - o;
    memcpy(buf + o, s, n);
    return o + n;
}

/* "a.b" into buf[len] (len > 0), cut to fit as snprintf would: a path or
 * key for every key of a config, so without printf's cost. */
static void join_key(char *buf, size_t len, const char *a, const char *b)
{
    size_t o = put_part(buf, 0, len, a, strlen(a));
    o = put_part(buf, o, len, ".", 1);
    o = put_part(buf, o, len, b, strlen(b));
    buf[o] = '\0';
}

static void unknown_key(load_ctx *c, const char *section, const char *key)
{
    const char *cands[MG_MAX_FIELDS + 16];
    size_t n = 0;
    char path[160];
    if (!section) {
        snprintf(path, sizeof path, "$.%s", key);
        for (size_t i = 0; mg_schema_sections[i]; i++) cands[n++] = mg_schema_sections[i];
        cands[n++] = "schema";
        cands[n++] = "sources";
    } else {
        snprintf(path, sizeof path, "$.%s.%s", section, key);
        size_t sl = strlen(section);
        for (size_t i = 0; i < mg_schema_count; i++) {
            const char *k = mg_schema[i].key;
            if (!strncmp(k, section, sl) && k[sl] == '.') cands[n++] = k + sl + 1;
        }
    }
    const char *s = mg_suggest(key, cands, n);
    mg_hint h;
    if (s) {
        mg_diag_error(c->d, "%s: %s: unknown key%s", c->name, path, mg_hint_of(&h, s, "\""));
        return;
    }
    /* The same leaf name in another section? */
    for (size_t i = 0; i < mg_schema_count; i++) {
        const char *dot = strrchr(mg_schema[i].key, '.');
        if (dot && !strcmp(dot + 1, key)) {
            mg_diag_error(c->d, "%s: %s: unknown key%s", c->name, path,
                          mg_hint_of(&h, mg_schema[i].key, "\""));
            return;
        }
    }
    if (!section) {
        mg_diag_error(c->d, "%s: %s: unknown key; a device config has the sections "
                      "device, core, registers, tex_l1, buffer, buffer_l1, local, constant, "
                      "l2, dram, image, plus schema and sources", c->name, path);
    } else {
        mg_diag_error(c->d, "%s: %s: unknown key (`mgsim config keys` lists them all)",
                      c->name, path);
    }
}

static int is_section(const char *s)
{
    for (size_t i = 0; mg_schema_sections[i]; i++)
        if (!strcmp(mg_schema_sections[i], s)) return 1;
    return 0;
}

static void match_keys(load_ctx *c, const cJSON *root)
{
    for (const cJSON *t = root->child; t; t = t->next) {
        size_t idx;
        if (!strcmp(t->string, "sources")) continue;
        if (!strcmp(t->string, "schema")) {
            mg_schema_find("schema", &idx);
            c->node[idx] = t;
            continue;
        }
        if (!is_section(t->string)) {
            unknown_key(c, NULL, t->string);
            continue;
        }
        if (!cJSON_IsObject(t)) {
            mg_diag_error(c->d, "%s: $.%s: expected an object, got %s", c->name, t->string,
                          mg_json_type_name(t));
            continue;
        }
        for (const cJSON *k = t->child; k; k = k->next) {
            char key[128];
            join_key(key, sizeof key, t->string, k->string);
            if (mg_schema_find(key, &idx)) c->node[idx] = k;
            else unknown_key(c, t->string, k->string);
        }
    }
}

/* ---- the rows ----------------------------------------------------------- */

static void fill_rows(load_ctx *c)
{
    for (size_t i = 0; i < mg_schema_count; i++) {
        const mg_field *f = &mg_schema[i];
        char path[128];
        join_key(path, sizeof path, "$", f->key);
        if (f->when) {
            /* If the controlling key is broken, stay quiet about this one. */
            char ctl[64];
            size_t n = (size_t)(strchr(f->when, '=') - f->when);
            memcpy(ctl, f->when, n);
            ctl[n] = '\0';
            size_t ci;
            mg_schema_find(ctl, &ci);
            if (c->bad[ci]) { c->bad[i] = 1; continue; }
            if (!mg_schema_applies(f, c->dev)) {
                if (c->node[i]) {
                    mg_diag_error(c->d, "%s: %s: only applies when %s (here %s is \"%s\")",
                                  c->name, path, f->when, ctl,
                                  mg_schema[ci].names[*(int *)((char *)c->dev + mg_schema[ci].off)]);
                    c->bad[i] = 1;
                }
                continue;
            }
        }
        if (c->node[i]) {
            if (set_value(c, f, c->node[i], path)) c->bad[i] = 1;
            else c->dev->set[i] = 1;
        } else if (!f->def) {
            if (f->when)
                mg_diag_error(c->d, "%s: %s: missing required key (required when %s)",
                              c->name, path, f->when);
            else
                mg_diag_error(c->d, "%s: %s: missing required key (%s)", c->name, path,
                              f->help);
            c->bad[i] = 1;
        } else if (f->def[0] != '=') {
            set_default(c, f);
        }
    }
    /* "=other.key" defaults, after every literal value is in place. */
    for (size_t i = 0; i < mg_schema_count; i++) {
        const mg_field *f = &mg_schema[i];
        if (c->node[i] || !f->def || f->def[0] != '=') continue;
        if (!mg_schema_applies(f, c->dev)) continue;
        size_t ri;
        const mg_field *r = mg_schema_find(f->def + 1, &ri);
        size_t sz = (f->type == MG_T_INT || f->type == MG_T_SIZE) ? sizeof(int64_t)
                                                                   : sizeof(double);
        memcpy((char *)c->dev + f->off, (char *)c->dev + r->off, sz);
        if (c->bad[ri]) c->bad[i] = 1;
    }
}

/* ---- sources ------------------------------------------------------------ */

/* $.sources["KEY"].kind: one of the source kinds (not "none"), into o. */
static void source_kind(load_ctx *c, const char *kp, const cJSON *k, mg_source *o)
{
    const char *const *names = mg_source_kind_names + 1;
    size_t n = 0;
    while (names[n]) n++;
    int found = -1;
    for (size_t i = 0; cJSON_IsString(k) && i < n; i++)
        if (!strcmp(k->valuestring, names[i])) found = (int)i + 1;
    if (found == MG_CONFIG_TOO_LONG) {
        mg_diag_error(c->d, "%s: %s: expected one of measured, vendor, driver, "
                      "aggregator, inferred, fitted, default", c->name, kp);
    } else {
        o->kind = (mg_source_kind)found;
    }
}

/* One source object s at path for a key this file sets: its "kind",
 * "ref" and (fitted) "curve" into o. */
static void source_fields(load_ctx *c, const char *path, const cJSON *s, mg_source *o)
{
    int ref_bad = 0;
    for (const cJSON *k = s->child; k; k = k->next) {
        char kp[260];
        snprintf(kp, sizeof kp, "%s.%s", path, k->string);
        if (!strcmp(k->string, "kind")) {
            source_kind(c, kp, k, o);
        } else if (!strcmp(k->string, "ref") || !strcmp(k->string, "curve") ||
                   !strcmp(k->string, "check")) {
            char *dst = !strcmp(k->string, "ref") ? o->ref
                        : !strcmp(k->string, "curve") ? o->curve : o->check;
            if (!cJSON_IsString(k) || strlen(k->valuestring) >= MG_REF_MAX) {
                mg_diag_error(c->d, "%s: %s: expected a string of at most %d characters",
                              c->name, kp, MG_REF_MAX - 1);
                ref_bad = 1;
            } else {
                memcpy(dst, k->valuestring, strlen(k->valuestring) + 1);
            }
        } else {
            static const char *const sk[] = {"kind", "ref", "curve", "check"};
            mg_hint h;
            mg_diag_error(c->d, "%s: %s: unknown key%s", c->name, kp,
                          mg_hint_near(&h, k->string, sk, 4, "\""));
        }
    }
    if (o->kind == MG_SRC_NONE)
        mg_diag_error(c->d, "%s: %s: missing \"kind\"", c->name, path);
    if (!o->ref[0] && !ref_bad)
        mg_diag_error(c->d, "%s: %s: missing \"ref\" (where the value comes from)",
                      c->name, path);
    if (o->kind == MG_SRC_FITTED && !o->curve[0])
        mg_diag_error(c->d, "%s: %s: a fitted value must name the \"curve\" it was "
                      "fitted to", c->name, path);
}

/* $.sources["KEY"]: KEY must be a config key this file sets, its value an
 * object. */
static void source_entry(load_ctx *c, const cJSON *s)
{
    char path[200];
    snprintf(path, sizeof path, "$.sources[\"%s\"]", s->string);
    size_t idx;
    if (!mg_schema_find(s->string, &idx)) {
        const char *keys[MG_MAX_FIELDS];
        for (size_t i = 0; i < mg_schema_count; i++) keys[i] = mg_schema[i].key;
        mg_hint h;
        mg_diag_error(c->d, "%s: %s: names no config key%s", c->name, path,
                      mg_hint_near(&h, s->string, keys, mg_schema_count, "\""));
        return;
    }
    if (!c->node[idx]) {
        mg_diag_error(c->d, "%s: %s: gives a source for a key this file does not set",
                      c->name, path);
        return;
    }
    if (!cJSON_IsObject(s)) {
        mg_diag_error(c->d, "%s: %s: expected {\"kind\": ..., \"ref\": ...}, got %s",
                      c->name, path, mg_json_type_name(s));
        return;
    }
    source_fields(c, path, s, &c->dev->src[idx]);
}

/* Every value set without a source: an error each when strict, else one
 * warning counting them. */
static void check_unsourced(load_ctx *c, int strict)
{
    size_t unsourced = 0;
    const char *first = NULL;
    for (size_t i = 0; i < mg_schema_count; i++) {
        if (!c->node[i] || !strcmp(mg_schema[i].key, "schema")) continue;
        if (c->dev->src[i].kind == MG_SRC_NONE) {
            if (!first) first = mg_schema[i].key;
            unsourced++;
            if (strict)
                mg_diag_error(c->d, "%s: $.sources: no source for $.%s (strict mode: every "
                              "value set must say where it comes from)", c->name,
                              mg_schema[i].key);
        }
    }
    if (!strict && unsourced)
        mg_diag_warn(c->d, "%s: $.sources: %zu value%s without a source (first: $.%s)",
                     c->name, unsourced, unsourced == 1 ? "" : "s", first);
}

/* $.sources (may be absent): each entry, then the values left unsourced. */
static void read_sources(load_ctx *c, const cJSON *src, int strict)
{
    if (src && !cJSON_IsObject(src)) {
        mg_diag_error(c->d, "%s: $.sources: expected an object mapping keys to "
                      "{\"kind\", \"ref\"}, got %s", c->name, mg_json_type_name(src));
        return;
    }
    for (const cJSON *s = src ? src->child : NULL; s; s = s->next) source_entry(c, s);
    check_unsourced(c, strict);
}

/* ---- entry points ------------------------------------------------------- */

int mg_device_from_json(const cJSON *root, const char *name, int strict, mg_device *dev,
                        mg_diag *d)
{
    load_ctx c;
    memset(&c, 0, sizeof c);
    memset(dev, 0, sizeof *dev);
    c.name = name;
    c.d = d;
    c.dev = dev;
    size_t before = d->n;
    if (!cJSON_IsObject(root)) {
        mg_diag_error(d, "%s: $: expected a JSON object (a device config), got %s", name,
                      mg_json_type_name(root));
        return -1;
    }
    match_keys(&c, root);
    fill_rows(&c);
    if (strcmp(dev->schema, MG_SCHEMA_NAME) && !c.bad[0]) {
        mg_diag_error(d, "%s: $.schema: expected \"%s\", got \"%s\" (a config for another "
                      "version of mgsim?)", name, MG_SCHEMA_NAME, dev->schema);
    }
    read_sources(&c, cJSON_GetObjectItemCaseSensitive(root, "sources"), strict);
    if (d->n == before) mg_device_check_rules(dev, name, d);
    return d->n == before ? 0 : -1;
}

cJSON *mg_device_json_load(const char *arg, char *path, size_t len, mg_diag *d)
{
    int found = mg_config_find(arg, path, len);
    if (found == MG_CONFIG_TOO_LONG) {
        mg_diag_error(d, "%s: the config's path is too long", arg);
        return NULL;
    }
    if (found == MG_CONFIG_NOT_FOUND) {
        char hint[256];
        mg_diag_error(d, "%s: no such device config (searched ., $MGSIM_PATH and the installed "
                      "share/mgsim/configs)%s", arg, mg_config_hint(arg, hint, sizeof hint));
        return NULL;
    }
    return mg_json_load(path, d);
}

int mg_device_load(const char *arg, int strict, mg_device *dev, mg_diag *d)
{
    char path[4096];
    cJSON *j = mg_device_json_load(arg, path, sizeof path, d);
    if (!j) {
        memset(dev, 0, sizeof *dev);
        return -1;
    }
    int rc = mg_device_from_json(j, path, strict, dev, d);
    cJSON_Delete(j);
    return rc;
}
