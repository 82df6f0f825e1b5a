/*
 * tracer.h - check a generated trace against what the kernel itself did.
 *
 * A kernel built with -DMG_TRACE_LOG (gen.h) records every memory access
 * it makes into a log buffer, per work item.  mg_tracer_compare() expands
 * the generator's trace into the same per-work-item sequences and compares
 * them access by access: the trace is faithful when every item of the
 * launch made exactly the accesses the trace says, in the same order, at
 * the same addresses.  Pure C: the log comes from whoever ran the kernel
 * (mgprobe, or a test).
 *
 * Log layout (gen.h): item g (global linear id, x fastest) owns the words
 * [g * MG_TRACER_STRIDE(cap), (g + 1) * MG_TRACER_STRIDE(cap)): word 0 is
 * the number of accesses the item made (may exceed cap: the log is then
 * incomplete), words 1..3 are unused, and access i (i < cap) is the four
 * words at 4 + 4*i:  [site << 8 | mg_rec_type, object id, a, b], with a the
 * byte address (buffers, local, constant) or texel x, b the texel y (images;
 * ignored for other types).  Texel coordinates are compared as signed 32-bit
 * values, byte addresses as unsigned ones.
 *
 * Work items and warps: lane l of warp w of a work group is the item with
 * local linear id w * warp + l (x fastest); its global id is
 * group id * local size + local id per dimension.
 */
#ifndef MG_TRACER_H
#define MG_TRACER_H

#include <stddef.h>
#include <stdint.h>

#include "traces/gen/gen.h"
#include "base/diag.h"

#define MG_TRACER_HDR_WORDS     4      /* per item, before its accesses */
#define MG_TRACER_ACCESS_WORDS  4      /* per access */
#define MG_TRACER_MAX_MISMATCHES 5     /* items described in a report */
#define MG_TRACER_MSG_MAX       320

/* Words one item owns in the log when each item may record `cap` accesses. */
#define MG_TRACER_STRIDE(cap) \
    ((uint64_t)MG_TRACER_HDR_WORDS + (uint64_t)MG_TRACER_ACCESS_WORDS * (uint64_t)(cap))

typedef struct mg_tracer_report {
    uint64_t items;          /* work items compared (every item of the NDRange) */
    uint64_t accesses;       /* accesses compared (log entries checked) */
    uint64_t expected;       /* accesses in the trace, over every item */
    uint64_t bad_items;      /* items whose log differs from the trace */
    int      n_msgs;         /* messages stored below (<= MG_TRACER_MAX_MISMATCHES) */
    char     msg[MG_TRACER_MAX_MISMATCHES][MG_TRACER_MSG_MAX];
} mg_tracer_report;

/* Work items in g's NDRange (product of the global sizes). */
uint64_t mg_tracer_items(const mg_kernel *k);

/* Words of the log buffer of kernel k: items x MG_TRACER_STRIDE(log_cap);
 * 0 when that does not fit in size_t (or log_cap is negative). */
size_t mg_tracer_log_words(const mg_kernel *k);

/* Compare g's trace (every work group, through mg_gen_trace_wg) with the
 * instrumented log of one run (log_words words, laid out as above).  Fills
 * *rep (always, from zero).  Returns 0 when every item's accesses match the
 * trace, 1 when some differ (rep->bad_items > 0; the first
 * MG_TRACER_MAX_MISMATCHES are described in rep->msg: the item's global id,
 * the access index, expected vs got); an item that made more accesses than
 * k.log_cap is a difference ("log_cap too small"), never skipped.  Returns
 * -1 when the comparison cannot be made (a log shorter than
 * mg_tracer_log_words, a trace that cannot be produced or decoded), with a
 * message in d. */
int mg_tracer_compare(const mg_gen *g, const uint32_t *log, size_t log_words,
                      mg_tracer_report *rep, mg_diag *d);

#endif
