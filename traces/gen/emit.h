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

#include "traces/gen/kernel.h"
#include "traces/trace.h"

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
    int64_t  lid0[3];                       /* local id of lane 0 */
    int64_t  lidn[3];                       /* local id of the last lane */
    int      zconst;                        /* every lane has local z lid0[2] */
    int      lanewise;                      /* mg_emit_set_lanewise(1) was called:
                                               ops take their lane-by-lane paths */
    int64_t  bzb, b0, bn;                   /* mg_emit_aff_blocks: the blocks of lane 0
                                               and the last lane for blocks of bzb
                                               local z (bzb 0: not yet known) */
    uint64_t only[2];                       /* lanes that may take part: every record
                                               put is masked with it (every lane, but
                                               while a fused kernel runs one sub-kernel's
                                               body: that sub-kernel's lanes) */
    uint32_t nloads;                        /* load records put in this warp */
    uint32_t settled;                       /* nloads at its last record that waited
                                               for every load (ALU with keep 0, barrier) */
    uint32_t need;                          /* mg_emit_needs(): the mark the next ALU
                                               record needs, with has_need set */
    int      has_need;
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

/* Addresses as an affine function of a lane's local id (x, y, z):
 * dimension d (0: byte address or texel x; 1: texel y) is
 * at[d] + dx[d] x + dy[d] y + dz[d] z, in wrapping 64-bit arithmetic.
 * It need only hold for the lanes of the warp it is emitted for (an op
 * may fold what is constant over the warp into at, with a zero step). */
typedef struct mg_lane_aff {
    int64_t at[2], dx[2], dy[2], dz[2];
} mg_lane_aff;

/* Put a memory record of tensor ti (-1: local memory), `width` bytes per
 * lane, for the lanes in mask (NULL: every lane; none: nothing is put),
 * with addresses f.  When the warp's lanes make f an affine form of the
 * lane index (rows of local x, lanes within one row, or a step linear in
 * the linear local id) the form goes to the trace as it is, with no
 * per-lane work; otherwise each active lane's address is computed and the
 * record put as by mg_emit_put().  The same records either way. */
void mg_emit_aff(mg_warp *w, int type, int site, int ti, uint32_t width, const uint64_t *mask,
                 const mg_lane_aff *f);

/* As mg_emit_aff() with local z in blocks of zb >= 1 (z = b zb + r, r <
 * zb): dimension d is at[d] + dx[d] x + dy[d] y + dz[d] r + dzb[d] (b -
 * b0), b0 the block of the warp's lane 0.  For an op whose lanes' ids are
 * affine in r and b but not in z (a work group of zb rows times split
 * items, say).  A warp within one block, or with zb = 1, goes out as by
 * mg_emit_aff(); one over several blocks as a form in planes when it
 * starts at local x 0, else lane by lane. */
void mg_emit_aff_blocks(mg_warp *w, int type, int site, int ti, uint32_t width,
                        const uint64_t *mask, const mg_lane_aff *f, int64_t zb,
                        const int64_t dzb[2]);

/* Tests: with on = 1, warps emitted from this thread afterwards have
 * lanewise set (ops then take their lane-by-lane paths, and mg_emit_aff
 * computes every lane), so a trace can be checked against its fast form. */
void mg_emit_set_lanewise(int on);

/* Records mg_emit_aff() has put as forms (no per-lane work) on this thread. */
uint64_t mg_emit_direct_count(void);

/* Put the record built since mg_emit_mem(), its lanes masked with
 * w->only (as every record emitted here is); a record with no active lane
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

/* Dependences on loads (FORMAT.md 5.1, keep).  A mark is the number of
 * load records (texture, buffer, local, constant) put so far in the
 * warp.  mg_emit_needs(w, m): the next ALU record put (mg_emit_alu,
 * mg_emit_alu_dep) uses the data of the loads put before mark m only, not
 * of those put since; it then waits for those alone.  Without it an ALU
 * record waits for every load in flight, which is always safe: mark only
 * what the emitted OpenCL C really has (address arithmetic, loop counters,
 * work of an earlier iteration).  mg_emit_needs(w, 0): no load at all. */
static inline uint32_t mg_emit_mark(const mg_warp *w) { return w->nloads; }
static inline void mg_emit_needs(mg_warp *w, uint32_t mark)
{
    w->need = mark;
    w->has_need = 1;
}

/* A work-group barrier with a local-memory fence. */
void mg_emit_barrier(mg_warp *w, int site);

/* Mask of every lane of the warp. */
void mg_emit_all(const mg_warp *w, uint64_t mask[2]);

#endif
