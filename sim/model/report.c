/*
 * report.c - printing a simulation: a text report for people and JSON for
 * tools, from the counted statistics (model.h).
 */
#include "model/model.h"

#include <stdio.h>

static const char *const stall_names[] = {"memory", "alu", "barrier", "idle"};

void mg_sim_print_text(FILE *f, const mg_device *dev, const mg_trace_header *h,
                       const mg_sim_stats *st, const mg_roofline *r)
{
    fprintf(f, "kernel %s on %s: global %u,%u,%u local %u,%u,%u, %llu work groups, "
               "%llu warps of %u\n", h->kernel, dev->name, h->global[0], h->global[1],
            h->global[2], h->local[0], h->local[1], h->local[2],
            (unsigned long long)st->work_groups, (unsigned long long)st->warps, h->warp_width);
    fprintf(f, "time        %.0f cycles = %.3f us at %.0f MHz\n", st->cycles, st->seconds * 1e6,
            dev->clock_hz / 1e6);
    fprintf(f, "compute     %.0f flops, %.2f GFLOPS achieved, ALU utilization %.1f%%\n",
            st->flops, r->achieved_flops / 1e9,
            st->cycles > 0 ? 100.0 * st->alu_busy / (st->cycles * (double)dev->sp_count) : 0);
    fprintf(f, "occupancy   resident warps per SP: mean %.2f, max %u; occupancy groups %u "
               "(%u warps each); registers per item %u\n", st->resident_warps_mean,
            st->resident_warps_max, st->occupancy_groups, st->warps_per_group, h->regs_per_item);
    double total = 0;
    for (int i = 0; i < MG_STALL_COUNT; i++) total += st->stall[i];
    fprintf(f, "stalls      (warp-cycles; idle in SP-cycles)");
    for (int i = 0; i < MG_STALL_COUNT; i++)
        fprintf(f, " %s %.0f (%.1f%%)", stall_names[i], st->stall[i],
                total > 0 ? 100.0 * st->stall[i] / total : 0);
    fprintf(f, "\n\n%-10s %12s %12s %12s %8s %14s\n", "level", "accesses", "hits", "misses",
            "hit%", "bytes");
    for (int lv = 0; lv < MG_LV_COUNT; lv++) {
        const mg_level_stats *l = &st->lv[lv];
        if (!l->accesses && l->bytes <= 0) continue;
        fprintf(f, "%-10s %12llu %12llu %12llu %8.1f %14.0f\n", mg_level_name(lv),
                (unsigned long long)l->accesses, (unsigned long long)l->hits,
                (unsigned long long)l->misses,
                l->hits + l->misses ? 100.0 * (double)l->hits / (double)(l->hits + l->misses)
                                    : 0.0, l->bytes);
    }
    fprintf(f, "\nroofline    peak %.1f GFLOPS (%s)\n", r->peak_flops / 1e9,
            st->fp16_dominant ? "fp16" : "fp32");
    for (int lv = 0; lv < MG_LV_COUNT; lv++) {
        if (r->oi[lv] <= 0) continue;
        fprintf(f, "            %-9s %8.1f GB/s x OI %8.3f flop/B = %9.1f GFLOPS\n",
                mg_level_name(lv), r->bw[lv] / 1e9, r->oi[lv], r->oi[lv] * r->bw[lv] / 1e9);
    }
    fprintf(f, "            bound %.1f GFLOPS (%s); simulated time / bound time = %.2f\n",
            r->bound_flops / 1e9, mg_level_name(r->binding), r->over_bound);
}

cJSON *mg_sim_to_json(const mg_device *dev, const mg_trace_header *h,
                      const mg_sim_stats *st, const mg_roofline *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", h->kernel);
    cJSON_AddStringToObject(o, "device", dev->name);
    cJSON_AddNumberToObject(o, "cycles", st->cycles);
    cJSON_AddNumberToObject(o, "seconds", st->seconds);
    cJSON_AddNumberToObject(o, "flops", st->flops);
    cJSON_AddNumberToObject(o, "gflops", r->achieved_flops / 1e9);
    cJSON_AddNumberToObject(o, "work_groups", (double)st->work_groups);
    cJSON_AddNumberToObject(o, "warps", (double)st->warps);
    cJSON_AddNumberToObject(o, "warp_instructions", (double)st->warp_instrs);
    cJSON_AddNumberToObject(o, "lane_accesses", (double)st->lane_accesses);
    cJSON_AddNumberToObject(o, "alu_utilization",
                            st->cycles > 0 ? st->alu_busy / (st->cycles * (double)dev->sp_count) : 0);
    cJSON *occ = cJSON_AddObjectToObject(o, "occupancy");
    cJSON_AddNumberToObject(occ, "resident_warps_mean", st->resident_warps_mean);
    cJSON_AddNumberToObject(occ, "resident_warps_max", st->resident_warps_max);
    cJSON_AddNumberToObject(occ, "occupancy_groups", st->occupancy_groups);
    cJSON_AddNumberToObject(occ, "warps_per_group", st->warps_per_group);
    cJSON *stl = cJSON_AddObjectToObject(o, "stalls");
    for (int i = 0; i < MG_STALL_COUNT; i++) cJSON_AddNumberToObject(stl, stall_names[i], st->stall[i]);
    cJSON *lvs = cJSON_AddObjectToObject(o, "levels");
    for (int lv = 0; lv < MG_LV_COUNT; lv++) {
        const mg_level_stats *l = &st->lv[lv];
        cJSON *x = cJSON_AddObjectToObject(lvs, mg_level_name(lv));
        cJSON_AddNumberToObject(x, "accesses", (double)l->accesses);
        cJSON_AddNumberToObject(x, "hits", (double)l->hits);
        cJSON_AddNumberToObject(x, "misses", (double)l->misses);
        cJSON_AddNumberToObject(x, "bytes", l->bytes);
    }
    cJSON *rf = cJSON_AddObjectToObject(o, "roofline");
    cJSON_AddNumberToObject(rf, "peak_gflops", r->peak_flops / 1e9);
    cJSON *ce = cJSON_AddObjectToObject(rf, "ceilings");
    for (int lv = 0; lv < MG_LV_COUNT; lv++) {
        if (r->oi[lv] <= 0) continue;
        cJSON *x = cJSON_AddObjectToObject(ce, mg_level_name(lv));
        cJSON_AddNumberToObject(x, "bandwidth_gbs", r->bw[lv] / 1e9);
        cJSON_AddNumberToObject(x, "intensity", r->oi[lv]);
        cJSON_AddNumberToObject(x, "gflops", r->oi[lv] * r->bw[lv] / 1e9);
    }
    cJSON_AddNumberToObject(rf, "bound_gflops", r->bound_flops / 1e9);
    cJSON_AddStringToObject(rf, "binding", mg_level_name(r->binding));
    cJSON_AddNumberToObject(rf, "time_over_bound", r->over_bound);
    return o;
}
