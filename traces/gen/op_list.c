/*
 * op_list.c - every operator of the generator.  A new operator is one
 * file in traces/ops/ and one line here.
 */
#include "traces/gen/op.h"

#include <string.h>

extern const mg_op mg_op_eltwise;
extern const mg_op mg_op_conv2d;
extern const mg_op mg_op_pchase;
extern const mg_op mg_op_regpressure;
extern const mg_op mg_op_warpsize;
extern const mg_op mg_op_flops;
extern const mg_op mg_op_bandwidth;
extern const mg_op mg_op_rstride2d;
extern const mg_op mg_op_matmul;
extern const mg_op mg_op_softmax;
extern const mg_op mg_op_layernorm;
extern const mg_op mg_op_ticket;

const mg_op *const mg_ops[] = {
    &mg_op_eltwise,
    &mg_op_conv2d,
    &mg_op_pchase,
    &mg_op_regpressure,
    &mg_op_warpsize,
    &mg_op_flops,
    &mg_op_bandwidth,
    &mg_op_rstride2d,
    &mg_op_matmul,
    &mg_op_softmax,
    &mg_op_layernorm,
    &mg_op_ticket,
    NULL,
};

const mg_op *mg_op_find(const char *name)
{
    for (int i = 0; mg_ops[i]; i++)
        if (!strcmp(mg_ops[i]->name, name)) return mg_ops[i];
    return NULL;
}
