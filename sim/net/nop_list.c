/*
 * nop_list.c - the registry of network operators, built from the list in
 * sim/net/nop_list.h.
 */
#include "sim/net/nop.h"
#include "sim/net/nop_list.h"

#include <string.h>

#define MG_NOP_EXTERN(name) extern const mg_nop mg_nop_##name;
MG_NOPS(MG_NOP_EXTERN)
#undef MG_NOP_EXTERN

#define MG_NOP_ENTRY(name) &mg_nop_##name,
const mg_nop *const mg_nops[] = {MG_NOPS(MG_NOP_ENTRY) NULL};
#undef MG_NOP_ENTRY

const mg_nop *mg_nop_find(const char *name)
{
    for (int i = 0; mg_nops[i]; i++)
        if (!strcmp(mg_nops[i]->name, name)) return mg_nops[i];
    return NULL;
}
