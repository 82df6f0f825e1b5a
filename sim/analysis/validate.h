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
 * does not fit, or more work than max_work) is reported as failed with
 * the reason, not fatal.
 */
#ifndef MG_VALIDATE_H
#define MG_VALIDATE_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "sim/config/device.h"
#include "sim/model/model.h"
#include "base/diag.h"

#define MG_VALIDATE_SCHEMA "mgsim-validate/1"
#define MG_VALIDATE_TOPK   5
#define MG_VMISS_MAX       5     /* kernels in a group's worst / best set */

/* The knobs the residuals are grouped by (validate_miss.c): schedule keys,
 * then "occupancy" (the simulated mean resident warps per SP, binned by
 * powers of two: "0-2", "2-4", ..., "32-64", "64+"). */
enum { MG_VKNOB_COUNT = 12, MG_VKNOB_LEN = 24 };
extern const char *const mg_vknob_names[MG_VKNOB_COUNT];

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
    double shift;              /* mg_knee_shift of the samples in time order; NaN if < 4 */
    double predicted_ns;
    double bound_ns;           /* roofline bound time */
    const char *binding;       /* "compute" or the level's name */
    int    below_bound;        /* measured < bound */
    double flops;              /* the launch's flops (the generator's count) */
    double occupancy;          /* resident warps per SP, mean while busy */
    unsigned occ_groups;       /* occupancy groups of a work group (1: fits) */
    double stall[MG_STALL_COUNT]; /* shares of the simulation's stall total
                                     (warp-cycles; idle in SP-cycles), as
                                     `mgsim run` prints them */
    char   knob[MG_VKNOB_COUNT][MG_VKNOB_LEN]; /* its value of each knob ("": none) */
    int    regs_estimate;      /* the generator's: this build's for a kernel it
                                  regenerated, else the timings' (-1: none) */
    int    regs_compiler;      /* the driver's (-1: not reported) */
    int    regs_simulated;     /* what the simulation used */
    int    stack_compiler;     /* the driver's stack frame, bytes per item
                                  (-1: not reported) */
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

/* What binds a set of kernels in the simulation (validate_miss.c). */
typedef struct mg_vprofile {
    size_t n;                  /* kernels in the set */
    size_t under;              /* predicted below measured */
    double error;              /* median signed error, predicted / measured - 1 */
    double stall[MG_STALL_COUNT]; /* mean stall shares */
    int    stall_main;         /* the largest of them (MG_STALL_*) */
    char   binding[16];        /* the most common roofline binding level */
    size_t binding_n;          /* kernels bound there */
    double occupancy;          /* mean resident warps per SP */
    double occ_groups;         /* mean occupancy groups */
    double regs;               /* mean registers per item simulated */
    long   kernel[MG_VMISS_MAX]; /* their timings indices, worst (or best) first */
} mg_vprofile;

/* A group's misses: its worst-predicted kernels (the largest
 * |log(predicted / measured)|: a quarter of the group, at least 1, at most
 * MG_VMISS_MAX) against as many best-predicted ones.  Both empty (n = 0)
 * for groups under 2 kernels. */
typedef struct mg_vmiss {
    mg_vprofile worst, best;
} mg_vmiss;

/* The residuals of the kernels sharing one value of one knob. */
typedef struct mg_vresidual {
    int    knob;               /* index into mg_vknob_names */
    char   value[MG_VKNOB_LEN];
    size_t n;
    double median_error;       /* median of predicted / measured - 1 */
    double mape;
} mg_vresidual;

typedef struct mg_vregs {
    size_t n;                  /* kernels with both counts */
    double median_error;       /* estimate - compiler, registers */
    double median_abs_error;
    double mape;               /* mean |estimate - compiler| / compiler */
    size_t within25;           /* |estimate - compiler| <= 25 % of compiler */
    size_t under;              /* estimate < compiler */
    /* compared kernels whose compiler report gives a stack frame (> 0:
     * private arrays or spills in local memory, which the model keeps in
     * registers) and those whose report gives none (= 0): how many and
     * their median signed error (predicted / measured - 1) */
    size_t stack_n, nostack_n;
    double stack_error, nostack_error;
} mg_vregs;

/* One row of a side-by-side comparison (validate_compare.c): index 0 this
 * run's config, 1 the other report's. */
typedef struct mg_vcmp_row {
    char   name[256];          /* "all", "group mean" or the group's words */
    size_t n[2];
    double tau[2], regret[2], mape[2];
    int    win[3];             /* who wins tau, regret, MAPE: 0 this, 1 the other,
                                  -1 neither */
    int    better;             /* 0 this, 1 the other, -1 neither */
} mg_vcmp_row;

/* This validation against another report on the same timings: per group,
 * pooled and the mean over groups.  A config is better in a row when it
 * wins more of three: higher tau, lower regret, lower MAPE (a difference
 * under 1e-9 wins nothing). */
typedef struct mg_vcompare {
    char   file[512];          /* the other report */
    char   config[512], device[128];   /* the other's */
    char   simulation[16], regs[16];   /* the other's "exact"/"sampled",
                                          "estimate"/"compiler" */
    mg_vcmp_row all, mean;
    mg_vcmp_row *rows;         /* per group, in this run's order */
    size_t nrows;
    size_t better[3];          /* groups where this (0), the other (1), neither (2) is */
} mg_vcompare;

/* One row of the --by breakdown (validate_by.c): the compared kernels
 * sharing one value of a knob (the first row: all of them), across
 * groups.  Achieved GFLOPS = the launch's flops / time, measured and
 * predicted. */
typedef struct mg_vby {
    char   value[MG_VKNOB_LEN];    /* "all" or the knob's value */
    size_t n;
    double mape, aggregate;
    double pearson_log, spearman;  /* of times */
    double pearson_gflops, pearson_log_gflops, spearman_gflops;
    double median_error;           /* median of predicted / measured - 1 */
} mg_vby;

typedef struct mg_validate_opts {
    int regs;                  /* MG_VREGS_ESTIMATE (default) or _COMPILER */
    int sample;                /* mg_sim_opts.sample: MG_SAMPLE_OFF = exact */
    int jobs;                  /* threads (>= 1) */
    int quiet;                 /* no progress on a terminal */
    int by;                    /* 1 + the index in mg_vknob_names of a knob to break
                                  the kernels down by, across groups, with achieved
                                  GFLOPS; 0: none */
    double max_work;           /* > 0: a kernel of more than about this many warp
                                  instructions (mg_gen_check_work) is failed with
                                  the estimate as its reason, not simulated */
    int predictor;             /* MG_PRED_SIM (default) or MG_PRED_ANALYTIC
                                  (sim/analytic/analytic.h) */
} mg_validate_opts;

typedef struct mg_validation {
    char   config[512], device[128];        /* config path and device name */
    char   timings[512], timings_device[256], suite[256];
    int    regs, sample;
    int    predictor;                       /* mg_validate_opts.predictor */
    int    warmup;                          /* the timings' warm-up launches (0: none,
                                               -1: not recorded); > 0: warm L2 */
    mg_vkernel  *k;
    size_t       n;                         /* every kernel of the timings */
    size_t       n_ok, n_skipped, n_failed;
    mg_vsummary  all, mean;                 /* pooled; mean over groups */
    mg_vsummary *groups;                    /* in order of first appearance */
    mg_vmiss    *miss;                      /* per group */
    size_t       ngroups;
    mg_vresidual *res;                      /* by knob (in mg_vknob_names'
                                               order), then value (natural
                                               order: numbers by value) */
    size_t       nres;
    mg_vregs     regstat;
    int          by;                        /* mg_validate_opts.by */
    mg_vby      *byrows;                    /* "all", then each value (natural order) */
    size_t       nby;
    mg_vcompare *cmp;                       /* --compare, or NULL */
} mg_validation;

/* Load the timings at `timings`, simulate every kernel timed ok on dev
 * (loaded from config_path, named in the report), compute the statistics.
 * Returns 0, or -1 with the problems in d (v is then empty). */
int mg_validate_run(const mg_device *dev, const char *config_path, const char *timings,
                    const mg_validate_opts *o, mg_validation *v, mg_diag *d);

/* Recompute v's summaries from its kernels (mg_validate_run does). */
void mg_validate_summarize(mg_validation *v);

/* validate_miss.c (mg_validate_summarize calls them).  The knob values of
 * a compared kernel from its schedule and simulated occupancy; v->miss
 * and v->res from the kernels (out of memory: left empty). */
void mg_validate_knobs(mg_vkernel *k);
void mg_validate_misses(mg_validation *v);
void mg_validate_residuals(mg_validation *v);

/* validate_by.c: v->byrows from the kernels (nothing when v->by is 0;
 * out of memory: left empty); the breakdown as text and JSON. */
void mg_validate_by(mg_validation *v);
void mg_validate_print_by(FILE *f, const mg_validation *v);
cJSON *mg_validate_by_json(const mg_validation *v);

void mg_validate_free(mg_validation *v);

/* Load the validate report (mgsim-validate/1) at `other` for
 * mg_validate_compare (before the simulations, so a bad file fails at
 * once).  NULL with the problem in d. */
cJSON *mg_validate_compare_load(const char *other, mg_diag *d);

/* Compare v with o, the report loaded from `other`, which must be of the
 * same timings (the same kernels' schedules, in order): fills v->cmp.
 * Returns 0, or -1 with the problem in d. */
int mg_validate_compare(mg_validation *v, const cJSON *o, const char *other, mg_diag *d);

/* Reports (validate_report.c): text for people, JSON for tools (the plot,
 * `mgsim plot validate`, reads the JSON). */
void   mg_validate_print_text(FILE *f, const mg_validation *v);
cJSON *mg_validate_to_json(const mg_validation *v);

/* The parts of the reports on where the model misses: per group's worst
 * against best kernels, residuals by knob, the comparison (nothing when
 * v->cmp is NULL) (validate_report_miss.c). */
void mg_validate_print_misses(FILE *f, const mg_validation *v);
void mg_validate_print_residuals(FILE *f, const mg_validation *v);
void mg_validate_print_compare(FILE *f, const mg_validation *v);
cJSON *mg_validate_miss_json(const mg_vmiss *m);
cJSON *mg_validate_residuals_json(const mg_validation *v);
cJSON *mg_validate_compare_json(const mg_validation *v);

#endif
