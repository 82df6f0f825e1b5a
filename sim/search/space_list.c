/*
 * space_list.c - a space's members as listed by one enumeration
 * (space_list.h).
 */
#include "sim/search/space_list.h"
#include "traces/gen/gen.h"

#include <stdlib.h>

/* Room for one more member.  0, or -1 out of memory. */
static int grow(mg_space_list *l)
{
    if (l->n < l->cap) return 0;
    uint64_t cap = l->cap ? 2 * l->cap : 4096;
    uint64_t *r = realloc(l->raw, cap * sizeof *r);
    if (r) l->raw = r;
    unsigned char *f = realloc(l->fired, cap);
    if (f) l->fired = f;
    if (!r || !f) return -1;
    l->cap = cap;
    return 0;
}

int mg_space_list_add(mg_space_list *l, const mg_rules *rules, const mg_device *dev,
                      const mg_space_cand *c, mg_diag *d)
{
    if (grow(l)) return mg_diag_error(d, "out of memory"), -1;
    unsigned m = 0;
    if (rules) {
        mg_gen g;
        if (mg_gen_plan(&g, &c->s, d)) return -1;
        m = mg_rules_eval(rules, dev, &c->s, &g.k);
    }
    l->raw[l->n] = c->raw;
    l->fired[l->n++] = (unsigned char)m;
    return 0;
}

void mg_space_list_free(mg_space_list *l)
{
    free(l->raw);
    free(l->fired);
    l->raw = NULL;
    l->fired = NULL;
    l->n = l->cap = 0;
}
