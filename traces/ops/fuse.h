/*
 * fuse.h - parallel fusion's sub-kernels (internal to traces/ops/fuse*.c).
 *
 * `fuse a=SCHED b=SCHED [c=SCHED] round=wave|none` launches 2 or 3
 * independent operators' kernels as one 1D NDRange (ParallelFusion,
 * EMDL'21, 4.2).  Sub-kernel i owns the fused global ids [off_i, off_i +
 * items_i), items_i its own launch's work items; with round=wave each range
 * starts on a warp:
 *
 *   off_0 = 0,  off_i = sum_{j<i} WS ceil(items_j / WS)   (round=wave)
 *   off_i = sum_{j<i} items_j                               (round=none)
 *
 * WS the warp width (the schedule's warp); the launch is the last range's
 * end padded to the work group.  Each fused item branches on its global id
 * to its sub-kernel's body with global id g - off_i; items in the rounding
 * gaps and the padding do nothing.  A warp whose lanes fall in two ranges
 * issues both bodies, each with its own lanes active (the trace's masks),
 * which is what the model charges: no special case.
 */
#ifndef MG_OPS_FUSE_H
#define MG_OPS_FUSE_H

#include "traces/gen/op.h"

typedef struct fuse_sub {
    char        key;            /* 'a', 'b' or 'c': its key and name suffix */
    mg_schedule s;              /* its schedule, wg 1 and the fused warp */
    mg_kernel   k;              /* planned with wg 1 (global[0] = its items),
                                   its tensors' obj those of the fused kernel */
    int64_t     off, items;     /* its fused global ids [off, off + items) */
    int         t0;             /* its first tensor in the fused kernel */
} fuse_sub;

typedef struct fuse_plan {
    int      n;                 /* sub-kernels, 2 or 3 */
    fuse_sub sub[MG_SCHED_MAX_SUBS];
    int64_t  end;               /* the last range's end (rounded for round=wave) */
    mg_kernel k;                /* the fused kernel's tensors and arguments */
} fuse_plan;

enum { FUSE_ROUND_WAVE, FUSE_ROUND_NONE };

/* Parse, check and plan s's sub-schedules into *p (allocated by the
 * caller) and lay out their ranges and the fused kernel's tensors and
 * arguments.  Returns 0, or -1 with "where: fuse: KEY=TEXT: problem"
 * errors in d. */
int fuse_load(const mg_schedule *s, fuse_plan *p, const char *where, mg_diag *d);

/* The fused kernel's OpenCL C: one function per sub-kernel (its own
 * kernel's text, renamed, its global id shifted by its offset), then the
 * kernel that branches on the global id (fuse_cl.c). */
void fuse_emit_cl(const fuse_plan *p, const mg_kernel *k, mg_sb *o);

/* Add "where: fuse: KEY=TEXT: ..." to d when sub's OpenCL text calls a
 * work-item function other than get_global_id(0) or a barrier (the
 * fused kernel changes only the global id); returns -1 then, else 0. */
int fuse_check_cl(const fuse_sub *sub, const char *where, mg_diag *d);

#endif
