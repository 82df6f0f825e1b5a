/*
 * sweep.h - simulate the members of a search space on a device config,
 * on N threads, with a resumable results file and a summary (public API of
 * `mgsim sweep` and `mgsim whatif`).
 *
 * Formats (schema "mgsim-sweep/1", documented in configs/README.md):
 * the results file is JSON Lines: a header line naming what was swept
 * (config, space and rules by name and content hash, sampling, whether only
 * kept candidates are simulated), then one result line per simulated
 * candidate, in candidate order, whatever the number of threads.  A result
 * is written and flushed as soon as every earlier one is, so an interrupted
 * sweep loses at most the candidates in flight; rerun with the same inputs,
 * it keeps every complete line, drops a torn last line and simulates only
 * what is missing (mg_sweep_run with a results path).
 *
 * Determinism: results hold no timings and number formatting is exact
 * (base/jsonout.h), so the file and the summary are byte-identical for any
 * thread count and for a resumed sweep.
 */
#ifndef MG_SWEEP_H
#define MG_SWEEP_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "sim/config/device.h"
#include "sim/model/model.h"
#include "sim/search/rule.h"
#include "sim/search/space.h"
#include "base/diag.h"

#define MG_SWEEP_SCHEMA "mgsim-sweep/1"
#define MG_SWEEP_TOP    10

/* One candidate's result.  Numbers are per kernel launch. */
typedef struct mg_sweep_result {
    uint64_t index;               /* member number in the space */
    char    *schedule;            /* canonical words, warp= as simulated (owned) */
    int      has_rules;           /* kept/fired are meaningful */
    unsigned fired;               /* rule bit mask (mg_rule_names); 0: kept */
    int      ok;                  /* 1: simulated; 0: rejected, see reason */
    char    *reason;              /* why the generator or the model refused (owned) */
    double   cycles, seconds, flops, gflops;
    double   bound_gflops;        /* roofline: attainable GFLOPS */
    int      binding;             /* -1: compute, else MG_LV_* */
    double   pct_of_bound;        /* achieved / bound x 100 */
    double   oi[MG_LV_COUNT];     /* flops per byte at each level (0: unused) */
    double   resident_warps_mean;
    uint32_t resident_warps_max, warps_per_group, occupancy_groups;
    /* sampled simulation (model.h), when it was asked for */
    int      has_sampling;        /* sampling was on */
    int      sample_used;         /* part of the launch was extrapolated */
    uint64_t wgs_simulated, wgs_total;
    double   sample_error;        /* estimated relative error of cycles */
    /* --cutoff: not simulated to the end (ok is 0, reason NULL) because it
     * passed the bar; the kernel takes more than cut_cycles / cut_seconds.
     * cut_by_bound: its trace's lower bound passed the bar (nothing was
     * replayed), else the replay did */
    int      cut, cut_by_bound;
    double   cut_cycles, cut_seconds;
} mg_sweep_result;

void mg_sweep_result_free(mg_sweep_result *r);

/* Simulate one candidate: parse `words` ("op key=value ..."), generate,
 * replay on dev with the given sampling.  Never fails as a whole: a
 * rejection lands in r->ok = 0 with a reason (one of more than about
 * max_work warp instructions, when max_work > 0, is rejected so: see
 * mg_gen_check_work).  With cycle_limit > 0 a
 * replay that passes that many cycles stops there: r->cut = 1.  With memo (may be NULL), a
 * candidate whose model key (memo.h) was simulated before copies that
 * result, and a new result is stored.  With nowait, a key another thread
 * is simulating right now returns 1 at once, r untouched (call again
 * later); otherwise the call waits for it.  Returns 0 when r is filled.
 * Thread-safe (dev is read only, the memo locks). */
struct mg_memo;
int mg_sweep_simulate(const mg_device *dev, const char *words, int sample, double cycle_limit,
                      double max_work, struct mg_memo *memo, int nowait, mg_sweep_result *r);

/* One result as one line of JSON (with '\n'); caller frees.  NULL on OOM. */
char *mg_sweep_result_line(const mg_sweep_result *r);

/* Parse one result line.  Returns 0, or -1 with the reason in err. */
int mg_sweep_result_parse(const char *line, mg_sweep_result *r, char *err, size_t errlen);

/* What a results file is the sweep of. */
typedef struct mg_sweep_ident {
    char     config[64], config_hash[24];
    char     space[64], space_hash[24];
    char     rules[64], rules_hash[24];      /* "" when no rules */
    int      sample;                         /* MG_SAMPLE_* or N */
    int      pruned_only;
    double   cutoff;                         /* --cutoff F (0: none) */
    double   max_work;                       /* --max-work (0: no limit) */
    uint64_t screen_k;                       /* --screen analytic:K (0: none) */
    int      screen_kept;                    /* ... +kept */
    uint64_t size;                           /* members of the space */
    uint32_t shard_i, shard_n;               /* --shard I/N (shard.h); shard_n 0: whole */
} mg_sweep_ident;

/* FNV-1a 64 (from sweep_file.c's offset basis) as 16 hex digits: of a
 * file's bytes (-1 and an error in d when unreadable), of a device's
 * resolved config. */
int  mg_sweep_hash_file(const char *path, char out[24], mg_diag *d);
void mg_sweep_hash_device(const mg_device *dev, char out[24]);

/* Names and hashes of a sweep's inputs (rules_path and r may be NULL).
 * Returns 0, or -1 with an error in d (a file that cannot be read). */
int  mg_sweep_ident_fill(mg_sweep_ident *id, const mg_device *dev, const char *space_path,
                         const mg_space *sp, const char *rules_path, const mg_rules *r,
                         mg_diag *d);

/* "auto", "off" or "N" into buf (mg_sample_parse reads it back). */
const char *mg_sweep_sample_str(int sample, char *buf, size_t len);

/* The header line (with '\n'); caller frees. */
char *mg_sweep_header_line(const mg_sweep_ident *id);

/* The best candidates of a sweep. */
typedef struct mg_sweep_best {
    int      valid;
    uint64_t index;
    int      kept;
    double   seconds, gflops, bound_gflops, pct_of_bound;
    int      binding;
    char     schedule[1024];
} mg_sweep_best;

/* Spaces with shape knobs (mg_space_knob.shape: softmax over N = 16 ..
 * 4096) get their bests per shape too: a group is the shape keys' words of
 * a schedule ("N=16"), in the order the space's keys come. */
#define MG_SWEEP_SHAPES 64

typedef struct mg_sweep_group {
    char     shape[64];
    uint64_t size, kept, done, failed, cut;
    mg_sweep_best best, best_kept;
} mg_sweep_group;

/* The summary: counted while results arrive (in any order: every figure
 * is order independent, ties broken by the lower index). */
typedef struct mg_sweep_sum {
    mg_sweep_ident id;
    int      has_rules;
    uint64_t raw, excluded, invalid;          /* of the space enumeration */
    uint64_t kept;                            /* over the whole space */
    uint64_t fired[MG_RULE_COUNT];
    uint64_t todo;                            /* to simulate (left when resuming) */
    uint64_t total;                           /* results a complete sweep has */
    uint64_t limit;                           /* --limit (0: none) */
    uint64_t done, resumed, failed;           /* results seen; from the file; rejected */
    uint64_t cut;                             /* results cut at the bar (--cutoff) */
    uint64_t cut_bound;                       /* ... of them, on the trace's lower bound */
    double   cut_floor;                       /* the lowest bar a result was cut at (s) */
    uint64_t screen_ranked;                   /* --screen: candidates ranked analytically */
    uint64_t screen_chosen;                   /* ... of them chosen to simulate */
    uint64_t sampled;                         /* results extrapolated from a sample */
    double   sample_error_max;
    uint64_t sample_error_ppb;                /* summed in 1e-9 units (order independent) */
    int      interrupted;
    mg_sweep_best best, best_kept;
    double   wall_s;                          /* this run's time (never printed) */
    uint64_t ran;                             /* simulated by this run */
    uint64_t written;                         /* records this run appended to the file
                                                 (--cutoff holds the kept ones first) */
    uint64_t copied;                          /* of which copied from an identical
                                                 simulation (memo.h; never printed
                                                 in results or summaries) */
    int      ntop;
    mg_sweep_best top[MG_SWEEP_TOP];          /* fastest first */
    int      nshape_keys;                     /* 0: the space has one shape */
    char     shape_keys[4][24];
    int      ngroups;                         /* in the order shapes are met */
    uint64_t groups_other;                    /* members past MG_SWEEP_SHAPES groups */
    mg_sweep_group group[MG_SWEEP_SHAPES];
} mg_sweep_sum;

/* Set up s's shape keys from sp (mg_sweep_run does this). */
void mg_sweep_sum_shapes(mg_sweep_sum *s, const mg_space *sp);

/* The group of a schedule's words (creating it, counting one member when
 * `member`); NULL without shape keys or past MG_SWEEP_SHAPES groups. */
mg_sweep_group *mg_sweep_group_of(mg_sweep_sum *s, const char *words, int member);

void mg_sweep_sum_add(mg_sweep_sum *s, const mg_sweep_result *r);
double mg_sweep_regret(const mg_sweep_sum *s);       /* NaN when undefined */
uint64_t mg_sweep_simulated(const mg_sweep_sum *s);  /* results neither rejected nor cut */
int    mg_sweep_top_kept(const mg_sweep_sum *s);     /* kept among the top 10 */

/* The summary as text and as JSON (sweep_sum.c). */
void   mg_sweep_sum_print(const mg_sweep_sum *s, FILE *f);
cJSON *mg_sweep_sum_json(const mg_sweep_sum *s);
cJSON *mg_sweep_best_json(const mg_sweep_best *b);

/* A sweep to run. */
typedef struct mg_sweep_cfg {
    const mg_device *dev;
    const mg_space  *space;
    const mg_rules  *rules;         /* NULL: no pruning */
    mg_sweep_ident   id;            /* names and hashes; size is filled in */
    int              pruned_only;   /* simulate only the kept candidates */
    double           cutoff;        /* > 0 (needs rules, not pruned_only, no limit):
                                       simulate the kept candidates first, then stop
                                       each pruned one once it is cutoff x slower
                                       than the best kept of its shape */
    int              threads;       /* >= 1 */
    uint64_t         limit;         /* simulate at most this many now (0: all) */
    int              sample;
    double           max_work;      /* --max-work (0: no limit) */
    uint64_t         screen_k;      /* > 0: simulate only the K analytically fastest
                                       of each shape (screen.h) ... */
    int              screen_kept;   /* ... and every candidate the rules keep */
    double           cap_seconds;   /* > 0: every candidate's simulation stops (a cut
                                       result) once past this many seconds ... */
    double           cap_margin;    /* ... > 0: and past cap_margin x the fastest result
                                       so far, as the workers take candidates.  For a
                                       search that wants only the best (mgsim net): the
                                       best is never cut, but which others are depends
                                       on the threads' timing, so no results file is
                                       written with a cap */
    const char      *results;       /* results file ("-": stdout), or NULL for none */
    int              restart;       /* discard an existing results file */
    int              progress;      /* draw progress on stderr */
    const char      *label;         /* progress prefix, e.g. the variant */
    volatile sig_atomic_t *stop;    /* set (by a signal handler) to stop early */
    const struct mg_sweep_dist *dist;  /* NULL, or where results go and come from in a
                                          distributed sweep (shard.h) */
} mg_sweep_cfg;

/* Run a sweep into *sum (sim/MODEL.md and configs/README.md say what
 * --cutoff does to it).  Returns 0 (sum->interrupted when *stop was set:
 * results so far are on file), or -1 with the problem in d: an unreadable
 * or foreign results file (use restart), a write error. */
int mg_sweep_run(const mg_sweep_cfg *cfg, mg_sweep_sum *sum, mg_diag *d);

/* Results files (sweep_file.c). */
typedef struct mg_sweep_done {
    uint64_t n, cap;
    uint64_t *index;                /* strictly increasing */
    uint64_t *hash;                 /* FNV-1a of each result's schedule */
    uint32_t *fired;                /* its rule mask; MG_SWEEP_NO_RULES without rules */
} mg_sweep_done;

#define MG_SWEEP_NO_RULES 0xffffffffu

/* Write the records of the results file at path `results` as CSV to csv
 * ("-": stdout; base/csv.h): one row per candidate, the schedule's knobs
 * and every field of the record as columns (configs/README.md).  0, or -1
 * with the problem in d (nothing written then). */
int mg_sweep_csv(const char *results, const char *csv, mg_diag *d);

/* Open `path` for appending results of the sweep `id`, holding an
 * exclusive lock (flock) on it until it is closed (another sweep writing
 * it: -1, "locked by another sweep"): a missing or empty file (or restart)
 * gets the header; an existing one must carry the same header (else -1:
 * "was made by another sweep ... --restart"), its complete result lines
 * are added to sum and listed in done, a torn last line is cut off.  The
 * engine then checks each listed record against the space and the rules
 * (sweep.c).  path "-" is stdout: the header, then the results, nothing
 * resumed.  Returns the stream, or NULL with the problem in d. */
FILE *mg_sweep_file_open(const char *path, const mg_sweep_ident *id, int restart,
                         mg_sweep_sum *sum, mg_sweep_done *done, mg_diag *d);
void  mg_sweep_done_free(mg_sweep_done *done);

#endif
