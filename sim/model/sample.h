/*
 * sample.h - sampled simulation (internal to sim/model; sim/MODEL.md,
 * "Sampled simulation").
 *
 * Two parts:
 *   - classes (sample_class.c): work groups are grouped by their position
 *     in the grid (first, middle or last along each dimension); one
 *     representative of each position class is generated out of order and
 *     its trace summarised (records, lanes, flops, ...).  Classes with the
 *     same summary are one *kind*.  Extra members of the most common class
 *     check that the middle of the grid is uniform.
 *   - the timeline (sample.c): the event loop replays a head (warm-up plus
 *     measured waves), the source skips whole waves, the loop re-warms and
 *     measures further windows spread over the launch, and replays a tail;
 *   - the estimate (sample_est.c): the skipped work groups are
 *     extrapolated from the measured windows' steady rates.
 *
 * The event loop (sim.c) calls the hooks below only when s->smp is set,
 * i.e. when mg_sim_opts.sample asks for sampling; with MG_SAMPLE_OFF the
 * replay is exactly the unsampled one.
 */
#ifndef MG_SAMPLE_H
#define MG_SAMPLE_H

#include "sim/model/sim_internal.h"

/* ---- classes of work groups (sample_class.c) ------------------------------ */

/* What one work group's trace holds, counted as the model counts it. */
typedef struct mg_wg_sig {
    uint64_t warps, warp_instrs, lane_accesses;
    uint64_t records[MG_REC_TYPE_COUNT];
    uint64_t lanes;                      /* active lanes summed over every record */
    double   flops;
    double   alu_lane_ops[MG_ALU_CLASS_COUNT];
} mg_wg_sig;

#define MG_SAMPLE_POS 27                 /* 3 positions ^ 3 dimensions */

typedef struct mg_sample_classes {
    uint64_t  n[3];                      /* work groups along each dimension */
    uint64_t  pos_count[MG_SAMPLE_POS];  /* work groups in each position class */
    int       kind[MG_SAMPLE_POS];       /* position class -> kind (-1: empty) */
    int       positions;                 /* non-empty position classes */
    int       n_kinds;
    mg_wg_sig sig[MG_SAMPLE_POS];        /* per kind */
    double    w_rec[MG_SAMPLE_POS];      /* per kind: records, lanes relative to */
    double    w_lane[MG_SAMPLE_POS];     /* the most common kind's */
    int       uniform;                   /* 0: members of one class differ */
    int       outer_differs;             /* the outermost dimension's edges differ */
    int       inner_differs;             /* some inner dimension's edges differ */
    uint64_t  generated;                 /* work groups generated to find this */
} mg_sample_classes;

/* Summarise work group wg into *sig.  Returns 0, -1 on malformed records. */
int mg_sample_sig(const mg_trace_wg *wg, mg_wg_sig *sig, mg_diag *d);

/* Classify the launch of src (which must have wg_at).  Returns 0, -1 on a
 * source error or OOM (message in d). */
int mg_sample_classify(mg_sample_classes *c, mg_trace_source *src, mg_diag *d);

/* The position class of work group id (0 .. MG_SAMPLE_POS-1). */
int mg_sample_pos(const mg_sample_classes *c, const uint32_t id[3]);

/* Linear index (x fastest) of work group id. */
uint64_t mg_sample_index(const mg_sample_classes *c, const uint32_t id[3]);

/* ---- the timeline's state (sample.c, sample_est.c) ------------------------ */

/* What a snapshot keeps of the launch at one completion: the cycle and
 * every statistic that depends on timing (the trace's own counts are
 * extrapolated from the kinds instead). */
enum {
    MG_SV_T,                             /* cycle */
    MG_SV_BUSY, MG_SV_WARP_TIME,         /* summed over the SPs up to the cycle */
    MG_SV_ALU_BUSY,
    MG_SV_STALL,                         /* memory, alu, barrier stalls */
    MG_SV_LV = MG_SV_STALL + 3,          /* per level: accesses, hits, misses, bytes */
    MG_SV_N = MG_SV_LV + 4 * MG_LV_COUNT
};

typedef struct mg_snap {
    uint64_t done;                       /* work groups completed */
    double   wr, wl;                     /* their work, records- and lanes-weighted */
    double   v[MG_SV_N];
} mg_snap;

/* A stretch of the replay between two snapshots. */
typedef struct mg_seg {
    mg_snap a, b;
} mg_seg;

#define MG_SAMPLE_MAX_WIN 16

enum { MG_SMP_PLAN, MG_SMP_HEAD, MG_SMP_REWARM, MG_SMP_MEASURE, MG_SMP_TAIL, MG_SMP_FULL };

struct mg_sampler {
    int      mode, state, note;
    uint64_t total;                      /* work groups in the launch */
    uint64_t wave;                       /* resident at once */
    uint64_t next;                       /* linear index of the next group fetched */
    uint64_t done;                       /* completed */
    uint64_t fetched_pos[MG_SAMPLE_POS];
    double   wr, wl;                     /* work completed */
    mg_sample_classes cls;
    /* plan: waves */
    uint64_t warm, win_min, win_max, win_extra, tail;
    uint64_t lock;                       /* head waves while waves repeat exactly */
    uint64_t rewarm;                     /* waves of completions after a jump */
    int      extra;                      /* windows still to measure after the head's */
    /* the head: a snapshot at every wave of completions */
    mg_snap *snaps;
    size_t   nsnap, capsnap;
    /* measured windows, re-warming stretches, per-wave steady rates */
    mg_seg   win[MG_SAMPLE_MAX_WIN], rw[MG_SAMPLE_MAX_WIN];
    int      nwin, nrw;
    /* each re-warming stretch's last wave of completions, its cycles and
     * work (0: the tail ended inside the stretch), for the transient still
     * left at its end (sample_est.c's error estimate) */
    double   rw_last_t[MG_SAMPLE_MAX_WIN], rw_last_w[MG_SAMPLE_MAX_WIN];
    mg_snap  rw_wave;                    /* the current stretch's last wave start */
    double  *rates;
    size_t   nrates, caprates;
    mg_snap  prev;                       /* the last wave's end in a window */
    uint64_t seg_end;                    /* completions ending the current stretch */
    uint64_t skip;                       /* decided, done at the next fetch */
    uint64_t skips[MG_SAMPLE_MAX_WIN];   /* work groups skipped after window k */
};

/* sample_est.c: snapshots, rates and the extrapolation. */
void   mg_snap_take(const mg_sim *s, double t, mg_snap *x);
double mg_snap_work(const mg_snap *x);
/* Append the steady rate (cycles per work) of stretch [a, b]; -1 on OOM. */
int    mg_sample_push_rate(mg_sampler *m, const mg_snap *a, const mg_snap *b);
/* Is the head steady over its waves [from, to) (snapshot indices), by
 * cycles and DRAM bytes per work, first half against second half? */
int    mg_sample_steady(const mg_sampler *m, size_t from, size_t to);
/* Do most of the head's waves [from, to) take the same cycles as the wave
 * before them (within 0.1%)? */
int    mg_sample_locked(const mg_sampler *m, size_t from, size_t to);
/* Twice the standard error of the steady rate, relative to it: the larger
 * of the spread between the windows' rates and between all measured
 * waves' (0 with fewer than 2 of either). */
double mg_sample_between(const mg_sampler *m);
/* Mean and standard error of the pushed rates (se -1 with fewer than 2). */
double mg_sample_rate_se(const mg_sampler *m, double *se);
/* Windows per launch of `waves` waves in auto mode (the head's included). */
int    mg_sample_windows(uint64_t waves);

/* ---- the timeline (sample.c): hooks for sim.c ------------------------------ */

/* Set s->smp when opts ask for sampling (s->smp stays NULL otherwise).
 * Returns 0, -1 on OOM (message in s->d). */
int  mg_sample_init(mg_sim *s, const mg_sim_opts *o);
/* Called before the event loop fetches the next work group: may move the
 * source past the work groups to extrapolate.  Returns 0, -1 on error. */
int  mg_sample_fetch(mg_sim *s);
/* Work group g finished at cycle t (called before it is freed).  Returns
 * 0, -1 on OOM. */
int  mg_sample_done(mg_sim *s, const mg_wgi *g, double t);
/* After the replay and its final accounting (s->st complete for what was
 * replayed): extrapolate s->st to the whole launch and fill the sample_*
 * fields. */
void mg_sample_finish(mg_sim *s);
void mg_sample_free(mg_sim *s);

#endif
