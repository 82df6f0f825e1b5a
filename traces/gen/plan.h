/*
 * plan.h - helpers an op's plan() uses to fill an mg_kernel (internal).
 */
#ifndef MG_PLAN_H
#define MG_PLAN_H

#include "traces/gen/kernel.h"
#include "traces/gen/schedule.h"

/* Add a tensor; its trace object id is the next image or buffer id.
 * Returns its index in k->t. */
int mg_plan_tensor(mg_kernel *k, const char *name, int role, int layout, int dtype,
                   int channels, int init, int64_t d0, int64_t d1, int64_t d2, int64_t d3);

/* Storage layout and dtype of a float tensor for schedule role `role`. */
int mg_plan_layout(const mg_schedule *s, int role);
int mg_plan_dtype(const mg_schedule *s);

/* Kernel arguments, in order. */
void mg_plan_arg_tensor(mg_kernel *k, int ti);
void mg_plan_arg_int(mg_kernel *k, const char *name, int64_t v);
void mg_plan_arg_float(mg_kernel *k, const char *name, double v);
void mg_plan_arg_local(mg_kernel *k, const char *name, int64_t bytes);

/* NDRange: `items` work items needed per dimension, the work-group size
 * from the schedule; global sizes are rounded up to multiples of it. */
void mg_plan_ndrange(mg_kernel *k, int dims, const int64_t items[3], const int64_t wg[3]);

/* The register estimate of a tiled reduction (conv2d, matmul): the 32-bit
 * values an item keeps live at the peak of its main loop, one count for
 * every device (each config rounds it to its own register granule).
 *   values  the accumulators plus the loaded elements held at once (the
 *           operator's comment says which); packed two to a register
 *           (half2) when the schedule computes in fp16
 *   inputs  tensors read in the main loop: MG_REGS_INPUT each
 *   extra   the operator's own loop-carried values (conv2d's window loops)
 * plus MG_REGS_ITEM, and MG_REGS_SPLIT when split > 1. */
#define MG_REGS_ITEM 9     /* 3 global ids, 2 tile origins, the loop counter and
                            * its bound, 2 temporaries of the address and dot
                            * arithmetic */
#define MG_REGS_INPUT 4    /* a buffer: its running 64-bit address and the 64-bit
                            * base it restarts from; an image: the x and y
                            * coordinates and their bases */
#define MG_REGS_SPLIT 2    /* the split index and its reduction slice's start */
int64_t mg_plan_regs(const mg_schedule *s, int64_t values, int inputs, int64_t extra);

static inline int64_t mg_ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

#endif
