/*
 * bound.h - a lower bound of a launch's cycles from its trace alone
 * (internal to sim/model and the analytic model, sim/analytic; sim/MODEL.md,
 * "The trace's lower bound").
 *
 * Every pipe of the model serves requests one after another at a fixed
 * rate, and a launch ends only after every request it made has been
 * served.  So the launch takes at least as long as any pipe is busy, and
 * the busy time the trace alone fixes is known before any replay: ALU
 * issue (mg_alu_units), and the bytes each memory record moves through the
 * texture, buffer, local and constant ports of its SP and through the L2
 * (mg_mem_pipes; cache misses, which depend on the replay, are left
 * out).  The per-SP pipes are summed over the SPs and divided by their
 * count: however the work groups were spread, some SP was busy at least
 * that long.
 *
 * A sweep's cutoff (mg_sim_opts.cycle_limit) uses it: a candidate whose
 * bound already passes the bar is cut without being replayed.
 */
#ifndef MG_BOUND_H
#define MG_BOUND_H

#include "sim/model/sim_internal.h"

typedef struct mg_bound {
    const mg_device *dev;
    uint64_t alu[MG_ALU_CLASS_COUNT][2];  /* lane-operations: vector, scalar pipe */
    uint64_t bytes[MG_BP_COUNT];          /* memory pipes' bytes (per-SP ones summed) */
    int8_t   pipes[MG_REC_TYPE_COUNT][2]; /* per record type: the pipes it takes (-1 none) */
    double   alu_rate[MG_ALU_CLASS_COUNT];/* mg_alu_rate, per class */
    double   pipe_rate[MG_BP_COUNT];      /* mg_mem_pipe_rate, per memory pipe */
} mg_bound;

void mg_bound_init(mg_bound *b, const mg_device *dev);

/* Add what record r fixes. */
void mg_bound_add(mg_bound *b, const mg_rec *r);

/* Add what work group wg's records fix.  Returns 0, -1 on a malformed
 * record (message in d). */
int mg_bound_add_wg(mg_bound *b, const mg_trace_wg *wg, mg_diag *d);

/* The bound, in replay cycles (no launch overhead), of what was added;
 * *pipe (may be NULL) is the binding pipe, MG_BP_*. */
double mg_bound_cycles(const mg_bound *b, int *pipe);

/* Add every work group of src (which must have wg_at), through the shape
 * sink.  Returns 0, -1 on a source error (message in d). */
int mg_bound_launch(mg_bound *b, mg_trace_source *src, mg_diag *d);

/* Before the replay of s: does the trace alone show that the launch takes
 * more than `limit` replay cycles?  Work groups are generated in order
 * (the source's wg_at; nothing moves the stream) and summed until their
 * bound passes the limit (1), or until the bound of the whole launch,
 * projected from the work groups so far, falls clearly short of it (0: the
 * replay decides).  Returns 1, 0, or -1 on a source error (s->failed set,
 * message in s->d).  Only ever 1 when the limit is truly passed. */
int mg_bound_over(mg_sim *s, double limit);

#endif
