/* aspect.c - the aspect table and the helpers aspects share (aspect.h). */
#include "probe/aspect.h"
#include "sim/analysis/profile.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

const mgp_aspect mgp_aspects[] = {
    {.name = "warp",
     .summary = "warp size: atomic-ticket runs and the division-loop timing staircase",
     .run = mgp_asp_warp},
    {.name = "flops",
     .summary = "fp32/fp16 peak GFLOPS over vector widths; preferred vector width",
     .run = mgp_asp_flops},
    {.name = "alu",
     .summary = "ALU lanes per compute unit: ticket interleaving of a 3D group; peak/clock",
     .run = mgp_asp_alu},
    {.name = "regs",
     .summary = "registers per item (spill knee), register file, pooled vs dedicated",
     .run = mgp_asp_regs},
    {.name = "cache_buffer",
     .summary = "buffer pointer chase: cache sizes, latencies, line size",
     .run = mgp_asp_cache_buffer},
    {.name = "cache_image",
     .summary = "image pointer chase: cache sizes, latencies, 2D line shape",
     .run = mgp_asp_cache_image},
    {.name = "bw_buffer",
     .summary = "buffer read bandwidth over footprint",
     .run = mgp_asp_bw_buffer},
    {.name = "bw_image",
     .summary = "image read bandwidth over footprint",
     .run = mgp_asp_bw_image},
    {.name = "bw_local",
     .summary = "local memory read bandwidth over footprint",
     .run = mgp_asp_bw_local},
    {.name = "bw_constant",
     .summary = "constant memory read bandwidth over footprint",
     .run = mgp_asp_bw_constant},
    {.name = "dram",
     .summary = "DRAM bandwidth: buffer reads far past the last cache",
     .run = mgp_asp_dram},
    {.name = "rstride2d",
     .summary = "tmmodel's random 2D-stride image chase: per-run strides and latency",
     .run = mgp_asp_rstride2d},
    {.name = "vload",
     .summary = "buffer vector loads, a line per lane: one load per vector or per element",
     .run = mgp_asp_vload},
    {.name = "lsu",
     .summary = "loads in flight: a lone warp's load rate against a loaded core's (partitions)",
     .run = mgp_asp_lsu},
    {.name = NULL},
};

const mgp_aspect *mgp_aspect_find(const char *name)
{
    for (const mgp_aspect *s = mgp_aspects; s->name; s++)
        if (!strcmp(s->name, name)) return s;
    return NULL;
}

mg_ares mgp_ares(mgp_arun *a)
{
    mg_ares r = {a->series, a->conclusion, a->notes};
    return r;
}

cJSON *mgp_series(mgp_arun *a, const char *name, const char *x, const char *y)
{
    mg_ares r = mgp_ares(a);
    return mg_ares_series(&r, name, x, y);
}

cJSON *mgp_point_add(cJSON *points, double x, double y, const mgp_point *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "x", x);
    if (isfinite(y) && p->status == MGP_TP_OK) cJSON_AddNumberToObject(o, "y", y);
    else cJSON_AddNullToObject(o, "y");
    cJSON_AddStringToObject(o, "status", mgp_tp_name(p->status));
    if (p->status != MGP_TP_OK) cJSON_AddStringToObject(o, "error", p->msg);
    if (p->n > 0) {
        cJSON_AddNumberToObject(o, "ns_median", p->median);
        cJSON_AddNumberToObject(o, "ns_min", p->min);
        cJSON_AddNumberToObject(o, "ns_max", p->max);
        cJSON_AddNumberToObject(o, "spread", p->spread);
        cJSON_AddNumberToObject(o, "noise", p->noise);
        cJSON *s = cJSON_AddArrayToObject(o, "ns_samples");
        for (int i = 0; i < p->n; i++) cJSON_AddItemToArray(s, cJSON_CreateNumber(p->ns[i]));
    }
    if (p->scale) cJSON_AddNumberToObject(o, "loop_count", (double)p->scale);
    if (p->short_run) cJSON_AddTrueToObject(o, "short_run");
    if (p->schedule[0]) cJSON_AddStringToObject(o, "schedule", p->schedule);
    if (p->regs_compiler >= 0) cJSON_AddNumberToObject(o, "regs_compiler", p->regs_compiler);
    if (p->kwg > 0 && p->group > p->kwg)
        cJSON_AddNumberToObject(o, "kernel_work_group_size", p->kwg);
    cJSON_AddItemToArray(points, o);
    return o;
}

int mgp_take(mgp_arun *a, const char *fmt, int64_t start, int64_t max, mgp_point *p)
{
    int rc = mgp_measure(a->t, fmt, start, max, p);
    if (rc == MGP_TP_STOP) a->stopped = 1;
    else if (rc == MGP_TP_BUDGET) a->budget = 1;
    else if (rc == MGP_TP_HUNG) a->hung = 1;
    else return 0;
    if (!a->early[0]) snprintf(a->early, sizeof a->early, "%s", p->msg);
    return -1;
}

void mgp_conclude(mgp_arun *a, const char *key, double value, const char *unit, double conf,
                  const char *method)
{
    mg_ares r = mgp_ares(a);
    mg_ares_conclude(&r, key, value, unit, conf, method);
}

void mgp_conclude_str(mgp_arun *a, const char *key, const char *value, double conf,
                      const char *method)
{
    mg_ares r = mgp_ares(a);
    mg_ares_conclude_str(&r, key, value, conf, method);
}

void mgp_conclude_none(mgp_arun *a, const char *key, const char *unit, const char *method,
                       const char *why, ...)
{
    char buf[700];
    va_list ap;
    va_start(ap, why);
    vsnprintf(buf, sizeof buf, why, ap);
    va_end(ap);
    mg_ares r = mgp_ares(a);
    mg_ares_conclude_none(&r, key, unit, method, "%s", buf);
}

void mgp_note(mgp_arun *a, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    mg_ares r = mgp_ares(a);
    mg_ares_note(&r, "%s", buf);
}

void mgp_fail(mgp_arun *a, int state, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->error, sizeof a->error, fmt, ap);
    va_end(ap);
    a->state = state;
}

const char *mgp_arun_status(const mgp_arun *a, double *conf)
{
    *conf = -1;
    for (const cJSON *k = a->conclusion->child; k; k = k->next) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(k, "confidence");
        if (cJSON_IsNumber(c) && (*conf < 0 || c->valuedouble < *conf)) *conf = c->valuedouble;
    }
    if (a->stopped) return "interrupted";
    if (a->state == MGP_AS_ERROR) return "error";
    if (a->state == MGP_AS_SKIPPED) return "skipped";
    if (a->budget || a->hung) return "timeout";
    for (const cJSON *k = a->conclusion->child; k; k = k->next) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(k, "confidence");
        if (cJSON_IsNumber(c) && c->valuedouble >= 0.5) return "ok";
    }
    return "undetermined";
}

int mgp_earlier(const mgp_arun *a, const char *aspect, const char *key, double *v)
{
    return a->profile ? mg_profile_number(a->profile, aspect, key, v, NULL) : -1;
}

double mgp_big_footprint(const mgp_arun *a)
{
    double mib = 1 << 20;
    double top = fmax(4.0 * (double)a->dp->cache_size, 256 * mib);
    top = fmin(fmin(top, (double)a->dp->x->max_alloc / 2), 512 * mib);
    if (a->max_footprint > 0) top = fmin(top, a->max_footprint);
    return top;
}

int64_t mgp_round_to(double v, int64_t m)
{
    return mg_pplan_round_to(v, m);
}

void mgp_pdev(const mgp_arun *a, mg_pdev *pd)
{
    const mgp_kexec_dev *x = a->dp->x;
    memset(pd, 0, sizeof *pd);
    pd->cus = a->dp->cus;
    pd->clock_mhz = a->dp->clock_mhz;
    pd->max_wg = x->max_wg;
    for (int i = 0; i < 3; i++) pd->max_items[i] = x->max_items[i];
    pd->images = x->images;
    pd->img_w = x->img_w;
    pd->img_h = x->img_h;
    pd->fp16 = x->fp16;
    pd->cpu = x->cpu;
    pd->local_mem = x->local_mem;
    pd->const_mem = x->const_mem;
    pd->max_alloc = x->max_alloc;
    pd->cache_size = a->dp->cache_size;
    pd->cacheline = a->dp->cacheline;
}
