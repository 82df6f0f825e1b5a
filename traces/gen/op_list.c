/*
 * op_list.c - the registry of the generator's operators, built from the
 * list in traces/gen/op_list.h.
 */
#include "traces/gen/op.h"
#include "traces/gen/op_list.h"

#include <string.h>

#define MG_OP_EXTERN(name) extern const mg_op mg_op_##name;
MG_OPS(MG_OP_EXTERN)
#undef MG_OP_EXTERN

#define MG_OP_ENTRY(name) &mg_op_##name,
const mg_op *const mg_ops[] = {MG_OPS(MG_OP_ENTRY) NULL};
#undef MG_OP_ENTRY

const mg_op *mg_op_find(const char *name)
{
    for (int i = 0; mg_ops[i]; i++)
        if (!strcmp(mg_ops[i]->name, name)) return mg_ops[i];
    return NULL;
}
