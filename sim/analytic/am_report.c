/*
 * am_report.c - printing an analytical estimate (analytic.h): text for
 * people, JSON for tools, every level's figures from mg_am_est.
 */
#include "sim/analytic/analytic.h"

#include <string.h>

int mg_am_predictor_parse(const char *s, int *pred)
{
    if (!strcmp(s, "sim")) *pred = MG_PRED_SIM;
    else if (!strcmp(s, "analytic")) *pred = MG_PRED_ANALYTIC;
    else return -1;
    return 0;
}

static const char *const path_names[MG_AM_PATHS] = {"tex_l1", "buffer", "local", "constant"};

static void print_tensors(FILE *f, const mg_am_est *e)
{
    fprintf(f, "thread      %-10s %-8s %9s %8s %8s %10s %6s %6s %10s\n", "tensor", "path",
            "accesses", "lines", "blocks", "L_t", "s", "w", "L_w");
    for (int i = 0; i < e->ntensors; i++) {
        const mg_am_tensor *t = &e->t[i];
        fprintf(f, "            %-10s %-8s %9.1f %8.1f %8.1f %10.0f %6.2f %6.1f %10.0f\n",
                t->name, path_names[t->path], t->hist[MG_AM_H_ACCESS], t->hist[MG_AM_H_LINE],
                t->hist[MG_AM_H_BLOCK], t->lt, t->reuse, t->lanes, t->lw);
    }
}

static void print_caches(FILE *f, const mg_device *dev, const mg_am_est *e)
{
    mg_am_params p;
    mg_am_params_init(&p, dev);
    for (int q = 0; q < MG_AM_PATHS; q++) {
        if (!p.lines[q] || e->pressure[q] <= 0) continue;
        fprintf(f, "warp        %s: sum w x s = %.1f lines of C = %llu: %d thrashing step%s, "
                   "D = %.3f\n", path_names[q], e->pressure[q], (unsigned long long)p.lines[q],
                e->steps[q], e->steps[q] == 1 ? "" : "s", p.decay[q]);
    }
}

void mg_am_print_text(FILE *f, const mg_device *dev, const mg_trace_header *h,
                      const mg_am_est *e)
{
    fprintf(f, "kernel %s on %s (analytical model): global %u,%u,%u local %u,%u,%u, "
               "%llu work groups of %u warps of %u\n", h->kernel, dev->name, h->global[0],
            h->global[1], h->global[2], h->local[0], h->local[1], h->local[2],
            (unsigned long long)e->wgs, e->warps_per_wg, h->warp_width);
    fprintf(f, "time        %.0f cycles = %.3f us at %.0f MHz (%s)\n", e->cycles,
            e->seconds * 1e6, dev->clock_hz / 1e6,
            e->bound_by_traffic ? "L2/DRAM traffic" : e->bound_by_floor ? "throughput floor"
                                                                 : "L = L_w x L_g");
    print_tensors(f, e);
    print_caches(f, dev, e);
    fprintf(f, "warp        L_w = %.0f cycles (sum of L_t %.0f; work group %llu, warp 0)\n",
            e->lw, e->lt, (unsigned long long)e->sample_wg);
    fprintf(f, "occupancy   %u registers per item: %u warps per SP, %u work group%s per SP, "
               "%u occupancy group%s per work group\n", e->regs_per_item, e->occupancy,
            e->wgs_per_sp, e->wgs_per_sp == 1 ? "" : "s", e->groups_per_wg,
            e->groups_per_wg == 1 ? "" : "s");
    fprintf(f, "groups      L_g = ceil(%llu work groups / (%lld SPs x %u)) x %u = %llu\n",
            (unsigned long long)e->wgs, (long long)dev->sp_count, e->wgs_per_sp,
            e->groups_per_wg, (unsigned long long)e->lg);
    fprintf(f, "integrated  L = %.0f cycles; throughput floor %.0f cycles\n", e->tm_cycles,
            e->floor_cycles);
    fprintf(f, "traffic     L2 %.0f bytes (L1 misses) = %.0f cycles; DRAM %.0f bytes (inputs x "
               "refetch in an L2 share of %.0f lines per warp) = %.0f cycles\n", e->l2_bytes,
            e->l2_cycles, e->dram_bytes, e->l2_share, e->dram_cycles);
}

cJSON *mg_am_to_json(const mg_device *dev, const mg_trace_header *h, const mg_am_est *e)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "kernel", h->kernel);
    cJSON_AddStringToObject(j, "device", dev->name);
    cJSON_AddStringToObject(j, "predictor", "analytic");
    cJSON_AddNumberToObject(j, "cycles", e->cycles);
    cJSON_AddNumberToObject(j, "seconds", e->seconds);
    cJSON_AddStringToObject(j, "binding", e->bound_by_traffic ? "traffic"
                                        : e->bound_by_floor ? "floor" : "latency");
    cJSON *ts = cJSON_AddArrayToObject(j, "tensors");
    for (int i = 0; i < e->ntensors; i++) {
        const mg_am_tensor *t = &e->t[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", t->name);
        cJSON_AddStringToObject(o, "path", path_names[t->path]);
        cJSON_AddNumberToObject(o, "accesses", t->hist[MG_AM_H_ACCESS]);
        cJSON_AddNumberToObject(o, "line_crossings", t->hist[MG_AM_H_LINE]);
        cJSON_AddNumberToObject(o, "block_crossings", t->hist[MG_AM_H_BLOCK]);
        cJSON_AddNumberToObject(o, "lt_cycles", t->lt);
        cJSON_AddNumberToObject(o, "reuse_distance", t->reuse);
        cJSON_AddNumberToObject(o, "lanes", t->lanes);
        cJSON_AddNumberToObject(o, "lw_cycles", t->lw);
        cJSON_AddItemToArray(ts, o);
    }
    cJSON *w = cJSON_AddObjectToObject(j, "warp");
    cJSON_AddNumberToObject(w, "lt_cycles", e->lt);
    cJSON_AddNumberToObject(w, "lw_cycles", e->lw);
    for (int q = 0; q < MG_AM_PATHS; q++) {
        if (e->pressure[q] <= 0) continue;
        cJSON *c = cJSON_AddObjectToObject(w, path_names[q]);
        cJSON_AddNumberToObject(c, "pressure_lines", e->pressure[q]);
        cJSON_AddNumberToObject(c, "thrashing_steps", e->steps[q]);
    }
    cJSON *g = cJSON_AddObjectToObject(j, "work_groups");
    cJSON_AddNumberToObject(g, "regs_per_item", e->regs_per_item);
    cJSON_AddNumberToObject(g, "occupancy_warps", e->occupancy);
    cJSON_AddNumberToObject(g, "per_sp", e->wgs_per_sp);
    cJSON_AddNumberToObject(g, "groups_per_wg", e->groups_per_wg);
    cJSON_AddNumberToObject(g, "count", (double)e->wgs);
    cJSON_AddNumberToObject(g, "lg", (double)e->lg);
    cJSON_AddNumberToObject(j, "tm_cycles", e->tm_cycles);
    cJSON_AddNumberToObject(j, "floor_cycles", e->floor_cycles);
    cJSON_AddNumberToObject(j, "l2_share_lines", e->l2_share);
    cJSON_AddNumberToObject(j, "l2_bytes", e->l2_bytes);
    cJSON_AddNumberToObject(j, "l2_cycles", e->l2_cycles);
    cJSON_AddNumberToObject(j, "dram_bytes", e->dram_bytes);
    cJSON_AddNumberToObject(j, "dram_cycles", e->dram_cycles);
    return j;
}
