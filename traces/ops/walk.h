/*
 * walk.h - helpers shared by the matmul, softmax and layernorm operators
 * (internal to traces/ops): the access patterns of tmmodel 3.2.1 as loop
 * orders over a 2D region, lane masks, and ALU record merging.
 *
 * Access patterns.  An item that reads a region of R rows x X columns (rows
 * y and columns x of the tensor's 2D image view: texels of an image, or
 * vectors of V elements of a buffer row) visits it in bands of h rows:
 *
 *     for (yb = 0; yb < R; yb += h)
 *         for (x = 0; x < X; x++)
 *             for (y = yb; y < min(yb + h, R); y++)
 *                 visit(y, x);
 *
 * with h = 1 for pattern=row (x fastest: a row at a time, cache-line reuse
 * distance 1), h = R for column (y fastest: a column at a time), and h = 2,
 * 4, 8 for block2/4/8 (N-row bands walked column by column: reuse distance
 * N; a band of N >= R rows is the whole region, i.e. column).  The pattern
 * changes only the order of the reads, never which elements are read or
 * how they are combined.
 */
#ifndef MG_OPS_WALK_H
#define MG_OPS_WALK_H

#include <stdint.h>

#include "traces/gen/emit.h"
#include "traces/gen/strbuf.h"

/* The band height h of `pattern` (mg_pattern) over a region of R rows
 * (R >= 1): 1, R, or min(N, R). */
int64_t mg_walk_band(int pattern, int64_t R);

/* Iterator over an R x X region in pattern order. */
typedef struct mg_walk {
    int64_t R, X, h;
    int64_t yb, x, y;
} mg_walk;

void mg_walk_start(mg_walk *w, int pattern, int64_t R, int64_t X);
/* The next (y, x) in pattern order: returns 1, or 0 when the region is done. */
int  mg_walk_next(mg_walk *w, int64_t *y, int64_t *x);

/* Emit the OpenCL loop nest that walks an R x X region in pattern order
 * with int loop variables yv (row) and xv (column), each line prefixed by
 * ind; the body follows, then mg_walk_cl_close() with the same ind
 * closes the nest.  Row and column are two loops, blockN three (the band
 * variable is yv followed by "b"); the body is one block. */
void mg_walk_cl_open(mg_sb *o, int pattern, int64_t R, int64_t X, const char *yv,
                     const char *xv, const char *ind);
void mg_walk_cl_close(mg_sb *o, const char *ind);

/* ---- ALU records ----------------------------------------------------------- */

/* Consecutive ALU work with the same mask, site, class, width and flops
 * merged into one record of summed n (the kernel's instructions between
 * two memory accesses, in any order, are one record). */
typedef struct mg_alu_run {
    mg_lmask m;
    int      site, cls, vec, flops;
    uint64_t n;
} mg_alu_run;

/* Add n instructions for the lanes in m (none: nothing); flushes the run
 * first when anything but n differs. */
void mg_alu_add(mg_warp *w, mg_alu_run *a, mg_lmask m, int site, int cls, int vec, uint64_t n,
                int flops);
/* Emit the pending run (if any). */
void mg_alu_flush(mg_warp *w, mg_alu_run *a);

/* A barrier(CLK_LOCAL_MEM_FENCE) record (fence bit 0) for every lane. */
void mg_walk_barrier_local(mg_warp *w, int site);

#endif
