/*
 * am_internal.h - the analytical model's thread-level walk (am_walk.c),
 * internal to sim/analytic.
 */
#ifndef MG_AM_INTERNAL_H
#define MG_AM_INTERNAL_H

#include "sim/analytic/analytic.h"

/* The walked warp's share of a cache (am_share.c): every line it reads,
 * with the time of its last read (times count the reads, renumbered to
 * keep only lines' last reads when the arrays fill up), and over those
 * times a Fenwick tree of the reads that are some line's last, each
 * weighted by its chance of reaching the cache: the lines read since a
 * line's last read (its LRU stack distance) in O(log n). */
typedef struct mg_am_share {
    double    share;                       /* lines of the cache the warp holds */
    double    sets, ways;                  /* the cache's geometry (1 set: fully
                                              associative) */
    uint64_t *key, *last;                  /* open addressing, cap slots: line, the
                                              time of its last read + 1 */
    uint64_t  cap, used;
    double   *w, *tree;                    /* per time: the read's weight if it is its
                                              line's last (else 0), and the tree */
    uint64_t *who;                         /* per time: that line's key (0: none) */
    double    total;                       /* the weights of every time */
    uint64_t  now, tcap;                   /* the next time; the arrays' size (times
                                              are renumbered when they fill up) */
    double   *hit;                         /* mg_am_share_hit at distances 0 .. nhit-1
                                              (sets > 1; past them: 0) */
    uint32_t  nhit;
    double    fetches[MG_AM_TENSORS];      /* per tensor: expected lines fetched */
    uint64_t  distinct[MG_AM_TENSORS];     /* per tensor: distinct lines */
} mg_am_share;

/* A share of `share` lines of a cache of sets x ways lines (sets < 1 or
 * ways < 1: fully associative).  Returns 0, -1 out of memory. */
int mg_am_share_init(mg_am_share *c, double share, double sets, double ways);
void mg_am_share_free(mg_am_share *c);

/* The chance that a line is still in a cache of sets x ways lines shared
 * by warps each holding `share` of them, when the walked warp read `dist`
 * other lines since its last read: in a fully associative LRU cache when
 * dist < share; in S sets of W ways when fewer than W of the dist x
 * (lines / share) lines every warp read meanwhile fall in its set
 * (Binomial(dist x lines / share, 1 / S) < W), tabulated at whole
 * distances (until it falls below 1e-12) and linear between them. */
double mg_am_share_hit(const mg_am_share *c, double dist);

/* The warp reads line `line` of tensor `tensor`, the read reaching this
 * cache with chance `reach` (1: surely): returns the expected fetch, reach
 * x (1 for a new line, else 1 - mg_am_share_hit of its stack distance),
 * or -1 out of memory. */
double mg_am_share_touch(mg_am_share *c, int tensor, uint64_t line, double reach);

/* Walk warp `warp` of wg: fill e's tensors (hist, reuse, lanes; their
 * L_t is left to the caller), e->overlap, and say whether the warp meets
 * a barrier.  Returns 0, -1 on a malformed record (message in d). */
int mg_am_walk(const mg_device *dev, const mg_am_params *p, const mg_trace_header *h,
               const mg_trace_wg *wg, uint32_t warp, mg_am_est *e, int *barrier, mg_diag *d);

/* Every warp of wg through the cache shares sh[MG_AM_TEX], sh[MG_AM_BUF]
 * (L1s; share 0: no L1) and sh[MG_AM_PATHS] (the L2), a record of each
 * warp in turn (a group's warps progress together): each distinct line
 * the active lanes of a texture or buffer read touch, once per record,
 * through its path's L1, and each L1 miss's L2 line through the L2
 * (tensors as e's, new ones added); the bytes of image writes and buffer
 * stores (the L2's) into e->store_bytes.  Returns 0, -1 on a malformed
 * record or out of memory (message in d). */
int mg_am_walk_shares(const mg_device *dev, const mg_am_params *p, const mg_trace_header *h,
                      const mg_trace_wg *wg, mg_am_est *e, mg_am_share *sh, mg_diag *d);

/* The traffic floors (am_traffic.c): every warp of wg (the walked work
 * group) through the group's shares of the caches; fills e->l2_share,
 * store_bytes, l2_bytes/_cycles, the tensors' dram_amp and
 * dram_bytes/_cycles.  Returns 0, -1 (message in d). */
int mg_am_traffic(const mg_device *dev, const mg_am_params *p, const mg_trace_header *h,
                  const mg_trace_wg *wg, mg_am_est *e, mg_diag *d);

#endif
