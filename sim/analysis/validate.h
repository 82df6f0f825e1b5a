/*
 * validate.h - score the timing model against real kernel timings
 * (`mgsim validate`).
 *
 * Input: a device config and a timings document (mgsim-timings/1, written
 * by `mgprobe time`; configs/PROFILE.md).  Every kernel timed "ok" is
 * regenerated from its canonical schedule words (warp= set to the
 * device's warp width: it only groups the trace's lanes, the kernel is the
 * same) and simulated; kernels not timed ok (outputs wrong, skipped,
 * errors) are listed with their reason and left out of every statistic.
 *
 * Output (counted here, printed by validate_report.c): per kernel the
 * measured median and the prediction, the error, the roofline bound (a
 * measurement faster than it is flagged: the model's bound is wrong for
 * that kernel, or the measurement is); per search-space group (the
 * operator and its shape keys: the kernels a tuner chooses among) and
 * over all kernels the statistics of stats.h; the measurement's own rank
 * reproducibility (Kendall tau-b between the medians of the even and of
 * the odd repetitions: a ceiling no model can beat); and the generator's
 * register estimate against the compiler's count where the driver gave
 * one.
 *
 * Bad input (a file that cannot be read, a wrong schema, schedule words
 * the generator rejects) fails mg_validate_run with every problem in d;
 * a kernel the model cannot simulate on this config (a work group that
 * does not fit) is reported as failed with the reason, not fatal.
 */
#ifndef MG_VALIDATE_H
#define MG_VALIDATE_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "sim/config/device.h"
#include "base/diag.h"

#define MG_VALIDATE_SCHEMA "mgsim-validate/1"
#define MG_VALIDATE_TOPK   5

enum { MG_VK_OK, MG_VK_SKIPPED, MG_VK_FAILED };     /* mg_vkernel.status */
enum { MG_VREGS_ESTIMATE, MG_VREGS_COMPILER };      /* mg_validate_opts.regs */

typedef struct mg_vkernel {
    size_t index;              /* $.kernels[index] of the timings */
    char   schedule[1024];     /* as timed (canonical words) */
    size_t group;              /* index into mg_validation.groups */
    int    status;             /* MG_VK_* */
    char   reason[256];        /* why not compared (status != OK) */
    double measured_ns;        /* the median of the repetitions */
    double spread;             /* (max - min) / median */
    double half_ns[2];         /* medians of even / odd repetitions; NaN if < 4 */
    double predicted_ns;
    double bound_ns;           /* roofline bound time */
    const char *binding;       /* "compute" or the level's name */
    int    below_bound;        /* measured < bound */
    double occupancy;          /* resident warps per SP, mean while busy */
    int    regs_estimate;      /* the generator's (-1: not in the timings) */
    int    regs_compiler;      /* the driver's (-1: not reported) */
    int    regs_simulated;     /* what the simulation used */
} mg_vkernel;

typedef struct mg_vsummary {
    char   name[256];          /* "all", "group mean" or the group's words */
    size_t n;                  /* kernels compared */
    double mape, aggregate, pearson, pearson_log, spearman, kendall;
    double kendall_noise;      /* the measurement against itself (halves) */
    double regret, recall;     /* top-1 regret, top-k recall */
    size_t k;                  /* k of the recall: min(MG_VALIDATE_TOPK, n) */
    size_t below_bound;        /* measurements faster than the roofline */
    long   best, pick;         /* timings index of the measured best and of
                                  the model's pick (-1: none) */
    size_t groups;             /* "group mean": groups averaged (n >= 2) */
} mg_vsummary;

typedef struct mg_vregs {
    size_t n;                  /* kernels with both counts */
    double median_error;       /* estimate - compiler, registers */
    double median_abs_error;
    double mape;               /* mean |estimate - compiler| / compiler */
    size_t within25;           /* |estimate - compiler| <= 25 % of compiler */
    size_t under;              /* estimate < compiler */
} mg_vregs;

typedef struct mg_validate_opts {
    int regs;                  /* MG_VREGS_ESTIMATE (default) or _COMPILER */
    int sample;                /* mg_sim_opts.sample: MG_SAMPLE_OFF = exact */
    int jobs;                  /* threads (>= 1) */
    int quiet;                 /* no progress on a terminal */
} mg_validate_opts;

typedef struct mg_validation {
    char   config[512], device[128];        /* config path and device name */
    char   timings[512], timings_device[256], suite[256];
    int    regs, sample;
    mg_vkernel  *k;
    size_t       n;                         /* every kernel of the timings */
    size_t       n_ok, n_skipped, n_failed;
    mg_vsummary  all, mean;                 /* pooled; mean over groups */
    mg_vsummary *groups;                    /* in order of first appearance */
    size_t       ngroups;
    mg_vregs     regstat;
} mg_validation;

/* Load the timings at `timings`, simulate every kernel timed ok on dev
 * (loaded from config_path, named in the report), compute the statistics.
 * Returns 0, or -1 with the problems in d (v is then empty). */
int mg_validate_run(const mg_device *dev, const char *config_path, const char *timings,
                    const mg_validate_opts *o, mg_validation *v, mg_diag *d);

/* Recompute v's summaries from its kernels (mg_validate_run does). */
void mg_validate_summarize(mg_validation *v);

void mg_validate_free(mg_validation *v);

/* Reports (validate_report.c): text for people, JSON for tools (the plot,
 * `mgsim plot validate`, reads the JSON). */
void   mg_validate_print_text(FILE *f, const mg_validation *v);
cJSON *mg_validate_to_json(const mg_validation *v);

#endif
