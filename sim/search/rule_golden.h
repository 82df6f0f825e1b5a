/*
 * rule_golden.h - recorded pruning decisions (schema
 * "mgsim-prune-golden/1") and the regression check against them.
 *
 * The file: {"schema", "config", "space", "rules", "size", "kept",
 * "best", "decisions": [[SCHEDULE, [RULE, ...]], ...]} with every
 * member of the space in enumeration order, SCHEDULE canonical
 * (mg_schedule_format), the fired rules in rule order ([] = kept).  "best"
 * is null, or the SCHEDULE of the fastest simulated candidate of a sweep
 * (`mgsim prune --update-golden --results R.jsonl`); the check then also
 * fails when the best is pruned.  Candidates are matched by schedule text,
 * not position.
 */
#ifndef MG_RULE_GOLDEN_H
#define MG_RULE_GOLDEN_H

#include <stddef.h>
#include <stdio.h>

#include "base/diag.h"

typedef struct mg_decision {
    char    *sched;
    unsigned mask;               /* fired rules (rule.h bits) */
} mg_decision;

typedef struct mg_decisions {
    size_t n, cap;
    mg_decision *v;
    char config[64], space[64], rules[64];
    char *best;                  /* the recorded best schedule, or NULL */
} mg_decisions;

int  mg_decisions_add(mg_decisions *ds, const char *sched, unsigned mask);
void mg_decisions_free(mg_decisions *ds);

/* Write atomically (temp + rename).  Returns 0, or -1 with an error. */
int mg_golden_write(const char *path, const mg_decisions *ds, mg_diag *d);
/* Read; -1 with an error naming the file and JSON path. */
int mg_golden_read(const char *path, mg_decisions *ds, mg_diag *d);

/* Compare cur with the golden; print a readable diff (at most max lines,
 * then a count) to f.  Returns the number of differences. */
size_t mg_golden_diff(const mg_decisions *golden, const mg_decisions *cur, FILE *f, size_t max);

#endif
