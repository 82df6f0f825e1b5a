/*
 * analytic.h - the analytical model: TMModel's thread-, warp- and
 * integrated-level estimate of a kernel's time (Guan et al., ICS '25,
 * sections 3-4, equations 1-7), from the same trace the simulator replays
 * and the same device config (public API; sim/MODEL.md, "The analytical
 * model").
 *
 * One representative work group (the middle one of the launch) is
 * generated, its first warp walked record by record:
 *   thread level (eq. 1): per input tensor, each sampled lane's accesses
 *     give a histogram H of cross-block strides (accesses; moves to another
 *     L1 line; moves to another L2 line / image block, the blocks being the
 *     device's texture representation) and its reuse distance s (distinct
 *     lines between a lane's uses of one line, + 1); L_t = <beta, H> with
 *     beta the latencies of the config (hit, L2, DRAM);
 *   warp level (eq. 2, 3): the tensors sharing a cache (texture L1, buffer
 *     L1) thrash when sum w_i s_i passes its C lines (w_i: distinct lanes
 *     per access): L_w = sum_i L_t(H_i) D^ceil((sum w_i s_i - C) / C);
 *   work-group level (eq. 4-6): occupancy from registers per item (the
 *     simulator's rule), work groups from the launch, L_g occupancy groups;
 *   integration (eq. 7): L = L_w x L_g.
 * The prediction is the largest of L, the trace's lower bound (ALU and
 * memory-pipe throughput, sim/model/bound.h) of the work group times the
 * work groups, and the DRAM traffic at the DRAM bandwidth, plus the launch
 * overhead: mgsim additions, as TMModel leaves compute out (its candidates
 * differ only in memory behaviour).  The DRAM traffic is each texture and
 * buffer input's bytes times its refetch factor: the walked warp's reads
 * of L2 lines against its share of the L2 (the L2's lines over the warps
 * resident on the GPU at once; eq. 3's capacity argument at the L2), a
 * line read again after more than the share of other lines is fetched
 * again.
 */
#ifndef MG_ANALYTIC_H
#define MG_ANALYTIC_H

#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "sim/config/device.h"
#include "traces/trace.h"
#include "base/diag.h"

/* The analytical model's revision: a screen's choices (and so a cached
 * `mgsim net` search, sim/nettune/nt_cache.c) depend on it.  2: the L2 and
 * DRAM traffic floors. */
#define MG_AM_REVISION 2

/* Memory paths a read can take, and the histogram's bins. */
enum { MG_AM_TEX, MG_AM_BUF, MG_AM_LOCAL, MG_AM_CONST, MG_AM_PATHS };
enum { MG_AM_H_ACCESS, MG_AM_H_LINE, MG_AM_H_BLOCK, MG_AM_BINS };

#define MG_AM_TENSORS  16      /* inputs tracked one by one (images, then buffers) */
#define MG_AM_LANES     8      /* lanes of the warp sampled for the thread level */
#define MG_AM_STACK    16      /* lines a lane's reuse-distance stack holds */

/* What the model takes from a device config (am_params.c). */
typedef struct mg_am_params {
    double   beta[MG_AM_PATHS][MG_AM_BINS];  /* cycles per access, per line crossed,
                                                per block crossed */
    double   decay[MG_AM_PATHS];             /* D: latency factor per step of thrashing */
    uint64_t lines[MG_AM_PATHS];             /* C: lines of the path's cache (0: none) */
    int64_t  line_bytes[MG_AM_PATHS];        /* buffer paths: line and block sizes */
    int64_t  block_bytes[MG_AM_PATHS];
} mg_am_params;

void mg_am_params_init(mg_am_params *p, const mg_device *dev);

/* One input tensor as the thread and warp levels see it. */
typedef struct mg_am_tensor {
    int      path;                 /* MG_AM_TEX .. */
    unsigned obj;                  /* image or buffer id (0 for local) */
    char     name[32];
    double   hist[MG_AM_BINS];     /* H per thread: mean over the sampled lanes */
    double   reuse;                /* s: mean reuse distance (0: no line reused) */
    double   lanes;                /* w: mean distinct lanes per warp access */
    double   lt;                   /* L_t = <beta, H>, cycles (eq. 1) */
    double   lt_miss;              /* L_t had every access missed its line (the cap) */
    double   lw;                   /* its share of L_w, cycles (eq. 3) */
    double   dram_amp;             /* L2 lines fetched / distinct lines read, in the
                                      warp's L2 share (1: each fetched once) */
} mg_am_tensor;

typedef struct mg_am_est {
    int          ntensors;
    mg_am_tensor t[MG_AM_TENSORS];
    double       pressure[MG_AM_PATHS];  /* sum w_i s_i, lines */
    int          steps[MG_AM_PATHS];     /* ceil((pressure - C) / C), at least 0 */
    double       lt, lw;                 /* sum of L_t; L_w (eq. 3), cycles */
    uint32_t     regs_per_item;          /* rounded to the allocation granule */
    uint32_t     warps_per_wg;
    uint32_t     occupancy;              /* resident warps per SP (eq. 4) */
    uint32_t     wgs_per_sp;             /* work groups per SP at once */
    uint32_t     groups_per_wg;          /* occupancy groups one work group needs */
    uint64_t     wgs;                    /* eq. 5 */
    uint64_t     lg;                     /* L_g, occupancy groups in turn (eq. 6) */
    double       tm_cycles;              /* L = L_w x L_g (eq. 7) */
    double       floor_cycles;           /* the trace's lower bound, extrapolated */
    double       l2_share;               /* L2 lines per warp resident on the GPU */
    double       l2_bytes;               /* L1 misses' lines, over the launch */
    double       l2_cycles;              /* l2_bytes at the L2 bandwidth */
    double       dram_bytes;             /* texture and buffer inputs x their dram_amp */
    double       dram_cycles;            /* dram_bytes at the DRAM bandwidth */
    double       cycles;                 /* the largest of the four */
    double       seconds;                /* cycles at the clock + launch overhead */
    int          bound_by_floor;         /* 1: the throughput floor binds */
    int          bound_by_traffic;       /* 1: the L2 or DRAM traffic binds */
    uint64_t     sample_wg;              /* the work group walked */
} mg_am_est;

/* Estimate the launch src describes on dev.  Returns 0 with *e filled, or
 * -1 with a message: what the simulator refuses too (registers, work-group
 * size, local memory, a work group in occupancy groups with barriers), or
 * a source error. */
int mg_am_estimate(const mg_device *dev, mg_trace_source *src, mg_am_est *e, mg_diag *d);

/* Which model predicts a kernel's time (--predictor of run and validate). */
enum { MG_PRED_SIM = 0, MG_PRED_ANALYTIC };

/* "sim" or "analytic" into *pred: 0, or -1 for anything else. */
int mg_am_predictor_parse(const char *s, int *pred);

/* Reports (am_report.c). */
void   mg_am_print_text(FILE *f, const mg_device *dev, const mg_trace_header *h,
                        const mg_am_est *e);
cJSON *mg_am_to_json(const mg_device *dev, const mg_trace_header *h, const mg_am_est *e);

#endif
