/*
 * aspect.h - the aspects of `mgprobe run`: one function per aspect that
 * runs its sweeps through the timer (ptime.h), keeps every point of its raw
 * curves, and concludes with knee detection (sim/analysis/knee.h).
 *
 * An aspect fills an mgp_arun: curve series, conclusions (value, unit,
 * confidence, method; or null with why), notes, and how it ended.  The
 * status written to the profile follows from that (mgp_arun_status):
 *   error        a kernel the aspect cannot do without failed to build or
 *                run (the OpenCL error name is in the message);
 *   skipped      the device lacks what the aspect needs (no images);
 *   interrupted  SIGINT;  timeout  the time budget ran out or a launch hung;
 *   ok           at least one conclusion with confidence >= 0.5;
 *   undetermined otherwise (the curves are kept all the same).
 * A sweep point that fails (e.g. CL_OUT_OF_RESOURCES at high register
 * counts) is data: it is kept in the curve with its error, y null.
 */
#ifndef MGP_ASPECT_H
#define MGP_ASPECT_H

#include "probe/ptime.h"
#include "sim/analysis/ares.h"
#include "sim/analysis/pplan.h"

#include <cjson/cJSON.h>
#include <stdint.h>

/* What the aspects know of the device, beyond the kexec capabilities. */
typedef struct mgp_devp {
    mgp_kexec_dev *x;
    unsigned  cus, clock_mhz;
    uint64_t  global_mem, cache_size, cacheline;
    unsigned  pref_vec_float, pref_vec_half;
    int       nv_verbose;        /* cl_nv_compiler_options: -cl-nv-verbose works */
    char      type[32];          /* "CPU", "GPU", ... */
} mgp_devp;

enum { MGP_AS_RUNNING, MGP_AS_ERROR, MGP_AS_SKIPPED };

typedef struct mgp_arun {
    const mgp_devp *dp;
    mgp_timer      *t;
    const cJSON    *profile;     /* the profile so far (earlier conclusions) */
    int             quick;       /* few points, for tests */
    double          max_footprint;   /* > 0: no sweep goes past this many bytes */
    double          min_footprint;   /* > 0: cache sweeps start here */
    cJSON          *series;      /* the curves document's "series" array */
    cJSON          *conclusion;  /* object */
    cJSON          *notes;       /* array of strings */
    int             state;       /* MGP_AS_* */
    char            error[700];  /* for error and skipped */
    int             stopped, budget, hung;   /* how a sweep ended early */
    char            early[700];  /* the message of that */
} mgp_arun;

typedef struct mgp_aspect {
    const char *name;
    const char *summary;
    void (*run)(mgp_arun *a);
} mgp_aspect;

/* The aspects, in mg_profile_aspects order (NULL-name terminated). */
extern const mgp_aspect mgp_aspects[];
const mgp_aspect *mgp_aspect_find(const char *name);

/* ---- helpers for the aspects ------------------------------------------- */

/* A new series; returns its "points" array. */
cJSON *mgp_series(mgp_arun *a, const char *name, const char *x, const char *y);

/* Append a point {x, y (null when not finite), the timing (median, min,
 * max ns, spread, samples), loop count, schedule, regs, status, error}. */
cJSON *mgp_point_add(cJSON *points, double x, double y, const mgp_point *p);

/* Measure; a point that ends the sweep (budget, hang, SIGINT) is noted in
 * a (stopped/budget/hung) and makes this return -1; otherwise 0, whether
 * the point itself succeeded or not (p->status says). */
int mgp_take(mgp_arun *a, const char *fmt, int64_t start, int64_t max, mgp_point *p);

/* Conclusions. */
void mgp_conclude(mgp_arun *a, const char *key, double value, const char *unit, double conf,
                  const char *method);
void mgp_conclude_str(mgp_arun *a, const char *key, const char *value, double conf,
                      const char *method);
void mgp_conclude_none(mgp_arun *a, const char *key, const char *unit, const char *method,
                       const char *why, ...) __attribute__((format(printf, 5, 6)));
void mgp_note(mgp_arun *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The aspect fails: state error (or skipped) with a one-line message. */
void mgp_fail(mgp_arun *a, int state, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The profile status of a finished aspect, and its confidence (the
 * smallest confidence of its non-null conclusions; -1 when none). */
const char *mgp_arun_status(const mgp_arun *a, double *conf);

/* An earlier aspect's concluded number from a->profile (see
 * mg_profile_number); returns 0 when present. */
int mgp_earlier(const mgp_arun *a, const char *aspect, const char *key, double *v);

/* The largest footprint a sweep reaches: max(4 x the reported global
 * cache, 256 MiB) (NVIDIA reports its L1s there, not its L2), at most half
 * the largest allocation, 512 MiB and --max-footprint. */
double mgp_big_footprint(const mgp_arun *a);

/* Round v to a multiple of m (at least m). */
int64_t mgp_round_to(double v, int64_t m);

/* The device as the shared schedule choices see it (analysis/pplan.h). */
void mgp_pdev(const mgp_arun *a, mg_pdev *pd);

/* The aspect's results as the shared conclusions take them (analysis/ares.h). */
mg_ares mgp_ares(mgp_arun *a);

/* The aspects themselves (asp_*.c). */
void mgp_asp_warp(mgp_arun *a);
void mgp_asp_flops(mgp_arun *a);
void mgp_asp_alu(mgp_arun *a);
void mgp_asp_regs(mgp_arun *a);
void mgp_asp_cache_buffer(mgp_arun *a);
void mgp_asp_cache_image(mgp_arun *a);
void mgp_asp_bw_buffer(mgp_arun *a);
void mgp_asp_bw_image(mgp_arun *a);
void mgp_asp_bw_local(mgp_arun *a);
void mgp_asp_bw_constant(mgp_arun *a);
void mgp_asp_dram(mgp_arun *a);
void mgp_asp_rstride2d(mgp_arun *a);
void mgp_asp_vload(mgp_arun *a);
void mgp_asp_lsu(mgp_arun *a);

#endif
