/*
 * report.c - printing a simulation: a text report for people and JSON for
 * tools, from the counted statistics (model.h).
 */
#include "sim/model/model.h"

#include <stdio.h>

static const char *const stall_names[] = {"memory", "alu", "barrier", "idle"};

const char *mg_stall_name(int s)
{
    return s >= 0 && s < MG_STALL_COUNT ? stall_names[s] : "?";
}

/* "auto" or "N waves" */
static const char *sample_mode(const mg_sim_stats *st, char *buf, size_t n)
{
    if (st->sample_mode == MG_SAMPLE_AUTO) snprintf(buf, n, "auto");
    else snprintf(buf, n, "%d wave%s", st->sample_mode, st->sample_mode == 1 ? "" : "s");
    return buf;
}

/* The sampling line of the text report (nothing when sampling was off). */
static void print_sampling(FILE *f, const mg_sim_stats *st)
{
    char mode[32];
    if (st->sample_mode == MG_SAMPLE_OFF) return;
    sample_mode(st, mode, sizeof mode);
    if (!st->sample_used) {
        fprintf(f, "sampling    %s: all %llu work groups simulated (%s)\n", mode,
                (unsigned long long)st->sample_wgs_simulated, mg_sample_note_text(st->sample_note));
        return;
    }
    char err[64];
    if (st->sample_error < 0) snprintf(err, sizeof err, "not estimated (one measured wave)");
    else snprintf(err, sizeof err, "%.2f%% of cycles", 100.0 * st->sample_error);
    fprintf(f, "sampling    %s: %llu of %llu work groups simulated (waves of %u: %u warm-up, "
               "%.0f measured; %u kind%s of work group among %u grid-position classes); "
               "estimated error %s\n", mode,
            (unsigned long long)st->sample_wgs_simulated, (unsigned long long)st->work_groups,
            st->sample_wave, st->sample_warmup_waves, st->sample_measured_waves,
            st->sample_classes, st->sample_classes == 1 ? "" : "s", st->sample_positions, err);
}

/* The "sampling" object of the JSON report (nothing when sampling was off). */
static void json_sampling(cJSON *o, const mg_sim_stats *st)
{
    if (st->sample_mode == MG_SAMPLE_OFF) return;
    cJSON *x = cJSON_AddObjectToObject(o, "sampling");
    if (st->sample_mode == MG_SAMPLE_AUTO) cJSON_AddStringToObject(x, "mode", "auto");
    else cJSON_AddNumberToObject(x, "mode", st->sample_mode);
    cJSON_AddBoolToObject(x, "used", st->sample_used);
    cJSON_AddNumberToObject(x, "work_groups_simulated", (double)st->sample_wgs_simulated);
    cJSON_AddNumberToObject(x, "work_groups_total", (double)st->work_groups);
    cJSON_AddNumberToObject(x, "wave_work_groups", st->sample_wave);
    cJSON_AddNumberToObject(x, "warmup_waves", st->sample_warmup_waves);
    cJSON_AddNumberToObject(x, "measured_waves", st->sample_measured_waves);
    cJSON_AddNumberToObject(x, "position_classes", st->sample_positions);
    cJSON_AddNumberToObject(x, "classes", st->sample_classes);
    if (st->sample_error < 0) cJSON_AddNullToObject(x, "estimated_error");
    else cJSON_AddNumberToObject(x, "estimated_error", st->sample_error);
    cJSON_AddStringToObject(x, "error_method", "2 standard errors of the steady rate (the larger "
                            "of between windows and between measured waves) x extrapolated work "
                            "/ cycles, plus half the spread of weighting kinds by records or by "
                            "lanes, plus the re-warming's transient (its last wave against the "
                            "steady rate, as extrapolated) / cycles");
    if (st->sample_note) cJSON_AddStringToObject(x, "note", mg_sample_note_text(st->sample_note));
}

void mg_sim_print_text(FILE *f, const mg_device *dev, const mg_trace_header *h,
                       const mg_sim_stats *st, const mg_roofline *r)
{
    fprintf(f, "kernel %s on %s: global %u,%u,%u local %u,%u,%u, %llu work groups, "
               "%llu warps of %u\n", h->kernel, dev->name, h->global[0], h->global[1],
            h->global[2], h->local[0], h->local[1], h->local[2],
            (unsigned long long)st->work_groups, (unsigned long long)st->warps, h->warp_width);
    print_sampling(f, st);
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
    json_sampling(o, st);
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
