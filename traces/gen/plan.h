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

static inline int64_t mg_ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

#endif
