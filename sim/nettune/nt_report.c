/*
 * nt_report.c - the report of `mgsim net --config` (nettune.h): the
 * network's latency and one row per layer, as text and as JSON (schema
 * MG_NT_SCHEMA, what `mgsim plot net` reads).
 *
 * Utilization is ParallelFusion's (Jeong et al., EMDL'21, section 2: the
 * Snapdragon Profiler's ALU and load-store unit utilization, the share of
 * the GPU's time its ALUs and its load-store units are busy), from the
 * simulation: ALU = the SP-cycles the ALU pipes were busy / (SPs x
 * cycles); LSU = the memory warp instructions issued / (SPs x cycles), one
 * load-store issue per SP per cycle.  The network's figures weigh each
 * kernel by its time.
 */
#include "sim/nettune/nettune.h"
#include "sim/model/model.h"
#include "sim/net/nop.h"

#include <inttypes.h>
#include <string.h>

/* Time-weighted utilizations over the simulated rows. */
static void utilization(const mg_nt_result *r, double *alu, double *lsu)
{
    double t = 0, a = 0, s = 0;
    for (int i = 0; i < r->nrows; i++) {
        const mg_nt_row *row = &r->rows[i];
        if (row->kernel < 0) continue;
        const mg_nt_kernel *k = &r->kernels[row->kernel];
        double w = (double)row->reps * k->seconds;
        t += w;
        a += w * k->alu_util;
        s += w * k->lsu_util;
    }
    *alu = t > 0 ? a / t : 0;
    *lsu = t > 0 ? s / t : 0;
}

static void print_head(const mg_nt_result *r, const mg_nt_result *base, FILE *f)
{
    const mg_net *n = r->net;
    double alu, lsu;
    utilization(r, &alu, &lsu);
    fprintf(f, "network  %s on %s: %d layers, batch %" PRId64 "\n", n->name, r->config,
            n->nlayers, r->batch);
    if (r->given)
        fprintf(f, "kernels  given schedules (--layers-only)\n");
    else
        fprintf(f, "search   %s, rules %s: %d distinct kernel%s for %d layer%s\n", r->mode,
                *r->rules ? r->rules : "none", r->nkernels, r->nkernels == 1 ? "" : "s",
                r->nrows - r->not_simulated, r->nrows - r->not_simulated == 1 ? "" : "s");
    fprintf(f, "latency  %.3f ms = kernels %.3f ms + %" PRId64 " launches x %.3f us dispatch gap\n",
            r->total_s * 1e3, r->kernel_s * 1e3, r->launches, r->gap_s * 1e6);
    fprintf(f, "compute  %.2f MFLOP in kernels, %.2f GFLOPS over the latency; ALU %.1f%%, "
            "LSU %.1f%% (time-weighted)\n", r->flops / 1e6,
            r->total_s > 0 ? r->flops / r->total_s / 1e9 : 0, 100 * alu, 100 * lsu);
    if (r->not_simulated)
        fprintf(f, "missing  %d layer%s not simulated (not in the latency; reasons below)\n",
                r->not_simulated, r->not_simulated == 1 ? "" : "s");
    if (base && base->total_s > 0 && r->total_s > 0) {
        double per = r->total_s / (double)r->batch;
        fprintf(f, "batch    %" PRId64 ": %.3f ms per image (batch 1: %.3f ms); per-image "
                "throughput x%.3f\n", r->batch, per * 1e3, base->total_s * 1e3,
                base->total_s / per);
    }
}

void mg_nt_print(const mg_nt_result *r, const mg_nt_result *base, FILE *f)
{
    print_head(r, base, f);
    fprintf(f, "\n%4s  %-20s %-9s %5s %10s %6s %8s %8s %-8s %5s %5s\n", "#", "layer", "op",
            "kern", "time_us", "share", "GFLOPS", "bound", "ceiling", "ALU%", "LSU%");
    for (int i = 0; i < r->nrows; i++) {
        const mg_nt_row *row = &r->rows[i];
        const mg_net_layer *l = &r->net->layers[row->layer];
        if (row->kernel < 0) {
            fprintf(f, "%4d  %-20s %-9s %5s %10s  not simulated: %s\n", i, l->name,
                    l->op->name, "-", "-", row->why);
            continue;
        }
        const mg_nt_kernel *k = &r->kernels[row->kernel];
        char kern[16];
        snprintf(kern, sizeof kern, row->reps > 1 ? "%dx%" PRId64 : "%d", row->kernel,
                 row->reps);
        fprintf(f, "%4d  %-20s %-9s %5s %10.3f %5.1f%% %8.2f %8.2f %-8s %5.1f %5.1f%s%s%s\n", i,
                l->name, l->op->name, kern, row->seconds * 1e6,
                r->total_s > 0 ? 100 * row->seconds / r->total_s : 0, k->gflops,
                k->bound_gflops, mg_level_name(k->binding), 100 * k->alu_util,
                100 * k->lsu_util, *k->relaxed ? "  rules dropped: " : "", k->relaxed,
                k->unpruned ? "; screened" : "");
    }
    fprintf(f, "\nkern: the layer's distinct kernel (NxR: R launches); time_us: launches x "
            "(kernel + dispatch gap); rules dropped: those that kept no candidate of the "
            "layer\n");
}

/* One layer's JSON row; start: its start time in the network (s). */
static cJSON *row_json(const mg_nt_result *r, const mg_nt_row *row, double start)
{
    const mg_net_layer *l = &r->net->layers[row->layer];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", l->name);
    cJSON_AddStringToObject(o, "op", l->op->name);
    double sh[4] = {(double)l->shape[0], (double)l->shape[1], (double)l->shape[2],
                    (double)l->shape[3]};
    cJSON_AddItemToObject(o, "shape", cJSON_CreateDoubleArray(sh, 4));
    cJSON_AddBoolToObject(o, "simulated", row->kernel >= 0);
    cJSON_AddNumberToObject(o, "start_s", start);
    cJSON_AddNumberToObject(o, "seconds", row->seconds);
    if (row->kernel < 0) {
        cJSON_AddStringToObject(o, "why", row->why);
        return o;
    }
    const mg_nt_kernel *k = &r->kernels[row->kernel];
    cJSON_AddNumberToObject(o, "share", r->total_s > 0 ? row->seconds / r->total_s : 0);
    cJSON_AddNumberToObject(o, "kernel", row->kernel);
    cJSON_AddNumberToObject(o, "launches", (double)row->reps);
    cJSON_AddNumberToObject(o, "kernel_seconds", k->seconds);
    cJSON_AddNumberToObject(o, "gflops", k->gflops);
    cJSON_AddNumberToObject(o, "bound_gflops", k->bound_gflops);
    cJSON_AddStringToObject(o, "binding", mg_level_name(k->binding));
    cJSON_AddNumberToObject(o, "alu_utilization", k->alu_util);
    cJSON_AddNumberToObject(o, "lsu_utilization", k->lsu_util);
    cJSON_AddStringToObject(o, "schedule", k->schedule);
    cJSON_AddNumberToObject(o, "candidates", (double)k->space);
    cJSON_AddNumberToObject(o, "kept", (double)k->kept);
    if (*k->relaxed) cJSON_AddStringToObject(o, "rules_dropped", k->relaxed);
    if (k->unpruned) cJSON_AddBoolToObject(o, "unpruned", 1);
    return o;
}

static void add_totals(cJSON *o, const mg_nt_result *r, const mg_nt_result *base)
{
    double alu, lsu;
    utilization(r, &alu, &lsu);
    cJSON_AddNumberToObject(o, "latency_s", r->total_s);
    cJSON_AddNumberToObject(o, "kernel_s", r->kernel_s);
    cJSON_AddNumberToObject(o, "dispatch_gap_s", r->gap_s);
    cJSON_AddNumberToObject(o, "launches", (double)r->launches);
    cJSON_AddNumberToObject(o, "flops", r->flops);
    cJSON_AddNumberToObject(o, "gflops", r->total_s > 0 ? r->flops / r->total_s / 1e9 : 0);
    cJSON_AddNumberToObject(o, "alu_utilization", alu);
    cJSON_AddNumberToObject(o, "lsu_utilization", lsu);
    cJSON_AddNumberToObject(o, "kernels", r->nkernels);
    cJSON_AddNumberToObject(o, "not_simulated", r->not_simulated);
    if (base && base->total_s > 0 && r->total_s > 0) {
        cJSON *b = cJSON_AddObjectToObject(o, "batching");
        double per = r->total_s / (double)r->batch;
        cJSON_AddNumberToObject(b, "per_image_s", per);
        cJSON_AddNumberToObject(b, "batch1_latency_s", base->total_s);
        cJSON_AddNumberToObject(b, "throughput_gain", base->total_s / per);
    }
}

cJSON *mg_nt_json(const mg_nt_result *r, const mg_nt_result *base)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", MG_NT_SCHEMA);
    cJSON_AddStringToObject(o, "network", r->net->name);
    cJSON_AddStringToObject(o, "config", r->config);
    cJSON_AddNumberToObject(o, "batch", (double)r->batch);
    cJSON_AddStringToObject(o, "mode", r->mode);
    cJSON_AddStringToObject(o, "rules", r->rules);
    add_totals(o, r, base);
    cJSON *ls = cJSON_AddArrayToObject(o, "layers");
    double t = 0;
    for (int i = 0; i < r->nrows; i++) {
        cJSON_AddItemToArray(ls, row_json(r, &r->rows[i], t));
        t += r->rows[i].seconds;
    }
    return o;
}
