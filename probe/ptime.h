/*
 * ptime.h - timed measurements of generated kernels for `mgprobe run` and
 * `mgprobe time`: the iteration count is scaled until one launch lasts at
 * least min_ms, then the kernel runs `reps` more times, each timed by
 * OpenCL event profiling (END - START); the point is their median, with
 * min, max, spread = (max - min) / median and noise = 1.4826 x the median
 * absolute deviation / median (what knee.h takes).
 *
 * Scaling: the schedule is a printf format with one %lld (the loop count,
 * e.g. "pchase ... iters=%lld").  It starts at `start`; while a launch is
 * shorter than min_ms the count is multiplied by ceil(1.25 min_ms / t),
 * at least 2 and at most 64, never past `max`, at most 8 times (each step
 * rebuilds the kernel: the count is a constant of the source).  A kernel
 * still under min_ms at `max` is kept, flagged short_run.
 *
 * Bounds: no new build or launch starts after the aspect's deadline
 * (MGP_TP_BUDGET) or once *stop is set (SIGINT: MGP_TP_STOP); a launch not
 * finished after max(hang_s, 20 x the warm-up time) is MGP_TP_HUNG, and the
 * timer refuses every later measurement (the queue may still hold it).
 */
#ifndef MGP_PTIME_H
#define MGP_PTIME_H

#include "probe/kexec.h"

#include <signal.h>
#include <stdint.h>

#define MGP_REPS_MAX 32

enum { MGP_TP_OK, MGP_TP_SKIP, MGP_TP_FAIL, MGP_TP_HUNG, MGP_TP_BUDGET, MGP_TP_STOP };

typedef struct mgp_timer {
    mgp_kexec_dev *dev;
    double         min_ms;        /* each measurement lasts at least this */
    int            reps;          /* timed repetitions after the warm-up */
    double         deadline;      /* mgp_now() after which nothing starts (0: none) */
    double         hang_s;        /* a launch unfinished after this is hung (>= 20x warm-up) */
    const char    *build_opts;    /* extra build options, or NULL */
    const volatile sig_atomic_t *stop;   /* nonzero after SIGINT (may be NULL) */
    int            hung;          /* a launch hung: the device is unusable */
} mgp_timer;

typedef struct mgp_point {
    int     status;               /* MGP_TP_* */
    char    msg[640];             /* one line, when not OK */
    char    schedule[1024];       /* canonical schedule of the timed kernel */
    int64_t scale;                /* the loop count used */
    int     n;                    /* repetitions timed */
    double  ns[MGP_REPS_MAX];
    double  median, min, max, spread;
    double  noise;                /* 1.4826 MAD / median (mg_knee_noise) */
    int     short_run;            /* under min_ms at the largest count allowed */
    int     regs_compiler;        /* registers the compiler reported, or -1 */
    int64_t regs_estimate;        /* the generator's regs_per_item */
    double  items;                /* work items launched (the global size) */
    double  flops;                /* the plan's flops for the whole launch */
    double  bytes_per_item;       /* the plan's bytes loaded per item */
    double  group;                /* work-group size */
    double  kwg;                  /* the kernel's CL_KERNEL_WORK_GROUP_SIZE */
} mgp_point;

/* Monotonic seconds. */
double mgp_now(void);

/* A short name of a status: "ok", "skip", "error", "hung", "budget", "stopped". */
const char *mgp_tp_name(int status);

/* Measure (see above).  Returns p->status. */
int mgp_measure(mgp_timer *t, const char *fmt, int64_t start, int64_t max, mgp_point *p);

/* Generate `line`, run it once with the generator's inputs and read the
 * outputs back into h (initialised here; the caller frees g and h with
 * mg_gen_free and mg_host_free when this returns MGP_TP_OK).  Returns a
 * MGP_TP_* status, the reason in msg. */
int mgp_run_once(mgp_timer *t, const char *line, mg_gen *g, mg_host *h, char *msg, size_t len);

/* Copy fmt into out with its first "%lld" replaced by v (no other
 * conversions: the format is data, not code). */
void mgp_fmt_scale(char *out, size_t len, const char *fmt, long long v);

/* Parse a schedule line "op key=value ..." into s.  Returns 0, or -1
 * with the first problem in msg. */
int mgp_parse_line(const char *line, mg_schedule *s, char *msg, size_t len);

/* The register count of a build log ("... Used 104 registers ..."), or -1. */
int mgp_regs_from_log(const char *log);

/* The bytes a build log reports for `what` ("128 bytes stack frame, 0 bytes
 * spill stores, 0 bytes spill loads": what = "stack frame", "spill stores"
 * or "spill loads"; NVIDIA's -cl-nv-verbose), or -1 when it says nothing. */
long mgp_bytes_from_log(const char *log, const char *what);

#endif
