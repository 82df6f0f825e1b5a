/*
 * rowred.h - the row-reduction kernel shared by softmax and layernorm
 * (internal to traces/ops): two reductions over each row of X [M, N], then
 * one pass that writes the row of Y [M, N].
 *
 * Tensors: X and Y are [1, M, 1, N] (layout_in, layout_out): as images,
 * ceil(N/4) x M texels, a row of the tensor is a row of texels.  V, the
 * vector width, is 4 (a texel) when X or Y is an image, else vec; a row is
 * N/V chunks of V elements.
 *
 * Work: item (g, 0, s) handles rows m0 = g*TM .. m0+TM-1 (tile=TMx1) and,
 * of each, the chunks c0 .. c0+CS-1, c0 = s*CS, CS = N/(V*split).  NDRange
 * (ceil(M/TM), 1, split), wg=X,1,split.  The item runs three passes over
 * its TM x CS region, each walked in pattern order (walk.h: rows i of the
 * region are rows of X, columns its chunks, so row finishes a row before
 * the next, column visits chunk c of every row before chunk c+1):
 *
 *   for r in 0, 1:                       (the two reductions)
 *       a[i] = init; walk: v = X[m0+i][c]; update(a[i], v)     V wide
 *       r_r[i] = horizontal(a[i])        (V-1 scalar max or add)
 *       split > 1: store r_r[i] to local memory, barrier, load the split
 *                  partials of the row (s ascending) and combine them
 *       finish(r_r[i])                   (e.g. mean = sum / N)
 *   walk: v = X[m0+i][c]; Y[m0+i][c] = out(v, r0[i], r1[i])
 *
 * unroll=U puts "#pragma unroll U" on the outer loop of each walk (the
 * accesses, and so the trace, are unchanged).
 *
 * Rows past M are guarded (no access, no ALU work) but every item reaches
 * every barrier.  Local memory (split > 1): float red[2][split][wg x][TM],
 * one array per reduction so that the second needs no extra barrier.
 *
 * Features: loop_iters = 3 TM CS (chunk visits of the three passes),
 * bytes_per_iter = one chunk, regs_per_item = (TM + 2) V values (halved for
 * fp16 compute) + 2 TM row results + 6, log_cap = 4 TM CS (+ 2 TM (1 +
 * split) local accesses when split > 1).
 *
 * Flops: the operator's descriptor gives the ALU work per chunk (vec V) and
 * per row (vec 1); an FMA is 2 flops per element, an add, sub, mul or max
 * 1, exp, rsqrt and reciprocals (MG_ALU_SFU) 0.  The horizontal reduction
 * and the combining of split partials are max or add, 1 flop each.
 * mg_rr_flops() sums the same records the trace holds.
 */
#ifndef MG_OPS_ROWRED_H
#define MG_OPS_ROWRED_H

#include "traces/gen/op.h"

#define RR_FP  (-1)          /* ALU class: the compute precision's (fp32/fp16) */
#define RR_MAX_ALU 4

/* One ALU instruction: class (RR_FP or MG_ALU_SFU), count, flops per
 * element.  A list ends at n == 0. */
typedef struct rr_alu {
    int cls, n, flops;
} rr_alu;

/* OpenCL text with its ALU records.  In the text, $V is the vector type
 * (float4), $S the scalar type, $R the constant 1/N; the variables are v
 * (the chunk, $V), a[i] (the accumulator, $V), r0[i], r1[i] (the row's
 * results, $S). */
typedef struct rr_code {
    const char *cl;
    rr_alu      alu[RR_MAX_ALU];
} rr_code;

typedef struct rr_red {
    const char *init;        /* accumulator start (scalar expression) */
    int         max;         /* horizontal and split combine: 1 fmax, 0 add */
    rr_code     update;      /* statement per chunk, updates a[i] from v */
    rr_code     finish;      /* statement per row after combining (r0[i] or r1[i]); may be NULL */
} rr_red;

typedef struct rr_op {
    const char *name;        /* operator name, for messages */
    const char *kernel;      /* kernel name */
    rr_red      red[2];
    rr_code     out;         /* expression of the output chunk ($V) */
} rr_op;

/* The pieces of an mg_op built on this kernel. */
void mg_rr_defaults(mg_schedule *s);
int  mg_rr_check(const rr_op *op, const mg_schedule *s, const char *where, mg_diag *d);
void mg_rr_plan(const rr_op *op, const mg_schedule *s, mg_kernel *k);
void mg_rr_emit_cl(const rr_op *op, const mg_schedule *s, const mg_kernel *k, mg_sb *o);
void mg_rr_trace_wg(const rr_op *op, const mg_schedule *s, const mg_kernel *k,
                    const uint32_t wg[3], mg_trace_wg *out);
/* The launch's flops: what the trace's ALU records sum to. */
double mg_rr_flops(const rr_op *op, const mg_schedule *s);

#endif
