/*
 * api.c - the public C API (include/mgsim.h) over the internal modules:
 * the config loader (sim/config), the generator (traces/gen), the trace
 * reader (traces/), the timing model (sim/model) and the sweep engine
 * (sim/search).  Nothing here prints; every error goes to the caller's err.
 */
#include "include/mgsim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/jsonout.h"
#include "sim/config/device.h"
#include "sim/model/model.h"
#include "sim/search/rule.h"
#include "sim/search/space.h"
#include "sim/search/sweep.h"
#include "sim/version.h"
#include "traces/gen/gen.h"
#include "traces/gen/schedule.h"
#include "traces/trace.h"

struct mgsim_device {
    mg_device dev;
};

const char *mgsim_version(void) { return MG_VERSION; }

int mgsim_api_version(void) { return MGSIM_API_VERSION; }

const char *mgsim_device_name(const mgsim_device *dev) { return dev ? dev->dev.name : ""; }

void mgsim_free(void *p) { free(p); }

/* Copy d's first error (or `fallback`) into err; returns -1. */
static int fail(mg_diag *d, const char *fallback, char *err, size_t errlen)
{
    const char *m = d && mg_diag_failed(d) ? mg_diag_first(d) : fallback;
    if (err && errlen) snprintf(err, errlen, "%s", m);
    return -1;
}

mgsim_device *mgsim_device_load(const char *config, char *err, size_t errlen)
{
    mg_diag d;
    mg_diag_init(&d);
    mgsim_device *m = calloc(1, sizeof *m);
    if (!config || !m || mg_device_load(config, 0, &m->dev, &d)) {
        fail(&d, m ? "no config given" : "out of memory", err, errlen);
        free(m);
        m = NULL;
    }
    mg_diag_free(&d);
    return m;
}

void mgsim_device_free(mgsim_device *dev) { free(dev); }

/* j as mgsim prints it (base/jsonout.h), in a malloc'd string; NULL on OOM. */
static char *json_string(const cJSON *j)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int bad = mg_json_write(f, j) != 0;
    if (fclose(f) || bad) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The public statistics of a finished simulation. */
static void fill_stats(const mg_sim_stats *s, const mg_roofline *rf, const mg_trace_header *h,
                       mgsim_stats *st)
{
    memset(st, 0, sizeof *st);
    st->cycles = s->cycles;
    st->seconds = s->seconds;
    st->flops = s->flops;
    st->gflops = s->seconds > 0 ? s->flops / s->seconds / 1e9 : 0;
    st->bound_gflops = rf->bound_flops / 1e9;
    snprintf(st->binding, sizeof st->binding, "%s",
             rf->binding < 0 ? "compute" : mg_level_name(rf->binding));
    st->warp_instrs = s->warp_instrs;
    st->work_groups = s->work_groups;
    st->warps = s->warps;
    st->resident_warps_mean = s->resident_warps_mean;
    st->resident_warps_max = s->resident_warps_max;
    st->registers_per_item = h->regs_per_item;
}

/* Replay src on dev into st (and *json when asked).  0, or -1 with d. */
static int run_source(const mg_device *dev, mg_trace_source *src, mgsim_stats *st, char **json,
                      mg_diag *d)
{
    mg_sim_stats s;
    mg_sim_opts so = {.quiet = 1, .sample = MG_SAMPLE_OFF};
    if (mg_sim_run(dev, src, &so, &s, d)) return -1;
    mg_roofline rf;
    mg_roofline_compute(dev, &s, &rf);
    if (st) fill_stats(&s, &rf, src->hdr, st);
    if (!json) return 0;
    cJSON *j = mg_sim_to_json(dev, src->hdr, &s, &rf);
    *json = j ? json_string(j) : NULL;
    cJSON_Delete(j);
    if (!*json) mg_diag_error(d, "out of memory");
    return *json ? 0 : -1;
}

int mgsim_run_schedule(const mgsim_device *dev, const char *schedule, mgsim_stats *st,
                       char **json, char *err, size_t errlen)
{
    if (json) *json = NULL;
    if (!dev || !schedule) return fail(NULL, "no device or no schedule given", err, errlen);
    mg_diag d;
    mg_diag_init(&d);
    mg_gen *g = calloc(1, sizeof *g);
    mg_schedule s;
    int rc = -1;
    if (!g) {
        mg_diag_error(&d, "out of memory");
    } else if (!mg_schedule_parse_line(schedule, NULL, &s, &d) && !mg_gen_prepare(g, &s, &d)) {
        mg_gen_stream gs;
        mg_trace_source src = mg_gen_source(&gs, g);
        rc = run_source(&dev->dev, &src, st, json, &d);
    }
    if (rc) fail(&d, "simulation failed", err, errlen);
    mg_diag_free(&d);
    if (g) mg_gen_free(g);
    free(g);
    return rc;
}

int mgsim_run_trace(const mgsim_device *dev, const char *trace_path, mgsim_stats *st,
                    char **json, char *err, size_t errlen)
{
    if (json) *json = NULL;
    if (!dev || !trace_path) return fail(NULL, "no device or no trace given", err, errlen);
    mg_diag d;
    mg_diag_init(&d);
    int rc = -1;
    mg_trace_reader *rd = mg_trace_reader_open(trace_path, &d);
    if (rd) {
        mg_trace_source src = mg_trace_reader_source(rd);
        rc = run_source(&dev->dev, &src, st, json, &d);
        mg_trace_reader_close(rd);
    }
    if (rc) fail(&d, "simulation failed", err, errlen);
    mg_diag_free(&d);
    return rc;
}

/* The public summary of a finished sweep. */
static void fill_summary(const mg_sweep_sum *s, mgsim_sweep_summary *out)
{
    memset(out, 0, sizeof *out);
    out->candidates = s->total;
    out->kept = s->has_rules ? s->kept : s->total;
    out->simulated = mg_sweep_simulated(s);
    out->failed = s->failed;
    if (!s->best.valid) return;
    out->best_index = s->best.index;
    out->best_seconds = s->best.seconds;
    snprintf(out->best_schedule, sizeof out->best_schedule, "%s", s->best.schedule);
}

/* Load the space and rules, run the sweep into sum.  0, or -1 with d. */
static int sweep_inputs(const mg_device *dev, const char *space, const char *rules, int threads,
                        mg_space *sp, mg_rules *r, mg_sweep_sum *sum, mg_diag *d)
{
    if (mg_space_load(space, sp, d)) return -1;
    if (rules && mg_rules_load(rules, r, d)) return -1;
    mg_sweep_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.dev = dev;
    cfg.space = sp;
    cfg.rules = rules ? r : NULL;
    cfg.pruned_only = rules != NULL;
    cfg.threads = threads > 0 ? threads : 1;
    cfg.sample = MG_SAMPLE_OFF;
    if (mg_sweep_ident_fill(&cfg.id, dev, space, sp, rules, cfg.rules, d)) return -1;
    return mg_sweep_run(&cfg, sum, d);
}

int mgsim_sweep(const mgsim_device *dev, const char *space, const char *rules, int threads,
                mgsim_sweep_summary *out, char **json, char *err, size_t errlen)
{
    if (json) *json = NULL;
    if (!dev || !space) return fail(NULL, "no device or no space given", err, errlen);
    mg_diag d;
    mg_diag_init(&d);
    mg_space *sp = calloc(1, sizeof *sp);
    mg_rules *r = calloc(1, sizeof *r);
    mg_sweep_sum *sum = calloc(1, sizeof *sum);
    int rc = -1;
    if (!sp || !r || !sum) {
        mg_diag_error(&d, "out of memory");
    } else if (!sweep_inputs(&dev->dev, space, rules, threads, sp, r, sum, &d)) {
        rc = 0;
        if (out) fill_summary(sum, out);
        if (json) {
            cJSON *j = mg_sweep_sum_json(sum);
            *json = j ? json_string(j) : NULL;
            cJSON_Delete(j);
            if (!*json) rc = fail(NULL, "out of memory", err, errlen);
        }
    }
    if (rc && mg_diag_failed(&d)) fail(&d, "sweep failed", err, errlen);
    mg_diag_free(&d);
    if (sp) mg_space_free(sp);
    free(sp);
    free(r);
    free(sum);
    return rc;
}
