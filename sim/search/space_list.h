/*
 * space_list.h - the members of a space as one enumeration met them
 * (internal to sim/search): each member's raw combination and the rules
 * that fire on it, so the sweep's later passes and the screen visit only
 * the members they need (mg_space_visit_members) and plan none again.
 */
#ifndef MG_SPACE_LIST_H
#define MG_SPACE_LIST_H

#include "sim/config/device.h"
#include "sim/search/rule.h"
#include "sim/search/space.h"

typedef struct mg_space_list {
    uint64_t      *raw;           /* per member: its raw combination */
    unsigned char *fired;         /* per member: the rules that fire (0 without rules) */
    uint64_t       n, cap;
} mg_space_list;

/* Append member c (the next in order): its raw combination and, with
 * rules (may be NULL), the rules that fire on it on dev (mg_gen_plan's
 * static features).  Returns 0, or -1 with the problem in d. */
int  mg_space_list_add(mg_space_list *l, const mg_rules *rules, const mg_device *dev,
                       const mg_space_cand *c, mg_diag *d);
void mg_space_list_free(mg_space_list *l);

#endif
