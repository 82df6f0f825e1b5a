/*
 * memo.h - a sweep's memory of simulated candidates, keyed by what the
 * timing model sees (README.md, "mgsim sweep": identical simulations).
 *
 * Some knobs change only the OpenCL text, never the plan (launch, static
 * features) or the trace: an op lists them in mg_op.trace_inert (conv2d's
 * unroll pragma, for one).  Candidates that differ only in such knobs
 * simulate to the same numbers, so a sweep simulates the first it meets
 * and copies the result to the others.  The copy is exact (the simulation
 * is deterministic), so a sweep's results are the same with or without the
 * memo, and for any thread count.  tests/unit/test_sweep.c checks, for
 * every op that lists trace-inert knobs, that they really leave the plan
 * and the simulation unchanged.
 *
 * Thread-safe: a mutex guards the table.  The first thread to look a key up
 * claims it and simulates; others that meet the key meanwhile wait for its
 * result (neighbouring candidates often share a key, and several threads
 * take neighbours at once).
 */
#ifndef MG_MEMO_H
#define MG_MEMO_H

#include <stddef.h>
#include <stdint.h>

#include "traces/gen/schedule.h"
#include "sim/search/sweep.h"

typedef struct mg_memo mg_memo;

/* A new, empty memo; NULL when out of memory. */
mg_memo *mg_memo_new(void);
void     mg_memo_free(mg_memo *m);

/* The model key of schedule s whose canonical words are `canon`: canon
 * without the words of s's op's trace-inert knobs.  Returns 0, or -1 when
 * the key does not fit in n bytes. */
int mg_memo_key(const mg_schedule *s, const char *canon, char *key, size_t n);

/* Look key up, waiting while another thread simulates it (with nowait:
 * returning 2 instead of waiting).  Returns 1 with its result copied into
 * *r (every field but index, schedule, reason, has_rules and fired, which
 * stay r's own); 0 when the caller has claimed the key and must simulate
 * and then call mg_memo_put (always, even for a rejection); -1 when the
 * caller must simulate without putting (the key's owner was rejected, or
 * no memory). */
int mg_memo_get(mg_memo *m, const char *key, int nowait, mg_sweep_result *r);

/* Settle a key claimed by mg_memo_get: store r's result when r->ok or
 * r->cut (a memo serves one cycle limit: twins share their shape's), else
 * mark it abandoned (its waiters simulate for themselves).  Wakes them. */
void mg_memo_put(mg_memo *m, const char *key, const mg_sweep_result *r);

/* Lookups answered from the memo so far. */
uint64_t mg_memo_hits(mg_memo *m);

#endif
