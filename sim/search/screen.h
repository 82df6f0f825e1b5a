/*
 * screen.h - the analytical screen of a two-stage sweep (`mgsim sweep
 * --screen analytic:K`): every candidate the sweep would simulate is
 * ranked by the analytical model (sim/analytic/analytic.h), and only the K
 * fastest of each shape (plus, with "+kept", every candidate the rules
 * keep) go on to be simulated (internal to sim/search; sim/MODEL.md,
 * "Two-stage sweeps").
 */
#ifndef MG_SCREEN_H
#define MG_SCREEN_H

#include "sim/search/space_list.h"
#include "sim/search/sweep.h"

/* Parse "analytic:K" or "analytic:K+kept" (K >= 1) into *k and *kept.
 * Returns 0, or -1 for anything else. */
int mg_screen_parse(const char *s, uint64_t *k, int *kept);

/* "analytic:K" or "analytic:K+kept" into buf. */
const char *mg_screen_str(uint64_t k, int kept, char *buf, size_t len);

/* Rank the candidates of cfg's space that the sweep would simulate (all,
 * or with cfg->pruned_only the ones the rules keep) on cfg->threads
 * threads and choose the ones to simulate: *keep (malloc'd, one byte per
 * member of the space, 1: simulate) and sum->screen_ranked/_chosen.  list:
 * every member and the rules that fire on it (the sweep's count pass);
 * only the candidates ranked are assembled again.  The choice depends
 * only on the inputs (ties go to the lower index), never on the threads.
 * sum's shape groups must be counted already.  Returns 0, or -1 with the
 * problem in d. */
int mg_screen_select(const mg_sweep_cfg *cfg, mg_sweep_sum *sum, const mg_space_list *list,
                     unsigned char **keep, mg_diag *d);

#endif
