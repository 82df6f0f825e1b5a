/*
 * ops_util.h - helpers for the per-operator unit tests (test_ops_*.c):
 * parse a schedule line, prepare its generator, expect a rejection with a
 * reason, and compare a
 * generated trace with the kernel's static features (flops, log capacity,
 * barriers) or with the trace of another schedule.
 */
#ifndef MG_TEST_OPS_UTIL_H
#define MG_TEST_OPS_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "traces/gen/gen.h"

/* Parse "OP key=val ..." into *s.  Returns 0, or -1 with the first message
 * in err. */
int ops_parse(const char *line, mg_schedule *s, char *err, size_t errlen);

/* Parse line with warp width warp and prepare the generator in *g (the
 * caller frees it with mg_gen_free).  Returns 0, or -1 with the message
 * printed on stderr. */
int ops_prepare(const char *line, int warp, mg_gen *g);

/* Assert that line is rejected with a message containing want. */
void ops_expect_reject(const char *line, const char *want);

/* What a generated launch's trace adds up to, over every work group. */
typedef struct ops_totals {
    double   flops;          /* sum over ALU records: active lanes x n x vec x flops */
    uint64_t accesses;       /* lane accesses of memory records */
    uint64_t max_item;       /* most memory accesses of one work item */
    uint64_t barriers;       /* barrier records */
    uint64_t warps;          /* warps */
    int      bad_fence;      /* a barrier record without the local fence bit */
} ops_totals;

/* Generate line (it must parse) and sum its trace into *t; the kernel is
 * left in *g (the caller frees it with mg_gen_free). */
void ops_totals_of(const char *line, mg_gen *g, ops_totals *t);

/* Assert that line's trace flops equal its features' flops, and want when
 * want >= 0; that no item makes more accesses than log_cap (and, when
 * tight, exactly log_cap for some item); and that every warp meets
 * `barriers` barriers with the local-memory fence. */
void ops_check_trace(const char *line, double want, int tight, int barriers);

/* Assert that schedules a and b (the same but for the access pattern)
 * make the same accesses per work item, as multisets, and that their
 * orders differ when differ is set. */
void ops_check_reorder(const char *a, const char *b, int differ);

#endif
