/*
 * vp.h - the virtual probe's internals: one aspect's run state, the
 * measurement of a schedule through the model, and the aspects.
 */
#ifndef MG_VP_H
#define MG_VP_H

#include <stdint.h>

#include "sim/analysis/ares.h"
#include "sim/analysis/pplan.h"
#include "sim/config/device.h"

/* One aspect's run. */
typedef struct mg_vp {
    const mg_device *dev;
    mg_pdev      pd;            /* the device as the probe sees it (vp_run.c) */
    mg_ares      r;             /* curves, conclusions, notes */
    const cJSON *profile;       /* the profile so far (earlier aspects) */
    double       sim_seconds;   /* simulated time of this aspect's kernels */
    long         runs;          /* model runs */
    int          failed;        /* the aspect cannot run at all (error says why) */
    int          archprobe;     /* bandwidth sweeps in ArchProbe's shape (vp_apbw.c) */
    char         error[600];
} mg_vp;

/* One measured point. */
typedef struct mg_vp_point {
    int     ok;                 /* 0: the model refused the kernel (msg) */
    char    msg[600];
    char    schedule[600];      /* the schedule at loop count b, canonical */
    int64_t a, b;               /* the two loop counts */
    double  t_a, t_b;           /* simulated seconds at each */
    double  ns;                 /* (t_b - t_a) / (b - a), ns per loop iteration */
    double  flops;              /* flops(b) - flops(a) */
    double  flops_b;            /* flops(b) */
    int     regs;               /* the generator's registers per item */
} mg_vp_point;

/* Run the schedule `fmt` (one "%lld": the loop count; warp= is added: the
 * device's warp width, how the hardware groups lanes) at loop counts a and
 * b > a through the model, every work group replayed (MG_SAMPLE_OFF).
 * Fills p; returns 0, also when the model refused the kernel (p->ok = 0:
 * a launch error, the virtual CL_OUT_OF_RESOURCES); -1 on a bad schedule
 * (a bug: the plan made it), with v->failed set. */
int mg_vp_measure(mg_vp *v, const char *fmt, int64_t a, int64_t b, mg_vp_point *p);

/* The same, then again from b to 2b, and so on while the time per
 * iteration changes by 0.2 % or more and the count stays within max: a
 * launch whose waves have not settled at a few iterations (the model's
 * counterpart of mgprobe's scaling to min_ms).  p is the last pair. */
int mg_vp_measure_steady(mg_vp *v, const char *fmt, int64_t a, int64_t b, int64_t max,
                         mg_vp_point *p);

/* One run at loop count n: t_a = 0, t_b = its simulated seconds, ns = per
 * iteration including the launch (for differences the caller takes). */
int mg_vp_measure_once(mg_vp *v, const char *fmt, int64_t n, mg_vp_point *p);

/* Append a curve point {x, y (null when the point failed), status, error,
 * schedule, loop_counts [a, b], sim_seconds [t_a, t_b], regs_estimate}. */
cJSON *mg_vp_point_add(cJSON *points, double x, double y, const mg_vp_point *p);

/* An earlier aspect's concluded number; 0 when present. */
int mg_vp_earlier(const mg_vp *v, const char *aspect, const char *key, double *val);

/* Record that the aspect cannot run (status error). */
void mg_vp_fail(mg_vp *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The aspects (vp_warp.c, vp_compute.c, vp_regs.c, vp_cache.c, vp_bw.c,
 * vp_vload.c, vp_lsu.c). */
void mg_vp_warp(mg_vp *v);
void mg_vp_flops(mg_vp *v);
void mg_vp_alu(mg_vp *v);
void mg_vp_regs(mg_vp *v);
void mg_vp_cache_buffer(mg_vp *v);
void mg_vp_cache_image(mg_vp *v);
void mg_vp_bw_buffer(mg_vp *v);
void mg_vp_bw_image(mg_vp *v);
void mg_vp_bw_local(mg_vp *v);
void mg_vp_bw_constant(mg_vp *v);
void mg_vp_dram(mg_vp *v);

/* A bandwidth aspect (MG_PMEM_*) with ArchProbe's footprints and access
 * pattern (vp_apbw.c). */
void mg_vp_apbw(mg_vp *v, int mem);
void mg_vp_rstride2d(mg_vp *v);
void mg_vp_vload(mg_vp *v);
void mg_vp_lsu(mg_vp *v);

#endif
