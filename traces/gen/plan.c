/*
 * plan.c - see plan.h.
 */
#include "traces/gen/plan.h"

#include <stdio.h>
#include <string.h>

int mg_plan_tensor(mg_kernel *k, const char *name, int role, int layout, int dtype,
                   int channels, int init, int64_t d0, int64_t d1, int64_t d2, int64_t d3)
{
    int ti = k->n_tensors++;
    mg_tensor *t = &k->t[ti];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->role = role;
    t->layout = layout;
    t->dtype = dtype;
    t->channels = channels;
    t->init = init;
    t->dims[0] = d0;
    t->dims[1] = d1;
    t->dims[2] = d2;
    t->dims[3] = d3;
    int obj = 0;
    for (int i = 0; i < ti; i++)
        obj += (k->t[i].layout == MG_TL_IMAGE) == (layout == MG_TL_IMAGE);
    t->obj = obj;
    return ti;
}

int mg_plan_layout(const mg_schedule *s, int role)
{
    return s->layout[role] == MG_LAYOUT_IMAGE ? MG_TL_IMAGE : MG_TL_BUFFER;
}

int mg_plan_dtype(const mg_schedule *s)
{
    return s->storage == MG_PREC_FP16 ? MG_DT_F16 : MG_DT_F32;
}

static mg_arg *new_arg(mg_kernel *k, int kind, const char *name)
{
    mg_arg *a = &k->args[k->n_args++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    snprintf(a->name, sizeof a->name, "%s", name);
    return a;
}

void mg_plan_arg_tensor(mg_kernel *k, int ti)
{
    char name[sizeof k->t[ti].name];
    memcpy(name, k->t[ti].name, sizeof name);
    new_arg(k, MG_ARG_TENSOR, name)->tensor = ti;
}

void mg_plan_arg_int(mg_kernel *k, const char *name, int64_t v)
{
    new_arg(k, MG_ARG_INT, name)->ival = v;
}

void mg_plan_arg_float(mg_kernel *k, const char *name, double v)
{
    new_arg(k, MG_ARG_FLOAT, name)->fval = v;
}

void mg_plan_arg_local(mg_kernel *k, const char *name, int64_t bytes)
{
    new_arg(k, MG_ARG_LOCAL, name)->ival = bytes;
}

void mg_plan_ndrange(mg_kernel *k, int dims, const int64_t items[3], const int64_t wg[3])
{
    k->work_dim = dims;
    for (int i = 0; i < 3; i++) {
        k->local[i] = i < dims ? wg[i] : 1;
        int64_t n = i < dims ? items[i] : 1;
        k->global[i] = mg_ceil_div(n, k->local[i]) * k->local[i];
    }
}

int64_t mg_plan_regs(const mg_schedule *s, int64_t values, int inputs, int64_t extra)
{
    if (s->compute == MG_PREC_FP16) values = (values + 1) / 2;
    return values + (int64_t)inputs * MG_REGS_INPUT + extra + MG_REGS_ITEM +
           (s->split > 1 ? MG_REGS_SPLIT : 0);
}
