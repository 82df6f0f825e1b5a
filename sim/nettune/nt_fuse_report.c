/*
 * nt_fuse_report.c - the fusion part of `mgsim net --fuse`'s report
 * (nt_fuse.h): the network's latency with the adopted groups, and one row
 * per group tried (its layers, units apart and timed, fused, the gain),
 * as text and as the JSON report's "fusion" object.
 *
 * gain = unfused / fused - 1 (ParallelFusion's speed-up: +50% is the
 * fused launch taking 2/3 of the time); a group whose fused kernel does
 * not simulate has no gain and the reason.
 */
#include "sim/nettune/nt_fuse.h"

#include <string.h>

/* The group's layers: units apart by " | ", a unit's layers by "+". */
static void group_names(const mg_nt_group *g, const mg_nt_result *r, char *out, size_t len)
{
    size_t n = 0;
    out[0] = 0;
    for (int i = 0; i < g->n && n < len; i++) {
        const char *sep = !i ? "" : g->unit_of[i] == g->unit_of[i - 1] ? "+" : " | ";
        n += (size_t)snprintf(out + n, len - n, "%s%s", sep,
                              r->net->layers[r->rows[g->rows[i]].layer].name);
    }
}

static double gain(const mg_nt_group *g)
{
    return g->k.ok && g->fused_s > 0 ? g->unfused_s / g->fused_s - 1 : 0;
}

void mg_nt_fusion_print(const mg_nt_fusion *f, const mg_nt_result *r, FILE *out)
{
    int adopted = 0;
    for (int i = 0; i < f->ngroups; i++) adopted += f->groups[i].adopted;
    fprintf(out, "\nfusion   %s: %d group%s tried, %d adopted; latency %.3f ms (unfused %.3f "
            "ms, gain %+.1f%%)\n", mg_nt_fuse_names[f->mode], f->ngroups,
            f->ngroups == 1 ? "" : "s", adopted, f->latency_s * 1e3, r->total_s * 1e3,
            f->latency_s > 0 ? 100 * (r->total_s / f->latency_s - 1) : 0);
    if (!f->ngroups) return;
    fprintf(out, "\n%4s  %-10s %-36s %11s %11s %8s  %s\n", "#", "kind", "layers", "unfused_us",
            "fused_us", "gain", "adopted");
    for (int i = 0; i < f->ngroups; i++) {
        const mg_nt_group *g = &f->groups[i];
        char names[512];
        group_names(g, r, names, sizeof names);
        if (!g->k.ok) {
            fprintf(out, "%4d  %-10s %-36s %11.3f %11s %8s  no: no kernel: %.150s\n", i,
                    g->parallel ? "parallel" : "sequential", names, g->unfused_s * 1e6, "-",
                    "-", g->k.why);
            continue;
        }
        fprintf(out, "%4d  %-10s %-36s %11.3f %11.3f %+7.1f%%  %s\n", i,
                g->parallel ? "parallel" : "sequential", names, g->unfused_s * 1e6,
                g->fused_s * 1e6, 100 * gain(g), g->adopted ? "yes" : "no");
    }
    fprintf(out, "\nunfused_us: the layers' times (launches x (kernel + dispatch gap)); "
            "fused_us: the fused kernel + one dispatch gap; gain: unfused / fused - 1\n");
}

static cJSON *group_json(const mg_nt_group *g, const mg_nt_result *r)
{
    cJSON *o = cJSON_CreateObject();
    char names[512];
    group_names(g, r, names, sizeof names);
    cJSON_AddStringToObject(o, "kind", g->parallel ? "parallel" : "sequential");
    cJSON_AddStringToObject(o, "group", names);
    cJSON *ls = cJSON_AddArrayToObject(o, "layers");
    for (int i = 0; i < g->n; i++)
        cJSON_AddItemToArray(ls, cJSON_CreateString(
                                     r->net->layers[r->rows[g->rows[i]].layer].name));
    cJSON_AddNumberToObject(o, "unfused_s", g->unfused_s);
    cJSON_AddBoolToObject(o, "simulated", g->k.ok);
    if (!g->k.ok) {
        cJSON_AddStringToObject(o, "why", g->k.why);
    } else {
        cJSON_AddNumberToObject(o, "fused_s", g->fused_s);
        cJSON_AddNumberToObject(o, "kernel_seconds", g->k.seconds);
        cJSON_AddNumberToObject(o, "gain", gain(g));
        cJSON_AddNumberToObject(o, "alu_utilization", g->k.alu_util);
        cJSON_AddNumberToObject(o, "lsu_utilization", g->k.lsu_util);
    }
    cJSON_AddBoolToObject(o, "adopted", g->adopted);
    cJSON_AddStringToObject(o, "schedule", g->k.schedule);
    return o;
}

cJSON *mg_nt_fusion_json(const mg_nt_fusion *f, const mg_nt_result *r)
{
    cJSON *o = cJSON_CreateObject();
    int adopted = 0;
    for (int i = 0; i < f->ngroups; i++) adopted += f->groups[i].adopted;
    cJSON_AddStringToObject(o, "mode", mg_nt_fuse_names[f->mode]);
    cJSON_AddNumberToObject(o, "latency_s", f->latency_s);
    cJSON_AddNumberToObject(o, "unfused_latency_s", r->total_s);
    cJSON_AddNumberToObject(o, "gain", f->latency_s > 0 ? r->total_s / f->latency_s - 1 : 0);
    cJSON_AddNumberToObject(o, "adopted", adopted);
    cJSON *gs = cJSON_AddArrayToObject(o, "groups");
    for (int i = 0; i < f->ngroups; i++) cJSON_AddItemToArray(gs, group_json(&f->groups[i], r));
    return o;
}
