/*
 * am_internal.h - the analytical model's thread-level walk (am_walk.c),
 * internal to sim/analytic.
 */
#ifndef MG_AM_INTERNAL_H
#define MG_AM_INTERNAL_H

#include "sim/analytic/analytic.h"

/* The walked warp's share of a cache (am_share.c): every line it reads,
 * with the count of lines fetched when it was last used. */
typedef struct mg_am_share {
    double    share;                       /* lines of the cache the warp holds */
    uint64_t *key, *stamp;                 /* open addressing, cap slots */
    uint64_t  cap, used;
    uint64_t  fetched;                     /* lines fetched so far */
    uint64_t  fetches[MG_AM_TENSORS];      /* per tensor: lines fetched (misses) */
    uint64_t  distinct[MG_AM_TENSORS];     /* per tensor: distinct lines */
} mg_am_share;

void mg_am_share_init(mg_am_share *c, double share);
void mg_am_share_free(mg_am_share *c);

/* The warp reads line `line` of tensor `tensor`: 1 when it is fetched
 * (new, or more than `share` fetched lines old), 0 when held, -1 out of
 * memory. */
int mg_am_share_touch(mg_am_share *c, int tensor, uint64_t line);

/* Walk warp `warp` of wg: fill e's tensors (hist, reuse, lanes; their
 * L_t is left to the caller) and say whether the warp meets a barrier.
 * Every texture and buffer read also goes through the warp's cache shares
 * sh[MG_AM_TEX], sh[MG_AM_BUF] (its L1s; share 0: no L1) and sh[MG_AM_PATHS]
 * (the L2; sh NULL: none): each distinct line its active lanes read, once
 * per record, through its path's L1, and each L1 miss's L2 line through
 * the L2.
 * Returns 0, -1 on a malformed record (message in d). */
int mg_am_walk(const mg_device *dev, const mg_am_params *p, const mg_trace_header *h,
               const mg_trace_wg *wg, uint32_t warp, mg_am_est *e, mg_am_share *sh,
               int *barrier, mg_diag *d);

#endif
