/*
 * policy.c - the registry of replacement policies.  A new policy is one
 * file in sim/model/cache/ and one line here; its name must be one of the config's
 * replacement values (sim/config/schema.c).
 */
#include "sim/model/cache/cache.h"

#include <string.h>

extern const mg_repl_policy mg_repl_lru, mg_repl_fifo, mg_repl_random, mg_repl_plru;

static const mg_repl_policy *const policies[] = {
    &mg_repl_lru, &mg_repl_fifo, &mg_repl_random, &mg_repl_plru, NULL,
};

const mg_repl_policy *mg_repl_find(const char *name)
{
    for (int i = 0; policies[i]; i++)
        if (!strcmp(policies[i]->name, name)) return policies[i];
    return NULL;
}
