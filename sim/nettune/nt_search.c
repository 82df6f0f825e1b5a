/*
 * nt_search.c - a layer's best kernel: a sweep of its derived space
 * (sim/search/sweep.h, no results file) and one full simulation of the
 * winner for the figures a sweep record does not keep (nt_kernel.h).
 *
 * The exhaustive search (no screen) runs in two sweeps: a seed, the
 * MG_NT_SEED_K candidates the analytical model ranks fastest, simulated;
 * then every candidate, each simulation stopped once it passes
 * MG_NT_CAP_MARGIN x the seed's best time.  A stopped candidate is slower
 * than the seed's best, so it cannot be the best: the search picks what
 * simulating every candidate to the end picks (nt_kernel.h says where a
 * sampled simulation could differ), and both sweeps' results depend on
 * nothing but the inputs, never on the threads.
 */
#include "sim/nettune/nt_kernel.h"
#include "sim/model/model.h"
#include "sim/search/sweep.h"
#include "traces/gen/gen.h"
#include "traces/gen/schedule.h"
#include "traces/trace.h"
#include "base/hash.h"
#include "base/jsonfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The figures of a complete simulation into k. */
static void fill(const mg_device *dev, const mg_sim_stats *st, mg_nt_kernel *k)
{
    mg_roofline rf;
    mg_roofline_compute(dev, st, &rf);
    double slots = st->cycles * (double)dev->sp_count;
    uint64_t mem = 0;
    for (int t = 0; t < MG_REC_TYPE_COUNT; t++)
        if (t != MG_REC_ALU && t != MG_REC_BARRIER) mem += st->records[t];
    k->ok = 1;
    k->seconds = st->seconds;
    k->flops = st->flops;
    k->gflops = rf.achieved_flops / 1e9;
    k->bound_gflops = rf.bound_flops / 1e9;
    k->binding = rf.binding;
    k->alu_util = slots > 0 ? st->alu_busy / slots : 0;
    k->lsu_util = slots > 0 ? (double)mem / slots : 0;
}

void mg_nt_simulate(const mg_nt_search *s, const char *words, mg_nt_kernel *k)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_schedule sc;
    mg_gen *g = calloc(1, sizeof *g);
    k->ok = 0;
    snprintf(k->schedule, sizeof k->schedule, "%s", words);
    if (!g) {
        snprintf(k->why, sizeof k->why, "out of memory");
    } else if (mg_schedule_parse_line(words, NULL, &sc, &d) || mg_gen_prepare(g, &sc, &d) ||
               mg_gen_check_work(g, s->max_work, &d)) {
        snprintf(k->why, sizeof k->why, "%s", mg_diag_first(&d));
    } else {
        mg_schedule_format(&sc, k->schedule, sizeof k->schedule);
        mg_gen_stream gs;
        mg_trace_source src = mg_gen_source(&gs, g);
        mg_sim_opts so = {0};
        so.quiet = 1;
        so.sample = s->sample;
        mg_sim_stats st;
        if (mg_sim_run(s->dev, &src, &so, &st, &d))
            snprintf(k->why, sizeof k->why, "%s", mg_diag_first(&d));
        else
            fill(s->dev, &st, k);
    }
    if (g) mg_gen_free(g);
    free(g);
    mg_diag_free(&d);
}

/* One sweep of sp (pruned to the kept candidates when prune) into *sum,
 * each simulation stopped past MG_NT_CAP_MARGIN x the fastest result so
 * far, and past cap_s seconds when cap_s > 0. */
static int sweep(const mg_nt_search *s, const mg_space *sp, const char *text, int prune,
                 double cap_s, mg_sweep_sum *sum, mg_diag *d)
{
    mg_sweep_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    memset(sum, 0, sizeof *sum);
    cfg.dev = s->dev;
    cfg.space = sp;
    cfg.rules = prune ? s->rules : NULL;
    snprintf(cfg.id.config, sizeof cfg.id.config, "%s", s->dev->name);
    snprintf(cfg.id.config_hash, sizeof cfg.id.config_hash, "%s", s->dev_hash);
    snprintf(cfg.id.space, sizeof cfg.id.space, "%s", sp->name);
    snprintf(cfg.id.space_hash, sizeof cfg.id.space_hash, "%016llx",
             (unsigned long long)mg_fnv1a_str(text));
    if (cfg.rules) {
        snprintf(cfg.id.rules, sizeof cfg.id.rules, "%s", s->rules->name);
        snprintf(cfg.id.rules_hash, sizeof cfg.id.rules_hash, "%s", s->rules_hash);
    }
    cfg.pruned_only = cfg.rules != NULL;
    cfg.threads = s->threads;
    cfg.sample = s->sample;
    cfg.max_work = s->max_work;
    cfg.screen_k = s->screen_k;
    cfg.id.screen_k = s->screen_k;
    cfg.cap_seconds = cap_s;
    cfg.cap_margin = MG_NT_CAP_MARGIN;
    cfg.stop = s->stop;
    if (mg_sweep_run(&cfg, sum, d)) return -1;
    if (sum->interrupted) {
        mg_diag_error(d, "interrupted");
        return -1;
    }
    return 0;
}

/* The candidates a sweep simulated, those stopped at the cap included
 * (which of them were stopped depends on the threads' timing; how many
 * went into the simulator does not). */
static uint64_t ran(const mg_sweep_sum *sum) { return mg_sweep_simulated(sum) + sum->cut; }

/* The rules keep none of sp (sum: that sweep): drop the enabled rule that
 * fired on the most candidates and sweep again, one rule at a time, until
 * some candidate is kept or no enabled rule fires; k->relaxed names the
 * rules dropped.  Returns as sweep. */
static int relax(const mg_nt_search *s, const mg_space *sp, const char *text,
                 mg_sweep_sum *sum, mg_nt_kernel *k, mg_diag *d)
{
    mg_rules r = *s->rules;
    mg_nt_search w = *s;
    w.rules = &r;
    int rc = 0;
    while (!rc && !sum->best_kept.valid) {
        int worst = -1;
        for (int i = 0; i < MG_RULE_COUNT; i++)
            if (r.enabled[i] && sum->fired[i] && (worst < 0 || sum->fired[i] > sum->fired[worst]))
                worst = i;
        if (worst < 0) break;
        r.enabled[worst] = 0;
        size_t n = strlen(k->relaxed);
        snprintf(k->relaxed + n, sizeof k->relaxed - n, "%s%s", n ? "," : "",
                 mg_rule_names[worst]);
        rc = sweep(&w, sp, text, 1, 0, sum, d);
        k->kept = sum->kept;
        k->simulated += ran(sum);
    }
    return rc;
}

/* The exhaustive search's cap (0: none, when screened or when the seed
 * finds no kernel): the seed sweep of sp into sum, its simulations
 * counted in k->simulated.  Returns as sweep. */
static int seed_cap(const mg_nt_search *s, const mg_space *sp, const char *text,
                    mg_sweep_sum *sum, mg_nt_kernel *k, double *cap_s, mg_diag *d)
{
    *cap_s = 0;
    if (s->screen_k) return 0;
    mg_nt_search seed = *s;
    seed.screen_k = MG_NT_SEED_K;
    int rc = sweep(&seed, sp, text, s->rules != NULL, 0, sum, d);
    const mg_sweep_best *b = s->rules ? &sum->best_kept : &sum->best;
    k->simulated += ran(sum);
    if (!rc && b->valid) *cap_s = MG_NT_CAP_MARGIN * b->seconds;
    return rc;
}

/* Search the loaded space sp into k. */
static int search(const mg_nt_search *s, const mg_space *sp, const char *text,
                  mg_nt_kernel *k, mg_diag *d)
{
    mg_sweep_sum *sum = calloc(1, sizeof *sum);
    if (!sum) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    double cap_s;
    int rc = seed_cap(s, sp, text, sum, k, &cap_s, d);
    if (!rc) rc = sweep(s, sp, text, s->rules != NULL, cap_s, sum, d);
    k->space = sum->id.size;
    k->kept = s->rules ? sum->kept : sum->id.size;
    k->simulated += ran(sum);
    if (!rc && s->rules && !sum->best_kept.valid) rc = relax(s, sp, text, sum, k, d);
    const mg_sweep_best *b = s->rules ? &sum->best_kept : &sum->best;
    if (!rc && s->rules && !b->valid) {      /* no rule left to drop: the whole */
        k->unpruned = 1;                     /* space, screened analytically */
        mg_nt_search wide = *s;
        if (!wide.screen_k) wide.screen_k = MG_NT_UNPRUNED_K;
        rc = sweep(&wide, sp, text, 0, 0, sum, d);
        b = &sum->best;
        k->simulated += ran(sum);
    }
    if (!rc && b->valid) {
        mg_nt_simulate(s, b->schedule, k);
    } else if (!rc) {
        k->ok = 0;
        snprintf(k->why, sizeof k->why, "no candidate of its %llu simulates",
                 (unsigned long long)k->space);
    }
    free(sum);
    return rc;
}

int mg_nt_search_space(const mg_nt_search *s, const char *text, mg_nt_kernel *k, mg_diag *d)
{
    memset(k, 0, sizeof *k);
    cJSON *doc = mg_json_parse("derived space", text, strlen(text), d);
    mg_space *sp = calloc(1, sizeof *sp);
    int rc = -1;
    if (doc && sp && !mg_space_from_json(doc, "derived space", sp, d)) {
        rc = search(s, sp, text, k, d);
        mg_space_free(sp);
    } else if (!sp) {
        mg_diag_error(d, "out of memory");
    }
    free(sp);
    cJSON_Delete(doc);
    return rc;
}
