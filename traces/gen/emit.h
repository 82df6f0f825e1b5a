/*
 * emit.h - writing a work group's trace, warp by warp (internal to traces/).
 *
 * An op's trace_wg() calls mg_emit_wg() with a body function; the body runs
 * once per warp and walks the kernel's program in source order, emitting
 * one record per warp instruction: it asks for a memory record with
 * mg_emit_mem(), sets each lane's address with mg_emit_lane() (lanes left
 * unset are inactive: the guard was false for them), and puts it with
 * mg_emit_put().  Loops of the kernel are loops of the body; their trip
 * counts are uniform across lanes in every generated kernel.
 */
#ifndef MG_EMIT_H
#define MG_EMIT_H

#include <stdint.h>

#include "gen/kernel.h"
#include "trace.h"

/* ---- lane masks (one bit per lane of a warp) ------------------------------ */

typedef struct mg_lmask {
    uint64_t m[2];
} mg_lmask;

static inline void mg_lm_set(mg_lmask *m, unsigned l) { m->m[l >> 6] |= (uint64_t)1 << (l & 63); }
static inline int mg_lm_get(const mg_lmask *m, unsigned l)
{
    return (int)((m->m[l >> 6] >> (l & 63)) & 1);
}
static inline int mg_lm_any(const mg_lmask *m) { return (m->m[0] | m->m[1]) != 0; }
static inline mg_lmask mg_lm_and(mg_lmask a, mg_lmask b)
{
    mg_lmask r = {{a.m[0] & b.m[0], a.m[1] & b.m[1]}};
    return r;
}

typedef struct mg_warp {
    const mg_kernel *k;
    mg_trace_wg *out;
    uint32_t wg[3];                         /* work-group id */
    uint32_t index;                         /* warp index in the work group */
    uint32_t lanes;                         /* lanes in this warp */
    int64_t  lid[3][MG_TRACE_MAX_LANES];    /* local id of each lane */
    int64_t  gid[3][MG_TRACE_MAX_LANES];    /* global id of each lane */
    mg_rec   r;                             /* the record being built */
} mg_warp;

typedef void (*mg_warp_body)(mg_warp *w, const void *ctx);

/* Begin `out` for work group wg and run body once per warp (local linear
 * ids w*warp .. w*warp+lanes-1, x fastest).  Returns 0, -1 on OOM. */
int mg_emit_wg(const mg_kernel *k, const uint32_t wg[3], mg_trace_wg *out,
               mg_warp_body body, const void *ctx);

/* Start a memory record of tensor ti (its image or buffer id), `width`
 * bytes per lane; no lane active yet.  For local memory pass ti = -1. */
mg_rec *mg_emit_mem(mg_warp *w, int type, int site, int ti, uint32_t width);

/* Lane l takes part with address a (byte address or texel x) and b (y). */
static inline void mg_emit_lane(mg_warp *w, unsigned l, int64_t a, int64_t b)
{
    mg_rec_set_active(&w->r, l);
    w->r.a[l] = a;
    w->r.b[l] = b;
}

/* Put the record built since mg_emit_mem(); a record with no active lane
 * is dropped (the whole warp branched around it). */
void mg_emit_put(mg_warp *w);

/* ALU work for the lanes in mask (NULL: every lane of the warp): n
 * instructions of `vec` elements, `flops` flops per element. */
void mg_emit_alu(mg_warp *w, const uint64_t *mask, int site, int cls, int vec, uint32_t n,
                 int flops);

/* The same, with `dep` of the n instructions forming one dependent chain
 * (1 = independent, n = a chain: see FORMAT.md, ALU body). */
void mg_emit_alu_dep(mg_warp *w, const uint64_t *mask, int site, int cls, int vec, uint32_t n,
                     int flops, uint32_t dep);

/* A work-group barrier with a local-memory fence. */
void mg_emit_barrier(mg_warp *w, int site);

/* Mask of every lane of the warp. */
void mg_emit_all(const mg_warp *w, uint64_t mask[2]);

#endif
