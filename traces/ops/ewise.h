/*
 * ewise.h - what the elementwise operators share (internal to traces/ops):
 * the activations (relu, relu6) as OpenCL text, trace records, flops and
 * CPU reference, used by add, act and conv2d's epilogue; and the kernel of
 * add and act (ewise.c), Y = act(X0 [+ X1]) over NHWC chunks.
 */
#ifndef MG_OPS_EWISE_H
#define MG_OPS_EWISE_H

#include <stdint.h>

#include "traces/gen/emit.h"
#include "traces/gen/kernel.h"
#include "traces/gen/schedule.h"
#include "traces/gen/strbuf.h"
#include "base/diag.h"

/* The activations, the value of a schedule's `act` key. */
typedef enum { MG_GACT_NONE, MG_GACT_RELU, MG_GACT_RELU6 } mg_gact;
extern const char *const mg_gact_names[];          /* NULL-terminated */

/* Flops per element: none 0, relu 1 (a max), relu6 2 (a max, a min). */
int mg_gact_flops(int act);

/* The statement(s) applying act to the variable v of OpenCL type vt,
 * indented by `ind`, each ending in a newline (nothing for none). */
void mg_gact_cl(mg_sb *o, int act, const char *ind, const char *vt, const char *v);

/* The ALU records of act for the lanes in mask: one instruction per
 * flop, `vec` elements wide, in the compute class `cls`. */
void mg_gact_trace(mg_warp *w, const uint64_t *mask, int site, int cls, int vec, int act);

/* act applied to one value (fp16 compute rounds nothing more: max and
 * min are exact). */
float mg_gact_ref(int act, float v);

/* ---- the kernel of add (nin = 2) and act (nin = 1) ----------------------------- */

/* The common defaults: 1D work groups of 64, vec 4. */
void mg_ew_defaults(mg_schedule *s);
/* The checks both share (vec, image texels, 1D launch); `op` names the
 * operator in messages.  Adds errors to d. */
void mg_ew_check(const mg_schedule *s, const char *op, const char *where, mg_diag *d);
/* Plan nin inputs X0 .. X(nin-1) (A, B for add) and Y, all [1, H, W, C]. */
void mg_ew_plan(const mg_schedule *s, mg_kernel *k, int nin, const char *name);
void mg_ew_emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o);
void mg_ew_trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                    mg_trace_wg *out);
/* One warp of the kernel (ctx: the schedule): trace_wg's body, and add's
 * and act's warp_body as sub-kernels of `fuse` (op.h). */
void mg_ew_warp_body(mg_warp *w, const void *ctx);
void mg_ew_reference(const mg_schedule *s, const mg_kernel *k, mg_host *h);

#endif
