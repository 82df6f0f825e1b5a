/*
 * policy.c - the registry of replacement policies: those of
 * policy_list.h, by name.
 */
#include "sim/model/cache/cache.h"

#include <string.h>

#define MG_REPL_ENTRY(p) &mg_repl_##p,
static const mg_repl_policy *const policies[] = {MG_REPL_POLICIES(MG_REPL_ENTRY) NULL};
#undef MG_REPL_ENTRY

const mg_repl_policy *mg_repl_find(const char *name)
{
    for (int i = 0; policies[i]; i++)
        if (!strcmp(policies[i]->name, name)) return policies[i];
    return NULL;
}
