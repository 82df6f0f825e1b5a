/*
 * am_internal.h - the analytical model's thread-level walk (am_walk.c),
 * internal to sim/analytic.
 */
#ifndef MG_AM_INTERNAL_H
#define MG_AM_INTERNAL_H

#include "sim/analytic/analytic.h"

/* Walk warp `warp` of wg: fill e's tensors (hist, reuse, lanes; their
 * L_t is left to the caller) and say whether the warp meets a barrier.
 * Returns 0, -1 on a malformed record (message in d). */
int mg_am_walk(const mg_device *dev, const mg_am_params *p, const mg_trace_header *h,
               const mg_trace_wg *wg, uint32_t warp, mg_am_est *e, int *barrier, mg_diag *d);

#endif
