/*
 * calibrate.c - calibration's driver: base document, profile rules,
 * placeholders, the plausibility checks (again without what they refused,
 * until nothing more is), the strict schema check, and the per-key
 * origins and verdicts (calibrate.h).
 */
#include "sim/calib/cal_internal.h"
#include "sim/config/print.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const PLACEHOLDER = "placeholder: not in the profile and no base config";

/* A required key with no value yet gets `json` (a JSON literal). */
static void hold(cal_ctx *c, const char *key, const char *json)
{
    const mg_field *f = mg_schema_find(key, NULL);
    if (!f || cal_get(c, key)) return;
    if (f->when) {
        const char *eq = strchr(f->when, '=');
        char k[64];
        snprintf(k, sizeof k, "%.*s", (int)(eq - f->when), f->when);
        if (strcmp(cal_text(c, k), eq + 1)) return;
    }
    cal_put(c, key, cJSON_Parse(json), "inferred", PLACEHOLDER, MG_CAL_UNKNOWN);
}

void cal_placeholders(cal_ctx *c)
{
    char buf[160];
    hold(c, "core.sp_count", "1");
    hold(c, "core.clock", "\"1GHz\"");
    hold(c, "core.warp_width", "32");
    hold(c, "core.max_workgroup_size", "256");
    double warp = cal_value(c, "core.warp_width"), wg = cal_value(c, "core.max_workgroup_size");
    hold(c, "core.alus_per_sp", "32");
    /* room for one largest group, so the cross-field rules hold */
    snprintf(buf, sizeof buf, "%.0f", fmax(1, ceil(wg / warp)));
    hold(c, "core.max_warps_per_sp", buf);
    hold(c, "registers.model", "\"shared_pool\"");
    hold(c, "registers.max_regs_per_item", "64");
    double regs = cal_value(c, "registers.max_regs_per_item");
    snprintf(buf, sizeof buf, "%.0f", regs * fmax(wg, warp));
    hold(c, "registers.pool_regs_per_sp", buf);
    snprintf(buf, sizeof buf, "[{\"max_regs\": %.0f, \"max_items\": %.0f}]", regs,
             fmax(wg, warp));
    hold(c, "registers.occupancy_steps", buf);
    hold(c, "tex_l1.line", "\"64B\"");
    hold(c, "tex_l1.tile_w_texels", "4");
    hold(c, "tex_l1.tile_h_texels", "4");
    hold(c, "tex_l1.size", "\"16KiB\"");
    hold(c, "tex_l1.latency_cycles", "100");
    hold(c, "tex_l1.bandwidth", "\"100GB/s\"");
    hold(c, "buffer.path", "\"l2\"");
    hold(c, "buffer.latency_cycles", "50");
    hold(c, "buffer_l1.size", "\"16KiB\"");
    hold(c, "buffer_l1.line", "\"64B\"");
    hold(c, "buffer_l1.latency_cycles", "50");
    hold(c, "buffer_l1.bandwidth", "\"100GB/s\"");
    hold(c, "local.kind", "\"onchip\"");
    hold(c, "local.size", "\"32KiB\"");
    hold(c, "local.bandwidth", "\"100GB/s\"");
    hold(c, "local.latency_cycles", "50");
    hold(c, "l2.line", "\"64B\"");
    hold(c, "l2.size", "\"256KiB\"");
    hold(c, "l2.latency_cycles", "50");
    hold(c, "l2.bandwidth", "\"100GB/s\"");
    hold(c, "dram.bandwidth", "\"10GB/s\"");
    hold(c, "dram.latency", "\"100ns\"");
}

double cal_field_num(const mg_device *dev, size_t i)
{
    const mg_field *f = &mg_schema[i];
    const char *p = (const char *)dev + f->off;
    switch (f->type) {
    case MG_T_INT:
    case MG_T_SIZE: return (double)*(const int64_t *)p;
    case MG_T_NUM:
    case MG_T_FREQ:
    case MG_T_BW:
    case MG_T_TIME: return *(const double *)p;
    default: return NAN;
    }
}

/* Note the measured values more than 2x away from the base's: a probe
 * kernel that missed (or a base that is wrong) deserves a look. */
static void compare_base(cal_ctx *c, const mg_device *cal, const mg_device *base)
{
    for (size_t i = 0; i < mg_schema_count; i++) {
        if (c->origin[i] != MG_CAL_PROFILE || !base->set[i]) continue;
        double a = cal_field_num(cal, i), b = cal_field_num(base, i);
        if (!(a > 0 && b > 0) || (a <= 2 * b && b <= 2 * a)) continue;
        char va[96], vb[96];
        mg_device_field_text(cal, i, va, sizeof va);
        mg_device_field_text(base, i, vb, sizeof vb);
        cal_note(c, "%s = %s is %.2fx the base's %s: check the profile's curve", mg_schema[i].key,
                 va, a / b, vb);
    }
}

/* One calibration pass into c (fresh document and notes); the verdicts
 * of earlier passes hold in v.  Returns the number of new refusals. */
static int cal_pass(cal_ctx *c, const cJSON *profile, const mg_device *base,
                    const mg_cal_opts *o, cal_verdict *v)
{
    memset(c, 0, sizeof *c);
    c->prof = profile;
    c->o = o;
    c->base = base;
    c->verdict = v;
    c->cfg = cal_base_doc(base);
    c->notes = cJSON_CreateArray();
    for (size_t i = 0; i < MG_MAX_FIELDS; i++) c->origin[i] = -1;
    if (!cJSON_GetObjectItemCaseSensitive(c->cfg, "schema"))
        cJSON_AddStringToObject(c->cfg, "schema", MG_SCHEMA_NAME);
    cal_apply_profile(c);
    cal_placeholders(c);
    cal_drop_inapplicable(c);
    return cal_check_all(c);
}

/* The per-key rows of the result: value, origin, source and verdict; the
 * verdicts also go into the config's sources ("check"). */
static void fill_keys(mg_cal *out, const cal_ctx *c)
{
    for (size_t i = 0; i < mg_schema_count && out->n_keys < MG_MAX_FIELDS; i++) {
        const mg_field *f = &mg_schema[i];
        if (!strcmp(f->key, "schema") || !mg_schema_applies(f, &out->dev)) continue;
        mg_cal_key *k = &out->keys[out->n_keys++];
        const cal_verdict *v = &c->verdict[i];
        snprintf(k->key, sizeof k->key, "%s", f->key);
        mg_device_field_text(&out->dev, i, k->value, sizeof k->value);
        k->origin = c->origin[i] >= 0 ? c->origin[i]
                    : out->dev.set[i] ? MG_CAL_BASE : MG_CAL_DEFAULT;
        snprintf(k->ref, sizeof k->ref, "%s", out->dev.set[i] ? out->dev.src[i].ref
                                                               : "mgsim schema default");
        k->verdict = v->verdict;
        if (v->verdict == MG_CAL_PASSED) continue;
        snprintf(k->rule, sizeof k->rule, "%s", v->rule);
        snprintf(k->judged, sizeof k->judged, "%s", v->judged);
        snprintf(k->why, sizeof k->why, "%s", v->why);
        char buf[3 * MG_REF_MAX];
        if (v->verdict == MG_CAL_REFUSED)
            snprintf(buf, sizeof buf, "refused by %s: the profile's %s; %s", v->rule, v->judged,
                     v->why);
        else
            snprintf(buf, sizeof buf, "flagged by %s: %s", v->rule, v->why);
        size_t len = strlen(buf) < MG_REF_MAX - 1 ? strlen(buf) : MG_REF_MAX - 1;
        memcpy(out->dev.src[i].check, buf, len);       /* the loader's limit */
        out->dev.src[i].check[len] = '\0';
    }
}

int mg_calibrate(const cJSON *profile, const mg_device *base, const mg_cal_opts *o,
                 mg_cal *out, mg_diag *d)
{
    memset(out, 0, sizeof *out);
    cal_verdict *v = calloc(MG_MAX_FIELDS, sizeof *v);
    cal_ctx c;
    if (!v) {
        mg_diag_error(d, "calibrate: out of memory");
        return -1;
    }
    /* a refusal changes what later values derive from: calibrate again
     * without it, until a pass refuses nothing new */
    for (int pass = 0; cal_pass(&c, profile, base, o, v) > 0 && pass < MG_MAX_FIELDS; pass++) {
        cJSON_Delete(c.cfg);
        cJSON_Delete(c.notes);
    }
    if (mg_device_from_json(c.cfg, "the calibrated config", 1, &out->dev, d)) {
        mg_diag_error(d, "calibrate: the profile's values do not make a valid config (the "
                      "problems above); give a --base that fits them, or check the profile");
        cJSON_Delete(c.cfg);
        cJSON_Delete(c.notes);
        free(v);
        return -1;
    }
    cJSON_Delete(c.cfg);
    if (base) compare_base(&c, &out->dev, base);
    out->notes = c.notes;
    out->profile_path = o->profile_path;
    out->base_path = o->base_path;
    fill_keys(out, &c);
    out->config = mg_device_to_json(&out->dev);
    free(v);
    return 0;
}

void mg_cal_free(mg_cal *c)
{
    cJSON_Delete(c->config);
    cJSON_Delete(c->notes);
    c->config = c->notes = NULL;
}

const char *mg_cal_verdict_name(int verdict)
{
    static const char *const n[] = {"passed", "flagged", "refused"};
    return verdict >= 0 && verdict <= MG_CAL_REFUSED ? n[verdict] : "?";
}

const char *mg_cal_origin_name(int origin)
{
    static const char *const n[] = {"profile", "base", "default", "unknown"};
    return origin >= 0 && origin <= MG_CAL_UNKNOWN ? n[origin] : "?";
}
